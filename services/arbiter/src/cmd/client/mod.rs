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
use std::time::{Duration, Instant};
use tonic::transport::Channel;

mod commands;
mod connect;
mod dispatch;
mod text;

pub use commands::*;
pub use connect::*;
use dispatch::*;
pub use text::*;

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
    /// The gRPC address of `arbiter serve` (printed when it starts).
    #[arg(long, global = true, default_value = "http://127.0.0.1:7070")]
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
    #[arg(long, global = true, default_value = "./data")]
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

/// The registration data of a player.
#[derive(clap::Args, Debug, Clone)]
pub struct PlayerData {
    /// "Surname, Given names".
    #[arg(long)]
    pub name: String,
    #[arg(long, default_value_t = 0)]
    pub rating: u32,
    #[arg(long)]
    pub fide_id: Option<u64>,
    /// GM, IM, WGM, FM, WIM, CM, WFM, WCM.
    #[arg(long)]
    pub title: Option<String>,
    /// FIDE federation code, e.g. NOR.
    #[arg(long, default_value = "")]
    pub federation: String,
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

/// Tournament data that can be set at creation and changed later.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct TournamentData {
    #[arg(long)]
    pub place: Option<String>,
    /// Organising federation, FIDE code (e.g. NOR).
    #[arg(long)]
    pub federation: Option<String>,
    /// A deputy arbiter (repeat for several); replaces the list.
    #[arg(long = "deputy")]
    pub deputies: Vec<String>,
    /// e.g. "90'+30\"".
    #[arg(long)]
    pub time_control: Option<String>,
    /// standard, rapid or blitz (only before round 1 starts).
    #[arg(long)]
    pub rating_kind: Option<String>,
    /// Tie-breaks in order, comma-separated, e.g. "BH/C1,BH,SB,DE".
    #[arg(long)]
    pub tie_breaks: Option<String>,
}

/// A knockout's regulations (`--system knockout`; Arbiters' Manual 2023 ch. IV §6.2). The rules fix none of
/// them, so none has a default: the server refuses a missing one naming it.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct KnockoutArgs {
    /// Seeding of the bracket: rating, or pairing-number (registration or drawing-of-lots order).
    #[arg(long)]
    pub ko_seeding: Option<String>,
    /// Classical games of each match (1-8).
    #[arg(long)]
    pub ko_classical_games: Option<u32>,
    /// The tie-break stages in order, comma-separated `KIND:GAMES[:TIME CONTROL]`, kind rapid
    /// or blitz, e.g. "rapid:2:25m+10s,blitz:2:5m+3s"; "none" for no stage.
    #[arg(long)]
    pub ko_tie_breaks: Option<String>,
    /// Who has White in game 1: higher-seed-white, higher-seed-black or lot.
    #[arg(long)]
    pub ko_first_colour: Option<String>,
    /// Each tie-break stage's first game: continue (the match's alternation), restart (game
    /// 1's colours) or lot.
    #[arg(long)]
    pub ko_tie_break_colours: Option<String>,
    /// White in the Armageddon game (White must win): lot, higher-seed-white,
    /// higher-seed-black or continue.
    #[arg(long)]
    pub ko_armageddon_colour: Option<String>,
    /// The Armageddon game's time control, e.g. "5m/4m".
    #[arg(long)]
    pub ko_armageddon_time_control: Option<String>,
    /// The published seed the lots are drawn from (required when a colour is drawn by lot).
    #[arg(long)]
    pub ko_lot_seed: Option<String>,
}

/// A team event's regulations (`--team-boards` makes the event a team event: a team Swiss
/// with `--system dutch`, a team round robin with round-robin or double-round-robin).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct TeamArgs {
    /// Boards per match.
    #[arg(long)]
    pub team_boards: Option<u32>,
    /// The most reserves a team lists beyond its boards.
    #[arg(long, default_value_t = 0)]
    pub team_reserves: u32,
    /// The board colours of the team named first (TRF-2026 record 352; default alternating
    /// from White, e.g. WBWB).
    #[arg(long)]
    pub team_colours: Option<String>,
    /// Match points for a won, drawn and lost match (record 362).
    #[arg(long, default_value = "2,1,0")]
    pub team_match_points: String,
    /// What ranks the teams: mp (match points) or gp (game points).
    #[arg(long, default_value = "mp")]
    pub team_ranking: String,
    /// The team pairing-allocated bye as "MATCH,GAME" points (record 320); required for an
    /// odd number of teams.
    #[arg(long)]
    pub team_pab: Option<String>,
}

