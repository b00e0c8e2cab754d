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
pub fn date_to_wire(d: Date) -> pb::Date {
    pb::Date {
        year: d.year(),
        month: d.month(),
        day: d.day(),
    }
}

/// A wire date; `field` names it in errors.
pub fn date_from_wire(field: &'static str, d: &pb::Date) -> Result<Date, ConvertError> {
    Date::new(d.year, d.month, d.day).map_err(|e| invalid(field, e.to_string()))
}

fn required_date(field: &'static str, d: Option<&pb::Date>) -> Result<Date, ConvertError> {
    date_from_wire(field, d.ok_or_else(|| invalid(field, "missing"))?)
}

pub fn title_to_wire(t: Option<Title>) -> pb::Title {
    match t {
        None => pb::Title::Unspecified,
        Some(Title::GM) => pb::Title::Gm,
        Some(Title::IM) => pb::Title::Im,
        Some(Title::FM) => pb::Title::Fm,
        Some(Title::CM) => pb::Title::Cm,
        Some(Title::WGM) => pb::Title::Wgm,
        Some(Title::WIM) => pb::Title::Wim,
        Some(Title::WFM) => pb::Title::Wfm,
        Some(Title::WCM) => pb::Title::Wcm,
    }
}

pub fn title_from_wire(value: i32) -> Result<Option<Title>, ConvertError> {
    Ok(
        match pb::Title::try_from(value).map_err(|_| bad_enum("title", value))? {
            pb::Title::Unspecified => None,
            pb::Title::Gm => Some(Title::GM),
            pb::Title::Im => Some(Title::IM),
            pb::Title::Fm => Some(Title::FM),
            pb::Title::Cm => Some(Title::CM),
            pb::Title::Wgm => Some(Title::WGM),
            pb::Title::Wim => Some(Title::WIM),
            pb::Title::Wfm => Some(Title::WFM),
            pb::Title::Wcm => Some(Title::WCM),
        },
    )
}

pub fn sex_to_wire(s: Option<Sex>) -> pb::Sex {
    match s {
        None => pb::Sex::Unspecified,
        Some(Sex::Male) => pb::Sex::Male,
        Some(Sex::Female) => pb::Sex::Female,
    }
}

pub fn sex_from_wire(value: i32) -> Result<Option<Sex>, ConvertError> {
    Ok(
        match pb::Sex::try_from(value).map_err(|_| bad_enum("sex", value))? {
            pb::Sex::Unspecified => None,
            pb::Sex::Male => Some(Sex::Male),
            pb::Sex::Female => Some(Sex::Female),
        },
    )
}

pub fn rating_kind_to_wire(k: RatingKind) -> pb::RatingKind {
    match k {
        RatingKind::Standard => pb::RatingKind::Standard,
        RatingKind::Rapid => pb::RatingKind::Rapid,
        RatingKind::Blitz => pb::RatingKind::Blitz,
    }
}

/// `UNSPECIFIED` is `None` (the caller picks the default).
pub fn rating_kind_from_wire(value: i32) -> Result<Option<RatingKind>, ConvertError> {
    Ok(
        match pb::RatingKind::try_from(value).map_err(|_| bad_enum("rating_kind", value))? {
            pb::RatingKind::Unspecified => None,
            pb::RatingKind::Standard => Some(RatingKind::Standard),
            pb::RatingKind::Rapid => Some(RatingKind::Rapid),
            pb::RatingKind::Blitz => Some(RatingKind::Blitz),
        },
    )
}

pub fn pairing_system_to_wire(s: PairingSystem) -> pb::PairingSystem {
    match s {
        PairingSystem::Dutch => pb::PairingSystem::Dutch,
        PairingSystem::RoundRobin => pb::PairingSystem::RoundRobin,
        PairingSystem::DoubleRoundRobin => pb::PairingSystem::DoubleRoundRobin,
        PairingSystem::Burstein => pb::PairingSystem::Burstein,
        PairingSystem::Dubov => pb::PairingSystem::Dubov,
        PairingSystem::Lim => pb::PairingSystem::Lim,
        PairingSystem::Scheveningen => pb::PairingSystem::Scheveningen,
        PairingSystem::SemiScheveningen => pb::PairingSystem::SemiScheveningen,
        PairingSystem::Skalitzka => pb::PairingSystem::Skalitzka,
        PairingSystem::Hilton => pb::PairingSystem::Hilton,
        PairingSystem::Knockout => pb::PairingSystem::Knockout,
    }
}

/// `UNSPECIFIED` is `None` (the caller picks the default).
pub fn pairing_system_from_wire(value: i32) -> Result<Option<PairingSystem>, ConvertError> {
    Ok(
        match pb::PairingSystem::try_from(value).map_err(|_| bad_enum("pairing_system", value))? {
            pb::PairingSystem::Unspecified => None,
            pb::PairingSystem::Dutch => Some(PairingSystem::Dutch),
            pb::PairingSystem::RoundRobin => Some(PairingSystem::RoundRobin),
            pb::PairingSystem::DoubleRoundRobin => Some(PairingSystem::DoubleRoundRobin),
            pb::PairingSystem::Burstein => Some(PairingSystem::Burstein),
            pb::PairingSystem::Dubov => Some(PairingSystem::Dubov),
            pb::PairingSystem::Lim => Some(PairingSystem::Lim),
            pb::PairingSystem::Scheveningen => Some(PairingSystem::Scheveningen),
            pb::PairingSystem::SemiScheveningen => Some(PairingSystem::SemiScheveningen),
            pb::PairingSystem::Skalitzka => Some(PairingSystem::Skalitzka),
            pb::PairingSystem::Hilton => Some(PairingSystem::Hilton),
            pb::PairingSystem::Knockout => Some(PairingSystem::Knockout),
        },
    )
}

