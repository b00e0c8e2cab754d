use serde::{Deserialize, Serialize};

/// The colour of a player in one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Color {
    White,
    Black,
}

impl Color {
    pub fn opposite(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The TRF colour letter (`w` / `b`).
    pub fn trf_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// Reads a TRF colour letter, case-insensitively; `-` and blank mean "no colour".
    pub fn from_trf(c: char) -> Result<Option<Color>, char> {
        match c {
            'w' | 'W' => Ok(Some(Color::White)),
            'b' | 'B' => Ok(Some(Color::Black)),
            '-' | ' ' => Ok(None),
            other => Err(other),
        }
    }
}
