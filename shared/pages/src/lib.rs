//! Server-side HTML pages of a tournament: standings (with a tie-break legend), Swiss crosstable
//! (by pairing number, or by rank as chess-results.com shows it), pairings of a round (with the
//! arbiter's amendment note), player cards (with rating changes), and an index of tournaments.
//!
//! Each page is one function from plain data to a complete HTML document (`String`): no I/O,
//! no templates on disk, no JavaScript build step. Documents carry a small inline stylesheet
//! that reads well on a phone (tables scroll sideways inside their box, the name column stays
//! in view in the crosstable, optional columns are hidden on narrow screens) and prints cleanly
//! (`@media print`). Every text from the data is escaped ([`escape`]); links only take
//! relative, `http(s):` or `mailto:` targets ([`safe_href`]).
//!
//! When [`Page::live`] is set, the document ends with a tiny inline script that subscribes to
//! server-sent events at that URL and, on each event, fetches the page again and swaps in its
//! `<main id="live">`, header, footer and title. The pages are complete without it.
//!
//! Mounting on a web framework is a matter of returning the string with [`CONTENT_TYPE`]:
//!
//! ```
//! use arbiter_core::ResultCode;
//! use arbiter_pages::{Page, Live, StandingsTable, render_standings, CONTENT_TYPE};
//! use arbiter_tiebreak::{standings, Options, Player, TieBreakList, Tournament};
//!
//! let mut t = Tournament::new(1);
//! t.players.push(Player::new(1, "Alpha", Some(2100)));
//! t.players.push(Player::new(2, "Bravo", Some(2000)));
//! t.set_game(1, 1, 2, ResultCode::Win);
//! let list: TieBreakList = "BH,SB".parse().unwrap();
//! let st = standings(&t, &list.0, &Options::default()).unwrap();
//!
//! let page = Page {
//!     title: "Club Open".into(),
//!     player_href: Some("/events/club-open/players/{id}".into()),
//!     live: Some(Live::new("/events/club-open/stream")),
//!     ..Page::default()
//! };
//! let html = render_standings(&page, &StandingsTable::from_standings(&st));
//! assert!(html.starts_with("<!DOCTYPE html>"));
//! assert!(html.contains("<a href=\"/events/club-open/players/1\">Alpha</a>"));
//! assert_eq!(CONTENT_TYPE, "text/html; charset=utf-8");
//! ```

mod build;
mod html;
mod model;
mod render;

pub use build::{board_result, result_description, result_label, set_titles};
pub use html::{escape, safe_href};
pub use model::*;
pub use render::{
    render_crosstable, render_index, render_pairings, render_player_card, render_schedule,
    render_standings,
};

/// The media type of every page.
pub const CONTENT_TYPE: &str = "text/html; charset=utf-8";

/// [`CONTENT_TYPE`], for routers that want a function.
pub const fn content_type() -> &'static str {
    CONTENT_TYPE
}
