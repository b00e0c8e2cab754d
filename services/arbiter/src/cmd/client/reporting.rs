//! The reporting service's subcommands: pairings, standings and the TRF export, and how
//! pairings and standings are printed (here and by `arbiter demo`).

use super::*;

#[derive(clap::Args, Debug)]
pub struct Pairings {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// The round (from 1).
    round: u32,
}

impl Pairings {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let p = c
            .wait_for_pairing(&self.tournament, self.round, Duration::ZERO)
            .await?;
        print!("{}", render_pairings(&p));
        Ok(())
    }
}

#[derive(clap::Args, Debug)]
pub struct Standings {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// After this round (default: the last round whose results are all in).
    #[arg(long, default_value_t = 0)]
    after_round: u32,
}

impl Standings {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        print!("{}", c.standings(&self.tournament, self.after_round).await?);
        Ok(())
    }
}

#[derive(clap::Args, Debug)]
pub struct Export {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// Write the file here (default: standard output).
    #[arg(short = 'o', long = "out")]
    output: Option<PathBuf>,
}

impl Export {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let req = rep::ExportTrfRequest {
            tournament: Clients::tref(&self.tournament),
            format: TrfFormat::Trf16 as i32,
        };
        let r = call("export", c.reporting.export_trf(req)).await?;
        match self.output {
            Some(p) => std::fs::write(&p, &r.trf)
                .map_err(|e| Exit::Unavailable(format!("cannot write {}: {e}", p.display())))?,
            None => print!("{}", String::from_utf8_lossy(&r.trf)),
        }
        Ok(())
    }
}

#[derive(clap::Args, Debug)]
pub struct Watch {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// Stop after this many views (default: follow until interrupted).
    #[arg(long)]
    count: Option<u64>,
}

impl Watch {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let req = rep::FollowTournamentRequest {
            tournament: Clients::tref(&self.tournament),
        };
        let mut views = call("watch", c.reporting.follow_tournament(req)).await?;
        let mut shown = 0;
        while self.count.is_none_or(|n| shown < n) {
            let Some(v) = views
                .message()
                .await
                .map_err(|s| status_exit("watch", &s))?
            else {
                break;
            };
            println!("== version {}", v.version);
            match &v.pairings {
                Some(p) => print!("{}", render_pairings(p)),
                None => println!("No pairing yet."),
            }
            if let Some(s) = &v.standings {
                print!("{}", standings_text(s));
            }
            shown += 1;
        }
        Ok(())
    }
}

impl Clients {
    /// Waits up to `wait` for a proposal (or a publication) of `round`, on the reporting
    /// service's FollowTournament stream (pushed: no polling), which carries it.
    pub async fn wait_for_pairing(
        &mut self,
        tournament: &str,
        round: u32,
        wait: Duration,
    ) -> Result<rep::RoundPairings, Exit> {
        let no_proposal = || {
            Exit::Differs(format!(
                "tournament {tournament}: no proposal for round {round} after {wait:?} \
                 (is a pairing worker running? did the pairing fail?)"
            ))
        };
        if !wait.is_zero() {
            let req = rep::FollowTournamentRequest {
                tournament: Self::tref(tournament),
            };
            let mut views = call("watch", self.reporting.follow_tournament(req)).await?;
            let proposed = async {
                while let Some(v) = views.message().await? {
                    if v.round == round
                        && let Some(p) = v.pairings
                    {
                        return Ok(Some(p));
                    }
                    if v.round > round {
                        return Ok(None);
                    }
                }
                Ok::<_, tonic::Status>(None)
            };
            match tokio::time::timeout(wait, proposed).await {
                Err(_) => return Err(no_proposal()),
                Ok(Err(s)) => return Err(status_exit("watch", &s)),
                Ok(Ok(Some(p))) => return Ok(p),
                Ok(Ok(None)) => {}
            }
        }
        let req = rep::GetPairingsRequest {
            tournament: Self::tref(tournament),
            round,
        };
        match self.reporting.get_pairings(req).await {
            Ok(p) => Ok(p.into_inner()),
            Err(s) if s.code() == tonic::Code::NotFound => Err(no_proposal()),
            Err(s) => Err(status_exit("pairings", &s)),
        }
    }

    pub async fn standings(&mut self, tournament: &str, after_round: u32) -> Result<String, Exit> {
        let req = rep::GetStandingsRequest {
            tournament: Self::tref(tournament),
            after_round,
        };
        let s = call("standings", self.reporting.get_standings(req)).await?;
        Ok(standings_text(&s))
    }
}

/// A tie-break value as the rules print it (`units / 10^scale`); "" when undefined.
fn decimal_text(v: Option<&arbiter_proto::common::v1::Decimal>) -> String {
    v.map(|d| d.text()).unwrap_or_default()
}

