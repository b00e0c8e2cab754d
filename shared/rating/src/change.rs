//! K factors and the rating change of a rated player (B.02 8.3; rapid/blitz 7.3).

use crate::num::{Hundredths, round_half_up};
use crate::rules::RuleSet;
use crate::tables::{expected_score, pd_for_difference};
use arbiter_core::{ResultCode, Score};
use std::fmt;

/// The per-game cap of the 400-point rule (B.02 8.3.1).
pub const MAX_COUNTED_DIFFERENCE: u32 = 400;

/// The 2025-10 amendment: players rated at least this always use the actual difference.
pub const NO_CAP_FROM_RATING: i32 = 2650;

/// The largest `K × n` a player may have in one rating period (B.02 8.3.3, last paragraph).
pub const MAX_K_TIMES_GAMES: u32 = 700;

/// Why a player has the K factor they have (B.02 8.3.3, tried in the order of
/// docs/src/auditors/agreement.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KReason {
    /// Up to the end of the year of their 18th birthday, rated below 2300: 40.
    Junior,
    /// New on the list, fewer than 30 rated games completed: 40.
    NewPlayer,
    /// A published rating has at some time reached 2400: 10 for good.
    Reached2400,
    /// Rated below 2400: 20.
    Below2400,
    /// Given by the caller (e.g. the K column of the rating list).
    Given,
}

impl fmt::Display for KReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            KReason::Junior => "junior under 2300",
            KReason::NewPlayer => "fewer than 30 rated games",
            KReason::Reached2400 => "has reached 2400",
            KReason::Below2400 => "below 2400",
            KReason::Given => "given",
        })
    }
}

/// What decides a player's K factor (B.02 8.3.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KInputs {
    /// The published rating in force for the event.
    pub rating: u16,
    /// Year of birth, if known (without it the junior rule is not applied).
    pub birth_year: Option<i32>,
    /// The year of the rating period (the junior rule runs to the end of the year in which the
    /// player turns 18).
    pub period_year: i32,
    /// Rated games the player had completed before this event (the new-player rule ends once
    /// events totalling 30 games are completed).
    pub rated_games_before: u32,
    /// A published rating of the player has at some time reached 2400.
    pub ever_reached_2400: bool,
}

/// A K factor with its derivation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct KFactor {
    /// The K used: `status_k`, lowered so that `K × games_in_period <= 700`.
    pub k: u32,
    /// The K the player's status gives (40, 20 or 10, or the caller's).
    pub status_k: u32,
    pub reason: KReason,
    pub games_in_period: u32,
}

impl KFactor {
    /// The K for a player's status, then the `K × n <= 700` cap for `games_in_period` games.
    pub fn derive(inputs: &KInputs, games_in_period: u32) -> KFactor {
        let (status_k, reason) = k_by_status(inputs);
        KFactor {
            k: cap_k_for_games(status_k, games_in_period),
            status_k,
            reason,
            games_in_period,
        }
    }

    /// A K known from elsewhere (e.g. the list), still subject to the 700 cap.
    pub fn given(k: u32, games_in_period: u32) -> KFactor {
        KFactor {
            k: cap_k_for_games(k, games_in_period),
            status_k: k,
            reason: KReason::Given,
            games_in_period,
        }
    }

    pub fn capped(&self) -> bool {
        self.k != self.status_k
    }
}

/// The K of B.02 8.3.3 before the 700 cap. The first applicable line wins: junior below 2300
/// (40), fewer than 30 rated games (40), ever rated 2400 or more (10), otherwise 20.
pub fn k_by_status(i: &KInputs) -> (u32, KReason) {
    let junior = i.birth_year.is_some_and(|b| i.period_year <= b + 18);
    if junior && i.rating < 2300 {
        (40, KReason::Junior)
    } else if i.rated_games_before < 30 {
        (40, KReason::NewPlayer)
    } else if i.ever_reached_2400 || i.rating >= 2400 {
        (10, KReason::Reached2400)
    } else {
        (20, KReason::Below2400)
    }
}

/// B.02 8.3.3 last paragraph: if `K × n > 700`, K becomes the largest integer with
/// `K × n <= 700`.
pub fn cap_k_for_games(k: u32, games: u32) -> u32 {
    if games > 0 && k * games > MAX_K_TIMES_GAMES {
        MAX_K_TIMES_GAMES / games
    } else {
        k
    }
}

/// One game of a rated player, as the rating calculation sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RatedGame {
    pub round: u32,
    /// The opponent's rating from the list in force; `None` if unrated.
    pub opponent_rating: Option<u16>,
    /// From this player's side.
    pub result: ResultCode,
    /// `false` when the game is excluded for a reason the result code does not show: time
    /// control below the pair's minimum (standard 1.1), unequal times (rapid/blitz 1.2),
    /// a match game after the match was decided (6.2), a fair-play decision (5.1).
    pub rateable: bool,
}

