//! The round director's subcommands: a round from its start to its close (pairing, publishing,
//! results and corrections), finishing the tournament, and its state and schedule.

use super::reporting::render_pairings;
use super::*;

#[derive(clap::Args, Debug)]
pub struct StartRound {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// The round (from 1).
    round: u32,
    /// Seconds to wait for the proposal.
    #[arg(long, default_value_t = 30)]
    wait: u64,
}

impl StartRound {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let r = c.start_round(&self.tournament, self.round).await?;
        print_result("round started", &r);
        let wait = Duration::from_secs(self.wait);
        let p = c
            .wait_for_pairing(&self.tournament, self.round, wait)
            .await?;
        print!("{}", render_pairings(&p));
        Ok(())
    }
}

#[derive(clap::Args, Debug)]
pub struct Repair {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// The round (from 1).
    round: u32,
    /// Why the round is paired again (recorded).
    #[arg(long, default_value = "")]
    reason: String,
}

impl Repair {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let req = rd::RequestRepairingRequest {
            header: c.header(&self.tournament),
            round: self.round,
            reason: self.reason,
        };
        let rpc = c.director.request_repairing(req);
        command("repair", "new pairing requested", rpc).await
    }
}

#[derive(clap::Args, Debug)]
pub struct Publish {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// The round (from 1).
    round: u32,
    /// A board of the amended pairing, White-Black in board order, e.g. 12-5 or E3-E9
    /// (repeat for every board).
    #[arg(long = "board")]
    boards: Vec<String>,
    /// The pairing-allocated bye of the amended pairing.
    #[arg(long)]
    bye: Option<PlayerArg>,
    /// Why the pairing was amended (required with --board).
    #[arg(long, default_value = "")]
    note: String,
    #[command(flatten)]
    as_of: AsOf,
}

impl Publish {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let (t, round) = (&self.tournament, self.round);
        if self.boards.is_empty() && self.bye.is_none() {
            let r = c.publish(t, round).await?;
            print_result("published", &r);
        } else {
            let r = c
                .publish_amended(t, round, &self.boards, self.bye, self.note, self.as_of)
                .await?;
            print_result("amended pairing published", &r);
        }
        Ok(())
    }
}

// Not `Result`, which would hide the standard one here.
#[derive(clap::Args, Debug)]
pub struct RecordResult {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// The round (from 1).
    round: u32,
    /// The board number of the round's published pairing.
    board: u32,
    /// 1-0, 0-1, 1/2 (or =), +/- and -/+ (forfeits), -/- (double forfeit), W/L, D/D, L/W
    /// (played, not rated).
    #[arg(allow_hyphen_values = true)]
    result: String,
}

impl RecordResult {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let res = result_arg(&self.result)?;
        let r = c
            .result(&self.tournament, self.round, self.board, res)
            .await?;
        print_result("result recorded", &r);
        Ok(())
    }
}

#[derive(clap::Args, Debug)]
pub struct Correct {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// The round (from 1).
    round: u32,
    /// The board number of the round's published pairing.
    board: u32,
    /// The corrected result, as for `result`.
    #[arg(allow_hyphen_values = true)]
    result: String,
    /// Why the result is corrected (required; recorded).
    #[arg(long)]
    reason: String,
}

impl Correct {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let (w, wc, bc) = board_result_to_wire(result_arg(&self.result)?);
        let req = rd::CorrectResultRequest {
            header: c.header(&self.tournament),
            round: self.round,
            board: self.board,
            corrected: w as i32,
            white_code: wc,
            black_code: bc,
            reason: self.reason,
        };
        command(
            "correct",
            "result corrected",
            c.director.correct_result(req),
        )
        .await
    }
}

#[derive(clap::Args, Debug)]
pub struct Close {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// The round (from 1).
    round: u32,
}

impl Close {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let r = c.close(&self.tournament, self.round).await?;
        print_result("round closed", &r);
        Ok(())
    }
}

