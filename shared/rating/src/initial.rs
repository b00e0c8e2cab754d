//! The initial rating `Ru` of an unrated player (B.02 8.2; rapid/blitz 7.2).

use crate::change::{RatedGame, rated_score};
use crate::num::{Hundredths, Ratio};
use crate::rules::RuleSet;
use crate::tables::{dp, p_hundredths};
use arbiter_core::Score;

/// How `Ru` was obtained from `Ra`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RuMethod {
    /// 2022 text, score exactly 50%: `Ru = Ra`.
    Average,
    /// 2022 text, score above 50%: `Ru = Ra + 20 × h`, `h` half-points above 50%.
    TwentyPerHalfPoint { half_points_above: i64 },
    /// `Ru = Ra + dp(p)`: 2022 text below 50%; always from 2024.
    Table { p: Hundredths, dp: i32 },
}

/// The result of the initial-rating calculation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InitialRating {
    pub rule_set: RuleSet,
    /// The first event scored zero and was discarded (8.2.1).
    pub discarded_first_event: bool,
    /// Games against rated opponents used (not counting hypothetical ones).
    pub games: u32,
    pub points: Score,
    /// Hypothetical 1800-rated opponents drawn against (2 from 2024, else 0).
    pub hypothetical_games: u32,
    /// `Ra` as used, exact (including the hypothetical opponents).
    pub ra: Ratio,
    pub method: RuMethod,
    /// `Ru` before rounding.
    pub ru_exact: Ratio,
    /// `Ru` rounded (nearest integer, 0.5 up), then limited to the rule-set's maximum.
    pub ru: i32,
    /// The rule-set's maximum initial rating lowered `ru`.
    pub limited_to_max: bool,
    /// At least 5 games against rated opponents and `ru` at least the rule-set's floor
    /// (7.1.4; 2024: 1400).
    pub publishable: bool,
}

/// The minimum number of games against rated opponents for a first rating (B.02 7.1.4).
pub const MIN_GAMES_FOR_FIRST_RATING: u32 = 5;

/// The initial rating from an unrated player's results, event by event in chronological
/// order (results pooled over at most 26 months, 7.1.4; the caller picks the events).
///
/// Only played games against **rated** opponents count (8.2.2). If the first event has rated
/// games and the player scored zero in them, it is discarded (8.2.1; applied under every
/// rule-set). Returns `None` when no game remains.
pub fn initial_rating(rule_set: RuleSet, events: &[&[RatedGame]]) -> Option<InitialRating> {
    let counted = |ev: &[RatedGame]| -> Vec<(i64, Score)> {
        ev.iter()
            .filter(|g| g.rateable)
            .filter_map(|g| Some((i64::from(g.opponent_rating?), rated_score(g.result)?)))
            .collect()
    };
    let mut discarded = false;
    let mut games: Vec<(i64, Score)> = Vec::new();
    for (i, ev) in events.iter().enumerate() {
        let c = counted(ev);
        if i == 0 && !c.is_empty() && c.iter().all(|(_, s)| *s == Score::ZERO) {
            discarded = true;
            continue;
        }
        games.extend(c);
    }
    if games.is_empty() {
        return None;
    }
    let n = games.len() as i64;
    let sum: i64 = games.iter().map(|g| g.0).sum();
    let points: Score = games.iter().map(|g| g.1).sum();
    let tenths = i64::from(points.tenths());

    let (hypo, ra, method) = match rule_set {
        RuleSet::B02_2022 => {
            let ra = Ratio::new(sum, n);
            // p compared exactly with 50%: 2 × points against n (points in tenths).
            let method = match (2 * tenths).cmp(&(10 * n)) {
                std::cmp::Ordering::Equal => RuMethod::Average,
                std::cmp::Ordering::Greater => RuMethod::TwentyPerHalfPoint {
                    half_points_above: tenths / 5 - n,
                },
                std::cmp::Ordering::Less => {
                    let p = p_hundredths(points.tenths(), n as u32);
                    RuMethod::Table { p, dp: dp(p) }
                }
            };
            (0, ra, method)
        }
        RuleSet::B02_2024 | RuleSet::B02_2025_10 => {
            let ra = Ratio::new(sum + 2 * 1800, n + 2);
            let p = p_hundredths(points.tenths() + 10, (n + 2) as u32);
            (2, ra, RuMethod::Table { p, dp: dp(p) })
        }
    };
    let ru_exact = match method {
        RuMethod::Average => ra,
        RuMethod::TwentyPerHalfPoint { half_points_above } => ra.add_int(20 * half_points_above),
        RuMethod::Table { dp, .. } => ra.add_int(i64::from(dp)),
    };
    let rounded = ru_exact.round_half_up() as i32;
    let (ru, limited) = match rule_set.max_initial_rating() {
        Some(max) if rounded > max => (max, true),
        _ => (rounded, false),
    };
    Some(InitialRating {
        rule_set,
        discarded_first_event: discarded,
        games: n as u32,
        points,
        hypothetical_games: hypo,
        ra,
        method,
        ru_exact,
        ru,
        limited_to_max: limited,
        publishable: n as u32 >= MIN_GAMES_FOR_FIRST_RATING && ru >= rule_set.rating_floor(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_core::ResultCode::*;

    fn ev(results: &[(u16, arbiter_core::ResultCode)]) -> Vec<RatedGame> {
        results
            .iter()
            .enumerate()
            .map(|(i, &(r, c))| RatedGame::new(i as u32 + 1, Some(r), c))
            .collect()
    }

    #[test]
    fn zero_first_event_is_discarded() {
        let first = ev(&[(1500, Loss), (1600, Loss)]);
        let second = ev(&[
            (1500, Win),
            (1600, Draw),
            (1700, Loss),
            (1500, Draw),
            (1500, Draw),
        ]);
        let r = initial_rating(RuleSet::B02_2022, &[&first, &second]).unwrap();
        assert!(r.discarded_first_event);
        assert_eq!(r.games, 5);
        assert_eq!(r.ru, 1560); // 50% -> Ra = 7800/5
        assert_eq!(r.method, RuMethod::Average);
        // A zero later on is kept.
        let r = initial_rating(RuleSet::B02_2022, &[&second, &first]).unwrap();
        assert!(!r.discarded_first_event);
        assert_eq!(r.games, 7);
    }

    #[test]
    fn limits_2024() {
        let strong = ev(&[
            (2400, Win),
            (2400, Win),
            (2400, Win),
            (2400, Win),
            (2400, Win),
        ]);
        let r = initial_rating(RuleSet::B02_2024, &[&strong]).unwrap();
        // Ra = (12000 + 3600) / 7 = 2228.57; p = 6/7 = .86 -> 309; 2537.57 -> 2538 -> 2200.
        assert_eq!(r.ru_exact.round_half_up(), 2538);
        assert_eq!((r.ru, r.limited_to_max, r.publishable), (2200, true, true));
        let weak = ev(&[
            (1000, Loss),
            (1000, Loss),
            (1000, Draw),
            (1000, Loss),
            (1000, Loss),
        ]);
        let r = initial_rating(RuleSet::B02_2024, &[&weak]).unwrap();
        // Ra = 8600/7 = 1228.57; p = 1.5/7 = .21 -> -230; 998.57 -> 999, below 1400.
        assert_eq!((r.ru, r.publishable), (999, false));
    }

    #[test]
    fn unrated_opponents_and_unplayed_games_do_not_count() {
        let g = vec![
            RatedGame::new(1, None, Win),
            RatedGame::new(2, Some(1800), ForfeitWin),
        ];
        assert!(initial_rating(RuleSet::B02_2022, &[&g]).is_none());
    }
}
