//! Filling the page data from the tie-break engine's model and standings.
//!
//! The engine's [`Tournament`] has no titles; the builders leave [`PlayerInfo::title`] empty
//! and callers that know titles set them afterwards ([`set_titles`]).

use crate::model::*;
use arbiter_core::{Color, PlayerId, ResultCode, Score};
use arbiter_tiebreak::{Player, Standings, Tournament};
use std::collections::HashMap;

fn info(p: &Player) -> PlayerInfo {
    PlayerInfo {
        id: p.id,
        name: p.name.clone(),
        title: None,
        rating: p.rating,
        federation: p.federation.clone(),
    }
}

/// The result symbol of one round from the player's side: `1`, `½`, `0` for games (also those
/// of less than one move), `+` / `-` for forfeits, `PAB` for the pairing-allocated bye,
/// `1 bye` / `½ bye` for requested byes and `–` for a zero-point bye or absence.
pub fn result_label(r: ResultCode) -> &'static str {
    match r {
        ResultCode::Win | ResultCode::WinUnrated => "1",
        ResultCode::Draw | ResultCode::DrawUnrated => "½",
        ResultCode::Loss | ResultCode::LossUnrated => "0",
        ResultCode::ForfeitWin => "+",
        ResultCode::ForfeitLoss => "-",
        ResultCode::PairingBye => "PAB",
        ResultCode::FullBye => "1 bye",
        ResultCode::HalfBye => "½ bye",
        ResultCode::ZeroBye => "\u{2013}",
    }
}

/// The result in words.
pub fn result_description(r: ResultCode) -> &'static str {
    match r {
        ResultCode::Win => "win",
        ResultCode::Draw => "draw",
        ResultCode::Loss => "loss",
        ResultCode::WinUnrated => "win (game of less than one move)",
        ResultCode::DrawUnrated => "draw (game of less than one move)",
        ResultCode::LossUnrated => "loss (game of less than one move)",
        ResultCode::ForfeitWin => "forfeit win",
        ResultCode::ForfeitLoss => "forfeit loss",
        ResultCode::PairingBye => "pairing-allocated bye",
        ResultCode::FullBye => "full-point bye",
        ResultCode::HalfBye => "half-point bye",
        ResultCode::ZeroBye => "not paired",
    }
}

/// A board's result from White's and Black's codes: `1-0`, `½-½`, `0-1`, `+/-`, `-/+`, `-/-`.
pub fn board_result(white: ResultCode, black: ResultCode) -> String {
    let forfeit = |r: ResultCode| matches!(r, ResultCode::ForfeitWin | ResultCode::ForfeitLoss);
    if forfeit(white) || forfeit(black) {
        let side = |r: ResultCode| {
            if r == ResultCode::ForfeitWin {
                "+"
            } else {
                "-"
            }
        };
        return format!("{}/{}", side(white), side(black));
    }
    format!("{}-{}", result_label(white), result_label(black))
}

impl StandingsTable {
    /// The standings as the engine computed them: places (shared ones included), points with
    /// one decimal, tie-breaks with the engine's decimals.
    pub fn from_standings(st: &Standings) -> StandingsTable {
        StandingsTable {
            tiebreaks: st.tiebreaks.iter().map(|t| t.to_string()).collect(),
            rows: st
                .rows
                .iter()
                .map(|r| StandingsRow {
                    rank: r.rank,
                    rank_to: r.rank_to,
                    player: PlayerInfo {
                        id: r.id,
                        name: r.name.clone(),
                        title: None,
                        rating: r.rating,
                        federation: r.federation.clone(),
                    },
                    points: r.points.to_decimal_string(1),
                    values: r
                        .values
                        .iter()
                        .zip(&st.decimals)
                        .map(|(v, d)| v.map(|x| x.to_decimal_string(*d)).unwrap_or_default())
                        .collect(),
                })
                .collect(),
            legend: Vec::new(),
        }
    }
}

fn places(standings: Option<&Standings>) -> HashMap<PlayerId, String> {
    standings
        .map(|st| {
            st.rows
                .iter()
                .map(|r| (r.id, place_label(r.rank, r.rank_to)))
                .collect()
        })
        .unwrap_or_default()
}

impl Crosstable {
    /// Every player's rounds `1..=t.rounds`. With `standings`, rows follow their order and show
    /// the places; players missing from them come last, by pairing number. Without, rows are by
    /// pairing number.
    pub fn from_tournament(t: &Tournament, standings: Option<&Standings>) -> Crosstable {
        let place = places(standings);
        let mut order: Vec<&Player> = t.players.iter().collect();
        order.sort_by_key(|p| p.id);
        if let Some(st) = standings {
            let pos: HashMap<PlayerId, usize> =
                st.rows.iter().enumerate().map(|(i, r)| (r.id, i)).collect();
            order.sort_by_key(|p| (pos.get(&p.id).copied().unwrap_or(usize::MAX), p.id));
        }
        Crosstable {
            rounds: t.rounds,
            rows: order
                .into_iter()
                .map(|p| CrosstableRow {
                    place: place.get(&p.id).cloned(),
                    player: info(p),
                    points: p.score(&t.point_system, t.rounds).to_string(),
                    rounds: (1..=t.rounds).map(|r| p.entry(r)).collect(),
                })
                .collect(),
            by_rank: false,
            notes: Vec::new(),
        }
    }
}

