//! Team events, knockouts and round robins run from the console in a real browser against
//! `arbiter serve`:
//! - a team round robin of four teams of two boards created in the form (one team lists a
//!   reserve), its lists recorded on the teams screen (a player on two lists refused), round 1
//!   paired, a line-up out of the list's order refused with the Manual's rule and one with the
//!   reserve given, then published: the reserve plays the board the line-up gave him;
//! - a knockout of four created in the form (without the seed its lots are drawn from refused,
//!   naming the field), round 1 published and a result recorded: the bracket on the schedule
//!   screen is the round director's (`GetSchedule`);
//! - a round robin of four whose lots the service draws from a published seed: the schedule
//!   screen names the seed and shows the Berger table `GetSchedule` gives.
//!
//! Every event the console caused names the signed-in arbiter.

use crate::console::{CHIEF, fill, flash, shots, signed_in, submit, wait_for};
use crate::support::browser::{js, text};
use crate::support::*;
use arbiter_proto::events::v1 as pb;
use arbiter_proto::reporting::v1 as rep;
use arbiter_proto::round_director::v1 as rd;
use fantoccini::Client;
use serde_json::json;
use std::time::{Duration, Instant};

const TEAMS: &str = "club-league";
const KO: &str = "cup";
const RR: &str = "closed";

/// Fills the new-tournament form: the fields given by id (inputs and selects alike), then
/// creates (the form's screenshots first when `shot` names them); the flash shown.
async fn create(b: &Client, base: &str, fields: &[(&str, &str)], shot: Option<&str>) -> String {
    b.goto(&format!("{base}/console/new")).await.unwrap();
    wait_for(b, "h1", "New tournament").await;
    for (id, value) in fields {
        b.execute(
            "document.getElementById(arguments[0]).value = arguments[1]; return null;",
            vec![json!(id), json!(value)],
        )
        .await
        .unwrap_or_else(|e| panic!("#{id}: {e}"));
    }
    if let Some(name) = shot {
        shots(b, &shots_dir(), name).await;
    }
    submit(b, "create").await;
    flash(b).await
}

/// Registers `rows` (a spreadsheet's lines) on the players screen.
async fn paste(b: &Client, base: &str, tid: &str, rows: &str) {
    b.goto(&format!("{base}/console/t/{tid}/players"))
        .await
        .unwrap();
    wait_for(b, "h1", "Players").await;
    b.execute(
        "document.getElementById('paste').value = arguments[0]; return null;",
        vec![json!(rows)],
    )
    .await
    .unwrap();
    submit(b, "paste-players").await;
    assert_eq!(flash(b).await, "", "{tid}: paste");
}

/// Pairs the next round from the round screen and waits for the proposal.
async fn pair(b: &Client, base: &str, tid: &str) {
    b.goto(&format!("{base}/console/t/{tid}/round"))
        .await
        .unwrap();
    submit(b, "start-round").await;
    let deadline = Instant::now() + Duration::from_secs(30);
    while js(b, "return !!document.getElementById('publish');").await != json!(true) {
        assert!(Instant::now() < deadline, "{tid}: no proposal");
        tokio::time::sleep(Duration::from_millis(100)).await;
        b.refresh().await.unwrap();
    }
}

async fn record_team(b: &Client, name: &str, members: &str) -> String {
    fill(b, "team-name", name).await;
    fill(b, "team-members", members).await;
    submit(b, "record-team").await;
    flash(b).await
}

fn shots_dir() -> std::path::PathBuf {
    let d = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("console");
    std::fs::create_dir_all(&d).unwrap();
    d
}

