//! The import of a TRF file as a tournament's commands, worked out in memory: the tournament
//! is created with the file's header (name, city, federation, dates, arbiters, time control,
//! type, round dates, point system, initial colour, rule set), the players registered (in
//! start-number order), their virtual points of acceleration (`XXA`, `250`), forbidden pairings
//! (`XXP`, `260`) and teams (`013`, `310`) recorded, then each paired round is started, its
//! pairing published as recorded (a pairing by hand, noted as imported), its results recorded
//! and the round closed. Players not paired in a round get their bye (`H`, `F`, `Z`) or an
//! absence; byes announced for the next round (its column, `XXZ`, `240`) are requested too.
//!
//! The rule set is the one asked for, else the file's type code, else the rules in force on its
//! start date; a file that states neither is refused. A file whose type code is
//! `BERGER_ROUNDROBIN` (and no rule set asked for) becomes a round robin (double when its rounds
//! are twice the field's): the start numbers are the draw, each round must be the Berger
//! table's (refused naming the board otherwise), and the player the table rests is not sent a
//! bye. Each command is decided and applied to a state in memory, so a file the commands refuse
//! is reported with its line, column and field before anything is written anywhere.

mod team;

pub(crate) use team::{match_points as team_match_points, match_points_text};

use arbiter_core::tournament::{
    Arbiter, BoardResult, ByeKind, CloseRound, Command, CreateTournament, Date, DeclareAbsence,
    DomainError, EntryId, ForbidPairings, ManualPairing, Pair, PairingSystem, PublishPairing,
    RecordResult, RecordTeam, RegisterPlayer, RequestBye, SetVirtualPoints, Sex, StartRound, State,
    SubmitLineup, TeamRecorded, decide,
};
use arbiter_core::{Color, PlayerId, ResultCode, RoundEntry};
use arbiter_trf::{AccelerationSource, Record, TextCode, TournamentSystem, TrfFile};
use std::collections::BTreeMap;

/// A date as TRF files write it: `YYYY/MM/DD`, `YYYY-MM-DD`, `DD.MM.YYYY`, `YY/MM/DD`.
pub fn parse_trf_date(s: &str) -> Option<Date> {
    let n: Vec<i32> = s
        .split(|c: char| !c.is_ascii_digit())
        .filter(|t| !t.is_empty())
        .filter_map(|t| t.parse().ok())
        .collect();
    let (y, m, d) = match n.as_slice() {
        [y, m, d, ..] if *y > 31 => (*y, *m, *d),
        [d, m, y, ..] if *y > 31 => (*y, *m, *d),
        [y, m, d, ..] => (2000 + *y, *m, *d),
        _ => return None,
    };
    Date::ymd(y, m as u32, d as u32).ok()
}

fn federation(s: &str) -> String {
    let s = s.trim();
    if s.len() == 3 && s.bytes().all(|b| b.is_ascii_uppercase()) {
        s.to_string()
    } else {
        String::new()
    }
}

/// Whether a round entry is part of the round's pairing (a game, a forfeit with an opponent,
/// or the pairing-allocated bye).
fn is_paired(e: &RoundEntry) -> bool {
    e.opponent.is_some() || e.result == ResultCode::PairingBye
}

/// The board result of a game from its two codes.
fn board_result(white: ResultCode, black: ResultCode) -> BoardResult {
    use ResultCode as R;
    match (white, black) {
        (R::Win, R::Loss) => BoardResult::WhiteWins,
        (R::Draw, R::Draw) => BoardResult::Draw,
        (R::Loss, R::Win) => BoardResult::BlackWins,
        (R::ForfeitWin, R::ForfeitLoss) => BoardResult::WhiteWinsForfeit,
        (R::ForfeitLoss, R::ForfeitWin) => BoardResult::BlackWinsForfeit,
        (R::ForfeitLoss, R::ForfeitLoss) => BoardResult::DoubleForfeit,
        (R::WinUnrated, R::LossUnrated) => BoardResult::WhiteWinsUnrated,
        (R::DrawUnrated, R::DrawUnrated) => BoardResult::DrawUnrated,
        (R::LossUnrated, R::WinUnrated) => BoardResult::BlackWinsUnrated,
        (w, b) => BoardResult::ArbiterDecision { white: w, black: b },
    }
}

/// A file's import, worked out in memory: the commands in order, each with what it does.
pub struct Plan {
    pub tournament: String,
    pub commands: Vec<(String, Command)>,
    pub players: u32,
    pub rounds: u32,
    pub renumbered: bool,
    /// What was read but could not be used, with its line (printed, never silent).
    pub warnings: Vec<String>,
}

/// Where in the file a command comes from: its line, and the columns and field when known.
#[derive(Clone)]
struct At {
    line: usize,
    columns: Option<(usize, usize)>,
    field: String,
}

