//! From a folded tournament to the engine and back: the engine's input for a round, its
//! canonical digest, and the answer (proposal or failure) the worker appends.

use arbiter_core::tournament::{
    Engine, PairingSnapshot, PairingSystem, ProposePairing, ReportPairingFailure, ScheduledRound,
    State,
};
use arbiter_core::{Color, Score};
use arbiter_pairing::{PairingInput, PlayerInput, RoundPairing, RuleSet, pair};
use sha2::{Digest, Sha256};

/// The engine the worker runs, as proposals record it.
pub fn engine() -> Engine {
    Engine {
        name: "arbiter-dutch".to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
    }
}

/// What proposes a round robin's rounds: the Berger table, or a Scheveningen match's table
/// (shared/roundrobin), not an engine's search.
pub fn round_robin_engine(state: &State) -> Engine {
    let name = match state.tournament().map(|t| t.pairing_system) {
        Some(PairingSystem::Scheveningen | PairingSystem::SemiScheveningen) => {
            "arbiter-scheveningen"
        }
        Some(PairingSystem::Skalitzka) => "arbiter-skalitzka",
        Some(PairingSystem::Hilton) => "arbiter-hilton",
        Some(PairingSystem::Knockout) => "arbiter-knockout",
        _ => "arbiter-berger",
    };
    Engine {
        name: name.to_string(),
        version: env!("CARGO_PKG_VERSION").to_string(),
    }
}

/// Whether the tournament is a round robin (its rounds come from its schedule).
pub fn is_round_robin(state: &State) -> bool {
    state
        .tournament()
        .is_some_and(|t| !t.pairing_system.is_swiss())
}

/// SHA-256 of what a round robin's round is derived from: rule set, round, number of rounds and
/// the field (pairing numbers 1..=n, the drawing of lots). Nothing else enters the Berger table.
pub fn round_robin_digest(state: &State, round: u32) -> [u8; 32] {
    if state
        .tournament()
        .is_some_and(|t| t.pairing_system == PairingSystem::Knockout)
    {
        return knockout_digest(state, round);
    }
    let mut h = schedule_hasher(b"arbiter.round-robin-input.v1\0", state, round);
    h.update(state.player_count().to_be_bytes());
    h.finalize().into()
}

/// A digest started with `tag` and what every drawn schedule depends on: rule set, round,
/// number of rounds.
fn schedule_hasher(tag: &[u8], state: &State, round: u32) -> Sha256 {
    let mut h = Sha256::new();
    h.update(tag);
    let rule_set = state
        .tournament()
        .map(|t| t.rule_set.as_str())
        .unwrap_or_default()
        .as_bytes();
    h.update((rule_set.len() as u32).to_be_bytes());
    h.update(rule_set);
    h.update(round.to_be_bytes());
    h.update(state.total_rounds().to_be_bytes());
    h
}

/// SHA-256 of what a knockout's round is derived from: rule set, round, number of rounds, the
/// seeds in order, and every game before the round (round, board, players, result letters).
/// The rules themselves are fixed at creation and so part of the stream, not of the input.
fn knockout_digest(state: &State, round: u32) -> [u8; 32] {
    let mut h = schedule_hasher(b"arbiter.knockout-input.v1\0", state, round);
    let seeds = state.knockout_seeds().unwrap_or_default();
    h.update((seeds.len() as u32).to_be_bytes());
    for pn in seeds {
        h.update(pn.to_be_bytes());
    }
    for r in 1..round {
        let Some(p) = state.published(r) else {
            continue;
        };
        for b in &p.boards {
            h.update(r.to_be_bytes());
            h.update(b.number.to_be_bytes());
            h.update(b.white.to_be_bytes());
            h.update(b.black.to_be_bytes());
            let (w, x) = b.result.map_or((' ', ' '), |r| {
                let (w, x) = r.codes();
                (w.trf_char(), x.trf_char())
            });
            h.update([w as u8, x as u8]);
        }
    }
    h.finalize().into()
}

