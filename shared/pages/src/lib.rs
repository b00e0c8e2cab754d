//! Server-side HTML pages of a tournament: standings (with a tie-break legend), Swiss crosstable
//! (by pairing number, or by rank as chess-results.com shows it), pairings of a round (with the
//! arbiter's amendment note), player cards (with rating changes), and an index of tournaments.
//!
//! Each page is one function from plain data to a complete HTML document (`String`): no I/O,
//! no templates on disk (the templates are compiled in), no JavaScript build step. Documents carry a small inline stylesheet
//! that reads well on a phone (tables scroll sideways inside their box, the name column stays
//! in view in the crosstable, optional columns are hidden on narrow screens) and prints cleanly
//! (`@media print`). The pages are maud templates, so every text from the data is escaped as
//! it is inserted; links only take relative, `http(s):` or `mailto:` targets ([`safe_href`]).
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
pub use html::safe_href;
pub use model::*;
pub use render::{
    render_crosstable, render_index, render_pairings, render_player_card, render_schedule,
    render_standings,
};

/// The media type of every page.
pub const CONTENT_TYPE: &str = "text/html; charset=utf-8";

/// The `Content-Security-Policy` every page is served with: nothing from elsewhere, the
/// page's own stylesheet and live script allowed by their SHA-256 (they are inline, so no
/// other inline script or style runs), the event stream and the live reload from the same
/// origin, and no framing.
pub fn content_security_policy() -> &'static str {
    static CSP: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        use base64::Engine as _;
        use sha2::Digest as _;
        let hash = |s: &str| {
            base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(s.as_bytes()))
        };
        format!(
            "default-src 'none'; script-src 'sha256-{}'; style-src 'sha256-{}'; \
             connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; \
             frame-ancestors 'none'",
            hash(html::LIVE_SCRIPT),
            hash(html::STYLE)
        )
    });
    &CSP
}

/// A page with a title and one paragraph (errors, refusals), in the pages' own layout.
pub fn render_message(title: &str, text: &str) -> String {
    let page = Page {
        title: title.to_string(),
        ..Page::default()
    };
    html::document(&page, "message", "", maud::html! { p { (text) } })
}

/// [`CONTENT_TYPE`], for routers that want a function.
pub const fn content_type() -> &'static str {
    CONTENT_TYPE
}

#[cfg(test)]
mod csp_tests {
    use super::*;
    use base64::Engine as _;
    use sha2::Digest as _;

    /// Every inline script and style of a rendered page is allowed by the policy's hashes.
    #[test]
    fn the_policy_allows_exactly_the_inline_script_and_style_of_a_page() {
        let page = Page {
            title: "T".into(),
            live: Some(Live::new("/t/x/events?after=1")),
            ..Page::default()
        };
        let html = render_message("Hello", "<b>");
        assert!(html.contains("<p>&lt;b&gt;</p>"));
        let full = html::document(&page, "standings", "", maud::html! { p { "x" } });
        let csp = content_security_policy();
        let mut seen = 0;
        for (open, close) in [("<script", "</script>"), ("<style", "</style>")] {
            let mut rest = full.as_str();
            while let Some(i) = rest.find(open) {
                let body_start = i + rest[i..].find('>').unwrap() + 1;
                let end = body_start + rest[body_start..].find(close).unwrap();
                let digest = sha2::Sha256::digest(&rest.as_bytes()[body_start..end]);
                let h = base64::engine::general_purpose::STANDARD.encode(digest);
                assert!(csp.contains(&format!("'sha256-{h}'")), "{open} not allowed");
                seen += 1;
                rest = &rest[end..];
            }
        }
        assert_eq!(seen, 2);
        assert!(csp.contains("frame-ancestors 'none'") && csp.contains("default-src 'none'"));
    }
}
