//! Time to replay a 500-player, 13-round tournament as `arbiter replay` does: read the stream
//! from a sled log, verify the hash chain, fold every event, and re-run the 13 published
//! pairings from the events before them.
//!
//! ```sh
//! cargo bench -p arbiter --bench replay
//! ```
//!
//! The tournament is generated first (seeded): players registered, each round paired by the
//! engine exactly as the pairing worker does, published, random results, closed; its events are
//! appended to a temporary sled log in batches.

use arbiter_core::tournament::{
    Arbiter, BoardResult, CloseRound, Command, CreateTournament, Event, PublishPairing,
    RecordResult, RegisterPlayer, StartRound, State, decide,
};
use arbiter_eventlog::{EventLog, ExpectedVersion, SledLog, encode_events, verify_chain};
use arbiter_proto::convert::event_to_wire;
use arbiter_round_pairing::audit::audit;
use arbiter_round_pairing::engine::{Answer, answer};
use arbiter_service_kit::store::Folded;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};

const PLAYERS: u32 = 500;
const ROUNDS: u32 = 13;
const STREAM: &str = "tournament-bench";

struct Gen {
    state: State,
    events: Vec<Event>,
}

impl Gen {
    fn run(&mut self, c: Command) -> u64 {
        let evs = decide(&self.state, &c).unwrap_or_else(|e| panic!("{}: {e}", c.name()));
        for e in &evs {
            self.state.apply(e);
        }
        self.events.extend(evs);
        self.events.len() as u64
    }
}

fn generate() -> Vec<Event> {
    let mut rng = ChaCha8Rng::seed_from_u64(5013);
    let mut g = Gen {
        state: State::default(),
        events: Vec::new(),
    };
    let d = "2025-09-01".parse().unwrap();
    let mut create = CreateTournament::new("Bench Open", d, d, ROUNDS);
    create.chief_arbiter = Arbiter::named("Bench, Arbiter");
    g.run(Command::CreateTournament(create));
    for i in 1..=PLAYERS {
        g.run(Command::RegisterPlayer(RegisterPlayer::new(
            format!("Player, {i:04}"),
            rng.random_range(1000..2800),
        )));
    }
    for round in 1..=ROUNDS {
        let requested = g.run(Command::StartRound(StartRound {
            round,
            scheduled_unix_ms: None,
        }));
        let Answer::Proposed(p) = answer(&g.state, round, requested) else {
            panic!("round {round}: the engine found no pairing");
        };
        let boards = p.boards.clone();
        let proposal = g.run(Command::ProposePairing(p));
        g.run(Command::PublishPairing(PublishPairing {
            round,
            proposal_version: Some(proposal),
            changes: None,
            note: String::new(),
        }));
        for (i, _) in boards.iter().enumerate() {
            let x = rng.random_range(0..100);
            let result = match x {
                0..=2 => BoardResult::WhiteWinsForfeit,
                3..=32 => BoardResult::Draw,
                33..=66 => BoardResult::WhiteWins,
                _ => BoardResult::BlackWins,
            };
            g.run(Command::RecordResult(RecordResult {
                round,
                board: i as u32 + 1,
                result,
            }));
        }
        g.run(Command::CloseRound(CloseRound { round }));
    }
    g.events
}

fn best_of<T>(n: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut best = Duration::MAX;
    let mut out = None;
    for _ in 0..n {
        let t = Instant::now();
        let v = f();
        best = best.min(t.elapsed());
        out = Some(v);
    }
    (best, out.expect("n > 0"))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let t = Instant::now();
    let events = generate();
    let generated = t.elapsed();
    let log = SledLog::temporary().expect("sled");
    let t = Instant::now();
    rt.block_on(async {
        let mut version = 0u64;
        for (i, chunk) in events.chunks(200).enumerate() {
            let wire: Vec<_> = chunk.iter().map(event_to_wire).collect();
            let o = log
                .append(
                    STREAM,
                    ExpectedVersion::Exact(version),
                    &format!("bench-{i}"),
                    "bench",
                    encode_events(&wire),
                )
                .await
                .expect("append");
            version = o.last_version;
        }
    });
    let appended = t.elapsed();
    println!(
        "replay of a {PLAYERS}-player, {ROUNDS}-round tournament: {} events \
         (generated and paired in {:.1} s, appended in {:.1} s)",
        events.len(),
        generated.as_secs_f64(),
        appended.as_secs_f64()
    );

    let (read, stored) = best_of(5, || rt.block_on(log.read(STREAM, 1)).expect("read"));
    let (verify, broken) = best_of(5, || verify_chain(&stored));
    assert!(broken.is_none());
    let (fold, folded) = best_of(5, || Folded::from_stored(&stored).expect("fold"));
    assert_eq!(folded.state.closed_rounds(), ROUNDS);
    let (full, report) = best_of(3, || {
        let stored = rt.block_on(log.read(STREAM, 1)).expect("read");
        audit(STREAM, &stored)
    });
    assert!(report.log_intact());
    assert_eq!(report.rounds.len() as u32, ROUNDS);
    assert!(
        report.differing(true).is_empty(),
        "a re-run pairing differs:\n{}",
        report.render()
    );
    let n = stored.len() as f64;
    let pairing = full.saturating_sub(read + verify + fold);
    println!("  read the stream (sled)        {:>9.1} ms", ms(read));
    println!("  verify the hash chain         {:>9.1} ms", ms(verify));
    println!(
        "  fold into the state           {:>9.1} ms  ({:.0} events/s)",
        ms(fold),
        n / fold.as_secs_f64()
    );
    println!(
        "  re-run the {ROUNDS} pairings        {:>9.1} ms  ({:.0} ms per round, {} threads)",
        ms(pairing),
        ms(pairing) * threads() as f64 / ROUNDS as f64,
        threads()
    );
    println!(
        "  replay in all (read + verify + fold + re-pair): {:.1} ms, every round identical",
        ms(full)
    );
}

fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
