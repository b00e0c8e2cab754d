//! A round: pairing, publication (as proposed or changed by hand), results, corrections,
//! closing, the finish.

use super::*;

pub(super) struct RoundExtras {
    boards_text: Option<String>,
    verdict: Option<String>,
    /// The engine's verdict on boards changed by hand that the arbiter is shown before
    /// publishing them: posted back with the same boards, it publishes.
    seen: Option<String>,
    /// The note typed with boards changed by hand, kept when the screen comes back.
    note: String,
}

pub(super) async fn render_round(
    s: &Session,
    cl: &mut Clients,
    id: &str,
    flash: Option<Flash>,
    code: StatusCode,
    extras: RoundExtras,
) -> Response {
    let RoundExtras {
        boards_text,
        verdict,
        seen,
        note,
    } = extras;
    let hand_open = boards_text.is_some();
    let st = match state(cl, id).await {
        Ok(st) => st,
        Err(e) => return not_found(s, &e),
    };
    let pairings = if st.current_round > 0 {
        cl.rep
            .get_pairings(rep::GetPairingsRequest {
                tournament: tref(id),
                round: st.current_round,
            })
            .await
            .ok()
            .map(|p| p.into_inner())
    } else {
        None
    };
    let names = match names(cl, id).await {
        Ok(n) => n,
        Err(e) => return not_found(s, &e),
    };
    let boards_text = boards_text.unwrap_or_else(|| {
        let mut t = String::new();
        // A team event's proposal is its matches (the boards follow from the line-ups).
        if let Some(p) = pairings.as_ref().filter(|p| !p.team_matches.is_empty()) {
            for m in &p.team_matches {
                t.push_str(&format!("{} {}\n", m.first, m.second));
            }
            if p.team_bye != 0 {
                t.push_str(&format!("{} 0\n", p.team_bye));
            }
            return t;
        }
        if let Some(p) = &pairings {
            for b in p.boards.iter().filter_map(|b| b.board.as_ref()) {
                t.push_str(&format!("{} {}\n", b.white, b.black));
            }
            for u in &p.unpaired {
                if u.code == pb::ResultCode::PairingBye as i32 {
                    t.push_str(&format!("{} 0\n", u.player_id));
                }
            }
        }
        t
    });
    // The proposal's reasons in words, from the pairing worker that made it.
    let explanation = match &pairings {
        Some(p) if !p.published => cl
            .pw
            .explain(pw::ExplainRequest {
                tournament: tref(id),
                round: st.current_round,
                pairing_number: 0,
            })
            .await
            .ok()
            .map(|e| e.into_inner().explanation)
            .filter(|e| !e.trim().is_empty()),
        _ => None,
    };
    // A team event's matches are shown by the teams' names.
    let team_names = match &pairings {
        Some(p) if !p.team_matches.is_empty() => super::teams::team_log(cl, id)
            .await
            .map(|(_, teams)| teams.into_iter().map(|t| (t.number, t.name)).collect())
            .unwrap_or_default(),
        _ => HashMap::new(),
    };
    let v = RoundView {
        state: &st,
        pairings: pairings.as_ref(),
        names: &names,
        team_names,
        boards_text,
        explanation,
        verdict,
        seen,
        hand_open,
        note,
    };
    html(code, views::round(s, &v, flash.as_ref()))
}

pub(super) async fn round(Screen { s, mut cl, id }: Screen) -> Response {
    let extras = RoundExtras {
        boards_text: None,
        verdict: None,
        seen: None,
        note: String::new(),
    };
    render_round(&s, &mut cl, &id, None, StatusCode::OK, extras).await
}

/// A result as typed: `1`, `0`, `=`, `+`, `-`, `--` (or as printed: `1-0`, `½-½`, `+/-`...);
/// what was typed when it is none of them.
pub(crate) fn result_key(k: &str) -> Result<pb::BoardResult, String> {
    Ok(match k.trim() {
        "1" | "1-0" => pb::BoardResult::WhiteWins,
        "0" | "0-1" => pb::BoardResult::BlackWins,
        "=" | "½" | "1/2" | "½-½" | "1/2-1/2" | "d" | "D" => pb::BoardResult::Draw,
        "+" | "+-" | "+/-" => pb::BoardResult::WhiteWinsForfeit,
        "-" | "-+" | "-/+" => pb::BoardResult::BlackWinsForfeit,
        "--" | "-/-" => pb::BoardResult::DoubleForfeit,
        other => return Err(other.to_string()),
    })
}

