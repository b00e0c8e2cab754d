//! The public pages of a tournament, rendered on the server from the reporting projection, and
//! what keeps them current:
//!
//! ```text
//! GET /t/{id}                          overview: the standings, with links to every page
//! GET /t/{id}/standings[?after_round=N][&tiebreaks=BH/C1,BH,SB]
//! GET /t/{id}/crosstable
//! GET /t/{id}/pairings                 the last published round
//! GET /t/{id}/pairings/{round}
//! GET /t/{id}/players/{pn}             player card
//! GET /t/{id}/events[?after=V]         server-sent events: one per append to the stream
//! GET /api/tournaments/{id}/ranking[?after_round=N][&tiebreaks=...]   standings with tie-breaks
//! GET /api/tournaments/{id}/crosstable
//! GET /api/tournaments/{id}/players/{pn}
//! ```
//!
//! Standings count the rounds whose results are all in (or `after_round`, if lower), and break
//! ties by the tournament's own list (`TournamentCreated.tie_breaks`), else by the recommended
//! list for the kind of event ([`arbiter_tiebreak::default_tiebreaks`]). The crosstable, the
//! pairings and the player cards show every published result as soon as it is recorded.
//!
//! Every page carries a small script that listens to `/t/{id}/events` and swaps in the new
//! content when the tournament's stream moves. The event stream starts after the version the
//! page was rendered from (`?after=V`, or the `Last-Event-ID` a reconnecting browser sends), so
//! nothing recorded in between is missed. One event stands for every append that arrived
//! together: its `id` is the stream version reached, its data a JSON object with that version
//! and the kinds of the events (`{"version":42,"events":["ResultRecorded"]}`). A first event
//! named `ready` (which pages ignore) tells the client where the stream starts. Each response
//! ends after [`STREAM_LIFETIME`] or at shutdown; browsers reconnect by themselves and resume
//! from the last id they saw.

use crate::folded;
use arbiter_core::tournament::{Availability, PairingSystem, State};
use arbiter_core::{Color, PlayerId, ResultCode, RoundEntry, Score};
use arbiter_eventlog::SubscribeFrom;
use arbiter_pages::{
    Board, ByeLine, CardGame, Crosstable, CrosstableRow, Link, Live, Page, Pairings, PlayerCard,
    PlayerInfo, Seat, StandingsTable, board_result, escape, place_label, render_crosstable,
    render_pairings, render_player_card, render_standings, result_description, result_label,
};
use arbiter_round_director::status::log_status;
use arbiter_round_director::store::{TournamentStore, stream_of};
use arbiter_tiebreak::{
    Format, Options, PairingKind, RuleSet, Standings, TieBreak, TieBreakList, Tournament,
    default_tiebreaks, event_kind,
};
use axum::extract::{Path, Query, State as AxState};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use futures::StreamExt;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::watch;
use tonic::{Code, Status};

/// How long one event-stream response lasts before the browser is asked to reconnect.
pub const STREAM_LIFETIME: Duration = Duration::from_secs(15);
/// How soon a browser reconnects after a response ended.
pub const RECONNECT: Duration = Duration::from_millis(1000);
/// Comment lines sent while nothing happens, so proxies and clients keep the connection.
pub const KEEP_ALIVE: Duration = Duration::from_secs(10);

/// Why a page cannot be shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PageError {
    NotFound(String),
    BadRequest(String),
    Internal(String),
}

