//! The team-event side of `arbiter import`: a TRF-2026 file with `310` team records and a
//! `352` board-colour record is a team event. Its rules come from the file (boards: the
//! letters of 352; reserves: the longest list beyond them; match points: 362, else 2 / 1 / 0;
//! the team PAB: 320), and each round's matches and line-ups are read back from the games of
//! the `001` records: the players of two teams who met, in their lists' order, board k the
//! k-th of each (a round that does not follow the lists' order is refused naming it; record
//! 300, play out of that order, is not supported).

use arbiter_core::Color;
use arbiter_core::Score;
use arbiter_core::teams::{ByeValue, MatchPoints, TeamMatch, TeamRules, TeamScore};
use arbiter_core::tournament::State;
use arbiter_core::{PlayerId, PointSystem};
use arbiter_trf::{Record, TextCode, TrfFile};
use std::collections::BTreeMap;

/// The file's team rules when it is a team event; errors name the line and the record.
pub fn rules(file: &TrfFile, game_points: PointSystem) -> Result<Option<TeamRules>, String> {
    let line_of =
        |pred: &dyn Fn(&Record) -> bool| file.records.iter().position(pred).map_or(1, |i| i + 1);
    let teams: Vec<&arbiter_trf::Team310> = file.teams_310().collect();
    let Some(colours) = file
        .text(TextCode::BoardColours)
        .map(|s| s.trim().to_string())
    else {
        return Ok(None);
    };
    if teams.is_empty() {
        return Ok(None);
    }
    for (code, what) in [
        ("300", "play out of the lists' board order"),
        ("330", "forfeited team matches"),
    ] {
        if let Some(i) = file.records.iter().position(|r| match r {
            Record::TeamOrder300(_) => code == "300",
            Record::TeamForfeit330(_) => code == "330",
            _ => false,
        }) {
            return Err(format!(
                "line {} ({code}): {what} are not supported in a team event yet",
                i + 1
            ));
        }
    }
    let boards = colours.chars().count() as u32;
    let longest = teams
        .iter()
        .map(|t| t.members.len() as u32)
        .max()
        .unwrap_or(0);
    let match_points = match file.text(TextCode::TeamScoring) {
        None => MatchPoints::default(),
        Some(text) => match_points(text).map_err(|why| {
            format!(
                "line {} (362 team scoring): {text:?}: {why}",
                line_of(&|r| matches!(r, Record::Text(t) if t.code == TextCode::TeamScoring))
            )
        })?,
    };
    let pab = file.records.iter().find_map(|r| match r {
        Record::TeamByes320(b) => Some(ByeValue {
            match_points: b.match_points,
            game_points: b.game_points,
        }),
        _ => None,
    });
    Ok(Some(TeamRules {
        boards,
        reserves: longest.saturating_sub(boards),
        game_points,
        match_points,
        primary: TeamScore::MatchPoints,
        pab,
        colours,
    }))
}

/// Record 362's text for `mp`, in the layout of record 162: a code and its points in four
/// columns, every nine columns (`TW 3.0   TD 1.0   TL 0.0`).
pub(crate) fn match_points_text(mp: &MatchPoints) -> String {
    format!("TW{:>4}   TD{:>4}   TL{:>4}", mp.win, mp.draw, mp.loss)
}

/// Record 362: `TW`, `TD`, `TL` each followed by its points (`TW 2.0 TD 1.0 TL 0.0`, also
/// written `TW=2.0` or `TW2.0`); a code not given keeps its default.
pub(crate) fn match_points(text: &str) -> Result<MatchPoints, String> {
    let mut mp = MatchPoints::default();
    let words: Vec<&str> = text.split([' ', '=']).filter(|w| !w.is_empty()).collect();
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        let (code, inline) = w.split_at(w.len().min(2));
        let value = if inline.is_empty() {
            i += 1;
            words
                .get(i)
                .copied()
                .ok_or(format!("{code} without points"))?
        } else {
            inline
        };
        let score: Score = value
            .parse()
            .map_err(|_| format!("{value:?} is not a number of points"))?;
        match code {
            "TW" => mp.win = score,
            "TD" => mp.draw = score,
            "TL" => mp.loss = score,
            other => return Err(format!("{other:?} is not TW, TD or TL")),
        }
        i += 1;
    }
    Ok(mp)
}

/// The team bye of `round` by record 320.
pub fn bye(file: &TrfFile, round: u32) -> Option<u32> {
    file.records.iter().find_map(|r| match r {
        Record::TeamByes320(b) => b.teams.get(round as usize - 1).copied().flatten(),
        _ => None,
    })
}

/// A round's line-ups and matches from its games `(white, black)` by pairing number.
pub fn round(
    state: &State,
    rules: &TeamRules,
    round: u32,
    games: &[(PlayerId, PlayerId)],
) -> Result<(Vec<(u32, Vec<PlayerId>)>, Vec<TeamMatch>), String> {
    let lists = state.team_lists();
    let place = |pn: PlayerId| -> Option<(u32, usize)> {
        lists.iter().find_map(|t| {
            t.members
                .iter()
                .position(|&m| m == pn)
                .map(|i| (t.number, i))
        })
    };
    // Games by the pair of teams, each game as (team A's player, team B's player, A white).
    let mut by_match: BTreeMap<(u32, u32), Vec<(PlayerId, PlayerId, bool)>> = BTreeMap::new();
    for &(w, b) in games {
        let ((tw, _), (tb, _)) = (
            place(w).ok_or(format!("round {round}: player {w} is on no team's list"))?,
            place(b).ok_or(format!("round {round}: player {b} is on no team's list"))?,
        );
        if tw == tb {
            return Err(format!(
                "round {round}: players {w} and {b} of team {tw} play each other"
            ));
        }
        let key = (tw.min(tb), tw.max(tb));
        let game = if tw < tb { (w, b, true) } else { (b, w, false) };
        by_match.entry(key).or_default().push(game);
    }
    let mut lineups = Vec::new();
    let mut matches = Vec::new();
    for ((a, b), mut gs) in by_match {
        gs.sort_by_key(|g| place(g.0).map(|p| p.1));
        let la: Vec<PlayerId> = gs.iter().map(|g| g.0).collect();
        let lb: Vec<PlayerId> = gs.iter().map(|g| g.1).collect();
        let in_order = lb
            .windows(2)
            .all(|w| place(w[0]).map(|p| p.1) < place(w[1]).map(|p| p.1));
        if !in_order || gs.len() as u32 != rules.boards {
            return Err(format!(
                "round {round}: teams {a} and {b} play {} boards not in their lists' order (of {} boards); play out of that order (record 300) is not supported",
                gs.len(),
                rules.boards
            ));
        }
        // The team named first has the colour of 352 on board 1.
        let a_first = (rules.first_colour(1) == Some(Color::White)) == gs[0].2;
        for (k, g) in gs.iter().enumerate() {
            let first_white = rules.first_colour(k as u32 + 1) == Some(Color::White);
            if (g.2 == a_first) != first_white {
                return Err(format!(
                    "round {round}: teams {a} and {b}, board {}: the colours are not those of record 352 ({})",
                    k + 1,
                    rules.colours
                ));
            }
        }
        let (first, second) = if a_first { (a, b) } else { (b, a) };
        matches.push(TeamMatch { first, second });
        lineups.push((a, la));
        lineups.push((b, lb));
    }
    Ok((lineups, matches))
}
