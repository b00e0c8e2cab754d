//! The pages, as maud templates: every value is escaped as it is inserted.

use crate::build::{result_description, result_label};
use crate::html::{document, link, player_link};
use crate::model::*;
use arbiter_core::{Color, ResultCode};
use maud::{Markup, html};

/// Name cell content: title abbreviation, then the (linked) name.
fn name_html(page: &Page, p: &PlayerInfo) -> Markup {
    html! {
        @if let Some(t) = p.title.as_deref().filter(|t| !t.trim().is_empty()) {
            span.title { (t.trim()) }
        }
        (player_link(page, p.id, html! { (p.name) }))
    }
}

fn opt_num(v: Option<u32>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

fn colour_letter(c: Option<Color>) -> &'static str {
    match c {
        Some(Color::White) => "w",
        Some(Color::Black) => "b",
        None => "",
    }
}

fn colour_word(c: Option<Color>) -> &'static str {
    match c {
        Some(Color::White) => "white",
        Some(Color::Black) => "black",
        None => "",
    }
}

/// Standings with tie-break columns; shared places are written as ranges (`3-4`).
pub fn render_standings(page: &Page, table: &StandingsTable) -> String {
    let m = html! {
        div.scroll {
            table.standings {
                thead { tr {
                    th scope="col" class="place" { "Rk" }
                    th scope="col" class="no opt" { "No" }
                    th scope="col" class="name" { "Name" }
                    th scope="col" class="rtg" { "Rtg" }
                    th scope="col" class="fed opt" { "Fed" }
                    th scope="col" class="pts" { "Pts" }
                    @for t in &table.tiebreaks { th scope="col" class="tb" { (t) } }
                } }
                tbody {
                    @for r in &table.rows {
                        tr id={ "p" (r.player.id) } {
                            td.place.shared[r.rank_to > r.rank] { (r.place()) }
                            td class="no opt" { (r.player.id) }
                            td.name { (name_html(page, &r.player)) }
                            td.rtg { (opt_num(r.player.rating)) }
                            td class="fed opt" { (r.player.federation.as_deref().unwrap_or("")) }
                            td.pts { (r.points) }
                            @for k in 0..table.tiebreaks.len() {
                                td.tb { (r.values.get(k).map(String::as_str).unwrap_or("")) }
                            }
                        }
                    }
                }
            }
        }
        @if !table.legend.is_empty() {
            h2 { "Tie-breaks" }
            dl.legend { @for (code, name) in &table.legend { dt { (code) } dd { (name) } } }
        }
    };
    let sub = page.subtitle.clone().unwrap_or_else(|| "Standings".into());
    document(page, "page-standings", &sub, m)
}

/// One crosstable cell: opponent (linking to the opponent's row), colour, result, and the
/// footnote marker when the game has a note. The opponent is shown by `shown(o)` (the pairing
/// number, or the opponent's rank number).
fn cross_cell(
    e: &arbiter_core::RoundEntry,
    shown: &dyn Fn(u32) -> String,
    note: Option<usize>,
) -> Markup {
    let label = result_label(e.result);
    let desc = result_description(e.result);
    let class = format!("r {}", result_class(e.result));
    html! {
        @match e.opponent {
            Some(o) => td class=(class) title={ (desc) " " (colour_word(e.color)) " against No " (o) } {
                a.opp href={ "#p" (o) } { (shown(o)) }
                span.c { (colour_letter(e.color)) }
                " "
                span.res { (label) }
                @if let Some(n) = note { (marker(n)) }
            },
            None => td class=(class) title=(desc) {
                span.res { (label) }
                @if let Some(n) = note { (marker(n)) }
            },
        }
    }
}

/// A footnote marker linking to note `n` (1-based) of [`footnotes`].
fn marker(n: usize) -> Markup {
    html! { sup.fn { a href={ "#note" (n) } { (n) } } }
}

/// The numbered notes under a table (none: nothing).
fn footnotes<'a>(notes: impl Iterator<Item = &'a str>) -> Markup {
    let notes: Vec<&str> = notes.collect();
    html! {
        @if !notes.is_empty() {
            ol.notes { @for (i, t) in notes.iter().enumerate() { li id={ "note" (i + 1) } { (t) } } }
        }
    }
}

fn result_class(r: ResultCode) -> &'static str {
    match r {
        ResultCode::Win | ResultCode::WinUnrated => "win",
        ResultCode::Draw | ResultCode::DrawUnrated => "draw",
        ResultCode::Loss | ResultCode::LossUnrated => "loss",
        ResultCode::ForfeitWin => "fwin",
        ResultCode::ForfeitLoss => "floss",
        ResultCode::PairingBye | ResultCode::FullBye | ResultCode::HalfBye => "bye",
        ResultCode::ZeroBye => "absent",
    }
}

