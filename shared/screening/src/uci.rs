//! Stockfish over UCI: one tokio child process per worker, driven under the rules that make its
//! answers reproducible (docs/src/benchmarks.md): `Threads=1`, a fixed node budget, `ucinewgame`
//! and a cleared hash before every position. The engine is a separate process, never linked.

use crate::score::Score;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::sync::{Mutex, mpsc, oneshot};

/// Why the engine could not answer.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum EngineError {
    #[error(
        "no chess engine found: set the engine path, or install Stockfish (Debian package `stockfish`, /usr/games/stockfish)"
    )]
    NotFound,
    #[error("engine {path}: cannot start: {reason}")]
    Spawn { path: String, reason: String },
    #[error("engine {path}: {reason}")]
    Protocol { path: String, reason: String },
    #[error("engine {path}: no answer within {seconds} s")]
    Timeout { path: String, seconds: u64 },
    #[error("the engine pool is closed")]
    Closed,
}

/// Finds the engine: an explicit path, else `STOCKFISH_PATH`, else `stockfish` on `PATH`,
/// else Debian's /usr/games/stockfish (not on every user's `PATH`).
pub fn find_engine(explicit: Option<&Path>) -> Result<PathBuf, EngineError> {
    if let Some(p) = explicit {
        return Ok(p.to_path_buf());
    }
    if let Some(p) = std::env::var_os("STOCKFISH_PATH") {
        return Ok(PathBuf::from(p));
    }
    let on_path = std::env::var_os("PATH")
        .map(|v| {
            std::env::split_paths(&v)
                .map(|d| d.join("stockfish"))
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    on_path
        .into_iter()
        .chain([PathBuf::from("/usr/games/stockfish")])
        .find(|p| p.is_file())
        .ok_or(EngineError::NotFound)
}

/// The analysis settings a baseline is bound to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineProfile {
    /// Short human label, e.g. `sf15.1-n20k-mpv3`.
    pub label: String,
    /// What the engine answers to `uci` (`id name ...`).
    pub engine: String,
    pub nodes: u64,
    pub multipv: u32,
    pub hash_mb: u32,
}

impl EngineProfile {
    /// The quick-test profile the shipped baseline was fitted with.
    pub fn quick() -> EngineProfile {
        EngineProfile {
            label: "sf15.1-n20k-mpv3".into(),
            engine: "Stockfish 15.1".into(),
            nodes: 20_000,
            multipv: 3,
            hash_mb: 16,
        }
    }

    /// The full-test profile: 20 ranked candidates at five times the quick budget. A budget of
    /// 3M nodes, as first planned, costs about 5 s a position here; this
    /// one about 0.2 s, so a whole event can be given the full test on demand.
    pub fn full() -> EngineProfile {
        EngineProfile {
            label: "sf15.1-n100k-mpv20".into(),
            engine: "Stockfish 15.1".into(),
            nodes: 100_000,
            multipv: 20,
            hash_mb: 16,
        }
    }

    /// SHA-256 over every setting that changes an answer; recorded with every result.
    pub fn id(&self) -> String {
        let canon = format!(
            "engine={}\nthreads=1\nhash_mb={}\nmultipv={}\nnodes={}\nanalyse_mode=true\nucinewgame_per_position=true\n",
            self.engine, self.hash_mb, self.multipv, self.nodes
        );
        hex(&Sha256::digest(canon.as_bytes()))[..16].to_string()
    }
}

pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 of the engine binary, recorded next to the profile for auditors.
pub fn binary_sha256(path: &Path) -> Result<String, EngineError> {
    let bytes = std::fs::read(path).map_err(|e| EngineError::Spawn {
        path: path.display().to_string(),
        reason: e.to_string(),
    })?;
    Ok(hex(&Sha256::digest(&bytes)))
}

/// One candidate move of a MultiPV answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Candidate {
    pub uci: String,
    pub score: Score,
    pub depth: u32,
}

/// The engine's answer for one position: candidates best first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Analysis {
    pub candidates: Vec<Candidate>,
    pub bestmove: String,
}

/// A running engine process.
pub struct Engine {
    path: String,
    child: Child,
    stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
    /// `id name` as the engine reported it.
    pub id_name: String,
}

