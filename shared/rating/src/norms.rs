//! Title norms: GM, IM, WGM and WIM norm checks (B.01 1.4, seed 001 CAPITULO VII).
//!
//! Every condition is reported with its actual value, its requirement, whether it passes and by
//! how much it fails. Rule-set: `b01-2023-seed-text` (unrated opponents count as 1000).

use crate::num::{Hundredths, ceil_div, round_half_up};
use crate::tables::{dp, p_hundredths};
use crate::title::{Federation, Title, Titles};
use arbiter_core::{PlayerId, ResultCode, Score};
use std::fmt;

/// The rule-set identifier of this module's regulations.
pub const NORM_RULE_SET: &str = "b01-2023-seed-text";

/// A title norm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NormKind {
    GM,
    IM,
    WGM,
    WIM,
}

impl NormKind {
    pub const ALL: [NormKind; 4] = [NormKind::GM, NormKind::IM, NormKind::WGM, NormKind::WIM];

    pub fn code(self) -> &'static str {
        self.title().code()
    }
    pub fn from_code(s: &str) -> Option<NormKind> {
        NormKind::ALL
            .into_iter()
            .find(|n| n.code().eq_ignore_ascii_case(s.trim()))
    }
    /// The title the norm is for.
    pub fn title(self) -> Title {
        match self {
            NormKind::GM => Title::GM,
            NormKind::IM => Title::IM,
            NormKind::WGM => Title::WGM,
            NormKind::WIM => Title::WIM,
        }
    }
    /// Minimum performance (B.01 1.4.8, after rounding).
    pub fn min_rp(self) -> i32 {
        match self {
            NormKind::GM => 2600,
            NormKind::IM => 2450,
            NormKind::WGM => 2400,
            NormKind::WIM => 2250,
        }
    }
    /// Minimum average rating of the opponents (B.01 1.4.8 a-d, after 1.4.6 adjustments).
    pub fn min_ra(self) -> i32 {
        match self {
            NormKind::GM => 2380,
            NormKind::IM => 2230,
            NormKind::WGM => 2180,
            NormKind::WIM => 2030,
        }
    }
    /// Rating floor: the lowest opponent, if below, is raised to it (B.01 1.4.6b-c).
    pub fn rating_floor(self) -> i32 {
        match self {
            NormKind::GM => 2200,
            NormKind::IM => 2050,
            NormKind::WGM => 2000,
            NormKind::WIM => 1850,
        }
    }
    /// The titles that count for the "MO" third of the opponents (B.01 1.4.5 b-e).
    pub fn mo_titles(self) -> &'static [Title] {
        match self {
            NormKind::GM => &[Title::GM],
            NormKind::IM => &[Title::IM, Title::GM],
            NormKind::WGM => &[Title::WGM, Title::IM, Title::GM],
            NormKind::WIM => &[Title::WIM, Title::WGM, Title::IM, Title::GM],
        }
    }
    pub fn women_only(self) -> bool {
        matches!(self, NormKind::WGM | NormKind::WIM)
    }
    /// The rating needed at some time for the title once the norms are complete (1.5.3).
    pub fn title_rating(self) -> i32 {
        match self {
            NormKind::GM => 2500,
            NormKind::IM => 2400,
            NormKind::WGM => 2300,
            NormKind::WIM => 2200,
        }
    }
}

impl fmt::Display for NormKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.code())
    }
}

/// Minimum score as a percentage, compared on the exact fraction (B.01 1.4.8).
pub const MIN_SCORE_PERCENT: i64 = 35;
/// Events longer than this count as this many rounds (B.01 1.7).
pub const MAX_COUNTED_ROUNDS: u32 = 13;

/// The per-game-count limits of B.01 1.4.1, 1.4.4, 1.4.5 and 1.4.8 (the annex rows).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NormLimits {
    pub min_games: u32,
    /// At least 35% of the games, in whole half points.
    pub min_score: Score,
    /// Title holders: `ceil(n / 2)`.
    pub th_min: u32,
    /// Opponents with the norm's titles: `max(3, ceil(n / 3))`.
    pub mo_min: u32,
    /// Opponents of the applicant's federation: `floor(3n / 5)`.
    pub own_fed_max: u32,
    /// Opponents of any one federation: `floor(2n / 3)`.
    pub one_fed_max: u32,
    /// Federations other than the applicant's: 2.
    pub other_feds_min: u32,
}

impl NormLimits {
    /// Limits for `n` games (`opponents` distinct opponents: equal to `n` except in double
    /// round robins, where each opponent counts once, 1.4.5f).
    pub fn new(n: u32, opponents: u32, min_games: u32) -> NormLimits {
        let o = i64::from(opponents);
        NormLimits {
            min_games,
            min_score: Score((5 * ceil_div(2 * MIN_SCORE_PERCENT * i64::from(n), 100)) as i32),
            th_min: ceil_div(o, 2) as u32,
            mo_min: (ceil_div(o, 3) as u32).max(3),
            own_fed_max: (3 * opponents) / 5,
            one_fed_max: (2 * opponents) / 3,
            other_feds_min: 2,
        }
    }
}

/// An opponent as the norm check needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NormOpponent {
    /// Identifies the opponent (double round robins count each opponent's title once).
    pub id: PlayerId,
    pub federation: Federation,
    pub titles: Titles,
    /// Rating from the list in force at the start (1.4.6a); `None` if unrated.
    pub rating: Option<u16>,
}

