//! The tournament's events. Each struct mirrors the message of the same name in
//! `proto/arbiter/events/v1/events.proto`, field for field:
//!
//! - proto enums with an `UNSPECIFIED` value that means "not given" become `Option` (colour,
//!   title, sex); a `0` that means "not given" (scheduled time, proposal version) also becomes
//!   `None`;
//! - a message field that may be absent (date, acceleration, chief arbiter of an update) becomes
//!   `Option`;
//! - `ResultRecorded` / `ResultCorrected` carry the per-player codes of an arbiter's decision
//!   inside [`BoardResult::ArbiterDecision`] instead of two loose fields;
//! - `TournamentUpdated.tie_breaks` + `replace_tie_breaks` become one `Option<Vec<String>>`.
//!
//! Players are named by the pairing number they had when the event was written. Pairing
//! numbers change only when a player is registered (the new player's `player_id` is the
//! position he is inserted at, and every player at that number or below moves down by one,
//! C.04.2.C.3) and when a correction before round 1 moves a player
//! (`PlayerCorrected.new_player_id`; the players between move by one), and when a registration
//! is cancelled before the player was first paired (`RegistrationCancelled`: every player below
//! him moves up by one). These rules, applied in log order, are the whole renumbering history.
//!
//! `GameSubmitted` is part of this type (one game per board is a rule of the tournament); the
//! log's other events (ratings, norms, screening results) belong to other aggregates and are
//! not part of this type.

use super::prize_fund::PrizeFund;
use super::types::{
    Acceleration, Arbiter, Board, BoardResult, ByeKind, Date, Engine, PairingSystem, Player,
    RatingKind, Unpaired,
};
use crate::{Color, PlayerId, PointSystem, ResultCode};
use serde::{Deserialize, Serialize};

/// One fact about a tournament.
#[expect(
    clippy::large_enum_variant,
    reason = "one at a time is decided or folded; boxing the tournament's settings would only add an allocation per value"
)]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    TournamentCreated(TournamentCreated),
    TournamentUpdated(TournamentUpdated),
    PlayerRegistered(PlayerRegistered),
    LateEntry(LateEntry),
    PlayerWithdrawn(PlayerWithdrawn),
    PlayerCorrected(PlayerCorrected),
    RegistrationCancelled(RegistrationCancelled),
    ByeRequested(ByeRequested),
    ByeCancelled(ByeCancelled),
    AbsenceDeclared(AbsenceDeclared),
    RoundStarted(RoundStarted),
    PairingRequested(PairingRequested),
    PairingProposed(PairingProposed),
    PairingFailed(PairingFailed),
    PairingPublished(PairingPublished),
    ResultRecorded(ResultRecorded),
    ResultCorrected(ResultCorrected),
    RoundClosed(RoundClosed),
    TournamentFinished(TournamentFinished),
    VirtualPointsSet(VirtualPointsSet),
    PairingsForbidden(PairingsForbidden),
    LotsDrawn(LotsDrawn),
    TeamRecorded(TeamRecorded),
    LineupSubmitted(LineupSubmitted),
    GameSubmitted(GameSubmitted),
    FairPlayConsentRecorded(FairPlayConsentRecorded),
    ResultDiscrepancyDetected(ResultDiscrepancyDetected),
    ResultOverridden(ResultOverridden),
    SanctionImposed(SanctionImposed),
    IrregularityRecorded(IrregularityRecorded),
    SupervisionBreachRecorded(SupervisionBreachRecorded),
    ConnectionIncidentReported(ConnectionIncidentReported),
    DisconnectionRuled(DisconnectionRuled),
    ComplaintFiled(ComplaintFiled),
    AppealFiled(AppealFiled),
    AppealDecided(AppealDecided),
}

