//! The four pages.

use crate::build::{result_description, result_label};
use crate::html::{document, escape, href_attr, player_link};
use crate::model::*;
use arbiter_core::{Color, ResultCode};
use std::fmt::Write as _;

/// Name cell content: title abbreviation, then the (linked) name.
fn name_html(page: &Page, p: &PlayerInfo) -> String {
    let mut s = String::new();
    if let Some(t) = p.title.as_deref().filter(|t| !t.trim().is_empty()) {
        let _ = write!(s, "<span class=\"title\">{}</span>", escape(t.trim()));
    }
    s.push_str(&player_link(page, p.id, &escape(&p.name)));
    s
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
    let mut m = String::new();
    m.push_str("<div class=\"scroll\">\n<table class=\"standings\">\n<thead><tr>");
    m.push_str("<th scope=\"col\" class=\"place\">Rk</th><th scope=\"col\" class=\"no opt\">No</th><th scope=\"col\" class=\"name\">Name</th><th scope=\"col\" class=\"rtg\">Rtg</th><th scope=\"col\" class=\"fed opt\">Fed</th><th scope=\"col\" class=\"pts\">Pts</th>");
    for t in &table.tiebreaks {
        let _ = write!(m, "<th scope=\"col\" class=\"tb\">{}</th>", escape(t));
    }
    m.push_str("</tr></thead>\n<tbody>\n");
    for r in &table.rows {
        let shared = r.rank_to > r.rank;
        let _ = write!(
            m,
            "<tr id=\"p{}\"><td class=\"place{}\">{}</td><td class=\"no opt\">{}</td><td class=\"name\">{}</td><td class=\"rtg\">{}</td><td class=\"fed opt\">{}</td><td class=\"pts\">{}</td>",
            r.player.id,
            if shared { " shared" } else { "" },
            escape(&r.place()),
            r.player.id,
            name_html(page, &r.player),
            opt_num(r.player.rating),
            escape(r.player.federation.as_deref().unwrap_or("")),
            escape(&r.points)
        );
        for k in 0..table.tiebreaks.len() {
            let v = r.values.get(k).map(String::as_str).unwrap_or("");
            let _ = write!(m, "<td class=\"tb\">{}</td>", escape(v));
        }
        m.push_str("</tr>\n");
    }
    m.push_str("</tbody>\n</table>\n</div>\n");
    if !table.legend.is_empty() {
        m.push_str("<h2>Tie-breaks</h2>\n<dl class=\"legend\">\n");
        for (code, name) in &table.legend {
            let _ = writeln!(m, "<dt>{}</dt><dd>{}</dd>", escape(code), escape(name));
        }
        m.push_str("</dl>\n");
    }
    let sub = page.subtitle.clone().unwrap_or_else(|| "Standings".into());
    document(page, "page-standings", &sub, &m)
}

/// One crosstable cell: opponent (linking to the opponent's row), colour, result. The
/// opponent is shown by `shown(o)` (the pairing number, or the opponent's rank number).
fn cross_cell(e: &arbiter_core::RoundEntry, shown: &dyn Fn(u32) -> String) -> String {
    let label = escape(result_label(e.result));
    let desc = result_description(e.result);
    match e.opponent {
        Some(o) => format!(
            "<td class=\"r {}\" title=\"{} {} against No {o}\"><a class=\"opp\" href=\"#p{o}\">{}</a><span class=\"c\">{}</span> <span class=\"res\">{label}</span></td>",
            result_class(e.result),
            desc,
            colour_word(e.color),
            escape(&shown(o)),
            colour_letter(e.color),
        ),
        None => format!(
            "<td class=\"r {}\" title=\"{desc}\"><span class=\"res\">{label}</span></td>",
            result_class(e.result)
        ),
    }
}

/// A footnote marker linking to note `n` (1-based) of [`footnotes`].
fn marker(n: usize) -> String {
    format!("<sup class=\"fn\"><a href=\"#note{n}\">{n}</a></sup>")
}

