//! The service host: the one way every service runs, all in one process or one per process.
//!
//! A service crate exposes one registration function that adds its gRPC services
//! ([`Host::grpc`]), its followers ([`Host::follower`]) and, for reporting, its HTTP router
//! ([`Host::http`]) to a [`Host`]. The caller then binds ([`Host::bind`]) and runs
//! ([`Bound::run`]). The host owns what every service needs the same way:
//!
//! - the listeners, with `TCP_NODELAY` and keep-alive ([`crate::net`]);
//! - the HTTP port behind its edge ([`crate::http`]): every route authenticated as the gRPC
//!   method it stands for, bounded bodies, connections and timeouts ([`Host::set_http_limits`]),
//!   security headers, errors in the documented shapes;
//! - one tonic server for every registered service, behind the layers given to
//!   [`Host::layer`] (the place for authentication, metrics and trace context);
//! - the standard health service `grpc.health.v1.Health`: SERVING for `""` and for each
//!   registered service while running, NOT_SERVING as soon as shutdown starts, before the
//!   drain, so that a load balancer stops sending new calls;
//! - server reflection (`grpc.reflection.v1` and `v1alpha`) over the project's descriptor set;
//! - the graceful shutdown within [`SHUTDOWN_BUDGET`]: the ports stop accepting, calls in
//!   flight finish, followers stop (a running pairing is abandoned: its request is still
//!   unanswered in the log and is answered after the restart), checkpoints are written, then
//!   the [`Host::at_stop`] steps run (flushing the log). A step that overruns its share of the
//!   budget is cut short; what was acknowledged is already durable in the log.
//!
//! Health and reflection are outside the layers: a load balancer's probe carries no
//! credentials, and the descriptors are those of the published `.proto` files.

use crate::net;
use crate::store::{Feed, TournamentStore};
use arbiter_eventlog::CheckpointStore;
use futures::FutureExt;
use futures::future::BoxFuture;
use std::convert::Infallible;
use std::fmt::Display;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio::sync::watch;
use tonic::server::NamedService;
use tonic::service::{Routes, RoutesBuilder};
use tonic_health::ServingStatus;
use tower::{Layer, Service};
use tracing::{info, warn};

/// From the shutdown signal to the end of [`Bound::run`].
pub const SHUTDOWN_BUDGET: Duration = Duration::from_secs(5);
/// Of the budget: calls in flight to finish.
const DRAIN_CALLS: Duration = Duration::from_millis(2500);
/// Of the budget: followers and workers to stop.
const STOP_FOLLOWERS: Duration = Duration::from_millis(1000);
/// Of the budget: the HTTP server to close (its event streams end on the stop signal).
const STOP_HTTP: Duration = Duration::from_millis(200);
/// Of the budget: checkpoints to be written (a checkpoint not written only means a longer
/// catch-up at the next start).
const WRITE_CHECKPOINTS: Duration = Duration::from_millis(700);

