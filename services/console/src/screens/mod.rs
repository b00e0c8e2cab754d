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

mod players;
mod print;
mod prizes;
mod reading;
mod rounds;
mod schedule;
mod teams;
mod tournaments;

use players::{add_player, cancel, change, consent, import_trf, overview, paste_players};
use reading::{audit, export, ratings, replay, standings};
use rounds::{round, round_action};
use tournaments::{create, index, new_page, save_settings, settings_page};

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
        .route(crate::oidc::START_PATH, get(oidc_start))
        .route(crate::oidc::CALLBACK_PATH, get(oidc_callback))
        .route("/console/language", post(language))
        .route("/console/new", get(new_page).post(create))
        .route("/console/t/{id}", get(overview))
        .route(
            "/console/t/{id}/players",
            get(players::players).post(add_player),
        )
        .route("/console/t/{id}/players/paste", post(paste_players))
        .route("/console/t/{id}/players/cancel", post(cancel))
        .route("/console/t/{id}/players/change", post(change))
        .route("/console/t/{id}/players/consent", post(consent))
        .route("/console/t/{id}/players/trf", post(import_trf))
        .route("/console/t/{id}/round", get(round))
        .route("/console/t/{id}/round/", get(round))
        .route("/console/t/{id}/round/{action}", post(round_action))
        .route(
            "/console/t/{id}/teams",
            get(teams::teams).post(teams::record_team),
        )
        .route("/console/t/{id}/teams/lineup", post(teams::lineup))
        .route("/console/t/{id}/schedule", get(schedule::schedule))
        .route("/console/t/{id}/schedule/lots", post(schedule::draw_lots))
        .route("/console/t/{id}/standings", get(standings))
        .route(
            "/console/t/{id}/prizes",
            get(prizes::prizes).post(prizes::announce),
        )
        .route("/console/t/{id}/ratings", get(ratings))
        .route("/console/t/{id}/print", get(print::print_index))
        .route("/console/t/{id}/print/{what}", get(print::print_layout))
        .route(
            "/console/t/{id}/settings",
            get(settings_page).post(save_settings),
        )
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
            views::sign_in_needed(
                lang_of(headers),
                &lang_of(headers).t("not-signed-in"),
                c.issuer(),
            ),
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
        Err(e) => html(
            StatusCode::UNAUTHORIZED,
            views::sign_in_needed(lang, &e.0, c.issuer()),
        ),
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
        Err(e) => html(
            StatusCode::UNAUTHORIZED,
            views::sign_in_needed(lang, &e.0, c.issuer()),
        ),
    }
}

/// A sign-in through the OpenID Connect issuer starts: the browser goes to the issuer, with
/// a cookie that binds the sign-in's `state` to it.
async fn oidc_start(State(c): App, headers: HeaderMap) -> Response {
    let Some(o) = &c.oidc else {
        let lang = lang_of(&headers);
        // No issuer here: the sign-in page, saying so.
        return html(
            StatusCode::UNAUTHORIZED,
            views::sign_in_needed(lang, &lang.t("no-issuer"), None),
        );
    };
    let (state, pending) = c.sessions.begin_oidc();
    let mut r = see_other(o.authorization_url(&state, &pending.nonce, &pending.verifier));
    let cookie = format!(
        "{}={state}; Path={}; HttpOnly; SameSite=Lax; Max-Age={}{}",
        crate::oidc::STATE_COOKIE,
        crate::oidc::CALLBACK_PATH,
        crate::oidc::PENDING_LIFETIME.as_secs(),
        if c.secure_cookies { "; Secure" } else { "" }
    );
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        r.headers_mut().insert(header::SET_COOKIE, v);
    }
    r
}

#[derive(serde::Deserialize)]
struct Callback {
    #[serde(default)]
    code: String,
    #[serde(default)]
    state: String,
    #[serde(default)]
    error: String,
    #[serde(default)]
    error_description: String,
}

/// The issuer sends the browser back: the code is exchanged, the ID token checked, and the
/// session opens as a link's does. Anything else is refused with the reason.
async fn oidc_callback(State(c): App, headers: HeaderMap, Query(q): Query<Callback>) -> Response {
    let lang = lang_of(&headers);
    let refuse = |why: String| {
        html(
            StatusCode::UNAUTHORIZED,
            views::sign_in_needed(lang, &why, c.issuer()),
        )
    };
    let Some(o) = &c.oidc else {
        return refuse(lang.t("no-issuer"));
    };
    if !q.error.is_empty() {
        return refuse(lang.ta(
            "issuer-refused",
            &[(
                "error",
                format!("{} {}", q.error, q.error_description).into(),
            )],
        ));
    }
    // The state must be this browser's (its cookie) and still pending (single use).
    let bound = crate::session::cookie(&headers, crate::oidc::STATE_COOKIE);
    if q.state.is_empty() || bound.as_deref().is_none_or(|b| !same_token(b, &q.state)) {
        return refuse(lang.t("sign-in-not-started-here"));
    }
    let Some(pending) = c.sessions.take_oidc(&q.state) else {
        return refuse(lang.t("sign-in-spent"));
    };
    let principal = match o.finish(&q.code, &pending).await {
        Ok(p) => p,
        Err(e) => return refuse(lang.ta("issuer-token-refused", &[("error", e.into())])),
    };
    match c.sessions.open_for(principal, lang) {
        Ok((id, s)) => {
            tracing::info!(subject = %s.principal.subject, role = s.principal.role.as_str(), issuer = %o.issuer, "console sign-in");
            let mut r = see_other("/console/".into());
            if let Ok(v) = HeaderValue::from_str(&session_cookie(&id, c.secure_cookies)) {
                r.headers_mut().append(header::SET_COOKIE, v);
            }
            let spent = format!(
                "{}=; Path={}; HttpOnly; SameSite=Lax; Max-Age=0",
                crate::oidc::STATE_COOKIE,
                crate::oidc::CALLBACK_PATH
            );
            if let Ok(v) = HeaderValue::from_str(&spent) {
                r.headers_mut().append(header::SET_COOKIE, v);
            }
            r
        }
        Err(e) => refuse(e.0),
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
        views::sign_in_needed(lang, &lang.t("signed-out"), c.issuer()),
    );
    if let Ok(v) = HeaderValue::from_str(&cleared_cookie(c.secure_cookies)) {
        r.headers_mut().insert(header::SET_COOKIE, v);
    }
    r
}

