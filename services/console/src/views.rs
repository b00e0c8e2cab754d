//! The console's markup (maud: every interpolated value is escaped).

use crate::session::Session;
use arbiter_proto::events::v1 as pb;
use arbiter_proto::registration::v1 as reg;
use arbiter_proto::reporting::v1 as rep;
use arbiter_proto::round_director::v1 as rd;
use maud::{DOCTYPE, Markup, html};

/// The stylesheet and script, served from the binary.
pub const CSS: &str = include_str!("../assets/console.css");
pub const JS: &str = include_str!("../assets/console.js");

/// A message shown at the top of a screen.
pub enum Flash {
    Refused(String),
}

/// The page frame: header with the signed-in subject, the tournament's tabs, the flash.
pub fn page(
    title: &str,
    session: Option<&Session>,
    tournament: Option<(&str, &str)>,
    flash: Option<&Flash>,
    body: Markup,
) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · arbiter console" }
                link rel="stylesheet" href="/console/assets/console.css";
                script src="/console/assets/console.js" defer {}
            }
            body {
                header.top {
                    a.brand href="/console/" { "arbiter" }
                    @if let Some(s) = session {
                        span.who { (s.principal.subject) " · " (s.principal.role.as_str()) }
                        form.inline method="post" action="/console/sign-out" {
                            input type="hidden" name="csrf" value=(s.csrf);
                            button type="submit" { "Sign out" }
                        }
                    }
                }
                @if let Some((id, name)) = tournament {
                    nav.tabs aria-label="Tournament" {
                        strong { (name) }
                        a href={"/console/t/" (id)} { "Overview" }
                        a href={"/console/t/" (id) "/players"} { "Players" }
                        a href={"/console/t/" (id) "/round"} { "Round" }
                        a href={"/console/t/" (id) "/standings"} { "Standings" }
                        a href={"/console/t/" (id) "/audit"} { "Audit" }
                        a href={"/t/" (id)} { "Public page" }
                    }
                }
                main id="live" {
                    @match flash {
                        Some(Flash::Refused(m)) => p.flash.refused role="alert" { (m) },
                        None => {},
                    }
                    (body)
                }
            }
        }
    }
}

fn csrf(s: &Session) -> Markup {
    html! { input type="hidden" name="csrf" value=(s.csrf); }
}

fn cmd() -> Markup {
    // A new id per rendered form: submitting the same form twice is one command.
    html! { input type="hidden" name="cmd" value=(crate::session::random_id()[..24]); }
}

pub fn sign_in_needed(message: &str) -> Markup {
    page(
        "Sign in",
        None,
        None,
        None,
        html! {
            h1 { "Sign in" }
            p { (message) }
            p { "Ask the server's operator for a sign-in link: "
                code { "arbiter console-link --data DIR" }
                " prints one (valid 15 minutes, for one sign-in)." }
        },
    )
}

pub fn confirm_sign_in(link: &str, subject: &str, role: &str) -> Markup {
    page(
        "Sign in",
        None,
        None,
        None,
        html! {
            h1 { "Sign in" }
            p { "This link signs you in as " strong { (subject) } " (" (role) ")." }
            form method="post" action=(arbiter_auth::link::SIGN_IN_PATH) {
                input type="hidden" name="link" value=(link);
                button type="submit" id="sign-in" autofocus { "Sign in" }
            }
        },
    )
}

pub fn forbidden(s: &Session, message: &str) -> Markup {
    page(
        "Not allowed",
        Some(s),
        None,
        None,
        html! { h1 { "Not allowed" } p.flash.refused role="alert" { (message) } },
    )
}

pub fn tournaments(s: &Session, list: &[reg::TournamentSummary], flash: Option<&Flash>) -> Markup {
    page(
        "Tournaments",
        Some(s),
        None,
        flash,
        html! {
            h1 { "Tournaments" }
            p { a.button id="new-tournament" href="/console/new" { "New tournament" } }
            @if list.is_empty() {
                p { "No tournament yet." }
            } @else {
                div.scroll { table {
                    thead { tr { th { "Tournament" } th { "Starts" } th.num { "Rounds" } th.num { "Players" } } }
                    tbody { @for t in list {
                        tr {
                            td { a href={"/console/t/" (t.tournament_id)} { (t.name) } br; small { (t.tournament_id) } }
                            td { (date(t.start_date.as_ref())) }
                            td.num { (t.rounds) }
                            td.num { (t.players) }
                        }
                    } }
                } }
            }
        },
    )
}