/// A knockout's round as the worker proposes it: the next game of every undecided match.
fn knockout_round(state: &State, round: u32) -> Result<(ScheduledRound, String), String> {
    let scheduled = state.scheduled_round(round).map_err(|e| e.to_string())?;
    let bracket = state
        .bracket_until(Some(round))
        .map_err(|e| e.to_string())?;
    let current = bracket.rounds.last().ok_or("no knockout round")?;
    let games = bracket.next.map(|x| x.2).unwrap_or_default();
    let mut why = format!(
        "Knockout round {} of {} (seeded bracket: seed s meets seed {} + 1 - s in round 1; Arbiters' Manual 2023 ch. IV §6.2), the next game of every match not yet decided:",
        current.round,
        bracket.knockout_rounds,
        arbiter_knockout_size(bracket.seeds.len() as u32)
    );
    for (i, (p, g)) in scheduled.boards.iter().zip(&games).enumerate() {
        why.push_str(&format!(
            " board {}: {}-{}, game {} ({} game {});",
            i + 1,
            p.white,
            p.black,
            g.number,
            g.kind.as_str(),
            g.in_stage
        ));
    }
    if why.ends_with(';') {
        why.pop();
    }
    why.push('.');
    Ok((scheduled, why))
}

fn arbiter_knockout_size(players: u32) -> u32 {
    arbiter_core::knockout::bracket_size(players)
}

/// The round of a round robin's schedule as the worker proposes it, with its explanation.
pub fn round_robin_round(state: &State, round: u32) -> Result<(ScheduledRound, String), String> {
    let system = state.tournament().map(|t| t.pairing_system);
    if system == Some(PairingSystem::Knockout) {
        return knockout_round(state, round);
    }
    let scheduled = state.scheduled_round(round).map_err(|e| e.to_string())?;
    let n = state.player_count();
    if let Some(s @ (PairingSystem::Scheveningen | PairingSystem::SemiScheveningen)) = system {
        let k = n / 2;
        let why = if s == PairingSystem::Scheveningen {
            format!(
                "Scheveningen table for two teams of {k} boards (players 1-{k} team A, {}-{n} team B; Arbiters' Manual 2023 ch. IV §3), round {round}.",
                k + 1
            )
        } else {
            format!(
                "semi-Scheveningen of two teams of {k} boards (players 1-{k} team A, {}-{n} team B): the table of {} boards for the first halves and again for the second halves (Arbiters' Manual 2023 ch. IV §3), round {round}.",
                k + 1,
                k / 2
            )
        };
        return Ok((scheduled, why));
    }
    if system == Some(PairingSystem::Skalitzka) {
        let b = n / 3;
        return Ok((
            scheduled,
            format!(
                "Skalitzka system for three teams of {b} boards (players 1-{b}, {}-{}, {}-{n}; Arbiters' Manual 2023 ch. IV §5, the manual's pattern for each pair of boards), round {round}.",
                b + 1,
                2 * b,
                2 * b + 1
            ),
        ));
    }
    if system == Some(PairingSystem::Hilton) {
        let teams =
            arbiter_core::tournament::team_size(PairingSystem::Hilton, n).map_or(0, |b| b + 1);
        return Ok((
            scheduled,
            format!(
                "Hilton table for {teams} teams of {} boards (team t's board-k player is t·{} + k, teams from 0; Arbiters' Manual 2023 \"Emparejamientos Hilton\", two rows of the 12-team table corrected), round {round}.",
                teams.saturating_sub(1),
                teams.saturating_sub(1)
            ),
        ));
    }
    let double = state
        .tournament()
        .is_some_and(|t| t.pairing_system == PairingSystem::DoubleRoundRobin);
    let single_rounds = n - 1 + n % 2;
    let mut why = format!(
        "Berger table for {n} players (the table of {} numbers), ",
        n + n % 2
    );
    if double {
        let (cycle, r) = if round > single_rounds {
            (2, round - single_rounds)
        } else {
            (1, round)
        };
        why.push_str(&format!(
            "double round robin, cycle {cycle}, round {r} of the cycle (the first cycle's last two rounds swapped, the second with colours reversed: Arbiters' Manual 2023 ch. IV \"Doble Ronda\")"
        ));
    } else {
        why.push_str(&format!("round {round}"));
    }
    if let Some(rest) = scheduled.rest {
        why.push_str(&format!(
            "; player {rest} rests (he meets the table's highest number): zero points, not a pairing-allocated bye"
        ));
    }
    why.push('.');
    Ok((scheduled, why))
}