impl PageError {
    fn status(&self) -> StatusCode {
        match self {
            PageError::NotFound(_) => StatusCode::NOT_FOUND,
            PageError::BadRequest(_) => StatusCode::BAD_REQUEST,
            PageError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn message(&self) -> &str {
        match self {
            PageError::NotFound(m) | PageError::BadRequest(m) | PageError::Internal(m) => m,
        }
    }

    fn from_status(s: Status) -> PageError {
        match s.code() {
            Code::NotFound => PageError::NotFound(s.message().to_string()),
            Code::InvalidArgument => PageError::BadRequest(s.message().to_string()),
            _ => PageError::Internal(s.message().to_string()),
        }
    }

    fn html(&self) -> Response {
        let title = match self {
            PageError::NotFound(_) => "Not found",
            PageError::BadRequest(_) => "Bad request",
            PageError::Internal(_) => "Error",
        };
        let body = format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{title}</title>\n\
<style>body{{font:16px/1.45 system-ui,sans-serif;margin:0 auto;max-width:40rem;padding:.75rem}}</style>\n\
</head>\n<body>\n<h1>{title}</h1>\n<p>{}</p>\n</body>\n</html>\n",
            escape(self.message())
        );
        (self.status(), html_headers(), body).into_response()
    }

    fn json(&self) -> Response {
        (
            self.status(),
            axum::Json(json!({ "error": self.message() })),
        )
            .into_response()
    }
}

fn html_headers() -> [(header::HeaderName, HeaderValue); 2] {
    [
        (
            header::CONTENT_TYPE,
            HeaderValue::from_static(arbiter_pages::CONTENT_TYPE),
        ),
        (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
    ]
}

// --- from the projection to the page data ----------------------------------------------------

/// Where the tie-break list of a standings table came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListSource {
    /// The tournament's own list.
    Tournament,
    /// The recommended list for the kind of event (the tournament has none).
    Recommended,
    /// Given with the request.
    Request,
}

impl ListSource {
    fn as_str(self) -> &'static str {
        match self {
            ListSource::Tournament => "tournament",
            ListSource::Recommended => "recommended",
            ListSource::Request => "request",
        }
    }
}

/// The standings of a tournament after some round, with everything the pages say about them.
#[derive(Debug, Clone)]
pub struct Ranking {
    /// The rounds counted: 1..=after_round.
    pub after_round: u32,
    /// The tie-break engine's model of those rounds.
    pub model: Tournament,
    pub standings: Standings,
    pub source: ListSource,
    /// Set when the tournament's list could not be read and the recommended one was used.
    pub note: Option<String>,
}

/// Rounds 1..=k whose pairings are published and whose results are all in.
pub fn complete_rounds(state: &State) -> u32 {
    crate::views::complete_rounds(state)
}

/// The tie-break engine's model of `state` over rounds 1..=rounds. A round a player has no
/// entry for (not yet published, or his game still on) counts as an absence.
pub fn model(state: &State, rounds: u32) -> Tournament {
    let mut m = Tournament::new(rounds);
    if let Some(t) = state.tournament() {
        m.point_system = t.scoring;
        let d = t.start_date;
        m.start_date = arbiter_tiebreak::Date::new(
            u16::try_from(d.year()).unwrap_or(0),
            d.month() as u8,
            d.day() as u8,
        );
        m.pairing = match t.pairing_system {
            PairingSystem::RoundRobin | PairingSystem::DoubleRoundRobin => {
                PairingKind::PreDetermined
            }
            _ => PairingKind::Swiss,
        };
    }
    m.players = state
        .players()
        .map(|p| {
            let pn = p.pairing_number();
            arbiter_tiebreak::Player {
                id: pn,
                name: p.player.name.clone(),
                rating: (p.player.rating > 0).then_some(p.player.rating),
                federation: Some(p.player.federation.clone()).filter(|f| !f.trim().is_empty()),
                rounds: (1..=rounds)
                    .map(|r| {
                        state
                            .entry(pn, r)
                            .unwrap_or(RoundEntry::bye(ResultCode::ZeroBye))
                    })
                    .collect(),
            }
        })
        .collect();
    m
}

