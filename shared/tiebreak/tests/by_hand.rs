//! Every tie-break on small tournaments whose values were worked out by hand from the rules
//! (C.07 articles and the seed sections named in each test), not copied from any program.

mod common;

use arbiter_core::PointSystem;
use arbiter_core::ResultCode::{self, *};
use arbiter_core::Score;
use arbiter_tiebreak::{
    Article16Overrides, Options, PairingKind, Player, RuleSet, TieBreakList, Tournament, standings,
};
use common::{expect, forfeit, golden_dir, load_trf, q, swiss, vals};

/// Six players (ratings 2400 ... 1900), four rounds:
///
/// | round | games |
/// |---|---|
/// | 1 | 1-4 1-0, 2-5 ½-½, 3-6 0-1 |
/// | 2 | 6-1 0-1, 4-2 0-1, 5-3 ½-½ |
/// | 3 | 1-2 ½-½, 3-4 1-0, 6-5 +/- (5 absent) |
/// | 4 | 1-3 1-0, 2-6 ½-½, 4 half-point bye, 5 zero-point bye (withdrawn) |
///
/// Scores 3.5, 2.5, 1.5, 0.5, 1.0, 2.5. Adjusted scores (16.3): player 5's last round is a
/// requested bye after his last non-VUR round (2): a draw, so 1.5; all others unchanged.
fn mini() -> Tournament {
    let mut t = swiss(6, 4);
    t.start_date = Some("2025/01/10".parse().unwrap());
    t.set_game(1, 1, 4, Win);
    t.set_game(1, 2, 5, Draw);
    t.set_game(1, 3, 6, Loss);
    t.set_game(2, 6, 1, Loss);
    t.set_game(2, 4, 2, Loss);
    t.set_game(2, 5, 3, Draw);
    t.set_game(3, 1, 2, Draw);
    t.set_game(3, 3, 4, Win);
    forfeit(&mut t, 3, 6, 5, ForfeitWin, ForfeitLoss);
    t.set_game(4, 1, 3, Win);
    t.set_game(4, 2, 6, Draw);
    t.set_bye(4, 4, HalfBye);
    t.set_bye(4, 5, ZeroBye);
    t.validate().unwrap();
    t
}

fn o2024() -> Options {
    Options {
        rule_set: Some(RuleSet::C07_2024),
        ..Options::default()
    }
}
fn o2026() -> Options {
    Options {
        rule_set: Some(RuleSet::C07_2026),
        ..Options::default()
    }
}
fn legacy() -> Options {
    Options {
        rule_set: Some(RuleSet::Legacy2009),
        ..Options::default()
    }
}

#[test]
fn rule_set_comes_from_the_start_date() {
    let t = mini();
    let st = standings(&t, &[], &Options::default()).unwrap();
    assert_eq!(st.rule_set, RuleSet::C07_2024);
}

#[test]
fn points() {
    assert_eq!(
        vals(&mini(), "PTS", &o2024()),
        expect(&["3.5", "2.5", "1.5", "0.5", "1.0", "2.5"])
    );
}

#[test]
fn buchholz_2024() {
    // 8.1 + 16.4: player 4's half-point bye and player 5's forfeit loss and absence are dummies
    // with the player's own score; player 6's forfeit win a dummy with 6's score (2.5).
    let t = mini();
    assert_eq!(
        vals(&t, "BH", &o2024()),
        expect(&["7.0", "8.0", "8.0", "8.0", "6.0", "10.0"])
    );
}

#[test]
fn buchholz_2026_caps_the_dummy() {
    // 16.4.1: player 6's forfeit-win dummy is capped by 5's adjusted score 1.5 -> 9.0.
    // 16.4.2: byes capped by 0.5 x 4 = 2.0 (no effect here).
    let t = mini();
    assert_eq!(
        vals(&t, "BH", &o2026()),
        expect(&["7.0", "8.0", "8.0", "8.0", "6.0", "9.0"])
    );
    assert_eq!(
        vals(&t, "BH/C1", &o2026()),
        expect(&["6.5", "7.5", "7.5", "7.5", "5.0", "7.5"])
    );
}

