//! Derived views, setters and the writer on hand-made files.

mod common;

use arbiter_core::{Color, PointSystem, ResultCode, RoundEntry, Score};
use arbiter_trf::*;
use common::*;
use std::collections::{BTreeMap, BTreeSet};

fn file(lines: &[String]) -> Trf {
    parse(&join(lines, "\n")).unwrap_or_else(|e| panic!("{e}\n{}", join(lines, "\n")))
}

fn plus(extra: &[&str]) -> Vec<String> {
    let mut l = base_lines();
    l.extend(extra.iter().map(|s| s.to_string()));
    l
}

#[test]
fn absences_from_xxz_240_and_the_column() {
    let mut l = plus(&["XXZ 2", "240 H 003 0003", "240 F 004 0001"]);
    l[6].push_str("  0000 - Z"); // player 4 announced absent in round 3
    let f = file(&l).file;
    assert_eq!(f.round_to_pair(), 3);
    assert_eq!(
        f.absences(3),
        BTreeMap::from([
            (2, ResultCode::ZeroBye),
            (3, ResultCode::HalfBye),
            (4, ResultCode::ZeroBye)
        ])
    );
    // XXZ speaks of the round to pair only; 240 of its own round.
    assert_eq!(f.absences(4), BTreeMap::from([(1, ResultCode::FullBye)]));
    assert!(f.absences(2).is_empty());
    assert_eq!(f.absent_players(3), BTreeSet::from([2, 3, 4]));
}

#[test]
fn past_rounds_not_paired_are_absences() {
    let mut l = base_lines();
    // Round 2 of player 3 and 4 blanked: they were not paired.
    l[5] = player(3, "Cole, Cid", 2200, "0.0", &["   1 b 0"]);
    l[6] = player(4, "Dale, Dan", 2100, "0.5", &["   2 b ="]);
    let f = file(&l).file;
    assert_eq!(f.absent_players(2), BTreeSet::from([3, 4]));
    assert!(
        f.absent_players(3).is_empty(),
        "the round to pair has no information yet"
    );
}

#[test]
fn bye_record_contradicting_the_column_is_reported() {
    let mut l = plus(&["240 H 003 0004"]);
    l[6].push_str("  0000 - Z");
    let trf = file(&l);
    assert!(
        trf.warnings
            .iter()
            .any(|w| w.kind == WarningKind::Conflict && w.field == "240 bye type")
    );
    assert_eq!(
        trf.file.absences(3)[&4],
        ResultCode::ZeroBye,
        "the column wins"
    );
}

#[test]
fn forbidden_pairs_from_xxp_and_260() {
    let f = file(&plus(&[
        "XXP 1 2 3",
        "260 003 003    2    4",
        "260 001 002    3    4",
    ]))
    .file;
    let whole: BTreeSet<(u32, u32)> = BTreeSet::from([(1, 2), (1, 3), (2, 3)]);
    assert_eq!(
        f.forbidden_pairs(1),
        whole.iter().copied().chain([(3, 4)]).collect()
    );
    assert_eq!(
        f.forbidden_pairs(3),
        whole.iter().copied().chain([(2, 4)]).collect()
    );
    assert_eq!(f.forbidden_pairs(4), whole);
}

fn scored(points: [&str; 4], extra: &[&str]) -> Vec<String> {
    let mut l = plus(extra);
    for (i, p) in points.iter().enumerate() {
        l[3 + i] = format!("{}{:>4}{}", &l[3 + i][..80], p, &l[3 + i][84..]);
    }
    l
}

#[test]
fn point_system_from_bbp_codes() {
    let f = file(&scored(
        ["4.0", "2.0", "0.0", "4.0"],
        &["BBW  3.0", "BBD  1.0", "BBU  1.0"],
    ))
    .file;
    let ps = f.point_system();
    assert_eq!(
        (
            ps.win,
            ps.draw,
            ps.loss,
            ps.pairing_bye,
            ps.full_bye,
            ps.half_bye
        ),
        (
            Score(30),
            Score(10),
            Score(0),
            Score(10),
            Score(30),
            Score(10)
        )
    );
    assert_eq!(f.point_system_source(), PointSource::Bbp);
    // BBU defaults to the win value.
    let g = file(&scored(
        ["4.0", "2.0", "0.0", "4.0"],
        &["BBW  3.0", "BBD  1.0"],
    ))
    .file;
    assert_eq!(g.point_system().pairing_bye, Score(30));
}

