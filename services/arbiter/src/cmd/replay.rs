//! `arbiter replay TOURNAMENT`: the audit of a tournament's stream. Verifies the hash chain,
//! rebuilds the state by folding every event, and re-runs every published pairing from the
//! events before it, reporting each difference.
//!
//! Exit codes: 0 all is well; 2 a re-run pairing differs from an engine-published one (or,
//! with `--strict`, from one published by hand); 3 no such tournament; 4 the log is damaged
//! (broken chain, undecodable or misfitting events); 5 the log cannot be opened.

use super::backend::{Exit, LogArgs, OpenedLog, block_on};
use arbiter_round_director::store::stream_of;
use std::process::ExitCode;
use std::time::Instant;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Exit codes: 0 every check passed; 2 a re-run pairing differs; \
3 no such tournament (or a bad argument); 4 the log is damaged; 5 the log cannot be opened."
)]
pub struct ReplayArgs {
    /// The tournament id.
    pub tournament: String,
    #[command(flatten)]
    pub log: LogArgs,
    /// Also fail when a pairing published by hand differs from the engine's.
    #[arg(long)]
    pub strict: bool,
}

pub fn run(a: ReplayArgs) -> ExitCode {
    block_on(replay(a))
}

async fn replay(a: ReplayArgs) -> Result<(), Exit> {
    let stream = stream_of(&a.tournament)
        .map_err(|s| Exit::Invalid(format!("tournament id: {}", s.message())))?;
    let opened = a.log.open().await?;
    if let OpenedLog::Sled(l) = &opened
        && let Some(e) = l.damaged_streams().into_iter().find(|e| match e {
            arbiter_eventlog::LogError::Corrupt { stream: s, .. } => *s == stream,
            _ => true,
        })
    {
        return Err(Exit::Damaged(format!(
            "tournament {}: the log is damaged: {e}",
            a.tournament
        )));
    }
    let log = opened.as_dyn();
    let started = Instant::now();
    let events = log.read(&stream, 1).await.map_err(|e| match e {
        arbiter_eventlog::LogError::Corrupt { .. } => Exit::Damaged(format!(
            "tournament {}: the log is damaged: {e}",
            a.tournament
        )),
        other => Exit::Unavailable(format!("tournament {}: {other}", a.tournament)),
    })?;
    if events.is_empty() {
        return Err(Exit::Invalid(format!(
            "tournament {} does not exist in {}",
            a.tournament,
            opened.describe(&a.log)
        )));
    }
    let report =
        tokio::task::spawn_blocking(move || arbiter_pairing_worker::audit::audit(&stream, &events))
            .await
            .map_err(|e| Exit::Unavailable(format!("the audit stopped: {e}")))?;
    print!("{}", report.render());
    let elapsed = started.elapsed();
    let differing = report.differing(a.strict);
    println!(
        "{} events, {} rounds re-paired, {} differing, in {:.1} ms",
        report.events,
        report.rounds.len(),
        differing.len(),
        elapsed.as_secs_f64() * 1000.0
    );
    if !report.log_intact() {
        return Err(Exit::Damaged(format!(
            "tournament {}: the event log does not verify (see above)",
            a.tournament
        )));
    }
    if !differing.is_empty() {
        let rounds: Vec<String> = differing.iter().map(|r| r.round.to_string()).collect();
        return Err(Exit::Differs(format!(
            "tournament {}: re-run pairing differs in round(s) {}",
            a.tournament,
            rounds.join(", ")
        )));
    }
    Ok(())
}
