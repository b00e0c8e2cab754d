//! Registration: creates tournaments and keeps their players: registrations, late entries,
//! withdrawals, bye requests and absences, over gRPC (`arbiter.registration.v1.Registration`).
//!
//! Every command goes through the tournament store of `arbiter-service-kit` (fold the stream,
//! `decide`, append with the folded version and the request's command id), so it is idempotent
//! and safe against concurrent writers; a refused command appends nothing and answers with a
//! status naming what and where.
//!
//! [`register`] adds the service to a [`Host`].

use arbiter_auth::layer::principal;
use arbiter_core::PointSystem;
use arbiter_core::tournament::{
    AccelerationChoice, ByeKind, CancelBye, CancelRegistration, Command, CorrectPlayer,
    CreateTournament, DeclareAbsence, DrawLots, PairingSystem, RecordFairPlayConsent, RecordTeam,
    RegisterPlayer, RequestBye, TeamRecorded, UpdateTournament, WithdrawPlayer,
};
use arbiter_proto::common::v1::CommandResult;
use arbiter_proto::convert::{
    acceleration_method_from_str, arbiter_from_wire, bye_kind_from_wire, color_from_wire,
    conduct_from_wire, consent_from_wire, date_from_wire, date_to_wire, knockout_rules_from_wire,
    pairing_system_from_wire, player_from_wire, player_to_wire, prize_fund_from_wire,
    rating_kind_from_wire, sex_to_wire, title_to_wire,
};
use arbiter_proto::events::v1 as pb;
use arbiter_proto::registration::v1 as api;
use arbiter_proto::registration::v1::registration_server::{Registration, RegistrationServer};
use arbiter_service_kit::Host;
use arbiter_service_kit::players::{self, PlayerRef};
use arbiter_service_kit::status::{convert_status, unknown_tournament};
use arbiter_service_kit::store::{
    CommandContext, Folded, TournamentStore, new_tournament_id, stream_of, tournament_of,
};
use std::sync::Arc;
use tonic::{Request, Response, Status};

/// The service's name: key of its checkpoints; a client may not use it as actor (see
/// `arbiter_service_kit::edge`).
pub const SERVICE: &str = "registration";

/// Where registration looks up a player registered by FIDE id: the FIDE rating list
/// (`arbiter ratings import`). Kept as a trait so that this service does not depend on how the
/// list is stored.
pub trait PlayerDirectory: Send + Sync + 'static {
    /// Fills what `p` leaves empty (name, rating and K of `kind`, title, federation, birth
    /// year, sex) from the list entry of its FIDE id; what `p` gives is kept. The names of the
    /// fields filled; `None` when `p` has no FIDE id or the list does not have it.
    fn complete(
        &self,
        p: &mut RegisterPlayer,
        kind: arbiter_core::tournament::RatingKind,
    ) -> Result<Option<Vec<&'static str>>, String>;

    /// Up to `limit` players of the list for `query` (a FIDE id or the start of a name), each
    /// as a registration would be completed from the list for `kind`.
    fn search(
        &self,
        query: &str,
        kind: arbiter_core::tournament::RatingKind,
        limit: usize,
    ) -> Result<Vec<RegisterPlayer>, String>;
}

/// The gRPC implementation.
#[derive(Clone)]
pub struct RegistrationService {
    store: Arc<TournamentStore>,
    directory: Option<Arc<dyn PlayerDirectory>>,
}

impl RegistrationService {
    pub fn new(store: Arc<TournamentStore>) -> RegistrationService {
        RegistrationService {
            store,
            directory: None,
        }
    }

    /// Registrations by FIDE id are completed from `directory` (the rating list).
    pub fn with_directory(mut self, directory: Arc<dyn PlayerDirectory>) -> RegistrationService {
        self.directory = Some(directory);
        self
    }

    /// The command as registered: completed from the rating list when there is one.
    fn completed(&self, f: &Folded, command: &RegisterPlayer) -> Result<Command, Status> {
        let mut c = command.clone();
        if let (Some(dir), Some(t)) = (&self.directory, f.state.tournament()) {
            match dir.complete(&mut c, t.rating_kind) {
                Ok(Some(filled)) => {
                    tracing::info!(fide_id = ?c.fide_id, ?filled, "registration completed from the rating list");
                }
                Ok(None) => {}
                Err(e) => {
                    return Err(Status::unavailable(format!(
                        "player: the rating list cannot be read: {e}"
                    )));
                }
            }
        }
        Ok(Command::RegisterPlayer(c))
    }

