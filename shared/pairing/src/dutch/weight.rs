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

    pub fn add(&mut self, o: &Self) {
        self.add_limbs(&o.0);
    }

    /// Adds (or subtracts) `x · 2^at`, modulo `2^(64·N)`: touches only the limbs from the
    /// term's up to where the carry stops.
    pub fn add_shifted(&mut self, x: u64, at: u32, subtract: bool) {
        let mut i = (at / 64) as usize;
        if i >= N {
            return;
        }
        let rem = at % 64;
        let lo = x << rem;
        let hi = if rem == 0 { 0 } else { x >> (64 - rem) };
        // Two's complement: a borrow runs up the limbs as a carry does.
        let op: fn(u64, u64) -> (u64, bool) = if subtract {
            u64::overflowing_sub
        } else {
            u64::overflowing_add
        };
        let (r, c) = op(self.0[i], lo);
        self.0[i] = r;
        let mut carry = c as u64;
        i += 1;
        if i < N {
            let (r1, c1) = op(self.0[i], hi);
            let (r2, c2) = op(r1, carry);
            self.0[i] = r2;
            carry = (c1 | c2) as u64;
            i += 1;
        }
        while carry != 0 && i < N {
            let (r, c) = op(self.0[i], 1);
            self.0[i] = r;
            carry = c as u64;
            i += 1;
        }
    }

    pub fn sub(&mut self, o: &Self) {
        self.sub_limbs(&o.0);
    }
}

/// Where an edge weight is written, field by field, highest priority first. [`Acc`] packs the
/// fields into one integer for the matching; [`Breakdown`] keeps them apart, so that two
/// pairings can be compared criterion by criterion (`arbiter check`).
pub(crate) trait Sink {
    /// Starts the next field, `width` bits below the previous one, holding criterion `rule`.
    fn field(&mut self, rule: &'static str, width: u32);
    fn add_u64(&mut self, x: u64);
    fn sub_u64(&mut self, x: u64);
    fn add_bit(&mut self, bit: u32);
    fn sub_bit(&mut self, bit: u32);
}

/// Most terms one edge weight writes; the weights of both rule sets write about 30.
const MAX_TERMS: usize = 64;

/// Packs an edge weight into one [`Acc`] without shifting it at every field: a weight is
/// built for every edge of every bracket, on hundreds of bits, and most of its fields are
/// zero. The terms are kept with their distance from the top; [`Packer::finish`], once the
/// total width is known, adds each at its place. The result is the same integer as shifting
/// by each field's width and adding, modulo `2^(64·N)`.
pub(crate) struct Packer<const N: usize> {
    /// Bits from the top of the weight to the bottom of the current field.
    depth: u32,
    /// `(value, depth of its field, bit within the field, subtract)`.
    terms: [(u64, u32, u32, bool); MAX_TERMS],
    len: usize,
}

impl<const N: usize> Packer<N> {
    pub fn new() -> Self {
        Packer {
            depth: 0,
            terms: [(0, 0, 0, false); MAX_TERMS],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, x: u64, bit: u32, subtract: bool) {
        if x == 0 {
            return;
        }
        assert!(
            self.len < MAX_TERMS,
            "an edge weight writes at most {MAX_TERMS} terms"
        );
        self.terms[self.len] = (x, self.depth, bit, subtract);
        self.len += 1;
    }

    /// The packed weight.
    pub fn finish(&self) -> Acc<N> {
        let mut acc = Acc::<N>::ZERO;
        for &(x, depth, bit, subtract) in &self.terms[..self.len] {
            acc.add_shifted(x, self.depth - depth + bit, subtract);
        }
        acc
    }
}

impl<const N: usize> Sink for Packer<N> {
    #[inline]
    fn field(&mut self, _rule: &'static str, width: u32) {
        self.depth += width;
    }
    #[inline]
    fn add_u64(&mut self, x: u64) {
        self.push(x, 0, false);
    }
    #[inline]
    fn sub_u64(&mut self, x: u64) {
        self.push(x, 0, true);
    }
    #[inline]
    fn add_bit(&mut self, bit: u32) {
        self.push(1, bit, false);
    }
    #[inline]
    fn sub_bit(&mut self, bit: u32) {
        self.push(1, bit, true);
    }
}

/// The fields of one weight (or of a sum of weights) kept apart: each a signed sum of powers
/// of two (bit -> multiplicity), so no field borrows from the one above.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Breakdown {
    pub fields: Vec<(&'static str, BTreeMap<u32, i64>)>,
}

impl Sink for Breakdown {
    fn field(&mut self, rule: &'static str, _width: u32) {
        self.fields.push((rule, BTreeMap::new()));
    }
    fn add_u64(&mut self, x: u64) {
        for b in 0..64 {
            if x >> b & 1 == 1 {
                self.add_bit(b);
            }
        }
    }
    fn sub_u64(&mut self, x: u64) {
        for b in 0..64 {
            if x >> b & 1 == 1 {
                self.sub_bit(b);
            }
        }
    }
    fn add_bit(&mut self, bit: u32) {
        self.bump(bit, 1);
    }
    fn sub_bit(&mut self, bit: u32) {
        self.bump(bit, -1);
    }
}

impl Breakdown {
    fn bump(&mut self, bit: u32, by: i64) {
        let (_, f) = self
            .fields
            .last_mut()
            .expect("a field is started before it is written");
        *f.entry(bit).or_insert(0) += by;
    }

