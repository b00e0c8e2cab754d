//! Team tie-breaks (C.07 Art. 11-13, seed 001 "Sistema Sonneborn-Berger" team variants A-D),
//! on small team events worked out by hand.

mod common;

use arbiter_core::ResultCode::*;
use arbiter_core::Score;
use arbiter_tiebreak::{
    ByeValue, Format, Options, Rational, RuleSet, Team, TeamRoundEntry, TeamRoundKind, TeamScore,
    TeamTournament, TieBreak, TieBreakList, team_standings, team_standings_report,
    team_tiebreak_values,
};
use common::{expect, q};

fn team_event(rounds: u32, boards: u32, n: u32) -> TeamTournament {
    let mut t = TeamTournament::new(rounds, boards);
    for id in 1..=n {
        t.teams.push(Team {
            id,
            name: format!("Team {id}"),
            rounds: Vec::new(),
        });
    }
    t
}

fn tv(t: &TeamTournament, d: &str, o: &Options) -> Vec<Option<Rational>> {
    let tb: TieBreak = d.parse().unwrap();
    let mut v = team_tiebreak_values(t, &tb, o).unwrap();
    v.sort_by_key(|(id, _)| *id);
    v.into_iter().map(|(_, x)| x).collect()
}

fn o2026() -> Options {
    Options {
        rule_set: Some(RuleSet::C07_2026),
        ..Options::default()
    }
}

/// Four teams, two boards, two rounds:
/// round 1: T1-T2 1 / ½ (1.5-0.5), T3-T4 ½ / ½ (1-1);
/// round 2: T1-T3 0 / ½ (0.5-1.5), T2-T4 1 / 1 (2-0).
/// Match points 2 / 2 / 3 / 1, game points 2.0 / 2.5 / 2.5 / 1.0.
fn four_teams() -> TeamTournament {
    let mut t = team_event(2, 2, 4);
    t.set_match(1, 1, 2, &[Win, Draw]);
    t.set_match(1, 3, 4, &[Draw, Draw]);
    t.set_match(2, 1, 3, &[Loss, Draw]);
    t.set_match(2, 2, 4, &[Win, Win]);
    t.validate().unwrap();
    t
}

#[test]
fn match_and_game_points() {
    let t = four_teams();
    let o = o2026();
    assert_eq!(tv(&t, "PTS", &o), expect(&["2", "2", "3", "1"]));
    // 13.1: the score that is not primary.
    assert_eq!(tv(&t, "MPVGP", &o), expect(&["2.0", "2.5", "2.5", "1.0"]));
    assert_eq!(tv(&t, "WIN:MP", &o), expect(&["1", "1", "1", "0"]));
    assert_eq!(tv(&t, "PS:MP", &o), expect(&["4", "2", "4", "2"]));
}

#[test]
fn buchholz_on_either_score() {
    let t = four_teams();
    let o = o2026();
    assert_eq!(tv(&t, "BH:MP", &o), expect(&["5", "3", "3", "5"]));
    assert_eq!(tv(&t, "BH:GP", &o), expect(&["5.0", "3.0", "3.0", "5.0"]));
}

#[test]
fn extended_sonneborn_berger_variants() {
    // 13.2: opponent's score of the first letter x own result of the second letter against it
    // (seed 001 variants A = EMMSB, B = EMGSB, C = EGMSB, D = EGGSB).
    let t = four_teams();
    let o = o2026();
    assert_eq!(tv(&t, "EMMSB", &o), expect(&["4", "2", "5", "3"]));
    assert_eq!(tv(&t, "EMGSB", &o), expect(&["4.5", "3.0", "4.0", "3.0"]));
    assert_eq!(tv(&t, "EGMSB", &o)[..2], expect(&["5", "2"])[..]);
    assert_eq!(tv(&t, "EGGSB", &o)[..2], expect(&["5.0", "3.0"])[..]);
    // Cut-1 (14.1.2): the lowest-scored opposing team goes (T1: T2 with 2 MP, product 3).
    assert_eq!(tv(&t, "EMGSB/C1", &o)[0], Some(q("1.5")));
}

#[test]
fn board_tie_breaks() {
    let t = four_teams();
    let o = o2026();
    // 12.1: board 1 x points + board 2 x points over the event: T1 1x1 + 2x1 = 3.
    assert_eq!(tv(&t, "BC", &o), expect(&["3.0", "4.0", "3.5", "1.5"]));
    // T1 and T2 share 2 MP: TBR compares board 1 (1 : 1), then board 2 (1 : 1.5).
    assert_eq!(tv(&t, "TBR", &o)[..2], expect(&["2", "1"])[..]);
    // BBE with two boards compares board 1 only: still tied.
    assert_eq!(tv(&t, "BBE", &o)[..2], expect(&["0", "0"])[..]);
    // 13.4: GP + BH(MP) / floor(2 x 2 / (1 x 2)) = GP + BH / 2.
    assert_eq!(
        tv(&t, "SSSC", &o),
        expect(&["4.50", "4.00", "4.00", "3.50"])
    );
    assert_eq!(tv(&t, "SSSC/K5", &o)[0], Some(q("3.00")));
}

