//! Consistency checks across records (the list: docs/src/guide/files.md).
//!
//! A TRF file states every game twice, once on each player's line, and states each score
//! both as results and as a points column. Pairing engines trust those redundancies; when they
//! disagree, the file was edited by hand or written by a buggy program, and pairing from it
//! would silently produce wrong boards. So disagreement is an error (or, in lenient mode, a
//! warning), reported at the line that contradicts an earlier one.

use crate::ParseOptions;
use crate::error::{ErrorKind, Location, TrfError, TrfWarning, WarningKind};
use crate::model::*;
use crate::read::SourceMap;
use crate::views::PointSource;
use arbiter_core::{PlayerId, ResultCode};
use std::collections::{BTreeMap, BTreeSet};

struct Reporter<'a> {
    lenient: bool,
    warnings: &'a mut Vec<TrfWarning>,
}

impl Reporter<'_> {
    fn fail(&mut self, e: TrfError) -> Result<(), TrfError> {
        if self.lenient {
            self.warnings.push(e.into());
            Ok(())
        } else {
            Err(e)
        }
    }
    fn warn(
        &mut self,
        kind: WarningKind,
        loc: Option<Location>,
        field: impl Into<String>,
        msg: impl Into<String>,
    ) {
        self.warnings.push(TrfWarning::new(kind, loc, field, msg));
    }
}

/// Column of the first character of round `r`'s block.
fn block(r: usize) -> usize {
    92 + 10 * (r - 1)
}

fn complementary(a: ResultCode, b: ResultCode) -> bool {
    a.mirrored() == Some(b) || (a == ResultCode::ForfeitLoss && b == ResultCode::ForfeitLoss)
}

