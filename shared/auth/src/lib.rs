//! Who may call what.
//!
//! - [`keys::KeySet`]: the Ed25519 keys that sign and verify the deployment's own tokens, kept
//!   as a JWK set (rotation: several keys, a token names its key by `kid`; the last key signs).
//! - [`Claims`]: what a token says: `sub`, `role`, `tournaments`, `entry`, `iss`, `aud`, `exp`,
//!   `iat`.
//! - [`verify::Verifier`]: checks a bearer token (the deployment's keys, or an OIDC issuer's
//!   JWKS) and turns it into a [`Principal`].
//! - [`layer::AuthLayer`]: the tower layer in front of every gRPC service: no token or a bad
//!   one on a call that changes something is `UNAUTHENTICATED`; a good one puts the
//!   [`Principal`] in the request's extensions.
//! - [`Principal::authorize`]: the role a command needs on a tournament; a refusal is
//!   `PERMISSION_DENIED` naming the role needed and the tournament.

pub mod client;
pub mod http;
pub mod keys;
pub mod layer;
pub mod link;
pub mod verify;

use serde::{Deserialize, Serialize};
use tonic::Status;

/// The `iss` of the deployment's own tokens.
pub const ISSUER: &str = "arbiter";
/// The `aud` every token must carry.
pub const AUDIENCE: &str = "arbiter";
/// `tournaments` entry that covers every tournament.
pub const ALL_TOURNAMENTS: &str = "*";