    /// Adds another breakdown of the same layout (an empty one is a zero of any layout).
    pub fn add(&mut self, o: &Breakdown) {
        if self.fields.is_empty() {
            self.fields = o
                .fields
                .iter()
                .map(|(r, _)| (*r, BTreeMap::new()))
                .collect();
        }
        for ((ra, fa), (rb, fb)) in self.fields.iter_mut().zip(&o.fields) {
            debug_assert_eq!(ra, rb, "breakdowns of one layout");
            for (&bit, &c) in fb {
                *fa.entry(bit).or_insert(0) += c;
            }
        }
    }

    /// The first field, in priority order, whose value differs, and whether `self` is the
    /// greater there; fields named in `skip` do not count. `None` when all are equal.
    pub fn first_difference(&self, o: &Breakdown, skip: &[&str]) -> Option<(&'static str, bool)> {
        for ((rule, fa), (_, fb)) in self.fields.iter().zip(&o.fields) {
            if skip.contains(rule) {
                continue;
            }
            let mut d: BTreeMap<u32, i64> = fa.clone();
            for (&bit, &c) in fb {
                *d.entry(bit).or_insert(0) -= c;
            }
            match sign(&d) {
                std::cmp::Ordering::Equal => continue,
                ord => return Some((rule, ord == std::cmp::Ordering::Greater)),
            }
        }
        None
    }

