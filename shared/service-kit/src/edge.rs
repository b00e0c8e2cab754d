//! Validation at the gRPC edge: what a client may put in a command request, checked before
//! anything is decided, so that a refusal is an `INVALID_ARGUMENT` naming the field (with its
//! message path, e.g. `tournament.tie_breaks[1]`) and nothing is appended.
//!
//! The limits live here, each with its reason. The domain (`arbiter_core::tournament::decide`)
//! keeps its own checks of what an event may hold; these are the stricter rules for what a
//! client may send. The services' own appends (pairing worker, rating worker, import) do not come
//! through this edge: they build their commands from the log or from a file.

use arbiter_core::tournament::PairingSystem;
use arbiter_proto::convert::pairing_system_from_wire;
use arbiter_proto::events::v1 as pb;
use arbiter_proto::registration::v1 as reg;
use arbiter_proto::round_director::v1 as rd;
use arbiter_proto::screening::v1 as scr;
use arbiter_tiebreak::TieBreakList;
use tonic::Status;

/// The longest actor: a user name, an e-mail address or a system's name fits; a 100 kB actor
/// would be copied into every event of the command and every audit line.
pub const MAX_ACTOR_CHARS: usize = 128;

/// Actor names of the services themselves. A client may not send them: the log's actor is how
/// an auditor tells a worker's append (a proposal, a rating change) from an arbiter's decision.
/// The services' own appends do not go through this edge.
pub const RESERVED_ACTORS: &[&str] = &[
    "registration",
    "round-director",
    "pairing-worker",
    "rating-worker",
    "reporting",
    "screening",
    // `arbiter import` (services/arbiter/src/cmd/import.rs).
    "import",
];

/// Command-id prefixes of the services' own appends: the pairing worker's
/// `pairing-worker:round-R:attempt-A`, the rating worker's `rating-worker:<event id>`, `arbiter
/// import`'s `import:<n>` and the signed chain heads' `chain-head-<version>`. A client's command
/// sent first under such an id would take the place of the service's append (the worker would
/// find its id used and take it as done: the round never paired, the head never signed).
pub const RESERVED_COMMAND_ID_PREFIXES: &[&str] = &[
    "pairing-worker:",
    "rating-worker:",
    "import:",
    "chain-head-",
    "screening:",
];

/// The largest PGN of one submitted game: a long game with clock comments is well under
/// 100 kB; a bigger one is a whole file sent by mistake, or an attempt to fill the log (a
/// submitted game is kept in it forever).
pub const MAX_GAME_PGN_BYTES: usize = 1024 * 1024;

/// The largest PGN file of one round's games (`SubmitGames`): the round of a large open is
/// well under 1 MB; this is the screening library's own limit for a PGN file, and below the
/// screening service's largest request, so the refusal names the limit rather than the
/// transport.
pub const MAX_ROUND_PGN_BYTES: usize = 8 * 1024 * 1024;

/// The longest reason given for a read of confidential data (one line).
pub const MAX_REASON_CHARS: usize = MAX_LINE_CHARS;

/// The longest one-line text (names, place, time control, club, ids, short reasons): the same
/// bound the tournament aggregate keeps for one-line fields; TRF columns are much narrower.
pub const MAX_LINE_CHARS: usize = 200;

/// The longest note or reason where line breaks make sense (the note on an amended pairing, the
/// reason for asking a new pairing): a few paragraphs; they are shown on the pages and kept in
/// the log forever. (The reasons of result and player corrections, withdrawals and absences
/// are one line, as the aggregate records them.)
pub const MAX_NOTE_CHARS: usize = 2_000;

/// The most tie-break items a list may have (the aggregate's own bound).
pub use arbiter_tiebreak::MAX_TIE_BREAKS;

/// The most deputy arbiters a tournament may list: far more than any event has, few enough
/// that a request cannot fill an event with megabytes of names.
pub const MAX_DEPUTY_ARBITERS: usize = 100;

/// The pairing systems a tournament may be created with: those the pairing worker answers for
/// (the Dutch, Dubov, Burstein and Lim engines; the round robins' Berger tables), i.e. every
/// system of the schema.
pub const SUPPORTED_PAIRING_SYSTEMS: &[(PairingSystem, &str)] = &[
    (PairingSystem::Dutch, "PAIRING_SYSTEM_DUTCH"),
    (PairingSystem::RoundRobin, "PAIRING_SYSTEM_ROUND_ROBIN"),
    (
        PairingSystem::DoubleRoundRobin,
        "PAIRING_SYSTEM_DOUBLE_ROUND_ROBIN",
    ),
    (PairingSystem::Burstein, "PAIRING_SYSTEM_BURSTEIN"),
    (PairingSystem::Dubov, "PAIRING_SYSTEM_DUBOV"),
    (PairingSystem::Lim, "PAIRING_SYSTEM_LIM"),
    (PairingSystem::Scheveningen, "PAIRING_SYSTEM_SCHEVENINGEN"),
    (
        PairingSystem::SemiScheveningen,
        "PAIRING_SYSTEM_SEMI_SCHEVENINGEN",
    ),
    (PairingSystem::Skalitzka, "PAIRING_SYSTEM_SKALITZKA"),
    (PairingSystem::Hilton, "PAIRING_SYSTEM_HILTON"),
    (PairingSystem::Knockout, "PAIRING_SYSTEM_KNOCKOUT"),
];

