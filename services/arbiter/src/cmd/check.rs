//! `arbiter check`: replay every round of a complete tournament and report each round whose
//! recorded pairing differs from the engine's, with the rule that decides between them; then
//! the standings: each player's rank in the file (columns 86-89) against the ranking by points
//! and the tie-break list (`--tiebreaks`, else the file's 212 or 202), through the one standings
//! path `arbiter standings` prints. A file that names no list is checked on points alone: its
//! ties were broken by a list it does not say. A rank column that only repeats the pairing
//! numbers (as files written for a pairing program have it) is no ranking and is not compared.
//! The points column is checked as the file is read.

use super::trf_input::{ReadArgs, WarningFormat};
use super::{Failure, load_record, rule_set_for};
use arbiter_pairing::{Board, PairingInput, RecordedPairing, TournamentRecord, Verdict, compare};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct CheckArgs {
    /// Rule set: dutch-2017, dutch-2025, dubov, burstein, burstein-bbp or lim (default as for `pair`).
    #[arg(long)]
    pub system: Option<String>,
    /// The Burstein system's reading of the points its rule text leaves open: default (the
    /// engine's) or bbp (as bbpPairings reads them; the rule set burstein-bbp).
    #[arg(long)]
    pub interpretation: Option<String>,
    /// A tournament with its rounds paired (TRF).
    pub input: PathBuf,
    #[command(flatten)]
    pub read: ReadArgs,
    /// How reading warnings are printed on standard error: text or json (one object a line).
    #[arg(long, default_value = "text")]
    pub format: String,
    /// Tie-breaks that rank the players, e.g. "BH/C1,BH,SB" (default: the file's record 212 or
    /// 202; without either the ranks are checked on points alone).
    #[arg(long)]
    pub tiebreaks: Option<String>,
    /// A standings table another program published, checked value by value instead of the
    /// file's rank column: tab- or comma-separated, a header naming the pairing number column
    /// (StartNo or no), optionally Rank and the points (PTS or points), and tie-break codes
    /// (BH/C1, SB, ...) that are also the list ranking the players; other columns are ignored.
    /// A value written blank, `-` or `-0` is "not defined".
    #[arg(long, conflicts_with = "tiebreaks")]
    pub standings: Option<PathBuf>,
    /// Check the pairings only, not the rank column (files whose columns 86-89 hold something
    /// else than a final ranking, e.g. a generator's seeding).
    #[arg(long, conflicts_with = "standings")]
    pub pairings_only: bool,
}

pub fn run(a: CheckArgs) -> ExitCode {
    match run_inner(&a) {
        Ok(0) => ExitCode::SUCCESS,
        Ok(_) => ExitCode::from(2),
        Err(f) => f.report(),
    }
}

fn run_inner(a: &CheckArgs) -> Result<usize, Failure> {
    let (record, file) = load_record(&a.input, &a.read, WarningFormat::for_output(&a.format))?;
    let round_robin = a.system.as_deref() == Some("round-robin")
        || (a.system.is_none()
            && file.tournament_type().and_then(|t| t.system)
                == Some(arbiter_trf::TournamentSystem::BergerRoundRobin));
    if round_robin {
        let differing = check_berger(&a.input, &record)?;
        return Ok(differing + check_standings(a, &file)?);
    }
    if a.system.is_none() && super::trf_input::is_team_event(&file) {
        let differing = check_team_swiss(&a.input, &file, a.standings.as_deref())?;
        return Ok(differing);
    }
    let rule_set = rule_set_for(a.system.as_deref(), a.interpretation.as_deref(), &file)?;
    let rounds = record.paired_rounds();
    let mut differing = 0;
    for r in 1..=rounds {
        let input = record
            .input_for_round(r, rule_set)
            .map_err(|m| Failure::Invalid(format!("{}: round {r}: {m}", a.input.display())))?;
        let recorded = with_colourless_forfeits(&record, r, &input);
        match compare(&input, &recorded) {
            Ok(c) if c.verdict == Verdict::Identical => {}
            Ok(c) => {
                differing += 1;
                let p = c.engine;
                let engine = RecordedPairing {
                    boards: p.boards.clone(),
                    bye: p.bye,
                };
                println!("round {r}: differs from the engine's pairing");
                println!("  {}", c.verdict);
                print_diff(&recorded, &engine);
                print!("{}", indent(&p.explanation.render()));
            }
            Err(e) => {
                differing += 1;
                println!("round {r}: the engine finds no pairing ({e}) but one was recorded");
            }
        }
    }
    println!(
        "{}/{} rounds identical ({rule_set})",
        rounds as usize - differing,
        rounds
    );
    Ok(differing + check_standings(a, &file)?)
}

