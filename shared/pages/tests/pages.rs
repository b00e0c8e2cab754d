//! The pages read back as HTML: structure, cell contents, escaping and the live script.
//! Tournaments come from the golden TRF files; expected values from the golden tie-break tables
//! and from the files' own round columns.

mod common;

use arbiter_core::{Color, ResultCode};
use arbiter_pages::*;
use arbiter_tiebreak::{Options, Standings, TieBreakList, Tournament, standings, trf as tb_trf};
use common::*;
use std::collections::BTreeMap;

fn model(rel: &str) -> Tournament {
    tb_trf::tournament_from_trf(&trf(rel))
}

fn standings_of(t: &Tournament, list: &str) -> Standings {
    let list: TieBreakList = list.parse().unwrap();
    standings(t, &list.0, &Options::default()).unwrap()
}

fn page(title: &str) -> Page {
    Page {
        title: title.into(),
        ..Page::default()
    }
}

/// Checks what every document has: doctype and root, viewport, stylesheet with the phone and
/// print rules, one `main#live`.
fn check_shell(html: &str) -> Element {
    assert!(html.starts_with("<!DOCTYPE html>"));
    let root = parse(html).unwrap_or_else(|e| panic!("{e}\n{html}"));
    let metas = root.tags("meta");
    assert!(metas.iter().any(|m| m.attr("charset") == Some("utf-8")));
    assert!(metas.iter().any(|m| m.attr("name") == Some("viewport")
        && m.attr("content").unwrap().contains("width=device-width")));
    let style = root.one("style", "").text();
    assert!(style.contains("@media print"));
    assert!(style.contains("@media (max-width"));
    assert!(style.contains("overflow-x:auto"));
    let main = root.one("main", "");
    assert_eq!(main.attr("id"), Some("live"));
    root
}

#[test]
fn standings_list_every_player_with_the_golden_values() {
    let (header, rows) = read_tsv("tiebreaks/t0009.tsv");
    let list = header[3..].join(",");
    let t = model("dutch-2017/t0009.trf");
    let st = standings_of(&t, &list);
    let html = render_standings(&page("Golden t0009"), &StandingsTable::from_standings(&st));
    let root = check_shell(&html);
    assert_eq!(root.one("h1", "").text(), "Golden t0009");
    let table = root.one("table", "standings");
    let head = table.head_texts();
    assert_eq!(&head[..6], ["Rk", "No", "Name", "Rtg", "Fed", "Pts"]);
    assert_eq!(&head[6..], &header[3..], "tie-break columns");
    let body = table.body_rows();
    assert_eq!(body.len(), rows.len());
    for (cells, golden) in body.iter().zip(&rows) {
        assert_eq!(cells.len(), head.len());
        assert_eq!(cells[0].text(), golden[0], "rank");
        assert_eq!(cells[1].text(), golden[1], "start number");
        let id: u32 = golden[1].parse().unwrap();
        let player = t.player(id).unwrap();
        assert_eq!(cells[2].text(), player.name);
        assert_eq!(canonical(&cells[5].text()), canonical(&golden[2]), "points");
        for k in 0..header.len() - 3 {
            assert_eq!(
                canonical(&cells[6 + k].text()),
                canonical(&golden[3 + k]),
                "#{id} {}",
                header[3 + k]
            );
        }
    }
    // The table scrolls sideways inside its box on narrow screens.
    let scroll = root.find_all(&|e| e.has_class("scroll"));
    assert_eq!(scroll.len(), 1);
    assert_eq!(scroll[0].tags("table").len(), 1);
}

