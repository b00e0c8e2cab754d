//! How commands name players: by stable entry number or by pairing number checked against the
//! numbering the client read (proto: arbiter.registration.v1, "PLAYER NUMBERS").
//!
//! A player's entry number is his place in the order of registration (1-based,
//! [`EntryId::number`]); it never changes. His pairing number follows the initial ranking, so
//! a registration before round 1 or a late entry that is inserted above him moves him down one
//! (C.04.2.C.3), and so does a corrected rating before round 1 starts. A command naming a
//! pairing number is refused, with nothing appended, when a registration or correction after
//! the version the client read gave that number to another player.

use crate::store::Folded;
use arbiter_core::PlayerId;
use arbiter_core::tournament::EntryId;
use arbiter_eventlog::Version;
use tonic::Status;

/// How a request names a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PlayerRef {
    /// Stable entry number; 0 = not given.
    pub entry: u32,
    /// Pairing number; 0 = not given.
    pub player_id: PlayerId,
    /// The numbering `player_id` was read from (`numbering_version`, else the header's
    /// expected version).
    pub read_at: Option<Version>,
}

impl PlayerRef {
    pub fn new(
        entry: u32,
        player_id: PlayerId,
        numbering_version: Option<Version>,
        expected_version: Option<Version>,
    ) -> PlayerRef {
        PlayerRef {
            entry,
            player_id,
            read_at: numbering_version.or(expected_version),
        }
    }
}

/// The version of the last registration or correction that changed a pairing number (0: none).
pub fn numbering_version(f: &Folded) -> Version {
    let versions = f.numbering_versions();
    f.state
        .numbering_changes()
        .iter()
        .zip(versions)
        .rev()
        .find(|(c, _)| c.moves())
        .map_or(0, |(_, v)| *v)
}

/// The player list as JSON: each player's stable entry number (order of registration) beside
/// his current pairing number, and the numbering version to send back with pairing numbers.
pub fn players_json(id: &str, f: &Folded) -> serde_json::Value {
    let players: Vec<serde_json::Value> = f
        .state
        .players()
        .map(|p| {
            serde_json::json!({
                "entry": p.entry.number(),
                "no": p.pairing_number(),
                "name": p.player.name,
                "fide_id": p.player.fide_id,
                "rating": p.player.rating,
                "federation": p.player.federation,
                "first_round": p.first_round,
                "withdrawn_from": p.withdrawn.as_ref().map(|w| w.from_round),
            })
        })
        .collect();
    serde_json::json!({
        "tournament_id": id,
        "version": f.version,
        "numbering_version": numbering_version(f),
        "players": players,
    })
}

/// The entry registered by the event at `version`, if that event is a registration.
pub fn entry_registered_at(f: &Folded, version: Version) -> Option<EntryId> {
    f.registration_versions()
        .iter()
        .position(|v| *v == version)
        .map(|i| EntryId(i as u32))
}

/// [`resolve`] with the tournament named first in a refusal, as every status names it.
#[allow(clippy::result_large_err)]
pub fn resolve_in(
    tournament_id: &str,
    f: &Folded,
    what: &str,
    r: PlayerRef,
) -> Result<PlayerId, Status> {
    resolve(f, what, r).map_err(|s| {
        Status::new(
            s.code(),
            format!("tournament {tournament_id}: {}", s.message()),
        )
    })
}

/// [`resolve_in`] for a command whose caller may be limited to his own entry (a player's
/// token, [`arbiter_auth::Grant::OwnEntry`]): another player is `PERMISSION_DENIED`.
#[allow(clippy::result_large_err)]
pub fn resolve_granted(
    tournament_id: &str,
    f: &Folded,
    what: &str,
    r: PlayerRef,
    grant: arbiter_auth::Grant,
) -> Result<PlayerId, Status> {
    let pn = resolve_in(tournament_id, f, what, r)?;
    if let arbiter_auth::Grant::OwnEntry(_) = grant {
        let entry = f
            .state
            .player(pn)
            .map(|p| p.entry.number())
            .ok_or_else(|| Status::not_found(format!("{what}: no player {pn}")))?;
        grant.check_entry(tournament_id, entry)?;
    }
    Ok(pn)
}

