//! The standings of a tournament: the one computation behind every interface (gRPC
//! `GetStandings`, `arbiter client standings`, the JSON API, the HTML pages, the crosstable's
//! places and the rank of the TRF export's 001 records).
//!
//! They count the rounds whose results are all in (or `after_round`, if lower), order by points,
//! then by the tournament's own tie-break list (`TournamentCreated.tie_breaks`), else by the
//! recommended list for the kind of event ([`arbiter_tiebreak::default_tiebreaks`]), under the
//! C.07 version in force on the start date. Players equal on everything share their place.
//! `arbiter standings FILE.trf` runs the same engine on the same model read from a TRF file.

use arbiter_core::tournament::{PairingSystem, State};
use arbiter_core::{PlayerId, ResultCode, RoundEntry};
use arbiter_pages::place_label;
use arbiter_tiebreak::MAX_TIE_BREAKS;
use arbiter_tiebreak::{
    Acronym, EdeChain, Options, PairingKind, RuleSet, ScoreRef, Standings, TieBreak, TieBreakList,
    Tournament, default_tiebreaks, event_kind,
};
use serde::Serialize;
use std::fmt;

/// Why a standings table could not be made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StandingsError {
    /// The tie-break list given with the request cannot be used (the caller's mistake).
    BadList(String),
    /// The tie-break engine failed on the tournament's own data.
    Engine(String),
}

impl fmt::Display for StandingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StandingsError::BadList(m) | StandingsError::Engine(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for StandingsError {}

/// Rounds 1..=k whose pairings are published and whose results are all in: the rounds a
/// standings table counts, and the history a TRF export carries.
pub fn complete_rounds(state: &State) -> u32 {
    let mut k = 0;
    while let Some(p) = state.published(k + 1) {
        if p.boards.iter().any(|b| b.result.is_none()) {
            break;
        }
        k += 1;
    }
    k
}

/// Where the tie-break list of a standings table came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListSource {
    /// The tournament's own list.
    Tournament,
    /// The recommended list for the kind of event (the tournament has none).
    Recommended,
    /// Given with the request.
    Request,
}

impl ListSource {
    pub fn as_str(self) -> &'static str {
        match self {
            ListSource::Tournament => "tournament",
            ListSource::Recommended => "recommended",
            ListSource::Request => "request",
        }
    }
}

/// The standings of a tournament after some round, with everything the interfaces say about
/// them.
#[derive(Debug, Clone)]
pub struct Ranking {
    /// The rounds counted: 1..=after_round.
    pub after_round: u32,
    /// The tie-break engine's model of those rounds.
    pub model: Tournament,
    pub standings: Standings,
    pub source: ListSource,
    /// Set when the tournament's list could not be read and the recommended one was used.
    pub note: Option<String>,
}

/// One tie-break value as every interface shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Value {
    /// The code with its modifiers, e.g. `BH/C1`.
    pub code: String,
    /// Rounded to the decimals the rules print it with: `units / 10^scale`; `None` when the
    /// tie-break is undefined for the player.
    pub units: Option<i64>,
    pub scale: u32,
    /// As printed ("" when undefined).
    pub text: String,
}

/// One line of the standings as every interface shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Line {
    pub rank: u32,
    /// Last place of a shared range (`rank` when not shared).
    pub rank_to: u32,
    /// "3" or "3-5".
    pub place: String,
    pub player_id: PlayerId,
    pub name: String,
    /// 0 when unrated.
    pub rating: u32,
    pub federation: String,
    /// Points in tenths.
    pub points: i32,
    pub tie_breaks: Vec<Value>,
}

impl Ranking {
    /// The tie-breaks applied, as codes.
    pub fn codes(&self) -> Vec<String> {
        self.standings
            .tiebreaks
            .iter()
            .map(|t| t.to_string())
            .collect()
    }

    /// The rule version's identifier (`c07-2024-08`, ...).
    pub fn rule_version(&self) -> &'static str {
        self.standings.rule_set.id()
    }

    /// The note and the engine's warnings.
    pub fn notes(&self) -> Vec<String> {
        self.note
            .iter()
            .cloned()
            .chain(self.standings.warnings.iter().cloned())
            .collect()
    }

    /// The lines in rank order (players sharing a place by pairing number).
    pub fn lines(&self) -> Vec<Line> {
        let codes = self.codes();
        self.standings
            .rows
            .iter()
            .map(|r| Line {
                rank: r.rank,
                rank_to: r.rank_to,
                place: place_label(r.rank, r.rank_to),
                player_id: r.id,
                name: r.name.clone(),
                rating: r.rating.unwrap_or(0),
                federation: r.federation.clone().unwrap_or_default(),
                points: tenths(r.points),
                tie_breaks: r
                    .values
                    .iter()
                    .zip(&self.standings.decimals)
                    .zip(&codes)
                    .map(|((v, d), code)| Value {
                        code: code.clone(),
                        units: v.map(|x| {
                            let x = x.round_to(*d);
                            x.numer() * 10i64.pow(*d) / x.denom()
                        }),
                        scale: *d,
                        text: v.map(|x| x.to_decimal_string(*d)).unwrap_or_default(),
                    })
                    .collect(),
            })
            .collect()
    }

    /// Place (`rank`, `rank_to`) of player `pn`, when ranked.
    pub fn place_of(&self, pn: PlayerId) -> Option<(u32, u32)> {
        self.standings
            .rows
            .iter()
            .find(|r| r.id == pn)
            .map(|r| (r.rank, r.rank_to))
    }
}

