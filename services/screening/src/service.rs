//! The gRPC implementation of `arbiter.screening.v1.Screening`.

use crate::answer;
use crate::{Engines, WorkerStats};
use arbiter_auth::Principal;
use arbiter_auth::layer::principal;
use arbiter_core::tournament::State;
use arbiter_core::tournament::{Command, FileComplaint, SubmitGame, SubmitGames};
use arbiter_eventlog::StoredEvent;
use arbiter_proto::common::v1::CommandResult;
use arbiter_proto::events::v1::event::Kind;
use arbiter_proto::refusal;
use arbiter_proto::screening::v1 as api;
use arbiter_proto::screening::v1::screening_server::{Screening, ScreeningServer};
use arbiter_screening::pgn;
use arbiter_service_kit::edge::MAX_GAME_PGN_BYTES;
use arbiter_service_kit::status::unknown_tournament;
use arbiter_service_kit::store::{CommandContext, TournamentStore, stream_of};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use tonic::{Code, Request, Response, Status};
use tracing::{Instrument, info_span};

/// The largest request the service reads: above the one-game limit, so that an oversized PGN
/// is refused by the edge check naming round and board rather than by the transport.
pub const MAX_REQUEST_BYTES: usize = 16 * 1024 * 1024;

/// Answers `arbiter.screening.v1.Screening`.
#[derive(Clone)]
pub struct ScreeningService {
    store: Arc<TournamentStore>,
    engines: Arc<Engines>,
    stats: Arc<WorkerStats>,
}

impl ScreeningService {
    pub fn new(store: Arc<TournamentStore>, engines: Arc<Engines>) -> ScreeningService {
        ScreeningService {
            store,
            engines,
            stats: Arc::default(),
        }
    }

    pub fn into_server(self) -> ScreeningServer<ScreeningService> {
        ScreeningServer::new(self).max_decoding_message_size(MAX_REQUEST_BYTES)
    }

    /// Records a read of confidential screening data (docs/src/rules/fair-play.md, Confidentiality) in the tournament's log:
    /// `ConfidentialDataAccessed` with who, what and why, under a command id of its own. The
    /// answer is not sent when this cannot be written.
    async fn audit_read(
        &self,
        stream: &str,
        caller: &Principal,
        what: String,
        why: &str,
        as_of_version: u64,
    ) -> Result<(), Status> {
        let event = arbiter_proto::events::v1::Event {
            origin: None,
            kind: Some(Kind::ConfidentialDataAccessed(
                arbiter_proto::events::v1::ConfidentialDataAccessed {
                    who: caller.subject.clone(),
                    role: caller.role.to_string(),
                    what,
                    why: why.trim().to_string(),
                    as_of_version,
                },
            )),
        };
        let command = format!("{}:read:{}", crate::SERVICE, uuid::Uuid::new_v4());
        self.store
            .log()
            .append(
                stream,
                arbiter_eventlog::ExpectedVersion::Any,
                &command,
                &caller.subject,
                arbiter_eventlog::encode_events(&[event]),
            )
            .await
            .map_err(|e| {
                Status::unavailable(format!(
                    "the read of screening data could not be recorded, so it is not answered: {e}"
                ))
            })?;
        Ok(())
    }

    /// The screening events of a stream up to `version` (0 = all).
    async fn report(&self, stream: &str, version: u64) -> Result<api::ScreeningReport, Status> {
        let events = self
            .store
            .log()
            .read(stream, 1)
            .await
            .map_err(|e| arbiter_service_kit::status::log_status(&e))?;
        let mut report = api::ScreeningReport::default();
        for e in events
            .iter()
            .filter(|e| version == 0 || e.version <= version)
        {
            match e.decode_event().ok().and_then(|w| w.kind) {
                Some(Kind::PlayerScreeningComputed(p)) => report.performances.push(p),
                Some(Kind::ScreeningFlagRaised(f)) => report.flags.push(f),
                Some(Kind::ComplaintFiled(c)) => report.complaints.push(c),
                // The record of reads is not what is read: a report's version is the last
                // event before it, so reading twice answers the same.
                Some(Kind::ConfidentialDataAccessed(_)) => continue,
                _ => {}
            }
            report.version = e.version;
        }
        Ok(report)
    }
}

