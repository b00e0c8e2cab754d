//! `--hostile`: anonymous clients trying to exhaust the HTTP port of one `arbiter serve`, all
//! on loopback and bounded in number, while a probe measures `/healthz` and the server's
//! resident set:
//!
//! - `readers` clients ask for the crosstable page of a `players`-player event and never read
//!   it (each reconnects every 5 s), from 127.0.0.2 on, 30 per address;
//! - `slowloris` sockets send a request head one header line a second, never ending it;
//! - `webhooks` clients post 8 MB bodies to the platform webhook without a token, one a second;
//! - `tiebreak_loops` clients ask for the ranking with a fresh 30-item tie-break list each time.
//!
//! The probe asks `/healthz` from 127.0.0.1 every 20 ms on a new connection. Reported: the
//! probe's p50/p99/max idle and under attack, the resident set (VmRSS) idle and its maximum
//! under attack, and what the attackers got. Targets: p99 under 50 ms, RSS under 2x idle.

use super::load::*;
use arbiter_proto::common::v1::CommandHeader;
use arbiter_proto::events::v1 as pb;
use arbiter_proto::registration::v1 as reg;
use rand::{Rng, SeedableRng};
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

#[derive(Debug, Clone)]
pub struct HostileConfig {
    pub players: u32,
    pub readers: u32,
    pub slowloris: u32,
    pub webhooks: u32,
    pub tiebreak_loops: u32,
    pub seconds: u64,
}

const TID: &str = "hostile";

