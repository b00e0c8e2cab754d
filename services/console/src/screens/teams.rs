//! A team event's teams: their lists in board order (before round 1) and each round's
//! line-ups (until the round's boards are published; a team without one plays its list's
//! first available players).

use super::*;
use views::{TeamEntry, TeamsView};

/// The teams, their line-ups and the event's team regulations, folded from the log.
pub(super) async fn team_log(
    cl: &mut Clients,
    id: &str,
) -> Result<(Option<pb::TeamRules>, Vec<TeamEntry>), tonic::Status> {
    let mut rules = None;
    let mut teams: Vec<TeamEntry> = Vec::new();
    for kind in log_kinds(cl, id).await? {
        match kind {
            pb::event::Kind::TournamentCreated(t) => rules = t.team_rules,
            pb::event::Kind::TeamRecorded(t) => teams.push(TeamEntry {
                number: if t.number == 0 {
                    teams.len() as u32 + 1
                } else {
                    t.number
                },
                name: t.name,
                members: t.members,
                lineups: Default::default(),
            }),
            pb::event::Kind::LineupSubmitted(l) => {
                if let Some(t) = teams.iter_mut().find(|t| t.number == l.team) {
                    t.lineups.insert(l.round, l.players);
                }
            }
            _ => {}
        }
    }
    Ok((rules, teams))
}

pub(super) async fn render_teams(
    s: &Session,
    cl: &mut Clients,
    id: &str,
    flash: Option<Flash>,
    code: StatusCode,
    typed: &HashMap<String, String>,
) -> Response {
    let (st, names) = match state_and_names(s, cl, id).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let (rules, teams) = match team_log(cl, id).await {
        Ok(x) => x,
        Err(e) => return not_found(s, &e),
    };
    // Line-ups are given for the round being paired, before its boards are published.
    let phase = rd::Phase::try_from(st.phase).unwrap_or(rd::Phase::Unspecified);
    let lineup_round = matches!(
        phase,
        rd::Phase::AwaitingPairing | rd::Phase::PairingProposed
    )
    .then_some(st.current_round);
    let v = TeamsView {
        state: &st,
        rules: rules.as_ref(),
        teams: &teams,
        names: &names,
        lineup_round,
        typed,
    };
    html(code, views::teams(s, &v, flash.as_ref()))
}

pub(super) async fn teams(Screen { s, mut cl, id }: Screen) -> Response {
    render_teams(&s, &mut cl, &id, None, StatusCode::OK, &HashMap::new()).await
}

/// Pairing numbers as typed (from 1); an error names the field and the word that is not one.
fn numbers(field: &str, text: &str) -> Result<Vec<u32>, String> {
    let bad = |w: &str| format!("{field}: {w:?} is not a pairing number");
    let n = typed_numbers(text).map_err(bad)?;
    match n.iter().find(|&&n| n == 0) {
        Some(_) => Err(bad("0")),
        None => Ok(n),
    }
}

pub(super) async fn record_team(Posted { s, mut cl, id, f }: Posted) -> Response {
    let get = |k: &str| f.get(k).map(|v| v.trim().to_string()).unwrap_or_default();
    let members = numbers(&s.lang.t("team-members"), &get("members")).and_then(|m| {
        if m.is_empty() {
            Err(s.lang.t("team-members-none"))
        } else {
            Ok(m)
        }
    });
    let members = match members {
        Ok(m) => m,
        Err(e) => {
            let code = StatusCode::UNPROCESSABLE_ENTITY;
            return render_teams(&s, &mut cl, &id, Some(Flash::Refused(e)), code, &f).await;
        }
    };
    let req = reg::RecordTeamRequest {
        header: header_for(&s, &id, &f, ""),
        team: Some(reg::TeamList {
            name: get("name"),
            members,
            ..Default::default()
        }),
        numbering_version: f.get("numbering").and_then(|v| v.parse().ok()),
    };
    match cl.reg.record_team(req).await {
        Ok(_) => see_other(format!("/console/t/{id}/teams")),
        Err(e) => {
            let (code, flash) = refused(&e);
            render_teams(&s, &mut cl, &id, Some(flash), code, &f).await
        }
    }
}

pub(super) async fn lineup(Posted { s, mut cl, id, f }: Posted) -> Response {
    let get = |k: &str| f.get(k).map(|v| v.trim().to_string()).unwrap_or_default();
    let code = StatusCode::UNPROCESSABLE_ENTITY;
    let (Ok(round), Ok(team)) = (get("round").parse::<u32>(), get("team").parse::<u32>()) else {
        let why = Flash::Refused(s.lang.t("lineup-which"));
        return render_teams(&s, &mut cl, &id, Some(why), code, &f).await;
    };
    let players = match numbers(&s.lang.t("lineup"), &get(&format!("players-{team}"))) {
        Ok(p) => p,
        Err(e) => return render_teams(&s, &mut cl, &id, Some(Flash::Refused(e)), code, &f).await,
    };
    let req = rd::SubmitLineupRequest {
        header: header_for(&s, &id, &f, &format!("-{round}-{team}")),
        round,
        team,
        players,
        numbering_version: f.get("numbering").and_then(|v| v.parse().ok()),
    };
    match cl.rd.submit_lineup(req).await {
        Ok(_) => see_other(format!("/console/t/{id}/teams#team-{team}")),
        Err(e) => {
            let (code, flash) = refused(&e);
            render_teams(&s, &mut cl, &id, Some(flash), code, &f).await
        }
    }
}

#[cfg(test)]
mod tests {
    use super::numbers;

    #[test]
    fn pairing_numbers_as_typed() {
        assert_eq!(numbers("members", "3, 7 12\n4"), Ok(vec![3, 7, 12, 4]));
        assert_eq!(numbers("members", "  "), Ok(vec![]));
        let e = numbers("members", "3 seven").unwrap_err();
        assert!(e.starts_with("members: ") && e.contains("seven"), "{e}");
        assert!(numbers("members", "0").is_err());
    }
}