    pub fn store(&self) -> &Arc<TournamentStore> {
        &self.store
    }

    pub fn into_server(self) -> RegistrationServer<RegistrationService> {
        RegistrationServer::new(self)
    }

    async fn run(
        &self,
        ctx: CommandContext,
        build: impl FnMut(&Folded) -> Result<Command, Status>,
    ) -> Result<Response<CommandResult>, Status> {
        let outcome = self.store.execute(&ctx, build).await?;
        Ok(Response::new(outcome.into()))
    }

    /// Runs a registration and answers with the player's entry number and pairing number.
    async fn register(
        &self,
        ctx: CommandContext,
        command: &RegisterPlayer,
    ) -> Result<Response<CommandResult>, Status> {
        let stream = ctx.stream.clone();
        let mut result = self
            .run(ctx, |f| self.completed(f, command))
            .await?
            .into_inner();
        let f = self
            .store
            .current(&stream)
            .await
            .map_err(|e| e.to_status())?;
        if let Some(p) = players::entry_registered_at(&f, result.first_version)
            .and_then(|e| f.state.player_by_entry(e))
        {
            result.entry = p.entry.number();
            result.pairing_number = p.pairing_number();
            result.first_round = p.first_round;
        }
        Ok(Response::new(result))
    }
}

/// The create command of the settings a client gives (read as the `TournamentCreated` event
/// they are recorded as: `arbiter_proto::recorded`).
#[allow(clippy::result_large_err)]
pub fn create_command(settings: &api::TournamentSettings) -> Result<CreateTournament, Status> {
    let t: pb::TournamentCreated = arbiter_proto::recorded::as_event(settings);
    let t = &t;
    let bad = |e| convert_status("tournament", &e);
    let start = match &t.start_date {
        Some(d) => date_from_wire("start_date", d).map_err(bad)?,
        None => return Err(Status::invalid_argument("tournament.start_date: missing")),
    };
    let end = match &t.end_date {
        Some(d) => date_from_wire("end_date", d).map_err(bad)?,
        None => start,
    };
    let pairing_system = pairing_system_from_wire(t.pairing_system)
        .map_err(bad)?
        .unwrap_or(PairingSystem::Dutch);
    let acceleration = match &t.acceleration {
        None => None,
        Some(a) => Some(AccelerationChoice {
            method: acceleration_method_from_str(&a.method).map_err(bad)?,
            rounds: (a.first_round != 0 || a.last_round != 0)
                .then_some((a.first_round, a.last_round)),
        }),
    };
    let mut c = CreateTournament::new(t.name.clone(), start, end, t.rounds);
    c.place = t.place.clone();
    c.federation = t.federation.clone();
    c.chief_arbiter = t
        .chief_arbiter
        .as_ref()
        .map(arbiter_from_wire)
        .unwrap_or_default();
    c.deputy_arbiters = t.deputy_arbiters.iter().map(arbiter_from_wire).collect();
    c.pairing_system = pairing_system;
    c.rule_set = (!t.rule_set.trim().is_empty()).then(|| t.rule_set.trim().to_string());
    c.scoring = t.scoring.map(PointSystem::from).unwrap_or_default();
    c.initial_color = color_from_wire(t.initial_color).map_err(bad)?;
    c.rating_kind = rating_kind_from_wire(t.rating_kind)
        .map_err(bad)?
        .unwrap_or_default();
    c.tie_breaks = t.tie_breaks.join(", ");
    c.time_control = t.time_control.clone();
    c.acceleration = acceleration;
    c.fide_rated = t.fide_rated;
    c.conduct = conduct_from_wire(t.conduct.as_ref())
        .map_err(|e| convert_status("tournament.conduct", &e))?;
    c.knockout = t
        .knockout
        .as_ref()
        .map(knockout_rules_from_wire)
        .transpose()
        .map_err(|e| convert_status("tournament.knockout", &e))?;
    c.team_rules = t
        .team_rules
        .as_ref()
        .map(|r| arbiter_proto::convert::team_rules_from_wire(r, c.scoring))
        .transpose()
        .map_err(|e| convert_status("tournament.team_rules", &e))?;
    Ok(c)
}

