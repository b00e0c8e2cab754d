//! The records inside events (sanctions, incidents, rulings, evidence, players, boards,
//! results) to and from the wire.

use super::*;

/// Wire ⇄ domain for enums whose `UNSPECIFIED` is never a value.
macro_rules! enum_map {
    ($to:ident, $from:ident, $dom:ident, $wire:ident, $field:literal, [$($d:ident => $w:ident),* $(,)?]) => {
        pub fn $to(v: $dom) -> pb::$wire {
            match v { $($dom::$d => pb::$wire::$w),* }
        }
        pub fn $from(value: i32) -> Result<$dom, ConvertError> {
            match pb::$wire::try_from(value).map_err(|_| bad_enum($field, value))? {
                $(pb::$wire::$w => Ok($dom::$d),)*
                pb::$wire::Unspecified => Err(bad_enum($field, value)),
            }
        }
    };
}

enum_map!(sanction_kind_to_wire, sanction_kind_from_wire, SanctionKind, SanctionKind, "kind", [
    Warning => Warning,
    AddTimeToOpponent => AddTimeToOpponent,
    ReduceTime => ReduceTime,
    IncreaseOpponentScore => IncreaseOpponentScore,
    ReduceScore => ReduceScore,
    GameLost => GameLost,
    Fine => Fine,
    ExclusionFromRounds => ExclusionFromRounds,
    Expulsion => Expulsion,
]);

enum_map!(evidence_kind_to_wire, evidence_kind_from_wire, EvidenceKind, EvidenceKind, "evidence.kind", [
    PhysicalEvidence => Physical,
    ObservedBreach => ObservedBreach,
    Admission => Admission,
    PlatformDecision => PlatformDecision,
    Statistical => Statistical,
    Testimony => Testimony,
]);

enum_map!(irregularity_kind_to_wire, irregularity_kind_from_wire, IrregularityKind, IrregularityKind, "kind", [
    ArbiterCalled => ArbiterCalled,
    ColoursReversed => ColoursReversed,
    ClockSettingsWrong => ClockSettingsWrong,
    GameInterrupted => GameInterrupted,
]);

enum_map!(irregularity_decision_to_wire, irregularity_decision_from_wire, IrregularityDecision, IrregularityDecision, "decision", [
    Continue => Continue,
    RestartWithCorrectColours => RestartWithCorrectColours,
    ResultStands => ResultStands,
    ClocksCorrected => ClocksCorrected,
    ClocksStopped => ClocksStopped,
    TimeAdded => TimeAdded,
]);

enum_map!(channel_to_wire, channel_from_wire, ConnectionChannel, ConnectionChannel, "channel", [
    Platform => Platform,
    VideoConference => VideoConference,
]);

enum_map!(reporter_to_wire, reporter_from_wire, IncidentReporter, IncidentReporter, "reported_by", [
    Platform => Platform,
    LocalTechnicalArbiter => LocalTechnicalArbiter,
    Arbiter => Arbiter,
]);

enum_map!(outcome_to_wire, outcome_from_wire, DisconnectionOutcome, DisconnectionOutcome, "outcome", [
    Continue => Continue,
    LossByDisconnection => LossByDisconnection,
    DrawNoMatingMaterial => DrawNoMatingMaterial,
    ResumeFromPosition => ResumeFromPosition,
    ReduceTime => ReduceTime,
    RestartSameTimeControl => RestartSameTimeControl,
    RestartShorterTimeControl => RestartShorterTimeControl,
]);

pub fn incident_to_wire(i: &ConnectionIncidentReported) -> pb::ConnectionIncidentReported {
    pb::ConnectionIncidentReported {
        incident: i.incident,
        round: i.round,
        board: i.board,
        player_id: i.player_id,
        channel: channel_to_wire(i.channel) as i32,
        disconnected_at_unix_ms: i.disconnected_at_unix_ms,
        reconnected_at_unix_ms: i.reconnected_at_unix_ms.unwrap_or(0),
        clock_at_disconnect_ms: i.clock_at_disconnect_ms,
        moved_while_vcs_down: i.moved_while_vcs_down,
        reported_by: reporter_to_wire(i.reported_by) as i32,
        note: i.note.clone(),
    }
}

