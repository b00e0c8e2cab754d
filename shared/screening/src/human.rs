//! The quick test's baseline fitted on rated human games, and its calibration report on
//! held-out events (the criteria: docs/src/benchmarks.md).
//!
//! Written by hand on purpose: which games are taken, how the spread between events is
//! estimated and how the report is judged are the method an auditor re-runs, so each is a few
//! lines here rather than a dependency's default.
//!
//! - Selection: classical games only (words in the Event/Site tags and the TimeControl tag),
//!   optionally from a year on, de-duplicated, and per 200-point band of the players' mean
//!   rating a fixed sample: the games whose SHA-256 of White|Black|Date|Event|Round sorts
//!   first. Nothing depends on file order beyond the tie of equal keys (dropped as duplicates).
//! - Fit: each side's counted decisions go to the bucket nearest the mover's rating, per
//!   difficulty class, as the self-play calibration does; φ from three-game pseudo-performances.
//! - Between-event spread τ: DerSimonian–Laird's moment estimate over the training games'
//!   events, so a z-score also counts the uncertainty of a field's level that no number of
//!   decisions averages away (a national scale, an era, the opening fashion of a generation).
//! - Report: on events left out of the fit, per band, the z-scores' mean, spread and tails, and
//!   the Watch rate against the policy's bar for it, in every band holding enough performances
//!   to measure it (thinner bands are named, and stay Provisional).

use crate::baseline::{Baseline, Bucket};
use crate::cache::PositionCache;
use crate::calibrate::{GAP_CLASSES_CP, Sums, bucket_of, class, correlation3, inflation};
use crate::filter::{Counted, FilterConfig};
use crate::pgn::Game;
use crate::policy::{FlagLevel, Policy};
use crate::screen::{Analyser, Ratings, Versions, performances};
use crate::stats::{Phi, Tally, Tau, normal_tail};
use crate::uci::{EngineError, EngineProfile};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::sync::Arc;

/// Words in an Event or Site tag (compared in lower case) that mark a game as not classical:
/// faster time controls, exhibitions, variants, tie-breaks, and online or correspondence series
/// whose tags say nothing else (the weekly titled blitz arena, a correspondence server).
pub const NOT_CLASSICAL: [&str; 28] = [
    "rapid",
    "blitz",
    "bullet",
    "blind",
    "simul",
    "online",
    "960",
    "random",
    "armageddon",
    "lightning",
    "speed",
    "exhib",
    "internet",
    "playoff",
    "play-off",
    "tiebreak",
    "tie-break",
    "active",
    "quick",
    "basque",
    "advanced",
    "freestyle",
    "odds",
    "k.o.",
    "knockout",
    "fast",
    "titled tue",
    "ficgs",
];

/// Which human games a baseline is fitted on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Selection {
    pub classical_only: bool,
    /// Games dated before this year (or undated) are left out.
    pub since: Option<u16>,
    /// At most this many games per 200-point band of the mean rating.
    pub per_band: usize,
    /// Bands from `lowest` to `highest` (their lower ends).
    pub lowest: u16,
    pub highest: u16,
    /// Shorter games are left out (fewer than this many plies).
    pub min_plies: usize,
    /// Put the ratings of games played before 1 March 2024 on the FIDE scale since that day
    /// ([`on_current_fide_scale`]), so that players of old and new events who play alike are
    /// fitted and judged at the same rating. Off in artefacts made before it (not written).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub current_fide_scale: bool,
    /// Files whose ratings are a national federation's, not FIDE's: never adjusted.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub national_scale: Vec<String>,
}

impl Selection {
    /// The game with its ratings on the scale the selection fits on (`file`: its collection's
    /// name, as in `national_scale`).
    pub fn rescaled(&self, file: &str, g: &Game) -> Game {
        if self.current_fide_scale && !self.national_scale.iter().any(|n| n == file) {
            rated_on_current_fide_scale(g)
        } else {
            g.clone()
        }
    }
}

/// The game with both tagged ratings put on the FIDE scale since 1 March 2024.
pub fn rated_on_current_fide_scale(g: &Game) -> Game {
    Game {
        white_elo: g.white_elo.map(|r| on_current_fide_scale(r, g)),
        black_elo: g.black_elo.map(|r| on_current_fide_scale(r, g)),
        ..g.clone()
    }
}

/// Whether a baseline's provenance (`how_made`) says its ratings were put on the FIDE scale
/// since 1 March 2024: then the players of older games are judged on that scale too.
pub fn fitted_on_current_fide_scale(how_made: &serde_json::Value) -> bool {
    selected_on_current_fide_scale(&how_made["sources"])
}

/// The same, read from a calibration's record of its sources (`how_made.sources`).
pub fn selected_on_current_fide_scale(sources: &serde_json::Value) -> bool {
    sources["selection"]["current_fide_scale"].as_bool() == Some(true)
}

/// A FIDE rating of a game played before 1 March 2024 on the scale since that day: FIDE then
/// raised every rating from 1000 to 1999 by 0.4 × (2000 − R) at once, because the ratings below
/// 2000 had drifted under the strength they stood for. Games of that day or later, undated ones
/// and those whose month is unknown in 2024 keep their tags' ratings.
pub fn on_current_fide_scale(rating: u16, g: &Game) -> u16 {
    let month = g
        .date
        .get(5..7)
        .filter(|m| m.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|m| m.parse::<u8>().ok());
    // The day the rating regulations that made the rise came into force (the 1st of a month).
    let from = arbiter_rating::RuleSet::B02_2024.effective_from();
    let before = match year(g).map(i32::from) {
        Some(y) if y < from.year => true,
        Some(y) if y == from.year => month.is_some_and(|m| (1..from.month).contains(&m)),
        _ => false,
    };
    if before {
        arbiter_rating::adjustment_march_2024(rating)
    } else {
        rating
    }
}

/// Classical by its tags: not played on an internet server (a Site whose last word is `INT`,
/// the country code game databases give online play), no word of [`NOT_CLASSICAL`] in Event or
/// Site, and a PGN TimeControl "base+increment", when tagged so, worth at least 60 minutes for
/// 60 moves.
pub fn is_classical(g: &Game) -> bool {
    if g.site.split_whitespace().next_back() == Some("INT") {
        return false;
    }
    let tags = format!("{} {}", g.event, g.site).to_lowercase();
    if NOT_CLASSICAL.iter().any(|w| tags.contains(w)) {
        return false;
    }
    // "G/30", game in 30 minutes, as a word of its own: not the "g/" of "lichess.org/broadcast".
    let b = tags.as_bytes();
    if (0..b.len().saturating_sub(2)).any(|i| {
        b[i] == b'g'
            && b[i + 1] == b'/'
            && b[i + 2].is_ascii_digit()
            && (i == 0 || !b[i - 1].is_ascii_alphanumeric())
    }) {
        return false;
    }
    let mut parts = g.time_control.splitn(2, '+');
    let base = parts.next().and_then(|b| b.parse::<u64>().ok());
    let inc = match parts.next() {
        None => Some(0),
        Some(i) => i.parse::<u64>().ok(),
    };
    match (base, inc) {
        (Some(b), Some(i)) => b + 60 * i >= 3600,
        _ => true,
    }
}

