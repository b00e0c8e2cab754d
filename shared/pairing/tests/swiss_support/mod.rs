//! Shared by the Dubov, Burstein and Lim tests: building histories by hand, simulated
//! tournaments played through an engine, an independent check of the absolute criteria of
//! C.04.1, and deliberately broken rounds for the checker.
#![allow(dead_code)]

use arbiter_core::{Color, PlayerId, PointSystem, ResultCode, RoundEntry};
use arbiter_pairing::{
    Board, PairingError, PairingInput, PlayerInput, RecordPlayer, RecordedPairing, RuleSet,
    TournamentRecord, Verdict, compare, pair,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;

/// A tournament written round by round in tests.
pub struct Builder {
    pub players: Vec<RecordPlayer>,
    pub total_rounds: u32,
}

impl Builder {
    pub fn new(ratings: &[u16], total_rounds: u32) -> Builder {
        Builder {
            players: ratings
                .iter()
                .enumerate()
                .map(|(i, &r)| RecordPlayer {
                    id: i as u32 + 1,
                    rating: r,
                    rounds: Vec::new(),
                    acceleration: Vec::new(),
                })
                .collect(),
            total_rounds,
        }
    }

    fn entry(&mut self, id: PlayerId, round: u32, e: RoundEntry) {
        let p = &mut self.players[(id - 1) as usize];
        let i = (round - 1) as usize;
        if p.rounds.len() <= i {
            p.rounds.resize(i + 1, None);
        }
        p.rounds[i] = Some(e);
    }

    /// A played game of `round`: `white` scores `result` (Win, Draw or Loss).
    pub fn game(&mut self, round: u32, white: PlayerId, black: PlayerId, result: ResultCode) {
        let back = result.mirrored().expect("a game result");
        self.entry(white, round, RoundEntry::game(black, Color::White, result));
        self.entry(black, round, RoundEntry::game(white, Color::Black, back));
    }

    pub fn bye(&mut self, round: u32, id: PlayerId, result: ResultCode) {
        self.entry(id, round, RoundEntry::bye(result));
    }

    pub fn record(&self) -> TournamentRecord {
        TournamentRecord {
            players: self.players.clone(),
            points: PointSystem::default(),
            total_rounds: self.total_rounds,
            initial_color: Some(Color::White),
            absent_next: BTreeSet::new(),
            forbidden_pairs: Vec::new(),
        }
    }

    /// The input for `round`, with only `playing` to be paired (all when empty).
    pub fn input(&self, round: u32, rule_set: RuleSet, playing: &[PlayerId]) -> PairingInput {
        let mut t = self.record();
        for p in &mut t.players {
            p.rounds.resize((round - 1) as usize, None);
            for e in p.rounds.iter_mut() {
                e.get_or_insert(RoundEntry::bye(ResultCode::ZeroBye));
            }
        }
        let mut input = t.input_for_round(round, rule_set).expect("input");
        if !playing.is_empty() {
            for p in &mut input.players {
                p.available = playing.contains(&p.id);
            }
        }
        input
    }
}

/// The pairs of a round as unordered (low, high) couples.
pub fn pairs(boards: &[Board]) -> BTreeSet<(PlayerId, PlayerId)> {
    boards
        .iter()
        .map(|b| (b.white.min(b.black), b.white.max(b.black)))
        .collect()
}

/// Played colours of a player's history, oldest first.
fn played_colours(h: &[RoundEntry]) -> Vec<Color> {
    h.iter()
        .filter(|e| e.is_played_game())
        .filter_map(|e| e.color)
        .collect()
}

/// Every absolute criterion of C.04.1 a round's pairing must keep, checked from the input
/// alone: everyone available paired once, no rematch (b), the bye only with an odd field
/// and not to a player with an earlier PAB or forfeit win (c, d) (or, `any_unplayed`, with
/// any earlier point without playing: Burstein §4.1), colour difference within 2 (f) and no
/// colour three times in a row (g) unless `colour_limits` is false (Lim's last round).
pub fn absolute_breach(
    input: &PairingInput,
    boards: &[Board],
    bye: Option<PlayerId>,
    colour_limits: bool,
    any_unplayed: bool,
) -> Option<String> {
    let avail: BTreeSet<PlayerId> = input
        .players
        .iter()
        .filter(|p| p.available)
        .map(|p| p.id)
        .collect();
    let mut seen = BTreeSet::new();
    for b in boards {
        for x in [b.white, b.black] {
            if !avail.contains(&x) || !seen.insert(x) {
                return Some(format!("player {x} not available or paired twice"));
            }
        }
    }
    if let Some(x) = bye
        && !seen.insert(x)
    {
        return Some(format!("bye player {x} also paired"));
    }
    if seen != avail {
        return Some("someone available is not paired".into());
    }
    if bye.is_some() != (avail.len() % 2 == 1) {
        return Some("bye count does not match the field's parity".into());
    }
    let find = |id: PlayerId| input.players.iter().find(|p| p.id == id).expect("player");
    for b in boards {
        let w = find(b.white);
        if w.history
            .iter()
            .any(|e| e.is_played_game() && e.opponent == Some(b.black))
        {
            return Some(format!("rematch {} - {}", b.white, b.black));
        }
        if input
            .forbidden_pairs
            .iter()
            .any(|&(x, y)| (x, y) == (b.white, b.black) || (y, x) == (b.white, b.black))
        {
            return Some(format!("forbidden pair {} - {}", b.white, b.black));
        }
        if colour_limits {
            for (id, c) in [(b.white, Color::White), (b.black, Color::Black)] {
                let mut cs = played_colours(&find(id).history);
                cs.push(c);
                let cd: i32 = cs
                    .iter()
                    .map(|c| if *c == Color::White { 1 } else { -1 })
                    .sum();
                if cd.abs() > 2 {
                    return Some(format!("player {id}: colour difference {cd}"));
                }
                let n = cs.len();
                if n >= 3 && cs[n - 1] == cs[n - 2] && cs[n - 2] == cs[n - 3] {
                    return Some(format!("player {id}: same colour three times"));
                }
            }
        }
    }
    if let Some(x) = bye {
        let h = &find(x).history;
        let blocked = h.iter().any(|e| {
            matches!(e.result, ResultCode::PairingBye | ResultCode::ForfeitWin)
                || (any_unplayed
                    && !e.is_played_game()
                    && input.points.points(e.result).tenths() > 0)
        });
        if blocked {
            return Some(format!("player {x} gets a second point without playing"));
        }
    }
    None
}

/// Whether `board` breaks C.04.1.f or g for one of its players.
pub fn colour_breach(input: &PairingInput, board: Board) -> bool {
    [(board.white, Color::White), (board.black, Color::Black)]
        .iter()
        .any(|&(id, c)| {
            let mut cs = played_colours(
                &input
                    .players
                    .iter()
                    .find(|p| p.id == id)
                    .expect("player")
                    .history,
            );
            cs.push(c);
            let cd: i32 = cs
                .iter()
                .map(|c| if *c == Color::White { 1 } else { -1 })
                .sum();
            let n = cs.len();
            cd.abs() > 2 || (n >= 3 && cs[n - 1] == cs[n - 2] && cs[n - 2] == cs[n - 3])
        })
}

/// The players to pair, by pairing number.
pub fn available(input: &PairingInput) -> Vec<PlayerId> {
    input
        .players
        .iter()
        .filter(|p| p.available)
        .map(|p| p.id)
        .collect()
}

/// `a` and `b` may meet: not met in a played game, not a forbidden pair, and some colour
/// allocation within C.04.1.f/g (when `colour_limits`).
pub fn may_meet(input: &PairingInput, a: PlayerId, b: PlayerId, colour_limits: bool) -> bool {
    let find = |id: PlayerId| input.players.iter().find(|p| p.id == id).expect("player");
    let met = find(a)
        .history
        .iter()
        .any(|e| e.is_played_game() && e.opponent == Some(b))
        || input
            .forbidden_pairs
            .iter()
            .any(|&(x, y)| (x, y) == (a, b) || (y, x) == (a, b));
    !met && [Board { white: a, black: b }, Board { white: b, black: a }]
        .iter()
        .any(|&board| !colour_limits || !colour_breach(input, board))
}

/// `x` may have the bye: no earlier PAB or forfeit win (C.04.1.d), nor, with `any_unplayed`,
/// any point without playing (Burstein §4.1).
pub fn may_have_bye(input: &PairingInput, x: PlayerId, any_unplayed: bool) -> bool {
    let h = &input
        .players
        .iter()
        .find(|p| p.id == x)
        .expect("player")
        .history;
    !h.iter().any(|e| {
        matches!(e.result, ResultCode::PairingBye | ResultCode::ForfeitWin)
            || (any_unplayed && !e.is_played_game() && input.points.points(e.result).tenths() > 0)
    })
}

/// Whether any pairing of the round keeps the absolute criteria: an exhaustive search over
/// subsets of the field (memoised on the set of players left), independent of the engines.
pub fn some_valid_pairing_exists(
    input: &PairingInput,
    colour_limits: bool,
    any_unplayed: bool,
) -> bool {
    let ids = available(input);
    let n = ids.len();
    assert!(n <= 24, "exhaustive search is for small fields");
    let ok_pair = |a: PlayerId, b: PlayerId| may_meet(input, a, b, colour_limits);
    let ok_bye = |x: PlayerId| may_have_bye(input, x, any_unplayed);
    let mut compat = vec![vec![false; n]; n];
    for i in 0..n {
        for j in 0..n {
            compat[i][j] = i != j && ok_pair(ids[i], ids[j]);
        }
    }
    let bye_ok: Vec<bool> = ids.iter().map(|&x| ok_bye(x)).collect();
    fn go(
        mask: u32,
        bye_left: bool,
        n: usize,
        c: &[Vec<bool>],
        b: &[bool],
        memo: &mut std::collections::HashMap<(u32, bool), bool>,
    ) -> bool {
        if mask == 0 {
            return true;
        }
        if let Some(&v) = memo.get(&(mask, bye_left)) {
            return v;
        }
        let i = mask.trailing_zeros() as usize;
        let rest = mask & !(1 << i);
        let mut v = bye_left && b[i] && go(rest, false, n, c, b, memo);
        for j in 0..n {
            if v {
                break;
            }
            if rest & (1 << j) != 0 && c[i][j] {
                v = go(rest & !(1 << j), bye_left, n, c, b, memo);
            }
        }
        memo.insert((mask, bye_left), v);
        v
    }
    let all = if n == 0 { 0 } else { (1u32 << n) - 1 };
    go(
        all,
        n % 2 == 1,
        n,
        &compat,
        &bye_ok,
        &mut std::collections::HashMap::new(),
    )
}

/// One simulated tournament's parameters, drawn from the seed.
pub struct Sim {
    pub seed: u64,
    pub players: u32,
    pub rounds: u32,
}

impl Sim {
    pub fn from_seed(seed: u64) -> Sim {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let players = rng.random_range(4..=13);
        let rounds = rng.random_range(3..=(players - 1).clamp(3, 9));
        Sim {
            seed,
            players,
            rounds,
        }
    }
}

/// What a simulated tournament found.
pub struct SimOutcome {
    pub rounds_paired: u32,
    pub breaches: Vec<String>,
}

/// Plays a tournament round by round through `rule_set`: random ratings, results weighted
/// by rating, some half-point byes, forfeits and withdrawals. Every round's pairing is
/// checked against the absolute criteria; when the engine finds no pairing, the test
/// checks by exhaustive search that none exists, and the tournament stops there.
pub fn simulate(
    sim: &Sim,
    rule_set: RuleSet,
    limits_in_last_round: bool,
    any_unplayed: bool,
) -> SimOutcome {
    let mut rng = ChaCha8Rng::seed_from_u64(sim.seed);
    let mut ratings: Vec<u16> = (0..sim.players)
        .map(|_| rng.random_range(1200..2700))
        .collect();
    ratings.sort_unstable_by(|a, b| b.cmp(a));
    let mut t = Builder::new(&ratings, sim.rounds);
    let withdrawn: Option<(PlayerId, u32)> = rng.random_bool(0.2).then(|| {
        (
            rng.random_range(1..=sim.players),
            rng.random_range(2..=sim.rounds),
        )
    });
    let mut out = SimOutcome {
        rounds_paired: 0,
        breaches: Vec::new(),
    };
    for r in 1..=sim.rounds {
        let mut playing = Vec::new();
        for id in 1..=sim.players {
            if withdrawn.is_some_and(|(w, from)| w == id && r >= from) {
                t.bye(r, id, ResultCode::ZeroBye);
            } else if r < sim.rounds && rng.random_range(0..100) < 4 {
                t.bye(r, id, ResultCode::HalfBye);
            } else {
                playing.push(id);
            }
        }
        let input = t.input(r, rule_set, &playing);
        let last = r == sim.rounds;
        let colour_limits = !(last && !limits_in_last_round);
        match pair(&input) {
            Ok(p) => {
                if let Some(m) =
                    absolute_breach(&input, &p.boards, p.bye, colour_limits, any_unplayed)
                {
                    out.breaches
                        .push(format!("seed {} round {r}: {m}", sim.seed));
                    return out;
                }
                out.rounds_paired += 1;
                for b in &p.boards {
                    let (rw, rb) = if rng.random_range(0..100) < 3 {
                        (ResultCode::ForfeitWin, ResultCode::ForfeitLoss)
                    } else {
                        let d = ratings[(b.white - 1) as usize] as i32
                            - ratings[(b.black - 1) as usize] as i32;
                        let x = rng.random_range(0..1000);
                        let win = (450 + d / 2).clamp(50, 900);
                        if x < win {
                            (ResultCode::Win, ResultCode::Loss)
                        } else if x < win + 250 {
                            (ResultCode::Draw, ResultCode::Draw)
                        } else {
                            (ResultCode::Loss, ResultCode::Win)
                        }
                    };
                    let w = RoundEntry::game(b.black, Color::White, rw);
                    let k = RoundEntry::game(b.white, Color::Black, rb);
                    t.players[(b.white - 1) as usize]
                        .rounds
                        .resize(r as usize, None);
                    t.players[(b.black - 1) as usize]
                        .rounds
                        .resize(r as usize, None);
                    t.players[(b.white - 1) as usize].rounds[(r - 1) as usize] = Some(w);
                    t.players[(b.black - 1) as usize].rounds[(r - 1) as usize] = Some(k);
                }
                if let Some(x) = p.bye {
                    t.bye(r, x, ResultCode::PairingBye);
                }
            }
            Err(PairingError::NoValidPairing(_)) => {
                if some_valid_pairing_exists(&input, colour_limits, any_unplayed) {
                    out.breaches.push(format!(
                        "seed {} round {r}: the engine found no pairing but one exists",
                        sim.seed
                    ));
                }
                return out;
            }
            Err(e) => {
                out.breaches
                    .push(format!("seed {} round {r}: {e}", sim.seed));
                return out;
            }
        }
    }
    out
}

/// Runs `count` simulated tournaments and asserts no breach; returns the rounds paired.
pub fn property(
    rule_set: RuleSet,
    count: u64,
    limits_in_last_round: bool,
    any_unplayed: bool,
) -> u32 {
    let mut breaches = Vec::new();
    let mut rounds = 0;
    for seed in 0..count {
        let o = simulate(
            &Sim::from_seed(seed),
            rule_set,
            limits_in_last_round,
            any_unplayed,
        );
        rounds += o.rounds_paired;
        breaches.extend(o.breaches);
    }
    eprintln!("{rule_set}: {rounds} rounds paired in {count} simulated tournaments");
    assert!(
        breaches.is_empty(),
        "{} breaches: {:#?}",
        breaches.len(),
        &breaches[..breaches.len().min(10)]
    );
    rounds
}

/// A played tournament (through `rule_set`) and the input of its next round, for the
/// checker tests: seeds are tried until the next round's pairing has at least `boards`
/// boards.
pub fn played(
    rule_set: RuleSet,
    seed: u64,
    players: u32,
    rounds_played: u32,
) -> (Builder, PairingInput) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut ratings: Vec<u16> = (0..players).map(|_| rng.random_range(1400..2600)).collect();
    ratings.sort_unstable_by(|a, b| b.cmp(a));
    let mut t = Builder::new(&ratings, rounds_played + 2);
    for r in 1..=rounds_played {
        let input = t.input(r, rule_set, &[]);
        let p = pair(&input).expect("pairing");
        for b in &p.boards {
            let res = match rng.random_range(0..3) {
                0 => ResultCode::Win,
                1 => ResultCode::Draw,
                _ => ResultCode::Loss,
            };
            t.game(r, b.white, b.black, res);
        }
        if let Some(x) = p.bye {
            t.bye(r, x, ResultCode::PairingBye);
        }
    }
    let input = t.input(rounds_played + 1, rule_set, &[]);
    (t, input)
}

