//! End-to-end support: the real `arbiter` binary as server processes, gRPC clients of its
//! services, and a seeded tournament played through them round by round, checked against the
//! pairing engine on the TRF export after every round.

#![allow(dead_code)]

pub mod browser;
pub mod token;

use arbiter_core::tournament::BoardResult;
use arbiter_proto::common::v1::{CommandHeader, CommandResult, TournamentRef, TrfFormat};
use arbiter_proto::convert::board_result_to_wire;
use arbiter_proto::events::v1 as pb;
use arbiter_proto::registration::v1 as reg;
use arbiter_proto::registration::v1::registration_client::RegistrationClient;
use arbiter_proto::reporting::v1 as rep;
use arbiter_proto::reporting::v1::reporting_client::ReportingClient;
use arbiter_proto::round_director::v1 as rd;
use arbiter_proto::round_director::v1::round_director_client::RoundDirectorClient;
use futures::StreamExt;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};
use tonic::transport::Channel;

/// The binary under test.
pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_arbiter"))
}

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// What one run of the binary did.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs the binary to completion (at most 120 s).
pub fn run(args: &[&str]) -> Run {
    run_with(args, &[])
}

/// [`run`] with environment variables set; the caller's own `ARBITER_SERVER` and
/// `ARBITER_DATA` never reach the binary.
pub fn run_with(args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut child = Command::new(bin())
        .args(args)
        .env_remove("ARBITER_SERVER")
        .env_remove("ARBITER_DATA")
        .envs(env.iter().copied())
        .env("RUST_LOG", "warn")
        .env("ARBITER_TOKEN", &token::auth().admin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn arbiter");
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("arbiter {args:?} did not finish in 120 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().expect("output");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// An `arbiter serve` process.
pub struct Server {
    child: Option<Child>,
    args: Vec<String>,
    pub grpc: String,
    pub http: Option<String>,
    pub grpc_port: u16,
    pub http_port: u16,
    pub log_path: PathBuf,
    /// Extra environment of the process (e.g. libfaketime's, to start it in the future).
    pub env: Vec<(String, String)>,
}

/// A quiet time longer than any test (see [`Server::start`]).
pub const QUIET_SIGNING_OFF: &str = "3600000";

fn port_of(url: &str) -> u16 {
    url.rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .unwrap_or(0)
}

impl Server {
    /// Starts `arbiter serve ARGS` on free ports; its log (stderr) is appended to `log_path`.
    /// Ports come from below the ephemeral range (so restarts after kill -9 find them free);
    /// a port taken by another test between choosing and binding is retried on fresh ports.
    pub fn start(args: &[&str], log_path: &Path) -> Server {
        let mut last = String::new();
        for _ in 0..5 {
            let port = || arbiter_eventlog::testing::free_port().expect("a free port");
            let mut s = Server {
                child: None,
                args: args.iter().map(|a| a.to_string()).collect(),
                grpc: String::new(),
                http: None,
                grpc_port: port(),
                http_port: port(),
                log_path: log_path.to_path_buf(),
                env: Vec::new(),
            };
            match s.try_spawn() {
                Ok(()) => return s,
                Err(e) => last = e,
            }
        }
        panic!("{last}")
    }

    /// Starts `arbiter serve ARGS` with its HTTP port chosen by the caller (whose arguments
    /// name it, e.g. in a URL the server must know); an error when the port was taken.
    pub fn try_start_with_http_port(
        args: &[&str],
        log_path: &Path,
        http_port: u16,
    ) -> Result<Server, String> {
        let mut s = Server {
            child: None,
            args: args.iter().map(|a| a.to_string()).collect(),
            grpc: String::new(),
            http: None,
            grpc_port: arbiter_eventlog::testing::free_port().expect("a free port"),
            http_port,
            log_path: log_path.to_path_buf(),
            env: Vec::new(),
        };
        s.try_spawn().map(|()| s)
    }

    fn spawn(&mut self) {
        if let Err(e) = self.try_spawn() {
            panic!("{e}");
        }
    }

    fn try_spawn(&mut self) -> Result<(), String> {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log_path)
            .expect("log file");
        let mut child = Command::new(bin())
            .arg("serve")
            .args(&self.args)
            .args(["--grpc-port", &self.grpc_port.to_string()])
            .args(["--http-port", &self.http_port.to_string()])
            .env("RUST_LOG", "info")
            .env("ARBITER_TOKEN_KEYS", &token::auth().path)
            // Heads of changes other than publications, closes and finishes are signed only at
            // shutdown and start (not after a quiet time), so that what a test counts does not
            // depend on how long it took; a test of that signing passes the flag itself.
            .env("ARBITER_HEAD_SIGNING_QUIET_MS", QUIET_SIGNING_OFF)
            .envs(self.env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
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
        let line = match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(l) => l,
            Err(_) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "arbiter serve {:?} (grpc port {}, http port {}) printed no address; log:\n{}",
                    self.args,
                    self.grpc_port,
                    self.http_port,
                    std::fs::read_to_string(&self.log_path).unwrap_or_default()
                ));
            }
        };
        let field = |name: &str| {
            line.split_whitespace()
                .find_map(|w| w.strip_prefix(name).map(str::to_string))
        };
        self.grpc = field("grpc=").unwrap_or_else(|| panic!("no grpc= in {line:?}"));
        self.http = field("http=");
        self.grpc_port = port_of(&self.grpc);
        self.http_port = self.http.as_deref().map_or(0, port_of);
        self.child = Some(child);
        Ok(())
    }

    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("running").id()
    }

    /// SIGKILL: no shutdown, no final checkpoint.
    pub fn kill9(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// Starts the process again with the same arguments and ports.
    pub fn restart(&mut self) {
        assert!(self.child.is_none(), "still running");
        self.spawn();
    }

    /// SIGINT (Ctrl-C), then waits up to 30 s for a clean exit.
    pub fn interrupt(&mut self) -> ExitStatus {
        let mut c = self.child.take().expect("running");
        let _ = Command::new("kill")
            .args(["-INT", &c.id().to_string()])
            .status();
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Some(status) = c.try_wait().expect("wait") {
                return status;
            }
            if Instant::now() > deadline {
                let _ = c.kill();
                panic!("arbiter serve did not stop within 30 s of SIGINT");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// SIGTERM; returns the exit status and the time from the signal to the exit (the process
    /// is killed after 30 s).
    pub fn terminate(&mut self) -> (ExitStatus, Duration) {
        let mut c = self.child.take().expect("running");
        let sent = Instant::now();
        let _ = Command::new("kill")
            .args(["-TERM", &c.id().to_string()])
            .status();
        loop {
            if let Some(status) = c.try_wait().expect("wait") {
                return (status, sent.elapsed());
            }
            if sent.elapsed() > Duration::from_secs(30) {
                let _ = c.kill();
                panic!("arbiter serve did not stop within 30 s of SIGTERM");
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// The process's log so far.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log_path).unwrap_or_default()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill9();
    }
}

/// Where each service answers.
#[derive(Debug, Clone)]
pub struct Endpoints {
    pub registration: String,
    pub director: String,
    pub reporting: String,
}

impl Endpoints {
    pub fn one(url: &str) -> Endpoints {
        Endpoints {
            registration: url.into(),
            director: url.into(),
            reporting: url.into(),
        }
    }
}

/// A channel to `url` whose calls carry the tests' admin token.
pub fn channel(url: &str) -> Authed {
    token::admin(
        Channel::from_shared(url.to_string())
            .expect("url")
            .connect_timeout(Duration::from_secs(5))
            .timeout(Duration::from_secs(60))
            .connect_lazy(),
    )
}

pub type Authed = arbiter_auth::client::WithToken<Channel>;

/// gRPC clients of the services.
#[derive(Clone)]
pub struct Clients {
    pub reg: RegistrationClient<Authed>,
    pub rd: RoundDirectorClient<Authed>,
    pub rep: ReportingClient<Authed>,
}

impl Clients {
    pub fn new(e: &Endpoints) -> Clients {
        Clients {
            reg: RegistrationClient::new(channel(&e.registration)),
            rd: RoundDirectorClient::new(channel(&e.director)),
            rep: ReportingClient::new(channel(&e.reporting)),
        }
    }
}

/// The request for a tournament's whole log, as stored (`raw`: with the payloads' bytes).
pub fn whole_log(tid: &str, raw: bool) -> rep::StreamEventsRequest {
    rep::StreamEventsRequest {
        tournament: Some(arbiter_proto::common::v1::TournamentRef {
            tournament_id: tid.into(),
            as_of_version: 0,
        }),
        from_version: 1,
        follow: false,
        raw_payload: raw,
    }
}

/// The events of a log read with [`whole_log`] by any reporting client.
pub async fn collect_log(
    answer: Result<tonic::Response<tonic::Streaming<pb::Envelope>>, tonic::Status>,
) -> Result<Vec<pb::Envelope>, tonic::Status> {
    let mut s = answer?.into_inner();
    let mut out = Vec::new();
    while let Some(e) = s.next().await {
        out.push(e?);
    }
    Ok(out)
}

/// Every event of the tournament's log, as the admin reads it.
pub async fn log_of(c: &mut Clients, tid: &str) -> Vec<pb::Envelope> {
    collect_log(c.rep.stream_events(whole_log(tid, false)).await)
        .await
        .unwrap_or_else(|e| panic!("the log of {tid}: {e:?}"))
}

/// The payloads of [`log_of`] with their actors.
pub async fn kinds_by_actor(c: &mut Clients, tid: &str) -> Vec<(String, pb::event::Kind)> {
    log_of(c, tid)
        .await
        .into_iter()
        .filter_map(|e| Some((e.actor, e.payload?.kind?)))
        .collect()
}

/// Every registered player's name by pairing number.
pub async fn names_of(c: &mut Clients, tid: &str) -> BTreeMap<u32, String> {
    c.reg
        .list_players(reg::ListPlayersRequest {
            tournament: tref(tid),
        })
        .await
        .unwrap_or_else(|e| panic!("the players of {tid}: {e:?}"))
        .into_inner()
        .players
        .into_iter()
        .filter_map(|r| Some((r.pairing_number, r.player?.name)))
        .collect()
}

pub fn header(tid: &str, command_id: &str) -> Option<CommandHeader> {
    Some(CommandHeader {
        tournament_id: tid.into(),
        command_id: command_id.into(),
        expected_version: None,
        actor: "e2e".into(),
    })
}

pub fn tref(tid: &str) -> Option<TournamentRef> {
    Some(TournamentRef {
        tournament_id: tid.into(),
        as_of_version: 0,
    })
}

/// Retries a call while the service is unreachable (a process restarting), up to 30 s.
pub async fn retry<T, F, Fut>(what: &str, mut f: F) -> Result<T, tonic::Status>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, tonic::Status>>,
{
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        match f().await {
            Err(s) if s.code() == tonic::Code::Unavailable && Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(s) if s.code() == tonic::Code::Unavailable => {
                panic!("{what}: still unavailable after 30 s: {s:?}")
            }
            other => return other,
        }
    }
}

/// A board result with its wire form.
pub fn wire(r: BoardResult) -> (i32, i32, i32) {
    let (a, b, c) = board_result_to_wire(r);
    (a as i32, b, c)
}

/// The pairing of a round as `arbiter pair` prints it: `(white, black)` in board order and the
/// bye.
pub type Pairing = (Vec<(u32, u32)>, Option<u32>);

/// Parses `arbiter pair` output: the number of pairs, then "white black" lines ("p 0" = bye).
pub fn parse_pair_output(s: &str) -> Pairing {
    let mut lines = s.lines();
    let n: usize = lines.next().expect("count").trim().parse().expect("count");
    let mut boards = Vec::new();
    let mut bye = None;
    for l in lines.take(n) {
        let mut it = l
            .split_whitespace()
            .map(|x| x.parse::<u32>().expect("number"));
        let (w, b) = (it.next().expect("white"), it.next().expect("black"));
        if b == 0 {
            bye = Some(w);
        } else {
            boards.push((w, b));
        }
    }
    (boards, bye)
}

/// The pairing in a reporting answer.
pub fn pairing_of(p: &rep::RoundPairings) -> Pairing {
    let boards = p
        .boards
        .iter()
        .filter_map(|b| b.board)
        .map(|b| (b.white, b.black))
        .collect();
    let bye = p
        .unpaired
        .iter()
        .find(|u| u.code == pb::ResultCode::PairingBye as i32)
        .map(|u| u.player_id);
    (boards, bye)
}

/// The scenario of a tournament: players, rounds, seed, and what happens when.
#[derive(Debug, Clone)]
pub struct Plan {
    pub players: u32,
    pub rounds: u32,
    pub seed: u64,
    /// (player, round, kind) requested before round 1.
    pub early_byes: Vec<(u32, u32, pb::ByeKind)>,
    /// (after closing round, player, round) half-point byes requested during the event.
    pub late_byes: Vec<(u32, u32, u32)>,
    /// (after closing round, player): withdraws from the next round on.
    pub withdrawals: Vec<(u32, u32)>,
    /// Per mille of games lost by forfeit.
    pub forfeit_permille: u32,
}

impl Plan {
    /// 40 players, 9 rounds: four half-point byes and a zero-point bye announced before the
    /// start, two half-point byes asked during the event, one withdrawal after round 5,
    /// forfeits in about 5 % of the games.
    pub fn swiss_40x9() -> Plan {
        Plan {
            players: 40,
            rounds: 9,
            seed: 20_260_101,
            early_byes: vec![
                (7, 3, pb::ByeKind::HalfPoint),
                (22, 5, pb::ByeKind::HalfPoint),
                (31, 2, pb::ByeKind::HalfPoint),
                (31, 8, pb::ByeKind::HalfPoint),
                (12, 4, pb::ByeKind::ZeroPoint),
            ],
            late_byes: vec![(4, 3, 7), (6, 18, 9)],
            withdrawals: vec![(5, 38)],
            forfeit_permille: 50,
        }
    }
}

/// Plays a tournament through the services and keeps count of what it should have written.
pub struct Driver {
    pub c: Clients,
    pub tid: String,
    pub plan: Plan,
    rng: ChaCha8Rng,
    ratings: BTreeMap<u32, i32>,
    /// Events the commands appended (replays excluded).
    pub expected_events: u64,
    /// The last command sent, for re-sending it.
    pub last_result: Option<(String, rd::RecordResultRequest)>,
    pub work: PathBuf,
    pub forfeits: u32,
    pub pairing_byes: u32,
    /// The Swiss system the tournament is created with, and its rule set ("" for the Dutch
    /// rule set in force on the start date).
    pub system: (pb::PairingSystem, &'static str),
}

impl Driver {
    pub fn new(c: Clients, tid: &str, plan: Plan, work: &Path) -> Driver {
        Driver {
            c,
            tid: tid.into(),
            rng: ChaCha8Rng::seed_from_u64(plan.seed),
            plan,
            ratings: BTreeMap::new(),
            expected_events: 0,
            last_result: None,
            work: work.to_path_buf(),
            forfeits: 0,
            pairing_byes: 0,
            system: (pb::PairingSystem::Dutch, ""),
        }
    }

    /// The same driver for a tournament of another Swiss system (`rule_set`: e.g. "dubov").
    pub fn with_system(mut self, system: pb::PairingSystem, rule_set: &'static str) -> Driver {
        self.system = (system, rule_set);
        self
    }

    fn count(&mut self, r: &CommandResult) {
        if !r.replayed {
            self.expected_events += r.last_version - r.first_version + 1;
        }
    }

    pub async fn create(&mut self) {
        let reg = self.c.reg.clone();
        let tid = self.tid.clone();
        let rounds = self.plan.rounds;
        let (system, rule_set) = self.system;
        let r = retry("create", || {
            let mut reg = reg.clone();
            let tid = tid.clone();
            async move {
                reg.create_tournament(reg::CreateTournamentRequest {
                    header: header(&tid, "create"),
                    tournament: Some(arbiter_proto::registration::v1::TournamentSettings {
                        name: "End-to-end Open".into(),
                        place: "Loopback".into(),
                        federation: "NOR".into(),
                        start_date: Some(pb::Date {
                            year: 2025,
                            month: 9,
                            day: 1,
                        }),
                        end_date: Some(pb::Date {
                            year: 2025,
                            month: 9,
                            day: 9,
                        }),
                        chief_arbiter: Some(pb::Arbiter {
                            name: "Arbiter, Chief".into(),
                            fide_id: None,
                            title: "IA".into(),
                        }),
                        pairing_system: system as i32,
                        rule_set: rule_set.to_string(),
                        rounds,
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
        .expect("create")
        .into_inner();
        assert_eq!(r.tournament_id, self.tid);
        self.count(&r);
    }

    pub async fn register_all(&mut self) {
        for i in 1..=self.plan.players {
            let rating: u32 = self.rng.random_range(1400..2700);
            let r = self
                .c
                .reg
                .register_player(reg::RegisterPlayerRequest {
                    confirm_same_name: false,
                    header: header(&self.tid, &format!("register-{i}")),
                    player: Some(arbiter_proto::registration::v1::PlayerDetails {
                        name: format!("Player, {i:03}"),
                        fide_id: Some(1_000_000 + i as u64),
                        rating,
                        federation: "NOR".into(),
                        ..Default::default()
                    }),
                })
                .await
                .expect("register")
                .into_inner();
            self.count(&r);
        }
        let players = self
            .c
            .reg
            .list_players(reg::ListPlayersRequest {
                tournament: tref(&self.tid),
            })
            .await
            .expect("players")
            .into_inner();
        assert_eq!(players.players.len() as u32, self.plan.players);
        for r in players.players {
            let rating = r.player.map_or(0, |p| p.rating);
            self.ratings.insert(r.pairing_number, rating as i32);
        }
        for (player, round, kind) in self.plan.early_byes.clone() {
            self.bye(player, round, kind).await;
        }
    }

    pub async fn bye(&mut self, player: u32, round: u32, kind: pb::ByeKind) {
        let r = self
            .c
            .reg
            .request_bye(reg::RequestByeRequest {
                header: header(&self.tid, &format!("bye-{player}-{round}")),
                pairing_number: player,
                round,
                kind: kind as i32,
                ..Default::default()
            })
            .await
            .expect("bye")
            .into_inner();
        self.count(&r);
    }

    pub async fn withdraw(&mut self, player: u32) {
        let r = self
            .c
            .reg
            .withdraw_player(reg::WithdrawPlayerRequest {
                header: header(&self.tid, &format!("withdraw-{player}")),
                pairing_number: player,
                from_round: 0,
                reason: "withdrew".into(),
                ..Default::default()
            })
            .await
            .expect("withdraw")
            .into_inner();
        self.count(&r);
    }

    /// Starts round `r` (retrying while the director restarts).
    pub async fn start_round(&mut self, round: u32) {
        let rd = self.c.rd.clone();
        let tid = self.tid.clone();
        let r = retry("start round", || {
            let mut rd = rd.clone();
            let tid = tid.clone();
            async move {
                rd.start_round(rd::StartRoundRequest {
                    header: header(&tid, &format!("start-{round}")),
                    round,
                    scheduled_unix_ms: 0,
                })
                .await
            }
        })
        .await
        .expect("start round")
        .into_inner();
        self.count(&r);
    }

    /// Waits (up to `wait`) for the pairing worker's proposal of `round`; counts its event.
    pub async fn wait_proposal(&mut self, round: u32, wait: Duration) -> rep::RoundPairings {
        let deadline = Instant::now() + wait;
        loop {
            let got = self
                .c
                .rep
                .get_pairings(rep::GetPairingsRequest {
                    tournament: tref(&self.tid),
                    round,
                })
                .await;
            match got {
                Ok(p) => {
                    self.expected_events += 1;
                    return p.into_inner();
                }
                Err(s)
                    if matches!(s.code(), tonic::Code::NotFound | tonic::Code::Unavailable)
                        && Instant::now() < deadline =>
                {
                    tokio::time::sleep(Duration::from_millis(30)).await;
                }
                Err(s) => panic!("no proposal for round {round} within {wait:?}: {s:?}"),
            }
        }
    }

    pub async fn export(&mut self) -> String {
        let r = self
            .c
            .rep
            .export_trf(rep::ExportTrfRequest {
                tournament: tref(&self.tid),
                format: TrfFormat::Trf16 as i32,
            })
            .await
            .expect("export")
            .into_inner();
        String::from_utf8(r.trf).expect("utf-8")
    }

    /// The proposal of `round` must be what `arbiter pair` (the binary) and
    /// `arbiter_pairing::pair` (in process) give on the TRF export taken now.
    pub async fn check_proposal(&mut self, round: u32, proposal: &rep::RoundPairings) {
        assert!(!proposal.published, "round {round}: already published");
        let text = self.export().await;
        let path = self.work.join(format!("before-round-{round}.trf"));
        std::fs::write(&path, &text).expect("write export");
        let rule_set = match self.system.1 {
            "" => "dutch-2025",
            other => other,
        };
        let out = run(&["pair", "--system", rule_set, path.to_str().expect("path")]);
        assert_eq!(out.code, 0, "arbiter pair: {}", out.stderr);
        let cli = parse_pair_output(&out.stdout);
        let served = pairing_of(proposal);
        assert_eq!(
            served, cli,
            "round {round}: the pairing worker's proposal differs from `arbiter pair` on the export"
        );
        let file = arbiter_trf::parse(&text).expect("export parses").file;
        let record = arbiter_pairing::trf::record_from_trf(&file).expect("record");
        assert_eq!(record.next_round(), round);
        let input = record
            .input_for_round(round, rule_set.parse().expect("a rule set"))
            .expect("input");
        let p = arbiter_pairing::pair(&input).expect("engine pairs");
        let in_process: Pairing = (p.boards.iter().map(|b| (b.white, b.black)).collect(), p.bye);
        assert_eq!(
            served, in_process,
            "round {round}: differs from arbiter_pairing::pair"
        );
        self.pairing_byes += served.1.is_some() as u32;
    }

    pub async fn publish(&mut self, round: u32) {
        let rd = self.c.rd.clone();
        let tid = self.tid.clone();
        let r = retry("publish", || {
            let mut rd = rd.clone();
            let tid = tid.clone();
            async move {
                rd.publish_pairing(rd::PublishPairingRequest {
                    header: header(&tid, &format!("publish-{round}")),
                    round,
                    proposal_version: 0,
                    boards: vec![],
                    unpaired: vec![],
                    by_entry: false,
                    numbering_version: None,
                    note: String::new(),
                    team_bye: 0,
                    team_matches: Vec::new(),
                })
                .await
            }
        })
        .await
        .expect("publish")
        .into_inner();
        self.count(&r);
    }

    /// A seeded result for a game between two ratings.
    fn random_result(&mut self, white: u32, black: u32) -> BoardResult {
        if self.rng.random_range(0..1000) < self.plan.forfeit_permille {
            self.forfeits += 1;
            return if self.rng.random_bool(0.5) {
                BoardResult::WhiteWinsForfeit
            } else {
                BoardResult::BlackWinsForfeit
            };
        }
        if self.rng.random_range(0..100) < 30 {
            return BoardResult::Draw;
        }
        let d = self.ratings.get(&white).copied().unwrap_or(0)
            - self.ratings.get(&black).copied().unwrap_or(0);
        if self.rng.random_range(0..1000) < (500 + d).clamp(50, 950) {
            BoardResult::WhiteWins
        } else {
            BoardResult::BlackWins
        }
    }

    /// Records results for boards `boards` of `round` (retrying while the director restarts).
    pub async fn results(&mut self, round: u32, pairing: &Pairing, boards: std::ops::Range<usize>) {
        for i in boards {
            let (w, b) = pairing.0[i];
            let result = self.random_result(w, b);
            let (res, wc, bc) = wire(result);
            let command_id = format!("result-{round}-{}", i + 1);
            let req = rd::RecordResultRequest {
                header: header(&self.tid, &command_id),
                round,
                board: i as u32 + 1,
                result: res,
                white_code: wc,
                black_code: bc,
            };
            let rd = self.c.rd.clone();
            let r = retry("record result", || {
                let mut rd = rd.clone();
                let req = req.clone();
                async move { rd.record_result(req).await }
            })
            .await
            .expect("record result")
            .into_inner();
            self.count(&r);
            self.last_result = Some((command_id, req));
        }
    }

    pub async fn close(&mut self, round: u32) {
        let rd = self.c.rd.clone();
        let tid = self.tid.clone();
        let r = retry("close", || {
            let mut rd = rd.clone();
            let tid = tid.clone();
            async move {
                rd.close_round(rd::CloseRoundRequest {
                    header: header(&tid, &format!("close-{round}")),
                    round,
                })
                .await
            }
        })
        .await
        .expect("close")
        .into_inner();
        self.count(&r);
    }

    /// The export after closing `round` re-pairs identically, round by round, with
    /// `arbiter check` (the binary).
    pub async fn check_export(&mut self, round: u32) -> String {
        let text = self.export().await;
        let path = self.work.join(format!("after-round-{round}.trf"));
        std::fs::write(&path, &text).expect("write export");
        let out = match self.system.1 {
            "" => run(&["check", path.to_str().expect("path")]),
            rule_set => run(&["check", "--system", rule_set, path.to_str().expect("path")]),
        };
        assert_eq!(
            out.code, 0,
            "arbiter check after round {round}:\n{}\n{}",
            out.stdout, out.stderr
        );
        assert!(
            out.stdout
                .contains(&format!("{round}/{round} rounds identical")),
            "{}",
            out.stdout
        );
        text
    }

    /// Plays round `round` from start to close, with every check.
    pub async fn play_round(&mut self, round: u32) {
        self.start_round(round).await;
        let proposal = self.wait_proposal(round, Duration::from_secs(60)).await;
        self.check_proposal(round, &proposal).await;
        self.publish(round).await;
        let pairing = pairing_of(&proposal);
        let n = pairing.0.len();
        self.results(round, &pairing, 0..n).await;
        self.close(round).await;
        self.after_close(round).await;
    }

    /// What the plan does after a round is closed, then the export check.
    pub async fn after_close(&mut self, round: u32) {
        for (after, player, r) in self.plan.late_byes.clone() {
            if after == round {
                self.bye(player, r, pb::ByeKind::HalfPoint).await;
            }
        }
        for (after, player) in self.plan.withdrawals.clone() {
            if after == round {
                self.withdraw(player).await;
            }
        }
        self.check_export(round).await;
    }

    pub async fn finish(&mut self) {
        let r = self
            .c
            .rd
            .finish_tournament(rd::FinishTournamentRequest {
                header: header(&self.tid, "finish"),
            })
            .await
            .expect("finish")
            .into_inner();
        self.count(&r);
    }

    pub async fn version(&mut self) -> u64 {
        self.c
            .rd
            .get_tournament(rd::GetTournamentRequest {
                tournament: tref(&self.tid),
            })
            .await
            .expect("get tournament")
            .into_inner()
            .version
    }

    /// Every event of the stream, as stored.
    pub async fn events(&mut self) -> Vec<pb::Envelope> {
        log_of(&mut self.c, &self.tid).await
    }

    /// Events of the stream the tournament's own commands caused: all but the rating
    /// worker's, which it appends after results and at the end whenever it gets to them, and
    /// the round director's signed heads, which a restart appends for what it had not signed,
    /// so that "nothing lost or added" can be checked while they work.
    pub async fn own_events(&mut self) -> usize {
        self.events()
            .await
            .iter()
            .filter(|e| {
                e.actor != arbiter_rating_worker::SERVICE
                    && e.actor != arbiter_round_director::SERVICE
            })
            .count()
    }

    /// Every event of the stream, checked: versions 1..=n without gaps, one proposal per
    /// request, one publication per round, one result per board, one close per round.
    pub async fn check_stream(&mut self) -> Vec<pb::Envelope> {
        let events = self.events().await;
        for (i, e) in events.iter().enumerate() {
            assert_eq!(e.version, i as u64 + 1, "versions must be 1..=n");
        }
        use pb::event::Kind;
        let mut requests = BTreeMap::new();
        let mut proposals = BTreeMap::new();
        let mut published = BTreeMap::new();
        let mut results = BTreeMap::new();
        let mut closed = BTreeMap::new();
        let mut boards_per_round = BTreeMap::new();
        for e in &events {
            match e.payload.as_ref().and_then(|p| p.kind.as_ref()) {
                Some(Kind::PairingRequested(p)) => {
                    *requests.entry((p.round, p.attempt)).or_insert(0) += 1
                }
                Some(Kind::PairingProposed(p)) => {
                    *proposals.entry((p.round, p.attempt)).or_insert(0) += 1
                }
                Some(Kind::PairingPublished(p)) => {
                    *published.entry(p.round).or_insert(0) += 1;
                    boards_per_round.insert(p.round, p.boards.len());
                }
                Some(Kind::ResultRecorded(r)) => {
                    *results.entry((r.round, r.board)).or_insert(0) += 1
                }
                Some(Kind::RoundClosed(r)) => *closed.entry(r.round).or_insert(0) += 1,
                _ => {}
            }
        }
        for (k, n) in &requests {
            assert_eq!(
                proposals.get(k),
                Some(&1),
                "request {k:?} ({n}) answered once"
            );
        }
        assert_eq!(
            proposals.len(),
            requests.len(),
            "no proposal without a request"
        );
        for (round, boards) in &boards_per_round {
            assert_eq!(
                published.get(round),
                Some(&1),
                "round {round} published once"
            );
            assert_eq!(closed.get(round), Some(&1), "round {round} closed once");
            for b in 1..=*boards as u32 {
                assert_eq!(
                    results.get(&(*round, b)),
                    Some(&1),
                    "round {round} board {b}: one result"
                );
            }
        }
        // Other services (e.g. ratings) may add their own facts to the stream; the tournament's
        // events are the ones the driver's commands and the pairing worker wrote.
        let tournament_events = events
            .iter()
            .filter(|e| {
                e.payload.as_ref().is_some_and(|p| {
                    matches!(arbiter_proto::convert::event_from_wire(p), Ok(Some(_)))
                })
            })
            .count();
        assert_eq!(
            tournament_events as u64, self.expected_events,
            "every acknowledged command's events, each once"
        );
        // One append per command id: its events are consecutive versions.
        let mut ranges: BTreeMap<&str, (u64, u64, u64)> = BTreeMap::new();
        for e in &events {
            let r = ranges
                .entry(e.command_id.as_str())
                .or_insert((e.version, e.version, 0));
            r.1 = e.version;
            r.2 += 1;
        }
        for (id, (first, last, n)) in ranges {
            assert_eq!(
                last - first + 1,
                n,
                "command {id:?} appended more than once"
            );
        }
        events
    }
}

/// A scratch folder removed on drop.
pub use arbiter_eventlog::testing::TempDir;

/// The events of a stream as (version, kind).
pub fn kinds(events: &[pb::Envelope]) -> Vec<(u64, &'static str)> {
    events
        .iter()
        .map(|e| {
            (
                e.version,
                e.payload
                    .as_ref()
                    .map(arbiter_eventlog::kind_name)
                    .unwrap_or("none"),
            )
        })
        .collect()
}

/// A plain HTTP/1.1 GET: (status, body).
pub fn http_get(base: &str, path: &str) -> (u16, String) {
    http_request(base, "GET", path, &[], "")
}

/// A plain HTTP/1.1 request with extra header lines ("Name: value") and a body: (status, body).
pub fn http_request(
    base: &str,
    method: &str,
    path: &str,
    headers: &[String],
    body: &str,
) -> (u16, String) {
    use std::io::{Read, Write};
    let addr = base.trim_start_matches("http://");
    let mut s = std::net::TcpStream::connect(addr).expect("connect http");
    s.set_read_timeout(Some(Duration::from_secs(30))).ok();
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for h in headers {
        head.push_str(h);
        head.push_str("\r\n");
    }
    if method != "GET" {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    write!(s, "{head}\r\n{body}").expect("send");
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).expect("read");
    let text = String::from_utf8_lossy(&buf).into_owned();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    (status, body)
}
