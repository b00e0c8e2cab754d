//! The screening service's subcommands: a round's games submitted for fair-play screening,
//! and a participant's fair-play complaint.

use super::*;

#[derive(clap::Args, Debug)]
pub struct SubmitGames {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// The round (from 1).
    round: u32,
    /// The PGN file (UTF-8).
    file: PathBuf,
}

impl SubmitGames {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let pgn = read_pgn_file(&self.file)?;
        let req = scr::SubmitGamesRequest {
            header: c.header(&self.tournament),
            round: self.round,
            pgn,
        };
        let r = call("submit-games", c.screening.submit_games(req)).await?;
        let outcome = r.result.unwrap_or_default();
        print_result(&format!("{} games submitted", r.games.len()), &outcome);
        for g in &r.games {
            println!(
                "game {} ({} - {}): round {}, board {}",
                g.index, g.white, g.black, self.round, g.board
            );
        }
        Ok(())
    }
}

#[derive(clap::Args, Debug)]
pub struct Complain {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// The complainant: E7 (entry) or 12 (pairing number); he needs a FIDE id.
    complainant: PlayerArg,
    /// The accused's pairing number.
    accused: u32,
    /// What the complaint is about (required).
    #[arg(long)]
    grounds: String,
    /// KIND:REFERENCE[:NOTE] (repeat), as for `sanction`.
    #[arg(long = "evidence")]
    evidence: Vec<String>,
    /// The complaint rests only on the accused playing above his rating.
    #[arg(long)]
    only_rating: bool,
    #[command(flatten)]
    as_of: AsOf,
}

impl Complain {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let evidence = crate::cmd::online::evidence_list(&self.evidence).map_err(Exit::Invalid)?;
        let who = c
            .player_ref(&self.tournament, self.complainant, self.as_of)
            .await?;
        let req = scr::FileComplaintRequest {
            header: c.header(&self.tournament),
            entry: who.entry,
            pairing_number: who.player_id,
            numbering_version: who.numbering_version,
            accused: self.accused,
            grounds: self.grounds,
            evidence,
            only_rating_performance: self.only_rating,
        };
        let rpc = c.screening.file_complaint(req);
        command(
            "complain",
            "complaint filed (GetScreening shows how it was received)",
            rpc,
        )
        .await
    }
}

/// A PGN file's text, refused before it is sent when it is above the server's limit for a
/// round's file or not UTF-8 (naming the file and the byte).
fn read_pgn_file(path: &std::path::Path) -> Result<String, Exit> {
    let limit = arbiter_service_kit::edge::MAX_ROUND_PGN_BYTES;
    let shown = path.display();
    let meta = std::fs::metadata(path)
        .map_err(|e| Exit::Unavailable(format!("{shown}: cannot read: {e}")))?;
    if meta.len() > limit as u64 {
        return Err(Exit::Invalid(format!(
            "{shown}: {} bytes is larger than the {limit}-byte limit for a round's PGN file",
            meta.len()
        )));
    }
    let bytes =
        std::fs::read(path).map_err(|e| Exit::Unavailable(format!("{shown}: cannot read: {e}")))?;
    String::from_utf8(bytes).map_err(|e| {
        Exit::Invalid(format!(
            "{shown}: not UTF-8 at byte {} (save the file as UTF-8)",
            e.utf8_error().valid_up_to()
        ))
    })
}

#[derive(clap::Args, Debug)]
pub struct FullTest {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// Screen the games of rounds 1..=ROUND (default: through the current round).
    #[arg(long, default_value_t = 0)]
    round: u32,
    /// The players the latest quick screening put at Watch or above (the policy's order).
    #[arg(long)]
    watched: bool,
    /// A player to test by pairing number (repeat); with --watched, both.
    #[arg(long = "player")]
    players: Vec<u32>,
    /// Why the confidential results are read (kept in the audit record).
    #[arg(long, default_value = "")]
    reason: String,
}

impl FullTest {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let req = scr::RunFullTestRequest {
            header: c.header(&self.tournament),
            round: self.round,
            reason: self.reason,
            watched: self.watched,
            players: self.players,
        };
        let r = call("full-test", c.screening.run_full_test(req)).await?;
        print_screening(&r);
        Ok(())
    }
}

#[derive(clap::Args, Debug)]
pub struct Screening {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// Why the confidential results are read (kept in the audit record).
    #[arg(long, default_value = "")]
    reason: String,
}

impl Screening {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let req = scr::GetScreeningRequest {
            tournament: Clients::tref(&self.tournament),
            reason: self.reason,
        };
        let r = call("screening", c.screening.get_screening(req)).await?;
        print_screening(&r);
        Ok(())
    }
}

/// A screening report, one line per performance (oldest first) and its flags: advisory
/// indicators for the arbiters and fair-play officers, never a verdict.
fn print_screening(r: &scr::ScreeningReport) {
    println!(
        "screening as of version {}: {} performances, {} flags (advisory; not the FIDE test)",
        r.version,
        r.performances.len(),
        r.flags.len()
    );
    for p in &r.performances {
        let ipr = if p.ipr > 0 {
            format!(" IPR {} ({}..{})", p.ipr, p.ipr_low, p.ipr_high)
        } else {
            String::new()
        };
        println!(
            "round {:>2} {:<5} #{:<3} {:<28} {:>4} games {:>2} counted {:>4} MM {:>5.1}% z {:>6.2} {}{}{}",
            p.through_round,
            p.tier,
            p.player_id,
            p.player.chars().take(28).collect::<String>(),
            p.rating,
            p.games,
            p.counted,
            f64::from(p.mm_rate_ppm) / 1e4,
            f64::from(p.z_combined) / 100.0,
            p.flag,
            if p.provisional { " (provisional)" } else { "" },
            ipr
        );
    }
    for f in &r.flags {
        println!(
            "flag: round {} {} #{} {}: {} (z {:.2}, {} counted; baseline {}, policy {})",
            f.through_round,
            f.tier,
            f.player_id,
            f.player,
            f.level,
            f.z_combined as f64 / 100.0,
            f.counted,
            f.baseline_version,
            f.policy_version
        );
    }
    for c in &r.complaints {
        println!(
            "complaint: #{} against #{}: {}",
            c.complainant, c.accused, c.grounds
        );
    }
}