/// The register command of a player's details (numbers follow the initial ranking: the
/// service gives them).
#[allow(clippy::result_large_err)]
pub fn register_command(p: Option<&api::PlayerDetails>) -> Result<RegisterPlayer, Status> {
    let p = p.ok_or_else(|| Status::invalid_argument("player: missing"))?;
    let p = player_from_wire(&arbiter_proto::recorded::as_event(p))
        .map_err(|e| convert_status("player", &e))?;
    Ok(RegisterPlayer {
        name: p.name,
        fide_id: p.fide_id,
        national_id: p.national_id,
        rating: p.rating,
        national_rating: p.national_rating,
        k_factor: p.k_factor,
        title: p.title,
        federation: p.federation,
        birth_date: p.birth_date,
        sex: p.sex,
        club: p.club,
        first_round: None,
        missed_rounds: ByeKind::ZeroPoint,
        confirm_same_name: false,
        next_number: false,
    })
}

#[tonic::async_trait]
impl Registration for RegistrationService {
    async fn create_tournament(
        &self,
        request: Request<api::CreateTournamentRequest>,
    ) -> Result<Response<CommandResult>, Status> {
        let caller = principal(&request)?;
        let mut r = request.into_inner();
        let header = r.header.get_or_insert_with(Default::default);
        if header.tournament_id.trim().is_empty() {
            header.tournament_id = new_tournament_id();
        }
        let ctx = CommandContext::for_request(&caller, &r)?;
        let t = r
            .tournament
            .ok_or_else(|| Status::invalid_argument("tournament: missing"))?;
        let command = create_command(&t)?;
        self.run(ctx, |_| Ok(Command::CreateTournament(command.clone())))
            .await
    }

    async fn update_tournament(
        &self,
        request: Request<api::UpdateTournamentRequest>,
    ) -> Result<Response<CommandResult>, Status> {
        let (ctx, r) = CommandContext::open(request)?;
        let u = r.update.unwrap_or_default();
        let bad = |e| convert_status("update", &e);
        let command = UpdateTournament {
            name: u.name.clone(),
            place: u.place.clone(),
            start_date: u
                .start_date
                .as_ref()
                .map(|d| date_from_wire("start_date", d))
                .transpose()
                .map_err(bad)?,
            end_date: u
                .end_date
                .as_ref()
                .map(|d| date_from_wire("end_date", d))
                .transpose()
                .map_err(bad)?,
            chief_arbiter: u.chief_arbiter.as_ref().map(arbiter_from_wire),
            rounds: u.rounds,
            tie_breaks: u.replace_tie_breaks.then(|| u.tie_breaks.join(", ")),
            federation: u.federation.clone(),
            deputy_arbiters: u
                .replace_deputy_arbiters
                .then(|| u.deputy_arbiters.iter().map(arbiter_from_wire).collect()),
            time_control: u.time_control.clone(),
            rating_kind: rating_kind_from_wire(u.rating_kind).map_err(bad)?,
            prize_fund: u
                .prize_fund
                .as_ref()
                .map(prize_fund_from_wire)
                .transpose()
                .map_err(bad)?,
        };
        self.run(ctx, |_| Ok(Command::UpdateTournament(command.clone())))
            .await
    }

    async fn register_player(
        &self,
        request: Request<api::RegisterPlayerRequest>,
    ) -> Result<Response<CommandResult>, Status> {
        let (ctx, r) = CommandContext::open(request)?;
        let mut command = register_command(r.player.as_ref())?;
        command.confirm_same_name = r.confirm_same_name;
        self.register(ctx, &command).await
    }

    async fn enter_late(
        &self,
        request: Request<api::EnterLateRequest>,
    ) -> Result<Response<CommandResult>, Status> {
        let (ctx, r) = CommandContext::open(request)?;
        let mut command = register_command(r.player.as_ref())?;
        command.first_round = (r.first_round != 0).then_some(r.first_round);
        command.missed_rounds = bye_kind_from_wire(r.missed_rounds)
            .map_err(|e| convert_status("", &e))?
            .unwrap_or(ByeKind::ZeroPoint);
        command.confirm_same_name = r.confirm_same_name;
        self.register(ctx, &command).await
    }

    async fn correct_player(
        &self,
        request: Request<api::CorrectPlayerRequest>,
    ) -> Result<Response<CommandResult>, Status> {
        let (ctx, r) = CommandContext::open(request)?;
        let wire = r
            .player
            .as_ref()
            .ok_or_else(|| Status::invalid_argument("player: missing"))?;
        let corrected = player_from_wire(&arbiter_proto::recorded::as_event(wire))
            .map_err(|e| convert_status("player", &e))?;
        let who = PlayerRef::new(
            r.entry,
            r.pairing_number,
            r.numbering_version,
            ctx.expected_version,
        );
        let tid = ctx.tournament_id.clone();
        self.run(ctx, |f| {
            Ok(Command::CorrectPlayer(CorrectPlayer {
                player: players::resolve_in(&tid, f, "player", who)?,
                corrected: corrected.clone(),
                fields: r.fields.clone(),
                reason: r.reason.clone(),
            }))
        })
        .await
    }

