//! How an event's games are played (E.04 Art. 6.1: over the board, online unsupervised, online
//! supervised, hybrid) and the rules that hang off the format: the time control as periods,
//! traditional boards in hybrid events (Art. 20), and the fair-play consent without which a player
//! is not paired (Appendix I J).

use super::error::DomainError;
use serde::{Deserialize, Serialize};
use std::fmt;

/// E.04 Art. 6.1 (proto `EventFormat`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EventFormat {
    #[default]
    Otb,
    /// 6.1.1: on a platform, without specific supervision.
    OnlineUnsupervised,
    /// 6.1.2: players supervised remotely (video-conference, cameras, screen share).
    OnlineSupervised,
    /// 6.1.3: online, every player supervised physically by an arbiter at a venue.
    Hybrid,
}

impl EventFormat {
    pub fn is_online(self) -> bool {
        self != EventFormat::Otb
    }
}

impl fmt::Display for EventFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EventFormat::Otb => "over the board",
            EventFormat::OnlineUnsupervised => "online unsupervised",
            EventFormat::OnlineSupervised => "online supervised",
            EventFormat::Hybrid => "hybrid",
        })
    }
}

/// One period of the time control (E.04 Art. 8.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TimeControlPeriod {
    /// Moves in the period; 0 = the rest of the game.
    pub moves: u32,
    pub base_seconds: u32,
    pub increment_seconds: u32,
    pub delay_seconds: u32,
}

/// What a player consents to (proto `ConsentItem`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ConsentItem {
    /// Examined with an analysis tool; may face disciplinary sanctions (Appendix I J).
    AnalysisAndSanctions,
    /// Real name (A.4) and personal account (9.3).
    RealName,
    /// Camera, microphone, screen share, surroundings, task manager (A.5-A.6, 12-14).
    RemoteSupervision,
    /// Recording and its retention (A.5; venue cameras 16.3, 18.7).
    Recording,
    /// Complaints on the official form only; the false-accusation rule (B, D, G.2).
    ComplaintsProcedure,
}

impl ConsentItem {
    /// The field name and the article, for refusals.
    pub fn describe(self) -> &'static str {
        match self {
            ConsentItem::AnalysisAndSanctions => "ANALYSIS_AND_SANCTIONS (E.04 Appendix I J)",
            ConsentItem::RealName => "REAL_NAME (E.04 Appendix I A.4, Art. 9.3)",
            ConsentItem::RemoteSupervision => {
                "REMOTE_SUPERVISION (E.04 Appendix I A.5-A.6, Art. 12-14)"
            }
            ConsentItem::Recording => "RECORDING (E.04 Appendix I A.5, Art. 16.3, 18.7)",
            ConsentItem::ComplaintsProcedure => "COMPLAINTS_PROCEDURE (E.04 Appendix I B, D, G.2)",
        }
    }
}

/// An event's format and what its regulations fix with it (proto `Conduct`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Conduct {
    pub format: EventFormat,
    pub periods: Vec<TimeControlPeriod>,
    pub traditional_boards: bool,
    /// As asked for; see [`Conduct::consent_required`].
    pub require_fair_play_consent: bool,
    pub regulations_version: String,
    /// How long a disconnected player has to come back, in seconds, besides his clock (E.04
    /// 11.4.2: the regulations may give one); 0 = until his flag falls.
    #[serde(default)]
    pub reconnection_window_s: u32,
    /// Video-conference cards (E.04 13.4): a moved-while-off-the-call breach is a yellow card
    /// (a warning), the breach that reaches this count a red one (the game lost); 0 = no cards.
    #[serde(default)]
    pub vcs_red_card_after: u32,
    /// Minutes after a decision within which an appeal is heard (GR 10.3: the announced
    /// deadline); 0 = none announced.
    #[serde(default)]
    pub appeal_deadline_minutes: u32,
    /// What the regulations of an online supervised event ask of each player's supervision
    /// beyond the rules every such event has (E.04 8, 12-14; Appendix I A.5-A.6).
    #[serde(default)]
    pub supervision: SupervisionRequirements,
    /// The platform the games are played on (online and hybrid events): what players and arbiters
    /// must know of it (E.04 2.4, 8.4, 16.10).
    #[serde(default)]
    pub platform: Option<PlatformProfile>,
}