/// A team event (310 records): imported in memory as `arbiter import` would, then every round
/// re-paired by the service's team engine (FIDE's team Swiss for a `FIDE_TEAM_*` type code,
/// else the Dutch rule set on the teams) and compared: the matches, their colours and the bye.
fn check_team_swiss(
    path: &std::path::Path,
    file: &arbiter_trf::TrfFile,
    table: Option<&std::path::Path>,
) -> Result<usize, Failure> {
    use arbiter_round_pairing::engine::Answer;
    let name = path.display();
    let (state, rounds) = super::trf_input::imported_state(&name.to_string(), file)?;
    let rule_set = state
        .tournament()
        .map(|t| t.rule_set.clone())
        .unwrap_or_default();
    let show = |m: &[arbiter_core::teams::TeamMatch], bye: Option<u32>| {
        let mut v: Vec<String> = m
            .iter()
            .map(|m| format!("{}-{}", m.first, m.second))
            .collect();
        if let Some(b) = bye {
            v.push(format!("bye {b}"));
        }
        v.join(" ")
    };
    let sorted = |m: &[arbiter_core::teams::TeamMatch]| {
        let mut v: Vec<(u32, u32)> = m.iter().map(|m| (m.first, m.second)).collect();
        v.sort_unstable();
        v
    };
    let mut differing = 0;
    for r in 1..=rounds {
        let Some(recorded) = state.team_pairing(r) else {
            continue;
        };
        match arbiter_round_pairing::teams::answer(&state, r, 1, 0) {
            // A TRF file does not number a team round's boards: matches are compared as a
            // set, each with its first-named team (the colours).
            Answer::Proposed(p)
                if sorted(&p.team_matches) == sorted(&recorded.matches)
                    && p.team_bye == recorded.bye => {}
            Answer::Proposed(p) => {
                differing += 1;
                println!("round {r}: differs from the engine's pairing");
                println!("  recorded: {}", show(&recorded.matches, recorded.bye));
                println!("  engine:   {}", show(&p.team_matches, p.team_bye));
            }
            Answer::Failed(f) => {
                differing += 1;
                println!(
                    "round {r}: the engine finds no pairing ({}) but one was recorded",
                    f.reason
                );
            }
        }
    }
    println!(
        "{}/{} team rounds identical ({rule_set})",
        rounds as usize - differing,
        rounds
    );
    // The team standings (the one team model the service ranks with) against a table.
    if let Some(table) = table {
        let model = arbiter_teams::tiebreak_model(&state)
            .ok_or_else(|| Failure::Invalid(format!("{name}: not a team event")))?
            .map_err(|e| Failure::Invalid(format!("{name}: {e}")))?;
        differing += compare_table(table, "team", &|list| {
            arbiter_tiebreak::team_standings(&model, list, &arbiter_tiebreak::Options::default())
                .map_err(|e| e.to_string())
        })?;
    }
    Ok(differing)
}

fn check_standings(a: &CheckArgs, file: &arbiter_trf::TrfFile) -> Result<usize, Failure> {
    if a.pairings_only {
        Ok(0)
    } else if let Some(table) = &a.standings {
        check_table(table, file)
    } else {
        check_ranks(a, file)
    }
}

