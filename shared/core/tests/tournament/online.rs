//! Online and hybrid events (E.04 6.1, 8.3, 20; Appendix I J): the format fixed at creation
//! with its configuration errors (scenario 11 of docs/src/guide/online-hybrid.md), and the
//! fair-play consent without which a player is not paired (scenario 12).

use crate::support::*;
use arbiter_core::ResultCode;
use arbiter_core::tournament::*;

const REGS: &str = "Online Open 2026, v1";

fn online(format: EventFormat, increment: u32, traditional_boards: bool) -> CreateTournament {
    let mut c = create(5);
    c.conduct = Conduct {
        format,
        periods: vec![TimeControlPeriod {
            moves: 0,
            base_seconds: 900,
            increment_seconds: increment,
            delay_seconds: 0,
        }],
        traditional_boards,
        require_fair_play_consent: false,
        regulations_version: REGS.into(),
        ..Conduct::default()
    };
    c
}

fn consent(player: u32, items: &[ConsentItem]) -> Command {
    Command::RecordFairPlayConsent(RecordFairPlayConsent {
        player,
        regulations_version: REGS.into(),
        accepted_by: "the player".into(),
        by_guardian: false,
        items: items.to_vec(),
        platform_account: format!("account-{player}"),
    })
}

const ALL: [ConsentItem; 5] = [
    ConsentItem::AnalysisAndSanctions,
    ConsentItem::RealName,
    ConsentItem::RemoteSupervision,
    ConsentItem::Recording,
    ConsentItem::ComplaintsProcedure,
];

/// An online supervised event with five players, all but player 5 consenting.
fn five_online() -> Given {
    let mut g = Given::created_with(online(EventFormat::OnlineSupervised, 10, false));
    for i in 0..5 {
        g = g.cmd(register(&format!("Player {}", i + 1), 2400 - 100 * i));
    }
    for p in 1..=4 {
        g = g.cmd(consent(p, &ALL));
    }
    g
}

#[test]
fn scenario_11_hybrid_with_traditional_boards_and_a_10_s_increment_is_refused() {
    let e = Given::nothing()
        .when(Command::CreateTournament(online(
            EventFormat::Hybrid,
            10,
            true,
        )))
        .unwrap_err();
    assert!(
        matches!(&e, DomainError::Invalid { field, .. } if field == "conduct.periods[0].increment_seconds"),
        "{e}"
    );
    assert!(e.to_string().contains("E.04 Art. 20"), "{e}");
    // 30 s from move 1 is what Art. 20 asks.
    let then = Given::nothing()
        .when(Command::CreateTournament(online(
            EventFormat::Hybrid,
            30,
            true,
        )))
        .unwrap();
    let [Event::TournamentCreated(t)] = then.as_slice() else {
        panic!("{then:?}")
    };
    assert_eq!(t.conduct.format, EventFormat::Hybrid);
    assert!(t.conduct.traditional_boards);
}

#[test]
fn scenario_12_without_consent_a_player_is_not_paired() {
    let given = five_online().cmd(start(1));
    let state = given.state();
    assert_eq!(state.availability(5, 1), Some(Availability::ConsentMissing));
    assert!(state.player(5).unwrap().consent_missing());
    let input = state.pairing_input(1).unwrap();
    let paired: Vec<u32> = input.available().map(|p| p.player.player_id).collect();
    assert_eq!(paired, vec![1, 2, 3, 4]);
    // An engine (or an arbiter) that pairs him anyway is refused.
    let e = given
        .when(propose(1, 1, &[(1, 3), (2, 5)], Some(4)))
        .unwrap_err();
    assert!(
        matches!(
            e,
            DomainError::NotAvailable {
                player: 5,
                availability: Availability::ConsentMissing,
                ..
            }
        ),
        "{e}"
    );
    // Without him: not paired, zero points, listed as such.
    let state = given
        .cmd(propose(1, 1, &[(1, 3), (4, 2)], None))
        .cmd(publish(1))
        .state();
    let published = state.published(1).unwrap();
    assert_eq!(
        published.unpaired,
        vec![Unpaired {
            player_id: 5,
            code: ResultCode::ZeroBye
        }]
    );
}

