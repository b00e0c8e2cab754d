//! The console's routes: each screen reads through gRPC with the session's token and renders;
//! each form posts, is checked for the session's CSRF token, becomes one gRPC command, and
//! redirects back (a refusal is shown on the screen with the service's words).

// A refusal is the page answered, made once per request: boxing it buys nothing.
#![allow(clippy::result_large_err)]

use crate::i18n::Lang;
use crate::session::{Session, cleared_cookie, same_token, session_cookie};
use crate::views::{self, Flash, NewValues, RoundView};
use crate::{Clients, Console, paste};
use arbiter_auth::link::SIGN_IN_PATH;
use arbiter_auth::{Grant, Role};
use arbiter_proto::common::v1::{CommandHeader, TournamentRef, TrfFormat};
use arbiter_proto::events::v1 as pb;
use arbiter_proto::pairing_worker::v1 as pw;
use arbiter_proto::registration::v1 as reg;
use arbiter_proto::reporting::v1 as rep;
use arbiter_proto::round_director::v1 as rd;
use axum::extract::{Form, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use maud::Markup;
use std::collections::HashMap;
use std::sync::Arc;

type App = State<Arc<Console>>;
type Fields = Form<HashMap<String, String>>;

pub fn routes() -> axum::Router<Arc<Console>> {
    axum::Router::new()
        .route(
            "/console",
            get(|| async { Redirect::permanent("/console/") }),
        )
        .route("/console/", get(index))
        .route("/console/assets/console.css", get(css))
        .route("/console/assets/console.js", get(js))
        .route(SIGN_IN_PATH, get(sign_in_page).post(sign_in))
        .route("/console/sign-out", post(sign_out))
        .route("/console/language", post(language))
        .route("/console/new", get(new_page).post(create))
        .route("/console/t/{id}", get(overview))
        .route("/console/t/{id}/players", get(players).post(add_player))
        .route("/console/t/{id}/players/paste", post(paste_players))
        .route("/console/t/{id}/players/cancel", post(cancel))
        .route("/console/t/{id}/round", get(round))
        .route("/console/t/{id}/round/", get(round))
        .route("/console/t/{id}/round/{action}", post(round_action))
        .route("/console/t/{id}/standings", get(standings))
        .route("/console/t/{id}/audit", get(audit))
        .route("/console/t/{id}/audit/replay", post(replay))
        .route("/console/t/{id}/export", get(export))
}

/// An HTML answer (never cached: it shows the signed-in arbiter's view).
fn html(status: StatusCode, m: Markup) -> Response {
    let mut r = (status, m).into_response();
    let h = r.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; style-src 'self'; script-src 'self'; connect-src 'self'; \
             img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
        ),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    r
}

async fn css() -> Response {
    asset("text/css; charset=utf-8", views::CSS)
}

async fn js() -> Response {
    asset("text/javascript; charset=utf-8", views::JS)
}

fn asset(kind: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "public, max-age=3600"),
        ],
        body,
    )
        .into_response()
}

/// The language a request without a session asks for.
fn lang_of(headers: &HeaderMap) -> Lang {
    Lang::negotiate(
        headers
            .get(header::ACCEPT_LANGUAGE)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default(),
    )
}

/// The session of the request, or the sign-in page.
fn session(c: &Console, headers: &HeaderMap) -> Result<(String, Session), Response> {
    c.sessions.current(headers).ok_or_else(|| {
        html(
            StatusCode::UNAUTHORIZED,
            views::sign_in_needed(lang_of(headers), &lang_of(headers).t("not-signed-in")),
        )
    })
}

/// The session of a form post: its CSRF token must be the session's.
fn posted(
    c: &Console,
    headers: &HeaderMap,
    form: &HashMap<String, String>,
) -> Result<Session, Response> {
    let (_, s) = session(c, headers)?;
    match form.get("csrf") {
        Some(t) if same_token(t, &s.csrf) => Ok(s),
        _ => Err(html(
            StatusCode::FORBIDDEN,
            views::forbidden(&s, &s.lang.t("stale-form")),
        )),
    }
}

/// The arbiter screens of tournament `id` need what every command of an arbiter needs, by
/// the same rule the services apply.
fn arbiter_of(s: &Session, id: &str) -> Result<(), Response> {
    match s.principal.authorize("RecordResult", id) {
        Ok(Grant::Full) => Ok(()),
        Ok(Grant::OwnEntry(_)) => Err(html(
            StatusCode::FORBIDDEN,
            views::forbidden(s, &s.lang.ta("arbiters-only", &[("tournament", id.into())])),
        )),
        Err(status) => Err(html(
            StatusCode::FORBIDDEN,
            views::forbidden(s, status.message()),
        )),
    }
}

fn clients(c: &Console, s: &Session) -> Result<Clients, Response> {
    c.clients(&s.bearer)
        .map_err(|e| html(StatusCode::SERVICE_UNAVAILABLE, views::forbidden(s, &e)))
}

/// A service's refusal in words, with the status code it maps to.
fn refused(e: &tonic::Status) -> (StatusCode, Flash) {
    use tonic::Code::*;
    let status = match e.code() {
        InvalidArgument | OutOfRange => StatusCode::UNPROCESSABLE_ENTITY,
        FailedPrecondition | Aborted | AlreadyExists => StatusCode::CONFLICT,
        NotFound => StatusCode::NOT_FOUND,
        PermissionDenied => StatusCode::FORBIDDEN,
        Unauthenticated => StatusCode::UNAUTHORIZED,
        _ => StatusCode::SERVICE_UNAVAILABLE,
    };
    (status, Flash::Refused(e.message().to_string()))
}