    async fn withdraw_player(
        &self,
        request: Request<api::WithdrawPlayerRequest>,
    ) -> Result<Response<CommandResult>, Status> {
        let (ctx, r) = CommandContext::open(request)?;
        let who = PlayerRef::new(
            r.entry,
            r.pairing_number,
            r.numbering_version,
            ctx.expected_version,
        );
        let tid = ctx.tournament_id.clone();
        let grant = ctx.grant;
        self.run(ctx, |f| {
            let player = players::resolve_granted(&tid, f, "player", who, grant)?;
            let from_round = match r.from_round {
                0 => f
                    .state
                    .next_open_round()
                    .unwrap_or(f.state.total_rounds() + 1),
                n => n,
            };
            Ok(Command::WithdrawPlayer(WithdrawPlayer {
                player,
                from_round,
                reason: r.reason.clone(),
            }))
        })
        .await
    }

    async fn cancel_registration(
        &self,
        request: Request<api::CancelRegistrationRequest>,
    ) -> Result<Response<CommandResult>, Status> {
        let (ctx, r) = CommandContext::open(request)?;
        let who = PlayerRef::new(
            r.entry,
            r.pairing_number,
            r.numbering_version,
            ctx.expected_version,
        );
        let tid = ctx.tournament_id.clone();
        self.run(ctx, |f| {
            Ok(Command::CancelRegistration(CancelRegistration {
                player: players::resolve_in(&tid, f, "player", who)?,
                reason: r.reason.clone(),
            }))
        })
        .await
    }

    async fn request_bye(
        &self,
        request: Request<api::RequestByeRequest>,
    ) -> Result<Response<CommandResult>, Status> {
        let (ctx, r) = CommandContext::open(request)?;
        let kind = bye_kind_from_wire(r.kind)
            .map_err(|e| convert_status("", &e))?
            .ok_or_else(|| {
                Status::invalid_argument(
                    "kind: give BYE_KIND_HALF_POINT, _ZERO_POINT or _FULL_POINT",
                )
            })?;
        let who = PlayerRef::new(
            r.entry,
            r.pairing_number,
            r.numbering_version,
            ctx.expected_version,
        );
        let tid = ctx.tournament_id.clone();
        let grant = ctx.grant;
        self.run(ctx, |f| {
            Ok(Command::RequestBye(RequestBye {
                player: players::resolve_granted(&tid, f, "player", who, grant)?,
                round: r.round,
                kind,
            }))
        })
        .await
    }

    async fn cancel_bye(
        &self,
        request: Request<api::CancelByeRequest>,
    ) -> Result<Response<CommandResult>, Status> {
        let (ctx, r) = CommandContext::open(request)?;
        let who = PlayerRef::new(
            r.entry,
            r.pairing_number,
            r.numbering_version,
            ctx.expected_version,
        );
        let tid = ctx.tournament_id.clone();
        let grant = ctx.grant;
        self.run(ctx, |f| {
            Ok(Command::CancelBye(CancelBye {
                player: players::resolve_granted(&tid, f, "player", who, grant)?,
                round: r.round,
            }))
        })
        .await
    }

    async fn declare_absence(
        &self,
        request: Request<api::DeclareAbsenceRequest>,
    ) -> Result<Response<CommandResult>, Status> {
        let (ctx, r) = CommandContext::open(request)?;
        let who = PlayerRef::new(
            r.entry,
            r.pairing_number,
            r.numbering_version,
            ctx.expected_version,
        );
        let tid = ctx.tournament_id.clone();
        self.run(ctx, |f| {
            Ok(Command::DeclareAbsence(DeclareAbsence {
                player: players::resolve_in(&tid, f, "player", who)?,
                round: r.round,
                reason: r.reason.clone(),
            }))
        })
        .await
    }

    async fn draw_lots(
        &self,
        request: Request<api::DrawLotsRequest>,
    ) -> Result<Response<CommandResult>, Status> {
        let (ctx, r) = CommandContext::open(request)?;
        self.run(ctx, |_| {
            Ok(Command::DrawLots(DrawLots {
                varma: r.varma,
                seed: r.seed.clone(),
                numbers: r.numbers.clone(),
            }))
        })
        .await
    }

