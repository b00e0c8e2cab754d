//! The normalised form both models are reduced to before any tie-break is computed.
//!
//! Each competitor (player or team) has one slot per round with the opponent (index into the
//! field), colour, the kind of round, and its points on two channels: for teams channel 0 is
//! match points and channel 1 game points; for individuals both channels hold the points.
//! All points are tenths.

use crate::model::{PairingKind, TeamRoundKind, TeamScore, TeamTournament, Tournament};
use crate::rules::{Options, RuleSet};
use arbiter_core::{Color, PlayerId, ResultCode, RoundEntry};
use std::collections::BTreeMap;

pub(crate) const MP: usize = 0;
pub(crate) const GP: usize = 1;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Played,
    ForfeitWin,
    ForfeitLoss,
    PairingBye,
    FullBye,
    HalfBye,
    ZeroBye,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Outcome {
    Win,
    Draw,
    Loss,
}

#[derive(Debug, Clone)]
pub(crate) struct Slot {
    pub opp: Option<usize>,
    pub color: Option<Color>,
    pub kind: Kind,
    /// Points on each channel, tenths.
    pub pts: [i64; 2],
    /// Rating points of a played game (1 / ½ / 0 in tenths), for TPR and PTP.
    pub rating_pts: i64,
    pub outcome: Outcome,
    /// Team events: game points per board (tenths), board 1 first; played matches only.
    pub boards: Vec<i64>,
}

