//! Why an input cannot be turned into a prize list.

use arbiter_core::Score;
use std::fmt;

/// Bad input. Players are shown with their `Display` form; `list` names the prize list
/// ("place prizes" or a category's name) and places and groups count from 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PrizeError {
    /// Neither place prizes nor category prizes were announced.
    NoPrizes,
    /// The standings hold no player.
    NoPlayers,
    /// A prize amount below zero.
    NegativePrize {
        list: String,
        place: usize,
        amount: i64,
    },
    /// A place pays more than the place above it in the same list.
    PrizesIncrease { list: String, place: usize },
    /// A category with no prize amount.
    EmptyCategory { category: String },
    /// The whole fund does not fit in `i64` minor units.
    FundTooLarge,
    /// A score group, or a group of a category's own ranking, with no player.
    EmptyGroup { list: String, group: usize },
    /// A score group has more points than the group before it.
    GroupsOutOfOrder { group: usize },
    /// A player appears twice in the standings.
    DuplicatePlayer { player: String },
    /// A category or ranking names a player who is not in the standings.
    UnknownPlayer { list: String, player: String },
    /// A category or ranking names the same player twice.
    DuplicateEntrant { list: String, player: String },
    /// A rating gain asked for with no games.
    NoGames,
    /// Points outside `0..=games`.
    ScoreOutOfRange { points: Score, games: u32 },
    /// A rating band whose lower bound is above its upper bound.
    InvalidBand { low: u16, high: u16 },
}

impl fmt::Display for PrizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PrizeError::*;
        match self {
            NoPrizes => write!(
                f,
                "no prizes: the prize fund lists no place or category prize"
            ),
            NoPlayers => write!(f, "no players: the standings are empty"),
            NegativePrize {
                list,
                place,
                amount,
            } => write!(f, "{list}: prize for place {place} is negative ({amount})"),
            PrizesIncrease { list, place } => write!(
                f,
                "{list}: place {place} pays more than place {}",
                place - 1
            ),
            EmptyCategory { category } => write!(f, "category {category} has no prize"),
            FundTooLarge => write!(f, "the prize fund exceeds the largest representable amount"),
            EmptyGroup { list, group } => write!(f, "{list}: group {group} has no player"),
            GroupsOutOfOrder { group } => write!(
                f,
                "score group {group} has more points than the group before it"
            ),
            DuplicatePlayer { player } => {
                write!(f, "player {player} is listed twice in the standings")
            }
            UnknownPlayer { list, player } => {
                write!(f, "{list}: player {player} is not in the standings")
            }
            DuplicateEntrant { list, player } => {
                write!(f, "{list}: player {player} is listed twice")
            }
            NoGames => write!(f, "rating gain: the player has no games"),
            ScoreOutOfRange { points, games } => {
                write!(f, "rating gain: {points} points is outside 0..={games}")
            }
            InvalidBand { low, high } => {
                write!(f, "rating band {low}-{high}: lower bound above upper bound")
            }
        }
    }
}

impl std::error::Error for PrizeError {}