fn vm_rss_kb(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

async fn connect_from(from: [u8; 4], to: SocketAddr) -> std::io::Result<TcpStream> {
    let s = TcpSocket::new_v4()?;
    s.bind(SocketAddr::from((from, 0)))?;
    s.connect(to).await
}

/// One request on a new connection, read to the end: (status, bytes, time).
async fn fetch(to: SocketAddr, from: [u8; 4], path: &str) -> Option<(u16, usize, Duration)> {
    let t0 = Instant::now();
    let mut s = connect_from(from, to).await.ok()?;
    s.write_all(format!("GET {path} HTTP/1.1\r\nhost: b\r\nconnection: close\r\n\r\n").as_bytes())
        .await
        .ok()?;
    let mut out = Vec::new();
    s.read_to_end(&mut out).await.ok()?;
    let status = std::str::from_utf8(out.get(9..12)?).ok()?.parse().ok()?;
    Some((status, out.len(), t0.elapsed()))
}

fn pct(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

async fn create_event(url: &str, players: u32) {
    let c = Clients::new(url);
    let header = |id: &str| {
        Some(CommandHeader {
            tournament_id: TID.into(),
            command_id: id.into(),
            expected_version: None,
            actor: String::new(),
        })
    };
    let mut r = c.reg.clone();
    r.create_tournament(reg::CreateTournamentRequest {
        header: header("create"),
        tournament: Some(arbiter_proto::registration::v1::TournamentSettings {
            name: "Hostile Open".into(),
            place: "Loopback".into(),
            start_date: Some(pb::Date {
                year: 2026,
                month: 3,
                day: 1,
            }),
            end_date: Some(pb::Date {
                year: 2026,
                month: 3,
                day: 9,
            }),
            chief_arbiter: Some(pb::Arbiter {
                name: "Arbiter, Chief".into(),
                fide_id: None,
                title: "IA".into(),
            }),
            pairing_system: pb::PairingSystem::Dutch as i32,
            rounds: 9,
            ..Default::default()
        }),
    })
    .await
    .expect("create the event");
    let next = Arc::new(AtomicU64::new(1));
    let mut tasks = Vec::new();
    for _ in 0..8 {
        let (mut r, next) = (c.reg.clone(), next.clone());
        tasks.push(tokio::spawn(async move {
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i > u64::from(players) {
                    break;
                }
                r.register_player(reg::RegisterPlayerRequest {
                    header: header(&format!("reg-{i}")),
                    player: Some(arbiter_proto::registration::v1::PlayerDetails {
                        name: format!("Player, {i:05}"),
                        fide_id: Some(10_000_000 + i),
                        rating: 1400 + (i * 37 % 1300) as u32,
                        federation: "NOR".into(),
                        ..Default::default()
                    }),
                    ..Default::default()
                })
                .await
                .expect("register");
            }
        }));
    }
    for t in tasks {
        t.await.expect("registration task");
    }
}

/// Probes `/healthz` until `until`; returns the latencies in ms and the failures.
async fn probe(to: SocketAddr, until: Instant, pid: u32, rss: &mut Vec<u64>) -> (Vec<f64>, u64) {
    let mut lat = Vec::new();
    let mut failed = 0;
    while Instant::now() < until {
        match fetch(to, [127, 0, 0, 1], "/healthz").await {
            Some((200, _, d)) => lat.push(d.as_secs_f64() * 1000.0),
            _ => failed += 1,
        }
        rss.push(vm_rss_kb(pid));
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    lat.sort_by(f64::total_cmp);
    (lat, failed)
}

#[derive(Default)]
struct Tally {
    reader_requests: AtomicU64,
    slowloris_closed: AtomicU64,
    webhook_answers: AtomicU64,
    webhook_bytes_sent: AtomicU64,
    tiebreak_ok: AtomicU64,
    tiebreak_other: AtomicU64,
    refused_503: AtomicU64,
}

pub async fn run(bin: &Path, work: &Path, h: &HostileConfig) -> bool {
    let data = work.join("data");
    let mut server = ServerProc::start(bin, &data, &work.join("serve.log"));
    let pid = server.pid().expect("server pid");
    let to = SocketAddr::from(([127, 0, 0, 1], server.http_port));
    let t0 = Instant::now();
    create_event(&server.url, h.players).await;
    println!(
        "event of {} players registered in {:.1} s",
        h.players,
        t0.elapsed().as_secs_f64()
    );
    let page = format!("/t/{TID}/crosstable");
    let (status, size, took) = fetch(to, [127, 0, 0, 1], &page).await.expect("the page");
    println!(
        "{page}: {status}, {:.2} MB, first render {:.0} ms",
        size as f64 / 1e6,
        took.as_secs_f64() * 1000.0
    );

    let mut idle_rss = Vec::new();
    let (idle, idle_failed) = probe(
        to,
        Instant::now() + Duration::from_secs(5),
        pid,
        &mut idle_rss,
    )
    .await;
    let idle_kb = idle_rss.last().copied().unwrap_or(0);

    let tally = Arc::new(Tally::default());
    let mut attackers = Vec::new();
    for i in 0..h.readers {
        let (tally, page) = (tally.clone(), page.clone());
        let from = [127, 0, 0, 2 + (i / 30) as u8];
        attackers.push(tokio::spawn(async move {
            loop {
                if let Ok(mut s) = connect_from(from, to).await {
                    let req = format!("GET {page} HTTP/1.1\r\nhost: b\r\n\r\n");
                    if s.write_all(req.as_bytes()).await.is_ok() {
                        tally.reader_requests.fetch_add(1, Ordering::Relaxed);
                    }
                    // Never read; hold the socket a while, then come again.
                    tokio::time::sleep(Duration::from_secs(5)).await;
                }
            }
        }));
    }
    for i in 0..h.slowloris {
        let tally = tally.clone();
        let from = [127, 0, 1, 2 + (i / 30) as u8];
        attackers.push(tokio::spawn(async move {
            loop {
                let Ok(mut s) = connect_from(from, to).await else {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    continue;
                };
                let _ = s.write_all(b"GET / HTTP/1.1\r\nhost: b\r\n").await;
                let mut buf = [0u8; 512];
                loop {
                    tokio::select! {
                        r = s.read(&mut buf) => {
                            if matches!(r, Ok(0) | Err(_)) { break; }
                            if buf.starts_with(b"HTTP/1.1 503") {
                                tally.refused_503.fetch_add(1, Ordering::Relaxed);
                            }
                        }
                        _ = tokio::time::sleep(Duration::from_secs(1)) => {
                            if s.write_all(b"x-slow: 1\r\n").await.is_err() { break; }
                        }
                    }
                }
                tally.slowloris_closed.fetch_add(1, Ordering::Relaxed);
            }
        }));
    }
    for i in 0..h.webhooks {
        let tally = tally.clone();
        let from = [127, 0, 2, 2 + (i / 30) as u8];
        attackers.push(tokio::spawn(async move {
            let chunk = vec![b'1'; 64 * 1024];
            loop {
                let Ok(mut s) = connect_from(from, to).await else {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    continue;
                };
                let head = format!(
                    "POST /api/platform/v1/tournaments/{TID}/rounds/1/games HTTP/1.1\r\n\
                     host: b\r\ncontent-length: 8000000\r\n\r\n"
                );
                let _ = s.write_all(head.as_bytes()).await;
                let (mut rd, mut wr) = s.into_split();
                let send = async {
                    for _ in 0..(8_000_000 / chunk.len()) {
                        if wr.write_all(&chunk).await.is_err() {
                            break;
                        }
                        tally
                            .webhook_bytes_sent
                            .fetch_add(chunk.len() as u64, Ordering::Relaxed);
                    }
                };
                let mut answer = Vec::new();
                tokio::select! {
                    _ = send => {}
                    _ = rd.read_to_end(&mut answer) => {}
                }
                tally.webhook_answers.fetch_add(1, Ordering::Relaxed);
                // One post a second per client: a flood of requests is a plain CPU load,
                // not what the caps are for.
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }));
    }
    for i in 0..h.tiebreak_loops {
        let tally = tally.clone();
        let from = [127, 0, 3, 2 + i as u8];
        attackers.push(tokio::spawn(async move {
            let codes = [
                "BH", "BH/C1", "BH/M1", "SB", "SB/C1", "ARO", "DE", "WIN", "BPG", "PS",
            ];
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(u64::from(i));
            loop {
                let list: Vec<&str> = (0..30)
                    .map(|_| codes[rng.random_range(0..codes.len())])
                    .collect();
                let path = format!(
                    "/api/tournaments/{TID}/ranking?tiebreaks={}",
                    list.join(",")
                );
                match fetch(to, from, &path).await {
                    Some((200, _, _)) => tally.tiebreak_ok.fetch_add(1, Ordering::Relaxed),
                    _ => tally.tiebreak_other.fetch_add(1, Ordering::Relaxed),
                };
            }
        }));
    }
    let mut attack_rss = Vec::new();
    let (attacked, attacked_failed) = probe(
        to,
        Instant::now() + Duration::from_secs(h.seconds),
        pid,
        &mut attack_rss,
    )
    .await;
    for a in &attackers {
        a.abort();
    }
    let peak_kb = attack_rss.iter().copied().max().unwrap_or(0);
    let row = |name: &str, l: &[f64], failed: u64| {
        println!(
            "/healthz {name}: {} probes, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms, failed {failed}",
            l.len(),
            pct(l, 0.5),
            pct(l, 0.99),
            l.last().copied().unwrap_or(f64::NAN)
        )
    };
    row("idle", &idle, idle_failed);
    row("under attack", &attacked, attacked_failed);
    let ratio = peak_kb as f64 / idle_kb.max(1) as f64;
    println!(
        "RSS idle {:.0} MB, under attack at most {:.0} MB ({ratio:.2}x)",
        idle_kb as f64 / 1024.0,
        peak_kb as f64 / 1024.0
    );
    let g = |a: &AtomicU64| a.load(Ordering::Relaxed);
    println!(
        "attackers: {} page requests never read, {} slowloris sockets closed by the server, \
         {} webhook posts answered ({:.0} MB of body written to the socket before the answer), tie-break queries {} answered 200 \
         and {} otherwise, {} connections refused 503",
        g(&tally.reader_requests),
        g(&tally.slowloris_closed),
        g(&tally.webhook_answers),
        g(&tally.webhook_bytes_sent) as f64 / 1e6,
        g(&tally.tiebreak_ok),
        g(&tally.tiebreak_other),
        g(&tally.refused_503),
    );
    let p99 = pct(&attacked, 0.99);
    let ok = p99 < 50.0 && ratio < 2.0 && attacked_failed == 0;
    println!(
        "targets (p99 < 50 ms, RSS < 2x idle, no probe failed): {}",
        if ok { "met" } else { "NOT met" }
    );
    server.terminate(Duration::from_secs(10));
    ok
}
