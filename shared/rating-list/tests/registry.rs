//! The rating-list registry on real sled files: imports of generated lists, lookups, bad
//! records reported with line and column, failed imports that leave the list in use alone.

use arbiter_core::tournament::{RatingKind, RegisterPlayer, Title as CoreTitle};
use arbiter_eventlog::testing::TempDir;
use arbiter_rating::list::ListError;
use arbiter_rating_list::synthetic::{record, text_column, write_text_list, write_xml_list};
use arbiter_rating_list::{ImportOptions, ListFormat, Registry, RegistryEntry, RegistryError};
use std::io::Write;

const FIRST_ID: u64 = 4_100_000;

fn text_list(players: u64) -> Vec<u8> {
    let mut v = Vec::new();
    write_text_list(&mut v, FIRST_ID, players).unwrap();
    v
}

/// Replaces the value starting at 1-based character column `column` of 1-based line `line`
/// (the value runs to the next blank) with `with`, padded to the same width.
fn corrupt(list: &[u8], line: usize, column: usize, with: &str) -> Vec<u8> {
    let text = String::from_utf8(list.to_vec()).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let chars: Vec<char> = lines[line - 1].chars().collect();
    let start = column - 1;
    let end = (start..chars.len())
        .find(|&i| chars[i] == ' ')
        .unwrap_or(chars.len());
    assert!(
        with.chars().count() <= end - start,
        "the replacement must fit"
    );
    let mut out: String = chars[..start].iter().collect();
    out.push_str(&format!("{with:<w$}", w = end - start));
    out.extend(chars[end..].iter());
    lines[line - 1] = out;
    (lines.join("\n") + "\n").into_bytes()
}

#[test]
fn imports_a_ten_thousand_line_list_and_looks_players_up() {
    let dir = TempDir::new("arbiter-registry").unwrap();
    let path = dir.path().join("players_list_foa.txt");
    std::fs::write(&path, text_list(10_000)).unwrap();
    let registry_dir = dir.path().join("ratings");
    let registry = Registry::open(&registry_dir).unwrap();
    assert!(registry.is_empty());
    assert_eq!(registry.get(FIRST_ID).unwrap(), None);

    let options = ImportOptions {
        progress_every: 2_500,
        flush_every: 1_000,
        ..ImportOptions::default()
    };
    let mut seen = Vec::new();
    let report = registry
        .import_file(&path, &options, |p| seen.push(*p))
        .unwrap();
    assert_eq!(report.format, ListFormat::Text);
    assert_eq!(
        (report.records, report.players, report.errors),
        (10_000, 10_000, 0)
    );
    assert!(report.first_errors.is_empty());
    let size = std::fs::metadata(&path).unwrap().len();
    assert_eq!(report.bytes, size);
    // Progress every 2,500 records, then once at the end.
    let counts: Vec<u64> = seen.iter().map(|p| p.records).collect();
    assert_eq!(counts, vec![2_500, 5_000, 7_500, 10_000, 10_000]);
    assert!(seen.windows(2).all(|w| w[0].bytes <= w[1].bytes));
    assert_eq!(seen.last().unwrap().percent(), Some(100));
    assert_eq!(registry.len(), 10_000);

    for i in [0u64, 1, 2, 9, 96, 97, 1_234, 5_000, 9_999] {
        let got = registry.get(FIRST_ID + i).unwrap().unwrap();
        assert_eq!(got, RegistryEntry::from(&record(FIRST_ID, i)), "player {i}");
    }
    let jose = registry.get(FIRST_ID + 97).unwrap().unwrap();
    assert_eq!(jose.name, "Núñez-97, José");
    assert_eq!(registry.get(FIRST_ID + 10_000).unwrap(), None);
    assert_eq!(registry.get(1).unwrap(), None);
    let info = registry.info().unwrap().unwrap();
    assert_eq!((info.players, info.errors), (10_000, 0));
    assert_eq!(
        (info.format.as_str(), info.category.as_str()),
        ("text", "standard")
    );
    assert!(info.source.ends_with("players_list_foa.txt"));

    // Registration by FIDE id alone: the list fills in the rest.
    let gm = FIRST_ID + 50;
    let mut p = RegisterPlayer {
        fide_id: Some(gm),
        ..RegisterPlayer::default()
    };
    let filled = registry
        .complete(&mut p, RatingKind::Standard)
        .unwrap()
        .unwrap();
    let want = record(FIRST_ID, 50);
    assert!(
        filled.contains(&"name") && filled.contains(&"rating"),
        "{filled:?}"
    );
    assert_eq!(p.name, want.name);
    assert_eq!(p.rating, u32::from(want.standard.rating.unwrap()));
    assert_eq!(p.k_factor, u32::from(want.standard.k.unwrap()));
    assert_eq!(p.title, Some(CoreTitle::GM));
    assert_eq!(p.federation, want.federation.unwrap().as_str());
    assert_eq!(
        p.birth_date.map(|d| d.year()),
        want.birth_year.map(i32::from)
    );
    let mut unknown = RegisterPlayer {
        fide_id: Some(1),
        ..RegisterPlayer::default()
    };
    assert_eq!(
        registry
            .complete(&mut unknown, RatingKind::Standard)
            .unwrap(),
        None
    );
    assert_eq!(unknown.name, "");

    // The files hold it: reopened, the same answers.
    registry.close().unwrap();
    let registry = Registry::open(&registry_dir).unwrap();
    assert_eq!(registry.len(), 10_000);
    assert_eq!(
        registry.get(FIRST_ID + 9_999).unwrap().unwrap(),
        RegistryEntry::from(&record(FIRST_ID, 9_999))
    );
    // A second import replaces the list (a smaller one: the others are gone).
    let small = dir.path().join("small.txt");
    std::fs::write(&small, text_list(10)).unwrap();
    let r = registry
        .import_file(&small, &ImportOptions::default(), |_| {})
        .unwrap();
    assert_eq!(r.players, 10);
    assert_eq!(registry.len(), 10);
    assert_eq!(registry.get(FIRST_ID + 9_999).unwrap(), None);
    assert!(registry.get(FIRST_ID + 9).unwrap().is_some());
}

