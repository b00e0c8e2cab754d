//! `arbiter client ...`: run a tournament from the command line against a running server
//! (`arbiter serve`), without writing a gRPC client. The subcommands follow the tournament:
//!
//! ```text
//! arbiter client create --name "Club Open" --rounds 5 --tie-breaks "BH/C1,BH,SB"   prints the id
//! arbiter client update ID --place Oslo --federation NOR --time-control "90'+30\""
//! arbiter client register ID --name "Carlsen, Magnus" --rating 2830   prints number and entry
//! arbiter client cancel-registration ID E7 --reason "registered twice"   before he is paired
//! arbiter client late-entry ID --name "Late, L" --rating 2100 --first-round 3
//! arbiter client players ID                                    numbers, entries, numbering version
//! arbiter client bye ID E7 3 --kind half                       E7 = entry 7; 12 = pairing number
//! arbiter client start-round ID 1                              waits for the proposal
//! arbiter client publish ID 1                                  or --board 1-4 --board 3-2 --note ..
//! arbiter client result ID 1 1 -/+
//! arbiter client correct ID 1 1 1-0 --reason "scoresheets"
//! arbiter client submit-games ID 1 round1.pgn                 each game to its board, by names
//! arbiter client full-test ID --watched --reason "Watch"       the full test, policy's order
//! arbiter client close ID 1
//! arbiter client finish ID
//! arbiter client standings ID
//! ```
//!
//! Players are named by entry number (`E7`: order of registration, never changes) or by
//! pairing number (`12`). A pairing number is sent with the numbering version it was read
//! from: `--as-of V` (the version `players` printed), else the list read just before the
//! command; the server refuses it if a registration since gave that number to another player.
//!
//! Exit codes: 0 done; 2 the server refused the command (the message says why); 3 invalid
//! arguments; 5 the server cannot be reached.

use super::backend::{Exit, block_on, status_exit};
use super::token::client_token;
use arbiter_auth::client::WithToken;
use arbiter_core::ResultCode;
use arbiter_core::tournament::BoardResult;
use arbiter_proto::common::v1::{CommandHeader, CommandResult, TournamentRef, TrfFormat};
use arbiter_proto::convert::{board_result_to_wire, date_to_wire};
use arbiter_proto::events::v1 as pb;
use arbiter_proto::registration::v1 as reg;
use arbiter_proto::registration::v1::registration_client::RegistrationClient;
use arbiter_proto::reporting::v1 as rep;
use arbiter_proto::reporting::v1::reporting_client::ReportingClient;
use arbiter_proto::round_director::v1 as rd;
use arbiter_proto::round_director::v1::round_director_client::RoundDirectorClient;
use arbiter_proto::screening::v1 as scr;
use arbiter_proto::screening::v1::screening_client::ScreeningClient;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;
use tonic::transport::Channel;

// The subcommands in the order of a tournament (`commands`), and each one's arguments and
// handler in the module of the service it calls.
mod commands;
mod connect;
mod discipline;
mod registration;
mod reporting;
mod round_director;
mod screening;
mod setup;
mod teams;

pub use commands::ClientCommand;
pub use connect::Clients;
pub use reporting::render_pairings;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Players: E7 is entry number 7 (order of registration, never changes); 12 is \
pairing number 12, sent with the numbering version it was read from (--as-of V as printed by \
`players`, else the list read just before the command) and refused if a registration since gave \
it to another player.\n\nExit codes: 0 done; 2 the server refused the command (the message \
says why); 3 invalid arguments; 5 the server cannot be reached."
)]
pub struct ClientArgs {
    #[command(flatten)]
    pub conn: Connection,
    /// Idempotency key of the command (default: a fresh one per command).
    #[arg(long, global = true)]
    pub command_id: Option<String>,
    #[command(subcommand)]
    pub command: ClientCommand,
}

/// Where the services are: one server (`arbiter serve`), or one address per service.
#[derive(clap::Args, Debug, Clone)]
pub struct Connection {
    /// The gRPC address of `arbiter serve` (printed when it starts): http://HOST:PORT,
    /// https://HOST:PORT behind TLS, or HOST:PORT.
    #[arg(
        long,
        global = true,
        env = "ARBITER_SERVER",
        default_value = "http://127.0.0.1:7070"
    )]
    pub server: String,
    /// The registration service, when run as its own process.
    #[arg(long, global = true)]
    pub registration: Option<String>,
    /// The round director, when run as its own process.
    #[arg(long, global = true)]
    pub director: Option<String>,
    /// The reporting service, when run as its own process.
    #[arg(long, global = true)]
    pub reporting: Option<String>,
    /// The screening service, when run as its own process.
    #[arg(long, global = true)]
    pub screening: Option<String>,
    /// The bearer token sent with every call (default: DATA/admin.token of --data, the token
    /// `arbiter serve` writes there on first start; none: reads only).
    #[arg(long, global = true, env = "ARBITER_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    /// The server's data folder, for its admin token when no --token is given.
    #[arg(long, global = true, default_value = "./data", env = "ARBITER_DATA")]
    pub data: PathBuf,
}

