//! `arbiter client ...`: run a tournament from the command line against a running server
//! (`arbiter serve`), without writing a gRPC client.
//!
//! ```text
//! arbiter client create --name "Club Open" --rounds 5          prints the tournament id
//! arbiter client register ID --name "Carlsen, Magnus" --rating 2830
//! arbiter client start-round ID 1                              waits for the proposal
//! arbiter client publish ID 1
//! arbiter client result ID 1 1 1-0
//! arbiter client close ID 1
//! arbiter client standings ID
//! ```
//!
//! Exit codes: 0 done; 2 the server refused the command (the message says why); 3 invalid
//! arguments; 5 the server cannot be reached.

use super::backend::{Exit, block_on, status_exit};
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
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};
use tonic::transport::Channel;

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Exit codes: 0 done; 2 the server refused the command (the message \
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
}

#[derive(clap::Subcommand, Debug)]
pub enum ClientCommand {
    /// Create a tournament; prints its id.
    Create {
        #[arg(long)]
        name: String,
        #[arg(long)]
        rounds: u32,
        /// Start date, YYYY-MM-DD (default 2026-01-01).
        #[arg(long, default_value = "2026-01-01")]
        start: String,
        /// End date, YYYY-MM-DD (default: the start date).
        #[arg(long)]
        end: Option<String>,
        /// dutch-2017 or dutch-2025 (default: the rules in force on the start date).
        #[arg(long)]
        rule_set: Option<String>,
        /// The chief arbiter.
        #[arg(long, default_value = "Chief Arbiter")]
        arbiter: String,
        /// The tournament id (default: chosen by the server).
        #[arg(long)]
        id: Option<String>,
        /// Colour of the top seed in round 1: white or black.
        #[arg(long, default_value = "white")]
        initial_color: String,
    },
    /// Register a player.
    Register {
        tournament: String,
        #[arg(long)]
        name: String,
        #[arg(long, default_value_t = 0)]
        rating: u32,
        #[arg(long)]
        fide_id: Option<u64>,
        /// GM, IM, WGM, FM, WIM, CM, WFM, WCM.
        #[arg(long)]
        title: Option<String>,
        /// FIDE federation code, e.g. NOR.
        #[arg(long, default_value = "")]
        federation: String,
        /// A late entry from this round.
        #[arg(long)]
        first_round: Option<u32>,
    },
    /// Withdraw a player (from the next round to pair, or --from-round).
    Withdraw {
        tournament: String,
        player: u32,
        #[arg(long)]
        from_round: Option<u32>,
        #[arg(long, default_value = "")]
        reason: String,
    },
    /// Request a bye: half, zero or full.
    Bye {
        tournament: String,
        player: u32,
        round: u32,
        #[arg(long, default_value = "half")]
        kind: String,
    },
    /// Start a round and wait for the pairing worker's proposal.
    StartRound {
        tournament: String,
        round: u32,
        /// Seconds to wait for the proposal.
        #[arg(long, default_value_t = 30)]
        wait: u64,
    },
    /// Show the pairings of a round (proposed or published).
    Pairings { tournament: String, round: u32 },
    /// Publish the proposal of a round.
    Publish { tournament: String, round: u32 },
    /// Record a result: 1-0, 0-1, 1/2, +/-, -/+, -/-.
    Result {
        tournament: String,
        round: u32,
        board: u32,
        result: String,
    },
    /// Close a round (every result in).
    Close { tournament: String, round: u32 },
    /// Finish the tournament.
    Finish { tournament: String },
    /// Show the standings.
    Standings {
        tournament: String,
        /// After this round (default: the last closed round).
        #[arg(long, default_value_t = 0)]
        after_round: u32,
    },
    /// List the players.
    Players { tournament: String },
    /// Show the tournament's state.
    Show { tournament: String },
    /// List the tournaments.
    List,
    /// Write the TRF16 export.
    Export {
        tournament: String,
        #[arg(short = 'o', long = "out")]
        output: Option<PathBuf>,
    },
}

/// Clients of the services.
pub struct Clients {
    pub registration: RegistrationClient<Channel>,
    pub director: RoundDirectorClient<Channel>,
    pub reporting: ReportingClient<Channel>,
    command_id: Option<String>,
}

fn channel(url: &str) -> Result<Channel, Exit> {
    Ok(Channel::from_shared(url.to_string())
        .map_err(|e| Exit::Invalid(format!("server address {url:?}: {e}")))?
        .connect_timeout(Duration::from_secs(5))
        .connect_lazy())
}