/// An online platform as the event's regulations describe it (E.04 2.4).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlatformProfile {
    /// Players must know the platform (E.04 2.4).
    pub name: String,
    pub version: String,
    /// `http://` or `https://`, or empty.
    pub url: String,
    /// What the platform offers that the arbiter must know of (E.04 3.4-3.6, 4.3, 5.3-5.4,
    /// 8.3, 8.6); premoves matter to the move-time statistics of the screening.
    pub features: Vec<PlatformFeature>,
    /// Moves before which no draw may be offered (E.04 5.3 comment); 0 = no limit.
    pub min_moves_before_draw_offer: u32,
    /// Whether the platform accepts illegal moves (E.04 3.3 says it must not)...
    pub accepts_illegal_moves: bool,
    /// ...and then how the regulations handle them (8.4, 16.10): required with it.
    pub illegal_move_policy: String,
    /// The platform drops no-shows from later rounds by itself. Recorded so the arbiter knows;
    /// the service never mirrors it: only a withdrawal or an arbiter's decision removes a
    /// player ("Otras consideraciones").
    pub auto_excludes_disconnected_players: bool,
}

/// A platform feature the regulations must mention (E.04 3.4, 3.6, 4.3, 5.4, 8.3, 8.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum PlatformFeature {
    /// 3.6: a move made in advance, played at once when the opponent has moved.
    Premove,
    /// 3.6: the only legal move of a piece made by clicking its square.
    SmartMove,
    /// 3.6: a pawn promoted to a queen without asking.
    AutoQueen,
    /// 4.3 comment: calling the arbiter pauses the clocks.
    CallArbiterPausesClocks,
    /// 8.3 comment: halving one's own time for a bonus (arena scoring, which the service does
    /// not apply: a game is never worth more than a normal one, 7.2).
    Berserk,
    /// 8.6, 16.12: a draw offer shown with the move it was made with.
    DrawOfferWithMove,
    /// 5.4 comment: automatic draws in further positions (e.g. K+N v K+N).
    AutoDrawExtraPositions,
    /// 3.4 comment: moves entered from a smart board.
    SmartBoardInput,
}

impl PlatformProfile {
    fn check(&self, format: EventFormat) -> Result<(), DomainError> {
        if format == EventFormat::Otb {
            return Err(DomainError::invalid(
                "conduct.platform",
                "an over-the-board event has no playing platform (E.04 Art. 6.1)",
            ));
        }
        if self.name.trim().is_empty() {
            return Err(DomainError::invalid(
                "conduct.platform.name",
                "required: players must know the platform they play on (E.04 Art. 2.4)",
            ));
        }
        let url = self.url.trim();
        if !(url.is_empty() || url.starts_with("https://") || url.starts_with("http://")) {
            return Err(DomainError::invalid(
                "conduct.platform.url",
                format!("{url:?} is not an http(s) address"),
            ));
        }
        if self.accepts_illegal_moves && self.illegal_move_policy.trim().is_empty() {
            return Err(DomainError::invalid(
                "conduct.platform.illegal_move_policy",
                "required when the platform accepts illegal moves: the regulations must say how \
                 they are handled (E.04 Art. 8.4, 16.10)",
            ));
        }
        if !self.accepts_illegal_moves && !self.illegal_move_policy.trim().is_empty() {
            return Err(DomainError::invalid(
                "conduct.platform.illegal_move_policy",
                "given for a platform that accepts no illegal moves (accepts_illegal_moves is \
                 false)",
            ));
        }
        for (field, v) in [
            ("conduct.platform.name", &self.name),
            ("conduct.platform.version", &self.version),
            ("conduct.platform.url", &self.url),
        ] {
            if v.chars().count() > 200 || v.contains('\n') {
                return Err(DomainError::invalid(
                    field,
                    "one line of at most 200 characters",
                ));
            }
        }
        if self.illegal_move_policy.chars().count() > 1000 {
            return Err(DomainError::invalid(
                "conduct.platform.illegal_move_policy",
                "at most 1000 characters",
            ));
        }
        Ok(())
    }
}

