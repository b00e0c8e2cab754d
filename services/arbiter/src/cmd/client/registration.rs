//! The Registration service's player subcommands: registering, the list, corrections, byes,
//! absences, withdrawals, fair-play consent and a round robin's drawing of lots.

use super::*;

/// The registration data of a player.
#[derive(clap::Args, Debug, Clone)]
pub struct PlayerData {
    /// "Surname, Given names".
    #[arg(long)]
    pub name: String,
    /// The FIDE rating of the event's kind (0: unrated).
    #[arg(long, default_value_t = 0)]
    pub rating: u32,
    /// The FIDE id (the server's rating list fills in what is not given).
    #[arg(long)]
    pub fide_id: Option<u64>,
    /// GM, IM, WGM, FM, WIM, CM, WFM, WCM.
    #[arg(long)]
    pub title: Option<String>,
    /// FIDE federation code, e.g. NOR.
    #[arg(long, default_value = "")]
    pub federation: String,
}

#[derive(clap::Args, Debug)]
pub struct Register {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    #[command(flatten)]
    player: PlayerData,
    /// A late entry from this round.
    #[arg(long)]
    first_round: Option<u32>,
    /// A player of the same name is registered and one of the two has no FIDE id: register
    /// him anyway (another person, not a duplicate).
    #[arg(long)]
    same_name_ok: bool,
}

impl Register {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let header = c.header(&self.tournament);
        let player = Some(player_wire(self.player)?);
        let r = match self.first_round {
            None => {
                let req = reg::RegisterPlayerRequest {
                    header,
                    player,
                    confirm_same_name: self.same_name_ok,
                };
                call("register", c.registration.register_player(req)).await
            }
            Some(first_round) => {
                let req = reg::EnterLateRequest {
                    header,
                    player,
                    first_round,
                    missed_rounds: 0,
                    confirm_same_name: self.same_name_ok,
                };
                call("register", c.registration.enter_late(req)).await
            }
        }
        .map_err(same_name_hint)?;
        print_registered(&r);
        Ok(())
    }
}

#[derive(clap::Args, Debug)]
pub struct LateEntry {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    #[command(flatten)]
    player: PlayerData,
    /// The first round he is paired in (default: the next round to pair).
    #[arg(long)]
    first_round: Option<u32>,
    /// What the rounds he missed score: zero or half.
    #[arg(long, default_value = "zero")]
    missed: String,
    /// As for `register`: another person of the same name.
    #[arg(long)]
    same_name_ok: bool,
}

impl LateEntry {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let missed = match self.missed.to_ascii_lowercase().as_str() {
            "zero" | "z" | "0" => pb::ByeKind::ZeroPoint,
            "half" | "h" => pb::ByeKind::HalfPoint,
            other => return Err(Exit::Invalid(format!("--missed {other:?}: zero or half"))),
        };
        let req = reg::EnterLateRequest {
            header: c.header(&self.tournament),
            player: Some(player_wire(self.player)?),
            first_round: self.first_round.unwrap_or(0),
            missed_rounds: missed as i32,
            confirm_same_name: self.same_name_ok,
        };
        let r = call("late-entry", c.registration.enter_late(req))
            .await
            .map_err(same_name_hint)?;
        print_registered(&r);
        Ok(())
    }
}

#[derive(clap::Args, Debug)]
pub struct Players {
    /// The tournament's identifier (as given at creation).
    tournament: String,
}

impl Players {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let players = c.players(&self.tournament).await?;
        println!(
            "Players (version {}, numbering version {}: give it as --as-of with pairing numbers)",
            players.version, players.numbering_version
        );
        println!("  No  Entry  Name                             Rating  Status");
        for p in players.players {
            let Some(pl) = p.player else { continue };
            let mut status = Vec::new();
            if p.status == reg::PlayerStatus::Withdrawn as i32 {
                status.push("withdrawn".to_string());
            } else if p.status == reg::PlayerStatus::ConsentMissing as i32 {
                status.push("no fair-play consent: not paired".to_string());
            }
            if p.first_round > 1 {
                status.push(format!("from round {}", p.first_round));
            }
            // Requested byes and declared absences: the rounds he is not paired in.
            if !p.rounds_off.is_empty() {
                let rounds: Vec<String> = p.rounds_off.iter().map(u32::to_string).collect();
                status.push(format!("bye or absent in round {}", rounds.join(", ")));
            }
            let status = status.join("; ");
            let line = format!(
                "{:>4}  {:>5}  {:<32} {:>6}  {}",
                p.pairing_number,
                format!("E{}", p.entry),
                pl.name,
                pl.rating,
                status
            );
            println!("{}", line.trim_end());
        }
        Ok(())
    }
}