/// The one game of a submitted PGN, or why it is refused (naming round, board, ply and move).
#[allow(clippy::result_large_err)]
fn one_game(tid: &str, round: u32, board: u32, text: &str) -> Result<pgn::Game, Status> {
    let source = format!("tournament {tid}, round {round}, board {board}");
    let mut games = pgn::parse(text.as_bytes(), &source, MAX_GAME_PGN_BYTES as u64)
        .map_err(|e| Status::invalid_argument(format!("pgn: {e}")))?;
    if games.len() != 1 {
        return Err(Status::invalid_argument(format!(
            "pgn: {source}: {} games; send one game per board",
            games.len()
        )));
    }
    Ok(games.remove(0))
}

#[tonic::async_trait]
impl Screening for ScreeningService {
    async fn submit_game(
        &self,
        request: Request<api::SubmitGameRequest>,
    ) -> Result<Response<CommandResult>, Status> {
        let caller = principal(&request)?;
        let r = request.into_inner();
        let span = info_span!("submit_game", round = r.round, board = r.board);
        async {
            // Authorized and size-checked before the PGN is read.
            let ctx = CommandContext::for_request(&caller, &r)?;
            let (tid, round, board, text) =
                (ctx.tournament_id.clone(), r.round, r.board, r.pgn.clone());
            // Reading a game replays every move: CPU work, off the async threads.
            let game =
                arbiter_service_kit::background::run(move || one_game(&tid, round, board, &text))
                    .await
                    .map_err(|e| Status::internal(format!("reading the PGN stopped: {e}")))??;
            let outcome = self
                .store
                .execute(&ctx, |_| {
                    Ok(Command::SubmitGame(SubmitGame {
                        round: r.round,
                        board: r.board,
                        pgn: r.pgn.clone(),
                        white: game.white.clone(),
                        black: game.black.clone(),
                        result: game.result.clone(),
                        laws: crate::games_file::laws_verdict(&game),
                    }))
                })
                .await?;
            Ok(Response::new(outcome.into()))
        }
        .instrument(span)
        .await
    }

    async fn submit_games(
        &self,
        request: Request<api::SubmitGamesRequest>,
    ) -> Result<Response<api::SubmitGamesResponse>, Status> {
        let caller = principal(&request)?;
        let r = request.into_inner();
        let span = info_span!("submit_games", round = r.round, bytes = r.pgn.len());
        async {
            // Authorized and size-checked before the PGN is read.
            let ctx = CommandContext::for_request(&caller, &r)?;
            let (tid, round, text) = (ctx.tournament_id.clone(), r.round, r.pgn);
            let games = arbiter_service_kit::background::run(move || {
                crate::games_file::read(&tid, round, &text)
            })
            .await
            .map_err(|e| Status::internal(format!("reading the PGN stopped: {e}")))??;
            let command = Command::SubmitGames(SubmitGames {
                round,
                games: games.clone(),
            });
            let outcome = self.store.execute(&ctx, |_| Ok(command.clone())).await?;
            // The boards, from the events of the outcome (the first one's for a replay).
            let events = self
                .store
                .log()
                .read(&ctx.stream, outcome.first_version)
                .await
                .map_err(|e| arbiter_service_kit::status::log_status(&e))?;
            let boards: Vec<u32> = events
                .iter()
                .take_while(|e| e.version <= outcome.last_version)
                .filter_map(|e| match e.decode_event().ok()?.kind? {
                    Kind::GameSubmitted(g) => Some(g.board),
                    _ => None,
                })
                .collect();
            let games = games
                .into_iter()
                .zip(boards)
                .map(|(g, board)| api::SubmittedGame {
                    index: g.index,
                    board,
                    white: g.white,
                    black: g.black,
                })
                .collect();
            Ok(Response::new(api::SubmitGamesResponse {
                result: Some(outcome.into()),
                games,
            }))
        }
        .instrument(span)
        .await
    }