/// Why a game is left out of a norm (B.01 1.4.2) beyond what its result code shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Exclusion {
    /// The opponent's federation is not a FIDE member (1.4.2a).
    NonFideFederation,
    /// Round robin: an unrated opponent who scored zero against the rated players (1.4.2b).
    UnratedZeroScorer,
    /// Decided by sanction or otherwise not over the board (1.4.2c).
    NotOverTheBoard,
}

/// One round of the applicant, from their side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NormRound {
    pub round: u32,
    pub result: ResultCode,
    /// The scheduled opponent (also for forfeits); `None` for byes and absences.
    pub opponent: Option<NormOpponent>,
    pub exclusion: Option<Exclusion>,
}

/// Why a round is not counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NotCounted {
    /// Forfeit, bye, absence, or a game of less than one move (1.4.2c).
    NotPlayed,
    Excluded(Exclusion),
}

/// The event facts that change the norm rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct NormEvent {
    pub scheduled_rounds: u32,
    /// Round robins and other pre-determined pairings: no ignoring of later rounds (1.4.1e).
    pub predetermined_pairings: bool,
    /// Each opponent's title and federation count once (1.4.5f).
    pub double_round_robin: bool,
    /// Exempt from the foreign-opponent rules (1.4.3a-d: national final, national team
    /// championship, zonal/subzonal, qualifying Swiss).
    pub foreign_exemption: bool,
    /// Minimum games (1.4.1a: 9; 1.4.1b: 7 or 8 for team championships, 8 for the World Cup).
    pub min_games: u32,
    /// Games a norm of `min_games` counts as (1.4.1b: the World Cup's 8 count as 9).
    pub min_games_count_as: u32,
    /// Value of unrated opponents (1.4.6d: 1000).
    pub unrated_opponent_rating: u16,
}

impl NormEvent {
    /// A Swiss (or other event without pre-determined pairings) of `rounds` rounds.
    pub fn swiss(rounds: u32) -> NormEvent {
        NormEvent {
            scheduled_rounds: rounds,
            predetermined_pairings: false,
            double_round_robin: false,
            foreign_exemption: false,
            min_games: 9,
            min_games_count_as: 9,
            unrated_opponent_rating: 1000,
        }
    }
    /// A single round robin of `rounds` rounds.
    pub fn round_robin(rounds: u32) -> NormEvent {
        NormEvent {
            predetermined_pairings: true,
            ..NormEvent::swiss(rounds)
        }
    }
}

/// The conditions of a norm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ConditionKind {
    /// 1.4.1: number of games.
    Games,
    /// 1.4.8: at least 35% (exact fraction).
    Score,
    /// 1.4.8: minimum average rating of the opponents.
    AverageRating,
    /// 1.4.8: minimum performance.
    Performance,
    /// 1.4.5a: at least half the opponents title holders.
    TitleHolders,
    /// 1.4.5b-e: a third of the opponents (at least 3) with the norm's titles.
    NormTitleHolders,
    /// 1.4.4: at most 3/5 from the applicant's federation.
    OwnFederation,
    /// 1.4.4: at most 2/3 from any one federation.
    OneFederation,
    /// 1.4.3: at least two federations other than the applicant's.
    OtherFederations,
}

impl ConditionKind {
    pub fn name(self) -> &'static str {
        match self {
            ConditionKind::Games => "games",
            ConditionKind::Score => "score",
            ConditionKind::AverageRating => "Ra",
            ConditionKind::Performance => "Rp",
            ConditionKind::TitleHolders => "title holders",
            ConditionKind::NormTitleHolders => "norm titles",
            ConditionKind::OwnFederation => "own federation",
            ConditionKind::OneFederation => "one federation",
            ConditionKind::OtherFederations => "other federations",
        }
    }
    /// A maximum (`actual <= required`) rather than a minimum.
    pub fn is_maximum(self) -> bool {
        matches!(
            self,
            ConditionKind::OwnFederation | ConditionKind::OneFederation
        )
    }
}

/// One condition's outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Condition {
    pub kind: ConditionKind,
    /// The value achieved (score in tenths of a point; ratings in points; else counts).
    pub actual: i64,
    /// The minimum or maximum required, same unit.
    pub required: i64,
    pub pass: bool,
    /// Passed by exemption (1.4.3a-d) rather than on the numbers.
    pub exempt: bool,
}

impl Condition {
    fn min(kind: ConditionKind, actual: i64, required: i64) -> Condition {
        Condition {
            kind,
            actual,
            required,
            pass: actual >= required,
            exempt: false,
        }
    }
    fn max(kind: ConditionKind, actual: i64, required: i64) -> Condition {
        Condition {
            kind,
            actual,
            required,
            pass: actual <= required,
            exempt: false,
        }
    }
    /// By how much the condition fails (0 when it passes), in its unit: points short, games
    /// short, opponents too many, ...
    pub fn shortfall(&self) -> i64 {
        if self.pass {
            0
        } else if self.kind.is_maximum() {
            self.actual - self.required
        } else {
            self.required - self.actual
        }
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |v: i64| -> String {
            if self.kind == ConditionKind::Score {
                Score(v as i32).to_string()
            } else {
                v.to_string()
            }
        };
        let op = match (self.kind.is_maximum(), self.pass) {
            (true, true) => "<=",
            (true, false) => ">",
            (false, true) => ">=",
            (false, false) => "<",
        };
        write!(
            f,
            "{} {} {} {}",
            self.kind.name(),
            show(self.actual),
            op,
            show(self.required)
        )?;
        if self.exempt {
            write!(f, " (exempt)")?;
        } else if !self.pass {
            write!(f, ": off by {}", show(self.shortfall()))?;
        }
        Ok(())
    }
}

