//! The cross-check campaign of FIDE's endorsement procedure (C.04.A): tournaments from one
//! program's generator checked by the other program's checkers, both ways.
//!
//! - ours → theirs: `arbiter generate` writes the tournaments; gacrux (FIDE TEC's tool, from
//!   pip) checks every round's pairing with its pairing checker (Dutch 2025/2026 rules, the only
//!   Swiss rules it pairs) and computes the tie-breaks with its tie-break checker, which
//!   `arbiter check --standings` compares value by value with ours.
//! - theirs → ours: gacrux's tournament generator writes the tournaments; `arbiter check`
//!   re-pairs every round and compares every tie-break value with gacrux's table.
//!
//! Shared by the end-to-end test (a sample of a few hundred) and the `fide_crosscheck` bench
//! (the full campaign); it needs `python3` with gacrux installed and the `arbiter` binary.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A team Swiss's tie-breaks as gacrux's tie-break checker names them: the recommended team
/// Swiss list (C.07: MPvGP, DE, BH/C1, BH, EMGSB) on match points or on game points.
pub const TEAM_TIEBREAKS_MP: &str = "PTS MPVGP DE BH:MP/C1 BH:MP EMGSB";
pub const TEAM_TIEBREAKS_GP: &str = "GPTS MPVGP DE BH:GP/C1 BH:GP EMGSB";

/// The gacrux release the campaign is run against (pinned in .ci/run).
pub const GACRUX: &str = "1.11.65";

/// The C.07 tie-breaks of an individual Swiss both programs compute, in ranking order. Fore
/// Buchholz comes last: gacrux 1.11.65 computes AOB differently once FB has been computed
/// before it in the same list (its FB leaves per-player state behind), while AOB alone, or
/// before FB, agrees with ours.
pub const SWISS_TIEBREAKS: &str = "PTS BH/C1 BH/C2 BH/M1 BH/M2 BH SB/C1 SB PS DE WIN WON BPG BWG REP AOB ARO ARO/C1 TPR PTP APRO APPO FB";
/// A round robin's: never the Buchholz family (C.07 Art. 8, 2026). The counts of games (WON,
/// BPG, BWG) are left out: in a pre-determined event a forfeit is a regular game (Art. 15), so
/// arbiter counts a forfeit win among the games won and played, where gacrux counts games over
/// the board only; the `fide_crosscheck` bench measures that difference (`--with-game-counts`).
pub const ROUND_ROBIN_TIEBREAKS: &str = "PTS DE WIN SB KS ARO TPR PTP APRO";
/// The counts of games a round robin's list adds with `with_game_counts`.
pub const GAME_COUNTS: &str = "WON BPG BWG";

/// `arbiter generate`'s arguments for a field with many byes, withdrawals, forfeits and
/// unusual results (per mille).
pub const HEAVY: [&str; 10] = [
    "--half-byes",
    "120",
    "--zero-byes",
    "60",
    "--withdrawals",
    "30",
    "--forfeits",
    "60",
    "--unusual",
    "30",
];

pub struct Tools {
    pub arbiter: PathBuf,
    pub python: String,
    /// A built bbpPairings (v5.0.1: the Dutch rules of 2017), for the `dutch-2017` cells.
    pub bbp: Option<PathBuf>,
    /// Idle gacrux checkers kept running (`gacrux_batch.py`), one per busy thread at most.
    batches: Mutex<Vec<Batch>>,
}

/// One `gacrux_batch.py` process: a gacrux checker run per request line, without paying for
/// the interpreter's start and gacrux's imports on every file.
struct Batch {
    child: std::process::Child,
    requests: std::process::ChildStdin,
    replies: std::io::BufReader<std::process::ChildStdout>,
}

impl Drop for Batch {
    fn drop(&mut self) {
        // Its stdin closes with it; the loop over stdin then ends and the process exits.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

const BATCH_SCRIPT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/e2e/crosscheck/gacrux_batch.py"
);

impl Tools {
    pub fn new(arbiter: PathBuf, bbp: Option<PathBuf>) -> Tools {
        Tools {
            arbiter,
            python: "python3".into(),
            bbp,
            batches: Mutex::new(Vec::new()),
        }
    }

