//! Why a command was refused (or, for [`super::State::try_apply`], why an event does not fit
//! the state it is folded into). Every message names what and where: player, round, board.

use super::state::{Availability, RoundPhase};
use super::types::{BoardResult, ByeKind};
use crate::PlayerId;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DomainError {
    // --- lifecycle -----------------------------------------------------------------------------
    #[error(
        "no tournament in this stream: the first command must be CreateTournament, not {command}"
    )]
    TournamentNotCreated { command: &'static str },
    #[error("the tournament already exists")]
    TournamentAlreadyCreated,
    #[error(
        "the tournament is finished (after round {rounds_played}): {command} is no longer possible"
    )]
    TournamentFinished {
        command: &'static str,
        rounds_played: u32,
    },
    #[error("invalid {field}: {reason}")]
    Invalid { field: String, reason: String },
    #[error("nothing to update: every field of the update is empty")]
    NothingToUpdate,

    // --- players -------------------------------------------------------------------------------
    #[error("player {player} does not exist (pairing numbers are 1..={players})")]
    UnknownPlayer { player: PlayerId, players: u32 },
    #[error("FIDE id {fide_id} is already registered as player {player}")]
    DuplicateFideId { fide_id: u64, player: PlayerId },
    #[error(
        "{name:?} is already registered as player {player} (entry {entry}); a second player of \
         the same name without a FIDE id is most often a duplicate: confirm it is another person \
         (confirm_same_name), give his FIDE id, or correct the existing entry"
    )]
    SameNameRegistered {
        name: String,
        player: PlayerId,
        entry: u32,
    },
    #[error("the registration of entry {entry} ({name}) cannot be cancelled: {reason}")]
    RegistrationNotCancellable {
        entry: u32,
        name: String,
        reason: String,
    },
    #[error("the tournament already has {players} players, the most a pairing number can name")]
    TooManyPlayers { players: u32 },
    #[error("player {player} has withdrawn from round {from_round} on")]
    PlayerWithdrawn { player: PlayerId, from_round: u32 },
    #[error("player {player} enters at round {first_round} and takes no part in round {round}")]
    PlayerNotEntered {
        player: PlayerId,
        round: u32,
        first_round: u32,
    },
    #[error("player {player} already has a {kind} for round {round}")]
    ByeAlreadyRequested {
        player: PlayerId,
        round: u32,
        kind: ByeKind,
    },
    #[error("player {player} has no bye requested for round {round}")]
    NoByeRequested { player: PlayerId, round: u32 },
    #[error("player {player} is already declared absent for round {round}")]
    AbsenceAlreadyDeclared { player: PlayerId, round: u32 },
    #[error(
        "the fair-play consent is not asked in this event (it is {format}; E.04 Appendix I J is \
         for supervised online and hybrid events, and unsupervised ones whose regulations ask it)"
    )]
    ConsentNotRequired { format: String },
    #[error(
        "player {player} has already given the fair-play consent (to regulations {regulations_version:?}, platform account {platform_account:?})"
    )]
    ConsentAlreadyRecorded {
        player: PlayerId,
        regulations_version: String,
        platform_account: String,
    },
    #[error(
        "round {round}: player(s) {players:?} have not given the fair-play consent (E.04 Appendix I J); \
         a round robin's schedule pairs every player: record their consent or withdraw them"
    )]
    ConsentMissing { round: u32, players: Vec<PlayerId> },
    #[error("no round is left to enter: the pairings of all {rounds} rounds are published")]
    NoRoundLeftToEnter { rounds: u32 },
    #[error(
        "a player can enter from round {earliest} on (earlier pairings are published), not round {round}"
    )]
    EntryTooEarly { round: u32, earliest: u32 },

    // --- rounds --------------------------------------------------------------------------------
    #[error("round {round} does not exist: the tournament has {rounds} rounds")]
    RoundOutOfRange { round: u32, rounds: u32 },
    #[error("round {round} cannot start now: the next round is {expected}")]
    RoundOutOfOrder { round: u32, expected: u32 },
    #[error("round {round} has not started")]
    RoundNotStarted { round: u32 },
    #[error("round {round} cannot start before round {previous} is closed")]
    PreviousRoundNotClosed { round: u32, previous: u32 },
    #[error("the pairing of round {round} is already published; {hint}")]
    RoundAlreadyPaired { round: u32, hint: &'static str },
    #[error("round {round} is {phase}, not waiting for a pairing")]
    RoundNotPending { round: u32, phase: RoundPhase },
    #[error("the pairing of round {round} is not published yet")]
    RoundNotPublished { round: u32 },
    #[error("round {round} is closed: use CorrectResult to change its results")]
    RoundClosed { round: u32 },
    #[error("round {round} is already closed")]
    RoundAlreadyClosed { round: u32 },
    #[error("round {round} is not finished: no result on board(s) {boards:?}")]
    ResultsMissing { round: u32, boards: Vec<u32> },
    #[error("round {round} has only {available} player(s) to pair; at least 2 are needed")]
    NotEnoughPlayers { round: u32, available: u32 },
    #[error("the tournament cannot finish: {closed} of {rounds} rounds are closed")]
    RoundsRemaining { closed: u32, rounds: u32 },
    #[error(
        "a {kind} of {players} players has {expected} rounds, not {rounds}: change the number of rounds (UpdateTournament) or the field"
    )]
    RoundRobinRounds {
        players: u32,
        rounds: u32,
        expected: u32,
        /// "round robin", "double round robin", "Scheveningen", "semi-Scheveningen".
        kind: &'static str,
    },

    #[error(
        "a knockout of {players} players has {expected} rounds ({knockout_rounds} knockout rounds, each of at most {games} games a match: every game is a round of the event), not {rounds}: change the number of rounds (UpdateTournament) or the field"
    )]
    KnockoutRounds {
        players: u32,
        rounds: u32,
        expected: u32,
        knockout_rounds: u32,
        games: u32,
    },
    #[error(
        "the knockout was decided in round {decided_in} (player {winner} won the final): there is no round {round}; finish the tournament"
    )]
    KnockoutDecided {
        round: u32,
        decided_in: u32,
        winner: PlayerId,
    },
    #[error("the knockout is not decided yet: the matches of round {round} go on")]
    KnockoutUndecided { round: u32 },

    // --- pairings ------------------------------------------------------------------------------
    #[error(
        "round {round}: the proposal answers attempt {attempt}, but the current request is attempt {current}"
    )]
    StaleAttempt {
        round: u32,
        attempt: u32,
        current: u32,
    },
    #[error("round {round}: the tournament pairs with rule set {expected:?}, not {given:?}")]
    RuleSetMismatch {
        round: u32,
        expected: String,
        given: String,
    },
    #[error(
        "round {round}: there is no proposal to publish (give the pairing explicitly to publish one by hand)"
    )]
    NoProposal { round: u32 },
    #[error("round {round}: a proposal already exists for attempt {attempt}")]
    AlreadyProposed { round: u32, attempt: u32 },
    #[error("round {round}: player {player} is not a registered player")]
    PairingUnknownPlayer { round: u32, player: PlayerId },
    #[error("round {round}: player {player} is paired more than once")]
    PairedTwice { round: u32, player: PlayerId },
    #[error("round {round}, board {board}: player {player} is paired against himself")]
    PairedWithSelf {
        round: u32,
        board: u32,
        player: PlayerId,
    },
    #[error("round {round}: player {player} is not to be paired ({availability})")]
    NotAvailable {
        round: u32,
        player: PlayerId,
        availability: Availability,
    },
    #[error(
        "round {round}: player(s) {players:?} are to be paired but are neither on a board nor the bye"
    )]
    PlayersLeftOut { round: u32, players: Vec<PlayerId> },
    #[error(
        "round {round}, board {board}: players {white} and {black} already played each other in round {earlier_round} (C.04.1.b)"
    )]
    Rematch {
        round: u32,
        board: u32,
        white: PlayerId,
        black: PlayerId,
        earlier_round: u32,
    },
    #[error(
        "round {round}: player {player} cannot get the pairing-allocated bye: {reason} in round {earlier_round} (C.04.1.d)"
    )]
    ByeNotAllowed {
        round: u32,
        player: PlayerId,
        earlier_round: u32,
        reason: &'static str,
    },

    #[error(
        "round {round}, board {board}: the round-robin schedule (Berger table) has {expected}, not {given}"
    )]
    OffSchedule {
        round: u32,
        board: u32,
        expected: String,
        given: String,
    },
    #[error("round {round}, board {board}: the knockout bracket has {expected}, not {given}")]
    OffBracket {
        round: u32,
        board: u32,
        expected: String,
        given: String,
    },

    // --- results -------------------------------------------------------------------------------
    #[error("round {round} has no board {board} (boards are 1..={boards})")]
    UnknownBoard { round: u32, board: u32, boards: u32 },
    #[error("round {round}, board {board} already has the result {result}: use CorrectResult")]
    ResultAlreadyRecorded {
        round: u32,
        board: u32,
        result: BoardResult,
    },
    #[error("round {round}, board {board} has no result yet: use RecordResult")]
    ResultNotRecorded { round: u32, board: u32 },
    #[error("round {round}, board {board} already has the result {result}")]
    ResultUnchanged {
        round: u32,
        board: u32,
        result: BoardResult,
    },
    #[error("round {round}, board {board}: invalid arbiter decision: {reason}")]
    InvalidDecision {
        round: u32,
        board: u32,
        reason: String,
    },

    #[error(
        "the event is {format}: a platform's result is overridden only in online and hybrid \
         events; over the board the signed result stands (Laws 8.7) unless the arbiter records \
         a decision with RecordResult"
    )]
    NotOnline { format: String },
    #[error(
        "round {round}, board {board}: no game is submitted, so there is no platform result to override"
    )]
    NoPlatformResult { round: u32, board: u32 },
    #[error(
        "a sanction needs evidence other than statistics: a screening result alone is never \
         enough (FIDE anti-cheating regulations; Regan's notes VIII.1); attach the physical \
         evidence, the observed breach, an admission, the platform's decision or testimony"
    )]
    StatisticalEvidenceOnly,
    #[error("no appeal {appeal} (appeals are 1..={appeals})")]
    UnknownAppeal { appeal: u32, appeals: u32 },
    #[error("appeal {appeal}: {reason}")]
    AppealNotOpen { appeal: u32, reason: String },
    #[error("no connection incident {incident} (incidents are 1..={incidents})")]
    UnknownIncident { incident: u32, incidents: u32 },
    #[error("incident {incident} already has a ruling ({outcome})")]
    IncidentAlreadyRuled { incident: u32, outcome: String },
    #[error("incident {incident}: {outcome} is not possible: {reason}")]
    RulingNotAllowed {
        incident: u32,
        outcome: String,
        reason: String,
    },
    #[error("round {round}: player {player} has no game (he is not on a board of the round)")]
    NoGameInRound { round: u32, player: PlayerId },

    // --- games ---------------------------------------------------------------------------------
    #[error(
        "round {round}, board {board}: a game is already submitted for this board (one per board)"
    )]
    GameAlreadySubmitted { round: u32, board: u32 },
    #[error(
        "round {round}, board {board}: the game does not match the published pairing: {reason}"
    )]
    GameMismatch {
        round: u32,
        board: u32,
        reason: String,
    },
    #[error("game {index} of the file ({white} - {black}): {error}")]
    GameInFile {
        index: u32,
        white: String,
        black: String,
        error: Box<DomainError>,
    },
    #[error("game {index} of the file ({white} - {black}): no board of round {round} has {reason}")]
    NoBoardForGame {
        index: u32,
        white: String,
        black: String,
        round: u32,
        reason: String,
    },
    #[error(
        "round {round}, board {board}: the result {result} contradicts the submitted game, whose \
         score ends {game_result:?}: {reason}"
    )]
    ResultContradictsGame {
        round: u32,
        board: u32,
        result: BoardResult,
        game_result: String,
        reason: String,
    },

    // --- replay --------------------------------------------------------------------------------
    #[error("event {event} does not fit the state: {reason}")]
    InconsistentEvent { event: &'static str, reason: String },
}

impl DomainError {
    pub(crate) fn invalid(field: impl Into<String>, reason: impl Into<String>) -> DomainError {
        DomainError::Invalid {
            field: field.into(),
            reason: reason.into(),
        }
    }
}
