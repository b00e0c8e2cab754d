//! The Registration service's set-up subcommands: create a tournament (with a knockout's
//! regulations and an online event's conduct), change it, set its tie-breaks, list them all.

use super::teams::TeamArgs;
use super::*;

#[derive(clap::Args, Debug)]
pub struct Create {
    /// The tournament's name, as published.
    #[arg(long)]
    name: String,
    /// The announced number of rounds (a round robin's follows from the players).
    #[arg(long)]
    rounds: u32,
    /// Start date, YYYY-MM-DD (default: today's local date, which the command prints). It
    /// decides the rules in force (the Dutch rule set, the tie-break regulations).
    #[arg(long)]
    start: Option<String>,
    /// End date, YYYY-MM-DD (default: the start date).
    #[arg(long)]
    end: Option<String>,
    /// dutch-2017 or dutch-2025 (default: the rules in force on the start date); a team Swiss
    /// (with --team-boards) may name FIDE's team Swiss (C.04.6): fide-team-a, fide-team-b or
    /// fide-team-none (type A, type B or no colour preferences); a Burstein event may name
    /// burstein-bbp (the points the rule text leaves open read as bbpPairings reads them).
    #[arg(long)]
    rule_set: Option<String>,
    /// The pairing system: dutch, dubov, burstein, lim, round-robin, double-round-robin, scheveningen, semi-scheveningen, skalitzka, hilton or knockout (with the --ko-* regulations).
    #[arg(long, default_value = "dutch")]
    system: String,
    #[command(flatten)]
    knockout: KnockoutArgs,
    #[command(flatten)]
    teams: TeamArgs,
    /// The chief arbiter.
    #[arg(long, default_value = "Chief Arbiter")]
    arbiter: String,
    /// The tournament id (default: chosen by the server).
    #[arg(long)]
    id: Option<String>,
    /// Colour of the top seed in round 1: white or black.
    #[arg(long, default_value = "white")]
    initial_color: String,
    #[command(flatten)]
    data: TournamentData,
    #[command(flatten)]
    conduct: ConductArgs,
}

