//! Per-performance statistics (docs/src/benchmarks.md, "What the screening computes"): observed
//! counts against expectations, z-scores, the combined indicator and the field-size threshold.
//!
//! Written by hand on purpose: these few formulas *are* the method an auditor must be able to
//! read line by line, and results must be bit-identical on every machine and on every replay.
//! So every sum is an exact integer (probabilities in parts per million, scaled differences in
//! 1e-4 units), the only floating-point steps are IEEE-exact ones (one division and one square
//! root per z), and the two transcendental functions (ln(1+x), erfc) come from the pure-Rust
//! `libm` crate rather than the platform's maths library. Published z-scores are integers in
//! hundredths, and thresholds are compared on those.

use crate::filter::Counted;
use serde::{Deserialize, Serialize};

/// F(x) = sign(x)·ln(1 + |x|/100) for x in centipawns, in units of 1e-4.
pub fn scaled_e4(cp: i32) -> i64 {
    let x = f64::from(cp.unsigned_abs()) / 100.0;
    let v = libm::round(libm::log1p(x) * 10_000.0) as i64;
    if cp < 0 { -v } else { v }
}

/// What the baseline expects of one decision (one cell of the baseline).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Expectation {
    pub mm_ppm: u32,
    pub ev_ppm: u32,
    pub t3_ppm: u32,
    pub delta_mean_e4: i64,
    pub delta_var_e8: i64,
}

/// Exact running sums over a performance's counted decisions.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub n: u64,
    pub mm: u64,
    pub ev: u64,
    pub t3: u64,
    pub cpl_sum: i64,
    pub delta_sum_e4: i64,
    pub exp_mm_ppm: u64,
    pub exp_ev_ppm: u64,
    pub exp_t3_ppm: u64,
    pub var_mm_ppm2: u128,
    pub var_ev_ppm2: u128,
    pub var_t3_ppm2: u128,
    pub exp_delta_e4: i64,
    pub var_delta_e8: i64,
}

fn bernoulli_var(p_ppm: u32) -> u128 {
    u128::from(p_ppm) * u128::from(1_000_000 - p_ppm.min(1_000_000))
}

impl Tally {
    pub fn add(&mut self, d: &Counted, e: &Expectation) {
        self.n += 1;
        self.mm += u64::from(d.mm);
        self.ev += u64::from(d.ev);
        self.t3 += u64::from(d.t3);
        self.cpl_sum += i64::from(d.cpl);
        self.delta_sum_e4 += d.delta_e4;
        self.exp_mm_ppm += u64::from(e.mm_ppm);
        self.exp_ev_ppm += u64::from(e.ev_ppm);
        self.exp_t3_ppm += u64::from(e.t3_ppm);
        self.var_mm_ppm2 += bernoulli_var(e.mm_ppm);
        self.var_ev_ppm2 += bernoulli_var(e.ev_ppm);
        self.var_t3_ppm2 += bernoulli_var(e.t3_ppm);
        self.exp_delta_e4 += e.delta_mean_e4;
        self.var_delta_e8 += e.delta_var_e8;
    }

    pub fn merge(&mut self, o: &Tally) {
        self.n += o.n;
        self.mm += o.mm;
        self.ev += o.ev;
        self.t3 += o.t3;
        self.cpl_sum += o.cpl_sum;
        self.delta_sum_e4 += o.delta_sum_e4;
        self.exp_mm_ppm += o.exp_mm_ppm;
        self.exp_ev_ppm += o.exp_ev_ppm;
        self.exp_t3_ppm += o.exp_t3_ppm;
        self.var_mm_ppm2 += o.var_mm_ppm2;
        self.var_ev_ppm2 += o.var_ev_ppm2;
        self.var_t3_ppm2 += o.var_t3_ppm2;
        self.exp_delta_e4 += o.exp_delta_e4;
        self.var_delta_e8 += o.var_delta_e8;
    }
}

/// Variance-inflation factors φ in thousandths (≥ 1000), fitted with the baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Phi {
    pub mm: u32,
    pub ev: u32,
    pub t3: u32,
    pub asd: u32,
}

impl Default for Phi {
    fn default() -> Self {
        Phi {
            mm: 1000,
            ev: 1000,
            t3: 1000,
            asd: 1000,
        }
    }
}

/// The spread of a population's level between events, per decision: a field
/// whose true rates sit τ above the baseline's adds (τ·n)² to the variance of a performance
/// of n decisions, however many decisions it has. φ scales the within-performance variance;
/// τ is what more decisions cannot average away (a national rating scale, an era, a time
/// control). Rates in parts per million, scaled loss in 1e-4 units; zero when not fitted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tau {
    pub mm_ppm: u32,
    pub ev_ppm: u32,
    pub t3_ppm: u32,
    pub asd_e4: u32,
}

