//! The TRF export in each dialect, with everything an import carried in: the tournament header
//! (`092` type as written, `112` deputies, `132` round dates), the point system, acceleration
//! (the virtual points of every player, round by round), forbidden pairings and teams.
//!
//! [`trf_file`] writes the players, results, standings and the engine lines of
//! TRF16; [`trf_export_file`] adds what it does not know and writes the records of the dialect asked
//! for: JaVaFo's (`XXS`, `XXA`, `XXP`, `013`), bbpPairings' (`BB?` for the point system where
//! its codes express it), or TRF-2026 (`142`, `152`, `162`, `192`, `250`, `260`, `310`).

use arbiter_core::tournament::{Sex, State, TeamRecorded};
use arbiter_core::{Color, PlayerId, PointSystem, ResultCode, RoundEntry, Score};
use arbiter_standings::complete_rounds;
use arbiter_trf::{
    AccelerationSource, BirthDate, PlayerRecord, Profile, ProhibitedRecord, Record, RoundDate,
    RoundDates, Team013, Team310, TextCode, TextRecord, TrfFile, XxaRecord, XxcOption, XxsCode,
    XxsEntry,
};

/// The reason `arbiter import` gives the absence of a player whose round block is blank (not
/// paired): the export writes such a round blank again, where other absences are `Z`.
pub const NOT_PAIRED_IN_FILE: &str = "not paired in the imported file";

/// The dialect of an export.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// TRF16 with JaVaFo's extension lines (`XXR`, `XXC`, `XXS`, `XXA`, `XXP`): TRF(x).
    Trfx,
    /// TRF16 with bbpPairings' point lines (`BB?`) where they express the point system, else
    /// `XXS`: TRF(bx).
    Trfbx,
    /// TRF-2026.
    Trf2026,
}

impl Dialect {
    /// The dialect for a name as the command line writes it.
    pub fn parse(s: &str) -> Option<Dialect> {
        match s.to_ascii_lowercase().as_str() {
            "trf16" | "trfx" | "trf-x" => Some(Dialect::Trfx),
            "trfbx" | "trf-bx" => Some(Dialect::Trfbx),
            "trf2026" | "trf-2026" => Some(Dialect::Trf2026),
            _ => None,
        }
    }

    /// The dialect a parsed file is written in: TRF-2026 when its records say so, TRF(bx)
    /// when it has `BB?` lines, else TRF(x).
    pub fn of(file: &TrfFile) -> Dialect {
        if file.profile() == Profile::Trf2026 {
            Dialect::Trf2026
        } else if file.records.iter().any(|r| matches!(r, Record::Bb(..))) {
            Dialect::Trfbx
        } else {
            Dialect::Trfx
        }
    }
}

/// The rule set's encoded type code (TRF-2026 `192`; bbpPairings v6 reads it from `092`).
fn type_code(rule_set: &str) -> Option<&'static str> {
    match rule_set {
        "dutch-2017" => Some("FIDE_DUTCH_2017"),
        "dutch-2025" => Some("FIDE_DUTCH_2025"),
        // TRF has no code for a reading of the rules: a `burstein-bbp` file is read back as
        // Burstein, and `--interpretation bbp` names the reading again.
        "burstein" | "burstein-bbp" => Some("FIDE_BURSTEIN"),
        "dubov" => Some("FIDE_DUBOV"),
        // TRF-2026's type-code table (record 192) names no double round robin: it is the Berger
        // table played twice.
        "berger" | "berger-double" => Some("BERGER_ROUNDROBIN"),
        _ => None,
    }
}

fn text(code: TextCode, text: impl Into<String>) -> Record {
    Record::Text(TextRecord {
        code,
        text: text.into(),
    })
}

/// The virtual points of every player who has any, rounds 1..=rounds.
fn virtual_points(state: &State, rounds: u32) -> Vec<(PlayerId, Vec<Score>)> {
    state
        .players()
        .filter_map(|p| {
            let pn = p.pairing_number();
            let mut v: Vec<Score> = match state.explicit_virtual_points(pn) {
                Some(v) => v.to_vec(),
                None => (1..=rounds).map(|r| state.virtual_points(pn, r)).collect(),
            };
            while v.last() == Some(&Score::ZERO) {
                v.pop();
            }
            (!v.is_empty()).then_some((pn, v))
        })
        .collect()
}