#[derive(clap::Args, Debug)]
pub struct CorrectPlayer {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// E7 (entry) or 12 (pairing number).
    player: PlayerArg,
    /// The corrected name (Surname, Given).
    #[arg(long)]
    name: Option<String>,
    /// The corrected rating.
    #[arg(long)]
    rating: Option<u32>,
    /// The corrected FIDE id.
    #[arg(long)]
    fide_id: Option<u64>,
    /// GM, IM, WGM, FM, WIM, CM, WFM, WCM, or "none".
    #[arg(long)]
    title: Option<String>,
    /// The corrected federation (FIDE code).
    #[arg(long)]
    federation: Option<String>,
    /// The corrected club.
    #[arg(long)]
    club: Option<String>,
    /// Why (recorded with the correction).
    #[arg(long)]
    reason: String,
    #[command(flatten)]
    as_of: AsOf,
}

impl CorrectPlayer {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let mut fields = Vec::new();
        let mut p = reg::PlayerDetails::default();
        if let Some(v) = self.name {
            p.name = v;
            fields.push("name");
        }
        if let Some(v) = self.rating {
            p.rating = v;
            fields.push("rating");
        }
        if let Some(v) = self.fide_id {
            p.fide_id = Some(v);
            fields.push("fide_id");
        }
        if let Some(v) = self.title {
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
        if let Some(v) = self.federation {
            p.federation = v;
            fields.push("federation");
        }
        if let Some(v) = self.club {
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
        let who = c
            .player_ref(&self.tournament, self.player, self.as_of)
            .await?;
        let req = reg::CorrectPlayerRequest {
            header: c.header(&self.tournament),
            pairing_number: who.player_id,
            player: Some(p),
            fields: fields.into_iter().map(String::from).collect(),
            reason: self.reason,
            entry: who.entry,
            numbering_version: who.numbering_version,
        };
        let rpc = c.registration.correct_player(req);
        command("correct-player", "player corrected", rpc).await
    }
}

#[derive(clap::Args, Debug)]
pub struct Bye {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// E7 (entry) or 12 (pairing number).
    player: PlayerArg,
    /// The round (from 1).
    round: u32,
    /// half, full or zero: what the regulations allow for a requested bye.
    #[arg(long, default_value = "half")]
    kind: String,
    #[command(flatten)]
    as_of: AsOf,
}

impl Bye {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let kind = match self.kind.to_ascii_lowercase().as_str() {
            "half" | "h" => pb::ByeKind::HalfPoint,
            "zero" | "z" => pb::ByeKind::ZeroPoint,
            "full" | "f" => pb::ByeKind::FullPoint,
            other => {
                return Err(Exit::Invalid(format!(
                    "--kind {other:?}: half, zero or full"
                )));
            }
        };
        let who = c
            .player_ref(&self.tournament, self.player, self.as_of)
            .await?;
        let req = reg::RequestByeRequest {
            header: c.header(&self.tournament),
            pairing_number: who.player_id,
            entry: who.entry,
            numbering_version: who.numbering_version,
            round: self.round,
            kind: kind as i32,
        };
        command("bye", "bye requested", c.registration.request_bye(req)).await
    }
}

#[derive(clap::Args, Debug)]
pub struct CancelBye {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// E7 (entry) or 12 (pairing number).
    player: PlayerArg,
    /// The round (from 1).
    round: u32,
    #[command(flatten)]
    as_of: AsOf,
}

impl CancelBye {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let who = c
            .player_ref(&self.tournament, self.player, self.as_of)
            .await?;
        let req = reg::CancelByeRequest {
            header: c.header(&self.tournament),
            pairing_number: who.player_id,
            entry: who.entry,
            numbering_version: who.numbering_version,
            round: self.round,
        };
        command(
            "cancel-bye",
            "bye cancelled",
            c.registration.cancel_bye(req),
        )
        .await
    }
}

#[derive(clap::Args, Debug)]
pub struct Absent {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// E7 (entry) or 12 (pairing number).
    player: PlayerArg,
    /// The round (from 1).
    round: u32,
    /// Why (recorded with the absence).
    #[arg(long, default_value = "")]
    reason: String,
    #[command(flatten)]
    as_of: AsOf,
}

impl Absent {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let who = c
            .player_ref(&self.tournament, self.player, self.as_of)
            .await?;
        let req = reg::DeclareAbsenceRequest {
            header: c.header(&self.tournament),
            pairing_number: who.player_id,
            entry: who.entry,
            numbering_version: who.numbering_version,
            round: self.round,
            reason: self.reason,
        };
        let rpc = c.registration.declare_absence(req);
        command("absent", "absence declared", rpc).await
    }
}

#[derive(clap::Args, Debug)]
pub struct Consent {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// E7 (entry) or 12 (pairing number).
    player: PlayerArg,
    /// The version of the event's regulations he accepts.
    #[arg(long)]
    regulations: String,
    /// Who accepted: the player, or his guardian (with --guardian).
    #[arg(long)]
    accepted_by: String,
    /// Accepted by a guardian (a minor's consent).
    #[arg(long)]
    guardian: bool,
    /// His personal platform account (E.04 9.3).
    #[arg(long, default_value = "")]
    account: String,
    /// analysis-and-sanctions, real-name, remote-supervision, recording,
    /// complaints-procedure (comma-separated), or all.
    #[arg(long, default_value = "all")]
    items: String,
    #[command(flatten)]
    as_of: AsOf,
}

