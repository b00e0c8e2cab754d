//! Cash prizes among tied players, as the appendix on cash prizes of the FIDE Arbiters' Manual
//! describes: how the announced prize fund is paid when players finish on the same score.
//!
//! # Methods
//!
//! The regulations announce one [`Method`] before the event (there is no default):
//! * [`Method::Equal`]: a score group adds up the prizes of the places it occupies and its
//!   players share the sum equally;
//! * [`Method::TieBreak`]: each player receives the prize of their place after tie-breaks;
//! * [`Method::Hort`]: half of each place prize follows the tie-break order, the other halves
//!   are pooled and shared equally by the group.
//!
//! A group is paid the sum of its places' prizes whatever the method. [`SharingScope`] says who
//! shares: by default only the tied players whose place after tie-breaks carries a prize, as the
//! Manual recommends announcing, or the whole group.
//!
//! ```
//! use arbiter_core::Score;
//! use arbiter_prizes::{Method, Policy, PrizeFund, ScoreGroup, distribute};
//!
//! // The Manual's example: four players on 8 points, prizes 10000 / 5000 / 3000 / 2000.
//! let standings = [ScoreGroup::new(Score::points(8), vec!["A", "B", "C", "D"])];
//! let fund = PrizeFund::places(vec![10000, 5000, 3000, 2000]);
//! let d = distribute(&standings, &fund, &Policy::new(Method::Hort)).unwrap();
//! let paid: Vec<i64> = d.awards.iter().map(|a| a.paid).collect();
//! assert_eq!(paid, [7500, 5000, 4000, 3500]);
//! ```
//!
//! # Exact amounts and rounding
//!
//! Prizes are given in whole minor units of the currency (cents) as `i64`. Shares are exact
//! fractions ([`Amount`]); nothing uses floating point. Every tied group pays out a whole number
//! of minor units (the sum of the prizes its players hold), so whole amounts are settled group
//! by group: each player gets their exact share rounded down, and the units this leaves over
//! (fewer than the group's size) go one each to the players with the largest fractional parts,
//! the player ranked higher by the tie-breaks first among equal fractions. So totals are
//! preserved exactly, no one is paid a full unit more or less than their exact share, and when
//! rounding every share half up would already keep the total, the result is the same. Each
//! [`Award`] shows both the exact and the paid amount.
//!
//! # Category and special prizes
//!
//! A [`Category`] (best woman, junior, rating band, club...) lists its own prizes and its
//! [`Entrants`]: eligible players ranked as in the standings, or a ranking of its own such as
//! the biggest rating gain `W - We` ([`rating_gain`], [`rank_by_key`]). Tied entrants share by
//! the same method. With [`Policy::one_prize_per_player`] a player keeps only the highest prize
//! open to them and the prize they leave passes on ([`distribute`] gives the exact rule).
//! [`overlapping_bands`] finds rating bands that would let one player win two band prizes.
//!
//! # Not covered
//!
//! * Eligibility from registration data (age, sex, federation, club, rating): the caller
//!   lists the entrants; [`RatingBand::contains`] helps for bands.
//! * Play-offs as such: their outcome is given as score groups split in play-off order.
//! * The currency's minor unit, and computing performances or opponents' average ratings
//!   (see `arbiter-rating`).
//! * Sharing scope for category prizes: only the holders of a category's places share them.
//! * The prize list's workflow: approval by two people, holding prizes until fair-play checks
//!   are complete, repayment after sanctions, and the anti-cheating protection level the fund
//!   implies ([`PrizeFund::total`] gives the figure it is based on).
//! * Payment and tax conditions.

mod amount;
mod bands;
mod distribute;
mod error;
mod gain;
mod input;
mod output;
mod prepare;
mod share;

pub use amount::Amount;
pub use bands::{RatingBand, overlapping_bands};
pub use distribute::distribute;
pub use error::PrizeError;
pub use gain::{RatingGain, rank_by_key, rating_gain};
pub use input::{Category, Entrants, Method, Policy, PrizeFund, ScoreGroup, SharingScope};
pub use output::{Award, Distribution, Portion, Prize, Source};

/// Re-exported for [`rating_gain`]'s result.
pub use arbiter_rating::Hundredths;
