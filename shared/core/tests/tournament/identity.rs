//! Stable player identity beside the pairing number: entry numbers never change, and the state
//! tells which registration gave a pairing number to another player (what a command naming a
//! stale number is refused for).

use crate::support::*;
use arbiter_core::tournament::*;

fn by_number(state: &State) -> Vec<(u32, u32, String)> {
    state
        .players()
        .map(|p| (p.pairing_number(), p.entry.number(), p.player.name.clone()))
        .collect()
}

#[test]
fn entry_numbers_follow_registration_order_and_never_move() {
    let given = Given::tournament(5)
        .cmd(register("C", 2200))
        .cmd(register("A", 2400))
        .cmd(register("B", 2300));
    // (pairing number, entry number, name): ranking by rating, entries by registration.
    assert_eq!(
        by_number(&given.state()),
        vec![(1, 2, "A".into()), (2, 3, "B".into()), (3, 1, "C".into())]
    );
    let state = given.after(register("Top", 2500));
    assert_eq!(
        by_number(&state),
        vec![
            (1, 4, "Top".into()),
            (2, 2, "A".into()),
            (3, 3, "B".into()),
            (4, 1, "C".into())
        ]
    );
    for n in 1..=4 {
        assert_eq!(
            state.player_by_entry_number(n).unwrap().entry.number(),
            n,
            "entry {n}"
        );
    }
    assert_eq!(state.player_by_entry_number(0), None, "0 means not given");
    assert_eq!(state.player_by_entry_number(5), None);
    assert_eq!(state.player_by_entry_number(4).unwrap().player.name, "Top");
}

#[test]
fn a_late_entry_moves_the_numbers_below_him_only() {
    // Three players paired in round 1; a late entry rated between 1 and 2 joins for round 2.
    let given = Given::with_players(5, 4).round(
        1,
        &[(1, 3), (4, 2)],
        None,
        &[BoardResult::Draw, BoardResult::Draw],
    );
    let before = given.state();
    assert_eq!(before.player(2).unwrap().player.name, "Player 02");
    let late = Command::RegisterPlayer(RegisterPlayer::new("Late, L", 2350));
    let then = given.when(late.clone()).unwrap();
    let Event::LateEntry(e) = &then[0] else {
        panic!("{then:?}")
    };
    assert_eq!(e.player.player_id, 2, "inserted at number 2");
    let after = given.after(late);
    assert_eq!(
        by_number(&after),
        vec![
            (1, 1, "Player 01".into()),
            (2, 5, "Late, L".into()),
            (3, 2, "Player 02".into()),
            (4, 3, "Player 03".into()),
            (5, 4, "Player 04".into())
        ]
    );
    // Read with 4 players registered: number 1 still names the same player, numbers 2..4
    // were given to others by entry 5, number 5 did not exist and was made by that move.
    assert_eq!(after.number_moved_since(1, 4), None);
    for pn in 2..=4 {
        assert_eq!(
            after.number_moved_since(pn, 4),
            Some((4, EntryId(4))),
            "{pn}"
        );
    }
    assert_eq!(after.number_moved_since(5, 4), None);
    // Read after the late entry: nothing has moved since.
    for pn in 1..=5 {
        assert_eq!(after.number_moved_since(pn, 5), None, "{pn}");
    }
    assert!(after.numbering_changes()[4].moves());
    // The same person before and after, by entry.
    assert_eq!(
        before.player_by_entry_number(2).unwrap().player.name,
        after.player_by_entry_number(2).unwrap().player.name
    );
    assert_eq!(after.player_by_entry_number(2).unwrap().pairing_number(), 3);
}

#[test]
fn appending_at_the_end_moves_nobody() {
    let given = Given::with_players(5, 3);
    let state = given.after(register("Weakest", 1000));
    assert!(
        !state.numbering_changes()[3].moves(),
        "appended at number 4"
    );
    assert!((1..=4).all(|pn| state.number_moved_since(pn, 3).is_none()));
    // Registrations before round 1 renumber too (C.04.2.B: the list is provisional).
    let state = given.after(register("Strongest", 2900));
    assert!(state.numbering_changes()[3].moves());
    assert_eq!(state.number_moved_since(1, 3), Some((3, EntryId(3))));
    // Numbers 1..3 were made by appends (nobody moved) and first moved by entry 4.
    assert_eq!(state.number_moved_since(3, 0), Some((3, EntryId(3))));
    assert_eq!(state.number_moved_since(4, 0), None, "created by the move");
}

