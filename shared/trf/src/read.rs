//! Line-by-line reading of records (syntax only; cross-record consistency is `check.rs`).
//!
//! Each record type is read at the columns TRF16 / TRF-2026 give it, and every separator column
//! that must be blank is checked: a shifted field is far more often a writer bug than a layout we
//! should guess at, and "column 96 should be blank" tells the user exactly what is wrong. Lists
//! whose spacing varies between writers (`XXP`, `XXZ`, `XXS`, the ids of `240`/`260`) are read as
//! blank-separated tokens instead.

use crate::ParseOptions;
use crate::dates::{self, BirthReading};
use crate::error::{ErrorKind, Location, TrfError, TrfWarning, WarningKind};
use crate::model::*;
use crate::text::Line;
use arbiter_core::{Color, PlayerId, ResultCode, RoundEntry, Score};
use std::collections::BTreeMap;

/// Where token fields came from, so consistency errors can point at the right columns.
#[derive(Debug, Default)]
pub(crate) struct SourceMap {
    /// Record index -> column span of each id of an `XXZ`, `XXP`, `240` or `260` record.
    pub id_spans: BTreeMap<usize, Vec<(usize, usize)>>,
}

type R<T> = Result<T, TrfError>;

/// TRF-2026 records we carry verbatim without modelling them.
const KNOWN_UNMODELLED: [&str; 4] = ["299", "801", "802", "DAT"];

pub(crate) fn read_records(
    lines: &[&str],
    opts: &ParseOptions,
    warnings: &mut Vec<TrfWarning>,
) -> R<(Vec<Record>, SourceMap)> {
    let mut records = Vec::with_capacity(lines.len());
    let mut map = SourceMap::default();
    let mut legacy_pab = Vec::new();
    for (i, text) in lines.iter().enumerate() {
        let line = Line::new(i + 1, text);
        let mut spans = Vec::new();
        let mut rounds = Vec::new();
        let rec = read_record(&line, opts, warnings, &mut spans, &mut rounds)?;
        if !spans.is_empty() {
            map.id_spans.insert(records.len(), spans);
        }
        legacy_pab.extend(rounds.into_iter().map(|r| (records.len(), r)));
        records.push(rec);
    }
    if opts.tolerates() {
        crate::legacy::normalise(&mut records, &legacy_pab, warnings);
    }
    Ok((records, map))
}

fn err(l: &Line, a: usize, b: usize, field: impl Into<String>, expected: &str) -> TrfError {
    TrfError::syntax(Location::span(l.no, a, b), field, expected, l.found(a, b))
}

fn misaligned(l: &Line, col: usize, field: impl Into<String>) -> TrfError {
    TrfError::new(
        ErrorKind::Misaligned,
        Location::span(l.no, col, col),
        field,
        format!(
            "expected a blank separator column, found {}: the fields of this line are not in their columns",
            l.found(col, col)
        ),
    )
}

fn blank(l: &Line, col: usize, field: &str) -> R<()> {
    if l.at(col) == ' ' {
        Ok(())
    } else {
        Err(misaligned(l, col, field))
    }
}