/// A team event's regulations on the wire (the game points are the event's scoring).
pub fn team_rules_to_wire(r: &arbiter_core::teams::TeamRules) -> pb::TeamRules {
    use arbiter_core::teams::TeamScore;
    pb::TeamRules {
        boards: r.boards,
        reserves: r.reserves,
        match_win: r.match_points.win.tenths(),
        match_draw: r.match_points.draw.tenths(),
        match_loss: r.match_points.loss.tenths(),
        ranking: match r.primary {
            TeamScore::MatchPoints => pb::TeamRanking::MatchPoints,
            TeamScore::GamePoints => pb::TeamRanking::GamePoints,
        } as i32,
        pab: r.pab.map(|b| pb::TeamBye {
            match_points: b.match_points.tenths(),
            game_points: b.game_points.tenths(),
        }),
        colours: r.colours.clone(),
    }
}

/// A team event's regulations from the wire, with `scoring` as the game points.
pub fn team_rules_from_wire(
    r: &pb::TeamRules,
    scoring: PointSystem,
) -> Result<arbiter_core::teams::TeamRules, ConvertError> {
    use arbiter_core::Score;
    use arbiter_core::teams::{ByeValue, MatchPoints, TeamRules, TeamScore};
    Ok(TeamRules {
        boards: r.boards,
        reserves: r.reserves,
        game_points: scoring,
        match_points: MatchPoints {
            win: Score(r.match_win),
            draw: Score(r.match_draw),
            loss: Score(r.match_loss),
        },
        primary: match pb::TeamRanking::try_from(r.ranking) {
            Ok(pb::TeamRanking::MatchPoints) => TeamScore::MatchPoints,
            Ok(pb::TeamRanking::GamePoints) => TeamScore::GamePoints,
            Err(_) => return Err(bad_enum("team_rules.ranking", r.ranking)),
        },
        pab: r.pab.map(|b| ByeValue {
            match_points: Score(b.match_points),
            game_points: Score(b.game_points),
        }),
        colours: r.colours.clone(),
    })
}

pub fn team_matches_to_wire(m: &[arbiter_core::teams::TeamMatch]) -> Vec<pb::TeamMatch> {
    m.iter()
        .map(|m| pb::TeamMatch {
            first: m.first,
            second: m.second,
        })
        .collect()
}

pub fn team_matches_from_wire(m: &[pb::TeamMatch]) -> Vec<arbiter_core::teams::TeamMatch> {
    m.iter()
        .map(|m| arbiter_core::teams::TeamMatch {
            first: m.first,
            second: m.second,
        })
        .collect()
}

/// A knockout's regulations on the wire.
pub fn knockout_rules_to_wire(r: &knockout::Rules) -> pb::KnockoutRules {
    use knockout::*;
    pb::KnockoutRules {
        seeding: match r.seeding {
            Seeding::Rating => pb::KnockoutSeeding::Rating,
            Seeding::PairingNumber => pb::KnockoutSeeding::PairingNumber,
        } as i32,
        classical_games: r.classical_games,
        tie_breaks: r
            .tie_breaks
            .iter()
            .map(|s| pb::KnockoutStage {
                kind: match s.kind {
                    StageKind::Rapid => pb::KnockoutStageKind::Rapid,
                    StageKind::Blitz => pb::KnockoutStageKind::Blitz,
                } as i32,
                games: s.games,
                time_control: s.time_control.clone(),
            })
            .collect(),
        first_colour: match r.first_colour {
            FirstColour::HigherSeedWhite => pb::KnockoutFirstColour::HigherSeedWhite,
            FirstColour::HigherSeedBlack => pb::KnockoutFirstColour::HigherSeedBlack,
            FirstColour::Lot => pb::KnockoutFirstColour::Lot,
        } as i32,
        tie_break_colours: match r.tie_break_colours {
            TieBreakColours::Continue => pb::KnockoutTieBreakColours::Continue,
            TieBreakColours::Restart => pb::KnockoutTieBreakColours::Restart,
            TieBreakColours::Lot => pb::KnockoutTieBreakColours::Lot,
        } as i32,
        armageddon_colour: match r.armageddon_colour {
            ArmageddonColour::Lot => pb::KnockoutArmageddonColour::Lot,
            ArmageddonColour::HigherSeedWhite => pb::KnockoutArmageddonColour::HigherSeedWhite,
            ArmageddonColour::HigherSeedBlack => pb::KnockoutArmageddonColour::HigherSeedBlack,
            ArmageddonColour::Continue => pb::KnockoutArmageddonColour::Continue,
        } as i32,
        armageddon_time_control: r.armageddon_time_control.clone(),
        lot_seed: r.lot_seed.clone(),
    }
}