#[test]
fn a_consent_given_later_counts_from_the_next_pairing_on() {
    let given = five_online()
        .round(
            1,
            &[(1, 3), (4, 2)],
            None,
            &[BoardResult::Draw, BoardResult::Draw],
        )
        .cmd(consent(5, &ALL));
    let state = given.state();
    assert!(!state.player(5).unwrap().consent_missing());
    assert_eq!(state.availability(5, 2), Some(Availability::Available));
    // Round 1 stays as it was paired.
    assert_eq!(state.availability(5, 1), Some(Availability::ConsentMissing));
    let state = given.cmd(start(2)).state();
    assert_eq!(state.pairing_input(2).unwrap().available().count(), 5);
}

#[test]
fn a_consent_while_the_pairing_is_pending_asks_for_it_again() {
    let then = five_online().cmd(start(1)).when(consent(5, &ALL)).unwrap();
    assert!(
        matches!(then[0], Event::FairPlayConsentRecorded(_)),
        "{then:?}"
    );
    assert!(
        matches!(
            then[1],
            Event::PairingRequested(PairingRequested {
                round: 1,
                attempt: 2,
                ..
            })
        ),
        "{then:?}"
    );
}

#[test]
fn what_a_consent_must_hold() {
    let given = five_online();
    // The items of the format (remote supervision for an online supervised event).
    let e = given
        .when(consent(
            5,
            &[ConsentItem::AnalysisAndSanctions, ConsentItem::RealName],
        ))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("consent.items") && e.contains("REMOTE_SUPERVISION"),
        "{e}"
    );
    // The regulations in force.
    let mut c = RecordFairPlayConsent {
        player: 5,
        regulations_version: "2025 edition".into(),
        accepted_by: "Player 5".into(),
        by_guardian: false,
        items: ALL.to_vec(),
        platform_account: "p5".into(),
    };
    let e = given
        .when(Command::RecordFairPlayConsent(c.clone()))
        .unwrap_err()
        .to_string();
    assert!(e.contains("consent.regulations_version"), "{e}");
    // The personal platform account (E.04 9.3).
    c.regulations_version = REGS.into();
    c.platform_account.clear();
    let e = given
        .when(Command::RecordFairPlayConsent(c.clone()))
        .unwrap_err()
        .to_string();
    assert!(e.contains("consent.platform_account"), "{e}");
    // Once.
    let e = given.when(consent(1, &ALL)).unwrap_err();
    assert!(
        matches!(e, DomainError::ConsentAlreadyRecorded { player: 1, .. }),
        "{e}"
    );
    // Not in an over-the-board event.
    let e = Given::with_players(5, 2)
        .when(consent(1, &ALL))
        .unwrap_err();
    assert!(matches!(e, DomainError::ConsentNotRequired { .. }), "{e}");
    // A guardian may accept for a minor.
    c.platform_account = "p5".into();
    c.by_guardian = true;
    c.accepted_by = "Parent of Player 5".into();
    let then = given.when(Command::RecordFairPlayConsent(c)).unwrap();
    let Event::FairPlayConsentRecorded(r) = &then[0] else {
        panic!("{then:?}")
    };
    assert!(r.by_guardian);
    assert_eq!(r.items, ALL.to_vec());
}

