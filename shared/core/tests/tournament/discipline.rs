//! Sanctions with their evidence and the irregularities the rules settle (Laws 12.9 = E.04 10.9,
//! 18.4; E.04 15, 19; scenarios 5 and 9 of docs/src/guide/online-hybrid.md).

use crate::support::*;
use arbiter_core::ResultCode;
use arbiter_core::tournament::*;

fn evidence(kind: EvidenceKind) -> Evidence {
    Evidence {
        kind,
        reference: "report of the deputy arbiter".into(),
        note: String::new(),
    }
}

fn sanction(player: u32, kind: SanctionKind, round: Option<u32>, ev: &[EvidenceKind]) -> Command {
    Command::ImposeSanction(ImposeSanction {
        player,
        kind,
        round,
        rounds: Vec::new(),
        amount: String::new(),
        article: String::new(),
        evidence: ev.iter().map(|k| evidence(*k)).collect(),
        note: String::new(),
    })
}

/// Four players, round 1 published: board 1 is 1 - 3, board 2 is 4 - 2.
fn paired() -> Given {
    Given::with_players(5, 4).paired(1, &[(1, 3), (4, 2)], None)
}

#[test]
fn scenario_9_statistical_evidence_alone_is_refused() {
    let g = paired();
    let e = g
        .when(sanction(
            3,
            SanctionKind::GameLost,
            Some(1),
            &[EvidenceKind::Statistical],
        ))
        .unwrap_err();
    assert_eq!(e, DomainError::StatisticalEvidenceOnly);
    assert!(e.to_string().contains("screening"), "{e}");
    let e = g
        .when(sanction(3, SanctionKind::Warning, None, &[]))
        .unwrap_err();
    assert_eq!(e, DomainError::StatisticalEvidenceOnly);
    // With physical evidence beside the statistics it stands.
    let then = g
        .when(sanction(
            3,
            SanctionKind::GameLost,
            Some(1),
            &[EvidenceKind::Statistical, EvidenceKind::PhysicalEvidence],
        ))
        .unwrap();
    let [Event::SanctionImposed(s), Event::ResultRecorded(r)] = then.as_slice() else {
        panic!("{then:?}")
    };
    assert_eq!(
        (s.kind, s.article.as_str()),
        (SanctionKind::GameLost, "Laws 12.9.6")
    );
    // Player 3 has Black on board 1: he loses, player 1 wins, as an arbiter's decision.
    assert_eq!(
        (r.board, r.result),
        (
            1,
            BoardResult::ArbiterDecision {
                white: ResultCode::Win,
                black: ResultCode::Loss
            }
        )
    );
}

#[test]
fn a_game_lost_after_its_result_is_a_correction() {
    let g = paired().results(1, &[BoardResult::BlackWins, BoardResult::Draw]);
    let then = g
        .when(sanction(
            3,
            SanctionKind::GameLost,
            Some(1),
            &[EvidenceKind::Admission],
        ))
        .unwrap();
    let [Event::SanctionImposed(_), Event::ResultCorrected(c)] = then.as_slice() else {
        panic!("{then:?}")
    };
    assert_eq!(c.previous, BoardResult::BlackWins);
    assert!(c.reason.contains("Laws 12.9.6"), "{}", c.reason);
    // Not on a board in that round.
    let g = Given::with_players(5, 5).paired(1, &[(1, 3), (4, 2)], Some(5));
    let e = g
        .when(sanction(
            5,
            SanctionKind::GameLost,
            Some(1),
            &[EvidenceKind::Testimony],
        ))
        .unwrap_err();
    assert!(
        matches!(
            e,
            DomainError::NoGameInRound {
                round: 1,
                player: 5
            }
        ),
        "{e}"
    );
}

