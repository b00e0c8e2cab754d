//! Board colours, match scoring (hand-worked), wrong-board corrections (the Arbiters' Manual's example) and
//! the tie-break model they feed.

use arbiter_core::ResultCode::{self, *};
use arbiter_core::Score;
use arbiter_teams::{
    BoardPair, BoardResult, Lineup, MatchForfeit, MatchResult, PlayedGame, PlayedMatch, Team,
    TeamError, TeamMatch, TeamRound, TeamRules, correct_wrong_boards, expand, score_match,
    to_tiebreak,
};
use arbiter_tiebreak::{ByeValue, Options, PairingKind, Rational, team_standings};

fn lineup(team: u32, p: &[u32]) -> Lineup {
    Lineup {
        team,
        players: p.to_vec(),
    }
}

const AB: TeamMatch = TeamMatch {
    first: 1,
    second: 2,
};

#[test]
fn wbwb_colours_and_the_mirrored_second_team() {
    let r = TeamRules::new(4, 1);
    let a = lineup(1, &[11, 12, 13, 14]);
    let b = lineup(2, &[21, 22, 23, 24]);
    let pairs = expand(&r, &AB, &a, &b).unwrap();
    let got: Vec<(u32, u32, u32)> = pairs.iter().map(|p| (p.board, p.white, p.black)).collect();
    // The first team has White on boards 1 and 3, the second on 2 and 4.
    assert_eq!(
        got,
        vec![(1, 11, 21), (2, 22, 12), (3, 13, 23), (4, 24, 14)]
    );
    // Naming the other team first swaps the colours of every board, not the board order.
    let ba = TeamMatch {
        first: 2,
        second: 1,
    };
    let swapped = expand(&r, &ba, &b, &a).unwrap();
    for (p, q) in pairs.iter().zip(&swapped) {
        assert_eq!((p.board, p.white, p.black), (q.board, q.black, q.white));
    }
    // A sequence starting with Black: the first team is Black on board 1.
    let mut bw = r.clone();
    bw.colours = "BWBW".into();
    let p = expand(&bw, &AB, &a, &b).unwrap();
    assert_eq!((p[0].white, p[0].black), (21, 11));
    // Line-ups must be the match's teams.
    assert!(matches!(
        expand(&r, &AB, &b, &a),
        Err(TeamError::Team { team: 1, .. })
    ));
}

fn score(codes: &[ResultCode]) -> ((Score, Score), (Score, Score)) {
    let s = score_match(&TeamRules::new(4, 1), &AB, &MatchResult::from_first(codes)).unwrap();
    (
        (s.first.game_points, s.first.match_points),
        (s.second.game_points, s.second.match_points),
    )
}

#[test]
fn match_points_from_game_points() {
    let p = |t| Score(t);
    // 1 + 1 + ½ + 0 = 2.5 against 1.5: a won match, 2 - 0.
    assert_eq!(
        score(&[Win, Win, Draw, Loss]),
        ((p(25), p(20)), (p(15), p(0)))
    );
    // 2 - 2: a drawn match, 1 - 1.
    assert_eq!(
        score(&[Win, Loss, Draw, Draw]),
        ((p(20), p(10)), (p(20), p(10)))
    );
    // 1.5 - 2.5, one board forfeited by the first team.
    let s = score_match(
        &TeamRules::new(4, 1),
        &AB,
        &MatchResult::from_first(&[Win, ForfeitLoss, Draw, Loss]),
    )
    .unwrap();
    assert_eq!((s.first.game_points, s.first.match_points), (p(15), p(0)));
    assert_eq!(
        (s.second.game_points, s.second.match_points),
        (p(25), p(20))
    );
    assert_eq!(
        (s.first.forfeited_boards, s.second.forfeited_boards),
        (1, 0)
    );
    // A double forfeit on a board: nobody scores it.
    let v = MatchResult::Boards(vec![
        BoardResult::of_first(Win),
        BoardResult::double_forfeit(),
        BoardResult::of_first(Loss),
        BoardResult::of_first(Draw),
    ]);
    let s = score_match(&TeamRules::new(4, 1), &AB, &v).unwrap();
    assert_eq!((s.first.game_points, s.second.game_points), (p(15), p(15)));
    assert_eq!(
        (s.first.forfeited_boards, s.second.forfeited_boards),
        (1, 1)
    );
    // 3/1/0 match points from the regulations.
    let mut r = TeamRules::new(4, 1);
    r.match_points.win = Score::points(3);
    let s = score_match(&r, &AB, &MatchResult::from_first(&[Win, Win, Draw, Loss])).unwrap();
    assert_eq!(s.first.match_points, Score::points(3));
}

#[test]
fn whole_match_forfeits() {
    let r = TeamRules::new(4, 1);
    let f = |x| score_match(&r, &AB, &MatchResult::Forfeit(x)).unwrap();
    let s = f(MatchForfeit::SecondAbsent);
    assert_eq!(MatchForfeit::SecondAbsent.trf_code(), "+-");
    assert_eq!(
        (s.first.match_points, s.first.game_points),
        (Score(20), Score(40))
    );
    assert_eq!(
        (s.second.match_points, s.second.game_points),
        (Score(0), Score(0))
    );
    assert_eq!(s.second.forfeited_boards, 4);
    let s = f(MatchForfeit::FirstAbsent);
    assert_eq!(
        (s.first.match_points, s.second.match_points),
        (Score(0), Score(20))
    );
    let s = f(MatchForfeit::BothAbsent);
    assert_eq!(
        (s.first.match_points, s.second.match_points),
        (Score(0), Score(0))
    );
    assert_eq!(
        (s.first.forfeited_boards, s.second.forfeited_boards),
        (4, 4)
    );
}

