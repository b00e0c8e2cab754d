//! Every file of the golden corpora reads without error and writes back byte for byte.

use arbiter_trf::{Profile, parse, write_with};
use std::path::{Path, PathBuf};

fn golden() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/golden")
}

fn trf_files(dir: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(golden().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "trf"))
        .collect();
    v.sort();
    v
}

fn round_trip(files: &[PathBuf], expected: Profile) {
    assert!(!files.is_empty());
    for f in files {
        let text = std::fs::read_to_string(f).unwrap();
        let trf = parse(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert_eq!(trf.profile(), expected, "{}", f.display());
        let out = write_with(&trf.file, trf.line_ending).unwrap();
        if out != text {
            for (a, b) in out.lines().zip(text.lines()) {
                assert_eq!(a, b, "{}", f.display());
            }
            panic!("{}: line count differs", f.display());
        }
        assert_eq!(trf.write().unwrap(), text);
        let again = parse(&out).unwrap();
        assert_eq!(again.file, trf.file);
    }
}

#[test]
fn dutch_2017_round_trips() {
    round_trip(&trf_files("dutch-2017"), Profile::Trf16X);
}

#[test]
fn dutch_2025_round_trips() {
    round_trip(&trf_files("dutch-2025"), Profile::Trf2026);
}

#[test]
fn tiebreak_file_round_trips() {
    round_trip(&trf_files("tiebreaks"), Profile::Trf2026);
}

#[test]
fn seed_example_round_trips() {
    let mut files = trf_files("seed-example");
    files.extend(trf_files("seed-example/inputs"));
    assert_eq!(files.len(), 7);
    round_trip(&files, Profile::Trf16X);
}
