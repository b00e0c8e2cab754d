//! A knockout of 16 run by the service over gRPC (`arbiter serve`), end to end: mini-matches
//! decided in the classical games, in the rapid and in the blitz tie-breaks, and by
//! Armageddon games (one won by White, others drawn: a draw sends Black through, Arbiters' Manual 2023 ch. IV
//! §6.2).
//!
//! The expected values come from the regulations the event is created with and the seeding
//! arithmetic, computed here on their own: the standard bracket of 16 (1-16, 8-9, 4-13, 5-12,
//! 2-15, 7-10, 3-14, 6-11; the higher seed of two winners meets the other), the colours of
//! game 1 and of the Armageddon game drawn from the published lot seed by the documented
//! formula (SHA-256 of the domain, the seed, the match and what is drawn), the others
//! alternating through the match. Each match plays a script of results; when the script says
//! the match is decided (by the rules: a stage won, or the Armageddon game), it drops out and
//! its players have no game; every other match plays its next game in the next round.
//!
//! Also: a pairing changed by hand is refused naming the board; incomplete regulations are
//! refused with INVALID_ARGUMENT naming the field, and nothing is appended; the number of
//! rounds must fit the field; no round after the final; `arbiter replay` re-derives every
//! round.

use crate::support::*;
use arbiter_core::tournament::BoardResult;
use arbiter_proto::events::v1 as pb;
use arbiter_proto::rating_worker::v1 as rw;
use arbiter_proto::rating_worker::v1::rating_worker_client::RatingWorkerClient;
use arbiter_proto::registration::v1 as reg;
use arbiter_proto::reporting::v1 as rep;
use arbiter_proto::round_director::v1 as rd;
use sha2::{Digest, Sha256};
use std::time::Duration;
use tonic::Code;

const LOT_SEED: &str = "Loopback knockout 2026, lots published 2026-02-20";
const CLASSICAL: u32 = 2;
const RAPID: u32 = 2;
const BLITZ: u32 = 2;
/// Every game a match can take: the classical games, each tie-break stage, the sudden death.
const MAX_GAMES: u32 = CLASSICAL + RAPID + BLITZ + 1;
/// 16 players: 4 knockout rounds.
const KNOCKOUT_ROUNDS: u32 = 4;

fn serve(name: &str) -> (TempDir, std::path::PathBuf, Server) {
    let work = TempDir::new(name).unwrap();
    let data = work.path().join("data");
    let server = Server::start(
        &["--data", data.to_str().unwrap()],
        &work.path().join("serve.log"),
    );
    (work, data, server)
}

/// The regulations: seeded by rating, two classical games, two rapid, two blitz, then an
/// Armageddon game; game 1's colours and the Armageddon colours drawn by lot; the tie-breaks
/// go on alternating from the classical games.
fn rules() -> pb::KnockoutRules {
    pb::KnockoutRules {
        seeding: pb::KnockoutSeeding::Rating as i32,
        classical_games: CLASSICAL,
        tie_breaks: vec![
            pb::KnockoutStage {
                kind: pb::KnockoutStageKind::Rapid as i32,
                games: RAPID,
                time_control: "15'+10\"".into(),
            },
            pb::KnockoutStage {
                kind: pb::KnockoutStageKind::Blitz as i32,
                games: BLITZ,
                time_control: "3'+2\"".into(),
            },
        ],
        first_colour: pb::KnockoutFirstColour::Lot as i32,
        tie_break_colours: pb::KnockoutTieBreakColours::Continue as i32,
        armageddon_colour: pb::KnockoutArmageddonColour::Lot as i32,
        armageddon_time_control: "5' v 4', +2\" from move 61".into(),
        lot_seed: LOT_SEED.into(),
    }
}

fn tournament(
    tid: &str,
    system: pb::PairingSystem,
    rounds: u32,
    knockout: Option<pb::KnockoutRules>,
) -> arbiter_proto::registration::v1::TournamentSettings {
    arbiter_proto::registration::v1::TournamentSettings {
        name: format!("Knockout {tid}"),
        place: "Loopback".into(),
        federation: "ESP".into(),
        start_date: Some(pb::Date {
            year: 2026,
            month: 3,
            day: 1,
        }),
        end_date: Some(pb::Date {
            year: 2026,
            month: 3,
            day: 20,
        }),
        chief_arbiter: Some(pb::Arbiter {
            name: "Arbiter, Chief".into(),
            fide_id: None,
            title: "IA".into(),
        }),
        pairing_system: system as i32,
        rounds,
        rating_kind: pb::RatingKind::Standard as i32,
        fide_rated: true,
        knockout,
        ..Default::default()
    }
}