#[test]
fn malformed_lines_are_reported_with_line_and_column_and_skipped() {
    let list = text_list(10_000);
    // Player i is on line i + 2 (the header is line 1).
    let rating_col = text_column("SRtng").unwrap();
    let fed_col = text_column("Fed").unwrap();
    let sex_col = text_column("Sex").unwrap();
    let list = corrupt(&list, 102, rating_col, "24x0");
    let list = corrupt(&list, 5_002, fed_col, "N0R");
    let list = corrupt(&list, 7_002, 1, "41a7000");
    let list = corrupt(&list, 9_999, sex_col, "X");
    let registry = Registry::temporary().unwrap();
    let report = registry
        .import(
            list.as_slice(),
            None,
            "corrupted.txt",
            &ImportOptions::default(),
            |_| {},
        )
        .unwrap();
    assert_eq!((report.records, report.errors), (9_996, 4));
    assert_eq!(registry.len(), 9_996);
    let positions: Vec<(u64, u64, &str)> = report
        .first_errors
        .iter()
        .map(|e| match e {
            ListError::Field {
                line,
                column,
                field,
                ..
            } => (*line, *column, *field),
            other => panic!("not a field error: {other}"),
        })
        .collect();
    assert_eq!(
        positions,
        vec![
            (102, rating_col as u64, "standard_rating"),
            (5_002, fed_col as u64, "federation"),
            (7_002, 1, "fide_id"),
            (9_999, sex_col as u64, "sex"),
        ]
    );
    let first = report.first_errors[0].to_string();
    assert!(
        first.contains(&format!("line 102, column {rating_col}")) && first.contains("24x0"),
        "{first}"
    );
    // The bad players are not there; their neighbours are.
    assert_eq!(registry.get(FIRST_ID + 100).unwrap(), None);
    assert!(registry.get(FIRST_ID + 99).unwrap().is_some());
    assert!(registry.get(FIRST_ID + 101).unwrap().is_some());
    assert_eq!(registry.info().unwrap().unwrap().errors, 4);

    // Only the first errors are kept; all are counted.
    let r = registry
        .import(
            list.as_slice(),
            None,
            "corrupted.txt",
            &ImportOptions {
                keep_errors: 2,
                ..ImportOptions::default()
            },
            |_| {},
        )
        .unwrap();
    assert_eq!((r.errors, r.first_errors.len()), (4, 2));
}

#[test]
fn xml_lists_import_and_report_positions() {
    let mut xml = Vec::new();
    write_xml_list(&mut xml, FIRST_ID, 2_000).unwrap();
    let text = String::from_utf8(xml).unwrap();
    // Player 10's standard rating becomes "2x00".
    let needle = format!("<fideid>{}</fideid>", FIRST_ID + 10);
    let at = text.find(&needle).unwrap();
    let rating_at = at + text[at..].find("<rating>").unwrap() + "<rating>".len();
    let end = rating_at + text[rating_at..].find('<').unwrap();
    let bad = format!("{}2x00{}", &text[..rating_at], &text[end..]);
    let line = bad[..rating_at].matches('\n').count() as u64 + 1;

    let registry = Registry::temporary().unwrap();
    let report = registry
        .import(
            bad.as_bytes(),
            None,
            "players_list_xml.xml",
            &ImportOptions::default(),
            |_| {},
        )
        .unwrap();
    assert_eq!(report.format, ListFormat::Xml);
    assert_eq!((report.records, report.errors), (1_999, 1));
    let e = &report.first_errors[0];
    assert_eq!(e.line(), line, "{e}");
    assert!(e.to_string().contains("column"), "{e}");
    assert_eq!(registry.get(FIRST_ID + 10).unwrap(), None);
    for i in [0u64, 11, 1_999] {
        assert_eq!(
            registry.get(FIRST_ID + i).unwrap().unwrap(),
            RegistryEntry::from(&record(FIRST_ID, i))
        );
    }
}

