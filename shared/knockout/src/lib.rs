//! Knockout events (FIDE Arbiters' Manual 2023 ch. IV §6.1 matches and §6.2
//! "Eliminatorias", the Spanish Arbiters' Manual §5.2).
//!
//! What the seeds fix: a knockout match is basically two games; because every match needs a
//! winner, level matches play tie-breaks on an extra day: two rapid games, then two or four
//! blitz games, then a sudden-death game in which White must win and a draw is enough for
//! Black. A match is over once it has a winner; its remaining games are not played (Arbiters' Manual 2023 ch. IV
//! §6.1).
//!
//! What they do not fix, and the event's regulations must ([`Rules`], every field explicit,
//! no default): the seeding, the colours of the classical games, of the tie-break games and of
//! the sudden-death game, and the tie-break stages themselves.
//!
//! Everything here is pure: seeds, not players (seed 1 is the top seed); results as half
//! points, seen from the higher seed ("high") and the lower seed ("low") of a match.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// How the players become seeds 1..n.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Seeding {
    /// By rating, highest first; equal ratings by pairing number.
    Rating,
    /// In pairing-number order (the order of registration, or of a drawing of lots).
    PairingNumber,
}

/// A tie-break stage's rate of play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum StageKind {
    Rapid,
    Blitz,
}

/// One tie-break stage: `games` games, scored on their own (a fresh mini-match).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stage {
    pub kind: StageKind,
    pub games: u32,
    /// As the regulations write it, e.g. "15'+10\""; may be empty.
    pub time_control: String,
}

/// Who has White in game 1 of a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum FirstColour {
    HigherSeedWhite,
    HigherSeedBlack,
    /// Drawn for each match from the published lot seed ([`lot`]).
    Lot,
}

/// The colours of the first game of each tie-break stage (games within a stage alternate).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TieBreakColours {
    /// The alternation of the whole match goes on: game k of the match has game 1's colours
    /// when k is odd.
    Continue,
    /// Each stage starts with game 1's colours.
    Restart,
    /// Each stage's first game is drawn anew from the lot seed.
    Lot,
}

/// Who has White in the sudden-death (Armageddon) game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ArmageddonColour {
    /// Drawn for each match from the lot seed.
    Lot,
    HigherSeedWhite,
    HigherSeedBlack,
    /// The next colour of the match's alternation.
    Continue,
}

/// A knockout's regulations, fixed at creation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    pub seeding: Seeding,
    /// Classical games of each match (the seeds: basically two).
    pub classical_games: u32,
    /// Tie-break stages in order (the seeds: two rapid games, then two or four blitz games).
    pub tie_breaks: Vec<Stage>,
    pub first_colour: FirstColour,
    pub tie_break_colours: TieBreakColours,
    pub armageddon_colour: ArmageddonColour,
    /// The sudden-death game's time control (the seeds: White 5', Black 4', or similar).
    pub armageddon_time_control: String,
    /// The published seed the lots are drawn from; required when any colour is drawn by lot.
    pub lot_seed: String,
}

/// At most this many games in one stage.
pub const MAX_STAGE_GAMES: u32 = 8;
/// At most this many tie-break stages before the sudden-death game.
pub const MAX_STAGES: usize = 4;

