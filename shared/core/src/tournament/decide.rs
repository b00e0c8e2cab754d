//! Deciding what a command means: the events it produces, or why it is refused. `decide` reads
//! only the state and the command, so the same state and command always give the same answer.

use super::command::*;
use super::conduct::Conduct;
use super::error::DomainError;
use super::event::*;
use super::state::{Availability, CorrectionEffect, MAX_PLAYERS, MAX_ROUNDS, RoundPhase, State};
use super::types::{
    Acceleration, AccelerationMethod, Arbiter, Board, BoardResult, Date, EntryId, MAX_FIDE_ID,
    Pair, PairingSystem, Player, RATING_CEILING, RATING_FLOOR, Unpaired,
};
use crate::{PlayerId, PointSystem, ResultCode, Score};
use std::collections::BTreeSet;

mod discipline;
mod registration;

/// The events `command` produces on `state`, or why it is refused. Only `CreateTournament` is
/// accepted on an empty stream; once the tournament is finished, only `CorrectResult` (for
/// rating purposes, C.04.2.D.8) and the submission of games (fair-play screening is often done
/// after the event; the same checks apply).
pub fn decide(state: &State, command: &Command) -> Result<Vec<Event>, DomainError> {
    let t = match (state.tournament(), command) {
        (None, Command::CreateTournament(c)) => return create(c),
        (Some(_), Command::CreateTournament(_)) => {
            return Err(DomainError::TournamentAlreadyCreated);
        }
        (None, c) => return Err(DomainError::TournamentNotCreated { command: c.name() }),
        (Some(t), _) => t,
    };
    if let Some(rounds_played) = state.finished()
        && !matches!(
            command,
            Command::CorrectResult(_)
                | Command::SubmitGame(_)
                | Command::SubmitGames(_)
                | Command::FileComplaint(_)
                | Command::FileAppeal(_)
                | Command::DecideAppeal(_)
        )
    {
        return Err(DomainError::TournamentFinished {
            command: command.name(),
            rounds_played,
        });
    }
    let d = Decider { s: state, t };
    match command {
        Command::CreateTournament(_) => Err(DomainError::TournamentAlreadyCreated),
        Command::UpdateTournament(c) => d.update(c),
        Command::RegisterPlayer(c) => d.register(c),
        Command::WithdrawPlayer(c) => d.withdraw(c),
        Command::CorrectPlayer(c) => d.correct_player(c),
        Command::CancelRegistration(c) => d.cancel_registration(c),
        Command::RequestBye(c) => d.request_bye(c),
        Command::CancelBye(c) => d.cancel_bye(c),
        Command::DeclareAbsence(c) => d.declare_absence(c),
        Command::RecordFairPlayConsent(c) => d.record_fair_play_consent(c),
        Command::OverridePlatformResult(c) => d.override_platform_result(c),
        Command::ImposeSanction(c) => d.impose_sanction(c),
        Command::RecordIrregularity(c) => d.record_irregularity(c),
        Command::RecordSupervisionBreach(c) => d.record_supervision_breach(c),
        Command::ReportConnectionIncident(c) => d.report_connection_incident(c),
        Command::RuleOnDisconnection(c) => d.rule_on_disconnection(c),
        Command::FileComplaint(c) => d.file_complaint(c),
        Command::FileAppeal(c) => d.file_appeal(c),
        Command::DecideAppeal(c) => d.decide_appeal(c),
        Command::StartRound(c) => d.start_round(c),
        Command::RequestPairing(c) => d.request_pairing(c),
        Command::ProposePairing(c) => d.propose(c),
        Command::ReportPairingFailure(c) => d.report_failure(c),
        Command::PublishPairing(c) => d.publish(c),
        Command::RecordResult(c) => d.record_result(c),
        Command::CorrectResult(c) => d.correct_result(c),
        Command::CloseRound(c) => d.close_round(c),
        Command::FinishTournament(_) => d.finish(),
        Command::SetVirtualPoints(c) => d.set_virtual_points(c),
        Command::ForbidPairings(c) => d.forbid_pairings(c),
        Command::DrawLots(c) => d.draw_lots(c),
        Command::RecordTeam(c) => d.record_team(c),
        Command::SubmitLineup(c) => match d.s.team_rules() {
            Some(rules) => super::team_event::submit_lineup(d.s, rules, c),
            None => Err(DomainError::invalid(
                "team",
                "line-ups are given in team events only",
            )),
        },
        Command::SubmitGame(c) => d.submit_game(c),
        Command::SubmitGames(c) => d.submit_games(c),
    }
}

// --- field validation --------------------------------------------------------------------------

const MAX_TEXT: usize = 200;
const MAX_LONG_TEXT: usize = 100_000;

/// A one-line text: trimmed, no control characters, at most `MAX_TEXT` characters.
fn line(field: &str, value: &str, required: bool) -> Result<String, DomainError> {
    let v = value.trim();
    if required && v.is_empty() {
        return Err(DomainError::invalid(field, "must not be empty"));
    }
    if let Some(c) = v.chars().find(|c| c.is_control()) {
        return Err(DomainError::invalid(
            field,
            format!("contains the control character {c:?}"),
        ));
    }
    if v.chars().count() > MAX_TEXT {
        return Err(DomainError::invalid(
            field,
            format!("longer than {MAX_TEXT} characters"),
        ));
    }
    Ok(v.to_string())
}

