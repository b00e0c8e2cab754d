//! The rating-conditioned baseline artefact (docs/src/benchmarks.md): per rating bucket and
//! difficulty class (the gap between the engine's two best moves), what a player of that rating is
//! expected to do. Integers only, so results computed from it are bit-identical everywhere.
//! Versioned and bound to one engine profile; the shipped one lives in `baselines/` and says how it
//! was made.

use crate::filter::FilterConfig;
use crate::stats::{Expectation, Phi, Tau};
use crate::uci::EngineProfile;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The shipped default: fitted on classical human games, recent ones among them, with its
/// leave-events-out calibration report in its provenance (made by `arbiter
/// screening-calibrate --human`).
pub const SHIPPED: &str = include_str!("../baselines/sf15.1-n20k-mpv3/human-2026.12.1.json");

/// Fitted on FIDE-rated classical games only, their ratings on the FIDE scale since 1 March
/// 2024, with its indicators' correlations (`--current-fide-scale`). Chosen by version, not
/// yet the default: it has no bucket under 1600 on today's scale, so a player rated below it is
/// judged by the 1600 bucket's expectations, which costs the quick test power there.
pub const CURRENT_SCALE_HUMAN: &str =
    include_str!("../baselines/sf15.1-n20k-mpv3/human-2026.12.2.json");

/// The default before it, kept so that results which name it can still be re-derived.
pub const PREVIOUS_HUMAN: &str = include_str!("../baselines/sf15.1-n20k-mpv3/human-2026.11.2.json");

/// The self-play baseline (made by `arbiter screening-calibrate`): what Stockfish at limited
/// strength does. Not a human baseline; kept for the synthetic separation experiment, whose
/// honest players are such engines, and for re-screening results that name it.
pub const SELFPLAY: &str = include_str!("../baselines/sf15.1-n20k-mpv3/selfplay-2026.11.1.json");

/// The quick test's baseline of the sampled self-play players (`arbiter screening-calibrate
/// --players sampled --games FILE`, on the games the sampled full-test baseline was fitted
/// on): the separation bench's clean class judged against its own kind. Not a human baseline.
/// It records its indicators' correlations, so its combined indicator is a standard z.
pub const SAMPLED: &str = include_str!("../baselines/sf15.1-n20k-mpv3/sampled-2026.12.3.json");

/// The same fit before correlations were recorded (combined indicator: the plain mean), kept
/// so that results which name it can still be re-derived.
pub const PREVIOUS_SAMPLED: &str =
    include_str!("../baselines/sf15.1-n20k-mpv3/sampled-2026.12.2.json");

/// One bucket × difficulty cell.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cell {
    /// Counted decisions the cell was fitted on.
    pub n: u64,
    pub expect: Expectation,
}

/// One rating bucket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bucket {
    /// Centre of the bucket (the strength setting the games were played at).
    pub rating: u16,
    pub games: u32,
    pub decisions: u64,
    /// One cell per difficulty class, in the order of `gap_classes_cp`.
    pub cells: Vec<Cell>,
}

/// A baseline artefact.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Baseline {
    pub format: u32,
    pub version: String,
    /// `Provisional` until a calibration report on clean human data passes (the criteria:
    /// docs/src/benchmarks.md).
    pub quality: String,
    pub what_it_is: String,
    pub what_it_is_not: String,
    pub how_made: serde_json::Value,
    pub engine_profile: EngineProfile,
    pub engine_profile_id: String,
    pub engine_binary_sha256: String,
    pub filter: FilterConfig,
    /// Upper bounds (inclusive, cp) of the difficulty classes of the best-minus-second gap.
    pub gap_classes_cp: Vec<i32>,
    pub phi_milli: Phi,
    /// The spread of a population's level between events (zero, and then not written, in
    /// artefacts fitted before it existed, so their SHA-256 is unchanged).
    #[serde(default, skip_serializing_if = "Tau::is_zero")]
    pub tau: Tau,
    /// Correlations of (z_MM, z_EV, z_ASD) over the calibration's pseudo-performances, in
    /// thousandths: the combined indicator is then Σz / sqrt(ΣR), a standard z like its parts.
    /// Artefacts fitted before it have none (and do not write it, so their SHA-256 is
    /// unchanged): their combined indicator stays the plain mean of the three.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub correlation_milli: Option<[[i32; 3]; 3]>,
    /// Ascending by rating.
    pub buckets: Vec<Bucket>,
    /// All buckets pooled: the expectation for an unrated player.
    pub unrated: Bucket,
}

