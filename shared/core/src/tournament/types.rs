//! Value types used by the tournament's commands, events and state. Each mirrors a message or
//! enum of `proto/arbiter/events/v1/events.proto`; "unspecified" enum values become `Option`.

use crate::{Color, PlayerId, ResultCode};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

/// A calendar date without time zone. A zero month or day means "unknown" (e.g. a birth date of
/// which only the year is known); tournament dates must be complete.
///
/// The fields are private so that every value is a real date: construction goes through
/// [`Date::new`] or [`FromStr`], and deserialisation checks the same way.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "DateFields", into = "DateFields")]
pub struct Date {
    year: i32,
    month: u32,
    day: u32,
}

#[derive(Serialize, Deserialize)]
struct DateFields {
    year: i32,
    month: u32,
    day: u32,
}

impl TryFrom<DateFields> for Date {
    type Error = DateError;
    fn try_from(f: DateFields) -> Result<Date, DateError> {
        Date::new(f.year, f.month, f.day)
    }
}

impl From<Date> for DateFields {
    fn from(d: Date) -> DateFields {
        DateFields {
            year: d.year,
            month: d.month,
            day: d.day,
        }
    }
}

/// Why a date was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DateError {
    #[error("{0:?} is not a date of the form YYYY-MM-DD")]
    Syntax(String),
    #[error("year {0} is outside 1..=9999")]
    Year(i32),
    #[error("month {0} is outside 1..=12 (0 = unknown)")]
    Month(u32),
    #[error("day {day} does not exist in {year:04}-{month:02} (0 = unknown)")]
    Day { year: i32, month: u32, day: u32 },
    #[error("a day is given but the month is unknown")]
    DayWithoutMonth,
}

impl Date {
    /// A date; `month` and `day` may be 0 ("unknown"), a day needs a month.
    pub fn new(year: i32, month: u32, day: u32) -> Result<Date, DateError> {
        if !(1..=9999).contains(&year) {
            return Err(DateError::Year(year));
        }
        if month > 12 {
            return Err(DateError::Month(month));
        }
        if month == 0 && day != 0 {
            return Err(DateError::DayWithoutMonth);
        }
        if month != 0 && day > days_in_month(year, month) {
            return Err(DateError::Day { year, month, day });
        }
        Ok(Date { year, month, day })
    }

    /// A complete date; month and day must be known.
    pub fn ymd(year: i32, month: u32, day: u32) -> Result<Date, DateError> {
        if month == 0 {
            return Err(DateError::Month(0));
        }
        if day == 0 {
            return Err(DateError::Day { year, month, day });
        }
        Date::new(year, month, day)
    }

    pub fn year(self) -> i32 {
        self.year
    }
    /// 1..=12, or 0 when unknown.
    pub fn month(self) -> u32 {
        self.month
    }
    /// 1..=31, or 0 when unknown.
    pub fn day(self) -> u32 {
        self.day
    }
    /// Month and day are known.
    pub fn is_complete(self) -> bool {
        self.month != 0 && self.day != 0
    }
}

fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        _ => 0,
    }
}

impl fmt::Display for Date {
    /// `YYYY-MM-DD`; unknown parts print as `00`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

impl FromStr for Date {
    type Err = DateError;
    /// Reads exactly `YYYY-MM-DD` (ASCII digits; `00` for an unknown month or day).
    fn from_str(s: &str) -> Result<Date, DateError> {
        let syntax = || DateError::Syntax(s.to_string());
        let b = s.as_bytes();
        if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
            return Err(syntax());
        }
        let digits = |r: std::ops::Range<usize>| -> Result<u32, DateError> {
            let part = &s[r];
            if !part.bytes().all(|c| c.is_ascii_digit()) {
                return Err(syntax());
            }
            part.parse::<u32>().map_err(|_| syntax())
        };
        let y = digits(0..4)?;
        let m = digits(5..7)?;
        let d = digits(8..10)?;
        Date::new(y as i32, m, d)
    }
}

/// The day the 2025 revision of the Dutch system took effect.
pub const DUTCH_2025_IN_FORCE: (i32, u32, u32) = (2025, 7, 1);