    async fn run_full_test(
        &self,
        request: Request<api::RunFullTestRequest>,
    ) -> Result<Response<api::ScreeningReport>, Status> {
        let caller = principal(&request)?;
        let r = request.into_inner();
        let span = info_span!("run_full_test", round = r.round);
        async {
            let ctx = CommandContext::for_request(&caller, &r)?;
            let current = self
                .store
                .current(&ctx.stream)
                .await
                .map_err(|e| e.to_status())?;
            if !current.state.is_created() {
                return Err(unknown_tournament(&ctx.tournament_id));
            }
            // The same command id again (a retry after a lost answer): the first answer,
            // from the log, without analysing again.
            if current.command(&ctx.command_id).is_some() {
                let events = self
                    .store
                    .log()
                    .read(&ctx.stream, 1)
                    .await
                    .map_err(|e| arbiter_service_kit::status::log_status(&e))?;
                let mut report = api::ScreeningReport {
                    version: current.version,
                    ..Default::default()
                };
                for e in events.iter().filter(|e| e.command_id == ctx.command_id) {
                    match e.decode_event().ok().and_then(|w| w.kind) {
                        Some(Kind::PlayerScreeningComputed(p)) => report.performances.push(p),
                        Some(Kind::ScreeningFlagRaised(f)) => report.flags.push(f),
                        _ => {}
                    }
                }
                let what = format!(
                    "RunFullTest {:?} answered again from the log: {} performances, {} flags",
                    ctx.command_id,
                    report.performances.len(),
                    report.flags.len()
                );
                self.audit_read(&ctx.stream, &caller, what, &r.reason, current.version)
                    .await?;
                return Ok(Response::new(report));
            }
            let through = match r.round {
                0 => current.state.current_round().unwrap_or(0),
                n => n,
            };
            let events = self
                .store
                .log()
                .read(&ctx.stream, 1)
                .await
                .map_err(|e| arbiter_service_kit::status::log_status(&e))?;
            let events: Vec<_> = events
                .into_iter()
                .take_while(|e| e.version <= current.version)
                .collect();
            let scope = full_test_scope(&r, &current.state, &events, through, &ctx.tournament_id)?;
            let screener = self.engines.deep().await.map_err(|e| {
                Status::failed_precondition(format!(
                    "tournament {}: the screening engine is not available: {e}",
                    ctx.tournament_id
                ))
            })?;
            let games = answer::submitted_through(&events, through);
            let out = screener
                .answer(&current.state, &games, through, scope.players.as_ref())
                .await;
            self.engines.persist_in_background().await;
            let out = out.map_err(Status::unavailable)?;
            if !out.is_empty() {
                crate::append(
                    self.store.log(),
                    &self.stats,
                    &ctx.stream,
                    &ctx.command_id,
                    &ctx.actor,
                    &out,
                )
                .await
                .map_err(Status::unavailable)?;
            }
            let mut report = api::ScreeningReport {
                version: current.version,
                ..Default::default()
            };
            for e in out {
                match e.kind {
                    Some(Kind::PlayerScreeningComputed(p)) => report.performances.push(p),
                    Some(Kind::ScreeningFlagRaised(f)) => report.flags.push(f),
                    _ => {}
                }
            }
            let what = format!(
                "RunFullTest through round {through} (tier full){}: {} performances, {} flags",
                scope.said,
                report.performances.len(),
                report.flags.len()
            );
            self.audit_read(&ctx.stream, &caller, what, &r.reason, current.version)
                .await?;
            Ok(Response::new(report))
        }
        .instrument(span)
        .await
    }

