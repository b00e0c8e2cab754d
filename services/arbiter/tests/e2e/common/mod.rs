//! Running the real `arbiter` binary, and reading what it prints and what the golden files hold.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A file under tests/golden.
pub fn golden(rel: &str) -> PathBuf {
    root().join("tests/golden").join(rel)
}

/// What one run of the binary did.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl From<Output> for Run {
    fn from(o: Output) -> Run {
        Run {
            code: o.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
        }
    }
}

/// Runs `arbiter ARGS...`.
pub fn arbiter<I, S>(args: I) -> Run
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(args)
        .output()
        .expect("run the arbiter binary")
        .into()
}

/// Like [`arbiter`], asserting exit code 0.
pub fn arbiter_ok<I, S>(args: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let r = arbiter(args);
    assert_eq!(r.code, 0, "stderr: {}", r.stderr);
    r.stdout
}

/// A decimal number written canonically (no trailing zeros, no trailing point, no "-0"), so that
/// "62.00", "62.0" and "62" compare equal without floating point.
pub fn canonical(s: &str) -> String {
    let t = s.trim();
    let mut c = if t.contains('.') {
        t.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        t.to_string()
    };
    if c == "-0" || c.is_empty() {
        c = "0".into();
    }
    c
}

/// A CSV document as header names and rows of cells (the binary quotes fields that contain
/// commas or quotes, RFC 4180).
pub fn parse_csv(text: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut records: Vec<Vec<String>> = Vec::new();
    let mut field = String::new();
    let mut record: Vec<String> = Vec::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => field.push(c),
            (false, '"') => quoted = true,
            (false, ',') => record.push(std::mem::take(&mut field)),
            (false, '\r') => {}
            (false, '\n') => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
            }
            (false, c) => field.push(c),
        }
    }
    if !field.is_empty() || !record.is_empty() {
        record.push(field);
        records.push(record);
    }
    let mut it = records.into_iter();
    let header = it.next().unwrap_or_default();
    (header, it.collect())
}

/// A TSV golden table: header and rows.
pub fn read_tsv(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    let header = lines
        .next()
        .unwrap_or_default()
        .split('\t')
        .map(String::from)
        .collect();
    let rows = lines
        .map(|l| l.split('\t').map(String::from).collect())
        .collect();
    (header, rows)
}

/// A temporary directory for files a test writes, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!(
            "arbiter-cli-{tag}-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create a temporary directory");
        TempDir(dir)
    }

    /// Writes `name` with `contents` and returns its path.
    pub fn file(&self, name: &str, contents: impl AsRef<[u8]>) -> PathBuf {
        let p = self.0.join(name);
        std::fs::write(&p, contents).expect("write a temporary file");
        p
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// One player of a TRF file written by a test.
#[derive(Clone, Debug, Default)]
pub struct TrfPlayer {
    pub id: u32,
    /// `m` or `w`.
    pub sex: char,
    pub title: String,
    pub name: String,
    pub rating: u32,
    pub federation: String,
    pub birth: String,
    /// Round blocks: (opponent or 0, colour `w`/`b`/`-`, result code).
    pub rounds: Vec<(u32, char, char)>,
}

/// Points of a TRF result code under 1 / ½ / 0, in tenths.
pub fn tenths(code: char) -> u32 {
    match code {
        '1' | '+' | 'W' | 'F' | 'U' => 10,
        '=' | 'D' | 'H' => 5,
        _ => 0,
    }
}

impl TrfPlayer {
    /// The `001` line, every field in its columns (TRF16 player record).
    pub fn line(&self) -> String {
        let pts: u32 = self.rounds.iter().map(|r| tenths(r.2)).sum();
        let sex = if self.sex == '\0' { ' ' } else { self.sex };
        let mut l = format!(
            "001 {:>4} {}{:>3} {:<33} {:>4} {:<3} {:>11} {:>10} {:>4} {:>4}  ",
            self.id,
            sex,
            self.title,
            self.name,
            if self.rating > 0 {
                self.rating.to_string()
            } else {
                String::new()
            },
            self.federation,
            "",
            self.birth,
            format!("{}.{}", pts / 10, pts % 10),
            ""
        );
        for &(opp, colour, result) in &self.rounds {
            let opp = if opp == 0 {
                "0000".to_string()
            } else {
                format!("{opp:>4}")
            };
            l.push_str(&format!("{opp} {colour} {result}  "));
        }
        l.trim_end().to_string()
    }
}

/// Records a game in round `round` (1-based) between `white` and `black` (indices into
/// `players`), white's result code given.
pub fn game(players: &mut [TrfPlayer], round: usize, white: usize, black: usize, result: char) {
    let mirrored = match result {
        '1' => '0',
        '0' => '1',
        '=' => '=',
        '+' => '-',
        '-' => '+',
        other => panic!("no mirror for {other}"),
    };
    let (w, b) = (players[white].id, players[black].id);
    set_round(&mut players[white], round, (b, 'w', result));
    set_round(&mut players[black], round, (w, 'b', mirrored));
}

/// Sets one round block, filling earlier missing rounds with zero-point byes.
pub fn set_round(p: &mut TrfPlayer, round: usize, block: (u32, char, char)) {
    while p.rounds.len() < round {
        p.rounds.push((0, '-', 'Z'));
    }
    p.rounds[round - 1] = block;
}
