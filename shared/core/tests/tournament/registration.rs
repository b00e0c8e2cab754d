//! RegisterPlayer: pairing numbers in initial-ranking order (C.04.2.B), late entries (C.04.2.C).

use crate::support::*;
use arbiter_core::tournament::*;
use arbiter_core::{Color, ResultCode, RoundEntry, Score};

fn numbers(state: &State) -> Vec<(u32, String)> {
    state
        .players()
        .map(|p| (p.pairing_number(), p.player.name.clone()))
        .collect()
}

#[test]
fn first_player_gets_pairing_number_one() {
    let then = Given::tournament(9)
        .when(register("Carlsen, Magnus", 2830))
        .unwrap();
    assert_eq!(
        then,
        vec![Event::PlayerRegistered(PlayerRegistered {
            player: player(1, "Carlsen, Magnus", 2830)
        })]
    );
}

#[test]
fn registration_keeps_every_field() {
    let c = RegisterPlayer {
        name: "Hou, Yifan".into(),
        fide_id: Some(8_602_980),
        national_id: "CHN-1".into(),
        rating: 2630,
        national_rating: 2600,
        k_factor: 10,
        title: Some(Title::GM),
        federation: "CHN".into(),
        birth_date: Some(date("1994-02-27")),
        sex: Some(Sex::Female),
        club: "Club".into(),
        first_round: None,
        missed_rounds: ByeKind::ZeroPoint,
        confirm_same_name: false,
        next_number: false,
    };
    let then = Given::tournament(9)
        .when(Command::RegisterPlayer(c))
        .unwrap();
    let Event::PlayerRegistered(PlayerRegistered { player }) = &then[0] else {
        panic!("{then:?}")
    };
    assert_eq!(player.player_id, 1);
    assert_eq!(player.fide_id, Some(8_602_980));
    assert_eq!(player.title, Some(Title::GM));
    assert_eq!(player.sex, Some(Sex::Female));
    assert_eq!(player.birth_date, Some(date("1994-02-27")));
    assert_eq!(
        (
            player.national_rating,
            player.k_factor,
            player.club.as_str()
        ),
        (2600, 10, "Club")
    );
}

#[test]
fn stronger_player_is_inserted_above_and_the_rest_renumbered() {
    let given = Given::tournament(9)
        .cmd(register("B", 2400))
        .cmd(register("C", 2300));
    let then = given.when(register("A", 2500)).unwrap();
    assert_eq!(
        then,
        vec![Event::PlayerRegistered(PlayerRegistered {
            player: player(1, "A", 2500)
        })]
    );
    let state = given.after(register("A", 2500));
    assert_eq!(
        numbers(&state),
        vec![(1, "A".into()), (2, "B".into()), (3, "C".into())]
    );
    // Stable identities do not move.
    assert_eq!(state.player(1).unwrap().entry, EntryId(2));
    assert_eq!(state.player(2).unwrap().entry, EntryId(0));
}

/// An import keeps its file's numbers: with `next_number` each player takes the next number,
/// whatever his rating, and nobody is renumbered.
#[test]
fn a_player_registered_with_the_next_number_keeps_the_order_given() {
    let next = |name: &str, rating| {
        let Command::RegisterPlayer(mut c) = register(name, rating) else {
            unreachable!()
        };
        c.next_number = true;
        Command::RegisterPlayer(c)
    };
    let state = Given::tournament(9)
        .cmd(next("B", 2400))
        .cmd(next("C", 2300))
        .after(next("A", 2500));
    assert_eq!(
        numbers(&state),
        vec![(1, "B".into()), (2, "C".into()), (3, "A".into())]
    );
}

#[test]
fn equal_ratings_are_ordered_by_title_then_name() {
    let titled = |name: &str, title| {
        Command::RegisterPlayer(RegisterPlayer {
            title,
            ..RegisterPlayer::new(name, 2400)
        })
    };
    let state = Given::tournament(9)
        .cmd(titled("Untitled, A", None))
        .cmd(titled("Fm, Z", Some(Title::FM)))
        .cmd(titled("Wgm, Y", Some(Title::WGM)))
        .cmd(titled("Gm, X", Some(Title::GM)))
        .cmd(titled("Cm, W", Some(Title::CM)))
        .cmd(titled("Wim, V", Some(Title::WIM)))
        .cmd(titled("Im, U", Some(Title::IM)))
        .cmd(titled("Wcm, T", Some(Title::WCM)))
        .cmd(titled("Wfm, S", Some(Title::WFM)))
        .cmd(register("Strong, Unrated", 0))
        .cmd(register("Aaron, Untitled", 2400))
        .state();
    let order: Vec<String> = state.players().map(|p| p.player.name.clone()).collect();
    assert_eq!(
        order,
        [
            "Gm, X",
            "Im, U",
            "Wgm, Y",
            "Fm, Z",
            "Wim, V",
            "Cm, W",
            "Wfm, S",
            "Wcm, T",
            "Aaron, Untitled",
            "Untitled, A",
            "Strong, Unrated"
        ]
    );
    assert!(state.initial_ranking_ties().is_empty());
}

