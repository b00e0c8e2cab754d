//! The HTTP port under the gRPC rule: every HTTP route is named here with the gRPC method
//! whose data it shows (or whose command it is), and a request is authenticated as a call of
//! that method by [`AuthLayer::authenticate`]. So `serve --private-reads`, the tokens, the
//! public reads and their refusals are one rule for both ports.
//!
//! A route missing from [`HTTP_ROUTES`] is treated as a method that is not a public read: it
//! needs a token, as a new gRPC method does until [`crate::layer::PUBLIC_READS`] lists it.

use crate::Principal;
use crate::layer::AuthLayer;
use tonic::Status;

const LIST_TOURNAMENTS: &str = "/arbiter.registration.v1.Registration/ListTournaments";
const LIST_PLAYERS: &str = "/arbiter.registration.v1.Registration/ListPlayers";
const GET_SCHEDULE: &str = "/arbiter.round_director.v1.RoundDirector/GetSchedule";
const GET_STANDINGS: &str = "/arbiter.reporting.v1.Reporting/GetStandings";
const GET_PAIRINGS: &str = "/arbiter.reporting.v1.Reporting/GetPairings";
const GET_CROSSTABLE: &str = "/arbiter.reporting.v1.Reporting/GetCrosstable";
const EXPORT_TRF: &str = "/arbiter.reporting.v1.Reporting/ExportTrf";
const STREAM_EVENTS: &str = "/arbiter.reporting.v1.Reporting/StreamEvents";
const GET_EVENT_RATINGS: &str = "/arbiter.rating_worker.v1.RatingWorker/GetEventRatings";
const SUBMIT_GAME: &str = "/arbiter.screening.v1.Screening/SubmitGame";
const SUBMIT_GAMES: &str = "/arbiter.screening.v1.Screening/SubmitGames";

/// Every route of the HTTP port (axum's path syntax) and the gRPC method it stands for;
/// `None`: open to anyone, like gRPC health (a load balancer's probe carries no token).
pub const HTTP_ROUTES: &[(&str, Option<&str>)] = &[
    ("/healthz", None),
    ("/", Some(LIST_TOURNAMENTS)),
    ("/t/{id}", Some(GET_STANDINGS)),
    ("/t/{id}/standings", Some(GET_STANDINGS)),
    ("/t/{id}/crosstable", Some(GET_CROSSTABLE)),
    ("/t/{id}/schedule", Some(GET_SCHEDULE)),
    ("/t/{id}/pairings", Some(GET_PAIRINGS)),
    ("/t/{id}/pairings/{round}", Some(GET_PAIRINGS)),
    ("/t/{id}/players/{pn}", Some(GET_EVENT_RATINGS)),
    // The feed's data is the stream's (its kinds and versions).
    ("/t/{id}/events", Some(STREAM_EVENTS)),
    ("/api/tournaments", Some(LIST_TOURNAMENTS)),
    ("/api/tournaments/{id}/standings", Some(GET_STANDINGS)),
    ("/api/tournaments/{id}/ranking", Some(GET_STANDINGS)),
    ("/api/tournaments/{id}/crosstable", Some(GET_CROSSTABLE)),
    ("/api/tournaments/{id}/pairings/{round}", Some(GET_PAIRINGS)),
    ("/api/tournaments/{id}/players", Some(LIST_PLAYERS)),
    (
        "/api/tournaments/{id}/players/{pn}",
        Some(GET_EVENT_RATINGS),
    ),
    ("/api/tournaments/{id}/trf", Some(EXPORT_TRF)),
    // The signed heads are events of the stream (what `replay --server` reads over gRPC).
    ("/api/tournaments/{id}/heads", Some(STREAM_EVENTS)),
    // The console: its screens check the session its cookie names, and every action (and
    // read) it takes is a gRPC call with that session's token, authorized by the gRPC rule.
    // Its sign-in takes a one-time link, not a token.
    ("/console", None),
    ("/console/", None),
    ("/console/assets/console.css", None),
    ("/console/assets/console.js", None),
    (crate::link::SIGN_IN_PATH, None),
    ("/console/sign-out", None),
    // The OpenID Connect sign-in: the issuer's answer is checked by the console itself.
    ("/console/oidc/start", None),
    ("/console/oidc/callback", None),
    ("/console/language", None),
    ("/console/new", None),
    ("/console/t/{id}", None),
    ("/console/t/{id}/players", None),
    ("/console/t/{id}/players/paste", None),
    ("/console/t/{id}/players/cancel", None),
    ("/console/t/{id}/players/change", None),
    ("/console/t/{id}/players/consent", None),
    ("/console/t/{id}/players/trf", None),
    ("/console/t/{id}/round", None),
    ("/console/t/{id}/round/", None),
    ("/console/t/{id}/round/{action}", None),
    ("/console/t/{id}/teams", None),
    ("/console/t/{id}/teams/lineup", None),
    ("/console/t/{id}/schedule", None),
    ("/console/t/{id}/schedule/lots", None),
    ("/console/t/{id}/standings", None),
    ("/console/t/{id}/prizes", None),
    ("/console/t/{id}/ratings", None),
    ("/console/t/{id}/print", None),
    ("/console/t/{id}/print/{what}", None),
    ("/console/t/{id}/settings", None),
    ("/console/t/{id}/audit", None),
    ("/console/t/{id}/audit/replay", None),
    ("/console/t/{id}/export", None),
    // JSON over HTTP for every RPC: the request's own token goes with the gRPC call it
    // becomes, which the gRPC rule authorizes (public reads, private reads, roles).
    ("/api/v1/{service}/{method}", None),
    (
        "/api/platform/v1/tournaments/{tournament}/rounds/{round}/boards/{board}/game",
        Some(SUBMIT_GAME),
    ),
    (
        "/api/platform/v1/tournaments/{tournament}/rounds/{round}/games",
        Some(SUBMIT_GAMES),
    ),
];

/// What an HTTP route stands for: `Ok(None)` open to anyone, `Ok(Some(method))` the gRPC
/// method, `Err(())` a route the table does not know.
pub fn method_of(route: &str) -> Result<Option<&'static str>, ()> {
    HTTP_ROUTES
        .iter()
        .find(|(r, _)| *r == route)
        .map(|(_, m)| *m)
        .ok_or(())
}

impl AuthLayer {
    /// The principal of an HTTP request to `route` (the router's pattern, e.g.
    /// `/t/{id}/standings`): authenticated as the gRPC method the route stands for. `None`
    /// for a route open to anyone without a token.
    #[allow(clippy::result_large_err)]
    pub fn authenticate_http(
        &self,
        route: &str,
        headers: &axum::http::HeaderMap,
    ) -> Result<Option<Principal>, Status> {
        match method_of(route) {
            Ok(None) => Ok(None),
            Ok(Some(method)) => self.authenticate(method, headers).map(Some),
            // Not a public read of any table: a token is needed.
            Err(()) => self
                .authenticate(&format!("/http{route}"), headers)
                .map(Some),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layer::is_public_read;

    #[test]
    fn every_read_route_is_a_public_read_and_the_webhook_is_not() {
        for (route, method) in HTTP_ROUTES {
            let Some(m) = method else { continue };
            assert_eq!(
                is_public_read(m),
                !route.starts_with("/api/platform/"),
                "{route} -> {m}"
            );
        }
        assert_eq!(method_of("/healthz"), Ok(None));
        assert_eq!(method_of("/t/{id}/secret"), Err(()));
    }
}