#[test]
fn point_system_from_162() {
    let f = file(&scored(
        ["4.0", "2.0", "0.0", "4.0"],
        &["162  W 3.0    D 1.0    P 1.0    A 0.0"],
    ))
    .file;
    let ps = f.point_system();
    assert_eq!(
        (ps.win, ps.draw, ps.pairing_bye, ps.forfeit_win, ps.zero_bye),
        (Score(30), Score(10), Score(10), Score(30), Score(0))
    );
    assert_eq!(f.point_system_source(), PointSource::Record162);
    assert_eq!(f.profile(), Profile::Trf2026);
    // bbpPairings v6 writes Z for A: same meaning.
    let g = file(&scored(
        ["4.0", "2.0", "0.0", "4.0"],
        &["162  W 3.0    D 1.0    Z 0.0"],
    ))
    .file;
    assert_eq!(
        g.point_system(),
        PointSystem::with_win_draw(Score(30), Score(10))
    );
}

#[test]
fn point_system_from_xxs() {
    let f = file(&scored(
        ["4.0", "2.0", "0.0", "4.0"],
        &["XXS W=3 D=1", "XXS PAB=2"],
    ))
    .file;
    let ps = f.point_system();
    assert_eq!(
        (
            ps.win,
            ps.draw,
            ps.pairing_bye,
            ps.forfeit_win,
            ps.full_bye,
            ps.half_bye
        ),
        (
            Score(30),
            Score(10),
            Score(20),
            Score(30),
            Score(30),
            Score(10)
        )
    );
    assert_eq!(f.point_system_source(), PointSource::Xxs);
}

#[test]
fn colour_dependent_xxs_is_used_for_the_points_check() {
    // Black wins count 2 here: player 4 won with black in round 2.
    let trf = file(&scored(["1.5", "1.0", "0.0", "2.5"], &["XXS BW=2"]));
    assert!(trf.warnings.iter().any(|w| w.field == "XXS"));
    assert_eq!(trf.file.point_system().win, Score::ONE);
}

#[test]
fn point_system_is_inferred_when_the_points_only_fit_another() {
    let trf = file(&scored(["4.0", "2.0", "0.0", "4.0"], &[]));
    assert_eq!(trf.file.point_system_source(), PointSource::Inferred);
    assert_eq!(
        trf.file.point_system(),
        PointSystem::with_win_draw(Score(30), Score(10))
    );
    assert!(
        trf.warnings
            .iter()
            .any(|w| w.kind == WarningKind::InferredScoring)
    );
}

#[test]
fn disagreeing_scoring_records_are_reported() {
    let trf = file(&scored(
        ["4.0", "2.0", "0.0", "4.0"],
        &["162  W 3.0    D 1.0", "BBW  2.0"],
    ));
    assert_eq!(trf.file.point_system_source(), PointSource::Record162);
    assert!(
        trf.warnings
            .iter()
            .any(|w| w.kind == WarningKind::Conflict && w.field == "point system")
    );
}

#[test]
fn points_may_leave_out_the_byes_of_the_round_to_pair() {
    let mut l = base_lines();
    l[3].push_str("  0000 - H");
    let f = file(&l).file; // 1.5 without the bye
    assert_eq!(f.score_after(1, 2), Some(Score(15)));
    assert_eq!(f.score_after(1, 3), Some(Score(20)));
    let mut l = base_lines();
    l[3] = l[3].replacen(" 1.5 ", " 2.0 ", 1);
    l[3].push_str("  0000 - H");
    file(&l); // 2.0 with the bye: accepted too
}

#[test]
fn initial_colour_sources() {
    let f = file(&base_lines()).file;
    assert_eq!(f.declared_initial_color(), Some(Color::White));
    let mut l = base_lines();
    l[8] = "XXC rank black1".into();
    assert_eq!(file(&l).file.declared_initial_color(), Some(Color::Black));
    l[8] = "152 B".into();
    assert_eq!(file(&l).file.initial_color(), Some(Color::Black));
    l.remove(8);
    let f = file(&l).file;
    assert_eq!(f.declared_initial_color(), None);
    assert_eq!(
        f.initial_color(),
        Some(Color::White),
        "player 1 had white in round 1"
    );
    let fresh = file(&[
        "012 New".into(),
        player(1, "A", 2000, "0.0", &[]),
        player(2, "B", 1900, "0.0", &[]),
    ])
    .file;
    assert_eq!(fresh.initial_color(), None);
    assert_eq!(fresh.round_to_pair(), 1);
}

