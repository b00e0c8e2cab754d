use std::process::ExitCode;

#[derive(clap::Args)]
pub struct PairArgs {}

pub fn run(_a: PairArgs) -> ExitCode {
    eprintln!("arbiter pair: the pairing engine is being built");
    ExitCode::from(2)
}
