//! The public pages of a tournament, rendered on the server from the reporting projection, and
//! what keeps them current:
//!
//! ```text
//! GET /                                index: every tournament (name, place, dates, rounds,
//!                                      players, status, links)
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
use arbiter_core::{Color, PlayerId, RoundEntry, Score};
use arbiter_eventlog::SubscribeFrom;
use arbiter_pages::{
    Board, ByeLine, CardGame, Crosstable, CrosstableRow, Link, Live, Page, Pairings, PlayerCard,
    PlayerInfo, Schedule, ScheduleRound, Seat, StandingsTable, TournamentSummary, board_result,
    place_label, render_crosstable, render_index, render_pairings, render_player_card,
    render_schedule, render_standings, result_description, result_label,
};
use arbiter_proto::events::v1 as pb;
use arbiter_service_kit::status::log_status;
use arbiter_service_kit::store::{TournamentStore, stream_of, tournament_of};
pub use arbiter_standings::{ListSource, Ranking, model, ranking};
use arbiter_standings::{StandingsError, plain_name, rule_version_words};
use arbiter_tiebreak::Format;
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

impl From<StandingsError> for PageError {
    fn from(e: StandingsError) -> PageError {
        match e {
            StandingsError::BadList(m) => PageError::BadRequest(m),
            StandingsError::Engine(m) => PageError::Internal(m),
        }
    }
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

    /// The gRPC status of the same failure.
    pub fn to_status(&self) -> Status {
        match self {
            PageError::NotFound(m) => Status::not_found(m.clone()),
            PageError::BadRequest(m) => Status::invalid_argument(m.clone()),
            PageError::Internal(m) => Status::internal(m.clone()),
        }
    }

