//! Team events run by the service over gRPC. A team Swiss: 10 teams of 4 boards and a
//! reserve, 7 rounds.
//! Teams are recorded with their lists, the pairing worker proposes each round's matches,
//! every team gives a line-up in its list's order (one out of order is refused), publication
//! expands the matches into boards with the WBWB colours, results are recorded board by
//! board. The team standings' match and game points are checked against this test's own tally
//! of the recorded results; the TRF-2026 export carries the 310 team records with those
//! points and the 352 colours and reads back byte for byte; imported, it is the same event
//! (replay identical, export identical). A team round robin of 4 teams publishes the
//! handbook's Berger table (tests/golden/round-robin) over the team numbers.

use crate::support::*;
use arbiter_core::tournament::BoardResult;
use arbiter_proto::events::v1 as pb;
use arbiter_proto::registration::v1 as reg;
use arbiter_proto::reporting::v1 as rep;
use arbiter_proto::round_director::v1 as rd;
use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;
use tonic::Code;

/// A team event's size: teams of `list` players (in pairing-number order, team by team)
/// playing on `boards` boards with colours `colours`.
struct Shape {
    teams: u32,
    list: u32,
    boards: u32,
    rounds: u32,
    colours: &'static str,
    system: pb::PairingSystem,
    rule_set: &'static str,
}

const SWISS: Shape = Shape {
    teams: 10,
    list: 5,
    boards: 4,
    rounds: 7,
    colours: "WBWB",
    system: pb::PairingSystem::Dutch,
    rule_set: "dutch-2025",
};

impl Shape {
    fn members(&self, team: u32) -> Vec<u32> {
        ((team - 1) * self.list + 1..=team * self.list).collect()
    }
}

/// (match points, game points) in tenths, by team: this test's own tally of its results.
type Tally = BTreeMap<u32, (i32, i32)>;

async fn create_event(c: &mut Clients, tid: &str, s: &Shape) {
    c.reg
        .create_tournament(reg::CreateTournamentRequest {
            header: header(tid, "create"),
            tournament: Some(arbiter_proto::registration::v1::TournamentSettings {
                name: format!("Teams {tid}"),
                place: "Loopback".into(),
                federation: "ESP".into(),
                start_date: Some(pb::Date {
                    year: 2026,
                    month: 5,
                    day: 1,
                }),
                end_date: Some(pb::Date {
                    year: 2026,
                    month: 5,
                    day: 7,
                }),
                chief_arbiter: Some(pb::Arbiter {
                    name: "Arbiter, Chief".into(),
                    fide_id: None,
                    title: "IA".into(),
                }),
                pairing_system: s.system as i32,
                rule_set: s.rule_set.into(),
                rounds: s.rounds,
                initial_color: pb::Color::White as i32,
                rating_kind: pb::RatingKind::Standard as i32,
                team_rules: Some(pb::TeamRules {
                    boards: s.boards,
                    reserves: s.list - s.boards,
                    match_win: 20,
                    match_draw: 10,
                    match_loss: 0,
                    ranking: pb::TeamRanking::MatchPoints as i32,
                    pab: None,
                    colours: s.colours.into(),
                }),
                ..Default::default()
            }),
        })
        .await
        .expect("create");
    for i in 1..=s.teams * s.list {
        c.reg
            .register_player(reg::RegisterPlayerRequest {
                confirm_same_name: false,
                header: header(tid, &format!("register-{i}")),
                player: Some(arbiter_proto::registration::v1::PlayerDetails {
                    name: format!("Player, {i:02}"),
                    rating: 2600 - 10 * i,
                    federation: "ESP".into(),
                    ..Default::default()
                }),
            })
            .await
            .expect("register");
    }
}

fn record(tid: &str, team: u32, list: Vec<u32>) -> reg::RecordTeamRequest {
    reg::RecordTeamRequest {
        header: header(tid, &format!("team-{team}-{list:?}")),
        team: Some(arbiter_proto::registration::v1::TeamList {
            number: team,
            name: format!("Club {team:02}"),
            members: list,
            ..Default::default()
        }),
        numbering_version: None,
    }
}

