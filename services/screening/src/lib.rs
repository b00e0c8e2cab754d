//! The screening service (docs/src/rules/fair-play.md): games in, advisory fair-play screening out.
//!
//! - `SubmitGame` (gRPC, arbiters): one game's PGN per board of a published pairing, checked
//!   against it (the aggregate's rules: `arbiter_core::tournament::SubmitGame`) and for
//!   legality (`arbiter_screening::pgn`), appended as `GameSubmitted`.
//! - The worker follows every tournament stream. On `RoundClosed` of round R it screens every
//!   game submitted for rounds 1..=R (the player's performance in the event so far:
//!   the unit of testing is the performance, accumulated round by round) and appends one
//!   `PlayerScreeningComputed` per player and one `ScreeningFlagRaised` per performance whose
//!   flag level is above `none` ([`answer`]). Games submitted after their round closed count
//!   from the next closed round on.
//! - `SubmitGames` (gRPC, arbiters): a round's PGN file; each game matched to its board by its
//!   players' registered names and checked as `SubmitGame` checks one; all or nothing, one
//!   append ([`games_file`] cuts the file into the games' own texts).
//! - `RunFullTest` (arbiters, fair-play officers): the full test over the games so far, tier
//!   `full`: 20 ranked candidates per position at the full profile's budget, the full
//!   baseline's move-probability laws, the combined indicator and the IPR (docs/src/rules/fair-play.md).
//! - `GetScreening` (admins, arbiters of the tournament, fair-play officers): the screening
//!   events of a tournament. Confidential: not a public read, never on the pages. Every read
//!   of `GetScreening` and `RunFullTest` first appends `ConfidentialDataAccessed` (who, role,
//!   what, the reason given) under its own command id; no record, no answer.
//!
//! Like the rating worker: what is appended is a function of the stream up to the trigger and
//! of the versions the events carry; its command id is derived from the trigger's event id
//! ([`command_id`]), so handling a trigger twice appends nothing; a start-up sweep answers
//! triggers left unanswered (both run by the service kit's `TriggerFollower`). The engines are Stockfish processes (one thread each) driven
//! over pipes; the statistics run on the service kit's background pool. Without an engine the
//! service logs why and screens nothing (games are still accepted); the other services do not
//! notice.

pub mod answer;
pub mod games_file;
mod service;
pub mod webhook;

pub use answer::{Screener, Submitted, Tier};
pub use service::ScreeningService;

use arbiter_eventlog::{CheckpointStore, EventLog, StoredEvent};
use arbiter_proto::events::v1 as pb;
use arbiter_proto::events::v1::event::Kind;
use arbiter_screening::cache::PositionCache;
use arbiter_service_kit::Host;
use arbiter_service_kit::store::{TournamentStore, tournament_of};
/// The worker's counts (the same for every trigger worker).
pub use arbiter_service_kit::trigger::WorkerStats;
use arbiter_service_kit::trigger::{TriggerHandler, TriggerWorker, append_answer};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use tokio::sync::OnceCell;
use tracing::{Instrument, debug, error, info, info_span, warn};

/// The service's name: actor of its appends, key of its checkpoints, durable consumer name.
pub const SERVICE: &str = "screening";

/// The command id of what the worker appends for the event `event_id`.
pub fn command_id(event_id: impl std::fmt::Display) -> String {
    format!("{SERVICE}:{event_id}")
}

/// The service's settings.
#[derive(Debug, Clone)]
pub struct Config {
    /// The UCI engine; `None`: `$STOCKFISH_PATH`, `stockfish` on PATH, /usr/games/stockfish.
    pub stockfish: Option<PathBuf>,
    /// Nodes per position of the quick test (default: the shipped baseline's profile, spec
    /// §5.4; another budget is recorded in the events and makes them provisional).
    pub nodes: u64,
    /// Nodes per position of the on-demand full test (default: the full baseline's profile).
    pub deep_nodes: u64,
    /// Engine processes per test (one thread each).
    pub workers: usize,
    /// Where the position cache is kept across restarts, one file per engine binary (an
    /// upgraded engine starts a new file); `None`: in memory only.
    pub cache_dir: Option<PathBuf>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            stockfish: None,
            nodes: arbiter_screening::uci::EngineProfile::quick().nodes,
            deep_nodes: arbiter_screening::uci::EngineProfile::full().nodes,
            workers: 1,
            cache_dir: None,
        }
    }
}

/// The engine pools, started on first use (the quick one by the worker at start).
pub struct Engines {
    config: Config,
    engine: Result<PathBuf, String>,
    cache: Arc<PositionCache>,
    /// The cache's file and the number of positions it held when last written (the lock also
    /// keeps two writes from racing on the temporary file).
    cache_file: Option<(PathBuf, std::sync::Mutex<usize>)>,
    quick: OnceCell<Arc<Screener>>,
    deep: OnceCell<Arc<Screener>>,
}