fn team013(t: &TeamRecorded) -> Record {
    Record::Team013(Team013 {
        name: t.name.clone(),
        members: t.members.clone(),
    })
}

fn team310(t: &TeamRecorded, i: usize) -> Record {
    Record::Team310(Team310 {
        number: if t.number > 0 { t.number } else { i as u32 + 1 },
        name: t.name.clone(),
        nickname: t.nickname.clone(),
        strength: t.strength,
        match_points: t.match_points,
        game_points: t.game_points,
        rank: t.rank,
        members: t.members.clone(),
    })
}

/// A carried line as the reader types it (an unknown one verbatim).
fn carried(line: &str) -> Record {
    arbiter_trf::parse_with(line, &arbiter_trf::ParseOptions::lenient())
        .ok()
        .and_then(|t| {
            t.file
                .records
                .into_iter()
                .find(|r| !matches!(r, Record::Blank))
        })
        .unwrap_or_else(|| Record::Other(line.to_string()))
}

/// The rating report: in a finished tournament, a result corrected after the end of the next
/// round counts for rating only (C.04.2 D.8). The round blocks are what the rating officer
/// rates, so they carry the result for rating ([`State::final_entry`], as the rating worker
/// and the player card read it); the points column follows the round blocks (every TRF reader
/// checks that it is their sum), and the rank column stays the place of the final standings.
/// While the tournament runs the file is the pairing engines' input and keeps the results
/// pairings used. Returns the notes (TRF-2026 writes them as `###` comments).
fn rating_results(state: &State, file: &mut TrfFile) -> Vec<String> {
    if !state.is_finished() {
        return Vec::new();
    }
    let scoring = state.tournament().map(|t| t.scoring).unwrap_or_default();
    let mut notes = Vec::new();
    for c in state.rating_only_corrections() {
        for pn in [c.white, c.black] {
            let (Some(rated), Some(rec)) = (state.final_entry(pn, c.round), file.player_mut(pn))
            else {
                continue;
            };
            let Some(Some(slot)) = rec.rounds.get_mut(c.round as usize - 1) else {
                continue;
            };
            rec.points = rec.points - scoring.points(slot.result) + scoring.points(rated.result);
            *slot = rated;
        }
        notes.push(format!(
            " round {}, board {} ({}-{}): {}",
            c.round,
            c.board,
            c.white,
            c.black,
            c.note()
        ));
    }
    notes
}