/// Plays round `round`: started, its proposal read, every team's line-up given (one list
/// player sits out, a different one each round), published, its boards checked against the
/// line-ups and colours, results recorded and tallied, closed. The published matches.
async fn play_round(
    c: &mut Clients,
    tid: &str,
    s: &Shape,
    round: u32,
    tally: &mut Tally,
) -> Vec<pb::TeamMatch> {
    c.rd.start_round(rd::StartRoundRequest {
        header: header(tid, &format!("start-{round}")),
        round,
        scheduled_unix_ms: 0,
    })
    .await
    .expect("start");
    let proposed = team_pairing(c, tid, round).await;
    assert_eq!(proposed.team_matches.len() as u32, s.teams / 2);
    let mut lineups: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for t in 1..=s.teams {
        let out = (t + round) % s.list;
        let lineup: Vec<u32> = s
            .members(t)
            .iter()
            .enumerate()
            .filter(|(i, _)| *i as u32 != out)
            .map(|(_, &p)| p)
            .take(s.boards as usize)
            .collect();
        if round == 1 && t == 1 {
            let mut wrong = lineup.clone();
            wrong.swap(0, 1);
            let refused =
                c.rd.submit_lineup(rd::SubmitLineupRequest {
                    header: header(tid, "lineup-wrong"),
                    round,
                    team: t,
                    players: wrong,
                    numbering_version: None,
                })
                .await
                .unwrap_err();
            assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");
            assert!(refused.message().contains("board order"), "{refused:?}");
        }
        c.rd.submit_lineup(rd::SubmitLineupRequest {
            header: header(tid, &format!("lineup-{round}-{t}")),
            round,
            team: t,
            players: lineup.clone(),
            numbering_version: None,
        })
        .await
        .expect("line-up");
        lineups.insert(t, lineup);
    }
    c.rd.publish_pairing(rd::PublishPairingRequest {
        header: header(tid, &format!("publish-{round}")),
        round,
        ..Default::default()
    })
    .await
    .expect("publish");
    let p = team_pairing(c, tid, round).await;
    assert!(p.published);
    assert_eq!(p.team_matches, proposed.team_matches);
    assert_eq!(p.boards.len() as u32, s.teams / 2 * s.boards);
    assert_eq!(p.unpaired.len() as u32, s.teams * (s.list - s.boards));
    for (m, tm) in p.team_matches.iter().enumerate() {
        let mut gp = (0, 0);
        for k in 0..s.boards {
            let b = p.boards[(m as u32 * s.boards + k) as usize]
                .board
                .clone()
                .unwrap();
            let (a, z) = (
                lineups[&tm.first][k as usize],
                lineups[&tm.second][k as usize],
            );
            // The team named first has the colour the rules give the board.
            let first_white = s.colours.as_bytes()[k as usize] == b'W';
            let expected = if first_white { (a, z) } else { (z, a) };
            assert_eq!(
                (b.white, b.black),
                expected,
                "round {round} board {}",
                b.number
            );
            let r = match (round * 7 + b.number * 3) % 5 {
                0 | 1 => BoardResult::WhiteWins,
                2 | 3 => BoardResult::Draw,
                _ => BoardResult::BlackWins,
            };
            let (w, bl) = match r {
                BoardResult::WhiteWins => (10, 0),
                BoardResult::Draw => (5, 5),
                _ => (0, 10),
            };
            let (fa, fz) = if first_white { (w, bl) } else { (bl, w) };
            gp.0 += fa;
            gp.1 += fz;
            let (res, wc, bc) = wire(r);
            c.rd.record_result(rd::RecordResultRequest {
                header: header(tid, &format!("result-{round}-{}", b.number)),
                round,
                board: b.number,
                result: res,
                white_code: wc,
                black_code: bc,
            })
            .await
            .expect("result");
        }
        let (ma, mz) = match gp.0.cmp(&gp.1) {
            std::cmp::Ordering::Greater => (20, 0),
            std::cmp::Ordering::Equal => (10, 10),
            std::cmp::Ordering::Less => (0, 20),
        };
        let first = tally.entry(tm.first).or_default();
        first.0 += ma;
        first.1 += gp.0;
        let second = tally.entry(tm.second).or_default();
        second.0 += mz;
        second.1 += gp.1;
    }
    c.rd.close_round(rd::CloseRoundRequest {
        header: header(tid, &format!("close-{round}")),
        round,
    })
    .await
    .expect("close");
    p.team_matches
}

