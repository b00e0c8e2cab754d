//! Round 1 without history: one scoregroup, no colour preference, no float, every player
//! eligible for the bye. Every quality criterion is then met by any pairing of compatible
//! players, so the generation order alone decides, and it gives the natural pairing: S1 (the
//! upper half by rank) against S2 in order, the lowest-ranked player left for the bye. Both rule
//! sets agree on it. Pairing it directly keeps the largest fields (thousands of players) from
//! building an n² graph to find what arithmetic gives; `tests` check it against the general
//! path.

use super::BracketDone;
use crate::state::RoundState;

/// The natural pairing as [`super::pair_state`] records it (player indices, one bracket), or
/// `None` when the round is not such a round 1 (history, several scores, a natural pair that
/// may not meet, a player who may not get the bye).
pub(crate) fn natural(
    st: &RoundState,
    brackets: &mut Vec<BracketDone>,
) -> Option<Vec<Option<usize>>> {
    let n = st.len();
    if n < 2 || st.played_rounds != 0 {
        return None;
    }
    let p = &st.players;
    let uniform = p.iter().all(|x| {
        x.score == p[0].score && x.pref.colour.is_none() && x.played_games == 0 && x.bye_eligible
    });
    let half = n / 2;
    if !uniform || !(0..half).all(|i| st.compatible(i, half + i)) {
        return None;
    }
    let mut mate = vec![None; n];
    let all: Vec<usize> = (0..n).collect();
    let mut done = BracketDone::new(&all, 0);
    for i in 0..half {
        mate[i] = Some(half + i);
        mate[half + i] = Some(i);
        done.pairs.push((i, half + i));
    }
    if n % 2 == 1 {
        done.unpaired.push(n - 1);
    }
    done.last = true;
    brackets.push(done);
    Some(mate)
}

#[cfg(feature = "test-support")]
pub mod checks {
    use super::super::{Path, pair_state_by};
    use crate::simulate::Simulation;
    use crate::state::RoundState;
    use crate::{PairingInput, RuleSet};

    fn both(input: &PairingInput) -> (bool, bool) {
        let st = RoundState::new(input);
        let (fast, took) = pair_state_by(input, &st, None, Path::Shortcuts).expect("pairs");
        let (general, _) = pair_state_by(input, &st, None, Path::General).expect("pairs");
        assert_eq!(
            fast,
            general,
            "round 1 of {} players under {}: the shortcut differs from the general engine",
            input.players.len(),
            input.rule_set
        );
        (took, fast.bye.is_some())
    }

    /// Generated round-1 fields of every size up to 61 (some players absent, some with a
    /// half-point bye), and a few larger: the shortcut is taken and equals the general path.
    pub fn natural_pairing_equals_general_engine() {
        let mut taken = 0;
        let mut odd = 0;
        for rule_set in [RuleSet::Dutch2017, RuleSet::Dutch2025] {
            for n in (2..=61).chain([100, 101, 250]) {
                let mut sim = Simulation::new(n, 9, 7_000 + n as u64);
                sim.half_bye_permille = 60;
                sim.withdrawals = vec![(n / 3 + 1, 1)];
                let input = sim
                    .before_round(1)
                    .expect("round 1")
                    .input_for_round(1, rule_set)
                    .expect("input");
                let (took, bye) = both(&input);
                let to_pair = input.players.iter().filter(|p| p.available).count();
                assert_eq!(took, to_pair >= 2, "{n} players: shortcut taken");
                taken += took as usize;
                odd += bye as usize;
            }
        }
        assert!(taken >= 120, "the generated rounds 1 take the shortcut");
        assert!(odd > 30, "odd fields (with a bye) are among them");
    }

    /// Where a natural pair may not meet (a forbidden pair), or scores differ (acceleration),
    /// the general engine pairs: both paths still agree.
    pub fn exceptions_take_the_general_path() {
        for rule_set in [RuleSet::Dutch2017, RuleSet::Dutch2025] {
            let record = Simulation::new(20, 9, 11).before_round(1).expect("round 1");
            let mut input = record.input_for_round(1, rule_set).expect("input");
            input.forbidden_pairs = vec![(1, 11)];
            assert_eq!(both(&input), (false, false), "forbidden natural pair");
            input.forbidden_pairs = vec![(1, 2)];
            assert_eq!(both(&input), (true, false), "forbidden pair of one half");
            input.forbidden_pairs.clear();
            for p in input.players.iter_mut().take(8) {
                p.acceleration = vec![arbiter_core::Score::points(1)];
            }
            assert_eq!(both(&input), (false, false), "accelerated top");
        }
    }
}