impl Pairings {
    /// The pairings of `round` as recorded in `t`, with the results. Boards are ordered by the
    /// higher score of the two players before the round, then the lower score, then the lower
    /// pairing number (the usual board order of Swiss events); byes follow by pairing number.
    pub fn from_tournament(t: &Tournament, round: u32) -> Pairings {
        let before = |p: &Player| p.score(&t.point_system, round.saturating_sub(1));
        let seat = |p: &Player| Seat {
            player: info(p),
            points: Some(before(p).to_string()),
        };
        let mut games: Vec<(Score, Score, PlayerId, Board)> = Vec::new();
        let mut byes = Vec::new();
        for p in &t.players {
            let e = p.entry(round);
            match (e.opponent.and_then(|o| t.player(o)), e.color) {
                (Some(o), Some(Color::White)) => {
                    let b = Board {
                        number: 0,
                        white: seat(p),
                        black: seat(o),
                        result: Some(board_result(e.result, o.entry(round).result)),
                        note: None,
                    };
                    let (a, c) = (before(p), before(o));
                    games.push((a.max(c), a.min(c), p.id.min(o.id), b));
                }
                (Some(o), None) if p.id < o.id => {
                    // A pairing without colours (e.g. a forfeit recorded without them).
                    let b = Board {
                        number: 0,
                        white: seat(p),
                        black: seat(o),
                        result: Some(board_result(e.result, o.entry(round).result)),
                        note: None,
                    };
                    let (a, c) = (before(p), before(o));
                    games.push((a.max(c), a.min(c), p.id, b));
                }
                (Some(_), _) => {}
                (None, _) => byes.push(ByeLine {
                    seat: seat(p),
                    kind: result_description(e.result).to_string(),
                }),
            }
        }
        games.sort_by(|x, y| y.0.cmp(&x.0).then(y.1.cmp(&x.1)).then(x.2.cmp(&y.2)));
        byes.sort_by_key(|b| b.seat.player.id);
        Pairings {
            round,
            boards: games
                .into_iter()
                .enumerate()
                .map(|(i, (_, _, _, mut b))| {
                    b.number = i as u32 + 1;
                    b
                })
                .collect(),
            byes,
            amendment: None,
        }
    }
}

impl PlayerCard {
    /// Player `id`'s rounds `1..=t.rounds`; the performance counts games played over the board
    /// against rated opponents (1 / ½ / 0). With `standings`, the place and tie-break values too.
    /// `None` for an unknown player.
    pub fn from_tournament(
        t: &Tournament,
        id: PlayerId,
        standings: Option<&Standings>,
    ) -> Option<PlayerCard> {
        let p = t.player(id)?;
        let mut games = Vec::new();
        let mut rated: Vec<(i32, Score)> = Vec::new();
        for r in 1..=t.rounds {
            let e = p.entry(r);
            let opponent = e.opponent.and_then(|o| t.player(o));
            if let (Some(o), Some(s)) = (opponent, arbiter_rating::rated_score(e.result))
                && let Some(rating) = o.rating
            {
                rated.push((rating as i32, s));
            }
            games.push(CardGame {
                round: r,
                opponent: opponent.map(info),
                color: e.color,
                result: result_label(e.result).to_string(),
                description: result_description(e.result).to_string(),
                rating_change: None,
                note: None,
            });
        }
        let performance =
            arbiter_rating::performance(rated.iter().map(|g| g.0), rated.iter().map(|g| g.1).sum())
                .map(|pf| CardPerformance {
                    games: pf.games,
                    points: pf.points.to_string(),
                    average_opponent: pf.ra,
                    performance: pf.rp,
                });
        let row = standings.and_then(|st| st.rows.iter().find(|r| r.id == id).map(|r| (st, r)));
        Some(PlayerCard {
            player: info(p),
            place: row.map(|(_, r)| place_label(r.rank, r.rank_to)),
            points: p.score(&t.point_system, t.rounds).to_string(),
            games,
            performance,
            tiebreaks: row
                .map(|(st, r)| {
                    st.tiebreaks
                        .iter()
                        .zip(&r.values)
                        .zip(&st.decimals)
                        .map(|((tb, v), d)| {
                            (
                                tb.to_string(),
                                v.map(|x| x.to_decimal_string(*d)).unwrap_or_default(),
                            )
                        })
                        .collect()
                })
                .unwrap_or_default(),
            rating_change: None,
        })
    }
}

/// Sets the titles of the players of any page data from a lookup (e.g. a TRF file's `001`
/// lines or the registration records).
pub fn set_titles<'a>(
    players: impl IntoIterator<Item = &'a mut PlayerInfo>,
    title_of: impl Fn(PlayerId) -> Option<String>,
) {
    for p in players {
        p.title = title_of(p.id);
    }
}

impl StandingsTable {
    /// The players of the table, for [`set_titles`].
    pub fn players_mut(&mut self) -> impl Iterator<Item = &mut PlayerInfo> {
        self.rows.iter_mut().map(|r| &mut r.player)
    }
}

impl Crosstable {
    /// The players of the table, for [`set_titles`].
    pub fn players_mut(&mut self) -> impl Iterator<Item = &mut PlayerInfo> {
        self.rows.iter_mut().map(|r| &mut r.player)
    }
}

impl Pairings {
    /// The players of the round, for [`set_titles`].
    pub fn players_mut(&mut self) -> impl Iterator<Item = &mut PlayerInfo> {
        self.boards
            .iter_mut()
            .flat_map(|b| [&mut b.white.player, &mut b.black.player])
            .chain(self.byes.iter_mut().map(|b| &mut b.seat.player))
    }
}

impl PlayerCard {
    /// The player and the opponents, for [`set_titles`].
    pub fn players_mut(&mut self) -> impl Iterator<Item = &mut PlayerInfo> {
        std::iter::once(&mut self.player)
            .chain(self.games.iter_mut().filter_map(|g| g.opponent.as_mut()))
    }
}
