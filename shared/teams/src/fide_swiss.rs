//! FIDE's Swiss Team Pairing System (handbook C.04.6, in force from 1 February 2026), written
//! by hand: it is the product's core (a pairing system), and no crate implements it.
//!
//! The process of its Art. 3.3.2: the pairing-allocated bye first (Art. 3.4), then each
//! top-scoregroup, highest first, is paired together with the set of upfloaters Art. 3.5 picks
//! for it (there are no downfloaters: a bracket that cannot be paired takes more upfloaters),
//! and the colours are allocated once every match is known (Art. 4). No colour rule is
//! absolute (Preface): the colour enters the pairing only as the quality criteria \[C8\] and
//! \[C9\]. The three colour models of Art. 1.7 (type A, type B, none) are [`ColourModel`].
//!
//! Where the text leaves a reading open, this module reads it as FIDE TEC's own checker
//! does, because FIDE's endorsement compares a program's pairings with that checker's:
//! * \[C3\] (Art. 2.2.1) is "the teams not yet paired have a perfect matching on \[C1\]";
//! * \[C6\] (Art. 2.3.3) asks that the following scoregroup can still be paired with the
//!   fewest upfloaters its own size allows (none when even, one when odd);
//! * a set of upfloaters complies with \[C6\] and \[C7\] "as much as possible": the first set, in
//!   the order of Art. 3.5.4, with the best (\[C6\], \[C7\]) among the sets of the best profile;
//! * a team floated in the previous round when it played an opponent whose pairing score
//!   differed from its own (a bye is no float, Art. 1.5);
//! * the matches are ordered on the boards by the higher score of the pair, then the sum of
//!   the scores, then the smaller TPN, the bye last (C.04.6 leaves it to the competition).
//!
//! Exact and deterministic: scores are fixed-point, the bracket's lexicographic order
//! (Art. 3.6.2) is an exact wide-integer weight of one maximum-weight matching.

use crate::TeamNumber;
pub use arbiter_core::teams::{ColourModel, FideTeamSystem};
use arbiter_core::{Color, Score};
use arbiter_matching::{Matcher, Wide};
use std::collections::{BTreeMap, BTreeSet};

/// What the pairing knows of a team before the round (built from the rounds played by
/// [`crate::pair_fide_swiss`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamStanding {
    /// The team's TPN (Art. 1.1): its fixed place in the field.
    pub tpn: TeamNumber,
    /// Paired this round.
    pub available: bool,
    /// The score the scoregroups are made of (the primary score).
    pub pairing_score: Score,
    /// The primary and secondary scores (Art. 1.2), for Art. 4.2.
    pub primary: Score,
    pub secondary: Score,
    /// Opponents of matches actually played (\[C1\]; a forfeited match is no meeting).
    pub met: BTreeSet<TeamNumber>,
    /// Had the pairing-allocated bye, won a match by forfeit or had a full-point bye (\[C2\]).
    pub bye_barred: bool,
    /// The team's colour (its first board's) in each match it played, in order (Art. 1.6).
    pub colours: Vec<Color>,
    /// Played an opponent with a different pairing score in the previous round (Art. 1.5).
    pub floated: bool,
}

/// A round's input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FideTeamInput {
    pub system: FideTeamSystem,
    /// The round being paired and the event's length (Art. 2.3.4 and 2.3.7 are off in the
    /// last two rounds; Art. 1.7.2 reads the last one).
    pub round: u32,
    pub total_rounds: u32,
    /// The initial-colour drawn before round 1 (Art. 4.1).
    pub initial_colour: Color,
    pub teams: Vec<TeamStanding>,
}

/// A match as paired: the team with White on board 1 first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ColouredMatch {
    pub white: TeamNumber,
    pub black: TeamNumber,
    /// The rule of Art. 4.3 that decided the colours (e.g. "4.3.5").
    pub rule: &'static str,
}

/// The round: matches in board order, and the team with the pairing-allocated bye.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FideTeamPairing {
    pub matches: Vec<ColouredMatch>,
    pub bye: Option<TeamNumber>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Strength {
    Mild,
    Strong,
}

