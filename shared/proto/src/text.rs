//! The text forms of an event's format (E.04 Art. 6.1), its time control as periods, the items
//! of a fair-play consent and the other online and hybrid values, as the command line and the
//! console's forms take them (`arbiter client create`, `arbiter client consent`, the console's
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
            "--format {other:?}: otb, online-unsupervised, online-supervised or hybrid"
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
}