pub fn date(d: Option<&pb::Date>) -> String {
    match d {
        Some(d) if d.year > 0 => format!("{:04}-{:02}-{:02}", d.year, d.month, d.day),
        _ => String::new(),
    }
}

/// One labelled field with its one-line explanation.
fn field(label: &str, name: &str, input: Markup, help: &str) -> Markup {
    html! {
        div.field {
            label for=(name) { (label) }
            (input)
            small id={(name) "-help"} { (help) }
        }
    }
}

pub const SYSTEMS: &[(&str, &str)] = &[
    ("dutch-2025", "Swiss, Dutch system (C.04.3, rules in force from 2025)"),
    ("dutch-2017", "Swiss, Dutch system (C.04.3, 2017 rules)"),
    ("burstein", "Swiss, Burstein system (C.04.4.2)"),
    ("dubov", "Swiss, Dubov system (C.04.4.1)"),
    ("lim", "Swiss, Lim system (C.04.4.3)"),
    ("round-robin", "Round robin, Berger tables (C.05)"),
    ("double-round-robin", "Double round robin, Berger tables (C.05)"),
];

pub fn new_tournament(s: &Session, today: &str, flash: Option<&Flash>, values: &NewValues) -> Markup {
    page(
        "New tournament",
        Some(s),
        None,
        flash,
        html! {
            h1 { "New tournament" }
            form.settings method="post" action="/console/new" {
                (csrf(s)) (cmd())
                (field("Name", "name", html!{ input id="name" name="name" required value=(values.name) aria-describedby="name-help"; }, "As it appears on the pages and in the rating report."))
                (field("Identifier", "id", html!{ input id="id" name="id" required pattern="[a-z0-9][a-z0-9-]{0,63}" value=(values.id) aria-describedby="id-help"; }, "Lower-case letters, digits and hyphens; part of every address of the tournament."))
                (field("System", "system", html!{ select id="system" name="system" aria-describedby="system-help" {
                    @for (v, label) in SYSTEMS { option value=(v) selected[*v == values.system] { (label) } }
                } }, "How rounds are paired; kept for the whole tournament."))
                (field("Rounds", "rounds", html!{ input id="rounds" name="rounds" type="number" min="1" max="99" required value=(values.rounds) aria-describedby="rounds-help"; }, "Announced number of rounds (a round robin's follows from the players)."))
                (field("Start date", "start", html!{ input id="start" name="start" type="date" required value=(if values.start.is_empty() { today } else { &values.start }) aria-describedby="start-help"; }, "First round's date."))
                (field("End date", "end", html!{ input id="end" name="end" type="date" value=(values.end) aria-describedby="end-help"; }, "Last round's date; empty: the start date."))
                (field("Place", "place", html!{ input id="place" name="place" value=(values.place) aria-describedby="place-help"; }, "City or venue."))
                (field("Federation", "federation", html!{ input id="federation" name="federation" maxlength="3" value=(values.federation) aria-describedby="federation-help"; }, "Organising federation, three letters (e.g. ESP)."))
                (field("Chief arbiter", "chief", html!{ input id="chief" name="chief" required value=(if values.chief.is_empty() { s.principal.subject.as_str() } else { values.chief.as_str() }) aria-describedby="chief-help"; }, "\"Surname, Given\" as in the FIDE list."))
                (field("Time control", "time_control", html!{ input id="time_control" name="time_control" value=(values.time_control) placeholder="90 min + 30 s a move" aria-describedby="time_control-help"; }, "As announced; the rating kind below decides which list rates the games."))
                (field("Rating kind", "rating_kind", html!{ select id="rating_kind" name="rating_kind" aria-describedby="rating_kind-help" {
                    option value="standard" selected[values.rating_kind == "standard"] { "Standard" }
                    option value="rapid" selected[values.rating_kind == "rapid"] { "Rapid" }
                    option value="blitz" selected[values.rating_kind == "blitz"] { "Blitz" }
                } }, "Which FIDE rating ranks the players and which list the event is rated for."))
                (field("Tie-breaks", "tie_breaks", html!{ input id="tie_breaks" name="tie_breaks" value=(values.tie_breaks) placeholder="e.g. BH:C1,BH,SB" aria-describedby="tie_breaks-help"; }, "C.07 codes separated by commas; empty: the list C.07 recommends for the system."))
                div.field.check {
                    input id="fide_rated" name="fide_rated" type="checkbox" value="on" checked[values.fide_rated.is_some()];
                    label for="fide_rated" { "FIDE-rated" }
                }
                button type="submit" id="create" { "Create tournament" }
            }
        },
    )
}