impl At {
    fn line(line: usize, field: impl Into<String>) -> At {
        At {
            line,
            columns: None,
            field: field.into(),
        }
    }
    fn cols(line: usize, from: usize, to: usize, field: impl Into<String>) -> At {
        At {
            line,
            columns: Some((from, to)),
            field: field.into(),
        }
    }
}

impl std::fmt::Display for At {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.columns {
            Some((a, b)) if a == b => write!(f, "line {}, column {a}", self.line)?,
            Some((a, b)) => write!(f, "line {}, columns {a}-{b}", self.line)?,
            None => write!(f, "line {}", self.line)?,
        }
        write!(f, " ({})", self.field)
    }
}

/// The columns of a `001` field a registration error names.
fn player_columns(field: &str) -> (usize, usize, &'static str) {
    match field {
        f if f.contains("name") => (15, 47, "name"),
        f if f.contains("rating") => (49, 52, "rating"),
        f if f.contains("federation") => (54, 56, "federation"),
        f if f.contains("fide") => (58, 68, "FIDE id"),
        f if f.contains("birth") => (70, 79, "birth date"),
        f if f.contains("title") => (11, 13, "title"),
        f if f.contains("sex") => (10, 10, "sex"),
        _ => (5, 8, "start number"),
    }
}

/// The header record a tournament field comes from.
fn header_code(field: &str) -> TextCode {
    match field {
        f if f.contains("place") => TextCode::City,
        f if f.contains("federation") => TextCode::Federation,
        f if f.contains("start") => TextCode::StartDate,
        f if f.contains("end") => TextCode::EndDate,
        f if f.contains("deputy") => TextCode::DeputyArbiter,
        f if f.contains("chief") || f.contains("arbiter") => TextCode::ChiefArbiter,
        f if f.contains("time_control") => TextCode::TimeControl,
        f if f.contains("tournament_type") => TextCode::TournamentType,
        _ => TextCode::TournamentName,
    }
}

/// Imports into a state in memory: each command decided and applied, or refused naming where
/// the file says what it asks.
struct Planner {
    state: State,
    commands: Vec<(String, Command)>,
}

impl Planner {
    fn run(&mut self, at: &At, what: String, command: Command) -> Result<(), String> {
        let events = decide(&self.state, &command).map_err(|e| format!("{at}: {what}: {e}"))?;
        for e in &events {
            self.state
                .try_apply(e)
                .map_err(|e| format!("{at}: {what}: {e}"))?;
        }
        self.commands.push((what, command));
        Ok(())
    }
}

/// The file being imported, with the lookups every step names its lines with.
struct Source<'a> {
    file: &'a TrfFile,
    /// The `001` records in start-number order (registration order).
    players: Vec<&'a arbiter_trf::PlayerRecord>,
}

