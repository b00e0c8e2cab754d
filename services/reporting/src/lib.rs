//! Reporting: the read models of a tournament, folded from its event stream: standings (points,
//! then the tournament's C.07 tie-breaks, shared places: [`arbiter_standings`], the one computation every
//! interface uses), the pairings and results of each round, the crosstable, the
//! TRF16 export of the whole tournament, and the stored events themselves. Served over gRPC
//! (`arbiter.reporting.v1.Reporting`) and as JSON over HTTP ([`http_router`]):
//!
//! ```text
//! GET /api/tournaments                          every tournament
//! GET /api/tournaments/{id}/standings[?after_round=N]
//! GET /api/tournaments/{id}/pairings/{round}
//! GET /api/tournaments/{id}/trf                 TRF16 text
//! GET /api/tournaments/{id}/players             the players: entry and pairing numbers
//! ```
//!
//! The same port serves the tournament's HTML pages and their live updates ([`web`]).
//!
//! The projection follows the log through a [`Feed`] and keeps its snapshots in the host's
//! checkpoint store; every query also catches the tournament up with the log, so an answer
//! reflects every command acknowledged before it.

pub mod page_cache;
pub mod views;
pub mod web;

use arbiter_auth::Principal;
use arbiter_eventlog::{CheckpointStore, SubscribeFrom};
use arbiter_proto::common::v1::TrfFormat;
use arbiter_proto::events::v1 as pb;
use arbiter_proto::reporting::v1 as api;
use arbiter_proto::reporting::v1::reporting_server::{Reporting, ReportingServer};
use arbiter_service_kit::Host;
use arbiter_service_kit::redact::Redactor;
use arbiter_service_kit::status::{log_status, unknown_tournament};
use arbiter_service_kit::store::{Batch, Feed, Folded, TournamentStore, stream_of, tournament_of};
use axum::extract::{Path, Query, State as AxState};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response as HttpResponse};
use axum::routing::get;
use futures::StreamExt;
use std::collections::BTreeSet;
use std::sync::Arc;
use tokio::sync::watch;
use tonic::{Code, Request, Response, Status};
use tracing::{Instrument, debug, info_span, warn};

/// The service's name: key of its checkpoints, durable consumer name.
pub const SERVICE: &str = "reporting";

/// The folded tournament `tournament_id` as of `as_of_version` (0 = latest).
async fn folded(
    store: &TournamentStore,
    tournament_id: &str,
    as_of_version: u64,
) -> Result<Arc<Folded>, Status> {
    let stream = stream_of(tournament_id)?;
    if let Some(d) = store.damage_of(&stream) {
        return Err(Status::data_loss(format!(
            "tournament {tournament_id}: its event log is damaged ({d}); nothing is shown or \
             changed until it is restored from a copy"
        )));
    }
    let f = store
        .as_of(&stream, as_of_version)
        .await
        .map_err(|e| e.to_status())?;
    if f.version == 0 {
        return Err(unknown_tournament(tournament_id));
    }
    Ok(f)
}

/// The gRPC implementation.
#[derive(Clone)]
pub struct ReportingService {
    store: Arc<TournamentStore>,
}

impl ReportingService {
    pub fn new(store: Arc<TournamentStore>) -> ReportingService {
        ReportingService { store }
    }

    pub fn into_server(self) -> ReportingServer<ReportingService> {
        ReportingServer::new(self)
    }
}

#[tonic::async_trait]
impl Reporting for ReportingService {
    async fn get_standings(
        &self,
        request: Request<api::GetStandingsRequest>,
    ) -> Result<Response<api::Standings>, Status> {
        let r = request.into_inner();
        let t = r.tournament.unwrap_or_default();
        let f = folded(&self.store, &t.tournament_id, t.as_of_version).await?;
        let after = (r.after_round > 0).then_some(r.after_round);
        Ok(Response::new(standings_of(f, after).await?))
    }

    async fn get_pairings(
        &self,
        request: Request<api::GetPairingsRequest>,
    ) -> Result<Response<api::RoundPairings>, Status> {
        let r = request.into_inner();
        let t = r.tournament.unwrap_or_default();
        let f = folded(&self.store, &t.tournament_id, t.as_of_version).await?;
        let pairings = pairings_of(&f, r.round).ok_or_else(|| {
            Status::not_found(format!(
                "tournament {}: round {} has no pairing yet",
                t.tournament_id, r.round
            ))
        })?;
        Ok(Response::new(pairings))
    }