/// A Swiss crosstable: per round the opponent's pairing number (a link to that row), the
/// colour and the result. Wide tables scroll sideways with the name column kept in view.
///
/// With [`Crosstable::by_rank`], the first column numbers the rows 1, 2, 3, ... (a shared place
/// keeps its range in the tooltip) and opponents are referred to by that number.
pub fn render_crosstable(page: &Page, table: &Crosstable) -> String {
    let with_place = table.by_rank || table.rows.iter().any(|r| r.place.is_some());
    let line: std::collections::HashMap<u32, usize> = table
        .rows
        .iter()
        .enumerate()
        .map(|(i, r)| (r.player.id, i + 1))
        .collect();
    let shown = |o: u32| -> String {
        if table.by_rank {
            line.get(&o).map_or_else(String::new, |n| n.to_string())
        } else {
            o.to_string()
        }
    };
    let note_of = |round: usize, id: u32| {
        table
            .notes
            .iter()
            .position(|(r, who, _)| *r as usize == round && who.contains(&id))
            .map(|n| n + 1)
    };
    let m = html! {
        div.scroll {
            table.crosstable {
                thead { tr {
                    @if with_place { th scope="col" class="place" { "Rk" } }
                    th scope="col" class="no" { "No" }
                    th scope="col" class="name" { "Name" }
                    th scope="col" class="rtg opt" { "Rtg" }
                    th scope="col" class="fed opt" { "Fed" }
                    @for r in 1..=table.rounds { th scope="col" class="round" { "R" (r) } }
                    th scope="col" class="pts" { "Pts" }
                } }
                tbody {
                    @for (i, row) in table.rows.iter().enumerate() {
                        tr id={ "p" (row.player.id) } {
                            @if table.by_rank {
                                td.place title={ "place " (row.place.as_deref().unwrap_or("")) } { (i + 1) }
                            } @else if with_place {
                                td.place { (row.place.as_deref().unwrap_or("")) }
                            }
                            td.no { (row.player.id) }
                            td.name { (name_html(page, &row.player)) }
                            td class="rtg opt" { (opt_num(row.player.rating)) }
                            td class="fed opt" { (row.player.federation.as_deref().unwrap_or("")) }
                            @for r in 0..table.rounds as usize {
                                @match row.rounds.get(r) {
                                    Some(e) => (cross_cell(e, &shown, note_of(r + 1, row.player.id))),
                                    None => td.r {},
                                }
                            }
                            td.pts { (row.points) }
                        }
                    }
                }
            }
        }
        (footnotes(table.notes.iter().map(|n| n.2.as_str())))
    };
    let sub = page.subtitle.clone().unwrap_or_else(|| "Crosstable".into());
    document(page, "page-crosstable", &sub, m)
}

/// A seat's cells, mirrored on Black's side.
fn seat_cells(page: &Page, s: &Seat, white_side: bool) -> Markup {
    let no = html! { td class="no opt" { (s.player.id) } };
    let name = html! { td.name { (name_html(page, &s.player)) } };
    let rtg = html! { td class="rtg opt" { (opt_num(s.player.rating)) } };
    let pts = html! { td.pts { (s.points.as_deref().unwrap_or("")) } };
    if white_side {
        html! { (no) (name) (rtg) (pts) }
    } else {
        html! { (pts) (name) (rtg) (no) }
    }
}

