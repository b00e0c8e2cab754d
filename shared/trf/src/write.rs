//! The writer: one line per record, fields at their TRF columns, trailing blanks removed.
//!
//! The layout choices (right-aligned numbers, `%4.1f` points, `0000 - U` for byes, zero-padded
//! rounds in `240`/`250`) are the ones the reference engines and the golden corpora use, so a
//! file we parsed comes back byte for byte; `300`/`320`/`330` zero-pad rounds and team numbers
//! as the TRF-2026 examples do, and write an empty board or round as `0000` / `000`. The writer
//! refuses values that would not read back as the same model (a name wider than its 33 columns,
//! a points value wider than 4, a text with a line break): `parse(write(x)) == x` holds for
//! every model it accepts.

use crate::error::TrfWriteError;
use crate::model::*;
use crate::read::{is_modelled_code, parse_birth_date, parse_round_date};
use arbiter_core::{PlayerId, RoundEntry, Score};
use std::fmt::Write as _;

type W<T> = Result<T, TrfWriteError>;

/// Writes the records with CR LF line ends (our default: docs/src/guide/files.md).
pub fn write(file: &TrfFile) -> W<String> {
    write_with(file, LineEnding::CrLf)
}

/// Writes the records with the given line ends; every line, the last included, is terminated.
pub fn write_with(file: &TrfFile, ending: LineEnding) -> W<String> {
    let mut out = String::new();
    for (i, r) in file.records.iter().enumerate() {
        let line = record_line(i + 1, r)?;
        if i == 0 && line.starts_with('\u{FEFF}') {
            return Err(fail(
                1,
                "record",
                "a file cannot start with U+FEFF (it reads as a byte order mark)",
            ));
        }
        out.push_str(&line);
        out.push_str(ending.as_str());
    }
    Ok(out)
}

fn fail(record: usize, field: impl Into<String>, message: impl Into<String>) -> TrfWriteError {
    TrfWriteError {
        record,
        field: field.into(),
        message: message.into(),
    }
}

/// Text that must survive a read: no line breaks, no trailing blanks.
fn text_ok(i: usize, field: &str, s: &str, trimmed_start: bool, max: usize) -> W<()> {
    if s.contains(['\r', '\n']) {
        return Err(fail(i, field, "contains a line break"));
    }
    if s.trim_end() != s || (trimmed_start && s.trim_start() != s) {
        return Err(fail(
            i,
            field,
            "has leading or trailing blanks, which a reader drops",
        ));
    }
    if s.chars().count() > max {
        return Err(fail(i, field, format!("is longer than its {max} columns")));
    }
    Ok(())
}

fn range(i: usize, field: &str, v: u64, min: u64, max: u64) -> W<()> {
    if v < min || v > max {
        return Err(fail(i, field, format!("{v} is outside {min}..={max}")));
    }
    Ok(())
}

/// A score right-aligned in `n` columns: `%n.1f` as TRF16 writes points, or the whole
/// number without decimals when only that fits (a `9999` read from a points column).
fn score_n(i: usize, field: &str, s: Option<Score>, n: usize) -> W<String> {
    let Some(s) = s else { return Ok(" ".repeat(n)) };
    let t = s.to_string();
    if t.len() <= n {
        return Ok(format!("{t:>n$}"));
    }
    let whole = (s.tenths() / 10).to_string();
    if s.tenths() % 10 == 0 && whole.len() <= n {
        return Ok(format!("{whole:>n$}"));
    }
    Err(fail(i, field, format!("{t} does not fit in {n} columns")))
}

fn score4(i: usize, field: &str, s: Score) -> W<String> {
    score_n(i, field, Some(s), 4)
}

fn ids(i: usize, what: &str, v: &[PlayerId], min_count: usize) -> W<()> {
    if v.len() < min_count {
        return Err(fail(i, what, format!("needs at least {min_count} ids")));
    }
    for &id in v {
        range(i, what, u64::from(id), 1, 9999)?;
    }
    Ok(())
}

fn finish(mut s: String) -> String {
    let t = s.trim_end().len();
    s.truncate(t);
    s
}

