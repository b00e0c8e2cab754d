//! One module per subcommand, and what they share: loading a TRF file and exit codes.

pub mod berger;
pub mod check;
pub mod generate;
pub mod pair;
pub mod rate;
pub mod standings;
pub mod trf_input;

// The event-sourced service: serve, import, replay, export, client, demo.
pub mod api_reference;
pub mod backend;
pub mod client;
pub mod console_link;
pub mod demo;
pub mod export;
pub mod heads;
pub mod import;
/// The text forms of the online and hybrid values (shared with the console).
pub use arbiter_proto::text as online;
pub mod platform_sim;
pub mod replay;
pub mod serve;
pub mod token;

// The FIDE rating-list registry.
pub mod ratings;

// Fair-play screening of PGN files and its baseline calibration.
pub mod screen;

use arbiter_pairing::{RuleSet, TournamentRecord};
use std::path::Path;
use std::process::ExitCode;

/// Why a command failed, with the exit code each kind maps to.
pub enum Failure {
    /// 1: no valid pairing exists.
    NoPairing(String),
    /// 3: the input is invalid.
    Invalid(String),
    /// 5: a file cannot be read (or written).
    Unreadable(String),
}

impl Failure {
    pub fn report(self) -> ExitCode {
        match self {
            Failure::NoPairing(m) => {
                eprintln!("error: {m}");
                ExitCode::from(1)
            }
            Failure::Invalid(m) => {
                eprintln!("error: {m}");
                ExitCode::from(3)
            }
            Failure::Unreadable(m) => {
                eprintln!("error: {m}");
                ExitCode::from(5)
            }
        }
    }
}

/// Reads and parses a TRF file into a tournament record, printing its warnings.
pub fn load_record(
    path: &Path,
    read: &trf_input::ReadArgs,
    format: trf_input::WarningFormat,
) -> Result<(TournamentRecord, arbiter_trf::TrfFile), Failure> {
    let file = trf_input::read_trf(path, read, format)?.file;
    if read.strict {
        trf_input::strict_byes(&file)
            .map_err(|m| Failure::Invalid(format!("{}: {m}", path.display())))?;
    }
    let record = arbiter_pairing::trf::record_from_trf(&file)
        .map_err(|m| Failure::Invalid(format!("{}: {m}", path.display())))?;
    Ok((record, file))
}

/// The rule set: as asked, else the file's type code, else the rules in force on its start
/// date; a file with neither is refused (see [`arbiter_pairing::trf::rule_set_for`]).
pub fn rule_set_for(
    asked: Option<&str>,
    interpretation: Option<&str>,
    file: &arbiter_trf::TrfFile,
) -> Result<RuleSet, Failure> {
    let rule_set = rule_set_of_file(asked, file)?;
    match (rule_set, interpretation) {
        (r, None) => Ok(r),
        (RuleSet::Burstein | RuleSet::BursteinBbp, Some("bbp")) => Ok(RuleSet::BursteinBbp),
        (RuleSet::Burstein | RuleSet::BursteinBbp, Some("default")) => Ok(RuleSet::Burstein),
        (RuleSet::Burstein | RuleSet::BursteinBbp, Some(other)) => Err(Failure::Invalid(format!(
            "--interpretation {other:?}: default or bbp"
        ))),
        (r, Some(_)) => Err(Failure::Invalid(format!(
            "--interpretation: only the Burstein system has readings to choose from, not {r}"
        ))),
    }
}

fn rule_set_of_file(asked: Option<&str>, file: &arbiter_trf::TrfFile) -> Result<RuleSet, Failure> {
    let asked = asked
        .map(|s| s.parse())
        .transpose()
        .map_err(|e: arbiter_pairing::RuleSetParseError| Failure::Invalid(e.to_string()))?;
    arbiter_pairing::trf::rule_set_for(asked, file).map_err(|why| {
        Failure::Invalid(format!(
            "{why}: give --system dutch-2017 or --system dutch-2025"
        ))
    })
}