/// The numbered notes under a table (none: empty).
fn footnotes<'a>(notes: impl Iterator<Item = &'a str>) -> String {
    let items: Vec<String> = notes
        .enumerate()
        .map(|(i, t)| format!("<li id=\"note{}\">{}</li>", i + 1, escape(t)))
        .collect();
    if items.is_empty() {
        return String::new();
    }
    format!("<ol class=\"notes\">\n{}\n</ol>\n", items.join("\n"))
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
    let mut m = String::new();
    m.push_str("<div class=\"scroll\">\n<table class=\"crosstable\">\n<thead><tr>");
    if with_place {
        m.push_str("<th scope=\"col\" class=\"place\">Rk</th>");
    }
    m.push_str("<th scope=\"col\" class=\"no\">No</th><th scope=\"col\" class=\"name\">Name</th><th scope=\"col\" class=\"rtg opt\">Rtg</th><th scope=\"col\" class=\"fed opt\">Fed</th>");
    for r in 1..=table.rounds {
        let _ = write!(m, "<th scope=\"col\" class=\"round\">R{r}</th>");
    }
    m.push_str("<th scope=\"col\" class=\"pts\">Pts</th></tr></thead>\n<tbody>\n");
    for (i, row) in table.rows.iter().enumerate() {
        let _ = write!(m, "<tr id=\"p{}\">", row.player.id);
        if table.by_rank {
            let place = row.place.as_deref().unwrap_or("");
            let _ = write!(
                m,
                "<td class=\"place\" title=\"place {}\">{}</td>",
                escape(place),
                i + 1
            );
        } else if with_place {
            let _ = write!(
                m,
                "<td class=\"place\">{}</td>",
                escape(row.place.as_deref().unwrap_or(""))
            );
        }
        let _ = write!(
            m,
            "<td class=\"no\">{}</td><td class=\"name\">{}</td><td class=\"rtg opt\">{}</td><td class=\"fed opt\">{}</td>",
            row.player.id,
            name_html(page, &row.player),
            opt_num(row.player.rating),
            escape(row.player.federation.as_deref().unwrap_or(""))
        );
        for r in 0..table.rounds as usize {
            let note = table.notes.iter().position(|(round, who, _)| {
                *round as usize == r + 1 && who.contains(&row.player.id)
            });
            match row.rounds.get(r) {
                Some(e) => {
                    let cell = cross_cell(e, &shown);
                    match note {
                        // The marker goes inside the cell, before `</td>`.
                        Some(n) => {
                            m.push_str(cell.strip_suffix("</td>").unwrap_or(&cell));
                            m.push_str(&marker(n + 1));
                            m.push_str("</td>");
                        }
                        None => m.push_str(&cell),
                    }
                }
                None => m.push_str("<td class=\"r\"></td>"),
            }
        }
        let _ = writeln!(m, "<td class=\"pts\">{}</td></tr>", escape(&row.points));
    }
    m.push_str("</tbody>\n</table>\n</div>\n");
    m.push_str(&footnotes(table.notes.iter().map(|n| n.2.as_str())));
    let sub = page.subtitle.clone().unwrap_or_else(|| "Crosstable".into());
    document(page, "page-crosstable", &sub, &m)
}

fn seat_cells(page: &Page, s: &Seat, white_side: bool) -> String {
    let no = format!("<td class=\"no opt\">{}</td>", s.player.id);
    let name = format!("<td class=\"name\">{}</td>", name_html(page, &s.player));
    let rtg = format!("<td class=\"rtg opt\">{}</td>", opt_num(s.player.rating));
    let pts = format!(
        "<td class=\"pts\">{}</td>",
        escape(s.points.as_deref().unwrap_or(""))
    );
    if white_side {
        format!("{no}{name}{rtg}{pts}")
    } else {
        format!("{pts}{name}{rtg}{no}")
    }
}

