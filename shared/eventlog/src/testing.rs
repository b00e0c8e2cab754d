//! Test fixtures (cargo feature `test-fixtures`): real `nats-server` processes and temporary
//! folders, for this crate's tests and for end-to-end tests elsewhere.
//!
//! The server binary is `$NATS_SERVER_BIN`, or `nats-server` on the `PATH`, or
//! `/usr/sbin/nats-server` (Debian/Ubuntu: `apt-get install -y nats-server`). Every server gets free loopback ports and a store folder in
//! its own temporary folder, and is killed when dropped, so tests can run in parallel.
//!
//! ```no_run
//! # async fn demo() -> std::io::Result<()> {
//! use arbiter_eventlog::testing::{NatsCluster, NatsServer};
//! let server = NatsServer::start().await?;          // one node with JetStream
//! let url = server.url();                           // nats://127.0.0.1:<port>
//! let mut cluster = NatsCluster::start(3).await?;   // three routed nodes
//! let urls = cluster.urls();
//! cluster.node_mut(0).kill();
//! cluster.node_mut(0).restart().await?;             // same ports, same store
//! # Ok(()) }
//! ```
//!
//! A test process killed with SIGKILL cannot run `Drop`, and its servers outlive it; since every
//! server uses fresh ports and folders, leftovers do not disturb later runs.

use std::fs::File;
use std::io::{self, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The `nats-server` binary: `$NATS_SERVER_BIN`, else `nats-server` on the `PATH`, else
/// `/usr/sbin/nats-server` (where the Debian package puts it, not on a normal user's `PATH`).
pub fn nats_server_bin() -> PathBuf {
    if let Some(bin) = std::env::var_os("NATS_SERVER_BIN") {
        return PathBuf::from(bin);
    }
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("nats-server"))
            .find(|p| p.is_file())
    });
    let debian = Path::new("/usr/sbin/nats-server");
    on_path.unwrap_or_else(|| {
        if debian.is_file() {
            debian.to_path_buf()
        } else {
            PathBuf::from("nats-server")
        }
    })
}

