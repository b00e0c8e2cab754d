//! `arbiter serve`: every service in one process over the embedded sled log (the default), or
//! one service (`--only`) over NATS JetStream. One gRPC port and one HTTP port on the
//! `--listen` address (default 127.0.0.1), printed at start. The services run in one service
//! host (`arbiter_service_kit::host`), which also serves gRPC health and reflection and shuts
//! down cleanly within [`arbiter_service_kit::host::SHUTDOWN_BUDGET`] on Ctrl-C (or SIGTERM).

use super::backend::{Exit, LogArgs, OpenedLog, block_on};
use arbiter_eventlog::CheckpointStore;
use arbiter_service_kit::Host;
use arbiter_service_kit::host::shutdown_signal;
use arbiter_service_kit::store::{Feed, SNAPSHOT_MIN_EVENTS, TournamentStore};
use std::io::Write as _;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use tracing::{info, warn};

/// The services `--only` can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ServiceName {
    Registration,
    RoundDirector,
    PairingWorker,
    Reporting,
    RatingWorker,
    Screening,
}

impl ServiceName {
    const ALL: [ServiceName; 6] = [
        ServiceName::Registration,
        ServiceName::RoundDirector,
        ServiceName::PairingWorker,
        ServiceName::Reporting,
        ServiceName::RatingWorker,
        ServiceName::Screening,
    ];

    fn name(self) -> &'static str {
        match self {
            ServiceName::Registration => arbiter_registration::SERVICE,
            ServiceName::RoundDirector => arbiter_round_director::SERVICE,
            ServiceName::PairingWorker => arbiter_pairing_worker::SERVICE,
            ServiceName::Reporting => arbiter_reporting::SERVICE,
            ServiceName::RatingWorker => arbiter_rating_worker::SERVICE,
            ServiceName::Screening => arbiter_screening_service::SERVICE,
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
    /// The IP address the gRPC and HTTP ports listen on (0.0.0.0: every interface, e.g. in a
    /// container).
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub listen: IpAddr,
    /// gRPC port on the --listen address (0 = any free port).
    #[arg(long, default_value_t = 7070)]
    pub grpc_port: u16,
    /// HTTP port on the --listen address for the JSON reporting API (0 = any free port).
    #[arg(long, default_value_t = 7080)]
    pub http_port: u16,
    /// Port on the --listen address serving the Prometheus metrics at /metrics (0 = any free
    /// port; absent = not served).
    #[arg(long)]
    pub metrics_port: Option<u16>,
    /// The Ed25519 key that signs chain heads (a file of 64 hex digits, mode 0600). Default:
    /// DATA/head-signing.key, created on first start. One key per deployment: round-director
    /// processes of a distributed deployment must be given the same file.
    #[arg(long, env = "ARBITER_SIGNING_KEY")]
    pub signing_key: Option<std::path::PathBuf>,
    /// How long a tournament must be quiet, in milliseconds, before the head of its latest
    /// change (a result, a correction, ...) is signed; publications, closed rounds and the
    /// finish are signed at once, and a busy tournament's changes at most 10 s after the
    /// first (or this quiet time, if longer).
    #[arg(
        long,
        value_name = "MS",
        env = "ARBITER_HEAD_SIGNING_QUIET_MS",
        default_value_t = 2000
    )]
    pub head_signing_quiet_ms: u64,
    #[command(flatten)]
    pub auth: super::token::AuthArgs,
    /// Shortest stream snapshotted, in events (0: all)
    #[arg(long, value_name = "N", env = "ARBITER_SNAPSHOT_MIN_EVENTS", default_value_t = SNAPSHOT_MIN_EVENTS)]
    pub snapshot_min_events: u64,
    /// Pairings the pairing worker runs at once (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..))]
    pub pairing_slots: Option<u16>,
    /// The UCI engine the screening service analyses with (default: `stockfish` on PATH, else
    /// /usr/games/stockfish). Without one, games are accepted but not screened.
    #[arg(long, env = "STOCKFISH_PATH", value_name = "PATH")]
    pub stockfish: Option<std::path::PathBuf>,
    /// Nodes per position of the screening's quick test, after each round (default: the
    /// shipped baseline's engine profile; another budget makes the results provisional).
    #[arg(long, value_name = "N", default_value_t = arbiter_screening_service::Config::default().nodes, value_parser = clap::value_parser!(u64).range(1..))]
    pub screening_nodes: u64,
    /// Nodes per position of the on-demand full test (RunFullTest; default: the full
    /// baseline's engine profile; another budget makes the results provisional).
    #[arg(long, alias = "screening-deep-nodes", value_name = "N", default_value_t = arbiter_screening_service::Config::default().deep_nodes, value_parser = clap::value_parser!(u64).range(1..))]
    pub screening_full_nodes: u64,
    /// Engine processes of the screening (one thread each).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
    pub screening_workers: u16,
    #[command(flatten)]
    pub http: HttpArgs,
    /// Where the web console and the JSON API (/api/v1/) send their gRPC calls: an address
    /// serving every service (e.g. a gateway's). Default: this process's own gRPC port.
    #[arg(long, value_name = "URL")]
    pub console_grpc: Option<String>,
    /// Mark the console's session cookie Secure (the HTTP port is served behind TLS).
    #[arg(long)]
    pub console_secure_cookies: bool,
    /// A folder of the console's message catalogs beside the built-in English and Spanish:
    /// one Project Fluent file a language, named by its tag (fr.ftl, pt-BR.ftl); a file for a
    /// built-in language replaces it. See services/console/locales/en.ftl for the messages.
    #[arg(long, value_name = "DIR")]
    pub console_languages: Option<std::path::PathBuf>,
    /// Sign-in to the console through the OIDC issuer of --oidc-issuer too (the
    /// authorization-code flow with PKCE): the console's client id registered with it. Its ID
    /// tokens are read as any token (sub, role, tournaments, entry).
    #[arg(long, value_name = "ID", requires_all = ["oidc_issuer", "console_url"])]
    pub console_oidc_client_id: Option<String>,
    /// A file holding the console's client secret, for an issuer that registered it as a
    /// confidential client (default: a public client, protected by PKCE).
    #[arg(long, value_name = "FILE", requires = "console_oidc_client_id")]
    pub console_oidc_client_secret_file: Option<std::path::PathBuf>,
    /// The console's address as browsers reach it (e.g. https://arbiter.example.org): the
    /// issuer sends them back to URL/console/oidc/callback, which must be registered with it.
    #[arg(long, value_name = "URL", requires = "console_oidc_client_id")]
    pub console_url: Option<String>,
}