    /// A field's value when it is a plain count (every term below bit 63).
    pub fn count(&self, index: usize) -> Option<i64> {
        let (_, f) = self.fields.get(index)?;
        f.iter()
            .try_fold(0i64, |acc, (&bit, &c)| (bit < 62).then(|| acc + (c << bit)))
    }
}

/// The sign of the number sum(c * 2^bit).
fn sign(d: &BTreeMap<u32, i64>) -> std::cmp::Ordering {
    let (Some(&lo), Some(&hi)) = (d.keys().next(), d.keys().next_back()) else {
        return std::cmp::Ordering::Equal;
    };
    // Carry upwards until every digit is 0 or 1; what is left above is the sign.
    let mut carry = 0i64;
    let mut any = false;
    let mut bit = lo;
    while bit <= hi || (carry != 0 && carry != -1) {
        let v = d.get(&bit).copied().unwrap_or(0) + carry;
        any |= v.rem_euclid(2) == 1;
        carry = v.div_euclid(2);
        bit += 1;
    }
    if carry < 0 {
        std::cmp::Ordering::Less
    } else if any {
        std::cmp::Ordering::Greater
    } else {
        std::cmp::Ordering::Equal
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

#[cfg(feature = "test-support")]
pub mod checks {
    use super::*;
    use proptest::prelude::*;

    pub fn shifts_and_borrows_across_limbs() {
        let mut a = Acc::<2>::ZERO;
        a.add_u64(1);
        a.shl(70);
        assert_eq!(a.0, [0, 1 << 6]);
        a.sub_u64(1);
        assert_eq!(a.0, [u64::MAX, (1 << 6) - 1]);
        a.add_shifted(1, 0, false);
        assert_eq!(a.0, [0, 1 << 6]);
        a.add_shifted(1, 70, true);
        assert!(a.is_zero());
        // A term across the limb boundary, and one shifted out of the top.
        a.add_shifted(0b11, 63, false);
        assert_eq!(a.0, [1 << 63, 1]);
        a.add_shifted(1, 128, false);
        assert_eq!(a.0, [1 << 63, 1]);
    }

    impl<const N: usize> Acc<N> {
        /// `2^bit` by the shifting definition the packer is checked against.
        fn pow2_model(bit: u32) -> Self {
            let mut one = Self::ZERO;
            one.add_u64(1);
            one.shl(bit);
            one
        }
    }

    /// One write of an edge weight: a field of some width, or a term in the current field.
    #[derive(Clone, Debug)]
    enum Write {
        Field(u32),
        AddU64(u64),
        SubU64(u64),
        AddBit(u32),
        SubBit(u32),
    }

    fn write() -> impl Strategy<Value = Write> {
        prop_oneof![
            (0u32..80).prop_map(Write::Field),
            any::<u64>().prop_map(Write::AddU64),
            (0u64..1000).prop_map(Write::SubU64),
            (0u32..90).prop_map(Write::AddBit),
            (0u32..90).prop_map(Write::SubBit),
        ]
    }

    /// The packer gives the integer the field-by-field definition gives: shift by each
    /// field's width, then add or subtract its terms, modulo `2^(64·N)`.
    pub fn packer_equals_shifting_at_every_field() {
        proptest!(|(writes in prop::collection::vec(write(), 0..40))| {
            let mut model = Acc::<3>::ZERO;
            let mut packer = Packer::<3>::new();
            for w in &writes {
                match *w {
                    Write::Field(b) => {
                        model.shl(b);
                        packer.field("f", b);
                    }
                    Write::AddU64(x) => {
                        model.add_u64(x);
                        Sink::add_u64(&mut packer, x);
                    }
                    Write::SubU64(x) => {
                        model.sub_u64(x);
                        Sink::sub_u64(&mut packer, x);
                    }
                    Write::AddBit(b) => {
                        model.add(&Acc::<3>::pow2_model(b));
                        packer.add_bit(b);
                    }
                    Write::SubBit(b) => {
                        model.sub(&Acc::<3>::pow2_model(b));
                        packer.sub_bit(b);
                    }
                }
            }
            prop_assert_eq!(packer.finish(), model);
        });
    }

    pub fn breakdown_signs_compare_sums_of_powers() {
        let mut a = Breakdown::default();
        a.field("x", 4);
        a.add_bit(3); // 8
        let mut b = Breakdown::default();
        b.field("x", 4);
        b.add_u64(7);
        assert_eq!(a.first_difference(&b, &[]), Some(("x", true)));
        assert_eq!(b.first_difference(&a, &[]), Some(("x", false)));
        b.add_u64(1);
        assert_eq!(a.first_difference(&b, &[]), None);
        // Negative terms: 2^5 - 2^1 = 30 against 2^4 + 2^3 + 2^2 + 2 = 30, then 31.
        let mut c = Breakdown::default();
        c.field("y", 6);
        c.add_bit(5);
        c.sub_bit(1);
        let mut e = Breakdown::default();
        e.field("y", 6);
        e.add_u64(30);
        assert_eq!(c.first_difference(&e, &[]), None);
        e.add_u64(1);
        assert_eq!(c.first_difference(&e, &[]), Some(("y", false)));
        assert_eq!(c.count(0), Some(30));
    }

    pub fn score_difference_fields_order_by_value() {
        let f = ScoreDiffFields::from_occurrences(vec![0, 0, 0, 10, 5, 5]);
        // 0 occurs 3 times (2 bits), 5 twice (2 bits), 10 once (1 bit).
        assert_eq!(f.at(0), 0);
        assert_eq!(f.at(5), 2);
        assert_eq!(f.at(10), 4);
        assert_eq!(f.width, 5);
    }
}
