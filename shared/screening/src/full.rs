//! The full test (docs/src/benchmarks.md), structured after Regan and Haworth's move-probability
//! model: wide analyses (up to 20 ranked candidates per position), a two-parameter law that turns
//! each candidate's scaled deficit δ into the probability that a player of a given rating chooses
//! it, expectations and z-scores per decision from that law, a combined indicator weighted by the
//! indicators' correlation on clean reference play, and an intrinsic performance rating (IPR) with
//! a bootstrap interval.
//!
//! Written by hand on purpose, like [`crate::stats`]: the law, the fit and the interval are the
//! method an auditor must be able to read, and every number must be bit-identical on every
//! machine. So the parameters are integers (millionths), fits are exhaustive searches over a
//! fixed grid in a fixed order (no optimiser whose path depends on rounding), the transcendental
//! functions come from the pure-Rust `libm`, the bootstrap draws from a fixed-seed generator,
//! and the expectations handed to [`Tally`] are integers, as in the quick test.

use crate::filter::{Counted, Decision, FilterConfig};
use crate::stats::{Expectation, Indicators, Phi, Tally};
use crate::uci::EngineProfile;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The shipped full-test baseline's text (made by `arbiter screening-calibrate --full
/// --players sampled`; its games are saved beside it).
pub const SHIPPED: &str =
    include_str!("../baselines/sf15.1-n100k-mpv20/sampled-full-2026.12.1.json");
/// The one before (UCI_Elo players, no scores), kept so that results naming it re-derive.
const PREVIOUS: &str = include_str!("../baselines/sf15.1-n100k-mpv20/selfplay-full-2026.11.2.json");
/// Fitted on rated human games (`screening-calibrate --full --human`), with its
/// leave-events-out reports; chosen by version (`arbiter screen --full --baseline`), not yet
/// the default.
pub const HUMAN: &str = include_str!("../baselines/sf15.1-n100k-mpv20/human-full-2026.12.1.json");
/// The same, fitted on FIDE-rated games with their ratings on the FIDE scale since 1 March
/// 2024 (`--current-fide-scale`), beside the quick baseline fitted that way; chosen by version.
pub const HUMAN_CURRENT_SCALE: &str =
    include_str!("../baselines/sf15.1-n100k-mpv20/human-full-2026.12.2.json");
/// The same games and folds with the law's third parameter `k` (format 2), which takes the
/// second and third candidates' excess out of the two-parameter law; chosen by version.
pub const HUMAN_WITH_K: &str =
    include_str!("../baselines/sf15.1-n100k-mpv20/human-full-2026.12.3.json");

/// What a wide analysis says about one counted decision, beyond the quick test's quantities.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wide {
    /// Scaled deficits (1e-4 units, ≥ 0) of the ranked candidates, smallest first.
    pub deltas_e4: Vec<i64>,
    /// Legal moves the analysis did not rank; each is given the largest ranked deficit (the
    /// tail mass).
    pub unranked: u32,
    /// The played move's place among the ranked candidates (0 = best), if ranked.
    pub played: Option<u16>,
    /// The played move's scaled deficit (1e-4 units).
    pub played_delta_e4: i64,
}

/// The move-probability law: a move at scaled deficit δ has weight exp(−(δ/s)^c), normalised
/// over the position's legal moves. `s` (sensitivity) and `c` (consistency) in millionths;
/// smaller s means the player sees small differences, i.e. plays stronger.
///
/// `k` (millionths, [`K_ONE`] = 1) is how much of their deficit the second and third ranked
/// candidates weigh: their weight is exp(−(k·δ/s)^c). People choose the engine's next two
/// moves far more often than their deficit says (on the human calibration games, at a deficit
/// of 0.2-0.4 a second-ranked move was played twice as often as a two-parameter law expects,
/// later moves less often; docs/src/benchmarks.md): they are the moves a player weighs
/// against the best. Laws fitted before k have k = 1, and judge as they did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Law {
    pub s_e6: u32,
    pub c_e6: u32,
    #[serde(default = "k_one", skip_serializing_if = "is_k_one")]
    pub k_e6: u32,
}

/// k = 1: every candidate weighs its whole deficit (the two-parameter law).
pub const K_ONE: u32 = 1_000_000;

fn k_one() -> u32 {
    K_ONE
}

fn is_k_one(k: &u32) -> bool {
    *k == K_ONE
}

/// The ranked places whose deficit `k` scales: the second and third candidates.
const K_PLACES: std::ops::RangeInclusive<usize> = 1..=2;

/// The place given to a move outside the ranked candidates (the tail, or an unranked played
/// move): never one `k` scales.
const UNRANKED: usize = usize::MAX;

/// The full-test artefact format: 1, the two-parameter law, its observed match counts taken
/// from the quick filter's view of the move; 2, laws with `k`, and every observation (MM, EV,
/// T3, deficit) taken from the same ranked candidates the law's expectations come from.
pub const FORMAT: u32 = 2;

/// Probabilities are kept inside [0.1 %, 99.9 %] so that no decision has zero variance.
const P_MIN_PPM: u32 = 1_000;
const P_MAX_PPM: u32 = 999_000;

impl Law {
    /// (δ/s), with δ scaled by k at the places k applies to.
    fn ratio(&self, place: usize, delta_e4: i64) -> f64 {
        let x = (delta_e4 as f64 / 1e4) / (f64::from(self.s_e6) / 1e6);
        if self.k_e6 != K_ONE && K_PLACES.contains(&place) {
            x * (f64::from(self.k_e6) / 1e6)
        } else {
            x
        }
    }

    fn weight(&self, place: usize, delta_e4: i64) -> f64 {
        if delta_e4 <= 0 {
            return 1.0;
        }
        libm::exp(-libm::pow(
            self.ratio(place, delta_e4),
            f64::from(self.c_e6) / 1e6,
        ))
    }

    /// The weights of the ranked candidates, and the total over every legal move.
    fn weights(&self, w: &Wide) -> (Vec<f64>, f64) {
        let ws: Vec<f64> = w
            .deltas_e4
            .iter()
            .enumerate()
            .map(|(i, &d)| self.weight(i, d))
            .collect();
        let tail = match w.deltas_e4.last() {
            Some(&d) => self.weight(UNRANKED, d),
            None => 1.0,
        } * f64::from(w.unranked);
        let total = ws.iter().sum::<f64>() + tail;
        (ws, total)
    }