pub(crate) fn check(
    file: &TrfFile,
    map: &SourceMap,
    opts: &ParseOptions,
    warnings: &mut Vec<TrfWarning>,
) -> Result<(), TrfError> {
    let mut rep = Reporter {
        lenient: opts.lenient,
        warnings,
    };
    let line_of = |i: usize| i + 1;

    // Start numbers.
    let mut by_id: BTreeMap<PlayerId, usize> = BTreeMap::new();
    for (i, r) in file.records.iter().enumerate() {
        if let Record::Player(p) = r {
            if let Some(&first) = by_id.get(&p.start_number) {
                rep.fail(TrfError::new(
                    ErrorKind::DuplicateStartNumber,
                    Location::span(line_of(i), 5, 8),
                    "start number",
                    format!(
                        "start number {} is already used on line {}",
                        p.start_number,
                        line_of(first)
                    ),
                ))?;
            } else {
                by_id.insert(p.start_number, i);
            }
        }
    }
    let get = |id: PlayerId| -> Option<(usize, &PlayerRecord)> {
        let &i = by_id.get(&id)?;
        match &file.records[i] {
            Record::Player(p) => Some((i, p)),
            _ => None,
        }
    };

    // Games: both lines, opposite colours, complementary results.
    for (i, r) in file.records.iter().enumerate() {
        let Record::Player(p) = r else { continue };
        if by_id.get(&p.start_number) != Some(&i) {
            continue; // duplicate, already reported
        }
        for (k, e) in p.rounds.iter().enumerate() {
            let round = k + 1;
            let Some(e) = e else { continue };
            let Some(q) = e.opponent else { continue };
            let s = block(round);
            let opp_loc = Location::span(line_of(i), s, s + 3);
            if q == p.start_number {
                rep.fail(TrfError::new(
                    ErrorKind::SelfPairing,
                    opp_loc,
                    format!("round {round} opponent"),
                    format!("player {q} is paired against himself"),
                ))?;
                continue;
            }
            let Some((j, qp)) = get(q) else {
                rep.fail(TrfError::new(
                    ErrorKind::UnknownPlayer,
                    opp_loc,
                    format!("round {round} opponent"),
                    format!("no 001 record has start number {q}"),
                ))?;
                continue;
            };
            let qe = qp.rounds.get(k).copied().flatten();
            match qe {
                Some(qe) if qe.opponent == Some(p.start_number) => {
                    // Each game is compared once, and reported on the later of its two lines.
                    if j > i {
                        continue;
                    }
                    let qs = p.start_number;
                    match (qe.color, e.color) {
                        (Some(a), Some(b)) if a == b => rep.fail(TrfError::new(
                            ErrorKind::ColourMismatch,
                            Location::span(line_of(i), s + 5, s + 5),
                            format!("round {round} colour"),
                            format!(
                                "player {q} (line {}) also has {} against {qs}; the colours of a game must be opposite",
                                line_of(j),
                                a.trf_char()
                            ),
                        ))?,
                        (Some(_), None) | (None, Some(_)) => rep.fail(TrfError::new(
                            ErrorKind::ColourMismatch,
                            Location::span(line_of(i), s + 5, s + 5),
                            format!("round {round} colour"),
                            format!("only one of the two lines of the game {q} - {qs} (line {}) gives a colour", line_of(j)),
                        ))?,
                        _ => {}
                    }
                    if !complementary(qe.result, e.result) {
                        rep.fail(TrfError::new(
                            ErrorKind::ResultMismatch,
                            Location::span(line_of(i), s + 7, s + 7),
                            format!("round {round} result"),
                            format!(
                                "result {} does not match {} recorded by player {q} on line {}",
                                e.result.trf_char(),
                                qe.result.trf_char(),
                                line_of(j)
                            ),
                        ))?;
                    }
                }
                other => {
                    // Is q the opponent of someone else who also claims q?
                    let twice = other.and_then(|qe| qe.opponent).and_then(|x| {
                        let (xi, xp) = get(x)?;
                        (xp.rounds.get(k).copied().flatten()?.opponent == Some(q))
                            .then_some((x, xi))
                    });
                    let err = match twice {
                        Some((x, xi)) => TrfError::new(
                            ErrorKind::PairedTwice,
                            opp_loc,
                            format!("round {round} opponent"),
                            format!(
                                "player {q} is paired twice in round {round}: against {} here and against {x} (line {})",
                                p.start_number,
                                line_of(xi)
                            ),
                        ),
                        None => TrfError::new(
                            ErrorKind::OneSidedGame,
                            opp_loc,
                            format!("round {round} opponent"),
                            format!(
                                "player {q} (line {}) has no game against {} in round {round}{}",
                                line_of(j),
                                p.start_number,
                                match other {
                                    None => String::new(),
                                    Some(o) => match o.opponent {
                                        Some(x) => format!(" (his entry names {x})"),
                                        None =>
                                            format!(" (his entry is a bye {})", o.result.trf_char()),
                                    },
                                }
                            ),
                        ),
                    };
                    rep.fail(err)?;
                }
            }
        }
    }

    // At most one pairing-allocated bye per round; warn about a second one for a player.
    let mut pab_in_round: BTreeMap<usize, PlayerId> = BTreeMap::new();
    for (i, r) in file.records.iter().enumerate() {
        let Record::Player(p) = r else { continue };
        let mut had_pab_or_forfeit_win = false;
        for (k, e) in p.rounds.iter().enumerate() {
            let Some(e) = e else { continue };
            let round = k + 1;
            if e.result == ResultCode::PairingBye {
                if let Some(&other) = pab_in_round.get(&round) {
                    let other_line = by_id.get(&other).map(|&x| line_of(x)).unwrap_or(0);
                    rep.fail(TrfError::new(
                        ErrorKind::SecondPairingBye,
                        Location::span(line_of(i), block(round) + 7, block(round) + 7),
                        format!("round {round} result"),
                        format!("round {round} already has a pairing-allocated bye (player {other}, line {other_line})"),
                    ))?;
                } else {
                    pab_in_round.insert(round, p.start_number);
                }
                if had_pab_or_forfeit_win {
                    rep.warn(
                        WarningKind::RepeatedPairingBye,
                        Some(Location::span(line_of(i), block(round) + 7, block(round) + 7)),
                        format!("round {round} result"),
                        format!("player {} gets the pairing-allocated bye after an earlier one or a forfeit win", p.start_number),
                    );
                }
            }
            if matches!(e.result, ResultCode::PairingBye | ResultCode::ForfeitWin) {
                had_pab_or_forfeit_win = true;
            }
        }
    }

    // Ids in the other records must exist (team numbers for 240/250/260 in team files).
    let team_numbers: BTreeSet<u32> = file
        .records
        .iter()
        .filter_map(|r| match r {
            Record::Team310(t) => Some(t.number),
            _ => None,
        })
        .collect();
    let team_file = !team_numbers.is_empty();
    for (i, r) in file.records.iter().enumerate() {
        let (what, ids, teams_allowed): (&str, &[PlayerId], bool) = match r {
            Record::Xxz(v) => ("XXZ", v, false),
            Record::Xxp(v) => ("XXP", v, false),
            Record::Byes(b) => ("240", &b.ids, true),
            Record::Prohibited(p) => ("260", &p.ids, true),
            Record::Xxa(x) => {
                if !by_id.contains_key(&x.player) {
                    rep.fail(TrfError::new(
                        ErrorKind::UnknownPlayer,
                        Location::span(line_of(i), 5, 8),
                        "XXA start number",
                        format!("no 001 record has start number {}", x.player),
                    ))?;
                }
                continue;
            }
            Record::Team013(t) => {
                for (k, m) in t.members.iter().enumerate() {
                    if let Some(m) = m.filter(|m| !by_id.contains_key(m)) {
                        rep.warn(
                            WarningKind::Unusual,
                            Some(Location::span(line_of(i), 37 + 5 * k, 40 + 5 * k)),
                            format!("013 player {}", k + 1),
                            format!("no 001 record has start number {m}"),
                        );
                    }
                }
                continue;
            }
            Record::Team310(t) => {
                for (k, m) in t.members.iter().enumerate() {
                    if let Some(m) = m.filter(|m| !by_id.contains_key(m)) {
                        rep.warn(
                            WarningKind::Unusual,
                            Some(Location::span(line_of(i), 74 + 5 * k, 77 + 5 * k)),
                            format!("310 player {}", k + 1),
                            format!("no 001 record has start number {m}"),
                        );
                    }
                }
                continue;
            }
            _ => continue,
        };
        let spans = map.id_spans.get(&i);
        for (k, &id) in ids.iter().enumerate() {
            let known = if teams_allowed && team_file {
                team_numbers.contains(&id)
            } else {
                by_id.contains_key(&id)
            };
            if !known {
                let loc = match spans.and_then(|s| s.get(k)) {
                    Some(&(a, b)) => Location::span(line_of(i), a, b),
                    None => Location::line(line_of(i)),
                };
                rep.fail(TrfError::new(
                    ErrorKind::UnknownPlayer,
                    loc,
                    format!("{what} id {}", k + 1),
                    if teams_allowed && team_file {
                        format!("no 310 team has number {id}")
                    } else {
                        format!("no 001 record has start number {id}")
                    },
                ))?;
            }
        }
    }

    // 240 against the player's own column (TRF-2026 does not say whether played rounds belong
    // in 240): both are accepted, disagreement is reported.
    if !team_file {
        for (i, r) in file.records.iter().enumerate() {
            let Record::Byes(b) = r else { continue };
            for &id in &b.ids {
                let Some((_, p)) = get(id) else { continue };
                if let Some(e) = p.entry(b.round)
                    && e.result != b.kind.result_code()
                {
                    rep.warn(
                        WarningKind::Conflict,
                        Some(Location::line(line_of(i))),
                        "240 bye type",
                        format!(
                            "player {id} has a {} bye in round {} here but {} in his 001 record",
                            b.kind.letter(),
                            b.round,
                            e.result.trf_char()
                        ),
                    );
                }
            }
        }
    }

    team_records(file, &by_id, &mut rep)?;

    // Number of rounds.
    let n142: BTreeSet<u32> = records_of(file, |r| {
        if let Record::Rounds(n) = r {
            Some(*n)
        } else {
            None
        }
    });
    let nxxr: BTreeSet<u32> = records_of(file, |r| {
        if let Record::Xxr(n) = r {
            Some(*n)
        } else {
            None
        }
    });
    if n142.len() > 1 || nxxr.len() > 1 || (!n142.is_empty() && !nxxr.is_empty() && n142 != nxxr) {
        rep.warn(
            WarningKind::Conflict,
            None,
            "number of rounds",
            format!("the records disagree on the number of rounds (142: {n142:?}, XXR: {nxxr:?}); the largest is used"),
        );
    }
    if let Some(d) = file.declared_rounds() {
        let cols = file.round_columns();
        if cols > d {
            rep.warn(
                WarningKind::Conflict,
                None,
                "number of rounds",
                format!(
                    "the player records have {cols} round columns but the file declares {d} rounds"
                ),
            );
        }
    }

    // Initial colour.
    let c152 = records_of(file, |r| {
        if let Record::InitialColor(c) = r {
            Some(c.trf_char())
        } else {
            None
        }
    });
    let cxxc = records_of(file, |r| match r {
        Record::Xxc(o) if o.contains(&XxcOption::White1) => Some('w'),
        Record::Xxc(o) if o.contains(&XxcOption::Black1) => Some('b'),
        _ => None,
    });
    if c152.len() > 1 || cxxc.len() > 1 || (!c152.is_empty() && !cxxc.is_empty() && c152 != cxxc) {
        rep.warn(
            WarningKind::Conflict,
            None,
            "initial colour",
            "the records disagree on the initial colour; 152 is used before XXC",
        );
    }

    // Point system and points column.
    for src in file.conflicting_scoring() {
        rep.warn(
            WarningKind::Conflict,
            None,
            "point system",
            format!("{src:?} gives other values than the record in force"),
        );
    }
    let (scorer, source) = file.scoring();
    if scorer.is_colour_dependent() {
        rep.warn(
            WarningKind::Unusual,
            None,
            "XXS",
            "colour-dependent values (BW/BD/BL) are used for the points check; the point system view gives the white values",
        );
    }
    if source == PointSource::Inferred {
        rep.warn(
            WarningKind::InferredScoring,
            None,
            "point system",
            format!(
                "no scoring record and the points column contradicts 1 / 0.5 / 0; inferred win {} draw {}",
                scorer.ps.win, scorer.ps.draw
            ),
        );
    }
    if let Some((i, expected)) = file.points_mismatch(&scorer)
        && let Record::Player(p) = &file.records[i]
    {
        let ps = scorer.ps;
        rep.fail(TrfError::new(
                ErrorKind::PointsMismatch,
                Location::span(line_of(i), 81, 84),
                "points",
                format!(
                    "expected {expected} (the sum of the round results with win {} draw {} loss {}, {source:?} point system), found \"{}\"",
                    ps.win, ps.draw, ps.loss, p.points
                ),
            ))?;
    }
    Ok(())
}