#[test]
fn xxc_and_152_disagreeing_is_reported() {
    let trf = file(&plus(&["152 B"]));
    assert_eq!(trf.file.declared_initial_color(), Some(Color::Black));
    assert!(trf.warnings.iter().any(|w| w.field == "initial colour"));
}

#[test]
fn tournament_type_codes() {
    let t = TournamentType::parse("FIDE_DUTCH_2017");
    assert_eq!(
        (t.system, t.baku, t.dutch_rules()),
        (
            Some(TournamentSystem::FideDutch2017),
            false,
            Some(DutchRules::Dutch2017)
        )
    );
    assert_eq!(
        TournamentType::parse("FIDE_DUTCH").dutch_rules(),
        Some(DutchRules::Dutch2025)
    );
    assert_eq!(
        TournamentType::parse("FIDE_DUTCH_2026").dutch_rules(),
        Some(DutchRules::Dutch2025)
    );
    let b = TournamentType::parse("FIDE_BURSTEIN_BAKU");
    assert_eq!(
        (b.system, b.baku, b.dutch_rules()),
        (Some(TournamentSystem::FideBurstein), true, None)
    );
    let d = TournamentType::parse("FIDE_DUBOV");
    assert_eq!(
        (d.system, d.baku, d.dutch_rules()),
        (Some(TournamentSystem::FideDubov), false, None)
    );
    for code in [
        "FIDE_TEAM",
        "FIDE_TEAM_TYPEB_MP_GP",
        "FIDE_TEAM_GP",
        "FIDE_TEAM_TYPEA_MP_BAKU",
    ] {
        assert_eq!(
            TournamentType::parse(code).system,
            Some(TournamentSystem::FideTeam),
            "{code}"
        );
    }
    assert_eq!(TournamentType::parse("FIDE_TEAM_ROUNDROBIN").system, None);
    let o = TournamentType::parse("MY_OWN_SYSTEM");
    assert_eq!((o.system, o.baku), (None, false));
    let f = file(&plus(&["192 FIDE_DUTCH_2025_BAKU"])).file;
    assert_eq!(
        f.tournament_type().unwrap().system,
        Some(TournamentSystem::FideDutch2025)
    );
    // A free-text 092 is not a type code.
    let g = file(&plus(&["092 Individual: Swiss-System"])).file;
    assert_eq!(g.tournament_type(), None);
}

#[test]
fn total_rounds_is_the_largest_statement() {
    let f = file(&base_lines()).file;
    assert_eq!(
        (f.declared_rounds(), f.round_columns(), f.total_rounds()),
        (Some(3), 2, 3)
    );
    let f = file(&plus(&["142 5"])).file;
    assert_eq!(f.total_rounds(), 5);
    let mut l = base_lines();
    l.remove(7);
    l[2] = format!("132{:88}{}", "", "25/01/10  25/01/11  25/01/12  25/01/13");
    assert_eq!(file(&l).file.total_rounds(), 4);
    let trf = file(&plus(&["142 4"]));
    assert!(
        trf.warnings.iter().any(|w| w.field == "number of rounds"),
        "142 4 vs XXR 3"
    );
}

#[test]
fn round_to_pair_counts_pairings_not_byes() {
    let mut l = base_lines();
    l[3].push_str("  0000 - H");
    l[4].push_str("  0000 - Z");
    assert_eq!(file(&l).file.round_to_pair(), 3);
    // A pairing-allocated bye or a forfeit win makes the round paired.
    let mut l = base_lines();
    l[3] = l[3].replacen(" 1.5 ", " 2.5 ", 1);
    l[3].push_str("  0000 - U");
    assert_eq!(file(&l).file.round_to_pair(), 4);
    let mut l = base_lines();
    l[3] = l[3].replacen(" 1.5 ", " 2.5 ", 1);
    l[3].push_str("  0000 - +");
    assert_eq!(file(&l).file.round_to_pair(), 4);
}