    fn html(&self) -> Response {
        let title = match self {
            PageError::NotFound(_) => "Not found",
            PageError::BadRequest(_) => "Bad request",
            PageError::Internal(_) => "Error",
        };
        // The pages' own layout: its stylesheet is the one the Content-Security-Policy allows.
        let body = arbiter_pages::render_message(title, self.message());
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

/// Rounds 1..=k whose pairings are published and whose results are all in.
pub fn complete_rounds(state: &State) -> u32 {
    crate::views::complete_rounds(state)
}

fn info(state: &State, pn: PlayerId) -> PlayerInfo {
    match state.player(pn) {
        Some(p) => PlayerInfo {
            id: pn,
            name: p.player.name.clone(),
            title: p.player.title.map(|t| t.code().to_string()),
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
            .map(|t| t.code().to_string())
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
    /// The rating worker's last figures for the tournament (player pages only).
    pub ratings: Option<&'a pb::RatingChangesComputed>,
    /// The last signed chain head of the stream, shown in the header.
    pub signed_head: Option<&'a arbiter_service_kit::store::SignedHeadNote>,
}

fn date_text(d: arbiter_core::tournament::Date) -> String {
    format!("{:04}-{:02}-{:02}", d.year(), d.month(), d.day())
}

/// "2026-03-01", or "2026-03-01 to 2026-03-03".
pub fn dates_text(t: &arbiter_core::tournament::TournamentCreated) -> String {
    if t.start_date == t.end_date {
        date_text(t.start_date)
    } else {
        format!("{} to {}", date_text(t.start_date), date_text(t.end_date))
    }
}

fn arbiter_text(a: &arbiter_core::tournament::Arbiter) -> String {
    let name = a.name.trim();
    match a.title.trim() {
        "" => name.to_string(),
        _ if name.is_empty() => String::new(),
        title => format!("{title} {name}"),
    }
}

/// Where the tournament stands: "registration", "round 3 of 9 in progress", "after round 3 of
/// 9", "finished".
pub fn status_text(state: &State) -> String {
    let total = state.total_rounds();
    if state.is_finished() {
        return "finished".to_string();
    }
    if let Some((r, _, _)) = round_in_progress(state) {
        return format!("round {r} of {total} in progress");
    }
    match state.published_rounds() {
        0 => "registration".to_string(),
        r => format!("after round {r} of {total}"),
    }
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
        if self
            .state
            .tournament()
            .is_some_and(|t| !t.pairing_system.is_swiss())
        {
            nav.push(Link::new("Schedule", format!("{base}/schedule")));
        }
        for r in 1..=self.state.published_rounds() {
            nav.push(Link::new(
                format!("Round {r}"),
                format!("{base}/pairings/{r}"),
            ));
        }
        let mut footer = footer;
        footer.push(format!("log version {}", self.version));
        // The tournament header: what an organiser and a player look for first.
        let mut facts: Vec<(String, String)> = Vec::new();
        if let Some(t) = self.state.tournament() {
            let mut fact = |k: &str, v: String| facts.push((k.to_string(), v));
            fact("Place", t.place.trim().to_string());
            fact("Dates", dates_text(t));
            fact("Rounds", t.rounds.to_string());
            fact("Chief arbiter", arbiter_text(&t.chief_arbiter));
            let deputies: Vec<String> = t
                .deputy_arbiters
                .iter()
                .map(arbiter_text)
                .filter(|d| !d.is_empty())
                .collect();
            let word = if deputies.len() > 1 {
                "Deputy arbiters"
            } else {
                "Deputy arbiter"
            };
            fact(word, deputies.join(", "));
            fact("Time control", t.time_control.trim().to_string());
            // Online and hybrid events: what E.04 makes the players' to know (2.4, 8, 12-14).
            let conduct = &t.conduct;
            if conduct.format.is_online() {
                fact("Format", conduct.format.to_string());
                if t.time_control.trim().is_empty() {
                    fact("Time control", periods_text(&conduct.periods));
                }
            }
            if let Some(p) = &conduct.platform {
                let mut v = p.name.trim().to_string();
                if !p.version.trim().is_empty() {
                    v = format!("{v} {}", p.version.trim());
                }
                if !p.url.trim().is_empty() {
                    v = format!("{v} ({})", p.url.trim());
                }
                fact("Platform", v);
                if !p.illegal_move_policy.trim().is_empty() {
                    fact("Illegal moves", p.illegal_move_policy.trim().to_string());
                }
            }
            fact("Supervision", supervision_text(&conduct.supervision));
            fact("Pairing rules", t.rule_set.clone());
            let tb = arbiter_tiebreak::RuleSet::for_start_date(arbiter_tiebreak::Date::new(
                u16::try_from(t.start_date.year()).unwrap_or(0),
                t.start_date.month() as u8,
                t.start_date.day() as u8,
            ));
            fact("Tie-break rules", rule_version_words(tb).to_string());
            if let Some(h) = self.signed_head {
                // The key and the head an auditor checks the log against (the full key and
                // the signatures: the heads JSON linked in the navigation).
                fact(
                    "Signed chain head",
                    format!(
                        "version {} ({}), hash {}…, key {}",
                        h.version,
                        h.covers,
                        arbiter_eventlog::signing::hex(&h.head_hash[..h.head_hash.len().min(8)]),
                        h.key_id
                    ),
                );
                nav.push(Link::new(
                    "Signed heads",
                    format!("/api/tournaments/{}/heads", self.id),
                ));
            }
        }
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
            facts,
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
        out.push(rule_version_words(r.standings.rule_set).to_string());
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
    table.legend = r
        .standings
        .tiebreaks
        .iter()
        .filter(|_| r.after_round > 0)
        .map(|tb| (tb.to_string(), plain_name(tb)))
        .collect();
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
    let by_rank = r.after_round > 0;
    // The cells keep the standings' result; a result corrected for rating only is marked on
    // both players' cells with the note saying what rating uses (C.04.2 D.8).
    let notes = cx
        .state
        .rating_only_corrections()
        .into_iter()
        .map(|c| {
            (
                c.round,
                vec![c.white, c.black],
                format!("Round {}, {}-{}: {}", c.round, c.white, c.black, c.note()),
            )
        })
        .collect();
    Ok((
        r,
        Crosstable {
            rounds: published,
            rows,
            // Rows follow the standings once a round is complete; opponents are then named by
            // their line, as on chess-results.com.
            by_rank,
            notes,
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

/// A round robin's (or team table's) whole schedule, the drawing of lots that numbered the
/// players, and the rounds where compatriots meet. Not found for a Swiss event.
pub fn schedule_page(cx: &Context<'_>) -> Result<String, PageError> {
    let s = cx.state;
    if s.tournament().is_none_or(|t| t.pairing_system.is_swiss()) {
        return Err(PageError::NotFound(format!(
            "tournament {}: a Swiss event is paired round by round and has no schedule",
            cx.id
        )));
    }
    let rounds = s
        .schedule()
        .map_err(|e| PageError::NotFound(format!("tournament {}: {e}", cx.id)))?;
    let draw = match s.lots_drawn() {
        None => "Pairing numbers in the order of registration (no drawing of lots recorded by the service).".to_string(),
        Some(l) => format!(
            "Pairing numbers {}{}.",
            if l.varma {
                "from the restricted drawing of lots with the Varma tables (C.05 Annex 2), "
            } else {
                "from the drawing of lots (C.05 §6.2), "
            },
            if l.seed.is_empty() {
                "drawn in the hall and recorded by the arbiter".to_string()
            } else {
                format!("drawn by the service from the published seed \"{}\" (anyone can re-derive it: arbiter replay)", l.seed)
            }
        ),
    };
    let fed = |pn: PlayerId| s.player(pn).map(|p| p.player.federation.clone());
    let mut compatriots = Vec::new();
    // Who meets a compatriot when is what a restricted draw is for: shown for a Berger round
    // robin (a team table pairs teams, not federations).
    let berger = s
        .tournament()
        .is_some_and(|t| !t.pairing_system.is_team_table());
    for r in rounds.iter().filter(|_| berger) {
        for b in &r.boards {
            if let (Some(a), Some(c)) = (fed(b.white), fed(b.black))
                && a == c
                && !a.trim().is_empty()
            {
                compatriots.push((r.round, info(s, b.white), info(s, b.black)));
            }
        }
    }
    // A team-table event's teams and their game points so far.
    let mut teams = Vec::new();
    if let Some(t) = s.tournament()
        && let Some(size) = arbiter_core::tournament::team_size(t.pairing_system, s.player_count())
    {
        let after = s.published_rounds();
        for k in 0..s.player_count() / size {
            let (first, last) = (k * size + 1, (k + 1) * size);
            let points = (first..=last)
                .filter_map(|pn| s.score_after(pn, after))
                .fold(Score::ZERO, |a, b| a + b);
            let name = match t.pairing_system {
                PairingSystem::Scheveningen | PairingSystem::SemiScheveningen => {
                    format!("Team {}", ["A", "B"][k as usize % 2])
                }
                _ => format!("Team {}", (b'A' + k as u8) as char),
            };
            teams.push((name, first, last, points.to_string()));
        }
    }
    let table = Schedule {
        draw,
        compatriots,
        teams,
        rounds: rounds
            .iter()
            .map(|r| ScheduleRound {
                round: r.round,
                boards: r
                    .boards
                    .iter()
                    .map(|b| (info(s, b.white), info(s, b.black)))
                    .collect(),
                rest: r.rest.map(|pn| info(s, pn)),
                published: s.published(r.round).is_some(),
            })
            .collect(),
    };
    let sub = format!(
        "Schedule · {} rounds ({})",
        rounds.len(),
        s.tournament().map(|t| t.rule_set.as_str()).unwrap_or("")
    );
    let page = cx.page(Some(sub), Vec::new());
    Ok(render_schedule(
        &page,
        &table,
        &format!("{}/pairings/{{round}}", cx.base()),
    ))
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
    let late = cx.state.rating_only_corrections();
    Ok(Pairings {
        round,
        amendment: p.manually_changed.then(|| p.note.clone()),
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
                note: late
                    .iter()
                    .find(|c| c.round == round && c.board == b.number)
                    .map(|c| c.note()),
            })
            .collect(),
        byes: p
            .unpaired
            .iter()
            .map(|u| {
                let kind = match cx.state.availability(u.player_id, round) {
                    Some(Availability::Withdrawn { .. }) => "withdrawn".to_string(),
                    Some(Availability::Absent) => "absent".to_string(),
                    // Public pages say no more than that (the consent record is the arbiters').
                    Some(Availability::ConsentMissing) => "not paired".to_string(),
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
                rating_change: None,
                note: None,
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
                    rating_change: None,
                    note: None,
                }
            }
        };
        card.games.push(game);
    }
    card.points = live_points(cx.state, pn).to_string();
    card.player = info(cx.state, pn);
    // A result corrected for rating only: the card keeps the standings' result and says what
    // rating uses; the performance is a rating figure, so it counts the corrected results.
    let late: Vec<_> = cx
        .state
        .rating_only_corrections()
        .into_iter()
        .filter(|c| c.involves(pn))
        .collect();
    for c in &late {
        if let Some(g) = card.games.iter_mut().find(|g| g.round == c.round) {
            g.note = Some(c.note());
        }
    }
    if !late.is_empty() {
        card.performance = rated_performance(cx.state, pn, r.after_round);
    }
    if let Some(rc) = cx.ratings {
        rating_changes(cx.state, rc, pn, &mut card);
    }
    let lookup = title_of(cx.state);
    for g in card.games.iter_mut() {
        if let Some(o) = g.opponent.as_mut() {
            o.title = lookup(o.id);
        }
    }
    Ok((r, card))
}

/// The performance over the results for rating ([`State::final_entry`]) of rounds
/// `1..=through` against rated opponents, as [`arbiter_pages::PlayerCard::from_tournament`]
/// counts it.
fn rated_performance(
    state: &State,
    pn: PlayerId,
    through: u32,
) -> Option<arbiter_pages::CardPerformance> {
    let rated: Vec<(i32, Score)> = (1..=through)
        .filter_map(|r| {
            let e = state.final_entry(pn, r)?;
            let rating = state.player(e.opponent?)?.player.rating;
            let s = arbiter_rating::rated_score(e.result)?;
            (rating > 0).then_some((rating as i32, s))
        })
        .collect();
    arbiter_rating::performance(rated.iter().map(|g| g.0), rated.iter().map(|g| g.1).sum()).map(
        |pf| arbiter_pages::CardPerformance {
            games: pf.games,
            points: pf.points.to_string(),
            average_opponent: pf.ra,
            performance: pf.rp,
        },
    )
}

/// Tenths of a rating point with their sign: "+12.4", "-3.0", "0.0".
fn signed_tenths(t: i64) -> String {
    let sign = match t.signum() {
        1 => "+",
        -1 => "-",
        _ => "",
    };
    let a = t.unsigned_abs();
    format!("{sign}{}.{}", a / 10, a % 10)
}

/// The rating worker's figures on the card: the total change it computed, and per rated game
/// `K × (score − expected score)` from the game's opponent rating (B.02 8.3, by
/// [`arbiter_rating::rating_change`] under the regulations the worker named).
fn rating_changes(
    state: &State,
    rc: &pb::RatingChangesComputed,
    pn: PlayerId,
    card: &mut arbiter_pages::PlayerCard,
) {
    let Some(ch) = rc.changes.iter().find(|c| c.player_id == pn) else {
        return;
    };
    let Some(rule_set) = arbiter_rating::RuleSet::from_id(&rc.regulations) else {
        return;
    };
    let Ok(rating) = u16::try_from(ch.rating_before) else {
        return;
    };
    if rating == 0 || ch.k_factor == 0 {
        return;
    }
    let games: Vec<arbiter_rating::RatedGame> = (1..=rc.through_round)
        .filter_map(|r| {
            // The result for rating, as the worker reads it (C.04.2 D.8).
            let e = state.final_entry(pn, r)?;
            let o = e.opponent?;
            let opp = state
                .player(o)
                .and_then(|p| u16::try_from(p.player.rating).ok())
                .filter(|&x| x > 0);
            Some(arbiter_rating::RatedGame::new(r, opp, e.result))
        })
        .collect();
    let computed = arbiter_rating::rating_change(rule_set, rating, ch.k_factor, &games);
    for g in &computed.games {
        // Hundredths of a point times K, shown in tenths (0.5 up, as the worker rounds).
        let tenths = arbiter_rating::round_half_up(i64::from(g.delta_r.times(ch.k_factor).0), 10);
        if let Some(cg) = card.games.iter_mut().find(|c| c.round == g.round) {
            cg.rating_change = Some(signed_tenths(tenths));
        }
    }
    card.rating_change = Some((
        signed_tenths(i64::from(ch.change_tenths)),
        format!(
            "{} rated game{} through round {}, rating {}, K {}",
            ch.games,
            if ch.games == 1 { "" } else { "s" },
            rc.through_round,
            ch.rating_before,
            ch.k_factor
        ),
    ));
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

/// A player: `no` is his current pairing number, `entry` his stable entry number (order of
/// registration; late entries change the first, never the second).
fn player_json(cx: &Context<'_>, p: &PlayerInfo) -> Value {
    json!({
        "no": p.id,
        "entry": cx.state.player(p.id).map(|r| r.entry.number()),
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
        // Each row's stable entry number beside its pairing number (`no`).
        if let Some(Value::Array(rows)) = o.get_mut("standings") {
            for row in rows.iter_mut().filter_map(Value::as_object_mut) {
                let entry = row
                    .get("no")
                    .and_then(Value::as_u64)
                    .and_then(|no| cx.state.player(no as u32))
                    .map(|p| p.entry.number());
                row.insert("entry".into(), json!(entry));
            }
        }
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
                "player": player_json(cx, &row.player),
                "points": row.points,
                "rounds": rounds,
            })
        })
        .collect();
    let mut doc = json!({
        "tournament_id": cx.id,
        "version": cx.version,
        "after_round": r.after_round,
        "rounds": table.rounds,
        "rows": rows,
    });
    // Results corrected for rating only (C.04.2 D.8), when there are any.
    if !table.notes.is_empty() {
        doc["notes"] = table
            .notes
            .iter()
            .map(|(round, players, note)| json!({"round": round, "players": players, "note": note}))
            .collect();
    }
    Ok(doc)
}

/// A player card as JSON: place and tie-breaks after `after_round`, points and games so far.
pub fn player_json_doc(cx: &Context<'_>, pn: PlayerId) -> Result<Value, PageError> {
    let (r, card) = player_card(cx, pn)?;
    Ok(json!({
        "tournament_id": cx.id,
        "version": cx.version,
        "after_round": r.after_round,
        "player": player_json(cx, &card.player),
        "place": card.place,
        "points": card.points,
        "games": card.games.iter().map(|g| {
            let mut v = json!({
                "round": g.round,
                "opponent": g.opponent.as_ref().map(|o| player_json(cx, o)),
                "color": color_json(g.color),
                "result": g.result,
                "description": g.description,
                "rating_change": g.rating_change,
            });
            // A result corrected for rating only (C.04.2 D.8).
            if let Some(n) = &g.note {
                v["note"] = json!(n);
            }
            v
        }).collect::<Vec<_>>(),
        "rating_change": card.rating_change.as_ref().map(|(total, what)| json!({
            "total": total,
            "counted": what,
        })),
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
    with_state_and(web, id, false, build).await
}

/// The last `RatingChangesComputed` of the stream up to `version` (the rating worker appends
/// its figures to the tournament's own stream).
async fn last_ratings(
    web: &Web,
    id: &str,
    version: u64,
) -> Result<Option<pb::RatingChangesComputed>, PageError> {
    let stream = stream_of(id).map_err(PageError::from_status)?;
    let events = web
        .store
        .log()
        .read(&stream, 1)
        .await
        .map_err(|e| PageError::from_status(log_status(&e)))?;
    Ok(events
        .iter()
        .rev()
        .filter(|e| e.version <= version)
        .filter_map(|e| e.decode_event().ok())
        .find_map(|ev| match ev.kind {
            Some(pb::event::Kind::RatingChangesComputed(r)) => Some(r),
            _ => None,
        }))
}

/// [`with_state`], with the rating worker's figures when `with_ratings`.
async fn with_state_and<T, F>(
    web: &Web,
    id: &str,
    with_ratings: bool,
    build: F,
) -> Result<T, PageError>
where
    T: Send + 'static,
    F: FnOnce(&Context<'_>) -> Result<T, PageError> + Send + 'static,
{
    let f = folded(&web.store, id, 0)
        .await
        .map_err(PageError::from_status)?;
    let ratings = if with_ratings {
        last_ratings(web, id, f.version).await?
    } else {
        None
    };
    let id = id.to_string();
    tokio::task::spawn_blocking(move || {
        let cx = Context {
            id: &id,
            version: f.version,
            state: &f.state,
            ratings: ratings.as_ref(),
            signed_head: f.signed_head.as_ref(),
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

/// One line of the index page.
pub fn summary(id: &str, state: &State) -> Option<TournamentSummary> {
    let t = state.tournament()?;
    let base = format!("/t/{id}");
    let mut links = vec![
        Link::new("Standings", format!("{base}/standings")),
        Link::new("Crosstable", format!("{base}/crosstable")),
    ];
    if let r @ 1.. = state.published_rounds() {
        links.push(Link::new(
            format!("Round {r} pairings"),
            format!("{base}/pairings/{r}"),
        ));
    }
    Some(TournamentSummary {
        name: t.name.clone(),
        href: base,
        place: t.place.trim().to_string(),
        dates: dates_text(t),
        rounds: t.rounds,
        players: state.player_count(),
        status: status_text(state),
        links,
    })
}

/// The index page: every tournament, the latest start first (then by name).
async fn index_html(AxState(web): AxState<Web>) -> Response {
    let streams = match web.store.log().list_streams().await {
        Ok(s) => s,
        Err(e) => return PageError::from_status(log_status(&e)).html(),
    };
    let mut rows: Vec<(arbiter_core::tournament::Date, TournamentSummary)> = Vec::new();
    for s in streams {
        let Some(id) = tournament_of(&s) else {
            continue;
        };
        if let Ok(f) = web.store.current(&s).await
            && let Some(line) = summary(id, &f.state)
            && let Some(t) = f.state.tournament()
        {
            rows.push((t.start_date, line));
        }
    }
    rows.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.name.cmp(&b.1.name)));
    let rows: Vec<TournamentSummary> = rows.into_iter().map(|(_, r)| r).collect();
    let page = Page {
        title: "Tournaments".to_string(),
        subtitle: Some(format!(
            "{} tournament{}",
            rows.len(),
            if rows.len() == 1 { "" } else { "s" }
        )),
        footer: Some("JSON: /api/tournaments".to_string()),
        ..Page::default()
    };
    (html_headers(), render_index(&page, &rows)).into_response()
}

async fn schedule_html(AxState(web): AxState<Web>, Path(id): Path<String>) -> Response {
    html(with_state(&web, &id, schedule_page).await)
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
    html(with_state_and(&web, &id, true, move |cx| player_page(cx, pn)).await)
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
    json_response(with_state_and(&web, &id, true, move |cx| player_json_doc(cx, pn)).await)
}

/// The signed chain heads the stream records, with the public key (`arbiter replay
/// --against` reads this document).
async fn heads_api(AxState(web): AxState<Web>, Path(id): Path<String>) -> Response {
    let doc = async {
        let stream = stream_of(&id).map_err(PageError::from_status)?;
        let events = web
            .store
            .log()
            .read(&stream, 1)
            .await
            .map_err(|e| PageError::from_status(log_status(&e)))?;
        if events.is_empty() {
            return Err(PageError::from_status(
                arbiter_service_kit::status::unknown_tournament(&id),
            ));
        }
        Ok(arbiter_interchange::heads::heads_file(
            &id, &stream, &events,
        ))
    };
    json_response(doc.await)
}

/// Server-sent events: one per batch of appends to the tournament's stream after `after` (or
/// the `Last-Event-ID` header), named by nothing (the `message` type pages listen to).
async fn events(
    AxState(web): AxState<Web>,
    Path(id): Path<String>,
    Query(q): Query<EventsQuery>,
    reader: Option<axum::Extension<arbiter_auth::Principal>>,
    headers: HeaderMap,
) -> Response {
    // The kinds each reader may see (arbiter_service_kit::redact): the caller's token when
    // the host authenticated one, else the public's.
    let reader = reader.map_or_else(arbiter_auth::Principal::public, |r| r.0);
    let mut redactor = arbiter_service_kit::redact::Redactor::new(reader, &id);
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
    // A player's own is judged on the stream from its start.
    if redactor.needs_history() {
        match log.read(&stream, 1).await {
            Ok(before) => before
                .iter()
                .take_while(|e| e.version <= after)
                .for_each(|e| redactor.skip(e)),
            Err(e) => return PageError::from_status(log_status(&e)).json(),
        }
    }
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
                    let kind = redactor.kind(&e).unwrap_or("Unknown");
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
        .route("/", get(index_html))
        .route("/t/{id}", get(standings_html))
        .route("/t/{id}/standings", get(standings_html))
        .route("/t/{id}/crosstable", get(crosstable_html))
        .route("/t/{id}/schedule", get(schedule_html))
        .route("/t/{id}/pairings", get(latest_pairings_html))
        .route("/t/{id}/pairings/{round}", get(pairings_html))
        .route("/t/{id}/players/{pn}", get(player_html))
        .route("/t/{id}/events", get(events))
        .route("/api/tournaments/{id}/ranking", get(ranking_api))
        .route("/api/tournaments/{id}/crosstable", get(crosstable_api))
        .route("/api/tournaments/{id}/players/{pn}", get(player_api))
        .route("/api/tournaments/{id}/heads", get(heads_api))
        .with_state(Web { store, shutdown })
}

/// `90 min + 30 s a move`, periods joined by " then ".
fn periods_text(periods: &[arbiter_core::tournament::TimeControlPeriod]) -> String {
    periods
        .iter()
        .map(|p| {
            let mut s = if p.base_seconds % 60 == 0 {
                format!("{} min", p.base_seconds / 60)
            } else {
                format!("{} s", p.base_seconds)
            };
            if p.moves > 0 {
                s = format!("{} moves in {s}", p.moves);
            }
            if p.increment_seconds > 0 {
                s = format!("{s} + {} s a move", p.increment_seconds);
            }
            if p.delay_seconds > 0 {
                s = format!("{s}, {} s delay", p.delay_seconds);
            }
            s
        })
        .collect::<Vec<_>>()
        .join(" then ")
}

/// What an online supervised event's regulations ask beyond the rules every such event has.
fn supervision_text(r: &arbiter_core::tournament::SupervisionRequirements) -> String {
    let mut parts = Vec::new();
    if r.playing_area_camera {
        parts.push("playing area on camera".to_string());
    }
    if r.room_inspection {
        parts.push("room inspection before each game".to_string());
    }
    if r.vcs_connect_minutes_before > 0 {
        parts.push(format!(
            "video-conference joined {} min before the start",
            r.vcs_connect_minutes_before
        ));
    }
    if r.backup_device_allowed {
        parts.push("one backup device allowed".to_string());
    }
    if r.assistants_allowed {
        parts.push("assistants allowed with the arbiter's permission".to_string());
    }
    if r.recording {
        parts.push("video recorded".to_string());
    }
    if r.surroundings_on_request {
        parts.push("surroundings shown on request".to_string());
    }
    parts.join("; ")
}
