//! `arbiter generate` as a user runs it: one file to standard output that `arbiter check`
//! accepts round by round under the system its type code names, the same bytes for the same arguments, a folder of files with
//! `--count`, and bad arguments refused by name with exit 3.

use crate::common::{arbiter, arbiter_ok};

#[test]
fn generated_files_check_and_repeat_and_bad_arguments_are_named() {
    let dir = std::env::temp_dir().join(format!("arbiter-generate-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let args = [
        "generate",
        "--system",
        "dutch-2017",
        "--players",
        "14",
        "--seed",
        "3",
    ];
    let one = arbiter_ok(args);
    assert_eq!(one, arbiter_ok(args), "the same arguments, the same bytes");
    assert!(one.contains("192 FIDE_DUTCH_2017"), "{one}");
    let file = dir.join("one.trf");
    std::fs::write(&file, &one).unwrap();
    let check = arbiter_ok(["check", file.to_str().unwrap()]);
    assert!(check.contains("rounds identical (dutch-2017)"), "{check}");

    let out = dir.join("many");
    arbiter_ok([
        "generate",
        "--system",
        "lim",
        "--players",
        "11",
        "--count",
        "3",
        "--out",
        out.to_str().unwrap(),
    ]);
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["lim-11-1.trf", "lim-11-2.trf", "lim-11-3.trf"]);

    // Burstein and Dubov events carry their type code, so `check` re-pairs them under their
    // own system without being told (Lim has no code in the table: it is named).
    for (system, code) in [("burstein", "FIDE_BURSTEIN"), ("dubov", "FIDE_DUBOV")] {
        let text = arbiter_ok(["generate", "--system", system, "--players", "13"]);
        assert!(text.contains(&format!("192 {code}")), "{text}");
        let file = dir.join(format!("{system}.trf"));
        std::fs::write(&file, &text).unwrap();
        let check = arbiter_ok(["check", file.to_str().unwrap()]);
        assert!(
            check.contains(&format!("rounds identical ({system})")),
            "{check}"
        );
    }

    for (bad, says) in [
        (
            vec!["generate", "--system", "swiss"],
            "--system swiss: one of dutch-2017",
        ),
        (
            vec!["generate", "--count", "2"],
            "--count above 1 needs --out",
        ),
        (
            vec!["generate", "--ratings", "1400-2400"],
            "ratings: the bottom (2400) is above the top (1400)",
        ),
        (vec!["generate", "--scoring", "3-1"], "expected WIN:DRAW"),
    ] {
        let r = arbiter(&bad);
        assert_eq!(r.code, 3, "{bad:?}: {}", r.stderr);
        assert!(r.stderr.contains(says), "{bad:?}: {}", r.stderr);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
