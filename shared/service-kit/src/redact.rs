//! THE redaction rule: what of an event a reader may see, by the event's kind and the reader's
//! role. Every place events leave the server goes through it (the reporting service's
//! `StreamEvents` and server-sent events, the round director's `ArbiterRecord`), so that
//! one table decides, and one test ([`tests::every_kind_for_every_reader`]) walks every kind of
//! the schema.
//!
//! Confidential events are withheld whole, their kind's name included: the reader gets an
//! entry that keeps only the chain's facts (stream, version, previous hash, hash), so he sees
//! that something is there and the chain's links, and nothing of what it is. Some public
//! events carry an official's free-text note: the note alone is left out.
//!
//! Who reads what ([`may_read`]), by the FIDE rules:
//!
//! | What ([`Secret`])             | Readers besides admins and the tournament's (chief) arbiters |
//! |-------------------------------|----------------------------------------------------------|
//! | screening results             | fair-play officer (E.04 Appendix I G.2; Fair Play Regulations III.B.12) |
//! | records of confidential reads | fair-play officer (who read the results he guards)        |
//! | fair-play complaints          | fair-play officer; the complainant (his own, G.2)         |
//! | sanctions (with evidence)     | fair-play officer; appeals committee (GR 10); the player sanctioned |
//! | supervision breaches          | fair-play officer; appeals committee; supervising arbiter (E.04 13.4); the player concerned |
//! | appeals and their decisions   | appeals committee (GR 10.2); the appellant                |
//! | officials' notes              | fair-play officer; appeals committee; supervising, local chief and local technical arbiters (E.04 13.4, 18.5-18.9) |
//! | a kind this build does not know | nobody else (it may be confidential)                    |
//!
//! Everything else (registrations, pairings, results, their corrections, ratings, norms, the
//! games submitted, signed heads) is public. A pairing officer, a platform and a token for
//! another tournament read what the public reads. A player's "own" is decided on the
//! tournament as it stood when the event was written (events name players by the pairing
//! number of that moment): a [`Redactor`] folds the stream for a player's token.

use crate::store::Folded;
use arbiter_auth::{Principal, Role};
use arbiter_eventlog::{LogError, StoredEvent};
use arbiter_proto::events::v1::event::Kind;
use arbiter_proto::events::v1::{Envelope, Event};
use std::collections::BTreeMap;

/// The name a withheld event shows instead of its kind's (server-sent events, lists).
pub const CONFIDENTIAL: &str = "Confidential";

/// What an event kind holds that not every reader may see.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Secret {
    /// Nothing: public.
    None,
    /// An official's free-text note on an otherwise public fact.
    Note,
    /// Screening results (docs/src/rules/fair-play.md, Confidentiality: no flag content reaches players or the public site).
    Screening,
    /// The record of a read of confidential data.
    AccessRecord,
    /// A fair-play complaint.
    Complaint,
    /// A sanction with its evidence (its effects are public events of their own).
    Sanction,
    /// What the cameras of an online supervised event showed.
    SupervisionBreach,
    /// An appeal or the committee's decision on it.
    Appeal,
    /// A kind this build cannot name (a newer server's, or none).
    Unknown,
}

impl Secret {
    pub fn as_str(self) -> &'static str {
        match self {
            Secret::None => "public",
            Secret::Note => "official's note",
            Secret::Screening => "screening result",
            Secret::AccessRecord => "confidential read record",
            Secret::Complaint => "fair-play complaint",
            Secret::Sanction => "sanction",
            Secret::SupervisionBreach => "supervision breach",
            Secret::Appeal => "appeal",
            Secret::Unknown => "unknown kind",
        }
    }
}

