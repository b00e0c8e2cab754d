//! `Wide<N>` against `u128` (for `N = 2`) and on values wider than 128 bits.

use arbiter_matching::{Weight, Wide};
use proptest::prelude::*;

type W2 = Wide<2>;

fn w(v: u128) -> W2 {
    W2::from_u128(v)
}

/// Values biased towards limb boundaries, where carries and borrows happen.
fn value() -> impl Strategy<Value = u128> {
    prop_oneof![
        any::<u128>(),
        any::<u64>().prop_map(u128::from),
        (0u32..128, any::<bool>()).prop_map(|(b, dec)| {
            let p = 1u128 << b;
            if dec { p.wrapping_sub(1) } else { p }
        }),
        Just(0u128),
        Just(u128::MAX),
        Just(u64::MAX as u128),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn add_sub_match_u128(a in value(), b in value()) {
        prop_assert_eq!(w(a).checked_add(w(b)).map(|x| x.to_u128().unwrap()), a.checked_add(b));
        prop_assert_eq!(w(a).checked_sub(w(b)).map(|x| x.to_u128().unwrap()), a.checked_sub(b));
        prop_assert_eq!(w(a).wrapping_add(w(b)).to_u128(), Some(a.wrapping_add(b)));
        prop_assert_eq!(w(a).wrapping_sub(w(b)).to_u128(), Some(a.wrapping_sub(b)));
        let (s, o) = w(a).overflowing_add(w(b));
        prop_assert_eq!((s.to_u128().unwrap(), o), a.overflowing_add(b));
        let (d, o) = w(a).overflowing_sub(w(b));
        prop_assert_eq!((d.to_u128().unwrap(), o), a.overflowing_sub(b));
        // The trait forwards to the same operations.
        prop_assert_eq!(Weight::checked_add(w(a), w(b)).map(|x| x.to_u128().unwrap()), a.checked_add(b));
        prop_assert_eq!(Weight::checked_sub(w(a), w(b)).map(|x| x.to_u128().unwrap()), a.checked_sub(b));
    }

    #[test]
    fn shifts_match_u128(a in value(), bits in 0u32..140) {
        let expect_l = if bits >= 128 { 0 } else { a << bits };
        let expect_r = if bits >= 128 { 0 } else { a >> bits };
        prop_assert_eq!((w(a) << bits).to_u128(), Some(expect_l));
        prop_assert_eq!((w(a) >> bits).to_u128(), Some(expect_r));
        prop_assert_eq!(Weight::half(w(a)).to_u128(), Some(a >> 1));
    }

    #[test]
    fn compare_and_bits_match_u128(a in value(), b in value(), low in any::<u64>()) {
        prop_assert_eq!(w(a).cmp(&w(b)), a.cmp(&b));
        prop_assert_eq!(w(a) == w(b), a == b);
        prop_assert_eq!(w(a).bit_len(), 128 - a.leading_zeros());
        prop_assert_eq!(Weight::is_odd(w(a)), a & 1 == 1);
        prop_assert_eq!(w(a).is_zero(), a == 0);
        prop_assert_eq!((w(a) | low).to_u128(), Some(a | low as u128));
        prop_assert_eq!((w(a) | w(b)).to_u128(), Some(a | b));
        prop_assert_eq!((w(a) & w(b)).to_u128(), Some(a & b));
        for i in [0u32, 1, 63, 64, 65, 127, 128, 300] {
            prop_assert_eq!(w(a).bit(i), i < 128 && (a >> i) & 1 == 1);
        }
    }

    #[test]
    fn formatting_matches_u128(a in value()) {
        prop_assert_eq!(w(a).to_string(), a.to_string());
        prop_assert_eq!(format!("{:?}", w(a)), a.to_string());
        prop_assert_eq!(format!("{:x}", w(a)), format!("{a:x}"));
        prop_assert_eq!(format!("{:X}", w(a)), format!("{a:X}"));
        prop_assert_eq!(format!("{:#x}", w(a)), format!("{a:#x}"));
        prop_assert_eq!(format!("{:>45}", w(a)), format!("{a:>45}"));
        prop_assert_eq!(format!("{:040x}", w(a)), format!("{a:040x}"));
    }

    /// Wider values: shifting a field up and back down is lossless, and addition of disjoint
    /// bit fields equals their bitwise or.
    #[test]
    fn wide_fields_roundtrip(x in any::<u64>(), y in any::<u64>(), s1 in 0u32..190, s2 in 0u32..190) {
        let a = Wide::<4>::from_u64(x) << s1;
        prop_assert_eq!(a >> s1, Wide::from_u64(x));
        prop_assert_eq!(a.bit_len(), if x == 0 { 0 } else { s1 + 64 - x.leading_zeros() });
        if s2 >= s1 + 64 || s1 >= s2 + 64 {
            let b = Wide::<4>::from_u64(y) << s2;
            prop_assert_eq!(a + b, a | b);
            prop_assert_eq!((a + b) - b, a);
        }
    }
}

#[test]
fn carries_cross_all_limbs() {
    let max = Wide::<4>::MAX;
    assert_eq!(max.checked_add(Wide::ONE), None);
    assert_eq!(max.wrapping_add(Wide::ONE), Wide::ZERO);
    assert_eq!(Wide::<4>::ZERO.wrapping_sub(Wide::ONE), max);
    let big = Wide::<8>::ONE << 511;
    assert_eq!(big.bit_len(), 512);
    assert_eq!((big - Wide::ONE).bit_len(), 511);
    assert_eq!((big - Wide::ONE) + Wide::ONE, big);
    assert!(big > big - Wide::ONE);
    assert_eq!(big >> 511, Wide::ONE);
    assert_eq!(big << 1, Wide::ZERO);
    assert_eq!(Wide::<4>::from_u64(5) << 256, Wide::ZERO);
}

#[test]
fn formatting_of_wide_values() {
    let two_256 = Wide::<5>::ONE << 256;
    assert_eq!(
        two_256.to_string(),
        "115792089237316195423570985008687907853269984665640564039457584007913129639936"
    );
    assert_eq!(format!("{two_256:x}"), format!("1{}", "0".repeat(64)));
    assert_eq!(format!("{:#X}", Wide::<3>::from_u64(0xabc)), "0xABC");
    assert_eq!(Wide::<4>::ZERO.to_string(), "0");
    assert_eq!(format!("{:x}", Wide::<4>::ZERO), "0");
    assert_eq!(
        Wide::<1>::from_u64(u64::MAX).to_string(),
        u64::MAX.to_string()
    );
}

#[test]
#[should_panic(expected = "overflowed")]
fn operator_add_panics_on_overflow() {
    let _ = Wide::<2>::MAX + Wide::ONE;
}

#[test]
#[should_panic(expected = "underflowed")]
fn operator_sub_panics_on_underflow() {
    let _ = Wide::<2>::ZERO - Wide::ONE;
}
