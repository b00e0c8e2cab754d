//! The verdict on another pairing of a round (`arbiter check`): every alternative must be
//! judged worse than the engine's pairing on a named rule, or equal on all criteria and later
//! in the generation order — never better. Alternatives are made from golden rounds by
//! exchanging the opponents of two boards, moving the bye, and swapping colours; hand-made
//! rounds check the absolute criteria and the simplest quality criterion.

use arbiter_core::PlayerId;
use arbiter_pairing::trf::record_from_trf;
use arbiter_pairing::{Board, RecordedPairing, RuleSet, TournamentRecord, Verdict, compare, pair};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn golden(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/golden")
        .join(dir)
}

fn load_text(text: &str) -> TournamentRecord {
    let trf = arbiter_trf::parse_bytes(text.as_bytes()).expect("trf");
    record_from_trf(&trf.file).expect("record")
}

fn load(path: &Path) -> TournamentRecord {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let trf =
        arbiter_trf::parse_bytes(&bytes).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    record_from_trf(&trf.file).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Alternatives to a pairing: opponents of boards k and k+1 exchanged (both ways), the bye
/// moved to the last board's black player, and one board's colours swapped.
fn alternatives(p: &RecordedPairing) -> Vec<(&'static str, RecordedPairing)> {
    let mut out = Vec::new();
    let n = p.boards.len();
    let picks: Vec<usize> = [0, n / 2, n.saturating_sub(2)]
        .into_iter()
        .filter(|&k| k + 1 < n)
        .collect();
    for &k in &picks {
        let (a, b) = (p.boards[k], p.boards[k + 1]);
        for (x, y) in [
            (
                Board {
                    white: a.white,
                    black: b.black,
                },
                Board {
                    white: b.white,
                    black: a.black,
                },
            ),
            (
                Board {
                    white: a.white,
                    black: b.white,
                },
                Board {
                    white: a.black,
                    black: b.black,
                },
            ),
        ] {
            let mut q = p.clone();
            q.boards[k] = x;
            q.boards[k + 1] = y;
            out.push(("exchange", q));
        }
    }
    if let (Some(bye), Some(last)) = (p.bye, p.boards.last()) {
        let mut q = p.clone();
        let k = q.boards.len() - 1;
        q.boards[k] = Board {
            white: last.white,
            black: bye,
        };
        q.bye = Some(last.black);
        out.push(("bye", q));
    }
    if let Some(&k) = picks.first() {
        let mut q = p.clone();
        let b = q.boards[k];
        q.boards[k] = Board {
            white: b.black,
            black: b.white,
        };
        out.push(("colour", q));
    }
    out
}

fn audit_corpus(dir: &str, rule_set: RuleSet, every: usize) -> BTreeMap<String, usize> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(golden(dir))
        .expect("corpus folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "trf"))
        .collect();
    files.sort();
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for f in files.iter().step_by(every) {
        let record = load(f);
        for r in 1..=record.paired_rounds() {
            let input = record.input_for_round(r, rule_set).expect("input");
            let recorded = record.recorded(r);
            let same = compare(&input, &recorded).expect("engine pairs the golden round");
            assert_eq!(
                same.verdict,
                Verdict::Identical,
                "{} round {r}: the golden pairing itself",
                f.display()
            );
            for (kind, alt) in alternatives(&recorded) {
                let c = compare(&input, &alt).expect("engine pairs");
                let where_ = format!("{} round {r} ({kind}): {alt:?}", f.display());
                let key = match &c.verdict {
                    Verdict::Identical => continue, // the exchange gave the same pairs back
                    Verdict::NotAPairing { detail } => panic!("{where_}: {detail}"),
                    Verdict::Criterion { engine_better, .. } => {
                        assert!(engine_better, "{where_}: {}", c.verdict);
                        assert!(kind != "colour", "{where_}: {}", c.verdict);
                        c.verdict.rule().unwrap().to_string()
                    }
                    Verdict::Colour { rule, .. } => {
                        assert_eq!(kind, "colour", "{where_}: {}", c.verdict);
                        format!("colour {rule}")
                    }
                    Verdict::GenerationOrder { .. } => {
                        assert!(kind != "colour", "{where_}: {}", c.verdict);
                        "generation order".into()
                    }
                    Verdict::Absolute { rule, .. } => format!("absolute {rule}"),
                };
                *seen.entry(key).or_default() += 1;
            }
        }
    }
    eprintln!("{dir}: verdicts {seen:?}");
    seen
}

#[test]
fn dutch_2017_alternatives_are_never_better() {
    let seen = audit_corpus("dutch-2017", RuleSet::Dutch2017, 10);
    for rule in [
        "C.5",
        "C.6",
        "generation order",
        "absolute C.1",
        "colour E.1",
    ] {
        assert!(
            seen.contains_key(rule),
            "no alternative decided by {rule}: {seen:?}"
        );
    }
    assert!(seen.len() >= 10, "too few distinct verdicts: {seen:?}");
}

#[test]
fn dutch_2025_alternatives_are_never_better() {
    let seen = audit_corpus("dutch-2025", RuleSet::Dutch2025, 20);
    for rule in [
        "[C6]",
        "[C7]",
        "generation order",
        "absolute [C1]",
        "colour 5.2.1",
    ] {
        assert!(
            seen.contains_key(rule),
            "no alternative decided by {rule}: {seen:?}"
        );
    }
    assert!(seen.len() >= 10, "too few distinct verdicts: {seen:?}");
}

/// Four players, round 1 played 1-3 (1-0) and 4-2 (0-1); round 2 to judge.
const FOUR: &str = "\
012 Verdict
062 4
072 4
092 Individual: Swiss-System
XXR 3
001    1      Player One                        2400                             1.0    1     3 w 1
001    2      Player Two                        2300                             1.0    2     4 b 1
001    3      Player Three                      2200                             0.0    3     1 b 0
001    4      Player Four                       2100                             0.0    4     2 w 0
";

fn round2(boards: &[(PlayerId, PlayerId)], bye: Option<PlayerId>) -> RecordedPairing {
    RecordedPairing {
        boards: boards
            .iter()
            .map(|&(white, black)| Board { white, black })
            .collect(),
        bye,
    }
}

#[test]
fn hand_made_rounds_name_their_rule() {
    let record = load_text(FOUR);
    for rule_set in [RuleSet::Dutch2017, RuleSet::Dutch2025] {
        let input = record.input_for_round(2, rule_set).expect("input");
        let engine = pair(&input).expect("pairs");
        let v2025 = rule_set == RuleSet::Dutch2025;
        // The engine's own pairing.
        let own = RecordedPairing {
            boards: engine.boards.clone(),
            bye: None,
        };
        assert_eq!(compare(&input, &own).unwrap().verdict, Verdict::Identical);
        // A rematch breaks the no-second-game rule.
        let v = compare(&input, &round2(&[(3, 1), (2, 4)], None))
            .unwrap()
            .verdict;
        assert_eq!(v.rule(), Some(if v2025 { "[C1]" } else { "C.1" }), "{v}");
        assert!(v.to_string().contains("round 1"), "{v}");
        // Leaders apart (1-4, 3-2): the 1-point bracket makes no pair where one was possible.
        let v = compare(&input, &round2(&[(1, 4), (3, 2)], None))
            .unwrap()
            .verdict;
        assert_eq!(v.rule(), Some(if v2025 { "[C6]" } else { "C.5" }), "{v}");
        assert!(
            matches!(
                v,
                Verdict::Criterion {
                    bracket: 0,
                    counts: Some((1, 0)),
                    ..
                }
            ),
            "{v}"
        );
        // A player twice, and an unknown player.
        let v = compare(&input, &round2(&[(1, 2), (2, 4)], None))
            .unwrap()
            .verdict;
        assert!(
            matches!(&v, Verdict::NotAPairing { detail } if detail.contains("2 appears")),
            "{v}"
        );
        let v = compare(&input, &round2(&[(1, 2), (3, 9)], None))
            .unwrap()
            .verdict;
        assert!(
            matches!(&v, Verdict::NotAPairing { detail } if detail.contains("9 is not")),
            "{v}"
        );
    }
}

/// Five players; player 5 had the pairing-allocated bye in round 1.
const FIVE: &str = "\
012 Verdict bye
062 5
072 5
092 Individual: Swiss-System
XXR 3
001    1      Player One                        2400                             1.0    1     3 w 1
001    2      Player Two                        2300                             1.0    2     4 b 1
001    3      Player Three                      2200                             0.0    4     1 b 0
001    4      Player Four                       2100                             0.0    5     2 w 0
001    5      Player Five                       2000                             1.0    3  0000 - U
";

#[test]
fn a_second_bye_breaks_the_bye_rule() {
    let record = load_text(FIVE);
    for rule_set in [RuleSet::Dutch2017, RuleSet::Dutch2025] {
        let input = record.input_for_round(2, rule_set).expect("input");
        let v = compare(&input, &round2(&[(1, 2), (3, 4)], Some(5)))
            .unwrap()
            .verdict;
        let want = if rule_set == RuleSet::Dutch2025 {
            "[C2]"
        } else {
            "C.2"
        };
        assert_eq!(v.rule(), Some(want), "{v}");
    }
}
