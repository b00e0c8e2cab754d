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

/// A knockout's regulations (`--system knockout`; S001 ch. IV §6.2). The rules fix none of
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

/// The subcommands in the order a tournament needs them. Players are named as `E7` (entry
/// number: stable) or `12` (pairing number: late entries and registrations before round 1
/// change it, see --as-of).
#[derive(clap::Subcommand, Debug)]
// Parsed once per run: `create`'s many options cost nothing worth a box.
#[allow(clippy::large_enum_variant)]
pub enum ClientCommand {
    /// 1. Set-up: create a tournament; prints its id.
    Create {
        #[arg(long)]
        name: String,
        #[arg(long)]
        rounds: u32,
        /// Start date, YYYY-MM-DD (default: today's local date, which the command prints). It
        /// decides the rules in force (the Dutch rule set, the tie-break regulations).
        #[arg(long)]
        start: Option<String>,
        /// End date, YYYY-MM-DD (default: the start date).
        #[arg(long)]
        end: Option<String>,
        /// dutch-2017 or dutch-2025 (default: the rules in force on the start date).
        #[arg(long)]
        rule_set: Option<String>,
        /// The pairing system: dutch, dubov, burstein, lim, round-robin, double-round-robin, scheveningen, semi-scheveningen, skalitzka, hilton or knockout (with the --ko-* regulations).
        #[arg(long, default_value = "dutch")]
        system: String,
        #[command(flatten)]
        knockout: KnockoutArgs,
        #[command(flatten)]
        teams: TeamArgs,
        /// The chief arbiter.
        #[arg(long, default_value = "Chief Arbiter")]
        arbiter: String,
        /// The tournament id (default: chosen by the server).
        #[arg(long)]
        id: Option<String>,
        /// Colour of the top seed in round 1: white or black.
        #[arg(long, default_value = "white")]
        initial_color: String,
        #[command(flatten)]
        data: TournamentData,
        /// How the games are played (E.04 Art. 6.1): otb, online-unsupervised,
        /// online-supervised or hybrid.
        #[arg(long, default_value = "otb")]
        format: String,
        /// The time control as periods, `[MOVES/]BASE[+INCREMENT]` separated by commas, e.g.
        /// "40/90m+30s,30m+30s" (required for online and hybrid events).
        #[arg(long)]
        periods: Option<String>,
        /// Hybrid events: players may use traditional boards (needs 30 s a move from move 1,
        /// E.04 Art. 20).
        #[arg(long)]
        traditional_boards: bool,
        /// Online unsupervised events: ask the fair-play consent too.
        #[arg(long)]
        require_consent: bool,
        /// The version of the regulations players consent to.
        #[arg(long, default_value = "")]
        regulations: String,
        /// Online events: how long a disconnected player has to come back besides his clock
        /// (e.g. 5m; E.04 11.4.2); default: until his flag falls.
        #[arg(long)]
        reconnection_window: Option<String>,
        /// Online supervised events: video-conference cards (E.04 13.4): the breach that
        /// reaches this count is a red card (the game lost), earlier ones yellow.
        #[arg(long, default_value_t = 0)]
        vcs_red_card_after: u32,
        /// The announced deadline for appeals after a decision (e.g. 30m; GR 10.3); default:
        /// none announced.
        #[arg(long)]
        appeal_deadline: Option<String>,
        /// Online supervised events: what the regulations ask of each player's supervision,
        /// comma-separated: camera (8.1), room-inspection (10.4), backup-device (9.8.1),
        /// assistants (8.2), recording (A.5), surroundings (A.6), vcs-before=DURATION (13.2).
        #[arg(long)]
        supervision: Option<String>,
        /// Online and hybrid events: the platform's name (E.04 2.4).
        #[arg(long)]
        platform: Option<String>,
        /// The platform's address (https://...).
        #[arg(long, requires = "platform")]
        platform_url: Option<String>,
        /// The platform's features, comma-separated: premove, smart-move, auto-queen,
        /// call-arbiter-pauses-clocks, berserk, draw-offer-with-move,
        /// auto-draw-extra-positions, smart-board-input.
        #[arg(long, requires = "platform")]
        platform_features: Option<String>,
        /// The platform accepts illegal moves, and this is how the regulations handle them
        /// (E.04 8.4, 16.10).
        #[arg(long, requires = "platform")]
        illegal_move_policy: Option<String>,
    },
    /// 1. Set-up: change name, place, federation, arbiters, time control, rating list,
    ///    tie-breaks, dates or rounds.
    Update {
        tournament: String,
        #[arg(long)]
        name: Option<String>,
        /// The chief arbiter.
        #[arg(long)]
        arbiter: Option<String>,
        /// Remove every deputy arbiter.
        #[arg(long, conflicts_with = "deputies")]
        no_deputies: bool,
        #[arg(long)]
        rounds: Option<u32>,
        /// YYYY-MM-DD.
        #[arg(long)]
        start: Option<String>,
        /// YYYY-MM-DD.
        #[arg(long)]
        end: Option<String>,
        #[command(flatten)]
        data: TournamentData,
    },
    /// 1. Set-up: set the tie-break list, e.g. "BH/C1,BH,SB,DE".
    TieBreaks { tournament: String, list: String },
    /// 2. Players: register a player; prints his pairing number and entry number. Once round
    ///    1 is paired he is a late entry (C.04.2.C), which it prints.
    Register {
        tournament: String,
        #[command(flatten)]
        player: PlayerData,
        /// A late entry from this round.
        #[arg(long)]
        first_round: Option<u32>,
        /// A player of the same name is registered and one of the two has no FIDE id: register
        /// him anyway (another person, not a duplicate).
        #[arg(long)]
        same_name_ok: bool,
    },
    /// 2. Players: a late entry (C.04.2.C): paired from --first-round; prints his numbers.
    LateEntry {
        tournament: String,
        #[command(flatten)]
        player: PlayerData,
        /// The first round he is paired in (default: the next round to pair).
        #[arg(long)]
        first_round: Option<u32>,
        /// What the rounds he missed score: zero or half.
        #[arg(long, default_value = "zero")]
        missed: String,
        /// As for `register`: another person of the same name.
        #[arg(long)]
        same_name_ok: bool,
    },
    /// 2. Players: list them: pairing number, entry number, name, rating, status.
    Players { tournament: String },
    /// 2. Players: correct a player's data (before round 1 starts he moves to his place).
    CorrectPlayer {
        tournament: String,
        /// E7 (entry) or 12 (pairing number).
        player: PlayerArg,
        #[arg(long)]
        name: Option<String>,
        #[arg(long)]
        rating: Option<u32>,
        #[arg(long)]
        fide_id: Option<u64>,
        /// GM, IM, WGM, FM, WIM, CM, WFM, WCM, or "none".
        #[arg(long)]
        title: Option<String>,
        #[arg(long)]
        federation: Option<String>,
        #[arg(long)]
        club: Option<String>,
        /// Why (recorded with the correction).
        #[arg(long)]
        reason: String,
        #[command(flatten)]
        as_of: AsOf,
    },
    /// 3. Before a round: request a bye (half, zero or full).
    Bye {
        tournament: String,
        /// E7 (entry) or 12 (pairing number).
        player: PlayerArg,
        round: u32,
        #[arg(long, default_value = "half")]
        kind: String,
        #[command(flatten)]
        as_of: AsOf,
    },
    /// 3. Before a round: cancel a requested bye.
    CancelBye {
        tournament: String,
        /// E7 (entry) or 12 (pairing number).
        player: PlayerArg,
        round: u32,
        #[command(flatten)]
        as_of: AsOf,
    },
    /// 3. Before a round: declare a player absent from a round (not paired, zero points).
    Absent {
        tournament: String,
        /// E7 (entry) or 12 (pairing number).
        player: PlayerArg,
        round: u32,
        #[arg(long, default_value = "")]
        reason: String,
        #[command(flatten)]
        as_of: AsOf,
    },
    /// 2. Players: record a player's fair-play consent for an online or hybrid event (E.04
    ///    Appendix I J); without it he is not paired.
    Consent {
        tournament: String,
        /// E7 (entry) or 12 (pairing number).
        player: PlayerArg,
        /// The version of the event's regulations he accepts.
        #[arg(long)]
        regulations: String,
        /// Who accepted: the player, or his guardian (with --guardian).
        #[arg(long)]
        accepted_by: String,
        #[arg(long)]
        guardian: bool,
        /// His personal platform account (E.04 9.3).
        #[arg(long, default_value = "")]
        account: String,
        /// analysis-and-sanctions, real-name, remote-supervision, recording,
        /// complaints-procedure (comma-separated), or all.
        #[arg(long, default_value = "all")]
        items: String,
        #[command(flatten)]
        as_of: AsOf,
    },
    /// 2. Players: a round robin's drawing of lots (C.05 §6.2), once, before round 1: from a
    ///    published --seed (the service draws; anyone re-derives it), or the --numbers drawn in
    ///    the hall. --varma: the restricted draw of the Varma tables (C.05 Annex 2).
    DrawLots {
        tournament: String,
        #[arg(long)]
        varma: bool,
        #[arg(long, default_value = "", conflicts_with = "numbers")]
        seed: String,
        /// The number drawn by each player, in pairing-number order, comma-separated
        /// (e.g. 3,1,2 gives player 1 number 3).
        #[arg(long, value_delimiter = ',')]
        numbers: Vec<u32>,
    },
    /// 2. Players: a team's list in board order (a team event, before round 1): its players'
    ///    pairing numbers, comma-separated; numbered in seeding order (0 = the next).
    RecordTeam {
        tournament: String,
        #[arg(long)]
        name: String,
        #[arg(long, default_value_t = 0)]
        number: u32,
        #[arg(long, value_delimiter = ',', required = true)]
        members: Vec<u32>,
    },
    /// 4. A team event's round: a team's line-up, board 1 first (pairing numbers of its list,
    ///    in the list's order), before the round's boards are published.
    Lineup {
        tournament: String,
        round: u32,
        team: u32,
        #[arg(value_delimiter = ',', required = true)]
        players: Vec<u32>,
    },
    /// 2. Players: cancel a registration made in error (a duplicate, the wrong player) before
    ///    he is first paired: he leaves the list, the numbers below close up. Once a published
    ///    pairing lists him, withdraw him instead.
    CancelRegistration {
        tournament: String,
        /// E7 (entry) or 12 (pairing number).
        player: PlayerArg,
        /// Why (recorded with the cancellation).
        #[arg(long, default_value = "")]
        reason: String,
        #[command(flatten)]
        as_of: AsOf,
    },
    /// 3. Before a round: withdraw a player (from the next round to pair, or --from-round).
    Withdraw {
        tournament: String,
        /// E7 (entry) or 12 (pairing number).
        player: PlayerArg,
        #[arg(long)]
        from_round: Option<u32>,
        #[arg(long, default_value = "")]
        reason: String,
        #[command(flatten)]
        as_of: AsOf,
    },
    /// 4. Pairing: start a round and wait for the pairing worker's proposal.
    StartRound {
        tournament: String,
        round: u32,
        /// Seconds to wait for the proposal.
        #[arg(long, default_value_t = 30)]
        wait: u64,
    },
    /// 4. Pairing: show the pairings of a round (proposed or published).
    Pairings { tournament: String, round: u32 },
    /// 4. Pairing: ask the pairing worker for a new pairing of a started round.
    Repair {
        tournament: String,
        round: u32,
        #[arg(long, default_value = "")]
        reason: String,
    },
    /// 5. Publish: the proposal, or an amended pairing (--board W-B ... with a --note).
    Publish {
        tournament: String,
        round: u32,
        /// A board of the amended pairing, White-Black in board order, e.g. 12-5 or E3-E9
        /// (repeat for every board).
        #[arg(long = "board")]
        boards: Vec<String>,
        /// The pairing-allocated bye of the amended pairing.
        #[arg(long)]
        bye: Option<PlayerArg>,
        /// Why the pairing was amended (required with --board).
        #[arg(long, default_value = "")]
        note: String,
        #[command(flatten)]
        as_of: AsOf,
    },
    /// 6. Results: record one: 1-0, 0-1, 1/2, +/-, -/+, -/-, W/L, D/D, L/W (not rated), or an
    ///    arbiter's decision 0-0, 1/2-0, 0-1/2, 1-1/2, 1/2-1, 1-1.
    Result {
        tournament: String,
        round: u32,
        board: u32,
        #[arg(allow_hyphen_values = true)]
        result: String,
    },
    /// 6. Results: online and hybrid events: the arbiter's result in place of the platform's
    ///    (the submitted game's), with a reason (E.04 9.14, 15.3-15.4).
    Override {
        tournament: String,
        round: u32,
        board: u32,
        /// 1-0, 0-1 or 1/2 (or unrated W/L, D/D, L/W).
        #[arg(allow_hyphen_values = true)]
        result: String,
        #[arg(long)]
        reason: String,
    },
    /// 6. Results: a sanction of the Laws' catalogue (12.9) with its evidence: warning,
    ///    add-time, reduce-time, increase-opponent-score, reduce-score, game-lost, fine,
    ///    exclusion, expulsion. Statistical evidence alone is refused.
    Sanction {
        tournament: String,
        /// E7 (entry) or 12 (pairing number).
        player: PlayerArg,
        kind: String,
        /// The round of the game concerned (game-lost).
        #[arg(long)]
        round: Option<u32>,
        /// Rounds of an exclusion, comma-separated.
        #[arg(long)]
        rounds: Option<String>,
        /// Time or money, as the regulations state it.
        #[arg(long, default_value = "")]
        amount: String,
        /// Default: the kind's article of the Laws.
        #[arg(long, default_value = "")]
        article: String,
        /// KIND:REFERENCE[:NOTE] (repeat); KIND is physical, observed-breach, admission,
        /// platform-decision, statistical or testimony.
        #[arg(long = "evidence")]
        evidence: Vec<String>,
        #[arg(long, default_value = "")]
        note: String,
        #[command(flatten)]
        as_of: AsOf,
    },
    /// 6. Results: an irregularity on a board: colours-reversed (the rule decides), clock-wrong,
    ///    interrupted, arbiter-called.
    Irregularity {
        tournament: String,
        round: u32,
        board: u32,
        kind: String,
        /// Half-moves played when it was found.
        #[arg(long, default_value_t = 0)]
        plies: u32,
        /// continue, clocks-corrected, clocks-stopped, time-added (not for colours-reversed).
        #[arg(long)]
        decision: Option<String>,
        #[arg(long, default_value = "")]
        note: String,
    },
    /// 6. Results: online supervised events: a breach of the supervision rules by a board's
    ///    player (E.04 8, 9, 10.4, 12-14), e.g. person-in-playing-area, headphones; prints
    ///    the breach's number.
    SupervisionBreach {
        tournament: String,
        round: u32,
        board: u32,
        /// The player's pairing number.
        player: u32,
        item: String,
        #[arg(long, default_value = "")]
        note: String,
    },
    /// 6. Results: online and hybrid events: a player's lost connection during his game
    ///    (E.04 11, 13, 18.8); prints the incident's number.
    Disconnect {
        tournament: String,
        round: u32,
        board: u32,
        /// The player's pairing number.
        player: u32,
        /// platform or video (the video-conference of a supervised event).
        #[arg(long, default_value = "platform")]
        channel: String,
        /// His clock when he disconnected (e.g. 3m, 180s).
        #[arg(long)]
        clock: String,
        /// How long he was away (e.g. 2m); absent: not back.
        #[arg(long)]
        away: Option<String>,
        /// He moved on the platform while off the video-conference (E.04 13.3).
        #[arg(long)]
        moved_off_video: bool,
        /// platform, lta (a venue's technical arbiter) or arbiter.
        #[arg(long, default_value = "arbiter")]
        reported_by: String,
        #[arg(long, default_value = "")]
        note: String,
    },
    /// 6. Results: the chief arbiter's ruling on a disconnection: continue, loss, draw
    ///    (no mating material), and in hybrid events resume, reduce-time, restart,
    ///    restart-shorter (E.04 11.4, 18.9).
    Rule {
        tournament: String,
        incident: u32,
        outcome: String,
        /// The position at the flag or the interruption (needed for loss, draw, resume).
        #[arg(long, default_value = "")]
        fen: String,
        /// Resume: White's and Black's clocks (e.g. 9m, or 545 seconds).
        #[arg(long)]
        white_clock: Option<String>,
        #[arg(long)]
        black_clock: Option<String>,
        /// Reduce-time: by how much.
        #[arg(long)]
        reduce: Option<String>,
        /// Restart-shorter: the time control.
        #[arg(long, default_value = "")]
        time_control: String,
        #[arg(long, default_value = "")]
        note: String,
    },
    /// 7. Appeals: appeal an arbiter's decision, named by its event's stream version (a
    ///    result, an override, a sanction, an irregularity or a disconnection ruling).
    Appeal {
        tournament: String,
        /// The appellant: E7 (entry) or 12 (pairing number).
        appellant: PlayerArg,
        /// The stream version of the decision's event (`show`, `StreamEvents`).
        decision_version: u64,
        #[arg(long)]
        grounds: String,
        #[arg(long, default_value = "")]
        deposit: String,
        #[command(flatten)]
        as_of: AsOf,
    },
    /// 7. Appeals: the appeals committee's decision (an odd number of members, at least three);
    ///    an upheld appeal may set a board's result.
    DecideAppeal {
        tournament: String,
        appeal: u32,
        #[arg(long)]
        upheld: bool,
        /// A member who sat (repeat).
        #[arg(long = "member")]
        committee: Vec<String>,
        #[arg(long)]
        deposit_returned: bool,
        /// The result the decision sets: ROUND BOARD RESULT, e.g. "3 5 1/2".
        #[arg(long, num_args = 3, value_names = ["ROUND", "BOARD", "RESULT"], allow_hyphen_values = true)]
        result: Option<Vec<String>>,
        #[arg(long, default_value = "")]
        note: String,
    },
    /// 7. Corrections: correct a recorded result (C.04.2.D.8).
    Correct {
        tournament: String,
        round: u32,
        board: u32,
        #[arg(allow_hyphen_values = true)]
        result: String,
        #[arg(long)]
        reason: String,
    },
    /// 7. Games: submit a round's games from one PGN file for fair-play screening: each game
    ///    goes to the board whose White and Black are its White and Black tags (registered
    ///    names); all or nothing (a refused game is named and nothing is submitted); at most
    ///    8 MiB, 1 MiB a game; games already submitted: refused (ALREADY_EXISTS).
    SubmitGames {
        tournament: String,
        round: u32,
        /// The PGN file (UTF-8).
        file: PathBuf,
    },
    /// 8. Online and hybrid events: a participant's written fair-play complaint (E.04 Appendix
    ///    I G.2): within 24 hours of the last round, not on the rating alone; confidential.
    Complain {
        tournament: String,
        /// The complainant: E7 (entry) or 12 (pairing number); he needs a FIDE id.
        complainant: PlayerArg,
        /// The accused's pairing number.
        accused: u32,
        #[arg(long)]
        grounds: String,
        /// KIND:REFERENCE[:NOTE] (repeat), as for `sanction`.
        #[arg(long = "evidence")]
        evidence: Vec<String>,
        /// The complaint rests only on the accused playing above his rating.
        #[arg(long)]
        only_rating: bool,
        #[command(flatten)]
        as_of: AsOf,
    },
    /// 8. The arbiter's record: platform discrepancies and overrides, irregularities,
    ///    sanctions, connection incidents and rulings, appeals, with their stream versions.
    Record { tournament: String },
    /// 8. Close a round (every result in).
    Close { tournament: String, round: u32 },
    /// 9. Finish the tournament.
    Finish { tournament: String },
    /// 10. Show the standings: place (shared as "3-5"), points and the tournament's tie-breaks
    ///     (else the recommended list), as on the pages and in the export.
    Standings {
        tournament: String,
        /// After this round (default: the last round whose results are all in).
        #[arg(long, default_value_t = 0)]
        after_round: u32,
    },
    /// 10. Write the TRF16 export.
    Export {
        tournament: String,
        #[arg(short = 'o', long = "out")]
        output: Option<PathBuf>,
    },
    /// Any time: show the tournament's state.
    Show { tournament: String },
    /// Any time: a round robin's whole schedule by pairing numbers, the drawing of lots that
    /// gave the numbers, and the rounds where compatriots meet.
    Schedule { tournament: String },
    /// Any time: list the tournaments.
    List,
}