impl RatedGame {
    pub fn new(round: u32, opponent_rating: Option<u16>, result: ResultCode) -> RatedGame {
        RatedGame {
            round,
            opponent_rating,
            result,
            rateable: true,
        }
    }
}

/// The rating score of a result (1, ½, 0; B.02 8.3.2b), `None` if the game is not rated
/// because it was not played over the board with at least one move each (5.1; TRF `1 = 0` only).
pub fn rated_score(result: ResultCode) -> Option<Score> {
    match result {
        ResultCode::Win => Some(Score::ONE),
        ResultCode::Draw => Some(Score::HALF),
        ResultCode::Loss => Some(Score::ZERO),
        _ => None,
    }
}

/// Why a game does not count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Skip {
    /// Forfeit, bye, absence, or a game of less than one move (B.02 5.1).
    Unplayed,
    /// Unrated opponent: no change for a rated player (8.3.1).
    OpponentUnrated,
    /// Excluded by the caller ([`RatedGame::rateable`]).
    Excluded,
}

/// Which side of the table an expected score was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Side {
    /// Higher rated or equal: `H`.
    Higher,
    /// Lower rated: `L`.
    Lower,
}

/// The calculation for one rated game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct GameChange {
    pub round: u32,
    pub opponent_rating: u16,
    pub score: Score,
    /// Own rating minus the opponent's.
    pub diff_actual: i32,
    /// `|D|` after the 400-point rule.
    pub diff_used: u32,
    pub capped: bool,
    pub side: Side,
    /// Expected score `PD`.
    pub pd: Hundredths,
    /// `ΔR = score - PD`.
    pub delta_r: Hundredths,
}

/// The rating change of a rated player for one tournament (B.02 8.3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatingChange {
    pub rule_set: RuleSet,
    pub rating: u16,
    pub k: u32,
    /// The rated games, in input order.
    pub games: Vec<GameChange>,
    /// Games that do not count, with the reason.
    pub skipped: Vec<(u32, Skip)>,
    pub score: Score,
    /// `Σ PD`.
    pub expected: Hundredths,
    /// `ΣΔR` (8.3.2c).
    pub sum_delta_r: Hundredths,
    /// `K × ΣΔR` before rounding (8.3.2d).
    pub change_exact: Hundredths,
    /// Rounded to the nearest integer, 0.5 up (8.3.4).
    pub change: i32,
    pub new_rating: i32,
    /// Under `b02-2022-seed-text`, two games shared the largest difference above 400 and the
    /// earliest was chosen for the once-per-event cap (B.02 8.3.1 is silent on ties).
    pub cap_tie: bool,
}

impl RatingChange {
    /// The new rating is below the rule-set's floor, so the player is listed as unrated
    /// (B.02 7.2.1).
    pub fn falls_below_floor(&self) -> bool {
        self.new_rating < self.rule_set.rating_floor()
    }
}