impl<'a> Source<'a> {
    fn new(file: &'a TrfFile) -> Result<Source<'a>, String> {
        let mut players: Vec<&arbiter_trf::PlayerRecord> = file.players().collect();
        players.sort_by_key(|p| p.start_number);
        if players.is_empty() {
            return Err("line 1 (001 records): the file has no players".into());
        }
        Ok(Source { file, players })
    }

    /// The line of the first record `pred` holds for (line 1 when none does).
    fn line_of(&self, pred: &dyn Fn(&Record) -> bool) -> usize {
        self.file.records.iter().position(pred).map_or(1, |i| i + 1)
    }

    fn text_line(&self, code: TextCode) -> usize {
        self.line_of(&|r| matches!(r, Record::Text(t) if t.code == code))
    }

    fn player_line(&self, sn: PlayerId) -> usize {
        self.line_of(&|r| matches!(r, Record::Player(p) if p.start_number == sn))
    }

    /// The round-`r` block of player `sn`'s `001` record.
    fn round_at(&self, sn: PlayerId, r: u32) -> At {
        let c = 92 + 10 * (r as usize - 1);
        At::cols(self.player_line(sn), c, c + 7, format!("round {r}"))
    }

    /// The line of the first player, where a round's own errors are reported.
    fn round_line(&self, r: u32) -> At {
        At::line(
            self.player_line(self.players[0].start_number),
            format!("round {r}"),
        )
    }
}

/// What the header decides: the tournament's creation and what the later steps need of it.
struct Header {
    create: CreateTournament,
    round_robin: Option<PairingSystem>,
    /// Rounds 1..=rounds_played are paired in the file.
    rounds_played: u32,
    /// The event's number of rounds.
    total: u32,
    warnings: Vec<String>,
}

/// The file's start numbers mapped to the pairing numbers registration gave.
struct Numbers(BTreeMap<PlayerId, PlayerId>);

impl Numbers {
    fn map(&self, sn: PlayerId, at: &At) -> Result<PlayerId, String> {
        self.0
            .get(&sn)
            .copied()
            .ok_or_else(|| format!("{at}: there is no player {sn}"))
    }
}

/// Works out the import of a parsed file into tournament `id`, in memory. Errors name the
/// line, columns and field of the record at fault (and never panic).
pub fn plan(
    file: &TrfFile,
    id: &str,
    asked: Option<arbiter_pairing::RuleSet>,
) -> Result<Plan, String> {
    let src = Source::new(file)?;
    let Header {
        create,
        round_robin,
        rounds_played,
        total,
        warnings,
    } = header(&src, id, asked)?;
    let team_event = create.team_rules.is_some();
    let mut pl = Planner {
        state: State::default(),
        commands: Vec::new(),
    };
    create_tournament(&src, &mut pl, create)?;
    let numbers = register_players(&src, &mut pl)?;
    let renumbered = numbers.0.iter().any(|(a, b)| a != b);
    virtual_points(&src, &numbers, &mut pl)?;
    forbidden_pairings_and_teams(&src, &numbers, total, &mut pl)?;
    for r in 1..=rounds_played + 1 {
        if r > rounds_played && r > total {
            break;
        }
        unpaired_players(
            &src,
            &numbers,
            &mut pl,
            r,
            rounds_played,
            round_robin,
            team_event,
        )?;
        if r > rounds_played {
            break;
        }
        play_round(&src, &numbers, &mut pl, r, round_robin)?;
    }
    Ok(Plan {
        tournament: id.to_string(),
        commands: pl.commands,
        players: src.players.len() as u32,
        rounds: rounds_played,
        renumbered,
        warnings,
    })
}

/// The tournament's creation from the header records: what the service cannot run refused,
/// dates, rule set, number of rounds, round-robin form, point system, tie-breaks, the records
/// carried verbatim and the round dates.
fn header(
    src: &Source,
    id: &str,
    asked: Option<arbiter_pairing::RuleSet>,
) -> Result<Header, String> {
    let file = src.file;
    let players = &src.players[..];
    // A Berger round robin by its type code, unless a Dutch rule set is asked for.
    let berger = asked.is_none()
        && file
            .tournament_type()
            .is_some_and(|t| t.system == Some(TournamentSystem::BergerRoundRobin));
    let rule_set = match arbiter_pairing::trf::rule_set_for(asked, file)
        .map_err(|why| format!("{why}; give it with --system dutch-2017 or --system dutch-2025"))
    {
        // A round robin needs no Dutch rule set; its start date, when missing, is that of the
        // current rules.
        Err(_) if berger => arbiter_pairing::RuleSet::Dutch2025,
        r => r?,
    };
    refuse_unsupported(src)?;
    let date_of = |code: TextCode, name: &str| -> Result<Option<Date>, String> {
        match file.text(code) {
            None => Ok(None),
            Some(s) if s.trim().is_empty() => Ok(None),
            Some(s) => parse_trf_date(s).map(Some).ok_or_else(|| {
                format!(
                    "{}: {s:?} is not a date (YYYY/MM/DD)",
                    At::cols(src.text_line(code), 5, 4 + s.len().max(1), name)
                )
            }),
        }
    };
    // A file without dates gets the first day of its rule set (the service needs a date).
    let start = date_of(TextCode::StartDate, "start date")?.unwrap_or_else(|| match rule_set {
        arbiter_pairing::RuleSet::Dutch2017 => Date::ymd(2017, 7, 1).expect("date"),
        _ => Date::ymd(2025, 7, 1).expect("date"),
    });
    let end = match date_of(TextCode::EndDate, "end date")? {
        Some(d) if d < start => {
            return Err(format!(
                "{}: the end date {d} is before the start date {start}",
                At::line(src.text_line(TextCode::EndDate), "end date")
            ));
        }
        Some(d) => d,
        None => start,
    };
    let paired: Vec<u32> = (1..=file.round_columns())
        .filter(|&r| file.is_round_paired(r))
        .collect();
    let rounds_played = paired.len() as u32;
    if let Some((i, r)) = paired
        .iter()
        .enumerate()
        .find(|(i, r)| **r != *i as u32 + 1)
    {
        return Err(format!(
            "line {} (round {}): round {r} is paired but round {} is not",
            src.player_line(players[0].start_number),
            i + 1,
            i + 1
        ));
    }
    let total = file.total_rounds().max(rounds_played);
    if total > 99 {
        return Err(format!(
            "{}: {total} rounds; at most 99",
            At::line(
                src.line_of(&|r| matches!(r, Record::Xxr(_) | Record::Rounds(_))),
                "number of rounds"
            )
        ));
    }
    let name = file
        .tournament_name()
        .map(str::to_string)
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| id.to_string());
    let round_robin = if berger {
        let n = players.len() as u32;
        let single = n - 1 + n % 2;
        let at = At::line(
            src.line_of(&|r| matches!(r, Record::Xxr(_) | Record::Rounds(_))),
            "number of rounds",
        );
        match total {
            t if t == single => Some(PairingSystem::RoundRobin),
            t if t == 2 * single && n >= 2 => Some(PairingSystem::DoubleRoundRobin),
            t => {
                return Err(format!(
                    "{at}: {t} rounds; a Berger round robin (type code BERGER_ROUNDROBIN) of {n} players has {single}, or {} when double",
                    2 * single
                ));
            }
        }
    } else {
        None
    };
    let mut create = CreateTournament::new(name, start, end, total.max(1));
    create.place = file.text(TextCode::City).unwrap_or("").to_string();
    create.federation = federation(file.text(TextCode::Federation).unwrap_or(""));
    create.chief_arbiter = Arbiter::named(
        file.text(TextCode::ChiefArbiter)
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| "(not given in the file)".into()),
    );
    create.deputy_arbiters = file
        .records
        .iter()
        .filter_map(|r| match r {
            Record::Text(t) if t.code == TextCode::DeputyArbiter && !t.text.trim().is_empty() => {
                Some(Arbiter::named(t.text.trim()))
            }
            _ => None,
        })
        .collect();
    create.rule_set = Some(rule_set.name().to_string());
    if let Some(system) = round_robin {
        create.pairing_system = system;
        create.rule_set = Some(system.default_rule_set(start).to_string());
    }
    create.scoring = file.point_system();
    create.team_rules = team::rules(file, create.scoring)?;
    // A team event whose type code names FIDE's team Swiss (C.04.6, e.g.
    // FIDE_TEAM_TYPEB_MP_GP) is paired by it, on the score the code names, unless a Dutch
    // rule set is asked for.
    if asked.is_none()
        && round_robin.is_none()
        && let Some(rules) = create.team_rules.as_mut()
        && let Some(code) = file.tournament_type().map(|t| t.code)
        && let Some((system, primary)) =
            arbiter_core::teams::FideTeamSystem::from_type_code(code.trim_end_matches("_BAKU"))
    {
        if code.ends_with("_BAKU") {
            return Err(format!(
                "{}: {code}: the team Swiss is paired without acceleration here",
                At::line(
                    src.line_of(
                        &|r| matches!(r, Record::Text(x) if x.code == TextCode::TournamentType)
                    ),
                    "192 type code"
                )
            ));
        }
        create.rule_set = Some(system.rule_set());
        rules.primary = primary;
    }
    let team_event = create.team_rules.is_some();
    // A round robin's table gives the colours: the file's XXC, if any, is kept as it is.
    create.initial_color = match round_robin {
        Some(_) => file.declared_initial_color(),
        None => Some(file.initial_color().unwrap_or(Color::White)),
    };
    create.time_control = file.text(TextCode::TimeControl).unwrap_or("").to_string();
    create.tournament_type = file
        .text(TextCode::TournamentType)
        .or_else(|| file.text(TextCode::EncodedType))
        .unwrap_or("")
        .trim()
        .to_string();
    // The file's tie-break list (212, else 202) becomes the tournament's, so the service ranks
    // as the file says; a list that does not parse is refused, naming line and column.
    let mut warnings = Vec::new();
    match arbiter_tiebreak::trf::file_tiebreaks(file) {
        Ok(None) => {}
        Err(e) => warnings.push(format!(
            "{e}; the record is kept as written and the recommended tie-breaks apply until \
             the arbiter sets a list (arbiter client tie-breaks)"
        )),
        Ok(Some(found)) => {
            create.tie_breaks = found
                .list
                .0
                .iter()
                .map(|t| t.to_string())
                .filter(|t| t != "PTS")
                .collect::<Vec<_>>()
                .join(",");
        }
    }
    create.trf_records = carried_records(file, team_event)?;
    create.round_dates = round_dates(src)?;
    Ok(Header {
        create,
        round_robin,
        rounds_played,
        total,
        warnings,
    })
}

