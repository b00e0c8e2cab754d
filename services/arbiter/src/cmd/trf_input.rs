//! How `check`, `pair`, `standings`, `rate` and `import` read a TRF file (or a Chess-JSON one,
//! through the TRF model): tolerant by default
//! (the spellings older programs write are read with a warning each), strict with `--strict`;
//! warnings on standard error as text or JSON lines; errors naming the mode that decided.

use super::Failure;
use arbiter_trf::{ParseOptions, Trf, TrfError, TrfWarning, parse_bytes_with};
use std::path::Path;

/// The reading flags the TRF commands share.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct ReadArgs {
    /// Read as strictly as TRF16 / TRF-2026 say: refuse dates in other layouts, malformed FIDE ids,
    /// legacy bye codes (`0000 - =`, `0000 - +`, `0000 - -`) and one-sided forfeit colours
    /// instead of reading them with a warning.
    #[arg(long)]
    pub strict: bool,
}

impl ReadArgs {
    fn options(&self) -> ParseOptions {
        if self.strict {
            ParseOptions::default()
        } else {
            ParseOptions::tolerant()
        }
    }
}

/// How warnings are printed on standard error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WarningFormat {
    /// `warning: FILE: line 7, columns 92-99 (round 1): ...`
    Text,
    /// One JSON object per line: file, kind, line, columns, field, message.
    Json,
}

impl WarningFormat {
    /// `json` prints JSON; anything else (text, csv) prints text.
    pub fn for_output(format: &str) -> WarningFormat {
        if format.eq_ignore_ascii_case("json") {
            WarningFormat::Json
        } else {
            WarningFormat::Text
        }
    }
}

/// One warning as a JSON object.
pub fn warning_json(file: &str, w: &TrfWarning) -> serde_json::Value {
    serde_json::json!({
        "file": file,
        "kind": format!("{:?}", w.kind),
        "line": w.location.map(|l| l.line),
        "columns": w.location.and_then(|l| l.columns).map(|(a, b)| [a, b]),
        "field": w.field,
        "message": w.message,
    })
}

/// Prints the warnings of one file on standard error.
pub fn print_warnings(file: &str, warnings: &[TrfWarning], format: WarningFormat) {
    for w in warnings {
        match format {
            WarningFormat::Text => eprintln!("warning: {file}: {w}"),
            WarningFormat::Json => eprintln!("{}", warning_json(file, w)),
        }
    }
}

/// Parses bytes in the mode asked; a refusal names line, columns, field, what was found and
/// expected, and which reading mode decided (and whether the other one would read the file).
pub fn parse(bytes: &[u8], source: &str, read: &ReadArgs) -> Result<Trf, String> {
    if is_json(bytes) {
        // Chess-JSON: converted to the TRF model and read as TRF is, so every check on a TRF
        // file holds for it too.
        let file = arbiter_interchange::chess_json::read(&String::from_utf8_lossy(bytes))
            .map_err(|e| format!("{source} (Chess-JSON): {e}"))?;
        let trf = arbiter_trf::write(&file).map_err(|e| format!("{source} (Chess-JSON): {e}"))?;
        let source = format!("{source} (Chess-JSON, in its TRF form)");
        return parse_bytes_with(trf.as_bytes(), &read.options())
            .map_err(|e| describe(trf.as_bytes(), &source, read, &e));
    }
    parse_bytes_with(bytes, &read.options()).map_err(|e| describe(bytes, source, read, &e))
}

fn describe(bytes: &[u8], source: &str, read: &ReadArgs, e: &TrfError) -> String {
    if !read.strict {
        return format!("{source}: {e} (refused by the default reading and by --strict)");
    }
    match parse_bytes_with(bytes, &ParseOptions::tolerant()) {
        Ok(t) => {
            let same_line: Vec<String> = t
                .warnings
                .iter()
                .filter(|w| w.location.is_some_and(|l| l.line == e.line()))
                .take(1)
                .map(|w| w.message.clone())
                .collect();
            let how = if same_line.is_empty() {
                String::new()
            } else {
                format!(": {}", same_line.join("; "))
            };
            format!(
                "{source}: {e} (refused by --strict; the default reading, without --strict, accepts the file{how})"
            )
        }
        Err(_) => format!("{source}: {e} (refused by --strict and by the default reading)"),
    }
}

/// Reads and parses a TRF file, printing its warnings.
pub fn read_trf(path: &Path, read: &ReadArgs, format: WarningFormat) -> Result<Trf, Failure> {
    let bytes = std::fs::read(path)
        .map_err(|e| Failure::Unreadable(format!("cannot read {}: {e}", path.display())))?;
    let shown = path.display().to_string();
    let trf = parse(&bytes, &shown, read).map_err(Failure::Invalid)?;
    print_warnings(&shown, &trf.warnings, format);
    Ok(trf)
}

/// A Chess-JSON file begins with `{` (after any byte order mark or blank); a TRF file never
/// does.
fn is_json(bytes: &[u8]) -> bool {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
}

/// Under `--strict`, a win without opponent (`0000 - +`, older programs' pairing-allocated bye)
/// reads as a forfeit win the pairing engine cannot replay; say where, before pairing fails on
/// it without a line number. Records are one per line, so record `i` is line `i + 1`.
pub fn strict_byes(file: &arbiter_trf::TrfFile) -> Result<(), String> {
    for (i, rec) in file.records.iter().enumerate() {
        let arbiter_trf::Record::Player(p) = rec else {
            continue;
        };
        for (k, e) in p.rounds.iter().enumerate() {
            if let Some(e) = e
                && e.opponent.is_none()
                && e.result == arbiter_core::ResultCode::ForfeitWin
            {
                let s = 92 + 10 * k;
                return Err(format!(
                    "line {}, columns {s}-{} (round {} of player {}): expected an opponent for \
                     a forfeit win (+), found \"0000 - +\" (refused by --strict; the default \
                     reading, without --strict, reads it as 0000 - U, the pairing-allocated bye)",
                    i + 1,
                    s + 7,
                    k + 1,
                    p.start_number
                ));
            }
        }
    }
    Ok(())
}

/// Whether the file is a team event (310 records).
pub fn is_team_event(file: &arbiter_trf::TrfFile) -> bool {
    file.records
        .iter()
        .any(|r| matches!(r, arbiter_trf::Record::Team310(_)))
}

/// A team event's file imported in memory as `arbiter import` would (the same commands, decided
/// in order): the state `check` re-pairs and `standings` ranks, and the rounds played. `name`
/// is shown in errors.
pub fn imported_state(
    name: &str,
    file: &arbiter_trf::TrfFile,
) -> Result<(arbiter_core::tournament::State, u32), Failure> {
    use arbiter_core::tournament::{State, decide};
    let plan = arbiter_interchange::import::plan(file, "check", None)
        .map_err(|m| Failure::Invalid(format!("{name}: {m}")))?;
    let mut state = State::default();
    for (what, command) in &plan.commands {
        let events = decide(&state, command)
            .map_err(|e| Failure::Invalid(format!("{name}: {what}: {e}")))?;
        for e in &events {
            state.apply(e);
        }
    }
    Ok((state, plan.rounds))
}