#[test]
fn accelerations_from_250_xxa_and_baku() {
    let f = file(&plus(&[
        "250       1.0 001 002 0001 0002",
        "250       0.5 002 003 0002 0004",
    ]))
    .file;
    let a = f.accelerations();
    assert_eq!(a.source, AccelerationSource::Record250);
    assert_eq!(
        (a.get(1, 1), a.get(1, 2), a.get(1, 3)),
        (Score(10), Score(10), Score(0))
    );
    assert_eq!(
        (a.get(2, 1), a.get(2, 2), a.get(2, 3)),
        (Score(10), Score(15), Score(5)),
        "overlaps add up"
    );
    assert_eq!(
        (a.get(4, 1), a.get(4, 3), a.get(4, 9)),
        (Score(0), Score(5), Score(0))
    );
    let f = file(&plus(&["XXA    3  1.0  0.5", "XXA    3  0.5"])).file;
    let a = f.accelerations();
    assert_eq!(a.source, AccelerationSource::Xxa);
    assert_eq!(
        (a.get(3, 1), a.get(3, 2)),
        (Score(5), Score(0)),
        "the later line replaces the earlier"
    );
    // Baku implied by the type code: 4 players -> group A = 2, 3 rounds -> 2 accelerated.
    let f = file(&plus(&["192 FIDE_DUTCH_2025_BAKU"])).file;
    let a = f.accelerations();
    assert_eq!(a.source, AccelerationSource::ImpliedBaku);
    assert_eq!(
        a.points,
        BTreeMap::from([
            (1, vec![Score(10), Score(5)]),
            (2, vec![Score(10), Score(5)])
        ])
    );
    // Explicit records disable the implied acceleration.
    let f = file(&plus(&["192 FIDE_DUTCH_2025_BAKU", "XXA    1  0.5"])).file;
    assert_eq!(f.accelerations().source, AccelerationSource::Xxa);
}

#[test]
fn repeated_pairing_bye_is_a_warning() {
    let mut l = base_lines();
    l[3] = player(
        1,
        "Able, Ann",
        2400,
        "2.5",
        &["0000 - U", "   2 b =", "0000 - U"],
    );
    l[5] = player(3, "Cole, Cid", 2200, "0.0", &["        ", "   4 w 0"]);
    let trf = file(&l);
    assert!(
        trf.warnings
            .iter()
            .any(|w| w.kind == WarningKind::RepeatedPairingBye && w.location.unwrap().line == 4)
    );
}

#[test]
fn lenient_mode_turns_consistency_errors_into_warnings() {
    let l = {
        let mut l = base_lines();
        l[6] = l[6].replacen("   2 b =", "   2 w =", 1);
        l
    };
    assert_eq!(
        parse(&join(&l, "\n")).unwrap_err().kind,
        ErrorKind::ColourMismatch
    );
    let trf = parse_with(&join(&l, "\n"), &ParseOptions::lenient()).unwrap();
    let w: Vec<_> = trf
        .warnings
        .iter()
        .filter(|w| w.kind == WarningKind::Inconsistent)
        .collect();
    assert_eq!(w.len(), 1);
    assert_eq!(w[0].location, Some(Location::span(7, 97, 97)));
    // Syntax errors stay errors.
    let mut bad = base_lines();
    bad[3] = bad[3].replacen("   3 w 1", "   3 x 1", 1);
    assert!(parse_with(&join(&bad, "\n"), &ParseOptions::lenient()).is_err());
}

#[test]
fn check_on_a_model_built_in_code() {
    let mut f = TrfFile::new();
    f.records.push(Record::Text(TextRecord {
        code: TextCode::TournamentName,
        text: "Built".into(),
    }));
    let mut a = PlayerRecord::new(1, "A");
    a.rounds
        .push(Some(RoundEntry::game(2, Color::White, ResultCode::Win)));
    a.points = Score::ONE;
    let mut b = PlayerRecord::new(2, "B");
    b.rounds
        .push(Some(RoundEntry::game(1, Color::White, ResultCode::Loss)));
    f.records.push(Record::Player(a));
    f.records.push(Record::Player(b));
    let e = f.check(&ParseOptions::default()).unwrap_err();
    assert_eq!(
        (e.kind, e.line(), e.columns()),
        (ErrorKind::ColourMismatch, 3, Some((97, 97)))
    );
    // The location is that of the written file.
    let text = write(&f).unwrap();
    assert_eq!(parse(&text).unwrap_err(), e);
}

