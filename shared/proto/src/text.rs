//! The text forms of an event's format (E.04 Art. 6.1), its time control as periods, the items
//! of a fair-play consent and the other online and hybrid values, a team event's and a
//! knockout's regulations, as the command line and the console's forms take them (`arbiter client create`, `arbiter client consent`, the console's
//! new-tournament screen): one reading for both.

use crate::events::v1 as pb;

/// `otb`, `online-unsupervised`, `online-supervised` or `hybrid`.
pub fn format(s: &str) -> Result<pb::EventFormat, String> {
    match s.to_ascii_lowercase().as_str() {
        "otb" | "over-the-board" => Ok(pb::EventFormat::Otb),
        "online-unsupervised" | "online" => Ok(pb::EventFormat::OnlineUnsupervised),
        "online-supervised" => Ok(pb::EventFormat::OnlineSupervised),
        "hybrid" => Ok(pb::EventFormat::Hybrid),
        other => Err(format!(
            "{other:?}: otb, online-unsupervised, online-supervised or hybrid"
        )),
    }
}

/// A duration: `90m`, `1h`, `30s` or a bare number of seconds.
fn seconds(s: &str, what: &str) -> Result<u32, String> {
    let s = s.trim();
    let (digits, unit) = match s.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => s.split_at(i),
        None => (s, ""),
    };
    let n: u32 = digits
        .parse()
        .map_err(|_| format!("{what} {s:?} is not a duration (e.g. 90m, 30s)"))?;
    let factor = match unit {
        "" | "s" => 1,
        "m" => 60,
        "h" => 3600,
        _ => {
            return Err(format!("{what} {s:?} has the unit {unit:?}; use s, m or h"));
        }
    };
    n.checked_mul(factor)
        .ok_or_else(|| format!("{what} {s:?} is too long"))
}

/// A duration for option `what`: `5m`, `1h`, `30s` or a bare number of seconds.
pub fn duration_s(s: &str, what: &str) -> Result<u32, String> {
    seconds(s, "duration").map_err(|e| format!("{what}: {e}"))
}

/// A ruling on a disconnection by its command-line name.
pub fn disconnection_outcome(s: &str) -> Result<pb::DisconnectionOutcome, String> {
    use pb::DisconnectionOutcome as O;
    Ok(match s.to_ascii_lowercase().as_str() {
        "continue" => O::Continue,
        "loss" => O::LossByDisconnection,
        "draw" => O::DrawNoMatingMaterial,
        "resume" => O::ResumeFromPosition,
        "reduce-time" => O::ReduceTime,
        "restart" => O::RestartSameTimeControl,
        "restart-shorter" => O::RestartShorterTimeControl,
        other => {
            return Err(format!(
                "ruling {other:?}: continue, loss, draw, resume, reduce-time, restart or \
                 restart-shorter"
            ));
        }
    })
}

/// Periods separated by commas, each `[MOVES/]BASE[+INCREMENT]`, e.g. `40/90m+30s,30m+30s`:
/// 40 moves in 90 minutes, then the rest of the game in 30 minutes, 30 seconds a move from
/// move 1. A period without MOVES covers the rest of the game.
pub fn periods(s: &str) -> Result<Vec<pb::TimeControlPeriod>, String> {
    s.split(',')
        .map(|period| {
            let p = period.trim();
            let (moves, rest) = match p.split_once('/') {
                Some((m, rest)) => (
                    m.trim()
                        .parse::<u32>()
                        .map_err(|_| format!("--periods {p:?}: {m:?} is not a number of moves"))?,
                    rest,
                ),
                None => (0, p),
            };
            let at = |e: String| format!("--periods {p:?}: {e}");
            let (base, increment) = match rest.split_once('+') {
                Some((b, i)) => (
                    seconds(b, "base").map_err(at)?,
                    seconds(i, "increment").map_err(at)?,
                ),
                None => (seconds(rest, "base").map_err(at)?, 0),
            };
            Ok(pb::TimeControlPeriod {
                moves,
                base_seconds: base,
                increment_seconds: increment,
                delay_seconds: 0,
            })
        })
        .collect()
}