fn header_for(
    s: &Session,
    id: &str,
    form: &HashMap<String, String>,
    part: &str,
) -> Option<CommandHeader> {
    let cmd = form.get("cmd").map(String::as_str).unwrap_or_default();
    let cmd = if cmd.is_empty() {
        crate::session::random_id()
    } else {
        cmd.to_string()
    };
    Some(CommandHeader {
        tournament_id: id.to_string(),
        command_id: format!("console-{cmd}{part}"),
        expected_version: None,
        actor: s.principal.subject.clone(),
    })
}

fn tref(id: &str) -> Option<TournamentRef> {
    Some(TournamentRef {
        tournament_id: id.to_string(),
        as_of_version: 0,
    })
}

fn see_other(path: String) -> Response {
    Redirect::to(&path).into_response()
}

// --- sign-in -----------------------------------------------------------------------------

#[derive(serde::Deserialize)]
struct LinkQuery {
    #[serde(default)]
    link: String,
}

async fn sign_in_page(State(c): App, headers: HeaderMap, Query(q): Query<LinkQuery>) -> Response {
    let lang = lang_of(&headers);
    match c.sessions.check_link(&q.link) {
        Ok(l) => html(
            StatusCode::OK,
            views::confirm_sign_in(
                lang,
                &q.link,
                &l.principal.subject,
                l.principal.role.as_str(),
            ),
        ),
        Err(e) => html(StatusCode::UNAUTHORIZED, views::sign_in_needed(lang, &e.0)),
    }
}

async fn sign_in(State(c): App, headers: HeaderMap, Form(f): Fields) -> Response {
    let link = f.get("link").map(String::as_str).unwrap_or_default();
    let lang = lang_of(&headers);
    match c.sessions.sign_in(link, lang) {
        Ok((id, s)) => {
            tracing::info!(subject = %s.principal.subject, role = s.principal.role.as_str(), "console sign-in");
            let mut r = see_other("/console/".into());
            if let Ok(v) = HeaderValue::from_str(&session_cookie(&id, c.secure_cookies)) {
                r.headers_mut().insert(header::SET_COOKIE, v);
            }
            r
        }
        Err(e) => html(StatusCode::UNAUTHORIZED, views::sign_in_needed(lang, &e.0)),
    }
}

/// The session's language, from the header's choice.
async fn language(State(c): App, headers: HeaderMap, Form(f): Fields) -> Response {
    if let Err(r) = posted(&c, &headers, &f) {
        return r;
    }
    if let (Some((id, _)), Some(lang)) = (
        c.sessions.current(&headers),
        f.get("lang").and_then(|t| Lang::from_tag(t)),
    ) {
        c.sessions.set_lang(&id, lang);
    }
    see_other("/console/".into())
}

async fn sign_out(State(c): App, headers: HeaderMap, Form(f): Fields) -> Response {
    if let Err(r) = posted(&c, &headers, &f) {
        return r;
    }
    if let Some((id, _)) = c.sessions.current(&headers) {
        c.sessions.sign_out(&id);
    }
    let lang = c
        .sessions
        .current(&headers)
        .map_or(lang_of(&headers), |(_, s)| s.lang);
    let mut r = html(
        StatusCode::OK,
        views::sign_in_needed(lang, &lang.t("signed-out")),
    );
    if let Ok(v) = HeaderValue::from_str(&cleared_cookie(c.secure_cookies)) {
        r.headers_mut().insert(header::SET_COOKIE, v);
    }
    r
}

// --- tournaments ---------------------------------------------------------------------------

fn console_role(s: &Session) -> Result<(), Response> {
    match s.principal.role {
        Role::Admin | Role::ChiefArbiter | Role::Arbiter => Ok(()),
        other => Err(html(
            StatusCode::FORBIDDEN,
            views::forbidden(
                s,
                &s.lang
                    .ta("console-for-arbiters", &[("role", other.as_str().into())]),
            ),
        )),
    }
}

async fn index(State(c): App, headers: HeaderMap) -> Response {
    let (_, s) = match session(&c, &headers) {
        Ok(s) => s,
        Err(r) => return r,
    };
    if let Err(r) = console_role(&s) {
        return r;
    }
    let mut cl = match clients(&c, &s) {
        Ok(c) => c,
        Err(r) => return r,
    };
    match cl
        .reg
        .list_tournaments(reg::ListTournamentsRequest {})
        .await
    {
        Ok(l) => {
            let list: Vec<_> = l
                .into_inner()
                .tournaments
                .into_iter()
                .filter(|t| arbiter_of(&s, &t.tournament_id).is_ok())
                .collect();
            html(StatusCode::OK, views::tournaments(&s, &list, None))
        }
        Err(e) => {
            let (code, flash) = refused(&e);
            html(code, views::tournaments(&s, &[], Some(&flash)))
        }
    }
}

fn today() -> String {
    let days = crate::session::unix_now() as i64 / 86_400;
    let (y, m, d) = views::civil(days);
    format!("{y:04}-{m:02}-{d:02}")
}