/// The standings after `after_round` (`None`, or a round not yet complete: the last complete
/// round), with the tie-breaks `tiebreaks` (`None`: the tournament's list, else the
/// recommended one).
pub fn ranking(
    state: &State,
    after_round: Option<u32>,
    tiebreaks: Option<&str>,
) -> Result<Ranking, PageError> {
    let complete = complete_rounds(state);
    let after = after_round.map_or(complete, |r| r.min(complete));
    let m = model(state, after);
    let recommended = || default_tiebreaks(event_kind(&m)).0;
    let mut note = None;
    let (list, source): (Vec<TieBreak>, ListSource) = match tiebreaks {
        Some(text) if !text.trim().is_empty() => {
            let list: TieBreakList = text
                .parse()
                .map_err(|e| PageError::BadRequest(format!("tiebreaks {text:?}: {e}")))?;
            (list.0, ListSource::Request)
        }
        _ => {
            let own = state
                .tournament()
                .map(|t| t.tie_breaks.join(","))
                .unwrap_or_default();
            if own.trim().is_empty() {
                (recommended(), ListSource::Recommended)
            } else {
                match own.parse::<TieBreakList>() {
                    Ok(list) => (list.0, ListSource::Tournament),
                    Err(e) => {
                        note = Some(format!(
                            "the tournament's tie-breaks ({own}) cannot be used ({e}); the recommended list applies"
                        ));
                        (recommended(), ListSource::Recommended)
                    }
                }
            }
        }
    };
    let standings = arbiter_tiebreak::standings(&m, &list, &Options::default())
        .map_err(|e| PageError::Internal(format!("standings after round {after}: {e}")))?;
    Ok(Ranking {
        after_round: after,
        model: m,
        standings,
        source,
        note,
    })
}

fn info(state: &State, pn: PlayerId) -> PlayerInfo {
    match state.player(pn) {
        Some(p) => PlayerInfo {
            id: pn,
            name: p.player.name.clone(),
            title: p.player.title.map(|t| t.as_str().to_string()),
            rating: (p.player.rating > 0).then_some(p.player.rating),
            federation: Some(p.player.federation.clone()).filter(|f| !f.trim().is_empty()),
        },
        None => PlayerInfo {
            id: pn,
            ..PlayerInfo::default()
        },
    }
}

fn title_of(state: &State) -> impl Fn(PlayerId) -> Option<String> + '_ {
    |pn| {
        state
            .player(pn)
            .and_then(|p| p.player.title)
            .map(|t| t.as_str().to_string())
    }
}

/// The round being played: published, with results missing. `(round, results in, boards)`.
fn round_in_progress(state: &State) -> Option<(u32, usize, usize)> {
    let r = state.published_rounds();
    let p = state.published(r)?;
    let done = p.boards.iter().filter(|b| b.result.is_some()).count();
    (done < p.boards.len()).then_some((r, done, p.boards.len()))
}

fn progress_line(state: &State) -> Option<String> {
    round_in_progress(state)
        .map(|(r, done, n)| format!("round {r} in progress, {done} of {n} results in"))
}

/// The live score of a player: every result recorded so far.
fn live_points(state: &State, pn: PlayerId) -> Score {
    state.score(pn).unwrap_or(Score::ZERO)
}

/// Player `pn`'s opponent and colour on a published board of `round` (for a game still on).
fn pending_game(state: &State, pn: PlayerId, round: u32) -> Option<(PlayerId, Color)> {
    let p = state.published(round)?;
    p.boards.iter().find_map(|b| {
        if b.white == pn {
            Some((b.black, Color::White))
        } else if b.black == pn {
            Some((b.white, Color::Black))
        } else {
            None
        }
    })
}

// --- the pages -------------------------------------------------------------------------------

/// What every page of one tournament shares.
#[derive(Debug, Clone)]
pub struct Context<'a> {
    pub id: &'a str,
    /// The stream version the page is rendered from.
    pub version: u64,
    pub state: &'a State,
}