    async fn get_crosstable(
        &self,
        request: Request<api::GetCrosstableRequest>,
    ) -> Result<Response<api::Crosstable>, Status> {
        let t = request.into_inner().tournament.unwrap_or_default();
        let f = folded(&self.store, &t.tournament_id, t.as_of_version).await?;
        let entries = entry_numbers(&f.state);
        let rows = views::crosstable(&f.state)
            .into_iter()
            .map(|row| api::CrosstableRow {
                entry: entries.get(&row.player_id).copied().unwrap_or(0),
                pairing_number: row.player_id,
                name: row.name,
                score: Some(arbiter_proto::common::v1::Decimal::tenths(row.points)),
                rank: row.rank,
                rank_to: row.rank_to,
                place: if row.rank == 0 {
                    String::new()
                } else {
                    arbiter_pages::place_label(row.rank, row.rank_to)
                },
                cells: row
                    .cells
                    .iter()
                    .enumerate()
                    .map(|(i, (opponent, color, code))| api::CrosstableCell {
                        round: i as u32 + 1,
                        opponent: *opponent,
                        color: color.map_or(pb::Color::Unspecified, pb::Color::from) as i32,
                        result: arbiter_core::ResultCode::from_trf(*code)
                            .filter(|_| *code != ' ')
                            .map(|c| pb::ResultCode::from(c) as i32)
                            .unwrap_or(0),
                    })
                    .collect(),
            })
            .collect();
        Ok(Response::new(api::Crosstable {
            version: f.version,
            rows,
        }))
    }

    async fn export_trf(
        &self,
        request: Request<api::ExportTrfRequest>,
    ) -> Result<Response<api::ExportTrfResponse>, Status> {
        let r = request.into_inner();
        let dialect = match TrfFormat::try_from(r.format) {
            Ok(TrfFormat::Unspecified | TrfFormat::Trf16 | TrfFormat::Trfx) => {
                arbiter_interchange::trf_export::Dialect::Trfx
            }
            Ok(TrfFormat::Trfbx) => arbiter_interchange::trf_export::Dialect::Trfbx,
            Ok(TrfFormat::Trf2026) => arbiter_interchange::trf_export::Dialect::Trf2026,
            Err(_) => {
                return Err(Status::invalid_argument(format!(
                    "format: value {} is unknown",
                    r.format
                )));
            }
        };
        let t = r.tournament.unwrap_or_default();
        let f = folded(&self.store, &t.tournament_id, t.as_of_version).await?;
        let text = arbiter_interchange::trf_export::trf_export(&f.state, dialect).map_err(|e| {
            Status::internal(format!("tournament {}: TRF export: {e}", t.tournament_id))
        })?;
        Ok(Response::new(api::ExportTrfResponse {
            version: f.version,
            trf: text.into_bytes(),
            file_name: format!("{}.trf", t.tournament_id),
        }))
    }

    type FollowTournamentStream =
        futures::stream::BoxStream<'static, Result<api::TournamentView, Status>>;

    async fn follow_tournament(
        &self,
        request: Request<api::FollowTournamentRequest>,
    ) -> Result<Response<Self::FollowTournamentStream>, Status> {
        let tid = request
            .into_inner()
            .tournament
            .unwrap_or_default()
            .tournament_id;
        let f = folded(&self.store, &tid, 0).await?;
        let stream = stream_of(&tid)?;
        let events = self
            .store
            .log()
            .subscribe(SubscribeFrom::Stream {
                stream: stream.clone(),
                from_version: f.version + 1,
            })
            .await
            .map_err(|e| log_status(&e))?;
        let first = tournament_view(f).await?;
        let store = self.store.clone();
        // The events that arrived together give one view (a result recorded with its
        // corrections, a publication with its signed head): a reader wants the state they
        // leave, not each step. A signed head alone changes nothing a reader sees.
        let updates = events
            .ready_chunks(256)
            .filter_map(|batch| {
                let failed = batch.iter().find_map(|e| e.as_ref().err().map(log_status));
                let seen = batch.iter().any(
                    |e| matches!(e, Ok(stored) if !arbiter_interchange::heads::is_head(stored)),
                );
                std::future::ready(match failed {
                    Some(status) => Some(Err(status)),
                    None => seen.then_some(Ok(())),
                })
            })
            .then(move |batch| {
                let store = store.clone();
                let tid = tid.clone();
                async move {
                    batch?;
                    tournament_view(folded(&store, &tid, 0).await?).await
                }
            });
        // A failure after the first view ends the stream with its status in the trailers,
        // where the host's edge does not add details: they are added here.
        let out = futures::stream::once(async move { Ok(first) })
            .chain(updates)
            .map(|r| r.map_err(arbiter_service_kit::status::with_details));
        Ok(Response::new(Box::pin(out)))
    }