/// A round robin's rounds against the Berger tables (C.05 Annex 1), the players' pairing
/// numbers being the numbers drawn. A double round robin agrees with either reading of the
/// handbook: the cycle with its last two rounds swapped and repeated with colours reversed
/// (Arbiters' Manual ch. IV, what arbiter schedules), or the plain table twice; the reading
/// that fits more rounds is the one reported. A forfeit written without colours matches either.
fn check_berger(path: &std::path::Path, record: &TournamentRecord) -> Result<usize, Failure> {
    use arbiter_roundrobin::{Round, berger, double_berger};
    let n = record.players.len() as u32;
    let rounds = record.paired_rounds();
    let single = berger(n).map_err(|e| Failure::Invalid(format!("{}: {e}", path.display())))?;
    let mut readings: Vec<(&str, Vec<Round>)> = Vec::new();
    if rounds as usize > single.len() {
        let reversed = |r: &Round| Round {
            games: r.games.iter().map(|&(w, b)| (b, w)).collect(),
            rest: r.rest,
        };
        let plain: Vec<Round> = single
            .iter()
            .cloned()
            .chain(single.iter().map(reversed))
            .collect();
        let swapped = double_berger(n).map_err(|e| Failure::Invalid(e.to_string()))?;
        readings.push((
            "double round robin, last two rounds of the cycle swapped",
            swapped,
        ));
        readings.push(("double round robin, the plain table twice", plain));
    } else {
        readings.push(("single round robin", single));
    }
    if rounds as usize > readings[0].1.len() {
        return Err(Failure::Invalid(format!(
            "{}: {rounds} rounds paired, more than the {} of a {n}-player round robin",
            path.display(),
            readings[0].1.len()
        )));
    }
    // Per round, the table's games not found as recorded.
    let misses = |table: &[Round]| -> Vec<(u32, Vec<(u32, u32)>)> {
        (1..=rounds)
            .map(|r| {
                let i = (r - 1) as usize;
                let missing = table[i]
                    .games
                    .iter()
                    .copied()
                    .filter(|&(w, b)| {
                        let e = record
                            .players
                            .get(w as usize - 1)
                            .and_then(|p| p.rounds.get(i));
                        !matches!(e, Some(Some(e)) if e.opponent == Some(b)
                            && e.color.is_none_or(|c| c == arbiter_core::Color::White))
                    })
                    .collect();
                (r, missing)
            })
            .collect()
    };
    let (name, misses) = readings
        .iter()
        .map(|(name, t)| (*name, misses(t)))
        .min_by_key(|(_, m)| m.iter().filter(|(_, g)| !g.is_empty()).count())
        .ok_or_else(|| Failure::Invalid("no Berger table to compare with".into()))?;
    let mut differing = 0;
    for (r, missing) in &misses {
        if missing.is_empty() {
            continue;
        }
        differing += 1;
        println!("round {r}: differs from the Berger table (C.05 Annex 1)");
        for (w, b) in missing {
            println!("  table only: {w} - {b}");
        }
    }
    println!(
        "{}/{rounds} rounds identical (Berger tables, {name})",
        rounds as usize - differing
    );
    Ok(differing)
}

/// The file's ranks against the standings computed from it: a rank inside the computed range
/// of a shared place agrees (the file may order a tie by a lot the list does not hold). Prints
/// each player whose rank does not, with his points and tie-break values, and a summary.
fn check_ranks(a: &CheckArgs, file: &arbiter_trf::TrfFile) -> Result<usize, Failure> {
    use arbiter_tiebreak::{Options, TieBreakList, standings, trf};
    let shown = a.input.display();
    let model = trf::tournament_from_trf(file);
    let list = match &a.tiebreaks {
        Some(s) => s
            .parse::<TieBreakList>()
            .map_err(|e| Failure::Invalid(format!("--tiebreaks {s:?}: {e}")))?,
        None => trf::file_tiebreaks(file)
            .map_err(|e| Failure::Invalid(format!("{shown}: {e}")))?
            .map(|t| t.list)
            .unwrap_or_default(),
    };
    let st = standings(&model, &list.0, &Options::default())
        .map_err(|e| Failure::Invalid(format!("{shown}: {e}")))?;
    let codes: Vec<String> = st.tiebreaks.iter().map(|t| t.to_string()).collect();
    let ranked: Vec<(u32, u32)> = file
        .players()
        .filter_map(|p| p.rank.filter(|&r| r > 0).map(|r| (p.start_number, r)))
        .collect();
    if ranked.is_empty() {
        println!("standings: the file gives no ranks (columns 86-89): nothing to compare");
        return Ok(0);
    }
    // Files written for a pairing program often repeat the pairing number in the rank column.
    if ranked.len() > 1 && ranked.iter().all(|(id, r)| id == r) {
        println!(
            "standings: the rank column repeats the pairing numbers (a file written for pairing, \
             not a ranking): nothing to compare"
        );
        return Ok(0);
    }
    let mut differing = 0;
    for (id, rank) in &ranked {
        let Some(row) = st.rows.iter().find(|r| r.id == *id) else {
            continue;
        };
        if (row.rank..=row.rank_to).contains(rank) {
            continue;
        }
        differing += 1;
        let place = if row.rank == row.rank_to {
            row.rank.to_string()
        } else {
            format!("{}-{}", row.rank, row.rank_to)
        };
        let values: Vec<String> = codes
            .iter()
            .zip(&row.values)
            .zip(&st.decimals)
            .map(|((code, v), &d)| {
                let v = v.map_or("-".to_string(), |v| v.to_decimal_string(d));
                format!("{code} {v}")
            })
            .collect();
        println!(
            "standings: player {id} ({}): rank {rank} in the file, {place} computed (points {}; {})",
            row.name,
            row.points.to_decimal_string(1),
            values.join(", ")
        );
    }
    let agree = ranked.len() - differing;
    if codes.is_empty() {
        println!(
            "standings: {agree}/{} ranks agree with the points (the file names no tie-breaks, \
             212 or 202: give --tiebreaks to check the order within a score)",
            ranked.len()
        );
    } else {
        println!(
            "standings: {agree}/{} ranks agree (points, then {}; {} rules)",
            ranked.len(),
            codes.join(","),
            st.rule_set
        );
    }
    Ok(differing)
}

