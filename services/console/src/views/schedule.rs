//! A round robin's schedule and drawing of lots (C.05 §5-6), a knockout's bracket (Arbiters'
//! Manual ch. IV §6.2), as the round director derives them.

use super::*;
use std::collections::HashMap;

pub struct ScheduleView<'a> {
    pub state: &'a rd::TournamentState,
    pub names: &'a HashMap<u32, String>,
    /// The schedule, or the service's words on why there is none (a Swiss).
    pub schedule: Result<rd::Schedule, String>,
    pub typed: &'a HashMap<String, String>,
}

pub fn schedule(s: &Session, v: &ScheduleView, flash: Option<&Flash>) -> Markup {
    let st = v.state;
    let id = st.tournament_id.as_str();
    let name = |pn: u32| v.names.get(&pn).cloned().unwrap_or_default();
    let player = |pn: u32| {
        html! { @if pn == 0 { "—" } @else { (pn) " " (name(pn)) } }
    };
    let typed = |k: &str| v.typed.get(k).cloned().unwrap_or_default();
    page(
        s.lang,
        &format!("{} · {}", t(s, "schedule"), st.name),
        Some(s),
        Some((id, &st.name)),
        flash,
        html! {
            h1 { (t(s, "schedule")) }
            @match &v.schedule {
                Err(why) => p.hint id="no-schedule" { (why) },
                Ok(sc) => {
                    @if let Some(b) = &sc.bracket {
                        (bracket(s, b, &player))
                    } @else {
                        p.hint { (ta(s, "schedule-intro", &[("players", sc.players.into()), ("table", sc.rule_set.as_str().into())])) }
                        h2 { (t(s, "drawing-of-lots")) }
                        @match &sc.lots {
                            Some(l) => p id="lots" {
                                @if l.seed.is_empty() { (t(s, "lots-drawn-in-hall")) } @else { (ta(s, "lots-drawn-from-seed", &[("seed", l.seed.as_str().into())])) }
                                @if l.varma { " " (t(s, "lots-varma")) }
                            },
                            None => p id="lots" { (t(s, "lots-not-drawn")) },
                        }
                        @if st.current_round == 0 && sc.lots.is_none() {
                            form.settings method="post" action={"/console/t/" (id) "/schedule/lots"} {
                                (csrf(s)) (cmd())
                                (field(&t(s, "lots-seed"), "seed", html!{ input id="seed" name="seed" value=(typed("seed")) aria-describedby="seed-help"; }, &t(s, "lots-seed-help")))
                                (field(&t(s, "lots-numbers"), "numbers", html!{ input id="numbers" name="numbers" value=(typed("numbers")) aria-describedby="numbers-help"; }, &t(s, "lots-numbers-help")))
                                div.field.check {
                                    input id="varma" name="varma" type="checkbox" value="on" checked[v.typed.contains_key("varma")];
                                    label for="varma" { (t(s, "lots-varma-box")) }
                                }
                                button type="submit" id="draw-lots" { (t(s, "draw-lots")) }
                            }
                        }
                        @if !sc.compatriot_games.is_empty() {
                            h2 { (t(s, "compatriot-games")) }
                            ul id="compatriots" { @for g in &sc.compatriot_games {
                                li { (ta(s, "compatriot-game", &[("round", g.round.into()), ("federation", g.federation.as_str().into())])) " " (player(g.white)) " – " (player(g.black)) }
                            } }
                        }
                        h2 { (t(s, "rounds-of-the-table")) }
                        @for r in &sc.rounds {
                            h3 { (ta(s, "round-n", &[("round", r.round.into())])) }
                            div.scroll { table.schedule {
                                thead { tr { th.num { (t(s, "board")) } th { (t(s, "white")) } th { (t(s, "black")) } } }
                                tbody { @for b in &r.boards {
                                    tr { td.num { (b.number) } td.name { (player(b.white)) } td.name { (player(b.black)) } }
                                } }
                            } }
                            @if r.rest != 0 { p { (t(s, "rests")) " " (player(r.rest)) } }
                        }
                    }
                }
            }
        },
    )
}

fn bracket(s: &Session, b: &rd::KnockoutBracket, player: &dyn Fn(u32) -> Markup) -> Markup {
    html! {
        p.hint id="bracket-intro" { (ta(s, "bracket-intro", &[("rounds", b.knockout_rounds.into()), ("players", b.seeds.len().into())])) }
        @if b.winner != 0 {
            p id="ko-winner" { strong { (t(s, "winner")) } " " (player(b.winner)) }
        }
        @for r in &b.rounds {
            h2 { (ta(s, "ko-round", &[("round", r.round.into()), ("rounds", b.knockout_rounds.into()), ("first", r.first_event_round.into())])) }
            div.scroll { table.bracket {
                thead { tr { th.num { (t(s, "match")) } th { (t(s, "higher-seed")) } th { (t(s, "lower-seed")) } th { (t(s, "games")) } th { (t(s, "goes-through")) } } }
                tbody { @for m in &r.matches {
                    tr data-match=(m.index) {
                        td.num { (m.index) }
                        td.name { "(" (m.high_seed) ") " (player(m.high)) }
                        td.name { @if m.low == 0 { (t(s, "bye")) } @else { "(" (m.low_seed) ") " (player(m.low)) } }
                        td { @for (i, g) in m.games.iter().enumerate() {
                            @if i > 0 { br; }
                            (ta(s, "ko-game", &[("number", g.number.into()), ("kind", g.kind.as_str().into()), ("round", g.round.into()), ("board", g.board.into()), ("white", g.white.into()), ("black", g.black.into())]))
                            " " @if g.result.is_empty() { "…" } @else { (g.result) }
                        } }
                        td { @if m.winner != 0 { (player(m.winner)) " (" (m.decided_by) ")" } }
                    }
                } }
            } }
        }
        @if !b.places.is_empty() {
            h2 { (t(s, "places")) }
            ul.places { @for p in &b.places {
                li { @if p.from == p.to { (p.from) } @else { (p.from) "–" (p.to) } ". " (player(p.player)) }
            } }
        }
    }
}
