//! Simulated team Swisses: the Dutch engine on teams, line-ups with a rotating reserve,
//! seeded pseudo-random board results, standings through arbiter-tiebreak.

use arbiter_core::ResultCode::{self, *};
use arbiter_core::{Color, Score};
use arbiter_pairing::RuleSet;
use arbiter_teams::{
    Lineup, MatchResult, PlayedMatch, SwissPairing, Team, TeamError, TeamMatch, TeamRound,
    TeamRules, expand, pair_swiss, to_tiebreak,
};
use arbiter_tiebreak::{ByeValue, Options, PairingKind, Rational, team_standings};
use std::collections::{BTreeMap, BTreeSet};

const BOARDS: u32 = 4;

/// xorshift64*: a fixed, seeded sequence (the tests must not depend on a library's RNG).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// The first team's result on one board: mostly games, now and then a forfeit.
    fn board(&mut self) -> ResultCode {
        match self.next() % 40 {
            0 => ForfeitWin,
            1 => ForfeitLoss,
            2..=14 => Win,
            15..=27 => Draw,
            _ => Loss,
        }
    }
}

/// Four boards, one reserve, a PAB worth a won match and half the boards.
fn rules_with_pab() -> TeamRules {
    let mut rules = TeamRules::new(BOARDS, 1);
    rules.pab = Some(ByeValue {
        match_points: Score::points(2),
        game_points: Score::points(2),
    });
    rules
}

/// A round of a five-round dutch-2025 team Swiss, White to the top seed in round 1.
fn pair5(
    rules: &TeamRules,
    entries: &[Team],
    played: &[TeamRound],
    unavailable: &BTreeSet<u32>,
) -> SwissPairing {
    pair_swiss(
        rules,
        RuleSet::Dutch2025,
        entries,
        played,
        unavailable,
        5,
        Color::White,
    )
    .expect("the round pairs")
}

fn teams(n: u32) -> Vec<Team> {
    (1..=n)
        .map(|t| Team {
            number: t,
            name: format!("Team {t}"),
            members: ((t - 1) * 5 + 1..=t * 5).collect(),
        })
        .collect()
}

/// Round `round`'s line-up: one of the five listed players rests, in turn.
fn lineup(t: &Team, round: u32) -> Lineup {
    let rest = ((round + t.number) % 5) as usize;
    Lineup {
        team: t.number,
        players: t
            .members
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != rest)
            .map(|(_, &p)| p)
            .collect(),
    }
}

/// Independent arithmetic: 1 / ½ / 0 per board, forfeits as wins and losses.
fn tenths(r: ResultCode) -> i64 {
    match r {
        Win | ForfeitWin => 10,
        Draw => 5,
        _ => 0,
    }
}

struct Run {
    rounds: Vec<TeamRound>,
    /// Team -> (match points, game points) in tenths, summed from the board results.
    totals: BTreeMap<u32, (i64, i64)>,
}

fn simulate(rules: &TeamRules, entries: &[Team], rounds: u32, seed: u64) -> Run {
    let by_number: BTreeMap<u32, &Team> = entries.iter().map(|t| (t.number, t)).collect();
    let mut rng = Rng(seed);
    let mut played: Vec<TeamRound> = Vec::new();
    let mut totals: BTreeMap<u32, (i64, i64)> = by_number.keys().map(|&n| (n, (0, 0))).collect();
    let mut met = BTreeSet::new();
    let mut pabs = BTreeSet::new();
    for round in 1..=rounds {
        let p = pair_swiss(
            rules,
            RuleSet::Dutch2025,
            entries,
            &played,
            &BTreeSet::new(),
            rounds,
            Color::White,
        )
        .unwrap();
        assert_eq!(p.pab.is_some(), entries.len() % 2 == 1, "round {round}");
        if let Some(b) = p.pab {
            assert!(pabs.insert(b), "team {b} has a second PAB in round {round}");
            let v = rules.pab.unwrap();
            let e = totals.get_mut(&b).unwrap();
            e.0 += i64::from(v.match_points.tenths());
            e.1 += i64::from(v.game_points.tenths());
        }
        let mut seated = BTreeSet::new();
        let mut matches = Vec::new();
        for m in &p.matches {
            assert!(
                met.insert((m.first.min(m.second), m.first.max(m.second))),
                "teams {} and {} meet twice (round {round})",
                m.first,
                m.second
            );
            assert_ne!(Some(m.first), p.pab);
            assert_ne!(Some(m.second), p.pab);
            let (a, b) = (by_number[&m.first], by_number[&m.second]);
            let (la, lb) = (lineup(a, round), lineup(b, round));
            la.check(rules, a).unwrap();
            lb.check(rules, b).unwrap();
            let pairs = expand(rules, m, &la, &lb).unwrap();
            assert_eq!(pairs.len(), BOARDS as usize);
            for (k, bp) in pairs.iter().enumerate() {
                assert_eq!(bp.board, k as u32 + 1);
                // Board k: the k-th players of both line-ups; "WBWB" for the first team.
                let (w, bl) = if k % 2 == 0 {
                    (la.players[k], lb.players[k])
                } else {
                    (lb.players[k], la.players[k])
                };
                assert_eq!((bp.white, bp.black), (w, bl));
                assert!(
                    seated.insert(bp.white),
                    "player {} twice in round {round}",
                    bp.white
                );
                assert!(
                    seated.insert(bp.black),
                    "player {} twice in round {round}",
                    bp.black
                );
            }
            let codes: Vec<ResultCode> = (0..BOARDS).map(|_| rng.board()).collect();
            let ga: i64 = codes.iter().map(|&c| tenths(c)).sum();
            let gb: i64 = codes.iter().map(|&c| tenths(c.mirrored().unwrap())).sum();
            let (ma, mb) = match ga.cmp(&gb) {
                std::cmp::Ordering::Greater => (20, 0),
                std::cmp::Ordering::Equal => (10, 10),
                std::cmp::Ordering::Less => (0, 20),
            };
            for (t, mp, gp) in [(m.first, ma, ga), (m.second, mb, gb)] {
                let e = totals.get_mut(&t).unwrap();
                e.0 += mp;
                e.1 += gp;
            }
            matches.push(PlayedMatch {
                teams: *m,
                result: MatchResult::from_first(&codes),
            });
        }
        let expected_seated = 2 * BOARDS as usize * p.matches.len();
        assert_eq!(seated.len(), expected_seated);
        played.push(TeamRound {
            matches,
            pab: p.pab,
        });
    }
    if entries.len() % 2 == 1 {
        assert_eq!(pabs.len(), rounds as usize);
    }
    Run {
        rounds: played,
        totals,
    }
}

