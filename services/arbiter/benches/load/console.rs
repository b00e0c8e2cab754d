//! `--console`: the console's time per action while N events are played through gRPC against
//! the same `arbiter serve`. One arbiter's session (a sign-in link as `console-link` makes
//! them) pastes a 200-player list, pairs round 1 (100 boards), enters its 100 results one form
//! post each and reads every screen again and again; then, with Chromium on the machine,
//! round 2's 100 results are typed into the result form by WebDriver (board number, result key,
//! Enter), timed as a whole (Chromium and chromedriver as the browser tests find them). Times are taken on the client over loopback (an upper bound on
//! the server's time); sizes are the bytes of each screen.

use crate::browser;
use crate::load::*;
use crate::token;
use arbiter_auth::{Principal, Role};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

const TID: &str = "console-bench";
const PLAYERS: u32 = 200;

/// One HTTP/1.1 exchange on a new connection: (status, head, body, time).
fn exchange(
    base: &str,
    method: &str,
    path: &str,
    cookie: &str,
    form: &str,
) -> (u16, String, String, Duration) {
    let t = Instant::now();
    let addr = base.trim_start_matches("http://");
    let mut s = std::net::TcpStream::connect(addr).expect("connect");
    let mut head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nCookie: arbiter_console={cookie}\r\n"
    );
    if method == "POST" {
        head.push_str("Content-Type: application/x-www-form-urlencoded\r\n");
        head.push_str(&format!("Content-Length: {}\r\n", form.len()));
    }
    write!(s, "{head}\r\n{form}").expect("send");
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).expect("read");
    let took = t.elapsed();
    let text = String::from_utf8_lossy(&buf).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (status, head.to_ascii_lowercase(), body.to_string(), took)
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

/// Times and sizes per action.
#[derive(Default)]
struct Actions {
    times: BTreeMap<&'static str, Vec<Duration>>,
    bytes: BTreeMap<&'static str, usize>,
}

impl Actions {
    fn add(&mut self, what: &'static str, took: Duration, bytes: usize) {
        self.times.entry(what).or_default().push(took);
        let b = self.bytes.entry(what).or_default();
        *b = (*b).max(bytes);
    }

    fn print(&self) {
        println!("console action            n     p50 ms   p99 ms   max ms   largest answer");
        for (what, t) in &self.times {
            let mut t = t.clone();
            t.sort();
            let at = |q: f64| t[((t.len() - 1) as f64 * q).round() as usize].as_secs_f64() * 1e3;
            println!(
                "{what:<24} {:>4} {:>9.1} {:>8.1} {:>8.1} {:>10} B",
                t.len(),
                at(0.5),
                at(0.99),
                at(1.0),
                self.bytes[what]
            );
        }
    }

    fn worst_p99(&self) -> Duration {
        self.times
            .values()
            .map(|t| {
                let mut t = t.clone();
                t.sort();
                t[((t.len() - 1) as f64 * 0.99).round() as usize]
            })
            .max()
            .unwrap_or_default()
    }
}

/// Signs in with a fresh link: the session cookie.
fn sign_in(base: &str) -> String {
    let link = arbiter_auth::link::issue_link(
        &token::auth().keys,
        &Principal {
            subject: "Bench, Arbiter".into(),
            role: Role::Admin,
            tournaments: Vec::new(),
            entry: None,
        },
        Duration::from_secs(900),
    )
    .expect("a link");
    let (status, head, body, _) = exchange(
        base,
        "POST",
        "/console/sign-in",
        "",
        &format!("link={}", enc(&link)),
    );
    assert_eq!(status, 303, "sign-in: {body}");
    let cookie = head
        .lines()
        .find_map(|l| l.strip_prefix("set-cookie: arbiter_console="))
        .expect("a session cookie");
    cookie.split(';').next().unwrap().to_string()
}

fn csrf_of(page: &str) -> String {
    let at = page.find("name=\"csrf\" value=\"").expect("a CSRF field") + 19;
    page[at..at + 64].to_string()
}

fn post(
    base: &str,
    cookie: &str,
    csrf: &str,
    path: &str,
    fields: &str,
    cmd: &str,
) -> (u16, String, Duration) {
    let (status, _, body, took) = exchange(
        base,
        "POST",
        path,
        cookie,
        &format!("csrf={csrf}&cmd={cmd}&{fields}"),
    );
    assert!(status == 303 || status == 200, "{path}: {status} {body}");
    (status, body, took)
}

