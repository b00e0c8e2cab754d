//! Test support: a small private TRF reader (only what the tie-break tests need) and helpers
//! for the golden tables.
//!
//! It reads TRF16 / TRF-2026 player lines (001: start number, name, rating, federation, points,
//! round blocks), the number of rounds (XXR, 142), the start date (042), the tournament type
//! (092/192, to recognise round-robins) and the bbpPairings point values (BBW, BBD, BBL, BBZ,
//! BBF, BBU). Columns are 1-based characters as in the TRF16 player record (001).

#![allow(dead_code)]

use arbiter_core::{Color, PointSystem, ResultCode, RoundEntry, Score};
use arbiter_tiebreak::{Date, PairingKind, Player, Tournament};
use std::path::{Path, PathBuf};

/// Characters `from..=to` (1-based, inclusive) of a line, or "" past its end.
fn cols(line: &[char], from: usize, to: usize) -> String {
    if from > line.len() {
        return String::new();
    }
    line[from - 1..to.min(line.len())].iter().collect()
}

#[derive(Debug)]
pub struct TrfFile {
    pub tournament: Tournament,
    /// Points column of every player, by start number.
    pub points_column: Vec<(u32, Score)>,
}

pub fn read_trf(text: &str) -> Result<TrfFile, String> {
    let mut players = Vec::new();
    let mut points_column = Vec::new();
    let mut rounds_declared = 0u32;
    let mut blocks = 0u32;
    let mut start_date = None;
    let mut round_robin = false;
    let mut ps = PointSystem::default();
    let mut bbu: Option<Score> = None;
    for (no, raw) in text.split(['\n', '\r']).enumerate() {
        let line: Vec<char> = raw.chars().collect();
        if line.len() < 3 {
            continue;
        }
        let code = cols(&line, 1, 3);
        let rest = cols(&line, 5, line.len()).trim().to_string();
        let at = |what: &str| format!("line {}: {what}", no + 1);
        match code.as_str() {
            "001" => {
                let id: u32 = cols(&line, 5, 8)
                    .trim()
                    .parse()
                    .map_err(|_| at("start number"))?;
                let name = cols(&line, 15, 47).trim().to_string();
                let rating: u32 = cols(&line, 49, 52).trim().parse().unwrap_or(0);
                let fed = cols(&line, 54, 56).trim().to_string();
                let pts: Score = cols(&line, 81, 84)
                    .trim()
                    .parse()
                    .map_err(|_| at("points"))?;
                let mut entries = Vec::new();
                let mut r = 0usize;
                loop {
                    let s = 92 + 10 * r;
                    if s > line.len() {
                        break;
                    }
                    let block = cols(&line, s, s + 7);
                    r += 1;
                    if block.trim().is_empty() {
                        entries.push(RoundEntry::bye(ResultCode::ZeroBye));
                        continue;
                    }
                    let opp_txt = cols(&line, s, s + 3);
                    let opp: u32 = if opp_txt.trim().is_empty() {
                        0
                    } else {
                        opp_txt.trim().parse().map_err(|_| at("opponent"))?
                    };
                    let colour = cols(&line, s + 5, s + 5).chars().next().unwrap_or(' ');
                    let res = cols(&line, s + 7, s + 7).chars().next().unwrap_or(' ');
                    let result = ResultCode::from_trf(res).ok_or_else(|| at("result code"))?;
                    let color = Color::from_trf(colour).map_err(|_| at("colour"))?;
                    let opponent = if opp == 0 || !result.has_opponent() {
                        None
                    } else {
                        Some(opp)
                    };
                    entries.push(RoundEntry {
                        opponent,
                        color: if opponent.is_some() { color } else { None },
                        result,
                    });
                }
                blocks = blocks.max(r as u32);
                let mut p = Player::new(id, name, if rating > 0 { Some(rating) } else { None });
                p.federation = if fed.is_empty() { None } else { Some(fed) };
                p.rounds = entries;
                players.push(p);
                points_column.push((id, pts));
            }
            "XXR" | "142" => {
                rounds_declared =
                    rounds_declared.max(rest.parse().map_err(|_| at("number of rounds"))?);
            }
            "042" => start_date = rest.parse::<Date>().ok(),
            "092" | "192" => {
                let u = rest.to_ascii_uppercase();
                if u.contains("ROBIN") || u.contains("BERGER") {
                    round_robin = true;
                }
            }
            "BBW" | "BBD" | "BBL" | "BBZ" | "BBF" | "BBU" => {
                let v: Score = rest.parse().map_err(|_| at("point value"))?;
                match code.as_str() {
                    "BBW" => ps.win = v,
                    "BBD" => ps.draw = v,
                    "BBL" => ps.loss = v,
                    "BBZ" => ps.zero_bye = v,
                    "BBF" => ps.forfeit_loss = v,
                    _ => bbu = Some(v),
                }
            }
            _ => {}
        }
    }
    ps.forfeit_win = ps.win;
    ps.full_bye = ps.win;
    ps.half_bye = ps.draw;
    ps.pairing_bye = bbu.unwrap_or(ps.win);
    let rounds = rounds_declared.max(blocks);
    for p in &mut players {
        while (p.rounds.len() as u32) < rounds {
            p.rounds.push(RoundEntry::bye(ResultCode::ZeroBye));
        }
    }
    Ok(TrfFile {
        tournament: Tournament {
            players,
            rounds,
            point_system: ps,
            start_date,
            pairing: if round_robin {
                PairingKind::PreDetermined
            } else {
                PairingKind::Swiss
            },
        },
        points_column,
    })
}

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