impl Clients {
    /// Clients of the services at `c` (connected on first use).
    pub fn connect(c: &Connection, command_id: Option<String>) -> Result<Clients, Exit> {
        let url = |o: &Option<String>| o.clone().unwrap_or_else(|| c.server.clone());
        Ok(Clients {
            registration: RegistrationClient::new(channel(&url(&c.registration))?),
            director: RoundDirectorClient::new(channel(&url(&c.director))?),
            reporting: ReportingClient::new(channel(&url(&c.reporting))?),
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
        _ => return None,
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
            arbiter,
            id,
            initial_color,
        } => {
            let date = |s: &str| -> Result<pb::Date, Exit> {
                let d: arbiter_core::tournament::Date = s
                    .parse()
                    .map_err(|e| Exit::Invalid(format!("date {s:?}: {e}")))?;
                Ok(date_to_wire(d))
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
            let r = c
                .registration
                .create_tournament(reg::CreateTournamentRequest {
                    header: c.header(&id.unwrap_or_default()),
                    tournament: Some(pb::TournamentCreated {
                        name,
                        start_date: Some(date(&start)?),
                        end_date: Some(date(end.as_deref().unwrap_or(&start))?),
                        chief_arbiter: Some(pb::Arbiter {
                            name: arbiter,
                            fide_id: None,
                            title: String::new(),
                        }),
                        pairing_system: pb::PairingSystem::Dutch as i32,
                        rule_set: rule_set.unwrap_or_default(),
                        rounds,
                        initial_color: color as i32,
                        rating_kind: pb::RatingKind::Standard as i32,
                        fide_rated: true,
                        ..Default::default()
                    }),
                })
                .await
                .map_err(|s| status_exit("create", &s))?
                .into_inner();
            println!("{}", r.tournament_id);
        }
        ClientCommand::Register {
            tournament,
            name,
            rating,
            fide_id,
            title,
            federation,
            first_round,
        } => {
            let title = match title.as_deref().map(str::to_ascii_uppercase).as_deref() {
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
            let player = Some(pb::Player {
                name,
                rating,
                fide_id,
                title: title as i32,
                federation,
                ..Default::default()
            });
            let r = match first_round {
                None => {
                    c.registration
                        .register_player(reg::RegisterPlayerRequest {
                            header: c.header(&tournament),
                            player,
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
                        })
                        .await
                }
            }
            .map_err(|s| status_exit("register", &s))?
            .into_inner();
            print_result("registered", &r);
        }
        ClientCommand::Withdraw {
            tournament,
            player,
            from_round,
            reason,
        } => {
            let r = c
                .registration
                .withdraw_player(reg::WithdrawPlayerRequest {
                    header: c.header(&tournament),
                    player_id: player,
                    from_round: from_round.unwrap_or(0),
                    reason,
                })
                .await
                .map_err(|s| status_exit("withdraw", &s))?
                .into_inner();
            print_result("withdrawn", &r);
        }
        ClientCommand::Bye {
            tournament,
            player,
            round,
            kind,
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
            let r = c
                .registration
                .request_bye(reg::RequestByeRequest {
                    header: c.header(&tournament),
                    player_id: player,
                    round,
                    kind: kind as i32,
                })
                .await
                .map_err(|s| status_exit("bye", &s))?
                .into_inner();
            print_result("bye requested", &r);
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
        ClientCommand::Publish { tournament, round } => {
            let r = c.publish(&tournament, round).await?;
            print_result("published", &r);
        }
        ClientCommand::Result {
            tournament,
            round,
            board,
            result,
        } => {
            let res = parse_result(&result).ok_or_else(|| {
                Exit::Invalid(format!(
                    "result {result:?}: write 1-0, 0-1, 1/2, +/-, -/+ or -/-"
                ))
            })?;
            let r = c.result(&tournament, round, board, res).await?;
            print_result("result recorded", &r);
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
            let players = c
                .registration
                .list_players(reg::ListPlayersRequest {
                    tournament: Clients::tref(&tournament),
                })
                .await
                .map_err(|s| status_exit("players", &s))?
                .into_inner();
            for p in players.players {
                let Some(pl) = p.player else { continue };
                println!(
                    "{:>4}  {:<32} {:>5}  {}",
                    pl.player_id,
                    pl.name,
                    pl.rating,
                    if p.status == reg::PlayerStatus::Withdrawn as i32 {
                        "withdrawn"
                    } else {
                        ""
                    }
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
    fn results_and_points_read_and_print() {
        assert_eq!(parse_result("1-0"), Some(BoardResult::WhiteWins));
        assert_eq!(parse_result(" 1/2 "), Some(BoardResult::Draw));
        assert_eq!(parse_result("-/+"), Some(BoardResult::BlackWinsForfeit));
        assert_eq!(parse_result("2-0"), None);
        assert_eq!(points(35), "3.5");
        assert_eq!(points(30), "3");
    }
}
