//! Default tie-break lists per kind of event (docs/src/auditors/agreement.md: the recommended
//! lists of seed 001 "Sistemas de desempate recomendados" and "11.5 Sistema de desempate"
//! written with C.07 acronyms). Organisers can publish another list before round 1.

use crate::descriptor::TieBreakList;
use crate::model::{PairingKind, Tournament};
use serde::{Deserialize, Serialize};

/// The kinds of event that have a recommended list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EventKind {
    /// Individual Swiss where every player is rated.
    SwissAllRated,
    /// Individual Swiss with unrated players.
    SwissNotAllRated,
    /// Individual round-robin (never Buchholz).
    RoundRobin,
    TeamSwiss,
    TeamRoundRobin,
    /// School Swiss (seed 001 11.5).
    SchoolSwiss,
    /// School round-robin (seed 001 11.5).
    SchoolRoundRobin,
}

/// The recommended list for a kind of event.
pub fn default_tiebreaks(kind: EventKind) -> TieBreakList {
    let s = match kind {
        EventKind::SwissAllRated => "BH/C1,BH,DE,ARO/C1,WIN,BWG,BPG,SB",
        EventKind::SwissNotAllRated => "BH/C1,BH,SB,PS,DE,WIN,BWG",
        EventKind::RoundRobin => "DE,WIN,SB,KS",
        EventKind::TeamSwiss => "MPvGP,DE,BH:MP/C1,BH:MP,EMGSB",
        EventKind::TeamRoundRobin => "MPvGP,DE,EMGSB",
        EventKind::SchoolSwiss => "BH/C1,BH,WIN,BWG",
        EventKind::SchoolRoundRobin => "WIN,SB,KS,BWG",
    };
    s.parse().unwrap_or_default()
}

/// The kind of an individual tournament: round-robin when pairings are pre-determined,
/// otherwise Swiss with or without unrated players.
pub fn event_kind(t: &Tournament) -> EventKind {
    match t.pairing {
        PairingKind::PreDetermined => EventKind::RoundRobin,
        PairingKind::Swiss if t.players.iter().all(|p| p.rating.is_some()) => {
            EventKind::SwissAllRated
        }
        PairingKind::Swiss => EventKind::SwissNotAllRated,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_list_parses() {
        for k in [
            EventKind::SwissAllRated,
            EventKind::SwissNotAllRated,
            EventKind::RoundRobin,
            EventKind::TeamSwiss,
            EventKind::TeamRoundRobin,
            EventKind::SchoolSwiss,
            EventKind::SchoolRoundRobin,
        ] {
            assert!(!default_tiebreaks(k).is_empty(), "{k:?}");
        }
        assert_eq!(
            default_tiebreaks(EventKind::RoundRobin).to_string(),
            "DE,WIN,SB,KS"
        );
        assert_eq!(
            default_tiebreaks(EventKind::TeamSwiss).to_string(),
            "MPvGP,DE,BH:MP/C1,BH:MP,EMGSB"
        );
    }
}
