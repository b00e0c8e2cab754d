//! Every file of the golden corpora reads without error and writes back byte for byte.

use arbiter_trf::{Profile, parse, write_with};
use std::path::{Path, PathBuf};

fn golden() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/golden")
}

fn trf_files(dir: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(golden().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "trf"))
        .collect();
    v.sort();
    v
}

fn round_trip(files: &[PathBuf], expected: Profile) {
    assert!(!files.is_empty());
    for f in files {
        let text = std::fs::read_to_string(f).unwrap();
        let trf = parse(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        assert_eq!(trf.profile(), expected, "{}", f.display());
        let out = write_with(&trf.file, trf.line_ending).unwrap();
        if out != text {
            for (a, b) in out.lines().zip(text.lines()) {
                assert_eq!(a, b, "{}", f.display());
            }
            panic!("{}: line count differs", f.display());
        }
        assert_eq!(trf.write().unwrap(), text);
        let again = parse(&out).unwrap();
        assert_eq!(again.file, trf.file);
    }
}

#[test]
fn dutch_2017_round_trips() {
    round_trip(&trf_files("dutch-2017"), Profile::Trf16X);
}

#[test]
fn dutch_2025_round_trips() {
    round_trip(&trf_files("dutch-2025"), Profile::Trf2026);
}

#[test]
fn tiebreak_file_round_trips() {
    round_trip(&trf_files("tiebreaks"), Profile::Trf2026);
}

#[test]
fn seed_example_round_trips() {
    let mut files = trf_files("manual-example");
    files.extend(trf_files("manual-example/inputs"));
    assert_eq!(files.len(), 7);
    round_trip(&files, Profile::Trf16X);
}

// ---------------------------------------------------------------------------------------------
// Derived views against the corpus index and READMEs.

use arbiter_core::{Color, PlayerId, ResultCode, Score};
use arbiter_trf::{AccelerationSource, DutchRules, PointSource, TrfFile};
use std::collections::{BTreeMap, BTreeSet};

struct IndexRow {
    file: String,
    players: usize,
    rounds: u32,
    win: Score,
    draw: Score,
    baku: bool,
}

fn index(dir: &str) -> Vec<IndexRow> {
    let text = std::fs::read_to_string(golden().join(dir).join("index.tsv")).unwrap();
    text.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let param = |k: &str| {
                f[4].split(' ')
                    .find_map(|p| p.strip_prefix(k))
                    .unwrap_or_else(|| panic!("{k} in {l}"))
                    .to_string()
            };
            IndexRow {
                file: f[0].to_string(),
                players: f[1].parse().unwrap(),
                rounds: f[2].parse().unwrap(),
                win: param("PointsForWin=").parse().unwrap(),
                draw: param("PointsForDraw=").parse().unwrap(),
                baku: param("Acceleration=").starts_with("baku"),
            }
        })
        .collect()
}

fn load(dir: &str, file: &str) -> (String, arbiter_trf::Trf) {
    let text = std::fs::read_to_string(golden().join(dir).join(file)).unwrap();
    let trf = parse(&text).unwrap_or_else(|e| panic!("{dir}/{file}: {e}"));
    (text, trf)
}

/// Baku acceleration as the corpus READMEs define it, computed independently of the crate.
fn baku_expected(n: usize, rounds: u32, round: u32, id: PlayerId) -> Score {
    let group_a = 2 * n.div_ceil(4) as u32;
    let acc = rounds.div_ceil(2);
    if id > group_a || round > acc {
        Score::ZERO
    } else if round <= acc.div_ceil(2) {
        Score::ONE
    } else {
        Score::HALF
    }
}