/// The year of the Date tag, when it has one.
pub fn year(g: &Game) -> Option<u16> {
    let y = g.date.get(..4)?;
    if y.bytes().all(|b| b.is_ascii_digit()) {
        y.parse().ok()
    } else {
        None
    }
}

/// What identifies a game across collections: White|Black|Date|Event|Round.
pub fn identity(g: &Game) -> String {
    [&g.white, &g.black, &g.date, &g.event, &g.round]
        .map(|s| s.as_str())
        .join("|")
}

/// A game taken for the fit, with the event it belongs to ("file: event").
#[derive(Debug, Clone)]
pub struct Taken {
    pub event: String,
    pub game: Game,
}

/// What the selection did, for the artefact's provenance.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SelectionCounts {
    pub read: u64,
    pub unrated: u64,
    pub not_classical: u64,
    pub before_since: u64,
    pub outside_bands: u64,
    pub short: u64,
    pub duplicates: u64,
    /// Candidates and games taken per band (lower end).
    pub candidates: BTreeMap<u16, u64>,
    pub taken: BTreeMap<u16, u64>,
}

/// The games of `files` (name, games) that `sel` takes, in band order then key order.
pub fn select(files: &[(String, Vec<Game>)], sel: &Selection) -> (Vec<Taken>, SelectionCounts) {
    let mut counts = SelectionCounts::default();
    let mut seen = HashSet::new();
    let mut bands: BTreeMap<u16, Vec<(String, Taken)>> = BTreeMap::new();
    for (file, games) in files {
        for g in games {
            counts.read += 1;
            let g = &sel.rescaled(file, g);
            let (Some(w), Some(b)) = (g.white_elo, g.black_elo) else {
                counts.unrated += 1;
                continue;
            };
            if sel.classical_only && !is_classical(g) {
                counts.not_classical += 1;
                continue;
            }
            if let Some(since) = sel.since
                && year(g).is_none_or(|y| y < since)
            {
                counts.before_since += 1;
                continue;
            }
            let band = (w / 2 + b / 2) / 200 * 200;
            if band < sel.lowest || band > sel.highest {
                counts.outside_bands += 1;
                continue;
            }
            if g.plies.len() < sel.min_plies {
                counts.short += 1;
                continue;
            }
            let id = identity(g);
            if !seen.insert(id.clone()) {
                counts.duplicates += 1;
                continue;
            }
            let key = crate::uci::hex(&Sha256::digest(id.as_bytes()));
            bands.entry(band).or_default().push((
                key,
                Taken {
                    event: format!("{file}: {}", g.event),
                    game: g.clone(),
                },
            ));
        }
    }
    let mut out = Vec::new();
    for (band, mut cands) in bands {
        counts.candidates.insert(band, cands.len() as u64);
        cands.sort_by(|a, b| a.0.cmp(&b.0));
        cands.truncate(sel.per_band);
        counts.taken.insert(band, cands.len() as u64);
        out.extend(cands.into_iter().map(|(_, t)| t));
    }
    (out, counts)
}

/// A held-out file as events for the report: one event per file, whatever its Event tags say
/// (broadcast exports name each game's chapter there), and the games of a player in it one
/// performance.
pub fn events_of(file: &str, games: Vec<Game>) -> Vec<(String, Vec<Game>)> {
    vec![(file.to_string(), games)]
}

/// Between-group variance of the per-decision residual by DerSimonian and Laird's moment
/// estimator; `groups` gives each group's (decisions, observed − expected, variance) in one
/// unit. The answer is τ in that unit per decision, rounded up.
pub fn dersimonian_laird(groups: &[(u64, f64, f64)]) -> u32 {
    let mut items: Vec<(f64, f64)> = Vec::new(); // (residual per decision, weight)
    for &(n, diff, var) in groups {
        if n == 0 || var <= 0.0 {
            continue;
        }
        let n = n as f64;
        items.push((diff / n, n * n / var));
    }
    if items.len() < 2 {
        return 0;
    }
    let s1: f64 = items.iter().map(|(_, w)| w).sum();
    let s2: f64 = items.iter().map(|(_, w)| w * w).sum();
    let mean = items.iter().map(|(r, w)| r * w).sum::<f64>() / s1;
    let q: f64 = items.iter().map(|(r, w)| w * (r - mean) * (r - mean)).sum();
    let tau2 = (q - (items.len() - 1) as f64) / (s1 - s2 / s1);
    if tau2 <= 0.0 {
        0
    } else {
        libm::ceil(libm::sqrt(tau2)) as u32
    }
}

/// τ per indicator over the tallies of the training events (φ applied to their variances).
pub fn between_events(groups: &[Tally], phi: &Phi) -> Tau {
    let scaled = |v: f64, phi: u32| v * f64::from(phi) / 1000.0;
    let of = |f: &dyn Fn(&Tally) -> (f64, f64)| {
        let rows: Vec<(u64, f64, f64)> = groups
            .iter()
            .map(|t| {
                let (d, v) = f(t);
                (t.n, d, v)
            })
            .collect();
        dersimonian_laird(&rows)
    };
    let rate = |count: u64, exp: u64| count as f64 * 1e6 - exp as f64;
    Tau {
        mm_ppm: of(&|t| {
            (
                rate(t.mm, t.exp_mm_ppm),
                scaled(t.var_mm_ppm2 as f64, phi.mm),
            )
        }),
        ev_ppm: of(&|t| {
            (
                rate(t.ev, t.exp_ev_ppm),
                scaled(t.var_ev_ppm2 as f64, phi.ev),
            )
        }),
        t3_ppm: of(&|t| {
            (
                rate(t.t3, t.exp_t3_ppm),
                scaled(t.var_t3_ppm2 as f64, phi.t3),
            )
        }),
        asd_e4: of(&|t| {
            (
                (t.exp_delta_e4 - t.delta_sum_e4) as f64,
                scaled(t.var_delta_e8 as f64, phi.asd),
            )
        }),
    }
}

/// Moments and tails of one indicator's z over a set of performances (hundredths; counts).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Moments {
    pub mean_e2: i32,
    pub sd_e2: i32,
    pub at_least_2: u32,
    pub at_least_3: u32,
    pub at_least_4: u32,
}

fn moments(zs: &[i32]) -> Moments {
    if zs.is_empty() {
        return Moments::default();
    }
    let n = zs.len() as f64;
    let mean = zs.iter().map(|&z| f64::from(z)).sum::<f64>() / n;
    let var = zs
        .iter()
        .map(|&z| (f64::from(z) - mean).powi(2))
        .sum::<f64>()
        / n;
    let over = |t: i32| zs.iter().filter(|&&z| z >= t).count() as u32;
    Moments {
        mean_e2: libm::round(mean) as i32,
        sd_e2: libm::round(libm::sqrt(var)) as i32,
        at_least_2: over(200),
        at_least_3: over(300),
        at_least_4: over(400),
    }
}

