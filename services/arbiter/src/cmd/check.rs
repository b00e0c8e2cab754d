//! `arbiter check`: replay every round of a complete tournament and report each round whose
//! recorded pairing differs from the engine's, with the rule that decides between them.

use super::{Failure, load_record, rule_set_for};
use arbiter_pairing::{RecordedPairing, Verdict, compare};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct CheckArgs {
    /// Rule set: dutch-2017 or dutch-2025 (default as for `pair`).
    #[arg(long)]
    pub system: Option<String>,
    /// A tournament with its rounds paired (TRF).
    pub input: PathBuf,
}

pub fn run(a: CheckArgs) -> ExitCode {
    match run_inner(&a) {
        Ok(0) => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(2),
        Err(f) => f.report(),
    }
}

fn run_inner(a: &CheckArgs) -> Result<usize, Failure> {
    let (record, file) = load_record(&a.input)?;
    let rule_set = rule_set_for(a.system.as_deref(), &file)?;
    let rounds = record.paired_rounds();
    let mut differing = 0;
    for r in 1..=rounds {
        let input = record
            .input_for_round(r, rule_set)
            .map_err(|m| Failure::Invalid(format!("{}: round {r}: {m}", a.input.display())))?;
        let recorded = record.recorded(r);
        match compare(&input, &recorded) {
            Ok(c) if c.verdict == Verdict::Identical => {}
            Ok(c) => {
                differing += 1;
                let p = c.engine;
                let engine = RecordedPairing {
                    boards: p.boards.clone(),
                    bye: p.bye,
                };
                println!("round {r}: differs from the engine's pairing");
                println!("  {}", c.verdict);
                print_diff(&recorded, &engine);
                print!("{}", indent(&p.explanation.render()));
            }
            Err(e) => {
                differing += 1;
                println!("round {r}: the engine finds no pairing ({e}) but one was recorded");
            }
        }
    }
    println!(
        "{}/{} rounds identical ({rule_set})",
        rounds as usize - differing,
        rounds
    );
    Ok(differing)
}

fn print_diff(recorded: &RecordedPairing, engine: &RecordedPairing) {
    let (rb, rbye) = recorded.normalized();
    let (eb, ebye) = engine.normalized();
    for b in rb.iter().filter(|b| !eb.contains(b)) {
        println!("  recorded only: {} - {}", b.white, b.black);
    }
    for b in eb.iter().filter(|b| !rb.contains(b)) {
        println!("  engine only:   {} - {}", b.white, b.black);
    }
    if rbye != ebye {
        println!("  bye: recorded {:?}, engine {:?}", rbye, ebye);
    }
}

fn indent(s: &str) -> String {
    s.lines().map(|l| format!("    {l}\n")).collect()
}
