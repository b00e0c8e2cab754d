//! The file model: one [`Record`] per physical line, in file order.
//!
//! A TRF file is an ordered list of lines, and several consumers care about that order (people
//! diffing exports, engines that read `XXR` before `001`, auditors comparing a re-written file
//! with the original). Keeping the records as a list rather than scattering them into a
//! "tournament" struct is what lets the writer reproduce a file byte for byte: blank lines,
//! comments and records we do not model travel through unchanged. Typed accessors and the
//! derived views (`views.rs`) give the structured picture on top of it.
//!
//! Field values are typed where a consumer computes with them (start numbers, ratings, points,
//! round entries, scoring values) and kept as text where the format itself is free text.

use arbiter_core::{Color, PlayerId, ResultCode, RoundEntry, Score};
use std::fmt;

/// A parsed (or programmatically built) TRF file: its records in line order.
///
/// Line `n` of a written file is `records[n - 1]`, so error locations computed on a model
/// (see [`TrfFile::check`](crate::TrfFile::check)) refer to the file it writes.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TrfFile {
    /// One record per line, in file order.
    pub records: Vec<Record>,
}

/// One line of a TRF file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Record {
    /// An empty or whitespace-only line (kept so the layout survives a round trip).
    Blank,
    /// A TRF-2026 comment line: the text after `###`.
    Comment(String),
    /// A free-text tournament record (`012`, `022`, ..., `122`, `182`, `192`, `202`, `212`,
    /// `222`, `352`, `362`): the text from column 5.
    Text(TextRecord),
    /// `132`: round dates.
    RoundDates(RoundDates),
    /// `142`: number of rounds (TRF-2026).
    Rounds(u32),
    /// `152`: initial colour, `W` or `B` (TRF-2026).
    InitialColor(Color),
    /// `162`: individual point system (TRF-2026), in the order written.
    Scoring(Vec<ScoringEntry>),
    /// `172`: national rating support, starting-rank method (TRF-2026).
    NationalRating(NationalRating),
    /// `001`: a player.
    Player(PlayerRecord),
    /// `013`: a team (TRF16).
    Team013(Team013),
    /// `310`: a team (TRF-2026).
    Team310(Team310),
    /// `300`: a team's board order in one round, when it is not the `310` order (TRF-2026).
    TeamOrder300(TeamOrder300),
    /// `320`: the team pairing-allocated byes and their points (TRF-2026).
    TeamByes320(TeamByes320),
    /// `330`: a forfeited team match (TRF-2026).
    TeamForfeit330(TeamForfeit330),
    /// `240`: requested byes for one round (TRF-2026).
    Byes(ByeRecord),
    /// `250`: accelerated rounds (TRF-2026).
    Acceleration(AccelerationRecord),
    /// `260`: prohibited pairings (TRF-2026).
    Prohibited(ProhibitedRecord),
    /// `XXR n`: total number of rounds (JaVaFo).
    Xxr(u32),
    /// `XXC ...`: engine options `rank`, `white1`, `black1` (JaVaFo).
    Xxc(Vec<XxcOption>),
    /// `XXA`: per-round virtual points of one player (JaVaFo acceleration).
    Xxa(XxaRecord),
    /// `XXS CODE=VALUE ...`: point system (JaVaFo).
    Xxs(Vec<XxsEntry>),
    /// `XXZ id ...`: players absent from the round to be paired (JaVaFo).
    Xxz(Vec<PlayerId>),
    /// `XXP id ...`: players who must not meet each other (JaVaFo).
    Xxp(Vec<PlayerId>),
    /// `BBW`/`BBD`/`BBL`/`BBZ`/`BBF`/`BBU`: point values (bbpPairings).
    Bb(BbCode, Score),
    /// Any other line, verbatim (trailing blanks removed): unknown codes, `XX?` codes we do not
    /// interpret, TRF-2026 records we carry but do not model (`299`, `801`, `802`), national
    /// rating (NRS) lines, Tornelo `DAT` lines.
    Other(String),
}