#[test]
fn a_round_robin_does_not_start_without_every_consent() {
    let mut c = online(EventFormat::Hybrid, 30, false);
    c.pairing_system = PairingSystem::RoundRobin;
    c.rounds = 3;
    let mut g = Given::created_with(c);
    for i in 0..4 {
        g = g.cmd(register(&format!("Player {}", i + 1), 2400 - 100 * i));
    }
    let hybrid = [
        ConsentItem::AnalysisAndSanctions,
        ConsentItem::RealName,
        ConsentItem::Recording,
        ConsentItem::ComplaintsProcedure,
    ];
    g = g.cmd(consent(1, &hybrid)).cmd(consent(2, &hybrid));
    let e = g.when(start(1)).unwrap_err();
    assert!(
        matches!(&e, DomainError::ConsentMissing { round: 1, players } if players == &vec![3, 4]),
        "{e}"
    );
    let g = g.cmd(consent(3, &hybrid)).cmd(consent(4, &hybrid));
    assert!(g.when(start(1)).is_ok());
}

#[test]
fn an_unsupervised_online_event_asks_the_consent_only_when_its_regulations_do() {
    let g = Given::created_with(online(EventFormat::OnlineUnsupervised, 2, false))
        .cmd(register("A", 2000))
        .cmd(register("B", 1900));
    assert!(!g.state().player(1).unwrap().consent_missing());
    assert!(matches!(
        g.when(consent(1, &ALL)).unwrap_err(),
        DomainError::ConsentNotRequired { .. }
    ));
    let mut c = online(EventFormat::OnlineUnsupervised, 2, false);
    c.conduct.require_fair_play_consent = true;
    let g = Given::created_with(c).cmd(register("A", 2000));
    assert!(g.state().player(1).unwrap().consent_missing());
    // Remote supervision is not among an unsupervised event's items.
    g.cmd(consent(
        1,
        &[
            ConsentItem::AnalysisAndSanctions,
            ConsentItem::RealName,
            ConsentItem::ComplaintsProcedure,
        ],
    ));
}

// --- platform results (E.04 15.3-15.4, 19.3-19.4; scenario 6) -----------------------------

/// Round 1 of the online event published: board 1 is 1 - 3, board 2 is 4 - 2.
fn online_round() -> Given {
    five_online().paired(1, &[(1, 3), (4, 2)], None)
}

fn platform_game(
    board: u32,
    white: &str,
    black: &str,
    result: &str,
    laws: Option<&str>,
) -> Command {
    Command::SubmitGame(SubmitGame {
        round: 1,
        board,
        pgn: format!("[White \"{white}\"]\n[Black \"{black}\"]\n\n1. e4 e5 {result}\n"),
        white: white.into(),
        black: black.into(),
        result: result.into(),
        laws: laws.map(|r| LawsVerdict {
            result: r.into(),
            reason: "Black's flag fell and White can still mate".into(),
            article: "E.04 Art. 4.5".into(),
        }),
    })
}

fn override_cmd(board: u32, result: BoardResult, reason: &str) -> Command {
    Command::OverridePlatformResult(OverridePlatformResult {
        round: 1,
        board,
        result,
        reason: reason.into(),
    })
}

#[test]
fn scenario_6_a_platform_draw_the_laws_contradict_goes_to_the_arbiter_who_overrides_it() {
    let given = online_round();
    let then = given
        .when(platform_game(
            1,
            "Player 1",
            "Player 3",
            "1/2-1/2",
            Some("1-0"),
        ))
        .unwrap();
    let [Event::GameSubmitted(_), Event::ResultDiscrepancyDetected(d)] = then.as_slice() else {
        panic!("{then:?}")
    };
    assert_eq!(
        (
            d.platform_result.as_str(),
            d.laws_result.as_str(),
            d.article.as_str()
        ),
        ("1/2-1/2", "1-0", "E.04 Art. 4.5")
    );
    let given = given.cmd(platform_game(
        1,
        "Player 1",
        "Player 3",
        "1/2-1/2",
        Some("1-0"),
    ));
    assert!(given.state().discrepancy(1, 1).is_some());
    // Recording a result the score does not end with is refused, pointing at the override.
    let e = given
        .when(result(1, 1, BoardResult::WhiteWins))
        .unwrap_err()
        .to_string();
    assert!(e.contains("OverridePlatformResult"), "{e}");
    // The override: attributed, with the article of the discrepancy, then the result.
    let then = given
        .when(override_cmd(
            1,
            BoardResult::WhiteWins,
            "Black's flag fell; White has a queen",
        ))
        .unwrap();
    let [Event::ResultOverridden(o), Event::ResultRecorded(r)] = then.as_slice() else {
        panic!("{then:?}")
    };
    assert_eq!(
        (o.platform_result.as_str(), o.result),
        ("1/2-1/2", BoardResult::WhiteWins)
    );
    assert_eq!(o.article, "E.04 Art. 4.5");
    assert_eq!((r.board, r.result), (1, BoardResult::WhiteWins));
    let state = given
        .cmd(override_cmd(1, BoardResult::WhiteWins, "Black's flag fell"))
        .state();
    assert_eq!(state.score(1), Some(arbiter_core::Score::ONE));
    assert!(state.override_of(1, 1).is_some());
}

