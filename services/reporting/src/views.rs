//! The read models, computed from a folded tournament: pairings of a round and the crosstable.
//! Their places come from [`arbiter_standings`]; the TRF export is `arbiter_interchange`'s.

use arbiter_core::tournament::{PublishedPairing, State};
use arbiter_core::{Color, PlayerId, Score};
use arbiter_proto::convert::board_result_to_wire;
use arbiter_proto::events::v1 as pb;
use serde::Serialize;

/// One board of a round's pairings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BoardView {
    pub board: u32,
    pub white: PlayerId,
    pub black: PlayerId,
    /// e.g. "1-0", "½-½", "+/-"; empty while the game is on.
    pub result: String,
    /// Points before the round, tenths.
    pub white_points: i32,
    pub black_points: i32,
    #[serde(skip)]
    pub wire_result: Option<arbiter_core::tournament::BoardResult>,
}

/// A player not on a board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnpairedView {
    pub player_id: PlayerId,
    /// The TRF code: U (pairing-allocated bye), H, F, Z.
    pub code: char,
}

/// The pairings of a round: published, or the standing proposal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoundView {
    pub round: u32,
    pub published: bool,
    pub boards: Vec<BoardView>,
    pub unpaired: Vec<UnpairedView>,
}

/// The pairings of `round`: the published pairing with its results, else the current proposal
/// (unpublished); `None` when the round has neither.
pub fn round_view(state: &State, round: u32) -> Option<RoundView> {
    let before = |pn: PlayerId| {
        state
            .score_after(pn, round.saturating_sub(1))
            .unwrap_or(Score::ZERO)
            .tenths()
    };
    if let Some(p) = state.published(round) {
        return Some(published_view(&p, before));
    }
    let p = state.proposal(round)?;
    Some(RoundView {
        round,
        published: false,
        boards: p
            .boards
            .iter()
            .map(|b| BoardView {
                board: b.number,
                white: b.white,
                black: b.black,
                result: String::new(),
                white_points: before(b.white),
                black_points: before(b.black),
                wire_result: None,
            })
            .collect(),
        unpaired: p
            .unpaired
            .iter()
            .map(|u| UnpairedView {
                player_id: u.player_id,
                code: u.code.trf_char(),
            })
            .collect(),
    })
}

fn published_view(p: &PublishedPairing, before: impl Fn(PlayerId) -> i32) -> RoundView {
    RoundView {
        round: p.round,
        published: true,
        boards: p
            .boards
            .iter()
            .map(|b| BoardView {
                board: b.number,
                white: b.white,
                black: b.black,
                result: b.result.map(|r| r.to_string()).unwrap_or_default(),
                white_points: before(b.white),
                black_points: before(b.black),
                wire_result: b.result,
            })
            .collect(),
        unpaired: p
            .unpaired
            .iter()
            .map(|u| UnpairedView {
                player_id: u.player_id,
                code: u.code.trf_char(),
            })
            .collect(),
    }
}

impl BoardView {
    /// The board with its result as the reporting API sends it.
    pub fn to_wire(&self) -> arbiter_proto::reporting::v1::PairedBoard {
        let (result, white_code, black_code) = match self.wire_result {
            Some(r) => {
                let (named, _, _) = board_result_to_wire(r);
                let (w, b) = r.codes();
                (
                    named as i32,
                    pb::ResultCode::from(w) as i32,
                    pb::ResultCode::from(b) as i32,
                )
            }
            None => (0, 0, 0),
        };
        arbiter_proto::reporting::v1::PairedBoard {
            board: Some(pb::Board {
                number: self.board,
                white: self.white,
                black: self.black,
            }),
            result,
            white_code,
            black_code,
            white_score: Some(arbiter_proto::common::v1::Decimal::tenths(
                self.white_points,
            )),
            black_score: Some(arbiter_proto::common::v1::Decimal::tenths(
                self.black_points,
            )),
            // Names are the API's to add (GetPairings): the view keeps numbers.
            ..Default::default()
        }
    }
}

pub use arbiter_standings::complete_rounds;

