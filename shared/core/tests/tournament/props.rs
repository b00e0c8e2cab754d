//! Properties over random command sequences: `decide` never panics and is deterministic, every
//! event it produces folds cleanly, the state keeps its invariants, and replaying the produced
//! events from scratch gives the same state (apply is a pure fold). Random events folded
//! directly never panic either, and an event that does not fit leaves the state unchanged.

use crate::support::{date, digest, engine};
use arbiter_core::tournament::*;
use arbiter_core::{Color, PlayerId, PointSystem, ResultCode, Score};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use std::collections::BTreeSet;

const NAMES: &[&str] = &[
    "Adams, A",
    "Brown, B",
    "Clark, C",
    "Adams, A",
    "Diaz, D",
    "",
    "Bad\u{1}Name",
    "Évora, É",
];
const CODES: &[ResultCode] = &[
    ResultCode::Win,
    ResultCode::Draw,
    ResultCode::Loss,
    ResultCode::WinUnrated,
    ResultCode::DrawUnrated,
    ResultCode::LossUnrated,
    ResultCode::ForfeitWin,
    ResultCode::ForfeitLoss,
    ResultCode::HalfBye,
    ResultCode::FullBye,
    ResultCode::PairingBye,
    ResultCode::ZeroBye,
];

fn code() -> impl Strategy<Value = ResultCode> {
    proptest::sample::select(CODES)
}

fn board_result() -> impl Strategy<Value = BoardResult> {
    prop_oneof![
        6 => proptest::sample::select(vec![
            BoardResult::WhiteWins,
            BoardResult::Draw,
            BoardResult::BlackWins,
            BoardResult::WhiteWinsForfeit,
            BoardResult::BlackWinsForfeit,
            BoardResult::DoubleForfeit,
            BoardResult::WhiteWinsUnrated,
            BoardResult::DrawUnrated,
            BoardResult::BlackWinsUnrated,
        ]),
        1 => (code(), code()).prop_map(|(white, black)| BoardResult::ArbiterDecision { white, black }),
    ]
}

fn bye_kind() -> impl Strategy<Value = ByeKind> {
    proptest::sample::select(vec![
        ByeKind::HalfPoint,
        ByeKind::ZeroPoint,
        ByeKind::FullPoint,
    ])
}

fn system() -> impl Strategy<Value = PairingSystem> {
    prop_oneof![
        6 => Just(PairingSystem::Dutch),
        1 => proptest::sample::select(vec![
            PairingSystem::RoundRobin,
            PairingSystem::DoubleRoundRobin,
            PairingSystem::Burstein,
            PairingSystem::Dubov,
            PairingSystem::Lim,
        ]),
    ]
}

fn create_cmd() -> impl Strategy<Value = Command> {
    prop_oneof![
        6 => plausible_create(),
        1 => wild_create(),
    ]
}

/// A tournament most sequences can run.
fn plausible_create() -> impl Strategy<Value = Command> {
    (
        1u32..7,
        system(),
        prop_oneof![4 => Just(PointSystem::default()), 1 => Just(PointSystem::with_win_draw(Score::points(3), Score::points(1)))],
        proptest::option::weighted(0.2, Just(None)),
        proptest::sample::select(vec!["2024-05-01", "2025-07-01", "2026-01-10"]),
    )
        .prop_map(|(rounds, pairing_system, scoring, accel, start)| {
            let mut c = CreateTournament::new("Prop Open", date(start), date("2026-12-31"), rounds);
            c.chief_arbiter = Arbiter::named("Chief");
            c.pairing_system = pairing_system;
            c.scoring = scoring;
            c.acceleration = accel.map(|rounds| AccelerationChoice { method: AccelerationMethod::Baku, rounds });
            Command::CreateTournament(c)
        })
}

/// Anything, valid or not.
fn wild_create() -> impl Strategy<Value = Command> {
    (
        0u32..8,
        system(),
        proptest::option::weighted(
            0.5,
            proptest::sample::select(vec!["dutch-2017", "dutch-2025", "berger", "nope"]),
        ),
        (-5i32..40, -5i32..40).prop_map(|(w, d)| PointSystem::with_win_draw(Score(w), Score(d))),
        proptest::option::weighted(
            0.5,
            (0u32..3, 0u32..8).prop_map(|(a, b)| if a == 0 { None } else { Some((a, b)) }),
        ),
        proptest::sample::select(vec!["2024-05-01", "2025-07-01", "2026-01-10"]),
        any::<bool>(),
    )
        .prop_map(
            |(rounds, pairing_system, rule_set, scoring, accel, start, no_color)| {
                let mut c =
                    CreateTournament::new("Prop Open", date(start), date("2026-12-31"), rounds);
                c.chief_arbiter = Arbiter::named("Chief");
                c.pairing_system = pairing_system;
                c.rule_set = rule_set.map(str::to_string);
                c.scoring = scoring;
                c.acceleration = accel.map(|rounds| AccelerationChoice {
                    method: AccelerationMethod::Baku,
                    rounds,
                });
                if no_color {
                    c.initial_color = None;
                }
                Command::CreateTournament(c)
            },
        )
}

