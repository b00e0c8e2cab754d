//! A ten-player, nine-round tournament driven through the real tournament store over a sled
//! log, and the figures `arbiter-rating` gives for its games, computed from the test's own
//! table of results (not from the worker's fold).

#![allow(dead_code)]

use arbiter_core::tournament::{
    BoardResult, CloseRound, Command, CorrectResult, CreateTournament, Date, FinishTournament,
    ManualPairing, Pair, PublishPairing, RecordResult, RegisterPlayer, Sex, StartRound, Title,
};
use arbiter_core::{ResultCode, Score};
use arbiter_eventlog::{EventLog, StoredEvent};
use arbiter_proto::events::v1 as pb;
use arbiter_proto::events::v1::event::Kind;
use arbiter_rating::norms::{NormEvent, NormKind, NormOpponent, NormRound, NormSearch, find_norm};
use arbiter_rating::{
    Federation, KFactor, KInputs, RatedGame, RatingChange, RuleSet, Titles, rating_change,
};
use arbiter_service_kit::store::{CommandContext, TournamentStore};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub const TOURNAMENT: &str = "open-2025";
pub const STREAM: &str = "tournament-open-2025";
pub const ROUNDS: u32 = 9;
pub const START: (i32, u32, u32) = (2025, 6, 1);

/// One player: name, rating, title, federation, sex, birth year, K given (0 = derived).
pub struct P {
    pub name: &'static str,
    pub rating: u32,
    pub title: Option<Title>,
    pub fed: &'static str,
    pub sex: Sex,
    pub born: i32,
    pub k: u32,
}

/// Pairing number `i + 1` is `PLAYERS[i]` (registered in rating order).
pub const PLAYERS: [P; 10] = [
    P {
        name: "Alpha, A",
        rating: 2600,
        title: Some(Title::GM),
        fed: "NOR",
        sex: Sex::Male,
        born: 1990,
        k: 0,
    },
    P {
        name: "Bravo, B",
        rating: 2580,
        title: Some(Title::GM),
        fed: "ESP",
        sex: Sex::Male,
        born: 1988,
        k: 0,
    },
    P {
        name: "Charlie, C",
        rating: 2560,
        title: Some(Title::GM),
        fed: "IND",
        sex: Sex::Male,
        born: 2001,
        k: 0,
    },
    P {
        name: "Delta, D",
        rating: 2540,
        title: Some(Title::GM),
        fed: "USA",
        sex: Sex::Male,
        born: 1995,
        k: 0,
    },
    P {
        name: "Echo, E",
        rating: 2520,
        title: Some(Title::IM),
        fed: "GER",
        sex: Sex::Male,
        born: 2004,
        k: 0,
    },
    P {
        name: "Foxtrot, F",
        rating: 2500,
        title: Some(Title::IM),
        fed: "FRA",
        sex: Sex::Male,
        born: 1999,
        k: 0,
    },
    P {
        name: "Golf, G",
        rating: 2480,
        title: Some(Title::GM),
        fed: "CHN",
        sex: Sex::Male,
        born: 1985,
        k: 0,
    },
    P {
        name: "Hotel, H",
        rating: 2460,
        title: Some(Title::IM),
        fed: "ARM",
        sex: Sex::Male,
        born: 2000,
        k: 0,
    },
    P {
        name: "India, I",
        rating: 2440,
        title: Some(Title::FM),
        fed: "BRA",
        sex: Sex::Female,
        born: 2008,
        k: 20,
    },
    P {
        name: "Juliet, J",
        rating: 2420,
        title: Some(Title::IM),
        fed: "EGY",
        sex: Sex::Male,
        born: 1992,
        k: 0,
    },
];

/// The result of the game between pairing numbers `a < b`, from `a`'s side (as played, before
/// any correction).
pub fn result_between(a: u32, b: u32) -> ResultCode {
    use ResultCode::*;
    let (a, b, flip) = if a < b { (a, b, false) } else { (b, a, true) };
    let r = match (a, b) {
        // Echo (5): 6.5/9, a GM norm.
        (1, 5) => Loss,
        (2, 5) => Win,
        (3, 5) => Loss,
        (4, 5) => Draw,
        (5, 6) => Win,
        (5, 7) => Draw,
        (5, 8) => Win,
        (5, 9) => Draw,
        (5, 10) => Win,
        // India (9): 4.5/9, an IM norm (and WGM, WIM), not a GM norm.
        (1, 9) => Win,
        (2, 9) => Draw,
        (3, 9) => Loss,
        (4, 9) => Win,
        (6, 9) => Draw,
        (7, 9) => Loss,
        (8, 9) => Draw,
        (9, 10) => Draw,
        // Juliet (10) loses the rest; Alpha wins against her by forfeit (not rated).
        (1, 10) => ForfeitWin,
        (_, 10) => Win,
        // The rest: the higher rated wins when the numbers' sum is divisible by 3, else draws.
        (a, b) if (a + b) % 3 == 0 => Win,
        _ => Draw,
    };
    if flip {
        r.mirrored().expect("a game result")
    } else {
        r
    }
}