/// `300`, `320` and `330` against the `310` teams (when the file has any), the file's rounds
/// and the `001` start numbers.
fn team_records(
    file: &TrfFile,
    by_id: &BTreeMap<PlayerId, usize>,
    rep: &mut Reporter<'_>,
) -> Result<(), TrfError> {
    let line_of = |i: usize| i + 1;
    let mut teams: BTreeMap<u32, (usize, &Team310)> = BTreeMap::new();
    for (i, r) in file.records.iter().enumerate() {
        if let Record::Team310(t) = r {
            teams.entry(t.number).or_insert((i, t));
        }
    }
    let rounds = file.total_rounds();
    // (line, first column, field, team number)
    let mut refs: Vec<(usize, usize, String, u32)> = Vec::new();
    // (line, first column, field, round)
    let mut round_refs: Vec<(usize, usize, String, u32)> = Vec::new();
    let mut forfeits: BTreeMap<(u32, u32), usize> = BTreeMap::new();
    let mut pab: BTreeMap<u32, u32> = BTreeMap::new();
    for (i, r) in file.records.iter().enumerate() {
        let line = line_of(i);
        match r {
            Record::TeamOrder300(t) => {
                refs.push((line, 9, "300 team".into(), t.team));
                refs.push((line, 13, "300 opponent team".into(), t.opponent));
                round_refs.push((line, 5, "300 round".into(), t.round));
                let members = teams.get(&t.team).map(|(j, t)| (line_of(*j), &t.members));
                for (k, id) in t.boards.iter().enumerate() {
                    let Some(id) = *id else { continue };
                    let loc = Some(Location::span(line, 17 + 5 * k, 20 + 5 * k));
                    let field = format!("300 board {}", k + 1);
                    if !by_id.contains_key(&id) {
                        rep.warn(
                            WarningKind::Unusual,
                            loc,
                            field,
                            format!("no 001 record has start number {id}"),
                        );
                    } else if let Some((tl, m)) = members
                        && !m.is_empty()
                        && !m.contains(&Some(id))
                    {
                        rep.warn(
                            WarningKind::Unusual,
                            loc,
                            field,
                            format!(
                                "player {id} is not a member of team {} (310 record on line {tl})",
                                t.team
                            ),
                        );
                    }
                }
            }
            Record::TeamByes320(b) => {
                for (k, t) in b.teams.iter().enumerate() {
                    let round = k as u32 + 1;
                    let col = 15 + 4 * k;
                    let field = format!("320 round {round} team");
                    if rounds > 0 && round == rounds + 1 {
                        rep.warn(
                            WarningKind::Conflict,
                            Some(Location::span(line, col, col + 2)),
                            field.clone(),
                            format!(
                                "the record has {} rounds but the file {rounds}",
                                b.teams.len()
                            ),
                        );
                    }
                    let Some(t) = *t else { continue };
                    refs.push((line, col, field.clone(), t));
                    if let Some(&first) = pab.get(&t) {
                        rep.warn(
                            WarningKind::RepeatedPairingBye,
                            Some(Location::span(line, col, col + 2)),
                            field,
                            format!(
                                "team {t} gets the pairing-allocated bye again (first in round {first})"
                            ),
                        );
                    } else {
                        pab.insert(t, round);
                    }
                }
            }
            Record::TeamForfeit330(f) => {
                round_refs.push((line, 8, "330 round".into(), f.round));
                for (col, field, t) in [
                    (12, "330 white team", f.white),
                    (16, "330 black team", f.black),
                ] {
                    refs.push((line, col, field.into(), t));
                    if let Some(&other) = forfeits.get(&(f.round, t)) {
                        rep.fail(TrfError::new(
                            ErrorKind::PairedTwice,
                            Location::span(line, col, col + 2),
                            field,
                            format!(
                                "team {t} is already in a forfeited match of round {} (line {other})",
                                f.round
                            ),
                        ))?;
                    } else {
                        forfeits.insert((f.round, t), line);
                    }
                }
            }
            _ => {}
        }
    }
    if !teams.is_empty() {
        for (line, col, field, t) in refs {
            if !teams.contains_key(&t) {
                rep.fail(TrfError::new(
                    ErrorKind::UnknownPlayer,
                    Location::span(line, col, col + 2),
                    field,
                    format!("no 310 team has number {t}"),
                ))?;
            }
        }
    }
    if rounds > 0 {
        for (line, col, field, r) in round_refs {
            if r > rounds {
                rep.warn(
                    WarningKind::Conflict,
                    Some(Location::span(line, col, col + 2)),
                    field,
                    format!("round {r} is beyond the {rounds} rounds of the file"),
                );
            }
        }
    }
    Ok(())
}

fn records_of<T: Ord>(file: &TrfFile, f: impl Fn(&Record) -> Option<T>) -> BTreeSet<T> {
    file.records.iter().filter_map(f).collect()
}