/// The one opponent raised to the rating floor (1.4.6c).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FloorAdjustment {
    pub round: Option<u32>,
    /// The value before (1000 for an unrated opponent).
    pub from: i32,
    pub to: i32,
}

/// The lowest-valued opponent of a set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Lowest {
    pub value: i32,
    pub round: Option<u32>,
}

/// Aggregated opponent data of a set of games, for one norm. Built by [`NormTally::from_rounds`],
/// or directly when only aggregates are known (e.g. a worked example giving a rating sum).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NormTally {
    pub games: u32,
    /// Distinct opponents (equal to `games` except in double round robins).
    pub opponents: u32,
    pub points: Score,
    /// Sum of the opponents' ratings, unrated ones at their 1.4.6d value, before the floor.
    pub rating_sum: i64,
    /// The lowest-valued opponent, for the floor; `None` means "none below any floor".
    pub lowest: Option<Lowest>,
    pub unrated: u32,
    pub title_holders: u32,
    pub norm_titles: u32,
    pub own_federation: u32,
    /// Opponents per federation (FIDE flag excluded), sorted by federation.
    pub federations: Vec<(Federation, u32)>,
}

impl NormTally {
    /// The counted games of `rounds` (callers filter exclusions first).
    pub fn from_rounds<'a, I>(
        norm: NormKind,
        applicant: Federation,
        event: &NormEvent,
        rounds: I,
    ) -> NormTally
    where
        I: IntoIterator<Item = (&'a NormOpponent, Score, u32)>,
    {
        let mut t = NormTally::default();
        let mut seen: Vec<PlayerId> = Vec::new();
        for (o, score, round) in rounds {
            t.games += 1;
            t.points += score;
            let value = o
                .rating
                .map_or(i32::from(event.unrated_opponent_rating), i32::from);
            t.rating_sum += i64::from(value);
            if o.rating.is_none() {
                t.unrated += 1;
            }
            if t.lowest.is_none_or(|l| value < l.value) {
                t.lowest = Some(Lowest {
                    value,
                    round: Some(round),
                });
            }
            if event.double_round_robin {
                if seen.contains(&o.id) {
                    continue;
                }
                seen.push(o.id);
            }
            t.add_identity(norm, applicant, o.federation, o.titles);
        }
        t
    }

    /// Counts one opponent's titles and federation.
    pub fn add_identity(
        &mut self,
        norm: NormKind,
        applicant: Federation,
        fed: Federation,
        titles: Titles,
    ) {
        self.opponents += 1;
        if titles.is_title_holder() {
            self.title_holders += 1;
        }
        if titles.any_of(norm.mo_titles()) {
            self.norm_titles += 1;
        }
        if fed.is_fide_flag() {
            return;
        }
        if fed == applicant {
            self.own_federation += 1;
        }
        match self.federations.binary_search_by(|(f, _)| f.cmp(&fed)) {
            Ok(i) => self.federations[i].1 += 1,
            Err(i) => self.federations.insert(i, (fed, 1)),
        }
    }

    /// The rating sum after raising the lowest opponent to `floor` (1.4.6b-c), if any.
    pub fn adjusted_sum(&self, floor: Option<i32>) -> (i64, Option<FloorAdjustment>) {
        match (floor, self.lowest) {
            (Some(fl), Some(l)) if l.value < fl => (
                self.rating_sum + i64::from(fl - l.value),
                Some(FloorAdjustment {
                    round: l.round,
                    from: l.value,
                    to: fl,
                }),
            ),
            _ => (self.rating_sum, None),
        }
    }

    /// `Ra` (1.4.7): the (floor-adjusted) average, nearest integer, 0.5 up. 0 for no games.
    pub fn ra(&self, floor: Option<i32>) -> i32 {
        if self.games == 0 {
            return 0;
        }
        round_half_up(self.adjusted_sum(floor).0, i64::from(self.games)) as i32
    }

    /// The most opponents from one federation, and which (first in code order on a tie).
    pub fn max_one_federation(&self) -> (Option<Federation>, u32) {
        self.federations.iter().fold(
            (None, 0),
            |best, &(f, c)| if c > best.1 { (Some(f), c) } else { best },
        )
    }

    /// Federations other than the applicant's (FIDE flag excluded).
    pub fn other_federations(&self, applicant: Federation) -> u32 {
        self.federations
            .iter()
            .filter(|(f, _)| *f != applicant)
            .count() as u32
    }
}