/// "white black" lines; "n 0" is the pairing-allocated bye.
pub(super) fn boards_from_text(text: &str) -> Result<(Vec<pb::Board>, Vec<pb::Unpaired>), String> {
    let mut boards = Vec::new();
    let mut unpaired = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let nums: Vec<&str> = line.split_whitespace().collect();
        if nums.is_empty() {
            continue;
        }
        let bad = || format!("line {}: {line:?} is not two player numbers", i + 1);
        let [w, b] = nums.as_slice() else {
            return Err(bad());
        };
        let (w, b): (u32, u32) = (w.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
        if b == 0 {
            unpaired.push(pb::Unpaired {
                player_id: w,
                code: pb::ResultCode::PairingBye as i32,
            });
        } else {
            boards.push(pb::Board {
                number: boards.len() as u32 + 1,
                white: w,
                black: b,
            });
        }
    }
    if boards.is_empty() {
        return Err("no board given".into());
    }
    Ok((boards, unpaired))
}

/// The engine's verdict on a pairing of `round`: the published one (`candidate` `None`) or
/// one changed by hand before publication. `Ok((true, _))`: the engine pairs it the same.
async fn judge(
    s: &Session,
    cl: &mut Clients,
    id: &str,
    round: u32,
    candidate: Option<(Vec<pb::Board>, Vec<pb::Unpaired>)>,
) -> Result<(bool, String), tonic::Status> {
    let (candidate_boards, candidate_unpaired) = candidate.unwrap_or_default();
    let c = cl
        .pw
        .check(pw::CheckRequest {
            tournament: tref(id),
            round,
            candidate_boards,
            candidate_unpaired,
        })
        .await?
        .into_inner();
    let mut said = if c.matches {
        s.lang.ta("engine-agrees", &[("round", round.into())])
    } else {
        s.lang.ta(
            "engine-disagrees",
            &[("round", round.into()), ("verdict", c.verdict.into())],
        )
    };
    if !c.matches && !c.deciding_rule.is_empty() {
        said.push_str(&format!(" ({})", c.deciding_rule));
    }
    Ok((c.matches, said))
}