impl Create {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let Create {
            name,
            rounds,
            start,
            end,
            rule_set,
            system,
            knockout,
            teams,
            arbiter,
            id,
            initial_color,
            data,
            conduct,
        } = self;
        let conduct = conduct.conduct()?;
        let color = match initial_color.to_ascii_lowercase().as_str() {
            "white" | "w" => pb::Color::White,
            "black" | "b" => pb::Color::Black,
            other => {
                return Err(Exit::Invalid(format!(
                    "--initial-color {other:?}: white or black"
                )));
            }
        };
        let rating_kind = match &data.rating_kind {
            Some(k) => rating_kind(k)?,
            None => pb::RatingKind::Standard,
        };
        let pairing_system = match system.to_ascii_lowercase().as_str() {
            "dutch" => pb::PairingSystem::Dutch,
            "dubov" => pb::PairingSystem::Dubov,
            "burstein" => pb::PairingSystem::Burstein,
            "lim" => pb::PairingSystem::Lim,
            "round-robin" | "berger" => pb::PairingSystem::RoundRobin,
            "double-round-robin" | "berger-double" => pb::PairingSystem::DoubleRoundRobin,
            "scheveningen" => pb::PairingSystem::Scheveningen,
            "semi-scheveningen" => pb::PairingSystem::SemiScheveningen,
            "skalitzka" => pb::PairingSystem::Skalitzka,
            "hilton" => pb::PairingSystem::Hilton,
            "knockout" => pb::PairingSystem::Knockout,
            // `arbiter pair --system` names rule sets; here the rule set is its own option.
            rule_set @ ("dutch-2017" | "dutch-2025" | "burstein-bbp") => {
                let system = rule_set.split('-').next().unwrap_or(rule_set);
                return Err(Exit::Invalid(format!(
                    "--system {rule_set:?} is a rule set: use --system {system} --rule-set {rule_set}"
                )));
            }
            other => {
                return Err(Exit::Invalid(format!(
                    "--system {other:?}: dutch, dubov, burstein, lim, round-robin, double-round-robin, scheveningen, semi-scheveningen, skalitzka, hilton or knockout"
                )));
            }
        };
        // Sent for a knockout, and when regulations are given for another system (which
        // the server refuses, rather than dropping them here).
        let knockout = (pairing_system == pb::PairingSystem::Knockout || knockout.given())
            .then(|| knockout.rules())
            .transpose()?;
        let start = match start {
            Some(s) => s,
            None => {
                let today = local_date()?;
                eprintln!(
                    "start date {today} (today; --start YYYY-MM-DD sets another, and it decides the rules in force)"
                );
                today
            }
        };
        let req = reg::CreateTournamentRequest {
            header: c.header(&id.unwrap_or_default()),
            tournament: Some(arbiter_proto::registration::v1::TournamentSettings {
                name,
                place: data.place.clone().unwrap_or_default(),
                federation: data.federation.clone().unwrap_or_default(),
                start_date: Some(wire_date(&start)?),
                end_date: Some(wire_date(end.as_deref().unwrap_or(&start))?),
                chief_arbiter: Some(named_arbiter(arbiter)),
                deputy_arbiters: data.deputies.iter().cloned().map(named_arbiter).collect(),
                pairing_system: pairing_system as i32,
                rule_set: rule_set.unwrap_or_default(),
                rounds,
                initial_color: color as i32,
                rating_kind: rating_kind as i32,
                tie_breaks: data
                    .tie_breaks
                    .as_deref()
                    .map(tie_break_list)
                    .unwrap_or_default(),
                time_control: data.time_control.clone().unwrap_or_default(),
                fide_rated: true,
                conduct: Some(conduct),
                knockout,
                team_rules: teams.rules()?,
                ..Default::default()
            }),
        };
        let r = call("create", c.registration.create_tournament(req)).await?;
        println!("{}", r.tournament_id);
        Ok(())
    }
}

/// How the games of an event are played: over the board, online or hybrid, with what an
/// online event's regulations fix at creation (E.04).
#[derive(clap::Args, Debug)]
pub struct ConductArgs {
    /// How the games are played (E.04 Art. 6.1): otb, online-unsupervised,
    /// online-supervised or hybrid.
    #[arg(long, default_value = "otb")]
    format: String,
    /// The time control as periods, `[MOVES/]BASE[+INCREMENT]` separated by commas, e.g.
    /// "40/90m+30s,30m+30s" (required for online and hybrid events).
    #[arg(long)]
    periods: Option<String>,
    /// Hybrid events: players may use traditional boards (needs 30 s a move from move 1,
    /// E.04 Art. 20).
    #[arg(long)]
    traditional_boards: bool,
    /// Online unsupervised events: ask the fair-play consent too.
    #[arg(long)]
    require_consent: bool,
    /// The version of the regulations players consent to.
    #[arg(long, default_value = "")]
    regulations: String,
    /// Online events: how long a disconnected player has to come back besides his clock
    /// (e.g. 5m; E.04 11.4.2); default: until his flag falls.
    #[arg(long)]
    reconnection_window: Option<String>,
    /// Online supervised events: video-conference cards (E.04 13.4): the breach that
    /// reaches this count is a red card (the game lost), earlier ones yellow.
    #[arg(long, default_value_t = 0)]
    vcs_red_card_after: u32,
    /// The announced deadline for appeals after a decision (e.g. 30m; GR 10.3); default:
    /// none announced.
    #[arg(long)]
    appeal_deadline: Option<String>,
    /// Online supervised events: what the regulations ask of each player's supervision,
    /// comma-separated: camera (8.1), room-inspection (10.4), backup-device (9.8.1),
    /// assistants (8.2), recording (A.5), surroundings (A.6), vcs-before=DURATION (13.2).
    #[arg(long)]
    supervision: Option<String>,
    /// Online and hybrid events: the platform's name (E.04 2.4).
    #[arg(long)]
    platform: Option<String>,
    /// The platform's address (https://...).
    #[arg(long, requires = "platform")]
    platform_url: Option<String>,
    /// The platform's features, comma-separated: premove, smart-move, auto-queen,
    /// call-arbiter-pauses-clocks, berserk, draw-offer-with-move,
    /// auto-draw-extra-positions, smart-board-input.
    #[arg(long, requires = "platform")]
    platform_features: Option<String>,
    /// The platform accepts illegal moves, and this is how the regulations handle them
    /// (E.04 8.4, 16.10).
    #[arg(long, requires = "platform")]
    illegal_move_policy: Option<String>,
}

