//! The tournament as folded from its events, and the views other parts of the system read.
//!
//! Players are kept by [`EntryId`] (order of registration), which never changes; the pairing
//! number of each player is the position in the current ranking list. Every view answers in
//! current pairing numbers.

use super::error::DomainError;
use super::event::{PairingFailed, PairingProposed, TournamentCreated};
use super::types::{
    Acceleration, Board, BoardResult, ByeKind, EntryId, PairingSystem, Player, Unpaired,
    VirtualValue,
};
use crate::{Color, PlayerId, PointSystem, ResultCode, RoundEntry, Score};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The most players a tournament may have (TRF pairing numbers have four digits).
pub const MAX_PLAYERS: u32 = 9999;
/// The most rounds a tournament may have.
pub const MAX_ROUNDS: u32 = 99;

/// Where a round is in its life: started → requested → proposed (or failed) → published →
/// closed. `Started` only lasts until the `PairingRequested` written with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum RoundPhase {
    Started,
    Requested,
    Proposed,
    Failed,
    Published,
    Closed,
}

impl RoundPhase {
    /// Waiting for (or holding an unpublished) pairing.
    pub fn is_pending(self) -> bool {
        matches!(
            self,
            RoundPhase::Started | RoundPhase::Requested | RoundPhase::Proposed | RoundPhase::Failed
        )
    }
}

impl fmt::Display for RoundPhase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RoundPhase::Started => "started",
            RoundPhase::Requested => "waiting for a pairing",
            RoundPhase::Proposed => "proposed",
            RoundPhase::Failed => "failed to pair",
            RoundPhase::Published => "published",
            RoundPhase::Closed => "closed",
        })
    }
}

/// Whether a player is to be paired in a round, and if not, what his line carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Availability {
    Available,
    /// A requested bye (C.05 §6.7.4).
    Bye(ByeKind),
    /// Known in advance not to play (C.04.2.D.4).
    Absent,
    /// Withdrawn (C.04.2.D.3).
    Withdrawn {
        from_round: u32,
    },
    /// No fair-play consent in an event that requires it (E.04 Appendix I J): not paired,
    /// zero points.
    ConsentMissing,
    /// A round before a late entry (C.04.2.C.2), with the code it scores.
    NotEntered {
        first_round: u32,
        code: ResultCode,
    },
}

impl Availability {
    pub fn is_available(self) -> bool {
        self == Availability::Available
    }

    /// The code of an unpaired player's line; `None` for an available player.
    pub fn unpaired_code(self) -> Option<ResultCode> {
        match self {
            Availability::Available => None,
            Availability::Bye(k) => Some(k.code()),
            Availability::Absent
            | Availability::Withdrawn { .. }
            | Availability::ConsentMissing => Some(ResultCode::ZeroBye),
            Availability::NotEntered { code, .. } => Some(code),
        }
    }
}

impl fmt::Display for Availability {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Availability::Available => f.write_str("available"),
            Availability::Bye(k) => write!(f, "{k} requested"),
            Availability::Absent => f.write_str("declared absent"),
            Availability::ConsentMissing => {
                f.write_str("without the fair-play consent (E.04 Appendix I J)")
            }
            Availability::Withdrawn { from_round } => {
                write!(f, "withdrawn from round {from_round}")
            }
            Availability::NotEntered { first_round, .. } => {
                write!(f, "enters at round {first_round}")
            }
        }
    }
}

/// What a result correction changes (C.04.2.D.8), fixed by when it is written:
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CorrectionEffect {
    /// Before the next round is paired: standings and the next pairing use the corrected result
    /// (a pairing of the next round already requested is requested again).
    NextPairing,
    /// After the next pairing, before the end of that round: the published pairing stands; the
    /// correction counts for pairings made afterwards and for the standings.
    LaterPairings,
    /// After the end of the next round (or of the tournament): pairings and standings go on as
    /// if the recorded result were right; the correction counts for rating only.
    FinalEvaluationOnly,
}

/// A result correction as folded, with the effect it had.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CorrectionRecord {
    pub round: u32,
    pub board: u32,
    pub previous: BoardResult,
    pub corrected: BoardResult,
    pub reason: String,
    pub effect: CorrectionEffect,
}

/// A board whose result counts one way for standings and pairings and another for rating: a
/// correction written after the end of the next round (C.04.2 D.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RatingOnlyCorrection {
    pub round: u32,
    pub board: u32,
    pub white: PlayerId,
    pub black: PlayerId,
    /// The result standings and later pairings keep.
    pub standings: BoardResult,
    /// The result rating uses ([`State::final_entry`]).
    pub rating: BoardResult,
    /// The round whose end the correction came after; `None` when `round` was the last one
    /// played (it came after the tournament).
    pub after_round: Option<u32>,
}

impl RatingOnlyCorrection {
    /// The note pages and the command line show ([`rating_only_note`]).
    pub fn note(&self) -> String {
        rating_only_note(self.after_round, self.standings, self.rating)
    }

    /// Whether player `pn` sat at this board.
    pub fn involves(&self, pn: PlayerId) -> bool {
        self.white == pn || self.black == pn
    }
}