fn check_standings(rules: &TeamRules, entries: &[Team], rounds: u32, run: &Run) {
    let t = to_tiebreak(rules, entries, &run.rounds, rounds, PairingKind::Swiss).unwrap();
    let st = team_standings(&t, &["MPVGP".parse().unwrap()], &Options::default()).unwrap();
    assert_eq!(st.rows.len(), entries.len());
    for row in &st.rows {
        let (mp, gp) = run.totals[&row.id];
        assert_eq!(row.points, Rational::from_tenths(mp), "team {} MP", row.id);
        assert_eq!(
            row.values[0],
            Some(Rational::from_tenths(gp)),
            "team {} GP",
            row.id
        );
    }
    // Ranked by match points, then game points; full ties by team number.
    for w in st.rows.windows(2) {
        let key = |r: &arbiter_tiebreak::Standing| (r.points, r.values[0].unwrap());
        assert!(key(&w[0]) >= key(&w[1]), "{} before {}", w[0].id, w[1].id);
        if key(&w[0]) == key(&w[1]) {
            assert!(w[0].id < w[1].id);
            assert_eq!(w[0].rank, w[1].rank);
        } else {
            assert!(w[0].rank < w[1].rank);
        }
    }
    // Every match distributes the match points of one won or drawn match and all board points.
    let board_points: i64 = run.totals.values().map(|v| v.1).sum();
    let pab_gp = rules.pab.map_or(0, |b| i64::from(b.game_points.tenths()));
    let pab_count = run.rounds.iter().filter(|r| r.pab.is_some()).count() as i64;
    let matches: i64 = run.rounds.iter().map(|r| r.matches.len() as i64).sum();
    assert_eq!(board_points, matches * 40 + pab_count * pab_gp);
}

#[test]
fn ten_teams_seven_rounds() {
    let rules = TeamRules::new(BOARDS, 1);
    let entries = teams(10);
    let run = simulate(&rules, &entries, 7, 0x5eed_0001);
    assert_eq!(run.rounds.len(), 7);
    check_standings(&rules, &entries, 7, &run);
    // Deterministic: the same seed pairs the same event.
    let again = simulate(&rules, &entries, 7, 0x5eed_0001);
    assert_eq!(run.rounds, again.rounds);
}

#[test]
fn nine_teams_one_pab_a_round() {
    let rules = rules_with_pab();
    let entries = teams(9);
    for seed in [0x5eed_0002, 0x5eed_0003] {
        let run = simulate(&rules, &entries, 7, seed);
        check_standings(&rules, &entries, 7, &run);
    }
}