impl Event {
    /// The proto name of the event's message.
    pub fn kind(&self) -> &'static str {
        match self {
            Event::TournamentCreated(_) => "TournamentCreated",
            Event::TournamentUpdated(_) => "TournamentUpdated",
            Event::PlayerRegistered(_) => "PlayerRegistered",
            Event::LateEntry(_) => "LateEntry",
            Event::PlayerWithdrawn(_) => "PlayerWithdrawn",
            Event::PlayerCorrected(_) => "PlayerCorrected",
            Event::RegistrationCancelled(_) => "RegistrationCancelled",
            Event::ByeRequested(_) => "ByeRequested",
            Event::ByeCancelled(_) => "ByeCancelled",
            Event::AbsenceDeclared(_) => "AbsenceDeclared",
            Event::RoundStarted(_) => "RoundStarted",
            Event::PairingRequested(_) => "PairingRequested",
            Event::PairingProposed(_) => "PairingProposed",
            Event::PairingFailed(_) => "PairingFailed",
            Event::PairingPublished(_) => "PairingPublished",
            Event::ResultRecorded(_) => "ResultRecorded",
            Event::ResultCorrected(_) => "ResultCorrected",
            Event::RoundClosed(_) => "RoundClosed",
            Event::GameSubmitted(_) => "GameSubmitted",
            Event::FairPlayConsentRecorded(_) => "FairPlayConsentRecorded",
            Event::ResultDiscrepancyDetected(_) => "ResultDiscrepancyDetected",
            Event::ResultOverridden(_) => "ResultOverridden",
            Event::SanctionImposed(_) => "SanctionImposed",
            Event::IrregularityRecorded(_) => "IrregularityRecorded",
            Event::SupervisionBreachRecorded(_) => "SupervisionBreachRecorded",
            Event::ConnectionIncidentReported(_) => "ConnectionIncidentReported",
            Event::DisconnectionRuled(_) => "DisconnectionRuled",
            Event::ComplaintFiled(_) => "ComplaintFiled",
            Event::AppealFiled(_) => "AppealFiled",
            Event::AppealDecided(_) => "AppealDecided",
            Event::TournamentFinished(_) => "TournamentFinished",
            Event::VirtualPointsSet(_) => "VirtualPointsSet",
            Event::PairingsForbidden(_) => "PairingsForbidden",
            Event::LotsDrawn(_) => "LotsDrawn",
            Event::TeamRecorded(_) => "TeamRecorded",
            Event::LineupSubmitted(_) => "LineupSubmitted",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentCreated {
    pub name: String,
    pub place: String,
    pub federation: String,
    pub start_date: Date,
    pub end_date: Date,
    pub chief_arbiter: Arbiter,
    pub deputy_arbiters: Vec<Arbiter>,
    pub pairing_system: PairingSystem,
    /// e.g. "dutch-2017", "dutch-2025"; kept for the whole tournament.
    pub rule_set: String,
    pub rounds: u32,
    pub scoring: PointSystem,
    /// Colour of the top seed on board 1 of round 1; `None` = drawn by lot before round 1.
    pub initial_color: Option<Color>,
    pub rating_kind: RatingKind,
    /// In order of application, e.g. ["BH/C1", "BH", "SB", "DE"].
    pub tie_breaks: Vec<String>,
    pub time_control: String,
    pub acceleration: Option<Acceleration>,
    pub fide_rated: bool,
    /// The TRF "type of tournament" (092) as written; empty when not given.
    #[serde(default)]
    pub tournament_type: String,
    /// The planned date of each round (TRF 132); `None` = a blank slot. No trailing `None`.
    #[serde(default)]
    pub round_dates: Vec<Option<Date>>,
    /// TRF records carried but not interpreted, verbatim, one line each, in file order.
    #[serde(default)]
    pub trf_records: Vec<String>,
    /// The format and what hangs off it (over the board when absent); fixed at creation.
    #[serde(default)]
    pub conduct: super::Conduct,
    /// A knockout's regulations (seeding, games, colours), required for and only for
    /// `PairingSystem::Knockout`; fixed at creation.
    #[serde(default)]
    pub knockout: Option<arbiter_knockout::Rules>,
    /// A team event's regulations (boards, reserves, match points, the team PAB, the board
    /// colours); its game points are `scoring`. Only with the Dutch system (a team Swiss) or
    /// a single or double round robin of teams; fixed at creation.
    #[serde(default)]
    pub team_rules: Option<crate::teams::TeamRules>,
}

/// Changes to descriptive data; `None` = unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TournamentUpdated {
    pub name: Option<String>,
    pub place: Option<String>,
    pub start_date: Option<Date>,
    pub end_date: Option<Date>,
    pub chief_arbiter: Option<Arbiter>,
    pub rounds: Option<u32>,
    /// `Some` replaces the list (proto: `replace_tie_breaks` = true).
    pub tie_breaks: Option<Vec<String>>,
    pub federation: Option<String>,
    /// `Some` replaces the list (proto: `replace_deputy_arbiters` = true).
    pub deputy_arbiters: Option<Vec<Arbiter>>,
    pub time_control: Option<String>,
    /// Only before round 1 starts: ratings of every round are computed from this list.
    pub rating_kind: Option<RatingKind>,
    /// Replaces the announced prize fund.
    #[serde(default)]
    pub prize_fund: Option<PrizeFund>,
}

/// A player's virtual points of acceleration for rounds 1, 2, ... (missing rounds: 0). They
/// replace the announced method's values for this player (TRF `XXA`, record 250).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VirtualPointsSet {
    pub player_id: PlayerId,
    pub points: Vec<crate::Score>,
}