/// One row of the crosstable.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CrossRow {
    pub player_id: PlayerId,
    pub name: String,
    pub points: i32,
    pub rank: u32,
    /// Last place of a shared range (`rank` when not shared; 0 without a place).
    pub rank_to: u32,
    /// Per published round: (opponent or 0, colour, TRF code or ' ' while the game is on).
    pub cells: Vec<(PlayerId, Option<Color>, char)>,
}

/// The crosstable over every published round, in the order of the standings after the
/// complete rounds ([`arbiter_standings`]; `rank` is the first place of a shared range, 0 before
/// any round is complete), players without a place by pairing number.
pub fn crosstable(state: &State) -> Vec<CrossRow> {
    let ranking = arbiter_standings::ranking(state, None, None).ok();
    let published = state.published_rounds();
    let mut players: Vec<_> = state.players().collect();
    let place = |pn: PlayerId| {
        ranking
            .as_ref()
            .filter(|r| r.after_round > 0)
            .and_then(|r| r.place_of(pn))
    };
    let order = |pn: PlayerId| {
        ranking
            .as_ref()
            .and_then(|r| r.standings.rows.iter().position(|s| s.id == pn))
            .unwrap_or(usize::MAX)
    };
    players.sort_by_key(|p| (order(p.pairing_number()), p.pairing_number()));
    players
        .into_iter()
        .map(|p| {
            let pn = p.pairing_number();
            let cells = (1..=published)
                .map(|r| match state.entry(pn, r) {
                    Some(e) => (e.opponent.unwrap_or(0), e.color, e.result.trf_char()),
                    None => {
                        // The game is on: opponent and colour from the published pairing.
                        let b = state.published(r).and_then(|pp| {
                            pp.boards
                                .iter()
                                .find(|b| b.white == pn || b.black == pn)
                                .copied()
                        });
                        match b {
                            Some(b) if b.white == pn => (b.black, Some(Color::White), ' '),
                            Some(b) => (b.white, Some(Color::Black), ' '),
                            None => (0, None, ' '),
                        }
                    }
                })
                .collect();
            let after = ranking.as_ref().map_or(0, |r| r.after_round);
            CrossRow {
                player_id: pn,
                name: p.player.name.clone(),
                points: state.score_after(pn, after).unwrap_or(Score::ZERO).tenths(),
                rank: place(pn).map_or(0, |(rank, _)| rank),
                rank_to: place(pn).map_or(0, |(_, to)| to),
                cells,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_core::tournament::{
        Arbiter, BoardResult, ByeKind, CloseRound, Command, CreateTournament, ProposePairing,
        PublishPairing, RecordResult, RegisterPlayer, RequestBye, StartRound, decide,
    };
    use arbiter_interchange::trf_export::trf_text;

    fn run(s: &mut State, c: Command) {
        for e in decide(s, &c).unwrap_or_else(|e| panic!("{}: {e}", c.name())) {
            s.apply(&e);
        }
    }

    /// Five players; round 1 played (1-4 drawn, 5-2 won by 2 on forfeit, 3 on the
    /// pairing-allocated bye); a half-point bye announced by 4 for round 2.
    fn played() -> State {
        let mut s = State::default();
        let d = "2025-09-01".parse().unwrap();
        let mut c = CreateTournament::new("Views", d, d, 3);
        c.chief_arbiter = Arbiter::named("Doe, Jane");
        run(&mut s, Command::CreateTournament(c));
        for i in 1..=5u32 {
            run(
                &mut s,
                Command::RegisterPlayer(RegisterPlayer::new(format!("Player, {i}"), 2100 - i)),
            );
        }
        run(
            &mut s,
            Command::StartRound(StartRound {
                round: 1,
                scheduled_unix_ms: None,
            }),
        );
        run(
            &mut s,
            Command::ProposePairing(ProposePairing {
                round: 1,
                attempt: 1,
                boards: vec![
                    arbiter_core::tournament::Pair::new(1, 4),
                    arbiter_core::tournament::Pair::new(5, 2),
                ],
                bye: Some(3),
                engine: arbiter_core::tournament::Engine {
                    name: "test".into(),
                    version: "1".into(),
                },
                rule_set: "dutch-2025".into(),
                based_on_version: 8,
                input_digest: vec![0; 32],
                explanation: String::new(),
                team_bye: None,
                team_matches: Vec::new(),
            }),
        );
        run(
            &mut s,
            Command::PublishPairing(PublishPairing {
                round: 1,
                proposal_version: Some(9),
                changes: None,
                note: String::new(),
            }),
        );
        run(
            &mut s,
            Command::RecordResult(RecordResult {
                round: 1,
                board: 1,
                result: BoardResult::Draw,
            }),
        );
        run(
            &mut s,
            Command::RecordResult(RecordResult {
                round: 1,
                board: 2,
                result: BoardResult::BlackWinsForfeit,
            }),
        );
        run(&mut s, Command::CloseRound(CloseRound { round: 1 }));
        run(
            &mut s,
            Command::RequestBye(RequestBye {
                player: 4,
                round: 2,
                kind: ByeKind::HalfPoint,
            }),
        );
        s
    }

    #[test]
    fn the_export_and_the_crosstable_rank_as_the_standings() {
        let s = played();
        let rk = arbiter_standings::ranking(&s, None, None).unwrap();
        assert_eq!(rk.after_round, 1);
        // Points decide first: 2 (forfeit win) and 3 (bye) 1, then 1 and 4 ½, then 5.
        let points: Vec<i32> = rk.lines().iter().map(|l| l.points).collect();
        assert_eq!(points, vec![10, 10, 5, 5, 0]);
        let file = arbiter_trf::parse(&trf_text(&s).unwrap()).unwrap().file;
        let x = crosstable(&s);
        for (i, l) in rk.lines().iter().enumerate() {
            let p = file.player(l.player_id).unwrap();
            assert_eq!(p.rank, Some(l.rank), "001 rank of {}", l.player_id);
            assert_eq!(p.points.tenths(), l.points);
            assert_eq!((x[i].player_id, x[i].rank), (l.player_id, l.rank));
        }
    }

    #[test]
    fn the_trf_export_reads_back_with_history_and_next_round_byes() {
        let s = played();
        let text = trf_text(&s).unwrap();
        let file = arbiter_trf::parse(&text)
            .expect("the export parses strictly")
            .file;
        assert_eq!(file.total_rounds(), 3);
        assert_eq!(file.initial_color(), Some(Color::White));
        let record = arbiter_pairing::trf::record_from_trf(&file).unwrap();
        assert_eq!(record.next_round(), 2);
        let r1 = record.recorded(1);
        assert_eq!(r1.bye, Some(3));
        assert_eq!(r1.boards.len(), 2);
        let p4 = file.player(4).unwrap();
        assert_eq!(
            p4.rounds.len(),
            2,
            "round 1 and the announced bye of round 2"
        );
        assert_eq!(
            p4.rounds[1].unwrap().result,
            arbiter_core::ResultCode::HalfBye
        );
        let input = record
            .input_for_round(2, arbiter_pairing::RuleSet::Dutch2025)
            .unwrap();
        assert!(!input.players.iter().find(|p| p.id == 4).unwrap().available);
        let p2 = file.player(2).unwrap();
        assert_eq!(p2.points, Score::ONE);
        assert_eq!(
            p2.rounds[0].unwrap().result,
            arbiter_core::ResultCode::ForfeitWin
        );
    }

    #[test]
    fn round_view_shows_results_and_points_before_the_round() {
        let s = played();
        let v = round_view(&s, 1).unwrap();
        assert!(v.published);
        assert_eq!(v.boards[0].result, "½-½");
        assert_eq!(v.boards[1].result, "-/+");
        assert_eq!(v.unpaired[0].code, 'U');
        assert!(round_view(&s, 2).is_none());
        let x = crosstable(&s);
        let p1 = x.iter().find(|r| r.player_id == 1).unwrap();
        assert_eq!(p1.cells, vec![(4, Some(Color::White), '=')]);
    }
}
