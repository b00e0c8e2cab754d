//! No input makes the reader panic, and whatever it accepts writes back to the same model.

mod common;

use arbiter_trf::{ParseOptions, Profile, TrfFile, parse_bytes_with, parse_with, write};
use proptest::prelude::*;
use std::path::Path;
use std::sync::OnceLock;

fn samples() -> &'static Vec<Vec<u8>> {
    static S: OnceLock<Vec<Vec<u8>>> = OnceLock::new();
    S.get_or_init(|| {
        let g = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/golden");
        let mut v: Vec<Vec<u8>> = [
            "dutch-2017/t0516.trf", // XXA
            "dutch-2017/t0171.trf", // BBW / BBD
            "dutch-2025/t0237.trf", // 250
            "dutch-2025/t0501.trf", // 162
            "tiebreaks/swiss-unplayed.trf",
            "manual-example/inputs/pair-r5.trf",
        ]
        .iter()
        .map(|f| std::fs::read(g.join(f)).unwrap())
        .collect();
        v.push(common::base_text().into_bytes());
        let t = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/teams/team-2026.trf");
        v.push(std::fs::read(t).unwrap()); // 310, 320, 330, 300
        // Files as older programs write them (legacy dates, byes, encodings).
        let l = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/legacy");
        for f in [
            "all-at-once.trf",
            "dates-iso.trf",
            "forfeit-colourless.trf",
            "bye-pab-blank.trf",
            "round-robin-team-lines-shifted.trf",
        ] {
            v.push(std::fs::read(l.join(f)).unwrap());
        }
        v
    })
}

/// Everything a consumer might call on a parsed file; none of it may panic.
fn exercise(f: &TrfFile, opts: &ParseOptions) {
    let _ = f.point_system();
    let _ = f.point_system_source();
    let _ = f.initial_color();
    let _ = f.tournament_type();
    let _ = f.profile();
    let acc = f.accelerations();
    let rounds = f.total_rounds();
    let rtp = f.round_to_pair();
    for r in (0..=rounds.saturating_add(1).min(15)).chain([rtp]) {
        let _ = f.absences(r);
        let _ = f.forbidden_pairs(r);
        for p in f.players().take(5) {
            let _ = acc.get(p.start_number, r);
            let _ = f.score_after(p.start_number, r);
        }
    }
    for p in [Profile::Trf16X, Profile::Trf2026] {
        let c = f.to_profile(p);
        let _ = write(&c.file);
    }
    // Whatever was read can be written, and reads back as the same model.
    let text = write(f).unwrap_or_else(|e| panic!("cannot write a parsed file: {e}"));
    let back =
        parse_with(&text, opts).unwrap_or_else(|e| panic!("written file rejected: {e}\n{text}"));
    assert_eq!(&back.file, f);
}

fn try_all(bytes: &[u8]) {
    let both = ParseOptions {
        lenient: true,
        tolerant: true,
    };
    for opts in [
        ParseOptions::default(),
        ParseOptions::lenient(),
        ParseOptions::tolerant(),
        both,
    ] {
        if let Ok(t) = parse_bytes_with(bytes, &opts) {
            exercise(&t.file, &opts);
        }
    }
}

#[derive(Debug, Clone)]
enum Mutation {
    SetByte(usize, u8),
    Insert(usize, Vec<u8>),
    Delete(usize, usize),
    DuplicateLine(usize),
    SwapLines(usize, usize),
    Truncate(usize),
}

const PIECES: &[&str] = &[
    "0000 - U",
    "0000 - H",
    "  12 w 1",
    "   1 b =",
    " - ",
    "+",
    "-",
    "=",
    "Z",
    "XXR 0",
    "XXR 9999",
    "XXA    1  1.0",
    "250       1.0 001 999 0001 9999",
    "260 001 999    1    2",
    "240 Z 001 0001",
    "XXZ 1",
    "XXP 1 2",
    "152 B",
    "162  W99.5",
    "BBW 99999999",
    "XXS W=999999",
    "142 999",
    "###",
    "\r",
    "\n",
    "\r\n",
    "\t",
    "é",
    "\u{FFFF}",
    "9999",
    "-9.9",
    ".5",
    "0000 - =",
    "0000 - +",
    "0000 - -",
    "        ",
    "10.09.13",
    "11.25.02",
    "2013-09-10",
    "1969.12.06",
    ".  .",
    "\u{8A}",
];

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), any::<u8>()).prop_map(|(p, b)| Mutation::SetByte(p, b)),
        (any::<usize>(), prop::collection::vec(any::<u8>(), 1..6))
            .prop_map(|(p, b)| Mutation::Insert(p, b)),
        (any::<usize>(), prop::sample::select(PIECES))
            .prop_map(|(p, s)| Mutation::Insert(p, s.as_bytes().to_vec())),
        (any::<usize>(), 1usize..12).prop_map(|(p, n)| Mutation::Delete(p, n)),
        any::<usize>().prop_map(Mutation::DuplicateLine),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Mutation::SwapLines(a, b)),
        any::<usize>().prop_map(Mutation::Truncate),
    ]
}

