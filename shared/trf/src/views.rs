//! Derived views: what a pairing engine or tie-break engine needs to know, computed from the
//! records.
//!
//! The same fact can be stated several ways (TRF16 + JaVaFo, bbpPairings, TRF-2026 records,
//! or implied by the round columns). Engines must not each re-implement that precedence, so it
//! lives here, once, with the rule written down next to each view.

use crate::model::*;
use arbiter_core::{Color, PlayerId, PointSystem, ResultCode, ResultKind, RoundEntry, Score};
use std::collections::{BTreeMap, BTreeSet};

/// Where [`TrfFile::point_system`] took its values from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PointSource {
    /// TRF-2026 record `162`.
    Record162,
    /// bbpPairings `BBW`/`BBD`/`BBL`/`BBZ`/`BBF`/`BBU`.
    Bbp,
    /// JaVaFo `XXS`.
    Xxs,
    /// No scoring record; the points column only fits this system (docs/src/guide/files.md).
    Inferred,
    /// No scoring record: FIDE 1 / ½ / 0.
    Default,
}

/// A point system plus the colour-dependent values JaVaFo's `XXS` can express (`BW`, `BD`,
/// `BL`); [`PointSystem`] itself holds the white (or colourless) values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Scorer {
    pub ps: PointSystem,
    pub black_win: Score,
    pub black_draw: Score,
    pub black_loss: Score,
}

impl Scorer {
    pub fn uniform(ps: PointSystem) -> Scorer {
        Scorer {
            ps,
            black_win: ps.win,
            black_draw: ps.draw,
            black_loss: ps.loss,
        }
    }

    pub fn is_colour_dependent(&self) -> bool {
        self.black_win != self.ps.win
            || self.black_draw != self.ps.draw
            || self.black_loss != self.ps.loss
    }

    /// Points of one round block; a blank block is a zero-point bye.
    pub fn points(&self, e: Option<&RoundEntry>) -> Score {
        let Some(e) = e else { return self.ps.zero_bye };
        if e.color == Some(Color::Black) && e.result.is_played() {
            return match ResultKind::from(e.result) {
                ResultKind::Win => self.black_win,
                ResultKind::Draw => self.black_draw,
                _ => self.black_loss,
            };
        }
        self.ps.points(e.result)
    }
}

fn scorer_162<'a>(entries: impl Iterator<Item = &'a ScoringEntry>) -> Scorer {
    let mut ps = PointSystem::default();
    let mut pab = None;
    for e in entries {
        let v = e.points;
        match e.symbol {
            ScoringSymbol::W => (ps.win, ps.forfeit_win, ps.full_bye) = (v, v, v),
            ScoringSymbol::D => (ps.draw, ps.half_bye) = (v, v),
            ScoringSymbol::L => ps.loss = v,
            ScoringSymbol::A | ScoringSymbol::Z => (ps.zero_bye, ps.forfeit_loss) = (v, v),
            ScoringSymbol::P => pab = Some(v),
            ScoringSymbol::X => {}
        }
    }
    ps.pairing_bye = pab.unwrap_or(ps.win);
    Scorer::uniform(ps)
}

fn scorer_bb<'a>(entries: impl Iterator<Item = (&'a BbCode, &'a Score)>) -> Scorer {
    let mut ps = PointSystem::default();
    let mut pab = None;
    for (c, &v) in entries {
        match c {
            BbCode::W => (ps.win, ps.forfeit_win, ps.full_bye) = (v, v, v),
            BbCode::D => (ps.draw, ps.half_bye) = (v, v),
            BbCode::L => ps.loss = v,
            BbCode::Z => ps.zero_bye = v,
            BbCode::F => ps.forfeit_loss = v,
            BbCode::U => pab = Some(v),
        }
    }
    ps.pairing_bye = pab.unwrap_or(ps.win);
    Scorer::uniform(ps)
}

