//! FIDE rating regulations (B.02): expected scores, K factors, rating changes, performance; title norms (B.01).
//!
//! Rules: FIDE Rating Regulations B.02 (standard, rapid and blitz) and Title Regulations B.01, with
//! the conversion tables of B.02 8.1.1 and 8.1.2 in `data/fide-rating-tables.json`; where they
//! leave room, docs/src/auditors/agreement.md. Source: the FIDE Handbook's B.02
//! (standard, and rapid/blitz) and B.01, with their appendices.
//!
//! * Arithmetic is exact: expected scores and `ΔR` are [`Hundredths`]; averages are rationals
//!   rounded "0.5 up" as the regulations prescribe; game points are core [`Score`]s.
//! * The regulation version is a [`RuleSet`], chosen from the tournament's start date with
//!   [`RuleSet::in_force_on`]; every result records the rule-set that produced it.
//! * [`list`] reads the public FIDE rating lists (fixed-width text and XML) as a stream.
//! * [`rate_report`] prints a tournament's rating changes, performances and norm status.
//!
//! The crate does no I/O of its own except reading from a reader the caller passes in.
//!
//! ```
//! use arbiter_core::ResultCode::*;
//! use arbiter_rating::{Date, RatedGame, RuleSet, rating_change};
//!
//! // Seed 001 APENDICES "Ejemplo de cálculo de Valoración": 2212, K = 40, 5.5/9.
//! let opponents = [1926, 2011, 2318, 2067, 2219, 2585, 2659, 2464, 2652];
//! let results = [Win, Win, Loss, Draw, Draw, Loss, Win, Draw, Draw];
//! let games: Vec<RatedGame> = (0..9).map(|i| RatedGame::new(i as u32 + 1, Some(opponents[i]), results[i])).collect();
//! let rules = RuleSet::in_force_on(Date::new(2024, 6, 1)).unwrap();
//! let c = rating_change(rules, 2212, 40, &games);
//! assert_eq!((c.sum_delta_r.to_string(), c.change, c.new_rating), ("1.41".to_string(), 56, 2268));
//! // Under the 2022 text only the largest difference above 400 is capped: 2269.
//! assert_eq!(rating_change(RuleSet::B02_2022, 2212, 40, &games).new_rating, 2269);
//! ```
//!
//! [`Score`]: arbiter_core::Score

mod change;
mod initial;
pub mod list;
pub mod norms;
mod num;
mod performance;
mod report;
mod rules;
mod tables;
mod title;

pub use change::{
    GameChange, KFactor, KInputs, KReason, MAX_COUNTED_DIFFERENCE, MAX_K_TIMES_GAMES,
    NO_CAP_FROM_RATING, RatedGame, RatingChange, Side, Skip, adjustment_march_2024,
    cap_k_for_games, expected_against, k_by_status, match_is_rated, period_change, rated_score,
    rating_change,
};
pub use initial::{InitialRating, MIN_GAMES_FOR_FIRST_RATING, RuMethod, initial_rating};
pub use num::{Hundredths, Ratio, ceil_div, round_half_up};
pub use performance::{
    Performance, average_rating, expected_points_against_average, performance, performance_from_sum,
};
pub use report::{KSource, ReportEvent, ReportPlayer, rate_report};
pub use rules::{Category, Date, DateParseError, RuleSet, TimeControl, standard_minimum_minutes};
pub use tables::{dp, dp_rows, expected_score, p_hundredths, pd_for_difference, pd_rows};
pub use title::{Federation, Sex, Title, Titles};
