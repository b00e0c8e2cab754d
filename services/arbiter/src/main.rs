//! The `arbiter` command line: one binary that composes the crates and services.
//! Each subcommand lives in its own module under `cmd/`.

mod cmd;

use clap::{Parser, Subcommand};

/// mimalloc (its v2 line) rather than the system allocator (see Cargo.toml).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
    /// Run the services: all in one process over a data folder, or one (--only) over NATS.
    Serve(cmd::serve::ServeArgs),
    /// Turn a TRF file into a tournament's event stream; prints the tournament id.
    Import(cmd::import::ImportArgs),
    /// Verify a tournament's hash chain, rebuild it, and re-run every published pairing.
    Replay(cmd::replay::ReplayArgs),
    /// Write a tournament's TRF16 export.
    Export(cmd::export::ExportArgs),
    /// Run a tournament on a running server from the command line.
    Client(Box<cmd::client::ClientArgs>),
    /// Play a seeded random tournament on a running server and print the standings.
    Demo(cmd::demo::DemoArgs),
    /// Play one round of an online event as a platform would: seeded random legal games
    /// posted through the platforms' webhook, disconnections reported.
    PlatformSim(cmd::platform_sim::PlatformSimArgs),
    /// The FIDE rating-list registry: import a list, show a player.
    Ratings(cmd::ratings::RatingsArgs),
    /// A round-robin schedule from the FIDE Berger tables.
    Berger(cmd::berger::BergerArgs),
    /// Seeded random tournaments as TRF, paired by the engine: input for cross-checks.
    Generate(cmd::generate::GenerateArgs),
    /// Bearer tokens: issue one, add a signing key, print the public keys.
    Token(cmd::token::TokenArgs),
    /// A one-time link that signs in to the web console (valid 15 minutes, for one sign-in).
    ConsoleLink(cmd::console_link::ConsoleLinkArgs),
    /// Print the API reference (Markdown) generated from the .proto files and the
    /// authorization rule: what docs/src/reference/api.md holds.
    ApiReference(cmd::api_reference::ApiReferenceArgs),
    /// Fair-play screening of a PGN file: per player, engine agreement against the baseline.
    Screen(cmd::screen::ScreenArgs),
    /// Build a screening baseline artefact from Stockfish self-play at several strengths.
    ScreeningCalibrate(cmd::screen::CalibrateArgs),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            // A usage error is invalid input: exit 3 as every subcommand documents, not clap's
            // 2, which `check`, `replay` and `client` use for "differs" / "refused".
            return if e.use_stderr() {
                ExitCode::from(3)
            } else {
                ExitCode::SUCCESS
            };
        }
    };
    match cli.command {
        Command::Pair(a) => cmd::pair::run(a),
        Command::Check(a) => cmd::check::run(a),
        Command::Standings(a) => cmd::standings::run(a),
        Command::Rate(a) => cmd::rate::run(a),
        Command::Serve(a) => cmd::serve::run(a),
        Command::Import(a) => cmd::import::run(a),
        Command::Replay(a) => cmd::replay::run(a),
        Command::Export(a) => cmd::export::run(a),
        Command::Client(a) => cmd::client::run(*a),
        Command::Demo(a) => cmd::demo::run(a),
        Command::PlatformSim(a) => cmd::platform_sim::run(a),
        Command::Ratings(a) => cmd::ratings::run(a),
        Command::Berger(a) => cmd::berger::run(a),
        Command::Generate(a) => cmd::generate::run(a),
        Command::Token(a) => cmd::token::run(a),
        Command::ConsoleLink(a) => cmd::console_link::run(a),
        Command::ApiReference(a) => cmd::api_reference::run(a),
        Command::Screen(a) => cmd::screen::run(a),
        Command::ScreeningCalibrate(a) => cmd::screen::calibrate_run(a),
    }
}
