//! The plain data the pages are drawn from. Every field is already what the page shows
//! (formatted points, places, tie-break values); the builders in [`crate::build`] fill them from
//! the tie-break engine's standings and the players' round histories.

use arbiter_core::{Color, PlayerId, RoundEntry};

/// What every page has besides its tables.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Page {
    /// The event name: document title and main heading.
    pub title: String,
    /// The line under the heading (e.g. "Standings after round 5"); each page has a default.
    pub subtitle: Option<String>,
    /// Document language (`lang`); "en" when absent.
    pub lang: Option<String>,
    /// Links shown under the heading (other pages of the event).
    pub nav: Vec<Link>,
    /// Where a player's name links to: `{id}` is replaced by the pairing number, e.g.
    /// `/events/open-2026/players/{id}`. No links when absent.
    pub player_href: Option<String>,
    /// The event's facts shown under the heading, in order (e.g. `("Place", "Bergen")`,
    /// `("Chief arbiter", "IA Doe, Jane")`); empty values are left out.
    pub facts: Vec<(String, String)>,
    /// A line at the bottom (rules used, time of the last update, ...).
    pub footer: Option<String>,
    /// Live updates: when set, a small inline script subscribes to the server-sent events and
    /// reloads the page's table when one arrives. The page works the same without it.
    pub live: Option<Live>,
}

/// A link of the navigation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub label: String,
    pub href: String,
}

impl Link {
    pub fn new(label: impl Into<String>, href: impl Into<String>) -> Link {
        Link {
            label: label.into(),
            href: href.into(),
        }
    }
}

/// Server-sent events the page listens to.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Live {
    /// The event-stream URL (`text/event-stream`).
    pub url: String,
    /// Event names that trigger a reload; empty means unnamed events (`message`).
    pub events: Vec<String>,
}

impl Live {
    /// Reload on every unnamed event of `url`.
    pub fn new(url: impl Into<String>) -> Live {
        Live {
            url: url.into(),
            events: Vec::new(),
        }
    }
}

/// Who a line of a table is about.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PlayerInfo {
    /// Pairing number.
    pub id: PlayerId,
    pub name: String,
    /// FIDE title code (GM, IM, WGM, ...).
    pub title: Option<String>,
    pub rating: Option<u32>,
    pub federation: Option<String>,
}

/// Standings: places, points and tie-break values.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StandingsTable {
    /// Tie-break column headings, in order (e.g. `BH/C1`, `BH`, `SB`).
    pub tiebreaks: Vec<String>,
    /// In rank order.
    pub rows: Vec<StandingsRow>,
    /// Under the table: each tie-break code with its plain name.
    pub legend: Vec<(String, String)>,
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StandingsRow {
    /// Place; players equal on everything share `rank..=rank_to`.
    pub rank: u32,
    /// Last place of a shared range (`rank` when not shared).
    pub rank_to: u32,
    pub player: PlayerInfo,
    /// Points, formatted (e.g. "6.5").
    pub points: String,
    /// Tie-break values, formatted, one per [`StandingsTable::tiebreaks`] ("" = undefined).
    pub values: Vec<String>,
}

impl StandingsRow {
    /// "3" or, for a shared place, "3-4".
    pub fn place(&self) -> String {
        place_label(self.rank, self.rank_to)
    }
}

/// "3" or "3-4".
pub fn place_label(rank: u32, rank_to: u32) -> String {
    if rank_to > rank {
        format!("{rank}-{rank_to}")
    } else {
        rank.to_string()
    }
}

/// A Swiss crosstable: every player's opponent, colour and result round by round.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Crosstable {
    /// Round columns shown.
    pub rounds: u32,
    pub rows: Vec<CrosstableRow>,
    /// Rows are in rank order and numbered 1, 2, 3, ... in the `Rk` column, and opponents are
    /// referred to by that number, as chess-results.com does (the pairing number stays in the
    /// `No` column and in each cell's tooltip). Otherwise opponents are shown by pairing number.
    pub by_rank: bool,
    /// Footnotes on games: (round, the players whose cells carry the marker, the note); e.g. a
    /// result corrected for rating only (C.04.2 D.8). Numbered in this order.
    pub notes: Vec<(u32, Vec<PlayerId>, String)>,
}