#[test]
fn buchholz_cuts_and_medians() {
    let t = mini();
    // 14.1 with 16.5.1: player 5 has VURs (dummy 1.0 twice): one of them is cut.
    assert_eq!(
        vals(&t, "BH/C1", &o2024()),
        expect(&["6.5", "7.5", "7.5", "7.5", "5.0", "8.5"])
    );
    // 14.2 with 16.5.2: the exception applies to each cut; player 5 loses both VUR dummies.
    assert_eq!(
        vals(&t, "BH/C2", &o2024()),
        expect(&["5.0", "6.0", "6.0", "6.0", "4.0", "6.0"])
    );
    // 14.3: least significant first (with the exception), then the most significant.
    assert_eq!(
        vals(&t, "BH/M1", &o2024()),
        expect(&["4.0", "4.0", "4.0", "4.0", "2.5", "5.0"])
    );
}

#[test]
fn vur_exception_cuts_the_bye_not_the_weakest_opponent() {
    // Golden example, player 6: contributions 4, 2.5 (requested HPB), 1, 4, 2.5. The least
    // significant value is 1, the VUR 2.5 is higher: 2.5 is cut (11.5). Without the exception
    // (16.6 override) the 1 is cut (13.0).
    let trf = load_trf(&golden_dir().join("tiebreaks/swiss-unplayed.trf"));
    let t = &trf.tournament;
    assert_eq!(vals(t, "BH/C1", &o2024())[5], Some(q("11.5")));
    let no_exc = Options {
        rule_set: Some(RuleSet::C07_2024),
        article16: Article16Overrides {
            no_vur_cut_exception: true,
            ..Default::default()
        },
        ..Options::default()
    };
    assert_eq!(vals(t, "BH/C1", &no_exc)[5], Some(q("13.0")));
}

#[test]
fn sonneborn_berger() {
    // 9.1: opponent's adjusted score x own points; dummies times the points of that round.
    let t = mini();
    assert_eq!(
        vals(&t, "SB", &o2024()),
        expect(&["5.75", "4.25", "1.25", "0.25", "2.0", "5.25"])
    );
    // 2026: player 6's forfeit-win dummy 1.5 x 1.
    assert_eq!(
        vals(&t, "SB", &o2026()),
        expect(&["5.75", "4.25", "1.25", "0.25", "2.0", "4.25"])
    );
    // SB/C1 (C.07 14.1, as the TEC reference reads it): the contribution of the lowest-scored
    // opponent goes (ties by the lower product); for player 3 the 0.5-point opponent (product 0.5),
    // not a zero product.
    assert_eq!(
        vals(&t, "SB/C1", &o2024()),
        expect(&["5.25", "3.75", "0.75", "0.0", "2.0", "3.75"])
    );
}

#[test]
fn fore_buchholz() {
    // 8.3: the paired games of round 4 (1-3, 2-6) become draws: projected scores 3.0, 2.5,
    // 2.0, 0.5, 1.0, 2.5; byes keep their value.
    let t = mini();
    assert_eq!(
        vals(&t, "FB", &o2024()),
        expect(&["7.5", "7.5", "7.5", "8.0", "6.5", "10.0"])
    );
}

#[test]
fn average_and_sum_of_opponents_buchholz() {
    // 8.2: only opponents met over the board; BH 2024 = 7, 8, 8, 8, 6, 10.
    let t = mini();
    let aob = vals(&t, "AOB", &o2024());
    assert_eq!(aob[0], Some(q("8.5")));
    assert_eq!(aob[4], Some(q("8.0")));
    assert_eq!(aob[5], arbiter_tiebreak::Rational::new(23, 3));
    assert_eq!(vals(&t, "AOB", &o2026())[0], Some(q("8.25")));
    // Seed 001 "Suma de Buchholz".
    assert_eq!(vals(&t, "SOB", &o2024())[0], Some(q("34")));
}

#[test]
fn progressive_scores() {
    // 7.5: running scores after each round, byes and forfeits as awarded; /C1 drops round 1.
    let t = mini();
    assert_eq!(
        vals(&t, "PS", &o2024()),
        expect(&["9.0", "6.5", "3.5", "0.5", "3.5", "6.5"])
    );
    assert_eq!(
        vals(&t, "PS/C1", &o2024()),
        expect(&["8.0", "6.0", "3.5", "0.5", "3.0", "5.5"])
    );
}