impl Engine {
    /// Starts the engine, checks the UCI handshake and sets `options` (name, value).
    pub async fn start(path: &Path, options: &[(&str, String)]) -> Result<Engine, EngineError> {
        let shown = path.display().to_string();
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .map_err(|e| EngineError::Spawn {
                path: shown.clone(),
                reason: e.to_string(),
            })?;
        let stdin = child.stdin.take().ok_or(EngineError::Closed)?;
        let stdout = child.stdout.take().ok_or(EngineError::Closed)?;
        let mut engine = Engine {
            path: shown,
            child,
            stdin,
            lines: BufReader::new(stdout).lines(),
            id_name: String::new(),
        };
        let handshake = async {
            engine.send("uci").await?;
            loop {
                let line = engine.line().await?;
                if let Some(name) = line.strip_prefix("id name ") {
                    engine.id_name = name.trim().to_string();
                }
                if line.trim() == "uciok" {
                    break;
                }
            }
            for (name, value) in options {
                engine
                    .send(&format!("setoption name {name} value {value}"))
                    .await?;
            }
            engine.ready().await
        };
        tokio::time::timeout(Duration::from_secs(20), handshake)
            .await
            .map_err(|_| EngineError::Timeout {
                path: path.display().to_string(),
                seconds: 20,
            })??;
        Ok(engine)
    }

    async fn send(&mut self, cmd: &str) -> Result<(), EngineError> {
        let path = self.path.clone();
        let io = |e: std::io::Error| EngineError::Protocol {
            path: path.clone(),
            reason: e.to_string(),
        };
        self.stdin.write_all(cmd.as_bytes()).await.map_err(io)?;
        self.stdin.write_all(b"\n").await.map_err(io)?;
        self.stdin.flush().await.map_err(io)
    }

    async fn line(&mut self) -> Result<String, EngineError> {
        match self.lines.next_line().await {
            Ok(Some(l)) => Ok(l),
            Ok(None) => Err(EngineError::Protocol {
                path: self.path.clone(),
                reason: "the engine exited".into(),
            }),
            Err(e) => Err(EngineError::Protocol {
                path: self.path.clone(),
                reason: e.to_string(),
            }),
        }
    }

    async fn ready(&mut self) -> Result<(), EngineError> {
        self.send("isready").await?;
        while self.line().await?.trim() != "readyok" {}
        Ok(())
    }

    /// `ucinewgame`, the position, `go GO`; returns the candidates (see [`candidates_of`])
    /// and the best move.
    pub async fn search(&mut self, position: &str, go: &str) -> Result<Analysis, EngineError> {
        self.send("ucinewgame").await?;
        self.ready().await?;
        self.send(&format!("position {position}")).await?;
        self.send(&format!("go {go}")).await?;
        let mut lines = Vec::new();
        loop {
            let line = self.line().await?;
            if let Some(rest) = line.strip_prefix("bestmove") {
                let bestmove = rest
                    .split_whitespace()
                    .next()
                    .unwrap_or("(none)")
                    .to_string();
                return Ok(Analysis {
                    candidates: candidates_of(&lines),
                    bestmove,
                });
            }
            if let Some(info) = parse_info_line(&line) {
                lines.push(info);
            }
        }
    }

    /// Kills the process.
    pub async fn kill(mut self) {
        let _ = self.child.kill().await;
    }
}

/// The candidates of a search from its `info ... multipv k ... pv` lines in order (each with
/// whether its score is only a bound): for each k the last line with an exact score.
///
/// Only the lines Stockfish prints whatever the wall time are read. It prints all its
/// lines (multipv 1 first) at the end of every iteration and once more when the node budget
/// stops the search; but once a search has run for three seconds it also prints them after
/// each PV of an iteration, and a line of those can be the last exact one for its k. A
/// search slowed by a loaded machine would then answer differently. So of the blocks printed
/// at one depth only the last is read (the end of that iteration, or the final one): the
/// answer is the one a fast search gives, on any machine at any load.
fn candidates_of(lines: &[(usize, Candidate, bool)]) -> Vec<Candidate> {
    // Blocks: runs starting at multipv 1.
    let mut blocks: Vec<&[(usize, Candidate, bool)]> = Vec::new();
    let mut start = 0;
    for i in 1..=lines.len() {
        if i == lines.len() || lines[i].0 == 1 {
            if i > start {
                blocks.push(&lines[start..i]);
            }
            start = i;
        }
    }
    let depth = |b: &[(usize, Candidate, bool)]| b[0].1.depth;
    let mut by_pv: Vec<Option<Candidate>> = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        if blocks
            .get(i + 1)
            .is_some_and(|next| depth(next) == depth(block))
        {
            continue;
        }
        for (k, cand, bound) in block.iter() {
            if *bound {
                continue;
            }
            if by_pv.len() < *k {
                by_pv.resize(*k, None);
            }
            by_pv[k - 1] = Some(cand.clone());
        }
    }
    by_pv.into_iter().map_while(|c| c).collect()
}

