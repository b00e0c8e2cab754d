//! A pairing's explanation: per bracket, its players, what was paired and floated, and which
//! quality criteria could not all be met. Everything here is recomputed from the input and
//! the result, so an auditor can check it independently of how the engine searched.

use crate::state::{Float, RoundState};
use crate::{Board, PairingInput, RuleSet};
use arbiter_core::{Color, PlayerId};
use std::collections::BTreeMap;
use std::fmt::Write;

/// One bracket of the round (A.3), in the order they were paired.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BracketReport {
    /// Score of the bracket's residents, in tenths of a point (pairing score).
    pub score: i32,
    /// Moved-down players, in A.2 order.
    pub moved_down: Vec<PlayerId>,
    /// Resident players, in A.2 order.
    pub residents: Vec<PlayerId>,
    /// Pairs made in this bracket (unordered: colours are in the boards).
    pub pairs: Vec<(PlayerId, PlayerId)>,
    /// Players left unpaired here (downfloaters, or the bye in the last bracket).
    pub downfloaters: Vec<PlayerId>,
    /// This bracket was re-paired as the penultimate pairing bracket (A.9 collapse).
    pub ppb: bool,
    /// The last bracket (or the collapsed last bracket).
    pub last: bool,
    /// Quality criteria not fully met, with the players concerned.
    pub unmet: Vec<String>,
}

impl BracketReport {
    pub(crate) fn new(st: &RoundState, group: &[usize], mdps: usize) -> BracketReport {
        BracketReport {
            score: group.get(mdps).map(|&i| st.players[i].score).unwrap_or(0),
            moved_down: group[..mdps].iter().map(|&i| st.players[i].id).collect(),
            residents: group[mdps..].iter().map(|&i| st.players[i].id).collect(),
            pairs: Vec::new(),
            downfloaters: Vec::new(),
            ppb: false,
            last: false,
            unmet: Vec::new(),
        }
    }
}

/// The explanation of one round's pairing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    pub rule_set: RuleSet,
    pub round: u32,
    pub brackets: Vec<BracketReport>,
}

fn pts(tenths: i32) -> String {
    arbiter_core::Score(tenths).to_string()
}

impl Explanation {
    pub(crate) fn new(input: &PairingInput) -> Explanation {
        Explanation {
            rule_set: input.rule_set,
            round: input.round,
            brackets: Vec::new(),
        }
    }