pub(super) async fn round_action(
    Path((_, action)): Path<(String, String)>,
    Posted { s, mut cl, id, f }: Posted,
) -> Response {
    let st = match state(&mut cl, &id).await {
        Ok(st) => st,
        Err(e) => return not_found(&s, &e),
    };
    let round = st.current_round;
    let h = header_for(&s, &id, &f, "");
    let get = |k: &str| f.get(k).map(|v| v.trim().to_string()).unwrap_or_default();
    let mut boards_text = None;
    let outcome: Result<(), Flash> = match action.as_str() {
        // A read: the engine recomputes the published round and says whether it agrees.
        // Reads: the engine says whether it agrees with the published round, or with boards
        // changed by hand before they are published.
        "check" | "check-changes" => {
            let candidate = if action == "check" {
                None
            } else {
                match boards_from_text(&get("boards")) {
                    Ok(c) => Some(c),
                    Err(e) => {
                        let extras = RoundExtras {
                            boards_text: Some(get("boards")),
                            verdict: None,
                            seen: None,
                            note: get("note"),
                        };
                        let flash = Some(Flash::Refused(e));
                        let code = StatusCode::UNPROCESSABLE_ENTITY;
                        return render_round(&s, &mut cl, &id, flash, code, extras).await;
                    }
                }
            };
            let hand = candidate.is_some();
            let (code, flash, verdict) = match judge(&s, &mut cl, &id, round, candidate).await {
                Ok((_, said)) => (StatusCode::OK, None, Some(said)),
                Err(e) => {
                    let (code, flash) = refused(&e);
                    (code, Some(flash), None)
                }
            };
            let extras = RoundExtras {
                boards_text: hand.then(|| get("boards")),
                seen: verdict.clone().filter(|_| hand),
                verdict,
                note: get("note"),
            };
            return render_round(&s, &mut cl, &id, flash, code, extras).await;
        }
        "start" => cl
            .rd
            .start_round(rd::StartRoundRequest {
                header: h,
                round: round + 1,
                scheduled_unix_ms: 0,
            })
            .await
            .map(drop)
            .map_err(|e| refused(&e).1),
        "publish" => {
            let text = get("boards");
            let changed = if text.is_empty() {
                Ok((Vec::new(), Vec::new()))
            } else {
                boards_text = Some(text.clone());
                boards_from_text(&text)
            };
            match changed {
                Err(e) => Err(Flash::Refused(e)),
                Ok((boards, _)) if !boards.is_empty() && get("note").is_empty() => {
                    Err(Flash::Refused(s.lang.t("hand-change-needs-note")))
                }
                // A team event's matches changed by hand: "first second" lines and the
                // team bye; the round director checks them (a round robin's must be its
                // table's) and expands them from the line-ups.
                Ok((boards, unpaired)) if get("team") == "1" => cl
                    .rd
                    .publish_pairing(rd::PublishPairingRequest {
                        header: h,
                        round,
                        proposal_version: 0,
                        boards: Vec::new(),
                        unpaired: Vec::new(),
                        note: get("note"),
                        by_entry: false,
                        numbering_version: None,
                        team_matches: boards
                            .iter()
                            .map(|b| pb::TeamMatch {
                                first: b.white,
                                second: b.black,
                            })
                            .collect(),
                        team_bye: unpaired.first().map_or(0, |u| u.player_id),
                    })
                    .await
                    .map(drop)
                    .map_err(|e| refused(&e).1),
                Ok((boards, unpaired)) => {
                    // Boards changed by hand are judged against the engine's first; when the
                    // engine's pairing differs, the arbiter sees why and publishes on a second
                    // post, the verdict kept with the note.
                    let mut note = get("note");
                    if !boards.is_empty() {
                        let candidate = Some((boards.clone(), unpaired.clone()));
                        match judge(&s, &mut cl, &id, round, candidate).await {
                            Ok((true, _)) => {}
                            Ok((false, said)) if get("seen") == said => {
                                note = format!("{note} [{said}]");
                            }
                            Ok((false, said)) => {
                                let extras = RoundExtras {
                                    boards_text: Some(get("boards")),
                                    verdict: Some(said.clone()),
                                    seen: Some(said),
                                    note: get("note"),
                                };
                                let code = StatusCode::OK;
                                return render_round(&s, &mut cl, &id, None, code, extras).await;
                            }
                            // A pairing the engine cannot judge is the round director's to
                            // refuse, with its reason.
                            Err(_) => {}
                        }
                    }
                    cl.rd
                        .publish_pairing(rd::PublishPairingRequest {
                            header: h,
                            round,
                            proposal_version: 0,
                            boards,
                            unpaired,
                            note,
                            by_entry: false,
                            numbering_version: None,
                            team_matches: Vec::new(),
                            team_bye: 0,
                        })
                        .await
                        .map(drop)
                        .map_err(|e| refused(&e).1)
                }
            }
        }
        "result" | "correct" => {
            let board = get("board").parse::<u32>();
            match (board, result_key(&get("result"))) {
                (Err(_), _) => Err(Flash::Refused(
                    s.lang.ta("not-a-board", &[("board", get("board").into())]),
                )),
                (_, Err(key)) => Err(Flash::Refused(
                    s.lang.ta("not-a-result", &[("key", key.into())]),
                )),
                (Ok(board), Ok(result)) if action == "result" => cl
                    .rd
                    .record_result(rd::RecordResultRequest {
                        header: h,
                        round,
                        board,
                        result: result as i32,
                        white_code: 0,
                        black_code: 0,
                    })
                    .await
                    .map(drop)
                    .map_err(|e| refused(&e).1),
                (Ok(board), Ok(result)) => cl
                    .rd
                    .correct_result(rd::CorrectResultRequest {
                        header: h,
                        round,
                        board,
                        corrected: result as i32,
                        white_code: 0,
                        black_code: 0,
                        reason: get("reason"),
                    })
                    .await
                    .map(drop)
                    .map_err(|e| refused(&e).1),
            }
        }
        "close" => cl
            .rd
            .close_round(rd::CloseRoundRequest { header: h, round })
            .await
            .map(drop)
            .map_err(|e| refused(&e).1),
        "finish" => cl
            .rd
            .finish_tournament(rd::FinishTournamentRequest { header: h })
            .await
            .map(drop)
            .map_err(|e| refused(&e).1),
        other => Err(Flash::Refused(
            s.lang.ta("no-such-action", &[("action", other.into())]),
        )),
    };
    match outcome {
        Ok(()) => see_other(format!("/console/t/{id}/round")),
        Err(flash) => {
            let extras = RoundExtras {
                boards_text,
                verdict: None,
                seen: None,
                note: get("note"),
            };
            render_round(&s, &mut cl, &id, Some(flash), StatusCode::CONFLICT, extras).await
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_keys_and_hand_pairings() {
        assert_eq!(result_key("1").unwrap(), pb::BoardResult::WhiteWins);
        assert_eq!(result_key(" = ").unwrap(), pb::BoardResult::Draw);
        assert_eq!(result_key("--").unwrap(), pb::BoardResult::DoubleForfeit);
        assert_eq!(result_key("2").unwrap_err(), "2");
        let (b, u) = boards_from_text("3 1\n\n2 4\n5 0\n").unwrap();
        assert_eq!(b.len(), 2);
        assert_eq!((b[1].number, b[1].white, b[1].black), (2, 2, 4));
        assert_eq!(u[0].player_id, 5);
        assert!(boards_from_text("3\n").unwrap_err().starts_with("line 1"));
    }
}