/// One row of the report: the held-out performances of a band (or all of them).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportRow {
    /// "1400-1599", or "all".
    pub band: String,
    pub performances: u32,
    pub decisions: u64,
    pub z_mm: Moments,
    pub z_ev: Moments,
    pub z_t3: Moments,
    pub z_asd: Moments,
    pub z_combined: Moments,
    /// Performances the policy would raise to Watch (or higher).
    pub watch: u32,
    /// Performances whose combined z reaches Flag's level. On a quick test this is not a Flag
    /// (that needs the full test): it shows how often the same z arises in clean play.
    #[serde(default)]
    pub at_flag_z: u32,
    /// Performances whose combined z reaches FIDE's lower official threshold (online, 4.25).
    #[serde(default)]
    pub at_official_z: u32,
    /// Performances the policy would raise to Flag (or higher): only a full-test report
    /// judged as if its baseline were Production has any.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub flag: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A band's Watch rate is judged only on at least this many held-out performances: below it,
/// one chance hit moves the rate by more than the bar's margin over the nominal rate.
pub const MIN_BAND_PERFORMANCES: u32 = 100;

/// The calibration report on held-out events.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    pub held_out_events: Vec<String>,
    /// Only performances with at least this many counted decisions (the policy's minimum for
    /// any flag) are judged.
    pub min_counted: u64,
    /// The Watch rate the policy allows (reports made before the policy stated bars call it
    /// the nominal rate).
    #[serde(alias = "nominal_watch_per_mille")]
    pub watch_bar_per_mille: u32,
    /// The Flag rate the policy allows (reports made before it was recorded: 0).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub flag_bar_per_mille: u32,
    pub rows: Vec<ReportRow>,
    /// Bands with fewer than [`MIN_BAND_PERFORMANCES`] performances: their rate is shown but
    /// not judged, so they stay Provisional.
    #[serde(default)]
    pub thin_bands: Vec<String>,
    pub all: ReportRow,
    /// The same performances grouped by collection, time-control tagging and era
    /// ([`strata_of`]): shown to decide what the baseline should be conditioned on, not judged.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub strata: Vec<ReportRow>,
    /// Every criterion that failed; empty when the report passes.
    pub failures: Vec<String>,
}

impl Report {
    pub fn passes(&self) -> bool {
        self.failures.is_empty()
    }

    /// The report as a table: per band, performances, Watch rate and each z's mean, standard
    /// deviation and count at 2 or more; then the verdict.
    pub fn table(&self) -> String {
        use std::fmt::Write;
        let mut out = format!(
            "calibration report on {} held-out events (performances with >= {} counted decisions; Watch allowed at {} per mille; z>=flag and z>=FIDE count combined z at the policy's Flag level and at FIDE's online threshold, Flag itself needing the full test):\n{:<10} {:>5} {:>7} {:>9} {:>7} {:>7}  {:>17} {:>17} {:>17} {:>17}\n",
            self.held_out_events.len(),
            self.min_counted,
            self.watch_bar_per_mille,
            "band",
            "perfs",
            "watch",
            "watch/1000",
            "z>=flag",
            "z>=FIDE",
            "z_mm mean/sd/>=2",
            "z_ev",
            "z_asd",
            "combined"
        );
        let m = |m: &Moments| {
            format!(
                "{:+.2}/{:.2}/{}",
                f64::from(m.mean_e2) / 100.0,
                f64::from(m.sd_e2) / 100.0,
                m.at_least_2
            )
        };
        for row in self.rows.iter().chain([&self.all]) {
            let _ = writeln!(
                out,
                "{:<10} {:>5} {:>7} {:>9.1} {:>7} {:>7}  {:>17} {:>17} {:>17} {:>17}",
                row.band,
                row.performances,
                row.watch,
                f64::from(row.watch) * 1000.0 / f64::from(row.performances.max(1)),
                row.at_flag_z,
                row.at_official_z,
                m(&row.z_mm),
                m(&row.z_ev),
                m(&row.z_asd),
                m(&row.z_combined)
            );
        }
        if !self.thin_bands.is_empty() {
            let _ = writeln!(
                out,
                "not judged, under {MIN_BAND_PERFORMANCES} performances (Provisional): {}",
                self.thin_bands.join(", ")
            );
        }
        if self.passes() {
            out.push_str("the report passes the calibration criteria\n");
        }
        for f in &self.failures {
            let _ = writeln!(out, "fails: {f}");
        }
        if !self.strata.is_empty() {
            let _ = writeln!(
                out,
                "by stratum (shown, not judged; se = the mean's standard error):\n{:<60} {:>5} {:>5}  {:>17} {:>6}",
                "stratum", "perfs", "watch", "combined", "se"
            );
        }
        for row in &self.strata {
            let sd = f64::from(row.z_combined.sd_e2) / 100.0;
            let _ = writeln!(
                out,
                "{:<60} {:>5} {:>5}  {:>17} {:>6.2}",
                row.band,
                row.performances,
                row.watch,
                m(&row.z_combined),
                sd / f64::from(row.performances.max(1)).sqrt()
            );
        }
        out
    }
}

/// One judged performance: counted decisions, indicators, level.
pub type Judged = (u64, crate::stats::Indicators, FlagLevel);

fn row(band: String, perfs: &[Judged], policy: &Policy) -> ReportRow {
    let col = |f: &dyn Fn(&crate::stats::Indicators) -> i32| {
        moments(&perfs.iter().map(|(_, z, _)| f(z)).collect::<Vec<_>>())
    };
    ReportRow {
        band,
        performances: perfs.len() as u32,
        decisions: perfs.iter().map(|(n, _, _)| n).sum(),
        z_mm: col(&|z| z.z_mm),
        z_ev: col(&|z| z.z_ev),
        z_t3: col(&|z| z.z_t3),
        z_asd: col(&|z| z.z_asd),
        z_combined: col(&|z| z.z_combined),
        watch: perfs
            .iter()
            .filter(|(_, _, l)| *l >= FlagLevel::Watch)
            .count() as u32,
        at_flag_z: perfs
            .iter()
            .filter(|(_, z, _)| z.z_combined >= policy.flag)
            .count() as u32,
        at_official_z: perfs
            .iter()
            .filter(|(_, z, _)| z.z_combined >= policy.official_online)
            .count() as u32,
        flag: perfs
            .iter()
            .filter(|(_, _, l)| *l >= FlagLevel::Flag)
            .count() as u32,
    }
}