    /// Evaluates the quality criteria on the final boards, bracket by bracket.
    pub(crate) fn finish(&mut self, st: &RoundState, boards: &[Board], bye: Option<PlayerId>) {
        let idx: BTreeMap<PlayerId, usize> = st
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id, i))
            .collect();
        let mut colour: BTreeMap<PlayerId, Color> = BTreeMap::new();
        for b in boards {
            colour.insert(b.white, Color::White);
            colour.insert(b.black, Color::Black);
        }
        let topscorer_round = st.played_rounds + 1 >= st.total_rounds;
        for br in &mut self.brackets {
            let mut c10 = Vec::new();
            let mut c11 = Vec::new();
            let mut c8 = Vec::new();
            let mut c9 = Vec::new();
            let mut floats: [Vec<PlayerId>; 4] = Default::default();
            for &(a, b) in &br.pairs {
                for (x, y) in [(a, b), (b, a)] {
                    let (p, o) = (&st.players[idx[&x]], &st.players[idx[&y]]);
                    let got = colour.get(&x).copied();
                    if let (Some(want), Some(got)) = (p.pref.colour, got) {
                        if want != got {
                            c10.push(x);
                            if p.pref.strong || p.pref.absolute() {
                                c11.push(x);
                            }
                        }
                    }
                    if topscorer_round {
                        let cd_after = p
                            .played_colours
                            .iter()
                            .map(|c| if *c == Color::White { 1i32 } else { -1 })
                            .sum::<i32>()
                            + if got == Some(Color::White) { 1 } else { -1 };
                        if cd_after.abs() > 2 {
                            c8.push(x);
                        }
                        let n = p.played_colours.len();
                        if n >= 2
                            && got.is_some()
                            && p.played_colours[n - 1] == p.played_colours[n - 2]
                            && Some(p.played_colours[n - 1]) == got
                        {
                            c9.push(x);
                        }
                    }
                    // Floats received now: paired with a lower (down) or higher (up) score.
                    let now = if p.score > o.score {
                        Float::Down
                    } else if p.score < o.score {
                        Float::Up
                    } else {
                        Float::None
                    };
                    for back in 0..2 {
                        if now != Float::None && p.floats[back] == now {
                            let k = back * 2 + if now == Float::Down { 0 } else { 1 };
                            floats[k].push(x);
                        }
                    }
                }
            }
            for &d in &br.downfloaters {
                if Some(d) == bye && !br.last {
                    continue;
                }
                let p = &st.players[idx[&d]];
                for back in 0..2 {
                    if p.floats[back] == Float::Down {
                        floats[back * 2].push(d);
                    }
                }
            }
            let mut say = |crit: &str, what: &str, ids: &Vec<PlayerId>| {
                if !ids.is_empty() {
                    let list: Vec<String> = ids.iter().map(|i| i.to_string()).collect();
                    br.unmet.push(format!("{crit} {what}: {}", list.join(", ")));
                }
            };
            if !br.downfloaters.is_empty() {
                let what = if br.last {
                    "unpaired (pairing-allocated bye)"
                } else {
                    "floats down"
                };
                say("C.5/C.6", what, &br.downfloaters.clone());
            }
            say("C.8", "colour difference beyond 2 (topscorers)", &c8);
            say("C.9", "same colour three times (topscorers)", &c9);
            say("C.10", "colour preference not granted", &c10);
            say("C.11", "strong colour preference not granted", &c11);
            say("C.12", "downfloat as in the previous round", &floats[0]);
            say("C.13", "upfloat as in the previous round", &floats[1]);
            say("C.14", "downfloat as two rounds before", &floats[2]);
            say("C.15", "upfloat as two rounds before", &floats[3]);
        }
    }

    /// Human-readable text: one block per bracket.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let system = match self.rule_set {
            RuleSet::Dubov => Some("Dubov system (C.04.4.1)"),
            RuleSet::Burstein => Some("Burstein system (C.04.4.2)"),
            RuleSet::BursteinBbp => Some("Burstein system (C.04.4.2), bbpPairings' reading"),
            RuleSet::Lim => Some("Lim system (C.04.4.3)"),
            RuleSet::Dutch2017 | RuleSet::Dutch2025 => None,
        };
        if let Some(system) = system {
            return self.render_scoregroups(system);
        }
        let _ = writeln!(
            s,
            "Round {} paired by the FIDE Dutch system, rule set {}",
            self.round, self.rule_set
        );
        for (k, b) in self.brackets.iter().enumerate() {
            let kind = if b.ppb {
                " (penultimate pairing bracket, re-paired so the round can be completed, A.9)"
            } else if b.last {
                " (last bracket)"
            } else {
                ""
            };
            let _ = writeln!(s, "\nBracket {} - score {}{}", k + 1, pts(b.score), kind);
            let ids = |v: &[PlayerId]| {
                v.iter()
                    .map(|i| i.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            if !b.moved_down.is_empty() {
                let _ = writeln!(s, "  moved down: {}", ids(&b.moved_down));
            }
            let _ = writeln!(s, "  residents:  {}", ids(&b.residents));
            let pairs: Vec<String> = b.pairs.iter().map(|(a, c)| format!("{a}-{c}")).collect();
            let _ = writeln!(
                s,
                "  pairs:      {}",
                if pairs.is_empty() {
                    "-".into()
                } else {
                    pairs.join(" ")
                }
            );
            if !b.downfloaters.is_empty() {
                let _ = writeln!(s, "  unpaired:   {}", ids(&b.downfloaters));
            }
            if b.unmet.is_empty() {
                let _ = writeln!(s, "  all quality criteria met");
            } else {
                let _ = writeln!(
                    s,
                    "  criteria not fully met (each minimised after every higher one):"
                );
                for u in &b.unmet {
                    let _ = writeln!(s, "    {u}");
                }
            }
        }
        s
    }
}

impl Explanation {
    /// The text of a Dubov, Burstein or Lim pairing: per scoregroup, its players, the rules
    /// applied (orders, transfers, floaters) and the pairs.
    fn render_scoregroups(&self, system: &str) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "Round {} paired by the FIDE {system}", self.round);
        let ids = |v: &[PlayerId]| {
            v.iter()
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        for (k, b) in self.brackets.iter().enumerate() {
            let _ = writeln!(s, "\nScoregroup {} - score {}", k + 1, pts(b.score));
            if !b.moved_down.is_empty() {
                let _ = writeln!(s, "  floaters in: {}", ids(&b.moved_down));
            }
            let _ = writeln!(s, "  residents:   {}", ids(&b.residents));
            for u in &b.unmet {
                let _ = writeln!(s, "  {u}");
            }
            let pairs: Vec<String> = b.pairs.iter().map(|(a, c)| format!("{a}-{c}")).collect();
            let _ = writeln!(
                s,
                "  pairs:       {}",
                if pairs.is_empty() {
                    "-".into()
                } else {
                    pairs.join(" ")
                }
            );
        }
        s
    }
}