fn scorer_xxs<'a>(entries: impl Iterator<Item = &'a XxsEntry>) -> Scorer {
    let mut s = Scorer::uniform(PointSystem::default());
    for e in entries {
        let v = e.points;
        match e.code {
            XxsCode::WW => s.ps.win = v,
            XxsCode::BW => s.black_win = v,
            XxsCode::WD => s.ps.draw = v,
            XxsCode::BD => s.black_draw = v,
            XxsCode::WL => s.ps.loss = v,
            XxsCode::BL => s.black_loss = v,
            XxsCode::ZPB => s.ps.zero_bye = v,
            XxsCode::HPB => s.ps.half_bye = v,
            XxsCode::FPB => s.ps.full_bye = v,
            XxsCode::PAB => s.ps.pairing_bye = v,
            XxsCode::FW => s.ps.forfeit_win = v,
            XxsCode::FL => s.ps.forfeit_loss = v,
            XxsCode::W => (s.ps.win, s.black_win, s.ps.forfeit_win, s.ps.full_bye) = (v, v, v, v),
            XxsCode::D => (s.ps.draw, s.black_draw, s.ps.half_bye) = (v, v, v),
        }
    }
    s
}

/// The known encoded tournament types (TRF-2026 record `192`), without the `_BAKU` suffix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TournamentSystem {
    /// `FIDE_DUTCH`: unversioned; engines read it as the current (2025) rules.
    FideDutch,
    /// `FIDE_DUTCH_2017`: Baku 2016 rules, in force 2017-07-01 to 2025-06-30.
    FideDutch2017,
    /// `FIDE_DUTCH_2025`.
    FideDutch2025,
    /// `FIDE_DUTCH_2026`: the consolidated text of the 2025 revision.
    FideDutch2026,
    /// `FIDE_BURSTEIN`.
    FideBurstein,
    /// `FIDE_DUBOV`.
    FideDubov,
    /// `BERGER_ROUNDROBIN`.
    BergerRoundRobin,
    /// FIDE's team Swiss (C.04.6): `FIDE_TEAM` and its colour-model and score variants, e.g.
    /// `FIDE_TEAM_TYPEB_MP_GP` or `FIDE_TEAM_GP` (read in full by arbiter-core's
    /// `FideTeamSystem::from_type_code`).
    FideTeam,
    /// `CUSTOM_SWISS`.
    CustomSwiss,
}

/// The two Dutch rule sets, named by the date they took effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DutchRules {
    /// Baku 2016 rules, in force 2017-07-01 to 2025-06-30 (C.04.3, Baku 2016 text).
    Dutch2017,
    /// The revision in force from 2025-07-01 (C.04.3, 2025 revision).
    Dutch2025,
}

/// An encoded tournament type as written, with what we recognise in it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TournamentType {
    /// The code as written (trimmed).
    pub code: String,
    /// The recognised system, `None` for codes we do not know.
    pub system: Option<TournamentSystem>,
    /// The code ends in `_BAKU` (Baku acceleration implied).
    pub baku: bool,
}

impl TournamentType {
    /// Reads a code as written in `192` (or `092`).
    pub fn parse(code: &str) -> TournamentType {
        let code = code.trim().to_string();
        let (base, baku) = match code.strip_suffix("_BAKU") {
            Some(b) => (b, true),
            None => (code.as_str(), false),
        };
        let system = match base {
            "FIDE_DUTCH" => Some(TournamentSystem::FideDutch),
            "FIDE_DUTCH_2017" => Some(TournamentSystem::FideDutch2017),
            "FIDE_DUTCH_2025" => Some(TournamentSystem::FideDutch2025),
            "FIDE_DUTCH_2026" => Some(TournamentSystem::FideDutch2026),
            "FIDE_BURSTEIN" => Some(TournamentSystem::FideBurstein),
            "FIDE_DUBOV" => Some(TournamentSystem::FideDubov),
            "BERGER_ROUNDROBIN" if !baku => Some(TournamentSystem::BergerRoundRobin),
            b if arbiter_core::teams::FideTeamSystem::from_type_code(b).is_some() => {
                Some(TournamentSystem::FideTeam)
            }
            "CUSTOM_SWISS" if !baku => Some(TournamentSystem::CustomSwiss),
            _ => None,
        };
        let baku = baku && system.is_some();
        TournamentType { code, system, baku }
    }