impl Rules {
    /// The rules are complete and sane; the error names the field (as `knockout.<field>`).
    pub fn check(&self) -> Result<(), (String, String)> {
        let bad = |f: &str, why: String| Err((format!("knockout.{f}"), why));
        if self.classical_games == 0 || self.classical_games > MAX_STAGE_GAMES {
            return bad(
                "classical_games",
                format!(
                    "{} is not a number of classical games in 1..={MAX_STAGE_GAMES} (a knockout match is basically two games: Arbiters' Manual 2023 ch. IV §6.2)",
                    self.classical_games
                ),
            );
        }
        if self.tie_breaks.len() > MAX_STAGES {
            return bad(
                "tie_breaks",
                format!(
                    "{} tie-break stages: at most {MAX_STAGES} before the sudden-death game",
                    self.tie_breaks.len()
                ),
            );
        }
        for (i, s) in self.tie_breaks.iter().enumerate() {
            if s.games == 0 || s.games > MAX_STAGE_GAMES {
                return bad(
                    &format!("tie_breaks[{i}].games"),
                    format!(
                        "{} is not a number of games in 1..={MAX_STAGE_GAMES}",
                        s.games
                    ),
                );
            }
        }
        let lots = self.first_colour == FirstColour::Lot
            || (self.tie_break_colours == TieBreakColours::Lot && !self.tie_breaks.is_empty())
            || self.armageddon_colour == ArmageddonColour::Lot;
        if lots && self.lot_seed.trim().is_empty() {
            return bad(
                "lot_seed",
                "colours are drawn by lot: the published seed they are drawn from is required"
                    .to_string(),
            );
        }
        Ok(())
    }

    /// The most games a match can need: every stage played out, then the sudden-death game.
    pub fn max_games(&self) -> u32 {
        self.classical_games + self.tie_breaks.iter().map(|s| s.games).sum::<u32>() + 1
    }
}

/// The rate of one game of a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum GameKind {
    Classical,
    Rapid,
    Blitz,
    Armageddon,
}

impl GameKind {
    pub fn as_str(self) -> &'static str {
        match self {
            GameKind::Classical => "classical",
            GameKind::Rapid => "rapid",
            GameKind::Blitz => "blitz",
            GameKind::Armageddon => "Armageddon",
        }
    }
}

/// One game of a match, as the rules place it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Game {
    /// From 1, over the whole match.
    pub number: u32,
    pub kind: GameKind,
    /// 0 = the classical games, 1.. = the tie-break stages, `tie_breaks.len() + 1` = the
    /// sudden-death game.
    pub stage: u32,
    /// From 1, within its stage.
    pub in_stage: u32,
    /// The higher seed has White.
    pub high_white: bool,
}

/// A match by its place in the bracket: knockout round (from 1) and match (from 1, in bracket
/// order). The lots of a match are drawn for this place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct MatchKey {
    pub round: u32,
    pub index: u32,
}

/// One game's score in half points, seen from the match: (higher seed, lower seed).
pub type HalfPoints = (u32, u32);

/// How a match ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    /// The higher seed advances.
    pub high_wins: bool,
    /// The stage that decided it (as [`Game::stage`]); `None` = a bye, no game.
    pub stage: Option<u32>,
    pub kind: Option<GameKind>,
    /// Games played.
    pub games: u32,
}

/// Where a match stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// The next game to play.
    Next(Game),
    Decided(Decision),
}

/// Domain separation of the knockout's lots.
const DOMAIN: &[u8] = b"arbiter knockout lots v1\0";

/// The lot of `what` (0 = game 1, s = tie-break stage s, u32::MAX = the sudden-death game) for
/// the match at `key`: true = the higher seed has White. The first byte of SHA-256(domain,
/// seed, round, match, what), lowest bit 0 = White for the higher seed. Anyone holding the
/// published seed re-derives every lot.
pub fn lot(seed: &str, key: MatchKey, what: u32) -> bool {
    let mut h = Sha256::new();
    h.update(DOMAIN);
    h.update((seed.len() as u64).to_be_bytes());
    h.update(seed.as_bytes());
    h.update(key.round.to_be_bytes());
    h.update(key.index.to_be_bytes());
    h.update(what.to_be_bytes());
    h.finalize()[0] & 1 == 0
}

const ARMAGEDDON_LOT: u32 = u32::MAX;

impl Rules {
    fn first_high_white(&self, key: MatchKey) -> bool {
        match self.first_colour {
            FirstColour::HigherSeedWhite => true,
            FirstColour::HigherSeedBlack => false,
            FirstColour::Lot => lot(&self.lot_seed, key, 0),
        }
    }

