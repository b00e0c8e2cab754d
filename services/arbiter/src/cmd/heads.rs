//! Signed chain heads outside the log: the heads file `arbiter export T --heads OUT.json`
//! writes and `arbiter replay T --against FILE` checks, and reading a stream through a running
//! server (`--server`) with its stored payloads, so the chain can be verified on this side.
//!
//! The heads file is the JSON document of `arbiter_interchange::heads` (the HTTP API serves the
//! same at `/api/tournaments/{id}/heads`); a single head object (with "stream") is accepted
//! as well.

use super::backend::{Exit, status_exit};
use arbiter_eventlog::signing::from_hex;
use arbiter_eventlog::{SignedHead, StoredEvent, envelope_to_stored};
use arbiter_proto::reporting::v1::StreamEventsRequest;
use arbiter_proto::reporting::v1::reporting_client::ReportingClient;
use futures::StreamExt;
use serde_json::Value;
use std::path::Path;

use arbiter_interchange::heads::heads_file;
pub use arbiter_interchange::heads::logged_heads;

/// Writes the heads file; an error when the log records no signed head (nothing to publish).
pub fn write_heads_file(
    path: &Path,
    tournament: &str,
    stream: &str,
    events: &[StoredEvent],
) -> Result<usize, Exit> {
    let file = heads_file(tournament, stream, events);
    let n = file["heads"].as_array().map_or(0, Vec::len);
    if n == 0 {
        return Err(Exit::Invalid(format!(
            "tournament {tournament}: the log records no signed chain head (heads are signed when \
             a round is published or the tournament finished by a server with a signing key)"
        )));
    }
    let text = serde_json::to_string_pretty(&file).expect("JSON values serialise");
    std::fs::write(path, text + "\n")
        .map_err(|e| Exit::Unavailable(format!("cannot write {}: {e}", path.display())))?;
    Ok(n)
}

fn field<'a>(v: &'a Value, name: &str, at: &str) -> Result<&'a Value, String> {
    v.get(name)
        .ok_or_else(|| format!("{at}: missing field {name:?}"))
}

fn str_field<'a>(v: &'a Value, name: &str, at: &str) -> Result<&'a str, String> {
    field(v, name, at)?
        .as_str()
        .ok_or_else(|| format!("{at}: field {name:?} is not a string"))
}

fn head_from_json(v: &Value, stream: Option<&str>, at: &str) -> Result<SignedHead, String> {
    let stream = match v.get("stream").and_then(Value::as_str).or(stream) {
        Some(s) => s.to_string(),
        None => return Err(format!("{at}: missing field \"stream\"")),
    };
    let version = field(v, "version", at)?
        .as_u64()
        .filter(|v| *v > 0)
        .ok_or_else(|| format!("{at}: field \"version\" is not a positive integer"))?;
    let time_unix_ms = field(v, "signed_unix_ms", at)?
        .as_i64()
        .ok_or_else(|| format!("{at}: field \"signed_unix_ms\" is not an integer"))?;
    Ok(SignedHead {
        stream,
        version,
        hash: from_hex(str_field(v, "hash", at)?, &format!("{at}: hash"))?,
        time_unix_ms,
        public_key: from_hex(
            str_field(v, "public_key", at)?,
            &format!("{at}: public_key"),
        )?,
        signature: from_hex(str_field(v, "signature", at)?, &format!("{at}: signature"))?,
    })
}

/// Reads a heads file (or a single head).
pub fn read_heads_file(path: &Path) -> Result<Vec<SignedHead>, Exit> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Exit::Unavailable(format!("cannot read {}: {e}", path.display())))?;
    let name = path.display().to_string();
    let v: Value = serde_json::from_str(&text).map_err(|e| {
        Exit::Invalid(format!(
            "{name}: not JSON: {e} (line {}, column {})",
            e.line(),
            e.column()
        ))
    })?;
    let parsed = match v.get("heads") {
        Some(list) => {
            let stream = v.get("stream").and_then(Value::as_str);
            let list = list
                .as_array()
                .ok_or_else(|| Exit::Invalid(format!("{name}: field \"heads\" is not a list")))?;
            list.iter()
                .enumerate()
                .map(|(i, h)| head_from_json(h, stream, &format!("{name}: heads[{i}]")))
                .collect::<Result<Vec<_>, _>>()
        }
        None => head_from_json(&v, None, &name).map(|h| vec![h]),
    }
    .map_err(Exit::Invalid)?;
    if parsed.is_empty() {
        return Err(Exit::Invalid(format!("{name}: no heads in the file")));
    }
    Ok(parsed)
}

/// Every event of a tournament's stream, read through a running server's reporting service
/// with the stored payloads, so that the hash chain is checked here and not taken on trust.
pub async fn fetch_events(url: &str, tournament: &str) -> Result<Vec<StoredEvent>, Exit> {
    let channel = arbiter_service_kit::net::endpoint(url)
        .map_err(|e| Exit::Invalid(format!("server address {url:?}: {e}")))?
        .connect()
        .await
        .map_err(|e| Exit::Unavailable(format!("cannot reach {url}: {e}")))?;
    // Confidential events come with their payloads only to the roles that may read them
    // (arbiter_service_kit::redact): without such a token they cannot be hashed here.
    let token = std::env::var("ARBITER_TOKEN")
        .ok()
        .filter(|t| !t.trim().is_empty());
    let authed = arbiter_auth::client::WithToken::new(channel, token.as_deref())
        .map_err(|e| Exit::Invalid(format!("ARBITER_TOKEN: {e}")))?;
    let mut client = ReportingClient::new(authed);
    let mut s = client
        .stream_events(StreamEventsRequest {
            tournament: Some(arbiter_proto::common::v1::TournamentRef {
                tournament_id: tournament.to_string(),
                as_of_version: 0,
            }),
            from_version: 1,
            follow: false,
            raw_payload: true,
        })
        .await
        .map_err(|s| match s.code() {
            tonic::Code::NotFound => Exit::Invalid(format!(
                "tournament {tournament} does not exist on {url}: {}",
                s.message()
            )),
            _ => status_exit(&format!("tournament {tournament}"), &s),
        })?
        .into_inner();
    let mut events = Vec::new();
    while let Some(e) = s.next().await {
        let env = e.map_err(|s| status_exit(&format!("tournament {tournament}"), &s))?;
        if env.redacted || (env.payload.is_none() && env.payload_bytes.is_empty()) {
            return Err(Exit::Invalid(format!(
                "{url}: event {} of tournament {tournament} holds confidential data the server \
                 sends whole only to those who may read it (see README, \"What each reader \
                 sees\"): set ARBITER_TOKEN to an arbiter's or admin's token of the tournament \
                 to verify the chain through the server",
                env.version
            )));
        }
        events.push(envelope_to_stored(&env).map_err(|m| {
            Exit::Unavailable(format!(
                "{url}: {m} (a server older than this client cannot be replayed through)"
            ))
        })?);
    }
    Ok(events)
}
