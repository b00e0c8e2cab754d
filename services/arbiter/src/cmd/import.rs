//! `arbiter import IN.trf`: turns a TRF file into a tournament's event stream, through the same
//! commands the services run: the tournament is created, the players registered (in start-number
//! order), then each paired round is started, its pairing published as recorded (a pairing by
//! hand, noted as imported), its results recorded and the round closed. Players not paired in a
//! round get their bye (`H`, `F`, `Z`) or an absence. Byes already announced for the next round
//! are requested too. Prints the tournament id.
//!
//! Every command has the id `import:<n>`, so importing the same file again into the same
//! tournament appends nothing.

use super::backend::{Exit, LogArgs, block_on, status_exit};
use arbiter_core::tournament::{
    Arbiter, BoardResult, ByeKind, CloseRound, Command, CreateTournament, Date, DeclareAbsence,
    EntryId, ManualPairing, Pair, PublishPairing, RecordResult, RegisterPlayer, RequestBye, Sex,
    StartRound, Title,
};
use arbiter_core::{Color, PlayerId, ResultCode, RoundEntry};
use arbiter_round_director::store::{CommandContext, TournamentStore, stream_of};
use arbiter_trf::{TextCode, TrfFile};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    /// The TRF file (TRF16 with the XX/BB extensions, or TRF-2026).
    pub input: PathBuf,
    #[command(flatten)]
    pub log: LogArgs,
    /// The tournament id (default: the file name without extension).
    #[arg(long)]
    pub id: Option<String>,
    /// The rule set: dutch-2017 or dutch-2025 (default: the file's type code, else the rules in
    /// force on its start date, else dutch-2025).
    #[arg(long)]
    pub rule_set: Option<String>,
}

pub fn run(a: ImportArgs) -> ExitCode {
    block_on(import(a))
}

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

fn id_from_path(p: &std::path::Path) -> String {
    let stem = p
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let id: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '-'
            }
        })
        .take(100)
        .collect();
    if id.is_empty() { "imported".into() } else { id }
}

