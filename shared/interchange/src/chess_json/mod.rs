//! Chess-JSON, the JSON tournament format of FIDE's Technical Commission (its tools read and
//! write it beside TRF): an event's first tournament in and out, through the TRF model, so that
//! every command that reads a TRF file reads a Chess-JSON one the same way and one export path
//! writes both.
//!
//! What is mapped: the event and tournament information (name, site, federation, dates, type
//! code, number of rounds, top colour, time control, accelerated rounds), the players (profile and competitor:
//! name, sex, title, federation, FIDE id, birth date, rating, points, rank), every game and bye
//! of `gameList`, the game point system and the rank order; for a team tournament also its
//! teams, board colours, match points and team byes ([`team`]). A result the TRF model cannot
//! hold (`A`, unknown) is refused by name.
//!
//! Written by hand over `serde_json::Value`: the format is a loose tree whose numbers are
//! sometimes strings ("4.5") and whose point system refers to other symbols ("F": "W"); a typed
//! schema would have to be looser than the reading below.

mod team;

use arbiter_core::{Color, ResultCode, RoundEntry, Score};
use arbiter_trf::{
    AccelerationRecord, PlayerRecord, Record, ScoringEntry, ScoringSymbol, Sex, TextCode,
    TextRecord, TitleCode, TrfFile,
};
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// A Chess-JSON event's first tournament as a TRF-2026 model.
pub fn read(text: &str) -> Result<TrfFile, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
    let event = v
        .get("event")
        .ok_or("no \"event\": not a Chess-JSON event file")?;
    let tournament = event
        .get("tournaments")
        .and_then(Value::as_array)
        .and_then(|t| t.first())
        .ok_or("event.tournaments: missing or empty")?;
    let team_event = tournament.get("teamTournament").and_then(Value::as_bool) == Some(true);
    let profiles: BTreeMap<i64, &Value> = event
        .get("profiles")
        .and_then(Value::as_array)
        .map(|ps| {
            ps.iter()
                .filter_map(|p| Some((p.get("id")?.as_i64()?, p)))
                .collect()
        })
        .unwrap_or_default();
    let info = tournament
        .get("tournamentInfo")
        .or_else(|| event.get("eventInfo"))
        .cloned()
        .unwrap_or(Value::Null);
    let mut records = Vec::new();
    let mut text_record = |code, value: Option<&str>| {
        if let Some(t) = value.map(str::trim).filter(|t| !t.is_empty()) {
            records.push(Record::Text(TextRecord {
                code,
                text: t.to_string(),
            }));
        }
    };
    text_record(TextCode::TournamentName, str_at(&info, "fullName"));
    text_record(TextCode::City, str_at(&info, "site"));
    text_record(TextCode::Federation, str_at(&info, "federation"));
    let date = |k| str_at(&info, k).map(|d| d.trim().replace('-', "/"));
    text_record(TextCode::StartDate, date("startDate").as_deref());
    text_record(TextCode::EndDate, date("endDate").as_deref());
    text_record(TextCode::EncodedType, str_at(&info, "typeOfTournament"));
    let time_control = tournament.get("timeControl");
    text_record(
        TextCode::EncodedTimeControl,
        time_control.and_then(|t| str_at(t, "encoded")),
    );
    let order: Vec<String> = tournament
        .get("rankOrder")
        .and_then(Value::as_array)
        .map(|o| {
            o.iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    if order.len() > 1 {
        text_record(TextCode::StandingsTieBreaks, Some(&order.join(",")));
    }
    let rounds = tournament
        .get("numRounds")
        .and_then(Value::as_u64)
        .unwrap_or(0) as u32;
    if rounds > 0 {
        records.push(Record::Rounds(rounds));
    }
    if tournament.get("topColorExplicit").and_then(Value::as_bool) == Some(true) {
        match str_at(tournament, "topColor")
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("w") => records.push(Record::InitialColor(Color::White)),
            Some("b") => records.push(Record::InitialColor(Color::Black)),
            _ => {}
        }
    }
    if let Some(entries) = scoring(tournament)? {
        records.push(Record::Scoring(entries));
    }
    // Accelerated rounds: the fictitious points of a range of competitors over a range of rounds.
    let accelerated = tournament
        .get("accelerated")
        .and_then(|a| a.get("values"))
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default();
    for (i, a) in accelerated.iter().enumerate() {
        let at = format!("accelerated.values[{i}]");
        let int = |k: &str| {
            a.get(k)
                .and_then(Value::as_u64)
                .map(|n| n as u32)
                .ok_or_else(|| format!("{at}.{k}: missing"))
        };
        records.push(Record::Acceleration(AccelerationRecord {
            match_points: number(a.get("matchPoints")).map_err(|e| format!("{at}: {e}"))?,
            game_points: number(a.get("gamePoints")).map_err(|e| format!("{at}: {e}"))?,
            first_round: int("firstRound")?,
            last_round: int("lastRound")?,
            first_id: int("firstCompetitor")?,
            last_id: int("lastCompetitor")?,
        }));
    }
    let mut players: BTreeMap<u32, PlayerRecord> = BTreeMap::new();
    let competitors = tournament
        .get("competitors")
        .and_then(Value::as_array)
        .ok_or("event.tournaments[0].competitors: missing")?;
    let mut teams = Vec::new();
    let team_names = team::names(event);
    for (i, c) in competitors.iter().enumerate() {
        let at = format!("competitors[{i}]");
        let members = if team_event {
            let (record, members) = team::competitor(c, &at, &team_names)?;
            teams.push(record);
            members
        } else {
            vec![(at, c)]
        };
        for (at, c) in members {
            let p = player(c, &at, &profiles)?;
            let cid = p.start_number;
            if players.insert(cid, p).is_some() {
                return Err(format!("{at}.cid: {cid} twice"));
            }
        }
    }
    for (i, g) in list(tournament, "gameList").iter().enumerate() {
        let at = format!("gameList[{i}]");
        let round = round_of(g, &at)?;
        let side = |k: &str| -> Option<(u32, String)> {
            let s = g.get(k)?;
            let cid = s.get("cid")?.as_u64()? as u32;
            (cid > 0).then(|| (cid, str_at(s, "result").unwrap_or("").to_string()))
        };
        let played = g.get("played").and_then(Value::as_bool).unwrap_or(true);
        let rated = g.get("rated").and_then(Value::as_bool).unwrap_or(played);
        let white = side("white").ok_or_else(|| format!("{at}.white: missing"))?;
        let entries: Vec<(u32, RoundEntry)> = match side("black") {
            None => {
                let code = match white.1.as_str() {
                    "P" => ResultCode::PairingBye,
                    "W" => ResultCode::FullBye,
                    "D" => ResultCode::HalfBye,
                    "Z" | "L" | "U" => ResultCode::ZeroBye,
                    r => return Err(format!("{at}.white.result: {r:?} for a bye")),
                };
                vec![(white.0, RoundEntry::bye(code))]
            }
            Some(black) => {
                let code = |r: &str| -> Result<ResultCode, String> {
                    Ok(match (r, played, rated) {
                        ("W", true, true) => ResultCode::Win,
                        ("D", true, true) => ResultCode::Draw,
                        ("L", true, true) => ResultCode::Loss,
                        ("W", true, false) => ResultCode::WinUnrated,
                        ("D", true, false) | ("D", false, _) => ResultCode::DrawUnrated,
                        ("L", true, false) => ResultCode::LossUnrated,
                        ("W", false, _) => ResultCode::ForfeitWin,
                        ("L" | "Z", _, _) => ResultCode::ForfeitLoss,
                        (r, ..) => {
                            return Err(format!("{at}: result {r:?} has no TRF code"));
                        }
                    })
                };
                vec![
                    (
                        white.0,
                        RoundEntry::game(black.0, Color::White, code(&white.1)?),
                    ),
                    (
                        black.0,
                        RoundEntry::game(white.0, Color::Black, code(&black.1)?),
                    ),
                ]
            }
        };
        for (cid, e) in entries {
            let p = players
                .get_mut(&cid)
                .ok_or_else(|| format!("{at}: competitor {cid} is not in competitors"))?;
            if p.rounds.len() < round {
                p.rounds.resize(round, None);
            }
            if p.rounds[round - 1].replace(e).is_some() {
                return Err(format!(
                    "{at}: competitor {cid} has two games in round {round}"
                ));
            }
        }
    }
    if team_event {
        records.extend(team::records(tournament, &teams)?);
    }
    records.extend(players.into_values().map(Record::Player));
    records.extend(teams.into_iter().map(Record::Team310));
    Ok(TrfFile { records })
}