/// The tournament as a TRF model in `dialect`.
pub fn trf_export_file(state: &State, dialect: Dialect) -> TrfFile {
    let mut file = trf_file(state);
    let Some(t) = state.tournament() else {
        return file;
    };
    let rating_notes = rating_results(state, &mut file);
    let teams = state.teams();

    // Rounds imported blank stay blank.
    for p in state.players() {
        let Some(rec) = file.player_mut(p.pairing_number()) else {
            continue;
        };
        for (r, why) in &p.absences {
            let slot = (*r as usize)
                .checked_sub(1)
                .and_then(|i| rec.rounds.get_mut(i));
            if let Some(slot) = slot
                && why == NOT_PAIRED_IN_FILE
                && slot.is_some_and(|e| e.opponent.is_none() && e.result == ResultCode::ZeroBye)
            {
                *slot = None;
            }
        }
        while rec.rounds.last() == Some(&None) {
            rec.rounds.pop();
        }
    }

    // Header: the type as the file wrote it (else the rule set's code), the number of teams,
    // in record-code order, then the round dates.
    let header_end = file
        .records
        .iter()
        .position(|r| matches!(r, Record::Player(_)))
        .unwrap_or(file.records.len());
    let mut header: Vec<Record> = file
        .records
        .drain(..header_end)
        .filter(|r| !matches!(r, Record::Text(x) if x.code == TextCode::TournamentType))
        .collect();
    if !teams.is_empty() {
        header.push(text(TextCode::TeamCount, teams.len().to_string()));
    }
    // A team event's board colours (352), written when the event defines them.
    if let Some(rules) = state.team_rules()
        && dialect == Dialect::Trf2026
        && !header
            .iter()
            .any(|r| matches!(r, Record::Text(x) if x.code == TextCode::BoardColours))
    {
        header.push(text(TextCode::BoardColours, rules.colours.clone()));
        // Match points other than 2 / 1 / 0 (362), in the layout of 162.
        if rules.match_points != arbiter_core::teams::MatchPoints::default()
            && !header
                .iter()
                .any(|r| matches!(r, Record::Text(x) if x.code == TextCode::TeamScoring))
        {
            header.push(text(
                TextCode::TeamScoring,
                crate::import::match_points_text(&rules.match_points),
            ));
        }
    }
    let type_text = if t.tournament_type.is_empty() {
        match (
            arbiter_core::teams::FideTeamSystem::parse(&t.rule_set),
            state.team_rules(),
        ) {
            (Some(system), Some(rules)) => system.type_code(rules.primary),
            _ => type_code(&t.rule_set).unwrap_or_default().to_string(),
        }
    } else {
        t.tournament_type.clone()
    };
    if !type_text.is_empty() {
        header.push(text(TextCode::TournamentType, type_text));
    }
    header.sort_by_key(|r| match r {
        Record::Text(x) => Some(x.code),
        _ => None,
    });
    if !t.round_dates.is_empty() {
        header.push(Record::RoundDates(RoundDates {
            label: String::new(),
            dates: t
                .round_dates
                .iter()
                .map(|d| {
                    d.map(|d| RoundDate {
                        yy: d.year().rem_euclid(100) as u8,
                        month: d.month() as u8,
                        day: d.day() as u8,
                    })
                })
                .collect(),
        }));
    }
    // Records carried from an imported file, verbatim, after the header; a carried tie-break
    // record (202/212) only while it still says the tournament's list (an update replaces it).
    let list_of = |r: &Record| match r {
        Record::Text(x) if matches!(x.code, TextCode::TieBreaks | TextCode::StandingsTieBreaks) => {
            Some(
                arbiter_tiebreak::trf::parse_list(&x.text, 5)
                    .map(|l| {
                        l.0.iter()
                            .map(|t| t.to_string())
                            .filter(|t| t != "PTS")
                            .collect::<Vec<_>>()
                    })
                    .ok(),
            )
        }
        _ => None,
    };
    let mut list_carried = false;
    for r in t.trf_records.iter().map(|l| carried(l)) {
        match list_of(&r) {
            Some(Some(list)) if list == t.tie_breaks => {
                list_carried = true;
                header.push(r);
            }
            // A list the file gave but the tie-break parser cannot read stays as written
            // while the tournament has no list of its own.
            Some(None) if t.tie_breaks.is_empty() => header.push(r),
            Some(_) => {}
            None => header.push(r),
        }
    }
    // TRF-2026 names the tie-breaks (202); TRF16 and its extensions have no record for them.
    if dialect == Dialect::Trf2026 && !list_carried && !t.tie_breaks.is_empty() {
        header.push(text(TextCode::TieBreaks, t.tie_breaks.join(",")));
    }
    if dialect == Dialect::Trf2026 {
        header.extend(rating_notes.into_iter().map(Record::Comment));
    }
    file.records.splice(0..0, header);

    // Point system in bbpPairings' lines where they express it.
    if dialect == Dialect::Trfbx
        && let Some(bb) = arbiter_trf::bb_records(t.scoring)
    {
        file.records.retain(|r| !matches!(r, Record::Xxs(_)));
        file.records.extend(bb);
    }
    // The virtual points, unless the type code (`..._BAKU`) already implies exactly these.
    let points = virtual_points(state, t.rounds);
    let implied = file.accelerations();
    let said = implied.source == AccelerationSource::ImpliedBaku
        && implied.points.len() == points.len()
        && points
            .iter()
            .all(|(pn, v)| implied.points.get(pn) == Some(v));
    if !said {
        for (player, points) in points {
            file.records.push(Record::Xxa(XxaRecord { player, points }));
        }
    }
    let forbidden = state.forbidden_records();
    for (ids, rounds) in &forbidden {
        if rounds.is_none() {
            file.records.push(Record::Xxp(ids.clone()));
        }
    }
    if dialect != Dialect::Trf2026 {
        // TRF16 has no rounds for a forbidden pairing: written for the round to pair only.
        let next = state.closed_rounds() + 1;
        for (ids, rounds) in &forbidden {
            if let Some((a, b)) = rounds
                && (*a..=*b).contains(&next)
            {
                file.records.push(Record::Xxp(ids.clone()));
            }
        }
        file.records.extend(teams.iter().map(team013));
        return file;
    }
    let mut file = file.to_profile(Profile::Trf2026).file;
    for (ids, rounds) in &forbidden {
        if let Some((a, b)) = rounds {
            file.records.push(Record::Prohibited(ProhibitedRecord {
                first_round: *a,
                last_round: *b,
                ids: ids.clone(),
            }));
        }
    }
    // With a 310 record in the file, TRF-2026 reads the ids of 240/250/260 as team numbers: the
    // teams of an individual event with such records are written as 013 (which TRF-2026 still
    // reads), else as 310.
    let ids_name_players = file.records.iter().any(|r| {
        matches!(
            r,
            Record::Byes(_) | Record::Acceleration(_) | Record::Prohibited(_)
        )
    });
    if ids_name_players {
        file.records.extend(teams.iter().map(team013));
    } else {
        // A team event's match and game points and rank are its standings' (one path).
        let table = arbiter_standings::team_ranking(state, None).ok().flatten();
        file.records.extend(teams.iter().enumerate().map(|(i, t)| {
            let line = table
                .as_ref()
                .and_then(|(_, lines)| lines.iter().find(|l| l.team == t.number));
            match line {
                Some(l) => team310(
                    &TeamRecorded {
                        match_points: Some(arbiter_core::Score(l.match_points)),
                        game_points: Some(arbiter_core::Score(l.game_points)),
                        rank: Some(l.rank),
                        ..t.clone()
                    },
                    i,
                ),
                None => team310(t, i),
            }
        }));
        // The team pairing-allocated byes (320), round by round.
        if let Some(rules) = state.team_rules()
            && let Some(pab) = rules.pab
        {
            let rounds = state.published_rounds();
            let byes: Vec<Option<u32>> = (1..=rounds)
                .map(|r| state.team_pairing(r).and_then(|p| p.bye))
                .collect();
            if byes.iter().any(Option::is_some) {
                file.records
                    .push(Record::TeamByes320(arbiter_trf::TeamByes320 {
                        match_points: pab.match_points,
                        game_points: pab.game_points,
                        teams: byes,
                    }));
            }
        }
    }
    file
}