/// The pairings of a round with board numbers, results when known, and the players without an
/// opponent (byes) underneath.
pub fn render_pairings(page: &Page, p: &Pairings) -> String {
    let mut m = String::new();
    if let Some(note) = &p.amendment {
        let note = note.trim();
        let _ = writeln!(
            m,
            "<p class=\"amended\"><strong>Amended by the arbiter.</strong>{}{}</p>",
            if note.is_empty() { "" } else { " " },
            escape(note)
        );
    }
    m.push_str("<div class=\"scroll\">\n<table class=\"pairings\">\n<thead><tr>");
    m.push_str("<th scope=\"col\" class=\"board\">Bd</th><th scope=\"col\" class=\"no opt\">No</th><th scope=\"col\" class=\"name\">White</th><th scope=\"col\" class=\"rtg opt\">Rtg</th><th scope=\"col\" class=\"pts\">Pts</th><th scope=\"col\" class=\"res\">Result</th><th scope=\"col\" class=\"pts\">Pts</th><th scope=\"col\" class=\"name\">Black</th><th scope=\"col\" class=\"rtg opt\">Rtg</th><th scope=\"col\" class=\"no opt\">No</th>");
    m.push_str("</tr></thead>\n<tbody>\n");
    let mut notes = Vec::new();
    for b in &p.boards {
        let mark = match &b.note {
            Some(n) => {
                notes.push(n.as_str());
                marker(notes.len())
            }
            None => String::new(),
        };
        let _ = writeln!(
            m,
            "<tr id=\"b{}\"><td class=\"board\">{}</td>{}<td class=\"res\">{}{mark}</td>{}</tr>",
            b.number,
            b.number,
            seat_cells(page, &b.white, true),
            escape(b.result.as_deref().unwrap_or("")),
            seat_cells(page, &b.black, false)
        );
    }
    m.push_str("</tbody>\n</table>\n</div>\n");
    m.push_str(&footnotes(notes.into_iter()));
    if !p.byes.is_empty() {
        m.push_str("<h2>Not paired</h2>\n<div class=\"scroll\">\n<table class=\"byes\">\n<thead><tr><th scope=\"col\" class=\"no\">No</th><th scope=\"col\" class=\"name\">Name</th><th scope=\"col\" class=\"pts\">Pts</th><th scope=\"col\" class=\"bye\">Bye</th></tr></thead>\n<tbody>\n");
        for b in &p.byes {
            let _ = writeln!(
                m,
                "<tr><td class=\"no\">{}</td><td class=\"name\">{}</td><td class=\"pts\">{}</td><td class=\"bye\">{}</td></tr>",
                b.seat.player.id,
                name_html(page, &b.seat.player),
                escape(b.seat.points.as_deref().unwrap_or("")),
                escape(&b.kind)
            );
        }
        m.push_str("</tbody>\n</table>\n</div>\n");
    }
    let sub = page
        .subtitle
        .clone()
        .unwrap_or_else(|| format!("Pairings, round {}", p.round));
    document(page, "page-pairings", &sub, &m)
}

