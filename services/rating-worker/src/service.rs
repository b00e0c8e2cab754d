//! The gRPC implementation: the figures of [`crate::compute`] for any version of a stream.

use crate::compute::{event_ratings, norm_results};
use arbiter_proto::common::v1::TournamentRef;
use arbiter_proto::convert::rating_kind_to_wire;
use arbiter_proto::rating_worker::v1 as api;
use arbiter_proto::rating_worker::v1::rating_worker_server::{RatingWorker, RatingWorkerServer};
use arbiter_service_kit::status::unknown_tournament;
use arbiter_service_kit::store::{Folded, TournamentStore, stream_of};
use std::sync::Arc;
use tonic::{Request, Response, Status};
use tracing::{Instrument, info_span};

/// Answers `arbiter.rating_worker.v1.RatingWorker` (queries that append nothing).
#[derive(Clone)]
pub struct RatingWorkerService {
    store: Arc<TournamentStore>,
}

impl RatingWorkerService {
    pub fn new(store: Arc<TournamentStore>) -> RatingWorkerService {
        RatingWorkerService { store }
    }

    pub fn into_server(self) -> RatingWorkerServer<RatingWorkerService> {
        RatingWorkerServer::new(self)
    }

    async fn folded(&self, t: Option<TournamentRef>) -> Result<(String, Arc<Folded>), Status> {
        let t = t.unwrap_or_default();
        let stream = stream_of(&t.tournament_id)?;
        let f = self
            .store
            .as_of(&stream, t.as_of_version)
            .await
            .map_err(|e| e.to_status())?;
        if f.version == 0 || !f.state.is_created() {
            return Err(unknown_tournament(&t.tournament_id));
        }
        Ok((t.tournament_id.trim().to_string(), f))
    }
}

#[allow(clippy::result_large_err)]
fn known_player(tid: &str, f: &Folded, player_id: u32) -> Result<(), Status> {
    if f.state.player(player_id).is_none() {
        return Err(Status::not_found(format!(
            "tournament {tid}: no player with pairing number {player_id} (the tournament has {})",
            f.state.player_count()
        )));
    }
    Ok(())
}

#[tonic::async_trait]
impl RatingWorker for RatingWorkerService {
    async fn get_player_rating(
        &self,
        request: Request<api::GetPlayerRatingRequest>,
    ) -> Result<Response<api::PlayerRating>, Status> {
        let r = request.into_inner();
        if r.pairing_number == 0 {
            return Err(Status::invalid_argument(
                "player_id: must be a pairing number (1 or more)",
            ));
        }
        let span = info_span!("get_player_rating", player = r.pairing_number);
        async {
            let (tid, f) = self.folded(r.tournament).await?;
            known_player(&tid, &f, r.pairing_number)?;
            let ratings = event_ratings(&f.state).ok_or_else(|| unknown_tournament(&tid))?;
            let p = ratings.player(r.pairing_number).ok_or_else(|| {
                Status::not_found(format!("tournament {tid}: no player {}", r.pairing_number))
            })?;
            Ok(Response::new(api::PlayerRating {
                version: f.version,
                total: Some(p.to_wire()),
                games: p.games_to_wire(),
            }))
        }
        .instrument(span)
        .await
    }

    async fn get_event_ratings(
        &self,
        request: Request<api::GetEventRatingsRequest>,
    ) -> Result<Response<api::EventRatings>, Status> {
        let r = request.into_inner();
        async {
            let (tid, f) = self.folded(r.tournament).await?;
            let ratings = event_ratings(&f.state).ok_or_else(|| unknown_tournament(&tid))?;
            Ok(Response::new(api::EventRatings {
                version: f.version,
                through_round: ratings.through_round,
                rating_kind: rating_kind_to_wire(ratings.setup.rating_kind) as i32,
                changes: ratings.players.iter().map(|p| p.to_wire()).collect(),
            }))
        }
        .instrument(info_span!("get_event_ratings"))
        .await
    }

    async fn get_norms(
        &self,
        request: Request<api::GetNormsRequest>,
    ) -> Result<Response<api::Norms>, Status> {
        let r = request.into_inner();
        let span = info_span!("get_norms", player = r.pairing_number);
        async {
            let (tid, f) = self.folded(r.tournament).await?;
            let only = (r.pairing_number != 0).then_some(r.pairing_number);
            if let Some(pn) = only {
                known_player(&tid, &f, pn)?;
            }
            let version = f.version;
            let norms = tokio::task::spawn_blocking(move || norm_results(&f.state, only))
                .await
                .map_err(|e| Status::internal(format!("the norm check stopped: {e}")))?;
            Ok(Response::new(api::Norms { version, norms }))
        }
        .instrument(span)
        .await
    }
}
