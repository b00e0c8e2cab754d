//! The state of each player at the moment of pairing, derived from the history alone
//! (C.04.3 A.2-A.7): scores, colour preferences, floats, bye eligibility, compatibility.

use crate::{PairingInput, RuleSet};
use arbiter_core::{Color, PlayerId, ResultCode, RoundEntry};

/// Direction of the float a player received in an earlier round (A.4.b).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Float {
    Down,
    Up,
    None,
}

/// Colour preference (A.6) in the form the criteria use it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct ColourPref {
    /// Preferred colour; `None` for a player who has not played yet.
    pub colour: Option<Color>,
    /// |games with white - games with black| over played games.
    pub imbalance: u32,
    /// The colour of the last two (or more) played games when they were the same.
    pub repeated: Option<Color>,
    /// A strong preference: imbalance of exactly one and not absolute.
    pub strong: bool,
}

impl ColourPref {
    pub fn absolute_imbalance(&self) -> bool {
        self.imbalance > 1
    }
    pub fn absolute(&self) -> bool {
        self.absolute_imbalance() || self.repeated.is_some()
    }
}

/// One player to be paired this round.
#[derive(Debug, Clone)]
pub(crate) struct Player {
    pub id: PlayerId,
    /// 0-based effective pairing number: position among the players taking part so far.
    pub rank: u32,
    /// Score including virtual (acceleration) points, in tenths: the pairing score.
    pub score: i32,
    /// Score without acceleration, in tenths (board order).
    pub plain_score: i32,
    pub pref: ColourPref,
    /// Colours of played games, oldest first (E.3).
    pub played_colours: Vec<Color>,
    /// Number of games actually played.
    pub played_games: u32,
    /// Floats received one and two rounds before (index 0 = last round).
    pub floats: [Float; 2],
    pub bye_eligible: bool,
    /// Indices (into the sorted player list) this player must not meet.
    pub forbidden: Vec<usize>,
}

/// All players to be paired, sorted by pairing score then effective pairing number (A.2).
pub(crate) struct RoundState {
    pub players: Vec<Player>,
    pub played_rounds: u32,
    pub total_rounds: u32,
    pub initial_colour: Color,
    pub win: i32,
    pub draw: i32,
    /// Bit `i * n + j`: i and j may meet without breaking an absolute criterion (bits, not
    /// bools: the largest fields have 10⁸ pairs).
    compat: Vec<u64>,
}

fn participated(e: &RoundEntry) -> bool {
    e.opponent.is_some() || e.result == ResultCode::PairingBye
}

fn is_win(r: ResultCode) -> bool {
    matches!(
        r,
        ResultCode::Win
            | ResultCode::WinUnrated
            | ResultCode::ForfeitWin
            | ResultCode::FullBye
            | ResultCode::PairingBye
    )
}