/// Comma-separated items, or `all`.
pub fn consent_items(s: &str) -> Result<Vec<i32>, String> {
    if s.trim().eq_ignore_ascii_case("all") {
        return Ok(vec![
            pb::ConsentItem::AnalysisAndSanctions as i32,
            pb::ConsentItem::RealName as i32,
            pb::ConsentItem::RemoteSupervision as i32,
            pb::ConsentItem::Recording as i32,
            pb::ConsentItem::ComplaintsProcedure as i32,
        ]);
    }
    s.split(',')
        .map(|i| {
            Ok(match i.trim().to_ascii_lowercase().as_str() {
                "analysis-and-sanctions" | "analysis" => pb::ConsentItem::AnalysisAndSanctions,
                "real-name" => pb::ConsentItem::RealName,
                "remote-supervision" => pb::ConsentItem::RemoteSupervision,
                "recording" => pb::ConsentItem::Recording,
                "complaints-procedure" | "complaints" => pb::ConsentItem::ComplaintsProcedure,
                other => {
                    return Err(format!(
                        "--items {other:?}: analysis-and-sanctions, real-name, \
                         remote-supervision, recording, complaints-procedure, or all"
                    ));
                }
            } as i32)
        })
        .collect()
}

/// A sanction of Laws 12.9 by its command-line name.
pub fn sanction_kind(s: &str) -> Result<pb::SanctionKind, String> {
    Ok(match s.to_ascii_lowercase().as_str() {
        "warning" => pb::SanctionKind::Warning,
        "add-time" => pb::SanctionKind::AddTimeToOpponent,
        "reduce-time" => pb::SanctionKind::ReduceTime,
        "increase-opponent-score" => pb::SanctionKind::IncreaseOpponentScore,
        "reduce-score" => pb::SanctionKind::ReduceScore,
        "game-lost" => pb::SanctionKind::GameLost,
        "fine" => pb::SanctionKind::Fine,
        "exclusion" => pb::SanctionKind::ExclusionFromRounds,
        "expulsion" => pb::SanctionKind::Expulsion,
        other => {
            return Err(format!(
                "sanction {other:?}: warning, add-time, reduce-time, increase-opponent-score, \
                 reduce-score, game-lost, fine, exclusion or expulsion"
            ));
        }
    })
}

/// `KIND:REFERENCE[:NOTE]`.
pub fn evidence(s: &str) -> Result<pb::Evidence, String> {
    let mut parts = s.splitn(3, ':');
    let kind = match parts
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
        .as_str()
    {
        "physical" => pb::EvidenceKind::Physical,
        "observed-breach" => pb::EvidenceKind::ObservedBreach,
        "admission" => pb::EvidenceKind::Admission,
        "platform-decision" => pb::EvidenceKind::PlatformDecision,
        "statistical" => pb::EvidenceKind::Statistical,
        "testimony" => pb::EvidenceKind::Testimony,
        other => {
            return Err(format!(
                "--evidence {s:?}: the kind {other:?} is not physical, observed-breach, \
                 admission, platform-decision, statistical or testimony"
            ));
        }
    };
    Ok(pb::Evidence {
        kind: kind as i32,
        reference: parts.next().unwrap_or("").trim().to_string(),
        note: parts.next().unwrap_or("").trim().to_string(),
    })
}

/// Every `--evidence` given.
pub fn evidence_list(list: &[String]) -> Result<Vec<pb::Evidence>, String> {
    list.iter().map(|e| evidence(e)).collect()
}

pub fn irregularity_kind(s: &str) -> Result<pb::IrregularityKind, String> {
    Ok(match s.to_ascii_lowercase().as_str() {
        "colours-reversed" | "colors-reversed" => pb::IrregularityKind::ColoursReversed,
        "clock-wrong" => pb::IrregularityKind::ClockSettingsWrong,
        "interrupted" => pb::IrregularityKind::GameInterrupted,
        "arbiter-called" => pb::IrregularityKind::ArbiterCalled,
        other => {
            return Err(format!(
                "irregularity {other:?}: colours-reversed, clock-wrong, interrupted or \
                 arbiter-called"
            ));
        }
    })
}

/// `--platform-features`: comma-separated feature names.
pub fn platform_features(s: &str) -> Result<Vec<i32>, String> {
    use pb::PlatformFeature as F;
    const NAMES: [(&str, F); 8] = [
        ("premove", F::Premove),
        ("smart-move", F::SmartMove),
        ("auto-queen", F::AutoQueen),
        ("call-arbiter-pauses-clocks", F::CallArbiterPausesClocks),
        ("berserk", F::Berserk),
        ("draw-offer-with-move", F::DrawOfferWithMove),
        ("auto-draw-extra-positions", F::AutoDrawExtraPositions),
        ("smart-board-input", F::SmartBoardInput),
    ];
    s.split(',')
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .map(|f| {
            NAMES
                .iter()
                .find(|(n, _)| *n == f)
                .map(|&(_, v)| v as i32)
                .ok_or_else(|| {
                    let names: Vec<&str> = NAMES.iter().map(|(n, _)| *n).collect();
                    format!("--platform-features {f:?}: one of {}", names.join(", "))
                })
        })
        .collect()
}