fn apply(mut v: Vec<u8>, muts: &[Mutation]) -> Vec<u8> {
    for m in muts {
        let n = v.len().max(1);
        match m {
            Mutation::SetByte(p, b) => {
                if !v.is_empty() {
                    let i = p % v.len();
                    v[i] = *b;
                }
            }
            Mutation::Insert(p, b) => {
                let i = p % (v.len() + 1);
                v.splice(i..i, b.iter().copied());
            }
            Mutation::Delete(p, len) => {
                let i = p % n;
                let j = (i + len).min(v.len());
                if i < j {
                    v.drain(i..j);
                }
            }
            Mutation::Truncate(p) => v.truncate(p % n),
            Mutation::DuplicateLine(p) | Mutation::SwapLines(p, _) => {
                let mut lines: Vec<Vec<u8>> =
                    v.split(|&b| b == b'\n').map(|l| l.to_vec()).collect();
                let k = lines.len();
                match m {
                    Mutation::DuplicateLine(_) => {
                        let l = lines[p % k].clone();
                        lines.insert(p % k, l);
                    }
                    Mutation::SwapLines(a, b) => lines.swap(a % k, b % k),
                    _ => {}
                }
                v = lines.join(&b'\n');
            }
        }
    }
    v
}

/// Lines that look like TRF records, so the random input reaches the field readers.
fn trf_like_line() -> impl Strategy<Value = String> {
    let code = prop::sample::select(vec![
        "001", "012", "132", "142", "152", "162", "172", "192", "013", "310", "300", "320", "330",
        "240", "250", "260", "XXR", "XXC", "XXA", "XXS", "XXZ", "XXP", "BBW", "BBU", "###", "DAT",
        "299", "ESP", "   ",
    ]);
    (code, "[ 0-9wbWBmfgdlDLHFUZ+=.,/:\\-]{0,130}").prop_map(|(c, rest)| format!("{c} {rest}"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        try_all(&bytes);
    }

    #[test]
    fn random_record_like_lines_never_panic(
        lines in prop::collection::vec(trf_like_line(), 0..12),
        ending in prop::sample::select(vec!["\n", "\r\n", "\r"]),
    ) {
        try_all(lines.join(ending).as_bytes());
    }

    #[test]
    fn mutated_corpus_files_never_panic(
        which in 0usize..11,
        muts in prop::collection::vec(mutation(), 1..4),
    ) {
        let input = apply(samples()[which].clone(), &muts);
        try_all(&input);
    }
}

#[test]
fn the_unmutated_samples_are_accepted() {
    // The legacy files (the last five) only in the tolerant mode.
    for s in samples() {
        let t = parse_bytes_with(s, &ParseOptions::tolerant()).unwrap();
        exercise(&t.file, &ParseOptions::tolerant());
    }
    for s in &samples()[..samples().len() - 5] {
        let t = parse_bytes_with(s, &ParseOptions::default()).unwrap();
        exercise(&t.file, &ParseOptions::default());
    }
}

// ---------------------------------------------------------------------------------------------
// parse(write(x)) == x for models built in code.

use arbiter_core::{Color, PlayerId, ResultCode, RoundEntry, Score};
use arbiter_trf::*;

fn score(max_abs: i32) -> impl Strategy<Value = Score> {
    (-max_abs..=max_abs).prop_map(Score)
}

fn id() -> impl Strategy<Value = PlayerId> {
    1u32..=9999
}

fn text(max: usize) -> impl Strategy<Value = String> {
    prop::string::string_regex(&format!("[ -~À-ÿ]{{0,{max}}}"))
        .unwrap()
        .prop_map(|s| s.trim().to_string())
}

fn colour() -> impl Strategy<Value = Color> {
    prop_oneof![Just(Color::White), Just(Color::Black)]
}

fn entry() -> impl Strategy<Value = Option<RoundEntry>> {
    let played = prop::sample::select(vec![
        ResultCode::Win,
        ResultCode::Draw,
        ResultCode::Loss,
        ResultCode::WinUnrated,
        ResultCode::DrawUnrated,
        ResultCode::LossUnrated,
    ]);
    let bye = prop::sample::select(vec![
        ResultCode::HalfBye,
        ResultCode::FullBye,
        ResultCode::PairingBye,
        ResultCode::ZeroBye,
    ]);
    let forfeit = prop::sample::select(vec![ResultCode::ForfeitWin, ResultCode::ForfeitLoss]);
    prop_oneof![
        Just(None),
        (id(), colour(), played).prop_map(|(o, c, r)| Some(RoundEntry::game(o, c, r))),
        (id(), prop::option::of(colour()), forfeit.clone()).prop_map(|(o, c, r)| Some(
            RoundEntry {
                opponent: Some(o),
                color: c,
                result: r
            }
        )),
        forfeit.prop_map(|r| Some(RoundEntry::bye(r))),
        bye.prop_map(|r| Some(RoundEntry::bye(r))),
    ]
}

fn player() -> impl Strategy<Value = PlayerRecord> {
    let title = prop_oneof![
        Just(None),
        prop::sample::select(vec![
            Title::GM,
            Title::IM,
            Title::WGM,
            Title::FM,
            Title::WIM,
            Title::CM,
            Title::WFM,
            Title::WCM
        ])
        .prop_map(|t| Some(TitleCode::Fide(t))),
        Just(Some(TitleCode::Other("AGM".into()))),
    ];
    let birth =
        prop_oneof![
            Just(None),
            (0u16..=9999).prop_map(|y| Some(BirthDate::Year(y))),
            (1900u16..2030, 1u8..=12, 1u8..=28)
                .prop_map(|(year, month, day)| Some(BirthDate::Full { year, month, day })),
        ];
    (
        (
            id(),
            prop::option::of(prop_oneof![Just(Sex::Male), Just(Sex::Female)]),
            title,
            text(33),
        ),
        (
            prop::option::of(0u16..=9999),
            prop::string::string_regex("[A-Z]{0,3}").unwrap(),
            prop::option::of(0u64..=99_999_999_999),
            birth,
        ),
        (
            (-99i32..=999).prop_map(Score),
            prop::option::of(0u32..=9999),
            prop::collection::vec(entry(), 0..14),
        ),
    )
        .prop_map(
            |(
                (start_number, sex, title, name),
                (rating, federation, fide_id, birth_date),
                (points, rank, mut rounds),
            )| {
                while rounds.last() == Some(&None) {
                    rounds.pop();
                }
                PlayerRecord {
                    start_number,
                    sex,
                    title,
                    name,
                    rating,
                    federation,
                    fide_id,
                    birth_date,
                    points,
                    rank,
                    rounds,
                }
            },
        )
}

fn record() -> impl Strategy<Value = Record> {
    let round = 1u32..=999;
    prop_oneof![
        player().prop_map(Record::Player),
        player().prop_map(Record::Player),
        Just(Record::Blank),
        text(60).prop_map(Record::Comment),
        (prop::sample::select(TextCode::ALL.to_vec()), text(60))
            .prop_map(|(code, text)| Record::Text(TextRecord { code, text })),
        prop::collection::vec(prop::option::of((0u8..=99, 1u8..=12, 1u8..=28)), 0..8).prop_map(
            |mut v| {
                while v.last() == Some(&None) {
                    v.pop();
                }
                Record::RoundDates(RoundDates {
                    label: String::new(),
                    dates: v
                        .into_iter()
                        .map(|d| d.map(|(yy, month, day)| RoundDate { yy, month, day }))
                        .collect(),
                })
            }
        ),
        round.clone().prop_map(Record::Rounds),
        colour().prop_map(Record::InitialColor),
        prop::collection::vec(
            (
                prop::sample::select(vec![
                    ScoringSymbol::W,
                    ScoringSymbol::D,
                    ScoringSymbol::L,
                    ScoringSymbol::A,
                    ScoringSymbol::P,
                    ScoringSymbol::X,
                    ScoringSymbol::Z
                ]),
                score(99)
            ),
            1..6,
        )
        .prop_map(|v| Record::Scoring(
            v.into_iter()
                .map(|(symbol, points)| ScoringEntry { symbol, points })
                .collect()
        )),
        (
            prop::string::string_regex("[A-Z]{3}").unwrap(),
            prop::sample::select(vec!["FIDE", "NRO", "OTHER"])
        )
            .prop_map(|(federation, m)| Record::NationalRating(NationalRating {
                federation,
                method: m.into()
            })),
        (
            text(32),
            prop::collection::vec(prop::option::of(id()), 0..6)
        )
            .prop_map(|(name, mut members)| {
                while members.last() == Some(&None) {
                    members.pop();
                }
                Record::Team013(Team013 { name, members })
            }),
        (
            round.clone(),
            1u32..=999,
            1u32..=998,
            prop::collection::vec(prop::option::of(id()), 1..6)
        )
            .prop_map(
                |(round, team, d, boards)| Record::TeamOrder300(TeamOrder300 {
                    round,
                    team,
                    opponent: (team + d - 1) % 999 + 1,
                    boards,
                })
            ),
        (
            0i32..=999,
            0i32..=999,
            prop::collection::vec(prop::option::of(1u32..=999), 0..8)
        )
            .prop_map(|(mp, gp, teams)| Record::TeamByes320(TeamByes320 {
                match_points: Score(mp),
                game_points: Score(gp),
                teams,
            })),
        (
            prop::sample::select(vec![
                TeamForfeitKind::WhiteWins,
                TeamForfeitKind::BlackWins,
                TeamForfeitKind::Double
            ]),
            round.clone(),
            1u32..=999,
            1u32..=998
        )
            .prop_map(
                |(kind, round, white, d)| Record::TeamForfeit330(TeamForfeit330 {
                    kind,
                    round,
                    white,
                    black: (white + d - 1) % 999 + 1,
                })
            ),
        (
            prop::sample::select(vec![ByeKind::Full, ByeKind::Half, ByeKind::Zero]),
            round.clone(),
            prop::collection::vec(id(), 1..5)
        )
            .prop_map(|(kind, round, ids)| Record::Byes(ByeRecord { kind, round, ids })),
        (1i32..=999, round.clone(), 0u32..5, id()).prop_map(|(gp, r, extra, first_id)| {
            Record::Acceleration(AccelerationRecord {
                match_points: None,
                game_points: Some(Score(gp)),
                first_round: r,
                last_round: (r + extra).min(999),
                first_id,
                last_id: first_id,
            })
        }),
        (round.clone(), prop::collection::vec(id(), 2..5)).prop_map(|(r, ids)| Record::Prohibited(
            ProhibitedRecord {
                first_round: r,
                last_round: r,
                ids
            }
        )),
        round.prop_map(Record::Xxr),
        prop::sample::select(vec![
            vec![XxcOption::White1],
            vec![XxcOption::Rank, XxcOption::Black1],
            vec![XxcOption::Rank]
        ])
        .prop_map(Record::Xxc),
        (
            id(),
            prop::collection::vec(score(999).prop_map(|s| Score(s.tenths().abs())), 0..8)
        )
            .prop_map(|(player, points)| Record::Xxa(XxaRecord { player, points })),
        prop::collection::vec(
            (prop::sample::select(XxsCode::ALL.to_vec()), score(100_000)),
            1..5
        )
        .prop_map(|v| Record::Xxs(
            v.into_iter()
                .map(|(code, points)| XxsEntry { code, points })
                .collect()
        )),
        prop::collection::vec(id(), 1..5).prop_map(Record::Xxz),
        prop::collection::vec(id(), 2..5).prop_map(Record::Xxp),
        (prop::sample::select(BbCode::ALL.to_vec()), score(100_000))
            .prop_map(|(c, v)| Record::Bb(c, v)),
        text(60).prop_map(|t| Record::Other(format!("Q{t}").trim_end().to_string())),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn written_models_read_back_unchanged(
        records in prop::collection::vec(record(), 1..25),
        ending in prop::sample::select(vec![LineEnding::Lf, LineEnding::CrLf, LineEnding::Cr]),
    ) {
        let f = TrfFile { records };
        let text = write_with(&f, ending).unwrap_or_else(|e| panic!("{e}"));
        if f.records.iter().all(|r| matches!(r, Record::Blank)) {
            prop_assert!(parse(&text).is_err());
        } else {
            let back = parse_with(&text, &ParseOptions::lenient()).unwrap_or_else(|e| panic!("{e}\n{text}"));
            prop_assert_eq!(&back.file, &f);
            prop_assert_eq!(back.line_ending, ending);
            prop_assert_eq!(write_with(&back.file, ending).unwrap(), text);
        }
    }
}
