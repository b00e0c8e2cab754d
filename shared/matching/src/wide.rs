//! `Wide<N>`: a fixed-width unsigned integer of `N` 64-bit limbs.
//!
//! Pairing criteria are compared lexicographically, so their weights are bit fields concatenated
//! into one integer that can exceed 128 bits. A fixed array of limbs keeps the matcher's inner
//! loops allocation-free and `Copy`, and only the operations the matcher and its callers need are
//! provided.

use crate::weight::Weight;
use core::cmp::Ordering;
use core::fmt;
use core::ops::{Add, AddAssign, BitAnd, BitOr, BitOrAssign, Shl, Shr, Sub, SubAssign};

/// Fixed-width unsigned integer of `N` 64-bit limbs, least significant limb first.
///
/// Arithmetic is exact: the `checked_*` methods report overflow, the `wrapping_*` ones work
/// modulo `2^(64·N)`, and the `+`/`-` operators panic on overflow (in every build profile).
/// Shifts drop the bits moved out; shifting by `64·N` bits or more gives zero.
///
/// ```
/// use arbiter_matching::Wide;
/// // Two lexicographic fields: 100 in the high bits, 7 in the low 150 bits.
/// let w = (Wide::<4>::from_u64(100) << 150) | 7;
/// assert_eq!(w.bit_len(), 157);
/// assert_eq!(w >> 150, Wide::from_u64(100));
/// assert_eq!(format!("{:x}", Wide::<2>::from_u128(255 << 64)), "ff0000000000000000");
/// assert_eq!(Wide::<2>::from_u128(12345678901234567890123).to_string(), "12345678901234567890123");
/// ```
#[derive(Clone, Copy)]
pub struct Wide<const N: usize>(pub [u64; N]);

impl<const N: usize> Wide<N> {
    /// Zero.
    pub const ZERO: Self = Wide([0; N]);
    /// One (zero when `N == 0`).
    pub const ONE: Self = Self::from_u64(1);
    /// The largest value, `2^(64·N) - 1`.
    pub const MAX: Self = Wide([u64::MAX; N]);
    /// Width in bits.
    pub const BITS: u32 = 64 * N as u32;

    /// Zero.
    pub const fn zero() -> Self {
        Self::ZERO
    }

    /// One.
    pub const fn one() -> Self {
        Self::ONE
    }

    /// The value `v` (truncated to zero when `N == 0`).
    pub const fn from_u64(v: u64) -> Self {
        let mut a = [0u64; N];
        if N > 0 {
            a[0] = v;
        }
        Wide(a)
    }

    /// The value `v`.
    ///
    /// # Panics
    /// If `v` does not fit (only possible for `N < 2`).
    pub const fn from_u128(v: u128) -> Self {
        let mut a = [0u64; N];
        let lo = v as u64;
        let hi = (v >> 64) as u64;
        if N >= 2 {
            a[0] = lo;
            a[1] = hi;
        } else if N == 1 {
            assert!(hi == 0, "value does not fit in Wide<1>");
            a[0] = lo;
        } else {
            assert!(v == 0, "value does not fit in Wide<0>");
        }
        Wide(a)
    }

    /// The value as a `u128`, if it fits.
    pub const fn to_u128(&self) -> Option<u128> {
        let mut i = 2;
        while i < N {
            if self.0[i] != 0 {
                return None;
            }
            i += 1;
        }
        let lo = if N > 0 { self.0[0] } else { 0 };
        let hi = if N > 1 { self.0[1] } else { 0 };
        Some(((hi as u128) << 64) | lo as u128)
    }

    /// Whether the value is zero.
    #[inline]
    pub const fn is_zero(&self) -> bool {
        let mut acc = 0u64;
        let mut i = 0;
        while i < N {
            acc |= self.0[i];
            i += 1;
        }
        acc == 0
    }

    /// `self + rhs` modulo `2^(64·N)`, and whether it overflowed.
    #[inline]
    pub const fn overflowing_add(self, rhs: Self) -> (Self, bool) {
        let mut out = [0u64; N];
        let mut carry = false;
        let mut i = 0;
        while i < N {
            let (s1, c1) = self.0[i].overflowing_add(rhs.0[i]);
            let (s2, c2) = s1.overflowing_add(carry as u64);
            out[i] = s2;
            carry = c1 | c2;
            i += 1;
        }
        (Wide(out), carry)
    }

    /// `self - rhs` modulo `2^(64·N)`, and whether it borrowed (`rhs > self`).
    #[inline]
    pub const fn overflowing_sub(self, rhs: Self) -> (Self, bool) {
        let mut out = [0u64; N];
        let mut borrow = false;
        let mut i = 0;
        while i < N {
            let (d1, b1) = self.0[i].overflowing_sub(rhs.0[i]);
            let (d2, b2) = d1.overflowing_sub(borrow as u64);
            out[i] = d2;
            borrow = b1 | b2;
            i += 1;
        }
        (Wide(out), borrow)
    }