#[test]
fn exclusion_and_expulsion_take_effect_as_absences_and_a_withdrawal() {
    let g = paired()
        .results(1, &[BoardResult::Draw, BoardResult::Draw])
        .cmd(close(1));
    let mut c = ImposeSanction {
        player: 2,
        kind: SanctionKind::ExclusionFromRounds,
        round: None,
        rounds: vec![3, 2],
        amount: String::new(),
        article: String::new(),
        evidence: vec![evidence(EvidenceKind::ObservedBreach)],
        note: "arrived drunk".into(),
    };
    let then = g.when(Command::ImposeSanction(c.clone())).unwrap();
    let kinds: Vec<&str> = then.iter().map(|e| e.kind()).collect();
    assert_eq!(
        kinds,
        ["SanctionImposed", "AbsenceDeclared", "AbsenceDeclared"]
    );
    let state = g.clone().cmd(Command::ImposeSanction(c.clone())).state();
    assert_eq!(state.availability(2, 2), Some(Availability::Absent));
    assert_eq!(state.availability(2, 3), Some(Availability::Absent));
    c.kind = SanctionKind::Expulsion;
    c.rounds.clear();
    let state = g.cmd(Command::ImposeSanction(c)).state();
    assert_eq!(
        state.availability(2, 2),
        Some(Availability::Withdrawn { from_round: 2 })
    );
    assert_eq!(state.sanctions().len(), 1);
}

#[test]
fn time_and_money_say_how_much() {
    let e = paired()
        .when(sanction(
            1,
            SanctionKind::Fine,
            None,
            &[EvidenceKind::ObservedBreach],
        ))
        .unwrap_err();
    assert!(e.to_string().contains("amount"), "{e}");
}

fn irregularity(
    board: u32,
    kind: IrregularityKind,
    plies: u32,
    decision: Option<IrregularityDecision>,
) -> Command {
    Command::RecordIrregularity(RecordIrregularity {
        round: 1,
        board,
        kind,
        plies,
        decision,
        note: String::new(),
    })
}

#[test]
fn scenario_5_colours_reversed_restart_before_ten_moves_continue_after() {
    let g = paired();
    let then = g
        .when(irregularity(1, IrregularityKind::ColoursReversed, 16, None))
        .unwrap();
    let [Event::IrregularityRecorded(i)] = then.as_slice() else {
        panic!("{then:?}")
    };
    assert_eq!(i.decision, IrregularityDecision::RestartWithCorrectColours);
    assert_eq!(i.article, "Laws 7.3");
    let then = g
        .when(irregularity(1, IrregularityKind::ColoursReversed, 20, None))
        .unwrap();
    let [Event::IrregularityRecorded(i)] = then.as_slice() else {
        panic!("{then:?}")
    };
    assert_eq!(i.decision, IrregularityDecision::Continue);
    // The rule is not the arbiter's to change.
    let e = g
        .when(irregularity(
            1,
            IrregularityKind::ColoursReversed,
            20,
            Some(IrregularityDecision::RestartWithCorrectColours),
        ))
        .unwrap_err();
    assert!(e.to_string().contains("the rule decides Continue"), "{e}");
    // Other irregularities take the arbiter's decision, one the rule allows.
    assert!(
        g.when(irregularity(
            2,
            IrregularityKind::ClockSettingsWrong,
            30,
            None
        ))
        .is_err()
    );
    let then = g
        .when(irregularity(
            2,
            IrregularityKind::ClockSettingsWrong,
            30,
            Some(IrregularityDecision::ClocksCorrected),
        ))
        .unwrap();
    let [Event::IrregularityRecorded(i)] = then.as_slice() else {
        panic!("{then:?}")
    };
    assert_eq!(i.article, "Laws 6.10.2");
}

// --- disconnections (E.04 11, 13, 18.9; scenarios 1-4 of docs/src/guide/online-hybrid.md) ------