fn invalid(field: &str, reason: impl std::fmt::Display) -> Status {
    arbiter_proto::refusal(
        tonic::Code::InvalidArgument,
        format!("{field}: {reason}"),
        "INVALID_FIELD",
        &[("field", field)],
    )
}

/// Why `c` may not appear in a text a client sends, if it may not: control characters (line
/// breaks and tabs only where `multiline`), the bidirectional embeddings, overrides and
/// isolates (U+202A-U+202E, U+2066-U+2069) and marks (U+200E, U+200F, U+061C), which make a
/// name display as another ("Trojan Source", CVE-2021-42574), the zero-width characters
/// (U+200B-U+200D, U+2060, U+FEFF), which make two equal-looking names differ, and the line
/// and paragraph separators (U+2028, U+2029). Names, notes and reasons are shown on pages,
/// in the TRF and in audits, where such characters hide what was written.
pub fn forbidden_char(c: char, multiline: bool) -> Option<&'static str> {
    match c {
        '\n' | '\r' | '\t' if multiline => None,
        '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' => {
            Some("bidirectional override, embedding or isolate")
        }
        '\u{200E}' | '\u{200F}' | '\u{061C}' => Some("bidirectional mark"),
        '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}' => Some("zero-width character"),
        '\u{2028}' | '\u{2029}' => Some("line or paragraph separator"),
        c if c.is_control() && multiline => {
            Some("control character (only line breaks and tabs are allowed)")
        }
        c if c.is_control() => Some("control character (one line of text expected)"),
        _ => None,
    }
}

/// The first character of `value` that [`forbidden_char`] refuses, as a refusal naming
/// `field`, the character and its code point.
#[allow(clippy::result_large_err)]
fn check_chars(field: &str, value: &str, multiline: bool) -> Result<(), Status> {
    match value
        .chars()
        .find_map(|c| forbidden_char(c, multiline).map(|why| (c, why)))
    {
        Some((c, why)) => Err(invalid(
            field,
            format!("contains the {why} {c:?} (U+{:04X})", c as u32),
        )),
        None => Ok(()),
    }
}

/// The header's actor: at most [`MAX_ACTOR_CHARS`], no control characters, none of
/// [`RESERVED_ACTORS`] (compared without case and surrounding blanks). Empty is allowed. Checked
/// for the token's subject, which is recorded as the actor, and for the header's actor, which
/// is not (a client's claim is not who it is).
#[allow(clippy::result_large_err)]
pub fn check_actor(field: &str, actor: &str) -> Result<(), Status> {
    let n = actor.chars().count();
    if n > MAX_ACTOR_CHARS {
        return Err(invalid(
            field,
            format!("{n} characters, the limit is {MAX_ACTOR_CHARS}"),
        ));
    }
    check_chars(field, actor, false)?;
    let a = actor.trim();
    if let Some(r) = RESERVED_ACTORS.iter().find(|r| r.eq_ignore_ascii_case(a)) {
        return Err(invalid(
            field,
            format!("{r:?} is reserved for the service's own appends; give your own name"),
        ));
    }
    Ok(())
}

/// The header's command id may not start with one of [`RESERVED_COMMAND_ID_PREFIXES`] (its
/// length and characters are checked with the rest of the header).
#[allow(clippy::result_large_err)]
pub fn check_command_id(field: &str, command_id: &str) -> Result<(), Status> {
    let id = command_id.trim();
    match RESERVED_COMMAND_ID_PREFIXES
        .iter()
        .find(|p| id.starts_with(*p))
    {
        Some(p) => Err(invalid(
            field,
            format!("{id:?}: ids starting with {p:?} are the services' own; choose another"),
        )),
        None => Ok(()),
    }
}

/// A one-line text: at most [`MAX_LINE_CHARS`], no control characters.
#[allow(clippy::result_large_err)]
pub fn check_line(field: &str, value: &str) -> Result<(), Status> {
    check_text(field, value, MAX_LINE_CHARS, false)
}

/// A note: at most [`MAX_NOTE_CHARS`]; line breaks and tabs allowed, no other control character.
#[allow(clippy::result_large_err)]
pub fn check_note(field: &str, value: &str) -> Result<(), Status> {
    check_text(field, value, MAX_NOTE_CHARS, true)
}