#[test]
fn first_round_follows_the_seeding() {
    // Round 1 of the Dutch system: top half against bottom half, team 1 White on board 1.
    let rules = TeamRules::new(BOARDS, 1);
    let p = pair_swiss(
        &rules,
        RuleSet::Dutch2017,
        &teams(10),
        &[],
        &BTreeSet::new(),
        7,
        Color::White,
    )
    .unwrap();
    let mut got: Vec<(u32, u32)> = p
        .matches
        .iter()
        .map(|m| (m.first.min(m.second), m.first.max(m.second)))
        .collect();
    got.sort();
    assert_eq!(got, vec![(1, 6), (2, 7), (3, 8), (4, 9), (5, 10)]);
    assert!(p.matches.contains(&TeamMatch {
        first: 1,
        second: 6
    }));
    // Colours alternate down the top half (E.5): team 2 has Black on board 1.
    assert!(p.matches.contains(&TeamMatch {
        first: 7,
        second: 2
    }));
}

#[test]
fn absent_teams_and_refusals() {
    let rules = rules_with_pab();
    let entries = teams(9);
    // Team 9 absent in round 1: eight teams paired, no PAB; team 9 scores nothing.
    let absent = BTreeSet::from([9]);
    let p = pair5(&rules, &entries, &[], &absent);
    assert_eq!((p.matches.len(), p.pab), (4, None));
    assert!(p.matches.iter().all(|m| m.first != 9 && m.second != 9));
    let round = TeamRound {
        matches: p
            .matches
            .iter()
            .map(|m| PlayedMatch {
                teams: *m,
                result: MatchResult::from_first(&[Draw; 4]),
            })
            .collect(),
        pab: None,
    };
    let t = to_tiebreak(&rules, &entries, &[round], 5, PairingKind::Swiss).unwrap();
    let st = team_standings(&t, &[], &Options::default()).unwrap();
    assert_eq!(st.rows.last().unwrap().id, 9);
    assert_eq!(st.rows.last().unwrap().points, Rational::from_tenths(0));

    // An even field with a team withdrawn: without a PAB value (TRF 320) the odd field
    // cannot be paired, and the refusal names the field; with one, a team gets the PAB.
    let mut with_value = TeamRules::new(BOARDS, 1);
    with_value.pab = rules.pab;
    let p = pair5(&with_value, &teams(10), &[], &BTreeSet::from([10]));
    assert_eq!(p.matches.len(), 4);
    assert!(p.pab.is_some_and(|b| b != 10), "{p:?}");
    let even = TeamRules::new(BOARDS, 1);
    let e = pair_swiss(
        &even,
        RuleSet::Dutch2025,
        &teams(10),
        &[],
        &BTreeSet::from([10]),
        5,
        Color::White,
    )
    .unwrap_err();
    assert!(
        matches!(e, TeamError::Rules { ref field, .. } if field == "pab"),
        "{e}"
    );
    // Only the Dutch rule sets pair teams.
    let e = pair_swiss(
        &even,
        RuleSet::Dubov,
        &teams(10),
        &[],
        &BTreeSet::new(),
        5,
        Color::White,
    )
    .unwrap_err();
    assert!(
        matches!(e, TeamError::Rules { ref field, .. } if field == "rule_set"),
        "{e}"
    );
}

#[test]
fn forfeited_matches_and_black_first_sequences() {
    // Round 1 with a whole match forfeited (`+-`): the engine takes the history, and the
    // forfeit winner scores a won match.
    let rules = TeamRules::new(BOARDS, 1);
    let entries = teams(10);
    let none = BTreeSet::new();
    let p = pair5(&rules, &entries, &[], &none);
    let matches: Vec<PlayedMatch> = p
        .matches
        .iter()
        .enumerate()
        .map(|(i, m)| PlayedMatch {
            teams: *m,
            result: if i == 0 {
                MatchResult::Forfeit(arbiter_teams::MatchForfeit::SecondAbsent)
            } else {
                MatchResult::from_first(&[Draw; 4])
            },
        })
        .collect();
    let winner = p.matches[0].first;
    let r1 = vec![TeamRound { matches, pab: None }];
    let p2 = pair5(&rules, &entries, &r1, &none);
    assert_eq!(p2.matches.len(), 5);
    let t = to_tiebreak(&rules, &entries, &r1, 5, PairingKind::Swiss).unwrap();
    let st = team_standings(&t, &[], &Options::default()).unwrap();
    assert_eq!(st.rows[0].id, winner);
    assert_eq!(st.rows[0].points, Rational::from_tenths(20));

    // With "BWBW" the team the engine gives White still has White on board 1: it is named
    // second, the team with the written sequence (Black on board 1) first.
    let mut bw = TeamRules::new(BOARDS, 1);
    bw.colours = "BWBW".into();
    let q = pair5(&bw, &entries, &[], &none);
    assert!(q.matches.contains(&TeamMatch {
        first: 6,
        second: 1
    }));
    let m = q.matches.iter().find(|m| m.second == 1).unwrap();
    let pairs = expand(&bw, m, &lineup(&entries[5], 1), &lineup(&entries[0], 1)).unwrap();
    assert!(entries[0].members.contains(&pairs[0].white));
}
