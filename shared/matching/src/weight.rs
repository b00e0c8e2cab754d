//! Edge-weight arithmetic.
//!
//! The matcher only ever needs exact unsigned addition, subtraction, halving and comparison, so the
//! trait is kept that small; every implementation is a fixed-width integer, which keeps the hot
//! loops free of allocation.

use core::fmt;

/// Exact non-negative integer edge weights.
///
/// Implemented for `u64`, `u128` and [`Wide<N>`](crate::Wide).
///
/// **Headroom requirement.** The matcher works with doubled dual variables, so every weight given
/// to [`Matcher::set_weight`](crate::Matcher::set_weight) must be below `2^(BITS - 4)`, i.e. have
/// at most [`Matcher::WEIGHT_BITS`](crate::Matcher::WEIGHT_BITS) significant bits (refused
/// otherwise). With `M` the largest weight, doubled vertex duals stay at most `3M + 1`, doubled
/// blossom duals at most `2M`, and every intermediate value (slacks, and the offset encodings of a
/// search) stays below `2^BITS`, so nothing overflows. Sums of many weights (like
/// [`Matcher::total_weight`](crate::Matcher::total_weight)) are the caller's concern.
pub trait Weight:
    Copy + Clone + Ord + Eq + core::hash::Hash + fmt::Debug + Send + Sync + 'static
{
    /// Zero; as an edge weight it means "no edge".
    const ZERO: Self;
    /// Width of the representation in bits.
    const BITS: u32;
    /// Converts a `u64` (every implementation is at least 64 bits wide).
    fn from_u64(v: u64) -> Self;
    /// `self + rhs`, or `None` on overflow.
    fn checked_add(self, rhs: Self) -> Option<Self>;
    /// `self - rhs`, or `None` if `rhs > self`.
    fn checked_sub(self, rhs: Self) -> Option<Self>;
    /// `self + rhs` modulo `2^BITS`.
    fn wrapping_add(self, rhs: Self) -> Self;
    /// `self - rhs` modulo `2^BITS`.
    fn wrapping_sub(self, rhs: Self) -> Self;
    /// `self / 2`, rounded down.
    fn half(self) -> Self;
    /// Whether the lowest bit is set.
    fn is_odd(self) -> bool;
    /// Number of significant bits (0 for zero).
    fn bit_len(self) -> u32;
    /// Whether `self` is zero.
    #[inline(always)]
    fn is_zero(self) -> bool {
        self == Self::ZERO
    }
}

macro_rules! prim_weight {
    ($t:ty) => {
        impl Weight for $t {
            const ZERO: Self = 0;
            const BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn from_u64(v: u64) -> Self {
                v as $t
            }
            #[inline(always)]
            fn checked_add(self, rhs: Self) -> Option<Self> {
                <$t>::checked_add(self, rhs)
            }
            #[inline(always)]
            fn checked_sub(self, rhs: Self) -> Option<Self> {
                <$t>::checked_sub(self, rhs)
            }
            #[inline(always)]
            fn wrapping_add(self, rhs: Self) -> Self {
                <$t>::wrapping_add(self, rhs)
            }
            #[inline(always)]
            fn wrapping_sub(self, rhs: Self) -> Self {
                <$t>::wrapping_sub(self, rhs)
            }
            #[inline(always)]
            fn half(self) -> Self {
                self >> 1
            }
            #[inline(always)]
            fn is_odd(self) -> bool {
                self & 1 == 1
            }
            #[inline(always)]
            fn bit_len(self) -> u32 {
                <$t>::BITS - self.leading_zeros()
            }
        }
    };
}

prim_weight!(u64);
prim_weight!(u128);