/// One team in the engine: its standing, scoregroup level and colour preference.
struct Node<'a> {
    s: &'a TeamStanding,
    level: usize,
    pref: Option<(Color, Strength)>,
}

struct Engine<'a> {
    input: &'a FideTeamInput,
    nodes: Vec<Node<'a>>,
    last_two: bool,
}

/// The most teams a round pairs: a bracket of all of them still fits the widest weight
/// (the Olympiad, the largest team Swiss, has about 200).
pub const MAX_TEAMS: usize = 700;

/// Pairs one round by C.04.6. The error says why no pairing exists (Art. 3.3.3 leaves the
/// round to the Chief Arbiter then).
pub fn pair_round(input: &FideTeamInput) -> Result<FideTeamPairing, String> {
    let mut seen = BTreeSet::new();
    for t in &input.teams {
        if !seen.insert(t.tpn) {
            return Err(format!("team {} is listed twice", t.tpn));
        }
    }
    let available: Vec<&TeamStanding> = input.teams.iter().filter(|t| t.available).collect();
    if available.len() > MAX_TEAMS {
        return Err(format!(
            "{} teams to pair: the team Swiss pairs at most {MAX_TEAMS} (a bracket's order is one exact weight of at most 8,188 bits)",
            available.len()
        ));
    }
    let scores: BTreeSet<Score> = available.iter().map(|t| t.pairing_score).collect();
    let level_of: BTreeMap<Score, usize> =
        scores.iter().enumerate().map(|(i, &s)| (s, i)).collect();
    let total = input.total_rounds.max(input.round);
    let mut nodes: Vec<Node> = available
        .iter()
        .map(|s| Node {
            s,
            level: level_of[&s.pairing_score],
            pref: preference(input, s, total),
        })
        .collect();
    // Highest scoregroup first, then by TPN.
    nodes.sort_by(|a, b| b.level.cmp(&a.level).then(a.s.tpn.cmp(&b.s.tpn)));
    let engine = Engine {
        input,
        nodes,
        last_two: input.round + 2 > total,
    };
    engine.pair()
}

/// Art. 1.7: the colour preference from the colour difference and the last played colours.
fn preference(input: &FideTeamInput, s: &TeamStanding, total: u32) -> Option<(Color, Strength)> {
    let model = input.system.colours;
    if model == ColourModel::None {
        return None;
    }
    let cod: i32 = s
        .colours
        .iter()
        .map(|c| if *c == Color::White { 1 } else { -1 })
        .sum();
    let n = s.colours.len();
    let last_two = |c: Color| n >= 2 && s.colours[n - 2] == c && s.colours[n - 1] == c;
    if cod < -1 || ((cod == 0 || cod == -1) && last_two(Color::Black)) {
        return Some((Color::White, Strength::Strong));
    }
    if cod > 1 || ((cod == 0 || cod == 1) && last_two(Color::White)) {
        return Some((Color::Black, Strength::Strong));
    }
    if model == ColourModel::TypeA {
        return None;
    }
    match cod {
        -1 => Some((Color::White, Strength::Mild)),
        1 => Some((Color::Black, Strength::Mild)),
        0 if input.round != total => s.colours.last().map(|c| (c.opposite(), Strength::Mild)),
        _ => None,
    }
}

/// A perfect matching exists on the teams `set` (indices into the engine's nodes) under \[C1\].
fn perfect(engine: &Engine, set: &[usize]) -> bool {
    if !set.len().is_multiple_of(2) {
        return false;
    }
    if set.is_empty() {
        return true;
    }
    let mut m: Matcher<u64> = Matcher::new(set.len());
    for i in 0..set.len() {
        for j in i + 1..set.len() {
            if engine.can_meet(set[i], set[j]) {
                m.set_weight(i, j, 1);
            }
        }
    }
    m.solve();
    m.mates().iter().all(|x| x.is_some())
}

impl<'a> Engine<'a> {
    fn can_meet(&self, a: usize, b: usize) -> bool {
        let (x, y) = (self.nodes[a].s, self.nodes[b].s);
        !x.met.contains(&y.tpn) && !y.met.contains(&x.tpn)
    }

