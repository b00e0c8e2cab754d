//! The console's markup (maud: every interpolated value is escaped).

mod print;
mod ratings;
mod schedule;
mod teams;
pub use print::{LAYOUTS, PrintView, print_index, print_layout};
pub use ratings::{RatingsView, ratings};
pub use schedule::{ScheduleView, schedule};
pub use teams::{TeamEntry, TeamsView, teams};

use crate::i18n::Lang;
use crate::prize_list::{FormError, PrizeForm, PrizeList, exact_money, money};
use crate::session::Session;
use arbiter_proto::events::v1 as pb;
use arbiter_proto::registration::v1 as reg;
use arbiter_proto::reporting::v1 as rep;
use arbiter_proto::round_director::v1 as rd;
use fluent_bundle::FluentValue;
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
    l: Lang,
    title: &str,
    session: Option<&Session>,
    tournament: Option<(&str, &str)>,
    flash: Option<&Flash>,
    body: Markup,
) -> Markup {
    html! {
        (DOCTYPE)
        html lang=(l.tag()) {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · " (l.t("console-name")) }
                link rel="stylesheet" href="/console/assets/console.css";
                script src="/console/assets/console.js" defer {}
            }
            body {
                header.top {
                    a.brand href="/console/" { "arbiter" }
                    @if let Some(s) = session {
                        span.who { (s.principal.subject) " · " (s.principal.role.as_str()) }
                        form.inline.lang method="post" action="/console/language" {
                            input type="hidden" name="csrf" value=(s.csrf);
                            label.sr for="language" { (l.t("language")) }
                            select id="language" name="lang" {
                                @for (lang, name) in Lang::all() {
                                    option value=(lang.tag()) selected[lang == l] { (name) }
                                }
                            }
                            button.secondary type="submit" { (l.t("change-language")) }
                        }
                        form.inline method="post" action="/console/sign-out" {
                            input type="hidden" name="csrf" value=(s.csrf);
                            button type="submit" { (l.t("sign-out")) }
                        }
                    }
                }
                @if let Some((id, name)) = tournament {
                    nav.tabs aria-label=(l.t("tournament")) {
                        strong { (name) }
                        a href={"/console/t/" (id)} { (l.t("overview")) }
                        a href={"/console/t/" (id) "/players"} { (l.t("players")) }
                        a href={"/console/t/" (id) "/round"} { (l.t("round")) }
                        a href={"/console/t/" (id) "/teams"} { (l.t("teams")) }
                        a href={"/console/t/" (id) "/schedule"} { (l.t("schedule")) }
                        a href={"/console/t/" (id) "/standings"} { (l.t("standings")) }
                        a href={"/console/t/" (id) "/prizes"} { (l.t("prizes")) }
                        a href={"/console/t/" (id) "/ratings"} { (l.t("ratings")) }
                        a href={"/console/t/" (id) "/print"} { (l.t("print")) }
                        a href={"/console/t/" (id) "/audit"} { (l.t("audit")) }
                        a href={"/console/t/" (id) "/settings"} { (l.t("settings")) }
                        a href={"/t/" (id)} { (l.t("public-page")) }
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

/// The message `id` in the session's language.
fn t(s: &Session, id: &str) -> String {
    s.lang.t(id)
}

/// The message `id` with variables, in the session's language.
fn ta(s: &Session, id: &str, args: &[(&str, FluentValue<'_>)]) -> String {
    s.lang.ta(id, args)
}

fn csrf(s: &Session) -> Markup {
    html! { input type="hidden" name="csrf" value=(s.csrf); }
}

fn cmd() -> Markup {
    // A new id per rendered form: submitting the same form twice is one command.
    html! { input type="hidden" name="cmd" value=(crate::session::random_id()[..24]); }
}

/// The sign-in page: why, the one-time link, and the issuer's sign-in when one is configured
/// (`issuer`).
pub fn sign_in_needed(l: Lang, message: &str, issuer: Option<&str>) -> Markup {
    page(
        l,
        &l.t("sign-in"),
        None,
        None,
        None,
        html! {
            h1 { (l.t("sign-in")) }
            p { (message) }
            @if let Some(issuer) = issuer {
                p { a.button id="sign-in-oidc" href=(crate::oidc::START_PATH) { (l.t("sign-in-with-issuer")) } " " small { (issuer) } }
            }
            p { (l.t("ask-for-a-link")) " " code { "arbiter console-link --data DIR" } }
        },
    )
}

pub fn confirm_sign_in(l: Lang, link: &str, subject: &str, role: &str) -> Markup {
    page(
        l,
        &l.t("sign-in"),
        None,
        None,
        None,
        html! {
            h1 { (l.t("sign-in")) }
            p { (l.ta("link-signs-in-as", &[("subject", subject.into()), ("role", role.into())])) }
            form method="post" action=(arbiter_auth::link::SIGN_IN_PATH) {
                input type="hidden" name="link" value=(link);
                button type="submit" id="sign-in" autofocus { (l.t("sign-in")) }
            }
        },
    )
}

pub fn forbidden(s: &Session, message: &str) -> Markup {
    page(
        s.lang,
        &t(s, "not-allowed"),
        Some(s),
        None,
        None,
        html! { h1 { (t(s, "not-allowed")) } p.flash.refused role="alert" { (message) } },
    )
}

pub fn tournaments(s: &Session, list: &[reg::TournamentSummary], flash: Option<&Flash>) -> Markup {
    page(
        s.lang,
        &t(s, "tournaments"),
        Some(s),
        None,
        flash,
        html! {
            h1 { (t(s, "tournaments")) }
            p { a.button id="new-tournament" href="/console/new" { (t(s, "new-tournament")) } }
            @if list.is_empty() {
                p { (t(s, "no-tournament-yet")) }
            } @else {
                div.scroll { table {
                    thead { tr { th { (t(s, "tournament")) } th { (t(s, "starts")) } th.num { (t(s, "rounds")) } th.num { (t(s, "players")) } } }
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
    ("dutch-2025", "swiss-dutch-system-c043-rules"),
    ("dutch-2017", "swiss-dutch-system-c043-2017"),
    ("burstein", "swiss-burstein-system-c0442"),
    ("burstein-bbp", "swiss-burstein-system-c0442-bbp"),
    ("dubov", "swiss-dubov-system-c0441"),
    ("lim", "swiss-lim-system-c0443"),
    ("round-robin", "round-robin-berger-tables-c05"),
    ("double-round-robin", "double-round-robin-berger-tables"),
    ("knockout", "knockout-mini-matches"),
    ("fide-team-a", "team-swiss-c046-type-a"),
    ("fide-team-b", "team-swiss-c046-type-b"),
    ("fide-team-none", "team-swiss-c046-no-colours"),
];

pub fn new_tournament(
    s: &Session,
    today: &str,
    flash: Option<&Flash>,
    values: &NewValues,
) -> Markup {
    page(
        s.lang,
        &t(s, "new-tournament"),
        Some(s),
        None,
        flash,
        html! {
            h1 { (t(s, "new-tournament")) }
            form.settings method="post" action="/console/new" {
                (csrf(s)) (cmd())
                (field(&t(s, "name"), "name", html!{ input id="name" name="name" required value=(values.name) aria-describedby="name-help"; }, &t(s, "as-it-appears-on-the")))
                (field(&t(s, "identifier"), "id", html!{ input id="id" name="id" required pattern="[a-z0-9][a-z0-9-]{0,63}" value=(values.id) aria-describedby="id-help"; }, &t(s, "lower-case-letters-digits-and")))
                (field(&t(s, "system"), "system", html!{ select id="system" name="system" aria-describedby="system-help" {
                    @for (v, label) in SYSTEMS { option value=(v) selected[*v == values.system] { (t(s, label)) } }
                } }, &t(s, "how-rounds-are-paired-kept")))
                (field(&t(s, "rounds"), "rounds", html!{ input id="rounds" name="rounds" type="number" min="1" max="99" required value=(values.rounds) aria-describedby="rounds-help"; }, &t(s, "announced-number-of-rounds-a")))
                (field(&t(s, "start-date"), "start", html!{ input id="start" name="start" type="date" required value=(if values.start.is_empty() { today } else { &values.start }) aria-describedby="start-help"; }, &t(s, "first-rounds-date")))
                (field(&t(s, "end-date"), "end", html!{ input id="end" name="end" type="date" value=(values.end) aria-describedby="end-help"; }, &t(s, "last-rounds-date-empty-the")))
                (field(&t(s, "place"), "place", html!{ input id="place" name="place" value=(values.place) aria-describedby="place-help"; }, &t(s, "city-or-venue")))
                (field(&t(s, "federation"), "federation", html!{ input id="federation" name="federation" maxlength="3" value=(values.federation) aria-describedby="federation-help"; }, &t(s, "organising-federation-three-letters-eg")))
                (field(&t(s, "chief-arbiter"), "chief", html!{ input id="chief" name="chief" required value=(if values.chief.is_empty() { s.principal.subject.as_str() } else { values.chief.as_str() }) aria-describedby="chief-help"; }, &t(s, "chief-arbiter-help")))
                (field(&t(s, "time-control"), "time_control", html!{ input id="time_control" name="time_control" value=(values.time_control) placeholder=(t(s, "time-control-example")) aria-describedby="time_control-help"; }, &t(s, "as-announced-the-rating-kind")))
                (field(&t(s, "rating-kind"), "rating_kind", html!{ select id="rating_kind" name="rating_kind" aria-describedby="rating_kind-help" {
                    option value="standard" selected[values.rating_kind == "standard"] { (t(s, "standard")) }
                    option value="rapid" selected[values.rating_kind == "rapid"] { (t(s, "rapid")) }
                    option value="blitz" selected[values.rating_kind == "blitz"] { (t(s, "blitz")) }
                } }, &t(s, "which-fide-rating-ranks-the")))
                (field(&t(s, "tie-breaks"), "tie_breaks", html!{ input id="tie_breaks" name="tie_breaks" value=(values.tie_breaks) placeholder=(t(s, "tie-breaks-example")) aria-describedby="tie_breaks-help"; }, &t(s, "c07-codes-separated-by-commas")))
                div.field.check {
                    input id="fide_rated" name="fide_rated" type="checkbox" value="on" checked[values.fide_rated.is_some()];
                    label for="fide_rated" { (t(s, "fide-rated")) }
                }
                fieldset.consent {
                    legend { (t(s, "conduct")) }
                    (field(&t(s, "format"), "format", html!{ select id="format" name="format" aria-describedby="format-help" {
                        @for (v, k) in [("otb", "format-otb"), ("online-unsupervised", "format-online-unsupervised"), ("online-supervised", "format-online-supervised"), ("hybrid", "format-hybrid")] {
                            option value=(v) selected[values.format == v || (values.format.is_empty() && v == "otb")] { (t(s, k)) }
                        }
                    } }, &t(s, "format-help")))
                    (field(&t(s, "periods"), "periods", html!{ input id="periods" name="periods" value=(values.periods) placeholder="40/90m+30s,30m+30s" aria-describedby="periods-help"; }, &t(s, "periods-help")))
                    (field(&t(s, "platform"), "platform", html!{ input id="platform" name="platform" value=(values.platform) aria-describedby="platform-help"; }, &t(s, "platform-help")))
                    (field(&t(s, "platform-url"), "platform_url", html!{ input id="platform_url" name="platform_url" type="url" value=(values.platform_url) aria-describedby="platform_url-help"; }, &t(s, "platform-url-help")))
                    (field(&t(s, "platform-features"), "platform_features", html!{ input id="platform_features" name="platform_features" value=(values.platform_features) placeholder="premove,auto-queen" aria-describedby="platform_features-help"; }, &t(s, "platform-features-help")))
                    (field(&t(s, "illegal-move-policy"), "illegal_move_policy", html!{ input id="illegal_move_policy" name="illegal_move_policy" value=(values.illegal_move_policy) aria-describedby="illegal_move_policy-help"; }, &t(s, "illegal-move-policy-help")))
                    (field(&t(s, "supervision"), "supervision", html!{ input id="supervision" name="supervision" value=(values.supervision) placeholder="camera,room-inspection,vcs-before=15m" aria-describedby="supervision-help"; }, &t(s, "supervision-help")))
                    (field(&t(s, "reconnection-window"), "reconnection_window", html!{ input id="reconnection_window" name="reconnection_window" value=(values.reconnection_window) placeholder="5m" aria-describedby="reconnection_window-help"; }, &t(s, "reconnection-window-help")))
                    (field(&t(s, "vcs-red-card-after"), "vcs_red_card_after", html!{ input id="vcs_red_card_after" name="vcs_red_card_after" type="number" min="0" value=(values.vcs_red_card_after) aria-describedby="vcs_red_card_after-help"; }, &t(s, "vcs-red-card-after-help")))
                    (field(&t(s, "appeal-deadline"), "appeal_deadline", html!{ input id="appeal_deadline" name="appeal_deadline" value=(values.appeal_deadline) placeholder="30m" aria-describedby="appeal_deadline-help"; }, &t(s, "appeal-deadline-help")))
                    (field(&t(s, "regulations-version"), "regulations", html!{ input id="regulations" name="regulations" value=(values.regulations) aria-describedby="regulations-help"; }, &t(s, "regulations-help")))
                    div.field.check {
                        input id="require_consent" name="require_consent" type="checkbox" value="on" checked[values.require_consent.is_some()];
                        label for="require_consent" { (t(s, "require-consent")) }
                    }
                    div.field.check {
                        input id="traditional_boards" name="traditional_boards" type="checkbox" value="on" checked[values.traditional_boards.is_some()];
                        label for="traditional_boards" { (t(s, "traditional-boards")) }
                    }
                }
                fieldset.consent id="team-event" {
                    legend { (t(s, "team-event")) }
                    p.hint { (t(s, "team-event-help")) }
                    (field(&t(s, "team-boards"), "team_boards", html!{ input id="team_boards" name="team_boards" type="number" min="1" max="64" value=(values.team_boards) aria-describedby="team_boards-help"; }, &t(s, "team-boards-help")))
                    (field(&t(s, "team-reserves"), "team_reserves", html!{ input id="team_reserves" name="team_reserves" type="number" min="0" max="64" value=(values.team_reserves) aria-describedby="team_reserves-help"; }, &t(s, "team-reserves-help")))
                    (field(&t(s, "team-colours"), "team_colours", html!{ input id="team_colours" name="team_colours" value=(values.team_colours) placeholder="WBWB" aria-describedby="team_colours-help"; }, &t(s, "team-colours-help")))
                    (field(&t(s, "team-match-points"), "team_match_points", html!{ input id="team_match_points" name="team_match_points" value=(values.team_match_points) aria-describedby="team_match_points-help"; }, &t(s, "team-match-points-help")))
                    (field(&t(s, "team-ranking"), "team_ranking", html!{ select id="team_ranking" name="team_ranking" aria-describedby="team_ranking-help" {
                        option value="mp" selected[values.team_ranking != "gp"] { (t(s, "match-points")) }
                        option value="gp" selected[values.team_ranking == "gp"] { (t(s, "game-points")) }
                    } }, &t(s, "team-ranking-help")))
                    (field(&t(s, "team-bye"), "team_bye", html!{ input id="team_bye" name="team_bye" value=(values.team_bye) placeholder="2,2" aria-describedby="team_bye-help"; }, &t(s, "team-bye-help")))
                }
                fieldset.consent id="knockout-rules" {
                    legend { (t(s, "knockout")) }
                    p.hint { (t(s, "knockout-help")) }
                    (field(&t(s, "ko-seeding"), "ko_seeding", html!{ select id="ko_seeding" name="ko_seeding" aria-describedby="ko_seeding-help" {
                        option value="rating" selected[values.ko_seeding == "rating"] { (t(s, "ko-seeding-rating")) }
                        option value="pairing-number" selected[values.ko_seeding == "pairing-number"] { (t(s, "ko-seeding-pairing-number")) }
                    } }, &t(s, "ko-seeding-help")))
                    (field(&t(s, "ko-classical-games"), "ko_classical_games", html!{ input id="ko_classical_games" name="ko_classical_games" type="number" min="1" max="8" value=(values.ko_classical_games) aria-describedby="ko_classical_games-help"; }, &t(s, "ko-classical-games-help")))
                    (field(&t(s, "ko-tie-breaks"), "ko_tie_breaks", html!{ input id="ko_tie_breaks" name="ko_tie_breaks" value=(values.ko_tie_breaks) aria-describedby="ko_tie_breaks-help"; }, &t(s, "ko-tie-breaks-help")))
                    (field(&t(s, "ko-first-colour"), "ko_first_colour", html!{ select id="ko_first_colour" name="ko_first_colour" aria-describedby="ko_first_colour-help" {
                        @for v in ["lot", "higher-seed-white", "higher-seed-black"] { option value=(v) selected[values.ko_first_colour == v] { (t(s, &format!("ko-{v}"))) } }
                    } }, &t(s, "ko-first-colour-help")))
                    (field(&t(s, "ko-tie-break-colours"), "ko_tie_break_colours", html!{ select id="ko_tie_break_colours" name="ko_tie_break_colours" aria-describedby="ko_tie_break_colours-help" {
                        @for v in ["continue", "restart", "lot"] { option value=(v) selected[values.ko_tie_break_colours == v] { (t(s, &format!("ko-{v}"))) } }
                    } }, &t(s, "ko-tie-break-colours-help")))
                    (field(&t(s, "ko-armageddon-colour"), "ko_armageddon_colour", html!{ select id="ko_armageddon_colour" name="ko_armageddon_colour" aria-describedby="ko_armageddon_colour-help" {
                        @for v in ["lot", "higher-seed-white", "higher-seed-black", "continue"] { option value=(v) selected[values.ko_armageddon_colour == v] { (t(s, &format!("ko-{v}"))) } }
                    } }, &t(s, "ko-armageddon-colour-help")))
                    (field(&t(s, "ko-armageddon-time-control"), "ko_armageddon_time_control", html!{ input id="ko_armageddon_time_control" name="ko_armageddon_time_control" value=(values.ko_armageddon_time_control) aria-describedby="ko_armageddon_time_control-help"; }, &t(s, "ko-armageddon-time-control-help")))
                    (field(&t(s, "ko-lot-seed"), "ko_lot_seed", html!{ input id="ko_lot_seed" name="ko_lot_seed" value=(values.ko_lot_seed) aria-describedby="ko_lot_seed-help"; }, &t(s, "ko-lot-seed-help")))
                }
                button type="submit" id="create" { (t(s, "create-tournament")) }
            }
        },
    )
}

/// A tournament's settings after creation: what `UpdateTournament` can change (the system and
/// the identifier cannot). Only changed fields are sent.
pub fn settings(s: &Session, id: &str, values: &NewValues, flash: Option<&Flash>) -> Markup {
    page(
        s.lang,
        &format!("{} · {}", t(s, "settings"), values.name),
        Some(s),
        Some((id, &values.name)),
        flash,
        html! {
            h1 { (t(s, "settings")) }
            p.hint { (t(s, "settings-intro")) }
            form.settings method="post" action={"/console/t/" (id) "/settings"} {
                (csrf(s)) (cmd())
                (field(&t(s, "name"), "name", html!{ input id="name" name="name" required value=(values.name) aria-describedby="name-help"; }, &t(s, "as-it-appears-on-the")))
                (field(&t(s, "rounds"), "rounds", html!{ input id="rounds" name="rounds" type="number" min="1" max="99" required value=(values.rounds) aria-describedby="rounds-help"; }, &t(s, "announced-number-of-rounds-a")))
                (field(&t(s, "start-date"), "start", html!{ input id="start" name="start" type="date" required value=(values.start) aria-describedby="start-help"; }, &t(s, "first-rounds-date")))
                (field(&t(s, "end-date"), "end", html!{ input id="end" name="end" type="date" value=(values.end) aria-describedby="end-help"; }, &t(s, "last-rounds-date-empty-the")))
                (field(&t(s, "place"), "place", html!{ input id="place" name="place" value=(values.place) aria-describedby="place-help"; }, &t(s, "city-or-venue")))
                (field(&t(s, "federation"), "federation", html!{ input id="federation" name="federation" maxlength="3" value=(values.federation) aria-describedby="federation-help"; }, &t(s, "organising-federation-three-letters-eg")))
                (field(&t(s, "chief-arbiter"), "chief", html!{ input id="chief" name="chief" required value=(values.chief) aria-describedby="chief-help"; }, &t(s, "chief-arbiter-help")))
                (field(&t(s, "deputy-arbiters"), "deputies", html!{ textarea id="deputies" name="deputies" rows="3" aria-describedby="deputies-help" { (values.deputies) } }, &t(s, "deputy-arbiters-help")))
                (field(&t(s, "time-control"), "time_control", html!{ input id="time_control" name="time_control" value=(values.time_control) placeholder=(t(s, "time-control-example")) aria-describedby="time_control-help"; }, &t(s, "as-announced-the-rating-kind")))
                (field(&t(s, "rating-kind"), "rating_kind", html!{ select id="rating_kind" name="rating_kind" aria-describedby="rating_kind-help" {
                    option value="standard" selected[values.rating_kind == "standard"] { (t(s, "standard")) }
                    option value="rapid" selected[values.rating_kind == "rapid"] { (t(s, "rapid")) }
                    option value="blitz" selected[values.rating_kind == "blitz"] { (t(s, "blitz")) }
                } }, &t(s, "rating-kind-until-round-1")))
                (field(&t(s, "tie-breaks"), "tie_breaks", html!{ input id="tie_breaks" name="tie_breaks" value=(values.tie_breaks) placeholder=(t(s, "tie-breaks-example")) aria-describedby="tie_breaks-help"; }, &t(s, "c07-codes-separated-by-commas")))
                button type="submit" id="save-settings" { (t(s, "save-settings")) }
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
    /// Deputy arbiters, one a line: "Name", or "Name; FIDE id; title".
    pub deputies: String,
    /// How the event is conducted, at creation: `otb` (default), `online-unsupervised`,
    /// `online-supervised` or `hybrid`, with the time control as periods, the platform, the
    /// regulations' version and whether an unsupervised online event asks for the consent.
    pub format: String,
    pub periods: String,
    pub platform: String,
    pub regulations: String,
    pub require_consent: Option<String>,
    pub traditional_boards: Option<String>,
    /// The finer online settings, as the command line's flags of the same names take them.
    pub reconnection_window: String,
    pub vcs_red_card_after: String,
    pub appeal_deadline: String,
    pub supervision: String,
    pub platform_url: String,
    pub platform_features: String,
    pub illegal_move_policy: String,
    /// A team event's regulations (boards empty = an individual event), as the command line's
    /// `--team-*` flags take them.
    pub team_boards: String,
    pub team_reserves: String,
    pub team_colours: String,
    pub team_match_points: String,
    pub team_ranking: String,
    pub team_bye: String,
    /// A knockout's regulations, as the command line's `--ko-*` flags take them.
    pub ko_seeding: String,
    pub ko_classical_games: String,
    pub ko_tie_breaks: String,
    pub ko_first_colour: String,
    pub ko_tie_break_colours: String,
    pub ko_armageddon_colour: String,
    pub ko_armageddon_time_control: String,
    pub ko_lot_seed: String,
    /// How the event is conducted (over the board, online, hybrid), as created: fixed after
    /// creation, read here for what it asks of players (the fair-play consent).
    #[serde(skip)]
    pub conduct: Option<pb::Conduct>,
}

impl NewValues {
    pub fn fresh() -> NewValues {
        NewValues {
            system: "dutch-2025".into(),
            rounds: "5".into(),
            rating_kind: "standard".into(),
            fide_rated: Some("on".into()),
            team_match_points: "2,1,0".into(),
            team_ranking: "mp".into(),
            ko_seeding: "rating".into(),
            ko_classical_games: "2".into(),
            ko_tie_breaks: "rapid:2:25m+10s,blitz:2:5m+3s".into(),
            ko_first_colour: "lot".into(),
            ko_tie_break_colours: "continue".into(),
            ko_armageddon_colour: "lot".into(),
            ko_armageddon_time_control: "5m/4m".into(),
            ..NewValues::default()
        }
    }

    /// What a posted form holds (fields it lacks are empty; unknown ones are ignored).
    pub fn from_form(f: &std::collections::HashMap<String, String>) -> NewValues {
        serde_json::to_value(f)
            .and_then(serde_json::from_value)
            .unwrap_or_default()
    }
}

pub fn phase_text(p: i32) -> &'static str {
    match rd::Phase::try_from(p).unwrap_or(rd::Phase::Unspecified) {
        rd::Phase::Registration => "phase-registration",
        rd::Phase::AwaitingPairing => "phase-awaiting-pairing",
        rd::Phase::PairingProposed => "phase-proposed",
        rd::Phase::Playing => "phase-playing",
        rd::Phase::RoundClosed => "phase-closed",
        rd::Phase::Finished => "phase-finished",
        rd::Phase::Unspecified => "phase-unknown",
    }
}

pub fn overview(s: &Session, st: &rd::TournamentState, flash: Option<&Flash>) -> Markup {
    let id = st.tournament_id.as_str();
    page(
        s.lang,
        &st.name,
        Some(s),
        Some((id, &st.name)),
        flash,
        html! {
            h1 { (st.name) }
            dl.facts {
                dt { (t(s, "state")) } dd id="phase" { (t(s, phase_text(st.phase))) }
                dt { (t(s, "round")) } dd { (ta(s, "n-of-m", &[("n", st.current_round.into()), ("m", st.rounds.into())])) }
                dt { (t(s, "pairing-rules")) } dd { (st.rule_set) }
                dt { (t(s, "events")) } dd { (st.version) }
            }
            h2 { (t(s, "exports")) }
            p {
                a href={"/console/t/" (id) "/export?format=trf16"} download { "TRF16" } " · "
                a href={"/console/t/" (id) "/export?format=trf2026"} download { "TRF-2026" } " · "
                a href={"/api/tournaments/" (id) "/standings"} { (t(s, "standings-json")) }
            }
            h2 { (t(s, "print")) }
            p {
                a href={"/t/" (id) "/standings"} { (t(s, "standings")) } " · "
                a href={"/t/" (id) "/crosstable"} { (t(s, "crosstable")) } " · "
                a href={"/t/" (id) "/pairings"} { (t(s, "pairings")) }
            }
        },
    )
}

/// What the rating-list search found (or why it could not search).
pub struct Found {
    pub query: String,
    pub players: Result<Vec<arbiter_proto::registration::v1::PlayerDetails>, String>,
}

/// What the players screen shows.
pub struct PlayersView<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub next_round: u32,
    /// Play has begun: a new player is a late entry (his first round, the score of the
    /// rounds he missed).
    pub started: bool,
    pub list: &'a reg::ListPlayersResponse,
    pub paste: &'a str,
    pub found: Option<&'a Found>,
    /// The fair-play consent the event asks of every player, if any.
    pub consent: Option<ConsentAsked>,
}

/// The consent an event asks for: the regulations' version and the items its format needs.
pub struct ConsentAsked {
    pub regulations_version: String,
    pub items: Vec<pb::ConsentItem>,
}

fn consent_item_text(i: pb::ConsentItem) -> &'static str {
    match i {
        pb::ConsentItem::AnalysisAndSanctions => "consent-analysis",
        pb::ConsentItem::RealName => "consent-real-name",
        pb::ConsentItem::RemoteSupervision => "consent-supervision",
        pb::ConsentItem::Recording => "consent-recording",
        pb::ConsentItem::ComplaintsProcedure => "consent-complaints",
        pb::ConsentItem::Unspecified => "consent-analysis",
    }
}

pub fn players(s: &Session, v: &PlayersView, flash: Option<&Flash>) -> Markup {
    let PlayersView {
        id,
        name,
        next_round,
        started,
        list,
        paste,
        found,
        ..
    } = *v;
    // A late entry's round and the score of the rounds he missed, sent with every way of
    // adding a player once play has begun.
    let late_hidden = html! {
        @if started {
            input type="hidden" name="first_round" value=(next_round);
            input type="hidden" name="missed" value="zero";
        }
    };
    page(
        s.lang,
        &format!("{} · {name}", t(s, "players")),
        Some(s),
        Some((id, name)),
        flash,
        html! {
            h1 { (t(s, "players")) }
            h2 { (t(s, "find-in-the-rating-list")) }
            form.row.find method="get" action={"/console/t/" (id) "/players"} role="search" {
                (field(&t(s, "fide-id-or-name"), "find", html!{ input id="find" name="find" type="search" autocomplete="off" value=(found.map(|f| f.query.as_str()).unwrap_or("")) aria-describedby="find-help" aria-controls="found"; }, &t(s, "a-fide-id-or-the")))
                button type="submit" id="find-button" { (t(s, "find")) }
            }
            div id="found" aria-live="polite" {
                @if let Some(f) = found {
                    @match &f.players {
                        Err(e) => p.flash.refused role="alert" { (e) },
                        Ok(players) if players.is_empty() => p { (ta(s, "nobody-in-the-list", &[("query", f.query.as_str().into())])) },
                        Ok(players) => div.scroll { table id="found-players" {
                            thead { tr { th { (t(s, "title")) } th { (t(s, "name")) } th.num { (t(s, "rating")) } th { (t(s, "fed")) } th { (t(s, "fide-id")) } th { span.sr { (t(s, "actions")) } } } }
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
                                            (late_hidden)
                                            button type="submit" aria-label=(ta(s, "register-player", &[("name", p.name.as_str().into())])) { (t(s, "register-2")) }
                                        }
                                    }
                                }
                            } }
                        } },
                    }
                }
            }
            h2 { (t(s, "add-a-player")) }
            form.row method="post" action={"/console/t/" (id) "/players"} {
                (csrf(s)) (cmd())
                (field(&t(s, "name"), "p-name", html!{ input id="p-name" name="name" required placeholder=(t(s, "surname-given")) aria-describedby="p-name-help"; }, &t(s, "as-in-the-fide-list")))
                (field(&t(s, "fide-id"), "p-fide", html!{ input id="p-fide" name="fide_id" inputmode="numeric" aria-describedby="p-fide-help"; }, &t(s, "with-a-rating-list-imported")))
                (field(&t(s, "rating"), "p-rating", html!{ input id="p-rating" name="rating" inputmode="numeric" aria-describedby="p-rating-help"; }, &t(s, "empty-unrated")))
                (field(&t(s, "federation"), "p-fed", html!{ input id="p-fed" name="federation" maxlength="3" aria-describedby="p-fed-help"; }, &t(s, "three-letters")))
                @if started {
                    (field(&t(s, "first-round"), "p-first", html!{ input id="p-first" name="first_round" inputmode="numeric" required value=(next_round) aria-describedby="p-first-help"; }, &t(s, "first-round-help")))
                    (field(&t(s, "missed-rounds"), "p-missed", html!{ select id="p-missed" name="missed" aria-describedby="p-missed-help" {
                        option value="zero" { (t(s, "bye-zero-point")) }
                        option value="half" { (t(s, "bye-half-point")) }
                        option value="full" { (t(s, "bye-full-point")) }
                    } }, &t(s, "missed-rounds-help")))
                }
                button type="submit" id="add-player" { @if started { (t(s, "enter-late")) } @else { (t(s, "add")) } }
            }
            @if let Some(c) = &v.consent {
                h2 { (t(s, "fair-play-consent")) }
                p { (ta(s, "consent-asked", &[("version", c.regulations_version.as_str().into())])) }
                @if !list.players.iter().any(|p| p.status == reg::PlayerStatus::ConsentMissing as i32) {
                    p id="all-consented" { (t(s, "all-consented")) }
                } @else {
                form method="post" action={"/console/t/" (id) "/players/consent"} {
                    (csrf(s)) (cmd())
                    input type="hidden" name="regulations_version" value=(c.regulations_version);
                    div.row {
                        (field(&t(s, "player"), "f-player", html!{ select id="f-player" name="entry" required aria-describedby="f-player-help" {
                            @for p in &list.players { @if let Some(pl) = &p.player {
                                @if p.status == reg::PlayerStatus::ConsentMissing as i32 {
                                    option value=(p.entry) { (p.pairing_number) ". " (pl.name) }
                                }
                            } }
                        } }, &t(s, "consent-player-help")))
                        (field(&t(s, "accepted-by"), "f-by", html!{ input id="f-by" name="accepted_by" required aria-describedby="f-by-help"; }, &t(s, "accepted-by-help")))
                        (field(&t(s, "platform-account"), "f-account", html!{ input id="f-account" name="platform_account" aria-describedby="f-account-help"; }, &t(s, "platform-account-help")))
                    }
                    fieldset.consent {
                        legend { (t(s, "consents-to")) }
                        @for i in &c.items {
                            label.choice { input type="checkbox" name={"item-" (*i as i32)} required; " " (t(s, consent_item_text(*i))) }
                        }
                        label.choice { input type="checkbox" name="by_guardian"; " " (t(s, "by-guardian")) }
                    }
                    button type="submit" id="record-consent" { (t(s, "record-consent")) }
                }
                }
            }
            h2 { (t(s, "byes-and-withdrawals")) }
            form.row method="post" action={"/console/t/" (id) "/players/change"} {
                (csrf(s)) (cmd())
                (field(&t(s, "player"), "c-player", html!{ select id="c-player" name="entry" required aria-describedby="c-player-help" {
                    @for p in &list.players { @if let Some(pl) = &p.player {
                        option value=(p.entry) { (p.pairing_number) ". " (pl.name) }
                    } }
                } }, &t(s, "player-help")))
                (field(&t(s, "what"), "c-what", html!{ select id="c-what" name="what" aria-describedby="c-what-help" {
                    option value="half" { (t(s, "bye-half-point")) }
                    option value="full" { (t(s, "bye-full-point")) }
                    option value="zero" { (t(s, "bye-zero-point")) }
                    option value="withdraw" { (t(s, "withdrawal")) }
                } }, &t(s, "what-help")))
                (field(&t(s, "round"), "c-round", html!{ input id="c-round" name="round" inputmode="numeric" required value=(next_round) aria-describedby="c-round-help"; }, &t(s, "change-round-help")))
                (field(&t(s, "why"), "c-why", html!{ input id="c-why" name="reason" aria-describedby="c-why-help"; }, &t(s, "change-why-help")))
                button type="submit" id="record-change" { (t(s, "record")) }
            }
            h2 { (t(s, "paste-a-list")) }
            form method="post" action={"/console/t/" (id) "/players/paste"} {
                (csrf(s)) (cmd())
                (field(&t(s, "players"), "paste", html!{ textarea id="paste" name="list" rows="8" aria-describedby="paste-help" { (paste) } }, &t(s, "one-a-line-from-a")))
                button type="submit" id="paste-players" { (t(s, "register-all")) }
            }
            h2 { (t(s, "import-a-trf")) }
            form method="post" action={"/console/t/" (id) "/players/trf"} {
                (csrf(s)) (cmd())
                (field(&t(s, "trf-file"), "trf-pick", html!{ input id="trf-pick" type="file" accept=".trf,.txt,text/plain" aria-describedby="trf-pick-help"; }, &t(s, "trf-pick-help")))
                (field(&t(s, "trf-text"), "trf", html!{ textarea id="trf" name="trf" rows="6" aria-describedby="trf-help" {} }, &t(s, "trf-help")))
                button type="submit" id="import-trf" { (t(s, "register-all")) }
            }
            h2 { (t(s, "starting-list")) }
            p { (ta(s, "registered-count", &[("count", list.players.len().into())])) }
            // One form for every row's cancel button (one CSRF token, not one a row).
            form id="cancel" method="post" action={"/console/t/" (id) "/players/cancel"} {
                (csrf(s)) (cmd())
            }
            div.scroll { table id="players" {
                thead { tr { th.num { (t(s, "no")) } th { (t(s, "title")) } th { (t(s, "name")) } th.num { (t(s, "rating")) } th { (t(s, "fed")) } th { (t(s, "fide-id")) } th { (t(s, "status")) } th { span.sr { (t(s, "actions")) } } } }
                tbody { @for p in &list.players {
                    @if let Some(pl) = &p.player {
                        tr {
                            td.num { (p.pairing_number) }
                            td { (title_text(pl.title)) }
                            td.name { (pl.name) }
                            td.num { (pl.rating) }
                            td { (pl.federation) }
                            td { @if let Some(f) = pl.fide_id { (f) } }
                            td { (t(s, status(p.status))) }
                            td {
                                button.quiet type="submit" form="cancel" name="entry" value=(p.entry) aria-label=(ta(s, "cancel-registration-of", &[("name", pl.name.as_str().into())])) { (t(s, "cancel-registration")) }
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
        reg::PlayerStatus::Active => "status-active",
        reg::PlayerStatus::Withdrawn => "status-withdrawn",
        reg::PlayerStatus::ConsentMissing => "status-consent-missing",
        reg::PlayerStatus::Unspecified => "status-unknown",
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
    /// A team event's team names by number (empty otherwise).
    pub team_names: std::collections::HashMap<u32, String>,
    pub boards_text: String,
    /// The pairing worker's explanation of the proposal, in words.
    pub explanation: Option<String>,
    /// The engine's verdict on the published pairing or on boards changed by hand.
    pub verdict: Option<String>,
    /// A verdict on boards changed by hand the arbiter has been shown: publishing them again
    /// posts it back ("publish anyway").
    pub seen: Option<String>,
    /// The change-by-hand form opened (it holds what the arbiter typed).
    pub hand_open: bool,
    /// The note typed with the change.
    pub note: String,
}

pub fn round(s: &Session, v: &RoundView, flash: Option<&Flash>) -> Markup {
    let st = v.state;
    let id = st.tournament_id.as_str();
    let phase = rd::Phase::try_from(st.phase).unwrap_or(rd::Phase::Unspecified);
    let name = |pn: u32| v.names.get(&pn).cloned().unwrap_or_default();
    let team_name = |n: u32| {
        v.team_names
            .get(&n)
            .map_or_else(|| n.to_string(), |t| format!("{n}. {t}"))
    };
    let action = |what: &str| format!("/console/t/{id}/round/{what}");
    page(
        s.lang,
        &format!("{} · {}", t(s, "round"), st.name),
        Some(s),
        Some((id, &st.name)),
        flash,
        html! {
            h1 { (ta(s, "round-of", &[("round", st.current_round.into()), ("rounds", st.rounds.into())])) }
            p id="phase" data-phase=(st.phase) { (t(s, phase_text(st.phase))) }
            @match phase {
                rd::Phase::Registration | rd::Phase::RoundClosed if st.current_round < st.rounds => {
                    form method="post" action=(action("start")) {
                        (csrf(s)) (cmd())
                        button type="submit" id="start-round" { (ta(s, "pair-round", &[("round", (st.current_round + 1).into())])) }
                    }
                }
                rd::Phase::RoundClosed => {
                    form method="post" action=(action("finish")) {
                        (csrf(s)) (cmd())
                        button type="submit" id="finish" { (t(s, "finish-the-tournament")) }
                    }
                }
                rd::Phase::AwaitingPairing => {
                    p { (t(s, "the-pairing-is-being-computed")) }
                    p { a href=(action("")) { (t(s, "refresh")) } }
                }
                _ => {}
            }
            @if phase == rd::Phase::Playing {
                h2 { (t(s, "results")) }
                @if st.pending_boards.is_empty() {
                    p id="all-results" { (t(s, "every-board-has-a-result")) }
                } @else {
                    p { (t(s, "pending-boards")) " " span id="pending" { (st.pending_boards.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")) } }
                }
                form.row.entry method="post" action=(action("result")) {
                    (csrf(s)) (cmd())
                    (field(&t(s, "board"), "board", html!{ input id="board" name="board" inputmode="numeric" required autofocus aria-describedby="board-help"; }, &t(s, "board-number")))
                    (field(&t(s, "result"), "result", html!{ input id="result" name="result" required aria-describedby="result-help"; }, "1 (1-0), 0 (0-1), = (½-½), + (+/-), - (-/+), -- (-/-)."))
                    button type="submit" id="record" { (t(s, "record")) }
                }
                details id="correct-result" {
                    summary { (t(s, "correct-a-result")) }
                    form.row method="post" action=(action("correct")) {
                        (csrf(s)) (cmd())
                        (field(&t(s, "board"), "c-board", html!{ input id="c-board" name="board" inputmode="numeric" required aria-describedby="c-board-help"; }, &t(s, "board-number")))
                        (field(&t(s, "result"), "c-result", html!{ input id="c-result" name="result" required aria-describedby="c-result-help"; }, &t(s, "as-for-entry")))
                        (field(&t(s, "why"), "c-reason", html!{ input id="c-reason" name="reason" required aria-describedby="c-reason-help"; }, &t(s, "recorded-with-the-correction")))
                        button type="submit" id="correct" { (t(s, "correct")) }
                    }
                }
                @if st.pending_boards.is_empty() {
                    form method="post" action=(action("close")) {
                        (csrf(s)) (cmd())
                        button type="submit" id="close-round" { (ta(s, "close-round", &[("round", st.current_round.into())])) }
                    }
                }
            }
            @if let Some(p) = v.pairings.filter(|p| !p.team_matches.is_empty()) {
                h2 { (t(s, "team-matches")) }
                div.scroll { table id="team-matches" {
                    thead { tr { th.num { (t(s, "match")) } th { (t(s, "team-named-first")) } th { (t(s, "team-named-second")) } } }
                    tbody { @for (i, m) in p.team_matches.iter().enumerate() {
                        tr { td.num { (i + 1) } td.name { (team_name(m.first)) } td.name { (team_name(m.second)) } }
                    } }
                } }
                @if p.team_bye != 0 { p { (t(s, "team-bye")) ": " (team_name(p.team_bye)) } }
                @if !p.published { p.hint { a href={"/console/t/" (id) "/teams"} { (t(s, "lineups-on-teams")) } } }
            }
            @if let Some(p) = v.pairings {
                @let team_event = !p.team_matches.is_empty();
                @if !p.boards.is_empty() {
                h2 { @if p.published { (t(s, "pairings")) } @else { (t(s, "proposed-pairings")) } }
                div.scroll { table id="boards" {
                    thead { tr { th.num { (t(s, "board")) } th.num { (t(s, "no")) } th { (t(s, "white")) } th.res { (t(s, "result")) } th { (t(s, "black")) } th.num { (t(s, "no")) } } }
                    tbody { @for b in &p.boards { @if let Some(bd) = &b.board {
                        tr data-board=(bd.number) data-white=(bd.white) data-black=(bd.black) {
                            td.num { (bd.number) }
                            td.num { (bd.white) }
                            td.name { (name(bd.white)) }
                            td.res { (result_text(b.result)) }
                            td.name { (name(bd.black)) }
                            td.num { (bd.black) }
                        }
                    } } }
                } }
                }
                @if !p.unpaired.is_empty() {
                    p { (t(s, "not-paired")) " "
                        @for (i, u) in p.unpaired.iter().enumerate() {
                            @if i > 0 { ", " }
                            (u.player_id) " " (name(u.player_id)) " (" (t(s, unpaired_text(u.code))) ")"
                        }
                    }
                }
                @if phase == rd::Phase::PairingProposed {
                    form method="post" action=(action("publish")) {
                        (csrf(s)) (cmd())
                        button type="submit" id="publish" { (t(s, "publish")) }
                    }
                    @if let Some(x) = &v.explanation {
                        details id="explanation" {
                            summary { (t(s, "why-this-pairing")) }
                            pre.explain { (x) }
                        }
                    }
                    details id="change-by-hand" open[v.hand_open] {
                        summary { (t(s, "change-by-hand")) }
                        form method="post" action=(action("publish")) {
                            (csrf(s)) (cmd())
                            @if team_event {
                                input type="hidden" name="team" value="1";
                                (field(&t(s, "team-matches"), "hand-boards", html!{ textarea id="hand-boards" name="boards" rows="8" aria-describedby="hand-boards-help" { (v.boards_text) } }, &t(s, "one-match-a-line")))
                            } @else {
                                (field(&t(s, "boards"), "hand-boards", html!{ textarea id="hand-boards" name="boards" rows="8" aria-describedby="hand-boards-help" { (v.boards_text) } }, &t(s, "one-board-a-line-whites")))
                            }
                            (field(&t(s, "why"), "note", html!{ input id="note" name="note" required value=(v.note) aria-describedby="note-help"; }, &t(s, "recorded-with-the-pairing-and")))
                            @if let Some(seen) = &v.seen {
                                p.verdict id="hand-verdict" role="status" { (seen) }
                                input type="hidden" name="seen" value=(seen);
                            }
                            div.row {
                                @if !team_event {
                                    button.secondary type="submit" id="check-changes" formaction=(action("check-changes")) formnovalidate { (t(s, "check-changes")) }
                                }
                                button type="submit" id="publish-changed" {
                                    @if v.seen.is_some() { (t(s, "publish-anyway")) } @else { (t(s, "publish-as-changed")) }
                                }
                            }
                        }
                    }
                }
            }
            @if v.pairings.is_some_and(|p| p.published && p.team_matches.is_empty()) {
                form method="post" action=(action("check")) {
                    (csrf(s)) (cmd())
                    button.secondary type="submit" id="check" { (t(s, "check-against-the-engine")) }
                }
            }
            @if let Some(x) = v.verdict.as_ref().filter(|_| v.seen.is_none()) {
                p.verdict id="verdict" role="status" { (x) }
            }
            @if !st.corrections.is_empty() {
                h2 { (t(s, "corrections")) }
                ul { @for c in &st.corrections {
                    li { (ta(s, "correction-line", &[("round", c.round.into()), ("board", c.board.into()), ("before", result_text(c.previous).into()), ("after", result_text(c.corrected).into()), ("reason", c.reason.as_str().into())])) " " (t(s, correction_effect(c.effect))) }
                } }
            }
        },
    )
}

fn correction_effect(e: i32) -> &'static str {
    match rd::CorrectionEffect::try_from(e).unwrap_or(rd::CorrectionEffect::Unspecified) {
        rd::CorrectionEffect::NextPairing => "effect-next-pairing",
        rd::CorrectionEffect::LaterPairings => "effect-later-pairings",
        rd::CorrectionEffect::FinalEvaluationOnly => "effect-final-only",
        rd::CorrectionEffect::Unspecified => "effect-unknown",
    }
}

fn unpaired_text(code: i32) -> &'static str {
    match pb::ResultCode::try_from(code).unwrap_or(pb::ResultCode::Unspecified) {
        pb::ResultCode::PairingBye => "bye-pairing-allocated",
        pb::ResultCode::HalfBye => "bye-half-point",
        pb::ResultCode::FullBye => "bye-full-point",
        pb::ResultCode::ZeroBye => "bye-zero-point",
        _ => "bye-not-paired",
    }
}

pub fn standings(
    s: &Session,
    id: &str,
    name: &str,
    st: &rep::Standings,
    flash: Option<&Flash>,
) -> Markup {
    page(
        s.lang,
        &format!("{} · {name}", t(s, "standings")),
        Some(s),
        Some((id, name)),
        flash,
        html! {
            h1 { (ta(s, "standings-after", &[("round", st.after_round.into())])) }
            @if !st.team_rows.is_empty() {
                h2 { (t(s, "teams")) }
                div.scroll { table id="team-standings" {
                    thead { tr {
                        th.num { (t(s, "rank")) } th.num { (t(s, "no")) } th { (t(s, "team-name")) } th.num { (t(s, "mp")) } th.num { (t(s, "gp")) }
                        @for tb in &st.team_tie_break_list { th.num { (tb) } }
                    } }
                    tbody { @for r in &st.team_rows {
                        tr {
                            td.num { (r.rank) @if r.rank_to > r.rank { "-" (r.rank_to) } }
                            td.num { (r.team) }
                            td.name { (r.name) }
                            td.num { (points(arbiter_proto::tenths(r.match_score.as_ref()))) }
                            td.num { (points(arbiter_proto::tenths(r.game_score.as_ref()))) }
                            @for tb in &r.tie_breaks { td.num { (decimal(tb.value.as_ref())) } }
                        }
                    } }
                } }
                h2 { (t(s, "players")) }
            }
            div.scroll { table id="standings" {
                thead { tr {
                    th.num { (t(s, "rank")) } th.num { (t(s, "no")) } th { (t(s, "name")) } th.hide-narrow { (t(s, "fed")) } th.num.hide-narrow { (t(s, "rating")) } th.num data-column="points" { (t(s, "pts")) }
                    @for tb in &st.tie_break_list { th.num { (tb) } }
                } }
                tbody { @for r in &st.rows {
                    tr {
                        td.num { (r.rank) @if r.rank_to > r.rank { "-" (r.rank_to) } }
                        td.num { (r.pairing_number) }
                        td.name { (r.name) }
                        td.hide-narrow { (r.federation) }
                        td.num.hide-narrow { (r.rating) }
                        td.num { (points(arbiter_proto::tenths(r.score.as_ref()))) }
                        @for tb in &r.tie_breaks { td.num { (decimal(tb.value.as_ref())) } }
                    }
                } }
            } }
            @for n in &st.notes { p.note { (n) } }
        },
    )
}

/// The prize list: the fund's form (a GET: it changes nothing) and, once a method is chosen,
/// who receives what, exact and paid.
/// What the prize screen shows.
pub struct PrizesView<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub standings: &'a rep::Standings,
    pub form: &'a PrizeForm,
    pub list: Option<&'a Result<PrizeList, FormError>>,
    /// The fund announced in the log, if any.
    pub announced: Option<&'a arbiter_core::tournament::PrizeFund>,
    /// The form shows exactly the announced fund.
    pub is_announced: bool,
}

pub fn prizes(s: &Session, v: &PrizesView) -> Markup {
    let (id, name, st, form, list) = (v.id, v.name, v.standings, v.form, v.list);
    let method = form.method.as_str();
    let currency = if form.currency.is_empty() {
        String::new()
    } else {
        format!(" {}", form.currency)
    };
    page(
        s.lang,
        &format!("{} · {name}", t(s, "prizes")),
        Some(s),
        Some((id, name)),
        None,
        html! {
            h1 { (ta(s, "prizes-after", &[("round", st.after_round.into())])) }
            p id="fund-status" {
                @if v.is_announced { (t(s, "prize-fund-announced")) }
                @else if v.announced.is_some() { (t(s, "prize-fund-differs")) }
                @else { (t(s, "prize-fund-not-announced")) }
            }
            @match list {
                None => p.note { (t(s, "prize-choose-method")) },
                Some(Err(e)) => p.flash.refused role="alert" { (prize_error(s, e)) },
                Some(Ok(l)) => {
                    div.scroll { table id="prize-list" {
                        thead { tr {
                            th.num { (t(s, "rank")) } th.num { (t(s, "no")) } th { (t(s, "name")) } th.num { (t(s, "pts")) }
                            th.num { (t(s, "prize-paid")) } th.num { (t(s, "prize-exact")) } th { (t(s, "prize-from")) } th.num { (t(s, "rating")) }
                        } }
                        tbody { @for line in &l.lines {
                            tr.nothing[line.paid == 0] data-player=(line.id) {
                                td.num { (line.rank) } td.num { (line.id) } td.name { (line.name) }
                                td.num { (points(line.points)) }
                                td.num.paid { @if line.paid > 0 { (money(i128::from(line.paid))) } }
                                td.num { @if line.paid > 0 { (exact_money(line.exact)) } }
                                td { @for (i, (list, place)) in line.portions.iter().enumerate() {
                                    @if i > 0 { "; " }
                                    @if let Some(list) = list { (list) ", " }
                                    @if let Some(p) = place { (ta(s, "prize-place", &[("place", (*p as u32).into())])) }
                                    @else { (t(s, "prize-shared-below")) }
                                } }
                                td.num { @if line.rating > 0 { (line.rating) } }
                            }
                        } }
                    } }
                    p { (ta(s, "prize-totals", &[("fund", format!("{}{currency}", money(l.fund_total)).into()), ("paid", format!("{}{currency}", money(l.paid_total)).into())])) }
                    @if !l.unawarded.is_empty() {
                        h2 { (t(s, "prize-unawarded")) }
                        ul { @for (list, place, amount) in &l.unawarded {
                            li { @if let Some(list) = list { (list) ", " } (ta(s, "prize-place", &[("place", (*place as u32).into())])) ": " (money(i128::from(*amount))) }
                        } }
                    }
                    p.hint { (t(s, "prize-rounding")) }
                },
            }
            details.fund open[!matches!(list, Some(Ok(_))) || !v.is_announced] {
                summary { (t(s, "prize-fund")) }
                p.hint { (t(s, "prizes-intro")) }
                form.prizes.noprint method="post" action={"/console/t/" (id) "/prizes"} {
                    (csrf(s)) (cmd())
                    label for="places" { (t(s, "prize-places")) }
                    input id="places" name="places" value=(form.places) placeholder="1000, 500, 250" aria-describedby="places-hint";
                    small id="places-hint" { (t(s, "prize-places-hint")) }
                    label for="currency" { (t(s, "prize-currency")) }
                    input id="currency" name="currency" maxlength="3" value=(form.currency) placeholder="EUR";
                    fieldset {
                        legend { (t(s, "prize-method")) }
                        @for (value, label, hint) in [("equal", "prize-equal", "prize-equal-hint"), ("tie-break", "prize-tie-break", "prize-tie-break-hint"), ("hort", "prize-hort", "prize-hort-hint")] {
                            label.choice {
                                input type="radio" name="method" value=(value) checked[method == value];
                                span { strong { (t(s, label)) } " " small { (t(s, hint)) } }
                            }
                        }
                    }
                    fieldset {
                        legend { (t(s, "prize-sharing")) }
                        label.choice { input type="radio" name="scope" value="prize-places" checked[form.scope != "all-tied"]; (t(s, "prize-scope-places")) }
                        label.choice { input type="radio" name="scope" value="all-tied" checked[form.scope == "all-tied"]; (t(s, "prize-scope-all")) }
                        label.choice { input type="checkbox" name="one_prize" value="no" checked[form.one_prize == "no"]; (t(s, "prize-several")) }
                    }
                    label for="categories" { (t(s, "prize-categories")) }
                    textarea id="categories" name="categories" rows="4" aria-describedby="categories-hint" placeholder="Under 2000; rating<2000; 100 50" { (form.categories) }
                    small id="categories-hint" { (t(s, "prize-categories-hint")) }
                    div.row {
                        button.secondary type="submit" id="prize-show" name="action" value="show" { (t(s, "prize-compute")) }
                        button type="submit" id="prize-announce" name="action" value="announce" { (t(s, "prize-announce")) }
                    }
                }
            }
        },
    )
}

fn prize_error(s: &Session, e: &FormError) -> String {
    match e {
        FormError::Amount { field, index, text } => {
            let field = if *field == "places" {
                t(s, "prize-places")
            } else {
                t(s, "prize-categories")
            };
            ta(
                s,
                "prize-not-an-amount",
                &[
                    ("field", field.into()),
                    ("index", (*index as u32).into()),
                    ("text", text.clone().into()),
                ],
            )
        }
        FormError::Category { line, why } => ta(
            s,
            "prize-bad-category",
            &[("line", (*line as u32).into()), ("why", why.clone().into())],
        ),
        FormError::Announce(m) => m.clone(),
        FormError::Prizes(m) => m.clone(),
    }
}

/// Points are kept in tenths.
pub fn points(tenths: i32) -> String {
    if tenths % 10 == 0 {
        (tenths / 10).to_string()
    } else {
        format!("{}.{}", tenths / 10, (tenths % 10).abs())
    }
}

/// A fixed-point value as written: `units` with `scale` decimals ("" when absent).
pub fn decimal(d: Option<&arbiter_proto::common::v1::Decimal>) -> String {
    d.map(|d| d.text()).unwrap_or_default()
}

pub fn audit(
    s: &Session,
    id: &str,
    name: &str,
    events: &[pb::Envelope],
    flash: Option<&Flash>,
    verdict: Option<&Result<(bool, String), String>>,
) -> Markup {
    page(
        s.lang,
        &format!("{} · {name}", t(s, "audit")),
        Some(s),
        Some((id, name)),
        flash,
        html! {
            h1 { (t(s, "event-log")) }
            p { (ta(s, "events-chained", &[("count", events.len().into())])) " " code { "arbiter replay" } }
            form method="post" action={"/console/t/" (id) "/audit/replay"} {
                (csrf(s)) (cmd())
                button type="submit" id="replay" { (t(s, "replay-now")) }
            }
            @match verdict {
                Some(Ok((true, text))) => div id="replay-verdict" {
                    p.verdict role="status" { (t(s, "replay-holds")) }
                    pre.explain { (text) }
                },
                Some(Ok((false, text))) => div id="replay-verdict" {
                    p.flash.refused role="alert" { (t(s, "replay-fails")) }
                    pre.explain { (text) }
                },
                Some(Err(e)) => div id="replay-verdict" { p.flash.refused role="alert" { (e) } },
                None => {},
            }
            div.scroll { table id="events" {
                thead { tr { th.num { "#" } th { (t(s, "event")) } th { (t(s, "actor")) } th { (t(s, "recorded-utc")) } th { (t(s, "hash")) } } }
                tbody { @for e in events {
                    tr {
                        td.num { (e.version) }
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
        return if e.redacted {
            "redacted".into()
        } else {
            String::new()
        };
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
        assert_eq!(
            (d(125, 1), d(-5, 2), d(7, 0)),
            ("12.5".into(), "-0.05".into(), "7".into())
        );
    }
}