/// The bounds of the HTTP port (see `arbiter_service_kit::http`).
#[derive(clap::Args, Debug, Clone)]
pub struct HttpArgs {
    /// A request's head must arrive whole within this time of the connection's start or of
    /// the previous response's end (slowloris; also the keep-alive idle limit): 10s, 500ms.
    #[arg(long, value_name = "TIME", default_value = "10s", value_parser = parse_duration)]
    pub http_header_timeout: std::time::Duration,
    /// A response write that makes no progress for this long closes the connection (a client
    /// that stops reading).
    #[arg(long, value_name = "TIME", default_value = "20s", value_parser = parse_duration)]
    pub http_write_timeout: std::time::Duration,
    /// HTTP connections open at once; over it a connection is answered 503 and closed.
    #[arg(long, value_name = "N", default_value_t = HttpLimits::default().max_connections, value_parser = positive)]
    pub http_max_connections: usize,
    /// HTTP connections open at once from one IP address.
    #[arg(long, value_name = "N", default_value_t = HttpLimits::default().max_connections_per_ip, value_parser = positive)]
    pub http_max_connections_per_ip: usize,
    /// Body bytes an HTTP route reads unless it has its own limit (the platform webhook's is
    /// the PGN limit).
    #[arg(long, value_name = "BYTES", default_value_t = HttpLimits::default().body_limit)]
    pub http_body_limit: usize,
    /// Pages and JSON documents rendered at once (default: half the cores, at least one).
    #[arg(long, value_name = "N", value_parser = positive)]
    pub http_render_slots: Option<usize>,
    /// MiB of rendered public pages kept to answer the same page again (0: none kept).
    #[arg(long, value_name = "MIB", default_value_t = HttpLimits::default().page_cache_bytes >> 20)]
    pub http_page_cache_mib: usize,
}

