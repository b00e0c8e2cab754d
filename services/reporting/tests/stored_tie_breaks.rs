//! A tournament whose stored tie-break list cannot be used (written before the gRPC edge parsed
//! tie-breaks, or by an import that does not go through it): the standings say so in their
//! notes, over gRPC (real loopback server) and in the JSON, instead of silently ranking by the
//! recommended list.

use arbiter_core::tournament::{Arbiter, Command, CreateTournament, RegisterPlayer};
use arbiter_eventlog::{EventLog, SledLog};
use arbiter_proto::common::v1::TournamentRef;
use arbiter_proto::reporting::v1 as api;
use arbiter_proto::reporting::v1::reporting_client::ReportingClient;
use arbiter_service_kit::store::{CommandContext, TournamentStore};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use std::sync::Arc;
use tower::ServiceExt;

const T: &str = "old-list";

async fn stored_with_list(list: &str) -> Arc<TournamentStore> {
    let log: Arc<dyn EventLog> = Arc::new(SledLog::temporary().expect("sled"));
    let store = Arc::new(TournamentStore::new(log, "reporting", None));
    let d = "2025-09-01".parse().unwrap();
    let mut c = CreateTournament::new("Old Open", d, d, 5);
    c.chief_arbiter = Arbiter::named("Doe, Jane");
    c.tie_breaks = list.to_string();
    let mut commands = vec![Command::CreateTournament(c)];
    for (i, rating) in [2100, 2000, 1900, 1800].into_iter().enumerate() {
        commands.push(Command::RegisterPlayer(RegisterPlayer::new(
            format!("Player, {i}"),
            rating,
        )));
    }
    for (i, command) in commands.into_iter().enumerate() {
        let ctx = CommandContext::new(T, &format!("c{i}"), None, "import").unwrap();
        store
            .execute(&ctx, |_| Ok(command.clone()))
            .await
            .unwrap_or_else(|s| panic!("command {i}: {s:?}"));
    }
    store
}

async fn grpc_standings(store: Arc<TournamentStore>) -> api::Standings {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(
        tonic::transport::Server::builder()
            .add_service(arbiter_reporting::ReportingService::new(store).into_server())
            .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(listener)),
    );
    let mut client = ReportingClient::connect(format!("http://{addr}"))
        .await
        .expect("connect");
    client
        .get_standings(api::GetStandingsRequest {
            tournament: Some(TournamentRef {
                tournament_id: T.into(),
                as_of_version: 0,
            }),
            ..Default::default()
        })
        .await
        .expect("standings")
        .into_inner()
}

async fn json_standings(store: Arc<TournamentStore>) -> serde_json::Value {
    let app = arbiter_reporting::http_router(store);
    let res = app
        .oneshot(
            Request::get(format!("/api/tournaments/{T}/standings"))
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(res.status(), StatusCode::OK);
    let body = axum::body::to_bytes(res.into_body(), 1 << 20)
        .await
        .unwrap();
    serde_json::from_slice(&body).unwrap()
}

#[tokio::test]
async fn an_unusable_stored_list_is_reported_not_hidden() {
    let store = stored_with_list("BH/C1, FOO").await;
    let s = grpc_standings(store.clone()).await;
    assert_eq!(s.tie_break_source, api::TieBreakSource::Recommended as i32);
    let note = s
        .notes
        .iter()
        .find(|n| n.contains("FOO"))
        .unwrap_or_else(|| panic!("no note names the unusable list: {:?}", s.notes));
    assert!(note.contains("BH/C1,FOO"), "{note}");
    assert!(note.contains("recommended"), "{note}");
    let json = json_standings(store).await;
    assert_eq!(json["tie_breaks_from"], "recommended");
    let notes = json["notes"].as_array().expect("notes");
    assert!(
        notes
            .iter()
            .any(|n| n.as_str().is_some_and(|n| n.contains("FOO"))),
        "{notes:?}"
    );

    // A usable stored list is used, with no such note.
    let store = stored_with_list("BH/C1, SB").await;
    let s = grpc_standings(store).await;
    assert_eq!(s.tie_break_source, api::TieBreakSource::Tournament as i32);
    assert_eq!(s.tie_break_list, ["BH/C1", "SB"]);
    assert!(
        s.notes.iter().all(|n| !n.contains("cannot be used")),
        "{:?}",
        s.notes
    );
}
