//! The proposed prize list: exact and paid amounts per player.

use crate::amount::Amount;

/// Which prize list a prize belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Source {
    /// The place prizes of the general standings.
    Places,
    /// The category at this index of [`crate::PrizeFund::categories`].
    Category(usize),
}

/// One announced prize.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Prize {
    pub source: Source,
    /// Counted from 1.
    pub place: usize,
    pub amount: i64,
}

/// What a player receives from one prize list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Portion {
    pub source: Source,
    /// The place of the list the player holds after tie-breaks; `None` for a tied player below
    /// the prize places who shares under [`crate::SharingScope::AllTied`].
    pub place: Option<usize>,
    pub exact: Amount,
    /// `exact` rounded to a whole minor unit as the crate documentation describes.
    pub paid: i64,
}

/// What one player receives in all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Award<P> {
    pub player: P,
    /// The sum of the portions' exact amounts.
    pub exact: Amount,
    /// The sum of the portions' paid amounts.
    pub paid: i64,
    /// Empty for a player who wins nothing.
    pub portions: Vec<Portion>,
}

/// The result of [`crate::distribute`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Distribution<P> {
    /// One award per player, in standings order, including players who win nothing.
    pub awards: Vec<Award<P>>,
    /// Prizes no player could take (fewer players than places, or no eligible player left).
    pub unawarded: Vec<Prize>,
}

impl<P: PartialEq> Distribution<P> {
    /// The award of `player`, if they are in the standings.
    pub fn award(&self, player: &P) -> Option<&Award<P>> {
        self.awards.iter().find(|a| a.player == *player)
    }

    /// Everything paid out; with [`Distribution::unawarded_total`] it makes the fund's total.
    pub fn paid_total(&self) -> i128 {
        self.awards.iter().map(|a| i128::from(a.paid)).sum()
    }

    /// The amounts of the prizes no player took.
    pub fn unawarded_total(&self) -> i128 {
        self.unawarded.iter().map(|p| i128::from(p.amount)).sum()
    }
}