/// The team standings, checked against the tally: points, order by match points, and every
/// game point of the event accounted for.
async fn checked_standings(c: &mut Clients, tid: &str, s: &Shape, tally: &Tally) -> rep::Standings {
    let st = c
        .rep
        .get_standings(rep::GetStandingsRequest {
            tournament: tref(tid),
            ..Default::default()
        })
        .await
        .expect("standings")
        .into_inner();
    assert_eq!(st.team_rows.len() as u32, s.teams);
    assert_eq!(
        st.team_tie_break_list.first().map(String::as_str),
        Some("MPvGP")
    );
    let mut last = i32::MAX;
    for row in &st.team_rows {
        assert_eq!(
            (
                arbiter_proto::tenths(row.match_score.as_ref()),
                arbiter_proto::tenths(row.game_score.as_ref())
            ),
            tally[&row.team],
            "team {}",
            row.team
        );
        assert!(
            arbiter_proto::tenths(row.match_score.as_ref()) <= last,
            "ranked by match points"
        );
        last = arbiter_proto::tenths(row.match_score.as_ref());
    }
    let total_gp: i32 = st
        .team_rows
        .iter()
        .map(|r| arbiter_proto::tenths(r.game_score.as_ref()))
        .sum();
    assert_eq!(total_gp, (s.rounds * s.teams / 2 * s.boards * 10) as i32);
    st
}

fn replay(data: &std::path::Path, tid: &str, rounds: u32) {
    let out = run(&["replay", "--data", data.to_str().unwrap(), tid]);
    assert_eq!(out.code, 0, "replay:\n{}\n{}", out.stdout, out.stderr);
    assert!(!out.stdout.contains("DIFFERS"), "{}", out.stdout);
    assert_eq!(
        out.stdout.matches("re-paired, identical").count() as u32,
        rounds,
        "{}",
        out.stdout
    );
}

async fn team_pairing(c: &mut Clients, tid: &str, round: u32) -> rep::RoundPairings {
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        match c
            .rep
            .get_pairings(rep::GetPairingsRequest {
                tournament: tref(tid),
                round,
            })
            .await
        {
            Ok(p) if !p.get_ref().team_matches.is_empty() => return p.into_inner(),
            Ok(_) => {}
            Err(s) if s.code() == Code::NotFound => {}
            Err(s) => panic!("round {round}: {s:?}"),
        }
        assert!(
            std::time::Instant::now() < deadline,
            "round {round}: no team proposal"
        );
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_team_swiss_of_ten_teams_runs_end_to_end_with_trf_team_records() {
    team_swiss_end_to_end(&SWISS, "team-swiss").await;
}

/// The same event paired by FIDE's Swiss Team Pairing System (C.04.6) with type B colour
/// preferences: the rule set travels through the export as its record 192 code
/// (FIDE_TEAM_TYPEB_MP_GP) and the import reads it back to the same rule set, so the replay
/// re-derives every round with the same engine.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fide_team_swiss_of_ten_teams_runs_end_to_end_and_its_type_code_round_trips() {
    team_swiss_end_to_end(&FIDE_TEAM_B, "fide-team-swiss").await;
}

const FIDE_TEAM_B: Shape = Shape {
    rule_set: "fide-team-b",
    ..SWISS
};

