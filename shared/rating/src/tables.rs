//! The conversion tables of B.02 8.1.1 (`p -> dp`) and 8.1.2 (`D -> PD`).
//!
//! Source: the FIDE Handbook, B.02 standard 8.1.1/8.1.2 (identical in
//! the rapid/blitz regulations 7.1.1/7.1.2 and in B.01 1.4.9 "Tabla 8.1.a"); transcribed in
//! `data/fide-rating-tables.json` in this crate.
//! The constants below are that file in integer form; a unit test checks them against it.

use crate::num::{Hundredths, round_half_up};

/// `DP_BY_P[i]` = rating difference `dp` for a fractional score of `i / 100` (B.02 8.1.1).
/// `p = 0` and `p = 1` carry the theoretical -800 / +800.
const DP_BY_P: [i32; 101] = [
    -800, -677, -589, -538, -501, -470, -444, -422, -401, -383, -366, -351, -336, -322, -309, -296,
    -284, -273, -262, -251, -240, -230, -220, -211, -202, -193, -184, -175, -166, -158, -149, -141,
    -133, -125, -117, -110, -102, -95, -87, -80, -72, -65, -57, -50, -43, -36, -29, -21, -14, -7,
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141, 149, 158,
    166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309, 322, 336, 351, 366,
    383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
];

/// `(low, high, H)`: absolute difference band (inclusive) and the expected score of the
/// higher-rated player in hundredths (B.02 8.1.2). The lower-rated player's is `100 - H`.
const PD_BANDS: [(u32, u32, i32); 51] = [
    (0, 3, 50),
    (4, 10, 51),
    (11, 17, 52),
    (18, 25, 53),
    (26, 32, 54),
    (33, 39, 55),
    (40, 46, 56),
    (47, 53, 57),
    (54, 61, 58),
    (62, 68, 59),
    (69, 76, 60),
    (77, 83, 61),
    (84, 91, 62),
    (92, 98, 63),
    (99, 106, 64),
    (107, 113, 65),
    (114, 121, 66),
    (122, 129, 67),
    (130, 137, 68),
    (138, 145, 69),
    (146, 153, 70),
    (154, 162, 71),
    (163, 170, 72),
    (171, 179, 73),
    (180, 188, 74),
    (189, 197, 75),
    (198, 206, 76),
    (207, 215, 77),
    (216, 225, 78),
    (226, 235, 79),
    (236, 245, 80),
    (246, 256, 81),
    (257, 267, 82),
    (268, 278, 83),
    (279, 290, 84),
    (291, 302, 85),
    (303, 315, 86),
    (316, 328, 87),
    (329, 344, 88),
    (345, 357, 89),
    (358, 374, 90),
    (375, 391, 91),
    (392, 411, 92),
    (412, 432, 93),
    (433, 456, 94),
    (457, 484, 95),
    (485, 517, 96),
    (518, 559, 97),
    (560, 619, 98),
    (620, 735, 99),
    (736, u32::MAX, 100),
];

/// The rating difference `dp` for a fractional score `p` given in hundredths (0..=100).
///
/// Round `p` first with [`p_hundredths`] (B.01 1.4.9: nearest hundredth, 0.005 up).
///
/// # Panics
/// If `p > 100` or `p < 0`.
pub fn dp(p: Hundredths) -> i32 {
    let i = usize::try_from(p.0)
        .ok()
        .filter(|&i| i <= 100)
        .expect("dp: p outside 0.00..=1.00");
    DP_BY_P[i]
}

/// The fractional score `points / games` as hundredths, rounded to the nearest hundredth with
/// 0.005 up (B.01 1.4.9). `points` is in tenths of a point (core `Score`).
///
/// # Panics
/// If `games == 0` or the score lies outside `0..=games`.
pub fn p_hundredths(points_tenths: i32, games: u32) -> Hundredths {
    assert!(games > 0, "p_hundredths: no games");
    // p * 100 = tenths * 10 / games
    let p = round_half_up(i64::from(points_tenths) * 10, i64::from(games));
    assert!(
        (0..=100).contains(&p),
        "p_hundredths: score outside 0..=games"
    );
    Hundredths(p as i32)
}

/// The expected score `(H, L)` of the higher- and lower-rated player for an absolute rating
/// difference `d` (B.02 8.1.2). The 400-point rule is the caller's business (applied to `d`
/// before the lookup, B.02 8.3.1).
pub fn pd_for_difference(d: u32) -> (Hundredths, Hundredths) {
    let i = PD_BANDS.partition_point(|&(_, high, _)| high < d);
    let h = PD_BANDS[i].2;
    (Hundredths(h), Hundredths(100 - h))
}

