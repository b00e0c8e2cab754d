//! Every case of tests/golden/prizes/examples.json (the repository root) through the library.
//!
//! Cases come in several shapes (standings with a tie-break order, score groups, a rating-gain
//! computation); each is recognised by its inputs, and a case or field this test does not know
//! fails the test instead of being passed over. Golden amounts are in currency units with
//! fractions written as decimals; they are read exactly (never through binary floating point
//! arithmetic) and compared in cents.

use arbiter_core::Score;
use arbiter_prizes::{
    Amount, Distribution, Hundredths, Method, Policy, PrizeFund, ScoreGroup, SharingScope,
    distribute, rating_gain,
};
use serde_json::{Map, Value};

type Obj = Map<String, Value>;
type Checked = Result<(), String>;

/// Case fields with no input or expectation in them.
const DESCRIPTIVE: [&str; 4] = ["id", "source", "also_in", "verification"];

#[test]
fn every_golden_case_matches() {
    let file: Value =
        serde_json::from_str(include_str!("../../../tests/golden/prizes/examples.json")).unwrap();
    let cases = file["cases"].as_array().expect("a `cases` array");
    assert!(!cases.is_empty(), "no golden case");
    let mut failures = Vec::new();
    for case in cases {
        let id = case["id"].as_str().unwrap_or("<no id>");
        if let Err(e) = run_case(case.as_object().expect("a case is an object")) {
            failures.push(format!("{id}: {e}"));
        }
    }
    assert!(
        failures.is_empty(),
        "failing golden cases:\n{}",
        failures.join("\n")
    );
    println!("{} golden cases pass", cases.len());
}

fn run_case(case: &Obj) -> Checked {
    let inputs = obj(case, "inputs")?;
    let mut handled: Vec<&str> = DESCRIPTIVE.to_vec();
    handled.extend(["inputs", "expected"]);
    if inputs.contains_key("prizes_by_place") {
        let t = PlaceCase::read(inputs)?;
        t.check_methods(obj(case, "expected")?)?;
        if let Some(stated) = case.get("seed_stated") {
            t.check_methods(as_obj(stated, "seed_stated")?)?;
            handled.push("seed_stated");
        }
        if let Some(counter) = case.get("counter_example_scope_all_tied") {
            t.check_all_tied(as_obj(counter, "counter_example_scope_all_tied")?)?;
            handled.push("counter_example_scope_all_tied");
        }
    } else if inputs.contains_key("player_rating") {
        check_rating_gain(inputs, obj(case, "expected")?)?;
    } else {
        return Err("inputs of an unknown shape".into());
    }
    match case.keys().find(|k| !handled.contains(&k.as_str())) {
        Some(k) => Err(format!("field `{k}` is not checked by this test")),
        None => Ok(()),
    }
}

/// A place-prize case: standings, prizes in cents, sharing scope.
struct PlaceCase {
    standings: Vec<ScoreGroup<String>>,
    prizes: Vec<i64>,
    scope: SharingScope,
    /// Cents per currency unit.
    scale: i64,
}

impl PlaceCase {
    fn read(inputs: &Obj) -> Result<PlaceCase, String> {
        // Only EUR occurs; a case without a currency is in the same two-decimal units.
        let scale = match inputs.get("currency").and_then(Value::as_str) {
            None | Some("EUR") => 100,
            Some(c) => return Err(format!("currency {c} has no known minor unit here")),
        };
        let prizes = arr(inputs, "prizes_by_place")?
            .iter()
            .map(|v| cents(v, scale))
            .collect::<Result<_, _>>()?;
        let scope = match inputs.get("sharing_scope").and_then(Value::as_str) {
            None => SharingScope::PrizePlaces,
            // The value may carry an explanation after the keyword.
            Some(s) => match s.split_whitespace().next() {
                Some("prize_places") => SharingScope::PrizePlaces,
                Some("all_tied") => SharingScope::AllTied,
                _ => return Err(format!("unknown sharing scope {s:?}")),
            },
        };
        let standings = if inputs.contains_key("score_groups_in_tiebreak_order") {
            groups_from_score_groups(arr(inputs, "score_groups_in_tiebreak_order")?)?
        } else {
            groups_from_standings(arr(inputs, "standings")?, arr(inputs, "tie_break_order")?)?
        };
        Ok(PlaceCase {
            standings,
            prizes,
            scope,
            scale,
        })
    }

    fn run(&self, method: Method, scope: SharingScope) -> Result<Distribution<String>, String> {
        let policy = Policy {
            scope,
            ..Policy::new(method)
        };
        let fund = PrizeFund::places(self.prizes.clone());
        let d = distribute(&self.standings, &fund, &policy).map_err(|e| e.to_string())?;
        let fund_total: i64 = self.prizes.iter().sum();
        if d.paid_total() + d.unawarded_total() != i128::from(fund_total) {
            return Err(format!("{method:?}: total not preserved"));
        }
        Ok(d)
    }