/// The supervision items' command-line names, with their wire values.
const SUPERVISION_ITEMS: [(&str, pb::SupervisionItem); 13] = {
    use pb::SupervisionItem as I;
    [
        ("person-in-playing-area", I::PersonInPlayingArea),
        ("playing-area-not-on-camera", I::PlayingAreaNotOnCamera),
        ("screen-not-shared", I::ScreenNotShared),
        ("unauthorised-application", I::UnauthorisedApplication),
        ("vcs-not-connected", I::VcsNotConnected),
        ("face-not-in-view", I::FaceNotInView),
        ("insufficient-lighting", I::InsufficientLighting),
        ("microphone-off", I::MicrophoneOff),
        ("headphones", I::Headphones),
        ("unauthorised-device", I::UnauthorisedDevice),
        ("left-playing-area", I::LeftPlayingArea),
        ("room-inspection-refused", I::RoomInspectionRefused),
        ("surroundings-check-refused", I::SurroundingsCheckRefused),
    ]
};

pub fn supervision_item(s: &str) -> Result<pb::SupervisionItem, String> {
    let s = s.trim().to_ascii_lowercase().replace('_', "-");
    SUPERVISION_ITEMS
        .iter()
        .find(|(name, _)| *name == s)
        .map(|&(_, i)| i)
        .ok_or_else(|| {
            let names: Vec<&str> = SUPERVISION_ITEMS.iter().map(|(n, _)| *n).collect();
            format!("supervision item {s:?}: one of {}", names.join(", "))
        })
}

/// `--supervision`: a comma-separated list of what the regulations ask for: `camera` (8.1),
/// `room-inspection` (10.4), `backup-device` (9.8.1), `assistants` (8.2), `recording` (A.5),
/// `surroundings` (A.6), `vcs-before=DURATION` (13.2, e.g. 15m).
pub fn supervision(s: &str) -> Result<pb::SupervisionRequirements, String> {
    let mut r = pb::SupervisionRequirements::default();
    for item in s.split(',').map(str::trim).filter(|i| !i.is_empty()) {
        match item.split_once('=') {
            Some(("vcs-before", d)) => {
                r.vcs_connect_minutes_before =
                    duration_s(d, "--supervision vcs-before")?.div_ceil(60);
            }
            None if item == "camera" => r.playing_area_camera = true,
            None if item == "room-inspection" => r.room_inspection = true,
            None if item == "backup-device" => r.backup_device_allowed = true,
            None if item == "assistants" => r.assistants_allowed = true,
            None if item == "recording" => r.recording = true,
            None if item == "surroundings" => r.surroundings_on_request = true,
            _ => {
                return Err(format!(
                    "--supervision {item:?}: camera, room-inspection, backup-device, \
                     assistants, recording, surroundings or vcs-before=DURATION"
                ));
            }
        }
    }
    Ok(r)
}

pub fn irregularity_decision(s: &str) -> Result<pb::IrregularityDecision, String> {
    Ok(match s.to_ascii_lowercase().as_str() {
        "continue" => pb::IrregularityDecision::Continue,
        "clocks-corrected" => pb::IrregularityDecision::ClocksCorrected,
        "clocks-stopped" => pb::IrregularityDecision::ClocksStopped,
        "time-added" => pb::IrregularityDecision::TimeAdded,
        other => {
            return Err(format!(
                "--decision {other:?}: continue, clocks-corrected, clocks-stopped or time-added"
            ));
        }
    })
}

/// An event's conduct as its text fields give it (the command line's `create` flags, the
/// console's conduct fieldset); empty fields are absent values.
#[derive(Debug, Clone, Default)]
pub struct ConductText<'a> {
    pub format: &'a str,
    pub periods: &'a str,
    pub traditional_boards: bool,
    pub require_consent: bool,
    pub regulations: &'a str,
    /// A duration (`5m`); empty = until the flag falls.
    pub reconnection_window: &'a str,
    pub vcs_red_card_after: &'a str,
    /// A duration (`30m`); empty = none announced.
    pub appeal_deadline: &'a str,
    pub supervision: &'a str,
    pub platform: &'a str,
    pub platform_url: &'a str,
    pub platform_features: &'a str,
    pub illegal_move_policy: &'a str,
}

