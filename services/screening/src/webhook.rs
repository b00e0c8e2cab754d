//! The platforms' webhook (docs/src/guide/online-hybrid.md): an online platform posts each game played
//! on it as it ends, over HTTP, as it could over gRPC (`Screening/SubmitGame`):
//!
//! ```text
//! POST /api/platform/v1/tournaments/{tournament}/rounds/{round}/boards/{board}/game
//! Authorization: Bearer TOKEN          (a platform token for the tournament, or an arbiter's)
//! Idempotency-Key: KEY                 (optional: the command id; the same key answers once)
//! Content-Type: application/x-chess-pgn
//!
//! [White "..."] ... 1. e4 ... 1-0
//! ```
//!
//! or a round's games in one file, as `Screening/SubmitGames` takes them (each game to the
//! board of its White and Black, all or nothing; the answer adds `games`, each with its place
//! in the file and its board):
//!
//! ```text
//! POST /api/platform/v1/tournaments/{tournament}/rounds/{round}/games
//! ```
//!
//! It is the gRPC call itself, not a second ingestion path: the request is authenticated by
//! the gRPC layer's own authentication, then handed to the service's `SubmitGame` with the
//! caller, so the same edge checks, the aggregate's rules, the Laws' verdict on the result and
//! the same events follow. The answer is JSON: `{"tournament", "first_version",
//! "last_version", "event_ids", "replayed"}` (the events appended: the game, and a discrepancy
//! when the Laws contradict the platform's result), or
//! `{"code", "message"}` with the HTTP status of the gRPC code.

use crate::ScreeningService;
use arbiter_auth::layer::AuthLayer;
use arbiter_proto::common::v1::CommandHeader;
use arbiter_proto::screening::v1 as api;
use arbiter_proto::screening::v1::screening_server::Screening;
use arbiter_service_kit::edge::{MAX_GAME_PGN_BYTES, MAX_ROUND_PGN_BYTES};
use axum::Json;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use tonic::{Code, Status};

/// The gRPC method the webhook is (its authorization and audit name).
const METHOD: &str = "/arbiter.screening.v1.Screening/SubmitGame";
/// The same for a round's file of games.
const ROUND_METHOD: &str = "/arbiter.screening.v1.Screening/SubmitGames";

#[derive(Clone)]
struct Webhook {
    service: ScreeningService,
    auth: AuthLayer,
}

/// The webhook's route, for the host's HTTP port.
pub fn router(service: ScreeningService, auth: AuthLayer) -> axum::Router {
    axum::Router::new()
        .route(
            "/api/platform/v1/tournaments/{tournament}/rounds/{round}/boards/{board}/game",
            post(post_game),
        )
        // A body above the one-game limit (plus room for the edge check to name it) is cut off
        // by the transport.
        .layer(DefaultBodyLimit::max(MAX_GAME_PGN_BYTES + 64 * 1024))
        .merge(
            axum::Router::new()
                .route(
                    "/api/platform/v1/tournaments/{tournament}/rounds/{round}/games",
                    post(post_round),
                )
                .layer(DefaultBodyLimit::max(MAX_ROUND_PGN_BYTES + 64 * 1024)),
        )
        .with_state(Webhook { service, auth })
}

/// The command id of a webhook call: its `Idempotency-Key` header, if any.
fn idempotency_key(headers: &HeaderMap) -> String {
    headers
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string()
}

/// A round's games in one PGN file, as `SubmitGames` takes them: each game to the board of its
/// White and Black, all or nothing. The answer lists each game with its board.
async fn post_round(
    State(w): State<Webhook>,
    Path((tournament, round)): Path<(String, u32)>,
    headers: HeaderMap,
    body: String,
) -> Response {
    let principal = match w.auth.authenticate(ROUND_METHOD, &headers) {
        Ok(p) => p,
        Err(s) => return refusal(&s),
    };
    let mut request = tonic::Request::new(api::SubmitGamesRequest {
        header: Some(CommandHeader {
            tournament_id: tournament.clone(),
            command_id: idempotency_key(&headers),
            expected_version: None,
            actor: String::new(),
        }),
        round,
        pgn: body,
    });
    request.extensions_mut().insert(principal);
    match w.service.submit_games(request).await {
        Ok(r) => {
            let r = r.into_inner();
            let result = r.result.unwrap_or_default();
            let games: Vec<serde_json::Value> = r
                .games
                .iter()
                .map(|g| {
                    serde_json::json!({
                        "index": g.index, "board": g.board, "white": g.white, "black": g.black,
                    })
                })
                .collect();
            Json(serde_json::json!({
                "tournament": result.tournament_id,
                "first_version": result.first_version,
                "last_version": result.last_version,
                "replayed": result.replayed,
                "games": games,
            }))
            .into_response()
        }
        Err(s) => refusal(&s),
    }
}

fn http_status(code: Code) -> StatusCode {
    match code {
        Code::Ok => StatusCode::OK,
        Code::InvalidArgument | Code::OutOfRange => StatusCode::UNPROCESSABLE_ENTITY,
        Code::Unauthenticated => StatusCode::UNAUTHORIZED,
        Code::PermissionDenied => StatusCode::FORBIDDEN,
        Code::NotFound => StatusCode::NOT_FOUND,
        Code::AlreadyExists | Code::Aborted | Code::FailedPrecondition => StatusCode::CONFLICT,
        Code::ResourceExhausted => StatusCode::TOO_MANY_REQUESTS,
        Code::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        Code::DeadlineExceeded => StatusCode::GATEWAY_TIMEOUT,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

fn refusal(s: &Status) -> Response {
    let code = format!("{:?}", s.code());
    (
        http_status(s.code()),
        Json(serde_json::json!({ "code": code, "message": s.message() })),
    )
        .into_response()
}

async fn post_game(
    State(w): State<Webhook>,
    Path((tournament, round, board)): Path<(String, u32, u32)>,
    headers: HeaderMap,
    body: String,
) -> Response {
    let principal = match w.auth.authenticate(METHOD, &headers) {
        Ok(p) => p,
        Err(s) => return refusal(&s),
    };
    let command_id = idempotency_key(&headers);
    let mut request = tonic::Request::new(api::SubmitGameRequest {
        header: Some(CommandHeader {
            tournament_id: tournament.clone(),
            command_id,
            expected_version: None,
            actor: String::new(),
        }),
        round,
        board,
        pgn: body,
    });
    request.extensions_mut().insert(principal);
    match w.service.submit_game(request).await {
        Ok(r) => {
            let r = r.into_inner();
            Json(serde_json::json!({
                "tournament": r.tournament_id,
                "first_version": r.first_version,
                "last_version": r.last_version,
                "event_ids": r.event_ids,
                "replayed": r.replayed,
            }))
            .into_response()
        }
        Err(s) => refusal(&s),
    }
}