fn online_paired(format: EventFormat, window_s: u32, red_after: u32) -> Given {
    let mut c = create(5);
    c.conduct = Conduct {
        format,
        periods: vec![TimeControlPeriod {
            moves: 0,
            base_seconds: 600,
            increment_seconds: 5,
            delay_seconds: 0,
        }],
        traditional_boards: false,
        // Consent is not what these tests are about: unsupervised events do not ask it.
        require_fair_play_consent: false,
        regulations_version: "R1".into(),
        reconnection_window_s: window_s,
        vcs_red_card_after: red_after,
        appeal_deadline_minutes: 0,
        ..Conduct::default()
    };
    let mut g = Given::created_with(c);
    for i in 0..4 {
        g = g.cmd(register(&format!("Player {}", i + 1), 2400 - 100 * i));
        if format != EventFormat::OnlineUnsupervised {
            g = g.cmd(Command::RecordFairPlayConsent(RecordFairPlayConsent {
                player: i + 1,
                regulations_version: "R1".into(),
                accepted_by: "self".into(),
                by_guardian: false,
                items: vec![
                    ConsentItem::AnalysisAndSanctions,
                    ConsentItem::RealName,
                    ConsentItem::RemoteSupervision,
                    ConsentItem::Recording,
                    ConsentItem::ComplaintsProcedure,
                ],
                platform_account: format!("a{i}"),
            }));
        }
    }
    g.paired(1, &[(1, 3), (4, 2)], None)
}

fn incident(
    player: u32,
    channel: ConnectionChannel,
    clock_s: u32,
    away_s: Option<i64>,
    moved: bool,
) -> Command {
    let t0 = 1_780_000_000_000i64;
    Command::ReportConnectionIncident(ReportConnectionIncident {
        round: 1,
        board: 1,
        player,
        channel,
        disconnected_at_unix_ms: t0,
        reconnected_at_unix_ms: away_s.map(|a| t0 + a * 1000),
        clock_at_disconnect_ms: clock_s * 1000,
        moved_while_vcs_down: moved,
        reported_by: IncidentReporter::Platform,
        note: String::new(),
    })
}

fn ruling(incident: u32, outcome: DisconnectionOutcome, can_mate: Option<bool>) -> Command {
    Command::RuleOnDisconnection(RuleOnDisconnection {
        incident,
        outcome,
        fen: if can_mate.is_some() {
            "7k/8/8/8/8/8/8/K7 w - - 0 60".into()
        } else {
            String::new()
        },
        opponent_can_mate: can_mate,
        white_ms: 0,
        black_ms: 0,
        reduce_ms: 0,
        time_control: String::new(),
        note: String::new(),
    })
}

#[test]
fn scenario_1_back_within_the_window_the_game_goes_on_with_the_time_left() {
    let g = online_paired(EventFormat::OnlineSupervised, 300, 0).cmd(incident(
        3,
        ConnectionChannel::Platform,
        180,
        Some(120),
        false,
    ));
    let then = g
        .when(ruling(1, DisconnectionOutcome::Continue, None))
        .unwrap();
    let [Event::DisconnectionRuled(r)] = then.as_slice() else {
        panic!("{then:?}")
    };
    assert_eq!(
        (r.remaining_ms, r.article.as_str()),
        (60_000, "E.04 Art. 11.4.1")
    );
    // Not a loss, and ruled once.
    assert!(matches!(
        g.when(ruling(
            1,
            DisconnectionOutcome::LossByDisconnection,
            Some(true)
        ))
        .unwrap_err(),
        DomainError::RulingNotAllowed { .. }
    ));
    let g = g.cmd(ruling(1, DisconnectionOutcome::Continue, None));
    assert!(matches!(
        g.when(ruling(1, DisconnectionOutcome::Continue, None))
            .unwrap_err(),
        DomainError::IncidentAlreadyRuled { incident: 1, .. }
    ));
    // Away longer than the window (but not than his clock): not in time.
    let g = online_paired(EventFormat::OnlineSupervised, 60, 0).cmd(incident(
        3,
        ConnectionChannel::Platform,
        180,
        Some(120),
        false,
    ));
    assert!(
        g.when(ruling(1, DisconnectionOutcome::Continue, None))
            .is_err()
    );
}