use arbiter_service_kit::http::HttpLimits;

impl HttpArgs {
    pub fn limits(&self) -> HttpLimits {
        let d = HttpLimits::default();
        HttpLimits {
            header_timeout: self.http_header_timeout,
            write_timeout: self.http_write_timeout,
            max_connections: self.http_max_connections,
            max_connections_per_ip: self.http_max_connections_per_ip,
            body_limit: self.http_body_limit,
            render_slots: self.http_render_slots.unwrap_or(d.render_slots),
            page_cache_bytes: self.http_page_cache_mib << 20,
        }
    }
}

fn positive(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("{s:?} is not a whole number above 0")),
    }
}

/// `10s`, `500ms`, `2m` (a bare number: seconds).
fn parse_duration(s: &str) -> Result<std::time::Duration, String> {
    let t = s.trim();
    let (digits, unit) = t.split_at(t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len()));
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("{s:?} is not a duration such as 10s or 500ms"))?;
    let d = match unit {
        "" | "s" => std::time::Duration::from_secs(n),
        "ms" => std::time::Duration::from_millis(n),
        "m" => std::time::Duration::from_secs(n * 60),
        _ => return Err(format!("{s:?}: the unit must be ms, s or m")),
    };
    if d.is_zero() {
        return Err(format!("{s:?}: must be above 0"));
    }
    Ok(d)
}

pub fn run(a: ServeArgs) -> ExitCode {
    block_on(serve(a))
}