    fn pair(&self) -> Result<FideTeamPairing, String> {
        let mut remaining: Vec<usize> = (0..self.nodes.len()).collect();
        let mut bye = None;
        if !remaining.len().is_multiple_of(2) {
            let b = self.find_bye(&remaining)?;
            remaining.retain(|&i| i != b);
            bye = Some(b);
        }
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        let top = self.nodes.first().map_or(0, |n| n.level);
        for level in (0..=top).rev() {
            let residents: Vec<usize> = remaining
                .iter()
                .copied()
                .filter(|&i| self.nodes[i].level == level)
                .collect();
            if residents.is_empty() {
                continue;
            }
            let (bracket, bracket_pairs) = self.select_upfloaters(level, &residents, &remaining)?;
            remaining.retain(|i| !bracket.contains(i));
            pairs.extend(bracket_pairs);
        }
        if !remaining.is_empty() {
            return Err(format!(
                "{} teams remain after every scoregroup was paired (C.04.6 Art. 3.3.3)",
                remaining.len()
            ));
        }
        Ok(self.boards(&pairs, bye))
    }

    /// Art. 3.4: the bye goes to the team that leaves a legal pairing for all the others,
    /// with the lowest score, the most matches played, the largest TPN; \[C2\] bars some.
    fn find_bye(&self, all: &[usize]) -> Result<usize, String> {
        let mut candidates: Vec<usize> = all
            .iter()
            .copied()
            .filter(|&i| !self.nodes[i].s.bye_barred)
            .collect();
        candidates.sort_by(|&a, &b| {
            let (x, y) = (&self.nodes[a], &self.nodes[b]);
            x.level
                .cmp(&y.level)
                .then(y.s.colours.len().cmp(&x.s.colours.len()))
                .then(y.s.tpn.cmp(&x.s.tpn))
        });
        for c in candidates {
            let rest: Vec<usize> = all.iter().copied().filter(|&i| i != c).collect();
            if perfect(self, &rest) {
                return Ok(c);
            }
        }
        Err("no team can have the pairing-allocated bye and leave a legal pairing for the others (C.04.6 Art. 3.4.1, 3.3.3)".into())
    }

    /// Art. 3.5: the set of upfloaters for the top-scoregroup `level`, and the bracket's pairs.
    #[allow(clippy::type_complexity)]
    fn select_upfloaters(
        &self,
        level: usize,
        residents: &[usize],
        remaining: &[usize],
    ) -> Result<(Vec<usize>, Vec<(usize, usize)>), String> {
        let lower: Vec<usize> = remaining
            .iter()
            .copied()
            .filter(|&i| self.nodes[i].level < level)
            .collect();
        let mut by_level: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for &i in &lower {
            by_level.entry(self.nodes[i].level).or_default().push(i);
        }
        for v in by_level.values_mut() {
            v.sort_by_key(|&i| self.nodes[i].s.tpn);
        }
        let mut count = residents.len() % 2;
        while count <= lower.len() {
            for profile in profiles(&by_level, count) {
                let mut best: Option<((bool, usize), Vec<usize>, Vec<(usize, usize)>)> = None;
                for_each_set(&by_level, &profile, &mut |ups: &[usize]| {
                    let mut bracket: Vec<usize> = residents.to_vec();
                    bracket.extend_from_slice(ups);
                    let Some(pairs) = self.pair_bracket(level, &bracket) else {
                        return false;
                    };
                    let rest: Vec<usize> = remaining
                        .iter()
                        .copied()
                        .filter(|i| !bracket.contains(i))
                        .collect();
                    if !perfect(self, &rest) {
                        return false; // [C3]
                    }
                    let c6 = self.c6(level, &rest);
                    let c7 = if self.last_two {
                        0
                    } else {
                        ups.iter().filter(|&&i| self.nodes[i].s.floated).count()
                    };
                    let key = (!c6, c7);
                    if best.as_ref().is_none_or(|(k, _, _)| key < *k) {
                        best = Some((key, bracket, pairs));
                    }
                    key == (false, 0) // Art. 3.5.5: the first set that complies
                });
                if let Some((_, bracket, pairs)) = best {
                    return Ok((bracket, pairs));
                }
            }
            count += 2;
        }
        Err(format!(
            "the scoregroup of {} has no legal pairing with any set of upfloaters (C.04.6 Art. 3.3.3)",
            self.nodes[residents[0]].s.pairing_score
        ))
    }

