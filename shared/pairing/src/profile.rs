//! Where a Dutch pairing's time goes: the matcher's solves counted and timed by the step of
//! the engine that asked for them (the first solve of a bracket, each generation-order phase,
//! the whole-field pre-pass). For benches and diagnostics; nothing is recorded unless
//! [`record`] runs, and recording never changes a pairing.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// The solves of one step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StepCost {
    pub solves: u64,
    /// Solves that started from scratch (too many edges changed to repair).
    pub from_scratch: u64,
    pub time: Duration,
    /// Alternating-tree searches (each ends with one augmentation or flip).
    pub searches: u64,
    /// Row scans of S-vertices (each `O(n)`, or a candidate list's length).
    pub scans: u64,
    /// Matrix cells those scans visited.
    pub cells: u64,
    /// Dual adjustments (each `O(n)`).
    pub dual_steps: u64,
    pub blossoms: u64,
    /// Dual checks that found edges outside the candidate lists violated, and those edges.
    pub pricing_rounds: u64,
    pub priced_in: u64,
}

/// The solves of one recorded call, by step.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Profile {
    pub steps: BTreeMap<&'static str, StepCost>,
    /// How often each counted outcome happened (e.g. a bracket paired on its group's graph).
    pub counts: BTreeMap<&'static str, u64>,
}

thread_local! {
    /// The profile being recorded on this thread, and the step now running.
    static ACTIVE: RefCell<Option<(Profile, &'static str)>> = const { RefCell::new(None) };
}

/// Runs `f`, recording the solves it makes on this thread.
pub fn record<T>(f: impl FnOnce() -> T) -> (T, Profile) {
    ACTIVE.with(|a| *a.borrow_mut() = Some((Profile::default(), "other")));
    let out = f();
    let profile = ACTIVE.with(|a| a.borrow_mut().take()).map(|(p, _)| p);
    (out, profile.unwrap_or_default())
}

/// Counts one `what` when a profile is being recorded.
pub(crate) fn count(what: &'static str) {
    ACTIVE.with(|a| {
        if let Some((p, _)) = a.borrow_mut().as_mut() {
            *p.counts.entry(what).or_default() += 1;
        }
    });
}

/// Names the step whose solves follow.
pub(crate) fn step(name: &'static str) {
    ACTIVE.with(|a| {
        if let Some((_, s)) = a.borrow_mut().as_mut() {
            *s = name;
        }
    });
}

/// Solves `m`, recording the solve when a profile is being recorded.
pub(crate) fn solve<W: arbiter_matching::Weight>(m: &mut arbiter_matching::Matcher<W>) {
    if !ACTIVE.with(|a| a.borrow().is_some()) {
        m.solve();
        return;
    }
    let t = Instant::now();
    m.solve();
    let time = t.elapsed();
    let s = m.last_solve_stats();
    ACTIVE.with(|a| {
        if let Some((p, step)) = a.borrow_mut().as_mut() {
            let c = p.steps.entry(step).or_default();
            c.solves += 1;
            c.from_scratch += (!s.incremental) as u64;
            c.time += time;
            c.searches += s.searches as u64;
            c.scans += s.scans as u64;
            c.dual_steps += s.dual_steps as u64;
            c.blossoms += s.blossoms as u64;
            c.cells += s.cells as u64;
            c.pricing_rounds += s.pricing_rounds as u64;
            c.priced_in += s.priced_in as u64;
        }
    });
}

#[cfg(feature = "test-support")]
pub mod checks {
    use crate::simulate::{Pairer, Simulation};
    use crate::{RuleSet, pair};

    /// A recorded pairing is the same pairing, its solves are counted by step (the first solve
    /// of every bracket among them), and nothing is recorded outside `record`.
    pub fn recording_counts_the_solves_by_step_and_changes_nothing() {
        for rule_set in [RuleSet::Dutch2017, RuleSet::Dutch2025] {
            let mut sim = Simulation::new(60, 7, 2026_1127);
            sim.pairer = Pairer::Greedy;
            let input = sim
                .before_round(4)
                .expect("the generated history")
                .input_for_round(4, rule_set)
                .expect("the round's input");
            let plain = pair(&input).expect("the round pairs");
            let (recorded, profile) = super::record(|| pair(&input).expect("the round pairs"));
            assert_eq!(plain.boards, recorded.boards, "{rule_set}");
            assert_eq!(plain.bye, recorded.bye, "{rule_set}");
            let first = profile.steps["bracket: first solve"];
            assert!(
                first.solves >= 1 && first.scans >= 1,
                "{rule_set}: {profile:?}"
            );
            let total: u64 = profile.steps.values().map(|c| c.solves).sum();
            assert!(total >= first.solves);
            let (_, empty) = super::record(|| ());
            assert!(empty.steps.is_empty());
            // Outside `record` the hooks record nothing and cost a thread-local read.
            super::step("G: each S1 player's opponent");
            pair(&input).expect("the round pairs");
            let (_, after) = super::record(|| ());
            assert!(after.steps.is_empty());
        }
    }
}
