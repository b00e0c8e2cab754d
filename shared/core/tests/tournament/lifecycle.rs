//! CreateTournament, UpdateTournament, FinishTournament, and commands on an empty stream.

use crate::support::*;
use arbiter_core::tournament::*;
use arbiter_core::{Color, PointSystem, Score};

fn create_cmd(c: CreateTournament) -> Command {
    Command::CreateTournament(c)
}

fn created(events: Vec<Event>) -> TournamentCreated {
    match events.as_slice() {
        [Event::TournamentCreated(t)] => t.clone(),
        other => panic!("expected one TournamentCreated, got {other:?}"),
    }
}

#[test]
fn create_tournament_records_everything_given() {
    let mut c = create(9);
    c.name = "  Test Open  ".into();
    c.place = "Oslo".into();
    c.federation = "NOR".into();
    c.tie_breaks = "BH/C1, BH,SB , DE".into();
    c.time_control = "90'/40+30'+30\"".into();
    c.initial_color = Some(Color::Black);
    c.rating_kind = RatingKind::Rapid;
    c.deputy_arbiters = vec![Arbiter {
        name: "Deputy, One".into(),
        fide_id: Some(123),
        title: "FA".into(),
    }];
    let then = Given::nothing().when(create_cmd(c)).unwrap();
    assert_eq!(
        then,
        vec![Event::TournamentCreated(TournamentCreated {
            name: "Test Open".into(),
            place: "Oslo".into(),
            federation: "NOR".into(),
            start_date: date("2025-08-01"),
            end_date: date("2025-08-09"),
            chief_arbiter: Arbiter::named("Chief, Arbiter"),
            deputy_arbiters: vec![Arbiter {
                name: "Deputy, One".into(),
                fide_id: Some(123),
                title: "FA".into()
            }],
            pairing_system: PairingSystem::Dutch,
            rule_set: "dutch-2025".into(),
            rounds: 9,
            scoring: PointSystem::default(),
            initial_color: Some(Color::Black),
            rating_kind: RatingKind::Rapid,
            tie_breaks: vec!["BH/C1".into(), "BH".into(), "SB".into(), "DE".into()],
            time_control: "90'/40+30'+30\"".into(),
            acceleration: None,
            fide_rated: true,
            tournament_type: String::new(),
            round_dates: Vec::new(),
            trf_records: Vec::new(),
            conduct: Conduct::default(),
            knockout: None,
            team_rules: None,
        })]
    );
}

#[test]
fn default_rule_set_is_the_dutch_rules_in_force_on_the_start_date() {
    let mut c = create(9);
    c.start_date = date("2025-06-30");
    assert_eq!(
        created(Given::nothing().when(create_cmd(c.clone())).unwrap()).rule_set,
        "dutch-2017"
    );
    c.start_date = date("2025-07-01");
    assert_eq!(
        created(Given::nothing().when(create_cmd(c.clone())).unwrap()).rule_set,
        "dutch-2025"
    );
    c.start_date = date("2019-03-01");
    c.end_date = date("2019-03-09");
    assert_eq!(
        created(Given::nothing().when(create_cmd(c.clone())).unwrap()).rule_set,
        "dutch-2017"
    );
    // An explicit choice is kept.
    c.rule_set = Some("dutch-2025".into());
    assert_eq!(
        created(Given::nothing().when(create_cmd(c)).unwrap()).rule_set,
        "dutch-2025"
    );
}

#[test]
fn other_systems_get_their_own_rule_set() {
    let mut c = create(7);
    c.pairing_system = PairingSystem::RoundRobin;
    assert_eq!(
        created(Given::nothing().when(create_cmd(c.clone())).unwrap()).rule_set,
        "berger"
    );
    c.rule_set = Some("dutch-2025".into());
    let err = Given::nothing().when(create_cmd(c)).unwrap_err();
    assert!(
        matches!(&err, DomainError::Invalid { field, .. } if field == "rule_set"),
        "{err}"
    );
}

#[test]
fn unknown_rule_set_is_rejected() {
    let mut c = create(9);
    c.rule_set = Some("dutch-1999".into());
    let err = Given::nothing().when(create_cmd(c)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid rule_set: \"dutch-1999\" is not a rule set of Dutch (known: dutch-2017, dutch-2025)"
    );
}

#[test]
fn custom_point_system_is_kept_exactly() {
    let mut c = create(9);
    c.scoring = PointSystem::with_win_draw(Score::points(3), Score::points(1));
    let t = created(Given::nothing().when(create_cmd(c)).unwrap());
    assert_eq!(t.scoring.win, Score(30));
    assert_eq!(t.scoring.draw, Score(10));
    assert_eq!(t.scoring.pairing_bye, Score(30));
}

