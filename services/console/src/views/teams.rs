//! A team event's teams and line-ups (Arbiters' Manual ch. IX §7: a list in board order
//! before round 1; each round, `boards` players of the list in the list's order).

use super::*;
use std::collections::{BTreeMap, HashMap};

/// A team as its log has it.
pub struct TeamEntry {
    pub number: u32,
    pub name: String,
    /// Pairing numbers in board order (0 = an empty place, in an imported file).
    pub members: Vec<u32>,
    /// The line-ups given, by round.
    pub lineups: BTreeMap<u32, Vec<u32>>,
}

pub struct TeamsView<'a> {
    pub state: &'a rd::TournamentState,
    pub rules: Option<&'a pb::TeamRules>,
    pub teams: &'a [TeamEntry],
    pub names: &'a HashMap<u32, String>,
    /// The round whose line-ups can still be given (its boards not yet published).
    pub lineup_round: Option<u32>,
    /// What a refused form held, to show again.
    pub typed: &'a HashMap<String, String>,
}

fn numbers_text(n: &[u32]) -> String {
    n.iter().map(u32::to_string).collect::<Vec<_>>().join(" ")
}

pub fn teams(s: &Session, v: &TeamsView, flash: Option<&Flash>) -> Markup {
    let st = v.state;
    let id = st.tournament_id.as_str();
    let name = |pn: u32| v.names.get(&pn).cloned().unwrap_or_default();
    let typed = |k: &str| v.typed.get(k).cloned();
    let listed: std::collections::BTreeSet<u32> = v
        .teams
        .iter()
        .flat_map(|t| t.members.iter().copied())
        .collect();
    let mut unlisted: Vec<u32> = v
        .names
        .keys()
        .copied()
        .filter(|pn| !listed.contains(pn))
        .collect();
    unlisted.sort_unstable();
    page(
        s.lang,
        &format!("{} · {}", t(s, "teams"), st.name),
        Some(s),
        Some((id, &st.name)),
        flash,
        html! {
            h1 { (t(s, "teams")) }
            @match v.rules {
                Some(r) => p.hint id="team-rules" { (ta(s, "team-rules-line", &[
                    ("boards", r.boards.into()),
                    ("reserves", r.reserves.into()),
                    ("colours", r.colours.as_str().into()),
                    ("win", points(r.match_win).into()),
                    ("draw", points(r.match_draw).into()),
                    ("loss", points(r.match_loss).into()),
                ])) },
                None => p.hint { (t(s, "not-a-team-event")) },
            }
            @if v.teams.is_empty() {
                p { (t(s, "no-teams-yet")) }
            }
            @if !v.teams.is_empty() {
                div.scroll { table id="teams" {
                    thead { tr { th.num { (t(s, "no")) } th { (t(s, "team-name")) } th { (t(s, "team-members")) } } }
                    tbody { @for team in v.teams {
                        tr id={"team-" (team.number)} {
                            td.num { (team.number) }
                            td.name { (team.name) }
                            td { @for (i, &pn) in team.members.iter().enumerate() {
                                @if i > 0 { br; }
                                (i + 1) ". " @if pn == 0 { "—" } @else { (name(pn)) " (" (pn) ")" }
                            } }
                        }
                    } }
                } }
            }
            @if let Some(round) = v.lineup_round.filter(|_| !v.teams.is_empty()) {
                h2 { (ta(s, "lineups-for-round", &[("round", round.into())])) }
                p.hint { (t(s, "lineups-hint")) }
                @for team in v.teams {
                    @let given = team.lineups.get(&round);
                    @let default = team.members.iter().copied().take(v.rules.map_or(0, |r| r.boards) as usize).collect::<Vec<_>>();
                    form.row method="post" action={"/console/t/" (id) "/teams/lineup"} {
                        (csrf(s)) (cmd())
                        input type="hidden" name="round" value=(round);
                        input type="hidden" name="team" value=(team.number);
                        @let field_id = format!("players-{}", team.number);
                        (field(&format!("{}. {}", team.number, team.name), &field_id, html!{
                            input id=(field_id) name=(field_id) value=(typed(&field_id).unwrap_or_else(|| numbers_text(given.unwrap_or(&default)))) aria-describedby={(field_id) "-help"};
                        }, &(if given.is_some() { t(s, "lineup-given") } else { t(s, "lineup-default") })))
                        button type="submit" id={"lineup-" (team.number)} { (t(s, "give-lineup")) }
                    }
                }
            }
            @if st.current_round == 0 {
                h2 { (t(s, "record-a-team")) }
                @if !unlisted.is_empty() {
                    p id="unlisted" { (t(s, "players-on-no-list")) " "
                        @for (i, pn) in unlisted.iter().enumerate() {
                            @if i > 0 { ", " }
                            (pn) " " (name(*pn))
                        }
                    }
                }
                form.settings method="post" action={"/console/t/" (id) "/teams"} {
                    (csrf(s)) (cmd())
                    (field(&t(s, "team-name"), "team-name", html!{ input id="team-name" name="name" required value=(typed("name").unwrap_or_default()) aria-describedby="team-name-help"; }, &t(s, "team-name-help")))
                    (field(&t(s, "team-members"), "team-members", html!{ input id="team-members" name="members" required value=(typed("members").unwrap_or_default()) aria-describedby="team-members-help"; }, &t(s, "team-members-help")))
                    button type="submit" id="record-team" { (t(s, "record-team")) }
                }
            }
        },
    )
}