pub fn golden_dir() -> PathBuf {
    repo_root().join("tests/golden")
}

pub fn load_trf(path: &Path) -> TrfFile {
    let text = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let text = String::from_utf8_lossy(&text);
    read_trf(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

use arbiter_tiebreak::{Options, Rational, TieBreak};

/// An empty Swiss event with `n` players rated 2400, 2300, ... (player i: 2500 - 100 i).
pub fn swiss(n: u32, rounds: u32) -> Tournament {
    let mut t = Tournament::new(rounds);
    for id in 1..=n {
        t.players.push(Player::new(
            id,
            format!("Player {id}"),
            Some(2500 - 100 * id),
        ));
    }
    t
}

/// A double forfeit or a one-sided forfeit with explicit codes on both lines.
pub fn forfeit(
    t: &mut Tournament,
    round: u32,
    white: u32,
    black: u32,
    white_code: ResultCode,
    black_code: ResultCode,
) {
    t.set_entry(
        round,
        white,
        RoundEntry::game(black, Color::White, white_code),
    );
    t.set_entry(
        round,
        black,
        RoundEntry::game(white, Color::Black, black_code),
    );
}

/// Values of one descriptor, by pairing number.
pub fn vals(t: &Tournament, descriptor: &str, options: &Options) -> Vec<Option<Rational>> {
    let tb: TieBreak = descriptor
        .parse()
        .unwrap_or_else(|e| panic!("{descriptor}: {e}"));
    let mut v = arbiter_tiebreak::tiebreak_values(t, &tb, options).unwrap();
    v.sort_by_key(|(id, _)| *id);
    v.into_iter().map(|(_, x)| x).collect()
}

/// A decimal literal as an exact value: `q("5.75")`.
pub fn q(s: &str) -> Rational {
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    let neg = int.starts_with('-');
    let digits = format!("{}{}", int.trim_start_matches('-'), frac);
    let r = Rational::new(digits.parse().unwrap(), 10i64.pow(frac.len() as u32)).unwrap();
    if neg { -r } else { r }
}

/// Expected values written as decimal literals ("-" = undefined).
pub fn expect(list: &[&str]) -> Vec<Option<Rational>> {
    list.iter()
        .map(|s| if *s == "-" { None } else { Some(q(s)) })
        .collect()
}
