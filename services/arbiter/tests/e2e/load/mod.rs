//! The load driver: plays many tournaments at once through gRPC against a real `arbiter serve`
//! process, as a platform would, and measures what the table asks for. Shared by the
//! load bench (`benches/load.rs`, big runs and the kill -9 trials) and the soak test
//! (`tests/load_soak.rs`, small, in CI).
//!
//! Each event: CreateTournament, P RegisterPlayer, then per round StartRound, wait for the
//! pairing worker's PairingProposed (StreamEvents, following from the version StartRound
//! returned), PublishPairing (the proposal as it stands), one RecordResult per board (seeded
//! random results), CloseRound; then FinishTournament. Every command the server acknowledges is
//! remembered with its versions, so that the log can be checked against it afterwards.

#![allow(dead_code)]

use arbiter_core::tournament::BoardResult;
use arbiter_proto::common::v1::{CommandHeader, CommandResult, TournamentRef};
use arbiter_proto::convert::board_result_to_wire;
use arbiter_proto::events::v1 as pb;
use arbiter_proto::events::v1::event::Kind;
use arbiter_proto::registration::v1 as reg;
use arbiter_proto::registration::v1::registration_client::RegistrationClient;
use arbiter_proto::reporting::v1 as rep;
use arbiter_proto::reporting::v1::reporting_client::ReportingClient;
use arbiter_proto::round_director::v1 as rd;
use arbiter_proto::round_director::v1::round_director_client::RoundDirectorClient;
use futures::StreamExt;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tonic::transport::{Channel, Endpoint};

/// What to play.
#[derive(Debug, Clone)]
pub struct LoadConfig {
    /// Number of events (tournaments).
    pub events: u32,
    /// Players per event.
    pub players: u32,
    /// Rounds per event.
    pub rounds: u32,
    /// Events in play at the same time (the rest wait for a free slot).
    pub concurrency: u32,
    /// HTTP/2 connections the driver spreads its events over.
    pub connections: u32,
    pub seed: u64,
    /// Prefix of the tournament ids.
    pub prefix: String,
    /// Retry transport failures (the server was killed and is restarting) with the same
    /// command id instead of counting them as errors.
    pub survive_restarts: bool,
    /// Mean pause before each command of an event (uniform in 0..2x), as arbiters and
    /// players take time between results; zero plays each event as fast as the server
    /// answers (a closed loop: latency then grows with the number of events in flight).
    pub think: Duration,
}

impl LoadConfig {
    pub fn new(events: u32, players: u32, rounds: u32) -> LoadConfig {
        LoadConfig {
            events,
            players,
            rounds,
            concurrency: events,
            connections: 8,
            seed: 2026,
            prefix: "load".into(),
            survive_restarts: false,
            think: Duration::ZERO,
        }
    }

    pub fn tournament_id(&self, i: u32) -> String {
        format!("{}-{i:05}", self.prefix)
    }
}

/// An acknowledged command: its id and the versions the server said it appended.
#[derive(Debug, Clone)]
pub struct Ack {
    pub command_id: String,
    pub first: u64,
    pub last: u64,
}

/// Everything measured during a run, shared by the event tasks.
#[derive(Default)]
pub struct Stats {
    /// Microseconds per successful call, by command kind.
    latencies: Mutex<BTreeMap<&'static str, Vec<u64>>>,
    /// Errors by "kind: code", with the first message of each.
    errors: Mutex<BTreeMap<String, (u64, String)>>,
    /// Acknowledged commands by tournament.
    acks: Mutex<HashMap<String, Vec<Ack>>>,
    /// Calls retried because the server was gone (only when surviving restarts).
    pub transport_retries: AtomicU64,
    pub results: AtomicU64,
    pub events_finished: AtomicU64,
}

impl Stats {
    pub fn record(&self, kind: &'static str, d: Duration) {
        self.latencies
            .lock()
            .unwrap()
            .entry(kind)
            .or_default()
            .push(d.as_micros() as u64);
    }

    fn error(&self, kind: &str, s: &tonic::Status) {
        let key = format!("{kind}: {:?}", s.code());
        let mut e = self.errors.lock().unwrap();
        let entry = e
            .entry(key)
            .or_insert_with(|| (0, s.message().chars().take(200).collect()));
        entry.0 += 1;
    }

    pub fn error_count(&self) -> u64 {
        self.errors.lock().unwrap().values().map(|(n, _)| n).sum()
    }

    pub fn errors(&self) -> BTreeMap<String, (u64, String)> {
        self.errors.lock().unwrap().clone()
    }