    type StreamEventsStream = futures::stream::BoxStream<'static, Result<pb::Envelope, Status>>;

    async fn stream_events(
        &self,
        request: Request<api::StreamEventsRequest>,
    ) -> Result<Response<Self::StreamEventsStream>, Status> {
        // What each event shows depends on the caller's token (arbiter_service_kit::redact).
        let reader =
            arbiter_auth::layer::principal(&request).unwrap_or_else(|_| Principal::public());
        let r = request.into_inner();
        let tournament_id = r.tournament.map(|t| t.tournament_id).unwrap_or_default();
        let stream = stream_of(&tournament_id)?;
        let log = self.store.log().clone();
        let from = r.from_version.max(1);
        let raw = r.raw_payload;
        let mut redactor = Redactor::new(reader, &tournament_id);
        // A player's "own" is judged on the numbering of each event's moment: his redactor
        // folds the stream from its start.
        let history = if redactor.needs_history() && from > 1 {
            log.read(&stream, 1).await.map_err(|e| log_status(&e))?
        } else {
            Vec::new()
        };
        for e in history.iter().take_while(|e| e.version < from) {
            redactor.skip(e);
        }
        let out: Self::StreamEventsStream = if r.follow {
            log.subscribe(SubscribeFrom::Stream {
                stream,
                from_version: from,
            })
            .await
            .map_err(|e| log_status(&e))?
            .map(move |e| {
                e.map_err(|e| log_status(&e))
                    .and_then(|e| redactor.envelope(&e, raw).map_err(|e| log_status(&e)))
            })
            .boxed()
        } else {
            let events = log.read(&stream, from).await.map_err(|e| log_status(&e))?;
            if events.is_empty() && log.last_version(&stream).await.unwrap_or(0) == 0 {
                return Err(unknown_tournament(&tournament_id));
            }
            futures::stream::iter(
                events
                    .into_iter()
                    .map(move |e| redactor.envelope(&e, raw).map_err(|e| log_status(&e))),
            )
            .boxed()
        };
        Ok(Response::new(out))
    }
}

/// Every player's entry number (stable id) by current pairing number.
fn entry_numbers(state: &arbiter_core::tournament::State) -> std::collections::BTreeMap<u32, u32> {
    state
        .players()
        .map(|p| (p.pairing_number(), p.entry.number()))
        .collect()
}

/// The standings as `GetStandings` answers them, after round `after` (`None`: the last round
/// whose results are all in).
async fn standings_of(f: Arc<Folded>, after: Option<u32>) -> Result<api::Standings, Status> {
    let version = f.version;
    let (rk, entries, teams) = tokio::task::spawn_blocking(move || {
        let rk = arbiter_standings::ranking(&f.state, after, None)?;
        let teams = arbiter_standings::team_ranking(&f.state, after)?;
        Ok::<_, web::PageError>((rk, entry_numbers(&f.state), teams))
    })
    .await
    .map_err(|e| Status::internal(format!("standings task: {e}")))?
    .map_err(|e| e.to_status())?;
    let mut out = standings_to_wire(version, &rk, &entries);
    if let Some((codes, lines)) = teams {
        use arbiter_proto::common::v1::Decimal;
        out.team_tie_break_list = codes;
        out.team_rows = lines
            .into_iter()
            .map(|l| api::TeamStandingRow {
                rank: l.rank,
                rank_to: l.rank_to,
                team: l.team,
                name: l.name,
                match_score: Some(Decimal::tenths(l.match_points)),
                game_score: Some(Decimal::tenths(l.game_points)),
                tie_breaks: l
                    .tie_breaks
                    .into_iter()
                    .map(|(code, v)| api::TieBreakValue {
                        code,
                        value: v.map(|units| Decimal { units, scale: 1 }),
                    })
                    .collect(),
            })
            .collect();
    }
    Ok(out)
}