/// An unsigned integer: digits only, surrounding blanks allowed.
pub(crate) fn number(s: &str) -> Option<u64> {
    let t = s.trim();
    if t.is_empty() || t.len() > 19 || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

fn required_number(
    l: &Line,
    a: usize,
    b: usize,
    field: &str,
    expected: &str,
    min: u64,
    max: u64,
) -> R<u32> {
    match number(&l.cols(a, b)) {
        Some(n) if n >= min && n <= max => Ok(n as u32),
        _ => Err(err(l, a, b, field, expected)),
    }
}

fn optional_number(l: &Line, a: usize, b: usize, field: &str, expected: &str) -> R<Option<u64>> {
    let s = l.cols(a, b);
    if s.trim().is_empty() {
        return Ok(None);
    }
    number(&s)
        .map(Some)
        .ok_or_else(|| err(l, a, b, field, expected))
}

fn optional_score(l: &Line, a: usize, b: usize, field: &str) -> R<Option<Score>> {
    let s = l.cols(a, b);
    if s.trim().is_empty() {
        return Ok(None);
    }
    s.parse::<Score>()
        .map(Some)
        .map_err(|_| err(l, a, b, field, "points such as 1.5"))
}

fn read_record(
    l: &Line,
    opts: &ParseOptions,
    w: &mut Vec<TrfWarning>,
    spans: &mut Vec<(usize, usize)>,
    legacy_pab: &mut Vec<usize>,
) -> R<Record> {
    if l.len() == 0 {
        return Ok(Record::Blank);
    }
    let code = l.cols(1, 3);
    if code == "###" {
        return Ok(Record::Comment(l.rest(4)));
    }
    if is_modelled_code(&code) {
        blank(l, 4, "separator after the record code")?;
    }
    if let Some(tc) = TextCode::from_code(&code) {
        return Ok(Record::Text(TextRecord {
            code: tc,
            text: l.rest(5),
        }));
    }
    if let Some(bb) = BbCode::from_code(&code) {
        let (t, a, b) = single_token(l, 5, &format!("{code} points"), "points such as 1.0")?;
        let v = t
            .parse::<Score>()
            .map_err(|_| err(l, a, b, format!("{code} points"), "points such as 1.0"))?;
        return Ok(Record::Bb(bb, v));
    }
    Ok(match code.as_str() {
        "001" => Record::Player(read_player(l, opts, w, legacy_pab)?),
        "132" => Record::RoundDates(if opts.tolerates() {
            read_round_dates_tolerant(l, w)
        } else {
            read_round_dates(l)?
        }),
        "142" => Record::Rounds(rounds_token(l, "142 number of rounds")?),
        "152" => {
            let (t, a, b) = single_token(l, 5, "152 initial colour", "W or B")?;
            match t.to_ascii_uppercase().as_str() {
                "W" => Record::InitialColor(Color::White),
                "B" => Record::InitialColor(Color::Black),
                _ => return Err(err(l, a, b, "152 initial colour", "W or B")),
            }
        }
        "162" => Record::Scoring(read_162(l)?),
        "172" => {
            blank(l, 8, "172 federation")?;
            let method = l.rest(9).trim().to_string();
            if !["FIDE", "NRO", "FIDON", "NIDOF", "HBFN", "LBFN", "OTHER"]
                .contains(&method.as_str())
            {
                w.push(TrfWarning::new(
                    WarningKind::Unusual,
                    Some(Location::span(l.no, 9, 13)),
                    "172 ranking method",
                    format!("{method:?} is not one of FIDE, NRO, FIDON, NIDOF, HBFN, LBFN, OTHER"),
                ));
            }
            Record::NationalRating(NationalRating {
                federation: l.cols(5, 7).trim().to_string(),
                method,
            })
        }
        "013" => Record::Team013(if opts.tolerates() {
            // A line in its columns is read by them (a name may hold numbers); one that gives
            // no player that way, or cannot be read so, is read by its gaps when they give
            // one reading.
            match (read_013(l), realign_013(l)) {
                (Ok(t), _) if !t.members.is_empty() => t,
                (Ok(t), Some(r)) if t == r => t,
                (_, Some(r)) => {
                    w.push(TrfWarning::new(
                        WarningKind::Realigned,
                        Some(Location::span(l.no, 5, l.len())),
                        "013 team",
                        format!(
                            "the fields are not in their columns; read as the team {:?} with \
                             players {}",
                            r.name,
                            r.members
                                .iter()
                                .map(|m| m.map_or("0000".to_string(), |n| n.to_string()))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                    ));
                    r
                }
                (t, None) => t?,
            }
        } else {
            read_013(l)?
        }),
        "310" => Record::Team310(read_310(l)?),
        "300" => Record::TeamOrder300(read_300(l)?),
        "320" => Record::TeamByes320(read_320(l)?),
        "330" => Record::TeamForfeit330(read_330(l)?),
        "240" => Record::Byes(read_240(l, spans)?),
        "250" => Record::Acceleration(read_250(l)?),
        "260" => Record::Prohibited(read_260(l, spans)?),
        "XXR" => Record::Xxr(rounds_token(l, "XXR number of rounds")?),
        "XXC" => Record::Xxc(read_xxc(l)?),
        "XXA" => Record::Xxa(read_xxa(l)?),
        "XXS" => Record::Xxs(read_xxs(l)?),
        "XXZ" => Record::Xxz(id_tokens(l, 5, "XXZ", 1, spans)?),
        "XXP" => Record::Xxp(id_tokens(l, 5, "XXP", 2, spans)?),
        _ => {
            let text = l.rest(1);
            let nrs = code.len() == 3
                && code.chars().all(|c| c.is_ascii_uppercase())
                && l.at(4) == ' '
                && number(&l.cols(5, 8)).is_some();
            if !(KNOWN_UNMODELLED.contains(&code.as_str()) || code.starts_with("XX") || nrs) {
                w.push(TrfWarning::new(
                    WarningKind::UnknownRecord,
                    Some(Location::span(l.no, 1, 3.min(l.len()))),
                    "record code",
                    format!("unknown record {code:?}, kept as it is"),
                ));
            }
            Record::Other(text)
        }
    })
}

/// Record codes read into a typed [`Record`] (everything else is [`Record::Other`]).
pub(crate) fn is_modelled_code(code: &str) -> bool {
    code == "001"
        || TextCode::from_code(code).is_some()
        || matches!(
            code,
            "132"
                | "142"
                | "152"
                | "162"
                | "172"
                | "013"
                | "310"
                | "300"
                | "320"
                | "330"
                | "240"
                | "250"
                | "260"
                | "XXR"
                | "XXC"
                | "XXA"
                | "XXS"
                | "XXZ"
                | "XXP"
        )
        || BbCode::from_code(code).is_some()
}

/// Exactly one blank-separated token from column `from` on.
fn single_token(l: &Line, from: usize, field: &str, expected: &str) -> R<(String, usize, usize)> {
    let toks = l.tokens(from);
    match toks.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(TrfError::syntax(
            Location::span(l.no, from, from),
            field,
            expected,
            l.found(from, from),
        )),
        [first, .., last] => Err(TrfError::syntax(
            Location::span(l.no, first.1, last.2),
            field,
            expected,
            l.found(first.1, last.2),
        )),
    }
}

fn rounds_token(l: &Line, field: &str) -> R<u32> {
    let expected = "a number of rounds from 1 to 999";
    let (t, a, b) = single_token(l, 5, field, expected)?;
    match number(&t) {
        Some(n @ 1..=999) => Ok(n as u32),
        _ => Err(err(l, a, b, field, expected)),
    }
}

fn id_tokens(
    l: &Line,
    from: usize,
    what: &str,
    min: usize,
    spans: &mut Vec<(usize, usize)>,
) -> R<Vec<PlayerId>> {
    let toks = l.tokens(from);
    let mut ids = Vec::with_capacity(toks.len());
    for (k, (t, a, b)) in toks.iter().enumerate() {
        match number(t) {
            Some(n @ 1..=9999) => {
                ids.push(n as PlayerId);
                spans.push((*a, *b));
            }
            _ => {
                return Err(err(
                    l,
                    *a,
                    *b,
                    format!("{what} id {}", k + 1),
                    "a start number from 1 to 9999",
                ));
            }
        }
    }
    if ids.len() < min {
        let col = toks.last().map(|t| t.2 + 2).unwrap_or(from);
        let expected = if min == 1 {
            "a start number"
        } else {
            "at least two start numbers"
        };
        return Err(TrfError::syntax(
            Location::span(l.no, col, col),
            format!("{what} ids"),
            expected,
            l.found(col, col),
        ));
    }
    Ok(ids)
}

fn days_in_month(year: u32, month: u8) -> u8 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400) => {
            29
        }
        2 => 28,
        _ => 0,
    }
}