/// What the creation form was filled with (kept when the service refuses it).
#[derive(Debug, Clone, Default, serde::Deserialize)]
#[serde(default)]
pub struct NewValues {
    pub id: String,
    pub name: String,
    pub system: String,
    pub rounds: String,
    pub start: String,
    pub end: String,
    pub place: String,
    pub federation: String,
    pub chief: String,
    pub time_control: String,
    pub rating_kind: String,
    pub tie_breaks: String,
    pub fide_rated: Option<String>,
}

impl NewValues {
    pub fn fresh() -> NewValues {
        NewValues {
            system: "dutch-2025".into(),
            rounds: "5".into(),
            rating_kind: "standard".into(),
            fide_rated: Some("on".into()),
            ..NewValues::default()
        }
    }
}

pub fn phase_text(p: i32) -> &'static str {
    match rd::Phase::try_from(p).unwrap_or(rd::Phase::Unspecified) {
        rd::Phase::Registration => "registration (no round started)",
        rd::Phase::AwaitingPairing => "pairing being computed",
        rd::Phase::PairingProposed => "pairing proposed, waiting for publication",
        rd::Phase::Playing => "round being played",
        rd::Phase::RoundClosed => "round closed",
        rd::Phase::Finished => "finished",
        rd::Phase::Unspecified => "unknown",
    }
}

pub fn overview(s: &Session, st: &rd::TournamentState, flash: Option<&Flash>) -> Markup {
    let id = st.tournament_id.as_str();
    page(
        &st.name,
        Some(s),
        Some((id, &st.name)),
        flash,
        html! {
            h1 { (st.name) }
            dl.facts {
                dt { "State" } dd id="phase" { (phase_text(st.phase)) }
                dt { "Round" } dd { (st.current_round) " of " (st.rounds) }
                dt { "Pairing rules" } dd { (st.rule_set) }
                dt { "Events" } dd { (st.version) }
            }
            h2 { "Exports" }
            p {
                a href={"/console/t/" (id) "/export?format=trf16"} download { "TRF16" } " · "
                a href={"/console/t/" (id) "/export?format=trf2026"} download { "TRF-2026" } " · "
                a href={"/api/tournaments/" (id) "/standings"} { "Standings JSON" }
            }
            h2 { "Print" }
            p {
                a href={"/t/" (id) "/standings"} { "Standings" } " · "
                a href={"/t/" (id) "/crosstable"} { "Crosstable" } " · "
                a href={"/t/" (id) "/pairings"} { "Pairings" }
            }
        },
    )
}

/// What the rating-list search found (or why it could not search).
pub struct Found {
    pub query: String,
    pub players: Result<Vec<pb::Player>, String>,
}

