//! The round director: the tournament's lifecycle once players are in. It starts rounds
//! (`RoundStarted` + `PairingRequested`), asks for new pairings, publishes the proposal (or the
//! arbiter's own pairing), records and corrects results, closes rounds and finishes the
//! tournament, over gRPC (`arbiter.round_director.v1.RoundDirector`).
//!
//! ```text
//! StartRound(t, r)      -> RoundStarted, PairingRequested      (the pairing worker answers)
//! PublishPairing(t, r)  -> PairingPublished                     (proposal version 0 = latest)
//! RecordResult(t, r, b) -> ResultRecorded
//! CloseRound(t, r)      -> RoundClosed
//! ```
//!
//! [`register`] adds the service to a [`Host`] (the store, validation and statuses it uses
//! are in `arbiter-service-kit`).

pub mod heads;

use arbiter_auth::Principal;
use arbiter_auth::layer::principal;
use arbiter_core::ResultCode;
use arbiter_core::tournament::{
    BoardResult, CloseRound, Command, CorrectResult, CorrectionEffect, DecideAppeal, FileAppeal,
    FinishTournament, ImposeSanction, ManualPairing, OverridePlatformResult, Pair, PublishPairing,
    RecordIrregularity, RecordResult, ReportConnectionIncident, RequestPairing, RoundPhase,
    RuleOnDisconnection, StartRound, SubmitLineup,
};
use arbiter_eventlog::SubscribeFrom;
use arbiter_proto::common::v1::CommandResult;
use arbiter_proto::convert::{board_result_from_wire, result_code_from_wire};
use arbiter_proto::round_director::v1 as api;
use arbiter_proto::round_director::v1::round_director_server::{
    RoundDirector, RoundDirectorServer,
};
use arbiter_service_kit::Host;
use arbiter_service_kit::players::{self, PlayerRef};
use arbiter_service_kit::status::{self, convert_status, unknown_tournament};
use arbiter_service_kit::store::{self, CommandContext, Folded, TournamentStore, stream_of};
use futures::StreamExt;
use std::sync::Arc;
use tonic::{Request, Response, Status};

/// The service's name: actor of its own appends (signed chain heads), key of its checkpoints;
/// a client may not use it as actor ([`arbiter_service_kit::edge::RESERVED_ACTORS`]).
pub const SERVICE: &str = "round-director";

/// The gRPC implementation.
#[derive(Clone)]
pub struct RoundDirectorService {
    store: Arc<TournamentStore>,
    /// Signs the chain head after each publication and finish (none: no signed heads).
    signer: Option<Arc<arbiter_eventlog::HeadSigner>>,
}

impl RoundDirectorService {
    pub fn new(store: Arc<TournamentStore>) -> RoundDirectorService {
        RoundDirectorService {
            store,
            signer: None,
        }
    }

    /// Signs the chain head after each `PairingPublished`, `RoundClosed` and
    /// `TournamentFinished` (the other changes: [`heads::follow`]).
    pub fn with_signer(mut self, signer: Arc<arbiter_eventlog::HeadSigner>) -> Self {
        self.signer = Some(signer);
        self
    }

    pub fn store(&self) -> &Arc<TournamentStore> {
        &self.store
    }

    pub fn into_server(self) -> RoundDirectorServer<RoundDirectorService> {
        RoundDirectorServer::new(self)
    }

    async fn run(
        &self,
        caller: &Principal,
        request: &impl store::CommandRequest,
        mut build: impl FnMut(&Folded) -> Result<Command, Status>,
    ) -> Result<Response<CommandResult>, Status> {
        self.run_in(caller, request, |f, _| build(f)).await
    }

    /// As [`Self::run`], the command built with the request's context too (the caller's grant:
    /// a player's own requests name only his entry).
    async fn run_in(
        &self,
        caller: &Principal,
        request: &impl store::CommandRequest,
        build: impl FnMut(&Folded, &CommandContext) -> Result<Command, Status>,
    ) -> Result<Response<CommandResult>, Status> {
        let ctx = CommandContext::for_request(caller, request)?;
        self.run_ctx(&ctx, build).await
    }

    /// As [`Self::run_in`], with the request's context already made (and so the caller already
    /// authorized).
    async fn run_ctx(
        &self,
        ctx: &CommandContext,
        mut build: impl FnMut(&Folded, &CommandContext) -> Result<Command, Status>,
    ) -> Result<Response<CommandResult>, Status> {
        let outcome = self.store.execute(ctx, |f| build(f, ctx)).await?;
        if let Some(signer) = &self.signer {
            heads::sign_heads(
                self.store.log(),
                signer,
                &ctx.stream,
                outcome.first_version,
                outcome.last_version,
            )
            .await;
        }
        Ok(Response::new(outcome.into()))
    }
}

