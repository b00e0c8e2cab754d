//! Properties over random Swiss-like tournaments (random pairings, results, forfeits, byes and
//! withdrawals).

mod common;

use arbiter_core::{Color, PointSystem, ResultCode, RoundEntry};
use arbiter_tiebreak::{
    Options, Player, Rational, RuleSet, TieBreak, TieBreakList, Tournament, standings,
    tiebreak_values,
};
use proptest::prelude::*;

/// What happens to one player in one round before pairing: present, or a requested bye.
fn absence(code: u8) -> Option<ResultCode> {
    match code % 12 {
        0 => Some(ResultCode::HalfBye),
        1 => Some(ResultCode::ZeroBye),
        _ => None,
    }
}

fn game_result(code: u8) -> (ResultCode, ResultCode) {
    match code % 10 {
        0..=2 => (ResultCode::Win, ResultCode::Loss),
        3..=5 => (ResultCode::Draw, ResultCode::Draw),
        6..=7 => (ResultCode::Loss, ResultCode::Win),
        8 => (ResultCode::ForfeitWin, ResultCode::ForfeitLoss),
        _ => (ResultCode::ForfeitLoss, ResultCode::ForfeitLoss),
    }
}

/// Builds a tournament from random draws: per round a random order of the present players
/// (paired in that order), the odd one out gets a pairing-allocated or full-point bye.
fn build(n: u32, rounds: Vec<(Vec<u8>, Vec<u8>, Vec<u8>)>, ratings: Vec<u16>) -> Tournament {
    let mut t = Tournament::new(rounds.len() as u32);
    for id in 1..=n {
        t.players.push(Player::new(
            id,
            format!("P{id}"),
            Some(1500 + ratings[id as usize - 1] as u32),
        ));
    }
    for (r, (absent, order, results)) in rounds.iter().enumerate() {
        let r = r as u32 + 1;
        let mut present = Vec::new();
        for id in 1..=n {
            match absence(absent[id as usize - 1]) {
                Some(code) => t.set_bye(r, id, code),
                None => present.push(id),
            }
        }
        present.sort_by_key(|id| (order[*id as usize - 1], *id));
        if present.len() % 2 == 1 {
            let last = present.pop().unwrap();
            let kind = if results[last as usize - 1] % 7 == 0 {
                ResultCode::FullBye
            } else {
                ResultCode::PairingBye
            };
            t.set_bye(r, last, kind);
        }
        for pair in present.chunks(2) {
            let (w, b) = (pair[0], pair[1]);
            let (rw, rb) = game_result(results[w as usize - 1]);
            t.set_entry(r, w, RoundEntry::game(b, Color::White, rw));
            t.set_entry(r, b, RoundEntry::game(w, Color::Black, rb));
        }
    }
    t
}

fn tournament() -> impl Strategy<Value = Tournament> {
    (2u32..10, 1usize..7).prop_flat_map(|(n, r)| {
        let round = (
            prop::collection::vec(any::<u8>(), n as usize),
            prop::collection::vec(any::<u8>(), n as usize),
            prop::collection::vec(any::<u8>(), n as usize),
        );
        (
            Just(n),
            prop::collection::vec(round, r),
            prop::collection::vec(0u16..1000, n as usize),
        )
            .prop_map(|(n, rounds, ratings)| build(n, rounds, ratings))
    })
}

fn opts(r: RuleSet) -> Options {
    Options {
        rule_set: Some(r),
        ..Options::default()
    }
}

fn values(t: &Tournament, d: &str, o: &Options) -> Vec<Option<Rational>> {
    let tb: TieBreak = d.parse().unwrap();
    tiebreak_values(t, &tb, o)
        .unwrap()
        .into_iter()
        .map(|(_, v)| v)
        .collect()
}

fn tenths(v: i32) -> Rational {
    Rational::from_tenths(v as i64)
}