impl ConductArgs {
    fn conduct(self) -> Result<pb::Conduct, Exit> {
        use crate::cmd::online;
        let o = |v: &Option<String>| v.clone().unwrap_or_default();
        let (reconnection_window, appeal_deadline) =
            (o(&self.reconnection_window), o(&self.appeal_deadline));
        let (periods, supervision) = (o(&self.periods), o(&self.supervision));
        let (platform, platform_url) = (o(&self.platform), o(&self.platform_url));
        let (platform_features, illegal_move_policy) =
            (o(&self.platform_features), o(&self.illegal_move_policy));
        let vcs = self.vcs_red_card_after.to_string();
        online::conduct(&online::ConductText {
            format: &self.format,
            periods: &periods,
            traditional_boards: self.traditional_boards,
            require_consent: self.require_consent,
            regulations: &self.regulations,
            reconnection_window: &reconnection_window,
            vcs_red_card_after: &vcs,
            appeal_deadline: &appeal_deadline,
            supervision: &supervision,
            platform: &platform,
            platform_url: &platform_url,
            platform_features: &platform_features,
            illegal_move_policy: &illegal_move_policy,
        })
        .map_err(Exit::Invalid)
    }
}

#[derive(clap::Args, Debug)]
pub struct Update {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// The new name.
    #[arg(long)]
    name: Option<String>,
    /// The chief arbiter.
    #[arg(long)]
    arbiter: Option<String>,
    /// Remove every deputy arbiter.
    #[arg(long, conflicts_with = "deputies")]
    no_deputies: bool,
    /// The new number of rounds (not below the rounds already started).
    #[arg(long)]
    rounds: Option<u32>,
    /// YYYY-MM-DD.
    #[arg(long)]
    start: Option<String>,
    /// YYYY-MM-DD.
    #[arg(long)]
    end: Option<String>,
    #[command(flatten)]
    data: TournamentData,
}

impl Update {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let data = self.data;
        let update = reg::TournamentChanges {
            name: self.name,
            place: data.place,
            start_date: self.start.as_deref().map(wire_date).transpose()?,
            end_date: self.end.as_deref().map(wire_date).transpose()?,
            chief_arbiter: self.arbiter.map(named_arbiter),
            rounds: self.rounds,
            replace_tie_breaks: data.tie_breaks.is_some(),
            tie_breaks: data
                .tie_breaks
                .as_deref()
                .map(tie_break_list)
                .unwrap_or_default(),
            federation: data.federation,
            replace_deputy_arbiters: self.no_deputies || !data.deputies.is_empty(),
            deputy_arbiters: data.deputies.into_iter().map(named_arbiter).collect(),
            time_control: data.time_control,
            rating_kind: match &data.rating_kind {
                Some(k) => rating_kind(k)? as i32,
                None => 0,
            },
            // The prize fund is announced from the console's prize screen (or the API).
            prize_fund: None,
        };
        let r = c.update(&self.tournament, update).await?;
        print_result("updated", &r);
        Ok(())
    }
}

#[derive(clap::Args, Debug)]
pub struct TieBreaks {
    /// The tournament's identifier (as given at creation).
    tournament: String,
    /// C.07 codes separated by commas, e.g. "BH:C1,BH,SB" (empty: the recommended list).
    list: String,
}