pub fn players(
    s: &Session,
    id: &str,
    name: &str,
    list: &reg::ListPlayersResponse,
    flash: Option<&Flash>,
    paste: &str,
    found: Option<&Found>,
) -> Markup {
    page(
        &format!("Players · {name}"),
        Some(s),
        Some((id, name)),
        flash,
        html! {
            h1 { "Players" }
            h2 { "Find in the rating list" }
            form.row.find method="get" action={"/console/t/" (id) "/players"} role="search" {
                (field("FIDE id or name", "find", html!{ input id="find" name="find" type="search" autocomplete="off" value=(found.map(|f| f.query.as_str()).unwrap_or("")) aria-describedby="find-help" aria-controls="found"; }, "A FIDE id, or the start of the name as the list writes it (Surname, Given)."))
                button type="submit" id="find-button" { "Find" }
            }
            div id="found" aria-live="polite" {
                @if let Some(f) = found {
                    @match &f.players {
                        Err(e) => p.flash.refused role="alert" { (e) },
                        Ok(players) if players.is_empty() => p { "Nobody in the list for " strong { (f.query) } "." },
                        Ok(players) => div.scroll { table id="found-players" {
                            thead { tr { th { "Title" } th { "Name" } th.num { "Rating" } th { "Fed" } th { "FIDE id" } th { span.sr { "Actions" } } } }
                            tbody { @for p in players {
                                tr {
                                    td { (title_text(p.title)) }
                                    td.name { (p.name) }
                                    td.num { (p.rating) }
                                    td { (p.federation) }
                                    td { @if let Some(f) = p.fide_id { (f) } }
                                    td {
                                        form.inline method="post" action={"/console/t/" (id) "/players"} {
                                            (csrf(s)) (cmd())
                                            input type="hidden" name="name" value=(p.name);
                                            input type="hidden" name="fide_id" value=(p.fide_id.map(|f| f.to_string()).unwrap_or_default());
                                            input type="hidden" name="rating" value=(p.rating);
                                            input type="hidden" name="federation" value=(p.federation);
                                            input type="hidden" name="title" value=(title_text(p.title));
                                            button type="submit" aria-label={"Register " (p.name)} { "Register" }
                                        }
                                    }
                                }
                            } }
                        } },
                    }
                }
            }
            h2 { "Add a player" }
            form.row method="post" action={"/console/t/" (id) "/players"} {
                (csrf(s)) (cmd())
                (field("Name", "p-name", html!{ input id="p-name" name="name" required placeholder="Surname, Given" aria-describedby="p-name-help"; }, "As in the FIDE list."))
                (field("FIDE id", "p-fide", html!{ input id="p-fide" name="fide_id" inputmode="numeric" aria-describedby="p-fide-help"; }, "With a rating list imported, the rest is filled from it."))
                (field("Rating", "p-rating", html!{ input id="p-rating" name="rating" inputmode="numeric" aria-describedby="p-rating-help"; }, "Empty: unrated."))
                (field("Federation", "p-fed", html!{ input id="p-fed" name="federation" maxlength="3" aria-describedby="p-fed-help"; }, "Three letters."))
                button type="submit" id="add-player" { "Add" }
            }
            h2 { "Paste a list" }
            form method="post" action={"/console/t/" (id) "/players/paste"} {
                (csrf(s)) (cmd())
                (field("Players", "paste", html!{ textarea id="paste" name="list" rows="8" aria-describedby="paste-help" { (paste) } }, "One a line from a spreadsheet: name, rating, FIDE id, federation, title (tabs or semicolons between cells)."))
                button type="submit" id="paste-players" { "Register all" }
            }
            h2 { "Starting list" }
            p { (list.players.len()) " registered; starting list in the order of C.04.2.B (rating, title, name)." }
            // One form for every row's cancel button (one CSRF token, not one a row).
            form id="cancel" method="post" action={"/console/t/" (id) "/players/cancel"} {
                (csrf(s)) (cmd())
            }
            div.scroll { table id="players" {
                thead { tr { th.num { "No." } th { "Title" } th { "Name" } th.num { "Rating" } th { "Fed" } th { "FIDE id" } th { "Status" } th { span.sr { "Actions" } } } }
                tbody { @for p in &list.players {
                    @if let Some(pl) = &p.player {
                        tr {
                            td.num { (pl.player_id) }
                            td { (title_text(pl.title)) }
                            td.name { (pl.name) }
                            td.num { (pl.rating) }
                            td { (pl.federation) }
                            td { @if let Some(f) = pl.fide_id { (f) } }
                            td { (status(p.status)) }
                            td {
                                button.quiet type="submit" form="cancel" name="entry" value=(p.entry) aria-label={"Cancel the registration of " (pl.name)} { "Cancel registration" }
                            }
                        }
                    }
                } }
            } }
        },
    )
}

fn title_text(t: i32) -> &'static str {
    match pb::Title::try_from(t).unwrap_or(pb::Title::Unspecified) {
        pb::Title::Gm => "GM",
        pb::Title::Im => "IM",
        pb::Title::Fm => "FM",
        pb::Title::Cm => "CM",
        pb::Title::Wgm => "WGM",
        pb::Title::Wim => "WIM",
        pb::Title::Wfm => "WFM",
        pb::Title::Wcm => "WCM",
        _ => "",
    }
}