/// What the service cannot do is refused rather than dropped: the replay would differ.
fn refuse_unsupported(src: &Source) -> Result<(), String> {
    let file = src.file;
    if file.has_colour_dependent_scoring() {
        return Err(format!(
            "{}: points that depend on the colour (BW, BD, BL) are not supported",
            At::line(
                src.line_of(&|r| matches!(r, Record::Xxs(_))),
                "XXS point system"
            )
        ));
    }
    if let Some(i) = file
        .records
        .iter()
        .position(|r| matches!(r, Record::Xxc(o) if o.contains(&arbiter_trf::XxcOption::Rank)))
    {
        return Err(format!(
            "{}: pairing by ranking ids instead of pairing numbers is not supported",
            At::line(i + 1, "XXC rank")
        ));
    }
    // With 310 teams, TRF-2026 names teams in 240/250/260: team byes, team accelerations and
    // forbidden team pairings, which the service does not run yet.
    if file.records.iter().any(|r| matches!(r, Record::Team310(_)))
        && let Some(i) = file.records.iter().position(|r| {
            matches!(
                r,
                Record::Byes(_) | Record::Acceleration(_) | Record::Prohibited(_)
            )
        })
    {
        return Err(format!(
            "{}: with 310 team records its ids are team numbers: team byes, accelerations and forbidden pairings are not supported",
            At::cols(i + 1, 1, 3, "team record ids")
        ));
    }
    Ok(())
}