async fn new_page(State(c): App, headers: HeaderMap) -> Response {
    let (_, s) = match session(&c, &headers) {
        Ok(s) => s,
        Err(r) => return r,
    };
    if let Err(r) = console_role(&s) {
        return r;
    }
    html(
        StatusCode::OK,
        views::new_tournament(&s, &today(), None, &NewValues::fresh()),
    )
}

fn parse_date(field: &str, v: &str) -> Result<Option<pb::Date>, String> {
    if v.trim().is_empty() {
        return Ok(None);
    }
    let parts: Vec<&str> = v.trim().split('-').collect();
    let bad = || format!("{field}: {v:?} is not a date (YYYY-MM-DD)");
    let [y, m, d] = parts.as_slice() else {
        return Err(bad());
    };
    let (year, month, day) = (
        y.parse::<i32>().map_err(|_| bad())?,
        m.parse::<u32>().map_err(|_| bad())?,
        d.parse::<u32>().map_err(|_| bad())?,
    );
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return Err(bad());
    }
    Ok(Some(pb::Date { year, month, day }))
}

/// The creation request a filled form stands for.
fn creation(v: &NewValues) -> Result<pb::TournamentCreated, String> {
    let (system, rule_set) = match v.system.as_str() {
        "dutch-2025" | "dutch-2017" => (pb::PairingSystem::Dutch, v.system.clone()),
        "burstein" => (pb::PairingSystem::Burstein, String::new()),
        "dubov" => (pb::PairingSystem::Dubov, String::new()),
        "lim" => (pb::PairingSystem::Lim, String::new()),
        "round-robin" => (pb::PairingSystem::RoundRobin, String::new()),
        "double-round-robin" => (pb::PairingSystem::DoubleRoundRobin, String::new()),
        other => return Err(format!("system: {other:?} is not one this console offers")),
    };
    let rounds: u32 = v
        .rounds
        .trim()
        .parse()
        .map_err(|_| format!("rounds: {:?} is not a number", v.rounds))?;
    let start =
        parse_date("start date", &v.start)?.ok_or("start date: give the first round's date")?;
    let end = parse_date("end date", &v.end)?.unwrap_or(start);
    let rating_kind = match v.rating_kind.as_str() {
        "rapid" => pb::RatingKind::Rapid,
        "blitz" => pb::RatingKind::Blitz,
        _ => pb::RatingKind::Standard,
    };
    let tie_breaks = v
        .tie_breaks
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(String::from)
        .collect();
    Ok(pb::TournamentCreated {
        name: v.name.trim().to_string(),
        place: v.place.trim().to_string(),
        federation: v.federation.trim().to_ascii_uppercase(),
        start_date: Some(start),
        end_date: Some(end),
        chief_arbiter: (!v.chief.trim().is_empty()).then(|| pb::Arbiter {
            name: v.chief.trim().to_string(),
            fide_id: None,
            title: String::new(),
        }),
        pairing_system: system as i32,
        rule_set,
        rounds,
        initial_color: pb::Color::White as i32,
        rating_kind: rating_kind as i32,
        tie_breaks,
        time_control: v.time_control.trim().to_string(),
        fide_rated: v.fide_rated.is_some(),
        ..Default::default()
    })
}

async fn create(State(c): App, headers: HeaderMap, Form(f): Fields) -> Response {
    let s = match posted(&c, &headers, &f) {
        Ok(s) => s,
        Err(r) => return r,
    };
    let v: NewValues = NewValues {
        id: f.get("id").cloned().unwrap_or_default().trim().to_string(),
        name: f.get("name").cloned().unwrap_or_default(),
        system: f.get("system").cloned().unwrap_or_default(),
        rounds: f.get("rounds").cloned().unwrap_or_default(),
        start: f.get("start").cloned().unwrap_or_default(),
        end: f.get("end").cloned().unwrap_or_default(),
        place: f.get("place").cloned().unwrap_or_default(),
        federation: f.get("federation").cloned().unwrap_or_default(),
        chief: f.get("chief").cloned().unwrap_or_default(),
        time_control: f.get("time_control").cloned().unwrap_or_default(),
        rating_kind: f.get("rating_kind").cloned().unwrap_or_default(),
        tie_breaks: f.get("tie_breaks").cloned().unwrap_or_default(),
        fide_rated: f.get("fide_rated").cloned(),
    };
    let again =
        |code, flash: Flash| html(code, views::new_tournament(&s, &today(), Some(&flash), &v));
    let t = match creation(&v) {
        Ok(t) => t,
        Err(e) => return again(StatusCode::UNPROCESSABLE_ENTITY, Flash::Refused(e)),
    };
    let mut cl = match clients(&c, &s) {
        Ok(c) => c,
        Err(r) => return r,
    };
    let req = reg::CreateTournamentRequest {
        header: header_for(&s, &v.id, &f, ""),
        tournament: Some(t),
    };
    match cl.reg.create_tournament(req).await {
        Ok(_) => see_other(format!("/console/t/{}/players", v.id)),
        Err(e) => {
            let (code, flash) = refused(&e);
            again(code, flash)
        }
    }
}

// --- one tournament ------------------------------------------------------------------------