fn check_index_views(dir: &str) {
    let rows = index(dir);
    assert_eq!(rows.len(), 600);
    let mut accelerated = 0;
    for row in rows {
        let (_, trf) = load(dir, &row.file);
        let f = &trf.file;
        let ctx = format!("{dir}/{}", row.file);
        assert!(trf.warnings.is_empty(), "{ctx}: {:?}", trf.warnings);
        assert_eq!(f.players().count(), row.players, "{ctx}");
        assert_eq!(f.total_rounds(), row.rounds, "{ctx}");
        assert_eq!(f.round_columns(), row.rounds, "{ctx}");
        assert_eq!(f.declared_rounds(), None, "{ctx}");
        assert_eq!(f.round_to_pair(), row.rounds + 1, "{ctx}");
        let ps = f.point_system();
        assert_eq!(
            (ps.win, ps.draw, ps.loss),
            (row.win, row.draw, Score::ZERO),
            "{ctx}"
        );
        assert_eq!(
            (ps.pairing_bye, ps.half_bye, ps.zero_bye, ps.forfeit_loss),
            (row.win, row.draw, Score::ZERO, Score::ZERO)
        );
        let explicit = if dir == "dutch-2017" {
            PointSource::Bbp
        } else {
            PointSource::Record162
        };
        let source = if row.win == Score::ONE {
            PointSource::Default
        } else {
            explicit
        };
        assert_eq!(f.point_system_source(), source, "{ctx}");
        assert_eq!(f.declared_initial_color(), None, "{ctx}");
        assert!(f.initial_color().is_some(), "{ctx}");
        let acc = f.accelerations();
        if row.baku {
            accelerated += 1;
            let src = if dir == "dutch-2017" {
                AccelerationSource::Xxa
            } else {
                AccelerationSource::Record250
            };
            assert_eq!(acc.source, src, "{ctx}");
            for p in f.players() {
                for r in 1..=row.rounds + 1 {
                    assert_eq!(
                        acc.get(p.start_number, r),
                        baku_expected(row.players, row.rounds, r, p.start_number),
                        "{ctx} player {} round {r}",
                        p.start_number
                    );
                }
            }
        } else {
            assert!(acc.is_empty(), "{ctx}");
            assert_eq!(acc.source, AccelerationSource::None, "{ctx}");
        }
        match dir {
            "dutch-2025" => {
                let t = f.tournament_type().unwrap();
                assert_eq!(t.code, "FIDE_DUTCH_2025");
                assert_eq!(t.dutch_rules(), Some(DutchRules::Dutch2025));
                assert!(!t.baku);
            }
            _ => assert_eq!(f.tournament_type(), None),
        }
        // A complete file: every player's points are the sum of all his results.
        for p in f.players() {
            assert_eq!(
                f.score_after(p.start_number, row.rounds),
                Some(p.points),
                "{ctx}"
            );
        }
    }
    assert!(accelerated > 30);
}

#[test]
fn dutch_2017_views_match_index() {
    check_index_views("dutch-2017");
}

#[test]
fn dutch_2025_views_match_index() {
    check_index_views("dutch-2025");
}

/// Builds the input for pairing round `r` as the corpus READMEs' protocol describes it.
fn truncate(f: &TrfFile, r: u32) -> TrfFile {
    let mut t = f.clone();
    let total = f.total_rounds();
    let colour = f.initial_color();
    let scores: BTreeMap<PlayerId, Score> = f
        .players()
        .map(|p| {
            (
                p.start_number,
                f.score_after(p.start_number, r - 1).unwrap(),
            )
        })
        .collect();
    for p in t.players_mut() {
        let keep_r = p.entry(r).copied().filter(|e| {
            e.opponent.is_none()
                && !matches!(e.result, ResultCode::PairingBye | ResultCode::ForfeitWin)
        });
        p.rounds.truncate(r as usize - 1);
        if let Some(e) = keep_r {
            p.rounds.resize(r as usize - 1, None);
            p.rounds.push(Some(e));
        }
        while p.rounds.last() == Some(&None) {
            p.rounds.pop();
        }
        p.points = scores[&p.start_number];
    }
    t.set_total_rounds(total);
    t.set_initial_color(colour);
    t
}

fn check_protocol(dir: &str, step: usize) {
    let rows = index(dir);
    for row in rows.iter().step_by(step) {
        let (_, full) = load(dir, &row.file);
        let full = full.file;
        for r in 1..=row.rounds {
            let ctx = format!("{dir}/{} round {r}", row.file);
            let t = truncate(&full, r);
            let text = arbiter_trf::write_with(&t, arbiter_trf::LineEnding::Lf).unwrap();
            let back = parse(&text).unwrap_or_else(|e| panic!("{ctx}: {e}"));
            assert_eq!(back.file, t, "{ctx}");
            let g = &back.file;
            assert_eq!(g.profile(), full.profile(), "{ctx}");
            assert_eq!(g.round_to_pair(), r, "{ctx}");
            assert_eq!(g.total_rounds(), row.rounds, "{ctx}");
            assert_eq!(g.declared_rounds(), Some(row.rounds), "{ctx}");
            assert_eq!(g.declared_initial_color(), full.initial_color(), "{ctx}");
            let expected: BTreeMap<PlayerId, ResultCode> = full
                .players()
                .filter_map(|p| {
                    let e = p.entry(r)?;
                    (e.opponent.is_none()
                        && !matches!(e.result, ResultCode::PairingBye | ResultCode::ForfeitWin))
                    .then_some((p.start_number, e.result))
                })
                .collect();
            assert_eq!(g.absences(r), expected, "{ctx}");
            assert_eq!(
                g.accelerations().points,
                full.accelerations().points,
                "{ctx}"
            );
            assert_eq!(g.point_system(), full.point_system(), "{ctx}");
        }
    }
}

