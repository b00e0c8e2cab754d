//! The bar: every value of every table in tests/golden/tiebreaks (150 tournaments of the
//! dutch-2017 corpus, values by the FIDE TEC reference implementation) must be reproduced.
//! One test walks all files and lists every disagreement before failing.

mod common;

use arbiter_tiebreak::{Options, Rational, RuleSet, TieBreakList, standings};
use common::{golden_dir, load_trf};
use std::collections::BTreeMap;

/// Reads a decimal number exactly ("62.00", "-7", "2309").
fn decimal(s: &str) -> Option<Rational> {
    s.parse().ok()
}

/// The files carry no start date (record 042). The reference tool then applies the rules in
/// force when it ran, the March 2026 text (dummy opponent capped, 16.4.1/16.4.2); the engine
/// does the same for an event without a start date.
const RULES: RuleSet = RuleSet::C07_2026;

#[test]
fn every_value_of_every_golden_table() {
    let dir = golden_dir().join("tiebreaks");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("golden tie-break tables")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tsv"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 150, "expected the 150 golden tables");

    let options = Options::default();
    let mut compared = 0usize;
    let mut agree = 0usize;
    let mut disagreements: Vec<String> = Vec::new();
    let mut per_column: BTreeMap<String, usize> = BTreeMap::new();

    for path in &files {
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(path).unwrap();
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
        assert_eq!(&header[..3], &["Rank", "StartNo", "PTS"], "{stem}: header");
        let list: TieBreakList = header[3..]
            .join(",")
            .parse()
            .unwrap_or_else(|e| panic!("{stem}: {e}"));
        let trf = load_trf(&golden_dir().join("dutch-2017").join(format!("{stem}.trf")));
        let st =
            standings(&trf.tournament, &list.0, &options).unwrap_or_else(|e| panic!("{stem}: {e}"));
        assert_eq!(
            st.rule_set, RULES,
            "{stem}: rule set chosen without a start date"
        );
        // The points column of the file is what the engine computes from the rounds.
        for (id, pts) in &trf.points_column {
            let row = st.rows.iter().find(|r| r.id == *id).unwrap();
            assert_eq!(
                row.points,
                Rational::from_tenths(pts.tenths() as i64),
                "{stem} #{id}: points column"
            );
        }
        let by_id: BTreeMap<u32, &arbiter_tiebreak::Standing> =
            st.rows.iter().map(|r| (r.id, r)).collect();
        for line in lines.filter(|l| !l.trim().is_empty()) {
            let cells: Vec<&str> = line.split('\t').collect();
            let id: u32 = cells[1].parse().unwrap();
            let Some(row) = by_id.get(&id) else {
                disagreements.push(format!("{stem} #{id}: player missing from the standings"));
                continue;
            };
            let mut check = |column: &str, expected: &str, got: Option<Rational>| {
                compared += 1;
                let exp = decimal(expected);
                if exp.is_some() && exp == got {
                    agree += 1;
                } else {
                    *per_column.entry(column.to_string()).or_default() += 1;
                    disagreements.push(format!(
                        "{stem} #{id} {column}: expected {expected}, got {}",
                        got.map(|g| g.to_string())
                            .unwrap_or_else(|| "undefined".into())
                    ));
                }
            };
            check("Rank", cells[0], Some(Rational::from_int(row.rank as i64)));
            check("PTS", cells[2], Some(row.points));
            for (k, name) in header[3..].iter().enumerate() {
                check(name, cells[3 + k], row.values[k]);
            }
        }
    }
    println!(
        "golden tie-break tables: {agree}/{compared} values agree ({} files)",
        files.len()
    );
    for (c, n) in &per_column {
        println!("  {c}: {n} disagreements");
    }
    for d in disagreements.iter().take(200) {
        println!("  {d}");
    }
    assert!(
        disagreements.is_empty(),
        "{} of {compared} values disagree",
        disagreements.len()
    );
}