/// Clients of the services.
pub struct Clients {
    pub registration: RegistrationClient<Authed>,
    pub director: RoundDirectorClient<Authed>,
    pub reporting: ReportingClient<Authed>,
    pub screening: ScreeningClient<Authed>,
    command_id: Option<String>,
}

/// A channel whose calls carry the bearer token.
pub type Authed = WithToken<Channel>;

fn channel(url: &str) -> Result<Channel, Exit> {
    // TCP_NODELAY and HTTP/2 keep-alive: see arbiter_service_kit::net.
    Ok(arbiter_service_kit::net::endpoint(url)
        .map_err(|e| Exit::Invalid(format!("server address {url:?}: {e}")))?
        .connect_timeout(Duration::from_secs(5))
        .connect_lazy())
}

impl Clients {
    /// Clients of the services at `c` (connected on first use).
    pub fn connect(c: &Connection, command_id: Option<String>) -> Result<Clients, Exit> {
        let url = |o: &Option<String>| o.clone().unwrap_or_else(|| c.server.clone());
        let token = client_token(c.token.as_deref(), &c.data)?;
        let authed = |url: &str| {
            WithToken::new(channel(url)?, token.as_deref())
                .map_err(|e| Exit::Invalid(format!("--token: {e}")))
        };
        Ok(Clients {
            registration: RegistrationClient::new(authed(&url(&c.registration))?),
            director: RoundDirectorClient::new(authed(&url(&c.director))?),
            reporting: ReportingClient::new(authed(&url(&c.reporting))?),
            screening: ScreeningClient::new(authed(&url(&c.screening))?)
                .max_encoding_message_size(arbiter_service_kit::edge::MAX_ROUND_PGN_BYTES + 4096),
            command_id,
        })
    }