#[test]
fn setters_follow_the_profile() {
    let mut f = file(&base_lines()).file;
    f.records
        .retain(|r| !matches!(r, Record::Xxr(_) | Record::Xxc(_)));
    f.set_total_rounds(7);
    f.set_initial_color(Some(Color::Black));
    f.set_point_system(PointSystem::with_win_draw(Score(30), Score(10)));
    let first_player = f
        .records
        .iter()
        .position(|r| matches!(r, Record::Player(_)))
        .unwrap();
    assert!(
        f.records[3..first_player].contains(&Record::Xxr(7)),
        "added after the header"
    );
    assert!(f.records.contains(&Record::Xxc(vec![XxcOption::Black1])));
    assert!(f.records.contains(&Record::Bb(BbCode::W, Score(30))));
    assert_eq!(
        (f.total_rounds(), f.initial_color()),
        (7, Some(Color::Black))
    );
    assert_eq!(
        f.point_system(),
        PointSystem::with_win_draw(Score(30), Score(10))
    );
    f.set_initial_color(None);
    assert_eq!(f.declared_initial_color(), None);
    f.set_point_system(PointSystem::default());
    assert!(!f.records.iter().any(|r| matches!(r, Record::Bb(..))));

    let mut g = file(&plus(&["192 FIDE_DUTCH_2025"])).file;
    g.records
        .retain(|r| !matches!(r, Record::Xxr(_) | Record::Xxc(_)));
    assert_eq!(g.profile(), Profile::Trf2026);
    g.set_total_rounds(7);
    g.set_initial_color(Some(Color::White));
    g.set_point_system(PointSystem::with_win_draw(Score(20), Score(10)));
    assert!(g.records.contains(&Record::Rounds(7)));
    assert!(g.records.contains(&Record::InitialColor(Color::White)));
    assert!(g.records.contains(&Record::Scoring(vec![
        ScoringEntry {
            symbol: ScoringSymbol::W,
            points: Score(20)
        },
        ScoringEntry {
            symbol: ScoringSymbol::D,
            points: Score(10)
        },
    ])));
}