#[test]
fn shared_places_are_ranges() {
    let mut t = Tournament::new(1);
    for (id, name) in [(1, "Alpha"), (2, "Bravo"), (3, "Charlie"), (4, "Delta")] {
        t.players
            .push(arbiter_tiebreak::Player::new(id, name, Some(2000)));
    }
    t.set_game(1, 1, 2, ResultCode::Draw);
    t.set_game(1, 3, 4, ResultCode::Win);
    let st = standings_of(&t, "BH");
    let html = render_standings(&page("Shared"), &StandingsTable::from_standings(&st));
    let root = check_shell(&html);
    let places: BTreeMap<String, (String, bool)> = root
        .one("table", "standings")
        .body_rows()
        .iter()
        .map(|c| (c[2].text(), (c[0].text(), c[0].has_class("shared"))))
        .collect();
    assert_eq!(places["Charlie"], ("1".to_string(), false));
    assert_eq!(places["Alpha"], ("2-3".to_string(), true));
    assert_eq!(places["Bravo"], ("2-3".to_string(), true));
    assert_eq!(places["Delta"], ("4".to_string(), false));
}

#[test]
fn crosstable_shows_opponent_colour_and_result_of_every_round() {
    let file = trf("tiebreaks/swiss-unplayed.trf");
    let t = tb_trf::tournament_from_trf(&file);
    let st = standings_of(&t, "BH/C1,BH");
    let html = render_crosstable(
        &page("Example Open"),
        &Crosstable::from_tournament(&t, Some(&st)),
    );
    let root = check_shell(&html);
    let table = root.one("table", "crosstable");
    let head = table.head_texts();
    let rounds = file.total_rounds() as usize;
    let round_heads = table
        .one("thead", "")
        .find_all(&|e| e.name == "th" && e.has_class("round"))
        .iter()
        .map(|th| th.text())
        .collect::<Vec<_>>();
    let expected: Vec<String> = (1..=rounds).map(|r| format!("R{r}")).collect();
    assert_eq!(round_heads, expected);
    assert_eq!(
        head.len(),
        rounds + 6,
        "place, no, name, rating, federation, rounds, points"
    );
    let body = table.body_rows();
    assert_eq!(body.len(), file.players().count());
    let row_ids: Vec<String> = table
        .one("tbody", "")
        .elements()
        .map(|tr| tr.attr("id").unwrap().to_string())
        .collect();
    // Rows follow the standings.
    let order: Vec<String> = st.rows.iter().map(|r| format!("p{}", r.id)).collect();
    assert_eq!(row_ids, order);
    for (cells, tr_id) in body.iter().zip(&row_ids) {
        let id: u32 = tr_id[1..].parse().unwrap();
        let rec = file.player(id).unwrap();
        assert_eq!(cells[1].text(), id.to_string());
        assert_eq!(cells[2].text(), rec.name);
        for r in 1..=rounds {
            let cell = cells[4 + r];
            let entry = rec
                .entry(r as u32)
                .copied()
                .unwrap_or(arbiter_core::RoundEntry::bye(ResultCode::ZeroBye));
            let res = cell.one("span", "res").text();
            assert_eq!(res, result_label(entry.result), "#{id} round {r}");
            match entry.opponent {
                Some(o) => {
                    let a = cell.one("a", "opp");
                    assert_eq!(a.text(), o.to_string());
                    assert_eq!(a.attr("href"), Some(format!("#p{o}").as_str()));
                    assert!(row_ids.contains(&format!("p{o}")), "the link has a target");
                    let c = cell.one("span", "c").text();
                    let expected = match entry.color {
                        Some(Color::White) => "w",
                        Some(Color::Black) => "b",
                        None => "",
                    };
                    assert_eq!(c, expected, "#{id} round {r}");
                }
                None => assert!(cell.tags("a").is_empty()),
            }
        }
        let points = file.score_after(id, rounds as u32).unwrap();
        assert_eq!(cells.last().unwrap().text(), points.to_string());
    }
    // The name column stays in view while the rounds scroll.
    assert!(
        root.one("style", "")
            .text()
            .contains(".crosstable td.name,.crosstable th.name{position:sticky")
    );
}