async fn schedule(c: &mut Clients, tid: &str) -> rd::Schedule {
    c.rd.get_schedule(rd::GetTournamentRequest {
        tournament: tref(tid),
    })
    .await
    .unwrap_or_else(|e| panic!("{tid}: schedule: {e:?}"))
    .into_inner()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn team_events_knockouts_and_lots_from_the_console() {
    let console = signed_in("arbiter-console-events").await;
    let (b, base, mut c) = (&console.b, console.base.clone(), console.c.clone());

    // --- A team round robin: four teams of two boards, team 1 with a reserve. ---
    let said = create(
        &b,
        &base,
        &[
            ("name", "Club League"),
            ("id", TEAMS),
            ("system", "round-robin"),
            ("rounds", "3"),
            ("team_boards", "2"),
            ("team_reserves", "1"),
            ("team_match_points", "2,1,0"),
        ],
        Some("new-team-event"),
    )
    .await;
    assert_eq!(said, "", "team event created");
    let rows: Vec<String> = (1..=9)
        .map(|i| format!("Member, {i:02}\t{}\t\tESP", 2300 - 10 * i))
        .collect();
    paste(&b, &base, TEAMS, &rows.join("\n")).await;
    b.goto(&format!("{base}/console/t/{TEAMS}/teams"))
        .await
        .unwrap();
    wait_for(&b, "h1", "Teams").await;
    assert!(
        text(&b, "#team-rules")
            .await
            .starts_with("2 boards a match"),
        "{}",
        text(&b, "#team-rules").await
    );
    assert_eq!(record_team(&b, "Club 1", "1 2 3").await, "");
    // A player already on a list: the service's words, nothing recorded.
    let said = record_team(&b, "Club 2", "3 4").await;
    assert!(said.contains('3'), "{said:?}");
    assert_eq!(record_team(&b, "Club 2", "4 5").await, "");
    assert_eq!(record_team(&b, "Club 3", "6 7").await, "");
    assert_eq!(record_team(&b, "Club 4", "8 9").await, "");
    assert!(text(&b, "#team-1").await.contains("Club 1"));
    assert!(text(&b, "#unlisted").await.is_empty(), "everyone listed");
    shots(&b, &shots_dir(), "teams").await;

    pair(&b, &base, TEAMS).await;
    let matches = text(&b, "#team-matches").await;
    assert_eq!(matches.matches("Club").count(), 4, "{matches}");
    shots(&b, &shots_dir(), "round-team-matches").await;
    // A round robin's matches are its table's: a match turned round by hand is refused with
    // the round director's words.
    let proposed = js(&b, "return document.getElementById('hand-boards').value;").await;
    let proposed = proposed.as_str().unwrap().to_string();
    let first = proposed.lines().next().unwrap().to_string();
    let turned: Vec<&str> = first.split_whitespace().rev().collect();
    js(
        &b,
        "document.getElementById('change-by-hand').open = true; return null;",
    )
    .await;
    b.execute(
        "document.getElementById('hand-boards').value = arguments[0]; return null;",
        vec![json!(proposed.replacen(&first, &turned.join(" "), 1))],
    )
    .await
    .unwrap();
    fill(&b, "note", "teams asked to swap").await;
    submit(&b, "publish-changed").await;
    let said = flash(&b).await;
    assert!(
        said.contains("team_matches") || said.contains("table"),
        "{said:?}"
    );
    b.goto(&format!("{base}/console/t/{TEAMS}/teams"))
        .await
        .unwrap();
    wait_for(&b, "h1", "Teams").await;
    // Without a line-up the list's first players are offered.
    assert_eq!(
        js(&b, "return document.getElementById('players-1').value;").await,
        json!("1 2")
    );
    fill(&b, "players-1", "3 1").await;
    submit(&b, "lineup-1").await;
    let said = flash(&b).await;
    assert!(said.contains("board order"), "{said:?}");
    fill(&b, "players-1", "1 3").await;
    submit(&b, "lineup-1").await;
    assert_eq!(flash(&b).await, "", "line-up");
    assert_eq!(
        js(&b, "return document.getElementById('players-1').value;").await,
        json!("1 3"),
        "the line-up given is shown"
    );
    b.goto(&format!("{base}/console/t/{TEAMS}/round"))
        .await
        .unwrap();
    submit(&b, "publish").await;
    assert_eq!(flash(&b).await, "", "publish the team round");
    let published = c
        .rep
        .get_pairings(rep::GetPairingsRequest {
            tournament: tref(TEAMS),
            round: 1,
        })
        .await
        .unwrap()
        .into_inner();
    let on_boards: Vec<u32> = published
        .boards
        .iter()
        .filter_map(|b| b.board)
        .flat_map(|b| [b.white, b.black])
        .collect();
    assert!(
        on_boards.contains(&3) && !on_boards.contains(&2),
        "the reserve plays, board 2 of his list does not: {on_boards:?}"
    );
    assert_eq!(on_boards.len(), 8);
    // Results on every board; the standings screen ranks the teams as GetStandings does.
    for (board, key) in [(1, "1"), (2, "="), (3, "0"), (4, "1")] {
        fill(&b, "board", &board.to_string()).await;
        fill(&b, "result", key).await;
        submit(&b, "record").await;
        assert_eq!(flash(&b).await, "", "board {board}");
    }
    b.goto(&format!("{base}/console/t/{TEAMS}/standings"))
        .await
        .unwrap();
    let standings = c
        .rep
        .get_standings(rep::GetStandingsRequest {
            tournament: tref(TEAMS),
            after_round: 0,
        })
        .await
        .unwrap()
        .into_inner();
    assert_eq!(standings.team_rows.len(), 4);
    let shown = js(
        &b,
        "return Array.from(document.querySelectorAll('#team-standings tbody tr')).map(function (r) { \
         return [r.cells[2].textContent, r.cells[3].textContent]; });",
    )
    .await;
    let shown: Vec<(String, String)> = serde_json::from_value(shown).unwrap();
    // "2" or "1.5" as tenths.
    let tenths = |t: &str| -> i32 {
        let (whole, tenth) = t.split_once('.').unwrap_or((t, "0"));
        whole.parse::<i32>().unwrap() * 10 + tenth.parse::<i32>().unwrap()
    };
    let shown: Vec<(String, i32)> = shown
        .iter()
        .map(|(n, mp)| (n.clone(), tenths(mp)))
        .collect();
    let expected: Vec<(String, i32)> = standings
        .team_rows
        .iter()
        .map(|r| {
            (
                r.name.clone(),
                arbiter_proto::tenths(r.match_score.as_ref()),
            )
        })
        .collect();
    assert_eq!(shown, expected);
    shots(&b, &shots_dir(), "standings-teams").await;

    // --- A knockout of four. ---
    let knockout = [
        ("name", "Cup"),
        ("id", KO),
        ("system", "knockout"),
        // Two knockout rounds of at most five games (2 classical, 2 rapid, Armageddon).
        ("rounds", "10"),
        ("ko_seeding", "rating"),
        ("ko_classical_games", "2"),
        ("ko_tie_breaks", "rapid:2:15m+10s"),
        ("ko_first_colour", "lot"),
        ("ko_tie_break_colours", "continue"),
        ("ko_armageddon_colour", "lot"),
        ("ko_armageddon_time_control", "5m/4m"),
        ("ko_lot_seed", ""),
    ];
    let said = create(&b, &base, &knockout, None).await;
    assert!(said.contains("knockout.lot_seed"), "{said:?}");
    let mut knockout = knockout.to_vec();
    knockout.retain(|(k, _)| *k != "ko_lot_seed");
    knockout.push(("ko_lot_seed", "Cup 2026, lots published 1 December"));
    assert_eq!(
        create(&b, &base, &knockout, None).await,
        "",
        "knockout created"
    );
    let rows: Vec<String> = (1..=4)
        .map(|i| format!("Seed, {i:02}\t{}\t\tESP", 2000 + 50 * i))
        .collect();
    paste(&b, &base, KO, &rows.join("\n")).await;
    pair(&b, &base, KO).await;
    submit(&b, "publish").await;
    assert_eq!(flash(&b).await, "", "publish the knockout round");
    fill(&b, "board", "1").await;
    fill(&b, "result", "1").await;
    submit(&b, "record").await;
    assert_eq!(flash(&b).await, "", "a knockout game's result");
    b.goto(&format!("{base}/console/t/{KO}/schedule"))
        .await
        .unwrap();
    wait_for(&b, "h1", "Schedule").await;
    let bracket = schedule(&mut c, KO).await.bracket.expect("a bracket");
    let first = &bracket.rounds[0];
    let rows = js(
        &b,
        "return Array.from(document.querySelectorAll('table.bracket tbody tr')).map(function (r) { \
         return Array.from(r.cells).map(function (c) { return c.textContent; }); });",
    )
    .await;
    let rows: Vec<Vec<String>> = serde_json::from_value(rows).unwrap();
    assert_eq!(rows.len(), first.matches.len());
    let names = |pn: u32| format!("Seed, {:02}", pn);
    for (row, m) in rows.iter().zip(&first.matches) {
        assert_eq!(
            row[1],
            format!("({}) {} {}", m.high_seed, m.high, names(m.high))
        );
        assert_eq!(
            row[2],
            format!("({}) {} {}", m.low_seed, m.low, names(m.low))
        );
        for g in &m.games {
            assert!(
                row[3].contains(&format!("round {} board {}", g.round, g.board)),
                "{row:?} {g:?}"
            );
            if !g.result.is_empty() {
                assert!(row[3].contains(&g.result), "{row:?} {g:?}");
            }
        }
    }
    assert!(
        first
            .matches
            .iter()
            .any(|m| m.games.iter().any(|g| !g.result.is_empty())),
        "the result recorded is in the bracket"
    );
    shots(&b, &shots_dir(), "schedule-knockout").await;

    // --- A round robin of four, lots drawn by the service from a published seed. ---
    let said = create(
        &b,
        &base,
        &[
            ("name", "Closed"),
            ("id", RR),
            ("system", "round-robin"),
            ("rounds", "3"),
        ],
        None,
    )
    .await;
    assert_eq!(said, "", "round robin created");
    let rows: Vec<String> = (1..=4)
        .map(|i| format!("Closed, {i:02}\t{}\t\tESP", 2100 + 10 * i))
        .collect();
    paste(&b, &base, RR, &rows.join("\n")).await;
    b.goto(&format!("{base}/console/t/{RR}/schedule"))
        .await
        .unwrap();
    wait_for(&b, "h1", "Schedule").await;
    fill(&b, "numbers", "1 2 x").await;
    submit(&b, "draw-lots").await;
    assert!(flash(&b).await.contains("\"x\""), "{}", flash(&b).await);
    fill(&b, "numbers", "").await;
    fill(&b, "seed", "Closed 2026 lots").await;
    submit(&b, "draw-lots").await;
    assert_eq!(flash(&b).await, "", "lots drawn");
    assert!(
        text(&b, "#lots").await.contains("Closed 2026 lots"),
        "{}",
        text(&b, "#lots").await
    );
    let table = schedule(&mut c, RR).await;
    assert_eq!(
        table.lots.as_ref().map(|l| l.seed.as_str()),
        Some("Closed 2026 lots")
    );
    let shown = js(
        &b,
        "return Array.from(document.querySelectorAll('table.schedule')).map(function (t) { \
         return Array.from(t.tBodies[0].rows).map(function (r) { return r.cells[1].textContent + ' - ' + r.cells[2].textContent; }); });",
    )
    .await;
    let shown: Vec<Vec<String>> = serde_json::from_value(shown).unwrap();
    let names = crate::support::names_of(&mut c, RR).await;
    let expected: Vec<Vec<String>> = table
        .rounds
        .iter()
        .map(|r| {
            r.boards
                .iter()
                .map(|b| {
                    format!(
                        "{} {} - {} {}",
                        b.white, names[&b.white], b.black, names[&b.black]
                    )
                })
                .collect()
        })
        .collect();
    assert_eq!(shown, expected);
    shots(&b, &shots_dir(), "schedule-round-robin").await;

    // Every event the console caused names the signed-in arbiter.
    for tid in [TEAMS, KO, RR] {
        for (actor, kind) in kinds_by_actor(&mut c, tid).await {
            let by_console = matches!(
                kind,
                pb::event::Kind::TournamentCreated(_)
                    | pb::event::Kind::PlayerRegistered(_)
                    | pb::event::Kind::TeamRecorded(_)
                    | pb::event::Kind::LineupSubmitted(_)
                    | pb::event::Kind::LotsDrawn(_)
                    | pb::event::Kind::PairingPublished(_)
                    | pb::event::Kind::ResultRecorded(_)
            );
            if by_console {
                assert_eq!(actor, CHIEF, "{tid}: {kind:?}");
            }
        }
    }
}