/// `info depth 12 ... multipv 2 score cp 31 ... pv e2e4 ...` => (2, candidate), when the
/// score is exact.
#[cfg(test)]
fn parse_info(line: &str) -> Option<(usize, Candidate)> {
    parse_info_line(line)
        .filter(|(_, _, bound)| !bound)
        .map(|(k, c, _)| (k, c))
}

/// `info depth 12 ... multipv 2 score cp 31 [lowerbound] ... pv e2e4 ...` => (2, candidate,
/// whether the score is only a bound).
fn parse_info_line(line: &str) -> Option<(usize, Candidate, bool)> {
    let mut it = line.split_whitespace();
    if it.next()? != "info" {
        return None;
    }
    let (mut depth, mut multipv, mut score, mut pv) = (None, 1usize, None, None);
    let mut bound = false;
    while let Some(tok) = it.next() {
        match tok {
            "depth" => depth = it.next()?.parse().ok(),
            "multipv" => multipv = it.next()?.parse().ok()?,
            "score" => {
                let kind = it.next()?;
                let v: i32 = it.next()?.parse().ok()?;
                score = Some(if kind == "mate" {
                    Score::Mate(v)
                } else {
                    Score::Cp(v)
                });
            }
            "lowerbound" | "upperbound" => bound = true,
            "pv" => {
                pv = it.next().map(str::to_string);
                break;
            }
            _ => {}
        }
    }
    if multipv == 0 {
        return None;
    }
    Some((
        multipv,
        Candidate {
            uci: pv?,
            score: score?,
            depth: depth?,
        },
        bound,
    ))
}

struct Job {
    fen: String,
    reply: oneshot::Sender<Result<Analysis, EngineError>>,
}

/// A pool of engine workers, each with its own `Threads=1` process.
pub struct EnginePool {
    tx: mpsc::Sender<Job>,
    profile: EngineProfile,
    binary_sha256: String,
}

impl EnginePool {
    /// Starts `workers` engines and checks that they are the engine the profile names.
    pub async fn start(
        path: &Path,
        profile: EngineProfile,
        workers: usize,
    ) -> Result<EnginePool, EngineError> {
        let workers = workers.max(1);
        let options = analysis_options(&profile);
        let mut engines = Vec::with_capacity(workers);
        for _ in 0..workers {
            engines.push(Engine::start(path, &options).await?);
        }
        if engines[0].id_name != profile.engine {
            return Err(EngineError::Protocol {
                path: path.display().to_string(),
                reason: format!(
                    "answers `id name {}`, but the profile {} was made with {}",
                    engines[0].id_name, profile.label, profile.engine
                ),
            });
        }
        let binary_sha256 = binary_sha256(path)?;
        let (tx, rx) = mpsc::channel::<Job>(workers * 4);
        let rx = Arc::new(Mutex::new(rx));
        for engine in engines {
            let rx = rx.clone();
            let path = path.to_path_buf();
            let profile = profile.clone();
            tokio::spawn(worker(engine, path, profile, rx));
        }
        Ok(EnginePool {
            tx,
            profile,
            binary_sha256,
        })
    }

    pub fn profile(&self) -> &EngineProfile {
        &self.profile
    }

    pub fn binary_sha256(&self) -> &str {
        &self.binary_sha256
    }

    /// Analyses one position given as FEN.
    pub async fn analyse(&self, fen: &str) -> Result<Analysis, EngineError> {
        let (reply, rx) = oneshot::channel();
        self.tx
            .send(Job {
                fen: fen.to_string(),
                reply,
            })
            .await
            .map_err(|_| EngineError::Closed)?;
        rx.await.map_err(|_| EngineError::Closed)?
    }
}

fn analysis_options(profile: &EngineProfile) -> Vec<(&'static str, String)> {
    vec![
        ("Threads", "1".into()),
        ("Hash", profile.hash_mb.to_string()),
        ("MultiPV", profile.multipv.to_string()),
        ("UCI_AnalyseMode", "true".into()),
    ]
}