/// A round robin's whole schedule: how the numbers were drawn, every round's games (a published
/// round links to its pairing page), who rests, and the rounds in which compatriots meet.
pub fn render_schedule(page: &Page, s: &Schedule, round_href: &str) -> String {
    let mut m = String::new();
    if !s.draw.is_empty() {
        let _ = writeln!(m, "<p class=\"draw\">{}</p>", escape(&s.draw));
    }
    m.push_str("<div class=\"scroll\">\n<table class=\"schedule\">\n<thead><tr><th scope=\"col\" class=\"round\">Round</th><th scope=\"col\" class=\"games\">Boards (White first)</th><th scope=\"col\" class=\"rest\">Rests</th></tr></thead>\n<tbody>\n");
    let who = |p: &PlayerInfo| format!("{} {}", p.id, name_html(page, p));
    for r in &s.rounds {
        let label = if r.published {
            format!(
                "<a {}>{}</a>",
                href_attr(&round_href.replace("{round}", &r.round.to_string())),
                r.round
            )
        } else {
            r.round.to_string()
        };
        let games: Vec<String> = r
            .boards
            .iter()
            .enumerate()
            .map(|(i, (w, b))| {
                format!(
                    "<div class=\"game\">{}. {} – {}</div>",
                    i + 1,
                    who(w),
                    who(b)
                )
            })
            .collect();
        let _ = writeln!(
            m,
            "<tr id=\"r{}\"><td class=\"round\">{label}</td><td class=\"games\">{}</td><td class=\"rest\">{}</td></tr>",
            r.round,
            games.concat(),
            r.rest.as_ref().map(&who).unwrap_or_default()
        );
    }
    m.push_str("</tbody>\n</table>\n</div>\n");
    if !s.teams.is_empty() {
        m.push_str("<h2>Teams</h2>\n<table class=\"teams\">\n<thead><tr><th scope=\"col\" class=\"name\">Team</th><th scope=\"col\" class=\"no\">Players</th><th scope=\"col\" class=\"pts\">Points</th></tr></thead>\n<tbody>\n");
        for (name, first, last, points) in &s.teams {
            let _ = writeln!(
                m,
                "<tr><td class=\"name\">{}</td><td class=\"no\">{first}-{last}</td><td class=\"pts\">{}</td></tr>",
                escape(name),
                escape(points)
            );
        }
        m.push_str("</tbody>\n</table>\n");
    }
    if !s.compatriots.is_empty() {
        m.push_str("<h2>Compatriots meet</h2>\n<ul class=\"compatriots\">\n");
        for (round, w, b) in &s.compatriots {
            let _ = writeln!(
                m,
                "<li>round {round}: {} – {} ({})</li>",
                who(w),
                who(b),
                escape(w.federation.as_deref().unwrap_or(""))
            );
        }
        m.push_str("</ul>\n");
    }
    let sub = page
        .subtitle
        .clone()
        .unwrap_or_else(|| "Schedule".to_string());
    document(page, "page-schedule", &sub, &m)
}

/// One player's page: facts, every round (opponent, colour, result) and the performance.
pub fn render_player_card(page: &Page, card: &PlayerCard) -> String {
    let mut m = String::new();
    let p = &card.player;
    m.push_str("<dl class=\"facts\">\n");
    let mut fact = |k: &str, v: String| {
        if !v.is_empty() {
            let _ = writeln!(m, "<dt>{}</dt><dd>{v}</dd>", escape(k));
        }
    };
    fact("Name", {
        let mut s = String::new();
        if let Some(t) = p.title.as_deref().filter(|t| !t.trim().is_empty()) {
            let _ = write!(s, "<span class=\"title\">{}</span>", escape(t.trim()));
        }
        s.push_str(&escape(&p.name));
        s
    });
    fact("No", p.id.to_string());
    fact("Rating", opt_num(p.rating));
    fact(
        "Federation",
        escape(p.federation.as_deref().unwrap_or_default()),
    );
    fact("Place", escape(card.place.as_deref().unwrap_or_default()));
    fact("Points", escape(&card.points));
    if let Some((total, what)) = &card.rating_change {
        let what = if what.is_empty() {
            String::new()
        } else {
            format!(" <span class=\"muted\">({})</span>", escape(what))
        };
        fact(
            "Rating change",
            format!("<span class=\"rchg\">{}</span>{what}", escape(total)),
        );
    }
    m.push_str("</dl>\n");

    let with_change = card.games.iter().any(|g| g.rating_change.is_some());
    m.push_str("<h2>Games</h2>\n<div class=\"scroll\">\n<table class=\"games\">\n<thead><tr><th scope=\"col\" class=\"round\">Rd</th><th scope=\"col\" class=\"c\">Colour</th><th scope=\"col\" class=\"no opt\">No</th><th scope=\"col\" class=\"name\">Opponent</th><th scope=\"col\" class=\"rtg\">Rtg</th><th scope=\"col\" class=\"res\">Result</th>");
    if with_change {
        m.push_str("<th scope=\"col\" class=\"rchg\" title=\"rating change: K × (score − expected score)\">±</th>");
    }
    m.push_str("</tr></thead>\n<tbody>\n");
    let mut notes = Vec::new();
    for g in &card.games {
        let (no, name, rtg) = match &g.opponent {
            Some(o) => (o.id.to_string(), name_html(page, o), opt_num(o.rating)),
            None => (String::new(), escape(&g.description), String::new()),
        };
        let mark = match &g.note {
            Some(n) => {
                notes.push(n.as_str());
                marker(notes.len())
            }
            None => String::new(),
        };
        let _ = write!(
            m,
            "<tr id=\"r{}\"><td class=\"round\">{}</td><td class=\"c\">{}</td><td class=\"no opt\">{no}</td><td class=\"name\">{name}</td><td class=\"rtg\">{rtg}</td><td class=\"res\" title=\"{}\">{}{mark}</td>",
            g.round,
            g.round,
            colour_letter(g.color),
            escape(&g.description),
            escape(&g.result)
        );
        if with_change {
            let v = g.rating_change.as_deref().unwrap_or("");
            let class = if v.starts_with('+') {
                "rchg up"
            } else if v.starts_with('-') {
                "rchg down"
            } else {
                "rchg"
            };
            let _ = write!(m, "<td class=\"{class}\">{}</td>", escape(v));
        }
        m.push_str("</tr>\n");
    }
    m.push_str("</tbody>\n</table>\n</div>\n");
    m.push_str(&footnotes(notes.into_iter()));

    m.push_str("<h2>Performance</h2>\n");
    match &card.performance {
        Some(pf) => {
            let _ = writeln!(
                m,
                "<dl class=\"facts performance\">\n<dt>Rated games</dt><dd>{}</dd>\n<dt>Points</dt><dd>{}</dd>\n<dt>Average opponent</dt><dd>{}</dd>\n<dt>Performance</dt><dd>{}</dd>\n</dl>",
                pf.games,
                escape(&pf.points),
                pf.average_opponent,
                pf.performance
            );
        }
        None => m.push_str("<p class=\"performance\">No games against rated opponents.</p>\n"),
    }
    if !card.tiebreaks.is_empty() {
        m.push_str("<h2>Tie-breaks</h2>\n<dl class=\"facts tiebreaks\">\n");
        for (k, v) in &card.tiebreaks {
            let _ = writeln!(m, "<dt>{}</dt><dd>{}</dd>", escape(k), escape(v));
        }
        m.push_str("</dl>\n");
    }
    let sub = page.subtitle.clone().unwrap_or_else(|| p.name.clone());
    document(page, "page-player", &sub, &m)
}

