//! A tournament's overview and its players: the rating-list search, one by one, a pasted
//! list, a cancelled registration.

use super::*;

pub(super) async fn overview(
    State(c): App,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let (s, mut cl) = match arbiter_screen(&c, &headers, &id) {
        Ok(x) => x,
        Err(r) => return r,
    };
    match state(&mut cl, &id).await {
        Ok(st) => html(StatusCode::OK, views::overview(&s, &st, None)),
        Err(e) => not_found(&s, &e),
    }
}

pub(super) async fn render_players(
    s: &Session,
    cl: &mut Clients,
    id: &str,
    flash: Option<Flash>,
    code: StatusCode,
    paste: &str,
) -> Response {
    render_players_found(s, cl, id, flash, code, paste, None).await
}

pub(super) async fn render_players_found(
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
                st.current_round + 1,
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
pub(super) struct FindQuery {
    #[serde(default)]
    find: String,
}

pub(super) async fn players(
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

pub(super) fn player(
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

pub(super) async fn add_player(
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

pub(super) async fn paste_players(
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

pub(super) async fn cancel(
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

/// A requested bye (half, full or zero point) for a round, or a withdrawal from a round on.
pub(super) async fn change(
    State(c): App,
    headers: HeaderMap,
    Path(id): Path<String>,
    Form(f): Fields,
) -> Response {
    let (s, mut cl) = match arbiter_post(&c, &headers, &id, &f) {
        Ok(x) => x,
        Err(r) => return r,
    };
    let get = |k: &str| f.get(k).map(|v| v.trim().to_string()).unwrap_or_default();
    let (Ok(entry), Ok(round)) = (get("entry").parse::<u32>(), get("round").parse::<u32>()) else {
        let flash = Flash::Refused(s.lang.t("change-needs-player-and-round"));
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
    let header = header_for(&s, &id, &f, "");
    let kind = |k: pb::ByeKind| k as i32;
    let done = match get("what").as_str() {
        "withdraw" => cl
            .reg
            .withdraw_player(reg::WithdrawPlayerRequest {
                header,
                player_id: 0,
                from_round: round,
                reason: get("reason"),
                entry,
                numbering_version: None,
            })
            .await
            .map(drop),
        what => {
            let k = match what {
                "full" => pb::ByeKind::FullPoint,
                "zero" => pb::ByeKind::ZeroPoint,
                _ => pb::ByeKind::HalfPoint,
            };
            cl.reg
                .request_bye(reg::RequestByeRequest {
                    header,
                    player_id: 0,
                    round,
                    kind: kind(k),
                    entry,
                    numbering_version: None,
                })
                .await
                .map(drop)
        }
    };
    match done {
        Ok(()) => see_other(format!("/console/t/{id}/players")),
        Err(e) => {
            let (code, flash) = refused(&e);
            render_players(&s, &mut cl, &id, Some(flash), code, "").await
        }
    }
}
