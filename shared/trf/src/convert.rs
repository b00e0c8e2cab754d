//! Moving a file between the two profiles, and setting the engine-facing facts.
//!
//! The pairing worker feeds engines of both generations: JaVaFo and bbpPairings v5 read
//! `XXR`/`XXC`/`BB?`/`XXA`, bbpPairings v6 reads `142`/`152`/`162`/`250` and ignores some of the
//! old codes. Converting records one for one, at the place where the source had them, keeps every
//! other line untouched, so a converted file still diffs cleanly against its source and every
//! derived view (rounds, colour, points, acceleration, forbidden pairs, absences) stays the same.

use crate::error::{TrfWarning, WarningKind};
use crate::model::*;
use crate::views::{PointSource, Scorer};
use arbiter_core::{Color, PlayerId, PointSystem, RoundEntry, Score};
use std::collections::BTreeMap;

/// A converted file and what could not be carried over exactly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Converted {
    /// The converted file.
    pub file: TrfFile,
    /// What could not be carried over exactly.
    pub warnings: Vec<TrfWarning>,
}

fn warn(w: &mut Vec<TrfWarning>, field: &str, msg: impl Into<String>) {
    w.push(TrfWarning::new(WarningKind::Conflict, None, field, msg));
}

/// `162` groups for a point system; the flag says whether 162 expresses it exactly.
fn gen_162(s: &Scorer) -> (Vec<ScoringEntry>, bool) {
    let ps = s.ps;
    let d = PointSystem::default();
    let mut v = Vec::new();
    let mut push = |symbol, points| v.push(ScoringEntry { symbol, points });
    if ps.win != d.win {
        push(ScoringSymbol::W, ps.win);
    }
    if ps.draw != d.draw {
        push(ScoringSymbol::D, ps.draw);
    }
    if ps.loss != d.loss {
        push(ScoringSymbol::L, ps.loss);
    }
    if ps.zero_bye != d.zero_bye {
        push(ScoringSymbol::A, ps.zero_bye);
    }
    if ps.pairing_bye != ps.win {
        push(ScoringSymbol::P, ps.pairing_bye);
    }
    let exact = ps.forfeit_win == ps.win
        && ps.full_bye == ps.win
        && ps.half_bye == ps.draw
        && ps.forfeit_loss == ps.zero_bye
        && !s.is_colour_dependent();
    (v, exact)
}

/// `BB?` lines, or `None` when bbpPairings' codes cannot express the system.
fn gen_bb(s: &Scorer) -> Option<Vec<Record>> {
    let ps = s.ps;
    if ps.forfeit_win != ps.win
        || ps.full_bye != ps.win
        || ps.half_bye != ps.draw
        || s.is_colour_dependent()
    {
        return None;
    }
    let d = PointSystem::default();
    let pairs = [
        (BbCode::W, ps.win, d.win),
        (BbCode::D, ps.draw, d.draw),
        (BbCode::L, ps.loss, d.loss),
        (BbCode::Z, ps.zero_bye, d.zero_bye),
        (BbCode::F, ps.forfeit_loss, d.forfeit_loss),
        (BbCode::U, ps.pairing_bye, ps.win),
    ];
    Some(
        pairs
            .into_iter()
            .filter(|(_, v, def)| v != def)
            .map(|(c, v, _)| Record::Bb(c, v))
            .collect(),
    )
}

/// The bbpPairings `BB?` lines of a point system (none for FIDE's default), or `None` when
/// their codes cannot express it (forfeit or bye values apart from win and draw).
pub fn bb_records(ps: PointSystem) -> Option<Vec<Record>> {
    gen_bb(&Scorer::uniform(ps))
}

/// The JaVaFo `XXS` line of a point system (`None` for JaVaFo's defaults).
pub fn xxs_record(ps: PointSystem) -> Option<Record> {
    gen_xxs(&Scorer::uniform(ps))
}