#[test]
fn own_results_counts() {
    let t = mini();
    // 7.1: rounds with the points of a win, forfeit win included.
    assert_eq!(
        vals(&t, "WIN", &o2024()),
        expect(&["3", "1", "1", "0", "0", "2"])
    );
    // 7.2: over the board only.
    assert_eq!(
        vals(&t, "WON", &o2024()),
        expect(&["3", "1", "1", "0", "0", "1"])
    );
    // 7.3 / 7.4: games actually played with Black; forfeits never count.
    assert_eq!(
        vals(&t, "BPG", &o2024()),
        expect(&["1", "2", "2", "2", "1", "2"])
    );
    assert_eq!(
        vals(&t, "BWG", &o2024()),
        expect(&["1", "1", "0", "0", "0", "1"])
    );
    // 7.6: rounds minus VURs (HPB, absence, forfeit loss).
    assert_eq!(
        vals(&t, "REP", &o2024()),
        expect(&["4", "4", "4", "3", "2", "4"])
    );
    assert_eq!(vals(&t, "GE", &o2024()), vals(&t, "REP", &o2024()));
    // 7.8: the pairing number, ascending unless /R.
    assert_eq!(
        vals(&t, "TPN", &o2026()),
        expect(&["1", "2", "3", "4", "5", "6"])
    );
}

#[test]
fn koya() {
    // 9.2: points against opponents with at least 50 % (2.0 of 4): players 1, 2 and 6.
    let t = mini();
    assert_eq!(
        vals(&t, "KS", &o2024()),
        expect(&["1.5", "1.0", "0.0", "0.0", "0.5", "0.5"])
    );
    // 14.5: the limit moved down by two half-points (1.0).
    assert_eq!(
        vals(&t, "KS/L-2", &o2024()),
        expect(&["2.5", "1.5", "0.5", "0.0", "1.0", "2.5"])
    );
}

#[test]
fn average_rating_of_opponents() {
    // 10.1: over-the-board opponents only, mean rounded half up.
    let t = mini();
    assert_eq!(
        vals(&t, "ARO", &o2024()),
        expect(&["2125", "2100", "2100", "2300", "2250", "2300"])
    );
    // 14.1: lowest rating removed; 6500/3 = 2166.67 -> 2167.
    assert_eq!(
        vals(&t, "ARO/C1", &o2024()),
        expect(&["2200", "2167", "2167", "2350", "2300", "2350"])
    );
    // 14.3: lowest and highest removed (player 1: 2100 and 2200 remain).
    assert_eq!(vals(&t, "ARO/M1", &o2024())[0], Some(q("2150")));
}

#[test]
fn performance_ratings() {
    let t = mini();
    // 10.2: ARO + dp(p): 3.5/4 = 87.5 % -> 88 % -> 336; 2.5/4 -> 63 % -> 95; 1.5/4 -> 38 %
    // -> -87; 0 % -> -800; 50 % -> 0.
    assert_eq!(
        vals(&t, "TPR", &o2024()),
        expect(&["2461", "2195", "2013", "1500", "2250", "2300"])
    );
    let ptp = vals(&t, "PTP", &o2024());
    // 10.3: zero score: lowest opponent - 800.
    assert_eq!(ptp[3], Some(q("1400")));
    // 1.0 of 2 against 2300 and 2200: at 2247, PD(-53) + PD(47) = 0.43 + 0.57; at 2246 0.98.
    assert_eq!(ptp[4], Some(q("2247")));
    // 1.5 of 3 against 2200, 2400, 2300: at 2299, 0.64 + 0.36 + 0.50; at 2298, 1.49.
    assert_eq!(ptp[5], Some(q("2299")));
    // 10.4: player 5's opponents 2 and 3 have TPR 2195 and 2013.
    assert_eq!(vals(&t, "APRO", &o2024())[4], Some(q("2104")));
}