#[derive(clap::Args, Debug)]
pub struct Finish {
    /// The tournament's identifier (as given at creation).
    tournament: String,
}

impl Finish {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let req = rd::FinishTournamentRequest {
            header: c.header(&self.tournament),
        };
        command("finish", "finished", c.director.finish_tournament(req)).await
    }
}

#[derive(clap::Args, Debug)]
pub struct Show {
    /// The tournament's identifier (as given at creation).
    tournament: String,
}

impl Show {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let req = rd::GetTournamentRequest {
            tournament: Clients::tref(&self.tournament),
        };
        let s = call("show", c.director.get_tournament(req)).await?;
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
                    Ok(rd::CorrectionEffect::NextPairing) => "the next pairing and the standings",
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
        Ok(())
    }
}

#[derive(clap::Args, Debug)]
pub struct Schedule {
    /// The tournament's identifier (as given at creation).
    tournament: String,
}

impl Schedule {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let req = rd::GetTournamentRequest {
            tournament: Clients::tref(&self.tournament),
        };
        let s = call("schedule", c.director.get_schedule(req)).await?;
        println!(
            "{}: {}, {} players, {} rounds, version {}",
            s.tournament_id,
            s.rule_set,
            s.players,
            s.rounds.len(),
            s.version
        );
        match &s.lots {
            None => {
                println!("lots: not drawn through the service (numbers in order of registration)")
            }
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
        Ok(())
    }
}

impl Clients {
    pub async fn start_round(
        &mut self,
        tournament: &str,
        round: u32,
    ) -> Result<CommandResult, Exit> {
        let req = rd::StartRoundRequest {
            header: self.header(tournament),
            round,
            scheduled_unix_ms: 0,
        };
        call("start-round", self.director.start_round(req)).await
    }

    pub async fn publish(&mut self, tournament: &str, round: u32) -> Result<CommandResult, Exit> {
        let req = rd::PublishPairingRequest {
            header: self.header(tournament),
            round,
            proposal_version: 0,
            boards: Vec::new(),
            unpaired: Vec::new(),
            note: String::new(),
            ..Default::default()
        };
        call("publish", self.director.publish_pairing(req)).await
    }

    /// Publishes the arbiter's own pairing of `round`: boards "W-B" in board order and the
    /// pairing-allocated bye, players by pairing number (read as of `as_of`, else now) or by
    /// entry (translated with the list read now, and its version sent with them).
    pub async fn publish_amended(
        &mut self,
        tournament: &str,
        round: u32,
        boards: &[String],
        bye: Option<PlayerArg>,
        note: String,
        as_of: AsOf,
    ) -> Result<CommandResult, Exit> {
        let list = self.players(tournament).await?;
        let by_entry: BTreeMap<u32, u32> = list
            .players
            .iter()
            .map(|p| (p.entry, p.pairing_number))
            .collect();
        let uses_entries = boards.iter().any(|b| b.contains(['E', 'e']))
            || matches!(bye, Some(PlayerArg::Entry(_)));
        if uses_entries && as_of.as_of.is_some() {
            return Err(Exit::Invalid(
                "--as-of: give pairing numbers only, or entry numbers without --as-of".into(),
            ));
        }
        let number = |p: PlayerArg| -> Result<u32, Exit> {
            match p {
                PlayerArg::Number(n) => Ok(n),
                PlayerArg::Entry(e) => by_entry
                    .get(&e)
                    .copied()
                    .ok_or_else(|| Exit::Invalid(format!("E{e}: no player has this entry number"))),
            }
        };
        let mut wire = Vec::with_capacity(boards.len());
        for (i, b) in boards.iter().enumerate() {
            let (w, bl) = b.split_once('-').ok_or_else(|| {
                Exit::Invalid(format!("--board {b:?}: White-Black, e.g. 12-5 or E3-E9"))
            })?;
            let parse = |t: &str| -> Result<PlayerArg, Exit> {
                t.parse::<PlayerArg>()
                    .map_err(|e| Exit::Invalid(format!("--board {b:?}: {e}")))
            };
            wire.push(pb::Board {
                number: i as u32 + 1,
                white: number(parse(w)?)?,
                black: number(parse(bl)?)?,
            });
        }
        let unpaired = match bye {
            None => Vec::new(),
            Some(p) => vec![pb::Unpaired {
                player_id: number(p)?,
                code: pb::ResultCode::PairingBye as i32,
            }],
        };
        let req = rd::PublishPairingRequest {
            header: self.header(tournament),
            round,
            proposal_version: 0,
            boards: wire,
            unpaired,
            note,
            by_entry: false,
            numbering_version: Some(as_of.as_of.unwrap_or(list.version)),
            team_bye: 0,
            team_matches: Vec::new(),
        };
        call("publish", self.director.publish_pairing(req)).await
    }