/// Who may report what (docs/src/guide/online-hybrid.md): a platform reports the drops it saw on
/// itself, as the platform; a venue's technical arbiter reports as himself. An arbiter may
/// transcribe any reporter's account (the event's actor is still the arbiter).
#[allow(clippy::result_large_err)]
fn reporter_may_report(
    caller: &Principal,
    i: &arbiter_core::tournament::ConnectionIncidentReported,
) -> Result<(), Status> {
    use arbiter_auth::Role;
    use arbiter_core::tournament::{ConnectionChannel, IncidentReporter};
    let own = match caller.role {
        Role::Platform => IncidentReporter::Platform,
        Role::LocalTechnicalArbiter => IncidentReporter::LocalTechnicalArbiter,
        Role::SupervisingArbiter => IncidentReporter::Arbiter,
        _ => return Ok(()),
    };
    if i.reported_by != own {
        return Err(Status::permission_denied(format!(
            "incident.reported_by: a {} token reports as {own:?}, not as {:?}",
            caller.role, i.reported_by
        )));
    }
    if caller.role == Role::Platform && i.channel != ConnectionChannel::Platform {
        return Err(Status::permission_denied(format!(
            "incident.channel: a platform reports the connections to itself (Platform), not \
             {:?}; a video-conference drop is the supervising arbiter's to report",
            i.channel
        )));
    }
    Ok(())
}

/// The board result of a request: named, or an arbiter's decision with both codes.
#[allow(clippy::result_large_err)]
fn board_result(result: i32, white: i32, black: i32) -> Result<BoardResult, Status> {
    board_result_from_wire(result, white, black).map_err(|e| convert_status("", &e))
}

/// The phase the API reports for a tournament.
pub fn phase_of(f: &Folded) -> api::Phase {
    let s = &f.state;
    if s.is_finished() {
        return api::Phase::Finished;
    }
    match s.current_round().and_then(|r| s.round_phase(r)) {
        None => api::Phase::Registration,
        Some(RoundPhase::Started | RoundPhase::Requested | RoundPhase::Failed) => {
            api::Phase::AwaitingPairing
        }
        Some(RoundPhase::Proposed) => api::Phase::PairingProposed,
        Some(RoundPhase::Published) => api::Phase::Playing,
        Some(RoundPhase::Closed) => api::Phase::RoundClosed,
    }
}

/// The API's summary of a tournament.
/// A round robin's schedule as `GetSchedule` answers it: the Berger table of the field
/// registered at that version (pairing numbers = the drawing of lots).
pub fn schedule(tournament_id: &str, f: &Folded) -> Result<api::Schedule, Status> {
    let s = &f.state;
    let Some(t) = s.tournament() else {
        return Err(unknown_tournament(tournament_id));
    };
    if t.pairing_system.is_swiss() {
        return Err(Status::failed_precondition(format!(
            "tournament {tournament_id}: {:?} is a Swiss system: each round is paired from the \
             results before it, there is no schedule",
            t.pairing_system
        )));
    }
    s.check_round_robin_rounds()
        .map_err(|e| status::domain_status(tournament_id, &e))?;
    let rounds = s
        .schedule()
        .map_err(|e| status::domain_status(tournament_id, &e))?;
    let federation = |pn: u32| s.player(pn).map(|p| p.player.federation.as_str());
    let compatriot_games = rounds
        .iter()
        .flat_map(|r| r.boards.iter().map(move |p| (r.round, p)))
        .filter_map(
            |(round, p)| match (federation(p.white), federation(p.black)) {
                (Some(a), Some(b)) if a == b && !a.is_empty() => Some(api::CompatriotGame {
                    round,
                    white: p.white,
                    black: p.black,
                    federation: a.to_string(),
                }),
                _ => None,
            },
        )
        .collect();
    Ok(api::Schedule {
        tournament_id: tournament_id.to_string(),
        version: f.version,
        rule_set: t.rule_set.clone(),
        players: s.player_count(),
        lots: s
            .lots_drawn()
            .map(|l| arbiter_proto::events::v1::LotsDrawn {
                numbers: l.numbers.clone(),
                varma: l.varma,
                seed: l.seed.clone(),
            }),
        compatriot_games,
        bracket: if t.pairing_system == arbiter_core::tournament::PairingSystem::Knockout {
            Some(bracket_view(s).map_err(|e| status::domain_status(tournament_id, &e))?)
        } else {
            None
        },
        rounds: rounds
            .into_iter()
            .map(|r| api::ScheduledRound {
                round: r.round,
                boards: r
                    .boards
                    .iter()
                    .enumerate()
                    .map(|(i, p)| arbiter_proto::events::v1::Board {
                        number: i as u32 + 1,
                        white: p.white,
                        black: p.black,
                    })
                    .collect(),
                rest: r.rest.unwrap_or(0),
            })
            .collect(),
    })
}

