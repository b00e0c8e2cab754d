//! Chess-JSON team tournaments (`teamTournament: true`) through the TRF-2026 team records. A
//! competitor is a team (`310`) whose `cplayers` are its members (`001`) in board order
//! (`order`); `teamSequence` is the boards' colours (`352`); `scoreSystem.match` holds the match
//! points (`362`) and the points of a team's pairing-allocated bye, whose rounds `matchList`
//! names (`320`). The games stay in `gameList`, between players, as in an individual event;
//! `matchList` is written from them.

use super::{list, number, round_of, str_at};
use arbiter_core::teams::{ColourModel, FideTeamSystem, MatchPoints, TeamScore};
use arbiter_core::{Color, ResultCode, Score};
use arbiter_trf::{PlayerRecord, Record, Team310, TeamByes320, TextCode, TextRecord, TrfFile};
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// A team's `cplayers` entries in board order, each with the path that names it in an error.
type Members<'a> = Vec<(String, &'a Value)>;

/// A team competitor: its `310` record and its players.
pub(super) fn competitor<'a>(
    c: &'a Value,
    at: &str,
    names: &BTreeMap<i64, String>,
) -> Result<(Team310, Members<'a>), String> {
    let team = c
        .get("cid")
        .and_then(Value::as_u64)
        .filter(|n| (1..=999).contains(n))
        .ok_or_else(|| format!("{at}.cid: missing or not 1..=999 (a team's number)"))?
        as u32;
    let mut members: Vec<(u64, usize, &Value)> = c
        .get("cplayers")
        .and_then(Value::as_array)
        .ok_or_else(|| format!("{at}.cplayers: missing (a team's players)"))?
        .iter()
        .enumerate()
        .map(|(j, p)| {
            let order = p.get("order").and_then(Value::as_u64).unwrap_or(u64::MAX);
            (order, j, p)
        })
        .collect();
    members.sort_by_key(|m| (m.0, m.1));
    let mut ids = Vec::new();
    let mut players = Vec::new();
    for (_, j, p) in members {
        let here = format!("{at}.cplayers[{j}]");
        let cid = p
            .get("cid")
            .and_then(Value::as_u64)
            .filter(|n| (1..=9999).contains(n))
            .ok_or_else(|| format!("{here}.cid: missing or not 1..=9999"))?;
        ids.push(Some(cid as u32));
        players.push((here, p));
    }
    let points = |k: &str| number(c.get(k)).map_err(|e| format!("{at}.{k}: {e}"));
    let record = Team310 {
        number: team,
        name: c
            .get("teamId")
            .and_then(Value::as_i64)
            .and_then(|id| names.get(&id))
            .cloned()
            .unwrap_or_else(|| format!("Team {team}")),
        nickname: String::new(),
        strength: None,
        match_points: points("matchPoints")?,
        game_points: points("gamePoints")?,
        rank: c
            .get("rank")
            .and_then(Value::as_u64)
            .map(|r| r as u32)
            .filter(|&r| r > 0),
        members: ids,
    };
    Ok((record, players))
}