async fn create(
    c: &mut Clients,
    tid: &str,
    t: arbiter_proto::registration::v1::TournamentSettings,
) -> Result<(), tonic::Status> {
    c.reg
        .create_tournament(reg::CreateTournamentRequest {
            header: header(tid, "create"),
            tournament: Some(t),
        })
        .await
        .map(|_| ())
}

/// Player i's rating: 2400 − 25·(5i mod 16), a permutation of the ratings 2025..2400, so the
/// seeding by rating is not the order of registration.
fn rating(i: u32) -> u32 {
    2400 - 25 * ((5 * i) % 16)
}

async fn register(c: &mut Clients, tid: &str, n: u32) {
    for i in 1..=n {
        c.reg
            .register_player(reg::RegisterPlayerRequest {
                confirm_same_name: false,
                header: header(tid, &format!("register-{i}")),
                player: Some(arbiter_proto::registration::v1::PlayerDetails {
                    name: format!("Seeded, {i:02}"),
                    rating: rating(i),
                    federation: "ESP".into(),
                    ..Default::default()
                }),
            })
            .await
            .unwrap_or_else(|e| panic!("{tid}: register {i}: {e:?}"));
    }
}

async fn start(c: &mut Clients, tid: &str, round: u32) -> Result<(), tonic::Status> {
    c.rd.start_round(rd::StartRoundRequest {
        header: header(tid, &format!("start-{round}")),
        round,
        scheduled_unix_ms: 0,
    })
    .await
    .map(|_| ())
}

async fn proposal(c: &mut Clients, tid: &str, round: u32) -> rep::RoundPairings {
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        match c
            .rep
            .get_pairings(rep::GetPairingsRequest {
                tournament: tref(tid),
                round,
            })
            .await
        {
            Ok(p) => return p.into_inner(),
            Err(s) if s.code() == Code::NotFound && std::time::Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(20)).await
            }
            Err(s) => panic!("{tid}: no proposal for round {round}: {s:?}"),
        }
    }
}

async fn publish(
    c: &mut Clients,
    tid: &str,
    round: u32,
    boards: Vec<pb::Board>,
) -> Result<(), tonic::Status> {
    let note = if boards.is_empty() {
        String::new()
    } else {
        "by hand".into()
    };
    c.rd.publish_pairing(rd::PublishPairingRequest {
        header: header(tid, &format!("publish-{round}-{}", boards.len())),
        round,
        proposal_version: 0,
        boards,
        unpaired: vec![],
        by_entry: false,
        numbering_version: None,
        note,
        team_bye: 0,
        team_matches: Vec::new(),
    })
    .await
    .map(|_| ())
}

async fn result(c: &mut Clients, tid: &str, round: u32, board: u32, r: BoardResult) {
    let (res, wc, bc) = wire(r);
    c.rd.record_result(rd::RecordResultRequest {
        header: header(tid, &format!("result-{round}-{board}")),
        round,
        board,
        result: res,
        white_code: wc,
        black_code: bc,
    })
    .await
    .unwrap_or_else(|e| panic!("{tid}: result {round}.{board}: {e:?}"));
}

async fn close(c: &mut Clients, tid: &str, round: u32) {
    c.rd.close_round(rd::CloseRoundRequest {
        header: header(tid, &format!("close-{round}")),
        round,
    })
    .await
    .unwrap_or_else(|e| panic!("{tid}: close {round}: {e:?}"));
}

/// The published lot (true = the higher seed has White) of `what` for match `index` of
/// knockout round `round`: the first byte of SHA-256("arbiter knockout lots v1\0", the seed's
/// length as 8 big-endian bytes, the seed, round, index, what as 4 big-endian bytes each),
/// lowest bit 0.
fn lot(round: u32, index: u32, what: u32) -> bool {
    let mut h = Sha256::new();
    h.update(b"arbiter knockout lots v1\0");
    h.update((LOT_SEED.len() as u64).to_be_bytes());
    h.update(LOT_SEED.as_bytes());
    h.update(round.to_be_bytes());
    h.update(index.to_be_bytes());
    h.update(what.to_be_bytes());
    h.finalize()[0] & 1 == 0
}