fn digits(s: &str) -> Option<u32> {
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        s.parse().ok()
    } else {
        None
    }
}

/// `YYYY/MM/DD` (month and day may be `00` together, or day alone `00`) or `YYYY`.
pub fn parse_birth_date(s: &str) -> Option<BirthDate> {
    let s = s.trim();
    if s.len() == 4 {
        return digits(s).map(|y| BirthDate::Year(y as u16));
    }
    let parts: Vec<&str> = s.split('/').collect();
    let [y, m, d] = parts.as_slice() else {
        return None;
    };
    if y.len() != 4 || m.len() != 2 || d.len() != 2 {
        return None;
    }
    let (year, month, day) = (digits(y)?, digits(m)? as u8, digits(d)? as u8);
    let ok = match (month, day) {
        (0, 0) => true,
        (0, _) => false,
        (1..=12, 0) => true,
        (1..=12, d) => d <= days_in_month(year, month),
        _ => false,
    };
    ok.then_some(BirthDate::Full {
        year: year as u16,
        month,
        day,
    })
}

/// `YY/MM/DD`.
pub(crate) fn parse_round_date(s: &str) -> Option<RoundDate> {
    let parts: Vec<&str> = s.trim().split('/').collect();
    let [y, m, d] = parts.as_slice() else {
        return None;
    };
    if y.len() != 2 || m.len() != 2 || d.len() != 2 {
        return None;
    }
    let (yy, month, day) = (digits(y)? as u8, digits(m)? as u8, digits(d)? as u8);
    let ok =
        (1..=12).contains(&month) && day >= 1 && day <= days_in_month(2000 + u32::from(yy), month);
    ok.then_some(RoundDate { yy, month, day })
}

fn read_round_dates(l: &Line) -> R<RoundDates> {
    let label = l.cols(5, 91).trim().to_string();
    let mut dates = Vec::new();
    let mut s = 92;
    while s <= l.len() {
        let field = format!("132 round {} date", dates.len() + 1);
        let text = l.cols(s, s + 7);
        if text.trim().is_empty() {
            dates.push(None);
        } else {
            let d = parse_round_date(&text)
                .ok_or_else(|| err(l, s, s + 7, field.as_str(), "a date YY/MM/DD"))?;
            dates.push(Some(d));
        }
        blank(l, s + 8, &field)?;
        blank(l, s + 9, &field)?;
        s += 10;
    }
    while dates.last() == Some(&None) {
        dates.pop();
    }
    Ok(RoundDates { label, dates })
}

/// `132` as older programs write it: each date in the layout the whole line fits best
/// (see [`dates`]), four-digit years and shifted columns read as blank-separated tokens,
/// unreadable dates dropped. Never an error: nothing pairs or ranks by round dates.
fn read_round_dates_tolerant(l: &Line, w: &mut Vec<TrfWarning>) -> RoundDates {
    if let Ok(d) = read_round_dates(l) {
        return d;
    }
    let label = l.cols(5, 91).trim().to_string();
    // Fixed 10-column slots when every non-blank slot has its separators blank, else tokens.
    let mut fields: Vec<Option<(String, usize, usize)>> = Vec::new();
    let mut s = 92;
    let mut fixed = true;
    while s <= l.len() {
        if l.at(s + 8) != ' ' || l.at(s + 9) != ' ' {
            fixed = false;
            break;
        }
        let t = l.cols(s, s + 7).trim().to_string();
        fields.push((!t.is_empty()).then_some((t, s, s + 7)));
        s += 10;
    }
    if !fixed {
        fields = l.tokens(92).into_iter().map(Some).collect();
        w.push(TrfWarning::new(
            WarningKind::Realigned,
            Some(Location::span(l.no, 92, l.len().max(92))),
            "132 round dates",
            "the dates are not in their 10-column slots; read one date per blank-separated word, in round order",
        ));
    }
    // One layout for the whole line: the first order (by the separator's convention) under
    // which every date is possible and the dates do not go back in time.
    let texts: Vec<&str> = fields.iter().flatten().map(|f| f.0.as_str()).collect();
    let sep = texts
        .iter()
        .find_map(|t| dates::separator(t))
        .unwrap_or('/');
    let orders = dates::orders_for(sep);
    let all = |o: dates::Order| {
        texts
            .iter()
            .map(|t| dates::round_date_in(t, o))
            .collect::<Option<Vec<_>>>()
    };
    let chosen = orders
        .iter()
        .copied()
        .find(|&o| all(o).is_some_and(|v| v.windows(2).all(|p| date_key(p[0]) <= date_key(p[1]))))
        .or_else(|| orders.iter().copied().find(|&o| all(o).is_some()));
    let mut out = Vec::new();
    for (k, f) in fields.iter().enumerate() {
        let Some((t, a, b)) = f else {
            out.push(None);
            continue;
        };
        let field = format!("132 round {} date", k + 1);
        let loc = Some(Location::span(l.no, *a, *b));
        // Per date when no single layout fits them all.
        let order = chosen.or_else(|| {
            orders
                .iter()
                .copied()
                .find(|&o| dates::round_date_in(t, o).is_some())
        });
        match order.and_then(|o| dates::round_date_in(t, o).map(|d| (o, d))) {
            Some((o, d)) => {
                if Some(d) != parse_round_date(t) {
                    let others: Vec<String> = orders
                        .iter()
                        .filter(|&&x| x != o)
                        .filter_map(|&x| {
                            dates::round_date_in(t, x)
                                .filter(|&e| e != d)
                                .map(|e| format!("{} as {}", e, dates::order_name(t, x)))
                        })
                        .collect();
                    let why = if others.is_empty() {
                        "the only possible reading".to_string()
                    } else {
                        format!("also possible: {}", others.join(", "))
                    };
                    w.push(TrfWarning::new(
                        WarningKind::Legacy,
                        loc,
                        field,
                        format!(
                            "{t:?} is not YY/MM/DD; read as {d} (assumed {}; {why})",
                            dates::order_name(t, o)
                        ),
                    ));
                }
                out.push(Some(d));
            }
            None => {
                w.push(TrfWarning::new(
                    WarningKind::Unusual,
                    loc,
                    field,
                    format!("{t:?} is not a date in any layout known; ignored (read as blank)"),
                ));
                out.push(None);
            }
        }
    }
    while out.last() == Some(&None) {
        out.pop();
    }
    RoundDates { label, dates: out }
}