impl Context<'_> {
    fn base(&self) -> String {
        format!("/t/{}", self.id)
    }

    fn page(&self, subtitle: Option<String>, footer: Vec<String>) -> Page {
        let base = self.base();
        let mut nav = vec![
            Link::new("Standings", format!("{base}/standings")),
            Link::new("Crosstable", format!("{base}/crosstable")),
        ];
        for r in 1..=self.state.published_rounds() {
            nav.push(Link::new(
                format!("Round {r}"),
                format!("{base}/pairings/{r}"),
            ));
        }
        let mut footer = footer;
        if let Some(t) = self.state.tournament() {
            let mut facts = Vec::new();
            if !t.place.trim().is_empty() {
                facts.push(t.place.trim().to_string());
            }
            let d = |d: arbiter_core::tournament::Date| {
                format!("{:04}-{:02}-{:02}", d.year(), d.month(), d.day())
            };
            if t.start_date == t.end_date {
                facts.push(d(t.start_date));
            } else {
                facts.push(format!("{} to {}", d(t.start_date), d(t.end_date)));
            }
            facts.push(format!("{} rounds", t.rounds));
            facts.push(format!("pairings {}", t.rule_set));
            footer.push(facts.join(", "));
        }
        footer.push(format!("log version {}", self.version));
        Page {
            title: self
                .state
                .tournament()
                .map(|t| t.name.clone())
                .unwrap_or_else(|| self.id.to_string()),
            subtitle,
            lang: None,
            nav,
            player_href: Some(format!("{base}/players/{{id}}")),
            footer: Some(footer.join(" · ")),
            live: Some(Live::new(format!("{base}/events?after={}", self.version))),
        }
    }

    fn rounds_word(&self, after: u32) -> String {
        let total = self.state.total_rounds();
        if after == 0 {
            "before round 1".to_string()
        } else if total > 0 {
            format!("after round {after} of {total}")
        } else {
            format!("after round {after}")
        }
    }

    fn ranking_footer(&self, r: &Ranking) -> Vec<String> {
        let names: Vec<String> = r
            .standings
            .tiebreaks
            .iter()
            .map(|t| t.to_string())
            .collect();
        let mut out = Vec::new();
        let list = if names.is_empty() {
            "none".to_string()
        } else {
            names.join(", ")
        };
        out.push(match r.source {
            ListSource::Tournament => format!("Tie-breaks: {list}"),
            ListSource::Recommended => format!("Tie-breaks: {list} (recommended list)"),
            ListSource::Request => format!("Tie-breaks: {list} (as asked)"),
        });
        out.push(
            match r.standings.rule_set {
                RuleSet::Legacy2009 => "rules before C.07",
                RuleSet::C07_2024 => "FIDE C.07 of 2024",
                RuleSet::C07_2026 => "FIDE C.07 of 2026",
            }
            .to_string(),
        );
        if let Some(n) = &r.note {
            out.push(n.clone());
        }
        out.extend(r.standings.warnings.iter().cloned());
        out
    }
}

/// The standings page.
pub fn standings_page(
    cx: &Context<'_>,
    after_round: Option<u32>,
    tiebreaks: Option<&str>,
) -> Result<String, PageError> {
    let r = ranking(cx.state, after_round, tiebreaks)?;
    let mut table = StandingsTable::from_standings(&r.standings);
    let finished = cx.state.is_finished() && r.after_round == complete_rounds(cx.state);
    let mut sub = if r.after_round == 0 {
        // Nothing counts yet: the starting list, by pairing number.
        table.tiebreaks.clear();
        for row in &mut table.rows {
            row.rank = row.player.id;
            row.rank_to = row.player.id;
            row.values.clear();
        }
        table.rows.sort_by_key(|row| row.player.id);
        "Starting list".to_string()
    } else if finished {
        "Final standings".to_string()
    } else {
        format!("Standings {}", cx.rounds_word(r.after_round))
    };
    arbiter_pages::set_titles(table.players_mut(), title_of(cx.state));
    if !finished && let Some(p) = progress_line(cx.state) {
        sub.push_str(" · ");
        sub.push_str(&p);
    }
    let page = cx.page(Some(sub), cx.ranking_footer(&r));
    Ok(render_standings(&page, &table))
}

/// The crosstable: places and points after the complete rounds, in that order; every published
/// round with the results recorded so far (a game still on leaves its cell empty).
pub fn crosstable(cx: &Context<'_>) -> Result<(Ranking, Crosstable), PageError> {
    let r = ranking(cx.state, None, None)?;
    let published = cx.state.published_rounds();
    let place: HashMap<PlayerId, String> = r
        .standings
        .rows
        .iter()
        .map(|row| (row.id, place_label(row.rank, row.rank_to)))
        .collect();
    let mut order: Vec<PlayerId> = r.standings.rows.iter().map(|row| row.id).collect();
    for p in cx.state.players() {
        if !place.contains_key(&p.pairing_number()) {
            order.push(p.pairing_number());
        }
    }
    let rows = order
        .into_iter()
        .map(|pn| {
            let mut rounds = Vec::new();
            for round in 1..=published {
                match cx.state.entry(pn, round) {
                    Some(e) => rounds.push(e),
                    None => break,
                }
            }
            CrosstableRow {
                place: place.get(&pn).cloned(),
                player: info(cx.state, pn),
                points: cx
                    .state
                    .score_after(pn, r.after_round)
                    .unwrap_or(Score::ZERO)
                    .to_string(),
                rounds,
            }
        })
        .collect();
    Ok((
        r,
        Crosstable {
            rounds: published,
            rows,
        },
    ))
}