/// A command built from the current state (so that sequences reach deep states), or a random
/// one.
#[derive(Debug, Clone)]
enum Op {
    Raw(Box<Command>),
    Register {
        name: usize,
        rating: u32,
        fide_id: Option<u64>,
        first_round: Option<u32>,
        missed: ByeKind,
    },
    StartNext,
    ProposeGreedy(u64),
    Publish,
    RecordNext(BoardResult),
    CorrectSome(u64, BoardResult),
    CloseCurrent,
    Finish,
}

fn raw_command() -> impl Strategy<Value = Command> {
    let round = 0u32..7;
    let pn = 0u32..12;
    prop_oneof![
        create_cmd(),
        (
            proptest::option::of(0u32..8),
            proptest::option::of(Just("SB, DE".to_string()))
        )
            .prop_map(|(rounds, tie_breaks)| {
                Command::UpdateTournament(UpdateTournament {
                    rounds,
                    tie_breaks,
                    ..Default::default()
                })
            }),
        (pn.clone(), round.clone()).prop_map(|(player, from_round)| Command::WithdrawPlayer(
            WithdrawPlayer {
                player,
                from_round,
                reason: String::new()
            }
        )),
        (pn.clone(), round.clone(), bye_kind()).prop_map(|(player, round, kind)| {
            Command::RequestBye(RequestBye {
                player,
                round,
                kind,
            })
        }),
        (pn.clone(), round.clone())
            .prop_map(|(player, round)| Command::CancelBye(CancelBye { player, round })),
        (pn.clone(), round.clone()).prop_map(|(player, round)| Command::DeclareAbsence(
            DeclareAbsence {
                player,
                round,
                reason: "r".into()
            }
        )),
        round
            .clone()
            .prop_map(|round| Command::StartRound(StartRound {
                round,
                scheduled_unix_ms: None
            })),
        round
            .clone()
            .prop_map(|round| Command::RequestPairing(RequestPairing { round })),
        (
            round.clone(),
            0u32..4,
            proptest::collection::vec((pn.clone(), pn.clone()), 0..6),
            proptest::option::of(pn.clone())
        )
            .prop_map(|(round, attempt, boards, bye)| Command::ProposePairing(
                ProposePairing {
                    round,
                    attempt,
                    boards: boards.into_iter().map(|(w, b)| Pair::new(w, b)).collect(),
                    bye,
                    engine: engine(),
                    rule_set: "dutch-2025".into(),
                    based_on_version: 0,
                    input_digest: digest(),
                    explanation: String::new(),
                    team_bye: None,
                    team_matches: Vec::new(),
                }
            )),
        (round.clone(), 0u32..4).prop_map(|(round, attempt)| Command::ReportPairingFailure(
            ReportPairingFailure {
                round,
                attempt,
                engine: engine(),
                rule_set: "dutch-2025".into(),
                based_on_version: 0,
                input_digest: Vec::new(),
                reason: "none".into(),
            }
        )),
        (
            round.clone(),
            proptest::option::of(proptest::collection::vec((pn.clone(), pn.clone()), 0..6)),
            proptest::option::of(pn.clone())
        )
            .prop_map(
                |(round, boards, bye)| Command::PublishPairing(PublishPairing {
                    round,
                    proposal_version: Some(1),
                    changes: boards.map(|b| ManualPairing {
                        boards: b.into_iter().map(|(w, b)| Pair::new(w, b)).collect(),
                        bye,
                        team_bye: None,
                        team_matches: Vec::new(),
                    }),
                    note: "by hand".into(),
                })
            ),
        (round.clone(), 0u32..7, board_result()).prop_map(|(round, board, result)| {
            Command::RecordResult(RecordResult {
                round,
                board,
                result,
            })
        }),
        (round.clone(), 0u32..7, board_result()).prop_map(|(round, board, result)| {
            Command::CorrectResult(CorrectResult {
                round,
                board,
                result,
                reason: "fix".into(),
            })
        }),
        round.prop_map(|round| Command::CloseRound(CloseRound { round })),
        Just(Command::FinishTournament(FinishTournament {})),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        2 => raw_command().prop_map(|c| Op::Raw(Box::new(c))),
        3 => register_op(),
        2 => Just(Op::StartNext),
        3 => any::<u64>().prop_map(Op::ProposeGreedy),
        3 => Just(Op::Publish),
        8 => board_result().prop_map(Op::RecordNext),
        3 => Just(Op::CloseCurrent),
        1 => (any::<u64>(), board_result()).prop_map(|(seed, r)| Op::CorrectSome(seed, r)),
        1 => Just(Op::Finish),
    ]
}