/// The outcome of checking one set of games for one norm.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NormCheck {
    pub norm: NormKind,
    /// Rounds counted.
    pub rounds: Vec<u32>,
    /// Counted-eligible rounds left out by the applicant's choice (1.4.1e/f).
    pub ignored_rounds: Vec<u32>,
    /// Rounds not counted under 1.4.2.
    pub not_counted: Vec<(u32, NotCounted)>,
    pub games: u32,
    /// Games the norm counts as towards the 27 (1.4.1b/c/d, capped by 1.7); 0 if invalid.
    pub counts_as: u32,
    pub score: Score,
    pub sum_raw: i64,
    pub floor_adjustment: Option<FloorAdjustment>,
    pub sum_adjusted: i64,
    pub ra: i32,
    pub p: Hundredths,
    pub dp: i32,
    pub rp: i32,
    pub unrated_opponents: u32,
    pub title_holders: u32,
    pub norm_titles: u32,
    pub own_federation: u32,
    pub max_one_federation: u32,
    pub max_one_federation_code: Option<Federation>,
    pub other_federations: u32,
    pub limits: NormLimits,
    /// Least score giving the norm at this `Ra` (None if `Ra` is below the minimum).
    pub score_needed: Option<Score>,
    /// 1.4.1c applied: 8 games of a 9-round event counted as 9.
    pub short_event_rule: bool,
    /// 1.4.2c last-round no-show counted as a loss.
    pub last_round_forfeit_as_loss: bool,
    pub conditions: Vec<Condition>,
    pub valid: bool,
}

impl NormCheck {
    pub fn condition(&self, kind: ConditionKind) -> Option<&Condition> {
        self.conditions.iter().find(|c| c.kind == kind)
    }
    pub fn failed(&self) -> impl Iterator<Item = &Condition> {
        self.conditions.iter().filter(|c| !c.pass)
    }
}

/// The least score (half-point steps) that gives `norm` in `n` games at average `ra`, with at
/// least 35%; `None` if `ra` is below the minimum or no score suffices.
pub fn score_needed(norm: NormKind, n: u32, ra: i32) -> Option<Score> {
    if n == 0 || ra < norm.min_ra() {
        return None;
    }
    let min = NormLimits::new(n, n, 0).min_score.tenths();
    (min..=10 * n as i32)
        .step_by(5)
        .find(|&t| ra + dp(p_hundredths(t, n)) >= norm.min_rp())
        .map(Score)
}

/// Checks a tally against `norm` (the arithmetic core of every check).
///
/// # Panics
/// If the tally's points are negative or exceed one per game.
pub fn check_tally(
    norm: NormKind,
    applicant: Federation,
    tally: &NormTally,
    event: &NormEvent,
) -> NormCheck {
    check_tally_with(norm, applicant, tally, event, event.min_games)
}

fn check_tally_with(
    norm: NormKind,
    applicant: Federation,
    t: &NormTally,
    event: &NormEvent,
    min_games: u32,
) -> NormCheck {
    let n = t.games;
    let limits = NormLimits::new(n, t.opponents, min_games);
    let (sum_adjusted, floor_adjustment) = t.adjusted_sum(Some(norm.rating_floor()));
    let (ra, p, d) = if n == 0 {
        (0, Hundredths(0), 0)
    } else {
        let ra = round_half_up(sum_adjusted, i64::from(n)) as i32;
        let p = p_hundredths(t.points.tenths(), n);
        (ra, p, dp(p))
    };
    let rp = ra + d;
    let (max_code, max_one) = t.max_one_federation();
    let other = t.other_federations(applicant);
    let ex = event.foreign_exemption;
    let fed = |mut c: Condition| {
        if ex && !c.pass {
            c.pass = true;
            c.exempt = true;
        }
        c
    };
    use ConditionKind as K;
    let conditions = vec![
        Condition::min(K::Games, i64::from(n), i64::from(min_games)),
        Condition::min(
            K::Score,
            i64::from(t.points.tenths()),
            i64::from(limits.min_score.tenths()),
        ),
        Condition::min(K::AverageRating, i64::from(ra), i64::from(norm.min_ra())),
        Condition::min(K::Performance, i64::from(rp), i64::from(norm.min_rp())),
        Condition::min(
            K::TitleHolders,
            i64::from(t.title_holders),
            i64::from(limits.th_min),
        ),
        Condition::min(
            K::NormTitleHolders,
            i64::from(t.norm_titles),
            i64::from(limits.mo_min),
        ),
        fed(Condition::max(
            K::OwnFederation,
            i64::from(t.own_federation),
            i64::from(limits.own_fed_max),
        )),
        fed(Condition::max(
            K::OneFederation,
            i64::from(max_one),
            i64::from(limits.one_fed_max),
        )),
        fed(Condition::min(
            K::OtherFederations,
            i64::from(other),
            i64::from(limits.other_feds_min),
        )),
    ];
    let valid = n > 0 && conditions.iter().all(|c| c.pass);
    let needed = score_needed(norm, n, ra);
    let counts_as = if valid {
        let base = if n == min_games {
            event.min_games_count_as.max(n)
        } else {
            n
        };
        let extra = needed.map_or(0, |s| ((t.points.tenths() - s.tenths()) / 10).max(0) as u32);
        (base + extra).min(MAX_COUNTED_ROUNDS)
    } else {
        0
    };
    NormCheck {
        norm,
        rounds: Vec::new(),
        ignored_rounds: Vec::new(),
        not_counted: Vec::new(),
        games: n,
        counts_as,
        score: t.points,
        sum_raw: t.rating_sum,
        floor_adjustment,
        sum_adjusted,
        ra,
        p,
        dp: d,
        rp,
        unrated_opponents: t.unrated,
        title_holders: t.title_holders,
        norm_titles: t.norm_titles,
        own_federation: t.own_federation,
        max_one_federation: max_one,
        max_one_federation_code: max_code,
        other_federations: other,
        limits,
        score_needed: needed,
        short_event_rule: false,
        last_round_forfeit_as_loss: false,
        conditions,
        valid,
    }
}