/// A knockout's bracket as `GetSchedule` answers it.
fn bracket_view(
    s: &arbiter_core::tournament::State,
) -> Result<api::KnockoutBracket, arbiter_core::tournament::DomainError> {
    let b = s.bracket()?;
    let result_text = |r: arbiter_core::tournament::BoardResult| {
        let (w, x) = r.codes();
        format!("{}/{}", w.trf_char(), x.trf_char())
    };
    let mut places: Vec<api::KnockoutPlace> = b
        .seeds
        .iter()
        .filter_map(|&pn| {
            b.places(pn).map(|(from, to)| api::KnockoutPlace {
                player: pn,
                from,
                to,
            })
        })
        .collect();
    places.sort_by_key(|p| (p.from, p.player));
    Ok(api::KnockoutBracket {
        seeds: b.seeds.clone(),
        knockout_rounds: b.knockout_rounds,
        winner: b.decided.map_or(0, |d| d.1),
        decided_in_round: b.decided.map_or(0, |d| d.0),
        places,
        rounds: b
            .rounds
            .iter()
            .map(|r| api::KnockoutRoundView {
                round: r.round,
                first_event_round: r.first_log_round,
                matches: r
                    .matches
                    .iter()
                    .map(|m| api::KnockoutMatchView {
                        index: m.key.index,
                        high_seed: m.high_seed,
                        high: m.high,
                        low_seed: m.low_seed.unwrap_or(0),
                        low: m.low.unwrap_or(0),
                        winner: m.winner().unwrap_or(0),
                        decided_by: m
                            .decision()
                            .map(|d| d.kind.map_or("bye", |k| k.as_str()).to_string())
                            .unwrap_or_default(),
                        games: m
                            .games
                            .iter()
                            .map(|g| api::KnockoutGameView {
                                round: g.round,
                                board: g.board,
                                number: g.game.number,
                                kind: g.game.kind.as_str().to_string(),
                                white: g.white,
                                black: g.black,
                                result: g.result.map(result_text).unwrap_or_default(),
                            })
                            .collect(),
                    })
                    .collect(),
            })
            .collect(),
    })
}

pub fn tournament_state(tournament_id: &str, f: &Folded) -> api::TournamentState {
    let s = &f.state;
    let current = s.current_round().unwrap_or(0);
    let pending_boards = s
        .published(current)
        .filter(|_| s.round_phase(current) == Some(RoundPhase::Published))
        .map(|p| {
            p.boards
                .iter()
                .filter(|b| b.result.is_none())
                .map(|b| b.number)
                .collect()
        })
        .unwrap_or_default();
    api::TournamentState {
        tournament_id: tournament_id.to_string(),
        version: f.version,
        name: s.tournament().map(|t| t.name.clone()).unwrap_or_default(),
        rounds: s.total_rounds(),
        current_round: current,
        phase: phase_of(f) as i32,
        pending_boards,
        rule_set: s
            .tournament()
            .map(|t| t.rule_set.clone())
            .unwrap_or_default(),
        open_discrepancies: s
            .discrepancies()
            .iter()
            .filter(|d| {
                s.published(d.round)
                    .and_then(|p| {
                        p.boards
                            .get((d.board as usize).wrapping_sub(1))
                            .map(|b| b.result.is_none())
                    })
                    .unwrap_or(false)
            })
            .map(|d| arbiter_proto::events::v1::ResultDiscrepancyDetected {
                round: d.round,
                board: d.board,
                platform_result: d.platform_result.clone(),
                laws_result: d.laws_result.clone(),
                reason: d.reason.clone(),
                article: d.article.clone(),
            })
            .collect(),
        corrections: s
            .corrections()
            .iter()
            .map(|c| api::Correction {
                round: c.round,
                board: c.board,
                previous: arbiter_proto::convert::board_result_to_wire(c.previous).0 as i32,
                corrected: arbiter_proto::convert::board_result_to_wire(c.corrected).0 as i32,
                reason: c.reason.clone(),
                effect: match c.effect {
                    CorrectionEffect::NextPairing => api::CorrectionEffect::NextPairing,
                    CorrectionEffect::LaterPairings => api::CorrectionEffect::LaterPairings,
                    CorrectionEffect::FinalEvaluationOnly => {
                        api::CorrectionEffect::FinalEvaluationOnly
                    }
                } as i32,
            })
            .collect(),
    }
}

