use super::TeamNumber;
use crate::PlayerId;

/// Why team rules, lists, line-ups or rounds were refused; each names what is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TeamError {
    /// A field of [`super::TeamRules`], as `teams.<field>`.
    #[error("teams.{field}: {why}")]
    Rules { field: String, why: String },
    /// A team list (number, name or members).
    #[error("team {team}: {why}")]
    Team { team: TeamNumber, why: String },
    /// A line-up, at one board (from 1) and player.
    #[error("team {team}, board {board}, player {player}: {why}")]
    Lineup {
        team: TeamNumber,
        board: u32,
        player: PlayerId,
        why: String,
    },
    /// One board's result or seating, board from 1.
    #[error("board {board}: {why}")]
    Board { board: u32, why: String },
    /// A round's matches, byes or results.
    #[error("round {round}: {why}")]
    Round { round: u32, why: String },
    /// The pairing engine refused the teams' input or found no pairing.
    #[error("team pairing: {0}")]
    Pairing(String),
}

pub(crate) fn rules_err<T>(field: &str, why: impl Into<String>) -> Result<T, TeamError> {
    Err(TeamError::Rules {
        field: field.to_string(),
        why: why.into(),
    })
}