    /// Refuses to start without gacrux, naming how to install it; then runs gacrux with the
    /// interpreter itself (`sys.executable`), not a launcher in front of it (a version
    /// manager's shim costs more than gacrux's own work on a small file).
    pub fn check(&mut self) -> Result<(), String> {
        let out = Command::new(&self.python)
            .args([
                "-c",
                "import sys, gacrux.version as v; print(v.version()['version']); print(sys.executable)",
            ])
            .output()
            .map_err(|e| format!("{}: {e}", self.python))?;
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let mut lines = text.lines().map(str::trim);
        let version = lines.next().unwrap_or("").to_string();
        if !out.status.success() {
            return Err(format!(
                "gacrux is not installed for {}: pip install gacrux=={GACRUX} (.ci/run does)",
                self.python
            ));
        }
        if version != GACRUX {
            return Err(format!(
                "gacrux {version} found, the campaign pins {GACRUX}"
            ));
        }
        if let Some(exe) = lines.next().filter(|e| !e.is_empty()) {
            self.python = exe.to_string();
        }
        Ok(())
    }

    /// `python -m gacrux.MODULE ARGS`'s standard output; the two checkers run in a batch
    /// process (`gacrux_batch.py`), everything else in a process of its own.
    fn gacrux(&self, module: &str, args: &[&str]) -> Result<String, String> {
        if matches!(module, "pairingchecker" | "tiebreakchecker") {
            return self.gacrux_batched(module, args);
        }
        let out = Command::new(&self.python)
            .args(["-m", &format!("gacrux.{module}")])
            .args(args)
            .output()
            .map_err(|e| format!("gacrux.{module}: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "gacrux.{module} {}: {}",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    fn gacrux_batched(&self, module: &str, args: &[&str]) -> Result<String, String> {
        use std::io::{BufRead, Write};
        let idle = self.batches.lock().expect("batches").pop();
        let mut batch = match idle {
            Some(b) => b,
            None => {
                let mut child = Command::new(&self.python)
                    .arg(BATCH_SCRIPT)
                    .stdin(std::process::Stdio::piped())
                    .stdout(std::process::Stdio::piped())
                    .spawn()
                    .map_err(|e| format!("{} {BATCH_SCRIPT}: {e}", self.python))?;
                let requests = child.stdin.take().ok_or("gacrux_batch: no stdin")?;
                let replies =
                    std::io::BufReader::new(child.stdout.take().ok_or("gacrux_batch: no stdout")?);
                Batch {
                    child,
                    requests,
                    replies,
                }
            }
        };
        let mut request = vec![module];
        request.extend_from_slice(args);
        let line = serde_json::to_string(&request).map_err(|e| e.to_string())?;
        writeln!(batch.requests, "{line}")
            .and_then(|()| batch.requests.flush())
            .map_err(|e| format!("gacrux_batch {module}: {e}"))?;
        let mut reply = String::new();
        let read = batch
            .replies
            .read_line(&mut reply)
            .map_err(|e| format!("gacrux_batch {module}: {e}"))?;
        if read == 0 {
            return Err(format!(
                "gacrux_batch {module} {}: it stopped",
                args.join(" ")
            ));
        }
        // A batch that answered is reused; one that failed is dropped (and killed) above.
        self.batches.lock().expect("batches").push(batch);
        let v: serde_json::Value =
            serde_json::from_str(&reply).map_err(|e| format!("gacrux_batch's reply: {e}"))?;
        if v["code"].as_i64() != Some(0) {
            return Err(format!(
                "gacrux.{module} {}: exit {}: {}",
                args.join(" "),
                v["code"],
                v["stderr"].as_str().unwrap_or("").trim()
            ));
        }
        Ok(v["stdout"].as_str().unwrap_or("").to_string())
    }

    fn arbiter(&self, args: &[&str]) -> (i32, String, String) {
        let out = Command::new(&self.arbiter)
            .args(args)
            .output()
            .expect("run the arbiter binary");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }
}

/// Who generates a cell's tournaments.
#[derive(Debug, Clone)]
pub enum Source {
    /// `arbiter generate --system SYSTEM` with these extra arguments.
    Ours {
        system: &'static str,
        args: Vec<&'static str>,
    },
    /// gacrux's generator (Dutch 2025/2026 rules), with Baku acceleration or not.
    Gacrux { accelerated: bool },
    /// bbpPairings' generator (`--dutch -g`, its own random configuration; Dutch 2017 rules).
    Bbp,
}

/// Tournaments of one kind: a source, a field size, the seeds `first_seed..first_seed+count`.
#[derive(Debug, Clone)]
pub struct Cell {
    pub source: Source,
    pub players: u32,
    /// gacrux's generator needs the number; ours takes its default when `None`.
    pub rounds: Option<u32>,
    pub first_seed: u64,
    pub count: u64,
    /// Round robins: compare the counts of games too (see [`ROUND_ROBIN_TIEBREAKS`]).
    pub with_game_counts: bool,
    /// Team events: each file also goes through Chess-JSON both ways
    /// ([`team_chess_json_round_trip`]).
    pub chess_json: bool,
}

impl Cell {
    pub fn label(&self) -> String {
        match &self.source {
            Source::Ours { system, args } if args.is_empty() => format!("ours {system}"),
            Source::Ours { system, args } => format!("ours {system} {}", args.join(" ")),
            Source::Gacrux { accelerated: false } => "gacrux dutch".into(),
            Source::Gacrux { accelerated: true } => "gacrux dutch baku".into(),
            Source::Bbp => "bbpPairings dutch".into(),
        }
    }

    /// Whether bbpPairings' checker judges the cell's pairings (its Dutch rules are the 2017
    /// text).
    fn bbp_pairs(&self) -> bool {
        matches!(&self.source, Source::Ours { system, .. } if system.starts_with("dutch-2017"))
    }

    /// Whether gacrux's pairing checker can judge the cell's pairings: its Dutch rules are the
    /// 2025/2026 text; it pairs no other Swiss system.
    fn gacrux_pairs(&self) -> bool {
        matches!(&self.source, Source::Ours { system, .. } if system.starts_with("dutch-2025"))
    }

    /// FIDE's team Swiss (C.04.6): gacrux's pairing checker judges every round with its
    /// `fideteam` method, the colour model and the scores named (`-m fideteam-typeb-mp+gp`):
    /// gacrux 1.11.65 takes its defaults (type A, match points) when `-m` names no model, even
    /// where record 192 names one.
    pub fn gacrux_team_method(&self) -> Option<String> {
        let Source::Ours { system, args } = &self.source else {
            return None;
        };
        let model = match *system {
            "fide-team-a" => "typea",
            "fide-team-b" => "typeb",
            "fide-team-none" => "nocolor",
            _ => return None,
        };
        let scores = if args.contains(&"--game-points") {
            "gp+mp"
        } else {
            "mp+gp"
        };
        Some(format!("fideteam-{model}-{scores}"))
    }

    /// The rule set `arbiter check` re-pairs the cell's files under.
    fn our_system(&self) -> &'static str {
        match &self.source {
            Source::Ours { system, .. } => match *system {
                "dutch-2025-baku" => "dutch-2025",
                "dutch-2017-baku" => "dutch-2017",
                "double-round-robin" => "round-robin",
                s => s,
            },
            Source::Gacrux { .. } => "dutch-2025",
            Source::Bbp => "dutch-2017",
        }
    }

    fn round_robin(&self) -> bool {
        self.our_system() == "round-robin"
    }
}

/// What a cell (or a campaign) found.
#[derive(Debug, Default, Clone)]
pub struct Tally {
    pub tournaments: u64,
    /// Rounds judged by the other side's pairing checker, and how many it accepted.
    pub rounds: u64,
    pub rounds_agreeing: u64,
    /// Standings values (ranks, points, tie-breaks) compared, and how many agreed.
    pub values: u64,
    pub values_agreeing: u64,
    /// Team events that went through Chess-JSON both ways unchanged.
    pub chess_json: u64,
    /// One line per file that disagreed, naming it and what differs.
    pub findings: Vec<String>,
}

impl Tally {
    /// Counts a checker's verdict on a file's rounds (rounds judged, those it pairs otherwise).
    fn judged(&mut self, name: &str, checker: &str, verdict: Result<(u64, Vec<u64>), String>) {
        match verdict {
            Ok((rounds, failing)) => {
                self.rounds += rounds;
                self.rounds_agreeing += rounds - failing.len() as u64;
                if !failing.is_empty() {
                    self.findings.push(format!(
                        "{name}: {checker} pairs rounds {failing:?} otherwise"
                    ));
                }
            }
            Err(e) => self.findings.push(format!("{name}: {e}")),
        }
    }

