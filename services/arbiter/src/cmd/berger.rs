//! `arbiter berger N [--double]`: the round-robin schedule of N players from the FIDE Berger
//! tables (C.05 §5.1), one line per round, boards in order, white first; an odd field shows who
//! rests. Players are the numbers drawn by lot.

use arbiter_roundrobin::{berger, double_berger};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct BergerArgs {
    /// Number of players (2..=1000).
    pub players: u32,
    /// Double round robin: the cycle with its last two rounds swapped, then again with colours
    /// reversed.
    #[arg(long)]
    pub double: bool,
}

pub fn run(a: BergerArgs) -> ExitCode {
    let rounds = if a.double {
        double_berger(a.players)
    } else {
        berger(a.players)
    };
    match rounds {
        Ok(rounds) => {
            for (k, r) in rounds.iter().enumerate() {
                let games: Vec<String> = r.games.iter().map(|(w, b)| format!("{w}-{b}")).collect();
                let rest = r
                    .rest
                    .map(|p| format!("  (rests: {p})"))
                    .unwrap_or_default();
                println!("R{:<3} {}{rest}", k + 1, games.join(" "));
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(3)
        }
    }
}