#[tonic::async_trait]
impl RoundDirector for RoundDirectorService {
    async fn start_round(
        &self,
        request: Request<api::StartRoundRequest>,
    ) -> Result<Response<CommandResult>, Status> {
        let caller = principal(&request)?;
        let r = request.into_inner();
        self.run(&caller, &r, |_| {
            Ok(Command::StartRound(StartRound {
                round: r.round,
                scheduled_unix_ms: (r.scheduled_unix_ms != 0).then_some(r.scheduled_unix_ms),
            }))
        })
        .await
    }

    async fn request_repairing(
        &self,
        request: Request<api::RequestRepairingRequest>,
    ) -> Result<Response<CommandResult>, Status> {
        let caller = principal(&request)?;
        let r = request.into_inner();
        self.run(&caller, &r, |_| {
            Ok(Command::RequestPairing(RequestPairing { round: r.round }))
        })
        .await
    }

    async fn publish_pairing(
        &self,
        request: Request<api::PublishPairingRequest>,
    ) -> Result<Response<CommandResult>, Status> {
        let caller = principal(&request)?;
        let r = request.into_inner();
        let tid = r
            .header
            .as_ref()
            .map(|h| h.tournament_id.clone())
            .unwrap_or_default();
        self.run(&caller, &r, |f| {
            let current = f.current_proposal_version(r.round);
            let proposal_version = match (r.proposal_version, current) {
                (0, v) => v,
                (asked, Some(v)) if asked == v => Some(v),
                (asked, Some(v)) => {
                    return Err(Status::failed_precondition(format!(
                        "tournament {tid}: round {}: the proposal at version {asked} is not the \
                         current one (the current proposal is at version {v})",
                        r.round
                    )));
                }
                (asked, None) if r.boards.is_empty() && r.team_matches.is_empty() => {
                    return Err(Status::failed_precondition(format!(
                        "tournament {tid}: round {}: there is no proposal at version {asked} to publish",
                        r.round
                    )));
                }
                (_, None) => None,
            };
            let changes = if !r.team_matches.is_empty() || r.team_bye != 0 {
                Some(ManualPairing {
                    boards: Vec::new(),
                    bye: None,
                    team_matches: arbiter_proto::convert::team_matches_from_wire(&r.team_matches),
                    team_bye: (r.team_bye != 0).then_some(r.team_bye),
                })
            } else if r.boards.is_empty() {
                None
            } else {
                // Numbers by entry, or pairing numbers checked against the numbering read.
                let expected = r.header.as_ref().and_then(|h| h.expected_version);
                let player = |what: String, n: u32| -> Result<u32, Status> {
                    let p = if r.by_entry {
                        PlayerRef::new(n, 0, None, None)
                    } else {
                        PlayerRef::new(0, n, r.numbering_version, expected)
                    };
                    players::resolve(f, &what, p)
                        .map_err(|s| Status::new(s.code(), format!("tournament {tid}: {}", s.message())))
                };
                let mut bye = None;
                for (i, u) in r.unpaired.iter().enumerate() {
                    let code = result_code_from_wire("unpaired.code", u.code)
                        .map_err(|e| convert_status("", &e))?;
                    if code == ResultCode::PairingBye {
                        if bye.is_some() {
                            return Err(Status::invalid_argument(format!(
                                "tournament {tid}: round {}: more than one pairing-allocated bye",
                                r.round
                            )));
                        }
                        bye = Some(player(format!("unpaired[{i}]"), u.player_id)?);
                    }
                }
                let mut boards = Vec::with_capacity(r.boards.len());
                for (i, b) in r.boards.iter().enumerate() {
                    boards.push(Pair::new(
                        player(format!("boards[{i}].white"), b.white)?,
                        player(format!("boards[{i}].black"), b.black)?,
                    ));
                }
                Some(ManualPairing {
                    boards,
                    bye,
                    team_matches: Vec::new(),
                    team_bye: None,
                })
            };
            Ok(Command::PublishPairing(PublishPairing {
                round: r.round,
                proposal_version,
                changes,
                note: r.note.clone(),
            }))
        })
        .await
    }