#[test]
fn scenario_2_never_back_against_a_bare_king_is_a_draw() {
    let g = online_paired(EventFormat::OnlineSupervised, 300, 0).cmd(incident(
        3,
        ConnectionChannel::Platform,
        180,
        None,
        false,
    ));
    let e = g
        .when(ruling(
            1,
            DisconnectionOutcome::LossByDisconnection,
            Some(false),
        ))
        .unwrap_err()
        .to_string();
    assert!(e.contains("DrawNoMatingMaterial"), "{e}");
    // A ruling on the result needs the position.
    assert!(
        g.when(ruling(1, DisconnectionOutcome::DrawNoMatingMaterial, None))
            .is_err()
    );
    let then = g
        .when(ruling(
            1,
            DisconnectionOutcome::DrawNoMatingMaterial,
            Some(false),
        ))
        .unwrap();
    let [Event::DisconnectionRuled(_), Event::ResultRecorded(r)] = then.as_slice() else {
        panic!("{then:?}")
    };
    assert_eq!(r.result, BoardResult::Draw);
    // With mating material left the absent player (Black on board 1) loses.
    let then = g
        .when(ruling(
            1,
            DisconnectionOutcome::LossByDisconnection,
            Some(true),
        ))
        .unwrap();
    let [_, Event::ResultRecorded(r)] = then.as_slice() else {
        panic!("{then:?}")
    };
    assert_eq!(
        r.result,
        BoardResult::ArbiterDecision {
            white: ResultCode::Win,
            black: ResultCode::Loss
        }
    );
}

#[test]
fn scenario_3_a_second_move_off_the_video_call_is_a_red_card() {
    let g = online_paired(EventFormat::OnlineSupervised, 0, 2);
    let then = g
        .when(incident(
            1,
            ConnectionChannel::VideoConference,
            300,
            Some(20),
            true,
        ))
        .unwrap();
    let kinds: Vec<&str> = then.iter().map(|e| e.kind()).collect();
    assert_eq!(kinds, ["ConnectionIncidentReported", "SanctionImposed"]);
    let Event::SanctionImposed(s) = &then[1] else {
        unreachable!()
    };
    assert_eq!(
        (s.kind, s.article.as_str()),
        (SanctionKind::Warning, "E.04 Art. 13.4")
    );
    let g = g.cmd(incident(
        1,
        ConnectionChannel::VideoConference,
        300,
        Some(20),
        true,
    ));
    let then = g
        .when(incident(
            1,
            ConnectionChannel::VideoConference,
            250,
            Some(15),
            true,
        ))
        .unwrap();
    let kinds: Vec<&str> = then.iter().map(|e| e.kind()).collect();
    assert_eq!(
        kinds,
        [
            "ConnectionIncidentReported",
            "SanctionImposed",
            "ResultRecorded"
        ]
    );
    let Event::ResultRecorded(r) = &then[2] else {
        unreachable!()
    };
    // Player 1 has White on board 1: he loses.
    assert_eq!(
        r.result,
        BoardResult::ArbiterDecision {
            white: ResultCode::Loss,
            black: ResultCode::Win
        }
    );
    // No video call in a hybrid event.
    let e = online_paired(EventFormat::Hybrid, 0, 2)
        .when(incident(
            1,
            ConnectionChannel::VideoConference,
            300,
            Some(20),
            true,
        ))
        .unwrap_err();
    assert!(e.to_string().contains("video-conference"), "{e}");
}