/// A knockout's regulations from the wire: every choice must be made (UNSPECIFIED is refused,
/// naming the field), since the seeds give none of them a default.
pub fn knockout_rules_from_wire(r: &pb::KnockoutRules) -> Result<knockout::Rules, ConvertError> {
    use knockout::*;
    let seeding = match pb::KnockoutSeeding::try_from(r.seeding) {
        Ok(pb::KnockoutSeeding::Rating) => Seeding::Rating,
        Ok(pb::KnockoutSeeding::PairingNumber) => Seeding::PairingNumber,
        _ => return Err(bad_enum("seeding", r.seeding)),
    };
    let tie_breaks = r
        .tie_breaks
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let kind = match pb::KnockoutStageKind::try_from(s.kind) {
                Ok(pb::KnockoutStageKind::Rapid) => StageKind::Rapid,
                Ok(pb::KnockoutStageKind::Blitz) => StageKind::Blitz,
                _ => {
                    return Err(ConvertError::Invalid {
                        field: "tie_breaks",
                        message: format!(
                            "[{i}].kind: value {} is unspecified or unknown (RAPID or BLITZ)",
                            s.kind
                        ),
                    });
                }
            };
            Ok(Stage {
                kind,
                games: s.games,
                time_control: s.time_control.clone(),
            })
        })
        .collect::<Result<_, _>>()?;
    let first_colour = match pb::KnockoutFirstColour::try_from(r.first_colour) {
        Ok(pb::KnockoutFirstColour::HigherSeedWhite) => FirstColour::HigherSeedWhite,
        Ok(pb::KnockoutFirstColour::HigherSeedBlack) => FirstColour::HigherSeedBlack,
        Ok(pb::KnockoutFirstColour::Lot) => FirstColour::Lot,
        _ => return Err(bad_enum("first_colour", r.first_colour)),
    };
    let tie_break_colours = match pb::KnockoutTieBreakColours::try_from(r.tie_break_colours) {
        Ok(pb::KnockoutTieBreakColours::Continue) => TieBreakColours::Continue,
        Ok(pb::KnockoutTieBreakColours::Restart) => TieBreakColours::Restart,
        Ok(pb::KnockoutTieBreakColours::Lot) => TieBreakColours::Lot,
        _ => return Err(bad_enum("tie_break_colours", r.tie_break_colours)),
    };
    let armageddon_colour = match pb::KnockoutArmageddonColour::try_from(r.armageddon_colour) {
        Ok(pb::KnockoutArmageddonColour::Lot) => ArmageddonColour::Lot,
        Ok(pb::KnockoutArmageddonColour::HigherSeedWhite) => ArmageddonColour::HigherSeedWhite,
        Ok(pb::KnockoutArmageddonColour::HigherSeedBlack) => ArmageddonColour::HigherSeedBlack,
        Ok(pb::KnockoutArmageddonColour::Continue) => ArmageddonColour::Continue,
        _ => return Err(bad_enum("armageddon_colour", r.armageddon_colour)),
    };
    Ok(Rules {
        seeding,
        classical_games: r.classical_games,
        tie_breaks,
        first_colour,
        tie_break_colours,
        armageddon_colour,
        armageddon_time_control: r.armageddon_time_control.clone(),
        lot_seed: r.lot_seed.clone(),
    })
}

/// Over the board is `UNSPECIFIED` on the wire, so that an event written before formats existed
/// and one written since for an over-the-board event encode alike.
pub fn event_format_to_wire(f: EventFormat) -> pb::EventFormat {
    match f {
        EventFormat::Otb => pb::EventFormat::Unspecified,
        EventFormat::OnlineUnsupervised => pb::EventFormat::OnlineUnsupervised,
        EventFormat::OnlineSupervised => pb::EventFormat::OnlineSupervised,
        EventFormat::Hybrid => pb::EventFormat::Hybrid,
    }
}

pub fn event_format_from_wire(value: i32) -> Result<EventFormat, ConvertError> {
    Ok(
        match pb::EventFormat::try_from(value).map_err(|_| bad_enum("format", value))? {
            pb::EventFormat::Unspecified | pb::EventFormat::Otb => EventFormat::Otb,
            pb::EventFormat::OnlineUnsupervised => EventFormat::OnlineUnsupervised,
            pb::EventFormat::OnlineSupervised => EventFormat::OnlineSupervised,
            pb::EventFormat::Hybrid => EventFormat::Hybrid,
        },
    )
}

pub fn consent_item_to_wire(i: ConsentItem) -> pb::ConsentItem {
    match i {
        ConsentItem::AnalysisAndSanctions => pb::ConsentItem::AnalysisAndSanctions,
        ConsentItem::RealName => pb::ConsentItem::RealName,
        ConsentItem::RemoteSupervision => pb::ConsentItem::RemoteSupervision,
        ConsentItem::Recording => pb::ConsentItem::Recording,
        ConsentItem::ComplaintsProcedure => pb::ConsentItem::ComplaintsProcedure,
    }
}

pub fn consent_item_from_wire(value: i32) -> Result<ConsentItem, ConvertError> {
    match pb::ConsentItem::try_from(value).map_err(|_| bad_enum("items", value))? {
        pb::ConsentItem::Unspecified => Err(bad_enum("items", value)),
        pb::ConsentItem::AnalysisAndSanctions => Ok(ConsentItem::AnalysisAndSanctions),
        pb::ConsentItem::RealName => Ok(ConsentItem::RealName),
        pb::ConsentItem::RemoteSupervision => Ok(ConsentItem::RemoteSupervision),
        pb::ConsentItem::Recording => Ok(ConsentItem::Recording),
        pb::ConsentItem::ComplaintsProcedure => Ok(ConsentItem::ComplaintsProcedure),
    }
}

