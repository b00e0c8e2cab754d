//! What users and services ask the tournament to do. Players are named by their current pairing
//! number.

use super::prize_fund::PrizeFund;
use super::types::{
    AccelerationMethod, Arbiter, BoardResult, ByeKind, Date, Engine, Pair, PairingSystem,
    RatingKind, Sex, Title,
};
use crate::{Color, PlayerId, PointSystem};
use serde::{Deserialize, Serialize};

/// A request to change a tournament.
#[expect(
    clippy::large_enum_variant,
    reason = "one at a time is decided or folded; boxing the tournament's settings would only add an allocation per value"
)]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Command {
    CreateTournament(CreateTournament),
    UpdateTournament(UpdateTournament),
    RegisterPlayer(RegisterPlayer),
    WithdrawPlayer(WithdrawPlayer),
    CorrectPlayer(CorrectPlayer),
    CancelRegistration(CancelRegistration),
    RequestBye(RequestBye),
    CancelBye(CancelBye),
    DeclareAbsence(DeclareAbsence),
    RecordFairPlayConsent(RecordFairPlayConsent),
    OverridePlatformResult(OverridePlatformResult),
    ImposeSanction(ImposeSanction),
    RecordIrregularity(RecordIrregularity),
    RecordSupervisionBreach(RecordSupervisionBreach),
    ReportConnectionIncident(ReportConnectionIncident),
    RuleOnDisconnection(RuleOnDisconnection),
    FileComplaint(FileComplaint),
    FileAppeal(FileAppeal),
    DecideAppeal(DecideAppeal),
    StartRound(StartRound),
    RequestPairing(RequestPairing),
    ProposePairing(ProposePairing),
    ReportPairingFailure(ReportPairingFailure),
    PublishPairing(PublishPairing),
    RecordResult(RecordResult),
    CorrectResult(CorrectResult),
    CloseRound(CloseRound),
    FinishTournament(FinishTournament),
    SetVirtualPoints(SetVirtualPoints),
    ForbidPairings(ForbidPairings),
    DrawLots(DrawLots),
    RecordTeam(RecordTeam),
    SubmitLineup(SubmitLineup),
    SubmitGame(SubmitGame),
    SubmitGames(SubmitGames),
}

impl Command {
    pub fn name(&self) -> &'static str {
        match self {
            Command::CreateTournament(_) => "CreateTournament",
            Command::UpdateTournament(_) => "UpdateTournament",
            Command::RegisterPlayer(_) => "RegisterPlayer",
            Command::WithdrawPlayer(_) => "WithdrawPlayer",
            Command::CorrectPlayer(_) => "CorrectPlayer",
            Command::CancelRegistration(_) => "CancelRegistration",
            Command::RequestBye(_) => "RequestBye",
            Command::CancelBye(_) => "CancelBye",
            Command::DeclareAbsence(_) => "DeclareAbsence",
            Command::RecordFairPlayConsent(_) => "RecordFairPlayConsent",
            Command::OverridePlatformResult(_) => "OverridePlatformResult",
            Command::ImposeSanction(_) => "ImposeSanction",
            Command::RecordIrregularity(_) => "RecordIrregularity",
            Command::RecordSupervisionBreach(_) => "RecordSupervisionBreach",
            Command::ReportConnectionIncident(_) => "ReportConnectionIncident",
            Command::RuleOnDisconnection(_) => "RuleOnDisconnection",
            Command::FileComplaint(_) => "FileComplaint",
            Command::FileAppeal(_) => "FileAppeal",
            Command::DecideAppeal(_) => "DecideAppeal",
            Command::StartRound(_) => "StartRound",
            Command::RequestPairing(_) => "RequestPairing",
            Command::ProposePairing(_) => "ProposePairing",
            Command::ReportPairingFailure(_) => "ReportPairingFailure",
            Command::PublishPairing(_) => "PublishPairing",
            Command::RecordResult(_) => "RecordResult",
            Command::CorrectResult(_) => "CorrectResult",
            Command::CloseRound(_) => "CloseRound",
            Command::FinishTournament(_) => "FinishTournament",
            Command::SetVirtualPoints(_) => "SetVirtualPoints",
            Command::ForbidPairings(_) => "ForbidPairings",
            Command::DrawLots(_) => "DrawLots",
            Command::RecordTeam(_) => "RecordTeam",
            Command::SubmitLineup(_) => "SubmitLineup",
            Command::SubmitGame(_) => "SubmitGame",
            Command::SubmitGames(_) => "SubmitGames",
        }
    }
}