fn status(s: i32) -> &'static str {
    match reg::PlayerStatus::try_from(s).unwrap_or(reg::PlayerStatus::Unspecified) {
        reg::PlayerStatus::Active => "active",
        reg::PlayerStatus::Withdrawn => "withdrawn",
        reg::PlayerStatus::ConsentMissing => "consent missing",
        reg::PlayerStatus::Unspecified => "",
    }
}

pub fn result_text(r: i32) -> &'static str {
    match pb::BoardResult::try_from(r).unwrap_or(pb::BoardResult::Unspecified) {
        pb::BoardResult::Unspecified => "",
        pb::BoardResult::WhiteWins => "1-0",
        pb::BoardResult::Draw => "½-½",
        pb::BoardResult::BlackWins => "0-1",
        pb::BoardResult::WhiteWinsForfeit => "+/-",
        pb::BoardResult::BlackWinsForfeit => "-/+",
        pb::BoardResult::DoubleForfeit => "-/-",
        pb::BoardResult::WhiteWinsUnrated => "W/L",
        pb::BoardResult::DrawUnrated => "D/D",
        pb::BoardResult::BlackWinsUnrated => "L/W",
        pb::BoardResult::ArbiterDecision => "arbiter",
    }
}

/// What the round screen knows.
pub struct RoundView<'a> {
    pub state: &'a rd::TournamentState,
    pub pairings: Option<&'a rep::RoundPairings>,
    pub names: &'a std::collections::HashMap<u32, String>,
    pub boards_text: String,
    /// The pairing worker's explanation of the proposal, in words.
    pub explanation: Option<String>,
    /// The engine's verdict on the published pairing (asked for on this screen).
    pub verdict: Option<String>,
}

