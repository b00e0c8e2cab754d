//! A small hand-made tournament used by the tolerance, malformed-input and view tests.
#![allow(dead_code)]

/// A `001` line with the TRF16 columns: `rounds` are 8-character blocks (`"   3 w 1"`).
pub fn player(id: u32, name: &str, rating: u32, points: &str, rounds: &[&str]) -> String {
    let mut s = format!(
        "001 {id:>4} m    {name:<33} {rating:>4} ESP {fide:>11} 1990/01/01 {points:>4} {rank:>4}",
        fide = 100_000 + id,
        rank = ""
    );
    for r in rounds {
        s.push_str("  ");
        s.push_str(r);
    }
    s.trim_end().to_string()
}

/// Four players, two rounds played, three rounds in all. Line numbers (1-based) matter to the
/// tests: players 1-4 are on lines 4-7.
pub fn base_lines() -> Vec<String> {
    vec![
        "012 Malformed Cup".to_string(),
        "022 Testville".to_string(),
        format!("132{:88}{}", "", "25/01/10  25/01/11  25/01/12"),
        player(1, "Able, Ann", 2400, "1.5", &["   3 w 1", "   2 b ="]),
        player(2, "Baker, Bob", 2300, "1.0", &["   4 w =", "   1 w ="]),
        player(3, "Cole, Cid", 2200, "0.0", &["   1 b 0", "   4 w 0"]),
        player(4, "Dale, Dan", 2100, "1.5", &["   2 b =", "   3 b 1"]),
        "XXR 3".to_string(),
        "XXC white1".to_string(),
    ]
}

pub fn join(lines: &[String], ending: &str) -> String {
    let mut s = lines.join(ending);
    s.push_str(ending);
    s
}

pub fn base_text() -> String {
    join(&base_lines(), "\n")
}