/// The rating change of a player rated `rating`, with K factor `k`, for the games of one
/// event (or a whole period, for the authoritative figure).
///
/// The 400-point rule follows the rule-set (B.02 8.3.1 as in force): under `b02-2022-seed-text` a
/// difference above 400 counts as 400 for one game only, the one with the largest difference
/// (earliest round on a tie); under `b02-2024` for every game; under `b02-2025-10` for every game
/// unless the player is rated 2650 or more.
pub fn rating_change(rule_set: RuleSet, rating: u16, k: u32, games: &[RatedGame]) -> RatingChange {
    let own = i32::from(rating);
    let mut skipped = Vec::new();
    let mut rated: Vec<(u32, u16, Score, i32)> = Vec::new();
    for g in games {
        let Some(score) = rated_score(g.result) else {
            skipped.push((g.round, Skip::Unplayed));
            continue;
        };
        if !g.rateable {
            skipped.push((g.round, Skip::Excluded));
            continue;
        }
        let Some(opp) = g.opponent_rating else {
            skipped.push((g.round, Skip::OpponentUnrated));
            continue;
        };
        rated.push((g.round, opp, score, own - i32::from(opp)));
    }

    // Which games may use the 400 cap.
    let cap = MAX_COUNTED_DIFFERENCE;
    let mut cap_allowed = vec![false; rated.len()];
    let mut cap_tie = false;
    match rule_set {
        RuleSet::B02_2022 => {
            let mut best: Option<usize> = None;
            for (i, r) in rated.iter().enumerate() {
                let d = r.3.unsigned_abs();
                if d <= cap {
                    continue;
                }
                match best {
                    None => best = Some(i),
                    Some(b) => {
                        let bd = rated[b].3.unsigned_abs();
                        if d > bd {
                            best = Some(i);
                            cap_tie = false;
                        } else if d == bd {
                            cap_tie = true;
                            if r.0 < rated[b].0 {
                                best = Some(i);
                            }
                        }
                    }
                }
            }
            if let Some(b) = best {
                cap_allowed[b] = true;
            }
        }
        RuleSet::B02_2024 => cap_allowed.iter_mut().for_each(|c| *c = true),
        RuleSet::B02_2025_10 => {
            let allowed = own < NO_CAP_FROM_RATING;
            cap_allowed.iter_mut().for_each(|c| *c = allowed);
        }
    }

    let mut out = Vec::with_capacity(rated.len());
    for (i, &(round, opp, score, diff)) in rated.iter().enumerate() {
        let abs = diff.unsigned_abs();
        let capped = cap_allowed[i] && abs > cap;
        let used = if capped { cap } else { abs };
        let (h, l) = pd_for_difference(used);
        let (side, pd) = if diff >= 0 {
            (Side::Higher, h)
        } else {
            (Side::Lower, l)
        };
        out.push(GameChange {
            round,
            opponent_rating: opp,
            score,
            diff_actual: diff,
            diff_used: used,
            capped,
            side,
            pd,
            delta_r: Hundredths(score.tenths() * 10) - pd,
        });
    }
    let score: Score = out.iter().map(|g| g.score).sum();
    let expected: Hundredths = out.iter().map(|g| g.pd).sum();
    let sum_delta_r: Hundredths = out.iter().map(|g| g.delta_r).sum();
    let change_exact = sum_delta_r.times(k);
    let change = change_exact.round_half_up();
    RatingChange {
        rule_set,
        rating,
        k,
        games: out,
        skipped,
        score,
        expected,
        sum_delta_r,
        change_exact,
        change,
        new_rating: own + change,
        cap_tie,
    }
}

/// The change for a whole rating period: `K × ΣΔR` over all its events, rounded once
/// (B.02 8.3.4: it is the period's change that is rounded).
pub fn period_change(
    k: u32,
    sums_delta_r: impl IntoIterator<Item = Hundredths>,
) -> (Hundredths, i32) {
    let exact = sums_delta_r.into_iter().sum::<Hundredths>().times(k);
    (exact, exact.round_half_up())
}

/// An individual match is rated only if both players are rated (B.02 6.1; rapid/blitz 5.1).
/// Games played after the winner of a fixed-length match is known are not rated unless this was
/// requested in advance (6.2): mark them with [`RatedGame::rateable`] `= false`.
pub fn match_is_rated(a: Option<u16>, b: Option<u16>) -> bool {
    a.is_some() && b.is_some()
}

/// The expected score of one player against another, without any cap (table 8.1.2).
pub fn expected_against(own: u16, opponent: u16) -> Hundredths {
    expected_score(i32::from(own) - i32::from(opponent))
}