    async fn submit_lineup(
        &self,
        request: Request<api::SubmitLineupRequest>,
    ) -> Result<Response<CommandResult>, Status> {
        let caller = principal(&request)?;
        let r = request.into_inner();
        self.run_in(&caller, &r, |f, ctx| {
            let players = r
                .players
                .iter()
                .enumerate()
                .map(|(i, &p)| {
                    let who = PlayerRef::new(0, p, r.numbering_version, ctx.expected_version);
                    players::resolve_in(&ctx.tournament_id, f, &format!("players[{i}]"), who)
                })
                .collect::<Result<_, _>>()?;
            Ok(Command::SubmitLineup(SubmitLineup {
                round: r.round,
                team: r.team,
                players,
            }))
        })
        .await
    }

    async fn record_result(
        &self,
        request: Request<api::RecordResultRequest>,
    ) -> Result<Response<CommandResult>, Status> {
        let caller = principal(&request)?;
        let r = request.into_inner();
        // Read after the caller is authorized (in `run`): a refusal does not depend on the body.
        self.run(&caller, &r, |_| {
            let result = board_result(r.result, r.white_code, r.black_code)?;
            Ok(Command::RecordResult(RecordResult {
                round: r.round,
                board: r.board,
                result,
            }))
        })
        .await
    }

    async fn override_platform_result(
        &self,
        request: Request<api::OverridePlatformResultRequest>,
    ) -> Result<Response<CommandResult>, Status> {
        let caller = principal(&request)?;
        let r = request.into_inner();
        self.run(&caller, &r, |_| {
            let result = board_result(r.result, 0, 0)?;
            Ok(Command::OverridePlatformResult(OverridePlatformResult {
                round: r.round,
                board: r.board,
                result,
                reason: r.reason.clone(),
            }))
        })
        .await
    }

    async fn impose_sanction(
        &self,
        request: Request<api::ImposeSanctionRequest>,
    ) -> Result<Response<CommandResult>, Status> {
        let caller = principal(&request)?;
        let r = request.into_inner();
        self.run_in(&caller, &r, |f, ctx| {
            let wire = r
                .sanction
                .as_ref()
                .ok_or_else(|| Status::invalid_argument("sanction: missing"))?;
            let s = arbiter_proto::convert::sanction_from_wire(&arbiter_proto::recorded::as_event(
                wire,
            ))
            .map_err(|e| convert_status("sanction", &e))?;
            let who = PlayerRef::new(
                r.entry,
                r.pairing_number,
                r.numbering_version,
                ctx.expected_version,
            );
            Ok(Command::ImposeSanction(ImposeSanction {
                player: players::resolve_in(&ctx.tournament_id, f, "player", who)?,
                kind: s.kind,
                round: (s.round != 0).then_some(s.round),
                rounds: s.rounds,
                amount: s.amount,
                article: s.article,
                evidence: s.evidence,
                note: s.note,
            }))
        })
        .await
    }

    async fn report_connection_incident(
        &self,
        request: Request<api::ReportConnectionIncidentRequest>,
    ) -> Result<Response<CommandResult>, Status> {
        let caller = principal(&request)?;
        let r = request.into_inner();
        self.run(&caller, &r, |_| {
            let wire = r
                .incident
                .as_ref()
                .ok_or_else(|| Status::invalid_argument("incident: missing"))?;
            let i = arbiter_proto::convert::incident_from_wire(&arbiter_proto::recorded::as_event(
                wire,
            ))
            .map_err(|e| convert_status("incident", &e))?;
            reporter_may_report(&caller, &i)?;
            Ok(Command::ReportConnectionIncident(
                ReportConnectionIncident {
                    round: i.round,
                    board: i.board,
                    player: i.player_id,
                    channel: i.channel,
                    disconnected_at_unix_ms: i.disconnected_at_unix_ms,
                    reconnected_at_unix_ms: i.reconnected_at_unix_ms,
                    clock_at_disconnect_ms: i.clock_at_disconnect_ms,
                    moved_while_vcs_down: i.moved_while_vcs_down,
                    reported_by: i.reported_by,
                    note: i.note,
                },
            ))
        })
        .await
    }

