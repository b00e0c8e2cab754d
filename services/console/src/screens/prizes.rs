//! The prize list: the fund announced with the tournament (or one being tried, held by the
//! screen's address), the standings from the reporting service, the players' sex and birth
//! year from registration and their result against expectation from the rating worker; and
//! the announcement of a fund, recorded in the log as the regulations' prize fund.

use super::*;
use crate::prize_list::{self, FormError, PlayerFacts, PrizeForm};
use arbiter_core::tournament::PrizeFund;
use arbiter_proto::convert::{prize_fund_from_wire, prize_fund_to_wire};

/// The prize fund last announced in the log, if any.
async fn announced(cl: &mut Clients, id: &str) -> Result<Option<PrizeFund>, tonic::Status> {
    let mut fund = None;
    for kind in log_kinds(cl, id).await? {
        if let pb::event::Kind::TournamentUpdated(u) = kind
            && let Some(f) = u.prize_fund
        {
            fund =
                Some(prize_fund_from_wire(&f).map_err(|e| tonic::Status::internal(e.to_string()))?);
        }
    }
    Ok(fund)
}

/// What categories may ask of each player: sex and birth year, and W - We in thousandths.
async fn facts(cl: &mut Clients, id: &str) -> Result<HashMap<u32, PlayerFacts>, tonic::Status> {
    let players = cl
        .reg
        .list_players(reg::ListPlayersRequest {
            tournament: tref(id),
        })
        .await?
        .into_inner();
    let mut facts: HashMap<u32, PlayerFacts> = players
        .players
        .into_iter()
        .filter_map(|r| Some((r.pairing_number, r.player?)))
        .map(|(pairing_number, p)| {
            let f = PlayerFacts {
                female: p.sex == pb::Sex::Female as i32,
                birth_year: p.birth_date.map(|d| d.year).filter(|&y| y != 0),
                gain_milli: None,
            };
            (pairing_number, f)
        })
        .collect();
    // Without rated games (or before the rating worker has caught up) nobody has a gain.
    if let Ok(r) = cl
        .rw
        .get_event_ratings(arbiter_proto::rating_worker::v1::GetEventRatingsRequest {
            tournament: tref(id),
        })
        .await
    {
        for c in r.into_inner().changes {
            if let Some(f) = facts.get_mut(&c.player_id) {
                f.gain_milli = Some(i64::from(c.score) * 100 - i64::from(c.expected_milli));
            }
        }
    }
    Ok(facts)
}

async fn render(
    s: &Session,
    cl: &mut Clients,
    id: &str,
    form: Option<PrizeForm>,
    flash: Option<(StatusCode, FormError)>,
) -> Response {
    let (name, t) = match super::reading::standings_of(s, cl, id).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let (fund, facts) = match (announced(cl, id).await, facts(cl, id).await) {
        (Ok(a), Ok(f)) => (a, f),
        (Err(e), _) | (_, Err(e)) => return not_found(s, &e),
    };
    let form = match form {
        Some(f) if !f.is_empty() => f,
        _ => fund.as_ref().map(PrizeForm::from_fund).unwrap_or_default(),
    };
    let (refusal, flash) = match flash {
        Some((code, e)) => (Some(code), Some(e)),
        None => (None, None),
    };
    let list = match flash {
        Some(e) => Some(Err(e)),
        None => form
            .fund()
            .map(|f| f.and_then(|f| prize_list::compute(&f, &t, &facts))),
    };
    let shown = form.fund().and_then(Result::ok);
    let v = views::PrizesView {
        id,
        name: &name,
        standings: &t,
        form: &form,
        list: list.as_ref(),
        announced: fund.as_ref(),
        is_announced: fund.is_some() && shown == fund,
    };
    let code = match (&list, refusal) {
        (_, Some(code)) => code,
        (Some(Err(_)), None) => StatusCode::UNPROCESSABLE_ENTITY,
        _ => StatusCode::OK,
    };
    html(code, views::prizes(s, &v))
}

pub(super) async fn prizes(
    Screen { s, mut cl, id }: Screen,
    Query(form): Query<PrizeForm>,
) -> Response {
    render(&s, &mut cl, &id, Some(form), None).await
}

/// The fund typed in the form: shown, or announced as the tournament's prize fund.
pub(super) async fn announce(Posted { s, mut cl, id, f }: Posted) -> Response {
    let get = |k: &str| f.get(k).cloned().unwrap_or_default();
    let form = PrizeForm {
        places: get("places"),
        method: get("method"),
        scope: get("scope"),
        one_prize: get("one_prize"),
        currency: get("currency"),
        categories: get("categories"),
    };
    // Shown, not announced: the list of the fund typed, nothing recorded.
    if get("action") == "show" {
        return render(&s, &mut cl, &id, Some(form), None).await;
    }
    let fund = match form.fund() {
        Some(Ok(fund)) => fund,
        Some(Err(e)) => {
            let why = (StatusCode::UNPROCESSABLE_ENTITY, e);
            return render(&s, &mut cl, &id, Some(form), Some(why)).await;
        }
        None => {
            let why = FormError::Announce(s.lang.t("prize-choose-method"));
            let why = (StatusCode::UNPROCESSABLE_ENTITY, why);
            return render(&s, &mut cl, &id, Some(form), Some(why)).await;
        }
    };
    let req = reg::UpdateTournamentRequest {
        header: header_for(&s, &id, &f, ""),
        update: Some(reg::TournamentChanges {
            prize_fund: Some(prize_fund_to_wire(&fund)),
            ..Default::default()
        }),
    };
    match cl.reg.update_tournament(req).await {
        Ok(_) => see_other(format!("/console/t/{id}/prizes")),
        Err(e) => {
            let (code, _) = refused(&e);
            let why = (code, FormError::Announce(e.message().to_string()));
            render(&s, &mut cl, &id, Some(form), Some(why)).await
        }
    }
}
