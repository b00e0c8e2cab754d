//! The public pages in a real browser: `arbiter serve` (the binary) with a small tournament
//! played through gRPC, headless Chromium driven over WebDriver (chromedriver). The test reads
//! the index of tournaments, the tournament header, the standings with their tie-break legend,
//! the crosstable (by rank), the pairings of an amended round and a player card with its rating
//! changes as a visitor sees them, then records results while a page is open and waits for the
//! page to show them through its server-sent events, without a reload. Screenshots go to the
//! target folder.
//!
//! Needs Chromium and its driver (Debian: `apt-get install chromium chromium-driver`); their
//! paths can be given in `CHROMIUM` and `CHROMEDRIVER`.

use arbiter_core::tournament::BoardResult;
use arbiter_proto::events::v1 as pb;
use arbiter_proto::registration::v1 as reg;
use arbiter_proto::round_director::v1 as rd;
use fantoccini::Client;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::support::browser::{Driver, browser, js, screenshot, text, tool};
use crate::support::*;
use std::time::{Duration, Instant};

const TID: &str = "web-open";
/// How long a page may take to show a recorded result.
const LIVE_WAIT: Duration = Duration::from_secs(10);

/// Opens `path` and checks that it is one of our pages.
async fn open(b: &Client, base: &str, path: &str) {
    b.goto(&format!("{base}{path}"))
        .await
        .unwrap_or_else(|e| panic!("{path}: {e}"));
    let main = text(b, "main#live").await;
    assert!(!main.is_empty(), "{path}: no <main id=live>");
}

/// Marks the loaded document; the mark disappears if the page is loaded again.
async fn mark(b: &Client) {
    js(b, "window.__sameDocument = 'yes'; return null;").await;
}

async fn still_marked(b: &Client) -> bool {
    js(b, "return window.__sameDocument === 'yes';").await == json!(true)
}

