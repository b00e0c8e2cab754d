//! `arbiter pair --system dubov|burstein|lim` and `arbiter check --system ...`: a tournament
//! paired round by round through the binary (each round written back into the TRF file with
//! results), then checked: identical as recorded, and a round with two opponents exchanged is
//! reported with the rule that decides.

use crate::common::arbiter;

const PLAYERS: u32 = 9;
const ROUNDS: usize = 4;

/// One round entry of a player: opponent (0 = bye), colour, result.
type Entry = (u32, char, char);

fn rating(id: u32) -> u32 {
    2400 - 37 * id
}

/// A TRF16 file of the players and their rounds so far.
fn trf(rounds: &[Vec<Entry>]) -> String {
    let mut s = format!("012 Other systems\n062 {PLAYERS}\nXXR 5\nXXC white1\n");
    for id in 1..=PLAYERS {
        let mine: Vec<Entry> = rounds.iter().map(|r| r[(id - 1) as usize]).collect();
        let tenths: u32 = mine
            .iter()
            .map(|e| match e.2 {
                '1' | 'U' => 10,
                '=' => 5,
                _ => 0,
            })
            .sum();
        let mut l = format!(
            "001 {id:>4}      {:<33} {:>4}",
            format!("Player {id:02}"),
            rating(id)
        );
        while l.len() < 80 {
            l.push(' ');
        }
        l.push_str(&format!("{:>2}.{} {id:>4}", tenths / 10, tenths % 10));
        while l.len() < 91 {
            l.push(' ');
        }
        for (opp, c, r) in mine {
            if opp == 0 {
                l.push_str(&format!("0000 - {r}  "));
            } else {
                l.push_str(&format!("{opp:>4} {c} {r}  "));
            }
        }
        s.push_str(l.trim_end());
        s.push('\n');
    }
    s
}

struct Dir(std::path::PathBuf);

impl Dir {
    fn new(name: &str) -> Dir {
        let d = std::env::temp_dir().join(format!("arbiter-systems-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        Dir(d)
    }
    fn write(&self, text: &str) -> String {
        let p = self.0.join("t.trf");
        std::fs::write(&p, text).unwrap();
        p.to_string_lossy().into_owned()
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Plays ROUNDS rounds through `arbiter pair --system SYSTEM`: the higher-rated player wins,
/// every third board is drawn.
fn play(system: &str, dir: &Dir) -> Vec<Vec<Entry>> {
    let mut rounds: Vec<Vec<Entry>> = Vec::new();
    for r in 1..=ROUNDS {
        let path = dir.write(&trf(&rounds));
        let run = arbiter(["pair", "--system", system, "--explain", &path]);
        assert_eq!(run.code, 0, "{system} round {r}: {}", run.stderr);
        assert!(
            run.stderr
                .contains(&format!("Round {r} paired by the FIDE ")),
            "{}",
            run.stderr
        );
        assert!(run.stderr.contains("Scoregroup 1"), "{}", run.stderr);
        let mut round = vec![(0u32, '-', '-'); PLAYERS as usize];
        let mut lines = run.stdout.lines();
        let n: usize = lines.next().expect("count").trim().parse().expect("count");
        let mut seen = 0;
        for (k, line) in lines.enumerate() {
            let v: Vec<u32> = line
                .split_whitespace()
                .map(|x| x.parse().unwrap())
                .collect();
            let (w, b) = (v[0], v[1]);
            seen += 1;
            if b == 0 {
                round[(w - 1) as usize] = (0, '-', 'U');
                continue;
            }
            let (rw, rb) = if k % 3 == 2 {
                ('=', '=')
            } else if rating(w) > rating(b) {
                ('1', '0')
            } else {
                ('0', '1')
            };
            round[(w - 1) as usize] = (b, 'w', rw);
            round[(b - 1) as usize] = (w, 'b', rb);
        }
        assert_eq!(seen, n, "{}", run.stdout);
        assert!(
            round.iter().all(|e| e.2 != '-'),
            "{system} round {r}: someone unpaired"
        );
        rounds.push(round);
    }
    rounds
}

#[test]
fn each_system_pairs_through_the_binary_and_checks_its_own_rounds() {
    for system in ["dubov", "burstein", "lim"] {
        let dir = Dir::new(system);
        let rounds = play(system, &dir);
        let path = dir.write(&trf(&rounds));
        let run = arbiter(["check", "--system", system, &path]);
        assert_eq!(run.code, 0, "{system}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stdout
                .contains(&format!("{ROUNDS}/{ROUNDS} rounds identical ({system})")),
            "{}",
            run.stdout
        );

        // Exchange the opponents of the last round's first two boards.
        let mut broken = rounds.clone();
        let last = broken.last_mut().unwrap();
        let whites: Vec<u32> = (1..=PLAYERS)
            .filter(|&i| last[(i - 1) as usize].1 == 'w')
            .collect();
        let (a, c) = (whites[0], whites[1]);
        let (b, d) = (last[(a - 1) as usize].0, last[(c - 1) as usize].0);
        // The new games are recorded as draws, so both sides' results agree.
        last[(a - 1) as usize] = (d, 'w', '=');
        last[(d - 1) as usize] = (a, 'b', '=');
        last[(c - 1) as usize] = (b, 'w', '=');
        last[(b - 1) as usize] = (c, 'b', '=');
        let path = dir.write(&trf(&broken));
        let run = arbiter(["check", "--system", system, &path]);
        assert_eq!(run.code, 2, "{system}: {}{}", run.stdout, run.stderr);
        let report = run
            .stdout
            .split(&format!("round {ROUNDS}: differs"))
            .nth(1)
            .unwrap_or_else(|| panic!("{system}: round {ROUNDS} not reported:\n{}", run.stdout));
        let verdict = report.lines().nth(1).unwrap_or_default();
        assert!(
            verdict.contains("decided by §") || verdict.contains("breaks "),
            "{system}: no rule named: {verdict}"
        );
    }
}

#[test]
fn an_unknown_system_is_refused_with_the_names_it_accepts() {
    let dir = Dir::new("unknown");
    let path = dir.write(&trf(&[]));
    let run = arbiter(["pair", "--system", "monrad", &path]);
    assert_ne!(run.code, 0);
    assert!(
        run.stderr.contains("monrad")
            && [
                "dutch-2017",
                "dutch-2025",
                "dubov",
                "burstein,",
                "burstein-bbp",
                "lim"
            ]
            .iter()
            .all(|name| run.stderr.contains(name)),
        "{}",
        run.stderr
    );
}