/// The words for a result that counts for rating only, results written White first: "result
/// corrected after round 3 ended: counts as 1-0 for standings, ½-½ for rating (C.04.2 D.8)".
/// `after_round` is `None` when the correction came after the last round.
pub fn rating_only_note(
    after_round: Option<u32>,
    standings: impl fmt::Display,
    rating: impl fmt::Display,
) -> String {
    let when = match after_round {
        Some(n) => format!("after round {n} ended"),
        None => "after the tournament ended".to_string(),
    };
    format!(
        "result corrected {when}: counts as {standings} for standings, {rating} for rating (C.04.2 D.8)"
    )
}

/// A withdrawal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Withdrawal {
    pub from_round: u32,
    pub reason: String,
}

/// One change of pairing numbers: the numbers `lo..=hi` passed to other players (none when
/// `lo > hi`: a player appended at the end, or a correction that kept his place), caused by the
/// registration or the correction of `cause`, or by the cancellation of his registration (the
/// numbers from his to the last moved up; the last names nobody now). The state keeps one per
/// registration, correction and cancellation, in log order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct NumberingChange {
    pub lo: PlayerId,
    pub hi: PlayerId,
    pub cause: EntryId,
}

impl NumberingChange {
    /// Whether any player's number changed.
    pub fn moves(&self) -> bool {
        self.lo <= self.hi
    }

    /// Whether number `pn` passed to another player.
    pub fn covers(&self, pn: PlayerId) -> bool {
        self.lo <= pn && pn <= self.hi
    }
}

/// A registered player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRecord {
    pub entry: EntryId,
    /// Registration data; `player.player_id` is the current pairing number.
    pub player: Player,
    /// The pairing number his registration gave him (players from it on moved down by one).
    pub entered_at: PlayerId,
    /// 1, or the round a late entrant is first paired in.
    pub first_round: u32,
    /// Codes of the rounds before `first_round`.
    pub missed_rounds: Vec<ResultCode>,
    pub withdrawn: Option<Withdrawal>,
    /// Requested byes by round.
    pub byes: BTreeMap<u32, ByeKind>,
    /// Declared absences by round, with the reason.
    pub absences: BTreeMap<u32, String>,
    /// In group A of Baku acceleration (fixed when round 1 starts, C.04.5.1 rules 2–3).
    pub accelerated: bool,
    /// Virtual points set for this player, rounds 1, 2, ... (`VirtualPointsSet`); they replace
    /// the method's values.
    #[serde(default)]
    pub virtual_points: Option<Vec<Score>>,
    /// The event required the fair-play consent when he registered (fixed at creation).
    #[serde(default)]
    pub consent_required: bool,
    /// His fair-play agreement (E.04 Appendix I J).
    #[serde(default)]
    pub consent: Option<super::conduct::ConsentRecord>,
    /// Why his registration was cancelled (`RegistrationCancelled`): he is on no list any more.
    #[serde(default)]
    pub cancelled: Option<String>,
}

impl PlayerRecord {
    pub fn pairing_number(&self) -> PlayerId {
        self.player.player_id
    }

    /// Registered for an event that requires the fair-play consent, without it.
    pub fn consent_missing(&self) -> bool {
        self.consent_required && self.consent.is_none()
    }

    /// Whether the player is to be paired in `round`, judged from registration data only.
    pub fn availability(&self, round: u32) -> Availability {
        if round < self.first_round {
            let code = self
                .missed_rounds
                .get(round.saturating_sub(1) as usize)
                .copied()
                .unwrap_or(ResultCode::ZeroBye);
            return Availability::NotEntered {
                first_round: self.first_round,
                code,
            };
        }
        if let Some(w) = &self.withdrawn
            && w.from_round <= round
        {
            return Availability::Withdrawn {
                from_round: w.from_round,
            };
        }
        if self.absences.contains_key(&round) {
            return Availability::Absent;
        }
        if self.consent_required && self.consent.as_ref().is_none_or(|c| c.from_round > round) {
            return Availability::ConsentMissing;
        }
        if let Some(k) = self.byes.get(&round) {
            return Availability::Bye(*k);
        }
        Availability::Available
    }
}

/// A game of a published pairing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Game {
    pub white: EntryId,
    pub black: EntryId,
    /// The result pairings and standings use.
    pub result: Option<BoardResult>,
    /// The latest result, every correction included (for rating).
    pub final_result: Option<BoardResult>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Slot {
    Board(usize, Color),
    Unpaired(ResultCode),
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Proposal {
    pub attempt: u32,
    pub boards: Vec<(EntryId, EntryId)>,
    pub unpaired: Vec<(EntryId, ResultCode)>,
    pub engine: super::types::Engine,
    pub rule_set: String,
    pub based_on_version: u64,
    pub input_digest: Vec<u8>,
    pub explanation: String,
    #[serde(default)]
    pub team_matches: Vec<crate::teams::TeamMatch>,
    #[serde(default)]
    pub team_bye: Option<crate::teams::TeamNumber>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Published {
    pub proposal_version: Option<u64>,
    pub games: Vec<Game>,
    pub unpaired: Vec<(EntryId, ResultCode)>,
    pub manually_changed: bool,
    pub note: String,
    pub slots: BTreeMap<EntryId, Slot>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct RoundRecord {
    pub phase: RoundPhase,
    pub attempt: u32,
    pub scheduled_unix_ms: Option<i64>,
    pub proposal: Option<Proposal>,
    pub failure: Option<PairingFailed>,
    pub published: Option<Published>,
}

/// One board of a published pairing, by current pairing numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublishedBoard {
    pub number: u32,
    pub white: PlayerId,
    pub black: PlayerId,
    /// The result standings and pairings use; `None` while the game is on.
    pub result: Option<BoardResult>,
    /// The latest result with every correction (differs from `result` only after a
    /// correction that counts for rating only).
    pub final_result: Option<BoardResult>,
}

/// A published pairing, by current pairing numbers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublishedPairing {
    pub round: u32,
    pub boards: Vec<PublishedBoard>,
    pub unpaired: Vec<Unpaired>,
    pub manually_changed: bool,
    pub note: String,
    pub proposal_version: Option<u64>,
}

/// What a pairing engine needs for one round: the tournament's parameters and every registered
/// player with his history before the round and whether he is to be paired.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairingSnapshot {
    pub round: u32,
    /// The attempt of the pending request (0 when none is pending yet).
    pub attempt: u32,
    pub rounds: u32,
    pub pairing_system: PairingSystem,
    pub rule_set: String,
    pub scoring: PointSystem,
    pub initial_color: Option<Color>,
    pub acceleration: Option<Acceleration>,
    /// In pairing-number order.
    pub players: Vec<PairingCandidate>,
    /// Pairs `(a, b)`, `a < b`, that must not meet in this round.
    #[serde(default)]
    pub forbidden_pairs: Vec<(PlayerId, PlayerId)>,
}

