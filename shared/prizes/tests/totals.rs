//! Properties over random standings and funds: totals are kept and rounding moves no amount by
//! a whole minor unit.

use arbiter_core::Score;
use arbiter_prizes::{
    Amount, Category, Entrants, Method, Policy, PrizeFund, ScoreGroup, SharingScope, distribute,
};
use proptest::prelude::*;

const METHODS: [Method; 3] = [Method::Equal, Method::TieBreak, Method::Hort];

/// Score groups of 1 to 6 players numbered 1.., points falling from 20.
fn standings() -> impl Strategy<Value = Vec<ScoreGroup<u32>>> {
    prop::collection::vec(1usize..=6, 1..6).prop_map(|sizes| {
        let mut next = 1u32;
        sizes
            .iter()
            .enumerate()
            .map(|(g, &n)| {
                let players = (next..next + n as u32).collect();
                next += n as u32;
                ScoreGroup::new(Score::points(20 - g as i32), players)
            })
            .collect()
    })
}

/// Non-increasing amounts, zero included.
fn amounts(max_len: usize) -> impl Strategy<Value = Vec<i64>> {
    prop::collection::vec(0i64..10_000, 1..max_len).prop_map(|mut v| {
        v.sort_unstable_by(|a, b| b.cmp(a));
        v
    })
}

proptest! {
    #[test]
    fn totals_are_preserved(
        st in standings(),
        places in amounts(12),
        junior_prizes in amounts(4),
        juniors in prop::collection::vec(1u32..=30, 0..8),
        method in 0usize..3,
        all_tied in any::<bool>(),
        one_prize in any::<bool>(),
    ) {
        let n = st.iter().map(|g| g.players.len() as u32).sum::<u32>();
        let mut juniors: Vec<u32> = juniors.into_iter().filter(|&p| p <= n).collect();
        juniors.sort_unstable();
        juniors.dedup();
        let fund = PrizeFund::places(places).with_category(Category {
            name: "Juniors".into(),
            prizes: junior_prizes,
            entrants: Entrants::Standings(juniors),
        });
        let policy = Policy {
            method: METHODS[method],
            scope: if all_tied { SharingScope::AllTied } else { SharingScope::PrizePlaces },
            one_prize_per_player: one_prize,
        };
        let d = distribute(&st, &fund, &policy).unwrap();
        prop_assert_eq!(d.awards.len(), n as usize);
        prop_assert_eq!(d.paid_total() + d.unawarded_total(), fund.total());
        let exact: Amount = d.awards.iter().map(|a| a.exact).sum();
        prop_assert_eq!(exact, Amount::from_minor(d.paid_total() as i64));
        for a in &d.awards {
            if one_prize {
                prop_assert!(a.portions.len() <= 1);
            }
            for p in &a.portions {
                prop_assert!(i128::from(p.paid) - p.exact.floor() <= 1);
                prop_assert!(p.exact.floor() <= i128::from(p.paid));
                prop_assert!(p.exact >= Amount::ZERO);
            }
        }
    }
}
