//! `arbiter serve`: every service in one process over the embedded sled log (the default), or
//! one service (`--only`) over NATS JetStream. One gRPC port and one HTTP port on 127.0.0.1,
//! printed at start; Ctrl-C (or SIGTERM) shuts down cleanly within [`SHUTDOWN_BUDGET`]: the
//! ports stop accepting, calls in flight finish, followers and pairing workers stop (a running
//! pairing is abandoned: its request is still unanswered in the log and is answered after the
//! restart), checkpoints are written, the log is flushed. A step that overruns its share of
//! the budget is cut short; what was acknowledged is already durable in the log.

use super::backend::{Exit, LogArgs, OpenedLog, block_on};
use arbiter_eventlog::CheckpointStore;
use arbiter_pairing_worker::{PairingWorkerService, Worker};
use arbiter_registration::RegistrationService;
use arbiter_reporting::ReportingService;
use arbiter_round_director::RoundDirectorService;
use arbiter_round_director::store::{Feed, SNAPSHOT_MIN_EVENTS, TournamentStore, tournament_of};
use std::io::Write as _;
use std::net::SocketAddr;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio::sync::watch;
use tracing::{info, warn};

/// The services `--only` can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ServiceName {
    Registration,
    RoundDirector,
    PairingWorker,
    Reporting,
    RatingWorker,
}

impl ServiceName {
    const ALL: [ServiceName; 5] = [
        ServiceName::Registration,
        ServiceName::RoundDirector,
        ServiceName::PairingWorker,
        ServiceName::Reporting,
        ServiceName::RatingWorker,
    ];

    fn name(self) -> &'static str {
        match self {
            ServiceName::Registration => arbiter_registration::SERVICE,
            ServiceName::RoundDirector => arbiter_round_director::SERVICE,
            ServiceName::PairingWorker => arbiter_pairing_worker::SERVICE,
            ServiceName::Reporting => arbiter_reporting::SERVICE,
            ServiceName::RatingWorker => arbiter_rating_worker::SERVICE,
        }
    }
}

#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    #[command(flatten)]
    pub log: LogArgs,
    /// Run only this service (its checkpoints in DATA/<service>); needs --nats, the log the
    /// other services' processes share.
    #[arg(long, value_enum, requires = "nats")]
    pub only: Option<ServiceName>,
    /// gRPC port on 127.0.0.1 (0 = any free port).
    #[arg(long, default_value_t = 7070)]
    pub grpc_port: u16,
    /// HTTP port on 127.0.0.1 for the JSON reporting API (0 = any free port).
    #[arg(long, default_value_t = 7080)]
    pub http_port: u16,
    /// The Ed25519 key that signs chain heads (a file of 64 hex digits, mode 0600). Default:
    /// DATA/head-signing.key, created on first start. One key per deployment: round-director
    /// processes of a distributed deployment must be given the same file.
    #[arg(long, env = "ARBITER_SIGNING_KEY")]
    pub signing_key: Option<std::path::PathBuf>,
    /// Pairings the pairing worker runs at once (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub pairing_slots: Option<u16>,
}

/// From the shutdown signal to the exit.
pub const SHUTDOWN_BUDGET: Duration = Duration::from_secs(5);
/// Of the budget: calls in flight to finish.
const DRAIN_CALLS: Duration = Duration::from_millis(2500);
/// Of the budget: followers and workers to stop.
const STOP_FOLLOWERS: Duration = Duration::from_millis(1000);
/// Of the budget: checkpoints to be written (a checkpoint not written only means a longer
/// catch-up at the next start).
const WRITE_CHECKPOINTS: Duration = Duration::from_millis(700);

pub fn run(a: ServeArgs) -> ExitCode {
    block_on(serve(a))
}

async fn bind(port: u16, what: &str) -> Result<TcpListener, Exit> {
    let addr = SocketAddr::from(([127, 0, 0, 1], port));
    TcpListener::bind(addr)
        .await
        .map_err(|e| Exit::Unavailable(format!("cannot listen on {addr} for {what}: {e}")))
}

/// The checkpoint store in `data/<name>`: `checkpoints` when several services share one
/// process (they fold the same streams, so they share one copy of each snapshot), else the
/// service's name.
fn checkpoints(data: &Path, service: &str) -> Result<CheckpointStore, Exit> {
    let dir = data.join(service);
    CheckpointStore::open(&dir).map_err(|e| {
        Exit::Unavailable(format!(
            "cannot open the checkpoint store of {service} in {}: {e} (is another process using it?)",
            dir.display()
        ))
    })
}

/// Resolves on Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(s) => s,
                Err(_) => {
                    let _ = tokio::signal::ctrl_c().await;
                    return;
                }
            };
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

