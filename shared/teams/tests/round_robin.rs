//! Team round robins on the Berger tables.

use arbiter_teams::{TeamError, round_robin};
use std::collections::BTreeSet;

#[test]
fn ten_teams_meet_once_in_nine_rounds() {
    let teams: Vec<u32> = (1..=10).collect();
    let rr = round_robin(&teams).unwrap();
    assert_eq!(rr.len(), 9);
    let mut met = BTreeSet::new();
    for r in &rr {
        assert_eq!(r.idle, None);
        assert_eq!(r.matches.len(), 5);
        let playing: BTreeSet<u32> = r.matches.iter().flat_map(|m| [m.first, m.second]).collect();
        assert_eq!(playing.len(), 10, "every team plays once a round");
        for m in &r.matches {
            assert!(met.insert((m.first.min(m.second), m.first.max(m.second))));
        }
    }
    assert_eq!(met.len(), 45, "all 45 pairs of teams");

    let table = arbiter_roundrobin::berger(10).unwrap();
    for t in 1..=10u32 {
        let first: Vec<bool> = rr
            .iter()
            .map(|r| r.matches.iter().any(|m| m.first == t))
            .collect();
        // The first team of each match is the table's White player.
        let white: Vec<bool> = table
            .iter()
            .map(|r| r.games.iter().any(|&(w, _)| w == t))
            .collect();
        assert_eq!(first, white, "team {t}");
        let n = first.iter().filter(|&&f| f).count();
        assert!(n == 4 || n == 5, "team {t} named first {n} times");
        // Berger: nobody is named first (or second) three rounds running.
        assert!(
            first.windows(3).all(|w| !(w[0] == w[1] && w[1] == w[2])),
            "team {t}"
        );
    }
    // Team 10 (the table's last number) alternates: second in odd rounds, first in even ones.
    let last: Vec<bool> = rr
        .iter()
        .map(|r| r.matches.iter().any(|m| m.first == 10))
        .collect();
    assert_eq!(last, (1..=9).map(|r| r % 2 == 0).collect::<Vec<_>>());
}

#[test]
fn team_numbers_in_seeding_order_and_odd_fields() {
    // Numbers need not be contiguous: the table's 1..5 are the teams in number order.
    let rr = round_robin(&[40, 10, 30, 20, 50]).unwrap();
    assert_eq!(rr.len(), 5);
    let idle: Vec<u32> = rr.iter().map(|r| r.idle.unwrap()).collect();
    let set: BTreeSet<u32> = idle.iter().copied().collect();
    assert_eq!(
        set,
        BTreeSet::from([10, 20, 30, 40, 50]),
        "each team rests once"
    );
    let mut met = BTreeSet::new();
    for r in &rr {
        assert_eq!(r.matches.len(), 2);
        for m in &r.matches {
            assert_ne!(Some(m.first), r.idle);
            assert_ne!(Some(m.second), r.idle);
            assert!(met.insert((m.first.min(m.second), m.first.max(m.second))));
        }
    }
    assert_eq!(met.len(), 10);
    assert!(matches!(
        round_robin(&[1, 2, 2]),
        Err(TeamError::Team { team: 2, .. })
    ));
    assert!(round_robin(&[1]).is_err());
}

#[test]
fn idle_team_scores_nothing_in_the_standings() {
    use arbiter_core::{ResultCode, Score};
    use arbiter_teams::{MatchResult, PlayedMatch, Team, TeamRound, TeamRules, to_tiebreak};
    use arbiter_tiebreak::{ByeValue, Options, PairingKind, Rational, team_standings};
    // Five teams of two boards; every match drawn 1 - 1. After the full cycle each team has
    // four draws (4 MP) and one idle round worth nothing, although a PAB value is set.
    let mut rules = TeamRules::new(2, 0);
    rules.pab = Some(ByeValue {
        match_points: Score::points(2),
        game_points: Score::points(1),
    });
    let entries: Vec<Team> = (1..=5)
        .map(|n| Team {
            number: n,
            name: format!("T{n}"),
            members: vec![2 * n - 1, 2 * n],
        })
        .collect();
    let rr = round_robin(&[1, 2, 3, 4, 5]).unwrap();
    let rounds: Vec<TeamRound> = rr
        .iter()
        .map(|r| TeamRound {
            matches: r
                .matches
                .iter()
                .map(|m| PlayedMatch {
                    teams: *m,
                    result: MatchResult::from_first(&[ResultCode::Win, ResultCode::Loss]),
                })
                .collect(),
            pab: None,
        })
        .collect();
    let t = to_tiebreak(&rules, &entries, &rounds, 5, PairingKind::PreDetermined).unwrap();
    let st = team_standings(&t, &["MPVGP".parse().unwrap()], &Options::default()).unwrap();
    for row in &st.rows {
        assert_eq!(row.points, Rational::from_tenths(40), "team {}", row.id);
        assert_eq!(
            row.values[0],
            Some(Rational::from_tenths(40)),
            "team {}",
            row.id
        );
        assert_eq!(row.rank, 1);
    }
}