/// A folder under the system temp folder, removed with its contents on drop.
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    pub fn new(prefix: &str) -> io::Result<TempDir> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let path = std::env::temp_dir().join(format!(
            "{prefix}-{}-{}-{nanos}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&path)?;
        Ok(TempDir { path })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// A currently free TCP port on 127.0.0.1 for a server started later.
///
/// Ports come from 20000-32767, below the kernel's usual ephemeral range (32768-60999), so the
/// outgoing connections and `bind(0)` listeners of other tests running at the same time cannot
/// take the port between this check and the server's own bind. The start is spread by process id
/// and a counter; a port that does not bind now is skipped.
pub fn free_port() -> io::Result<u16> {
    const LOW: u32 = 20_000;
    const SPAN: u32 = 12_768;
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let seed = std::process::id().wrapping_mul(2_654_435_761) ^ nanos;
    for _ in 0..SPAN {
        let k = NEXT.fetch_add(1, Ordering::Relaxed) as u32;
        // 7919 is prime and does not divide SPAN, so the walk visits every port.
        let port = (LOW + (seed.wrapping_add(k.wrapping_mul(7919))) % SPAN) as u16;
        if TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return Ok(port);
        }
    }
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// Whether a server's failure to start was a port taken by someone else (worth a retry on
/// fresh ports).
fn port_taken(e: &io::Error) -> bool {
    e.to_string().contains("address already in use")
}

#[derive(Clone)]
struct ClusterOpts {
    name: String,
    port: u16,
    routes: Vec<u16>,
}

/// One `nats-server` process with JetStream enabled, killed on drop.
pub struct NatsServer {
    name: String,
    port: u16,
    monitor_port: u16,
    store_dir: PathBuf,
    log_file: PathBuf,
    cluster: Option<ClusterOpts>,
    child: Option<Child>,
    _dir: Option<TempDir>,
}

impl NatsServer {
    /// Starts a single JetStream server and waits until it is ready.
    /// A port taken between choosing it and the server's bind is retried on fresh ports.
    pub async fn start() -> io::Result<NatsServer> {
        let mut attempt = 0;
        loop {
            attempt += 1;
            match Self::start_once().await {
                Err(e) if attempt < 5 && port_taken(&e) => continue,
                r => return r,
            }
        }
    }

    async fn start_once() -> io::Result<NatsServer> {
        let dir = TempDir::new("arbiter-nats")?;
        let mut server = NatsServer::new("single", dir.path(), None)?;
        server._dir = Some(dir);
        server.spawn()?;
        server.wait_ready(Duration::from_secs(15)).await?;
        Ok(server)
    }

    fn new(name: &str, dir: &Path, cluster: Option<ClusterOpts>) -> io::Result<NatsServer> {
        Ok(NatsServer {
            name: name.to_string(),
            port: free_port()?,
            monitor_port: free_port()?,
            store_dir: dir.join(name),
            log_file: dir.join(format!("{name}.log")),
            cluster,
            child: None,
            _dir: None,
        })
    }

    fn spawn(&mut self) -> io::Result<()> {
        let log = File::options()
            .create(true)
            .append(true)
            .open(&self.log_file)?;
        let mut cmd = Command::new(nats_server_bin());
        cmd.args([
            "-a",
            "127.0.0.1",
            "-p",
            &self.port.to_string(),
            "-n",
            &self.name,
            "-js",
        ])
        .arg("-sd")
        .arg(&self.store_dir)
        .args(["-m", &self.monitor_port.to_string()]);
        if let Some(c) = &self.cluster {
            let routes: Vec<String> = c
                .routes
                .iter()
                .map(|p| format!("nats://127.0.0.1:{p}"))
                .collect();
            cmd.args(["--cluster_name", &c.name])
                .args(["--cluster", &format!("nats://127.0.0.1:{}", c.port)])
                .args(["--routes", &routes.join(",")]);
        }
        cmd.stdin(Stdio::null())
            .stdout(Stdio::from(log.try_clone()?))
            .stderr(Stdio::from(log));
        let child = cmd.spawn().map_err(|e| {
            io::Error::new(
                e.kind(),
                format!(
                    "cannot start {:?} ({e}); install nats-server or set NATS_SERVER_BIN",
                    nats_server_bin()
                ),
            )
        })?;
        self.child = Some(child);
        Ok(())
    }

    /// The client URL, `nats://127.0.0.1:<port>`.
    pub fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    /// The server name (`-n`), as JetStream reports it in cluster info.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The HTTP monitoring endpoint, `http://127.0.0.1:<port>`.
    pub fn monitor_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.monitor_port)
    }

    pub fn store_dir(&self) -> &Path {
        &self.store_dir
    }

    /// The server's own log (stdout and stderr), for failing tests to print.
    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log_file).unwrap_or_default()
    }

    pub fn is_running(&mut self) -> bool {
        matches!(self.child.as_mut().map(|c| c.try_wait()), Some(Ok(None)))
    }

    /// Kills the process (SIGKILL) and waits for it to exit.
    pub fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }

    /// Starts the process again with the same name, ports and store, and waits until ready.
    pub async fn restart(&mut self) -> io::Result<()> {
        self.kill();
        self.spawn()?;
        self.wait_ready(Duration::from_secs(15)).await
    }

    /// Waits until `GET /healthz?js-enabled-only=true` answers 200.
    pub async fn wait_ready(&mut self, timeout: Duration) -> io::Result<()> {
        let deadline = Instant::now() + timeout;
        loop {
            if !self.is_running() {
                return Err(io::Error::other(format!(
                    "nats-server {} exited; its log:\n{}",
                    self.name,
                    self.log()
                )));
            }
            if http_status(self.monitor_port, "/healthz?js-enabled-only=true") == Some(200) {
                return Ok(());
            }
            if Instant::now() >= deadline {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!(
                        "nats-server {} not ready after {timeout:?}; its log:\n{}",
                        self.name,
                        self.log()
                    ),
                ));
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
}