impl Tau {
    pub fn is_zero(&self) -> bool {
        *self == Tau::default()
    }
}

/// The screening indicators of one performance, z-scores in hundredths.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Indicators {
    pub z_mm: i32,
    pub z_ev: i32,
    pub z_t3: i32,
    pub z_asd: i32,
    /// The MM, EV and ASD z's combined: Σz / sqrt(ΣR) under the baseline's correlations R
    /// ([`standardized_sum`]); with a quick baseline fitted before it recorded R, their plain
    /// mean, the conservative stand-in (exact only if the three were fully correlated).
    pub z_combined: i32,
    /// Full test, with a baseline that calibrates them (`crate::full::ScoreFit`): the
    /// strength and assistance scores' z.
    #[serde(default)]
    pub z_strength: Option<i32>,
    #[serde(default)]
    pub z_assistance: Option<i32>,
}

/// Rounds to the nearest hundredth, halves away from zero.
fn hundredths(z: f64) -> i32 {
    libm::round(z * 100.0) as i32
}

/// (observed·S − expected) / sqrt(φ·variance + (τ·n)²), where S is the unit of `expected`.
fn z(observed_scaled: i128, expected: i128, variance: f64, phi_milli: u32, tau_n: u128) -> i32 {
    if variance <= 0.0 {
        return 0;
    }
    let between = (tau_n * tau_n) as f64;
    let den = libm::sqrt(variance * f64::from(phi_milli) / 1000.0 + between);
    hundredths((observed_scaled - expected) as f64 / den)
}

/// Σz / sqrt(ΣR) in hundredths: the sum of standard z's divided by its own standard deviation
/// when R (thousandths, every entry summed in `r_sum_milli`) holds their correlations, so the
/// result is a standard z too. Without a positive ΣR, the plain mean.
pub fn standardized_sum(zs: &[i32], r_sum_milli: i64) -> i32 {
    let sum: i32 = zs.iter().sum();
    if r_sum_milli <= 0 || zs.is_empty() {
        return sum / zs.len().max(1) as i32;
    }
    libm::round(f64::from(sum) / libm::sqrt(r_sum_milli as f64 / 1000.0)) as i32
}

/// Integer mean rounded half away from zero.
fn mean3(a: i32, b: i32, c: i32) -> i32 {
    let s = a + b + c;
    if s >= 0 { (s + 1) / 3 } else { -((-s + 1) / 3) }
}

impl Tally {
    /// The z-scores with no between-event term, signed so that more engine-like play is
    /// positive.
    pub fn indicators(&self, phi: &Phi) -> Indicators {
        self.indicators_with(phi, &Tau::default())
    }

    /// The z-scores, signed so that more engine-like play is positive.
    pub fn indicators_with(&self, phi: &Phi, tau: &Tau) -> Indicators {
        let n = u128::from(self.n);
        let ppm = |count: u64| i128::from(count) * 1_000_000;
        let z_mm = z(
            ppm(self.mm),
            i128::from(self.exp_mm_ppm),
            self.var_mm_ppm2 as f64,
            phi.mm,
            n * u128::from(tau.mm_ppm),
        );
        let z_ev = z(
            ppm(self.ev),
            i128::from(self.exp_ev_ppm),
            self.var_ev_ppm2 as f64,
            phi.ev,
            n * u128::from(tau.ev_ppm),
        );
        let z_t3 = z(
            ppm(self.t3),
            i128::from(self.exp_t3_ppm),
            self.var_t3_ppm2 as f64,
            phi.t3,
            n * u128::from(tau.t3_ppm),
        );
        // Smaller scaled loss than expected is more engine-like: expected minus observed.
        let z_asd = z(
            i128::from(self.exp_delta_e4),
            i128::from(self.delta_sum_e4),
            self.var_delta_e8 as f64,
            phi.asd,
            n * u128::from(tau.asd_e4),
        );
        Indicators {
            z_mm,
            z_ev,
            z_t3,
            z_asd,
            z_combined: mean3(z_mm, z_ev, z_asd),
            z_strength: None,
            z_assistance: None,
        }
    }

    /// A rate in parts per million of the counted decisions.
    pub fn rate_ppm(&self, count: u64) -> u32 {
        if self.n == 0 {
            0
        } else {
            ((u128::from(count) * 1_000_000 + u128::from(self.n) / 2) / u128::from(self.n)) as u32
        }
    }