/// A published standings table against the standings computed from the file: for each row,
/// the rank (inside the computed range of a shared place), the points and every tie-break the
/// header names, each compared at the precision the table writes it. Prints every difference
/// naming the player, the column and both values.
fn check_table(path: &std::path::Path, file: &arbiter_trf::TrfFile) -> Result<usize, Failure> {
    use arbiter_tiebreak::{Options, standings, trf};
    let model = trf::tournament_from_trf(file);
    compare_table(path, "player", &|list| {
        standings(&model, list, &Options::default()).map_err(|e| e.to_string())
    })
}

/// A published standings table against the standings `compute` gives for the table's own
/// tie-break list: every rank, the points and every value, at the table's precision.
#[allow(clippy::type_complexity)]
fn compare_table(
    path: &std::path::Path,
    who: &str,
    compute: &dyn Fn(&[arbiter_tiebreak::TieBreak]) -> Result<arbiter_tiebreak::Standings, String>,
) -> Result<usize, Failure> {
    use arbiter_tiebreak::{Rational, TieBreak};
    let shown = path.display();
    let text =
        std::fs::read_to_string(path).map_err(|e| Failure::Unreadable(format!("{shown}: {e}")))?;
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let (_, head) = lines
        .next()
        .ok_or_else(|| Failure::Invalid(format!("{shown}: empty, no header")))?;
    let tab = head.contains('\t');
    let header = fields(head, tab);
    let named = |names: &[&str]| {
        header
            .iter()
            .position(|h| names.iter().any(|n| h.eq_ignore_ascii_case(n)))
    };
    let id_col = named(&["StartNo", "no"]).ok_or_else(|| {
        Failure::Invalid(format!(
            "{shown}: line 1: no pairing-number column (StartNo or no)"
        ))
    })?;
    let rank_col = named(&["Rank"]);
    // A team table may name its points by the score: MPTS or GPTS (gacrux's names).
    let points_col = named(&["PTS", "points", "MPTS", "GPTS"]);
    let tb_cols: Vec<(usize, TieBreak)> = header
        .iter()
        .enumerate()
        .filter(|(i, _)| Some(*i) != points_col)
        .filter_map(|(i, h)| h.parse::<TieBreak>().ok().map(|t| (i, t)))
        .collect();
    let list: Vec<TieBreak> = tb_cols.iter().map(|(_, t)| *t).collect();
    let st = compute(&list).map_err(|e| Failure::Invalid(format!("{shown}: {e}")))?;
    // The table's text against an exact value: equal when the value, rounded to the decimals
    // the table writes, is the number written; "not defined" only matches "not defined".
    let agrees = |written: &str, ours: Option<Rational>| -> Result<bool, String> {
        let w = written.trim();
        if w.is_empty() || w == "-" || w == "-0" {
            return Ok(ours.is_none());
        }
        let theirs: Rational = w.parse()?;
        let decimals = w.split_once('.').map_or(0, |(_, f)| f.len() as u32);
        Ok(ours.is_some_and(|v| v.round_to(decimals) == theirs))
    };
    let show =
        |v: Option<Rational>, d: u32| v.map_or("not defined".into(), |v| v.to_decimal_string(d));
    let (mut compared, mut differing) = (0usize, 0usize);
    for (n, line) in lines {
        let at = |what: &str| format!("{shown}: line {}: {what}", n + 1);
        let row = fields(line, tab);
        let cell = |i: usize| row.get(i).map(String::as_str).unwrap_or("");
        let id: u32 = cell(id_col)
            .trim()
            .parse()
            .map_err(|_| Failure::Invalid(at(&format!("pairing number {:?}", cell(id_col)))))?;
        let ours = st
            .rows
            .iter()
            .find(|r| r.id == id)
            .ok_or_else(|| Failure::Invalid(at(&format!("{who} {id} is not in the file"))))?;
        let mut report = |column: &str, written: &str, computed: String| {
            differing += 1;
            println!(
                "standings: {who} {id} ({}): {column} {written} in the table, {computed} computed",
                ours.name
            );
        };
        if let Some(c) = rank_col {
            compared += 1;
            let rank: u32 = cell(c).trim().trim_end_matches('.').parse().unwrap_or(0);
            if !(ours.rank..=ours.rank_to).contains(&rank) {
                let place = if ours.rank == ours.rank_to {
                    ours.rank.to_string()
                } else {
                    format!("{}-{}", ours.rank, ours.rank_to)
                };
                report("rank", cell(c), place);
            }
        }
        if let Some(c) = points_col {
            compared += 1;
            if !agrees(cell(c), Some(ours.points)).map_err(|e| Failure::Invalid(at(&e)))? {
                report("points", cell(c), ours.points.to_decimal_string(1));
            }
        }
        for (k, (c, tb)) in tb_cols.iter().enumerate() {
            compared += 1;
            let v = ours.values[k];
            if !agrees(cell(*c), v).map_err(|e| Failure::Invalid(at(&e)))? {
                report(&tb.to_string(), cell(*c), show(v, st.decimals[k]));
            }
        }
    }
    let codes: Vec<String> = list.iter().map(|t| t.to_string()).collect();
    println!(
        "standings: {}/{compared} values of the table agree (rank, points, {}; {} rules)",
        compared - differing,
        codes.join(","),
        st.rule_set
    );
    Ok(differing)
}

