//! What the distribution starts from: the final standings, the announced fund and the policy.

use arbiter_core::Score;

/// Players the standings could not separate by points, listed best first by the tie-breaks.
///
/// The standings are a list of groups, best first; their places follow from the order (a group
/// of 3 after a group of 2 occupies places 3 to 5). After a play-off, list the players of one
/// score as several groups in play-off order: each group then shares only its own places (the
/// two losing semi-finalists, as one group, share 3rd and 4th).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScoreGroup<P> {
    pub points: Score,
    pub players: Vec<P>,
}

impl<P> ScoreGroup<P> {
    pub fn new(points: Score, players: Vec<P>) -> ScoreGroup<P> {
        ScoreGroup { points, players }
    }
}

/// How tied players are paid; the regulations must announce it before the first round, so
/// there is deliberately no default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    /// Tied players add up the prizes of the places they occupy and share the sum equally.
    Equal,
    /// Each player receives the prize of the place the tie-breaks give them.
    TieBreak,
    /// Hort system: half of each place prize goes by tie-break order; the other halves are
    /// pooled and shared equally.
    Hort,
}

/// Who shares the pooled place prizes of a score group (methods [`Method::Equal`] and
/// [`Method::Hort`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SharingScope {
    /// Only the tied players whose tie-break place carries a prize; the Arbiters' Manual
    /// advises announcing this so that the last prize is not split among a large group.
    #[default]
    PrizePlaces,
    /// Every player of the group, including those ranked below the last prize place.
    AllTied,
}

/// The announced prize policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Policy {
    pub method: Method,
    /// Applies to the place prizes; category prizes are shared only by the players holding
    /// one of the category's places.
    pub scope: SharingScope,
    /// A player eligible for several prizes receives only the highest; see
    /// [`crate::distribute`] for how the others pass on.
    pub one_prize_per_player: bool,
}

impl Policy {
    /// `method` with sharing among the prize places and one prize per player.
    pub fn new(method: Method) -> Policy {
        Policy {
            method,
            scope: SharingScope::PrizePlaces,
            one_prize_per_player: true,
        }
    }
}

/// Who may win a category prize, and in which order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entrants<P> {
    /// The eligible players (best women, juniors, a rating band, a club...), ranked as in the
    /// general standings: points, then tie-breaks; players tied on points share.
    Standings(Vec<P>),
    /// A ranking of its own, best first, with ties as groups (e.g. biggest rating gain or
    /// performance, built with [`crate::rank_by_key`]).
    Ranked(Vec<Vec<P>>),
}

/// A category prize list: the amounts of its places, best first, and its entrants.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Category<P> {
    pub name: String,
    pub prizes: Vec<i64>,
    pub entrants: Entrants<P>,
}

/// The announced prize fund, in minor units of the currency.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrizeFund<P> {
    /// The prize of place 1, 2, ... of the general standings.
    pub places: Vec<i64>,
    pub categories: Vec<Category<P>>,
}

impl<P> PrizeFund<P> {
    /// Place prizes only.
    pub fn places(places: Vec<i64>) -> PrizeFund<P> {
        PrizeFund {
            places,
            categories: Vec::new(),
        }
    }

    /// Adds a category prize list.
    pub fn with_category(mut self, category: Category<P>) -> PrizeFund<P> {
        self.categories.push(category);
        self
    }

    /// Every announced amount added up (the figure published with the prize fund).
    pub fn total(&self) -> i128 {
        let categories = self.categories.iter().flat_map(|c| &c.prizes);
        self.places
            .iter()
            .chain(categories)
            .map(|&a| i128::from(a))
            .sum()
    }
}
