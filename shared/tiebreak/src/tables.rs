//! FIDE rating tables used by the rating-based tie-breaks (C.07 Art. 10).
//!
//! Data of FIDE Rating Regulations B.02, table 8.1.1 (fractional score p -> rating difference dp)
//! and table 8.1.2 (rating difference D -> expected score PD of the higher-rated player), as
//! printed in seed 001, CAPITULO VI (the same data as arbiter-rating's
//! `data/fide-rating-tables.json`).

/// `DP_BY_PERCENT[k]` is dp for a fractional score of `k / 100` (k = 0..=100).
pub(crate) const DP_BY_PERCENT: [i32; 101] = [
    -800, -677, -589, -538, -501, -470, -444, -422, -401, -383, -366, -351, -336, -322, -309, -296,
    -284, -273, -262, -251, -240, -230, -220, -211, -202, -193, -184, -175, -166, -158, -149, -141,
    -133, -125, -117, -110, -102, -95, -87, -80, -72, -65, -57, -50, -43, -36, -29, -21, -14, -7,
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158,
    166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366,
    383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
];

/// Bands of table 8.1.2: `(highest difference of the band, PD of the higher-rated player in
/// hundredths)`. A difference above the last band (735) gives PD = 1.00.
pub(crate) const PD_BANDS: [(u32, u32); 50] = [
    (3, 50),
    (10, 51),
    (17, 52),
    (25, 53),
    (32, 54),
    (39, 55),
    (46, 56),
    (53, 57),
    (61, 58),
    (68, 59),
    (76, 60),
    (83, 61),
    (91, 62),
    (98, 63),
    (106, 64),
    (113, 65),
    (121, 66),
    (129, 67),
    (137, 68),
    (145, 69),
    (153, 70),
    (162, 71),
    (170, 72),
    (179, 73),
    (188, 74),
    (197, 75),
    (206, 76),
    (215, 77),
    (225, 78),
    (235, 79),
    (245, 80),
    (256, 81),
    (267, 82),
    (278, 83),
    (290, 84),
    (302, 85),
    (315, 86),
    (328, 87),
    (344, 88),
    (357, 89),
    (374, 90),
    (391, 91),
    (411, 92),
    (432, 93),
    (456, 94),
    (484, 95),
    (517, 96),
    (559, 97),
    (619, 98),
    (735, 99),
];
/// Rating difference for a fractional score given in whole percent (0..=100).
pub(crate) fn dp_for_percent(percent: i64) -> i32 {
    DP_BY_PERCENT[percent.clamp(0, 100) as usize]
}

/// Expected score, in hundredths, of a player rated `own` against an opponent rated `opp`
/// (table 8.1.2, no 400-point cap: the caller decides about caps).
pub(crate) fn expected_hundredths(own: i64, opp: i64) -> i64 {
    let diff = (own - opp).unsigned_abs();
    let high = PD_BANDS
        .iter()
        .find(|(upper, _)| diff <= *upper as u64)
        .map(|(_, pd)| *pd as i64)
        .unwrap_or(100);
    if own >= opp { high } else { 100 - high }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dp_is_antisymmetric_and_monotonic() {
        for k in 0..=100i64 {
            assert_eq!(dp_for_percent(k), -dp_for_percent(100 - k));
            if k > 0 {
                assert!(dp_for_percent(k) > dp_for_percent(k - 1));
            }
        }
        assert_eq!(dp_for_percent(73), 175);
    }

    #[test]
    fn pd_bands_are_contiguous_and_mirror() {
        let mut prev = None;
        for (upper, pd) in PD_BANDS {
            if let Some((pu, ppd)) = prev {
                assert!(upper > pu);
                assert_eq!(pd, ppd + 1);
            }
            prev = Some((upper, pd));
        }
        assert_eq!(expected_hundredths(2000, 2000), 50);
        assert_eq!(expected_hundredths(2004, 2000), 51);
        assert_eq!(expected_hundredths(2000, 2004), 49);
        assert_eq!(expected_hundredths(2736, 2000), 100);
        assert_eq!(expected_hundredths(2735, 2000), 99);
        assert_eq!(expected_hundredths(2000, 2736), 0);
    }
}