/// A player from an individual competitor or a team's `cplayers` entry and its profile.
fn player(c: &Value, at: &str, profiles: &BTreeMap<i64, &Value>) -> Result<PlayerRecord, String> {
    let cid = c
        .get("cid")
        .and_then(Value::as_u64)
        .filter(|&n| (1..=9999).contains(&n))
        .ok_or_else(|| format!("{at}.cid: missing or not 1..=9999"))? as u32;
    let profile = c
        .get("profileId")
        .and_then(Value::as_i64)
        .and_then(|id| profiles.get(&id).copied())
        .unwrap_or(&Value::Null);
    let mut p = PlayerRecord::new(cid, name_of(profile));
    p.sex = match str_at(profile, "sex") {
        Some("m") | Some("M") => Some(Sex::Male),
        Some("w") | Some("W") | Some("f") | Some("F") => Some(Sex::Female),
        _ => None,
    };
    p.title = str_at(profile, "fideTitle")
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| match arbiter_trf::Title::from_code(t) {
            Some(title) => TitleCode::Fide(title),
            None => TitleCode::Other(t.to_string()),
        });
    let rating = c
        .get("rating")
        .and_then(|r| r.get("rating"))
        .and_then(Value::as_u64)
        .or_else(|| {
            profile
                .get("rating")
                .and_then(Value::as_array)
                .and_then(|l| l.first())
                .and_then(|r| r.get("rating"))
                .and_then(Value::as_u64)
        })
        .unwrap_or(0);
    p.rating = (rating > 0).then_some(rating.min(9999) as u16);
    p.federation = str_at(profile, "federation")
        .unwrap_or("")
        .trim()
        .to_string();
    p.fide_id = profile
        .get("fideId")
        .and_then(Value::as_u64)
        .filter(|&id| id > 0);
    // Chess-JSON writes dates with hyphens; the TRF reading checks them.
    p.birth_date =
        str_at(profile, "birth").and_then(|b| arbiter_trf::parse_birth_date(&b.replace('-', "/")));
    p.points = number(c.get("gamePoints"))
        .map_err(|e| format!("{at}.gamePoints: {e}"))?
        .unwrap_or(Score::ZERO);
    p.rank = c
        .get("rank")
        .and_then(Value::as_u64)
        .map(|r| r as u32)
        .filter(|&r| r > 0);
    Ok(p)
}

