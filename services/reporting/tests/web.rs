//! The HTML pages, their JSON and the event stream, through the HTTP router over a sled log
//! written by the same commands the services run.

use arbiter_core::tournament::{
    Arbiter, BoardResult, CloseRound, Command, CreateTournament, Engine, Pair, ProposePairing,
    PublishPairing, RecordResult, RegisterPlayer, StartRound, Title,
};
use arbiter_eventlog::{EventLog, SledLog};
use arbiter_service_kit::store::{CommandContext, TournamentStore};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use futures::StreamExt;
use std::sync::Arc;
use std::time::Duration;
use tower::ServiceExt;

const T: &str = "club-open";

struct Fixture {
    store: Arc<TournamentStore>,
    app: axum::Router,
    commands: u32,
}

impl Fixture {
    fn new() -> Fixture {
        let log: Arc<dyn EventLog> = Arc::new(SledLog::temporary().expect("sled"));
        let store = Arc::new(TournamentStore::new(log, "reporting", None));
        let app = arbiter_reporting::http_router(store.clone());
        Fixture {
            store,
            app,
            commands: 0,
        }
    }

    /// Runs `c` on the tournament's stream; returns the stream version after it.
    async fn run(&mut self, c: impl Fn(&arbiter_service_kit::store::Folded) -> Command) -> u64 {
        self.commands += 1;
        let ctx = CommandContext::new(T, &format!("c{}", self.commands), None, "test").unwrap();
        self.store
            .execute(&ctx, |f| Ok(c(f)))
            .await
            .unwrap_or_else(|s| panic!("command {}: {s:?}", self.commands))
            .last_version
    }

    async fn result(&mut self, round: u32, board: u32, result: BoardResult) -> u64 {
        self.run(move |_| {
            Command::RecordResult(RecordResult {
                round,
                board,
                result,
            })
        })
        .await
    }

    /// Six players (one with a title, one whose name needs escaping), tie-breaks BH/C1, BH, SB;
    /// round 1 published as 1-4, 5-2, 3-6 (board order), no result yet.
    async fn round_one_published() -> Fixture {
        Fixture::round_one(false).await
    }

    /// As [`Fixture::round_one_published`]; with `seventh`, a seventh player who gets the
    /// pairing-allocated bye.
    async fn round_one(seventh: bool) -> Fixture {
        let mut fx = Fixture::new();
        fx.run(|_| {
            let d = "2026-03-01".parse().unwrap();
            let mut c = CreateTournament::new("Club Open <2026>", d, d, 3);
            c.place = "Oslo".into();
            c.chief_arbiter = Arbiter::named("Doe, Jane");
            c.tie_breaks = "BH/C1, BH, SB".into();
            Command::CreateTournament(c)
        })
        .await;
        let players: [(&str, u32, Option<Title>); 7] = [
            ("Carlsen, Magnus", 2830, Some(Title::GM)),
            ("Ødegård, Åse", 2400, None),
            ("O'Neil & <Sons>", 2300, None),
            ("Berg, Ida", 2200, None),
            ("Dahl, Ola", 2100, None),
            ("Eide, Kari", 2000, None),
            ("Fjord, Nils", 1900, None),
        ];
        let n = if seventh { 7 } else { 6 };
        for (name, rating, title) in players.into_iter().take(n) {
            fx.run(move |_| {
                let mut r = RegisterPlayer::new(name, rating);
                r.title = title;
                r.federation = "NOR".into();
                Command::RegisterPlayer(r)
            })
            .await;
        }
        fx.run(|_| {
            Command::StartRound(StartRound {
                round: 1,
                scheduled_unix_ms: None,
            })
        })
        .await;
        fx.run(|f| {
            Command::ProposePairing(ProposePairing {
                round: 1,
                attempt: f.state.round_attempt(1).unwrap_or(1),
                boards: vec![Pair::new(1, 4), Pair::new(5, 2), Pair::new(3, 6)],
                bye: seventh.then_some(7),
                engine: Engine {
                    name: "by-hand".into(),
                    version: "1".into(),
                },
                rule_set: "dutch-2025".into(),
                based_on_version: f.version,
                input_digest: vec![0; 32],
                explanation: String::new(),
                team_bye: None,
                team_matches: Vec::new(),
            })
        })
        .await;
        fx.run(|f| {
            Command::PublishPairing(PublishPairing {
                round: 1,
                proposal_version: f.current_proposal_version(1),
                changes: None,
                note: String::new(),
            })
        })
        .await;
        fx
    }