/// The verdict of the checker on `other`.
pub fn verdict(input: &PairingInput, other: &RecordedPairing) -> Verdict {
    compare(input, other).expect("compare").verdict
}

/// Exchanges the opponents of two boards: (a-b, c-d) becomes (a-d, c-b), if both new pairs
/// have not met; the first such exchange in board order.
pub fn exchanged(
    input: &PairingInput,
    boards: &[Board],
    bye: Option<PlayerId>,
) -> Option<Vec<Board>> {
    let met = |x: PlayerId, y: PlayerId| {
        input
            .players
            .iter()
            .find(|p| p.id == x)
            .expect("player")
            .history
            .iter()
            .any(|e| e.is_played_game() && e.opponent == Some(y))
    };
    for i in 0..boards.len() {
        for j in i + 1..boards.len() {
            let (a, b) = (boards[i].white, boards[i].black);
            let (c, d) = (boards[j].white, boards[j].black);
            if !met(a, d) && !met(c, b) {
                let mut out = boards.to_vec();
                out[i] = Board { white: a, black: d };
                out[j] = Board { white: c, black: b };
                if absolute_breach(input, &out, bye, true, false).is_none() {
                    return Some(out);
                }
            }
        }
    }
    None
}

pub fn record_of(boards: Vec<Board>, bye: Option<PlayerId>) -> RecordedPairing {
    RecordedPairing { boards, bye }
}

