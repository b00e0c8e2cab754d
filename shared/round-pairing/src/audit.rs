//! The audit of a tournament's stream: the hash chain, the fold, and every published pairing
//! re-run from the events before it.

use crate::engine::{
    boards_of, input_digest, input_for, is_round_robin, round_robin_digest, round_robin_round,
};
use arbiter_core::ResultCode;
use arbiter_core::tournament::{
    DrawLots, Event, LotsDrawn, Pair, PairingPublished, State, drawn_numbers,
};
use arbiter_eventlog::{ChainBreak, StoredEvent, Version, verify_chain};
use arbiter_pairing::pair;
use arbiter_proto::convert::event_from_wire;
use arbiter_service_kit::store::{FoldError, Folded, Misfit};
use std::fmt::Write as _;

/// What re-running one published pairing found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundAudit {
    pub round: u32,
    /// The version of the `PairingPublished` event.
    pub published_version: Version,
    /// Published by hand (not the engine's proposal as it stood).
    pub manual: bool,
    pub note: String,
    /// Every difference between the published pairing and the engine's; empty = identical.
    pub differences: Vec<String>,
    /// When the pairs differ: the rule that decides for the engine's pairing.
    pub verdict: Option<String>,
}

impl RoundAudit {
    pub fn identical(&self) -> bool {
        self.differences.is_empty()
    }
}

/// What re-deriving a round robin's drawing of lots found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrawAudit {
    /// The version of the `LotsDrawn` event.
    pub version: Version,
    pub varma: bool,
    /// Empty: drawn in the hall and recorded by the arbiter (checked, not re-derived).
    pub seed: String,
    /// Empty: the recorded numbers are what the seed gives (or, drawn in the hall, a result
    /// the procedure can give).
    pub differences: Vec<String>,
}

/// The audit of one stream.
#[derive(Debug, Clone, PartialEq)]
pub struct AuditReport {
    pub stream: String,
    pub events: usize,
    /// The first broken link of the hash chain.
    pub chain_break: Option<ChainBreak>,
    /// Why the stream could not be folded.
    pub fold_error: Option<FoldError>,
    /// Events that did not fit the state.
    pub misfits: Vec<Misfit>,
    pub rounds: Vec<RoundAudit>,
    /// The drawing of lots of a round robin, re-derived from its seed.
    pub draws: Vec<DrawAudit>,
    /// The rebuilt state (when the chain is intact and the stream folds).
    pub folded: Option<Folded>,
}

impl AuditReport {
    /// The chain is intact, every event decodes and fits the state.
    pub fn log_intact(&self) -> bool {
        self.chain_break.is_none() && self.fold_error.is_none() && self.misfits.is_empty()
    }

    /// Rounds whose re-run differs: engine-published rounds always; rounds paired by hand only
    /// with `include_manual`.
    /// Recorded draws that their seed (or the procedure) does not give.
    pub fn differing_draws(&self) -> Vec<&DrawAudit> {
        self.draws
            .iter()
            .filter(|d| !d.differences.is_empty())
            .collect()
    }

    pub fn differing(&self, include_manual: bool) -> Vec<&RoundAudit> {
        self.rounds
            .iter()
            .filter(|r| !r.identical() && (include_manual || !r.manual))
            .collect()
    }

    /// A human-readable summary.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "stream {}: {} events", self.stream, self.events);
        match &self.chain_break {
            None => {
                let _ = writeln!(s, "hash chain: intact");
            }
            Some(b) => {
                let _ = writeln!(s, "hash chain: BROKEN at {b}");
            }
        }
        if let Some(e) = &self.fold_error {
            let _ = writeln!(s, "fold: FAILED: {e}");
        }
        for m in &self.misfits {
            let _ = writeln!(
                s,
                "fold: event at version {} does not fit the state: {}",
                m.version, m.reason
            );
        }
        for d in &self.draws {
            let what = match (d.varma, d.seed.is_empty()) {
                (true, false) => format!("Varma draw from seed {:?}", d.seed),
                (false, false) => format!("draw from seed {:?}", d.seed),
                (true, true) => "Varma draw recorded from the hall".to_string(),
                (false, true) => "draw recorded from the hall".to_string(),
            };
            let how = if d.seed.is_empty() {
                "checked against the procedure"
            } else {
                "re-derived"
            };
            if d.differences.is_empty() {
                let _ = writeln!(s, "lots ({what}): {how}, identical");
            } else {
                let _ = writeln!(s, "lots ({what}): {how}, DIFFERS");
                for x in &d.differences {
                    let _ = writeln!(s, "  {x}");
                }
            }
        }
        for r in &self.rounds {
            let how = if r.manual {
                format!(" (published by hand: {})", r.note)
            } else {
                String::new()
            };
            if r.identical() {
                let _ = writeln!(s, "round {}: re-paired, identical{how}", r.round);
            } else {
                let _ = writeln!(s, "round {}: re-paired, DIFFERS{how}", r.round);
                for d in &r.differences {
                    let _ = writeln!(s, "  {d}");
                }
                if let Some(v) = &r.verdict {
                    let _ = writeln!(s, "  why: {v}");
                }
            }
        }
        s
    }
}

