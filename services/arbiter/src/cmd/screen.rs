//! `arbiter screen GAMES.pgn`: fair-play screening of a PGN file, per player-performance, and
//! `arbiter screening-calibrate`: building a baseline artefact from Stockfish self-play.
//!
//! Exit codes: 0 screened, 3 invalid input (illegal move, truncated PGN, oversized file, bad
//! TRF), 4 the engine is missing or failed, 5 a file cannot be read or written.

use arbiter_screening::baseline::Baseline;
use arbiter_screening::cache::PositionCache;
use arbiter_screening::calibrate::{Plan, calibrate};
use arbiter_screening::filter::FilterConfig;
use arbiter_screening::pgn::{self, PgnError};
use arbiter_screening::policy::Policy;
use arbiter_screening::screen::{Analyser, Performance, Ratings, Versions, performances};
use arbiter_screening::uci::{EnginePool, EngineProfile, find_engine};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    Text,
    Json,
}

#[derive(Args)]
pub struct ScreenArgs {
    /// The games (PGN). Ratings come from the WhiteElo/BlackElo tags unless --players gives them.
    pub games: PathBuf,
    /// A TRF file whose player ratings (by name, as in the PGN) take precedence over the tags.
    #[arg(long)]
    pub players: Option<PathBuf>,
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// The UCI engine (default: $STOCKFISH_PATH, `stockfish` on PATH, /usr/games/stockfish).
    #[arg(long)]
    pub engine: Option<PathBuf>,
    /// Engine processes (one thread each); default: the machine's cores.
    #[arg(long)]
    pub workers: Option<usize>,
    /// A position cache file, read before and written after screening.
    #[arg(long)]
    pub cache: Option<PathBuf>,
    /// A baseline artefact other than the shipped one.
    #[arg(long)]
    pub baseline: Option<PathBuf>,
    /// Largest PGN accepted, in bytes.
    #[arg(long, default_value_t = pgn::DEFAULT_MAX_PGN_BYTES)]
    pub max_bytes: u64,
}

fn invalid(m: String) -> ExitCode {
    eprintln!("error: {m}");
    ExitCode::from(3)
}

fn engine_failed(m: String) -> ExitCode {
    eprintln!("error: {m}");
    ExitCode::from(4)
}

fn unreadable(m: String) -> ExitCode {
    eprintln!("error: {m}");
    ExitCode::from(5)
}

fn workers(asked: Option<usize>) -> usize {
    asked
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

fn bar(len: u64) -> ProgressBar {
    // Only a person at a terminal wants a bar; pipes and CI logs get the result alone.
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let b = ProgressBar::new(len);
    if let Ok(style) = ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} ({eta})") {
        b.set_style(style.progress_chars("=> "));
    }
    b
}

fn trf_ratings(path: &PathBuf) -> Result<Ratings, ExitCode> {
    let bytes = std::fs::read(path).map_err(|e| unreadable(format!("{}: {e}", path.display())))?;
    let trf = arbiter_trf::parse_bytes_with(&bytes, &arbiter_trf::ParseOptions::tolerant())
        .map_err(|e| invalid(format!("{}: {e}", path.display())))?;
    let mut out = Ratings::new();
    for r in &trf.file.records {
        if let arbiter_trf::Record::Player(p) = r
            && let Some(rating) = p.rating.filter(|&r| r > 0)
        {
            out.insert(p.name.clone(), rating);
        }
    }
    Ok(out)
}

pub fn run(a: ScreenArgs) -> ExitCode {
    // A collection does without a variant game or one missing its result (said on stderr);
    // an illegal move, a cut file or a bad tag still refuses the file.
    let games = match pgn::read_collection(&a.games, a.max_bytes) {
        Ok((g, skipped)) => {
            for e in &skipped {
                eprintln!("warning: skipped {e}");
            }
            g
        }
        Err(e @ PgnError::Unreadable { .. }) => return unreadable(e.to_string()),
        Err(e) => return invalid(e.to_string()),
    };
    let ratings = match &a.players {
        Some(p) => match trf_ratings(p) {
            Ok(r) => r,
            Err(code) => return code,
        },
        None => Ratings::new(),
    };
    let baseline = match &a.baseline {
        None => Baseline::shipped(),
        Some(p) => match std::fs::read_to_string(p) {
            Err(e) => return unreadable(format!("{}: {e}", p.display())),
            Ok(t) => match Baseline::parse(&t) {
                Ok(b) => b,
                Err(e) => return invalid(format!("{}: {e}", p.display())),
            },
        },
    };
    let cache = match &a.cache {
        Some(p) => match PositionCache::load(p) {
            Ok(c) => c,
            Err(e) => return invalid(e),
        },
        None => PositionCache::new(),
    };
    let engine = match find_engine(a.engine.as_deref()) {
        Ok(p) => p,
        Err(e) => return engine_failed(e.to_string()),
    };
    let policy = Policy::shipped();
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => return engine_failed(format!("cannot start the runtime: {e}")),
    };
    let progress = bar(games.len() as u64);
    progress.set_message("screening");
    let outcome = rt.block_on(async {
        let pool =
            EnginePool::start(&engine, baseline.engine_profile.clone(), workers(a.workers)).await?;
        let binary = pool.binary_sha256().to_string();
        let analyser = Analyser {
            pool,
            cache: Arc::new(cache),
            filter: baseline.filter.clone(),
        };
        let decisions = analyser.games(&games, &|| progress.inc(1)).await?;
        Ok::<_, arbiter_screening::uci::EngineError>((decisions, binary, analyser.cache))
    });
    progress.finish_and_clear();
    let (decisions, binary, cache) = match outcome {
        Ok(x) => x,
        Err(e) => return engine_failed(e.to_string()),
    };
    if let Some(p) = &a.cache
        && let Err(e) = cache.save(p)
    {
        return unreadable(e);
    }
    let versions = Versions::new(&baseline, &policy, &binary);
    let perfs = performances(&games, &decisions, &ratings, &baseline, &policy, &versions);
    match a.format {
        Format::Json => match serde_json::to_string_pretty(&perfs) {
            Ok(s) => println!("{s}"),
            Err(e) => return engine_failed(e.to_string()),
        },
        Format::Text => print_text(&perfs, &versions),
    }
    ExitCode::SUCCESS
}