/// Sort key of a round date; two-digit years are this century's (TRF gives no other).
fn date_key(d: RoundDate) -> (u8, u8, u8) {
    (d.yy, d.month, d.day)
}

fn read_162(l: &Line) -> R<Vec<ScoringEntry>> {
    blank(l, 5, "162 scoring")?;
    let mut out = Vec::new();
    let mut g = 6;
    while g <= l.len() {
        let k = out.len() + 1;
        let sym = ScoringSymbol::from_letter(l.at(g).to_ascii_uppercase()).ok_or_else(|| {
            err(
                l,
                g,
                g,
                format!("162 result symbol {k}"),
                "one of W D L A P X",
            )
        })?;
        let points = l.cols(g + 1, g + 4).parse::<Score>().map_err(|_| {
            err(
                l,
                g + 1,
                g + 4,
                format!("162 points for {}", sym.letter()),
                "points such as 1.0",
            )
        })?;
        for c in g + 5..g + 9 {
            blank(l, c, &format!("162 points for {}", sym.letter()))?;
        }
        out.push(ScoringEntry {
            symbol: sym,
            points,
        });
        g += 9;
    }
    if out.is_empty() {
        return Err(err(
            l,
            6,
            6,
            "162 result symbol 1",
            "a result symbol (W D L A P X) and its points",
        ));
    }
    Ok(out)
}

fn members(l: &Line, first: usize, prefix: &str) -> R<Vec<Option<PlayerId>>> {
    let mut out = Vec::new();
    let mut c = first;
    while c <= l.len() {
        let field = format!("{prefix} player {}", out.len() + 1);
        if c > first {
            blank(l, c - 1, &field)?;
        }
        let s = l.cols(c, c + 3);
        out.push(if s.trim().is_empty() {
            None
        } else {
            match number(&s) {
                Some(0) => None,
                Some(n @ 1..=9999) => Some(n as PlayerId),
                _ => return Err(err(l, c, c + 3, field, "a start number or 0000")),
            }
        });
        c += 5;
    }
    while out.last() == Some(&None) {
        out.pop();
    }
    Ok(out)
}

fn read_013(l: &Line) -> R<Team013> {
    Ok(Team013 {
        name: l.cols(5, 36).trim().to_string(),
        members: members(l, 37, "013")?,
    })
}

/// A `013` line whose fields are not in their columns (a program that wrote the name to its
/// own length, or the numbers one blank apart), read when only one reading exists: the name
/// ends at the first gap of two or more blanks after which the line holds start numbers only.
/// With single blanks between name and numbers no reading is taken ("Team 2 1 3" could be the
/// team "Team 2" or "Team"): `None`, and the line is refused as before.
fn realign_013(l: &Line) -> Option<Team013> {
    let text = l.rest(5);
    let numbers_only = |t: &str| {
        let mut tokens = t.split_whitespace().peekable();
        tokens.peek().is_some()
            && tokens.all(|t| t.len() <= 4 && t.bytes().all(|b| b.is_ascii_digit()))
    };
    let at = text
        .match_indices("  ")
        .map(|(i, _)| i)
        .find(|&i| !text[..i].trim().is_empty() && numbers_only(&text[i..]))?;
    let mut members: Vec<Option<PlayerId>> = text[at..]
        .split_whitespace()
        .map(|t| {
            t.parse::<u32>()
                .ok()
                .filter(|&n| n > 0)
                .map(|n| n as PlayerId)
        })
        .collect();
    while members.last() == Some(&None) {
        members.pop();
    }
    Some(Team013 {
        name: text[..at].trim().to_string(),
        members,
    })
}

fn read_310(l: &Line) -> R<Team310> {
    let number = required_number(
        l,
        5,
        7,
        "310 team number",
        "a team number from 1 to 999",
        1,
        999,
    )?;
    for (c, f) in [
        (8, "310 team number"),
        (41, "310 team name"),
        (47, "310 nickname"),
        (54, "310 strength"),
    ] {
        blank(l, c, f)?;
    }
    for (c, f) in [
        (61, "310 match points"),
        (68, "310 game points"),
        (72, "310 rank"),
        (73, "310 rank"),
    ] {
        blank(l, c, f)?;
    }
    let strength = optional_number(l, 48, 53, "310 strength", "a number or blank")?;
    let rank = optional_number(l, 69, 71, "310 rank", "a rank or blank")?;
    Ok(Team310 {
        number,
        name: l.cols(9, 40).trim().to_string(),
        nickname: l.cols(42, 46).trim().to_string(),
        strength: strength.map(|v| v.min(u64::from(u32::MAX)) as u32),
        match_points: optional_score(l, 55, 60, "310 match points")?,
        game_points: optional_score(l, 62, 67, "310 game points")?,
        rank: rank.map(|v| v.min(999) as u32),
        members: members(l, 74, "310")?,
    })
}

/// The team number at columns `a..=a+2`: 1..=999, or `None` for `000` or blank when `none_ok`.
fn team_number(l: &Line, a: usize, field: &str, none_ok: bool) -> R<Option<u32>> {
    let s = l.cols(a, a + 2);
    let blank_or_zero = s.trim().is_empty() || number(&s) == Some(0);
    if none_ok && blank_or_zero {
        return Ok(None);
    }
    match number(&s) {
        Some(n @ 1..=999) => Ok(Some(n as u32)),
        _ if none_ok => Err(err(l, a, a + 2, field, "a team number or 000")),
        _ => Err(err(l, a, a + 2, field, "a team number from 1 to 999")),
    }
}

fn required_team(l: &Line, a: usize, field: &str) -> R<u32> {
    Ok(team_number(l, a, field, false)?.unwrap_or_default())
}