/// Audits the events of one stream, read in version order from the log.
pub fn audit(stream: &str, events: &[StoredEvent]) -> AuditReport {
    let mut report = AuditReport {
        stream: stream.to_string(),
        events: events.len(),
        chain_break: verify_chain(events),
        fold_error: None,
        misfits: Vec::new(),
        rounds: Vec::new(),
        draws: Vec::new(),
        folded: None,
    };
    if report.chain_break.is_some() {
        return report;
    }
    if let Some(first) = events.first()
        && first.version != 1
    {
        report.fold_error = Some(FoldError::Gap {
            stream: stream.to_string(),
            expected: 1,
            found: first.version,
        });
        return report;
    }
    let mut folded = Folded::default();
    // The state just before each publication, to re-run its pairing on.
    let mut publications: Vec<(State, PairingPublished, Version)> = Vec::new();
    for e in events {
        if let Ok(wire) = e.decode_event()
            && let Ok(Some(Event::PairingPublished(p))) = event_from_wire(&wire)
        {
            publications.push((folded.state.clone(), p, e.version));
        }
        if let Ok(wire) = e.decode_event()
            && let Ok(Some(Event::LotsDrawn(l))) = event_from_wire(&wire)
        {
            report
                .draws
                .push(rederive_draw(&folded.state, &l, e.version));
        }
        if let Err(err) = folded.apply_stored(e) {
            report.fold_error = Some(err);
            return report;
        }
    }
    report.rounds = rerun_all(&publications);
    report.misfits = folded.misfits.clone();
    report.folded = Some(folded);
    report
}

/// Re-derives a recorded drawing of lots on the state just before it: from its seed, or (drawn
/// in the hall) checks the numbers against the procedure.
fn rederive_draw(before: &State, l: &LotsDrawn, version: Version) -> DrawAudit {
    let mut out = DrawAudit {
        version,
        varma: l.varma,
        seed: l.seed.clone(),
        differences: Vec::new(),
    };
    let command = DrawLots {
        varma: l.varma,
        seed: l.seed.clone(),
        numbers: if l.seed.is_empty() {
            l.numbers.clone()
        } else {
            Vec::new()
        },
    };
    match drawn_numbers(before, &command) {
        Err(e) => out
            .differences
            .push(format!("the draw cannot be made: {e}")),
        Ok(numbers) => {
            for (i, (rec, ours)) in l.numbers.iter().zip(&numbers).enumerate() {
                if rec != ours {
                    let name = before
                        .player(i as u32 + 1)
                        .map_or(String::new(), |p| format!(" ({})", p.player.name));
                    out.differences.push(format!(
                        "player {}{name}: recorded number {rec}, the seed gives {ours}",
                        i + 1
                    ));
                }
            }
            if l.numbers.len() != numbers.len() {
                out.differences.push(format!(
                    "{} numbers recorded for {} players",
                    l.numbers.len(),
                    numbers.len()
                ));
            }
        }
    }
    out
}

/// Re-runs the pairings, each on its own state, on as many threads as there are cores (the
/// results keep the order of the publications).
fn rerun_all(publications: &[(State, PairingPublished, Version)]) -> Vec<RoundAudit> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, publications.len().max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut out: Vec<Option<RoundAudit>> = vec![None; publications.len()];
    let slots = std::sync::Mutex::new(&mut out);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some((state, p, version)) = publications.get(i) else {
                        break;
                    };
                    let audit = rerun(state, p, *version);
                    slots.lock().expect("slots")[i] = Some(audit);
                }
            });
        }
    });
    out.into_iter()
        .map(|a| a.expect("every round re-run"))
        .collect()
}

/// A team round: the matches and the team bye re-derived from the rounds before it (the
/// boards are the line-ups', checked by the aggregate at publication).
fn rerun_team(before: &State, p: &PairingPublished, out: &mut RoundAudit) {
    let attempt = before.round_attempt(p.round).unwrap_or(0);
    let (mut matches, bye) = match crate::teams::answer(before, p.round, attempt, 0) {
        crate::engine::Answer::Proposed(x) => (x.team_matches, x.team_bye),
        crate::engine::Answer::Failed(f) => {
            out.differences
                .push(format!("the team round cannot be re-derived: {}", f.reason));
            return;
        }
    };
    let text = |m: Option<&arbiter_core::teams::TeamMatch>| {
        m.map_or("no match".to_string(), |m| {
            format!("{}-{}", m.first, m.second)
        })
    };
    let mut published = p.team_matches.clone();
    if out.manual {
        // A pairing by hand (or imported: a file records no match order) is compared as a
        // set of matches, each with its team named first.
        matches.sort();
        published.sort();
    }
    for i in 0..matches.len().max(published.len()) {
        let (ours, rec) = (matches.get(i), published.get(i));
        if ours != rec {
            out.differences.push(format!(
                "match {}: published {}, re-derived {}",
                i + 1,
                text(rec),
                text(ours)
            ));
        }
    }
    if bye != p.team_bye {
        out.differences.push(format!(
            "team bye: published {:?}, re-derived {:?}",
            p.team_bye, bye
        ));
    }
}