    /// ln P(the played move).
    pub fn log_likelihood(&self, w: &Wide) -> f64 {
        let (ws, total) = self.weights(w);
        let played = match w.played {
            Some(i) => ws.get(usize::from(i)).copied().unwrap_or(0.0),
            None => self.weight(UNRANKED, w.played_delta_e4),
        };
        // A move the law gives (numerically) no chance still costs a finite, large penalty.
        libm::log(played.max(1e-300) / total)
    }

    /// What a player following this law is expected to do at this decision (E[MM] = p₁, E[EV] = the
    /// mass on moves as good as the best, E[T3] the mass on the top three, and the mean and
    /// variance of δ).
    pub fn expectation(&self, w: &Wide) -> Expectation {
        let (ws, total) = self.weights(w);
        let p: Vec<f64> = ws.iter().map(|x| x / total).collect();
        let last_delta = w.deltas_e4.last().copied().unwrap_or(0);
        let p_tail = match w.deltas_e4.last() {
            Some(&d) => self.weight(UNRANKED, d) / total * f64::from(w.unranked),
            None => 0.0,
        };
        let ppm = |x: f64| (libm::round(x * 1e6) as u32).clamp(P_MIN_PPM, P_MAX_PPM);
        let ev: f64 = p
            .iter()
            .zip(&w.deltas_e4)
            .filter(|(_, d)| **d == 0)
            .map(|(p, _)| p)
            .sum();
        let mut mean = 0f64;
        let mut square = 0f64;
        for (pi, &d) in p.iter().zip(&w.deltas_e4) {
            let d = d as f64;
            mean += pi * d;
            square += pi * d * d;
        }
        let d = last_delta as f64;
        mean += p_tail * d;
        square += p_tail * d * d;
        let var = (square - mean * mean).max(1.0);
        Expectation {
            mm_ppm: ppm(p.first().copied().unwrap_or(0.0)),
            ev_ppm: ppm(ev),
            t3_ppm: ppm(p.iter().take(3).sum()),
            delta_mean_e4: libm::round(mean) as i64,
            delta_var_e8: libm::round(var) as i64,
        }
    }

    /// A deficit's deviance under this law at a ranked place, u = (δ/s)^c (k·δ where k
    /// applies): minus the log of its weight.
    fn deviance(&self, place: usize, delta_e4: i64) -> f64 {
        if delta_e4 <= 0 {
            return 0.0;
        }
        libm::pow(self.ratio(place, delta_e4), f64::from(self.c_e6) / 1e6)
    }

    /// One decision's term of the strength score: minus the played move's deviance, and that
    /// quantity's mean and variance over the moves a player following this law would choose
    /// (an unranked move counts as the tail it is given in the law). d/d(ln s) of ln P(move)
    /// is c·(u − E[u]), so Σ (E[u] − u) is the score of the law's one strength parameter: the
    /// locally most powerful test that a player sees smaller differences than the law of his
    /// rating says. It weighs each decision by what the law expects to be lost there: nothing
    /// where every player finds the move, most where the best move stands out and weaker
    /// players miss it.
    pub fn strength_term(&self, w: &Wide) -> ScoreTerm {
        let (ws, total) = self.weights(w);
        let last = w.deltas_e4.last().copied().unwrap_or(0);
        let tail_p = match w.deltas_e4.last() {
            Some(&d) => self.weight(UNRANKED, d) * f64::from(w.unranked) / total,
            None => 0.0,
        };
        let tail_u = self.deviance(UNRANKED, last);
        let mut mean = tail_p * tail_u;
        let mut square = tail_p * tail_u * tail_u;
        for (i, (x, &d)) in ws.iter().zip(&w.deltas_e4).enumerate() {
            let (p, u) = (x / total, self.deviance(i, d));
            mean += p * u;
            square += p * u * u;
        }
        let played = match w.played {
            Some(i) => match w.deltas_e4.get(usize::from(i)) {
                Some(&d) => self.deviance(usize::from(i), d),
                None => self.deviance(UNRANKED, last),
            },
            None => self.deviance(UNRANKED, last),
        };
        ScoreTerm::of(-played, -mean, square - mean * mean)
    }

    /// One decision's term of the assistance score: the log-likelihood ratio of "a move of the
    /// best value, played on [`ASSISTED_PER_MILLE`] of the moves, the law's choice on the
    /// rest" against the law alone, with its mean and variance under the law. This is the
    /// Neyman-Pearson test against partial assistance; a decision weighs by how unlikely the
    /// best move was for the player (ln(1 − ε + ε/p) when found, ln(1 − ε) when missed), which
    /// the logarithm keeps bounded where p is small.
    pub fn assistance_term(&self, w: &Wide) -> ScoreTerm {
        let (ws, total) = self.weights(w);
        let best: f64 = ws
            .iter()
            .zip(&w.deltas_e4)
            .filter(|(_, d)| **d == 0)
            .map(|(x, _)| x / total)
            .sum();
        let p = best.clamp(f64::from(P_MIN_PPM) / 1e6, f64::from(P_MAX_PPM) / 1e6);
        let eps = f64::from(ASSISTED_PER_MILLE) / 1000.0;
        let hit = libm::log(1.0 - eps + eps / p);
        let miss = libm::log(1.0 - eps);
        let found = w.played.is_some() && w.played_delta_e4 == 0;
        ScoreTerm::of(
            if found { hit } else { miss },
            p * hit + (1.0 - p) * miss,
            p * (1.0 - p) * (hit - miss) * (hit - miss),
        )
    }

    /// The law between two others, `t` of the way from `a` to `b` (t in millionths).
    fn between(a: Law, b: Law, t_e6: i64) -> Law {
        let mix = |x: u32, y: u32| {
            let v = i64::from(x) + (i64::from(y) - i64::from(x)) * t_e6 / 1_000_000;
            u32::try_from(v.max(1)).unwrap_or(u32::MAX)
        };
        Law {
            s_e6: mix(a.s_e6, b.s_e6),
            c_e6: mix(a.c_e6, b.c_e6),
            k_e6: mix(a.k_e6, b.k_e6),
        }
    }
}

/// The alternative of the assistance score: the best move played on this share of the moves.
pub const ASSISTED_PER_MILLE: u32 = 300;

/// One decision's part of a score ([`Law::strength_term`], [`Law::assistance_term`]): the
/// observed value, its mean and variance under the law, in 1e-4 units (variance 1e-8), higher
/// values more engine-like.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreTerm {
    pub value_e4: i64,
    pub mean_e4: i64,
    pub var_e8: i64,
}

impl ScoreTerm {
    fn of(value: f64, mean: f64, var: f64) -> ScoreTerm {
        ScoreTerm {
            value_e4: libm::round(value * 1e4) as i64,
            mean_e4: libm::round(mean * 1e4) as i64,
            var_e8: libm::round(var.max(0.0) * 1e8) as i64,
        }
    }
}