/// One game of a script: the higher seed wins, the lower seed wins, a draw; or the
/// Armageddon game drawn, or won by White.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum G {
    H,
    L,
    D,
    ArmDraw,
    ArmWhite,
}
use G::*;

/// Who goes through by the rules, after how many games.
#[derive(Debug, Clone, Copy)]
enum Through {
    High,
    Low,
    /// The Armageddon game: Black (drawn) or White (won).
    Black,
    White,
}

/// A script and its decision by the rules (each stage a mini-match of its own).
struct Script {
    games: &'static [G],
    through: Through,
    stage: &'static str,
}

/// 1½-½ in the classical games.
const CL_H: Script = Script {
    games: &[H, D],
    through: Through::High,
    stage: "classical",
};
/// ½-1½ in the classical games: the lower seed through.
const CL_L: Script = Script {
    games: &[D, L],
    through: Through::Low,
    stage: "classical",
};
/// 1-1 classical, 1½-½ rapid.
const RAPID_H: Script = Script {
    games: &[H, L, H, D],
    through: Through::High,
    stage: "rapid",
};
/// 1-1 classical, ½-1½ rapid.
const RAPID_L: Script = Script {
    games: &[D, D, D, L],
    through: Through::Low,
    stage: "rapid",
};
/// 1-1, 1-1, then ½-1½ blitz.
const BLITZ_L: Script = Script {
    games: &[D, D, H, L, D, L],
    through: Through::Low,
    stage: "blitz",
};
/// 1-1, 1-1, then 2-0 blitz.
const BLITZ_H: Script = Script {
    games: &[L, H, D, D, H, H],
    through: Through::High,
    stage: "blitz",
};
/// Level in every stage, the Armageddon game drawn: Black through.
const ARM_DRAW: Script = Script {
    games: &[D, D, D, D, D, D, ArmDraw],
    through: Through::Black,
    stage: "Armageddon",
};
/// Level in every stage, White wins the Armageddon game.
const ARM_WHITE: Script = Script {
    games: &[H, L, D, D, L, H, ArmWhite],
    through: Through::White,
    stage: "Armageddon",
};

/// The scripts of each knockout round's matches in bracket order.
fn scripts(round: u32) -> Vec<&'static Script> {
    match round {
        1 => vec![
            &CL_H, &ARM_DRAW, &RAPID_H, &BLITZ_L, &CL_L, &RAPID_L, &BLITZ_H, &ARM_WHITE,
        ],
        2 => vec![&RAPID_L, &CL_H, &ARM_DRAW, &BLITZ_H],
        3 => vec![&BLITZ_L, &CL_H],
        _ => vec![&ARM_DRAW],
    }
}

/// A match of the model: its place, its players by pairing number (higher seed first).
struct Match {
    index: u32,
    high_seed: u32,
    low_seed: u32,
    high: u32,
    low: u32,
    script: &'static Script,
    played: usize,
}

impl Match {
    /// The higher seed has White in game `n` (from 1): game 1 by lot, then alternating through
    /// the classical and the tie-break games; the Armageddon game by its own lot.
    fn high_white(&self, round: u32, n: u32) -> bool {
        if n == MAX_GAMES {
            return lot(round, self.index, u32::MAX);
        }
        lot(round, self.index, 0) ^ (n % 2 == 0)
    }