impl RoundState {
    pub fn new(input: &PairingInput) -> RoundState {
        let played = input.round - 1;
        let pts = &input.points;
        let points_of = |e: &RoundEntry| pts.points(e.result).tenths();

        // Effective pairing numbers: players who take part in this round or took part in an
        // earlier pairing, in pairing-number order.
        let mut by_id: Vec<&crate::PlayerInput> = input.players.iter().collect();
        by_id.sort_by_key(|p| p.id);
        let mut rank_of = std::collections::BTreeMap::new();
        let mut next_rank = 0u32;
        for p in &by_id {
            if p.available || p.history.iter().any(participated) {
                rank_of.insert(p.id, next_rank);
                next_rank += 1;
            }
        }

        let total_score = |p: &crate::PlayerInput| -> i32 { p.history.iter().map(points_of).sum() };
        let accel = |p: &crate::PlayerInput, round_index: u32| -> i32 {
            p.acceleration
                .get(round_index as usize)
                .map(|s| s.tenths())
                .unwrap_or(0)
        };
        // Accelerated score before the round `back` rounds ago (back = 0: now).
        let score_back = |p: &crate::PlayerInput, back: u32| -> i32 {
            let mut s = total_score(p);
            for k in 0..back {
                s -= points_of(&p.history[(played - 1 - k) as usize]);
            }
            s + accel(p, played - back)
        };
        let by_number: std::collections::BTreeMap<PlayerId, &crate::PlayerInput> =
            input.players.iter().rev().map(|q| (q.id, q)).collect();
        let find = |id: PlayerId| by_number.get(&id).copied();

        let mut players: Vec<Player> = Vec::new();
        let mut input_of = Vec::new();
        for p in &by_id {
            if !p.available {
                continue;
            }
            let plain = total_score(p);
            let score = score_back(p, 0);
            // Colour data from played games only (C.04.2 D.5).
            let played_colours: Vec<Color> = p
                .history
                .iter()
                .filter(|e| e.is_played_game())
                .filter_map(|e| e.color)
                .collect();
            let whites = played_colours
                .iter()
                .filter(|c| **c == Color::White)
                .count() as i64;
            let blacks = played_colours.len() as i64 - whites;
            let imbalance = (whites - blacks).unsigned_abs() as u32;
            let lower = if whites > blacks {
                Color::Black
            } else {
                Color::White
            };
            let mut run = 0u32;
            let mut last = None;
            for &c in &played_colours {
                if last == Some(c) {
                    run += 1
                } else {
                    run = 1
                }
                last = Some(c);
            }
            let colour = if imbalance > 1 {
                Some(lower)
            } else if run > 1 {
                last.map(Color::opposite)
            } else if imbalance > 0 {
                Some(lower)
            } else {
                last.map(Color::opposite)
            };
            let repeated = if run > 1 { last } else { None };
            let mut pref = ColourPref {
                colour,
                imbalance,
                repeated,
                strong: false,
            };
            pref.strong = !pref.absolute() && imbalance > 0;

            let mut floats = [Float::None; 2];
            for back in 1..=2u32 {
                if back > played {
                    break;
                }
                let e = &p.history[(played - back) as usize];
                let f = match input.rule_set {
                    RuleSet::Dutch2017 => {
                        if !e.is_played_game() {
                            Float::Down
                        } else {
                            compare_float(
                                score_back(p, back),
                                e.opponent.and_then(find).map(|o| score_back(o, back)),
                            )
                        }
                    }
                    _ => {
                        // An unplayed round floats only a player who scored more than a
                        // loss in it; a forfeit gives neither side a float by score.
                        if !e.is_played_game() {
                            if points_of(e) > pts.loss.tenths() {
                                Float::Down
                            } else {
                                Float::None
                            }
                        } else {
                            compare_float(
                                score_back(p, back),
                                e.opponent.and_then(find).map(|o| score_back(o, back)),
                            )
                        }
                    }
                };
                floats[(back - 1) as usize] = f;
            }
            let bye_eligible = match input.rule_set {
                RuleSet::Dutch2017 => !p
                    .history
                    .iter()
                    .any(|e| !e.is_played_game() && participated(e) && is_win(e.result)),
                _ => !p
                    .history
                    .iter()
                    .any(|e| !e.is_played_game() && points_of(e) >= pts.win.tenths()),
            };
            players.push(Player {
                id: p.id,
                rank: rank_of[&p.id],
                score,
                plain_score: plain,
                pref,
                played_games: played_colours.len() as u32,
                played_colours,
                floats,
                bye_eligible,
                forbidden: Vec::new(),
            });
            input_of.push(*p);
        }
        // A.2 order: score descending, then effective pairing number.
        let mut order: Vec<usize> = (0..players.len()).collect();
        order.sort_by(|&a, &b| {
            players[b]
                .score
                .cmp(&players[a].score)
                .then(players[a].rank.cmp(&players[b].rank))
        });
        let players: Vec<Player> = order.iter().map(|&i| players[i].clone()).collect();
        let index_of: std::collections::BTreeMap<PlayerId, usize> =
            players.iter().enumerate().map(|(i, p)| (p.id, i)).collect();

        let n = players.len();
        let mut state = RoundState {
            players,
            played_rounds: played,
            total_rounds: input.total_rounds,
            initial_colour: input.initial_color,
            win: pts.win.tenths(),
            draw: pts.draw.tenths(),
            compat: vec![0; (n * n).div_ceil(64)],
        };
        // C.1: only games actually played count as "already met" (C.04.2 D.6).
        for (i, &oi) in order.iter().enumerate() {
            let p = input_of[oi];
            for e in p.history.iter().filter(|e| e.is_played_game()) {
                if let Some(&j) = e.opponent.and_then(|o| index_of.get(&o)) {
                    state.players[i].forbidden.push(j);
                }
            }
        }
        for &(a, b) in &input.forbidden_pairs {
            if let (Some(&i), Some(&j)) = (index_of.get(&a), index_of.get(&b)) {
                state.players[i].forbidden.push(j);
                state.players[j].forbidden.push(i);
            }
        }
        // Every pair may meet but those [`compute_compatible`] refuses: forbidden ones, and
        // pairs of absolute preferences for one colour. Only those pairs are looked at, so
        // the largest fields do not pay 10⁸ checks.
        state.compat.fill(u64::MAX);
        let clear = |compat: &mut [u64], i: usize, j: usize| {
            let k = i * n + j;
            compat[k / 64] &= !(1 << (k % 64));
        };
        for i in 0..n {
            clear(&mut state.compat, i, i);
            for &j in &state.players[i].forbidden {
                clear(&mut state.compat, i, j);
                clear(&mut state.compat, j, i);
            }
        }
        for colour in [Color::White, Color::Black] {
            let same: Vec<usize> = (0..n)
                .filter(|&i| {
                    let p = &state.players[i].pref;
                    p.absolute() && p.colour == Some(colour)
                })
                .collect();
            for &i in &same {
                for &j in &same {
                    if i != j && !state.compute_compatible(i, j) {
                        clear(&mut state.compat, i, j);
                    }
                }
            }
        }
        #[cfg(debug_assertions)]
        for i in 0..n.min(300) {
            for j in 0..n.min(300) {
                debug_assert_eq!(
                    state.compatible(i, j),
                    i != j && state.compute_compatible(i, j),
                    "compatibility of {i} and {j}"
                );
            }
        }
        state
    }