/// The team names of `event.teams`, by id.
pub(super) fn names(event: &Value) -> BTreeMap<i64, String> {
    event
        .get("teams")
        .and_then(Value::as_array)
        .map(|ts| {
            ts.iter()
                .filter_map(|t| {
                    let name = str_at(t, "teamName")?.trim();
                    Some((t.get("id")?.as_i64()?, name.to_string()))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The records of a team tournament beyond its teams and players: the board colours (`352`),
/// the match points when not 2 / 1 / 0 (`362`) and the pairing-allocated byes (`320`).
pub(super) fn records(tournament: &Value, teams: &[Team310]) -> Result<Vec<Record>, String> {
    let mut out = Vec::new();
    let boards = tournament
        .get("teamSize")
        .and_then(Value::as_u64)
        .filter(|&n| n > 0);
    let colours = match str_at(tournament, "teamSequence").map(str::trim) {
        Some(s) if !s.is_empty() => s.to_ascii_uppercase(),
        // Without a sequence the boards alternate, the first team White on board 1.
        _ => {
            let n = boards.ok_or(
                "teamSequence and teamSize: missing (the number of boards and their colours)",
            )?;
            (0..n).map(|k| if k % 2 == 0 { 'W' } else { 'B' }).collect()
        }
    };
    if !colours.chars().all(|c| c == 'W' || c == 'B') {
        return Err(format!(
            "teamSequence: {colours:?}: one W or B per board expected"
        ));
    }
    if let Some(n) = boards
        && n != colours.len() as u64
    {
        return Err(format!(
            "teamSize: {n} boards, but teamSequence {colours:?} has {}",
            colours.len()
        ));
    }
    let boards = colours.len() as u32;
    out.push(text(TextCode::BoardColours, colours));
    let scores = Scores::of(tournament, boards);
    let mp = MatchPoints {
        win: scores.matches("W")?,
        draw: scores.matches("D")?,
        loss: scores.matches("L")?,
    };
    if mp != MatchPoints::default() {
        out.push(text(
            TextCode::TeamScoring,
            crate::import::match_points_text(&mp),
        ));
    }
    let known: Vec<u32> = teams.iter().map(|t| t.number).collect();
    let mut byes: Vec<Option<u32>> = Vec::new();
    for (i, m) in list(tournament, "matchList").iter().enumerate() {
        let at = format!("matchList[{i}]");
        let round = round_of(m, &at)?;
        let side = |k: &str| -> Result<Option<(u32, String)>, String> {
            let Some(s) = m.get(k).filter(|s| !s.is_null()) else {
                return Ok(None);
            };
            let cid = s.get("cid").and_then(Value::as_u64).unwrap_or(0) as u32;
            if !known.contains(&cid) {
                return Err(format!("{at}.{k}.cid: {cid} is not a team of competitors"));
            }
            Ok(Some((cid, str_at(s, "result").unwrap_or("").to_string())))
        };
        let white = side("white")?.ok_or_else(|| format!("{at}.white: missing"))?;
        if side("black")?.is_some() {
            continue; // a match: its games, in gameList, are what the TRF model holds
        }
        if white.1 != "P" {
            return Err(format!(
                "{at}: team {} alone in round {round} with result {:?}: only a pairing-allocated \
                 bye (P) is read; a team absent for a round is not supported",
                white.0, white.1
            ));
        }
        if byes.len() < round {
            byes.resize(round, None);
        }
        if byes[round - 1].replace(white.0).is_some() {
            return Err(format!("{at}: a second team bye in round {round}"));
        }
    }
    if !byes.is_empty() {
        out.push(Record::TeamByes320(TeamByes320 {
            match_points: scores.matches("P")?,
            game_points: scores.matches("PG")?,
            teams: byes,
        }));
    }
    Ok(out)
}

fn text(code: TextCode, text: String) -> Record {
    Record::Text(TextRecord { code, text })
}

/// `scoreSystem`'s values: a number, another symbol of the same table (`"F": "W"`), or in the
/// match table a game symbol times the boards (`"FG": "W*"`). A symbol not given has the
/// format's default.
struct Scores<'a> {
    system: Option<&'a Value>,
    boards: u32,
}

impl Scores<'_> {
    fn of(tournament: &Value, boards: u32) -> Scores<'_> {
        Scores {
            system: tournament.get("scoreSystem"),
            boards,
        }
    }

    fn matches(&self, key: &str) -> Result<Score, String> {
        self.value("match", key, 0)
    }

    fn value(&self, table: &str, key: &str, depth: u32) -> Result<Score, String> {
        let at = format!("scoreSystem.{table}.{key}");
        if depth > 4 {
            return Err(format!("{at}: the symbols refer to each other"));
        }
        let given = self
            .system
            .and_then(|s| s.get(table))
            .and_then(|t| t.get(key));
        let default = match (table, key) {
            ("match", "W") => json!("2.0"),
            ("match", "D") => json!("1.0"),
            ("match", "L") => json!("0.0"),
            ("match", "P") => json!("D"),
            ("match", "PG") => json!("P*"),
            ("game", "W") => json!("1.0"),
            ("game", "D") => json!("0.5"),
            ("game", "L") => json!("0.0"),
            ("game", "P") => json!("W"),
            _ => return Err(format!("{at}: missing")),
        };
        let v = given.filter(|v| !v.is_null()).unwrap_or(&default);
        if let Some(s) = v.as_str().map(str::trim) {
            if let Some(symbol) = s.strip_suffix('*')
                && table == "match"
            {
                let per_board = self.value("game", symbol, depth + 1)?;
                return Ok(Score(per_board.0 * self.boards as i32));
            }
            if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphabetic()) {
                return self.value(table, s, depth + 1);
            }
        }
        number(Some(v))
            .map_err(|e| format!("{at}: {e}"))?
            .ok_or_else(|| format!("{at}: missing"))
    }
}

/// What a team tournament adds to the Chess-JSON tournament written from `file`: the teams as
/// competitors (with their players as `cplayers`), `event.teams`, each game's board, the
/// matches and team byes of `matchList`, the match score system and the team settings.
pub(super) fn write(
    file: &TrfFile,
    players: &[&PlayerRecord],
    player_json: impl Fn(&PlayerRecord) -> Value,
    tournament: &mut Value,
    event_teams: &mut Vec<Value>,
) -> Result<(), String> {
    let teams: Vec<&Team310> = file.teams_310().collect();
    let by_number: BTreeMap<u32, &PlayerRecord> =
        players.iter().map(|p| (p.start_number, *p)).collect();
    let colours = file
        .text(TextCode::BoardColours)
        .map(|s| s.trim().to_string())
        .ok_or("a team tournament without record 352 (the boards' colours)")?;
    let boards = colours.chars().count() as u32;
    // Team ids follow the profile ids (the players' start numbers), so the two never meet.
    let id_base = players.iter().map(|p| p.start_number).max().unwrap_or(0);
    let mut team_of: BTreeMap<u32, u32> = BTreeMap::new();
    let mut competitors = Vec::new();
    for t in &teams {
        let mut cplayers = Vec::new();
        for (k, pn) in t.members.iter().enumerate() {
            let Some(pn) = pn else { continue };
            let p = by_number
                .get(pn)
                .ok_or_else(|| format!("team {}: member {pn} has no 001 record", t.number))?;
            if let Some(other) = team_of.insert(*pn, t.number) {
                return Err(format!("player {pn} is on teams {other} and {}", t.number));
            }
            let mut c = player_json(p);
            c["order"] = json!(k + 1);
            c["teamId"] = json!(id_base + t.number);
            cplayers.push(c);
        }
        let mut c = json!({
            "cid": t.number,
            "teamId": id_base + t.number,
            "present": true,
            "matchPoints": t.match_points.unwrap_or(Score::ZERO).to_string(),
            "gamePoints": t.game_points.unwrap_or(Score::ZERO).to_string(),
            "cplayers": cplayers,
        });
        if let Some(r) = t.rank {
            c["rank"] = json!(r);
        }
        competitors.push(c);
        event_teams.push(json!({
            "id": id_base + t.number,
            "teamName": t.name,
            "players": t.members.iter().flatten().collect::<Vec<_>>(),
        }));
    }
    // Board k of a team in a round: its k-th member, in list order, with an opponent that round.
    let mut board_of: BTreeMap<(u32, u32), u32> = BTreeMap::new();
    for r in 1..=file.round_columns() {
        for t in &teams {
            let seated = t.members.iter().flatten().filter(|pn| {
                by_number
                    .get(pn)
                    .and_then(|p| p.entry(r))
                    .is_some_and(|e| e.opponent.is_some())
            });
            for (k, pn) in seated.enumerate() {
                board_of.insert((r, *pn), k as u32 + 1);
            }
        }
    }
    let points = file.point_system();
    let games = tournament["gameList"]
        .as_array_mut()
        .ok_or("gameList: not written")?;
    // The matches of each round, by (round, first team, second team): each game's id and the
    // two teams' game points and whether any board was played.
    let mut matches: BTreeMap<(u32, u32, u32), Match> = BTreeMap::new();
    let first_colour = arbiter_core::teams::colour_in_sequence(&colours, 1).unwrap_or(Color::White);
    for g in games.iter_mut() {
        let round = g["round"].as_u64().unwrap_or(0) as u32;
        let white = g["white"]["cid"].as_u64().unwrap_or(0) as u32;
        let Some(black) = g["black"]["cid"].as_u64().map(|b| b as u32) else {
            g["board"] = json!(0);
            continue;
        };
        let board = board_of
            .get(&(round, white))
            .copied()
            .ok_or_else(|| format!("round {round}: player {white} has a game but no board"))?;
        g["board"] = json!(board);
        let (Some(&tw), Some(&tb)) = (team_of.get(&white), team_of.get(&black)) else {
            return Err(format!(
                "round {round}: players {white} and {black}: a game outside the teams"
            ));
        };
        let result = |pn: u32| {
            by_number
                .get(&pn)
                .and_then(|p| p.entry(round))
                .map_or(ResultCode::ForfeitLoss, |e| e.result)
        };
        let (rw, rb) = (result(white), result(black));
        // The first-named team has board k's colour of 352.
        let white_first =
            arbiter_core::teams::colour_in_sequence(&colours, board) != Some(Color::Black);
        let (first, second) = if white_first { (tw, tb) } else { (tb, tw) };
        let m = matches
            .entry((round, first.min(second), first.max(second)))
            .or_default();
        m.first = Some(first);
        m.games.push(g["id"].clone());
        let (pw, pb) = (points.points(rw), points.points(rb));
        *m.points.entry(tw).or_default() += pw.0;
        *m.points.entry(tb).or_default() += pb.0;
        m.played |= rw.is_played() || rb.is_played();
    }
    let mut next_id = games.len() as u64 + 1;
    let mut list = Vec::new();
    let byes = file.records.iter().find_map(|r| match r {
        Record::TeamByes320(b) => Some(b),
        _ => None,
    });
    for r in 1..=file.round_columns() {
        let mut table = 0;
        for ((round, a, b), m) in matches.range((r, 0, 0)..=(r, u32::MAX, u32::MAX)) {
            let first = m.first.unwrap_or(*a);
            let second = if first == *a { *b } else { *a };
            let (pf, ps) = (m.points[&first], m.points[&second]);
            let letter = |mine: i32, theirs: i32| match mine.cmp(&theirs) {
                std::cmp::Ordering::Greater => "W",
                std::cmp::Ordering::Equal if m.played => "D",
                std::cmp::Ordering::Less if m.played => "L",
                _ => "Z",
            };
            table += 1;
            list.push(json!({
                "id": next_id, "round": round, "games": m.games,
                "white": {"cid": first, "result": letter(pf, ps)},
                "black": {"cid": second, "result": letter(ps, pf)},
                "played": m.played, "board": table,
            }));
            next_id += 1;
        }
        if let Some(team) = byes.and_then(|b| b.teams.get(r as usize - 1).copied().flatten()) {
            table += 1;
            list.push(json!({
                "id": next_id, "round": r, "games": [],
                "white": {"cid": team, "result": "P"}, "black": null,
                "played": true, "board": table,
            }));
            next_id += 1;
        }
    }
    let mp = match file.text(TextCode::TeamScoring) {
        Some(t) => crate::import::team_match_points(t)?,
        None => MatchPoints::default(),
    };
    let mut score_match = json!({
        "W": mp.win.to_string(), "D": mp.draw.to_string(), "L": mp.loss.to_string(),
        "F": "W", "H": "D", "Z": "0.0", "A": "D", "U": "Z",
        "FG": "W*", "HG": "D*", "ZG": "Z*",
    });
    match byes {
        Some(b) => {
            score_match["P"] = json!(b.match_points.to_string());
            score_match["PG"] = json!(b.game_points.to_string());
        }
        None => {
            score_match["P"] = json!("D");
            score_match["PG"] = json!("P*");
        }
    }
    let code = file
        .text(TextCode::EncodedType)
        .unwrap_or("")
        .trim()
        .to_string();
    let system = FideTeamSystem::from_type_code(&code);
    let primary = match system.map(|s| s.1) {
        Some(TeamScore::GamePoints) => ("game", "match"),
        _ => ("match", "game"),
    };
    tournament["scoreSystem"]["match"] = score_match;
    tournament["scoreSystem"]["primary"] = json!(primary.0);
    tournament["scoreSystem"]["secondary"] = json!(primary.1);
    tournament["competitors"] = json!(competitors);
    tournament["matchList"] = json!(list);
    tournament["teamTournament"] = json!(true);
    tournament["teamSize"] = json!(boards);
    tournament["teamSequence"] = json!(colours);
    tournament["teamColor"] = json!(if first_colour == Color::Black {
        "B"
    } else {
        "W"
    });
    if !code.is_empty() {
        tournament["tournamentType"] = json!(code);
    }
    if let Some((s, score)) = system {
        let model = match s.colours {
            ColourModel::TypeA => "typea",
            ColourModel::TypeB => "typeb",
            ColourModel::None => "nocolor",
        };
        let scores = match (score, s.secondary_for_colours) {
            (TeamScore::MatchPoints, true) => "mp+gp",
            (TeamScore::GamePoints, true) => "gp+mp",
            (TeamScore::MatchPoints, false) => "mp",
            (TeamScore::GamePoints, false) => "gp",
        };
        tournament["pairingSystem"] = json!(["fideteam", model, scores]);
    }
    Ok(())
}

/// One team match as the games show it.
#[derive(Default)]
struct Match {
    /// The team named first (with the colours of 352).
    first: Option<u32>,
    games: Vec<Value>,
    /// Each team's game points, in tenths.
    points: BTreeMap<u32, i32>,
    played: bool,
}

#[cfg(test)]
mod tests {
    use super::super::{read, write};
    use arbiter_trf::{Record, TextCode};
    use serde_json::{Value, json};

    /// Three teams of two boards (a reserve on team 2), two rounds: team 3 has the bye in
    /// round 1; in round 2 team 1 forfeits its match against team 3. Match points 3 / 1 / 0.
    fn event() -> Value {
        let player = |cid: u32, order: u32, team: u32| {
            json!({"cid": cid, "profileId": 100 + cid, "order": order, "teamId": 50 + team,
                   "rating": {"rating": 2000 - cid * 10}, "gamePoints": "0.0"})
        };
        let game = |round: u32, w: u32, rw: &str, b: u32, rb: &str, played: bool| {
            json!({"round": round, "white": {"cid": w, "result": rw},
                   "black": {"cid": b, "result": rb}, "played": played, "rated": played})
        };
        let bye = |round: u32, cid: u32| {
            json!({"round": round, "white": {"cid": cid, "result": "Z"}, "black": null,
                   "played": false, "rated": false})
        };
        json!({"event": {
            "profiles": (1..=7).map(|i| json!({"id": 100 + i, "fideName": format!("Player, {i}")}))
                .collect::<Vec<_>>(),
            "teams": [{"id": 51, "teamName": "Alpha"}, {"id": 52, "teamName": "Beta"},
                      {"id": 53, "teamName": "Gamma"}],
            "tournaments": [{
                "teamTournament": true, "teamSize": 2, "teamSequence": "WB", "numRounds": 2,
                "tournamentInfo": {"typeOfTournament": "FIDE_TEAM_TYPEB_GP_MP"},
                "scoreSystem": {"match": {"W": "3.0", "D": "1.0", "L": "0.0", "P": "W", "PG": "D*"},
                                "game": {"W": "1.0", "D": "0.5", "L": "0.0"}},
                "competitors": [
                    {"cid": 1, "teamId": 51, "matchPoints": "0.0", "gamePoints": "1.0",
                     "cplayers": [player(2, 2, 1), player(1, 1, 1)]},
                    {"cid": 2, "teamId": 52, "matchPoints": "3.0", "gamePoints": "1.0",
                     "cplayers": [player(3, 1, 2), player(4, 2, 2), player(7, 3, 2)]},
                    {"cid": 3, "teamId": 53, "matchPoints": "6.0", "gamePoints": "3.0",
                     "cplayers": [player(5, 1, 3), player(6, 2, 3)]},
                ],
                "gameList": [
                    game(1, 1, "W", 3, "L", true), game(1, 4, "D", 2, "D", true),
                    bye(1, 5), bye(1, 6), bye(1, 7),
                    game(2, 5, "W", 1, "Z", false), game(2, 2, "Z", 6, "W", false),
                    bye(2, 3), bye(2, 4), bye(2, 7),
                ],
                "matchList": [
                    {"round": 1, "white": {"cid": 1, "result": "W"},
                     "black": {"cid": 2, "result": "L"}, "played": true},
                    {"round": 1, "white": {"cid": 3, "result": "P"}, "black": null, "played": true},
                    {"round": 2, "white": {"cid": 3, "result": "W"},
                     "black": {"cid": 1, "result": "Z"}, "played": false},
                ],
            }],
        }})
    }

    #[test]
    fn a_team_event_reads_as_the_trf_team_records_and_writes_back_the_same() {
        let file = read(&event().to_string()).expect("a team event");
        let teams: Vec<_> = file
            .records
            .iter()
            .filter_map(|r| match r {
                Record::Team310(t) => Some((t.number, t.name.clone(), t.members.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(
            teams,
            vec![
                (1, "Alpha".to_string(), vec![Some(1), Some(2)]),
                (2, "Beta".to_string(), vec![Some(3), Some(4), Some(7)]),
                (3, "Gamma".to_string(), vec![Some(5), Some(6)]),
            ],
            "members in the order of `order`"
        );
        assert_eq!(file.text(TextCode::BoardColours), Some("WB"));
        assert_eq!(
            file.text(TextCode::TeamScoring),
            Some("TW 3.0   TD 1.0   TL 0.0")
        );
        let byes = file.records.iter().find_map(|r| match r {
            Record::TeamByes320(b) => Some(b.clone()),
            _ => None,
        });
        let byes = byes.expect("the team bye of round 1");
        // "P": "W" is a won match (3.0); "PG": "D*" a draw on each of the 2 boards (1.0).
        assert_eq!(
            (byes.match_points.to_string(), byes.game_points.to_string()),
            ("3.0".to_string(), "1.0".to_string())
        );
        assert_eq!(byes.teams, vec![Some(3)]);
        assert_eq!(
            file.text(TextCode::EncodedType),
            Some("FIDE_TEAM_TYPEB_GP_MP")
        );

        let written: Value =
            serde_json::from_str(&write(&file, "test").expect("written")).expect("JSON");
        let t = &written["event"]["tournaments"][0];
        assert_eq!(t["teamTournament"], json!(true));
        assert_eq!(t["teamSize"], json!(2));
        assert_eq!(t["pairingSystem"], json!(["fideteam", "typeb", "gp+mp"]));
        assert_eq!(t["scoreSystem"]["primary"], json!("game"));
        let matches: Vec<String> = t["matchList"]
            .as_array()
            .expect("matchList")
            .iter()
            .map(|m| {
                format!(
                    "r{} {}:{} {}:{} played={} games={}",
                    m["round"],
                    m["white"]["cid"],
                    m["white"]["result"].as_str().unwrap_or(""),
                    m["black"]["cid"],
                    m["black"]["result"].as_str().unwrap_or(""),
                    m["played"],
                    m["games"].as_array().map_or(0, Vec::len)
                )
            })
            .collect();
        assert_eq!(
            matches,
            vec![
                "r1 1:W 2:L played=true games=2",
                "r1 3:P null: played=true games=0",
                "r2 3:W 1:Z played=false games=2",
            ]
        );
        // Board 2 of round 1: team 2's player 4 is White (352 "WB": the first team Black).
        let board2 = t["gameList"]
            .as_array()
            .expect("gameList")
            .iter()
            .find(|g| g["round"] == json!(1) && g["white"]["cid"] == json!(4))
            .expect("the board-2 game");
        assert_eq!(board2["board"], json!(2));
        // And the written file reads back to the same records.
        let again = read(&written.to_string()).expect("the export reads");
        let mut a = file.records.clone();
        let mut b = again.records.clone();
        let key = |r: &Record| format!("{r:?}");
        a.retain(|r| {
            matches!(
                r,
                Record::Player(_) | Record::Team310(_) | Record::TeamByes320(_)
            )
        });
        b.retain(|r| {
            matches!(
                r,
                Record::Player(_) | Record::Team310(_) | Record::TeamByes320(_)
            )
        });
        a.sort_by_key(key);
        b.sort_by_key(key);
        assert_eq!(a, b);
    }

    #[test]
    fn a_team_alone_in_a_round_without_a_pairing_bye_is_refused_by_name() {
        let mut e = event();
        e["event"]["tournaments"][0]["matchList"][1]["white"]["result"] = json!("Z");
        let err = read(&e.to_string()).expect_err("a team absent for a round");
        assert!(
            err.contains("matchList[1]") && err.contains("team 3 alone in round 1"),
            "{err}"
        );
        let mut e = event();
        e["event"]["tournaments"][0]["teamSequence"] = json!("WX");
        let err = read(&e.to_string()).expect_err("a bad colour");
        assert!(
            err.contains("teamSequence") && err.contains("W or B"),
            "{err}"
        );
        let mut e = event();
        e["event"]["tournaments"][0]["matchList"][0]["black"]["cid"] = json!(9);
        let err = read(&e.to_string()).expect_err("an unknown team");
        assert!(err.contains("matchList[0].black.cid: 9"), "{err}");
    }
}
