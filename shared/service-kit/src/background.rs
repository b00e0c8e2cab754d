//! Background computation: CPU-heavy work that a follower does on its own account (a pairing
//! engine run, a rating or norm computation, a snapshot's encoding), run on a small pool of
//! threads of lower scheduling priority than the ones that answer calls.
//!
//! Why: on a small machine such work shares the cores with the command path. Run on the
//! async threads it stalls every call queued behind it; run on tokio's blocking pool it takes
//! an equal share of the cores with them, so that under load a recorded result waited for a
//! pairing of another event to finish its time slice. Here the pool's threads run at nice
//! [`NICE`]: the kernel gives a runnable call-handling thread about ten times their share, so
//! the work fills the cores' idle time instead of delaying answers. Results are the same
//! whatever the priority or the number of threads (each job is computed alone, start to end).
//!
//! The pool has as many threads as the machine has cores; jobs are taken in arrival order.

use std::panic::AssertUnwindSafe;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, LazyLock, Mutex};
use tokio::sync::oneshot;

/// How much nicer than the process the pool's threads are (19 is the lowest priority).
pub const NICE: i32 = 10;

type Job = Box<dyn FnOnce() + Send + 'static>;

struct Pool {
    jobs: Mutex<Sender<Job>>,
    threads: usize,
}

static POOL: LazyLock<Pool> = LazyLock::new(|| {
    let threads = std::thread::available_parallelism().map_or(2, usize::from);
    let (jobs, inbox) = channel::<Job>();
    let inbox = Arc::new(Mutex::new(inbox));
    for i in 0..threads {
        let inbox = inbox.clone();
        let spawned = std::thread::Builder::new()
            .name(format!("arbiter-background-{i}"))
            .spawn(move || work(&inbox));
        if let Err(e) = spawned {
            tracing::error!(error = %e, "cannot start a background thread");
        }
    }
    Pool {
        jobs: Mutex::new(jobs),
        threads,
    }
});

fn work(inbox: &Mutex<Receiver<Job>>) {
    lower_priority();
    loop {
        let job = {
            let Ok(inbox) = inbox.lock() else { return };
            match inbox.recv() {
                Ok(job) => job,
                Err(_) => return,
            }
        };
        job();
    }
}

/// Lowers the calling thread's priority by [`NICE`] (on Linux, `setpriority` with
/// `PRIO_PROCESS` and 0 applies to the calling thread only).
fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: getpriority and setpriority only read their integer arguments.
        let now = unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
        let r = unsafe { libc::setpriority(libc::PRIO_PROCESS, 0, (now + NICE).min(19)) };
        if r != 0 {
            tracing::debug!(
                error = %std::io::Error::last_os_error(),
                "background thread keeps the default priority"
            );
        }
    }
}

/// A background job that did not return a value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BackgroundError {
    #[error("the background computation panicked: {0}")]
    Panicked(String),
    #[error("the background pool is not running")]
    Stopped,
}

/// Runs `f` on the background pool and waits for its value.
pub async fn run<T, F>(f: F) -> Result<T, BackgroundError>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    let (reply, answer) = oneshot::channel();
    let job: Job = Box::new(move || {
        let out = std::panic::catch_unwind(AssertUnwindSafe(f)).map_err(|p| {
            let why = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".to_string());
            BackgroundError::Panicked(why)
        });
        let _ = reply.send(out);
    });
    POOL.jobs
        .lock()
        .map_err(|_| BackgroundError::Stopped)?
        .send(job)
        .map_err(|_| BackgroundError::Stopped)?;
    answer.await.map_err(|_| BackgroundError::Stopped)?
}

/// The number of threads of the pool.
pub fn threads() -> usize {
    POOL.threads
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn jobs_return_their_values_and_panics_are_reported() {
        let values = futures::future::join_all((0..20u64).map(|i| run(move || i * i))).await;
        let values: Vec<u64> = values.into_iter().map(Result::unwrap).collect();
        assert_eq!(values, (0..20u64).map(|i| i * i).collect::<Vec<_>>());
        let err = run(|| -> u32 { panic!("boom") }).await.unwrap_err();
        assert_eq!(err, BackgroundError::Panicked("boom".into()));
        // The pool survives a panicking job.
        assert_eq!(run(|| 7).await, Ok(7));
        assert!(threads() >= 1);
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn the_pool_runs_at_a_lower_priority() {
        // SAFETY: getpriority only reads its integer arguments. The threads of this test
        // process, the pool's creator among them, share the process's nice value.
        let nice = run(|| unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) })
            .await
            .unwrap();
        let here = unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) };
        assert_eq!(nice, (here + NICE).min(19), "the caller runs at {here}");
    }
}
