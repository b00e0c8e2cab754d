//! Special-prize rankings: the biggest rating gain, and any other measure as a ranking.

use crate::error::PrizeError;
use crate::input::ScoreGroup;
use crate::prepare::indices;
use arbiter_core::Score;
use arbiter_rating::{Hundredths, expected_score};
use std::collections::HashMap;
use std::fmt::Display;
use std::hash::Hash;

/// A player's result against expectation, the measure of a "biggest rating gain" prize
/// (Arbiters' Manual, cash prizes appendix).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RatingGain {
    /// Own rating minus the opponents' average `Ra`, before any cap (negative when the player
    /// is the lower rated).
    pub difference: i32,
    /// `PD` for the (capped) difference, FIDE Rating Regulations table 8.1.2.
    pub expected_per_game: Hundredths,
    /// `We = n × PD`.
    pub expected: Hundredths,
    /// `W - We`, with `W` the points scored.
    pub gain: Hundredths,
}

/// `W - We` for a player rated `own` who scored `points` (1 / ½ / 0 a game) in `games` games
/// against opponents averaging `opponents_average`.
///
/// `max_difference` caps the difference before the table lookup as the rating rule set in
/// force does (e.g. `Some(arbiter_rating::MAX_COUNTED_DIFFERENCE)`); the caller decides, since
/// the rule sets differ on who is capped.
pub fn rating_gain(
    own: i32,
    opponents_average: i32,
    games: u32,
    points: Score,
    max_difference: Option<u32>,
) -> Result<RatingGain, PrizeError> {
    if games == 0 {
        return Err(PrizeError::NoGames);
    }
    let max_tenths = i64::from(games) * 10;
    if !(0..=max_tenths).contains(&i64::from(points.tenths())) {
        return Err(PrizeError::ScoreOutOfRange { points, games });
    }
    let difference = own - opponents_average;
    let capped = match max_difference {
        Some(cap) => {
            let cap = i32::try_from(cap).unwrap_or(i32::MAX);
            difference.clamp(-cap, cap)
        }
        None => difference,
    };
    let expected_per_game = expected_score(capped);
    let expected = expected_per_game.times(games);
    // Tenths of a point times 10 are hundredths.
    let gain = Hundredths(points.tenths() * 10) - expected;
    Ok(RatingGain {
        difference,
        expected_per_game,
        expected,
        gain,
    })
}

/// A category ranking by a measure where higher is better (rating gain, performance...):
/// players with equal values form one tied group, ordered as in the standings. Use it with
/// [`crate::Entrants::Ranked`]; players without a value are not ranked.
pub fn rank_by_key<P, K>(
    standings: &[ScoreGroup<P>],
    values: &[(P, K)],
) -> Result<Vec<Vec<P>>, PrizeError>
where
    P: Clone + Eq + Hash + Display,
    K: Ord,
{
    let position: HashMap<&P, usize> = standings
        .iter()
        .flat_map(|g| &g.players)
        .enumerate()
        .map(|(i, p)| (p, i))
        .collect();
    indices("ranking", &position, values.iter().map(|(p, _)| p))?;
    let mut order: Vec<&(P, K)> = values.iter().collect();
    order.sort_by(|a, b| b.1.cmp(&a.1).then(position[&a.0].cmp(&position[&b.0])));
    let mut groups: Vec<Vec<P>> = Vec::new();
    for (i, (p, _)) in order.iter().enumerate() {
        match groups.last_mut() {
            Some(g) if order[i - 1].1 == order[i].1 => g.push(p.clone()),
            _ => groups.push(vec![p.clone()]),
        }
    }
    Ok(groups)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gain_uses_the_capped_difference() {
        // 800 points below the average: PD 0.00 uncapped, 0.08 with the 400 cap.
        let g = rating_gain(1600, 2400, 5, Score(10), None).unwrap();
        assert_eq!(
            (g.expected_per_game, g.gain),
            (Hundredths(0), Hundredths(100))
        );
        let g = rating_gain(1600, 2400, 5, Score(10), Some(400)).unwrap();
        assert_eq!(
            (g.difference, g.expected, g.gain),
            (-800, Hundredths(40), Hundredths(60))
        );
    }

    #[test]
    fn gain_rejects_impossible_scores() {
        assert_eq!(
            rating_gain(2000, 2000, 0, Score(0), None),
            Err(PrizeError::NoGames)
        );
        let e = rating_gain(2000, 2000, 3, Score(35), None).unwrap_err();
        assert_eq!(e.to_string(), "rating gain: 3.5 points is outside 0..=3");
        assert!(rating_gain(2000, 2000, 3, Score(-5), None).is_err());
    }

    #[test]
    fn ranking_groups_equal_values_in_standings_order() {
        let st = [
            ScoreGroup::new(Score(50), vec!["A", "B"]),
            ScoreGroup::new(Score(40), vec!["C"]),
        ];
        let r = rank_by_key(&st, &[("A", 5), ("C", 9), ("B", 9)]).unwrap();
        assert_eq!(r, vec![vec!["B", "C"], vec!["A"]]);
        let e = rank_by_key(&st, &[("Z", 1)]).unwrap_err();
        assert_eq!(e.to_string(), "ranking: player Z is not in the standings");
        assert!(rank_by_key(&st, &[("A", 1), ("A", 2)]).is_err());
    }
}
