//! Every golden file of both corpora through `arbiter import`, `arbiter export` in the file's
//! own dialect, and a record-by-record comparison of the two files; then every imported round
//! re-paired by the engine (the replay's audit, strictly: the imported pairings are published by
//! hand, and each must still be the engine's).
//!
//! The comparison reads both files with arbiter-trf and walks the original's records:
//! * every record of the original must be in the export, equal field for field; the first one
//!   that is not is reported with its line and the differing field;
//! * normalised: blank lines and record order (the export writes a canonical order); `042`/`052`
//!   compared as dates (the export writes `YYYY/MM/DD` whatever the original's spelling); the
//!   `001` rank column is not compared (it is derived: the export writes the service's
//!   standings under the tournament's tie-breaks, which TRF16 files do not name, while the
//!   corpora's ranks come from their generator); a rating written `0` equals a blank one, a
//!   FIDE id `0` a blank one (both mean "none"), a birth date `YYYY/00/00` the year `YYYY`;
//!   the byes announced for the round to pair are compared as the absences they mean (the
//!   round column, `XXZ` and `240` say the same thing; the export writes the column); in a
//!   TRF-2026 original, JaVaFo lines restating its 2026 records (`XXR`, `XXC`, `XXS`, `BB?`,
//!   `XXA`, `XXP`) are compared as what they mean (number of rounds, initial colour, point
//!   system, acceleration, forbidden pairs);
//! * records the export adds are allowed only where the original lacks them and the service
//!   must state them (name, dates, counts of players, type code, chief arbiter, number of
//!   rounds, initial colour); anything else added is a difference.
//!
//! The corpora are imported by one `arbiter import` per corpus; each stream is then exported
//! and audited in the test's process with the functions `arbiter export` and `arbiter replay`
//! run (1,200 process starts saved); some files also go through the binaries: the same
//! export text, `replay --strict` exits 0, and the export imported and exported again gives the
//! same bytes (nothing is lost or changed by a second pass either).
//!
//! By default every 6th file of each corpus is taken (about 100 of 602, in name order, so the
//! sample is the same on every run) and every 5th of those goes through the binaries; with
//! `ARBITER_FULL_CORPORA=1` every file is, every 25th through the binaries, and the corpora's
//! round counts (5,286 and 5,319) are checked too (CONTRIBUTING.md: run it after any change
//! to import, export or replay).