    pub fn add(&mut self, o: &Tally) {
        self.tournaments += o.tournaments;
        self.rounds += o.rounds;
        self.rounds_agreeing += o.rounds_agreeing;
        self.values += o.values;
        self.values_agreeing += o.values_agreeing;
        self.chess_json += o.chess_json;
        self.findings.extend(o.findings.iter().cloned());
    }
}

/// Generates the cell's tournaments into `dir` and checks each, `jobs` at a time.
pub fn run_cell(tools: &Tools, cell: &Cell, dir: &Path, jobs: usize) -> Result<Tally, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let files = generate(tools, cell, dir)?;
    let next = AtomicUsize::new(0);
    let tally = Mutex::new(Tally::default());
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(f) = files.get(i) else { break };
                    let t = check_file(tools, cell, f);
                    tally.lock().expect("tally").add(&t);
                }
            });
        }
    });
    Ok(tally.into_inner().expect("tally"))
}

fn generate(tools: &Tools, cell: &Cell, dir: &Path) -> Result<Vec<PathBuf>, String> {
    let players = cell.players.to_string();
    let seed = cell.first_seed.to_string();
    let count = cell.count.to_string();
    let rounds = cell.rounds.map(|r| r.to_string());
    match &cell.source {
        Source::Ours { system, args } => {
            let mut a = vec!["generate", "--system", system, "--players", &players];
            a.extend(["--seed", &seed, "--count", &count]);
            if let Some(r) = &rounds {
                a.extend(["--rounds", r]);
            }
            a.extend(args.iter().copied());
            let out = dir.to_string_lossy().into_owned();
            a.extend(["--out", &out]);
            let (code, _, err) = tools.arbiter(&a);
            if code != 0 {
                return Err(format!("arbiter {}: exit {code}: {err}", a.join(" ")));
            }
        }
        Source::Gacrux { accelerated } => {
            let pattern = dir.join("g%d.trf").to_string_lossy().into_owned();
            let rounds = rounds.ok_or("gacrux's generator needs the number of rounds")?;
            let mut a = vec!["-g", &seed, &count, "-p", &players, "-N", &rounds];
            if *accelerated {
                a.push("-a");
            }
            a.extend(["-o", &pattern, "-F", "TRF"]);
            tools.gacrux("tournamentgenerator", &a)?;
        }
        Source::Bbp => {
            let bbp = tools.bbp.as_ref().ok_or("bbpPairings cells need --bbp")?;
            for seed in cell.first_seed..cell.first_seed + cell.count {
                let out = dir.join(format!("b{seed:06}.trf"));
                let o = Command::new(bbp)
                    .args(["--dutch", "-g", "-o"])
                    .arg(&out)
                    .args(["-s", &seed.to_string()])
                    .output()
                    .map_err(|e| format!("{}: {e}", bbp.display()))?;
                if !o.status.success() {
                    return Err(format!(
                        "bbpPairings -g -s {seed}: {}",
                        String::from_utf8_lossy(&o.stderr)
                    ));
                }
            }
        }
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "trf"))
        .collect();
    files.sort();
    if files.len() as u64 != cell.count {
        return Err(format!(
            "{}: {} files generated, {} asked",
            cell.label(),
            files.len(),
            cell.count
        ));
    }
    Ok(files)
}