/// Acceleration as announced: the method, and optionally the accelerated rounds (default: the
/// method's rounds for the rule set, see [`super::Acceleration::baku`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccelerationChoice {
    pub method: AccelerationMethod,
    /// `(first_round, last_round)`, inclusive.
    pub rounds: Option<(u32, u32)>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreateTournament {
    pub name: String,
    pub place: String,
    /// Organising federation, FIDE three-letter code (or empty).
    pub federation: String,
    pub start_date: Date,
    pub end_date: Date,
    pub chief_arbiter: Arbiter,
    pub deputy_arbiters: Vec<Arbiter>,
    pub pairing_system: PairingSystem,
    /// `None`: the system's default; for the Dutch system the rule set in force on the start
    /// date (`dutch-2025` from 2025-07-01, else `dutch-2017`).
    pub rule_set: Option<String>,
    pub rounds: u32,
    /// Points per result, including the values of byes and forfeits.
    pub scoring: PointSystem,
    pub initial_color: Option<Color>,
    pub rating_kind: RatingKind,
    /// Tie-breaks in order, comma-separated, e.g. "BH/C1, BH, SB, DE".
    pub tie_breaks: String,
    pub time_control: String,
    pub acceleration: Option<AccelerationChoice>,
    pub fide_rated: bool,
    /// The TRF "type of tournament" (092) as written; empty when not given.
    pub tournament_type: String,
    /// The planned date of each round; `None` = not scheduled.
    pub round_dates: Vec<Option<Date>>,
    /// TRF records carried but not interpreted, verbatim, one line each.
    pub trf_records: Vec<String>,
    /// The format and what hangs off it; the default is over the board.
    #[serde(default)]
    pub conduct: super::Conduct,
    /// A knockout's regulations: required for a knockout, refused for any other system.
    #[serde(default)]
    pub knockout: Option<arbiter_knockout::Rules>,
    /// A team event's regulations; `game_points` is taken from `scoring`.
    #[serde(default)]
    pub team_rules: Option<crate::teams::TeamRules>,
}

impl CreateTournament {
    /// A Dutch-system tournament with FIDE scoring, standard rating, the default rule set, no
    /// acceleration and no tie-breaks; adjust the fields as needed.
    pub fn new(
        name: impl Into<String>,
        start_date: Date,
        end_date: Date,
        rounds: u32,
    ) -> CreateTournament {
        CreateTournament {
            name: name.into(),
            place: String::new(),
            federation: String::new(),
            start_date,
            end_date,
            chief_arbiter: Arbiter::default(),
            deputy_arbiters: Vec::new(),
            pairing_system: PairingSystem::Dutch,
            rule_set: None,
            rounds,
            scoring: PointSystem::default(),
            initial_color: Some(Color::White),
            rating_kind: RatingKind::Standard,
            tie_breaks: String::new(),
            time_control: String::new(),
            acceleration: None,
            fide_rated: true,
            tournament_type: String::new(),
            round_dates: Vec::new(),
            trf_records: Vec::new(),
            conduct: super::Conduct::default(),
            knockout: None,
            team_rules: None,
        }
    }
}

/// Changes to descriptive data; `None` leaves a field unchanged.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct UpdateTournament {
    pub name: Option<String>,
    pub place: Option<String>,
    pub start_date: Option<Date>,
    pub end_date: Option<Date>,
    pub chief_arbiter: Option<Arbiter>,
    /// C.04.1.a: fixed in advance; may only be changed to a number not below the rounds
    /// already started (the commentary allows circumstances to force it).
    pub rounds: Option<u32>,
    /// Replaces the list, comma-separated.
    pub tie_breaks: Option<String>,
    /// Organising federation, FIDE three-letter code (empty: none).
    pub federation: Option<String>,
    /// Replaces the list of deputy arbiters.
    pub deputy_arbiters: Option<Vec<Arbiter>>,
    pub time_control: Option<String>,
    /// The rating list used; only before round 1 starts (every round is rated from it).
    pub rating_kind: Option<RatingKind>,
    /// Replaces the announced prize fund; not once the event is finished.
    pub prize_fund: Option<PrizeFund>,
}

