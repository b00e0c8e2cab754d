//! The round director's subcommands for what happens beside the results, mostly in online
//! and hybrid events (E.04): overrides of the platform's result, sanctions, irregularities,
//! supervision breaches, disconnections and their rulings, appeals, and the arbiter's record
//! of them all.

use super::round_director::result_arg;
use super::*;
use crate::cmd::online;

#[derive(clap::Args, Debug)]
pub struct Override {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// The round (from 1).
    round: u32,
    /// The board number of the round's published pairing.
    board: u32,
    /// 1-0, 0-1 or 1/2 (or unrated W/L, D/D, L/W).
    #[arg(allow_hyphen_values = true)]
    result: String,
    /// Why the platform's result is overridden (required).
    #[arg(long)]
    reason: String,
}

impl Override {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let (w, _, _) = board_result_to_wire(result_arg(&self.result)?);
        let req = rd::OverridePlatformResultRequest {
            header: c.header(&self.tournament),
            round: self.round,
            board: self.board,
            result: w as i32,
            reason: self.reason,
        };
        let rpc = c.director.override_platform_result(req);
        command("override", "platform result overridden", rpc).await
    }
}

#[derive(clap::Args, Debug)]
pub struct Sanction {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// E7 (entry) or 12 (pairing number).
    player: PlayerArg,
    /// warning, add-time, reduce-time, increase-opponent-score, reduce-score, game-lost, fine,
    /// exclusion or expulsion.
    kind: String,
    /// The round of the game concerned (game-lost).
    #[arg(long)]
    round: Option<u32>,
    /// Rounds of an exclusion, comma-separated.
    #[arg(long)]
    rounds: Option<String>,
    /// Time or money, as the regulations state it.
    #[arg(long, default_value = "")]
    amount: String,
    /// Default: the kind's article of the Laws.
    #[arg(long, default_value = "")]
    article: String,
    /// KIND:REFERENCE[:NOTE] (repeat); KIND is physical, observed-breach, admission,
    /// platform-decision, statistical or testimony.
    #[arg(long = "evidence")]
    evidence: Vec<String>,
    /// Recorded with the sanction.
    #[arg(long, default_value = "")]
    note: String,
    #[command(flatten)]
    as_of: AsOf,
}

impl Sanction {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let kind = online::sanction_kind(&self.kind).map_err(Exit::Invalid)?;
        let evidence = online::evidence_list(&self.evidence).map_err(Exit::Invalid)?;
        let rounds = match self.rounds.as_deref() {
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
        let who = c
            .player_ref(&self.tournament, self.player, self.as_of)
            .await?;
        let req = rd::ImposeSanctionRequest {
            header: c.header(&self.tournament),
            entry: who.entry,
            numbering_version: who.numbering_version,
            pairing_number: who.player_id,
            sanction: Some(arbiter_proto::round_director::v1::SanctionTerms {
                kind: kind as i32,
                round: self.round.unwrap_or(0),
                rounds,
                amount: self.amount,
                article: self.article,
                evidence,
                note: self.note,
            }),
        };
        let rpc = c.director.impose_sanction(req);
        command("sanction", "sanction imposed", rpc).await
    }
}

#[derive(clap::Args, Debug)]
pub struct Irregularity {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// The round (from 1).
    round: u32,
    /// The board number of the round's published pairing.
    board: u32,
    /// colours-reversed, clock-wrong, interrupted or arbiter-called.
    kind: String,
    /// Half-moves played when it was found.
    #[arg(long, default_value_t = 0)]
    plies: u32,
    /// continue, clocks-corrected, clocks-stopped, time-added (not for colours-reversed).
    #[arg(long)]
    decision: Option<String>,
    /// Recorded with the irregularity.
    #[arg(long, default_value = "")]
    note: String,
}

impl Irregularity {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let kind = online::irregularity_kind(&self.kind).map_err(Exit::Invalid)?;
        let decision = match self.decision.as_deref() {
            Some(d) => online::irregularity_decision(d).map_err(Exit::Invalid)? as i32,
            None => 0,
        };
        let req = rd::RecordIrregularityRequest {
            header: c.header(&self.tournament),
            round: self.round,
            board: self.board,
            kind: kind as i32,
            plies: self.plies,
            decision,
            note: self.note,
        };
        let rpc = c.director.record_irregularity(req);
        command("irregularity", "irregularity recorded", rpc).await
    }
}