fn register_op() -> impl Strategy<Value = Op> {
    (
        0..NAMES.len(),
        prop_oneof![20 => 0u32..3000, 1 => Just(10_001)],
        proptest::option::weighted(0.4, 1u64..12),
        proptest::option::weighted(0.15, 0u32..6),
        bye_kind(),
    )
        .prop_map(
            |(name, rating, fide_id, first_round, missed)| Op::Register {
                name,
                rating,
                fide_id,
                first_round,
                missed,
            },
        )
}

/// A tournament, a few players, then anything.
fn scenario() -> impl Strategy<Value = Vec<Op>> {
    (
        proptest::option::weighted(0.95, create_cmd()),
        proptest::collection::vec(register_op(), 0..10),
        proptest::collection::vec(op(), 0..160),
    )
        .prop_map(|(create, regs, ops)| {
            create
                .map(|c| Op::Raw(Box::new(c)))
                .into_iter()
                .chain(regs)
                .chain(ops)
                .collect()
        })
}

fn next_random(seed: &mut u64) -> u64 {
    // xorshift64*
    *seed ^= *seed >> 12;
    *seed ^= *seed << 25;
    *seed ^= *seed >> 27;
    seed.wrapping_mul(0x2545_F491_4F6C_DD1D)
}

impl Op {
    fn command(&self, s: &State) -> Command {
        let current = s.current_round().unwrap_or(0);
        match self {
            Op::Raw(c) => (**c).clone(),
            Op::Register {
                name,
                rating,
                fide_id,
                first_round,
                missed,
            } => Command::RegisterPlayer(RegisterPlayer {
                fide_id: *fide_id,
                first_round: *first_round,
                missed_rounds: *missed,
                ..RegisterPlayer::new(NAMES[*name], *rating)
            }),
            Op::StartNext => Command::StartRound(StartRound {
                round: current + 1,
                scheduled_unix_ms: Some(0),
            }),
            Op::ProposeGreedy(seed) => greedy_proposal(s, *seed),
            Op::Publish => Command::PublishPairing(PublishPairing {
                round: current.max(1),
                proposal_version: Some(7),
                changes: None,
                note: String::new(),
            }),
            Op::RecordNext(result) => {
                let board = s
                    .published(current)
                    .and_then(|p| {
                        p.boards
                            .iter()
                            .find(|b| b.result.is_none())
                            .map(|b| b.number)
                    })
                    .unwrap_or(1);
                Command::RecordResult(RecordResult {
                    round: current.max(1),
                    board,
                    result: *result,
                })
            }
            Op::CorrectSome(seed, result) => {
                let rounds = s.published_rounds().max(1);
                let round = 1 + (*seed % u64::from(rounds)) as u32;
                let boards = s
                    .published(round)
                    .map_or(1, |p| p.boards.len().max(1) as u64);
                let board = 1 + ((*seed >> 16) % boards) as u32;
                Command::CorrectResult(CorrectResult {
                    round,
                    board,
                    result: *result,
                    reason: "appeal".into(),
                })
            }
            Op::CloseCurrent => Command::CloseRound(CloseRound {
                round: current.max(1),
            }),
            Op::Finish => Command::FinishTournament(FinishTournament {}),
        }
    }
}