/// The calibration criteria on the pooled held-out performances, for each single indicator: mean
/// within ±0.10, standard deviation within 0.90-1.10, the share at 2 or more within a factor
/// 2 of the normal tail, and at 3 or more no more than twice the normal tail (from below only
/// where at least 5 are expected: a few hundred performances cannot show a 0.13 % tail). Per
/// band of at least [`MIN_BAND_PERFORMANCES`] performances and over all of them, the Watch rate
/// at or below the policy's bar; no performance at FIDE's official threshold.
fn judge(report: &mut Report) {
    let all = report.all.clone();
    let n = f64::from(all.performances);
    if all.performances == 0 {
        report.failures.push("no held-out performance".into());
        return;
    }
    for (name, m) in [
        ("z_mm", &all.z_mm),
        ("z_ev", &all.z_ev),
        ("z_t3", &all.z_t3),
        ("z_asd", &all.z_asd),
    ] {
        if m.mean_e2.abs() > 10 {
            report.failures.push(format!(
                "{name}: mean {:.2} outside ±0.10",
                f64::from(m.mean_e2) / 100.0
            ));
        }
        if !(90..=110).contains(&m.sd_e2) {
            report.failures.push(format!(
                "{name}: standard deviation {:.2} outside 0.90-1.10",
                f64::from(m.sd_e2) / 100.0
            ));
        }
        for (t, count) in [(2.0, m.at_least_2), (3.0, m.at_least_3)] {
            let expected = n * normal_tail(t);
            let seen = f64::from(count);
            if seen > 2.0 * expected.max(0.5) || (expected >= 5.0 && seen < expected / 2.0) {
                report.failures.push(format!(
                    "{name}: {count} of {} at {t:.0} or more, against {expected:.1} expected",
                    all.performances
                ));
            }
        }
    }
    report.thin_bands = report
        .rows
        .iter()
        .filter(|r| r.performances < MIN_BAND_PERFORMANCES)
        .map(|r| r.band.clone())
        .collect();
    for r in report
        .rows
        .iter()
        .filter(|r| r.performances >= MIN_BAND_PERFORMANCES)
        .chain([&all])
    {
        if u64::from(r.watch) * 1000
            > u64::from(report.watch_bar_per_mille) * u64::from(r.performances)
        {
            report.failures.push(format!(
                "band {}: {} of {} performances raise Watch, above the allowed {} per mille",
                r.band, r.watch, r.performances, report.watch_bar_per_mille
            ));
        }
    }
    for r in report
        .rows
        .iter()
        .filter(|r| r.performances >= MIN_BAND_PERFORMANCES)
        .chain([&all])
        .filter(|r| r.flag > 0)
    {
        if u64::from(r.flag) * 1000
            > u64::from(report.flag_bar_per_mille) * u64::from(r.performances)
        {
            report.failures.push(format!(
                "band {}: {} of {} performances raise Flag, above the allowed {} per mille",
                r.band, r.flag, r.performances, report.flag_bar_per_mille
            ));
        }
    }
    if all.at_official_z > 0 {
        report.failures.push(format!(
            "{} clean performances reach FIDE's official threshold",
            all.at_official_z
        ));
    }
}

/// The report of `baseline` on `events` (each analysed in `decisions`), judged by `policy`.
pub fn report(
    baseline: &Baseline,
    policy: &Policy,
    binary_sha256: &str,
    events: &[(String, Vec<Game>)],
    decisions: &[Vec<Vec<crate::filter::Decision>>],
) -> Report {
    held_report(
        events.iter().map(|(n, _)| n.clone()).collect(),
        policy,
        &judged(baseline, policy, binary_sha256, events, decisions),
    )
}

/// The quick test's report on held-out performances: per band and over all (judged), and per
/// stratum ([`strata_of`], in name order; shown only).
pub(crate) fn held_report(events: Vec<String>, policy: &Policy, held: &[HeldOut]) -> Report {
    let mut report = report_of(
        events,
        policy,
        held.iter().map(|h| (h.band, h.judged)).collect(),
        false,
    );
    let mut by: BTreeMap<&str, Vec<Judged>> = BTreeMap::new();
    for h in held {
        for s in &h.strata {
            by.entry(s).or_default().push(h.judged);
        }
    }
    report.strata = by
        .into_iter()
        .map(|(s, ps)| row(s.to_string(), &ps, policy))
        .collect();
    report
}

/// A held-out performance as judged: its event, the player's name as in the games, the
/// lower end of its rating band, and the judgement.
#[derive(Debug, Clone)]
pub struct HeldOut {
    pub event: String,
    pub player: String,
    pub band: u16,
    pub judged: Judged,
    /// What the performance is grouped by beside its band ([`strata_of`]).
    pub strata: Vec<String>,
}

/// The groups a held-out event's performances fall in beside the rating band, to measure
/// whether the baseline should be conditioned on them: the collection (its file, which also
/// fixes the rating scale the source uses), whether a game's TimeControl tag states a control
/// or the event is classical by default (no tag, "?" or "-"), and the era of its date.
pub fn strata_of(event: &str, games: &[Game]) -> Vec<String> {
    let file = event.split_once(": ").map_or(event, |(f, _)| f);
    let tagged = games
        .iter()
        .any(|g| !matches!(g.time_control.trim(), "" | "?" | "-"));
    let era = match games.iter().find_map(year) {
        None => "undated",
        Some(y) if y < 2015 => "before 2015",
        Some(y) if y < 2022 => "2015-2021",
        Some(_) => "2022 and later",
    };
    vec![
        format!("collection: {file}"),
        format!(
            "time control: {}",
            if tagged {
                "tagged"
            } else {
                "classical by default"
            }
        ),
        format!("era: {era}"),
    ]
}

/// Every rated player's whole performance in each of `events` with enough counted decisions,
/// judged against `baseline`.
fn judged(
    baseline: &Baseline,
    policy: &Policy,
    binary_sha256: &str,
    events: &[(String, Vec<Game>)],
    decisions: &[Vec<Vec<crate::filter::Decision>>],
) -> Vec<HeldOut> {
    let versions = Versions::new(baseline, policy, binary_sha256);
    let mut out = Vec::new();
    for ((event, games), ds) in events.iter().zip(decisions) {
        let strata = strata_of(event, games);
        for p in performances(games, ds, &Ratings::new(), baseline, policy, &versions) {
            let Some(r) = p.rating else { continue };
            if p.counted < policy.min_counted_decisions {
                continue;
            }
            out.push(HeldOut {
                event: event.clone(),
                player: p.player,
                band: r / 200 * 200,
                judged: (p.counted, p.indicators, p.level),
                strata: strata.clone(),
            });
        }
    }
    out
}

/// The report on judged performances, per band and over all.
/// A full-test report (`full`) also states and checks the Flag bar.
pub(crate) fn report_of(
    events: Vec<String>,
    policy: &Policy,
    items: Vec<(u16, Judged)>,
    full: bool,
) -> Report {
    let mut by_band: BTreeMap<u16, Vec<Judged>> = BTreeMap::new();
    for &(band, item) in &items {
        by_band.entry(band).or_default().push(item);
    }
    let every: Vec<Judged> = items.into_iter().map(|(_, item)| item).collect();
    let mut report = Report {
        held_out_events: events,
        min_counted: policy.min_counted_decisions,
        watch_bar_per_mille: policy.watch_bar_per_mille,
        flag_bar_per_mille: if full { policy.flag_bar_per_mille } else { 0 },
        rows: by_band
            .iter()
            .map(|(b, ps)| row(format!("{b}-{}", b + 199), ps, policy))
            .collect(),
        all: row("all".into(), &every, policy),
        strata: Vec::new(),
        thin_bands: Vec::new(),
        failures: Vec::new(),
    };
    judge(&mut report);
    report
}

