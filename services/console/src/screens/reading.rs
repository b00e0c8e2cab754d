//! The standings, the event log with Replay now, and the TRF download.

use super::*;

/// What the standings and prize screens both show: the tournament's name and its standings as
/// the reporting service computes them.
pub(super) async fn standings_of(
    s: &Session,
    cl: &mut Clients,
    id: &str,
) -> Result<(String, rep::Standings), Response> {
    let st = state(cl, id).await.map_err(|e| not_found(s, &e))?;
    match cl
        .rep
        .get_standings(rep::GetStandingsRequest {
            tournament: tref(id),
            after_round: 0,
        })
        .await
    {
        Ok(t) => Ok((st.name, t.into_inner())),
        Err(e) => Err(not_found(s, &e)),
    }
}

pub(super) async fn standings(Screen { s, mut cl, id }: Screen) -> Response {
    match standings_of(&s, &mut cl, &id).await {
        Ok((name, t)) => html(StatusCode::OK, views::standings(&s, &id, &name, &t, None)),
        Err(r) => r,
    }
}

/// The rating changes so far and the norm preview, from the rating worker.
pub(super) async fn ratings(Screen { s, mut cl, id }: Screen) -> Response {
    let (st, names) = match state_and_names(&s, &mut cl, &id).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let ratings = cl
        .rw
        .get_event_ratings(arbiter_proto::rating_worker::v1::GetEventRatingsRequest {
            tournament: tref(&id),
        })
        .await
        .map(|r| r.into_inner())
        .map_err(|e| e.message().to_string());
    let norms = cl
        .rw
        .get_norms(arbiter_proto::rating_worker::v1::GetNormsRequest {
            tournament: tref(&id),
            pairing_number: 0,
        })
        .await
        .map(|r| r.into_inner())
        .map_err(|e| e.message().to_string());
    let v = views::RatingsView {
        id: &id,
        name: &st.name,
        names: &names,
        ratings,
        norms,
    };
    html(StatusCode::OK, views::ratings(&s, &v))
}

pub(super) async fn audit(Screen { s, mut cl, id }: Screen) -> Response {
    render_audit(&s, &mut cl, &id, None).await
}

/// Runs the audit `arbiter replay` runs, on the stream as the server gives it whole: the hash
/// chain, every published pairing re-run, the signed heads checked.
pub(super) async fn replay(Posted { s, mut cl, id, .. }: Posted) -> Response {
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
pub(super) async fn raw_events(
    cl: &mut Clients,
    id: &str,
) -> Result<Vec<arbiter_eventlog::StoredEvent>, String> {
    let mut stream = cl
        .rep
        .stream_events(rep::StreamEventsRequest {
            tournament: Some(arbiter_proto::common::v1::TournamentRef {
                tournament_id: id.to_string(),
                as_of_version: 0,
            }),
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
                env.version
            ));
        }
        events.push(arbiter_eventlog::envelope_to_stored(&env)?);
    }
    Ok(events)
}

/// The audit's report and the signed heads' verdict; `Ok` when everything holds.
pub(super) fn replay_report(
    stream: &str,
    events: &[arbiter_eventlog::StoredEvent],
) -> (bool, String) {
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

pub(super) async fn render_audit(
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
            tournament: Some(arbiter_proto::common::v1::TournamentRef {
                tournament_id: id.clone(),
                as_of_version: 0,
            }),
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
pub(super) struct ExportQuery {
    #[serde(default)]
    format: String,
}

pub(super) async fn export(
    Screen { s, mut cl, id }: Screen,
    Query(q): Query<ExportQuery>,
) -> Response {
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