/// The standings as `arbiter client standings` prints them: place (a shared one as "3-5"),
/// pairing number, name, rating, points and one column per tie-break, then the list used, where
/// it came from and the rule version.
pub fn standings_text(s: &rep::Standings) -> String {
    let mut out = format!(
        "Standings after round {} (version {})\n",
        s.after_round, s.version
    );
    // A team event: the teams first (match and game points, the team tie-breaks).
    if !s.team_rows.is_empty() {
        out.push_str(&format!(
            "Teams ({})\n Place Team  Name                             MP     GP  {}\n",
            s.team_tie_break_list.join(", "),
            s.team_tie_break_list.join("  ")
        ));
        for r in &s.team_rows {
            let place = if r.rank_to > r.rank {
                format!("{}-{}", r.rank, r.rank_to)
            } else {
                r.rank.to_string()
            };
            let tbs: Vec<String> = r
                .tie_breaks
                .iter()
                .map(|t| decimal_text(t.value.as_ref()))
                .collect();
            out.push_str(&format!(
                "{place:>6} {:>4}  {:<28} {:>6} {:>6}  {}\n",
                r.team,
                r.name,
                points(arbiter_proto::tenths(r.match_score.as_ref())),
                points(arbiter_proto::tenths(r.game_score.as_ref())),
                tbs.join("  ")
            ));
        }
        out.push_str("Players\n");
    }
    let mut head = format!(
        "{:>5} {:>4}  {:<32} {:>6} {:>6}",
        "Place", "No", "Name", "Rating", "Points"
    );
    for code in &s.tie_break_list {
        head.push_str(&format!(" {code:>7}"));
    }
    out.push_str(head.trim_end());
    out.push('\n');
    for r in &s.rows {
        let mut line = format!(
            "{:>5} {:>4}  {:<32} {:>6} {:>6}",
            r.place,
            r.pairing_number,
            r.name,
            r.rating,
            points(arbiter_proto::tenths(r.score.as_ref()))
        );
        for (k, code) in s.tie_break_list.iter().enumerate() {
            let v = r
                .tie_breaks
                .get(k)
                .filter(|v| v.code == *code)
                .and_then(|v| v.value.as_ref());
            line.push_str(&format!(" {:>w$}", decimal_text(v), w = code.len().max(7)));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    let from = match rep::TieBreakSource::try_from(s.tie_break_source) {
        Ok(rep::TieBreakSource::Tournament) => "the tournament's list",
        Ok(rep::TieBreakSource::Recommended) => "the recommended list",
        _ => "as given",
    };
    let list = if s.tie_break_list.is_empty() {
        "none".to_string()
    } else {
        s.tie_break_list.join(",")
    };
    out.push_str(&format!(
        "Tie-breaks: {list} ({from}); rules {}\n",
        s.rule_version
    ));
    for n in &s.notes {
        out.push_str(&format!("Note: {n}\n"));
    }
    out
}

/// Points in tenths as text: "3", "3.5".
pub fn points(tenths: i32) -> String {
    if tenths % 10 == 0 {
        format!("{}", tenths / 10)
    } else {
        format!("{}.{}", tenths / 10, (tenths % 10).abs())
    }
}

fn result_text(p: &rep::PairedBoard) -> String {
    match pb::BoardResult::try_from(p.result) {
        Ok(pb::BoardResult::WhiteWins) => "1-0".into(),
        Ok(pb::BoardResult::BlackWins) => "0-1".into(),
        Ok(pb::BoardResult::Draw) => "½-½".into(),
        Ok(pb::BoardResult::WhiteWinsForfeit) => "+/-".into(),
        Ok(pb::BoardResult::BlackWinsForfeit) => "-/+".into(),
        Ok(pb::BoardResult::DoubleForfeit) => "-/-".into(),
        Ok(pb::BoardResult::Unspecified) | Err(_) => String::new(),
        Ok(other) => format!("{other:?}"),
    }
}

/// The pairings as a table.
/// The round's boards and unpaired players, named as the reply names them.
pub fn render_pairings(p: &rep::RoundPairings) -> String {
    let mut out = format!(
        "Round {} ({}, version {})\n",
        p.round,
        if p.published { "published" } else { "proposed" },
        p.version
    );
    // A team event: its matches, the team named first first (boards follow in match order).
    let per = (!p.team_matches.is_empty() && !p.boards.is_empty())
        .then(|| p.boards.len() / p.team_matches.len());
    for (i, m) in p.team_matches.iter().enumerate() {
        let boards = per.map_or(String::new(), |k| {
            format!(" (boards {}-{})", i * k + 1, (i + 1) * k)
        });
        out.push_str(&format!(
            "match {}: team {} - team {}{boards}\n",
            i + 1,
            m.first,
            m.second
        ));
    }
    if p.team_bye != 0 {
        out.push_str(&format!(
            "team {} has the pairing-allocated bye\n",
            p.team_bye
        ));
    }
    for b in &p.boards {
        let Some(board) = &b.board else { continue };
        out.push_str(&format!(
            "{:>4}  {:>3} {:<28} ({:>4})  -  {:>3} {:<28} ({:>4})  {}\n",
            board.number,
            board.white,
            b.white_name,
            points(arbiter_proto::tenths(b.white_score.as_ref())),
            board.black,
            b.black_name,
            points(arbiter_proto::tenths(b.black_score.as_ref())),
            result_text(b)
        ));
    }
    for (i, u) in p.unpaired.iter().enumerate() {
        let code = arbiter_proto::convert::result_code_from_wire("code", u.code)
            .map(|c| c.trf_char())
            .unwrap_or('?');
        // In words as the pages say it, the TRF letter after.
        let words = match code {
            'U' => "pairing-allocated bye",
            'H' => "half-point bye",
            'F' => "full-point bye",
            'Z' => "zero-point bye",
            _ => "not paired",
        };
        out.push_str(&format!(
            "   -  {:>3} {:<28} {words} ({code})\n",
            u.player_id,
            p.unpaired_names.get(i).map_or("", String::as_str)
        ));
    }
    out
}