impl Consent {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let items = crate::cmd::online::consent_items(&self.items).map_err(Exit::Invalid)?;
        let who = c
            .player_ref(&self.tournament, self.player, self.as_of)
            .await?;
        let req = reg::RecordFairPlayConsentRequest {
            header: c.header(&self.tournament),
            pairing_number: who.player_id,
            entry: who.entry,
            numbering_version: who.numbering_version,
            consent: Some(arbiter_proto::registration::v1::FairPlayConsent {
                regulations_version: self.regulations,
                accepted_by: self.accepted_by,
                by_guardian: self.guardian,
                items,
                platform_account: self.account,
            }),
        };
        let rpc = c.registration.record_fair_play_consent(req);
        command("consent", "fair-play consent recorded", rpc).await
    }
}

#[derive(clap::Args, Debug)]
pub struct DrawLots {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// The restricted draw of the Varma tables (C.05 Annex 2: 9 to 24 players, each with a federation).
    #[arg(long)]
    varma: bool,
    /// The published seed the service draws every lot from (instead of --numbers).
    #[arg(long, default_value = "", conflicts_with = "numbers")]
    seed: String,
    /// The number drawn by each player, in pairing-number order, comma-separated
    /// (e.g. 3,1,2 gives player 1 number 3).
    #[arg(long, value_delimiter = ',')]
    numbers: Vec<u32>,
}

impl DrawLots {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let req = reg::DrawLotsRequest {
            header: c.header(&self.tournament),
            varma: self.varma,
            seed: self.seed,
            numbers: self.numbers,
        };
        command("draw-lots", "lots drawn", c.registration.draw_lots(req)).await
    }
}

#[derive(clap::Args, Debug)]
pub struct CancelRegistration {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// E7 (entry) or 12 (pairing number).
    player: PlayerArg,
    /// Why (recorded with the cancellation).
    #[arg(long, default_value = "")]
    reason: String,
    #[command(flatten)]
    as_of: AsOf,
}

impl CancelRegistration {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let who = c
            .player_ref(&self.tournament, self.player, self.as_of)
            .await?;
        let req = reg::CancelRegistrationRequest {
            header: c.header(&self.tournament),
            pairing_number: who.player_id,
            entry: who.entry,
            numbering_version: who.numbering_version,
            reason: self.reason,
        };
        let rpc = c.registration.cancel_registration(req);
        command("cancel-registration", "registration cancelled", rpc).await?;
        println!("the players below him moved up one pairing number (see `players`)");
        Ok(())
    }
}

#[derive(clap::Args, Debug)]
pub struct Withdraw {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// E7 (entry) or 12 (pairing number).
    player: PlayerArg,
    /// The first round he no longer plays (default: the next one to be paired).
    #[arg(long)]
    from_round: Option<u32>,
    /// Why (recorded with the withdrawal).
    #[arg(long, default_value = "")]
    reason: String,
    #[command(flatten)]
    as_of: AsOf,
}

impl Withdraw {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let who = c
            .player_ref(&self.tournament, self.player, self.as_of)
            .await?;
        let req = reg::WithdrawPlayerRequest {
            header: c.header(&self.tournament),
            pairing_number: who.player_id,
            entry: who.entry,
            numbering_version: who.numbering_version,
            from_round: self.from_round.unwrap_or(0),
            reason: self.reason,
        };
        command("withdraw", "withdrawn", c.registration.withdraw_player(req)).await
    }
}

pub(super) fn player_wire(p: PlayerData) -> Result<reg::PlayerDetails, Exit> {
    let title = match p.title.as_deref().map(str::to_ascii_uppercase).as_deref() {
        None => pb::Title::Unspecified,
        Some("GM") => pb::Title::Gm,
        Some("IM") => pb::Title::Im,
        Some("WGM") => pb::Title::Wgm,
        Some("FM") => pb::Title::Fm,
        Some("WIM") => pb::Title::Wim,
        Some("CM") => pb::Title::Cm,
        Some("WFM") => pb::Title::Wfm,
        Some("WCM") => pb::Title::Wcm,
        Some(other) => return Err(Exit::Invalid(format!("--title {other:?}"))),
    };
    Ok(reg::PlayerDetails {
        name: p.name,
        rating: p.rating,
        fide_id: p.fide_id,
        title: title as i32,
        federation: p.federation,
        ..Default::default()
    })
}

fn print_registered(r: &CommandResult) {
    print_result("registered", r);
    println!(
        "pairing number {}, entry E{} (the entry never changes; the pairing number may)",
        r.pairing_number, r.entry
    );
    if r.first_round > 1 {
        println!(
            "a late entry (C.04.2.C): paired from round {}; rounds 1-{} are scored as missed \
             (`late-entry --missed` sets how)",
            r.first_round,
            r.first_round - 1
        );
    }
}

/// The server's same-name refusal names its request field; say the flag.
fn same_name_hint(e: Exit) -> Exit {
    match e {
        Exit::Differs(m) if m.contains("confirm_same_name") => Exit::Differs(format!(
            "{m}\n(another person of the same name: register him with --same-name-ok)"
        )),
        other => other,
    }
}