    /// A command header for `tournament`.
    pub fn header(&self, tournament: &str) -> Option<CommandHeader> {
        Some(CommandHeader {
            tournament_id: tournament.to_string(),
            command_id: self.command_id.clone().unwrap_or_default(),
            expected_version: None,
            actor: "arbiter-client".into(),
        })
    }

    fn tref(tournament: &str) -> Option<TournamentRef> {
        Some(TournamentRef {
            tournament_id: tournament.to_string(),
            as_of_version: 0,
        })
    }

    /// Player names by pairing number.
    pub async fn names(&mut self, tournament: &str) -> Result<BTreeMap<u32, String>, Exit> {
        let players = self
            .registration
            .list_players(reg::ListPlayersRequest {
                tournament: Self::tref(tournament),
            })
            .await
            .map_err(|s| status_exit("players", &s))?
            .into_inner();
        Ok(players
            .players
            .into_iter()
            .filter_map(|p| p.player.map(|p| (p.player_id, p.name)))
            .collect())
    }

    /// Waits up to `wait` for a proposal (or a publication) of `round`.
    pub async fn wait_for_pairing(
        &mut self,
        tournament: &str,
        round: u32,
        wait: Duration,
    ) -> Result<rep::RoundPairings, Exit> {
        let deadline = Instant::now() + wait;
        loop {
            match self
                .reporting
                .get_pairings(rep::GetPairingsRequest {
                    tournament: Self::tref(tournament),
                    round,
                })
                .await
            {
                Ok(p) => return Ok(p.into_inner()),
                Err(s) if s.code() == tonic::Code::NotFound && Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                Err(s) if s.code() == tonic::Code::NotFound => {
                    return Err(Exit::Differs(format!(
                        "tournament {tournament}: no proposal for round {round} after {wait:?} \
                         (is a pairing worker running? did the pairing fail?)"
                    )));
                }
                Err(s) => return Err(status_exit("pairings", &s)),
            }
        }
    }

    /// The player list (with its numbering version).
    pub async fn players(&mut self, tournament: &str) -> Result<reg::ListPlayersResponse, Exit> {
        Ok(self
            .registration
            .list_players(reg::ListPlayersRequest {
                tournament: Self::tref(tournament),
            })
            .await
            .map_err(|s| status_exit("players", &s))?
            .into_inner())
    }

    /// How a command names `player`: an entry number as it is; a pairing number with the
    /// numbering it was read from (`--as-of`, else the list read now), so that the server
    /// refuses it if a registration gave the number to another player since.
    pub async fn player_ref(
        &mut self,
        tournament: &str,
        player: PlayerArg,
        as_of: AsOf,
    ) -> Result<WirePlayer, Exit> {
        Ok(match player {
            PlayerArg::Entry(entry) => WirePlayer {
                entry,
                player_id: 0,
                numbering_version: None,
            },
            PlayerArg::Number(player_id) => WirePlayer {
                entry: 0,
                player_id,
                numbering_version: Some(match as_of.as_of {
                    Some(v) => v,
                    None => self.players(tournament).await?.version,
                }),
            },
        })
    }

    pub async fn update(
        &mut self,
        tournament: &str,
        update: pb::TournamentUpdated,
    ) -> Result<CommandResult, Exit> {
        Ok(self
            .registration
            .update_tournament(reg::UpdateTournamentRequest {
                header: self.header(tournament),
                update: Some(update),
            })
            .await
            .map_err(|s| status_exit("update", &s))?
            .into_inner())
    }

    /// Publishes the arbiter's own pairing of `round`: boards "W-B" in board order and the
    /// pairing-allocated bye, players by pairing number (read as of `as_of`, else now) or by
    /// entry (translated with the list read now, and its version sent with them).
    pub async fn publish_amended(
        &mut self,
        tournament: &str,
        round: u32,
        boards: &[String],
        bye: Option<PlayerArg>,
        note: String,
        as_of: AsOf,
    ) -> Result<CommandResult, Exit> {
        let list = self.players(tournament).await?;
        let by_entry: BTreeMap<u32, u32> = list
            .players
            .iter()
            .filter_map(|p| p.player.as_ref().map(|pl| (p.entry, pl.player_id)))
            .collect();
        let uses_entries = boards.iter().any(|b| b.contains(['E', 'e']))
            || matches!(bye, Some(PlayerArg::Entry(_)));
        if uses_entries && as_of.as_of.is_some() {
            return Err(Exit::Invalid(
                "--as-of: give pairing numbers only, or entry numbers without --as-of".into(),
            ));
        }
        let number = |p: PlayerArg| -> Result<u32, Exit> {
            match p {
                PlayerArg::Number(n) => Ok(n),
                PlayerArg::Entry(e) => by_entry
                    .get(&e)
                    .copied()
                    .ok_or_else(|| Exit::Invalid(format!("E{e}: no player has this entry number"))),
            }
        };
        let mut wire = Vec::with_capacity(boards.len());
        for (i, b) in boards.iter().enumerate() {
            let (w, bl) = b.split_once('-').ok_or_else(|| {
                Exit::Invalid(format!("--board {b:?}: White-Black, e.g. 12-5 or E3-E9"))
            })?;
            let parse = |t: &str| -> Result<PlayerArg, Exit> {
                t.parse::<PlayerArg>()
                    .map_err(|e| Exit::Invalid(format!("--board {b:?}: {e}")))
            };
            wire.push(pb::Board {
                number: i as u32 + 1,
                white: number(parse(w)?)?,
                black: number(parse(bl)?)?,
            });
        }
        let unpaired = match bye {
            None => Vec::new(),
            Some(p) => vec![pb::Unpaired {
                player_id: number(p)?,
                code: pb::ResultCode::PairingBye as i32,
            }],
        };
        Ok(self
            .director
            .publish_pairing(rd::PublishPairingRequest {
                header: self.header(tournament),
                round,
                proposal_version: 0,
                boards: wire,
                unpaired,
                note,
                by_entry: false,
                numbering_version: Some(as_of.as_of.unwrap_or(list.version)),
                team_bye: 0,
                team_matches: Vec::new(),
            })
            .await
            .map_err(|s| status_exit("publish", &s))?
            .into_inner())
    }

    pub async fn start_round(
        &mut self,
        tournament: &str,
        round: u32,
    ) -> Result<CommandResult, Exit> {
        Ok(self
            .director
            .start_round(rd::StartRoundRequest {
                header: self.header(tournament),
                round,
                scheduled_unix_ms: 0,
            })
            .await
            .map_err(|s| status_exit("start-round", &s))?
            .into_inner())
    }

    pub async fn publish(&mut self, tournament: &str, round: u32) -> Result<CommandResult, Exit> {
        Ok(self
            .director
            .publish_pairing(rd::PublishPairingRequest {
                header: self.header(tournament),
                round,
                proposal_version: 0,
                boards: Vec::new(),
                unpaired: Vec::new(),
                note: String::new(),
                ..Default::default()
            })
            .await
            .map_err(|s| status_exit("publish", &s))?
            .into_inner())
    }

    pub async fn result(
        &mut self,
        tournament: &str,
        round: u32,
        board: u32,
        result: BoardResult,
    ) -> Result<CommandResult, Exit> {
        let (r, w, b) = board_result_to_wire(result);
        Ok(self
            .director
            .record_result(rd::RecordResultRequest {
                header: self.header(tournament),
                round,
                board,
                result: r as i32,
                white_code: w,
                black_code: b,
            })
            .await
            .map_err(|s| status_exit("result", &s))?
            .into_inner())
    }

    pub async fn close(&mut self, tournament: &str, round: u32) -> Result<CommandResult, Exit> {
        Ok(self
            .director
            .close_round(rd::CloseRoundRequest {
                header: self.header(tournament),
                round,
            })
            .await
            .map_err(|s| status_exit("close", &s))?
            .into_inner())
    }

    pub async fn standings(&mut self, tournament: &str, after_round: u32) -> Result<String, Exit> {
        let s = self
            .reporting
            .get_standings(rep::GetStandingsRequest {
                tournament: Self::tref(tournament),
                after_round,
            })
            .await
            .map_err(|s| status_exit("standings", &s))?
            .into_inner();
        Ok(standings_text(&s))
    }
}

/// A tie-break value as the rules print it (`units / 10^scale`); "" when undefined.
fn decimal_text(v: Option<&arbiter_proto::common::v1::Decimal>) -> String {
    let Some(d) = v else {
        return String::new();
    };
    if d.scale == 0 {
        return d.units.to_string();
    }
    let p = 10i64.pow(d.scale.min(18));
    let sign = if d.units < 0 { "-" } else { "" };
    let a = d.units.unsigned_abs();
    format!(
        "{sign}{}.{:0w$}",
        a / p as u64,
        a % p as u64,
        w = d.scale as usize
    )
}

