//! Edge weights of the Dutch matching: the criteria of C.04.3 packed into one exact integer,
//! highest priority in the most significant bits.
//!
//! A weight is built field by field: shift left by the field's width, then add (or subtract)
//! the field's value. Fields whose value over a whole matching can be negative borrow from the
//! field above, exactly as the sum of the per-edge values must; all arithmetic is two's
//! complement on `N` 64-bit limbs and the final weights are non-negative.

use std::collections::BTreeMap;

/// A fixed-width unsigned integer under construction (little-endian limbs).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Acc<const N: usize>(pub [u64; N]);

impl<const N: usize> Acc<N> {
    pub const ZERO: Self = Acc([0; N]);

    /// 2^bits - 1.
    pub fn all_ones(bits: u32) -> Self {
        let mut a = Self::ZERO;
        a.add_u64(1);
        a.shl(bits);
        a.sub_u64(1);
        a
    }

    pub fn is_zero(&self) -> bool {
        self.0.iter().all(|&l| l == 0)
    }

    pub fn shl(&mut self, bits: u32) {
        if bits == 0 {
            return;
        }
        let limbs = (bits / 64) as usize;
        let rem = bits % 64;
        let mut out = [0u64; N];
        for i in (0..N).rev() {
            if i < limbs {
                break;
            }
            let src = i - limbs;
            let mut v = self.0[src] << rem;
            if rem > 0 && src > 0 {
                v |= self.0[src - 1] >> (64 - rem);
            }
            out[i] = v;
        }
        self.0 = out;
    }

    fn add_limbs(&mut self, other: &[u64; N]) {
        let mut carry = 0u64;
        for i in 0..N {
            let (s1, c1) = self.0[i].overflowing_add(other[i]);
            let (s2, c2) = s1.overflowing_add(carry);
            self.0[i] = s2;
            carry = (c1 as u64) + (c2 as u64);
        }
    }

    fn sub_limbs(&mut self, other: &[u64; N]) {
        let mut borrow = 0u64;
        for i in 0..N {
            let (d1, b1) = self.0[i].overflowing_sub(other[i]);
            let (d2, b2) = d1.overflowing_sub(borrow);
            self.0[i] = d2;
            borrow = (b1 as u64) + (b2 as u64);
        }
    }

    fn pow2(bit: u32) -> [u64; N] {
        let mut v = [0u64; N];
        let idx = (bit / 64) as usize;
        if idx < N {
            v[idx] = 1u64 << (bit % 64);
        }
        v
    }

    pub fn add_u64(&mut self, x: u64) {
        let mut v = [0u64; N];
        v[0] = x;
        self.add_limbs(&v);
    }

    pub fn sub_u64(&mut self, x: u64) {
        let mut v = [0u64; N];
        v[0] = x;
        self.sub_limbs(&v);
    }

    /// Adds 2^bit.
    pub fn add_bit(&mut self, bit: u32) {
        self.add_limbs(&Self::pow2(bit));
    }

    /// Subtracts 2^bit.
    pub fn sub_bit(&mut self, bit: u32) {
        self.sub_limbs(&Self::pow2(bit));
    }

    pub fn add(&mut self, o: &Self) {
        self.add_limbs(&o.0);
    }

    pub fn sub(&mut self, o: &Self) {
        self.sub_limbs(&o.0);
    }

}

/// Bits needed to represent `x` (0 for 0).
pub(crate) fn bits(x: u64) -> u32 {
    64 - x.leading_zeros()
}

/// Bit positions for score differences: each distinct difference gets a field wide enough to
/// count how often it can occur in one bracket, larger differences in higher fields, so that
/// comparing sums compares sorted lists of differences lexicographically (A.8).
#[derive(Debug, Clone, Default)]
pub(crate) struct ScoreDiffFields {
    pub shift: BTreeMap<i32, u32>,
    pub width: u32,
}

impl ScoreDiffFields {
    /// Builds the fields from a list of possible differences (one entry per possible
    /// occurrence).
    pub fn from_occurrences(mut diffs: Vec<i32>) -> ScoreDiffFields {
        diffs.sort_unstable();
        let mut f = ScoreDiffFields::default();
        let mut i = 0;
        while i < diffs.len() {
            let mut j = i;
            while j < diffs.len() && diffs[j] == diffs[i] {
                j += 1;
            }
            f.shift.insert(diffs[i], f.width);
            f.width += bits((j - i) as u64);
            i = j;
        }
        f
    }

    pub fn at(&self, diff: i32) -> u32 {
        *self
            .shift
            .get(&diff)
            .expect("score difference was registered for this bracket")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_and_borrows_across_limbs() {
        let mut a = Acc::<2>::ZERO;
        a.add_u64(1);
        a.shl(70);
        assert_eq!(a.0, [0, 1 << 6]);
        a.sub_u64(1);
        assert_eq!(a.0, [u64::MAX, (1 << 6) - 1]);
        a.add_bit(0);
        assert_eq!(a.0, [0, 1 << 6]);
        a.sub_bit(70);
        assert!(a.is_zero());
    }

    #[test]
    fn score_difference_fields_order_by_value() {
        let f = ScoreDiffFields::from_occurrences(vec![0, 0, 0, 10, 5, 5]);
        // 0 occurs 3 times (2 bits), 5 twice (2 bits), 10 once (1 bit).
        assert_eq!(f.at(0), 0);
        assert_eq!(f.at(5), 2);
        assert_eq!(f.at(10), 4);
        assert_eq!(f.width, 5);
    }
}
