//! Byes that only the points column shows, read as the byes they are (lenient reading only).
//!
//! Some programs write a half-point or full-point bye as a blank round — an all-blank block,
//! or `0000` with no result letter — and count it only in the player's points, so that read
//! as written the points do not add up (a blank is a zero-point absence). When the difference
//! is exactly what the player's blank rounds would add as byes of one kind — every one a
//! half-point bye, or every one a full point — each is read as that bye, with a warning naming
//! the line, the round and the reading chosen. A full point is the pairing-allocated bye (`U`)
//! when it is the only full point read in that round and the round has no `U` written, else a
//! full-point bye (`F`). Any other difference (a mix of kinds, an explicit `Z`, no round
//! without a game) is left for the points check to report: the reading never guesses between
//! two.

use crate::error::{Location, TrfWarning, WarningKind};
use crate::model::{Record, TrfFile};
use arbiter_core::{ResultCode, RoundEntry};

/// Column (1-based) of round `r`'s result letter (`r` from 1).
fn result_column(r: u32) -> usize {
    92 + 10 * (r as usize - 1) + 7
}

/// Round `r` of the player on `line` is blank: no block, an all-blank block, or no opponent
/// and no result letter written (an explicit `Z` is an absence as written: not a candidate).
fn is_blank(entry: Option<&RoundEntry>, line: &str, r: u32) -> bool {
    match entry {
        None => true,
        Some(e) => {
            e.opponent.is_none()
                && e.result == ResultCode::ZeroBye
                // Columns are characters of the decoded line, not bytes.
                && line
                    .chars()
                    .nth(result_column(r) - 1)
                    .is_none_or(|c| c == ' ')
        }
    }
}

pub(crate) fn read_implied_byes(
    file: &mut TrfFile,
    lines: &[&str],
    warnings: &mut Vec<TrfWarning>,
) {
    let scorer = file
        .explicit_scorer()
        .unwrap_or_else(|| crate::views::Scorer::uniform(Default::default()));
    if scorer.is_colour_dependent() {
        return;
    }
    let ps = scorer.ps;
    let paired = file.round_to_pair() - 1;
    // (record, round, kind) of every blank read as a bye, decided before any is written.
    let mut reading: Vec<(usize, u32, ResultCode)> = Vec::new();
    // (record, blank rounds) of players whose points no single reading explains.
    let mut declined: Vec<(usize, Vec<u32>)> = Vec::new();
    for (i, r) in file.records.iter().enumerate() {
        let Record::Player(p) = r else { continue };
        let line = lines.get(i).copied().unwrap_or_default();
        let written: i64 = (1..=p.rounds.len() as u32)
            .map(|k| i64::from(scorer.points(p.entry(k)).tenths()))
            .sum::<i64>()
            + i64::from(ps.zero_bye.tenths())
                * i64::from(paired.saturating_sub(p.rounds.len() as u32));
        let excess = i64::from(p.points.tenths()) - written;
        if excess <= 0 {
            continue;
        }
        let blanks: Vec<u32> = (1..=paired)
            .filter(|&k| is_blank(p.entry(k), line, k))
            .collect();
        let n = blanks.len() as i64;
        let per = |v: arbiter_core::Score| i64::from(v.tenths()) - i64::from(ps.zero_bye.tenths());
        let kind = if n > 0 && per(ps.half_bye) > 0 && excess == n * per(ps.half_bye) {
            ResultCode::HalfBye
        } else if n > 0 && per(ps.full_bye) > 0 && excess == n * per(ps.full_bye) {
            ResultCode::FullBye
        } else {
            declined.push((i, blanks));
            continue;
        };
        reading.extend(blanks.into_iter().map(|k| (i, k, kind)));
    }
    // Not read as byes, the blank rounds stay blank in the model: written back as `Z`, a
    // `0000` without a result would no longer be a candidate, and the written file would read
    // otherwise than this one.
    for (i, blanks) in declined {
        let Record::Player(p) = &mut file.records[i] else {
            continue;
        };
        for k in blanks {
            if let Some(e) = p.rounds.get_mut(k as usize - 1) {
                *e = None;
            }
        }
        while p.rounds.last() == Some(&None) {
            p.rounds.pop();
        }
    }
    for &(i, k, kind) in &reading {
        // The one full point without a game in a round that has no `U` is that round's
        // pairing-allocated bye (a requested full-point bye is the rarer reading).
        let kind = if kind == ResultCode::FullBye
            && file.players().all(|p| {
                p.entry(k)
                    .is_none_or(|e| e.result != ResultCode::PairingBye)
            })
            && reading
                .iter()
                .filter(|&&(_, r, kind)| r == k && kind == ResultCode::FullBye)
                .count()
                == 1
        {
            ResultCode::PairingBye
        } else {
            kind
        };
        let Record::Player(p) = &mut file.records[i] else {
            continue;
        };
        let at = k as usize - 1;
        if p.rounds.len() <= at {
            p.rounds.resize(at + 1, None);
        }
        p.rounds[at] = Some(RoundEntry::bye(kind));
        let (letter, words) = match kind {
            ResultCode::HalfBye => ('H', "a half-point bye"),
            ResultCode::PairingBye => ('U', "the pairing-allocated bye"),
            _ => ('F', "a full-point bye"),
        };
        let place = Location::span(i + 1, result_column(k) - 7, result_column(k));
        // The blank block's own remark (read as an absence) gives way to this reading.
        warnings.retain(|w| !(w.kind == WarningKind::Legacy && w.location == Some(place)));
        warnings.push(TrfWarning::new(
            WarningKind::ImpliedBye,
            Some(place),
            format!("round {k}"),
            format!(
                "player {} has no result in round {k} and his points count it: read as {words} \
                 ({letter})",
                p.start_number
            ),
        ));
    }
}
