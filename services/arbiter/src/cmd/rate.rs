//! `arbiter rate`: per player the rating change (or the initial-rating estimate of an unrated
//! player), the performance and the title-norm status of a TRF file.
//!
//! What comes from the file: ratings, titles, federations, sex and birth years from the `001`
//! lines, the start date from `042`, the category from the encoded time control `222`, the
//! number of rounds and the pairing kind (norm rules of round-robins). The K factor is derived
//! per player (B.02 8.3.3) from rating and birth year; a TRF file does not say how many rated
//! games a player has completed, so players are taken as established (30 games or more) unless
//! `--k` gives one K for everybody. Exit codes: 0 done, 3 invalid input, 5 unreadable file.

use super::Failure;
use super::standings::read_trf;
use arbiter_core::{ResultCode, RoundEntry};
use arbiter_rating::norms::NormEvent;
use arbiter_rating::{
    Category, Date, Federation, KSource, ReportEvent, ReportPlayer, RuleSet, Sex, TimeControl,
    Title, Titles, rate_report,
};
use arbiter_tiebreak::{PairingKind, trf as tb_trf};
use arbiter_trf::{TextCode, TrfFile};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct RateArgs {
    /// The tournament (TRF16 or TRF-2026).
    pub input: PathBuf,
    /// Rating category: standard, rapid or blitz (default: from the encoded time control,
    /// record 222, else standard). Norms are checked for standard events only.
    #[arg(long)]
    pub category: Option<String>,
    /// Start date, YYYY-MM-DD; chooses the rating regulations (default: record 042).
    #[arg(long)]
    pub start: Option<String>,
    /// One K factor for every rated player (default: derived per player).
    #[arg(long)]
    pub k: Option<u8>,
    /// Rating regulations: b02-2022-seed-text, b02-2024 or b02-2025-10 (default: those in force
    /// on the start date).
    #[arg(long)]
    pub rules: Option<String>,
}

pub fn run(a: RateArgs) -> ExitCode {
    match run_inner(&a) {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(f) => f.report(),
    }
}

fn parse_category(s: &str) -> Result<Category, Failure> {
    match s.trim().to_ascii_lowercase().as_str() {
        "standard" | "classical" => Ok(Category::Standard),
        "rapid" => Ok(Category::Rapid),
        "blitz" => Ok(Category::Blitz),
        _ => Err(Failure::Invalid(format!(
            "--category: unknown category {s:?} (expected standard, rapid or blitz)"
        ))),
    }
}

/// The thinking time of record 222 (`5400+30`, `40/6000+30:900+30`, `W300-B240`): every
/// period's seconds added up, the increment of the first period; White's for Armageddon.
fn time_control_222(text: &str) -> Option<TimeControl> {
    let t = text.trim();
    let t = match t.strip_prefix('W') {
        Some(rest) => rest.split('-').next()?,
        None => t,
    };
    let mut base = 0u32;
    let mut increment = None;
    for period in t.split(':') {
        let seconds = period.rsplit('/').next()?;
        let (s, inc) = match seconds.split_once('+') {
            Some((s, i)) => (s, Some(i.trim().parse::<u32>().ok()?)),
            None => (seconds, None),
        };
        base = base.checked_add(s.trim().parse::<u32>().ok()?)?;
        if increment.is_none() {
            increment = Some(inc.unwrap_or(0));
        }
    }
    Some(TimeControl {
        base_seconds: base,
        increment_seconds: increment.unwrap_or(0),
    })
}

fn start_date(a: &RateArgs, file: &TrfFile) -> Result<Date, Failure> {
    if let Some(s) = &a.start {
        return s
            .parse::<Date>()
            .map_err(|e| Failure::Invalid(format!("--start: {e}")));
    }
    let shown = a.input.display();
    let Some(text) = file.text(TextCode::StartDate) else {
        return Err(Failure::Invalid(format!(
            "{shown}: no start date (record 042); give --start YYYY-MM-DD"
        )));
    };
    let line = file
        .records
        .iter()
        .position(|r| matches!(r, arbiter_trf::Record::Text(t) if t.code == TextCode::StartDate))
        .map_or(0, |i| i + 1);
    tb_trf::parse_date(text)
        .map(|d| Date {
            year: i32::from(d.year),
            month: d.month,
            day: d.day,
        })
        .ok_or_else(|| {
            Failure::Invalid(format!(
                "{shown}: line {line}, columns 5-14 (start date): expected YYYY/MM/DD, found {:?}; or give --start",
                text.trim()
            ))
        })
}