/// The tournament as TRF text in `dialect` (CR LF line ends).
pub fn trf_export(state: &State, dialect: Dialect) -> Result<String, String> {
    arbiter_trf::write(&trf_export_file(state, dialect)).map_err(|e| e.to_string())
}

fn clean(s: &str, max: usize) -> String {
    let s: String = s
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    s.trim()
        .chars()
        .take(max)
        .collect::<String>()
        .trim()
        .to_string()
}

/// A header record with its value cleaned of control characters; none when empty.
fn cleaned_text(code: TextCode, value: &str) -> Option<Record> {
    let v = clean(value, 200);
    (!v.is_empty()).then_some(Record::Text(TextRecord { code, text: v }))
}

fn xxs(p: &PointSystem) -> Vec<XxsEntry> {
    let e = |code, points| XxsEntry { code, points };
    vec![
        e(XxsCode::WW, p.win),
        e(XxsCode::BW, p.win),
        e(XxsCode::WD, p.draw),
        e(XxsCode::BD, p.draw),
        e(XxsCode::WL, p.loss),
        e(XxsCode::BL, p.loss),
        e(XxsCode::ZPB, p.zero_bye),
        e(XxsCode::HPB, p.half_bye),
        e(XxsCode::FPB, p.full_bye),
        e(XxsCode::PAB, p.pairing_bye),
        e(XxsCode::FW, p.forfeit_win),
        e(XxsCode::FL, p.forfeit_loss),
    ]
}