impl Engines {
    pub fn new(config: Config) -> Engines {
        // A path given explicitly is taken as it is by the library: check it here, so that a
        // wrong one is said at start rather than at the first closed round.
        let engine = arbiter_screening::uci::find_engine(config.stockfish.as_deref())
            .map_err(|e| e.to_string())
            .and_then(|p| {
                if p.is_file() {
                    Ok(p)
                } else {
                    Err(format!("engine {}: no such file", p.display()))
                }
            });
        let (cache, cache_file) = match (&engine, &config.cache_dir) {
            (Ok(binary), Some(dir)) => open_cache(binary, dir),
            _ => (PositionCache::new(), None),
        };
        Engines {
            config,
            engine,
            cache: Arc::new(cache),
            cache_file,
            quick: OnceCell::new(),
            deep: OnceCell::new(),
        }
    }

    /// Writes the position cache to its file if it grew since the last write. A failure is
    /// logged: the cache only saves work, it decides nothing.
    pub fn persist(&self) {
        let Some((path, saved)) = &self.cache_file else {
            return;
        };
        // A write that panicked left nothing half-done in memory: carry on from its count.
        let mut saved = saved.lock().unwrap_or_else(|p| p.into_inner());
        let len = self.cache.len();
        if len == *saved {
            return;
        }
        match self.cache.save(path) {
            Ok(()) => {
                debug!(positions = len, file = %path.display(), "screening cache written");
                *saved = len;
            }
            Err(e) => warn!(error = %e, "cannot write the screening cache"),
        }
    }

    /// [`Engines::persist`] off the async threads.
    pub async fn persist_in_background(self: &Arc<Self>) {
        let me = self.clone();
        if let Err(e) = tokio::task::spawn_blocking(move || me.persist()).await {
            warn!(error = %e, "writing the screening cache stopped");
        }
    }

    /// The engine binary, or why there is none.
    pub fn engine(&self) -> Result<&PathBuf, &str> {
        self.engine.as_ref().map_err(|e| e.as_str())
    }

    pub fn cache(&self) -> &Arc<PositionCache> {
        &self.cache
    }

    async fn pool(&self, tier: Tier) -> Result<Arc<Screener>, String> {
        let engine = self.engine()?.clone();
        let (cell, nodes) = match tier {
            Tier::Quick => (&self.quick, self.config.nodes),
            Tier::Full => (&self.deep, self.config.deep_nodes),
        };
        cell.get_or_try_init(|| async {
            Screener::start(
                &engine,
                tier,
                nodes,
                self.config.workers,
                self.cache.clone(),
            )
            .await
            .map(Arc::new)
            .map_err(|e| e.to_string())
        })
        .await
        .cloned()
    }

    pub async fn quick(&self) -> Result<Arc<Screener>, String> {
        self.pool(Tier::Quick).await
    }

    pub async fn deep(&self) -> Result<Arc<Screener>, String> {
        self.pool(Tier::Full).await
    }
}

/// The cache file of `binary` in `dir` (named by the first 16 hex digits of the binary's
/// SHA-256: positions analysed by another engine build are never reused), loaded. An unreadable
/// file is logged and set aside (`.unreadable`), and the cache starts empty.
fn open_cache(
    binary: &std::path::Path,
    dir: &std::path::Path,
) -> (PositionCache, Option<(PathBuf, std::sync::Mutex<usize>)>) {
    let sha = match arbiter_screening::uci::binary_sha256(binary) {
        Ok(s) => s,
        Err(e) => {
            warn!(error = %e, "screening cache kept in memory only");
            return (PositionCache::new(), None);
        }
    };
    if let Err(e) = std::fs::create_dir_all(dir) {
        warn!(error = %e, dir = %dir.display(), "screening cache kept in memory only");
        return (PositionCache::new(), None);
    }
    let path = dir.join(format!("positions-{}.jsonl", &sha[..16]));
    let cache = match PositionCache::load(&path) {
        Ok(c) => c,
        Err(e) => {
            let aside = path.with_extension("jsonl.unreadable");
            let _ = std::fs::rename(&path, &aside);
            error!(error = %e, moved_to = %aside.display(), "screening cache unreadable; starting empty");
            PositionCache::new()
        }
    };
    info!(positions = cache.len(), file = %path.display(), "screening cache loaded");
    let len = cache.len();
    (cache, Some((path, std::sync::Mutex::new(len))))
}

/// Screens closed rounds (see the crate documentation).
pub struct Worker {
    store: Arc<TournamentStore>,
    checkpoints: Option<CheckpointStore>,
    /// Started on the first round with games, so that a server whose events have none runs
    /// no engine.
    engines: Arc<Engines>,
    stats: WorkerStats,
}