impl PairingSnapshot {
    /// The players to pair this round.
    pub fn available(&self) -> impl Iterator<Item = &PairingCandidate> {
        self.players
            .iter()
            .filter(|p| p.availability.is_available())
    }
}

/// One player as the pairing of a round sees him.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairingCandidate {
    /// `player.player_id` is the current pairing number.
    pub player: Player,
    pub entry: EntryId,
    /// Rounds 1..round-1, oldest first; every round has an entry (unpaired rounds carry their
    /// bye code).
    pub history: Vec<RoundEntry>,
    /// Points before the round (exact, by the tournament's point system).
    pub score: Score,
    /// Virtual points of acceleration for this round (pairing only, never in standings).
    pub virtual_points: Score,
    pub availability: Availability,
}

/// Players who must not meet and the rounds the rule holds for, first to last (`None` = the
/// whole event).
pub type Forbidden<Id> = (Vec<Id>, Option<(u32, u32)>);

/// A tournament folded from its events. `State::default()` is the empty stream.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct State {
    pub(crate) tournament: Option<TournamentCreated>,
    /// By entry id.
    pub(crate) players: Vec<PlayerRecord>,
    /// `ranking[pn - 1]` is the player with pairing number `pn`.
    pub(crate) ranking: Vec<EntryId>,
    /// Every registration and correction, with the numbers it gave to other players.
    pub(crate) numbering: Vec<NumberingChange>,
    /// A round robin's drawing of lots, once drawn.
    pub(crate) lots: Option<super::event::LotsDrawn>,
    /// The prize fund last announced.
    #[serde(default)]
    pub(crate) prize_fund: Option<super::PrizeFund>,
    /// `rounds[r - 1]` for every started round.
    pub(crate) rounds: Vec<RoundRecord>,
    pub(crate) finished: Option<u32>,
    pub(crate) corrections: Vec<CorrectionRecord>,
    /// Baku group A has been fixed (at the start of round 1).
    pub(crate) accelerated_group_fixed: bool,
    /// Players who must not meet, with the rounds (`None` = the whole event).
    #[serde(default)]
    pub(crate) forbidden: Vec<Forbidden<EntryId>>,
    /// Teams, members by entry.
    #[serde(default)]
    pub(crate) teams: Vec<(super::event::TeamRecorded, Vec<Option<EntryId>>)>,
    /// A team event's line-ups, by (round, team).
    #[serde(default)]
    pub(crate) team_lineups: BTreeMap<(u32, crate::teams::TeamNumber), Vec<EntryId>>,
    /// A team event's published team pairings, by round.
    #[serde(default)]
    pub(crate) team_rounds: BTreeMap<u32, super::team_event::TeamPairing>,
    /// `(round, board)` of every game submitted (`GameSubmitted`; the PGNs stay in the log).
    #[serde(default)]
    pub(crate) games_submitted: std::collections::BTreeSet<(u32, u32)>,
    /// `(round, board, result)` of every game submitted: the termination marker of its score
    /// ([`pgn_result`]), which results recorded or corrected later must not contradict.
    /// (A snapshot written before this field existed folds without the games before it.)
    #[serde(default)]
    pub(crate) game_results: std::collections::BTreeSet<(u32, u32, String)>,
    /// Platform results the Laws disagree with, in log order.
    #[serde(default)]
    pub(crate) discrepancies: Vec<super::event::ResultDiscrepancyDetected>,
    /// The arbiter's overrides of platform results, in log order.
    #[serde(default)]
    pub(crate) overrides: Vec<super::event::ResultOverridden>,
    /// Sanctions imposed, in log order.
    #[serde(default)]
    pub(crate) sanctions: Vec<super::event::SanctionImposed>,
    /// Irregularities recorded, in log order.
    #[serde(default)]
    pub(crate) irregularities: Vec<super::event::IrregularityRecorded>,
    /// Supervision breaches, numbered 1, 2, ... in log order.
    #[serde(default)]
    pub(crate) supervision_breaches: Vec<super::event::SupervisionBreachRecorded>,
    /// Connection incidents, numbered 1, 2, ... in log order.
    #[serde(default)]
    pub(crate) incidents: Vec<super::event::ConnectionIncidentReported>,
    /// Rulings on them, in log order.
    #[serde(default)]
    pub(crate) rulings: Vec<super::event::DisconnectionRuled>,
    /// Fair-play complaints, numbered 1, 2, ... in log order.
    #[serde(default)]
    pub(crate) complaints: Vec<super::event::ComplaintFiled>,
    /// Appeals, numbered 1, 2, ..., and their decisions, in log order.
    #[serde(default)]
    pub(crate) appeals: Vec<super::event::AppealFiled>,
    #[serde(default)]
    pub(crate) appeal_decisions: Vec<super::event::AppealDecided>,
}