/// Free-text tournament record codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TextCode {
    /// `012` tournament name.
    TournamentName,
    /// `022` city.
    City,
    /// `032` federation.
    Federation,
    /// `042` start date.
    StartDate,
    /// `052` end date.
    EndDate,
    /// `062` number of players.
    PlayerCount,
    /// `072` number of rated players.
    RatedPlayerCount,
    /// `082` number of teams.
    TeamCount,
    /// `092` type of tournament (free text).
    TournamentType,
    /// `102` chief arbiter.
    ChiefArbiter,
    /// `112` deputy chief arbiter (one record each).
    DeputyArbiter,
    /// `122` allotted times (free text).
    TimeControl,
    /// `182` pairing controller identifier (TRF-2026).
    PairingController,
    /// `192` encoded tournament type (TRF-2026), e.g. `FIDE_DUTCH_2025`.
    EncodedType,
    /// `202` tie-breaks used to break ties (TRF-2026).
    TieBreaks,
    /// `212` tie-breaks defining the standings (TRF-2026).
    StandingsTieBreaks,
    /// `222` encoded time control (TRF-2026).
    EncodedTimeControl,
    /// `352` team board colour sequence (TRF-2026).
    BoardColours,
    /// `362` team match-point system (TRF-2026).
    TeamScoring,
}

impl TextCode {
    /// Every free-text code, in code order.
    pub const ALL: [TextCode; 19] = [
        TextCode::TournamentName,
        TextCode::City,
        TextCode::Federation,
        TextCode::StartDate,
        TextCode::EndDate,
        TextCode::PlayerCount,
        TextCode::RatedPlayerCount,
        TextCode::TeamCount,
        TextCode::TournamentType,
        TextCode::ChiefArbiter,
        TextCode::DeputyArbiter,
        TextCode::TimeControl,
        TextCode::PairingController,
        TextCode::EncodedType,
        TextCode::TieBreaks,
        TextCode::StandingsTieBreaks,
        TextCode::EncodedTimeControl,
        TextCode::BoardColours,
        TextCode::TeamScoring,
    ];

    /// The three-character record identifier.
    pub fn code(self) -> &'static str {
        match self {
            TextCode::TournamentName => "012",
            TextCode::City => "022",
            TextCode::Federation => "032",
            TextCode::StartDate => "042",
            TextCode::EndDate => "052",
            TextCode::PlayerCount => "062",
            TextCode::RatedPlayerCount => "072",
            TextCode::TeamCount => "082",
            TextCode::TournamentType => "092",
            TextCode::ChiefArbiter => "102",
            TextCode::DeputyArbiter => "112",
            TextCode::TimeControl => "122",
            TextCode::PairingController => "182",
            TextCode::EncodedType => "192",
            TextCode::TieBreaks => "202",
            TextCode::StandingsTieBreaks => "212",
            TextCode::EncodedTimeControl => "222",
            TextCode::BoardColours => "352",
            TextCode::TeamScoring => "362",
        }
    }

    /// The code for a three-character identifier.
    pub fn from_code(code: &str) -> Option<TextCode> {
        TextCode::ALL.into_iter().find(|c| c.code() == code)
    }

    /// Records that exist only in TRF-2026.
    pub fn is_trf2026_only(self) -> bool {
        matches!(
            self,
            TextCode::PairingController
                | TextCode::EncodedType
                | TextCode::TieBreaks
                | TextCode::StandingsTieBreaks
                | TextCode::EncodedTimeControl
                | TextCode::BoardColours
                | TextCode::TeamScoring
        )
    }
}

/// A free-text tournament record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextRecord {
    /// Which record.
    pub code: TextCode,
    /// Everything from column 5, trailing blanks removed (leading blanks kept).
    pub text: String,
}

/// `132`: the date of each round, `YY/MM/DD` at columns `92 + 10(r-1)`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RoundDates {
    /// Columns 5-91, normally blank; kept as written (trimmed).
    pub label: String,
    /// One slot per round; `None` = blank (round not scheduled yet). No trailing `None`.
    pub dates: Vec<Option<RoundDate>>,
}

/// A round date as `132` writes it: two-digit year.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RoundDate {
    /// Year, two digits.
    pub yy: u8,
    /// Month, 1-12.
    pub month: u8,
    /// Day of the month.
    pub day: u8,
}

impl fmt::Display for RoundDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:02}/{:02}/{:02}", self.yy, self.month, self.day)
    }
}

/// A birth date (columns 70-79): `YYYY/MM/DD`, or the year alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BirthDate {
    /// `YYYY/MM/DD`; month and day may be `00` when unknown.
    Full {
        /// Year, four digits.
        year: u16,
        /// Month, 1-12, or 0 when unknown.
        month: u8,
        /// Day, or 0 when unknown.
        day: u8,
    },
    /// `YYYY`.
    Year(u16),
}