/// The supervision an online supervised event's regulations may or may not ask for (E.04 8.1,
/// 9.8.1, 10.4, 13.2, Appendix I A.5-A.6). What every such event requires (one screen shared
/// with the arbiter, the face on camera with no virtual background, the microphone on, no
/// headphones, 12-14 and 9.7) is not a setting.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SupervisionRequirements {
    /// 8.1: camera control of the playing area, beyond the face camera of 14.1.
    pub playing_area_camera: bool,
    /// 10.4: a room inspection on camera before each game.
    pub room_inspection: bool,
    /// 13.2: minutes before the start the video-conference must be joined (0: at the start).
    pub vcs_connect_minutes_before: u32,
    /// 9.8.1: one device may be kept nearby as internet backup.
    pub backup_device_allowed: bool,
    /// 8.2: suitable assistants may be in the playing area with the arbiter's permission.
    pub assistants_allowed: bool,
    /// A.5: the video-conference is recorded (kept until a year after the official results).
    pub recording: bool,
    /// A.6: surroundings and task manager shown on request.
    pub surroundings_on_request: bool,
}

impl SupervisionRequirements {
    pub fn is_set(&self) -> bool {
        *self != SupervisionRequirements::default()
    }
}

/// What a supervising arbiter may find breached (E.04 8, 9, 10.4, 12-14). Each is a fair-play
/// violation that may be sanctioned, never by itself proof of cheating (E.04 Chapter III
/// I.4 b).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum SupervisionItem {
    /// 8.2: somebody else in the playing area without the arbiter's permission.
    PersonInPlayingArea,
    /// 8.1, where the regulations ask for it: the playing area not on camera.
    PlayingAreaNotOnCamera,
    /// 12.1-12.2: the screen not shared, or open applications not shown on request.
    ScreenNotShared,
    /// 12.3: an application other than the platform and the video-conference running.
    UnauthorisedApplication,
    /// 13.2: not on the video-conference at the time set.
    VcsNotConnected,
    /// 14.1: the face not fully in view, or a virtual background.
    FaceNotInView,
    /// 14.2: too little light to see the eyes.
    InsufficientLighting,
    /// 14.3: the microphone not transmitting.
    MicrophoneOff,
    /// 9.7: headphones or earbuds.
    Headphones,
    /// 9.8.1: a device other than the one the regulations allow as internet backup.
    UnauthorisedDevice,
    /// 9.5: left the playing area without permission.
    LeftPlayingArea,
    /// 10.4, where the regulations ask for it: the room inspection refused.
    RoomInspectionRefused,
    /// A.6, where the regulations ask for it: surroundings or task manager not shown.
    SurroundingsCheckRefused,
}

impl SupervisionItem {
    pub fn article(self) -> &'static str {
        use SupervisionItem::*;
        match self {
            PersonInPlayingArea => "E.04 Art. 8.2",
            PlayingAreaNotOnCamera => "E.04 Art. 8.1",
            ScreenNotShared => "E.04 Art. 12.1-12.2",
            UnauthorisedApplication => "E.04 Art. 12.3",
            VcsNotConnected => "E.04 Art. 13.2",
            FaceNotInView => "E.04 Art. 14.1",
            InsufficientLighting => "E.04 Art. 14.2",
            MicrophoneOff => "E.04 Art. 14.3",
            Headphones => "E.04 Art. 9.7",
            UnauthorisedDevice => "E.04 Art. 9.8.1",
            LeftPlayingArea => "E.04 Art. 9.5",
            RoomInspectionRefused => "E.04 Art. 10.4",
            SurroundingsCheckRefused => "E.04 Appendix I A.6",
        }
    }

    /// Why this item cannot be breached in an event with these requirements (`None`: it can).
    pub fn not_required(self, r: &SupervisionRequirements) -> Option<&'static str> {
        use SupervisionItem::*;
        match self {
            PlayingAreaNotOnCamera if !r.playing_area_camera => Some(
                "the regulations do not ask for camera control of the playing area \
                 (supervision.playing_area_camera, E.04 8.1)",
            ),
            RoomInspectionRefused if !r.room_inspection => Some(
                "the regulations do not ask for a room inspection \
                 (supervision.room_inspection, E.04 10.4)",
            ),
            SurroundingsCheckRefused if !r.surroundings_on_request => Some(
                "the regulations do not ask players to show their surroundings or task \
                 manager (supervision.surroundings_on_request, Appendix I A.6)",
            ),
            _ => None,
        }
    }
}