/// The secret of an event's kind. The match is exhaustive: a new kind does not compile
/// until it is decided here.
pub fn secret_of(event: &Event) -> Secret {
    let Some(kind) = &event.kind else {
        return Secret::Unknown;
    };
    match kind {
        Kind::TournamentCreated(_)
        | Kind::TournamentUpdated(_)
        | Kind::PlayerRegistered(_)
        | Kind::LateEntry(_)
        | Kind::PlayerCorrected(_)
        | Kind::PlayerWithdrawn(_)
        | Kind::RegistrationCancelled(_)
        | Kind::ByeRequested(_)
        | Kind::ByeCancelled(_)
        | Kind::AbsenceDeclared(_)
        | Kind::RoundStarted(_)
        | Kind::PairingRequested(_)
        | Kind::PairingProposed(_)
        | Kind::PairingFailed(_)
        | Kind::PairingPublished(_)
        | Kind::ResultRecorded(_)
        | Kind::ResultCorrected(_)
        | Kind::RoundClosed(_)
        | Kind::TournamentFinished(_)
        | Kind::RatingChangesComputed(_)
        | Kind::NormResult(_)
        | Kind::VirtualPointsSet(_)
        | Kind::PairingsForbidden(_)
        | Kind::TeamRecorded(_)
        | Kind::LotsDrawn(_)
        | Kind::LineupSubmitted(_)
        // A consent is a condition of being paired (its absence shows on the pages).
        | Kind::FairPlayConsentRecorded(_)
        // The platform's result against the Laws' and the arbiter's override: a result and
        // the article it rests on, public like every result.
        | Kind::ResultDiscrepancyDetected(_)
        | Kind::ResultOverridden(_)
        // A finished game's moves are what bulletins and broadcasts publish; the judgement
        // drawn from them (the screening) is what is confidential.
        | Kind::GameSubmitted(_)
        // What an auditor checks the log against.
        | Kind::ChainHeadSigned(_) => Secret::None,
        // The arbiter's decision at the board is seen by both players and decides the game;
        // what the arbiter wrote about it may name people and circumstances.
        Kind::IrregularityRecorded(_)
        | Kind::ConnectionIncidentReported(_)
        | Kind::DisconnectionRuled(_) => Secret::Note,
        Kind::PlayerScreeningComputed(_) | Kind::ScreeningFlagRaised(_) => Secret::Screening,
        Kind::ConfidentialDataAccessed(_) => Secret::AccessRecord,
        Kind::ComplaintFiled(_) => Secret::Complaint,
        Kind::SanctionImposed(_) => Secret::Sanction,
        Kind::SupervisionBreachRecorded(_) => Secret::SupervisionBreach,
        Kind::AppealFiled(_) | Kind::AppealDecided(_) => Secret::Appeal,
    }
}

/// Whom an event concerns, for a player reading his own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Concerns {
    Nobody,
    /// The player with this pairing number when the event was written.
    Player(u32),
    /// The appellant of appeal `n`.
    Appeal(u32),
}

/// Whom a confidential event concerns: the complainant (not the accused: G.2 keeps a
/// complaint from him until the investigation), the appellant, the player sanctioned or
/// observed.
pub fn concerns(event: &Event) -> Concerns {
    match &event.kind {
        Some(Kind::ComplaintFiled(c)) => Concerns::Player(c.complainant),
        Some(Kind::AppealFiled(a)) => Concerns::Player(a.appellant),
        Some(Kind::AppealDecided(d)) => Concerns::Appeal(d.appeal),
        Some(Kind::SanctionImposed(s)) => Concerns::Player(s.player_id),
        Some(Kind::SupervisionBreachRecorded(b)) => Concerns::Player(b.player_id),
        _ => Concerns::Nobody,
    }
}

/// May `reader` see `secret` on `tournament`? `own`: the event concerns the reader himself
/// (a player's token whose entry it names).
pub fn may_read(reader: &Principal, tournament: &str, secret: Secret, own: bool) -> bool {
    use Secret as S;
    if secret == S::None || reader.role == Role::Admin {
        return true;
    }
    if !reader.covers(tournament.trim()) {
        return false;
    }
    match reader.role {
        Role::Admin | Role::ChiefArbiter | Role::Arbiter => true,
        Role::FairPlayOfficer => matches!(
            secret,
            S::Screening
                | S::AccessRecord
                | S::Complaint
                | S::Sanction
                | S::SupervisionBreach
                | S::Note
        ),
        Role::AppealsCommittee => {
            matches!(
                secret,
                S::Appeal | S::Sanction | S::SupervisionBreach | S::Note
            )
        }
        Role::SupervisingArbiter => matches!(secret, S::SupervisionBreach | S::Note),
        Role::LocalChiefArbiter | Role::LocalTechnicalArbiter => secret == S::Note,
        Role::Player => {
            own && reader.entry.is_some()
                && matches!(
                    secret,
                    S::Complaint | S::Appeal | S::Sanction | S::SupervisionBreach
                )
        }
        Role::PairingOfficer | Role::Platform | Role::Public => false,
    }
}

/// What a reader gets of one event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum View {
    Whole,
    /// The event without its officials' note.
    WithoutNote,
    /// Only its place in the chain.
    Withheld,
}