/// The pairings of a round with board numbers, results when known, and the players without an
/// opponent (byes) underneath.
pub fn render_pairings(page: &Page, p: &Pairings) -> String {
    // Boards with a note get consecutive footnote numbers.
    let mut notes = Vec::new();
    let marks: Vec<Option<usize>> = p
        .boards
        .iter()
        .map(|b| {
            b.note.as_deref().map(|n| {
                notes.push(n);
                notes.len()
            })
        })
        .collect();
    let m = html! {
        @if let Some(note) = &p.amendment {
            p.amended {
                strong { "Amended by the arbiter." }
                @if !note.trim().is_empty() { " " (note.trim()) }
            }
        }
        div.scroll {
            table.pairings {
                thead { tr {
                    th scope="col" class="board" { "Bd" }
                    th scope="col" class="no opt" { "No" }
                    th scope="col" class="name" { "White" }
                    th scope="col" class="rtg opt" { "Rtg" }
                    th scope="col" class="pts" { "Pts" }
                    th scope="col" class="res" { "Result" }
                    th scope="col" class="pts" { "Pts" }
                    th scope="col" class="name" { "Black" }
                    th scope="col" class="rtg opt" { "Rtg" }
                    th scope="col" class="no opt" { "No" }
                } }
                tbody {
                    @for (b, mark) in p.boards.iter().zip(&marks) {
                        tr id={ "b" (b.number) } {
                            td.board { (b.number) }
                            (seat_cells(page, &b.white, true))
                            td.res {
                                (b.result.as_deref().unwrap_or(""))
                                @if let Some(n) = mark { (marker(*n)) }
                            }
                            (seat_cells(page, &b.black, false))
                        }
                    }
                }
            }
        }
        (footnotes(notes.into_iter()))
        @if !p.byes.is_empty() {
            h2 { "Not paired" }
            div.scroll {
                table.byes {
                    thead { tr {
                        th scope="col" class="no" { "No" }
                        th scope="col" class="name" { "Name" }
                        th scope="col" class="pts" { "Pts" }
                        th scope="col" class="bye" { "Bye" }
                    } }
                    tbody {
                        @for b in &p.byes {
                            tr {
                                td.no { (b.seat.player.id) }
                                td.name { (name_html(page, &b.seat.player)) }
                                td.pts { (b.seat.points.as_deref().unwrap_or("")) }
                                td.bye { (b.kind) }
                            }
                        }
                    }
                }
            }
        }
    };
    let sub = page
        .subtitle
        .clone()
        .unwrap_or_else(|| format!("Pairings, round {}", p.round));
    document(page, "page-pairings", &sub, m)
}

/// A round robin's whole schedule: how the numbers were drawn, every round's games (a published
/// round links to its pairing page), who rests, and the rounds in which compatriots meet.
pub fn render_schedule(page: &Page, s: &Schedule, round_href: &str) -> String {
    let who = |p: &PlayerInfo| html! { (p.id) " " (name_html(page, p)) };
    let m = html! {
        @if !s.draw.is_empty() { p.draw { (s.draw) } }
        div.scroll {
            table.schedule {
                thead { tr {
                    th scope="col" class="round" { "Round" }
                    th scope="col" class="games" { "Boards (White first)" }
                    th scope="col" class="rest" { "Rests" }
                } }
                tbody {
                    @for r in &s.rounds {
                        tr id={ "r" (r.round) } {
                            td.round {
                                @if r.published {
                                    (link(&round_href.replace("{round}", &r.round.to_string()), html! { (r.round) }))
                                } @else {
                                    (r.round)
                                }
                            }
                            td.games {
                                @for (i, (w, b)) in r.boards.iter().enumerate() {
                                    div.game { (i + 1) ". " (who(w)) " – " (who(b)) }
                                }
                            }
                            td.rest { @if let Some(p) = &r.rest { (who(p)) } }
                        }
                    }
                }
            }
        }
        @if !s.teams.is_empty() {
            h2 { "Teams" }
            table.teams {
                thead { tr {
                    th scope="col" class="name" { "Team" }
                    th scope="col" class="no" { "Players" }
                    th scope="col" class="pts" { "Points" }
                } }
                tbody {
                    @for (name, first, last, points) in &s.teams {
                        tr { td.name { (name) } td.no { (first) "-" (last) } td.pts { (points) } }
                    }
                }
            }
        }
        @if !s.compatriots.is_empty() {
            h2 { "Compatriots meet" }
            ul.compatriots {
                @for (round, w, b) in &s.compatriots {
                    li {
                        "round " (round) ": " (who(w)) " – " (who(b))
                        " (" (w.federation.as_deref().unwrap_or("")) ")"
                    }
                }
            }
        }
    };
    let sub = page
        .subtitle
        .clone()
        .unwrap_or_else(|| "Schedule".to_string());
    document(page, "page-schedule", &sub, m)
}

