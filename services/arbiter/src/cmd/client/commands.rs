//! The subcommands of `arbiter client`, one per RPC, with the help an arbiter reads.

use super::*;

/// The subcommands in the order a tournament needs them. Players are named as `E7` (entry
/// number: stable) or `12` (pairing number: late entries and registrations before round 1
/// change it, see --as-of).
#[derive(clap::Subcommand, Debug)]
// Parsed once per run: `create`'s many options cost nothing worth a box.
#[allow(clippy::large_enum_variant)]
pub enum ClientCommand {
    /// 1. Set-up: create a tournament; prints its id.
    Create {
        #[arg(long)]
        name: String,
        #[arg(long)]
        rounds: u32,
        /// Start date, YYYY-MM-DD (default: today's local date, which the command prints). It
        /// decides the rules in force (the Dutch rule set, the tie-break regulations).
        #[arg(long)]
        start: Option<String>,
        /// End date, YYYY-MM-DD (default: the start date).
        #[arg(long)]
        end: Option<String>,
        /// dutch-2017 or dutch-2025 (default: the rules in force on the start date).
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
    },
    /// 1. Set-up: change name, place, federation, arbiters, time control, rating list,
    ///    tie-breaks, dates or rounds.
    Update {
        tournament: String,
        #[arg(long)]
        name: Option<String>,
        /// The chief arbiter.
        #[arg(long)]
        arbiter: Option<String>,
        /// Remove every deputy arbiter.
        #[arg(long, conflicts_with = "deputies")]
        no_deputies: bool,
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
    },
    /// 1. Set-up: set the tie-break list, e.g. "BH/C1,BH,SB,DE".
    TieBreaks { tournament: String, list: String },
    /// 2. Players: register a player; prints his pairing number and entry number. Once round
    ///    1 is paired he is a late entry (C.04.2.C), which it prints.
    Register {
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
    },
    /// 2. Players: a late entry (C.04.2.C): paired from --first-round; prints his numbers.
    LateEntry {
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
    },
    /// 2. Players: list them: pairing number, entry number, name, rating, status.
    Players { tournament: String },
    /// 2. Players: correct a player's data (before round 1 starts he moves to his place).
    CorrectPlayer {
        tournament: String,
        /// E7 (entry) or 12 (pairing number).
        player: PlayerArg,
        #[arg(long)]
        name: Option<String>,
        #[arg(long)]
        rating: Option<u32>,
        #[arg(long)]
        fide_id: Option<u64>,
        /// GM, IM, WGM, FM, WIM, CM, WFM, WCM, or "none".
        #[arg(long)]
        title: Option<String>,
        #[arg(long)]
        federation: Option<String>,
        #[arg(long)]
        club: Option<String>,
        /// Why (recorded with the correction).
        #[arg(long)]
        reason: String,
        #[command(flatten)]
        as_of: AsOf,
    },
    /// 3. Before a round: request a bye (half, zero or full).
    Bye {
        tournament: String,
        /// E7 (entry) or 12 (pairing number).
        player: PlayerArg,
        round: u32,
        #[arg(long, default_value = "half")]
        kind: String,
        #[command(flatten)]
        as_of: AsOf,
    },
    /// 3. Before a round: cancel a requested bye.
    CancelBye {
        tournament: String,
        /// E7 (entry) or 12 (pairing number).
        player: PlayerArg,
        round: u32,
        #[command(flatten)]
        as_of: AsOf,
    },
    /// 3. Before a round: declare a player absent from a round (not paired, zero points).
    Absent {
        tournament: String,
        /// E7 (entry) or 12 (pairing number).
        player: PlayerArg,
        round: u32,
        #[arg(long, default_value = "")]
        reason: String,
        #[command(flatten)]
        as_of: AsOf,
    },
    /// 2. Players: record a player's fair-play consent for an online or hybrid event (E.04
    ///    Appendix I J); without it he is not paired.
    Consent {
        tournament: String,
        /// E7 (entry) or 12 (pairing number).
        player: PlayerArg,
        /// The version of the event's regulations he accepts.
        #[arg(long)]
        regulations: String,
        /// Who accepted: the player, or his guardian (with --guardian).
        #[arg(long)]
        accepted_by: String,
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
    },
    /// 2. Players: a round robin's drawing of lots (C.05 §6.2), once, before round 1: from a
    ///    published --seed (the service draws; anyone re-derives it), or the --numbers drawn in
    ///    the hall. --varma: the restricted draw of the Varma tables (C.05 Annex 2).
    DrawLots {
        tournament: String,
        #[arg(long)]
        varma: bool,
        #[arg(long, default_value = "", conflicts_with = "numbers")]
        seed: String,
        /// The number drawn by each player, in pairing-number order, comma-separated
        /// (e.g. 3,1,2 gives player 1 number 3).
        #[arg(long, value_delimiter = ',')]
        numbers: Vec<u32>,
    },
    /// 2. Players: a team's list in board order (a team event, before round 1): its players'
    ///    pairing numbers, comma-separated; numbered in seeding order (0 = the next).
    RecordTeam {
        tournament: String,
        #[arg(long)]
        name: String,
        #[arg(long, default_value_t = 0)]
        number: u32,
        #[arg(long, value_delimiter = ',', required = true)]
        members: Vec<u32>,
    },
    /// 4. A team event's round: a team's line-up, board 1 first (pairing numbers of its list,
    ///    in the list's order), before the round's boards are published.
    Lineup {
        tournament: String,
        round: u32,
        team: u32,
        #[arg(value_delimiter = ',', required = true)]
        players: Vec<u32>,
    },
    /// 2. Players: cancel a registration made in error (a duplicate, the wrong player) before
    ///    he is first paired: he leaves the list, the numbers below close up. Once a published
    ///    pairing lists him, withdraw him instead.
    CancelRegistration {
        tournament: String,
        /// E7 (entry) or 12 (pairing number).
        player: PlayerArg,
        /// Why (recorded with the cancellation).
        #[arg(long, default_value = "")]
        reason: String,
        #[command(flatten)]
        as_of: AsOf,
    },
    /// 3. Before a round: withdraw a player (from the next round to pair, or --from-round).
    Withdraw {
        tournament: String,
        /// E7 (entry) or 12 (pairing number).
        player: PlayerArg,
        #[arg(long)]
        from_round: Option<u32>,
        #[arg(long, default_value = "")]
        reason: String,
        #[command(flatten)]
        as_of: AsOf,
    },
    /// 4. Pairing: start a round and wait for the pairing worker's proposal.
    StartRound {
        tournament: String,
        round: u32,
        /// Seconds to wait for the proposal.
        #[arg(long, default_value_t = 30)]
        wait: u64,
    },
    /// 4. Pairing: show the pairings of a round (proposed or published).
    Pairings { tournament: String, round: u32 },
    /// 4. Pairing: ask the pairing worker for a new pairing of a started round.
    Repair {
        tournament: String,
        round: u32,
        #[arg(long, default_value = "")]
        reason: String,
    },
    /// 5. Publish: the proposal, or an amended pairing (--board W-B ... with a --note).
    Publish {
        tournament: String,
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
    },
    /// 6. Results: record one: 1-0, 0-1, 1/2, +/-, -/+, -/-, W/L, D/D, L/W (not rated), or an
    ///    arbiter's decision 0-0, 1/2-0, 0-1/2, 1-1/2, 1/2-1, 1-1.
    Result {
        tournament: String,
        round: u32,
        board: u32,
        #[arg(allow_hyphen_values = true)]
        result: String,
    },
    /// 6. Results: online and hybrid events: the arbiter's result in place of the platform's
    ///    (the submitted game's), with a reason (E.04 9.14, 15.3-15.4).
    Override {
        tournament: String,
        round: u32,
        board: u32,
        /// 1-0, 0-1 or 1/2 (or unrated W/L, D/D, L/W).
        #[arg(allow_hyphen_values = true)]
        result: String,
        #[arg(long)]
        reason: String,
    },
    /// 6. Results: a sanction of the Laws' catalogue (12.9) with its evidence: warning,
    ///    add-time, reduce-time, increase-opponent-score, reduce-score, game-lost, fine,
    ///    exclusion, expulsion. Statistical evidence alone is refused.
    Sanction {
        tournament: String,
        /// E7 (entry) or 12 (pairing number).
        player: PlayerArg,
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
        #[arg(long, default_value = "")]
        note: String,
        #[command(flatten)]
        as_of: AsOf,
    },
    /// 6. Results: an irregularity on a board: colours-reversed (the rule decides), clock-wrong,
    ///    interrupted, arbiter-called.
    Irregularity {
        tournament: String,
        round: u32,
        board: u32,
        kind: String,
        /// Half-moves played when it was found.
        #[arg(long, default_value_t = 0)]
        plies: u32,
        /// continue, clocks-corrected, clocks-stopped, time-added (not for colours-reversed).
        #[arg(long)]
        decision: Option<String>,
        #[arg(long, default_value = "")]
        note: String,
    },
    /// 6. Results: online supervised events: a breach of the supervision rules by a board's
    ///    player (E.04 8, 9, 10.4, 12-14), e.g. person-in-playing-area, headphones; prints
    ///    the breach's number.
    SupervisionBreach {
        tournament: String,
        round: u32,
        board: u32,
        /// The player's pairing number.
        player: u32,
        item: String,
        #[arg(long, default_value = "")]
        note: String,
    },
    /// 6. Results: online and hybrid events: a player's lost connection during his game
    ///    (E.04 11, 13, 18.8); prints the incident's number.
    Disconnect {
        tournament: String,
        round: u32,
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
        #[arg(long, default_value = "")]
        note: String,
    },
    /// 6. Results: the chief arbiter's ruling on a disconnection: continue, loss, draw
    ///    (no mating material), and in hybrid events resume, reduce-time, restart,
    ///    restart-shorter (E.04 11.4, 18.9).
    Rule {
        tournament: String,
        incident: u32,
        outcome: String,
        /// The position at the flag or the interruption (needed for loss, draw, resume).
        #[arg(long, default_value = "")]
        fen: String,
        /// Resume: White's and Black's clocks (e.g. 9m, or 545 seconds).
        #[arg(long)]
        white_clock: Option<String>,
        #[arg(long)]
        black_clock: Option<String>,
        /// Reduce-time: by how much.
        #[arg(long)]
        reduce: Option<String>,
        /// Restart-shorter: the time control.
        #[arg(long, default_value = "")]
        time_control: String,
        #[arg(long, default_value = "")]
        note: String,
    },
    /// 7. Appeals: appeal an arbiter's decision, named by its event's stream version (a
    ///    result, an override, a sanction, an irregularity or a disconnection ruling).
    Appeal {
        tournament: String,
        /// The appellant: E7 (entry) or 12 (pairing number).
        appellant: PlayerArg,
        /// The stream version of the decision's event (`show`, `StreamEvents`).
        decision_version: u64,
        #[arg(long)]
        grounds: String,
        #[arg(long, default_value = "")]
        deposit: String,
        #[command(flatten)]
        as_of: AsOf,
    },
    /// 7. Appeals: the appeals committee's decision (an odd number of members, at least three);
    ///    an upheld appeal may set a board's result.
    DecideAppeal {
        tournament: String,
        appeal: u32,
        #[arg(long)]
        upheld: bool,
        /// A member who sat (repeat).
        #[arg(long = "member")]
        committee: Vec<String>,
        #[arg(long)]
        deposit_returned: bool,
        /// The result the decision sets: ROUND BOARD RESULT, e.g. "3 5 1/2".
        #[arg(long, num_args = 3, value_names = ["ROUND", "BOARD", "RESULT"], allow_hyphen_values = true)]
        result: Option<Vec<String>>,
        #[arg(long, default_value = "")]
        note: String,
    },
    /// 7. Corrections: correct a recorded result (C.04.2.D.8).
    Correct {
        tournament: String,
        round: u32,
        board: u32,
        #[arg(allow_hyphen_values = true)]
        result: String,
        #[arg(long)]
        reason: String,
    },
    /// 7. Games: submit a round's games from one PGN file for fair-play screening: each game
    ///    goes to the board whose White and Black are its White and Black tags (registered
    ///    names); all or nothing (a refused game is named and nothing is submitted); at most
    ///    8 MiB, 1 MiB a game; games already submitted: refused (ALREADY_EXISTS).
    SubmitGames {
        tournament: String,
        round: u32,
        /// The PGN file (UTF-8).
        file: PathBuf,
    },
    /// 8. Online and hybrid events: a participant's written fair-play complaint (E.04 Appendix
    ///    I G.2): within 24 hours of the last round, not on the rating alone; confidential.
    Complain {
        tournament: String,
        /// The complainant: E7 (entry) or 12 (pairing number); he needs a FIDE id.
        complainant: PlayerArg,
        /// The accused's pairing number.
        accused: u32,
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
    },
    /// 8. The arbiter's record: platform discrepancies and overrides, irregularities,
    ///    sanctions, connection incidents and rulings, appeals, with their stream versions.
    Record { tournament: String },
    /// 8. Close a round (every result in).
    Close { tournament: String, round: u32 },
    /// 9. Finish the tournament.
    Finish { tournament: String },
    /// 10. Show the standings: place (shared as "3-5"), points and the tournament's tie-breaks
    ///     (else the recommended list), as on the pages and in the export.
    Standings {
        tournament: String,
        /// After this round (default: the last round whose results are all in).
        #[arg(long, default_value_t = 0)]
        after_round: u32,
    },
    /// 10. Write the TRF16 export.
    Export {
        tournament: String,
        #[arg(short = 'o', long = "out")]
        output: Option<PathBuf>,
    },
    /// Any time: show the tournament's state.
    Show { tournament: String },
    /// Any time: a round robin's whole schedule by pairing numbers, the drawing of lots that
    /// gave the numbers, and the rounds where compatriots meet.
    Schedule { tournament: String },
    /// Any time: list the tournaments.
    List,
}
