//! The tie-break model of a TRF file (TRF16, with the engine extensions, or TRF-2026).
//!
//! What the file says and where the model takes it from:
//!
//! * players: the `001` records (start number, name, rating, federation, round blocks); a blank
//!   round block is an absence (zero-point bye), a rating of 0 or blank means unrated;
//! * point system: [`arbiter_trf::TrfFile::point_system`] (`162`, `BB?`, `XXS`, or inferred);
//! * rounds evaluated: the last round with a pairing in it ([`rounds_played`]), so that a file
//!   of an unfinished event gives live standings instead of counting the rounds still to be
//!   played as absences; [`tournament_after_round`] cuts the event at any earlier round;
//! * start date (rule set): record `042`, `YYYY/MM/DD` (also `DD/MM/YYYY` and `DD.MM.YYYY`,
//!   which older programs write);
//! * pairing kind: round-robin when the encoded type is `BERGER_ROUNDROBIN` or the free text of
//!   `092` names a round-robin (`round robin`, `Berger`, `all-play-all`), otherwise Swiss;
//! * tie-break list: record `212` (the standings, `PTS` first), else `202` ([`file_tiebreaks`]).
//!
//! No I/O: the caller reads and parses the file.

use crate::descriptor::{DescriptorError, TieBreak, TieBreakList, parse_descriptor};
use crate::model::{Date, PairingKind, Player, Tournament};
use arbiter_core::{ResultCode, RoundEntry};
use arbiter_trf::{Record, TextCode, TournamentSystem, TrfFile};
use std::fmt;

/// The number of the last round that has a pairing in it (a game, a forfeit or the
/// pairing-allocated bye); 0 before round 1. A trailing column holding only byes announces
/// absences from a round not yet paired and does not count.
pub fn rounds_played(file: &TrfFile) -> u32 {
    (1..=file.round_columns())
        .rev()
        .find(|&r| file.is_round_paired(r))
        .unwrap_or(0)
}

/// The start date from record `042`; `None` when absent or not a date.
pub fn start_date(file: &TrfFile) -> Option<Date> {
    parse_date(file.text(TextCode::StartDate)?)
}

/// Reads `YYYY/MM/DD` (and `-`, `.` separators), or day first: `DD/MM/YYYY`, `DD.MM.YYYY`.
pub fn parse_date(text: &str) -> Option<Date> {
    let t = text.trim();
    if let Ok(d) = t.parse::<Date>() {
        return Some(d);
    }
    let parts: Vec<&str> = t.split(['/', '-', '.']).collect();
    if parts.len() != 3 || parts[2].len() != 4 {
        return None;
    }
    let num = |s: &str| -> Option<u16> {
        if s.is_empty() || s.len() > 4 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    };
    let (d, m, y) = (num(parts[0])?, num(parts[1])?, num(parts[2])?);
    Date::new(y, u8::try_from(m).ok()?, u8::try_from(d).ok()?)
}

/// Round-robin (pre-determined pairings) or Swiss, from `192` / `092`.
pub fn pairing_kind(file: &TrfFile) -> PairingKind {
    if file
        .tournament_type()
        .is_some_and(|t| t.system == Some(TournamentSystem::BergerRoundRobin))
    {
        return PairingKind::PreDetermined;
    }
    let free = file
        .text(TextCode::TournamentType)
        .unwrap_or("")
        .to_ascii_lowercase();
    let rr = [
        "round robin",
        "round-robin",
        "roundrobin",
        "berger",
        "all-play-all",
    ];
    if rr.iter().any(|k| free.contains(k)) {
        PairingKind::PreDetermined
    } else {
        PairingKind::Swiss
    }
}

/// The model of the whole event as far as it has been paired ([`rounds_played`] rounds).
pub fn tournament_from_trf(file: &TrfFile) -> Tournament {
    tournament_after_round(file, rounds_played(file))
}

/// The model of the event after `rounds` rounds: later round blocks are ignored, missing ones
/// are absences.
pub fn tournament_after_round(file: &TrfFile, rounds: u32) -> Tournament {
    let players = file
        .players()
        .map(|p| {
            let mut player = Player::new(
                p.start_number,
                p.name.clone(),
                p.rating.filter(|&r| r > 0).map(u32::from),
            );
            player.federation = (!p.federation.is_empty()).then(|| p.federation.clone());
            player.rounds = (1..=rounds)
                .map(|r| {
                    p.entry(r)
                        .copied()
                        .unwrap_or(RoundEntry::bye(ResultCode::ZeroBye))
                })
                .collect();
            player
        })
        .collect();
    Tournament {
        players,
        rounds,
        point_system: file.point_system(),
        start_date: start_date(file),
        pairing: pairing_kind(file),
    }
}

/// A tie-break list published in the file, with where it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileTieBreaks {
    /// `212` or `202`.
    pub record: &'static str,
    /// 1-based line of the record.
    pub line: usize,
    pub list: TieBreakList,
}

/// A tie-break record of the file that does not parse.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileTieBreakError {
    /// `212` or `202`.
    pub record: &'static str,
    /// 1-based line of the record.
    pub line: usize,
    /// Columns in the error are columns of the line (the text starts at column 5).
    pub error: DescriptorError,
}

impl fmt::Display for FileTieBreakError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {} (record {} tie-breaks): {}",
            self.line, self.record, self.error
        )
    }
}

impl std::error::Error for FileTieBreakError {}