/// `None` for an over-the-board event with nothing else set (as before formats existed).
pub fn conduct_to_wire(c: &Conduct) -> Option<pb::Conduct> {
    (*c != Conduct::default()).then(|| pb::Conduct {
        format: event_format_to_wire(c.format) as i32,
        periods: c
            .periods
            .iter()
            .map(|p| pb::TimeControlPeriod {
                moves: p.moves,
                base_seconds: p.base_seconds,
                increment_seconds: p.increment_seconds,
                delay_seconds: p.delay_seconds,
            })
            .collect(),
        traditional_boards: c.traditional_boards,
        require_fair_play_consent: c.require_fair_play_consent,
        regulations_version: c.regulations_version.clone(),
        reconnection_window_s: c.reconnection_window_s,
        vcs_red_card_after: c.vcs_red_card_after,
        appeal_deadline_minutes: c.appeal_deadline_minutes,
        // Absent when nothing is asked, so events written before it encode as they did.
        supervision: c.supervision.is_set().then(|| {
            let r = &c.supervision;
            pb::SupervisionRequirements {
                playing_area_camera: r.playing_area_camera,
                room_inspection: r.room_inspection,
                vcs_connect_minutes_before: r.vcs_connect_minutes_before,
                backup_device_allowed: r.backup_device_allowed,
                assistants_allowed: r.assistants_allowed,
                recording: r.recording,
                surroundings_on_request: r.surroundings_on_request,
            }
        }),
        platform: c.platform.as_ref().map(|p| pb::PlatformProfile {
            name: p.name.clone(),
            version: p.version.clone(),
            url: p.url.clone(),
            features: p
                .features
                .iter()
                .map(|&f| platform_feature_to_wire(f) as i32)
                .collect(),
            min_moves_before_draw_offer: p.min_moves_before_draw_offer,
            accepts_illegal_moves: p.accepts_illegal_moves,
            illegal_move_policy: p.illegal_move_policy.clone(),
            auto_excludes_disconnected_players: p.auto_excludes_disconnected_players,
        }),
    })
}

pub fn conduct_from_wire(c: Option<&pb::Conduct>) -> Result<Conduct, ConvertError> {
    let Some(c) = c else {
        return Ok(Conduct::default());
    };
    Ok(Conduct {
        format: event_format_from_wire(c.format)?,
        periods: c
            .periods
            .iter()
            .map(|p| TimeControlPeriod {
                moves: p.moves,
                base_seconds: p.base_seconds,
                increment_seconds: p.increment_seconds,
                delay_seconds: p.delay_seconds,
            })
            .collect(),
        traditional_boards: c.traditional_boards,
        require_fair_play_consent: c.require_fair_play_consent,
        regulations_version: c.regulations_version.clone(),
        reconnection_window_s: c.reconnection_window_s,
        vcs_red_card_after: c.vcs_red_card_after,
        appeal_deadline_minutes: c.appeal_deadline_minutes,
        supervision: c
            .supervision
            .as_ref()
            .map(|r| SupervisionRequirements {
                playing_area_camera: r.playing_area_camera,
                room_inspection: r.room_inspection,
                vcs_connect_minutes_before: r.vcs_connect_minutes_before,
                backup_device_allowed: r.backup_device_allowed,
                assistants_allowed: r.assistants_allowed,
                recording: r.recording,
                surroundings_on_request: r.surroundings_on_request,
            })
            .unwrap_or_default(),
        platform: c
            .platform
            .as_ref()
            .map(|p| {
                Ok::<_, ConvertError>(PlatformProfile {
                    name: p.name.clone(),
                    version: p.version.clone(),
                    url: p.url.clone(),
                    features: p
                        .features
                        .iter()
                        .map(|&f| platform_feature_from_wire(f))
                        .collect::<Result<_, _>>()?,
                    min_moves_before_draw_offer: p.min_moves_before_draw_offer,
                    accepts_illegal_moves: p.accepts_illegal_moves,
                    illegal_move_policy: p.illegal_move_policy.clone(),
                    auto_excludes_disconnected_players: p.auto_excludes_disconnected_players,
                })
            })
            .transpose()?,
    })
}

const PLATFORM_FEATURES: [(PlatformFeature, pb::PlatformFeature); 8] = {
    use PlatformFeature as C;
    use pb::PlatformFeature as W;
    [
        (C::Premove, W::Premove),
        (C::SmartMove, W::SmartMove),
        (C::AutoQueen, W::AutoQueen),
        (C::CallArbiterPausesClocks, W::CallArbiterPausesClocks),
        (C::Berserk, W::Berserk),
        (C::DrawOfferWithMove, W::DrawOfferWithMove),
        (C::AutoDrawExtraPositions, W::AutoDrawExtraPositions),
        (C::SmartBoardInput, W::SmartBoardInput),
    ]
};

/// The wire value of `c` in a table of (domain, wire) pairs; `none` when it has none.
fn by_table<C: PartialEq + Copy, W: Copy>(table: &[(C, W)], c: C, none: W) -> W {
    table
        .iter()
        .find(|(x, _)| *x == c)
        .map_or(none, |&(_, w)| w)
}