#[test]
fn pairings_have_board_numbers_results_and_byes() {
    let file = trf("tiebreaks/swiss-unplayed.trf");
    let t = tb_trf::tournament_from_trf(&file);
    for round in 1..=t.rounds {
        let p = Pairings::from_tournament(&t, round);
        let html = render_pairings(&page("Example Open"), &p);
        let root = check_shell(&html);
        assert!(
            root.one("p", "sub")
                .text()
                .contains(&format!("round {round}"))
        );
        // Games of the round from the file: each pair once, white first.
        let mut games: Vec<(String, String, char)> = Vec::new();
        let mut unpaired: Vec<String> = Vec::new();
        for rec in file.players() {
            match rec.entry(round) {
                Some(e) if e.opponent.is_some() => {
                    if e.color == Some(Color::White) {
                        let o = file.player(e.opponent.unwrap()).unwrap();
                        games.push((rec.name.clone(), o.name.clone(), e.result.trf_char()));
                    }
                }
                _ => unpaired.push(rec.name.clone()),
            }
        }
        let table = root.one("table", "pairings");
        let body = table.body_rows();
        assert_eq!(body.len(), games.len(), "round {round}");
        let mut previous_top: Option<f64> = None;
        for (i, cells) in body.iter().enumerate() {
            assert_eq!(cells.len(), 10);
            assert_eq!(cells[0].text(), (i + 1).to_string(), "board numbers");
            let white = cells[2].text();
            let black = cells[7].text();
            let g = games
                .iter()
                .find(|g| g.0 == white)
                .unwrap_or_else(|| panic!("round {round}: {white} is not white"));
            assert_eq!(g.1, black);
            let expected = match g.2 {
                '1' => "1-0",
                '=' => "½-½",
                '0' => "0-1",
                '+' => "+/-",
                '-' => "-/+",
                other => panic!("{other}"),
            };
            let result = cells[5].text();
            assert!(
                result == expected || (g.2 == '-' && result == "-/-"),
                "round {round} board {}: {result} vs {expected}",
                i + 1
            );
            // Boards by the higher score brought to the round.
            let top = cells[4]
                .text()
                .parse::<f64>()
                .unwrap()
                .max(cells[6].text().parse::<f64>().unwrap());
            if let Some(prev) = previous_top {
                assert!(top <= prev, "round {round}: board order");
            }
            previous_top = Some(top);
        }
        let byes: Vec<String> = if unpaired.is_empty() {
            assert!(root.find_all(&|e| e.has_class("byes")).is_empty());
            Vec::new()
        } else {
            root.one("table", "byes")
                .body_rows()
                .iter()
                .map(|c| c[1].text())
                .collect()
        };
        let mut unpaired_sorted = unpaired.clone();
        unpaired_sorted.sort();
        let mut byes_sorted = byes.clone();
        byes_sorted.sort();
        assert_eq!(byes_sorted, unpaired_sorted, "round {round}");
    }
}

#[test]
fn pairings_of_a_round_in_progress_have_no_results() {
    let p = Pairings {
        round: 3,
        boards: vec![Board {
            number: 1,
            white: Seat {
                player: PlayerInfo {
                    id: 4,
                    name: "White, W".into(),
                    title: Some("IM".into()),
                    rating: Some(2400),
                    federation: None,
                },
                points: Some("2.0".into()),
            },
            black: Seat {
                player: PlayerInfo {
                    id: 9,
                    name: "Black, B".into(),
                    ..PlayerInfo::default()
                },
                points: Some("2.0".into()),
            },
            result: None,
            note: None,
        }],
        byes: Vec::new(),
        amendment: None,
    };
    let html = render_pairings(&page("Live"), &p);
    let root = check_shell(&html);
    let rows = root.one("table", "pairings").body_rows();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0][5].text(), "");
    assert_eq!(rows[0][2].one("span", "title").text(), "IM");
    assert_eq!(rows[0][2].text(), "IMWhite, W");
}

#[test]
fn a_board_note_is_a_numbered_footnote_under_the_table() {
    let seat = |id: u32| Seat {
        player: PlayerInfo {
            id,
            name: format!("Player {id}"),
            ..PlayerInfo::default()
        },
        points: Some("1.0".into()),
    };
    let note = "result corrected after round 2 ended: counts as 1-0 for standings, ½-½ for rating (C.04.2 D.8)";
    let p = Pairings {
        round: 1,
        boards: vec![
            Board {
                number: 1,
                white: seat(1),
                black: seat(3),
                result: Some("1-0".into()),
                note: Some(note.into()),
            },
            Board {
                number: 2,
                white: seat(4),
                black: seat(2),
                result: Some("½-½".into()),
                note: None,
            },
        ],
        ..Pairings::default()
    };
    let root = check_shell(&render_pairings(&page("Round 1"), &p));
    let rows = root.one("table", "pairings").body_rows();
    // The result keeps the standings' value, with the marker linking to the note.
    assert_eq!(rows[0][5].text(), "1-01");
    assert_eq!(rows[0][5].one("sup", "fn").text(), "1");
    assert_eq!(rows[1][5].text(), "½-½");
    assert_eq!(root.one("ol", "notes").text().trim(), note);
}