/// A free text (line breaks and tabs allowed), at most `MAX_LONG_TEXT` characters.
fn text(field: &str, value: &str, required: bool) -> Result<String, DomainError> {
    if required && value.trim().is_empty() {
        return Err(DomainError::invalid(field, "must not be empty"));
    }
    if let Some(c) = value
        .chars()
        .find(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
    {
        return Err(DomainError::invalid(
            field,
            format!("contains the control character {c:?}"),
        ));
    }
    if value.chars().count() > MAX_LONG_TEXT {
        return Err(DomainError::invalid(
            field,
            format!("longer than {MAX_LONG_TEXT} characters"),
        ));
    }
    Ok(value.to_string())
}

fn federation(field: &str, value: &str) -> Result<String, DomainError> {
    let v = value.trim();
    if v.is_empty() || (v.len() == 3 && v.bytes().all(|b| b.is_ascii_uppercase())) {
        Ok(v.to_string())
    } else {
        Err(DomainError::invalid(
            field,
            format!("{v:?} is not a FIDE federation code (three capital letters)"),
        ))
    }
}

fn fide_id(field: &str, id: Option<u64>) -> Result<Option<u64>, DomainError> {
    match id {
        Some(0) => Err(DomainError::invalid(
            field,
            "0 is not a FIDE id (leave it out instead)",
        )),
        Some(id) if id > MAX_FIDE_ID => Err(DomainError::invalid(
            field,
            format!("{id} is not a FIDE id (at most 10 digits)"),
        )),
        other => Ok(other),
    }
}

/// A registered rating: 0 (unrated, or no national rating) or a plausible one. The FIDE
/// rating (`rating`, of the event's rating kind) starts at the FIDE floor; national scales
/// differ, so `national_rating` has the ceiling only. The one rule for the API, `arbiter
/// import` and corrections.
fn plausible_rating(field: &str, value: u32) -> Result<u32, DomainError> {
    let floor = if field == "rating" { RATING_FLOOR } else { 1 };
    if value == 0 || (floor..=RATING_CEILING).contains(&value) {
        return Ok(value);
    }
    Err(DomainError::invalid(
        field,
        if value > RATING_CEILING {
            format!("{value} is above the ceiling {RATING_CEILING}")
        } else {
            format!(
                "{value} is below the FIDE rating floor {RATING_FLOOR} (B.02); give 0 for an \
                 unrated player"
            )
        },
    ))
}

fn arbiter(field: &str, a: &Arbiter, required: bool) -> Result<Arbiter, DomainError> {
    let title = a.title.trim();
    if !matches!(title, "" | "IA" | "FA" | "NA") {
        return Err(DomainError::invalid(
            format!("{field}.title"),
            format!("{title:?} is not IA, FA or NA"),
        ));
    }
    Ok(Arbiter {
        name: line(&format!("{field}.name"), &a.name, required)?,
        fide_id: fide_id(&format!("{field}.fide_id"), a.fide_id)?,
        title: title.to_string(),
    })
}

fn complete_date(field: &str, d: Date) -> Result<Date, DomainError> {
    if d.is_complete() {
        Ok(d)
    } else {
        Err(DomainError::invalid(
            field,
            format!("{d} is not a complete date"),
        ))
    }
}

fn rounds(field: &str, n: u32) -> Result<u32, DomainError> {
    if (1..=MAX_ROUNDS).contains(&n) {
        Ok(n)
    } else {
        Err(DomainError::invalid(
            field,
            format!("{n} is not a number of rounds in 1..={MAX_ROUNDS}"),
        ))
    }
}

/// Splits "BH/C1, BH, SB" into its items; each is one token of printable characters.
fn tie_breaks(value: &str) -> Result<Vec<String>, DomainError> {
    if value.trim().is_empty() {
        return Ok(Vec::new());
    }
    let items: Vec<String> = value.split(',').map(|s| s.trim().to_string()).collect();
    if items.len() > 30 {
        return Err(DomainError::invalid(
            "tie_breaks",
            "more than 30 tie-breaks",
        ));
    }
    for (i, item) in items.iter().enumerate() {
        if item.is_empty() {
            return Err(DomainError::invalid(
                "tie_breaks",
                format!("item {} is empty", i + 1),
            ));
        }
        if item.chars().any(|c| c.is_whitespace() || c.is_control()) || item.chars().count() > 30 {
            return Err(DomainError::invalid(
                "tie_breaks",
                format!(
                    "item {} ({item:?}) is not one acronym with modifiers, e.g. \"BH/C1\"",
                    i + 1
                ),
            ));
        }
    }
    Ok(items)
}

fn scoring(p: &PointSystem) -> Result<(), DomainError> {
    let bad =
        |field: &str, reason: String| Err(DomainError::invalid(format!("scoring.{field}"), reason));
    let all = [
        ("win", p.win),
        ("draw", p.draw),
        ("loss", p.loss),
        ("forfeit_win", p.forfeit_win),
        ("forfeit_loss", p.forfeit_loss),
        ("zero_bye", p.zero_bye),
        ("half_bye", p.half_bye),
        ("full_bye", p.full_bye),
        ("pairing_bye", p.pairing_bye),
    ];
    for (field, v) in all {
        if v < Score::ZERO || v > Score::points(100) {
            return bad(field, format!("{v} is outside 0..=100 points"));
        }
    }
    if p.win == Score::ZERO {
        return bad("win", "a win must be worth more than 0".into());
    }
    if p.draw > p.win {
        return bad(
            "draw",
            format!("a draw ({}) is worth more than a win ({})", p.draw, p.win),
        );
    }
    if p.loss > p.draw {
        return bad(
            "loss",
            format!("a loss ({}) is worth more than a draw ({})", p.loss, p.draw),
        );
    }
    if p.forfeit_loss > p.loss {
        return bad(
            "forfeit_loss",
            format!(
                "a forfeit loss ({}) is worth more than a loss ({})",
                p.forfeit_loss, p.loss
            ),
        );
    }
    // E.04 Art. 7.2: no game is worth more than a normal game.
    for (field, v) in [
        ("forfeit_win", p.forfeit_win),
        ("half_bye", p.half_bye),
        ("full_bye", p.full_bye),
        ("pairing_bye", p.pairing_bye),
    ] {
        if v > p.win {
            return bad(field, format!("{v} is worth more than a win ({})", p.win));
        }
    }
    if p.zero_bye > p.draw {
        return bad(
            "zero_bye",
            format!(
                "a zero-point bye ({}) is worth more than a draw ({})",
                p.zero_bye, p.draw
            ),
        );
    }
    Ok(())
}

fn rule_set(
    system: PairingSystem,
    given: Option<&str>,
    start: Date,
) -> Result<String, DomainError> {
    match given {
        None => Ok(system.default_rule_set(start).to_string()),
        Some(r) => {
            let r = r.trim();
            if system.rule_sets().contains(&r) {
                Ok(r.to_string())
            } else {
                Err(DomainError::invalid(
                    "rule_set",
                    format!(
                        "{r:?} is not a rule set of {system:?} (known: {})",
                        system.rule_sets().join(", ")
                    ),
                ))
            }
        }
    }
}

fn acceleration(
    choice: Option<&AccelerationChoice>,
    system: PairingSystem,
    rule_set: &str,
    n_rounds: u32,
    points: &PointSystem,
) -> Result<Option<Acceleration>, DomainError> {
    let Some(c) = choice else { return Ok(None) };
    if !system.is_swiss() {
        return Err(DomainError::invalid(
            "acceleration",
            format!("{system:?} is not a Swiss system"),
        ));
    }
    match c.method {
        AccelerationMethod::Baku => {
            // Virtual points are a win and a draw; the method needs win = two draws, loss = 0.
            if points.win != points.draw + points.draw || points.loss != Score::ZERO {
                return Err(DomainError::invalid(
                    "acceleration",
                    "Baku acceleration needs a point system where a win is two draws and a loss is 0",
                ));
            }
        }
    }
    let a = match c.rounds {
        None => Acceleration::baku(rule_set, n_rounds),
        Some((first_round, last_round)) => Acceleration {
            method: c.method,
            first_round,
            last_round,
        },
    };
    if a.first_round == 0 || a.first_round > a.last_round || a.last_round > n_rounds {
        return Err(DomainError::invalid(
            "acceleration",
            format!(
                "rounds {}..={} are not within the tournament's rounds 1..={n_rounds}",
                a.first_round, a.last_round
            ),
        ));
    }
    Ok(Some(a))
}

fn create(c: &CreateTournament) -> Result<Vec<Event>, DomainError> {
    let start_date = complete_date("start_date", c.start_date)?;
    let end_date = complete_date("end_date", c.end_date)?;
    if end_date < start_date {
        return Err(DomainError::invalid(
            "end_date",
            format!("{end_date} is before the start date {start_date}"),
        ));
    }
    let n_rounds = rounds("rounds", c.rounds)?;
    scoring(&c.scoring)?;
    c.conduct.check()?;
    let rule_set = rule_set(c.pairing_system, c.rule_set.as_deref(), start_date)?;
    let acceleration = acceleration(
        c.acceleration.as_ref(),
        c.pairing_system,
        &rule_set,
        n_rounds,
        &c.scoring,
    )?;
    let knockout = knockout_rules(c.pairing_system, c.knockout.as_ref())?;
    let team_rules =
        super::team_event::creation_rules(c.pairing_system, c.team_rules.as_ref(), &c.scoring)?;
    let deputy_arbiters = c
        .deputy_arbiters
        .iter()
        .enumerate()
        .map(|(i, a)| arbiter(&format!("deputy_arbiters[{i}]"), a, true))
        .collect::<Result<_, _>>()?;
    Ok(vec![Event::TournamentCreated(TournamentCreated {
        name: line("name", &c.name, true)?,
        place: line("place", &c.place, false)?,
        federation: federation("federation", &c.federation)?,
        start_date,
        end_date,
        chief_arbiter: arbiter("chief_arbiter", &c.chief_arbiter, true)?,
        deputy_arbiters,
        pairing_system: c.pairing_system,
        rule_set,
        rounds: n_rounds,
        scoring: c.scoring,
        initial_color: c.initial_color,
        rating_kind: c.rating_kind,
        tie_breaks: tie_breaks(&c.tie_breaks)?,
        time_control: line("time_control", &c.time_control, false)?,
        tournament_type: line("tournament_type", &c.tournament_type, false)?,
        round_dates: {
            let mut v = c.round_dates.clone();
            while v.last() == Some(&None) {
                v.pop();
            }
            if v.len() > MAX_ROUNDS as usize {
                return Err(DomainError::invalid(
                    "round_dates",
                    format!("more than {MAX_ROUNDS} dates"),
                ));
            }
            v
        },
        trf_records: {
            if c.trf_records.len() > 10_000 {
                return Err(DomainError::invalid(
                    "trf_records",
                    "more than 10000 records",
                ));
            }
            for (i, r) in c.trf_records.iter().enumerate() {
                if r.chars().any(|c| c.is_control()) || r.chars().count() > 1000 {
                    return Err(DomainError::invalid(
                        "trf_records",
                        format!(
                            "record {} is not one line of at most 1000 characters",
                            i + 1
                        ),
                    ));
                }
            }
            c.trf_records.clone()
        },
        acceleration,
        fide_rated: c.fide_rated,
        conduct: Conduct {
            regulations_version: c.conduct.regulations_version.trim().to_string(),
            ..c.conduct.clone()
        },
        knockout,
        team_rules,
    })])
}

/// A knockout's regulations: required for a knockout (the seeds leave seeding and colours to
/// the regulations, spec/round-robin.md §11), complete, and refused for any other system.
fn knockout_rules(
    system: PairingSystem,
    rules: Option<&arbiter_knockout::Rules>,
) -> Result<Option<arbiter_knockout::Rules>, DomainError> {
    match (system, rules) {
        (PairingSystem::Knockout, None) => Err(DomainError::invalid(
            "knockout",
            "a knockout needs its regulations: seeding, classical games, tie-break stages and the colour rules (none has a default)",
        )),
        (PairingSystem::Knockout, Some(r)) => {
            r.check()
                .map_err(|(field, why)| DomainError::invalid(field, why))?;
            let mut r = r.clone();
            for (i, s) in r.tie_breaks.iter_mut().enumerate() {
                s.time_control = line(
                    &format!("knockout.tie_breaks[{i}].time_control"),
                    &s.time_control,
                    false,
                )?;
            }
            r.armageddon_time_control = line(
                "knockout.armageddon_time_control",
                &r.armageddon_time_control,
                false,
            )?;
            r.lot_seed = line("knockout.lot_seed", &r.lot_seed, false)?;
            Ok(Some(r))
        }
        (other, Some(_)) => Err(DomainError::invalid(
            "knockout",
            format!("knockout regulations given for a {other:?} event"),
        )),
        (_, None) => Ok(None),
    }
}

// --- the other commands ------------------------------------------------------------------------

struct Decider<'a> {
    s: &'a State,
    t: &'a TournamentCreated,
}

