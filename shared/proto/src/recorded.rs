//! The command messages a client fills in and the events they are recorded as.
//!
//! A command's payload (`registration::v1::TournamentSettings`, `PlayerDetails`, …) is its own
//! message, holding only what a client may set; the event it becomes
//! (`events::v1::TournamentCreated`, `Player`, …) also holds what the service fills in. Each
//! payload's fields are the event's fields of the same numbers and types, so a payload's
//! encoding *is* an encoding of the event with the service's fields absent, and [`as_event`]
//! turns one into the other by the wire alone: there is no field-by-field copy to fall out of
//! date. `PAIRS` lists every such pair; the test below proves the subset relation on the
//! descriptor set, so a field added to a payload without its twin in the event fails it.

use prost::Message;

/// The payload read as the event it is recorded as; the service's fields are left at their
/// defaults for the caller to fill in.
pub fn as_event<P: Message, E: Message + Default>(payload: &P) -> E {
    // A payload's fields are a subset of the event's, same numbers and types (tested below), so
    // its encoding always decodes as the event; the default is unreachable.
    E::decode(payload.encode_to_vec().as_slice()).unwrap_or_default()
}

/// The event read as the payload a client sees (the service's fields dropped).
pub fn as_payload<E: Message, P: Message + Default>(event: &E) -> P {
    // Same argument as `as_event`: the event's extra fields are skipped as unknown ones.
    P::decode(event.encode_to_vec().as_slice()).unwrap_or_default()
}

/// (payload, event) by full proto name: each payload field is the event's field of that number.
pub const PAIRS: &[(&str, &str)] = &[
    (
        "arbiter.registration.v1.TournamentSettings",
        "arbiter.events.v1.TournamentCreated",
    ),
    (
        "arbiter.registration.v1.TournamentChanges",
        "arbiter.events.v1.TournamentUpdated",
    ),
    (
        "arbiter.registration.v1.PlayerDetails",
        "arbiter.events.v1.Player",
    ),
    (
        "arbiter.registration.v1.TeamList",
        "arbiter.events.v1.TeamRecorded",
    ),
    (
        "arbiter.registration.v1.FairPlayConsent",
        "arbiter.events.v1.FairPlayConsentRecorded",
    ),
    (
        "arbiter.round_director.v1.SanctionTerms",
        "arbiter.events.v1.SanctionImposed",
    ),
    (
        "arbiter.round_director.v1.ConnectionIncident",
        "arbiter.events.v1.ConnectionIncidentReported",
    ),
    (
        "arbiter.round_director.v1.DisconnectionRuling",
        "arbiter.events.v1.DisconnectionRuled",
    ),
];

#[cfg(test)]
mod tests {
    use super::*;
    use prost_types::{DescriptorProto, FileDescriptorSet};

    fn messages() -> Vec<(String, DescriptorProto)> {
        let fds = FileDescriptorSet::decode(crate::FILE_DESCRIPTOR_SET).unwrap();
        fds.file
            .into_iter()
            .flat_map(|f| {
                let package = f.package().to_string();
                f.message_type
                    .into_iter()
                    .map(move |m| (format!("{package}.{}", m.name()), m))
            })
            .collect()
    }

    #[test]
    fn every_payload_field_is_its_events_field_of_that_number() {
        let all = messages();
        let find = |name: &str| {
            all.iter()
                .find(|(n, _)| n == name)
                .map(|(_, m)| m)
                .unwrap_or_else(|| panic!("{name} is not in the descriptor set"))
        };
        for (payload, event) in PAIRS {
            let (p, e) = (find(payload), find(event));
            assert!(!p.field.is_empty(), "{payload} has no field");
            for f in &p.field {
                let twin = e
                    .field
                    .iter()
                    .find(|g| g.number == f.number)
                    .unwrap_or_else(|| {
                        panic!(
                            "{payload}.{} ({}) has no field of its number in {event}",
                            f.name(),
                            f.number()
                        )
                    });
                assert_eq!(
                    (
                        twin.r#type,
                        twin.label,
                        twin.type_name(),
                        twin.proto3_optional
                    ),
                    (f.r#type, f.label, f.type_name(), f.proto3_optional),
                    "{payload}.{} and {event}.{} (number {}) differ in type",
                    f.name(),
                    twin.name(),
                    f.number()
                );
            }
        }
    }

    #[test]
    fn a_payload_becomes_its_event_and_back() {
        use crate::events::v1 as ev;
        use crate::registration::v1 as reg;
        let details = reg::PlayerDetails {
            name: "Carlsen, Magnus".into(),
            fide_id: Some(1503014),
            rating: 2830,
            federation: "NOR".into(),
            title: ev::Title::Gm as i32,
            ..Default::default()
        };
        let player: ev::Player = as_event(&details);
        assert_eq!(
            (
                player.player_id,
                player.name.as_str(),
                player.fide_id,
                player.rating
            ),
            (0, "Carlsen, Magnus", Some(1503014), 2830)
        );
        let numbered = ev::Player {
            player_id: 7,
            ..player
        };
        assert_eq!(as_payload::<_, reg::PlayerDetails>(&numbered), details);
    }
}