    /// Game `number` (from 1) of the match at `key`: its stage and colours; `None` past the
    /// sudden-death game.
    pub fn game(&self, key: MatchKey, number: u32) -> Option<Game> {
        if number == 0 || number > self.max_games() {
            return None;
        }
        let first = self.first_high_white(key);
        // Game 1's colours on odd games of the match, the other colours on even ones.
        let alternating = |n: u32| first ^ n.is_multiple_of(2);
        if number <= self.classical_games {
            return Some(Game {
                number,
                kind: GameKind::Classical,
                stage: 0,
                in_stage: number,
                high_white: alternating(number),
            });
        }
        let mut before = self.classical_games;
        for (i, s) in self.tie_breaks.iter().enumerate() {
            if number <= before + s.games {
                let stage = i as u32 + 1;
                let in_stage = number - before;
                let start = match self.tie_break_colours {
                    TieBreakColours::Continue => alternating(before + 1),
                    TieBreakColours::Restart => first,
                    TieBreakColours::Lot => lot(&self.lot_seed, key, stage),
                };
                return Some(Game {
                    number,
                    kind: match s.kind {
                        StageKind::Rapid => GameKind::Rapid,
                        StageKind::Blitz => GameKind::Blitz,
                    },
                    stage,
                    in_stage,
                    high_white: start ^ in_stage.is_multiple_of(2),
                });
            }
            before += s.games;
        }
        Some(Game {
            number,
            kind: GameKind::Armageddon,
            stage: self.tie_breaks.len() as u32 + 1,
            in_stage: 1,
            high_white: match self.armageddon_colour {
                ArmageddonColour::Lot => lot(&self.lot_seed, key, ARMAGEDDON_LOT),
                ArmageddonColour::HigherSeedWhite => true,
                ArmageddonColour::HigherSeedBlack => false,
                ArmageddonColour::Continue => alternating(number),
            },
        })
    }

    /// The match at `key` after `results` (its games in order, half points high/low): the
    /// next game, or the decision. Each stage is scored on its own; a stage is decided once
    /// the leader's margin is more than its remaining games can make up (the remaining games
    /// are not played, Arbiters' Manual 2023 ch. IV §6.1); a stage played out level sends the match to the
    /// next stage. In the sudden-death game White must win; a draw, or anything but a win for
    /// White, sends Black through (Arbiters' Manual 2023 ch. IV §6.2). Results past the decision are an error
    /// (they name the game).
    pub fn status(&self, key: MatchKey, results: &[HalfPoints]) -> Result<Status, String> {
        let mut played = 0u32;
        let mut stage_start = 0u32;
        let stages: Vec<u32> = std::iter::once(self.classical_games)
            .chain(self.tie_breaks.iter().map(|s| s.games))
            .collect();
        let decided = |d: Decision| -> Result<Status, String> {
            if results.len() as u32 > d.games {
                return Err(format!(
                    "game {} of a match decided after game {}",
                    d.games + 1,
                    d.games
                ));
            }
            Ok(Status::Decided(d))
        };
        for (stage, &games) in stages.iter().enumerate() {
            let (mut high, mut low) = (0u32, 0u32);
            for in_stage in 1..=games {
                let Some(&(h, l)) = results.get(played as usize) else {
                    return Ok(Status::Next(self.game(key, played + 1).expect("in range")));
                };
                if h + l > 2 {
                    return Err(format!(
                        "game {}: {h}+{l} half points is more than one game gives",
                        played + 1
                    ));
                }
                high += h;
                low += l;
                played += 1;
                let remaining = 2 * (games - in_stage);
                if high > low + remaining || low > high + remaining {
                    return decided(Decision {
                        high_wins: high > low,
                        stage: Some(stage as u32),
                        kind: self.game(key, stage_start + 1).map(|g| g.kind),
                        games: played,
                    });
                }
            }
            stage_start += games;
        }
        let Some(&(h, l)) = results.get(played as usize) else {
            return Ok(Status::Next(self.game(key, played + 1).expect("in range")));
        };
        let game = self.game(key, played + 1).expect("the sudden-death game");
        let (white, black) = if game.high_white { (h, l) } else { (l, h) };
        let white_wins = white == 2 && black == 0;
        decided(Decision {
            high_wins: white_wins == game.high_white,
            stage: Some(game.stage),
            kind: Some(GameKind::Armageddon),
            games: played + 1,
        })
    }
}