/// The conduct the fields stand for; an error names the field.
pub fn conduct(t: &ConductText) -> Result<pb::Conduct, String> {
    let format = match t.format.trim() {
        "" => pb::EventFormat::Otb,
        f => format(f).map_err(|e| format!("format: {e}"))?,
    };
    let periods = match t.periods.trim() {
        "" => Vec::new(),
        p => periods(p).map_err(|e| format!("periods: {e}"))?,
    };
    let platform =
        match t.platform.trim() {
            "" if t.platform_url.trim().is_empty()
                && t.platform_features.trim().is_empty()
                && t.illegal_move_policy.trim().is_empty() =>
            {
                None
            }
            "" => return Err(
                "platform: the platform's name, for its address, features or illegal-move policy"
                    .into(),
            ),
            name => Some(pb::PlatformProfile {
                name: name.to_string(),
                url: t.platform_url.trim().to_string(),
                features: platform_features(t.platform_features)?,
                accepts_illegal_moves: !t.illegal_move_policy.trim().is_empty(),
                illegal_move_policy: t.illegal_move_policy.trim().to_string(),
                ..Default::default()
            }),
        };
    let supervision = match t.supervision.trim() {
        "" => None,
        s => Some(supervision(s)?),
    };
    let appeal_deadline_minutes = match t.appeal_deadline.trim() {
        "" => 0,
        d => duration_s(d, "appeal deadline")?.div_ceil(60),
    };
    let reconnection_window_s = match t.reconnection_window.trim() {
        "" => 0,
        w => duration_s(w, "reconnection window")?,
    };
    let vcs_red_card_after = match t.vcs_red_card_after.trim() {
        "" => 0,
        n => n
            .parse()
            .map_err(|_| format!("video-conference cards: {n:?} is not a number"))?,
    };
    Ok(pb::Conduct {
        format: format as i32,
        periods,
        traditional_boards: t.traditional_boards,
        require_fair_play_consent: t.require_consent,
        regulations_version: t.regulations.trim().to_string(),
        reconnection_window_s,
        vcs_red_card_after,
        appeal_deadline_minutes,
        supervision,
        platform,
    })
}

// --- team events and knockouts -------------------------------------------------------------
// These return what was wrong without naming the field: each caller prefixes its own name for
// it (a flag on the command line, a label in the console).

/// Points as written (`2`, `1.5`, `½`, `0,5`), in tenths.
pub fn points_tenths(s: &str) -> Result<i32, String> {
    // The score's own reading (`1.5`, `0,5`, `.5`), with the half sign as written on paper.
    let score: arbiter_core::Score =
        s.trim().replace('½', ".5").parse().map_err(|_| {
            format!("{s:?} is not a number of points (in tenths at most, e.g. 1.5)")
        })?;
    if score.tenths() < 0 {
        return Err(format!("{s:?}: points are not negative"));
    }
    Ok(score.tenths())
}

/// Points separated by commas, spaces or slashes, in tenths.
fn points_list(s: &str) -> Result<Vec<i32>, String> {
    s.split([',', ' ', '/'])
        .filter(|x| !x.trim().is_empty())
        .map(points_tenths)
        .collect()
}

/// A team event's match points for a won, drawn and lost match (`2,1,0`), in tenths.
pub fn match_points(s: &str) -> Result<(i32, i32, i32), String> {
    match points_list(s)?[..] {
        [win, draw, loss] => Ok((win, draw, loss)),
        _ => Err(format!("{s:?}: three values, won,drawn,lost (e.g. 2,1,0)")),
    }
}

/// The team pairing-allocated bye as `MATCH,GAME` points (TRF-2026 record 320).
pub fn team_bye(s: &str) -> Result<pb::TeamBye, String> {
    match points_list(s)?[..] {
        [match_points, game_points] => Ok(pb::TeamBye {
            match_points,
            game_points,
        }),
        _ => Err(format!("{s:?}: MATCH,GAME points (e.g. 2,2)")),
    }
}

/// What ranks a team event: `mp` (match points) or `gp` (game points).
pub fn team_ranking(s: &str) -> Result<pb::TeamRanking, String> {
    match s.trim().to_ascii_lowercase().as_str() {
        "mp" | "match-points" => Ok(pb::TeamRanking::MatchPoints),
        "gp" | "game-points" => Ok(pb::TeamRanking::GamePoints),
        other => Err(format!("{other:?}: mp (match points) or gp (game points)")),
    }
}