impl Decider<'_> {
    /// The first round whose pairing may still change (past the last round when none).
    fn first_unpaired_round(&self) -> u32 {
        self.s
            .next_open_round()
            .unwrap_or(self.t.rounds.saturating_add(1))
    }

    fn set_virtual_points(&self, c: &SetVirtualPoints) -> Result<Vec<Event>, DomainError> {
        self.entry(c.player)?;
        if c.points.len() > self.t.rounds as usize {
            return Err(DomainError::invalid(
                "points",
                format!(
                    "{} rounds of virtual points for a tournament of {} rounds",
                    c.points.len(),
                    self.t.rounds
                ),
            ));
        }
        if let Some(i) = c
            .points
            .iter()
            .position(|s| !(0..=9999).contains(&s.tenths()))
        {
            return Err(DomainError::invalid(
                "points",
                format!("round {}: virtual points must be 0 to 999.9", i + 1),
            ));
        }
        let at = |r: u32| c.points.get(r as usize - 1).copied().unwrap_or(Score::ZERO);
        let open = self.first_unpaired_round();
        if let Some(r) =
            (1..open.min(self.t.rounds + 1)).find(|&r| at(r) != self.s.virtual_points(c.player, r))
        {
            return Err(DomainError::invalid(
                "points",
                format!("round {r} is already paired; its virtual points cannot change"),
            ));
        }
        let mut points = c.points.clone();
        while points.last() == Some(&Score::ZERO) {
            points.pop();
        }
        let mut events = vec![Event::VirtualPointsSet(VirtualPointsSet {
            player_id: c.player,
            points,
        })];
        if let Some(r) = self.s.pending_round()
            && at(r) != self.s.virtual_points(c.player, r)
        {
            events.extend(self.rerequest());
        }
        Ok(events)
    }

    fn forbid_pairings(&self, c: &ForbidPairings) -> Result<Vec<Event>, DomainError> {
        let mut seen = BTreeSet::new();
        for &p in &c.players {
            self.entry(p)?;
            if !seen.insert(p) {
                return Err(DomainError::invalid(
                    "players",
                    format!("player {p} is listed twice"),
                ));
            }
        }
        if seen.len() < 2 {
            return Err(DomainError::invalid("players", "at least two players"));
        }
        let (first, last) = c.rounds.unwrap_or((1, self.t.rounds));
        if first == 0 || first > last || last > self.t.rounds {
            return Err(DomainError::invalid(
                "rounds",
                format!(
                    "rounds {first} to {last} are not within 1 to {}",
                    self.t.rounds
                ),
            ));
        }
        if first < self.first_unpaired_round() {
            return Err(DomainError::RoundAlreadyPaired {
                round: first,
                hint: "forbid the pairings from a round not yet paired",
            });
        }
        let mut events = vec![Event::PairingsForbidden(PairingsForbidden {
            player_ids: c.players.clone(),
            rounds: c.rounds,
        })];
        if self
            .s
            .pending_round()
            .is_some_and(|r| (first..=last).contains(&r))
        {
            events.extend(self.rerequest());
        }
        Ok(events)
    }

    /// C.05 §6.2: the drawing of lots gives a round robin's pairing numbers, before round 1.
    /// Drawn by the service from a published seed (the lots are SHA-256 of the seed, so
    /// anyone re-derives them), or recorded by the arbiter from a draw in the hall; a Varma
    /// draw (C.05 Annex 2) recorded by hand must be one the procedure can make.
    fn draw_lots(&self, c: &DrawLots) -> Result<Vec<Event>, DomainError> {
        if self.t.pairing_system.is_swiss() {
            return Err(DomainError::invalid(
                "pairing_system",
                "a Swiss event is numbered by the initial ranking (C.04.2.B), not by lots; the drawing of lots is for round robins (C.05 §6.2)",
            ));
        }
        if self.t.pairing_system.is_team_table() {
            return Err(DomainError::invalid(
                "pairing_system",
                format!(
                    "a {:?} event numbers its players by team and board (registered in that order); a drawing of lots would move them to other teams",
                    self.t.pairing_system
                ),
            ));
        }
        if let Some(r) = self.s.current_round() {
            return Err(DomainError::invalid(
                "round",
                format!("round {r} has started: the lots are drawn before round 1 (C.05 §6.2)"),
            ));
        }
        if self.s.lots_drawn().is_some() {
            return Err(DomainError::invalid(
                "lots",
                "the lots were already drawn and the service records one draw per event: the numbers stay (C.05 §6.4)",
            ));
        }
        // `drawn_numbers` has checked the seed as a line of text.
        let numbers = drawn_numbers(self.s, c)?;
        let seed = c.seed.trim().to_string();
        Ok(vec![Event::LotsDrawn(LotsDrawn {
            numbers,
            varma: c.varma,
            seed,
        })])
    }

    fn record_team(&self, c: &RecordTeam) -> Result<Vec<Event>, DomainError> {
        let t = &c.team;
        if let Some(rules) = self.s.team_rules() {
            return super::team_event::record_team(
                self.s,
                rules,
                c,
                line("team.name", &t.name, true)?,
                line("team.nickname", &t.nickname, false)?,
            );
        }
        for m in t.members.iter().flatten() {
            self.entry(*m)?;
        }
        Ok(vec![Event::TeamRecorded(TeamRecorded {
            name: line("team.name", &t.name, true)?,
            nickname: line("team.nickname", &t.nickname, false)?,
            ..t.clone()
        })])
    }

    fn entry(&self, player: PlayerId) -> Result<EntryId, DomainError> {
        self.s.entry_of(player).ok_or(DomainError::UnknownPlayer {
            player,
            players: self.s.player_count(),
        })
    }

    fn round_in_range(&self, round: u32) -> Result<(), DomainError> {
        if round == 0 || round > self.t.rounds {
            return Err(DomainError::RoundOutOfRange {
                round,
                rounds: self.t.rounds,
            });
        }
        Ok(())
    }

    /// `round` is in range and its pairing not yet published.
    fn round_open(&self, round: u32, hint: &'static str) -> Result<(), DomainError> {
        self.round_in_range(round)?;
        match self.s.next_open_round() {
            Some(open) if round >= open => Ok(()),
            _ => Err(DomainError::RoundAlreadyPaired { round, hint }),
        }
    }

    /// A new request for the pending round, whose input has just changed.
    fn rerequest(&self) -> Option<Event> {
        let round = self.s.pending_round()?;
        let attempt = self.s.round_attempt(round)?.saturating_add(1);
        Some(Event::PairingRequested(PairingRequested {
            round,
            rule_set: self.t.rule_set.clone(),
            attempt,
        }))
    }

    /// A new request if `round` is the pending round.
    fn rerequest_if_pending(&self, round: u32) -> Option<Event> {
        if self.s.pending_round() == Some(round) {
            self.rerequest()
        } else {
            None
        }
    }

    fn update(&self, c: &UpdateTournament) -> Result<Vec<Event>, DomainError> {
        if *c == UpdateTournament::default() {
            return Err(DomainError::NothingToUpdate);
        }
        let start = c
            .start_date
            .map(|d| complete_date("start_date", d))
            .transpose()?;
        let end = c
            .end_date
            .map(|d| complete_date("end_date", d))
            .transpose()?;
        let (s, e) = (
            start.unwrap_or(self.t.start_date),
            end.unwrap_or(self.t.end_date),
        );
        if e < s {
            return Err(DomainError::invalid(
                "end_date",
                format!("{e} is before the start date {s}"),
            ));
        }
        let new_rounds = match c.rounds {
            None => None,
            Some(n) => {
                let n = rounds("rounds", n)?;
                let started = self.s.current_round().unwrap_or(0);
                if n < started {
                    return Err(DomainError::invalid(
                        "rounds",
                        format!("{n} is fewer than the {started} rounds already started"),
                    ));
                }
                if let Some(a) = self.t.acceleration
                    && a.last_round > n
                {
                    return Err(DomainError::invalid(
                        "rounds",
                        format!(
                            "the acceleration runs to round {}, beyond {n} rounds",
                            a.last_round
                        ),
                    ));
                }
                Some(n)
            }
        };
        // Every round is rated from the list chosen; switching lists once play has begun
        // would rate rounds of one event from two lists.
        let rating_kind = match c.rating_kind {
            Some(k) if k != self.t.rating_kind && self.s.current_round().is_some() => {
                return Err(DomainError::invalid(
                    "rating_kind",
                    "the rating list cannot change once round 1 has started",
                ));
            }
            other => other,
        };
        Ok(vec![Event::TournamentUpdated(TournamentUpdated {
            name: c
                .name
                .as_deref()
                .map(|v| line("name", v, true))
                .transpose()?,
            place: c
                .place
                .as_deref()
                .map(|v| line("place", v, false))
                .transpose()?,
            start_date: start,
            end_date: end,
            chief_arbiter: c
                .chief_arbiter
                .as_ref()
                .map(|a| arbiter("chief_arbiter", a, true))
                .transpose()?,
            rounds: new_rounds,
            tie_breaks: c.tie_breaks.as_deref().map(tie_breaks).transpose()?,
            federation: c
                .federation
                .as_deref()
                .map(|v| federation("federation", v))
                .transpose()?,
            deputy_arbiters: c
                .deputy_arbiters
                .as_ref()
                .map(|list| {
                    list.iter()
                        .enumerate()
                        .map(|(i, a)| arbiter(&format!("deputy_arbiters[{i}]"), a, true))
                        .collect::<Result<Vec<_>, _>>()
                })
                .transpose()?,
            time_control: c
                .time_control
                .as_deref()
                .map(|v| line("time_control", v, false))
                .transpose()?,
            rating_kind,
        })])
    }

    fn register(&self, c: &RegisterPlayer) -> Result<Vec<Event>, DomainError> {
        let mut player = Player {
            player_id: 0,
            name: line("name", &c.name, true)?,
            fide_id: fide_id("fide_id", c.fide_id)?,
            national_id: line("national_id", &c.national_id, false)?,
            rating: c.rating,
            national_rating: c.national_rating,
            k_factor: c.k_factor,
            title: c.title,
            federation: federation("federation", &c.federation)?,
            birth_date: c.birth_date,
            sex: c.sex,
            club: line("club", &c.club, false)?,
        };
        plausible_rating("rating", c.rating)?;
        plausible_rating("national_rating", c.national_rating)?;
        if c.k_factor > 100 {
            return Err(DomainError::invalid(
                "k_factor",
                format!("{} is above 100", c.k_factor),
            ));
        }
        if let Some(id) = player.fide_id
            && let Some(other) = self.s.player_by_fide_id(id)
        {
            return Err(DomainError::DuplicateFideId {
                fide_id: id,
                player: other.pairing_number(),
            });
        }
        self.check_same_name(&player, c.confirm_same_name)?;
        if self.s.player_count() >= MAX_PLAYERS {
            return Err(DomainError::TooManyPlayers {
                players: self.s.player_count(),
            });
        }
        // C.04.2.C.1–2: a player is admitted before the pairing of a round is made, and is
        // paired from the round he can play.
        let Some(open) = self.s.next_open_round() else {
            return Err(DomainError::NoRoundLeftToEnter {
                rounds: self.t.rounds,
            });
        };
        let first_round = c.first_round.unwrap_or(open);
        if first_round > self.t.rounds {
            return Err(DomainError::RoundOutOfRange {
                round: first_round,
                rounds: self.t.rounds,
            });
        }
        if first_round < open {
            return Err(DomainError::EntryTooEarly {
                round: first_round,
                earliest: open,
            });
        }
        if !self.t.pairing_system.is_swiss() {
            // A round robin's field fixes its schedule (C.05 §6.4: changes after the drawing
            // only at the CA's discretion): nobody enters once round 1 has started.
            if self.s.current_round().is_some() || first_round != 1 {
                return Err(DomainError::invalid(
                    "first_round",
                    "a round robin takes no late entries: its schedule is drawn for the field registered before round 1",
                ));
            }
            if self.s.lots_drawn().is_some() {
                return Err(DomainError::invalid(
                    "lots",
                    "the lots were drawn for the field registered before the draw: an entry after the drawing is the chief arbiter's decision (C.05 §6.4), outside the service",
                ));
            }
            // C.05 §6.2: round-robin numbers come from the drawing of lots, not the rating
            // order (spec/round-robin.md §2): the arbiter registers the players in the order
            // of the numbers drawn, and each keeps the number of his registration.
            player.player_id = self.s.player_count() + 1;
        } else {
            // C.04.2.B.2–3 and C.3: the newcomer takes his place in the ranking order (after
            // any player he ties with on every key); everyone below moves down one number.
            player.player_id = 1 + self
                .s
                .players()
                .filter(|q| q.player.initial_ranking_cmp(&player).is_le())
                .count() as u32;
        }
        let mut events = vec![if first_round == 1 {
            Event::PlayerRegistered(PlayerRegistered { player })
        } else {
            Event::LateEntry(LateEntry {
                player,
                first_round,
                missed_rounds: vec![c.missed_rounds.code(); first_round as usize - 1],
            })
        }];
        // Pairing numbers changed under a pending pairing: it has to be made again.
        events.extend(self.rerequest());
        Ok(events)
    }

    /// A correction of registration data. Until round 1 starts the list is provisional
    /// (C.04.2.B): the corrected player takes his place in the ranking order and the players
    /// between move by one. From round 1 on the numbers stay (they are on the pairings and
    /// decide the order within score groups); the data is corrected.
    fn correct_player(&self, c: &CorrectPlayer) -> Result<Vec<Event>, DomainError> {
        let e = self.entry(c.player)?;
        let Some(p) = self.s.player_by_entry(e) else {
            return Err(DomainError::UnknownPlayer {
                player: c.player,
                players: self.s.player_count(),
            });
        };
        let mut fields: Vec<String> = Vec::new();
        for f in &c.fields {
            let f = f.trim();
            if !Player::FIELDS.contains(&f) {
                return Err(DomainError::invalid(
                    "fields",
                    format!(
                        "{f:?} is not a player field ({})",
                        Player::FIELDS.join(", ")
                    ),
                ));
            }
            if !fields.iter().any(|x| x == f) {
                fields.push(f.to_string());
            }
        }
        if fields.is_empty() {
            return Err(DomainError::invalid(
                "fields",
                "name the fields to correct, e.g. rating",
            ));
        }
        let v = &c.corrected;
        let mut given = v.clone();
        for f in &fields {
            match f.as_str() {
                "name" => given.name = line("name", &v.name, true)?,
                "fide_id" => given.fide_id = fide_id("fide_id", v.fide_id)?,
                "national_id" => given.national_id = line("national_id", &v.national_id, false)?,
                "federation" => given.federation = federation("federation", &v.federation)?,
                "club" => given.club = line("club", &v.club, false)?,
                "rating" => {
                    plausible_rating("rating", v.rating)?;
                }
                "national_rating" => {
                    plausible_rating("national_rating", v.national_rating)?;
                }
                "k_factor" => {
                    let (value, max) = (v.k_factor, 100);
                    if value > max {
                        return Err(DomainError::invalid(
                            f.clone(),
                            format!("{value} is above {max}"),
                        ));
                    }
                }
                _ => {}
            }
        }
        let mut corrected = p.player.clone();
        for f in &fields {
            corrected.copy_field(&given, f);
        }
        if corrected == p.player {
            return Err(DomainError::invalid(
                "fields",
                format!("player {} already has these values", c.player),
            ));
        }
        if let Some(id) = corrected.fide_id
            && let Some(other) = self.s.player_by_fide_id(id)
            && other.entry != e
        {
            return Err(DomainError::DuplicateFideId {
                fide_id: id,
                player: other.pairing_number(),
            });
        }
        let reason = line("reason", &c.reason, true)?;
        // C.04.2.B.2-3: his place among the others, ties after those registered before him.
        // A round robin's numbers are the drawing of lots: a correction never moves them.
        let new_player_id = if self.s.current_round().is_none() && self.t.pairing_system.is_swiss()
        {
            let place = 1 + self
                .s
                .players()
                .filter(|q| q.entry != e)
                .filter(|q| {
                    q.player
                        .initial_ranking_cmp(&corrected)
                        .then(q.entry.cmp(&e))
                        .is_lt()
                })
                .count() as u32;
            (place != c.player).then_some(place)
        } else {
            None
        };
        let mut events = vec![Event::PlayerCorrected(PlayerCorrected {
            player: corrected,
            fields,
            reason,
            new_player_id,
        })];
        // The pairing input holds the player's data: a pending pairing is made again.
        events.extend(self.rerequest());
        Ok(events)
    }

    fn withdraw(&self, c: &WithdrawPlayer) -> Result<Vec<Event>, DomainError> {
        let e = self.entry(c.player)?;
        let Some(p) = self.s.player_by_entry(e) else {
            return Err(DomainError::UnknownPlayer {
                player: c.player,
                players: self.s.player_count(),
            });
        };
        if let Some(w) = &p.withdrawn {
            return Err(DomainError::PlayerWithdrawn {
                player: c.player,
                from_round: w.from_round,
            });
        }
        self.round_open(c.from_round, "a player leaving a paired round loses his game by forfeit; withdraw him from a later round")?;
        let mut events: Vec<Event> = p
            .byes
            .range(c.from_round..)
            .map(|(round, _)| {
                Event::ByeCancelled(ByeCancelled {
                    player_id: c.player,
                    round: *round,
                })
            })
            .collect();
        events.push(Event::PlayerWithdrawn(PlayerWithdrawn {
            player_id: c.player,
            from_round: c.from_round,
            reason: line("reason", &c.reason, false)?,
        }));
        events.extend(self.rerequest_if_pending(c.from_round));
        Ok(events)
    }

    /// The player exists and is to be paired in `round` as far as registration goes.
    fn check_can_change_round(&self, player: PlayerId, round: u32) -> Result<(), DomainError> {
        let e = self.entry(player)?;
        match self.s.player_by_entry(e).map(|p| p.availability(round)) {
            Some(Availability::Withdrawn { from_round }) => {
                Err(DomainError::PlayerWithdrawn { player, from_round })
            }
            Some(Availability::NotEntered { first_round, .. }) => {
                Err(DomainError::PlayerNotEntered {
                    player,
                    round,
                    first_round,
                })
            }
            Some(Availability::Absent) => {
                Err(DomainError::AbsenceAlreadyDeclared { player, round })
            }
            Some(Availability::Bye(kind)) => Err(DomainError::ByeAlreadyRequested {
                player,
                round,
                kind,
            }),
            // A bye or an absence is his to ask for, consent or not.
            Some(Availability::Available | Availability::ConsentMissing) => Ok(()),
            None => Err(DomainError::UnknownPlayer {
                player,
                players: self.s.player_count(),
            }),
        }
    }

    /// A round robin follows its schedule: no byes, no absences taken out of the pairing; a
    /// scheduled game a player misses is a forfeit (C.05 §6.6: "−" for him, "+" for his
    /// opponent), recorded as its result.
    fn refuse_in_round_robin(&self, field: &str) -> Result<(), DomainError> {
        if self.t.pairing_system.is_swiss() {
            return Ok(());
        }
        Err(DomainError::invalid(
            field,
            "a round robin pairs every player by its schedule: record a missed game as a forfeit (C.05 §6.6)",
        ))
    }

    fn request_bye(&self, c: &RequestBye) -> Result<Vec<Event>, DomainError> {
        self.entry(c.player)?;
        self.refuse_in_round_robin("kind")?;
        // C.05 §6.7.2: to be told before the round is paired.
        self.round_open(
            c.round,
            "a bye must be requested before the round is paired",
        )?;
        self.check_can_change_round(c.player, c.round)?;
        let mut events = vec![Event::ByeRequested(ByeRequested {
            player_id: c.player,
            round: c.round,
            kind: c.kind,
        })];
        events.extend(self.rerequest_if_pending(c.round));
        Ok(events)
    }

    fn cancel_bye(&self, c: &CancelBye) -> Result<Vec<Event>, DomainError> {
        let e = self.entry(c.player)?;
        self.round_open(c.round, "the bye is part of the published pairing")?;
        if !self
            .s
            .player_by_entry(e)
            .is_some_and(|p| p.byes.contains_key(&c.round))
        {
            return Err(DomainError::NoByeRequested {
                player: c.player,
                round: c.round,
            });
        }
        let mut events = vec![Event::ByeCancelled(ByeCancelled {
            player_id: c.player,
            round: c.round,
        })];
        events.extend(self.rerequest_if_pending(c.round));
        Ok(events)
    }

    fn declare_absence(&self, c: &DeclareAbsence) -> Result<Vec<Event>, DomainError> {
        self.entry(c.player)?;
        self.refuse_in_round_robin("round")?;
        self.round_open(
            c.round,
            "a player missing a paired game loses it by forfeit (record the result)",
        )?;
        self.check_can_change_round(c.player, c.round)?;
        let mut events = vec![Event::AbsenceDeclared(AbsenceDeclared {
            player_id: c.player,
            round: c.round,
            reason: line("reason", &c.reason, false)?,
        })];
        events.extend(self.rerequest_if_pending(c.round));
        Ok(events)
    }

    /// A player's fair-play agreement (E.04 Appendix I J; spec online-hybrid §7): for the
    /// regulations the event names, with every item its format needs, once.
    fn record_fair_play_consent(
        &self,
        c: &RecordFairPlayConsent,
    ) -> Result<Vec<Event>, DomainError> {
        let conduct = &self.t.conduct;
        if !conduct.consent_required() {
            return Err(DomainError::ConsentNotRequired {
                format: conduct.format.to_string(),
            });
        }
        self.entry(c.player)?;
        let p = self.s.player(c.player).ok_or(DomainError::UnknownPlayer {
            player: c.player,
            players: self.s.player_count(),
        })?;
        if let Some(w) = &p.withdrawn {
            return Err(DomainError::PlayerWithdrawn {
                player: c.player,
                from_round: w.from_round,
            });
        }
        if let Some(done) = &p.consent {
            return Err(DomainError::ConsentAlreadyRecorded {
                player: c.player,
                regulations_version: done.regulations_version.clone(),
                platform_account: done.platform_account.clone(),
            });
        }
        let version = c.regulations_version.trim();
        if version != conduct.regulations_version {
            return Err(DomainError::invalid(
                "consent.regulations_version",
                format!(
                    "{version:?} is not the event's regulations {:?}: the player must consent to \
                     the regulations in force",
                    conduct.regulations_version
                ),
            ));
        }
        let missing: Vec<&str> = conduct
            .required_items()
            .into_iter()
            .filter(|i| !c.items.contains(i))
            .map(|i| i.describe())
            .collect();
        if !missing.is_empty() {
            return Err(DomainError::invalid(
                "consent.items",
                format!(
                    "this {} event needs consent to {}",
                    conduct.format,
                    missing.join(", ")
                ),
            ));
        }
        let accepted_by = line("consent.accepted_by", &c.accepted_by, true)?;
        let platform_account = line("consent.platform_account", &c.platform_account, false)?;
        if conduct.format.is_online() && platform_account.is_empty() {
            return Err(DomainError::invalid(
                "consent.platform_account",
                format!(
                    "a {} event is played on the player's personal platform account (E.04 9.3): \
                     name it",
                    conduct.format
                ),
            ));
        }
        let mut items = c.items.clone();
        items.sort();
        items.dedup();
        let mut events = vec![Event::FairPlayConsentRecorded(FairPlayConsentRecorded {
            player_id: c.player,
            regulations_version: version.to_string(),
            accepted_by,
            by_guardian: c.by_guardian,
            items,
            platform_account,
        })];
        // A pairing already requested left him out: ask for it again.
        if let Some(r) = self.s.pending_round() {
            events.extend(self.rerequest_if_pending(r));
        }
        Ok(events)
    }

    fn start_round(&self, c: &StartRound) -> Result<Vec<Event>, DomainError> {
        self.round_in_range(c.round)?;
        let expected = self.s.current_round().map_or(1, |n| n + 1);
        if c.round != expected {
            return Err(DomainError::RoundOutOfOrder {
                round: c.round,
                expected,
            });
        }
        if let Some(previous) = self.s.current_round()
            && self.s.round_phase(previous) != Some(RoundPhase::Closed)
        {
            return Err(DomainError::PreviousRoundNotClosed {
                round: c.round,
                previous,
            });
        }
        // The rounds of a round robin are its schedule's (spec/round-robin.md §2); a team
        // event's are its teams'.
        if let Some(rules) = self.s.team_rules() {
            if c.round == 1 {
                super::team_event::check_start(self.s, self.t, rules)?;
            }
        } else {
            self.s.check_round_robin_rounds()?;
        }
        if self.t.pairing_system == PairingSystem::Knockout
            && let Some((decided_in, winner)) = self.s.bracket()?.decided
        {
            return Err(DomainError::KnockoutDecided {
                round: c.round,
                decided_in,
                winner,
            });
        }
        if !self.t.pairing_system.is_swiss() {
            // A schedule pairs everyone; a Swiss pairing leaves such a player out instead.
            let missing: Vec<PlayerId> = self
                .s
                .players()
                .filter(|p| p.availability(c.round) == Availability::ConsentMissing)
                .map(|p| p.pairing_number())
                .collect();
            if !missing.is_empty() {
                return Err(DomainError::ConsentMissing {
                    round: c.round,
                    players: missing,
                });
            }
        }
        let available = self
            .s
            .players()
            .filter(|p| p.availability(c.round).is_available())
            .count() as u32;
        if available < 2 {
            return Err(DomainError::NotEnoughPlayers {
                round: c.round,
                available,
            });
        }
        Ok(vec![
            Event::RoundStarted(RoundStarted {
                round: c.round,
                scheduled_unix_ms: c.scheduled_unix_ms,
            }),
            Event::PairingRequested(PairingRequested {
                round: c.round,
                rule_set: self.t.rule_set.clone(),
                attempt: 1,
            }),
        ])
    }

    /// `round` is started and its pairing pending; returns its phase.
    fn pending(&self, round: u32) -> Result<RoundPhase, DomainError> {
        self.round_in_range(round)?;
        match self.s.round_phase(round) {
            None => Err(DomainError::RoundNotStarted { round }),
            Some(p) if p.is_pending() => Ok(p),
            Some(_) => Err(DomainError::RoundAlreadyPaired {
                round,
                hint: "a published pairing is not changed (C.04.2.D.10)",
            }),
        }
    }

    fn request_pairing(&self, c: &RequestPairing) -> Result<Vec<Event>, DomainError> {
        self.pending(c.round)?;
        Ok(self.rerequest().into_iter().collect())
    }

    /// The attempt and rule set of an engine's answer match the pending request.
    fn check_answer(
        &self,
        round: u32,
        attempt: u32,
        rule_set: &str,
    ) -> Result<RoundPhase, DomainError> {
        let phase = self.pending(round)?;
        let current = self.s.round_attempt(round).unwrap_or(0);
        if phase == RoundPhase::Started || phase == RoundPhase::Failed {
            return Err(DomainError::RoundNotPending { round, phase });
        }
        if attempt != current {
            return Err(DomainError::StaleAttempt {
                round,
                attempt,
                current,
            });
        }
        if phase == RoundPhase::Proposed {
            return Err(DomainError::AlreadyProposed { round, attempt });
        }
        if rule_set != self.t.rule_set {
            return Err(DomainError::RuleSetMismatch {
                round,
                expected: self.t.rule_set.clone(),
                given: rule_set.to_string(),
            });
        }
        Ok(phase)
    }

    fn engine(&self, e: &super::types::Engine) -> Result<super::types::Engine, DomainError> {
        Ok(super::types::Engine {
            name: line("engine.name", &e.name, true)?,
            version: line("engine.version", &e.version, false)?,
        })
    }

    fn propose(&self, c: &ProposePairing) -> Result<Vec<Event>, DomainError> {
        self.check_answer(c.round, c.attempt, &c.rule_set)?;
        if c.input_digest.len() != 32 {
            return Err(DomainError::invalid(
                "input_digest",
                format!("{} bytes, not the 32 of a SHA-256", c.input_digest.len()),
            ));
        }
        let (boards, unpaired) = match self.s.team_rules() {
            Some(rules) => {
                // A team round is proposed as matches; the boards wait for the line-ups.
                if !c.boards.is_empty() || c.bye.is_some() {
                    return Err(DomainError::invalid(
                        "boards",
                        "a team event's proposal names matches (team_matches, team_bye), not boards",
                    ));
                }
                let pairing = super::team_event::TeamPairing {
                    matches: c.team_matches.clone(),
                    bye: c.team_bye,
                };
                super::team_event::check_pairing(self.s, self.t, rules, c.round, &pairing)?;
                (Vec::new(), Vec::new())
            }
            None => {
                if !c.team_matches.is_empty() || c.team_bye.is_some() {
                    return Err(DomainError::invalid(
                        "team_matches",
                        "team matches are proposed in team events only",
                    ));
                }
                self.check_pairing(c.round, &c.boards, c.bye)?
            }
        };
        Ok(vec![Event::PairingProposed(PairingProposed {
            round: c.round,
            attempt: c.attempt,
            boards,
            unpaired,
            engine: self.engine(&c.engine)?,
            rule_set: c.rule_set.clone(),
            based_on_version: c.based_on_version,
            input_digest: c.input_digest.clone(),
            explanation: text("explanation", &c.explanation, false)?,
            team_matches: c.team_matches.clone(),
            team_bye: c.team_bye,
        })])
    }

    fn report_failure(&self, c: &ReportPairingFailure) -> Result<Vec<Event>, DomainError> {
        self.check_answer(c.round, c.attempt, &c.rule_set)?;
        if !c.input_digest.is_empty() && c.input_digest.len() != 32 {
            return Err(DomainError::invalid(
                "input_digest",
                format!("{} bytes, not the 32 of a SHA-256", c.input_digest.len()),
            ));
        }
        Ok(vec![Event::PairingFailed(PairingFailed {
            round: c.round,
            attempt: c.attempt,
            engine: self.engine(&c.engine)?,
            rule_set: c.rule_set.clone(),
            based_on_version: c.based_on_version,
            input_digest: c.input_digest.clone(),
            reason: text("reason", &c.reason, true)?,
        })])
    }

    fn publish(&self, c: &PublishPairing) -> Result<Vec<Event>, DomainError> {
        self.pending(c.round)?;
        if let Some(rules) = self.s.team_rules() {
            return self.publish_team(c, rules);
        }
        let proposal = self.s.proposal(c.round);
        let proposed = proposal.as_ref().map(|p| {
            let pairs: Vec<Pair> = p
                .boards
                .iter()
                .map(|b| Pair::new(b.white, b.black))
                .collect();
            let bye = p
                .unpaired
                .iter()
                .find(|u| u.code == ResultCode::PairingBye)
                .map(|u| u.player_id);
            (pairs, bye)
        });
        let note = text("note", &c.note, false)?;
        let (pairs, bye, manually_changed) = match (&c.changes, &proposed) {
            (None, None) => return Err(DomainError::NoProposal { round: c.round }),
            (None, Some((pairs, bye))) => (pairs.clone(), *bye, false),
            (Some(m), _) => {
                let same = proposed
                    .as_ref()
                    .is_some_and(|(pairs, bye)| *pairs == m.boards && *bye == m.bye);
                if !same && note.trim().is_empty() {
                    return Err(DomainError::invalid(
                        "note",
                        "a pairing changed by hand needs a note giving the reason",
                    ));
                }
                (m.boards.clone(), m.bye, !same)
            }
        };
        let (boards, unpaired) = self.check_pairing(c.round, &pairs, bye)?;
        let forfeits = self.withdrawal_forfeits(c.round, &boards);
        let mut events = vec![Event::PairingPublished(PairingPublished {
            round: c.round,
            proposal_version: if proposal.is_some() {
                c.proposal_version
            } else {
                None
            },
            boards,
            unpaired,
            manually_changed,
            note,
            team_matches: Vec::new(),
            team_bye: None,
        })];
        events.extend(forfeits);
        Ok(events)
    }

    /// A team round: the proposal's matches (or the arbiter's, with a note), each expanded
    /// into its boards from the line-ups (`team_event`).
    fn publish_team(
        &self,
        c: &PublishPairing,
        rules: &crate::teams::TeamRules,
    ) -> Result<Vec<Event>, DomainError> {
        use super::team_event::{TeamPairing, boards, check_pairing, manual};
        let proposed = self.s.team_proposal(c.round);
        let note = text("note", &c.note, false)?;
        let (pairing, manually_changed) = match (&c.changes, &proposed) {
            (None, None) => return Err(DomainError::NoProposal { round: c.round }),
            (None, Some(p)) => (p.clone(), false),
            (Some(m), _) => {
                let given: TeamPairing = manual(m)?;
                let same = proposed.as_ref() == Some(&given);
                if !same && note.trim().is_empty() {
                    return Err(DomainError::invalid(
                        "note",
                        "a pairing changed by hand needs a note giving the reason",
                    ));
                }
                (given, !same)
            }
        };
        check_pairing(self.s, self.t, rules, c.round, &pairing)?;
        let (boards, unpaired) = boards(self.s, rules, c.round, &pairing)?;
        Ok(vec![Event::PairingPublished(PairingPublished {
            round: c.round,
            proposal_version: if proposed.is_some() {
                c.proposal_version
            } else {
                None
            },
            boards,
            unpaired,
            manually_changed,
            note,
            team_matches: pairing.matches,
            team_bye: pairing.bye,
        })])
    }

    /// A round robin keeps a withdrawn player's games on the schedule (C.05 §6.6): each is a
    /// forfeit, recorded with the pairing so nobody has to enter it ("-" for the withdrawn
    /// player, "+" for the opponent; "-/-" when both withdrew). Whether his results count in
    /// the standings is the 50 % rule's business, not this one's. Nothing in a Swiss event,
    /// where a withdrawn player is not paired.
    fn withdrawal_forfeits(&self, round: u32, boards: &[Board]) -> Vec<Event> {
        if self.t.pairing_system.is_swiss() {
            return Vec::new();
        }
        let gone: BTreeSet<PlayerId> = self
            .s
            .withdrawals()
            .into_iter()
            .filter(|&(_, from)| from <= round)
            .map(|(pn, _)| pn)
            .collect();
        boards
            .iter()
            .filter_map(|b| {
                let result = match (gone.contains(&b.white), gone.contains(&b.black)) {
                    (true, true) => BoardResult::DoubleForfeit,
                    (true, false) => BoardResult::BlackWinsForfeit,
                    (false, true) => BoardResult::WhiteWinsForfeit,
                    (false, false) => return None,
                };
                Some(Event::ResultRecorded(ResultRecorded {
                    round,
                    board: b.number,
                    result,
                }))
            })
            .collect()
    }

    /// Checks a pairing of `round` and numbers its boards; lists every player not on a board
    /// with his code.
    fn check_pairing(
        &self,
        round: u32,
        pairs: &[Pair],
        bye: Option<PlayerId>,
    ) -> Result<(Vec<Board>, Vec<Unpaired>), DomainError> {
        if !self.t.pairing_system.is_swiss() {
            return self.check_schedule(round, pairs, bye);
        }
        let mut seen = BTreeSet::new();
        let mut check = |pn: PlayerId| -> Result<EntryId, DomainError> {
            let e = self
                .s
                .entry_of(pn)
                .ok_or(DomainError::PairingUnknownPlayer { round, player: pn })?;
            if !seen.insert(e) {
                return Err(DomainError::PairedTwice { round, player: pn });
            }
            let availability = self
                .s
                .player_by_entry(e)
                .map_or(Availability::Available, |p| p.availability(round));
            if !availability.is_available() {
                return Err(DomainError::NotAvailable {
                    round,
                    player: pn,
                    availability,
                });
            }
            Ok(e)
        };
        let mut boards = Vec::with_capacity(pairs.len());
        let mut games = Vec::with_capacity(pairs.len());
        for (i, p) in pairs.iter().enumerate() {
            let board = i as u32 + 1;
            if p.white == p.black {
                return Err(DomainError::PairedWithSelf {
                    round,
                    board,
                    player: p.white,
                });
            }
            let w = check(p.white)?;
            let b = check(p.black)?;
            boards.push(Board {
                number: board,
                white: p.white,
                black: p.black,
            });
            games.push((board, w, b));
        }
        let bye_entry = bye.map(&mut check).transpose()?;
        let mut unpaired = Vec::new();
        let mut left_out = Vec::new();
        for p in self.s.players() {
            if seen.contains(&p.entry) {
                continue;
            }
            match p.availability(round).unpaired_code() {
                Some(code) => unpaired.push(Unpaired {
                    player_id: p.pairing_number(),
                    code,
                }),
                None => left_out.push(p.pairing_number()),
            }
        }
        if !left_out.is_empty() {
            return Err(DomainError::PlayersLeftOut {
                round,
                players: left_out,
            });
        }
        if self.t.pairing_system.is_swiss() {
            // C.04.1.b: two players do not meet twice (only played games count, C.04.2.D.6).
            for (board, w, b) in &games {
                if let Some(earlier_round) = self.s.played_before(*w, *b, round) {
                    return Err(DomainError::Rematch {
                        round,
                        board: *board,
                        white: self.s.pn(*w),
                        black: self.s.pn(*b),
                        earlier_round,
                    });
                }
            }
            // C.04.1.d (and [C2] of dutch-2025): PAB eligibility.
            if let Some(e) = bye_entry {
                self.check_bye_eligible(round, e)?;
            }
        }
        if let Some(pn) = bye {
            unpaired.push(Unpaired {
                player_id: pn,
                code: ResultCode::PairingBye,
            });
        }
        unpaired.sort_by_key(|u| u.player_id);
        Ok((boards, unpaired))
    }

    /// A round robin's pairing is its schedule's round (spec/round-robin.md §3, C.05 §5.1):
    /// every board as the Berger table has it, in its order and colours, whether or not its
    /// players will appear (a withdrawn or absent player's game is forfeited, C.05 §6.6);
    /// the player without an opponent in an odd field rests with zero points, which is no
    /// pairing-allocated bye.
    fn check_schedule(
        &self,
        round: u32,
        pairs: &[Pair],
        bye: Option<PlayerId>,
    ) -> Result<(Vec<Board>, Vec<Unpaired>), DomainError> {
        let scheduled = self.s.scheduled_round(round)?;
        let knockout = self.t.pairing_system == PairingSystem::Knockout;
        if let Some(pn) = bye {
            return Err(DomainError::invalid(
                "bye",
                format!(
                    "a round robin has no pairing-allocated bye (player {pn}); in an odd field the player the schedule leaves out rests"
                ),
            ));
        }
        let text = |p: Option<&Pair>| {
            p.map_or("no game".to_string(), |p| {
                format!("{}-{}", p.white, p.black)
            })
        };
        for i in 0..pairs.len().max(scheduled.boards.len()) {
            let (given, expected) = (pairs.get(i), scheduled.boards.get(i));
            if given != expected && knockout {
                return Err(DomainError::OffBracket {
                    round,
                    board: i as u32 + 1,
                    expected: text(expected),
                    given: text(given),
                });
            }
            if given != expected {
                return Err(DomainError::OffSchedule {
                    round,
                    board: i as u32 + 1,
                    expected: text(expected),
                    given: text(given),
                });
            }
        }
        let boards = pairs
            .iter()
            .enumerate()
            .map(|(i, p)| Board {
                number: i as u32 + 1,
                white: p.white,
                black: p.black,
            })
            .collect();
        let unpaired = scheduled
            .rest
            .into_iter()
            .chain(scheduled.not_playing)
            .map(|pn| Unpaired {
                player_id: pn,
                code: ResultCode::ZeroBye,
            })
            .collect();
        Ok((boards, unpaired))
    }

    fn check_bye_eligible(&self, round: u32, e: EntryId) -> Result<(), DomainError> {
        let player = self.s.pn(e);
        let win = self.t.scoring.win;
        for r in 1..round {
            let Some(x) = self.s.round_entry(e, r, false) else {
                continue;
            };
            let reason = match x.result {
                ResultCode::PairingBye => Some("he had the pairing-allocated bye"),
                ResultCode::ForfeitWin => Some("he won by forfeit"),
                code if self.t.rule_set == "dutch-2025"
                    && !code.is_played()
                    && self.t.scoring.points(code) >= win =>
                {
                    Some("he scored a win's points without playing")
                }
                _ => None,
            };
            if let Some(reason) = reason {
                return Err(DomainError::ByeNotAllowed {
                    round,
                    player,
                    earlier_round: r,
                    reason,
                });
            }
        }
        Ok(())
    }

    /// `round` is published and `board` is one of its boards; returns the board's latest result.
    fn board(
        &self,
        round: u32,
        board: u32,
    ) -> Result<Option<super::types::BoardResult>, DomainError> {
        self.round_in_range(round)?;
        let Some(phase) = self.s.round_phase(round) else {
            return Err(DomainError::RoundNotStarted { round });
        };
        if phase.is_pending() {
            return Err(DomainError::RoundNotPublished { round });
        }
        let Some(p) = self.s.published(round) else {
            return Err(DomainError::RoundNotPublished { round });
        };
        let Some(b) = (board as usize)
            .checked_sub(1)
            .and_then(|i| p.boards.get(i))
        else {
            return Err(DomainError::UnknownBoard {
                round,
                board,
                boards: p.boards.len() as u32,
            });
        };
        Ok(b.final_result)
    }

    /// One game per board of a published pairing; its players by registered name; its result
    /// the recorded one when one is recorded (none recorded yet: a platform may send the game
    /// before the arbiter records the result, so it is accepted as it is).
    fn submit_game(&self, c: &SubmitGame) -> Result<Vec<Event>, DomainError> {
        let recorded = self.board(c.round, c.board)?;
        if self.s.game_submitted(c.round, c.board) {
            return Err(DomainError::GameAlreadySubmitted {
                round: c.round,
                board: c.board,
            });
        }
        let mismatch = |reason: String| DomainError::GameMismatch {
            round: c.round,
            board: c.board,
            reason,
        };
        if c.pgn.trim().is_empty() {
            return Err(DomainError::invalid("pgn", "empty"));
        }
        let board = self
            .s
            .published(c.round)
            .and_then(|p| p.boards.into_iter().nth(c.board as usize - 1))
            .ok_or(DomainError::RoundNotPublished { round: c.round })?;
        for (side, pn, given) in [
            ("White", board.white, &c.white),
            ("Black", board.black, &c.black),
        ] {
            let name = self
                .s
                .player(pn)
                .map(|p| p.player.name.clone())
                .unwrap_or_default();
            if name.trim() != given.trim() {
                return Err(mismatch(format!(
                    "the PGN's {side} is {given:?}, the board's {} is player {pn} {name:?}",
                    side.to_lowercase()
                )));
            }
        }
        if let Some(result) = recorded {
            use super::types::BoardResult as R;
            let expected = match result {
                R::WhiteWinsForfeit | R::BlackWinsForfeit | R::DoubleForfeit => {
                    return Err(mismatch(format!(
                        "the recorded result is the forfeit {result}: no game was played"
                    )));
                }
                // An arbiter's decision (Laws 12.9) may differ from the score's own ending.
                played => played.pgn(),
            };
            if let Some(expected) = expected
                && c.result.trim() != expected
            {
                return Err(mismatch(format!(
                    "the PGN's result is {:?}, the recorded result is {result}",
                    c.result.trim()
                )));
            }
        }
        let mut events = vec![Event::GameSubmitted(GameSubmitted {
            round: c.round,
            board: c.board,
            pgn: c.pgn.clone(),
        })];
        // Online, the platform's result is a proposal: one the Laws contradict goes to the
        // arbiter (E.04 15.3-15.4, 19.3-19.4). Over the board the signed result stands (Laws
        // 8.7), and a recorded result was checked above.
        if self.t.conduct.format.is_online()
            && let Some(laws) = &c.laws
            && recorded.is_none()
            && c.result.trim() != "*"
            && laws.result != c.result.trim()
        {
            events.push(Event::ResultDiscrepancyDetected(
                ResultDiscrepancyDetected {
                    round: c.round,
                    board: c.board,
                    platform_result: c.result.trim().to_string(),
                    laws_result: laws.result.clone(),
                    reason: laws.reason.clone(),
                    article: laws.article.clone(),
                },
            ));
        }
        Ok(events)
    }

    /// The arbiter's result in place of the platform's (E.04 9.14, 15.3-15.4, 19.3-19.4).
    fn override_platform_result(
        &self,
        c: &OverridePlatformResult,
    ) -> Result<Vec<Event>, DomainError> {
        let format = self.t.conduct.format;
        if !format.is_online() {
            return Err(DomainError::NotOnline {
                format: format.to_string(),
            });
        }
        self.board_without_result(c.round, c.board)?;
        let Some(platform) = self.s.submitted_game_result(c.round, c.board) else {
            return Err(DomainError::NoPlatformResult {
                round: c.round,
                board: c.board,
            });
        };
        // Forfeits and per-player decisions are RecordResult's (a decision with each player's
        // code may differ from the moves already).
        let Some(as_pgn) = c.result.pgn() else {
            return Err(DomainError::invalid(
                "result",
                format!(
                    "{} is not a played result; record a forfeit or an arbiter's decision with \
                     RecordResult",
                    c.result
                ),
            ));
        };
        if as_pgn == platform {
            return Err(DomainError::invalid(
                "result",
                format!(
                    "{} is the platform's own result: confirm it with RecordResult",
                    c.result
                ),
            ));
        }
        let reason = line("reason", &c.reason, true)?;
        let article = self
            .s
            .discrepancy(c.round, c.board)
            .map_or("E.04 Art. 9.14", |d| d.article.as_str())
            .to_string();
        Ok(vec![
            Event::ResultOverridden(ResultOverridden {
                round: c.round,
                board: c.board,
                platform_result: platform.to_string(),
                result: c.result,
                reason,
                article,
            }),
            Event::ResultRecorded(ResultRecorded {
                round: c.round,
                board: c.board,
                result: c.result,
            }),
        ])
    }

    /// The games of a round's file, each matched to the board whose White and Black are its
    /// White and Black by registered name, each checked as [`Self::submit_game`] checks one;
    /// all or nothing, the first refusal naming the game (its place in the file and players).
    fn submit_games(&self, c: &SubmitGames) -> Result<Vec<Event>, DomainError> {
        if c.games.is_empty() {
            return Err(DomainError::invalid("pgn", "no game in the file"));
        }
        self.round_in_range(c.round)?;
        if self.s.round_phase(c.round).is_none() {
            return Err(DomainError::RoundNotStarted { round: c.round });
        }
        let Some(published) = self.s.published(c.round) else {
            return Err(DomainError::RoundNotPublished { round: c.round });
        };
        let name = |pn: PlayerId| {
            self.s
                .player(pn)
                .map(|p| p.player.name.trim().to_string())
                .unwrap_or_default()
        };
        let boards: Vec<(u32, String, String)> = published
            .boards
            .iter()
            .enumerate()
            .map(|(i, b)| (i as u32 + 1, name(b.white), name(b.black)))
            .collect();
        // Board -> the game of the file that took it.
        let mut taken: std::collections::BTreeMap<u32, u32> = std::collections::BTreeMap::new();
        let mut events = Vec::with_capacity(c.games.len());
        for g in &c.games {
            let (white, black) = (g.white.trim(), g.black.trim());
            let in_file = |error: DomainError| DomainError::GameInFile {
                index: g.index,
                white: white.to_string(),
                black: black.to_string(),
                error: Box::new(error),
            };
            let Some((board, _, _)) = boards.iter().find(|(_, w, b)| w == white && b == black)
            else {
                let reason = match boards.iter().find(|(_, w, b)| w == black && b == white) {
                    Some((n, w, b)) => format!(
                        "White {white:?} and Black {black:?}; board {n} has them with the other \
                         colours (White {w:?}, Black {b:?})"
                    ),
                    None => format!(
                        "White {white:?} and Black {black:?} (the players by registered name)"
                    ),
                };
                return Err(DomainError::NoBoardForGame {
                    index: g.index,
                    white: white.to_string(),
                    black: black.to_string(),
                    round: c.round,
                    reason,
                });
            };
            if let Some(first) = taken.insert(*board, g.index) {
                return Err(in_file(DomainError::GameMismatch {
                    round: c.round,
                    board: *board,
                    reason: format!("game {first} of the file is already this board's game"),
                }));
            }
            let one = SubmitGame {
                round: c.round,
                board: *board,
                pgn: g.pgn.clone(),
                white: g.white.clone(),
                black: g.black.clone(),
                result: g.result.clone(),
                laws: g.laws.clone(),
            };
            events.extend(self.submit_game(&one).map_err(in_file)?);
        }
        Ok(events)
    }

    /// A result recorded or corrected for a board whose game is submitted must not contradict
    /// the game's score, as `SubmitGame` would refuse that game under that result: a forfeit
    /// says no game was played, and a played result must be the one the score ends with. An
    /// arbiter's decision (each player's code given, e.g. a loss for a player whose phone rang
    /// in a position he was winning, Laws 11.3.b, 12.9) may differ from the moves, and so may
    /// any result while the score ends with `*` (its end unknown).
    fn agrees_with_game(
        &self,
        round: u32,
        board: u32,
        result: BoardResult,
    ) -> Result<(), DomainError> {
        let Some(game) = self.s.submitted_game_result(round, board) else {
            return Ok(());
        };
        use super::types::BoardResult as R;
        let reason = match result {
            R::ArbiterDecision { .. } => return Ok(()),
            _ if game == "*" => return Ok(()),
            R::WhiteWinsForfeit | R::BlackWinsForfeit | R::DoubleForfeit => {
                "a forfeit says no game was played, and this game's score is submitted; record \
                 the game's result, or an arbiter's decision with each player's code"
                    .to_string()
            }
            played if played.pgn() == Some(game) => return Ok(()),
            _ if self.t.conduct.format.is_online() => "the platform's result is the score's: \
                confirm it by recording it, or override it with OverridePlatformResult and a \
                reason (E.04 9.14, 15.3-15.4)"
                .to_string(),
            _ => "record the result the score ends with, or an arbiter's decision with each \
                  player's code when the result differs from the moves (Laws 12.9)"
                .to_string(),
        };
        Err(DomainError::ResultContradictsGame {
            round,
            board,
            result,
            game_result: game.to_string(),
            reason,
        })
    }

    /// `board` of `round` is published, its round open and its result not yet recorded.
    fn board_without_result(&self, round: u32, board: u32) -> Result<(), DomainError> {
        self.round_in_range(round)?;
        if self.s.round_phase(round) == Some(RoundPhase::Closed) {
            return Err(DomainError::RoundClosed { round });
        }
        if let Some(result) = self.board(round, board)? {
            return Err(DomainError::ResultAlreadyRecorded {
                round,
                board,
                result,
            });
        }
        Ok(())
    }

    fn record_result(&self, c: &RecordResult) -> Result<Vec<Event>, DomainError> {
        self.board_without_result(c.round, c.board)?;
        c.result
            .check()
            .map_err(|reason| DomainError::InvalidDecision {
                round: c.round,
                board: c.board,
                reason,
            })?;
        self.agrees_with_game(c.round, c.board, c.result)?;
        Ok(vec![Event::ResultRecorded(ResultRecorded {
            round: c.round,
            board: c.board,
            result: c.result,
        })])
    }

    fn correct_result(&self, c: &CorrectResult) -> Result<Vec<Event>, DomainError> {
        let Some(previous) = self.board(c.round, c.board)? else {
            return Err(DomainError::ResultNotRecorded {
                round: c.round,
                board: c.board,
            });
        };
        if previous == c.result {
            return Err(DomainError::ResultUnchanged {
                round: c.round,
                board: c.board,
                result: previous,
            });
        }
        c.result
            .check()
            .map_err(|reason| DomainError::InvalidDecision {
                round: c.round,
                board: c.board,
                reason,
            })?;
        self.agrees_with_game(c.round, c.board, c.result)?;
        let mut events = vec![Event::ResultCorrected(ResultCorrected {
            round: c.round,
            board: c.board,
            previous,
            corrected: c.result,
            reason: line("reason", &c.reason, true)?,
        })];
        // A knockout's published rounds follow from the results before them: a correction
        // that would decide a match differently once its next games are paired is refused
        // (the bracket must stay one the log can replay).
        if self.t.pairing_system == PairingSystem::Knockout
            && self.s.correction_effect(c.round) == CorrectionEffect::LaterPairings
        {
            let mut after = self.s.clone();
            for e in &events {
                after.apply(e);
            }
            if let Err(e) = after.bracket() {
                return Err(DomainError::invalid(
                    "result",
                    format!(
                        "round {}, board {}: the correction changes the knockout after round {} was paired ({e}); correct it once that round is closed, for rating only",
                        c.round,
                        c.board,
                        c.round + 1
                    ),
                ));
            }
        }
        // C.04.2.D.8: before the next pairing is made, the next pairing uses the correction.
        if self.s.correction_effect(c.round) == CorrectionEffect::NextPairing {
            events.extend(self.rerequest_if_pending(c.round + 1));
        }
        Ok(events)
    }

    fn close_round(&self, c: &CloseRound) -> Result<Vec<Event>, DomainError> {
        self.round_in_range(c.round)?;
        match self.s.round_phase(c.round) {
            None => return Err(DomainError::RoundNotStarted { round: c.round }),
            Some(RoundPhase::Closed) => {
                return Err(DomainError::RoundAlreadyClosed { round: c.round });
            }
            Some(p) if p.is_pending() => {
                return Err(DomainError::RoundNotPublished { round: c.round });
            }
            Some(_) => {}
        }
        let Some(p) = self.s.published(c.round) else {
            return Err(DomainError::RoundNotPublished { round: c.round });
        };
        let missing: Vec<u32> = p
            .boards
            .iter()
            .filter(|b| b.result.is_none())
            .map(|b| b.number)
            .collect();
        if !missing.is_empty() {
            return Err(DomainError::ResultsMissing {
                round: c.round,
                boards: missing,
            });
        }
        Ok(vec![Event::RoundClosed(RoundClosed { round: c.round })])
    }

    fn finish(&self) -> Result<Vec<Event>, DomainError> {
        let closed = self.s.closed_rounds();
        if self.t.pairing_system == PairingSystem::Knockout {
            // A knockout ends with its final, usually before the most rounds it could need.
            let bracket = self.s.bracket()?;
            let Some((decided_in, _)) = bracket.decided else {
                return Err(DomainError::KnockoutUndecided {
                    round: bracket.rounds.last().map_or(1, |r| r.round),
                });
            };
            if closed < decided_in {
                return Err(DomainError::RoundsRemaining {
                    closed,
                    rounds: decided_in,
                });
            }
            return Ok(vec![Event::TournamentFinished(TournamentFinished {
                rounds_played: decided_in,
            })]);
        }
        if closed < self.t.rounds {
            return Err(DomainError::RoundsRemaining {
                closed,
                rounds: self.t.rounds,
            });
        }
        Ok(vec![Event::TournamentFinished(TournamentFinished {
            rounds_played: self.t.rounds,
        })])
    }
}

