//! `arbiter serve --metrics-port`: the Prometheus endpoint of the embedded topology, scraped
//! after a few commands, a refusal and a pairing.

use crate::support::*;
use arbiter_proto::events::v1 as pb;
use arbiter_proto::registration::v1 as reg;
use arbiter_proto::reporting::v1 as rep;
use arbiter_proto::round_director::v1 as rd;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// One sample: metric name, labels, value.
type Sample = (String, BTreeMap<String, String>, f64);

/// Parses the Prometheus text format (the lines this endpoint writes: no escapes in labels).
fn samples(text: &str) -> Vec<Sample> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (series, value) = l.rsplit_once(' ').unwrap_or_else(|| panic!("line {l:?}"));
            let value: f64 = value.parse().unwrap_or_else(|_| panic!("value in {l:?}"));
            let (name, labels) = match series.split_once('{') {
                Some((n, rest)) => (n, rest.trim_end_matches('}')),
                None => (series, ""),
            };
            let labels = labels
                .split("\",")
                .filter(|p| !p.is_empty())
                .map(|p| {
                    let (k, v) = p
                        .split_once('=')
                        .unwrap_or_else(|| panic!("label in {l:?}"));
                    (k.to_string(), v.trim_matches('"').to_string())
                })
                .collect();
            (name.to_string(), labels, value)
        })
        .collect()
}

fn value(s: &[Sample], name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    s.iter()
        .find(|(n, l, _)| {
            n == name
                && labels
                    .iter()
                    .all(|(k, v)| l.get(*k).map(String::as_str) == Some(*v))
        })
        .map(|(_, _, v)| *v)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_commands_refusals_pairings_appends_and_lag() {
    let work = TempDir::new("arbiter-metrics").unwrap();
    let data = work.path().join("data");
    let port = arbiter_eventlog::testing::free_port().unwrap().to_string();
    let server = Server::start(
        &["--data", data.to_str().unwrap(), "--metrics-port", &port],
        &work.path().join("serve.log"),
    );
    let metrics = format!("http://127.0.0.1:{port}");
    let mut c = Clients::new(&Endpoints::one(&server.grpc));
    let tid = "metrics-open";
    retry("create", || {
        let mut r = c.reg.clone();
        async move {
            r.create_tournament(reg::CreateTournamentRequest {
                header: header(tid, "create"),
                tournament: Some(arbiter_proto::registration::v1::TournamentSettings {
                    name: "Metrics Open".into(),
                    place: "Loopback".into(),
                    federation: "NOR".into(),
                    start_date: Some(pb::Date {
                        year: 2026,
                        month: 3,
                        day: 1,
                    }),
                    end_date: Some(pb::Date {
                        year: 2026,
                        month: 3,
                        day: 3,
                    }),
                    chief_arbiter: Some(pb::Arbiter {
                        name: "Arbiter, Chief".into(),
                        fide_id: None,
                        title: "IA".into(),
                    }),
                    rounds: 3,
                    pairing_system: pb::PairingSystem::Dutch as i32,
                    initial_color: pb::Color::White as i32,
                    rating_kind: pb::RatingKind::Standard as i32,
                    fide_rated: true,
                    ..Default::default()
                }),
            })
            .await
        }
    })
    .await
    .expect("create");
    for i in 1..=4u32 {
        c.reg
            .register_player(reg::RegisterPlayerRequest {
                confirm_same_name: false,
                header: header(tid, &format!("register-{i}")),
                player: Some(arbiter_proto::registration::v1::PlayerDetails {
                    name: format!("Player, {i:03}"),
                    fide_id: Some(3_000_000 + i as u64),
                    rating: 2000 + 10 * i,
                    federation: "NOR".into(),
                    ..Default::default()
                }),
            })
            .await
            .expect("register");
    }
    // Round 2 before round 1: refused by the domain.
    let refused =
        c.rd.start_round(rd::StartRoundRequest {
            header: header(tid, "start-2"),
            round: 2,
            scheduled_unix_ms: 0,
        })
        .await
        .expect_err("round 2 cannot start first");
    c.rd.start_round(rd::StartRoundRequest {
        header: header(tid, "start-1"),
        round: 1,
        scheduled_unix_ms: 0,
    })
    .await
    .expect("start round 1");
    let deadline = Instant::now() + Duration::from_secs(60);
    while let Err(s) = c
        .rep
        .get_pairings(rep::GetPairingsRequest {
            tournament: tref(tid),
            round: 1,
        })
        .await
    {
        assert!(Instant::now() < deadline, "no proposal: {s:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    let (status, body) = http_get(&metrics, "/metrics");
    assert_eq!(status, 200, "{body}");
    let s = samples(&body);
    let registration = "arbiter.registration.v1.Registration";
    let director = "arbiter.round_director.v1.RoundDirector";
    assert_eq!(
        value(
            &s,
            "arbiter_grpc_requests_total",
            &[
                ("service", registration),
                ("method", "RegisterPlayer"),
                ("code", "Ok")
            ]
        ),
        Some(4.0),
        "four registrations counted:\n{body}"
    );
    let refused_code = format!("{:?}", refused.code());
    assert_eq!(
        value(
            &s,
            "arbiter_grpc_requests_total",
            &[
                ("service", director),
                ("method", "StartRound"),
                ("code", &refused_code)
            ]
        ),
        Some(1.0),
        "the refused call counted with its code:\n{body}"
    );
    let refusals: Vec<&Sample> = s
        .iter()
        .filter(|(n, _, _)| n == "arbiter_refusals_total")
        .collect();
    assert_eq!(refusals.len(), 1, "one refusal, by reason:\n{body}");
    let (_, labels, n) = refusals[0];
    assert_eq!(*n, 1.0);
    assert_eq!(labels["code"], refused_code);
    assert!(
        labels["reason"].starts_with(|c: char| c.is_ascii_uppercase())
            && labels["reason"].chars().all(|c| c.is_ascii_alphanumeric()),
        "the reason is the rule's name: {labels:?}"
    );
    assert!(
        value(&s, "arbiter_pairing_duration_seconds_count", &[]).unwrap_or(0.0) >= 1.0,
        "the pairing was timed:\n{body}"
    );
    // Create, four registrations, the start and the proposal at least.
    assert!(
        value(&s, "arbiter_log_append_duration_seconds_count", &[]).unwrap_or(0.0) >= 7.0,
        "appends timed:\n{body}"
    );
    let head = value(&s, "arbiter_log_head_position", &[]).unwrap_or(0.0);
    assert!(head >= 7.0, "log head {head}:\n{body}");
    for follower in [arbiter_pairing_worker::SERVICE, arbiter_reporting::SERVICE] {
        let lag = value(&s, "arbiter_consumer_lag_events", &[("follower", follower)])
            .unwrap_or_else(|| panic!("no lag for {follower}:\n{body}"));
        assert!((0.0..=head).contains(&lag), "{follower} lag {lag}");
    }
    assert!(
        value(
            &s,
            "arbiter_grpc_request_duration_seconds_count",
            &[("service", registration), ("method", "RegisterPlayer")]
        ) == Some(4.0),
        "call durations:\n{body}"
    );
}