impl Drop for NatsServer {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The status code of a plain HTTP/1.0 GET on 127.0.0.1 (None when it cannot be read).
fn http_status(port: u16, path: &str) -> Option<u16> {
    let addr = std::net::SocketAddr::from(([127, 0, 0, 1], port));
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_millis(200)).ok()?;
    s.set_read_timeout(Some(Duration::from_millis(500))).ok()?;
    write!(s, "GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").ok()?;
    let mut buf = [0u8; 64];
    let n = s.read(&mut buf).ok()?;
    let line = std::str::from_utf8(&buf[..n]).ok()?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// A cluster of JetStream servers routed to each other on loopback.
pub struct NatsCluster {
    nodes: Vec<NatsServer>,
    _dir: TempDir,
}

impl NatsCluster {
    /// Starts `n` nodes (named `n1`, `n2`, ...) and waits until each has JetStream enabled.
    /// The JetStream meta leader may still be being elected; create streams with a retry.
    /// A port taken between choosing it and a node's bind is retried on fresh ports.
    pub async fn start(n: usize) -> io::Result<NatsCluster> {
        let mut attempt = 0;
        loop {
            attempt += 1;
            match Self::start_once(n).await {
                Err(e) if attempt < 5 && port_taken(&e) => continue,
                r => return r,
            }
        }
    }

    async fn start_once(n: usize) -> io::Result<NatsCluster> {
        let dir = TempDir::new("arbiter-nats-cluster")?;
        let cluster_ports: Vec<u16> = (0..n).map(|_| free_port()).collect::<io::Result<_>>()?;
        let mut nodes = Vec::with_capacity(n);
        for i in 0..n {
            let routes = cluster_ports
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, p)| *p)
                .collect();
            let opts = ClusterOpts {
                name: "arbiter-test".into(),
                port: cluster_ports[i],
                routes,
            };
            nodes.push(NatsServer::new(
                &format!("n{}", i + 1),
                dir.path(),
                Some(opts),
            )?);
        }
        for node in &mut nodes {
            node.spawn()?;
        }
        for node in &mut nodes {
            node.wait_ready(Duration::from_secs(20)).await?;
        }
        Ok(NatsCluster { nodes, _dir: dir })
    }

    /// Client URLs of every node.
    pub fn urls(&self) -> Vec<String> {
        self.nodes.iter().map(NatsServer::url).collect()
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn node(&self, i: usize) -> &NatsServer {
        &self.nodes[i]
    }

    pub fn node_mut(&mut self, i: usize) -> &mut NatsServer {
        &mut self.nodes[i]
    }

    /// The node with the given server name (e.g. the stream leader JetStream reports).
    pub fn node_named(&mut self, name: &str) -> Option<&mut NatsServer> {
        self.nodes.iter_mut().find(|n| n.name == name)
    }
}

/// Changes the stored bytes of one event of a sled log in the folder `dir` (closed), as damage
/// that sled's own checksums do not see would: `edit` gets the stored record (the event's
/// fields, payload and hashes as the log wrote them), so a flipped byte makes the event fail
/// its hash check when read. Returns false when there is no such event.
pub fn damage_stored_event(
    dir: &Path,
    stream: &str,
    version: crate::Version,
    edit: impl FnOnce(&mut Vec<u8>),
) -> Result<bool, String> {
    let db = crate::sled_config::config(dir, crate::sled_config::LOG)
        .open()
        .map_err(|e| e.to_string())?;
    let tree = db
        .open_tree(format!("{}{stream}", crate::sled_log::EVENTS_PREFIX))
        .map_err(|e| e.to_string())?;
    let Some(value) = tree.get(version.to_be_bytes()).map_err(|e| e.to_string())? else {
        drop((tree, db));
        wait_sled_released(dir)?;
        return Ok(false);
    };
    // The first 8 bytes are the append's position, outside the record.
    let mut record = value[8..].to_vec();
    edit(&mut record);
    let mut stored = value[..8].to_vec();
    stored.extend(record);
    tree.insert(version.to_be_bytes(), stored)
        .map_err(|e| e.to_string())?;
    db.flush().map_err(|e| e.to_string())?;
    drop((tree, db));
    // The caller reopens the folder next.
    wait_sled_released(dir)?;
    Ok(true)
}

/// Waits until sled has let go of the database in `dir` once its last handle is dropped (a
/// test that opens a folder with sled itself and then as a log; the log and checkpoint store
/// wait on their own).
pub fn wait_sled_released(dir: &Path) -> Result<(), String> {
    crate::sled_config::wait_released(dir, std::time::Duration::from_secs(30))
}