#[test]
fn a_platform_result_the_laws_agree_with_is_confirmed_by_recording_it() {
    let given = online_round().cmd(platform_game(2, "Player 4", "Player 2", "1-0", Some("1-0")));
    assert!(given.state().discrepancy(1, 2).is_none());
    given.clone().cmd(result(1, 2, BoardResult::WhiteWins));
    // Overriding with the platform's own result is a confirmation: refused as such.
    let e = given
        .when(override_cmd(2, BoardResult::WhiteWins, "same"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("confirm it with RecordResult"), "{e}");
}

#[test]
fn what_an_override_needs() {
    let given = online_round();
    // A game on the board.
    assert!(matches!(
        given
            .when(override_cmd(1, BoardResult::WhiteWins, "x"))
            .unwrap_err(),
        DomainError::NoPlatformResult { round: 1, board: 1 }
    ));
    let given = given.cmd(platform_game(1, "Player 1", "Player 3", "1/2-1/2", None));
    // A reason.
    let e = given
        .when(override_cmd(1, BoardResult::WhiteWins, " "))
        .unwrap_err();
    assert!(e.to_string().contains("reason"), "{e}");
    // A played result (a forfeit is RecordResult's).
    let e = given
        .when(override_cmd(1, BoardResult::WhiteWinsForfeit, "no show"))
        .unwrap_err();
    assert!(e.to_string().contains("not a played result"), "{e}");
    // Without a discrepancy the arbiter may still decide (E.04 9.14).
    let then = given
        .when(override_cmd(1, BoardResult::BlackWins, "appeal upheld"))
        .unwrap();
    let Event::ResultOverridden(o) = &then[0] else {
        panic!("{then:?}")
    };
    assert_eq!(o.article, "E.04 Art. 9.14");
    // Once a result is recorded: CorrectResult's business.
    let given = given.cmd(result(1, 1, BoardResult::Draw));
    assert!(matches!(
        given
            .when(override_cmd(1, BoardResult::WhiteWins, "x"))
            .unwrap_err(),
        DomainError::ResultAlreadyRecorded { .. }
    ));
    // Over the board: no platform result to override, and no discrepancy is raised.
    let otb = Given::with_players(5, 4).paired(1, &[(1, 3), (4, 2)], None);
    let then = otb
        .when(platform_game(
            1,
            "Player 01",
            "Player 03",
            "1/2-1/2",
            Some("1-0"),
        ))
        .unwrap();
    assert_eq!(then.len(), 1, "{then:?}");
    let otb = otb.cmd(platform_game(
        1,
        "Player 01",
        "Player 03",
        "1/2-1/2",
        Some("1-0"),
    ));
    assert!(matches!(
        otb.when(override_cmd(1, BoardResult::WhiteWins, "x"))
            .unwrap_err(),
        DomainError::NotOnline { .. }
    ));
}