/// One file: the other side's pairing verdict where it has one, then the standings table of
/// gacrux's tie-break checker against ours (through `arbiter check`, which also re-pairs).
fn check_file(tools: &Tools, cell: &Cell, file: &Path) -> Tally {
    let mut t = Tally {
        tournaments: 1,
        ..Tally::default()
    };
    let name = file.display().to_string();
    // A team Swiss: every round judged by gacrux's pairing checker, the standings by its
    // tie-break checker.
    if let Some(method) = cell.gacrux_team_method() {
        let verdict = gacrux_pairing(tools, file, Some(&method));
        t.judged(
            &name,
            &format!("gacrux's pairing checker (-m {method})"),
            verdict,
        );
        // gacrux's tie-break checker ranks the teams (the recommended team Swiss list, on
        // the event's primary score), and ours reads the file back: imported, every round
        // re-paired the same, and every value of gacrux's table agreeing.
        let list = if method.ends_with("gp+mp") {
            TEAM_TIEBREAKS_GP
        } else {
            TEAM_TIEBREAKS_MP
        };
        let tp = match gacrux_table(tools, file, "-s", list) {
            Ok(tp) => tp,
            Err(e) => {
                t.findings.push(format!("{name}: {e}"));
                return t;
            }
        };
        let (code, out, err) = tools.arbiter(&["check", &name, "--standings", &tp]);
        let same = out
            .lines()
            .find_map(|l| fraction(l, " team rounds identical"))
            .is_some_and(|(n, m)| n == m && m > 0);
        if let Some((n, m)) = out
            .lines()
            .find_map(|l| fraction(l, " values of the table agree"))
        {
            t.values += m;
            t.values_agreeing += n;
        }
        if code != 0 || !same {
            let differing: Vec<&str> = out
                .lines()
                .filter(|l| l.starts_with("round ") || l.starts_with("standings: team"))
                .take(6)
                .collect();
            t.findings.push(format!(
                "{name}: arbiter check exit {code}: {}{}",
                differing.join(" | "),
                err.trim()
            ));
        }
        if cell.chess_json {
            match team_chess_json_round_trip(tools, file, &method, list) {
                Ok(()) => t.chess_json += 1,
                Err(e) => t.findings.push(format!("{name}: Chess-JSON: {e}")),
            }
        }
        return t;
    }
    if cell.gacrux_pairs() {
        let verdict = gacrux_pairing(tools, file, None);
        t.judged(&name, "gacrux's pairing checker", verdict);
    }
    let with_counts;
    if cell.bbp_pairs()
        && let Some(bbp) = &tools.bbp
    {
        t.judged(&name, "bbpPairings' checker", bbp_pairing(bbp, file));
    }
    let list = if cell.round_robin() && cell.with_game_counts {
        with_counts = format!("{ROUND_ROBIN_TIEBREAKS} {GAME_COUNTS}");
        with_counts.as_str()
    } else if cell.round_robin() {
        ROUND_ROBIN_TIEBREAKS
    } else {
        SWISS_TIEBREAKS
    };
    // Swiss rules for unplayed rounds (C.07 Art. 16); a round robin's pairings are
    // pre-determined (Art. 15).
    let rules = if cell.round_robin() { "-p" } else { "-s" };
    let tp = match gacrux_table(tools, file, rules, list) {
        Ok(tp) => tp,
        Err(e) => {
            t.findings.push(format!("{name}: {e}"));
            return t;
        }
    };
    let (code, out, err) = tools.arbiter(&[
        "check",
        "--system",
        cell.our_system(),
        &name,
        "--standings",
        &tp,
    ]);
    for line in out.lines() {
        if let Some((n, m)) = fraction(line, " rounds identical")
            && matches!(cell.source, Source::Gacrux { .. } | Source::Bbp)
        {
            t.rounds += m;
            t.rounds_agreeing += n;
        }
        if let Some((n, m)) = fraction(line, " values of the table agree") {
            t.values += m;
            t.values_agreeing += n;
        }
    }
    if code != 0 {
        let differing: Vec<&str> = out
            .lines()
            .filter(|l| l.starts_with("round ") || l.starts_with("standings: player"))
            .take(6)
            .collect();
        t.findings.push(format!(
            "{name}: arbiter check exit {code}: {}{}",
            differing.join(" | "),
            if differing.is_empty() { err.trim() } else { "" }
        ));
    }
    t
}