#[test]
fn standings_with_the_default_team_list() {
    let t = four_teams();
    // MPvGP separates T2 (2.5 GP) from T1 (2.0 GP).
    let st = team_standings(&t, &[], &o2026()).unwrap();
    assert!(st.tiebreaks.is_empty());
    let report = team_standings_report(&t, &[], Format::Csv, &o2026()).unwrap();
    let order: Vec<&str> = report
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(2).unwrap())
        .collect();
    assert_eq!(order, vec!["3", "2", "1", "4"]);
    // DE alone: T1 beat T2.
    let de: TieBreakList = "DE".parse().unwrap();
    let st = team_standings(&t, &de.0, &o2026()).unwrap();
    let ids: Vec<u32> = st.rows.iter().map(|r| r.id).collect();
    assert_eq!(ids, vec![3, 1, 2, 4]);
    // Ranked by game points: T2 and T3 share 2.5; MPvGP (match points) puts T3 first.
    let mut g = t.clone();
    g.primary = TeamScore::GamePoints;
    let st = team_standings(&g, &"MPVGP".parse::<TieBreakList>().unwrap().0, &o2026()).unwrap();
    let ids: Vec<u32> = st.rows.iter().map(|r| r.id).collect();
    assert_eq!(ids, vec![3, 2, 1, 4]);
}

#[test]
fn extended_direct_encounter_chains() {
    // Two teams drew their only match 1-0 / 0-1: equal in MP and GP; 13.3 chains decide on
    // the mutual match: TBR (board 1), BBE (without the last board), BC (1x1 vs 2x1).
    let mut t = team_event(1, 2, 2);
    t.set_match(1, 1, 2, &[Win, Loss]);
    let o = o2026();
    assert_eq!(tv(&t, "EDE", &o), expect(&["0", "0"]));
    assert_eq!(tv(&t, "EDET", &o), expect(&["1", "2"]));
    assert_eq!(tv(&t, "EDEB", &o), expect(&["1", "2"]));
    assert_eq!(tv(&t, "EDEBT", &o), expect(&["1", "2"]));
    assert_eq!(tv(&t, "EDEBB", &o), expect(&["1", "2"]));
}

#[test]
fn extended_direct_encounter_uses_the_secondary_score() {
    // Three teams on 2 MP; all met; mutual MP equal (each won once), mutual GP decides.
    let mut t = team_event(3, 2, 3);
    t.set_match(1, 1, 2, &[Win, Win]); // T1 2-0
    t.set_entry(1, 3, TeamRoundEntry::bye(TeamRoundKind::ZeroBye));
    t.set_match(2, 2, 3, &[Win, Draw]); // T2 1.5-0.5
    t.set_entry(2, 1, TeamRoundEntry::bye(TeamRoundKind::ZeroBye));
    t.set_match(3, 3, 1, &[Win, Draw]); // T3 1.5-0.5
    t.set_entry(3, 2, TeamRoundEntry::bye(TeamRoundKind::ZeroBye));
    let o = o2026();
    assert_eq!(tv(&t, "PTS", &o), expect(&["2", "2", "2"]));
    // Mutual GP: T1 2 + 0.5 = 2.5, T2 0 + 1.5 = 1.5, T3 0.5 + 1.5 = 2.0.
    assert_eq!(tv(&t, "EDE", &o), expect(&["1", "3", "2"]));
    // Plain DE on MP cannot separate them.
    assert_eq!(tv(&t, "DE", &o), expect(&["0", "0", "0"]));
}

#[test]
fn team_byes_and_forfeits() {
    // Three teams, one round: T1-T2 drawn 1-1, T3 pairing-allocated bye.
    let mut t = team_event(1, 2, 3);
    t.set_match(1, 1, 2, &[Draw, Draw]);
    t.set_entry(1, 3, TeamRoundEntry::bye(TeamRoundKind::PairingBye));
    let o = o2026();
    // Default PAB: a won match, half of the board points.
    assert_eq!(tv(&t, "PTS", &o), expect(&["1", "1", "2"]));
    assert_eq!(tv(&t, "MPVGP", &o), expect(&["1.0", "1.0", "1.0"]));
    // BH:MP of T3: dummy own 2 MP; capped in 2026 at a draw per round (1 MP).
    let o24 = Options {
        rule_set: Some(RuleSet::C07_2024),
        ..Options::default()
    };
    assert_eq!(tv(&t, "BH:MP", &o24)[2], Some(q("2")));
    assert_eq!(tv(&t, "BH:MP", &o)[2], Some(q("1")));
    // PAB values from the regulations (TRF-2026 record 320).
    t.pab = Some(ByeValue {
        match_points: Score::ONE,
        game_points: Score::ONE,
    });
    assert_eq!(tv(&t, "PTS", &o)[2], Some(q("1")));

    // A forfeited match: MP of a win, every board won.
    let mut f = team_event(1, 4, 2);
    f.set_entry(
        1,
        1,
        TeamRoundEntry {
            opponent: Some(2),
            color: None,
            kind: TeamRoundKind::ForfeitWin,
            boards: vec![],
        },
    );
    f.set_entry(
        1,
        2,
        TeamRoundEntry {
            opponent: Some(1),
            color: None,
            kind: TeamRoundKind::ForfeitLoss,
            boards: vec![],
        },
    );
    assert_eq!(tv(&f, "PTS", &o), expect(&["2", "0"]));
    assert_eq!(tv(&f, "MPVGP", &o), expect(&["4.0", "0.0"]));
}