/// The termination marker of a PGN game's movetext ("1-0", "0-1", "1/2-1/2" or "*"): the last
/// token outside comments (`{...}`, `;` to the end of the line), tag pairs and variations.
/// `None` when the text ends with anything else (a submitted game always has one: its reader
/// refuses a movetext without it).
pub fn pgn_result(pgn: &str) -> Option<&'static str> {
    let mut last: Option<&'static str> = None;
    let mut depth = 0u32; // variations
    let mut token = String::new();
    let mut chars = pgn.chars().peekable();
    let mut at_line_start = true;
    let finish = |token: &mut String, last: &mut Option<&'static str>, depth: u32| {
        if !token.is_empty() {
            if depth == 0 {
                *last = ["1-0", "0-1", "1/2-1/2", "*"]
                    .into_iter()
                    .find(|m| *m == token.as_str());
            }
            token.clear();
        }
    };
    while let Some(c) = chars.next() {
        let line_start = at_line_start;
        at_line_start = c == '\n';
        match c {
            '{' => {
                finish(&mut token, &mut last, depth);
                for d in chars.by_ref() {
                    if d == '}' {
                        break;
                    }
                }
            }
            ';' => {
                finish(&mut token, &mut last, depth);
                for d in chars.by_ref() {
                    if d == '\n' {
                        at_line_start = true;
                        break;
                    }
                }
            }
            '%' if line_start => {
                for d in chars.by_ref() {
                    if d == '\n' {
                        at_line_start = true;
                        break;
                    }
                }
            }
            '[' => {
                finish(&mut token, &mut last, depth);
                let mut quoted = false;
                while let Some(d) = chars.next() {
                    match d {
                        '\\' if quoted => {
                            chars.next();
                        }
                        '"' => quoted = !quoted,
                        ']' if !quoted => break,
                        _ => {}
                    }
                }
            }
            '(' => {
                finish(&mut token, &mut last, depth);
                depth += 1;
            }
            ')' => {
                finish(&mut token, &mut last, depth);
                depth = depth.saturating_sub(1);
            }
            c if c.is_whitespace() => finish(&mut token, &mut last, depth),
            c => token.push(c),
        }
    }
    finish(&mut token, &mut last, depth);
    last
}

impl State {
    // --- tournament ----------------------------------------------------------------------------

    pub fn is_created(&self) -> bool {
        self.tournament.is_some()
    }

    /// The tournament's data, updates included; `None` for an empty stream.
    pub fn tournament(&self) -> Option<&TournamentCreated> {
        self.tournament.as_ref()
    }

    /// The prize fund the regulations announced (the last one), if any.
    pub fn prize_fund(&self) -> Option<&super::PrizeFund> {
        self.prize_fund.as_ref()
    }

    /// `Some(rounds played)` once the tournament is finished.
    pub fn finished(&self) -> Option<u32> {
        self.finished
    }

    pub fn is_finished(&self) -> bool {
        self.finished.is_some()
    }

    /// Number of rounds announced (0 before creation).
    pub fn total_rounds(&self) -> u32 {
        self.tournament.as_ref().map_or(0, |t| t.rounds)
    }

    // --- rounds --------------------------------------------------------------------------------

    /// Whether a game is submitted for `board` of `round`.
    pub fn game_submitted(&self, round: u32, board: u32) -> bool {
        self.games_submitted.contains(&(round, board))
    }

    /// The result the submitted game of `board` of `round` ends with ("1-0", "0-1",
    /// "1/2-1/2", "*"), if a game is submitted.
    pub fn submitted_game_result(&self, round: u32, board: u32) -> Option<&str> {
        self.game_results
            .range((round, board, String::new())..)
            .next()
            .filter(|(r, b, _)| *r == round && *b == board)
            .map(|(_, _, result)| result.as_str())
    }

    /// The discrepancy found for the game of `board` of `round`, if any.
    pub fn discrepancy(
        &self,
        round: u32,
        board: u32,
    ) -> Option<&super::event::ResultDiscrepancyDetected> {
        self.discrepancies
            .iter()
            .find(|d| d.round == round && d.board == board)
    }

    /// Every discrepancy found, in log order.
    pub fn discrepancies(&self) -> &[super::event::ResultDiscrepancyDetected] {
        &self.discrepancies
    }

    /// The arbiter's override of the platform's result of `board` of `round`, if any.
    pub fn override_of(&self, round: u32, board: u32) -> Option<&super::event::ResultOverridden> {
        self.overrides
            .iter()
            .find(|o| o.round == round && o.board == board)
    }

