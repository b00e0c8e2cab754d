//! Standings (shared places, score groups), the CLI report function and its three formats.

mod common;

use arbiter_core::ResultCode::*;
use arbiter_tiebreak::{
    Error, Format, ModelError, Options, RuleSet, TieBreakList, render, standings, standings_report,
    standings_report_with,
};
use common::swiss;

/// Four players, two rounds, two perfectly symmetric pairs: 1 and 3 beat 2 and 4, then 1-3 and
/// 2-4 are drawn. 1 and 3 are equal on every tie-break; so are 2 and 4.
fn symmetric() -> arbiter_tiebreak::Tournament {
    let mut t = swiss(4, 2);
    t.set_game(1, 1, 2, Win);
    t.set_game(1, 4, 3, Loss);
    t.set_game(2, 3, 1, Draw);
    t.set_game(2, 2, 4, Draw);
    for p in &mut t.players {
        p.rating = Some(2000);
    }
    t.start_date = Some("2026/04/01".parse().unwrap());
    t
}

#[test]
fn shared_places_when_everything_is_equal() {
    let t = symmetric();
    let list: TieBreakList = "BH/C1,BH,SB,DE,WIN,BPG".parse().unwrap();
    let st = standings(&t, &list.0, &Options::default()).unwrap();
    assert_eq!(st.rule_set, RuleSet::C07_2026);
    let ranks: Vec<(u32, u32, u32)> = st.rows.iter().map(|r| (r.id, r.rank, r.rank_to)).collect();
    // Everyone had one game with Black; 1 and 3 (and 2 and 4) are equal on every value: two
    // shared places.
    assert_eq!(ranks, vec![(1, 1, 2), (3, 1, 2), (2, 3, 4), (4, 3, 4)]);
    assert_eq!(st.rows[0].score_group, (1, 2));
    assert_eq!(st.rows[3].score_group, (3, 4));
    // TPN (2026) is a deterministic last resort.
    let list: TieBreakList = "BH,TPN".parse().unwrap();
    let st = standings(&t, &list.0, &Options::default()).unwrap();
    let ranks: Vec<(u32, u32)> = st.rows.iter().map(|r| (r.id, r.rank)).collect();
    assert_eq!(ranks, vec![(1, 1), (3, 2), (2, 3), (4, 4)]);
    assert_eq!(st.rows[1].score_group, (1, 2));
}

#[test]
fn leading_pts_is_the_primary_score() {
    let t = symmetric();
    let with: TieBreakList = "PTS,BH".parse().unwrap();
    let without: TieBreakList = "BH".parse().unwrap();
    let a = standings(&t, &with.0, &Options::default()).unwrap();
    let b = standings(&t, &without.0, &Options::default()).unwrap();
    assert_eq!(a, b);
}

#[test]
fn text_report() {
    let mut t = symmetric();
    t.players[0].federation = Some("ESP".into());
    let list: TieBreakList = "BH,SB".parse().unwrap();
    let text = standings_report(&t, &list.0, Format::Text).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "Rules: c07-2026-03");
    assert!(lines[1].starts_with(" Rk  No  Name"), "{}", lines[1]);
    assert!(lines[1].ends_with("BH    SB"), "{}", lines[1]);
    // Shared place written as a range; BH with one decimal, SB with two.
    assert!(
        lines[2].starts_with("1-2   1  Player 1  2000  ESP  1.5"),
        "{}",
        lines[2]
    );
    assert!(lines[2].ends_with("2.0  1.25"), "{}", lines[2]);
    assert_eq!(lines.len(), 6);
}

#[test]
fn csv_report() {
    let mut t = symmetric();
    t.players[1].name = "Doe, \"JD\" John".into();
    let list: TieBreakList = "BH/C1,ARO".parse().unwrap();
    let csv = standings_report(&t, &list.0, Format::Csv).unwrap();
    let lines: Vec<&str> = csv.split("\r\n").collect();
    assert_eq!(
        lines[0],
        "rank,rank_to,no,name,rating,federation,points,BH/C1,ARO"
    );
    assert_eq!(lines[1], "1,2,1,Player 1,2000,,1.5,1.5,2000");
    assert!(
        lines.iter().any(|l| l.contains("\"Doe, \"\"JD\"\" John\"")),
        "{csv}"
    );
    assert_eq!(lines.len(), 6); // header, four rows, final empty piece
}

#[test]
fn json_report() {
    let t = symmetric();
    let list: TieBreakList = "BH,SB,TPR".parse().unwrap();
    let json = standings_report(&t, &list.0, Format::Json).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["rules"], "c07-2026-03");
    assert_eq!(v["tiebreaks"], serde_json::json!(["BH", "SB", "TPR"]));
    let rows = v["standings"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    assert_eq!(rows[0]["no"], 1);
    assert_eq!(rows[0]["rank_to"], 2);
    // Numbers are written exactly as decimals: compare the text.
    assert!(json.contains("\"SB\": 1.25"), "{json}");
    assert!(json.contains("\"points\": 1.5"), "{json}");
    assert_eq!(rows[0]["score_group"], serde_json::json!([1, 2]));
}

#[test]
fn empty_list_means_the_recommended_defaults() {
    let t = symmetric();
    let json = standings_report(&t, &[], Format::Json).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    // All rated, Swiss: BH/C1, BH, DE, ARO/C1, WIN, BWG, BPG, SB.
    assert_eq!(v["tiebreaks"].as_array().unwrap().len(), 8);
    assert_eq!(v["tiebreaks"][3], "ARO/C1");
}

#[test]
fn bad_models_are_errors_not_panics() {
    let mut t = symmetric();
    t.players[0].rounds[0].opponent = Some(9);
    let err = standings_report(&t, &[], Format::Text).unwrap_err();
    assert_eq!(
        err,
        Error::Model(ModelError::UnknownOpponent {
            player: 1,
            round: 1,
            opponent: 9
        })
    );
    assert!(err.to_string().contains("opponent 9 does not exist"));
    assert!("xml".parse::<Format>().is_err());
    assert_eq!("JSON".parse::<Format>().unwrap(), Format::Json);
}

#[test]
fn undefined_values_are_written_as_dashes_nulls_and_blanks() {
    let mut t = symmetric();
    t.players[3].rating = None;
    let list: TieBreakList = "ARO".parse().unwrap();
    let opts = Options::default();
    let st = standings(&t, &list.0, &opts).unwrap();
    assert!(st.rows.iter().all(|r| r.values[0].is_none()));
    assert!(st.warnings.iter().any(|w| w.contains("ARO")));
    assert!(
        render(&st, Format::Text)
            .lines()
            .nth(2)
            .unwrap()
            .ends_with('-')
    );
    assert!(
        render(&st, Format::Csv)
            .lines()
            .nth(1)
            .unwrap()
            .ends_with(',')
    );
    assert!(render(&st, Format::Json).contains("\"ARO\": null"));
    let with = Options {
        unrated_rating: Some(1500),
        ..opts
    };
    let json = standings_report_with(&t, &list.0, Format::Json, &with).unwrap();
    // Player 1 met 2 (2000) and 3 (2000).
    assert!(json.contains("\"ARO\": 2000"), "{json}");
}