/// The score of a counted game (1 / ½ / 0).
fn game_score(r: ResultCode) -> Option<Score> {
    match r {
        ResultCode::Win => Some(Score::ONE),
        ResultCode::Draw => Some(Score::HALF),
        ResultCode::Loss => Some(Score::ZERO),
        _ => None,
    }
}

/// Splits rounds into counted games (sorted by round) and the 1.4.2 exclusions.
/// A counted game: opponent, score, round.
type Counted = (NormOpponent, Score, u32);

fn partition(rounds: &[NormRound]) -> (Vec<Counted>, Vec<(u32, NotCounted)>) {
    let mut counted = Vec::new();
    let mut not = Vec::new();
    let mut sorted: Vec<&NormRound> = rounds.iter().collect();
    sorted.sort_by_key(|r| r.round);
    for r in sorted {
        match (game_score(r.result), r.opponent, r.exclusion) {
            (_, _, Some(e)) => not.push((r.round, NotCounted::Excluded(e))),
            (Some(s), Some(o), None) => counted.push((o, s, r.round)),
            _ => not.push((r.round, NotCounted::NotPlayed)),
        }
    }
    (counted, not)
}

/// 1.4.1c: a 9-round event where the applicant has 8 games because an opponent failed to
/// appear or they received the pairing-allocated bye, and never defaulted or asked for a bye.
fn short_event_rule_applies(event: &NormEvent, rounds: &[NormRound], counted: usize) -> bool {
    if event.scheduled_rounds != 9 || counted != 8 {
        return false;
    }
    let own_fault = rounds.iter().any(|r| {
        matches!(
            r.result,
            ResultCode::ForfeitLoss
                | ResultCode::HalfBye
                | ResultCode::FullBye
                | ResultCode::ZeroBye
        )
    });
    let excused = rounds
        .iter()
        .any(|r| matches!(r.result, ResultCode::ForfeitWin | ResultCode::PairingBye));
    excused && !own_fault
}

fn check_subset(
    norm: NormKind,
    applicant: Federation,
    event: &NormEvent,
    counted: &[Counted],
    keep: &dyn Fn(usize) -> bool,
    min_games: u32,
) -> NormCheck {
    let tally = NormTally::from_rounds(
        norm,
        applicant,
        event,
        counted
            .iter()
            .enumerate()
            .filter(|(i, _)| keep(*i))
            .map(|(_, (o, s, r))| (o, *s, *r)),
    );
    let mut c = check_tally_with(norm, applicant, &tally, event, min_games);
    for (i, g) in counted.iter().enumerate() {
        if keep(i) {
            c.rounds.push(g.2);
        } else {
            c.ignored_rounds.push(g.2);
        }
    }
    c
}

/// Checks every counted game of the applicant (1.4.2 exclusions applied, nothing ignored).
pub fn check_norm(
    norm: NormKind,
    applicant: Federation,
    rounds: &[NormRound],
    event: &NormEvent,
) -> NormCheck {
    check_norm_ignoring(norm, applicant, rounds, event, &[])
}

/// Checks the counted games minus the rounds in `ignore` (1.4.1e/f as chosen by the caller;
/// this function does not verify that the ignored games were wins or later rounds).
pub fn check_norm_ignoring(
    norm: NormKind,
    applicant: Federation,
    rounds: &[NormRound],
    event: &NormEvent,
    ignore: &[u32],
) -> NormCheck {
    let (counted, not) = partition(rounds);
    let kept = counted.iter().filter(|g| !ignore.contains(&g.2)).count();
    let short = ignore.is_empty() && short_event_rule_applies(event, rounds, kept);
    let min = if short { 8 } else { event.min_games };
    let mut c = check_subset(
        norm,
        applicant,
        event,
        &counted,
        &|i| !ignore.contains(&counted[i].2),
        min,
    );
    c.not_counted = not;
    if short {
        c.short_event_rule = true;
        if c.valid {
            c.counts_as = c.counts_as.max(9);
        }
    }
    c
}

/// The outcome of looking for the best valid norm in a player's results.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NormSearch {
    /// All counted games.
    pub full: NormCheck,
    /// The best valid set (largest `n`, then highest `Rp`), if any; may equal `full`.
    pub best: Option<NormCheck>,
    /// Sets evaluated.
    pub evaluated: u64,
    /// The search stopped at [`MAX_SETS`] before trying every set.
    pub truncated: bool,
}

/// The most candidate sets [`find_norm`] evaluates.
pub const MAX_SETS: u64 = 1 << 20;