/// Pairs the available players in a shuffled order, avoiding played opponents where it can.
fn greedy_proposal(s: &State, mut seed: u64) -> Command {
    seed |= 1;
    let round = s.pending_round().unwrap_or(1);
    let rule_set = s
        .tournament()
        .map(|t| t.rule_set.clone())
        .unwrap_or_default();
    let Ok(input) = s.pairing_input(round) else {
        return Command::RequestPairing(RequestPairing { round });
    };
    let mut left: Vec<&PairingCandidate> = input.available().collect();
    for i in (1..left.len()).rev() {
        let j = (next_random(&mut seed) % (i as u64 + 1)) as usize;
        left.swap(i, j);
    }
    let met = |a: &PairingCandidate, b: PlayerId| {
        a.history
            .iter()
            .any(|e| e.is_played_game() && e.opponent == Some(b))
    };
    let mut boards = Vec::new();
    while left.len() >= 2 {
        let a = left.remove(0);
        let k = left
            .iter()
            .position(|b| !met(a, b.player.player_id))
            .unwrap_or(0);
        let b = left.remove(k);
        boards.push(if next_random(&mut seed).is_multiple_of(2) {
            Pair::new(a.player.player_id, b.player.player_id)
        } else {
            Pair::new(b.player.player_id, a.player.player_id)
        });
    }
    Command::ProposePairing(ProposePairing {
        round,
        attempt: input.attempt,
        boards,
        bye: left.first().map(|p| p.player.player_id),
        engine: engine(),
        rule_set,
        based_on_version: 0,
        input_digest: digest(),
        explanation: "greedy".into(),
        team_bye: None,
        team_matches: Vec::new(),
    })
}

fn check_invariants(s: &State) -> Result<(), TestCaseError> {
    let n = s.player_count();
    let mut entries = BTreeSet::new();
    for pn in 1..=n {
        let p = s
            .player(pn)
            .ok_or_else(|| TestCaseError::fail(format!("no player {pn}")))?;
        prop_assert_eq!(p.pairing_number(), pn);
        prop_assert!(entries.insert(p.entry), "entry {} twice", p.entry);
    }
    prop_assert_eq!(s.players().count() as u32, n);
    let scoring = s.tournament().map(|t| t.scoring).unwrap_or_default();
    for (pn, score) in s.scores() {
        let sum: Score = s
            .history(pn)
            .into_iter()
            .flatten()
            .map(|e| scoring.points(e.result))
            .sum();
        prop_assert_eq!(score, sum, "score of {}", pn);
    }
    for r in 1..=s.published_rounds() {
        let p = s.published(r).unwrap();
        let mut seen = BTreeSet::new();
        for b in &p.boards {
            prop_assert_ne!(b.white, b.black);
            prop_assert!(
                seen.insert(b.white) && seen.insert(b.black),
                "round {} lists a player twice",
                r
            );
            let (w, bl) = (s.entry(b.white, r), s.entry(b.black, r));
            if let (Some(w), Some(bl)) = (w, bl) {
                prop_assert_eq!(w.opponent, Some(b.black));
                prop_assert_eq!(w.color, Some(Color::White));
                prop_assert_eq!(bl.opponent, Some(b.white));
            }
        }
        for u in &p.unpaired {
            prop_assert!(seen.insert(u.player_id), "round {} lists a player twice", r);
        }
        for pl in s.players() {
            if pl.first_round <= r {
                prop_assert!(
                    seen.contains(&pl.pairing_number()),
                    "player {} missing in round {}",
                    pl.pairing_number(),
                    r
                );
            }
        }
        if s.round_phase(r) == Some(RoundPhase::Closed) {
            prop_assert!(p.boards.iter().all(|b| b.result.is_some()));
        }
    }
    if let Some(r) = s.pending_round() {
        let input = s
            .pairing_input(r)
            .map_err(|e| TestCaseError::fail(format!("pairing input of pending round {r}: {e}")))?;
        prop_assert_eq!(input.players.len() as u32, n);
        prop_assert!(
            input
                .players
                .iter()
                .all(|p| p.history.len() as u32 == r - 1)
        );
    }
    Ok(())
}

