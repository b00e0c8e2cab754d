//! `arbiter ratings`: the FIDE rating-list registry of a data folder (`DATA/ratings`), which
//! registration uses to fill in a player registered by FIDE id.
//!
//! - `arbiter ratings import FILE [--data DIR]` reads the public list (fixed-width text or XML,
//!   detected from the content) with bounded memory, reporting progress on stderr, and replaces
//!   the list in use once the file has been read. Records that cannot be read are reported with
//!   their line, column and field and skipped (`--strict`: the import fails instead).
//! - `arbiter ratings show FIDE_ID [--data DIR]` prints the player's entry.
//!
//! Exit codes: 0 done, 3 invalid input (a bad file, an id not in the list), 5 a file or the
//! registry cannot be opened (e.g. `arbiter serve` holds it).

use super::backend::Exit;
use arbiter_rating::Category;
use arbiter_rating_list::{ImportOptions, ListFormat, Progress, Registry, RegistryError};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The registry's folder inside a data folder.
pub fn registry_dir(data: &Path) -> PathBuf {
    data.join("ratings")
}

#[derive(clap::Args, Debug)]
pub struct RatingsArgs {
    #[command(subcommand)]
    pub command: RatingsCommand,
}

#[derive(clap::Subcommand, Debug)]
pub enum RatingsCommand {
    /// Import a FIDE rating list (text or XML) into the registry.
    Import(ImportListArgs),
    /// Print a player of the registry.
    Show(ShowArgs),
}

#[derive(clap::Args, Debug)]
pub struct ImportListArgs {
    /// The list: players_list_foa.txt, players_list_xml.xml, or a per-category list.
    pub file: PathBuf,
    /// Data folder (the registry is in its `ratings` subfolder).
    #[arg(long, default_value = "./data", env = "ARBITER_DATA")]
    pub data: PathBuf,
    /// text or xml (default: detected from the content).
    #[arg(long)]
    pub format: Option<String>,
    /// The category of a per-category list's rating column: standard, rapid or blitz.
    #[arg(long, default_value = "standard")]
    pub category: String,
    /// Fail (and keep the list in use) if any record cannot be read.
    #[arg(long)]
    pub strict: bool,
    /// How many unreadable records to print (all are counted).
    #[arg(long, default_value_t = 20)]
    pub show_errors: usize,
}

#[derive(clap::Args, Debug)]
pub struct ShowArgs {
    /// The player's FIDE id.
    pub fide_id: String,
    /// Data folder (the registry is in its `ratings` subfolder).
    #[arg(long, default_value = "./data", env = "ARBITER_DATA")]
    pub data: PathBuf,
}

pub fn run(a: RatingsArgs) -> ExitCode {
    let done = match a.command {
        RatingsCommand::Import(a) => import(&a),
        RatingsCommand::Show(a) => show(&a),
    };
    match done {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => e.report(),
    }
}

fn open(data: &Path) -> Result<Registry, Exit> {
    let dir = registry_dir(data);
    if let Some(parent) = dir.parent() {
        std::fs::create_dir_all(parent).map_err(|e| {
            Exit::Unavailable(format!(
                "cannot create the data folder {}: {e}",
                parent.display()
            ))
        })?;
    }
    Registry::open(&dir).map_err(|e| Exit::Unavailable(e.to_string()))
}

fn registry_exit(e: RegistryError) -> Exit {
    match e {
        RegistryError::Storage(_) | RegistryError::Open { .. } => Exit::Unavailable(e.to_string()),
        RegistryError::List(ref l) if matches!(l, arbiter_rating::list::ListError::Io { .. }) => {
            Exit::Unavailable(e.to_string())
        }
        RegistryError::Corrupt { .. } => Exit::Damaged(e.to_string()),
        RegistryError::List(_) | RegistryError::Format(_) => Exit::Invalid(e.to_string()),
    }
}

fn parse_category(s: &str) -> Result<Category, Exit> {
    match s.trim().to_ascii_lowercase().as_str() {
        "standard" | "classical" => Ok(Category::Standard),
        "rapid" => Ok(Category::Rapid),
        "blitz" => Ok(Category::Blitz),
        _ => Err(Exit::Invalid(format!(
            "--category: unknown category {s:?} (expected standard, rapid or blitz)"
        ))),
    }
}

fn parse_format(s: &str) -> Result<ListFormat, Exit> {
    match s.trim().to_ascii_lowercase().as_str() {
        "text" | "txt" => Ok(ListFormat::Text),
        "xml" => Ok(ListFormat::Xml),
        _ => Err(Exit::Invalid(format!(
            "--format: unknown format {s:?} (expected text or xml)"
        ))),
    }
}

fn progress_line(p: &Progress) -> String {
    let mut line = format!("ratings: {} players read", p.records);
    if let Some(pc) = p.percent() {
        line.push_str(&format!(" ({pc}% of the file)"));
    }
    if p.errors > 0 {
        line.push_str(&format!(", {} unreadable", p.errors));
    }
    line.push_str(&format!(", {:.1}s", p.elapsed.as_secs_f64()));
    line
}

fn import(a: &ImportListArgs) -> Result<(), Exit> {
    let options = ImportOptions {
        format: a.format.as_deref().map(parse_format).transpose()?,
        category: parse_category(&a.category)?,
        keep_errors: a.show_errors,
        strict: a.strict,
        ..ImportOptions::default()
    };
    let registry = open(&a.data)?;
    let shown = a.file.display();
    let report = registry
        .import_file(&a.file, &options, |p| eprintln!("{}", progress_line(p)))
        .map_err(|e| match e {
            RegistryError::Open { .. } => registry_exit(e),
            other => {
                let exit = registry_exit(other);
                match exit {
                    Exit::Invalid(m) => Exit::Invalid(format!("{shown}: {m}")),
                    other => other,
                }
            }
        })?;
    for e in &report.first_errors {
        eprintln!("warning: {shown}: {e}");
    }
    if report.errors > report.first_errors.len() as u64 {
        eprintln!(
            "warning: {shown}: {} more unreadable records not shown",
            report.errors - report.first_errors.len() as u64
        );
    }
    println!(
        "imported {} players from {shown} ({} list, {} records, {} unreadable) into {} in {:.1}s",
        report.players,
        report.format.name(),
        report.records,
        report.errors,
        registry_dir(&a.data).display(),
        report.elapsed.as_secs_f64()
    );
    Ok(())
}

fn show(a: &ShowArgs) -> Result<(), Exit> {
    let id: u64 = a.fide_id.trim().parse().map_err(|_| {
        Exit::Invalid(format!(
            "FIDE id {:?}: expected a number such as 1503014",
            a.fide_id
        ))
    })?;
    let registry = open(&a.data)?;
    match registry.get(id).map_err(registry_exit)? {
        Some(entry) => {
            print!("{entry}");
            if let Some(info) = registry.info().map_err(registry_exit)? {
                println!("{:<11}{} ({} players)", "list", info.source, info.players);
            }
            Ok(())
        }
        None => Err(Exit::Invalid(
            match registry.info().map_err(registry_exit)? {
                Some(info) => format!(
                    "FIDE id {id} is not in the rating list ({}, {} players)",
                    info.source, info.players
                ),
                None => format!(
                    "FIDE id {id}: no rating list imported in {} (use `arbiter ratings import FILE`)",
                    registry_dir(&a.data).display()
                ),
            },
        )),
    }
}
