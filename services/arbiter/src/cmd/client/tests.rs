use super::reporting::points;
use super::round_director::parse_result;
use super::*;

#[test]
fn players_are_named_by_entry_or_pairing_number() {
    assert_eq!("E7".parse(), Ok(PlayerArg::Entry(7)));
    assert_eq!("e12".parse(), Ok(PlayerArg::Entry(12)));
    assert_eq!("12".parse(), Ok(PlayerArg::Number(12)));
    assert_eq!("#3".parse(), Ok(PlayerArg::Number(3)));
    for bad in ["", "E", "0", "E0", "x7", "7a", "-1"] {
        let e = bad.parse::<PlayerArg>().unwrap_err();
        assert!(e.contains("entry number"), "{bad:?}: {e}");
    }
}

#[test]
fn results_and_points_read_and_print() {
    assert_eq!(parse_result("1-0"), Some(BoardResult::WhiteWins));
    assert_eq!(parse_result(" 1/2 "), Some(BoardResult::Draw));
    assert_eq!(parse_result("-/+"), Some(BoardResult::BlackWinsForfeit));
    assert_eq!(parse_result("2-0"), None);
    assert_eq!(parse_result("+/-"), Some(BoardResult::WhiteWinsForfeit));
    assert_eq!(parse_result("W/L"), Some(BoardResult::WhiteWinsUnrated));
    assert_eq!(parse_result("D/D"), Some(BoardResult::DrawUnrated));
    assert_eq!(parse_result("L/W"), Some(BoardResult::BlackWinsUnrated));
    assert_eq!(
        parse_result("0-0"),
        Some(BoardResult::ArbiterDecision {
            white: ResultCode::Loss,
            black: ResultCode::Loss
        })
    );
    assert_eq!(
        parse_result("1/2-0"),
        Some(BoardResult::ArbiterDecision {
            white: ResultCode::Draw,
            black: ResultCode::Loss
        })
    );
    assert_eq!(parse_result("1-0 "), Some(BoardResult::WhiteWins));
    assert_eq!(parse_result("½-½"), Some(BoardResult::Draw));
    assert_eq!(points(35), "3.5");
    assert_eq!(points(30), "3");
}