#[test]
fn dutch_2017_round_by_round_inputs() {
    check_protocol("dutch-2017", 3);
}

#[test]
fn dutch_2025_round_by_round_inputs() {
    check_protocol("dutch-2025", 3);
}

fn check_conversions(dir: &str) {
    for row in index(dir).iter() {
        let (_, trf) = load(dir, &row.file);
        let f = &trf.file;
        for target in [Profile::Trf16X, Profile::Trf2026] {
            let ctx = format!("{dir}/{} to {target:?}", row.file);
            let c = f.to_profile(target);
            assert!(c.warnings.is_empty(), "{ctx}: {:?}", c.warnings);
            let g = &c.file;
            // A `092` holding a type code (as bbpPairings v6 writes it) marks a file as TRF-2026
            // even when every other record is TRF16; the conversion keeps that free-text record.
            let code_in_092 =
                g.text(arbiter_trf::TextCode::TournamentType) == Some("FIDE_DUTCH_2025");
            if !(target == Profile::Trf16X && code_in_092) {
                assert_eq!(g.profile(), target, "{ctx}");
            }
            let text = arbiter_trf::write(g).unwrap();
            let back = parse(&text).unwrap_or_else(|e| panic!("{ctx}: {e}"));
            assert_eq!(&back.file, g, "{ctx}");
            assert_eq!(
                g.players().collect::<Vec<_>>(),
                f.players().collect::<Vec<_>>(),
                "{ctx}"
            );
            assert_eq!(g.point_system(), f.point_system(), "{ctx}");
            assert_eq!(g.total_rounds(), f.total_rounds(), "{ctx}");
            assert_eq!(g.initial_color(), f.initial_color(), "{ctx}");
            assert_eq!(g.accelerations().points, f.accelerations().points, "{ctx}");
            assert_eq!(g.round_to_pair(), f.round_to_pair(), "{ctx}");
            if target == f.profile() && target == Profile::Trf16X {
                assert_eq!(g, f, "{ctx}: conversion to its own profile changes nothing");
            }
            if target == Profile::Trf2026 {
                assert_eq!(g.declared_rounds(), Some(row.rounds), "{ctx}");
                if dir == "dutch-2025" {
                    assert_eq!(
                        g.text(arbiter_trf::TextCode::EncodedType),
                        Some("FIDE_DUTCH_2025")
                    );
                }
            }
            // And back again.
            let other = if target == Profile::Trf16X {
                Profile::Trf2026
            } else {
                Profile::Trf16X
            };
            let h = g.to_profile(other).file;
            assert_eq!(h.point_system(), f.point_system(), "{ctx}");
            assert_eq!(h.accelerations().points, f.accelerations().points, "{ctx}");
        }
    }
}

#[test]
fn dutch_2017_profile_conversions_keep_the_views() {
    check_conversions("dutch-2017");
}

#[test]
fn dutch_2025_profile_conversions_keep_the_views() {
    check_conversions("dutch-2025");
}

// ---------------------------------------------------------------------------------------------
// The seed example against expected-pairings.json.