/// gacrux's tie-break checker's standings table for `file` (`rules`: `-s` Swiss, `-p`
/// pre-determined pairings; `list` its tie-break names), written beside the file; its path.
fn gacrux_table(tools: &Tools, file: &Path, rules: &str, list: &str) -> Result<String, String> {
    let name = file.to_string_lossy();
    let mut args = vec!["-i", &name];
    if is_json(file) {
        args.extend(["-f", "JSON"]);
    }
    args.extend([rules, "-t"]);
    args.extend(list.split(' '));
    args.extend(["-d", "T", "-r"]);
    let table = tools.gacrux("tiebreakchecker", &args)?;
    let path = file.with_extension("tsv");
    std::fs::write(&path, table).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path.to_string_lossy().into_owned())
}

/// Rounds checked and the rounds gacrux's pairing checker rejects.
/// A round is accepted when gacrux's own pairing of it, colours and board order included,
/// equals the file's.
fn gacrux_pairing(
    tools: &Tools,
    file: &Path,
    method: Option<&str>,
) -> Result<(u64, Vec<u64>), String> {
    let name = file.to_string_lossy();
    let mut args = vec!["-c", "-i", &name];
    if is_json(file) {
        args.extend(["-f", "JSON"]);
    }
    if let Some(m) = method {
        args.extend(["-m", m]);
    }
    let out = tools.gacrux("pairingchecker", &args)?;
    let v: serde_json::Value =
        serde_json::from_str(&out).map_err(|e| format!("gacrux's pairing checker output: {e}"))?;
    let rounds = v["pairingResult"]["roundpairing"]
        .as_array()
        .ok_or("gacrux's pairing checker output has no rounds")?;
    let failing: Vec<u64> = rounds
        .iter()
        .filter(|r| r["check"].as_bool() != Some(true))
        .filter_map(|r| r["round"].as_u64())
        .collect();
    // Status 1 is its verdict on failing rounds; any other failure is the checker's own.
    if v["status"]["code"].as_i64() != Some(0) && failing.is_empty() {
        return Err(format!("gacrux's pairing checker status {}", v["status"]));
    }
    Ok((rounds.len() as u64, failing))
}