/// The board result of `white` against `black`.
pub fn board_result(white: u32, black: u32) -> BoardResult {
    match result_between(white, black) {
        ResultCode::Win => BoardResult::WhiteWins,
        ResultCode::Draw => BoardResult::Draw,
        ResultCode::Loss => BoardResult::BlackWins,
        ResultCode::ForfeitWin => BoardResult::WhiteWinsForfeit,
        ResultCode::ForfeitLoss => BoardResult::BlackWinsForfeit,
        other => panic!("no board result for {other:?}"),
    }
}

/// Round `r` (1-based) of a round robin of ten by the circle method: `(white, black)` pairs.
pub fn pairs(round: u32) -> Vec<(u32, u32)> {
    let n = 10u32;
    let mut ring: Vec<u32> = (1..n).collect();
    ring.rotate_left(((round - 1) * 4 % (n - 1)) as usize);
    let mut out = vec![if round.is_multiple_of(2) {
        (ring[0], n)
    } else {
        (n, ring[0])
    }];
    for i in 1..(n / 2) as usize {
        let (a, b) = (ring[i], ring[(n - 1) as usize - i]);
        out.push(if i % 2 == 0 { (a, b) } else { (b, a) });
    }
    out
}

/// A correction of one round's board (the game of `white` against `black`) to `result`.
#[derive(Clone, Copy)]
pub struct Correction {
    pub round: u32,
    pub white: u32,
    pub black: u32,
    pub result: BoardResult,
}

/// What a board's result finally is, every correction applied.
pub fn final_result(round: u32, white: u32, black: u32, corrections: &[Correction]) -> BoardResult {
    corrections
        .iter()
        .rev()
        .find(|c| c.round == round && c.white == white && c.black == black)
        .map_or_else(|| board_result(white, black), |c| c.result)
}

pub async fn exec(store: &TournamentStore, command_id: &str, c: Command) {
    let ctx = CommandContext::new(TOURNAMENT, command_id, None, "arbiter").unwrap();
    store
        .execute(&ctx, |_| Ok(c.clone()))
        .await
        .unwrap_or_else(|e| panic!("{command_id}: {e:?}"));
}

pub async fn create(store: &TournamentStore) {
    let start = Date::ymd(START.0, START.1, START.2).unwrap();
    let end = Date::ymd(START.0, START.1, START.2 + 8).unwrap();
    let mut c = CreateTournament::new("Test Open", start, end, ROUNDS);
    c.federation = "NOR".into();
    c.chief_arbiter = arbiter_core::tournament::Arbiter::named("Doe, Jane");
    exec(store, "create", Command::CreateTournament(c)).await;
    for (i, p) in PLAYERS.iter().enumerate() {
        let mut r = RegisterPlayer::new(p.name, p.rating);
        r.fide_id = Some(100 + i as u64);
        r.title = p.title;
        r.federation = p.fed.into();
        r.sex = Some(p.sex);
        r.birth_date = Some(Date::new(p.born, 0, 0).unwrap());
        r.k_factor = p.k;
        exec(store, &format!("register-{i}"), Command::RegisterPlayer(r)).await;
    }
}

/// Starts, publishes (by hand), records every result of and closes `round`.
pub async fn play_round(store: &TournamentStore, round: u32) {
    exec(
        store,
        &format!("start-{round}"),
        Command::StartRound(StartRound {
            round,
            scheduled_unix_ms: None,
        }),
    )
    .await;
    let ps = pairs(round);
    exec(
        store,
        &format!("publish-{round}"),
        Command::PublishPairing(PublishPairing {
            round,
            proposal_version: None,
            changes: Some(ManualPairing {
                boards: ps.iter().map(|&(w, b)| Pair::new(w, b)).collect(),
                bye: None,
                team_bye: None,
                team_matches: Vec::new(),
            }),
            note: "round robin by the circle method".into(),
        }),
    )
    .await;
    for (i, &(w, b)) in ps.iter().enumerate() {
        exec(
            store,
            &format!("result-{round}-{}", i + 1),
            Command::RecordResult(RecordResult {
                round,
                board: i as u32 + 1,
                result: board_result(w, b),
            }),
        )
        .await;
    }
    exec(
        store,
        &format!("close-{round}"),
        Command::CloseRound(CloseRound { round }),
    )
    .await;
}