/// An arbiter screen of tournament `{id}`: the session, which must be an arbiter of it by the
/// services' own rule, and its clients. Refused, it is the page that says why.
pub(super) struct Screen {
    s: Session,
    cl: Clients,
    id: String,
}

impl axum::extract::FromRequestParts<Arc<Console>> for Screen {
    type Rejection = Response;

    async fn from_request_parts(
        parts: &mut axum::http::request::Parts,
        c: &Arc<Console>,
    ) -> Result<Screen, Response> {
        let id = tournament_of(parts, c).await?;
        let (s, cl) = arbiter_screen(c, &parts.headers, &id)?;
        Ok(Screen { s, cl, id })
    }
}

/// A form posted to an arbiter screen of tournament `{id}`: as [`Screen`], the form carrying
/// the session's CSRF token.
pub(super) struct Posted {
    s: Session,
    cl: Clients,
    id: String,
    f: HashMap<String, String>,
}

impl axum::extract::FromRequest<Arc<Console>> for Posted {
    type Rejection = Response;

    async fn from_request(
        req: axum::extract::Request,
        c: &Arc<Console>,
    ) -> Result<Posted, Response> {
        let (mut parts, body) = req.into_parts();
        let id = tournament_of(&mut parts, c).await?;
        let headers = parts.headers.clone();
        let Form(f) = Fields::from_request(axum::extract::Request::from_parts(parts, body), c)
            .await
            .map_err(IntoResponse::into_response)?;
        let (s, cl) = arbiter_post(c, &headers, &id, &f)?;
        Ok(Posted { s, cl, id, f })
    }
}

/// The `{id}` of the route.
async fn tournament_of(
    parts: &mut axum::http::request::Parts,
    c: &Arc<Console>,
) -> Result<String, Response> {
    use axum::extract::FromRequestParts;
    let Path(p) = Path::<HashMap<String, String>>::from_request_parts(parts, c)
        .await
        .map_err(IntoResponse::into_response)?;
    p.get("id")
        .cloned()
        .ok_or_else(|| StatusCode::NOT_FOUND.into_response())
}

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

/// Every registered player's name by pairing number.
async fn names(cl: &mut Clients, id: &str) -> Result<HashMap<u32, String>, tonic::Status> {
    let l = cl
        .reg
        .list_players(reg::ListPlayersRequest {
            tournament: tref(id),
        })
        .await?;
    Ok(l.into_inner()
        .players
        .into_iter()
        .filter_map(|r| Some((r.pairing_number, r.player?.name)))
        .collect())
}

/// Every event of the tournament's log, in order (what the screens fold that no read API
/// answers: the settings as created and updated, the teams and their line-ups).
async fn log_kinds(cl: &mut Clients, id: &str) -> Result<Vec<pb::event::Kind>, tonic::Status> {
    let mut stream = cl
        .rep
        .stream_events(rep::StreamEventsRequest {
            tournament: Some(arbiter_proto::common::v1::TournamentRef {
                tournament_id: id.to_string(),
                as_of_version: 0,
            }),
            from_version: 0,
            follow: false,
            raw_payload: false,
        })
        .await?
        .into_inner();
    let mut out = Vec::new();
    while let Some(env) = stream.message().await? {
        out.extend(env.payload.and_then(|p| p.kind));
    }
    Ok(out)
}

/// Numbers as typed: separated by spaces, commas, semicolons or new lines; the word that is
/// not one when any.
fn typed_numbers(text: &str) -> Result<Vec<u32>, &str> {
    text.split(|c: char| c == ',' || c == ';' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse::<u32>().map_err(|_| w))
        .collect()
}

/// The tournament's state and its players' names, or the page saying why not.
async fn state_and_names(
    s: &Session,
    cl: &mut Clients,
    id: &str,
) -> Result<(rd::TournamentState, HashMap<u32, String>), Response> {
    let st = state(cl, id).await.map_err(|e| not_found(s, &e))?;
    let names = names(cl, id).await.map_err(|e| not_found(s, &e))?;
    Ok((st, names))
}

fn not_found(s: &Session, e: &tonic::Status) -> Response {
    let (code, _) = refused(e);
    html(code, views::forbidden(s, e.message()))
}