    async fn record_team(
        &self,
        request: Request<api::RecordTeamRequest>,
    ) -> Result<Response<CommandResult>, Status> {
        let (ctx, r) = CommandContext::open(request)?;
        let wire = r
            .team
            .clone()
            .ok_or_else(|| Status::invalid_argument("team: missing"))?;
        let expected = ctx.expected_version;
        let tid = ctx.tournament_id.clone();
        self.run(ctx, |f| {
            let mut members = Vec::with_capacity(wire.members.len());
            for (i, &m) in wire.members.iter().enumerate() {
                let who = PlayerRef::new(0, m, r.numbering_version, expected);
                members.push(Some(players::resolve_in(
                    &tid,
                    f,
                    &format!("team.members[{i}]"),
                    who,
                )?));
            }
            Ok(Command::RecordTeam(RecordTeam {
                team: TeamRecorded {
                    number: wire.number,
                    name: wire.name.clone(),
                    nickname: wire.nickname.clone(),
                    strength: wire.strength,
                    match_points: None,
                    game_points: None,
                    rank: None,
                    members,
                },
            }))
        })
        .await
    }

    async fn record_fair_play_consent(
        &self,
        request: Request<api::RecordFairPlayConsentRequest>,
    ) -> Result<Response<CommandResult>, Status> {
        let (ctx, r) = CommandContext::open(request)?;
        let wire = r
            .consent
            .as_ref()
            .ok_or_else(|| Status::invalid_argument("consent: missing"))?;
        let consent = consent_from_wire(&arbiter_proto::recorded::as_event(wire))
            .map_err(|e| convert_status("consent", &e))?;
        let who = PlayerRef::new(
            r.entry,
            r.pairing_number,
            r.numbering_version,
            ctx.expected_version,
        );
        let tid = ctx.tournament_id.clone();
        let grant = ctx.grant;
        self.run(ctx, |f| {
            Ok(Command::RecordFairPlayConsent(RecordFairPlayConsent {
                player: players::resolve_granted(&tid, f, "player", who, grant)?,
                regulations_version: consent.regulations_version.clone(),
                accepted_by: consent.accepted_by.clone(),
                by_guardian: consent.by_guardian,
                items: consent.items.clone(),
                platform_account: consent.platform_account.clone(),
            }))
        })
        .await
    }

    async fn list_players(
        &self,
        request: Request<api::ListPlayersRequest>,
    ) -> Result<Response<api::ListPlayersResponse>, Status> {
        let t = request.into_inner().tournament.unwrap_or_default();
        let stream = stream_of(&t.tournament_id)?;
        let f = self
            .store
            .as_of(&stream, t.as_of_version)
            .await
            .map_err(|e| e.to_status())?;
        if f.version == 0 {
            return Err(unknown_tournament(&t.tournament_id));
        }
        let players = f
            .state
            .players()
            .map(|p| {
                let mut rounds_off: Vec<u32> =
                    p.byes.keys().chain(p.absences.keys()).copied().collect();
                rounds_off.sort_unstable();
                rounds_off.dedup();
                api::RegisteredPlayer {
                    player: Some(arbiter_proto::recorded::as_payload(&player_to_wire(
                        &p.player,
                    ))),
                    pairing_number: p.player.player_id,
                    status: if p.withdrawn.is_some() {
                        api::PlayerStatus::Withdrawn
                    } else if p.consent_missing() {
                        api::PlayerStatus::ConsentMissing
                    } else {
                        api::PlayerStatus::Active
                    } as i32,
                    first_round: p.first_round,
                    rounds_off,
                    entry: p.entry.number(),
                }
            })
            .collect();
        Ok(Response::new(api::ListPlayersResponse {
            version: f.version,
            players,
            numbering_version: players::numbering_version(&f),
        }))
    }