async fn serve(a: ServeArgs) -> Result<(), Exit> {
    let services: Vec<ServiceName> = match a.only {
        Some(s) => vec![s],
        None => ServiceName::ALL.to_vec(),
    };
    let telemetry_name = match a.only {
        Some(s) => format!("arbiter-{}", s.name()),
        None => "arbiter".to_string(),
    };
    let telemetry = arbiter_telemetry::init(&telemetry_name)
        .map_err(|e| Exit::Unavailable(format!("telemetry: {e}")))?;

    std::fs::create_dir_all(&a.log.data).map_err(|e| {
        Exit::Unavailable(format!(
            "cannot create the data folder {}: {e}",
            a.log.data.display()
        ))
    })?;
    let opened = a.log.open().await?;
    if let OpenedLog::Sled(l) = &opened {
        for e in l.damaged_streams() {
            warn!("damaged stream: {e}");
        }
    }
    let log = opened.as_dyn();
    let feed = match &opened {
        OpenedLog::Sled(_) => Feed::Subscription(log.clone()),
        OpenedLog::JetStream(js) => Feed::Durable(js.clone()),
    };

    let grpc = bind(a.grpc_port, "gRPC").await?;
    let grpc_addr = grpc
        .local_addr()
        .map_err(|e| Exit::Unavailable(e.to_string()))?;
    let with_reporting = services.contains(&ServiceName::Reporting);
    let http = if with_reporting {
        Some(bind(a.http_port, "HTTP").await?)
    } else {
        None
    };
    let http_addr = match &http {
        Some(l) => Some(
            l.local_addr()
                .map_err(|e| Exit::Unavailable(e.to_string()))?,
        ),
        None => None,
    };

    let signer = if services.contains(&ServiceName::RoundDirector) {
        Some(head_signer(&a)?)
    } else {
        None
    };

    let (stop_tx, stop_rx) = watch::channel(false);
    let mut routes = tonic::service::RoutesBuilder::default();
    let mut http = http;
    let mut stores: Vec<Arc<TournamentStore>> = Vec::new();
    let mut followers = Vec::new();
    let mut http_task = None;
    let shared_checkpoints = match services.len() {
        1 => None,
        _ => Some(checkpoints(&a.log.data, "checkpoints")?),
    };
    for s in &services {
        let cp = match &shared_checkpoints {
            Some(cp) => cp.clone(),
            None => checkpoints(&a.log.data, s.name())?,
        };
        let mut store = TournamentStore::new(log.clone(), s.name(), Some(cp.clone()));
        if let OpenedLog::Sled(_) = &opened {
            store = store.with_snapshot_min_events(SNAPSHOT_MIN_EVENTS);
        }
        let store = Arc::new(store);
        stores.push(store.clone());
        match s {
            ServiceName::Registration => {
                let mut service = RegistrationService::new(store);
                if let Some(list) = rating_list(&a.log.data)? {
                    service = service.with_directory(list);
                }
                routes.add_service(service.into_server());
            }
            ServiceName::RoundDirector => {
                let mut service = RoundDirectorService::new(store);
                if let Some(signer) = &signer {
                    service = service.with_signer(signer.clone());
                    // Heads lost to a stop between a publication and its signature, or never
                    // signed (logs from before signed heads), are signed now.
                    let (log, signer) = (log.clone(), signer.clone());
                    tokio::spawn(async move {
                        let streams = log.list_streams().await.unwrap_or_default();
                        for s in streams.iter().filter(|s| tournament_of(s).is_some()) {
                            let signed =
                                arbiter_round_director::heads::sign_missing(&log, &signer, s).await;
                            if !signed.is_empty() {
                                info!(stream = %s, versions = ?signed, "signed missing chain heads");
                            }
                        }
                    });
                }
                routes.add_service(service.into_server());
            }
            ServiceName::PairingWorker => {
                let worker = Arc::new(match a.pairing_slots {
                    Some(n) => Worker::with_slots(store.clone(), n as usize),
                    None => Worker::new(store.clone()),
                });
                info!(slots = worker.slots(), "pairing pool");
                followers.push(tokio::spawn(worker.follow(
                    feed.clone(),
                    Some(cp),
                    stop_rx.clone(),
                )));
                routes.add_service(PairingWorkerService::new(store).into_server());
            }
            ServiceName::Reporting => {
                followers.push(tokio::spawn(arbiter_reporting::follow(
                    store.clone(),
                    feed.clone(),
                    Some(cp),
                    stop_rx.clone(),
                )));
                if let Some(listener) = http.take() {
                    // Open event streams (SSE) end on shutdown instead of holding it up.
                    let app =
                        arbiter_reporting::http_router_until(store.clone(), Some(stop_rx.clone()));
                    let mut stop = stop_rx.clone();
                    http_task = Some(tokio::spawn(async move {
                        axum::serve(arbiter_reporting::http_incoming(listener), app)
                            .with_graceful_shutdown(async move {
                                let _ = stop.wait_for(|s| *s).await;
                            })
                            .await
                    }));
                }
                routes.add_service(ReportingService::new(store).into_server());
            }
            ServiceName::RatingWorker => {
                // Rating changes and norms: follows the log like the pairing worker.
                let worker = Arc::new(arbiter_rating_worker::Worker::new(
                    store.clone(),
                    Some(cp.clone()),
                ));
                followers.push(tokio::spawn(worker.follow(
                    feed.clone(),
                    Some(cp),
                    stop_rx.clone(),
                )));
                routes.add_service(
                    arbiter_rating_worker::RatingWorkerService::new(store).into_server(),
                );
            }
        }
    }

    let names: Vec<&str> = services.iter().map(|s| s.name()).collect();
    let mut line = format!(
        "arbiter serving {}: grpc=http://{grpc_addr}",
        names.join(",")
    );
    if let Some(h) = http_addr {
        line.push_str(&format!(" http=http://{h}"));
    }
    line.push_str(&format!(" log={}", opened.describe(&a.log)));
    println!("{line}");
    let _ = std::io::stdout().flush();
    info!("{line}");

    let (drain_tx, drain_rx) = tokio::sync::oneshot::channel::<()>();
    let mut server = tokio::spawn(
        arbiter_round_director::net::grpc_server()
            .add_routes(routes.routes())
            .serve_with_incoming_shutdown(
                arbiter_round_director::net::incoming(grpc),
                async move {
                    let _ = drain_rx.await;
                },
            ),
    );
    let ended_early = tokio::select! {
        _ = shutdown_signal() => None,
        r = &mut server => Some(r),
    };
    let stopping = Instant::now();
    info!("shutting down");
    // Stop accepting; calls in flight finish (their appends are durable once answered).
    let _ = drain_tx.send(());
    let _ = stop_tx.send(true);
    let served = match ended_early {
        Some(r) => r,
        None => match tokio::time::timeout(DRAIN_CALLS, &mut server).await {
            Ok(r) => r,
            Err(_) => {
                warn!("calls still open after {DRAIN_CALLS:?}: closing their connections");
                server.abort();
                Ok(Ok(()))
            }
        },
    };
    let served = served.unwrap_or_else(|e| {
        warn!("gRPC server task: {e}");
        Ok(())
    });
    let followers_until = Instant::now() + STOP_FOLLOWERS;
    for mut f in followers {
        match tokio::time::timeout_at(followers_until.into(), &mut f).await {
            Ok(Ok(Ok(()))) => {}
            Ok(Ok(Err(e))) => warn!("follower stopped with an error: {e}"),
            Ok(Err(e)) => warn!("follower failed: {e}"),
            Err(_) => {
                // Its position was not saved: the events since are delivered again (every
                // follower is idempotent).
                warn!("a follower did not stop in time: abandoned");
                f.abort();
            }
        }
    }
    if let Some(mut h) = http_task
        && tokio::time::timeout(Duration::from_millis(200), &mut h)
            .await
            .is_err()
    {
        h.abort();
    }
    let checkpoints = async {
        for s in &stores {
            s.checkpoint_all().await;
        }
    };
    if tokio::time::timeout(WRITE_CHECKPOINTS, checkpoints)
        .await
        .is_err()
    {
        warn!("checkpoints not all written in time: the next start folds more of the log");
    }
    if let OpenedLog::Sled(l) = &opened
        && let Err(e) = l.flush().await
    {
        warn!("flushing the log: {e}");
    }
    let elapsed = stopping.elapsed();
    if elapsed > SHUTDOWN_BUDGET {
        warn!(?elapsed, "shutdown took longer than {SHUTDOWN_BUDGET:?}");
    }
    info!(elapsed_ms = elapsed.as_millis() as u64, "stopped");
    let _ = telemetry.shutdown().await;
    served.map_err(|e| Exit::Unavailable(format!("gRPC server: {e}")))
}

