//! Team round robins on the Berger tables (C.05 §5.1 and Annex 1), as for
//! individual round robins: the teams take the table's numbers in their seeding order.

use crate::TeamError;
use crate::{TeamMatch, TeamNumber};

// [`crate::TeamRules::check`] still asks an odd field for its PAB value (the rules do not
// know the pairing system); a round robin never awards it.

/// One round of a team round robin: its matches in table order, and the team that rests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundRobinRound {
    pub matches: Vec<TeamMatch>,
    /// Odd fields: the team the table pairs with the missing number. It has no match and no
    /// points (a zero, not a pairing-allocated bye), as in individual round robins.
    pub idle: Option<TeamNumber>,
}

/// The single round robin of `teams` (team numbers, any order: they are sorted into the
/// seeding order). The table's White player is the team named first of its match.
pub fn round_robin(teams: &[TeamNumber]) -> Result<Vec<RoundRobinRound>, TeamError> {
    let mut order = teams.to_vec();
    order.sort_unstable();
    if let Some(w) = order.windows(2).find(|w| w[0] == w[1]) {
        return Err(TeamError::Team {
            team: w[0],
            why: "the team number is used twice".into(),
        });
    }
    let rounds = arbiter_roundrobin::berger(order.len() as u32)
        .map_err(|e| TeamError::Pairing(e.to_string()))?;
    let team = |i: u32| order[i as usize - 1];
    Ok(rounds
        .into_iter()
        .map(|r| RoundRobinRound {
            matches: r
                .games
                .iter()
                .map(|&(w, b)| TeamMatch {
                    first: team(w),
                    second: team(b),
                })
                .collect(),
            idle: r.rest.map(team),
        })
        .collect())
}