fn pair_text(p: &Pair) -> String {
    format!("{}-{}", p.white, p.black)
}

/// Re-runs the pairing of `p.round` on `before` (the state just before its publication).
fn rerun(before: &State, p: &PairingPublished, version: Version) -> RoundAudit {
    let mut out = RoundAudit {
        round: p.round,
        published_version: version,
        manual: p.manually_changed || p.proposal_version.is_none(),
        note: p.note.clone(),
        differences: Vec::new(),
        verdict: None,
    };
    if before.team_rules().is_some() {
        rerun_team(before, p, &mut out);
        return out;
    }
    if is_round_robin(before) {
        rerun_round_robin(before, p, &mut out);
        return out;
    }
    let input = match input_for(before, p.round, None) {
        Ok((_, input)) => input,
        Err(why) => {
            out.differences
                .push(format!("the engine's input cannot be built: {why}"));
            return out;
        }
    };
    let engine = match pair(&input) {
        Ok(e) => e,
        Err(e) => {
            out.differences
                .push(format!("the engine finds no pairing: {e}"));
            return out;
        }
    };
    let mut published: Vec<Pair> = p
        .boards
        .iter()
        .map(|b| Pair::new(b.white, b.black))
        .collect();
    let mut computed = boards_of(&engine);
    if out.manual {
        // A pairing made by hand (or imported from a file, which records no board order) is
        // compared as a set of games with their colours.
        let key = |x: &Pair| (x.white.min(x.black), x.white.max(x.black), x.white);
        published.sort_by_key(key);
        computed.sort_by_key(key);
    }
    for i in 0..published.len().max(computed.len()) {
        match (published.get(i), computed.get(i)) {
            (Some(a), Some(b)) if a == b => {}
            (a, b) => out.differences.push(format!(
                "board {}: published {}, engine {}",
                i + 1,
                a.map_or("-".into(), pair_text),
                b.map_or("-".into(), pair_text)
            )),
        }
    }
    let published_bye = p
        .unpaired
        .iter()
        .find(|u| u.code == ResultCode::PairingBye)
        .map(|u| u.player_id);
    if published_bye != engine.bye {
        out.differences.push(format!(
            "pairing-allocated bye: published {}, engine {}",
            published_bye.map_or("none".into(), |x| x.to_string()),
            engine.bye.map_or("none".into(), |x| x.to_string())
        ));
    }
    if !out.differences.is_empty() {
        let other = crate::engine::recorded_pairing(
            p.boards.iter().map(|b| (b.white, b.black)),
            published_bye,
        );
        out.verdict = arbiter_pairing::compare(&input, &other)
            .ok()
            .map(|c| c.verdict)
            .filter(|v| *v != arbiter_pairing::Verdict::Identical)
            .map(|v| v.to_string());
    }
    if !out.manual
        && let Some(proposal) = before.proposal(p.round)
    {
        let digest = input_digest(&input);
        if proposal.input_digest != digest {
            out.differences.push(format!(
                "input digest: the proposal recorded {}, the events before the publication give {}",
                hex(&proposal.input_digest),
                hex(&digest)
            ));
        }
    }
    out
}

/// A round robin's published round against its schedule, board by board (a schedule has no
/// board order to forgive, even when published by hand), and its recorded input digest.
fn rerun_round_robin(before: &State, p: &PairingPublished, out: &mut RoundAudit) {
    let scheduled = match round_robin_round(before, p.round) {
        Ok((scheduled, _)) => scheduled,
        Err(why) => {
            out.differences
                .push(format!("the schedule cannot be built: {why}"));
            return;
        }
    };
    let published: Vec<Pair> = p
        .boards
        .iter()
        .map(|b| Pair::new(b.white, b.black))
        .collect();
    for i in 0..published.len().max(scheduled.boards.len()) {
        match (published.get(i), scheduled.boards.get(i)) {
            (Some(a), Some(b)) if a == b => {}
            (a, b) => out.differences.push(format!(
                "board {}: published {}, schedule {}",
                i + 1,
                a.map_or("-".into(), pair_text),
                b.map_or("-".into(), pair_text)
            )),
        }
    }
    let published_rest = p
        .unpaired
        .iter()
        .find(|u| u.code == ResultCode::ZeroBye && Some(u.player_id) == scheduled.rest)
        .map(|u| u.player_id);
    if published_rest != scheduled.rest {
        out.differences.push(format!(
            "rest: published {}, schedule {}",
            published_rest.map_or("none".into(), |x| x.to_string()),
            scheduled.rest.map_or("none".into(), |x| x.to_string())
        ));
    }
    if !out.manual
        && let Some(proposal) = before.proposal(p.round)
    {
        let digest = round_robin_digest(before, p.round);
        if proposal.input_digest != digest {
            out.differences.push(format!(
                "input digest: the proposal recorded {}, the events before the publication give {}",
                hex(&proposal.input_digest),
                hex(&digest)
            ));
        }
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}
