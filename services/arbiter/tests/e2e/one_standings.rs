//! One truth for the standings: several events played to the end through gRPC against
//! `arbiter serve` (the real binary, embedded, sled data folder), with a late entry, requested
//! byes, the pairing-allocated bye, forfeits, a withdrawal and a result correction. For every
//! finished event the standings (order, places, points, tie-break values) must be identical
//! across gRPC `GetStandings`, `arbiter client standings`, the JSON API, the HTML standings
//! page, the exported TRF (001 rank and points) and the offline `arbiter standings` on that
//! export. The points are also recomputed here from the published pairings and results.

use crate::support::*;
use arbiter_core::tournament::BoardResult;
use arbiter_proto::common::v1::TrfFormat;
use arbiter_proto::events::v1 as pb;
use arbiter_proto::registration::v1 as reg;
use arbiter_proto::reporting::v1 as rep;
use arbiter_proto::round_director::v1 as rd;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde_json::Value;
use std::collections::BTreeMap;
use std::time::Duration;

/// One event of the test.
struct Event {
    tid: &'static str,
    players: u32,
    rounds: u32,
    seed: u64,
    /// Empty: the recommended list applies.
    tie_breaks: &'static [&'static str],
    start: (i32, u32, u32),
    /// Registered without a rating (1-based registration order).
    unrated: &'static [u32],
    /// (player, round): a half-point bye asked before round 1.
    early_bye: (u32, u32),
    /// After closing this round, a late entry joins from the next one with half-point byes for
    /// the rounds missed.
    late_after: u32,
    /// After closing this round, the black player of the last board withdraws (its white player
    /// when that is the late entrant).
    withdraw_after: u32,
    /// After closing this round, board 1 of this round is corrected.
    correct_after: u32,
}

const EVENTS: &[Event] = &[
    Event {
        tid: "one-truth-a",
        players: 11,
        rounds: 5,
        seed: 7,
        tie_breaks: &["BH/C1", "BH", "SB", "DE", "WIN"],
        start: (2025, 9, 1),
        unrated: &[],
        early_bye: (4, 2),
        late_after: 1,
        withdraw_after: 3,
        correct_after: 2,
    },
    Event {
        tid: "one-truth-b",
        players: 9,
        rounds: 4,
        seed: 11,
        tie_breaks: &[],
        start: (2026, 4, 2),
        unrated: &[8, 9],
        early_bye: (2, 3),
        late_after: 2,
        withdraw_after: 1,
        correct_after: 3,
    },
    Event {
        tid: "one-truth-c",
        players: 8,
        rounds: 4,
        seed: 23,
        tie_breaks: &["PS", "BH/M1", "ARO", "BPG"],
        start: (2026, 3, 10),
        unrated: &[7],
        early_bye: (5, 1),
        late_after: 1,
        withdraw_after: 2,
        correct_after: 4,
    },
    // A short list: players equal on points and on DE share their place.
    Event {
        tid: "one-truth-d",
        players: 7,
        rounds: 3,
        seed: 5,
        tie_breaks: &["DE"],
        start: (2026, 5, 4),
        unrated: &[],
        early_bye: (3, 2),
        late_after: 1,
        withdraw_after: 2,
        correct_after: 1,
    },
];

/// A line of the standings, as every interface must give it. Tie-break values are canonical
/// decimal text ("12.5", "3"; "" when undefined).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Line {
    rank: u32,
    rank_to: u32,
    no: u32,
    points: i32,
    values: Vec<String>,
}

/// "12.50" -> "12.5", "3.0" -> "3", "-0.0" -> "0".
fn canonical(s: &str) -> String {
    let s = s.trim();
    if s.is_empty() {
        return String::new();
    }
    let mut t = s.to_string();
    if t.contains('.') {
        while t.ends_with('0') {
            t.pop();
        }
        if t.ends_with('.') {
            t.pop();
        }
    }
    if t == "-0" { "0".to_string() } else { t }
}