/// Pairing systems (proto `PairingSystem`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum PairingSystem {
    Dutch,
    RoundRobin,
    DoubleRoundRobin,
    Burstein,
    Dubov,
    Lim,
    /// A match of two teams of k boards: every A player meets every B player (Arbiters' Manual 2023 ch. IV §3).
    Scheveningen,
    /// The teams' first halves meet each other, and their second halves.
    SemiScheveningen,
    /// Three teams of an even number of boards in two rounds (Arbiters' Manual 2023 ch. IV §5).
    Skalitzka,
    /// T teams of T − 1 boards in three rounds, the manual's Hilton tables.
    Hilton,
    /// A knockout of mini-matches with tie-break games (Arbiters' Manual 2023 ch. IV §6.2): the rounds follow the
    /// seeded bracket and the results (`tournament::knockout`).
    Knockout,
}

impl PairingSystem {
    /// A Swiss system: the basic rules C.04.1 apply (no rematch, PAB eligibility).
    pub fn is_swiss(self) -> bool {
        matches!(
            self,
            PairingSystem::Dutch
                | PairingSystem::Burstein
                | PairingSystem::Dubov
                | PairingSystem::Lim
        )
    }

    /// A team system whose rounds are a fixed table of boards (Scheveningen, semi-Scheveningen,
    /// Skalitzka, Hilton): players are numbered team by team, board by board.
    pub fn is_team_table(self) -> bool {
        matches!(
            self,
            PairingSystem::Scheveningen
                | PairingSystem::SemiScheveningen
                | PairingSystem::Skalitzka
                | PairingSystem::Hilton
        )
    }

    /// The rule set a new tournament of this system uses when none is given: for the Dutch
    /// system, the rule set in force on the start date (`dutch-2025` from 2025-07-01, else
    /// `dutch-2017`); for the others, the system's name.
    pub fn default_rule_set(self, start: Date) -> &'static str {
        match self {
            PairingSystem::Dutch => {
                if (start.year(), start.month(), start.day()) >= DUTCH_2025_IN_FORCE {
                    "dutch-2025"
                } else {
                    "dutch-2017"
                }
            }
            PairingSystem::RoundRobin => "berger",
            PairingSystem::DoubleRoundRobin => "berger-double",
            PairingSystem::Burstein => "burstein",
            PairingSystem::Dubov => "dubov",
            PairingSystem::Lim => "lim",
            PairingSystem::Scheveningen => "scheveningen",
            PairingSystem::SemiScheveningen => "semi-scheveningen",
            PairingSystem::Skalitzka => "skalitzka",
            PairingSystem::Hilton => "hilton",
            PairingSystem::Knockout => "knockout",
        }
    }

    /// Rule sets a tournament of this system may name.
    pub fn rule_sets(self) -> &'static [&'static str] {
        match self {
            PairingSystem::Dutch => &["dutch-2017", "dutch-2025"],
            PairingSystem::RoundRobin => &["berger"],
            PairingSystem::DoubleRoundRobin => &["berger-double"],
            // `burstein-bbp`: the points the text leaves open read as bbpPairings reads them.
            PairingSystem::Burstein => &["burstein", "burstein-bbp"],
            PairingSystem::Dubov => &["dubov"],
            PairingSystem::Lim => &["lim"],
            PairingSystem::Scheveningen => &["scheveningen"],
            PairingSystem::SemiScheveningen => &["semi-scheveningen"],
            PairingSystem::Skalitzka => &["skalitzka"],
            PairingSystem::Hilton => &["hilton"],
            PairingSystem::Knockout => &["knockout"],
        }
    }
}

/// Which rating list the tournament uses (proto `RatingKind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum RatingKind {
    #[default]
    Standard,
    Rapid,
    Blitz,
}

/// A player's sex (proto `Sex`); `None` where not given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Sex {
    Male,
    Female,
}

/// A FIDE over-the-board title (B.01 0.3; proto `Title`); an untitled player has `None`. The
/// one definition for the aggregate, the rating and norm rules and TRF files. The variant order
/// is `ALL`'s, which the rating-list registry stores as an index: do not reorder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Title {
    GM,
    IM,
    FM,
    CM,
    WGM,
    WIM,
    WFM,
    WCM,
}