/// The adjusted score of C.07 16.3, written independently from the definition of the
/// categories: a requested bye (H, Z) after which every round is a VUR (H, Z, forfeit loss)
/// counts as a draw.
fn adjusted_by_definition(t: &Tournament, p: &Player) -> Rational {
    let ps = t.point_system;
    let vur = |e: &RoundEntry| {
        matches!(
            e.result,
            ResultCode::HalfBye | ResultCode::ZeroBye | ResultCode::ForfeitLoss
        )
    };
    let mut total = Rational::ZERO;
    for r in 1..=t.rounds {
        let e = p.entry(r);
        let requested =
            e.opponent.is_none() && matches!(e.result, ResultCode::HalfBye | ResultCode::ZeroBye);
        let only_vurs_after = (r + 1..=t.rounds).all(|k| vur(&p.entry(k)));
        total += if requested && only_vurs_after {
            tenths(ps.draw.tenths())
        } else {
            tenths(ps.points(e.result).tenths())
        };
    }
    total
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn buchholz_is_the_sum_of_opponents_adjusted_scores(t in tournament()) {
        prop_assert!(t.validate().is_ok());
        let bh = values(&t, "BH", &opts(RuleSet::C07_2024));
        for (i, p) in t.players.iter().enumerate() {
            let own = tenths(p.score(&t.point_system, t.rounds).tenths());
            let mut expected = Rational::ZERO;
            for r in 1..=t.rounds {
                let e = p.entry(r);
                expected += if e.is_played_game() {
                    adjusted_by_definition(&t, t.player(e.opponent.unwrap()).unwrap())
                } else {
                    own // 16.4: the dummy opponent has the player's own score (2024)
                };
            }
            prop_assert_eq!(bh[i], Some(expected), "player {}", p.id);
        }
    }

    #[test]
    fn cuts_never_increase_a_value(t in tournament()) {
        for rules in [RuleSet::C07_2024, RuleSet::C07_2026, RuleSet::Legacy2009] {
            let o = opts(rules);
            let bh = values(&t, "BH", &o);
            let c1 = values(&t, "BH/C1", &o);
            let c2 = values(&t, "BH/C2", &o);
            let m1 = values(&t, "BH/M1", &o);
            let sb = values(&t, "SB", &o);
            let sb1 = values(&t, "SB/C1", &o);
            let ps = values(&t, "PS", &o);
            let ps1 = values(&t, "PS/C1", &o);
            for i in 0..t.players.len() {
                prop_assert!(c1[i] <= bh[i]);
                prop_assert!(c2[i] <= c1[i]);
                prop_assert!(m1[i] <= c1[i]);
                prop_assert!(sb1[i] <= sb[i]);
                prop_assert!(ps1[i] <= ps[i]);
                // With 1 / ½ / 0 every SB factor is at most 1.
                prop_assert!(sb[i] <= bh[i]);
            }
        }
    }

    #[test]
    fn the_2026_caps_only_lower_values(t in tournament()) {
        let (a, b) = (opts(RuleSet::C07_2024), opts(RuleSet::C07_2026));
        for d in ["BH", "SB", "FB"] {
            let x = values(&t, d, &a);
            let y = values(&t, d, &b);
            for i in 0..t.players.len() {
                prop_assert!(y[i] <= x[i], "{} of player {}", d, i + 1);
            }
        }
    }

    #[test]
    fn counts_are_consistent(t in tournament()) {
        let o = opts(RuleSet::C07_2026);
        let win = values(&t, "WIN", &o);
        let won = values(&t, "WON", &o);
        let bpg = values(&t, "BPG", &o);
        let bwg = values(&t, "BWG", &o);
        let rep = values(&t, "REP", &o);
        for (i, p) in t.players.iter().enumerate() {
            let played = (1..=t.rounds).filter(|&r| p.entry(r).is_played_game()).count() as i64;
            prop_assert!(won[i] <= win[i]);
            prop_assert!(bwg[i] <= bpg[i] && bwg[i] <= won[i]);
            prop_assert!(bpg[i] <= Some(Rational::from_int(played)));
            prop_assert!(rep[i] <= Some(Rational::from_int(t.rounds as i64)));
            prop_assert!(rep[i] >= Some(Rational::from_int(played)));
        }
    }

    #[test]
    fn shared_places_are_symmetric(t in tournament()) {
        let list: TieBreakList = "BH/C1,BH,SB,DE,WIN".parse().unwrap();
        let st = standings(&t, &list.0, &Options::default()).unwrap();
        for a in &st.rows {
            let sharing = st.rows.iter().filter(|b| b.rank == a.rank).count() as u32;
            prop_assert_eq!(a.rank_to - a.rank + 1, sharing);
            for b in &st.rows {
                let equal = a.points == b.points && a.values == b.values;
                prop_assert_eq!(a.rank == b.rank, equal, "{} vs {}", a.id, b.id);
            }
        }
        for w in st.rows.windows(2) {
            prop_assert!(w[0].points >= w[1].points);
            prop_assert!(w[0].rank <= w[1].rank);
            prop_assert!(w[0].score_group.0 <= w[1].score_group.0);
        }
    }

    #[test]
    fn standings_do_not_depend_on_the_order_of_the_players(t in tournament()) {
        let list: TieBreakList = "BH/C1,BH,SB,PS,DE,WIN,BPG,ARO,TPR".parse().unwrap();
        let a = standings(&t, &list.0, &Options::default()).unwrap();
        let mut r = t.clone();
        r.players.reverse();
        let b = standings(&r, &list.0, &Options::default()).unwrap();
        prop_assert_eq!(a, b);
    }

    #[test]
    fn scores_scale_with_the_point_system(t in tournament()) {
        // Doubling every point value doubles BH and PS and quadruples SB.
        let mut d = t.clone();
        let ps = t.point_system;
        let twice = |s: arbiter_core::Score| arbiter_core::Score(s.0 * 2);
        d.point_system = PointSystem {
            win: twice(ps.win), draw: twice(ps.draw), loss: twice(ps.loss), forfeit_win: twice(ps.forfeit_win),
            forfeit_loss: twice(ps.forfeit_loss), zero_bye: twice(ps.zero_bye), half_bye: twice(ps.half_bye),
            full_bye: twice(ps.full_bye), pairing_bye: twice(ps.pairing_bye),
        };
        let o = opts(RuleSet::C07_2026);
        let two = Rational::from_int(2);
        for (dsc, k) in [("BH", two), ("BH/C1", two), ("PS", two), ("SB", two * two), ("KS", two)] {
            let x = values(&t, dsc, &o);
            let y = values(&d, dsc, &o);
            for i in 0..t.players.len() {
                prop_assert_eq!(y[i], x[i].map(|v| v * k), "{}", dsc);
            }
        }
    }

    #[test]
    fn descriptors_round_trip(idx in 0usize..12, cut in 0u8..3, p in any::<bool>()) {
        let names = ["BH", "FB", "SB", "PS", "ARO", "EMMSB", "EGGSB", "DE", "EDE", "SSSC", "KS", "WIN"];
        let mut text = names[idx].to_string();
        if cut > 0 && ["BH", "FB", "SB", "PS", "ARO", "EMMSB", "EGGSB"].contains(&names[idx]) {
            text.push_str(&format!("/C{cut}"));
        }
        if p && ["BH", "FB", "SB", "EMMSB", "EGGSB", "DE", "EDE", "SSSC"].contains(&names[idx]) {
            text.push_str("/P");
        }
        let tb: TieBreak = text.parse().unwrap();
        prop_assert_eq!(tb.to_string(), text.clone());
        prop_assert_eq!(tb.to_string().parse::<TieBreak>().unwrap(), tb);
        prop_assert_eq!(text.to_lowercase().parse::<TieBreak>().unwrap(), tb);
    }
}