impl TieBreaks {
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        let update = reg::TournamentChanges {
            replace_tie_breaks: true,
            tie_breaks: tie_break_list(&self.list),
            ..Default::default()
        };
        let r = c.update(&self.tournament, update).await?;
        print_result("tie-breaks set", &r);
        Ok(())
    }
}

pub(super) async fn list(c: &mut Clients) -> Result<(), Exit> {
    let rpc = c
        .registration
        .list_tournaments(reg::ListTournamentsRequest {});
    for t in call("list", rpc).await?.tournaments {
        println!(
            "{}  {}  {} players, {} rounds, version {}",
            t.tournament_id, t.name, t.players, t.rounds, t.version
        );
    }
    Ok(())
}

impl Clients {
    pub async fn update(
        &mut self,
        tournament: &str,
        update: reg::TournamentChanges,
    ) -> Result<CommandResult, Exit> {
        let req = reg::UpdateTournamentRequest {
            header: self.header(tournament),
            update: Some(update),
        };
        call("update", self.registration.update_tournament(req)).await
    }
}

/// Tournament data that can be set at creation and changed later.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct TournamentData {
    /// City or venue.
    #[arg(long)]
    pub place: Option<String>,
    /// Organising federation, FIDE code (e.g. NOR).
    #[arg(long)]
    pub federation: Option<String>,
    /// A deputy arbiter (repeat for several); replaces the list.
    #[arg(long = "deputy")]
    pub deputies: Vec<String>,
    /// e.g. "90'+30\"".
    #[arg(long)]
    pub time_control: Option<String>,
    /// standard, rapid or blitz (only before round 1 starts).
    #[arg(long)]
    pub rating_kind: Option<String>,
    /// Tie-breaks in order, comma-separated, e.g. "BH/C1,BH,SB,DE".
    #[arg(long)]
    pub tie_breaks: Option<String>,
}

/// A knockout's regulations (`--system knockout`; Arbiters' Manual 2023 ch. IV §6.2). The rules fix none of
/// them, so none has a default: the server refuses a missing one naming it.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct KnockoutArgs {
    /// Seeding of the bracket: rating, or pairing-number (registration or drawing-of-lots order).
    #[arg(long)]
    pub ko_seeding: Option<String>,
    /// Classical games of each match (1-8).
    #[arg(long)]
    pub ko_classical_games: Option<u32>,
    /// The tie-break stages in order, comma-separated `KIND:GAMES[:TIME CONTROL]`, kind rapid
    /// or blitz, e.g. "rapid:2:25m+10s,blitz:2:5m+3s"; "none" for no stage.
    #[arg(long)]
    pub ko_tie_breaks: Option<String>,
    /// Who has White in game 1: higher-seed-white, higher-seed-black or lot.
    #[arg(long)]
    pub ko_first_colour: Option<String>,
    /// Each tie-break stage's first game: continue (the match's alternation), restart (game
    /// 1's colours) or lot.
    #[arg(long)]
    pub ko_tie_break_colours: Option<String>,
    /// White in the Armageddon game (White must win): lot, higher-seed-white,
    /// higher-seed-black or continue.
    #[arg(long)]
    pub ko_armageddon_colour: Option<String>,
    /// The Armageddon game's time control, e.g. "5m/4m".
    #[arg(long)]
    pub ko_armageddon_time_control: Option<String>,
    /// The published seed the lots are drawn from (required when a colour is drawn by lot).
    #[arg(long)]
    pub ko_lot_seed: Option<String>,
}

impl KnockoutArgs {
    fn given(&self) -> bool {
        self.ko_seeding.is_some()
            || self.ko_classical_games.is_some()
            || self.ko_tie_breaks.is_some()
            || self.ko_first_colour.is_some()
            || self.ko_tie_break_colours.is_some()
            || self.ko_armageddon_colour.is_some()
            || self.ko_armageddon_time_control.is_some()
            || self.ko_lot_seed.is_some()
    }