/// Looks for a valid norm: all counted games, then (unless pairings were pre-determined) every
/// prefix of rounds (1.4.1e), each with any subset of won games removed (1.4.1f), keeping at least
/// the minimum games; prefers the largest number of games, then the highest `Rp` (the search of
/// docs/src/auditors/agreement.md). Also applies 1.4.1c (9-round event, 8 games) and the 1.4.2c
/// last-round no-show (counted as a loss when the player only needed the game for the count).
pub fn find_norm(
    norm: NormKind,
    applicant: Federation,
    rounds: &[NormRound],
    event: &NormEvent,
) -> NormSearch {
    let full = check_norm(norm, applicant, rounds, event);
    let (counted, not) = partition(rounds);
    let mut evaluated = 1u64;
    let mut truncated = false;
    if full.valid {
        return NormSearch {
            best: Some(full.clone()),
            full,
            evaluated,
            truncated,
        };
    }
    let len = counted.len();
    let min = event.min_games as usize;
    let mut best: Option<NormCheck> = None;
    'sizes: for n in (min.max(1)..=len).rev() {
        let lengths: Vec<usize> = if event.predetermined_pairings {
            vec![len]
        } else {
            (n..=len).rev().collect()
        };
        for l in lengths {
            let wins: Vec<usize> = (0..l).filter(|&i| counted[i].1 == Score::ONE).collect();
            let drop = l - n;
            if drop > wins.len() {
                continue;
            }
            // Every combination of `drop` wins among `wins`.
            let mut idx: Vec<usize> = (0..drop).collect();
            loop {
                if evaluated >= MAX_SETS {
                    truncated = true;
                    break 'sizes;
                }
                evaluated += 1;
                let dropped: Vec<usize> = idx.iter().map(|&j| wins[j]).collect();
                let keep = |i: usize| i < l && !dropped.contains(&i);
                let mut c = check_subset(norm, applicant, event, &counted, &keep, event.min_games);
                if c.valid && best.as_ref().is_none_or(|b| c.rp > b.rp) {
                    c.not_counted = not.clone();
                    best = Some(c);
                }
                if !next_combination(&mut idx, wins.len()) {
                    break;
                }
            }
        }
        if best.is_some() {
            break;
        }
    }
    if best.is_none() {
        best = last_round_forfeit(norm, applicant, rounds, event, &counted, &not);
        evaluated += 1;
    }
    NormSearch {
        full,
        best,
        evaluated,
        truncated,
    }
}

/// Advances `idx` (strictly increasing indices below `n`) to the next combination in
/// lexicographic order; `false` after the last one.
fn next_combination(idx: &mut [usize], n: usize) -> bool {
    let k = idx.len();
    for i in (0..k).rev() {
        if idx[i] < n - k + i {
            idx[i] += 1;
            for j in i + 1..k {
                idx[j] = idx[j - 1] + 1;
            }
            return true;
        }
    }
    false
}

/// 1.4.2c: the opponent did not appear in the last round and the player needed the game only
/// for the count: the norm stands if it holds with that game lost.
fn last_round_forfeit(
    norm: NormKind,
    applicant: Federation,
    rounds: &[NormRound],
    event: &NormEvent,
    counted: &[Counted],
    not: &[(u32, NotCounted)],
) -> Option<NormCheck> {
    let last = rounds.iter().max_by_key(|r| r.round)?;
    if last.result != ResultCode::ForfeitWin
        || last.exclusion.is_some()
        || last.round != event.scheduled_rounds
    {
        return None;
    }
    let opp = last.opponent?;
    let mut with_loss = counted.to_vec();
    with_loss.push((opp, Score::ZERO, last.round));
    let mut c = check_subset(
        norm,
        applicant,
        event,
        &with_loss,
        &|_| true,
        event.min_games,
    );
    if !c.valid {
        return None;
    }
    c.last_round_forfeit_as_loss = true;
    c.not_counted = not
        .iter()
        .filter(|(r, _)| *r != last.round)
        .copied()
        .collect();
    Some(c)
}

/// A band of the annex tables: the averages `Ra` for which `score` is the minimum score for the
/// norm in `games` games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct AnnexBand {
    pub score: Score,
    pub ra_from: i32,
    /// `None`: open-ended (the lowest score that reaches 35%).
    pub ra_to: Option<i32>,
}

/// The annex row for `score` in `games` games (B.01 annex, computed from 1.4.7-1.4.9):
/// `[max(Ra_min, Rp_min - dp(s/n)), Rp_min - dp((s - ½)/n) - 1]`; `None` if the score is below
/// 35% or the band is empty.
pub fn annex_band(norm: NormKind, games: u32, score: Score) -> Option<AnnexBand> {
    if games == 0 || score.tenths() % 5 != 0 || score.tenths() > 10 * games as i32 {
        return None;
    }
    let min = NormLimits::new(games, games, 0).min_score;
    if score < min {
        return None;
    }
    let from = norm
        .min_ra()
        .max(norm.min_rp() - dp(p_hundredths(score.tenths(), games)));
    let below = score - Score::HALF;
    let to = (below >= min).then(|| norm.min_rp() - dp(p_hundredths(below.tenths(), games)) - 1);
    if to.is_some_and(|t| t < from) {
        return None;
    }
    Some(AnnexBand {
        score,
        ra_from: from,
        ra_to: to,
    })
}

/// All non-empty annex rows for `games` games, highest score first.
pub fn annex_table(norm: NormKind, games: u32) -> Vec<AnnexBand> {
    (0..=2 * games as i32)
        .rev()
        .filter_map(|h| annex_band(norm, games, Score(5 * h)))
        .collect()
}