/// The standings as `arbiter client standings` prints them: place (a shared one as "3-5"),
/// pairing number, name, rating, points and one column per tie-break, then the list used, where
/// it came from and the rule version.
pub fn standings_text(s: &rep::Standings) -> String {
    let mut out = format!(
        "Standings after round {} (version {})\n",
        s.after_round, s.version
    );
    // A team event: the teams first (match and game points, the team tie-breaks).
    if !s.team_rows.is_empty() {
        out.push_str(&format!(
            "Teams ({})\n Place Team  Name                             MP     GP  {}\n",
            s.team_tie_break_list.join(", "),
            s.team_tie_break_list.join("  ")
        ));
        for r in &s.team_rows {
            let place = if r.rank_to > r.rank {
                format!("{}-{}", r.rank, r.rank_to)
            } else {
                r.rank.to_string()
            };
            let tbs: Vec<String> = r
                .tie_breaks
                .iter()
                .map(|t| decimal_text(t.value.as_ref()))
                .collect();
            out.push_str(&format!(
                "{place:>6} {:>4}  {:<28} {:>6} {:>6}  {}\n",
                r.team,
                r.name,
                points(r.match_points),
                points(r.game_points),
                tbs.join("  ")
            ));
        }
        out.push_str("Players\n");
    }
    let mut head = format!(
        "{:>5} {:>4}  {:<32} {:>6} {:>6}",
        "Place", "No", "Name", "Rating", "Points"
    );
    for code in &s.tie_break_list {
        head.push_str(&format!(" {code:>7}"));
    }
    out.push_str(head.trim_end());
    out.push('\n');
    for r in &s.rows {
        let mut line = format!(
            "{:>5} {:>4}  {:<32} {:>6} {:>6}",
            r.place,
            r.player_id,
            r.name,
            r.rating,
            points(r.points)
        );
        for (k, code) in s.tie_break_list.iter().enumerate() {
            let v = r
                .tie_breaks
                .get(k)
                .filter(|v| v.code == *code)
                .and_then(|v| v.value.as_ref());
            line.push_str(&format!(" {:>w$}", decimal_text(v), w = code.len().max(7)));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    let from = match rep::TieBreakSource::try_from(s.tie_break_source) {
        Ok(rep::TieBreakSource::Tournament) => "the tournament's list",
        Ok(rep::TieBreakSource::Recommended) => "the recommended list",
        _ => "as given",
    };
    let list = if s.tie_break_list.is_empty() {
        "none".to_string()
    } else {
        s.tie_break_list.join(",")
    };
    out.push_str(&format!(
        "Tie-breaks: {list} ({from}); rules {}\n",
        s.rule_version
    ));
    for n in &s.notes {
        out.push_str(&format!("Note: {n}\n"));
    }
    out
}

/// A player as a command request names him.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WirePlayer {
    pub entry: u32,
    pub player_id: u32,
    pub numbering_version: Option<u64>,
}

fn wire_date(s: &str) -> Result<pb::Date, Exit> {
    let d: arbiter_core::tournament::Date = s
        .parse()
        .map_err(|e| Exit::Invalid(format!("date {s:?}: {e}")))?;
    Ok(date_to_wire(d))
}

fn named_arbiter(name: String) -> pb::Arbiter {
    pb::Arbiter {
        name,
        fide_id: None,
        title: String::new(),
    }
}

fn rating_kind(s: &str) -> Result<pb::RatingKind, Exit> {
    match s.to_ascii_lowercase().as_str() {
        "standard" | "std" => Ok(pb::RatingKind::Standard),
        "rapid" => Ok(pb::RatingKind::Rapid),
        "blitz" => Ok(pb::RatingKind::Blitz),
        other => Err(Exit::Invalid(format!(
            "--rating-kind {other:?}: standard, rapid or blitz"
        ))),
    }
}

/// "BH/C1, BH,SB" as a list; the server checks the codes.
fn tie_break_list(s: &str) -> Vec<String> {
    s.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

fn player_wire(p: PlayerData) -> Result<pb::Player, Exit> {
    let title = match p.title.as_deref().map(str::to_ascii_uppercase).as_deref() {
        None => pb::Title::Unspecified,
        Some("GM") => pb::Title::Gm,
        Some("IM") => pb::Title::Im,
        Some("WGM") => pb::Title::Wgm,
        Some("FM") => pb::Title::Fm,
        Some("WIM") => pb::Title::Wim,
        Some("CM") => pb::Title::Cm,
        Some("WFM") => pb::Title::Wfm,
        Some("WCM") => pb::Title::Wcm,
        Some(other) => return Err(Exit::Invalid(format!("--title {other:?}"))),
    };
    Ok(pb::Player {
        name: p.name,
        rating: p.rating,
        fide_id: p.fide_id,
        title: title as i32,
        federation: p.federation,
        ..Default::default()
    })
}

fn result_arg(s: &str) -> Result<BoardResult, Exit> {
    parse_result(s).ok_or_else(|| {
        Exit::Invalid(format!(
            "result {s:?}: write 1-0, 0-1, 1/2, +/-, -/+, -/-, W/L, D/D, L/W, or a decision \
             0-0, 1/2-0, 0-1/2, 1-1/2, 1/2-1, 1-1"
        ))
    })
}

fn print_registered(r: &CommandResult) {
    print_result("registered", r);
    println!(
        "pairing number {}, entry E{} (the entry never changes; the pairing number may)",
        r.player_id, r.entry
    );
    if r.first_round > 1 {
        println!(
            "a late entry (C.04.2.C): paired from round {}; rounds 1-{} are scored as missed \
             (`late-entry --missed` sets how)",
            r.first_round,
            r.first_round - 1
        );
    }
}

/// The server's same-name refusal names its request field; say the flag.
fn same_name_hint(e: Exit) -> Exit {
    match e {
        Exit::Differs(m) if m.contains("confirm_same_name") => Exit::Differs(format!(
            "{m}\n(another person of the same name: register him with --same-name-ok)"
        )),
        other => other,
    }
}

/// Today's date in the local time zone, YYYY-MM-DD.
fn local_date() -> Result<String, Exit> {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_err(|e| Exit::Invalid(format!("the clock is before 1970: {e}")))?
        .as_secs() as libc::time_t;
    // SAFETY: localtime_r writes only into `tm`, which lives for the call.
    let mut tm: libc::tm = unsafe { std::mem::zeroed() };
    if unsafe { libc::localtime_r(&now, &mut tm) }.is_null() {
        return Err(Exit::Invalid(
            "today's local date cannot be read: give --start YYYY-MM-DD".into(),
        ));
    }
    Ok(format!(
        "{:04}-{:02}-{:02}",
        tm.tm_year + 1900,
        tm.tm_mon + 1,
        tm.tm_mday
    ))
}

/// Points in tenths as text: "3", "3.5".
pub fn points(tenths: i32) -> String {
    if tenths % 10 == 0 {
        format!("{}", tenths / 10)
    } else {
        format!("{}.{}", tenths / 10, (tenths % 10).abs())
    }
}

/// Reads a board result as arbiters write it.
pub fn parse_result(s: &str) -> Option<BoardResult> {
    Some(match s.trim().replace(' ', "").as_str() {
        "1-0" | "1:0" => BoardResult::WhiteWins,
        "0-1" | "0:1" => BoardResult::BlackWins,
        "1/2" | "=" | "½-½" | "1/2-1/2" | "0.5-0.5" | "draw" => BoardResult::Draw,
        "+/-" | "+-" | "1F-0" => BoardResult::WhiteWinsForfeit,
        "-/+" | "-+" | "0-1F" => BoardResult::BlackWinsForfeit,
        "-/-" | "--" | "0F-0F" => BoardResult::DoubleForfeit,
        "W/L" | "w/l" | "1U-0U" => BoardResult::WhiteWinsUnrated,
        "D/D" | "d/d" | "=U-=U" => BoardResult::DrawUnrated,
        "L/W" | "l/w" | "0U-1U" => BoardResult::BlackWinsUnrated,
        // Arbiter decisions over the board that no named result covers (C.04.2.D.8 leaves the
        // scores to the arbiter): each side's points.
        other => {
            let (w, b) = other.split_once('-')?;
            let code = |t: &str| match t {
                "1" => Some(ResultCode::Win),
                "1/2" | "½" | "0.5" | "=" => Some(ResultCode::Draw),
                "0" => Some(ResultCode::Loss),
                _ => None,
            };
            let (white, black) = (code(w)?, code(b)?);
            match (white, black) {
                (ResultCode::Win, ResultCode::Loss) => BoardResult::WhiteWins,
                (ResultCode::Loss, ResultCode::Win) => BoardResult::BlackWins,
                (ResultCode::Draw, ResultCode::Draw) => BoardResult::Draw,
                _ => BoardResult::ArbiterDecision { white, black },
            }
        }
    })
}

fn result_text(p: &rep::PairedBoard) -> String {
    match pb::BoardResult::try_from(p.result) {
        Ok(pb::BoardResult::WhiteWins) => "1-0".into(),
        Ok(pb::BoardResult::BlackWins) => "0-1".into(),
        Ok(pb::BoardResult::Draw) => "½-½".into(),
        Ok(pb::BoardResult::WhiteWinsForfeit) => "+/-".into(),
        Ok(pb::BoardResult::BlackWinsForfeit) => "-/+".into(),
        Ok(pb::BoardResult::DoubleForfeit) => "-/-".into(),
        Ok(pb::BoardResult::Unspecified) | Err(_) => String::new(),
        Ok(other) => format!("{other:?}"),
    }
}

/// The pairings as a table.
pub fn render_pairings(p: &rep::RoundPairings, names: &BTreeMap<u32, String>) -> String {
    let name = |id: u32| names.get(&id).cloned().unwrap_or_default();
    let mut out = format!(
        "Round {} ({}, version {})\n",
        p.round,
        if p.published { "published" } else { "proposed" },
        p.version
    );
    // A team event: its matches, the team named first first (boards follow in match order).
    let per = (!p.team_matches.is_empty() && !p.boards.is_empty())
        .then(|| p.boards.len() / p.team_matches.len());
    for (i, m) in p.team_matches.iter().enumerate() {
        let boards = per.map_or(String::new(), |k| {
            format!(" (boards {}-{})", i * k + 1, (i + 1) * k)
        });
        out.push_str(&format!(
            "match {}: team {} - team {}{boards}\n",
            i + 1,
            m.first,
            m.second
        ));
    }
    if p.team_bye != 0 {
        out.push_str(&format!(
            "team {} has the pairing-allocated bye\n",
            p.team_bye
        ));
    }
    for b in &p.boards {
        let Some(board) = &b.board else { continue };
        out.push_str(&format!(
            "{:>4}  {:>3} {:<28} ({:>4})  -  {:>3} {:<28} ({:>4})  {}\n",
            board.number,
            board.white,
            name(board.white),
            points(b.white_points),
            board.black,
            name(board.black),
            points(b.black_points),
            result_text(b)
        ));
    }
    for u in &p.unpaired {
        let code = arbiter_proto::convert::result_code_from_wire("code", u.code)
            .map(|c| c.trf_char())
            .unwrap_or('?');
        out.push_str(&format!(
            "   -  {:>3} {:<28} bye ({code})\n",
            u.player_id,
            name(u.player_id)
        ));
    }
    out
}

/// A PGN file's text, refused before it is sent when it is above the server's limit for a
/// round's file or not UTF-8 (naming the file and the byte).
fn read_pgn_file(path: &std::path::Path) -> Result<String, Exit> {
    let limit = arbiter_service_kit::edge::MAX_ROUND_PGN_BYTES;
    let shown = path.display();
    let meta = std::fs::metadata(path)
        .map_err(|e| Exit::Unavailable(format!("{shown}: cannot read: {e}")))?;
    if meta.len() > limit as u64 {
        return Err(Exit::Invalid(format!(
            "{shown}: {} bytes is larger than the {limit}-byte limit for a round's PGN file",
            meta.len()
        )));
    }
    let bytes =
        std::fs::read(path).map_err(|e| Exit::Unavailable(format!("{shown}: cannot read: {e}")))?;
    String::from_utf8(bytes).map_err(|e| {
        Exit::Invalid(format!(
            "{shown}: not UTF-8 at byte {} (save the file as UTF-8)",
            e.utf8_error().valid_up_to()
        ))
    })
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
    block_on(client(a))
}

async fn client(a: ClientArgs) -> Result<(), Exit> {
    let mut c = Clients::connect(&a.conn, a.command_id.clone())?;
    match a.command {
        ClientCommand::Create {
            name,
            rounds,
            start,
            end,
            rule_set,
            system,
            knockout,
            teams,
            arbiter,
            id,
            initial_color,
            data,
            format,
            periods,
            traditional_boards,
            require_consent,
            regulations,
            reconnection_window,
            vcs_red_card_after,
            appeal_deadline,
            supervision,
            platform,
            platform_url,
            platform_features,
            illegal_move_policy,
        } => {
            let platform = match platform {
                Some(name) => Some(pb::PlatformProfile {
                    name,
                    url: platform_url.unwrap_or_default(),
                    features: super::online::platform_features(
                        platform_features.as_deref().unwrap_or(""),
                    )
                    .map_err(Exit::Invalid)?,
                    accepts_illegal_moves: illegal_move_policy.is_some(),
                    illegal_move_policy: illegal_move_policy.unwrap_or_default(),
                    ..Default::default()
                }),
                None => None,
            };
            let supervision = supervision
                .as_deref()
                .map(super::online::supervision)
                .transpose()
                .map_err(Exit::Invalid)?;
            let appeal_deadline_minutes = match appeal_deadline.as_deref() {
                Some(d) => super::online::duration_s(d, "--appeal-deadline")
                    .map_err(Exit::Invalid)?
                    .div_ceil(60),
                None => 0,
            };
            let reconnection_window_s = match reconnection_window.as_deref() {
                Some(w) => {
                    super::online::duration_s(w, "--reconnection-window").map_err(Exit::Invalid)?
                }
                None => 0,
            };
            let format = super::online::format(&format).map_err(Exit::Invalid)?;
            let periods = match periods.as_deref() {
                Some(p) => super::online::periods(p).map_err(Exit::Invalid)?,
                None => Vec::new(),
            };
            let conduct = pb::Conduct {
                format: format as i32,
                periods,
                traditional_boards,
                require_fair_play_consent: require_consent,
                regulations_version: regulations,
                reconnection_window_s,
                vcs_red_card_after,
                appeal_deadline_minutes,
                supervision,
                platform,
            };
            let color = match initial_color.to_ascii_lowercase().as_str() {
                "white" | "w" => pb::Color::White,
                "black" | "b" => pb::Color::Black,
                other => {
                    return Err(Exit::Invalid(format!(
                        "--initial-color {other:?}: white or black"
                    )));
                }
            };
            let rating_kind = match &data.rating_kind {
                Some(k) => rating_kind(k)?,
                None => pb::RatingKind::Standard,
            };
            let pairing_system = match system.to_ascii_lowercase().as_str() {
                "dutch" => pb::PairingSystem::Dutch,
                "dubov" => pb::PairingSystem::Dubov,
                "burstein" => pb::PairingSystem::Burstein,
                "lim" => pb::PairingSystem::Lim,
                "round-robin" | "berger" => pb::PairingSystem::RoundRobin,
                "double-round-robin" | "berger-double" => pb::PairingSystem::DoubleRoundRobin,
                "scheveningen" => pb::PairingSystem::Scheveningen,
                "semi-scheveningen" => pb::PairingSystem::SemiScheveningen,
                "skalitzka" => pb::PairingSystem::Skalitzka,
                "hilton" => pb::PairingSystem::Hilton,
                "knockout" => pb::PairingSystem::Knockout,
                other => {
                    return Err(Exit::Invalid(format!(
                        "--system {other:?}: dutch, dubov, burstein, lim, round-robin, double-round-robin, scheveningen, semi-scheveningen, skalitzka, hilton or knockout"
                    )));
                }
            };
            // Sent for a knockout, and when regulations are given for another system (which
            // the server refuses, rather than dropping them here).
            let knockout = (pairing_system == pb::PairingSystem::Knockout || knockout.given())
                .then(|| knockout.rules())
                .transpose()?;
            let start = match start {
                Some(s) => s,
                None => {
                    let today = local_date()?;
                    eprintln!(
                        "start date {today} (today; --start YYYY-MM-DD sets another, and it decides the rules in force)"
                    );
                    today
                }
            };
            let r = c
                .registration
                .create_tournament(reg::CreateTournamentRequest {
                    header: c.header(&id.unwrap_or_default()),
                    tournament: Some(pb::TournamentCreated {
                        name,
                        place: data.place.clone().unwrap_or_default(),
                        federation: data.federation.clone().unwrap_or_default(),
                        start_date: Some(wire_date(&start)?),
                        end_date: Some(wire_date(end.as_deref().unwrap_or(&start))?),
                        chief_arbiter: Some(named_arbiter(arbiter)),
                        deputy_arbiters: data.deputies.iter().cloned().map(named_arbiter).collect(),
                        pairing_system: pairing_system as i32,
                        rule_set: rule_set.unwrap_or_default(),
                        rounds,
                        initial_color: color as i32,
                        rating_kind: rating_kind as i32,
                        tie_breaks: data
                            .tie_breaks
                            .as_deref()
                            .map(tie_break_list)
                            .unwrap_or_default(),
                        time_control: data.time_control.clone().unwrap_or_default(),
                        fide_rated: true,
                        conduct: Some(conduct),
                        knockout,
                        team_rules: teams.rules()?,
                        ..Default::default()
                    }),
                })
                .await
                .map_err(|s| status_exit("create", &s))?
                .into_inner();
            println!("{}", r.tournament_id);
        }
        ClientCommand::Update {
            tournament,
            name,
            arbiter,
            no_deputies,
            rounds,
            start,
            end,
            data,
        } => {
            let update = pb::TournamentUpdated {
                name,
                place: data.place,
                start_date: start.as_deref().map(wire_date).transpose()?,
                end_date: end.as_deref().map(wire_date).transpose()?,
                chief_arbiter: arbiter.map(named_arbiter),
                rounds,
                replace_tie_breaks: data.tie_breaks.is_some(),
                tie_breaks: data
                    .tie_breaks
                    .as_deref()
                    .map(tie_break_list)
                    .unwrap_or_default(),
                federation: data.federation,
                replace_deputy_arbiters: no_deputies || !data.deputies.is_empty(),
                deputy_arbiters: data.deputies.into_iter().map(named_arbiter).collect(),
                time_control: data.time_control,
                rating_kind: match &data.rating_kind {
                    Some(k) => rating_kind(k)? as i32,
                    None => 0,
                },
            };
            let r = c.update(&tournament, update).await?;
            print_result("updated", &r);
        }
        ClientCommand::TieBreaks { tournament, list } => {
            let update = pb::TournamentUpdated {
                replace_tie_breaks: true,
                tie_breaks: tie_break_list(&list),
                ..Default::default()
            };
            let r = c.update(&tournament, update).await?;
            print_result("tie-breaks set", &r);
        }
        ClientCommand::Register {
            tournament,
            player,
            first_round,
            same_name_ok,
        } => {
            let player = Some(player_wire(player)?);
            let r = match first_round {
                None => {
                    c.registration
                        .register_player(reg::RegisterPlayerRequest {
                            header: c.header(&tournament),
                            player,
                            confirm_same_name: same_name_ok,
                        })
                        .await
                }
                Some(first_round) => {
                    c.registration
                        .enter_late(reg::EnterLateRequest {
                            header: c.header(&tournament),
                            player,
                            first_round,
                            missed_rounds: 0,
                            confirm_same_name: same_name_ok,
                        })
                        .await
                }
            }
            .map_err(|s| same_name_hint(status_exit("register", &s)))?
            .into_inner();
            print_registered(&r);
        }
        ClientCommand::LateEntry {
            tournament,
            player,
            first_round,
            missed,
            same_name_ok,
        } => {
            let missed = match missed.to_ascii_lowercase().as_str() {
                "zero" | "z" | "0" => pb::ByeKind::ZeroPoint,
                "half" | "h" => pb::ByeKind::HalfPoint,
                other => return Err(Exit::Invalid(format!("--missed {other:?}: zero or half"))),
            };
            let r = c
                .registration
                .enter_late(reg::EnterLateRequest {
                    header: c.header(&tournament),
                    player: Some(player_wire(player)?),
                    first_round: first_round.unwrap_or(0),
                    missed_rounds: missed as i32,
                    confirm_same_name: same_name_ok,
                })
                .await
                .map_err(|s| same_name_hint(status_exit("late-entry", &s)))?
                .into_inner();
            print_registered(&r);
        }
        ClientCommand::CancelRegistration {
            tournament,
            player,
            reason,
            as_of,
        } => {
            let who = c.player_ref(&tournament, player, as_of).await?;
            let r = c
                .registration
                .cancel_registration(reg::CancelRegistrationRequest {
                    header: c.header(&tournament),
                    player_id: who.player_id,
                    entry: who.entry,
                    numbering_version: who.numbering_version,
                    reason,
                })
                .await
                .map_err(|s| status_exit("cancel-registration", &s))?
                .into_inner();
            print_result("registration cancelled", &r);
            println!("the players below him moved up one pairing number (see `players`)");
        }
        ClientCommand::Withdraw {
            tournament,
            player,
            from_round,
            reason,
            as_of,
        } => {
            let who = c.player_ref(&tournament, player, as_of).await?;
            let r = c
                .registration
                .withdraw_player(reg::WithdrawPlayerRequest {
                    header: c.header(&tournament),
                    player_id: who.player_id,
                    entry: who.entry,
                    numbering_version: who.numbering_version,
                    from_round: from_round.unwrap_or(0),
                    reason,
                })
                .await
                .map_err(|s| status_exit("withdraw", &s))?
                .into_inner();
            print_result("withdrawn", &r);
        }
        ClientCommand::RecordTeam {
            tournament,
            name,
            number,
            members,
        } => {
            let r = c
                .registration
                .record_team(reg::RecordTeamRequest {
                    header: c.header(&tournament),
                    team: Some(pb::TeamRecorded {
                        number,
                        name,
                        members,
                        ..Default::default()
                    }),
                    numbering_version: None,
                })
                .await
                .map_err(|s| status_exit("record-team", &s))?
                .into_inner();
            print_result("team recorded", &r);
        }
        ClientCommand::Lineup {
            tournament,
            round,
            team,
            players,
        } => {
            let r = c
                .director
                .submit_lineup(rd::SubmitLineupRequest {
                    header: c.header(&tournament),
                    round,
                    team,
                    players,
                    numbering_version: None,
                })
                .await
                .map_err(|s| status_exit("lineup", &s))?
                .into_inner();
            print_result("line-up given", &r);
        }
        ClientCommand::DrawLots {
            tournament,
            varma,
            seed,
            numbers,
        } => {
            let r = c
                .registration
                .draw_lots(reg::DrawLotsRequest {
                    header: c.header(&tournament),
                    varma,
                    seed,
                    numbers,
                })
                .await
                .map_err(|s| status_exit("draw-lots", &s))?
                .into_inner();
            print_result("lots drawn", &r);
        }
        ClientCommand::CorrectPlayer {
            tournament,
            player,
            name,
            rating,
            fide_id,
            title,
            federation,
            club,
            reason,
            as_of,
        } => {
            let mut fields = Vec::new();
            let mut p = pb::Player::default();
            if let Some(v) = name {
                p.name = v;
                fields.push("name");
            }
            if let Some(v) = rating {
                p.rating = v;
                fields.push("rating");
            }
            if let Some(v) = fide_id {
                p.fide_id = Some(v);
                fields.push("fide_id");
            }
            if let Some(v) = title {
                p.title = match v.to_ascii_lowercase().as_str() {
                    "none" | "" => pb::Title::Unspecified as i32,
                    _ => {
                        player_wire(PlayerData {
                            name: String::new(),
                            rating: 0,
                            fide_id: None,
                            title: Some(v),
                            federation: String::new(),
                        })?
                        .title
                    }
                };
                fields.push("title");
            }
            if let Some(v) = federation {
                p.federation = v;
                fields.push("federation");
            }
            if let Some(v) = club {
                p.club = v;
                fields.push("club");
            }
            if fields.is_empty() {
                return Err(Exit::Invalid(
                    "give what to correct: --name, --rating, --fide-id, --title, --federation \
                     or --club"
                        .into(),
                ));
            }
            let who = c.player_ref(&tournament, player, as_of).await?;
            p.player_id = who.player_id;
            let r = c
                .registration
                .correct_player(reg::CorrectPlayerRequest {
                    header: c.header(&tournament),
                    player: Some(p),
                    fields: fields.into_iter().map(String::from).collect(),
                    reason,
                    entry: who.entry,
                    numbering_version: who.numbering_version,
                })
                .await
                .map_err(|s| status_exit("correct-player", &s))?
                .into_inner();
            print_result("player corrected", &r);
        }
        ClientCommand::Bye {
            tournament,
            player,
            round,
            kind,
            as_of,
        } => {
            let kind = match kind.to_ascii_lowercase().as_str() {
                "half" | "h" => pb::ByeKind::HalfPoint,
                "zero" | "z" => pb::ByeKind::ZeroPoint,
                "full" | "f" => pb::ByeKind::FullPoint,
                other => {
                    return Err(Exit::Invalid(format!(
                        "--kind {other:?}: half, zero or full"
                    )));
                }
            };
            let who = c.player_ref(&tournament, player, as_of).await?;
            let r = c
                .registration
                .request_bye(reg::RequestByeRequest {
                    header: c.header(&tournament),
                    player_id: who.player_id,
                    entry: who.entry,
                    numbering_version: who.numbering_version,
                    round,
                    kind: kind as i32,
                })
                .await
                .map_err(|s| status_exit("bye", &s))?
                .into_inner();
            print_result("bye requested", &r);
        }
        ClientCommand::CancelBye {
            tournament,
            player,
            round,
            as_of,
        } => {
            let who = c.player_ref(&tournament, player, as_of).await?;
            let r = c
                .registration
                .cancel_bye(reg::CancelByeRequest {
                    header: c.header(&tournament),
                    player_id: who.player_id,
                    entry: who.entry,
                    numbering_version: who.numbering_version,
                    round,
                })
                .await
                .map_err(|s| status_exit("cancel-bye", &s))?
                .into_inner();
            print_result("bye cancelled", &r);
        }
        ClientCommand::Consent {
            tournament,
            player,
            regulations,
            accepted_by,
            guardian,
            account,
            items,
            as_of,
        } => {
            let items = super::online::consent_items(&items).map_err(Exit::Invalid)?;
            let who = c.player_ref(&tournament, player, as_of).await?;
            let r = c
                .registration
                .record_fair_play_consent(reg::RecordFairPlayConsentRequest {
                    header: c.header(&tournament),
                    player_id: who.player_id,
                    entry: who.entry,
                    numbering_version: who.numbering_version,
                    consent: Some(pb::FairPlayConsentRecorded {
                        player_id: 0,
                        regulations_version: regulations,
                        accepted_by,
                        by_guardian: guardian,
                        items,
                        platform_account: account,
                    }),
                })
                .await
                .map_err(|s| status_exit("consent", &s))?
                .into_inner();
            print_result("fair-play consent recorded", &r);
        }
        ClientCommand::Absent {
            tournament,
            player,
            round,
            reason,
            as_of,
        } => {
            let who = c.player_ref(&tournament, player, as_of).await?;
            let r = c
                .registration
                .declare_absence(reg::DeclareAbsenceRequest {
                    header: c.header(&tournament),
                    player_id: who.player_id,
                    entry: who.entry,
                    numbering_version: who.numbering_version,
                    round,
                    reason,
                })
                .await
                .map_err(|s| status_exit("absent", &s))?
                .into_inner();
            print_result("absence declared", &r);
        }
        ClientCommand::StartRound {
            tournament,
            round,
            wait,
        } => {
            let r = c.start_round(&tournament, round).await?;
            print_result("round started", &r);
            let p = c
                .wait_for_pairing(&tournament, round, Duration::from_secs(wait))
                .await?;
            let names = c.names(&tournament).await?;
            print!("{}", render_pairings(&p, &names));
        }
        ClientCommand::Pairings { tournament, round } => {
            let p = c
                .wait_for_pairing(&tournament, round, Duration::ZERO)
                .await?;
            let names = c.names(&tournament).await?;
            print!("{}", render_pairings(&p, &names));
        }
        ClientCommand::Repair {
            tournament,
            round,
            reason,
        } => {
            let r = c
                .director
                .request_repairing(rd::RequestRepairingRequest {
                    header: c.header(&tournament),
                    round,
                    reason,
                })
                .await
                .map_err(|s| status_exit("repair", &s))?
                .into_inner();
            print_result("new pairing requested", &r);
        }
        ClientCommand::Publish {
            tournament,
            round,
            boards,
            bye,
            note,
            as_of,
        } => {
            if boards.is_empty() && bye.is_none() {
                let r = c.publish(&tournament, round).await?;
                print_result("published", &r);
            } else {
                let r = c
                    .publish_amended(&tournament, round, &boards, bye, note, as_of)
                    .await?;
                print_result("amended pairing published", &r);
            }
        }
        ClientCommand::Result {
            tournament,
            round,
            board,
            result,
        } => {
            let res = result_arg(&result)?;
            let r = c.result(&tournament, round, board, res).await?;
            print_result("result recorded", &r);
        }
        ClientCommand::Sanction {
            tournament,
            player,
            kind,
            round,
            rounds,
            amount,
            article,
            evidence,
            note,
            as_of,
        } => {
            let kind = super::online::sanction_kind(&kind).map_err(Exit::Invalid)?;
            let evidence = super::online::evidence_list(&evidence).map_err(Exit::Invalid)?;
            let rounds = match rounds.as_deref() {
                Some(list) => list
                    .split(',')
                    .map(|r| {
                        r.trim()
                            .parse::<u32>()
                            .map_err(|_| Exit::Invalid(format!("--rounds: {r:?} is not a round")))
                    })
                    .collect::<Result<Vec<_>, _>>()?,
                None => Vec::new(),
            };
            let who = c.player_ref(&tournament, player, as_of).await?;
            let r = c
                .director
                .impose_sanction(rd::ImposeSanctionRequest {
                    header: c.header(&tournament),
                    entry: who.entry,
                    numbering_version: who.numbering_version,
                    sanction: Some(pb::SanctionImposed {
                        player_id: who.player_id,
                        kind: kind as i32,
                        round: round.unwrap_or(0),
                        rounds,
                        amount,
                        article,
                        evidence,
                        note,
                    }),
                })
                .await
                .map_err(|s| status_exit("sanction", &s))?
                .into_inner();
            print_result("sanction imposed", &r);
        }
        ClientCommand::Irregularity {
            tournament,
            round,
            board,
            kind,
            plies,
            decision,
            note,
        } => {
            let kind = super::online::irregularity_kind(&kind).map_err(Exit::Invalid)?;
            let decision = match decision.as_deref() {
                Some(d) => super::online::irregularity_decision(d).map_err(Exit::Invalid)? as i32,
                None => 0,
            };
            let r = c
                .director
                .record_irregularity(rd::RecordIrregularityRequest {
                    header: c.header(&tournament),
                    round,
                    board,
                    kind: kind as i32,
                    plies,
                    decision,
                    note,
                })
                .await
                .map_err(|s| status_exit("irregularity", &s))?
                .into_inner();
            print_result("irregularity recorded", &r);
        }
        ClientCommand::SupervisionBreach {
            tournament,
            round,
            board,
            player,
            item,
            note,
        } => {
            let item = super::online::supervision_item(&item).map_err(Exit::Invalid)?;
            let r = c
                .director
                .record_supervision_breach(rd::RecordSupervisionBreachRequest {
                    header: c.header(&tournament),
                    round,
                    board,
                    player_id: player,
                    item: item as i32,
                    note,
                })
                .await
                .map_err(|s| status_exit("supervision breach", &s))?
                .into_inner();
            print_result("supervision breach recorded", &r);
        }
        ClientCommand::Disconnect {
            tournament,
            round,
            board,
            player,
            channel,
            clock,
            away,
            moved_off_video,
            reported_by,
            note,
        } => {
            use super::online::duration_s;
            let channel = match channel.as_str() {
                "platform" => pb::ConnectionChannel::Platform,
                "video" => pb::ConnectionChannel::VideoConference,
                other => {
                    return Err(Exit::Invalid(format!(
                        "--channel {other:?}: platform or video"
                    )));
                }
            };
            let reported_by = match reported_by.as_str() {
                "platform" => pb::IncidentReporter::Platform,
                "lta" => pb::IncidentReporter::LocalTechnicalArbiter,
                "arbiter" => pb::IncidentReporter::Arbiter,
                other => {
                    return Err(Exit::Invalid(format!(
                        "--reported-by {other:?}: platform, lta or arbiter"
                    )));
                }
            };
            let clock_ms = duration_s(&clock, "--clock").map_err(Exit::Invalid)? * 1000;
            // The reporter's own times (E.04 11: the platform records them): he disconnected now
            // and came back --away later.
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as i64);
            let back = match away.as_deref() {
                Some(a) => {
                    let s = duration_s(a, "--away").map_err(Exit::Invalid)?;
                    now + i64::from(s) * 1000
                }
                None => 0,
            };
            let r = c
                .director
                .report_connection_incident(rd::ReportConnectionIncidentRequest {
                    header: c.header(&tournament),
                    incident: Some(pb::ConnectionIncidentReported {
                        incident: 0,
                        round,
                        board,
                        player_id: player,
                        channel: channel as i32,
                        disconnected_at_unix_ms: now,
                        reconnected_at_unix_ms: back,
                        clock_at_disconnect_ms: clock_ms,
                        moved_while_vcs_down: moved_off_video,
                        reported_by: reported_by as i32,
                        note,
                    }),
                })
                .await
                .map_err(|s| status_exit("disconnect", &s))?
                .into_inner();
            print_result("connection incident reported", &r);
        }
        ClientCommand::Rule {
            tournament,
            incident,
            outcome,
            fen,
            white_clock,
            black_clock,
            reduce,
            time_control,
            note,
        } => {
            use super::online::duration_s;
            let outcome = super::online::disconnection_outcome(&outcome).map_err(Exit::Invalid)?;
            let ms = |v: Option<String>, what: &str| -> Result<u32, Exit> {
                v.map_or(Ok(0), |v| {
                    duration_s(&v, what)
                        .map(|s| s * 1000)
                        .map_err(Exit::Invalid)
                })
            };
            let r = c
                .director
                .rule_on_disconnection(rd::RuleOnDisconnectionRequest {
                    header: c.header(&tournament),
                    ruling: Some(pb::DisconnectionRuled {
                        incident,
                        outcome: outcome as i32,
                        remaining_ms: 0,
                        fen,
                        white_ms: ms(white_clock, "--white-clock")?,
                        black_ms: ms(black_clock, "--black-clock")?,
                        reduce_ms: ms(reduce, "--reduce")?,
                        time_control,
                        article: String::new(),
                        note,
                    }),
                })
                .await
                .map_err(|s| status_exit("rule", &s))?
                .into_inner();
            print_result("disconnection ruled", &r);
        }
        ClientCommand::Appeal {
            tournament,
            appellant,
            decision_version,
            grounds,
            deposit,
            as_of,
        } => {
            let who = c.player_ref(&tournament, appellant, as_of).await?;
            let r = c
                .director
                .file_appeal(rd::FileAppealRequest {
                    header: c.header(&tournament),
                    entry: who.entry,
                    player_id: who.player_id,
                    numbering_version: who.numbering_version,
                    decision_version,
                    grounds,
                    deposit,
                })
                .await
                .map_err(|s| status_exit("appeal", &s))?
                .into_inner();
            print_result("appeal filed", &r);
        }
        ClientCommand::DecideAppeal {
            tournament,
            appeal,
            upheld,
            committee,
            deposit_returned,
            result,
            note,
        } => {
            let (round, board, (res, wc, bc)) = match result.as_deref() {
                Some([round, board, result]) => {
                    let n = |v: &str, what: &str| {
                        v.parse::<u32>()
                            .map_err(|_| Exit::Invalid(format!("--result: {what} {v:?}")))
                    };
                    (
                        n(round, "round")?,
                        n(board, "board")?,
                        board_result_to_wire(result_arg(result)?),
                    )
                }
                _ => (0, 0, (pb::BoardResult::Unspecified, 0, 0)),
            };
            let r = c
                .director
                .decide_appeal(rd::DecideAppealRequest {
                    header: c.header(&tournament),
                    appeal,
                    upheld,
                    deposit_returned,
                    committee,
                    note,
                    round,
                    board,
                    result: res as i32,
                    white_code: wc,
                    black_code: bc,
                })
                .await
                .map_err(|s| status_exit("decide-appeal", &s))?
                .into_inner();
            print_result("appeal decided", &r);
        }
        ClientCommand::Override {
            tournament,
            round,
            board,
            result,
            reason,
        } => {
            let (w, _, _) = board_result_to_wire(result_arg(&result)?);
            let r = c
                .director
                .override_platform_result(rd::OverridePlatformResultRequest {
                    header: c.header(&tournament),
                    round,
                    board,
                    result: w as i32,
                    reason,
                })
                .await
                .map_err(|s| status_exit("override", &s))?
                .into_inner();
            print_result("platform result overridden", &r);
        }
        ClientCommand::Correct {
            tournament,
            round,
            board,
            result,
            reason,
        } => {
            let (w, wc, bc) = board_result_to_wire(result_arg(&result)?);
            let r = c
                .director
                .correct_result(rd::CorrectResultRequest {
                    header: c.header(&tournament),
                    round,
                    board,
                    corrected: w as i32,
                    white_code: wc,
                    black_code: bc,
                    reason,
                })
                .await
                .map_err(|s| status_exit("correct", &s))?
                .into_inner();
            print_result("result corrected", &r);
        }
        ClientCommand::Record { tournament } => {
            use pb::event::Kind;
            let r = c
                .director
                .arbiter_record(rd::GetTournamentRequest {
                    tournament: Clients::tref(&tournament),
                })
                .await
                .map_err(|s| status_exit("record", &s))?
                .into_inner();
            println!(
                "Arbiter's record of {} (version {}): {} entries",
                r.tournament_id,
                r.version,
                r.events.len()
            );
            for e in &r.events {
                let Some(kind) = e.payload.as_ref().and_then(|p| p.kind.as_ref()) else {
                    continue;
                };
                let line = match kind {
                    Kind::ResultDiscrepancyDetected(d) => format!(
                        "round {} board {}: platform {} vs the Laws {} ({}, {})",
                        d.round, d.board, d.platform_result, d.laws_result, d.reason, d.article
                    ),
                    Kind::ResultOverridden(o) => format!(
                        "round {} board {}: platform's {} overridden ({}; {})",
                        o.round, o.board, o.platform_result, o.reason, o.article
                    ),
                    Kind::IrregularityRecorded(i) => format!(
                        "round {} board {}: {:?} after {} half-moves: {:?} ({})",
                        i.round,
                        i.board,
                        pb::IrregularityKind::try_from(i.kind).unwrap_or_default(),
                        i.plies,
                        pb::IrregularityDecision::try_from(i.decision).unwrap_or_default(),
                        i.article
                    ),
                    Kind::SupervisionBreachRecorded(b) => format!(
                        "breach {}: round {} board {} player {}: {:?} ({}){}",
                        b.breach,
                        b.round,
                        b.board,
                        b.player_id,
                        pb::SupervisionItem::try_from(b.item).unwrap_or_default(),
                        b.article,
                        if b.note.is_empty() {
                            String::new()
                        } else {
                            format!(": {}", b.note)
                        }
                    ),
                    Kind::SanctionImposed(s) => format!(
                        "player {}: {:?} ({}), {} item(s) of evidence",
                        s.player_id,
                        pb::SanctionKind::try_from(s.kind).unwrap_or_default(),
                        s.article,
                        s.evidence.len()
                    ),
                    Kind::ConnectionIncidentReported(i) => format!(
                        "incident {}: round {} board {} player {} lost {:?}, {} s on his clock, {}",
                        i.incident,
                        i.round,
                        i.board,
                        i.player_id,
                        pb::ConnectionChannel::try_from(i.channel).unwrap_or_default(),
                        i.clock_at_disconnect_ms / 1000,
                        if i.reconnected_at_unix_ms == 0 {
                            "not back".to_string()
                        } else {
                            format!(
                                "back after {} s",
                                (i.reconnected_at_unix_ms - i.disconnected_at_unix_ms) / 1000
                            )
                        }
                    ),
                    Kind::DisconnectionRuled(r) => format!(
                        "incident {} ruled {:?} ({})",
                        r.incident,
                        pb::DisconnectionOutcome::try_from(r.outcome).unwrap_or_default(),
                        r.article
                    ),
                    Kind::AppealFiled(a) => format!(
                        "appeal {} by player {} against version {} ({}): {}",
                        a.appeal,
                        a.appellant,
                        a.decision_version,
                        a.decision_kind,
                        if a.admitted {
                            "admitted"
                        } else {
                            "after the deadline"
                        }
                    ),
                    Kind::AppealDecided(a) => format!(
                        "appeal {} {} by {}",
                        a.appeal,
                        if a.upheld { "upheld" } else { "rejected" },
                        a.committee.join(", ")
                    ),
                    other => format!("{other:?}"),
                };
                println!("{:>6}  {line}", e.sequence);
            }
        }
        ClientCommand::Complain {
            tournament,
            complainant,
            accused,
            grounds,
            evidence,
            only_rating,
            as_of,
        } => {
            let evidence = super::online::evidence_list(&evidence).map_err(Exit::Invalid)?;
            let who = c.player_ref(&tournament, complainant, as_of).await?;
            let r = c
                .screening
                .file_complaint(scr::FileComplaintRequest {
                    header: c.header(&tournament),
                    entry: who.entry,
                    player_id: who.player_id,
                    numbering_version: who.numbering_version,
                    accused,
                    grounds,
                    evidence,
                    only_rating_performance: only_rating,
                })
                .await
                .map_err(|s| status_exit("complain", &s))?
                .into_inner();
            print_result(
                "complaint filed (GetScreening shows how it was received)",
                &r,
            );
        }
        ClientCommand::SubmitGames {
            tournament,
            round,
            file,
        } => {
            let pgn = read_pgn_file(&file)?;
            let r = c
                .screening
                .submit_games(scr::SubmitGamesRequest {
                    header: c.header(&tournament),
                    round,
                    pgn,
                })
                .await
                .map_err(|s| status_exit("submit-games", &s))?
                .into_inner();
            let outcome = r.result.unwrap_or_default();
            print_result(&format!("{} games submitted", r.games.len()), &outcome);
            for g in &r.games {
                println!(
                    "game {} ({} - {}): round {round}, board {}",
                    g.index, g.white, g.black, g.board
                );
            }
        }
        ClientCommand::Close { tournament, round } => {
            let r = c.close(&tournament, round).await?;
            print_result("round closed", &r);
        }
        ClientCommand::Finish { tournament } => {
            let r = c
                .director
                .finish_tournament(rd::FinishTournamentRequest {
                    header: c.header(&tournament),
                })
                .await
                .map_err(|s| status_exit("finish", &s))?
                .into_inner();
            print_result("finished", &r);
        }
        ClientCommand::Standings {
            tournament,
            after_round,
        } => {
            print!("{}", c.standings(&tournament, after_round).await?);
        }
        ClientCommand::Players { tournament } => {
            let players = c.players(&tournament).await?;
            println!(
                "Players (version {}, numbering version {}: give it as --as-of with pairing numbers)",
                players.version, players.numbering_version
            );
            println!("  No  Entry  Name                             Rating  Status");
            for p in players.players {
                let Some(pl) = p.player else { continue };
                let status = if p.status == reg::PlayerStatus::Withdrawn as i32 {
                    "withdrawn".to_string()
                } else if p.status == reg::PlayerStatus::ConsentMissing as i32 {
                    "no fair-play consent: not paired".to_string()
                } else if p.first_round > 1 {
                    format!("from round {}", p.first_round)
                } else {
                    String::new()
                };
                let line = format!(
                    "{:>4}  {:>5}  {:<32} {:>6}  {}",
                    pl.player_id,
                    format!("E{}", p.entry),
                    pl.name,
                    pl.rating,
                    status
                );
                println!("{}", line.trim_end());
            }
        }
        ClientCommand::Schedule { tournament } => {
            let s = c
                .director
                .get_schedule(rd::GetTournamentRequest {
                    tournament: Clients::tref(&tournament),
                })
                .await
                .map_err(|s| status_exit("schedule", &s))?
                .into_inner();
            println!(
                "{}: {}, {} players, {} rounds, version {}",
                s.tournament_id,
                s.rule_set,
                s.players,
                s.rounds.len(),
                s.version
            );
            match &s.lots {
                None => println!(
                    "lots: not drawn through the service (numbers in order of registration)"
                ),
                Some(l) => println!(
                    "lots: {}{}",
                    if l.varma { "Varma draw, " } else { "" },
                    if l.seed.is_empty() {
                        "drawn in the hall".to_string()
                    } else {
                        format!("drawn from seed {:?}", l.seed)
                    }
                ),
            }
            for r in &s.rounds {
                let games: Vec<String> = r
                    .boards
                    .iter()
                    .map(|b| format!("{}-{}", b.white, b.black))
                    .collect();
                let rest = if r.rest != 0 {
                    format!("  (rests: {})", r.rest)
                } else {
                    String::new()
                };
                println!("R{:<3} {}{rest}", r.round, games.join(" "));
            }
            for g in &s.compatriot_games {
                println!(
                    "compatriots ({}): {}-{} in round {}",
                    g.federation, g.white, g.black, g.round
                );
            }
        }
        ClientCommand::Show { tournament } => {
            let s = c
                .director
                .get_tournament(rd::GetTournamentRequest {
                    tournament: Clients::tref(&tournament),
                })
                .await
                .map_err(|s| status_exit("show", &s))?
                .into_inner();
            println!(
                "{} ({}): {} rounds, current round {}, phase {:?}, rule set {}, version {}, boards without result: {:?}",
                s.name,
                s.tournament_id,
                s.rounds,
                s.current_round,
                rd::Phase::try_from(s.phase).unwrap_or(rd::Phase::Unspecified),
                s.rule_set,
                s.version,
                s.pending_boards
            );
            // The result standings keep, per board: the recorded one, then each correction
            // that was not for rating only.
            let mut standings: BTreeMap<(u32, u32), i32> = BTreeMap::new();
            for c in &s.corrections {
                let kept = *standings.entry((c.round, c.board)).or_insert(c.previous);
                let late = c.effect == rd::CorrectionEffect::FinalEvaluationOnly as i32;
                if !late {
                    standings.insert((c.round, c.board), c.corrected);
                }
                println!(
                    "round {}, board {}: corrected ({}), for {}",
                    c.round,
                    c.board,
                    c.reason,
                    match rd::CorrectionEffect::try_from(c.effect) {
                        Ok(rd::CorrectionEffect::NextPairing) =>
                            "the next pairing and the standings",
                        Ok(rd::CorrectionEffect::LaterPairings) => {
                            "later pairings and the standings (the next pairing was published)"
                        }
                        Ok(rd::CorrectionEffect::FinalEvaluationOnly) => {
                            "the final evaluation only (the next round was over)"
                        }
                        _ => "?",
                    }
                );
                if late {
                    // Said as the pages say it (C.04.2 D.8).
                    let shown = |r: i32| {
                        arbiter_proto::convert::board_result_from_wire(r, 0, 0)
                            .map(|r| r.to_string())
                            .unwrap_or_else(|_| "an arbiter's decision".to_string())
                    };
                    let after = (c.round < s.current_round).then_some(c.round + 1);
                    println!(
                        "round {}, board {}: {}",
                        c.round,
                        c.board,
                        arbiter_core::tournament::rating_only_note(
                            after,
                            shown(kept),
                            shown(c.corrected)
                        )
                    );
                }
            }
            for d in &s.open_discrepancies {
                println!(
                    "round {}, board {}: the platform's {} is not the Laws' {}: {} ({}); confirm \
                     with `result` or `override`",
                    d.round, d.board, d.platform_result, d.laws_result, d.reason, d.article
                );
            }
        }
        ClientCommand::List => {
            let l = c
                .registration
                .list_tournaments(reg::ListTournamentsRequest {})
                .await
                .map_err(|s| status_exit("list", &s))?
                .into_inner();
            for t in l.tournaments {
                println!(
                    "{}  {}  {} players, {} rounds, version {}",
                    t.tournament_id, t.name, t.players, t.rounds, t.version
                );
            }
        }
        ClientCommand::Export { tournament, output } => {
            let r = c
                .reporting
                .export_trf(rep::ExportTrfRequest {
                    tournament: Clients::tref(&tournament),
                    format: TrfFormat::Trf16 as i32,
                })
                .await
                .map_err(|s| status_exit("export", &s))?
                .into_inner();
            match output {
                Some(p) => std::fs::write(&p, &r.trf)
                    .map_err(|e| Exit::Unavailable(format!("cannot write {}: {e}", p.display())))?,
                None => print!("{}", String::from_utf8_lossy(&r.trf)),
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn players_are_named_by_entry_or_pairing_number() {
        assert_eq!("E7".parse(), Ok(PlayerArg::Entry(7)));
        assert_eq!("e12".parse(), Ok(PlayerArg::Entry(12)));
        assert_eq!("12".parse(), Ok(PlayerArg::Number(12)));
        assert_eq!("#3".parse(), Ok(PlayerArg::Number(3)));
        for bad in ["", "E", "0", "E0", "x7", "7a", "-1"] {
            let e = bad.parse::<PlayerArg>().unwrap_err();
            assert!(e.contains("entry number"), "{bad:?}: {e}");
        }
    }

    #[test]
    fn results_and_points_read_and_print() {
        assert_eq!(parse_result("1-0"), Some(BoardResult::WhiteWins));
        assert_eq!(parse_result(" 1/2 "), Some(BoardResult::Draw));
        assert_eq!(parse_result("-/+"), Some(BoardResult::BlackWinsForfeit));
        assert_eq!(parse_result("2-0"), None);
        assert_eq!(parse_result("+/-"), Some(BoardResult::WhiteWinsForfeit));
        assert_eq!(parse_result("W/L"), Some(BoardResult::WhiteWinsUnrated));
        assert_eq!(parse_result("D/D"), Some(BoardResult::DrawUnrated));
        assert_eq!(parse_result("L/W"), Some(BoardResult::BlackWinsUnrated));
        assert_eq!(
            parse_result("0-0"),
            Some(BoardResult::ArbiterDecision {
                white: ResultCode::Loss,
                black: ResultCode::Loss
            })
        );
        assert_eq!(
            parse_result("1/2-0"),
            Some(BoardResult::ArbiterDecision {
                white: ResultCode::Draw,
                black: ResultCode::Loss
            })
        );
        assert_eq!(parse_result("1-0 "), Some(BoardResult::WhiteWins));
        assert_eq!(parse_result("½-½"), Some(BoardResult::Draw));
        assert_eq!(points(35), "3.5");
        assert_eq!(points(30), "3");
    }
}
