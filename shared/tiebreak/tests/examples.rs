//! The worked examples of tests/golden/tiebreaks/examples.json: the round-robin of seed 000
//! (SB, Koya, performance), and the 7-player Swiss with every kind of unplayed round under the
//! 2024 and 2026 rules (all values checked by hand and with the FIDE TEC reference tool).

mod common;

use arbiter_core::{Color, ResultCode, RoundEntry};
use arbiter_tiebreak::{
    Options, PairingKind, Player, Rational, RuleSet, TieBreak, TieBreakList, Tournament, standings,
    tiebreak_values,
};
use common::{golden_dir, load_trf};
use serde_json::Value;

fn examples() -> Value {
    let text = std::fs::read_to_string(golden_dir().join("tiebreaks/examples.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn case<'a>(all: &'a Value, id: &str) -> &'a Value {
    all["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("case {id}"))
}

/// A JSON number as an exact rational (the file writes at most two decimals).
fn exact(v: &Value) -> Rational {
    let s = v.to_string();
    let (int, frac) = s.split_once('.').unwrap_or((&s, ""));
    let neg = int.starts_with('-');
    let digits = format!("{}{}", int.trim_start_matches('-'), frac);
    let r = Rational::new(digits.parse().unwrap(), 10i64.pow(frac.len() as u32)).unwrap();
    if neg { -r } else { r }
}

/// Round r (1-based) of the circle method for `n` (even) players: pairs (a, b).
fn circle_round(n: u32, r: u32) -> Vec<(u32, u32)> {
    let m = n - 1;
    let mut out = vec![(n, (r - 1) % m + 1)];
    for k in 1..n / 2 {
        let a = (r - 1 + k) % m + 1;
        let b = (r - 1 + m - k) % m + 1;
        out.push((a, b));
    }
    out
}

#[test]
fn round_robin_sb_koya_tpr_of_seed_000() {
    let all = examples();
    let c = case(&all, "rr-12-sb-koya-tpr");
    let players = c["players"].as_array().unwrap();
    let rows = c["crosstable"]["rows"].as_array().unwrap();
    let n = players.len() as u32;
    let mut t = Tournament::new(n - 1);
    t.pairing = PairingKind::PreDetermined;
    for p in players {
        t.players.push(Player::new(
            p["no"].as_u64().unwrap() as u32,
            p["name"].as_str().unwrap(),
            Some(p["rating"].as_u64().unwrap() as u32),
        ));
    }
    let result = |a: u32, b: u32| -> ResultCode {
        match rows[a as usize - 1][b as usize - 1].as_str().unwrap() {
            "1" => ResultCode::Win,
            "0" => ResultCode::Loss,
            "1/2" => ResultCode::Draw,
            other => panic!("crosstable cell {other}"),
        }
    };
    for r in 1..n {
        for (a, b) in circle_round(n, r) {
            t.set_game(r, a, b, result(a, b));
        }
    }
    t.validate().unwrap();
    let opts = Options::default();
    let get = |d: &str| -> Vec<(u32, Option<Rational>)> {
        tiebreak_values(&t, &d.parse::<TieBreak>().unwrap(), &opts).unwrap()
    };
    let (pts, sb, ks, tpr) = (get("PTS"), get("SB"), get("KS"), get("TPR"));
    for e in c["expected"].as_array().unwrap() {
        let no = e["no"].as_u64().unwrap() as usize;
        assert_eq!(pts[no - 1].1, Some(exact(&e["points"])), "points of {no}");
        assert_eq!(sb[no - 1].1, Some(exact(&e["SB"])), "SB of {no}");
        assert_eq!(ks[no - 1].1, Some(exact(&e["KS"])), "KS of {no}");
        assert_eq!(tpr[no - 1].1, Some(exact(&e["TPR"])), "TPR of {no}");
    }
}

/// Builds a 12-player event in which player 1 scores `before` points in rounds 1..R-1 (wins
/// then a draw), has an unplayed round R of the given kind and plays draws afterwards up to
/// round n; returns player 1's legacy Buchholz contribution of round R.
fn legacy_virtual_opponent(before: Rational, kind: &str, r: u32, n: u32) -> Rational {
    let tenths = before * Rational::from_int(10);
    assert!(tenths.is_integer());
    let before_tenths = tenths.numer();
    let mut t = Tournament::new(n);
    t.start_date = Some("2019/01/01".parse().unwrap());
    for id in 1..=12 {
        t.players
            .push(Player::new(id, format!("P{id}"), Some(2000)));
    }
    let mut left = before_tenths;
    let mut opp = 2;
    for round in 1..r {
        let res = if left >= 10 {
            left -= 10;
            ResultCode::Win
        } else if left == 5 {
            left -= 5;
            ResultCode::Draw
        } else {
            ResultCode::Loss
        };
        t.set_game(round, 1, opp, res);
        opp += 1;
    }
    assert_eq!(left, 0);
    match kind {
        "forfeit loss" => t.set_entry(
            r,
            1,
            RoundEntry::game(12, Color::White, ResultCode::ForfeitLoss),
        ),
        "forfeit win" => t.set_entry(
            r,
            1,
            RoundEntry::game(12, Color::White, ResultCode::ForfeitWin),
        ),
        "full bye" => t.set_bye(r, 1, ResultCode::FullBye),
        "half bye" => t.set_bye(r, 1, ResultCode::HalfBye),
        other => panic!("{other}"),
    }
    if kind.starts_with("forfeit") {
        let mirrored = if kind == "forfeit win" {
            ResultCode::ForfeitLoss
        } else {
            ResultCode::ForfeitWin
        };
        t.set_entry(r, 12, RoundEntry::game(1, Color::Black, mirrored));
    }
    for round in r + 1..=n {
        t.set_game(round, 1, opp, ResultCode::Draw);
        opp += 1;
    }
    // Every other contribution of player 1 is a played opponent whose other rounds are
    // absences, counted as draws by the legacy rules: BH minus their adjusted scores is the
    // virtual opponent's score.
    let bh = tiebreak_values(&t, &"BH".parse().unwrap(), &Options::default()).unwrap();
    let me = &t.players[0];
    let mut others = Rational::ZERO;
    for round in (1..=n).filter(|&x| x != r) {
        let o = me.entry(round).opponent.unwrap();
        let p = &t.players[o as usize - 1];
        for rr in 1..=n {
            let pe = p.entry(rr);
            others += if pe.is_played_game() {
                Rational::from_tenths(t.point_system.points(pe.result).tenths() as i64)
            } else {
                Rational::new(1, 2).unwrap()
            };
        }
    }
    bh[0].1.unwrap() - others
}

#[test]
fn legacy_virtual_opponent_examples_of_seed_001() {
    let all = examples();
    let c = case(&all, "legacy-virtual-opponent-examples");
    for ex in c["cases"].as_array().unwrap() {
        let desc = ex["desc"].as_str().unwrap();
        let sfpr = exact(&ex["SfPR"]);
        let kind = if desc.contains("half-point") {
            "half bye"
        } else if desc.contains("full-point") {
            "full bye"
        } else if sfpr == Rational::from_int(1) {
            "forfeit win"
        } else {
            "forfeit loss"
        };
        let got = legacy_virtual_opponent(
            exact(&ex["SPR"]),
            kind,
            ex["R"].as_u64().unwrap() as u32,
            ex["n"].as_u64().unwrap() as u32,
        );
        assert_eq!(got, exact(&ex["expected"]), "{desc}");
    }
}

fn descriptor_of(key: &str) -> String {
    // "BH-C1" in the file is the descriptor "BH/C1".
    key.replace('-', "/")
}

#[test]
fn swiss_with_unplayed_rounds_2024_and_2026() {
    let all = examples();
    let c = case(&all, "swiss-7p-5r-unplayed-2024-vs-2026");
    let trf = load_trf(&golden_dir().join("tiebreaks/swiss-unplayed.trf"));
    let t = &trf.tournament;
    t.validate().unwrap();
    assert_eq!(RuleSet::for_start_date(t.start_date), RuleSet::C07_2024);
    let mut checked = 0;
    let mut wrong = Vec::new();
    for (rules, expected) in c["expected"].as_object().unwrap() {
        let rule_set: RuleSet = rules.parse().unwrap();
        let opts = Options {
            rule_set: Some(rule_set),
            ..Options::default()
        };
        for (key, values) in expected.as_object().unwrap() {
            let tb: TieBreak = descriptor_of(key).parse().unwrap();
            let got = tiebreak_values(t, &tb, &opts).unwrap();
            for (no, v) in values.as_object().unwrap() {
                let id: u32 = no.parse().unwrap();
                let g = got.iter().find(|(p, _)| *p == id).unwrap().1.unwrap();
                let want = exact(v);
                // AOB is printed by the reference with two decimals (half up); the engine keeps it exact.
                let g = if tb.acronym == arbiter_tiebreak::Acronym::Aob {
                    g.round_to(2)
                } else {
                    g
                };
                checked += 1;
                if g != want {
                    wrong.push(format!("{rules} {key} #{id}: expected {want}, got {g}"));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {checked} values differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    assert!(checked > 150);

    // The adjusted scores the example states (16.3: player 5's withdrawal round is a draw).
    let adjusted: Vec<(u32, Rational)> = c["adjusted_scores_for_opponents"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.parse().unwrap(), exact(v)))
        .collect();
    // With them, BH(1) in 2024 is the sum over his five opponents (4, 7, 2, 6, 3).
    let bh1: Rational = t.players[0]
        .rounds
        .iter()
        .filter_map(|e| e.opponent)
        .map(|o| adjusted.iter().find(|(i, _)| *i == o).unwrap().1)
        .sum();
    assert_eq!(bh1, Rational::from_int(13));

    // The rank column of the file is the standing after PTS and BH/C1 (2024 rules).
    let list: TieBreakList = "BH/C1".parse().unwrap();
    let st = standings(t, &list.0, &Options::default()).unwrap();
    let file = std::fs::read_to_string(golden_dir().join("tiebreaks/swiss-unplayed.trf")).unwrap();
    for row in &st.rows {
        let rank_in_file = file
            .lines()
            .filter(|l| l.starts_with("001"))
            .find(|l| l[4..8].trim().parse::<u32>().unwrap() == row.id)
            .map(|l| l[85..89].trim().parse::<u32>().unwrap())
            .unwrap();
        assert_eq!(row.rank, rank_in_file, "rank of {}", row.id);
    }
}
