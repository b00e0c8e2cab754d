//! Headless Chromium over WebDriver (chromedriver) for the browser tests and the console
//! bench: the tools found, a driver process, a browser session, scripts, text and screenshots.

use fantoccini::{Client, ClientBuilder};
use serde_json::{Value, json};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// `name` from the environment variable `var`, else /usr/bin, else the PATH; a clear failure
/// when it is nowhere.
pub fn tool(var: &str, name: &str) -> PathBuf {
    if let Some(p) = std::env::var_os(var) {
        let p = PathBuf::from(p);
        assert!(p.is_file(), "{var}={} is not a file", p.display());
        return p;
    }
    let mut places = vec![PathBuf::from("/usr/bin").join(name)];
    if let Some(path) = std::env::var_os("PATH") {
        places.extend(std::env::split_paths(&path).map(|d| d.join(name)));
    }
    places.into_iter().find(|p| p.is_file()).unwrap_or_else(|| {
        panic!(
            "{name} is missing: this test drives headless Chromium through chromedriver. Install \
             them (Debian: apt-get install -y chromium chromium-driver) or set {var} to its path."
        )
    })
}

/// A port outside the ephemeral range, so parallel tests' connections cannot take it first.
fn free_port() -> u16 {
    arbiter_eventlog::testing::free_port().expect("a free port")
}

/// A chromedriver process in a process group of its own, which holds the browsers it starts:
/// the whole group is killed on drop, so no browser outlives its test, even one whose session
/// was never closed because the test failed first.
pub struct Driver {
    child: Child,
    url: String,
}

impl Driver {
    pub fn start(bin: &Path, log: &Path) -> Driver {
        let port = free_port();
        let log = std::fs::File::create(log).expect("chromedriver log");
        let child = Command::new(bin)
            .process_group(0)
            .arg(format!("--port={port}"))
            .stdout(Stdio::from(log.try_clone().expect("log")))
            .stderr(Stdio::from(log))
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", bin.display()));
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "chromedriver did not listen on port {port} within 20 s"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        Driver {
            child,
            url: format!("http://127.0.0.1:{port}"),
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        if let Ok(group) = libc::pid_t::try_from(self.child.id()) {
            // SAFETY: a plain signal to the group this driver leads; no memory is shared.
            unsafe { libc::kill(-group, libc::SIGKILL) };
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub async fn browser(driver: &Driver, chromium: &Path, profile: &Path) -> Client {
    let mut caps = serde_json::Map::new();
    caps.insert("browserName".into(), json!("chrome"));
    caps.insert(
        "goog:chromeOptions".into(),
        json!({
            "binary": chromium.to_str().expect("path"),
            "args": [
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                format!("--user-data-dir={}", profile.display()),
                "--window-size=1280,900",
            ],
        }),
    );
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    tokio::time::timeout(
        Duration::from_secs(60),
        ClientBuilder::new(connector)
            .capabilities(caps)
            .connect(&driver.url),
    )
    .await
    .expect("a browser session within 60 s")
    .expect("a browser session")
}

/// Runs `script` in the page and returns its value.
pub async fn js(b: &Client, script: &str) -> Value {
    b.execute(script, Vec::new())
        .await
        .unwrap_or_else(|e| panic!("script {script:?}: {e}"))
}

/// The text of the first element matching `css`, or "" when there is none.
pub async fn text(b: &Client, css: &str) -> String {
    let script = format!(
        "var e = document.querySelector({}); return e ? e.textContent.trim() : '';",
        json!(css)
    );
    js(b, &script)
        .await
        .as_str()
        .unwrap_or_default()
        .to_string()
}

pub async fn screenshot(b: &Client, dir: &Path, name: &str) -> PathBuf {
    let png = b.screenshot().await.expect("screenshot");
    assert!(png.starts_with(b"\x89PNG"), "{name}: not a PNG");
    let path = dir.join(name);
    std::fs::write(&path, &png).expect("write screenshot");
    println!("screenshot: {}", path.display());
    path
}