    async fn rule_on_disconnection(
        &self,
        request: Request<api::RuleOnDisconnectionRequest>,
    ) -> Result<Response<CommandResult>, Status> {
        let caller = principal(&request)?;
        let r = request.into_inner();
        self.run(&caller, &r, |f| {
            let wire = r
                .ruling
                .as_ref()
                .ok_or_else(|| Status::invalid_argument("ruling: missing"))?;
            let ruling =
                arbiter_proto::convert::ruling_from_wire(&arbiter_proto::recorded::as_event(wire))
                    .map_err(|e| convert_status("ruling", &e))?;
            // The opponent's mating material, read from the position (E.04 4.5, 11.4.2).
            let opponent_can_mate = match ruling.fen.trim() {
                "" => None,
                fen => {
                    let incident = ruling
                        .incident
                        .checked_sub(1)
                        .and_then(|k| f.state.incidents().get(k as usize));
                    let opponent_white = incident.and_then(|i| {
                        let p = f.state.published(i.round)?;
                        let b = p.boards.get((i.board as usize).checked_sub(1)?)?;
                        Some(b.black == i.player_id)
                    });
                    match opponent_white {
                        Some(white) => {
                            Some(arbiter_laws::can_mate(fen, white).map_err(|e| {
                                Status::invalid_argument(format!("ruling.fen: {e}"))
                            })?)
                        }
                        // No such incident: the aggregate names it.
                        None => None,
                    }
                }
            };
            Ok(Command::RuleOnDisconnection(RuleOnDisconnection {
                incident: ruling.incident,
                outcome: ruling.outcome,
                fen: ruling.fen,
                opponent_can_mate,
                white_ms: ruling.white_ms,
                black_ms: ruling.black_ms,
                reduce_ms: ruling.reduce_ms,
                time_control: ruling.time_control,
                note: ruling.note,
            }))
        })
        .await
    }

    async fn file_appeal(
        &self,
        request: Request<api::FileAppealRequest>,
    ) -> Result<Response<CommandResult>, Status> {
        let caller = principal(&request)?;
        let r = request.into_inner();
        // Authorized before the log is read for it.
        let ctx = CommandContext::for_request(&caller, &r)?;
        // The decision as the log has it: its kind and when it was recorded. Its kind as the
        // caller may see it (arbiter_service_kit::redact): a decision he may not read is not
        // one he can appeal, and the refusal must not name what it is.
        let (decision_kind, decision_at_unix_ms) = match r.decision_version {
            0 => (String::new(), 0),
            v => {
                let mut redactor =
                    arbiter_service_kit::redact::Redactor::new(caller.clone(), &ctx.tournament_id);
                let from = if redactor.needs_history() { 1 } else { v };
                let events = self
                    .store
                    .log()
                    .read(&ctx.stream, from)
                    .await
                    .map_err(|e| status::log_status(&e))?;
                let mut found = (String::new(), 0);
                for e in events.iter().take_while(|e| e.version <= v) {
                    if e.version < v {
                        redactor.skip(e);
                        continue;
                    }
                    let env = redactor
                        .envelope(e, false)
                        .map_err(|e| status::log_status(&e))?;
                    // Withheld: no payload (a note left out keeps the decision readable).
                    let Some(p) = env.payload else {
                        return Err(Status::permission_denied(format!(
                            "decision_version: version {v} of tournament {:?} is not a decision \
                             this token may read, so not one it may appeal; an arbiter of the \
                             tournament may file the appeal for the player",
                            ctx.tournament_id
                        )));
                    };
                    found = (arbiter_eventlog::kind_name(&p).to_string(), e.time_unix_ms);
                }
                found
            }
        };
        let filed_at_unix_ms = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        self.run_ctx(&ctx, |f, ctx| {
            let who = PlayerRef::new(
                r.entry,
                r.pairing_number,
                r.numbering_version,
                ctx.expected_version,
            );
            Ok(Command::FileAppeal(FileAppeal {
                appellant: players::resolve_granted(
                    &ctx.tournament_id,
                    f,
                    "appellant",
                    who,
                    ctx.grant,
                )?,
                decision_version: r.decision_version,
                decision_kind: decision_kind.clone(),
                decision_at_unix_ms,
                grounds: r.grounds.clone(),
                deposit: r.deposit.clone(),
                filed_at_unix_ms,
            }))
        })
        .await
    }

    async fn decide_appeal(
        &self,
        request: Request<api::DecideAppealRequest>,
    ) -> Result<Response<CommandResult>, Status> {
        let caller = principal(&request)?;
        let r = request.into_inner();
        self.run(&caller, &r, |_| {
            let new_result = if r.round == 0 {
                None
            } else {
                Some((
                    r.round,
                    r.board,
                    board_result(r.result, r.white_code, r.black_code)?,
                ))
            };
            Ok(Command::DecideAppeal(DecideAppeal {
                appeal: r.appeal,
                upheld: r.upheld,
                new_result,
                deposit_returned: r.deposit_returned,
                committee: r.committee.clone(),
                note: r.note.clone(),
            }))
        })
        .await
    }