/// One `XXS` line with every value that differs from JaVaFo's defaults.
fn gen_xxs(s: &Scorer) -> Option<Record> {
    let ps = s.ps;
    let one = Score::ONE;
    let half = Score::HALF;
    let z = Score::ZERO;
    let all = [
        (XxsCode::WW, ps.win, one),
        (XxsCode::BW, s.black_win, one),
        (XxsCode::WD, ps.draw, half),
        (XxsCode::BD, s.black_draw, half),
        (XxsCode::WL, ps.loss, z),
        (XxsCode::BL, s.black_loss, z),
        (XxsCode::ZPB, ps.zero_bye, z),
        (XxsCode::HPB, ps.half_bye, half),
        (XxsCode::FPB, ps.full_bye, one),
        (XxsCode::PAB, ps.pairing_bye, one),
        (XxsCode::FW, ps.forfeit_win, one),
        (XxsCode::FL, ps.forfeit_loss, z),
    ];
    let v: Vec<XxsEntry> = all
        .into_iter()
        .filter(|(_, v, d)| v != d)
        .map(|(code, points, _)| XxsEntry { code, points })
        .collect();
    (!v.is_empty()).then_some(Record::Xxs(v))
}

/// Scoring records of a profile for a scorer (empty when the scorer is the default).
fn gen_scoring(s: &Scorer, p: Profile, w: &mut Vec<TrfWarning>) -> Vec<Record> {
    match p {
        Profile::Trf2026 => {
            let (v, exact) = gen_162(s);
            if !exact {
                warn(
                    w,
                    "162",
                    "record 162 cannot express this point system exactly (forfeit, bye or colour-dependent values)",
                );
            }
            if v.is_empty() {
                Vec::new()
            } else {
                vec![Record::Scoring(v)]
            }
        }
        Profile::Trf16X => match gen_bb(s) {
            Some(v) => v,
            None => gen_xxs(s).into_iter().collect(),
        },
    }
}

/// `250` records from per-player virtual points: runs of equal values over consecutive rounds,
/// merged over consecutive start numbers with identical runs.
fn gen_250(points: &BTreeMap<PlayerId, Vec<Score>>) -> Vec<Record> {
    type Run = (Score, u32, u32);
    let runs = |v: &[Score]| -> Vec<Run> {
        let mut out: Vec<Run> = Vec::new();
        // Record 250 has three columns for a round number.
        for (k, &s) in v.iter().enumerate().take(999) {
            let r = k as u32 + 1;
            match out.last_mut() {
                Some(last) if last.0 == s && last.2 + 1 == r => last.2 = r,
                _ if s == Score::ZERO => {}
                _ => out.push((s, r, r)),
            }
        }
        out
    };
    let mut groups: Vec<(PlayerId, PlayerId, Vec<Run>)> = Vec::new();
    for (&id, v) in points {
        let r = runs(v);
        if r.is_empty() {
            continue;
        }
        match groups.last_mut() {
            Some(g) if g.1 + 1 == id && g.2 == r => g.1 = id,
            _ => groups.push((id, id, r)),
        }
    }
    let mut out = Vec::new();
    for (a, b, rs) in groups {
        for (s, r1, r2) in rs {
            out.push(Record::Acceleration(AccelerationRecord {
                match_points: None,
                game_points: Some(s),
                first_round: r1,
                last_round: r2,
                first_id: a,
                last_id: b,
            }));
        }
    }
    out
}

fn gen_xxa(points: &BTreeMap<PlayerId, Vec<Score>>) -> Vec<Record> {
    points
        .iter()
        .filter(|(_, v)| v.iter().any(|&s| s != Score::ZERO))
        .map(|(&player, v)| {
            let mut points = v.clone();
            while points.last() == Some(&Score::ZERO) {
                points.pop();
            }
            Record::Xxa(XxaRecord { player, points })
        })
        .collect()
}

