//! A tournament's creation and the later changes of its settings.

use super::*;
use crate::tournament::conduct::Conduct;
use crate::tournament::state::MAX_ROUNDS;
use crate::tournament::team_event;
use crate::tournament::types::{Acceleration, AccelerationMethod, Date, PairingSystem};
use crate::{PointSystem, Score};

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
    team_event: bool,
) -> Result<String, DomainError> {
    match given {
        None => Ok(system.default_rule_set(start).to_string()),
        Some(r) => {
            let r = r.trim();
            if crate::teams::FideTeamSystem::parse(r).is_some() {
                if system == PairingSystem::Dutch && team_event {
                    Ok(r.to_string())
                } else {
                    Err(DomainError::invalid(
                        "rule_set",
                        format!(
                            "{r:?} is FIDE's team Swiss (C.04.6): a Swiss team event's rule set (team_rules given)"
                        ),
                    ))
                }
            } else if system.rule_sets().contains(&r) {
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
    if crate::teams::FideTeamSystem::parse(rule_set).is_some() {
        return Err(DomainError::invalid(
            "acceleration",
            format!("{rule_set}: the team Swiss (C.04.6) is paired without acceleration here"),
        ));
    }
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

pub(super) fn create(c: &CreateTournament) -> Result<Vec<Event>, DomainError> {
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
    let rule_set = rule_set(
        c.pairing_system,
        c.rule_set.as_deref(),
        start_date,
        c.team_rules.is_some(),
    )?;
    let acceleration = acceleration(
        c.acceleration.as_ref(),
        c.pairing_system,
        &rule_set,
        n_rounds,
        &c.scoring,
    )?;
    let knockout = knockout_rules(c.pairing_system, c.knockout.as_ref())?;
    let team_rules =
        team_event::creation_rules(c.pairing_system, c.team_rules.as_ref(), &c.scoring)?;
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
/// the regulations, Arbiters' Manual 2023 ch. IV §6.2), complete, and refused for any other system.
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

impl Decider<'_> {
    pub(super) fn update(&self, c: &UpdateTournament) -> Result<Vec<Event>, DomainError> {
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
            prize_fund: c
                .prize_fund
                .as_ref()
                .map(|f| {
                    f.check()
                        .map(|()| f.clone())
                        .map_err(|(field, why)| DomainError::invalid(field, why))
                })
                .transpose()?,
        })])
    }
}