fn record_line(i: usize, r: &Record) -> W<String> {
    Ok(match r {
        Record::Blank => String::new(),
        Record::Comment(t) => {
            text_ok(i, "comment", t, false, usize::MAX)?;
            format!("###{t}")
        }
        Record::Text(t) => {
            text_ok(i, t.code.code(), &t.text, false, usize::MAX)?;
            finish(format!("{} {}", t.code.code(), t.text))
        }
        Record::RoundDates(d) => {
            text_ok(i, "132 label", &d.label, true, 87)?;
            if d.dates.last() == Some(&None) {
                return Err(fail(i, "132 dates", "ends with a blank date"));
            }
            let mut s = format!("132 {:<87}", d.label);
            for (k, date) in d.dates.iter().enumerate() {
                if k > 0 {
                    s.push_str("  ");
                }
                match date {
                    Some(date) => {
                        let t = date.to_string();
                        if parse_round_date(&t) != Some(*date) {
                            return Err(fail(
                                i,
                                format!("132 round {} date", k + 1),
                                format!("{t} is not a valid YY/MM/DD date"),
                            ));
                        }
                        s.push_str(&t);
                    }
                    None => s.push_str("        "),
                }
            }
            finish(s)
        }
        Record::Rounds(n) => {
            range(i, "142 number of rounds", u64::from(*n), 1, 999)?;
            format!("142 {n}")
        }
        Record::InitialColor(c) => format!("152 {}", c.trf_char().to_ascii_uppercase()),
        Record::Scoring(v) => {
            if v.is_empty() {
                return Err(fail(i, "162", "needs at least one result symbol"));
            }
            let mut s = String::from("162 ");
            for (k, e) in v.iter().enumerate() {
                s.push_str(if k == 0 { " " } else { "    " });
                s.push(e.symbol.letter());
                s.push_str(&score4(i, "162 points", e.points)?);
            }
            s
        }
        Record::NationalRating(n) => {
            text_ok(i, "172 federation", &n.federation, true, 3)?;
            text_ok(i, "172 ranking method", &n.method, true, usize::MAX)?;
            finish(format!("172 {:<3} {}", n.federation, n.method))
        }
        Record::Player(p) => player_line(i, p)?,
        Record::Team013(t) => {
            text_ok(i, "013 team name", &t.name, true, 32)?;
            let mut s = format!("013 {:<32}", t.name);
            members(i, "013", &t.members, &mut s)?;
            finish(s)
        }
        Record::Team310(t) => {
            range(i, "310 team number", u64::from(t.number), 1, 999)?;
            text_ok(i, "310 team name", &t.name, true, 32)?;
            text_ok(i, "310 nickname", &t.nickname, true, 5)?;
            if let Some(v) = t.strength {
                range(i, "310 strength", u64::from(v), 0, 999_999)?;
            }
            if let Some(v) = t.rank {
                range(i, "310 rank", u64::from(v), 0, 999)?;
            }
            let opt = |v: Option<u32>, n: usize| {
                v.map(|v| format!("{v:>n$}"))
                    .unwrap_or_else(|| " ".repeat(n))
            };
            let mut s = format!(
                "310 {:>3} {:<32} {:<5} {} {} {} {}  ",
                t.number,
                t.name,
                t.nickname,
                opt(t.strength, 6),
                score_n(i, "310 match points", t.match_points, 6)?,
                score_n(i, "310 game points", t.game_points, 6)?,
                opt(t.rank, 3),
            );
            members(i, "310", &t.members, &mut s)?;
            finish(s)
        }
        Record::TeamOrder300(t) => {
            range(i, "300 round", u64::from(t.round), 1, 999)?;
            range(i, "300 team", u64::from(t.team), 1, 999)?;
            range(i, "300 opponent team", u64::from(t.opponent), 1, 999)?;
            if t.opponent == t.team {
                return Err(fail(i, "300 opponent team", "is the team itself"));
            }
            if t.boards.is_empty() {
                return Err(fail(i, "300 boards", "needs at least one board"));
            }
            let mut s = format!("300 {:03} {:03} {:03}", t.round, t.team, t.opponent);
            for (k, id) in t.boards.iter().enumerate() {
                match id {
                    Some(id) => {
                        range(i, &format!("300 board {}", k + 1), u64::from(*id), 1, 9999)?;
                        let _ = write!(s, " {id:>4}");
                    }
                    None => s.push_str(" 0000"),
                }
            }
            s
        }
        Record::TeamByes320(b) => {
            if b.match_points < Score::ZERO || b.game_points < Score::ZERO {
                return Err(fail(i, "320 PAB points", "must not be negative"));
            }
            let mut s = format!(
                "320 {} {}",
                score4(i, "320 PAB match points", b.match_points)?,
                score4(i, "320 PAB game points", b.game_points)?
            );
            for (k, t) in b.teams.iter().enumerate() {
                let t = t.unwrap_or(0);
                if t != 0 {
                    range(
                        i,
                        &format!("320 round {} team", k + 1),
                        u64::from(t),
                        1,
                        999,
                    )?;
                }
                let _ = write!(s, " {t:03}");
            }
            s
        }
        Record::TeamForfeit330(f) => {
            range(i, "330 round", u64::from(f.round), 1, 999)?;
            range(i, "330 white team", u64::from(f.white), 1, 999)?;
            range(i, "330 black team", u64::from(f.black), 1, 999)?;
            if f.white == f.black {
                return Err(fail(i, "330 black team", "is the white team"));
            }
            format!(
                "330 {} {:03} {:03} {:03}",
                f.kind.code(),
                f.round,
                f.white,
                f.black
            )
        }
        Record::Byes(b) => {
            range(i, "240 round", u64::from(b.round), 1, 999)?;
            ids(i, "240 ids", &b.ids, 1)?;
            let mut s = format!("240 {} {:03}", b.kind.letter(), b.round);
            for id in &b.ids {
                let _ = write!(s, " {id:04}");
            }
            s
        }
        Record::Acceleration(a) => {
            range(i, "250 first round", u64::from(a.first_round), 1, 999)?;
            range(
                i,
                "250 last round",
                u64::from(a.last_round),
                u64::from(a.first_round),
                999,
            )?;
            range(i, "250 first id", u64::from(a.first_id), 1, 9999)?;
            range(
                i,
                "250 last id",
                u64::from(a.last_id),
                u64::from(a.first_id),
                9999,
            )?;
            match (a.match_points, a.game_points) {
                (None, None) => {
                    return Err(fail(i, "250 game points", "needs match or game points"));
                }
                (None, Some(Score::ZERO)) => {
                    return Err(fail(i, "250 game points", "must not be 0.0"));
                }
                _ => {}
            }
            if a.match_points.is_some_and(|s| s < Score::ZERO)
                || a.game_points.is_some_and(|s| s < Score::ZERO)
            {
                return Err(fail(i, "250 points", "must not be negative"));
            }
            format!(
                "250 {} {} {:03} {:03} {:04} {:04}",
                score_n(i, "250 match points", a.match_points, 4)?,
                score_n(i, "250 game points", a.game_points, 4)?,
                a.first_round,
                a.last_round,
                a.first_id,
                a.last_id
            )
        }
        Record::Prohibited(p) => {
            range(i, "260 first round", u64::from(p.first_round), 1, 999)?;
            range(
                i,
                "260 last round",
                u64::from(p.last_round),
                u64::from(p.first_round),
                999,
            )?;
            ids(i, "260 ids", &p.ids, 2)?;
            let mut s = format!("260 {:03} {:03}", p.first_round, p.last_round);
            for id in &p.ids {
                let _ = write!(s, " {id:>4}");
            }
            s
        }
        Record::Xxr(n) => {
            range(i, "XXR number of rounds", u64::from(*n), 1, 999)?;
            format!("XXR {n}")
        }
        Record::Xxc(opts) => {
            if opts.is_empty() {
                return Err(fail(i, "XXC", "needs at least one option"));
            }
            if opts.contains(&XxcOption::White1) && opts.contains(&XxcOption::Black1) {
                return Err(fail(i, "XXC", "white1 and black1 together"));
            }
            let v: Vec<&str> = opts.iter().map(|o| o.as_str()).collect();
            format!("XXC {}", v.join(" "))
        }
        Record::Xxa(x) => {
            range(i, "XXA start number", u64::from(x.player), 1, 9999)?;
            let mut s = format!("XXA {:>4}", x.player);
            for (k, v) in x.points.iter().enumerate() {
                if *v < Score::ZERO {
                    return Err(fail(
                        i,
                        format!("XXA round {} virtual points", k + 1),
                        "must not be negative",
                    ));
                }
                s.push(' ');
                s.push_str(&score4(i, "XXA virtual points", *v)?);
            }
            s
        }
        Record::Xxs(v) => {
            if v.is_empty() {
                return Err(fail(i, "XXS", "needs at least one CODE=VALUE"));
            }
            let v: Vec<String> = v
                .iter()
                .map(|e| format!("{}={}", e.code.as_str(), e.points))
                .collect();
            format!("XXS {}", v.join(" "))
        }
        Record::Xxz(v) => {
            ids(i, "XXZ ids", v, 1)?;
            id_list("XXZ", v)
        }
        Record::Xxp(v) => {
            ids(i, "XXP ids", v, 2)?;
            id_list("XXP", v)
        }
        Record::Bb(c, v) => format!("{} {:>4}", c.code(), v.to_string()),
        Record::Other(line) => {
            text_ok(i, "record", line, false, usize::MAX)?;
            let code: String = line.chars().chain(std::iter::repeat(' ')).take(3).collect();
            if line.is_empty() || code == "###" || is_modelled_code(&code) {
                return Err(fail(
                    i,
                    "record",
                    format!("{line:?} would not read back as an unknown record"),
                ));
            }
            line.clone()
        }
    })
}