impl BirthDate {
    /// The year.
    pub fn year(self) -> u16 {
        match self {
            BirthDate::Full { year, .. } | BirthDate::Year(year) => year,
        }
    }
}

impl fmt::Display for BirthDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BirthDate::Full { year, month, day } => write!(f, "{year:04}/{month:02}/{day:02}"),
            BirthDate::Year(year) => write!(f, "{year:04}"),
        }
    }
}

/// Column 10.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sex {
    /// `m`.
    Male,
    /// `w` (also read from the `f` of the Spanish-language result table; docs/src/guide/files.md).
    Female,
}

/// The FIDE titles, arbiter-core's one definition.
pub use arbiter_core::tournament::Title;

/// Columns 11-13: a FIDE title (legacy lower-case codes `g`, `wm`, ... are read as the modern
/// titles), or any other code, which the file keeps as written.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum TitleCode {
    /// One of the FIDE codes.
    Fide(Title),
    /// Anything else that fits the three columns (kept, with a warning on input).
    Other(String),
}

impl TitleCode {
    /// The code as written in columns 11-13.
    pub fn as_str(&self) -> &str {
        match self {
            TitleCode::Fide(t) => t.code(),
            TitleCode::Other(s) => s,
        }
    }

    /// The FIDE title, `None` for another code.
    pub fn title(&self) -> Option<Title> {
        match self {
            TitleCode::Fide(t) => Some(*t),
            TitleCode::Other(_) => None,
        }
    }
}

impl From<Title> for TitleCode {
    fn from(t: Title) -> TitleCode {
        TitleCode::Fide(t)
    }
}

/// A `001` record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerRecord {
    /// Columns 5-8: pairing number, 1..=9999.
    pub start_number: PlayerId,
    /// Column 10.
    pub sex: Option<Sex>,
    /// Columns 11-13.
    pub title: Option<TitleCode>,
    /// Columns 15-47, trimmed.
    pub name: String,
    /// Columns 49-52. `None` = blank; `Some(0)` = written `0`; both mean unrated.
    pub rating: Option<u16>,
    /// Columns 54-56, trimmed (empty when blank).
    pub federation: String,
    /// Columns 58-68.
    pub fide_id: Option<u64>,
    /// Columns 70-79.
    pub birth_date: Option<BirthDate>,
    /// Columns 81-84: the score as written (under the file's point system).
    pub points: Score,
    /// Columns 86-89; blank in files of unfinished events.
    pub rank: Option<u32>,
    /// Round blocks from column 92, one per round. `None` is an all-blank block (not paired,
    /// which counts as a zero-point bye once the round is over). A line never ends in `None`:
    /// trailing blank blocks are indistinguishable from missing ones.
    pub rounds: Vec<Option<RoundEntry>>,
}

impl PlayerRecord {
    /// A player with only the start number and name filled in.
    pub fn new(start_number: PlayerId, name: impl Into<String>) -> PlayerRecord {
        PlayerRecord {
            start_number,
            sex: None,
            title: None,
            name: name.into(),
            rating: None,
            federation: String::new(),
            fide_id: None,
            birth_date: None,
            points: Score::ZERO,
            rank: None,
            rounds: Vec::new(),
        }
    }

    /// The entry of round `round` (1-based), if the block is present and not blank.
    pub fn entry(&self, round: u32) -> Option<&RoundEntry> {
        let i = usize::try_from(round).ok()?.checked_sub(1)?;
        self.rounds.get(i).and_then(|e| e.as_ref())
    }

    /// Rated: a non-zero rating.
    pub fn is_rated(&self) -> bool {
        matches!(self.rating, Some(r) if r > 0)
    }
}

/// `013` (TRF16 team): columns 5-36 name, members at `37 + 5(k-1)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Team013 {
    /// Columns 5-36.
    pub name: String,
    /// Start numbers by board; `None` = blank or `0000`. No trailing `None`.
    pub members: Vec<Option<PlayerId>>,
}

