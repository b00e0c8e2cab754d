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
pub(super) fn creation(v: &NewValues) -> Result<reg::TournamentSettings, String> {
    let (system, rule_set) = match v.system.as_str() {
        "dutch-2025" | "dutch-2017" => (pb::PairingSystem::Dutch, v.system.clone()),
        // FIDE's team Swiss (C.04.6): a team event, so the boards per match must be given.
        "fide-team-a" | "fide-team-b" | "fide-team-none" => {
            (pb::PairingSystem::Dutch, v.system.clone())
        }
        "burstein" => (pb::PairingSystem::Burstein, String::new()),
        "burstein-bbp" => (pb::PairingSystem::Burstein, v.system.clone()),
        "dubov" => (pb::PairingSystem::Dubov, String::new()),
        "lim" => (pb::PairingSystem::Lim, String::new()),
        "round-robin" => (pb::PairingSystem::RoundRobin, String::new()),
        "double-round-robin" => (pb::PairingSystem::DoubleRoundRobin, String::new()),
        "knockout" => (pb::PairingSystem::Knockout, String::new()),
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
    let conduct = conduct_of(v)?;
    let knockout = (system == pb::PairingSystem::Knockout)
        .then(|| knockout_of(v))
        .transpose()?;
    let team_rules = team_rules_of(v)?;
    Ok(reg::TournamentSettings {
        knockout,
        team_rules,
        conduct,
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
    let mut v = NewValues::from_form(&f);
    v.id = v.id.trim().to_string();
    v.deputies.clear();
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

/// The conduct the creation form asks for, read as the command line reads it; `None` over
/// the board with nothing else given. What the rules require of it (periods online, the
/// increment of a hybrid event with traditional boards, the regulations when consent is
/// asked) the service checks and names.
fn conduct_of(v: &NewValues) -> Result<Option<pb::Conduct>, String> {
    use arbiter_proto::text;
    let c = text::conduct(&text::ConductText {
        format: &v.format,
        periods: &v.periods,
        traditional_boards: v.traditional_boards.is_some(),
        require_consent: v.require_consent.is_some(),
        regulations: &v.regulations,
        reconnection_window: &v.reconnection_window,
        vcs_red_card_after: &v.vcs_red_card_after,
        appeal_deadline: &v.appeal_deadline,
        supervision: &v.supervision,
        platform: &v.platform,
        platform_url: &v.platform_url,
        platform_features: &v.platform_features,
        illegal_move_policy: &v.illegal_move_policy,
    })?;
    // Over the board with nothing else asked: no conduct at all, as before online rules.
    let plain_otb = pb::Conduct {
        format: pb::EventFormat::Otb as i32,
        ..Default::default()
    };
    Ok((c != plain_otb).then_some(c))
}

/// A team event's regulations from the team fieldset, read as the command line reads them;
/// `None` (an individual event) when no number of boards is given.
fn team_rules_of(v: &NewValues) -> Result<Option<pb::TeamRules>, String> {
    use arbiter_proto::text;
    if v.team_boards.trim().is_empty() {
        return Ok(None);
    }
    let number = |label: &str, x: &str| -> Result<u32, String> {
        match x.trim() {
            "" => Ok(0),
            x => x
                .parse()
                .map_err(|_| format!("{label}: {x:?} is not a number")),
        }
    };
    let boards = number("boards per match", &v.team_boards)?;
    let (match_win, match_draw, match_loss) =
        text::match_points(&v.team_match_points).map_err(|e| format!("match points: {e}"))?;
    let pab = match v.team_bye.trim() {
        "" => None,
        b => Some(text::team_bye(b).map_err(|e| format!("team bye: {e}"))?),
    };
    let ranking = match v.team_ranking.trim() {
        "" => pb::TeamRanking::MatchPoints,
        r => text::team_ranking(r).map_err(|e| format!("team ranking: {e}"))?,
    };
    Ok(Some(pb::TeamRules {
        boards,
        reserves: number("reserves", &v.team_reserves)?,
        match_win,
        match_draw,
        match_loss,
        ranking: ranking as i32,
        pab,
        colours: match v.team_colours.trim() {
            "" => text::alternating_colours(boards),
            c => c.to_ascii_uppercase(),
        },
    }))
}

/// A knockout's regulations from the knockout fieldset, read as the command line reads them.
/// A choice left empty stays unspecified, for the service to refuse by name.
fn knockout_of(v: &NewValues) -> Result<pb::KnockoutRules, String> {
    use arbiter_proto::text;
    fn pick<T: Default>(
        label: &str,
        x: &str,
        read: fn(&str) -> Result<T, String>,
    ) -> Result<T, String> {
        match x.trim() {
            "" => Ok(T::default()),
            x => read(x).map_err(|e| format!("{label}: {e}")),
        }
    }
    let classical_games = match v.ko_classical_games.trim() {
        "" => 0,
        g => g
            .parse()
            .map_err(|_| format!("classical games: {g:?} is not a number"))?,
    };
    Ok(pb::KnockoutRules {
        seeding: pick("seeding", &v.ko_seeding, text::knockout_seeding)? as i32,
        classical_games,
        tie_breaks: pick("tie-break stages", &v.ko_tie_breaks, text::knockout_stages)?,
        first_colour: pick(
            "white in game 1",
            &v.ko_first_colour,
            text::knockout_first_colour,
        )? as i32,
        tie_break_colours: pick(
            "tie-break colours",
            &v.ko_tie_break_colours,
            text::knockout_tie_break_colours,
        )? as i32,
        armageddon_colour: pick(
            "white in the Armageddon game",
            &v.ko_armageddon_colour,
            text::knockout_armageddon_colour,
        )? as i32,
        armageddon_time_control: v.ko_armageddon_time_control.trim().to_string(),
        lot_seed: v.ko_lot_seed.trim().to_string(),
    })
}

/// The tournament's settings as its log has them: the creation, then every update in order.
pub(super) async fn current_settings(
    cl: &mut Clients,
    id: &str,
) -> Result<NewValues, tonic::Status> {
    let mut v = NewValues::default();
    for kind in log_kinds(cl, id).await? {
        match kind {
            pb::event::Kind::TournamentCreated(t) => created_into(&mut v, t),
            pb::event::Kind::TournamentUpdated(u) => updated_into(&mut v, u),
            _ => {}
        }
    }
    Ok(v)
}

fn date_text(d: Option<pb::Date>) -> String {
    d.map(|d| format!("{:04}-{:02}-{:02}", d.year, d.month, d.day))
        .unwrap_or_default()
}

fn kind_text(k: i32) -> String {
    match pb::RatingKind::try_from(k).unwrap_or(pb::RatingKind::Unspecified) {
        pb::RatingKind::Rapid => "rapid",
        pb::RatingKind::Blitz => "blitz",
        _ => "standard",
    }
    .to_string()
}

fn created_into(v: &mut NewValues, t: pb::TournamentCreated) {
    v.name = t.name;
    v.place = t.place;
    v.federation = t.federation;
    v.start = date_text(t.start_date);
    v.end = date_text(t.end_date);
    v.chief = t.chief_arbiter.map(|a| a.name).unwrap_or_default();
    v.rounds = t.rounds.to_string();
    v.time_control = t.time_control;
    v.rating_kind = kind_text(t.rating_kind);
    v.tie_breaks = t.tie_breaks.join(", ");
    v.deputies = deputies_text(&t.deputy_arbiters);
    v.conduct = t.conduct;
}

fn updated_into(v: &mut NewValues, u: pb::TournamentUpdated) {
    if let Some(x) = u.name {
        v.name = x;
    }
    if let Some(x) = u.place {
        v.place = x;
    }
    if let Some(x) = u.federation {
        v.federation = x;
    }
    if u.start_date.is_some() {
        v.start = date_text(u.start_date);
    }
    if u.end_date.is_some() {
        v.end = date_text(u.end_date);
    }
    if let Some(a) = u.chief_arbiter {
        v.chief = a.name;
    }
    if let Some(r) = u.rounds {
        v.rounds = r.to_string();
    }
    if u.replace_tie_breaks || !u.tie_breaks.is_empty() {
        v.tie_breaks = u.tie_breaks.join(", ");
    }
    if let Some(x) = u.time_control {
        v.time_control = x;
    }
    if u.replace_deputy_arbiters || !u.deputy_arbiters.is_empty() {
        v.deputies = deputies_text(&u.deputy_arbiters);
    }
    if u.rating_kind != pb::RatingKind::Unspecified as i32 {
        v.rating_kind = kind_text(u.rating_kind);
    }
}

/// Arbiters one a line: "Name", or "Name; FIDE id; title" when either is known.
fn deputies_text(a: &[pb::Arbiter]) -> String {
    a.iter()
        .map(|a| match (a.fide_id, a.title.as_str()) {
            (None, "") => a.name.clone(),
            (id, title) => format!(
                "{}; {}; {title}",
                a.name,
                id.map(|i| i.to_string()).unwrap_or_default()
            ),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The arbiters of [`deputies_text`]'s lines; an error names the line.
pub(super) fn deputies_of(text: &str) -> Result<Vec<pb::Arbiter>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let mut parts = line.split(';').map(str::trim);
        let name = parts.next().unwrap_or_default().to_string();
        let fide_id = match parts.next().unwrap_or_default() {
            "" => None,
            id => Some(id.parse::<u64>().map_err(|_| {
                format!("deputy arbiters, line {}: {id:?} is not a FIDE id", i + 1)
            })?),
        };
        let title = parts.next().unwrap_or_default().to_string();
        if name.is_empty() {
            return Err(format!("deputy arbiters, line {}: no name", i + 1));
        }
        out.push(pb::Arbiter {
            name,
            fide_id,
            title,
        });
    }
    Ok(out)
}

/// The update that takes the settings from `now` to `wanted`: only what changed (a field left
/// as it was is not in the event); `None` when nothing did.
pub(super) fn update_of(
    now: &NewValues,
    wanted: &NewValues,
) -> Result<Option<reg::TournamentChanges>, String> {
    let changed = |a: &str, b: &str| a.trim() != b.trim();
    let mut u = reg::TournamentChanges::default();
    let mut any = false;
    if changed(&now.name, &wanted.name) {
        if wanted.name.trim().is_empty() {
            return Err("name: a tournament needs a name".into());
        }
        u.name = Some(wanted.name.trim().to_string());
        any = true;
    }
    if changed(&now.place, &wanted.place) {
        u.place = Some(wanted.place.trim().to_string());
        any = true;
    }
    if !now
        .federation
        .trim()
        .eq_ignore_ascii_case(wanted.federation.trim())
    {
        u.federation = Some(wanted.federation.trim().to_ascii_uppercase());
        any = true;
    }
    if changed(&now.start, &wanted.start) {
        let start = parse_date("start date", &wanted.start)?;
        u.start_date = Some(start.ok_or("start date: give the first round's date")?);
        any = true;
    }
    if changed(&now.end, &wanted.end) {
        u.end_date = parse_date("end date", &wanted.end)?;
        any = u.end_date.is_some() || any;
    }
    if changed(&now.chief, &wanted.chief) {
        u.chief_arbiter = Some(pb::Arbiter {
            name: wanted.chief.trim().to_string(),
            fide_id: None,
            title: String::new(),
        });
        any = true;
    }
    if changed(&now.rounds, &wanted.rounds) {
        let r: u32 = wanted
            .rounds
            .trim()
            .parse()
            .map_err(|_| format!("rounds: {:?} is not a number", wanted.rounds))?;
        u.rounds = Some(r);
        any = true;
    }
    if changed(&now.time_control, &wanted.time_control) {
        u.time_control = Some(wanted.time_control.trim().to_string());
        any = true;
    }
    if now.rating_kind != wanted.rating_kind {
        u.rating_kind = match wanted.rating_kind.as_str() {
            "rapid" => pb::RatingKind::Rapid,
            "blitz" => pb::RatingKind::Blitz,
            _ => pb::RatingKind::Standard,
        } as i32;
        any = true;
    }
    let codes = |t: &str| -> Vec<String> {
        t.split(',')
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(String::from)
            .collect()
    };
    if deputies_of(&now.deputies)? != deputies_of(&wanted.deputies)? {
        u.deputy_arbiters = deputies_of(&wanted.deputies)?;
        u.replace_deputy_arbiters = true;
        any = true;
    }
    if codes(&now.tie_breaks) != codes(&wanted.tie_breaks) {
        u.tie_breaks = codes(&wanted.tie_breaks);
        u.replace_tie_breaks = true;
        any = true;
    }
    Ok(any.then_some(u))
}

pub(super) async fn settings_page(Screen { s, mut cl, id }: Screen) -> Response {
    match current_settings(&mut cl, &id).await {
        Ok(v) => html(StatusCode::OK, views::settings(&s, &id, &v, None)),
        Err(e) => not_found(&s, &e),
    }
}

pub(super) async fn save_settings(Posted { s, mut cl, id, f }: Posted) -> Response {
    let now = match current_settings(&mut cl, &id).await {
        Ok(v) => v,
        Err(e) => return not_found(&s, &e),
    };
    let field = |k: &str| f.get(k).cloned().unwrap_or_default();
    let wanted = NewValues {
        name: field("name"),
        rounds: field("rounds"),
        start: field("start"),
        end: field("end"),
        place: field("place"),
        federation: field("federation"),
        chief: field("chief"),
        time_control: field("time_control"),
        rating_kind: field("rating_kind"),
        tie_breaks: field("tie_breaks"),
        deputies: field("deputies"),
        ..NewValues::default()
    };
    let again = |code, flash: Flash| html(code, views::settings(&s, &id, &wanted, Some(&flash)));
    let update = match update_of(&now, &wanted) {
        Ok(Some(u)) => u,
        Ok(None) => return see_other(format!("/console/t/{id}")),
        Err(e) => return again(StatusCode::UNPROCESSABLE_ENTITY, Flash::Refused(e)),
    };
    let req = reg::UpdateTournamentRequest {
        header: header_for(&s, &id, &f, ""),
        update: Some(update),
    };
    match cl.reg.update_tournament(req).await {
        Ok(_) => see_other(format!("/console/t/{id}")),
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

    /// The creation and an update folded give the form; saving it unchanged sends nothing, and
    /// a change sends only what changed.
    #[test]
    fn settings_fold_from_the_log_and_an_update_carries_only_the_changes() {
        let mut v = NewValues::fresh();
        v.id = "open".into();
        v.name = "Open".into();
        v.start = "2026-12-05".into();
        v.tie_breaks = "BH:C1, SB".into();
        let mut now = NewValues::default();
        created_into(
            &mut now,
            arbiter_proto::recorded::as_event(&creation(&v).unwrap()),
        );
        updated_into(
            &mut now,
            pb::TournamentUpdated {
                place: Some("Bilbao".into()),
                ..Default::default()
            },
        );
        assert_eq!(now.place, "Bilbao");
        assert_eq!(now.end, "2026-12-05");
        assert_eq!(now.tie_breaks, "BH:C1, SB");
        assert_eq!(update_of(&now, &now), Ok(None));
        let mut wanted = now.clone();
        wanted.time_control = "90 min + 30 s".into();
        wanted.tie_breaks = "BH:C1,SB".into();
        wanted.federation = "esp".into();
        let u = update_of(&now, &wanted).unwrap().unwrap();
        assert_eq!(u.time_control.as_deref(), Some("90 min + 30 s"));
        assert_eq!(u.federation.as_deref(), Some("ESP"));
        assert!(u.name.is_none() && u.place.is_none() && u.rounds.is_none());
        assert!(!u.replace_tie_breaks && u.tie_breaks.is_empty());
        wanted.rounds = "seven".into();
        assert!(update_of(&now, &wanted).unwrap_err().contains("rounds"));
    }

    #[test]
    fn the_conduct_is_read_as_the_command_line_reads_it() {
        let mut v = NewValues::fresh();
        v.name = "Online".into();
        v.start = "2026-12-05".into();
        assert_eq!(
            creation(&v).unwrap().conduct,
            None,
            "over the board by default"
        );
        v.format = "hybrid".into();
        v.periods = "90m+30s".into();
        v.platform = "Lichess".into();
        v.regulations = "Hybrid Open 2026".into();
        v.traditional_boards = Some("on".into());
        let c = creation(&v).unwrap().conduct.unwrap();
        assert_eq!(c.format, pb::EventFormat::Hybrid as i32);
        assert_eq!(
            (c.periods[0].base_seconds, c.periods[0].increment_seconds),
            (5400, 30)
        );
        assert!(c.traditional_boards && !c.require_fair_play_consent);
        assert_eq!(c.platform.unwrap().name, "Lichess");
        v.periods = "ninety minutes".into();
        assert!(creation(&v).unwrap_err().starts_with("periods: "));
        v.format = "by-post".into();
        assert!(creation(&v).unwrap_err().starts_with("format: "));
    }

    #[test]
    fn deputy_arbiters_are_a_line_each_and_replace_the_list() {
        let mut now = NewValues::default();
        updated_into(
            &mut now,
            pb::TournamentUpdated {
                deputy_arbiters: vec![pb::Arbiter {
                    name: "Deputy, One".into(),
                    fide_id: Some(12345),
                    title: "FA".into(),
                }],
                replace_deputy_arbiters: true,
                ..Default::default()
            },
        );
        assert_eq!(now.deputies, "Deputy, One; 12345; FA");
        assert_eq!(update_of(&now, &now), Ok(None));
        let mut wanted = now.clone();
        wanted.deputies = "Deputy, One; 12345; FA\n\nDeputy, Two\n".into();
        let u = update_of(&now, &wanted).unwrap().unwrap();
        assert!(u.replace_deputy_arbiters);
        let names: Vec<&str> = u.deputy_arbiters.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["Deputy, One", "Deputy, Two"]);
        assert_eq!(u.deputy_arbiters[1].fide_id, None);
        wanted.deputies = "Deputy, Three; F123".into();
        let e = update_of(&now, &wanted).unwrap_err();
        assert!(e.contains("line 1") && e.contains("F123"), "{e}");
        // All removed: an empty list that replaces.
        wanted.deputies = String::new();
        let u = update_of(&now, &wanted).unwrap().unwrap();
        assert!(u.replace_deputy_arbiters && u.deputy_arbiters.is_empty());
    }
}