/// Records the service does not interpret, which travel verbatim (as written again).
fn carried_records(file: &TrfFile, team_event: bool) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for r in &file.records {
        let carried = match r {
            Record::Text(t) => matches!(
                t.code,
                TextCode::PairingController
                    | TextCode::EncodedType
                    | TextCode::TieBreaks
                    | TextCode::StandingsTieBreaks
                    | TextCode::EncodedTimeControl
                    | TextCode::BoardColours
                    | TextCode::TeamScoring
            ),
            Record::NationalRating(_)
            | Record::Comment(_)
            | Record::Other(_)
            | Record::TeamOrder300(_)
            | Record::TeamByes320(_)
            | Record::TeamForfeit330(_) => true,
            _ => false,
        };
        // A team event's 352, 362 and 320 are its rules and byes, written again from them.
        let modelled = team_event
            && matches!(
                r,
                Record::TeamByes320(_)
                    | Record::Text(arbiter_trf::TextRecord {
                        code: TextCode::BoardColours | TextCode::TeamScoring,
                        ..
                    })
            );
        if carried && !modelled {
            let line = arbiter_trf::write(&TrfFile {
                records: vec![r.clone()],
            })
            .map_err(|e| format!("a carried record: {e}"))?;
            out.push(line.trim_end_matches(['\r', '\n']).to_string());
        }
    }
    Ok(out)
}

/// The `132` round dates.
fn round_dates(src: &Source) -> Result<Vec<Option<Date>>, String> {
    let file = src.file;
    Ok(file
        .records
        .iter()
        .find_map(|r| match r {
            Record::RoundDates(d) => Some(d),
            _ => None,
        })
        .map(|d| {
            d.dates
                .iter()
                .enumerate()
                .map(|(i, x)| match x {
                    None => Ok(None),
                    Some(x) => Date::ymd(2000 + x.yy as i32, x.month as u32, x.day as u32)
                        .map(Some)
                        .map_err(|_| {
                            format!(
                                "{}: {x} is not a date",
                                At::cols(
                                    src.line_of(&|r| matches!(r, Record::RoundDates(_))),
                                    92 + 10 * i,
                                    99 + 10 * i,
                                    format!("round {} date", i + 1)
                                )
                            )
                        }),
                })
                .collect::<Result<Vec<_>, String>>()
        })
        .transpose()?
        .unwrap_or_default())
}

/// Creates the tournament, a refusal naming the header record of the field at fault.
fn create_tournament(
    src: &Source,
    pl: &mut Planner,
    create: CreateTournament,
) -> Result<(), String> {
    if let Err(e) = decide(&pl.state, &Command::CreateTournament(create.clone())) {
        let field = match &e {
            DomainError::Invalid { field, .. } => field.clone(),
            _ => "tournament".into(),
        };
        let code = header_code(&field);
        return Err(format!(
            "{}: {e}",
            At::line(src.text_line(code), format!("{} {field}", code.code()))
        ));
    }
    pl.run(
        &At::line(1, "header"),
        "create the tournament".into(),
        Command::CreateTournament(create),
    )
}

