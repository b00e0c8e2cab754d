//! The tournament aggregate: commands are decided against the state folded from the events
//! before them, and the events they produce are folded in turn.
//!
//! ```text
//! decide(&State, &Command) -> Result<Vec<Event>, DomainError>
//! State::apply(&mut self, &Event)              (a pure fold; State::default() = empty stream)
//! ```
//!
//! The aggregate is pure: no I/O, no clock (times arrive as data), no randomness, no hash-map
//! iteration. Idempotency of commands and optimistic concurrency belong to the event log.
//!
//! ```
//! use arbiter_core::tournament::*;
//! use arbiter_core::Score;
//!
//! let mut state = State::default();
//! let mut run = |state: &mut State, c: Command| -> Result<Vec<Event>, DomainError> {
//!     let events = decide(state, &c)?;
//!     events.iter().for_each(|e| state.apply(e));
//!     Ok(events)
//! };
//! let start: Date = "2025-09-01".parse().unwrap();
//! let mut create = CreateTournament::new("Autumn Open", start, start, 5);
//! create.chief_arbiter = Arbiter::named("Doe, Jane");
//! run(&mut state, Command::CreateTournament(create))?;
//! run(&mut state, Command::RegisterPlayer(RegisterPlayer::new("Player, B", 2100)))?;
//! run(&mut state, Command::RegisterPlayer(RegisterPlayer::new("Player, A", 2200)))?;
//! assert_eq!(state.player(1).unwrap().player.name, "Player, A");
//!
//! run(&mut state, Command::StartRound(StartRound { round: 1, scheduled_unix_ms: None }))?;
//! let input = state.pairing_input(1)?; // what the pairing engine is given
//! assert_eq!(input.rule_set, "dutch-2025");
//! run(&mut state, Command::ProposePairing(ProposePairing {
//!     round: 1,
//!     attempt: input.attempt,
//!     boards: vec![Pair::new(1, 2)],
//!     bye: None,
//!     engine: Engine { name: "some-engine".into(), version: "1".into() },
//!     rule_set: input.rule_set.clone(),
//!     based_on_version: 4,
//!     input_digest: vec![0; 32],
//!     explanation: String::new(),
//!     team_matches: Vec::new(),
//!     team_bye: None,
//! }))?;
//! run(&mut state, Command::PublishPairing(PublishPairing {
//!     round: 1, proposal_version: Some(5), changes: None, note: String::new(),
//! }))?;
//! run(&mut state, Command::RecordResult(RecordResult { round: 1, board: 1, result: BoardResult::Draw }))?;
//! assert_eq!(state.score(2), Some(Score::HALF));
//! # Ok::<(), DomainError>(())
//! ```
//!
//! Rules enforced here, with their sources (C.04.1, C.04.2 and C.05 for every event, E.04 online):
//!
//! - Pairing numbers follow the initial ranking (C.04.2.B.2–3): rating descending, then title
//!   (GM, IM, WGM, FM, WIM, CM, WFM, WCM, untitled), then name; players who tie on all three
//!   keep their order of registration ([`State::initial_ranking_ties`] lists them). Every new
//!   player, before round 1 or as a late entry (C.04.2.C.1–3), is inserted at his place in that
//!   order and the players below him move down one number; the event records the number given,
//!   which is all a replay needs. Late entrants score the code given for the rounds they miss
//!   (zero unless the regulations say otherwise, C.04.2.C.2). A correction of registration data
//!   before round 1 starts moves the player to his place for the corrected data (the list is
//!   provisional until then); from round 1 on numbers change only by late entries. A
//!   registration made in error is cancelled (`RegistrationCancelled`) as long as no published
//!   pairing lists the player: he leaves the list and the players below move up one. Every
//!   player also has an entry number ([`EntryId::number`], order of registration) that never
//!   changes; [`State::number_moved_since`] tells whether a number read earlier still names the
//!   same player.
//! - Byes, absences and withdrawals are accepted until the pairing of their round is published
//!   (C.05 §6.7.2; C.04.2.D.3–4); a change that affects a pairing already requested asks for it
//!   again (a new `PairingRequested` attempt), so no stale proposal can be published.
//! - A proposal must pair every available player exactly once, the pairing-allocated bye only
//!   when their number is odd; for Swiss systems no rematch of a played game (C.04.1.b,
//!   C.04.2.D.6) and no PAB for a player who already had one or won by forfeit (C.04.1.d), or,
//!   under `dutch-2025`, who scored a win's points without playing ([C2]).
//! - A published pairing is not changed (C.04.2.D.10); a pairing set by hand is published with
//!   `manually_changed` and a note (C.04.2.A.5).
//! - Result corrections are new events (C.04.2.D.8), whose effect is fixed by when they are
//!   written: see [`CorrectionEffect`].
//! - An event's format (E.04 Art. 6.1) is fixed at creation with the rules that hang off it
//!   ([`Conduct::check`]); in an event that requires the fair-play consent (Appendix I J) a
//!   player without it is not paired ([`Availability::ConsentMissing`]), and a round robin does
//!   not start until every player has given it.

mod apply;
mod command;
mod conduct;
mod decide;
mod discipline;
mod error;
mod event;
mod knockout;
mod prize_fund;
mod schedule;
mod state;
mod team_event;
mod types;

pub use command::*;
pub use conduct::{
    Conduct, ConsentItem, ConsentRecord, EventFormat, LawsVerdict, PlatformFeature,
    PlatformProfile, SupervisionItem, SupervisionRequirements, TRADITIONAL_BOARDS_MIN_INCREMENT_S,
    TimeControlPeriod,
};
pub use decide::{MAX_LONG_TEXT, decide, drawn_numbers};
pub use discipline::{
    APPEALABLE, COMPLAINT_WINDOW_MS, ComplaintOutcome, ConnectionChannel, DisconnectionOutcome,
    Evidence, EvidenceKind, IncidentReporter, IrregularityDecision, IrregularityKind, SanctionKind,
    colours_reversed,
};
pub use error::DomainError;
pub use event::*;
pub use knockout::{Bracket, KnockoutGame, KnockoutMatch, KnockoutRound};
pub use prize_fund::{PrizeCategory, PrizeFund, PrizeSharing};
pub use schedule::{ScheduledRound, round_robin_rounds, round_robin_schedule, team_size};
pub use state::{
    Availability, CorrectionEffect, CorrectionRecord, MAX_PLAYERS, MAX_ROUNDS, PairingCandidate,
    PairingSnapshot, PlayerRecord, PublishedBoard, PublishedPairing, RatingOnlyCorrection,
    RoundPhase, State, Withdrawal, pgn_result, rating_only_note,
};
pub use team_event::TeamPairing;
pub use types::{
    Acceleration, AccelerationMethod, Arbiter, Board, BoardResult, ByeKind, DUTCH_2025_IN_FORCE,
    Date, DateError, Engine, EntryId, MAX_FIDE_ID, Pair, PairingSystem, Player, RATING_CEILING,
    RATING_FLOOR, RatingKind, Sex, Title, Unpaired, VirtualValue,
};