pub fn incident_from_wire(
    i: &pb::ConnectionIncidentReported,
) -> Result<ConnectionIncidentReported, ConvertError> {
    Ok(ConnectionIncidentReported {
        incident: i.incident,
        round: i.round,
        board: i.board,
        player_id: i.player_id,
        channel: channel_from_wire(i.channel)?,
        disconnected_at_unix_ms: i.disconnected_at_unix_ms,
        reconnected_at_unix_ms: (i.reconnected_at_unix_ms != 0).then_some(i.reconnected_at_unix_ms),
        clock_at_disconnect_ms: i.clock_at_disconnect_ms,
        moved_while_vcs_down: i.moved_while_vcs_down,
        reported_by: reporter_from_wire(i.reported_by)?,
        note: i.note.clone(),
    })
}

pub fn ruling_to_wire(r: &DisconnectionRuled) -> pb::DisconnectionRuled {
    pb::DisconnectionRuled {
        incident: r.incident,
        outcome: outcome_to_wire(r.outcome) as i32,
        remaining_ms: r.remaining_ms,
        fen: r.fen.clone(),
        white_ms: r.white_ms,
        black_ms: r.black_ms,
        reduce_ms: r.reduce_ms,
        time_control: r.time_control.clone(),
        article: r.article.clone(),
        note: r.note.clone(),
    }
}

pub fn ruling_from_wire(r: &pb::DisconnectionRuled) -> Result<DisconnectionRuled, ConvertError> {
    Ok(DisconnectionRuled {
        incident: r.incident,
        outcome: outcome_from_wire(r.outcome)?,
        remaining_ms: r.remaining_ms,
        fen: r.fen.clone(),
        white_ms: r.white_ms,
        black_ms: r.black_ms,
        reduce_ms: r.reduce_ms,
        time_control: r.time_control.clone(),
        article: r.article.clone(),
        note: r.note.clone(),
    })
}

enum_map!(complaint_outcome_to_wire, complaint_outcome_from_wire, ComplaintOutcome, ComplaintOutcome, "outcome", [
    Admitted => Admitted,
    ManifestlyUnfounded => ManifestlyUnfounded,
    RejectedAsLate => RejectedAsLate,
]);

pub fn evidence_to_wire(e: &Evidence) -> pb::Evidence {
    pb::Evidence {
        kind: evidence_kind_to_wire(e.kind) as i32,
        reference: e.reference.clone(),
        note: e.note.clone(),
    }
}

pub fn evidence_from_wire(e: &pb::Evidence) -> Result<Evidence, ConvertError> {
    Ok(Evidence {
        kind: evidence_kind_from_wire(e.kind)?,
        reference: e.reference.clone(),
        note: e.note.clone(),
    })
}

pub fn sanction_to_wire(s: &SanctionImposed) -> pb::SanctionImposed {
    pb::SanctionImposed {
        player_id: s.player_id,
        kind: sanction_kind_to_wire(s.kind) as i32,
        round: s.round,
        rounds: s.rounds.clone(),
        amount: s.amount.clone(),
        article: s.article.clone(),
        evidence: s.evidence.iter().map(evidence_to_wire).collect(),
        note: s.note.clone(),
    }
}

pub fn sanction_from_wire(s: &pb::SanctionImposed) -> Result<SanctionImposed, ConvertError> {
    Ok(SanctionImposed {
        player_id: s.player_id,
        kind: sanction_kind_from_wire(s.kind)?,
        round: s.round,
        rounds: s.rounds.clone(),
        amount: s.amount.clone(),
        article: s.article.clone(),
        evidence: s
            .evidence
            .iter()
            .map(evidence_from_wire)
            .collect::<Result<_, _>>()?,
        note: s.note.clone(),
    })
}