    fn ack(&self, tid: &str, command_id: &str, r: &CommandResult) {
        self.acks
            .lock()
            .unwrap()
            .entry(tid.to_string())
            .or_default()
            .push(Ack {
                command_id: command_id.to_string(),
                first: r.first_version,
                last: r.last_version,
            });
    }

    /// A copy of the acknowledged commands so far.
    pub fn acks(&self) -> HashMap<String, Vec<Ack>> {
        self.acks.lock().unwrap().clone()
    }

    pub fn ack_count(&self) -> usize {
        self.acks.lock().unwrap().values().map(Vec::len).sum()
    }

    /// (kind, calls, p50, p99, max) in milliseconds.
    pub fn percentiles(&self) -> Vec<(&'static str, usize, f64, f64, f64)> {
        let mut l = self.latencies.lock().unwrap();
        l.iter_mut()
            .map(|(k, v)| {
                v.sort_unstable();
                (*k, v.len(), pct(v, 50), pct(v, 99), pct(v, 100))
            })
            .collect()
    }
}

/// The q-th percentile (nearest rank) of sorted microseconds, in milliseconds.
fn pct(sorted: &[u64], q: usize) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = (q * sorted.len()).div_ceil(100).max(1);
    sorted[rank - 1] as f64 / 1000.0
}

/// gRPC clients over one connection.
#[derive(Clone)]
pub struct Clients {
    pub reg: RegistrationClient<Authed>,
    pub rd: RoundDirectorClient<Authed>,
    pub rep: ReportingClient<Authed>,
}

/// Where each service answers (one address for `arbiter serve` with every service).
#[derive(Debug, Clone)]
pub struct Urls {
    pub registration: String,
    pub director: String,
    pub reporting: String,
}

impl Urls {
    pub fn one(url: &str) -> Urls {
        Urls {
            registration: url.into(),
            director: url.into(),
            reporting: url.into(),
        }
    }
}

// The tests' token keys: one set per process, so the crate root provides the one module
// (the end-to-end tests' `support::token`, the bench's own copy of the same file).
use crate::token;

type Authed = arbiter_auth::client::WithToken<Channel>;

/// A channel sending the tests' admin token.
fn channel(url: &str) -> Authed {
    token::admin(raw_channel(url))
}

fn raw_channel(url: &str) -> Channel {
    Endpoint::from_shared(url.to_string())
        .expect("url")
        .tcp_nodelay(true)
        .connect_timeout(Duration::from_secs(5))
        .timeout(Duration::from_secs(60))
        .http2_keep_alive_interval(Duration::from_secs(20))
        .keep_alive_while_idle(true)
        .connect_lazy()
}

impl Clients {
    pub fn new(url: &str) -> Clients {
        Clients::to(&Urls::one(url))
    }

    pub fn to(u: &Urls) -> Clients {
        let ch = channel(&u.registration);
        let rd = if u.director == u.registration {
            ch.clone()
        } else {
            channel(&u.director)
        };
        let rep = if u.reporting == u.registration {
            ch.clone()
        } else {
            channel(&u.reporting)
        };
        Clients {
            reg: RegistrationClient::new(ch),
            rd: RoundDirectorClient::new(rd),
            rep: ReportingClient::new(rep),
        }
    }
}

fn header(tid: &str, command_id: &str) -> Option<CommandHeader> {
    Some(CommandHeader {
        tournament_id: tid.into(),
        command_id: command_id.into(),
        expected_version: None,
        actor: "load".into(),
    })
}

fn tref(tid: &str) -> Option<TournamentRef> {
    Some(TournamentRef {
        tournament_id: tid.into(),
        as_of_version: 0,
    })
}

/// Failures a killed or restarting server causes; retried with the same command id.
fn transport(s: &tonic::Status) -> bool {
    matches!(
        s.code(),
        tonic::Code::Unavailable
            | tonic::Code::Unknown
            | tonic::Code::Cancelled
            | tonic::Code::DeadlineExceeded
    )
}

/// One event played by one task.
struct Play {
    c: Clients,
    tid: String,
    cfg: LoadConfig,
    stats: Arc<Stats>,
    rng: ChaCha8Rng,
    /// Standings probes spawned after each round's last result.
    probes: Vec<tokio::task::JoinHandle<()>>,
}

