//! `arbiter standings`: the standings of a TRF file with their tie-breaks, as text, CSV or
//! JSON.
//!
//! The tie-break list is the one asked for, else the file's own (record 212, else 202), else the
//! recommended list for the kind of event. A team event's file (310 records) ranks its teams. Exit codes: 0 done, 3 invalid input (the message names
//! the file, line, column and field, or the option), 5 the file cannot be read.

use super::Failure;
use super::trf_input::{ReadArgs, WarningFormat};
use arbiter_tiebreak::{
    Format, Options, RuleSet, TieBreakList, standings_report_with, team_standings_report, trf,
};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct StandingsArgs {
    /// The tournament (TRF16, with or without the engine extensions, or TRF-2026).
    pub input: PathBuf,
    /// Tie-breaks after the points, e.g. "BH/C1,BH,SB,DE,WIN,BPG,ARO" (default: the file's
    /// record 212 or 202, else the recommended list for the kind of event).
    #[arg(long)]
    pub tiebreaks: Option<String>,
    /// Output format: text, csv or json.
    #[arg(long, default_value = "text")]
    pub format: String,
    /// Standings after this round (default: the last round paired in the file).
    #[arg(long)]
    pub round: Option<u32>,
    /// Tie-break rules: legacy-2009, c07-2024-08 or c07-2026-03 (default: the rules in force on
    /// the start date, record 042; the current rules without one).
    #[arg(long)]
    pub rules: Option<String>,
    /// Rating given to unrated players in rating-based tie-breaks (ARO, TPR, ...), when the
    /// regulations publish one.
    #[arg(long)]
    pub unrated_rating: Option<u32>,
    #[command(flatten)]
    pub read: ReadArgs,
}

pub fn run(a: StandingsArgs) -> ExitCode {
    match run_inner(&a) {
        Ok(out) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Err(f) => f.report(),
    }
}

/// Reads and parses a TRF file in the default (tolerant) mode; warnings go to standard error.
pub fn read_trf(path: &Path) -> Result<arbiter_trf::Trf, Failure> {
    super::trf_input::read_trf(path, &ReadArgs::default(), WarningFormat::Text)
}

fn run_inner(a: &StandingsArgs) -> Result<String, Failure> {
    let format: Format = a
        .format
        .parse()
        .map_err(|e| Failure::Invalid(format!("--format: {e}")))?;
    let rule_set = a
        .rules
        .as_deref()
        .map(|s| {
            s.parse::<RuleSet>()
                .map_err(|e| Failure::Invalid(format!("--rules: {e}")))
        })
        .transpose()?;
    let asked = a
        .tiebreaks
        .as_deref()
        .map(|s| {
            s.parse::<TieBreakList>()
                .map_err(|e| Failure::Invalid(format!("--tiebreaks {s:?}: {e}")))
        })
        .transpose()?;

    let file =
        super::trf_input::read_trf(&a.input, &a.read, WarningFormat::for_output(&a.format))?.file;
    let shown = a.input.display();
    let list = match asked {
        Some(l) => l,
        None => trf::file_tiebreaks(&file)
            .map_err(|e| Failure::Invalid(format!("{shown}: {e}")))?
            .map(|t| t.list)
            .unwrap_or_default(),
    };
    let options = Options {
        rule_set,
        unrated_rating: a.unrated_rating,
        ..Options::default()
    };
    if super::trf_input::is_team_event(&file) {
        return team_standings(a, &file, &list, format, &options);
    }
    let model = match a.round {
        None => trf::tournament_from_trf(&file),
        Some(r) if r <= file.total_rounds() => trf::tournament_after_round(&file, r),
        Some(r) => {
            return Err(Failure::Invalid(format!(
                "--round {r}: {shown} has {} rounds",
                file.total_rounds()
            )));
        }
    };
    if file.text(arbiter_trf::TextCode::StartDate).is_some() && model.start_date.is_none() {
        eprintln!(
            "warning: {shown}: record 042 is not a date (YYYY/MM/DD); the current tie-break rules apply"
        );
    }
    standings_report_with(&model, &list.0, format, &options)
        .map_err(|e| Failure::Invalid(format!("{shown}: {e}")))
}

/// A team event (310 records): the teams ranked, from the file imported as `arbiter import`
/// would (the model the service's team standings use), after `--round` or the last round.
fn team_standings(
    a: &StandingsArgs,
    file: &arbiter_trf::TrfFile,
    list: &TieBreakList,
    format: Format,
    options: &Options,
) -> Result<String, Failure> {
    let shown = a.input.display().to_string();
    let (state, played) = super::trf_input::imported_state(&shown, file)?;
    if let Some(r) = a.round
        && r > played
    {
        return Err(Failure::Invalid(format!(
            "--round {r}: {shown} has {played} rounds played"
        )));
    }
    let model = arbiter_teams::tiebreak_model_after(&state, a.round)
        .ok_or_else(|| Failure::Invalid(format!("{shown}: not a team event")))?
        .map_err(|e| Failure::Invalid(format!("{shown}: {e}")))?;
    team_standings_report(&model, &list.0, format, options)
        .map_err(|e| Failure::Invalid(format!("{shown}: {e}")))
}