/// The crosstable page (a game still on leaves its cell blank until its result is recorded).
pub fn crosstable_page(cx: &Context<'_>) -> Result<String, PageError> {
    let (r, table) = crosstable(cx)?;
    let mut sub = format!(
        "Crosstable · places and points {}",
        cx.rounds_word(r.after_round)
    );
    if let Some(p) = progress_line(cx.state) {
        sub.push_str(" · ");
        sub.push_str(&p);
    }
    let page = cx.page(Some(sub), cx.ranking_footer(&r));
    Ok(render_crosstable(&page, &table))
}

/// The pairings of a published round, in board order, with the points each player brought to
/// the round and the results recorded so far.
pub fn pairings(cx: &Context<'_>, round: u32) -> Result<Pairings, PageError> {
    let p = cx.state.published(round).ok_or_else(|| {
        PageError::NotFound(format!(
            "tournament {}: round {round} has no published pairing",
            cx.id
        ))
    })?;
    let before = |pn: PlayerId| {
        cx.state
            .score_after(pn, round.saturating_sub(1))
            .unwrap_or(Score::ZERO)
    };
    let seat = |pn: PlayerId| Seat {
        player: info(cx.state, pn),
        points: Some(before(pn).to_string()),
    };
    Ok(Pairings {
        round,
        boards: p
            .boards
            .iter()
            .map(|b| Board {
                number: b.number,
                white: seat(b.white),
                black: seat(b.black),
                result: b.result.map(|res| {
                    let (w, bl) = res.codes();
                    board_result(w, bl)
                }),
            })
            .collect(),
        byes: p
            .unpaired
            .iter()
            .map(|u| {
                let kind = match cx.state.availability(u.player_id, round) {
                    Some(Availability::Withdrawn { .. }) => "withdrawn".to_string(),
                    Some(Availability::Absent) => "absent".to_string(),
                    _ => result_description(u.code).to_string(),
                };
                ByeLine {
                    seat: seat(u.player_id),
                    kind,
                }
            })
            .collect(),
    })
}

/// The pairings page of `round`.
pub fn pairings_page(cx: &Context<'_>, round: u32) -> Result<String, PageError> {
    let p = pairings(cx, round)?;
    let done = p.boards.iter().filter(|b| b.result.is_some()).count();
    let mut sub = format!("Round {round} pairings");
    if p.boards.is_empty() {
    } else if done == p.boards.len() {
        sub.push_str(" · all results in");
    } else {
        sub.push_str(&format!(" · {done} of {} results in", p.boards.len()));
    }
    let page = cx.page(Some(sub), Vec::new());
    Ok(render_pairings(&page, &p))
}

/// The card of player `pn`: place and tie-breaks from the standings of the complete rounds,
/// every published round with its result (a game still on without one), points so far.
pub fn player_card(cx: &Context<'_>, pn: PlayerId) -> Result<(Ranking, PlayerCard), PageError> {
    if cx.state.player(pn).is_none() {
        return Err(PageError::NotFound(format!(
            "tournament {}: no player with pairing number {pn}",
            cx.id
        )));
    }
    let r = ranking(cx.state, None, None)?;
    let mut card = PlayerCard::from_tournament(&r.model, pn, Some(&r.standings))
        .ok_or_else(|| PageError::NotFound(format!("no player {pn}")))?;
    for round in r.after_round + 1..=cx.state.published_rounds() {
        let game = match cx.state.entry(pn, round) {
            Some(e) => CardGame {
                round,
                opponent: e.opponent.map(|o| info(cx.state, o)),
                color: e.color,
                result: result_label(e.result).to_string(),
                description: result_description(e.result).to_string(),
            },
            None => {
                let (opponent, color) = match pending_game(cx.state, pn, round) {
                    Some((o, c)) => (Some(info(cx.state, o)), Some(c)),
                    None => (None, None),
                };
                CardGame {
                    round,
                    opponent,
                    color,
                    result: String::new(),
                    description: "game in progress".to_string(),
                }
            }
        };
        card.games.push(game);
    }
    card.points = live_points(cx.state, pn).to_string();
    card.player = info(cx.state, pn);
    let lookup = title_of(cx.state);
    for g in card.games.iter_mut() {
        if let Some(o) = g.opponent.as_mut() {
            o.title = lookup(o.id);
        }
    }
    Ok((r, card))
}