/// `310` (TRF-2026 team).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Team310 {
    /// Columns 5-7.
    pub number: u32,
    /// Columns 9-40.
    pub name: String,
    /// Columns 42-46.
    pub nickname: String,
    /// Columns 48-53.
    pub strength: Option<u32>,
    /// Columns 55-60.
    pub match_points: Option<Score>,
    /// Columns 62-67.
    pub game_points: Option<Score>,
    /// Columns 69-71.
    pub rank: Option<u32>,
    /// Start numbers at `74 + 5(k-1)`; `None` = blank or `0000`. No trailing `None`.
    pub members: Vec<Option<PlayerId>>,
}

/// `300 RRR TTT OOO id id ...`: the players team `team` fielded, board by board, in round
/// `round` against `opponent`, when that is not the order of its `310` record (or a board was
/// left empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamOrder300 {
    /// Columns 5-7.
    pub round: u32,
    /// Columns 9-11: the team's `310` number.
    pub team: u32,
    /// Columns 13-15: the scheduled opponent's `310` number, not `team`.
    pub opponent: u32,
    /// Start numbers by board at `17 + 5(k-1)`; `None` = `0000` (board not occupied), written
    /// as `0000`, so a trailing `None` is kept. At least one board.
    pub boards: Vec<Option<PlayerId>>,
}

/// `320`: the points of a team pairing-allocated bye and the team that had it in each round.
///
/// Round `r`'s team is at columns `15 + 4(r-1)` to `17 + 4(r-1)` (round 1 at 15-17, round 2
/// at 19-21): the TRF-2026 table lists these two and "continue"; record 320 says only
/// "per round", and this is the reading that keeps the record's rhythm of a field and one
/// blank column (5-8, 10-13).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamByes320 {
    /// Columns 5-8: the match points of the bye, not negative.
    pub match_points: Score,
    /// Columns 10-13: the game points of the bye, not negative.
    pub game_points: Score,
    /// One slot per round from round 1: the `310` number of the team with the bye; `None` =
    /// `000` (no bye that round), written as `000`, so a trailing `None` is kept.
    pub teams: Vec<Option<u32>>,
}

/// The forfeit types of record `330`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TeamForfeitKind {
    /// `+-`: the white team (named first) wins by forfeit.
    WhiteWins,
    /// `-+`: the black team wins by forfeit.
    BlackWins,
    /// `--`: double forfeit.
    Double,
}

impl TeamForfeitKind {
    /// The two characters written in columns 5-6.
    pub fn code(self) -> &'static str {
        match self {
            TeamForfeitKind::WhiteWins => "+-",
            TeamForfeitKind::BlackWins => "-+",
            TeamForfeitKind::Double => "--",
        }
    }
    /// The kind for its two characters.
    pub fn from_code(s: &str) -> Option<TeamForfeitKind> {
        [
            TeamForfeitKind::WhiteWins,
            TeamForfeitKind::BlackWins,
            TeamForfeitKind::Double,
        ]
        .into_iter()
        .find(|k| k.code() == s)
    }
}

/// `330 TT RRR WWW BBB`: the match `white` - `black` of round `round` was forfeited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamForfeit330 {
    /// Columns 5-6.
    pub kind: TeamForfeitKind,
    /// Columns 8-10.
    pub round: u32,
    /// Columns 12-14: the white team (the team named first), a `310` number.
    pub white: u32,
    /// Columns 16-18: the black team, not `white`.
    pub black: u32,
}

/// Result symbols of record `162`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ScoringSymbol {
    /// `W`: win over the board or by forfeit, full-point bye (default 1.0).
    W,
    /// `D`: draw, half-point bye (default 0.5).
    D,
    /// `L`: loss over the board (default 0.0).
    L,
    /// `A`: absence: zero-point bye or forfeit loss (default 0.0).
    A,
    /// `P`: pairing-allocated bye (default: the `W` value).
    P,
    /// `X`: unknown result, e.g. adjourned (default: the `D` value).
    X,
    /// `Z`: the spelling of `A` that bbpPairings v6.0.0 reads and writes; same meaning.
    Z,
}

impl ScoringSymbol {
    /// The letter written in the record.
    pub fn letter(self) -> char {
        match self {
            ScoringSymbol::W => 'W',
            ScoringSymbol::D => 'D',
            ScoringSymbol::L => 'L',
            ScoringSymbol::A => 'A',
            ScoringSymbol::P => 'P',
            ScoringSymbol::X => 'X',
            ScoringSymbol::Z => 'Z',
        }
    }
    /// The symbol for an (upper-case) letter.
    pub fn from_letter(c: char) -> Option<ScoringSymbol> {
        Some(match c {
            'W' => ScoringSymbol::W,
            'D' => ScoringSymbol::D,
            'L' => ScoringSymbol::L,
            'A' => ScoringSymbol::A,
            'P' => ScoringSymbol::P,
            'X' => ScoringSymbol::X,
            'Z' => ScoringSymbol::Z,
            _ => return None,
        })
    }
}