impl Baseline {
    /// The default baseline shipped with this build.
    pub fn shipped() -> Baseline {
        Baseline::parse(SHIPPED).expect("the shipped baseline parses (checked by a test)")
    }

    /// The shipped human baseline fitted on today's FIDE scale ([`CURRENT_SCALE_HUMAN`]).
    pub fn current_scale_human() -> Baseline {
        Baseline::parse(CURRENT_SCALE_HUMAN)
            .expect("the shipped baselines parse (checked by a test)")
    }

    /// The self-play baseline shipped with this build.
    pub fn selfplay() -> Baseline {
        Baseline::parse(SELFPLAY).expect("the self-play baseline parses (checked by a test)")
    }

    /// The sampled self-play players' baseline shipped with this build.
    pub fn sampled() -> Baseline {
        Baseline::parse(SAMPLED).expect("the sampled baseline parses (checked by a test)")
    }

    /// The shipped baseline of this version, if any: what re-derives a result that names it.
    pub fn by_version(version: &str) -> Option<Baseline> {
        Baseline::all_shipped().find(|b| b.version == version)
    }

    /// The versions shipped, the default first.
    pub fn shipped_versions() -> Vec<String> {
        Baseline::all_shipped().map(|b| b.version).collect()
    }

    fn all_shipped() -> impl Iterator<Item = Baseline> {
        [
            SHIPPED,
            CURRENT_SCALE_HUMAN,
            PREVIOUS_HUMAN,
            SELFPLAY,
            SAMPLED,
            PREVIOUS_SAMPLED,
        ]
        .into_iter()
        .map(|text| Baseline::parse(text).expect("a shipped baseline parses (checked by a test)"))
    }

    pub fn parse(text: &str) -> Result<Baseline, String> {
        let b: Baseline =
            serde_json::from_str(text).map_err(|e| format!("not a baseline artefact: {e}"))?;
        if b.buckets.is_empty()
            || b.buckets
                .iter()
                .chain([&b.unrated])
                .any(|k| k.cells.len() != b.gap_classes_cp.len())
        {
            return Err("baseline: every bucket needs one cell per difficulty class".into());
        }
        if b.engine_profile.id() != b.engine_profile_id {
            return Err(format!(
                "baseline {}: recorded profile id {} does not match its profile ({})",
                b.version,
                b.engine_profile_id,
                b.engine_profile.id()
            ));
        }
        Ok(b)
    }

    /// SHA-256 of the artefact's canonical JSON: what results record next to the version.
    pub fn sha256(&self) -> String {
        artefact_sha256(self)
    }

    /// The bucket for a rating (nearest centre, ties to the lower one) and whether the rating
    /// lies within the buckets' span; `None` gives the pooled unrated bucket.
    pub fn bucket(&self, rating: Option<u16>) -> (&Bucket, bool) {
        let Some(r) = rating else {
            return (&self.unrated, false);
        };
        let first = self.buckets.first().expect("non-empty").rating;
        let last = self.buckets.last().expect("non-empty").rating;
        let half = self.buckets.get(1).map_or(100, |b| (b.rating - first) / 2);
        let within = r + half >= first && r <= last + half;
        let best = self
            .buckets
            .iter()
            .min_by_key(|b| (i32::from(b.rating) - i32::from(r)).abs())
            .expect("non-empty");
        (best, within)
    }

    /// A performance's indicators against this baseline: its φ and τ, and the combined
    /// indicator under its correlations when it records them.
    pub fn indicators(&self, tally: &crate::stats::Tally) -> crate::stats::Indicators {
        let mut z = tally.indicators_with(&self.phi_milli, &self.tau);
        if let Some(r) = &self.correlation_milli {
            z.z_combined = crate::stats::standardized_sum(
                &[z.z_mm, z.z_ev, z.z_asd],
                r.as_flattened().iter().map(|&r| i64::from(r)).sum(),
            );
        }
        z
    }

    /// The difficulty class of a best-minus-second gap.
    pub fn class(&self, gap_cp: i32) -> usize {
        self.gap_classes_cp
            .iter()
            .position(|&hi| gap_cp <= hi)
            .unwrap_or(self.gap_classes_cp.len() - 1)
    }
}

/// SHA-256 of an artefact's canonical JSON (the quick and the full baselines alike).
pub(crate) fn artefact_sha256<T: Serialize>(artefact: &T) -> String {
    let text = serde_json::to_string(artefact).expect("a baseline serialises");
    crate::uci::hex(&Sha256::digest(text.as_bytes()))
}
