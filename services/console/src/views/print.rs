//! Print layouts: the round's pairings for the wall, a score sheet a board, and the wall
//! chart (every player by pairing number, round by round: opponent, colour, result; the
//! points as the standings count them). Each is a page of its own whose print stylesheet drops the console's chrome.

use super::*;
use arbiter_proto::convert::result_code_from_wire;

/// The layouts, in the order the print screen lists them.
pub const LAYOUTS: [&str; 3] = ["pairings", "score-sheets", "wall-chart"];

/// What a print layout is made from.
pub struct PrintView<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub place: &'a str,
    /// The round printed (the current one) and its pairing, if published.
    pub round: u32,
    pub pairings: Option<&'a rep::RoundPairings>,
    pub players: &'a std::collections::HashMap<u32, arbiter_proto::registration::v1::PlayerDetails>,
    pub crosstable: Option<&'a rep::Crosstable>,
    pub rounds: u32,
}

/// The print screen: the layouts, each opened in its own page.
pub fn print_index(s: &Session, id: &str, name: &str, round: u32) -> Markup {
    page(
        s.lang,
        &format!("{} · {name}", t(s, "print")),
        Some(s),
        Some((id, name)),
        None,
        html! {
            h1 { (t(s, "print")) }
            p.hint { (t(s, "print-hint")) }
            ul id="layouts" {
                @for l in LAYOUTS {
                    li { a href={"/console/t/" (id) "/print/" (l)} { (t(s, &format!("print-{l}"))) } " " small { (ta(s, &format!("print-{l}-what"), &[("round", round.into())])) } }
                }
                li { a href={"/t/" (id) "/standings"} { (t(s, "standings")) } " · " a href={"/t/" (id) "/crosstable"} { (t(s, "crosstable")) } }
            }
        },
    )
}

fn who(v: &PrintView, pn: u32) -> (String, String) {
    match v.players.get(&pn) {
        Some(p) => (
            p.name.clone(),
            if p.rating > 0 {
                p.rating.to_string()
            } else {
                String::new()
            },
        ),
        None => (String::new(), String::new()),
    }
}

/// The result a player's cell shows, from his side.
fn cell_result(code: i32) -> &'static str {
    result_code_from_wire("result", code)
        .map(arbiter_pages::result_label)
        .unwrap_or("")
}

pub fn print_layout(s: &Session, what: &str, v: &PrintView) -> Markup {
    let title = format!("{} · {}", t(s, &format!("print-{what}")), v.name);
    let body = match what {
        "pairings" => pairings_sheet(s, v),
        "score-sheets" => score_sheets(s, v),
        _ => wall_chart(s, v),
    };
    page(
        s.lang,
        &title,
        Some(s),
        Some((v.id, v.name)),
        None,
        html! {
            div.print-only-note { (t(s, "print-tip")) }
            (body)
        },
    )
}

/// The round's published pairing, or the line saying there is none yet.
fn published<'a>(s: &Session, v: &PrintView<'a>) -> Result<&'a rep::RoundPairings, Markup> {
    match v.pairings {
        Some(p) if p.published => Ok(p),
        _ => Err(
            html! { p.flash.refused role="alert" id="not-published" { (ta(s, "print-not-published", &[("round", v.round.into())])) } },
        ),
    }
}

fn pairings_sheet(s: &Session, v: &PrintView) -> Markup {
    let p = match published(s, v) {
        Ok(p) => p,
        Err(m) => return m,
    };
    html! {
        h1.print-title { (v.name) " · " (ta(s, "round-n", &[("round", v.round.into())])) }
        div.scroll { table.print id="print-pairings" {
            thead { tr { th.num { (t(s, "board")) } th.num { (t(s, "no")) } th { (t(s, "white")) } th.num { (t(s, "rating")) } th.res { (t(s, "result")) } th.num { (t(s, "no")) } th { (t(s, "black")) } th.num { (t(s, "rating")) } } }
            tbody { @for b in p.boards.iter().filter_map(|b| b.board.as_ref()) {
                @let (wn, wr) = who(v, b.white);
                @let (bn, br) = who(v, b.black);
                tr { td.num { (b.number) } td.num { (b.white) } td.name { (wn) } td.num { (wr) } td.res { "–" } td.num { (b.black) } td.name { (bn) } td.num { (br) } }
            } }
        } }
        @if !p.unpaired.is_empty() {
            p { (t(s, "not-paired")) " "
                @for (i, u) in p.unpaired.iter().enumerate() {
                    @if i > 0 { ", " }
                    (u.player_id) " " (who(v, u.player_id).0) " (" (t(s, unpaired_text(u.code))) ")"
                }
            }
        }
    }
}