/// "6.5" or "6" as tenths.
fn tenths(s: &str) -> i32 {
    let s = s.trim();
    let (i, f) = s.split_once('.').unwrap_or((s, "0"));
    let f = f.chars().next().unwrap_or('0');
    i.parse::<i32>().unwrap_or_else(|_| panic!("points {s:?}")) * 10
        + f.to_digit(10).unwrap_or_else(|| panic!("points {s:?}")) as i32
}

fn place(s: &str) -> (u32, u32) {
    let s = s.trim();
    let (a, b) = s.split_once('-').unwrap_or((s, s));
    (
        a.parse().unwrap_or_else(|_| panic!("place {s:?}")),
        b.parse().unwrap_or_else(|_| panic!("place {s:?}")),
    )
}

fn decimal(d: Option<&arbiter_proto::common::v1::Decimal>) -> String {
    let Some(d) = d else {
        return String::new();
    };
    let p = 10i64.pow(d.scale);
    let sign = if d.units < 0 { "-" } else { "" };
    let a = d.units.abs();
    canonical(&format!(
        "{sign}{}.{:0w$}",
        a / p,
        a % p,
        w = d.scale as usize
    ))
}

async fn create(c: &mut Clients, e: &Event) {
    c.reg
        .create_tournament(reg::CreateTournamentRequest {
            header: header(e.tid, "create"),
            tournament: Some(arbiter_proto::registration::v1::TournamentSettings {
                name: format!("One truth {}", e.tid),
                place: "Loopback".into(),
                federation: "NOR".into(),
                start_date: Some(pb::Date {
                    year: e.start.0,
                    month: e.start.1,
                    day: e.start.2,
                }),
                end_date: Some(pb::Date {
                    year: e.start.0,
                    month: e.start.1,
                    day: e.start.2 + 4,
                }),
                chief_arbiter: Some(pb::Arbiter {
                    name: "Arbiter, Chief".into(),
                    fide_id: None,
                    title: "IA".into(),
                }),
                pairing_system: pb::PairingSystem::Dutch as i32,
                rounds: e.rounds,
                initial_color: pb::Color::White as i32,
                rating_kind: pb::RatingKind::Standard as i32,
                tie_breaks: e.tie_breaks.iter().map(|s| s.to_string()).collect(),
                fide_rated: true,
                ..Default::default()
            }),
        })
        .await
        .unwrap_or_else(|s| panic!("{}: create: {s:?}", e.tid));
}

fn player(i: u32, rating: u32) -> arbiter_proto::registration::v1::PlayerDetails {
    arbiter_proto::registration::v1::PlayerDetails {
        name: format!("Player, {i:02}"),
        fide_id: Some(2_000_000 + i as u64),
        rating,
        federation: "NOR".into(),
        ..Default::default()
    }
}

/// A seeded result: some forfeits, some draws, otherwise by rating.
fn random_result(rng: &mut ChaCha8Rng) -> BoardResult {
    match rng.random_range(0..100) {
        0..8 => BoardResult::WhiteWinsForfeit,
        8..14 => BoardResult::BlackWinsForfeit,
        14..44 => BoardResult::Draw,
        44..74 => BoardResult::WhiteWins,
        _ => BoardResult::BlackWins,
    }
}