#[test]
fn a_failed_import_leaves_the_list_in_use() {
    let dir = TempDir::new("arbiter-registry-fail").unwrap();
    let registry = Registry::open(dir.path().join("ratings")).unwrap();
    registry
        .import(
            text_list(500).as_slice(),
            None,
            "good.txt",
            &ImportOptions::default(),
            |_| {},
        )
        .unwrap();
    let before = registry.info().unwrap();

    // A header without the federation column.
    let bad_header = b"ID Number      Name\n12345          Someone, A\n";
    let e = registry
        .import(
            &bad_header[..],
            None,
            "bad.txt",
            &ImportOptions::default(),
            |_| {},
        )
        .unwrap_err();
    match &e {
        RegistryError::List(ListError::Header { line: 1, message }) => {
            assert!(message.contains("federation"), "{message}")
        }
        other => panic!("{other}"),
    }
    // A list whose every record is bad.
    let mut all_bad = text_list(3);
    for line in 2..=4 {
        all_bad = corrupt(&all_bad, line, 1, "x");
    }
    let e = registry
        .import(
            all_bad.as_slice(),
            None,
            "bad.txt",
            &ImportOptions::default(),
            |_| {},
        )
        .unwrap_err();
    assert!(
        e.to_string().contains("no player could be read (3 errors"),
        "{e}"
    );
    // A ZIP archive, as FIDE publishes the lists.
    let zip = dir.path().join("players_list.zip");
    std::fs::File::create(&zip)
        .unwrap()
        .write_all(b"PK\x03\x04\x14\x00rest")
        .unwrap();
    let e = registry
        .import_file(&zip, &ImportOptions::default(), |_| {})
        .unwrap_err();
    assert!(e.to_string().contains("ZIP archive"), "{e}");
    let e = registry
        .import_file(
            dir.path().join("missing.txt"),
            &ImportOptions::default(),
            |_| {},
        )
        .unwrap_err();
    assert!(matches!(e, RegistryError::Open { .. }), "{e}");

    assert_eq!(registry.len(), 500);
    assert_eq!(registry.info().unwrap(), before);
    assert!(registry.get(FIRST_ID + 499).unwrap().is_some());
    // Reopening finds only the list in use (no tree left by the failed imports).
    registry.close().unwrap();
    let registry = Registry::open(dir.path().join("ratings")).unwrap();
    assert_eq!(registry.len(), 500);
}

#[test]
fn a_fide_id_listed_twice_counts_once_and_the_later_record_stands() {
    let list = String::from_utf8(text_list(5)).unwrap();
    let mut lines: Vec<String> = list.lines().map(String::from).collect();
    // Player 4's line again at the end, renamed.
    let again = lines[5].replace("Player4", "Renamed4");
    lines.push(again);
    let list = lines.join("\n") + "\n";
    let registry = Registry::temporary().unwrap();
    let r = registry
        .import(
            list.as_bytes(),
            None,
            "twice.txt",
            &ImportOptions::default(),
            |_| {},
        )
        .unwrap();
    assert_eq!((r.records, r.players), (6, 5));
    assert_eq!(registry.len(), 5);
    let e = registry.get(FIRST_ID + 4).unwrap().unwrap();
    assert!(e.name.starts_with("Renamed4"), "{}", e.name);
    // The name index follows the later record: the old name finds nobody.
    let found = registry.search("renamed4", 10).unwrap();
    assert_eq!(
        found.iter().map(|e| e.fide_id).collect::<Vec<_>>(),
        [FIRST_ID + 4]
    );
    let old = e.name.replacen("Renamed4", "Player4", 1);
    assert!(registry.search(&old, 10).unwrap().is_empty(), "{old}");
}

#[test]
fn players_are_found_by_fide_id_or_the_start_of_their_name() {
    let registry = Registry::temporary().unwrap();
    registry
        .import(
            text_list(300).as_slice(),
            None,
            "list.txt",
            &ImportOptions::default(),
            |_| {},
        )
        .unwrap();
    let someone = registry.get(FIRST_ID + 123).unwrap().unwrap();
    let by_id = registry
        .search(&format!(" {} ", FIRST_ID + 123), 5)
        .unwrap();
    assert_eq!(by_id, vec![someone.clone()]);
    // The surname's first letters, in any case: every hit starts so, in name order, at most
    // the limit.
    let start: String = someone
        .name
        .chars()
        .take(4)
        .collect::<String>()
        .to_uppercase();
    let hits = registry.search(&start, 1000).unwrap();
    assert!(hits.contains(&someone), "{start}: {hits:?}");
    assert!(
        hits.iter()
            .all(|h| h.name.to_lowercase().starts_with(&start.to_lowercase()))
    );
    let names: Vec<String> = hits.iter().map(|h| h.name.to_lowercase()).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
    assert!(registry.search(&start, 2).unwrap().len() <= 2);
    assert!(registry.search("zzzz-nobody", 5).unwrap().is_empty());
    assert!(registry.search("  ", 5).unwrap().is_empty());
    assert!(
        registry
            .search(&(FIRST_ID + 5_000).to_string(), 5)
            .unwrap()
            .is_empty()
    );
}