/// One line of a tab- or comma-separated table; a comma-separated field may be double-quoted
/// (a name such as "Player, 0001"), with `""` for a quote inside it.
fn fields(line: &str, tab: bool) -> Vec<String> {
    if tab {
        return line.split('\t').map(str::to_string).collect();
    }
    let mut out = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                push(&mut out, '"');
            }
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(String::new()),
            c => push(&mut out, c),
        }
    }
    out
}

fn push(fields: &mut [String], c: char) {
    if let Some(f) = fields.last_mut() {
        f.push(c);
    }
}

/// The recorded pairing of round `r`, with the forfeits written with colour `-` on both lines:
/// a forfeit is a pairing of its round whatever colour is written (as the endorsed checkers
/// count it), and colours of a game not played are no difference, so such a board takes the
/// engine's colours when the engine made the same pair.
fn with_colourless_forfeits(
    record: &TournamentRecord,
    r: u32,
    input: &PairingInput,
) -> RecordedPairing {
    let mut recorded = record.recorded(r);
    let i = (r - 1) as usize;
    let mut pairs = Vec::new();
    for p in &record.players {
        if let Some(Some(e)) = p.rounds.get(i)
            && let (Some(o), None) = (e.opponent, e.color)
        {
            let pair = (p.id.min(o), p.id.max(o));
            let known = recorded
                .boards
                .iter()
                .any(|b| (b.white.min(b.black), b.white.max(b.black)) == pair);
            if !known && !pairs.contains(&pair) {
                pairs.push(pair);
            }
        }
    }
    if pairs.is_empty() {
        return recorded;
    }
    let engine = arbiter_pairing::pair(input)
        .map(|p| p.boards)
        .unwrap_or_default();
    for (a, b) in pairs {
        let board = engine
            .iter()
            .find(|e| (e.white, e.black) == (b, a))
            .copied()
            .unwrap_or(Board { white: a, black: b });
        recorded.boards.push(board);
    }
    recorded
}

fn print_diff(recorded: &RecordedPairing, engine: &RecordedPairing) {
    let (rb, rbye) = recorded.normalized();
    let (eb, ebye) = engine.normalized();
    for b in rb.iter().filter(|b| !eb.contains(b)) {
        println!("  recorded only: {} - {}", b.white, b.black);
    }
    for b in eb.iter().filter(|b| !rb.contains(b)) {
        println!("  engine only:   {} - {}", b.white, b.black);
    }
    if rbye != ebye {
        println!("  bye: recorded {:?}, engine {:?}", rbye, ebye);
    }
}

fn indent(s: &str) -> String {
    s.lines().map(|l| format!("    {l}\n")).collect()
}