/// Registers a player. Before round 1 is published he is paired from round 1; later he is a
/// late entry from the first round whose pairing is not yet published (or `first_round`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct RegisterPlayer {
    pub name: String,
    pub fide_id: Option<u64>,
    pub national_id: String,
    pub rating: u32,
    pub national_rating: u32,
    pub k_factor: u32,
    pub title: Option<Title>,
    pub federation: String,
    pub birth_date: Option<Date>,
    pub sex: Option<Sex>,
    pub club: String,
    /// The first round the player can play (a player announcing he arrives for round 3);
    /// `None` = the first round whose pairing is not yet published.
    pub first_round: Option<u32>,
    /// What the rounds before `first_round` score: zero (C.04.2.C.2) unless the regulations
    /// say otherwise.
    pub missed_rounds: ByeKind,
    /// The arbiter confirms a second player of the same name (refused otherwise unless both
    /// have a FIDE id: a same-name registration without one is most often a duplicate).
    #[serde(default)]
    pub confirm_same_name: bool,
    /// The player takes the next pairing number instead of his place in the initial ranking
    /// (C.04.2.B): an import keeps the numbers its file gives, which may order ties, or the
    /// whole list, otherwise than the ranking keys arbiter knows.
    #[serde(default)]
    pub next_number: bool,
}

impl RegisterPlayer {
    pub fn new(name: impl Into<String>, rating: u32) -> RegisterPlayer {
        RegisterPlayer {
            name: name.into(),
            rating,
            ..RegisterPlayer::default()
        }
    }
}

/// Corrects a player's registration data (a misspelt name, a wrong rating, title or FIDE id):
/// the `fields` named take their value from `corrected` (its `player_id` is ignored). Field
/// names as in [`Player`]: name, fide_id, national_id, rating, national_rating, k_factor,
/// title, federation, birth_date, sex, club.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CorrectPlayer {
    pub player: PlayerId,
    pub corrected: super::types::Player,
    pub fields: Vec<String>,
    pub reason: String,
}

/// Undoes a registration made in error (a duplicate, the wrong tournament) before the player is
/// first paired: he leaves the list as if never registered (the players below move up one
/// number). Once a published pairing lists him he is withdrawn instead.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CancelRegistration {
    pub player: PlayerId,
    pub reason: String,
}

/// The player is not paired from `from_round` on (C.04.2.D.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WithdrawPlayer {
    pub player: PlayerId,
    pub from_round: u32,
    pub reason: String,
}

/// A bye for one round (C.05 §6.7.4, C.04.2.D.4); only before that round's pairing is published.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequestBye {
    pub player: PlayerId,
    pub round: u32,
    pub kind: ByeKind,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CancelBye {
    pub player: PlayerId,
    pub round: u32,
}

/// The player will not play `round` (C.04.2.D.4): not paired, zero points.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeclareAbsence {
    pub player: PlayerId,
    pub round: u32,
    pub reason: String,
}

/// A player's fair-play agreement for an online or hybrid event (E.04 Appendix I J).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordFairPlayConsent {
    pub player: PlayerId,
    pub regulations_version: String,
    pub accepted_by: String,
    pub by_guardian: bool,
    pub items: Vec<super::ConsentItem>,
    pub platform_account: String,
}

/// The arbiter's official result where it differs from the platform's (E.04 9.14, 15.3-15.4,
/// 19.3-19.4): online and hybrid events, a board whose game is submitted, before a result is
/// recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OverridePlatformResult {
    pub round: u32,
    pub board: u32,
    pub result: BoardResult,
    pub reason: String,
}

/// A sanction of the one catalogue (Laws 12.9 = E.04 10.9 = 18.4), with its evidence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImposeSanction {
    pub player: PlayerId,
    pub kind: super::SanctionKind,
    /// The round of the game concerned (required for a game lost).
    pub round: Option<u32>,
    /// The rounds of an exclusion.
    pub rounds: Vec<u32>,
    /// Time or money, as the regulations state it.
    pub amount: String,
    /// Empty: the kind's article of the Laws.
    pub article: String,
    pub evidence: Vec<super::Evidence>,
    pub note: String,
}

/// An irregularity on a board and the arbiter's decision (E.04 15, 19; Laws 6.10-7.3).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordIrregularity {
    pub round: u32,
    pub board: u32,
    pub kind: super::IrregularityKind,
    /// Moves made by both sides so far (half-moves).
    pub plies: u32,
    /// Required except for colours reversed, whose decision the rule gives.
    pub decision: Option<super::IrregularityDecision>,
    pub note: String,
}

