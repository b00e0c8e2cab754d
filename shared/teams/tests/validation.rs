//! Rules, team lists and line-ups are refused with errors that name the field, team, board
//! and player.

use arbiter_core::Score;
use arbiter_teams::{Lineup, Team, TeamError, TeamRules, default_lineup, validate_teams};
use arbiter_tiebreak::ByeValue;

fn field_of(e: TeamError) -> String {
    match e {
        TeamError::Rules { field, .. } => field,
        other => panic!("expected a rules error, got {other}"),
    }
}

fn team(number: u32, members: &[u32]) -> Team {
    Team {
        number,
        name: format!("Team {number}"),
        members: members.to_vec(),
    }
}

#[test]
fn rules_name_the_field() {
    let ok = TeamRules::new(4, 1);
    assert_eq!(ok.colours, "WBWB");
    assert_eq!(ok.check(10), Ok(()));

    let mut r = ok.clone();
    r.boards = 0;
    assert_eq!(field_of(r.check(10).unwrap_err()), "boards");

    let mut r = ok.clone();
    r.colours = "WBW".into();
    let e = r.check(10).unwrap_err();
    assert!(e.to_string().contains("3 letters for 4 boards"), "{e}");
    assert_eq!(field_of(e), "colours");

    let mut r = ok.clone();
    r.colours = "WBXB".into();
    let e = r.check(10).unwrap_err();
    assert!(e.to_string().contains("board 3"), "{e}");

    let mut r = ok.clone();
    r.match_points.draw = r.match_points.win;
    assert_eq!(field_of(r.check(10).unwrap_err()), "match_points");

    let mut r = ok.clone();
    r.game_points.win = Score::ZERO;
    assert_eq!(field_of(r.check(10).unwrap_err()), "game_points");
}

#[test]
fn pab_value_required_for_odd_fields_allowed_for_even_ones() {
    let r = TeamRules::new(4, 1);
    // Odd field, no value: refused; the message cites record 320.
    let e = r.check(9).unwrap_err();
    assert!(e.to_string().contains("record 320"), "{e}");
    assert_eq!(field_of(e), "pab");

    let mut with = r.clone();
    with.pab = Some(ByeValue {
        match_points: Score::points(2),
        game_points: Score::points(2),
    });
    assert_eq!(with.check(9), Ok(()));
    // An even field may carry it (a team that drops out leaves an odd number to pair)...
    assert_eq!(with.check(10), Ok(()));
    // ... checked as strictly.
    let mut even = with.clone();
    even.pab.as_mut().unwrap().match_points = Score::points(3);
    assert_eq!(field_of(even.check(10).unwrap_err()), "pab.match_points");

    // Out-of-range values name the sub-field.
    let mut big = with.clone();
    big.pab.as_mut().unwrap().match_points = Score::points(3);
    assert_eq!(field_of(big.check(9).unwrap_err()), "pab.match_points");
    let mut big = with;
    big.pab.as_mut().unwrap().game_points = Score::points(5);
    assert_eq!(field_of(big.check(9).unwrap_err()), "pab.game_points");
}

#[test]
fn team_lists() {
    let r = TeamRules::new(4, 1);
    let good = vec![team(1, &[1, 2, 3, 4, 5]), team(2, &[6, 7, 8, 9])];
    assert_eq!(validate_teams(&r, &good), Ok(()));

    // Fewer members than boards.
    let short = vec![team(1, &[1, 2, 3]), team(2, &[6, 7, 8, 9])];
    assert!(matches!(
        validate_teams(&r, &short),
        Err(TeamError::Team { team: 1, .. })
    ));
    // More than boards + reserves.
    let long = vec![team(1, &[1, 2, 3, 4, 5]), team(2, &[6, 7, 8, 9, 10, 11])];
    let e = validate_teams(&r, &long).unwrap_err();
    assert!(matches!(e, TeamError::Team { team: 2, .. }));
    assert!(e.to_string().contains("6 players listed"), "{e}");
    // A player in two teams: the later team is named, and the earlier one in the message.
    let twice = vec![team(1, &[1, 2, 3, 4, 5]), team(2, &[6, 7, 3, 9])];
    let e = validate_teams(&r, &twice).unwrap_err();
    assert!(matches!(e, TeamError::Team { team: 2, .. }));
    assert!(
        e.to_string()
            .contains("player 3 is already listed by team 1"),
        "{e}"
    );
    // Twice in one team.
    let dup = vec![team(1, &[1, 2, 2, 4]), team(2, &[6, 7, 8, 9])];
    assert!(
        validate_teams(&r, &dup)
            .unwrap_err()
            .to_string()
            .contains("player 2 is listed twice")
    );
    // Numbers unique.
    let same = vec![team(1, &[1, 2, 3, 4]), team(1, &[6, 7, 8, 9])];
    assert!(
        validate_teams(&r, &same)
            .unwrap_err()
            .to_string()
            .contains("used twice")
    );
}

#[test]
fn lineups_keep_the_list_order() {
    let r = TeamRules::new(4, 1);
    let t = team(3, &[11, 12, 13, 14, 15]);
    let l = |p: &[u32]| Lineup {
        team: 3,
        players: p.to_vec(),
    };
    // the Arbiters' Manual's allowed line-ups for 4 boards and a reserve.
    for ok in [
        [11, 12, 13, 14],
        [11, 12, 13, 15],
        [11, 12, 14, 15],
        [11, 13, 14, 15],
        [12, 13, 14, 15],
    ] {
        assert_eq!(l(&ok).check(&r, &t), Ok(()), "{ok:?}");
    }
    // The reserve above a listed player.
    assert_eq!(
        l(&[11, 12, 15, 14]).check(&r, &t).map_err(|e| match e {
            TeamError::Lineup { board, player, .. } => (board, player),
            _ => (0, 0),
        }),
        Err((4, 14))
    );
    // Not on the list, repeated, wrong length.
    let e = l(&[11, 12, 13, 99]).check(&r, &t).unwrap_err();
    assert_eq!(
        e.to_string(),
        "team 3, board 4, player 99: not on the team's list"
    );
    let e = l(&[11, 12, 12, 13]).check(&r, &t).unwrap_err();
    assert!(
        matches!(
            e,
            TeamError::Lineup {
                board: 3,
                player: 12,
                ..
            }
        ),
        "{e}"
    );
    assert!(l(&[11, 12, 13]).check(&r, &t).is_err());
}

#[test]
fn default_lineup_is_the_first_available_players() {
    let r = TeamRules::new(4, 1);
    let t = team(3, &[11, 12, 13, 14, 15]);
    assert_eq!(
        default_lineup(&r, &t, |_| true).unwrap().players,
        vec![11, 12, 13, 14]
    );
    let d = default_lineup(&r, &t, |p| p != 12).unwrap();
    assert_eq!(d.players, vec![11, 13, 14, 15]);
    assert_eq!(d.check(&r, &t), Ok(()));
    let e = default_lineup(&r, &t, |p| p > 12).unwrap_err();
    assert!(
        e.to_string().contains("3 players available for 4 boards"),
        "{e}"
    );
}