fn other_team(l: &Line, a: usize, field: &str, other: u32, what: &str) -> R<u32> {
    let t = required_team(l, a, field)?;
    if t == other {
        return Err(err(
            l,
            a,
            a + 2,
            field,
            &format!("a team other than the {what} ({other})"),
        ));
    }
    Ok(t)
}

fn read_300(l: &Line) -> R<TeamOrder300> {
    let round = required_number(l, 5, 7, "300 round", "a round number from 1 to 999", 1, 999)?;
    blank(l, 8, "300 round")?;
    let team = required_team(l, 9, "300 team")?;
    blank(l, 12, "300 team")?;
    let opponent = other_team(l, 13, "300 opponent team", team, "team in columns 9-11")?;
    blank(l, 16, "300 opponent team")?;
    if l.len() < 17 {
        return Err(err(l, 17, 20, "300 board 1", "a start number or 0000"));
    }
    let mut boards = Vec::new();
    let mut c = 17;
    // `+ 1`: a non-blank last column right after a board is a shifted board, not the end.
    while c <= l.len() + 1 {
        let field = format!("300 board {}", boards.len() + 1);
        if c > 17 {
            blank(l, c - 1, &field)?;
        }
        let s = l.cols(c, c + 3);
        boards.push(match number(&s) {
            Some(n @ 1..=9999) => Some(n as PlayerId),
            Some(0) => None,
            _ if s.trim().is_empty() => None,
            _ => return Err(err(l, c, c + 3, field, "a start number or 0000")),
        });
        c += 5;
    }
    Ok(TeamOrder300 {
        round,
        team,
        opponent,
        boards,
    })
}

fn read_320(l: &Line) -> R<TeamByes320> {
    let points = |a: usize, field: &str| -> R<Score> {
        let v = l
            .cols(a, a + 3)
            .parse::<Score>()
            .map_err(|_| err(l, a, a + 3, field, "points such as 2.0"))?;
        if v < Score::ZERO {
            return Err(err(l, a, a + 3, field, "non-negative points"));
        }
        blank(l, a + 4, field)?;
        Ok(v)
    };
    let match_points = points(5, "320 PAB match points")?;
    let game_points = points(10, "320 PAB game points")?;
    let mut teams = Vec::new();
    let mut c = 15;
    while c <= l.len() + 1 {
        let field = format!("320 round {} team", teams.len() + 1);
        if c > 15 {
            blank(l, c - 1, &field)?;
        }
        teams.push(team_number(l, c, &field, true)?);
        c += 4;
    }
    Ok(TeamByes320 {
        match_points,
        game_points,
        teams,
    })
}

fn read_330(l: &Line) -> R<TeamForfeit330> {
    let kind = TeamForfeitKind::from_code(&l.cols(5, 6))
        .ok_or_else(|| err(l, 5, 6, "330 forfeit type", "+-, -+ or --"))?;
    blank(l, 7, "330 forfeit type")?;
    let round = required_number(
        l,
        8,
        10,
        "330 round",
        "a round number from 1 to 999",
        1,
        999,
    )?;
    blank(l, 11, "330 round")?;
    let white = required_team(l, 12, "330 white team")?;
    blank(l, 15, "330 white team")?;
    let black = other_team(l, 16, "330 black team", white, "white team")?;
    if l.len() > 18 {
        return Err(err(
            l,
            19,
            l.len(),
            "330 end of record",
            "nothing after column 18",
        ));
    }
    Ok(TeamForfeit330 {
        kind,
        round,
        white,
        black,
    })
}

fn read_240(l: &Line, spans: &mut Vec<(usize, usize)>) -> R<ByeRecord> {
    let kind =
        ByeKind::from_letter(l.at(5)).ok_or_else(|| err(l, 5, 5, "240 bye type", "F, H or Z"))?;
    blank(l, 6, "240 bye type")?;
    let round = required_number(l, 7, 9, "240 round", "a round number from 1 to 999", 1, 999)?;
    blank(l, 10, "240 round")?;
    let ids = id_tokens(l, 11, "240", 1, spans)?;
    Ok(ByeRecord { kind, round, ids })
}

fn read_250(l: &Line) -> R<AccelerationRecord> {
    let match_points = optional_score(l, 5, 8, "250 match points")?;
    blank(l, 9, "250 match points")?;
    let game_points = optional_score(l, 10, 13, "250 game points")?;
    blank(l, 14, "250 game points")?;
    let round = "a round number from 1 to 999";
    let first_round = required_number(l, 15, 17, "250 first round", round, 1, 999)?;
    blank(l, 18, "250 first round")?;
    let last_round = required_number(l, 19, 21, "250 last round", round, 1, 999)?;
    blank(l, 22, "250 last round")?;
    let id = "a start number from 1 to 9999";
    let first_id = required_number(l, 23, 26, "250 first id", id, 1, 9999)?;
    blank(l, 27, "250 first id")?;
    let last_id = required_number(l, 28, 31, "250 last id", id, 1, 9999)?;
    if l.len() > 31 {
        return Err(err(
            l,
            32,
            l.len(),
            "250 end of record",
            "nothing after column 31",
        ));
    }
    if last_round < first_round {
        return Err(err(
            l,
            19,
            21,
            "250 last round",
            &format!("a round not before the first round ({first_round})"),
        ));
    }
    if last_id < first_id {
        return Err(err(
            l,
            28,
            31,
            "250 last id",
            &format!("an id not below the first id ({first_id})"),
        ));
    }
    match (match_points, game_points) {
        (None, None) => {
            return Err(err(
                l,
                10,
                13,
                "250 game points",
                "fictitious points such as 1.0",
            ));
        }
        (None, Some(Score::ZERO)) => {
            return Err(err(
                l,
                10,
                13,
                "250 game points",
                "non-zero fictitious points (individual event)",
            ));
        }
        _ => {}
    }
    for (v, a, b, f) in [
        (match_points, 5, 8, "250 match points"),
        (game_points, 10, 13, "250 game points"),
    ] {
        if matches!(v, Some(s) if s < Score::ZERO) {
            return Err(err(l, a, b, f, "non-negative fictitious points"));
        }
    }
    Ok(AccelerationRecord {
        match_points,
        game_points,
        first_round,
        last_round,
        first_id,
        last_id,
    })
}