/// The player card page.
pub fn player_page(cx: &Context<'_>, pn: PlayerId) -> Result<String, PageError> {
    let (r, card) = player_card(cx, pn)?;
    let mut footer = vec![format!(
        "Place and tie-breaks {}",
        cx.rounds_word(r.after_round)
    )];
    footer.extend(cx.ranking_footer(&r));
    let page = cx.page(None, footer);
    Ok(render_player_card(&page, &card))
}

// --- JSON ------------------------------------------------------------------------------------

fn color_json(c: Option<Color>) -> Value {
    match c {
        Some(Color::White) => json!("w"),
        Some(Color::Black) => json!("b"),
        None => Value::Null,
    }
}

fn player_json(p: &PlayerInfo) -> Value {
    json!({
        "no": p.id,
        "name": p.name,
        "title": p.title,
        "rating": p.rating,
        "federation": p.federation,
    })
}

fn entry_json(round: u32, e: &RoundEntry) -> Value {
    json!({
        "round": round,
        "opponent": e.opponent,
        "color": color_json(e.color),
        "result": e.result.trf_char().to_string(),
        "label": result_label(e.result),
    })
}

/// The standings with tie-breaks as JSON (the engine's document, with the tournament's id,
/// the version and the rounds counted).
pub fn ranking_json(
    cx: &Context<'_>,
    after_round: Option<u32>,
    tiebreaks: Option<&str>,
) -> Result<Value, PageError> {
    let r = ranking(cx.state, after_round, tiebreaks)?;
    let text = arbiter_tiebreak::render(&r.standings, Format::Json);
    let mut v: Value = serde_json::from_str(&text)
        .map_err(|e| PageError::Internal(format!("standings JSON: {e}")))?;
    if let Value::Object(o) = &mut v {
        o.insert("tournament_id".into(), json!(cx.id));
        o.insert("version".into(), json!(cx.version));
        o.insert("after_round".into(), json!(r.after_round));
        o.insert("tiebreaks_from".into(), json!(r.source.as_str()));
        if let Some(n) = &r.note {
            o.insert("note".into(), json!(n));
        }
    }
    Ok(v)
}

/// The crosstable as JSON: places and points after `after_round`, every published round (a
/// game still on with its opponent and colour and a `null` result).
pub fn crosstable_json(cx: &Context<'_>) -> Result<Value, PageError> {
    let (r, table) = crosstable(cx)?;
    let rows: Vec<Value> = table
        .rows
        .iter()
        .map(|row| {
            let mut rounds: Vec<Value> = row
                .rounds
                .iter()
                .enumerate()
                .map(|(i, e)| entry_json(i as u32 + 1, e))
                .collect();
            for round in row.rounds.len() as u32 + 1..=table.rounds {
                if let Some((o, c)) = pending_game(cx.state, row.player.id, round) {
                    rounds.push(json!({
                        "round": round, "opponent": o, "color": color_json(Some(c)),
                        "result": Value::Null, "label": "",
                    }));
                }
            }
            json!({
                "place": row.place,
                "player": player_json(&row.player),
                "points": row.points,
                "rounds": rounds,
            })
        })
        .collect();
    Ok(json!({
        "tournament_id": cx.id,
        "version": cx.version,
        "after_round": r.after_round,
        "rounds": table.rounds,
        "rows": rows,
    }))
}