#[derive(clap::Args, Debug)]
pub struct SupervisionBreach {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// The round (from 1).
    round: u32,
    /// The board number of the round's published pairing.
    board: u32,
    /// The player's pairing number.
    player: u32,
    /// What the supervision found, e.g. person-in-playing-area, screen-not-shared,
    /// vcs-not-connected, left-playing-area (every item: E.04 8-14).
    item: String,
    /// Recorded with the breach.
    #[arg(long, default_value = "")]
    note: String,
}

impl SupervisionBreach {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let item = online::supervision_item(&self.item).map_err(Exit::Invalid)?;
        let req = rd::RecordSupervisionBreachRequest {
            header: c.header(&self.tournament),
            round: self.round,
            board: self.board,
            pairing_number: self.player,
            item: item as i32,
            note: self.note,
        };
        let rpc = c.director.record_supervision_breach(req);
        command("supervision breach", "supervision breach recorded", rpc).await
    }
}

#[derive(clap::Args, Debug)]
pub struct Disconnect {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// The round (from 1).
    round: u32,
    /// The board number of the round's published pairing.
    board: u32,
    /// The player's pairing number.
    player: u32,
    /// platform or video (the video-conference of a supervised event).
    #[arg(long, default_value = "platform")]
    channel: String,
    /// His clock when he disconnected (e.g. 3m, 180s).
    #[arg(long)]
    clock: String,
    /// How long he was away (e.g. 2m); absent: not back.
    #[arg(long)]
    away: Option<String>,
    /// He moved on the platform while off the video-conference (E.04 13.3).
    #[arg(long)]
    moved_off_video: bool,
    /// platform, lta (a venue's technical arbiter) or arbiter.
    #[arg(long, default_value = "arbiter")]
    reported_by: String,
    /// Recorded with the incident.
    #[arg(long, default_value = "")]
    note: String,
}

impl Disconnect {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let channel = match self.channel.as_str() {
            "platform" => pb::ConnectionChannel::Platform,
            "video" => pb::ConnectionChannel::VideoConference,
            other => {
                return Err(Exit::Invalid(format!(
                    "--channel {other:?}: platform or video"
                )));
            }
        };
        let reported_by = match self.reported_by.as_str() {
            "platform" => pb::IncidentReporter::Platform,
            "lta" => pb::IncidentReporter::LocalTechnicalArbiter,
            "arbiter" => pb::IncidentReporter::Arbiter,
            other => {
                return Err(Exit::Invalid(format!(
                    "--reported-by {other:?}: platform, lta or arbiter"
                )));
            }
        };
        let clock_ms = online::duration_s(&self.clock, "--clock").map_err(Exit::Invalid)? * 1000;
        // The reporter's own times (E.04 11: the platform records them): he disconnected now
        // and came back --away later.
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64);
        let back = match self.away.as_deref() {
            Some(a) => {
                let s = online::duration_s(a, "--away").map_err(Exit::Invalid)?;
                now + i64::from(s) * 1000
            }
            None => 0,
        };
        let req = rd::ReportConnectionIncidentRequest {
            header: c.header(&self.tournament),
            incident: Some(arbiter_proto::round_director::v1::ConnectionIncident {
                round: self.round,
                board: self.board,
                pairing_number: self.player,
                channel: channel as i32,
                disconnected_at_unix_ms: now,
                reconnected_at_unix_ms: back,
                clock_at_disconnect_ms: clock_ms,
                moved_while_vcs_down: self.moved_off_video,
                reported_by: reported_by as i32,
                note: self.note,
            }),
        };
        let rpc = c.director.report_connection_incident(req);
        command("disconnect", "connection incident reported", rpc).await
    }
}

#[derive(clap::Args, Debug)]
pub struct Rule {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// The connection incident's number (1, 2, ... in the event; `record` lists them).
    incident: u32,
    /// continue, loss, draw, resume, reduce-time, restart or restart-shorter.
    outcome: String,
    /// The position at the flag or the interruption (needed for loss, draw, resume).
    #[arg(long, default_value = "")]
    fen: String,
    /// Resume: White's and Black's clocks (e.g. 9m, or 545 seconds).
    #[arg(long)]
    white_clock: Option<String>,
    /// Resume: Black's clock.
    #[arg(long)]
    black_clock: Option<String>,
    /// Reduce-time: by how much.
    #[arg(long)]
    reduce: Option<String>,
    /// Restart-shorter: the time control.
    #[arg(long, default_value = "")]
    time_control: String,
    /// Recorded with the ruling.
    #[arg(long, default_value = "")]
    note: String,
}