/// Rounds checked by `bbpPairings --dutch FILE -c`, and those whose pairing it would make
/// otherwise (it prints its own pairing beside the file's under the round's heading).
fn bbp_pairing(bbp: &Path, file: &Path) -> Result<(u64, Vec<u64>), String> {
    let o = Command::new(bbp)
        .args(["--dutch"])
        .arg(file)
        .arg("-c")
        .output()
        .map_err(|e| format!("{}: {e}", bbp.display()))?;
    if !o.status.success() {
        return Err(format!(
            "bbpPairings -c: exit {:?}: {}",
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).trim()
        ));
    }
    let text = String::from_utf8_lossy(&o.stdout);
    let (mut rounds, mut failing, mut current) = (0u64, Vec::new(), 0u64);
    for line in text.lines() {
        if let Some(r) = line.split("Round #").nth(1) {
            rounds += 1;
            current = r.trim().parse().unwrap_or(0);
        } else if line.contains("Checker pairings") {
            failing.push(current);
        }
    }
    Ok((rounds, failing))
}

/// "N/M<tail>" at the end of a line of `arbiter check` (after its "standings: " prefix).
fn fraction(line: &str, tail: &str) -> Option<(u64, u64)> {
    let i = line.find(tail)?;
    let head = line[..i].rsplit(' ').next()?;
    let (n, m) = head.split_once('/')?;
    Some((n.parse().ok()?, m.parse().ok()?))
}

/// gacrux reads a Chess-JSON file only when told (`-f JSON`).
fn is_json(file: &Path) -> bool {
    file.extension().is_some_and(|x| x == "json")
}

/// Chess-JSON both ways for a team event: gacrux converts the TRF file to Chess-JSON; arbiter
/// re-pairs that file (`check`), imports it and exports it as Chess-JSON again. The export must
/// hold the same games (boards included), matches, team byes, teams (members, points, rank)
/// and settings, pass gacrux's pairing checker round by round (`method`), and give gacrux's
/// tie-break checker (`list`) the table the original gives.
pub fn team_chess_json_round_trip(
    tools: &Tools,
    file: &Path,
    method: &str,
    list: &str,
) -> Result<(), String> {
    let path = |p: &Path| p.to_string_lossy().into_owned();
    let json = file.with_extension("json");
    let back = file.with_extension("back.json");
    let data = file.with_extension("data");
    tools.gacrux(
        "convert",
        &["-i", &path(file), "-o", &path(&json), "-F", "JSON"],
    )?;
    let (code, out, err) = tools.arbiter(&["check", &path(&json)]);
    let same = out
        .lines()
        .find_map(|l| fraction(l, " team rounds identical"))
        .is_some_and(|(n, m)| n == m && m > 0);
    if code != 0 || !same {
        return Err(format!(
            "arbiter check exit {code}: {}{}",
            out.trim(),
            err.trim()
        ));
    }
    let (code, out, err) = tools.arbiter(&["import", &path(&json), "--data", &path(&data)]);
    let id = out.lines().last().unwrap_or("").trim().to_string();
    if code != 0 || id.is_empty() {
        return Err(format!("arbiter import exit {code}: {}", err.trim()));
    }
    let (code, _, err) = tools.arbiter(&[
        "export",
        &id,
        "--data",
        &path(&data),
        "--format",
        "chess-json",
        "-o",
        &path(&back),
    ]);
    if code != 0 {
        return Err(format!("arbiter export exit {code}: {}", err.trim()));
    }
    let _ = std::fs::remove_dir_all(&data);
    let (original, exported) = (team_summary(&json)?, team_summary(&back)?);
    for ((part, a), (_, b)) in original.iter().zip(&exported) {
        if a != b {
            let only: Vec<&String> = a.symmetric_difference(b).take(4).collect();
            return Err(format!(
                "the export's {part} differ from gacrux's: {only:?}"
            ));
        }
    }
    let (rounds, failing) = gacrux_pairing(tools, &back, Some(method))?;
    if !failing.is_empty() || rounds == 0 {
        return Err(format!(
            "gacrux's pairing checker pairs the export's rounds {failing:?} otherwise"
        ));
    }
    let read = |p: String| std::fs::read_to_string(&p).map_err(|e| format!("{p}: {e}"));
    let theirs = read(gacrux_table(tools, &json, "-s", list)?)?;
    let ours = read(gacrux_table(tools, &back, "-s", list)?)?;
    if theirs != ours {
        return Err("gacrux's tie-break checker ranks the export otherwise".into());
    }
    Ok(())
}