fn run(ops: &[Op]) -> Result<(), TestCaseError> {
    let mut state = State::default();
    let mut log: Vec<Event> = Vec::new();
    for (i, op) in ops.iter().enumerate() {
        // Commands built from the state see the state as it is when they run.
        let cmd = op.command(&state);
        let first = decide(&state, &cmd);
        let second = decide(&state, &cmd);
        prop_assert_eq!(&first, &second, "decide is not deterministic at step {}", i);
        match first {
            Ok(events) => {
                prop_assert!(!events.is_empty(), "{} produced no event", cmd.name());
                for e in &events {
                    if let Err(err) = state.try_apply(e) {
                        return Err(TestCaseError::fail(format!(
                            "step {i}: {} from {} does not fold: {err}",
                            e.kind(),
                            cmd.name()
                        )));
                    }
                }
                log.extend(events);
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
        check_invariants(&state)?;
    }
    prop_assert_eq!(State::from_events(&log), state);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_command_sequences_never_panic_and_replay_to_the_same_state(
        ops in scenario(),
    ) {
        run(&ops)?;
    }
}

// --- random events -----------------------------------------------------------------------------

fn created_event() -> Event {
    let mut c = CreateTournament::new("Raw", date("2025-08-01"), date("2025-08-09"), 5);
    c.chief_arbiter = Arbiter::named("Chief");
    c.acceleration = Some(AccelerationChoice {
        method: AccelerationMethod::Baku,
        rounds: None,
    });
    decide(&State::default(), &Command::CreateTournament(c))
        .unwrap()
        .remove(0)
}

fn raw_player(pn: PlayerId, rating: u32) -> Player {
    Player {
        player_id: pn,
        name: format!("P{pn}-{rating}"),
        rating,
        ..Player::default()
    }
}

fn boards() -> impl Strategy<Value = Vec<Board>> {
    proptest::collection::vec((0u32..9, 0u32..9), 0..5).prop_map(|v| {
        v.into_iter()
            .enumerate()
            .map(|(i, (white, black))| Board {
                number: i as u32 + 1,
                white,
                black,
            })
            .collect()
    })
}

fn unpaired() -> impl Strategy<Value = Vec<Unpaired>> {
    proptest::collection::vec((0u32..9, code()), 0..3).prop_map(|v| {
        v.into_iter()
            .map(|(player_id, code)| Unpaired { player_id, code })
            .collect()
    })
}

fn event() -> impl Strategy<Value = Event> {
    let round = 0u32..7;
    let pn = 0u32..9;
    prop_oneof![
        1 => Just(created_event()),
        4 => (pn.clone(), 0u32..3000).prop_map(|(pn, r)| Event::PlayerRegistered(PlayerRegistered { player: raw_player(pn, r) })),
        1 => (pn.clone(), 0u32..3000, round.clone(), proptest::collection::vec(code(), 0..4)).prop_map(|(pn, r, first_round, missed_rounds)| {
            Event::LateEntry(LateEntry { player: raw_player(pn, r), first_round, missed_rounds })
        }),
        1 => (pn.clone(), round.clone()).prop_map(|(player_id, from_round)| Event::PlayerWithdrawn(PlayerWithdrawn { player_id, from_round, reason: String::new() })),
        1 => (pn.clone(), round.clone(), bye_kind()).prop_map(|(player_id, round, kind)| Event::ByeRequested(ByeRequested { player_id, round, kind })),
        1 => (pn.clone(), round.clone()).prop_map(|(player_id, round)| Event::ByeCancelled(ByeCancelled { player_id, round })),
        1 => (pn.clone(), round.clone()).prop_map(|(player_id, round)| Event::AbsenceDeclared(AbsenceDeclared { player_id, round, reason: String::new() })),
        3 => round.clone().prop_map(|round| Event::RoundStarted(RoundStarted { round, scheduled_unix_ms: None })),
        2 => (round.clone(), 0u32..3).prop_map(|(round, attempt)| Event::PairingRequested(PairingRequested { round, rule_set: "dutch-2025".into(), attempt })),
        2 => (round.clone(), boards(), unpaired()).prop_map(|(round, boards, unpaired)| Event::PairingProposed(PairingProposed {
            round,
            attempt: 1,
            boards,
            unpaired,
            engine: engine(),
            rule_set: "dutch-2025".into(),
            based_on_version: 0,
            input_digest: Vec::new(),
            explanation: String::new(),
            team_bye: None, team_matches: Vec::new(),
        })),
        1 => round.clone().prop_map(|round| Event::PairingFailed(PairingFailed {
            round,
            attempt: 1,
            engine: engine(),
            rule_set: "dutch-2025".into(),
            based_on_version: 0,
            input_digest: Vec::new(),
            reason: "x".into(),
        })),
        3 => (round.clone(), boards(), unpaired()).prop_map(|(round, boards, unpaired)| Event::PairingPublished(PairingPublished {
            round,
            proposal_version: None,
            boards,
            unpaired,
            manually_changed: false,
            note: String::new(),
            team_bye: None, team_matches: Vec::new(),
        })),
        4 => (round.clone(), 0u32..5, board_result()).prop_map(|(round, board, result)| Event::ResultRecorded(ResultRecorded { round, board, result })),
        2 => (round.clone(), 0u32..5, board_result(), board_result()).prop_map(|(round, board, previous, corrected)| {
            Event::ResultCorrected(ResultCorrected { round, board, previous, corrected, reason: String::new() })
        }),
        2 => round.clone().prop_map(|round| Event::RoundClosed(RoundClosed { round })),
        1 => round.clone().prop_map(|rounds_played| Event::TournamentFinished(TournamentFinished { rounds_played })),
        1 => proptest::option::of(0u32..9).prop_map(|rounds| Event::TournamentUpdated(TournamentUpdated { rounds, ..Default::default() })),
    ]
}

/// Reads every view of the state (none may panic).
fn read_everything(s: &State) {
    let _ = (
        s.scores(),
        s.byes_requested(),
        s.absences(),
        s.withdrawals(),
        s.initial_ranking_ties(),
    );
    let _ = (
        s.next_open_round(),
        s.pending_round(),
        s.published_rounds(),
        s.closed_rounds(),
        s.corrections().len(),
    );
    for r in 0..9 {
        let _ = (
            s.published(r),
            s.proposal(r),
            s.pairing_failure(r),
            s.pairing_input(r),
            s.correction_effect(r),
        );
        for pn in 0..10 {
            let _ = (
                s.entry(pn, r),
                s.final_entry(pn, r),
                s.availability(pn, r),
                s.virtual_points(pn, r),
                s.score_after(pn, r),
            );
        }
    }
    for pn in 0..10 {
        let _ = (s.history(pn), s.score(pn), s.player(pn));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn folding_random_events_never_panics_and_a_misfit_changes_nothing(
        events in proptest::collection::vec(event(), 0..60),
    ) {
        let mut state = State::default();
        for e in &events {
            let before = state.clone();
            if state.try_apply(e).is_err() {
                prop_assert_eq!(&state, &before, "{} was refused but changed the state", e.kind());
            }
            read_everything(&state);
            // A command decided on any state is refused or folds cleanly.
            for c in [
                Command::StartRound(StartRound { round: state.current_round().unwrap_or(0) + 1, scheduled_unix_ms: None }),
                Command::CloseRound(CloseRound { round: state.current_round().unwrap_or(1) }),
                Command::RegisterPlayer(RegisterPlayer::new("New, Player", 1500)),
                Command::FinishTournament(FinishTournament {}),
            ] {
                if let Ok(out) = decide(&state, &c) {
                    let mut next = state.clone();
                    for e in &out {
                        prop_assert!(next.try_apply(e).is_ok(), "{} from {} does not fold", e.kind(), c.name());
                    }
                }
            }
        }
        prop_assert_eq!(State::from_events(&events), state);
    }
}

/// The command generator must reach deep states, or the sequence property proves little.
#[test]
fn random_sequences_reach_published_and_closed_rounds_and_corrections() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, TestRunner};
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        proptest::test_runner::TestRng::deterministic_rng(Config::default().rng_algorithm),
    );
    let strategy = scenario();
    let (mut published, mut closed, mut two_rounds, mut late, mut finished, mut corrections) =
        (0, 0, 0, 0, 0, 0);
    for _ in 0..200 {
        let ops = strategy.new_tree(&mut runner).unwrap().current();
        let mut state = State::default();
        for op in ops {
            if let Ok(events) = decide(&state, &op.command(&state)) {
                for e in &events {
                    state.apply(e);
                    late += matches!(e, Event::LateEntry(_)) as u32;
                    corrections += matches!(e, Event::ResultCorrected(_)) as u32;
                }
            }
        }
        published += (state.published_rounds() >= 1) as u32;
        closed += (state.closed_rounds() >= 1) as u32;
        two_rounds += (state.published_rounds() >= 2) as u32;
        finished += state.is_finished() as u32;
    }
    eprintln!(
        "runs: published {published}, closed {closed}, two rounds {two_rounds}, finished {finished}, \
         late entries {late}, corrections {corrections}"
    );
    assert!(
        published >= 80,
        "only {published} of 200 runs published a round"
    );
    assert!(closed >= 60, "only {closed} of 200 runs closed a round");
    assert!(
        two_rounds >= 30,
        "only {two_rounds} of 200 runs published two rounds"
    );
    assert!(finished >= 5, "only {finished} of 200 runs finished");
    assert!(late >= 20, "only {late} late entries in 200 runs");
    assert!(
        corrections >= 20,
        "only {corrections} corrections in 200 runs"
    );
}