    pub fn len(&self) -> usize {
        self.players.len()
    }

    pub fn compatible(&self, i: usize, j: usize) -> bool {
        let k = i * self.players.len() + j;
        self.compat[k / 64] >> (k % 64) & 1 == 1
    }

    /// C.1 and C.3: not met before, not forbidden, and not two non-topscorers with the same
    /// absolute colour preference.
    fn compute_compatible(&self, i: usize, j: usize) -> bool {
        let (a, b) = (&self.players[i], &self.players[j]);
        if a.forbidden.contains(&j) || b.forbidden.contains(&i) {
            return false;
        }
        let threshold = (self.played_rounds as i32 * self.win.max(self.draw)) >> 1;
        !a.pref.absolute()
            || !b.pref.absolute()
            || a.pref.colour != b.pref.colour
            || (self.played_rounds + 1 >= self.total_rounds
                && (a.score > threshold || b.score > threshold))
    }

    /// A.2: `a` is ranked above `b`.
    pub fn ranks_above(&self, a: usize, b: usize) -> bool {
        let (x, y) = (&self.players[a], &self.players[b]);
        (x.score, std::cmp::Reverse(x.rank)) > (y.score, std::cmp::Reverse(y.rank))
    }
}

fn compare_float(own: i32, opponent: Option<i32>) -> Float {
    match opponent {
        Some(o) if own > o => Float::Down,
        Some(o) if own < o => Float::Up,
        _ => Float::None,
    }
}