/// One sheet a board, 60 moves in two halves, the result and both signatures.
fn score_sheets(s: &Session, v: &PrintView) -> Markup {
    let p = match published(s, v) {
        Ok(p) => p,
        Err(m) => return m,
    };
    html! {
        @for b in p.boards.iter().filter_map(|b| b.board.as_ref()) {
            @let (wn, wr) = who(v, b.white);
            @let (bn, br) = who(v, b.black);
            section.sheet data-board=(b.number) {
                h2.print-title { (v.name) }
                dl.sheet-head {
                    dt { (t(s, "round")) } dd { (v.round) }
                    dt { (t(s, "board")) } dd { (b.number) }
                    @if !v.place.is_empty() { dt { (t(s, "place")) } dd { (v.place) } }
                    dt { (t(s, "white")) } dd.sheet-player { (b.white) ". " (wn) @if !wr.is_empty() { " (" (wr) ")" } }
                    dt { (t(s, "black")) } dd.sheet-player { (b.black) ". " (bn) @if !br.is_empty() { " (" (br) ")" } }
                }
                div.moves {
                    @for half in [1u32, 31] {
                        table.moves {
                            thead { tr { th.num { "" } th { (t(s, "white")) } th { (t(s, "black")) } } }
                            tbody { @for m in half..half + 30 { tr { td.num { (m) } td {} td {} } } }
                        }
                    }
                }
                p.sheet-foot { (t(s, "result")) ": ______  " (t(s, "signature-white")) ": ______________  " (t(s, "signature-black")) ": ______________" }
            }
        }
    }
}

/// Every player by pairing number, a column a round: opponent, colour and result from his
/// side; the total is the standings' (its scoring system), never summed here.
fn wall_chart(s: &Session, v: &PrintView) -> Markup {
    let Some(x) = v.crosstable else {
        return html! { p.flash.refused role="alert" { (t(s, "print-no-crosstable")) } };
    };
    let mut rows: Vec<&rep::CrosstableRow> = x.rows.iter().collect();
    rows.sort_by_key(|r| r.pairing_number);
    html! {
        h1.print-title { (v.name) " · " (t(s, "print-wall-chart")) }
        div.scroll { table.print.wall id="wall-chart" {
            thead { tr {
                th.num { (t(s, "no")) } th { (t(s, "name")) } th.num { (t(s, "rating")) }
                @for r in 1..=v.rounds { th.res { (r) } }
                th.num { (t(s, "pts")) }
            } }
            tbody { @for row in rows {
                tr data-player=(row.pairing_number) {
                    td.num { (row.pairing_number) }
                    td.name { (row.name) }
                    td.num { (who(v, row.pairing_number).1) }
                    @for r in 1..=v.rounds {
                        @match row.cells.iter().find(|c| c.round == r) {
                            Some(c) => td.res {
                                @if c.opponent > 0 { (c.opponent) (colour_letter(c.color)) " " }
                                (cell_result(c.result))
                            },
                            None => td.res {},
                        }
                    }
                    td.num { (points(arbiter_proto::tenths(row.score.as_ref()))) }
                }
            } }
        } }
    }
}

fn colour_letter(c: i32) -> &'static str {
    match pb::Color::try_from(c).unwrap_or(pb::Color::Unspecified) {
        pb::Color::White => "w",
        pb::Color::Black => "b",
        pb::Color::Unspecified => "",
    }
}
