//! `arbiter generate`: seeded random tournaments as TRF files, played through the tournament's
//! own commands and the pairing worker's engine (`arbiter-generator`). One file to standard
//! output or `--out FILE`; with `--count N` (or `--out` an existing folder), N files into the
//! folder `--out`, one per seed from `--seed` on, named `<system>-<players>-<seed>.trf`. The
//! same arguments give the same bytes.

use super::Failure;
use arbiter_generator::{Spec, System, generate, scoring};
use arbiter_interchange::trf_export::Dialect;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct GenerateArgs {
    /// dutch-2017, dutch-2025, dutch-2017-baku, dutch-2025-baku, burstein, dubov, lim,
    /// round-robin, double-round-robin, or FIDE's team Swiss (C.04.6) with type A, type B or
    /// no colour preferences: fide-team-a, fide-team-b, fide-team-none (`--players` then
    /// counts teams).
    #[arg(long, default_value = "dutch-2025")]
    pub system: String,
    #[arg(long, default_value_t = 20)]
    pub players: u32,
    /// Rounds of a Swiss event (default ⌈log2 players⌉ + 2, at most 11); a round robin plays
    /// all its rounds.
    #[arg(long)]
    pub rounds: Option<u32>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// How many tournaments, seeds `--seed`, `--seed` + 1, ...; more than one needs `--out`,
    /// a folder.
    #[arg(long, default_value_t = 1)]
    pub count: u64,
    /// Ratings from the top down to the bottom, evenly, e.g. 2400-1400.
    #[arg(long, default_value = "2400-1400")]
    pub ratings: String,
    /// Each rating moved by up to this many points either way.
    #[arg(long, default_value_t = 60)]
    pub rating_jitter: u32,
    /// Per mille of players without a rating.
    #[arg(long, default_value_t = 20)]
    pub unrated: u32,
    /// Per mille of games drawn.
    #[arg(long, default_value_t = 300)]
    pub draws: u32,
    /// Per mille of games lost by forfeit.
    #[arg(long, default_value_t = 20)]
    pub forfeits: u32,
    /// Per mille of unusual results: double forfeits, games decided with less than one move.
    #[arg(long, default_value_t = 5)]
    pub unusual: u32,
    /// Per mille of player-rounds with an announced half-point bye (Swiss only).
    #[arg(long, default_value_t = 30)]
    pub half_byes: u32,
    /// Per mille of player-rounds with an announced zero-point bye (Swiss only).
    #[arg(long, default_value_t = 10)]
    pub zero_byes: u32,
    /// Per mille of players withdrawing at each round from round 2 (Swiss only).
    #[arg(long, default_value_t = 5)]
    pub withdrawals: u32,
    /// Points for a win and a draw, WIN:DRAW (1:0.5, or 3:1 for football scoring).
    #[arg(long, default_value = "1:0.5")]
    pub scoring: String,
    /// The tie-break list written to the file (record 202 in TRF-2026); default: the list
    /// C.07 recommends for the event.
    #[arg(long)]
    pub tiebreaks: Option<String>,
    /// Boards per match of a team event.
    #[arg(long, default_value_t = 4)]
    pub boards: u32,
    /// A team event ranked and paired by game points instead of match points.
    #[arg(long)]
    pub game_points: bool,
    /// trf-2026 or trf16 (TRF16 with its engine extensions).
    #[arg(long, default_value = "trf-2026")]
    pub format: String,
    #[arg(long)]
    pub out: Option<PathBuf>,
}

pub fn run(a: GenerateArgs) -> ExitCode {
    match run_inner(&a) {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => f.report(),
    }
}

fn run_inner(a: &GenerateArgs) -> Result<(), Failure> {
    let invalid = Failure::Invalid;
    let system = System::parse(&a.system).ok_or_else(|| {
        let names: Vec<_> = System::ALL.iter().map(|s| s.name()).collect();
        invalid(format!(
            "--system {}: one of {}",
            a.system,
            names.join(", ")
        ))
    })?;
    let dialect = Dialect::parse(&a.format)
        .ok_or_else(|| invalid(format!("--format {}: trf-2026 or trf16", a.format)))?;
    let (top, bottom) = a
        .ratings
        .split_once('-')
        .and_then(|(t, b)| Some((t.trim().parse().ok()?, b.trim().parse().ok()?)))
        .ok_or_else(|| {
            invalid(format!(
                "--ratings {}: expected TOP-BOTTOM, e.g. 2400-1400",
                a.ratings
            ))
        })?;
    if !(2..=9999).contains(&a.players) {
        return Err(invalid(format!("--players {}: 2..=9999", a.players)));
    }
    if a.count == 0 {
        return Err(invalid("--count: at least 1".into()));
    }
    let mut spec = Spec::new(system, a.players, a.seed);
    spec.rounds = a.rounds;
    spec.rating_top = top;
    spec.rating_bottom = bottom;
    spec.rating_jitter = a.rating_jitter;
    spec.unrated = a.unrated;
    spec.draws = a.draws;
    spec.forfeits = a.forfeits;
    spec.unusual = a.unusual;
    spec.half_byes = a.half_byes;
    spec.zero_byes = a.zero_byes;
    spec.withdrawals = a.withdrawals;
    spec.scoring = scoring(&a.scoring).map_err(invalid)?;
    spec.tie_breaks = a.tiebreaks.clone().unwrap_or_default();
    if !(1..=arbiter_core::teams::MAX_BOARDS).contains(&a.boards) {
        return Err(invalid(format!(
            "--boards {}: a match has 1 to {} boards",
            a.boards,
            arbiter_core::teams::MAX_BOARDS
        )));
    }
    spec.boards = a.boards;
    spec.game_points_primary = a.game_points;
    let write = |path: &PathBuf, text: &str| {
        std::fs::write(path, text)
            .map_err(|e| Failure::Unreadable(format!("{}: {e}", path.display())))
    };
    // A tournament that ran out of legal pairings is written with the rounds it played; the
    // reason goes to standard error.
    let one = |seed: u64| {
        let mut s = spec.clone();
        s.seed = seed;
        let g = generate(&s, dialect).map_err(|e| Failure::Invalid(format!("seed {seed}: {e}")))?;
        if let Some(why) = &g.stopped {
            eprintln!("warning: seed {seed}: ended early: {why}");
        }
        Ok::<String, Failure>(g.trf)
    };
    // One tournament goes to standard output or the file named; into a folder when --out is one.
    if a.count == 1 && !a.out.as_ref().is_some_and(|p| p.is_dir()) {
        let text = one(a.seed)?;
        return match &a.out {
            Some(path) => write(path, &text),
            None => {
                print!("{text}");
                Ok(())
            }
        };
    }
    let dir = a
        .out
        .as_ref()
        .ok_or_else(|| invalid("--count above 1 needs --out, a folder".into()))?;
    std::fs::create_dir_all(dir)
        .map_err(|e| Failure::Unreadable(format!("{}: {e}", dir.display())))?;
    for seed in a.seed..a.seed + a.count {
        let text = one(seed)?;
        write(
            &dir.join(format!("{system}-{}-{seed}.trf", a.players)),
            &text,
        )?;
    }
    Ok(())
}