/// What a token's holder is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    /// Creates tournaments, appoints arbiters, may do everything.
    Admin,
    /// Everything that changes the tournaments of the token.
    ChiefArbiter,
    /// Everything that changes the tournaments of the token.
    Arbiter,
    /// His own bye requests and withdrawal (entry `entry`) in the tournaments of the token.
    Player,
    /// Screening results; no call that changes a tournament.
    FairPlayOfficer,
    /// An online platform: posts the games played on it (E.04 3.7, 20.1) and its own connection log
    /// (disconnections from the platform, E.04 11) to the tournaments of the token; nothing else.
    Platform,
    /// A hybrid venue's local chief arbiter (E.04 16.8, 18.5-18.7): records the venue's
    /// irregularities and connection incidents; rulings and sanctions are the chief arbiter's.
    LocalChiefArbiter,
    /// A hybrid venue's local technical arbiter (E.04 18.8-18.9): reports connection
    /// incidents; nothing else.
    LocalTechnicalArbiter,
    /// An online supervised event's supervising arbiter (E.04 13.4 comment): watches the
    /// players' cameras and screens; records supervision breaches, video-conference drops and
    /// irregularities; rulings, results and sanctions are the chief arbiter's.
    SupervisingArbiter,
    /// The appeals committee (GR 10.2; E.04 9.14, 17.11): decides the appeals of the
    /// tournaments of the token, and reads the arbiter's record to do so; nothing else.
    AppealsCommittee,
    /// A pairing officer (GR 6.7.2 names one; GR 6.1 leaves the pairings the chief
    /// arbiter's responsibility): starts rounds, asks for a new pairing, publishes, draws the
    /// lots of a round robin; nothing else.
    PairingOfficer,
    /// No token: reads only.
    Public,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Admin => "admin",
            Role::ChiefArbiter => "chief-arbiter",
            Role::Arbiter => "arbiter",
            Role::Player => "player",
            Role::FairPlayOfficer => "fair-play-officer",
            Role::Platform => "platform",
            Role::LocalChiefArbiter => "local-chief-arbiter",
            Role::LocalTechnicalArbiter => "local-technical-arbiter",
            Role::SupervisingArbiter => "supervising-arbiter",
            Role::AppealsCommittee => "appeals-committee",
            Role::PairingOfficer => "pairing-officer",
            Role::Public => "public",
        }
    }

    /// Parses the claim's spelling.
    pub fn parse(s: &str) -> Option<Role> {
        serde_json::from_value(serde_json::Value::String(s.to_string())).ok()
    }

    /// Every role a token may carry, in declaration order ([`Role::Public`] is the caller
    /// without a token, never a claim). Kept complete by [`Role::token_index`].
    pub const TOKEN_ROLES: [Role; 11] = [
        Role::Admin,
        Role::ChiefArbiter,
        Role::Arbiter,
        Role::Player,
        Role::FairPlayOfficer,
        Role::Platform,
        Role::LocalChiefArbiter,
        Role::LocalTechnicalArbiter,
        Role::SupervisingArbiter,
        Role::AppealsCommittee,
        Role::PairingOfficer,
    ];

    /// The role's place in [`Role::TOKEN_ROLES`]. The match has no wildcard, so a new variant
    /// does not compile until it is placed; `token_roles_are_complete` checks the places.
    const fn token_index(self) -> Option<usize> {
        match self {
            Role::Admin => Some(0),
            Role::ChiefArbiter => Some(1),
            Role::Arbiter => Some(2),
            Role::Player => Some(3),
            Role::FairPlayOfficer => Some(4),
            Role::Platform => Some(5),
            Role::LocalChiefArbiter => Some(6),
            Role::LocalTechnicalArbiter => Some(7),
            Role::SupervisingArbiter => Some(8),
            Role::AppealsCommittee => Some(9),
            Role::PairingOfficer => Some(10),
            Role::Public => None,
        }
    }

    /// A token's role claim: one of [`Role::TOKEN_ROLES`] ("public" is no token's role).
    pub fn parse_token_role(s: &str) -> Option<Role> {
        Role::parse(s).filter(|r| r.token_index().is_some())
    }

    /// The token roles' spellings, comma-separated (for error messages and help).
    pub fn token_role_list() -> String {
        Role::TOKEN_ROLES
            .iter()
            .map(|r| r.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The claims of a token.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims {
    pub sub: String,
    pub role: Role,
    /// Tournament ids (or `"*"`), for arbiters, players and fair-play officers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tournaments: Vec<String>,
    /// A player's entry number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry: Option<u32>,
    pub iss: String,
    pub aud: String,
    pub exp: u64,
    pub iat: u64,
}

/// The authenticated caller of one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Principal {
    /// The token's `sub`: recorded as the actor of the events the call appends.
    pub subject: String,
    pub role: Role,
    pub tournaments: Vec<String>,
    pub entry: Option<u32>,
}

/// What a command may touch once authorized.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grant {
    /// Anything the command names.
    Full,
    /// Only the player with this entry number (a player's own requests).
    OwnEntry(u32),
}

impl Grant {
    /// Refuses a command about another player than the one the grant allows.
    #[allow(clippy::result_large_err)]
    pub fn check_entry(self, tournament: &str, entry: u32) -> Result<(), Status> {
        match self {
            Grant::Full => Ok(()),
            Grant::OwnEntry(own) if own == entry => Ok(()),
            Grant::OwnEntry(own) => Err(arbiter_proto::refusal(
                tonic::Code::PermissionDenied,
                format!(
                    "a player's token (entry {own}) may only act for entry {own} in tournament \
                     {tournament:?}, not for entry {entry}; an arbiter of the tournament may"
                ),
                "NOT_OWN_ENTRY",
                &[
                    ("tournament_id", tournament),
                    ("entry", &entry.to_string()),
                    ("token_entry", &own.to_string()),
                ],
            )),
        }
    }
}

/// Calls a fair-play officer may make on the tournaments of his token: the confidential
/// screening results and the on-demand test (which appends only advisory events). Arbiters
/// and admins may make them too; players and the public may not.
pub const FAIR_PLAY_CALLS: &[&str] = &["GetScreening", "RunFullTest"];