/// A file with one of every record type, built in code.
fn kitchen_sink() -> TrfFile {
    let mut recs = vec![
        Record::Text(TextRecord {
            code: TextCode::TournamentName,
            text: "Every Record Open".into(),
        }),
        Record::Text(TextRecord {
            code: TextCode::TieBreaks,
            text: "BH/C1,BH,DE".into(),
        }),
        Record::RoundDates(RoundDates {
            label: String::new(),
            dates: vec![
                Some(RoundDate {
                    yy: 25,
                    month: 2,
                    day: 28,
                }),
                None,
                Some(RoundDate {
                    yy: 24,
                    month: 2,
                    day: 29,
                }),
            ],
        }),
        Record::Rounds(3),
        Record::InitialColor(Color::Black),
        Record::Scoring(vec![ScoringEntry {
            symbol: ScoringSymbol::X,
            points: Score(5),
        }]),
        Record::NationalRating(NationalRating {
            federation: "ESP".into(),
            method: "FIDON".into(),
        }),
        Record::Comment(" players".into()),
        Record::Blank,
    ];
    let mut a = PlayerRecord::new(1, "Alpha, Anna");
    a.sex = Some(Sex::Female);
    a.title = Some(TitleCode::Fide(Title::WGM));
    a.rating = Some(2301);
    a.federation = "ARG".into();
    a.fide_id = Some(12_345_678_901);
    a.birth_date = Some(BirthDate::Year(1999));
    a.points = Score(15);
    a.rank = Some(1);
    a.rounds = vec![
        Some(RoundEntry::game(2, Color::White, ResultCode::Win)),
        None,
        Some(RoundEntry::bye(ResultCode::HalfBye)),
    ];
    let mut b = PlayerRecord::new(2, "Beta, Björn");
    b.title = Some(TitleCode::Other("AGM".into()));
    b.rating = Some(0);
    b.birth_date = Some(BirthDate::Full {
        year: 2001,
        month: 0,
        day: 0,
    });
    b.rounds = vec![
        Some(RoundEntry::game(1, Color::Black, ResultCode::Loss)),
        None,
        Some(RoundEntry {
            opponent: None,
            color: None,
            result: ResultCode::ForfeitLoss,
        }),
    ];
    recs.push(Record::Player(a));
    recs.push(Record::Player(b));
    recs.extend([
        Record::Team013(Team013 {
            name: "Old Club".into(),
            members: vec![Some(1), None, Some(2)],
        }),
        Record::Team310(Team310 {
            number: 1,
            name: "New Club".into(),
            nickname: "NEWC".into(),
            strength: Some(2300),
            match_points: Some(Score(20)),
            game_points: Some(Score(15)),
            rank: Some(1),
            members: vec![Some(1), Some(2)],
        }),
        Record::Byes(ByeRecord {
            kind: ByeKind::Half,
            round: 3,
            ids: vec![1],
        }),
        Record::Acceleration(AccelerationRecord {
            match_points: Some(Score(10)),
            game_points: Some(Score(5)),
            first_round: 1,
            last_round: 1,
            first_id: 1,
            last_id: 1,
        }),
        Record::Prohibited(ProhibitedRecord {
            first_round: 1,
            last_round: 3,
            ids: vec![1, 2],
        }),
        Record::Xxr(3),
        Record::Xxc(vec![XxcOption::Rank, XxcOption::Black1]),
        Record::Xxa(XxaRecord {
            player: 2,
            points: vec![Score(10), Score(0), Score(5)],
        }),
        Record::Xxs(vec![XxsEntry {
            code: XxsCode::FPB,
            points: Score(10),
        }]),
        Record::Xxz(vec![2]),
        Record::Xxp(vec![1, 2]),
        Record::Bb(BbCode::U, Score(10)),
        Record::Other("DAT    1 EMAIL anna@example.invalid".into()),
        Record::Other("299 W  1.0 000 0001".into()),
    ]);
    TrfFile { records: recs }
}

#[test]
fn every_record_type_round_trips() {
    let f = kitchen_sink();
    for ending in [LineEnding::Lf, LineEnding::CrLf, LineEnding::Cr] {
        let text = write_with(&f, ending).unwrap();
        let back = parse_with(&text, &ParseOptions::lenient()).unwrap();
        assert_eq!(back.file, f, "{text}");
        assert_eq!(back.line_ending, ending);
        assert_eq!(write_with(&back.file, ending).unwrap(), text);
    }
    let text = write(&f).unwrap();
    let p1 = text.lines().find(|l| l.starts_with("001    1")).unwrap();
    assert_eq!(&p1[..14], "001    1 wWGM ");
    assert_eq!(&p1[48..56], "2301 ARG");
    assert_eq!(&p1[57..79], "12345678901 1999      ");
    assert!(text.contains("250  1.0  0.5 001 001 0001 0001"));
    assert!(text.contains("260 001 003    1    2"));
    assert!(text.contains("240 H 003 0001"));
    assert!(text.contains("162  X 0.5"));
}

