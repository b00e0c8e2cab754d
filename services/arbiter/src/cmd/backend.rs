//! What the event-sourced subcommands (serve, import, replay, export, client, demo) share:
//! where the event log is, and their exit codes.

use arbiter_eventlog::{EventLog, JetStreamConfig, JetStreamLog, SledLog};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// Where the event log is: a sled data folder (default) or NATS JetStream.
#[derive(clap::Args, Debug, Clone)]
pub struct LogArgs {
    /// Data folder of the embedded log (the event log is in its `log` subfolder).
    #[arg(long, default_value = "./data", env = "ARBITER_DATA")]
    pub data: PathBuf,
    /// NATS server URLs (comma-separated): use JetStream as the log instead of the data folder.
    #[arg(long, value_delimiter = ',')]
    pub nats: Vec<String>,
}

/// The log as opened.
pub enum OpenedLog {
    Sled(SledLog),
    JetStream(JetStreamLog),
}

impl OpenedLog {
    pub fn as_dyn(&self) -> Arc<dyn EventLog> {
        match self {
            OpenedLog::Sled(l) => Arc::new(l.clone()),
            OpenedLog::JetStream(l) => Arc::new(l.clone()),
        }
    }

    pub fn describe(&self, args: &LogArgs) -> String {
        match self {
            OpenedLog::Sled(_) => format!("sled:{}", log_dir(&args.data).display()),
            OpenedLog::JetStream(_) => format!("nats:{}", args.nats.join(",")),
        }
    }
}

/// The folder of the sled event log inside a data folder.
pub fn log_dir(data: &Path) -> PathBuf {
    data.join("log")
}

impl LogArgs {
    pub fn uses_nats(&self) -> bool {
        !self.nats.is_empty()
    }

    /// Opens the log named by the arguments.
    pub async fn open(&self) -> Result<OpenedLog, Exit> {
        if self.uses_nats() {
            let log = JetStreamLog::connect(&self.nats, JetStreamConfig::default())
                .await
                .map_err(|e| {
                    Exit::Unavailable(format!(
                        "cannot use JetStream at {}: {e}",
                        self.nats.join(",")
                    ))
                })?;
            return Ok(OpenedLog::JetStream(log));
        }
        let dir = log_dir(&self.data);
        let log = SledLog::open(&dir).map_err(|e| {
            if e.to_string().to_ascii_lowercase().contains("corrupt") {
                Exit::Damaged(format!(
                    "the event log in {} is damaged: {e}",
                    dir.display()
                ))
            } else {
                Exit::Unavailable(format!(
                    "cannot open the event log in {}: {e} (is `arbiter serve` running on this \
                     data folder? sled allows one process at a time)",
                    dir.display()
                ))
            }
        })?;
        Ok(OpenedLog::Sled(log))
    }
}

/// How an event-sourced subcommand ends.
#[derive(Debug)]
pub enum Exit {
    /// 2: a re-run pairing differs from the published one, or a command was refused.
    Differs(String),
    /// 3: the input (a file, an argument) is invalid.
    Invalid(String),
    /// 4: the event log is damaged (hash chain, undecodable or misfitting events).
    Damaged(String),
    /// 5: the log, a file or a server cannot be reached.
    Unavailable(String),
}

impl Exit {
    pub fn code(&self) -> u8 {
        match self {
            Exit::Differs(_) => 2,
            Exit::Invalid(_) => 3,
            Exit::Damaged(_) => 4,
            Exit::Unavailable(_) => 5,
        }
    }

    pub fn report(self) -> ExitCode {
        let code = self.code();
        let (Exit::Differs(m) | Exit::Invalid(m) | Exit::Damaged(m) | Exit::Unavailable(m)) = self;
        eprintln!("error: {m}");
        ExitCode::from(code)
    }
}

/// Worker threads per core when `TOKIO_WORKER_THREADS` does not say.
///
/// Why more than one: a service's tasks do short synchronous work on the workers (reading
/// the embedded log, folding events into a stream's state). With one worker per core, a
/// burst of such work on both workers left every ready call waiting for a worker, and the
/// load bench's recorded results had a p99 of about 300 ms while the log's commits took
/// under 13 ms; with three per core the kernel time-slices them and the p99 fell to about
/// 60 ms (`cargo bench -p arbiter --bench load -- --events 200 --think-ms 140`, 2 cores).
const WORKERS_PER_CORE: usize = 3;

/// Runs an async subcommand on a fresh multi-threaded runtime.
pub fn block_on<F>(f: F) -> ExitCode
where
    F: std::future::Future<Output = Result<(), Exit>>,
{
    let mut builder = tokio::runtime::Builder::new_multi_thread();
    // tokio reads TOKIO_WORKER_THREADS itself unless a number is set here.
    if std::env::var_os("TOKIO_WORKER_THREADS").is_none() {
        let cores = std::thread::available_parallelism().map_or(2, usize::from);
        builder.worker_threads(cores * WORKERS_PER_CORE);
    }
    let rt = match builder.enable_all().build() {
        Ok(rt) => rt,
        Err(e) => return Exit::Unavailable(format!("cannot start the runtime: {e}")).report(),
    };
    let code = match rt.block_on(f) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => e.report(),
    };
    // Blocking tasks still running (a pairing abandoned at shutdown) are not waited for.
    rt.shutdown_timeout(std::time::Duration::from_millis(200));
    code
}

/// A gRPC status as an exit: refusals are 2, bad arguments 3, damage 4, transport 5.
pub fn status_exit(context: &str, s: &tonic::Status) -> Exit {
    use tonic::Code;
    let m = format!("{context}: {:?}: {}", s.code(), s.message());
    match s.code() {
        Code::InvalidArgument | Code::OutOfRange => Exit::Invalid(m),
        Code::DataLoss => Exit::Damaged(m),
        Code::Unavailable | Code::DeadlineExceeded | Code::Unknown | Code::Internal => {
            Exit::Unavailable(m)
        }
        _ => Exit::Differs(m),
    }
}