/// Waits (at most [`LIVE_WAIT`]) until the text at `css` is `want`.
async fn wait_text(b: &Client, css: &str, want: &str) {
    let deadline = Instant::now() + LIVE_WAIT;
    loop {
        let got = text(b, css).await;
        if got == want {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{css}: still {got:?} after {LIVE_WAIT:?}, expected {want:?} (the live update did not arrive)"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn create(c: &mut Clients) {
    retry("create", || {
        let mut reg = c.reg.clone();
        async move {
            reg.create_tournament(reg::CreateTournamentRequest {
                header: header(TID, "create"),
                tournament: Some(arbiter_proto::registration::v1::TournamentSettings {
                    name: "Web Open".into(),
                    place: "Bergen".into(),
                    federation: "NOR".into(),
                    start_date: Some(pb::Date {
                        year: 2026,
                        month: 3,
                        day: 1,
                    }),
                    end_date: Some(pb::Date {
                        year: 2026,
                        month: 3,
                        day: 3,
                    }),
                    chief_arbiter: Some(pb::Arbiter {
                        name: "Arbiter, Chief".into(),
                        fide_id: None,
                        title: "IA".into(),
                    }),
                    deputy_arbiters: vec![pb::Arbiter {
                        name: "Deputy, Dina".into(),
                        fide_id: None,
                        title: "FA".into(),
                    }],
                    time_control: "90 min/40 moves + 30 min, 30 s per move".into(),
                    pairing_system: pb::PairingSystem::Dutch as i32,
                    rounds: 3,
                    initial_color: pb::Color::White as i32,
                    rating_kind: pb::RatingKind::Standard as i32,
                    tie_breaks: vec!["BH/C1".into(), "BH".into(), "SB".into()],
                    fide_rated: true,
                    ..Default::default()
                }),
            })
            .await
        }
    })
    .await
    .expect("create tournament");
}

/// Registers six players; returns their names by pairing number.
async fn register(c: &mut Clients) -> BTreeMap<u32, String> {
    let players = [
        ("Hansen, Ingrid", 2310, pb::Title::Im),
        ("Ødegaard, Åsmund", 2250, pb::Title::Unspecified),
        ("Larsen, Per", 2190, pb::Title::Unspecified),
        ("Nilsen, Kari", 2120, pb::Title::Unspecified),
        ("Berg, Ola", 2050, pb::Title::Unspecified),
        ("Dahl, Sofie", 1980, pb::Title::Unspecified),
    ];
    for (i, (name, rating, title)) in players.into_iter().enumerate() {
        c.reg
            .register_player(reg::RegisterPlayerRequest {
                confirm_same_name: false,
                header: header(TID, &format!("register-{i}")),
                player: Some(arbiter_proto::registration::v1::PlayerDetails {
                    name: name.into(),
                    rating,
                    title: title as i32,
                    federation: "NOR".into(),
                    ..Default::default()
                }),
            })
            .await
            .expect("register");
    }
    let list = c
        .reg
        .list_players(reg::ListPlayersRequest {
            tournament: tref(TID),
        })
        .await
        .expect("list players")
        .into_inner();
    list.players
        .into_iter()
        .filter_map(|r| Some((r.pairing_number, r.player?.name)))
        .collect()
}

async fn record(c: &mut Clients, round: u32, board: u32, result: BoardResult) {
    let (res, wc, bc) = wire(result);
    c.rd.record_result(rd::RecordResultRequest {
        header: header(TID, &format!("result-{round}-{board}")),
        round,
        board,
        result: res,
        white_code: wc,
        black_code: bc,
    })
    .await
    .unwrap_or_else(|s| panic!("round {round} board {board}: {s:?}"));
}

/// Points in tenths after `results`, by pairing number.
fn points(boards: &[(u32, u32)], results: &[BoardResult], into: &mut BTreeMap<u32, i32>) {
    for (&(w, b), r) in boards.iter().zip(results) {
        let (pw, pb) = match r {
            BoardResult::WhiteWins => (10, 0),
            BoardResult::Draw => (5, 5),
            BoardResult::BlackWins => (0, 10),
            other => panic!("not used here: {other:?}"),
        };
        *into.entry(w).or_default() += pw;
        *into.entry(b).or_default() += pb;
    }
}

fn pts(tenths: i32) -> String {
    format!("{}.{}", tenths / 10, tenths % 10)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_in_a_browser_update_live() {
    // The tools first: a missing browser is a failure with a clear message, not a skip.
    let chromium = tool("CHROMIUM", "chromium");
    let chromedriver = tool("CHROMEDRIVER", "chromedriver");

    let work = TempDir::new("arbiter-web-pages").unwrap();
    let data = work.path().join("data");
    let mut server = Server::start(
        &["--data", data.to_str().unwrap()],
        &work.path().join("serve.log"),
    );
    let base = server.http.clone().expect("http address");
    let mut c = Clients::new(&Endpoints::one(&server.grpc));
    create(&mut c).await;
    let names = register(&mut c).await;
    assert_eq!(names.len(), 6);

    // Round 1, all results; round 2 published with board 1's result only.
    let mut d = crate::support::Driver::new(c.clone(), TID, Plan::swiss_40x9(), work.path());
    d.start_round(1).await;
    let r1 = pairing_of(&d.wait_proposal(1, Duration::from_secs(60)).await).0;
    assert_eq!(r1.len(), 3, "six players, three boards");
    d.publish(1).await;
    let res1 = [
        BoardResult::WhiteWins,
        BoardResult::Draw,
        BoardResult::BlackWins,
    ];
    for (i, r) in res1.iter().enumerate() {
        record(&mut c, 1, i as u32 + 1, *r).await;
    }
    d.close(1).await;
    let mut after1 = BTreeMap::new();
    points(&r1, &res1, &mut after1);
    d.start_round(2).await;
    let mut r2 = pairing_of(&d.wait_proposal(2, Duration::from_secs(60)).await).0;
    assert_eq!(r2.len(), 3);
    // The arbiter swaps the colours of board 3 before publishing, with a note.
    let (w3, b3) = r2[2];
    r2[2] = (b3, w3);
    let note = "Colours of board 3 swapped: the players met in a club match last week";
    c.rd.publish_pairing(rd::PublishPairingRequest {
        header: header(TID, "publish-2"),
        round: 2,
        boards: r2
            .iter()
            .enumerate()
            .map(|(i, &(white, black))| pb::Board {
                number: i as u32 + 1,
                white,
                black,
            })
            .collect(),
        note: note.into(),
        ..Default::default()
    })
    .await
    .expect("publish the amended round 2");
    record(&mut c, 2, 1, BoardResult::WhiteWins).await;

    let shots = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("web-pages");
    std::fs::create_dir_all(&shots).unwrap();
    let driver = Driver::start(&chromedriver, &work.path().join("chromedriver.log"));
    let profile = work.path().join("chromium-profile");
    std::fs::create_dir_all(&profile).unwrap();
    let b = browser(&driver, &chromium, &profile).await;

    // The index: one line per tournament, with where, when, how far and links.
    b.goto(&format!("{base}/")).await.expect("index");
    let cells = js(
        &b,
        "return Array.from(document.querySelectorAll('table.tournaments tbody tr td')).map(e => e.textContent.trim());",
    )
    .await;
    assert_eq!(
        cells,
        json!([
            "Web Open",
            "Bergen",
            "2026-03-01 to 2026-03-03",
            "3",
            "6",
            "round 2 of 3 in progress",
            "Standings · Crosstable · Round 2 pairings"
        ]),
        "the index line of the tournament"
    );
    let href = js(
        &b,
        "return document.querySelector('table.tournaments td.name a').getAttribute('href');",
    )
    .await;
    assert_eq!(href, json!(format!("/t/{TID}")));
    screenshot(&b, &shots, "index.png").await;

    // Standings after round 1: every name, the points, the tournament's tie-breaks.
    open(&b, &base, &format!("/t/{TID}/standings")).await;
    // The tournament header: place, dates, arbiters, time control, rule sets (then further
    // facts, such as the signed chain head).
    let facts = js(
        &b,
        "return Array.from(document.querySelectorAll('header dl.event div')).map(e => [e.querySelector('dt').textContent, e.querySelector('dd').textContent]);",
    )
    .await;
    assert_eq!(
        json!(facts.as_array().expect("facts")[..8]),
        json!([
            ["Place", "Bergen"],
            ["Dates", "2026-03-01 to 2026-03-03"],
            ["Rounds", "3"],
            ["Chief arbiter", "IA Arbiter, Chief"],
            ["Deputy arbiter", "FA Deputy, Dina"],
            ["Time control", "90 min/40 moves + 30 min, 30 s per move"],
            ["Pairing rules", "dutch-2025"],
            ["Tie-break rules", "FIDE C.07 of 2026"]
        ]),
        "the tournament header"
    );
    // The legend names every tie-break column in plain words.
    let legend = js(
        &b,
        "return Array.from(document.querySelectorAll('dl.legend dt')).map(e => [e.textContent, e.nextElementSibling.textContent]);",
    )
    .await;
    let legend = legend.as_array().expect("legend").clone();
    assert_eq!(
        legend.iter().map(|x| x[0].clone()).collect::<Vec<_>>(),
        vec![json!("BH/C1"), json!("BH"), json!("SB")]
    );
    assert!(
        legend[0][1].as_str().unwrap().starts_with("Buchholz")
            && legend[0][1].as_str().unwrap().contains("lowest value cut"),
        "{legend:?}"
    );
    assert!(
        legend[2][1]
            .as_str()
            .unwrap()
            .starts_with("Sonneborn-Berger")
    );
    assert_eq!(
        b.title().await.unwrap(),
        "Standings after round 1 of 3 · round 2 in progress, 1 of 3 results in \u{2013} Web Open"
    );
    for (pn, name) in &names {
        assert_eq!(
            text(&b, &format!("tr#p{pn} td.name a")).await,
            *name,
            "player {pn}"
        );
        assert_eq!(
            text(&b, &format!("tr#p{pn} td.pts")).await,
            pts(after1[pn]),
            "{name}'s points after round 1"
        );
    }
    assert_eq!(text(&b, "tr#p1 td.name .title").await, "IM");
    let heads = js(
        &b,
        "return Array.from(document.querySelectorAll('table.standings th.tb')).map(e => e.textContent);",
    )
    .await;
    assert_eq!(heads, json!(["BH/C1", "BH", "SB"]));
    let best = after1.values().max().copied().unwrap_or(0);
    assert_eq!(
        text(&b, "table.standings tbody tr td.pts").await,
        pts(best),
        "the first line has the most points"
    );
    screenshot(&b, &shots, "standings.png").await;

    // Crosstable: round 1 complete, round 2 with board 1's result. Rows follow the standings
    // (the first column numbers them) and opponents are named by that number.
    let order = js(
        &b,
        "return Array.from(document.querySelectorAll('table.standings tbody tr')).map(e => e.id);",
    )
    .await;
    open(&b, &base, &format!("/t/{TID}/crosstable")).await;
    let rows = js(
        &b,
        "return Array.from(document.querySelectorAll('table.crosstable tbody tr')).map(e => [e.id, e.querySelector('td.place').textContent, e.querySelector('td.no').textContent]);",
    )
    .await;
    let rows = rows.as_array().expect("rows").clone();
    assert_eq!(
        rows.iter().map(|r| r[0].clone()).collect::<Vec<_>>(),
        order.as_array().unwrap().clone(),
        "the crosstable follows the standings"
    );
    let mut line: BTreeMap<u32, String> = BTreeMap::new();
    for (i, r) in rows.iter().enumerate() {
        assert_eq!(r[1], json!((i + 1).to_string()), "rank column");
        assert_eq!(
            r[0],
            json!(format!("p{}", r[2].as_str().unwrap())),
            "No column"
        );
        line.insert(r[2].as_str().unwrap().parse().unwrap(), (i + 1).to_string());
    }
    for (i, (&(w, bl), r)) in r1.iter().zip(&res1).enumerate() {
        let (rw, rb) = match r {
            BoardResult::WhiteWins => ("1", "0"),
            BoardResult::Draw => ("½", "½"),
            _ => ("0", "1"),
        };
        let cells = |pn: u32| {
            format!(
                "return Array.from(document.querySelectorAll('tr#p{pn} td.r')).map(e => e.textContent);"
            )
        };
        let wc = js(&b, &cells(w)).await;
        let bc = js(&b, &cells(bl)).await;
        assert_eq!(
            wc[0],
            json!(format!("{}w {rw}", line[&bl])),
            "board {}: white's cell",
            i + 1
        );
        assert_eq!(
            bc[0],
            json!(format!("{}b {rb}", line[&w])),
            "board {}: black's cell",
            i + 1
        );
    }
    let (w2, b2) = r2[0];
    let cells = js(
        &b,
        &format!(
            "return Array.from(document.querySelectorAll('tr#p{w2} td.r')).map(e => e.textContent);"
        ),
    )
    .await;
    assert_eq!(
        cells[1],
        json!(format!("{}w 1", line[&b2])),
        "round 2, board 1"
    );
    screenshot(&b, &shots, "crosstable.png").await;

    // On a 390-px phone: nothing but the table boxes is wider than the screen, the standings
    // (with their tie-break columns) scroll inside their box, and the box shows that it does
    // (an edge shadow).
    b.set_window_size(390, 844).await.expect("phone width");
    open(&b, &base, &format!("/t/{TID}/standings")).await;
    let phone = js(
        &b,
        "var box = document.querySelector('table.standings').parentElement; return [ \
         document.documentElement.scrollWidth <= window.innerWidth + 1, \
         box.scrollWidth > box.clientWidth, \
         getComputedStyle(box).backgroundImage.indexOf('radial-gradient') >= 0];",
    )
    .await;
    assert_eq!(phone, json!([true, true, true]), "the standings at 390 px");
    screenshot(&b, &shots, "standings-390.png").await;
    b.set_window_size(1280, 900).await.expect("desk width");

    // Pairings of round 2: board numbers, names, the result in, the games still on.
    open(&b, &base, &format!("/t/{TID}/pairings/2")).await;
    for (i, (w, bl)) in r2.iter().enumerate() {
        let row = format!("tr#b{}", i + 1);
        assert_eq!(
            text(&b, &format!("{row} td.board")).await,
            (i + 1).to_string()
        );
        let names_on_board = js(
            &b,
            &format!("return Array.from(document.querySelectorAll('{row} td.name a')).map(e => e.textContent);"),
        )
        .await;
        assert_eq!(
            names_on_board,
            json!([names[w], names[bl]]),
            "board {}",
            i + 1
        );
    }
    assert_eq!(
        text(&b, "p.amended").await,
        format!("Amended by the arbiter. {note}"),
        "the amendment note"
    );
    assert_eq!(text(&b, "tr#b1 td.res").await, "1-0");
    assert_eq!(text(&b, "tr#b2 td.res").await, "");
    assert_eq!(text(&b, "tr#b3 td.res").await, "");

    // A result recorded while the page is open shows up without a reload.
    mark(&b).await;
    let t = Instant::now();
    record(&mut c, 2, 2, BoardResult::Draw).await;
    wait_text(&b, "tr#b2 td.res", "½-½").await;
    println!("pairings page updated {:?} after the result", t.elapsed());
    assert!(
        still_marked(&b).await,
        "the page was updated in place, not reloaded"
    );
    assert_eq!(
        text(&b, "header p.sub").await,
        "Round 2 pairings · 2 of 3 results in"
    );
    screenshot(&b, &shots, "pairings-live.png").await;

    // Player cards: the rating change of each rated game (K x (score - expected score)) and in
    // total, once the rating worker has appended its figures for round 1.
    let (w1, b1) = r1[0];
    for (pn, sign) in [(w1, '+'), (b1, '-')] {
        let deadline = Instant::now() + LIVE_WAIT;
        let facts = loop {
            open(&b, &base, &format!("/t/{TID}/players/{pn}")).await;
            let facts = js(
                &b,
                "return Array.from(document.querySelectorAll('dl.facts dt')).map(e => [e.textContent, e.nextElementSibling.textContent]);",
            )
            .await;
            if facts.to_string().contains("Rating change") {
                break facts;
            }
            assert!(
                Instant::now() < deadline,
                "player {pn}: no rating change on the card after {LIVE_WAIT:?}: {facts}"
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        };
        let total = text(&b, "dl.facts span.rchg").await;
        let per_game = js(
            &b,
            "return Array.from(document.querySelectorAll('table.games tbody tr')).map(e => e.querySelector('td.rchg').textContent);",
        )
        .await;
        let per_game: Vec<String> = per_game
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect();
        assert!(
            per_game[0].starts_with(sign),
            "player {pn} {} round 1: {per_game:?} ({facts})",
            if sign == '+' { "won" } else { "lost" }
        );
        // The total is the worker's K x sum of (score - expected), rounded once; the games are
        // rounded one by one, so they may differ by a tenth per game.
        let t = |s: &str| -> i64 {
            let v: f64 = s.trim_start_matches('+').parse().unwrap_or(0.0);
            (v * 10.0).round() as i64
        };
        // The JSON card says the same.
        let (status, body) = http_get(&base, &format!("/api/tournaments/{TID}/players/{pn}"));
        assert_eq!(status, 200, "{body}");
        let card: Value = serde_json::from_str(&body).expect("card json");
        assert_eq!(card["rating_change"]["total"], json!(total));
        let json_games: Vec<String> = card["games"]
            .as_array()
            .expect("games")
            .iter()
            .map(|g| g["rating_change"].as_str().unwrap_or("").to_string())
            .collect();
        assert_eq!(json_games, per_game, "player {pn}: JSON card");
        let games: Vec<&String> = per_game.iter().filter(|v| !v.is_empty()).collect();
        let sum: i64 = games.iter().map(|v| t(v)).sum();
        assert!(
            (sum - t(&total)).abs() <= games.len() as i64,
            "player {pn}: games {per_game:?} vs total {total}"
        );
    }
    screenshot(&b, &shots, "player-card.png").await;
    // Six pages with live updates were opened so far: the streams of the pages left behind
    // must not hold the browser's connections (the next page would then miss its update).

    // The last result completes round 2: the open standings move to "after round 2".
    open(&b, &base, &format!("/t/{TID}/standings")).await;
    mark(&b).await;
    record(&mut c, 2, 3, BoardResult::BlackWins).await;
    wait_text(&b, "header p.sub", "Standings after round 2 of 3").await;
    assert!(
        still_marked(&b).await,
        "the standings were updated in place"
    );
    let mut after2 = after1.clone();
    points(
        &r2,
        &[
            BoardResult::WhiteWins,
            BoardResult::Draw,
            BoardResult::BlackWins,
        ],
        &mut after2,
    );
    for (pn, name) in &names {
        assert_eq!(
            text(&b, &format!("tr#p{pn} td.pts")).await,
            pts(after2[pn]),
            "{name}'s points after round 2"
        );
    }
    screenshot(&b, &shots, "standings-live.png").await;

    // Ctrl-C with the page still open: its event stream ends with the server instead of
    // holding the shutdown until the stream's next keep-alive (15 s).
    let asked = Instant::now();
    let status = server.interrupt();
    assert!(status.success(), "serve stopped cleanly: {status:?}");
    assert!(
        asked.elapsed() < Duration::from_secs(10),
        "an open page held the shutdown for {:?}",
        asked.elapsed()
    );
    b.close().await.expect("close the browser");
    drop(driver);
}