    pub async fn result(
        &mut self,
        tournament: &str,
        round: u32,
        board: u32,
        result: BoardResult,
    ) -> Result<CommandResult, Exit> {
        let (r, w, b) = board_result_to_wire(result);
        let req = rd::RecordResultRequest {
            header: self.header(tournament),
            round,
            board,
            result: r as i32,
            white_code: w,
            black_code: b,
        };
        call("result", self.director.record_result(req)).await
    }

    pub async fn close(&mut self, tournament: &str, round: u32) -> Result<CommandResult, Exit> {
        let req = rd::CloseRoundRequest {
            header: self.header(tournament),
            round,
        };
        call("close", self.director.close_round(req)).await
    }
}

pub(super) fn result_arg(s: &str) -> Result<BoardResult, Exit> {
    parse_result(s).ok_or_else(|| {
        Exit::Invalid(format!(
            "result {s:?}: write 1-0, 0-1, 1/2, +/-, -/+, -/-, W/L, D/D, L/W, or a decision \
             0-0, 1/2-0, 0-1/2, 1-1/2, 1/2-1, 1-1"
        ))
    })
}

/// Reads a board result as arbiters write it.
pub fn parse_result(s: &str) -> Option<BoardResult> {
    Some(match s.trim().replace(' ', "").as_str() {
        "1-0" | "1:0" => BoardResult::WhiteWins,
        "0-1" | "0:1" => BoardResult::BlackWins,
        "1/2" | "=" | "½-½" | "1/2-1/2" | "0.5-0.5" | "draw" => BoardResult::Draw,
        "+/-" | "+-" | "1F-0" => BoardResult::WhiteWinsForfeit,
        "-/+" | "-+" | "0-1F" => BoardResult::BlackWinsForfeit,
        "-/-" | "--" | "0F-0F" => BoardResult::DoubleForfeit,
        "W/L" | "w/l" | "1U-0U" => BoardResult::WhiteWinsUnrated,
        "D/D" | "d/d" | "=U-=U" => BoardResult::DrawUnrated,
        "L/W" | "l/w" | "0U-1U" => BoardResult::BlackWinsUnrated,
        // Arbiter decisions over the board that no named result covers (C.04.2.D.8 leaves the
        // scores to the arbiter): each side's points.
        other => {
            let (w, b) = other.split_once('-')?;
            let code = |t: &str| match t {
                "1" => Some(ResultCode::Win),
                "1/2" | "½" | "0.5" | "=" => Some(ResultCode::Draw),
                "0" => Some(ResultCode::Loss),
                _ => None,
            };
            let (white, black) = (code(w)?, code(b)?);
            match (white, black) {
                (ResultCode::Win, ResultCode::Loss) => BoardResult::WhiteWins,
                (ResultCode::Loss, ResultCode::Win) => BoardResult::BlackWins,
                (ResultCode::Draw, ResultCode::Draw) => BoardResult::Draw,
                _ => BoardResult::ArbiterDecision { white, black },
            }
        }
    })
}