/// What a team event's Chess-JSON file says, part by part, each as a set of lines: the
/// games, the matches and byes, the teams, and the settings.
fn team_summary(
    file: &Path,
) -> Result<Vec<(&'static str, std::collections::BTreeSet<String>)>, String> {
    use serde_json::Value;
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let doc: Value = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", file.display()))?;
    let t = &doc["event"]["tournaments"][0];
    let side = |s: &Value| {
        if s.is_null() {
            "-".to_string()
        } else {
            format!("{}:{}", s["cid"], s["result"])
        }
    };
    let list = |key: &str, board: bool| -> std::collections::BTreeSet<String> {
        t[key]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .map(|g| {
                format!(
                    "r{} {} {} played={} rated={} board={}",
                    g["round"],
                    side(&g["white"]),
                    side(&g["black"]),
                    g["played"],
                    g["rated"],
                    if board {
                        g["board"].to_string()
                    } else {
                        String::new()
                    }
                )
            })
            .collect()
    };
    let points = |v: &Value| match v {
        Value::String(s) => s.parse::<f64>().unwrap_or(f64::NAN),
        v => v.as_f64().unwrap_or(f64::NAN),
    };
    let names: std::collections::BTreeMap<String, String> = doc["event"]["teams"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .map(|x| (x["id"].to_string(), x["teamName"].to_string()))
        .collect();
    let teams = t["competitors"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .map(|c| {
            let mut members: Vec<(u64, String)> = c["cplayers"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default()
                .iter()
                .map(|p| {
                    let line = format!(
                        "{}/{}/{}",
                        p["cid"],
                        p["rating"]["rating"],
                        points(&p["gamePoints"])
                    );
                    (p["order"].as_u64().unwrap_or(0), line)
                })
                .collect();
            members.sort();
            format!(
                "{} {} mp={} gp={} rank={} {:?}",
                c["cid"],
                names
                    .get(&c["teamId"].to_string())
                    .cloned()
                    .unwrap_or_default(),
                points(&c["matchPoints"]),
                points(&c["gamePoints"]),
                c["rank"],
                members
            )
        })
        .collect();
    let ss = &t["scoreSystem"];
    let settings = [
        format!("teamSize={}", t["teamSize"]),
        format!("teamSequence={}", t["teamSequence"]),
        format!("tournamentType={}", t["tournamentType"]),
        format!("pairingSystem={}", t["pairingSystem"]),
        format!("rankOrder={}", t["rankOrder"]),
        format!("primary={}", ss["primary"]),
        format!(
            "match W/D/L/P/PG={}/{}/{}/{}/{}",
            ss["match"]["W"],
            ss["match"]["D"],
            ss["match"]["L"],
            ss["match"]["P"],
            ss["match"]["PG"]
        ),
        format!("numRounds={}", t["numRounds"]),
    ]
    .into_iter()
    .collect();
    Ok(vec![
        ("games", list("gameList", true)),
        ("matches", list("matchList", false)),
        ("teams", teams),
        ("settings", settings),
    ])
}
