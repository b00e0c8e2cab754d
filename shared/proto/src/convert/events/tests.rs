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
        prize_fund: Some(arbiter_core::tournament::PrizeFund {
            currency: "EUR".into(),
            places: vec![100_000, 50_000, 25_050],
            sharing: arbiter_core::tournament::PrizeSharing::TieBreak,
            share_among_all_tied: true,
            several_prizes_per_player: true,
            categories: vec![arbiter_core::tournament::PrizeCategory {
                name: "Juniors".into(),
                prizes: vec![5_000],
                born_from_year: Some(2008),
                women: true,
                federation: Some("ESP".into()),
                rating_from: Some(1400),
                rating_below: Some(1800),
                by_rating_gain: true,
                ..Default::default()
            }],
        }),
        ..Default::default()
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