/// A breach of the supervision rules of an online supervised event, by the player of a board
/// (E.04 8, 9, 12-14; Appendix I A.5-A.6).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordSupervisionBreach {
    pub round: u32,
    pub board: u32,
    pub player: PlayerId,
    pub item: super::SupervisionItem,
    pub note: String,
}

/// A player's lost connection during a game (E.04 11, 13, 18.8-18.9): a fact, reported by the
/// platform, a venue's technical arbiter or an arbiter, with server times and the clock.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportConnectionIncident {
    pub round: u32,
    pub board: u32,
    pub player: PlayerId,
    pub channel: super::ConnectionChannel,
    pub disconnected_at_unix_ms: i64,
    pub reconnected_at_unix_ms: Option<i64>,
    /// The player's clock when he disconnected.
    pub clock_at_disconnect_ms: u32,
    /// He moved on the platform while off the video-conference (E.04 13.3).
    pub moved_while_vcs_down: bool,
    pub reported_by: super::IncidentReporter,
    pub note: String,
}

/// The chief arbiter's ruling on incident `incident` (E.04 11.4, 18.9).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuleOnDisconnection {
    pub incident: u32,
    pub outcome: super::DisconnectionOutcome,
    /// The position when the flag fell, the window closed or the game was interrupted (FEN).
    pub fen: String,
    /// Whether the disconnected player's opponent can still mate in `fen`, as the service read
    /// it from the position (`None`: no position given).
    pub opponent_can_mate: Option<bool>,
    /// Resume from position: both clocks.
    pub white_ms: u32,
    pub black_ms: u32,
    /// Reduce time: by how much.
    pub reduce_ms: u32,
    /// Restart with a shorter time control: which.
    pub time_control: String,
    pub note: String,
}

/// A participant's written fair-play complaint in an online or hybrid event (E.04 Appendix I
/// G.2). The times are the service's: when it was received, and when the last round ended
/// (from the log), if it has.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileComplaint {
    pub complainant: PlayerId,
    pub accused: PlayerId,
    pub grounds: String,
    pub evidence: Vec<super::Evidence>,
    /// The complaint rests only on the accused playing above his rating.
    pub only_rating_performance: bool,
    pub filed_at_unix_ms: i64,
    pub last_round_ended_at_unix_ms: Option<i64>,
}

/// An appeal against an arbiter's decision (E.04 9.14, 17.11; GR 10.3). The decision is named
/// by its event's stream version; its kind and the time the log recorded it, and the time the
/// appeal was received, are the service's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileAppeal {
    pub appellant: PlayerId,
    pub decision_version: u64,
    /// The decision's event kind, e.g. "SanctionImposed".
    pub decision_kind: String,
    pub decision_at_unix_ms: i64,
    pub grounds: String,
    /// The deposit paid, as the regulations state it.
    pub deposit: String,
    pub filed_at_unix_ms: i64,
}

/// The appeals committee's decision (GR 10.2-10.4); an upheld appeal may change a result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DecideAppeal {
    pub appeal: u32,
    pub upheld: bool,
    /// The result the committee sets, if it changes one.
    pub new_result: Option<(u32, u32, BoardResult)>,
    pub deposit_returned: bool,
    /// The members who sat: an odd number, at least three (GR 10.2).
    pub committee: Vec<String>,
    pub note: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StartRound {
    pub round: u32,
    pub scheduled_unix_ms: Option<i64>,
}

/// Asks for a new pairing of the current round (e.g. after a failure or a rejected proposal).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RequestPairing {
    pub round: u32,
}

/// An engine's pairing of the round requested.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProposePairing {
    pub round: u32,
    /// The attempt of the `PairingRequested` this answers.
    pub attempt: u32,
    /// In board order.
    pub boards: Vec<Pair>,
    /// The pairing-allocated bye.
    pub bye: Option<PlayerId>,
    pub engine: Engine,
    pub rule_set: String,
    pub based_on_version: u64,
    /// SHA-256 of the engine's canonical input (32 bytes).
    pub input_digest: Vec<u8>,
    pub explanation: String,
    /// A team event's matches (then `boards` is empty) and team PAB.
    #[serde(default)]
    pub team_matches: Vec<crate::teams::TeamMatch>,
    #[serde(default)]
    pub team_bye: Option<crate::teams::TeamNumber>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportPairingFailure {
    pub round: u32,
    pub attempt: u32,
    pub engine: Engine,
    pub rule_set: String,
    pub based_on_version: u64,
    pub input_digest: Vec<u8>,
    pub reason: String,
}