pub fn input_players(input: &PairingInput) -> Vec<&PlayerInput> {
    input.players.iter().collect()
}

/// Deliberately broken rounds of tournaments played through `rule_set`: exchanged
/// opponents, a rematch, a colour violation, a second bye, a missing board. The checker must
/// name each: the rematch and bye by the given rules, the colour violation by C.04.1.f/g,
/// exchanged opponents by one of `pairing_rules`.
pub fn checker_suite(
    rule_set: RuleSet,
    rematch_rule: &str,
    bye_rule: &str,
    pairing_rules: &[&str],
) {
    let mut named = [0usize; 5];
    for seed in 0..60u64 {
        let players = 8 + (seed % 7) as u32;
        let (_, input) = played(rule_set, seed, players, 3);
        let p = pair(&input).expect("pairing");
        assert_eq!(
            verdict(&input, &record_of(p.boards.clone(), p.bye)),
            Verdict::Identical
        );
        if let Some(x) = exchanged(&input, &p.boards, p.bye) {
            match verdict(&input, &record_of(x, p.bye)) {
                Verdict::Criterion { rule, meaning, .. } => {
                    assert!(
                        pairing_rules.contains(&rule.as_str()),
                        "seed {seed}: {rule}: {meaning}"
                    );
                    named[0] += 1;
                }
                v => panic!("seed {seed}: exchanged opponents not named: {v}"),
            }
        }
        if let Some(x) = rematch(&input, &p.boards) {
            match verdict(&input, &record_of(x, p.bye)) {
                Verdict::Absolute { rule, .. } => {
                    assert_eq!(rule, rematch_rule);
                    named[1] += 1;
                }
                v => panic!("seed {seed}: rematch not named: {v}"),
            }
        }
        if let Some(x) = colour_violation(&input, &p.boards) {
            match verdict(&input, &record_of(x, p.bye)) {
                Verdict::Absolute { rule, .. } => {
                    assert!(
                        rule.starts_with("C.04.1.f") || rule.starts_with("C.04.1.g"),
                        "{rule}"
                    );
                    named[2] += 1;
                }
                v => panic!("seed {seed}: colour violation not named: {v}"),
            }
        }
        if let Some((x, bye)) = second_bye(&input, &p.boards, p.bye) {
            match verdict(&input, &record_of(x, Some(bye))) {
                Verdict::Absolute { rule, .. } => {
                    assert_eq!(rule, bye_rule);
                    named[3] += 1;
                }
                v => panic!("seed {seed}: second bye not named: {v}"),
            }
        }
        let mut short = p.boards.clone();
        short.pop();
        match verdict(&input, &record_of(short, p.bye)) {
            Verdict::NotAPairing { .. } => named[4] += 1,
            v => panic!("seed {seed}: a missing board not found: {v}"),
        }
    }
    assert!(
        named.iter().all(|&n| n >= 10),
        "too few broken rounds of some kind: {named:?}"
    );
}