#[test]
fn player_card_lists_games_and_the_performance() {
    let (header, rows) = read_tsv("tiebreaks/t0009.tsv");
    let aro = header.iter().position(|h| h == "ARO").unwrap();
    let tpr = header.iter().position(|h| h == "TPR").unwrap();
    let file = trf("dutch-2017/t0009.trf");
    let t = tb_trf::tournament_from_trf(&file);
    assert!(t.players.iter().all(|p| p.rating.is_some()), "all rated");
    let st = standings_of(&t, &header[3..].join(","));
    let page = Page {
        title: "t0009".into(),
        player_href: Some("/players/{id}".into()),
        ..Page::default()
    };
    for golden in &rows {
        let id: u32 = golden[1].parse().unwrap();
        let card = PlayerCard::from_tournament(&t, id, Some(&st)).unwrap();
        let html = render_player_card(&page, &card);
        let root = check_shell(&html);
        let rec = file.player(id).unwrap();
        assert_eq!(root.one("p", "sub").text(), rec.name);
        let facts: BTreeMap<String, String> = {
            let dl = root.find_all(&|e| e.name == "dl" && e.has_class("facts"))[0];
            let dts: Vec<String> = dl.tags("dt").iter().map(|e| e.text()).collect();
            let dds: Vec<String> = dl.tags("dd").iter().map(|e| e.text()).collect();
            dts.into_iter().zip(dds).collect()
        };
        assert_eq!(facts["Place"], golden[0]);
        assert_eq!(canonical(&facts["Points"]), canonical(&golden[2]));
        let games = root.one("table", "games").body_rows();
        assert_eq!(games.len(), file.total_rounds() as usize);
        for (r, cells) in games.iter().enumerate() {
            let e = rec.entry(r as u32 + 1);
            match e.and_then(|e| e.opponent) {
                Some(o) => {
                    let a = cells[3].tags("a");
                    assert_eq!(a.len(), 1);
                    assert_eq!(a[0].text(), file.player(o).unwrap().name);
                    assert_eq!(a[0].attr("href"), Some(format!("/players/{o}").as_str()));
                }
                None => assert!(cells[3].tags("a").is_empty()),
            }
        }
        // Every game of the corpus is rated, so the card's figures are ARO and TPR.
        let perf = root.one("dl", "performance");
        let values: Vec<String> = perf.tags("dd").iter().map(|e| e.text()).collect();
        assert_eq!(values[2], golden[aro], "#{id} average opponent");
        assert_eq!(values[3], golden[tpr], "#{id} performance");
        // Tie-breaks from the standings.
        let tb = root.one("dl", "tiebreaks");
        let names: Vec<String> = tb.tags("dt").iter().map(|e| e.text()).collect();
        assert_eq!(&names[..], &header[3..]);
    }
    assert!(PlayerCard::from_tournament(&t, 9999, None).is_none());
}

