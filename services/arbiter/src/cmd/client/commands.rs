//! The subcommands of `arbiter client`, one per RPC, with the help an arbiter reads; each
//! one's arguments and handler are in the module of the service it calls.

use super::*;

/// The subcommands in the order a tournament needs them. Players are named as `E7` (entry
/// number: stable) or `12` (pairing number: late entries and registrations before round 1
/// change it, see --as-of).
#[derive(clap::Subcommand, Debug)]
// Parsed once per run: `create`'s many options cost nothing worth a box.
#[allow(clippy::large_enum_variant)]
pub enum ClientCommand {
    /// 1. Set-up: create a tournament; prints its id.
    Create(setup::Create),
    /// 1. Set-up: change name, place, federation, arbiters, time control, rating list,
    ///    tie-breaks, dates or rounds.
    Update(setup::Update),
    /// 1. Set-up: set the tie-break list, e.g. "BH/C1,BH,SB,DE".
    TieBreaks(setup::TieBreaks),
    /// 2. Players: register a player; prints his pairing number and entry number. Once round
    ///    1 is paired he is a late entry (C.04.2.C), which it prints.
    Register(registration::Register),
    /// 2. Players: a late entry (C.04.2.C): paired from --first-round; prints his numbers.
    LateEntry(registration::LateEntry),
    /// 2. Players: list them: pairing number, entry number, name, rating, status.
    Players(registration::Players),
    /// 2. Players: correct a player's data (before round 1 starts he moves to his place).
    CorrectPlayer(registration::CorrectPlayer),
    /// 3. Before a round: request a bye (half, zero or full).
    Bye(registration::Bye),
    /// 3. Before a round: cancel a requested bye.
    CancelBye(registration::CancelBye),
    /// 3. Before a round: declare a player absent from a round (not paired, zero points).
    Absent(registration::Absent),
    /// 2. Players: record a player's fair-play consent for an online or hybrid event (E.04
    ///    Appendix I J); without it he is not paired.
    Consent(registration::Consent),
    /// 2. Players: a round robin's drawing of lots (C.05 §6.2), once, before round 1: from a
    ///    published --seed (the service draws; anyone re-derives it), or the --numbers drawn in
    ///    the hall. --varma: the restricted draw of the Varma tables (C.05 Annex 2).
    DrawLots(registration::DrawLots),
    /// 2. Players: a team's list in board order (a team event, before round 1): its players'
    ///    pairing numbers, comma-separated; numbered in seeding order (0 = the next).
    RecordTeam(teams::RecordTeam),
    /// 4. A team event's round: a team's line-up, board 1 first (pairing numbers of its list,
    ///    in the list's order), before the round's boards are published.
    Lineup(teams::Lineup),
    /// 2. Players: cancel a registration made in error (a duplicate, the wrong player) before
    ///    he is first paired: he leaves the list, the numbers below close up. Once a published
    ///    pairing lists him, withdraw him instead.
    CancelRegistration(registration::CancelRegistration),
    /// 3. Before a round: withdraw a player (from the next round to pair, or --from-round).
    Withdraw(registration::Withdraw),
    /// 4. Pairing: start a round and wait for the pairing worker's proposal.
    StartRound(round_director::StartRound),
    /// 4. Pairing: show the pairings of a round (proposed or published).
    Pairings(reporting::Pairings),
    /// 4. Pairing: ask the pairing worker for a new pairing of a started round.
    Repair(round_director::Repair),
    /// 5. Publish: the proposal, or an amended pairing (--board W-B ... with a --note).
    Publish(round_director::Publish),
    /// 6. Results: record one: 1-0, 0-1, 1/2, +/-, -/+, -/-, W/L, D/D, L/W (not rated), or an
    ///    arbiter's decision 0-0, 1/2-0, 0-1/2, 1-1/2, 1/2-1, 1-1.
    Result(round_director::RecordResult),
    /// 6. Results: online and hybrid events: the arbiter's result in place of the platform's
    ///    (the submitted game's), with a reason (E.04 9.14, 15.3-15.4).
    Override(discipline::Override),
    /// 6. Results: a sanction of the Laws' catalogue (12.9) with its evidence: warning,
    ///    add-time, reduce-time, increase-opponent-score, reduce-score, game-lost, fine,
    ///    exclusion, expulsion. Statistical evidence alone is refused.
    Sanction(discipline::Sanction),
    /// 6. Results: an irregularity on a board: colours-reversed (the rule decides), clock-wrong,
    ///    interrupted, arbiter-called.
    Irregularity(discipline::Irregularity),
    /// 6. Results: online supervised events: a breach of the supervision rules by a board's
    ///    player (E.04 8, 9, 10.4, 12-14), e.g. person-in-playing-area, headphones; prints
    ///    the breach's number.
    SupervisionBreach(discipline::SupervisionBreach),
    /// 6. Results: online and hybrid events: a player's lost connection during his game
    ///    (E.04 11, 13, 18.8); prints the incident's number.
    Disconnect(discipline::Disconnect),
    /// 6. Results: the chief arbiter's ruling on a disconnection: continue, loss, draw
    ///    (no mating material), and in hybrid events resume, reduce-time, restart,
    ///    restart-shorter (E.04 11.4, 18.9).
    Rule(discipline::Rule),
    /// 7. Appeals: appeal an arbiter's decision, named by its event's stream version (a
    ///    result, an override, a sanction, an irregularity or a disconnection ruling).
    Appeal(discipline::Appeal),
    /// 7. Appeals: the appeals committee's decision (an odd number of members, at least three);
    ///    an upheld appeal may set a board's result.
    DecideAppeal(discipline::DecideAppeal),
    /// 7. Corrections: correct a recorded result (C.04.2.D.8).
    Correct(round_director::Correct),
    /// 7. Games: submit a round's games from one PGN file for fair-play screening: each game
    ///    goes to the board whose White and Black are its White and Black tags (registered
    ///    names); all or nothing (a refused game is named and nothing is submitted); at most
    ///    8 MiB, 1 MiB a game; games already submitted: refused (ALREADY_EXISTS).
    SubmitGames(screening::SubmitGames),
    /// 8. Online and hybrid events: a participant's written fair-play complaint (E.04 Appendix
    ///    I G.2): within 24 hours of the last round, not on the rating alone; confidential.
    Complain(screening::Complain),
    /// 8. Fair play: the full test (arbiters, fair-play officers): of every player, or in the
    ///    policy's order of those the quick test put at Watch (`--watched`) and those named
    ///    (`--player N`); prints the performances with their IPR; confidential, the read is
    ///    recorded with `--reason`.
    FullTest(screening::FullTest),
    /// 8. Fair play: every screening result and complaint so far (confidential, the read is
    ///    recorded with `--reason`).
    Screening(screening::Screening),
    /// 8. The arbiter's record: platform discrepancies and overrides, irregularities,
    ///    sanctions, connection incidents and rulings, appeals, with their stream versions.
    Record(discipline::Record),
    /// 8. Close a round (every result in).
    Close(round_director::Close),
    /// 9. Finish the tournament.
    Finish(round_director::Finish),
    /// 10. Show the standings: place (shared as "3-5"), points and the tournament's tie-breaks
    ///     (else the recommended list), as on the pages and in the export.
    Standings(reporting::Standings),
    /// 10. Write the TRF16 export.
    Export(reporting::Export),
    /// Any time: show the tournament's state.
    Show(round_director::Show),
    /// Any time: follow the tournament live (pushed, no polling): the latest round's pairings
    ///     and results and the standings, printed again at every change until interrupted.
    Watch(reporting::Watch),
    /// Any time: a round robin's whole schedule by pairing numbers, the drawing of lots that
    /// gave the numbers, and the rounds where compatriots meet.
    Schedule(round_director::Schedule),
    /// Any time: list the tournaments.
    List,
}

