//! FIDE tie-breaks (C.07, 2024 and 2026 versions, and the older systems) and standings, in exact
//! arithmetic.
//!
//! The engine works on a small model of its own ([`Tournament`] for individual events,
//! [`TeamTournament`] for team events) built from the core types: players with their rating,
//! federation and per-round [`arbiter_core::RoundEntry`], the [`arbiter_core::PointSystem`], the
//! number of rounds and the start date, which selects the [`RuleSet`]. The model can be filled
//! from a TRF file or from the event log.
//!
//! ```
//! use arbiter_core::ResultCode;
//! use arbiter_tiebreak::{standings, Format, Options, Player, TieBreakList, Tournament};
//!
//! let mut t = Tournament::new(1);
//! t.players.push(Player::new(1, "Alpha", Some(2100)));
//! t.players.push(Player::new(2, "Bravo", Some(2000)));
//! t.set_game(1, 1, 2, ResultCode::Draw);
//! let list: TieBreakList = "BH/C1,BH,SB".parse().unwrap();
//! let st = standings(&t, &list.0, &Options::default()).unwrap();
//! assert_eq!((st.rows[0].rank, st.rows[0].rank_to), (1, 2));
//! let text = arbiter_tiebreak::render(&st, Format::Csv);
//! assert!(text.starts_with("rank,rank_to,no,name"));
//! ```
//!
//! No floating point is used anywhere: scores are tenths, products hundredths, and averages
//! exact [`Rational`]s that are rounded only where the rules say so (ARO, TPR, APRO, SSSC).
//!
//! Where the rules leave room, the behaviour follows the FIDE TEC reference implementation (the
//! golden tables in tests/golden/tiebreaks) and the readings in docs/src/auditors/agreement.md.

mod compute;
mod defaults;
mod descriptor;
mod field;
mod group;
mod model;
mod rational;
mod report;
mod rules;
mod standings;
mod tables;
pub mod trf;

/// The most tie-break items a list may have (the aggregate's bound, checked at creation and on
/// every request): each costs a pass over the field.
pub const MAX_TIE_BREAKS: usize = 30;

pub use defaults::{EventKind, default_tiebreaks, event_kind};
pub use descriptor::{
    Acronym, DescriptorError, EdeChain, ScoreRef, TieBreak, TieBreakList, parse_descriptor,
};
pub use model::{
    ByeValue, Date, DateParseError, MatchPoints, ModelError, PairingKind, Player, Team,
    TeamRoundEntry, TeamRoundKind, TeamScore, TeamTournament, Tournament,
};
pub use rational::Rational;
pub use report::{Format, FormatParseError, render};
pub use rules::{Article16Overrides, Options, RuleSet, RuleSetParseError};
pub use standings::{
    Standing, Standings, standings, team_standings, team_tiebreak_values, tiebreak_values,
};

/// Anything that can stop a standings report.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Model(#[from] ModelError),
    #[error(transparent)]
    Descriptor(#[from] DescriptorError),
}

/// The standings of `model` as text, CSV or JSON, for `arbiter standings IN.trf --tiebreaks
/// "..." --format text|csv|json`. An empty `tiebreaks` list means the recommended list for
/// the kind of event ([`default_tiebreaks`]). Options are the defaults (rule set from the start
/// date); use [`standings_report_with`] to change them.
pub fn standings_report(
    model: &Tournament,
    tiebreaks: &[TieBreak],
    format: Format,
) -> Result<String, Error> {
    standings_report_with(model, tiebreaks, format, &Options::default())
}

/// [`standings_report`] with explicit [`Options`].
pub fn standings_report_with(
    model: &Tournament,
    tiebreaks: &[TieBreak],
    format: Format,
    options: &Options,
) -> Result<String, Error> {
    let defaults;
    let list = if tiebreaks.is_empty() {
        defaults = default_tiebreaks(event_kind(model));
        &defaults.0[..]
    } else {
        tiebreaks
    };
    let st = standings(model, list, options)?;
    Ok(render(&st, format))
}

/// [`standings_report`] for team events (empty list: [`EventKind::TeamSwiss`] or
/// [`EventKind::TeamRoundRobin`] defaults).
pub fn team_standings_report(
    model: &TeamTournament,
    tiebreaks: &[TieBreak],
    format: Format,
    options: &Options,
) -> Result<String, Error> {
    let defaults;
    let list = if tiebreaks.is_empty() {
        defaults = default_tiebreaks(match model.pairing {
            PairingKind::Swiss => EventKind::TeamSwiss,
            PairingKind::PreDetermined => EventKind::TeamRoundRobin,
        });
        &defaults.0[..]
    } else {
        tiebreaks
    };
    let st = team_standings(model, list, options)?;
    Ok(render(&st, format))
}
