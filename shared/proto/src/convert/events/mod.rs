//! The tournament's domain events (`arbiter_core::tournament::Event`) to and from the log's
//! schema (`arbiter.events.v1.Event`).
//!
//! Domain → wire is infallible ([`event_to_wire`]); wire → domain ([`event_from_wire`]) checks
//! every enum and required field and answers `Ok(None)` for event kinds that are not part of the
//! tournament aggregate (ratings, norms, screening, signed heads), which a fold skips.
//! A domain event survives the round trip unchanged, so a hash computed over an encoded event
//! is stable.

use super::{ConvertError, color_from_wire, result_code_from_wire};
use crate::events::v1 as pb;
use crate::events::v1::event::Kind;
use arbiter_core::tournament::{
    AbsenceDeclared, Acceleration, AccelerationMethod, Arbiter, Board, BoardResult, ByeCancelled,
    ByeKind, ByeRequested, Date, Engine, Event, LateEntry, PairingFailed, PairingProposed,
    PairingPublished, PairingRequested, PairingSystem, Player, PlayerCorrected, PlayerRegistered,
    PlayerWithdrawn, RatingKind, ResultCorrected, ResultRecorded, RoundClosed, RoundStarted, Sex,
    Title, TournamentCreated, TournamentFinished, TournamentUpdated, Unpaired,
};
use arbiter_core::tournament::{
    AppealDecided, AppealFiled, ComplaintFiled, ComplaintOutcome, Conduct, ConnectionChannel,
    ConnectionIncidentReported, ConsentItem, DisconnectionOutcome, DisconnectionRuled, EventFormat,
    Evidence, EvidenceKind, FairPlayConsentRecorded, IncidentReporter, IrregularityDecision,
    IrregularityKind, IrregularityRecorded, PlatformFeature, PlatformProfile,
    ResultDiscrepancyDetected, ResultOverridden, SanctionImposed, SanctionKind,
    SupervisionBreachRecorded, SupervisionItem, SupervisionRequirements, TimeControlPeriod,
};
use arbiter_core::tournament::{
    GameSubmitted, LotsDrawn, PairingsForbidden, TeamRecorded, VirtualPointsSet,
};
use arbiter_core::{PointSystem, ResultCode, knockout};

mod fields;
mod records;

pub use fields::*;
pub use records::*;

fn invalid(field: &'static str, message: impl Into<String>) -> ConvertError {
    ConvertError::Invalid {
        field,
        message: message.into(),
    }
}

fn bad_enum(field: &'static str, value: i32) -> ConvertError {
    ConvertError::BadEnum { field, value }
}

// --- value types -------------------------------------------------------------------------------

/// A domain date on the wire.