/// A TRF model as a Chess-JSON event file.
pub fn write(file: &TrfFile, origin: &str) -> Result<String, String> {
    let date = |code| file.text(code).map(|d| d.trim().replace('/', "-"));
    let info = json!({
        "fullName": file.text(TextCode::TournamentName).unwrap_or(""),
        "site": file.text(TextCode::City).unwrap_or(""),
        "federation": file.text(TextCode::Federation).unwrap_or(""),
        "startDate": date(TextCode::StartDate).unwrap_or_default(),
        "endDate": date(TextCode::EndDate).unwrap_or_default(),
        "typeOfTournament": file.tournament_type().map(|t| t.code).unwrap_or_default(),
    });
    let players: Vec<&PlayerRecord> = file.players().collect();
    // Opponents are looked up by start number for every game: once per player, not a scan.
    let by_number: BTreeMap<u32, &PlayerRecord> =
        players.iter().map(|&p| (p.start_number, p)).collect();
    let profiles: Vec<Value> = players
        .iter()
        .map(|p| {
            let (last, first) = p.name.split_once(',').unwrap_or((&p.name, ""));
            json!({
                "id": p.start_number,
                "fideName": p.name,
                "lastName": last.trim(),
                "firstName": first.trim(),
                "sex": match p.sex { Some(Sex::Male) => "m", Some(Sex::Female) => "w", None => "u" },
                "fideTitle": p.title.as_ref().map(TitleCode::as_str).unwrap_or(""),
                "federation": p.federation,
                "fideId": p.fide_id.unwrap_or(0),
                "birth": p.birth_date.map(|b| b.to_string()).unwrap_or_default(),
                "rating": [{"list": "TRF", "rating": p.rating.unwrap_or(0)}],
            })
        })
        .collect();
    let competitor = |p: &PlayerRecord| {
        let mut c = json!({
            "cid": p.start_number,
            "profileId": p.start_number,
            "present": true,
            "gamePoints": p.points.to_string(),
            "rating": {"list": "TRF", "rating": p.rating.unwrap_or(0)},
        });
        if let Some(r) = p.rank {
            c["rank"] = json!(r);
        }
        c
    };
    let competitors: Vec<Value> = players.iter().map(|p| competitor(p)).collect();
    let mut games = Vec::new();
    let paired = (1..=file.round_columns())
        .filter(|&r| file.is_round_paired(r))
        .max()
        .unwrap_or(0);
    for r in 1..=file.round_columns() {
        for p in &players {
            let Some(e) = p.entry(r) else { continue };
            let game = match (e.opponent, e.color) {
                (None, _) => {
                    let result = match e.result {
                        ResultCode::PairingBye => "P",
                        ResultCode::FullBye | ResultCode::ForfeitWin => "W",
                        ResultCode::HalfBye => "D",
                        _ => "Z",
                    };
                    json!({"round": r, "white": {"cid": p.start_number, "result": result},
                           "black": null, "played": e.result == ResultCode::PairingBye,
                           "rated": false})
                }
                // Each game once: from White's line, or the lower number when no colour is written.
                (Some(o), Some(Color::Black)) if file_has_colour(&by_number, o, r) => continue,
                (Some(o), None) if o < p.start_number => continue,
                (Some(o), _) => {
                    let other = by_number.get(&o).and_then(|q| q.entry(r)).ok_or_else(|| {
                        format!(
                            "round {r}: player {}'s opponent {o} has no entry",
                            p.start_number
                        )
                    })?;
                    let (white, black) = if e.color == Some(Color::Black) {
                        ((o, other.result), (p.start_number, e.result))
                    } else {
                        ((p.start_number, e.result), (o, other.result))
                    };
                    let letter = |c: ResultCode| match c {
                        ResultCode::Win | ResultCode::WinUnrated | ResultCode::ForfeitWin => "W",
                        ResultCode::Draw | ResultCode::DrawUnrated => "D",
                        ResultCode::Loss | ResultCode::LossUnrated => "L",
                        _ => "Z",
                    };
                    let played =
                        !matches!(e.result, ResultCode::ForfeitWin | ResultCode::ForfeitLoss);
                    let rated = matches!(
                        e.result,
                        ResultCode::Win | ResultCode::Draw | ResultCode::Loss
                    );
                    json!({"round": r,
                           "white": {"cid": white.0, "result": letter(white.1)},
                           "black": {"cid": black.0, "result": letter(black.1)},
                           "played": played, "rated": rated})
                }
            };
            games.push(game);
        }
    }
    for (i, g) in games.iter_mut().enumerate() {
        g["id"] = json!(i + 1);
    }
    let points = file.point_system();
    let order: Vec<String> = match file.text(TextCode::StandingsTieBreaks) {
        Some(list) => list.split(',').map(|s| s.trim().to_string()).collect(),
        None => std::iter::once("PTS".to_string())
            .chain(
                file.text(TextCode::TieBreaks)
                    .into_iter()
                    .flat_map(|l| l.split(','))
                    .map(|s| s.trim().to_string()),
            )
            .collect(),
    };
    let initial = file.initial_color();
    let accelerated: Vec<Value> = file
        .records
        .iter()
        .filter_map(|r| match r {
            Record::Acceleration(a) => {
                let mut v = json!({"firstRound": a.first_round, "lastRound": a.last_round,
                                   "firstCompetitor": a.first_id, "lastCompetitor": a.last_id});
                // The format requires match points even for an individual event, whose match
                // score is the default 2 / 1 / 0: twice the game points when the file has none.
                let m = a
                    .match_points
                    .or(a.game_points.map(|g| Score::from_tenths(2 * g.tenths())));
                if let Some(m) = m {
                    v["matchPoints"] = json!(m.to_string());
                }
                if let Some(g) = a.game_points {
                    v["gamePoints"] = json!(g.to_string());
                }
                Some(v)
            }
            _ => None,
        })
        .collect();
    let tournament = json!({
        "tournamentNo": 1,
        "tournamentType": "Tournament",
        "tournamentInfo": info.clone(),
        "ratingList": "TRF",
        "numRounds": file.total_rounds(),
        "currentRound": paired,
        "teamTournament": false,
        "rankOrder": order,
        "competitors": competitors,
        "teamSize": 0,
        "scoreSystem": {"game": {
            "W": points.win.to_string(), "D": points.draw.to_string(), "L": points.loss.to_string(),
            "F": points.full_bye.to_string(), "H": points.half_bye.to_string(),
            "Z": points.zero_bye.to_string(), "P": points.pairing_bye.to_string(),
            "A": "D", "U": "Z"}, "match": {}},
        "gameList": games,
        "matchList": [],
        "timeControl": {"description": "", "encoded": file.text(TextCode::EncodedTimeControl).unwrap_or("")},
        "topColor": match initial { Some(Color::Black) => "b", _ => "w" },
        "topColorExplicit": initial.is_some(),
        "format": "swiss",
    });
    let mut tournament = tournament;
    if !accelerated.is_empty() {
        tournament["accelerated"] = json!({"name": "Acc", "values": accelerated});
    }
    let mut teams = Vec::new();
    if file.records.iter().any(|r| matches!(r, Record::Team310(_))) {
        team::write(file, &players, competitor, &mut tournament, &mut teams)?;
    }
    let doc = json!({
        "filetype": "Event",
        "version": "1.0",
        "origin": origin,
        "published": "",
        "status": {"code": 0, "error": []},
        "event": {
            "name": file.text(TextCode::TournamentName).unwrap_or(""),
            "eventInfo": info,
            "ratingLists": [{"listName": "TRF"}],
            "profiles": profiles,
            "teams": teams,
            "tournaments": [tournament],
        },
    });
    serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())
}

