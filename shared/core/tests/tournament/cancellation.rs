//! An arbiter's undo: a registration cancelled before the player is first paired leaves no
//! trace in the list (numbers close up, the entry number is not reused), and is refused once a
//! published pairing lists him; a same-name registration without a FIDE id needs confirming.

use crate::support::*;
use arbiter_core::tournament::*;

fn cancel(player: u32) -> Command {
    Command::CancelRegistration(CancelRegistration {
        player,
        reason: "registered twice".into(),
    })
}

/// (pairing number, entry number, name) in pairing-number order.
fn list(state: &State) -> Vec<(u32, u32, String)> {
    state
        .players()
        .map(|p| (p.pairing_number(), p.entry.number(), p.player.name.clone()))
        .collect()
}

#[test]
fn a_cancelled_registration_leaves_the_list_and_the_numbers_close_up() {
    // Players 01..04 (entries 1..4, rated 2400..2100); number 2 was registered in error.
    let given = Given::with_players(5, 4);
    let then = given.when(cancel(2)).unwrap();
    assert_eq!(
        then,
        vec![Event::RegistrationCancelled(RegistrationCancelled {
            entry: 2,
            player_id: 2,
            reason: "registered twice".into(),
        })]
    );
    let state = given.after(cancel(2));
    assert_eq!(
        list(&state),
        vec![
            (1, 1, "Player 01".into()),
            (2, 3, "Player 03".into()),
            (3, 4, "Player 04".into())
        ]
    );
    assert_eq!(state.player_count(), 3);
    assert_eq!(state.player_by_entry_number(2), None);
    assert_eq!(
        state
            .cancelled_registration(2)
            .unwrap()
            .cancelled
            .as_deref(),
        Some("registered twice")
    );
    // Numbers 2..=4 changed hands (4 names nobody now), caused by entry 2.
    let change = *state.numbering_changes().last().unwrap();
    assert_eq!((change.lo, change.hi, change.cause.number()), (2, 4, 2));
    assert_eq!(
        state.number_moved_since(4, state.numbering_changes().len() - 1),
        Some((state.numbering_changes().len() - 1, change.cause))
    );
    // The pairing sees three players; the scores list has no line for him.
    let input = state.pairing_input(1).unwrap();
    let names: Vec<&str> = input
        .players
        .iter()
        .map(|p| p.player.name.as_str())
        .collect();
    assert_eq!(names, ["Player 01", "Player 03", "Player 04"]);
    assert_eq!(state.scores().len(), 3);
    // A new registration gets entry 5 (entries are never reused) and his place by rating.
    let state = given
        .clone()
        .cmd(cancel(2))
        .after(register("Player 02", 2300));
    assert_eq!(state.player(2).unwrap().entry.number(), 5);
    // The fold is a pure function of the log: a replay gives the same state.
    let events = given.clone().cmd(cancel(2)).events;
    assert_eq!(State::from_events(&events), given.after(cancel(2)));
}

#[test]
fn a_cancelled_player_is_named_by_no_command() {
    let given = Given::with_players(5, 4).cmd(cancel(4));
    assert!(matches!(
        given.when(cancel(4)),
        Err(DomainError::UnknownPlayer {
            player: 4,
            players: 3
        })
    ));
    assert!(matches!(
        given.when(withdraw(4, 1)),
        Err(DomainError::UnknownPlayer { player: 4, .. })
    ));
}

#[test]
fn a_paired_player_is_withdrawn_not_cancelled() {
    let given = Given::with_players(5, 4).round(
        1,
        &[(1, 3), (4, 2)],
        None,
        &[BoardResult::Draw, BoardResult::Draw],
    );
    let err = given.when(cancel(2)).unwrap_err();
    assert!(
        matches!(
            &err,
            DomainError::RegistrationNotCancellable { entry: 2, .. }
        ),
        "{err:?}"
    );
    let msg = err.to_string();
    assert!(msg.contains("round 1 (board 2)"), "{msg}");
    assert!(msg.contains("withdraw him instead"), "{msg}");
    // Listed unpaired (a requested bye) counts as paired too: the published record stands.
    let given = Given::with_players(5, 5)
        .cmd(bye(5, 1, ByeKind::HalfPoint))
        .paired(1, &[(1, 3), (4, 2)], None);
    let msg = given.when(cancel(5)).unwrap_err().to_string();
    assert!(msg.contains("round 1 (unpaired"), "{msg}");
    // A folded log that cancels a listed player does not fit.
    let forged = Event::RegistrationCancelled(RegistrationCancelled {
        entry: 5,
        player_id: 5,
        reason: "forged".into(),
    });
    assert!(given.state().try_apply(&forged).is_err());
}

