//! The commands of team lists and line-ups, and a team round's publication (the rules are
//! `team_event`'s).

use super::*;
use crate::tournament::team_event;

impl Decider<'_> {
    pub(super) fn record_team(&self, c: &RecordTeam) -> Result<Vec<Event>, DomainError> {
        let t = &c.team;
        if let Some(rules) = self.s.team_rules() {
            return team_event::record_team(
                self.s,
                rules,
                c,
                line("team.name", &t.name, true)?,
                line("team.nickname", &t.nickname, false)?,
            );
        }
        for m in t.members.iter().flatten() {
            self.entry(*m)?;
        }
        Ok(vec![Event::TeamRecorded(TeamRecorded {
            name: line("team.name", &t.name, true)?,
            nickname: line("team.nickname", &t.nickname, false)?,
            ..t.clone()
        })])
    }

    pub(super) fn submit_lineup(&self, c: &SubmitLineup) -> Result<Vec<Event>, DomainError> {
        match self.s.team_rules() {
            Some(rules) => team_event::submit_lineup(self.s, rules, c),
            None => Err(DomainError::invalid(
                "team",
                "line-ups are given in team events only",
            )),
        }
    }

    /// A team round: the proposal's matches (or the arbiter's, with a note), each expanded
    /// into its boards from the line-ups (`team_event`).
    pub(super) fn publish_team(
        &self,
        c: &PublishPairing,
        rules: &crate::teams::TeamRules,
    ) -> Result<Vec<Event>, DomainError> {
        use team_event::{TeamPairing, boards, check_pairing, manual};
        let proposed = self.s.team_proposal(c.round);
        let note = text("note", &c.note, false)?;
        let (pairing, manually_changed) = match (&c.changes, &proposed) {
            (None, None) => return Err(DomainError::NoProposal { round: c.round }),
            (None, Some(p)) => (p.clone(), false),
            (Some(m), _) => {
                let given: TeamPairing = manual(m)?;
                let same = proposed.as_ref() == Some(&given);
                if !same && note.trim().is_empty() {
                    return Err(DomainError::invalid(
                        "note",
                        "a pairing changed by hand needs a note giving the reason",
                    ));
                }
                (given, !same)
            }
        };
        check_pairing(self.s, self.t, rules, c.round, &pairing)?;
        let (boards, unpaired) = boards(self.s, rules, c.round, &pairing)?;
        Ok(vec![Event::PairingPublished(PairingPublished {
            round: c.round,
            proposal_version: if proposed.is_some() {
                c.proposal_version
            } else {
                None
            },
            boards,
            unpaired,
            manually_changed,
            note,
            team_matches: pairing.matches,
            team_bye: pairing.bye,
        })])
    }
}