    /// Sanctions imposed, in log order.
    pub fn sanctions(&self) -> &[super::event::SanctionImposed] {
        &self.sanctions
    }

    /// Connection incidents, in log order (incident `n` is at `n - 1`).
    pub fn incidents(&self) -> &[super::event::ConnectionIncidentReported] {
        &self.incidents
    }

    /// The ruling on incident `n`, if any.
    pub fn ruling(&self, n: u32) -> Option<&super::event::DisconnectionRuled> {
        self.rulings.iter().find(|r| r.incident == n)
    }

    /// Appeals, in log order (appeal `n` is at `n - 1`).
    pub fn appeals(&self) -> &[super::event::AppealFiled] {
        &self.appeals
    }

    /// The decision on appeal `n`, if any.
    pub fn appeal_decision(&self, n: u32) -> Option<&super::event::AppealDecided> {
        self.appeal_decisions.iter().find(|d| d.appeal == n)
    }

    /// Fair-play complaints, in log order.
    pub fn complaints(&self) -> &[super::event::ComplaintFiled] {
        &self.complaints
    }

    /// Irregularities recorded, in log order.
    pub fn irregularities(&self) -> &[super::event::IrregularityRecorded] {
        &self.irregularities
    }

    /// Supervision breaches recorded, in log order (breach `n` at `n - 1`).
    pub fn supervision_breaches(&self) -> &[super::event::SupervisionBreachRecorded] {
        &self.supervision_breaches
    }

    /// Games submitted, as `(round, board)` in order.
    pub fn games_submitted(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.games_submitted.iter().copied()
    }

    /// The last round started, if any.
    pub fn current_round(&self) -> Option<u32> {
        match self.rounds.len() {
            0 => None,
            n => Some(n as u32),
        }
    }

    pub fn round_phase(&self, round: u32) -> Option<RoundPhase> {
        self.round(round).map(|r| r.phase)
    }

    /// The attempt of the last pairing request of `round` (0 before any).
    pub fn round_attempt(&self, round: u32) -> Option<u32> {
        self.round(round).map(|r| r.attempt)
    }

    /// The scheduled start of `round`, if given.
    pub fn round_schedule(&self, round: u32) -> Option<i64> {
        self.round(round).and_then(|r| r.scheduled_unix_ms)
    }

    /// The current round if its pairing is pending (requested, proposed or failed).
    pub fn pending_round(&self) -> Option<u32> {
        let n = self.current_round()?;
        self.round_phase(n).filter(|p| p.is_pending()).map(|_| n)
    }

    /// The first round whose pairing is not yet published; `None` when all are (or the
    /// tournament is finished or not created).
    pub fn next_open_round(&self) -> Option<u32> {
        let t = self.tournament.as_ref()?;
        if self.finished.is_some() {
            return None;
        }
        let r = match self.current_round() {
            None => 1,
            Some(n) if self.round_phase(n).is_some_and(|p| p.is_pending()) => n,
            Some(n) => n + 1,
        };
        (r <= t.rounds).then_some(r)
    }

    /// Rounds whose pairing is published (closed or not).
    pub fn published_rounds(&self) -> u32 {
        self.rounds
            .iter()
            .take_while(|r| r.published.is_some())
            .count() as u32
    }

    /// Rounds closed.
    pub fn closed_rounds(&self) -> u32 {
        self.rounds
            .iter()
            .take_while(|r| r.phase == RoundPhase::Closed)
            .count() as u32
    }

    pub(crate) fn round(&self, round: u32) -> Option<&RoundRecord> {
        self.rounds.get((round as usize).checked_sub(1)?)
    }

    pub(crate) fn round_mut(&mut self, round: u32) -> Option<&mut RoundRecord> {
        self.rounds.get_mut((round as usize).checked_sub(1)?)
    }

    /// The published pairing of `round`.
    pub fn published(&self, round: u32) -> Option<PublishedPairing> {
        let p = self.round(round)?.published.as_ref()?;
        Some(PublishedPairing {
            round,
            boards: p
                .games
                .iter()
                .enumerate()
                .map(|(i, g)| PublishedBoard {
                    number: i as u32 + 1,
                    white: self.pn(g.white),
                    black: self.pn(g.black),
                    result: g.result,
                    final_result: g.final_result,
                })
                .collect(),
            unpaired: self.unpaired_view(&p.unpaired),
            manually_changed: p.manually_changed,
            note: p.note.clone(),
            proposal_version: p.proposal_version,
        })
    }

    /// The last proposal of `round` (by current pairing numbers), if one stands.
    pub fn proposal(&self, round: u32) -> Option<PairingProposed> {
        let p = self.round(round)?.proposal.as_ref()?;
        Some(PairingProposed {
            round,
            attempt: p.attempt,
            boards: p
                .boards
                .iter()
                .enumerate()
                .map(|(i, (w, b))| Board {
                    number: i as u32 + 1,
                    white: self.pn(*w),
                    black: self.pn(*b),
                })
                .collect(),
            unpaired: self.unpaired_view(&p.unpaired),
            engine: p.engine.clone(),
            rule_set: p.rule_set.clone(),
            based_on_version: p.based_on_version,
            input_digest: p.input_digest.clone(),
            explanation: p.explanation.clone(),
            team_matches: p.team_matches.clone(),
            team_bye: p.team_bye,
        })
    }