/// Plays event `e` to the end; returns (forfeits, pairing-allocated byes) played.
async fn play(c: &mut Clients, e: &Event) -> (u32, u32) {
    let mut rng = ChaCha8Rng::seed_from_u64(e.seed);
    create(c, e).await;
    for i in 1..=e.players {
        let rating = if e.unrated.contains(&i) {
            0
        } else {
            rng.random_range(1500..2500)
        };
        c.reg
            .register_player(reg::RegisterPlayerRequest {
                header: header(e.tid, &format!("register-{i}")),
                confirm_same_name: false,
                player: Some(player(i, rating)),
            })
            .await
            .unwrap_or_else(|s| panic!("{}: register {i}: {s:?}", e.tid));
    }
    c.reg
        .request_bye(reg::RequestByeRequest {
            header: header(e.tid, "early-bye"),
            pairing_number: e.early_bye.0,
            round: e.early_bye.1,
            kind: pb::ByeKind::HalfPoint as i32,
            ..Default::default()
        })
        .await
        .unwrap_or_else(|s| panic!("{}: bye: {s:?}", e.tid));
    let mut d = crate::support::Driver::new(
        c.clone(),
        e.tid,
        Plan::swiss_40x9(),
        std::path::Path::new("."),
    );
    let (mut forfeits, mut pabs) = (0, 0);
    for round in 1..=e.rounds {
        d.start_round(round).await;
        let proposal = d.wait_proposal(round, Duration::from_secs(60)).await;
        d.publish(round).await;
        let (boards, bye) = pairing_of(&proposal);
        pabs += bye.is_some() as u32;
        for (i, _) in boards.iter().enumerate() {
            let result = random_result(&mut rng);
            forfeits += matches!(
                result,
                BoardResult::WhiteWinsForfeit | BoardResult::BlackWinsForfeit
            ) as u32;
            let (res, wc, bc) = wire(result);
            c.rd.record_result(rd::RecordResultRequest {
                header: header(e.tid, &format!("result-{round}-{}", i + 1)),
                round,
                board: i as u32 + 1,
                result: res,
                white_code: wc,
                black_code: bc,
            })
            .await
            .unwrap_or_else(|s| panic!("{}: round {round} board {}: {s:?}", e.tid, i + 1));
        }
        d.close(round).await;
        if round == e.late_after {
            c.reg
                .enter_late(reg::EnterLateRequest {
                    header: header(e.tid, "late-entry"),
                    confirm_same_name: false,
                    player: Some(player(e.players + 1, 2210)),
                    first_round: round + 1,
                    missed_rounds: pb::ByeKind::HalfPoint as i32,
                })
                .await
                .unwrap_or_else(|s| panic!("{}: late entry: {s:?}", e.tid));
        }
        if round == e.withdraw_after {
            let (w, b) = *boards.last().expect("a board");
            let late = format!("Player, {:02}", e.players + 1);
            let listed = c
                .reg
                .list_players(reg::ListPlayersRequest {
                    tournament: tref(e.tid),
                })
                .await
                .expect("players")
                .into_inner();
            let is_late = listed.players.iter().any(|p| {
                p.pairing_number == b && p.player.as_ref().is_some_and(|x| x.name == late)
            });
            let who = if is_late { w } else { b };
            c.reg
                .withdraw_player(reg::WithdrawPlayerRequest {
                    header: header(e.tid, "withdraw"),
                    pairing_number: who,
                    from_round: 0,
                    reason: "withdrew".into(),
                    numbering_version: Some(listed.numbering_version),
                    ..Default::default()
                })
                .await
                .unwrap_or_else(|s| panic!("{}: withdraw {who}: {s:?}", e.tid));
        }
        if round == e.correct_after {
            // Board 1 of this round: a draw becomes a white win, anything else a draw.
            let p = c
                .rep
                .get_pairings(rep::GetPairingsRequest {
                    tournament: tref(e.tid),
                    round,
                })
                .await
                .expect("pairings")
                .into_inner();
            let was = p.boards[0].result;
            let to = if was == pb::BoardResult::Draw as i32 {
                BoardResult::WhiteWins
            } else {
                BoardResult::Draw
            };
            let (res, wc, bc) = wire(to);
            c.rd.correct_result(rd::CorrectResultRequest {
                header: header(e.tid, "correction"),
                round,
                board: 1,
                corrected: res,
                white_code: wc,
                black_code: bc,
                reason: "scoresheet".into(),
            })
            .await
            .unwrap_or_else(|s| panic!("{}: correction: {s:?}", e.tid));
        }
    }
    c.rd.finish_tournament(rd::FinishTournamentRequest {
        header: header(e.tid, "finish"),
    })
    .await
    .unwrap_or_else(|s| panic!("{}: finish: {s:?}", e.tid));
    (forfeits, pabs)
}