/// Why a host could not start or serve.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    #[error("cannot listen on {addr} for {what}: {source}")]
    Bind {
        addr: SocketAddr,
        what: &'static str,
        source: std::io::Error,
    },
    #[error("server reflection: the descriptor set is unusable: {0}")]
    Reflection(#[from] tonic_reflection::server::Error),
    #[error("gRPC server: {0}")]
    Serve(#[from] tonic::transport::Error),
}

/// A router transformation: one layer applied to every registered gRPC service.
type ApplyLayer = Box<dyn FnOnce(axum::Router) -> axum::Router + Send>;

/// The services of one process and what they share (see the module documentation).
pub struct Host {
    store: Arc<TournamentStore>,
    feed: Feed,
    checkpoints: Option<CheckpointStore>,
    routes: RoutesBuilder,
    services: Vec<&'static str>,
    layers: Vec<ApplyLayer>,
    followers: Vec<(String, BoxFuture<'static, Result<(), String>>)>,
    tasks: Vec<BoxFuture<'static, ()>>,
    http: Option<axum::Router>,
    at_stop: Vec<BoxFuture<'static, ()>>,
    stop: watch::Sender<bool>,
    auth: Option<arbiter_auth::layer::AuthLayer>,
    http_limits: crate::http::HttpLimits,
    grpc_bound: Arc<std::sync::OnceLock<SocketAddr>>,
}

impl Host {
    /// A host whose services share `store` (one in-memory fold of each stream per process),
    /// take events from `feed` and keep their positions in `checkpoints`.
    pub fn new(
        store: Arc<TournamentStore>,
        feed: Feed,
        checkpoints: Option<CheckpointStore>,
    ) -> Host {
        Host {
            store,
            feed,
            checkpoints,
            routes: RoutesBuilder::default(),
            services: Vec::new(),
            layers: Vec::new(),
            followers: Vec::new(),
            tasks: Vec::new(),
            http: None,
            at_stop: Vec::new(),
            stop: watch::channel(false).0,
            auth: None,
            http_limits: crate::http::HttpLimits::default(),
            grpc_bound: Arc::default(),
        }
    }

    /// The address this host's gRPC port will have, set when it is bound: for HTTP routes
    /// that call this process's own services over gRPC (as any client, through the same
    /// authentication and authorization).
    pub fn grpc_address(&self) -> Arc<std::sync::OnceLock<SocketAddr>> {
        self.grpc_bound.clone()
    }

    /// The authentication of the gRPC layer, for HTTP routes that take commands (a
    /// platform's webhook): they authenticate the same tokens the same way.
    pub fn authenticator(&mut self, auth: arbiter_auth::layer::AuthLayer) -> &mut Self {
        self.auth = Some(auth);
        self
    }

    /// The bounds of the HTTP port (connections, timeouts, bodies, rendering).
    pub fn set_http_limits(&mut self, limits: crate::http::HttpLimits) -> &mut Self {
        self.http_limits = limits;
        self
    }

    /// The bounds of the HTTP port given with [`Host::set_http_limits`] (else the defaults).
    pub fn http_limits(&self) -> &crate::http::HttpLimits {
        &self.http_limits
    }

    /// The authentication given with [`Host::authenticator`], if any.
    pub fn auth(&self) -> Option<&arbiter_auth::layer::AuthLayer> {
        self.auth.as_ref()
    }

    /// The store every service of this host folds with.
    pub fn store(&self) -> &Arc<TournamentStore> {
        &self.store
    }

    /// Where followers take events from.
    pub fn feed(&self) -> &Feed {
        &self.feed
    }

    /// Where followers keep their positions (none: they start from the beginning).
    pub fn checkpoints(&self) -> Option<&CheckpointStore> {
        self.checkpoints.as_ref()
    }

    /// Turns true when shutdown starts: followers stop, open event streams end.
    pub fn stopping(&self) -> watch::Receiver<bool> {
        self.stop.subscribe()
    }

    /// The full names of the gRPC services registered so far.
    pub fn services(&self) -> &[&'static str] {
        &self.services
    }

    /// Serves a gRPC service (behind the [`Host::layer`]s; reported by health and reflection).
    pub fn grpc<S>(&mut self, service: S) -> &mut Self
    where
        S: Service<tonic::codegen::http::Request<tonic::body::Body>, Error = Infallible>
            + NamedService
            + Clone
            + Send
            + Sync
            + 'static,
        S::Response: axum::response::IntoResponse,
        S::Future: Send + 'static,
    {
        self.services.push(S::NAME);
        self.routes.add_service(service);
        self
    }

    /// The extension point for what every gRPC call goes through (authentication, metrics,
    /// trace-context extraction): a tower layer wrapped around every registered service. The
    /// first layer given is the innermost. Health and reflection are not wrapped.
    pub fn layer<L>(&mut self, layer: L) -> &mut Self
    where
        L: Layer<axum::routing::Route> + Clone + Send + Sync + 'static,
        L::Service: Service<axum::extract::Request> + Clone + Send + Sync + 'static,
        <L::Service as Service<axum::extract::Request>>::Response:
            axum::response::IntoResponse + 'static,
        <L::Service as Service<axum::extract::Request>>::Error: Into<Infallible> + 'static,
        <L::Service as Service<axum::extract::Request>>::Future: Send + 'static,
    {
        self.layers
            .push(Box::new(move |router| router.layer(layer)));
        self
    }

    /// A task that follows the log until [`Host::stopping`] turns true; awaited at shutdown
    /// (abandoned if it overruns: its position was not saved, the events since are delivered
    /// again, and every follower is idempotent).
    pub fn follower<E: Display>(
        &mut self,
        name: impl Into<String>,
        follow: impl Future<Output = Result<(), E>> + Send + 'static,
    ) -> &mut Self {
        self.followers.push((
            name.into(),
            follow.map(|r| r.map_err(|e| e.to_string())).boxed(),
        ));
        self
    }

    /// A task started with the services and left to finish on its own (not awaited).
    pub fn task(&mut self, task: impl Future<Output = ()> + Send + 'static) -> &mut Self {
        self.tasks.push(task.boxed());
        self
    }

    /// Serves `router` on the HTTP port (merged with any router given before). The HTTP port
    /// is bound only when some service gave one.
    pub fn http(&mut self, router: axum::Router) -> &mut Self {
        self.http = Some(match self.http.take() {
            Some(r) => r.merge(router),
            None => router,
        });
        self
    }

    /// A last step of the shutdown, after the checkpoints (e.g. flushing the log).
    pub fn at_stop(&mut self, step: impl Future<Output = ()> + Send + 'static) -> &mut Self {
        self.at_stop.push(step.boxed());
        self
    }

    /// Binds the gRPC port, and the HTTP port if a router was given (port 0: any free port).
    pub async fn bind(self, grpc: SocketAddr, http: SocketAddr) -> Result<Bound, HostError> {
        let (grpc, grpc_addr) = bind(grpc, "gRPC").await?;
        let _ = self.grpc_bound.set(grpc_addr);
        let (http, http_addr) = match &self.http {
            Some(_) => {
                let (l, a) = bind(http, "HTTP").await?;
                (Some(l), Some(a))
            }
            None => (None, None),
        };
        Ok(Bound {
            host: self,
            grpc,
            http,
            grpc_addr,
            http_addr,
        })
    }
}

/// A listener and the address it actually bound (read once, so a failure is a bind error).
async fn bind(
    addr: SocketAddr,
    what: &'static str,
) -> Result<(TcpListener, SocketAddr), HostError> {
    let l = TcpListener::bind(addr)
        .await
        .map_err(|source| HostError::Bind { addr, what, source })?;
    let bound = l
        .local_addr()
        .map_err(|source| HostError::Bind { addr, what, source })?;
    Ok((l, bound))
}

/// A host with its ports bound, ready to run.
pub struct Bound {
    host: Host,
    grpc: TcpListener,
    http: Option<TcpListener>,
    grpc_addr: SocketAddr,
    http_addr: Option<SocketAddr>,
}

impl Bound {
    /// The gRPC port's address (the port actually bound).
    pub fn grpc_addr(&self) -> SocketAddr {
        self.grpc_addr
    }

    /// The HTTP port's address, if one is served.
    pub fn http_addr(&self) -> Option<SocketAddr> {
        self.http_addr
    }

    /// Serves until `shutdown` completes (or the gRPC server fails), then shuts down within
    /// [`SHUTDOWN_BUDGET`] (see the module documentation).
    pub async fn run(self, shutdown: impl Future<Output = ()> + Send) -> Result<(), HostError> {
        let Bound {
            host, grpc, http, ..
        } = self;
        let Host {
            store,
            routes,
            services,
            layers,
            followers,
            tasks,
            http: router,
            at_stop,
            stop,
            auth,
            http_limits,
            ..
        } = host;

        let (health, health_service) = tonic_health::server::health_reporter();
        for name in &services {
            health
                .set_service_status(name, ServingStatus::Serving)
                .await;
        }
        let advertised = services.iter().copied().chain([
            tonic_health::pb::health_server::SERVICE_NAME,
            tonic_reflection::pb::v1::server_reflection_server::SERVICE_NAME,
            tonic_reflection::pb::v1alpha::server_reflection_server::SERVICE_NAME,
        ]);
        let reflection = || {
            let mut b = tonic_reflection::server::Builder::configure()
                .register_encoded_file_descriptor_set(arbiter_proto::FILE_DESCRIPTOR_SET)
                .register_encoded_file_descriptor_set(tonic_health::pb::FILE_DESCRIPTOR_SET)
                .register_encoded_file_descriptor_set(tonic_reflection::pb::v1::FILE_DESCRIPTOR_SET)
                .register_encoded_file_descriptor_set(
                    tonic_reflection::pb::v1alpha::FILE_DESCRIPTOR_SET,
                );
            for name in advertised.clone() {
                b = b.with_service_name(name);
            }
            b
        };
        let mut app = routes.routes().into_axum_router();
        for apply in layers {
            app = apply(app);
        }
        // Outside every layer, so that the authentication's refusals get them too.
        let app = app.layer(axum::middleware::map_response(with_error_details));
        let routes = Routes::from(app)
            .add_service(health_service)
            .add_service(reflection().build_v1()?)
            .add_service(reflection().build_v1alpha()?);

        let followers: Vec<_> = followers
            .into_iter()
            .map(|(name, f)| (name, tokio::spawn(f)))
            .collect();
        for t in tasks {
            tokio::spawn(t);
        }
        // Damage in the middle of a stream is behind the snapshots the folds resume from:
        // read every stream whole once, so that it is found now, not at the next full fold.
        let scrubbed = store.clone();
        tokio::spawn(async move {
            let started = Instant::now();
            let damaged = scrubbed.scrub().await;
            info!(
                damaged = damaged.len(),
                elapsed_ms = started.elapsed().as_millis() as u64,
                "every tournament stream read and verified"
            );
        });
        let http_task = match (http, router) {
            (Some(listener), Some(router)) => {
                // Every route behind the edge: the gRPC layer's authentication, the limits,
                // the security headers and the documented error shapes.
                let router = crate::http::wrap(router, auth, &http_limits);
                Some(tokio::spawn(crate::http::serve(
                    listener,
                    router,
                    http_limits,
                    stop.subscribe(),
                )))
            }
            _ => None,
        };

        let (drain_tx, drain_rx) = tokio::sync::oneshot::channel::<()>();
        let mut server = tokio::spawn(
            net::grpc_server()
                // gRPC-Web (HTTP/1.1 and HTTP/2) for browser clients, beside native gRPC.
                .accept_http1(true)
                .layer(net::grpc_web_cors())
                .layer(tonic_web::GrpcWebLayer::new())
                .add_routes(routes)
                .serve_with_incoming_shutdown(net::incoming(grpc), async move {
                    let _ = drain_rx.await;
                }),
        );
        let ended_early = tokio::select! {
            _ = shutdown => None,
            r = &mut server => Some(r),
        };
        let stopping = Instant::now();
        info!("shutting down");
        // Load balancers probing health stop sending before the port closes.
        for name in std::iter::once("").chain(services.iter().copied()) {
            health
                .set_service_status(name, ServingStatus::NotServing)
                .await;
        }
        // Stop accepting; calls in flight finish (their appends are durable once answered).
        let _ = drain_tx.send(());
        stop.send_replace(true);
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
        for (name, mut f) in followers {
            match tokio::time::timeout_at(followers_until.into(), &mut f).await {
                Ok(Ok(Ok(()))) => {}
                Ok(Ok(Err(e))) => warn!(follower = %name, "follower stopped with an error: {e}"),
                Ok(Err(e)) => warn!(follower = %name, "follower failed: {e}"),
                Err(_) => {
                    // Its position was not saved: the events since are delivered again (every
                    // follower is idempotent).
                    warn!(follower = %name, "a follower did not stop in time: abandoned");
                    f.abort();
                }
            }
        }
        if let Some(mut h) = http_task
            && tokio::time::timeout(STOP_HTTP, &mut h).await.is_err()
        {
            h.abort();
        }
        if tokio::time::timeout(WRITE_CHECKPOINTS, store.checkpoint_all())
            .await
            .is_err()
        {
            warn!("checkpoints not all written in time: the next start folds more of the log");
        }
        for step in at_stop {
            step.await;
        }
        let elapsed = stopping.elapsed();
        if elapsed > SHUTDOWN_BUDGET {
            warn!(?elapsed, "shutdown took longer than {SHUTDOWN_BUDGET:?}");
        }
        info!(elapsed_ms = elapsed.as_millis() as u64, "stopped");
        Ok(served?)
    }
}

/// Gives a refusal leaving the gRPC port the google.rpc details it lacks
/// ([`crate::status::with_details`]). Refusals are trailers-only answers, so their status is
/// in the headers; a stream failing after its first message keeps its trailers as they are.
async fn with_error_details(mut response: axum::response::Response) -> axum::response::Response {
    let headers = response.headers_mut();
    if headers.contains_key("grpc-status-details-bin") {
        return response;
    }
    let Some(status) = tonic::Status::from_header_map(headers) else {
        return response;
    };
    if status.code() != tonic::Code::Ok {
        let detailed =
            crate::status::with_details(tonic::Status::new(status.code(), status.message()));
        let _ = detailed.add_header(headers);
    }
    response
}

/// Resolves on Ctrl-C or SIGTERM.
pub async fn shutdown_signal() {
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
