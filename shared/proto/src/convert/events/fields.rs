//! The domain's value types (dates, titles, systems, team and knockout rules, conduct and
//! consent) to and from the wire.

use super::*;

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

pub(super) fn required_date(
    field: &'static str,
    d: Option<&pb::Date>,
) -> Result<Date, ConvertError> {
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

pub(super) const PLATFORM_FEATURES: [(PlatformFeature, pb::PlatformFeature); 8] = {
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
pub(super) fn by_table<C: PartialEq + Copy, W: Copy>(table: &[(C, W)], c: C, none: W) -> W {
    table
        .iter()
        .find(|(x, _)| *x == c)
        .map_or(none, |&(_, w)| w)
}

/// The domain value of wire value `value` in a table of (domain, wire) pairs.
pub(super) fn from_table<C: Copy, W: Copy + Into<i32>>(
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

pub(super) const SUPERVISION_ITEMS: [(SupervisionItem, pb::SupervisionItem); 13] = {
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

/// An announced prize fund on the wire.
pub fn prize_fund_to_wire(f: &arbiter_core::tournament::PrizeFund) -> pb::PrizeFund {
    use arbiter_core::tournament::PrizeSharing;
    pb::PrizeFund {
        currency: f.currency.clone(),
        places: f.places.clone(),
        sharing: match f.sharing {
            PrizeSharing::Equal => pb::PrizeSharing::Equal,
            PrizeSharing::TieBreak => pb::PrizeSharing::TieBreak,
            PrizeSharing::Hort => pb::PrizeSharing::Hort,
        } as i32,
        share_among_all_tied: f.share_among_all_tied,
        several_prizes_per_player: f.several_prizes_per_player,
        categories: f
            .categories
            .iter()
            .map(|c| pb::PrizeCategory {
                name: c.name.clone(),
                prizes: c.prizes.clone(),
                rating_from: c.rating_from.unwrap_or(0),
                rating_below: c.rating_below.unwrap_or(0),
                unrated_only: c.unrated_only,
                women: c.women,
                born_from_year: c.born_from_year.unwrap_or(0),
                born_until_year: c.born_until_year.unwrap_or(0),
                federation: c.federation.clone().unwrap_or_default(),
                by_rating_gain: c.by_rating_gain,
            })
            .collect(),
    }
}

/// A prize fund from the wire; the sharing method must be given (no default: the regulations
/// name it).
pub fn prize_fund_from_wire(
    f: &pb::PrizeFund,
) -> Result<arbiter_core::tournament::PrizeFund, ConvertError> {
    use arbiter_core::tournament::{PrizeCategory, PrizeFund, PrizeSharing};
    let some = |v: u32| (v != 0).then_some(v);
    let year = |v: i32| (v != 0).then_some(v);
    Ok(PrizeFund {
        currency: f.currency.trim().to_string(),
        places: f.places.clone(),
        sharing: match pb::PrizeSharing::try_from(f.sharing) {
            Ok(pb::PrizeSharing::Equal) => PrizeSharing::Equal,
            Ok(pb::PrizeSharing::TieBreak) => PrizeSharing::TieBreak,
            Ok(pb::PrizeSharing::Hort) => PrizeSharing::Hort,
            _ => return Err(bad_enum("prize_fund.sharing", f.sharing)),
        },
        share_among_all_tied: f.share_among_all_tied,
        several_prizes_per_player: f.several_prizes_per_player,
        categories: f
            .categories
            .iter()
            .map(|c| PrizeCategory {
                name: c.name.trim().to_string(),
                prizes: c.prizes.clone(),
                rating_from: some(c.rating_from),
                rating_below: some(c.rating_below),
                unrated_only: c.unrated_only,
                women: c.women,
                born_from_year: year(c.born_from_year),
                born_until_year: year(c.born_until_year),
                federation: Some(c.federation.trim().to_ascii_uppercase())
                    .filter(|f| !f.is_empty()),
                by_rating_gain: c.by_rating_gain,
            })
            .collect(),
    })
}