/// The rating the last opponent needs for one result of the last game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LastGameOption {
    pub result: ResultCode,
    pub total: Score,
    /// `Ra` the norm then needs.
    pub ra_needed: Option<i32>,
    /// Least opponent rating with the 1.4.7b rounding of `Ra` (0.5 up).
    pub min_rating: Option<i32>,
    /// Least opponent rating if `Ra` had to be reached without rounding.
    pub min_rating_unrounded: Option<i32>,
}

/// What the last game must bring for a norm.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LastGameNeeds {
    pub norm: NormKind,
    pub games_after: u32,
    pub limits: NormLimits,
    /// Total score needed if `Ra` ends exactly at the norm's minimum.
    pub score_needed_at_min_ra: Option<Score>,
    /// The result that gives that score.
    pub result_needed_at_min_ra: Option<ResultCode>,
    /// The opponent must hold one of these titles (MO still short); `None` if any will do.
    pub opponent_title_in: Option<&'static [Title]>,
    /// The opponent must be a title holder (TH still short).
    pub opponent_title_holder: bool,
    /// Federations the opponent may not come from (their count is at the maximum).
    pub federations_excluded: Vec<Federation>,
    /// The opponent must add a federation other than the applicant's.
    pub new_foreign_federation: bool,
    /// Conditions that one more game cannot repair.
    pub blocking: Vec<ConditionKind>,
    /// Per result (win, draw, loss): the opponent rating needed.
    pub options: Vec<LastGameOption>,
}

const MAX_SEARCH_RATING: i32 = 4000;