/// Exact sums of a performance's score terms.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    pub n: u64,
    pub value_e4: i128,
    pub mean_e4: i128,
    pub var_e8: i128,
}

impl Score {
    pub fn add(&mut self, t: &ScoreTerm) {
        self.n += 1;
        self.value_e4 += i128::from(t.value_e4);
        self.mean_e4 += i128::from(t.mean_e4);
        self.var_e8 += i128::from(t.var_e8);
    }

    /// The score's z in hundredths, positive when the play is more engine-like than the law
    /// expects: (Σ value − Σ mean) / sqrt(φ·Σ variance), φ in thousandths.
    pub fn z(&self, phi_milli: u32) -> i32 {
        if self.var_e8 <= 0 {
            return 0;
        }
        let den = libm::sqrt(self.var_e8 as f64 * f64::from(phi_milli) / 1000.0);
        libm::round((self.value_e4 - self.mean_e4) as f64 / den * 100.0) as i32
    }
}

/// The grid every fit searches, in this order: s from 0.005 to about 3 in steps of 8 %,
/// c from 0.20 to 4.00 in steps of 0.05. Exhaustive, so the answer depends on nothing but
/// the data.
pub fn grid() -> Vec<Law> {
    let mut ss = Vec::new();
    let mut s = 5_000f64;
    while s <= 3_000_000.0 {
        ss.push(libm::round(s) as u32);
        s *= 1.08;
    }
    let mut out = Vec::with_capacity(ss.len() * 77);
    for &s_e6 in &ss {
        for k in 0..GRID_C as u32 {
            out.push(Law {
                s_e6,
                c_e6: 200_000 + 50_000 * k,
                k_e6: K_ONE,
            });
        }
    }
    out
}

/// Values of c on the grid, per value of s.
const GRID_C: usize = 77;

/// Maximum-likelihood law over the grid (ties to the earlier grid point) and its mean
/// log-likelihood per decision in millionths.
pub fn fit(decisions: &[&Wide]) -> (Law, i64) {
    let mut best = (
        Law {
            s_e6: 100_000,
            c_e6: 1_000_000,
            k_e6: K_ONE,
        },
        f64::NEG_INFINITY,
    );
    for law in grid() {
        let ll = total_log_likelihood(decisions, law);
        if ll > best.1 {
            best = (law, ll);
        }
    }
    mean_of(decisions, best.0, best.1)
}

/// Σ ln P(played move) over the decisions under `law`.
fn total_log_likelihood(decisions: &[&Wide], law: Law) -> f64 {
    decisions.iter().map(|w| law.log_likelihood(w)).sum()
}

/// Values of k on its grid: 0.10 to 1.50 in steps of 0.05.
fn k_grid() -> Vec<u32> {
    (0..29).map(|i| 100_000 + 50_000 * i).collect()
}

/// The maximum-likelihood law with `k` ([`Law`]): a climb on the grid of s, c and k, from
/// `from`, to the best of the 26 neighbouring grid points (in a fixed order, ties to the
/// earlier one) while it is strictly better, until no neighbour is. Deterministic like
/// [`fit`]; a climb rather than the whole grid because the grid has 29 times as many points
/// with k, and the likelihood is one smooth hill in these parameters. Start it from [`fit`]'s
/// answer (k = 1), or from a law fitted on most of the same data.
pub fn fit_with_k(decisions: &[&Wide], from: Law) -> (Law, i64) {
    let ss: Vec<u32> = grid().iter().step_by(GRID_C).map(|l| l.s_e6).collect();
    let ks = k_grid();
    let nearest = |values: &[u32], v: u32| -> usize {
        let mut best = 0;
        for (i, x) in values.iter().enumerate() {
            if x.abs_diff(v) < values[best].abs_diff(v) {
                best = i;
            }
        }
        best
    };
    let law_of = |(s, c, k): (usize, usize, usize)| Law {
        s_e6: ss[s],
        c_e6: 200_000 + 50_000 * c as u32,
        k_e6: ks[k],
    };
    let mut seen: BTreeMap<(usize, usize, usize), f64> = BTreeMap::new();
    let mut ll_at = |at: (usize, usize, usize)| -> f64 {
        *seen
            .entry(at)
            .or_insert_with(|| total_log_likelihood(decisions, law_of(at)))
    };
    let c_at = (from.c_e6.saturating_sub(200_000) / 50_000) as usize;
    let mut at = (
        nearest(&ss, from.s_e6),
        c_at.min(GRID_C - 1),
        nearest(&ks, from.k_e6),
    );
    let mut here = ll_at(at);
    let limits = (ss.len() - 1, GRID_C - 1, ks.len() - 1);
    let step = |v: usize, d: i8, last: usize| -> Option<usize> {
        match d {
            -1 => v.checked_sub(1),
            1 if v < last => Some(v + 1),
            0 => Some(v),
            _ => None,
        }
    };
    loop {
        let mut best: Option<((usize, usize, usize), f64)> = None;
        for ds in [-1i8, 0, 1] {
            for dc in [-1i8, 0, 1] {
                for dk in [-1i8, 0, 1] {
                    if (ds, dc, dk) == (0, 0, 0) {
                        continue;
                    }
                    let (Some(s), Some(c), Some(k)) = (
                        step(at.0, ds, limits.0),
                        step(at.1, dc, limits.1),
                        step(at.2, dk, limits.2),
                    ) else {
                        continue;
                    };
                    let ll = ll_at((s, c, k));
                    if best.is_none_or(|(_, b)| ll > b) {
                        best = Some(((s, c, k), ll));
                    }
                }
            }
        }
        match best {
            Some((next, ll)) if ll > here => {
                at = next;
                here = ll;
            }
            _ => break,
        }
    }
    mean_of(decisions, law_of(at), here)
}

fn mean_of(decisions: &[&Wide], law: Law, ll: f64) -> (Law, i64) {
    let n = decisions.len().max(1) as f64;
    (law, libm::round(ll / n * 1e6) as i64)
}

/// One rating bucket of the full baseline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FullBucket {
    pub rating: u16,
    pub games: u32,
    pub decisions: u64,
    pub law: Law,
    /// Mean log-likelihood per decision at the fitted law, millionths (fit quality).
    pub mean_log_likelihood_e6: i64,
}