/// The field's bracket size: the smallest power of two holding `players`.
pub fn bracket_size(players: u32) -> u32 {
    players.max(2).next_power_of_two()
}

/// Knockout rounds of a field of `players`: log2 of its bracket size.
pub fn rounds(players: u32) -> u32 {
    bracket_size(players).trailing_zeros()
}

/// The seeds in bracket order for a bracket of `size` (a power of two): 1, size, then each
/// half built the same way, so that seeds 1 and 2 can meet only in the final, 1–4 only in the
/// semi-finals, and in every round the sum of two opponents' seeds is the round's size + 1
/// when the favourites win (1-16, 8-9, 4-13, 5-12, 2-15, 7-10, 3-14, 6-11 for 16).
pub fn bracket_order(size: u32) -> Vec<u32> {
    let mut order = vec![1u32];
    let mut n = 1;
    while n < size {
        n *= 2;
        order = order.iter().flat_map(|&s| [s, n + 1 - s]).collect();
    }
    order
}

/// Round 1's matches for a field of `players` seeds: (higher seed, lower seed), `None` = a
/// bye (the seeds above the field are empty places, so the byes go to the top seeds).
pub fn first_round(players: u32) -> Vec<(u32, Option<u32>)> {
    let order = bracket_order(bracket_size(players));
    order
        .chunks(2)
        .map(|p| {
            let (a, b) = (p[0].min(p[1]), p[0].max(p[1]));
            (a, (b <= players).then_some(b))
        })
        .collect()
}

