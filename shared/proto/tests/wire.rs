//! The generated code: event encoding, the descriptor set, and a real gRPC round trip.

use arbiter_proto::common::v1 as common;
use arbiter_proto::events::v1 as ev;
use arbiter_proto::reporting::v1 as rep;
use prost::Message;

fn created() -> ev::Event {
    ev::Event {
        origin: None,
        kind: Some(ev::event::Kind::TournamentCreated(ev::TournamentCreated {
            name: "Open 2026".into(),
            place: "Oslo".into(),
            federation: "NOR".into(),
            start_date: Some(ev::Date {
                year: 2026,
                month: 7,
                day: 1,
            }),
            end_date: Some(ev::Date {
                year: 2026,
                month: 7,
                day: 9,
            }),
            chief_arbiter: Some(ev::Arbiter {
                name: "Doe, Jane".into(),
                fide_id: Some(1503014),
                title: "IA".into(),
            }),
            deputy_arbiters: vec![],
            pairing_system: ev::PairingSystem::Dutch as i32,
            rule_set: "dutch-2025".into(),
            rounds: 9,
            scoring: Some(arbiter_core::PointSystem::default().into()),
            initial_color: ev::Color::White as i32,
            rating_kind: ev::RatingKind::Standard as i32,
            tie_breaks: vec!["BH/C1".into(), "BH".into(), "SB".into()],
            time_control: "90'/40+30'+30\"".into(),
            acceleration: None,
            fide_rated: true,
            ..Default::default()
        })),
    }
}

#[test]
fn envelope_round_trips_through_bytes() {
    let env = ev::Envelope {
        stream: "open-2026".into(),
        version: 1,
        event_id: "0190c9a2-0000-7000-8000-000000000000".into(),
        command_id: "cmd-1".into(),
        actor: "arbiter:jane".into(),
        time_unix_ms: 1_780_000_000_000,
        payload: Some(created()),
        previous_hash: vec![0; 32],
        hash: vec![7; 32],
        payload_bytes: Vec::new(),
        redacted: false,
    };
    let bytes = env.encode_to_vec();
    let back = ev::Envelope::decode(bytes.as_slice()).unwrap();
    assert_eq!(back, env);
    match back.payload.unwrap().kind.unwrap() {
        ev::event::Kind::TournamentCreated(t) => {
            assert_eq!(t.rule_set, "dutch-2025");
            assert_eq!(t.scoring.unwrap().draw, 5);
            assert_eq!(t.rating_kind(), ev::RatingKind::Standard);
        }
        other => panic!("wrong kind {other:?}"),
    }
}

#[test]
fn result_events_carry_forfeits_and_double_forfeits() {
    for result in [
        ev::BoardResult::WhiteWinsForfeit,
        ev::BoardResult::BlackWinsForfeit,
        ev::BoardResult::DoubleForfeit,
    ] {
        let e = ev::Event {
            origin: None,
            kind: Some(ev::event::Kind::ResultRecorded(ev::ResultRecorded {
                round: 3,
                board: 12,
                result: result as i32,
                ..Default::default()
            })),
        };
        let back = ev::Event::decode(e.encode_to_vec().as_slice()).unwrap();
        let Some(ev::event::Kind::ResultRecorded(r)) = back.kind else {
            panic!("kind")
        };
        assert_eq!(r.result(), result);
        assert_eq!((r.round, r.board), (3, 12));
    }
}

#[test]
fn unknown_future_event_kind_decodes_as_none() {
    // An event kind added by a later schema (field 999) must not break older readers.
    let mut buf = Vec::new();
    prost::encoding::encode_key(999, prost::encoding::WireType::LengthDelimited, &mut buf);
    prost::encoding::encode_varint(0, &mut buf);
    let e = ev::Event::decode(buf.as_slice()).unwrap();
    assert!(e.kind.is_none());
}

#[test]
fn descriptor_set_lists_every_package() {
    let fds = prost_types::FileDescriptorSet::decode(arbiter_proto::FILE_DESCRIPTOR_SET).unwrap();
    let packages: Vec<&str> = fds.file.iter().map(|f| f.package()).collect();
    for p in [
        "arbiter.events.v1",
        "arbiter.common.v1",
        "arbiter.registration.v1",
        "arbiter.round_director.v1",
        "arbiter.pairing_worker.v1",
        "arbiter.reporting.v1",
        "arbiter.rating_worker.v1",
    ] {
        assert!(packages.contains(&p), "{p} missing from {packages:?}");
    }
    let services: Vec<&str> = fds
        .file
        .iter()
        .flat_map(|f| f.service.iter().map(|s| s.name()))
        .collect();
    for s in [
        "Registration",
        "RoundDirector",
        "PairingWorker",
        "Reporting",
        "RatingWorker",
    ] {
        assert!(services.contains(&s), "{s} missing from {services:?}");
    }
}