/// One player's page: facts, every round (opponent, colour, result) and the performance.
pub fn render_player_card(page: &Page, card: &PlayerCard) -> String {
    let p = &card.player;
    let title = p.title.as_deref().map(str::trim).filter(|t| !t.is_empty());
    let federation = p.federation.as_deref().unwrap_or_default();
    let place = card.place.as_deref().unwrap_or_default();
    let rating = opt_num(p.rating);
    let with_change = card.games.iter().any(|g| g.rating_change.is_some());
    // Games with a note get consecutive footnote numbers.
    let mut notes = Vec::new();
    let marks: Vec<Option<usize>> = card
        .games
        .iter()
        .map(|g| {
            g.note.as_deref().map(|n| {
                notes.push(n);
                notes.len()
            })
        })
        .collect();
    let change_class = |v: &str| {
        if v.starts_with('+') {
            "rchg up"
        } else if v.starts_with('-') {
            "rchg down"
        } else {
            "rchg"
        }
    };
    let m = html! {
        dl.facts {
            dt { "Name" }
            dd { @if let Some(t) = title { span.title { (t) } } (p.name) }
            dt { "No" } dd { (p.id) }
            @if !rating.is_empty() { dt { "Rating" } dd { (rating) } }
            @if !federation.is_empty() { dt { "Federation" } dd { (federation) } }
            @if !place.is_empty() { dt { "Place" } dd { (place) } }
            @if !card.points.is_empty() { dt { "Points" } dd { (card.points) } }
            @if let Some((total, what)) = &card.rating_change {
                dt { "Rating change" }
                dd {
                    span.rchg { (total) }
                    @if !what.is_empty() { " " span.muted { "(" (what) ")" } }
                }
            }
        }
        h2 { "Games" }
        div.scroll {
            table.games {
                thead { tr {
                    th scope="col" class="round" { "Rd" }
                    th scope="col" class="c" { "Colour" }
                    th scope="col" class="no opt" { "No" }
                    th scope="col" class="name" { "Opponent" }
                    th scope="col" class="rtg" { "Rtg" }
                    th scope="col" class="res" { "Result" }
                    @if with_change {
                        th scope="col" class="rchg" title="rating change: K × (score − expected score)" { "±" }
                    }
                } }
                tbody {
                    @for (g, mark) in card.games.iter().zip(&marks) {
                        tr id={ "r" (g.round) } {
                            td.round { (g.round) }
                            td.c { (colour_letter(g.color)) }
                            @match &g.opponent {
                                Some(o) => {
                                    td class="no opt" { (o.id) }
                                    td.name { (name_html(page, o)) }
                                    td.rtg { (opt_num(o.rating)) }
                                },
                                None => {
                                    td class="no opt" {}
                                    td.name { (g.description) }
                                    td.rtg {}
                                },
                            }
                            td.res title=(g.description) {
                                (g.result)
                                @if let Some(n) = mark { (marker(*n)) }
                            }
                            @if with_change {
                                @let v = g.rating_change.as_deref().unwrap_or("");
                                td class=(change_class(v)) { (v) }
                            }
                        }
                    }
                }
            }
        }
        (footnotes(notes.into_iter()))
        h2 { "Performance" }
        @match &card.performance {
            Some(pf) => dl class="facts performance" {
                dt { "Rated games" } dd { (pf.games) }
                dt { "Points" } dd { (pf.points) }
                dt { "Average opponent" } dd { (pf.average_opponent) }
                dt { "Performance" } dd { (pf.performance) }
            },
            None => p.performance { "No games against rated opponents." },
        }
        @if !card.tiebreaks.is_empty() {
            h2 { "Tie-breaks" }
            dl class="facts tiebreaks" { @for (k, v) in &card.tiebreaks { dt { (k) } dd { (v) } } }
        }
    };
    let sub = page.subtitle.clone().unwrap_or_else(|| p.name.clone());
    document(page, "page-player", &sub, m)
}

/// The index of every tournament: name (linking to its pages), place, dates, rounds, players,
/// status and further links.
pub fn render_index(page: &Page, tournaments: &[TournamentSummary]) -> String {
    let m = html! {
        @if tournaments.is_empty() {
            p.empty { "No tournaments yet." }
        } @else {
            div.scroll {
                table.tournaments {
                    thead { tr {
                        th scope="col" class="name" { "Tournament" }
                        th scope="col" class="where opt" { "Place" }
                        th scope="col" class="dates" { "Dates" }
                        th scope="col" class="rounds" { "Rounds" }
                        th scope="col" class="players" { "Players" }
                        th scope="col" class="status" { "Status" }
                        th scope="col" class="links opt" { "Pages" }
                    } }
                    tbody {
                        @for t in tournaments {
                            tr {
                                td.name { (link(&t.href, html! { (t.name) })) }
                                td class="where opt" { (t.place) }
                                td.dates { (t.dates) }
                                td.rounds { (t.rounds) }
                                td.players { (t.players) }
                                td.status { (t.status) }
                                td class="links opt" {
                                    @for (i, l) in t.links.iter().enumerate() {
                                        @if i > 0 { " · " }
                                        (link(&l.href, html! { (l.label) }))
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    };
    let sub = page
        .subtitle
        .clone()
        .unwrap_or_else(|| "Tournaments".into());
    document(page, "page-index", &sub, m)
}