#[test]
fn perfect_score_performance_and_appo() {
    // Two rounds: 1 beats 2 and 3; 3 draws with 4, 2 loses to 4.
    let mut t = swiss(4, 2);
    t.set_game(1, 1, 2, Win);
    t.set_game(1, 3, 4, Draw);
    t.set_game(2, 1, 3, Win);
    t.set_game(2, 2, 4, Loss);
    // PTP of a perfect score (C.07 10.3 is silent): the search gives highest opponent + 736:
    // 2300 + 736.
    let ptp = vals(&t, "PTP", &o2024());
    assert_eq!(ptp[0], Some(q("3036")));
    // Player 2 (0 of 2 against 2400, 2100): 2100 - 800 = 1300. Player 3 (0.5 of 2 against 2100
    // and 2400): R = 2026 gives PD(-74) + PD(-374) = 0.40 + 0.10 = 0.50; R = 2025 gives
    // PD(-75) + PD(-375) = 0.40 + 0.09.
    assert_eq!(ptp[1], Some(q("1300")));
    assert_eq!(ptp[2], Some(q("2026")));
    // APPO of player 1: mean of 1300 and 2026 = 1663.
    assert_eq!(vals(&t, "APPO", &o2024())[0], Some(q("1663")));
}

#[test]
fn rating_based_need_ratings() {
    // Art. 10: an unrated participant makes the rating-based tie-breaks undefined for all,
    // unless a rating for unrated players was published.
    let mut t = mini();
    t.players[3].rating = None;
    assert!(vals(&t, "ARO", &o2024()).iter().all(Option::is_none));
    assert!(vals(&t, "RTNG", &o2026()).iter().all(Option::is_none));
    let with = Options {
        unrated_rating: Some(1000),
        ..o2024()
    };
    // Player 1 met 4 (now 1000), 6, 2, 3: 7400 / 4 = 1850.
    assert_eq!(vals(&t, "ARO", &with)[0], Some(q("1850")));
    assert_eq!(vals(&t, "RTNG", &with)[3], Some(q("1000")));
}

#[test]
fn standard_points_under_three_one_zero() {
    // 7.7 (2026): 1 for a round above the draw value, 1/2 for a draw.
    let mut t = swiss(2, 2);
    t.point_system = PointSystem::with_win_draw(Score::points(3), Score::ONE);
    t.set_game(1, 1, 2, Win);
    t.set_game(2, 2, 1, Draw);
    assert_eq!(vals(&t, "PTS", &o2026()), expect(&["4", "1"]));
    assert_eq!(vals(&t, "STD", &o2026()), expect(&["1.5", "0.5"]));
    assert_eq!(vals(&t, "WIN", &o2026()), expect(&["1", "0"]));
    // SB under 3/1/0: opponent's score x own points (1 x 3 + 1 x 1 for player 1).
    assert_eq!(vals(&t, "SB", &o2026()), expect(&["4", "4"]));
}

#[test]
fn kashdan() {
    // Seed 004 "02 DESEMPATES" 9: win 4, draw 2, loss 1, unplayed rounds 2.
    let t = mini();
    assert_eq!(
        vals(&t, "KASH", &legacy()),
        expect(&["14", "10", "8", "5", "8", "9"])
    );
    assert_eq!(vals(&t, "KASH310", &legacy())[0], Some(q("10")));
}

#[test]
fn legacy_rules() {
    // Seed 001 "Oponente Virtual": opponents' unplayed rounds are draws (5 -> 2.0, 6 -> 2.0);
    // own unplayed rounds against a virtual opponent SPR + (1 - SfPR) + 0.5 (n - R).
    let t = mini();
    assert_eq!(
        vals(&t, "BH", &legacy()),
        expect(&["6.5", "8.0", "8.0", "8.0", "8.5", "9.0"])
    );
    // Plain cuts, no VUR exception.
    assert_eq!(vals(&t, "BH/C1", &legacy())[4], Some(q("7.0")));
    // Seed 001 "AROC 1": unplayed rounds are removed first (player 5 had two).
    assert_eq!(
        vals(&t, "ARO/C1", &legacy()),
        expect(&["2200", "2167", "2167", "2300", "2250", "2300"])
    );
    // Seed 004 Harkness median (4 rounds: highest and lowest), forfeit wins not summed.
    assert_eq!(vals(&t, "BH/H", &legacy())[5], Some(q("2.5")));
    assert_eq!(vals(&t, "BH/H", &legacy())[0], Some(q("3.5")));
}

