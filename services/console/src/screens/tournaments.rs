//! The tournaments list and the creation form.

use super::*;

pub(super) fn console_role(s: &Session) -> Result<(), Response> {
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

pub(super) async fn index(State(c): App, headers: HeaderMap) -> Response {
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

pub(super) fn today() -> String {
    let days = crate::session::unix_now() as i64 / 86_400;
    let (y, m, d) = views::civil(days);
    format!("{y:04}-{m:02}-{d:02}")
}

pub(super) async fn new_page(State(c): App, headers: HeaderMap) -> Response {
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

pub(super) fn parse_date(field: &str, v: &str) -> Result<Option<pb::Date>, String> {
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
pub(super) fn creation(v: &NewValues) -> Result<pb::TournamentCreated, String> {
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

pub(super) async fn create(State(c): App, headers: HeaderMap, Form(f): Fields) -> Response {
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

#[cfg(test)]
mod tests {
    use super::*;

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
