//! A round robin's schedule (its Berger table for the registered field, the drawing of lots,
//! the games between compatriots) and a knockout's bracket, as the round director derives
//! them; the drawing of lots is recorded here.

use super::*;

pub(super) async fn render_schedule(
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
    // A Swiss has no schedule: the service says so, and the screen shows its words.
    let schedule = cl
        .rd
        .get_schedule(rd::GetTournamentRequest {
            tournament: tref(id),
        })
        .await
        .map(|r| r.into_inner())
        .map_err(|e| e.message().to_string());
    let v = views::ScheduleView {
        state: &st,
        names: &names,
        schedule,
        typed,
    };
    html(code, views::schedule(s, &v, flash.as_ref()))
}

pub(super) async fn schedule(Screen { s, mut cl, id }: Screen) -> Response {
    render_schedule(&s, &mut cl, &id, None, StatusCode::OK, &HashMap::new()).await
}

/// The drawing of lots (C.05 §6.2): by the service from a published seed, or the numbers
/// drawn in the hall, one per player in pairing-number order.
pub(super) async fn draw_lots(Posted { s, mut cl, id, f }: Posted) -> Response {
    let get = |k: &str| f.get(k).map(|v| v.trim().to_string()).unwrap_or_default();
    let numbers = typed_numbers(&get("numbers")).map_err(|w| {
        s.lang
            .ta("lots-not-a-number", &[("word", w.to_string().into())])
    });
    let numbers = match numbers {
        Ok(n) => n,
        Err(e) => {
            let code = StatusCode::UNPROCESSABLE_ENTITY;
            return render_schedule(&s, &mut cl, &id, Some(Flash::Refused(e)), code, &f).await;
        }
    };
    let req = reg::DrawLotsRequest {
        header: header_for(&s, &id, &f, ""),
        varma: f.contains_key("varma"),
        seed: get("seed"),
        numbers,
    };
    match cl.reg.draw_lots(req).await {
        Ok(_) => see_other(format!("/console/t/{id}/schedule")),
        Err(e) => {
            let (code, flash) = refused(&e);
            render_schedule(&s, &mut cl, &id, Some(flash), code, &f).await
        }
    }
}