fn points_of(code: i32) -> i32 {
    match pb::ResultCode::try_from(code) {
        Ok(
            pb::ResultCode::Win
            | pb::ResultCode::ForfeitWin
            | pb::ResultCode::PairingBye
            | pb::ResultCode::FullBye
            | pb::ResultCode::WinUnrated,
        ) => 10,
        Ok(pb::ResultCode::Draw | pb::ResultCode::HalfBye | pb::ResultCode::DrawUnrated) => 5,
        _ => 0,
    }
}

/// Every interface's standings of a finished event, compared.
/// Compares; returns how many players share a place.
async fn compare(c: &mut Clients, server: &Server, work: &std::path::Path, e: &Event) -> usize {
    let tid = e.tid;
    // gRPC.
    let g = c
        .rep
        .get_standings(rep::GetStandingsRequest {
            tournament: tref(tid),
            after_round: 0,
        })
        .await
        .expect("GetStandings")
        .into_inner();
    assert_eq!(g.after_round, e.rounds, "{tid}: every round counts");
    let players = e.players + 1;
    assert_eq!(g.rows.len() as u32, players, "{tid}: every player ranked");
    let list = g.tie_break_list.clone();
    if e.tie_breaks.is_empty() {
        assert_eq!(
            g.tie_break_source,
            rep::TieBreakSource::Recommended as i32,
            "{tid}"
        );
        assert!(!list.is_empty(), "{tid}: the recommended list is used");
    } else {
        assert_eq!(list, e.tie_breaks, "{tid}: the tournament's own list");
        assert_eq!(g.tie_break_source, rep::TieBreakSource::Tournament as i32);
    }
    let expected_rules = if e.start >= (2026, 3, 1) {
        "c07-2026-03"
    } else {
        "c07-2024-08"
    };
    assert_eq!(
        g.rule_version, expected_rules,
        "{tid}: rules of the start date"
    );
    let grpc: Vec<Line> = g
        .rows
        .iter()
        .map(|r| {
            assert_eq!(
                r.tie_breaks
                    .iter()
                    .map(|t| t.code.clone())
                    .collect::<Vec<_>>(),
                list,
                "{tid}: one value per tie-break"
            );
            let (a, b) = place(&r.place);
            assert_eq!((a, b), (r.rank, r.rank_to), "{tid}: place label");
            Line {
                rank: r.rank,
                rank_to: r.rank_to,
                no: r.pairing_number,
                points: arbiter_proto::tenths(r.score.as_ref()),
                values: r
                    .tie_breaks
                    .iter()
                    .map(|t| decimal(t.value.as_ref()))
                    .collect(),
            }
        })
        .collect();
    // The order is one of points first, and places follow the lines.
    for (i, w) in grpc.windows(2).enumerate() {
        assert!(
            w[0].points >= w[1].points,
            "{tid}: line {} before {}",
            i + 1,
            i + 2
        );
    }
    let mut next = 1;
    for l in &grpc {
        assert!(
            l.rank <= next && l.rank_to >= next,
            "{tid}: place of line {next}: {l:?}"
        );
        next += 1;
    }

    // Points recomputed from the published pairings, results and byes of every round.
    let names: BTreeMap<u32, String> = c
        .reg
        .list_players(reg::ListPlayersRequest {
            tournament: tref(tid),
        })
        .await
        .expect("players")
        .into_inner()
        .players
        .into_iter()
        .filter_map(|r| Some((r.pairing_number, r.player?.name)))
        .collect();
    let mut expected: BTreeMap<u32, i32> = names.keys().map(|&k| (k, 0)).collect();
    for round in 1..=e.rounds {
        let p = c
            .rep
            .get_pairings(rep::GetPairingsRequest {
                tournament: tref(tid),
                round,
            })
            .await
            .expect("pairings")
            .into_inner();
        for b in &p.boards {
            let board = b.board.as_ref().expect("board");
            *expected.get_mut(&board.white).expect("white") += points_of(b.white_code);
            *expected.get_mut(&board.black).expect("black") += points_of(b.black_code);
        }
        for u in &p.unpaired {
            *expected.get_mut(&u.player_id).expect("unpaired") += points_of(u.code);
        }
    }
    let late = names
        .iter()
        .find(|(_, n)| **n == format!("Player, {:02}", e.players + 1))
        .map(|(k, _)| *k)
        .expect("the late entrant");
    // The rounds the late entrant missed (published before the entry): half-point byes.
    *expected.get_mut(&late).unwrap() += 5 * e.late_after as i32;
    let served: BTreeMap<u32, i32> = grpc.iter().map(|l| (l.no, l.points)).collect();
    assert_eq!(served, expected, "{tid}: points from the published results");

    // arbiter client standings (fixed columns: place, no, name, rating, points, tie-breaks).
    let out = run(&["client", "--server", &server.grpc, "standings", tid]);
    assert_eq!(out.code, 0, "{tid}: client standings: {}", out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert!(lines[0].starts_with(&format!("Standings after round {}", e.rounds)));
    assert!(
        out.stdout.contains(&format!("rules {expected_rules}")),
        "{tid}: {}",
        out.stdout
    );
    let widths: Vec<usize> = list.iter().map(|c| c.len().max(7)).collect();
    let cli: Vec<Line> = lines[2..2 + players as usize]
        .iter()
        .map(|l| {
            let col = |a: usize, b: usize| l.get(a..b.min(l.len())).unwrap_or("").trim();
            let (rank, rank_to) = place(col(0, 5));
            let mut at = 58;
            let values = widths
                .iter()
                .map(|w| {
                    let v = canonical(col(at + 1, at + 1 + w));
                    at += 1 + w;
                    v
                })
                .collect();
            Line {
                rank,
                rank_to,
                no: col(6, 10).parse().expect("no"),
                points: tenths(col(52, 58)),
                values,
            }
        })
        .collect();
    assert_eq!(cli, grpc, "{tid}: arbiter client standings vs GetStandings");

    // JSON.
    let http = server.http.clone().expect("http");
    let (status, body) = http_get(&http, &format!("/api/tournaments/{tid}/standings"));
    assert_eq!(status, 200, "{body}");
    let j: Value = serde_json::from_str(&body).expect("json");
    assert_eq!(j["after_round"], e.rounds);
    assert_eq!(j["rule_version"], expected_rules);
    let json: Vec<Line> = j["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| Line {
            rank: r["rank"].as_u64().unwrap() as u32,
            rank_to: r["rank_to"].as_u64().unwrap() as u32,
            no: r["player_id"].as_u64().unwrap() as u32,
            points: r["points"].as_i64().unwrap() as i32,
            values: r["tie_breaks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| canonical(v["text"].as_str().unwrap()))
                .collect(),
        })
        .collect();
    assert_eq!(json, grpc, "{tid}: JSON vs GetStandings");
    // The stable id beside the pairing number: the same in gRPC, JSON and the crosstable, and
    // the one ListPlayers gives.
    let grpc_entries: Vec<(u32, u32)> =
        g.rows.iter().map(|r| (r.pairing_number, r.entry)).collect();
    let json_entries: Vec<(u32, u32)> = j["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            (
                r["player_id"].as_u64().unwrap() as u32,
                r["entry"].as_u64().unwrap() as u32,
            )
        })
        .collect();
    assert_eq!(json_entries, grpc_entries, "{tid}: entry numbers");
    assert!(
        grpc_entries.iter().all(|&(_, e)| e > 0),
        "{tid}: every row has its entry"
    );
    let listed = c
        .reg
        .list_players(reg::ListPlayersRequest {
            tournament: tref(tid),
        })
        .await
        .expect("ListPlayers")
        .into_inner();
    for (pn, entry) in &grpc_entries {
        let p = listed
            .players
            .iter()
            .find(|p| p.pairing_number == *pn)
            .expect("listed");
        assert_eq!(p.entry, *entry, "{tid}: player {pn}'s entry");
    }

    // HTML: the rows of the standings table.
    let (status, html) = http_get(&http, &format!("/t/{tid}/standings"));
    assert_eq!(status, 200);
    assert!(
        html.contains("Final standings"),
        "{tid}: final standings page"
    );
    let page: Vec<Line> = table_rows(&html, "standings")
        .into_iter()
        .map(|cells| {
            let (rank, rank_to) = place(&cells[0]);
            Line {
                rank,
                rank_to,
                no: cells[1].parse().expect("no"),
                points: tenths(&cells[5]),
                values: cells[6..].iter().map(|v| canonical(v)).collect(),
            }
        })
        .collect();
    assert_eq!(page, grpc, "{tid}: HTML page vs GetStandings");

    // The crosstables (gRPC, JSON, HTML): rows in the order of the standings, with their
    // places and points.
    let x = c
        .rep
        .get_crosstable(rep::GetCrosstableRequest {
            tournament: tref(tid),
        })
        .await
        .expect("GetCrosstable")
        .into_inner();
    assert_eq!(
        x.rows
            .iter()
            .map(|r| (
                r.pairing_number,
                place(&r.place),
                r.rank,
                r.rank_to,
                arbiter_proto::tenths(r.score.as_ref())
            ))
            .collect::<Vec<_>>(),
        grpc.iter()
            .map(|l| (l.no, (l.rank, l.rank_to), l.rank, l.rank_to, l.points))
            .collect::<Vec<_>>(),
        "{tid}: GetCrosstable vs GetStandings"
    );
    let (status, body) = http_get(&http, &format!("/api/tournaments/{tid}/crosstable"));
    assert_eq!(status, 200, "{body}");
    let xj: Value = serde_json::from_str(&body).expect("crosstable json");
    let xj: Vec<(u32, (u32, u32), i32)> = xj["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            (
                r["player"]["no"].as_u64().unwrap() as u32,
                place(r["place"].as_str().unwrap()),
                tenths(r["points"].as_str().unwrap()),
            )
        })
        .collect();
    assert_eq!(
        xj,
        grpc.iter()
            .map(|l| (l.no, (l.rank, l.rank_to), l.points))
            .collect::<Vec<_>>(),
        "{tid}: JSON crosstable vs GetStandings"
    );
    let (status, html) = http_get(&http, &format!("/t/{tid}/crosstable"));
    assert_eq!(status, 200);
    let xh: Vec<(u32, i32)> = table_rows(&html, "crosstable")
        .into_iter()
        .enumerate()
        .map(|(i, cells)| {
            assert_eq!(cells[0], (i + 1).to_string(), "{tid}: rank line");
            (cells[1].parse().expect("no"), tenths(cells.last().unwrap()))
        })
        .collect();
    assert_eq!(
        xh,
        grpc.iter().map(|l| (l.no, l.points)).collect::<Vec<_>>(),
        "{tid}: HTML crosstable vs GetStandings"
    );

    // The TRF export: 001 rank (first place of a shared range) and points.
    let export = c
        .rep
        .export_trf(rep::ExportTrfRequest {
            tournament: tref(tid),
            format: TrfFormat::Trf16 as i32,
        })
        .await
        .expect("export")
        .into_inner();
    let text = String::from_utf8(export.trf).expect("utf-8");
    let file = arbiter_trf::parse(&text).expect("the export parses").file;
    for l in &grpc {
        let p = file
            .player(l.no)
            .unwrap_or_else(|| panic!("{tid}: 001 of {}", l.no));
        assert_eq!(
            (p.rank, p.points.tenths()),
            (Some(l.rank), l.points),
            "{tid}: 001 record of {}",
            l.no
        );
    }

    // The offline standings of the export, with the list the service used.
    let path = work.join(format!("{tid}.trf"));
    std::fs::write(&path, &text).expect("write export");
    // The export does not carry the tournament's own list, so it is given; without a list of
    // its own, the file gets the same recommended list as the service.
    let joined = list.join(",");
    let mut args = vec!["standings", path.to_str().unwrap()];
    if !e.tie_breaks.is_empty() {
        args.extend(["--tiebreaks", joined.as_str()]);
    }
    args.extend(["--format", "json"]);
    let out = run(&args);
    assert_eq!(out.code, 0, "{tid}: arbiter standings: {}", out.stderr);
    let o: Value = serde_json::from_str(&out.stdout).expect("standings json");
    assert_eq!(o["rules"], expected_rules, "{tid}: offline rules");
    assert_eq!(
        o["tiebreaks"],
        serde_json::json!(list),
        "{tid}: offline list"
    );
    let offline: Vec<Line> = o["standings"]
        .as_array()
        .expect("standings")
        .iter()
        .map(|r| Line {
            rank: r["rank"].as_u64().unwrap() as u32,
            rank_to: r["rank_to"].as_u64().unwrap() as u32,
            no: r["no"].as_u64().unwrap() as u32,
            points: tenths(&r["points"].to_string()),
            values: list
                .iter()
                .map(|code| match &r["values"][code] {
                    Value::Null => String::new(),
                    v => canonical(&v.to_string()),
                })
                .collect(),
        })
        .collect();
    assert_eq!(
        offline, grpc,
        "{tid}: arbiter standings on the export vs GetStandings"
    );
    grpc.iter().filter(|l| l.rank_to > l.rank).count()
}

