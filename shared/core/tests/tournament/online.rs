//! Online and hybrid events (E.04; spec online-hybrid §1, §3, §7): the format fixed at creation
//! with its configuration errors (scenario 11), and the fair-play consent without which a
//! player is not paired (scenario 12).

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
