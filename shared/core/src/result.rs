use crate::{Color, PlayerId};
use serde::{Deserialize, Serialize};

/// A round result as TRF codes it (TRF16 result codes, record 001), from the point of view of
/// one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ResultCode {
    /// `1`: won a played game.
    Win,
    /// `=`: drew a played game.
    Draw,
    /// `0`: lost a played game.
    Loss,
    /// `W`: won a game that lasted less than one move (played, not rated).
    WinUnrated,
    /// `D`: drew a game of less than one move.
    DrawUnrated,
    /// `L`: lost a game of less than one move.
    LossUnrated,
    /// `+`: forfeit win (the scheduled opponent did not appear).
    ForfeitWin,
    /// `-`: forfeit loss (also each side of a double forfeit).
    ForfeitLoss,
    /// `H`: half-point bye.
    HalfBye,
    /// `F`: full-point bye.
    FullBye,
    /// `U`: the pairing-allocated bye.
    PairingBye,
    /// `Z` (or blank): zero-point bye, absence.
    ZeroBye,
}

impl ResultCode {
    /// Reads a TRF result letter, case-insensitively. Blank is a zero-point bye (as in TRF16).
    pub fn from_trf(c: char) -> Option<ResultCode> {
        Some(match c.to_ascii_uppercase() {
            '1' => ResultCode::Win,
            '=' => ResultCode::Draw,
            '0' => ResultCode::Loss,
            'W' => ResultCode::WinUnrated,
            'D' => ResultCode::DrawUnrated,
            'L' => ResultCode::LossUnrated,
            '+' => ResultCode::ForfeitWin,
            '-' => ResultCode::ForfeitLoss,
            'H' => ResultCode::HalfBye,
            'F' => ResultCode::FullBye,
            'U' => ResultCode::PairingBye,
            'Z' | ' ' => ResultCode::ZeroBye,
            _ => return None,
        })
    }

    pub fn trf_char(self) -> char {
        match self {
            ResultCode::Win => '1',
            ResultCode::Draw => '=',
            ResultCode::Loss => '0',
            ResultCode::WinUnrated => 'W',
            ResultCode::DrawUnrated => 'D',
            ResultCode::LossUnrated => 'L',
            ResultCode::ForfeitWin => '+',
            ResultCode::ForfeitLoss => '-',
            ResultCode::HalfBye => 'H',
            ResultCode::FullBye => 'F',
            ResultCode::PairingBye => 'U',
            ResultCode::ZeroBye => 'Z',
        }
    }

    /// The game was actually played over the board (counts for "already met" and colours).
    pub fn is_played(self) -> bool {
        matches!(
            self,
            ResultCode::Win
                | ResultCode::Draw
                | ResultCode::Loss
                | ResultCode::WinUnrated
                | ResultCode::DrawUnrated
                | ResultCode::LossUnrated
        )
    }

    /// Has a scheduled opponent (played game or forfeit).
    pub fn has_opponent(self) -> bool {
        self.is_played() || matches!(self, ResultCode::ForfeitWin | ResultCode::ForfeitLoss)
    }

    /// The code the opponent's line carries for the same game (`None` for byes).
    pub fn mirrored(self) -> Option<ResultCode> {
        Some(match self {
            ResultCode::Win => ResultCode::Loss,
            ResultCode::Loss => ResultCode::Win,
            ResultCode::Draw => ResultCode::Draw,
            ResultCode::WinUnrated => ResultCode::LossUnrated,
            ResultCode::LossUnrated => ResultCode::WinUnrated,
            ResultCode::DrawUnrated => ResultCode::DrawUnrated,
            ResultCode::ForfeitWin => ResultCode::ForfeitLoss,
            // A forfeit loss faces a forfeit win, or another forfeit loss (double forfeit).
            ResultCode::ForfeitLoss => ResultCode::ForfeitWin,
            _ => return None,
        })
    }
}

/// One player's entry for one round: opponent, colour and result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RoundEntry {
    /// `None` for byes and absences.
    pub opponent: Option<PlayerId>,
    pub color: Option<Color>,
    pub result: ResultCode,
}

impl RoundEntry {
    pub fn bye(result: ResultCode) -> RoundEntry {
        RoundEntry {
            opponent: None,
            color: None,
            result,
        }
    }
    pub fn game(opponent: PlayerId, color: Color, result: ResultCode) -> RoundEntry {
        RoundEntry {
            opponent: Some(opponent),
            color: Some(color),
            result,
        }
    }
    /// A game that took place over the board (colour and opponent count for pairing history).
    pub fn is_played_game(&self) -> bool {
        self.opponent.is_some() && self.result.is_played()
    }
}
