//! `arbiter screen GAMES.pgn`: fair-play screening of a PGN file, per player-performance, and
//! `arbiter screening-calibrate`: building a baseline artefact from Stockfish self-play.
//!
//! Exit codes: 0 screened, 3 invalid input (an illegal move with --strict or in every game,
//! truncated PGN, a PGN syntax error
//! naming its line and game, oversized file, bad TRF), 4 the engine is missing or failed, 5 a
//! file cannot be read or written. A PGN that is not UTF-8 is read as Windows-1252 / Latin-1
//! with a warning naming the file.

use arbiter_screening::baseline::Baseline;
use arbiter_screening::cache::PositionCache;
use arbiter_screening::calibrate::{Given, Plan, Players, calibrate, calibrate_full};
use arbiter_screening::filter::Decision;
use arbiter_screening::filter::FilterConfig;
use arbiter_screening::full::FullBaseline;
use arbiter_screening::pgn::{self, PgnError};
use arbiter_screening::policy::Policy;
use arbiter_screening::screen::{
    Analyser, Performance, Ratings, Scope, Versions, at_watch_or_above, full_performances,
    full_performances_of, games_of, performances,
};
use arbiter_screening::uci::{EngineProfile, find_engine};
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
    /// A baseline artefact other than the shipped default: a file, or the version of another
    /// shipped one (e.g. sf15.1-n20k-mpv3/selfplay-2026.11.1).
    #[arg(long)]
    pub baseline: Option<PathBuf>,
    /// Largest PGN accepted, in bytes.
    #[arg(long, default_value_t = pgn::DEFAULT_MAX_PGN_BYTES)]
    pub max_bytes: u64,
    /// Refuse the whole file when a game is not legal chess (by default such a game is left
    /// out with a warning naming it, as variant games are).
    #[arg(long)]
    pub strict: bool,
    /// The full test (20 ranked candidates at a deeper budget, the move-probability law,
    /// IPR with a 95 % interval) instead of the quick test; --baseline then names a full-test
    /// baseline.
    #[arg(long)]
    pub full: bool,
    /// The policy's order: the quick test on every performance, then the full test on the
    /// games of those it raises to Watch (Flag can come only from there). --baseline names
    /// the quick test's baseline, --full-baseline the full test's.
    #[arg(long, conflicts_with = "full")]
    pub then_full: bool,
    /// With --then-full: the full test's baseline (a file, or a shipped version).
    #[arg(long, requires = "then_full")]
    pub full_baseline: Option<PathBuf>,
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
    // Decoded as TRF files are: UTF-8, else Windows-1252 / Latin-1, said on stderr (a name's
    // accents read in the wrong encoding would be another name).
    let (text, shown) = match pgn::read_text(&a.games, a.max_bytes) {
        Ok((text, encoding, shown)) => {
            if encoding != pgn::Encoding::Utf8 {
                eprintln!(
                    "warning: {shown}: the file is not valid UTF-8; it was read as \
                     Windows-1252 / Latin-1"
                );
            }
            (text, shown)
        }
        Err(e @ PgnError::Unreadable { .. }) => return unreadable(e.to_string()),
        Err(e) => return invalid(e.to_string()),
    };
    // A collection does without a variant game, one missing its result or one that is not
    // legal chess (said on stderr; --strict refuses the last); a cut file, a syntax error or
    // a bad tag still refuses the file.
    let games = match pgn::parse_collection(&text, &shown, a.max_bytes) {
        Ok((_, ref skipped))
            if a.strict
                && let Some(e) = skipped
                    .iter()
                    .find(|e| matches!(e, PgnError::IllegalMove { .. })) =>
        {
            return invalid(format!("{e} (--strict)"));
        }
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
    let first = match a.full {
        false => load_baseline("--baseline", a.baseline.as_deref(), &QUICK).map(Judge::Quick),
        true => load_baseline("--baseline", a.baseline.as_deref(), &FULL).map(Judge::Full),
    };
    let then = match a.then_full {
        false => Ok(None),
        true => load_baseline("--full-baseline", a.full_baseline.as_deref(), &FULL).map(Some),
    };
    let (first, then) = match (first, then) {
        (Ok(f), Ok(t)) => (f, t),
        (Err(code), _) | (_, Err(code)) => return code,
    };
    // Performances are judged (and shown) on the baseline's rating scale: say so when that
    // changes a rating.
    let how_made = std::iter::once(first.how_made()).chain(then.as_ref().map(|b| &b.how_made));
    if how_made
        .into_iter()
        .any(|h| arbiter_screening::screen::on_baseline_scale(h, &games, &ratings).is_some())
    {
        eprintln!(
            "note: ratings of games played before 1 March 2024 are judged (and shown) on \
             the FIDE scale since that day, the baseline's: 0.4 x (2000 - R) more for \
             1000-1999"
        );
    }
    let cache = match load_cache(a.cache.as_deref()) {
        Ok(c) => Arc::new(c),
        Err(code) => return code,
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
    let workers = workers(a.workers);
    let outcome = rt.block_on(async {
        let (profile, filter) = (first.profile(), first.filter());
        let (decisions, binary) =
            analyse(&engine, profile, filter, &games, workers, &cache).await?;
        let (versions, perfs) = first.judge(&games, &decisions, &ratings, &policy, &binary);
        let Some(b) = &then else {
            return Ok((versions, perfs, None));
        };
        // The full test for the performances at Watch, on their games only; the policy's
        // thresholds take the whole field's size.
        let watched = at_watch_or_above(&perfs);
        if watched.is_empty() {
            let v = Versions::full(b, &policy, &binary);
            return Ok((versions, perfs, Some((v, Vec::new()))));
        }
        let their_games = games_of(&games, &watched);
        let (profile, filter) = (&b.engine_profile, &b.filter);
        let (wide, binary) =
            analyse(&engine, profile, filter, &their_games, workers, &cache).await?;
        let v = Versions::full(b, &policy, &binary);
        let scope = Scope {
            players: Some(&watched),
            field_size: Some(perfs.len() as u32),
        };
        let followed = full_performances_of(scope, &their_games, &wide, &ratings, b, &policy, &v);
        Ok::<_, arbiter_screening::uci::EngineError>((versions, perfs, Some((v, followed))))
    });
    let saved = save_cache(a.cache.as_deref(), &cache);
    let (versions, perfs, followed) = match outcome {
        Ok(x) => x,
        Err(e) => return engine_failed(e.to_string()),
    };
    if let Err(code) = saved {
        return code;
    }
    match (a.format, followed) {
        (Format::Json, None) => match serde_json::to_string_pretty(&perfs) {
            Ok(s) => println!("{s}"),
            Err(e) => return engine_failed(e.to_string()),
        },
        (Format::Json, Some((_, full))) => {
            let both = serde_json::json!({ "quick": perfs, "full": full });
            match serde_json::to_string_pretty(&both) {
                Ok(s) => println!("{s}"),
                Err(e) => return engine_failed(e.to_string()),
            }
        }
        (Format::Text, followed) => {
            print_text(&perfs, &versions);
            if let Some((v, full)) = followed {
                println!();
                if full.is_empty() {
                    println!(
                        "No performance reached Watch: the full test, which alone can raise \
                         Flag, is not run (the policy's order)."
                    );
                } else {
                    println!(
                        "The full test of the {} performance(s) at Watch, on their games \
                         (the policy's order: Flag can come only from here):\n",
                        full.len()
                    );
                    print_text(&full, &v);
                }
            }
        }
    }
    ExitCode::SUCCESS
}

/// What loading one test's baselines needs: its default, its shipped versions and its parser.
struct Shipped<B> {
    default: fn() -> B,
    by_version: fn(&str) -> Option<B>,
    versions: fn() -> Vec<String>,
    parse: fn(&str) -> Result<B, String>,
    /// How a refusal names the test's baselines.
    kind: &'static str,
}

const QUICK: Shipped<Baseline> = Shipped {
    default: Baseline::shipped,
    by_version: Baseline::by_version,
    versions: Baseline::shipped_versions,
    parse: Baseline::parse,
    kind: "baseline",
};

const FULL: Shipped<FullBaseline> = Shipped {
    default: FullBaseline::shipped,
    by_version: FullBaseline::by_version,
    versions: FullBaseline::shipped_versions,
    parse: FullBaseline::parse,
    kind: "full-test baseline",
};

/// The baseline `name` gives (a file, or the version of a shipped one), or the test's
/// shipped default; `flag` names the option in a refusal.
fn load_baseline<B>(
    flag: &str,
    name: Option<&std::path::Path>,
    test: &Shipped<B>,
) -> Result<B, ExitCode> {
    let Some(p) = name else {
        return Ok((test.default)());
    };
    if !p.exists() {
        // Not a file, not a shipped version: name what it could have been.
        return (test.by_version)(&p.to_string_lossy()).ok_or_else(|| {
            unreadable(format!(
                "{flag} {}: no such file, and not a shipped {} version (shipped: {})",
                p.display(),
                test.kind,
                (test.versions)().join(", ")
            ))
        });
    }
    let text =
        std::fs::read_to_string(p).map_err(|e| unreadable(format!("{}: {e}", p.display())))?;
    (test.parse)(&text).map_err(|e| invalid(format!("{}: {e}", p.display())))
}

/// `games` analysed at a baseline's profile and filter (a progress bar on a terminal),
/// through the shared cache; with the engine binary's SHA-256.
async fn analyse(
    engine: &std::path::Path,
    profile: &EngineProfile,
    filter: &FilterConfig,
    games: &[pgn::Game],
    workers: usize,
    cache: &Arc<PositionCache>,
) -> Result<(Vec<Vec<Decision>>, String), arbiter_screening::uci::EngineError> {
    let progress = bar(games.len() as u64);
    progress.set_message(format!("screening ({})", profile.label));
    let analyser = Analyser::start(
        engine,
        profile.clone(),
        filter.clone(),
        workers,
        cache.clone(),
    )
    .await?;
    let binary = analyser.binary_sha256().to_string();
    let decisions = analyser.games(games, &|| progress.inc(1)).await;
    progress.finish_and_clear();
    Ok((decisions?, binary))
}

/// The baseline a run is judged against: the quick test's table or the full test's laws.
enum Judge {
    Quick(Baseline),
    Full(FullBaseline),
}

impl Judge {
    /// The performances of `games` under this baseline, with the versions they name.
    fn judge(
        &self,
        games: &[pgn::Game],
        decisions: &[Vec<Decision>],
        ratings: &Ratings,
        policy: &Policy,
        binary: &str,
    ) -> (Versions, Vec<Performance>) {
        match self {
            Judge::Quick(b) => {
                let v = Versions::new(b, policy, binary);
                let p = performances(games, decisions, ratings, b, policy, &v);
                (v, p)
            }
            Judge::Full(b) => {
                let v = Versions::full(b, policy, binary);
                let p = full_performances(games, decisions, ratings, b, policy, &v);
                (v, p)
            }
        }
    }

    fn how_made(&self) -> &serde_json::Value {
        match self {
            Judge::Quick(b) => &b.how_made,
            Judge::Full(b) => &b.how_made,
        }
    }

    fn profile(&self) -> &EngineProfile {
        match self {
            Judge::Quick(b) => &b.engine_profile,
            Judge::Full(b) => &b.engine_profile,
        }
    }
    fn filter(&self) -> &FilterConfig {
        match self {
            Judge::Quick(b) => &b.filter,
            Judge::Full(b) => &b.filter,
        }
    }
}

fn print_text(perfs: &[Performance], v: &Versions) {
    let full = perfs.iter().any(|p| p.ipr.is_some());
    println!(
        "Fair-play screening ({} test; advisory screening indicators, not the FIDE test)\n\
         engine profile {} ({}), baseline {}, policy {}\n",
        if full { "full" } else { "quick" },
        v.engine_profile,
        v.engine_profile_id,
        v.baseline,
        v.policy
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
        if let Some(i) = p.ipr {
            let interval = if i.resamples == 0 {
                "one game: no interval".to_string()
            } else {
                format!(
                    "95 % interval {}..{}, {} resamples of the games",
                    i.low, i.high, i.resamples
                )
            };
            let bound = if i.at_bound {
                "at the span's end: "
            } else {
                ""
            };
            println!("{:<28} IPR {bound}{} ({interval})", "", i.rating);
        }
        if let (Some(s), Some(a)) = (p.z_strength, p.z_assistance) {
            println!(
                "{:<28} strength score z {s:.2}, assistance score z {a:.2}",
                ""
            );
        }
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
    /// Bucket centres, each played at the centre's strength (with --players elo, UCI_Elo =
    /// the centre; Stockfish 15.1: 1350..=2850).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "1400,1600,1800,2000,2200,2400,2600,2800"
    )]
    pub ratings: Vec<u16>,
    /// How the self-play players are weakened: `elo` (Stockfish's UCI_Elo, which cannot be
    /// replayed: its draws are seeded by the clock) or `sampled` (the engine's four best lines,
    /// a move drawn by the game's seed: the same seed plays the same games).
    #[arg(long, value_enum, default_value_t = Players::Elo)]
    pub players: Players,
    #[arg(long, default_value_t = 30_000)]
    pub player_nodes: u64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long)]
    pub workers: Option<usize>,
    #[arg(long)]
    pub engine: Option<PathBuf>,
    /// Calibrate the full test instead (wide analyses; one move-probability law per bucket).
    #[arg(long)]
    pub full: bool,
    /// Self-play: use these games (PGN; each game's bucket is its WhiteElo) instead of
    /// generating new ones (the games another calibration saved).
    #[arg(long, conflicts_with = "human")]
    pub games: Option<PathBuf>,
    /// Self-play: where to save the generated games, so the artefact can be re-derived.
    #[arg(long, conflicts_with_all = ["games", "human"])]
    pub save_games: Option<PathBuf>,
    /// Fit the quick test's baseline (with --full: the full test's) on these human games
    /// (PGN, both ratings tagged) instead of self-play; files are read in order.
    #[arg(long, num_args = 1..)]
    pub human: Vec<PathBuf>,
    /// With --human: at most this many games per 200-point band of the players' mean rating
    /// (those whose SHA-256 of White|Black|Date|Event|Round sorts first).
    #[arg(long, default_value_t = 40, requires = "human")]
    pub per_band: usize,
    /// With --human: classical games only (by the Event, Site and TimeControl tags).
    #[arg(long, requires = "human")]
    pub classical_only: bool,
    /// With --human: games dated in this year or later only.
    #[arg(long, requires = "human")]
    pub since: Option<u16>,
    /// With --human: put the ratings of games played before 1 March 2024 on the FIDE scale
    /// since that day (FIDE's one-time rise of 0.4 × (2000 − R) for ratings 1000-1999), the
    /// scale today's players are rated on.
    #[arg(long, requires = "human")]
    pub current_fide_scale: bool,
    /// With --current-fide-scale: these collections' ratings are a national federation's,
    /// left as tagged.
    #[arg(long, num_args = 1.., requires = "current_fide_scale")]
    pub national_scale: Vec<PathBuf>,
    /// With --human: events (PGN files, one event each) left out of the fit, for the
    /// calibration report (its criteria: docs/src/benchmarks.md) written into the artefact.
    #[arg(long, num_args = 1.., requires = "human")]
    pub held_out: Vec<PathBuf>,
    /// With --human: also judge every training event by a baseline fitted without it, its
    /// events dealt into this many folds (at least 2), and write that report into the
    /// artefact too.
    #[arg(long, requires = "human", value_parser = clap::value_parser!(u16).range(2..))]
    pub leave_events_out: Option<u16>,
    /// With --full --human: also measure the production order on the games this per-band
    /// selection takes: the quick test's leave-events-out (a baseline fitted as the shipped
    /// quick one, without each fold), and the full test on every performance it raises to Watch.
    #[arg(
        long,
        requires = "full",
        requires = "human",
        requires = "leave_events_out"
    )]
    pub quick_per_band: Option<usize>,
    /// With --human or --full: a position cache file, read before and written after the
    /// analysis.
    #[arg(long)]
    pub cache: Option<PathBuf>,
}