/// One player of the crosstable.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CrosstableRow {
    /// Place label ("1", "3-4"); the column is shown when some row has one.
    pub place: Option<String>,
    pub player: PlayerInfo,
    /// Points, formatted.
    pub points: String,
    /// Round `r` is `rounds[r - 1]`, from this player's side; missing rounds show as blank.
    pub rounds: Vec<RoundEntry>,
}

/// The pairings of one round.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Pairings {
    pub round: u32,
    /// In board order.
    pub boards: Vec<Board>,
    /// Players without an opponent this round (pairing-allocated bye, requested byes, absent).
    pub byes: Vec<ByeLine>,
    /// Set when the arbiter changed the engine's pairing before publishing it: the note
    /// explaining the change (C.04.2.A.5).
    pub amendment: Option<String>,
}

/// One board.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Board {
    pub number: u32,
    pub white: Seat,
    pub black: Seat,
    /// "1-0", "½-½", "0-1", "+/-", "-/+", "-/-"; `None` while the game is on.
    pub result: Option<String>,
    /// A footnote on the result (e.g. a correction that counts for rating only).
    pub note: Option<String>,
}

/// A player at a board, with the points they brought to the round.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Seat {
    pub player: PlayerInfo,
    /// Points before the round, formatted.
    pub points: Option<String>,
}

/// A player not paired against anybody this round.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ByeLine {
    pub seat: Seat,
    /// What they get, in words ("pairing-allocated bye", "half-point bye", ...).
    pub kind: String,
}

/// One player's event: games, points, performance.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PlayerCard {
    pub player: PlayerInfo,
    /// Place label, when standings are known.
    pub place: Option<String>,
    /// Points, formatted.
    pub points: String,
    /// Round by round.
    pub games: Vec<CardGame>,
    /// Rating performance over the games played against rated opponents.
    pub performance: Option<CardPerformance>,
    /// Tie-break names and values, formatted.
    pub tiebreaks: Vec<(String, String)>,
    /// The rating change over the event so far, formatted with its sign (e.g. "+12.4"), and
    /// what it counts (e.g. "through round 5, K 20").
    pub rating_change: Option<(String, String)>,
}

/// One round of a player card.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CardGame {
    pub round: u32,
    /// `None` for byes and absences.
    pub opponent: Option<PlayerInfo>,
    pub color: Option<Color>,
    /// The result symbol ("1", "½", "0", "+", "-", or a bye label, see
    /// [`crate::result_label`]).
    pub result: String,
    /// The result in words (e.g. "win", "forfeit loss", "half-point bye").
    pub description: String,
    /// The rating change of this game (`K × (score − expected score)`), formatted with its sign;
    /// `None` when the game is not rated or not computed yet.
    pub rating_change: Option<String>,
    /// A footnote on the result (e.g. a correction that counts for rating only).
    pub note: Option<String>,
}

/// One tournament on the index page.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TournamentSummary {
    pub name: String,
    /// Its pages.
    pub href: String,
    pub place: String,
    /// e.g. "2026-03-01 to 2026-03-03".
    pub dates: String,
    pub rounds: u32,
    pub players: u32,
    /// e.g. "registration", "round 3 of 9 in progress", "finished".
    pub status: String,
    /// Further links (crosstable, last pairings, ...).
    pub links: Vec<Link>,
}

/// Performance over played games against rated opponents (B.01 1.4.8 arithmetic).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CardPerformance {
    pub games: u32,
    /// Points in those games, formatted.
    pub points: String,
    /// Average rating of the opponents (rounded).
    pub average_opponent: i32,
    /// Rating performance.
    pub performance: i32,
}

/// A round robin's (or team table's) whole schedule, fixed before round 1.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Schedule {
    /// How the pairing numbers were drawn (e.g. "Varma draw from the published seed ..."),
    /// shown above the table.
    pub draw: String,
    pub rounds: Vec<ScheduleRound>,
    /// Games between two players of one federation: (round, white, black).
    pub compatriots: Vec<(u32, PlayerInfo, PlayerInfo)>,
    /// A team-table event's teams: (name, first and last pairing number, points so far).
    pub teams: Vec<(String, u32, u32, String)>,
}

/// One round of a [`Schedule`].
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ScheduleRound {
    pub round: u32,
    /// Games in board order, white first.
    pub boards: Vec<(PlayerInfo, PlayerInfo)>,
    /// Who rests (odd round-robin fields).
    pub rest: Option<PlayerInfo>,
    /// Its pairing is published (the page links to it).
    pub published: bool,
}