fn id_list(code: &str, v: &[PlayerId]) -> String {
    let mut s = code.to_string();
    for id in v {
        let _ = write!(s, " {id}");
    }
    s
}

fn members(i: usize, what: &str, m: &[Option<PlayerId>], s: &mut String) -> W<()> {
    if m.last() == Some(&None) {
        return Err(fail(
            i,
            format!("{what} players"),
            "ends with an empty board",
        ));
    }
    for (k, id) in m.iter().enumerate() {
        if k > 0 {
            s.push(' ');
        }
        match id {
            Some(id) => {
                range(
                    i,
                    &format!("{what} player {}", k + 1),
                    u64::from(*id),
                    1,
                    9999,
                )?;
                let _ = write!(s, "{id:>4}");
            }
            None => s.push_str("    "),
        }
    }
    Ok(())
}

fn title_ok(i: usize, t: &TitleCode) -> W<()> {
    if let TitleCode::Other(s) = t {
        text_ok(i, "title", s, true, 3)?;
        let known = Title::ALL
            .iter()
            .any(|t| t.code() == s.to_ascii_uppercase());
        let legacy = ["g", "m", "f", "c", "wg", "wm", "wf", "wc"].contains(&s.as_str());
        if s.is_empty() || known || legacy {
            return Err(fail(
                i,
                "title",
                format!("{s:?} would read back as another title"),
            ));
        }
    }
    Ok(())
}