/// The expected score `PD` of a player whose rating exceeds the opponent's by `diff` (negative
/// when the player is lower rated): `H` if `diff >= 0`, else `L` (equal ratings: 0.50).
pub fn expected_score(diff: i32) -> Hundredths {
    let (h, l) = pd_for_difference(diff.unsigned_abs());
    if diff >= 0 { h } else { l }
}

/// The table rows, for display: `(p in hundredths, dp)` from 1.00 down to 0.00.
pub fn dp_rows() -> impl Iterator<Item = (Hundredths, i32)> {
    (0..=100)
        .rev()
        .map(|i| (Hundredths(i), DP_BY_P[i as usize]))
}

/// The table rows, for display: `(low, high (None = open), H, L)`.
pub fn pd_rows() -> impl Iterator<Item = (u32, Option<u32>, Hundredths, Hundredths)> {
    PD_BANDS.iter().map(|&(lo, hi, h)| {
        (
            lo,
            (hi != u32::MAX).then_some(hi),
            Hundredths(h),
            Hundredths(100 - h),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The constants are exactly the JSON data (the transcribed tables).
    #[test]
    fn constants_match_the_json_tables() {
        let json: serde_json::Value =
            serde_json::from_str(include_str!("../data/fide-rating-tables.json")).unwrap();
        let to_h = |v: &serde_json::Value| -> i32 {
            // Two-decimal JSON numbers: parse the text form, never via a float comparison.
            let s = v.to_string();
            let (i, f) = s.split_once('.').unwrap_or((&s, "0"));
            let f = format!("{f:0<2}");
            i.parse::<i32>().unwrap() * 100 + f[..2].parse::<i32>().unwrap()
        };
        let rows = json["dp_by_p"].as_array().unwrap();
        assert_eq!(rows.len(), 101);
        for r in rows {
            let p = to_h(&r[0]);
            assert_eq!(dp(Hundredths(p)), r[1].as_i64().unwrap() as i32, "p = {p}");
        }
        let bands = json["pd_by_diff"].as_array().unwrap();
        assert_eq!(bands.len(), PD_BANDS.len());
        for (b, &(lo, hi, h)) in bands.iter().zip(PD_BANDS.iter()) {
            assert_eq!(b[0].as_u64().unwrap() as u32, lo);
            match b[1].as_u64() {
                Some(x) => assert_eq!(x as u32, hi),
                None => assert_eq!(hi, u32::MAX),
            }
            assert_eq!(to_h(&b[2]), h);
            assert_eq!(to_h(&b[3]), 100 - h);
        }
    }

    #[test]
    fn table_properties() {
        for i in 0..=100 {
            assert_eq!(DP_BY_P[i], -DP_BY_P[100 - i]);
            if i > 0 {
                assert!(DP_BY_P[i] > DP_BY_P[i - 1]);
            }
        }
        for w in PD_BANDS.windows(2) {
            assert_eq!(w[0].1 + 1, w[1].0);
            assert_eq!(w[0].2 + 1, w[1].2);
        }
        // dp(p) lies in the band whose H is p (0.50 ..= 0.99).
        for p in 50..100 {
            let (h, _) = pd_for_difference(DP_BY_P[p as usize] as u32);
            assert_eq!(h, Hundredths(p));
        }
    }

    #[test]
    fn lookups() {
        assert_eq!(pd_for_difference(0), (Hundredths(50), Hundredths(50)));
        assert_eq!(pd_for_difference(3), (Hundredths(50), Hundredths(50)));
        assert_eq!(pd_for_difference(4), (Hundredths(51), Hundredths(49)));
        assert_eq!(pd_for_difference(400), (Hundredths(92), Hundredths(8)));
        assert_eq!(pd_for_difference(440), (Hundredths(94), Hundredths(6)));
        assert_eq!(pd_for_difference(735), (Hundredths(99), Hundredths(1)));
        assert_eq!(pd_for_difference(736), (Hundredths(100), Hundredths(0)));
        assert_eq!(pd_for_difference(5000), (Hundredths(100), Hundredths(0)));
        assert_eq!(expected_score(286), Hundredths(84));
        assert_eq!(expected_score(-106), Hundredths(36));
        assert_eq!(p_hundredths(90, 13), Hundredths(69));
        assert_eq!(p_hundredths(45, 7), Hundredths(64));
        assert_eq!(p_hundredths(5, 200), Hundredths(0)); // 0.0025 -> 0.00
        assert_eq!(p_hundredths(10, 200), Hundredths(1)); // 0.005 -> 0.01
        assert_eq!(dp(Hundredths(69)), 141);
    }
}