impl Rule {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let outcome = online::disconnection_outcome(&self.outcome).map_err(Exit::Invalid)?;
        let ms = |v: Option<String>, what: &str| -> Result<u32, Exit> {
            v.map_or(Ok(0), |v| {
                online::duration_s(&v, what)
                    .map(|s| s * 1000)
                    .map_err(Exit::Invalid)
            })
        };
        let req = rd::RuleOnDisconnectionRequest {
            header: c.header(&self.tournament),
            ruling: Some(arbiter_proto::round_director::v1::DisconnectionRuling {
                incident: self.incident,
                outcome: outcome as i32,
                fen: self.fen,
                white_ms: ms(self.white_clock, "--white-clock")?,
                black_ms: ms(self.black_clock, "--black-clock")?,
                reduce_ms: ms(self.reduce, "--reduce")?,
                time_control: self.time_control,
                note: self.note,
            }),
        };
        let rpc = c.director.rule_on_disconnection(req);
        command("rule", "disconnection ruled", rpc).await
    }
}

#[derive(clap::Args, Debug)]
pub struct Appeal {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// The appellant: E7 (entry) or 12 (pairing number).
    appellant: PlayerArg,
    /// The stream version of the decision's event (`show`, `StreamEvents`).
    decision_version: u64,
    /// Why the decision is appealed (required).
    #[arg(long)]
    grounds: String,
    /// The deposit paid, as the regulations ask (e.g. 50 EUR).
    #[arg(long, default_value = "")]
    deposit: String,
    #[command(flatten)]
    as_of: AsOf,
}

impl Appeal {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let who = c
            .player_ref(&self.tournament, self.appellant, self.as_of)
            .await?;
        let req = rd::FileAppealRequest {
            header: c.header(&self.tournament),
            entry: who.entry,
            pairing_number: who.player_id,
            numbering_version: who.numbering_version,
            decision_version: self.decision_version,
            grounds: self.grounds,
            deposit: self.deposit,
        };
        command("appeal", "appeal filed", c.director.file_appeal(req)).await
    }
}

#[derive(clap::Args, Debug)]
pub struct DecideAppeal {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// The appeal's number (1, 2, ... in the event; `record` lists them).
    appeal: u32,
    /// The appeal is upheld (default: rejected).
    #[arg(long)]
    upheld: bool,
    /// A member who sat (repeat).
    #[arg(long = "member")]
    committee: Vec<String>,
    /// The deposit is returned.
    #[arg(long)]
    deposit_returned: bool,
    /// The result the decision sets: ROUND BOARD RESULT, e.g. "3 5 1/2".
    #[arg(long, num_args = 3, value_names = ["ROUND", "BOARD", "RESULT"], allow_hyphen_values = true)]
    result: Option<Vec<String>>,
    /// The committee's reasons, recorded with the decision.
    #[arg(long, default_value = "")]
    note: String,
}

impl DecideAppeal {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let (round, board, (res, wc, bc)) = match self.result.as_deref() {
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
        let req = rd::DecideAppealRequest {
            header: c.header(&self.tournament),
            appeal: self.appeal,
            upheld: self.upheld,
            deposit_returned: self.deposit_returned,
            committee: self.committee,
            note: self.note,
            round,
            board,
            result: res as i32,
            white_code: wc,
            black_code: bc,
        };
        let rpc = c.director.decide_appeal(req);
        command("decide-appeal", "appeal decided", rpc).await
    }
}

#[derive(clap::Args, Debug)]
pub struct Record {
    /// The tournament's identifier (as given at creation).
    tournament: String,
}

impl Record {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        use pb::event::Kind;
        let req = rd::GetTournamentRequest {
            tournament: Clients::tref(&self.tournament),
        };
        let r = call("record", c.director.arbiter_record(req)).await?;
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
            println!("{:>6}  {line}", e.version);
        }
        Ok(())
    }
}