/// One group of record `162`: symbol at column `6 + 9k`, points at the next four columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ScoringEntry {
    /// The result symbol.
    pub symbol: ScoringSymbol,
    /// Its points.
    pub points: Score,
}

/// `172`: columns 5-7 federation, 9-13 ranking method (`FIDE`, `NRO`, `FIDON`, `NIDOF`, `HBFN`,
/// `LBFN`, `OTHER`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NationalRating {
    /// Columns 5-7: the federation whose rating is supported.
    pub federation: String,
    /// Columns 9-13: the starting-rank method.
    pub method: String,
}

/// The bye types of record `240`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ByeKind {
    /// `F`.
    Full,
    /// `H`.
    Half,
    /// `Z`.
    Zero,
}

impl ByeKind {
    /// The letter written in the record.
    pub fn letter(self) -> char {
        match self {
            ByeKind::Full => 'F',
            ByeKind::Half => 'H',
            ByeKind::Zero => 'Z',
        }
    }
    /// The round-entry result code of this bye.
    pub fn result_code(self) -> ResultCode {
        match self {
            ByeKind::Full => ResultCode::FullBye,
            ByeKind::Half => ResultCode::HalfBye,
            ByeKind::Zero => ResultCode::ZeroBye,
        }
    }
    /// The kind for a letter, case-insensitively.
    pub fn from_letter(c: char) -> Option<ByeKind> {
        match c.to_ascii_uppercase() {
            'F' => Some(ByeKind::Full),
            'H' => Some(ByeKind::Half),
            'Z' => Some(ByeKind::Zero),
            _ => None,
        }
    }
}

/// `240 T RRR id id ...`: players (or teams) with a bye of type `T` in round `RRR`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ByeRecord {
    /// Column 5: the bye type.
    pub kind: ByeKind,
    /// Columns 7-9.
    pub round: u32,
    /// From column 11, every 5 columns; at least one.
    pub ids: Vec<PlayerId>,
}

/// `250`: fictitious points for ids `first_id..=last_id` in rounds `first_round..=last_round`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccelerationRecord {
    /// Columns 5-8: match points (team events); blank for individuals.
    pub match_points: Option<Score>,
    /// Columns 10-13: game points (individual events: the virtual points).
    pub game_points: Option<Score>,
    /// Columns 15-17.
    pub first_round: u32,
    /// Columns 19-21, not before `first_round`.
    pub last_round: u32,
    /// Columns 23-26.
    pub first_id: PlayerId,
    /// Columns 28-31, not below `first_id`.
    pub last_id: PlayerId,
}

/// `260`: the listed ids must not meet each other in rounds `first_round..=last_round`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProhibitedRecord {
    /// Columns 5-7.
    pub first_round: u32,
    /// Columns 9-11, not before `first_round`.
    pub last_round: u32,
    /// From column 13, every 5 columns; at least two.
    pub ids: Vec<PlayerId>,
}

/// `XXA NNNN pp.p pp.p ...`: the virtual points of one player, round by round from round 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct XxaRecord {
    /// Columns 5-8: the start number.
    pub player: PlayerId,
    /// Round `r` at columns `10 + 5(r-1)`, four columns each.
    pub points: Vec<Score>,
}

/// Options of an `XXC` line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum XxcOption {
    /// `rank`: pair by ranking ids instead of pairing ids.
    Rank,
    /// `white1`: the top player gets white in round 1.
    White1,
    /// `black1`: the top player gets black in round 1.
    Black1,
}

impl XxcOption {
    /// The option as written.
    pub fn as_str(self) -> &'static str {
        match self {
            XxcOption::Rank => "rank",
            XxcOption::White1 => "white1",
            XxcOption::Black1 => "black1",
        }
    }
}