impl Title {
    pub const ALL: [Title; 8] = [
        Title::GM,
        Title::IM,
        Title::FM,
        Title::CM,
        Title::WGM,
        Title::WIM,
        Title::WFM,
        Title::WCM,
    ];

    /// Position in the C.04.2.B.2 order GM, IM, WGM, FM, WIM, CM, WFM, WCM (0 = first);
    /// untitled players come after every title.
    pub fn initial_ranking_position(title: Option<Title>) -> u8 {
        match title {
            Some(Title::GM) => 0,
            Some(Title::IM) => 1,
            Some(Title::WGM) => 2,
            Some(Title::FM) => 3,
            Some(Title::WIM) => 4,
            Some(Title::CM) => 5,
            Some(Title::WFM) => 6,
            Some(Title::WCM) => 7,
            None => 8,
        }
    }

    /// The FIDE code, as TRF columns 11-13 and the rating list write it.
    pub fn code(self) -> &'static str {
        match self {
            Title::GM => "GM",
            Title::IM => "IM",
            Title::FM => "FM",
            Title::CM => "CM",
            Title::WGM => "WGM",
            Title::WIM => "WIM",
            Title::WFM => "WFM",
            Title::WCM => "WCM",
        }
    }

    /// Reads a title code, case-insensitively. Also accepts the one- and two-letter codes
    /// (`g`, `m`, `f`, `c`, `wg`, `wm`, `wf`, `wc`) found in older list files.
    pub fn from_code(s: &str) -> Option<Title> {
        let s = s.trim();
        let up = s.to_ascii_uppercase();
        Some(match up.as_str() {
            "GM" | "G" => Title::GM,
            "IM" | "M" => Title::IM,
            "FM" | "F" => Title::FM,
            "CM" | "C" => Title::CM,
            "WGM" | "WG" => Title::WGM,
            "WIM" | "WM" => Title::WIM,
            "WFM" | "WF" => Title::WFM,
            "WCM" | "WC" => Title::WCM,
            _ => return None,
        })
    }

    /// Counts as a "title holder" for the 50% rule of B.01 1.4.5 (CM and WCM do not).
    pub fn counts_as_title_holder(self) -> bool {
        !matches!(self, Title::CM | Title::WCM)
    }

    pub fn is_women_title(self) -> bool {
        matches!(self, Title::WGM | Title::WIM | Title::WFM | Title::WCM)
    }
}

impl fmt::Display for Title {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.code())
    }
}

/// An arbiter (proto `Arbiter`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Arbiter {
    pub name: String,
    pub fide_id: Option<u64>,
    /// "IA", "FA", "NA", or empty.
    pub title: String,
}

impl Arbiter {
    pub fn named(name: impl Into<String>) -> Arbiter {
        Arbiter {
            name: name.into(),
            fide_id: None,
            title: String::new(),
        }
    }
}

/// Accelerated pairing methods the tournament may announce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AccelerationMethod {
    /// Baku acceleration (C.04.5.1 / C.04.5 / C.04.7).
    Baku,
}

impl AccelerationMethod {
    /// The proto's `method` string.
    pub fn as_str(self) -> &'static str {
        match self {
            AccelerationMethod::Baku => "baku",
        }
    }
}

/// An accelerated-pairing scheme (proto `Acceleration`): virtual points apply in rounds
/// `first_round..=last_round`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Acceleration {
    pub method: AccelerationMethod,
    pub first_round: u32,
    pub last_round: u32,
}

impl Acceleration {
    /// The accelerated rounds of Baku acceleration under a rule set: `dutch-2017` (C.04.5.1,
    /// 2016): rounds 1 to 5; later rule sets (C.04.5, 2025): the first half of the rounds,
    /// rounded up. Never beyond the last round.
    pub fn baku(rule_set: &str, rounds: u32) -> Acceleration {
        let last = if rule_set == "dutch-2017" {
            5
        } else {
            rounds.div_ceil(2)
        };
        Acceleration {
            method: AccelerationMethod::Baku,
            first_round: 1,
            last_round: last.min(rounds).max(1),
        }
    }