    /// `expected` maps a method key to every player's exact amount; amounts may also be written
    /// as "own half + shared half = total" for the Hort system.
    fn check_methods(&self, expected: &Obj) -> Checked {
        for (key, amounts) in expected {
            let method = match key.as_str() {
                "a_equal_share" => Method::Equal,
                "b_by_tiebreak" => Method::TieBreak,
                "c_hort" => Method::Hort,
                _ => return Err(format!("unknown method key {key}")),
            };
            let d = self.run(method, self.scope)?;
            let amounts = as_obj(amounts, key)?;
            if amounts.len() != d.awards.len() {
                return Err(format!("{key}: {} players expected", amounts.len()));
            }
            for (player, want) in amounts {
                let a = d
                    .award(player)
                    .ok_or(format!("{key}: no award for {player}"))?;
                let want = match want {
                    Value::String(s) => {
                        self.hort_sum(s, a.portions.first().and_then(|p| p.place))?
                    }
                    v => exact(v, self.scale)?,
                };
                if a.exact != want {
                    return Err(format!(
                        "{key} {player}: got {} cents, expected {want}",
                        a.exact
                    ));
                }
                // Every golden amount here is whole cents, so nothing may be rounded away.
                if Amount::from_minor(a.paid) != a.exact {
                    return Err(format!("{key} {player}: paid {} for {}", a.paid, a.exact));
                }
            }
        }
        Ok(())
    }

    /// Reads "x + y = z" (Hort: half the own place prize plus the equal share of the pooled
    /// halves), checks x against the place held and the sum, and returns z.
    fn hort_sum(&self, s: &str, place: Option<usize>) -> Result<Amount, String> {
        let bad = || format!("cannot read {s:?}");
        let (terms, total) = s.split_once('=').ok_or_else(bad)?;
        let (own, shared) = terms.split_once('+').ok_or_else(bad)?;
        let [own, shared, total] = [own, shared, total].map(|t| decimal(t.trim(), self.scale));
        let (own, shared, total) = (own?, shared?, total?);
        let place_prize = place.and_then(|q| self.prizes.get(q - 1)).ok_or_else(bad)?;
        if Amount::new(i128::from(*place_prize), 2) != Some(own) || own + shared != total {
            return Err(format!("{s:?} does not add up for place {place:?}"));
        }
        Ok(total)
    }

    /// The counter-example: under `AllTied` the last prize is split among the whole group.
    fn check_all_tied(&self, counter: &Obj) -> Checked {
        for (key, want) in counter {
            if key == "note" {
                continue;
            }
            let size: usize = key
                .strip_prefix("equal_share_each_of_")
                .and_then(|n| n.parse().ok())
                .ok_or(format!("unknown counter-example field {key}"))?;
            let d = self.run(Method::Equal, SharingScope::AllTied)?;
            let last = self.standings.last().ok_or("no standings")?;
            if last.players.len() != size {
                return Err(format!(
                    "{key}: last group has {} players",
                    last.players.len()
                ));
            }
            // The golden value is rounded: compare to the digits it shows.
            let text = number_text(want)?;
            let digits = text.split_once('.').map_or(0, |(_, f)| f.len()) as u32;
            let half_ulp = Amount::new(self.scale as i128, 2 * 10i128.pow(digits)).unwrap();
            let want = decimal(&text, self.scale)?;
            for p in &last.players {
                let got = d.award(p).ok_or(format!("no award for {p}"))?.exact;
                if got - want >= half_ulp || want - got > half_ulp {
                    return Err(format!("{key} {p}: got {got} cents, golden {text}"));
                }
            }
        }
        Ok(())
    }
}

fn groups_from_score_groups(groups: &[Value]) -> Result<Vec<ScoreGroup<String>>, String> {
    groups
        .iter()
        .map(|g| {
            let g = as_obj(g, "score group")?;
            let players = arr(g, "players")?
                .iter()
                .map(name)
                .collect::<Result<_, _>>()?;
            Ok(ScoreGroup::new(points(field(g, "points")?)?, players))
        })
        .collect()
}