/// The session and clients of an arbiter screen of `id`.
fn arbiter_screen(
    c: &Console,
    headers: &HeaderMap,
    id: &str,
) -> Result<(Session, Clients), Response> {
    let (_, s) = session(c, headers)?;
    arbiter_of(&s, id)?;
    let cl = clients(c, &s)?;
    Ok((s, cl))
}

/// As [`arbiter_screen`], for a form post.
fn arbiter_post(
    c: &Console,
    headers: &HeaderMap,
    id: &str,
    f: &HashMap<String, String>,
) -> Result<(Session, Clients), Response> {
    let s = posted(c, headers, f)?;
    arbiter_of(&s, id)?;
    let cl = clients(c, &s)?;
    Ok((s, cl))
}

async fn state(cl: &mut Clients, id: &str) -> Result<rd::TournamentState, tonic::Status> {
    cl.rd
        .get_tournament(rd::GetTournamentRequest {
            tournament: tref(id),
        })
        .await
        .map(|r| r.into_inner())
}

async fn overview(State(c): App, headers: HeaderMap, Path(id): Path<String>) -> Response {
    let (s, mut cl) = match arbiter_screen(&c, &headers, &id) {
        Ok(x) => x,
        Err(r) => return r,
    };
    match state(&mut cl, &id).await {
        Ok(st) => html(StatusCode::OK, views::overview(&s, &st, None)),
        Err(e) => not_found(&s, &e),
    }
}

fn not_found(s: &Session, e: &tonic::Status) -> Response {
    let (code, _) = refused(e);
    html(code, views::forbidden(s, e.message()))
}

async fn render_players(
    s: &Session,
    cl: &mut Clients,
    id: &str,
    flash: Option<Flash>,
    code: StatusCode,
    paste: &str,
) -> Response {
    render_players_found(s, cl, id, flash, code, paste, None).await
}

async fn render_players_found(
    s: &Session,
    cl: &mut Clients,
    id: &str,
    flash: Option<Flash>,
    code: StatusCode,
    paste: &str,
    found: Option<views::Found>,
) -> Response {
    let st = match state(cl, id).await {
        Ok(st) => st,
        Err(e) => return not_found(s, &e),
    };
    match cl
        .reg
        .list_players(reg::ListPlayersRequest {
            tournament: tref(id),
        })
        .await
    {
        Ok(l) => html(
            code,
            views::players(
                s,
                id,
                &st.name,
                &l.into_inner(),
                flash.as_ref(),
                paste,
                found.as_ref(),
            ),
        ),
        Err(e) => not_found(s, &e),
    }
}

#[derive(serde::Deserialize)]
struct FindQuery {
    #[serde(default)]
    find: String,
}

async fn players(
    State(c): App,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(q): Query<FindQuery>,
) -> Response {
    let (s, mut cl) = match arbiter_screen(&c, &headers, &id) {
        Ok(x) => x,
        Err(r) => return r,
    };
    let query = q.find.trim().to_string();
    let found = if query.is_empty() {
        None
    } else {
        let r = cl
            .reg
            .search_rating_list(reg::SearchRatingListRequest {
                tournament: tref(&id),
                query: query.clone(),
                limit: 20,
            })
            .await;
        Some(views::Found {
            query,
            players: r
                .map(|r| r.into_inner().players)
                .map_err(|e| e.message().to_string()),
        })
    };
    render_players_found(&s, &mut cl, &id, None, StatusCode::OK, "", found).await
}

fn player(
    name: &str,
    rating: u32,
    fide_id: Option<u64>,
    federation: &str,
    title: &str,
) -> pb::Player {
    let title = match title {
        "GM" => pb::Title::Gm,
        "IM" => pb::Title::Im,
        "FM" => pb::Title::Fm,
        "CM" => pb::Title::Cm,
        "WGM" => pb::Title::Wgm,
        "WIM" => pb::Title::Wim,
        "WFM" => pb::Title::Wfm,
        "WCM" => pb::Title::Wcm,
        _ => pb::Title::Unspecified,
    };
    pb::Player {
        name: name.to_string(),
        fide_id,
        rating,
        federation: federation.to_string(),
        title: title as i32,
        ..Default::default()
    }
}

async fn add_player(
    State(c): App,
    headers: HeaderMap,
    Path(id): Path<String>,
    Form(f): Fields,
) -> Response {
    let (s, mut cl) = match arbiter_post(&c, &headers, &id, &f) {
        Ok(x) => x,
        Err(r) => return r,
    };
    let get = |k: &str| f.get(k).map(|v| v.trim()).unwrap_or_default();
    let line = format!(
        "{}\t{}\t{}\t{}\t{}",
        get("name"),
        get("rating"),
        get("fide_id"),
        get("federation"),
        get("title")
    );
    let entry = match paste::parse(&line) {
        Ok(mut e) if e.len() == 1 => e.remove(0),
        Ok(_) => {
            let flash = Flash::Refused(s.lang.t("give-a-name"));
            return render_players(
                &s,
                &mut cl,
                &id,
                Some(flash),
                StatusCode::UNPROCESSABLE_ENTITY,
                "",
            )
            .await;
        }
        Err(errs) => {
            let text = errs
                .iter()
                .map(|e| format!("{}: {}", e.column, e.message))
                .collect::<Vec<_>>()
                .join("; ");
            return render_players(
                &s,
                &mut cl,
                &id,
                Some(Flash::Refused(text)),
                StatusCode::UNPROCESSABLE_ENTITY,
                "",
            )
            .await;
        }
    };
    let req = reg::RegisterPlayerRequest {
        header: header_for(&s, &id, &f, ""),
        player: Some(player(
            &entry.name,
            entry.rating,
            entry.fide_id,
            &entry.federation,
            &entry.title,
        )),
        confirm_same_name: false,
    };
    match cl.reg.register_player(req).await {
        Ok(_) => see_other(format!("/console/t/{id}/players")),
        Err(e) => {
            let (code, flash) = refused(&e);
            render_players(&s, &mut cl, &id, Some(flash), code, "").await
        }
    }
}