#[test]
fn invalid_point_systems_are_rejected() {
    let cases: Vec<(PointSystem, &str)> = vec![
        (
            PointSystem::with_win_draw(Score::ONE, Score::points(2)),
            "scoring.draw",
        ),
        (
            PointSystem::with_win_draw(Score::ZERO, Score::ZERO),
            "scoring.win",
        ),
        (
            PointSystem {
                loss: Score(-5),
                ..PointSystem::default()
            },
            "scoring.loss",
        ),
        (
            PointSystem {
                pairing_bye: Score(15),
                ..PointSystem::default()
            },
            "scoring.pairing_bye",
        ),
        (
            PointSystem {
                forfeit_loss: Score::HALF,
                ..PointSystem::default()
            },
            "scoring.forfeit_loss",
        ),
        (
            PointSystem {
                loss: Score::points(1),
                ..PointSystem::default()
            },
            "scoring.loss",
        ),
    ];
    for (scoring, field) in cases {
        let mut c = create(9);
        c.scoring = scoring;
        match Given::nothing().when(create_cmd(c)) {
            Err(DomainError::Invalid { field: f, .. }) => assert_eq!(f, field),
            other => panic!("{field}: {other:?}"),
        }
    }
}

#[test]
fn baku_acceleration_defaults_follow_the_rule_set() {
    let mut c = create(11);
    c.acceleration = Some(AccelerationChoice {
        method: AccelerationMethod::Baku,
        rounds: None,
    });
    let t = created(Given::nothing().when(create_cmd(c.clone())).unwrap());
    assert_eq!(
        t.acceleration,
        Some(Acceleration {
            method: AccelerationMethod::Baku,
            first_round: 1,
            last_round: 6
        })
    );
    c.rule_set = Some("dutch-2017".into());
    let t = created(Given::nothing().when(create_cmd(c.clone())).unwrap());
    assert_eq!(
        t.acceleration,
        Some(Acceleration {
            method: AccelerationMethod::Baku,
            first_round: 1,
            last_round: 5
        })
    );
    c.acceleration = Some(AccelerationChoice {
        method: AccelerationMethod::Baku,
        rounds: Some((1, 4)),
    });
    let t = created(Given::nothing().when(create_cmd(c)).unwrap());
    assert_eq!(t.acceleration.map(|a| a.last_round), Some(4));
}

#[test]
fn baku_acceleration_is_rejected_where_it_does_not_apply() {
    let baku = |rounds| {
        Some(AccelerationChoice {
            method: AccelerationMethod::Baku,
            rounds,
        })
    };
    let mut c = create(9);
    c.acceleration = baku(Some((1, 10)));
    assert!(
        matches!(Given::nothing().when(create_cmd(c.clone())), Err(DomainError::Invalid { field, .. }) if field == "acceleration")
    );
    c.acceleration = baku(Some((0, 3)));
    assert!(Given::nothing().when(create_cmd(c.clone())).is_err());
    c.acceleration = baku(None);
    c.scoring = PointSystem::with_win_draw(Score::points(3), Score::points(1));
    let err = Given::nothing().when(create_cmd(c.clone())).unwrap_err();
    assert!(err.to_string().contains("a win is two draws"), "{err}");
    c.scoring = PointSystem::default();
    c.pairing_system = PairingSystem::RoundRobin;
    let err = Given::nothing().when(create_cmd(c)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid acceleration: RoundRobin is not a Swiss system"
    );
}

type Change = Box<dyn Fn(&mut CreateTournament)>;

#[test]
fn invalid_tournament_data_is_rejected_naming_the_field() {
    let cases: Vec<(Change, &str)> = vec![
        (Box::new(|c| c.name = "   ".into()), "name"),
        (Box::new(|c| c.name = "Open\u{7}".into()), "name"),
        (Box::new(|c| c.end_date = date("2025-07-31")), "end_date"),
        (
            Box::new(|c| c.start_date = date("2025-08-00")),
            "start_date",
        ),
        (Box::new(|c| c.rounds = 0), "rounds"),
        (Box::new(|c| c.rounds = 100), "rounds"),
        (Box::new(|c| c.federation = "Norway".into()), "federation"),
        (Box::new(|c| c.tie_breaks = "BH,,SB".into()), "tie_breaks"),
        (Box::new(|c| c.tie_breaks = "BH C1".into()), "tie_breaks"),
        (
            Box::new(|c| c.chief_arbiter = Arbiter::default()),
            "chief_arbiter.name",
        ),
        (
            Box::new(|c| c.chief_arbiter.title = "GM".into()),
            "chief_arbiter.title",
        ),
        (
            Box::new(|c| c.chief_arbiter.fide_id = Some(0)),
            "chief_arbiter.fide_id",
        ),
        (
            Box::new(|c| c.deputy_arbiters = vec![Arbiter::default()]),
            "deputy_arbiters[0].name",
        ),
    ];
    for (change, field) in cases {
        let mut c = create(9);
        change(&mut c);
        match Given::nothing().when(create_cmd(c)) {
            Err(DomainError::Invalid { field: f, reason }) => {
                assert_eq!(f, field, "{reason}");
                assert!(!reason.is_empty());
            }
            other => panic!("{field}: {other:?}"),
        }
    }
}