/// Standings given as players with points, plus the tie-break order of all of them: the groups
/// are the runs of equal points along that order, which must never gain points.
fn groups_from_standings(
    standings: &[Value],
    order: &[Value],
) -> Result<Vec<ScoreGroup<String>>, String> {
    let mut rows = Vec::new();
    for s in standings {
        let s = as_obj(s, "standings row")?;
        let buchholz = field(s, "buchholz").map(|v| exact(v, 1)).ok().transpose()?;
        rows.push((
            name(field(s, "player")?)?,
            points(field(s, "points")?)?,
            buchholz,
        ));
    }
    if order.len() != rows.len() {
        return Err("tie-break order and standings differ in size".into());
    }
    let mut groups: Vec<ScoreGroup<String>> = Vec::new();
    let mut last_buchholz = None;
    for p in order {
        let p = name(p)?;
        let (_, pts, bh) = rows
            .iter()
            .find(|r| r.0 == p)
            .ok_or(format!("{p} not in standings"))?;
        match groups.last_mut() {
            Some(g) if g.points == *pts => {
                // Within a score group the listed tie-break value must not rise.
                if bh > &last_buchholz {
                    return Err(format!("{p}: Buchholz rises within the score group"));
                }
                g.players.push(p);
            }
            Some(g) if g.points < *pts => return Err(format!("{p}: points rise in the order")),
            _ => groups.push(ScoreGroup::new(*pts, vec![p])),
        }
        last_buchholz = *bh;
    }
    Ok(groups)
}

fn check_rating_gain(inputs: &Obj, expected: &Obj) -> Checked {
    let int = |k: &str| {
        field(inputs, k)?
            .as_i64()
            .ok_or(format!("{k} is not an integer"))
    };
    let games = u32::try_from(int("games")?).map_err(|e| e.to_string())?;
    let own = int("player_rating")? as i32;
    let ra = int("opponents_average_rating")? as i32;
    let g = rating_gain(own, ra, games, points(field(inputs, "points")?)?, None)
        .map_err(|e| e.to_string())?;
    let hundredths = |h: Hundredths| Amount::new(i128::from(h.0), 100).unwrap();
    for (key, want) in expected {
        let got = match key.as_str() {
            "diff" => Amount::from_minor(i64::from(g.difference.unsigned_abs())),
            "pd_lower_rated" if g.difference < 0 => hundredths(g.expected_per_game),
            "pd_higher_rated" if g.difference >= 0 => hundredths(g.expected_per_game),
            "We" => hundredths(g.expected),
            "W_minus_We" => hundredths(g.gain),
            _ => return Err(format!("field {key} does not apply")),
        };
        if got != exact(want, 1)? {
            return Err(format!("{key}: got {got}, expected {want}"));
        }
    }
    Ok(())
}

// --- Reading JSON values exactly ---

/// The number as written: serde_json prints a float in its shortest round-trip form, which
/// for these short decimals is the text of the file.
fn number_text(v: &Value) -> Result<String, String> {
    match v {
        Value::Number(n) => Ok(n.to_string()),
        _ => Err(format!("{v} is not a number")),
    }
}

/// A number in currency units as an exact amount of `scale`-ths.
fn exact(v: &Value, scale: i64) -> Result<Amount, String> {
    decimal(&number_text(v)?, scale)
}

fn decimal(text: &str, scale: i64) -> Result<Amount, String> {
    let bad = || format!("{text:?} is not a plain decimal");
    let (neg, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    if int.is_empty() || !(int.chars().chain(frac.chars())).all(|c| c.is_ascii_digit()) {
        return Err(bad());
    }
    let num: i128 = format!("{int}{frac}").parse().map_err(|_| bad())?;
    let den = 10i128.pow(frac.len() as u32);
    let signed = if neg { -num } else { num };
    Amount::new(signed * i128::from(scale), den).ok_or_else(bad)
}

fn cents(v: &Value, scale: i64) -> Result<i64, String> {
    let a = exact(v, scale)?;
    match a.is_whole() {
        true => i64::try_from(a.numer()).map_err(|e| e.to_string()),
        false => Err(format!("prize {v} is not a whole number of cents")),
    }
}

fn points(v: &Value) -> Result<Score, String> {
    number_text(v)?.parse::<Score>().map_err(|e| e.to_string())
}

fn name(v: &Value) -> Result<String, String> {
    v.as_str()
        .map(str::to_string)
        .ok_or(format!("{v} is not a name"))
}

fn field<'a>(o: &'a Obj, k: &str) -> Result<&'a Value, String> {
    o.get(k).ok_or(format!("missing field {k}"))
}

fn obj<'a>(o: &'a Obj, k: &str) -> Result<&'a Obj, String> {
    as_obj(field(o, k)?, k)
}

fn as_obj<'a>(v: &'a Value, what: &str) -> Result<&'a Obj, String> {
    v.as_object().ok_or(format!("{what} is not an object"))
}

fn arr<'a>(o: &'a Obj, k: &str) -> Result<&'a Vec<Value>, String> {
    field(o, k)?
        .as_array()
        .ok_or(format!("{k} is not an array"))
}
