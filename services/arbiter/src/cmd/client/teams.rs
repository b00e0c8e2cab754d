//! Team events: the regulations given at creation (`create --team-*`), a team's list
//! (Registration) and a round's line-up (the round director).

use super::*;

/// A team event's regulations (`--team-boards` makes the event a team event: a team Swiss
/// with `--system dutch`, a team round robin with round-robin or double-round-robin).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct TeamArgs {
    /// Boards per match.
    #[arg(long)]
    pub team_boards: Option<u32>,
    /// The most reserves a team lists beyond its boards.
    #[arg(long, default_value_t = 0)]
    pub team_reserves: u32,
    /// The board colours of the team named first (TRF-2026 record 352; default alternating
    /// from White, e.g. WBWB).
    #[arg(long)]
    pub team_colours: Option<String>,
    /// Match points for a won, drawn and lost match (record 362).
    #[arg(long, default_value = "2,1,0")]
    pub team_match_points: String,
    /// What ranks the teams: mp (match points) or gp (game points).
    #[arg(long, default_value = "mp")]
    pub team_ranking: String,
    /// The team pairing-allocated bye as "MATCH,GAME" points (record 320); required for an
    /// odd number of teams.
    #[arg(long)]
    pub team_pab: Option<String>,
}

impl TeamArgs {
    /// The regulations as the wire carries them; none without --team-boards.
    pub(super) fn rules(&self) -> Result<Option<pb::TeamRules>, Exit> {
        use arbiter_proto::text;
        let Some(boards) = self.team_boards else {
            return Ok(None);
        };
        let flag = |f: &'static str| move |e: String| Exit::Invalid(format!("{f} {e}"));
        let (match_win, match_draw, match_loss) =
            text::match_points(&self.team_match_points).map_err(flag("--team-match-points"))?;
        let pab = self
            .team_pab
            .as_deref()
            .map(text::team_bye)
            .transpose()
            .map_err(flag("--team-pab"))?;
        let ranking = text::team_ranking(&self.team_ranking).map_err(flag("--team-ranking"))?;
        Ok(Some(pb::TeamRules {
            boards,
            reserves: self.team_reserves,
            match_win,
            match_draw,
            match_loss,
            ranking: ranking as i32,
            pab,
            colours: self
                .team_colours
                .clone()
                .unwrap_or_else(|| text::alternating_colours(boards)),
        }))
    }
}

#[derive(clap::Args, Debug)]
pub struct RecordTeam {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// The team's name, as published.
    #[arg(long)]
    name: String,
    /// The team's number (0: the next).
    #[arg(long, default_value_t = 0)]
    number: u32,
    /// Pairing numbers in board order, comma-separated (the boards, then the reserves).
    #[arg(long, value_delimiter = ',', required = true)]
    members: Vec<u32>,
}

impl RecordTeam {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let req = reg::RecordTeamRequest {
            header: c.header(&self.tournament),
            team: Some(arbiter_proto::registration::v1::TeamList {
                number: self.number,
                name: self.name,
                members: self.members,
                ..Default::default()
            }),
            numbering_version: None,
        };
        let rpc = c.registration.record_team(req);
        command("record-team", "team recorded", rpc).await
    }
}

#[derive(clap::Args, Debug)]
pub struct Lineup {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// The round (from 1).
    round: u32,
    /// The team's number (its order of registration).
    team: u32,
    /// Pairing numbers of the team's list, board 1 first, comma-separated.
    #[arg(value_delimiter = ',', required = true)]
    players: Vec<u32>,
}

impl Lineup {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let req = rd::SubmitLineupRequest {
            header: c.header(&self.tournament),
            round: self.round,
            team: self.team,
            players: self.players,
            numbering_version: None,
        };
        command("lineup", "line-up given", c.director.submit_lineup(req)).await
    }
}