fn is_scoring(r: &Record) -> bool {
    matches!(r, Record::Scoring(_) | Record::Bb(..) | Record::Xxs(_))
}

fn is_target_scoring(r: &Record, p: Profile) -> bool {
    match p {
        Profile::Trf2026 => matches!(r, Record::Scoring(_)),
        Profile::Trf16X => matches!(r, Record::Bb(..) | Record::Xxs(_)),
    }
}

fn is_accel(r: &Record) -> bool {
    matches!(r, Record::Acceleration(_) | Record::Xxa(_))
}

fn is_target_accel(r: &Record, p: Profile) -> bool {
    match p {
        Profile::Trf2026 => matches!(r, Record::Acceleration(_)),
        Profile::Trf16X => matches!(r, Record::Xxa(_)),
    }
}

fn colour_options(o: &[XxcOption]) -> Option<Color> {
    o.iter().find_map(|o| match o {
        XxcOption::White1 => Some(Color::White),
        XxcOption::Black1 => Some(Color::Black),
        XxcOption::Rank => None,
    })
}

fn xxc_colour(c: Color) -> XxcOption {
    match c {
        Color::White => XxcOption::White1,
        Color::Black => XxcOption::Black1,
    }
}

impl TrfFile {
    /// Where records that a file lacks are added: after the tournament header (the text
    /// records and `132` before the first `001`), else at the top.
    fn header_end(&self) -> usize {
        let first_player = self
            .records
            .iter()
            .position(|r| matches!(r, Record::Player(_)))
            .unwrap_or(self.records.len());
        self.records[..first_player]
            .iter()
            .rposition(|r| matches!(r, Record::Text(_) | Record::RoundDates(_)))
            .map(|i| i + 1)
            .unwrap_or(0)
    }