    /// Average scaled loss (ASD) in 1e-4 units, rounded.
    pub fn asd_e4(&self) -> i64 {
        if self.n == 0 {
            0
        } else {
            div_round(self.delta_sum_e4, self.n as i64)
        }
    }

    /// Average centipawn loss in tenths of a centipawn.
    pub fn acpl_tenths(&self) -> i64 {
        if self.n == 0 {
            0
        } else {
            div_round(self.cpl_sum * 10, self.n as i64)
        }
    }
}

fn div_round(a: i64, b: i64) -> i64 {
    if a >= 0 {
        (a + b / 2) / b
    } else {
        -((-a + b / 2) / b)
    }
}

/// Upper tail of the standard normal: P(Z > x).
pub fn normal_tail(x: f64) -> f64 {
    0.5 * libm::erfc(x / std::f64::consts::SQRT_2)
}

/// Φ⁻¹(1 − p) by bisection on the tail (monotone, exact to the last bit that matters here).
pub fn normal_quantile_upper(p: f64) -> f64 {
    let (mut lo, mut hi) = (-10.0f64, 40.0f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if normal_tail(mid) > p {
            lo = mid
        } else {
            hi = mid
        }
    }
    0.5 * (lo + hi)
}

/// Field-size rule (Regan's notes on statistical evidence, IV): the intrusive threshold for an
/// event of `players` players keeps the odds against a chance hit at least 5 × players, and never
/// below `floor` (hundredths). Result in hundredths.
pub fn field_size_threshold(players: u32, odds_per_player: u32, floor: i32) -> i32 {
    let odds = f64::from(players.max(1)) * f64::from(odds_per_player.max(1));
    hundredths(normal_quantile_upper(1.0 / odds)).max(floor)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Even odds of a match, 80 % top-3, a scaled loss of 0.05 (sd 0.05): the expectation the
    /// statistics tests draw decisions against.
    pub(crate) fn even() -> Expectation {
        Expectation {
            mm_ppm: 500_000,
            ev_ppm: 500_000,
            t3_ppm: 800_000,
            delta_mean_e4: 500,
            delta_var_e8: 250_000,
        }
    }

    #[test]
    fn scaled_values_follow_the_log_law() {
        assert_eq!(scaled_e4(0), 0);
        assert_eq!(scaled_e4(100), 6931); // ln 2
        assert_eq!(scaled_e4(-100), -6931);
        // A 50 cp slip weighs less at +5 than at equality.
        assert!(scaled_e4(550) - scaled_e4(500) < scaled_e4(50) - scaled_e4(0));
    }

    #[test]
    fn field_size_rule_reproduces_the_seed_figures() {
        assert_eq!(field_size_threshold(100, 5, 300), 300);
        assert_eq!(field_size_threshold(150, 5, 300), 300);
        assert_eq!(field_size_threshold(400, 5, 300), 329);
        assert_eq!(field_size_threshold(1000, 5, 300), 354);
        assert_eq!(field_size_threshold(5000, 5, 300), 394);
    }

    #[test]
    fn z_of_exactly_expected_play_is_zero_and_more_matches_are_positive() {
        let e = even();
        let mut t = Tally::default();
        for i in 0..100 {
            let hit = i % 2 == 0;
            t.add(
                &Counted {
                    mm: hit,
                    ev: hit,
                    t3: true,
                    cpl: 0,
                    delta_e4: if hit { 0 } else { 1000 },
                    gap_cp: 5,
                },
                &e,
            );
        }
        let z = t.indicators(&Phi::default());
        assert_eq!((z.z_mm, z.z_ev, z.z_asd), (0, 0, 0));
        assert_eq!(z.z_t3, 500); // 100 of 100 against 80 % expected: 20/sqrt(16) = 5
        assert_eq!(mean3(2, 2, 3), 2);
        assert_eq!(mean3(-2, -2, -3), -2);
        assert_eq!(mean3(1, 1, 2), 1);
    }

    #[test]
    fn the_combined_indicator_is_a_standard_z_under_its_correlations() {
        // Fully correlated, the sum's deviation is three times each part's: the mean.
        assert_eq!(standardized_sum(&[200, 200, 200], 9000), 200);
        // Independent, it is sqrt(3) times: 6 / sqrt(3) = 3.46.
        assert_eq!(standardized_sum(&[200, 200, 200], 3000), 346);
        // The quick baselines' typical R (MM-EV 0.9, each with ASD 0.5): 6 / sqrt(6.8).
        assert_eq!(standardized_sum(&[200, 200, 200], 6800), 230);
        // No correlations recorded: the plain mean.
        assert_eq!(standardized_sum(&[200, 200, 203], 0), 201);
    }
}