/// The domain value of wire value `value` in a table of (domain, wire) pairs.
fn from_table<C: Copy, W: Copy + Into<i32>>(
    table: &[(C, W)],
    value: i32,
    field: &'static str,
) -> Result<C, ConvertError> {
    table
        .iter()
        .find(|&&(_, w)| w.into() == value)
        .map(|&(c, _)| c)
        .ok_or_else(|| bad_enum(field, value))
}

pub fn platform_feature_to_wire(f: PlatformFeature) -> pb::PlatformFeature {
    by_table(&PLATFORM_FEATURES, f, pb::PlatformFeature::Unspecified)
}

pub fn platform_feature_from_wire(value: i32) -> Result<PlatformFeature, ConvertError> {
    from_table(&PLATFORM_FEATURES, value, "conduct.platform.features")
}

const SUPERVISION_ITEMS: [(SupervisionItem, pb::SupervisionItem); 13] = {
    use SupervisionItem as C;
    use pb::SupervisionItem as W;
    [
        (C::PersonInPlayingArea, W::PersonInPlayingArea),
        (C::PlayingAreaNotOnCamera, W::PlayingAreaNotOnCamera),
        (C::ScreenNotShared, W::ScreenNotShared),
        (C::UnauthorisedApplication, W::UnauthorisedApplication),
        (C::VcsNotConnected, W::VcsNotConnected),
        (C::FaceNotInView, W::FaceNotInView),
        (C::InsufficientLighting, W::InsufficientLighting),
        (C::MicrophoneOff, W::MicrophoneOff),
        (C::Headphones, W::Headphones),
        (C::UnauthorisedDevice, W::UnauthorisedDevice),
        (C::LeftPlayingArea, W::LeftPlayingArea),
        (C::RoomInspectionRefused, W::RoomInspectionRefused),
        (C::SurroundingsCheckRefused, W::SurroundingsCheckRefused),
    ]
};

pub fn supervision_item_to_wire(i: SupervisionItem) -> pb::SupervisionItem {
    by_table(&SUPERVISION_ITEMS, i, pb::SupervisionItem::Unspecified)
}

pub fn supervision_item_from_wire(value: i32) -> Result<SupervisionItem, ConvertError> {
    from_table(&SUPERVISION_ITEMS, value, "item")
}

/// A consent's fields on the wire, for `player_id`.
pub fn consent_to_wire(c: &FairPlayConsentRecorded) -> pb::FairPlayConsentRecorded {
    pb::FairPlayConsentRecorded {
        player_id: c.player_id,
        regulations_version: c.regulations_version.clone(),
        accepted_by: c.accepted_by.clone(),
        by_guardian: c.by_guardian,
        items: c
            .items
            .iter()
            .map(|i| consent_item_to_wire(*i) as i32)
            .collect(),
        platform_account: c.platform_account.clone(),
    }
}

pub fn consent_from_wire(
    c: &pb::FairPlayConsentRecorded,
) -> Result<FairPlayConsentRecorded, ConvertError> {
    Ok(FairPlayConsentRecorded {
        player_id: c.player_id,
        regulations_version: c.regulations_version.clone(),
        accepted_by: c.accepted_by.clone(),
        by_guardian: c.by_guardian,
        items: c
            .items
            .iter()
            .map(|i| consent_item_from_wire(*i))
            .collect::<Result<_, _>>()?,
        platform_account: c.platform_account.clone(),
    })
}

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