    /// The Dutch rule set the code asks for: `FIDE_DUTCH_2017` -> 2017; `FIDE_DUTCH_2025`,
    /// `FIDE_DUTCH_2026` and the unversioned `FIDE_DUTCH` -> 2025 (docs/src/auditors/agreement.md).
    pub fn dutch_rules(&self) -> Option<DutchRules> {
        match self.system? {
            TournamentSystem::FideDutch2017 => Some(DutchRules::Dutch2017),
            TournamentSystem::FideDutch
            | TournamentSystem::FideDutch2025
            | TournamentSystem::FideDutch2026 => Some(DutchRules::Dutch2025),
            _ => None,
        }
    }
}

/// Where [`TrfFile::accelerations`] took its values from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AccelerationSource {
    /// No acceleration.
    None,
    /// TRF-2026 `250` records (game points).
    Record250,
    /// JaVaFo `XXA` lines.
    Xxa,
    /// Implied by a `..._BAKU` type code with no explicit records.
    ImpliedBaku,
}

/// Virtual (fictitious) points per player and round, for pairing only: never part of the
/// points column, standings or tie-breaks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Accelerations {
    /// Where the values came from.
    pub source: AccelerationSource,
    /// Start number -> virtual points of rounds 1, 2, ... (missing rounds: 0).
    pub points: BTreeMap<PlayerId, Vec<Score>>,
}

impl Accelerations {
    /// Virtual points of `player` in `round` (1-based); 0 when none.
    pub fn get(&self, player: PlayerId, round: u32) -> Score {
        let Some(i) = usize::try_from(round).ok().and_then(|r| r.checked_sub(1)) else {
            return Score::ZERO;
        };
        self.points
            .get(&player)
            .and_then(|v| v.get(i))
            .copied()
            .unwrap_or(Score::ZERO)
    }
    /// No player has any virtual points.
    pub fn is_empty(&self) -> bool {
        self.points
            .values()
            .all(|v| v.iter().all(|&s| s == Score::ZERO))
    }
}

/// A sum of tenths as a [`Score`], saturating at the `i32` range.
fn clamp_score(t: i64) -> Score {
    Score(t.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32)
}

/// Candidate (win, draw) values tried when the points column contradicts 1 / ½ / 0.
fn inference_candidates() -> Vec<(i32, i32)> {
    let mut c = vec![(30, 10), (20, 10), (30, 15), (10, 0), (20, 0), (30, 0)];
    for w in (5..=50).step_by(5) {
        for d in (0..=w).step_by(5) {
            if !c.contains(&(w, d)) && (w, d) != (10, 5) {
                c.push((w, d));
            }
        }
    }
    c
}

impl TrfFile {
    /// An empty file.
    pub fn new() -> TrfFile {
        TrfFile::default()
    }

    /// The `001` records in file order.
    pub fn players(&self) -> impl Iterator<Item = &PlayerRecord> {
        self.records.iter().filter_map(|r| match r {
            Record::Player(p) => Some(p),
            _ => None,
        })
    }

    /// The `310` team records in file order.
    pub fn teams_310(&self) -> impl Iterator<Item = &crate::Team310> {
        self.records.iter().filter_map(|r| match r {
            Record::Team310(t) => Some(t),
            _ => None,
        })
    }

    /// Mutable access to the `001` records in file order.
    pub fn players_mut(&mut self) -> impl Iterator<Item = &mut PlayerRecord> {
        self.records.iter_mut().filter_map(|r| match r {
            Record::Player(p) => Some(p),
            _ => None,
        })
    }

    /// The (first) player with this start number.
    pub fn player(&self, id: PlayerId) -> Option<&PlayerRecord> {
        self.players().find(|p| p.start_number == id)
    }

    /// Mutable access to the (first) player with this start number.
    pub fn player_mut(&mut self, id: PlayerId) -> Option<&mut PlayerRecord> {
        self.players_mut().find(|p| p.start_number == id)
    }