impl ClientCommand {
    /// Sends the subcommand to its service and prints the answer.
    pub(super) async fn run(self, c: &mut Clients) -> Result<(), Exit> {
        use ClientCommand as C;
        match self {
            C::Create(a) => a.run(c).await,
            C::Update(a) => a.run(c).await,
            C::TieBreaks(a) => a.run(c).await,
            C::Register(a) => a.run(c).await,
            C::LateEntry(a) => a.run(c).await,
            C::Players(a) => a.run(c).await,
            C::CorrectPlayer(a) => a.run(c).await,
            C::Bye(a) => a.run(c).await,
            C::CancelBye(a) => a.run(c).await,
            C::Absent(a) => a.run(c).await,
            C::Consent(a) => a.run(c).await,
            C::DrawLots(a) => a.run(c).await,
            C::RecordTeam(a) => a.run(c).await,
            C::Lineup(a) => a.run(c).await,
            C::CancelRegistration(a) => a.run(c).await,
            C::Withdraw(a) => a.run(c).await,
            C::StartRound(a) => a.run(c).await,
            C::Pairings(a) => a.run(c).await,
            C::Repair(a) => a.run(c).await,
            C::Publish(a) => a.run(c).await,
            C::Result(a) => a.run(c).await,
            C::Override(a) => a.run(c).await,
            C::Sanction(a) => a.run(c).await,
            C::Irregularity(a) => a.run(c).await,
            C::SupervisionBreach(a) => a.run(c).await,
            C::Disconnect(a) => a.run(c).await,
            C::Rule(a) => a.run(c).await,
            C::Appeal(a) => a.run(c).await,
            C::DecideAppeal(a) => a.run(c).await,
            C::Correct(a) => a.run(c).await,
            C::SubmitGames(a) => a.run(c).await,
            C::Complain(a) => a.run(c).await,
            C::FullTest(a) => a.run(c).await,
            C::Screening(a) => a.run(c).await,
            C::Record(a) => a.run(c).await,
            C::Close(a) => a.run(c).await,
            C::Finish(a) => a.run(c).await,
            C::Standings(a) => a.run(c).await,
            C::Watch(a) => a.run(c).await,
            C::Export(a) => a.run(c).await,
            C::Show(a) => a.run(c).await,
            C::Schedule(a) => a.run(c).await,
            C::List => setup::list(c).await,
        }
    }
}