pub fn bye_kind_to_wire(k: ByeKind) -> pb::ByeKind {
    match k {
        ByeKind::HalfPoint => pb::ByeKind::HalfPoint,
        ByeKind::ZeroPoint => pb::ByeKind::ZeroPoint,
        ByeKind::FullPoint => pb::ByeKind::FullPoint,
    }
}

/// `UNSPECIFIED` is `None`.
pub fn bye_kind_from_wire(value: i32) -> Result<Option<ByeKind>, ConvertError> {
    Ok(
        match pb::ByeKind::try_from(value).map_err(|_| bad_enum("kind", value))? {
            pb::ByeKind::Unspecified => None,
            pb::ByeKind::HalfPoint => Some(ByeKind::HalfPoint),
            pb::ByeKind::ZeroPoint => Some(ByeKind::ZeroPoint),
            pb::ByeKind::FullPoint => Some(ByeKind::FullPoint),
        },
    )
}

pub fn arbiter_to_wire(a: &Arbiter) -> pb::Arbiter {
    pb::Arbiter {
        name: a.name.clone(),
        fide_id: a.fide_id,
        title: a.title.clone(),
    }
}

pub fn arbiter_from_wire(a: &pb::Arbiter) -> Arbiter {
    Arbiter {
        name: a.name.clone(),
        fide_id: a.fide_id,
        title: a.title.clone(),
    }
}

pub fn player_to_wire(p: &Player) -> pb::Player {
    pb::Player {
        player_id: p.player_id,
        name: p.name.clone(),
        fide_id: p.fide_id,
        national_id: p.national_id.clone(),
        rating: p.rating,
        national_rating: p.national_rating,
        k_factor: p.k_factor,
        title: title_to_wire(p.title) as i32,
        federation: p.federation.clone(),
        birth_date: p.birth_date.map(date_to_wire),
        sex: sex_to_wire(p.sex) as i32,
        club: p.club.clone(),
    }
}

pub fn player_from_wire(p: &pb::Player) -> Result<Player, ConvertError> {
    Ok(Player {
        player_id: p.player_id,
        name: p.name.clone(),
        fide_id: p.fide_id,
        national_id: p.national_id.clone(),
        rating: p.rating,
        national_rating: p.national_rating,
        k_factor: p.k_factor,
        title: title_from_wire(p.title)?,
        federation: p.federation.clone(),
        birth_date: p
            .birth_date
            .as_ref()
            .map(|d| date_from_wire("birth_date", d))
            .transpose()?,
        sex: sex_from_wire(p.sex)?,
        club: p.club.clone(),
    })
}

pub fn acceleration_to_wire(a: &Acceleration) -> pb::Acceleration {
    pb::Acceleration {
        method: a.method.as_str().to_string(),
        first_round: a.first_round,
        last_round: a.last_round,
    }
}

pub fn acceleration_method_from_str(s: &str) -> Result<AccelerationMethod, ConvertError> {
    match s.trim().to_ascii_lowercase().as_str() {
        "baku" => Ok(AccelerationMethod::Baku),
        other => Err(invalid(
            "acceleration.method",
            format!("{other:?} is not a known method (expected \"baku\")"),
        )),
    }
}

pub fn acceleration_from_wire(a: &pb::Acceleration) -> Result<Acceleration, ConvertError> {
    Ok(Acceleration {
        method: acceleration_method_from_str(&a.method)?,
        first_round: a.first_round,
        last_round: a.last_round,
    })
}

pub fn engine_to_wire(e: &Engine) -> pb::Engine {
    pb::Engine {
        name: e.name.clone(),
        version: e.version.clone(),
    }
}