impl fmt::Display for SupervisionItem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// Art. 20: traditional boards need at least this increment from move 1.
pub const TRADITIONAL_BOARDS_MIN_INCREMENT_S: u32 = 30;

impl Conduct {
    /// Supervised online and hybrid events always need the consent; unsupervised ones when
    /// their regulations ask for it (E.04 Appendix I J).
    pub fn consent_required(&self) -> bool {
        matches!(
            self.format,
            EventFormat::OnlineSupervised | EventFormat::Hybrid
        ) || (self.format == EventFormat::OnlineUnsupervised && self.require_fair_play_consent)
    }

    /// The items a consent must contain in this format.
    pub fn required_items(&self) -> Vec<ConsentItem> {
        use ConsentItem::*;
        match self.format {
            EventFormat::Otb => Vec::new(),
            EventFormat::OnlineUnsupervised => {
                vec![AnalysisAndSanctions, RealName, ComplaintsProcedure]
            }
            EventFormat::OnlineSupervised => vec![
                AnalysisAndSanctions,
                RealName,
                RemoteSupervision,
                Recording,
                ComplaintsProcedure,
            ],
            EventFormat::Hybrid => {
                vec![
                    AnalysisAndSanctions,
                    RealName,
                    Recording,
                    ComplaintsProcedure,
                ]
            }
        }
    }

    /// The configuration errors refused at creation (E.04 6.1, 8.3, 20; Appendix I J; scenario 11
    /// of docs/src/guide/online-hybrid.md). Field names are those of `TournamentCreated.conduct`.
    pub fn check(&self) -> Result<(), DomainError> {
        let f = self.format;
        if self.traditional_boards && f != EventFormat::Hybrid {
            return Err(DomainError::invalid(
                "conduct.traditional_boards",
                format!(
                    "traditional boards beside the virtual board are for hybrid events (E.04 \
                     Art. 20); this event is {f}"
                ),
            ));
        }
        if let Some(p) = &self.platform {
            p.check(f)?;
        }
        if self.supervision.is_set() && f != EventFormat::OnlineSupervised {
            return Err(DomainError::invalid(
                "conduct.supervision",
                format!(
                    "supervision requirements are for online supervised events (E.04 Art. 8, \
                     12-14); this event is {f}"
                ),
            ));
        }
        // 13.2: the arbiter sets the time; two hours before the start bounds a typo.
        if self.supervision.vcs_connect_minutes_before > 120 {
            return Err(DomainError::invalid(
                "conduct.supervision.vcs_connect_minutes_before",
                format!(
                    "{} minutes: at most 120 (E.04 13.2: the time the arbiter sets before the \
                     start)",
                    self.supervision.vcs_connect_minutes_before
                ),
            ));
        }
        if self.require_fair_play_consent && f == EventFormat::Otb {
            return Err(DomainError::invalid(
                "conduct.require_fair_play_consent",
                "the fair-play consent of E.04 Appendix I J is for online and hybrid events; \
                 this event is over the board",
            ));
        }
        if f.is_online() && self.periods.is_empty() {
            return Err(DomainError::invalid(
                "conduct.periods",
                format!(
                    "a {f} event needs its time control as periods (E.04 Art. 8.3: the \
                     regulations state it; the platform's clock is the official one)"
                ),
            ));
        }
        if self.periods.len() > 8 {
            return Err(DomainError::invalid(
                "conduct.periods",
                "more than 8 periods",
            ));
        }
        for (i, p) in self.periods.iter().enumerate() {
            let last = i + 1 == self.periods.len();
            if p.base_seconds == 0 && p.increment_seconds == 0 && p.delay_seconds == 0 {
                return Err(DomainError::invalid(
                    format!("conduct.periods[{i}]"),
                    "gives no time (base, increment and delay all 0)",
                ));
            }
            if p.moves == 0 && !last {
                return Err(DomainError::invalid(
                    format!("conduct.periods[{i}]"),
                    "moves 0 (the rest of the game) must be the last period",
                ));
            }
            if p.moves > 0 && last {
                return Err(DomainError::invalid(
                    format!("conduct.periods[{i}]"),
                    format!(
                        "the last period covers {} moves; it must cover the rest of the game \
                         (moves 0)",
                        p.moves
                    ),
                ));
            }
            if p.base_seconds > 24 * 3600 || p.increment_seconds > 3600 || p.delay_seconds > 3600 {
                return Err(DomainError::invalid(
                    format!("conduct.periods[{i}]"),
                    "more than 24 h of base time or an hour of increment or delay",
                ));
            }
            if self.traditional_boards && p.increment_seconds < TRADITIONAL_BOARDS_MIN_INCREMENT_S {
                return Err(DomainError::invalid(
                    format!("conduct.periods[{i}].increment_seconds"),
                    format!(
                        "{} s: traditional boards in a hybrid event need an increment of at \
                         least {TRADITIONAL_BOARDS_MIN_INCREMENT_S} s a move from move 1 \
                         (E.04 Art. 20)",
                        p.increment_seconds
                    ),
                ));
            }
        }
        if self.consent_required() && self.regulations_version.trim().is_empty() {
            return Err(DomainError::invalid(
                "conduct.regulations_version",
                format!(
                    "a {f} event asks players to consent to its regulations (E.04 Appendix I \
                     J): name their version"
                ),
            ));
        }
        if self.regulations_version.chars().count() > 200
            || self.regulations_version.chars().any(char::is_control)
        {
            return Err(DomainError::invalid(
                "conduct.regulations_version",
                "not one line of at most 200 characters",
            ));
        }
        Ok(())
    }
}