#[test]
fn article_16_overrides() {
    let t = mini();
    // Draw against themselves: own unplayed rounds score a draw for SB.
    let dat = Options {
        rule_set: Some(RuleSet::C07_2024),
        article16: Article16Overrides {
            draw_against_themselves: true,
            ..Default::default()
        },
        ..Options::default()
    };
    assert_eq!(
        vals(&t, "SB", &dat),
        expect(&["5.75", "4.25", "1.25", "0.25", "3.0", "4.0"])
    );
    // Forfeits as played: 6's forfeit win counts 5's adjusted score (1.5), 5's forfeit loss 6's.
    let fp = Options {
        rule_set: Some(RuleSet::C07_2024),
        article16: Article16Overrides {
            forfeits_as_played: true,
            ..Default::default()
        },
        ..Options::default()
    };
    assert_eq!(vals(&t, "BH", &fp)[5], Some(q("9.0")));
    assert_eq!(vals(&t, "BH", &fp)[4], Some(q("7.5")));
    assert_eq!(vals(&t, "BH/P", &o2024())[5], Some(q("9.0")));
}

/// Players A=1, B=2, C=3 end on 1.5 points; X=4, Y=5, Z=6 elsewhere.
fn de_event() -> Tournament {
    let mut t = swiss(6, 3);
    t.set_game(1, 1, 2, Win); // A beats B
    t.set_game(1, 3, 6, Win); // C beats Z
    t.set_game(1, 4, 5, Draw);
    t.set_game(2, 2, 3, Win); // B beats C
    t.set_game(2, 1, 4, Loss);
    t.set_game(2, 5, 6, Loss);
    t.set_game(3, 3, 1, Draw); // C draws A
    t.set_game(3, 2, 5, Draw);
    t.set_game(3, 4, 6, Win);
    t.validate().unwrap();
    t
}

#[test]
fn direct_encounter_all_met() {
    // 6.2: A 1.5, B 1, C 0.5 among themselves.
    let t = de_event();
    assert_eq!(
        vals(&t, "PTS", &o2024()),
        expect(&["1.5", "1.5", "1.5", "2.5", "1.0", "1.0"])
    );
    let de = vals(&t, "DE", &o2024());
    assert_eq!(&de[..3], &expect(&["1", "2", "3"])[..]);
    // Y and Z (1.0 each): Z beat Y.
    assert_eq!(&de[4..], &expect(&["2", "1"])[..]);
    let st = standings(&t, &"DE".parse::<TieBreakList>().unwrap().0, &o2024()).unwrap();
    let order: Vec<u32> = st.rows.iter().map(|r| r.id).collect();
    assert_eq!(order, vec![4, 1, 2, 3, 6, 5]);
}

#[test]
fn direct_encounter_not_all_met() {
    // 6.3: A, B, C on 2.0; A beat B and C, who did not meet. Nobody can reach A's 2 points
    // (B and C at most 1 with their missing game): A is first; B and C, repeated among
    // themselves, stay tied.
    let mut t = swiss(6, 3);
    t.set_game(1, 1, 2, Win);
    t.set_game(1, 3, 4, Win);
    t.set_game(1, 5, 6, Draw);
    t.set_game(2, 3, 1, Loss);
    t.set_game(2, 2, 5, Win);
    t.set_game(2, 4, 6, Draw);
    t.set_game(3, 4, 1, Win);
    t.set_game(3, 2, 6, Win);
    t.set_game(3, 3, 5, Win);
    assert_eq!(
        vals(&t, "PTS", &o2024()),
        expect(&["2.0", "2.0", "2.0", "1.5", "0.5", "1.0"])
    );
    assert_eq!(vals(&t, "DE", &o2024())[..3], expect(&["1", "2", "2"])[..]);
    let st = standings(&t, &"DE,TPN".parse::<TieBreakList>().unwrap().0, &o2026()).unwrap();
    let order: Vec<u32> = st.rows.iter().map(|r| r.id).collect();
    assert_eq!(order, vec![1, 2, 3, 4, 6, 5]);
}