    /// The text of the first record with this code.
    pub fn text(&self, code: TextCode) -> Option<&str> {
        self.records.iter().find_map(|r| match r {
            Record::Text(t) if t.code == code => Some(t.text.as_str()),
            _ => None,
        })
    }

    /// `012`.
    pub fn tournament_name(&self) -> Option<&str> {
        self.text(TextCode::TournamentName)
    }

    /// The writing convention the records follow: TRF-2026 when any record exists only in
    /// TRF-2026 (`###`, `142`..`222`, `240`/`250`/`260`, `299`..`802`), or when `092` holds an
    /// encoded type code (as bbpPairings v6 writes its TRF-2026 files); otherwise TRF16 with
    /// the engine extensions. A file using only records common to both is valid as either and
    /// is reported as [`Profile::Trf16X`].
    pub fn profile(&self) -> Profile {
        let is_2026 = self.records.iter().any(|r| match r {
            Record::Comment(_)
            | Record::Rounds(_)
            | Record::InitialColor(_)
            | Record::Scoring(_)
            | Record::NationalRating(_)
            | Record::Team310(_)
            | Record::TeamOrder300(_)
            | Record::TeamByes320(_)
            | Record::TeamForfeit330(_)
            | Record::Byes(_)
            | Record::Acceleration(_)
            | Record::Prohibited(_) => true,
            Record::Text(t) if t.code.is_trf2026_only() => true,
            Record::Text(t) if t.code == TextCode::TournamentType => {
                TournamentType::parse(&t.text).system.is_some()
            }
            Record::Other(line) => ["299", "801", "802"].iter().any(|c| line.starts_with(c)),
            _ => false,
        });
        if is_2026 {
            Profile::Trf2026
        } else {
            Profile::Trf16X
        }
    }

    /// The largest number of round blocks on any `001` line.
    pub fn round_columns(&self) -> u32 {
        self.players()
            .map(|p| p.rounds.len())
            .max()
            .unwrap_or(0)
            .min(u32::MAX as usize) as u32
    }

    /// The number of rounds the file states: the larger of `142` and `XXR` (`None` without
    /// either).
    pub fn declared_rounds(&self) -> Option<u32> {
        self.records
            .iter()
            .filter_map(|r| match r {
                Record::Rounds(n) | Record::Xxr(n) => Some(*n),
                _ => None,
            })
            .max()
    }

    /// Total number of rounds (docs/src/guide/files.md): the largest of `142`, `XXR`, the number of
    /// round columns and the number of `132` dates.
    pub fn total_rounds(&self) -> u32 {
        let dates = self
            .records
            .iter()
            .filter_map(|r| match r {
                Record::RoundDates(d) => Some(d.dates.len() as u32),
                _ => None,
            })
            .max()
            .unwrap_or(0);
        self.declared_rounds()
            .unwrap_or(0)
            .max(self.round_columns())
            .max(dates)
    }

    /// Whether round `round` has been paired: some player has a game (played or forfeited), the
    /// pairing-allocated bye or a forfeit win in that column.
    pub fn is_round_paired(&self, round: u32) -> bool {
        self.players().any(|p| {
            p.entry(round).is_some_and(|e| {
                e.opponent.is_some()
                    || matches!(e.result, ResultCode::PairingBye | ResultCode::ForfeitWin)
            })
        })
    }

    /// The round to pair next: 1 + the number of round columns containing at least one game
    /// or pairing-allocated bye (golden/dutch-2017/README.md; a `+` counts as a pairing too, as
    /// bbpPairings counts it). A trailing column holding only byes lists the players absent
    /// from that round; it is not counted.
    pub fn round_to_pair(&self) -> u32 {
        1 + (1..=self.round_columns())
            .filter(|&r| self.is_round_paired(r))
            .count() as u32
    }

    /// The scorer of the file's scoring records, when it has any.
    pub(crate) fn explicit_scorer(&self) -> Option<Scorer> {
        self.explicit_scorers().first().map(|&(_, s)| s)
    }