#[test]
fn names_are_escaped_everywhere() {
    let evil = "<script>alert(\"x\")</script> & O'Brien";
    let mut t = Tournament::new(2);
    t.players
        .push(arbiter_tiebreak::Player::new(1, evil, Some(2100)));
    t.players
        .push(arbiter_tiebreak::Player::new(2, "Plain, P", Some(2000)));
    t.players[0].federation = Some("<b>".into());
    t.set_game(1, 1, 2, ResultCode::Win);
    t.set_bye(2, 1, ResultCode::HalfBye);
    t.set_bye(2, 2, ResultCode::PairingBye);
    let st = standings_of(&t, "BH,SB");
    let page = Page {
        title: "Open </title><script>x()</script>".into(),
        subtitle: Some("\"quoted\" & <tagged>".into()),
        nav: vec![
            Link::new("<Home>", "/"),
            Link::new("bad", "javascript:alert(1)"),
        ],
        player_href: Some("/p/{id}?q=\"><script>".into()),
        footer: Some("</footer><script>".into()),
        live: Some(Live::new("/stream?a=1&b=\"2\"")),
        ..Page::default()
    };
    let mut card = PlayerCard::from_tournament(&t, 1, Some(&st)).unwrap();
    set_titles(card.players_mut(), |id| {
        (id == 1).then(|| "<GM>".to_string())
    });
    let pages = [
        render_standings(&page, &StandingsTable::from_standings(&st)),
        render_crosstable(&page, &Crosstable::from_tournament(&t, Some(&st))),
        render_pairings(&page, &Pairings::from_tournament(&t, 1)),
        render_pairings(&page, &Pairings::from_tournament(&t, 2)),
        render_player_card(&page, &card),
    ];
    for (k, html) in pages.iter().enumerate() {
        let root = check_shell(html);
        assert!(root.one("main", "").text().contains(evil));
        // The only script is the live one; its text is the fixed script.
        let scripts = root.tags("script");
        assert_eq!(scripts.len(), 1, "{html}");
        assert_eq!(scripts[0].attr("data-events"), Some("/stream?a=1&b=\"2\""));
        assert!(!scripts[0].text().contains("alert"));
        // The text reads back exactly.
        assert_eq!(root.one("title", "").text().matches("</title>").count(), 1);
        assert_eq!(root.one("h1", "").text(), page.title);
        assert_eq!(root.one("p", "sub").text(), page.subtitle.clone().unwrap());
        assert_eq!(root.one("footer", "").text(), page.footer.clone().unwrap());
        let links = root.one("nav", "").tags("a");
        assert_eq!(links[0].text(), "<Home>");
        assert_eq!(links[1].attr("href"), Some("#"), "no javascript: links");
        if k == 4 {
            // The card is about the player: the name is a heading, not a link.
            continue;
        }
        let anchors = root.tags("a");
        let link = anchors
            .iter()
            .find(|a| a.text() == evil)
            .expect("the name is a link's text");
        assert_eq!(
            link.attr("href"),
            Some("/p/1?q=\"><script>"),
            "the player link keeps its characters as data"
        );
    }
    // The card shows the escaped title and the federation as text.
    let root = parse(&pages[4]).unwrap();
    assert!(root.text().contains("<GM>"));
    assert!(root.text().contains("<b>"));
    assert!(root.tags("b").is_empty());
}

#[test]
fn the_live_script_is_optional() {
    let t = model("tiebreaks/swiss-unplayed.trf");
    let st = standings_of(&t, "BH");
    let table = StandingsTable::from_standings(&st);
    let plain = render_standings(&page("Open"), &table);
    assert!(check_shell(&plain).tags("script").is_empty());
    let live = Page {
        live: Some(Live {
            url: "/events/open/stream".into(),
            events: vec!["standings".into(), "result".into()],
        }),
        ..page("Open")
    };
    let html = render_standings(&live, &table);
    let root = check_shell(&html);
    let scripts = root.tags("script");
    assert_eq!(scripts.len(), 1);
    assert_eq!(scripts[0].attr("data-events"), Some("/events/open/stream"));
    assert_eq!(scripts[0].attr("data-names"), Some("standings,result"));
    let code = scripts[0].text();
    assert!(code.contains("EventSource"));
    assert!(code.contains("getElementById('live')"));
    // The same table either way.
    assert_eq!(
        root.one("table", "standings"),
        check_shell(&plain).one("table", "standings")
    );
}

#[test]
fn documents_are_html_with_the_declared_media_type() {
    assert_eq!(content_type(), "text/html; charset=utf-8");
    assert_eq!(CONTENT_TYPE, content_type());
    let html = render_crosstable(&Page::default(), &Crosstable::default());
    let root = check_shell(&html);
    assert_eq!(root.attr("lang"), Some("en"));
    assert!(root.one("table", "crosstable").body_rows().is_empty());
    assert_eq!(root.one("title", "").text(), "Crosstable");
}