/// The player's current pairing number, or why the reference cannot be trusted. `what` names
/// the field in messages (e.g. "player", "boards[3].white").
#[allow(clippy::result_large_err)]
pub fn resolve(f: &Folded, what: &str, r: PlayerRef) -> Result<PlayerId, Status> {
    let by_entry = match r.entry {
        0 => None,
        n => Some(
            f.state
                .player_by_entry_number(n)
                .map(|p| p.pairing_number())
                .ok_or_else(|| match f.state.cancelled_registration(n) {
                    Some(p) => Status::not_found(format!(
                        "{what}: the registration of entry {n} ({}) was cancelled ({})",
                        p.player.name,
                        p.cancelled.as_deref().unwrap_or_default()
                    )),
                    None => Status::not_found(format!(
                        "{what}: no player has entry number {n} (entries are 1..={})",
                        f.registration_versions().len()
                    )),
                })?,
        ),
    };
    match (by_entry, r.player_id) {
        (None, 0) => Err(Status::invalid_argument(format!(
            "{what}: give the player's entry (stable number) or player_id (pairing number)"
        ))),
        (Some(pn), 0) => Ok(pn),
        (Some(pn), given) if pn != given => Err(Status::failed_precondition(format!(
            "{what}: entry {} has pairing number {pn}, not {given}; give one of the two",
            r.entry
        ))),
        (Some(pn), _) => Ok(pn),
        (None, pn) => check_number(f, what, pn, r.read_at).map(|()| pn),
    }
}

/// Refuses pairing number `pn` when a registration or correction after `read_at` gave it to
/// another player
/// (see the module documentation and the proto for the default without a version).
#[allow(clippy::result_large_err)]
fn check_number(
    f: &Folded,
    what: &str,
    pn: PlayerId,
    read_at: Option<Version>,
) -> Result<(), Status> {
    let versions = f.numbering_versions();
    let since = match read_at {
        Some(v) if v > f.version => {
            return Err(Status::invalid_argument(format!(
                "{what}: numbering_version {v} is ahead of the tournament (version {})",
                f.version
            )));
        }
        Some(v) => v,
        // No version: the list is provisional until round 1 is published; from then on a
        // number is checked against the numbering of that publication.
        None => match f.publication_version(1) {
            None => return Ok(()),
            Some(v) => v,
        },
    };
    let seen = versions.iter().take_while(|x| **x <= since).count();
    let Some((change, mover)) = f.state.number_moved_since(pn, seen) else {
        return Ok(());
    };
    let moved_at = versions.get(change).copied().unwrap_or(0);
    let record = f
        .state
        .player_by_entry(mover)
        .or_else(|| f.state.cancelled_registration(mover.number()));
    let by = match record {
        _ if f.lots_drawn_at() == Some(moved_at) => "the drawing of lots".to_string(),
        Some(p) if f.registration_versions().get(mover.0 as usize) == Some(&moved_at) => {
            format!(
                "the registration of {} (entry {})",
                p.player.name,
                mover.number()
            )
        }
        Some(p) if p.cancelled.is_some() => format!(
            "the cancelled registration of {} (entry {})",
            p.player.name,
            mover.number()
        ),
        Some(p) => format!(
            "the correction of {} (entry {})",
            p.player.name,
            mover.number()
        ),
        None => format!("entry {}", mover.number()),
    };
    let now = f
        .state
        .player(pn)
        .map(|p| format!("{} (entry {})", p.player.name, p.entry.number()))
        .unwrap_or_else(|| "nobody".into());
    let basis = match read_at {
        Some(v) => format!("the numbering of version {v}"),
        None => "no numbering_version, so the numbering of round 1's publication".into(),
    };
    Err(Status::failed_precondition(format!(
        "{what}: pairing number {pn} was given to another player by {by} at version \
         {moved_at}, after {basis}; number {pn} is now {now}. Re-read the players (ListPlayers) \
         and send its numbering_version, or name the player by entry"
    )))
}