async fn team_swiss_end_to_end(sh: &Shape, tid: &str) {
    let work = TempDir::new(tid).unwrap();
    let data = work.path().join("data");
    let mut server = Server::start(
        &["--data", data.to_str().unwrap()],
        &work.path().join("serve.log"),
    );
    let mut c = Clients::new(&Endpoints::one(&server.grpc));
    create_event(&mut c, tid, sh).await;
    for t in 1..=sh.teams {
        if t == 2 {
            // Player 1 is already on team 1's list.
            let refused = c
                .reg
                .record_team(record(tid, 2, vec![1, 7, 8, 9, 10]))
                .await
                .unwrap_err();
            assert_eq!(refused.code(), Code::InvalidArgument, "{refused:?}");
            assert!(
                refused.message().contains("already listed by team 1"),
                "{refused:?}"
            );
        }
        c.reg
            .record_team(record(tid, t, sh.members(t)))
            .await
            .expect("team");
    }
    let mut tally = Tally::new();
    let mut met: BTreeSet<(u32, u32)> = BTreeSet::new();
    for round in 1..=sh.rounds {
        for tm in play_round(&mut c, tid, sh, round, &mut tally).await {
            let key = (tm.first.min(tm.second), tm.first.max(tm.second));
            assert!(met.insert(key), "round {round}: teams {key:?} meet twice");
        }
    }
    let st = checked_standings(&mut c, tid, sh, &tally).await;

    let trf = c
        .rep
        .export_trf(rep::ExportTrfRequest {
            tournament: tref(tid),
            format: arbiter_proto::common::v1::TrfFormat::Trf2026 as i32,
        })
        .await
        .expect("export")
        .into_inner();
    let text = String::from_utf8(trf.trf).unwrap();
    let file = arbiter_trf::parse(&text)
        .expect("the export reads back")
        .file;
    assert_eq!(
        arbiter_trf::write(&file).unwrap(),
        text,
        "read back identically"
    );
    let teams: Vec<&arbiter_trf::Team310> = file
        .records
        .iter()
        .filter_map(|r| match r {
            arbiter_trf::Record::Team310(t) => Some(t),
            _ => None,
        })
        .collect();
    assert_eq!(teams.len() as u32, sh.teams);
    for t in teams {
        let row = st.team_rows.iter().find(|r| r.team == t.number).unwrap();
        assert_eq!(
            t.match_points.map(|s| s.tenths()),
            Some(arbiter_proto::tenths(row.match_score.as_ref()))
        );
        assert_eq!(
            t.game_points.map(|s| s.tenths()),
            Some(arbiter_proto::tenths(row.game_score.as_ref()))
        );
        assert_eq!(t.rank, Some(row.rank));
        assert_eq!(
            t.members,
            sh.members(t.number)
                .into_iter()
                .map(Some)
                .collect::<Vec<_>>()
        );
    }
    assert!(
        text.lines().any(|l| l.starts_with("352 WBWB")),
        "the board colours are exported"
    );
    if sh.rule_set == "fide-team-b" {
        assert!(
            text.lines()
                .any(|l| l.starts_with("192 FIDE_TEAM_TYPEB_MP_GP")),
            "the team Swiss's type code is exported"
        );
    }

    // The audit re-derives every round's matches from the rounds before it.
    server.terminate();
    replay(&data, tid, sh.rounds);

    // The export imports as the same team event: its rules, lists, line-ups and matches are
    // read back from the file, the audit finds every round identical, and its export is the
    // file again.
    let file_path = work.path().join("team.trf");
    std::fs::write(&file_path, &text).unwrap();
    let into = work.path().join("imported");
    let into_arg = into.to_str().unwrap();
    let im = run(&[
        "import",
        file_path.to_str().unwrap(),
        "--data",
        into_arg,
        "--id",
        tid,
    ]);
    assert_eq!(im.code, 0, "{}{}", im.stdout, im.stderr);
    replay(&into, tid, sh.rounds);
    let ex = run(&["export", tid, "--data", into_arg, "--format", "trf-2026"]);
    assert_eq!(ex.code, 0, "{}", ex.stderr);
    assert_eq!(ex.stdout, text, "the imported event exports the same file");

    // The file's standings rank its teams as the service did: the same rank and match points
    // for every team.
    let sj = run(&["standings", file_path.to_str().unwrap(), "--format", "json"]);
    assert_eq!(sj.code, 0, "{}", sj.stderr);
    let table: serde_json::Value = serde_json::from_str(&sj.stdout).unwrap();
    let rows = table["standings"].as_array().unwrap();
    assert_eq!(rows.len(), st.team_rows.len(), "{}", sj.stdout);
    for row in &st.team_rows {
        let line = rows
            .iter()
            .find(|r| r["no"].as_u64() == Some(row.team as u64))
            .unwrap_or_else(|| panic!("team {} missing: {}", row.team, sj.stdout));
        assert_eq!(line["rank"].as_u64(), Some(row.rank as u64), "{line}");
        assert_eq!(
            (line["points"].as_f64().unwrap() * 10.0).round() as i64,
            arbiter_proto::tenths(row.match_score.as_ref()) as i64,
            "{line}"
        );
    }

    // A file whose match leaves the lists' board order is refused naming the round.
    let lines: Vec<&str> = text.split("\r\n").collect();
    let swapped = swap_first_two_boards(&lines);
    let bad = work.path().join("bad.trf");
    std::fs::write(&bad, swapped).unwrap();
    let into_bad = work.path().join("bad-import");
    let im = run(&[
        "import",
        bad.to_str().unwrap(),
        "--data",
        into_bad.to_str().unwrap(),
        "--id",
        "bad",
    ]);
    assert_ne!(im.code, 0);
    assert!(im.stderr.contains("round 1"), "{}", im.stderr);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_team_round_robin_publishes_the_berger_table_over_the_teams() {
    let work = TempDir::new("team-rr").unwrap();
    let data = work.path().join("data");
    let mut server = Server::start(
        &["--data", data.to_str().unwrap()],
        &work.path().join("serve.log"),
    );
    let mut c = Clients::new(&Endpoints::one(&server.grpc));
    let tid = "team-rr";
    let sh = &Shape {
        teams: 4,
        list: 3,
        boards: 2,
        rounds: 3,
        colours: "WB",
        system: pb::PairingSystem::RoundRobin,
        rule_set: "berger",
    };
    create_event(&mut c, tid, sh).await;
    for t in 1..=sh.teams {
        c.reg
            .record_team(record(tid, t, sh.members(t)))
            .await
            .expect("team");
    }
    // The handbook's table for 4 (C.05 Annex 1, as transcribed in tests/golden): White's number
    // names the team named first.
    let golden: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(format!(
            "{}/../../tests/golden/round-robin/berger-tables.json",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap(),
    )
    .unwrap();
    let table = &golden["tables"]["4"]["rounds"];
    let mut tally = Tally::new();
    for round in 1..=sh.rounds {
        let matches = play_round(&mut c, tid, sh, round, &mut tally).await;
        let got: Vec<(u64, u64)> = matches
            .iter()
            .map(|m| (m.first as u64, m.second as u64))
            .collect();
        let want: Vec<(u64, u64)> = table[round as usize - 1]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| (g[0].as_u64().unwrap(), g[1].as_u64().unwrap()))
            .collect();
        assert_eq!(got, want, "round {round}");
    }
    checked_standings(&mut c, tid, sh, &tally).await;
    server.terminate();
    replay(&data, tid, sh.rounds);
}

/// The file with the round-1 blocks of team 1's first two players exchanged (and their
/// opponents' lines to match): boards 1 and 2 of their match out of the lists' order.
fn swap_first_two_boards(lines: &[&str]) -> String {
    let col = 91; // round 1's block starts at column 92 (index 91)
    let find = |sn: u32| {
        lines
            .iter()
            .position(|l| l.starts_with("001") && l[4..8].trim() == sn.to_string())
            .unwrap()
    };
    let (i1, i2) = (find(1), find(2));
    let (b1, b2) = (&lines[i1][col..col + 8], &lines[i2][col..col + 8]);
    let o1: u32 = b1[0..4].trim().parse().unwrap();
    let o2: u32 = b2[0..4].trim().parse().unwrap();
    let (j1, j2) = (find(o1), find(o2));
    let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    let with_block = |l: &str, block: &str| format!("{}{block}{}", &l[..col], &l[col + 8..]);
    let with_opponent = |l: &str, opp: u32| format!("{}{opp:>4}{}", &l[..col], &l[col + 4..]);
    // The points column (81-84, tenths here) follows the exchanged results.
    let tenths = |block: &str| match &block[7..8] {
        "1" => 10,
        "=" => 5,
        _ => 0,
    };
    let with_points = |l: &str, minus: &str, plus: &str| {
        let p: arbiter_core::Score = l[80..84].trim().parse().unwrap();
        let t = p.tenths() - tenths(minus) + tenths(plus);
        format!("{}{:>2}.{}{}", &l[..80], t / 10, t % 10, &l[84..])
    };
    out[i1] = with_points(&with_block(lines[i1], b2), b1, b2);
    out[i2] = with_points(&with_block(lines[i2], b1), b2, b1);
    out[j1] = with_opponent(lines[j1], 2);
    out[j2] = with_opponent(lines[j2], 1);
    out.join("\r\n")
}