    async fn file_complaint(
        &self,
        request: Request<api::FileComplaintRequest>,
    ) -> Result<Response<CommandResult>, Status> {
        let (ctx, r) = CommandContext::open(request)?;
        // Received now, by this server's clock; the deadline runs from the time the log
        // recorded the closing of the last round (E.04 Appendix I G.2.1).
        let filed_at_unix_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        let current = self
            .store
            .current(&ctx.stream)
            .await
            .map_err(|e| e.to_status())?;
        if !current.state.is_created() {
            return Err(unknown_tournament(&ctx.tournament_id));
        }
        let last = current.state.total_rounds();
        let ended = current.round_closed_at(last);
        let evidence = r
            .evidence
            .iter()
            .map(arbiter_proto::convert::evidence_from_wire)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| arbiter_service_kit::status::convert_status("evidence", &e))?;
        let who = arbiter_service_kit::players::PlayerRef::new(
            r.entry,
            r.pairing_number,
            r.numbering_version,
            ctx.expected_version,
        );
        let (tid, grant) = (ctx.tournament_id.clone(), ctx.grant);
        let outcome = self
            .store
            .execute(&ctx, |f| {
                Ok(Command::FileComplaint(FileComplaint {
                    complainant: arbiter_service_kit::players::resolve_granted(
                        &tid,
                        f,
                        "complainant",
                        who,
                        grant,
                    )?,
                    accused: r.accused,
                    grounds: r.grounds.clone(),
                    evidence: evidence.clone(),
                    only_rating_performance: r.only_rating_performance,
                    filed_at_unix_ms,
                    last_round_ended_at_unix_ms: ended,
                }))
            })
            .await?;
        Ok(Response::new(outcome.into()))
    }

    async fn get_screening(
        &self,
        request: Request<api::GetScreeningRequest>,
    ) -> Result<Response<api::ScreeningReport>, Status> {
        let caller = principal(&request)?;
        let r = request.into_inner();
        let t = r.tournament.unwrap_or_default();
        let stream = stream_of(&t.tournament_id)?;
        // Confidential (docs/src/rules/fair-play.md, Confidentiality): only the roles FAIR_PLAY_CALLS allows, on their tournaments.
        caller.authorize("GetScreening", t.tournament_id.trim())?;
        // The subject becomes the actor of the read's record: not a service's own name.
        arbiter_service_kit::edge::check_actor("the token's subject (sub)", &caller.subject)?;
        arbiter_service_kit::edge::check_reason("reason", &r.reason)?;
        async {
            let current = self
                .store
                .current(&stream)
                .await
                .map_err(|e| e.to_status())?;
            if !current.state.is_created() {
                return Err(unknown_tournament(&t.tournament_id));
            }
            let report = self.report(&stream, t.as_of_version).await?;
            let what = format!(
                "GetScreening as of version {}: {} performances, {} flags",
                report.version,
                report.performances.len(),
                report.flags.len()
            );
            self.audit_read(&stream, &caller, what, &r.reason, report.version)
                .await?;
            Ok(Response::new(report))
        }
        .instrument(info_span!("get_screening"))
        .await
    }
}

/// Whom a RunFullTest judges: the names its games give them, and what the audit record says.
struct FullTestScope {
    /// `None`: every player.
    players: Option<BTreeSet<String>>,
    said: String,
}

/// The players a RunFullTest asks for: every player when it names none; else the pairing
/// numbers it gives and, with `watched`, the players whose latest quick screening through
/// `through` is at Watch or above (from the stream's `PlayerScreeningComputed`).
fn full_test_scope(
    r: &api::RunFullTestRequest,
    state: &State,
    events: &[StoredEvent],
    through: u32,
    tournament_id: &str,
) -> Result<FullTestScope, Status> {
    if !r.watched && r.players.is_empty() {
        return Ok(FullTestScope {
            players: None,
            said: String::new(),
        });
    }
    let mut names = BTreeSet::new();
    for (i, &n) in r.players.iter().enumerate() {
        let p = state
            .players()
            .find(|p| p.pairing_number() == n)
            .ok_or_else(|| {
                Status::invalid_argument(format!(
                    "tournament {tournament_id}: players[{i}]: no player has pairing number {n}"
                ))
            })?;
        names.insert(p.player.name.clone());
    }
    let mut said = Vec::new();
    if r.watched {
        // Each player's latest quick screening through the round.
        let mut latest: BTreeMap<String, (u32, bool)> = BTreeMap::new();
        for e in events {
            if let Ok(w) = e.decode_event()
                && let Some(Kind::PlayerScreeningComputed(p)) = w.kind
                && p.tier == "quick"
                && p.through_round <= through
                && latest
                    .get(&p.player)
                    .is_none_or(|&(seen, _)| seen <= p.through_round)
            {
                latest.insert(p.player.clone(), (p.through_round, p.flag != "none"));
            }
        }
        if latest.is_empty() {
            return Err(refusal(
                Code::FailedPrecondition,
                format!(
                    "tournament {tournament_id}: watched: no quick screening through round \
                     {through} yet, so no player is at Watch (a round is screened when it is \
                     closed)"
                ),
                "NO_QUICK_SCREENING",
                &[
                    ("tournament_id", tournament_id),
                    ("round", &through.to_string()),
                ],
            ));
        }
        let watched: Vec<String> = latest
            .into_iter()
            .filter(|(_, (_, at_watch))| *at_watch)
            .map(|(name, _)| name)
            .collect();
        said.push(format!("the {} at Watch", watched.len()));
        names.extend(watched);
    }
    if !r.players.is_empty() {
        let numbers: Vec<String> = r.players.iter().map(u32::to_string).collect();
        said.push(format!("pairing numbers {}", numbers.join(", ")));
    }
    Ok(FullTestScope {
        said: format!(" of {} players ({})", names.len(), said.join("; ")),
        players: Some(names),
    })
}