#[test]
fn writer_refuses_what_would_not_read_back() {
    let base = kitchen_sink();
    let player_at = base
        .records
        .iter()
        .position(|r| matches!(r, Record::Player(_)))
        .unwrap();
    type Breakage = Box<dyn Fn(&mut PlayerRecord)>;
    let broken: Vec<(&str, Breakage)> = vec![
        ("name", Box::new(|p| p.name = "X".repeat(34))),
        ("name", Box::new(|p| p.name = " padded".into())),
        ("points", Box::new(|p| p.points = Score(1005))),
        ("rounds", Box::new(|p| p.rounds.push(None))),
        (
            "round 1",
            Box::new(|p| {
                p.rounds[0] = Some(RoundEntry {
                    opponent: None,
                    color: None,
                    result: ResultCode::Win,
                })
            }),
        ),
        ("start number", Box::new(|p| p.start_number = 0)),
        (
            "title",
            Box::new(|p| p.title = Some(TitleCode::Other("GM".into()))),
        ),
        ("federation", Box::new(|p| p.federation = "ESPA".into())),
        (
            "birth date",
            Box::new(|p| {
                p.birth_date = Some(BirthDate::Full {
                    year: 2001,
                    month: 2,
                    day: 30,
                })
            }),
        ),
    ];
    for (field, f) in broken {
        let mut m = base.clone();
        if let Record::Player(p) = &mut m.records[player_at] {
            f(p);
        }
        let e = write(&m).unwrap_err();
        assert_eq!((e.record, e.field.as_str()), (player_at + 1, field), "{e}");
    }
    let mut m = base.clone();
    m.records.push(Record::Other("001 not a player".into()));
    assert_eq!(write(&m).unwrap_err().field, "record");
    let mut m = base.clone();
    m.records.push(Record::Text(TextRecord {
        code: TextCode::City,
        text: "two\nlines".into(),
    }));
    assert_eq!(write(&m).unwrap_err().field, "022");
    let mut m = base;
    m.records.push(Record::Xxr(1000));
    assert_eq!(write(&m).unwrap_err().field, "XXR number of rounds");
}

#[test]
fn whole_points_that_fill_the_column_are_written_without_decimals() {
    let mut p = PlayerRecord::new(1, "A");
    p.points = Score(99990);
    let f = TrfFile {
        records: vec![Record::Player(p)],
    };
    let text = write(&f).unwrap();
    assert!(text.ends_with(" 9999\r\n"), "{text}");
    assert_eq!(parse_with(&text, &ParseOptions::lenient()).unwrap().file, f);
}

#[test]
fn profile_conversion_of_the_engine_records() {
    let f = file(&scored(
        ["4.0", "2.0", "0.0", "4.0"],
        &[
            "BBW  3.0",
            "BBD  1.0",
            "XXA    1  1.0  1.0  0.5",
            "XXA    2  1.0  1.0  0.5",
            "XXP 1 4",
            "XXZ 3",
        ],
    ))
    .file;
    let c = f.to_profile(Profile::Trf2026);
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    let g = c.file;
    let kinds: Vec<&Record> = g
        .records
        .iter()
        .filter(|r| {
            !matches!(
                r,
                Record::Player(_) | Record::Text(_) | Record::RoundDates(_)
            )
        })
        .collect();
    assert_eq!(
        kinds,
        vec![
            &Record::Rounds(3),
            &Record::InitialColor(Color::White),
            &Record::Scoring(vec![
                ScoringEntry {
                    symbol: ScoringSymbol::W,
                    points: Score(30)
                },
                ScoringEntry {
                    symbol: ScoringSymbol::D,
                    points: Score(10)
                },
            ]),
            &Record::Acceleration(AccelerationRecord {
                match_points: None,
                game_points: Some(Score(10)),
                first_round: 1,
                last_round: 2,
                first_id: 1,
                last_id: 2
            }),
            &Record::Acceleration(AccelerationRecord {
                match_points: None,
                game_points: Some(Score(5)),
                first_round: 3,
                last_round: 3,
                first_id: 1,
                last_id: 2
            }),
            &Record::Prohibited(ProhibitedRecord {
                first_round: 1,
                last_round: 3,
                ids: vec![1, 4]
            }),
            &Record::Byes(ByeRecord {
                kind: ByeKind::Zero,
                round: 3,
                ids: vec![3]
            }),
        ]
    );
    for r in 1..=3 {
        assert_eq!(g.absences(r), f.absences(r));
        assert_eq!(g.forbidden_pairs(r), f.forbidden_pairs(r));
    }
    assert_eq!(g.accelerations().points, f.accelerations().points);
    // And back: the 240 becomes a bye in the player's round column.
    let h = g.to_profile(Profile::Trf16X).file;
    assert_eq!(
        h.player(3).unwrap().entry(3),
        Some(&RoundEntry::bye(ResultCode::ZeroBye))
    );
    assert_eq!(h.absences(3), f.absences(3));
    assert_eq!(h.point_system(), f.point_system());
    assert!(h.records.contains(&Record::Xxp(vec![1, 4])));
    assert!(h.records.contains(&Record::Xxr(3)));
    assert_eq!(parse(&write(&h).unwrap()).unwrap().file, h);
}