    fn through(&self, round: u32) -> (u32, u32) {
        let arm_high_white = self.high_white(round, MAX_GAMES);
        let high = match self.script.through {
            Through::High => true,
            Through::Low => false,
            Through::Black => !arm_high_white,
            Through::White => arm_high_white,
        };
        if high {
            (self.high_seed, self.high)
        } else {
            (self.low_seed, self.low)
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_knockout_of_16_with_tie_breaks_is_run_end_to_end() {
    let (_work, data, mut server) = serve("arbiter-knockout");
    let mut c = Clients::new(&Endpoints::one(&server.grpc));
    let tid = "ko-16";

    create(
        &mut c,
        tid,
        tournament(
            tid,
            pb::PairingSystem::Knockout,
            KNOCKOUT_ROUNDS * MAX_GAMES,
            Some(rules()),
        ),
    )
    .await
    .expect("create");
    register(&mut c, tid, 16).await;

    // Seeds by rating, highest first (the ratings are distinct).
    let mut by_rating: Vec<u32> = (1..=16).collect();
    by_rating.sort_by_key(|&i| std::cmp::Reverse(rating(i)));
    let pn_of_seed = |s: u32| by_rating[s as usize - 1];

    let schedule =
        c.rd.get_schedule(rd::GetTournamentRequest {
            tournament: tref(tid),
        })
        .await
        .expect("schedule")
        .into_inner();
    let bracket = schedule.bracket.expect("a knockout's bracket");
    assert_eq!(bracket.seeds, by_rating, "seeded by rating");
    assert_eq!(bracket.knockout_rounds, KNOCKOUT_ROUNDS);

    // The standard bracket of 16: seed s meets 17 − s, top seeds kept apart.
    let first: [(u32, u32); 8] = [
        (1, 16),
        (8, 9),
        (4, 13),
        (5, 12),
        (2, 15),
        (7, 10),
        (3, 14),
        (6, 11),
    ];
    let mut matches: Vec<Match> = first
        .iter()
        .zip(scripts(1))
        .enumerate()
        .map(|(i, (&(h, l), script))| Match {
            index: i as u32 + 1,
            high_seed: h,
            low_seed: l,
            high: pn_of_seed(h),
            low: pn_of_seed(l),
            script,
            played: 0,
        })
        .collect();

    let mut round = 0u32;
    // Matches each player played (each has its two classical games).
    let mut matches_of = std::collections::BTreeMap::<u32, u32>::new();
    let mut kinds_seen: Vec<&str> = Vec::new();
    let mut final_loser = 0;
    let mut semi_losers = Vec::new();
    let mut winner = 0;
    for k in 1..=KNOCKOUT_ROUNDS {
        let first_round_of_k = round + 1;
        loop {
            let playing: Vec<usize> = (0..matches.len())
                .filter(|&i| matches[i].played < matches[i].script.games.len())
                .collect();
            if playing.is_empty() {
                break;
            }
            round += 1;
            start(&mut c, tid, round)
                .await
                .unwrap_or_else(|e| panic!("start {round}: {e:?}"));
            let p = proposal(&mut c, tid, round).await;
            let want: Vec<(u32, u32)> = playing
                .iter()
                .map(|&i| {
                    let m = &matches[i];
                    if m.high_white(k, m.played as u32 + 1) {
                        (m.high, m.low)
                    } else {
                        (m.low, m.high)
                    }
                })
                .collect();
            let got: Vec<(u32, u32)> = p
                .boards
                .iter()
                .map(|b| b.board.as_ref().map(|b| (b.white, b.black)).unwrap())
                .collect();
            assert_eq!(
                got,
                want,
                "round {round} (knockout round {k}, game {} of the first matches)",
                round - first_round_of_k + 1
            );
            // Everyone without a game has a zero-point bye, nobody a pairing-allocated one.
            assert_eq!(p.unpaired.len(), 16 - 2 * want.len(), "{:?}", p.unpaired);
            assert!(
                p.unpaired
                    .iter()
                    .all(|u| u.code == pb::ResultCode::ZeroBye as i32)
            );
            // Tie-break games only for the matches level after the classical games.
            if round == first_round_of_k + CLASSICAL {
                let level = scripts(k)
                    .iter()
                    .filter(|s| s.games.len() as u32 > CLASSICAL)
                    .count();
                assert_eq!(want.len(), level, "round {round}: the rapid games");
            }
            if round == 3 {
                // A pairing changed by hand is refused naming the board: the third board's
                // colours reversed.
                let mut boards: Vec<pb::Board> = want
                    .iter()
                    .enumerate()
                    .map(|(i, &(w, b))| pb::Board {
                        number: i as u32 + 1,
                        white: w,
                        black: b,
                    })
                    .collect();
                let b3 = &mut boards[2];
                std::mem::swap(&mut b3.white, &mut b3.black);
                let e = publish(&mut c, tid, round, boards).await.unwrap_err();
                assert_eq!(e.code(), Code::InvalidArgument, "{e:?}");
                assert!(
                    e.message().contains("board 3") && e.message().contains("knockout bracket"),
                    "{}",
                    e.message()
                );
            }
            publish(&mut c, tid, round, vec![])
                .await
                .unwrap_or_else(|e| panic!("publish {round}: {e:?}"));
            for (b, &i) in playing.iter().enumerate() {
                let m = &mut matches[i];
                let high_white = m.high_white(k, m.played as u32 + 1);
                let r = match m.script.games[m.played] {
                    H if high_white => BoardResult::WhiteWins,
                    H => BoardResult::BlackWins,
                    L if high_white => BoardResult::BlackWins,
                    L => BoardResult::WhiteWins,
                    D | ArmDraw => BoardResult::Draw,
                    ArmWhite => BoardResult::WhiteWins,
                };
                m.played += 1;
                result(&mut c, tid, round, b as u32 + 1, r).await;
            }
            close(&mut c, tid, round).await;
        }
        // The read agrees on every match of the round: who won and what decided it.
        let s =
            c.rd.get_schedule(rd::GetTournamentRequest {
                tournament: tref(tid),
            })
            .await
            .expect("schedule")
            .into_inner();
        let view = &s.bracket.expect("bracket").rounds[k as usize - 1];
        assert_eq!(view.first_event_round, first_round_of_k);
        assert_eq!(view.matches.len(), matches.len());
        for (m, v) in matches.iter().zip(&view.matches) {
            assert_eq!(
                (v.high, v.low),
                (m.high, m.low),
                "round {k} match {}",
                m.index
            );
            assert_eq!(v.winner, m.through(k).1, "round {k} match {}", m.index);
            assert_eq!(v.decided_by, m.script.stage, "round {k} match {}", m.index);
            assert_eq!(v.games.len(), m.script.games.len());
            kinds_seen.push(m.script.stage);
            *matches_of.entry(m.high).or_default() += 1;
            *matches_of.entry(m.low).or_default() += 1;
        }
        let winners: Vec<(u32, u32)> = matches.iter().map(|m| m.through(k)).collect();
        let losers: Vec<u32> = matches
            .iter()
            .map(|m| {
                let w = m.through(k).1;
                if w == m.high { m.low } else { m.high }
            })
            .collect();
        if k == KNOCKOUT_ROUNDS - 1 {
            semi_losers = losers.clone();
        }
        if k == KNOCKOUT_ROUNDS {
            winner = winners[0].1;
            final_loser = losers[0];
            break;
        }
        // The winners of matches 2i − 1 and 2i meet, the higher seed as the higher seed.
        matches = winners
            .chunks(2)
            .zip(scripts(k + 1))
            .enumerate()
            .map(|(i, (w, script))| {
                let (a, b) = if w[0].0 < w[1].0 {
                    (w[0], w[1])
                } else {
                    (w[1], w[0])
                };
                Match {
                    index: i as u32 + 1,
                    high_seed: a.0,
                    low_seed: b.0,
                    high: a.1,
                    low: b.1,
                    script,
                    played: 0,
                }
            })
            .collect();
    }
    for stage in ["classical", "rapid", "blitz", "Armageddon"] {
        assert!(kinds_seen.contains(&stage), "{stage}: {kinds_seen:?}");
    }

    // The winner, the places, and no round after the final.
    let s =
        c.rd.get_schedule(rd::GetTournamentRequest {
            tournament: tref(tid),
        })
        .await
        .expect("schedule")
        .into_inner();
    let b = s.bracket.expect("bracket");
    assert_eq!(b.winner, winner);
    assert_eq!(b.decided_in_round, round);
    let place = |pn: u32| {
        b.places
            .iter()
            .find(|p| p.player == pn)
            .map(|p| (p.from, p.to))
    };
    assert_eq!(place(winner), Some((1, 1)));
    assert_eq!(place(final_loser), Some((2, 2)));
    for pn in &semi_losers {
        assert_eq!(place(*pn), Some((3, 4)));
    }
    assert_eq!(b.places.len(), 16);
    let e = start(&mut c, tid, round + 1).await.unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition, "{e:?}");
    assert!(e.message().contains("decided"), "{}", e.message());
    c.rd.finish_tournament(rd::FinishTournamentRequest {
        header: header(tid, "finish"),
    })
    .await
    .expect("finish");

    // A standard event rates the classical games only: the rapid and blitz tie-breaks belong
    // to other lists, and an Armageddon game is never rated.
    let mut rating = RatingWorkerClient::connect(server.grpc.clone())
        .await
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let ratings = loop {
        let ev = rating
            .get_event_ratings(rw::GetEventRatingsRequest {
                tournament: tref(tid),
            })
            .await
            .expect("event ratings")
            .into_inner();
        if ev.through_round == round || std::time::Instant::now() > deadline {
            break ev;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(ratings.through_round, round);
    for ch in &ratings.changes {
        assert_eq!(
            ch.games,
            CLASSICAL * matches_of[&ch.player_id],
            "player {}: rated games",
            ch.player_id
        );
    }
    assert_eq!(ratings.changes.len(), 16);

    // Incomplete or misplaced regulations: INVALID_ARGUMENT naming the field, nothing appended.
    let mut refusals: Vec<(
        &str,
        arbiter_proto::registration::v1::TournamentSettings,
        &str,
    )> = Vec::new();
    refusals.push((
        "ko-none",
        tournament("ko-none", pb::PairingSystem::Knockout, 28, None),
        "knockout",
    ));
    let mut r = rules();
    r.seeding = pb::KnockoutSeeding::Unspecified as i32;
    refusals.push((
        "ko-seeding",
        tournament("ko-seeding", pb::PairingSystem::Knockout, 28, Some(r)),
        "knockout.seeding",
    ));
    let mut r = rules();
    r.classical_games = 0;
    refusals.push((
        "ko-classical",
        tournament("ko-classical", pb::PairingSystem::Knockout, 28, Some(r)),
        "knockout.classical_games",
    ));
    let mut r = rules();
    r.lot_seed = " ".into();
    refusals.push((
        "ko-lots",
        tournament("ko-lots", pb::PairingSystem::Knockout, 28, Some(r)),
        "knockout.lot_seed",
    ));
    let mut r = rules();
    r.armageddon_colour = pb::KnockoutArmageddonColour::Unspecified as i32;
    refusals.push((
        "ko-armageddon",
        tournament("ko-armageddon", pb::PairingSystem::Knockout, 28, Some(r)),
        "knockout.armageddon_colour",
    ));
    let mut r = rules();
    r.tie_breaks[1].kind = pb::KnockoutStageKind::Unspecified as i32;
    refusals.push((
        "ko-stage",
        tournament("ko-stage", pb::PairingSystem::Knockout, 28, Some(r)),
        "knockout.tie_breaks",
    ));
    refusals.push((
        "dutch-ko",
        tournament("dutch-ko", pb::PairingSystem::Dutch, 9, Some(rules())),
        "knockout",
    ));
    for (id, t, field) in refusals {
        let e = create(&mut c, id, t).await.unwrap_err();
        assert_eq!(e.code(), Code::InvalidArgument, "{id}: {e:?}");
        assert!(e.message().contains(field), "{id}: {}", e.message());
        let none = c
            .reg
            .list_players(reg::ListPlayersRequest {
                tournament: tref(id),
            })
            .await
            .unwrap_err();
        assert_eq!(none.code(), Code::NotFound, "{id}: nothing appended");
    }

    // The rounds must fit the field: 16 players, 4 knockout rounds of at most 7 games.
    create(
        &mut c,
        "ko-rounds",
        tournament("ko-rounds", pb::PairingSystem::Knockout, 20, Some(rules())),
    )
    .await
    .expect("create");
    register(&mut c, "ko-rounds", 16).await;
    let e = start(&mut c, "ko-rounds", 1).await.unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition, "{e:?}");
    assert!(
        e.message()
            .contains(&format!("has {} rounds", KNOCKOUT_ROUNDS * MAX_GAMES)),
        "{}",
        e.message()
    );

    // The audit re-derives every round from the bracket and the results before it.
    server.terminate();
    let out = run(&["replay", "--data", data.to_str().unwrap(), tid]);
    assert_eq!(out.code, 0, "replay:\n{}\n{}", out.stdout, out.stderr);
    assert!(!out.stdout.contains("DIFFERS"), "{}", out.stdout);
    assert!(
        out.stdout
            .contains(&format!("{round} rounds re-paired, 0 differing")),
        "{}",
        out.stdout
    );
    for r in 1..=round {
        assert!(
            out.stdout
                .contains(&format!("round {r}: re-paired, identical")),
            "round {r}:\n{}",
            out.stdout
        );
    }
}