    /// `self + rhs`, or `None` on overflow.
    #[inline]
    pub const fn checked_add(self, rhs: Self) -> Option<Self> {
        match self.overflowing_add(rhs) {
            (v, false) => Some(v),
            _ => None,
        }
    }

    /// `self - rhs`, or `None` if `rhs > self`.
    #[inline]
    pub const fn checked_sub(self, rhs: Self) -> Option<Self> {
        match self.overflowing_sub(rhs) {
            (v, false) => Some(v),
            _ => None,
        }
    }

    /// `self + rhs` modulo `2^(64·N)`.
    #[inline]
    pub const fn wrapping_add(self, rhs: Self) -> Self {
        self.overflowing_add(rhs).0
    }

    /// `self - rhs` modulo `2^(64·N)`.
    #[inline]
    pub const fn wrapping_sub(self, rhs: Self) -> Self {
        self.overflowing_sub(rhs).0
    }

    /// `self · 2^bits`, dropping the bits shifted out (zero if `bits ≥ 64·N`).
    pub const fn shl(self, bits: u32) -> Self {
        let mut out = [0u64; N];
        if bits >= Self::BITS {
            return Wide(out);
        }
        let limbs = (bits / 64) as usize;
        let sh = bits % 64;
        let mut i = N;
        while i > limbs {
            i -= 1;
            let src = i - limbs;
            let mut v = self.0[src] << sh;
            if sh > 0 && src > 0 {
                v |= self.0[src - 1] >> (64 - sh);
            }
            out[i] = v;
        }
        Wide(out)
    }

    /// `self / 2^bits`, rounded down (zero if `bits ≥ 64·N`).
    pub const fn shr(self, bits: u32) -> Self {
        let mut out = [0u64; N];
        if bits >= Self::BITS {
            return Wide(out);
        }
        let limbs = (bits / 64) as usize;
        let sh = bits % 64;
        let mut i = 0;
        while i + limbs < N {
            let src = i + limbs;
            let mut v = self.0[src] >> sh;
            if sh > 0 && src + 1 < N {
                v |= self.0[src + 1] << (64 - sh);
            }
            out[i] = v;
            i += 1;
        }
        Wide(out)
    }

    /// Number of significant bits (0 for zero).
    pub const fn bit_len(&self) -> u32 {
        let mut i = N;
        while i > 0 {
            i -= 1;
            if self.0[i] != 0 {
                return 64 * i as u32 + 64 - self.0[i].leading_zeros();
            }
        }
        0
    }

    /// Whether bit `i` is set (false beyond the width).
    pub const fn bit(&self, i: u32) -> bool {
        let limb = (i / 64) as usize;
        limb < N && (self.0[limb] >> (i % 64)) & 1 == 1
    }
}

impl<const N: usize> Default for Wide<N> {
    fn default() -> Self {
        Self::ZERO
    }
}

impl<const N: usize> From<u64> for Wide<N> {
    fn from(v: u64) -> Self {
        Self::from_u64(v)
    }
}

// Limb-wise in registers: the derived array comparison reloads freshly computed limbs with wider
// vector loads, which stalls on store forwarding in the matcher's inner loop.
impl<const N: usize> PartialEq for Wide<N> {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        let mut diff = 0u64;
        for i in 0..N {
            diff |= self.0[i] ^ other.0[i];
        }
        diff == 0
    }
}

impl<const N: usize> Eq for Wide<N> {}

impl<const N: usize> core::hash::Hash for Wide<N> {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl<const N: usize> Ord for Wide<N> {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        let mut i = N;
        while i > 0 {
            i -= 1;
            match self.0[i].cmp(&other.0[i]) {
                Ordering::Equal => {}
                ord => return ord,
            }
        }
        Ordering::Equal
    }
}