#[test]
fn a_bye_by_entry_number_reaches_the_same_person_after_a_late_entry() {
    let given = Given::with_players(5, 4).round(
        1,
        &[(1, 3), (4, 2)],
        None,
        &[BoardResult::WhiteWins, BoardResult::BlackWins],
    );
    let entry = 3;
    let name = given
        .state()
        .player_by_entry_number(entry)
        .unwrap()
        .player
        .name
        .clone();
    let given = given.cmd(register("Late, L", 2350));
    let state = given.state();
    let p = state.player_by_entry_number(entry).unwrap();
    assert_eq!(p.player.name, name);
    let then = given
        .when(bye(p.pairing_number(), 2, ByeKind::HalfPoint))
        .unwrap();
    assert_eq!(
        then,
        vec![Event::ByeRequested(ByeRequested {
            player_id: 4,
            round: 2,
            kind: ByeKind::HalfPoint
        })]
    );
    let after = given.after(bye(4, 2, ByeKind::HalfPoint));
    assert_eq!(
        after.player_by_entry_number(entry).unwrap().byes.get(&2),
        Some(&ByeKind::HalfPoint)
    );
}

#[test]
fn tournament_data_updates_and_the_rating_list_is_fixed_once_play_begins() {
    let given = Given::with_players(5, 2);
    let update = UpdateTournament {
        place: Some("Oslo".into()),
        federation: Some("NOR".into()),
        deputy_arbiters: Some(vec![Arbiter::named("Deputy, D")]),
        time_control: Some("90'+30\"".into()),
        rating_kind: Some(RatingKind::Rapid),
        ..Default::default()
    };
    let then = given
        .when(Command::UpdateTournament(update.clone()))
        .unwrap();
    assert_eq!(
        then,
        vec![Event::TournamentUpdated(TournamentUpdated {
            place: Some("Oslo".into()),
            federation: Some("NOR".into()),
            deputy_arbiters: Some(vec![Arbiter::named("Deputy, D")]),
            time_control: Some("90'+30\"".into()),
            rating_kind: Some(RatingKind::Rapid),
            ..Default::default()
        })]
    );
    let state = given.after(Command::UpdateTournament(update));
    let t = state.tournament().unwrap();
    assert_eq!(
        (
            t.place.as_str(),
            t.federation.as_str(),
            t.deputy_arbiters.len(),
            t.time_control.as_str(),
            t.rating_kind
        ),
        ("Oslo", "NOR", 1, "90'+30\"", RatingKind::Rapid)
    );
    let err = given
        .when(Command::UpdateTournament(UpdateTournament {
            federation: Some("Norway".into()),
            ..Default::default()
        }))
        .unwrap_err();
    assert!(
        matches!(err, DomainError::Invalid { ref field, .. } if field == "federation"),
        "{err}"
    );
    let started = given.cmd(start(1));
    let err = started
        .when(Command::UpdateTournament(UpdateTournament {
            rating_kind: Some(RatingKind::Blitz),
            ..Default::default()
        }))
        .unwrap_err();
    assert!(
        matches!(err, DomainError::Invalid { ref field, .. } if field == "rating_kind"),
        "{err}"
    );
    // Naming the list already in use changes nothing and is accepted.
    assert!(
        started
            .when(Command::UpdateTournament(UpdateTournament {
                rating_kind: Some(RatingKind::Standard),
                ..Default::default()
            }))
            .is_ok()
    );
}

fn correct(player: u32, corrected: Player, fields: &[&str]) -> Command {
    Command::CorrectPlayer(CorrectPlayer {
        player,
        corrected,
        fields: fields.iter().map(|f| f.to_string()).collect(),
        reason: "entry form misread".into(),
    })
}