pub fn engine_from_wire(e: Option<&pb::Engine>) -> Engine {
    e.map(|e| Engine {
        name: e.name.clone(),
        version: e.version.clone(),
    })
    .unwrap_or_default()
}

pub fn board_to_wire(b: &Board) -> pb::Board {
    pb::Board {
        number: b.number,
        white: b.white,
        black: b.black,
    }
}

pub fn board_from_wire(b: &pb::Board) -> Board {
    Board {
        number: b.number,
        white: b.white,
        black: b.black,
    }
}

pub fn unpaired_to_wire(u: &Unpaired) -> pb::Unpaired {
    pb::Unpaired {
        player_id: u.player_id,
        code: pb::ResultCode::from(u.code) as i32,
    }
}

pub fn unpaired_from_wire(u: &pb::Unpaired) -> Result<Unpaired, ConvertError> {
    Ok(Unpaired {
        player_id: u.player_id,
        code: result_code_from_wire("unpaired.code", u.code)?,
    })
}

/// A board result as `(result, white_code, black_code)`: the codes are given only for an
/// arbiter's decision (and 0 otherwise).
pub fn board_result_to_wire(r: BoardResult) -> (pb::BoardResult, i32, i32) {
    let named = match r {
        BoardResult::WhiteWins => pb::BoardResult::WhiteWins,
        BoardResult::Draw => pb::BoardResult::Draw,
        BoardResult::BlackWins => pb::BoardResult::BlackWins,
        BoardResult::WhiteWinsForfeit => pb::BoardResult::WhiteWinsForfeit,
        BoardResult::BlackWinsForfeit => pb::BoardResult::BlackWinsForfeit,
        BoardResult::DoubleForfeit => pb::BoardResult::DoubleForfeit,
        BoardResult::WhiteWinsUnrated => pb::BoardResult::WhiteWinsUnrated,
        BoardResult::DrawUnrated => pb::BoardResult::DrawUnrated,
        BoardResult::BlackWinsUnrated => pb::BoardResult::BlackWinsUnrated,
        BoardResult::ArbiterDecision { white, black } => {
            return (
                pb::BoardResult::ArbiterDecision,
                pb::ResultCode::from(white) as i32,
                pb::ResultCode::from(black) as i32,
            );
        }
    };
    (named, 0, 0)
}

/// Reads a board result; the codes are read only for `BOARD_RESULT_ARBITER_DECISION`.
pub fn board_result_from_wire(
    result: i32,
    white_code: i32,
    black_code: i32,
) -> Result<BoardResult, ConvertError> {
    let r = pb::BoardResult::try_from(result).map_err(|_| bad_enum("result", result))?;
    Ok(match r {
        pb::BoardResult::Unspecified => return Err(bad_enum("result", result)),
        pb::BoardResult::WhiteWins => BoardResult::WhiteWins,
        pb::BoardResult::Draw => BoardResult::Draw,
        pb::BoardResult::BlackWins => BoardResult::BlackWins,
        pb::BoardResult::WhiteWinsForfeit => BoardResult::WhiteWinsForfeit,
        pb::BoardResult::BlackWinsForfeit => BoardResult::BlackWinsForfeit,
        pb::BoardResult::DoubleForfeit => BoardResult::DoubleForfeit,
        pb::BoardResult::WhiteWinsUnrated => BoardResult::WhiteWinsUnrated,
        pb::BoardResult::DrawUnrated => BoardResult::DrawUnrated,
        pb::BoardResult::BlackWinsUnrated => BoardResult::BlackWinsUnrated,
        pb::BoardResult::ArbiterDecision => BoardResult::ArbiterDecision {
            white: result_code_from_wire("white_code", white_code)?,
            black: result_code_from_wire("black_code", black_code)?,
        },
    })
}

// --- events ------------------------------------------------------------------------------------