#[test]
fn crosstable_by_rank_names_opponents_by_their_line() {
    let file = trf("tiebreaks/swiss-unplayed.trf");
    let t = tb_trf::tournament_from_trf(&file);
    let st = standings_of(&t, "BH/C1,BH");
    let mut table = Crosstable::from_tournament(&t, Some(&st));
    table.by_rank = true;
    let html = render_crosstable(&page("By rank"), &table);
    let root = check_shell(&html);
    let body = root.one("table", "crosstable").body_rows();
    let ids: Vec<u32> = st.rows.iter().map(|r| r.id).collect();
    let line_of = |id: u32| ids.iter().position(|&x| x == id).unwrap() + 1;
    for (i, cells) in body.iter().enumerate() {
        let id = ids[i];
        assert_eq!(
            cells[0].text(),
            (i + 1).to_string(),
            "the rank column numbers lines"
        );
        assert_eq!(
            cells[1].text(),
            id.to_string(),
            "the pairing number stays visible"
        );
        let rec = file.player(id).unwrap();
        for r in 1..=file.total_rounds() as usize {
            let Some(o) = rec.entry(r as u32).and_then(|e| e.opponent) else {
                continue;
            };
            let cell = cells[4 + r];
            let a = cell.one("a", "opp");
            assert_eq!(a.text(), line_of(o).to_string(), "#{id} round {r}");
            assert_eq!(a.attr("href"), Some(format!("#p{o}").as_str()));
            assert!(
                cell.attr("title")
                    .unwrap()
                    .ends_with(&format!("against No {o}"))
            );
        }
    }
}

#[test]
fn the_index_the_header_the_legend_the_amendment_and_rating_changes() {
    let mut p = page("Tournaments");
    let rows = vec![TournamentSummary {
        name: "Club <Open>".into(),
        href: "/t/club".into(),
        place: "Bergen".into(),
        dates: "2026-03-01 to 2026-03-03".into(),
        rounds: 7,
        players: 42,
        status: "round 3 of 7 in progress".into(),
        links: vec![Link::new("Standings", "/t/club/standings")],
    }];
    let root = check_shell(&render_index(&p, &rows));
    let body = root.one("table", "tournaments").body_rows();
    let texts: Vec<String> = body[0].iter().map(|c| c.text()).collect();
    assert_eq!(
        texts,
        [
            "Club <Open>",
            "Bergen",
            "2026-03-01 to 2026-03-03",
            "7",
            "42",
            "round 3 of 7 in progress",
            "Standings"
        ]
    );
    assert_eq!(body[0][0].one("a", "").attr("href"), Some("/t/club"));
    assert!(render_index(&p, &[]).contains("No tournaments yet."));

    // The header facts: empty values left out, text escaped.
    p.facts = vec![
        ("Place".into(), "Bergen".into()),
        ("Deputy arbiter".into(), String::new()),
        ("Time control".into(), "90' + 30\" <inc>".into()),
    ];
    let table = StandingsTable {
        tiebreaks: vec!["BH/C1".into()],
        rows: Vec::new(),
        legend: vec![("BH/C1".into(), "Buchholz, the lowest value cut".into())],
    };
    let root = check_shell(&render_standings(&p, &table));
    let dl = root.one("dl", "event");
    let dts: Vec<String> = dl.tags("dt").iter().map(|e| e.text()).collect();
    let dds: Vec<String> = dl.tags("dd").iter().map(|e| e.text()).collect();
    assert_eq!(dts, ["Place", "Time control"]);
    assert_eq!(dds, ["Bergen", "90' + 30\" <inc>"]);
    let legend = root.one("dl", "legend");
    assert_eq!(legend.one("dt", "").text(), "BH/C1");
    assert_eq!(
        legend.one("dd", "").text(),
        "Buchholz, the lowest value cut"
    );

    let pairings = Pairings {
        round: 2,
        amendment: Some("Board 3: colours <swapped>".into()),
        ..Pairings::default()
    };
    let root = check_shell(&render_pairings(&p, &pairings));
    assert_eq!(
        root.one("p", "amended").text(),
        "Amended by the arbiter. Board 3: colours <swapped>"
    );
    assert!(
        check_shell(&render_pairings(&p, &Pairings::default()))
            .find_all(&|e| e.has_class("amended"))
            .is_empty()
    );

    let card = PlayerCard {
        player: PlayerInfo {
            id: 4,
            name: "Nilsen, Kari".into(),
            ..PlayerInfo::default()
        },
        points: "1.0".into(),
        games: vec![
            CardGame {
                round: 1,
                result: "0".into(),
                rating_change: Some("-5.0".into()),
                ..CardGame::default()
            },
            CardGame {
                round: 2,
                result: "1 bye".into(),
                ..CardGame::default()
            },
        ],
        rating_change: Some(("-5.0".into(), "1 rated game, K 20".into())),
        ..PlayerCard::default()
    };
    let root = check_shell(&render_player_card(&p, &card));
    let games = root.one("table", "games");
    assert_eq!(games.head_texts().last().unwrap(), "±");
    let rows = games.body_rows();
    assert_eq!(rows[0].last().unwrap().text(), "-5.0");
    assert!(rows[0].last().unwrap().has_class("down"));
    assert_eq!(rows[1].last().unwrap().text(), "");
    assert_eq!(root.one("span", "rchg").text(), "-5.0");
}