/// Registers the players in start-number order; returns the pairing number each was given.
fn register_players(src: &Source, pl: &mut Planner) -> Result<Numbers, String> {
    let players = &src.players[..];
    for p in players {
        let birth_date = p.birth_date.and_then(|b| match b {
            arbiter_trf::BirthDate::Full { year, month, day } => {
                Date::new(year as i32, month as u32, day as u32).ok()
            }
            arbiter_trf::BirthDate::Year(y) => Date::new(y as i32, 0, 0).ok(),
        });
        let register = RegisterPlayer {
            name: p.name.clone(),
            fide_id: p.fide_id.filter(|id| *id > 0),
            rating: p.rating.unwrap_or(0) as u32,
            title: p.title.as_ref().and_then(arbiter_trf::TitleCode::title),
            federation: federation(&p.federation),
            birth_date,
            sex: p.sex.map(|s| match s {
                arbiter_trf::Sex::Male => Sex::Male,
                arbiter_trf::Sex::Female => Sex::Female,
            }),
            // The file is the record of who played: two players of one name are two.
            confirm_same_name: true,
            // And of their numbers: kept as the file gives them, in start-number order.
            next_number: true,
            ..RegisterPlayer::default()
        };
        let command = Command::RegisterPlayer(register);
        if let Err(e) = decide(&pl.state, &command) {
            let (a, b, field) = match &e {
                DomainError::Invalid { field, .. } => player_columns(field),
                _ => (5, 8, "start number"),
            };
            return Err(format!(
                "{}: player {}: {e}",
                At::cols(src.player_line(p.start_number), a, b, field),
                p.start_number
            ));
        }
        pl.run(
            &At::line(src.player_line(p.start_number), "player"),
            format!("player {} ({})", p.start_number, p.name),
            command,
        )?;
    }
    // Start numbers of the file -> pairing numbers given (registration order = file order).
    let mut pn_of: BTreeMap<PlayerId, PlayerId> = BTreeMap::new();
    for (i, p) in players.iter().enumerate() {
        let pn = pl
            .state
            .player_by_entry(EntryId(i as u32))
            .map(|r| r.pairing_number())
            .ok_or_else(|| format!("player {} was not registered", p.start_number))?;
        pn_of.insert(p.start_number, pn);
    }
    Ok(Numbers(pn_of))
}

/// Acceleration: every player's virtual points as the file gives them.
fn virtual_points(src: &Source, numbers: &Numbers, pl: &mut Planner) -> Result<(), String> {
    let file = src.file;
    let acc = file.accelerations();
    if acc.source != AccelerationSource::None {
        for (&sn, points) in &acc.points {
            if points.iter().all(|s| *s == arbiter_core::Score::ZERO) {
                continue;
            }
            let at = match acc.source {
                AccelerationSource::Xxa => At::line(
                    src.line_of(&|r| matches!(r, Record::Xxa(x) if x.player == sn)),
                    "XXA virtual points",
                ),
                AccelerationSource::Record250 => At::line(
                    src.line_of(
                        &|r| matches!(r, Record::Acceleration(a) if (a.first_id..=a.last_id).contains(&sn)),
                    ),
                    "250 acceleration",
                ),
                _ => At::line(src.text_line(TextCode::EncodedType), "type code (Baku)"),
            };
            let player = numbers.map(sn, &at)?;
            pl.run(
                &at,
                format!("virtual points of player {sn}"),
                Command::SetVirtualPoints(SetVirtualPoints {
                    player,
                    points: points.clone(),
                }),
            )?;
        }
    }
    Ok(())
}

/// Forbidden pairings and teams, in file order.
fn forbidden_pairings_and_teams(
    src: &Source,
    numbers: &Numbers,
    total: u32,
    pl: &mut Planner,
) -> Result<(), String> {
    let file = src.file;
    // A team record (013 or 310, whose member columns start at `first`): its members mapped
    // to pairing numbers, then one RecordTeam command.
    let record_team = |pl: &mut Planner,
                       (line, first, code): (usize, usize, &str),
                       raw: &[Option<PlayerId>],
                       mut team: TeamRecorded|
     -> Result<(), String> {
        let at = At::cols(
            line,
            first,
            first - 2 + 5 * raw.len().max(1),
            format!("{code} team members"),
        );
        team.members = raw
            .iter()
            .map(|m| m.map(|sn| numbers.map(sn, &at)).transpose())
            .collect::<Result<Vec<_>, _>>()?;
        pl.run(
            &at,
            format!("team {}", team.name),
            Command::RecordTeam(RecordTeam { team }),
        )
    };
    for (i, r) in file.records.iter().enumerate() {
        let line = i + 1;
        match r {
            Record::Xxp(ids) | Record::Prohibited(arbiter_trf::ProhibitedRecord { ids, .. }) => {
                // The ids' columns: from 13 in record 260, from 5 in XXP, five columns each.
                let (rounds, field, from) = match r {
                    // Every round of the event: the whole event, as XXP says it.
                    Record::Prohibited(p) if p.first_round <= 1 && p.last_round >= total => {
                        (None, "260", 13)
                    }
                    Record::Prohibited(p) => (Some((p.first_round, p.last_round)), "260", 13),
                    _ => (None, "XXP", 5),
                };
                let at = At::cols(
                    line,
                    from,
                    from + 5 * ids.len().max(1) - 2,
                    format!("{field} forbidden pairing"),
                );
                let players = ids
                    .iter()
                    .map(|&sn| numbers.map(sn, &at))
                    .collect::<Result<Vec<_>, _>>()?;
                pl.run(
                    &at,
                    format!("forbidden pairing on line {line}"),
                    Command::ForbidPairings(ForbidPairings { players, rounds }),
                )?;
            }
            Record::Team013(t) => record_team(
                pl,
                (line, 37, "013"),
                &t.members,
                TeamRecorded {
                    name: t.name.clone(),
                    ..TeamRecorded::default()
                },
            )?,
            Record::Team310(t) => record_team(
                pl,
                (line, 74, "310"),
                &t.members,
                TeamRecorded {
                    number: t.number,
                    name: t.name.clone(),
                    nickname: t.nickname.clone(),
                    strength: t.strength,
                    match_points: t.match_points,
                    game_points: t.game_points,
                    rank: t.rank,
                    members: Vec::new(),
                },
            )?,
            _ => {}
        }
    }

    Ok(())
}