fn read_260(l: &Line, spans: &mut Vec<(usize, usize)>) -> R<ProhibitedRecord> {
    let round = "a round number from 1 to 999";
    let first_round = required_number(l, 5, 7, "260 first round", round, 1, 999)?;
    blank(l, 8, "260 first round")?;
    let last_round = required_number(l, 9, 11, "260 last round", round, 1, 999)?;
    blank(l, 12, "260 last round")?;
    if last_round < first_round {
        return Err(err(
            l,
            9,
            11,
            "260 last round",
            &format!("a round not before the first round ({first_round})"),
        ));
    }
    let ids = id_tokens(l, 13, "260", 2, spans)?;
    Ok(ProhibitedRecord {
        first_round,
        last_round,
        ids,
    })
}

fn read_xxc(l: &Line) -> R<Vec<XxcOption>> {
    let toks = l.tokens(5);
    let mut out = Vec::new();
    for (k, (t, a, b)) in toks.iter().enumerate() {
        let o = match t.to_ascii_lowercase().as_str() {
            "rank" => XxcOption::Rank,
            "white1" => XxcOption::White1,
            "black1" => XxcOption::Black1,
            _ => {
                return Err(err(
                    l,
                    *a,
                    *b,
                    format!("XXC option {}", k + 1),
                    "rank, white1 or black1",
                ));
            }
        };
        let clash = match o {
            XxcOption::White1 => out.contains(&XxcOption::Black1),
            XxcOption::Black1 => out.contains(&XxcOption::White1),
            XxcOption::Rank => false,
        };
        if clash {
            return Err(err(
                l,
                *a,
                *b,
                format!("XXC option {}", k + 1),
                "only one of white1 and black1",
            ));
        }
        out.push(o);
    }
    if out.is_empty() {
        return Err(err(l, 5, 5, "XXC option 1", "rank, white1 or black1"));
    }
    Ok(out)
}

fn read_xxa(l: &Line) -> R<XxaRecord> {
    let player = required_number(
        l,
        5,
        8,
        "XXA start number",
        "a start number from 1 to 9999",
        1,
        9999,
    )?;
    let mut points = Vec::new();
    let mut c = 10;
    while c <= l.len() {
        let field = format!("XXA round {} virtual points", points.len() + 1);
        blank(l, c - 1, &field)?;
        let v = l
            .cols(c, c + 3)
            .parse::<Score>()
            .map_err(|_| err(l, c, c + 3, field.as_str(), "virtual points such as 1.0"))?;
        if v < Score::ZERO {
            return Err(err(l, c, c + 3, field, "non-negative virtual points"));
        }
        points.push(v);
        c += 5;
    }
    Ok(XxaRecord { player, points })
}