/// The players must not meet each other in rounds `first_round..=last_round`; `None` = the
/// whole event (TRF `XXP`, record 260).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairingsForbidden {
    pub player_ids: Vec<PlayerId>,
    pub rounds: Option<(u32, u32)>,
}

/// The drawing of lots of a round robin (C.05 §6.2), before round 1: every player's pairing
/// number, which places him in the Berger table. Once per event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LotsDrawn {
    /// `numbers[i]` is the number drawn by the player numbered `i + 1` before the draw.
    pub numbers: Vec<PlayerId>,
    /// The restricted draw of the Varma tables (C.05 §5.3 and Annex 2).
    pub varma: bool,
    /// The published seed the service drew from (`arbiter_roundrobin::lots::seeded`), from
    /// which anyone re-derives `numbers`; empty when the lots were drawn in the hall and the
    /// arbiter recorded the numbers.
    pub seed: String,
}

/// A team (TRF 013 / 310): members by pairing number in board order, `None` = an empty board.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TeamRecorded {
    /// TRF-2026 team number; 0 = not given.
    pub number: u32,
    pub name: String,
    pub nickname: String,
    pub strength: Option<u32>,
    pub match_points: Option<crate::Score>,
    pub game_points: Option<crate::Score>,
    pub rank: Option<u32>,
    pub members: Vec<Option<PlayerId>>,
}

/// A team's players for one round of a team event, board 1 first (Arbiters' Manual 2023 ch. IX §7: in its
/// list's order); a later one for the same round and team replaces it until publication.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineupSubmitted {
    pub round: u32,
    pub team: crate::teams::TeamNumber,
    pub players: Vec<PlayerId>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentFinished {
    pub rounds_played: u32,
}

/// A player who is paired from round 1. `player.player_id` is the pairing number given to him;
/// players from that number on move down by one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRegistered {
    pub player: Player,
}

/// A player who joins from a later round (C.04.2.C.2). `player.player_id` is the pairing number
/// given to him; players from that number on move down by one (C.04.2.C.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LateEntry {
    pub player: Player,
    /// The first round the player is paired in.
    pub first_round: u32,
    /// The code of each round before `first_round`, in round order.
    pub missed_rounds: Vec<ResultCode>,
}

/// Corrected registration data. `player.player_id` names the player (his number when the
/// event was written); the `fields` named take their values from `player`. Before round 1
/// starts the initial ranking follows the corrected data: `new_player_id` is the number he moves
/// to (the players between move up or down by one), `None` when he keeps his number.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerCorrected {
    pub player: Player,
    pub fields: Vec<String>,
    pub reason: String,
    pub new_player_id: Option<PlayerId>,
}

