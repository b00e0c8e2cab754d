//! `arbiter pair`: pair the next round of a TRF file.

use super::trf_input::{ReadArgs, WarningFormat};
use super::{Failure, load_record, rule_set_for};
use arbiter_pairing::{PairingError, pair};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct PairArgs {
    /// Rule set: dutch-2017, dutch-2025, dubov, burstein, burstein-bbp or lim (default: the file's type code,
    /// else the Dutch rules in force on its start date; a file with neither needs it).
    #[arg(long)]
    pub system: Option<String>,
    /// The Burstein system's reading of the points its rule text leaves open: default (the
    /// engine's) or bbp (as bbpPairings reads them; the rule set burstein-bbp).
    #[arg(long)]
    pub interpretation: Option<String>,
    /// The tournament so far (TRF16 with the XX/BB extensions, or TRF-2026).
    pub input: PathBuf,
    /// Where to write the pairing (number of pairs, then "white black" lines, "player 0" for
    /// the bye); standard output when absent.
    #[arg(short = 'o', long = "out")]
    pub output: Option<PathBuf>,
    /// Print, per bracket, its players, pairs, floaters and the criteria not fully met.
    #[arg(long)]
    pub explain: bool,
    #[command(flatten)]
    pub read: ReadArgs,
    /// How reading warnings are printed on standard error: text or json (one object a line).
    #[arg(long, default_value = "text")]
    pub format: String,
}

pub fn run(a: PairArgs) -> ExitCode {
    match run_inner(&a) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => f.report(),
    }
}

fn run_inner(a: &PairArgs) -> Result<(), Failure> {
    let (record, file) = load_record(&a.input, &a.read, WarningFormat::for_output(&a.format))?;
    let rule_set = rule_set_for(a.system.as_deref(), a.interpretation.as_deref(), &file)?;
    let round = record
        .round_to_pair(0)
        .map_err(|why| Failure::Invalid(format!("{}: {why}", a.input.display())))?;
    let input = record
        .input_for_round(round, rule_set)
        .map_err(|m| Failure::Invalid(format!("{}: {m}", a.input.display())))?;
    let pairing = pair(&input).map_err(|e| match e {
        PairingError::NoValidPairing(m) => Failure::NoPairing(format!("round {round}: {m}")),
        PairingError::InvalidInput(m) => Failure::Invalid(format!("{}: {m}", a.input.display())),
    })?;
    let mut out = String::new();
    let n = pairing.boards.len() + pairing.bye.is_some() as usize;
    out.push_str(&format!("{n}\n"));
    for b in &pairing.boards {
        out.push_str(&format!("{} {}\n", b.white, b.black));
    }
    if let Some(p) = pairing.bye {
        out.push_str(&format!("{p} 0\n"));
    }
    match &a.output {
        Some(path) => std::fs::write(path, &out)
            .map_err(|e| Failure::Unreadable(format!("cannot write {}: {e}", path.display())))?,
        None => print!("{out}"),
    }
    if a.explain {
        eprint!("{}", pairing.explanation.render());
    }
    Ok(())
}