/// The fewest counted decisions a bucket's law may rest on and still be calibrated. At 1,000
/// the bucket's expected match rate is known to about ±0.016 (the binomial standard error near
/// one half), a quarter of a performance's own spread at the policy's 60-decision minimum; a
/// thinner bucket keeps its law (the data's best guess), but what is judged by it stays
/// Provisional, Watch at most, as under a provisional baseline.
pub const MIN_BUCKET_DECISIONS: u64 = 1_000;

impl FullBucket {
    /// Too few decisions to calibrate: see [`MIN_BUCKET_DECISIONS`].
    pub fn thin(&self) -> bool {
        self.decisions < MIN_BUCKET_DECISIONS
    }
}

/// The full test's baseline artefact: one fitted law per rating bucket, bound to the wide
/// engine profile it was fitted with.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FullBaseline {
    pub format: u32,
    pub version: String,
    pub quality: String,
    pub what_it_is: String,
    pub what_it_is_not: String,
    pub how_made: serde_json::Value,
    pub engine_profile: EngineProfile,
    pub engine_profile_id: String,
    pub engine_binary_sha256: String,
    pub filter: FilterConfig,
    pub phi_milli: Phi,
    /// Correlation of (z_MM, z_EV, z_ASD) over the calibration's own 3-game performances, in
    /// thousandths, row by row: the R of the combined indicator.
    pub correlation_milli: [[i32; 3]; 3],
    /// Ascending by rating.
    pub buckets: Vec<FullBucket>,
    /// Fitted on every bucket's decisions: the law for an unrated player.
    pub unrated: FullBucket,
    /// Step of the IPR's rating grid.
    pub ipr_step: u16,
    /// The strength and assistance scores' calibration; artefacts made before them have none,
    /// and their combined indicator stays the mean of MM, EV and ASD.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<ScoreFit>,
}

/// How the two scores ([`Law::strength_term`], [`Law::assistance_term`]) sit on the
/// calibration's own 3-game performances.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoreFit {
    /// Variance inflation of each score, thousandths (≥ 1000).
    pub phi_strength_milli: u32,
    pub phi_assistance_milli: u32,
    /// Pearson correlations of (z_MM, z_EV, z_ASD, z_strength, z_assistance), thousandths.
    pub correlation_milli: [[i32; 5]; 5],
}

/// An intrinsic performance rating on the baseline's scale, with a 95 % bootstrap interval.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ipr {
    pub rating: u16,
    pub low: u16,
    pub high: u16,
    /// The estimate sits at an end of the calibrated span: the true value may lie beyond it.
    pub at_bound: bool,
    pub resamples: u32,
}

/// Bootstrap resamples of the IPR interval.
pub const IPR_RESAMPLES: u32 = 1000;

impl FullBaseline {
    pub fn shipped() -> FullBaseline {
        FullBaseline::parse(SHIPPED).expect("the shipped full baseline parses (checked by a test)")
    }

    /// The shipped full baseline of this version, if any: what re-derives a result that names
    /// it.
    pub fn by_version(version: &str) -> Option<FullBaseline> {
        FullBaseline::all_shipped().find(|b| b.version == version)
    }

    /// The versions shipped, the default first.
    pub fn shipped_versions() -> Vec<String> {
        FullBaseline::all_shipped().map(|b| b.version).collect()
    }

    fn all_shipped() -> impl Iterator<Item = FullBaseline> {
        [SHIPPED, PREVIOUS, HUMAN, HUMAN_CURRENT_SCALE, HUMAN_WITH_K]
            .into_iter()
            .map(|text| {
                FullBaseline::parse(text)
                    .expect("a shipped full baseline parses (checked by a test)")
            })
    }

    pub fn parse(text: &str) -> Result<FullBaseline, String> {
        let b: FullBaseline = serde_json::from_str(text)
            .map_err(|e| format!("not a full-test baseline artefact: {e}"))?;
        if b.format == 0 || b.format > FORMAT {
            return Err(format!(
                "full baseline {}: format {} (this build reads 1 to {FORMAT})",
                b.version, b.format
            ));
        }
        if b.buckets.is_empty() || b.ipr_step == 0 {
            return Err(format!(
                "full baseline {}: no buckets or no IPR step",
                b.version
            ));
        }
        if b.buckets.windows(2).any(|w| w[0].rating >= w[1].rating) {
            return Err(format!(
                "full baseline {}: buckets not ascending",
                b.version
            ));
        }
        if b.engine_profile.id() != b.engine_profile_id {
            return Err(format!(
                "full baseline {}: recorded profile id {} does not match its profile ({})",
                b.version,
                b.engine_profile_id,
                b.engine_profile.id()
            ));
        }
        Ok(b)
    }

    pub fn sha256(&self) -> String {
        crate::baseline::artefact_sha256(self)
    }

    fn span(&self) -> (u16, u16) {
        let first = self.buckets.first().expect("checked non-empty").rating;
        let last = self.buckets.last().expect("checked non-empty").rating;
        (first, last)
    }

    /// The law for a rating: linear between neighbouring bucket centres, the end bucket's
    /// beyond them; `None` is the pooled unrated law. Also whether that law is calibrated for
    /// the rating: it lies within the buckets' span (half a bucket's width beyond either end
    /// still counts) and no thin bucket ([`FullBucket::thin`]) enters it.
    pub fn law_at(&self, rating: Option<u16>) -> (Law, bool) {
        let Some(r) = rating else {
            return (self.unrated.law, false);
        };
        let (first, last) = self.span();
        let half = self.buckets.get(1).map_or(100, |b| (b.rating - first) / 2);
        let within = r + half >= first && r <= last + half;
        if r <= first {
            let b = &self.buckets[0];
            return (b.law, within && !b.thin());
        }
        if r >= last {
            let b = &self.buckets[self.buckets.len() - 1];
            return (b.law, within && !b.thin());
        }
        let i = self.buckets.iter().position(|b| b.rating >= r).unwrap_or(0);
        let (a, b) = (&self.buckets[i - 1], &self.buckets[i]);
        let t = i64::from(r - a.rating) * 1_000_000 / i64::from(b.rating - a.rating);
        let thin = (a.thin() && t < 1_000_000) || (b.thin() && t > 0);
        (Law::between(a.law, b.law, t), within && !thin)
    }