fn title_of(t: &arbiter_trf::Title) -> Option<Title> {
    Some(match t {
        arbiter_trf::Title::GM => Title::GM,
        arbiter_trf::Title::IM => Title::IM,
        arbiter_trf::Title::WGM => Title::WGM,
        arbiter_trf::Title::FM => Title::FM,
        arbiter_trf::Title::WIM => Title::WIM,
        arbiter_trf::Title::CM => Title::CM,
        arbiter_trf::Title::WFM => Title::WFM,
        arbiter_trf::Title::WCM => Title::WCM,
        arbiter_trf::Title::Other(_) => return None,
    })
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

struct Importer {
    store: Arc<TournamentStore>,
    tournament: String,
    n: u32,
    events: u64,
}

impl Importer {
    async fn run(&mut self, what: &str, command: Command) -> Result<(), Exit> {
        self.n += 1;
        let ctx = CommandContext::new(
            &self.tournament,
            &format!("import:{}", self.n),
            None,
            "import",
        )
        .map_err(|s| status_exit("tournament id", &s))?;
        let o = self
            .store
            .execute(&ctx, |_| Ok(command.clone()))
            .await
            .map_err(|s| status_exit(what, &s))?;
        self.events = o.last_version;
        Ok(())
    }
}

async fn import(a: ImportArgs) -> Result<(), Exit> {
    let bytes = std::fs::read(&a.input)
        .map_err(|e| Exit::Unavailable(format!("cannot read {}: {e}", a.input.display())))?;
    let trf = arbiter_trf::parse_bytes(&bytes)
        .map_err(|e| Exit::Invalid(format!("{}: {e}", a.input.display())))?;
    let file = trf.file;
    let id = a.id.clone().unwrap_or_else(|| id_from_path(&a.input));
    let stream = stream_of(&id).map_err(|s| status_exit("--id", &s))?;
    let opened = a.log.open().await?;
    let log = opened.as_dyn();
    let store = Arc::new(TournamentStore::new(log.clone(), "import", None));
    let mut im = Importer {
        store: store.clone(),
        tournament: id.clone(),
        n: 0,
        events: 0,
    };
    let rule_set = match &a.rule_set {
        Some(r) => Some(
            r.parse::<arbiter_pairing::RuleSet>()
                .map_err(|e| Exit::Invalid(format!("--rule-set: {e}")))?,
        ),
        None => None,
    };
    let summary = import_file(&mut im, &file, &a.input.display().to_string(), rule_set).await?;
    if let super::backend::OpenedLog::Sled(l) = &opened {
        let _ = l.flush().await;
    }
    let version = log
        .last_version(&stream)
        .await
        .map_err(|e| Exit::Unavailable(e.to_string()))?;
    eprintln!(
        "imported {}: {} players, {} rounds, stream {stream} at version {version} ({})",
        a.input.display(),
        summary.0,
        summary.1,
        opened.describe(&a.log)
    );
    println!("{id}");
    Ok(())
}

/// Imports a parsed file; returns (players, rounds).
async fn import_file(
    im: &mut Importer,
    file: &TrfFile,
    source: &str,
    rule_set: Option<arbiter_pairing::RuleSet>,
) -> Result<(u32, u32), Exit> {
    let invalid = |m: String| Exit::Invalid(format!("{source}: {m}"));
    let mut players: Vec<&arbiter_trf::PlayerRecord> = file.players().collect();
    players.sort_by_key(|p| p.start_number);
    if players.is_empty() {
        return Err(invalid("the file has no players (001 records)".into()));
    }
    let rule_set = rule_set
        .or_else(|| arbiter_pairing::trf::rule_set_of(file))
        .unwrap_or(arbiter_pairing::RuleSet::Dutch2025);
    let start = file
        .text(TextCode::StartDate)
        .and_then(parse_trf_date)
        .unwrap_or_else(|| match rule_set {
            arbiter_pairing::RuleSet::Dutch2017 => Date::ymd(2017, 7, 1).expect("date"),
            arbiter_pairing::RuleSet::Dutch2025 => Date::ymd(2025, 7, 1).expect("date"),
        });
    let end = file
        .text(TextCode::EndDate)
        .and_then(parse_trf_date)
        .filter(|d| *d >= start)
        .unwrap_or(start);
    let paired: Vec<u32> = (1..=file.round_columns())
        .filter(|&r| file.is_round_paired(r))
        .collect();
    let rounds_played = paired.len() as u32;
    if paired.iter().enumerate().any(|(i, r)| *r != i as u32 + 1) {
        return Err(invalid(format!(
            "paired rounds {paired:?} are not consecutive from round 1"
        )));
    }
    let name = file
        .tournament_name()
        .map(str::to_string)
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| im.tournament.clone());
    let mut create = CreateTournament::new(
        name.chars().take(200).collect::<String>(),
        start,
        end,
        file.total_rounds().max(rounds_played).clamp(1, 99),
    );
    create.place = file
        .text(TextCode::City)
        .unwrap_or("")
        .chars()
        .take(200)
        .collect();
    create.federation = federation(file.text(TextCode::Federation).unwrap_or(""));
    create.chief_arbiter = Arbiter::named(
        file.text(TextCode::ChiefArbiter)
            .map(|s| s.trim().chars().take(200).collect::<String>())
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| "(not given in the file)".into()),
    );
    create.rule_set = Some(rule_set.name().to_string());
    create.scoring = file.point_system();
    create.initial_color = Some(file.initial_color().unwrap_or(Color::White));
    create.time_control = file
        .text(TextCode::TimeControl)
        .unwrap_or("")
        .chars()
        .take(200)
        .collect();
    im.run("create the tournament", Command::CreateTournament(create))
        .await?;

    for p in &players {
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
            title: p.title.as_ref().and_then(title_of),
            federation: federation(&p.federation),
            birth_date,
            sex: p.sex.map(|s| match s {
                arbiter_trf::Sex::Male => Sex::Male,
                arbiter_trf::Sex::Female => Sex::Female,
            }),
            ..RegisterPlayer::default()
        };
        im.run(
            &format!("player {} ({})", p.start_number, p.name),
            Command::RegisterPlayer(register),
        )
        .await?;
    }
    // Start numbers of the file -> pairing numbers given (registration order = file order).
    let folded = im
        .store
        .current(&stream_of(&im.tournament).expect("checked"))
        .await
        .map_err(|e| Exit::Damaged(e.to_string()))?;
    let mut pn_of: BTreeMap<PlayerId, PlayerId> = BTreeMap::new();
    for (i, p) in players.iter().enumerate() {
        let pn = folded
            .state
            .player_by_entry(EntryId(i as u32))
            .map(|r| r.pairing_number())
            .ok_or_else(|| Exit::Damaged("a registered player is missing".into()))?;
        pn_of.insert(p.start_number, pn);
    }
    if pn_of.iter().any(|(a, b)| a != b) {
        eprintln!(
            "note: {source}: the file's start numbers do not follow the initial ranking \
             (rating, title, name); players get the pairing numbers of the ranking and the \
             history is renumbered"
        );
    }
    let map = |sn: PlayerId| -> Result<PlayerId, Exit> {
        pn_of
            .get(&sn)
            .copied()
            .ok_or_else(|| invalid(format!("unknown player {sn}")))
    };

    for r in 1..=rounds_played + 1 {
        if r > rounds_played && (r > file.round_columns() || r > file.total_rounds()) {
            break;
        }
        // Players not paired this round: their bye or absence.
        for p in &players {
            let e = p.entry(r).copied();
            if e.as_ref().is_some_and(is_paired) {
                continue;
            }
            if r > rounds_played && e.is_none() {
                continue; // next round: only announced byes
            }
            let pn = map(p.start_number)?;
            let command = match e.map(|e| e.result) {
                Some(ResultCode::HalfBye) => Command::RequestBye(RequestBye {
                    player: pn,
                    round: r,
                    kind: ByeKind::HalfPoint,
                }),
                Some(ResultCode::FullBye | ResultCode::ForfeitWin) => {
                    Command::RequestBye(RequestBye {
                        player: pn,
                        round: r,
                        kind: ByeKind::FullPoint,
                    })
                }
                Some(_) => Command::RequestBye(RequestBye {
                    player: pn,
                    round: r,
                    kind: ByeKind::ZeroPoint,
                }),
                None => Command::DeclareAbsence(DeclareAbsence {
                    player: pn,
                    round: r,
                    reason: "not paired in the imported file".into(),
                }),
            };
            im.run(&format!("round {r}: player {}", p.start_number), command)
                .await?;
        }
        if r > rounds_played {
            break;
        }
        im.run(
            &format!("round {r}: start"),
            Command::StartRound(StartRound {
                round: r,
                scheduled_unix_ms: None,
            }),
        )
        .await?;
        // The recorded pairing: each game once, from White's line.
        let mut games: Vec<(PlayerId, PlayerId, ResultCode, ResultCode)> = Vec::new();
        let mut bye = None;
        for p in &players {
            let Some(e) = p.entry(r) else { continue };
            if e.result == ResultCode::PairingBye && e.opponent.is_none() {
                bye = Some(map(p.start_number)?);
                continue;
            }
            let (Some(o), Some(Color::White)) = (e.opponent, e.color) else {
                if e.opponent.is_some() && e.color.is_none() {
                    return Err(invalid(format!(
                        "round {r}: player {} has an opponent but no colour",
                        p.start_number
                    )));
                }
                continue;
            };
            let black = file
                .player(o)
                .and_then(|q| q.entry(r))
                .ok_or_else(|| invalid(format!("round {r}: opponent {o} has no entry")))?;
            games.push((map(p.start_number)?, map(o)?, e.result, black.result));
        }
        // Board order: the higher score before the round first, then the lower pairing number.
        let folded = im
            .store
            .current(&stream_of(&im.tournament).expect("checked"))
            .await
            .map_err(|e| Exit::Damaged(e.to_string()))?;
        let before = |pn: PlayerId| {
            folded
                .state
                .score_after(pn, r - 1)
                .map_or(0, |s| s.tenths())
        };
        games.sort_by_key(|g| {
            (
                std::cmp::Reverse(before(g.0).max(before(g.1))),
                g.0.min(g.1),
            )
        });
        im.run(
            &format!("round {r}: publish the recorded pairing"),
            Command::PublishPairing(PublishPairing {
                round: r,
                proposal_version: None,
                changes: Some(ManualPairing {
                    boards: games.iter().map(|g| Pair::new(g.0, g.1)).collect(),
                    bye,
                }),
                note: format!("imported from {source}"),
            }),
        )
        .await?;
        for (i, g) in games.iter().enumerate() {
            im.run(
                &format!("round {r}, board {}: result", i + 1),
                Command::RecordResult(RecordResult {
                    round: r,
                    board: i as u32 + 1,
                    result: board_result(g.2, g.3),
                }),
            )
            .await?;
        }
        im.run(
            &format!("round {r}: close"),
            Command::CloseRound(CloseRound { round: r }),
        )
        .await?;
    }
    Ok((players.len() as u32, rounds_played))
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

    #[test]
    fn ids_from_file_names() {
        assert_eq!(
            id_from_path(std::path::Path::new("/x/open 2025.trf")),
            "open-2025"
        );
        assert_eq!(id_from_path(std::path::Path::new(".trf")), "-trf");
    }
}
