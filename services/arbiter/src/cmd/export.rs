//! `arbiter export TOURNAMENT`: the tournament as a TRF file in the dialect asked for (TRF(x),
//! TRF(bx) or TRF-2026) or as Chess-JSON (its TRF-2026 export converted), folded from its event
//! stream (a data folder or JetStream), or asked of a running server (`--server`).

use super::backend::{Exit, LogArgs, block_on, status_exit};
use arbiter_interchange::trf_export::Dialect;
use arbiter_proto::common::v1::{TournamentRef, TrfFormat};
use arbiter_proto::reporting::v1::ExportTrfRequest;
use arbiter_proto::reporting::v1::reporting_client::ReportingClient;
use arbiter_service_kit::store::{Folded, stream_of};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct ExportArgs {
    /// The tournament id.
    pub tournament: String,
    #[command(flatten)]
    pub log: LogArgs,
    /// Ask a running server's reporting service instead of reading the log.
    #[arg(long, conflicts_with = "nats")]
    pub server: Option<String>,
    /// The dialect: trfx (TRF16 with JaVaFo's XX lines), trfbx (with bbpPairings' BB point
    /// lines), trf2026, or chess-json (FIDE TEC's JSON format, individual events).
    #[arg(long, default_value = "trfx", value_parser = parse_format)]
    pub format: ExportFormat,
    /// Where to write the file; standard output when absent.
    #[arg(short = 'o', long = "out")]
    pub output: Option<PathBuf>,
    /// Also write the tournament's signed chain heads (JSON, with the public key) to this
    /// file, for `arbiter replay --against`.
    #[arg(long, value_name = "OUT.json")]
    pub heads: Option<PathBuf>,
    /// Also write the players (JSON: each player's entry number, which never changes, beside
    /// his current pairing number, and the numbering version) to this file.
    #[arg(long, value_name = "OUT.json")]
    pub players: Option<PathBuf>,
}

/// Writes the players document of `folded` (`/api/tournaments/{id}/players`) to `path`.
fn write_players(path: &std::path::Path, tournament: &str, folded: &Folded) -> Result<(), Exit> {
    let doc = arbiter_service_kit::players::players_json(tournament, folded);
    let text = serde_json::to_string_pretty(&doc).expect("JSON values serialise");
    std::fs::write(path, text + "\n")
        .map_err(|e| Exit::Unavailable(format!("cannot write {}: {e}", path.display())))
}

/// What `--format` names: a TRF dialect, or Chess-JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    Trf(Dialect),
    ChessJson,
}

impl ExportFormat {
    /// The TRF dialect asked of the export: Chess-JSON is converted from TRF-2026.
    fn dialect(self) -> Dialect {
        match self {
            ExportFormat::Trf(d) => d,
            ExportFormat::ChessJson => Dialect::Trf2026,
        }
    }
}

fn parse_format(s: &str) -> Result<ExportFormat, String> {
    if s.eq_ignore_ascii_case("chess-json") {
        return Ok(ExportFormat::ChessJson);
    }
    Dialect::parse(s)
        .map(ExportFormat::Trf)
        .ok_or_else(|| format!("{s:?}: expected trfx, trfbx, trf2026 or chess-json"))
}

/// A TRF-2026 export as Chess-JSON.
pub fn chess_json_of(trf: &str) -> Result<String, String> {
    let file = arbiter_trf::parse_with(trf, &arbiter_trf::ParseOptions::tolerant())
        .map_err(|e| format!("the TRF-2026 export does not read back: {e}"))?
        .file;
    arbiter_interchange::chess_json::write(&file, &format!("arbiter {}", env!("CARGO_PKG_VERSION")))
}

pub fn run(a: ExportArgs) -> ExitCode {
    block_on(export(a))
}

async fn export(a: ExportArgs) -> Result<(), Exit> {
    let text = match &a.server {
        Some(url) => {
            let mut client = ReportingClient::connect(
                arbiter_service_kit::net::endpoint(url)
                    .map_err(|e| Exit::Invalid(format!("server address {url:?}: {e}")))?,
            )
            .await
            .map_err(|e| Exit::Unavailable(format!("cannot reach {url}: {e}")))?;
            let r = client
                .export_trf(ExportTrfRequest {
                    tournament: Some(TournamentRef {
                        tournament_id: a.tournament.clone(),
                        as_of_version: 0,
                    }),
                    format: match a.format.dialect() {
                        Dialect::Trfx => TrfFormat::Trfx,
                        Dialect::Trfbx => TrfFormat::Trfbx,
                        Dialect::Trf2026 => TrfFormat::Trf2026,
                    } as i32,
                })
                .await
                .map_err(|s| status_exit("export", &s))?
                .into_inner();
            if let Some(path) = &a.heads {
                let stream = stream_of(&a.tournament)
                    .map_err(|s| Exit::Invalid(format!("tournament id: {}", s.message())))?;
                let events = super::heads::fetch_events(url, &a.tournament).await?;
                super::heads::write_heads_file(path, &a.tournament, &stream, &events)?;
            }
            if let Some(path) = &a.players {
                let events = super::heads::fetch_events(url, &a.tournament).await?;
                let folded =
                    Folded::from_stored(&events).map_err(|e| Exit::Damaged(e.to_string()))?;
                write_players(path, &a.tournament, &folded)?;
            }
            String::from_utf8_lossy(&r.trf).into_owned()
        }
        None => {
            let stream = stream_of(&a.tournament)
                .map_err(|s| Exit::Invalid(format!("tournament id: {}", s.message())))?;
            let log = a.log.open().await?.as_dyn();
            let events = log.read(&stream, 1).await.map_err(|e| match e {
                arbiter_eventlog::LogError::Corrupt { .. } => Exit::Damaged(e.to_string()),
                other => Exit::Unavailable(other.to_string()),
            })?;
            if events.is_empty() {
                return Err(Exit::Invalid(format!(
                    "tournament {} does not exist",
                    a.tournament
                )));
            }
            if let Some(path) = &a.heads {
                super::heads::write_heads_file(path, &a.tournament, &stream, &events)?;
            }
            let folded = Folded::from_stored(&events).map_err(|e| Exit::Damaged(e.to_string()))?;
            if let Some(path) = &a.players {
                write_players(path, &a.tournament, &folded)?;
            }
            arbiter_interchange::trf_export::trf_export(&folded.state, a.format.dialect())
                .map_err(|e| Exit::Invalid(format!("tournament {}: {e}", a.tournament)))?
        }
    };
    let text = match a.format {
        ExportFormat::ChessJson => {
            chess_json_of(&text)
                .map_err(|e| Exit::Invalid(format!("tournament {}: {e}", a.tournament)))?
                + "\n"
        }
        ExportFormat::Trf(_) => text,
    };
    match &a.output {
        Some(path) => std::fs::write(path, &text)
            .map_err(|e| Exit::Unavailable(format!("cannot write {}: {e}", path.display())))?,
        None => print!("{text}"),
    }
    Ok(())
}