/// A fitted baseline, its report on the held-out events, and (when asked) its
/// leave-events-out report.
pub struct Fitted {
    pub baseline: Baseline,
    pub report: Report,
    pub leave_events_out: Option<Report>,
}

/// What a fit on analysed games gives: the buckets, φ, τ and what they rest on.
struct Fit {
    buckets: Vec<Bucket>,
    unrated: Bucket,
    phi_milli: Phi,
    correlation_milli: [[i32; 3]; 3],
    tau: Tau,
    events: usize,
    pseudo: usize,
}

impl Fit {
    /// `template` with this fit's buckets, φ and τ. Not its provenance: that says how the
    /// template was made, and would have its rating scale applied again to games already put
    /// on it ([`crate::screen::on_baseline_scale`]).
    fn into_baseline(self, template: &Baseline) -> Baseline {
        Baseline {
            buckets: self.buckets,
            unrated: self.unrated,
            phi_milli: self.phi_milli,
            tau: self.tau,
            correlation_milli: Some(self.correlation_milli),
            how_made: serde_json::Value::Null,
            ..template.clone()
        }
    }
}

/// The bucket of `ratings` (centres, ascending) whose centre is within half a bucket of `r`.
pub(crate) fn nearest_bucket(ratings: &[u16], r: u16) -> Option<usize> {
    let half = ratings
        .windows(2)
        .map(|w| (w[1] - w[0]) / 2)
        .min()
        .unwrap_or(100);
    ratings.iter().position(|&c| r + half >= c && r < c + half)
}

/// Fits the quick baseline's parts on `train` (each game with its decisions): each side's
/// counted decisions in the bucket nearest the mover's rating, per difficulty class; φ from
/// pseudo-performances of three game-sides of one bucket; τ between the training events.
fn fit(ratings: &[u16], train: &[(&Taken, &Vec<crate::filter::Decision>)]) -> Fit {
    let bucket_of_rating = |r: Option<u16>| nearest_bucket(ratings, r?);
    // Each game-side's counted decisions with its bucket and event, in selection order.
    let mut sides: Vec<(usize, &str, Vec<Counted>)> = Vec::new();
    let mut games_per = vec![0u32; ratings.len()];
    for (t, ds) in train {
        for (elo, white) in [(t.game.white_elo, true), (t.game.black_elo, false)] {
            let Some(b) = bucket_of_rating(elo) else {
                continue;
            };
            games_per[b] += 1;
            let own = ds
                .iter()
                .filter(|d| d.white == white)
                .filter_map(|d| d.counted)
                .collect();
            sides.push((b, &t.event, own));
        }
    }
    let mut all = vec![Sums::default(); GAP_CLASSES_CP.len()];
    let mut per_bucket = vec![vec![Sums::default(); GAP_CLASSES_CP.len()]; ratings.len()];
    for (b, _, own) in &sides {
        for c in own {
            per_bucket[*b][class(c.gap_cp)].add(c);
            all[class(c.gap_cp)].add(c);
        }
    }
    let buckets: Vec<Bucket> = per_bucket
        .iter()
        .enumerate()
        .map(|(b, sums)| bucket_of(ratings[b], games_per[b], sums))
        .collect();
    let unrated = bucket_of(0, games_per.iter().sum(), &all);
    let tally_of = |b: usize, own: &[Counted], t: &mut Tally| {
        for c in own {
            t.add(c, &buckets[b].cells[class(c.gap_cp)].expect);
        }
    };
    // φ: pseudo-performances of three consecutive game-sides of one bucket.
    let mut pseudo = Vec::new();
    for b in 0..ratings.len() {
        let own: Vec<&Vec<Counted>> = sides.iter().filter(|s| s.0 == b).map(|s| &s.2).collect();
        for chunk in own.chunks(3).filter(|c| c.len() == 3) {
            let mut t = Tally::default();
            chunk.iter().for_each(|o| tally_of(b, o, &mut t));
            pseudo.push(t);
        }
    }
    let phi_milli = inflation(&pseudo);
    let correlation_milli = correlation3(&pseudo);
    // τ: one tally per training event.
    let mut per_event: BTreeMap<&str, Tally> = BTreeMap::new();
    for (b, event, own) in &sides {
        tally_of(*b, own, per_event.entry(event).or_default());
    }
    let event_tallies: Vec<Tally> = per_event.values().copied().collect();
    let tau = between_events(&event_tallies, &phi_milli);
    Fit {
        buckets,
        unrated,
        phi_milli,
        correlation_milli,
        tau,
        events: event_tallies.len(),
        pseudo: pseudo.len(),
    }
}

/// The fold of an event among `folds`: from its name's SHA-256, so an event is never split
/// and the folds do not depend on the order of the files.
pub(crate) fn fold_of(event: &str, folds: usize) -> usize {
    let d = Sha256::digest(event.as_bytes());
    (u64::from_be_bytes(d[..8].try_into().expect("8 bytes")) % folds as u64) as usize
}

/// Leave-events-out cross-validation: the events of `taken` are dealt into `folds` folds
/// ([`fold_of`]), and every event is judged by a baseline fitted, as `template` was, on the
/// games of the other folds only; one report over all the judged performances.
pub fn leave_events_out(
    template: &Baseline,
    ratings: &[u16],
    policy: &Policy,
    binary_sha256: &str,
    taken: &[Taken],
    analysed: &[Vec<crate::filter::Decision>],
    folds: usize,
) -> Report {
    let (names, held) = leave_events_out_judged(
        template,
        ratings,
        policy,
        binary_sha256,
        taken,
        analysed,
        folds,
    );
    held_report(names, policy, &held)
}