/// Waits until the round screen shows a proposal.
fn wait_proposal(base: &str, cookie: &str) {
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        let (_, _, page, _) = exchange(base, "GET", &format!("/console/t/{TID}/round"), cookie, "");
        if page.contains("id=\"publish\"") {
            return;
        }
        assert!(Instant::now() < deadline, "no proposal within 300 s");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The HTTP part: everything but the browser. Returns the session cookie.
fn over_http(base: &str, a: &mut Actions) -> String {
    let cookie = sign_in(base);
    let (_, _, page, took) = exchange(base, "GET", "/console/new", &cookie, "");
    a.add("GET new tournament", took, page.len());
    let csrf = csrf_of(&page);
    let form = format!(
        "id={TID}&name=Bench+Open&system=dutch-2025&rounds=5&start=2026-12-05&rating_kind=standard&chief=Bench%2C+Arbiter"
    );
    let (_, _, took) = post(base, &cookie, &csrf, "/console/new", &form, "create");
    a.add("POST create", took, 0);
    let list: String = (1..=PLAYERS)
        .map(|i| format!("Player, {i:03}\t{}\t{}\tESP\n", 2600 - i * 5, 5_000_000 + i))
        .collect();
    let (_, _, took) = post(
        base,
        &cookie,
        &csrf,
        &format!("/console/t/{TID}/players/paste"),
        &format!("list={}", enc(&list)),
        "paste",
    );
    a.add("POST paste 200 players", took, 0);
    let (_, _, took) = post(
        base,
        &cookie,
        &csrf,
        &format!("/console/t/{TID}/round/start"),
        "",
        "start-1",
    );
    a.add("POST start round", took, 0);
    wait_proposal(base, &cookie);
    let (_, _, took) = post(
        base,
        &cookie,
        &csrf,
        &format!("/console/t/{TID}/round/publish"),
        "",
        "publish-1",
    );
    a.add("POST publish", took, 0);
    let screens: [(&'static str, String); 6] = [
        ("GET tournaments", "/console/".into()),
        ("GET overview", format!("/console/t/{TID}")),
        ("GET players", format!("/console/t/{TID}/players")),
        ("GET round", format!("/console/t/{TID}/round")),
        ("GET standings", format!("/console/t/{TID}/standings")),
        ("GET audit", format!("/console/t/{TID}/audit")),
    ];
    let keys = ["1", "=", "0", "1", "0"];
    for board in 1..=PLAYERS / 2 {
        let key = keys[board as usize % keys.len()];
        let (_, _, took) = post(
            base,
            &cookie,
            &csrf,
            &format!("/console/t/{TID}/round/result"),
            &format!("board={board}&result={}", enc(key)),
            &format!("r1-{board}"),
        );
        a.add("POST result", took, 0);
        // Each screen once every ten results.
        if board % 10 == 0 {
            for (what, path) in &screens {
                let (status, _, page, took) = exchange(base, "GET", path, &cookie, "");
                assert_eq!(status, 200, "{path}");
                a.add(what, took, page.len());
            }
        }
    }
    let (_, _, took) = post(
        base,
        &cookie,
        &csrf,
        &format!("/console/t/{TID}/round/close"),
        "",
        "close-1",
    );
    a.add("POST close round", took, 0);
    let (_, _, took) = post(
        base,
        &cookie,
        &csrf,
        &format!("/console/t/{TID}/round/start"),
        "",
        "start-2",
    );
    a.add("POST start round", took, 0);
    wait_proposal(base, &cookie);
    let (_, _, took) = post(
        base,
        &cookie,
        &csrf,
        &format!("/console/t/{TID}/round/publish"),
        "",
        "publish-2",
    );
    a.add("POST publish", took, 0);
    cookie
}

/// Round 2's results typed by WebDriver: the wall time for all 100 boards.
async fn in_the_browser(base: &str, work: &Path) -> Option<Duration> {
    let chromium = browser::tool("CHROMIUM", "chromium");
    let chromedriver = browser::tool("CHROMEDRIVER", "chromedriver");
    let driver = browser::Driver::start(&chromedriver, &work.join("chromedriver.log"));
    let profile = work.join("chromium-profile");
    std::fs::create_dir_all(&profile).ok()?;
    let b = browser::browser(&driver, &chromium, &profile).await;
    let link = arbiter_auth::link::issue_link(
        &token::auth().keys,
        &Principal {
            subject: "Bench, Deputy".into(),
            role: Role::Admin,
            tournaments: Vec::new(),
            entry: None,
        },
        Duration::from_secs(900),
    )
    .ok()?;
    b.goto(&format!("{base}/console/sign-in?link={link}"))
        .await
        .ok()?;
    b.find(fantoccini::Locator::Id("sign-in"))
        .await
        .ok()?
        .click()
        .await
        .ok()?;
    b.goto(&format!("{base}/console/t/{TID}/round"))
        .await
        .ok()?;
    let keys = ["1", "=", "0", "1", "0"];
    let t = Instant::now();
    for board in 1..=PLAYERS / 2 {
        let key = keys[(board as usize + 2) % keys.len()];
        // As an arbiter types: the board field has the focus after each entry.
        let field = b.find(fantoccini::Locator::Id("board")).await.ok()?;
        field.send_keys(&board.to_string()).await.ok()?;
        let result = b.find(fantoccini::Locator::Id("result")).await.ok()?;
        result.send_keys(&format!("{key}\u{E007}")).await.ok()?;
        // The next page has loaded when its board field is empty again.
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let pending = browser::text(&b, "#pending").await;
            if !pending.split_whitespace().any(|p| p == board.to_string()) {
                break;
            }
            assert!(Instant::now() < deadline, "board {board} not recorded");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
    let took = t.elapsed();
    let left = browser::text(&b, "#pending").await;
    assert!(left.is_empty(), "boards left: {left}");
    b.close().await.ok();
    Some(took)
}

pub async fn run(bin: &Path, work: &Path, cfg: &LoadConfig) -> bool {
    let data = work.join("data");
    let mut server = ServerProc::start(bin, &data, &work.join("serve.log"));
    let url = server.url.clone();
    let base = format!("http://127.0.0.1:{}", server.http_port);
    let stats = Arc::new(Stats::default());
    let load = {
        let (url, cfg, stats) = (url.clone(), cfg.clone(), stats.clone());
        tokio::spawn(async move { play(&Urls::one(&url), &cfg, stats).await })
    };
    // Start measuring once the events are under way.
    while stats.results.load(Ordering::Relaxed) < u64::from(cfg.events) {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let results_before = stats.results.load(Ordering::Relaxed);
    let mut actions = Actions::default();
    let t = Instant::now();
    let (actions, _) = {
        let base = base.clone();
        tokio::task::spawn_blocking(move || {
            let cookie = over_http(&base, &mut actions);
            (actions, cookie)
        })
        .await
        .expect("the console's HTTP part")
    };
    let http_wall = t.elapsed();
    let browser_time = in_the_browser(&base, work).await;
    let results_during = stats.results.load(Ordering::Relaxed) - results_before;
    let finished_during = stats.events_finished.load(Ordering::Relaxed);
    let wall = load.await.expect("the load");
    server.sample_rss();
    server.terminate(Duration::from_secs(60));
    println!(
        "background: {} events x {} players x {} rounds through gRPC ({:.1} s); {} results \
recorded by them while the console was measured, {} events finished by then",
        cfg.events,
        cfg.players,
        cfg.rounds,
        wall.as_secs_f64(),
        results_during,
        finished_during
    );
    actions.print();
    println!(
        "console HTTP part: {:.1} s; worst p99 {:.1} ms (target 50 ms); largest screen {} B \
(target 150 kB)",
        http_wall.as_secs_f64(),
        actions.worst_p99().as_secs_f64() * 1e3,
        actions.bytes.values().max().copied().unwrap_or(0)
    );
    match browser_time {
        Some(d) => println!(
            "100 results typed in Chromium over WebDriver: {:.1} s (target 60 s)",
            d.as_secs_f64()
        ),
        None => println!("the browser part failed (see chromedriver.log in the work folder)"),
    }
    println!("server peak RSS {} MB", server.peak_rss_kb / 1024);
    stats.error_count() == 0
}