/// Replaces two boards so that a player meets an earlier opponent.
pub fn rematch(input: &PairingInput, boards: &[Board]) -> Option<Vec<Board>> {
    for i in 0..boards.len() {
        let a = boards[i].white;
        let pa = input.players.iter().find(|p| p.id == a)?;
        for e in pa.history.iter().filter(|e| e.is_played_game()) {
            let o = e.opponent?;
            if let Some(j) = boards.iter().position(|b| b.white == o || b.black == o)
                && j != i
            {
                let other_j = if boards[j].white == o {
                    boards[j].black
                } else {
                    boards[j].white
                };
                let mut x = boards.to_vec();
                x[i] = Board { white: a, black: o };
                x[j] = Board {
                    white: boards[i].black,
                    black: other_j,
                };
                return Some(x);
            }
        }
    }
    None
}

/// Reverses the colours of a board where one player cannot take the reversed colour.
pub fn colour_violation(input: &PairingInput, boards: &[Board]) -> Option<Vec<Board>> {
    for (i, b) in boards.iter().enumerate() {
        let rev = Board {
            white: b.black,
            black: b.white,
        };
        if colour_breach(input, rev) {
            let mut x = boards.to_vec();
            x[i] = rev;
            return Some(x);
        }
    }
    None
}

/// Gives the bye to a player who already received a pairing-allocated bye (odd fields).
pub fn second_bye(
    input: &PairingInput,
    boards: &[Board],
    bye: Option<u32>,
) -> Option<(Vec<Board>, u32)> {
    let bye = bye?;
    for (i, b) in boards.iter().enumerate() {
        for (x, y) in [(b.white, b.black), (b.black, b.white)] {
            let had = input
                .players
                .iter()
                .find(|p| p.id == x)?
                .history
                .iter()
                .any(|e| e.result == ResultCode::PairingBye);
            let met = input
                .players
                .iter()
                .find(|p| p.id == bye)?
                .history
                .iter()
                .any(|e| e.is_played_game() && e.opponent == Some(y));
            if had && !met {
                let colour_ok = |b: Board| !colour_breach(input, b);
                let Some(nb) = [
                    Board {
                        white: bye,
                        black: y,
                    },
                    Board {
                        white: y,
                        black: bye,
                    },
                ]
                .into_iter()
                .find(|&b| colour_ok(b)) else {
                    continue;
                };
                let mut v = boards.to_vec();
                v[i] = nb;
                return Some((v, x));
            }
        }
    }
    None
}