/// The tie-break list of the file: record `212` (its leading `PTS` is kept; the standings drop
/// it), else `202`; `None` when the file has neither (or only blank ones).
pub fn file_tiebreaks(file: &TrfFile) -> Result<Option<FileTieBreaks>, FileTieBreakError> {
    for (code, record) in [
        (TextCode::StandingsTieBreaks, "212"),
        (TextCode::TieBreaks, "202"),
    ] {
        let found = file.records.iter().enumerate().find_map(|(i, r)| match r {
            Record::Text(t) if t.code == code && !t.text.trim().is_empty() => {
                Some((i + 1, t.text.as_str()))
            }
            _ => None,
        });
        if let Some((line, text)) = found {
            let list = parse_list(text, 5).map_err(|error| FileTieBreakError {
                record,
                line,
                error,
            })?;
            return Ok(Some(FileTieBreaks { record, line, list }));
        }
    }
    Ok(None)
}

/// Parses a descriptor list whose first character is at 1-based column `first_column` of the
/// line, so that error columns are columns of the line. Items are separated by commas, or by
/// blanks when there is no comma.
pub fn parse_list(text: &str, first_column: usize) -> Result<TieBreakList, DescriptorError> {
    if text.trim().is_empty() {
        return Ok(TieBreakList(Vec::new()));
    }
    let mut items: Vec<(usize, &str)> = Vec::new();
    let sep = if text.contains(',') { ',' } else { ' ' };
    let mut pos = 0;
    for part in text.split(sep) {
        if sep == ',' || !part.trim().is_empty() {
            items.push((pos, part));
        }
        pos += part.chars().count() + 1;
    }
    let mut out: Vec<TieBreak> = Vec::with_capacity(items.len());
    for (k, (pos, part)) in items.into_iter().enumerate() {
        out.push(parse_descriptor(part, k + 1, first_column + pos)?);
    }
    Ok(TieBreakList(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::descriptor::Acronym;

    /// A `001` line with every field in its columns.
    fn line(id: u32, name: &str, rating: u32, fed: &str, pts: &str, rounds: &[&str]) -> String {
        let mut l = format!(
            "001 {id:>4}      {name:<33} {rating:>4} {fed:<3} {:>11} {:>10} {pts:>4} {:>4}  ",
            "", "", ""
        );
        for r in rounds {
            l.push_str(&format!("{r:<10}"));
        }
        l.trim_end().to_string()
    }

    fn file() -> String {
        [
            "012 Test".to_string(),
            "042 2025/05/01".into(),
            "092 Individual: Swiss-System".into(),
            "202 BH/C1,BH,XX,SB".into(),
            line(1, "First, Player", 2100, "ESP", "1.0", &["   2 w 1"]),
            line(2, "Second, Player", 0, "", "0.0", &["   1 b 0"]),
            line(3, "Third, Player", 1900, "", "0.0", &["0000 - Z"]),
            "XXR 5".into(),
        ]
        .join("\n")
            + "\n"
    }

    fn parse(text: &str) -> TrfFile {
        arbiter_trf::parse(text).unwrap().file
    }

    #[test]
    fn model_of_a_partial_event() {
        let f = parse(&file());
        assert_eq!(rounds_played(&f), 1);
        let t = tournament_from_trf(&f);
        assert_eq!(t.rounds, 1);
        assert_eq!(t.players.len(), 3);
        assert_eq!(t.players[0].rating, Some(2100));
        assert_eq!(t.players[0].federation.as_deref(), Some("ESP"));
        assert_eq!(t.players[1].rating, None, "rating 0 is unrated");
        assert_eq!(t.players[2].rounds[0].result, ResultCode::ZeroBye);
        assert_eq!(t.start_date, Date::new(2025, 5, 1));
        assert_eq!(t.pairing, PairingKind::Swiss);
        assert_eq!(t.validate(), Ok(()));
        let later = tournament_after_round(&f, 3);
        assert_eq!(later.players[0].rounds.len(), 3);
        assert_eq!(later.players[0].rounds[2].result, ResultCode::ZeroBye);
    }

    #[test]
    fn tiebreak_record_errors_name_line_and_column() {
        let f = parse(&file());
        let e = file_tiebreaks(&f).unwrap_err();
        assert_eq!(e.line, 4);
        assert_eq!(e.record, "202");
        match e.error {
            DescriptorError::UnknownAcronym { item, column, .. } => {
                assert_eq!((item, column), (3, 14));
            }
            other => panic!("{other:?}"),
        }
        assert!(
            e.to_string()
                .starts_with("line 4 (record 202 tie-breaks): item 3 (column 14)")
        );
    }

    #[test]
    fn record_212_wins_over_202() {
        let text = file()
            .replace("202 BH/C1,BH,XX,SB", "202 BH/C1,BH\n212 PTS,SB,WIN")
            .replace("092 Individual: Swiss-System", "092 Round Robin");
        let f = parse(&text);
        let tb = file_tiebreaks(&f).unwrap().unwrap();
        assert_eq!((tb.record, tb.line), ("212", 5));
        assert_eq!(tb.list.0[0].acronym, Acronym::Pts);
        assert_eq!(tb.list.to_string(), "PTS,SB,WIN");
        assert_eq!(pairing_kind(&f), PairingKind::PreDetermined);
    }

    #[test]
    fn dates_in_both_orders() {
        assert_eq!(parse_date("2024/08/01"), Date::new(2024, 8, 1));
        assert_eq!(parse_date("01.08.2024"), Date::new(2024, 8, 1));
        assert_eq!(parse_date("31/12/2023"), Date::new(2023, 12, 31));
        assert_eq!(parse_date("2024/02/30"), None);
        assert_eq!(parse_date("soon"), None);
    }

    #[test]
    fn blank_separated_lists() {
        let l = parse_list("BH/C1 BH  SB", 5).unwrap();
        assert_eq!(l.to_string(), "BH/C1,BH,SB");
        match parse_list("BH ZZ", 5).unwrap_err() {
            DescriptorError::UnknownAcronym { column, .. } => assert_eq!(column, 8),
            other => panic!("{other:?}"),
        }
    }
}