/// The engine's input for `round` of a folded tournament, with the tournament's rule set or
/// `rule_set` instead. Every player's virtual points of acceleration are given for rounds
/// 1..=round. A tournament without an initial colour (to be drawn by lot) is paired with White
/// for the top seed.
pub fn input_for(
    state: &State,
    round: u32,
    rule_set: Option<&str>,
) -> Result<(PairingSnapshot, PairingInput), String> {
    let snapshot = state.pairing_input(round).map_err(|e| e.to_string())?;
    // Every Swiss system has an engine (Dutch, Dubov, Burstein, Lim; the rule set names the
    // one); round robins are drawn, not paired (`round_robin_round`).
    if !snapshot.pairing_system.is_swiss() {
        return Err(format!(
            "{:?} is not paired by an engine: its rounds are the Berger table's (GetSchedule)",
            snapshot.pairing_system
        ));
    }
    let name = rule_set.unwrap_or(&snapshot.rule_set);
    let rule_set: RuleSet = name.parse().map_err(|e| format!("{e}"))?;
    let players = snapshot
        .players
        .iter()
        .map(|c| {
            let pn = c.player.player_id;
            let acceleration: Vec<Score> =
                (1..=round).map(|r| state.virtual_points(pn, r)).collect();
            let acceleration = if acceleration.iter().all(|s| *s == Score::ZERO) {
                Vec::new()
            } else {
                acceleration
            };
            PlayerInput {
                id: pn,
                rating: c.player.rating.min(u16::MAX as u32) as u16,
                history: c.history.clone(),
                available: c.availability.is_available(),
                acceleration,
            }
        })
        .collect();
    let input = PairingInput {
        rule_set,
        round,
        total_rounds: snapshot.rounds,
        initial_color: snapshot.initial_color.unwrap_or(Color::White),
        points: snapshot.scoring,
        players,
        forbidden_pairs: snapshot.forbidden_pairs.clone(),
    };
    Ok((snapshot, input))
}

/// SHA-256 of the canonical encoding of an engine input: every field, in a fixed order, in
/// fixed-width big-endian integers (the same input gives the same digest on every machine).
pub fn input_digest(input: &PairingInput) -> [u8; 32] {
    let mut h = Sha256::new();
    h.update(b"arbiter.pairing-input.v1\0");
    let name = input.rule_set.name().as_bytes();
    h.update((name.len() as u32).to_be_bytes());
    h.update(name);
    h.update(input.round.to_be_bytes());
    h.update(input.total_rounds.to_be_bytes());
    h.update([color_byte(Some(input.initial_color))]);
    let p = &input.points;
    for s in [
        p.win,
        p.draw,
        p.loss,
        p.forfeit_win,
        p.forfeit_loss,
        p.zero_bye,
        p.half_bye,
        p.full_bye,
        p.pairing_bye,
    ] {
        h.update(s.tenths().to_be_bytes());
    }
    h.update((input.players.len() as u32).to_be_bytes());
    for pl in &input.players {
        h.update(pl.id.to_be_bytes());
        h.update(pl.rating.to_be_bytes());
        h.update([pl.available as u8]);
        h.update((pl.history.len() as u32).to_be_bytes());
        for e in &pl.history {
            h.update(e.opponent.unwrap_or(0).to_be_bytes());
            h.update([color_byte(e.color), e.result.trf_char() as u8]);
        }
        h.update((pl.acceleration.len() as u32).to_be_bytes());
        for a in &pl.acceleration {
            h.update(a.tenths().to_be_bytes());
        }
    }
    h.update((input.forbidden_pairs.len() as u32).to_be_bytes());
    for (a, b) in &input.forbidden_pairs {
        h.update(a.to_be_bytes());
        h.update(b.to_be_bytes());
    }
    h.finalize().into()
}

fn color_byte(c: Option<Color>) -> u8 {
    match c {
        None => 0,
        Some(Color::White) => 1,
        Some(Color::Black) => 2,
    }
}

/// What the worker appends for a pairing request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    Proposed(ProposePairing),
    Failed(ReportPairingFailure),
}

impl Answer {
    pub fn command(&self) -> arbiter_core::tournament::Command {
        match self {
            Answer::Proposed(p) => arbiter_core::tournament::Command::ProposePairing(p.clone()),
            Answer::Failed(f) => arbiter_core::tournament::Command::ReportPairingFailure(f.clone()),
        }
    }
}