/// Whether some pairing of the round keeps the absolute criteria, for fields of any size: a
/// perfect matching on the pairs that may meet (not met, some colours within the limits),
/// with one extra vertex joined to every player who may have the bye when the field is odd.
/// Uses only the matching solver, never a pairing engine.
pub fn valid_pairing_exists(input: &PairingInput, colour_limits: bool, any_unplayed: bool) -> bool {
    let ids = available(input);
    let n = ids.len();
    let extra = n % 2;
    let mut m: arbiter_matching::Matcher<u64> = arbiter_matching::Matcher::new(n + extra);
    for i in 0..n {
        for j in i + 1..n {
            if may_meet(input, ids[i], ids[j], colour_limits) {
                m.set_weight(i, j, 1);
            }
        }
        if extra == 1 && may_have_bye(input, ids[i], any_unplayed) {
            m.set_weight(i, n, 1);
        }
    }
    m.solve();
    (0..n + extra).all(|v| m.mate(v).is_some())
}

/// Every `*.trf` of the golden corpus `tests/golden/<corpus>`, by name, read as a record.
pub fn golden_records(corpus: &str) -> Vec<(std::path::PathBuf, TournamentRecord)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/golden")
        .join(corpus);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "trf"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(&path).expect("read");
            let trf = arbiter_trf::parse_bytes(&bytes)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let record = arbiter_pairing::trf::record_from_trf(&trf.file)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (path, record)
        })
        .collect()
}

