//! Conversions between the wire types of [`crate::events::v1`] and the domain types of
//! `arbiter-core`.
//!
//! Domain → wire conversions are infallible (`From`). Wire → domain conversions are fallible
//! (`TryFrom`) because a message may carry an unspecified or unknown enum value; the error names
//! the field and the value.

use crate::events::v1 as pb;
use arbiter_core::{Color, PointSystem, ResultCode, Score};

mod events;
pub use events::*;

/// A wire value that has no domain meaning.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConvertError {
    #[error("{field}: value {value} is unspecified or unknown")]
    BadEnum { field: &'static str, value: i32 },
    #[error("{field}: {message}")]
    Invalid {
        field: &'static str,
        message: String,
    },
}

impl From<Color> for pb::Color {
    fn from(c: Color) -> pb::Color {
        match c {
            Color::White => pb::Color::White,
            Color::Black => pb::Color::Black,
        }
    }
}

/// Reads a colour field; `COLOR_UNSPECIFIED` is `None` ("no colour", e.g. a bye).
pub fn color_from_wire(value: i32) -> Result<Option<Color>, ConvertError> {
    match pb::Color::try_from(value) {
        Ok(pb::Color::Unspecified) => Ok(None),
        Ok(pb::Color::White) => Ok(Some(Color::White)),
        Ok(pb::Color::Black) => Ok(Some(Color::Black)),
        Err(_) => Err(ConvertError::BadEnum {
            field: "color",
            value,
        }),
    }
}

impl From<ResultCode> for pb::ResultCode {
    fn from(r: ResultCode) -> pb::ResultCode {
        match r {
            ResultCode::Win => pb::ResultCode::Win,
            ResultCode::Draw => pb::ResultCode::Draw,
            ResultCode::Loss => pb::ResultCode::Loss,
            ResultCode::WinUnrated => pb::ResultCode::WinUnrated,
            ResultCode::DrawUnrated => pb::ResultCode::DrawUnrated,
            ResultCode::LossUnrated => pb::ResultCode::LossUnrated,
            ResultCode::ForfeitWin => pb::ResultCode::ForfeitWin,
            ResultCode::ForfeitLoss => pb::ResultCode::ForfeitLoss,
            ResultCode::HalfBye => pb::ResultCode::HalfBye,
            ResultCode::FullBye => pb::ResultCode::FullBye,
            ResultCode::PairingBye => pb::ResultCode::PairingBye,
            ResultCode::ZeroBye => pb::ResultCode::ZeroBye,
        }
    }
}

impl TryFrom<pb::ResultCode> for ResultCode {
    type Error = ConvertError;
    fn try_from(r: pb::ResultCode) -> Result<ResultCode, ConvertError> {
        Ok(match r {
            pb::ResultCode::Unspecified => {
                return Err(ConvertError::BadEnum {
                    field: "result_code",
                    value: 0,
                });
            }
            pb::ResultCode::Win => ResultCode::Win,
            pb::ResultCode::Draw => ResultCode::Draw,
            pb::ResultCode::Loss => ResultCode::Loss,
            pb::ResultCode::WinUnrated => ResultCode::WinUnrated,
            pb::ResultCode::DrawUnrated => ResultCode::DrawUnrated,
            pb::ResultCode::LossUnrated => ResultCode::LossUnrated,
            pb::ResultCode::ForfeitWin => ResultCode::ForfeitWin,
            pb::ResultCode::ForfeitLoss => ResultCode::ForfeitLoss,
            pb::ResultCode::HalfBye => ResultCode::HalfBye,
            pb::ResultCode::FullBye => ResultCode::FullBye,
            pb::ResultCode::PairingBye => ResultCode::PairingBye,
            pb::ResultCode::ZeroBye => ResultCode::ZeroBye,
        })
    }
}

/// Reads a result-code field (an `i32` on the wire) named `field`.
pub fn result_code_from_wire(field: &'static str, value: i32) -> Result<ResultCode, ConvertError> {
    pb::ResultCode::try_from(value)
        .map_err(|_| ConvertError::BadEnum { field, value })
        .and_then(|r| ResultCode::try_from(r).map_err(|_| ConvertError::BadEnum { field, value }))
}