    /// The combined indicator: the equally weighted mean of the indicators divided by its own
    /// standard deviation under their correlations R, i.e. Σ z / sqrt(Σ R), in hundredths. Over
    /// z_MM, z_EV, z_ASD and the two scores when the baseline calibrates the scores, else over
    /// the first three.
    pub fn combined(&self, z: &Indicators) -> i32 {
        let sum_r = |r: &[i32]| r.iter().map(|&r| i64::from(r)).sum::<i64>();
        let (zs, r) = match (self.scores, z.z_strength, z.z_assistance) {
            (Some(fit), Some(s), Some(a)) => (
                vec![z.z_mm, z.z_ev, z.z_asd, s, a],
                sum_r(fit.correlation_milli.as_flattened()),
            ),
            _ => (
                vec![z.z_mm, z.z_ev, z.z_asd],
                sum_r(self.correlation_milli.as_flattened()),
            ),
        };
        if r <= 0 {
            return (z.z_mm + z.z_ev + z.z_asd) / 3;
        }
        crate::stats::standardized_sum(&zs, r)
    }

    /// The IPR of a player from their counted decisions, grouped by game: the rating on the
    /// grid (the span in steps of `ipr_step`) whose law makes the moves most likely, and the
    /// 2.5 % and 97.5 % points of the same estimate over [`IPR_RESAMPLES`] resamples of the
    /// games (drawn with replacement by a fixed-seed generator); with a single game the
    /// interval is the whole span.
    pub fn ipr(&self, games: &[Vec<&Wide>]) -> Option<Ipr> {
        if games.iter().all(|g| g.is_empty()) {
            return None;
        }
        let (first, last) = self.span();
        let ratings: Vec<u16> = (first..=last).step_by(usize::from(self.ipr_step)).collect();
        let laws: Vec<Law> = ratings.iter().map(|&r| self.law_at(Some(r)).0).collect();
        // Per game, the log-likelihood at every grid rating; resamples only re-add these.
        let per_game: Vec<Vec<f64>> = games
            .iter()
            .map(|g| {
                laws.iter()
                    .map(|law| g.iter().map(|w| law.log_likelihood(w)).sum())
                    .collect()
            })
            .collect();
        let argmax = |total: &[f64]| -> usize {
            let mut best = 0;
            for (i, v) in total.iter().enumerate() {
                if *v > total[best] {
                    best = i;
                }
            }
            best
        };
        let sum_of = |picks: &mut dyn Iterator<Item = usize>| -> Vec<f64> {
            let mut total = vec![0f64; ratings.len()];
            for g in picks {
                for (t, v) in total.iter_mut().zip(&per_game[g]) {
                    *t += v;
                }
            }
            total
        };
        let point = ratings[argmax(&sum_of(&mut (0..per_game.len())))];
        // One game has nothing to resample: its interval is the whole span, not the point.
        if games.iter().filter(|g| !g.is_empty()).count() < 2 {
            return Some(Ipr {
                rating: point,
                low: first,
                high: last,
                at_bound: point == first || point == last,
                resamples: 0,
            });
        }
        let mut rng = SplitMix64(0x001f_2026_1127);
        let n = per_game.len() as u64;
        let mut draws: Vec<u16> = (0..IPR_RESAMPLES)
            .map(|_| {
                let picks: Vec<usize> = (0..n).map(|_| (rng.next() % n) as usize).collect();
                ratings[argmax(&sum_of(&mut picks.into_iter()))]
            })
            .collect();
        draws.sort_unstable();
        let b = draws.len();
        Some(Ipr {
            rating: point,
            low: draws[b * 25 / 1000],
            high: draws[(b * 975).div_ceil(1000) - 1],
            at_bound: point == first || point == last,
            resamples: IPR_RESAMPLES,
        })
    }
}

/// Upper ends (inclusive, 1e-4 scaled pawns) of the deficit bands of [`ByPlace`]; the last
/// band is open.
const PLACE_BANDS_E4: [i64; 7] = [0, 200, 500, 1000, 2000, 4000, 8000];

/// How well a law's shape fits its decisions: per band of deficit and per place among the
/// ranked candidates (first, second, third, later), how often such moves were played against
/// how often the law expected; and the moves the analysis did not rank. A law of the deficit
/// alone shows its misfit here as a played/expected ratio that changes with the place at the
/// same deficit (docs/src/benchmarks.md, "The full test's law with a third parameter").
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ByPlace {
    /// One row per deficit band: the band's upper end (None: open), then per place (1st, 2nd,
    /// 3rd, later) the moves played and those expected, in thousandths of a move.
    pub rows: Vec<PlaceRow>,
    pub unranked_played: u64,
    pub unranked_expected_milli: u64,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlaceRow {
    pub deficit_to_e4: Option<i64>,
    pub played: [u64; 4],
    pub expected_milli: [u64; 4],
}

impl ByPlace {
    /// Each decision judged by its own law (its bucket's), in the given order.
    pub fn of(decisions: &[(&Wide, Law)]) -> ByPlace {
        let bands = PLACE_BANDS_E4.len() + 1;
        let mut played = vec![[0u64; 4]; bands];
        let mut expected = vec![[0f64; 4]; bands];
        let (mut unranked_played, mut unranked_expected) = (0u64, 0f64);
        for (w, law) in decisions {
            let (ws, total) = law.weights(w);
            for (i, (x, &d)) in ws.iter().zip(&w.deltas_e4).enumerate() {
                let band = PLACE_BANDS_E4
                    .iter()
                    .position(|&to| d <= to)
                    .unwrap_or(bands - 1);
                let place = i.min(3);
                expected[band][place] += x / total;
                if w.played == Some(i as u16) {
                    played[band][place] += 1;
                }
            }
            let ranked: f64 = ws.iter().sum::<f64>() / total;
            unranked_expected += 1.0 - ranked;
            if w.played.is_none() {
                unranked_played += 1;
            }
        }
        let milli = |x: f64| libm::round(x * 1000.0) as u64;
        ByPlace {
            rows: (0..bands)
                .map(|b| PlaceRow {
                    deficit_to_e4: PLACE_BANDS_E4.get(b).copied(),
                    played: played[b],
                    expected_milli: expected[b].map(milli),
                })
                .collect(),
            unranked_played,
            unranked_expected_milli: milli(unranked_expected),
        }
    }

    /// The table, played / expected per place, a row per band of deficit.
    pub fn table(&self) -> String {
        use std::fmt::Write;
        let mut out = format!(
            "{:<18} {:>16} {:>16} {:>16} {:>16}\n",
            "deficit (pawns)", "1st", "2nd", "3rd", "4th and later"
        );
        let mut from = None;
        for r in &self.rows {
            let band = match (from, r.deficit_to_e4) {
                (None, Some(0)) => "0".to_string(),
                (Some(f), Some(t)) => format!("{:.2}-{:.2}", f as f64 / 1e4, t as f64 / 1e4),
                (Some(f), None) => format!("over {:.2}", f as f64 / 1e4),
                _ => "?".to_string(),
            };
            let _ = write!(out, "{band:<18}");
            for p in 0..4 {
                let e = r.expected_milli[p] as f64 / 1000.0;
                let cell = if e > 0.0 {
                    format!("{}/{:.0} ({:.2})", r.played[p], e, r.played[p] as f64 / e)
                } else {
                    format!("{}/0", r.played[p])
                };
                let _ = write!(out, " {cell:>16}");
            }
            out.push('\n');
            from = r.deficit_to_e4;
        }
        let e = self.unranked_expected_milli as f64 / 1000.0;
        let _ = writeln!(
            out,
            "not ranked: {} played, {:.0} expected",
            self.unranked_played, e
        );
        out
    }
}

/// The counted decisions of a game under the full test: those the filter counts, with their
/// wide analysis.
pub fn counted_of<'a>(
    decisions: &'a [&'a Decision],
) -> impl Iterator<Item = (&'a Counted, &'a Wide)> + 'a {
    decisions
        .iter()
        .filter_map(|d| Some((d.counted.as_ref()?, d.wide.as_ref()?)))
}