fn write_json(out: &PathBuf, value: serde_json::Result<String>) -> Result<(), ExitCode> {
    let text = value.map_err(|e| engine_failed(e.to_string()))?;
    std::fs::write(out, text + "\n").map_err(|e| unreadable(format!("{}: {e}", out.display())))
}

pub fn calibrate_run(a: CalibrateArgs) -> ExitCode {
    let players = a.players;
    if players == Players::Elo
        && let Some(r) = a.ratings.iter().find(|r| !(1350..=2850).contains(*r))
    {
        return invalid(format!(
            "--ratings: {r} is outside Stockfish's UCI_Elo range 1350..=2850"
        ));
    }
    if a.cache.is_some() && !a.full && a.human.is_empty() && a.games.is_none() {
        return invalid("--cache: only with --human, --full or --games".to_string());
    }
    let engine = match find_engine(a.engine.as_deref()) {
        Ok(p) => p,
        Err(e) => return engine_failed(e.to_string()),
    };
    let plan = Plan {
        ratings: a.ratings.clone(),
        players,
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
    if a.full && !a.human.is_empty() {
        return calibrate_human_full_run(&a, &engine, &plan, &rt, &progress);
    }
    if a.full {
        return calibrate_full_run(&a, &engine, &plan, &rt, &progress);
    }
    if !a.human.is_empty() {
        return calibrate_human_run(&a, &engine, &plan, &rt, &progress);
    }
    let (given, cache) = match self_play_inputs(&a) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let _saved_as_it_goes = keep_saved(a.cache.as_deref(), &cache);
    let result = rt.block_on(calibrate(
        &engine,
        EngineProfile::quick(),
        FilterConfig::default(),
        &plan,
        given,
        cache.clone(),
        &|done, total| {
            progress.set_length(total as u64);
            progress.set_position(done as u64)
        },
    ));
    progress.finish_and_clear();
    let (baseline, games) = match result {
        Ok(x) => x,
        Err(e) => return engine_failed(e.to_string()),
    };
    if let Err(code) = self_play_outputs(&a, &cache, &games) {
        return code;
    }
    if let Err(code) = write_json(&a.out, serde_json::to_string_pretty(&baseline)) {
        return code;
    }
    println!(
        "{}: baseline {} ({} buckets)",
        a.out.display(),
        baseline.version,
        baseline.buckets.len()
    );
    ExitCode::SUCCESS
}

/// A self-play calibration's inputs: the games it is given, if any, and the position cache.
fn self_play_inputs(a: &CalibrateArgs) -> Result<(Option<Given>, Arc<PositionCache>), ExitCode> {
    let given = read_games(a.games.as_deref(), &a.ratings)?;
    Ok((given, Arc::new(load_cache(a.cache.as_deref())?)))
}

/// What a self-play calibration keeps besides its artefact: the cache, and the games it played.
fn self_play_outputs(
    a: &CalibrateArgs,
    cache: &PositionCache,
    games: &[(usize, String)],
) -> Result<(), ExitCode> {
    save_cache(a.cache.as_deref(), cache)?;
    save_games(a.save_games.as_deref(), games)
}

/// The games a self-play calibration is given instead of playing new ones, each in the bucket
/// of its White rating: a game outside the buckets is refused before any analysis.
fn read_games(path: Option<&std::path::Path>, ratings: &[u16]) -> Result<Option<Given>, ExitCode> {
    let Some(p) = path else { return Ok(None) };
    let games = match pgn::read_file(p, 64 * 1024 * 1024) {
        Ok(g) => g,
        Err(e @ PgnError::Unreadable { .. }) => return Err(unreadable(e.to_string())),
        Err(e) => return Err(invalid(e.to_string())),
    };
    Given::bucketed(games, ratings)
        .map(Some)
        .map_err(|e| invalid(format!("{}: {e}", p.display())))
}

/// Saves a self-play calibration's generated games, so that the artefact can be re-derived.
fn save_games(path: Option<&std::path::Path>, games: &[(usize, String)]) -> Result<(), ExitCode> {
    let Some(p) = path else { return Ok(()) };
    let text: String = games.iter().map(|(_, g)| format!("{g}\n")).collect();
    std::fs::write(p, text).map_err(|e| unreadable(format!("{}: {e}", p.display())))
}

fn calibrate_full_run(
    a: &CalibrateArgs,
    engine: &std::path::Path,
    plan: &Plan,
    rt: &tokio::runtime::Runtime,
    progress: &ProgressBar,
) -> ExitCode {
    let (given, cache) = match self_play_inputs(a) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let _saved_as_it_goes = keep_saved(a.cache.as_deref(), &cache);
    let result = rt.block_on(calibrate_full(
        engine,
        EngineProfile::full(),
        FilterConfig::default(),
        plan,
        given,
        cache.clone(),
        &|done, total| {
            progress.set_length(total as u64);
            progress.set_position(done as u64)
        },
    ));
    progress.finish_and_clear();
    let (baseline, games) = match result {
        Ok(x) => x,
        Err(e) => return engine_failed(e.to_string()),
    };
    if let Err(code) = self_play_outputs(a, &cache, &games) {
        return code;
    }
    if let Err(code) = write_json(&a.out, serde_json::to_string_pretty(&baseline)) {
        return code;
    }
    println!(
        "{}: full-test baseline {} ({} buckets; laws {})",
        a.out.display(),
        baseline.version,
        baseline.buckets.len(),
        laws(&baseline)
    );
    ExitCode::SUCCESS
}

/// What a calibration on human games does once its work is done: the progress bar cleared,
/// the cache saved (also when the work failed, so that its analyses are kept), then the
/// artefact `json` makes of the result written to `--out`.
fn finish<F>(
    a: &CalibrateArgs,
    progress: &ProgressBar,
    cache: &PositionCache,
    result: Result<F, arbiter_screening::uci::EngineError>,
    json: impl Fn(&F) -> serde_json::Result<String>,
) -> Result<F, ExitCode> {
    progress.finish_and_clear();
    save_cache(a.cache.as_deref(), cache)?;
    let fitted = result.map_err(|e| engine_failed(e.to_string()))?;
    write_json(&a.out, json(&fitted))?;
    Ok(fitted)
}

/// A full baseline's laws, bucket by bucket, for the command's summary line.
fn laws(b: &FullBaseline) -> String {
    b.buckets
        .iter()
        .map(|b| {
            format!(
                "{}: s {:.3} c {:.2} k {:.2}{}",
                b.rating,
                f64::from(b.law.s_e6) / 1e6,
                f64::from(b.law.c_e6) / 1e6,
                f64::from(b.law.k_e6) / 1e6,
                if b.thin() {
                    format!(" (thin: {} decisions, Provisional)", b.decisions)
                } else {
                    String::new()
                }
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The human collections of `--human`, read in order: (name, games) per file, their
/// provenance, and the selection `--per-band` and the filters ask for.
type HumanFiles = (
    Vec<(String, Vec<pgn::Game>)>,
    Vec<serde_json::Value>,
    arbiter_screening::human::Selection,
);

/// One human collection read: its name, SHA-256 and games (games that are not legal chess are
/// skipped with a warning naming them).
fn read_human(p: &std::path::Path) -> Result<(String, String, Vec<pgn::Game>), ExitCode> {
    // Read first, so that a missing or unreadable file is named as a game collection.
    let games = match pgn::read_collection(p, 64 * 1024 * 1024) {
        Ok((g, skipped)) => {
            for e in &skipped {
                eprintln!("warning: skipped {e}");
            }
            g
        }
        Err(e @ PgnError::Unreadable { .. }) => return Err(unreadable(e.to_string())),
        Err(e) => return Err(invalid(e.to_string())),
    };
    let digest = arbiter_screening::uci::binary_sha256(p)
        .map_err(|_| unreadable(format!("{}: cannot be read for its SHA-256", p.display())))?;
    let name = p.file_name().map_or_else(
        || p.display().to_string(),
        |n| n.to_string_lossy().to_string(),
    );
    Ok((name, digest, games))
}

fn human_files(a: &CalibrateArgs, plan: &Plan) -> Result<HumanFiles, ExitCode> {
    let (Some(&lowest), Some(&highest)) = (plan.ratings.first(), plan.ratings.last()) else {
        return Err(invalid("--ratings: no buckets".into()));
    };
    let mut files = Vec::new();
    let mut sources = Vec::new();
    for p in &a.human {
        let (name, digest, games) = read_human(p)?;
        sources
            .push(serde_json::json!({"file": name, "sha256": digest, "games_read": games.len()}));
        files.push((name, games));
    }
    let mut selection = arbiter_screening::human::Selection {
        classical_only: a.classical_only,
        since: a.since,
        per_band: a.per_band,
        lowest: lowest - lowest % 200,
        highest,
        min_plies: 40,
        current_fide_scale: a.current_fide_scale,
        national_scale: Vec::new(),
    };
    for p in &a.national_scale {
        let Some(name) = files
            .iter()
            .map(|(n, _)| n)
            .find(|n| p.ends_with(n.as_str()))
        else {
            return Err(invalid(format!(
                "--national-scale: {} is not one of the --human files",
                p.display()
            )));
        };
        selection.national_scale.push(name.clone());
    }
    Ok((files, sources, selection))
}

fn calibrate_human_full_run(
    a: &CalibrateArgs,
    engine: &std::path::Path,
    plan: &Plan,
    rt: &tokio::runtime::Runtime,
    progress: &ProgressBar,
) -> ExitCode {
    use arbiter_screening::human;
    if !a.held_out.is_empty() {
        return invalid(
            "--held-out: not with --full; the full test is judged by --leave-events-out".into(),
        );
    }
    let Some(folds) = a.leave_events_out else {
        return invalid("--full --human: give --leave-events-out K (K folds of events)".into());
    };
    let (files, sources, selection) = match human_files(a, plan) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let (train, counts) = human::select(&files, &selection);
    let quick_selection = a.quick_per_band.map(|per_band| human::Selection {
        per_band,
        ..selection.clone()
    });
    let quick = quick_selection
        .as_ref()
        .map(|sel| human::select(&files, sel));
    // The shipped quick baseline on the same rating scale: its profile, filter and policy.
    let quick_template = if selection.current_fide_scale {
        arbiter_screening::baseline::Baseline::current_scale_human()
    } else {
        arbiter_screening::baseline::Baseline::shipped()
    };
    let cache = match load_cache(a.cache.as_deref()) {
        Ok(c) => Arc::new(c),
        Err(code) => return code,
    };
    let _saved_as_it_goes = keep_saved(a.cache.as_deref(), &cache);
    let result = rt.block_on(arbiter_screening::human_full::calibrate(
        engine,
        EngineProfile::full(),
        FilterConfig::default(),
        &plan.ratings,
        &train,
        usize::from(folds),
        quick.as_ref().map(|(t, _)| (&quick_template, t.as_slice())),
        plan.workers,
        cache.clone(),
        &plan.version,
        serde_json::json!({
            "files": sources,
            "selection": selection,
            "selection_counts": counts,
            "quick_then_full_selection": quick_selection,
            "quick_then_full_selection_counts": quick.as_ref().map(|(_, c)| c),
            "quick_template": quick_template.version,
        }),
        &|done, total| {
            progress.set_length(total as u64);
            progress.set_position(done as u64)
        },
    ));
    let fitted = match finish(a, progress, &cache, result, |f| {
        serde_json::to_string_pretty(&f.baseline)
    }) {
        Ok(f) => f,
        Err(code) => return code,
    };
    let b = &fitted.baseline;
    println!(
        "{}: full-test baseline {} from {} human games ({} buckets; laws {})",
        a.out.display(),
        b.version,
        train.len(),
        b.buckets.len(),
        laws(b)
    );
    print!(
        "the laws against the decisions they were fitted on, moves played / expected by place among the ranked candidates (ratio):\n{}",
        fitted.by_place.table()
    );
    print!(
        "leave-events-out, full test, real performances: {}",
        fitted.performances.table()
    );
    print!(
        "leave-events-out, full test, 3-game performances: {}",
        fitted.pseudo.table()
    );
    if let Some(p) = &fitted.pipeline {
        print!("leave-events-out, quick test: {}", p.quick.table());
        print!("{}", p.table());
    }
    ExitCode::SUCCESS
}

fn calibrate_human_run(
    a: &CalibrateArgs,
    engine: &std::path::Path,
    plan: &Plan,
    rt: &tokio::runtime::Runtime,
    progress: &ProgressBar,
) -> ExitCode {
    use arbiter_screening::human;
    let (files, sources, selection) = match human_files(a, plan) {
        Ok(x) => x,
        Err(code) => return code,
    };
    let (train, counts) = human::select(&files, &selection);
    let mut held_out = Vec::new();
    let mut held_sources = Vec::new();
    for p in &a.held_out {
        let (name, digest, games) = match read_human(p) {
            Ok(x) => x,
            Err(code) => return code,
        };
        if files.iter().any(|(n, _)| *n == name) {
            return invalid(format!("--held-out: {name} is also a training file"));
        }
        held_sources
            .push(serde_json::json!({"file": name, "sha256": digest, "games": games.len()}));
        let games = games.iter().map(|g| selection.rescaled(&name, g)).collect();
        held_out.extend(human::events_of(&name, games));
    }
    let cache = match load_cache(a.cache.as_deref()) {
        Ok(c) => Arc::new(c),
        Err(code) => return code,
    };
    let _saved_as_it_goes = keep_saved(a.cache.as_deref(), &cache);
    let result = rt.block_on(human::calibrate_human(
        engine,
        EngineProfile::quick(),
        FilterConfig::default(),
        &plan.ratings,
        &train,
        &held_out,
        a.leave_events_out.map_or(0, usize::from),
        plan.workers,
        cache.clone(),
        &plan.version,
        serde_json::json!({
            "files": sources,
            "selection": selection,
            "selection_counts": counts,
            "held_out_files": held_sources,
        }),
        &|done, total| {
            progress.set_length(total as u64);
            progress.set_position(done as u64)
        },
    ));
    let fitted = match finish(a, progress, &cache, result, |f| {
        serde_json::to_string_pretty(&f.baseline)
    }) {
        Ok(f) => f,
        Err(code) => return code,
    };
    let b = &fitted.baseline;
    println!(
        "{}: baseline {} from {} human games ({} buckets); phi MM {:.3} EV {:.3} T3 {:.3} ASD {:.3}; tau MM {:.2} % EV {:.2} % T3 {:.2} % ASD {:.4}",
        a.out.display(),
        b.version,
        train.len(),
        b.buckets.len(),
        f64::from(b.phi_milli.mm) / 1000.0,
        f64::from(b.phi_milli.ev) / 1000.0,
        f64::from(b.phi_milli.t3) / 1000.0,
        f64::from(b.phi_milli.asd) / 1000.0,
        f64::from(b.tau.mm_ppm) / 1e4,
        f64::from(b.tau.ev_ppm) / 1e4,
        f64::from(b.tau.t3_ppm) / 1e4,
        f64::from(b.tau.asd_e4) / 1e4,
    );
    if !held_out.is_empty() || fitted.leave_events_out.is_none() {
        print!("{}", fitted.report.table());
    }
    if let Some(cross) = &fitted.leave_events_out {
        print!("leave-events-out, {}", cross.table());
    }
    ExitCode::SUCCESS
}

/// A `--cache` file read (a missing one is an empty cache; one that does not read is refused).
fn load_cache(path: Option<&std::path::Path>) -> Result<PositionCache, ExitCode> {
    match path {
        Some(p) => PositionCache::load(p).map_err(invalid),
        None => Ok(PositionCache::new()),
    }
}

/// How often a calibration's cache is saved while it runs (`--cache`).
const SAVE_CACHE_EVERY: std::time::Duration = std::time::Duration::from_secs(300);

/// The cache saved to its `--cache` file every [`SAVE_CACHE_EVERY`] while the guard lives.
fn keep_saved(
    path: Option<&std::path::Path>,
    cache: &Arc<PositionCache>,
) -> Option<arbiter_screening::cache::KeepSaved> {
    path.map(|p| cache.keep_saved(p, SAVE_CACHE_EVERY))
}

/// The cache written back to its `--cache` file, if one was given.
fn save_cache(path: Option<&std::path::Path>, cache: &PositionCache) -> Result<(), ExitCode> {
    match path {
        Some(p) => cache.save(p).map_err(unreadable),
        None => Ok(()),
    }
}