/// Round `round`'s pairings as `GetPairings` answers them (the proposal while it is one);
/// `None` before it has a pairing.
fn pairings_of(f: &Folded, round: u32) -> Option<api::RoundPairings> {
    let view = views::round_view(&f.state, round)?;
    let team = f
        .state
        .team_pairing(round)
        .or_else(|| f.state.team_proposal(round))
        .unwrap_or_default();
    let named = |pn: u32| {
        f.state
            .player(pn)
            .map(|p| (p.player.name.clone(), p.entry.number()))
            .unwrap_or_default()
    };
    let boards = view
        .boards
        .iter()
        .map(|b| {
            let mut wire = b.to_wire();
            (wire.white_name, wire.white_entry) = named(b.white);
            (wire.black_name, wire.black_entry) = named(b.black);
            wire
        })
        .collect();
    Some(api::RoundPairings {
        version: f.version,
        round: view.round,
        published: view.published,
        boards,
        unpaired_names: view.unpaired.iter().map(|u| named(u.player_id).0).collect(),
        unpaired: view
            .unpaired
            .iter()
            .map(|u| pb::Unpaired {
                player_id: u.player_id,
                code: arbiter_core::ResultCode::from_trf(u.code)
                    .map(|c| pb::ResultCode::from(c) as i32)
                    .unwrap_or(0),
            })
            .collect(),
        team_matches: arbiter_proto::convert::team_matches_to_wire(&team.matches),
        team_bye: team.bye.unwrap_or(0),
    })
}

/// What `FollowTournament` sends: the latest round with a pairing, and the standings.
async fn tournament_view(f: Arc<Folded>) -> Result<api::TournamentView, Status> {
    let latest = (1..=f.state.current_round().unwrap_or(0))
        .rev()
        .find_map(|r| pairings_of(&f, r).map(|p| (r, p)));
    let version = f.version;
    let standings = standings_of(f, None).await?;
    Ok(api::TournamentView {
        version,
        round: latest.as_ref().map_or(0, |(r, _)| *r),
        pairings: latest.map(|(_, p)| p),
        standings: Some(standings),
    })
}

/// The standings as `GetStandings` answers them.
pub fn standings_to_wire(
    version: u64,
    rk: &arbiter_standings::Ranking,
    entries: &std::collections::BTreeMap<u32, u32>,
) -> api::Standings {
    use arbiter_proto::common::v1::Decimal;
    api::Standings {
        version,
        after_round: rk.after_round,
        rows: rk
            .lines()
            .into_iter()
            .map(|l| api::StandingRow {
                entry: entries.get(&l.player_id).copied().unwrap_or(0),
                rank: l.rank,
                pairing_number: l.player_id,
                name: l.name,
                rating: l.rating,
                federation: l.federation,
                score: Some(Decimal::tenths(l.points)),
                tie_breaks: l
                    .tie_breaks
                    .into_iter()
                    .map(|v| api::TieBreakValue {
                        code: v.code,
                        value: v.units.map(|units| Decimal {
                            units,
                            scale: v.scale,
                        }),
                    })
                    .collect(),
                rank_to: l.rank_to,
                place: l.place,
            })
            .collect(),
        tie_break_list: rk.codes(),
        tie_break_source: match rk.source {
            arbiter_standings::ListSource::Tournament => api::TieBreakSource::Tournament,
            arbiter_standings::ListSource::Recommended => api::TieBreakSource::Recommended,
            arbiter_standings::ListSource::Request => api::TieBreakSource::Unspecified,
        } as i32,
        rule_version: rk.rule_version().to_string(),
        notes: rk.notes(),
        team_rows: Vec::new(),
        team_tie_break_list: Vec::new(),
    }
}

/// The standings as the JSON API sends them (`/api/tournaments/{id}/standings`).
pub fn standings_json(
    id: &str,
    version: u64,
    rk: &arbiter_standings::Ranking,
) -> serde_json::Value {
    serde_json::json!({
        "tournament_id": id,
        "version": version,
        "after_round": rk.after_round,
        "tie_breaks": rk.codes(),
        "tie_breaks_from": rk.source.as_str(),
        "rule_version": rk.rule_version(),
        "notes": rk.notes(),
        "rows": rk.lines(),
    })
}

// --- HTTP ----------------------------------------------------------------------------------