#[test]
fn direct_encounter_partial_meetings_and_forfeits() {
    // Three tied on 1.0: A beat B; C met neither (6.3): C could still reach 2 points: no one is
    // alone at the top, nobody is separated.
    let mut t = swiss(6, 2);
    t.set_game(1, 1, 2, Win); // A 1
    t.set_game(1, 3, 4, Win); // C 1
    t.set_game(1, 5, 6, Win);
    t.set_game(2, 1, 5, Loss); // A 1
    t.set_game(2, 2, 6, Win); // B 1
    t.set_game(2, 3, 4, Loss); // C 1
    let pts = vals(&t, "PTS", &o2024());
    assert_eq!(pts[..3], expect(&["1.0", "1.0", "1.0"])[..]);
    let de = vals(&t, "DE", &o2024());
    assert_eq!(de[..3], expect(&["0", "0", "0"])[..]);

    // A forfeit is not an encounter (6.1.1) unless /P.
    let mut f = swiss(4, 2);
    forfeit(&mut f, 1, 1, 2, ForfeitWin, ForfeitLoss);
    f.set_game(1, 3, 4, Win);
    f.set_game(2, 2, 3, Win);
    f.set_game(2, 4, 1, Win);
    // 1: 1.0, 2: 1.0, 3: 1.0, 4: 1.0.
    assert!(
        vals(&f, "PTS", &o2024())
            .iter()
            .all(|v| *v == Some(q("1.0")))
    );
    let de = vals(&f, "DE", &o2024());
    assert!(de.iter().all(|v| *v == Some(q("0"))), "{de:?}");
    // With /P, 1 beat 2, 2 beat 3, 3 beat 4, 4 beat 1: a cycle, 1 point each among all met?
    // Each met two of the three others only, so 6.3 applies: nobody alone at the top.
    let dep = vals(&f, "DE/P", &o2024());
    assert!(dep.iter().all(|v| *v == Some(q("0"))), "{dep:?}");
}

#[test]
fn direct_encounter_averages_repeated_games() {
    // 6.1.2: a double round-robin: 1 won and drew against 2 (average 0.75 vs 0.25).
    let mut t = Tournament::new(4);
    t.pairing = PairingKind::PreDetermined;
    for id in 1..=3 {
        t.players
            .push(Player::new(id, format!("P{id}"), Some(2000)));
    }
    t.set_game(1, 1, 2, Win);
    t.set_bye(1, 3, ZeroBye);
    t.set_game(2, 2, 1, Draw);
    t.set_bye(2, 3, ZeroBye);
    t.set_game(3, 3, 1, Win);
    t.set_bye(3, 2, ZeroBye);
    t.set_game(4, 2, 3, Win);
    t.set_bye(4, 1, ZeroBye);
    // 1: 1.5, 2: 1.5, 3: 1.0.
    assert_eq!(vals(&t, "PTS", &o2024()), expect(&["1.5", "1.5", "1.0"]));
    assert_eq!(vals(&t, "DE", &o2024())[..2], expect(&["1", "2"])[..]);
}

#[test]
fn round_robin_forfeits_art_15() {
    // Four players, three rounds, pre-determined; in round 1 player 1 (Black) does not appear
    // against player 2.
    let mut t = swiss(4, 3);
    t.pairing = PairingKind::PreDetermined;
    forfeit(&mut t, 1, 2, 1, ForfeitWin, ForfeitLoss);
    t.set_game(1, 3, 4, Draw);
    t.set_game(2, 1, 3, Win);
    t.set_game(2, 4, 2, Draw);
    t.set_game(3, 4, 1, Loss);
    t.set_game(3, 2, 3, Win);
    // 2024 (Art. 15): the forfeit is a game: BPG(1) counts it, ARO(1) includes 2's rating.
    assert_eq!(vals(&t, "BPG", &o2024())[0], Some(q("2")));
    assert_eq!(vals(&t, "ARO", &o2024())[0], Some(q("2200")));
    assert_eq!(vals(&t, "WON", &o2024())[1], Some(q("2")));
    // 2026: forfeits stay unplayed for rating-based tie-breaks, forfeit losses for Type B.
    assert_eq!(vals(&t, "BPG", &o2026())[0], Some(q("1")));
    assert_eq!(vals(&t, "ARO", &o2026())[0], Some(q("2150")));
    assert_eq!(vals(&t, "WON", &o2026())[1], Some(q("2")));
    // SB: the forfeit win counts the scheduled opponent's score (1: 2.0 points).
    // 2: forfeit vs 1 (2.0) x 1 + vs 4 (1.0) x 0.5 + vs 3 (0.5) x 1 = 3.0.
    assert_eq!(vals(&t, "SB", &o2026())[1], Some(q("3.0")));
    // Koya (9.2): 50 % of 3 games = 1.5; player 2 scored 1 against player 1 (2.0).
    assert_eq!(vals(&t, "KS", &o2026())[1], Some(q("1.0")));
    // Buchholz in a round-robin is flagged (2026).
    let st = standings(&t, &"BH".parse::<TieBreakList>().unwrap().0, &o2026()).unwrap();
    assert!(st.warnings.iter().any(|w| w.contains("round-robin")));
}