fn tournament_created_from_wire(
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

fn codes(list: &[ResultCode]) -> Vec<i32> {
    list.iter()
        .map(|c| pb::ResultCode::from(*c) as i32)
        .collect()
}

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
        Event::RegistrationCancelled(c) => {
            Kind::RegistrationCancelled(pb::RegistrationCancelled {
                entry: c.entry,
                player_id: c.player_id,
                reason: c.reason.clone(),
            })
        }
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
mod tests {
    use super::*;
    use arbiter_core::Color;
    use arbiter_core::Score;
    use prost::Message;

    fn round_trip(e: Event) {
        let wire = event_to_wire(&e);
        let bytes = wire.encode_to_vec();
        let back = pb::Event::decode(bytes.as_slice()).unwrap();
        assert_eq!(event_from_wire(&back).unwrap(), Some(e));
    }

    fn date(s: &str) -> Date {
        s.parse().unwrap()
    }

    #[test]
    fn every_domain_event_survives_the_wire() {
        round_trip(Event::TournamentCreated(TournamentCreated {
            name: "Open".into(),
            place: "Oslo".into(),
            federation: "NOR".into(),
            start_date: date("2025-09-01"),
            end_date: date("2025-09-09"),
            chief_arbiter: Arbiter {
                name: "Doe, Jane".into(),
                fide_id: Some(7),
                title: "IA".into(),
            },
            deputy_arbiters: vec![Arbiter::named("Roe, Rick")],
            pairing_system: PairingSystem::Dutch,
            rule_set: "dutch-2025".into(),
            rounds: 9,
            scoring: PointSystem::with_win_draw(Score(30), Score(10)),
            initial_color: None,
            rating_kind: RatingKind::Rapid,
            tie_breaks: vec!["BH/C1".into(), "SB".into()],
            time_control: "90'+30\"".into(),
            acceleration: Some(Acceleration::baku("dutch-2025", 9)),
            fide_rated: true,
            tournament_type: "FIDE_DUTCH_2025".into(),
            trf_records: vec!["202 BH:CUT1 BH SB".into(), "### a comment".into()],
            round_dates: vec![
                Some("2025-09-01".parse().unwrap()),
                None,
                Some("2025-09-03".parse().unwrap()),
            ],
            conduct: Conduct::default(),
            knockout: None,
            team_rules: None,
        }));
        round_trip(Event::TournamentCreated(TournamentCreated {
            name: "Online".into(),
            place: String::new(),
            federation: String::new(),
            start_date: date("2026-09-01"),
            end_date: date("2026-09-01"),
            chief_arbiter: Arbiter::named("Doe, Jane"),
            deputy_arbiters: Vec::new(),
            pairing_system: PairingSystem::Dutch,
            rule_set: "dutch-2025".into(),
            rounds: 7,
            scoring: PointSystem::default(),
            initial_color: None,
            rating_kind: RatingKind::Rapid,
            tie_breaks: Vec::new(),
            time_control: String::new(),
            acceleration: None,
            fide_rated: false,
            tournament_type: String::new(),
            trf_records: Vec::new(),
            round_dates: Vec::new(),
            conduct: Conduct {
                format: EventFormat::Hybrid,
                periods: vec![TimeControlPeriod {
                    moves: 0,
                    base_seconds: 900,
                    increment_seconds: 30,
                    delay_seconds: 0,
                }],
                traditional_boards: true,
                require_fair_play_consent: false,
                regulations_version: "2026-1".into(),
                // (Refused by the domain for a hybrid event; the encoding carries it anyway.)
                supervision: SupervisionRequirements {
                    playing_area_camera: true,
                    vcs_connect_minutes_before: 15,
                    surroundings_on_request: true,
                    ..SupervisionRequirements::default()
                },
                platform: Some(PlatformProfile {
                    name: "Board Online".into(),
                    version: "4.2".into(),
                    url: "https://board.example".into(),
                    features: PLATFORM_FEATURES.map(|(c, _)| c).to_vec(),
                    min_moves_before_draw_offer: 30,
                    accepts_illegal_moves: true,
                    illegal_move_policy: "the second loses".into(),
                    auto_excludes_disconnected_players: true,
                }),
                ..Conduct::default()
            },
            // (A knockout's regulations on a Dutch event are refused by the domain; every
            // choice still has to survive the encoding.)
            knockout: Some(knockout::Rules {
                seeding: knockout::Seeding::PairingNumber,
                classical_games: 2,
                tie_breaks: vec![
                    knockout::Stage {
                        kind: knockout::StageKind::Rapid,
                        games: 2,
                        time_control: "15'+10\"".into(),
                    },
                    knockout::Stage {
                        kind: knockout::StageKind::Blitz,
                        games: 4,
                        time_control: String::new(),
                    },
                ],
                first_colour: knockout::FirstColour::Lot,
                tie_break_colours: knockout::TieBreakColours::Restart,
                armageddon_colour: knockout::ArmageddonColour::HigherSeedBlack,
                armageddon_time_control: "5' v 4'".into(),
                lot_seed: "seed".into(),
            }),
            team_rules: None,
        }));
        for item in SUPERVISION_ITEMS.map(|(c, _)| c) {
            round_trip(Event::SupervisionBreachRecorded(
                SupervisionBreachRecorded {
                    breach: 2,
                    round: 3,
                    board: 7,
                    player_id: 12,
                    item,
                    article: item.article().into(),
                    note: "earbuds".into(),
                },
            ));
        }
        round_trip(Event::FairPlayConsentRecorded(FairPlayConsentRecorded {
            player_id: 4,
            regulations_version: "2026-1".into(),
            accepted_by: "Roe, Ann (mother)".into(),
            by_guardian: true,
            items: vec![ConsentItem::AnalysisAndSanctions, ConsentItem::Recording],
            platform_account: "ann_r".into(),
        }));
        round_trip(Event::ResultDiscrepancyDetected(
            ResultDiscrepancyDetected {
                round: 2,
                board: 5,
                platform_result: "1/2-1/2".into(),
                laws_result: "1-0".into(),
                reason: "Black's flag fell and White can still mate".into(),
                article: "E.04 Art. 4.5".into(),
            },
        ));
        round_trip(Event::ResultOverridden(ResultOverridden {
            round: 2,
            board: 5,
            platform_result: "1/2-1/2".into(),
            result: BoardResult::WhiteWins,
            reason: "Laws 4.5".into(),
            article: "E.04 Art. 4.5".into(),
        }));
        round_trip(Event::ConnectionIncidentReported(
            ConnectionIncidentReported {
                incident: 1,
                round: 2,
                board: 3,
                player_id: 7,
                channel: ConnectionChannel::VideoConference,
                disconnected_at_unix_ms: 1_780_000_000_000,
                reconnected_at_unix_ms: Some(1_780_000_120_000),
                clock_at_disconnect_ms: 180_000,
                moved_while_vcs_down: true,
                reported_by: IncidentReporter::LocalTechnicalArbiter,
                note: "router".into(),
            },
        ));
        round_trip(Event::DisconnectionRuled(DisconnectionRuled {
            incident: 1,
            outcome: DisconnectionOutcome::ResumeFromPosition,
            remaining_ms: 0,
            fen: "7k/8/8/8/8/8/8/K7 w - - 0 60".into(),
            white_ms: 1000,
            black_ms: 2000,
            reduce_ms: 0,
            time_control: String::new(),
            article: "E.04 Art. 18.9 a".into(),
            note: String::new(),
        }));
        round_trip(Event::ComplaintFiled(ComplaintFiled {
            complaint: 1,
            complainant: 2,
            complainant_fide_id: 1_503_014,
            accused: 5,
            grounds: "left the camera view for minutes".into(),
            evidence: vec![Evidence {
                kind: EvidenceKind::Testimony,
                reference: "written statement".into(),
                note: String::new(),
            }],
            filed_at_unix_ms: 1_780_000_000_000,
            deadline_unix_ms: 1_780_050_000_000,
            outcome: ComplaintOutcome::Admitted,
            article: "E.04 Appendix I G.2".into(),
        }));
        round_trip(Event::AppealFiled(AppealFiled {
            appeal: 1,
            appellant: 3,
            decision_version: 41,
            decision_kind: "SanctionImposed".into(),
            grounds: "the breach was the platform's".into(),
            deposit: "50 EUR".into(),
            filed_at_unix_ms: 1_780_000_000_000,
            deadline_unix_ms: 1_780_001_800_000,
            admitted: true,
        }));
        round_trip(Event::AppealDecided(AppealDecided {
            appeal: 1,
            upheld: true,
            deposit_returned: true,
            committee: vec!["A".into(), "B".into(), "C".into()],
            note: String::new(),
        }));
        round_trip(Event::SanctionImposed(SanctionImposed {
            player_id: 3,
            kind: SanctionKind::GameLost,
            round: 2,
            rounds: Vec::new(),
            amount: String::new(),
            article: "Laws 12.9.6".into(),
            evidence: vec![Evidence {
                kind: EvidenceKind::PhysicalEvidence,
                reference: "phone in the toilets".into(),
                note: "seen by the deputy".into(),
            }],
            note: String::new(),
        }));
        round_trip(Event::IrregularityRecorded(IrregularityRecorded {
            round: 1,
            board: 4,
            kind: IrregularityKind::ColoursReversed,
            plies: 16,
            decision: IrregularityDecision::RestartWithCorrectColours,
            article: "E.04 Art. 15.2".into(),
            note: String::new(),
        }));
        round_trip(Event::VirtualPointsSet(VirtualPointsSet {
            player_id: 3,
            points: vec![Score(10), Score(10), Score(5)],
        }));
        round_trip(Event::PairingsForbidden(PairingsForbidden {
            player_ids: vec![4, 9, 2],
            rounds: Some((2, 5)),
        }));
        round_trip(Event::PairingsForbidden(PairingsForbidden {
            player_ids: vec![1, 2],
            rounds: None,
        }));
        round_trip(Event::LotsDrawn(LotsDrawn {
            numbers: vec![3, 1, 2],
            varma: false,
            seed: "published before the draw".into(),
        }));
        round_trip(Event::LotsDrawn(LotsDrawn {
            numbers: vec![2, 1],
            varma: true,
            seed: String::new(),
        }));
        round_trip(Event::GameSubmitted(GameSubmitted {
            round: 2,
            board: 3,
            pgn: "[White \"A\"]\n\n1. e4 e5 1-0\n".into(),
        }));
        round_trip(Event::TeamRecorded(TeamRecorded {
            number: 2,
            name: "Club A".into(),
            nickname: "CLA".into(),
            strength: Some(2100),
            match_points: Some(Score(30)),
            game_points: None,
            rank: Some(1),
            members: vec![Some(3), None, Some(7)],
        }));
        round_trip(Event::TournamentUpdated(TournamentUpdated {
            name: Some("Open B".into()),
            tie_breaks: Some(vec![]),
            ..Default::default()
        }));
        round_trip(Event::TournamentUpdated(TournamentUpdated {
            federation: Some("NOR".into()),
            deputy_arbiters: Some(vec![Arbiter::named("Deputy, D")]),
            time_control: Some("90'+30\"".into()),
            rating_kind: Some(RatingKind::Blitz),
            ..Default::default()
        }));
        round_trip(Event::TournamentUpdated(TournamentUpdated {
            deputy_arbiters: Some(vec![]),
            ..Default::default()
        }));
        round_trip(Event::PlayerCorrected(PlayerCorrected {
            player: Player {
                player_id: 4,
                name: "Corrected, C".into(),
                rating: 2210,
                ..Player::default()
            },
            fields: vec!["rating".into(), "name".into()],
            reason: "typo on the entry form".into(),
            new_player_id: Some(2),
        }));
        round_trip(Event::PlayerCorrected(PlayerCorrected {
            player: Player {
                player_id: 4,
                ..Player::default()
            },
            fields: vec!["club".into()],
            reason: "club".into(),
            new_player_id: None,
        }));
        round_trip(Event::RegistrationCancelled(
            arbiter_core::tournament::RegistrationCancelled {
                entry: 3,
                player_id: 2,
                reason: "registered twice".into(),
            },
        ));
        round_trip(Event::TournamentUpdated(TournamentUpdated {
            start_date: Some(date("2025-09-02")),
            rounds: Some(11),
            ..Default::default()
        }));
        let player = Player {
            player_id: 3,
            name: "Player, A".into(),
            fide_id: Some(12345),
            national_id: "N1".into(),
            rating: 2100,
            national_rating: 2050,
            k_factor: 20,
            title: Some(Title::WFM),
            federation: "FRA".into(),
            birth_date: Some(date("1990-00-00")),
            sex: Some(Sex::Female),
            club: "Club".into(),
        };
        round_trip(Event::PlayerRegistered(PlayerRegistered {
            player: player.clone(),
        }));
        round_trip(Event::LateEntry(LateEntry {
            player,
            first_round: 3,
            missed_rounds: vec![ResultCode::ZeroBye, ResultCode::HalfBye],
        }));
        round_trip(Event::PlayerWithdrawn(PlayerWithdrawn {
            player_id: 4,
            from_round: 5,
            reason: "ill".into(),
        }));
        round_trip(Event::ByeRequested(ByeRequested {
            player_id: 2,
            round: 4,
            kind: ByeKind::HalfPoint,
        }));
        round_trip(Event::ByeCancelled(ByeCancelled {
            player_id: 2,
            round: 4,
        }));
        round_trip(Event::AbsenceDeclared(AbsenceDeclared {
            player_id: 2,
            round: 4,
            reason: String::new(),
        }));
        round_trip(Event::RoundStarted(RoundStarted {
            round: 1,
            scheduled_unix_ms: None,
        }));
        round_trip(Event::RoundStarted(RoundStarted {
            round: 2,
            scheduled_unix_ms: Some(1_700_000_000_000),
        }));
        round_trip(Event::PairingRequested(PairingRequested {
            round: 1,
            rule_set: "dutch-2017".into(),
            attempt: 2,
        }));
        round_trip(Event::PairingProposed(PairingProposed {
            round: 1,
            attempt: 1,
            boards: vec![Board {
                number: 1,
                white: 1,
                black: 2,
            }],
            unpaired: vec![Unpaired {
                player_id: 3,
                code: ResultCode::PairingBye,
            }],
            engine: Engine {
                name: "e".into(),
                version: "1".into(),
            },
            rule_set: "dutch-2025".into(),
            based_on_version: 9,
            input_digest: vec![1; 32],
            explanation: "why".into(),
            team_bye: None,
            team_matches: Vec::new(),
        }));
        round_trip(Event::PairingFailed(PairingFailed {
            round: 1,
            attempt: 1,
            engine: Engine::default(),
            rule_set: "dutch-2025".into(),
            based_on_version: 9,
            input_digest: vec![],
            reason: "none".into(),
        }));
        round_trip(Event::PairingPublished(PairingPublished {
            round: 1,
            proposal_version: None,
            boards: vec![],
            unpaired: vec![],
            manually_changed: true,
            note: "by hand".into(),
            team_bye: None,
            team_matches: Vec::new(),
        }));
        round_trip(Event::PairingPublished(PairingPublished {
            round: 1,
            proposal_version: Some(12),
            boards: vec![],
            unpaired: vec![],
            manually_changed: false,
            note: String::new(),
            team_bye: None,
            team_matches: Vec::new(),
        }));
        for result in [
            BoardResult::WhiteWins,
            BoardResult::DoubleForfeit,
            BoardResult::ArbiterDecision {
                white: ResultCode::Win,
                black: ResultCode::Loss,
            },
            BoardResult::ArbiterDecision {
                white: ResultCode::Loss,
                black: ResultCode::Loss,
            },
        ] {
            round_trip(Event::ResultRecorded(ResultRecorded {
                round: 1,
                board: 2,
                result,
            }));
            round_trip(Event::ResultCorrected(ResultCorrected {
                round: 1,
                board: 2,
                previous: result,
                corrected: BoardResult::ArbiterDecision {
                    white: ResultCode::Draw,
                    black: ResultCode::Loss,
                },
                reason: "appeal".into(),
            }));
        }
        round_trip(Event::RoundClosed(RoundClosed { round: 1 }));
        round_trip(Event::TournamentFinished(TournamentFinished {
            rounds_played: 9,
        }));
        let _ = Color::White;
    }

    #[test]
    fn bad_wire_values_name_the_field() {
        let e = pb::Event {
            origin: None,
            kind: Some(Kind::ByeRequested(pb::ByeRequested {
                player_id: 1,
                round: 1,
                kind: 0,
            })),
        };
        assert_eq!(
            event_from_wire(&e),
            Err(ConvertError::BadEnum {
                field: "kind",
                value: 0
            })
        );
        let e = pb::Event {
            origin: None,
            kind: Some(Kind::PlayerRegistered(pb::PlayerRegistered {
                player: None,
            })),
        };
        assert!(matches!(
            event_from_wire(&e),
            Err(ConvertError::Invalid {
                field: "player",
                ..
            })
        ));
        let other = pb::Event {
            origin: None,
            kind: Some(Kind::ScreeningFlagRaised(pb::ScreeningFlagRaised::default())),
        };
        assert_eq!(event_from_wire(&other), Ok(None));
        assert_eq!(
            event_from_wire(&pb::Event {
                kind: None,
                origin: None
            }),
            Ok(None)
        );
    }
}