fn http_error(s: Status) -> HttpResponse {
    let code = match s.code() {
        Code::NotFound => StatusCode::NOT_FOUND,
        Code::InvalidArgument => StatusCode::BAD_REQUEST,
        Code::FailedPrecondition => StatusCode::CONFLICT,
        Code::DataLoss | Code::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        _ => StatusCode::SERVICE_UNAVAILABLE,
    };
    (
        code,
        axum::Json(serde_json::json!({ "error": s.message() })),
    )
        .into_response()
}

#[derive(serde::Deserialize)]
struct StandingsQuery {
    #[serde(default)]
    after_round: u32,
}

async fn http_list(AxState(store): AxState<Arc<TournamentStore>>) -> HttpResponse {
    let streams = match store.log().list_streams().await {
        Ok(s) => s,
        Err(e) => return http_error(log_status(&e)),
    };
    let mut out = Vec::new();
    for s in streams {
        let Some(id) = tournament_of(&s) else {
            continue;
        };
        if let Ok(f) = store.current(&s).await
            && let Some(t) = f.state.tournament()
        {
            let date = |d: arbiter_core::tournament::Date| {
                format!("{:04}-{:02}-{:02}", d.year(), d.month(), d.day())
            };
            // What the index page shows, for scripts.
            out.push(serde_json::json!({
                "tournament_id": id,
                "name": t.name,
                "place": t.place,
                "start_date": date(t.start_date),
                "end_date": date(t.end_date),
                "rounds": t.rounds,
                "players": f.state.player_count(),
                "status": web::status_text(&f.state),
                "version": f.version,
            }));
        }
    }
    axum::Json(out).into_response()
}

async fn http_standings(
    AxState(store): AxState<Arc<TournamentStore>>,
    Path(id): Path<String>,
    Query(q): Query<StandingsQuery>,
) -> HttpResponse {
    let f = match folded(&store, &id, 0).await {
        Ok(f) => f,
        Err(s) => return http_error(s),
    };
    let after = (q.after_round > 0).then_some(q.after_round);
    let version = f.version;
    let rows = move || {
        arbiter_standings::ranking(&f.state, after, None).map(|rk| {
            let mut v = standings_json(&id, version, &rk);
            // Each row's stable entry number beside its pairing number (`player_id`).
            if let Some(rows) = v.get_mut("rows").and_then(|r| r.as_array_mut()) {
                for row in rows.iter_mut().filter_map(|r| r.as_object_mut()) {
                    let entry = row
                        .get("player_id")
                        .and_then(|n| n.as_u64())
                        .and_then(|n| f.state.player(n as u32))
                        .map(|p| p.entry.number());
                    row.insert("entry".into(), serde_json::json!(entry));
                }
            }
            v
        })
    };
    match tokio::task::spawn_blocking(rows).await {
        Ok(Ok(v)) => axum::Json(v).into_response(),
        Ok(Err(e)) => http_error(web::PageError::from(e).to_status()),
        Err(e) => http_error(Status::internal(format!("standings task: {e}"))),
    }
}

async fn http_pairings(
    AxState(store): AxState<Arc<TournamentStore>>,
    Path((id, round)): Path<(String, u32)>,
) -> HttpResponse {
    match folded(&store, &id, 0).await {
        Ok(f) => match views::round_view(&f.state, round) {
            Some(v) => axum::Json(serde_json::json!({
                "tournament_id": id,
                "version": f.version,
                "pairings": v,
            }))
            .into_response(),
            None => http_error(Status::not_found(format!(
                "tournament {id}: round {round} has no pairing yet"
            ))),
        },
        Err(s) => http_error(s),
    }
}

async fn http_players(
    AxState(store): AxState<Arc<TournamentStore>>,
    Path(id): Path<String>,
) -> HttpResponse {
    match folded(&store, &id, 0).await {
        Ok(f) => axum::Json(arbiter_service_kit::players::players_json(&id, &f)).into_response(),
        Err(s) => http_error(s),
    }
}

async fn http_trf(
    AxState(store): AxState<Arc<TournamentStore>>,
    Path(id): Path<String>,
) -> HttpResponse {
    match folded(&store, &id, 0).await {
        // The same file as ExportTrf's default dialect.
        Ok(f) => match arbiter_interchange::trf_export::trf_export(
            &f.state,
            arbiter_interchange::trf_export::Dialect::Trfx,
        ) {
            Ok(text) => (
                [(
                    axum::http::header::CONTENT_TYPE,
                    "text/plain; charset=utf-8",
                )],
                text,
            )
                .into_response(),
            Err(e) => http_error(Status::internal(format!("tournament {id}: {e}"))),
        },
        Err(s) => http_error(s),
    }
}