/// Round `r`'s players who are not paired in it: their bye or absence. For the round after the
/// last paired one: the byes announced in its column, by XXZ or by record 240.
fn unpaired_players(
    src: &Source,
    numbers: &Numbers,
    pl: &mut Planner,
    r: u32,
    rounds_played: u32,
    round_robin: Option<PairingSystem>,
    team_event: bool,
) -> Result<(), String> {
    let file = src.file;
    let players = &src.players[..];
    let announced = if r > rounds_played {
        file.absences(r)
    } else {
        BTreeMap::new()
    };
    // A round robin's rest is the table's, not a bye.
    let rest = match round_robin {
        Some(_) if r <= rounds_played => pl.state.scheduled_round(r).ok().and_then(|s| s.rest),
        _ => None,
    };
    for p in players {
        let e = p.entry(r).copied();
        // In a team event a player without a game sits out his team's match: no command.
        if team_event || e.as_ref().is_some_and(is_paired) {
            continue;
        }
        if rest.is_some() && rest == numbers.0.get(&p.start_number).copied() {
            continue;
        }
        let code = if r > rounds_played {
            match announced.get(&p.start_number) {
                Some(c) => Some(*c),
                None => continue,
            }
        } else {
            e.map(|e| e.result)
        };
        let at = src.round_at(p.start_number, r);
        let pn = numbers.map(p.start_number, &at)?;
        let command = match code {
            Some(ResultCode::HalfBye) => Command::RequestBye(RequestBye {
                player: pn,
                round: r,
                kind: ByeKind::HalfPoint,
            }),
            Some(ResultCode::FullBye | ResultCode::ForfeitWin) => Command::RequestBye(RequestBye {
                player: pn,
                round: r,
                kind: ByeKind::FullPoint,
            }),
            Some(_) => Command::RequestBye(RequestBye {
                player: pn,
                round: r,
                kind: ByeKind::ZeroPoint,
            }),
            None => Command::DeclareAbsence(DeclareAbsence {
                player: pn,
                round: r,
                reason: crate::trf_export::NOT_PAIRED_IN_FILE.into(),
            }),
        };
        pl.run(
            &at,
            format!("round {r}: player {}", p.start_number),
            command,
        )?;
    }
    Ok(())
}