async fn paste_players(
    State(c): App,
    headers: HeaderMap,
    Path(id): Path<String>,
    Form(f): Fields,
) -> Response {
    let (s, mut cl) = match arbiter_post(&c, &headers, &id, &f) {
        Ok(x) => x,
        Err(r) => return r,
    };
    let text = f.get("list").cloned().unwrap_or_default();
    let entries = match paste::parse(&text) {
        Ok(e) if !e.is_empty() => e,
        Ok(_) => {
            let flash = Flash::Refused(s.lang.t("list-empty"));
            return render_players(
                &s,
                &mut cl,
                &id,
                Some(flash),
                StatusCode::UNPROCESSABLE_ENTITY,
                &text,
            )
            .await;
        }
        Err(errs) => {
            let text_errs = errs
                .iter()
                .map(|e| e.to_string())
                .collect::<Vec<_>>()
                .join("; ");
            let flash = Flash::Refused(
                s.lang
                    .ta("nothing-registered", &[("errors", text_errs.into())]),
            );
            return render_players(
                &s,
                &mut cl,
                &id,
                Some(flash),
                StatusCode::UNPROCESSABLE_ENTITY,
                &text,
            )
            .await;
        }
    };
    let n = entries.len();
    for e in entries {
        // One command per line, its id from the form's and the line's: posting the same list
        // again registers nobody twice.
        let req = reg::RegisterPlayerRequest {
            header: header_for(&s, &id, &f, &format!("-{}", e.line)),
            player: Some(player(
                &e.name,
                e.rating,
                e.fide_id,
                &e.federation,
                &e.title,
            )),
            confirm_same_name: false,
        };
        if let Err(err) = cl.reg.register_player(req).await {
            let (code, _) = refused(&err);
            let flash = Flash::Refused(s.lang.ta(
                "paste-stopped",
                &[
                    ("line", e.line.into()),
                    ("name", e.name.as_str().into()),
                    ("error", err.message().into()),
                ],
            ));
            return render_players(&s, &mut cl, &id, Some(flash), code, &text).await;
        }
    }
    tracing::info!(tournament = %id, players = n, "console: list registered");
    see_other(format!("/console/t/{id}/players"))
}

async fn cancel(
    State(c): App,
    headers: HeaderMap,
    Path(id): Path<String>,
    Form(f): Fields,
) -> Response {
    let (s, mut cl) = match arbiter_post(&c, &headers, &id, &f) {
        Ok(x) => x,
        Err(r) => return r,
    };
    let Some(entry) = f.get("entry").and_then(|e| e.trim().parse::<u32>().ok()) else {
        let flash = Flash::Refused(s.lang.t("cancel-which"));
        return render_players(
            &s,
            &mut cl,
            &id,
            Some(flash),
            StatusCode::UNPROCESSABLE_ENTITY,
            "",
        )
        .await;
    };
    let req = reg::CancelRegistrationRequest {
        header: header_for(&s, &id, &f, &format!("-{entry}")),
        entry,
        player_id: 0,
        numbering_version: None,
        reason: "cancelled from the console".into(),
    };
    match cl.reg.cancel_registration(req).await {
        Ok(_) => see_other(format!("/console/t/{id}/players")),
        Err(e) => {
            let (code, flash) = refused(&e);
            render_players(&s, &mut cl, &id, Some(flash), code, "").await
        }
    }
}

// --- rounds ------------------------------------------------------------------------------

struct RoundExtras {
    boards_text: Option<String>,
    verdict: Option<String>,
}

async fn render_round(
    s: &Session,
    cl: &mut Clients,
    id: &str,
    flash: Option<Flash>,
    code: StatusCode,
    extras: RoundExtras,
) -> Response {
    let RoundExtras {
        boards_text,
        verdict,
    } = extras;
    let st = match state(cl, id).await {
        Ok(st) => st,
        Err(e) => return not_found(s, &e),
    };
    let pairings = if st.current_round > 0 {
        cl.rep
            .get_pairings(rep::GetPairingsRequest {
                tournament: tref(id),
                round: st.current_round,
            })
            .await
            .ok()
            .map(|p| p.into_inner())
    } else {
        None
    };
    let names: HashMap<u32, String> = match cl
        .reg
        .list_players(reg::ListPlayersRequest {
            tournament: tref(id),
        })
        .await
    {
        Ok(l) => l
            .into_inner()
            .players
            .into_iter()
            .filter_map(|p| p.player)
            .map(|p| (p.player_id, p.name))
            .collect(),
        Err(e) => return not_found(s, &e),
    };
    let boards_text = boards_text.unwrap_or_else(|| {
        let mut t = String::new();
        if let Some(p) = &pairings {
            for b in p.boards.iter().filter_map(|b| b.board.as_ref()) {
                t.push_str(&format!("{} {}\n", b.white, b.black));
            }
            for u in &p.unpaired {
                if u.code == pb::ResultCode::PairingBye as i32 {
                    t.push_str(&format!("{} 0\n", u.player_id));
                }
            }
        }
        t
    });
    // The proposal's reasons in words, from the pairing worker that made it.
    let explanation = match &pairings {
        Some(p) if !p.published => cl
            .pw
            .explain(pw::ExplainRequest {
                tournament: tref(id),
                round: st.current_round,
                player_id: 0,
            })
            .await
            .ok()
            .map(|e| e.into_inner().explanation)
            .filter(|e| !e.trim().is_empty()),
        _ => None,
    };
    let v = RoundView {
        state: &st,
        pairings: pairings.as_ref(),
        names: &names,
        boards_text,
        explanation,
        verdict,
    };
    html(code, views::round(s, &v, flash.as_ref()))
}