/// A player card as JSON: place and tie-breaks after `after_round`, points and games so far.
pub fn player_json_doc(cx: &Context<'_>, pn: PlayerId) -> Result<Value, PageError> {
    let (r, card) = player_card(cx, pn)?;
    Ok(json!({
        "tournament_id": cx.id,
        "version": cx.version,
        "after_round": r.after_round,
        "player": player_json(&card.player),
        "place": card.place,
        "points": card.points,
        "games": card.games.iter().map(|g| json!({
            "round": g.round,
            "opponent": g.opponent.as_ref().map(player_json),
            "color": color_json(g.color),
            "result": g.result,
            "description": g.description,
        })).collect::<Vec<_>>(),
        "performance": card.performance.as_ref().map(|p| json!({
            "games": p.games,
            "points": p.points,
            "average_opponent": p.average_opponent,
            "performance": p.performance,
        })),
        "tiebreaks": card.tiebreaks.iter().map(|(k, v)| json!({"name": k, "value": v})).collect::<Vec<_>>(),
    }))
}

// --- HTTP ------------------------------------------------------------------------------------

#[derive(Clone)]
struct Web {
    store: Arc<TournamentStore>,
    shutdown: Option<watch::Receiver<bool>>,
}

#[derive(Debug, Default, serde::Deserialize)]
struct StandingsQuery {
    after_round: Option<u32>,
    tiebreaks: Option<String>,
}

#[derive(Debug, Default, serde::Deserialize)]
struct EventsQuery {
    after: Option<u64>,
}

