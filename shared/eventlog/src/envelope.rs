//! Between stored events and the event schema of `arbiter-proto`.
//!
//! The log itself treats payloads as opaque bytes; services store `arbiter.events.v1.Event`
//! messages and read them back with these helpers.

use crate::{LogError, StoredEvent};
use arbiter_proto::events::v1::{Envelope, Event};
use prost::Message;

/// Encodes events for [`crate::EventLog::append`].
pub fn encode_events(events: &[Event]) -> Vec<Vec<u8>> {
    events.iter().map(Message::encode_to_vec).collect()
}

impl StoredEvent {
    /// Decodes the payload as an `arbiter.events.v1.Event`. A payload that does not decode is
    /// [`LogError::Corrupt`] naming the stream and version.
    pub fn decode_event(&self) -> Result<Event, LogError> {
        Event::decode(self.payload.as_slice()).map_err(|e| LogError::Corrupt {
            stream: self.stream.clone(),
            version: self.version,
            detail: format!("payload is not an arbiter.events.v1.Event: {e}"),
        })
    }

    /// The event with its log metadata, as the gRPC APIs send it.
    pub fn to_envelope(&self) -> Result<Envelope, LogError> {
        Ok(Envelope {
            stream: self.stream.clone(),
            version: self.version,
            event_id: self.event_id.to_string(),
            command_id: self.command_id.clone(),
            actor: self.actor.clone(),
            time_unix_ms: self.time_unix_ms,
            payload: Some(self.decode_event()?),
            previous_hash: self.prev_hash.to_vec(),
            hash: self.hash.to_vec(),
            payload_bytes: Vec::new(),
            redacted: false,
        })
    }

    /// [`Self::to_envelope`] with the stored payload bytes as well, so the receiver can
    /// recompute the hash (see [`envelope_to_stored`]).
    pub fn to_envelope_with_payload(&self) -> Result<Envelope, LogError> {
        let mut env = self.to_envelope()?;
        env.payload_bytes = self.payload.clone();
        Ok(env)
    }
}

/// A stored event back from an envelope that carries its payload bytes (as
/// [`StoredEvent::to_envelope_with_payload`] sends it), for checking the chain on the client.
/// `position` is unknown on that side and left 0.
pub fn envelope_to_stored(env: &Envelope) -> Result<StoredEvent, String> {
    let at = |what: &str| format!("{what} of event {} of {}", env.version, env.stream);
    let hash32 = |b: &[u8], what: &str| -> Result<crate::Hash, String> {
        b.try_into()
            .map_err(|_| format!("{}: {} bytes, not 32", at(what), b.len()))
    };
    if env.payload_bytes.is_empty() {
        return Err(format!(
            "{}: missing (the server did not send the stored payload)",
            at("payload bytes")
        ));
    }
    Ok(StoredEvent {
        stream: env.stream.clone(),
        version: env.version,
        event_id: uuid::Uuid::parse_str(&env.event_id)
            .map_err(|e| format!("{}: {e}", at("event id")))?,
        command_id: env.command_id.clone(),
        actor: env.actor.clone(),
        time_unix_ms: env.time_unix_ms,
        payload: env.payload_bytes.clone(),
        prev_hash: hash32(&env.previous_hash, "previous hash")?,
        hash: hash32(&env.hash, "hash")?,
        position: 0,
    })
}