async fn round(State(c): App, headers: HeaderMap, Path(id): Path<String>) -> Response {
    let (s, mut cl) = match arbiter_screen(&c, &headers, &id) {
        Ok(x) => x,
        Err(r) => return r,
    };
    let extras = RoundExtras {
        boards_text: None,
        verdict: None,
    };
    render_round(&s, &mut cl, &id, None, StatusCode::OK, extras).await
}

/// A result as typed: `1`, `0`, `=`, `+`, `-`, `--` (or as printed: `1-0`, `½-½`, `+/-`...);
/// what was typed when it is none of them.
pub(crate) fn result_key(k: &str) -> Result<pb::BoardResult, String> {
    Ok(match k.trim() {
        "1" | "1-0" => pb::BoardResult::WhiteWins,
        "0" | "0-1" => pb::BoardResult::BlackWins,
        "=" | "½" | "1/2" | "½-½" | "1/2-1/2" | "d" | "D" => pb::BoardResult::Draw,
        "+" | "+-" | "+/-" => pb::BoardResult::WhiteWinsForfeit,
        "-" | "-+" | "-/+" => pb::BoardResult::BlackWinsForfeit,
        "--" | "-/-" => pb::BoardResult::DoubleForfeit,
        other => return Err(other.to_string()),
    })
}

/// "white black" lines; "n 0" is the pairing-allocated bye.
fn boards_from_text(text: &str) -> Result<(Vec<pb::Board>, Vec<pb::Unpaired>), String> {
    let mut boards = Vec::new();
    let mut unpaired = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let nums: Vec<&str> = line.split_whitespace().collect();
        if nums.is_empty() {
            continue;
        }
        let bad = || format!("line {}: {line:?} is not two player numbers", i + 1);
        let [w, b] = nums.as_slice() else {
            return Err(bad());
        };
        let (w, b): (u32, u32) = (w.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
        if b == 0 {
            unpaired.push(pb::Unpaired {
                player_id: w,
                code: pb::ResultCode::PairingBye as i32,
            });
        } else {
            boards.push(pb::Board {
                number: boards.len() as u32 + 1,
                white: w,
                black: b,
            });
        }
    }
    if boards.is_empty() {
        return Err("no board given".into());
    }
    Ok((boards, unpaired))
}

