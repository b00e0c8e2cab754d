//! One tied group sharing the prizes of one list: exact shares, then whole minor units.

use crate::amount::Amount;
use crate::input::Method;

/// The exact share of each sharer, in tie-break order, from the prize of the place each one
/// holds (`0` for a sharer below the prize places). The shares add up to the sum of `nominal`.
pub(crate) fn exact_shares(method: Method, nominal: &[i64]) -> Vec<Amount> {
    let k = nominal.len() as i128;
    let pool: i128 = nominal.iter().map(|&a| i128::from(a)).sum();
    let share = |num: i128, den: i128| Amount::new(num, den).expect("group is not empty");
    nominal
        .iter()
        .map(|&own| match method {
            Method::Equal => share(pool, k),
            Method::TieBreak => Amount::from_minor(own),
            // own/2 + pool/(2k), as one fraction.
            Method::Hort => share(i128::from(own) * k + pool, 2 * k),
        })
        .collect()
}

/// Whole minor units for exact shares whose sum is whole: each share rounded down, then the
/// units left over one each to the largest fractional parts, the earlier player first on equal
/// fractions. Shares are in tie-break order.
pub(crate) fn pay(shares: &[Amount]) -> Vec<i64> {
    let total: Amount = shares.iter().copied().sum();
    assert!(total.is_whole(), "a sharing unit pays whole minor units");
    let mut paid: Vec<i128> = shares.iter().map(|s| s.floor()).collect();
    let left = total.floor() - paid.iter().sum::<i128>();
    let mut order: Vec<usize> = (0..shares.len()).collect();
    // Stable sort: equal fractions keep the tie-break order.
    order.sort_by(|&a, &b| shares[b].fraction().cmp(&shares[a].fraction()));
    for &i in order.iter().take(left as usize) {
        paid[i] += 1;
    }
    // Each paid amount lies between 0 and the unit's total, which fits in i64 (checked).
    paid.into_iter()
        .map(|p| i64::try_from(p).expect("within the fund"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn amounts(v: &[(i128, i128)]) -> Vec<Amount> {
        v.iter().map(|&(n, d)| Amount::new(n, d).unwrap()).collect()
    }

    #[test]
    fn methods_on_the_manual_example() {
        let p = [10000, 5000, 3000, 2000];
        let whole = |v: &[i128]| amounts(&v.iter().map(|&n| (n, 1)).collect::<Vec<_>>());
        assert_eq!(exact_shares(Method::Equal, &p), whole(&[5000; 4]));
        assert_eq!(
            exact_shares(Method::TieBreak, &p),
            whole(&[10000, 5000, 3000, 2000])
        );
        assert_eq!(
            exact_shares(Method::Hort, &p),
            whole(&[7500, 5000, 4000, 3500])
        );
    }

    #[test]
    fn leftover_units_go_to_largest_fractions_then_tie_break_order() {
        // 100 among 3: 33 1/3 each, the one unit left goes to the first player.
        assert_eq!(
            pay(&exact_shares(Method::Equal, &[60, 40, 0])),
            [34, 33, 33]
        );
        // Hort on 5, 2, 0: 22/6, 13/6, 7/6 -> fractions 2/3, 1/6, 1/6; one unit left.
        let s = exact_shares(Method::Hort, &[5, 2, 0]);
        assert_eq!(s, amounts(&[(11, 3), (13, 6), (7, 6)]));
        assert_eq!(pay(&s), [4, 2, 1]);
        // The larger fraction wins over the earlier place: 1/4 + 3/4 with 1 unit left.
        assert_eq!(pay(&amounts(&[(1, 4), (3, 4)])), [0, 1]);
    }
}