/// `/healthz`: "ok", or "degraded" with each tournament whose event log was found damaged
/// (still 200: the server serves every other tournament, and restarting it repairs nothing).
async fn healthz(AxState(store): AxState<Arc<TournamentStore>>) -> String {
    let damaged = store.damaged();
    if damaged.is_empty() {
        return "ok".to_string();
    }
    let mut out = format!(
        "degraded: the event log of {} tournament(s) is damaged; changes to them are refused \
         until it is restored from a copy\n",
        damaged.len()
    );
    for (stream, what) in damaged {
        let id = tournament_of(&stream).unwrap_or(&stream);
        out.push_str(&format!("tournament {id}: {what}\n"));
    }
    out
}

/// The JSON-over-HTTP API (see the crate documentation).
pub fn http_router(store: Arc<TournamentStore>) -> axum::Router {
    http_router_until(store, None)
}

/// [`http_router`] whose event streams end when `shutdown` turns true, so that a graceful
/// shutdown of the server does not wait for open pages (see [`web::router`]).
pub fn http_router_until(
    store: Arc<TournamentStore>,
    shutdown: Option<watch::Receiver<bool>>,
) -> axum::Router {
    http_router_within(
        store,
        shutdown,
        &arbiter_service_kit::http::HttpLimits::default(),
    )
}

/// [`http_router_until`] whose documents are built within `limits` (render slots, the page
/// cache: [`page_cache`]).
pub fn http_router_within(
    store: Arc<TournamentStore>,
    shutdown: Option<watch::Receiver<bool>>,
    limits: &arbiter_service_kit::http::HttpLimits,
) -> axum::Router {
    let router = axum::Router::new()
        .route("/healthz", get(healthz))
        .route("/api/tournaments", get(http_list))
        .route("/api/tournaments/{id}/standings", get(http_standings))
        .route("/api/tournaments/{id}/pairings/{round}", get(http_pairings))
        .route("/api/tournaments/{id}/trf", get(http_trf))
        .route("/api/tournaments/{id}/players", get(http_players))
        .with_state(store.clone())
        .merge(web::router(store.clone(), shutdown));
    page_cache::layer(router, store, limits).0
}

// --- following the log ---------------------------------------------------------------------

/// Keeps the projection of every tournament current (and its snapshots written) as events
/// arrive, until `shutdown` turns true.
pub async fn follow(
    store: Arc<TournamentStore>,
    feed: Feed,
    checkpoints: Option<CheckpointStore>,
    shutdown: watch::Receiver<bool>,
) -> Result<(), arbiter_eventlog::LogError> {
    feed.follow(
        SERVICE,
        checkpoints,
        move |batch: Batch| {
            let store = store.clone();
            async move {
                let streams: BTreeSet<&str> = batch
                    .events
                    .iter()
                    .map(|e| e.stream.as_str())
                    .filter(|s| tournament_of(s).is_some())
                    .collect();
                for stream in streams {
                    let span = info_span!("project", stream, position = batch.position);
                    async {
                        match store.absorb(stream, &batch.events).await {
                            Ok(f) => {
                                debug!(version = f.version, "projection caught up");
                                Ok(())
                            }
                            Err(e) => {
                                warn!(error = %e, "projection failed");
                                Err(e.to_string())
                            }
                        }
                    }
                    .instrument(span)
                    .await?;
                }
                Ok(())
            }
        },
        shutdown,
    )
    .await
}

/// Adds reporting to `host`: the projection following the host's feed, the gRPC API and the
/// HTTP router (JSON API and pages; open event streams end when shutdown starts instead of
/// holding it up).
pub fn register(host: &mut Host) {
    let store = host.store().clone();
    host.follower(
        SERVICE,
        follow(
            store.clone(),
            host.feed().clone(),
            host.checkpoints().cloned(),
            host.stopping(),
        ),
    );
    let limits = host.http_limits().clone();
    host.http(http_router_within(
        store.clone(),
        Some(host.stopping()),
        &limits,
    ));
    host.grpc(ReportingService::new(store).into_server());
}