    /// \[C6\] (Art. 2.3.3): what is left of the next scoregroup can be paired with the fewest
    /// upfloaters its size allows, and the rest after it too.
    fn c6(&self, level: usize, rest: &[usize]) -> bool {
        if level == 0 {
            return true;
        }
        let following: Vec<usize> = rest
            .iter()
            .copied()
            .filter(|&i| self.nodes[i].level == level - 1)
            .collect();
        if following.is_empty() {
            return true;
        }
        let lower: Vec<usize> = rest
            .iter()
            .copied()
            .filter(|&i| self.nodes[i].level < level - 1)
            .collect();
        let candidates: Vec<Vec<usize>> = if following.len().is_multiple_of(2) {
            vec![Vec::new()]
        } else {
            lower.iter().map(|&i| vec![i]).collect()
        };
        candidates.into_iter().any(|ups| {
            let mut bracket = following.clone();
            bracket.extend(ups);
            let others: Vec<usize> = rest
                .iter()
                .copied()
                .filter(|i| !bracket.contains(i))
                .collect();
            perfect(self, &bracket) && perfect(self, &others)
        })
    }

    /// Art. 3.6: the first pairing of the bracket, in the order of the identifiers of
    /// Art. 3.6.2, among those with the fewest \[C8\], then \[C9\], then \[C10\] violations.
    /// `None` when the bracket has no perfect matching under \[C1\].
    fn pair_bracket(&self, level: usize, bracket: &[usize]) -> Option<Vec<(usize, usize)>> {
        let b = bracket.len();
        let bits = b.checked_ilog2().map_or(1, |l| l + 1) as usize + 1;
        let width = bits * b + b + 1 + 3 * (bits + 2) + 2;
        match width {
            0..=250 => self.pair_bracket_wide::<4>(level, bracket),
            251..=506 => self.pair_bracket_wide::<8>(level, bracket),
            507..=1018 => self.pair_bracket_wide::<16>(level, bracket),
            1019..=2042 => self.pair_bracket_wide::<32>(level, bracket),
            2043..=4090 => self.pair_bracket_wide::<64>(level, bracket),
            _ => self.pair_bracket_wide::<128>(level, bracket),
        }
    }

    fn pair_bracket_wide<const N: usize>(
        &self,
        level: usize,
        bracket: &[usize],
    ) -> Option<Vec<(usize, usize)>> {
        let b = bracket.len() as u32;
        // Art. 3.6.1: the position (bsn) of each team in the bracket, the teams in TPN order.
        let mut order: Vec<usize> = (0..bracket.len()).collect();
        order.sort_by_key(|&k| self.nodes[bracket[k]].s.tpn);
        let mut bsn = vec![0u32; bracket.len()];
        for (pos, &k) in order.iter().enumerate() {
            bsn[k] = pos as u32 + 1;
        }
        // Fields of the cost, least significant first: the bottom member of each top member
        // (k bits per top position), the set of bottom members (one bit each, the low bsn
        // heaviest), then [C10], [C9] and [C8] counts. No field can carry into the next.
        let k = 32 - b.leading_zeros();
        let bottom_field = k * b;
        let count_bits = k + 2;
        let c10_at = bottom_field + b + 1;
        let c9_at = c10_at + count_bits;
        let c8_at = c9_at + count_bits;
        let total = c8_at + count_bits;
        // Every edge carries `card`, so a matching with more pairs always weighs more.
        let card = Wide::<N>::ONE << (total + 1);
        let mut m: Matcher<Wide<N>> = Matcher::new(bracket.len());
        for i in 0..bracket.len() {
            for j in i + 1..bracket.len() {
                if !self.can_meet(bracket[i], bracket[j]) {
                    continue;
                }
                let (top, bottom) = if bsn[i] < bsn[j] { (i, j) } else { (j, i) };
                let (c8, c9, c10) = self.pair_criteria(level, bracket[i], bracket[j]);
                let cost = (Wide::<N>::from_u64(c8) << c8_at)
                    | (Wide::<N>::from_u64(c9) << c9_at)
                    | (Wide::<N>::from_u64(c10) << c10_at)
                    | (Wide::<N>::ONE << (bottom_field + b - bsn[bottom]))
                    | (Wide::<N>::from_u64(bsn[bottom] as u64) << (k * (b - bsn[top])));
                m.set_weight(i, j, card - cost);
            }
        }
        m.solve();
        let mates = m.mates();
        if mates.iter().any(|x| x.is_none()) {
            return None;
        }
        let mut pairs = Vec::new();
        for (i, mate) in mates.iter().enumerate() {
            let j = mate.expect("checked above");
            if i < j {
                pairs.push((bracket[i], bracket[j]));
            }
        }
        Some(pairs)
    }