    async fn get(&self, path: &str) -> (StatusCode, String, String) {
        let resp = self
            .app
            .clone()
            .oneshot(Request::get(path).body(Body::empty()).unwrap())
            .await
            .unwrap();
        let status = resp.status();
        let ct = resp
            .headers()
            .get("content-type")
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default();
        let body = axum::body::to_bytes(resp.into_body(), 1 << 24)
            .await
            .unwrap();
        (status, ct, String::from_utf8(body.to_vec()).unwrap())
    }

    async fn page(&self, path: &str) -> String {
        let (status, ct, body) = self.get(path).await;
        assert_eq!(status, StatusCode::OK, "{path}: {body}");
        assert_eq!(ct, "text/html; charset=utf-8", "{path}");
        assert!(body.starts_with("<!DOCTYPE html>"), "{path}");
        body
    }

    async fn json(&self, path: &str) -> serde_json::Value {
        let (status, _, body) = self.get(path).await;
        assert_eq!(status, StatusCode::OK, "{path}: {body}");
        serde_json::from_str(&body).unwrap()
    }
}

/// The text of the table row with id `id` (`p3`, `b1`, `r2`).
fn row<'a>(html: &'a str, id: &str) -> &'a str {
    let start = html
        .find(&format!("<tr id=\"{id}\">"))
        .unwrap_or_else(|| panic!("no row {id} in\n{html}"));
    let end = html[start..].find("</tr>").unwrap() + start;
    &html[start..end]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_follow_the_results() {
    let mut fx = Fixture::round_one_published().await;
    fx.result(1, 1, BoardResult::WhiteWins).await;
    fx.result(1, 2, BoardResult::Draw).await;

    // Round 1 is on: the standings count no round yet, the pairings show what is in.
    let st = fx.page("/t/club-open/standings").await;
    assert!(st.contains("<h1>Club Open &lt;2026&gt;</h1>"), "{st}");
    assert!(
        st.contains("Starting list · round 1 in progress, 2 of 3 results in"),
        "{st}"
    );
    assert!(st.contains("O'Neil &amp; &lt;Sons&gt;"), "escaped name");
    assert!(st.contains("<span class=\"title\">GM</span>"), "titles");
    assert!(
        st.contains("Tie-breaks: BH/C1, BH, SB"),
        "the tournament's list"
    );
    assert!(
        st.contains("data-events=\"/t/club-open/events?after="),
        "live script"
    );
    assert_eq!(
        fx.page("/t/club-open").await,
        st,
        "the overview is the standings"
    );

    let pairings = fx.page("/t/club-open/pairings/1").await;
    assert!(pairings.contains("Round 1 pairings · 2 of 3 results in"));
    let b1 = row(&pairings, "b1");
    assert!(b1.contains("Carlsen, Magnus") && b1.contains("Berg, Ida") && b1.contains("1-0"));
    let b2 = row(&pairings, "b2");
    assert!(b2.contains("Dahl, Ola") && b2.contains("Ødegård, Åse") && b2.contains("½-½"));
    let b3 = row(&pairings, "b3");
    assert!(
        b3.contains("<td class=\"res\"></td>"),
        "board 3 is still on: {b3}"
    );
    assert_eq!(
        fx.page("/t/club-open/pairings").await,
        pairings,
        "the last round"
    );

    let cross = fx.page("/t/club-open/crosstable").await;
    assert!(
        row(&cross, "p1")
            .contains("href=\"#p4\">4</a><span class=\"c\">w</span> <span class=\"res\">1</span>")
    );
    assert!(
        row(&cross, "p1").contains("<td class=\"pts\">0.0</td>"),
        "points of complete rounds"
    );
    assert!(
        row(&cross, "p3").contains("<td class=\"r\"></td>"),
        "game on: blank"
    );

    let card = fx.page("/t/club-open/players/2").await;
    assert!(card.contains("<dt>Points</dt><dd>0.5</dd>"), "{card}");
    assert!(row(&card, "r1").contains("Dahl, Ola"));

    // The last result: round 1 counts, ties are broken.
    fx.result(1, 3, BoardResult::BlackWins).await;
    let st = fx.page("/t/club-open/standings").await;
    assert!(st.contains("Standings after round 1 of 3"), "{st}");
    let first = row(&st, "p1");
    assert!(
        first.contains("<td class=\"place shared\">1-2</td>"),
        "{first}"
    );
    assert!(first.contains("<td class=\"pts\">1.0</td>"));
    let ranking = fx.json("/api/tournaments/club-open/ranking").await;
    assert_eq!(ranking["after_round"], 1);
    assert_eq!(ranking["tiebreaks_from"], "tournament");
    assert_eq!(
        ranking["tiebreaks"],
        serde_json::json!(["BH/C1", "BH", "SB"])
    );
    assert_eq!(ranking["standings"].as_array().unwrap().len(), 6);
    let asked = fx
        .json("/api/tournaments/club-open/ranking?tiebreaks=SB,WIN")
        .await;
    assert_eq!(asked["tiebreaks_from"], "request");
    let cross = fx.json("/api/tournaments/club-open/crosstable").await;
    assert_eq!(cross["after_round"], 1);
    assert_eq!(cross["rows"][0]["rounds"][0]["result"], "1");
    let player = fx.json("/api/tournaments/club-open/players/6").await;
    assert_eq!(player["points"], "1.0");
    assert_eq!(player["games"][0]["opponent"]["no"], 3);

    fx.run(|_| Command::CloseRound(CloseRound { round: 1 }))
        .await;
    let st = fx.page("/t/club-open/standings?after_round=0").await;
    assert!(st.contains("Starting list"));
    assert!(
        row(&st, "p4").contains("<td class=\"place\">4</td>"),
        "by pairing number"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_bye_is_listed_and_counted() {
    let mut fx = Fixture::round_one(true).await;
    let pairings = fx.page("/t/club-open/pairings/1").await;
    let byes = &pairings[pairings.find("<h2>Not paired</h2>").expect("a bye section")..];
    assert!(
        byes.contains("Fjord, Nils") && byes.contains("pairing-allocated bye"),
        "{byes}"
    );
    fx.result(1, 1, BoardResult::WhiteWins).await;
    fx.result(1, 2, BoardResult::BlackWinsForfeit).await;
    fx.result(1, 3, BoardResult::Draw).await;
    let pairings = fx.page("/t/club-open/pairings/1").await;
    assert!(
        row(&pairings, "b2").contains("<td class=\"res\">-/+</td>"),
        "forfeit"
    );
    let st = fx.page("/t/club-open/standings").await;
    assert!(
        row(&st, "p7").contains("<td class=\"pts\">1.0</td>"),
        "the bye scores a point"
    );
    let cross = fx.page("/t/club-open/crosstable").await;
    assert!(
        row(&cross, "p7").contains(">PAB</span>"),
        "{}",
        row(&cross, "p7")
    );
    assert!(
        row(&cross, "p2").contains("<span class=\"res\">+</span>"),
        "forfeit win"
    );
    let card = fx.json("/api/tournaments/club-open/players/7").await;
    assert_eq!(card["games"][0]["description"], "pairing-allocated bye");
    assert_eq!(card["games"][0]["opponent"], serde_json::Value::Null);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_is_not_there_is_not_found() {
    let fx = Fixture::round_one_published().await;
    for path in [
        "/t/nope/standings",
        "/t/club-open/pairings/2",
        "/t/club-open/players/7",
    ] {
        let (status, ct, body) = fx.get(path).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert!(ct.starts_with("text/html"), "{path}");
        assert!(body.contains("<h1>Not found</h1>"), "{path}: {body}");
    }
    let (status, _, body) = fx.get("/t/bad%20id/standings").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, _, body) = fx.get("/t/club-open/standings?tiebreaks=XYZ").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let (status, ct, _) = fx.get("/api/tournaments/nope/crosstable").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(ct.starts_with("application/json"));
    let (status, _, _) = fx.get("/t/nope/events").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

/// Reads the event stream until a frame containing `needle` (at most 10 s).
async fn frame_with(
    body: &mut (impl futures::Stream<Item = Result<axum::body::Bytes, axum::Error>> + Unpin),
    needle: &str,
) -> String {
    let mut seen = String::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let chunk = tokio::time::timeout_at(deadline, body.next())
            .await
            .unwrap_or_else(|_| panic!("no {needle:?} within 10 s; got:\n{seen}"))
            .expect("stream open")
            .expect("chunk");
        seen.push_str(&String::from_utf8_lossy(&chunk));
        if let Some(i) = seen.find(needle) {
            let start = seen[..i].rfind("\n\n").map_or(0, |s| s + 2);
            let end = seen[i..].find("\n\n").map_or(seen.len(), |e| i + e);
            return seen[start..end].to_string();
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_event_stream_tells_of_every_append() {
    let mut fx = Fixture::round_one_published().await;
    let v0 = fx.result(1, 1, BoardResult::WhiteWins).await;
    let resp = fx
        .app
        .clone()
        .oneshot(
            Request::get(format!("/t/club-open/events?after={v0}"))
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    assert_eq!(resp.status(), StatusCode::OK);
    assert_eq!(resp.headers()["content-type"], "text/event-stream");
    let mut body = resp.into_body().into_data_stream();
    let ready = frame_with(&mut body, "event: ready").await;
    assert!(ready.contains(&format!("id: {v0}")), "{ready}");
    assert!(ready.contains("retry: 1000"), "{ready}");

    let v1 = fx.result(1, 2, BoardResult::Draw).await;
    let ev = frame_with(&mut body, "ResultRecorded").await;
    assert!(ev.contains(&format!("id: {v1}")), "{ev}");
    assert!(ev.contains(&format!("\"version\":{v1}")), "{ev}");
    assert!(
        !ev.contains("event:"),
        "unnamed, so pages reload on it: {ev}"
    );

    // A browser reconnecting with the last id it saw gets what it missed.
    let v2 = fx.result(1, 3, BoardResult::Draw).await;
    let resp = fx
        .app
        .clone()
        .oneshot(
            Request::get("/t/club-open/events?after=1")
                .header("last-event-id", v1.to_string())
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    let mut body = resp.into_body().into_data_stream();
    let ev = frame_with(&mut body, "ResultRecorded").await;
    assert!(ev.contains(&format!("id: {v2}")), "{ev}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn event_streams_end_at_shutdown() {
    let fx = Fixture::round_one_published().await;
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let app = arbiter_reporting::http_router_until(fx.store.clone(), Some(stop_rx));
    let resp = app
        .oneshot(
            Request::get("/t/club-open/events")
                .body(Body::empty())
                .unwrap(),
        )
        .await
        .unwrap();
    let mut body = resp.into_body().into_data_stream();
    frame_with(&mut body, "event: ready").await;
    stop_tx.send(true).unwrap();
    let end = tokio::time::timeout(Duration::from_secs(10), async {
        while let Some(c) = body.next().await {
            c.expect("chunk");
        }
    })
    .await;
    assert!(end.is_ok(), "the stream must end when the server stops");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_index_lists_every_tournament() {
    let empty = Fixture::new();
    let html = empty.page("/").await;
    assert!(html.contains("No tournaments yet."), "{html}");

    let mut fx = Fixture::round_one_published().await;
    let html = fx.page("/").await;
    let line = row_of_index(&html);
    assert!(
        line.contains("<a href=\"/t/club-open\">Club Open &lt;2026&gt;</a>"),
        "{line}"
    );
    for cell in [
        "<td class=\"where opt\">Oslo</td>",
        "<td class=\"dates\">2026-03-01</td>",
        "<td class=\"rounds\">3</td>",
        "<td class=\"players\">6</td>",
        "<td class=\"status\">round 1 of 3 in progress</td>",
        "href=\"/t/club-open/pairings/1\"",
    ] {
        assert!(line.contains(cell), "{cell} in {line}");
    }
    // The JSON list says the same.
    let list = fx.json("/api/tournaments").await;
    assert_eq!(
        list,
        serde_json::json!([{
            "tournament_id": "club-open",
            "name": "Club Open <2026>",
            "place": "Oslo",
            "start_date": "2026-03-01",
            "end_date": "2026-03-01",
            "rounds": 3,
            "players": 6,
            "status": "round 1 of 3 in progress",
            "version": list[0]["version"],
        }])
    );
    // Every page of the tournament has its header: place and dates, the chief arbiter, the
    // rules.
    let st = fx.page("/t/club-open/standings").await;
    for fact in [
        "<dt>Place</dt><dd>Oslo</dd>",
        "<dt>Dates</dt><dd>2026-03-01</dd>",
        "<dt>Chief arbiter</dt><dd>Doe, Jane</dd>",
        "<dt>Pairing rules</dt>",
        "<dt>Tie-break rules</dt><dd>FIDE C.07 of 2026</dd>",
    ] {
        assert!(st.contains(fact), "{fact} in the header");
    }
    for board in 1..=3 {
        fx.result(1, board, BoardResult::Draw).await;
    }
    let line = row_of_index(&fx.page("/").await).to_string();
    assert!(
        line.contains("<td class=\"status\">after round 1 of 3</td>"),
        "{line}"
    );
}

/// The first body row of the index table.
fn row_of_index(html: &str) -> &str {
    let start = html
        .find("<tbody><tr>")
        .unwrap_or_else(|| panic!("no index row in\n{html}"));
    let end = html[start..].find("</tr>").unwrap() + start;
    &html[start..end]
}