    /// The explicit scoring records present, in precedence order.
    fn explicit_scorers(&self) -> Vec<(PointSource, Scorer)> {
        let mut out = Vec::new();
        let s162: Vec<&ScoringEntry> = self
            .records
            .iter()
            .filter_map(|r| match r {
                Record::Scoring(v) => Some(v.iter()),
                _ => None,
            })
            .flatten()
            .collect();
        if !s162.is_empty() {
            out.push((PointSource::Record162, scorer_162(s162.into_iter())));
        }
        let bb: Vec<(&BbCode, &Score)> = self
            .records
            .iter()
            .filter_map(|r| match r {
                Record::Bb(c, v) => Some((c, v)),
                _ => None,
            })
            .collect();
        if !bb.is_empty() {
            out.push((PointSource::Bbp, scorer_bb(bb.into_iter())));
        }
        let xxs: Vec<&XxsEntry> = self
            .records
            .iter()
            .filter_map(|r| match r {
                Record::Xxs(v) => Some(v.iter()),
                _ => None,
            })
            .flatten()
            .collect();
        if !xxs.is_empty() {
            out.push((PointSource::Xxs, scorer_xxs(xxs.into_iter())));
        }
        out
    }

    /// The scoring records that disagree with the one in force (for warnings).
    pub(crate) fn conflicting_scoring(&self) -> Vec<PointSource> {
        let all = self.explicit_scorers();
        match all.split_first() {
            Some(((_, first), rest)) => rest
                .iter()
                .filter(|(_, s)| s.ps != first.ps)
                .map(|(src, _)| *src)
                .collect(),
            None => Vec::new(),
        }
    }

    /// First player (record index) whose points column fits neither all results nor the
    /// results before the round to pair, with the expected value.
    pub(crate) fn points_mismatch(&self, scorer: &Scorer) -> Option<(usize, Score)> {
        let rtp = self.round_to_pair();
        for (i, r) in self.records.iter().enumerate() {
            let Record::Player(p) = r else { continue };
            // Summed in i64: a hostile file can hold very many rounds of very large values.
            let mut all: i64 = 0;
            let mut before: i64 = 0;
            for (k, e) in p.rounds.iter().enumerate() {
                let v = i64::from(scorer.points(e.as_ref()).tenths());
                all += v;
                if (k as u64) + 1 < u64::from(rtp) {
                    before += v;
                }
            }
            let pts = i64::from(p.points.tenths());
            if pts != all && pts != before {
                return Some((i, clamp_score(all)));
            }
        }
        None
    }

    /// The scorer in force and where it came from.
    /// The file's point system gives a result different points with White and with Black
    /// (JaVaFo's `XXS BW=...`, `BD=...`, `BL=...`), which a [`PointSystem`] cannot say.
    pub fn has_colour_dependent_scoring(&self) -> bool {
        self.scoring().0.is_colour_dependent()
    }

    pub(crate) fn scoring(&self) -> (Scorer, PointSource) {
        if let Some(&(src, s)) = self.explicit_scorers().first() {
            return (s, src);
        }
        let default = Scorer::uniform(PointSystem::default());
        if self.points_mismatch(&default).is_none() {
            return (default, PointSource::Default);
        }
        for (w, d) in inference_candidates() {
            let s = Scorer::uniform(PointSystem::with_win_draw(Score(w), Score(d)));
            if self.points_mismatch(&s).is_none() {
                return (s, PointSource::Inferred);
            }
        }
        (default, PointSource::Default)
    }

    /// The point system: from `162`, else `BB?`, else `XXS` (JaVaFo defaults for codes not
    /// given; later values override earlier ones), else the one the points column fits when it
    /// contradicts 1 / ½ / 0 (a warning is issued at parse time), else FIDE 1 / ½ / 0. `XXS`
    /// values for black (`BW`, `BD`, `BL`) are not representable here; the white values are
    /// returned and the parser warns when they differ.
    pub fn point_system(&self) -> PointSystem {
        self.scoring().0.ps
    }