pub fn round(s: &Session, v: &RoundView, flash: Option<&Flash>) -> Markup {
    let st = v.state;
    let id = st.tournament_id.as_str();
    let phase = rd::Phase::try_from(st.phase).unwrap_or(rd::Phase::Unspecified);
    let name = |pn: u32| v.names.get(&pn).cloned().unwrap_or_default();
    let action = |what: &str| format!("/console/t/{id}/round/{what}");
    page(
        &format!("Round · {}", st.name),
        Some(s),
        Some((id, &st.name)),
        flash,
        html! {
            h1 { "Round " (st.current_round) " of " (st.rounds) }
            p id="phase" data-phase=(st.phase) { (phase_text(st.phase)) }
            @match phase {
                rd::Phase::Registration | rd::Phase::RoundClosed if st.current_round < st.rounds => {
                    form method="post" action=(action("start")) {
                        (csrf(s)) (cmd())
                        button type="submit" id="start-round" { "Pair round " (st.current_round + 1) }
                    }
                }
                rd::Phase::RoundClosed => {
                    form method="post" action=(action("finish")) {
                        (csrf(s)) (cmd())
                        button type="submit" id="finish" { "Finish the tournament" }
                    }
                }
                rd::Phase::AwaitingPairing => {
                    p { "The pairing is being computed; this page shows it once ready." }
                    p { a href=(action("")) { "Refresh" } }
                }
                _ => {}
            }
            @if phase == rd::Phase::Playing {
                h2 { "Results" }
                p { "Pending boards: " span id="pending" { (st.pending_boards.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")) } }
                form.row.entry method="post" action=(action("result")) {
                    (csrf(s)) (cmd())
                    (field("Board", "board", html!{ input id="board" name="board" inputmode="numeric" required autofocus aria-describedby="board-help"; }, "Board number."))
                    (field("Result", "result", html!{ input id="result" name="result" required aria-describedby="result-help"; }, "1 (1-0), 0 (0-1), = (½-½), + (+/-), - (-/+), -- (-/-)."))
                    button type="submit" id="record" { "Record" }
                }
                details id="correct-result" {
                    summary { "Correct a result" }
                    form.row method="post" action=(action("correct")) {
                        (csrf(s)) (cmd())
                        (field("Board", "c-board", html!{ input id="c-board" name="board" inputmode="numeric" required aria-describedby="c-board-help"; }, "Board number."))
                        (field("Result", "c-result", html!{ input id="c-result" name="result" required aria-describedby="c-result-help"; }, "As for entry."))
                        (field("Why", "c-reason", html!{ input id="c-reason" name="reason" required aria-describedby="c-reason-help"; }, "Recorded with the correction."))
                        button type="submit" id="correct" { "Correct" }
                    }
                }
                @if st.pending_boards.is_empty() {
                    form method="post" action=(action("close")) {
                        (csrf(s)) (cmd())
                        button type="submit" id="close-round" { "Close round " (st.current_round) }
                    }
                }
            }
            @if let Some(p) = v.pairings {
                h2 { @if p.published { "Pairings" } @else { "Proposed pairings" } }
                div.scroll { table id="boards" {
                    thead { tr { th.num { "Board" } th.num { "No." } th { "White" } th.res { "Result" } th { "Black" } th.num { "No." } } }
                    tbody { @for b in &p.boards { @if let Some(bd) = &b.board {
                        tr data-board=(bd.number) {
                            td.num { (bd.number) }
                            td.num { (bd.white) }
                            td.name { (name(bd.white)) }
                            td.res { (result_text(b.result)) }
                            td.name { (name(bd.black)) }
                            td.num { (bd.black) }
                        }
                    } } }
                } }
                @if !p.unpaired.is_empty() {
                    p { "Not paired: "
                        @for (i, u) in p.unpaired.iter().enumerate() {
                            @if i > 0 { ", " }
                            (u.player_id) " " (name(u.player_id)) " (" (unpaired_text(u.code)) ")"
                        }
                    }
                }
                @if phase == rd::Phase::PairingProposed {
                    form method="post" action=(action("publish")) {
                        (csrf(s)) (cmd())
                        button type="submit" id="publish" { "Publish" }
                    }
                    @if let Some(x) = &v.explanation {
                        details id="explanation" {
                            summary { "Why this pairing" }
                            pre.explain { (x) }
                        }
                    }
                    details id="change-by-hand" {
                        summary { "Change by hand" }
                        form method="post" action=(action("publish")) {
                            (csrf(s)) (cmd())
                            (field("Boards", "hand-boards", html!{ textarea id="hand-boards" name="boards" rows="8" aria-describedby="hand-boards-help" { (v.boards_text) } }, "One board a line: white's number, black's number (\"0\" for the bye). The round director checks the change (C.04.1) before it is published."))
                            (field("Why", "note", html!{ input id="note" name="note" required aria-describedby="note-help"; }, "Recorded with the pairing and shown on the public page."))
                            button type="submit" id="publish-changed" { "Publish as changed" }
                        }
                    }
                }
            }
            @if v.pairings.is_some_and(|p| p.published) {
                form method="post" action=(action("check")) {
                    (csrf(s)) (cmd())
                    button.secondary type="submit" id="check" { "Check against the engine" }
                }
            }
            @if let Some(x) = &v.verdict {
                p.verdict id="verdict" role="status" { (x) }
            }
            @if !st.corrections.is_empty() {
                h2 { "Corrections" }
                ul { @for c in &st.corrections {
                    li { "Round " (c.round) ", board " (c.board) ": " (result_text(c.previous)) " → " (result_text(c.corrected)) " (" (c.reason) "); " (correction_effect(c.effect)) }
                } }
            }
        },
    )
}

fn correction_effect(e: i32) -> &'static str {
    match rd::CorrectionEffect::try_from(e).unwrap_or(rd::CorrectionEffect::Unspecified) {
        rd::CorrectionEffect::NextPairing => "counts for the next pairing",
        rd::CorrectionEffect::LaterPairings => "counts for later pairings only (C.04.2.D.8)",
        rd::CorrectionEffect::FinalEvaluationOnly => "counts for the final standings only",
        rd::CorrectionEffect::Unspecified => "",
    }
}

fn unpaired_text(code: i32) -> &'static str {
    match pb::ResultCode::try_from(code).unwrap_or(pb::ResultCode::Unspecified) {
        pb::ResultCode::PairingBye => "pairing-allocated bye",
        pb::ResultCode::HalfBye => "half-point bye",
        pb::ResultCode::FullBye => "full-point bye",
        pb::ResultCode::ZeroBye => "zero-point bye",
        _ => "not paired",
    }
}

pub fn standings(s: &Session, id: &str, name: &str, st: &rep::Standings, flash: Option<&Flash>) -> Markup {
    page(
        &format!("Standings · {name}"),
        Some(s),
        Some((id, name)),
        flash,
        html! {
            h1 { "Standings after round " (st.after_round) }
            div.scroll { table id="standings" {
                thead { tr {
                    th.num { "Rank" } th.num { "No." } th { "Name" } th { "Fed" } th.num { "Rating" } th.num { "Pts" }
                    @for tb in &st.tie_break_list { th.num { (tb) } }
                } }
                tbody { @for r in &st.rows {
                    tr {
                        td.num { (r.rank) @if r.rank_to > r.rank { "-" (r.rank_to) } }
                        td.num { (r.player_id) }
                        td.name { (r.name) }
                        td { (r.federation) }
                        td.num { (r.rating) }
                        td.num { (points(r.points)) }
                        @for tb in &r.tie_breaks { td.num { (decimal(tb.value.as_ref())) } }
                    }
                } }
            } }
            @for n in &st.notes { p.note { (n) } }
        },
    )
}

/// Points are kept in tenths.
pub fn points(tenths: i32) -> String {
    if tenths % 10 == 0 {
        (tenths / 10).to_string()
    } else {
        format!("{}.{}", tenths / 10, (tenths % 10).abs())
    }
}

/// A fixed-point value as written: `units` with `scale` decimals.
pub fn decimal(d: Option<&arbiter_proto::common::v1::Decimal>) -> String {
    let Some(d) = d else { return String::new() };
    if d.scale == 0 {
        return d.units.to_string();
    }
    let p = 10i64.pow(d.scale);
    let sign = if d.units < 0 { "-" } else { "" };
    let a = d.units.unsigned_abs();
    format!("{sign}{}.{:0w$}", a / p as u64, a % p as u64, w = d.scale as usize)
}

pub fn audit(s: &Session, id: &str, name: &str, events: &[pb::Envelope], flash: Option<&Flash>) -> Markup {
    page(
        &format!("Audit · {name}"),
        Some(s),
        Some((id, name)),
        flash,
        html! {
            h1 { "Event log" }
            p { (events.len()) " events, each chained to the one before by its hash; "
                code { "arbiter replay" } " re-derives every round from them." }
            div.scroll { table id="events" {
                thead { tr { th.num { "#" } th { "Event" } th { "Actor" } th { "Recorded (UTC)" } th { "Hash" } } }
                tbody { @for e in events {
                    tr {
                        td.num { (e.sequence) }
                        td { (kind(e)) }
                        td.actor { (e.actor) }
                        td { (time(e.time_unix_ms)) }
                        td { code { (hex(&e.hash, 8)) } }
                    }
                } }
            } }
        },
    )
}

fn kind(e: &pb::Envelope) -> String {
    let Some(p) = e.payload.as_ref().and_then(|p| p.kind.as_ref()) else {
        return if e.redacted { "(redacted)".into() } else { String::new() };
    };
    let debug = format!("{p:?}");
    debug.split('(').next().unwrap_or_default().to_string()
}

fn hex(b: &[u8], n: usize) -> String {
    b.iter().take(n).map(|x| format!("{x:02x}")).collect()
}

/// `YYYY-MM-DD HH:MM:SS` of a Unix time in milliseconds.
pub fn time(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    let (y, m, d) = civil(days);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02}",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// The proleptic Gregorian date of a day count since 1970-01-01 (H. Hinnant's algorithm).
pub fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_times_in_utc() {
        assert_eq!(civil(0), (1970, 1, 1));
        assert_eq!(civil(20_454), (2026, 1, 1));
        assert_eq!(time(1_767_225_600_000 + 3_723_000), "2026-01-01 01:02:03");
        assert_eq!(points(15), "1.5");
        assert_eq!(points(20), "2");
        let d = |units, scale| decimal(Some(&arbiter_proto::common::v1::Decimal { units, scale }));
        assert_eq!((d(125, 1), d(-5, 2), d(7, 0)), ("12.5".into(), "-0.05".into(), "7".into()));
    }
}