    /// Whether `round` is accelerated, and if so whether it gets the full virtual value (the
    /// first half of the accelerated rounds, rounded up) or half of it.
    pub fn phase(&self, round: u32) -> Option<VirtualValue> {
        if round < self.first_round || round > self.last_round {
            return None;
        }
        let count = self.last_round - self.first_round + 1;
        let full = count.div_ceil(2);
        Some(if round - self.first_round < full {
            VirtualValue::Full
        } else {
            VirtualValue::Half
        })
    }
}

/// The value of the virtual points of an accelerated round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum VirtualValue {
    /// The value of a win (1 point under 1/½/0).
    Full,
    /// The value of a draw (½ point under 1/½/0).
    Half,
}

/// Kinds of bye a player can ask for (proto `ByeKind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum ByeKind {
    /// `H`.
    HalfPoint,
    /// `Z`.
    #[default]
    ZeroPoint,
    /// `F`.
    FullPoint,
}

impl ByeKind {
    /// The TRF code the player's line carries for the round.
    pub fn code(self) -> ResultCode {
        match self {
            ByeKind::HalfPoint => ResultCode::HalfBye,
            ByeKind::ZeroPoint => ResultCode::ZeroBye,
            ByeKind::FullPoint => ResultCode::FullBye,
        }
    }

    /// The kind of a bye code (`H`, `Z`, `F`).
    pub fn from_code(code: ResultCode) -> Option<ByeKind> {
        match code {
            ResultCode::HalfBye => Some(ByeKind::HalfPoint),
            ResultCode::ZeroBye => Some(ByeKind::ZeroPoint),
            ResultCode::FullBye => Some(ByeKind::FullPoint),
            _ => None,
        }
    }
}

impl fmt::Display for ByeKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ByeKind::HalfPoint => "half-point bye",
            ByeKind::ZeroPoint => "zero-point bye",
            ByeKind::FullPoint => "full-point bye",
        })
    }
}

/// The outcome of one board, from White's side (proto `BoardResult`, with the arbiter's
/// per-player codes carried inside [`BoardResult::ArbiterDecision`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BoardResult {
    /// 1-0
    WhiteWins,
    /// ½-½
    Draw,
    /// 0-1
    BlackWins,
    /// +/- (Black did not appear)
    WhiteWinsForfeit,
    /// -/+ (White did not appear)
    BlackWinsForfeit,
    /// -/- (neither appeared)
    DoubleForfeit,
    /// W/L (less than one move played; not rated)
    WhiteWinsUnrated,
    /// D/D
    DrawUnrated,
    /// L/W
    BlackWinsUnrated,
    /// An arbiter's decision that fits none of the above (e.g. 0-0, ½-0), each player's code
    /// given explicitly.
    ArbiterDecision {
        white: ResultCode,
        black: ResultCode,
    },
}

impl BoardResult {
    /// The codes White's and Black's lines carry.
    pub fn codes(self) -> (ResultCode, ResultCode) {
        use ResultCode::*;
        match self {
            BoardResult::WhiteWins => (Win, Loss),
            BoardResult::Draw => (Draw, Draw),
            BoardResult::BlackWins => (Loss, Win),
            BoardResult::WhiteWinsForfeit => (ForfeitWin, ForfeitLoss),
            BoardResult::BlackWinsForfeit => (ForfeitLoss, ForfeitWin),
            BoardResult::DoubleForfeit => (ForfeitLoss, ForfeitLoss),
            BoardResult::WhiteWinsUnrated => (WinUnrated, LossUnrated),
            BoardResult::DrawUnrated => (DrawUnrated, DrawUnrated),
            BoardResult::BlackWinsUnrated => (LossUnrated, WinUnrated),
            BoardResult::ArbiterDecision { white, black } => (white, black),
        }
    }

