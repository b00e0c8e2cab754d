use crate::{ResultCode, Score};
use serde::{Deserialize, Serialize};

/// The scoring category a result falls in, for point systems that value them differently.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ResultKind {
    Win,
    Draw,
    Loss,
    ForfeitWin,
    ForfeitLoss,
    ZeroBye,
    HalfBye,
    FullBye,
    PairingBye,
}

impl From<ResultCode> for ResultKind {
    fn from(c: ResultCode) -> ResultKind {
        match c {
            ResultCode::Win | ResultCode::WinUnrated => ResultKind::Win,
            ResultCode::Draw | ResultCode::DrawUnrated => ResultKind::Draw,
            ResultCode::Loss | ResultCode::LossUnrated => ResultKind::Loss,
            ResultCode::ForfeitWin => ResultKind::ForfeitWin,
            ResultCode::ForfeitLoss => ResultKind::ForfeitLoss,
            ResultCode::ZeroBye => ResultKind::ZeroBye,
            ResultCode::HalfBye => ResultKind::HalfBye,
            ResultCode::FullBye => ResultKind::FullBye,
            ResultCode::PairingBye => ResultKind::PairingBye,
        }
    }
}

/// Points for each kind of result. The default is FIDE's 1 / ½ / 0 with byes valued as in
/// C.04.1 (pairing-allocated bye = a win, half-point bye = a draw).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PointSystem {
    pub win: Score,
    pub draw: Score,
    pub loss: Score,
    pub forfeit_win: Score,
    pub forfeit_loss: Score,
    pub zero_bye: Score,
    pub half_bye: Score,
    pub full_bye: Score,
    pub pairing_bye: Score,
}

impl Default for PointSystem {
    fn default() -> Self {
        PointSystem::with_win_draw(Score::ONE, Score::HALF)
    }
}

impl PointSystem {
    /// A system given by its win and draw values; losses and absences score 0, forfeit wins
    /// and full-point/pairing byes score a win, half-point byes a draw.
    pub fn with_win_draw(win: Score, draw: Score) -> PointSystem {
        PointSystem {
            win,
            draw,
            loss: Score::ZERO,
            forfeit_win: win,
            forfeit_loss: Score::ZERO,
            zero_bye: Score::ZERO,
            half_bye: draw,
            full_bye: win,
            pairing_bye: win,
        }
    }

    pub fn points(&self, r: ResultCode) -> Score {
        match ResultKind::from(r) {
            ResultKind::Win => self.win,
            ResultKind::Draw => self.draw,
            ResultKind::Loss => self.loss,
            ResultKind::ForfeitWin => self.forfeit_win,
            ResultKind::ForfeitLoss => self.forfeit_loss,
            ResultKind::ZeroBye => self.zero_bye,
            ResultKind::HalfBye => self.half_bye,
            ResultKind::FullBye => self.full_bye,
            ResultKind::PairingBye => self.pairing_bye,
        }
    }
}
