//! Colour allocation (C.04.3 section E), applied to a pair once it is made.

use crate::state::{Player, RoundState};
use arbiter_core::Color;

/// The colour rule that decided a pair's colours (C.04.3 E.1-E.5; 5.2.1-5.2.5 in the 2025 text).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ColourRule {
    BothGranted,
    Stronger,
    Alternate,
    HigherRanked,
    Initial,
}

impl ColourRule {
    pub fn name(self, rule_set: crate::RuleSet) -> &'static str {
        let k = self as usize;
        match rule_set {
            crate::RuleSet::Dutch2017 => ["E.1", "E.2", "E.3", "E.4", "E.5"][k],
            _ => ["5.2.1", "5.2.2", "5.2.3", "5.2.4", "5.2.5"][k],
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            ColourRule::BothGranted => "grant both colour preferences",
            ColourRule::Stronger => "grant the stronger colour preference",
            ColourRule::Alternate => {
                "alternate the colours from the latest round in which they differed"
            }
            ColourRule::HigherRanked => "grant the higher-ranked player's preference",
            ColourRule::Initial => {
                "the higher-ranked player gets the initial colour if his pairing number is odd"
            }
        }
    }
}

/// E.1-E.3: the colour `p` gets against `o` when the preferences decide it; `None` when only
/// ranking (E.4) or the initial colour (E.5) can.
fn by_preferences(p: &Player, o: &Player) -> Option<(Color, ColourRule)> {
    let (pp, op) = (&p.pref, &o.pref);
    // E.1: both preferences can be granted (or one player has none).
    if pp.colour != op.colour || pp.colour.is_none() || op.colour.is_none() {
        return pp
            .colour
            .or(op.colour.map(Color::opposite))
            .map(|c| (c, ColourRule::BothGranted));
    }
    let stronger = |c: Option<Color>| c.map(|c| (c, ColourRule::Stronger));
    // E.2: the stronger preference; between two absolute ones the wider colour difference.
    if pp.absolute() && (pp.imbalance > op.imbalance || !op.absolute()) {
        return stronger(pp.colour);
    }
    if op.absolute() && (op.imbalance > pp.imbalance || !pp.absolute()) {
        return stronger(op.colour.map(Color::opposite));
    }
    if pp.strong && !op.strong {
        return stronger(pp.colour);
    }
    if op.strong && !pp.strong {
        return stronger(op.colour.map(Color::opposite));
    }
    // E.3: alternate from the most recent round in which they had different colours.
    let (mut a, mut b) = (p.played_colours.iter().rev(), o.played_colours.iter().rev());
    loop {
        match (a.next(), b.next()) {
            (Some(x), Some(y)) if x != y => return Some((*y, ColourRule::Alternate)),
            (Some(_), Some(_)) => continue,
            _ => return None,
        }
    }
}

/// The colour player `i` receives against player `j` (indices into the round state).
pub(crate) fn colour_of(st: &RoundState, i: usize, j: usize) -> Color {
    colour_and_rule(st, i, j).0
}

/// The colour player `i` receives against player `j`, and the rule that decided it.
pub(crate) fn colour_and_rule(st: &RoundState, i: usize, j: usize) -> (Color, ColourRule) {
    let (p, o) = (&st.players[i], &st.players[j]);
    if let Some(c) = by_preferences(p, o) {
        return c;
    }
    let initial = st.initial_colour;
    let p_is_higher = st.ranks_above(i, j);
    match p.pref.colour {
        // E.5: the higher-ranked player gets the initial colour if his effective pairing
        // number is odd (0-based even), the other colour otherwise.
        None => {
            let higher = if p_is_higher { p } else { o };
            let higher_colour = if higher.rank % 2 == 0 {
                initial
            } else {
                initial.opposite()
            };
            let c = if p_is_higher {
                higher_colour
            } else {
                higher_colour.opposite()
            };
            (c, ColourRule::Initial)
        }
        // E.4: the higher-ranked player gets his preference.
        Some(c) => {
            let c = if p_is_higher {
                c
            } else {
                o.pref.colour.map(Color::opposite).unwrap_or(c)
            };
            (c, ColourRule::HigherRanked)
        }
    }
}
