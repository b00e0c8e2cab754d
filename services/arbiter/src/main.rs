//! The `arbiter` command line: one binary that composes the crates and services.
//! Each subcommand lives in its own module under `cmd/`.

mod cmd;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "arbiter",
    version,
    about = "Event-sourced chess tournament service (FIDE rules)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Pair the next round of a TRF file.
    Pair(cmd::pair::PairArgs),
    /// Replay every round of a complete TRF tournament and report differing pairings.
    Check(cmd::check::CheckArgs),
    /// Standings with tie-breaks of a TRF file (text, CSV or JSON).
    Standings(cmd::standings::StandingsArgs),
    /// Rating changes, performances and title-norm status of a TRF file.
    Rate(cmd::rate::RateArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Pair(a) => cmd::pair::run(a),
        Command::Check(a) => cmd::check::run(a),
        Command::Standings(a) => cmd::standings::run(a),
        Command::Rate(a) => cmd::rate::run(a),
    }
}