/// [`leave_events_out`]'s held-out events (sorted) and every performance it judges.
pub fn leave_events_out_judged(
    template: &Baseline,
    ratings: &[u16],
    policy: &Policy,
    binary_sha256: &str,
    taken: &[Taken],
    analysed: &[Vec<crate::filter::Decision>],
    folds: usize,
) -> (Vec<String>, Vec<HeldOut>) {
    let folds = folds.max(2);
    let mut names = Vec::new();
    let mut items = Vec::new();
    for k in 0..folds {
        let train: Vec<(&Taken, &Vec<crate::filter::Decision>)> = taken
            .iter()
            .zip(analysed)
            .filter(|(t, _)| fold_of(&t.event, folds) != k)
            .collect();
        let mut held: BTreeMap<&str, (Vec<Game>, Vec<Vec<crate::filter::Decision>>)> =
            BTreeMap::new();
        for (t, ds) in taken.iter().zip(analysed) {
            if fold_of(&t.event, folds) == k {
                let e = held.entry(&t.event).or_default();
                e.0.push(t.game.clone());
                e.1.push(ds.clone());
            }
        }
        if held.is_empty() {
            continue;
        }
        let baseline = fit(ratings, &train).into_baseline(template);
        let (events, decisions): (Vec<(String, Vec<Game>)>, Vec<_>) = held
            .into_iter()
            .map(|(name, (games, ds))| ((name.to_string(), games), ds))
            .unzip();
        names.extend(events.iter().map(|(n, _)| n.clone()));
        items.extend(judged(
            &baseline,
            policy,
            binary_sha256,
            &events,
            &decisions,
        ));
    }
    names.sort();
    (names, items)
}