impl From<PointSystem> for pb::PointSystem {
    fn from(p: PointSystem) -> pb::PointSystem {
        pb::PointSystem {
            win: p.win.tenths(),
            draw: p.draw.tenths(),
            loss: p.loss.tenths(),
            forfeit_win: p.forfeit_win.tenths(),
            forfeit_loss: p.forfeit_loss.tenths(),
            pairing_bye: p.pairing_bye.tenths(),
            half_bye: p.half_bye.tenths(),
            full_bye: p.full_bye.tenths(),
            zero_bye: p.zero_bye.tenths(),
        }
    }
}

impl From<pb::PointSystem> for PointSystem {
    fn from(p: pb::PointSystem) -> PointSystem {
        PointSystem {
            win: Score(p.win),
            draw: Score(p.draw),
            loss: Score(p.loss),
            forfeit_win: Score(p.forfeit_win),
            forfeit_loss: Score(p.forfeit_loss),
            zero_bye: Score(p.zero_bye),
            half_bye: Score(p.half_bye),
            full_bye: Score(p.full_bye),
            pairing_bye: Score(p.pairing_bye),
        }
    }
}

/// The per-player result codes `(white, black)` of a board result.
///
/// For `BOARD_RESULT_ARBITER_DECISION` the codes come from `white_code` / `black_code` (both must
/// be given); for every other result they are implied and the two fields are ignored.
pub fn board_result_codes(
    result: i32,
    white_code: i32,
    black_code: i32,
) -> Result<(ResultCode, ResultCode), ConvertError> {
    use ResultCode as R;
    let r = pb::BoardResult::try_from(result).map_err(|_| ConvertError::BadEnum {
        field: "result",
        value: result,
    })?;
    Ok(match r {
        pb::BoardResult::Unspecified => {
            return Err(ConvertError::BadEnum {
                field: "result",
                value: result,
            });
        }
        pb::BoardResult::WhiteWins => (R::Win, R::Loss),
        pb::BoardResult::Draw => (R::Draw, R::Draw),
        pb::BoardResult::BlackWins => (R::Loss, R::Win),
        pb::BoardResult::WhiteWinsForfeit => (R::ForfeitWin, R::ForfeitLoss),
        pb::BoardResult::BlackWinsForfeit => (R::ForfeitLoss, R::ForfeitWin),
        pb::BoardResult::DoubleForfeit => (R::ForfeitLoss, R::ForfeitLoss),
        pb::BoardResult::WhiteWinsUnrated => (R::WinUnrated, R::LossUnrated),
        pb::BoardResult::DrawUnrated => (R::DrawUnrated, R::DrawUnrated),
        pb::BoardResult::BlackWinsUnrated => (R::LossUnrated, R::WinUnrated),
        pb::BoardResult::ArbiterDecision => {
            let w = result_code_from_wire("white_code", white_code)?;
            let b = result_code_from_wire("black_code", black_code)?;
            for (field, c) in [("white_code", w), ("black_code", b)] {
                if !c.has_opponent() {
                    return Err(ConvertError::Invalid {
                        field,
                        message: format!("{c:?} is a bye code, not a game result"),
                    });
                }
            }
            (w, b)
        }
    })
}