impl TeamArgs {
    fn rules(&self) -> Result<Option<pb::TeamRules>, Exit> {
        let Some(boards) = self.team_boards else {
            return Ok(None);
        };
        let points = |flag: &str, v: &str| -> Result<Vec<i32>, Exit> {
            v.split(',')
                .map(|x| {
                    x.trim()
                        .parse::<arbiter_core::Score>()
                        .map(|s| s.tenths())
                        .map_err(|_| {
                            Exit::Invalid(format!("{flag} {v:?}: {x:?} is not a number of points"))
                        })
                })
                .collect()
        };
        let mp = points("--team-match-points", &self.team_match_points)?;
        let [win, draw, loss] = mp[..] else {
            return Err(Exit::Invalid(format!(
                "--team-match-points {:?}: three values, won,drawn,lost",
                self.team_match_points
            )));
        };
        let pab = match &self.team_pab {
            None => None,
            Some(v) => match points("--team-pab", v)?[..] {
                [match_points, game_points] => Some(pb::TeamBye {
                    match_points,
                    game_points,
                }),
                _ => {
                    return Err(Exit::Invalid(format!(
                        "--team-pab {v:?}: MATCH,GAME points"
                    )));
                }
            },
        };
        let ranking = match self.team_ranking.to_ascii_lowercase().as_str() {
            "mp" => pb::TeamRanking::MatchPoints,
            "gp" => pb::TeamRanking::GamePoints,
            other => return Err(Exit::Invalid(format!("--team-ranking {other:?}: mp or gp"))),
        };
        Ok(Some(pb::TeamRules {
            boards,
            reserves: self.team_reserves,
            match_win: win,
            match_draw: draw,
            match_loss: loss,
            ranking: ranking as i32,
            pab,
            colours: self.team_colours.clone().unwrap_or_else(|| {
                (0..boards)
                    .map(|b| if b % 2 == 0 { 'W' } else { 'B' })
                    .collect()
            }),
        }))
    }
}

impl KnockoutArgs {
    fn given(&self) -> bool {
        self.ko_seeding.is_some()
            || self.ko_classical_games.is_some()
            || self.ko_tie_breaks.is_some()
            || self.ko_first_colour.is_some()
            || self.ko_tie_break_colours.is_some()
            || self.ko_armageddon_colour.is_some()
            || self.ko_armageddon_time_control.is_some()
            || self.ko_lot_seed.is_some()
    }

    /// The regulations as the wire carries them; a choice not given stays unspecified, for the
    /// server to refuse by name.
    fn rules(&self) -> Result<pb::KnockoutRules, Exit> {
        fn pick<T: Copy>(
            flag: &str,
            v: &Option<String>,
            names: &[(&str, T)],
            none: T,
        ) -> Result<T, Exit> {
            let Some(v) = v else { return Ok(none) };
            let v = v.to_ascii_lowercase();
            names
                .iter()
                .find(|(n, _)| *n == v)
                .map(|(_, t)| *t)
                .ok_or_else(|| {
                    let all: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
                    Exit::Invalid(format!("{flag} {v:?}: one of {}", all.join(", ")))
                })
        }
        use pb::{
            KnockoutArmageddonColour as A, KnockoutFirstColour as F, KnockoutSeeding as S,
            KnockoutTieBreakColours as C,
        };
        let seeding = pick(
            "--ko-seeding",
            &self.ko_seeding,
            &[("rating", S::Rating), ("pairing-number", S::PairingNumber)],
            S::Unspecified,
        )?;
        let first = pick(
            "--ko-first-colour",
            &self.ko_first_colour,
            &[
                ("higher-seed-white", F::HigherSeedWhite),
                ("higher-seed-black", F::HigherSeedBlack),
                ("lot", F::Lot),
            ],
            F::Unspecified,
        )?;
        let tie_break_colours = pick(
            "--ko-tie-break-colours",
            &self.ko_tie_break_colours,
            &[
                ("continue", C::Continue),
                ("restart", C::Restart),
                ("lot", C::Lot),
            ],
            C::Unspecified,
        )?;
        let armageddon = pick(
            "--ko-armageddon-colour",
            &self.ko_armageddon_colour,
            &[
                ("lot", A::Lot),
                ("higher-seed-white", A::HigherSeedWhite),
                ("higher-seed-black", A::HigherSeedBlack),
                ("continue", A::Continue),
            ],
            A::Unspecified,
        )?;
        let mut stages = Vec::new();
        if let Some(list) = self
            .ko_tie_breaks
            .as_deref()
            .filter(|l| !l.eq_ignore_ascii_case("none"))
        {
            for stage in list.split(',').map(str::trim) {
                let mut parts = stage.splitn(3, ':');
                let kind = match parts.next().unwrap_or("").to_ascii_lowercase().as_str() {
                    "rapid" => pb::KnockoutStageKind::Rapid,
                    "blitz" => pb::KnockoutStageKind::Blitz,
                    other => {
                        return Err(Exit::Invalid(format!(
                            "--ko-tie-breaks {stage:?}: the kind {other:?} is not rapid or blitz"
                        )));
                    }
                };
                let games = parts.next().and_then(|g| g.parse::<u32>().ok()).ok_or_else(|| {
                    Exit::Invalid(format!("--ko-tie-breaks {stage:?}: KIND:GAMES[:TIME CONTROL], e.g. rapid:2:25m+10s"))
                })?;
                stages.push(pb::KnockoutStage {
                    kind: kind as i32,
                    games,
                    time_control: parts.next().unwrap_or("").to_string(),
                });
            }
        }
        Ok(pb::KnockoutRules {
            seeding: seeding as i32,
            classical_games: self.ko_classical_games.unwrap_or(0),
            tie_breaks: stages,
            first_colour: first as i32,
            tie_break_colours: tie_break_colours as i32,
            armageddon_colour: armageddon as i32,
            armageddon_time_control: self.ko_armageddon_time_control.clone().unwrap_or_default(),
            lot_seed: self.ko_lot_seed.clone().unwrap_or_default(),
        })
    }
}

pub fn run(a: ClientArgs) -> ExitCode {
    block_on(client(a))
}

#[cfg(test)]
mod tests;
