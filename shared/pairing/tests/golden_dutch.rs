//! Replays the golden corpora: every round of every tournament paired by a FIDE-endorsed
//! engine must come out identical (pairs, colours, bye), following the round-by-round protocol
//! of tests/golden/dutch-2017/README.md (history before the round; players with a non-pairing
//! entry in the round are not paired).

use arbiter_matching::{with_sparse_from, with_threads};
use arbiter_pairing::trf::record_from_trf;
use arbiter_pairing::{RecordedPairing, RuleSet, TournamentRecord, pair};
use std::path::{Path, PathBuf};

fn golden(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/golden")
        .join(dir)
}

fn load(path: &Path) -> TournamentRecord {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let trf =
        arbiter_trf::parse_bytes(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    record_from_trf(&trf.file).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Pairs every recorded round of one tournament; returns (rounds, differing round numbers).
fn replay(path: &Path, rule_set: RuleSet) -> (u32, Vec<u32>) {
    let record = load(path);
    let rounds = record.paired_rounds();
    let mut bad = Vec::new();
    for r in 1..=rounds {
        let input = record.input_for_round(r, rule_set).expect("input");
        let same = match pair(&input) {
            Ok(p) => {
                RecordedPairing {
                    boards: p.boards,
                    bye: p.bye,
                }
                .normalized()
                    == record.recorded(r).normalized()
            }
            Err(_) => false,
        };
        if !same {
            bad.push(r);
        }
    }
    (rounds, bad)
}

/// How a corpus is paired.
#[derive(Clone, Copy)]
enum Mode {
    /// The engine's defaults: the golden brackets are too small to split any step.
    Default,
    /// Every graph solved on candidate edges and every pricing split over two threads.
    TwoThreads,
}

/// Replays every `t*.trf` of a corpus folder (two files at a time); returns (rounds,
/// mismatches).
fn replay_corpus(dir: &str, rule_set: RuleSet, mode: Mode) -> (u32, Vec<String>) {
    let mut files: Vec<PathBuf> = std::fs::read_dir(golden(dir))
        .expect("corpus folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "trf"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 600,
        "{dir}: expected the whole corpus, found {} files",
        files.len()
    );
    let halves: Vec<Vec<PathBuf>> = vec![
        files.iter().step_by(2).cloned().collect(),
        files.iter().skip(1).step_by(2).cloned().collect(),
    ];
    let results: Vec<(u32, Vec<String>)> = std::thread::scope(|s| {
        let handles: Vec<_> = halves
            .iter()
            .map(|part| {
                s.spawn(move || {
                    let mut total = 0;
                    let mut bad = Vec::new();
                    for f in part {
                        let (n, b) = match mode {
                            Mode::Default => replay(f, rule_set),
                            Mode::TwoThreads => {
                                with_sparse_from(0, || with_threads(2, 0, || replay(f, rule_set)))
                            }
                        };
                        total += n;
                        let name = f.file_name().unwrap().to_string_lossy().to_string();
                        bad.extend(b.into_iter().map(|r| format!("{name} round {r}")));
                    }
                    (total, bad)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("worker"))
            .collect()
    });
    let total = results.iter().map(|r| r.0).sum();
    let mut bad: Vec<String> = results.into_iter().flat_map(|r| r.1).collect();
    bad.sort();
    (total, bad)
}

#[test]
fn dutch_2017_corpus_every_round_identical() {
    let (total, bad) = replay_corpus("dutch-2017", RuleSet::Dutch2017, Mode::Default);
    println!(
        "dutch-2017: {}/{} rounds identical",
        total as usize - bad.len(),
        total
    );
    assert_eq!(total, 5286, "the corpus README counts 5286 rounds");
    assert!(
        bad.is_empty(),
        "rounds differing from the reference engine: {bad:?}"
    );
}

#[test]
fn manual_worked_example_all_seven_rounds() {
    let dir = golden("manual-example");
    let expected: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("expected-pairings.json")).unwrap())
            .unwrap();
    let rounds = expected["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 7);
    for round in rounds {
        let r = round["round"].as_u64().unwrap() as u32;
        let file = if r == 7 {
            dir.join("manual-40p-7r.trf")
        } else {
            dir.join(format!("inputs/pair-r{r}.trf"))
        };
        let record = load(&file);
        assert_eq!(record.next_round(), r, "{}", file.display());
        let input = record.input_for_round(r, RuleSet::Dutch2017).unwrap();
        let got = pair(&input).unwrap();
        let mut want = Vec::new();
        let mut want_bye = None;
        for b in round["boards"].as_array().unwrap() {
            let white = b["white"].as_u64().unwrap() as u32;
            match b["black"].as_u64() {
                Some(black) => want.push((white, black as u32)),
                None => want_bye = Some(white),
            }
        }
        let got_boards: Vec<(u32, u32)> = got.boards.iter().map(|b| (b.white, b.black)).collect();
        // Same boards, same colours, and the same board order as published.
        assert_eq!(got_boards, want, "round {r}");
        assert_eq!(got.bye, want_bye, "round {r}: pairing-allocated bye");
    }
}

#[test]
fn dutch_2025_corpus_every_round_identical() {
    let (total, bad) = replay_corpus("dutch-2025", RuleSet::Dutch2025, Mode::Default);
    println!(
        "dutch-2025: {}/{} rounds identical",
        total as usize - bad.len(),
        total
    );
    assert_eq!(total, 5319, "the corpus README counts 5319 rounds");
    assert!(
        bad.is_empty(),
        "rounds differing from the reference engine: {bad:?}"
    );
}

/// The "equal output for 1 and 2 threads on every golden round": the default replays
/// above price nothing on a second thread (their brackets are below the sparse and parallel
/// thresholds), so these force both, and every round must still match the reference engine.
#[test]
fn both_corpora_every_round_identical_on_two_threads() {
    for (dir, rule_set, rounds) in [
        ("dutch-2017", RuleSet::Dutch2017, 5286),
        ("dutch-2025", RuleSet::Dutch2025, 5319),
    ] {
        let (total, bad) = replay_corpus(dir, rule_set, Mode::TwoThreads);
        println!(
            "{dir}, two threads: {}/{} rounds identical",
            total as usize - bad.len(),
            total
        );
        assert_eq!(total, rounds);
        assert!(
            bad.is_empty(),
            "{dir}: rounds differing on two threads: {bad:?}"
        );
    }
}