/// Whether the player `id` has a colour written in round `r` (so the game is written from the
/// White player's line).
fn file_has_colour(players: &BTreeMap<u32, &PlayerRecord>, id: u32, r: u32) -> bool {
    players
        .get(&id)
        .and_then(|q| q.entry(r))
        .is_some_and(|e| e.color.is_some())
}

/// The array at `key` (a tournament's `gameList`, `matchList`), empty when absent.
fn list<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key)
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
}

/// A game's or match's round, from 1; the error names the entry at `at`.
fn round_of(v: &Value, at: &str) -> Result<usize, String> {
    v.get("round")
        .and_then(Value::as_u64)
        .filter(|&r| r >= 1)
        .map(|r| r as usize)
        .ok_or_else(|| format!("{at}.round: missing"))
}

fn str_at<'a>(v: &'a Value, k: &str) -> Option<&'a str> {
    v.get(k).and_then(Value::as_str)
}

/// "Last, First" from a profile: its `fideName`, else its last and first names.
fn name_of(profile: &Value) -> String {
    if let Some(n) = str_at(profile, "fideName")
        .map(str::trim)
        .filter(|n| !n.is_empty())
    {
        return n.to_string();
    }
    let last = str_at(profile, "lastName").unwrap_or("").trim();
    let first = str_at(profile, "firstName").unwrap_or("").trim();
    if first.is_empty() {
        last.to_string()
    } else {
        format!("{last}, {first}")
    }
}