    /// The result a game's score ends with ("1-0", "0-1", "1/2-1/2") for a played result;
    /// `None` for a forfeit (no game) and an arbiter's decision (which may differ from it).
    pub fn pgn(self) -> Option<&'static str> {
        match self {
            BoardResult::WhiteWins | BoardResult::WhiteWinsUnrated => Some("1-0"),
            BoardResult::BlackWins | BoardResult::BlackWinsUnrated => Some("0-1"),
            BoardResult::Draw | BoardResult::DrawUnrated => Some("1/2-1/2"),
            _ => None,
        }
    }

    /// The code of one colour's line.
    pub fn code_for(self, color: Color) -> ResultCode {
        let (w, b) = self.codes();
        match color {
            Color::White => w,
            Color::Black => b,
        }
    }

    /// Checks an arbiter's decision: both codes must be game codes (played or forfeit) of the
    /// same kind (both rated-played, both unrated-played or both unplayed), and not both wins.
    pub fn check(self) -> Result<(), String> {
        let BoardResult::ArbiterDecision { white, black } = self else {
            return Ok(());
        };
        for (side, c) in [("white", white), ("black", black)] {
            if !c.has_opponent() {
                return Err(format!(
                    "{side}'s code '{}' is a bye code, not a game result",
                    c.trf_char()
                ));
            }
        }
        let class = |c: ResultCode| match c {
            ResultCode::Win | ResultCode::Draw | ResultCode::Loss => 0,
            ResultCode::WinUnrated | ResultCode::DrawUnrated | ResultCode::LossUnrated => 1,
            _ => 2,
        };
        if class(white) != class(black) {
            return Err(format!(
                "codes '{}' and '{}' mix a played and an unplayed (or rated and unrated) game",
                white.trf_char(),
                black.trf_char()
            ));
        }
        let wins = |c: ResultCode| {
            matches!(
                c,
                ResultCode::Win | ResultCode::WinUnrated | ResultCode::ForfeitWin
            )
        };
        if wins(white) && wins(black) {
            return Err("both players cannot win the same game".to_string());
        }
        Ok(())
    }
}

impl fmt::Display for BoardResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoardResult::WhiteWins => f.write_str("1-0"),
            BoardResult::Draw => f.write_str("½-½"),
            BoardResult::BlackWins => f.write_str("0-1"),
            BoardResult::WhiteWinsForfeit => f.write_str("+/-"),
            BoardResult::BlackWinsForfeit => f.write_str("-/+"),
            BoardResult::DoubleForfeit => f.write_str("-/-"),
            BoardResult::WhiteWinsUnrated => f.write_str("W/L"),
            BoardResult::DrawUnrated => f.write_str("D/D"),
            BoardResult::BlackWinsUnrated => f.write_str("L/W"),
            BoardResult::ArbiterDecision { white, black } => {
                write!(f, "{}/{} (arbiter)", white.trf_char(), black.trf_char())
            }
        }
    }
}

/// One board of a pairing (proto `Board`): players by pairing number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Board {
    /// 1-based board number.
    pub number: u32,
    pub white: PlayerId,
    pub black: PlayerId,
}

/// Two players to be seated on a board, White first; commands list boards as pairs in board
/// order and the events number them 1..n.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pair {
    pub white: PlayerId,
    pub black: PlayerId,
}

impl Pair {
    pub fn new(white: PlayerId, black: PlayerId) -> Pair {
        Pair { white, black }
    }
}

/// A player not seated on a board in a round (proto `Unpaired`): the pairing-allocated bye
/// (`U`), a requested bye (`H`, `F`, `Z`), an absence, a withdrawal or a round before a late
/// entry (`Z`, or the late entry's code).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Unpaired {
    pub player_id: PlayerId,
    pub code: ResultCode,
}

/// A pairing engine (proto `Engine`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Engine {
    pub name: String,
    pub version: String,
}

/// The lowest rating a player may be registered with (0 = unrated aside): the FIDE rating
/// floor, below which no rating is published (B.02 7.1.4: 1000; 1400 for ratings computed
/// from 1 March 2024, but lists and events from before then hold ratings from 1000). A
/// rating under it is a typo or a national rating, not a FIDE rating.
pub const RATING_FLOOR: u32 = 1000;
/// The highest rating a player may be registered with, FIDE or national: the best rating ever
/// published is below 2900; 3000 leaves room and refuses the typo 5000 (TRF's column allows
/// 9999).
pub const RATING_CEILING: u32 = 3000;
/// The largest FIDE id: FIDE ids have at most 10 digits (TRF-2026 gives the id 11 columns);
/// a longer one cannot be a FIDE id and would not fit the report.
pub const MAX_FIDE_ID: u64 = 9_999_999_999;

