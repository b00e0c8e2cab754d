//! `arbiter demo`: plays a seeded random tournament through a running server, exactly as an
//! arbiter would with `arbiter client`: create, register, then per round start, wait for the
//! pairing worker's proposal, publish, record random results (weighted by rating), close;
//! finally prints the standings.

use super::backend::{Exit, block_on, status_exit};
use super::client::{Clients, Connection, render_pairings};
use arbiter_core::tournament::BoardResult;
use arbiter_proto::events::v1 as pb;
use arbiter_proto::registration::v1 as reg;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(clap::Args, Debug)]
pub struct DemoArgs {
    #[command(flatten)]
    pub conn: Connection,
    #[arg(long, default_value_t = 16)]
    pub players: u32,
    #[arg(long, default_value_t = 5)]
    pub rounds: u32,
    /// The same seed plays the same tournament.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Print every round's pairings.
    #[arg(long)]
    pub verbose: bool,
}

pub fn run(a: DemoArgs) -> ExitCode {
    block_on(demo(a))
}

async fn demo(a: DemoArgs) -> Result<(), Exit> {
    if a.players < 2 || a.players > 9999 {
        return Err(Exit::Invalid("--players: 2..=9999".into()));
    }
    let started = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(a.seed);
    let mut c = Clients::connect(&a.conn, None)?;
    let created = c
        .registration
        .create_tournament(reg::CreateTournamentRequest {
            header: c.header(""),
            tournament: Some(arbiter_proto::registration::v1::TournamentSettings {
                name: format!("Demo {} players, seed {}", a.players, a.seed),
                place: "Demo".into(),
                start_date: Some(pb::Date {
                    year: 2026,
                    month: 1,
                    day: 1,
                }),
                end_date: Some(pb::Date {
                    year: 2026,
                    month: 1,
                    day: 9,
                }),
                chief_arbiter: Some(pb::Arbiter {
                    name: "Demo, Arbiter".into(),
                    fide_id: None,
                    title: String::new(),
                }),
                pairing_system: pb::PairingSystem::Dutch as i32,
                rounds: a.rounds,
                initial_color: pb::Color::White as i32,
                rating_kind: pb::RatingKind::Standard as i32,
                ..Default::default()
            }),
        })
        .await
        .map_err(|s| status_exit("create", &s))?
        .into_inner();
    let t = created.tournament_id;
    println!("tournament {t}");
    let mut ratings = std::collections::BTreeMap::new();
    for i in 1..=a.players {
        let rating: u32 = rng.random_range(1200..2700);
        c.registration
            .register_player(reg::RegisterPlayerRequest {
                header: c.header(&t),
                confirm_same_name: false,
                player: Some(arbiter_proto::registration::v1::PlayerDetails {
                    name: format!("Player, {i:04}"),
                    rating,
                    ..Default::default()
                }),
            })
            .await
            .map_err(|s| status_exit("register", &s))?;
    }
    let players = c
        .registration
        .list_players(reg::ListPlayersRequest {
            tournament: Some(arbiter_proto::common::v1::TournamentRef {
                tournament_id: t.clone(),
                as_of_version: 0,
            }),
        })
        .await
        .map_err(|s| status_exit("players", &s))?
        .into_inner();
    for r in players.players {
        let rating = r.player.map_or(0, |p| p.rating);
        ratings.insert(r.pairing_number, rating as i32);
    }
    for round in 1..=a.rounds {
        c.start_round(&t, round).await?;
        let proposed = c
            .wait_for_pairing(&t, round, Duration::from_secs(60))
            .await?;
        c.publish(&t, round).await?;
        if a.verbose {
            print!("{}", render_pairings(&proposed));
        }
        for b in proposed.boards.iter().filter_map(|b| b.board) {
            let d = ratings.get(&b.white).copied().unwrap_or(0)
                - ratings.get(&b.black).copied().unwrap_or(0);
            let result = if rng.random_range(0..100) < 30 {
                BoardResult::Draw
            } else if rng.random_range(0..1000) < (500 + d).clamp(50, 950) {
                BoardResult::WhiteWins
            } else {
                BoardResult::BlackWins
            };
            c.result(&t, round, b.number, result).await?;
        }
        c.close(&t, round).await?;
        println!("round {round}: {} boards", proposed.boards.len());
    }
    print!("{}", c.standings(&t, 0).await?);
    println!(
        "played {} rounds of {} players in {:.1} s",
        a.rounds,
        a.players,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