    /// The same file in the other profile (or normalised within its own), converting record for
    /// record at the same position: `XXR`<->`142`, `XXC white1|black1`<->`152`,
    /// `BB?`/`XXS`<->`162`, `XXA`<->`250`, `XXP`<->`260`, `XXZ`->`240 Z` for the round to pair,
    /// `240`->byes in the player's round column. To TRF-2026, a missing `142` (the total number of
    /// rounds) and a missing `192` (when the type is known from `092`) are added after the header
    /// (our writing rules: docs/src/guide/files.md). To TRF16+x, the TRF-2026-only tournament
    /// records (`###`, `172`..`222`, `352`, `362`) are dropped. Record `162` symbol `X` and
    /// colour-dependent `XXS` values have no counterpart; such losses are reported as warnings.
    pub fn to_profile(&self, target: Profile) -> Converted {
        let mut w = Vec::new();
        let src = self;
        let has = |f: &dyn Fn(&Record) -> bool| src.records.iter().any(f);
        let has_142 = has(&|r| matches!(r, Record::Rounds(_)));
        let has_xxr = has(&|r| matches!(r, Record::Xxr(_)));
        let has_152 = has(&|r| matches!(r, Record::InitialColor(_)));
        let has_xxc_colour = has(&|r| matches!(r, Record::Xxc(o) if colour_options(o).is_some()));
        let has_target_scoring = has(&|r| is_target_scoring(r, target));
        let has_target_accel = has(&|r| is_target_accel(r, target));
        let (scorer, source) = src.scoring();
        let accel = src.accelerations();
        let total = src.total_rounds();
        let rtp = src.round_to_pair();

        let mut out: Vec<Record> = Vec::with_capacity(src.records.len() + 4);
        let mut scoring_done = false;
        let mut accel_done = false;
        let mut byes_to_columns: Vec<&ByeRecord> = Vec::new();
        for r in &src.records {
            match (r, target) {
                // Number of rounds.
                (Record::Xxr(n), Profile::Trf2026) => {
                    if !has_142 {
                        out.push(Record::Rounds(*n));
                    }
                }
                (Record::Rounds(n), Profile::Trf16X) => {
                    if !has_xxr {
                        out.push(Record::Xxr(*n));
                    }
                }
                // Initial colour (and the other XXC options).
                (Record::Xxc(o), Profile::Trf2026) => {
                    if let (Some(c), false) = (colour_options(o), has_152) {
                        out.push(Record::InitialColor(c));
                    }
                    let rest: Vec<XxcOption> = o
                        .iter()
                        .copied()
                        .filter(|o| *o == XxcOption::Rank)
                        .collect();
                    if !rest.is_empty() {
                        out.push(Record::Xxc(rest));
                    }
                }
                (Record::InitialColor(c), Profile::Trf16X) => {
                    if !has_xxc_colour {
                        out.push(Record::Xxc(vec![xxc_colour(*c)]));
                    }
                }
                // Point system.
                (r, _) if is_scoring(r) => {
                    if has_target_scoring {
                        if is_target_scoring(r, target) {
                            out.push(r.clone());
                        }
                    } else if !scoring_done {
                        scoring_done = true;
                        out.extend(gen_scoring(&scorer, target, &mut w));
                    }
                }
                // Acceleration.
                (r, _) if is_accel(r) => {
                    if has_target_accel {
                        if is_target_accel(r, target) {
                            out.push(r.clone());
                        }
                    } else if !accel_done {
                        accel_done = true;
                        match target {
                            Profile::Trf2026 => out.extend(gen_250(&accel.points)),
                            Profile::Trf16X => {
                                if src.records.iter().any(|r| matches!(r, Record::Acceleration(a) if a.game_points.is_none())) {
                                    warn(&mut w, "250", "match-point (team) accelerations have no XXA equivalent; dropped");
                                }
                                out.extend(gen_xxa(&accel.points));
                            }
                        }
                    }
                }
                // Forbidden pairs.
                (Record::Xxp(ids), Profile::Trf2026) => {
                    out.push(Record::Prohibited(ProhibitedRecord {
                        first_round: 1,
                        last_round: total.clamp(1, 999),
                        ids: ids.clone(),
                    }))
                }
                (Record::Prohibited(p), Profile::Trf16X) => {
                    let whole = p.first_round <= 1 && p.last_round >= total;
                    if whole || (p.first_round..=p.last_round).contains(&rtp) {
                        if !whole {
                            warn(
                                &mut w,
                                "260",
                                format!(
                                    "rounds {}-{} only; written as XXP for the round to pair ({rtp})",
                                    p.first_round, p.last_round
                                ),
                            );
                        }
                        out.push(Record::Xxp(p.ids.clone()));
                    } else {
                        warn(
                            &mut w,
                            "260",
                            format!(
                                "rounds {}-{} do not include the round to pair; dropped",
                                p.first_round, p.last_round
                            ),
                        );
                    }
                }
                // Absences.
                (Record::Xxz(ids), Profile::Trf2026) => {
                    let ids: Vec<PlayerId> = ids
                        .iter()
                        .copied()
                        .filter(|&id| src.player(id).is_some_and(|p| p.entry(rtp).is_none()))
                        .collect();
                    if !ids.is_empty() && rtp <= 999 {
                        out.push(Record::Byes(ByeRecord {
                            kind: ByeKind::Zero,
                            round: rtp,
                            ids,
                        }));
                    }
                }
                (Record::Byes(b), Profile::Trf16X) => byes_to_columns.push(b),
                // TRF-2026-only tournament records have no TRF16 place.
                (Record::Comment(_) | Record::NationalRating(_), Profile::Trf16X) => {}
                (Record::Text(t), Profile::Trf16X) if t.code.is_trf2026_only() => {
                    warn(&mut w, t.code.code(), "TRF-2026 record dropped");
                }
                (r, _) => out.push(r.clone()),
            }
        }
        let mut file = TrfFile { records: out };

        // Additions.
        let mut add = Vec::new();
        if !scoring_done && !has_target_scoring && source == PointSource::Inferred {
            warn(
                &mut w,
                "point system",
                "the point system was inferred from the points column; written explicitly",
            );
            add.extend(gen_scoring(&scorer, target, &mut w));
        }
        if target == Profile::Trf2026 {
            if file.declared_rounds().is_none() && total > 0 {
                add.insert(0, Record::Rounds(total.min(999)));
            }
            if file.text(TextCode::EncodedType).is_none()
                && let Some(t) = src.tournament_type()
            {
                add.push(Record::Text(TextRecord {
                    code: TextCode::EncodedType,
                    text: t.code,
                }));
            }
        }
        let at = file.header_end();
        file.records.splice(at..at, add);

        // 240 -> byes in the round columns.
        for b in byes_to_columns {
            for &id in &b.ids {
                let Some(p) = file.player_mut(id) else {
                    warn(&mut w, "240", format!("no player {id}; bye dropped"));
                    continue;
                };
                let code = b.kind.result_code();
                match p.entry(b.round) {
                    Some(e) if e.result == code => {}
                    Some(_) => warn(
                        &mut w,
                        "240",
                        format!(
                            "player {id} already has another entry in round {}; 240 dropped",
                            b.round
                        ),
                    ),
                    None => {
                        let k = b.round as usize;
                        if p.rounds.len() < k {
                            p.rounds.resize(k, None);
                        }
                        p.rounds[k - 1] = Some(RoundEntry::bye(code));
                    }
                }
            }
        }
        Converted { file, warnings: w }
    }