fn read_xxs(l: &Line) -> R<Vec<XxsEntry>> {
    let expected = "CODE=VALUE with CODE one of WW BW WD BD WL BL ZPB HPB FPB PAB FW FL W D";
    let toks = l.tokens(5);
    let mut out = Vec::new();
    for (k, (t, a, b)) in toks.iter().enumerate() {
        let field = format!("XXS entry {}", k + 1);
        let (code, value) = t
            .split_once('=')
            .ok_or_else(|| err(l, *a, *b, field.as_str(), expected))?;
        let code = XxsCode::parse_code(&code.to_ascii_uppercase())
            .ok_or_else(|| err(l, *a, *b, field.as_str(), expected))?;
        let points = value
            .parse::<Score>()
            .map_err(|_| err(l, *a, *b, field.as_str(), "a value such as W=1.0"))?;
        out.push(XxsEntry { code, points });
    }
    if out.is_empty() {
        return Err(err(l, 5, 5, "XXS entry 1", expected));
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// 001

fn read_player(
    l: &Line,
    opts: &ParseOptions,
    w: &mut Vec<TrfWarning>,
    legacy_pab: &mut Vec<usize>,
) -> R<PlayerRecord> {
    let mut local = Vec::new();
    let mut pabs = Vec::new();
    let first = read_player_fixed(l, opts, &mut local).and_then(|mut p| {
        p.rounds = read_rounds_fixed(l, opts, &mut local, &mut pabs)?;
        Ok(p)
    });
    let e = match first {
        Ok(p) => {
            w.append(&mut local);
            legacy_pab.append(&mut pabs);
            return Ok(p);
        }
        Err(e) => e,
    };
    if !opts.lenient || !matches!(e.kind, ErrorKind::Misaligned | ErrorKind::Syntax) {
        return Err(e);
    }
    // A writer that counted bytes shifts everything after a multi-byte name.
    if !l.is_ascii() {
        let mut local = Vec::new();
        let bl = l.byte_columns();
        let mut pabs = Vec::new();
        if let Ok(mut p) = read_player_fixed(&bl, opts, &mut local)
            && let Ok(r) = read_rounds_fixed(&bl, opts, &mut local, &mut pabs)
        {
            p.rounds = r;
            w.append(&mut local);
            legacy_pab.append(&mut pabs);
            w.push(TrfWarning::new(
                WarningKind::Realigned,
                Some(Location::line(l.no)),
                "001 record",
                "columns were counted in bytes by the writer; read with that layout",
            ));
            return Ok(p);
        }
    }
    // Fixed part fine, round area shifted: read the round area as (opponent colour result) groups.
    let mut local = Vec::new();
    let mut pabs = Vec::new();
    if let Ok(mut p) = read_player_fixed(l, opts, &mut local)
        && let Some(r) = read_rounds_tokens(l, opts, &mut local, &mut pabs)
    {
        p.rounds = r;
        w.append(&mut local);
        legacy_pab.append(&mut pabs);
        w.push(TrfWarning::new(
                WarningKind::Realigned,
                Some(Location::line(l.no)),
                "001 round results",
                "round blocks are not in their columns; read them as groups of opponent, colour and result",
            ));
        return Ok(p);
    }
    Err(e)
}

fn read_player_fixed(l: &Line, opts: &ParseOptions, w: &mut Vec<TrfWarning>) -> R<PlayerRecord> {
    let start_number = required_number(
        l,
        5,
        8,
        "start number",
        "a start number from 1 to 9999",
        1,
        9999,
    )?;
    blank(l, 9, "start number")?;
    let sex = match l.at(10) {
        ' ' => None,
        'm' | 'M' => Some(Sex::Male),
        'w' | 'W' => Some(Sex::Female),
        'f' | 'F' => {
            w.push(TrfWarning::new(
                WarningKind::Legacy,
                Some(Location::span(l.no, 10, 10)),
                "sex",
                "'f' read as 'w' (female)",
            ));
            Some(Sex::Female)
        }
        c if opts.tolerates() => {
            w.push(TrfWarning::new(
                WarningKind::Unusual,
                Some(Location::span(l.no, 10, 10)),
                "sex",
                format!("{c:?} is not m, w or blank; ignored (read as blank)"),
            ));
            None
        }
        _ => return Err(err(l, 10, 10, "sex", "m, w or blank")),
    };
    let title = read_title(l, w);
    blank(l, 14, "title")?;
    let name = l.cols(15, 47).trim().to_string();
    blank(l, 48, "name")?;
    let rating =
        optional_number(l, 49, 52, "rating", "a rating (digits) or blank")?.map(|r| r as u16);
    blank(l, 53, "rating")?;
    let federation = l.cols(54, 56).trim().to_string();
    blank(l, 57, "federation")?;
    let fide_id = optional_number(l, 58, 68, "FIDE id", "a FIDE id (digits) or blank")
        .or_else(|e| dropped(opts, w, e))?;
    blank(l, 69, "FIDE id")?;
    let bd = l.cols(70, 79);
    let birth_date = if bd.trim().is_empty() {
        None
    } else if let Some(d) = parse_birth_date(&bd) {
        Some(d)
    } else {
        let e = err(
            l,
            70,
            79,
            "birth date",
            "a date YYYY/MM/DD (or the year YYYY)",
        );
        if !opts.tolerates() {
            return Err(e);
        }
        let t = bd.trim();
        let loc = Some(Location::span(l.no, 70, 79));
        match dates::birth_date_tolerant(t) {
            BirthReading::Date(d, layout) => {
                w.push(TrfWarning::new(
                    WarningKind::Legacy,
                    loc,
                    "birth date",
                    format!("{t:?} is not YYYY/MM/DD; read as {d} (assumed {layout})"),
                ));
                Some(d)
            }
            BirthReading::Placeholder => {
                w.push(TrfWarning::new(
                    WarningKind::Legacy,
                    loc,
                    "birth date",
                    format!("{t:?} is a placeholder without digits; read as blank (no birth date)"),
                ));
                None
            }
            BirthReading::Unreadable => {
                dropped::<()>(opts, w, e)?;
                None
            }
        }
    };
    blank(l, 80, "birth date")?;
    let pts = l.cols(81, 84);
    let points = if pts.trim().is_empty() && opts.lenient {
        w.push(TrfWarning::new(
            WarningKind::Unusual,
            Some(Location::span(l.no, 81, 84)),
            "points",
            "blank points read as 0.0",
        ));
        Score::ZERO
    } else {
        pts.parse::<Score>()
            .map_err(|_| err(l, 81, 84, "points", "the points, e.g. 4.5"))?
    };
    blank(l, 85, "points")?;
    let rank = optional_number(l, 86, 89, "rank", "a rank (digits) or blank")
        .or_else(|e| dropped(opts, w, e))?
        .map(|r| r as u32);
    Ok(PlayerRecord {
        start_number,
        sex,
        title,
        name,
        rating,
        federation,
        fide_id,
        birth_date,
        points,
        rank,
        rounds: Vec::new(),
    })
}

/// Tolerant reading of a field nothing pairs or ranks by: the syntax error becomes a warning
/// and the field is read as blank.
fn dropped<T>(opts: &ParseOptions, w: &mut Vec<TrfWarning>, e: TrfError) -> R<Option<T>> {
    if !opts.tolerates() {
        return Err(e);
    }
    w.push(TrfWarning::new(
        WarningKind::Unusual,
        Some(e.location),
        e.field,
        format!("{}; ignored (read as blank)", e.message),
    ));
    Ok(None)
}

fn read_title(l: &Line, w: &mut Vec<TrfWarning>) -> Option<TitleCode> {
    let t = l.cols(11, 13).trim().to_string();
    if t.is_empty() {
        return None;
    }
    let legacy = match t.as_str() {
        "g" => Some(Title::GM),
        "m" => Some(Title::IM),
        "f" => Some(Title::FM),
        "c" => Some(Title::CM),
        "wg" => Some(Title::WGM),
        "wm" => Some(Title::WIM),
        "wf" => Some(Title::WFM),
        "wc" => Some(Title::WCM),
        _ => None,
    };
    if let Some(title) = legacy {
        w.push(TrfWarning::new(
            WarningKind::Legacy,
            Some(Location::span(l.no, 11, 13)),
            "title",
            format!("legacy title code {t:?} read as {}", title.code()),
        ));
        return Some(TitleCode::Fide(title));
    }
    let upper = t.to_ascii_uppercase();
    if let Some(title) = Title::ALL.into_iter().find(|x| x.code() == upper) {
        return Some(TitleCode::Fide(title));
    }
    w.push(TrfWarning::new(
        WarningKind::Unusual,
        Some(Location::span(l.no, 11, 13)),
        "title",
        format!("{t:?} is not a FIDE title code; kept as written"),
    ));
    Some(TitleCode::Other(t))
}

fn read_rounds_fixed(
    l: &Line,
    opts: &ParseOptions,
    w: &mut Vec<TrfWarning>,
    legacy_pab: &mut Vec<usize>,
) -> R<Vec<Option<RoundEntry>>> {
    blank(l, 90, "rank")?;
    blank(l, 91, "rank")?;
    let mut rounds = Vec::new();
    let mut r: usize = 1;
    loop {
        let s = 92 + 10 * (r - 1);
        if s > l.len() {
            break;
        }
        let field = format!("round {r}");
        for c in [s + 4, s + 6, s + 8, s + 9] {
            blank(l, c, &field)?;
        }
        let opp = l.cols(s, s + 3);
        let opponent = if opp.trim().is_empty() {
            None
        } else {
            match number(&opp) {
                Some(0) => None,
                Some(n) => Some(n as PlayerId),
                None => {
                    return Err(err(
                        l,
                        s,
                        s + 3,
                        format!("round {r} opponent"),
                        "a start number or 0000",
                    ));
                }
            }
        };
        let (cc, rc) = (l.at(s + 5), l.at(s + 7));
        let color = Color::from_trf(cc)
            .map_err(|_| err(l, s + 5, s + 5, format!("round {r} colour"), "w, b or -"))?;
        let result = if rc == ' ' {
            None
        } else {
            Some(ResultCode::from_trf(rc).ok_or_else(|| {
                err(
                    l,
                    s + 7,
                    s + 7,
                    format!("round {r} result"),
                    "a result code (1 = 0 W D L + - H F U Z)",
                )
            })?)
        };
        if opp.trim().is_empty() && cc == ' ' && result.is_none() {
            rounds.push(None);
        } else {
            let legacy = if opts.tolerates() && opponent.is_none() {
                crate::legacy::bye_code(l, r, s, result, w)
            } else {
                None
            };
            if let Some(e) = legacy {
                if e.result == ResultCode::PairingBye {
                    legacy_pab.push(r);
                }
                rounds.push(Some(e));
            } else {
                rounds.push(Some(entry(l, r, s, opponent, color, result, w)?));
            }
        }
        r += 1;
    }
    while rounds.last() == Some(&None) {
        rounds.pop();
    }
    Ok(rounds)
}

/// Checks that opponent, colour and result of one block fit together.
fn entry(
    l: &Line,
    r: usize,
    s: usize,
    opponent: Option<PlayerId>,
    color: Option<Color>,
    result: Option<ResultCode>,
    w: &mut Vec<TrfWarning>,
) -> R<RoundEntry> {
    let Some(result) = result else {
        if let Some(o) = opponent {
            return Err(err(
                l,
                s + 7,
                s + 7,
                format!("round {r} result"),
                &format!("a result code for the game against {o}"),
            ));
        }
        if color.is_some() {
            return Err(err(
                l,
                s + 5,
                s + 5,
                format!("round {r} colour"),
                "- (no game without a result)",
            ));
        }
        return Ok(RoundEntry::bye(ResultCode::ZeroBye));
    };
    let code = result.trf_char();
    if result.is_played() {
        if opponent.is_none() {
            return Err(err(
                l,
                s,
                s + 3,
                format!("round {r} opponent"),
                &format!("the opponent's start number for a played game ({code})"),
            ));
        }
        if color.is_none() {
            return Err(err(
                l,
                s + 5,
                s + 5,
                format!("round {r} colour"),
                &format!("w or b for a played game ({code})"),
            ));
        }
    } else if result.has_opponent() {
        if opponent.is_none() && color.is_some() {
            return Err(err(
                l,
                s + 5,
                s + 5,
                format!("round {r} colour"),
                "- for a forfeit without opponent",
            ));
        }
        if opponent.is_some() && color.is_none() {
            w.push(TrfWarning::new(
                WarningKind::Unusual,
                Some(Location::span(l.no, s + 5, s + 5)),
                format!("round {r} colour"),
                "forfeit against a scheduled opponent without the scheduled colour",
            ));
        }
    } else {
        if opponent.is_some() {
            return Err(err(
                l,
                s,
                s + 3,
                format!("round {r} opponent"),
                &format!("0000 for a bye ({code})"),
            ));
        }
        if color.is_some() {
            return Err(err(
                l,
                s + 5,
                s + 5,
                format!("round {r} colour"),
                &format!("- for a bye ({code})"),
            ));
        }
    }
    Ok(RoundEntry {
        opponent,
        color,
        result,
    })
}

/// Lenient fallback: the round area from column 90 as groups of three tokens.
fn read_rounds_tokens(
    l: &Line,
    opts: &ParseOptions,
    w: &mut Vec<TrfWarning>,
    legacy_pab: &mut Vec<usize>,
) -> Option<Vec<Option<RoundEntry>>> {
    let toks = l.tokens(90);
    if !toks.len().is_multiple_of(3) {
        return None;
    }
    let mut out = Vec::new();
    for g in toks.chunks(3) {
        let opponent = match number(&g[0].0)? {
            0 => None,
            n @ 1..=9999 => Some(n as PlayerId),
            _ => return None,
        };
        let mut c = g[1].0.chars();
        let color = Color::from_trf(c.next()?).ok()?;
        let mut rc = g[2].0.chars();
        let result = ResultCode::from_trf(rc.next()?)?;
        if c.next().is_some() || rc.next().is_some() {
            return None;
        }
        let r = out.len() + 1;
        if opts.tolerates()
            && opponent.is_none()
            && let Some(e) = crate::legacy::bye_code(l, r, g[0].1, Some(result), w)
        {
            if e.result == ResultCode::PairingBye {
                legacy_pab.push(r);
            }
            out.push(Some(e));
            continue;
        }
        let mut ignored = Vec::new();
        let probe = Line::new(l.no, "");
        out.push(Some(
            entry(
                &probe,
                out.len() + 1,
                92,
                opponent,
                color,
                Some(result),
                &mut ignored,
            )
            .ok()?,
        ));
    }
    Some(out)
}