/// A decision's observations as the law sees it (format 2): the played move's place and
/// deficit among the ranked candidates, which are sorted by deficit. The quick filter's
/// counts read the engine's own order and compare values, not deficits; a line of a
/// shallower iteration can stand above the first or tie with it in deficit but not in value,
/// so the two differ on about 1 % of decisions, enough to bias the full test's EV and T3
/// (measured on the human calibration games: docs/src/benchmarks.md).
fn seen_in(c: &Counted, w: &Wide) -> Counted {
    Counted {
        mm: w.played == Some(0),
        ev: w.played_delta_e4 == 0,
        t3: w.played.is_some_and(|p| p < 3),
        delta_e4: w.played_delta_e4,
        ..*c
    }
}

/// The full test's tally of a player's decisions under `law`, with the combined indicator.
pub fn judge(
    baseline: &FullBaseline,
    law: Law,
    decisions: &[(&Counted, &Wide)],
) -> (Tally, Indicators) {
    let mut t = Tally::default();
    for (c, w) in decisions {
        if baseline.format >= 2 {
            t.add(&seen_in(c, w), &law.expectation(w));
        } else {
            t.add(c, &law.expectation(w));
        }
    }
    let mut z = t.indicators(&baseline.phi_milli);
    if let Some(fit) = baseline.scores {
        let (mut strength, mut assistance) = (Score::default(), Score::default());
        for (_, w) in decisions {
            strength.add(&law.strength_term(w));
            assistance.add(&law.assistance_term(w));
        }
        z.z_strength = Some(strength.z(fit.phi_strength_milli));
        z.z_assistance = Some(assistance.z(fit.phi_assistance_milli));
    }
    z.z_combined = baseline.combined(&z);
    (t, z)
}

