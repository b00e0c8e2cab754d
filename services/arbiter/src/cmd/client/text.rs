//! Arguments read into wire values, and answers printed as text.

use super::*;

/// A tie-break value as the rules print it (`units / 10^scale`); "" when undefined.
pub(super) fn decimal_text(v: Option<&arbiter_proto::common::v1::Decimal>) -> String {
    let Some(d) = v else {
        return String::new();
    };
    if d.scale == 0 {
        return d.units.to_string();
    }
    let p = 10i64.pow(d.scale.min(18));
    let sign = if d.units < 0 { "-" } else { "" };
    let a = d.units.unsigned_abs();
    format!(
        "{sign}{}.{:0w$}",
        a / p as u64,
        a % p as u64,
        w = d.scale as usize
    )
}

/// The standings as `arbiter client standings` prints them: place (a shared one as "3-5"),
/// pairing number, name, rating, points and one column per tie-break, then the list used, where
/// it came from and the rule version.
pub fn standings_text(s: &rep::Standings) -> String {
    let mut out = format!(
        "Standings after round {} (version {})\n",
        s.after_round, s.version
    );
    // A team event: the teams first (match and game points, the team tie-breaks).
    if !s.team_rows.is_empty() {
        out.push_str(&format!(
            "Teams ({})\n Place Team  Name                             MP     GP  {}\n",
            s.team_tie_break_list.join(", "),
            s.team_tie_break_list.join("  ")
        ));
        for r in &s.team_rows {
            let place = if r.rank_to > r.rank {
                format!("{}-{}", r.rank, r.rank_to)
            } else {
                r.rank.to_string()
            };
            let tbs: Vec<String> = r
                .tie_breaks
                .iter()
                .map(|t| decimal_text(t.value.as_ref()))
                .collect();
            out.push_str(&format!(
                "{place:>6} {:>4}  {:<28} {:>6} {:>6}  {}\n",
                r.team,
                r.name,
                points(r.match_points),
                points(r.game_points),
                tbs.join("  ")
            ));
        }
        out.push_str("Players\n");
    }
    let mut head = format!(
        "{:>5} {:>4}  {:<32} {:>6} {:>6}",
        "Place", "No", "Name", "Rating", "Points"
    );
    for code in &s.tie_break_list {
        head.push_str(&format!(" {code:>7}"));
    }
    out.push_str(head.trim_end());
    out.push('\n');
    for r in &s.rows {
        let mut line = format!(
            "{:>5} {:>4}  {:<32} {:>6} {:>6}",
            r.place,
            r.player_id,
            r.name,
            r.rating,
            points(r.points)
        );
        for (k, code) in s.tie_break_list.iter().enumerate() {
            let v = r
                .tie_breaks
                .get(k)
                .filter(|v| v.code == *code)
                .and_then(|v| v.value.as_ref());
            line.push_str(&format!(" {:>w$}", decimal_text(v), w = code.len().max(7)));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    let from = match rep::TieBreakSource::try_from(s.tie_break_source) {
        Ok(rep::TieBreakSource::Tournament) => "the tournament's list",
        Ok(rep::TieBreakSource::Recommended) => "the recommended list",
        _ => "as given",
    };
    let list = if s.tie_break_list.is_empty() {
        "none".to_string()
    } else {
        s.tie_break_list.join(",")
    };
    out.push_str(&format!(
        "Tie-breaks: {list} ({from}); rules {}\n",
        s.rule_version
    ));
    for n in &s.notes {
        out.push_str(&format!("Note: {n}\n"));
    }
    out
}

/// A player as a command request names him.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WirePlayer {
    pub entry: u32,
    pub player_id: u32,
    pub numbering_version: Option<u64>,
}

pub(super) fn wire_date(s: &str) -> Result<pb::Date, Exit> {
    let d: arbiter_core::tournament::Date = s
        .parse()
        .map_err(|e| Exit::Invalid(format!("date {s:?}: {e}")))?;
    Ok(date_to_wire(d))
}

pub(super) fn named_arbiter(name: String) -> pb::Arbiter {
    pb::Arbiter {
        name,
        fide_id: None,
        title: String::new(),
    }
}

pub(super) fn rating_kind(s: &str) -> Result<pb::RatingKind, Exit> {
    match s.to_ascii_lowercase().as_str() {
        "standard" | "std" => Ok(pb::RatingKind::Standard),
        "rapid" => Ok(pb::RatingKind::Rapid),
        "blitz" => Ok(pb::RatingKind::Blitz),
        other => Err(Exit::Invalid(format!(
            "--rating-kind {other:?}: standard, rapid or blitz"
        ))),
    }
}

/// "BH/C1, BH,SB" as a list; the server checks the codes.
pub(super) fn tie_break_list(s: &str) -> Vec<String> {
    s.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

pub(super) fn player_wire(p: PlayerData) -> Result<pb::Player, Exit> {
    let title = match p.title.as_deref().map(str::to_ascii_uppercase).as_deref() {
        None => pb::Title::Unspecified,
        Some("GM") => pb::Title::Gm,
        Some("IM") => pb::Title::Im,
        Some("WGM") => pb::Title::Wgm,
        Some("FM") => pb::Title::Fm,
        Some("WIM") => pb::Title::Wim,
        Some("CM") => pb::Title::Cm,
        Some("WFM") => pb::Title::Wfm,
        Some("WCM") => pb::Title::Wcm,
        Some(other) => return Err(Exit::Invalid(format!("--title {other:?}"))),
    };
    Ok(pb::Player {
        name: p.name,
        rating: p.rating,
        fide_id: p.fide_id,
        title: title as i32,
        federation: p.federation,
        ..Default::default()
    })
}

pub(super) fn result_arg(s: &str) -> Result<BoardResult, Exit> {
    parse_result(s).ok_or_else(|| {
        Exit::Invalid(format!(
            "result {s:?}: write 1-0, 0-1, 1/2, +/-, -/+, -/-, W/L, D/D, L/W, or a decision \
             0-0, 1/2-0, 0-1/2, 1-1/2, 1/2-1, 1-1"
        ))
    })
}

pub(super) fn print_registered(r: &CommandResult) {
    print_result("registered", r);
    println!(
        "pairing number {}, entry E{} (the entry never changes; the pairing number may)",
        r.player_id, r.entry
    );
    if r.first_round > 1 {
        println!(
            "a late entry (C.04.2.C): paired from round {}; rounds 1-{} are scored as missed \
             (`late-entry --missed` sets how)",
            r.first_round,
            r.first_round - 1
        );
    }
}

/// The server's same-name refusal names its request field; say the flag.
pub(super) fn same_name_hint(e: Exit) -> Exit {
    match e {
        Exit::Differs(m) if m.contains("confirm_same_name") => Exit::Differs(format!(
            "{m}\n(another person of the same name: register him with --same-name-ok)"
        )),
        other => other,
    }
}

/// Today's date in the local time zone, YYYY-MM-DD.
pub(super) fn local_date() -> Result<String, Exit> {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_err(|e| Exit::Invalid(format!("the clock is before 1970: {e}")))?
        .as_secs() as libc::time_t;
    // SAFETY: localtime_r writes only into `tm`, which lives for the call.
    let mut tm: libc::tm = unsafe { std::mem::zeroed() };
    if unsafe { libc::localtime_r(&now, &mut tm) }.is_null() {
        return Err(Exit::Invalid(
            "today's local date cannot be read: give --start YYYY-MM-DD".into(),
        ));
    }
    Ok(format!(
        "{:04}-{:02}-{:02}",
        tm.tm_year + 1900,
        tm.tm_mon + 1,
        tm.tm_mday
    ))
}

/// Points in tenths as text: "3", "3.5".
pub fn points(tenths: i32) -> String {
    if tenths % 10 == 0 {
        format!("{}", tenths / 10)
    } else {
        format!("{}.{}", tenths / 10, (tenths % 10).abs())
    }
}

/// Reads a board result as arbiters write it.
pub fn parse_result(s: &str) -> Option<BoardResult> {
    Some(match s.trim().replace(' ', "").as_str() {
        "1-0" | "1:0" => BoardResult::WhiteWins,
        "0-1" | "0:1" => BoardResult::BlackWins,
        "1/2" | "=" | "½-½" | "1/2-1/2" | "0.5-0.5" | "draw" => BoardResult::Draw,
        "+/-" | "+-" | "1F-0" => BoardResult::WhiteWinsForfeit,
        "-/+" | "-+" | "0-1F" => BoardResult::BlackWinsForfeit,
        "-/-" | "--" | "0F-0F" => BoardResult::DoubleForfeit,
        "W/L" | "w/l" | "1U-0U" => BoardResult::WhiteWinsUnrated,
        "D/D" | "d/d" | "=U-=U" => BoardResult::DrawUnrated,
        "L/W" | "l/w" | "0U-1U" => BoardResult::BlackWinsUnrated,
        // Arbiter decisions over the board that no named result covers (C.04.2.D.8 leaves the
        // scores to the arbiter): each side's points.
        other => {
            let (w, b) = other.split_once('-')?;
            let code = |t: &str| match t {
                "1" => Some(ResultCode::Win),
                "1/2" | "½" | "0.5" | "=" => Some(ResultCode::Draw),
                "0" => Some(ResultCode::Loss),
                _ => None,
            };
            let (white, black) = (code(w)?, code(b)?);
            match (white, black) {
                (ResultCode::Win, ResultCode::Loss) => BoardResult::WhiteWins,
                (ResultCode::Loss, ResultCode::Win) => BoardResult::BlackWins,
                (ResultCode::Draw, ResultCode::Draw) => BoardResult::Draw,
                _ => BoardResult::ArbiterDecision { white, black },
            }
        }
    })
}

pub(super) fn result_text(p: &rep::PairedBoard) -> String {
    match pb::BoardResult::try_from(p.result) {
        Ok(pb::BoardResult::WhiteWins) => "1-0".into(),
        Ok(pb::BoardResult::BlackWins) => "0-1".into(),
        Ok(pb::BoardResult::Draw) => "½-½".into(),
        Ok(pb::BoardResult::WhiteWinsForfeit) => "+/-".into(),
        Ok(pb::BoardResult::BlackWinsForfeit) => "-/+".into(),
        Ok(pb::BoardResult::DoubleForfeit) => "-/-".into(),
        Ok(pb::BoardResult::Unspecified) | Err(_) => String::new(),
        Ok(other) => format!("{other:?}"),
    }
}

/// The pairings as a table.
pub fn render_pairings(p: &rep::RoundPairings, names: &BTreeMap<u32, String>) -> String {
    let name = |id: u32| names.get(&id).cloned().unwrap_or_default();
    let mut out = format!(
        "Round {} ({}, version {})\n",
        p.round,
        if p.published { "published" } else { "proposed" },
        p.version
    );
    // A team event: its matches, the team named first first (boards follow in match order).
    let per = (!p.team_matches.is_empty() && !p.boards.is_empty())
        .then(|| p.boards.len() / p.team_matches.len());
    for (i, m) in p.team_matches.iter().enumerate() {
        let boards = per.map_or(String::new(), |k| {
            format!(" (boards {}-{})", i * k + 1, (i + 1) * k)
        });
        out.push_str(&format!(
            "match {}: team {} - team {}{boards}\n",
            i + 1,
            m.first,
            m.second
        ));
    }
    if p.team_bye != 0 {
        out.push_str(&format!(
            "team {} has the pairing-allocated bye\n",
            p.team_bye
        ));
    }
    for b in &p.boards {
        let Some(board) = &b.board else { continue };
        out.push_str(&format!(
            "{:>4}  {:>3} {:<28} ({:>4})  -  {:>3} {:<28} ({:>4})  {}\n",
            board.number,
            board.white,
            name(board.white),
            points(b.white_points),
            board.black,
            name(board.black),
            points(b.black_points),
            result_text(b)
        ));
    }
    for u in &p.unpaired {
        let code = arbiter_proto::convert::result_code_from_wire("code", u.code)
            .map(|c| c.trf_char())
            .unwrap_or('?');
        out.push_str(&format!(
            "   -  {:>3} {:<28} bye ({code})\n",
            u.player_id,
            name(u.player_id)
        ));
    }
    out
}

/// A PGN file's text, refused before it is sent when it is above the server's limit for a
/// round's file or not UTF-8 (naming the file and the byte).
pub(super) fn read_pgn_file(path: &std::path::Path) -> Result<String, Exit> {
    let limit = arbiter_service_kit::edge::MAX_ROUND_PGN_BYTES;
    let shown = path.display();
    let meta = std::fs::metadata(path)
        .map_err(|e| Exit::Unavailable(format!("{shown}: cannot read: {e}")))?;
    if meta.len() > limit as u64 {
        return Err(Exit::Invalid(format!(
            "{shown}: {} bytes is larger than the {limit}-byte limit for a round's PGN file",
            meta.len()
        )));
    }
    let bytes =
        std::fs::read(path).map_err(|e| Exit::Unavailable(format!("{shown}: cannot read: {e}")))?;
    String::from_utf8(bytes).map_err(|e| {
        Exit::Invalid(format!(
            "{shown}: not UTF-8 at byte {} (save the file as UTF-8)",
            e.utf8_error().valid_up_to()
        ))
    })
}

pub(super) fn print_result(what: &str, r: &CommandResult) {
    println!(
        "{what}: tournament {} version {}{}",
        r.tournament_id,
        r.last_version,
        if r.replayed {
            " (already applied: nothing appended)"
        } else {
            ""
        }
    );
}