/// Runs `build` on the folded tournament `id`, away from the async workers (large tournaments
/// take milliseconds to rank).
async fn with_state<T, F>(web: &Web, id: &str, build: F) -> Result<T, PageError>
where
    T: Send + 'static,
    F: FnOnce(&Context<'_>) -> Result<T, PageError> + Send + 'static,
{
    let f = folded(&web.store, id, 0)
        .await
        .map_err(PageError::from_status)?;
    let id = id.to_string();
    tokio::task::spawn_blocking(move || {
        let cx = Context {
            id: &id,
            version: f.version,
            state: &f.state,
        };
        build(&cx)
    })
    .await
    .map_err(|e| PageError::Internal(format!("page task: {e}")))?
}

fn html(r: Result<String, PageError>) -> Response {
    match r {
        Ok(body) => (html_headers(), body).into_response(),
        Err(e) => e.html(),
    }
}

fn json_response(r: Result<Value, PageError>) -> Response {
    match r {
        Ok(v) => axum::Json(v).into_response(),
        Err(e) => e.json(),
    }
}

async fn standings_html(
    AxState(web): AxState<Web>,
    Path(id): Path<String>,
    Query(q): Query<StandingsQuery>,
) -> Response {
    html(
        with_state(&web, &id, move |cx| {
            standings_page(cx, q.after_round, q.tiebreaks.as_deref())
        })
        .await,
    )
}

async fn crosstable_html(AxState(web): AxState<Web>, Path(id): Path<String>) -> Response {
    html(with_state(&web, &id, crosstable_page).await)
}

async fn latest_pairings_html(AxState(web): AxState<Web>, Path(id): Path<String>) -> Response {
    html(
        with_state(&web, &id, |cx| match cx.state.published_rounds() {
            0 => Err(PageError::NotFound(format!(
                "tournament {}: no pairing is published yet",
                cx.id
            ))),
            r => pairings_page(cx, r),
        })
        .await,
    )
}

async fn pairings_html(
    AxState(web): AxState<Web>,
    Path((id, round)): Path<(String, u32)>,
) -> Response {
    html(with_state(&web, &id, move |cx| pairings_page(cx, round)).await)
}

async fn player_html(AxState(web): AxState<Web>, Path((id, pn)): Path<(String, u32)>) -> Response {
    html(with_state(&web, &id, move |cx| player_page(cx, pn)).await)
}

async fn ranking_api(
    AxState(web): AxState<Web>,
    Path(id): Path<String>,
    Query(q): Query<StandingsQuery>,
) -> Response {
    json_response(
        with_state(&web, &id, move |cx| {
            ranking_json(cx, q.after_round, q.tiebreaks.as_deref())
        })
        .await,
    )
}

async fn crosstable_api(AxState(web): AxState<Web>, Path(id): Path<String>) -> Response {
    json_response(with_state(&web, &id, crosstable_json).await)
}

async fn player_api(AxState(web): AxState<Web>, Path((id, pn)): Path<(String, u32)>) -> Response {
    json_response(with_state(&web, &id, move |cx| player_json_doc(cx, pn)).await)
}

/// Server-sent events: one per batch of appends to the tournament's stream after `after` (or
/// the `Last-Event-ID` header), named by nothing (the `message` type pages listen to).
async fn events(
    AxState(web): AxState<Web>,
    Path(id): Path<String>,
    Query(q): Query<EventsQuery>,
    headers: HeaderMap,
) -> Response {
    let stream = match stream_of(&id) {
        Ok(s) => s,
        Err(s) => return PageError::from_status(s).json(),
    };
    let log = web.store.log().clone();
    let last = match log.last_version(&stream).await {
        Ok(v) => v,
        Err(e) => return PageError::from_status(log_status(&e)).json(),
    };
    if last == 0 {
        return PageError::NotFound(format!("tournament {id} does not exist")).json();
    }
    let resume = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    let after = resume.or(q.after).unwrap_or(last).min(last);
    let sub = match log
        .subscribe(SubscribeFrom::Stream {
            stream,
            from_version: after + 1,
        })
        .await
    {
        Ok(s) => s,
        Err(e) => return PageError::from_status(log_status(&e)).json(),
    };
    let ready = SseEvent::default()
        .event("ready")
        .retry(RECONNECT)
        .id(after.to_string())
        .data(json!({ "version": after }).to_string());
    let changes = sub.ready_chunks(256).map(move |chunk| {
        let mut version = 0;
        let mut kinds: Vec<&'static str> = Vec::new();
        let mut failed = None;
        for e in chunk {
            match e {
                Ok(e) => {
                    version = version.max(e.version);
                    let kind = e
                        .decode_event()
                        .map(|ev| arbiter_eventlog::kind_name(&ev))
                        .unwrap_or("Unknown");
                    if !kinds.contains(&kind) {
                        kinds.push(kind);
                    }
                }
                Err(e) => failed = Some(e.to_string()),
            }
        }
        let ev = match (version, failed) {
            (0, Some(err)) => SseEvent::default()
                .event("error")
                .data(json!({ "error": err }).to_string()),
            _ => SseEvent::default()
                .id(version.to_string())
                .data(json!({ "version": version, "events": kinds }).to_string()),
        };
        Ok::<_, std::convert::Infallible>(ev)
    });
    let mut shutdown = web.shutdown.clone();
    let stop = async move {
        let lifetime = tokio::time::sleep(STREAM_LIFETIME);
        match shutdown.as_mut() {
            Some(s) => {
                tokio::select! {
                    _ = lifetime => {}
                    _ = s.wait_for(|v| *v) => {}
                }
            }
            None => lifetime.await,
        }
    };
    let body = futures::stream::once(async move { Ok(ready) })
        .chain(changes)
        .take_until(Box::pin(stop));
    let mut resp = Sse::new(body)
        .keep_alive(KeepAlive::new().interval(KEEP_ALIVE))
        .into_response();
    resp.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    resp
}

/// The pages, their JSON and the event stream over `store`. Event-stream responses end at
/// the latest after [`STREAM_LIFETIME`], and at once when `shutdown` turns true (pass the
/// signal that stops the HTTP server, so that a graceful shutdown does not wait for them).
pub fn router(
    store: Arc<TournamentStore>,
    shutdown: Option<watch::Receiver<bool>>,
) -> axum::Router {
    axum::Router::new()
        .route("/t/{id}", get(standings_html))
        .route("/t/{id}/standings", get(standings_html))
        .route("/t/{id}/crosstable", get(crosstable_html))
        .route("/t/{id}/pairings", get(latest_pairings_html))
        .route("/t/{id}/pairings/{round}", get(pairings_html))
        .route("/t/{id}/players/{pn}", get(player_html))
        .route("/t/{id}/events", get(events))
        .route("/api/tournaments/{id}/ranking", get(ranking_api))
        .route("/api/tournaments/{id}/crosstable", get(crosstable_api))
        .route("/api/tournaments/{id}/players/{pn}", get(player_api))
        .with_state(Web { store, shutdown })
}
