//! given(events) / when(command) / then(events or error).

#![allow(dead_code)]

use arbiter_core::tournament::*;
use arbiter_core::{Color, PlayerId};

pub fn date(s: &str) -> Date {
    s.parse().unwrap()
}

/// The digest an engine would send (any 32 bytes).
pub fn digest() -> Vec<u8> {
    vec![7; 32]
}

pub fn engine() -> Engine {
    Engine {
        name: "test-engine".into(),
        version: "1.0".into(),
    }
}

/// A 1/½/0 Dutch tournament of `rounds` rounds starting 2025-08-01 (rule set dutch-2025).
pub fn create(rounds: u32) -> CreateTournament {
    let mut c = CreateTournament::new("Test Open", date("2025-08-01"), date("2025-08-09"), rounds);
    c.chief_arbiter = Arbiter::named("Chief, Arbiter");
    c
}

pub fn register(name: &str, rating: u32) -> Command {
    Command::RegisterPlayer(RegisterPlayer::new(name, rating))
}

pub fn start(round: u32) -> Command {
    Command::StartRound(StartRound {
        round,
        scheduled_unix_ms: None,
    })
}

pub fn pairs(list: &[(PlayerId, PlayerId)]) -> Vec<Pair> {
    list.iter().map(|&(w, b)| Pair::new(w, b)).collect()
}

pub fn propose_cmd(
    round: u32,
    attempt: u32,
    boards: &[(PlayerId, PlayerId)],
    bye: Option<PlayerId>,
) -> ProposePairing {
    ProposePairing {
        round,
        attempt,
        boards: pairs(boards),
        bye,
        engine: engine(),
        rule_set: "dutch-2025".into(),
        based_on_version: 10,
        input_digest: digest(),
        explanation: "bracket 0: 1-3, 2-4".into(),
        team_bye: None,
        team_matches: Vec::new(),
    }
}

pub fn propose(
    round: u32,
    attempt: u32,
    boards: &[(PlayerId, PlayerId)],
    bye: Option<PlayerId>,
) -> Command {
    Command::ProposePairing(propose_cmd(round, attempt, boards, bye))
}

pub fn publish(round: u32) -> Command {
    Command::PublishPairing(PublishPairing {
        round,
        proposal_version: Some(42),
        changes: None,
        note: String::new(),
    })
}

pub fn result(round: u32, board: u32, result: BoardResult) -> Command {
    Command::RecordResult(RecordResult {
        round,
        board,
        result,
    })
}

pub fn correct(round: u32, board: u32, result: BoardResult) -> Command {
    Command::CorrectResult(CorrectResult {
        round,
        board,
        result,
        reason: "scoresheets show otherwise".into(),
    })
}

pub fn close(round: u32) -> Command {
    Command::CloseRound(CloseRound { round })
}

pub fn bye(player: PlayerId, round: u32, kind: ByeKind) -> Command {
    Command::RequestBye(RequestBye {
        player,
        round,
        kind,
    })
}

pub fn withdraw(player: PlayerId, from_round: u32) -> Command {
    Command::WithdrawPlayer(WithdrawPlayer {
        player,
        from_round,
        reason: "illness".into(),
    })
}

pub fn absent(player: PlayerId, round: u32) -> Command {
    Command::DeclareAbsence(DeclareAbsence {
        player,
        round,
        reason: "exam".into(),
    })
}

/// Events so far, built by running commands (each must succeed) or by appending raw events.
#[derive(Clone, Default)]
pub struct Given {
    pub events: Vec<Event>,
}

impl Given {
    pub fn nothing() -> Given {
        Given::default()
    }

    pub fn tournament(rounds: u32) -> Given {
        Given::nothing().cmd(Command::CreateTournament(create(rounds)))
    }

    pub fn created_with(c: CreateTournament) -> Given {
        Given::nothing().cmd(Command::CreateTournament(c))
    }

    /// `rounds` rounds and players rated 2400, 2300, ... (pairing numbers 1, 2, ...).
    pub fn with_players(rounds: u32, n: u32) -> Given {
        let mut g = Given::tournament(rounds);
        for i in 0..n {
            g = g.cmd(register(&format!("Player {:02}", i + 1), 2400 - 100 * i));
        }
        g
    }

    pub fn state(&self) -> State {
        let mut s = State::default();
        for (i, e) in self.events.iter().enumerate() {
            if let Err(err) = s.try_apply(e) {
                panic!("given event {i} ({}) does not fit: {err}", e.kind());
            }
        }
        s
    }

    pub fn cmd(mut self, c: Command) -> Given {
        match decide(&self.state(), &c) {
            Ok(events) => self.events.extend(events),
            Err(e) => panic!("given command {} failed: {e}", c.name()),
        }
        self
    }

    pub fn event(mut self, e: Event) -> Given {
        self.events.push(e);
        self
    }

    pub fn when(&self, c: Command) -> Result<Vec<Event>, DomainError> {
        decide(&self.state(), &c)
    }

    /// The state after the command's events (the command must succeed).
    pub fn after(&self, c: Command) -> State {
        self.clone().cmd(c).state()
    }

    /// Starts, proposes, publishes round `round` with the given boards and bye.
    pub fn paired(
        self,
        round: u32,
        boards: &[(PlayerId, PlayerId)],
        bye: Option<PlayerId>,
    ) -> Given {
        self.cmd(start(round))
            .cmd(propose(round, 1, boards, bye))
            .cmd(publish(round))
    }

    /// Records the results of boards 1.. in order.
    pub fn results(mut self, round: u32, results: &[BoardResult]) -> Given {
        for (i, r) in results.iter().enumerate() {
            self = self.cmd(result(round, i as u32 + 1, *r));
        }
        self
    }

    /// A whole round: paired, results in, closed.
    pub fn round(
        self,
        round: u32,
        boards: &[(PlayerId, PlayerId)],
        bye: Option<PlayerId>,
        results: &[BoardResult],
    ) -> Given {
        self.paired(round, boards, bye)
            .results(round, results)
            .cmd(close(round))
    }
}

pub fn created_event(rounds: u32) -> Event {
    Given::tournament(rounds).events.remove(0)
}

pub fn player(pn: PlayerId, name: &str, rating: u32) -> Player {
    Player {
        player_id: pn,
        name: name.into(),
        rating,
        ..Player::default()
    }
}

pub fn requested(round: u32, attempt: u32) -> Event {
    Event::PairingRequested(PairingRequested {
        round,
        rule_set: "dutch-2025".into(),
        attempt,
    })
}

pub fn game(
    opponent: PlayerId,
    color: Color,
    result: arbiter_core::ResultCode,
) -> arbiter_core::RoundEntry {
    arbiter_core::RoundEntry::game(opponent, color, result)
}