    /// The failure reported for the current attempt of `round`, if any.
    pub fn pairing_failure(&self, round: u32) -> Option<&PairingFailed> {
        self.round(round)?.failure.as_ref()
    }

    fn unpaired_view(&self, list: &[(EntryId, ResultCode)]) -> Vec<Unpaired> {
        let mut v: Vec<Unpaired> = list
            .iter()
            .map(|(e, c)| Unpaired {
                player_id: self.pn(*e),
                code: *c,
            })
            .collect();
        v.sort_by_key(|u| u.player_id);
        v
    }

    /// Result corrections in log order, with their effect.
    pub fn corrections(&self) -> &[CorrectionRecord] {
        &self.corrections
    }

    /// Every board whose rating result differs from its standings result (corrections that
    /// count for rating only, C.04.2 D.8), by round and board. Derived from the published
    /// boards, so a replay of any log yields the same list.
    pub fn rating_only_corrections(&self) -> Vec<RatingOnlyCorrection> {
        let mut out = Vec::new();
        for r in 1..=self.published_rounds() {
            let Some(p) = self.published(r) else {
                continue;
            };
            for b in &p.boards {
                if let (Some(standings), Some(rating)) = (b.result, b.final_result)
                    && standings != rating
                {
                    out.push(RatingOnlyCorrection {
                        round: r,
                        board: b.number,
                        white: b.white,
                        black: b.black,
                        standings,
                        rating,
                        after_round: (r < self.published_rounds()).then_some(r + 1),
                    });
                }
            }
        }
        out
    }

    /// What a correction of a result of `round` written now would change (C.04.2.D.8).
    pub fn correction_effect(&self, round: u32) -> CorrectionEffect {
        if self.finished.is_some() {
            return CorrectionEffect::FinalEvaluationOnly;
        }
        match self.round_phase(round.saturating_add(1)) {
            None => CorrectionEffect::NextPairing,
            Some(p) if p.is_pending() => CorrectionEffect::NextPairing,
            Some(RoundPhase::Published) => CorrectionEffect::LaterPairings,
            Some(_) => CorrectionEffect::FinalEvaluationOnly,
        }
    }

    // --- players -------------------------------------------------------------------------------

    pub fn player_count(&self) -> u32 {
        self.ranking.len() as u32
    }

    /// Players in pairing-number order.
    pub fn players(&self) -> impl Iterator<Item = &PlayerRecord> {
        self.ranking
            .iter()
            .filter_map(|e| self.players.get(e.0 as usize))
    }

    /// The player with pairing number `pn`.
    pub fn player(&self, pn: PlayerId) -> Option<&PlayerRecord> {
        self.players.get(self.entry_of(pn)?.0 as usize)
    }

    /// The player with entry `entry`; `None` for a cancelled registration.
    pub fn player_by_entry(&self, entry: EntryId) -> Option<&PlayerRecord> {
        self.players
            .get(entry.0 as usize)
            .filter(|p| p.cancelled.is_none())
    }

    /// The record of entry `entry_number` if its registration was cancelled.
    pub fn cancelled_registration(&self, entry_number: u32) -> Option<&PlayerRecord> {
        let e = EntryId::from_number(entry_number)?;
        self.players
            .get(e.0 as usize)
            .filter(|p| p.cancelled.is_some())
    }

    /// The first published pairing that lists entry `e` (on a board or unpaired), with his
    /// board (`None`: listed unpaired, with that code).
    pub fn first_listed(&self, e: EntryId) -> Option<(u32, Result<u32, ResultCode>)> {
        self.rounds.iter().enumerate().find_map(|(i, r)| {
            let slot = r.published.as_ref()?.slots.get(&e)?;
            Some((
                i as u32 + 1,
                match slot {
                    Slot::Board(b, _) => Ok(*b as u32 + 1),
                    Slot::Unpaired(code) => Err(*code),
                },
            ))
        })
    }

    /// The player with stable entry number `entry_number` (1-based order of registration,
    /// see [`EntryId::number`]).
    pub fn player_by_entry_number(&self, entry_number: u32) -> Option<&PlayerRecord> {
        self.player_by_entry(EntryId::from_number(entry_number)?)
    }

    /// The round robin's drawing of lots, once drawn (C.05 §6.2).
    pub fn lots_drawn(&self) -> Option<&super::event::LotsDrawn> {
        self.lots.as_ref()
    }

    /// Every registration and correction in log order, with the pairing numbers it gave to
    /// other players.
    pub fn numbering_changes(&self) -> &[NumberingChange] {
        &self.numbering
    }

    /// The first change after the first `seen` of [`State::numbering_changes`] that gave
    /// pairing number `pn` to another player, if any (its index and cause): a client that
    /// read the list after `seen` changes and names `pn` now would reach someone else.
    /// Registrations that append a player at the end move nobody; a number that did not exist
    /// yet counts from the registration that created it.
    pub fn number_moved_since(&self, pn: PlayerId, seen: usize) -> Option<(usize, EntryId)> {
        self.numbering
            .iter()
            .enumerate()
            .skip(seen)
            .find(|(_, c)| c.covers(pn))
            .map(|(i, c)| (i, c.cause))
    }

    /// The player registered with a FIDE id.
    pub fn player_by_fide_id(&self, fide_id: u64) -> Option<&PlayerRecord> {
        self.players().find(|p| p.player.fide_id == Some(fide_id))
    }

