//! A round's pairing from a tournament's state, the one path the pairing worker proposes with
//! and `arbiter replay` audits with, so the two cannot drift apart:
//!
//! - [`engine`]: which engine pairs the round (a Swiss rule set, the round robin's table, the
//!   knockout bracket), its input, the input's canonical digest, and the answer to record;
//! - [`teams`]: the same for a team event's round;
//! - [`audit`]: a stream's hash chain, its fold, and every published pairing re-run from the
//!   events before it.

pub mod audit;
pub mod engine;
pub mod teams;
