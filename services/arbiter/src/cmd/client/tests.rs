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

#[test]
fn a_server_address_without_a_scheme_is_plain_http() {
    use super::connect::with_scheme;
    assert_eq!(with_scheme("127.0.0.1:7070"), "http://127.0.0.1:7070");
    assert_eq!(
        with_scheme("https://arbiter.example.org"),
        "https://arbiter.example.org"
    );
}

#[test]
fn the_services_methods_are_named_as_subcommands() {
    assert_eq!(
        super::cli_words("round 2 is closed: use CorrectResult (C.04.2 D.8)"),
        "round 2 is closed: use `arbiter client correct` (C.04.2 D.8)"
    );
    assert_eq!(
        super::cli_words("the tournament is finished: UpdateTournament is no longer possible"),
        "the tournament is finished: `arbiter client update` is no longer possible"
    );
    // Only whole words: a field name that contains a method's name is left alone.
    assert_eq!(super::cli_words("RecordResults x"), "RecordResults x");
}

/// Every subcommand, argument and flag says what it is for in `--help`.
#[test]
fn every_argument_is_described() {
    use clap::Args;
    let root = super::ClientArgs::augment_args(clap::Command::new("client"));
    let mut bare = Vec::new();
    for sub in root.get_subcommands() {
        if sub.get_about().is_none() {
            bare.push(sub.get_name().to_string());
        }
        for a in sub.get_arguments() {
            let id = a.get_id().as_str();
            if a.is_hide_set() || id == "help" || id == "version" {
                continue;
            }
            if a.get_help().is_none() && a.get_long_help().is_none() {
                bare.push(format!("{} {id}", sub.get_name()));
            }
        }
    }
    assert!(bare.is_empty(), "without a description: {bare:?}");
}