/// The view of `event` for `reader` (`own`: see [`may_read`]).
pub fn view(reader: &Principal, tournament: &str, event: &Event, own: bool) -> View {
    let secret = secret_of(event);
    if may_read(reader, tournament, secret, own) {
        View::Whole
    } else if secret == Secret::Note {
        View::WithoutNote
    } else {
        View::Withheld
    }
}

/// The kind's name as `view` shows it: [`CONFIDENTIAL`] for a withheld event.
pub fn shown_kind(view: View, event: &Event) -> &'static str {
    match view {
        View::Withheld => CONFIDENTIAL,
        _ => arbiter_eventlog::kind_name(event),
    }
}

/// The kind's name of `event` as a reader without a token sees it (for texts every reader
/// gets, e.g. what a signed head covers).
pub fn public_kind(event: &Event) -> &'static str {
    shown_kind(view(&Principal::public(), "", event, false), event)
}

/// `env` as `view` shows it. A redacted envelope never carries the stored bytes (they hold
/// what was left out) and says so (`redacted`).
pub fn redact_envelope(view: View, mut env: Envelope) -> Envelope {
    match view {
        View::Whole => env,
        View::WithoutNote => {
            if let Some(Event {
                kind: Some(kind), ..
            }) = env.payload.as_mut()
            {
                match kind {
                    Kind::IrregularityRecorded(e) => e.note.clear(),
                    Kind::ConnectionIncidentReported(e) => e.note.clear(),
                    Kind::DisconnectionRuled(e) => e.note.clear(),
                    _ => {}
                }
            }
            env.payload_bytes = Vec::new();
            env.redacted = true;
            env
        }
        // The actor, command id, event id and time would say who did what when (a player's
        // token files his appeal under his name).
        View::Withheld => Envelope {
            stream: env.stream,
            version: env.version,
            previous_hash: env.previous_hash,
            hash: env.hash,
            redacted: true,
            ..Envelope::default()
        },
    }
}

/// The rule applied along one tournament's stream for one reader. Events must be given in
/// log order; for a player's token ([`Redactor::needs_history`]) from version 1, since his
/// "own" is judged on the pairing numbers of each event's moment.
pub struct Redactor {
    reader: Principal,
    tournament: String,
    owner: Option<Owner>,
}

/// A player's token following the stream: the tournament folded so far, and which appeals
/// are his.
struct Owner {
    entry: u32,
    folded: Folded,
    appeals: BTreeMap<u32, bool>,
    /// The fold failed (a gap or a damaged event): nothing more counts as his.
    lost: bool,
}

impl Redactor {
    pub fn new(reader: Principal, tournament: &str) -> Redactor {
        let tournament = tournament.trim().to_string();
        let owner = match (reader.role, reader.entry) {
            (Role::Player, Some(entry)) if reader.covers(&tournament) => Some(Owner {
                entry,
                folded: Folded::default(),
                appeals: BTreeMap::new(),
                lost: false,
            }),
            _ => None,
        };
        Redactor {
            reader,
            tournament,
            owner,
        }
    }

    /// Whether the redactor must see the stream from version 1 (a player's token).
    pub fn needs_history(&self) -> bool {
        self.owner.is_some()
    }

    /// Passes `e` (the next event, decoded as `event`) through the rule.
    fn judge(&mut self, e: &StoredEvent, event: &Event) -> View {
        let own = match self.owner.as_mut() {
            Some(o) => o.own_then_fold(e, event),
            None => false,
        };
        view(&self.reader, &self.tournament, event, own)
    }

    /// Takes `e` into account without showing it (the events before a reader's start).
    pub fn skip(&mut self, e: &StoredEvent) {
        if let Some(o) = self.owner.as_mut() {
            match e.decode_event() {
                Ok(event) => {
                    o.own_then_fold(e, &event);
                }
                Err(_) => o.lost = true,
            }
        }
    }

    /// The envelope of `e` as the reader may see it (`raw`: with the stored bytes, when
    /// shown whole).
    pub fn envelope(&mut self, e: &StoredEvent, raw: bool) -> Result<Envelope, LogError> {
        let env = if raw {
            e.to_envelope_with_payload()?
        } else {
            e.to_envelope()?
        };
        let v = match env.payload.as_ref() {
            Some(event) => self.judge(e, event),
            None => View::Withheld,
        };
        Ok(redact_envelope(v, env))
    }

