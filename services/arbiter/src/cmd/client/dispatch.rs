//! Each subcommand sent as its RPC and its answer printed.

use super::*;

pub(super) async fn client(a: ClientArgs) -> Result<(), Exit> {
    let mut c = Clients::connect(&a.conn, a.command_id.clone())?;
    match a.command {
        ClientCommand::Create {
            name,
            rounds,
            start,
            end,
            rule_set,
            system,
            knockout,
            teams,
            arbiter,
            id,
            initial_color,
            data,
            format,
            periods,
            traditional_boards,
            require_consent,
            regulations,
            reconnection_window,
            vcs_red_card_after,
            appeal_deadline,
            supervision,
            platform,
            platform_url,
            platform_features,
            illegal_move_policy,
        } => {
            let platform = match platform {
                Some(name) => Some(pb::PlatformProfile {
                    name,
                    url: platform_url.unwrap_or_default(),
                    features: crate::cmd::online::platform_features(
                        platform_features.as_deref().unwrap_or(""),
                    )
                    .map_err(Exit::Invalid)?,
                    accepts_illegal_moves: illegal_move_policy.is_some(),
                    illegal_move_policy: illegal_move_policy.unwrap_or_default(),
                    ..Default::default()
                }),
                None => None,
            };
            let supervision = supervision
                .as_deref()
                .map(crate::cmd::online::supervision)
                .transpose()
                .map_err(Exit::Invalid)?;
            let appeal_deadline_minutes = match appeal_deadline.as_deref() {
                Some(d) => crate::cmd::online::duration_s(d, "--appeal-deadline")
                    .map_err(Exit::Invalid)?
                    .div_ceil(60),
                None => 0,
            };
            let reconnection_window_s = match reconnection_window.as_deref() {
                Some(w) => crate::cmd::online::duration_s(w, "--reconnection-window")
                    .map_err(Exit::Invalid)?,
                None => 0,
            };
            let format = crate::cmd::online::format(&format).map_err(Exit::Invalid)?;
            let periods = match periods.as_deref() {
                Some(p) => crate::cmd::online::periods(p).map_err(Exit::Invalid)?,
                None => Vec::new(),
            };
            let conduct = pb::Conduct {
                format: format as i32,
                periods,
                traditional_boards,
                require_fair_play_consent: require_consent,
                regulations_version: regulations,
                reconnection_window_s,
                vcs_red_card_after,
                appeal_deadline_minutes,
                supervision,
                platform,
            };
            let color = match initial_color.to_ascii_lowercase().as_str() {
                "white" | "w" => pb::Color::White,
                "black" | "b" => pb::Color::Black,
                other => {
                    return Err(Exit::Invalid(format!(
                        "--initial-color {other:?}: white or black"
                    )));
                }
            };
            let rating_kind = match &data.rating_kind {
                Some(k) => rating_kind(k)?,
                None => pb::RatingKind::Standard,
            };
            let pairing_system = match system.to_ascii_lowercase().as_str() {
                "dutch" => pb::PairingSystem::Dutch,
                "dubov" => pb::PairingSystem::Dubov,
                "burstein" => pb::PairingSystem::Burstein,
                "lim" => pb::PairingSystem::Lim,
                "round-robin" | "berger" => pb::PairingSystem::RoundRobin,
                "double-round-robin" | "berger-double" => pb::PairingSystem::DoubleRoundRobin,
                "scheveningen" => pb::PairingSystem::Scheveningen,
                "semi-scheveningen" => pb::PairingSystem::SemiScheveningen,
                "skalitzka" => pb::PairingSystem::Skalitzka,
                "hilton" => pb::PairingSystem::Hilton,
                "knockout" => pb::PairingSystem::Knockout,
                other => {
                    return Err(Exit::Invalid(format!(
                        "--system {other:?}: dutch, dubov, burstein, lim, round-robin, double-round-robin, scheveningen, semi-scheveningen, skalitzka, hilton or knockout"
                    )));
                }
            };
            // Sent for a knockout, and when regulations are given for another system (which
            // the server refuses, rather than dropping them here).
            let knockout = (pairing_system == pb::PairingSystem::Knockout || knockout.given())
                .then(|| knockout.rules())
                .transpose()?;
            let start = match start {
                Some(s) => s,
                None => {
                    let today = local_date()?;
                    eprintln!(
                        "start date {today} (today; --start YYYY-MM-DD sets another, and it decides the rules in force)"
                    );
                    today
                }
            };
            let r = c
                .registration
                .create_tournament(reg::CreateTournamentRequest {
                    header: c.header(&id.unwrap_or_default()),
                    tournament: Some(pb::TournamentCreated {
                        name,
                        place: data.place.clone().unwrap_or_default(),
                        federation: data.federation.clone().unwrap_or_default(),
                        start_date: Some(wire_date(&start)?),
                        end_date: Some(wire_date(end.as_deref().unwrap_or(&start))?),
                        chief_arbiter: Some(named_arbiter(arbiter)),
                        deputy_arbiters: data.deputies.iter().cloned().map(named_arbiter).collect(),
                        pairing_system: pairing_system as i32,
                        rule_set: rule_set.unwrap_or_default(),
                        rounds,
                        initial_color: color as i32,
                        rating_kind: rating_kind as i32,
                        tie_breaks: data
                            .tie_breaks
                            .as_deref()
                            .map(tie_break_list)
                            .unwrap_or_default(),
                        time_control: data.time_control.clone().unwrap_or_default(),
                        fide_rated: true,
                        conduct: Some(conduct),
                        knockout,
                        team_rules: teams.rules()?,
                        ..Default::default()
                    }),
                })
                .await
                .map_err(|s| status_exit("create", &s))?
                .into_inner();
            println!("{}", r.tournament_id);
        }
        ClientCommand::Update {
            tournament,
            name,
            arbiter,
            no_deputies,
            rounds,
            start,
            end,
            data,
        } => {
            let update = pb::TournamentUpdated {
                name,
                place: data.place,
                start_date: start.as_deref().map(wire_date).transpose()?,
                end_date: end.as_deref().map(wire_date).transpose()?,
                chief_arbiter: arbiter.map(named_arbiter),
                rounds,
                replace_tie_breaks: data.tie_breaks.is_some(),
                tie_breaks: data
                    .tie_breaks
                    .as_deref()
                    .map(tie_break_list)
                    .unwrap_or_default(),
                federation: data.federation,
                replace_deputy_arbiters: no_deputies || !data.deputies.is_empty(),
                deputy_arbiters: data.deputies.into_iter().map(named_arbiter).collect(),
                time_control: data.time_control,
                rating_kind: match &data.rating_kind {
                    Some(k) => rating_kind(k)? as i32,
                    None => 0,
                },
            };
            let r = c.update(&tournament, update).await?;
            print_result("updated", &r);
        }
        ClientCommand::TieBreaks { tournament, list } => {
            let update = pb::TournamentUpdated {
                replace_tie_breaks: true,
                tie_breaks: tie_break_list(&list),
                ..Default::default()
            };
            let r = c.update(&tournament, update).await?;
            print_result("tie-breaks set", &r);
        }
        ClientCommand::Register {
            tournament,
            player,
            first_round,
            same_name_ok,
        } => {
            let player = Some(player_wire(player)?);
            let r = match first_round {
                None => {
                    c.registration
                        .register_player(reg::RegisterPlayerRequest {
                            header: c.header(&tournament),
                            player,
                            confirm_same_name: same_name_ok,
                        })
                        .await
                }
                Some(first_round) => {
                    c.registration
                        .enter_late(reg::EnterLateRequest {
                            header: c.header(&tournament),
                            player,
                            first_round,
                            missed_rounds: 0,
                            confirm_same_name: same_name_ok,
                        })
                        .await
                }
            }
            .map_err(|s| same_name_hint(status_exit("register", &s)))?
            .into_inner();
            print_registered(&r);
        }
        ClientCommand::LateEntry {
            tournament,
            player,
            first_round,
            missed,
            same_name_ok,
        } => {
            let missed = match missed.to_ascii_lowercase().as_str() {
                "zero" | "z" | "0" => pb::ByeKind::ZeroPoint,
                "half" | "h" => pb::ByeKind::HalfPoint,
                other => return Err(Exit::Invalid(format!("--missed {other:?}: zero or half"))),
            };
            let r = c
                .registration
                .enter_late(reg::EnterLateRequest {
                    header: c.header(&tournament),
                    player: Some(player_wire(player)?),
                    first_round: first_round.unwrap_or(0),
                    missed_rounds: missed as i32,
                    confirm_same_name: same_name_ok,
                })
                .await
                .map_err(|s| same_name_hint(status_exit("late-entry", &s)))?
                .into_inner();
            print_registered(&r);
        }
        ClientCommand::CancelRegistration {
            tournament,
            player,
            reason,
            as_of,
        } => {
            let who = c.player_ref(&tournament, player, as_of).await?;
            let r = c
                .registration
                .cancel_registration(reg::CancelRegistrationRequest {
                    header: c.header(&tournament),
                    player_id: who.player_id,
                    entry: who.entry,
                    numbering_version: who.numbering_version,
                    reason,
                })
                .await
                .map_err(|s| status_exit("cancel-registration", &s))?
                .into_inner();
            print_result("registration cancelled", &r);
            println!("the players below him moved up one pairing number (see `players`)");
        }
        ClientCommand::Withdraw {
            tournament,
            player,
            from_round,
            reason,
            as_of,
        } => {
            let who = c.player_ref(&tournament, player, as_of).await?;
            let r = c
                .registration
                .withdraw_player(reg::WithdrawPlayerRequest {
                    header: c.header(&tournament),
                    player_id: who.player_id,
                    entry: who.entry,
                    numbering_version: who.numbering_version,
                    from_round: from_round.unwrap_or(0),
                    reason,
                })
                .await
                .map_err(|s| status_exit("withdraw", &s))?
                .into_inner();
            print_result("withdrawn", &r);
        }
        ClientCommand::RecordTeam {
            tournament,
            name,
            number,
            members,
        } => {
            let r = c
                .registration
                .record_team(reg::RecordTeamRequest {
                    header: c.header(&tournament),
                    team: Some(pb::TeamRecorded {
                        number,
                        name,
                        members,
                        ..Default::default()
                    }),
                    numbering_version: None,
                })
                .await
                .map_err(|s| status_exit("record-team", &s))?
                .into_inner();
            print_result("team recorded", &r);
        }
        ClientCommand::Lineup {
            tournament,
            round,
            team,
            players,
        } => {
            let r = c
                .director
                .submit_lineup(rd::SubmitLineupRequest {
                    header: c.header(&tournament),
                    round,
                    team,
                    players,
                    numbering_version: None,
                })
                .await
                .map_err(|s| status_exit("lineup", &s))?
                .into_inner();
            print_result("line-up given", &r);
        }
        ClientCommand::DrawLots {
            tournament,
            varma,
            seed,
            numbers,
        } => {
            let r = c
                .registration
                .draw_lots(reg::DrawLotsRequest {
                    header: c.header(&tournament),
                    varma,
                    seed,
                    numbers,
                })
                .await
                .map_err(|s| status_exit("draw-lots", &s))?
                .into_inner();
            print_result("lots drawn", &r);
        }
        ClientCommand::CorrectPlayer {
            tournament,
            player,
            name,
            rating,
            fide_id,
            title,
            federation,
            club,
            reason,
            as_of,
        } => {
            let mut fields = Vec::new();
            let mut p = pb::Player::default();
            if let Some(v) = name {
                p.name = v;
                fields.push("name");
            }
            if let Some(v) = rating {
                p.rating = v;
                fields.push("rating");
            }
            if let Some(v) = fide_id {
                p.fide_id = Some(v);
                fields.push("fide_id");
            }
            if let Some(v) = title {
                p.title = match v.to_ascii_lowercase().as_str() {
                    "none" | "" => pb::Title::Unspecified as i32,
                    _ => {
                        player_wire(PlayerData {
                            name: String::new(),
                            rating: 0,
                            fide_id: None,
                            title: Some(v),
                            federation: String::new(),
                        })?
                        .title
                    }
                };
                fields.push("title");
            }
            if let Some(v) = federation {
                p.federation = v;
                fields.push("federation");
            }
            if let Some(v) = club {
                p.club = v;
                fields.push("club");
            }
            if fields.is_empty() {
                return Err(Exit::Invalid(
                    "give what to correct: --name, --rating, --fide-id, --title, --federation \
                     or --club"
                        .into(),
                ));
            }
            let who = c.player_ref(&tournament, player, as_of).await?;
            p.player_id = who.player_id;
            let r = c
                .registration
                .correct_player(reg::CorrectPlayerRequest {
                    header: c.header(&tournament),
                    player: Some(p),
                    fields: fields.into_iter().map(String::from).collect(),
                    reason,
                    entry: who.entry,
                    numbering_version: who.numbering_version,
                })
                .await
                .map_err(|s| status_exit("correct-player", &s))?
                .into_inner();
            print_result("player corrected", &r);
        }
        ClientCommand::Bye {
            tournament,
            player,
            round,
            kind,
            as_of,
        } => {
            let kind = match kind.to_ascii_lowercase().as_str() {
                "half" | "h" => pb::ByeKind::HalfPoint,
                "zero" | "z" => pb::ByeKind::ZeroPoint,
                "full" | "f" => pb::ByeKind::FullPoint,
                other => {
                    return Err(Exit::Invalid(format!(
                        "--kind {other:?}: half, zero or full"
                    )));
                }
            };
            let who = c.player_ref(&tournament, player, as_of).await?;
            let r = c
                .registration
                .request_bye(reg::RequestByeRequest {
                    header: c.header(&tournament),
                    player_id: who.player_id,
                    entry: who.entry,
                    numbering_version: who.numbering_version,
                    round,
                    kind: kind as i32,
                })
                .await
                .map_err(|s| status_exit("bye", &s))?
                .into_inner();
            print_result("bye requested", &r);
        }
        ClientCommand::CancelBye {
            tournament,
            player,
            round,
            as_of,
        } => {
            let who = c.player_ref(&tournament, player, as_of).await?;
            let r = c
                .registration
                .cancel_bye(reg::CancelByeRequest {
                    header: c.header(&tournament),
                    player_id: who.player_id,
                    entry: who.entry,
                    numbering_version: who.numbering_version,
                    round,
                })
                .await
                .map_err(|s| status_exit("cancel-bye", &s))?
                .into_inner();
            print_result("bye cancelled", &r);
        }
        ClientCommand::Consent {
            tournament,
            player,
            regulations,
            accepted_by,
            guardian,
            account,
            items,
            as_of,
        } => {
            let items = crate::cmd::online::consent_items(&items).map_err(Exit::Invalid)?;
            let who = c.player_ref(&tournament, player, as_of).await?;
            let r = c
                .registration
                .record_fair_play_consent(reg::RecordFairPlayConsentRequest {
                    header: c.header(&tournament),
                    player_id: who.player_id,
                    entry: who.entry,
                    numbering_version: who.numbering_version,
                    consent: Some(pb::FairPlayConsentRecorded {
                        player_id: 0,
                        regulations_version: regulations,
                        accepted_by,
                        by_guardian: guardian,
                        items,
                        platform_account: account,
                    }),
                })
                .await
                .map_err(|s| status_exit("consent", &s))?
                .into_inner();
            print_result("fair-play consent recorded", &r);
        }
        ClientCommand::Absent {
            tournament,
            player,
            round,
            reason,
            as_of,
        } => {
            let who = c.player_ref(&tournament, player, as_of).await?;
            let r = c
                .registration
                .declare_absence(reg::DeclareAbsenceRequest {
                    header: c.header(&tournament),
                    player_id: who.player_id,
                    entry: who.entry,
                    numbering_version: who.numbering_version,
                    round,
                    reason,
                })
                .await
                .map_err(|s| status_exit("absent", &s))?
                .into_inner();
            print_result("absence declared", &r);
        }
        ClientCommand::StartRound {
            tournament,
            round,
            wait,
        } => {
            let r = c.start_round(&tournament, round).await?;
            print_result("round started", &r);
            let p = c
                .wait_for_pairing(&tournament, round, Duration::from_secs(wait))
                .await?;
            let names = c.names(&tournament).await?;
            print!("{}", render_pairings(&p, &names));
        }
        ClientCommand::Pairings { tournament, round } => {
            let p = c
                .wait_for_pairing(&tournament, round, Duration::ZERO)
                .await?;
            let names = c.names(&tournament).await?;
            print!("{}", render_pairings(&p, &names));
        }
        ClientCommand::Repair {
            tournament,
            round,
            reason,
        } => {
            let r = c
                .director
                .request_repairing(rd::RequestRepairingRequest {
                    header: c.header(&tournament),
                    round,
                    reason,
                })
                .await
                .map_err(|s| status_exit("repair", &s))?
                .into_inner();
            print_result("new pairing requested", &r);
        }
        ClientCommand::Publish {
            tournament,
            round,
            boards,
            bye,
            note,
            as_of,
        } => {
            if boards.is_empty() && bye.is_none() {
                let r = c.publish(&tournament, round).await?;
                print_result("published", &r);
            } else {
                let r = c
                    .publish_amended(&tournament, round, &boards, bye, note, as_of)
                    .await?;
                print_result("amended pairing published", &r);
            }
        }
        ClientCommand::Result {
            tournament,
            round,
            board,
            result,
        } => {
            let res = result_arg(&result)?;
            let r = c.result(&tournament, round, board, res).await?;
            print_result("result recorded", &r);
        }
        ClientCommand::Sanction {
            tournament,
            player,
            kind,
            round,
            rounds,
            amount,
            article,
            evidence,
            note,
            as_of,
        } => {
            let kind = crate::cmd::online::sanction_kind(&kind).map_err(Exit::Invalid)?;
            let evidence = crate::cmd::online::evidence_list(&evidence).map_err(Exit::Invalid)?;
            let rounds = match rounds.as_deref() {
                Some(list) => list
                    .split(',')
                    .map(|r| {
                        r.trim()
                            .parse::<u32>()
                            .map_err(|_| Exit::Invalid(format!("--rounds: {r:?} is not a round")))
                    })
                    .collect::<Result<Vec<_>, _>>()?,
                None => Vec::new(),
            };
            let who = c.player_ref(&tournament, player, as_of).await?;
            let r = c
                .director
                .impose_sanction(rd::ImposeSanctionRequest {
                    header: c.header(&tournament),
                    entry: who.entry,
                    numbering_version: who.numbering_version,
                    sanction: Some(pb::SanctionImposed {
                        player_id: who.player_id,
                        kind: kind as i32,
                        round: round.unwrap_or(0),
                        rounds,
                        amount,
                        article,
                        evidence,
                        note,
                    }),
                })
                .await
                .map_err(|s| status_exit("sanction", &s))?
                .into_inner();
            print_result("sanction imposed", &r);
        }
        ClientCommand::Irregularity {
            tournament,
            round,
            board,
            kind,
            plies,
            decision,
            note,
        } => {
            let kind = crate::cmd::online::irregularity_kind(&kind).map_err(Exit::Invalid)?;
            let decision = match decision.as_deref() {
                Some(d) => {
                    crate::cmd::online::irregularity_decision(d).map_err(Exit::Invalid)? as i32
                }
                None => 0,
            };
            let r = c
                .director
                .record_irregularity(rd::RecordIrregularityRequest {
                    header: c.header(&tournament),
                    round,
                    board,
                    kind: kind as i32,
                    plies,
                    decision,
                    note,
                })
                .await
                .map_err(|s| status_exit("irregularity", &s))?
                .into_inner();
            print_result("irregularity recorded", &r);
        }
        ClientCommand::SupervisionBreach {
            tournament,
            round,
            board,
            player,
            item,
            note,
        } => {
            let item = crate::cmd::online::supervision_item(&item).map_err(Exit::Invalid)?;
            let r = c
                .director
                .record_supervision_breach(rd::RecordSupervisionBreachRequest {
                    header: c.header(&tournament),
                    round,
                    board,
                    player_id: player,
                    item: item as i32,
                    note,
                })
                .await
                .map_err(|s| status_exit("supervision breach", &s))?
                .into_inner();
            print_result("supervision breach recorded", &r);
        }
        ClientCommand::Disconnect {
            tournament,
            round,
            board,
            player,
            channel,
            clock,
            away,
            moved_off_video,
            reported_by,
            note,
        } => {
            use crate::cmd::online::duration_s;
            let channel = match channel.as_str() {
                "platform" => pb::ConnectionChannel::Platform,
                "video" => pb::ConnectionChannel::VideoConference,
                other => {
                    return Err(Exit::Invalid(format!(
                        "--channel {other:?}: platform or video"
                    )));
                }
            };
            let reported_by = match reported_by.as_str() {
                "platform" => pb::IncidentReporter::Platform,
                "lta" => pb::IncidentReporter::LocalTechnicalArbiter,
                "arbiter" => pb::IncidentReporter::Arbiter,
                other => {
                    return Err(Exit::Invalid(format!(
                        "--reported-by {other:?}: platform, lta or arbiter"
                    )));
                }
            };
            let clock_ms = duration_s(&clock, "--clock").map_err(Exit::Invalid)? * 1000;
            // The reporter's own times (E.04 11: the platform records them): he disconnected now
            // and came back --away later.
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as i64);
            let back = match away.as_deref() {
                Some(a) => {
                    let s = duration_s(a, "--away").map_err(Exit::Invalid)?;
                    now + i64::from(s) * 1000
                }
                None => 0,
            };
            let r = c
                .director
                .report_connection_incident(rd::ReportConnectionIncidentRequest {
                    header: c.header(&tournament),
                    incident: Some(pb::ConnectionIncidentReported {
                        incident: 0,
                        round,
                        board,
                        player_id: player,
                        channel: channel as i32,
                        disconnected_at_unix_ms: now,
                        reconnected_at_unix_ms: back,
                        clock_at_disconnect_ms: clock_ms,
                        moved_while_vcs_down: moved_off_video,
                        reported_by: reported_by as i32,
                        note,
                    }),
                })
                .await
                .map_err(|s| status_exit("disconnect", &s))?
                .into_inner();
            print_result("connection incident reported", &r);
        }
        ClientCommand::Rule {
            tournament,
            incident,
            outcome,
            fen,
            white_clock,
            black_clock,
            reduce,
            time_control,
            note,
        } => {
            use crate::cmd::online::duration_s;
            let outcome =
                crate::cmd::online::disconnection_outcome(&outcome).map_err(Exit::Invalid)?;
            let ms = |v: Option<String>, what: &str| -> Result<u32, Exit> {
                v.map_or(Ok(0), |v| {
                    duration_s(&v, what)
                        .map(|s| s * 1000)
                        .map_err(Exit::Invalid)
                })
            };
            let r = c
                .director
                .rule_on_disconnection(rd::RuleOnDisconnectionRequest {
                    header: c.header(&tournament),
                    ruling: Some(pb::DisconnectionRuled {
                        incident,
                        outcome: outcome as i32,
                        remaining_ms: 0,
                        fen,
                        white_ms: ms(white_clock, "--white-clock")?,
                        black_ms: ms(black_clock, "--black-clock")?,
                        reduce_ms: ms(reduce, "--reduce")?,
                        time_control,
                        article: String::new(),
                        note,
                    }),
                })
                .await
                .map_err(|s| status_exit("rule", &s))?
                .into_inner();
            print_result("disconnection ruled", &r);
        }
        ClientCommand::Appeal {
            tournament,
            appellant,
            decision_version,
            grounds,
            deposit,
            as_of,
        } => {
            let who = c.player_ref(&tournament, appellant, as_of).await?;
            let r = c
                .director
                .file_appeal(rd::FileAppealRequest {
                    header: c.header(&tournament),
                    entry: who.entry,
                    player_id: who.player_id,
                    numbering_version: who.numbering_version,
                    decision_version,
                    grounds,
                    deposit,
                })
                .await
                .map_err(|s| status_exit("appeal", &s))?
                .into_inner();
            print_result("appeal filed", &r);
        }
        ClientCommand::DecideAppeal {
            tournament,
            appeal,
            upheld,
            committee,
            deposit_returned,
            result,
            note,
        } => {
            let (round, board, (res, wc, bc)) = match result.as_deref() {
                Some([round, board, result]) => {
                    let n = |v: &str, what: &str| {
                        v.parse::<u32>()
                            .map_err(|_| Exit::Invalid(format!("--result: {what} {v:?}")))
                    };
                    (
                        n(round, "round")?,
                        n(board, "board")?,
                        board_result_to_wire(result_arg(result)?),
                    )
                }
                _ => (0, 0, (pb::BoardResult::Unspecified, 0, 0)),
            };
            let r = c
                .director
                .decide_appeal(rd::DecideAppealRequest {
                    header: c.header(&tournament),
                    appeal,
                    upheld,
                    deposit_returned,
                    committee,
                    note,
                    round,
                    board,
                    result: res as i32,
                    white_code: wc,
                    black_code: bc,
                })
                .await
                .map_err(|s| status_exit("decide-appeal", &s))?
                .into_inner();
            print_result("appeal decided", &r);
        }
        ClientCommand::Override {
            tournament,
            round,
            board,
            result,
            reason,
        } => {
            let (w, _, _) = board_result_to_wire(result_arg(&result)?);
            let r = c
                .director
                .override_platform_result(rd::OverridePlatformResultRequest {
                    header: c.header(&tournament),
                    round,
                    board,
                    result: w as i32,
                    reason,
                })
                .await
                .map_err(|s| status_exit("override", &s))?
                .into_inner();
            print_result("platform result overridden", &r);
        }
        ClientCommand::Correct {
            tournament,
            round,
            board,
            result,
            reason,
        } => {
            let (w, wc, bc) = board_result_to_wire(result_arg(&result)?);
            let r = c
                .director
                .correct_result(rd::CorrectResultRequest {
                    header: c.header(&tournament),
                    round,
                    board,
                    corrected: w as i32,
                    white_code: wc,
                    black_code: bc,
                    reason,
                })
                .await
                .map_err(|s| status_exit("correct", &s))?
                .into_inner();
            print_result("result corrected", &r);
        }
        ClientCommand::Record { tournament } => {
            use pb::event::Kind;
            let r = c
                .director
                .arbiter_record(rd::GetTournamentRequest {
                    tournament: Clients::tref(&tournament),
                })
                .await
                .map_err(|s| status_exit("record", &s))?
                .into_inner();
            println!(
                "Arbiter's record of {} (version {}): {} entries",
                r.tournament_id,
                r.version,
                r.events.len()
            );
            for e in &r.events {
                let Some(kind) = e.payload.as_ref().and_then(|p| p.kind.as_ref()) else {
                    continue;
                };
                let line = match kind {
                    Kind::ResultDiscrepancyDetected(d) => format!(
                        "round {} board {}: platform {} vs the Laws {} ({}, {})",
                        d.round, d.board, d.platform_result, d.laws_result, d.reason, d.article
                    ),
                    Kind::ResultOverridden(o) => format!(
                        "round {} board {}: platform's {} overridden ({}; {})",
                        o.round, o.board, o.platform_result, o.reason, o.article
                    ),
                    Kind::IrregularityRecorded(i) => format!(
                        "round {} board {}: {:?} after {} half-moves: {:?} ({})",
                        i.round,
                        i.board,
                        pb::IrregularityKind::try_from(i.kind).unwrap_or_default(),
                        i.plies,
                        pb::IrregularityDecision::try_from(i.decision).unwrap_or_default(),
                        i.article
                    ),
                    Kind::SupervisionBreachRecorded(b) => format!(
                        "breach {}: round {} board {} player {}: {:?} ({}){}",
                        b.breach,
                        b.round,
                        b.board,
                        b.player_id,
                        pb::SupervisionItem::try_from(b.item).unwrap_or_default(),
                        b.article,
                        if b.note.is_empty() {
                            String::new()
                        } else {
                            format!(": {}", b.note)
                        }
                    ),
                    Kind::SanctionImposed(s) => format!(
                        "player {}: {:?} ({}), {} item(s) of evidence",
                        s.player_id,
                        pb::SanctionKind::try_from(s.kind).unwrap_or_default(),
                        s.article,
                        s.evidence.len()
                    ),
                    Kind::ConnectionIncidentReported(i) => format!(
                        "incident {}: round {} board {} player {} lost {:?}, {} s on his clock, {}",
                        i.incident,
                        i.round,
                        i.board,
                        i.player_id,
                        pb::ConnectionChannel::try_from(i.channel).unwrap_or_default(),
                        i.clock_at_disconnect_ms / 1000,
                        if i.reconnected_at_unix_ms == 0 {
                            "not back".to_string()
                        } else {
                            format!(
                                "back after {} s",
                                (i.reconnected_at_unix_ms - i.disconnected_at_unix_ms) / 1000
                            )
                        }
                    ),
                    Kind::DisconnectionRuled(r) => format!(
                        "incident {} ruled {:?} ({})",
                        r.incident,
                        pb::DisconnectionOutcome::try_from(r.outcome).unwrap_or_default(),
                        r.article
                    ),
                    Kind::AppealFiled(a) => format!(
                        "appeal {} by player {} against version {} ({}): {}",
                        a.appeal,
                        a.appellant,
                        a.decision_version,
                        a.decision_kind,
                        if a.admitted {
                            "admitted"
                        } else {
                            "after the deadline"
                        }
                    ),
                    Kind::AppealDecided(a) => format!(
                        "appeal {} {} by {}",
                        a.appeal,
                        if a.upheld { "upheld" } else { "rejected" },
                        a.committee.join(", ")
                    ),
                    other => format!("{other:?}"),
                };
                println!("{:>6}  {line}", e.sequence);
            }
        }
        ClientCommand::Complain {
            tournament,
            complainant,
            accused,
            grounds,
            evidence,
            only_rating,
            as_of,
        } => {
            let evidence = crate::cmd::online::evidence_list(&evidence).map_err(Exit::Invalid)?;
            let who = c.player_ref(&tournament, complainant, as_of).await?;
            let r = c
                .screening
                .file_complaint(scr::FileComplaintRequest {
                    header: c.header(&tournament),
                    entry: who.entry,
                    player_id: who.player_id,
                    numbering_version: who.numbering_version,
                    accused,
                    grounds,
                    evidence,
                    only_rating_performance: only_rating,
                })
                .await
                .map_err(|s| status_exit("complain", &s))?
                .into_inner();
            print_result(
                "complaint filed (GetScreening shows how it was received)",
                &r,
            );
        }
        ClientCommand::SubmitGames {
            tournament,
            round,
            file,
        } => {
            let pgn = read_pgn_file(&file)?;
            let r = c
                .screening
                .submit_games(scr::SubmitGamesRequest {
                    header: c.header(&tournament),
                    round,
                    pgn,
                })
                .await
                .map_err(|s| status_exit("submit-games", &s))?
                .into_inner();
            let outcome = r.result.unwrap_or_default();
            print_result(&format!("{} games submitted", r.games.len()), &outcome);
            for g in &r.games {
                println!(
                    "game {} ({} - {}): round {round}, board {}",
                    g.index, g.white, g.black, g.board
                );
            }
        }
        ClientCommand::Close { tournament, round } => {
            let r = c.close(&tournament, round).await?;
            print_result("round closed", &r);
        }
        ClientCommand::Finish { tournament } => {
            let r = c
                .director
                .finish_tournament(rd::FinishTournamentRequest {
                    header: c.header(&tournament),
                })
                .await
                .map_err(|s| status_exit("finish", &s))?
                .into_inner();
            print_result("finished", &r);
        }
        ClientCommand::Standings {
            tournament,
            after_round,
        } => {
            print!("{}", c.standings(&tournament, after_round).await?);
        }
        ClientCommand::Players { tournament } => {
            let players = c.players(&tournament).await?;
            println!(
                "Players (version {}, numbering version {}: give it as --as-of with pairing numbers)",
                players.version, players.numbering_version
            );
            println!("  No  Entry  Name                             Rating  Status");
            for p in players.players {
                let Some(pl) = p.player else { continue };
                let status = if p.status == reg::PlayerStatus::Withdrawn as i32 {
                    "withdrawn".to_string()
                } else if p.status == reg::PlayerStatus::ConsentMissing as i32 {
                    "no fair-play consent: not paired".to_string()
                } else if p.first_round > 1 {
                    format!("from round {}", p.first_round)
                } else {
                    String::new()
                };
                let line = format!(
                    "{:>4}  {:>5}  {:<32} {:>6}  {}",
                    pl.player_id,
                    format!("E{}", p.entry),
                    pl.name,
                    pl.rating,
                    status
                );
                println!("{}", line.trim_end());
            }
        }
        ClientCommand::Schedule { tournament } => {
            let s = c
                .director
                .get_schedule(rd::GetTournamentRequest {
                    tournament: Clients::tref(&tournament),
                })
                .await
                .map_err(|s| status_exit("schedule", &s))?
                .into_inner();
            println!(
                "{}: {}, {} players, {} rounds, version {}",
                s.tournament_id,
                s.rule_set,
                s.players,
                s.rounds.len(),
                s.version
            );
            match &s.lots {
                None => println!(
                    "lots: not drawn through the service (numbers in order of registration)"
                ),
                Some(l) => println!(
                    "lots: {}{}",
                    if l.varma { "Varma draw, " } else { "" },
                    if l.seed.is_empty() {
                        "drawn in the hall".to_string()
                    } else {
                        format!("drawn from seed {:?}", l.seed)
                    }
                ),
            }
            for r in &s.rounds {
                let games: Vec<String> = r
                    .boards
                    .iter()
                    .map(|b| format!("{}-{}", b.white, b.black))
                    .collect();
                let rest = if r.rest != 0 {
                    format!("  (rests: {})", r.rest)
                } else {
                    String::new()
                };
                println!("R{:<3} {}{rest}", r.round, games.join(" "));
            }
            for g in &s.compatriot_games {
                println!(
                    "compatriots ({}): {}-{} in round {}",
                    g.federation, g.white, g.black, g.round
                );
            }
        }
        ClientCommand::Show { tournament } => {
            let s = c
                .director
                .get_tournament(rd::GetTournamentRequest {
                    tournament: Clients::tref(&tournament),
                })
                .await
                .map_err(|s| status_exit("show", &s))?
                .into_inner();
            println!(
                "{} ({}): {} rounds, current round {}, phase {:?}, rule set {}, version {}, boards without result: {:?}",
                s.name,
                s.tournament_id,
                s.rounds,
                s.current_round,
                rd::Phase::try_from(s.phase).unwrap_or(rd::Phase::Unspecified),
                s.rule_set,
                s.version,
                s.pending_boards
            );
            // The result standings keep, per board: the recorded one, then each correction
            // that was not for rating only.
            let mut standings: BTreeMap<(u32, u32), i32> = BTreeMap::new();
            for c in &s.corrections {
                let kept = *standings.entry((c.round, c.board)).or_insert(c.previous);
                let late = c.effect == rd::CorrectionEffect::FinalEvaluationOnly as i32;
                if !late {
                    standings.insert((c.round, c.board), c.corrected);
                }
                println!(
                    "round {}, board {}: corrected ({}), for {}",
                    c.round,
                    c.board,
                    c.reason,
                    match rd::CorrectionEffect::try_from(c.effect) {
                        Ok(rd::CorrectionEffect::NextPairing) =>
                            "the next pairing and the standings",
                        Ok(rd::CorrectionEffect::LaterPairings) => {
                            "later pairings and the standings (the next pairing was published)"
                        }
                        Ok(rd::CorrectionEffect::FinalEvaluationOnly) => {
                            "the final evaluation only (the next round was over)"
                        }
                        _ => "?",
                    }
                );
                if late {
                    // Said as the pages say it (C.04.2 D.8).
                    let shown = |r: i32| {
                        arbiter_proto::convert::board_result_from_wire(r, 0, 0)
                            .map(|r| r.to_string())
                            .unwrap_or_else(|_| "an arbiter's decision".to_string())
                    };
                    let after = (c.round < s.current_round).then_some(c.round + 1);
                    println!(
                        "round {}, board {}: {}",
                        c.round,
                        c.board,
                        arbiter_core::tournament::rating_only_note(
                            after,
                            shown(kept),
                            shown(c.corrected)
                        )
                    );
                }
            }
            for d in &s.open_discrepancies {
                println!(
                    "round {}, board {}: the platform's {} is not the Laws' {}: {} ({}); confirm \
                     with `result` or `override`",
                    d.round, d.board, d.platform_result, d.laws_result, d.reason, d.article
                );
            }
        }
        ClientCommand::List => {
            let l = c
                .registration
                .list_tournaments(reg::ListTournamentsRequest {})
                .await
                .map_err(|s| status_exit("list", &s))?
                .into_inner();
            for t in l.tournaments {
                println!(
                    "{}  {}  {} players, {} rounds, version {}",
                    t.tournament_id, t.name, t.players, t.rounds, t.version
                );
            }
        }
        ClientCommand::Export { tournament, output } => {
            let r = c
                .reporting
                .export_trf(rep::ExportTrfRequest {
                    tournament: Clients::tref(&tournament),
                    format: TrfFormat::Trf16 as i32,
                })
                .await
                .map_err(|s| status_exit("export", &s))?
                .into_inner();
            match output {
                Some(p) => std::fs::write(&p, &r.trf)
                    .map_err(|e| Exit::Unavailable(format!("cannot write {}: {e}", p.display())))?,
                None => print!("{}", String::from_utf8_lossy(&r.trf)),
            }
        }
    }
    Ok(())
}