#[test]
fn a_late_entry_not_yet_paired_can_be_cancelled() {
    let given = Given::with_players(5, 4)
        .round(
            1,
            &[(1, 3), (4, 2)],
            None,
            &[BoardResult::Draw, BoardResult::Draw],
        )
        .cmd(Command::RegisterPlayer(RegisterPlayer {
            first_round: Some(3),
            ..RegisterPlayer::new("Late, L", 2350)
        }));
    assert_eq!(given.state().player(2).unwrap().player.name, "Late, L");
    let state = given.after(cancel(2));
    assert_eq!(state.player(2).unwrap().player.name, "Player 02");
    assert_eq!(state.player_count(), 4);
    // Round 1's published pairing still names its players (entries, not numbers).
    let published = state.published(1).unwrap();
    let names: Vec<(String, String)> = published
        .boards
        .iter()
        .map(|b| {
            (
                state.player(b.white).unwrap().player.name.clone(),
                state.player(b.black).unwrap().player.name.clone(),
            )
        })
        .collect();
    assert_eq!(
        names,
        [
            ("Player 01".to_string(), "Player 03".to_string()),
            ("Player 04".to_string(), "Player 02".to_string())
        ]
    );
}

#[test]
fn a_cancellation_under_a_pending_pairing_asks_for_it_again() {
    let given =
        Given::with_players(5, 5)
            .cmd(start(1))
            .cmd(propose(1, 1, &[(1, 3), (4, 2)], Some(5)));
    let then = given.when(cancel(5)).unwrap();
    assert_eq!(then[1], requested(1, 2));
    assert_eq!(given.after(cancel(5)).proposal(1), None);
}

#[test]
fn a_round_robin_field_is_fixed_from_round_1() {
    let mut c = create(3);
    c.pairing_system = PairingSystem::RoundRobin;
    let mut given = Given::created_with(c);
    for (i, name) in ["A", "B", "C", "D", "E"].iter().enumerate() {
        given = given.cmd(register(name, 2000 - i as u32));
    }
    // Before round 1: the numbers close up (4 players, 3 rounds).
    let given = given.cmd(cancel(5));
    assert_eq!(given.state().player_count(), 4);
    let started = given.cmd(start(1));
    let msg = started.when(cancel(4)).unwrap_err().to_string();
    assert!(msg.contains("fixed from round 1"), "{msg}");
}

#[test]
fn a_cancellation_reason_is_one_line() {
    let given = Given::with_players(5, 2);
    let err = given
        .when(Command::CancelRegistration(CancelRegistration {
            player: 1,
            reason: "two\nlines".into(),
        }))
        .unwrap_err();
    assert!(
        matches!(&err, DomainError::Invalid { field, .. } if field == "reason"),
        "{err:?}"
    );
}

#[test]
fn a_same_name_without_fide_id_needs_confirming() {
    let given = Given::with_players(5, 2);
    let err = given.when(register("player   01", 1800)).unwrap_err();
    assert_eq!(
        err,
        DomainError::SameNameRegistered {
            name: "Player 01".into(),
            player: 1,
            entry: 1,
        }
    );
    assert!(err.to_string().contains("confirm_same_name"), "{err}");
    let confirmed = Command::RegisterPlayer(RegisterPlayer {
        confirm_same_name: true,
        ..RegisterPlayer::new("Player 01", 1800)
    });
    assert_eq!(given.after(confirmed).player_count(), 3);
    // Two FIDE ids are two people.
    let given = Given::tournament(5).cmd(Command::RegisterPlayer(RegisterPlayer {
        fide_id: Some(1_503_014),
        ..RegisterPlayer::new("Smith, John", 2000)
    }));
    let other = Command::RegisterPlayer(RegisterPlayer {
        fide_id: Some(2_000_001),
        ..RegisterPlayer::new("Smith, John", 1900)
    });
    assert_eq!(given.after(other).player_count(), 2);
    // One id against none: the same person registered twice, most likely.
    assert!(matches!(
        given.when(register("Smith, John", 2000)),
        Err(DomainError::SameNameRegistered { entry: 1, .. })
    ));
    // A cancelled registration's name is free again.
    let given = Given::with_players(5, 2).cmd(cancel(1));
    assert_eq!(given.after(register("Player 01", 2400)).player_count(), 2);
}