    pub(crate) fn entry_of(&self, pn: PlayerId) -> Option<EntryId> {
        self.ranking.get((pn as usize).checked_sub(1)?).copied()
    }

    /// Current pairing number of an entry (0 if unknown, which the fold never produces).
    pub(crate) fn pn(&self, e: EntryId) -> PlayerId {
        self.players
            .get(e.0 as usize)
            .map_or(0, |p| p.player.player_id)
    }

    /// Whether player `pn` is to be paired in `round`.
    pub fn availability(&self, pn: PlayerId, round: u32) -> Option<Availability> {
        Some(self.player(pn)?.availability(round))
    }

    /// Requested byes: (player, round, kind), by player then round.
    pub fn byes_requested(&self) -> Vec<(PlayerId, u32, ByeKind)> {
        self.players()
            .flat_map(|p| p.byes.iter().map(|(r, k)| (p.pairing_number(), *r, *k)))
            .collect()
    }

    /// Declared absences: (player, round), by player then round.
    pub fn absences(&self) -> Vec<(PlayerId, u32)> {
        self.players()
            .flat_map(|p| p.absences.keys().map(|r| (p.pairing_number(), *r)))
            .collect()
    }

    /// Withdrawals: (player, first round not paired), by player.
    pub fn withdrawals(&self) -> Vec<(PlayerId, u32)> {
        self.players()
            .filter_map(|p| {
                p.withdrawn
                    .as_ref()
                    .map(|w| (p.pairing_number(), w.from_round))
            })
            .collect()
    }

    /// Pairs of players who tie on every key of the initial ranking (rating, title, name); their
    /// order is the order of registration, which the arbiter should confirm (C.04.2.B.2 leaves
    /// it open).
    pub fn initial_ranking_ties(&self) -> Vec<(PlayerId, PlayerId)> {
        let list: Vec<&PlayerRecord> = self.players().collect();
        list.windows(2)
            .filter(|w| w[0].player.initial_ranking_cmp(&w[1].player).is_eq())
            .map(|w| (w[0].pairing_number(), w[1].pairing_number()))
            .collect()
    }

    // --- history and scores --------------------------------------------------------------------

    /// Player `pn`'s entry for `round` as standings, pairings and the TRF hold it; `None` while
    /// his game is on or the round is not published.
    pub fn entry(&self, pn: PlayerId, round: u32) -> Option<RoundEntry> {
        self.round_entry(self.entry_of(pn)?, round, false)
    }

    /// As [`State::entry`], with every correction (also those that count for rating only): the
    /// result for rating. The rating worker, the player card and the TRF rating report all read
    /// results through this one function.
    pub fn final_entry(&self, pn: PlayerId, round: u32) -> Option<RoundEntry> {
        self.round_entry(self.entry_of(pn)?, round, true)
    }

    /// Player `pn`'s entries for rounds 1..=published rounds.
    pub fn history(&self, pn: PlayerId) -> Vec<Option<RoundEntry>> {
        let Some(e) = self.entry_of(pn) else {
            return Vec::new();
        };
        (1..=self.published_rounds())
            .map(|r| self.round_entry(e, r, false))
            .collect()
    }

    pub(crate) fn round_entry(
        &self,
        e: EntryId,
        round: u32,
        final_view: bool,
    ) -> Option<RoundEntry> {
        let p = self.players.get(e.0 as usize)?;
        if round == 0 {
            return None;
        }
        if round < p.first_round {
            let code = p
                .missed_rounds
                .get(round as usize - 1)
                .copied()
                .unwrap_or(ResultCode::ZeroBye);
            return Some(RoundEntry::bye(code));
        }
        let published = self.round(round)?.published.as_ref()?;
        match published.slots.get(&e)? {
            Slot::Unpaired(code) => Some(RoundEntry::bye(*code)),
            Slot::Board(i, color) => {
                let g = published.games.get(*i)?;
                let (opponent, result) = match color {
                    Color::White => (g.black, if final_view { g.final_result } else { g.result }),
                    Color::Black => (g.white, if final_view { g.final_result } else { g.result }),
                };
                Some(RoundEntry::game(
                    self.pn(opponent),
                    *color,
                    result?.code_for(*color),
                ))
            }
        }
    }

    fn points_of(&self, e: EntryId, rounds: std::ops::RangeInclusive<u32>) -> Score {
        let system = self
            .tournament
            .as_ref()
            .map(|t| t.scoring)
            .unwrap_or_default();
        rounds
            .filter_map(|r| self.round_entry(e, r, false))
            .map(|x| system.points(x.result))
            .sum()
    }

    /// Player `pn`'s score over the published rounds (results known so far), exact.
    pub fn score(&self, pn: PlayerId) -> Option<Score> {
        let e = self.entry_of(pn)?;
        Some(self.points_of(e, 1..=self.published_rounds()))
    }

    /// Player `pn`'s score after rounds 1..=`round`.
    pub fn score_after(&self, pn: PlayerId, round: u32) -> Option<Score> {
        let e = self.entry_of(pn)?;
        Some(self.points_of(e, 1..=round.min(self.published_rounds())))
    }

    /// Every player's score, in pairing-number order.
    pub fn scores(&self) -> Vec<(PlayerId, Score)> {
        let n = self.published_rounds();
        self.players()
            .map(|p| (p.pairing_number(), self.points_of(p.entry, 1..=n)))
            .collect()
    }