#[allow(clippy::result_large_err)]
fn check_text(field: &str, value: &str, max: usize, multiline: bool) -> Result<(), Status> {
    let n = value.chars().count();
    if n > max {
        return Err(invalid(
            field,
            format!("{n} characters, the limit is {max}"),
        ));
    }
    check_chars(field, value, multiline)
}

/// A tie-break list as the API sends it (items, each possibly a comma-separated list): every
/// item must parse with the tie-break parser of `arbiter_tiebreak`, acronym and modifiers, so
/// that an unknown code is refused here instead of being replaced by the recommended list when
/// standings are computed.
#[allow(clippy::result_large_err)]
pub fn check_tie_breaks(field: &str, items: &[String]) -> Result<(), Status> {
    let mut count = 0;
    for (i, item) in items.iter().enumerate() {
        let f = format!("{field}[{i}]");
        check_line(&f, item)?;
        if item.trim().is_empty() {
            return Err(invalid(&f, "empty tie-break"));
        }
        let list: TieBreakList = item
            .parse()
            .map_err(|e| invalid(&f, format!("{item:?}: {e}")))?;
        count += list.len();
    }
    if count > MAX_TIE_BREAKS {
        return Err(invalid(
            field,
            format!("{count} tie-breaks, the limit is {MAX_TIE_BREAKS}"),
        ));
    }
    Ok(())
}