/// The key that signs chain heads: the given file (which must exist), or the data folder's
/// own, created on first start.
fn head_signer(a: &ServeArgs) -> Result<Arc<arbiter_eventlog::HeadSigner>, Exit> {
    use arbiter_eventlog::HeadSigner;
    let signer = match &a.signing_key {
        Some(path) => HeadSigner::load(path),
        None => HeadSigner::load_or_create(&a.log.data.join(arbiter_eventlog::signing::KEY_FILE)),
    }
    .map_err(Exit::Invalid)?;
    info!(key = %signer.key_id(), "chain heads are signed");
    Ok(Arc::new(signer))
}

/// The FIDE rating list of the data folder (`arbiter ratings import`), for registration to
/// complete players registered by FIDE id; `None` when no list was imported.
fn rating_list(
    data: &std::path::Path,
) -> Result<Option<Arc<dyn arbiter_registration::PlayerDirectory>>, Exit> {
    let dir = super::ratings::registry_dir(data);
    if !dir.exists() {
        return Ok(None);
    }
    let registry = arbiter_rating_worker::registry::Registry::open(&dir)
        .map_err(|e| Exit::Unavailable(format!("the rating list in {}: {e}", dir.display())))?;
    info!(
        players = registry.len(),
        "registration completes players from the rating list"
    );
    Ok(Some(Arc::new(RatingList(registry))))
}

/// The rating list as registration's player directory.
struct RatingList(arbiter_rating_worker::registry::Registry);

impl arbiter_registration::PlayerDirectory for RatingList {
    fn complete(
        &self,
        p: &mut arbiter_core::tournament::RegisterPlayer,
        kind: arbiter_core::tournament::RatingKind,
    ) -> Result<Option<Vec<&'static str>>, String> {
        self.0.complete(p, kind).map_err(|e| e.to_string())
    }
}