/// A paired round as recorded: started, its pairing published by hand (a team event's through
/// its line-ups and matches), its results recorded and the round closed.
fn play_round(
    src: &Source,
    numbers: &Numbers,
    pl: &mut Planner,
    r: u32,
    round_robin: Option<PairingSystem>,
) -> Result<(), String> {
    let file = src.file;
    let players = &src.players[..];
    pl.run(
        &src.round_line(r),
        format!("round {r}: start"),
        Command::StartRound(StartRound {
            round: r,
            scheduled_unix_ms: None,
        }),
    )?;
    // The recorded pairing: each game once, from White's line.
    let mut games: Vec<(PlayerId, PlayerId, ResultCode, ResultCode, PlayerId)> = Vec::new();
    let mut bye = None;
    for p in players {
        let Some(e) = p.entry(r) else { continue };
        let at = src.round_at(p.start_number, r);
        if e.result == ResultCode::PairingBye && e.opponent.is_none() {
            bye = Some(numbers.map(p.start_number, &at)?);
            continue;
        }
        // A forfeit written with colour `-` on both lines is still a pairing of its round;
        // its colours were never played (C.04.1 colour history skips forfeits), so the
        // lower start number is put on White's side of the board.
        let colourless_forfeit = |o: PlayerId| {
            !e.result.is_played()
                && file
                    .player(o)
                    .and_then(|q| q.entry(r))
                    .is_some_and(|q| q.color.is_none() && q.opponent == Some(p.start_number))
        };
        let white = match (e.opponent, e.color) {
            (Some(o), Some(Color::White)) => Some(o),
            (Some(o), None) if colourless_forfeit(o) => (p.start_number < o).then_some(o),
            (Some(_), None) => return Err(format!("{at}: an opponent but no colour")),
            _ => None,
        };
        let Some(o) = white else {
            continue;
        };
        let black = file
            .player(o)
            .and_then(|q| q.entry(r))
            .ok_or_else(|| format!("{at}: opponent {o} has no entry in round {r}"))?;
        games.push((
            numbers.map(p.start_number, &at)?,
            numbers.map(o, &at)?,
            e.result,
            black.result,
            p.start_number,
        ));
    }
    if let Some(rules) = pl.state.team_rules().cloned() {
        let at = src.round_line(r);
        let pairs: Vec<(PlayerId, PlayerId)> = games.iter().map(|g| (g.0, g.1)).collect();
        let (lineups, matches) =
            team::round(&pl.state, &rules, r, &pairs).map_err(|why| format!("{at}: {why}"))?;
        for (team, players) in lineups {
            pl.run(
                &at,
                format!("round {r}: team {team}'s line-up"),
                Command::SubmitLineup(SubmitLineup {
                    round: r,
                    team,
                    players,
                }),
            )?;
        }
        pl.run(
            &at,
            format!("round {r}: publish the recorded team pairing"),
            Command::PublishPairing(PublishPairing {
                round: r,
                proposal_version: None,
                changes: Some(ManualPairing {
                    boards: Vec::new(),
                    bye: None,
                    team_matches: matches,
                    team_bye: team::bye(file, r),
                }),
                note: "imported from a TRF file".into(),
            }),
        )?;
        let published = pl
            .state
            .published(r)
            .ok_or_else(|| format!("{at}: the round was not published"))?;
        for g in &games {
            let board = published
                .boards
                .iter()
                .find(|b| (b.white, b.black) == (g.0, g.1))
                .map(|b| b.number)
                .ok_or_else(|| {
                    format!(
                        "{}: the game is on no board of its match",
                        src.round_at(g.4, r)
                    )
                })?;
            pl.run(
                &src.round_at(g.4, r),
                format!("round {r}, board {board}: result"),
                Command::RecordResult(RecordResult {
                    round: r,
                    board,
                    result: board_result(g.2, g.3),
                }),
            )?;
        }
        pl.run(
            &at,
            format!("round {r}: close"),
            Command::CloseRound(CloseRound { round: r }),
        )?;
        return Ok(());
    }
    // Board order: a round robin's is its table's (a game not in the table goes last and
    // is refused naming its board); else the higher score before the round first, then the
    // lower pairing number.
    if round_robin.is_some() {
        let table: Vec<(PlayerId, PlayerId)> = pl
            .state
            .scheduled_round(r)
            .map(|s| {
                s.boards
                    .iter()
                    .map(|p| (p.white.min(p.black), p.white.max(p.black)))
                    .collect()
            })
            .unwrap_or_default();
        games.sort_by_key(|g| {
            table
                .iter()
                .position(|&t| t == (g.0.min(g.1), g.0.max(g.1)))
                .unwrap_or(usize::MAX)
        });
    } else {
        let before = |pn: PlayerId| pl.state.score_after(pn, r - 1).map_or(0, |s| s.tenths());
        games.sort_by_key(|g| {
            (
                std::cmp::Reverse(before(g.0).max(before(g.1))),
                g.0.min(g.1),
            )
        });
    }
    pl.run(
        &src.round_line(r),
        format!("round {r}: publish the recorded pairing"),
        Command::PublishPairing(PublishPairing {
            round: r,
            proposal_version: None,
            changes: Some(ManualPairing {
                boards: games.iter().map(|g| Pair::new(g.0, g.1)).collect(),
                bye,
                team_bye: None,
                team_matches: Vec::new(),
            }),
            note: "imported from a TRF file".into(),
        }),
    )?;
    for (i, g) in games.iter().enumerate() {
        pl.run(
            &src.round_at(g.4, r),
            format!("round {r}, board {}: result", i + 1),
            Command::RecordResult(RecordResult {
                round: r,
                board: i as u32 + 1,
                result: board_result(g.2, g.3),
            }),
        )?;
    }
    pl.run(
        &src.round_line(r),
        format!("round {r}: close"),
        Command::CloseRound(CloseRound { round: r }),
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trf_dates() {
        let d = |s: &str| parse_trf_date(s).map(|d| d.to_string());
        assert_eq!(d("2025/09/01").as_deref(), Some("2025-09-01"));
        assert_eq!(d("2025-09-01").as_deref(), Some("2025-09-01"));
        assert_eq!(d("01.09.2025").as_deref(), Some("2025-09-01"));
        assert_eq!(d("25/09/01").as_deref(), Some("2025-09-01"));
        assert_eq!(d("soon"), None);
        assert_eq!(d("2025/13/01"), None);
    }
}