/// The tournament-created event on the wire.
pub fn tournament_created_to_wire(t: &TournamentCreated) -> pb::TournamentCreated {
    pb::TournamentCreated {
        name: t.name.clone(),
        place: t.place.clone(),
        federation: t.federation.clone(),
        start_date: Some(date_to_wire(t.start_date)),
        end_date: Some(date_to_wire(t.end_date)),
        chief_arbiter: Some(arbiter_to_wire(&t.chief_arbiter)),
        deputy_arbiters: t.deputy_arbiters.iter().map(arbiter_to_wire).collect(),
        pairing_system: pairing_system_to_wire(t.pairing_system) as i32,
        rule_set: t.rule_set.clone(),
        rounds: t.rounds,
        scoring: Some(pb::PointSystem::from(t.scoring)),
        initial_color: t
            .initial_color
            .map_or(pb::Color::Unspecified, pb::Color::from) as i32,
        rating_kind: rating_kind_to_wire(t.rating_kind) as i32,
        tie_breaks: t.tie_breaks.clone(),
        time_control: t.time_control.clone(),
        acceleration: t.acceleration.as_ref().map(acceleration_to_wire),
        fide_rated: t.fide_rated,
        tournament_type: t.tournament_type.clone(),
        round_dates: t
            .round_dates
            .iter()
            .map(|d| d.map(date_to_wire).unwrap_or_default())
            .collect(),
        trf_records: t.trf_records.clone(),
        conduct: conduct_to_wire(&t.conduct),
        knockout: t.knockout.as_ref().map(knockout_rules_to_wire),
        team_rules: t.team_rules.as_ref().map(team_rules_to_wire),
    }
}

pub(super) fn tournament_created_from_wire(
    t: &pb::TournamentCreated,
) -> Result<TournamentCreated, ConvertError> {
    Ok(TournamentCreated {
        name: t.name.clone(),
        place: t.place.clone(),
        federation: t.federation.clone(),
        start_date: required_date("start_date", t.start_date.as_ref())?,
        end_date: required_date("end_date", t.end_date.as_ref())?,
        chief_arbiter: t
            .chief_arbiter
            .as_ref()
            .map(arbiter_from_wire)
            .unwrap_or_default(),
        deputy_arbiters: t.deputy_arbiters.iter().map(arbiter_from_wire).collect(),
        pairing_system: pairing_system_from_wire(t.pairing_system)?
            .ok_or_else(|| bad_enum("pairing_system", t.pairing_system))?,
        rule_set: t.rule_set.clone(),
        rounds: t.rounds,
        scoring: t.scoring.map(PointSystem::from).unwrap_or_default(),
        initial_color: color_from_wire(t.initial_color)?,
        rating_kind: rating_kind_from_wire(t.rating_kind)?.unwrap_or_default(),
        tie_breaks: t.tie_breaks.clone(),
        time_control: t.time_control.clone(),
        acceleration: t
            .acceleration
            .as_ref()
            .map(acceleration_from_wire)
            .transpose()?,
        fide_rated: t.fide_rated,
        tournament_type: t.tournament_type.clone(),
        round_dates: t
            .round_dates
            .iter()
            .map(|d| {
                if *d == pb::Date::default() {
                    Ok(None)
                } else {
                    date_from_wire("round_dates", d).map(Some)
                }
            })
            .collect::<Result<_, _>>()?,
        trf_records: t.trf_records.clone(),
        conduct: conduct_from_wire(t.conduct.as_ref())?,
        knockout: t
            .knockout
            .as_ref()
            .map(knockout_rules_from_wire)
            .transpose()?,
        team_rules: t
            .team_rules
            .as_ref()
            .map(|r| team_rules_from_wire(r, t.scoring.map(PointSystem::from).unwrap_or_default()))
            .transpose()?,
    })
}

pub(super) fn codes(list: &[ResultCode]) -> Vec<i32> {
    list.iter()
        .map(|c| pb::ResultCode::from(*c) as i32)
        .collect()
}