/// The checkpoint store in `data/<name>`.
fn checkpoints(data: &Path, service: &str) -> Result<CheckpointStore, Exit> {
    let dir = data.join(service);
    CheckpointStore::open(&dir).map_err(|e| {
        Exit::Unavailable(format!(
            "cannot open the checkpoint store of {service} in {}: {e} (is another process using it?)",
            dir.display()
        ))
    })
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

    let signer = if services.contains(&ServiceName::RoundDirector) {
        Some(head_signer(&a)?)
    } else {
        None
    };

    // One store for the process: one in-memory fold of each stream, however many services.
    // Its checkpoints are shared too (the services fold the same streams, so they share one
    // copy of each snapshot), in `checkpoints`, or in the service's own folder under --only.
    let (store_name, cp) = match a.only {
        Some(s) => (s.name(), checkpoints(&a.log.data, s.name())?),
        None => ("arbiter", checkpoints(&a.log.data, "checkpoints")?),
    };
    let store = TournamentStore::new(log.clone(), store_name, Some(cp.clone()))
        .with_snapshot_min_events(a.snapshot_min_events);
    let mut host = Host::new(Arc::new(store), feed, Some(cp));
    host.set_http_limits(a.http.limits());
    let server_auth = super::token::server_auth(&a.auth, &a.log.data).await?;
    let auth = server_auth.layer.clone();
    host.authenticator(auth.clone());
    host.layer(auth);
    // The console is served where the pages are; it signs its sessions' tokens, so it needs a
    // key set with a private key.
    let console =
        services.contains(&ServiceName::Reporting) && server_auth.keys.signing_key(None).is_ok();
    if console {
        let config = arbiter_console::Config {
            keys: server_auth.keys.clone(),
            grpc: a.console_grpc.clone(),
            secure_cookies: a.console_secure_cookies,
            languages: console_languages(a.console_languages.as_deref())?,
            oidc: None,
        };
        let config = with_console_oidc(config, &a, server_auth.oidc_jwks.as_deref()).await?;
        arbiter_console::register(&mut host, config)
            .map_err(|e| Exit::Invalid(format!("console: {e}")))?;
    }
    // Every call: the caller's trace context as its span's parent, and counted in the metrics.
    host.layer(arbiter_telemetry::GrpcLayer);
    for s in &services {
        match s {
            ServiceName::Registration => {
                arbiter_registration::register(&mut host, rating_list(&a.log.data)?)
            }
            ServiceName::RoundDirector => arbiter_round_director::register_with(
                &mut host,
                signer.clone(),
                std::time::Duration::from_millis(a.head_signing_quiet_ms),
            ),
            ServiceName::PairingWorker => {
                arbiter_pairing_worker::register(&mut host, a.pairing_slots.map(|n| n as usize))
            }
            ServiceName::Reporting => arbiter_reporting::register(&mut host),
            ServiceName::RatingWorker => arbiter_rating_worker::register(&mut host),
            ServiceName::Screening => arbiter_screening_service::register(
                &mut host,
                arbiter_screening_service::Config {
                    stockfish: a.stockfish.clone(),
                    nodes: a.screening_nodes,
                    deep_nodes: a.screening_full_nodes,
                    workers: usize::from(a.screening_workers),
                    cache_dir: Some(a.log.data.join("screening-cache")),
                },
            ),
        }
    }
    // JSON over HTTP for every RPC, where the pages are: forwarded to this process's gRPC
    // port (or to the address the console uses), so the gRPC rules apply unchanged.
    if services.contains(&ServiceName::Reporting) {
        let target = match &a.console_grpc {
            Some(url) => arbiter_json_api::Target::Given(url.clone()),
            None => arbiter_json_api::Target::Own {
                grpc: host.grpc_address(),
                services: host.services().to_vec(),
            },
        };
        host.http(arbiter_json_api::router(target));
    }
    if let OpenedLog::Sled(l) = &opened {
        let l = l.clone();
        host.at_stop(async move {
            if let Err(e) = l.flush().await {
                warn!("flushing the log: {e}");
            }
        });
    }

    let bound = host
        .bind(
            SocketAddr::new(a.listen, a.grpc_port),
            SocketAddr::new(a.listen, a.http_port),
        )
        .await
        .map_err(|e| Exit::Unavailable(e.to_string()))?;
    let names: Vec<&str> = services.iter().map(|s| s.name()).collect();
    let mut line = format!(
        "arbiter serving {}: grpc=http://{}",
        names.join(","),
        bound.grpc_addr()
    );
    if let Some(h) = bound.http_addr() {
        line.push_str(&format!(" http=http://{h}"));
    }
    if let Some(port) = a.metrics_port {
        let addr = SocketAddr::new(a.listen, port);
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| Exit::Unavailable(format!("cannot listen on {addr} for metrics: {e}")))?;
        let bound_at = listener
            .local_addr()
            .map_err(|e| Exit::Unavailable(e.to_string()))?;
        line.push_str(&format!(" metrics=http://{bound_at}/metrics"));
        tokio::spawn(arbiter_telemetry::metrics::serve(
            listener,
            shutdown_signal(),
        ));
    }
    line.push_str(&format!(" log={}", opened.describe(&a.log)));
    println!("{line}");
    let _ = std::io::stdout().flush();
    info!("{line}");
    if let (true, Some(h)) = (console, bound.http_addr()) {
        console_sign_in(&a, &server_auth, h)?;
    }

    let served = bound.run(shutdown_signal()).await;
    let _ = telemetry.shutdown().await;
    served.map_err(|e| Exit::Unavailable(e.to_string()))
}

/// The catalogs in `dir`: (language tag, text) of each `*.ftl` file.
/// The console's OIDC sign-in, when configured: the issuer's endpoints read from its
/// discovery document at start.
async fn with_console_oidc(
    config: arbiter_console::Config,
    a: &ServeArgs,
    jwks: Option<&str>,
) -> Result<arbiter_console::Config, Exit> {
    let (Some(client_id), Some(issuer), Some(url)) = (
        &a.console_oidc_client_id,
        &a.auth.oidc_issuer,
        &a.console_url,
    ) else {
        return Ok(config);
    };
    let jwks = jwks.ok_or_else(|| {
        Exit::Invalid("--console-oidc-client-id: the issuer's keys (--oidc-jwks) are needed".into())
    })?;
    let secret = match &a.console_oidc_client_secret_file {
        Some(f) => Some(
            std::fs::read_to_string(f)
                .map_err(|e| {
                    Exit::Invalid(format!(
                        "--console-oidc-client-secret-file {}: {e}",
                        f.display()
                    ))
                })?
                .trim()
                .to_string(),
        ),
        None => None,
    };
    config
        .with_oidc(issuer, client_id, secret, url, jwks)
        .await
        .map_err(|e| {
            Exit::Invalid(format!(
                "--console-oidc-client-id: the issuer {issuer}: {e}"
            ))
        })
}