#[test]
fn players_tying_on_every_key_keep_registration_order_and_are_reported() {
    let given = Given::tournament(9)
        .cmd(register("Smith, John", 1800))
        .cmd(register("Brown, Ann", 1900));
    // Two players of one name without FIDE ids: the arbiter confirms they are two.
    let twin = Command::RegisterPlayer(RegisterPlayer {
        confirm_same_name: true,
        ..RegisterPlayer::new("Smith, John", 1800)
    });
    let then = given.when(twin.clone()).unwrap();
    assert_eq!(
        then,
        vec![Event::PlayerRegistered(PlayerRegistered {
            player: player(3, "Smith, John", 1800)
        })]
    );
    let state = given.after(twin);
    assert_eq!(state.initial_ranking_ties(), vec![(2, 3)]);
    assert_eq!(state.player(2).unwrap().entry, EntryId(0));
}

#[test]
fn duplicate_fide_id_is_rejected() {
    let with_id = |name: &str, id| {
        Command::RegisterPlayer(RegisterPlayer {
            fide_id: Some(id),
            ..RegisterPlayer::new(name, 2000)
        })
    };
    let given = Given::tournament(9)
        .cmd(register("Other", 2500))
        .cmd(with_id("First", 1_503_014));
    let err = given.when(with_id("Second", 1_503_014)).unwrap_err();
    assert_eq!(
        err,
        DomainError::DuplicateFideId {
            fide_id: 1_503_014,
            player: 2
        }
    );
    assert_eq!(
        err.to_string(),
        "FIDE id 1503014 is already registered as player 2"
    );
    assert!(given.when(with_id("Third", 1_503_015)).is_ok());
}

#[test]
fn invalid_player_data_is_rejected_naming_the_field() {
    let cases: Vec<(RegisterPlayer, &str)> = vec![
        (RegisterPlayer::new("", 2000), "name"),
        (RegisterPlayer::new("Tab\tName", 2000), "name"),
        (RegisterPlayer::new("A", 10_000), "rating"),
        (
            RegisterPlayer {
                federation: "nor".into(),
                ..RegisterPlayer::new("A", 2000)
            },
            "federation",
        ),
        (
            RegisterPlayer {
                fide_id: Some(0),
                ..RegisterPlayer::new("A", 2000)
            },
            "fide_id",
        ),
        (
            RegisterPlayer {
                k_factor: 400,
                ..RegisterPlayer::new("A", 2000)
            },
            "k_factor",
        ),
        (
            RegisterPlayer {
                club: "x".repeat(201),
                ..RegisterPlayer::new("A", 2000)
            },
            "club",
        ),
    ];
    for (c, field) in cases {
        match Given::tournament(9).when(Command::RegisterPlayer(c)) {
            Err(DomainError::Invalid { field: f, .. }) => assert_eq!(f, field),
            other => panic!("{field}: {other:?}"),
        }
    }
}

#[test]
fn registering_while_round_one_is_being_paired_asks_for_a_new_pairing() {
    let given = Given::with_players(5, 4)
        .cmd(start(1))
        .cmd(propose(1, 1, &[(1, 3), (4, 2)], None));
    let then = given.when(register("Late, But In Time", 2350)).unwrap();
    assert_eq!(
        then,
        vec![
            Event::PlayerRegistered(PlayerRegistered {
                player: player(2, "Late, But In Time", 2350)
            }),
            requested(1, 2)
        ]
    );
    let state = given.after(register("Late, But In Time", 2350));
    assert_eq!(state.round_phase(1), Some(RoundPhase::Requested));
    assert_eq!(state.proposal(1), None);
    // The old proposal (attempt 1) can no longer be published or re-sent.
    let again = given.clone().cmd(register("Late, But In Time", 2350));
    assert_eq!(
        again.when(publish(1)),
        Err(DomainError::NoProposal { round: 1 })
    );
    assert_eq!(
        again.when(propose(1, 1, &[(1, 4), (5, 2)], Some(3))),
        Err(DomainError::StaleAttempt {
            round: 1,
            attempt: 1,
            current: 2
        })
    );
}