#[test]
fn creating_twice_is_rejected() {
    let err = Given::tournament(9)
        .when(Command::CreateTournament(create(9)))
        .unwrap_err();
    assert_eq!(err, DomainError::TournamentAlreadyCreated);
}

/// One command of every kind but CreateTournament.
pub fn one_of_each() -> Vec<Command> {
    vec![
        Command::UpdateTournament(UpdateTournament {
            name: Some("X".into()),
            ..Default::default()
        }),
        register("A", 2000),
        withdraw(1, 1),
        bye(1, 1, ByeKind::HalfPoint),
        Command::CancelBye(CancelBye {
            player: 1,
            round: 1,
        }),
        absent(1, 1),
        start(1),
        Command::RequestPairing(RequestPairing { round: 1 }),
        propose(1, 1, &[(1, 2)], None),
        Command::ReportPairingFailure(ReportPairingFailure {
            round: 1,
            attempt: 1,
            engine: engine(),
            rule_set: "dutch-2025".into(),
            based_on_version: 1,
            input_digest: digest(),
            reason: "no pairing".into(),
        }),
        publish(1),
        result(1, 1, BoardResult::Draw),
        correct(1, 1, BoardResult::Draw),
        close(1),
        Command::FinishTournament(FinishTournament {}),
    ]
}

#[test]
fn every_command_but_create_needs_a_tournament() {
    for c in one_of_each() {
        let err = Given::nothing().when(c.clone()).unwrap_err();
        assert_eq!(err, DomainError::TournamentNotCreated { command: c.name() });
        assert!(err.to_string().contains(c.name()));
    }
}

#[test]
fn update_tournament_changes_only_what_is_given() {
    let given = Given::with_players(5, 4).round(
        1,
        &[(1, 3), (4, 2)],
        None,
        &[BoardResult::Draw, BoardResult::Draw],
    );
    let then = given
        .when(Command::UpdateTournament(UpdateTournament {
            name: Some("Renamed Open".into()),
            rounds: Some(7),
            tie_breaks: Some("SB, DE".into()),
            ..Default::default()
        }))
        .unwrap();
    assert_eq!(
        then,
        vec![Event::TournamentUpdated(TournamentUpdated {
            name: Some("Renamed Open".into()),
            rounds: Some(7),
            tie_breaks: Some(vec!["SB".into(), "DE".into()]),
            ..Default::default()
        })]
    );
    let state = given.clone().event(then[0].clone()).state();
    let t = state.tournament().unwrap();
    assert_eq!(
        (t.name.as_str(), t.rounds, t.place.as_str()),
        ("Renamed Open", 7, "")
    );
    assert_eq!(t.tie_breaks, vec!["SB".to_string(), "DE".to_string()]);
}

/// The prize fund the regulations announce is kept (the last one replaces the one before);
/// one the regulations could not announce is refused naming the field.
#[test]
fn the_prize_fund_is_announced_and_checked() {
    let fund = PrizeFund {
        currency: "EUR".into(),
        places: vec![100_000, 50_000],
        sharing: PrizeSharing::Hort,
        share_among_all_tied: false,
        several_prizes_per_player: false,
        categories: vec![PrizeCategory {
            name: "Under 2000".into(),
            prizes: vec![10_000],
            rating_below: Some(2000),
            ..Default::default()
        }],
    };
    let given = Given::with_players(5, 4);
    let announce = |f: PrizeFund| {
        Command::UpdateTournament(UpdateTournament {
            prize_fund: Some(f),
            ..Default::default()
        })
    };
    let then = given.when(announce(fund.clone())).unwrap();
    let state = given.clone().event(then[0].clone()).state();
    assert_eq!(state.prize_fund(), Some(&fund));
    for (broken, field) in [
        (
            PrizeFund {
                places: vec![100, -1],
                ..fund.clone()
            },
            "prize_fund.places[1]",
        ),
        (
            PrizeFund {
                currency: "euro".into(),
                ..fund.clone()
            },
            "prize_fund.currency",
        ),
        (
            PrizeFund {
                categories: vec![PrizeCategory {
                    rating_from: Some(2000),
                    ..fund.categories[0].clone()
                }],
                ..fund.clone()
            },
            "prize_fund.categories[0].rating_below",
        ),
        (
            PrizeFund {
                categories: vec![PrizeCategory {
                    prizes: vec![],
                    ..fund.categories[0].clone()
                }],
                ..fund.clone()
            },
            "prize_fund.categories[0].prizes",
        ),
    ] {
        let err = given.when(announce(broken)).unwrap_err();
        assert!(
            matches!(err, DomainError::Invalid { field: ref f, .. } if f == field),
            "{field}: {err}"
        );
    }
}

