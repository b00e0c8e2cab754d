//! The web console in a real browser: `arbiter serve` (the binary), headless Chromium over
//! WebDriver. An arbiter signs in with a link from `arbiter console-link`, creates a 24-player,
//! 5-round Swiss, changes two of its settings, registers players by pasting a list and one by the
//! form, cancels a mistaken registration, pairs and publishes every round (a hand-made rematch is
//! refused with the rule it breaks), enters results from two browser sessions at once (each sees
//! the other's entries arrive; a conflicting entry is refused, never overwritten), corrects a
//! result and finishes. Then the console's standings equal GetStandings, its prize list is what
//! arbiter-prizes gives for them, its TRF download equals `arbiter client export`, `arbiter
//! replay` exits 0 and every event the arbiters caused names them as actor.
//! Screenshots of every screen at 1280 and 390 px go to the target folder.
//!
//! The security test signs in over plain HTTP: a form without its CSRF token, a reused, an
//! expired or a foreign link, a player's session on arbiter screens, hostile names on every
//! screen.

use crate::support::browser::{Driver, browser, js, screenshot, text, tool};
use crate::support::*;
use arbiter_auth::{Principal, Role};
use arbiter_proto::registration::v1 as reg;
use arbiter_proto::reporting::v1 as rep;
use arbiter_proto::round_director::v1 as rd;
use fantoccini::{Client, Locator};
use serde_json::json;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::{Duration, Instant};

const TID: &str = "console-open";
pub(crate) const CHIEF: &str = "Arbiter, Chief";
const DEPUTY: &str = "Arbiter, Deputy";
const ROUNDS: u32 = 5;
/// The first FIDE id of the generated rating list.
const LIST_FIRST_ID: u64 = 9_100_000;
/// How long a screen may take to show what another session did, or the pairing worker.
const WAIT: Duration = Duration::from_secs(30);

/// A sign-in link from the CLI, as an operator gets one.
pub(crate) fn console_link(base: &str, subject: &str) -> String {
    let r = run(&[
        "console-link",
        "--token-keys",
        crate::support::token::auth().path.to_str().unwrap(),
        "--url",
        base,
        "--subject",
        subject,
    ]);
    assert_eq!(r.code, 0, "console-link: {}", r.stderr);
    let link = r.stdout.trim().to_string();
    assert!(
        link.starts_with(&format!("{base}/console/sign-in?link=")),
        "{link}"
    );
    link
}

/// `arbiter serve` on a fresh data folder, and a browser signed in to its console as the chief
/// arbiter. Fields drop in order: the browser, then its driver, the server and the folder.
pub(crate) struct SignedIn {
    pub b: Client,
    pub c: Clients,
    pub base: String,
    // Held for their drop: the browser's driver, the server, the folder.
    _driver: Driver,
    _server: Server,
    _work: TempDir,
}

pub(crate) async fn signed_in(name: &str) -> SignedIn {
    let chromium = tool("CHROMIUM", "chromium");
    let chromedriver = tool("CHROMEDRIVER", "chromedriver");
    let work = TempDir::new(name).unwrap();
    let data = work.path().join("data");
    let server = Server::start(
        &["--data", data.to_str().unwrap()],
        &work.path().join("serve.log"),
    );
    let base = server.http.clone().expect("http address");
    let c = Clients::new(&Endpoints::one(&server.grpc));
    let driver = Driver::start(&chromedriver, &work.path().join("chromedriver.log"));
    let profile = work.path().join("profile");
    std::fs::create_dir_all(&profile).unwrap();
    let b = browser(&driver, &chromium, &profile).await;
    sign_in(&b, &console_link(&base, CHIEF)).await;
    SignedIn {
        b,
        c,
        base,
        _driver: driver,
        _server: server,
        _work: work,
    }
}

pub(crate) async fn sign_in(b: &Client, link: &str) {
    b.goto(link).await.expect("open the link");
    b.find(Locator::Id("sign-in"))
        .await
        .expect("the sign-in button")
        .click()
        .await
        .expect("sign in");
    wait_for(b, "h1", "Tournaments").await;
}

