//! A plain-text rating report for one tournament: per player the rating change (or the initial
//! rating estimate), the performance and the title-norm status.

use crate::change::{KFactor, KInputs, RatedGame, rating_change};
use crate::initial::initial_rating;
use crate::norms::{NormEvent, NormKind, NormOpponent, NormRound, find_norm};
use crate::performance::performance;
use crate::rules::{Category, Date, RuleSet};
use crate::title::{Federation, Sex, Title, Titles};
use arbiter_core::{PlayerId, ResultCode, RoundEntry, Score};
use std::collections::HashMap;
use std::fmt::Write;

/// How a player's K factor is obtained.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KSource {
    /// Known, e.g. the K column of the rating list (the `K × n <= 700` cap still applies).
    Given(u8),
    /// Derived from the player's status (B.02 8.3.3); the period year is the event's.
    Derive {
        birth_year: Option<i32>,
        /// Rated games completed before this event.
        rated_games_before: u32,
        /// A published rating has at some time reached 2400.
        ever_reached_2400: bool,
    },
}

/// One player of the tournament, as the report needs them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportPlayer {
    /// Pairing number; what the opponents' [`RoundEntry::opponent`] refer to.
    pub id: PlayerId,
    pub name: String,
    /// Rating in the event's category from the list in force at the start; `None`: unrated.
    pub rating: Option<u16>,
    /// Standard rating: a player unrated in rapid/blitz who has one is rated with it
    /// (rapid/blitz regulations 7.2.1).
    pub standard_rating: Option<u16>,
    pub k: KSource,
    pub titles: Titles,
    pub federation: Federation,
    pub sex: Option<Sex>,
    /// `rounds[i]` is round `i + 1`, from this player's side (core TRF codes).
    pub rounds: Vec<RoundEntry>,
    /// Rated games in the whole rating period, for `K × n <= 700`; `None`: this event's.
    pub games_in_period: Option<u32>,
}

/// A tournament for [`rate_report`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportEvent {
    pub name: String,
    /// Start date: picks the rule-set unless [`rule_set`](Self::rule_set) is given.
    pub start: Date,
    pub rule_set: Option<RuleSet>,
    pub category: Category,
    /// Norm rules of the event (format, exemptions); `None`: no norm checks. Norms are only
    /// checked for standard events.
    pub norms: Option<NormEvent>,
    pub players: Vec<ReportPlayer>,
}

impl ReportPlayer {
    /// The rating used in the event's category (7.2.1 for rapid/blitz).
    pub fn effective_rating(&self, category: Category) -> Option<u16> {
        match category {
            Category::Standard => self.rating,
            _ => self.rating.or(self.standard_rating),
        }
    }
}

fn signed(v: i32) -> String {
    if v > 0 {
        format!("+{v}")
    } else {
        v.to_string()
    }
}

fn points(s: Score) -> String {
    s.to_string()
}

/// The norms worth checking for a player: titles above those held, women's only for women.
fn norms_for(p: &ReportPlayer) -> Vec<NormKind> {
    let rank = |t: Title| match t {
        Title::GM => 4,
        Title::IM => 3,
        Title::WGM => 2,
        Title::WIM => 1,
        _ => 0,
    };
    let held = p.titles.iter().map(rank).max().unwrap_or(0);
    NormKind::ALL
        .into_iter()
        .filter(|n| rank(n.title()) > held)
        .filter(|n| !n.women_only() || p.sex == Some(Sex::Female))
        .collect()
}