#[test]
fn inconsistent_board_results_name_the_board() {
    let r = TeamRules::new(4, 1);
    let v = MatchResult::Boards(vec![
        BoardResult::of_first(Win),
        BoardResult::of_first(Win),
        BoardResult {
            first: Win,
            second: Win,
        },
        BoardResult::of_first(Win),
    ]);
    assert!(matches!(
        score_match(&r, &AB, &v),
        Err(TeamError::Board { board: 3, .. })
    ));
    let bye = MatchResult::from_first(&[Win, PairingBye, Win, Win]);
    assert!(matches!(
        score_match(&r, &AB, &bye),
        Err(TeamError::Board { board: 2, .. })
    ));
    assert!(score_match(&r, &AB, &MatchResult::from_first(&[Win, Win, Win])).is_err());
}

/// Arbiters' Manual 2023 ch. IX §7 commentary: A's line-up 1A-4A, B's 2B-5B; 2A met 4B and 3A met 3B (B's two
/// players swapped boards). Over the boards 1.5 - 2.5 (for rating); corrected 3 - 1.
#[test]
fn wrong_boards_become_forfeits_as_in_the_worked_example() {
    let r = TeamRules::new(4, 1);
    // Players: A = 1..4, B = 12..15 (B's list 11..15, player 11 rests).
    let a = lineup(1, &[1, 2, 3, 4]);
    let b = lineup(2, &[12, 13, 14, 15]);
    let scheduled: Vec<BoardPair> = expand(&r, &AB, &a, &b).unwrap();
    let g = |board, white, black, result| PlayedGame {
        board,
        white,
        black,
        result,
    };
    // White's results: 1A 1-0 2B; 4B 1-0 2A (board 2, B white); 3A ½ 3B; 5B 1-0 4A.
    let played = [
        g(1, 1, 12, Win),
        g(2, 14, 2, Win),
        g(3, 3, 13, Draw),
        g(4, 15, 4, Win),
    ];
    let corrected = correct_wrong_boards(&r, &scheduled, &played).unwrap();
    let firsts: Vec<ResultCode> = corrected.iter().map(|x| x.first).collect();
    assert_eq!(firsts, vec![Win, ForfeitWin, ForfeitWin, Loss]);
    let s = score_match(&r, &AB, &MatchResult::Boards(corrected)).unwrap();
    assert_eq!(
        (s.first.game_points, s.second.game_points),
        (Score(30), Score(10))
    );
    assert_eq!(s.second.forfeited_boards, 2);
    // As seated, without the correction, A would have lost 1.5 - 2.5.
    let raw = MatchResult::from_first(&[Win, Loss, Draw, Loss]);
    let s = score_match(&r, &AB, &raw).unwrap();
    assert_eq!(
        (s.first.game_points, s.second.game_points),
        (Score(15), Score(25))
    );
    // Both players of a board wrong: neither team scores it.
    let both = [
        g(1, 1, 12, Win),
        g(2, 14, 3, Win),
        g(3, 2, 13, Draw),
        g(4, 15, 4, Win),
    ];
    let c = correct_wrong_boards(&r, &scheduled, &both).unwrap();
    assert_eq!(c[1], BoardResult::double_forfeit());
    assert_eq!(c[2], BoardResult::double_forfeit());
    // A board without its game is named.
    assert!(matches!(
        correct_wrong_boards(&r, &scheduled, &played[..3]),
        Err(TeamError::Board { board: 4, .. })
    ));
}

#[test]
fn tiebreak_model_agrees_with_match_scores() {
    // Three teams of two boards, one round: 1 - 2 played 1.5 - 0.5, team 3 has the PAB worth
    // one match point and one game point; round 2: 3 - 1 forfeited by team 1 (`+-`), 2 PAB.
    let mut r = TeamRules::new(2, 0);
    r.pab = Some(ByeValue {
        match_points: Score::ONE,
        game_points: Score::ONE,
    });
    let teams: Vec<Team> = (1..=3)
        .map(|n| Team {
            number: n,
            name: format!("T{n}"),
            members: vec![n * 10 + 1, n * 10 + 2],
        })
        .collect();
    let rounds = vec![
        TeamRound {
            matches: vec![PlayedMatch {
                teams: AB,
                result: MatchResult::from_first(&[Win, Draw]),
            }],
            pab: Some(3),
        },
        TeamRound {
            matches: vec![PlayedMatch {
                teams: TeamMatch {
                    first: 3,
                    second: 1,
                },
                result: MatchResult::Forfeit(MatchForfeit::SecondAbsent),
            }],
            pab: Some(2),
        },
    ];
    let t = to_tiebreak(&r, &teams, &rounds, 2, PairingKind::Swiss).unwrap();
    let st = team_standings(&t, &["MPVGP".parse().unwrap()], &Options::default()).unwrap();
    let row = |id| st.rows.iter().find(|x| x.id == id).unwrap();
    let q = Rational::from_tenths;
    // T1: 2 MP + 0, 1.5 GP + 0; T2: 0 + 1 MP, 0.5 + 1 GP; T3: 1 + 2 MP, 1 + 2 GP.
    assert_eq!((row(1).points, row(1).values[0]), (q(20), Some(q(15))));
    assert_eq!((row(2).points, row(2).values[0]), (q(10), Some(q(15))));
    assert_eq!((row(3).points, row(3).values[0]), (q(30), Some(q(30))));
    assert_eq!(st.rows[0].id, 3);

    // A team twice in a round is refused, naming the round.
    let mut bad = rounds.clone();
    bad[1].pab = Some(1);
    let e = to_tiebreak(&r, &teams, &bad, 2, PairingKind::Swiss).unwrap_err();
    assert!(matches!(e, TeamError::Round { round: 2, .. }), "{e}");
}