#[test]
fn update_tournament_rejections() {
    let given = Given::with_players(5, 4)
        .paired(1, &[(1, 3), (4, 2)], None)
        .results(1, &[BoardResult::Draw; 2])
        .cmd(close(1))
        .cmd(start(2));
    assert_eq!(
        given.when(Command::UpdateTournament(UpdateTournament::default())),
        Err(DomainError::NothingToUpdate)
    );
    let err = given
        .when(Command::UpdateTournament(UpdateTournament {
            rounds: Some(1),
            ..Default::default()
        }))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid rounds: 1 is fewer than the 2 rounds already started"
    );
    let err = given
        .when(Command::UpdateTournament(UpdateTournament {
            end_date: Some(date("2025-07-01")),
            ..Default::default()
        }))
        .unwrap_err();
    assert!(
        matches!(err, DomainError::Invalid { ref field, .. } if field == "end_date"),
        "{err}"
    );
    let err = given
        .when(Command::UpdateTournament(UpdateTournament {
            name: Some(" ".into()),
            ..Default::default()
        }))
        .unwrap_err();
    assert!(
        matches!(err, DomainError::Invalid { ref field, .. } if field == "name"),
        "{err}"
    );
}

/// A one-round tournament of two players, played and closed.
fn one_round_played() -> Given {
    Given::with_players(1, 2).round(1, &[(1, 2)], None, &[BoardResult::Draw])
}

#[test]
fn finish_tournament_after_every_round_is_closed() {
    // Two players meeting twice is only possible in a round robin; use a double round robin.
    let mut c = create(2);
    c.pairing_system = PairingSystem::DoubleRoundRobin;
    let mut g = Given::created_with(c)
        .cmd(register("A", 2000))
        .cmd(register("B", 1900));
    for r in 1..=2 {
        let boards = if r == 1 { [(1, 2)] } else { [(2, 1)] };
        let mut p = propose_cmd(r, 1, &boards, None);
        p.rule_set = "berger-double".into();
        g = g
            .cmd(start(r))
            .cmd(Command::ProposePairing(p))
            .cmd(publish(r))
            .results(r, &[BoardResult::Draw])
            .cmd(close(r));
    }
    let then = g
        .when(Command::FinishTournament(FinishTournament {}))
        .unwrap();
    assert_eq!(
        then,
        vec![Event::TournamentFinished(TournamentFinished {
            rounds_played: 2
        })]
    );
    let state = g.clone().event(then[0].clone()).state();
    assert!(state.is_finished());
    assert_eq!(state.score(1), Some(Score::ONE));
}

#[test]
fn finish_tournament_rejected_while_rounds_remain() {
    let g = one_round_played();
    let two = Given::with_players(2, 2).round(1, &[(1, 2)], None, &[BoardResult::Draw]);
    assert_eq!(
        two.when(Command::FinishTournament(FinishTournament {})),
        Err(DomainError::RoundsRemaining {
            closed: 1,
            rounds: 2
        })
    );
    // Round 1 of 1 published but not closed.
    let open = Given::with_players(1, 2).paired(1, &[(1, 2)], None);
    assert_eq!(
        open.when(Command::FinishTournament(FinishTournament {})),
        Err(DomainError::RoundsRemaining {
            closed: 0,
            rounds: 1
        })
    );
    assert!(
        g.when(Command::FinishTournament(FinishTournament {}))
            .is_ok()
    );
}

#[test]
fn a_finished_tournament_accepts_only_corrections() {
    let g = one_round_played().cmd(Command::FinishTournament(FinishTournament {}));
    for c in one_of_each() {
        let res = g.when(c.clone());
        if matches!(c, Command::CorrectResult(_)) {
            // Draw → draw is unchanged; the command itself is accepted for consideration.
            assert_eq!(
                res,
                Err(DomainError::ResultUnchanged {
                    round: 1,
                    board: 1,
                    result: BoardResult::Draw
                })
            );
        } else {
            assert_eq!(
                res,
                Err(DomainError::TournamentFinished {
                    command: c.name(),
                    rounds_played: 1
                }),
                "{}",
                c.name()
            );
        }
    }
    assert_eq!(
        g.when(Command::CreateTournament(create(3))),
        Err(DomainError::TournamentAlreadyCreated)
    );
}