#[test]
fn a_corrected_rating_before_round_1_moves_the_player_to_his_place() {
    // Ratings 2400, 2300, 2200, 2100: numbers 1..4 by registration.
    let given = Given::with_players(5, 4);
    let fixed = Player {
        rating: 2350,
        ..Player::default()
    };
    let then = given.when(correct(4, fixed.clone(), &["rating"])).unwrap();
    let mut expected = given.state().player(4).unwrap().player.clone();
    expected.rating = 2350;
    assert_eq!(
        then,
        vec![Event::PlayerCorrected(PlayerCorrected {
            player: expected,
            fields: vec!["rating".into()],
            reason: "entry form misread".into(),
            new_player_id: Some(2),
        })]
    );
    let state = given.after(correct(4, fixed, &["rating"]));
    assert_eq!(
        by_number(&state),
        vec![
            (1, 1, "Player 01".into()),
            (2, 4, "Player 04".into()),
            (3, 2, "Player 02".into()),
            (4, 3, "Player 03".into())
        ]
    );
    // Numbers 2..4 passed to other players; number 1 did not.
    assert_eq!(state.number_moved_since(1, 4), None);
    for pn in 2..=4 {
        assert_eq!(
            state.number_moved_since(pn, 4),
            Some((4, EntryId(3))),
            "{pn}"
        );
    }
    // Down the list, too: Player 01 corrected to 2000 goes last.
    let state = given.after(correct(
        1,
        Player {
            rating: 2000,
            ..Player::default()
        },
        &["rating"],
    ));
    assert_eq!(state.player(4).unwrap().player.name, "Player 01");
    assert_eq!(state.player(1).unwrap().player.name, "Player 02");
}

#[test]
fn a_correction_that_keeps_the_place_or_comes_after_round_1_starts_moves_nobody() {
    let given = Given::with_players(5, 4);
    let club = Player {
        club: "Oslo SK".into(),
        rating: 1000,
        ..Player::default()
    };
    // Only the field named is taken: the rating given alongside is ignored.
    let state = given.after(correct(3, club.clone(), &["club"]));
    let p = state.player(3).unwrap();
    assert_eq!((p.player.club.as_str(), p.player.rating), ("Oslo SK", 2200));
    assert!(!state.numbering_changes()[4].moves());
    let started = given.cmd(start(1));
    let then = started
        .when(correct(
            4,
            Player {
                rating: 2500,
                ..Player::default()
            },
            &["rating"],
        ))
        .unwrap();
    let Event::PlayerCorrected(c) = &then[0] else {
        panic!("{then:?}")
    };
    assert_eq!(
        c.new_player_id, None,
        "numbers stay once round 1 has started"
    );
    assert_eq!(c.player.rating, 2500);
    // The pending pairing of round 1 is asked again: its input changed.
    assert!(matches!(then.get(1), Some(Event::PairingRequested(r)) if r.attempt == 2));
}

#[test]
fn correction_rejections() {
    let given = Given::with_players(5, 3);
    let some = Player {
        rating: 1900,
        ..Player::default()
    };
    let field_of = |r: Result<Vec<Event>, DomainError>| match r.unwrap_err() {
        DomainError::Invalid { field, .. } => field,
        other => panic!("{other}"),
    };
    assert_eq!(
        field_of(given.when(correct(1, some.clone(), &[]))),
        "fields"
    );
    assert_eq!(
        field_of(given.when(correct(1, some.clone(), &["elo"]))),
        "fields"
    );
    assert_eq!(
        field_of(given.when(correct(
            1,
            Player {
                rating: 12000,
                ..Player::default()
            },
            &["rating"]
        ))),
        "rating"
    );
    assert_eq!(
        field_of(given.when(correct(1, Player::default(), &["name"]))),
        "name"
    );
    let same = given.state().player(1).unwrap().player.clone();
    assert_eq!(
        field_of(given.when(correct(1, same, &["rating"]))),
        "fields"
    );
    let mut no_reason = correct(1, some.clone(), &["rating"]);
    if let Command::CorrectPlayer(c) = &mut no_reason {
        c.reason = " ".into();
    }
    assert_eq!(field_of(given.when(no_reason)), "reason");
    assert!(matches!(
        given.when(correct(9, some, &["rating"])),
        Err(DomainError::UnknownPlayer { player: 9, .. })
    ));
}