async fn round_action(
    State(c): App,
    headers: HeaderMap,
    Path((id, action)): Path<(String, String)>,
    Form(f): Fields,
) -> Response {
    let (s, mut cl) = match arbiter_post(&c, &headers, &id, &f) {
        Ok(x) => x,
        Err(r) => return r,
    };
    let st = match state(&mut cl, &id).await {
        Ok(st) => st,
        Err(e) => return not_found(&s, &e),
    };
    let round = st.current_round;
    let h = header_for(&s, &id, &f, "");
    let get = |k: &str| f.get(k).map(|v| v.trim().to_string()).unwrap_or_default();
    let mut boards_text = None;
    let outcome: Result<(), Flash> = match action.as_str() {
        // A read: the engine recomputes the published round and says whether it agrees.
        "check" => {
            let r = cl
                .pw
                .check(pw::CheckRequest {
                    tournament: tref(&id),
                    round,
                })
                .await;
            let (code, flash, verdict) = match r {
                Ok(c) => {
                    let c = c.into_inner();
                    let mut said = if c.matches {
                        s.lang.ta("engine-agrees", &[("round", round.into())])
                    } else {
                        format!("Round {round}: {}", c.verdict)
                    };
                    if !c.deciding_rule.is_empty() {
                        said.push_str(&format!(" ({})", c.deciding_rule));
                    }
                    (StatusCode::OK, None, Some(said))
                }
                Err(e) => {
                    let (code, flash) = refused(&e);
                    (code, Some(flash), None)
                }
            };
            let extras = RoundExtras {
                boards_text: None,
                verdict,
            };
            return render_round(&s, &mut cl, &id, flash, code, extras).await;
        }
        "start" => cl
            .rd
            .start_round(rd::StartRoundRequest {
                header: h,
                round: round + 1,
                scheduled_unix_ms: 0,
            })
            .await
            .map(drop)
            .map_err(|e| refused(&e).1),
        "publish" => {
            let text = get("boards");
            let changed = if text.is_empty() {
                Ok((Vec::new(), Vec::new()))
            } else {
                boards_text = Some(text.clone());
                boards_from_text(&text)
            };
            match changed {
                Err(e) => Err(Flash::Refused(e)),
                Ok((boards, _)) if !boards.is_empty() && get("note").is_empty() => {
                    Err(Flash::Refused(s.lang.t("hand-change-needs-note")))
                }
                Ok((boards, unpaired)) => cl
                    .rd
                    .publish_pairing(rd::PublishPairingRequest {
                        header: h,
                        round,
                        proposal_version: 0,
                        boards,
                        unpaired,
                        note: get("note"),
                        by_entry: false,
                        numbering_version: None,
                        team_matches: Vec::new(),
                        team_bye: 0,
                    })
                    .await
                    .map(drop)
                    .map_err(|e| refused(&e).1),
            }
        }
        "result" | "correct" => {
            let board = get("board").parse::<u32>();
            match (board, result_key(&get("result"))) {
                (Err(_), _) => Err(Flash::Refused(
                    s.lang.ta("not-a-board", &[("board", get("board").into())]),
                )),
                (_, Err(key)) => Err(Flash::Refused(
                    s.lang.ta("not-a-result", &[("key", key.into())]),
                )),
                (Ok(board), Ok(result)) if action == "result" => cl
                    .rd
                    .record_result(rd::RecordResultRequest {
                        header: h,
                        round,
                        board,
                        result: result as i32,
                        white_code: 0,
                        black_code: 0,
                    })
                    .await
                    .map(drop)
                    .map_err(|e| refused(&e).1),
                (Ok(board), Ok(result)) => cl
                    .rd
                    .correct_result(rd::CorrectResultRequest {
                        header: h,
                        round,
                        board,
                        corrected: result as i32,
                        white_code: 0,
                        black_code: 0,
                        reason: get("reason"),
                    })
                    .await
                    .map(drop)
                    .map_err(|e| refused(&e).1),
            }
        }
        "close" => cl
            .rd
            .close_round(rd::CloseRoundRequest { header: h, round })
            .await
            .map(drop)
            .map_err(|e| refused(&e).1),
        "finish" => cl
            .rd
            .finish_tournament(rd::FinishTournamentRequest { header: h })
            .await
            .map(drop)
            .map_err(|e| refused(&e).1),
        other => Err(Flash::Refused(
            s.lang.ta("no-such-action", &[("action", other.into())]),
        )),
    };
    match outcome {
        Ok(()) => see_other(format!("/console/t/{id}/round")),
        Err(flash) => {
            let extras = RoundExtras {
                boards_text,
                verdict: None,
            };
            render_round(&s, &mut cl, &id, Some(flash), StatusCode::CONFLICT, extras).await
        }
    }
}

// --- reading -----------------------------------------------------------------------------

async fn standings(State(c): App, headers: HeaderMap, Path(id): Path<String>) -> Response {
    let (s, mut cl) = match arbiter_screen(&c, &headers, &id) {
        Ok(x) => x,
        Err(r) => return r,
    };
    let st = match state(&mut cl, &id).await {
        Ok(st) => st,
        Err(e) => return not_found(&s, &e),
    };
    match cl
        .rep
        .get_standings(rep::GetStandingsRequest {
            tournament: tref(&id),
            after_round: 0,
        })
        .await
    {
        Ok(t) => html(
            StatusCode::OK,
            views::standings(&s, &id, &st.name, &t.into_inner(), None),
        ),
        Err(e) => not_found(&s, &e),
    }
}

async fn audit(State(c): App, headers: HeaderMap, Path(id): Path<String>) -> Response {
    let (s, mut cl) = match arbiter_screen(&c, &headers, &id) {
        Ok(x) => x,
        Err(r) => return r,
    };
    render_audit(&s, &mut cl, &id, None).await
}

/// Runs the audit `arbiter replay` runs, on the stream as the server gives it whole: the hash
/// chain, every published pairing re-run, the signed heads checked.
async fn replay(
    State(c): App,
    headers: HeaderMap,
    Path(id): Path<String>,
    Form(f): Fields,
) -> Response {
    let (s, mut cl) = match arbiter_post(&c, &headers, &id, &f) {
        Ok(x) => x,
        Err(r) => return r,
    };
    let verdict = match raw_events(&mut cl, &id).await {
        Err(e) => Err(e),
        Ok(events) => {
            let stream =
                arbiter_service_kit::store::stream_of(&id).map_err(|e| e.message().to_string());
            match stream {
                Err(e) => Err(e),
                Ok(stream) => tokio::task::spawn_blocking(move || replay_report(&stream, &events))
                    .await
                    .map_err(|e| format!("the audit stopped: {e}")),
            }
        }
    };
    render_audit(&s, &mut cl, &id, Some(verdict)).await
}

/// The stream's events with their stored bytes, for hashing.
async fn raw_events(
    cl: &mut Clients,
    id: &str,
) -> Result<Vec<arbiter_eventlog::StoredEvent>, String> {
    let mut stream = cl
        .rep
        .stream_events(rep::StreamEventsRequest {
            tournament_id: id.to_string(),
            from_version: 1,
            follow: false,
            raw_payload: true,
        })
        .await
        .map_err(|e| e.message().to_string())?
        .into_inner();
    let mut events = Vec::new();
    while let Some(env) = stream
        .message()
        .await
        .map_err(|e| e.message().to_string())?
    {
        if env.redacted {
            return Err(format!(
                "event {} is confidential and this session may not read it whole, so the chain \
                 cannot be hashed here: an admin's or the tournament's arbiter's session can",
                env.sequence
            ));
        }
        events.push(arbiter_eventlog::envelope_to_stored(&env)?);
    }
    Ok(events)
}