/// The numbers a drawing of lots gives the players of `state` (in pairing-number order): drawn
/// from `c.seed`, or `c.numbers` checked (a Varma draw must be one the procedure can make).
/// The audit calls it again on the state before a recorded draw to re-derive it.
pub fn drawn_numbers(state: &State, c: &DrawLots) -> Result<Vec<PlayerId>, DomainError> {
    use arbiter_roundrobin::{lots, varma};
    let n = state.player_count();
    if n < 2 {
        return Err(DomainError::invalid(
            "players",
            format!("{n} players registered: a round robin needs at least 2"),
        ));
    }
    let players: Vec<&Player> = (1..=n)
        .filter_map(|pn| state.player(pn).map(|p| &p.player))
        .collect();
    let entrants: Vec<varma::Entrant> = players
        .iter()
        .map(|p| varma::Entrant {
            name: p.name.clone(),
            federation: p.federation.clone(),
        })
        .collect();
    if c.varma
        && let Some(p) = players.iter().find(|p| p.federation.is_empty())
    {
        return Err(DomainError::invalid(
            "federation",
            format!(
                "player {} ({}) has no federation: the Varma draw orders the players by federation (C.05 Annex 2 step 2)",
                p.player_id, p.name
            ),
        ));
    }
    let seed = line("seed", &c.seed, false)?;
    let numbers = match (seed.is_empty(), c.numbers.is_empty()) {
        (false, true) if c.varma => varma::varma_draw(&entrants, lots::seeded(&seed))
            .map_err(|e| DomainError::invalid("varma", e.to_string()))?,
        (false, true) => {
            let names: Vec<&str> = players.iter().map(|p| p.name.as_str()).collect();
            lots::unrestricted_draw(&names, lots::seeded(&seed))
        }
        (true, false) => {
            if c.varma {
                varma::check_varma_draw(&entrants, &c.numbers)
                    .map_err(|e| DomainError::invalid("numbers", e.to_string()))?;
            } else {
                check_permutation(&c.numbers, n)?;
            }
            c.numbers.clone()
        }
        _ => {
            return Err(DomainError::invalid(
                "seed",
                "give either a seed (the service draws) or the numbers drawn in the hall, not both or neither",
            ));
        }
    };
    Ok(numbers)
}

/// `numbers` gives each of `n` players one number of 1..=n (the players in pairing-number order).
fn check_permutation(numbers: &[PlayerId], n: u32) -> Result<(), DomainError> {
    if numbers.len() != n as usize {
        return Err(DomainError::invalid(
            "numbers",
            format!("{} numbers for {n} players", numbers.len()),
        ));
    }
    let mut seen = vec![false; n as usize + 1];
    for (i, &x) in numbers.iter().enumerate() {
        if x == 0 || x > n {
            return Err(DomainError::invalid(
                "numbers",
                format!("player {}: number {x} is not in 1..={n}", i + 1),
            ));
        }
        if std::mem::replace(&mut seen[x as usize], true) {
            return Err(DomainError::invalid(
                "numbers",
                format!("player {}: number {x} is drawn twice", i + 1),
            ));
        }
    }
    Ok(())
}