    /// \[C8\] a pair whose teams prefer the same colour; \[C9\] (type B) both strongly;
    /// \[C10\] (not in the last two rounds) each upfloater's opponent that floated last round.
    fn pair_criteria(&self, level: usize, a: usize, b: usize) -> (u64, u64, u64) {
        let (x, y) = (&self.nodes[a], &self.nodes[b]);
        let (mut c8, mut c9, mut c10) = (0, 0, 0);
        if let (Some((cx, sx)), Some((cy, sy))) = (x.pref, y.pref)
            && cx == cy
        {
            c8 = 1;
            if self.input.system.colours == ColourModel::TypeB
                && sx == Strength::Strong
                && sy == Strength::Strong
            {
                c9 = 1;
            }
        }
        if !self.last_two {
            for (team, opponent) in [(x, y), (y, x)] {
                if team.level < level && opponent.s.floated {
                    c10 += 1;
                }
            }
        }
        (c8, c9, c10)
    }

    /// Art. 4 for every pair, and the boards: the higher pairing score of the pair first,
    /// then the higher sum, then the smaller TPN; the bye is not a board.
    fn boards(&self, pairs: &[(usize, usize)], bye: Option<usize>) -> FideTeamPairing {
        let mut ordered: Vec<(Score, Score, TeamNumber, ColouredMatch)> = pairs
            .iter()
            .map(|&(a, b)| {
                let (x, y) = (self.nodes[a].s, self.nodes[b].s);
                let hi = x.pairing_score.max(y.pairing_score);
                let sum = Score(x.pairing_score.tenths() + y.pairing_score.tenths());
                (hi, sum, x.tpn.min(y.tpn), self.colours(a, b))
            })
            .collect();
        ordered.sort_by(|p, q| q.0.cmp(&p.0).then(q.1.cmp(&p.1)).then(p.2.cmp(&q.2)));
        FideTeamPairing {
            matches: ordered.into_iter().map(|o| o.3).collect(),
            bye: bye.map(|i| self.nodes[i].s.tpn),
        }
    }