use crate::common::*;
#[allow(dead_code, unused_imports)]
use arbiter_interchange::trf_export::{Dialect, trf_export};
use arbiter_trf::{Record, TrfFile};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A data folder on tmpfs when the machine has one (the import appends thousands of events per
/// file, each flushed), else in the temporary directory.
fn scratch(tag: &str) -> TempDir {
    let shm = Path::new("/dev/shm");
    if shm.is_dir() {
        let dir = shm.join(format!("arbiter-roundtrip-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        if std::fs::create_dir_all(&dir).is_ok() {
            return TempDir(dir);
        }
    }
    TempDir::new(tag)
}

fn corpus(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(golden(dir))
        .expect("corpus folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "trf"))
        .collect();
    files.sort();
    files
}

fn parse(text: &[u8], what: &str) -> TrfFile {
    arbiter_trf::parse_bytes(text)
        .unwrap_or_else(|e| panic!("{what}: {e}"))
        .file
}

fn code(r: &Record) -> String {
    let s = match r {
        Record::Blank => "blank",
        Record::Comment(_) => "###",
        Record::Text(t) => t.code.code(),
        Record::RoundDates(_) => "132",
        Record::Rounds(_) => "142",
        Record::InitialColor(_) => "152",
        Record::Scoring(_) => "162",
        Record::NationalRating(_) => "172",
        Record::Player(_) => "001",
        Record::Team013(_) => "013",
        Record::Team310(_) => "310",
        Record::TeamOrder300(_) => "300",
        Record::TeamByes320(_) => "320",
        Record::TeamForfeit330(_) => "330",
        Record::Byes(_) => "240",
        Record::Acceleration(_) => "250",
        Record::Prohibited(_) => "260",
        Record::Xxr(_) => "XXR",
        Record::Xxc(_) => "XXC",
        Record::Xxa(_) => "XXA",
        Record::Xxs(_) => "XXS",
        Record::Xxz(_) => "XXZ",
        Record::Xxp(_) => "XXP",
        Record::Bb(c, _) => c.code(),
        Record::Other(o) => return o.chars().take(3).collect(),
    };
    s.to_string()
}

/// Records the export may add when the original has none of that code.
const DERIVED: [&str; 13] = [
    "012", "042", "052", "062", "072", "082", "092", "102", "142", "152", "192", "XXR", "XXC",
];

/// `YYYY/00/00` and `YYYY` both say only the year.
fn year_only(d: Option<arbiter_trf::BirthDate>) -> Option<arbiter_trf::BirthDate> {
    d.map(|d| match d {
        arbiter_trf::BirthDate::Full {
            year,
            month: 0,
            day: 0,
        } => arbiter_trf::BirthDate::Year(year),
        other => other,
    })
}

/// The first field in which two `001` records differ (rank excluded, see the module comment).
fn player_difference(
    a: &arbiter_trf::PlayerRecord,
    b: &arbiter_trf::PlayerRecord,
    skip_round: Option<usize>,
) -> Option<String> {
    let zero_none = |v: Option<u64>| v.filter(|&x| x > 0);
    let fields: [(&str, String, String); 9] = [
        ("sex", format!("{:?}", a.sex), format!("{:?}", b.sex)),
        ("title", format!("{:?}", a.title), format!("{:?}", b.title)),
        ("name", a.name.clone(), b.name.clone()),
        (
            "rating",
            format!("{:?}", zero_none(a.rating.map(u64::from))),
            format!("{:?}", zero_none(b.rating.map(u64::from))),
        ),
        ("federation", a.federation.clone(), b.federation.clone()),
        (
            "FIDE id",
            format!("{:?}", zero_none(a.fide_id)),
            format!("{:?}", zero_none(b.fide_id)),
        ),
        (
            "birth date",
            format!("{:?}", year_only(a.birth_date)),
            format!("{:?}", year_only(b.birth_date)),
        ),
        ("points", a.points.to_string(), b.points.to_string()),
        ("rounds", String::new(), String::new()),
    ];
    for (name, x, y) in fields {
        if x != y {
            return Some(format!(
                "{name}: {x:?} in the original, {y:?} in the export"
            ));
        }
    }
    let n = a.rounds.len().max(b.rounds.len());
    for i in (0..n).filter(|&i| Some(i + 1) != skip_round) {
        let x = a.rounds.get(i).copied().flatten();
        let y = b.rounds.get(i).copied().flatten();
        if x != y {
            return Some(format!(
                "round {}: {x:?} in the original, {y:?} in the export",
                i + 1
            ));
        }
    }
    None
}

/// Compares an original file with its export; returns the codes of the records the export
/// added, or the first difference.
fn compare(original: &TrfFile, export: &TrfFile) -> Result<Vec<String>, String> {
    let mut left: Vec<Option<&Record>> = export
        .records
        .iter()
        .filter(|r| !matches!(r, Record::Blank))
        .map(Some)
        .collect();
    let date = |s: &str| {
        let n: Vec<u32> = s
            .split(|c: char| !c.is_ascii_digit())
            .filter(|t| !t.is_empty())
            .filter_map(|t| t.parse().ok())
            .collect();
        match n.as_slice() {
            [y, m, d, ..] if *y > 31 => Some((*y, *m, *d)),
            [d, m, y, ..] if *y > 31 => Some((*y, *m, *d)),
            [y, m, d, ..] => Some((2000 + *y, *m, *d)),
            _ => None,
        }
    };
    let original_codes: std::collections::BTreeSet<String> =
        original.records.iter().map(code).collect();
    // The byes announced for the round to pair: the round column, XXZ and 240 say the same
    // thing three ways (the export writes the column); compared as the absences they mean.
    let rtp = original.round_to_pair();
    let announced = |r: &Record| match r {
        Record::Xxz(_) => true,
        Record::Byes(b) => b.round == rtp,
        _ => false,
    };
    let next_open =
        (rtp as usize) > original.round_columns() as usize || !original.is_round_paired(rtp);
    let skip_round = next_open.then_some(rtp as usize);
    if next_open && original.absences(rtp) != export.absences(rtp) {
        return Err(format!(
            "the byes announced for round {rtp}: {:?} in the original, {:?} in the export",
            original.absences(rtp),
            export.absences(rtp)
        ));
    }
    for r in left.iter_mut() {
        if r.is_some_and(|r| announced(r)) {
            *r = None;
        }
    }
    // A TRF-2026 file may restate its records in JaVaFo's lines for older engines (XXR = 142,
    // XXC = 152, XXS/BB? = 162, XXA = 250, XXP = 260); a TRF-2026 export writes the 2026
    // records only, so those lines are compared as what they mean.
    let restated = |r: &Record| {
        original.profile() == arbiter_trf::Profile::Trf2026
            && matches!(
                r,
                Record::Xxr(_)
                    | Record::Xxc(_)
                    | Record::Xxs(_)
                    | Record::Bb(..)
                    | Record::Xxa(_)
                    | Record::Xxp(_)
            )
    };
    if original.records.iter().any(restated) {
        let total = original.total_rounds();
        let same = total == export.total_rounds()
            && original.initial_color() == export.initial_color()
            && original.point_system() == export.point_system()
            && original.accelerations().points == export.accelerations().points
            && (1..=total).all(|r| original.forbidden_pairs(r) == export.forbidden_pairs(r));
        if !same {
            return Err(
                "the JaVaFo lines of the TRF-2026 original mean something else in the \
                        export (rounds, colour, points, acceleration or forbidden pairs)"
                    .into(),
            );
        }
    }
    for (i, r) in original.records.iter().enumerate() {
        if matches!(r, Record::Blank) || announced(r) || restated(r) {
            continue;
        }
        let line = i + 1;
        let found = match r {
            Record::Player(p) => {
                let j = left.iter().position(|x| {
                    matches!(x, Some(Record::Player(q)) if q.start_number == p.start_number)
                });
                let Some(j) = j else {
                    return Err(format!(
                        "line {line} (001 player {}): not in the export",
                        p.start_number
                    ));
                };
                let Some(Record::Player(q)) = left[j] else {
                    unreachable!()
                };
                if let Some(d) = player_difference(p, q, skip_round) {
                    return Err(format!("line {line} (001 player {}): {d}", p.start_number));
                }
                Some(j)
            }
            Record::Text(t) if matches!(t.code.code(), "042" | "052") => left.iter().position(
                |x| matches!(x, Some(Record::Text(u)) if u.code == t.code && date(&u.text) == date(&t.text)),
            ),
            Record::Text(t) => left.iter().position(
                |x| matches!(x, Some(Record::Text(u)) if u.code == t.code && u.text.trim() == t.text.trim()),
            ),
            other => left.iter().position(|x| *x == Some(other)),
        };
        match found {
            Some(j) => left[j] = None,
            None => {
                let same_code: Vec<String> = left
                    .iter()
                    .flatten()
                    .filter(|x| code(x) == code(r))
                    .map(|x| format!("{x:?}"))
                    .collect();
                return Err(format!(
                    "line {line} ({}): {r:?} is not in the export (the export's {} records: {same_code:?})",
                    code(r),
                    code(r)
                ));
            }
        }
    }
    let mut added = Vec::new();
    for r in left.into_iter().flatten() {
        let c = code(r);
        if !DERIVED.contains(&c.as_str()) || original_codes.contains(&c) {
            return Err(format!(
                "the export adds {r:?}, which the original does not have"
            ));
        }
        added.push(c);
    }
    Ok(added)
}

/// What one corpus gave.
#[derive(Default, Debug)]
struct Outcome {
    files: usize,
    identical_files: usize,
    records: usize,
    added: BTreeMap<String, usize>,
    differences: Vec<String>,
    rounds: usize,
    identical_rounds: usize,
    replay_failures: Vec<String>,
    fixpoints: usize,
}

fn dialect_name(file: &TrfFile) -> (&'static str, Dialect) {
    let d = Dialect::of(file);
    let name = match d {
        Dialect::Trfx => "trfx",
        Dialect::Trfbx => "trfbx",
        Dialect::Trf2026 => "trf2026",
    };
    (name, d)
}

/// Whether the whole corpora are asked for (`ARBITER_FULL_CORPORA=1`), else a fixed sample.
fn full_corpora() -> bool {
    std::env::var("ARBITER_FULL_CORPORA").is_ok_and(|v| v == "1")
}

fn run_corpus(dir: &str, system: Option<&str>) -> Outcome {
    let all = corpus(dir);
    assert!(all.len() >= 600, "{dir}: the whole corpus is expected");
    let (files, through_binaries) = if full_corpora() {
        (all, 25)
    } else {
        (all.into_iter().step_by(6).collect::<Vec<_>>(), 5)
    };
    let work = scratch(dir);
    let data = work.0.join("data");
    let data_arg = data.to_str().unwrap().to_string();

    // Import every file at once into one data folder.
    let mut args: Vec<String> = vec!["import".into()];
    args.extend(files.iter().map(|f| f.to_str().unwrap().to_string()));
    args.extend(["--data".into(), data_arg.clone()]);
    if let Some(s) = system {
        args.extend(["--system".into(), s.into()]);
    }
    let im = arbiter(&args);
    assert_eq!(im.code, 0, "{dir}: import failed: {}", im.stderr);
    assert_eq!(im.stdout.lines().count(), files.len(), "{}", im.stdout);

    let mut out = Outcome {
        files: files.len(),
        ..Outcome::default()
    };
    // Each stream read once, in this process: exported with the code `arbiter export` runs
    // (trf_export), compared with its file, and audited as `arbiter replay` does (every
    // published round re-paired by the engine from the events before it).
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut exports: Vec<String> = Vec::with_capacity(files.len());
    rt.block_on(async {
        use arbiter_eventlog::EventLog;
        let log = arbiter_eventlog::SledLog::open(data.join("log")).expect("open the log");
        assert_eq!(
            log.list_streams().await.unwrap().len(),
            files.len(),
            "{dir}: one stream per file"
        );
        for f in &files {
            let id = f.file_stem().unwrap().to_str().unwrap().to_string();
            let stream = format!("tournament-{id}");
            let original = parse(&std::fs::read(f).unwrap(), &id);
            let events = log.read(&stream, 1).await.unwrap();
            assert!(!events.is_empty(), "{stream}: no events");

            let state = arbiter_service_kit::store::Folded::from_stored(&events)
                .unwrap_or_else(|e| panic!("{stream}: {e}"))
                .state;
            let text = trf_export(&state, dialect_name(&original).1)
                .unwrap_or_else(|e| panic!("{stream}: {e}"));
            let export = parse(text.as_bytes(), &format!("{id} export"));
            out.records += original
                .records
                .iter()
                .filter(|r| !matches!(r, Record::Blank))
                .count();
            match compare(&original, &export) {
                Ok(added) => {
                    out.identical_files += 1;
                    for a in added {
                        *out.added.entry(a).or_default() += 1;
                    }
                }
                Err(d) => out.differences.push(format!("{dir}/{id}.trf: {d}")),
            }
            exports.push(text);

            let report = arbiter_round_pairing::audit::audit(&stream, &events);
            assert!(report.log_intact(), "{stream}: {}", report.render());
            let want = (1..=original.round_columns())
                .filter(|&r| original.is_round_paired(r))
                .count();
            if report.rounds.len() != want {
                out.replay_failures.push(format!(
                    "{stream}: {} rounds re-paired, the file has {want}",
                    report.rounds.len()
                ));
            }
            out.rounds += report.rounds.len();
            let differing = report.differing(true);
            out.identical_rounds += report.rounds.len() - differing.len();
            for r in differing {
                out.replay_failures.push(format!(
                    "{stream} round {}: {}",
                    r.round,
                    r.differences.join("; ")
                ));
            }
        }
    });

    // Some files through the binary: `arbiter export` gives the same text, `arbiter replay
    // --strict` agrees, and the export imported and exported again gives the same bytes.
    for (k, f) in files.iter().enumerate().step_by(through_binaries) {
        let id = f.file_stem().unwrap().to_str().unwrap().to_string();
        let original = parse(&std::fs::read(f).unwrap(), &id);
        let dialect = dialect_name(&original).0;
        let ex = arbiter(["export", &id, "--data", &data_arg, "--format", dialect]);
        assert_eq!(ex.code, 0, "{id}: export failed: {}", ex.stderr);
        assert_eq!(ex.stdout, exports[k], "{id}: arbiter export differs");
        let replay = arbiter(["replay", &id, "--data", &data_arg, "--strict"]);
        assert_eq!(replay.code, 0, "{id}: {}\n{}", replay.stdout, replay.stderr);
        let again = work.file(&format!("{id}-export.trf"), &ex.stdout);
        let data2 = work.0.join("again");
        let d2 = data2.to_str().unwrap();
        let im2 = arbiter(["import", again.to_str().unwrap(), "--data", d2, "--id", &id]);
        assert_eq!(im2.code, 0, "{id}: re-import of the export: {}", im2.stderr);
        let ex2 = arbiter(["export", &id, "--data", d2, "--format", dialect]);
        assert_eq!(ex2.code, 0, "{id}: second export: {}", ex2.stderr);
        assert_eq!(
            ex2.stdout, ex.stdout,
            "{id}: the export of the re-imported export differs"
        );
        out.fixpoints += 1;
    }
    out
}

fn report(dir: &str, o: &Outcome) {
    println!(
        "{dir}: {}/{} files round-trip identical ({} records compared; added by the export: \
         {:?}); {}/{} rounds replay identical; {} second passes byte-identical",
        o.identical_files, o.files, o.records, o.added, o.identical_rounds, o.rounds, o.fixpoints
    );
    for d in o.differences.iter().take(10) {
        println!("  {d}");
    }
    for d in o.replay_failures.iter().take(10) {
        println!("  {d}");
    }
}

#[test]
fn every_golden_file_round_trips_and_replays_strictly() {
    // A dutch-2017 file states no rule set and no dates: refused without --system, nothing
    // written.
    let work = scratch("refused");
    let data = work.0.join("data");
    let one = golden("dutch-2017/t0041.trf");
    let r = arbiter([
        "import",
        one.to_str().unwrap(),
        "--data",
        data.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 3, "{}", r.stderr);
    assert!(r.stderr.contains("--system"), "{}", r.stderr);
    assert!(r.stderr.contains("t0041.trf"), "{}", r.stderr);
    let replay = arbiter(["replay", "t0041", "--data", data.to_str().unwrap()]);
    assert_eq!(replay.code, 3, "nothing was imported: {}", replay.stderr);

    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| run_corpus("dutch-2017", Some("dutch-2017")));
        // The dutch-2025 files name their rule set (092 FIDE_DUTCH_2025): no --system.
        let b = s.spawn(|| run_corpus("dutch-2025", None));
        (a.join().unwrap(), b.join().unwrap())
    });
    report("dutch-2017", &a);
    report("dutch-2025", &b);
    for o in [&a, &b] {
        assert!(o.differences.is_empty(), "{:#?}", o.differences);
        assert!(o.replay_failures.is_empty(), "{:#?}", o.replay_failures);
        assert_eq!(o.identical_files, o.files);
        assert_eq!(o.identical_rounds, o.rounds);
    }
    if full_corpora() {
        // The corpora's own counts (their README files).
        assert_eq!(a.rounds, 5286);
        assert_eq!(b.rounds, 5319);
    } else {
        assert!(
            a.files >= 100 && b.files >= 100,
            "{} and {} files",
            a.files,
            b.files
        );
        assert!(
            a.rounds > 800 && b.rounds > 800,
            "{} and {} rounds",
            a.rounds,
            b.rounds
        );
    }
}

/// The records the corpora do not have (city, federation, dates, free-text type, arbiters,
/// time control, round dates, a team, a forbidden pairing) added to a golden file with XXA
/// acceleration: they survive an export in the file's dialect, and a trip through TRF-2026 and
/// back; the rule set comes from the start date; every round still replays strictly.
#[test]
fn header_teams_and_forbidden_pairs_survive_every_dialect() {
    let work = scratch("dialects");
    let data = work.0.join("data");
    let d = data.to_str().unwrap();
    let base = std::fs::read_to_string(golden("dutch-2017/t0041.trf")).unwrap();
    let golden_file = parse(base.as_bytes(), "t0041");
    // Two players who never met: forbidding their pairing changes no round's pairing.
    let one = golden_file.player(1).unwrap();
    let met: Vec<u32> = one
        .rounds
        .iter()
        .flatten()
        .filter_map(|e| e.opponent)
        .collect();
    let other = (2..=76).find(|q| !met.contains(q)).unwrap();
    let dates: Vec<String> = (1..=12).map(|r| format!("17/09/{r:02}")).collect();
    let mut text = String::new();
    for (i, line) in base.lines().enumerate() {
        text.push_str(line);
        text.push('\n');
        if i == 0 {
            text.push_str(
                "022 Oslo\n032 NOR\n042 2017/09/01\n052 2017/09/12\n092 Swiss open, 12 rounds\n\
                 102 IA Chief, Arbiter\n112 FA Deputy, One\n112 Deputy, Two\n122 90'/40+30'+30\"\n",
            );
            text.push_str(&format!("132{}{}\n", " ".repeat(88), dates.join("  ")));
        }
    }
    text.push_str(&format!("XXP {:>4} {:>4}\n", 1, other));
    text.push_str(&format!(
        "013 {:<32}{:>4} {:>4} {:>4}\n",
        "Club A", 3, 9, 27
    ));
    let original = parse(text.as_bytes(), "amended t0041");
    let path = work.file("open.trf", &text);

    // No --system: the start date (2017-09-01) says dutch-2017.
    let im = arbiter(["import", path.to_str().unwrap(), "--data", d]);
    assert_eq!(im.code, 0, "{}", im.stderr);
    let replay = arbiter(["replay", "open", "--data", d, "--strict"]);
    assert_eq!(replay.code, 0, "{}\n{}", replay.stdout, replay.stderr);
    assert!(
        replay.stdout.contains("12 rounds re-paired, 0 differing"),
        "{}",
        replay.stdout
    );
    let x = arbiter(["export", "open", "--data", d, "--format", "trfx"]);
    assert_eq!(x.code, 0, "{}", x.stderr);
    let export = parse(x.stdout.as_bytes(), "export");
    let added = compare(&original, &export).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(added, ["062", "072", "082", "XXR", "XXC"]);

    // Through TRF-2026: 250 and 260 records, then imported again and written as TRF(x).
    let t26 = arbiter(["export", "open", "--data", d, "--format", "trf2026"]);
    assert_eq!(t26.code, 0, "{}", t26.stderr);
    let f26 = parse(t26.stdout.as_bytes(), "trf2026 export");
    // The team as 013: with 250/260 present, a 310 would make their ids team numbers.
    for c in ["250", "260", "013", "142", "152", "132", "112"] {
        assert!(f26.records.iter().any(|r| code(r) == c), "no {c} record");
    }
    assert!(
        !f26.records
            .iter()
            .any(|r| matches!(code(r).as_str(), "XXA" | "XXP" | "310"))
    );
    assert_eq!(f26.accelerations().points, original.accelerations().points);
    assert_eq!(f26.forbidden_pairs(5), original.forbidden_pairs(5));
    let p26 = work.file("open-2026.trf", &t26.stdout);
    let im = arbiter([
        "import",
        p26.to_str().unwrap(),
        "--data",
        d,
        "--id",
        "open2",
    ]);
    assert_eq!(im.code, 0, "{}", im.stderr);
    let back = arbiter(["export", "open2", "--data", d, "--format", "trfx"]);
    assert_eq!(back.code, 0, "{}", back.stderr);
    let back = parse(back.stdout.as_bytes(), "trfx export of the TRF-2026 import");
    compare(&original, &back).unwrap_or_else(|e| panic!("{e}"));

    // A TRF-2026 team record (310) with every column, in a file whose ids name players only.
    let base = std::fs::read_to_string(golden("dutch-2025/t0001.trf")).unwrap();
    // With records the service carries without interpreting them.
    let text = format!(
        "182 Pairing, Controller\n202 BH:CUT1 BH SB\n### a comment\n{base}\
         310 {:>3} {:<32} {:<5} {:>6} {:>6} {:>6} {:>3}  {:>4} {:>4}\nZZZ an unknown record\n",
        1, "Club B", "CLB", 2100, "3.0", "", 2, 3, 5
    );
    let with_team = parse(text.as_bytes(), "t0001 with a team");
    for c in ["310", "182", "202", "###", "ZZZ"] {
        assert!(with_team.records.iter().any(|r| code(r) == c), "{c}");
    }
    let path = work.file("teams.trf", &text);
    let im = arbiter(["import", path.to_str().unwrap(), "--data", d]);
    assert_eq!(im.code, 0, "{}", im.stderr);
    let t26 = arbiter(["export", "teams", "--data", d, "--format", "trf2026"]);
    assert_eq!(t26.code, 0, "{}", t26.stderr);
    let added = compare(&with_team, &parse(t26.stdout.as_bytes(), "teams export"))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(added.contains(&"082".to_string()), "{added:?}");

    // The reporting service's ExportTrf gives the same files, dialect by dialect.
    let offline: Vec<String> = ["trfx", "trfbx", "trf2026"]
        .iter()
        .map(|f| arbiter_ok(["export", "open", "--data", d, "--format", f]))
        .collect();
    {
        let server = crate::support::Server::start(&["--data", d], &work.0.join("serve.log"));
        for (f, want) in ["trfx", "trfbx", "trf2026"].iter().zip(&offline) {
            let got = arbiter_ok(["export", "open", "--server", &server.grpc, "--format", f]);
            assert_eq!(&got, want, "{f}: ExportTrf differs from the offline export");
        }
    }

    // The comparison does see a loss: the export without its XXA lines is refused.
    let mut lossy = export.clone();
    lossy.records.retain(|r| code(r) != "XXA");
    let e = compare(&original, &lossy).unwrap_err();
    assert!(e.contains("(XXA)"), "{e}");
}

/// A tournament in progress: five of twelve rounds played, byes announced for round 6 in the
/// column (a half-point bye) and by XXZ (zero-point byes). Imported, they are byes requested for
/// round 6; the export writes them in the round-6 column, which means the same.
#[test]
fn a_tournament_in_progress_keeps_its_announced_byes() {
    let work = scratch("progress");
    let d = work.0.join("data");
    let d = d.to_str().unwrap();
    let full = parse(
        &std::fs::read(golden("dutch-2017/t0041.trf")).unwrap(),
        "t0041",
    );
    let mut f = full.clone();
    for p in f.players_mut() {
        p.rounds.truncate(5);
        p.points = full.score_after(p.start_number, 5).unwrap();
        p.rank = None;
    }
    f.player_mut(9)
        .unwrap()
        .rounds
        .push(Some(arbiter_core::RoundEntry::bye(
            arbiter_core::ResultCode::HalfBye,
        )));
    f.records.push(Record::Xxr(12));
    f.records.push(Record::Xxz(vec![7, 8]));
    let text = arbiter_trf::write_with(&f, arbiter_trf::LineEnding::Lf).unwrap();
    let original = parse(text.as_bytes(), "t0041 after round 5");
    assert_eq!(original.round_to_pair(), 6);
    assert_eq!(original.absences(6).len(), 3);
    let path = work.file("progress.trf", &text);
    let im = arbiter([
        "import",
        path.to_str().unwrap(),
        "--data",
        d,
        "--system",
        "dutch-2017",
    ]);
    assert_eq!(im.code, 0, "{}", im.stderr);
    let replay = arbiter(["replay", "progress", "--data", d, "--strict"]);
    assert_eq!(replay.code, 0, "{}\n{}", replay.stdout, replay.stderr);
    assert!(
        replay.stdout.contains("5 rounds re-paired, 0 differing"),
        "{}",
        replay.stdout
    );
    for dialect in ["trfx", "trf2026"] {
        let x = arbiter(["export", "progress", "--data", d, "--format", dialect]);
        assert_eq!(x.code, 0, "{}", x.stderr);
        let export = parse(x.stdout.as_bytes(), dialect);
        assert_eq!(export.absences(6), original.absences(6), "{dialect}");
        if dialect == "trfx" {
            compare(&original, &export).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

/// A round left blank (not paired) where the generator wrote a zero-point bye: imported as an
/// absence, exported blank again; every round still replays strictly.
#[test]
fn a_blank_round_stays_blank() {
    let work = scratch("blank");
    let d = work.0.join("data");
    let d = d.to_str().unwrap();
    let mut f = parse(
        &std::fs::read(golden("dutch-2017/t0001.trf")).unwrap(),
        "t0001",
    );
    let (player, round) = f
        .players_mut()
        .find_map(|p| {
            let i = p.rounds.iter().position(|e| {
                e.is_some_and(|e| {
                    e.opponent.is_none() && e.result == arbiter_core::ResultCode::ZeroBye
                })
            })?;
            p.rounds[i] = None;
            Some((p.start_number, i + 1))
        })
        .expect("a zero-point bye");
    let text = arbiter_trf::write_with(&f, arbiter_trf::LineEnding::Lf).unwrap();
    let original = parse(text.as_bytes(), "t0001 with a blank round");
    assert_eq!(original.player(player).unwrap().entry(round as u32), None);
    let path = work.file("blank.trf", &text);
    let im = arbiter([
        "import",
        path.to_str().unwrap(),
        "--data",
        d,
        "--system",
        "dutch-2017",
    ]);
    assert_eq!(im.code, 0, "{}", im.stderr);
    let replay = arbiter(["replay", "blank", "--data", d, "--strict"]);
    assert_eq!(replay.code, 0, "{}\n{}", replay.stdout, replay.stderr);
    let export = parse(
        arbiter_ok(["export", "blank", "--data", d]).as_bytes(),
        "export",
    );
    assert_eq!(export.player(player).unwrap().entry(round as u32), None);
    compare(&original, &export).unwrap_or_else(|e| panic!("{e}"));
}

/// A type code with Baku acceleration (`..._BAKU`) and no acceleration records: imported as
/// the virtual points the code implies, exported as the code alone in both dialects.
#[test]
fn a_baku_type_code_is_kept_without_restating_its_points() {
    let work = scratch("baku");
    let d = work.0.join("data");
    let d = d.to_str().unwrap();
    let text = std::fs::read_to_string(golden("dutch-2025/t0001.trf"))
        .unwrap()
        .replacen("092 FIDE_DUTCH_2025\n", "092 FIDE_DUTCH_2025_BAKU\n", 1);
    let original = parse(text.as_bytes(), "baku");
    let implied = original.accelerations();
    assert_eq!(implied.source, arbiter_trf::AccelerationSource::ImpliedBaku);
    assert!(!implied.is_empty());
    let path = work.file("baku.trf", &text);
    let im = arbiter(["import", path.to_str().unwrap(), "--data", d]);
    assert_eq!(im.code, 0, "{}", im.stderr);
    for dialect in ["trf2026", "trfx"] {
        let x = arbiter(["export", "baku", "--data", d, "--format", dialect]);
        assert_eq!(x.code, 0, "{}", x.stderr);
        let export = parse(x.stdout.as_bytes(), dialect);
        assert!(
            !export
                .records
                .iter()
                .any(|r| matches!(code(r).as_str(), "250" | "XXA")),
            "{dialect}: the points are restated"
        );
        assert_eq!(export.accelerations().points, implied.points, "{dialect}");
        if dialect == "trf2026" {
            compare(&original, &export).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

/// A bad file among good ones: refused naming file, line, columns and field; nothing of any
/// file is written.
#[test]
fn bad_files_are_refused_and_nothing_is_written() {
    let work = scratch("bad");
    let data = work.0.join("data");
    let d = data.to_str().unwrap();
    let good = golden("dutch-2025/t0060.trf");
    let text = std::fs::read_to_string(golden("dutch-2025/t0061.trf")).unwrap();
    let cases = [
        (
            text.replacen('\n', "\n042 soon\n", 1),
            "bad-date.trf: line 2, columns 5-8 (start date): \"soon\" is not a date",
        ),
        (format!("{text}XXP    3    3\n"), "(XXP forbidden pairing)"),
        (
            format!("{text}XXP  999    1\n"),
            "(XXP id 1): no 001 record has start number 999",
        ),
        (
            format!("{text}XXC rank\n"),
            "(XXC rank): pairing by ranking ids instead of pairing numbers is not supported",
        ),
    ];
    for (i, (bad, says)) in cases.iter().enumerate() {
        let name = if i == 0 {
            "bad-date.trf".to_string()
        } else {
            format!("bad-{i}.trf")
        };
        let path = work.file(&name, bad);
        let r = arbiter([
            "import",
            good.to_str().unwrap(),
            path.to_str().unwrap(),
            "--data",
            d,
        ]);
        assert_eq!(r.code, 3, "{}", r.stderr);
        assert!(r.stderr.contains(says), "{says:?} not in {}", r.stderr);
        assert!(r.stderr.contains(&name), "{}", r.stderr);
        assert!(r.stderr.contains("line "), "{}", r.stderr);
        // Not even the good file was imported.
        let replay = arbiter(["replay", "t0060", "--data", d]);
        assert_eq!(replay.code, 3, "{}", replay.stdout);
    }
}

/// The other TRF files of the golden folder (the manual's worked example and its round inputs,
/// the tie-break example with a full header, the dutch-2025 rule cases): imported, exported in
/// their dialect, compared record by record.
#[test]
fn the_other_golden_trf_files_round_trip() {
    let work = scratch("others");
    let d = work.0.join("data");
    let d = d.to_str().unwrap();
    let mut files = Vec::new();
    for dir in [
        "manual-example",
        "manual-example/inputs",
        "tiebreaks",
        "dutch-2025-cases",
    ] {
        files.extend(corpus_any(dir));
    }
    assert!(files.len() >= 16, "{files:?}");
    let mut failures = Vec::new();
    for (i, f) in files.iter().enumerate() {
        let bytes = std::fs::read(f).unwrap();
        let original = parse(&bytes, &f.display().to_string());
        let id = format!("other{i}");
        // The worked example names its rules in free text ("Baku 2016") and has no dates.
        let system = if f.to_str().unwrap().contains("manual-example") {
            "dutch-2017"
        } else {
            "dutch-2025"
        };
        let asked = arbiter_pairing::trf::rule_set_of(&original).is_none();
        let mut args = vec!["import", f.to_str().unwrap(), "--data", d, "--id", &id];
        if asked {
            args.extend(["--system", system]);
        }
        let im = arbiter(&args);
        assert_eq!(im.code, 0, "{}: {}", f.display(), im.stderr);
        let dialect = dialect_name(&original).0;
        let ex = arbiter(["export", &id, "--data", d, "--format", dialect]);
        assert_eq!(ex.code, 0, "{}: {}", f.display(), ex.stderr);
        let export = parse(ex.stdout.as_bytes(), "export");
        if let Err(e) = compare(&original, &export) {
            failures.push(format!("{}: {e}", f.display()));
        }
        // The manual's worked example was paired by the rules: every round replays strictly.
        if f.ends_with("manual-40p-7r.trf") {
            let replay = arbiter(["replay", &id, "--data", d, "--strict"]);
            assert_eq!(replay.code, 0, "{}\n{}", replay.stdout, replay.stderr);
            let paired = (1..=original.round_columns())
                .filter(|&r| original.is_round_paired(r))
                .count();
            assert_eq!(paired, 6, "the file holds rounds 1-6 (round 7 to pair)");
            assert!(
                replay
                    .stdout
                    .contains(&format!("{paired} rounds re-paired, 0 differing")),
                "{}",
                replay.stdout
            );
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

fn corpus_any(dir: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(golden(dir))
        .expect("golden folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "trf"))
        .collect();
    files.sort();
    files
}

/// The file's tie-break list (record 202) becomes the tournament's: the TRF-2026 export writes
/// it once (wherever the file had it) and ranks as the file itself does; a 202 that the
/// tie-break parser cannot read is imported with a warning naming its line and kept as written.
#[test]
fn the_tie_break_list_travels_with_the_tournament() {
    let work = scratch("tiebreaks");
    let data = work.0.join("data");
    let d = data.to_str().unwrap();
    let original = golden("tiebreaks/swiss-unplayed.trf");
    let text = std::fs::read_to_string(&original).unwrap();
    let list_line = text
        .lines()
        .find(|l| l.starts_with("202 "))
        .expect("the golden file names its tie-breaks")
        .to_string();

    let im = arbiter([
        "import",
        original.to_str().unwrap(),
        "--data",
        d,
        "--id",
        "tb",
    ]);
    assert_eq!(im.code, 0, "{}", im.stderr);
    let ex = arbiter(["export", "tb", "--data", d, "--format", "trf2026"]);
    assert_eq!(ex.code, 0, "{}", ex.stderr);
    assert!(ex.stdout.lines().any(|l| l == list_line), "{}", ex.stdout);
    let exported = work.file("export.trf", &ex.stdout);
    let from_file = arbiter_ok(["standings", original.to_str().unwrap(), "--format", "csv"]);
    let from_export = arbiter_ok(["standings", exported.to_str().unwrap(), "--format", "csv"]);
    assert_eq!(from_file, from_export);

    // Wherever the file puts it, the list is written once.
    let moved = text.replace(&format!("{list_line}\n"), "").replace(
        "012 Example Open (tie-break golden)\n",
        &format!("012 Example Open (tie-break golden)\n{list_line}\n"),
    );
    let moved_path = work.file("moved.trf", &moved);
    let im = arbiter([
        "import",
        moved_path.to_str().unwrap(),
        "--data",
        d,
        "--id",
        "tb2",
    ]);
    assert_eq!(im.code, 0, "{}", im.stderr);
    let ex = arbiter(["export", "tb2", "--data", d, "--format", "trf2026"]);
    assert_eq!(ex.code, 0, "{}", ex.stderr);
    assert_eq!(
        ex.stdout.lines().filter(|l| l.starts_with("202 ")).count(),
        1,
        "{}",
        ex.stdout
    );

    // A list the tie-break parser cannot read: imported with a warning naming its line and
    // column, kept as written, and the recommended list applies (said on the standings).
    let bad = work.file("bad.trf", text.replace(&list_line, "202 BH/C1,BH/C99,SB"));
    let r = arbiter(["import", bad.to_str().unwrap(), "--data", d, "--id", "tb3"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains("warning") && r.stderr.contains("line 14 (record 202"),
        "{}",
        r.stderr
    );
    let ex = arbiter(["export", "tb3", "--data", d, "--format", "trf2026"]);
    assert_eq!(ex.code, 0, "{}", ex.stderr);
    assert!(
        ex.stdout.lines().any(|l| l == "202 BH/C1,BH/C99,SB"),
        "{}",
        ex.stdout
    );
}