    /// Virtual points of acceleration player `pn` gets when `round` is paired.
    pub fn virtual_points(&self, pn: PlayerId, round: u32) -> Score {
        let (Some(t), Some(p)) = (self.tournament.as_ref(), self.player(pn)) else {
            return Score::ZERO;
        };
        self.virtual_points_of(t, p, round)
    }

    fn virtual_points_of(&self, t: &TournamentCreated, p: &PlayerRecord, round: u32) -> Score {
        if let Some(v) = &p.virtual_points {
            return round
                .checked_sub(1)
                .and_then(|i| v.get(i as usize))
                .copied()
                .unwrap_or(Score::ZERO);
        }
        if !p.accelerated {
            return Score::ZERO;
        }
        match t.acceleration.and_then(|a| a.phase(round)) {
            Some(VirtualValue::Full) => t.scoring.win,
            Some(VirtualValue::Half) => t.scoring.draw,
            None => Score::ZERO,
        }
    }

    /// The virtual points set explicitly for player `pn` (rounds 1, 2, ...), if any.
    pub fn explicit_virtual_points(&self, pn: PlayerId) -> Option<&[Score]> {
        self.player(pn)?.virtual_points.as_deref()
    }

    /// Every forbidden-pairing record in current pairing numbers, with its rounds (`None` = the
    /// whole event), in log order.
    pub fn forbidden_records(&self) -> Vec<Forbidden<PlayerId>> {
        self.forbidden
            .iter()
            .map(|(ids, r)| (ids.iter().map(|&e| self.pn(e)).collect(), *r))
            .collect()
    }

    /// Pairs `(a, b)`, `a < b`, that must not meet in `round`, in current pairing numbers.
    pub fn forbidden_pairs(&self, round: u32) -> Vec<(PlayerId, PlayerId)> {
        let mut out = std::collections::BTreeSet::new();
        for (ids, rounds) in self.forbidden_records() {
            if rounds.is_some_and(|(a, b)| !(a..=b).contains(&round)) {
                continue;
            }
            for (i, &a) in ids.iter().enumerate() {
                for &b in &ids[i + 1..] {
                    if a != b {
                        out.insert((a.min(b), a.max(b)));
                    }
                }
            }
        }
        out.into_iter().collect()
    }

    /// The teams, members in current pairing numbers, in log order.
    pub fn teams(&self) -> Vec<super::event::TeamRecorded> {
        self.teams
            .iter()
            .map(|(t, members)| super::event::TeamRecorded {
                members: members.iter().map(|m| m.map(|e| self.pn(e))).collect(),
                ..t.clone()
            })
            .collect()
    }

    /// Whether two entries played a game (over the board) before `round`; the earliest such
    /// round.
    pub(crate) fn played_before(&self, a: EntryId, b: EntryId, round: u32) -> Option<u32> {
        (1..round).find(|&r| {
            let Some(p) = self.round(r).and_then(|x| x.published.as_ref()) else {
                return false;
            };
            let Some(Slot::Board(i, _)) = p.slots.get(&a) else {
                return false;
            };
            let Some(g) = p.games.get(*i) else {
                return false;
            };
            let opponent = if g.white == a { g.black } else { g.white };
            opponent == b && g.result.is_some_and(|res| res.codes().0.is_played())
        })
    }

    // --- pairing input -------------------------------------------------------------------------

    /// Everything the pairing of `round` depends on: the tournament's parameters, and each
    /// player's history of rounds 1..round-1, score, virtual points and availability. Only for
    /// a round whose predecessors are all closed and whose own pairing is not published.
    pub fn pairing_input(&self, round: u32) -> Result<PairingSnapshot, DomainError> {
        let Some(t) = self.tournament.as_ref() else {
            return Err(DomainError::TournamentNotCreated {
                command: "pairing input",
            });
        };
        if round == 0 || round > t.rounds {
            return Err(DomainError::RoundOutOfRange {
                round,
                rounds: t.rounds,
            });
        }
        for r in 1..round {
            if self.round_phase(r) != Some(RoundPhase::Closed) {
                return Err(DomainError::PreviousRoundNotClosed { round, previous: r });
            }
        }
        let attempt = match self.round(round) {
            None => 0,
            Some(r) if r.phase.is_pending() => r.attempt,
            Some(_) => {
                return Err(DomainError::RoundAlreadyPaired {
                    round,
                    hint: "its input is the history before its publication",
                });
            }
        };
        let players = self
            .players()
            .map(|p| PairingCandidate {
                player: p.player.clone(),
                entry: p.entry,
                history: (1..round)
                    .map(|r| {
                        self.round_entry(p.entry, r, false)
                            .unwrap_or(RoundEntry::bye(ResultCode::ZeroBye))
                    })
                    .collect(),
                score: self.points_of(p.entry, 1..=round - 1),
                virtual_points: self.virtual_points_of(t, p, round),
                availability: p.availability(round),
            })
            .collect();
        Ok(PairingSnapshot {
            round,
            attempt,
            rounds: t.rounds,
            pairing_system: t.pairing_system,
            rule_set: t.rule_set.clone(),
            scoring: t.scoring,
            initial_color: t.initial_color,
            acceleration: t.acceleration,
            players,
            forbidden_pairs: self.forbidden_pairs(round),
        })
    }
}
