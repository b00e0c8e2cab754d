//! Sanctions and irregularities: one catalogue of sanctions for
//! every format (Laws 12.9 = E.04 10.9 = 18.4) with the evidence attached, and the
//! irregularities the rules settle (colours reversed, wrong clock settings, interruptions,
//! calling the arbiter: Laws 6.10-7.3, E.04 15, 19). The types; the decisions are in
//! `decide/discipline.rs`.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Laws 12.9.1-12.9.9 (E.04 10.9, 18.4), roughly in order of severity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SanctionKind {
    Warning,
    /// 12.9.2: more time for the opponent (`amount`: how much).
    AddTimeToOpponent,
    /// 12.9.3: less time for the offender.
    ReduceTime,
    /// 12.9.4: the opponent's score in the game raised (up to the game's maximum).
    IncreaseOpponentScore,
    /// 12.9.5: the offender's score in the game reduced.
    ReduceScore,
    /// 12.9.6: the game declared lost for the offender; the opponent wins it.
    GameLost,
    /// 12.9.7: a fine announced in advance (`amount`).
    Fine,
    /// 12.9.8: exclusion from one or more rounds (`rounds`).
    ExclusionFromRounds,
    /// 12.9.9: expulsion from the competition.
    Expulsion,
}

impl SanctionKind {
    pub fn article(self) -> &'static str {
        match self {
            SanctionKind::Warning => "Laws 12.9.1",
            SanctionKind::AddTimeToOpponent => "Laws 12.9.2",
            SanctionKind::ReduceTime => "Laws 12.9.3",
            SanctionKind::IncreaseOpponentScore => "Laws 12.9.4",
            SanctionKind::ReduceScore => "Laws 12.9.5",
            SanctionKind::GameLost => "Laws 12.9.6",
            SanctionKind::Fine => "Laws 12.9.7",
            SanctionKind::ExclusionFromRounds => "Laws 12.9.8",
            SanctionKind::Expulsion => "Laws 12.9.9",
        }
    }
}

impl fmt::Display for SanctionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// What a sanction rests on (the kinds of evidence: docs/src/guide/online-hybrid.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EvidenceKind {
    PhysicalEvidence,
    ObservedBreach,
    Admission,
    PlatformDecision,
    /// A screening result: never enough on its own (Regan's notes on statistical evidence, VIII.1).
    Statistical,
    Testimony,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Evidence {
    pub kind: EvidenceKind,
    /// Where it is: a document, a recording, an event id.
    pub reference: String,
    pub note: String,
}

/// The irregularities the rules settle (E.04 15.1-15.6, 19.1-19.6; Laws 6.10-7.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum IrregularityKind {
    /// A player called the arbiter (15.1, 19.1; Laws 6.11.4): a valid reason or not.
    ArbiterCalled,
    /// The game started with the colours reversed (15.2, 19.2; Laws 7.3).
    ColoursReversed,
    /// Clock settings found wrong during the game (15.5, 19.5; Laws 6.10.2).
    ClockSettingsWrong,
    /// The game had to be interrupted (15.6, 19.6).
    GameInterrupted,
}

/// What the arbiter decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum IrregularityDecision {
    Continue,
    /// Colours reversed with fewer than 10 moves by both: a new game, colours right.
    RestartWithCorrectColours,
    /// Colours reversed, but the game already ended normally before 10 moves: it stands
    /// (Laws 7.3 commentary).
    ResultStands,
    ClocksCorrected,
    ClocksStopped,
    TimeAdded,
}

impl fmt::Display for IrregularityDecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// Colours reversed (Laws 7.3, E.04 15.2, 19.2): with fewer than 10 moves by both players the
/// game is stopped and a new one played with the right colours; from 10 moves on it goes on.
/// `plies` counts the moves of both sides (16 = 8 moves each). A game over before that stands.
pub fn colours_reversed(plies: u32, finished: bool) -> IrregularityDecision {
    let white_moves = plies.div_ceil(2);
    if white_moves >= 10 {
        IrregularityDecision::Continue
    } else if finished {
        IrregularityDecision::ResultStands
    } else {
        IrregularityDecision::RestartWithCorrectColours
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ten_moves_by_white_is_the_line() {
        use IrregularityDecision::*;
        assert_eq!(colours_reversed(16, false), RestartWithCorrectColours);
        assert_eq!(colours_reversed(18, false), RestartWithCorrectColours);
        // White's tenth move made: "10 or more moves", the game continues.
        assert_eq!(colours_reversed(19, false), Continue);
        assert_eq!(colours_reversed(20, false), Continue);
        assert_eq!(colours_reversed(8, true), ResultStands);
    }
}

/// Where a connection was lost (E.04 11, 13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ConnectionChannel {
    /// The playing platform (E.04 11, 18.8).
    Platform,
    /// The video-conference of a supervised event (13.2-13.4).
    VideoConference,
}

/// Who reported an incident.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum IncidentReporter {
    Platform,
    /// The venue's technical arbiter (hybrid, 18.8-18.9).
    LocalTechnicalArbiter,
    Arbiter,
}

/// A chief arbiter's ruling on a disconnection (E.04 11.4, 18.9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum DisconnectionOutcome {
    /// Back in time: the game goes on with the time left (11.4.1).
    Continue,
    /// Not back before the flag or the regulations' window (11.4.2).
    LossByDisconnection,
    /// Not back, but the opponent cannot mate by any series of legal moves (11.4.2, 4.5).
    DrawNoMatingMaterial,
    /// Hybrid (18.9 a-d): resume from the position at the interruption, reduce the
    /// disconnected player's time, restart with the same or a shorter time control.
    ResumeFromPosition,
    ReduceTime,
    RestartSameTimeControl,
    RestartShorterTimeControl,
}

impl DisconnectionOutcome {
    pub fn hybrid_only(self) -> bool {
        matches!(
            self,
            DisconnectionOutcome::ResumeFromPosition
                | DisconnectionOutcome::ReduceTime
                | DisconnectionOutcome::RestartSameTimeControl
                | DisconnectionOutcome::RestartShorterTimeControl
        )
    }
}

impl fmt::Display for DisconnectionOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// How a fair-play complaint was received (E.04 Appendix I G.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum ComplaintOutcome {
    /// In time, on grounds beyond the rating: for the fair-play investigation.
    Admitted,
    /// Based only on playing above one's rating (G.2.5).
    ManifestlyUnfounded,
    /// More than 24 hours after the last round ended (G.2.1).
    RejectedAsLate,
}

/// G.2.1: complaints within 24 hours of the end of the last round.
pub const COMPLAINT_WINDOW_MS: i64 = 24 * 3600 * 1000;

/// The decisions a player may appeal (E.04 9.14, 17.11; Laws 11.10; GR 10), by their event.
pub const APPEALABLE: &[&str] = &[
    "ResultRecorded",
    "ResultCorrected",
    "ResultOverridden",
    "SanctionImposed",
    "IrregularityRecorded",
    "DisconnectionRuled",
];