#[test]
fn after_round_one_is_published_a_newcomer_is_a_late_entry_inserted_in_ranking_order() {
    // 1: 2400, 2: 2300, 3: 2200, 4: 2100; round 1: 1-3, 4-2.
    let given = Given::with_players(5, 4).paired(1, &[(1, 3), (4, 2)], None);
    let then = given.when(register("Late, Entrant", 2250)).unwrap();
    assert_eq!(
        then,
        vec![Event::LateEntry(LateEntry {
            player: player(3, "Late, Entrant", 2250),
            first_round: 2,
            missed_rounds: vec![ResultCode::ZeroBye],
        })]
    );
    let state = given
        .clone()
        .cmd(register("Late, Entrant", 2250))
        .results(1, &[BoardResult::WhiteWins, BoardResult::Draw])
        .state();
    // Old 3 and 4 moved to 4 and 5; the published boards and the history follow them.
    assert_eq!(
        numbers(&state)[2..].to_vec(),
        vec![
            (3, "Late, Entrant".into()),
            (4, "Player 03".into()),
            (5, "Player 04".into())
        ]
    );
    let boards = state.published(1).unwrap().boards;
    assert_eq!((boards[0].white, boards[0].black), (1, 4));
    assert_eq!((boards[1].white, boards[1].black), (5, 2));
    assert_eq!(
        state.entry(1, 1),
        Some(game(4, Color::White, ResultCode::Win))
    );
    assert_eq!(
        state.entry(4, 1),
        Some(game(1, Color::Black, ResultCode::Loss))
    );
    assert_eq!(
        state.entry(3, 1),
        Some(RoundEntry::bye(ResultCode::ZeroBye))
    );
    assert_eq!(state.score(3), Some(Score::ZERO));
    assert_eq!(
        state.availability(3, 1),
        Some(Availability::NotEntered {
            first_round: 2,
            code: ResultCode::ZeroBye
        })
    );
    assert_eq!(state.availability(3, 2), Some(Availability::Available));
    assert_eq!(state.player(3).unwrap().first_round, 2);
}

#[test]
fn late_entry_may_score_half_points_for_missed_rounds_where_regulations_allow() {
    let given = Given::with_players(5, 4).round(
        1,
        &[(1, 3), (4, 2)],
        None,
        &[BoardResult::Draw, BoardResult::Draw],
    );
    let c = RegisterPlayer {
        missed_rounds: ByeKind::HalfPoint,
        ..RegisterPlayer::new("Late", 1000)
    };
    let then = given.when(Command::RegisterPlayer(c.clone())).unwrap();
    assert_eq!(
        then,
        vec![Event::LateEntry(LateEntry {
            player: player(5, "Late", 1000),
            first_round: 2,
            missed_rounds: vec![ResultCode::HalfBye]
        })]
    );
    let state = given.after(Command::RegisterPlayer(c));
    assert_eq!(state.score(5), Some(Score::HALF));
}

#[test]
fn a_player_announcing_a_later_arrival_is_a_late_entry_even_before_round_one() {
    let given = Given::with_players(5, 4);
    let c = RegisterPlayer {
        first_round: Some(3),
        ..RegisterPlayer::new("Arrives, Later", 2500)
    };
    let then = given.when(Command::RegisterPlayer(c.clone())).unwrap();
    assert_eq!(
        then,
        vec![Event::LateEntry(LateEntry {
            player: player(1, "Arrives, Later", 2500),
            first_round: 3,
            missed_rounds: vec![ResultCode::ZeroBye, ResultCode::ZeroBye],
        })]
    );
    // He cannot be paired in round 1, and the proposal must list him as not paired.
    let given = given.cmd(Command::RegisterPlayer(c)).cmd(start(1));
    assert_eq!(
        given.when(propose(1, 1, &[(1, 2), (3, 4)], Some(5))),
        Err(DomainError::NotAvailable {
            round: 1,
            player: 1,
            availability: Availability::NotEntered {
                first_round: 3,
                code: ResultCode::ZeroBye
            },
        })
    );
    let then = given.when(propose(1, 1, &[(2, 4), (5, 3)], None)).unwrap();
    let Event::PairingProposed(p) = &then[0] else {
        panic!()
    };
    assert_eq!(
        p.unpaired,
        vec![Unpaired {
            player_id: 1,
            code: ResultCode::ZeroBye
        }]
    );
}