/// A small, well-known generator (SplitMix64), written out so the bootstrap's draws are
/// fixed by this file alone.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Decisions drawn from a known law (seeded): 12 candidates at spread deficits.
    pub(crate) fn sample(law: Law, n: usize, seed: u64) -> Vec<Wide> {
        let mut rng = SplitMix64(seed);
        (0..n)
            .map(|i| {
                let step = 400 + (i % 7) as i64 * 300;
                let deltas: Vec<i64> = (0..12).map(|k| k * step).collect();
                let w = Wide {
                    deltas_e4: deltas.clone(),
                    unranked: 8,
                    played: None,
                    played_delta_e4: 0,
                };
                let (ws, total) = law.weights(&w);
                let mut u = (rng.next() >> 11) as f64 / (1u64 << 53) as f64 * total;
                let mut pick = ws.len() - 1;
                for (k, x) in ws.iter().enumerate() {
                    if u < *x {
                        pick = k;
                        break;
                    }
                    u -= x;
                }
                Wide {
                    played: Some(pick as u16),
                    played_delta_e4: deltas[pick],
                    ..w
                }
            })
            .collect()
    }

    #[test]
    fn the_fit_recovers_the_law_the_moves_were_drawn_from() {
        let truth = Law {
            s_e6: 80_000,
            c_e6: 700_000,
            k_e6: K_ONE,
        };
        let ws = sample(truth, 1500, 7);
        let refs: Vec<&Wide> = ws.iter().collect();
        let (law, ll) = fit(&refs);
        let s_ratio = f64::from(law.s_e6) / f64::from(truth.s_e6);
        assert!((0.75..1.33).contains(&s_ratio), "fitted {law:?}");
        assert!(
            (law.c_e6 as i64 - truth.c_e6 as i64).abs() <= 150_000,
            "fitted {law:?}"
        );
        assert!(ll < 0);
        // Deterministic: the same data, the same answer.
        assert_eq!(fit(&refs), (law, ll));
    }

    /// A law with k well below 1, for the tests that draw moves from one.
    fn drawn_with_k() -> Law {
        Law {
            s_e6: 80_000,
            c_e6: 700_000,
            k_e6: 450_000,
        }
    }

    #[test]
    fn the_climb_recovers_k_and_keeps_a_two_parameter_law_near_one() {
        let truth = drawn_with_k();
        let ws = sample(truth, 2000, 11);
        let refs: Vec<&Wide> = ws.iter().collect();
        let (start, start_ll) = fit(&refs);
        assert_eq!(start.k_e6, K_ONE);
        let (law, ll) = fit_with_k(&refs, start);
        assert!(law.k_e6.abs_diff(truth.k_e6) <= 150_000, "fitted {law:?}");
        let s_ratio = f64::from(law.s_e6) / f64::from(truth.s_e6);
        assert!((0.75..1.33).contains(&s_ratio), "fitted {law:?}");
        // Better than the best law without k, and the same from another start.
        assert!(ll > start_ll, "{ll} against {start_ll}");
        let off = Law {
            s_e6: 150_000,
            c_e6: 1_200_000,
            k_e6: 1_300_000,
        };
        assert_eq!(fit_with_k(&refs, off), (law, ll));
        // Moves drawn from a law without k: the climb stays near k = 1.
        let plain = Law {
            k_e6: K_ONE,
            ..truth
        };
        let ws = sample(plain, 2000, 12);
        let refs: Vec<&Wide> = ws.iter().collect();
        let (law, _) = fit_with_k(&refs, plain);
        assert!(law.k_e6.abs_diff(K_ONE) <= 150_000, "fitted {law:?}");
    }

    /// Mean and mean square of the z over 40 performances of 150 decisions.
    fn moments(term: &dyn Fn(&Wide) -> ScoreTerm, draw: &dyn Fn(u64) -> Vec<Wide>) -> (f64, f64) {
        let zs: Vec<f64> = (0..40)
            .map(|k| {
                let mut score = Score::default();
                for w in draw(100 + k) {
                    score.add(&term(&w));
                }
                f64::from(score.z(1000)) / 100.0
            })
            .collect();
        let mean = zs.iter().sum::<f64>() / 40.0;
        (mean, zs.iter().map(|z| z * z).sum::<f64>() / 40.0)
    }

    #[test]
    fn both_scores_are_centred_under_the_law_and_rise_for_the_play_they_test_for() {
        let law = Law {
            s_e6: 120_000,
            c_e6: 800_000,
            k_e6: K_ONE,
        };
        let stronger = Law {
            s_e6: 60_000,
            c_e6: 800_000,
            k_e6: K_ONE,
        };
        // The best move on 30 % of the decisions (the generator's draws), the law elsewhere.
        let assisted = |seed: u64| -> Vec<Wide> {
            let mut rng = SplitMix64(seed ^ 0xa55);
            sample(law, 150, seed)
                .into_iter()
                .map(|w| {
                    if rng.next() % 10 < 3 {
                        Wide {
                            played: Some(0),
                            played_delta_e4: 0,
                            ..w
                        }
                    } else {
                        w
                    }
                })
                .collect()
        };
        let strength = |w: &Wide| law.strength_term(w);
        let assistance = |w: &Wide| law.assistance_term(w);
        for term in [&strength as &dyn Fn(&Wide) -> ScoreTerm, &assistance] {
            // Drawn from the law itself: z ~ N(0, 1).
            let (mean, square) = moments(term, &|k| sample(law, 150, k));
            assert!(mean.abs() < 0.4, "mean z {mean}");
            assert!((0.6..1.5).contains(&square), "mean square {square}");
            // A player who sees twice as fine, and one helped on 30 % of his moves.
            let (mean, _) = moments(term, &|k| sample(stronger, 150, k));
            assert!(mean > 3.0, "stronger: mean z {mean}");
            let (mean, _) = moments(term, &assisted);
            assert!(mean > 2.5, "assisted: mean z {mean}");
        }
        // φ divides the z by its square root.
        let mut score = Score::default();
        for w in sample(stronger, 150, 7) {
            score.add(&law.strength_term(&w));
        }
        assert!((2 * score.z(4000) - score.z(1000)).abs() <= 1);
    }

    #[test]
    fn expectations_are_probabilities_and_follow_the_law() {
        let w = Wide {
            deltas_e4: vec![0, 0, 500, 2000, 6000],
            unranked: 10,
            played: Some(0),
            played_delta_e4: 0,
        };
        let sharp = Law {
            s_e6: 5_000,
            c_e6: 1_000_000,
            k_e6: K_ONE,
        }
        .expectation(&w);
        let loose = Law {
            s_e6: 400_000,
            c_e6: 1_000_000,
            k_e6: K_ONE,
        }
        .expectation(&w);
        // Two moves tie for best: a sharp player splits between them.
        assert!((490_000..=500_000).contains(&sharp.mm_ppm), "{sharp:?}");
        assert!(sharp.ev_ppm >= 990_000, "{sharp:?}");
        assert!(loose.mm_ppm < sharp.mm_ppm && loose.ev_ppm < sharp.ev_ppm);
        assert!(loose.delta_mean_e4 > sharp.delta_mean_e4);
        assert!(sharp.t3_ppm >= sharp.ev_ppm);
    }

    fn baseline_of(laws: &[(u16, Law)]) -> FullBaseline {
        let bucket = |(rating, law): (u16, Law)| FullBucket {
            rating,
            games: 0,
            decisions: MIN_BUCKET_DECISIONS,
            law,
            mean_log_likelihood_e6: 0,
        };
        let profile = EngineProfile::full();
        FullBaseline {
            format: 1,
            version: "test".into(),
            quality: "Provisional".into(),
            what_it_is: String::new(),
            what_it_is_not: String::new(),
            how_made: serde_json::Value::Null,
            engine_profile_id: profile.id(),
            engine_profile: profile,
            engine_binary_sha256: String::new(),
            filter: FilterConfig::default(),
            phi_milli: Phi::default(),
            correlation_milli: [[1000, 500, 500], [500, 1000, 500], [500, 500, 1000]],
            buckets: laws.iter().copied().map(bucket).collect(),
            unrated: bucket(laws[0]),
            ipr_step: 10,
            scores: None,
        }
    }

    /// Moves drawn with k < 1 show, against the law without k, the second place played more
    /// often than expected and later ones less; against the law they were drawn from, the
    /// first three places are played as often as expected.
    #[test]
    fn the_table_by_place_shows_a_law_without_k_missing_the_second_and_third_moves() {
        let truth = drawn_with_k();
        let ws = sample(truth, 4000, 21);
        let ratio = |law: Law, place: usize| {
            let judged: Vec<(&Wide, Law)> = ws.iter().map(|w| (w, law)).collect();
            let t = ByPlace::of(&judged);
            let played: u64 = t.rows.iter().map(|r| r.played[place]).sum();
            let expected: u64 = t.rows.iter().map(|r| r.expected_milli[place]).sum();
            let all: u64 = t.rows.iter().map(|r| r.played.iter().sum::<u64>()).sum();
            assert_eq!(all + t.unranked_played, 4000);
            played as f64 * 1000.0 / expected as f64
        };
        let plain = Law {
            k_e6: K_ONE,
            ..truth
        };
        assert!(ratio(plain, 1) > 1.15, "{}", ratio(plain, 1));
        assert!(ratio(plain, 3) < 1.0, "{}", ratio(plain, 3));
        // (The sampler gives the unranked moves' share to the last ranked candidate, so the
        // later places are not compared.)
        for place in 0..3 {
            let r = ratio(truth, place);
            assert!((0.9..1.1).contains(&r), "place {place}: {r}");
        }
        let judged: Vec<(&Wide, Law)> = ws.iter().map(|w| (w, truth)).collect();
        let table = ByPlace::of(&judged).table();
        assert!(table.starts_with("deficit (pawns)"), "{table}");
        assert!(table.contains("over 0.80"), "{table}");
    }

    /// A law without k reads and writes as before k existed, so format-1 artefacts keep their
    /// text and digest; format 2 takes its observations from the ranked candidates the law
    /// reads, format 1 from the quick filter's view.
    #[test]
    fn format_one_laws_and_observations_are_kept_and_format_two_reads_the_candidates() {
        let plain = Law {
            s_e6: 100_000,
            c_e6: 800_000,
            k_e6: K_ONE,
        };
        let text = serde_json::to_string(&plain).expect("a law serialises");
        assert_eq!(text, r#"{"s_e6":100000,"c_e6":800000}"#);
        assert_eq!(serde_json::from_str::<Law>(&text).expect("parses"), plain);
        let with_k = Law {
            k_e6: 500_000,
            ..plain
        };
        let text = serde_json::to_string(&with_k).expect("a law serialises");
        assert_eq!(serde_json::from_str::<Law>(&text).expect("parses"), with_k);
        // k makes the second and third candidates likelier and leaves the fourth's weight.
        let w = Wide {
            deltas_e4: vec![0, 1500, 2500, 4000],
            unranked: 10,
            played: Some(1),
            played_delta_e4: 1500,
        };
        let (a, b) = (plain.expectation(&w), with_k.expectation(&w));
        assert!(b.t3_ppm > a.t3_ppm && b.mm_ppm < a.mm_ppm, "{a:?} {b:?}");
        assert_eq!(plain.weight(3, 4000), with_k.weight(3, 4000));
        // A line of a shallower search tied with the first in deficit, not in value: the
        // quick filter does not count it as equal value, the candidates do.
        let tied = Wide {
            deltas_e4: vec![0, 0, 900, 2000],
            unranked: 5,
            played: Some(1),
            played_delta_e4: 0,
        };
        let quick_view = Counted {
            mm: false,
            ev: false,
            t3: true,
            cpl: 3,
            delta_e4: 30,
            gap_cp: 3,
        };
        let judged = |format: u32| {
            let b = FullBaseline {
                format,
                ..baseline_of(&[(2000, plain)])
            };
            judge(&b, plain, &[(&quick_view, &tied)]).0
        };
        assert_eq!((judged(1).ev, judged(1).delta_sum_e4), (0, 30));
        assert_eq!((judged(2).ev, judged(2).delta_sum_e4), (1, 0));
    }

    #[test]
    fn the_ipr_finds_the_strength_the_games_were_played_at_with_an_interval() {
        let b = baseline_of(&[
            (
                1600,
                Law {
                    s_e6: 300_000,
                    c_e6: 700_000,
                    k_e6: K_ONE,
                },
            ),
            (
                2000,
                Law {
                    s_e6: 150_000,
                    c_e6: 700_000,
                    k_e6: K_ONE,
                },
            ),
            (
                2400,
                Law {
                    s_e6: 60_000,
                    c_e6: 700_000,
                    k_e6: K_ONE,
                },
            ),
        ]);
        // Twelve games of 30 decisions played exactly at the 2000 law's strength.
        let ws = sample(b.law_at(Some(2000)).0, 360, 11);
        let games: Vec<Vec<&Wide>> = ws.chunks(30).map(|c| c.iter().collect()).collect();
        let ipr = b.ipr(&games).expect("decisions");
        assert!(ipr.low <= ipr.rating && ipr.rating <= ipr.high, "{ipr:?}");
        assert!((1850..=2150).contains(&ipr.rating), "{ipr:?}");
        assert!(ipr.high - ipr.low < 500, "{ipr:?}");
        assert!(!ipr.at_bound);
        assert_eq!(b.ipr(&games), Some(ipr), "the bootstrap is reproducible");
        // A single game gives a point but no interval.
        let one = b.ipr(&games[..1]).expect("decisions");
        assert_eq!((one.low, one.high, one.resamples), (1600, 2400, 0));
        // Perfect play sits at the top of the span, and says so.
        let best: Vec<Wide> = ws
            .iter()
            .map(|w| Wide {
                played: Some(0),
                played_delta_e4: 0,
                ..w.clone()
            })
            .collect();
        let games: Vec<Vec<&Wide>> = best.chunks(30).map(|c| c.iter().collect()).collect();
        let top = b.ipr(&games).expect("decisions");
        assert_eq!((top.rating, top.at_bound), (2400, true));
    }

    #[test]
    fn laws_are_interpolated_between_buckets_and_held_beyond_them() {
        let b = baseline_of(&[
            (
                1600,
                Law {
                    s_e6: 300_000,
                    c_e6: 600_000,
                    k_e6: K_ONE,
                },
            ),
            (
                2000,
                Law {
                    s_e6: 100_000,
                    c_e6: 1_000_000,
                    k_e6: K_ONE,
                },
            ),
        ]);
        assert_eq!(
            b.law_at(Some(1800)).0,
            Law {
                s_e6: 200_000,
                c_e6: 800_000,
                k_e6: K_ONE,
            }
        );
        assert_eq!(b.law_at(Some(1200)), (b.buckets[0].law, false));
        assert_eq!(b.law_at(Some(2100)), (b.buckets[1].law, true));
        // A thin bucket keeps its law, but nothing it enters is calibrated: not its own
        // ratings, not those between it and its neighbour; its neighbour's centre still is.
        let mut thin = b.clone();
        thin.buckets[0].decisions = MIN_BUCKET_DECISIONS - 1;
        assert!(thin.buckets[0].thin() && !thin.buckets[1].thin());
        assert_eq!(thin.law_at(Some(1600)), (thin.buckets[0].law, false));
        assert_eq!(thin.law_at(Some(1800)), (b.law_at(Some(1800)).0, false));
        assert_eq!(thin.law_at(Some(2000)), (thin.buckets[1].law, true));
        assert_eq!(thin.law_at(Some(2100)), (thin.buckets[1].law, true));
        // (z_MM + z_EV + z_ASD)/sqrt(ΣR) with ΣR = 6: three indicators of 2.00 give 2.45.
        let z = Indicators {
            z_mm: 200,
            z_ev: 200,
            z_t3: 0,
            z_asd: 200,
            z_combined: 0,
            z_strength: None,
            z_assistance: None,
        };
        assert_eq!(b.combined(&z), 245);
        // With the scores calibrated, all five: ΣR = 5 + 20 × 0.5 = 15, 10.00 / √15 = 2.58.
        let with = FullBaseline {
            scores: Some(ScoreFit {
                phi_strength_milli: 1000,
                phi_assistance_milli: 1000,
                correlation_milli: std::array::from_fn(|i| {
                    std::array::from_fn(|j| if i == j { 1000 } else { 500 })
                }),
            }),
            ..b.clone()
        };
        let five = Indicators {
            z_strength: Some(200),
            z_assistance: Some(200),
            ..z
        };
        assert_eq!(with.combined(&five), 258);
        // A result without the scores is combined over the three, whatever the baseline.
        assert_eq!(with.combined(&z), 245);
    }
}