pub async fn correct(store: &TournamentStore, c: Correction) {
    let board = pairs(c.round)
        .iter()
        .position(|&(w, b)| w == c.white && b == c.black)
        .expect("a board of that round") as u32
        + 1;
    exec(
        store,
        &format!("correct-{}-{board}", c.round),
        Command::CorrectResult(CorrectResult {
            round: c.round,
            board,
            result: c.result,
            reason: "scoresheet checked".into(),
        }),
    )
    .await;
}

pub async fn finish(store: &TournamentStore) {
    exec(
        store,
        "finish",
        Command::FinishTournament(FinishTournament {}),
    )
    .await;
}

/// Player `pn`'s games through `through` (round, opponent, result), corrections applied.
pub fn games_of(pn: u32, through: u32, corrections: &[Correction]) -> Vec<(u32, u32, ResultCode)> {
    let mut out = Vec::new();
    for r in 1..=through {
        for (w, b) in pairs(r) {
            let res = final_result(r, w, b, corrections);
            let (white, black) = res.codes();
            if w == pn {
                out.push((r, b, white));
            } else if b == pn {
                out.push((r, w, black));
            }
        }
    }
    out
}

pub fn rule_set() -> RuleSet {
    RuleSet::in_force_on(arbiter_rating::Date::new(
        START.0,
        START.1 as u8,
        START.2 as u8,
    ))
    .unwrap()
}

/// `arbiter-rating`'s rating change of player `pn` for his games through `through`, with the K
/// the worker documents (given, else derived as an established player), and that K.
pub fn expected_change(pn: u32, through: u32, corrections: &[Correction]) -> (RatingChange, u32) {
    let p = &PLAYERS[pn as usize - 1];
    let games: Vec<RatedGame> = games_of(pn, through, corrections)
        .into_iter()
        .map(|(r, opp, res)| RatedGame::new(r, Some(PLAYERS[opp as usize - 1].rating as u16), res))
        .collect();
    let n = games
        .iter()
        .filter(|g| arbiter_rating::rated_score(g.result).is_some())
        .count() as u32;
    let k = if p.k > 0 {
        KFactor::given(p.k, n)
    } else {
        KFactor::derive(
            &KInputs {
                rating: p.rating as u16,
                birth_year: Some(p.born),
                period_year: START.0,
                rated_games_before: 30,
                ever_reached_2400: false,
            },
            n,
        )
    };
    (rating_change(rule_set(), p.rating as u16, k.k, &games), k.k)
}

/// `arbiter-rating`'s norm search for player `pn` over the whole event.
pub fn expected_norm(pn: u32, norm: NormKind, corrections: &[Correction]) -> NormSearch {
    let rounds: Vec<NormRound> = games_of(pn, ROUNDS, corrections)
        .into_iter()
        .map(|(r, opp, res)| {
            let o = &PLAYERS[opp as usize - 1];
            NormRound {
                round: r,
                result: res,
                opponent: Some(NormOpponent {
                    id: opp,
                    federation: Federation::new(o.fed).unwrap(),
                    titles: Titles::single(o.title),
                    rating: Some(o.rating as u16),
                }),
                exclusion: None,
            }
        })
        .collect();
    let own = Federation::new(PLAYERS[pn as usize - 1].fed).unwrap();
    find_norm(norm, own, &rounds, &NormEvent::swiss(ROUNDS))
}

/// The worker's appends in the stream: `(stored event, decoded payload)`.
pub async fn worker_events(log: &Arc<dyn EventLog>) -> Vec<(StoredEvent, pb::Event)> {
    log.read(STREAM, 1)
        .await
        .unwrap()
        .into_iter()
        .filter(|e| e.command_id.starts_with("rating-worker:"))
        .map(|e| {
            let w = e.decode_event().unwrap();
            (e, w)
        })
        .collect()
}

/// Triggers in the stream: events the worker answers.
pub async fn trigger_events(log: &Arc<dyn EventLog>) -> Vec<StoredEvent> {
    log.read(STREAM, 1)
        .await
        .unwrap()
        .into_iter()
        .filter(|e| {
            let w = e.decode_event().unwrap();
            matches!(
                w.kind,
                Some(Kind::ResultCorrected(_))
                    | Some(Kind::RoundClosed(_))
                    | Some(Kind::TournamentFinished(_))
            )
        })
        .collect()
}

/// Waits until every trigger of the stream has its answer (distinct worker command ids).
pub async fn wait_for_answers(log: &Arc<dyn EventLog>, answers: usize) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let mut ids: Vec<String> = worker_events(log)
            .await
            .into_iter()
            .map(|(e, _)| e.command_id)
            .collect();
        ids.dedup();
        if ids.len() >= answers {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "only {} of {answers} answers after 60 s",
            ids.len()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Points of a code in tenths, as the rating counts them.
pub fn tenths(s: Score) -> i32 {
    s.tenths()
}