/// A player's identity and ratings as registered (proto `Player`). `player_id` is the pairing
/// number the player had when the event was written.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Player {
    pub player_id: PlayerId,
    /// "Surname, Given names".
    pub name: String,
    pub fide_id: Option<u64>,
    pub national_id: String,
    /// Rating of the tournament's rating kind; 0 = unrated.
    pub rating: u32,
    pub national_rating: u32,
    /// 0 = let the rating worker decide.
    pub k_factor: u32,
    pub title: Option<Title>,
    /// FIDE three-letter code, or empty.
    pub federation: String,
    pub birth_date: Option<Date>,
    pub sex: Option<Sex>,
    pub club: String,
}

impl Player {
    /// The fields a correction may name ([`Player::copy_field`]).
    pub const FIELDS: [&'static str; 11] = [
        "name",
        "fide_id",
        "national_id",
        "rating",
        "national_rating",
        "k_factor",
        "title",
        "federation",
        "birth_date",
        "sex",
        "club",
    ];

    /// Copies field `name` of `from` into `self`; false for a name not in [`Player::FIELDS`].
    pub fn copy_field(&mut self, from: &Player, name: &str) -> bool {
        match name {
            "name" => self.name = from.name.clone(),
            "fide_id" => self.fide_id = from.fide_id,
            "national_id" => self.national_id = from.national_id.clone(),
            "rating" => self.rating = from.rating,
            "national_rating" => self.national_rating = from.national_rating,
            "k_factor" => self.k_factor = from.k_factor,
            "title" => self.title = from.title,
            "federation" => self.federation = from.federation.clone(),
            "birth_date" => self.birth_date = from.birth_date,
            "sex" => self.sex = from.sex,
            "club" => self.club = from.club.clone(),
            _ => return false,
        }
        true
    }

    /// The order of the initial ranking list (C.04.2.B.2): rating descending, then title in the
    /// order GM, IM, WGM, FM, WIM, CM, WFM, WCM, untitled, then name alphabetically
    /// (case-insensitive first, then exact, so that the order is total on distinct names).
    /// `Less` means `self` ranks higher (gets the lower pairing number).
    pub fn initial_ranking_cmp(&self, other: &Player) -> Ordering {
        other
            .rating
            .cmp(&self.rating)
            .then_with(|| {
                Title::initial_ranking_position(self.title)
                    .cmp(&Title::initial_ranking_position(other.title))
            })
            .then_with(|| {
                let a = self.name.chars().flat_map(char::to_lowercase);
                let b = other.name.chars().flat_map(char::to_lowercase);
                a.cmp(b)
            })
            .then_with(|| self.name.cmp(&other.name))
    }
}

/// A registered player's stable identity: the order of registration, 0-based. It never changes,
/// while the pairing number may (late entries are inserted in ranking order, C.04.2.C.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct EntryId(pub u32);

impl EntryId {
    /// The player's stable number as the API shows it: the order of registration, 1-based
    /// (1 = the first player registered). Derived from the log's order rather than stored in
    /// the registration event, so logs written before it was shown fold to the same numbers,
    /// a replay gives every player the same number, and 0 stays free for "not given" on the
    /// wire.
    pub fn number(self) -> u32 {
        self.0 + 1
    }

    /// The entry of a stable number; `None` for 0.
    pub fn from_number(n: u32) -> Option<EntryId> {
        n.checked_sub(1).map(EntryId)
    }
}