/// The places a player shares who lost in knockout round `lost_in` of `rounds` (from 1):
/// the final's loser is 2nd, the semi-finals' losers share 3rd–4th, and so on. `None` = the
/// winner, 1st.
pub fn places(lost_in: Option<u32>, rounds: u32) -> (u32, u32) {
    match lost_in {
        None => (1, 1),
        Some(r) => {
            let k = rounds.saturating_sub(r);
            ((1 << k) + 1, 1 << (k + 1))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> Rules {
        Rules {
            seeding: Seeding::Rating,
            classical_games: 2,
            tie_breaks: vec![
                Stage {
                    kind: StageKind::Rapid,
                    games: 2,
                    time_control: "25'+10\"".into(),
                },
                Stage {
                    kind: StageKind::Blitz,
                    games: 2,
                    time_control: "5'+3\"".into(),
                },
            ],
            first_colour: FirstColour::HigherSeedWhite,
            tie_break_colours: TieBreakColours::Continue,
            armageddon_colour: ArmageddonColour::HigherSeedBlack,
            armageddon_time_control: "5' v 4'".into(),
            lot_seed: String::new(),
        }
    }

    const K: MatchKey = MatchKey { round: 1, index: 1 };
    const WIN: HalfPoints = (2, 0);
    const LOSS: HalfPoints = (0, 2);
    const DRAW: HalfPoints = (1, 1);

    #[test]
    fn sixteen_keeps_the_top_seeds_apart() {
        let order = bracket_order(16);
        assert_eq!(
            order,
            [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]
        );
        // Every first-round match sums to 17; if the favourites win, every later round's
        // matches sum to its size + 1.
        let mut alive: Vec<u32> = order.clone();
        let mut size = 16;
        while alive.len() > 1 {
            for p in alive.chunks(2) {
                assert_eq!(p[0] + p[1], size + 1, "{p:?} in a round of {size}");
            }
            alive = alive.chunks(2).map(|p| p[0].min(p[1])).collect();
            size /= 2;
        }
        // 1 and 2 are in different halves, 1-4 in different quarters.
        let half = |s: u32| order.iter().position(|&x| x == s).unwrap() / 8;
        let quarter = |s: u32| order.iter().position(|&x| x == s).unwrap() / 4;
        assert_ne!(half(1), half(2));
        let mut q: Vec<usize> = (1..=4).map(quarter).collect();
        q.sort();
        assert_eq!(q, [0, 1, 2, 3]);
    }

    #[test]
    fn byes_go_to_the_top_seeds() {
        // 12 players in a bracket of 16: seeds 1-4 meet the empty places 16-13.
        let r = first_round(12);
        let byes: Vec<u32> = r.iter().filter(|m| m.1.is_none()).map(|m| m.0).collect();
        assert_eq!(byes, [1, 4, 2, 3]);
        assert_eq!(r[1], (8, Some(9)));
        assert_eq!(rounds(12), 4);
        assert_eq!(rounds(16), 4);
        assert_eq!(rounds(2), 1);
    }

    #[test]
    fn places_by_the_round_lost() {
        assert_eq!(places(None, 4), (1, 1));
        assert_eq!(places(Some(4), 4), (2, 2));
        assert_eq!(places(Some(3), 4), (3, 4));
        assert_eq!(places(Some(2), 4), (5, 8));
        assert_eq!(places(Some(1), 4), (9, 16));
    }

    #[test]
    fn classical_win_decides_after_both_games() {
        let r = rules();
        // 1-0 after game 1 is not decided: game 2 can level it.
        assert!(matches!(
            r.status(K, &[WIN]).unwrap(),
            Status::Next(Game { number: 2, .. })
        ));
        let d = r.status(K, &[WIN, DRAW]).unwrap();
        assert_eq!(
            d,
            Status::Decided(Decision {
                high_wins: true,
                stage: Some(0),
                kind: Some(GameKind::Classical),
                games: 2
            })
        );
        // A result after the decision is refused.
        assert!(r.status(K, &[WIN, DRAW, DRAW]).is_err());
    }

    #[test]
    fn level_goes_to_rapid_then_blitz_then_armageddon() {
        let r = rules();
        let next = |res: &[HalfPoints]| match r.status(K, res).unwrap() {
            Status::Next(g) => (g.number, g.kind, g.high_white),
            s => panic!("{s:?}"),
        };
        // Higher seed White in game 1, alternating: W B | W B | W B, Armageddon Black.
        assert_eq!(next(&[]), (1, GameKind::Classical, true));
        assert_eq!(next(&[WIN]), (2, GameKind::Classical, false));
        assert_eq!(next(&[WIN, LOSS]), (3, GameKind::Rapid, true));
        assert_eq!(next(&[WIN, LOSS, DRAW]), (4, GameKind::Rapid, false));
        assert_eq!(next(&[DRAW, DRAW, DRAW, DRAW]), (5, GameKind::Blitz, true));
        // Each stage counts on its own: the rapid stage's 1-1 is level whatever came before.
        assert_eq!(next(&[DRAW, DRAW, WIN, LOSS]), (5, GameKind::Blitz, true));
        let all_drawn = [DRAW; 6];
        assert_eq!(next(&all_drawn), (7, GameKind::Armageddon, false));
        // Rapid decides: 1½-½.
        let d = r.status(K, &[DRAW, DRAW, LOSS, DRAW]).unwrap();
        assert!(matches!(
            d,
            Status::Decided(Decision {
                high_wins: false,
                kind: Some(GameKind::Rapid),
                games: 4,
                ..
            })
        ));
    }

    #[test]
    fn armageddon_draw_sends_black_through() {
        let r = rules();
        let mut res = vec![DRAW; 6];
        // The higher seed has Black in the sudden-death game here: a draw is enough for him.
        res.push(DRAW);
        let Status::Decided(d) = r.status(K, &res).unwrap() else {
            panic!()
        };
        assert!(d.high_wins);
        assert_eq!(d.kind, Some(GameKind::Armageddon));
        assert_eq!(d.games, 7);
        // White (the lower seed) wins: he goes through.
        res[6] = LOSS;
        let Status::Decided(d) = r.status(K, &res).unwrap() else {
            panic!()
        };
        assert!(!d.high_wins);
        // With the higher seed White, a draw sends the lower seed through.
        let mut w = rules();
        w.armageddon_colour = ArmageddonColour::HigherSeedWhite;
        res[6] = DRAW;
        let Status::Decided(d) = w.status(K, &res).unwrap() else {
            panic!()
        };
        assert!(!d.high_wins);
    }

    #[test]
    fn a_stage_ends_when_the_lead_cannot_be_made_up() {
        let mut r = rules();
        r.tie_breaks[1].games = 4;
        // Classical and rapid level.
        let mut res = vec![DRAW; 4];
        // The higher seed wins blitz game 1, the lower seed game 2: 1-1 with two to play.
        res.extend([WIN, LOSS]);
        assert!(matches!(r.status(K, &res).unwrap(), Status::Next(_)));
        let mut res = vec![DRAW; 4];
        res.extend([WIN, WIN, WIN]);
        // 3-0 with one game left: decided after 7 games, game 8 not played.
        assert!(matches!(
            r.status(K, &res).unwrap(),
            Status::Decided(Decision {
                high_wins: true,
                kind: Some(GameKind::Blitz),
                games: 7,
                ..
            })
        ));
    }

    #[test]
    fn tie_break_colour_rules() {
        let mut r = rules();
        r.classical_games = 1;
        r.tie_breaks[0].games = 2;
        // Continue: game 2 (rapid 1) has the other colours than game 1.
        assert!(r.game(K, 1).unwrap().high_white);
        assert!(!r.game(K, 2).unwrap().high_white);
        assert!(r.game(K, 3).unwrap().high_white);
        // Restart: each stage's first game as game 1.
        r.tie_break_colours = TieBreakColours::Restart;
        assert!(r.game(K, 2).unwrap().high_white);
        assert!(!r.game(K, 3).unwrap().high_white);
        assert!(r.game(K, 4).unwrap().high_white);
        // Armageddon continuing the alternation: game 6 of 1 + 2 + 2 + 1, even: Black for
        // the higher seed, who had White in game 1.
        r.armageddon_colour = ArmageddonColour::Continue;
        assert_eq!(r.max_games(), 6);
        let g = r.game(K, 6).unwrap();
        assert_eq!(g.kind, GameKind::Armageddon);
        assert!(!g.high_white);
        assert!(r.game(K, 7).is_none());
        // Higher seed Black in game 1.
        r.first_colour = FirstColour::HigherSeedBlack;
        assert!(!r.game(K, 1).unwrap().high_white);
    }

    #[test]
    fn lots_are_reproducible_and_both_colours_occur() {
        let keys: Vec<MatchKey> = (1..=32).map(|index| MatchKey { round: 1, index }).collect();
        let a: Vec<bool> = keys.iter().map(|&k| lot("published-seed", k, 0)).collect();
        let b: Vec<bool> = keys.iter().map(|&k| lot("published-seed", k, 0)).collect();
        assert_eq!(a, b);
        assert!(a.contains(&true) && a.contains(&false));
        let other: Vec<bool> = keys.iter().map(|&k| lot("another-seed", k, 0)).collect();
        assert_ne!(a, other);
        let mut r = rules();
        r.first_colour = FirstColour::Lot;
        r.lot_seed = "published-seed".into();
        for (k, &high_white) in keys.iter().zip(&a) {
            assert_eq!(r.game(*k, 1).unwrap().high_white, high_white);
            assert_eq!(r.game(*k, 2).unwrap().high_white, !high_white);
        }
    }

    #[test]
    fn incomplete_rules_are_refused_naming_the_field() {
        let mut r = rules();
        r.classical_games = 0;
        assert_eq!(r.check().unwrap_err().0, "knockout.classical_games");
        let mut r = rules();
        r.tie_breaks[1].games = 0;
        assert_eq!(r.check().unwrap_err().0, "knockout.tie_breaks[1].games");
        let mut r = rules();
        r.armageddon_colour = ArmageddonColour::Lot;
        assert_eq!(r.check().unwrap_err().0, "knockout.lot_seed");
        assert!(rules().check().is_ok());
    }
}