/// The tournament as a TRF16 file (with the `XXR`, `XXC` and `XXS` engine extensions): every
/// complete round ([`complete_rounds`]), then, for the next round, the players who will not be
/// paired in it (requested byes, absences, withdrawals), so that a pairing engine given the file
/// pairs the next round exactly as the pairing worker does.
pub fn trf_file(state: &State) -> TrfFile {
    let mut records = Vec::new();
    let Some(t) = state.tournament() else {
        return TrfFile { records };
    };
    let date = |d: arbiter_core::tournament::Date| {
        format!("{:04}/{:02}/{:02}", d.year(), d.month(), d.day())
    };
    let k = complete_rounds(state);
    let rated = state.players().filter(|p| p.player.rating > 0).count();
    records.extend(cleaned_text(TextCode::TournamentName, &t.name));
    records.extend(cleaned_text(TextCode::City, &t.place));
    records.extend(cleaned_text(TextCode::Federation, &t.federation));
    records.extend(cleaned_text(TextCode::StartDate, &date(t.start_date)));
    records.extend(cleaned_text(TextCode::EndDate, &date(t.end_date)));
    records.extend(cleaned_text(
        TextCode::PlayerCount,
        &state.player_count().to_string(),
    ));
    records.extend(cleaned_text(TextCode::RatedPlayerCount, &rated.to_string()));
    records.extend(cleaned_text(
        TextCode::TournamentType,
        &format!("Individual Swiss ({})", t.rule_set),
    ));
    records.extend(cleaned_text(TextCode::ChiefArbiter, &t.chief_arbiter.name));
    for d in &t.deputy_arbiters {
        records.extend(cleaned_text(TextCode::DeputyArbiter, &d.name));
    }
    records.extend(cleaned_text(TextCode::TimeControl, &t.time_control));

    // The 001 rank is the place in the standings every other interface shows (shared places
    // give every tied player the first place of the range).
    let ranking = (k > 0)
        .then(|| arbiter_standings::ranking(state, Some(k), None).ok())
        .flatten();
    let rank_of = |pn: PlayerId| {
        ranking
            .as_ref()
            .and_then(|r| r.place_of(pn))
            .map_or(0, |(rank, _)| rank)
    };
    let next = k + 1;
    let next_open = next <= t.rounds && !state.is_finished();
    for p in state.players() {
        let pn = p.pairing_number();
        let mut rounds: Vec<Option<RoundEntry>> = (1..=k).map(|r| state.entry(pn, r)).collect();
        if next_open {
            rounds.push(p.availability(next).unpaired_code().map(RoundEntry::bye));
        }
        while rounds.last().is_some_and(|e| e.is_none()) {
            rounds.pop();
        }
        let pl = &p.player;
        records.push(Record::Player(PlayerRecord {
            start_number: pn,
            sex: pl.sex.map(|s| match s {
                Sex::Male => arbiter_trf::Sex::Male,
                Sex::Female => arbiter_trf::Sex::Female,
            }),
            title: pl.title.map(arbiter_trf::TitleCode::Fide),
            name: clean(&pl.name, 33),
            rating: (pl.rating > 0).then_some(pl.rating.min(9999) as u16),
            federation: clean(&pl.federation, 3),
            fide_id: pl.fide_id.filter(|id| *id <= 99_999_999_999),
            birth_date: pl.birth_date.map(|d| BirthDate::Full {
                year: d.year() as u16,
                month: d.month() as u8,
                day: d.day() as u8,
            }),
            points: state.score_after(pn, k).unwrap_or(Score::ZERO),
            rank: (k > 0).then(|| rank_of(pn)),
            rounds,
        }));
    }
    records.push(Record::Xxr(t.rounds));
    match t.initial_color {
        Some(Color::White) => records.push(Record::Xxc(vec![XxcOption::White1])),
        Some(Color::Black) => records.push(Record::Xxc(vec![XxcOption::Black1])),
        None => {}
    }
    if t.scoring != PointSystem::default() {
        records.push(Record::Xxs(xxs(&t.scoring)));
    }
    TrfFile { records }
}

/// The TRF16 text of a tournament (CR LF line ends).
pub fn trf_text(state: &State) -> Result<String, String> {
    arbiter_trf::write(&trf_file(state)).map_err(|e| e.to_string())
}
