//! The print screen and its layouts (pairings, score sheets, wall chart).

use super::*;

pub(super) async fn print_index(Screen { s, mut cl, id }: Screen) -> Response {
    match state(&mut cl, &id).await {
        Ok(st) => html(
            StatusCode::OK,
            views::print_index(&s, &id, &st.name, st.current_round.max(1)),
        ),
        Err(e) => not_found(&s, &e),
    }
}

pub(super) async fn print_layout(
    Screen { s, mut cl, id }: Screen,
    Path((_, what)): Path<(String, String)>,
) -> Response {
    if !views::LAYOUTS.contains(&what.as_str()) {
        let e = tonic::Status::not_found(format!("no print layout {what:?}"));
        return not_found(&s, &e);
    }
    let st = match state(&mut cl, &id).await {
        Ok(st) => st,
        Err(e) => return not_found(&s, &e),
    };
    let players = match cl
        .reg
        .list_players(reg::ListPlayersRequest {
            tournament: tref(&id),
        })
        .await
    {
        Ok(l) => l
            .into_inner()
            .players
            .into_iter()
            .filter_map(|r| Some((r.pairing_number, r.player?)))
            .collect(),
        Err(e) => return not_found(&s, &e),
    };
    let pairings = if what != "wall-chart" && st.current_round > 0 {
        cl.rep
            .get_pairings(rep::GetPairingsRequest {
                tournament: tref(&id),
                round: st.current_round,
            })
            .await
            .ok()
            .map(|p| p.into_inner())
    } else {
        None
    };
    let crosstable = if what == "wall-chart" {
        cl.rep
            .get_crosstable(rep::GetCrosstableRequest {
                tournament: tref(&id),
            })
            .await
            .ok()
            .map(|x| x.into_inner())
    } else {
        None
    };
    let place = match super::tournaments::current_settings(&mut cl, &id).await {
        Ok(v) => v.place,
        Err(e) => return not_found(&s, &e),
    };
    let v = views::PrintView {
        id: &id,
        name: &st.name,
        place: &place,
        round: st.current_round,
        pairings: pairings.as_ref(),
        players: &players,
        crosstable: crosstable.as_ref(),
        rounds: st.rounds,
    };
    html(StatusCode::OK, views::print_layout(&s, &what, &v))
}
