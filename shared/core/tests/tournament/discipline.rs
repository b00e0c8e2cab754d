//! Sanctions with their evidence and the irregularities the rules settle (spec online-hybrid
//! §9-§10; scenarios 5 and 9 of §15).

use crate::support::*;
use arbiter_core::ResultCode;
use arbiter_core::tournament::*;

fn evidence(kind: EvidenceKind) -> Evidence {
    Evidence {
        kind,
        reference: "report of the deputy arbiter".into(),
        note: String::new(),
    }
}

fn sanction(player: u32, kind: SanctionKind, round: Option<u32>, ev: &[EvidenceKind]) -> Command {
    Command::ImposeSanction(ImposeSanction {
        player,
        kind,
        round,
        rounds: Vec::new(),
        amount: String::new(),
        article: String::new(),
        evidence: ev.iter().map(|k| evidence(*k)).collect(),
        note: String::new(),
    })
}

/// Four players, round 1 published: board 1 is 1 - 3, board 2 is 4 - 2.
fn paired() -> Given {
    Given::with_players(5, 4).paired(1, &[(1, 3), (4, 2)], None)
}

#[test]
fn scenario_9_statistical_evidence_alone_is_refused() {
    let g = paired();
    let e = g
        .when(sanction(
            3,
            SanctionKind::GameLost,
            Some(1),
            &[EvidenceKind::Statistical],
        ))
        .unwrap_err();
    assert_eq!(e, DomainError::StatisticalEvidenceOnly);
    assert!(e.to_string().contains("screening"), "{e}");
    let e = g
        .when(sanction(3, SanctionKind::Warning, None, &[]))
        .unwrap_err();
    assert_eq!(e, DomainError::StatisticalEvidenceOnly);
    // With physical evidence beside the statistics it stands.
    let then = g
        .when(sanction(
            3,
            SanctionKind::GameLost,
            Some(1),
            &[EvidenceKind::Statistical, EvidenceKind::PhysicalEvidence],
        ))
        .unwrap();
    let [Event::SanctionImposed(s), Event::ResultRecorded(r)] = then.as_slice() else {
        panic!("{then:?}")
    };
    assert_eq!(
        (s.kind, s.article.as_str()),
        (SanctionKind::GameLost, "Laws 12.9.6")
    );
    // Player 3 has Black on board 1: he loses, player 1 wins, as an arbiter's decision.
    assert_eq!(
        (r.board, r.result),
        (
            1,
            BoardResult::ArbiterDecision {
                white: ResultCode::Win,
                black: ResultCode::Loss
            }
        )
    );
}

#[test]
fn a_game_lost_after_its_result_is_a_correction() {
    let g = paired().results(1, &[BoardResult::BlackWins, BoardResult::Draw]);
    let then = g
        .when(sanction(
            3,
            SanctionKind::GameLost,
            Some(1),
            &[EvidenceKind::Admission],
        ))
        .unwrap();
    let [Event::SanctionImposed(_), Event::ResultCorrected(c)] = then.as_slice() else {
        panic!("{then:?}")
    };
    assert_eq!(c.previous, BoardResult::BlackWins);
    assert!(c.reason.contains("Laws 12.9.6"), "{}", c.reason);
    // Not on a board in that round.
    let g = Given::with_players(5, 5).paired(1, &[(1, 3), (4, 2)], Some(5));
    let e = g
        .when(sanction(
            5,
            SanctionKind::GameLost,
            Some(1),
            &[EvidenceKind::Testimony],
        ))
        .unwrap_err();
    assert!(
        matches!(
            e,
            DomainError::NoGameInRound {
                round: 1,
                player: 5
            }
        ),
        "{e}"
    );
}

#[test]
fn exclusion_and_expulsion_take_effect_as_absences_and_a_withdrawal() {
    let g = paired()
        .results(1, &[BoardResult::Draw, BoardResult::Draw])
        .cmd(close(1));
    let mut c = ImposeSanction {
        player: 2,
        kind: SanctionKind::ExclusionFromRounds,
        round: None,
        rounds: vec![3, 2],
        amount: String::new(),
        article: String::new(),
        evidence: vec![evidence(EvidenceKind::ObservedBreach)],
        note: "arrived drunk".into(),
    };
    let then = g.when(Command::ImposeSanction(c.clone())).unwrap();
    let kinds: Vec<&str> = then.iter().map(|e| e.kind()).collect();
    assert_eq!(
        kinds,
        ["SanctionImposed", "AbsenceDeclared", "AbsenceDeclared"]
    );
    let state = g.clone().cmd(Command::ImposeSanction(c.clone())).state();
    assert_eq!(state.availability(2, 2), Some(Availability::Absent));
    assert_eq!(state.availability(2, 3), Some(Availability::Absent));
    c.kind = SanctionKind::Expulsion;
    c.rounds.clear();
    let state = g.cmd(Command::ImposeSanction(c)).state();
    assert_eq!(
        state.availability(2, 2),
        Some(Availability::Withdrawn { from_round: 2 })
    );
    assert_eq!(state.sanctions().len(), 1);
}

#[test]
fn time_and_money_say_how_much() {
    let e = paired()
        .when(sanction(
            1,
            SanctionKind::Fine,
            None,
            &[EvidenceKind::ObservedBreach],
        ))
        .unwrap_err();
    assert!(e.to_string().contains("amount"), "{e}");
}

fn irregularity(
    board: u32,
    kind: IrregularityKind,
    plies: u32,
    decision: Option<IrregularityDecision>,
) -> Command {
    Command::RecordIrregularity(RecordIrregularity {
        round: 1,
        board,
        kind,
        plies,
        decision,
        note: String::new(),
    })
}

#[test]
fn scenario_5_colours_reversed_restart_before_ten_moves_continue_after() {
    let g = paired();
    let then = g
        .when(irregularity(1, IrregularityKind::ColoursReversed, 16, None))
        .unwrap();
    let [Event::IrregularityRecorded(i)] = then.as_slice() else {
        panic!("{then:?}")
    };
    assert_eq!(i.decision, IrregularityDecision::RestartWithCorrectColours);
    assert_eq!(i.article, "Laws 7.3");
    let then = g
        .when(irregularity(1, IrregularityKind::ColoursReversed, 20, None))
        .unwrap();
    let [Event::IrregularityRecorded(i)] = then.as_slice() else {
        panic!("{then:?}")
    };
    assert_eq!(i.decision, IrregularityDecision::Continue);
    // The rule is not the arbiter's to change.
    let e = g
        .when(irregularity(
            1,
            IrregularityKind::ColoursReversed,
            20,
            Some(IrregularityDecision::RestartWithCorrectColours),
        ))
        .unwrap_err();
    assert!(e.to_string().contains("the rule decides Continue"), "{e}");
    // Other irregularities take the arbiter's decision, one the rule allows.
    assert!(
        g.when(irregularity(
            2,
            IrregularityKind::ClockSettingsWrong,
            30,
            None
        ))
        .is_err()
    );
    let then = g
        .when(irregularity(
            2,
            IrregularityKind::ClockSettingsWrong,
            30,
            Some(IrregularityDecision::ClocksCorrected),
        ))
        .unwrap();
    let [Event::IrregularityRecorded(i)] = then.as_slice() else {
        panic!("{then:?}")
    };
    assert_eq!(i.article, "Laws 6.10.2");
}