/// A decimal written as a JSON number or string ("4.5").
fn number(v: Option<&Value>) -> Result<Option<Score>, String> {
    match v {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => s
            .trim()
            .parse()
            .map(Some)
            .map_err(|e| format!("{s:?}: {e}")),
        Some(Value::Number(n)) => n
            .to_string()
            .parse()
            .map(Some)
            .map_err(|e| format!("{n}: {e}")),
        Some(other) => Err(format!("{other}: not a number")),
    }
}

/// The game point system as a TRF-2026 162 record, when it is not FIDE's 1 / ½ / 0. A value
/// may name another symbol ("F": "W").
fn scoring(tournament: &Value) -> Result<Option<Vec<ScoringEntry>>, String> {
    let Some(game) = tournament.get("scoreSystem").and_then(|s| s.get("game")) else {
        return Ok(None);
    };
    let resolve = |k: &str| -> Result<Option<Score>, String> {
        let mut key = k.to_string();
        for _ in 0..4 {
            match game.get(&key) {
                Some(Value::String(s)) if s.len() == 1 && s.chars().all(char::is_alphabetic) => {
                    key = s.clone();
                }
                v => return number(v).map_err(|e| format!("scoreSystem.game.{k}: {e}")),
            }
        }
        Err(format!(
            "scoreSystem.game.{k}: the symbols refer to each other"
        ))
    };
    let (w, d, l) = (resolve("W")?, resolve("D")?, resolve("L")?);
    let default = |v: Option<Score>, tenths| v.is_none_or(|s| s == Score::from_tenths(tenths));
    if default(w, 10) && default(d, 5) && default(l, 0) {
        return Ok(None);
    }
    let mut out = Vec::new();
    for (symbol, v) in [
        (ScoringSymbol::W, w),
        (ScoringSymbol::D, d),
        (ScoringSymbol::L, l),
        (ScoringSymbol::P, resolve("P")?),
    ] {
        if let Some(points) = v {
            out.push(ScoringEntry { symbol, points });
        }
    }
    Ok(Some(out))
}