/// A pairing set by the arbiter instead of the proposal (C.04.2.A.5: recorded and attributable).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManualPairing {
    pub boards: Vec<Pair>,
    pub bye: Option<PlayerId>,
    /// A team event's matches and team PAB (then `boards` and `bye` are empty): the boards
    /// follow from the line-ups.
    #[serde(default)]
    pub team_matches: Vec<crate::teams::TeamMatch>,
    #[serde(default)]
    pub team_bye: Option<crate::teams::TeamNumber>,
}

/// Makes the last proposal official, or the arbiter's own pairing (`changes`, which needs a
/// `note` giving the reason).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublishPairing {
    pub round: u32,
    /// Stream version of the proposal being published, as the log knows it.
    pub proposal_version: Option<u64>,
    pub changes: Option<ManualPairing>,
    pub note: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordResult {
    pub round: u32,
    pub board: u32,
    pub result: BoardResult,
}

/// A new result for a board that already has one (C.04.2.D.8).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CorrectResult {
    pub round: u32,
    pub board: u32,
    pub result: BoardResult,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CloseRound {
    pub round: u32,
}

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct FinishTournament {}

/// Sets a player's virtual points of acceleration for rounds 1, 2, ... (as TRF `XXA` carries
/// them); they replace the announced method's values for him. Only rounds whose pairing is not
/// published may change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetVirtualPoints {
    pub player: PlayerId,
    pub points: Vec<crate::Score>,
}

/// The players must not meet each other in `rounds` (inclusive; `None` = the whole event), as
/// TRF `XXP` / record 260 say. Only from a round whose pairing is not published.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForbidPairings {
    pub players: Vec<PlayerId>,
    pub rounds: Option<(u32, u32)>,
}

/// Draws the lots of a round robin before round 1 (C.05 §6.2): from a published `seed`, or the
/// `numbers` drawn in the hall (`numbers[i]` for the player numbered `i + 1`); exactly one of
/// the two. `varma`: the restricted draw of the Varma tables (C.05 §5.3, Annex 2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawLots {
    pub varma: bool,
    pub seed: String,
    pub numbers: Vec<PlayerId>,
}

/// Records a team (TRF 013 / 310); members by current pairing number.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordTeam {
    pub team: super::event::TeamRecorded,
}

/// A team's line-up for a round of a team event (players by pairing number, board 1 first).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubmitLineup {
    pub round: u32,
    pub team: crate::teams::TeamNumber,
    pub players: Vec<PlayerId>,
}

/// A game's score for a board of a published pairing. The PGN is read (and its legality
/// checked) before deciding, outside this pure crate; `white`, `black` and `result` are what
/// its tags and termination say, checked here against the pairing and the recorded result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubmitGame {
    pub round: u32,
    pub board: u32,
    pub pgn: String,
    pub white: String,
    pub black: String,
    /// The PGN's result: "1-0", "0-1", "1/2-1/2" or "*".
    pub result: String,
    /// What the Laws make of its end, when its moves decide it; in an online or hybrid event a
    /// verdict other than `result` is a discrepancy for the arbiter (E.04 15.3-15.4).
    #[serde(default)]
    pub laws: Option<super::LawsVerdict>,
}

/// The games of one round from one PGN file, each matched to its board of the published
/// pairing by its players' registered names (White and Black), each checked as
/// [`SubmitGame`] is. All or nothing: one game refused refuses the file, naming the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubmitGames {
    pub round: u32,
    /// In file order.
    pub games: Vec<GameInFile>,
}

/// One game of a [`SubmitGames`] file: its own PGN text and what its tags and termination say.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameInFile {
    /// 1-based position in the file.
    pub index: u32,
    pub pgn: String,
    pub white: String,
    pub black: String,
    /// "1-0", "0-1", "1/2-1/2" or "*".
    pub result: String,
    /// As [`SubmitGame::laws`].
    #[serde(default)]
    pub laws: Option<super::LawsVerdict>,
}