/// A player on the command line: `E7` (or `e7`) is the player with entry number 7, his stable
/// number (order of registration, never changes); `7` (or `#7`) is pairing number 7.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayerArg {
    Entry(u32),
    Number(u32),
}

impl std::str::FromStr for PlayerArg {
    type Err = String;

    fn from_str(s: &str) -> Result<PlayerArg, String> {
        let t = s.trim();
        let (entry, digits) = match t.chars().next() {
            Some('E' | 'e') => (true, &t[1..]),
            Some('#') => (false, &t[1..]),
            _ => (false, t),
        };
        match digits.parse::<u32>() {
            Ok(n) if n > 0 && entry => Ok(PlayerArg::Entry(n)),
            Ok(n) if n > 0 => Ok(PlayerArg::Number(n)),
            _ => Err(format!(
                "{s:?}: a pairing number (12) or an entry number (E7), both from 1"
            )),
        }
    }
}

/// Which list pairing numbers given on the command line were read from.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct AsOf {
    /// Pairing numbers are those of the list at this numbering version (printed by
    /// `players`); refused if a registration since gave one of them to another player.
    /// Default: the list as it is now, read just before the command.
    #[arg(long)]
    pub as_of: Option<u64>,
}

/// What every RPC of the client goes through: its answer, or its status as the exit it maps
/// to, the message starting with `context` (the subcommand, as a refusal names it) and naming
/// this command line's subcommands where the service names its methods.
async fn call<T>(
    context: &str,
    rpc: impl Future<Output = Result<tonic::Response<T>, tonic::Status>>,
) -> Result<T, Exit> {
    rpc.await.map(tonic::Response::into_inner).map_err(|s| {
        let said = tonic::Status::new(s.code(), cli_words(s.message()));
        status_exit(context, &said)
    })
}

/// The services' methods and the subcommands that call them.
const SUBCOMMANDS: &[(&str, &str)] = &[
    ("CreateTournament", "create"),
    ("UpdateTournament", "update"),
    ("RegisterPlayer", "register"),
    ("EnterLate", "late-entry"),
    ("ListPlayers", "players"),
    ("CorrectPlayer", "correct-player"),
    ("RequestBye", "bye"),
    ("CancelBye", "cancel-bye"),
    ("DeclareAbsence", "absent"),
    ("RecordFairPlayConsent", "consent"),
    ("DrawLots", "draw-lots"),
    ("RecordTeam", "record-team"),
    ("SubmitLineup", "lineup"),
    ("CancelRegistration", "cancel-registration"),
    ("WithdrawPlayer", "withdraw"),
    ("StartRound", "start-round"),
    ("GetPairings", "pairings"),
    ("RequestRepairing", "repair"),
    ("PublishPairing", "publish"),
    ("RecordResult", "result"),
    ("OverridePlatformResult", "override"),
    ("ImposeSanction", "sanction"),
    ("RecordIrregularity", "irregularity"),
    ("RecordSupervisionBreach", "supervision-breach"),
    ("ReportConnectionIncident", "disconnect"),
    ("RuleOnDisconnection", "rule"),
    ("FileAppeal", "appeal"),
    ("DecideAppeal", "decide-appeal"),
    ("CorrectResult", "correct"),
    ("SubmitGames", "submit-games"),
    ("FileComplaint", "complain"),
    ("RunFullTest", "full-test"),
    ("GetScreening", "screening"),
    ("CloseRound", "close"),
    ("FinishTournament", "finish"),
    ("GetStandings", "standings"),
    ("ExportTrf", "export"),
    ("GetTournament", "show"),
    ("GetSchedule", "schedule"),
];

/// A service's message with each method it names given as the subcommand that calls it
/// (`use CorrectResult` becomes ``use `arbiter client correct` ``); other words unchanged.
fn cli_words(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        match SUBCOMMANDS.iter().find(|(rpc, _)| *rpc == word.as_str()) {
            Some((_, cmd)) => out.push_str(&format!("`arbiter client {cmd}`")),
            None => out.push_str(word),
        }
        word.clear();
    };
    for ch in message.chars() {
        if ch.is_ascii_alphanumeric() || ch == '_' {
            word.push(ch);
        } else {
            flush(&mut word, &mut out);
            out.push(ch);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// A command sent, and its outcome printed as `WHAT: tournament T version V`.
async fn command(
    context: &str,
    what: &str,
    rpc: impl Future<Output = Result<tonic::Response<CommandResult>, tonic::Status>>,
) -> Result<(), Exit> {
    print_result(what, &call(context, rpc).await?);
    Ok(())
}

fn print_result(what: &str, r: &CommandResult) {
    println!(
        "{what}: tournament {} version {}{}",
        r.tournament_id,
        r.last_version,
        if r.replayed {
            " (already applied: nothing appended)"
        } else {
            ""
        }
    );
}

pub fn run(a: ClientArgs) -> ExitCode {
    block_on(async {
        let mut c = Clients::connect(&a.conn, a.command_id.clone())?;
        a.command.run(&mut c).await
    })
}

#[cfg(test)]
mod tests;