#[test]
fn late_entry_rejections() {
    let given = Given::with_players(3, 4).paired(1, &[(1, 3), (4, 2)], None);
    let early = RegisterPlayer {
        first_round: Some(1),
        ..RegisterPlayer::new("X", 2000)
    };
    assert_eq!(
        given.when(Command::RegisterPlayer(early)),
        Err(DomainError::EntryTooEarly {
            round: 1,
            earliest: 2
        })
    );
    let beyond = RegisterPlayer {
        first_round: Some(4),
        ..RegisterPlayer::new("X", 2000)
    };
    assert_eq!(
        given.when(Command::RegisterPlayer(beyond)),
        Err(DomainError::RoundOutOfRange {
            round: 4,
            rounds: 3
        })
    );

    let all_paired = Given::with_players(1, 2).paired(1, &[(1, 2)], None);
    let err = all_paired.when(register("X", 2000)).unwrap_err();
    assert_eq!(err, DomainError::NoRoundLeftToEnter { rounds: 1 });
    assert_eq!(
        err.to_string(),
        "no round is left to enter: the pairings of all 1 rounds are published"
    );
}

#[test]
fn a_raw_log_with_late_entries_replays_the_renumbering() {
    // Events as another service would have written them: numbers as they were at the time.
    let events = vec![
        created_event(3),
        Event::PlayerRegistered(PlayerRegistered {
            player: player(1, "A", 2000),
        }),
        Event::PlayerRegistered(PlayerRegistered {
            player: player(2, "C", 1800),
        }),
        Event::RoundStarted(RoundStarted {
            round: 1,
            scheduled_unix_ms: Some(1_754_000_000_000),
        }),
        requested(1, 1),
        Event::PairingPublished(PairingPublished {
            round: 1,
            proposal_version: None,
            boards: vec![Board {
                number: 1,
                white: 1,
                black: 2,
            }],
            unpaired: vec![],
            manually_changed: true,
            note: "paired by hand".into(),
            team_bye: None,
            team_matches: Vec::new(),
        }),
        // "B" (1900) enters at number 2: "C" becomes 3.
        Event::LateEntry(LateEntry {
            player: player(2, "B", 1900),
            first_round: 2,
            missed_rounds: vec![ResultCode::ZeroBye],
        }),
        // From now on "C" is 3.
        Event::ResultRecorded(ResultRecorded {
            round: 1,
            board: 1,
            result: BoardResult::BlackWins,
        }),
        Event::ByeRequested(ByeRequested {
            player_id: 3,
            round: 2,
            kind: ByeKind::HalfPoint,
        }),
    ];
    let state = State::from_events(&events);
    assert_eq!(
        numbers(&state),
        vec![(1, "A".into()), (2, "B".into()), (3, "C".into())]
    );
    assert_eq!(
        state.entry(3, 1),
        Some(game(1, Color::Black, ResultCode::Win))
    );
    assert_eq!(
        state.availability(3, 2),
        Some(Availability::Bye(ByeKind::HalfPoint))
    );
    assert_eq!(state.byes_requested(), vec![(3, 2, ByeKind::HalfPoint)]);
    assert_eq!(state.round_schedule(1), Some(1_754_000_000_000));
    assert_eq!(state.published(1).unwrap().note, "paired by hand");
}

#[test]
fn registration_after_the_tournament_is_finished_is_rejected() {
    let g = Given::with_players(1, 2)
        .round(1, &[(1, 2)], None, &[BoardResult::Draw])
        .cmd(Command::FinishTournament(FinishTournament {}));
    assert_eq!(
        g.when(register("X", 2000)),
        Err(DomainError::TournamentFinished {
            command: "RegisterPlayer",
            rounds_played: 1
        })
    );
}

#[test]
fn late_entry_while_round_two_is_being_paired_joins_round_two() {
    let given = Given::with_players(5, 4)
        .round(
            1,
            &[(1, 3), (4, 2)],
            None,
            &[BoardResult::WhiteWins, BoardResult::Draw],
        )
        .cmd(start(2));
    let then = given.when(register("Late, Entrant", 2500)).unwrap();
    assert_eq!(
        then,
        vec![
            Event::LateEntry(LateEntry {
                player: player(1, "Late, Entrant", 2500),
                first_round: 2,
                missed_rounds: vec![ResultCode::ZeroBye],
            }),
            requested(2, 2),
        ]
    );
    let input = given
        .after(register("Late, Entrant", 2500))
        .pairing_input(2)
        .unwrap();
    assert_eq!(input.attempt, 2);
    let first = &input.players[0];
    assert_eq!(
        (first.player.player_id, first.availability),
        (1, Availability::Available)
    );
    assert_eq!(first.history, vec![RoundEntry::bye(ResultCode::ZeroBye)]);
    // The others moved down one number, and so did their opponents in the history.
    assert_eq!(
        input.players[1].history,
        vec![game(4, Color::White, ResultCode::Win)]
    );
    assert_eq!(input.available().count(), 5);
}
