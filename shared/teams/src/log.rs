//! A team event's rounds as the log holds them: arbiter-core's published team pairings and
//! the board results. The one reading of the log behind the team Swiss's history (pairing
//! worker) and the team standings (reporting).

use crate::{
    BoardResult, MatchForfeit, MatchResult, PlayedMatch, Team, TeamError, TeamRound, TeamRules,
};
use arbiter_core::tournament::State;

/// The team event of `state`: its rules, its teams and the rounds whose every board has a
/// result, from round 1 on (stopping at the first round not complete).
pub fn from_log(state: &State) -> Option<(TeamRules, Vec<Team>, Vec<TeamRound>)> {
    let rules = state.team_rules()?.clone();
    let teams = state.team_lists();
    let mut rounds = Vec::new();
    let mut r = 1;
    while let Some(round) = played_round(state, &rules, r) {
        rounds.push(round);
        r += 1;
    }
    Some((rules, teams, rounds))
}

/// Round `round` as played, when it is published and every board has its result.
fn played_round(state: &State, rules: &TeamRules, round: u32) -> Option<TeamRound> {
    let pairing = state.team_pairing(round)?;
    let published = state.published(round)?;
    let per = rules.boards as usize;
    let mut matches = Vec::with_capacity(pairing.matches.len());
    for (i, m) in pairing.matches.iter().enumerate() {
        let boards = published.boards.get(i * per..(i + 1) * per)?;
        let mut results = Vec::with_capacity(per);
        for (k, b) in boards.iter().enumerate() {
            let (first, second) = rules.codes_by_team(k as u32 + 1, b.result?.codes());
            results.push(BoardResult { first, second });
        }
        matches.push(PlayedMatch {
            teams: *m,
            result: match_result(results),
        });
    }
    Some(TeamRound {
        matches,
        pab: pairing.bye,
    })
}

/// A match as its boards' results say: one in which no board was played and only one team
/// scored is that team's forfeit win (the other did not appear), one where nobody scored a
/// double forfeit; a match with a board played, or forfeits both ways, was played. So a
/// match forfeited whole is no meeting and gives no colour, for pairing and tie-breaks alike.
fn match_result(results: Vec<BoardResult>) -> MatchResult {
    match forfeited_whole(&results) {
        Some(f) => MatchResult::Forfeit(f),
        None => MatchResult::Boards(results),
    }
}

/// The forfeit a match's board results amount to, if they amount to one (arbiter-core's
/// reading, the domain's too).
pub(crate) fn forfeited_whole(results: &[BoardResult]) -> Option<MatchForfeit> {
    arbiter_core::teams::forfeited_whole(results.iter().map(|b| (b.first, b.second)))
}

/// The rounds of [`from_log`] as arbiter-tiebreak's team model (the one standings path).
pub fn tiebreak_model(
    state: &State,
) -> Option<Result<arbiter_tiebreak::TeamTournament, TeamError>> {
    tiebreak_model_after(state, None)
}

/// [`tiebreak_model`] after round `after` (`None`: every round played).
pub fn tiebreak_model_after(
    state: &State,
    after: Option<u32>,
) -> Option<Result<arbiter_tiebreak::TeamTournament, TeamError>> {
    let (rules, teams, mut rounds) = from_log(state)?;
    if let Some(r) = after {
        rounds.truncate(r as usize);
    }
    let t = state.tournament()?;
    let pairing = if t.pairing_system.is_swiss() {
        arbiter_tiebreak::PairingKind::Swiss
    } else {
        arbiter_tiebreak::PairingKind::PreDetermined
    };
    Some(crate::to_tiebreak(
        &rules, &teams, &rounds, t.rounds, pairing,
    ))
}