/// What the Laws make of a submitted game's end (E.04 Art. 4.5, 5), as the ingesting service
/// read it from the moves; see the `arbiter-laws` crate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LawsVerdict {
    /// "1-0", "0-1" or "1/2-1/2".
    pub result: String,
    pub reason: String,
    pub article: String,
}

/// A player's fair-play agreement as folded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConsentRecord {
    pub regulations_version: String,
    pub accepted_by: String,
    pub by_guardian: bool,
    pub items: Vec<ConsentItem>,
    pub platform_account: String,
    /// The first round whose pairing was not yet published when it was recorded: earlier
    /// rounds stay as they were paired (without him).
    pub from_round: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn period(moves: u32, base: u32, inc: u32) -> TimeControlPeriod {
        TimeControlPeriod {
            moves,
            base_seconds: base,
            increment_seconds: inc,
            delay_seconds: 0,
        }
    }

    fn hybrid(inc: u32, boards: bool) -> Conduct {
        Conduct {
            format: EventFormat::Hybrid,
            periods: vec![period(40, 5400, inc), period(0, 1800, inc)],
            traditional_boards: boards,
            require_fair_play_consent: false,
            regulations_version: "2026-1".into(),
            ..Conduct::default()
        }
    }

    #[test]
    fn traditional_boards_need_thirty_seconds_from_move_one() {
        let e = hybrid(10, true).check().unwrap_err().to_string();
        assert!(e.contains("conduct.periods[0].increment_seconds"), "{e}");
        assert!(e.contains("Art. 20"), "{e}");
        hybrid(30, true).check().unwrap();
        // Without traditional boards the increment is the regulations' own business.
        hybrid(10, false).check().unwrap();
        // Thirty seconds in the first period only is not "from move 1" in every period.
        let mut c = hybrid(30, true);
        c.periods[1].increment_seconds = 0;
        let e = c.check().unwrap_err().to_string();
        assert!(e.contains("conduct.periods[1].increment_seconds"), "{e}");
    }

    #[test]
    fn a_platform_is_named_and_its_illegal_moves_have_a_policy() {
        let mut c = hybrid(30, false);
        let mut p = PlatformProfile {
            name: "Board Online".into(),
            url: "https://board.example".into(),
            accepts_illegal_moves: true,
            ..PlatformProfile::default()
        };
        c.platform = Some(p.clone());
        let e = c.check().unwrap_err().to_string();
        assert!(
            e.contains("illegal_move_policy") && e.contains("8.4"),
            "{e}"
        );
        p.illegal_move_policy = "the second illegal move loses (Laws 7.5.5)".into();
        c.platform = Some(p.clone());
        assert_eq!(c.check(), Ok(()));
        p.url = "board.example".into();
        c.platform = Some(p.clone());
        assert!(
            c.check()
                .unwrap_err()
                .to_string()
                .contains("conduct.platform.url")
        );
        p.url.clear();
        p.name = " ".into();
        c.platform = Some(p.clone());
        assert!(c.check().unwrap_err().to_string().contains("2.4"));
        p.name = "Board Online".into();
        c.platform = Some(p);
        c.format = EventFormat::Otb;
        c.periods.clear();
        c.regulations_version.clear();
        assert!(
            c.check()
                .unwrap_err()
                .to_string()
                .contains("over-the-board")
        );
    }

    #[test]
    fn supervision_is_for_supervised_events_and_its_items_for_what_they_ask() {
        let mut c = hybrid(30, false);
        c.supervision.room_inspection = true;
        let e = c.check().unwrap_err().to_string();
        assert!(
            e.contains("conduct.supervision") && e.contains("hybrid"),
            "{e}"
        );
        c.format = EventFormat::OnlineSupervised;
        assert_eq!(c.check(), Ok(()));
        c.supervision.vcs_connect_minutes_before = 121;
        assert!(c.check().unwrap_err().to_string().contains("vcs_connect"));
        let r = SupervisionRequirements {
            room_inspection: true,
            ..SupervisionRequirements::default()
        };
        assert_eq!(
            SupervisionItem::RoomInspectionRefused.not_required(&r),
            None
        );
        assert!(
            SupervisionItem::PlayingAreaNotOnCamera
                .not_required(&r)
                .is_some()
        );
        assert!(
            SupervisionItem::SurroundingsCheckRefused
                .not_required(&r)
                .is_some()
        );
        // The rules every supervised event has need no setting.
        assert_eq!(
            SupervisionItem::Headphones.not_required(&SupervisionRequirements::default()),
            None
        );
    }

    #[test]
    fn format_rules() {
        let mut c = hybrid(30, true);
        c.format = EventFormat::OnlineSupervised;
        assert!(
            c.check()
                .unwrap_err()
                .to_string()
                .contains("traditional_boards")
        );
        let c = Conduct {
            format: EventFormat::OnlineSupervised,
            ..Conduct::default()
        };
        assert!(
            c.check()
                .unwrap_err()
                .to_string()
                .contains("conduct.periods")
        );
        let mut c = hybrid(30, false);
        c.regulations_version.clear();
        assert!(
            c.check()
                .unwrap_err()
                .to_string()
                .contains("regulations_version")
        );
        let c = Conduct {
            require_fair_play_consent: true,
            ..Conduct::default()
        };
        assert!(
            c.check()
                .unwrap_err()
                .to_string()
                .contains("over the board")
        );
        Conduct::default().check().unwrap();
        let mut c = hybrid(30, false);
        c.periods.swap(0, 1);
        assert!(c.check().unwrap_err().to_string().contains("last period"));
    }

    #[test]
    fn who_must_consent_to_what() {
        let mut c = Conduct::default();
        assert!(!c.consent_required());
        c.format = EventFormat::OnlineUnsupervised;
        assert!(!c.consent_required());
        c.require_fair_play_consent = true;
        assert!(c.consent_required());
        c.format = EventFormat::Hybrid;
        c.require_fair_play_consent = false;
        assert!(c.consent_required());
        assert!(!c.required_items().contains(&ConsentItem::RemoteSupervision));
        c.format = EventFormat::OnlineSupervised;
        assert_eq!(c.required_items().len(), 5);
    }
}