fn seed_json() -> serde_json::Value {
    let text =
        std::fs::read_to_string(golden().join("manual-example/expected-pairings.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn not_paired(json: &serde_json::Value, round: u32) -> BTreeSet<PlayerId> {
    json["rounds"][(round - 1) as usize]["not_paired"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as PlayerId)
        .collect()
}

#[test]
fn seed_example_views() {
    let json = seed_json();
    let (_, trf) = load("manual-example", "manual-40p-7r.trf");
    let f = &trf.file;
    assert_eq!(
        f.players().count(),
        json["players"].as_array().unwrap().len()
    );
    assert_eq!(f.total_rounds(), 7);
    assert_eq!(f.declared_rounds(), Some(7));
    assert_eq!(f.round_to_pair(), 7);
    assert_eq!(f.declared_initial_color(), Some(Color::White));
    assert_eq!(f.initial_color(), Some(Color::White));
    assert_eq!(f.absent_players(7), not_paired(&json, 7));
    assert_eq!(f.point_system_source(), PointSource::Default);
    for p in json["players"].as_array().unwrap() {
        let id = p["pairing_number"].as_u64().unwrap() as PlayerId;
        let rec = f.player(id).unwrap();
        assert_eq!(rec.name, p["name"].as_str().unwrap());
        assert_eq!(rec.rating.map(u64::from), p["rating"].as_u64());
        assert_eq!(rec.federation, p["federation"].as_str().unwrap());
    }
    // Rounds 1-6: every board of the json appears on both lines with the right colours.
    for round in 1..=6u32 {
        let boards = json["rounds"][(round - 1) as usize]["boards"]
            .as_array()
            .unwrap();
        let mut games = 0;
        for b in boards {
            let white = b["white"].as_u64().unwrap() as PlayerId;
            match b["black"].as_u64() {
                Some(black) => {
                    let black = black as PlayerId;
                    let we = f.player(white).unwrap().entry(round).unwrap();
                    let be = f.player(black).unwrap().entry(round).unwrap();
                    assert_eq!(
                        (we.opponent, we.color),
                        (Some(black), Some(Color::White)),
                        "round {round}"
                    );
                    assert_eq!(
                        (be.opponent, be.color),
                        (Some(white), Some(Color::Black)),
                        "round {round}"
                    );
                    games += 2;
                }
                None => {
                    assert_eq!(
                        f.player(white).unwrap().entry(round).unwrap().result,
                        ResultCode::PairingBye
                    );
                    games += 1;
                }
            }
        }
        assert_eq!(
            games + not_paired(&json, round).len(),
            f.players().filter(|p| p.entry(round).is_some()).count()
        );
        assert_eq!(
            f.absent_players(round),
            not_paired(&json, round),
            "round {round}"
        );
    }
}

#[test]
fn seed_example_inputs_pair_the_right_round() {
    let json = seed_json();
    for k in 1..=6u32 {
        let (_, trf) = load("manual-example/inputs", &format!("pair-r{k}.trf"));
        let f = &trf.file;
        assert_eq!(f.round_to_pair(), k, "pair-r{k}");
        assert_eq!(f.total_rounds(), 7, "pair-r{k}");
        assert_eq!(f.initial_color(), Some(Color::White), "pair-r{k}");
        assert_eq!(f.absent_players(k), not_paired(&json, k), "pair-r{k}");
    }
}

#[test]
fn tiebreak_example_views() {
    let (_, trf) = load("tiebreaks", "swiss-unplayed.trf");
    let f = &trf.file;
    assert!(trf.warnings.is_empty(), "{:?}", trf.warnings);
    assert_eq!(f.total_rounds(), 5);
    assert_eq!(f.declared_rounds(), Some(5));
    assert_eq!(f.round_to_pair(), 6);
    assert_eq!(f.tournament_type().unwrap().code, "CUSTOM_SWISS");
    assert_eq!(f.tournament_type().unwrap().dutch_rules(), None);
    assert_eq!(
        f.text(arbiter_trf::TextCode::TieBreaks),
        Some("BH/C1,BH,DE,SB")
    );
    assert_eq!(f.initial_color(), Some(Color::White));
    assert_eq!(f.absences(2), BTreeMap::from([(6, ResultCode::HalfBye)]));
    assert_eq!(f.absences(5), BTreeMap::from([(5, ResultCode::ZeroBye)]));
    let p3 = f.player(3).unwrap();
    assert_eq!(
        p3.title,
        Some(arbiter_trf::TitleCode::Fide(arbiter_trf::Title::WGM))
    );
    assert_eq!(p3.sex, Some(arbiter_trf::Sex::Female));
    assert_eq!(
        p3.birth_date,
        Some(arbiter_trf::BirthDate::Full {
            year: 1992,
            month: 3,
            day: 3
        })
    );
    assert_eq!(p3.fide_id, Some(100003));
    assert_eq!(p3.rank, Some(1));
    let dates = f.records.iter().find_map(|r| match r {
        arbiter_trf::Record::RoundDates(d) => Some(d.dates.len()),
        _ => None,
    });
    assert_eq!(dates, Some(5));
}
