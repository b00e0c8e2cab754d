//! `arbiter import IN.trf...`: turns TRF files into tournaments' event streams, through the same
//! commands the services run (the mapping is `arbiter_interchange::import`'s). Every file is
//! first imported into memory: a file the commands refuse is reported with its line, column and
//! field, and nothing of any file is written. Every command has the id `import:<n>`, so
//! importing the same file again into the same tournament appends nothing. Prints each
//! tournament id.

use super::backend::{Exit, LogArgs, block_on, status_exit};
use arbiter_interchange::import::{Plan, plan};
use arbiter_service_kit::store::{CommandContext, TournamentStore, stream_of};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    /// The TRF files (TRF16 with the XX/BB extensions, or TRF-2026).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    #[command(flatten)]
    pub log: LogArgs,
    /// The tournament id (default: the file name without extension); only with one file.
    #[arg(long)]
    pub id: Option<String>,
    /// The rule set: dutch-2017 or dutch-2025 (default: the file's type code, else the rules in
    /// force on its start date; a file with neither is refused).
    #[arg(long = "system", alias = "rule-set")]
    pub system: Option<String>,
    #[command(flatten)]
    pub read: super::trf_input::ReadArgs,
    /// How reading and import warnings are printed on standard error: text or json (one object
    /// a line).
    #[arg(long, default_value = "text")]
    pub format: String,
}

pub fn run(a: ImportArgs) -> ExitCode {
    block_on(import(a))
}

fn id_from_path(p: &std::path::Path) -> String {
    let stem = p
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let id: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .take(100)
        .collect();
    if id.is_empty() { "imported".into() } else { id }
}

/// Appends a plan's commands through the tournament store (ids `import:<n>`).
async fn execute(store: &Arc<TournamentStore>, plan: &Plan) -> Result<u64, Exit> {
    let mut last = 0;
    for (n, (what, command)) in plan.commands.iter().enumerate() {
        let ctx = CommandContext::new(
            &plan.tournament,
            &format!("import:{}", n + 1),
            None,
            "import",
        )
        .map_err(|s| status_exit("tournament id", &s))?;
        let o = store
            .execute(&ctx, |_| Ok(command.clone()))
            .await
            .map_err(|s| status_exit(what, &s))?;
        last = o.last_version;
    }
    Ok(last)
}

async fn import(a: ImportArgs) -> Result<(), Exit> {
    if a.id.is_some() && a.inputs.len() > 1 {
        return Err(Exit::Invalid(
            "--id names one tournament; give one file with it".into(),
        ));
    }
    let asked = match &a.system {
        Some(r) => Some(
            r.parse::<arbiter_pairing::RuleSet>()
                .map_err(|e| Exit::Invalid(format!("--system: {e}")))?,
        ),
        None => None,
    };
    // Every file is read and imported in memory first: nothing is written unless all are good.
    let mut plans = Vec::with_capacity(a.inputs.len());
    let mut ids = std::collections::BTreeSet::new();
    for input in &a.inputs {
        let source = input.display().to_string();
        let bytes = std::fs::read(input)
            .map_err(|e| Exit::Unavailable(format!("cannot read {source}: {e}")))?;
        let trf = super::trf_input::parse(&bytes, &source, &a.read).map_err(Exit::Invalid)?;
        let format = super::trf_input::WarningFormat::for_output(&a.format);
        super::trf_input::print_warnings(&source, &trf.warnings, format);
        let id = a.id.clone().unwrap_or_else(|| id_from_path(input));
        stream_of(&id).map_err(|s| status_exit("--id", &s))?;
        if !ids.insert(id.clone()) {
            return Err(Exit::Invalid(format!(
                "{source}: tournament id {id} is given by two files"
            )));
        }
        let plan =
            plan(&trf.file, &id, asked).map_err(|m| Exit::Invalid(format!("{source}: {m}")))?;
        if plan.renumbered {
            eprintln!(
                "note: {source}: the file's start numbers do not follow the initial ranking \
                 (rating, title, name); players get the pairing numbers of the ranking and the \
                 history is renumbered"
            );
        }
        for w in &plan.warnings {
            match format {
                super::trf_input::WarningFormat::Text => eprintln!("warning: {source}: {w}"),
                super::trf_input::WarningFormat::Json => eprintln!(
                    "{}",
                    serde_json::json!({"file": source, "kind": "Import", "message": w})
                ),
            }
        }
        plans.push((source, plan));
    }
    let opened = a.log.open().await?;
    let log = opened.as_dyn();
    let store = Arc::new(TournamentStore::new(log.clone(), "import", None));
    for (source, plan) in &plans {
        execute(&store, plan).await?;
        let stream = stream_of(&plan.tournament).map_err(|s| status_exit("--id", &s))?;
        let version = log
            .last_version(&stream)
            .await
            .map_err(|e| Exit::Unavailable(e.to_string()))?;
        eprintln!(
            "imported {source}: {} players, {} rounds, stream {stream} at version {version} ({})",
            plan.players,
            plan.rounds,
            opened.describe(&a.log)
        );
        println!("{}", plan.tournament);
    }
    if let super::backend::OpenedLog::Sled(l) = &opened {
        let _ = l.flush().await;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_from_file_names() {
        assert_eq!(
            id_from_path(std::path::Path::new("/x/open 2025.trf")),
            "open-2025"
        );
        assert_eq!(id_from_path(std::path::Path::new(".trf")), "-trf");
    }
}