fn console_languages(dir: Option<&std::path::Path>) -> Result<Vec<(String, String)>, Exit> {
    let Some(dir) = dir else {
        return Ok(Vec::new());
    };
    let bad =
        |e: std::io::Error| Exit::Invalid(format!("--console-languages {}: {e}", dir.display()));
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(bad)? {
        let path = entry.map_err(bad)?.path();
        if path.extension().and_then(|e| e.to_str()) != Some("ftl") {
            continue;
        }
        let tag = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_string();
        let text = std::fs::read_to_string(&path)
            .map_err(|e| Exit::Invalid(format!("--console-languages: {}: {e}", path.display())))?;
        out.push((tag, text));
    }
    out.sort();
    Ok(out)
}

/// Records the console's address in the data folder (for `arbiter console-link`) and says how
/// to sign in: on the first start, with a one-time link.
fn console_sign_in(
    a: &ServeArgs,
    auth: &super::token::ServerAuth,
    http: SocketAddr,
) -> Result<(), Exit> {
    use super::console_link::{CONSOLE_URL_FILE, signed_link};
    let mut at = http;
    if at.ip().is_unspecified() {
        at.set_ip(match at {
            SocketAddr::V4(_) => std::net::Ipv4Addr::LOCALHOST.into(),
            SocketAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
        });
    }
    let base = format!("http://{at}");
    let file = a.log.data.join(CONSOLE_URL_FILE);
    std::fs::write(&file, format!("{base}\n"))
        .map_err(|e| Exit::Unavailable(format!("cannot write {}: {e}", file.display())))?;
    if auth.first_start {
        let admin = arbiter_auth::Principal {
            subject: "admin".into(),
            role: arbiter_auth::Role::Admin,
            tournaments: Vec::new(),
            entry: None,
        };
        let link = signed_link(&auth.keys, &admin, &base, arbiter_auth::link::LINK_LIFETIME)?;
        eprintln!(
            "arbiter: sign in to the console with {link} (valid 15 minutes, once; \
             `arbiter console-link --data {}` prints another)",
            a.log.data.display()
        );
    } else {
        eprintln!(
            "arbiter: the console is at {base}/console/ (`arbiter console-link --data {}` prints \
             a sign-in link)",
            a.log.data.display()
        );
    }
    Ok(())
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
    let registry = arbiter_rating_list::Registry::open(&dir)
        .map_err(|e| Exit::Unavailable(format!("the rating list in {}: {e}", dir.display())))?;
    info!(
        players = registry.len(),
        "registration completes players from the rating list"
    );
    Ok(Some(Arc::new(RatingList(registry))))
}

/// The rating list as registration's player directory.
struct RatingList(arbiter_rating_list::Registry);

impl arbiter_registration::PlayerDirectory for RatingList {
    fn complete(
        &self,
        p: &mut arbiter_core::tournament::RegisterPlayer,
        kind: arbiter_core::tournament::RatingKind,
    ) -> Result<Option<Vec<&'static str>>, String> {
        self.0.complete(p, kind).map_err(|e| e.to_string())
    }

    fn search(
        &self,
        query: &str,
        kind: arbiter_core::tournament::RatingKind,
        limit: usize,
    ) -> Result<Vec<arbiter_core::tournament::RegisterPlayer>, String> {
        let found = self.0.search(query, limit).map_err(|e| e.to_string())?;
        Ok(found
            .into_iter()
            .map(|e| {
                let mut p = arbiter_core::tournament::RegisterPlayer::new("", 0);
                p.fide_id = Some(e.fide_id);
                e.fill(&mut p, kind);
                p
            })
            .collect())
    }
}