/// The board colours of the team named first when the regulations say nothing else: White on
/// odd boards (`WBWB`).
pub fn alternating_colours(boards: u32) -> String {
    (0..boards)
        .map(|b| if b % 2 == 0 { 'W' } else { 'B' })
        .collect()
}

fn one_of<T: Copy>(s: &str, names: &[(&str, T)]) -> Result<T, String> {
    let v = s.trim().to_ascii_lowercase();
    names
        .iter()
        .find(|(n, _)| *n == v)
        .map(|(_, t)| *t)
        .ok_or_else(|| {
            let all: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
            format!("{v:?}: one of {}", all.join(", "))
        })
}

/// A knockout's seeding: `rating` or `pairing-number`.
pub fn knockout_seeding(s: &str) -> Result<pb::KnockoutSeeding, String> {
    use pb::KnockoutSeeding as S;
    one_of(
        s,
        &[("rating", S::Rating), ("pairing-number", S::PairingNumber)],
    )
}

/// White in game 1 of a knockout match: `higher-seed-white`, `higher-seed-black` or `lot`.
pub fn knockout_first_colour(s: &str) -> Result<pb::KnockoutFirstColour, String> {
    use pb::KnockoutFirstColour as F;
    one_of(
        s,
        &[
            ("higher-seed-white", F::HigherSeedWhite),
            ("higher-seed-black", F::HigherSeedBlack),
            ("lot", F::Lot),
        ],
    )
}

/// Each tie-break stage's first game: `continue`, `restart` or `lot`.
pub fn knockout_tie_break_colours(s: &str) -> Result<pb::KnockoutTieBreakColours, String> {
    use pb::KnockoutTieBreakColours as C;
    one_of(
        s,
        &[
            ("continue", C::Continue),
            ("restart", C::Restart),
            ("lot", C::Lot),
        ],
    )
}

/// White in the Armageddon game: `lot`, `higher-seed-white`, `higher-seed-black` or `continue`.
pub fn knockout_armageddon_colour(s: &str) -> Result<pb::KnockoutArmageddonColour, String> {
    use pb::KnockoutArmageddonColour as A;
    one_of(
        s,
        &[
            ("lot", A::Lot),
            ("higher-seed-white", A::HigherSeedWhite),
            ("higher-seed-black", A::HigherSeedBlack),
            ("continue", A::Continue),
        ],
    )
}