/// Prints, for each player in input order: rating, K, score, expected score, `ΣΔR`, the
/// change (exact and rounded) and new rating, or for an unrated player the initial-rating
/// estimate from this event; the performance (`Ra`, `p`, `Rp`) over played games against rated
/// opponents; and the status of each title norm above the player's titles (standard events
/// with [`ReportEvent::norms`]), with every failing condition and by how much it fails.
///
/// The rule-set is [`ReportEvent::rule_set`] or the one in force on the start date; before
/// 2022 the 2022 text is used and the report says so.
pub fn rate_report(event: &ReportEvent) -> String {
    let mut out = String::new();
    let (rule_set, note) = match event.rule_set.or_else(|| RuleSet::in_force_on(event.start)) {
        Some(r) => (r, ""),
        None => (
            RuleSet::B02_2022,
            " (start before 2022: earliest modelled rules used)",
        ),
    };
    let _ = writeln!(
        out,
        "Rating report: {} ({}, start {}, rules {}{})",
        event.name, event.category, event.start, rule_set, note
    );
    let by_id: HashMap<PlayerId, &ReportPlayer> = event.players.iter().map(|p| (p.id, p)).collect();
    let rating_of = |id: PlayerId| {
        by_id
            .get(&id)
            .and_then(|p| p.effective_rating(event.category))
    };

    for p in &event.players {
        let own = p.effective_rating(event.category);
        let mut unknown_opponents = Vec::new();
        let games: Vec<RatedGame> = p
            .rounds
            .iter()
            .enumerate()
            .filter_map(|(i, e)| {
                let opp = e.opponent?;
                if !by_id.contains_key(&opp) {
                    unknown_opponents.push(opp);
                }
                Some(RatedGame::new(i as u32 + 1, rating_of(opp), e.result))
            })
            .collect();
        let total: Score = p
            .rounds
            .iter()
            .map(|e| match e.result {
                ResultCode::Win
                | ResultCode::WinUnrated
                | ResultCode::ForfeitWin
                | ResultCode::FullBye
                | ResultCode::PairingBye => Score::ONE,
                ResultCode::Draw | ResultCode::DrawUnrated | ResultCode::HalfBye => Score::HALF,
                _ => Score::ZERO,
            })
            .sum();
        let _ = writeln!(
            out,
            "\n{:>4} {} {} {} {} | {} pts in {} rounds",
            p.id,
            p.name,
            p.federation,
            if p.titles.is_empty() {
                "-".to_string()
            } else {
                p.titles.to_string()
            },
            own.map_or("unrated".to_string(), |r| r.to_string()),
            points(total),
            p.rounds.len()
        );
        if !unknown_opponents.is_empty() {
            let _ = writeln!(
                out,
                "     warning: opponents not in the player list (taken as unrated): {unknown_opponents:?}"
            );
        }

        match own {
            Some(r) => {
                let rated_n = games
                    .iter()
                    .filter(|g| {
                        g.opponent_rating.is_some()
                            && crate::change::rated_score(g.result).is_some()
                    })
                    .count() as u32;
                let n = p.games_in_period.unwrap_or(rated_n);
                let k = match p.k {
                    KSource::Given(k) => KFactor::given(u32::from(k), n),
                    KSource::Derive {
                        birth_year,
                        rated_games_before,
                        ever_reached_2400,
                    } => KFactor::derive(
                        &KInputs {
                            rating: r,
                            birth_year,
                            period_year: event.start.year,
                            rated_games_before,
                            ever_reached_2400,
                        },
                        n,
                    ),
                };
                let c = rating_change(rule_set, r, k.k, &games);
                let kdesc = if k.capped() {
                    format!(
                        "K {} ({}, lowered from {} for {} games)",
                        k.k, k.reason, k.status_k, n
                    )
                } else {
                    format!("K {} ({})", k.k, k.reason)
                };
                let _ = writeln!(
                    out,
                    "     rating: {kdesc}; rated games {}, score {}, expected {}, sum dR {}, change {} -> {}, new rating {}",
                    c.games.len(),
                    points(c.score),
                    c.expected,
                    c.sum_delta_r,
                    c.change_exact,
                    signed(c.change),
                    c.new_rating
                );
                let capped: Vec<String> = c
                    .games
                    .iter()
                    .filter(|g| g.capped)
                    .map(|g| format!("r{} ({} -> 400)", g.round, g.diff_actual.abs()))
                    .collect();
                if !capped.is_empty() {
                    let _ = writeln!(
                        out,
                        "     400-point rule: {}{}",
                        capped.join(", "),
                        if c.cap_tie {
                            " (tie: earliest round)"
                        } else {
                            ""
                        }
                    );
                }
                if c.falls_below_floor() {
                    let _ = writeln!(
                        out,
                        "     note: below the {} floor: listed as unrated",
                        rule_set.rating_floor()
                    );
                }
            }
            None => match initial_rating(rule_set, &[&games]) {
                Some(ir) => {
                    let _ = writeln!(
                        out,
                        "     initial rating estimate: Ru {} (exact {}) from {} games vs rated opponents, {} pts{}{}{}",
                        ir.ru,
                        ir.ru_exact,
                        ir.games,
                        points(ir.points),
                        if ir.discarded_first_event {
                            "; zero score: discarded"
                        } else {
                            ""
                        },
                        if ir.limited_to_max {
                            "; limited to the maximum"
                        } else {
                            ""
                        },
                        if ir.publishable {
                            String::new()
                        } else {
                            format!(
                                "; not publishable yet (needs {} games and at least {})",
                                crate::initial::MIN_GAMES_FOR_FIRST_RATING,
                                rule_set.rating_floor()
                            )
                        }
                    );
                }
                None => {
                    let _ = writeln!(
                        out,
                        "     initial rating: no played games against rated opponents"
                    );
                }
            },
        }

        // Performance over played games against rated opponents.
        let perf_games: Vec<(i32, Score)> = games
            .iter()
            .filter_map(|g| {
                Some((
                    i32::from(g.opponent_rating?),
                    crate::change::rated_score(g.result)?,
                ))
            })
            .collect();
        match performance(
            perf_games.iter().map(|g| g.0),
            perf_games.iter().map(|g| g.1).sum(),
        ) {
            Some(pf) => {
                let _ = writeln!(
                    out,
                    "     performance: {} games, {} pts, Ra {}, p {}, dp {}, Rp {}",
                    pf.games,
                    points(pf.points),
                    pf.ra,
                    pf.p,
                    signed(pf.dp),
                    pf.rp
                );
            }
            None => {
                let _ = writeln!(
                    out,
                    "     performance: no played games against rated opponents"
                );
            }
        }

        // Norms.
        let Some(norm_event) = event.norms.filter(|_| event.category == Category::Standard) else {
            continue;
        };
        let rounds: Vec<NormRound> = p
            .rounds
            .iter()
            .enumerate()
            .map(|(i, e)| NormRound {
                round: i as u32 + 1,
                result: e.result,
                opponent: e
                    .opponent
                    .and_then(|id| by_id.get(&id))
                    .map(|o| NormOpponent {
                        id: o.id,
                        federation: o.federation,
                        titles: o.titles,
                        rating: o.rating,
                    }),
                exclusion: None,
            })
            .collect();
        let wanted = norms_for(p);
        if wanted.is_empty() {
            let _ = writeln!(out, "     norms: none above the titles held");
            continue;
        }
        for norm in wanted {
            let s = find_norm(norm, p.federation, &rounds, &norm_event);
            match &s.best {
                Some(b) => {
                    let mut extra = String::new();
                    if !b.ignored_rounds.is_empty() {
                        let _ = write!(extra, ", ignoring rounds {:?}", b.ignored_rounds);
                    }
                    if b.short_event_rule {
                        extra.push_str(", 8 games counted as 9 (1.4.1c)");
                    }
                    if b.last_round_forfeit_as_loss {
                        extra.push_str(", last-round no-show counted as a loss (1.4.2c)");
                    }
                    if let Some(f) = b.floor_adjustment {
                        let _ = write!(extra, ", floor {} -> {}", f.from, f.to);
                    }
                    let _ = writeln!(
                        out,
                        "     {} norm: ACHIEVED: {} games (counts as {}), {} pts, Ra {}, Rp {}{}",
                        norm,
                        b.games,
                        b.counts_as,
                        points(b.score),
                        b.ra,
                        b.rp,
                        extra
                    );
                }
                None => {
                    let f = &s.full;
                    let failed: Vec<String> = f.failed().map(|c| c.to_string()).collect();
                    let _ = writeln!(
                        out,
                        "     {} norm: not achieved: {} games, {} pts, Ra {}, Rp {}; {}",
                        norm,
                        f.games,
                        points(f.score),
                        f.ra,
                        f.rp,
                        failed.join("; ")
                    );
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_core::Color;

    fn player(
        id: u32,
        name: &str,
        rating: Option<u16>,
        titles: &[Title],
        fed: &str,
        sex: Sex,
    ) -> ReportPlayer {
        ReportPlayer {
            id,
            name: name.into(),
            rating,
            standard_rating: None,
            k: KSource::Derive {
                birth_year: Some(1990),
                rated_games_before: 100,
                ever_reached_2400: rating.is_some_and(|r| r >= 2400),
            },
            titles: Titles::of(titles),
            federation: Federation::new(fed).unwrap(),
            sex: Some(sex),
            rounds: Vec::new(),
            games_in_period: None,
        }
    }

    fn play(ps: &mut [ReportPlayer], a: u32, b: u32, result_a: ResultCode) {
        let res_b = result_a.mirrored().unwrap();
        let ia = ps.iter().position(|p| p.id == a).unwrap();
        let ib = ps.iter().position(|p| p.id == b).unwrap();
        ps[ia]
            .rounds
            .push(RoundEntry::game(b, Color::White, result_a));
        ps[ib].rounds.push(RoundEntry::game(a, Color::Black, res_b));
    }

    #[test]
    fn report_lists_changes_performance_and_norms() {
        let mut ps = vec![
            player(1, "Alpha, A", Some(2450), &[Title::IM], "ESP", Sex::Male),
            player(2, "Beta, B", Some(2300), &[Title::FM], "FRA", Sex::Male),
            player(3, "Gamma, G", None, &[], "ESP", Sex::Female),
        ];
        play(&mut ps, 1, 2, ResultCode::Win);
        play(&mut ps, 1, 3, ResultCode::Draw);
        play(&mut ps, 2, 3, ResultCode::Loss);
        ps[2].rounds.push(RoundEntry::bye(ResultCode::PairingBye));
        let ev = ReportEvent {
            name: "Test Open".into(),
            start: Date::new(2024, 5, 1),
            rule_set: None,
            category: Category::Standard,
            norms: Some(NormEvent::swiss(3)),
            players: ps,
        };
        let r = rate_report(&ev);
        assert!(r.contains("rules b02-2024"), "{r}");
        // Alpha 2450 (K 10) beat 2300 (D 150 -> H 0.70): +0.30 x 10 = +3; the draw is unrated.
        assert!(r.contains("rated games 1, score 1.0, expected 0.70, sum dR 0.30, change 3.00 -> +3, new rating 2453"), "{r}");
        // Beta lost to the unrated player: only the game against Alpha counts.
        assert!(r.contains("change -6.00 -> -6, new rating 2294"), "{r}");
        // Gamma: 1.5 from 2 rated games -> initial rating estimate, not publishable.
        assert!(r.contains("initial rating estimate: Ru"), "{r}");
        assert!(r.contains("not publishable yet"), "{r}");
        assert!(r.contains("GM norm: not achieved: 2 games"), "{r}");
        assert!(r.contains("games 2 < 9: off by 7"), "{r}");
        assert!(r.contains("WGM norm"), "women's norms for a woman: {r}");
        let alpha = r.split("\n\n").find(|s| s.contains("Alpha")).unwrap();
        assert!(
            alpha.contains("GM norm") && !alpha.contains("IM norm"),
            "no IM norm for an IM: {alpha}"
        );
        let beta = r.split("\n\n").find(|s| s.contains("Beta")).unwrap();
        assert!(
            !beta.contains("WGM norm"),
            "no women's norms for a man: {beta}"
        );
        // 2024 initial rating: (2450 + 2300 + 3600) / 4 = 2087.5, p = 2.5/4 -> .63 -> +95.
        assert!(r.contains("Ru 2183 (exact 2182.5000)"), "{r}");
    }

    #[test]
    fn rapid_uses_standard_rating_when_unrated() {
        let mut a = player(1, "A", None, &[], "ESP", Sex::Male);
        a.standard_rating = Some(2000);
        assert_eq!(a.effective_rating(Category::Rapid), Some(2000));
        assert_eq!(a.effective_rating(Category::Standard), None);
    }
}