/// Waits until the text at `css` is `want`.
pub(crate) async fn wait_for(b: &Client, css: &str, want: &str) {
    let deadline = Instant::now() + WAIT;
    loop {
        let got = text(b, css).await;
        if got == want {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{css}: {got:?}, expected {want:?}; page: {}",
            text(b, "main").await
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

pub(crate) async fn fill(b: &Client, id: &str, value: &str) {
    let e = b
        .find(Locator::Id(id))
        .await
        .unwrap_or_else(|e| panic!("#{id}: {e}"));
    e.clear()
        .await
        .unwrap_or_else(|e| panic!("clear #{id}: {e}"));
    e.send_keys(value)
        .await
        .unwrap_or_else(|e| panic!("type in #{id}: {e}"));
}

pub(crate) async fn click(b: &Client, id: &str) {
    let e = match b.find(Locator::Id(id)).await {
        Ok(e) => e,
        Err(e) => panic!("#{id}: {e}; page: {}", text(b, "main").await),
    };
    e.click().await.expect("click");
}

/// Waits for the next page to load after a click (the old document's mark is gone).
pub(crate) async fn mark(b: &Client) {
    js(b, "window.__before = 'yes'; return null;").await;
}

pub(crate) async fn wait_loaded(b: &Client) {
    let deadline = Instant::now() + WAIT;
    while js(
        b,
        "return window.__before === 'yes' || document.readyState !== 'complete';",
    )
    .await
        == json!(true)
    {
        assert!(Instant::now() < deadline, "no new page within {WAIT:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

pub(crate) async fn submit(b: &Client, id: &str) {
    mark(b).await;
    click(b, id).await;
    wait_loaded(b).await;
}

pub(crate) async fn flash(b: &Client) -> String {
    text(b, ".flash").await
}

/// Both widths of the screen now shown; every id once, every field labelled.
pub(crate) async fn shots(b: &Client, dir: &Path, name: &str) {
    let dup = js(
        b,
        "var seen = {}, dup = []; document.querySelectorAll('[id]').forEach(function (e) { \
         if (seen[e.id]) dup.push(e.id); seen[e.id] = 1; }); return dup;",
    )
    .await;
    assert_eq!(dup, json!([]), "{name}: ids used twice");
    let unlabelled = js(
        b,
        "return Array.from(document.querySelectorAll('input:not([type=hidden]), select, textarea')) \
         .filter(function (e) { return !(e.labels && e.labels.length) && !e.getAttribute('aria-label'); }) \
         .map(function (e) { return e.name; });",
    )
    .await;
    assert_eq!(unlabelled, json!([]), "{name}: fields without a label");
    for (w, h) in [(1280u32, 900u32), (390, 844)] {
        b.set_window_size(w, h).await.expect("window size");
        tokio::time::sleep(Duration::from_millis(100)).await;
        screenshot(b, dir, &format!("{name}-{w}.png")).await;
        // Nothing wider than the screen but the tables, which scroll in their box.
        let wide = js(
            b,
            "return document.documentElement.scrollWidth > window.innerWidth + 1;",
        )
        .await;
        assert_eq!(
            wide,
            json!(false),
            "{name} at {w} px is wider than the screen"
        );
    }
    b.set_window_size(1280, 900).await.expect("window size");
}

/// The boards of the round screen: (board, white, black).
async fn boards(b: &Client) -> Vec<(u32, u32, u32)> {
    let v = js(
        b,
        "return Array.from(document.querySelectorAll('#boards tbody tr')).map(function (r) { \
         return [+r.dataset.board, +r.dataset.white, +r.dataset.black]; });",
    )
    .await;
    serde_json::from_value::<Vec<(u32, u32, u32)>>(v).expect("boards")
}

async fn result_of(b: &Client, board: u32) -> String {
    text(b, &format!("#boards tr[data-board=\"{board}\"] td.res")).await
}

async fn enter(b: &Client, board: u32, key: &str) -> String {
    fill(b, "board", &board.to_string()).await;
    fill(b, "result", key).await;
    mark(b).await;
    b.find(Locator::Id("result"))
        .await
        .expect("result field")
        .send_keys("\u{E007}")
        .await
        .expect("Enter");
    wait_loaded(b).await;
    flash(b).await
}

/// The players of the list: a spreadsheet's copy (tab-separated), one a line.
fn pasted_list() -> String {
    let mut s = String::from("Name\tRating\tFIDE id\tFederation\tTitle\n");
    for i in 1..=22u32 {
        let rating = 2500 - i * 37;
        let title = if i <= 2 { "IM" } else { "" };
        s.push_str(&format!(
            "Player, {i:02}\t{rating}\t{}\tESP\t{title}\n",
            4_100_000 + i
        ));
    }
    s.push_str("Mistake, Entry\t1500\t\tESP\t\n");
    s
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_run_from_the_console() {
    let chromium = tool("CHROMIUM", "chromium");
    let chromedriver = tool("CHROMEDRIVER", "chromedriver");
    let work = TempDir::new("arbiter-console").unwrap();
    let data = work.path().join("data");
    // A FIDE rating list on the server, for the search while registering.
    let list = work.path().join("players_list_foa.txt");
    let mut bytes = Vec::new();
    arbiter_rating_list::synthetic::write_text_list(&mut bytes, LIST_FIRST_ID, 500).unwrap();
    std::fs::write(&list, bytes).unwrap();
    let r = run(&[
        "ratings",
        "import",
        list.to_str().unwrap(),
        "--data",
        data.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let listed = arbiter_rating_list::RegistryEntry::from(&arbiter_rating_list::synthetic::record(
        LIST_FIRST_ID,
        77,
    ));
    let mut server = Server::start(
        &["--data", data.to_str().unwrap()],
        &work.path().join("serve.log"),
    );
    let base = server.http.clone().expect("http address");
    let shots_dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("console");
    std::fs::create_dir_all(&shots_dir).unwrap();

    let driver = Driver::start(&chromedriver, &work.path().join("chromedriver.log"));
    let profile = work.path().join("profile-chief");
    std::fs::create_dir_all(&profile).unwrap();
    let b = browser(&driver, &chromium, &profile).await;

    // Signed in by a link; the link is spent.
    let link = console_link(&base, CHIEF);
    sign_in(&b, &link).await;
    shots(&b, &shots_dir, "tournaments").await;

    // A 5-round Swiss.
    submit(&b, "new-tournament").await;
    wait_for(&b, "h1", "New tournament").await;
    shots(&b, &shots_dir, "new-tournament").await;
    fill(&b, "name", "Console Open").await;
    fill(&b, "id", TID).await;
    fill(&b, "rounds", &ROUNDS.to_string()).await;
    fill(&b, "place", "Madrid").await;
    fill(&b, "federation", "ESP").await;
    submit(&b, "create").await;
    wait_for(&b, "h1", "Players").await;

    // The settings, as the log has them; a change records only what changed.
    b.goto(&format!("{base}/console/t/{TID}/settings"))
        .await
        .unwrap();
    let shown = js(
        &b,
        "return [document.getElementById('place').value, document.getElementById('rounds').value];",
    )
    .await;
    assert_eq!(shown, json!(["Madrid", ROUNDS.to_string()]));
    shots(&b, &shots_dir, "settings").await;
    fill(&b, "place", "Madrid, Centro").await;
    fill(
        &b,
        "time_control",
        "90 min/40 moves + 30 min, 30 s per move",
    )
    .await;
    submit(&b, "save-settings").await;
    assert_eq!(flash(&b).await, "", "settings");
    b.goto(&format!("{base}/console/t/{TID}/settings"))
        .await
        .unwrap();
    let shown = js(&b, "return [document.getElementById('place').value, document.getElementById('time_control').value];").await;
    assert_eq!(
        shown,
        json!(["Madrid, Centro", "90 min/40 moves + 30 min, 30 s per move"])
    );
    // No rounds at all: the form itself will not send it.
    fill(&b, "rounds", "0").await;
    let valid = js(
        &b,
        "return document.getElementById('rounds').form.checkValidity();",
    )
    .await;
    assert_eq!(valid, json!(false));
    b.goto(&format!("{base}/console/t/{TID}/players"))
        .await
        .unwrap();
    wait_for(&b, "h1", "Players").await;

    // 23 pasted (one by mistake), one by the form; the mistake cancelled.
    // A paste puts the spreadsheet's cells, tabs included, in the field at once (typed, a tab
    // would move the focus).
    b.execute(
        "document.getElementById('paste').value = arguments[0]; return null;",
        vec![json!(pasted_list())],
    )
    .await
    .expect("paste");
    submit(&b, "paste-players").await;
    assert_eq!(flash(&b).await, "", "paste");
    fill(&b, "p-name", "Late, Entrant").await;
    fill(&b, "p-rating", "1450").await;
    fill(&b, "p-fed", "POR").await;
    submit(&b, "add-player").await;
    assert_eq!(flash(&b).await, "", "add one");
    // One found in the rating list as the name is typed, registered with the list's data.
    let typed: String = listed
        .name
        .chars()
        .take(listed.name.find(',').unwrap())
        .collect();
    fill(&b, "find", &typed).await;
    let deadline = Instant::now() + WAIT;
    let register = format!("button[aria-label='Register {}']", listed.name);
    while b.find(Locator::Css(&register)).await.is_err() {
        assert!(
            Instant::now() < deadline,
            "no suggestion for {typed:?}: {}",
            text(&b, "#found").await
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    shots(&b, &shots_dir, "players-found").await;
    mark(&b).await;
    b.find(Locator::Css(&register))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
    wait_loaded(&b).await;
    assert_eq!(flash(&b).await, "", "register from the list");
    let row = js(
        &b,
        "return Array.from(document.querySelectorAll('#players tbody tr')).map(function (r) { \
         return Array.from(r.querySelectorAll('td')).slice(2, 6).map(function (c) { return c.textContent; }); });",
    )
    .await;
    let row: Vec<Vec<String>> = serde_json::from_value(row).unwrap();
    let fed = listed.federation.map(|f| f.to_string()).unwrap_or_default();
    let expect = vec![
        listed.name.clone(),
        listed.standard.rating.unwrap_or(0).to_string(),
        fed,
        listed.fide_id.to_string(),
    ];
    assert!(row.contains(&expect), "{expect:?} in {row:?}");
    let rows = js(
        &b,
        "return document.querySelectorAll('#players tbody tr').length;",
    )
    .await;
    assert_eq!(rows, json!(25));
    mark(&b).await;
    b.find(Locator::Css(
        "button[aria-label='Cancel the registration of Mistake, Entry']",
    ))
    .await
    .expect("the cancel button of the mistaken entry")
    .click()
    .await
    .unwrap();
    wait_loaded(&b).await;
    assert_eq!(flash(&b).await, "", "cancel");
    let names = js(
        &b,
        "return Array.from(document.querySelectorAll('#players td.name')).map(function (c) { return c.textContent; });",
    )
    .await;
    let names: Vec<String> = serde_json::from_value(names).unwrap();
    assert_eq!(names.len(), 24);
    assert!(!names.iter().any(|n| n == "Mistake, Entry"), "{names:?}");
    shots(&b, &shots_dir, "players").await;

    // The prize fund, as the regulations announce it with the field: the Hort system for
    // ties, a rating-band list. Shown first (nothing recorded), then announced: the log keeps
    // it and the screen shows it from then on.
    b.goto(&format!("{base}/console/t/{TID}/prizes"))
        .await
        .unwrap();
    assert_eq!(
        text(&b, "#fund-status").await,
        "No prize fund has been announced yet: the list below is a trial until it is."
    );
    fill(&b, "places", "1000, 500, 250, 100.50").await;
    fill(&b, "currency", "EUR").await;
    fill(&b, "categories", "U2000; rating<2000; 80 40").await;
    js(
        &b,
        "document.querySelector('input[name=method][value=hort]').click(); return null;",
    )
    .await;
    submit(&b, "prize-show").await;
    assert_eq!(flash(&b).await, "", "prize list");
    assert_eq!(
        text(&b, "#fund-status").await,
        "No prize fund has been announced yet: the list below is a trial until it is.",
        "shown, not announced"
    );
    submit(&b, "prize-announce").await;
    assert_eq!(flash(&b).await, "", "prize fund announced");
    assert_eq!(
        text(&b, "#fund-status").await,
        "The prize fund shown is the one announced with the tournament."
    );
    let announced: Vec<_> = kinds_by_actor(&mut Clients::new(&Endpoints::one(&server.grpc)), TID)
        .await
        .into_iter()
        .filter_map(|(actor, k)| match k {
            arbiter_proto::events::v1::event::Kind::TournamentUpdated(u) => {
                Some((actor, u.prize_fund?))
            }
            _ => None,
        })
        .collect();
    assert_eq!(announced.len(), 1, "{announced:?}");
    assert_eq!(announced[0].0, CHIEF);
    assert_eq!(announced[0].1.places, [100000, 50000, 25000, 10050]);
    assert_eq!(announced[0].1.currency, "EUR");
    assert_eq!(announced[0].1.categories[0].rating_below, 2000);

    // The deputy's session, in a second browser.
    let profile2 = work.path().join("profile-deputy");
    std::fs::create_dir_all(&profile2).unwrap();
    let b2 = browser(&driver, &chromium, &profile2).await;
    sign_in(&b2, &console_link(&base, DEPUTY)).await;

    let round_path = format!("{base}/console/t/{TID}/round");
    let mut played: BTreeSet<(u32, u32)> = BTreeSet::new();
    let mut grpc = Clients::new(&Endpoints::one(&server.grpc));
    let keys = ["1", "=", "0", "1", "0", "=", "+", "1", "0", "=", "1", "0"];
    for round in 1..=ROUNDS {
        b.goto(&round_path).await.unwrap();
        submit(&b, "start-round").await;
        // The proposal arrives; the page shows it (live, or on reload).
        let deadline = Instant::now() + WAIT;
        while b.find(Locator::Id("publish")).await.is_err() {
            assert!(Instant::now() < deadline, "no proposal for round {round}");
            tokio::time::sleep(Duration::from_millis(100)).await;
            if b.find(Locator::Id("publish")).await.is_err() {
                b.goto(&round_path).await.unwrap();
            }
        }
        let proposal = boards(&b).await;
        assert_eq!(proposal.len(), 12, "round {round}: {proposal:?}");
        // The screen shows the proposal the service holds.
        let served = grpc
            .rep
            .get_pairings(rep::GetPairingsRequest {
                tournament: tref(TID),
                round,
            })
            .await
            .unwrap()
            .into_inner();
        let served: Vec<(u32, u32, u32)> = served
            .boards
            .iter()
            .filter_map(|b| b.board.as_ref())
            .map(|b| (b.number, b.white, b.black))
            .collect();
        assert_eq!(proposal, served, "round {round}");
        // The proposal comes with its reasons in words.
        let why = js(
            &b,
            "var e = document.querySelector('#explanation pre'); return e ? e.textContent : '';",
        )
        .await;
        assert!(
            why.as_str().is_some_and(|w| w.len() > 20),
            "round {round}: no explanation: {why}"
        );
        if round == 2 {
            shots(&b, &shots_dir, "round-proposed").await;
            // Boards changed by hand are judged before anything is published: board 1's
            // colours swapped is the same pairs with the colours the engine did not choose.
            let swapped: Vec<String> = proposal
                .iter()
                .map(|&(n, w, bl)| {
                    if n == 1 {
                        format!("{bl} {w}")
                    } else {
                        format!("{w} {bl}")
                    }
                })
                .collect();
            mark(&b).await;
            b.execute(
                "document.getElementById('change-by-hand').open = true; \
                 document.getElementById('hand-boards').value = arguments[0]; \
                 document.getElementById('check-changes').click(); return null;",
                vec![json!(swapped.join("\n"))],
            )
            .await
            .expect("check a changed pairing");
            wait_loaded(&b).await;
            let verdict = text(&b, "#hand-verdict").await;
            let (w1, b1) = (proposal[0].1, proposal[0].2);
            assert!(
                verdict.contains("the engine pairs it otherwise")
                    && verdict.contains(&format!("colours of {w1} - {b1} decided by")),
                "{verdict:?}"
            );
            assert_eq!(
                js(&b, "return document.getElementById('phase').dataset.phase;").await,
                json!((rd::Phase::PairingProposed as i32).to_string()),
                "checking changes publishes nothing"
            );
            shots(&b, &shots_dir, "round-hand-verdict").await;
            // A hand-made rematch: board 1's players of round 1 on board 1 again.
            let (w, bl) = played.iter().next().copied().unwrap();
            let mut lines = vec![format!("{w} {bl}")];
            for &(_, x, y) in &proposal {
                for p in [x, y] {
                    if p != w && p != bl {
                        lines.push(p.to_string());
                    }
                }
            }
            let mut text_boards = vec![lines[0].clone()];
            for pair in lines[1..].chunks(2) {
                text_boards.push(pair.join(" "));
            }
            // Opened, filled and sent in one step, so a live refresh cannot come in between.
            mark(&b).await;
            b.execute(
                "document.getElementById('change-by-hand').open = true; \
                 document.getElementById('hand-boards').value = arguments[0]; \
                 document.getElementById('note').value = 'trying a pairing by hand'; \
                 document.getElementById('publish-changed').click(); return null;",
                vec![json!(text_boards.join("\n"))],
            )
            .await
            .expect("publish a changed pairing");
            wait_loaded(&b).await;
            // First the engine's verdict (a rematch breaks an absolute criterion); publishing
            // anyway, the round director refuses it with the rule.
            let verdict = text(&b, "#hand-verdict").await;
            assert!(
                verdict.contains("the engine pairs it otherwise"),
                "{verdict:?}; page: {}",
                text(&b, "main").await
            );
            mark(&b).await;
            b.execute(
                "document.getElementById('publish-changed').click(); return null;",
                vec![],
            )
            .await
            .expect("publish anyway");
            wait_loaded(&b).await;
            let said = flash(&b).await;
            assert!(
                said.contains("already played each other") && said.contains("C.04.1.b"),
                "{said:?}; sent {text_boards:?}; page: {}",
                text(&b, "main").await
            );
            shots(&b, &shots_dir, "round-rematch-refused").await;
        }
        submit(&b, "publish").await;
        assert_eq!(flash(&b).await, "", "publish round {round}");
        if round == 2 {
            submit(&b, "check").await;
            let verdict = text(&b, "#verdict").await;
            assert!(
                verdict.contains("the engine pairs it the same"),
                "{verdict}"
            );
        }
        for &(_, w, bl) in &proposal {
            played.insert((w.min(bl), w.max(bl)));
        }

        // Results from both sessions: the chief the odd boards, the deputy the even ones.
        b2.goto(&round_path).await.unwrap();
        for &(board, _, _) in &proposal {
            let key = keys[(board as usize + round as usize) % keys.len()];
            let who = if board % 2 == 1 { &b } else { &b2 };
            assert_eq!(
                enter(who, board, key).await,
                "",
                "round {round} board {board}"
            );
        }
        // Each sees the other's last entry (the chief's page was not reloaded since his last
        // entry; the deputy's entry arrives through the event stream).
        let last_even = proposal
            .iter()
            .map(|p| p.0)
            .filter(|b| b % 2 == 0)
            .max()
            .unwrap();
        let deadline = Instant::now() + WAIT;
        while result_of(&b, last_even).await.is_empty() {
            assert!(
                Instant::now() < deadline,
                "the deputy's entry did not reach the chief's screen"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        if round == 1 {
            // Two arbiters, one board: the second entry is refused, the first stands.
            let first = result_of(&b2, 1).await;
            let said = enter(&b2, 1, if first == "1-0" { "0" } else { "1" }).await;
            assert!(said.contains("already has the result"), "{said}");
            assert_eq!(result_of(&b2, 1).await, first);
            shots(&b2, &shots_dir, "results-conflict").await;
        }
        if round == ROUNDS {
            mark(&b).await;
            b.execute(
                "document.getElementById('correct-result').open = true; \
                 document.getElementById('c-board').value = '1'; \
                 document.getElementById('c-result').value = '='; \
                 document.getElementById('c-reason').value = 'score sheets signed as a draw'; \
                 document.getElementById('correct').click(); return null;",
                Vec::new(),
            )
            .await
            .expect("correct a result");
            wait_loaded(&b).await;
            assert_eq!(flash(&b).await, "", "correction");
            assert_eq!(result_of(&b, 1).await, "½-½");
            shots(&b, &shots_dir, "round-playing").await;
        }
        b.goto(&round_path).await.unwrap();
        // With every result in, the screen says so instead of an empty list of pending boards.
        assert_eq!(
            text(&b, "#all-results").await,
            "Every board has a result: the round can be closed.",
            "round {round}"
        );
        submit(&b, "close-round").await;
        assert_eq!(flash(&b).await, "", "close round {round}");
    }
    submit(&b, "finish").await;
    assert_eq!(flash(&b).await, "", "finish");
    wait_for(&b, "#phase", "finished").await;

    // The standings screen is GetStandings.
    b.goto(&format!("{base}/console/t/{TID}/standings"))
        .await
        .unwrap();
    shots(&b, &shots_dir, "standings").await;
    // At phone width the points column is on screen, not behind the table's scroll.
    b.set_window_size(390, 844).await.expect("window size");
    let points_seen = js(
        &b,
        "var h = document.querySelector('#standings thead th[data-column=points]'); \
         var r = h.getBoundingClientRect(); return [h.textContent, r.width > 0 && r.right <= window.innerWidth];",
    )
    .await;
    b.set_window_size(1280, 900).await.expect("window size");
    assert_eq!(points_seen, json!(["Pts", true]), "standings at 390 px");
    let shown = js(
        &b,
        "return Array.from(document.querySelectorAll('#standings tbody tr')).map(function (r) { \
         return Array.from(r.querySelectorAll('td')).slice(0, 6).map(function (c) { return c.textContent; }); });",
    )
    .await;
    let shown: Vec<Vec<String>> = serde_json::from_value(shown).unwrap();
    let st = grpc
        .rep
        .get_standings(rep::GetStandingsRequest {
            tournament: tref(TID),
            after_round: 0,
        })
        .await
        .unwrap()
        .into_inner();
    let expected: Vec<Vec<String>> = st
        .rows
        .iter()
        .map(|r| {
            let rank = if r.rank_to > r.rank {
                format!("{}-{}", r.rank, r.rank_to)
            } else {
                r.rank.to_string()
            };
            let pts = r.score.as_ref().map(|d| d.short()).unwrap_or_default();
            vec![
                rank,
                r.pairing_number.to_string(),
                r.name.clone(),
                r.federation.clone(),
                r.rating.to_string(),
                pts,
            ]
        })
        .collect();
    assert_eq!(shown, expected);
    assert_eq!(st.after_round, ROUNDS);

    // The same screen in Spanish, chosen in the header.
    mark(&b).await;
    b.execute(
        "document.getElementById('language').value = 'es'; \
         document.getElementById('language').form.submit(); return null;",
        Vec::new(),
    )
    .await
    .unwrap();
    wait_loaded(&b).await;
    b.goto(&format!("{base}/console/t/{TID}/standings"))
        .await
        .unwrap();
    assert_eq!(
        text(&b, "h1").await,
        format!("Clasificación tras la ronda {ROUNDS}")
    );
    assert_eq!(
        js(&b, "return document.documentElement.lang;").await,
        json!("es")
    );
    shots(&b, &shots_dir, "standings-es").await;
    b.execute(
        "document.getElementById('language').value = 'en'; \
         document.getElementById('language').form.submit(); return null;",
        Vec::new(),
    )
    .await
    .unwrap();

    // The prize list of the fund announced before round 1: each player's paid amount is what
    // arbiter-prizes gives for GetStandings' score groups, and the fund is paid out to the
    // cent. Once the event is finished the fund is fixed: announcing another is refused.
    b.goto(&format!("{base}/console/t/{TID}/prizes"))
        .await
        .unwrap();
    assert_eq!(
        text(&b, "#fund-status").await,
        "The prize fund shown is the one announced with the tournament."
    );
    shots(&b, &shots_dir, "prizes").await;
    let paid = js(
        &b,
        "return Array.from(document.querySelectorAll('#prize-list tbody tr')).map(function (r) { \
         return [+r.dataset.player, r.querySelector('td.paid').textContent]; });",
    )
    .await;
    let paid: Vec<(u32, String)> = serde_json::from_value(paid).unwrap();
    let mut groups: Vec<arbiter_prizes::ScoreGroup<u32>> = Vec::new();
    for r in &st.rows {
        let points = arbiter_core::Score::from_tenths(arbiter_proto::tenths(r.score.as_ref()));
        match groups.last_mut() {
            Some(g) if g.points == points => g.players.push(r.pairing_number),
            _ => groups.push(arbiter_prizes::ScoreGroup::new(
                points,
                vec![r.pairing_number],
            )),
        }
    }
    let band: Vec<u32> = st
        .rows
        .iter()
        .filter(|r| r.rating > 0 && r.rating < 2000)
        .map(|r| r.pairing_number)
        .collect();
    let fund = arbiter_prizes::PrizeFund::places(vec![100000, 50000, 25000, 10050]).with_category(
        arbiter_prizes::Category {
            name: "U2000".into(),
            prizes: vec![8000, 4000],
            entrants: arbiter_prizes::Entrants::Standings(band),
        },
    );
    let d = arbiter_prizes::distribute(
        &groups,
        &fund,
        &arbiter_prizes::Policy::new(arbiter_prizes::Method::Hort),
    )
    .unwrap();
    let expected: Vec<(u32, String)> = st
        .rows
        .iter()
        .map(|r| {
            let cents = d.award(&r.pairing_number).unwrap().paid;
            let shown = if cents == 0 {
                String::new()
            } else {
                format!("{}.{:02}", cents / 100, cents % 100)
            };
            (r.pairing_number, shown)
        })
        .collect();
    assert_eq!(paid, expected);
    assert_eq!(d.paid_total(), fund.total());
    assert!(
        text(&b, "main")
            .await
            .contains("Prize fund 1970.50 EUR; paid 1970.50 EUR.")
    );

    js(
        &b,
        "document.querySelector('details.fund').open = true; return null;",
    )
    .await;
    fill(&b, "places", "2000").await;
    submit(&b, "prize-announce").await;
    assert!(
        flash(&b).await.contains("the tournament is finished"),
        "{}",
        flash(&b).await
    );

    // The ratings screen is the rating worker's answer, player by player.
    let mut rating_worker =
        arbiter_proto::rating_worker::v1::rating_worker_client::RatingWorkerClient::new(channel(
            &server.grpc,
        ));
    let computed = rating_worker
        .get_event_ratings(arbiter_proto::rating_worker::v1::GetEventRatingsRequest {
            tournament: tref(TID),
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(computed.through_round, ROUNDS);
    b.goto(&format!("{base}/console/t/{TID}/ratings"))
        .await
        .unwrap();
    wait_for(&b, "h1", &format!("Rating changes through round {ROUNDS}")).await;
    shots(&b, &shots_dir, "ratings").await;
    let shown = js(
        &b,
        "return Array.from(document.querySelectorAll('#rating-changes tbody tr')).map(function (r) { \
         return [+r.dataset.player, r.querySelector('td.change').textContent]; });",
    )
    .await;
    let shown: Vec<(u32, String)> = serde_json::from_value(shown).unwrap();
    let expected: Vec<(u32, String)> = computed
        .changes
        .iter()
        .map(|c| {
            let t = c.change_tenths;
            let sign = if t > 0 {
                "+"
            } else if t < 0 {
                "-"
            } else {
                ""
            };
            (
                c.player_id,
                format!("{sign}{}.{}", t.unsigned_abs() / 10, t.unsigned_abs() % 10),
            )
        })
        .collect();
    assert_eq!(shown, expected);
    assert!(!shown.is_empty());

    // Print layouts: a score sheet a board of the last round, the wall chart's cells the
    // crosstable's, the pairings for the wall.
    let last = grpc
        .rep
        .get_pairings(rep::GetPairingsRequest {
            tournament: tref(TID),
            round: ROUNDS,
        })
        .await
        .unwrap()
        .into_inner();
    b.goto(&format!("{base}/console/t/{TID}/print"))
        .await
        .unwrap();
    shots(&b, &shots_dir, "print").await;
    b.goto(&format!("{base}/console/t/{TID}/print/score-sheets"))
        .await
        .unwrap();
    let sheets = js(
        &b,
        "return Array.from(document.querySelectorAll('section.sheet')).map(function (s) { \
         return [+s.dataset.board, s.querySelectorAll('table.moves tbody tr').length]; });",
    )
    .await;
    let sheets: Vec<(u32, usize)> = serde_json::from_value(sheets).unwrap();
    assert_eq!(
        sheets,
        last.boards
            .iter()
            .filter_map(|b| b.board.as_ref())
            .map(|b| (b.number, 60))
            .collect::<Vec<_>>()
    );
    shots(&b, &shots_dir, "print-score-sheets").await;
    b.goto(&format!("{base}/console/t/{TID}/print/pairings"))
        .await
        .unwrap();
    assert_eq!(
        js(
            &b,
            "return document.querySelectorAll('#print-pairings tbody tr').length;"
        )
        .await,
        json!(last.boards.len())
    );
    shots(&b, &shots_dir, "print-pairings").await;
    let crosstable = grpc
        .rep
        .get_crosstable(rep::GetCrosstableRequest {
            tournament: tref(TID),
        })
        .await
        .unwrap()
        .into_inner();
    b.goto(&format!("{base}/console/t/{TID}/print/wall-chart"))
        .await
        .unwrap();
    shots(&b, &shots_dir, "print-wall-chart").await;
    let wall = js(
        &b,
        "return Array.from(document.querySelectorAll('#wall-chart tbody tr')).map(function (r) { \
         return [+r.dataset.player, Array.from(r.querySelectorAll('td.res')).map(function (c) { return c.textContent; })]; });",
    )
    .await;
    let wall: Vec<(u32, Vec<String>)> = serde_json::from_value(wall).unwrap();
    let mut rows: Vec<&rep::CrosstableRow> = crosstable.rows.iter().collect();
    rows.sort_by_key(|r| r.pairing_number);
    assert_eq!(wall.len(), rows.len());
    for ((pn, cells), row) in wall.iter().zip(rows) {
        assert_eq!(*pn, row.pairing_number);
        for c in &row.cells {
            let cell = &cells[c.round as usize - 1];
            if c.opponent > 0 {
                let colour = if c.color == arbiter_proto::events::v1::Color::White as i32 {
                    "w"
                } else {
                    "b"
                };
                assert!(
                    cell.starts_with(&format!("{}{colour} ", c.opponent)),
                    "player {pn} round {}: {cell:?}",
                    c.round
                );
            }
        }
    }

    // The overview, the audit view.
    b.goto(&format!("{base}/console/t/{TID}")).await.unwrap();
    shots(&b, &shots_dir, "overview").await;
    b.goto(&format!("{base}/console/t/{TID}/audit"))
        .await
        .unwrap();
    shots(&b, &shots_dir, "audit").await;
    let actors = js(
        &b,
        "return Array.from(document.querySelectorAll('#events td.actor')).map(function (c) { return c.textContent; });",
    )
    .await;
    let actors: Vec<String> = serde_json::from_value(actors).unwrap();

    // The TRF download is `arbiter client export`.
    let (status, downloaded) = {
        let cookie = js(&b, "return document.cookie;").await;
        // The session cookie is HttpOnly: the page's script cannot read it.
        assert_eq!(cookie, json!(""));
        let c = b
            .get_named_cookie("arbiter_console")
            .await
            .expect("session cookie");
        assert_eq!(c.http_only(), Some(true));
        assert_eq!(format!("{:?}", c.same_site()), "Some(Strict)");
        http_request(
            &base,
            "GET",
            &format!("/console/t/{TID}/export?format=trf16"),
            &[format!("Cookie: arbiter_console={}", c.value())],
            "",
        )
    };
    assert_eq!(status, 200);
    let file = work.path().join("export.trf");
    let r = run(&[
        "client",
        "--server",
        server.grpc.as_str(),
        "export",
        TID,
        "-o",
        file.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(downloaded, std::fs::read_to_string(&file).unwrap());

    // Every event the arbiters caused names the one signed in.
    let mut by_actor: BTreeMap<String, usize> = BTreeMap::new();
    let mut events = 0;
    let mut updates = Vec::new();
    for e in log_of(&mut grpc, TID).await {
        events += 1;
        // The settings form's updates (the prize fund's is checked above).
        if let Some(arbiter_proto::events::v1::event::Kind::TournamentUpdated(u)) =
            e.payload.as_ref().and_then(|p| p.kind.clone())
            && u.prize_fund.is_none()
        {
            updates.push((e.actor.clone(), u));
        }
        *by_actor.entry(e.actor).or_default() += 1;
    }
    // The settings form's one update: the two changed fields, by the chief arbiter.
    assert_eq!(updates.len(), 1, "{updates:?}");
    let (actor, u) = &updates[0];
    assert_eq!(actor, CHIEF);
    assert_eq!(u.place.as_deref(), Some("Madrid, Centro"));
    assert_eq!(
        u.time_control.as_deref(),
        Some("90 min/40 moves + 30 min, 30 s per move")
    );
    assert!(
        u.name.is_none() && u.rounds.is_none() && u.start_date.is_none() && !u.replace_tie_breaks,
        "{u:?}"
    );
    assert_eq!(actors.len(), events, "the audit view lists every event");
    // Replay now: the audit `arbiter replay` runs, from the screen.
    b.goto(&format!("{base}/console/t/{TID}/audit"))
        .await
        .unwrap();
    submit(&b, "replay").await;
    let said = text(&b, "#replay-verdict").await;
    assert!(
        said.contains("The log holds")
            && said.contains("hash chain: intact")
            && said.matches("re-paired, identical").count() == ROUNDS as usize,
        "{said}"
    );
    let services: Vec<&String> = by_actor
        .keys()
        .filter(|a| a.as_str() != CHIEF && a.as_str() != DEPUTY)
        .collect();
    assert!(
        services.iter().all(|a| a.starts_with("arbiter-")
            || a.ends_with("-worker")
            || a.as_str() == "round-director"),
        "actors other than the two arbiters and the services: {by_actor:?}"
    );
    assert!(by_actor[CHIEF] > 24 + 3 * ROUNDS as usize, "{by_actor:?}");
    assert!(by_actor[DEPUTY] >= 6 * ROUNDS as usize, "{by_actor:?}");

    b.close().await.ok();
    b2.close().await.ok();
    // The log replays: every round re-paired identically.
    assert!(server.interrupt().success());
    let replay = run(&["replay", TID, "--data", data.to_str().unwrap()]);
    assert_eq!(replay.code, 0, "{}\n{}", replay.stdout, replay.stderr);
    assert!(
        replay
            .stdout
            .contains(&format!("{ROUNDS} rounds re-paired, 0 differing")),
        "{}",
        replay.stdout
    );
}

// --- security ---------------------------------------------------------------------------------

/// A raw HTTP exchange: (status, head, body).
fn exchange(
    base: &str,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    form: &str,
) -> (u16, String, String) {
    use std::io::{Read, Write};
    let addr = base.trim_start_matches("http://");
    let mut s = std::net::TcpStream::connect(addr).expect("connect");
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    if let Some(c) = cookie {
        head.push_str(&format!("Cookie: arbiter_console={c}\r\n"));
    }
    if method == "POST" {
        head.push_str("Content-Type: application/x-www-form-urlencoded\r\n");
        head.push_str(&format!("Content-Length: {}\r\n", form.len()));
    }
    write!(s, "{head}\r\n{form}").unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).unwrap();
    let text = String::from_utf8_lossy(&buf).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (status, head.to_ascii_lowercase(), body.to_string())
}

fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Signs in with `link`: the session cookie.
fn session_of(base: &str, link: &str) -> String {
    let token = link.split_once("link=").unwrap().1;
    let (status, head, body) = exchange(
        base,
        "POST",
        "/console/sign-in",
        None,
        &format!("link={}", enc(token)),
    );
    assert_eq!(status, 303, "{head}\n{body}");
    let cookie = head
        .lines()
        .find_map(|l| l.strip_prefix("set-cookie: arbiter_console="))
        .expect("a session cookie");
    assert!(
        cookie.contains("httponly") && cookie.contains("samesite=strict"),
        "{cookie}"
    );
    cookie.split(';').next().unwrap().to_string()
}

fn csrf_of(page: &str) -> String {
    let at = page.find("name=\"csrf\" value=\"").expect("a CSRF field") + 19;
    page[at..at + 64].to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_console_refuses_forged_forms_spent_links_and_players() {
    let work = TempDir::new("arbiter-console-sec").unwrap();
    let data = work.path().join("data");
    let server = Server::start(
        &["--data", data.to_str().unwrap()],
        &work.path().join("serve.log"),
    );
    let base = server.http.clone().expect("http address");
    let auth = crate::support::token::auth();

    // A link opens one session; used again, or expired, or from another deployment: refused.
    let link = console_link(&base, CHIEF);
    let cookie = session_of(&base, &link);
    let token = link.split_once("link=").unwrap().1;
    let (status, _, body) = exchange(
        &base,
        "POST",
        "/console/sign-in",
        None,
        &format!("link={}", enc(token)),
    );
    assert_eq!(status, 401);
    assert!(body.contains("used already"), "{body}");
    let (status, _, body) = exchange(
        &base,
        "GET",
        &format!("/console/sign-in?link={token}"),
        None,
        "",
    );
    assert_eq!(status, 401);
    assert!(body.contains("used already"), "{body}");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let expired = auth
        .keys
        .issue(
            &json!({"sub": CHIEF, "role": "admin", "iss": "arbiter", "aud": "arbiter-console",
                    "exp": now - 3600, "iat": now - 7200, "jti": "0123456789abcdef"}),
            None,
        )
        .unwrap();
    let (status, _, body) = exchange(
        &base,
        "POST",
        "/console/sign-in",
        None,
        &format!("link={}", enc(&expired)),
    );
    assert_eq!(status, 401);
    assert!(body.contains("expired"), "{body}");
    let (status, _, body) = exchange(
        &base,
        "POST",
        "/console/sign-in",
        None,
        &format!("link={}", enc(&auth.admin)),
    );
    assert_eq!(status, 401, "a bearer token is no sign-in link");
    assert!(body.contains("not a sign-in link"), "{body}");

    // A form without the session's CSRF token changes nothing.
    let (status, _, page) = exchange(&base, "GET", "/console/new", Some(&cookie), "");
    assert_eq!(status, 200);
    let csrf = csrf_of(&page);
    let hostile = "<img src=x onerror=alert(1)>";
    let form = format!(
        "cmd=c1&id=sec-open&name={}&system=dutch-2025&rounds=3&start=2026-12-05&rating_kind=standard&chief={}",
        enc(&format!("Open {hostile}")),
        enc(CHIEF)
    );
    let (status, _, body) = exchange(&base, "POST", "/console/new", Some(&cookie), &form);
    assert_eq!(status, 403, "{body}");
    let (status, _, body) = exchange(
        &base,
        "POST",
        "/console/new",
        Some(&cookie),
        &format!("{form}&csrf={}", "0".repeat(64)),
    );
    assert_eq!(status, 403, "{body}");
    let c = Clients::new(&Endpoints::one(&server.grpc));
    let listed = c
        .reg
        .clone()
        .list_tournaments(reg::ListTournamentsRequest {})
        .await
        .unwrap()
        .into_inner();
    assert!(
        listed.tournaments.is_empty(),
        "a forged form created {listed:?}"
    );
    let (status, head, _) = exchange(
        &base,
        "POST",
        "/console/new",
        Some(&cookie),
        &format!("{form}&csrf={csrf}"),
    );
    assert_eq!(status, 303, "{head}");

    // Hostile names are text on every screen.
    let players = format!(
        "csrf={csrf}&cmd=p1&list={}",
        enc(&format!(
            "{hostile}\t2000\nPlain, Name\t1900\n\"><script>alert(2)</script>\t1800\n"
        ))
    );
    let (status, _, body) = exchange(
        &base,
        "POST",
        "/console/t/sec-open/players/paste",
        Some(&cookie),
        &players,
    );
    assert_eq!(status, 303, "{body}");
    let (status, _, _) = exchange(
        &base,
        "POST",
        "/console/t/sec-open/round/start",
        Some(&cookie),
        &format!("csrf={csrf}&cmd=s1"),
    );
    assert_eq!(status, 303);
    let deadline = Instant::now() + WAIT;
    loop {
        let (_, _, page) = exchange(&base, "GET", "/console/t/sec-open/round", Some(&cookie), "");
        if page.contains("id=\"publish\"") {
            break;
        }
        assert!(Instant::now() < deadline, "no proposal: {page}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // A team list of an individual event (as a TRF file brings them) with a hostile name.
    let (status, _, body) = exchange(
        &base,
        "POST",
        "/console/t/sec-open/teams",
        Some(&cookie),
        &format!("csrf={csrf}&cmd=t1&name={}&members=1+2", enc(hostile)),
    );
    assert_eq!(status, 303, "{body}");
    for screen in [
        "/console/",
        "/console/t/sec-open",
        "/console/t/sec-open/players",
        "/console/t/sec-open/round",
        "/console/t/sec-open/teams",
        "/console/t/sec-open/schedule",
        "/console/t/sec-open/ratings",
        "/console/t/sec-open/print",
        "/console/t/sec-open/standings",
        "/console/t/sec-open/audit",
        "/console/t/sec-open/settings",
        "/console/t/sec-open/prizes?places=100,50&method=equal&categories=%3Cscript%3Ealert(3)%3C%2Fscript%3E%3B+rating%3C3000%3B+10",
    ] {
        let (status, head, page) = exchange(&base, "GET", screen, Some(&cookie), "");
        assert_eq!(status, 200, "{screen}: {page}");
        assert!(
            head.contains("content-security-policy: default-src 'none'"),
            "{screen}: {head}"
        );
        assert!(
            !page.contains("<img src=x") && !page.contains("<script>alert"),
            "{screen}: unescaped: {page}"
        );
        if screen.ends_with("players") || screen.ends_with("round") || screen.ends_with("teams") {
            assert!(
                page.contains("&lt;img src=x onerror=alert(1)&gt;"),
                "{screen}: {page}"
            );
        }
    }

    // A requested bye and a withdrawal, from the players screen.
    let (status, _, body) = exchange(
        &base,
        "POST",
        "/console/t/sec-open/players/change",
        Some(&cookie),
        &format!("csrf={csrf}&cmd=b1&entry=2&what=half&round=2"),
    );
    assert_eq!(status, 303, "{body}");
    let (status, _, body) = exchange(
        &base,
        "POST",
        "/console/t/sec-open/players/change",
        Some(&cookie),
        &format!("csrf={csrf}&cmd=w1&entry=3&what=withdraw&round=2&reason=ill"),
    );
    assert_eq!(status, 303, "{body}");
    let listed = c
        .reg
        .clone()
        .list_players(reg::ListPlayersRequest {
            tournament: tref("sec-open"),
        })
        .await
        .unwrap()
        .into_inner();
    let by_entry = |e: u32| {
        listed
            .players
            .iter()
            .find(|p| p.entry == e)
            .unwrap()
            .clone()
    };
    assert_eq!(by_entry(2).rounds_off, vec![2]);
    assert_eq!(by_entry(3).status, reg::PlayerStatus::Withdrawn as i32);
    let (status, _, body) = exchange(
        &base,
        "POST",
        "/console/t/sec-open/players/change",
        Some(&cookie),
        &format!("csrf={csrf}&cmd=b2&entry=2&what=half&round=x"),
    );
    assert_eq!(status, 422, "{body}");

    // A player's session: no arbiter screen, and the service refuses his commands anyway.
    let player = arbiter_auth::link::issue_link(
        &auth.keys,
        &Principal {
            subject: "Player One".into(),
            role: Role::Player,
            tournaments: vec!["sec-open".into()],
            entry: Some(1),
        },
        Duration::from_secs(600),
    )
    .unwrap();
    let player_cookie = session_of(&base, &format!("{base}/console/sign-in?link={player}"));
    for screen in [
        "/console/",
        "/console/new",
        "/console/t/sec-open",
        "/console/t/sec-open/round",
        "/console/t/sec-open/teams",
        "/console/t/sec-open/schedule",
        "/console/t/sec-open/audit",
        "/console/t/sec-open/prizes",
        "/console/t/sec-open/settings",
    ] {
        let (status, _, page) = exchange(&base, "GET", screen, Some(&player_cookie), "");
        assert_eq!(status, 403, "{screen} for a player: {page}");
    }
    // Signed out, the session is gone.
    let (status, _, _) = exchange(
        &base,
        "POST",
        "/console/sign-out",
        Some(&cookie),
        &format!("csrf={csrf}"),
    );
    assert_eq!(status, 200);
    let (status, _, _) = exchange(&base, "GET", "/console/", Some(&cookie), "");
    assert_eq!(status, 401);
}