#[test]
fn a_round_robin_schedule_links_published_rounds_and_names_rests_teams_and_compatriots() {
    let who = |id: u32, name: &str, fed: &str| PlayerInfo {
        id,
        name: name.into(),
        federation: Some(fed.into()),
        ..PlayerInfo::default()
    };
    let (a, b, c) = (
        who(1, "Aas <A>", "NOR"),
        who(2, "Berg", "NOR"),
        who(3, "Cruz", "ESP"),
    );
    let schedule = Schedule {
        draw: "Numbers drawn by lot & announced".into(),
        rounds: vec![
            ScheduleRound {
                round: 1,
                boards: vec![(a.clone(), b.clone())],
                rest: Some(c.clone()),
                published: true,
            },
            ScheduleRound {
                round: 2,
                boards: vec![(c.clone(), a.clone())],
                rest: Some(b.clone()),
                published: false,
            },
        ],
        compatriots: vec![(1, a.clone(), b.clone())],
        teams: vec![("Club <X>".into(), 1, 2, "1.5".into())],
    };
    let mut p = page("Round robin");
    p.player_href = Some("/t/rr/players/{id}".into());
    let root = check_shell(&render_schedule(&p, &schedule, "/t/rr/pairings/{round}"));
    assert_eq!(
        root.one("p", "draw").text(),
        "Numbers drawn by lot & announced"
    );
    let rows = root.one("table", "schedule").body_rows();
    assert_eq!(rows.len(), 2);
    // A published round links to its pairings; one still to come does not.
    assert_eq!(
        rows[0][0].one("a", "").attr("href"),
        Some("/t/rr/pairings/1")
    );
    assert!(rows[1][0].tags("a").is_empty());
    assert_eq!(rows[0][1].text(), "1. 1 Aas <A> – 2 Berg");
    assert_eq!(rows[0][2].text(), "3 Cruz");
    assert_eq!(
        rows[0][2].one("a", "").attr("href"),
        Some("/t/rr/players/3")
    );
    let teams = root.one("table", "teams").body_rows();
    let texts: Vec<String> = teams[0].iter().map(|c| c.text()).collect();
    assert_eq!(texts, ["Club <X>", "1-2", "1.5"]);
    assert_eq!(
        root.one("ul", "compatriots").one("li", "").text(),
        "round 1: 1 Aas <A> – 2 Berg (NOR)"
    );
}

#[test]
fn a_message_page_is_a_complete_escaped_document() {
    let root = check_shell(&render_message("Not found", "No tournament <x> here"));
    assert_eq!(root.one("p", "").text(), "No tournament <x> here");
    assert_eq!(root.one("title", "").text(), "Not found");
}