/// Points are tenths in the engine's model, so the rational is exact in tenths.
fn tenths(points: arbiter_tiebreak::Rational) -> i32 {
    (points.numer() * 10 / points.denom()) as i32
}

/// The tie-break engine's model of `state` over rounds 1..=rounds. A round a player has no
/// entry for (not yet published, or his game still on) counts as an absence.
pub fn model(state: &State, rounds: u32) -> Tournament {
    let mut m = Tournament::new(rounds);
    if let Some(t) = state.tournament() {
        m.point_system = t.scoring;
        let d = t.start_date;
        m.start_date = arbiter_tiebreak::Date::new(
            u16::try_from(d.year()).unwrap_or(0),
            d.month() as u8,
            d.day() as u8,
        );
        m.pairing = match t.pairing_system {
            PairingSystem::RoundRobin
            | PairingSystem::DoubleRoundRobin
            | PairingSystem::Scheveningen
            | PairingSystem::SemiScheveningen
            | PairingSystem::Skalitzka
            | PairingSystem::Hilton
            | PairingSystem::Knockout => PairingKind::PreDetermined,
            _ => PairingKind::Swiss,
        };
    }
    // C.05 §6.6: a round robin's player who withdrew before completing half of his games
    // counts for nobody's points (his results stay in the crosstable and the TRF for rating):
    // his rounds, and his opponents' rounds against him, count as unplayed, zero-point rounds.
    let cancelled = state.withdrawn_below_half();
    let counted = |pn: PlayerId, e: RoundEntry| {
        if cancelled.contains(&pn) || e.opponent.is_some_and(|o| cancelled.contains(&o)) {
            RoundEntry::bye(ResultCode::ZeroBye)
        } else {
            e
        }
    };
    m.players = state
        .players()
        .map(|p| {
            let pn = p.pairing_number();
            arbiter_tiebreak::Player {
                id: pn,
                name: p.player.name.clone(),
                rating: (p.player.rating > 0).then_some(p.player.rating),
                federation: Some(p.player.federation.clone()).filter(|f| !f.trim().is_empty()),
                rounds: (1..=rounds)
                    .map(|r| {
                        counted(
                            pn,
                            state
                                .entry(pn, r)
                                .unwrap_or(RoundEntry::bye(ResultCode::ZeroBye)),
                        )
                    })
                    .collect(),
            }
        })
        .collect();
    m
}

/// The standings after `after_round` (`None`, or a round not yet complete: the last complete
/// round), with the tie-breaks `tiebreaks` (`None`: the tournament's list, else the
/// recommended one).
pub fn ranking(
    state: &State,
    after_round: Option<u32>,
    tiebreaks: Option<&str>,
) -> Result<Ranking, StandingsError> {
    let complete = complete_rounds(state);
    let after = after_round.map_or(complete, |r| r.min(complete));
    let m = model(state, after);
    let recommended = || default_tiebreaks(event_kind(&m)).0;
    let mut note = None;
    let (list, source): (Vec<TieBreak>, ListSource) = match tiebreaks {
        Some(text) if !text.trim().is_empty() => {
            // Each tie-break costs a pass over the field: the same bound as at creation,
            // counted before anything is parsed.
            let limit = MAX_TIE_BREAKS;
            let items = if text.contains(',') {
                text.split(',').count()
            } else {
                text.split_whitespace().count()
            };
            if items > limit {
                return Err(StandingsError::BadList(format!(
                    "tiebreaks: {items} tie-breaks, the limit is {limit}"
                )));
            }
            let list: TieBreakList = text
                .parse()
                .map_err(|e| StandingsError::BadList(format!("tiebreaks {text:?}: {e}")))?;
            if list.0.len() > limit {
                return Err(StandingsError::BadList(format!(
                    "tiebreaks: {} tie-breaks, the limit is {limit}",
                    list.0.len()
                )));
            }
            (list.0, ListSource::Request)
        }
        _ => {
            let own = state
                .tournament()
                .map(|t| t.tie_breaks.join(","))
                .unwrap_or_default();
            if own.trim().is_empty() {
                (recommended(), ListSource::Recommended)
            } else {
                match own.parse::<TieBreakList>() {
                    Ok(list) => (list.0, ListSource::Tournament),
                    Err(e) => {
                        note = Some(format!(
                            "the tournament's tie-breaks ({own}) cannot be used ({e}); the recommended list applies"
                        ));
                        (recommended(), ListSource::Recommended)
                    }
                }
            }
        }
    };
    let standings = arbiter_tiebreak::standings(&m, &list, &Options::default())
        .map_err(|e| StandingsError::Engine(format!("standings after round {after}: {e}")))?;
    Ok(Ranking {
        after_round: after,
        model: m,
        standings,
        source,
        note,
    })
}