    async fn record_irregularity(
        &self,
        request: Request<api::RecordIrregularityRequest>,
    ) -> Result<Response<CommandResult>, Status> {
        let caller = principal(&request)?;
        let r = request.into_inner();
        self.run(&caller, &r, |_| {
            let bad = |e| convert_status("", &e);
            let decision = if r.decision == 0 {
                None
            } else {
                Some(
                    arbiter_proto::convert::irregularity_decision_from_wire(r.decision)
                        .map_err(bad)?,
                )
            };
            Ok(Command::RecordIrregularity(RecordIrregularity {
                round: r.round,
                board: r.board,
                kind: arbiter_proto::convert::irregularity_kind_from_wire(r.kind).map_err(bad)?,
                plies: r.plies,
                decision,
                note: r.note.clone(),
            }))
        })
        .await
    }

    async fn record_supervision_breach(
        &self,
        request: Request<api::RecordSupervisionBreachRequest>,
    ) -> Result<Response<CommandResult>, Status> {
        let caller = principal(&request)?;
        let r = request.into_inner();
        self.run(&caller, &r, |_| {
            Ok(Command::RecordSupervisionBreach(
                arbiter_core::tournament::RecordSupervisionBreach {
                    round: r.round,
                    board: r.board,
                    player: r.pairing_number,
                    item: arbiter_proto::convert::supervision_item_from_wire(r.item)
                        .map_err(|e| convert_status("", &e))?,
                    note: r.note.clone(),
                },
            ))
        })
        .await
    }

    async fn correct_result(
        &self,
        request: Request<api::CorrectResultRequest>,
    ) -> Result<Response<CommandResult>, Status> {
        let caller = principal(&request)?;
        let r = request.into_inner();
        // Read after the caller is authorized (in `run`): a refusal does not depend on the body.
        self.run(&caller, &r, |_| {
            let result = board_result(r.corrected, r.white_code, r.black_code)?;
            Ok(Command::CorrectResult(CorrectResult {
                round: r.round,
                board: r.board,
                result,
                reason: r.reason.clone(),
            }))
        })
        .await
    }

    async fn close_round(
        &self,
        request: Request<api::CloseRoundRequest>,
    ) -> Result<Response<CommandResult>, Status> {
        let caller = principal(&request)?;
        let r = request.into_inner();
        self.run(&caller, &r, |_| {
            Ok(Command::CloseRound(CloseRound { round: r.round }))
        })
        .await
    }

    async fn finish_tournament(
        &self,
        request: Request<api::FinishTournamentRequest>,
    ) -> Result<Response<CommandResult>, Status> {
        let caller = principal(&request)?;
        let r = request.into_inner();
        self.run(&caller, &r, |_| {
            Ok(Command::FinishTournament(FinishTournament {}))
        })
        .await
    }

    async fn get_tournament(
        &self,
        request: Request<api::GetTournamentRequest>,
    ) -> Result<Response<api::TournamentState>, Status> {
        let r = request.into_inner();
        let t = r.tournament.unwrap_or_default();
        let stream = stream_of(&t.tournament_id)?;
        let f = self
            .store
            .as_of(&stream, t.as_of_version)
            .await
            .map_err(|e| e.to_status())?;
        if f.version == 0 {
            return Err(unknown_tournament(&t.tournament_id));
        }
        Ok(Response::new(tournament_state(&t.tournament_id, &f)))
    }

    async fn arbiter_record(
        &self,
        request: Request<api::GetTournamentRequest>,
    ) -> Result<Response<api::ArbiterRecordResponse>, Status> {
        use arbiter_proto::events::v1::event::Kind;
        let caller = principal(&request)?;
        let t = request.into_inner().tournament.unwrap_or_default();
        caller.authorize("ArbiterRecord", t.tournament_id.trim())?;
        let stream = stream_of(&t.tournament_id)?;
        let stored = self
            .store
            .log()
            .read(&stream, 1)
            .await
            .map_err(|e| status::log_status(&e))?;
        if stored.is_empty() {
            return Err(unknown_tournament(&t.tournament_id));
        }
        let last = stored.last().map_or(0, |e| e.version);
        let version = if t.as_of_version == 0 {
            last
        } else {
            t.as_of_version.min(last)
        };
        // The record shows what the caller's role may read of each event
        // (arbiter_service_kit::redact): a supervising arbiter's has no appeals, a
        // committee's no screening; what he may not read is left out.
        let mut redactor = arbiter_service_kit::redact::Redactor::new(caller, &t.tournament_id);
        let events = stored
            .iter()
            .filter(|e| t.as_of_version == 0 || e.version <= t.as_of_version)
            .filter_map(|e| redactor.envelope(e, false).ok())
            .filter(|env| {
                matches!(
                    env.payload.as_ref().and_then(|p| p.kind.as_ref()),
                    Some(
                        Kind::ResultDiscrepancyDetected(_)
                            | Kind::ResultOverridden(_)
                            | Kind::IrregularityRecorded(_)
                            | Kind::SupervisionBreachRecorded(_)
                            | Kind::SanctionImposed(_)
                            | Kind::ConnectionIncidentReported(_)
                            | Kind::DisconnectionRuled(_)
                            | Kind::AppealFiled(_)
                            | Kind::AppealDecided(_)
                    )
                )
            })
            .collect();
        Ok(Response::new(api::ArbiterRecordResponse {
            tournament_id: t.tournament_id,
            version,
            events,
        }))
    }