/// The pairing system and rule set of a new tournament: a supported system (unspecified =
/// Dutch), and a rule set of it when one is named.
#[allow(clippy::result_large_err)]
pub fn check_pairing(prefix: &str, pairing_system: i32, rule_set: &str) -> Result<(), Status> {
    let supported = || {
        SUPPORTED_PAIRING_SYSTEMS
            .iter()
            .map(|(_, n)| *n)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let system = pairing_system_from_wire(pairing_system)
        .map_err(|e| Status::invalid_argument(format!("{prefix}.{e}")))?
        .unwrap_or(PairingSystem::Dutch);
    if !SUPPORTED_PAIRING_SYSTEMS.iter().any(|(s, _)| *s == system) {
        let name = pb::PairingSystem::try_from(pairing_system)
            .map(|p| p.as_str_name())
            .unwrap_or("?");
        return Err(invalid(
            &format!("{prefix}.pairing_system"),
            format!(
                "{name} cannot be paired by this server yet; supported: {}",
                supported()
            ),
        ));
    }
    let r = rule_set.trim();
    check_line(&format!("{prefix}.rule_set"), rule_set)?;
    // A team Swiss may also name FIDE's team Swiss (C.04.6); the domain checks that the event
    // is a team event.
    let team_swiss =
        system == PairingSystem::Dutch && arbiter_core::teams::FideTeamSystem::parse(r).is_some();
    if !r.is_empty() && !system.rule_sets().contains(&r) && !team_swiss {
        let team = if system == PairingSystem::Dutch {
            "; a team event may name fide-team-a, fide-team-b or fide-team-none"
        } else {
            ""
        };
        return Err(invalid(
            &format!("{prefix}.rule_set"),
            format!(
                "unknown rule set {r:?} for {system:?}; known: {} (empty: the rules in force on \
                 the start date){team}",
                system.rule_sets().join(", ")
            ),
        ));
    }
    Ok(())
}

#[allow(clippy::result_large_err)]
fn check_deputies(field: &str, deputies: &[pb::Arbiter]) -> Result<(), Status> {
    if deputies.len() > MAX_DEPUTY_ARBITERS {
        return Err(invalid(
            field,
            format!(
                "{} deputy arbiters, the limit is {MAX_DEPUTY_ARBITERS}",
                deputies.len()
            ),
        ));
    }
    for (i, a) in deputies.iter().enumerate() {
        check_arbiter(&format!("{field}[{i}]"), a)?;
    }
    Ok(())
}

#[allow(clippy::result_large_err)]
fn check_arbiter(field: &str, a: &pb::Arbiter) -> Result<(), Status> {
    check_line(&format!("{field}.name"), &a.name)?;
    check_line(&format!("{field}.title"), &a.title)
}

#[allow(clippy::result_large_err)]
fn check_player(field: &str, p: Option<&reg::PlayerDetails>) -> Result<(), Status> {
    let Some(p) = p else {
        return Err(invalid(field, "missing"));
    };
    check_line(&format!("{field}.name"), &p.name)?;
    check_line(&format!("{field}.national_id"), &p.national_id)?;
    check_line(&format!("{field}.federation"), &p.federation)?;
    check_line(&format!("{field}.club"), &p.club)
}

/// The edge checks of one command request's body (the header's are in
/// [`crate::store::CommandContext::for_request`]).
pub trait Check {
    #[allow(clippy::result_large_err)]
    fn check(&self) -> Result<(), Status>;
}

impl Check for reg::CreateTournamentRequest {
    fn check(&self) -> Result<(), Status> {
        let Some(t) = &self.tournament else {
            return Err(invalid("tournament", "missing"));
        };
        check_line("tournament.name", &t.name)?;
        check_line("tournament.place", &t.place)?;
        check_line("tournament.federation", &t.federation)?;
        check_line("tournament.time_control", &t.time_control)?;
        check_line("tournament.tournament_type", &t.tournament_type)?;
        if let Some(a) = &t.chief_arbiter {
            check_arbiter("tournament.chief_arbiter", a)?;
        }
        check_deputies("tournament.deputy_arbiters", &t.deputy_arbiters)?;
        check_pairing("tournament", t.pairing_system, &t.rule_set)?;
        check_tie_breaks("tournament.tie_breaks", &t.tie_breaks)?;
        if let Some(c) = &t.conduct {
            check_line(
                "tournament.conduct.regulations_version",
                &c.regulations_version,
            )?;
            if let Some(p) = &c.platform {
                check_line("tournament.conduct.platform.name", &p.name)?;
                check_line("tournament.conduct.platform.version", &p.version)?;
                check_line("tournament.conduct.platform.url", &p.url)?;
                check_note(
                    "tournament.conduct.platform.illegal_move_policy",
                    &p.illegal_move_policy,
                )?;
            }
        }
        if let Some(k) = &t.knockout {
            check_line(
                "tournament.knockout.armageddon_time_control",
                &k.armageddon_time_control,
            )?;
            check_line("tournament.knockout.lot_seed", &k.lot_seed)?;
            for (i, stage) in k.tie_breaks.iter().enumerate() {
                check_line(
                    &format!("tournament.knockout.tie_breaks[{i}].time_control"),
                    &stage.time_control,
                )?;
            }
        }
        if let Some(r) = &t.team_rules {
            check_line("tournament.team_rules.colours", &r.colours)?;
        }
        Ok(())
    }
}

impl Check for reg::UpdateTournamentRequest {
    fn check(&self) -> Result<(), Status> {
        let Some(u) = &self.update else {
            return Ok(());
        };
        for (field, v) in [
            ("update.name", &u.name),
            ("update.place", &u.place),
            ("update.federation", &u.federation),
            ("update.time_control", &u.time_control),
        ] {
            if let Some(v) = v {
                check_line(field, v)?;
            }
        }
        if let Some(a) = &u.chief_arbiter {
            check_arbiter("update.chief_arbiter", a)?;
        }
        check_deputies("update.deputy_arbiters", &u.deputy_arbiters)?;
        if u.replace_tie_breaks {
            check_tie_breaks("update.tie_breaks", &u.tie_breaks)?;
        } else if !u.tie_breaks.is_empty() {
            // Without the flag the list would be ignored: say so instead.
            return Err(invalid(
                "update.tie_breaks",
                "given without update.replace_tie_breaks; set it to replace the list",
            ));
        }
        if !u.replace_deputy_arbiters && !u.deputy_arbiters.is_empty() {
            return Err(invalid(
                "update.deputy_arbiters",
                "given without update.replace_deputy_arbiters; set it to replace the list",
            ));
        }
        Ok(())
    }
}

impl Check for reg::RegisterPlayerRequest {
    fn check(&self) -> Result<(), Status> {
        check_player("player", self.player.as_ref())
    }
}

impl Check for reg::EnterLateRequest {
    fn check(&self) -> Result<(), Status> {
        check_player("player", self.player.as_ref())
    }
}

impl Check for reg::CorrectPlayerRequest {
    fn check(&self) -> Result<(), Status> {
        check_player("player", self.player.as_ref())?;
        if self.fields.len() > 20 {
            return Err(invalid("fields", "more than 20 field names"));
        }
        for (i, f) in self.fields.iter().enumerate() {
            check_line(&format!("fields[{i}]"), f)?;
        }
        check_line("reason", &self.reason)
    }
}

impl Check for reg::RecordTeamRequest {
    fn check(&self) -> Result<(), Status> {
        let Some(t) = &self.team else {
            return Err(invalid("team", "missing"));
        };
        if t.members.len() > 200 {
            return Err(invalid("team.members", "more than 200 players"));
        }
        check_line("team.name", &t.name)?;
        check_line("team.nickname", &t.nickname)
    }
}

impl Check for rd::SubmitLineupRequest {
    fn check(&self) -> Result<(), Status> {
        if self.players.len() > 64 {
            return Err(invalid("players", "more than 64 boards"));
        }
        Ok(())
    }
}

impl Check for reg::DrawLotsRequest {
    fn check(&self) -> Result<(), Status> {
        if self.numbers.len() > 10_000 {
            return Err(invalid("numbers", "more than 10,000 numbers"));
        }
        check_line("seed", &self.seed)
    }
}

impl Check for reg::WithdrawPlayerRequest {
    fn check(&self) -> Result<(), Status> {
        check_line("reason", &self.reason)
    }
}

impl Check for reg::CancelRegistrationRequest {
    fn check(&self) -> Result<(), Status> {
        check_line("reason", &self.reason)
    }
}

impl Check for reg::DeclareAbsenceRequest {
    fn check(&self) -> Result<(), Status> {
        check_line("reason", &self.reason)
    }
}

impl Check for reg::RecordFairPlayConsentRequest {
    fn check(&self) -> Result<(), Status> {
        let Some(c) = &self.consent else {
            return Err(invalid("consent", "missing"));
        };
        check_line("consent.regulations_version", &c.regulations_version)?;
        check_line("consent.accepted_by", &c.accepted_by)?;
        check_line("consent.platform_account", &c.platform_account)?;
        // Five items exist; a longer list is not a consent form.
        if c.items.len() > 10 {
            return Err(invalid("consent.items", "more than 10 items"));
        }
        Ok(())
    }
}

impl Check for rd::RequestRepairingRequest {
    fn check(&self) -> Result<(), Status> {
        check_note("reason", &self.reason)
    }
}

impl Check for rd::PublishPairingRequest {
    fn check(&self) -> Result<(), Status> {
        // Boards are numbered in list order; a number that says otherwise would be dropped.
        for (i, b) in self.boards.iter().enumerate() {
            if b.number != 0 && b.number as usize != i + 1 {
                return Err(invalid(
                    &format!("boards[{i}].number"),
                    format!(
                        "{}: boards are numbered in list order (this one is {}); give 0 or {}",
                        b.number,
                        i + 1,
                        i + 1
                    ),
                ));
            }
        }
        check_note("note", &self.note)
    }
}

impl Check for rd::OverridePlatformResultRequest {
    fn check(&self) -> Result<(), Status> {
        check_line("reason", &self.reason)
    }
}

impl Check for rd::ImposeSanctionRequest {
    fn check(&self) -> Result<(), Status> {
        let Some(s) = &self.sanction else {
            return Err(invalid("sanction", "missing"));
        };
        check_line("sanction.amount", &s.amount)?;
        check_line("sanction.article", &s.article)?;
        check_note("sanction.note", &s.note)?;
        if s.evidence.len() > 50 {
            return Err(invalid("sanction.evidence", "more than 50 items"));
        }
        if s.rounds.len() > 100 {
            return Err(invalid("sanction.rounds", "more than 100 rounds"));
        }
        for (i, e) in s.evidence.iter().enumerate() {
            check_line(&format!("sanction.evidence[{i}].reference"), &e.reference)?;
            check_note(&format!("sanction.evidence[{i}].note"), &e.note)?;
        }
        Ok(())
    }
}

impl Check for rd::ReportConnectionIncidentRequest {
    fn check(&self) -> Result<(), Status> {
        let Some(i) = &self.incident else {
            return Err(invalid("incident", "missing"));
        };
        check_note("incident.note", &i.note)
    }
}

impl Check for rd::RuleOnDisconnectionRequest {
    fn check(&self) -> Result<(), Status> {
        let Some(r) = &self.ruling else {
            return Err(invalid("ruling", "missing"));
        };
        check_line("ruling.fen", &r.fen)?;
        check_line("ruling.time_control", &r.time_control)?;
        check_note("ruling.note", &r.note)
    }
}

impl Check for scr::FileComplaintRequest {
    fn check(&self) -> Result<(), Status> {
        check_note("grounds", &self.grounds)?;
        if self.evidence.len() > 50 {
            return Err(invalid("evidence", "more than 50 items"));
        }
        for (i, e) in self.evidence.iter().enumerate() {
            check_line(&format!("evidence[{i}].reference"), &e.reference)?;
            check_note(&format!("evidence[{i}].note"), &e.note)?;
        }
        Ok(())
    }
}

impl Check for rd::FileAppealRequest {
    fn check(&self) -> Result<(), Status> {
        check_note("grounds", &self.grounds)?;
        check_line("deposit", &self.deposit)
    }
}

impl Check for rd::DecideAppealRequest {
    fn check(&self) -> Result<(), Status> {
        if self.committee.len() > 15 {
            return Err(invalid("committee", "more than 15 members"));
        }
        for (i, m) in self.committee.iter().enumerate() {
            check_line(&format!("committee[{i}]"), m)?;
        }
        check_note("note", &self.note)
    }
}

impl Check for rd::RecordIrregularityRequest {
    fn check(&self) -> Result<(), Status> {
        check_note("note", &self.note)
    }
}

impl Check for rd::RecordSupervisionBreachRequest {
    fn check(&self) -> Result<(), Status> {
        check_note("note", &self.note)
    }
}

impl Check for rd::CorrectResultRequest {
    fn check(&self) -> Result<(), Status> {
        check_line("reason", &self.reason)
    }
}

/// Requests with no free text: the header is all there is to check.
macro_rules! nothing_to_check {
    ($($ty:path),* $(,)?) => {$(
        impl Check for $ty {
            fn check(&self) -> Result<(), Status> {
                Ok(())
            }
        }
    )*};
}

nothing_to_check! {
    reg::RequestByeRequest,
    reg::CancelByeRequest,
    rd::StartRoundRequest,
    rd::RecordResultRequest,
    rd::CloseRoundRequest,
    rd::FinishTournamentRequest,
}

impl Check for scr::SubmitGameRequest {
    fn check(&self) -> Result<(), Status> {
        let at = format!("round {}, board {}", self.round, self.board);
        if self.round == 0 || self.board == 0 {
            return Err(invalid(
                "round, board",
                format!("{at}: both are numbered from 1"),
            ));
        }
        if self.pgn.len() > MAX_GAME_PGN_BYTES {
            return Err(invalid(
                "pgn",
                format!(
                    "{at}: {} bytes is larger than the {MAX_GAME_PGN_BYTES}-byte limit for one game",
                    self.pgn.len()
                ),
            ));
        }
        if self.pgn.trim().is_empty() {
            return Err(invalid("pgn", format!("{at}: empty")));
        }
        Ok(())
    }
}

impl Check for scr::SubmitGamesRequest {
    fn check(&self) -> Result<(), Status> {
        let at = format!("round {}", self.round);
        if self.round == 0 {
            return Err(invalid("round", "numbered from 1"));
        }
        if self.pgn.len() > MAX_ROUND_PGN_BYTES {
            return Err(invalid(
                "pgn",
                format!(
                    "{at}: {} bytes is larger than the {MAX_ROUND_PGN_BYTES}-byte limit for a \
                     round's PGN file (MAX_ROUND_PGN_BYTES)",
                    self.pgn.len()
                ),
            ));
        }
        if self.pgn.trim().is_empty() {
            return Err(invalid("pgn", format!("{at}: empty")));
        }
        Ok(())
    }
}

impl Check for scr::RunFullTestRequest {
    fn check(&self) -> Result<(), Status> {
        check_reason("reason", &self.reason)
    }
}

/// The reason given for a read of confidential data: optional, one line, at most
/// [`MAX_REASON_CHARS`] characters (it is kept in the log forever).
#[allow(clippy::result_large_err)]
pub fn check_reason(field: &str, reason: &str) -> Result<(), Status> {
    if reason.chars().count() > MAX_REASON_CHARS {
        return Err(invalid(
            field,
            format!("longer than {MAX_REASON_CHARS} characters"),
        ));
    }
    check_chars(field, reason, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actors() {
        assert!(check_actor("a", "").is_ok());
        assert!(check_actor("a", "Ana Pérez (chief arbiter)").is_ok());
        assert!(check_actor("a", &"x".repeat(MAX_ACTOR_CHARS)).is_ok());
        let e = check_actor("header.actor", &"x".repeat(MAX_ACTOR_CHARS + 1)).unwrap_err();
        assert!(
            e.message().starts_with("header.actor: 129 characters"),
            "{}",
            e.message()
        );
        assert!(check_actor("a", "bob\nalice").is_err());
        for r in ["pairing-worker", " Rating-Worker ", "ROUND-DIRECTOR"] {
            let e = check_actor("header.actor", r).unwrap_err();
            assert!(e.message().contains("reserved"), "{r}: {}", e.message());
        }
    }

    #[test]
    fn command_ids() {
        assert!(check_command_id("c", "register-7").is_ok());
        assert!(check_command_id("c", "my-pairing-worker:1").is_ok());
        for id in [
            "pairing-worker:round-2:attempt-1",
            "rating-worker:0190",
            " import:3",
            "chain-head-41",
        ] {
            let e = check_command_id("header.command_id", id).unwrap_err();
            assert!(
                e.message().starts_with("header.command_id: "),
                "{}",
                e.message()
            );
        }
    }

    #[test]
    fn texts() {
        assert!(check_line("f", "Open de Bilbao").is_ok());
        assert!(check_line("f", "two\nlines").is_err());
        assert!(check_note("f", "two\nlines\ttab").is_ok());
        assert!(check_note("f", "bell\u{7}").is_err());
        assert!(
            check_line("f", &"é".repeat(MAX_LINE_CHARS)).is_ok(),
            "characters, not bytes"
        );
        assert!(check_line("f", &"x".repeat(MAX_LINE_CHARS + 1)).is_err());
        assert!(check_note("f", &"x".repeat(MAX_NOTE_CHARS + 1)).is_err());
    }

    #[test]
    fn invisible_and_direction_characters_are_refused_in_every_text() {
        for (bad, says) in [
            ("Carlsen\u{202E}nesl", "bidirectional override"),
            (
                "Ana\u{2066}B\u{2069}",
                "bidirectional override, embedding or isolate",
            ),
            ("Ana\u{200F}", "bidirectional mark"),
            ("Ana\u{200B}Pérez", "zero-width character"),
            ("\u{FEFF}Ana", "zero-width character"),
            ("Ana\u{2060}", "zero-width character"),
            ("Ana\u{2028}Pérez", "line or paragraph separator"),
            ("Ana\u{85}", "control character"),
        ] {
            for check in [check_line, check_note, check_reason] {
                let e = check("tournament.name", bad).unwrap_err();
                assert_eq!(e.code(), tonic::Code::InvalidArgument);
                assert!(
                    e.message().starts_with("tournament.name: contains the ")
                        && e.message().contains(says)
                        && e.message().contains("(U+"),
                    "{bad:?}: {}",
                    e.message()
                );
            }
            assert!(check_actor("header.actor", bad).is_err(), "{bad:?}");
        }
        // Scripts written right to left, accents and joined letters need none of them.
        for good in [
            "Ōkubo, Jūrō",
            "כהן, דוד",
            "عبد الله",
            "Nguyễn Văn A",
            "Müller-Lüdenscheidt",
        ] {
            assert!(check_line("f", good).is_ok(), "{good}");
        }
        // The one validator reaches every kind of name: player, tournament, team, arbiter.
        let player = reg::RegisterPlayerRequest {
            player: Some(reg::PlayerDetails {
                name: "Evil\u{202E}".into(),
                ..Default::default()
            }),
            ..Default::default()
        };
        assert!(
            player
                .check()
                .unwrap_err()
                .message()
                .starts_with("player.name: ")
        );
        let team = reg::RecordTeamRequest {
            team: Some(reg::TeamList {
                name: "Team\u{200B}".into(),
                ..Default::default()
            }),
            ..Default::default()
        };
        assert!(
            team.check()
                .unwrap_err()
                .message()
                .starts_with("team.name: ")
        );
        let create = reg::CreateTournamentRequest {
            tournament: Some(reg::TournamentSettings {
                chief_arbiter: Some(pb::Arbiter {
                    name: "Chief\u{2067}".into(),
                    ..Default::default()
                }),
                ..Default::default()
            }),
            ..Default::default()
        };
        assert!(
            create
                .check()
                .unwrap_err()
                .message()
                .starts_with("tournament.chief_arbiter.name: ")
        );
        let note = rd::RecordIrregularityRequest {
            note: "two\nlines are fine, \u{202D} is not".into(),
            ..Default::default()
        };
        assert!(note.check().unwrap_err().message().starts_with("note: "));
    }

    #[test]
    fn a_missing_payload_is_refused_naming_it() {
        let missing = |r: Result<(), Status>, field: &str| {
            let e = r.unwrap_err();
            assert_eq!(e.code(), tonic::Code::InvalidArgument);
            assert_eq!(e.message(), format!("{field}: missing"));
        };
        missing(
            reg::CreateTournamentRequest::default().check(),
            "tournament",
        );
        missing(reg::RegisterPlayerRequest::default().check(), "player");
        missing(reg::EnterLateRequest::default().check(), "player");
        missing(reg::CorrectPlayerRequest::default().check(), "player");
        missing(reg::RecordTeamRequest::default().check(), "team");
        missing(
            reg::RecordFairPlayConsentRequest::default().check(),
            "consent",
        );
        missing(rd::ImposeSanctionRequest::default().check(), "sanction");
        missing(
            rd::ReportConnectionIncidentRequest::default().check(),
            "incident",
        );
        missing(rd::RuleOnDisconnectionRequest::default().check(), "ruling");
        let create = reg::CreateTournamentRequest {
            header: None,
            tournament: Some(reg::TournamentSettings::default()),
        };
        assert!(create.check().is_ok());
    }

    #[test]
    fn boards_are_numbered_in_list_order() {
        let publish = |number: u32| rd::PublishPairingRequest {
            boards: vec![
                pb::Board {
                    number: 1,
                    white: 1,
                    black: 2,
                },
                pb::Board {
                    number,
                    white: 3,
                    black: 4,
                },
            ],
            ..Default::default()
        };
        assert!(publish(0).check().is_ok() && publish(2).check().is_ok());
        let e = publish(7).check().unwrap_err();
        assert!(
            e.message().starts_with("boards[1].number: 7"),
            "{}",
            e.message()
        );
    }

    #[test]
    fn tie_breaks_parse_with_the_tie_break_parser() {
        let ok = |v: &[&str]| {
            check_tie_breaks("t", &v.iter().map(|s| s.to_string()).collect::<Vec<_>>())
        };
        assert!(ok(&["BH/C1", "BH", "SB"]).is_ok());
        assert!(ok(&["BH/C1, SB"]).is_ok());
        for (bad, at) in [
            (&["BH", "FOO"][..], "t[1]"),
            (&["BH/C99"][..], "t[0]"),
            (&[""][..], "t[0]"),
        ] {
            let e = ok(bad).unwrap_err();
            assert_eq!(e.code(), tonic::Code::InvalidArgument);
            assert!(
                e.message().starts_with(&format!("{at}: ")),
                "{}",
                e.message()
            );
        }
    }

    #[test]
    fn update_fields_are_named() {
        let update = |u: reg::TournamentChanges| reg::UpdateTournamentRequest {
            header: None,
            update: Some(u),
        };
        let e = update(reg::TournamentChanges {
            time_control: Some("90'\n+30\"".into()),
            ..Default::default()
        })
        .check()
        .unwrap_err();
        assert!(
            e.message().starts_with("update.time_control: "),
            "{}",
            e.message()
        );
        let e = update(reg::TournamentChanges {
            deputy_arbiters: vec![
                pb::Arbiter::default(),
                pb::Arbiter {
                    name: "D".repeat(MAX_LINE_CHARS + 1),
                    ..Default::default()
                },
            ],
            replace_deputy_arbiters: true,
            ..Default::default()
        })
        .check()
        .unwrap_err();
        assert!(
            e.message().starts_with("update.deputy_arbiters[1].name: "),
            "{}",
            e.message()
        );
        let e = update(reg::TournamentChanges {
            deputy_arbiters: vec![pb::Arbiter::default(); MAX_DEPUTY_ARBITERS + 1],
            ..Default::default()
        })
        .check()
        .unwrap_err();
        assert!(e.message().contains("the limit is 100"), "{}", e.message());
        // A list without its replace flag would be ignored: refused, naming the flag.
        let u = reg::TournamentChanges {
            tie_breaks: vec!["BH".into()],
            ..Default::default()
        };
        let e = update(u.clone()).check().unwrap_err();
        assert!(
            e.message().starts_with("update.tie_breaks: ")
                && e.message().contains("replace_tie_breaks"),
            "{}",
            e.message()
        );
        let e = update(reg::TournamentChanges {
            deputy_arbiters: vec![pb::Arbiter::default()],
            ..Default::default()
        })
        .check()
        .unwrap_err();
        assert!(
            e.message().starts_with("update.deputy_arbiters: "),
            "{}",
            e.message()
        );
        let u = reg::TournamentChanges {
            tie_breaks: vec!["FOO".into()],
            ..Default::default()
        };
        let e = update(reg::TournamentChanges {
            replace_tie_breaks: true,
            ..u
        })
        .check()
        .unwrap_err();
        assert!(
            e.message().starts_with("update.tie_breaks[0]: "),
            "{}",
            e.message()
        );
    }

    #[test]
    fn pairing_systems() {
        assert!(check_pairing("t", 0, "").is_ok());
        assert!(check_pairing("t", pb::PairingSystem::Dutch as i32, "dutch-2017").is_ok());
        assert!(check_pairing("t", pb::PairingSystem::RoundRobin as i32, "").is_ok());
        assert!(check_pairing("t", pb::PairingSystem::RoundRobin as i32, "berger").is_ok());
        assert!(
            check_pairing(
                "t",
                pb::PairingSystem::DoubleRoundRobin as i32,
                "berger-double"
            )
            .is_ok()
        );
        assert!(check_pairing("t", pb::PairingSystem::RoundRobin as i32, "dutch-2025").is_err());
        for (s, rule_set) in [
            (pb::PairingSystem::Burstein, "burstein"),
            (pb::PairingSystem::Dubov, "dubov"),
            (pb::PairingSystem::Lim, "lim"),
        ] {
            assert!(check_pairing("t", s as i32, "").is_ok());
            assert!(check_pairing("t", s as i32, rule_set).is_ok());
            let e = check_pairing("t", s as i32, "dutch-2025").unwrap_err();
            assert!(e.message().starts_with("t.rule_set: "), "{}", e.message());
        }
        let e = check_pairing("t", 0, "dutch-2099").unwrap_err();
        assert!(e.message().starts_with("t.rule_set: "), "{}", e.message());
        assert!(check_pairing("t", 99, "").is_err());
    }

    #[test]
    fn a_submitted_game_is_refused_above_the_limit_naming_round_and_board() {
        let req = |pgn: String| scr::SubmitGameRequest {
            header: None,
            round: 2,
            board: 7,
            pgn,
        };
        let e = req("x".repeat(MAX_GAME_PGN_BYTES + 1)).check().unwrap_err();
        assert_eq!(e.code(), tonic::Code::InvalidArgument);
        assert!(
            e.message().contains("round 2, board 7") && e.message().contains("limit"),
            "{}",
            e.message()
        );
        assert!(
            req(" \n".into())
                .check()
                .unwrap_err()
                .message()
                .contains("empty")
        );
        assert!(req("1. e4 *".into()).check().is_ok());
    }
}