/// The index of every tournament: name (linking to its pages), place, dates, rounds, players,
/// status and further links.
pub fn render_index(page: &Page, tournaments: &[TournamentSummary]) -> String {
    let mut m = String::new();
    if tournaments.is_empty() {
        m.push_str("<p class=\"empty\">No tournaments yet.</p>\n");
    } else {
        m.push_str("<div class=\"scroll\">\n<table class=\"tournaments\">\n<thead><tr><th scope=\"col\" class=\"name\">Tournament</th><th scope=\"col\" class=\"where opt\">Place</th><th scope=\"col\" class=\"dates\">Dates</th><th scope=\"col\" class=\"rounds\">Rounds</th><th scope=\"col\" class=\"players\">Players</th><th scope=\"col\" class=\"status\">Status</th><th scope=\"col\" class=\"links opt\">Pages</th></tr></thead>\n<tbody>\n");
        for t in tournaments {
            let links: Vec<String> = t
                .links
                .iter()
                .map(|l| format!("<a {}>{}</a>", href_attr(&l.href), escape(&l.label)))
                .collect();
            let _ = writeln!(
                m,
                "<tr><td class=\"name\"><a {}>{}</a></td><td class=\"where opt\">{}</td><td class=\"dates\">{}</td><td class=\"rounds\">{}</td><td class=\"players\">{}</td><td class=\"status\">{}</td><td class=\"links opt\">{}</td></tr>",
                href_attr(&t.href),
                escape(&t.name),
                escape(&t.place),
                escape(&t.dates),
                t.rounds,
                t.players,
                escape(&t.status),
                links.join(" · ")
            );
        }
        m.push_str("</tbody>\n</table>\n</div>\n");
    }
    let sub = page
        .subtitle
        .clone()
        .unwrap_or_else(|| "Tournaments".into());
    document(page, "page-index", &sub, &m)
}