/// Generous deadline: a node-limited search takes well under a second at quick budgets; ten
/// seconds per 100k nodes (plus start-up) only trips on a hung or starved process.
fn deadline(profile: &EngineProfile) -> Duration {
    Duration::from_secs(10 + profile.nodes / 10_000)
}

async fn worker(
    mut engine: Engine,
    path: PathBuf,
    profile: EngineProfile,
    rx: Arc<Mutex<mpsc::Receiver<Job>>>,
) {
    let go = format!("nodes {}", profile.nodes);
    loop {
        let job = { rx.lock().await.recv().await };
        let Some(job) = job else {
            engine.kill().await;
            return;
        };
        let position = format!("fen {}", job.fen);
        let limit = deadline(&profile);
        let mut result = run(&mut engine, &position, &go, limit).await;
        if result.is_err() {
            // Hung or dead: replace the process and try once more.
            match Engine::start(&path, &analysis_options(&profile)).await {
                Ok(fresh) => {
                    std::mem::replace(&mut engine, fresh).kill().await;
                    result = run(&mut engine, &position, &go, limit).await;
                }
                Err(e) => result = Err(e),
            }
        }
        let _ = job.reply.send(result);
    }
}

async fn run(
    engine: &mut Engine,
    position: &str,
    go: &str,
    limit: Duration,
) -> Result<Analysis, EngineError> {
    match tokio::time::timeout(limit, engine.search(position, go)).await {
        Ok(r) => r,
        Err(_) => Err(EngineError::Timeout {
            path: engine.path.clone(),
            seconds: limit.as_secs(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_with_bounds_are_skipped() {
        let l = "info depth 9 seldepth 12 multipv 2 score cp -14 nodes 9000 nps 1 pv g1f3 d7d5";
        assert_eq!(
            parse_info(l),
            Some((
                2,
                Candidate {
                    uci: "g1f3".into(),
                    score: Score::Cp(-14),
                    depth: 9
                }
            ))
        );
        assert_eq!(
            parse_info("info depth 9 multipv 1 score cp 20 lowerbound pv e2e4"),
            None
        );
        assert_eq!(parse_info("info string NNUE evaluation enabled"), None);
        assert_eq!(
            parse_info("info depth 3 multipv 1 score mate -2 pv h1h2").map(|x| x.1.score),
            Some(Score::Mate(-2))
        );
    }

    fn info(depth: u32, k: usize, uci: &str, cp: i32, bound: bool) -> (usize, Candidate, bool) {
        (
            k,
            Candidate {
                uci: uci.into(),
                score: Score::Cp(cp),
                depth,
            },
            bound,
        )
    }

    #[test]
    fn a_search_slowed_past_three_seconds_gives_the_same_candidates() {
        // What a fast search prints: the end of depths 1 and 2, then the stop during depth 3
        // with line 2 only a bound (its last exact line is depth 2's).
        let fast = vec![
            info(1, 1, "e2e4", 30, false),
            info(1, 2, "d2d4", 25, false),
            info(2, 1, "e2e4", 28, false),
            info(2, 2, "d2d4", 26, false),
            info(3, 1, "d2d4", 31, false),
            info(3, 2, "e2e4", 20, true),
        ];
        // The same search slowed: during depth 3 it also printed after the first PV, showing
        // another move as line 2 with an exact score.
        let mut slow = fast.clone();
        slow.splice(
            4..4,
            [info(3, 1, "d2d4", 31, false), info(3, 2, "c2c4", 24, false)],
        );
        let want = vec![
            Candidate {
                uci: "d2d4".into(),
                score: Score::Cp(31),
                depth: 3,
            },
            Candidate {
                uci: "d2d4".into(),
                score: Score::Cp(26),
                depth: 2,
            },
        ];
        assert_eq!(candidates_of(&fast), want);
        assert_eq!(candidates_of(&slow), want);
        // Reading every line, as before, the slowed search answered c2c4 for line 2.
        let mut every: Vec<Option<Candidate>> = vec![None; 2];
        for (k, c, bound) in &slow {
            if !bound {
                every[k - 1] = Some(c.clone());
            }
        }
        assert_eq!(every[1].as_ref().map(|c| c.uci.as_str()), Some("c2c4"));
    }

    #[test]
    fn the_profile_id_changes_with_the_budget() {
        let a = EngineProfile::quick();
        let mut b = a.clone();
        b.nodes += 1;
        assert_ne!(a.id(), b.id());
        assert_eq!(a.id().len(), 16);
    }
}