impl fmt::Display for EntryId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "entry {}", self.number())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_parse_and_reject() {
        assert_eq!(
            "2025-07-01".parse::<Date>().unwrap(),
            Date::ymd(2025, 7, 1).unwrap()
        );
        assert_eq!("2024-02-29".parse::<Date>().unwrap().day(), 29);
        assert_eq!(
            "2023-02-29".parse::<Date>(),
            Err(DateError::Day {
                year: 2023,
                month: 2,
                day: 29
            })
        );
        assert_eq!(
            "1900-02-29".parse::<Date>(),
            Err(DateError::Day {
                year: 1900,
                month: 2,
                day: 29
            })
        );
        assert!("2000-02-29".parse::<Date>().is_ok());
        assert!(!"1990-00-00".parse::<Date>().unwrap().is_complete());
        assert_eq!(
            "1990-00-05".parse::<Date>(),
            Err(DateError::DayWithoutMonth)
        );
        assert_eq!("2025-13-01".parse::<Date>(), Err(DateError::Month(13)));
        for bad in [
            "2025-7-1",
            "2025/07/01",
            "",
            "20250701",
            "+025-07-01",
            "2025-07-0a",
            "２０２５-07-01",
        ] {
            assert!(
                matches!(bad.parse::<Date>(), Err(DateError::Syntax(_))),
                "{bad}"
            );
        }
        assert_eq!(Date::ymd(2025, 7, 1).unwrap().to_string(), "2025-07-01");
        assert!(Date::ymd(2025, 0, 1).is_err());
        assert!(Date::new(0, 1, 1).is_err());
    }

    #[test]
    fn default_rule_set_follows_start_date() {
        let d = |s: &str| s.parse::<Date>().unwrap();
        assert_eq!(
            PairingSystem::Dutch.default_rule_set(d("2025-06-30")),
            "dutch-2017"
        );
        assert_eq!(
            PairingSystem::Dutch.default_rule_set(d("2025-07-01")),
            "dutch-2025"
        );
        assert_eq!(
            PairingSystem::Dutch.default_rule_set(d("2017-07-01")),
            "dutch-2017"
        );
        assert_eq!(
            PairingSystem::RoundRobin.default_rule_set(d("2026-01-01")),
            "berger"
        );
    }

    #[test]
    fn baku_rounds_by_rule_set() {
        let a = Acceleration::baku("dutch-2017", 9);
        assert_eq!((a.first_round, a.last_round), (1, 5));
        assert_eq!(a.phase(3), Some(VirtualValue::Full));
        assert_eq!(a.phase(4), Some(VirtualValue::Half));
        assert_eq!(a.phase(6), None);
        let b = Acceleration::baku("dutch-2025", 11);
        assert_eq!((b.first_round, b.last_round), (1, 6));
        assert_eq!(b.phase(3), Some(VirtualValue::Full));
        assert_eq!(b.phase(4), Some(VirtualValue::Half));
        assert_eq!(b.phase(7), None);
    }

    #[test]
    fn arbiter_decisions_are_checked() {
        use ResultCode::*;
        assert!(
            BoardResult::ArbiterDecision {
                white: Loss,
                black: Loss
            }
            .check()
            .is_ok()
        );
        assert!(
            BoardResult::ArbiterDecision {
                white: Draw,
                black: Loss
            }
            .check()
            .is_ok()
        );
        assert!(
            BoardResult::ArbiterDecision {
                white: Win,
                black: Win
            }
            .check()
            .is_err()
        );
        assert!(
            BoardResult::ArbiterDecision {
                white: Win,
                black: ForfeitLoss
            }
            .check()
            .is_err()
        );
        assert!(
            BoardResult::ArbiterDecision {
                white: HalfBye,
                black: Loss
            }
            .check()
            .is_err()
        );
        assert!(BoardResult::WhiteWins.check().is_ok());
    }

    #[test]
    fn initial_ranking_order() {
        let p = |name: &str, rating: u32, title: Option<Title>| Player {
            name: name.into(),
            rating,
            title,
            ..Player::default()
        };
        assert!(
            p("B", 2500, None)
                .initial_ranking_cmp(&p("A", 2400, Some(Title::GM)))
                .is_lt()
        );
        assert!(
            p("B", 2400, Some(Title::WGM))
                .initial_ranking_cmp(&p("A", 2400, Some(Title::FM)))
                .is_lt()
        );
        assert!(
            p("Z", 2400, Some(Title::WCM))
                .initial_ranking_cmp(&p("A", 2400, None))
                .is_lt()
        );
        assert!(
            p("adams", 2400, None)
                .initial_ranking_cmp(&p("Brown", 2400, None))
                .is_lt()
        );
        assert!(
            p("Adams", 2400, None)
                .initial_ranking_cmp(&p("adams", 2400, None))
                .is_lt()
        );
        assert!(
            p("A", 2400, None)
                .initial_ranking_cmp(&p("A", 2400, None))
                .is_eq()
        );
    }
}