fn entry_ok(i: usize, r: usize, e: &RoundEntry) -> W<()> {
    let field = || format!("round {r}");
    if let Some(o) = e.opponent {
        range(i, &format!("round {r} opponent"), u64::from(o), 1, 9999)?;
    }
    let bad = if e.result.is_played() {
        e.opponent.is_none() || e.color.is_none()
    } else if e.result.has_opponent() {
        e.opponent.is_none() && e.color.is_some()
    } else {
        e.opponent.is_some() || e.color.is_some()
    };
    if bad {
        return Err(fail(
            i,
            field(),
            "opponent, colour and result do not fit together",
        ));
    }
    Ok(())
}

fn player_line(i: usize, p: &PlayerRecord) -> W<String> {
    range(i, "start number", u64::from(p.start_number), 1, 9999)?;
    if let Some(t) = &p.title {
        title_ok(i, t)?;
    }
    text_ok(i, "name", &p.name, true, 33)?;
    text_ok(i, "federation", &p.federation, true, 3)?;
    if let Some(r) = p.rating {
        range(i, "rating", u64::from(r), 0, 9999)?;
    }
    if let Some(id) = p.fide_id {
        range(i, "FIDE id", id, 0, 99_999_999_999)?;
    }
    if let Some(r) = p.rank {
        range(i, "rank", u64::from(r), 0, 9999)?;
    }
    let birth = match p.birth_date {
        Some(d) => {
            let t = d.to_string();
            if parse_birth_date(&t) != Some(d) {
                return Err(fail(i, "birth date", format!("{t} is not a valid date")));
            }
            t
        }
        None => String::new(),
    };
    let mut s = format!(
        "001 {:>4} {}{:>3} {:<33} {:>4} {:<3} {:>11} {:<10} {} {:>4}",
        p.start_number,
        match p.sex {
            None => ' ',
            Some(Sex::Male) => 'm',
            Some(Sex::Female) => 'w',
        },
        p.title.as_ref().map(|t| t.as_str()).unwrap_or(""),
        p.name,
        p.rating.map(|r| r.to_string()).unwrap_or_default(),
        p.federation,
        p.fide_id.map(|r| r.to_string()).unwrap_or_default(),
        birth,
        score4(i, "points", p.points)?,
        p.rank.map(|r| r.to_string()).unwrap_or_default(),
    );
    if p.rounds.last() == Some(&None) {
        return Err(fail(
            i,
            "rounds",
            "ends with a blank round block (it would not read back)",
        ));
    }
    for (k, e) in p.rounds.iter().enumerate() {
        s.push_str("  ");
        match e {
            None => s.push_str("        "),
            Some(e) => {
                entry_ok(i, k + 1, e)?;
                let _ = write!(
                    s,
                    "{} {} {}",
                    e.opponent
                        .map(|o| format!("{o:>4}"))
                        .unwrap_or_else(|| "0000".into()),
                    e.color.map(|c| c.trf_char()).unwrap_or('-'),
                    e.result.trf_char()
                );
            }
        }
    }
    Ok(finish(s))
}