    /// Where [`TrfFile::point_system`] came from.
    pub fn point_system_source(&self) -> PointSource {
        self.scoring().1
    }

    /// The score of `player` after rounds `1..=round` under the file's point system
    /// (blank blocks score as zero-point byes; rounds beyond the line score nothing).
    pub fn score_after(&self, player: PlayerId, round: u32) -> Option<Score> {
        let p = self.player(player)?;
        let (scorer, _) = self.scoring();
        let sum: i64 = p
            .rounds
            .iter()
            .take(round as usize)
            .map(|e| i64::from(scorer.points(e.as_ref()).tenths()))
            .sum();
        Some(clamp_score(sum))
    }

    /// The initial colour the file states: `152`, else `XXC white1` / `XXC black1`.
    pub fn declared_initial_color(&self) -> Option<Color> {
        let rec152 = self.records.iter().find_map(|r| match r {
            Record::InitialColor(c) => Some(*c),
            _ => None,
        });
        rec152.or_else(|| {
            self.records.iter().find_map(|r| match r {
                Record::Xxc(opts) => opts.iter().find_map(|o| match o {
                    XxcOption::White1 => Some(Color::White),
                    XxcOption::Black1 => Some(Color::Black),
                    XxcOption::Rank => None,
                }),
                _ => None,
            })
        })
    }

    /// The colour the round-1 pairing gave the highest-ranked (lowest start number) player who
    /// was paired with a colour in round 1.
    pub fn round1_initial_color(&self) -> Option<Color> {
        self.players()
            .filter_map(|p| {
                p.entry(1)
                    .filter(|e| e.opponent.is_some())
                    .and_then(|e| e.color)
                    .map(|c| (p.start_number, c))
            })
            .min_by_key(|&(id, _)| id)
            .map(|(_, c)| c)
    }

    /// The initial colour: as declared (`152`, `XXC`), else as round 1 shows it, else `None`
    /// (an engine must then be told; it must never guess).
    pub fn initial_color(&self) -> Option<Color> {
        self.declared_initial_color()
            .or_else(|| self.round1_initial_color())
    }

    /// The encoded tournament type: `192`, else a `092` whose text is a known code (bbpPairings
    /// v6 writes `092 FIDE_DUTCH_2025`).
    pub fn tournament_type(&self) -> Option<TournamentType> {
        if let Some(t) = self.text(TextCode::EncodedType) {
            return Some(TournamentType::parse(t));
        }
        self.records.iter().find_map(|r| match r {
            Record::Text(t) if t.code == TextCode::TournamentType => {
                let tt = TournamentType::parse(&t.text);
                tt.system.is_some().then_some(tt)
            }
            _ => None,
        })
    }

    /// Virtual points for pairing. Sources, first found wins: `250` records (game points;
    /// overlapping records add up; only ids of existing players are listed), `XXA` lines (a
    /// later line for the same player replaces an earlier one), or, for a `..._BAKU` type code,
    /// the Baku acceleration of C.04.5.1 as the text states it: group A = start numbers
    /// 1..=2*ceil(n/4), accelerated rounds = the first ceil(R/2), the win value in the first
    /// ceil(half) of those and the draw value in the rest.
    pub fn accelerations(&self) -> Accelerations {
        let ids: BTreeSet<PlayerId> = self.players().map(|p| p.start_number).collect();
        let mut points: BTreeMap<PlayerId, Vec<Score>> = BTreeMap::new();
        let r250: Vec<&AccelerationRecord> = self
            .records
            .iter()
            .filter_map(|r| match r {
                Record::Acceleration(a) => Some(a),
                _ => None,
            })
            .collect();
        if !r250.is_empty() {
            for a in r250 {
                let Some(gp) = a.game_points else { continue };
                for &id in ids.range(a.first_id..=a.last_id) {
                    let v = points.entry(id).or_default();
                    let last = a.last_round as usize;
                    if v.len() < last {
                        v.resize(last, Score::ZERO);
                    }
                    for slot in v
                        .iter_mut()
                        .take(last)
                        .skip((a.first_round as usize).saturating_sub(1))
                    {
                        *slot = Score(slot.tenths().saturating_add(gp.tenths()));
                    }
                }
            }
            return Accelerations {
                source: AccelerationSource::Record250,
                points,
            };
        }
        let mut any_xxa = false;
        for r in &self.records {
            if let Record::Xxa(x) = r {
                any_xxa = true;
                points.insert(x.player, x.points.clone());
            }
        }
        if any_xxa {
            return Accelerations {
                source: AccelerationSource::Xxa,
                points,
            };
        }
        if self.tournament_type().is_some_and(|t| t.baku) {
            let ps = self.point_system();
            let n = ids.len() as u32;
            let group_a = 2 * n.div_ceil(4);
            let acc = self.total_rounds().div_ceil(2);
            let full = acc.div_ceil(2);
            let row: Vec<Score> = (1..=acc)
                .map(|r| if r <= full { ps.win } else { ps.draw })
                .collect();
            for &id in ids.range(1..=group_a) {
                points.insert(id, row.clone());
            }
            return Accelerations {
                source: AccelerationSource::ImpliedBaku,
                points,
            };
        }
        Accelerations {
            source: AccelerationSource::None,
            points,
        }
    }