    async fn get_schedule(
        &self,
        request: Request<api::GetTournamentRequest>,
    ) -> Result<Response<api::Schedule>, Status> {
        let r = request.into_inner();
        let t = r.tournament.unwrap_or_default();
        let stream = stream_of(&t.tournament_id)?;
        let f = self
            .store
            .as_of(&stream, t.as_of_version)
            .await
            .map_err(|e| e.to_status())?;
        if f.version == 0 {
            return Err(unknown_tournament(&t.tournament_id));
        }
        Ok(Response::new(schedule(&t.tournament_id, &f)?))
    }

    type WatchTournamentStream =
        futures::stream::BoxStream<'static, Result<api::TournamentState, Status>>;

    async fn watch_tournament(
        &self,
        request: Request<api::GetTournamentRequest>,
    ) -> Result<Response<Self::WatchTournamentStream>, Status> {
        let r = request.into_inner();
        let tid = r.tournament.unwrap_or_default().tournament_id;
        let stream = stream_of(&tid)?;
        let f = self
            .store
            .current(&stream)
            .await
            .map_err(|e| e.to_status())?;
        if f.version == 0 {
            return Err(unknown_tournament(&tid));
        }
        let first = tournament_state(&tid, &f);
        let events = self
            .store
            .log()
            .subscribe(SubscribeFrom::Stream {
                stream: stream.clone(),
                from_version: f.version + 1,
            })
            .await
            .map_err(|e| status::log_status(&e))?;
        let store = self.store.clone();
        // A signed head changes nothing a watcher sees (and one is appended at shutdown, while
        // watches drain): no update for it.
        let events = events
            .filter(|e| std::future::ready(!matches!(e, Ok(stored) if heads::is_head(stored))));
        let updates = events.then(move |e| {
            let store = store.clone();
            let stream = stream.clone();
            let tid = tid.clone();
            async move {
                e.map_err(|e| status::log_status(&e))?;
                let f = store.current(&stream).await.map_err(|e| e.to_status())?;
                Ok(tournament_state(&tid, &f))
            }
        });
        // A failure after the first state ends the stream with its status in the trailers,
        // where the host's edge does not add details: they are added here.
        let out = futures::stream::once(async move { Ok(first) })
            .chain(updates)
            .map(|r| r.map_err(status::with_details));
        Ok(Response::new(Box::pin(out)))
    }
}

/// Adds the round director to `host`, over the host's store. With a `signer`, chain heads are
/// signed after each publication, closed round and finish, after any other change once its
/// stream is quiet, and at start where a stream lacks one (see [`heads`]).
pub fn register(host: &mut Host, signer: Option<Arc<arbiter_eventlog::HeadSigner>>) {
    register_with(host, signer, heads::SIGN_AFTER_QUIET)
}

/// As [`register`], with the quiet time before a change is signed.
pub fn register_with(
    host: &mut Host,
    signer: Option<Arc<arbiter_eventlog::HeadSigner>>,
    quiet: std::time::Duration,
) {
    let mut service = RoundDirectorService::new(host.store().clone());
    if let Some(signer) = signer {
        service = service.with_signer(signer.clone());
        let log = host.store().log().clone();
        host.follower(
            heads::FOLLOWER,
            heads::follow(
                host.feed().clone(),
                host.checkpoints().cloned(),
                log.clone(),
                signer.clone(),
                quiet,
                host.stopping(),
            ),
        );
        host.task(async move {
            let streams = log.list_streams().await.unwrap_or_default();
            for s in streams.iter().filter(|s| store::tournament_of(s).is_some()) {
                let signed = heads::sign_missing(&log, &signer, s).await;
                if !signed.is_empty() {
                    tracing::info!(stream = %s, versions = ?signed, "signed missing chain heads");
                }
            }
        });
    }
    host.grpc(service.into_server());
}
