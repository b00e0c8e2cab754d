//! A tournament's overview and its players: the rating-list search, one by one, a pasted
//! list, a cancelled registration.

use super::*;

pub(super) async fn overview(Screen { s, mut cl, id }: Screen) -> Response {
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

/// The players screen again with a refusal of what the form sent.
async fn refuse(s: &Session, cl: &mut Clients, id: &str, text: String) -> Response {
    let code = StatusCode::UNPROCESSABLE_ENTITY;
    render_players(s, cl, id, Some(Flash::Refused(text)), code, "").await
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
    let consent = match super::tournaments::current_settings(cl, id).await {
        Ok(v) => consent_asked(v.conduct.as_ref()),
        Err(e) => return not_found(s, &e),
    };
    match cl
        .reg
        .list_players(reg::ListPlayersRequest {
            tournament: tref(id),
        })
        .await
    {
        Ok(l) => {
            let list = l.into_inner();
            let v = views::PlayersView {
                id,
                name: &st.name,
                next_round: st.current_round + 1,
                started: st.current_round > 0,
                list: &list,
                paste,
                found: found.as_ref(),
                consent,
            };
            html(code, views::players(s, &v, flash.as_ref()))
        }
        Err(e) => not_found(s, &e),
    }
}

/// The fair-play consent an event's conduct asks of its players (E.04 Appendix I J), if any.
fn consent_asked(conduct: Option<&pb::Conduct>) -> Option<views::ConsentAsked> {
    let c = arbiter_proto::convert::conduct_from_wire(conduct).ok()?;
    c.consent_required().then(|| views::ConsentAsked {
        regulations_version: c.regulations_version.clone(),
        items: c
            .required_items()
            .into_iter()
            .map(arbiter_proto::convert::consent_item_to_wire)
            .collect(),
    })
}

#[derive(serde::Deserialize)]
pub(super) struct FindQuery {
    #[serde(default)]
    find: String,
}

pub(super) async fn players(
    Screen { s, mut cl, id }: Screen,
    Query(q): Query<FindQuery>,
) -> Response {
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
) -> reg::PlayerDetails {
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
    reg::PlayerDetails {
        name: name.to_string(),
        fide_id,
        rating,
        federation: federation.to_string(),
        title: title as i32,
        ..Default::default()
    }
}

pub(super) async fn add_player(Posted { s, mut cl, id, f }: Posted) -> Response {
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
    let p = player(
        &entry.name,
        entry.rating,
        entry.fide_id,
        &entry.federation,
        &entry.title,
    );
    let header = header_for(&s, &id, &f, "");
    // Once play has begun the form carries the late entry's first round and the score of the
    // rounds he missed (C.04.2 late entries).
    let done = if f.contains_key("first_round") {
        let Ok(first_round) = get("first_round").parse::<u32>() else {
            let text = s
                .lang
                .ta("not-a-round", &[("round", get("first_round").into())]);
            return refuse(&s, &mut cl, &id, text).await;
        };
        let missed = match get("missed") {
            "half" => pb::ByeKind::HalfPoint,
            "full" => pb::ByeKind::FullPoint,
            _ => pb::ByeKind::ZeroPoint,
        };
        cl.reg
            .enter_late(reg::EnterLateRequest {
                header,
                player: Some(p),
                first_round,
                missed_rounds: missed as i32,
                confirm_same_name: false,
            })
            .await
            .map(drop)
    } else {
        cl.reg
            .register_player(reg::RegisterPlayerRequest {
                header,
                player: Some(p),
                confirm_same_name: false,
            })
            .await
            .map(drop)
    };
    match done {
        Ok(_) => see_other(format!("/console/t/{id}/players")),
        Err(e) => {
            let (code, flash) = refused(&e);
            render_players(&s, &mut cl, &id, Some(flash), code, "").await
        }
    }
}

pub(super) async fn paste_players(Posted { s, mut cl, id, f }: Posted) -> Response {
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

pub(super) async fn cancel(Posted { s, mut cl, id, f }: Posted) -> Response {
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
        pairing_number: 0,
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
pub(super) async fn change(Posted { s, mut cl, id, f }: Posted) -> Response {
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
                pairing_number: 0,
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
                    pairing_number: 0,
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

/// A player's fair-play consent (E.04 Appendix I J): the items the event's format needs,
/// ticked; who accepted (the player, or a guardian for a minor); his platform account.
pub(super) async fn consent(Posted { s, mut cl, id, f }: Posted) -> Response {
    let get = |k: &str| f.get(k).map(|v| v.trim().to_string()).unwrap_or_default();
    let Ok(entry) = get("entry").parse::<u32>() else {
        return refuse(&s, &mut cl, &id, s.lang.t("consent-which")).await;
    };
    let items = [
        pb::ConsentItem::AnalysisAndSanctions,
        pb::ConsentItem::RealName,
        pb::ConsentItem::RemoteSupervision,
        pb::ConsentItem::Recording,
        pb::ConsentItem::ComplaintsProcedure,
    ]
    .into_iter()
    .filter(|i| f.contains_key(&format!("item-{}", *i as i32)))
    .map(|i| i as i32)
    .collect();
    let req = reg::RecordFairPlayConsentRequest {
        header: header_for(&s, &id, &f, &format!("-{entry}")),
        pairing_number: 0,
        entry,
        numbering_version: None,
        consent: Some(reg::FairPlayConsent {
            regulations_version: get("regulations_version"),
            accepted_by: get("accepted_by"),
            by_guardian: f.contains_key("by_guardian"),
            items,
            platform_account: get("platform_account"),
        }),
    };
    match cl.reg.record_fair_play_consent(req).await {
        Ok(_) => see_other(format!("/console/t/{id}/players")),
        Err(e) => {
            let (code, flash) = refused(&e);
            render_players(&s, &mut cl, &id, Some(flash), code, "").await
        }
    }
}

/// The players of a TRF file (TRF16 or TRF-2026), read by the same reader and import mapping
/// as `arbiter import`, in the file's start order; an error names the line and field.
pub(crate) fn trf_players(text: &str, id: &str) -> Result<Vec<reg::PlayerDetails>, String> {
    use arbiter_core::tournament::Command;
    use arbiter_proto::convert::{date_to_wire, sex_to_wire, title_to_wire};
    let trf = arbiter_trf::parse_bytes(text.as_bytes()).map_err(|e| e.to_string())?;
    // Only the player records are taken; the rule set is named so that a file without a
    // type code is read all the same.
    let plan = arbiter_interchange::import::plan(
        &trf.file,
        id,
        Some(arbiter_pairing::RuleSet::Dutch2025),
    )?;
    Ok(plan
        .commands
        .iter()
        .filter_map(|(_, c)| match c {
            Command::RegisterPlayer(r) => Some(reg::PlayerDetails {
                name: r.name.clone(),
                fide_id: r.fide_id,
                national_id: r.national_id.clone(),
                rating: r.rating,
                national_rating: r.national_rating,
                k_factor: r.k_factor,
                title: title_to_wire(r.title) as i32,
                federation: r.federation.clone(),
                birth_date: r.birth_date.map(date_to_wire),
                sex: sex_to_wire(r.sex) as i32,
                club: r.club.clone(),
            }),
            _ => None,
        })
        .collect())
}

/// A TRF file's players registered one command each, as a pasted list is: only the player
/// records are used, the tournament's own settings stay as they are.
pub(super) async fn import_trf(Posted { s, mut cl, id, f }: Posted) -> Response {
    let text = f.get("trf").cloned().unwrap_or_default();
    let players = match trf_players(&text, &id) {
        Ok(p) if !p.is_empty() => p,
        Ok(_) => return refuse(&s, &mut cl, &id, s.lang.t("trf-no-players")).await,
        Err(e) => {
            let text = s.lang.ta("trf-not-read", &[("error", e.into())]);
            return refuse(&s, &mut cl, &id, text).await;
        }
    };
    let n = players.len();
    for (i, p) in players.into_iter().enumerate() {
        let name = p.name.clone();
        let req = reg::RegisterPlayerRequest {
            header: header_for(&s, &id, &f, &format!("-trf{}", i + 1)),
            player: Some(p),
            // The file is the record of who plays: two players of one name are two.
            confirm_same_name: true,
        };
        if let Err(err) = cl.reg.register_player(req).await {
            let (code, _) = refused(&err);
            let flash = Flash::Refused(s.lang.ta(
                "trf-stopped",
                &[
                    ("number", (i + 1).into()),
                    ("name", name.into()),
                    ("error", err.message().into()),
                ],
            ));
            return render_players(&s, &mut cl, &id, Some(flash), code, "").await;
        }
    }
    tracing::info!(tournament = %id, players = n, "console: TRF players registered");
    see_other(format!("/console/t/{id}/players"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_trf_files_players_in_its_start_order() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/golden/dutch-2025/t0036.trf"
        ))
        .unwrap();
        let players = trf_players(&text, "t0036").unwrap();
        let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("001")).collect();
        assert_eq!(players.len(), lines.len());
        // Each player's name and rating as its 001 line has them (columns 15-47, 49-52).
        for (p, line) in players.iter().zip(&lines) {
            assert_eq!(p.name, line[14..47].trim(), "{line}");
            assert_eq!(p.rating.to_string(), line[48..52].trim(), "{line}");
        }
        // A damaged file names where.
        let broken = text.replacen("001    1 ", "001    X ", 1);
        let e = trf_players(&broken, "t0036").unwrap_err();
        assert!(e.starts_with("line 2, columns 5-8"), "{e}");
    }
}
