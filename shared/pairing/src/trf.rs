//! From a parsed TRF file to the tournament record the pairing engine replays.

use crate::{RecordPlayer, RuleSet, TournamentRecord};
use arbiter_core::{ResultCode, RoundEntry};
use arbiter_trf::{DutchRules, TextCode, TrfFile};

/// The tournament record of a TRF file (any profile: TRF16 with XX/BB extensions, TRF-2026).
pub fn record_from_trf(file: &TrfFile) -> Result<TournamentRecord, String> {
    let acc = file.accelerations();
    // A blank block in a round that was paired is a player who was not paired (withdrawn or
    // absent; in TRF16 a blank result is `Z`), as the endorsed checkers read it; only
    // the round to be paired keeps blanks as "to be paired".
    let paired: Vec<u32> = (1..=file.round_columns())
        .filter(|&r| file.is_round_paired(r))
        .collect();
    let players: Vec<RecordPlayer> = file
        .players()
        .map(|p| {
            let mut rounds = p.rounds.clone();
            for &r in &paired {
                let i = r as usize - 1;
                if rounds.len() <= i {
                    rounds.resize(i + 1, None);
                }
                rounds[i].get_or_insert(RoundEntry::bye(ResultCode::ZeroBye));
            }
            RecordPlayer {
                id: p.start_number,
                rating: p.rating.unwrap_or(0),
                rounds,
                acceleration: acc.points.get(&p.start_number).cloned().unwrap_or_default(),
            }
        })
        .collect();
    if players.is_empty() {
        return Err("the file has no players (001 records)".into());
    }
    let next = file.round_to_pair();
    Ok(TournamentRecord {
        players,
        points: file.point_system(),
        total_rounds: file.total_rounds(),
        initial_color: file.initial_color(),
        absent_next: file.absent_players(next),
        forbidden_pairs: file.forbidden_pairs(next).into_iter().collect(),
    })
}

/// The rule set to pair a file under: the one asked for, else the one the file asks for
/// ([`rule_set_of`]). Never a silent default: the two Dutch rule sets pair differently, so a
/// file that names neither (no type code, no start date) is refused, and the caller names the
/// way to give it.
pub fn rule_set_for(asked: Option<RuleSet>, file: &TrfFile) -> Result<RuleSet, String> {
    asked.or_else(|| rule_set_of(file)).ok_or_else(|| {
        "the file names no rule set (no type code in record 092 or 192) and no start date \
         (record 042) to tell the rules in force"
            .to_string()
    })
}

/// The rule set a file asks for: its type code (192: a Dutch rule set, `FIDE_BURSTEIN` or
/// `FIDE_DUBOV` without `_BAKU`), else the rules in force on its start date (042). The type-code table names
/// no code for Lim.
pub fn rule_set_of(file: &TrfFile) -> Option<RuleSet> {
    let kind = file.tournament_type();
    if let Some(r) = kind.as_ref().and_then(|t| t.dutch_rules()) {
        return Some(match r {
            DutchRules::Dutch2017 => RuleSet::Dutch2017,
            DutchRules::Dutch2025 => RuleSet::Dutch2025,
        });
    }
    // Without Baku acceleration, which these engines do not take from a type code.
    match kind.filter(|t| !t.baku).and_then(|t| t.system) {
        Some(arbiter_trf::TournamentSystem::FideBurstein) => return Some(RuleSet::Burstein),
        Some(arbiter_trf::TournamentSystem::FideDubov) => return Some(RuleSet::Dubov),
        _ => {}
    }
    let date = file.text(TextCode::StartDate)?;
    let digits: Vec<i32> = date
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .filter_map(|s| s.parse().ok())
        .collect();
    match digits.as_slice() {
        [y, m, d, ..] if *y > 1900 => Some(RuleSet::dutch_in_force_on(*y, *m as u32, *d as u32)),
        [y, m, d, ..] if *y < 100 => {
            Some(RuleSet::dutch_in_force_on(2000 + *y, *m as u32, *d as u32))
        }
        _ => None,
    }
}