impl Worker {
    pub fn new(
        store: Arc<TournamentStore>,
        checkpoints: Option<CheckpointStore>,
        engines: Arc<Engines>,
    ) -> Worker {
        Worker {
            store,
            checkpoints,
            engines,
            stats: WorkerStats::default(),
        }
    }

    pub fn stats(&self) -> &WorkerStats {
        &self.stats
    }

    /// Screens after `e` if it closes a round and is not answered yet. One trigger at a time:
    /// the engines are the bottleneck, and a stream's answers stay in trigger order.
    pub async fn handle_event(&self, e: &StoredEvent) -> Result<(), String> {
        let Some(tournament) = tournament_of(&e.stream) else {
            return Ok(());
        };
        let Ok(wire) = e.decode_event() else {
            return Ok(());
        };
        let Some(Kind::RoundClosed(closed)) = wire.kind else {
            return Ok(());
        };
        self.stats.triggers.fetch_add(1, Ordering::Relaxed);
        let command = command_id(e.event_id);
        let span = info_span!("screening_trigger", %tournament, version = e.version, round = closed.round, command_id = %command);
        async {
            let current = self
                .store
                .current(&e.stream)
                .await
                .map_err(|x| x.to_string())?;
            if current.command(&command).is_some() {
                debug!("already answered");
                self.stats.already_answered.fetch_add(1, Ordering::Relaxed);
                return Ok(());
            }
            let events = self
                .store
                .log()
                .read(&e.stream, 1)
                .await
                .map_err(|x| x.to_string())?;
            let upto: Vec<StoredEvent> = events
                .into_iter()
                .take_while(|x| x.version <= e.version)
                .collect();
            let folded = self
                .store
                .as_of(&e.stream, e.version)
                .await
                .map_err(|x| x.to_string())?;
            let games = answer::submitted_through(&upto, closed.round);
            if games.is_empty() {
                self.stats.nothing_to_append.fetch_add(1, Ordering::Relaxed);
                return Ok(());
            }
            let screener = self.engines.quick().await?;
            let out = screener
                .answer(&folded.state, &games, closed.round, None)
                .await;
            self.engines.persist_in_background().await;
            let out = out?;
            if out.is_empty() {
                self.stats.nothing_to_append.fetch_add(1, Ordering::Relaxed);
                return Ok(());
            }
            append(
                self.store.log(),
                &self.stats,
                &e.stream,
                &command,
                SERVICE,
                &out,
            )
            .await
        }
        .instrument(span)
        .await
    }
}

impl TriggerWorker for Worker {
    const SERVICE: &'static str = SERVICE;

    fn store(&self) -> &Arc<TournamentStore> {
        &self.store
    }

    fn checkpoints(&self) -> Option<CheckpointStore> {
        self.checkpoints.clone()
    }
}

impl TriggerHandler for Worker {
    async fn handle_event(&self, e: &StoredEvent) -> Result<(), String> {
        Worker::handle_event(self, e).await
    }
}

/// Appends a screening answer (see [`append_answer`]).
pub(crate) async fn append(
    log: &Arc<dyn EventLog>,
    stats: &WorkerStats,
    stream: &str,
    command: &str,
    actor: &str,
    events: &[pb::Event],
) -> Result<(), String> {
    append_answer(log, stats, stream, command, actor, events)
        .await
        .map_err(|e| format!("screening not appended: {e}"))
}

/// Adds the screening service to `host`: the gRPC API, and the worker when an engine is
/// found (otherwise it says so and the service screens nothing).
pub fn register(host: &mut Host, config: Config) {
    let store = host.store().clone();
    let engines = Arc::new(Engines::new(config));
    match engines.engine() {
        Ok(path) => {
            info!(engine = %path.display(), "screening engine found");
            let (engines_w, store_w) = (engines.clone(), store.clone());
            let (feed, checkpoints, stopping) = (
                host.feed().clone(),
                host.checkpoints().cloned(),
                host.stopping(),
            );
            let worker = Arc::new(Worker::new(store_w, checkpoints.clone(), engines_w));
            host.follower(SERVICE, worker.follow(feed, checkpoints, stopping));
        }
        Err(why) => error!(
            error = %why,
            "no chess engine for screening (give --stockfish PATH or STOCKFISH_PATH): games are \
             accepted but not screened"
        ),
    }
    let service = ScreeningService::new(store, engines);
    // The platforms' webhook takes the same tokens the gRPC layer takes; without them (a host
    // built without authentication) there is no webhook.
    if let Some(auth) = host.auth().cloned() {
        host.http(webhook::router(service.clone(), auth));
    }
    host.grpc(service.into_server());
}