#[test]
fn implausible_ratings_and_fide_ids_are_refused_naming_the_field() {
    let given = Given::with_players(5, 3);
    let field_of = |r: Result<Vec<Event>, DomainError>| match r.unwrap_err() {
        DomainError::Invalid { field, reason } => format!("{field}: {reason}"),
        other => panic!("{other}"),
    };
    let reg = |f: &dyn Fn(&mut RegisterPlayer)| {
        let mut r = RegisterPlayer::new("New, Player", 1800);
        f(&mut r);
        given.when(Command::RegisterPlayer(r))
    };
    for (what, r, says) in [
        (
            "5000",
            reg(&|r| r.rating = 5000),
            "rating: 5000 is above the ceiling 3000",
        ),
        (
            "999",
            reg(&|r| r.rating = 999),
            "rating: 999 is below the FIDE rating floor",
        ),
        (
            "national 3001",
            reg(&|r| r.national_rating = 3001),
            "national_rating: 3001 is above",
        ),
        (
            "id 2^64-1",
            reg(&|r| r.fide_id = Some(u64::MAX)),
            "fide_id: 18446744073709551615 is not a FIDE id (at most 10 digits)",
        ),
        (
            "11 digits",
            reg(&|r| r.fide_id = Some(10_000_000_000)),
            "fide_id: 10000000000",
        ),
    ] {
        let e = field_of(r);
        assert!(e.starts_with(says), "{what}: {e}");
    }
    // The bounds themselves, unrated, a national rating under the FIDE floor and a 10-digit id.
    for f in [
        &(|r: &mut RegisterPlayer| r.rating = RATING_FLOOR) as &dyn Fn(&mut RegisterPlayer),
        &|r| r.rating = RATING_CEILING,
        &|r| r.rating = 0,
        &|r| r.national_rating = 800,
        &|r| r.fide_id = Some(MAX_FIDE_ID),
    ] {
        assert!(reg(f).is_ok());
    }
    // A correction meets the same rule.
    let e = field_of(given.when(correct(
        1,
        Player {
            rating: 500,
            ..Player::default()
        },
        &["rating"],
    )));
    assert!(e.starts_with("rating: 500 is below"), "{e}");
    let e = field_of(given.when(correct(
        1,
        Player {
            fide_id: Some(u64::MAX),
            ..Player::default()
        },
        &["fide_id"],
    )));
    assert!(e.starts_with("fide_id: "), "{e}");
}

/// One step of a random registration phase: a new player rated `r`, or a correction of the
/// rating of the player with entry `i % players` to `r`.
#[derive(Debug, Clone, Copy)]
enum Step {
    Register(u32),
    Correct(u32, u32),
}

fn steps() -> impl proptest::strategy::Strategy<Value = Vec<Step>> {
    use proptest::prelude::*;
    proptest::collection::vec(
        prop_oneof![
            3 => (1000u32..1100).prop_map(Step::Register),
            1 => (0u32..64, 1000u32..1100).prop_map(|(i, r)| Step::Correct(i, r)),
        ],
        1..24,
    )
}

proptest::proptest! {
    /// `number_moved_since` agrees with the states themselves: for a list read after `k`
    /// numbering changes, number `pn` is reported moved at the first later change after which
    /// another player holds it, and not at all when it still names the same player (a number
    /// that did not exist yet is not a move when it comes into being).
    #[test]
    fn a_moved_number_is_reported_exactly_when_its_holder_changes(steps in steps()) {
        let mut given = Given::tournament(5);
        let mut states = vec![given.state()];
        for (i, s) in steps.iter().enumerate() {
            let state = states.last().unwrap();
            let command = match *s {
                Step::Register(r) => register(&format!("P{i:02}"), r),
                Step::Correct(_, _) if state.player_count() == 0 => continue,
                Step::Correct(e, r) => {
                    let entry = e % state.player_count();
                    let p = state.player_by_entry(EntryId(entry)).unwrap();
                    if p.player.rating == r {
                        continue;
                    }
                    correct(
                        p.pairing_number(),
                        Player { rating: r, ..Player::default() },
                        &["rating"],
                    )
                }
            };
            given = given.cmd(command);
            states.push(given.state());
        }
        let last = states.last().unwrap();
        proptest::prop_assert_eq!(last.numbering_changes().len(), states.len() - 1);
        let holder = |s: &State, pn: u32| s.player(pn).map(|p| p.entry);
        for k in 0..states.len() {
            for pn in 1..=last.player_count() {
                let expected = (k..states.len() - 1).find(|&j| {
                    holder(&states[j], pn).is_some()
                        && holder(&states[j], pn) != holder(&states[j + 1], pn)
                });
                let got = last.number_moved_since(pn, k).map(|(j, _)| j);
                proptest::prop_assert_eq!(got, expected, "number {} read after {} changes", pn, k);
            }
        }
    }
}