proptest! {
    #[test]
    fn descriptor_lists_never_panic(s in "\\PC{0,40}") {
        let _ = s.parse::<TieBreakList>();
    }

    #[test]
    fn descriptor_like_text_never_panics(s in "[A-Za-z_:/+\\-0-9, é]{0,30}") {
        if let Ok(l) = s.parse::<TieBreakList>() {
            // Whatever was accepted is written back in a form that reads the same.
            prop_assert_eq!(l.to_string().parse::<TieBreakList>().unwrap(), l);
        }
    }
}

#[test]
fn empty_and_roundless_tournaments() {
    let list: TieBreakList = "BH/C1,BH,SB,PS,DE,WIN,BPG,ARO,TPR,PTP,APRO,AOB,FB,KS"
        .parse()
        .unwrap();
    let empty = Tournament::new(0);
    let st = standings(&empty, &list.0, &Options::default()).unwrap();
    assert!(st.rows.is_empty());
    let mut one = Tournament::new(0);
    one.players.push(Player::new(1, "Solo", None));
    let st = standings(&one, &list.0, &Options::default()).unwrap();
    assert_eq!((st.rows[0].rank, st.rows[0].rank_to), (1, 1));
    for f in [
        arbiter_tiebreak::Format::Text,
        arbiter_tiebreak::Format::Csv,
        arbiter_tiebreak::Format::Json,
    ] {
        assert!(!arbiter_tiebreak::render(&st, f).is_empty());
    }
}