/// Fits the quick baseline on `train` and reports on `held_out`, and, when `folds` is not
/// zero, on `train` itself by leave-events-out cross-validation ([`leave_events_out`]); without
/// held-out events that report is the calibration report.
/// `sources` (files, SHA-256, the selection) is recorded in the artefact; the games are not.
/// The reports are written into the artefact's provenance, so its hash covers them.
#[allow(clippy::too_many_arguments)]
pub async fn calibrate_human(
    engine: &Path,
    profile: EngineProfile,
    filter: FilterConfig,
    ratings: &[u16],
    train: &[Taken],
    held_out: &[(String, Vec<Game>)],
    folds: usize,
    workers: usize,
    cache: Arc<PositionCache>,
    version: &str,
    sources: serde_json::Value,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<Fitted, EngineError> {
    let analyser = Analyser::start(engine, profile.clone(), filter.clone(), workers, cache).await?;
    let binary = analyser.binary_sha256().to_string();
    let total = train.len() + held_out.iter().map(|(_, g)| g.len()).sum::<usize>();
    let done = std::sync::atomic::AtomicUsize::new(0);
    let tick = || {
        progress(
            done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1,
            total,
        )
    };
    let games: Vec<Game> = train.iter().map(|t| t.game.clone()).collect();
    let analysed = analyser.games(&games, &tick).await?;
    let mut held_decisions = Vec::new();
    for (_, gs) in held_out {
        held_decisions.push(analyser.games(gs, &tick).await?);
    }

    let pairs: Vec<(&Taken, &Vec<crate::filter::Decision>)> = train.iter().zip(&analysed).collect();
    let parts = fit(ratings, &pairs);
    let mut baseline = Baseline {
        format: 1,
        version: version.to_string(),
        quality: "Provisional".into(),
        what_it_is: "Expected engine-agreement rates and scaled losses of rated human players in classical games, per rating bucket and difficulty class, fitted on public game collections, with the spread of a field's level between events".into(),
        what_it_is_not: "Not a Production baseline: its buckets hold far fewer than 300 reference performances, from collections that mix events and eras (how_made names them, and the rating scale their ratings were read on); every result judged against it is Provisional (Watch flags at most). Its calibration report (on held-out events, or every training event judged by a baseline fitted without it) is in how_made".into(),
        how_made: serde_json::Value::Null,
        engine_profile_id: profile.id(),
        engine_profile: profile,
        engine_binary_sha256: binary.clone(),
        filter,
        gap_classes_cp: GAP_CLASSES_CP.to_vec(),
        phi_milli: parts.phi_milli,
        tau: parts.tau,
        correlation_milli: Some(parts.correlation_milli),
        buckets: parts.buckets,
        unrated: parts.unrated,
    };
    let policy = Policy::shipped();
    let cross = (folds > 0).then(|| {
        leave_events_out(
            &baseline, ratings, &policy, &binary, train, &analysed, folds,
        )
    });
    // Without held-out files the leave-events-out report is the calibration report.
    let report = match &cross {
        Some(r) if held_out.is_empty() => r.clone(),
        _ => report(&baseline, &policy, &binary, held_out, &held_decisions),
    };
    baseline.how_made = serde_json::json!({
        "method": "human games (selection below) analysed with the engine profile below; each side's counted decisions tallied in the bucket nearest the mover's rating (within half a bucket) and per difficulty class; cells with fewer than 30 decisions take the bucket's pooled values; phi = mean square of the z's of pseudo-performances of three consecutive game-sides of one bucket (floored at 1); correlation_milli = Pearson correlations of their z_MM, z_EV and z_ASD, so that the combined indicator is their sum over sqrt(sum of R); tau = DerSimonian-Laird between-event spread of the per-decision residuals over the training events (file and Event tag), with phi applied; z = (observed - expected) / sqrt(phi * binomial variance + (tau * decisions)^2)",
        "sources": sources,
        "games": train.len(),
        "training_events": parts.events,
        "performances_for_phi": parts.pseudo,
        "calibration_report": report,
        "calibration_report_passes": report.passes(),
        "leave_events_out": cross.as_ref().map(|r| serde_json::json!({
            "folds": folds.max(2),
            "method": "the training events dealt into folds by the SHA-256 of their names; each fold's events judged by a baseline fitted the same way on the other folds' games",
            "report": r,
            "passes": r.passes(),
        })),
    });
    Ok(Fitted {
        baseline,
        report,
        leave_events_out: cross,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::filter::Decision;

    fn game(event: &str, tc: &str, date: &str) -> Game {
        let text = format!(
            "[Event \"{event}\"]\n[Site \"?\"]\n[Date \"{date}\"]\n[White \"A\"]\n[Black \"B\"]\n[WhiteElo \"2000\"]\n[BlackElo \"2010\"]\n[TimeControl \"{tc}\"]\n[Result \"*\"]\n\n1. e4 e5 *\n"
        );
        crate::pgn::parse(text.as_bytes(), "t", 1 << 20)
            .expect("a test game parses")
            .remove(0)
    }

    /// A synthetic event of four players who meet each other twice (12 games), every player
    /// with 25 counted decisions a game; `engine` players always find the best move, the
    /// others match as often as a draw of `seed` says.
    fn synthetic_event(name: &str, engine: bool, seed: u64) -> Vec<(Taken, Vec<Decision>)> {
        let mut state = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mut draw = move |per_mille: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % 1000 < per_mille
        };
        let players = ["A", "B", "C", "D"].map(|p| format!("{name} {p}"));
        let mut out = Vec::new();
        for round in 0..2 {
            for (i, w) in players.iter().enumerate() {
                for b in &players[i + 1..] {
                    let (w, b) = if round == 0 { (w, b) } else { (b, w) };
                    let text = format!(
                        "[Event \"{name}\"]\n[Site \"?\"]\n[Date \"2024.01.01\"]\n[Round \"{round}\"]\n[White \"{w}\"]\n[Black \"{b}\"]\n[WhiteElo \"2000\"]\n[BlackElo \"2000\"]\n[Result \"*\"]\n\n1. e4 e5 *\n"
                    );
                    let game = crate::pgn::parse(text.as_bytes(), "t", 1 << 20)
                        .expect("a test game parses")
                        .remove(0);
                    let decisions = (0..50)
                        .map(|k| {
                            let gap_cp = [0, 20, 60, 150, 400][k % 5];
                            let mm = engine || draw(450);
                            let t3 = mm || draw(700);
                            let cpl = if mm { 0 } else { 20 + (k as i32 % 7) * 15 };
                            Decision {
                                ply: 17 + k,
                                white: k % 2 == 0,
                                counted: Some(Counted {
                                    mm,
                                    ev: mm,
                                    t3,
                                    cpl,
                                    delta_e4: i64::from(cpl) * 80,
                                    gap_cp,
                                }),
                                skipped: None,
                                wide: None,
                            }
                        })
                        .collect();
                    out.push((
                        Taken {
                            event: format!("t.pgn: {name}"),
                            game,
                        },
                        decisions,
                    ));
                }
            }
        }
        out
    }

    /// Every event is judged once, by a baseline fitted without it: an event of engine players
    /// among clean ones raises Watch for all four, with higher z-scores than a baseline that had
    /// seen them gives.
    #[test]
    fn leave_events_out_judges_every_event_by_a_baseline_fitted_without_it() {
        let mut data = Vec::new();
        for e in 0..12 {
            data.extend(synthetic_event(&format!("Open {e}"), false, e));
        }
        data.extend(synthetic_event("Engines", true, 99));
        let (taken, analysed): (Vec<Taken>, Vec<Vec<Decision>>) = data.into_iter().unzip();
        let ratings = [1800, 2000, 2200];
        let policy = Policy::shipped();
        let template = Baseline::shipped();
        let cross = leave_events_out(&template, &ratings, &policy, "x", &taken, &analysed, 4);
        let mut events: Vec<String> = taken.iter().map(|t| t.event.clone()).collect();
        events.dedup();
        events.sort();
        assert_eq!(cross.held_out_events, events);
        assert_eq!(cross.all.performances, 13 * 4);

        // The engine players, judged by each route.
        let engines: Vec<usize> = (0..taken.len())
            .filter(|&i| taken[i].event.ends_with("Engines"))
            .collect();
        let held = vec![(
            "Engines".to_string(),
            engines
                .iter()
                .map(|&i| taken[i].game.clone())
                .collect::<Vec<_>>(),
        )];
        let held_decisions = vec![engines.iter().map(|&i| analysed[i].clone()).collect()];
        let all: Vec<(&Taken, &Vec<Decision>)> = taken.iter().zip(&analysed).collect();
        let seen = fit(&ratings, &all).into_baseline(&template);
        let in_sample = report(&seen, &policy, "x", &held, &held_decisions);
        let fold = fold_of("t.pgn: Engines", 4);
        let without: Vec<(&Taken, &Vec<Decision>)> = taken
            .iter()
            .zip(&analysed)
            .filter(|(t, _)| fold_of(&t.event, 4) != fold)
            .collect();
        let unseen = fit(&ratings, &without).into_baseline(&template);
        let held_out = report(&unseen, &policy, "x", &held, &held_decisions);
        assert_eq!(held_out.all.watch, 4, "{}", held_out.table());
        assert!(
            held_out.all.z_combined.mean_e2 > in_sample.all.z_combined.mean_e2,
            "{}\n{}",
            held_out.table(),
            in_sample.table()
        );
        // The pooled report holds the engine players' held-out judgement.
        assert!(cross.all.watch >= 4, "{}", cross.table());
        assert!(cross.all.at_official_z >= 4 || cross.all.at_flag_z >= 4);
        // Each grouping of the strata holds every performance once.
        for group in ["collection: ", "time control: ", "era: "] {
            let rows: Vec<&ReportRow> = cross
                .strata
                .iter()
                .filter(|r| r.band.starts_with(group))
                .collect();
            assert!(!rows.is_empty(), "{group}: {}", cross.table());
            assert_eq!(
                rows.iter().map(|r| r.performances).sum::<u32>(),
                cross.all.performances,
                "{group}: {}",
                cross.table()
            );
            assert_eq!(rows.iter().map(|r| r.watch).sum::<u32>(), cross.all.watch);
        }
        assert!(cross.table().contains("collection: t.pgn"));
    }

    #[test]
    fn a_performance_is_grouped_by_collection_time_control_tagging_and_era() {
        let club = [
            game("Club", "?", "2012.03.01"),
            game("Club", "", "2013.03.01"),
        ];
        assert_eq!(
            strata_of("club.pgn: Club", &club),
            [
                "collection: club.pgn",
                "time control: classical by default",
                "era: before 2015"
            ]
        );
        let open = [
            game("Open", "?", "2023.05.01"),
            game("Open", "40/7200:3600", "2023.05.02"),
        ];
        assert_eq!(
            strata_of("open.pgn", &open),
            [
                "collection: open.pgn",
                "time control: tagged",
                "era: 2022 and later"
            ]
        );
        assert_eq!(
            strata_of("x.pgn: A: B", &[game("A: B", "5400+30", "2019.??.??")])[..],
            [
                "collection: x.pgn",
                "time control: tagged",
                "era: 2015-2021"
            ]
        );
    }

    #[test]
    fn classical_is_read_from_the_tags() {
        assert!(is_classical(&game("Open A", "?", "2020.01.01")));
        assert!(is_classical(&game("Open A", "5400+30", "2020.01.01")));
        assert!(is_classical(&game("Open A", "40/7200:3600", "2020.01.01")));
        assert!(!is_classical(&game("World Rapid", "?", "2020.01.01")));
        assert!(!is_classical(&game("Club night", "900+10", "2020.01.01")));
        assert!(!is_classical(&game("Open A", "180+2", "2020.01.01")));
        // Online play, told by the Site's country code or by the series' name alone.
        let online = |event: &str, site: &str| Game {
            site: site.into(),
            ..game(event, "?", "2020.05.26")
        };
        assert!(!is_classical(&online("Titled Tuesday 26th May", "?")));
        assert!(!is_classical(&online("Open A", "chess.com INT")));
        assert!(!is_classical(&online("FICGS__CHESS__CLASS_M", "FICGS")));
        assert!(is_classical(&online("Interzonal", "Biel SUI")));
        assert!(!is_classical(&online("Club G/30", "?")));
        assert!(is_classical(&online(
            "FIDE Grand Swiss",
            "https://lichess.org/broadcast/fide-grand-swiss-2025--open/round-9"
        )));
        assert_eq!(year(&game("x", "?", "2019.??.??")), Some(2019));
        assert_eq!(year(&game("x", "?", "????.??.??")), None);
    }

    #[test]
    fn selection_samples_by_key_and_drops_duplicates() {
        let mut games = Vec::new();
        for i in 0..10 {
            let mut g = game(&format!("Open {i}"), "?", "2021.05.01");
            g.plies = std::iter::repeat_n(g.plies[0].clone(), 40).collect();
            games.push(g);
        }
        let twice = games[3].clone();
        let sel = Selection {
            classical_only: true,
            since: Some(2000),
            per_band: 4,
            lowest: 1400,
            highest: 2800,
            min_plies: 40,
            current_fide_scale: false,
            national_scale: Vec::new(),
        };
        let files = vec![
            ("a.pgn".to_string(), games.clone()),
            ("b.pgn".to_string(), vec![twice]),
        ];
        let (taken, counts) = select(&files, &sel);
        assert_eq!(counts.duplicates, 1);
        assert_eq!(counts.candidates.get(&2000), Some(&10));
        assert_eq!(taken.len(), 4);
        // The same games whatever the order of the files' games.
        let mut reversed = games;
        reversed.reverse();
        let (again, _) = select(&[("a.pgn".to_string(), reversed)], &sel);
        let ids = |v: &[Taken]| v.iter().map(|t| identity(&t.game)).collect::<Vec<_>>();
        assert_eq!(ids(&taken), ids(&again));
        let (old, c) = select(
            &files,
            &Selection {
                since: Some(2022),
                ..sel
            },
        );
        assert!(old.is_empty());
        assert_eq!(c.before_since, 11);
    }

    #[test]
    fn ratings_before_march_2024_are_put_on_the_fide_scale_of_that_day_unless_national() {
        let rated = |date: &str, r: u16| {
            let mut g = game("Open", "?", date);
            g.white_elo = Some(r);
            g
        };
        // 0.4 × (2000 − 1600) = 160 more, for games known to be before 1 March 2024.
        for date in ["2022.07.29", "2024.02.29", "2023.??.??"] {
            assert_eq!(
                on_current_fide_scale(1600, &rated(date, 1600)),
                1760,
                "{date}"
            );
        }
        for date in ["2024.03.01", "2025.01.10", "2024.??.??", "????.??.??"] {
            assert_eq!(
                on_current_fide_scale(1600, &rated(date, 1600)),
                1600,
                "{date}"
            );
        }
        assert_eq!(
            on_current_fide_scale(2100, &rated("2022.07.29", 2100)),
            2100
        );
        assert_eq!(
            on_current_fide_scale(1999, &rated("2022.07.29", 1999)),
            1999
        );
        let sel = Selection {
            classical_only: false,
            since: None,
            per_band: 10,
            lowest: 1400,
            highest: 2800,
            min_plies: 1,
            current_fide_scale: true,
            national_scale: vec!["club.pgn".into()],
        };
        let old = rated("2022.07.29", 1600);
        let files = vec![
            ("fide.pgn".to_string(), vec![old.clone()]),
            (
                "club.pgn".to_string(),
                vec![Game {
                    round: "2".into(),
                    ..old.clone()
                }],
            ),
        ];
        let (taken, _) = select(&files, &sel);
        let ratings: Vec<(Option<u16>, Option<u16>)> = taken
            .iter()
            .map(|t| (t.game.white_elo, t.game.black_elo))
            .collect();
        // Black's 2010 is beyond the adjustment; the national collection keeps its tags.
        assert_eq!(ratings.len(), 2);
        assert!(ratings.contains(&(Some(1760), Some(2010))));
        assert!(ratings.contains(&(Some(1600), Some(2010))));
        let off = Selection {
            current_fide_scale: false,
            ..sel
        };
        assert_eq!(off.rescaled("fide.pgn", &old), old);
    }

    #[test]
    fn a_baseline_on_todays_scale_judges_older_games_and_explicit_ratings_on_it_once() {
        use crate::screen::{Ratings, on_baseline_scale};
        let mut old = game("Open", "?", "2023.05.01");
        (old.white_elo, old.black_elo) = (Some(1500), Some(2100));
        let explicit: Ratings = [("A".to_string(), 1400), ("C".to_string(), 2200)].into();
        let current = serde_json::json!({"sources": {"selection": {"current_fide_scale": true}}});
        let (games, ratings) =
            on_baseline_scale(&current, std::slice::from_ref(&old), &explicit).expect("rescaled");
        // 0.4 × (2000 − 1500) = 200 and 0.4 × (2000 − 1400) = 240 more; 2100 and 2200 stay.
        assert_eq!(
            (games[0].white_elo, games[0].black_elo),
            (Some(1700), Some(2100))
        );
        assert_eq!((ratings["A"], ratings["C"]), (1640, 2200));
        // Nothing to change: a game on today's scale, or a baseline on the tags' scale.
        let mut new = old.clone();
        new.date = "2024.03.01".into();
        assert_eq!(on_baseline_scale(&current, &[new], &explicit), None);
        assert_eq!(
            on_baseline_scale(
                &serde_json::Value::Null,
                std::slice::from_ref(&old),
                &explicit
            ),
            None
        );
        // A fold's fit does not carry its template's provenance, so games a calibration has
        // already put on today's scale are not raised a second time when it judges them.
        let mut template = crate::baseline::Baseline::shipped();
        template.how_made = current;
        let fitted = fit(&[1600, 1800], &[]).into_baseline(&template);
        assert_eq!(fitted.how_made, serde_json::Value::Null);
    }

    #[test]
    fn between_event_spread_is_zero_for_homogeneous_groups_and_found_when_levels_differ() {
        // Residuals of 0.9 standard errors, less than sampling noise alone gives: τ = 0.
        let same: Vec<(u64, f64, f64)> = (0..20)
            .map(|i| (100, if i % 2 == 0 { 36.0 } else { -36.0 }, 1600.0))
            .collect();
        assert_eq!(dersimonian_laird(&same), 0);
        // Levels that differ by ±50 per decision with tiny sampling variance: τ ≈ 50.
        let apart: Vec<(u64, f64, f64)> = (0..20)
            .map(|i| (100, if i % 2 == 0 { 50.0 } else { -50.0 } * 100.0, 100.0))
            .collect();
        let tau = dersimonian_laird(&apart);
        assert!((50..=53).contains(&tau), "τ {tau}");
    }

    #[test]
    fn a_level_shift_of_tau_stays_near_one_z_however_long_the_performance() {
        // A field playing τ above the baseline: without τ its z grows with √n, with τ it stays
        // below 1 at every length.
        let e = crate::stats::tests::even();
        let tau = Tau {
            mm_ppm: 50_000,
            ..Tau::default()
        };
        for n in [100u64, 400, 1600] {
            let mut t = Tally::default();
            for i in 0..n {
                let hit = i % 20 < 11; // 55 %, 5 points above the expected 50 %
                t.add(
                    &Counted {
                        mm: hit,
                        ev: hit,
                        t3: true,
                        cpl: 0,
                        delta_e4: 500,
                        gap_cp: 5,
                    },
                    &e,
                );
            }
            let plain = t.indicators(&Phi::default()).z_mm;
            let with = t.indicators_with(&Phi::default(), &tau).z_mm;
            assert!(with < 100 && with > 0, "n {n}: {with}");
            assert!(plain >= with);
        }
    }
}