/// The board result for a pair of per-player codes: a named result when one fits, otherwise
/// `BOARD_RESULT_ARBITER_DECISION` (the codes must then be sent alongside).
pub fn board_result_for(white: ResultCode, black: ResultCode) -> pb::BoardResult {
    use ResultCode as R;
    match (white, black) {
        (R::Win, R::Loss) => pb::BoardResult::WhiteWins,
        (R::Draw, R::Draw) => pb::BoardResult::Draw,
        (R::Loss, R::Win) => pb::BoardResult::BlackWins,
        (R::ForfeitWin, R::ForfeitLoss) => pb::BoardResult::WhiteWinsForfeit,
        (R::ForfeitLoss, R::ForfeitWin) => pb::BoardResult::BlackWinsForfeit,
        (R::ForfeitLoss, R::ForfeitLoss) => pb::BoardResult::DoubleForfeit,
        (R::WinUnrated, R::LossUnrated) => pb::BoardResult::WhiteWinsUnrated,
        (R::DrawUnrated, R::DrawUnrated) => pb::BoardResult::DrawUnrated,
        (R::LossUnrated, R::WinUnrated) => pb::BoardResult::BlackWinsUnrated,
        _ => pb::BoardResult::ArbiterDecision,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL_CODES: [ResultCode; 12] = [
        ResultCode::Win,
        ResultCode::Draw,
        ResultCode::Loss,
        ResultCode::WinUnrated,
        ResultCode::DrawUnrated,
        ResultCode::LossUnrated,
        ResultCode::ForfeitWin,
        ResultCode::ForfeitLoss,
        ResultCode::HalfBye,
        ResultCode::FullBye,
        ResultCode::PairingBye,
        ResultCode::ZeroBye,
    ];

    #[test]
    fn result_codes_round_trip() {
        for c in ALL_CODES {
            let wire = pb::ResultCode::from(c) as i32;
            assert_eq!(result_code_from_wire("code", wire).unwrap(), c);
        }
        assert_eq!(
            result_code_from_wire("code", 0),
            Err(ConvertError::BadEnum {
                field: "code",
                value: 0
            })
        );
        assert!(result_code_from_wire("code", 99).is_err());
    }

    #[test]
    fn colors_round_trip() {
        for c in [Color::White, Color::Black] {
            assert_eq!(color_from_wire(pb::Color::from(c) as i32).unwrap(), Some(c));
        }
        assert_eq!(color_from_wire(0).unwrap(), None);
        assert!(color_from_wire(7).is_err());
    }

    #[test]
    fn point_system_round_trips_in_tenths() {
        let p = PointSystem::with_win_draw(Score(30), Score(10));
        let wire = pb::PointSystem::from(p);
        assert_eq!(
            (wire.win, wire.draw, wire.pairing_bye, wire.half_bye),
            (30, 10, 30, 10)
        );
        assert_eq!(PointSystem::from(wire), p);
    }

    #[test]
    fn every_board_result_maps_to_mirrored_codes_and_back() {
        for r in 1..=9 {
            let (w, b) = board_result_codes(r, 0, 0).unwrap();
            assert_eq!(board_result_for(w, b) as i32, r);
            // A double forfeit is the one result whose codes are not each other's mirror.
            if r != pb::BoardResult::DoubleForfeit as i32 {
                assert_eq!(w.mirrored(), Some(b));
            }
        }
        let (w, b) = board_result_codes(pb::BoardResult::DoubleForfeit as i32, 0, 0).unwrap();
        assert_eq!((w, b), (ResultCode::ForfeitLoss, ResultCode::ForfeitLoss));
    }

    #[test]
    fn arbiter_decision_needs_game_codes() {
        let ad = pb::BoardResult::ArbiterDecision as i32;
        let loss = pb::ResultCode::Loss as i32;
        let draw = pb::ResultCode::Draw as i32;
        assert_eq!(
            board_result_codes(ad, loss, loss).unwrap(),
            (ResultCode::Loss, ResultCode::Loss)
        );
        assert_eq!(
            board_result_codes(ad, draw, loss).unwrap(),
            (ResultCode::Draw, ResultCode::Loss)
        );
        assert_eq!(
            board_result_for(ResultCode::Loss, ResultCode::Loss),
            pb::BoardResult::ArbiterDecision
        );
        let err = board_result_codes(ad, 0, loss).unwrap_err();
        assert_eq!(
            err,
            ConvertError::BadEnum {
                field: "white_code",
                value: 0
            }
        );
        let half_bye = pb::ResultCode::HalfBye as i32;
        assert!(matches!(
            board_result_codes(ad, loss, half_bye),
            Err(ConvertError::Invalid {
                field: "black_code",
                ..
            })
        ));
        assert!(board_result_codes(0, 0, 0).is_err());
        assert!(board_result_codes(42, 0, 0).is_err());
    }
}