/// Given the tally of all games but the last, what the last game must bring for the norm
/// (e.g. seed 001 APENDICES "Algunos ejemplos ..." (2)). Assumes the last opponent is not
/// below the rating floor unless that is unavoidable (the floor is re-applied exactly).
pub fn last_game_needs(
    norm: NormKind,
    applicant: Federation,
    before: &NormTally,
    event: &NormEvent,
) -> LastGameNeeds {
    let n = before.games + 1;
    let opponents = before.opponents + 1;
    let limits = NormLimits::new(n, opponents, event.min_games);
    let mut blocking = Vec::new();
    if n < event.min_games {
        blocking.push(ConditionKind::Games);
    }
    let mo_short = limits.mo_min.saturating_sub(before.norm_titles);
    let th_short = limits.th_min.saturating_sub(before.title_holders);
    if mo_short > 1 {
        blocking.push(ConditionKind::NormTitleHolders);
    }
    if th_short > 1 {
        blocking.push(ConditionKind::TitleHolders);
    }
    let mut excluded = Vec::new();
    let ex = event.foreign_exemption;
    if !ex {
        if before.own_federation > limits.own_fed_max {
            blocking.push(ConditionKind::OwnFederation);
        } else if before.own_federation == limits.own_fed_max {
            excluded.push(applicant);
        }
        for &(f, c) in &before.federations {
            if c > limits.one_fed_max {
                blocking.push(ConditionKind::OneFederation);
            } else if c == limits.one_fed_max && !excluded.contains(&f) {
                excluded.push(f);
            }
        }
        if before.other_federations(applicant) + 1 < limits.other_feds_min {
            blocking.push(ConditionKind::OtherFederations);
        }
    }
    excluded.sort();
    let new_foreign = !ex && before.other_federations(applicant) + 1 == limits.other_feds_min;

    // Ra of the final set for a last opponent rated r (floor re-applied).
    let with = |r: i32| -> NormTally {
        let mut t = before.clone();
        t.games += 1;
        t.rating_sum += i64::from(r);
        if t.lowest.is_none_or(|l| r < l.value) {
            t.lowest = Some(Lowest {
                value: r,
                round: None,
            });
        }
        t
    };
    let least = |ok: &dyn Fn(i32) -> bool| -> Option<i32> {
        if !ok(MAX_SEARCH_RATING) {
            return None;
        }
        let (mut lo, mut hi) = (0, MAX_SEARCH_RATING);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if ok(mid) { hi = mid } else { lo = mid + 1 }
        }
        Some(lo)
    };
    let floor = Some(norm.rating_floor());
    let options = [ResultCode::Win, ResultCode::Draw, ResultCode::Loss]
        .into_iter()
        .map(|result| {
            let total = before.points + game_score(result).unwrap_or(Score::ZERO);
            let ra_needed = (total >= limits.min_score).then(|| {
                norm.min_ra()
                    .max(norm.min_rp() - dp(p_hundredths(total.tenths(), n)))
            });
            let (min_rating, min_rating_unrounded) = match ra_needed {
                None => (None, None),
                Some(req) => (
                    least(&|r| with(r).ra(floor) >= req),
                    least(&|r| with(r).adjusted_sum(floor).0 >= i64::from(req) * i64::from(n)),
                ),
            };
            LastGameOption {
                result,
                total,
                ra_needed,
                min_rating,
                min_rating_unrounded,
            }
        })
        .collect::<Vec<_>>();
    let at_min = score_needed(norm, n, norm.min_ra())
        .filter(|s| *s >= before.points && *s <= before.points + Score::ONE);
    let result_at_min = at_min.map(|s| match (s - before.points).tenths() {
        10 => ResultCode::Win,
        5 => ResultCode::Draw,
        _ => ResultCode::Loss,
    });
    LastGameNeeds {
        norm,
        games_after: n,
        limits,
        score_needed_at_min_ra: at_min,
        result_needed_at_min_ra: result_at_min,
        opponent_title_in: (mo_short == 1).then(|| norm.mo_titles()),
        opponent_title_holder: th_short == 1,
        federations_excluded: excluded,
        new_foreign_federation: new_foreign,
        blocking,
        options,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fed(s: &str) -> Federation {
        Federation::new(s).unwrap()
    }

    #[test]
    fn limits_match_annex_formulas() {
        let l = NormLimits::new(13, 13, 9);
        assert_eq!(
            (l.th_min, l.mo_min, l.own_fed_max, l.one_fed_max),
            (7, 5, 7, 8)
        );
        let l = NormLimits::new(9, 9, 9);
        assert_eq!(
            (
                l.th_min,
                l.mo_min,
                l.own_fed_max,
                l.one_fed_max,
                l.min_score
            ),
            (5, 3, 5, 6, Score(35))
        );
        // 4.5/13 = 34.6% is not enough (exact fraction).
        assert_eq!(NormLimits::new(13, 13, 9).min_score, Score(50));
        assert_eq!(NormLimits::new(10, 10, 9).min_score, Score(35));
        assert_eq!(NormLimits::new(20, 20, 9).min_score, Score(70));
    }

    #[test]
    fn annex_17_rounds_includes_6_points() {
        // The seed's 17-round table omits 6 points; the formula gives it (1.4.8: 35 %).
        let b = annex_band(NormKind::GM, 17, Score(60)).unwrap();
        assert_eq!((b.ra_from, b.ra_to), (2710, None));
        assert_eq!(
            annex_band(NormKind::IM, 17, Score(60)).unwrap().ra_from,
            2560
        );
        assert_eq!(
            annex_band(NormKind::WGM, 17, Score(60)).unwrap().ra_from,
            2510
        );
        assert_eq!(
            annex_band(NormKind::WIM, 17, Score(60)).unwrap().ra_from,
            2360
        );
        assert!(annex_band(NormKind::GM, 17, Score(55)).is_none());
        let t = annex_table(NormKind::GM, 9);
        assert_eq!(t.last().unwrap().ra_to, None);
        // Bands are contiguous.
        for w in t.windows(2) {
            assert_eq!(w[0].ra_to.unwrap() + 1, w[1].ra_from);
        }
    }

    #[test]
    fn combinations() {
        let mut idx = vec![0, 1];
        let mut seen = vec![idx.clone()];
        while next_combination(&mut idx, 4) {
            seen.push(idx.clone());
        }
        assert_eq!(
            seen,
            vec![
                vec![0, 1],
                vec![0, 2],
                vec![0, 3],
                vec![1, 2],
                vec![1, 3],
                vec![2, 3]
            ]
        );
        let mut empty: Vec<usize> = vec![];
        assert!(!next_combination(&mut empty, 3));
    }

    #[test]
    fn score_needed_at_ra() {
        assert_eq!(score_needed(NormKind::GM, 9, 2476), Some(Score(60)));
        assert_eq!(score_needed(NormKind::GM, 9, 2379), None);
        assert_eq!(score_needed(NormKind::GM, 9, 2380), Some(Score(70))); // .78 -> 220
    }

    fn opp(id: u32, f: &str, t: Option<Title>, r: Option<u16>) -> NormOpponent {
        NormOpponent {
            id,
            federation: fed(f),
            titles: Titles::single(t),
            rating: r,
        }
    }

    #[test]
    fn fide_flag_is_never_foreign_and_unrated_count_1000() {
        let ev = NormEvent::swiss(9);
        let games: Vec<NormRound> = (1..=9)
            .map(|i| NormRound {
                round: i,
                result: ResultCode::Draw,
                opponent: Some(opp(
                    i,
                    if i <= 2 { "FID" } else { "ESP" },
                    None,
                    if i == 9 { None } else { Some(2300) },
                )),
                exclusion: None,
            })
            .collect();
        let c = check_norm(NormKind::IM, fed("ESP"), &games, &ev);
        assert_eq!(c.other_federations, 0);
        assert_eq!(c.own_federation, 7);
        assert_eq!(c.unrated_opponents, 1);
        // Unrated opponent valued 1000, the lowest, raised to the IM floor 2050.
        assert_eq!(
            c.floor_adjustment,
            Some(FloorAdjustment {
                round: Some(9),
                from: 1000,
                to: 2050
            })
        );
        assert_eq!(c.sum_adjusted, 8 * 2300 + 2050);
        assert!(!c.valid);
        let own = c.condition(ConditionKind::OwnFederation).unwrap();
        assert_eq!((own.pass, own.shortfall()), (false, 2));
    }

    #[test]
    fn exemption_passes_federation_rules() {
        let ev = NormEvent {
            foreign_exemption: true,
            ..NormEvent::swiss(9)
        };
        let games: Vec<NormRound> = (1..=9)
            .map(|i| NormRound {
                round: i,
                result: ResultCode::Win,
                opponent: Some(opp(i, "ESP", Some(Title::GM), Some(2500))),
                exclusion: None,
            })
            .collect();
        let c = check_norm(NormKind::GM, fed("ESP"), &games, &ev);
        assert!(c.valid);
        assert!(c.condition(ConditionKind::OwnFederation).unwrap().exempt);
        // 9/9 with the norm needing 6 at Ra 2500: 3 extra whole points -> counts as 12.
        assert_eq!(c.score_needed, Some(Score(60)));
        assert_eq!(c.counts_as, 12);
    }
}
