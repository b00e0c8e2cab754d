//! The round-block spellings of older programs, mapped to the TRF16 codes (tolerant reading).
//!
//! The TRF16 result-code table (record 001) gives byes the codes `H F U Z` with `0000` and colour
//! `-`, and every game or forfeit the scheduled opponent. Swiss-Manager, Vega and the JaVaFo-era
//! tools also wrote a bye as a game result without opponent (`0000 - =`, `0000 - +`, `0000 - -`),
//! left the block of a withdrawn player blank, and gave a forfeit's colour on one line only. Each
//! is mapped to what the endorsed programs take it for, with a warning naming the line and columns.

use crate::error::{Location, TrfWarning, WarningKind};
use crate::model::Record;
use crate::text::Line;
use arbiter_core::{Color, ResultCode, RoundEntry};
use std::collections::{BTreeMap, BTreeSet};

/// A result written without opponent (block at column `s` of round `r`), read as the bye it
/// stands for; `None` when the block is not a legacy bye (then the strict rules apply).
pub(crate) fn bye_code(
    l: &Line,
    r: usize,
    s: usize,
    result: Option<ResultCode>,
    w: &mut Vec<TrfWarning>,
) -> Option<RoundEntry> {
    use ResultCode::*;
    let (code, meaning) = match result? {
        // A draw against nobody: the half-point bye (`H`).
        Draw | DrawUnrated => (HalfBye, "H (half-point bye)"),
        // A win against nobody: the point of the pairing-allocated bye (`U`), which C.04.1
        // treats like a forfeit win for later bye eligibility.
        ForfeitWin | Win | WinUnrated => (PairingBye, "U (pairing-allocated bye)"),
        // A loss against nobody: not paired, no points (`Z`).
        ForfeitLoss | Loss | LossUnrated => (ZeroBye, "Z (zero-point bye, not paired)"),
        _ => return None,
    };
    let written = result?.trf_char();
    w.push(TrfWarning::new(
        WarningKind::Legacy,
        Some(Location::span(l.no, s, s + 7)),
        format!("round {r}"),
        format!("the legacy bye \"0000 - {written}\" read as 0000 - {meaning}"),
    ));
    Some(RoundEntry::bye(code))
}

/// Whole-file mappings once every line is read: `records[i]` is line `i + 1`; `legacy_pab`
/// lists the (record, round) of each `U` that [`bye_code`] made from a win without opponent.
pub(crate) fn normalise(
    records: &mut [Record],
    legacy_pab: &[(usize, usize)],
    w: &mut Vec<TrfWarning>,
) {
    second_pabs_are_full_byes(records, legacy_pab, w);
    forfeit_colours(records, w);
    blank_blocks(records, w);
}

/// The result-code table allows one `U` per round: where older programs wrote several wins
/// without opponent in one round, none of them can be told to be the pairing-allocated bye, so
/// each is read as a full-point bye (`F`), which keeps its point and does not make the
/// player ineligible.
fn second_pabs_are_full_byes(
    records: &mut [Record],
    legacy_pab: &[(usize, usize)],
    w: &mut Vec<TrfWarning>,
) {
    let mut per_round: BTreeMap<usize, usize> = BTreeMap::new();
    for rec in records.iter() {
        if let Record::Player(p) = rec {
            for (i, e) in p.rounds.iter().enumerate() {
                if e.is_some_and(|e| e.result == ResultCode::PairingBye) {
                    *per_round.entry(i + 1).or_default() += 1;
                }
            }
        }
    }
    for &(idx, round) in legacy_pab {
        if per_round.get(&round).copied().unwrap_or(0) < 2 {
            continue;
        }
        if let Some(Record::Player(p)) = records.get_mut(idx)
            && let Some(Some(e)) = p.rounds.get_mut(round - 1)
        {
            *e = RoundEntry::bye(ResultCode::FullBye);
            let s = 92 + 10 * (round - 1);
            w.push(TrfWarning::new(
                WarningKind::Legacy,
                Some(Location::span(idx + 1, s, s + 7)),
                format!("round {round}"),
                "several players have a win without opponent in this round; each is read as \
                 F (full-point bye), since only one can be the pairing-allocated bye",
            ));
        }
    }
}

/// A forfeit whose colour is `-` on one line takes the opposite of the colour the opponent's
/// line gives (the scheduled colours of record 001).
fn forfeit_colours(records: &mut [Record], w: &mut Vec<TrfWarning>) {
    let mut colour: BTreeMap<(u32, usize, u32), Color> = BTreeMap::new();
    for rec in records.iter() {
        if let Record::Player(p) = rec {
            for (i, e) in p.rounds.iter().enumerate() {
                if let Some(RoundEntry {
                    opponent: Some(o),
                    color: Some(c),
                    ..
                }) = e
                {
                    colour.insert((p.start_number, i, *o), *c);
                }
            }
        }
    }
    for (idx, rec) in records.iter_mut().enumerate() {
        let Record::Player(p) = rec else { continue };
        for (i, e) in p.rounds.iter_mut().enumerate() {
            let Some(e) = e else { continue };
            let (Some(o), None) = (e.opponent, e.color) else {
                continue;
            };
            if e.result.is_played() {
                continue;
            }
            if let Some(c) = colour.get(&(o, i, p.start_number)) {
                let mine = c.opposite();
                e.color = Some(mine);
                let s = 92 + 10 * i + 5;
                // The reader's "forfeit without the scheduled colour" is answered by this one.
                let here = Location::span(idx + 1, s, s);
                w.retain(|x| !(x.kind == WarningKind::Unusual && x.location == Some(here)));
                w.push(TrfWarning::new(
                    WarningKind::Legacy,
                    Some(Location::span(idx + 1, s, s)),
                    format!("round {} colour", i + 1),
                    format!(
                        "forfeit written with colour -; read as {} (player {o} has {})",
                        mine.trf_char(),
                        c.trf_char()
                    ),
                ));
            }
        }
    }
}

/// A blank block in a round that was paired (a withdrawn or absent player's column, often
/// simply not filled in by the program) means `Z`: not paired, no points (TRF16: a blank result
/// is `Z`); the pairing record, the import and the standings read it so. The model keeps the
/// blank (an export writes the file back as it came); the warning says how it is read. The
/// round being paired next has no games yet and keeps its blanks ("to be paired").
fn blank_blocks(records: &[Record], w: &mut Vec<TrfWarning>) {
    let mut paired = BTreeSet::new();
    for rec in records.iter() {
        if let Record::Player(p) = rec {
            for (i, e) in p.rounds.iter().enumerate() {
                if e.is_some_and(|e| {
                    e.opponent.is_some()
                        || matches!(e.result, ResultCode::PairingBye | ResultCode::ForfeitWin)
                }) {
                    paired.insert(i);
                }
            }
        }
    }
    let Some(&last) = paired.last() else { return };
    for (idx, rec) in records.iter().enumerate() {
        let Record::Player(p) = rec else { continue };
        for i in 0..=last {
            if !paired.contains(&i) || p.rounds.get(i).is_some_and(Option::is_some) {
                continue;
            }
            let s = 92 + 10 * i;
            w.push(TrfWarning::new(
                WarningKind::Legacy,
                Some(Location::span(idx + 1, s, s + 7)),
                format!("round {}", i + 1),
                "blank in a paired round; read as 0000 - Z (not paired, no points) and kept blank",
            ));
        }
    }
}