    /// Art. 4.2 and 4.3: the colours of a pair.
    fn colours(&self, a: usize, b: usize) -> ColouredMatch {
        let (x, y) = (&self.nodes[a], &self.nodes[b]);
        // Art. 4.2: the first-team has the higher primary score, then the higher secondary
        // (unless the competition does not use it), then the smaller TPN.
        let first_is_x = if x.s.primary != y.s.primary {
            x.s.primary > y.s.primary
        } else if self.input.system.secondary_for_colours && x.s.secondary != y.s.secondary {
            x.s.secondary > y.s.secondary
        } else {
            x.s.tpn < y.s.tpn
        };
        let (f, s) = if first_is_x { (x, y) } else { (y, x) };
        let give = |colour: Color, rule: &'static str| {
            if colour == Color::White {
                ColouredMatch {
                    white: f.s.tpn,
                    black: s.s.tpn,
                    rule,
                }
            } else {
                ColouredMatch {
                    white: s.s.tpn,
                    black: f.s.tpn,
                    rule,
                }
            }
        };
        if f.s.colours.is_empty() && s.s.colours.is_empty() {
            let c = if f.s.tpn % 2 == 1 {
                self.input.initial_colour
            } else {
                self.input.initial_colour.opposite()
            };
            return give(c, "4.3.1");
        }
        match (f.pref, s.pref) {
            (Some((c, _)), None) => return give(c, "4.3.2"),
            (None, Some((c, _))) => return give(c.opposite(), "4.3.2"),
            (Some((cf, _)), Some((cs, _))) if cf != cs => return give(cf, "4.3.3"),
            (Some((cf, sf)), Some((_, ss)))
                if self.input.system.colours == ColourModel::TypeB && sf != ss =>
            {
                return if sf == Strength::Strong {
                    give(cf, "4.3.4")
                } else {
                    give(cf.opposite(), "4.3.4")
                };
            }
            _ => {}
        }
        let cod = |t: &TeamStanding| -> i32 {
            t.colours
                .iter()
                .map(|c| if *c == Color::White { 1 } else { -1 })
                .sum()
        };
        let (df, ds) = (cod(f.s), cod(s.s));
        if df != ds {
            return give(if df < ds { Color::White } else { Color::Black }, "4.3.5");
        }
        for (cf, cs) in f.s.colours.iter().rev().zip(s.s.colours.iter().rev()) {
            if cf != cs {
                return give(cf.opposite(), "4.3.6");
            }
        }
        if let Some((c, _)) = f.pref {
            return give(c, "4.3.7");
        }
        if let Some(&c) = f.s.colours.last() {
            return give(c.opposite(), "4.3.8");
        }
        let c =
            *s.s.colours
                .last()
                .expect("4.3.1 covers two teams without a match");
        give(c, "4.3.9")
    }
}

/// \[C5\]: the score profiles of `count` upfloaters, best first (their levels compared in
/// ascending order, the higher sequence first).
fn profiles(by_level: &BTreeMap<usize, Vec<usize>>, count: usize) -> Vec<Vec<usize>> {
    let levels: Vec<(usize, usize)> = by_level.iter().rev().map(|(l, v)| (*l, v.len())).collect();
    let mut out = Vec::new();
    let mut current = Vec::new();
    fn rec(
        levels: &[(usize, usize)],
        at: usize,
        left: usize,
        current: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        if left == 0 {
            out.push(current.clone());
            return;
        }
        if at == levels.len() {
            return;
        }
        let (level, n) = levels[at];
        for take in (0..=n.min(left)).rev() {
            current.extend(std::iter::repeat_n(level, take));
            rec(levels, at + 1, left - take, current, out);
            current.truncate(current.len() - take);
        }
    }
    rec(&levels, 0, count, &mut current, &mut out);
    for p in &mut out {
        p.sort_unstable();
    }
    out.sort_by(|a, b| b.cmp(a));
    out
}

/// Art. 3.5.3-3.5.4: every set of upfloaters with the profile, in lexicographic order of
/// their TPNs (levels from the highest, teams of a level in TPN order). `f` returns true to
/// stop.
fn for_each_set(
    by_level: &BTreeMap<usize, Vec<usize>>,
    profile: &[usize],
    f: &mut dyn FnMut(&[usize]) -> bool,
) {
    let mut counts: BTreeMap<usize, usize> = BTreeMap::new();
    for &l in profile {
        *counts.entry(l).or_default() += 1;
    }
    let parts: Vec<(&[usize], usize)> = counts
        .iter()
        .rev()
        .map(|(l, &n)| (by_level[l].as_slice(), n))
        .collect();
    let mut chosen = Vec::new();
    fn rec(
        parts: &[(&[usize], usize)],
        at: usize,
        from: usize,
        left: usize,
        chosen: &mut Vec<usize>,
        f: &mut dyn FnMut(&[usize]) -> bool,
    ) -> bool {
        if at == parts.len() {
            return f(chosen);
        }
        let (pool, _) = parts[at];
        if left == 0 {
            let next = parts.get(at + 1).map_or(0, |p| p.1);
            return rec(parts, at + 1, 0, next, chosen, f);
        }
        for i in from..pool.len() {
            if pool.len() - i < left {
                break;
            }
            chosen.push(pool[i]);
            let stop = rec(parts, at, i + 1, left - 1, chosen, f);
            chosen.pop();
            if stop {
                return true;
            }
        }
        false
    }
    let first = parts.first().map_or(0, |p| p.1);
    rec(&parts, 0, 0, first, &mut chosen, f);
}