    /// Sets the total number of rounds: updates every `142` and `XXR`, or adds the record of
    /// the file's profile after the header.
    pub fn set_total_rounds(&mut self, n: u32) {
        let mut found = false;
        for r in &mut self.records {
            if let Record::Rounds(v) | Record::Xxr(v) = r {
                *v = n;
                found = true;
            }
        }
        if !found {
            let rec = match self.profile() {
                Profile::Trf2026 => Record::Rounds(n),
                Profile::Trf16X => Record::Xxr(n),
            };
            let at = self.header_end();
            self.records.insert(at, rec);
        }
    }

    /// Sets (or with `None` removes) the declared initial colour: updates `152` and the colour
    /// option of `XXC`, or adds the record of the file's profile after the header.
    pub fn set_initial_color(&mut self, c: Option<Color>) {
        let mut found = false;
        self.records.retain_mut(|r| match r {
            Record::InitialColor(v) => match c {
                Some(c) => {
                    *v = c;
                    found = true;
                    true
                }
                None => false,
            },
            Record::Xxc(o) => {
                let had = colour_options(o).is_some();
                o.retain(|o| *o == XxcOption::Rank);
                if let (true, Some(c)) = (had, c) {
                    o.push(xxc_colour(c));
                    found = true;
                }
                !o.is_empty()
            }
            _ => true,
        });
        if let (false, Some(c)) = (found, c) {
            let rec = match self.profile() {
                Profile::Trf2026 => Record::InitialColor(c),
                Profile::Trf16X => Record::Xxc(vec![xxc_colour(c)]),
            };
            let at = self.header_end();
            self.records.insert(at, rec);
        }
    }

    /// Replaces every scoring record (`162`, `BB?`, `XXS`) by the records of the file's
    /// profile for `ps` (none when `ps` is FIDE's default), at the place of the first one.
    pub fn set_point_system(&mut self, ps: PointSystem) {
        let profile = self.profile();
        let at = self.records.iter().position(is_scoring);
        self.records.retain(|r| !is_scoring(r));
        let at = at.unwrap_or_else(|| self.header_end());
        let mut ignored = Vec::new();
        let new = gen_scoring(&Scorer::uniform(ps), profile, &mut ignored);
        self.records.splice(at..at, new);
    }
}