#[test]
fn rtng_and_tpn_orders() {
    let t = mini();
    assert_eq!(vals(&t, "RTNG", &o2026())[0], Some(q("2400")));
    let st = standings(&t, &"RTNG/R".parse::<TieBreakList>().unwrap().0, &o2026()).unwrap();
    // 2 and 6 share 2.5 points: ascending rating puts 6 (1900) first.
    let pos = |id: u32| st.rows.iter().position(|r| r.id == id).unwrap();
    assert!(pos(6) < pos(2));
    let st = standings(&t, &"TPN/R".parse::<TieBreakList>().unwrap().0, &o2026()).unwrap();
    assert!(pos(6) < pos(2));
    let _ = st;
    let st = standings(&t, &"TPN".parse::<TieBreakList>().unwrap().0, &o2026()).unwrap();
    let pos2 = |id: u32| st.rows.iter().position(|r| r.id == id).unwrap();
    assert!(pos2(2) < pos2(6));
}

#[test]
fn unknown_result_codes_do_not_exist_but_unplayed_games_are_robust() {
    // A player with no games at all: rating-based values undefined, counts zero, BH of dummies.
    let mut t = swiss(3, 2);
    t.set_game(1, 1, 2, Win);
    t.set_bye(1, 3, PairingBye);
    t.set_game(2, 2, 1, Draw);
    t.set_bye(2, 3, HalfBye);
    assert_eq!(vals(&t, "PTS", &o2024()), expect(&["1.5", "0.5", "1.5"]));
    let tpr = vals(&t, "TPR", &o2024());
    assert_eq!(tpr[2], None);
    // 3: PAB (1) + HPB (0.5) = 1.5; two dummies of 1.5 each (2024).
    assert_eq!(vals(&t, "BH", &o2024())[2], Some(q("3.0")));
    // 2026: PAB and HPB dummies capped at 0.5 x 2 = 1.0.
    assert_eq!(vals(&t, "BH", &o2026())[2], Some(q("2.0")));
    // Undefined values rank after every defined one (1 and 3 share 1.5 points).
    let st = standings(&t, &"TPR".parse::<TieBreakList>().unwrap().0, &o2024()).unwrap();
    assert_eq!(st.rows[0].id, 1);
    assert_eq!(
        (st.rows[1].id, st.rows[1].values[0], st.rows[1].rank),
        (3, None, 2)
    );
}

#[test]
fn results_without_unrated_code_distinction() {
    // W / D / L codes (games of less than one move) are played games for every tie-break.
    let mut t = swiss(2, 1);
    t.set_game(1, 1, 2, WinUnrated);
    assert_eq!(vals(&t, "WON", &o2024()), expect(&["1", "0"]));
    assert_eq!(vals(&t, "BPG", &o2024()), expect(&["0", "1"]));
    let _ = ResultCode::LossUnrated;
}

#[test]
fn legacy_few_games_rank_last() {
    // Seed 001 (all-rated Swiss): ARO of a player with no more than N games played ranks below
    // every player with more games. Players 2 and 6 share 2.5 points; 6 (3 games, ARO 2300)
    // is ahead of 2 (4 games, ARO 2100) unless the rule applies with N = 3.
    let t = mini();
    let list: TieBreakList = "ARO".parse().unwrap();
    let order = |o: &Options| -> Vec<u32> {
        standings(&t, &list.0, o)
            .unwrap()
            .rows
            .iter()
            .map(|r| r.id)
            .collect()
    };
    assert_eq!(order(&legacy()), vec![1, 6, 2, 3, 5, 4]);
    let few = Options {
        few_games_rank_last: Some(3),
        ..legacy()
    };
    assert_eq!(order(&few), vec![1, 2, 6, 3, 5, 4]);
    // Not a C.07 rule: ignored under the C.07 rule sets.
    let c07 = Options {
        few_games_rank_last: Some(3),
        ..o2024()
    };
    assert_eq!(order(&c07), vec![1, 6, 2, 3, 5, 4]);
}