/// Every round of the golden Dutch corpora's histories (tests/golden/dutch-2017 and
/// dutch-2025: 1,200 tournaments, from 6 to over 100 players) paired with `rule_set`: each
/// pairing must keep the absolute criteria, and each refusal must be a round that no pairing
/// can satisfy. Returns (rounds paired, rounds without a valid pairing).
pub fn golden_histories(
    rule_set: RuleSet,
    limits_in_last_round: bool,
    any_unplayed: bool,
) -> (u32, u32) {
    let (mut paired, mut impossible) = (0, 0);
    let mut wrong = Vec::new();
    for corpus in ["dutch-2017", "dutch-2025"] {
        for (path, record) in golden_records(corpus) {
            for r in 1..=record.paired_rounds() {
                let input = record.input_for_round(r, rule_set).expect("input");
                let limits = limits_in_last_round || r < input.total_rounds;
                let name = format!("{} round {r}", path.display());
                match pair(&input) {
                    Ok(p) => {
                        paired += 1;
                        if let Some(b) =
                            absolute_breach(&input, &p.boards, p.bye, limits, any_unplayed)
                        {
                            wrong.push(format!("{name}: {b}"));
                        }
                    }
                    Err(PairingError::NoValidPairing(_))
                        if !valid_pairing_exists(&input, limits, any_unplayed) =>
                    {
                        impossible += 1
                    }
                    Err(e) => wrong.push(format!("{name}: refused, yet a pairing exists: {e}")),
                }
            }
        }
    }
    eprintln!("{rule_set}: {paired} golden rounds paired, {impossible} without a valid pairing");
    assert!(
        wrong.is_empty(),
        "{} wrong: {:#?}",
        wrong.len(),
        &wrong[..wrong.len().min(10)]
    );
    (paired, impossible)
}