/// The 1 March 2024 one-time adjustment (FIDE, with B.02 of 1 March 2024): ratings from 1000 to
/// 1999 gain `0.4 × (2000 - R)`, rounded to the nearest integer (0.5 up). Other ratings are
/// unchanged.
pub fn adjustment_march_2024(rating: u16) -> u16 {
    let r = i64::from(rating);
    if (1000..2000).contains(&r) {
        (r + round_half_up(4 * (2000 - r), 10)) as u16
    } else {
        rating
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs(rating: u16) -> KInputs {
        KInputs {
            rating,
            birth_year: Some(1990),
            period_year: 2024,
            rated_games_before: 100,
            ever_reached_2400: false,
        }
    }

    #[test]
    fn k_precedence() {
        assert_eq!(k_by_status(&inputs(2000)), (20, KReason::Below2400));
        assert_eq!(
            k_by_status(&KInputs {
                rating: 2400,
                ..inputs(0)
            }),
            (10, KReason::Reached2400)
        );
        assert_eq!(
            k_by_status(&KInputs {
                ever_reached_2400: true,
                ..inputs(2390)
            }),
            (10, KReason::Reached2400)
        );
        assert_eq!(
            k_by_status(&KInputs {
                rated_games_before: 29,
                ..inputs(2000)
            }),
            (40, KReason::NewPlayer)
        );
        // The junior rule runs to the end of the year of the 18th birthday.
        let j = KInputs {
            birth_year: Some(2006),
            ..inputs(2299)
        };
        assert_eq!(k_by_status(&j), (40, KReason::Junior));
        assert_eq!(
            k_by_status(&KInputs {
                period_year: 2025,
                ..j
            }),
            (20, KReason::Below2400)
        );
        assert_eq!(
            k_by_status(&KInputs { rating: 2300, ..j }),
            (20, KReason::Below2400)
        );
        assert_eq!(
            k_by_status(&KInputs {
                birth_year: None,
                ..j
            }),
            (20, KReason::Below2400)
        );
    }

    #[test]
    fn k_cap() {
        assert_eq!(cap_k_for_games(40, 17), 40); // 680
        assert_eq!(cap_k_for_games(40, 18), 38); // 720 -> 700/18 = 38.9
        assert_eq!(cap_k_for_games(10, 71), 9);
        assert_eq!(cap_k_for_games(20, 0), 20);
        let k = KFactor::derive(
            &KInputs {
                rated_games_before: 0,
                ..inputs(1500)
            },
            20,
        );
        assert_eq!((k.k, k.status_k, k.capped()), (35, 40, true));
    }

    #[test]
    fn skips_unrated_and_unplayed() {
        let games = [
            RatedGame::new(1, Some(2000), ResultCode::Win),
            RatedGame::new(2, None, ResultCode::Win),
            RatedGame::new(3, Some(2000), ResultCode::ForfeitWin),
            RatedGame::new(4, Some(2000), ResultCode::WinUnrated),
            RatedGame {
                rateable: false,
                ..RatedGame::new(5, Some(2000), ResultCode::Loss)
            },
            RatedGame::new(6, None, ResultCode::HalfBye),
        ];
        let c = rating_change(RuleSet::B02_2024, 2000, 20, &games);
        assert_eq!(c.games.len(), 1);
        assert_eq!(c.sum_delta_r, Hundredths(50));
        assert_eq!(c.change, 10);
        assert_eq!(
            c.skipped,
            vec![
                (2, Skip::OpponentUnrated),
                (3, Skip::Unplayed),
                (4, Skip::Unplayed),
                (5, Skip::Excluded),
                (6, Skip::Unplayed)
            ]
        );
    }

    #[test]
    fn cap_2025_depends_on_own_rating() {
        let g = [RatedGame::new(1, Some(2200), ResultCode::Draw)];
        let strong = rating_change(RuleSet::B02_2025_10, 2700, 10, &g);
        assert_eq!(
            (strong.games[0].diff_used, strong.games[0].pd),
            (500, Hundredths(96))
        );
        let g = [RatedGame::new(1, Some(2700), ResultCode::Draw)];
        let weak = rating_change(RuleSet::B02_2025_10, 2200, 20, &g);
        assert_eq!(
            (weak.games[0].diff_used, weak.games[0].pd),
            (400, Hundredths(8))
        );
        let old = rating_change(
            RuleSet::B02_2024,
            2700,
            10,
            &[RatedGame::new(1, Some(2200), ResultCode::Draw)],
        );
        assert_eq!(old.games[0].diff_used, 400);
    }

    #[test]
    fn cap_2022_once_earliest_on_tie() {
        let g = [
            RatedGame::new(1, Some(1500), ResultCode::Win),
            RatedGame::new(2, Some(1500), ResultCode::Win),
            RatedGame::new(3, Some(1550), ResultCode::Win),
        ];
        let c = rating_change(RuleSet::B02_2022, 2000, 20, &g);
        assert!(c.cap_tie);
        assert_eq!(
            c.games.iter().map(|g| g.capped).collect::<Vec<_>>(),
            vec![true, false, false]
        );
        assert_eq!(
            c.games.iter().map(|g| g.diff_used).collect::<Vec<_>>(),
            vec![400, 500, 450]
        );
    }

    #[test]
    fn period_rounding_once() {
        // Two events of +0.25 each: per event 5.0 + 5.0 = 10, per period 10.
        let (exact, r) = period_change(20, [Hundredths(25), Hundredths(25)]);
        assert_eq!((exact, r), (Hundredths(1000), 10));
        let (exact, r) = period_change(10, [Hundredths(-565)]);
        assert_eq!((exact, r), (Hundredths(-5650), -56));
    }

    #[test]
    fn matches_need_two_rated_players() {
        assert!(match_is_rated(Some(2000), Some(1500)));
        assert!(!match_is_rated(Some(2000), None));
    }

    #[test]
    fn march_2024_adjustment() {
        assert_eq!(adjustment_march_2024(1000), 1400);
        assert_eq!(adjustment_march_2024(1500), 1700);
        assert_eq!(adjustment_march_2024(1999), 1999); // 0.4 -> 0
        assert_eq!(adjustment_march_2024(1998), 1999); // 0.8 -> 1
        assert_eq!(adjustment_march_2024(2000), 2000);
        assert_eq!(adjustment_march_2024(999), 999);
    }
}