/// The rule version in words.
pub fn rule_version_words(r: RuleSet) -> &'static str {
    match r {
        RuleSet::Legacy2009 => "rules before C.07",
        RuleSet::C07_2024 => "FIDE C.07 of 2024",
        RuleSet::C07_2026 => "FIDE C.07 of 2026",
    }
}

fn score_word(s: ScoreRef) -> &'static str {
    match s {
        ScoreRef::Match => "match points",
        ScoreRef::Game => "game points",
    }
}

/// A tie-break in plain words, for the legend under the standings: the criterion, then its
/// modifiers (e.g. `BH/C1` = "Buchholz, the lowest value cut").
pub fn plain_name(tb: &TieBreak) -> String {
    let base = match tb.acronym {
        Acronym::Pts => "points".to_string(),
        Acronym::De => "direct encounter between the tied players".to_string(),
        Acronym::Win => "number of wins (forfeit wins and byes for a win included)".to_string(),
        Acronym::Won => "number of games won over the board".to_string(),
        Acronym::Bpg => "number of games played with Black".to_string(),
        Acronym::Bwg => "number of games won with Black".to_string(),
        Acronym::Ps => "progressive score (sum of the running scores)".to_string(),
        Acronym::Rep => "rounds one elected to play".to_string(),
        Acronym::Std => "standard points".to_string(),
        Acronym::Tpn => "tournament pairing number".to_string(),
        Acronym::Bh => "Buchholz (sum of the opponents' scores)".to_string(),
        Acronym::Aob => "average of the opponents' Buchholz".to_string(),
        Acronym::Fb => "Fore Buchholz (last round counted as draws)".to_string(),
        Acronym::Sb => "Sonneborn-Berger (opponents' scores weighted by the results)".to_string(),
        Acronym::Ks => "Koya (points against opponents with at least half the points)".to_string(),
        Acronym::Aro => "average rating of the opponents".to_string(),
        Acronym::Tpr => "tournament performance rating".to_string(),
        Acronym::Ptp => "perfect tournament performance".to_string(),
        Acronym::Apro => "average performance rating of the opponents".to_string(),
        Acronym::Appo => "average perfect performance of the opponents".to_string(),
        Acronym::Rtng => "rating".to_string(),
        Acronym::MpVGp => "the other team score (match or game points)".to_string(),
        Acronym::Bc => "board count".to_string(),
        Acronym::Tbr => "top board result".to_string(),
        Acronym::Bbe => "bottom board elimination".to_string(),
        Acronym::Esb(a, b) => format!(
            "extended Sonneborn-Berger (opponents' {} times own {})",
            score_word(a),
            score_word(b)
        ),
        Acronym::Ede(c) => match c {
            EdeChain::Plain => "extended direct encounter",
            EdeChain::TopBoard => "extended direct encounter, then top board",
            EdeChain::BottomBoard => "extended direct encounter, then bottom board",
            EdeChain::CountTop => "extended direct encounter, then board count from the top",
            EdeChain::CountBottom => "extended direct encounter, then board count from the bottom",
        }
        .to_string(),
        Acronym::Sssc => "score and schedule strength combination".to_string(),
        Acronym::Kashdan { win, draw, loss } => {
            format!("Kashdan rescoring (win {win}, draw {draw}, loss {loss})")
        }
        Acronym::Sob => "sum of the opponents' Buchholz".to_string(),
    };
    let mut mods = Vec::new();
    if let Some(s) = tb.score {
        mods.push(format!("on {}", score_word(s)));
    }
    match (tb.cut_low, tb.cut_high) {
        (0, 0) => {}
        (1, 0) => mods.push("the lowest value cut".to_string()),
        (n, 0) => mods.push(format!("the {n} lowest values cut")),
        (l, h) if l == h => mods.push(format!("median: {l} highest and {l} lowest values cut")),
        (l, h) => mods.push(format!("{l} lowest and {h} highest values cut")),
    }
    if tb.harkness {
        mods.push("Harkness median".to_string());
    }
    if tb.limit_half_points != 0 {
        mods.push(format!(
            "limit moved by {} half-points",
            tb.limit_half_points
        ));
    }
    if tb.forfeits_played {
        mods.push("forfeits counted as played".to_string());
    }
    if tb.fore {
        mods.push("Fore Buchholz".to_string());
    }
    if tb.reverse {
        mods.push("in reverse order".to_string());
    }
    if let Some(k) = tb.divisor {
        mods.push(format!("divisor {k}"));
    }
    if mods.is_empty() {
        base
    } else {
        format!("{base}, {}", mods.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_names_carry_the_modifiers() {
        let list: TieBreakList = "BH/C1,BH,SB,ARO/M1".parse().unwrap();
        let names: Vec<String> = list.0.iter().map(plain_name).collect();
        assert_eq!(
            names[0],
            "Buchholz (sum of the opponents' scores), the lowest value cut"
        );
        assert_eq!(names[1], "Buchholz (sum of the opponents' scores)");
        assert!(names[2].starts_with("Sonneborn-Berger"));
        assert_eq!(
            names[3],
            "average rating of the opponents, median: 1 highest and 1 lowest values cut"
        );
    }

    #[test]
    fn requested_tie_breaks_are_bounded_as_at_creation() {
        let state = State::default();
        let limit = MAX_TIE_BREAKS;
        let at_limit = vec!["BH"; limit].join(",");
        assert!(ranking(&state, None, Some(&at_limit)).is_ok());
        for over in [vec!["BH"; limit + 1].join(","), vec!["BH"; 5000].join(" ")] {
            match ranking(&state, None, Some(&over)) {
                Err(StandingsError::BadList(m)) => {
                    assert!(
                        m.starts_with("tiebreaks: ") && m.contains("the limit is 30"),
                        "{m}"
                    )
                }
                other => panic!("{other:?}"),
            }
        }
    }
}

/// One team's line of a team event's standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamLine {
    pub rank: u32,
    pub rank_to: u32,
    pub team: u32,
    pub name: String,
    /// Tenths.
    pub match_points: i32,
    pub game_points: i32,
    /// (code, value in tenths or `None` when undefined) in list order.
    pub tie_breaks: Vec<(String, Option<i64>)>,
}

/// A team event's standings after its last complete round (`after_round` caps it): match
/// and game points and the team tie-breaks of C.07 (the recommended team list: MPvGP first,
/// so the secondary score is always shown), computed by arbiter-tiebreak's team model built
/// from the log by arbiter-teams. `None` for an individual event.
pub fn team_ranking(
    state: &State,
    after_round: Option<u32>,
) -> Result<Option<(Vec<String>, Vec<TeamLine>)>, StandingsError> {
    use arbiter_tiebreak::{TeamScore, TieBreak};
    let Some(model) = arbiter_teams::tiebreak_model(state) else {
        return Ok(None);
    };
    let mut model = model.map_err(|e| StandingsError::Engine(format!("team standings: {e}")))?;
    if let Some(after) = after_round {
        for t in &mut model.teams {
            t.rounds.truncate(after as usize);
        }
    }
    let list: Vec<TieBreak> = default_tiebreaks(match model.pairing {
        arbiter_tiebreak::PairingKind::Swiss => arbiter_tiebreak::EventKind::TeamSwiss,
        arbiter_tiebreak::PairingKind::PreDetermined => arbiter_tiebreak::EventKind::TeamRoundRobin,
    })
    .0;
    let st = arbiter_tiebreak::team_standings(&model, &list, &Options::default())
        .map_err(|e| StandingsError::Engine(format!("team standings: {e}")))?;
    let tenths = |r: arbiter_tiebreak::Rational| (r.numer() * 10 / r.denom()) as i32;
    let codes: Vec<String> = st.tiebreaks.iter().map(|t| t.to_string()).collect();
    let lines = st
        .rows
        .iter()
        .map(|row| {
            let primary = tenths(row.points);
            let secondary = row.values.first().copied().flatten().map_or(0, tenths);
            let (match_points, game_points) = match model.primary {
                TeamScore::MatchPoints => (primary, secondary),
                TeamScore::GamePoints => (secondary, primary),
            };
            TeamLine {
                rank: row.rank,
                rank_to: row.rank_to,
                team: row.id,
                name: row.name.clone(),
                match_points,
                game_points,
                tie_breaks: codes
                    .iter()
                    .zip(&row.values)
                    .map(|(c, v)| (c.clone(), v.map(|r| r.numer() * 10 / r.denom())))
                    .collect(),
            }
        })
        .collect();
    Ok(Some((codes, lines)))
}