impl<const N: usize> PartialOrd for Wide<N> {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<const N: usize> Add for Wide<N> {
    type Output = Self;
    /// # Panics
    /// On overflow.
    fn add(self, rhs: Self) -> Self {
        self.checked_add(rhs).expect("Wide addition overflowed")
    }
}

impl<const N: usize> Sub for Wide<N> {
    type Output = Self;
    /// # Panics
    /// If `rhs > self`.
    fn sub(self, rhs: Self) -> Self {
        self.checked_sub(rhs).expect("Wide subtraction underflowed")
    }
}

impl<const N: usize> AddAssign for Wide<N> {
    fn add_assign(&mut self, rhs: Self) {
        *self = *self + rhs;
    }
}

impl<const N: usize> SubAssign for Wide<N> {
    fn sub_assign(&mut self, rhs: Self) {
        *self = *self - rhs;
    }
}

impl<const N: usize> Shl<u32> for Wide<N> {
    type Output = Self;
    fn shl(self, bits: u32) -> Self {
        Wide::shl(self, bits)
    }
}

impl<const N: usize> Shr<u32> for Wide<N> {
    type Output = Self;
    fn shr(self, bits: u32) -> Self {
        Wide::shr(self, bits)
    }
}

impl<const N: usize> BitOr<u64> for Wide<N> {
    type Output = Self;
    fn bitor(mut self, rhs: u64) -> Self {
        if N > 0 {
            self.0[0] |= rhs;
        }
        self
    }
}

impl<const N: usize> BitOrAssign<u64> for Wide<N> {
    fn bitor_assign(&mut self, rhs: u64) {
        *self = *self | rhs;
    }
}

impl<const N: usize> BitOr for Wide<N> {
    type Output = Self;
    fn bitor(mut self, rhs: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(rhs.0) {
            *a |= b;
        }
        self
    }
}

impl<const N: usize> BitAnd for Wide<N> {
    type Output = Self;
    fn bitand(mut self, rhs: Self) -> Self {
        for (a, b) in self.0.iter_mut().zip(rhs.0) {
            *a &= b;
        }
        self
    }
}

impl<const N: usize> fmt::Display for Wide<N> {
    /// Decimal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const CHUNK: u128 = 10_000_000_000_000_000_000; // 10^19 < 2^64
        let mut limbs = self.0;
        let mut chunks = Vec::new();
        loop {
            let mut rem: u128 = 0;
            let mut i = N;
            while i > 0 {
                i -= 1;
                let cur = (rem << 64) | limbs[i] as u128;
                limbs[i] = (cur / CHUNK) as u64;
                rem = cur % CHUNK;
            }
            chunks.push(rem as u64);
            if limbs.iter().all(|&l| l == 0) {
                break;
            }
        }
        let mut s = String::with_capacity(chunks.len() * 19);
        let mut it = chunks.iter().rev();
        if let Some(first) = it.next() {
            s.push_str(&first.to_string());
        }
        for c in it {
            s.push_str(&format!("{c:019}"));
        }
        f.pad_integral(true, "", &s)
    }
}

impl<const N: usize> fmt::Debug for Wide<N> {
    /// Decimal, like `Display`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

fn hex<const N: usize>(w: &Wide<N>, f: &mut fmt::Formatter<'_>, upper: bool) -> fmt::Result {
    let mut s = String::new();
    let mut started = false;
    for &l in w.0.iter().rev() {
        if started {
            if upper {
                s.push_str(&format!("{l:016X}"));
            } else {
                s.push_str(&format!("{l:016x}"));
            }
        } else if l != 0 {
            started = true;
            if upper {
                s.push_str(&format!("{l:X}"));
            } else {
                s.push_str(&format!("{l:x}"));
            }
        }
    }
    if !started {
        s.push('0');
    }
    f.pad_integral(true, "0x", &s)
}

impl<const N: usize> fmt::LowerHex for Wide<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        hex(self, f, false)
    }
}

impl<const N: usize> fmt::UpperHex for Wide<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        hex(self, f, true)
    }
}

/// `Wide<N>` needs at least one limb to be a weight (`Wide<0>` cannot hold the 4 bits of
/// headroom).
impl<const N: usize> Weight for Wide<N> {
    const ZERO: Self = Wide([0; N]);
    const BITS: u32 = 64 * N as u32;
    #[inline(always)]
    fn from_u64(v: u64) -> Self {
        Wide::from_u64(v)
    }
    #[inline(always)]
    fn checked_add(self, rhs: Self) -> Option<Self> {
        Wide::checked_add(self, rhs)
    }
    #[inline(always)]
    fn checked_sub(self, rhs: Self) -> Option<Self> {
        Wide::checked_sub(self, rhs)
    }
    #[inline(always)]
    fn wrapping_add(self, rhs: Self) -> Self {
        Wide::wrapping_add(self, rhs)
    }
    #[inline(always)]
    fn wrapping_sub(self, rhs: Self) -> Self {
        Wide::wrapping_sub(self, rhs)
    }
    #[inline(always)]
    fn half(self) -> Self {
        Wide::shr(self, 1)
    }
    #[inline(always)]
    fn is_odd(self) -> bool {
        N > 0 && self.0[0] & 1 == 1
    }
    #[inline(always)]
    fn bit_len(self) -> u32 {
        Wide::bit_len(&self)
    }
    #[inline(always)]
    fn is_zero(self) -> bool {
        Wide::is_zero(&self)
    }
}