    async fn search_rating_list(
        &self,
        request: Request<api::SearchRatingListRequest>,
    ) -> Result<Response<api::SearchRatingListResponse>, Status> {
        let caller = principal(&request)?;
        let r = request.into_inner();
        let t = r.tournament.unwrap_or_default();
        let stream = stream_of(&t.tournament_id)?;
        caller.authorize("SearchRatingList", t.tournament_id.trim())?;
        let f = self
            .store
            .current(&stream)
            .await
            .map_err(|e| e.to_status())?;
        let Some(tournament) = f.state.tournament() else {
            return Err(unknown_tournament(&t.tournament_id));
        };
        let Some(dir) = &self.directory else {
            return Err(Status::failed_precondition(
                "this server has no rating list: import one with `arbiter ratings import` and \
                 start the server again",
            ));
        };
        let limit = match r.limit {
            0 => 20,
            n => n.min(50),
        } as usize;
        let found = dir
            .search(&r.query, tournament.rating_kind, limit)
            .map_err(Status::unavailable)?;
        let players = found
            .into_iter()
            .map(|p| api::PlayerDetails {
                name: p.name,
                fide_id: p.fide_id,
                national_id: p.national_id,
                rating: p.rating,
                national_rating: p.national_rating,
                k_factor: p.k_factor,
                title: title_to_wire(p.title) as i32,
                federation: p.federation,
                birth_date: p.birth_date.map(date_to_wire),
                sex: sex_to_wire(p.sex) as i32,
                club: p.club,
            })
            .collect();
        Ok(Response::new(api::SearchRatingListResponse { players }))
    }

    async fn list_tournaments(
        &self,
        _request: Request<api::ListTournamentsRequest>,
    ) -> Result<Response<api::ListTournamentsResponse>, Status> {
        let streams = self
            .store
            .log()
            .list_streams()
            .await
            .map_err(|e| arbiter_service_kit::status::log_status(&e))?;
        let mut tournaments = Vec::new();
        for stream in streams {
            let Some(id) = tournament_of(&stream) else {
                continue;
            };
            let f = self
                .store
                .current(&stream)
                .await
                .map_err(|e| e.to_status())?;
            let Some(t) = f.state.tournament() else {
                continue;
            };
            tournaments.push(api::TournamentSummary {
                tournament_id: id.to_string(),
                name: t.name.clone(),
                start_date: Some(date_to_wire(t.start_date)),
                rounds: t.rounds,
                players: f.state.player_count(),
                version: f.version,
            });
        }
        Ok(Response::new(api::ListTournamentsResponse { tournaments }))
    }
}

/// Adds registration to `host`, over the host's store; players registered by FIDE id are
/// completed from `directory` when one is given.
pub fn register(host: &mut Host, directory: Option<Arc<dyn PlayerDirectory>>) {
    let mut service = RegistrationService::new(host.store().clone());
    if let Some(list) = directory {
        service = service.with_directory(list);
    }
    host.grpc(service.into_server());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn created() -> api::TournamentSettings {
        api::TournamentSettings {
            name: "Open".into(),
            start_date: Some(pb::Date {
                year: 2024,
                month: 5,
                day: 1,
            }),
            rounds: 7,
            tie_breaks: vec!["BH/C1".into(), "SB".into()],
            acceleration: Some(pb::Acceleration {
                method: "Baku".into(),
                first_round: 0,
                last_round: 0,
            }),
            ..Default::default()
        }
    }

    #[test]
    fn a_tournament_message_becomes_the_create_command() {
        let c = create_command(&created()).unwrap();
        assert_eq!(c.end_date, c.start_date, "no end date: the start date");
        assert_eq!(c.pairing_system, PairingSystem::Dutch);
        assert_eq!(c.rule_set, None, "the rules in force on the start date");
        assert_eq!(c.initial_color, None, "unspecified: drawn by lot");
        assert_eq!(c.tie_breaks, "BH/C1, SB");
        assert_eq!(c.scoring, PointSystem::default());
        let a = c.acceleration.unwrap();
        assert_eq!(a.rounds, None, "the method's default rounds");
    }

    #[test]
    fn bad_fields_are_named() {
        let mut t = created();
        t.start_date = None;
        let e = create_command(&t).unwrap_err();
        assert_eq!(e.code(), tonic::Code::InvalidArgument);
        assert!(e.message().contains("start_date"), "{}", e.message());
        let mut t = created();
        t.start_date = Some(pb::Date {
            year: 2024,
            month: 2,
            day: 30,
        });
        let e = create_command(&t).unwrap_err();
        assert!(
            e.message().contains("tournament.start_date"),
            "{}",
            e.message()
        );
        let mut t = created();
        t.pairing_system = 42;
        assert!(
            create_command(&t)
                .unwrap_err()
                .message()
                .contains("pairing_system")
        );
        let e = register_command(Some(&api::PlayerDetails {
            title: 99,
            ..Default::default()
        }))
        .unwrap_err();
        assert!(e.message().contains("player.title"), "{}", e.message());
        assert!(register_command(None).is_err());
    }
}