/// A domain event on the wire.
pub fn event_to_wire(e: &Event) -> pb::Event {
    let kind = match e {
        Event::TournamentCreated(t) => Kind::TournamentCreated(tournament_created_to_wire(t)),
        Event::TournamentUpdated(u) => Kind::TournamentUpdated(pb::TournamentUpdated {
            name: u.name.clone(),
            place: u.place.clone(),
            start_date: u.start_date.map(date_to_wire),
            end_date: u.end_date.map(date_to_wire),
            chief_arbiter: u.chief_arbiter.as_ref().map(arbiter_to_wire),
            rounds: u.rounds,
            tie_breaks: u.tie_breaks.clone().unwrap_or_default(),
            replace_tie_breaks: u.tie_breaks.is_some(),
            federation: u.federation.clone(),
            deputy_arbiters: u
                .deputy_arbiters
                .iter()
                .flatten()
                .map(arbiter_to_wire)
                .collect(),
            replace_deputy_arbiters: u.deputy_arbiters.is_some(),
            time_control: u.time_control.clone(),
            rating_kind: u
                .rating_kind
                .map_or(pb::RatingKind::Unspecified, rating_kind_to_wire)
                as i32,
            prize_fund: u.prize_fund.as_ref().map(prize_fund_to_wire),
        }),
        Event::PlayerRegistered(p) => Kind::PlayerRegistered(pb::PlayerRegistered {
            player: Some(player_to_wire(&p.player)),
        }),
        Event::LateEntry(l) => Kind::LateEntry(pb::LateEntry {
            player: Some(player_to_wire(&l.player)),
            first_round: l.first_round,
            missed_rounds: codes(&l.missed_rounds),
        }),
        Event::PlayerCorrected(c) => Kind::PlayerCorrected(pb::PlayerCorrected {
            player: Some(player_to_wire(&c.player)),
            fields: c.fields.clone(),
            reason: c.reason.clone(),
            new_player_id: c.new_player_id,
        }),
        Event::RegistrationCancelled(c) => Kind::RegistrationCancelled(pb::RegistrationCancelled {
            entry: c.entry,
            player_id: c.player_id,
            reason: c.reason.clone(),
        }),
        Event::PlayerWithdrawn(w) => Kind::PlayerWithdrawn(pb::PlayerWithdrawn {
            player_id: w.player_id,
            from_round: w.from_round,
            reason: w.reason.clone(),
        }),
        Event::ByeRequested(b) => Kind::ByeRequested(pb::ByeRequested {
            player_id: b.player_id,
            round: b.round,
            kind: bye_kind_to_wire(b.kind) as i32,
        }),
        Event::ByeCancelled(b) => Kind::ByeCancelled(pb::ByeCancelled {
            player_id: b.player_id,
            round: b.round,
        }),
        Event::FairPlayConsentRecorded(c) => Kind::FairPlayConsentRecorded(consent_to_wire(c)),
        Event::ResultDiscrepancyDetected(d) => {
            Kind::ResultDiscrepancyDetected(pb::ResultDiscrepancyDetected {
                round: d.round,
                board: d.board,
                platform_result: d.platform_result.clone(),
                laws_result: d.laws_result.clone(),
                reason: d.reason.clone(),
                article: d.article.clone(),
            })
        }
        Event::SanctionImposed(s) => Kind::SanctionImposed(sanction_to_wire(s)),
        Event::AppealFiled(a) => Kind::AppealFiled(pb::AppealFiled {
            appeal: a.appeal,
            appellant: a.appellant,
            decision_version: a.decision_version,
            decision_kind: a.decision_kind.clone(),
            grounds: a.grounds.clone(),
            deposit: a.deposit.clone(),
            filed_at_unix_ms: a.filed_at_unix_ms,
            deadline_unix_ms: a.deadline_unix_ms,
            admitted: a.admitted,
        }),
        Event::AppealDecided(a) => Kind::AppealDecided(pb::AppealDecided {
            appeal: a.appeal,
            upheld: a.upheld,
            deposit_returned: a.deposit_returned,
            committee: a.committee.clone(),
            note: a.note.clone(),
        }),
        Event::ComplaintFiled(c) => Kind::ComplaintFiled(pb::ComplaintFiled {
            complaint: c.complaint,
            complainant: c.complainant,
            complainant_fide_id: c.complainant_fide_id,
            accused: c.accused,
            grounds: c.grounds.clone(),
            evidence: c.evidence.iter().map(evidence_to_wire).collect(),
            filed_at_unix_ms: c.filed_at_unix_ms,
            deadline_unix_ms: c.deadline_unix_ms,
            outcome: complaint_outcome_to_wire(c.outcome) as i32,
            article: c.article.clone(),
        }),
        Event::ConnectionIncidentReported(i) => {
            Kind::ConnectionIncidentReported(incident_to_wire(i))
        }
        Event::DisconnectionRuled(r) => Kind::DisconnectionRuled(ruling_to_wire(r)),
        Event::SupervisionBreachRecorded(b) => {
            Kind::SupervisionBreachRecorded(pb::SupervisionBreachRecorded {
                breach: b.breach,
                round: b.round,
                board: b.board,
                player_id: b.player_id,
                item: supervision_item_to_wire(b.item) as i32,
                article: b.article.clone(),
                note: b.note.clone(),
            })
        }
        Event::IrregularityRecorded(i) => Kind::IrregularityRecorded(pb::IrregularityRecorded {
            round: i.round,
            board: i.board,
            kind: irregularity_kind_to_wire(i.kind) as i32,
            plies: i.plies,
            decision: irregularity_decision_to_wire(i.decision) as i32,
            article: i.article.clone(),
            note: i.note.clone(),
        }),
        Event::ResultOverridden(o) => Kind::ResultOverridden(pb::ResultOverridden {
            round: o.round,
            board: o.board,
            platform_result: o.platform_result.clone(),
            // Only played results are overrides: no per-player codes to carry.
            result: board_result_to_wire(o.result).0 as i32,
            reason: o.reason.clone(),
            article: o.article.clone(),
        }),
        Event::AbsenceDeclared(a) => Kind::AbsenceDeclared(pb::AbsenceDeclared {
            player_id: a.player_id,
            round: a.round,
            reason: a.reason.clone(),
        }),
        Event::RoundStarted(r) => Kind::RoundStarted(pb::RoundStarted {
            round: r.round,
            scheduled_unix_ms: r.scheduled_unix_ms.unwrap_or(0),
        }),
        Event::PairingRequested(r) => Kind::PairingRequested(pb::PairingRequested {
            round: r.round,
            rule_set: r.rule_set.clone(),
            attempt: r.attempt,
        }),
        Event::PairingProposed(p) => Kind::PairingProposed(pb::PairingProposed {
            round: p.round,
            attempt: p.attempt,
            boards: p.boards.iter().map(board_to_wire).collect(),
            unpaired: p.unpaired.iter().map(unpaired_to_wire).collect(),
            engine: Some(engine_to_wire(&p.engine)),
            rule_set: p.rule_set.clone(),
            based_on_version: p.based_on_version,
            input_digest: p.input_digest.clone(),
            explanation: p.explanation.clone(),
            team_matches: team_matches_to_wire(&p.team_matches),
            team_bye: p.team_bye.unwrap_or(0),
        }),
        Event::PairingFailed(f) => Kind::PairingFailed(pb::PairingFailed {
            round: f.round,
            attempt: f.attempt,
            engine: Some(engine_to_wire(&f.engine)),
            rule_set: f.rule_set.clone(),
            based_on_version: f.based_on_version,
            input_digest: f.input_digest.clone(),
            reason: f.reason.clone(),
        }),
        Event::PairingPublished(p) => Kind::PairingPublished(pb::PairingPublished {
            round: p.round,
            proposal_version: p.proposal_version.unwrap_or(0),
            boards: p.boards.iter().map(board_to_wire).collect(),
            unpaired: p.unpaired.iter().map(unpaired_to_wire).collect(),
            manually_changed: p.manually_changed,
            note: p.note.clone(),
            team_matches: team_matches_to_wire(&p.team_matches),
            team_bye: p.team_bye.unwrap_or(0),
        }),
        Event::ResultRecorded(r) => {
            let (result, white_code, black_code) = board_result_to_wire(r.result);
            Kind::ResultRecorded(pb::ResultRecorded {
                round: r.round,
                board: r.board,
                result: result as i32,
                white_code,
                black_code,
            })
        }
        Event::ResultCorrected(c) => {
            let (previous, previous_white_code, previous_black_code) =
                board_result_to_wire(c.previous);
            let (corrected, white_code, black_code) = board_result_to_wire(c.corrected);
            Kind::ResultCorrected(pb::ResultCorrected {
                round: c.round,
                board: c.board,
                previous: previous as i32,
                corrected: corrected as i32,
                white_code,
                black_code,
                reason: c.reason.clone(),
                previous_white_code,
                previous_black_code,
            })
        }
        Event::RoundClosed(r) => Kind::RoundClosed(pb::RoundClosed { round: r.round }),
        Event::TournamentFinished(f) => Kind::TournamentFinished(pb::TournamentFinished {
            rounds_played: f.rounds_played,
        }),
        Event::VirtualPointsSet(v) => Kind::VirtualPointsSet(pb::VirtualPointsSet {
            player_id: v.player_id,
            points: v.points.iter().map(|s| s.tenths()).collect(),
        }),
        Event::PairingsForbidden(f) => Kind::PairingsForbidden(pb::PairingsForbidden {
            player_ids: f.player_ids.clone(),
            first_round: f.rounds.map_or(0, |r| r.0),
            last_round: f.rounds.map_or(0, |r| r.1),
        }),
        Event::LotsDrawn(l) => Kind::LotsDrawn(pb::LotsDrawn {
            numbers: l.numbers.clone(),
            varma: l.varma,
            seed: l.seed.clone(),
        }),
        Event::TeamRecorded(t) => Kind::TeamRecorded(pb::TeamRecorded {
            number: t.number,
            name: t.name.clone(),
            nickname: t.nickname.clone(),
            strength: t.strength,
            match_points: t.match_points.map(|s| s.tenths()),
            game_points: t.game_points.map(|s| s.tenths()),
            rank: t.rank,
            members: t.members.iter().map(|m| m.unwrap_or(0)).collect(),
        }),
        Event::LineupSubmitted(l) => Kind::LineupSubmitted(pb::LineupSubmitted {
            round: l.round,
            team: l.team,
            players: l.players.clone(),
        }),
        Event::GameSubmitted(g) => Kind::GameSubmitted(pb::GameSubmitted {
            round: g.round,
            board: g.board,
            pgn: g.pgn.clone(),
        }),
    };
    pb::Event {
        kind: Some(kind),
        origin: None,
    }
}