/// Calls a platform may make on the tournaments of its token: posting the games played on it
/// and the disconnections it saw. Their results stay proposals the arbiter confirms or
/// overrides, and a disconnection is a fact the chief arbiter rules on.
pub const PLATFORM_CALLS: &[&str] = &["SubmitGame", "SubmitGames", "ReportConnectionIncident"];

/// Calls of a hybrid venue's arbiters (E.04 18.5-18.9): the technical arbiter reports
/// connection incidents; the local chief arbiter also records irregularities.
pub const LTA_CALLS: &[&str] = &["ReportConnectionIncident"];
pub const LCA_CALLS: &[&str] = &["ReportConnectionIncident", "RecordIrregularity"];

/// Calls of an online supervised event's supervising arbiter (E.04 8, 12-14).
pub const SUPERVISOR_CALLS: &[&str] = &[
    "RecordSupervisionBreach",
    "ReportConnectionIncident",
    "RecordIrregularity",
    "ArbiterRecord",
];

/// Calls of a pairing officer: the pairing runs and their publication.
pub const PAIRING_OFFICER_CALLS: &[&str] = &[
    "StartRound",
    "RequestRepairing",
    "PublishPairing",
    "DrawLots",
];

/// Calls of the appeals committee (GR 10.2): its decisions, and the record they rest on.
pub const APPEALS_COMMITTEE_CALLS: &[&str] = &["DecideAppeal", "ArbiterRecord"];

/// Player commands: the player himself may send them, for his own entry.
const PLAYER_OWN: &[&str] = &[
    "RequestBye",
    "CancelBye",
    "WithdrawPlayer",
    "RecordFairPlayConsent",
    "FileComplaint",
    "FileAppeal",
];

impl Principal {
    /// The caller without a token.
    pub fn public() -> Principal {
        Principal {
            subject: String::new(),
            role: Role::Public,
            tournaments: Vec::new(),
            entry: None,
        }
    }

    /// Whether the token names `tournament` (or every tournament).
    pub fn covers(&self, tournament: &str) -> bool {
        self.tournaments
            .iter()
            .any(|t| t == ALL_TOURNAMENTS || t == tournament)
    }

    fn scope(&self) -> String {
        if self.tournaments.is_empty() {
            "no tournament".to_string()
        } else {
            format!("tournaments {}", self.tournaments.join(", "))
        }
    }

    /// May this caller run `command` (the gRPC method name) on `tournament`? Refusals name the
    /// role needed and the tournament.
    #[allow(clippy::result_large_err)]
    pub fn authorize(&self, command: &str, tournament: &str) -> Result<Grant, Status> {
        self.decide(command, tournament).map_err(|status| {
            let reason = match status.code() {
                tonic::Code::Unauthenticated => "TOKEN_REQUIRED",
                _ => "ROLE_NOT_ALLOWED",
            };
            arbiter_proto::refusal(
                status.code(),
                status.message(),
                reason,
                &[
                    ("method", command),
                    ("tournament_id", tournament),
                    ("role", self.role.as_str()),
                    ("subject", &self.subject),
                ],
            )
        })
    }