    /// The regulations as the wire carries them; a choice not given stays unspecified, for the
    /// server to refuse by name.
    fn rules(&self) -> Result<pb::KnockoutRules, Exit> {
        use arbiter_proto::text;
        fn pick<T>(
            flag: &str,
            v: &Option<String>,
            read: fn(&str) -> Result<T, String>,
            none: T,
        ) -> Result<T, Exit> {
            match v {
                None => Ok(none),
                Some(v) => read(v).map_err(|e| Exit::Invalid(format!("{flag} {e}"))),
            }
        }
        use pb::{
            KnockoutArmageddonColour as A, KnockoutFirstColour as F, KnockoutSeeding as S,
            KnockoutTieBreakColours as C,
        };
        let seeding = pick(
            "--ko-seeding",
            &self.ko_seeding,
            text::knockout_seeding,
            S::Unspecified,
        )?;
        let first = pick(
            "--ko-first-colour",
            &self.ko_first_colour,
            text::knockout_first_colour,
            F::Unspecified,
        )?;
        let tie_break_colours = pick(
            "--ko-tie-break-colours",
            &self.ko_tie_break_colours,
            text::knockout_tie_break_colours,
            C::Unspecified,
        )?;
        let armageddon = pick(
            "--ko-armageddon-colour",
            &self.ko_armageddon_colour,
            text::knockout_armageddon_colour,
            A::Unspecified,
        )?;
        let stages = pick(
            "--ko-tie-breaks",
            &self.ko_tie_breaks,
            text::knockout_stages,
            Vec::new(),
        )?;
        Ok(pb::KnockoutRules {
            seeding: seeding as i32,
            classical_games: self.ko_classical_games.unwrap_or(0),
            tie_breaks: stages,
            first_colour: first as i32,
            tie_break_colours: tie_break_colours as i32,
            armageddon_colour: armageddon as i32,
            armageddon_time_control: self.ko_armageddon_time_control.clone().unwrap_or_default(),
            lot_seed: self.ko_lot_seed.clone().unwrap_or_default(),
        })
    }
}

fn wire_date(s: &str) -> Result<pb::Date, Exit> {
    let d: arbiter_core::tournament::Date = s
        .parse()
        .map_err(|e| Exit::Invalid(format!("date {s:?}: {e}")))?;
    Ok(date_to_wire(d))
}

fn named_arbiter(name: String) -> pb::Arbiter {
    pb::Arbiter {
        name,
        fide_id: None,
        title: String::new(),
    }
}

fn rating_kind(s: &str) -> Result<pb::RatingKind, Exit> {
    match s.to_ascii_lowercase().as_str() {
        "standard" | "std" => Ok(pb::RatingKind::Standard),
        "rapid" => Ok(pb::RatingKind::Rapid),
        "blitz" => Ok(pb::RatingKind::Blitz),
        other => Err(Exit::Invalid(format!(
            "--rating-kind {other:?}: standard, rapid or blitz"
        ))),
    }
}

/// "BH/C1, BH,SB" as a list; the server checks the codes.
fn tie_break_list(s: &str) -> Vec<String> {
    s.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

/// Today's date in the local time zone, YYYY-MM-DD.
fn local_date() -> Result<String, Exit> {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_err(|e| Exit::Invalid(format!("the clock is before 1970: {e}")))?
        .as_secs() as libc::time_t;
    // SAFETY: localtime_r writes only into `tm`, which lives for the call.
    let mut tm: libc::tm = unsafe { std::mem::zeroed() };
    if unsafe { libc::localtime_r(&now, &mut tm) }.is_null() {
        return Err(Exit::Invalid(
            "today's local date cannot be read: give --start YYYY-MM-DD".into(),
        ));
    }
    Ok(format!(
        "{:04}-{:02}-{:02}",
        tm.tm_year + 1900,
        tm.tm_mon + 1,
        tm.tm_mday
    ))
}