/// A registration undone before the player was first paired (a duplicate, a registration
/// made in error): the entry leaves the list, the players below him move up one number, and
/// he appears in no pairing, standings, crosstable or export. His entry number is not reused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegistrationCancelled {
    /// The stable entry number ([`super::EntryId::number`]).
    pub entry: u32,
    /// His pairing number when the event was written.
    pub player_id: PlayerId,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerWithdrawn {
    pub player_id: PlayerId,
    /// The first round in which the player is no longer paired.
    pub from_round: u32,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ByeRequested {
    pub player_id: PlayerId,
    pub round: u32,
    pub kind: ByeKind,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ByeCancelled {
    pub player_id: PlayerId,
    pub round: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AbsenceDeclared {
    pub player_id: PlayerId,
    pub round: u32,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundStarted {
    pub round: u32,
    /// Scheduled start, milliseconds since the Unix epoch.
    pub scheduled_unix_ms: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairingRequested {
    pub round: u32,
    pub rule_set: String,
    /// 1 for the first request of a round; one more for every new request.
    pub attempt: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairingProposed {
    pub round: u32,
    pub attempt: u32,
    /// Numbered 1..n in the engine's board order.
    pub boards: Vec<Board>,
    /// The pairing-allocated bye and every other player not on a board, by pairing number.
    pub unpaired: Vec<Unpaired>,
    pub engine: Engine,
    pub rule_set: String,
    pub based_on_version: u64,
    /// SHA-256 of the engine's canonical input.
    pub input_digest: Vec<u8>,
    pub explanation: String,
    /// A team event's matches in board order (`first` named first); empty otherwise.
    #[serde(default)]
    pub team_matches: Vec<crate::teams::TeamMatch>,
    /// A team event's team with the pairing-allocated bye.
    #[serde(default)]
    pub team_bye: Option<crate::teams::TeamNumber>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairingFailed {
    pub round: u32,
    pub attempt: u32,
    pub engine: Engine,
    pub rule_set: String,
    pub based_on_version: u64,
    pub input_digest: Vec<u8>,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairingPublished {
    pub round: u32,
    /// Stream version of the `PairingProposed` being published; `None` for a pairing made by
    /// hand without a proposal.
    pub proposal_version: Option<u64>,
    pub boards: Vec<Board>,
    pub unpaired: Vec<Unpaired>,
    pub manually_changed: bool,
    pub note: String,
    /// A team event's matches in board order (`first` named first); empty otherwise.
    #[serde(default)]
    pub team_matches: Vec<crate::teams::TeamMatch>,
    /// A team event's team with the pairing-allocated bye.
    #[serde(default)]
    pub team_bye: Option<crate::teams::TeamNumber>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultRecorded {
    pub round: u32,
    pub board: u32,
    pub result: BoardResult,
}

/// A new result for a board that already had one (C.04.2.D.8). What it changes depends on
/// when it is written; see [`super::CorrectionEffect`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultCorrected {
    pub round: u32,
    pub board: u32,
    pub previous: BoardResult,
    pub corrected: BoardResult,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundClosed {
    pub round: u32,
}

/// A game's score (PGN) for a board of a published pairing; one per board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSubmitted {
    pub round: u32,
    pub board: u32,
    pub pgn: String,
}

/// A player's fair-play agreement (E.04 Appendix I J); without it a player of an event that
/// requires it is not paired.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FairPlayConsentRecorded {
    pub player_id: PlayerId,
    pub regulations_version: String,
    pub accepted_by: String,
    pub by_guardian: bool,
    pub items: Vec<super::ConsentItem>,
    pub platform_account: String,
}

/// The platform's result (the submitted game's) is not what the Laws give its moves (E.04 15.3,
/// 15.4, 19.3, 19.4): for the arbiter to confirm or override. Appended with the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultDiscrepancyDetected {
    pub round: u32,
    pub board: u32,
    /// "1-0", "0-1" or "1/2-1/2".
    pub platform_result: String,
    pub laws_result: String,
    pub reason: String,
    pub article: String,
}

/// The arbiter's official result in place of the platform's; a `ResultRecorded` with it
/// follows in the same append.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResultOverridden {
    pub round: u32,
    pub board: u32,
    pub platform_result: String,
    pub result: BoardResult,
    pub reason: String,
    pub article: String,
}

/// A sanction, with what it rests on; its effects on results and rounds (a game lost, an
/// exclusion, an expulsion) follow in the same append.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SanctionImposed {
    pub player_id: PlayerId,
    pub kind: super::SanctionKind,
    /// 0: no game concerned.
    pub round: u32,
    pub rounds: Vec<u32>,
    pub amount: String,
    pub article: String,
    pub evidence: Vec<super::Evidence>,
    pub note: String,
}

/// An irregularity on a board and the decision taken.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct IrregularityRecorded {
    pub round: u32,
    pub board: u32,
    pub kind: super::IrregularityKind,
    pub plies: u32,
    pub decision: super::IrregularityDecision,
    pub article: String,
    pub note: String,
}

/// A breach of an online supervised event's supervision rules seen by an arbiter (E.04 8, 9,
/// 12-14), numbered 1, 2, ...: a fair-play violation that may be sanctioned, never
/// by itself proof of cheating.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SupervisionBreachRecorded {
    pub breach: u32,
    pub round: u32,
    pub board: u32,
    pub player_id: PlayerId,
    pub item: super::SupervisionItem,
    pub article: String,
    pub note: String,
}

/// A lost connection, numbered in the event (1, 2, ...).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConnectionIncidentReported {
    pub incident: u32,
    pub round: u32,
    pub board: u32,
    pub player_id: PlayerId,
    pub channel: super::ConnectionChannel,
    pub disconnected_at_unix_ms: i64,
    pub reconnected_at_unix_ms: Option<i64>,
    pub clock_at_disconnect_ms: u32,
    pub moved_while_vcs_down: bool,
    pub reported_by: super::IncidentReporter,
    pub note: String,
}

/// The ruling on an incident; a result it decides follows in the same append.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DisconnectionRuled {
    pub incident: u32,
    pub outcome: super::DisconnectionOutcome,
    /// Continue: the disconnected player's time left (his clock ran while he was away).
    pub remaining_ms: u32,
    pub fen: String,
    pub white_ms: u32,
    pub black_ms: u32,
    pub reduce_ms: u32,
    pub time_control: String,
    pub article: String,
    pub note: String,
}

/// A fair-play complaint received, numbered in the event, with how it was received.
/// Confidential: only the fair-play roles read it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ComplaintFiled {
    pub complaint: u32,
    pub complainant: PlayerId,
    pub complainant_fide_id: u64,
    pub accused: PlayerId,
    pub grounds: String,
    pub evidence: Vec<super::Evidence>,
    pub filed_at_unix_ms: i64,
    /// 0: the last round had not ended, so no deadline ran yet.
    pub deadline_unix_ms: i64,
    pub outcome: super::ComplaintOutcome,
    pub article: String,
}

/// An appeal received, numbered in the event; `admitted` false when it came after the announced
/// deadline (GR 10.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AppealFiled {
    pub appeal: u32,
    pub appellant: PlayerId,
    pub decision_version: u64,
    pub decision_kind: String,
    pub grounds: String,
    pub deposit: String,
    pub filed_at_unix_ms: i64,
    /// 0: no deadline announced.
    pub deadline_unix_ms: i64,
    pub admitted: bool,
}

/// The committee's decision; a result it changes follows in the same append.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AppealDecided {
    pub appeal: u32,
    pub upheld: bool,
    pub deposit_returned: bool,
    pub committee: Vec<String>,
    pub note: String,
}