/// Codes of an `XXS` line (JaVaFo scoring).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum XxsCode {
    /// `WW` win with white.
    WW,
    /// `BW` win with black.
    BW,
    /// `WD` draw with white.
    WD,
    /// `BD` draw with black.
    BD,
    /// `WL` loss with white.
    WL,
    /// `BL` loss with black.
    BL,
    /// `ZPB` zero-point bye.
    ZPB,
    /// `HPB` half-point bye.
    HPB,
    /// `FPB` full-point bye.
    FPB,
    /// `PAB` pairing-allocated bye.
    PAB,
    /// `FW` forfeit win.
    FW,
    /// `FL` forfeit loss.
    FL,
    /// `W`: shortcut for `WW BW FW FPB`.
    W,
    /// `D`: shortcut for `WD BD HPB`.
    D,
}

impl XxsCode {
    /// Every code.
    pub const ALL: [XxsCode; 14] = [
        XxsCode::WW,
        XxsCode::BW,
        XxsCode::WD,
        XxsCode::BD,
        XxsCode::WL,
        XxsCode::BL,
        XxsCode::ZPB,
        XxsCode::HPB,
        XxsCode::FPB,
        XxsCode::PAB,
        XxsCode::FW,
        XxsCode::FL,
        XxsCode::W,
        XxsCode::D,
    ];
    /// The code as written.
    pub fn as_str(self) -> &'static str {
        match self {
            XxsCode::WW => "WW",
            XxsCode::BW => "BW",
            XxsCode::WD => "WD",
            XxsCode::BD => "BD",
            XxsCode::WL => "WL",
            XxsCode::BL => "BL",
            XxsCode::ZPB => "ZPB",
            XxsCode::HPB => "HPB",
            XxsCode::FPB => "FPB",
            XxsCode::PAB => "PAB",
            XxsCode::FW => "FW",
            XxsCode::FL => "FL",
            XxsCode::W => "W",
            XxsCode::D => "D",
        }
    }
    /// The code for its (upper-case) spelling.
    pub fn parse_code(s: &str) -> Option<XxsCode> {
        XxsCode::ALL.into_iter().find(|c| c.as_str() == s)
    }
}

/// One `CODE=VALUE` of an `XXS` line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct XxsEntry {
    /// The code.
    pub code: XxsCode,
    /// Its value.
    pub points: Score,
}

/// bbpPairings point-value codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BbCode {
    /// `BBW` win (also forfeit win and full-point bye).
    W,
    /// `BBD` draw (also half-point bye).
    D,
    /// `BBL` played loss.
    L,
    /// `BBZ` zero-point bye.
    Z,
    /// `BBF` forfeit loss.
    F,
    /// `BBU` pairing-allocated bye (default: the win value).
    U,
}

impl BbCode {
    /// Every code.
    pub const ALL: [BbCode; 6] = [
        BbCode::W,
        BbCode::D,
        BbCode::L,
        BbCode::Z,
        BbCode::F,
        BbCode::U,
    ];
    /// The record identifier.
    pub fn code(self) -> &'static str {
        match self {
            BbCode::W => "BBW",
            BbCode::D => "BBD",
            BbCode::L => "BBL",
            BbCode::Z => "BBZ",
            BbCode::F => "BBF",
            BbCode::U => "BBU",
        }
    }
    /// The code for a record identifier.
    pub fn from_code(s: &str) -> Option<BbCode> {
        BbCode::ALL.into_iter().find(|c| c.code() == s)
    }
}

/// Which of the two writing conventions a file follows (docs/src/guide/files.md, "How arbiter writes TRF").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Profile {
    /// TRF16 with the JaVaFo (`XXR`, `XXC`, `XXA`, `XXS`, `XXZ`, `XXP`) and bbpPairings (`BB?`)
    /// extension lines: what engines that predate TRF-2026 read.
    Trf16X,
    /// TRF-2026: records `142`, `152`, `162`, `192`, `240`, `250`, `260`, ... and `###` comments.
    Trf2026,
}

/// Line terminator of a file. Readers accept all three; the writer uses the one asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum LineEnding {
    /// LF (Unix; the golden corpora).
    Lf,
    #[default]
    /// CR LF (the writer's default; docs/src/guide/files.md).
    CrLf,
    /// Lone CR (what the 2006 text literally asks for).
    Cr,
}

impl LineEnding {
    /// The terminator's characters.
    pub fn as_str(self) -> &'static str {
        match self {
            LineEnding::Lf => "\n",
            LineEnding::CrLf => "\r\n",
            LineEnding::Cr => "\r",
        }
    }
}
