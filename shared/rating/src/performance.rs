//! Average rating of opponents `Ra` and rating performance `Rp` (B.01 1.4.7-1.4.8).

use crate::num::{Hundredths, Ratio, round_half_up};
use crate::tables::{dp, expected_score, p_hundredths};
use arbiter_core::Score;

/// The average of `ratings`, exact and rounded to the nearest integer (0.5 up, B.01 1.4.7).
/// `None` for no ratings.
pub fn average_rating<I: IntoIterator<Item = i32>>(ratings: I) -> Option<(i32, Ratio)> {
    let (mut n, mut sum) = (0i64, 0i64);
    for r in ratings {
        n += 1;
        sum += i64::from(r);
    }
    (n > 0).then(|| (round_half_up(sum, n) as i32, Ratio::new(sum, n)))
}

/// A rating performance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Performance {
    pub games: u32,
    pub points: Score,
    pub rating_sum: i64,
    /// Average opponents' rating, rounded (0.5 up).
    pub ra: i32,
    /// Fractional score, to the nearest hundredth (0.005 up).
    pub p: Hundredths,
    pub dp: i32,
    /// `Rp = Ra + dp(p)`.
    pub rp: i32,
}

/// `Rp = Ra + dp(p)` over the given opponents' ratings and the points scored against them
/// (B.01 1.4.8; seed 000 SISTEMAS DE DESEMPATE 4.3). Which opponents and which rating
/// adjustments apply is the caller's choice (norms: [`crate::norms`]). `None` for no games.
///
/// # Panics
/// If `points` is negative or exceeds one point per game.
pub fn performance<I: IntoIterator<Item = i32>>(
    opponent_ratings: I,
    points: Score,
) -> Option<Performance> {
    let (mut n, mut sum) = (0u32, 0i64);
    for r in opponent_ratings {
        n += 1;
        sum += i64::from(r);
    }
    performance_from_sum(n, sum, points)
}

/// [`performance`] from a game count and a rating sum.
pub fn performance_from_sum(games: u32, rating_sum: i64, points: Score) -> Option<Performance> {
    if games == 0 {
        return None;
    }
    let ra = round_half_up(rating_sum, i64::from(games)) as i32;
    let p = p_hundredths(points.tenths(), games);
    let d = dp(p);
    Some(Performance {
        games,
        points,
        rating_sum,
        ra,
        p,
        dp: d,
        rp: ra + d,
    })
}

/// The expected score against the average: `We = n × PD(own - Ra)` (used for rating-gain
/// prizes, seed 001 APENDICES "Entrega de premios en metálico").
pub fn expected_points_against_average(own: i32, ra: i32, games: u32) -> Hundredths {
    expected_score(own - ra).times(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn averages_and_performance() {
        assert_eq!(average_rating([2000, 2001]).unwrap().0, 2001); // 2000.5 -> 2001
        assert_eq!(average_rating([2000, 2001, 2001]).unwrap().0, 2001);
        assert_eq!(average_rating(std::iter::empty()), None);
        let p = performance([2400, 2500, 2600], Score(20)).unwrap();
        assert_eq!((p.ra, p.p, p.dp, p.rp), (2500, Hundredths(67), 125, 2625));
        let p = performance([2400], Score(10)).unwrap();
        assert_eq!(p.rp, 3200);
        let p = performance([2400], Score(0)).unwrap();
        assert_eq!(p.rp, 1600);
        assert_eq!(
            expected_points_against_average(2100, 2000, 9),
            Hundredths(9 * 64)
        );
    }
}