    /// Players not to be paired in `round`, with the bye they get (`H`, `F`, `Z`, or `-` for a
    /// forfeit loss without opponent). Sources: the round's column (any entry without an
    /// opponent other than `U` and `+`; in rounds before [`TrfFile::round_to_pair`] also blank
    /// or missing blocks, i.e. "not paired"), `XXZ` (zero-point, for the round to pair only)
    /// and `240` records for that round. The column wins when sources disagree.
    pub fn absences(&self, round: u32) -> BTreeMap<PlayerId, ResultCode> {
        let rtp = self.round_to_pair();
        let mut out = BTreeMap::new();
        if round == 0 {
            return out;
        }
        for p in self.players() {
            match p.entry(round) {
                Some(e)
                    if e.opponent.is_none()
                        && !matches!(e.result, ResultCode::PairingBye | ResultCode::ForfeitWin) =>
                {
                    out.insert(p.start_number, e.result);
                }
                None if round < rtp => {
                    out.insert(p.start_number, ResultCode::ZeroBye);
                }
                _ => {}
            }
        }
        let ids: BTreeSet<PlayerId> = self.players().map(|p| p.start_number).collect();
        let has_entry = |id: PlayerId| self.player(id).and_then(|p| p.entry(round)).is_some();
        for r in &self.records {
            match r {
                Record::Xxz(v) if round == rtp => {
                    for &id in v {
                        if ids.contains(&id) && !has_entry(id) {
                            out.entry(id).or_insert(ResultCode::ZeroBye);
                        }
                    }
                }
                Record::Byes(b) if b.round == round => {
                    for &id in &b.ids {
                        if ids.contains(&id) && !has_entry(id) {
                            out.entry(id).or_insert(b.kind.result_code());
                        }
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// The start numbers of [`TrfFile::absences`].
    pub fn absent_players(&self, round: u32) -> BTreeSet<PlayerId> {
        self.absences(round).into_keys().collect()
    }

    /// Pairs `(a, b)`, `a < b`, that must not meet in `round`: every pair among the ids of an
    /// `XXP` line (whole event) and of each `260` record whose round range contains `round`.
    pub fn forbidden_pairs(&self, round: u32) -> BTreeSet<(PlayerId, PlayerId)> {
        let mut out = BTreeSet::new();
        let mut add = |ids: &[PlayerId]| {
            for (i, &a) in ids.iter().enumerate() {
                for &b in &ids[i + 1..] {
                    if a != b {
                        out.insert((a.min(b), a.max(b)));
                    }
                }
            }
        };
        for r in &self.records {
            match r {
                Record::Xxp(ids) => add(ids),
                Record::Prohibited(p) if (p.first_round..=p.last_round).contains(&round) => {
                    add(&p.ids)
                }
                _ => {}
            }
        }
        out
    }
}