    /// The kind's name of `e` as the reader may see it.
    pub fn kind(&mut self, e: &StoredEvent) -> Result<&'static str, LogError> {
        let event = e.decode_event()?;
        let v = self.judge(e, &event);
        Ok(shown_kind(v, &event))
    }
}

impl Owner {
    /// Whether `event` (stored as `e`) concerns this player, judged before it is folded;
    /// then folds it.
    fn own_then_fold(&mut self, e: &StoredEvent, event: &Event) -> bool {
        if self.lost {
            return false;
        }
        let entry_of = |pn: u32| self.folded.state.player(pn).map(|p| p.entry.number());
        let own = match concerns(event) {
            Concerns::Nobody => false,
            Concerns::Player(pn) => entry_of(pn) == Some(self.entry),
            Concerns::Appeal(n) => self.appeals.get(&n).copied().unwrap_or(false),
        };
        if let Some(Kind::AppealFiled(a)) = &event.kind {
            self.appeals.insert(a.appeal, own);
        }
        if self.folded.apply_stored(e).is_err() {
            self.lost = true;
        }
        own
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prost::Message;

    fn principal(role: Role, tournaments: &[&str], entry: Option<u32>) -> Principal {
        Principal {
            subject: format!("{role}"),
            role,
            tournaments: tournaments.iter().map(|s| s.to_string()).collect(),
            entry,
        }
    }

    /// Every variant of `Event.kind`, read from the schema's descriptor (not from a list
    /// kept by hand): each built from its field number with an empty message.
    fn every_kind() -> Vec<(String, Event)> {
        let set = prost_types::FileDescriptorSet::decode(arbiter_proto::FILE_DESCRIPTOR_SET)
            .expect("descriptor set");
        let file = set
            .file
            .iter()
            .find(|f| f.package() == "arbiter.events.v1")
            .expect("arbiter.events.v1");
        let msg = file
            .message_type
            .iter()
            .find(|m| m.name() == "Event")
            .expect("message Event");
        let kind = msg
            .oneof_decl
            .iter()
            .position(|o| o.name() == "kind")
            .expect("oneof kind") as i32;
        let mut out = Vec::new();
        for f in msg.field.iter().filter(|f| f.oneof_index == Some(kind)) {
            let mut buf = Vec::new();
            prost::encoding::encode_key(
                f.number() as u32,
                prost::encoding::WireType::LengthDelimited,
                &mut buf,
            );
            buf.push(0);
            let event = Event::decode(buf.as_slice()).expect("an empty variant decodes");
            let type_name = f.type_name().rsplit('.').next().unwrap_or_default();
            assert_eq!(
                arbiter_eventlog::kind_name(&event),
                type_name,
                "field {} ({}) decodes as another kind",
                f.number(),
                f.name()
            );
            out.push((type_name.to_string(), event));
        }
        assert!(out.len() >= 40, "{} kinds", out.len());
        out
    }

    /// What each reader sees of each secret: (anonymous, own player, other player, arbiter).
    fn expected(secret: Secret) -> [View; 4] {
        use View::*;
        match secret {
            Secret::None => [Whole; 4],
            Secret::Note => [WithoutNote, WithoutNote, WithoutNote, Whole],
            Secret::Screening | Secret::AccessRecord | Secret::Unknown => {
                [Withheld, Withheld, Withheld, Whole]
            }
            Secret::Complaint | Secret::Sanction | Secret::SupervisionBreach | Secret::Appeal => {
                [Withheld, Whole, Withheld, Whole]
            }
        }
    }

    /// The decision for every kind the schema has, written out: a new kind fails here until
    /// it is decided (and in `secret_of`, which does not compile without it).
    const DECIDED: &[(&str, Secret)] = &[
        ("TournamentCreated", Secret::None),
        ("TournamentUpdated", Secret::None),
        ("PlayerRegistered", Secret::None),
        ("LateEntry", Secret::None),
        ("PlayerCorrected", Secret::None),
        ("PlayerWithdrawn", Secret::None),
        ("RegistrationCancelled", Secret::None),
        ("ByeRequested", Secret::None),
        ("ByeCancelled", Secret::None),
        ("AbsenceDeclared", Secret::None),
        ("RoundStarted", Secret::None),
        ("PairingRequested", Secret::None),
        ("PairingProposed", Secret::None),
        ("PairingFailed", Secret::None),
        ("PairingPublished", Secret::None),
        ("ResultRecorded", Secret::None),
        ("ResultCorrected", Secret::None),
        ("RoundClosed", Secret::None),
        ("TournamentFinished", Secret::None),
        ("RatingChangesComputed", Secret::None),
        ("NormResult", Secret::None),
        ("GameSubmitted", Secret::None),
        ("PlayerScreeningComputed", Secret::Screening),
        ("ScreeningFlagRaised", Secret::Screening),
        ("ConfidentialDataAccessed", Secret::AccessRecord),
        ("VirtualPointsSet", Secret::None),
        ("PairingsForbidden", Secret::None),
        ("TeamRecorded", Secret::None),
        ("LotsDrawn", Secret::None),
        ("LineupSubmitted", Secret::None),
        ("FairPlayConsentRecorded", Secret::None),
        ("ResultDiscrepancyDetected", Secret::None),
        ("ResultOverridden", Secret::None),
        ("SanctionImposed", Secret::Sanction),
        ("IrregularityRecorded", Secret::Note),
        ("ConnectionIncidentReported", Secret::Note),
        ("DisconnectionRuled", Secret::Note),
        ("ComplaintFiled", Secret::Complaint),
        ("AppealFiled", Secret::Appeal),
        ("AppealDecided", Secret::Appeal),
        ("SupervisionBreachRecorded", Secret::SupervisionBreach),
        ("ChainHeadSigned", Secret::None),
    ];

    /// Pairing number 3 in tournament "t", with a note, grounds and evidence filled in
    /// where the kind has them, so that a leak would show.
    fn about_player_3(mut event: Event) -> Event {
        let text = "SECRET".to_string();
        match event.kind.as_mut() {
            Some(Kind::ComplaintFiled(c)) => {
                c.complainant = 3;
                c.accused = 4;
                c.grounds = text;
            }
            Some(Kind::AppealFiled(a)) => {
                a.appeal = 1;
                a.appellant = 3;
                a.grounds = text;
                a.decision_kind = "SanctionImposed".into();
            }
            Some(Kind::AppealDecided(d)) => {
                d.appeal = 1;
                d.note = text;
            }
            Some(Kind::SanctionImposed(s)) => {
                s.player_id = 3;
                s.note = text;
            }
            Some(Kind::SupervisionBreachRecorded(b)) => {
                b.player_id = 3;
                b.note = text;
            }
            Some(Kind::IrregularityRecorded(i)) => i.note = text,
            Some(Kind::ConnectionIncidentReported(i)) => i.note = text,
            Some(Kind::DisconnectionRuled(d)) => d.note = text,
            Some(Kind::PlayerScreeningComputed(p)) => p.player_id = 3,
            Some(Kind::ScreeningFlagRaised(f)) => f.player_id = 3,
            Some(Kind::ConfidentialDataAccessed(a)) => a.why = text,
            _ => {}
        }
        event
    }

    /// A stream "t" of four registered players, an appeal 1 by pairing number 3 (so that an
    /// AppealDecided of appeal 1 is his), then `event`.
    fn stream_with(event: &Event) -> Vec<StoredEvent> {
        use arbiter_proto::events::v1 as pb;
        let mut events = vec![Event {
            kind: Some(Kind::TournamentCreated(pb::TournamentCreated {
                name: "T".into(),
                rounds: 3,
                start_date: Some(pb::Date {
                    year: 2026,
                    month: 5,
                    day: 1,
                }),
                end_date: Some(pb::Date {
                    year: 2026,
                    month: 5,
                    day: 3,
                }),
                pairing_system: pb::PairingSystem::Dutch as i32,
                ..Default::default()
            })),
            origin: None,
        }];
        for i in 1..=4u32 {
            events.push(Event {
                kind: Some(Kind::PlayerRegistered(pb::PlayerRegistered {
                    player: Some(pb::Player {
                        name: format!("Player, {i}"),
                        rating: 2500 - 10 * i,
                        ..Default::default()
                    }),
                })),
                origin: None,
            });
        }
        events.push(about_player_3(Event {
            kind: Some(Kind::AppealFiled(Default::default())),
            origin: None,
        }));
        events.push(event.clone());
        let mut prev = [0u8; 32];
        events
            .iter()
            .enumerate()
            .map(|(i, ev)| {
                let mut s = StoredEvent {
                    stream: "tournament-t".into(),
                    version: i as u64 + 1,
                    event_id: uuid::Uuid::nil(),
                    command_id: format!("c{i}"),
                    actor: "someone".into(),
                    time_unix_ms: 1,
                    payload: ev.encode_to_vec(),
                    prev_hash: prev,
                    hash: [0; 32],
                    position: 0,
                };
                s.hash = arbiter_eventlog::record::compute_hash(&s);
                prev = s.hash;
                s
            })
            .collect()
    }

    /// What `reader` gets of the last event of `stream`, through a [`Redactor`] that saw the
    /// stream from the start.
    fn through(reader: &Principal, stream: &[StoredEvent]) -> Envelope {
        let mut r = Redactor::new(reader.clone(), "t");
        let (last, before) = stream.split_last().unwrap();
        for e in before {
            r.skip(e);
        }
        r.envelope(last, true).unwrap()
    }

    #[test]
    fn every_kind_for_every_reader() {
        let kinds = every_kind();
        for (name, _) in &kinds {
            assert!(
                DECIDED.iter().any(|(n, _)| n == name),
                "{name}: a kind of the schema without a decision here"
            );
        }
        assert_eq!(
            kinds.len(),
            DECIDED.len(),
            "kinds decided but not in the schema"
        );
        // The entry pairing number 3 stands for (by the registration's ranking), and another.
        let (own, other) = {
            let stream = stream_with(&Event::default());
            let f = Folded::from_stored(&stream[..6]).unwrap();
            let own = f.state.player(3).expect("pairing number 3").entry.number();
            (own, if own == 1 { 2 } else { 1 })
        };
        let readers = [
            principal(Role::Public, &[], None),
            principal(Role::Player, &["t"], Some(own)),
            principal(Role::Player, &["t"], Some(other)),
            principal(Role::Arbiter, &["t"], None),
        ];
        for (name, bare) in kinds {
            let secret = secret_of(&bare);
            let decided = DECIDED.iter().find(|(n, _)| *n == name).unwrap().1;
            assert_eq!(secret, decided, "{name}");
            let event = about_player_3(bare);
            let stream = stream_with(&event);
            let stored = stream.last().unwrap();
            let whole = stored.to_envelope_with_payload().unwrap();
            let public = if expected(secret)[0] == View::Withheld {
                CONFIDENTIAL
            } else {
                name.as_str()
            };
            assert_eq!(public_kind(&event), public, "{name}");
            for (reader, want) in readers.iter().zip(expected(secret)) {
                let who = format!("{name} read by {} {:?}", reader.role, reader.entry);
                let got = through(reader, &stream);
                match want {
                    View::Whole => assert_eq!(got, whole, "{who}"),
                    View::WithoutNote => {
                        assert!(got.redacted && got.payload_bytes.is_empty(), "{who}");
                        assert_eq!(
                            got.payload.as_ref().map(arbiter_eventlog::kind_name),
                            Some(name.as_str()),
                            "{who}"
                        );
                        assert!(!format!("{got:?}").contains("SECRET"), "{who}: {got:?}");
                        assert_eq!(got.actor, whole.actor, "{who}");
                    }
                    View::Withheld => {
                        assert_eq!(
                            got,
                            Envelope {
                                stream: whole.stream.clone(),
                                version: whole.version,
                                previous_hash: whole.previous_hash.clone(),
                                hash: whole.hash.clone(),
                                redacted: true,
                                ..Envelope::default()
                            },
                            "{who}"
                        );
                    }
                }
                let mut r = Redactor::new(reader.clone(), "t");
                let (last, before) = stream.split_last().unwrap();
                before.iter().for_each(|e| r.skip(e));
                let shown = r.kind(last).unwrap();
                if want == View::Withheld {
                    assert_eq!(shown, CONFIDENTIAL, "{who}");
                } else {
                    assert_eq!(shown, name, "{who}");
                }
            }
        }
    }

    #[test]
    fn roles_by_secret() {
        use Secret as S;
        let secrets = [
            S::None,
            S::Note,
            S::Screening,
            S::AccessRecord,
            S::Complaint,
            S::Sanction,
            S::SupervisionBreach,
            S::Appeal,
            S::Unknown,
        ];
        let reads = |role: Role, own: bool| -> Vec<S> {
            let p = principal(role, &["t"], (role == Role::Player).then_some(3));
            secrets
                .iter()
                .copied()
                .filter(|s| may_read(&p, "t", *s, own))
                .collect()
        };
        assert_eq!(reads(Role::Admin, false), secrets);
        assert_eq!(reads(Role::ChiefArbiter, false), secrets);
        assert_eq!(reads(Role::Arbiter, false), secrets);
        assert_eq!(
            reads(Role::FairPlayOfficer, false),
            [
                S::None,
                S::Note,
                S::Screening,
                S::AccessRecord,
                S::Complaint,
                S::Sanction,
                S::SupervisionBreach
            ]
        );
        assert_eq!(
            reads(Role::AppealsCommittee, false),
            [
                S::None,
                S::Note,
                S::Sanction,
                S::SupervisionBreach,
                S::Appeal
            ]
        );
        assert_eq!(
            reads(Role::SupervisingArbiter, false),
            [S::None, S::Note, S::SupervisionBreach]
        );
        assert_eq!(reads(Role::LocalChiefArbiter, false), [S::None, S::Note]);
        assert_eq!(
            reads(Role::LocalTechnicalArbiter, false),
            [S::None, S::Note]
        );
        for role in [Role::PairingOfficer, Role::Platform, Role::Public] {
            assert_eq!(reads(role, true), [S::None], "{role}");
        }
        assert_eq!(reads(Role::Player, false), [S::None]);
        assert_eq!(
            reads(Role::Player, true),
            [
                S::None,
                S::Complaint,
                S::Sanction,
                S::SupervisionBreach,
                S::Appeal
            ]
        );
        // A token for another tournament reads what the public reads; an admin's covers all.
        for role in [Role::Arbiter, Role::FairPlayOfficer, Role::AppealsCommittee] {
            let p = principal(role, &["u"], None);
            assert!(!may_read(&p, "t", S::Note, false), "{role}");
            assert!(may_read(&p, "u", S::Note, false), "{role}");
        }
        assert!(may_read(
            &principal(Role::Arbiter, &["*"], None),
            "t",
            S::Appeal,
            false
        ));
    }

    /// A player's own is judged on the pairing numbers of the event's moment: after a
    /// correction moves him, an event naming his old number is still his, the new holder's
    /// not.
    #[test]
    fn own_follows_the_numbering_of_the_moment() {
        use arbiter_proto::events::v1 as pb;
        let sanction = about_player_3(Event {
            kind: Some(Kind::SanctionImposed(pb::SanctionImposed {
                kind: pb::SanctionKind::Warning as i32,
                ..Default::default()
            })),
            origin: None,
        });
        let mut stream = stream_with(&sanction);
        // Pairing number 4 corrected to the top: the numbers between move by one, then the
        // same sanction naming pairing number 3 is about another entry.
        let correction = Event {
            kind: Some(Kind::PlayerCorrected(pb::PlayerCorrected {
                player: Some(pb::Player {
                    player_id: 4,
                    name: "Player, 4".into(),
                    rating: 2700,
                    ..Default::default()
                }),
                fields: vec!["rating".into()],
                reason: "typo".into(),
                new_player_id: Some(1),
            })),
            origin: None,
        };
        let mut tail = stream_with(&correction).split_off(6);
        let mut second = tail.remove(0);
        second.version = 8;
        second.prev_hash = stream.last().unwrap().hash;
        second.hash = arbiter_eventlog::record::compute_hash(&second);
        let mut third = stream.last().unwrap().clone();
        third.version = 9;
        third.prev_hash = second.hash;
        third.hash = arbiter_eventlog::record::compute_hash(&third);
        stream.push(second);
        stream.push(third);
        // Who held pairing number 3 at versions 7 and 9 (by the fold of what came before).
        let holder = |upto: usize| {
            let f = Folded::from_stored(&stream[..upto]).unwrap();
            f.state.player(3).expect("pairing number 3").entry.number()
        };
        let (first, then) = (holder(6), holder(8));
        assert_ne!(
            first, then,
            "the correction moves pairing number 3 to another player"
        );
        let seen = |entry: u32| -> Vec<bool> {
            let mut r = Redactor::new(principal(Role::Player, &["t"], Some(entry)), "t");
            stream
                .iter()
                .map(|e| r.envelope(e, false).unwrap().payload.is_some())
                .collect()
        };
        let a = seen(first);
        let b = seen(then);
        assert_eq!((a[6], a[8]), (true, false), "entry {first}: {a:?}");
        assert_eq!((b[6], b[8]), (false, true), "entry {then}: {b:?}");
    }
}