fn required_player(p: Option<&pb::Player>) -> Result<Player, ConvertError> {
    player_from_wire(p.ok_or_else(|| invalid("player", "missing"))?)
}

/// A wire event as a domain event; `Ok(None)` for kinds outside the tournament aggregate
/// (ratings, norms, screening, player corrections) and for an empty event.
pub fn event_from_wire(e: &pb::Event) -> Result<Option<Event>, ConvertError> {
    let Some(kind) = &e.kind else {
        return Ok(None);
    };
    Ok(Some(match kind {
        Kind::TournamentCreated(t) => Event::TournamentCreated(tournament_created_from_wire(t)?),
        Kind::TournamentUpdated(u) => Event::TournamentUpdated(TournamentUpdated {
            name: u.name.clone(),
            place: u.place.clone(),
            start_date: u
                .start_date
                .as_ref()
                .map(|d| date_from_wire("start_date", d))
                .transpose()?,
            end_date: u
                .end_date
                .as_ref()
                .map(|d| date_from_wire("end_date", d))
                .transpose()?,
            chief_arbiter: u.chief_arbiter.as_ref().map(arbiter_from_wire),
            rounds: u.rounds,
            tie_breaks: u.replace_tie_breaks.then(|| u.tie_breaks.clone()),
            federation: u.federation.clone(),
            deputy_arbiters: u
                .replace_deputy_arbiters
                .then(|| u.deputy_arbiters.iter().map(arbiter_from_wire).collect()),
            time_control: u.time_control.clone(),
            rating_kind: rating_kind_from_wire(u.rating_kind)?,
            prize_fund: u
                .prize_fund
                .as_ref()
                .map(prize_fund_from_wire)
                .transpose()?,
        }),
        Kind::PlayerRegistered(p) => Event::PlayerRegistered(PlayerRegistered {
            player: required_player(p.player.as_ref())?,
        }),
        Kind::LateEntry(l) => Event::LateEntry(LateEntry {
            player: required_player(l.player.as_ref())?,
            first_round: l.first_round,
            missed_rounds: l
                .missed_rounds
                .iter()
                .map(|c| result_code_from_wire("missed_rounds", *c))
                .collect::<Result<_, _>>()?,
        }),
        Kind::PlayerWithdrawn(w) => Event::PlayerWithdrawn(PlayerWithdrawn {
            player_id: w.player_id,
            from_round: w.from_round,
            reason: w.reason.clone(),
        }),
        Kind::ByeRequested(b) => Event::ByeRequested(ByeRequested {
            player_id: b.player_id,
            round: b.round,
            kind: bye_kind_from_wire(b.kind)?.ok_or_else(|| bad_enum("kind", b.kind))?,
        }),
        Kind::ByeCancelled(b) => Event::ByeCancelled(ByeCancelled {
            player_id: b.player_id,
            round: b.round,
        }),
        Kind::FairPlayConsentRecorded(c) => Event::FairPlayConsentRecorded(consent_from_wire(c)?),
        Kind::ResultDiscrepancyDetected(d) => {
            Event::ResultDiscrepancyDetected(ResultDiscrepancyDetected {
                round: d.round,
                board: d.board,
                platform_result: d.platform_result.clone(),
                laws_result: d.laws_result.clone(),
                reason: d.reason.clone(),
                article: d.article.clone(),
            })
        }
        Kind::SanctionImposed(s) => Event::SanctionImposed(sanction_from_wire(s)?),
        Kind::AppealFiled(a) => Event::AppealFiled(AppealFiled {
            appeal: a.appeal,
            appellant: a.appellant,
            decision_version: a.decision_version,
            decision_kind: a.decision_kind.clone(),
            grounds: a.grounds.clone(),
            deposit: a.deposit.clone(),
            filed_at_unix_ms: a.filed_at_unix_ms,
            deadline_unix_ms: a.deadline_unix_ms,
            admitted: a.admitted,
        }),
        Kind::AppealDecided(a) => Event::AppealDecided(AppealDecided {
            appeal: a.appeal,
            upheld: a.upheld,
            deposit_returned: a.deposit_returned,
            committee: a.committee.clone(),
            note: a.note.clone(),
        }),
        Kind::ComplaintFiled(c) => Event::ComplaintFiled(ComplaintFiled {
            complaint: c.complaint,
            complainant: c.complainant,
            complainant_fide_id: c.complainant_fide_id,
            accused: c.accused,
            grounds: c.grounds.clone(),
            evidence: c
                .evidence
                .iter()
                .map(evidence_from_wire)
                .collect::<Result<_, _>>()?,
            filed_at_unix_ms: c.filed_at_unix_ms,
            deadline_unix_ms: c.deadline_unix_ms,
            outcome: complaint_outcome_from_wire(c.outcome)?,
            article: c.article.clone(),
        }),
        Kind::ConnectionIncidentReported(i) => {
            Event::ConnectionIncidentReported(incident_from_wire(i)?)
        }
        Kind::DisconnectionRuled(r) => Event::DisconnectionRuled(ruling_from_wire(r)?),
        Kind::SupervisionBreachRecorded(b) => {
            Event::SupervisionBreachRecorded(SupervisionBreachRecorded {
                breach: b.breach,
                round: b.round,
                board: b.board,
                player_id: b.player_id,
                item: supervision_item_from_wire(b.item)?,
                article: b.article.clone(),
                note: b.note.clone(),
            })
        }
        Kind::IrregularityRecorded(i) => Event::IrregularityRecorded(IrregularityRecorded {
            round: i.round,
            board: i.board,
            kind: irregularity_kind_from_wire(i.kind)?,
            plies: i.plies,
            decision: irregularity_decision_from_wire(i.decision)?,
            article: i.article.clone(),
            note: i.note.clone(),
        }),
        Kind::ResultOverridden(o) => Event::ResultOverridden(ResultOverridden {
            round: o.round,
            board: o.board,
            platform_result: o.platform_result.clone(),
            result: board_result_from_wire(o.result, 0, 0)?,
            reason: o.reason.clone(),
            article: o.article.clone(),
        }),
        Kind::AbsenceDeclared(a) => Event::AbsenceDeclared(AbsenceDeclared {
            player_id: a.player_id,
            round: a.round,
            reason: a.reason.clone(),
        }),
        Kind::RoundStarted(r) => Event::RoundStarted(RoundStarted {
            round: r.round,
            scheduled_unix_ms: (r.scheduled_unix_ms != 0).then_some(r.scheduled_unix_ms),
        }),
        Kind::PairingRequested(r) => Event::PairingRequested(PairingRequested {
            round: r.round,
            rule_set: r.rule_set.clone(),
            attempt: r.attempt,
        }),
        Kind::PairingProposed(p) => Event::PairingProposed(PairingProposed {
            round: p.round,
            attempt: p.attempt,
            boards: p.boards.iter().map(board_from_wire).collect(),
            unpaired: p
                .unpaired
                .iter()
                .map(unpaired_from_wire)
                .collect::<Result<_, _>>()?,
            engine: engine_from_wire(p.engine.as_ref()),
            rule_set: p.rule_set.clone(),
            based_on_version: p.based_on_version,
            input_digest: p.input_digest.clone(),
            explanation: p.explanation.clone(),
            team_matches: team_matches_from_wire(&p.team_matches),
            team_bye: (p.team_bye != 0).then_some(p.team_bye),
        }),
        Kind::PairingFailed(f) => Event::PairingFailed(PairingFailed {
            round: f.round,
            attempt: f.attempt,
            engine: engine_from_wire(f.engine.as_ref()),
            rule_set: f.rule_set.clone(),
            based_on_version: f.based_on_version,
            input_digest: f.input_digest.clone(),
            reason: f.reason.clone(),
        }),
        Kind::PairingPublished(p) => Event::PairingPublished(PairingPublished {
            round: p.round,
            proposal_version: (p.proposal_version != 0).then_some(p.proposal_version),
            boards: p.boards.iter().map(board_from_wire).collect(),
            unpaired: p
                .unpaired
                .iter()
                .map(unpaired_from_wire)
                .collect::<Result<_, _>>()?,
            manually_changed: p.manually_changed,
            note: p.note.clone(),
            team_matches: team_matches_from_wire(&p.team_matches),
            team_bye: (p.team_bye != 0).then_some(p.team_bye),
        }),
        Kind::ResultRecorded(r) => Event::ResultRecorded(ResultRecorded {
            round: r.round,
            board: r.board,
            result: board_result_from_wire(r.result, r.white_code, r.black_code)?,
        }),
        Kind::ResultCorrected(c) => Event::ResultCorrected(ResultCorrected {
            round: c.round,
            board: c.board,
            previous: board_result_from_wire(
                c.previous,
                c.previous_white_code,
                c.previous_black_code,
            )?,
            corrected: board_result_from_wire(c.corrected, c.white_code, c.black_code)?,
            reason: c.reason.clone(),
        }),
        Kind::RoundClosed(r) => Event::RoundClosed(RoundClosed { round: r.round }),
        Kind::TournamentFinished(f) => Event::TournamentFinished(TournamentFinished {
            rounds_played: f.rounds_played,
        }),
        Kind::VirtualPointsSet(v) => Event::VirtualPointsSet(VirtualPointsSet {
            player_id: v.player_id,
            points: v.points.iter().map(|&t| arbiter_core::Score(t)).collect(),
        }),
        Kind::LotsDrawn(l) => Event::LotsDrawn(LotsDrawn {
            numbers: l.numbers.clone(),
            varma: l.varma,
            seed: l.seed.clone(),
        }),
        Kind::PairingsForbidden(f) => Event::PairingsForbidden(PairingsForbidden {
            player_ids: f.player_ids.clone(),
            rounds: match (f.first_round, f.last_round) {
                (0, 0) => None,
                (a, b) if a >= 1 && a <= b => Some((a, b)),
                (a, b) => {
                    return Err(invalid(
                        "pairings_forbidden.first_round",
                        format!("rounds {a} to {b}"),
                    ));
                }
            },
        }),
        Kind::LineupSubmitted(l) => {
            Event::LineupSubmitted(arbiter_core::tournament::LineupSubmitted {
                round: l.round,
                team: l.team,
                players: l.players.clone(),
            })
        }
        Kind::TeamRecorded(t) => Event::TeamRecorded(TeamRecorded {
            number: t.number,
            name: t.name.clone(),
            nickname: t.nickname.clone(),
            strength: t.strength,
            match_points: t.match_points.map(arbiter_core::Score),
            game_points: t.game_points.map(arbiter_core::Score),
            rank: t.rank,
            members: t.members.iter().map(|&m| (m != 0).then_some(m)).collect(),
        }),
        Kind::PlayerCorrected(c) => Event::PlayerCorrected(PlayerCorrected {
            player: required_player(c.player.as_ref())?,
            fields: c.fields.clone(),
            reason: c.reason.clone(),
            new_player_id: c.new_player_id,
        }),
        Kind::RegistrationCancelled(c) => {
            Event::RegistrationCancelled(arbiter_core::tournament::RegistrationCancelled {
                entry: c.entry,
                player_id: c.player_id,
                reason: c.reason.clone(),
            })
        }
        Kind::GameSubmitted(g) => Event::GameSubmitted(GameSubmitted {
            round: g.round,
            board: g.board,
            pgn: g.pgn.clone(),
        }),
        Kind::RatingChangesComputed(_)
        | Kind::NormResult(_)
        | Kind::PlayerScreeningComputed(_)
        | Kind::ScreeningFlagRaised(_)
        | Kind::ConfidentialDataAccessed(_)
        | Kind::ChainHeadSigned(_) => return Ok(None),
    }))
}

#[cfg(test)]
mod tests;