/// Runs the engine on the pending request of `round` as folded in `state` (the stream at
/// `based_on_version`).
pub fn answer(state: &State, round: u32, based_on_version: u64) -> Answer {
    let rule_set = state
        .tournament()
        .map(|t| t.rule_set.clone())
        .unwrap_or_default();
    let attempt = state.round_attempt(round).unwrap_or(0);
    let failed = |digest: Vec<u8>, reason: String| {
        Answer::Failed(ReportPairingFailure {
            round,
            attempt,
            engine: engine(),
            rule_set: rule_set.clone(),
            based_on_version,
            input_digest: digest,
            reason,
        })
    };
    if state.team_rules().is_some() {
        return crate::teams::answer(state, round, attempt, based_on_version);
    }
    if is_round_robin(state) {
        let digest = round_robin_digest(state, round).to_vec();
        return match round_robin_round(state, round) {
            Ok((scheduled, explanation)) => Answer::Proposed(ProposePairing {
                round,
                attempt,
                boards: scheduled.boards,
                bye: None,
                engine: round_robin_engine(state),
                rule_set: rule_set.clone(),
                based_on_version,
                input_digest: digest,
                explanation,
                team_matches: Vec::new(),
                team_bye: None,
            }),
            Err(reason) => Answer::Failed(ReportPairingFailure {
                round,
                attempt,
                engine: round_robin_engine(state),
                rule_set: rule_set.clone(),
                based_on_version,
                input_digest: digest,
                reason,
            }),
        };
    }
    let input = match input_for(state, round, None) {
        Ok((_, input)) => input,
        Err(why) => return failed(Vec::new(), why),
    };
    let digest = input_digest(&input).to_vec();
    match pair(&input) {
        Ok(p) => Answer::Proposed(ProposePairing {
            round,
            attempt,
            boards: boards_of(&p),
            bye: p.bye,
            engine: engine(),
            rule_set: rule_set.clone(),
            based_on_version,
            input_digest: digest,
            explanation: bounded(p.explanation.render()),
            team_matches: Vec::new(),
            team_bye: None,
        }),
        Err(e) => failed(digest, e.to_string()),
    }
}

/// An explanation within the domain's limit on a command's text: a large field's is cut at a
/// line, saying so; the whole of it is `arbiter pair --explain` on the round's TRF export.
fn bounded(text: String) -> String {
    let limit = arbiter_core::tournament::MAX_LONG_TEXT;
    if text.chars().count() <= limit {
        return text;
    }
    let note = "\n(explanation cut here: `arbiter pair --explain` on the round's TRF export gives it whole)";
    let room = limit - note.chars().count();
    let (mut out, mut used) = (String::new(), 0);
    for line in text.split_inclusive('\n') {
        used += line.chars().count();
        if used > room {
            break;
        }
        out.push_str(line);
    }
    out.push_str(note);
    out
}

/// The engine's boards as the domain's pairs, in board order.
/// A published pairing, its boards as (white, black) and its pairing-allocated bye, in the form
/// [`arbiter_pairing::compare`] judges against the engine's.
pub fn recorded_pairing(
    boards: impl IntoIterator<Item = (arbiter_core::PlayerId, arbiter_core::PlayerId)>,
    bye: Option<arbiter_core::PlayerId>,
) -> arbiter_pairing::RecordedPairing {
    arbiter_pairing::RecordedPairing {
        boards: boards
            .into_iter()
            .map(|(white, black)| arbiter_pairing::Board { white, black })
            .collect(),
        bye,
    }
}

pub fn boards_of(p: &RoundPairing) -> Vec<arbiter_core::tournament::Pair> {
    p.boards
        .iter()
        .map(|b| arbiter_core::tournament::Pair::new(b.white, b.black))
        .collect()
}

#[cfg(test)]
mod bounded_tests {
    use super::bounded;
    use arbiter_core::tournament::MAX_LONG_TEXT;

    #[test]
    fn a_long_explanation_is_cut_at_a_line_within_the_domains_limit() {
        let short = "bracket 1: 3-4\n".to_string();
        assert_eq!(bounded(short.clone()), short);
        let long: String = (0..20_000).map(|i| format!("pair {i}: ok\n")).collect();
        let cut = bounded(long.clone());
        assert!(cut.chars().count() <= MAX_LONG_TEXT, "{}", cut.len());
        assert!(cut.ends_with("gives it whole)"));
        let kept = cut
            .rsplit_once("\n(explanation cut here")
            .map(|(k, _)| k)
            .unwrap_or("");
        assert!(long.starts_with(kept) && kept.ends_with('\n') && kept.len() > 90_000);
    }
}