struct FixedReporting;

#[tonic::async_trait]
impl rep::reporting_server::Reporting for FixedReporting {
    async fn get_standings(
        &self,
        req: tonic::Request<rep::GetStandingsRequest>,
    ) -> Result<tonic::Response<rep::Standings>, tonic::Status> {
        let t = req.into_inner().tournament.unwrap_or_default();
        if t.tournament_id.is_empty() {
            return Err(tonic::Status::invalid_argument(
                "tournament.tournament_id is empty",
            ));
        }
        Ok(tonic::Response::new(rep::Standings {
            version: 42,
            after_round: 1,
            rows: vec![rep::StandingRow {
                rank: 1,
                pairing_number: 7,
                name: t.tournament_id,
                score: Some(common::Decimal {
                    units: 10,
                    scale: 1,
                }),
                tie_breaks: vec![rep::TieBreakValue {
                    code: "BH".into(),
                    value: Some(common::Decimal {
                        units: 15,
                        scale: 1,
                    }),
                }],
                ..Default::default()
            }],
            ..Default::default()
        }))
    }
    async fn get_pairings(
        &self,
        _: tonic::Request<rep::GetPairingsRequest>,
    ) -> Result<tonic::Response<rep::RoundPairings>, tonic::Status> {
        Err(tonic::Status::unimplemented("test"))
    }
    async fn get_crosstable(
        &self,
        _: tonic::Request<rep::GetCrosstableRequest>,
    ) -> Result<tonic::Response<rep::Crosstable>, tonic::Status> {
        Err(tonic::Status::unimplemented("test"))
    }
    async fn export_trf(
        &self,
        _: tonic::Request<rep::ExportTrfRequest>,
    ) -> Result<tonic::Response<rep::ExportTrfResponse>, tonic::Status> {
        Err(tonic::Status::unimplemented("test"))
    }
    type FollowTournamentStream = std::pin::Pin<
        Box<dyn futures::Stream<Item = Result<rep::TournamentView, tonic::Status>> + Send>,
    >;
    async fn follow_tournament(
        &self,
        _: tonic::Request<rep::FollowTournamentRequest>,
    ) -> Result<tonic::Response<Self::FollowTournamentStream>, tonic::Status> {
        Err(tonic::Status::unimplemented("test"))
    }
    type StreamEventsStream =
        std::pin::Pin<Box<dyn futures::Stream<Item = Result<ev::Envelope, tonic::Status>> + Send>>;
    async fn stream_events(
        &self,
        req: tonic::Request<rep::StreamEventsRequest>,
    ) -> Result<tonic::Response<Self::StreamEventsStream>, tonic::Status> {
        let r = req.into_inner();
        let items = (r.from_version.max(1)..=3).map(move |v| {
            Ok(ev::Envelope {
                stream: r.tournament.clone().unwrap_or_default().tournament_id,
                version: v,
                ..Default::default()
            })
        });
        Ok(tonic::Response::new(Box::pin(futures::stream::iter(items))))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn grpc_round_trip_over_tcp() {
    use futures::StreamExt;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let server = tokio::spawn(
        tonic::transport::Server::builder()
            .add_service(rep::reporting_server::ReportingServer::new(FixedReporting))
            .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(listener)),
    );

    let mut client = rep::reporting_client::ReportingClient::connect(format!("http://{addr}"))
        .await
        .unwrap();
    let standings = client
        .get_standings(rep::GetStandingsRequest {
            tournament: Some(common::TournamentRef {
                tournament_id: "open".into(),
                as_of_version: 0,
            }),
            after_round: 0,
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(standings.version, 42);
    assert_eq!(standings.rows[0].name, "open");
    assert_eq!(
        standings.rows[0].tie_breaks[0].value,
        Some(common::Decimal {
            units: 15,
            scale: 1
        })
    );

    let err = client
        .get_standings(rep::GetStandingsRequest::default())
        .await
        .unwrap_err();
    assert_eq!(err.code(), tonic::Code::InvalidArgument);

    let mut events = client
        .stream_events(rep::StreamEventsRequest {
            tournament: Some(arbiter_proto::common::v1::TournamentRef {
                tournament_id: "open".into(),
                as_of_version: 0,
            }),
            from_version: 2,
            follow: false,
            raw_payload: false,
        })
        .await
        .unwrap()
        .into_inner();
    let mut seen = Vec::new();
    while let Some(e) = events.next().await {
        seen.push(e.unwrap().version);
    }
    assert_eq!(seen, vec![2, 3]);
    server.abort();
}

// The compatibility guard, in this binary.
#[path = "wire/compat.rs"]
mod compat;