#[test]
fn scenario_4_a_hybrid_venue_failure_resumes_from_the_stored_position() {
    let g = online_paired(EventFormat::Hybrid, 0, 0).cmd(incident(
        1,
        ConnectionChannel::Platform,
        900,
        Some(600),
        false,
    ));
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 12";
    let mut c = RuleOnDisconnection {
        incident: 1,
        outcome: DisconnectionOutcome::ResumeFromPosition,
        fen: fen.into(),
        opponent_can_mate: Some(true),
        white_ms: 540_000,
        black_ms: 610_000,
        reduce_ms: 0,
        time_control: String::new(),
        note: "venue internet down at move 12".into(),
    };
    let then = g.when(Command::RuleOnDisconnection(c.clone())).unwrap();
    let [Event::DisconnectionRuled(r)] = then.as_slice() else {
        panic!("{then:?}")
    };
    assert_eq!(
        (r.fen.as_str(), r.white_ms, r.black_ms),
        (fen, 540_000, 610_000)
    );
    assert_eq!(r.article, "E.04 Art. 18.9 a");
    // Hybrid rulings only in hybrid events.
    let online = online_paired(EventFormat::OnlineSupervised, 0, 0).cmd(incident(
        1,
        ConnectionChannel::Platform,
        900,
        Some(600),
        false,
    ));
    assert!(matches!(
        online
            .when(Command::RuleOnDisconnection(c.clone()))
            .unwrap_err(),
        DomainError::RulingNotAllowed { .. }
    ));
    c.white_ms = 0;
    c.black_ms = 0;
    assert!(g.when(Command::RuleOnDisconnection(c)).is_err());
    // Over the board there are no disconnections to report.
    let otb = Given::with_players(5, 4).paired(1, &[(1, 3), (4, 2)], None);
    assert!(matches!(
        otb.when(incident(1, ConnectionChannel::Platform, 900, None, false))
            .unwrap_err(),
        DomainError::NotOnline { .. }
    ));
}

// --- complaints (scenario 10) -------------------------------------------------------------

fn complaint(filed_h: i64, ended: bool, only_rating: bool) -> Command {
    let end = 1_780_000_000_000i64;
    Command::FileComplaint(FileComplaint {
        complainant: 2,
        accused: 1,
        grounds: "his camera showed a second screen's light".into(),
        evidence: vec![evidence(EvidenceKind::Testimony)],
        only_rating_performance: only_rating,
        filed_at_unix_ms: end + filed_h * 3_600_000,
        last_round_ended_at_unix_ms: ended.then_some(end),
    })
}

fn with_fide_ids() -> Given {
    let mut c = create(1);
    c.conduct = Conduct {
        format: EventFormat::OnlineUnsupervised,
        periods: vec![TimeControlPeriod {
            moves: 0,
            base_seconds: 180,
            increment_seconds: 2,
            delay_seconds: 0,
        }],
        ..Conduct::default()
    };
    let mut g = Given::created_with(c);
    for (i, name) in ["A", "B"].iter().enumerate() {
        g = g.cmd(Command::RegisterPlayer(RegisterPlayer {
            fide_id: Some(1_000_000 + i as u64),
            ..RegisterPlayer::new(*name, 2000 - 100 * i as u32)
        }));
    }
    g
}

#[test]
fn scenario_10_a_complaint_30_hours_after_the_last_round_is_rejected_as_late() {
    let g = with_fide_ids();
    let outcome = |c: Command| {
        let then = g.when(c).unwrap();
        let [Event::ComplaintFiled(f)] = then.as_slice() else {
            panic!("{then:?}")
        };
        (f.outcome, f.article.clone(), f.deadline_unix_ms)
    };
    let (o, article, deadline) = outcome(complaint(30, true, false));
    assert_eq!(o, ComplaintOutcome::RejectedAsLate);
    assert_eq!(article, "E.04 Appendix I G.2.1");
    assert_eq!(deadline, 1_780_000_000_000 + COMPLAINT_WINDOW_MS);
    assert_eq!(
        outcome(complaint(23, true, false)).0,
        ComplaintOutcome::Admitted
    );
    // During the event no deadline runs yet.
    assert_eq!(
        outcome(complaint(300, false, false)).0,
        ComplaintOutcome::Admitted
    );
    // On the rating alone: manifestly unfounded (G.2.5).
    assert_eq!(
        outcome(complaint(1, true, true)).0,
        ComplaintOutcome::ManifestlyUnfounded
    );
    // Complaints are numbered; a complainant needs a FIDE id; not over the board.
    let g2 = g.clone().cmd(complaint(1, true, false));
    let then = g2.when(complaint(2, true, false)).unwrap();
    assert!(matches!(&then[0], Event::ComplaintFiled(f) if f.complaint == 2));
    let e = online_paired(EventFormat::OnlineSupervised, 0, 0)
        .when(complaint(1, true, false))
        .unwrap_err();
    assert!(e.to_string().contains("no FIDE id"), "{e}");
    let e = Given::with_players(3, 2)
        .when(complaint(1, true, false))
        .unwrap_err();
    assert!(matches!(e, DomainError::NotOnline { .. }), "{e}");
}