/// The cells (text, tags removed) of each body row of `<table class="{class}">`.
fn table_rows(html: &str, class: &str) -> Vec<Vec<String>> {
    let start = html
        .find(&format!("<table class=\"{class}\">"))
        .unwrap_or_else(|| panic!("no table.{class}"));
    let body = &html[start..];
    let body = &body[body.find("<tbody>").expect("tbody")..body.find("</tbody>").expect("/tbody")];
    body.split("<tr")
        .skip(1)
        .map(|tr| {
            tr.split("<td")
                .skip(1)
                .map(|td| {
                    let inner = &td[td.find('>').unwrap() + 1..td.find("</td>").unwrap()];
                    let mut text = String::new();
                    let mut in_tag = false;
                    for ch in inner.chars() {
                        match ch {
                            '<' => in_tag = true,
                            '>' => in_tag = false,
                            c if !in_tag => text.push(c),
                            _ => {}
                        }
                    }
                    text.replace("&amp;", "&").trim().to_string()
                })
                .collect()
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn standings_are_the_same_on_every_interface() {
    let work = TempDir::new("arbiter-one-standings").unwrap();
    let data = work.path().join("data");
    let server = Server::start(
        &["--data", data.to_str().unwrap()],
        &work.path().join("serve.log"),
    );
    let mut c = Clients::new(&Endpoints::one(&server.grpc));
    let (mut forfeits, mut pabs, mut shared) = (0, 0, 0);
    for e in EVENTS {
        let (f, p) = play(&mut c, e).await;
        forfeits += f;
        pabs += p;
        shared += compare(&mut c, &server, work.path(), e).await;
    }
    assert!(shared > 0, "some players share a place");
    assert!(forfeits > 0, "the seeds play forfeits");
    assert!(pabs > 0, "the seeds give a pairing-allocated bye");
}