/// A knockout's tie-break stages in order, `KIND:GAMES[:TIME CONTROL]` separated by commas
/// (`rapid:2:25m+10s,blitz:2:5m+3s`); empty or `none` for no stage.
pub fn knockout_stages(s: &str) -> Result<Vec<pb::KnockoutStage>, String> {
    let s = s.trim();
    if s.is_empty() || s.eq_ignore_ascii_case("none") {
        return Ok(Vec::new());
    }
    let mut stages = Vec::new();
    for stage in s.split(',').map(str::trim) {
        let mut parts = stage.splitn(3, ':');
        let kind = match parts.next().unwrap_or("").to_ascii_lowercase().as_str() {
            "rapid" => pb::KnockoutStageKind::Rapid,
            "blitz" => pb::KnockoutStageKind::Blitz,
            other => {
                return Err(format!(
                    "{stage:?}: the kind {other:?} is not rapid or blitz"
                ));
            }
        };
        let games = parts
            .next()
            .and_then(|g| g.trim().parse::<u32>().ok())
            .ok_or_else(|| format!("{stage:?}: KIND:GAMES[:TIME CONTROL], e.g. rapid:2:25m+10s"))?;
        stages.push(pb::KnockoutStage {
            kind: kind as i32,
            games,
            time_control: parts.next().unwrap_or("").trim().to_string(),
        });
    }
    Ok(stages)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn periods_read_as_written() {
        let p = periods("40/90m+30s, 30m+30").unwrap();
        assert_eq!(
            (p[0].moves, p[0].base_seconds, p[0].increment_seconds),
            (40, 5400, 30)
        );
        assert_eq!(
            (p[1].moves, p[1].base_seconds, p[1].increment_seconds),
            (0, 1800, 30)
        );
        assert_eq!(periods("1h").unwrap()[0].base_seconds, 3600);
        let e = periods("40/90x").unwrap_err();
        assert!(e.contains("unit \"x\""), "{e}");
        assert!(periods("x/90m").unwrap_err().contains("number of moves"));
    }

    #[test]
    fn items_and_formats() {
        assert_eq!(consent_items("all").unwrap().len(), 5);
        assert_eq!(
            consent_items("analysis, real-name").unwrap(),
            vec![
                pb::ConsentItem::AnalysisAndSanctions as i32,
                pb::ConsentItem::RealName as i32
            ]
        );
        assert!(consent_items("camera").unwrap_err().contains("camera"));
        assert_eq!(format("Hybrid").unwrap(), pb::EventFormat::Hybrid);
        assert!(format("arena").is_err());
    }

    #[test]
    fn sanctions_and_evidence() {
        assert_eq!(
            sanction_kind("game-lost").unwrap(),
            pb::SanctionKind::GameLost
        );
        let e = evidence("physical:phone in the bag:found by the deputy").unwrap();
        assert_eq!(e.kind, pb::EvidenceKind::Physical as i32);
        assert_eq!(
            (e.reference.as_str(), e.note.as_str()),
            ("phone in the bag", "found by the deputy")
        );
        assert!(evidence("rumour:x").unwrap_err().contains("rumour"));
        assert_eq!(
            irregularity_kind("colours-reversed").unwrap(),
            pb::IrregularityKind::ColoursReversed
        );
        assert!(irregularity_decision("restart").is_err());
    }
    #[test]
    fn team_and_knockout_values() {
        assert_eq!(points_tenths("1.5"), Ok(15));
        assert_eq!(points_tenths("½"), Ok(5));
        assert_eq!(points_tenths("0,5"), Ok(5));
        assert!(points_tenths("-1").is_err());
        assert!(points_tenths("1.25").unwrap_err().contains("tenths"));
        assert_eq!(match_points("2,1,0"), Ok((20, 10, 0)));
        assert!(match_points("2,1").unwrap_err().contains("three values"));
        assert_eq!(
            team_bye("2, 2").map(|b| (b.match_points, b.game_points)),
            Ok((20, 20))
        );
        assert_eq!(team_ranking("GP"), Ok(pb::TeamRanking::GamePoints));
        assert_eq!(alternating_colours(5), "WBWBW");
        assert_eq!(knockout_seeding("rating"), Ok(pb::KnockoutSeeding::Rating));
        assert!(
            knockout_seeding("alphabet")
                .unwrap_err()
                .contains("rating, pairing-number")
        );
        let st = knockout_stages("rapid:2:25m+10s, blitz:4").unwrap();
        assert_eq!(st.len(), 2);
        assert_eq!((st[0].games, st[0].time_control.as_str()), (2, "25m+10s"));
        assert_eq!(st[1].kind, pb::KnockoutStageKind::Blitz as i32);
        assert_eq!(knockout_stages(" none "), Ok(vec![]));
        assert!(knockout_stages("bullet:2").unwrap_err().contains("bullet"));
    }
    #[test]
    fn conduct_from_its_fields() {
        let c = conduct(&ConductText {
            format: "online-supervised",
            periods: "15m+10s",
            regulations: "Online 2026",
            reconnection_window: "5m",
            vcs_red_card_after: "3",
            appeal_deadline: "90s",
            supervision: "camera, vcs-before=15m",
            platform: "Lichess",
            platform_features: "premove",
            ..Default::default()
        })
        .unwrap();
        assert_eq!(c.format, pb::EventFormat::OnlineSupervised as i32);
        assert_eq!(
            (
                c.reconnection_window_s,
                c.vcs_red_card_after,
                c.appeal_deadline_minutes
            ),
            (300, 3, 2)
        );
        let s = c.supervision.unwrap();
        assert!(s.playing_area_camera && s.vcs_connect_minutes_before == 15);
        let p = c.platform.unwrap();
        assert_eq!(p.features, [pb::PlatformFeature::Premove as i32]);
        assert!(!p.accepts_illegal_moves);
        // Nothing given: over the board.
        assert_eq!(
            conduct(&ConductText::default()).unwrap(),
            pb::Conduct {
                format: pb::EventFormat::Otb as i32,
                ..Default::default()
            }
        );
        let e = conduct(&ConductText {
            platform_url: "https://x",
            ..Default::default()
        })
        .unwrap_err();
        assert!(e.starts_with("platform: "), "{e}");
        let e = conduct(&ConductText {
            vcs_red_card_after: "three",
            ..Default::default()
        })
        .unwrap_err();
        assert!(e.contains("three"), "{e}");
    }
}