impl Slot {
    /// A voluntary unplayed round (C.07 16.1): requested bye, absence or forfeit loss.
    pub fn is_vur(&self) -> bool {
        matches!(self.kind, Kind::HalfBye | Kind::ZeroBye | Kind::ForfeitLoss)
    }
    pub fn is_forfeit(&self) -> bool {
        matches!(self.kind, Kind::ForfeitWin | Kind::ForfeitLoss) && self.opp.is_some()
    }
    pub fn is_played(&self) -> bool {
        self.kind == Kind::Played && self.opp.is_some()
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Comp {
    pub id: PlayerId,
    pub name: String,
    pub rating: Option<u32>,
    pub federation: Option<String>,
    pub slots: Vec<Slot>,
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct Sys {
    pub win: i64,
    pub draw: i64,
}

#[derive(Debug, Clone)]
pub(crate) struct Field {
    pub comps: Vec<Comp>,
    pub rounds: usize,
    pub rule_set: RuleSet,
    pub predetermined: bool,
    pub is_team: bool,
    pub boards: usize,
    /// Channel of the primary score.
    pub primary: usize,
    pub sys: [Sys; 2],
    pub options: Options,
}

fn outcome_of(r: ResultCode) -> Outcome {
    match r {
        ResultCode::Win
        | ResultCode::WinUnrated
        | ResultCode::ForfeitWin
        | ResultCode::FullBye
        | ResultCode::PairingBye => Outcome::Win,
        ResultCode::Draw | ResultCode::DrawUnrated | ResultCode::HalfBye => Outcome::Draw,
        _ => Outcome::Loss,
    }
}

fn kind_of(e: &RoundEntry) -> Kind {
    match (e.result, e.opponent.is_some()) {
        (r, true) if r.is_played() => Kind::Played,
        (ResultCode::ForfeitWin, true) => Kind::ForfeitWin,
        (ResultCode::ForfeitLoss, true) => Kind::ForfeitLoss,
        (
            ResultCode::Win | ResultCode::WinUnrated | ResultCode::ForfeitWin | ResultCode::FullBye,
            _,
        ) => Kind::FullBye,
        (ResultCode::Draw | ResultCode::DrawUnrated | ResultCode::HalfBye, _) => Kind::HalfBye,
        (ResultCode::PairingBye, _) => Kind::PairingBye,
        _ => Kind::ZeroBye,
    }
}

impl Field {
    pub fn from_individual(t: &Tournament, options: &Options) -> Field {
        let index: BTreeMap<PlayerId, usize> = t
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id, i))
            .collect();
        let ps = t.point_system;
        let rounds = t.rounds as usize;
        let comps = t
            .players
            .iter()
            .map(|p| {
                let slots = (1..=t.rounds)
                    .map(|r| {
                        let e = p.entry(r);
                        let kind = kind_of(&e);
                        let opp = match kind {
                            Kind::Played | Kind::ForfeitWin | Kind::ForfeitLoss => {
                                e.opponent.and_then(|o| index.get(&o).copied())
                            }
                            _ => None,
                        };
                        // An opponent missing from the field leaves a bye-like round.
                        let kind = if opp.is_none()
                            && matches!(kind, Kind::Played | Kind::ForfeitWin | Kind::ForfeitLoss)
                        {
                            match outcome_of(e.result) {
                                Outcome::Win => Kind::FullBye,
                                Outcome::Draw => Kind::HalfBye,
                                Outcome::Loss => Kind::ZeroBye,
                            }
                        } else {
                            kind
                        };
                        let pts = ps.points(e.result).tenths() as i64;
                        let rating_pts = match e.result {
                            ResultCode::Win | ResultCode::WinUnrated => 10,
                            ResultCode::Draw | ResultCode::DrawUnrated => 5,
                            _ => 0,
                        };
                        Slot {
                            opp,
                            color: if opp.is_some() { e.color } else { None },
                            kind,
                            pts: [pts, pts],
                            rating_pts,
                            outcome: outcome_of(e.result),
                            boards: Vec::new(),
                        }
                    })
                    .collect();
                Comp {
                    id: p.id,
                    name: p.name.clone(),
                    rating: p.rating,
                    federation: p.federation.clone(),
                    slots,
                }
            })
            .collect();
        let sys = Sys {
            win: ps.win.tenths() as i64,
            draw: ps.draw.tenths() as i64,
        };
        Field {
            comps,
            rounds,
            rule_set: options.rule_set_for(t.start_date),
            predetermined: t.pairing == PairingKind::PreDetermined,
            is_team: false,
            boards: 1,
            primary: MP,
            sys: [sys, sys],
            options: *options,
        }
    }

    pub fn from_team(t: &TeamTournament, options: &Options) -> Field {
        let index: BTreeMap<PlayerId, usize> =
            t.teams.iter().enumerate().map(|(i, p)| (p.id, i)).collect();
        let gp = t.game_points;
        let boards = t.boards as i64;
        let board_points = |r: &Option<ResultCode>| -> i64 {
            match r {
                Some(code) => gp.points(*code).tenths() as i64,
                None => gp.forfeit_loss.tenths() as i64,
            }
        };
        let mp = t.match_points;
        let (mpw, mpd, mpl) = (
            mp.win.tenths() as i64,
            mp.draw.tenths() as i64,
            mp.loss.tenths() as i64,
        );
        let gpw = gp.win.tenths() as i64;
        let gpd = gp.draw.tenths() as i64;
        let pab = t
            .pab
            .map(|b| {
                (
                    b.match_points.tenths() as i64,
                    b.game_points.tenths() as i64,
                )
            })
            .unwrap_or((mpw, gpd * boards));
        let comps = t
            .teams
            .iter()
            .map(|team| {
                let slots = (1..=t.rounds)
                    .map(|r| {
                        let e = t.entry(team, r);
                        let opp_idx = e.opponent.and_then(|o| index.get(&o).copied());
                        let (kind, opp) = match (e.kind, opp_idx) {
                            (TeamRoundKind::Played, Some(o)) => (Kind::Played, Some(o)),
                            (TeamRoundKind::ForfeitWin, Some(o)) => (Kind::ForfeitWin, Some(o)),
                            (TeamRoundKind::ForfeitLoss, Some(o)) => (Kind::ForfeitLoss, Some(o)),
                            (
                                TeamRoundKind::Played
                                | TeamRoundKind::ForfeitLoss
                                | TeamRoundKind::ZeroBye,
                                _,
                            ) => (Kind::ZeroBye, None),
                            (TeamRoundKind::ForfeitWin | TeamRoundKind::FullBye, _) => {
                                (Kind::FullBye, None)
                            }
                            (TeamRoundKind::PairingBye, _) => (Kind::PairingBye, None),
                            (TeamRoundKind::HalfBye, _) => (Kind::HalfBye, None),
                        };
                        let (mpts, gpts, outcome, board_pts) = match kind {
                            Kind::Played => {
                                let own: Vec<i64> = e.boards.iter().map(board_points).collect();
                                let own_sum: i64 = own.iter().sum();
                                let opp_sum: i64 = match opp.map(|o| t.entry(&t.teams[o], r)) {
                                    Some(oe)
                                        if oe.kind == TeamRoundKind::Played
                                            && !oe.boards.is_empty() =>
                                    {
                                        oe.boards.iter().map(board_points).sum()
                                    }
                                    _ => e
                                        .boards
                                        .iter()
                                        .map(|b| {
                                            board_points(&Some(
                                                b.and_then(|c| c.mirrored())
                                                    .unwrap_or(ResultCode::ForfeitWin),
                                            ))
                                        })
                                        .sum(),
                                };
                                let (m, o) = if own_sum > opp_sum {
                                    (mpw, Outcome::Win)
                                } else if own_sum == opp_sum {
                                    (mpd, Outcome::Draw)
                                } else {
                                    (mpl, Outcome::Loss)
                                };
                                (m, own_sum, o, own)
                            }
                            Kind::ForfeitWin | Kind::FullBye => {
                                let per = if kind == Kind::ForfeitWin {
                                    gp.forfeit_win
                                } else {
                                    gp.full_bye
                                };
                                (mpw, per.tenths() as i64 * boards, Outcome::Win, Vec::new())
                            }
                            Kind::PairingBye => (
                                pab.0,
                                pab.1,
                                if pab.0 >= mpw {
                                    Outcome::Win
                                } else {
                                    Outcome::Draw
                                },
                                Vec::new(),
                            ),
                            Kind::HalfBye => (
                                mpd,
                                gp.half_bye.tenths() as i64 * boards,
                                Outcome::Draw,
                                Vec::new(),
                            ),
                            Kind::ForfeitLoss | Kind::ZeroBye => {
                                (mpl, 0, Outcome::Loss, Vec::new())
                            }
                        };
                        Slot {
                            opp,
                            color: if opp.is_some() { e.color } else { None },
                            kind,
                            pts: [mpts, gpts],
                            rating_pts: 0,
                            outcome,
                            boards: board_pts,
                        }
                    })
                    .collect();
                Comp {
                    id: team.id,
                    name: team.name.clone(),
                    rating: None,
                    federation: None,
                    slots,
                }
            })
            .collect();
        Field {
            comps,
            rounds: t.rounds as usize,
            rule_set: options.rule_set_for(t.start_date),
            predetermined: t.pairing == PairingKind::PreDetermined,
            is_team: true,
            boards: t.boards as usize,
            primary: match t.primary {
                TeamScore::MatchPoints => MP,
                TeamScore::GamePoints => GP,
            },
            sys: [
                Sys {
                    win: mpw,
                    draw: mpd,
                },
                Sys {
                    win: gpw * boards,
                    draw: gpd * boards,
                },
            ],
            options: *options,
        }
    }

    /// Total points of competitor `c` on channel `ch`.
    pub fn score(&self, c: usize, ch: usize) -> i64 {
        self.comps[c].slots.iter().map(|s| s.pts[ch]).sum()
    }

    /// The channel a tie-break refers to.
    pub fn channel(&self, r: Option<crate::descriptor::ScoreRef>) -> usize {
        match r {
            None => self.primary,
            Some(crate::descriptor::ScoreRef::Match) => MP,
            Some(crate::descriptor::ScoreRef::Game) => GP,
        }
    }

    /// The other team score (MPvGP).
    pub fn secondary(&self) -> usize {
        1 - self.primary
    }

    /// Is this slot a game for the own-result tie-breaks (Type B, Art. 7)? In events with
    /// pre-determined pairings forfeits are results (Art. 15); from 2026 a forfeit loss stays
    /// unplayed.
    pub fn played_for_type_b(&self, s: &Slot) -> bool {
        s.is_played()
            || (self.predetermined
                && s.is_forfeit()
                && match self.rule_set {
                    RuleSet::Legacy2009 => false,
                    RuleSet::C07_2024 => true,
                    RuleSet::C07_2026 => s.kind == Kind::ForfeitWin,
                })
    }

    /// Is this slot a game for the rating-based tie-breaks (Art. 10)? Forfeits count only in
    /// pre-determined events under the 2024 rules (Art. 15; 2026 keeps them unplayed).
    pub fn played_for_ratings(&self, s: &Slot) -> bool {
        s.is_played()
            || (self.predetermined && s.is_forfeit() && self.rule_set == RuleSet::C07_2024)
    }

    /// Replaces every paired result of the final round (forfeits included) by a played draw:
    /// the projection behind Fore Buchholz (C.07 8.3).
    pub fn fore_projection(&self) -> Field {
        let mut f = self.clone();
        if f.rounds == 0 {
            return f;
        }
        let last = f.rounds - 1;
        let draws = [self.sys[0].draw, self.sys[1].draw];
        for c in &mut f.comps {
            let s = &mut c.slots[last];
            if s.opp.is_some() {
                s.kind = Kind::Played;
                s.pts = draws;
                s.rating_pts = 5;
                s.outcome = Outcome::Draw;
            }
        }
        f
    }
}