impl Play {
    /// Sends a command; records its latency and acknowledgement. A failure counts as an error
    /// and is sent again (same command id) up to 3 times; a transport failure while surviving
    /// restarts is sent again for up to 120 s without counting.
    async fn command<F, Fut>(
        &mut self,
        kind: &'static str,
        command_id: &str,
        mut f: F,
    ) -> Option<CommandResult>
    where
        F: FnMut() -> Fut,
        Fut: std::future::Future<Output = Result<tonic::Response<CommandResult>, tonic::Status>>,
    {
        if !self.cfg.think.is_zero() {
            let ms = self.cfg.think.as_millis() as u64;
            let pause = self.rng.random_range(0..=2 * ms);
            tokio::time::sleep(Duration::from_millis(pause)).await;
        }
        let started = Instant::now();
        let mut failures = 0;
        loop {
            let t0 = Instant::now();
            match f().await {
                Ok(r) => {
                    self.stats.record(kind, t0.elapsed());
                    let r = r.into_inner();
                    self.stats.ack(&self.tid, command_id, &r);
                    return Some(r);
                }
                Err(s)
                    if self.cfg.survive_restarts
                        && transport(&s)
                        && started.elapsed() < Duration::from_secs(120) =>
                {
                    self.stats.transport_retries.fetch_add(1, Ordering::Relaxed);
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                Err(s) => {
                    self.stats.error(kind, &s);
                    failures += 1;
                    if failures >= 3 {
                        return None;
                    }
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        }
    }

    async fn create(&mut self) -> Option<()> {
        let tid = self.tid.clone();
        let rounds = self.cfg.rounds;
        let reg = self.c.reg.clone();
        self.command("CreateTournament", "create", || {
            let req = reg::CreateTournamentRequest {
                header: header(&tid, "create"),
                tournament: Some(arbiter_proto::registration::v1::TournamentSettings {
                    name: format!("Load Open {tid}"),
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
                        day: 9,
                    }),
                    chief_arbiter: Some(pb::Arbiter {
                        name: "Arbiter, Chief".into(),
                        fide_id: None,
                        title: "IA".into(),
                    }),
                    pairing_system: pb::PairingSystem::Dutch as i32,
                    rounds,
                    initial_color: pb::Color::White as i32,
                    rating_kind: pb::RatingKind::Standard as i32,
                    fide_rated: true,
                    ..Default::default()
                }),
            };
            let mut reg = reg.clone();
            async move { reg.create_tournament(req).await }
        })
        .await
        .map(|_| ())
    }

    async fn register(&mut self) -> Option<()> {
        for i in 1..=self.cfg.players {
            let rating: u32 = self.rng.random_range(1400..2700);
            let id = format!("register-{i}");
            let tid = self.tid.clone();
            let reg = self.c.reg.clone();
            self.command("RegisterPlayer", &id, || {
                let req = reg::RegisterPlayerRequest {
                    confirm_same_name: false,
                    header: header(&tid, &id),
                    player: Some(arbiter_proto::registration::v1::PlayerDetails {
                        name: format!("Player, {i:04}"),
                        fide_id: Some(10_000_000 + i as u64),
                        rating,
                        federation: "NOR".into(),
                        ..Default::default()
                    }),
                };
                let mut reg = reg.clone();
                async move { reg.register_player(req).await }
            })
            .await?;
        }
        Some(())
    }

    /// Follows the stream from `from` until the proposal (or failure) of `round`; returns
    /// its boards. Reconnects after a restart.
    async fn wait_proposal(&mut self, round: u32, mut from: u64) -> Option<Vec<pb::Board>> {
        let t0 = Instant::now();
        let deadline = t0 + Duration::from_secs(300);
        while Instant::now() < deadline {
            let opened = self
                .c
                .rep
                .clone()
                .stream_events(rep::StreamEventsRequest {
                    tournament: Some(arbiter_proto::common::v1::TournamentRef {
                        tournament_id: self.tid.clone(),
                        as_of_version: 0,
                    }),
                    from_version: from,
                    follow: true,
                    raw_payload: false,
                })
                .await;
            let mut s = match opened {
                Ok(s) => s.into_inner(),
                Err(st) if self.cfg.survive_restarts && transport(&st) => {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
                Err(st) => {
                    self.stats.error("StreamEvents", &st);
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    continue;
                }
            };
            let left = deadline.saturating_duration_since(Instant::now());
            let found = tokio::time::timeout(left, async {
                while let Some(e) = s.next().await {
                    let e = match e {
                        Ok(e) => e,
                        Err(st) => return Err(st),
                    };
                    from = e.version + 1;
                    match e.payload.and_then(|p| p.kind) {
                        Some(Kind::PairingProposed(p)) if p.round == round => {
                            return Ok(Some(p.boards));
                        }
                        Some(Kind::PairingFailed(p)) if p.round == round => {
                            return Err(tonic::Status::failed_precondition(format!(
                                "round {round}: pairing failed: {}",
                                p.reason
                            )));
                        }
                        _ => {}
                    }
                }
                Ok(None)
            })
            .await;
            match found {
                Ok(Ok(Some(boards))) => {
                    self.stats.record("wait for pairing", t0.elapsed());
                    return Some(boards);
                }
                // The stream ended (server stopping): follow again from where it stopped.
                Ok(Ok(None)) => tokio::time::sleep(Duration::from_millis(100)).await,
                Ok(Err(st)) if self.cfg.survive_restarts && transport(&st) => {
                    tokio::time::sleep(Duration::from_millis(100)).await
                }
                Ok(Err(st)) => {
                    self.stats.error("wait for pairing", &st);
                    return None;
                }
                Err(_) => break,
            }
        }
        self.stats.error(
            "wait for pairing",
            &tonic::Status::deadline_exceeded(format!("round {round}: no proposal in 300 s")),
        );
        None
    }

    fn random_result(&mut self) -> BoardResult {
        match self.rng.random_range(0..100) {
            0..2 => BoardResult::WhiteWinsForfeit,
            2..32 => BoardResult::Draw,
            32..68 => BoardResult::WhiteWins,
            _ => BoardResult::BlackWins,
        }
    }

    /// Polls the standings until they are at `version` or later: the time from the result's
    /// acknowledgement to standings that count it.
    fn probe_standings(&mut self, acked: Instant, version: u64) {
        let mut rep = self.c.rep.clone();
        let tid = self.tid.clone();
        let stats = self.stats.clone();
        let survive = self.cfg.survive_restarts;
        self.probes.push(tokio::spawn(async move {
            let deadline = acked + Duration::from_secs(120);
            loop {
                let t0 = Instant::now();
                let got = rep
                    .get_standings(rep::GetStandingsRequest {
                        tournament: tref(&tid),
                        after_round: 0,
                    })
                    .await;
                match got {
                    Ok(s) => {
                        stats.record("GetStandings", t0.elapsed());
                        if s.into_inner().version >= version {
                            stats.record("result to standings", acked.elapsed());
                            return;
                        }
                    }
                    Err(s) if survive && transport(&s) => {}
                    Err(s) => {
                        stats.error("GetStandings", &s);
                        return;
                    }
                }
                if Instant::now() > deadline {
                    stats.error(
                        "result to standings",
                        &tonic::Status::deadline_exceeded("standings not at the result in 120 s"),
                    );
                    return;
                }
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        }));
    }

    async fn round(&mut self, round: u32) -> Option<()> {
        let tid = self.tid.clone();
        let rdc = self.c.rd.clone();
        let id = format!("start-{round}");
        let started = self
            .command("StartRound", &id, || {
                let req = rd::StartRoundRequest {
                    header: header(&tid, &id),
                    round,
                    scheduled_unix_ms: 0,
                };
                let mut rdc = rdc.clone();
                async move { rdc.start_round(req).await }
            })
            .await?;
        let boards = self.wait_proposal(round, started.last_version + 1).await?;
        let id = format!("publish-{round}");
        self.command("PublishPairing", &id, || {
            let req = rd::PublishPairingRequest {
                header: header(&tid, &id),
                round,
                proposal_version: 0,
                boards: vec![],
                unpaired: vec![],
                by_entry: false,
                numbering_version: None,
                note: String::new(),
                team_bye: 0,
                team_matches: Vec::new(),
            };
            let mut rdc = rdc.clone();
            async move { rdc.publish_pairing(req).await }
        })
        .await?;
        let n = boards.len();
        for (i, b) in boards.iter().enumerate() {
            let (res, wc, bc) = board_result_to_wire(self.random_result());
            let id = format!("result-{round}-{}", b.number);
            let req = rd::RecordResultRequest {
                header: header(&tid, &id),
                round,
                board: b.number,
                result: res as i32,
                white_code: wc,
                black_code: bc,
            };
            let r = self
                .command("RecordResult", &id, || {
                    let mut rdc = rdc.clone();
                    let req = req.clone();
                    async move { rdc.record_result(req).await }
                })
                .await?;
            self.stats.results.fetch_add(1, Ordering::Relaxed);
            if i + 1 == n {
                self.probe_standings(Instant::now(), r.last_version);
            }
        }
        let id = format!("close-{round}");
        self.command("CloseRound", &id, || {
            let req = rd::CloseRoundRequest {
                header: header(&tid, &id),
                round,
            };
            let mut rdc = rdc.clone();
            async move { rdc.close_round(req).await }
        })
        .await?;
        Some(())
    }

    async fn finish(&mut self) -> Option<()> {
        let tid = self.tid.clone();
        let rdc = self.c.rd.clone();
        self.command("FinishTournament", "finish", || {
            let req = rd::FinishTournamentRequest {
                header: header(&tid, "finish"),
            };
            let mut rdc = rdc.clone();
            async move { rdc.finish_tournament(req).await }
        })
        .await
        .map(|_| ())
    }

    async fn play(mut self) {
        let ok = async {
            self.create().await?;
            self.register().await?;
            for round in 1..=self.cfg.rounds {
                self.round(round).await?;
            }
            self.finish().await
        }
        .await;
        for p in std::mem::take(&mut self.probes) {
            let _ = p.await;
        }
        if ok.is_some() {
            self.stats.events_finished.fetch_add(1, Ordering::Relaxed);
        }
    }
}

/// Plays `cfg.events` events against the server at `url`; returns when all are done (or
/// gave up).
pub async fn play(urls: &Urls, cfg: &LoadConfig, stats: Arc<Stats>) -> Duration {
    let clients: Vec<Clients> = (0..cfg.connections.max(1))
        .map(|_| Clients::to(urls))
        .collect();
    let slots = Arc::new(tokio::sync::Semaphore::new(cfg.concurrency.max(1) as usize));
    let t0 = Instant::now();
    let mut tasks = Vec::new();
    for i in 0..cfg.events {
        let permit = slots.clone().acquire_owned().await.expect("semaphore");
        let p = Play {
            c: clients[i as usize % clients.len()].clone(),
            tid: cfg.tournament_id(i),
            cfg: cfg.clone(),
            stats: stats.clone(),
            rng: ChaCha8Rng::seed_from_u64(cfg.seed ^ (u64::from(i) << 20)),
            probes: Vec::new(),
        };
        tasks.push(tokio::spawn(async move {
            p.play().await;
            drop(permit);
        }));
    }
    for t in tasks {
        t.await.expect("event task");
    }
    t0.elapsed()
}

/// Reads a tournament's whole stream (stored payloads included).
pub async fn read_stream(c: &Clients, tid: &str) -> Result<Vec<pb::Envelope>, tonic::Status> {
    let mut s = c
        .rep
        .clone()
        .stream_events(rep::StreamEventsRequest {
            tournament: Some(arbiter_proto::common::v1::TournamentRef {
                tournament_id: tid.to_string(),
                as_of_version: 0,
            }),
            from_version: 1,
            follow: false,
            raw_payload: true,
        })
        .await?
        .into_inner();
    let mut events = Vec::new();
    while let Some(e) = s.next().await {
        events.push(e?);
    }
    Ok(events)
}

/// The bytes of one stored event: its stored payload and the envelope's own fields (stream,
/// ids, actor, two hashes, version and time as 8 bytes each). This is what the log must keep,
/// whatever the store's layout; the data folder is compared with its sum.
pub fn event_bytes(e: &pb::Envelope) -> u64 {
    (e.payload_bytes.len()
        + e.stream.len()
        + e.event_id.len()
        + e.command_id.len()
        + e.actor.len()
        + e.previous_hash.len()
        + e.hash.len()
        + 16) as u64
}

/// Checks a stream against the commands acknowledged for it: versions 1..=n without gaps, and
/// every acknowledged command's events are in the log exactly once (the versions it was
/// acknowledged with, carrying its command id, and no other event with that id). Returns the
/// problems found.
pub fn check_acks(tid: &str, events: &[pb::Envelope], acks: &[Ack]) -> Vec<String> {
    let mut problems = Vec::new();
    for (i, e) in events.iter().enumerate() {
        if e.version != i as u64 + 1 {
            problems.push(format!("{tid}: event {i} has version {}", e.version));
            break;
        }
    }
    let mut by_id: HashMap<&str, Vec<u64>> = HashMap::new();
    for e in events {
        by_id
            .entry(e.command_id.as_str())
            .or_default()
            .push(e.version);
    }
    for a in acks {
        let want: Vec<u64> = (a.first..=a.last).collect();
        match by_id.get(a.command_id.as_str()) {
            None => problems.push(format!(
                "{tid}: acknowledged command {} (versions {}..={}) is not in the log",
                a.command_id, a.first, a.last
            )),
            Some(got) if *got != want => problems.push(format!(
                "{tid}: command {} acknowledged as versions {}..={} but the log holds it at {got:?}",
                a.command_id, a.first, a.last
            )),
            Some(_) => {}
        }
    }
    problems
}

/// Every pairing request (round, attempt) of a stream answered exactly once (a proposal or a
/// failure), whatever the number of pairing workers. Returns the problems and the number of
/// requests.
pub fn check_proposals(tid: &str, events: &[pb::Envelope]) -> (Vec<String>, u64) {
    let mut requests: BTreeMap<(u32, u32), u32> = BTreeMap::new();
    let mut answers: BTreeMap<(u32, u32), u32> = BTreeMap::new();
    for e in events {
        match e.payload.as_ref().and_then(|p| p.kind.as_ref()) {
            Some(Kind::PairingRequested(p)) => {
                *requests.entry((p.round, p.attempt)).or_default() += 1
            }
            Some(Kind::PairingProposed(p)) => {
                *answers.entry((p.round, p.attempt)).or_default() += 1
            }
            Some(Kind::PairingFailed(p)) => *answers.entry((p.round, p.attempt)).or_default() += 1,
            _ => {}
        }
    }
    let mut problems = Vec::new();
    for (k, n) in &answers {
        if *n != 1 || !requests.contains_key(k) {
            problems.push(format!(
                "{tid}: round {} attempt {}: {n} answers to {} requests",
                k.0,
                k.1,
                requests.get(k).copied().unwrap_or(0)
            ));
        }
    }
    (problems, requests.len() as u64)
}

/// An `arbiter serve` process on a data folder, restartable on the same ports.
pub struct ServerProc {
    bin: PathBuf,
    data: PathBuf,
    extra: Vec<String>,
    child: Option<Child>,
    pub grpc_port: u16,
    pub http_port: u16,
    pub url: String,
    log_path: PathBuf,
    /// The highest VmHWM seen over every run of the process, kB.
    pub peak_rss_kb: u64,
}

/// A port below the ephemeral range, free now (so a restart after kill -9 finds it free).
fn free_port() -> u16 {
    arbiter_eventlog::testing::free_port().expect("a free port")
}

impl ServerProc {
    pub fn start(bin: &Path, data: &Path, log_path: &Path) -> ServerProc {
        ServerProc::start_with(bin, data, log_path, &[])
    }

    /// `arbiter serve --data DATA EXTRA...` (e.g. `--only pairing-worker --nats URLS`).
    pub fn start_with(bin: &Path, data: &Path, log_path: &Path, extra: &[&str]) -> ServerProc {
        let mut s = ServerProc {
            bin: bin.to_path_buf(),
            data: data.to_path_buf(),
            extra: extra.iter().map(|a| a.to_string()).collect(),
            child: None,
            grpc_port: free_port(),
            http_port: free_port(),
            url: String::new(),
            log_path: log_path.to_path_buf(),
            peak_rss_kb: 0,
        };
        s.spawn().unwrap_or_else(|e| panic!("{e}"));
        s
    }

    /// Starts the process; fails if it prints no address within 60 s (a hang).
    pub fn spawn(&mut self) -> Result<Duration, String> {
        let t0 = Instant::now();
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log_path)
            .expect("log file");
        let mut child = Command::new(&self.bin)
            .arg("serve")
            .arg("--data")
            .arg(&self.data)
            .args(&self.extra)
            // Extra server flags for a diagnosis, e.g. SERVE_ARGS="--metrics-port 9464".
            .args(
                std::env::var("SERVE_ARGS")
                    .unwrap_or_default()
                    .split_whitespace(),
            )
            .args(["--grpc-port", &self.grpc_port.to_string()])
            .args(["--http-port", &self.http_port.to_string()])
            // The server's log level: warnings, unless the bench is run with SERVE_LOG set
            // (e.g. SERVE_LOG=warn,arbiter_service_kit=info for the shutdown's steps).
            .env(
                "RUST_LOG",
                std::env::var("SERVE_LOG").unwrap_or_else(|_| "warn".to_string()),
            )
            .env("ARBITER_TOKEN_KEYS", &token::auth().path)
            .stdout(Stdio::piped())
            .stderr(Stdio::from(log))
            .spawn()
            .expect("spawn arbiter serve");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut lines = BufReader::new(stdout).lines();
            if let Some(Ok(line)) = lines.next() {
                let _ = tx.send(line);
            }
            for _ in lines {}
        });
        let Ok(line) = rx.recv_timeout(Duration::from_secs(60)) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!(
                "arbiter serve printed no address within 60 s; log {}",
                self.log_path.display()
            ));
        };
        self.url = line
            .split_whitespace()
            .find_map(|w| w.strip_prefix("grpc="))
            .unwrap_or_else(|| panic!("no grpc= in {line:?}"))
            .to_string();
        self.child = Some(child);
        Ok(t0.elapsed())
    }

    pub fn pid(&self) -> Option<u32> {
        self.child.as_ref().map(Child::id)
    }

    /// The process's peak resident set (VmHWM), kB; also kept in `peak_rss_kb`.
    pub fn sample_rss(&mut self) -> u64 {
        let Some(pid) = self.pid() else { return 0 };
        let kb = std::fs::read_to_string(format!("/proc/{pid}/status"))
            .ok()
            .and_then(|s| {
                s.lines()
                    .find_map(|l| l.strip_prefix("VmHWM:"))
                    .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            })
            .unwrap_or(0);
        self.peak_rss_kb = self.peak_rss_kb.max(kb);
        kb
    }

    /// SIGKILL: no shutdown, nothing flushed beyond what was acknowledged.
    pub fn kill9(&mut self) {
        self.sample_rss();
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// SIGTERM, then waits up to `limit`; returns the exit status and the time it took, or
    /// None (and SIGKILL) if it did not stop.
    pub fn terminate(&mut self, limit: Duration) -> Option<(ExitStatus, Duration)> {
        self.sample_rss();
        let mut c = self.child.take()?;
        let t0 = Instant::now();
        let _ = Command::new("kill")
            .args(["-TERM", &c.id().to_string()])
            .status();
        loop {
            if let Some(st) = c.try_wait().expect("wait") {
                return Some((st, t0.elapsed()));
            }
            if t0.elapsed() > limit {
                let _ = c.kill();
                let _ = c.wait();
                return None;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for ServerProc {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

/// Bytes a folder takes on disk (allocated blocks, as du counts them) and its files' lengths.
pub fn disk_usage(dir: &Path) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    let mut allocated = 0;
    let mut length = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let Ok(m) = e.metadata() else { continue };
            if m.is_dir() {
                stack.push(e.path());
            } else {
                allocated += m.blocks() * 512;
                length += m.len();
            }
        }
    }
    (allocated, length)
}

/// Runs `arbiter replay ARGS`; its output on exit 0, else an error with the output. Killed
/// after 300 s.
pub fn replay(bin: &Path, args: &[&str]) -> Result<String, String> {
    let mut child = Command::new(bin)
        .arg("replay")
        .args(args)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn arbiter replay");
    let t0 = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if t0.elapsed() > Duration::from_secs(300) {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("arbiter replay {args:?} hung (300 s)"));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let out = child.wait_with_output().expect("output");
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(format!(
            "arbiter replay {args:?} exited {:?}:\n{}\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// What the log check found.
#[derive(Debug, Default)]
pub struct LogCheck {
    pub events: u64,
    /// Bytes of the stored events (`event_bytes`).
    pub bytes: u64,
    /// Pairing requests, each answered exactly once unless a problem says otherwise.
    pub pairing_requests: u64,
    /// Events and their stored bytes by kind, to see what the log is made of.
    pub kinds: BTreeMap<&'static str, (u64, u64)>,
    pub problems: Vec<String>,
}

/// Checks every tournament's stream through the server against the acknowledged commands,
/// and that every pairing request was answered once.
pub async fn check_log(url: &str, acks: &HashMap<String, Vec<Ack>>) -> LogCheck {
    let c = Clients::new(url);
    let mut out = LogCheck::default();
    let mut tids: Vec<&String> = acks.keys().collect();
    tids.sort();
    for tid in tids {
        match read_stream(&c, tid).await {
            Ok(evs) => {
                out.events += evs.len() as u64;
                out.bytes += evs.iter().map(event_bytes).sum::<u64>();
                for e in &evs {
                    let kind = e
                        .payload
                        .as_ref()
                        .map_or("none", arbiter_eventlog::kind_name);
                    let k = out.kinds.entry(kind).or_default();
                    k.0 += 1;
                    k.1 += event_bytes(e);
                }
                out.problems.extend(check_acks(tid, &evs, &acks[tid]));
                let (p, n) = check_proposals(tid, &evs);
                out.problems.extend(p);
                out.pairing_requests += n;
            }
            Err(s) => out
                .problems
                .push(format!("{tid}: cannot read the stream: {s:?}")),
        }
    }
    out
}

/// A run's figures.
pub struct Report {
    pub wall: Duration,
    pub results: u64,
    pub events_finished: u64,
    pub stored_events: u64,
    pub log_bytes: u64,
    pub pairing_requests: u64,
    pub kinds: BTreeMap<&'static str, (u64, u64)>,
    pub data_allocated: u64,
    pub data_length: u64,
    pub log_dir_allocated: u64,
    pub peak_rss_kb: u64,
    pub stop: Option<Duration>,
}

pub fn print_report(cfg: &LoadConfig, stats: &Stats, r: &Report) {
    let mb = |b: u64| b as f64 / 1_048_576.0;
    println!(
        "events {} x {} players x {} rounds (concurrency {}, {} connections, think {} ms)",
        cfg.events,
        cfg.players,
        cfg.rounds,
        cfg.concurrency,
        cfg.connections,
        cfg.think.as_millis()
    );
    println!(
        "finished events: {}/{}; wall {:.1} s; results {} ({:.0}/s); acknowledged commands {}",
        r.events_finished,
        cfg.events,
        r.wall.as_secs_f64(),
        r.results,
        r.results as f64 / r.wall.as_secs_f64().max(1e-9),
        stats.ack_count()
    );
    println!(
        "{:<22} {:>9} {:>10} {:>10} {:>10}",
        "call (ms)", "n", "p50", "p99", "max"
    );
    for (k, n, p50, p99, max) in stats.percentiles() {
        println!("{k:<22} {n:>9} {p50:>10.2} {p99:>10.2} {max:>10.2}");
    }
    let errors = stats.errors();
    println!("errors: {}", stats.error_count());
    for (k, (n, first)) in &errors {
        println!("  {k}: {n} (first: {first})");
    }
    if stats.transport_retries.load(Ordering::Relaxed) > 0 {
        println!(
            "calls sent again after a restart: {}",
            stats.transport_retries.load(Ordering::Relaxed)
        );
    }
    println!(
        "server peak RSS (VmHWM): {:.0} MB",
        r.peak_rss_kb as f64 / 1024.0
    );
    println!(
        "pairing requests: {}, each answered by exactly one proposal unless listed below",
        r.pairing_requests
    );
    println!(
        "log: {} events, {:.1} MB stored (payload + envelope fields, read back via StreamEvents)",
        r.stored_events,
        mb(r.log_bytes)
    );
    for (kind, (n, bytes)) in &r.kinds {
        println!("  {kind:<24} {n:>9} events {:>9.1} MB", mb(*bytes));
    }
    println!(
        "data folder: {:.1} MB on disk ({:.1} MB file lengths), {:.2}x the log; of which log/ {:.1} MB",
        mb(r.data_allocated),
        mb(r.data_length),
        r.data_allocated as f64 / (r.log_bytes.max(1)) as f64,
        mb(r.log_dir_allocated)
    );
    match r.stop {
        Some(d) => println!("SIGTERM to exit: {:.2} s", d.as_secs_f64()),
        None => println!("SIGTERM to exit: did not stop"),
    }
}

/// Plays a load against a fresh server on `work`, stops it (SIGTERM), and measures; the
/// acknowledged commands are checked against the log before the stop. Returns the report and
/// the problems the log check found.
pub async fn run_load(
    bin: &Path,
    work: &Path,
    cfg: &LoadConfig,
) -> (Report, Arc<Stats>, Vec<String>) {
    let data = work.join("data");
    let mut server = ServerProc::start(bin, &data, &work.join("serve.log"));
    let url = server.url.clone();
    let stats = Arc::new(Stats::default());
    let wall = play(&Urls::one(&url), cfg, stats.clone()).await;
    let check = check_log(&url, &stats.acks()).await;
    // VmHWM is the peak of the process's life: read it before the process goes.
    server.sample_rss();
    let stop = server.terminate(Duration::from_secs(60)).map(|(_, d)| d);
    let (data_allocated, data_length) = disk_usage(&data);
    let (log_dir_allocated, _) = disk_usage(&data.join("log"));
    let report = Report {
        wall,
        results: stats.results.load(Ordering::Relaxed),
        events_finished: stats.events_finished.load(Ordering::Relaxed),
        stored_events: check.events,
        log_bytes: check.bytes,
        pairing_requests: check.pairing_requests,
        kinds: check.kinds,
        data_allocated,
        data_length,
        log_dir_allocated,
        peak_rss_kb: server.peak_rss_kb,
        stop,
    };
    (report, stats, check.problems)
}