/// Pairs round `played.len() + 1` of `total_rounds` by C.04.6 from the rounds played: the
/// team Swiss of the service. `unavailable` teams are not paired; `initial_colour` is the
/// initial-colour of Art. 4.1.
#[allow(clippy::too_many_arguments)]
pub fn pair_fide_swiss(
    rules: &crate::TeamRules,
    system: FideTeamSystem,
    teams: &[crate::Team],
    played: &[crate::TeamRound],
    unavailable: &BTreeSet<TeamNumber>,
    total_rounds: u32,
    initial_colour: Color,
) -> Result<crate::SwissPairing, crate::TeamError> {
    use crate::{MatchForfeit, MatchResult, TeamError, TeamMatch, TeamScore};
    let known = crate::swiss::check_field(rules, teams, unavailable)?;
    let c1 = rules.first_board_colour();
    let (primary_of, secondary_of) = match rules.primary {
        TeamScore::MatchPoints => (0, 1),
        TeamScore::GamePoints => (1, 0),
    };
    let mut standings: BTreeMap<TeamNumber, TeamStanding> = known
        .iter()
        .map(|&n| {
            (
                n,
                TeamStanding {
                    tpn: n,
                    available: !unavailable.contains(&n),
                    pairing_score: Score::ZERO,
                    primary: Score::ZERO,
                    secondary: Score::ZERO,
                    met: BTreeSet::new(),
                    bye_barred: false,
                    colours: Vec::new(),
                    floated: false,
                },
            )
        })
        .collect();
    for (i, r) in played.iter().enumerate() {
        let scores = crate::tiebreak::score_round(rules, &known, i as u32 + 1, r)?;
        let before: BTreeMap<TeamNumber, Score> =
            standings.iter().map(|(&n, s)| (n, s.primary)).collect();
        let last = i + 1 == played.len();
        for s in standings.values_mut() {
            s.floated = false;
        }
        for (m, sc) in r.matches.iter().zip(&scores) {
            let TeamMatch { first, second } = m.teams;
            for (team, opp, side, colour) in [
                (first, second, &sc.first, c1),
                (second, first, &sc.second, c1.opposite()),
            ] {
                let pts = [side.match_points, side.game_points];
                let s = standings
                    .get_mut(&team)
                    .expect("score_round checked the teams");
                s.primary += pts[primary_of];
                s.secondary += pts[secondary_of];
                // Art. 1.6: only a match actually played gives a colour (and a meeting).
                let forfeit = match &m.result {
                    MatchResult::Boards(v) => crate::log::forfeited_whole(v),
                    MatchResult::Forfeit(f) => Some(*f),
                };
                match forfeit {
                    None => {
                        s.met.insert(opp);
                        s.colours.push(colour);
                        s.floated = last && before[&team] != before[&opp];
                    }
                    Some(f) => {
                        let won = match f {
                            MatchForfeit::SecondAbsent => team == first,
                            MatchForfeit::FirstAbsent => team == second,
                            MatchForfeit::BothAbsent => false,
                        };
                        s.bye_barred |= won;
                    }
                }
            }
        }
        if let (Some(p), Some(value)) = (r.pab, rules.pab) {
            let s = standings.get_mut(&p).expect("score_round checked the bye");
            let pts = [value.match_points, value.game_points];
            s.primary += pts[primary_of];
            s.secondary += pts[secondary_of];
            s.bye_barred = true;
        }
    }
    for s in standings.values_mut() {
        s.pairing_score = s.primary;
    }
    let input = FideTeamInput {
        system,
        round: played.len() as u32 + 1,
        total_rounds,
        initial_colour,
        teams: standings.into_values().collect(),
    };
    let p = pair_round(&input).map_err(TeamError::Pairing)?;
    Ok(crate::SwissPairing {
        matches: p
            .matches
            .iter()
            .map(|m| {
                // The team named first has the colours of record 352, board 1 first.
                if c1 == Color::White {
                    TeamMatch {
                        first: m.white,
                        second: m.black,
                    }
                } else {
                    TeamMatch {
                        first: m.black,
                        second: m.white,
                    }
                }
            })
            .collect(),
        pab: p.bye,
    })
}