fn print_text(perfs: &[Performance], v: &Versions) {
    println!(
        "Fair-play screening (quick test; advisory screening indicators, not the FIDE test)\n\
         engine profile {} ({}), baseline {}, policy {}\n",
        v.engine_profile, v.engine_profile_id, v.baseline, v.policy
    );
    println!(
        "{:<28} {:>6} {:>5} {:>7} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6} {:>6}  flag",
        "player",
        "rating",
        "games",
        "counted",
        "MM%",
        "EV%",
        "T3%",
        "ACPL",
        "ASD",
        "zMM",
        "zASD",
        "z"
    );
    for p in perfs {
        println!(
            "{:<28} {:>6} {:>5} {:>7} {:>6.1} {:>6.1} {:>6.1} {:>6.1} {:>6.3} {:>6.2} {:>6.2} {:>6.2}  {}{}",
            p.player.chars().take(28).collect::<String>(),
            p.rating.map_or("-".into(), |r| r.to_string()),
            p.games,
            p.counted,
            p.mm_rate * 100.0,
            p.ev_rate * 100.0,
            p.t3_rate * 100.0,
            p.acpl,
            p.asd,
            p.z_mm,
            p.z_asd,
            p.z,
            p.flag,
            if p.provisional { " (provisional)" } else { "" }
        );
    }
}

#[derive(Args)]
pub struct CalibrateArgs {
    /// Where to write the baseline artefact (JSON).
    #[arg(long)]
    pub out: PathBuf,
    /// The artefact's version string.
    #[arg(long)]
    pub version: String,
    #[arg(long, default_value_t = 18)]
    pub games_per_bucket: u32,
    /// Bucket centres, played at UCI_Elo = the centre (Stockfish 15.1: 1350..=2850).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "1400,1600,1800,2000,2200,2400,2600,2800"
    )]
    pub ratings: Vec<u16>,
    #[arg(long, default_value_t = 30_000)]
    pub player_nodes: u64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long)]
    pub workers: Option<usize>,
    #[arg(long)]
    pub engine: Option<PathBuf>,
}

pub fn calibrate_run(a: CalibrateArgs) -> ExitCode {
    if let Some(r) = a.ratings.iter().find(|r| !(1350..=2850).contains(*r)) {
        return invalid(format!(
            "--ratings: {r} is outside Stockfish's UCI_Elo range 1350..=2850"
        ));
    }
    let engine = match find_engine(a.engine.as_deref()) {
        Ok(p) => p,
        Err(e) => return engine_failed(e.to_string()),
    };
    let plan = Plan {
        ratings: a.ratings.clone(),
        games_per_bucket: a.games_per_bucket,
        player_nodes: a.player_nodes,
        seed: a.seed,
        workers: workers(a.workers),
        version: a.version.clone(),
    };
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => return engine_failed(format!("cannot start the runtime: {e}")),
    };
    let total = (plan.ratings.len() as u64) * u64::from(plan.games_per_bucket) * 2;
    let progress = bar(total);
    progress.set_message("calibrating");
    let result = rt.block_on(calibrate(
        &engine,
        EngineProfile::quick(),
        FilterConfig::default(),
        &plan,
        &|done, _| progress.set_position(done as u64),
    ));
    progress.finish_and_clear();
    let baseline = match result {
        Ok(b) => b,
        Err(e) => return engine_failed(e.to_string()),
    };
    let text = match serde_json::to_string_pretty(&baseline) {
        Ok(t) => t + "\n",
        Err(e) => return engine_failed(e.to_string()),
    };
    if let Err(e) = std::fs::write(&a.out, text) {
        return unreadable(format!("{}: {e}", a.out.display()));
    }
    println!(
        "{}: baseline {} ({} buckets)",
        a.out.display(),
        baseline.version,
        baseline.buckets.len()
    );
    ExitCode::SUCCESS
}