/// The short name of an event's kind (e.g. `"ResultRecorded"`), for logs and metrics;
/// `"Unknown"` for a kind this build does not know.
pub fn kind_name(event: &Event) -> &'static str {
    use arbiter_proto::events::v1::event::Kind;
    match &event.kind {
        None => "Unknown",
        Some(k) => match k {
            Kind::TournamentCreated(_) => "TournamentCreated",
            Kind::TournamentUpdated(_) => "TournamentUpdated",
            Kind::PlayerRegistered(_) => "PlayerRegistered",
            Kind::LateEntry(_) => "LateEntry",
            Kind::PlayerCorrected(_) => "PlayerCorrected",
            Kind::PlayerWithdrawn(_) => "PlayerWithdrawn",
            Kind::RegistrationCancelled(_) => "RegistrationCancelled",
            Kind::ByeRequested(_) => "ByeRequested",
            Kind::ByeCancelled(_) => "ByeCancelled",
            Kind::AbsenceDeclared(_) => "AbsenceDeclared",
            Kind::FairPlayConsentRecorded(_) => "FairPlayConsentRecorded",
            Kind::ResultDiscrepancyDetected(_) => "ResultDiscrepancyDetected",
            Kind::ResultOverridden(_) => "ResultOverridden",
            Kind::SanctionImposed(_) => "SanctionImposed",
            Kind::IrregularityRecorded(_) => "IrregularityRecorded",
            Kind::SupervisionBreachRecorded(_) => "SupervisionBreachRecorded",
            Kind::ConnectionIncidentReported(_) => "ConnectionIncidentReported",
            Kind::DisconnectionRuled(_) => "DisconnectionRuled",
            Kind::ComplaintFiled(_) => "ComplaintFiled",
            Kind::AppealFiled(_) => "AppealFiled",
            Kind::AppealDecided(_) => "AppealDecided",
            Kind::RoundStarted(_) => "RoundStarted",
            Kind::PairingRequested(_) => "PairingRequested",
            Kind::PairingProposed(_) => "PairingProposed",
            Kind::PairingFailed(_) => "PairingFailed",
            Kind::PairingPublished(_) => "PairingPublished",
            Kind::ResultRecorded(_) => "ResultRecorded",
            Kind::ResultCorrected(_) => "ResultCorrected",
            Kind::RoundClosed(_) => "RoundClosed",
            Kind::TournamentFinished(_) => "TournamentFinished",
            Kind::RatingChangesComputed(_) => "RatingChangesComputed",
            Kind::NormResult(_) => "NormResult",
            Kind::GameSubmitted(_) => "GameSubmitted",
            Kind::PlayerScreeningComputed(_) => "PlayerScreeningComputed",
            Kind::ScreeningFlagRaised(_) => "ScreeningFlagRaised",
            Kind::ConfidentialDataAccessed(_) => "ConfidentialDataAccessed",
            Kind::ChainHeadSigned(_) => "ChainHeadSigned",
            Kind::VirtualPointsSet(_) => "VirtualPointsSet",
            Kind::PairingsForbidden(_) => "PairingsForbidden",
            Kind::TeamRecorded(_) => "TeamRecorded",
            Kind::LineupSubmitted(_) => "LineupSubmitted",
            Kind::LotsDrawn(_) => "LotsDrawn",
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EventLog, ExpectedVersion, SledLog};
    use arbiter_proto::events::v1::{RoundStarted, event::Kind};

    #[tokio::test]
    async fn proto_events_round_trip_through_the_log() {
        let log = SledLog::temporary().unwrap();
        let ev = Event {
            origin: None,
            kind: Some(Kind::RoundStarted(RoundStarted {
                round: 4,
                scheduled_unix_ms: 0,
            })),
        };
        log.append(
            "t",
            ExpectedVersion::Exact(0),
            "c1",
            "director",
            encode_events(std::slice::from_ref(&ev)),
        )
        .await
        .unwrap();
        let stored = log.read("t", 1).await.unwrap().remove(0);
        assert_eq!(stored.decode_event().unwrap(), ev);
        assert_eq!(kind_name(&ev), "RoundStarted");
        let env = stored.to_envelope().unwrap();
        assert_eq!(
            (env.stream.as_str(), env.version, env.actor.as_str()),
            ("t", 1, "director")
        );
        assert_eq!(env.previous_hash, vec![0; 32]);
        assert_eq!(env.hash, stored.hash.to_vec());
        assert_eq!(env.event_id, stored.event_id.to_string());
        assert_eq!(env.payload, Some(ev));
    }

    #[tokio::test]
    async fn an_envelope_with_its_payload_bytes_gives_back_the_stored_event() {
        let log = SledLog::temporary().unwrap();
        let ev = Event {
            origin: None,
            kind: Some(Kind::RoundStarted(RoundStarted {
                round: 1,
                scheduled_unix_ms: 5,
            })),
        };
        for c in ["c1", "c2"] {
            log.append(
                "t",
                ExpectedVersion::Any,
                c,
                "d",
                encode_events(std::slice::from_ref(&ev)),
            )
            .await
            .unwrap();
        }
        let stored = log.read("t", 1).await.unwrap();
        let back: Vec<StoredEvent> = stored
            .iter()
            .map(|e| envelope_to_stored(&e.to_envelope_with_payload().unwrap()).unwrap())
            .collect();
        assert_eq!(crate::verify_chain(&back), None);
        for (b, s) in back.iter().zip(&stored) {
            assert_eq!(
                *b,
                StoredEvent {
                    position: 0,
                    ..s.clone()
                }
            );
        }
        // Without the payload bytes the chain cannot be checked: a clear error.
        let err = envelope_to_stored(&stored[0].to_envelope().unwrap()).unwrap_err();
        assert!(err.contains("payload bytes of event 1 of t"), "{err}");
    }

    #[tokio::test]
    async fn garbage_payload_names_stream_and_version() {
        let log = SledLog::temporary().unwrap();
        log.append(
            "t",
            ExpectedVersion::Any,
            "c1",
            "x",
            vec![vec![0xff, 0xff, 0xff]],
        )
        .await
        .unwrap();
        let stored = log.read("t", 1).await.unwrap().remove(0);
        match stored.decode_event() {
            Err(LogError::Corrupt {
                stream, version, ..
            }) => assert_eq!((stream.as_str(), version), ("t", 1)),
            other => panic!("{other:?}"),
        }
    }
}