// --- appeals (GR 10; E.04 9.14, 17.11) -----------------------------------------------------

fn appeal(filed_min: i64, kind: &str) -> Command {
    let at = 1_780_000_000_000i64;
    Command::FileAppeal(FileAppeal {
        appellant: 3,
        decision_version: 12,
        decision_kind: kind.into(),
        decision_at_unix_ms: at,
        grounds: "the phone was the organiser's".into(),
        deposit: "50 EUR".into(),
        filed_at_unix_ms: at + filed_min * 60_000,
    })
}

fn decide(
    appeal: u32,
    upheld: bool,
    members: usize,
    new_result: Option<(u32, u32, BoardResult)>,
) -> Command {
    Command::DecideAppeal(DecideAppeal {
        appeal,
        upheld,
        new_result,
        deposit_returned: upheld,
        committee: (0..members).map(|i| format!("Member {i}")).collect(),
        note: String::new(),
    })
}

#[test]
fn an_upheld_appeal_corrects_the_result_and_a_late_one_is_not_heard() {
    let mut c = create(5);
    c.conduct.appeal_deadline_minutes = 30;
    let mut g = Given::created_with(c);
    for i in 0..4 {
        g = g.cmd(register(&format!("Player {:02}", i + 1), 2400 - 100 * i));
    }
    let g = g.paired(1, &[(1, 3), (4, 2)], None).cmd(sanction(
        3,
        SanctionKind::GameLost,
        Some(1),
        &[EvidenceKind::ObservedBreach],
    ));
    // Not a decision: refused.
    assert!(g.when(appeal(5, "PairingRequested")).is_err());
    let then = g.when(appeal(20, "SanctionImposed")).unwrap();
    let [Event::AppealFiled(a)] = then.as_slice() else {
        panic!("{then:?}")
    };
    assert!(a.admitted);
    assert_eq!(a.deadline_unix_ms, 1_780_000_000_000 + 30 * 60_000);
    let g = g
        .cmd(appeal(20, "SanctionImposed"))
        .cmd(appeal(45, "SanctionImposed"));
    assert!(!g.state().appeals()[1].admitted);
    // GR 10.2: an odd committee of three or more.
    assert!(
        g.when(decide(1, true, 2, None))
            .unwrap_err()
            .to_string()
            .contains("odd")
    );
    // Upheld: the result the committee sets replaces the sanction's.
    let then = g
        .when(decide(1, true, 3, Some((1, 1, BoardResult::Draw))))
        .unwrap();
    let kinds: Vec<&str> = then.iter().map(|e| e.kind()).collect();
    assert_eq!(kinds, ["AppealDecided", "ResultCorrected"]);
    let g = g.cmd(decide(1, true, 3, Some((1, 1, BoardResult::Draw))));
    assert!(matches!(
        g.when(decide(1, false, 3, None)).unwrap_err(),
        DomainError::AppealNotOpen { .. }
    ));
    // The late one is not heard.
    let e = g.when(decide(2, false, 3, None)).unwrap_err();
    assert!(e.to_string().contains("deadline"), "{e}");
    assert!(matches!(
        g.when(decide(3, false, 3, None)).unwrap_err(),
        DomainError::UnknownAppeal { .. }
    ));
}