/// Read as the rating lists read codes, so that a code the TRF reader kept as written (`G`,
/// `WG`) still counts as the title.
fn title(t: &arbiter_trf::TitleCode) -> Option<Title> {
    Title::from_code(t.as_str())
}

fn run_inner(a: &RateArgs) -> Result<String, Failure> {
    let asked_category = a.category.as_deref().map(parse_category).transpose()?;
    let rule_set = a
        .rules
        .as_deref()
        .map(|s| {
            RuleSet::from_id(s.trim()).ok_or_else(|| {
                Failure::Invalid(format!(
                    "--rules: unknown rating regulations {s:?} (expected b02-2022-seed-text, b02-2024 or b02-2025-10)"
                ))
            })
        })
        .transpose()?;
    let file = read_trf(&a.input)?.file;
    let shown = a.input.display();
    let start = start_date(a, &file)?;
    let category = match asked_category {
        Some(c) => c,
        None => file
            .text(TextCode::EncodedTimeControl)
            .and_then(time_control_222)
            .and_then(TimeControl::category)
            .unwrap_or(Category::Standard),
    };

    let rounds = tb_trf::rounds_played(&file);
    let event_federation = file
        .text(TextCode::Federation)
        .and_then(Federation::new)
        .unwrap_or(Federation::FIDE_FLAG);
    let mut without_federation = Vec::new();
    let players: Vec<ReportPlayer> = file
        .players()
        .map(|p| {
            let federation = Federation::new(&p.federation).unwrap_or_else(|| {
                without_federation.push(p.start_number);
                event_federation
            });
            let k = match a.k {
                Some(k) => KSource::Given(k),
                None => KSource::Derive {
                    birth_year: p.birth_date.map(|b| i32::from(b.year())),
                    rated_games_before: 30,
                    ever_reached_2400: false,
                },
            };
            ReportPlayer {
                id: p.start_number,
                name: p.name.clone(),
                rating: p.rating.filter(|&r| r > 0),
                standard_rating: None,
                k,
                titles: Titles::single(p.title.as_ref().and_then(title)),
                federation,
                sex: p.sex.map(|s| match s {
                    arbiter_trf::Sex::Male => Sex::Male,
                    arbiter_trf::Sex::Female => Sex::Female,
                }),
                rounds: (1..=rounds)
                    .map(|r| {
                        p.entry(r)
                            .copied()
                            .unwrap_or(RoundEntry::bye(ResultCode::ZeroBye))
                    })
                    .collect(),
                games_in_period: None,
            }
        })
        .collect();
    if !without_federation.is_empty() {
        eprintln!(
            "warning: {shown}: no federation for players {without_federation:?}; taken as {event_federation} for the norm checks"
        );
    }
    let scheduled = file.total_rounds();
    let norms = match tb_trf::pairing_kind(&file) {
        PairingKind::PreDetermined => NormEvent::round_robin(scheduled),
        PairingKind::Swiss => NormEvent::swiss(scheduled),
    };
    let name = file
        .tournament_name()
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(String::from)
        .or_else(|| {
            a.input
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
        })
        .unwrap_or_default();
    let event = ReportEvent {
        name,
        start,
        rule_set,
        category,
        norms: Some(norms),
        players,
    };
    Ok(rate_report(&event))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoded_time_controls() {
        let tc = time_control_222("5400+30").unwrap();
        assert_eq!((tc.base_seconds, tc.increment_seconds), (5400, 30));
        assert_eq!(tc.category(), Some(Category::Standard));
        let tc = time_control_222("40/6000+30:900+30").unwrap();
        assert_eq!((tc.base_seconds, tc.increment_seconds), (6900, 30));
        assert_eq!(
            time_control_222("900+10").unwrap().category(),
            Some(Category::Rapid)
        );
        assert_eq!(
            time_control_222("180+2").unwrap().category(),
            Some(Category::Blitz)
        );
        assert_eq!(time_control_222("W300-B240").unwrap().base_seconds, 300);
        assert_eq!(time_control_222("90 minutes"), None);
    }
}