/// The audit's report and the signed heads' verdict; `Ok` when everything holds.
fn replay_report(stream: &str, events: &[arbiter_eventlog::StoredEvent]) -> (bool, String) {
    let report = arbiter_round_pairing::audit::audit(stream, events);
    let mut text = report.render();
    let logged = arbiter_interchange::heads::logged_heads(stream, events);
    let mut bad = Vec::new();
    for l in &logged {
        match &l.head {
            Err(m) => bad.push(format!("the signed head at version {}: {m}", l.at)),
            Ok(h) => {
                if let Err(m) = h.check_against(stream, events) {
                    bad.push(format!("the signed head at version {}: {m}", l.at));
                }
            }
        }
    }
    text.push_str(&format!(
        "signed heads in the log: {} of {} verify\n",
        logged.len() - bad.len(),
        logged.len()
    ));
    for b in &bad {
        text.push_str(&format!("  {b}\n"));
    }
    let holds = report.log_intact()
        && report.differing(true).is_empty()
        && report.differing_draws().is_empty()
        && bad.is_empty();
    (holds, text)
}

async fn render_audit(
    s: &Session,
    cl: &mut Clients,
    id: &str,
    verdict: Option<Result<(bool, String), String>>,
) -> Response {
    let s = s.clone();
    let id = id.to_string();
    let st = match state(cl, &id).await {
        Ok(st) => st,
        Err(e) => return not_found(&s, &e),
    };
    let stream = cl
        .rep
        .stream_events(rep::StreamEventsRequest {
            tournament_id: id.clone(),
            from_version: 0,
            follow: false,
            raw_payload: false,
        })
        .await;
    let mut events = Vec::new();
    match stream {
        Ok(answer) => {
            let mut answer = answer.into_inner();
            loop {
                match answer.message().await {
                    Ok(Some(e)) => events.push(e),
                    Ok(None) => break,
                    Err(e) => {
                        let (code, flash) = refused(&e);
                        return html(
                            code,
                            views::audit(&s, &id, &st.name, &events, Some(&flash), None),
                        );
                    }
                }
            }
        }
        Err(e) => return not_found(&s, &e),
    }
    html(
        StatusCode::OK,
        views::audit(&s, &id, &st.name, &events, None, verdict.as_ref()),
    )
}

#[derive(serde::Deserialize)]
struct ExportQuery {
    #[serde(default)]
    format: String,
}

async fn export(
    State(c): App,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(q): Query<ExportQuery>,
) -> Response {
    let (s, mut cl) = match arbiter_screen(&c, &headers, &id) {
        Ok(x) => x,
        Err(r) => return r,
    };
    let format = match q.format.as_str() {
        "trf2026" => TrfFormat::Trf2026,
        _ => TrfFormat::Trf16,
    };
    match cl
        .rep
        .export_trf(rep::ExportTrfRequest {
            tournament: tref(&id),
            format: format as i32,
        })
        .await
    {
        Ok(r) => {
            let r = r.into_inner();
            let disposition = format!(
                "attachment; filename=\"{}\"",
                r.file_name.replace(['"', '\\', '\r', '\n'], "_")
            );
            let mut resp = (StatusCode::OK, r.trf).into_response();
            let h = resp.headers_mut();
            h.insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/plain; charset=utf-8"),
            );
            if let Ok(v) = HeaderValue::from_str(&disposition) {
                h.insert(header::CONTENT_DISPOSITION, v);
            }
            resp
        }
        Err(e) => not_found(&s, &e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_keys_and_hand_pairings() {
        assert_eq!(result_key("1").unwrap(), pb::BoardResult::WhiteWins);
        assert_eq!(result_key(" = ").unwrap(), pb::BoardResult::Draw);
        assert_eq!(result_key("--").unwrap(), pb::BoardResult::DoubleForfeit);
        assert_eq!(result_key("2").unwrap_err(), "2");
        let (b, u) = boards_from_text("3 1\n\n2 4\n5 0\n").unwrap();
        assert_eq!(b.len(), 2);
        assert_eq!((b[1].number, b[1].white, b[1].black), (2, 2, 4));
        assert_eq!(u[0].player_id, 5);
        assert!(boards_from_text("3\n").unwrap_err().starts_with("line 1"));
    }

    #[test]
    fn the_creation_form_maps_to_the_event() {
        let mut v = NewValues::fresh();
        v.id = "open".into();
        v.name = "Open".into();
        v.start = "2026-12-05".into();
        v.tie_breaks = "BH:C1, SB".into();
        let t = creation(&v).unwrap();
        assert_eq!(t.rule_set, "dutch-2025");
        assert_eq!(t.rounds, 5);
        assert_eq!(t.end_date, t.start_date);
        assert_eq!(t.tie_breaks, vec!["BH:C1", "SB"]);
        v.start = "5/12/2026".into();
        assert!(creation(&v).unwrap_err().contains("not a date"));
    }
}