    #[allow(clippy::result_large_err)]
    fn decide(&self, command: &str, tournament: &str) -> Result<Grant, Status> {
        let needs_arbiter = || {
            Status::permission_denied(format!(
                "{command} on tournament {tournament:?} needs an admin, or a chief-arbiter or \
                 arbiter token for that tournament; the token of {:?} is {} for {}",
                self.subject,
                self.role,
                self.scope()
            ))
        };
        match self.role {
            Role::Public => Err(Status::unauthenticated(format!(
                "{command} changes tournament {tournament:?}: send a bearer token \
                 (authorization: Bearer TOKEN)"
            ))),
            Role::Admin => Ok(Grant::Full),
            _ if command == "CreateTournament" => Err(Status::permission_denied(format!(
                "CreateTournament needs an admin token; the token of {:?} is {}",
                self.subject, self.role
            ))),
            Role::ChiefArbiter | Role::Arbiter if self.covers(tournament) => Ok(Grant::Full),
            Role::ChiefArbiter | Role::Arbiter => Err(needs_arbiter()),
            Role::FairPlayOfficer
                if FAIR_PLAY_CALLS.contains(&command) && self.covers(tournament) =>
            {
                Ok(Grant::Full)
            }
            Role::FairPlayOfficer if FAIR_PLAY_CALLS.contains(&command) => {
                Err(Status::permission_denied(format!(
                    "{command} on tournament {tournament:?} needs an admin, or a chief-arbiter, \
                     arbiter or fair-play-officer token for that tournament; the token of {:?} \
                     is {} for {}",
                    self.subject,
                    self.role,
                    self.scope()
                )))
            }
            Role::FairPlayOfficer => Err(Status::permission_denied(format!(
                "{command} on tournament {tournament:?}: a fair-play officer may not change a \
                 tournament; it needs an arbiter of the tournament"
            ))),
            Role::Platform if PLATFORM_CALLS.contains(&command) && self.covers(tournament) => {
                Ok(Grant::Full)
            }
            Role::Platform => Err(Status::permission_denied(format!(
                "{command} on tournament {tournament:?}: a platform token may only submit the \
                 games played on the platform and its disconnections (SubmitGame, SubmitGames, \
                 ReportConnectionIncident) to the tournaments of the token; the token of {:?} is for {}",
                self.subject,
                self.scope()
            ))),
            Role::LocalChiefArbiter
            | Role::LocalTechnicalArbiter
            | Role::SupervisingArbiter
            | Role::AppealsCommittee
            | Role::PairingOfficer => {
                let (calls, rule) = match self.role {
                    Role::LocalChiefArbiter => (LCA_CALLS, "E.04 18.5-18.7"),
                    Role::LocalTechnicalArbiter => (LTA_CALLS, "E.04 18.8-18.9"),
                    Role::SupervisingArbiter => (SUPERVISOR_CALLS, "E.04 13.4"),
                    Role::PairingOfficer => (PAIRING_OFFICER_CALLS, "GR 6.1"),
                    _ => (APPEALS_COMMITTEE_CALLS, "GR 10.2"),
                };
                if calls.contains(&command) && self.covers(tournament) {
                    Ok(Grant::Full)
                } else {
                    Err(Status::permission_denied(format!(
                        "{command} on tournament {tournament:?}: a {} token may only call {} \
                         on the tournaments of the token ({rule}); rulings, results and \
                         sanctions are the chief arbiter's; the token of {:?} is for {}",
                        self.role,
                        calls.join(", "),
                        self.subject,
                        self.scope()
                    )))
                }
            }
            Role::Player if !self.covers(tournament) => Err(needs_arbiter()),
            Role::Player => match command {
                "RegisterPlayer" | "EnterLate" => Err(Status::permission_denied(format!(
                    "{command} on tournament {tournament:?}: the tournament does not allow self \
                     registration (there is no such setting yet); an arbiter of the tournament \
                     registers players"
                ))),
                "RecordResult" => Err(Status::permission_denied(format!(
                    "RecordResult on tournament {tournament:?}: the tournament does not let \
                     players record their own results (there is no such setting yet); an \
                     arbiter of the tournament records them"
                ))),
                c if PLAYER_OWN.contains(&c) => match self.entry {
                    Some(e) => Ok(Grant::OwnEntry(e)),
                    None => Err(Status::permission_denied(format!(
                        "{command} on tournament {tournament:?}: the player token of {:?} \
                         names no entry",
                        self.subject
                    ))),
                },
                _ => Err(needs_arbiter()),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(role: Role, t: &[&str], entry: Option<u32>) -> Principal {
        Principal {
            subject: "s".into(),
            role,
            tournaments: t.iter().map(|s| s.to_string()).collect(),
            entry,
        }
    }

    #[test]
    fn roles_per_command() {
        use tonic::Code::{PermissionDenied, Unauthenticated};
        let code = |r: Result<Grant, Status>| r.map_err(|s| s.code());
        assert_eq!(
            code(p(Role::Admin, &[], None).authorize("CreateTournament", "t")),
            Ok(Grant::Full)
        );
        assert_eq!(
            code(p(Role::Arbiter, &["*"], None).authorize("CreateTournament", "t")),
            Err(PermissionDenied)
        );
        assert_eq!(
            code(p(Role::Arbiter, &["t"], None).authorize("RecordResult", "t")),
            Ok(Grant::Full)
        );
        assert_eq!(
            code(p(Role::ChiefArbiter, &["*"], None).authorize("CloseRound", "u")),
            Ok(Grant::Full)
        );
        assert_eq!(
            code(p(Role::Arbiter, &["t"], None).authorize("RecordResult", "u")),
            Err(PermissionDenied)
        );
        assert_eq!(
            code(p(Role::Player, &["t"], Some(3)).authorize("RequestBye", "t")),
            Ok(Grant::OwnEntry(3))
        );
        assert_eq!(
            code(p(Role::Player, &["t"], Some(3)).authorize("RequestBye", "u")),
            Err(PermissionDenied)
        );
        assert_eq!(
            code(p(Role::Player, &["t"], None).authorize("CancelBye", "t")),
            Err(PermissionDenied)
        );
        assert_eq!(
            code(p(Role::Player, &["t"], Some(3)).authorize("RecordResult", "t")),
            Err(PermissionDenied)
        );
        assert_eq!(
            code(p(Role::Player, &["t"], Some(3)).authorize("RegisterPlayer", "t")),
            Err(PermissionDenied)
        );
        assert_eq!(
            code(p(Role::FairPlayOfficer, &["*"], None).authorize("CorrectResult", "t")),
            Err(PermissionDenied)
        );
        // Venue arbiters (E.04 18.5-18.9): the technical one reports incidents only; the
        // local chief one also records irregularities; neither rules nor sanctions.
        let lta = p(Role::LocalTechnicalArbiter, &["t"], None);
        assert_eq!(
            code(lta.authorize("ReportConnectionIncident", "t")),
            Ok(Grant::Full)
        );
        assert_eq!(
            code(lta.authorize("ReportConnectionIncident", "u")),
            Err(PermissionDenied)
        );
        assert_eq!(
            code(lta.authorize("RecordIrregularity", "t")),
            Err(PermissionDenied)
        );
        let lca = p(Role::LocalChiefArbiter, &["t"], None);
        assert_eq!(
            code(lca.authorize("RecordIrregularity", "t")),
            Ok(Grant::Full)
        );
        for call in ["RuleOnDisconnection", "ImposeSanction", "RecordResult"] {
            assert_eq!(
                code(lca.authorize(call, "t")),
                Err(PermissionDenied),
                "{call}"
            );
        }
        let sa = p(Role::SupervisingArbiter, &["t"], None);
        for call in SUPERVISOR_CALLS {
            assert_eq!(code(sa.authorize(call, "t")), Ok(Grant::Full), "{call}");
            assert_eq!(
                code(sa.authorize(call, "u")),
                Err(PermissionDenied),
                "{call}"
            );
        }
        let officer = p(Role::PairingOfficer, &["t"], None);
        for call in PAIRING_OFFICER_CALLS {
            assert_eq!(
                code(officer.authorize(call, "t")),
                Ok(Grant::Full),
                "{call}"
            );
            assert_eq!(
                code(officer.authorize(call, "u")),
                Err(PermissionDenied),
                "{call}"
            );
        }
        for call in [
            "RecordResult",
            "CloseRound",
            "RegisterPlayer",
            "ImposeSanction",
        ] {
            assert_eq!(
                code(officer.authorize(call, "t")),
                Err(PermissionDenied),
                "{call}"
            );
        }
        let committee = p(Role::AppealsCommittee, &["t"], None);
        assert_eq!(
            code(committee.authorize("DecideAppeal", "t")),
            Ok(Grant::Full)
        );
        for call in [
            "ImposeSanction",
            "RecordResult",
            "RuleOnDisconnection",
            "OverridePlatformResult",
            "CorrectResult",
        ] {
            assert_eq!(
                code(sa.authorize(call, "t")),
                Err(PermissionDenied),
                "{call}"
            );
            assert_eq!(
                code(committee.authorize(call, "t")),
                Err(PermissionDenied),
                "{call}"
            );
        }
        assert_eq!(
            code(committee.authorize("RecordSupervisionBreach", "t")),
            Err(PermissionDenied)
        );
        let platform = p(Role::Platform, &["t"], None);
        assert_eq!(code(platform.authorize("SubmitGame", "t")), Ok(Grant::Full));
        assert_eq!(
            code(platform.authorize("ReportConnectionIncident", "t")),
            Ok(Grant::Full)
        );
        for call in [
            "RecordResult",
            "RuleOnDisconnection",
            "OverridePlatformResult",
        ] {
            assert_eq!(
                code(platform.authorize(call, "t")),
                Err(PermissionDenied),
                "{call}"
            );
        }
        assert_eq!(
            code(p(Role::FairPlayOfficer, &["t"], None).authorize("GetScreening", "t")),
            Ok(Grant::Full)
        );
        assert_eq!(
            code(p(Role::FairPlayOfficer, &["t"], None).authorize("RunFullTest", "u")),
            Err(PermissionDenied)
        );
        assert_eq!(
            code(p(Role::FairPlayOfficer, &["t"], None).authorize("SubmitGame", "t")),
            Err(PermissionDenied)
        );
        assert_eq!(
            code(p(Role::Player, &["t"], Some(3)).authorize("GetScreening", "t")),
            Err(PermissionDenied)
        );
        assert_eq!(
            code(p(Role::Arbiter, &["t"], None).authorize("SubmitGame", "t")),
            Ok(Grant::Full)
        );
        assert_eq!(
            code(p(Role::Public, &[], None).authorize("GetScreening", "t")),
            Err(Unauthenticated)
        );
        assert_eq!(
            code(Principal::public().authorize("StartRound", "t")),
            Err(Unauthenticated)
        );
        assert!(Grant::OwnEntry(3).check_entry("t", 3).is_ok());
        let e = Grant::OwnEntry(3).check_entry("t", 4).unwrap_err();
        assert_eq!(e.code(), PermissionDenied);
        assert!(e.message().contains("entry 4"), "{}", e.message());
    }

    #[test]
    fn refusals_name_role_and_tournament() {
        let e = p(Role::Arbiter, &["a"], None)
            .authorize("StartRound", "b")
            .unwrap_err();
        assert!(
            e.message().contains("\"b\"") && e.message().contains("arbiter"),
            "{}",
            e.message()
        );
    }

    #[test]
    fn role_spellings() {
        for r in Role::TOKEN_ROLES {
            assert_eq!(Role::parse(r.as_str()), Some(r));
            assert_eq!(Role::parse_token_role(r.as_str()), Some(r));
        }
        assert_eq!(Role::parse("root"), None);
        assert_eq!(Role::parse_token_role("public"), None);
    }

    #[test]
    fn token_roles_are_complete() {
        for (i, r) in Role::TOKEN_ROLES.iter().enumerate() {
            assert_eq!(r.token_index(), Some(i), "{r}");
        }
        assert_eq!(Role::Public.token_index(), None);
        let list = Role::token_role_list();
        assert_eq!(list.split(", ").count(), 11, "{list}");
        assert!(
            list.ends_with("appeals-committee, pairing-officer"),
            "{list}"
        );
    }
}
