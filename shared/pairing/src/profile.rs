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
    /// Row scans of S-vertices (each `O(n)`).
    pub scans: u64,
    /// Dual adjustments (each `O(n)`).
    pub dual_steps: u64,
    pub blossoms: u64,
}

/// The solves of one recorded call, by step.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Profile {
    pub steps: BTreeMap<&'static str, StepCost>,
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
            c.scans += s.scans as u64;
            c.dual_steps += s.dual_steps as u64;
            c.blossoms += s.blossoms as u64;
        }
    });
}
