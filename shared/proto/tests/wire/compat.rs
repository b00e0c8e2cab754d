//! The compatibility guard: the wire contract (every field's number, label and type, every enum
//! value, every method's signature) is listed from the descriptor set and compared with the
//! committed snapshot `proto/wire-snapshot.txt`. A change that breaks clients or old logs —
//! a field renumbered, retyped, renamed (its JSON name) or removed without reserving its
//! number, an enum value renumbered or removed, a method removed or changed — fails, naming
//! it. Additions pass the check but must be added to the snapshot on purpose:
//! `ARBITER_UPDATE_WIRE_SNAPSHOT=1 cargo test -p arbiter-proto --test wire -- compat` rewrites it.

use prost::Message;
use prost_types::field_descriptor_proto::{Label, Type};
use prost_types::{DescriptorProto, FileDescriptorSet};
use std::collections::{BTreeMap, BTreeSet};

/// One line per wire fact, sorted; only the project's own packages.
pub fn listing(set: &FileDescriptorSet) -> Vec<String> {
    let mut out = Vec::new();
    for f in &set.file {
        let pkg = f.package();
        if !pkg.starts_with("arbiter.") {
            continue;
        }
        for m in &f.message_type {
            message(&mut out, pkg, m);
        }
        for e in &f.enum_type {
            for v in &e.value {
                out.push(format!(
                    "enum {pkg}.{} {} = {}",
                    e.name(),
                    v.name(),
                    v.number()
                ));
            }
        }
        for s in &f.service {
            for m in &s.method {
                let stream = |on: bool| if on { "stream " } else { "" };
                out.push(format!(
                    "rpc {pkg}.{}/{} ({}{}) returns ({}{})",
                    s.name(),
                    m.name(),
                    stream(m.client_streaming()),
                    m.input_type().trim_start_matches('.'),
                    stream(m.server_streaming()),
                    m.output_type().trim_start_matches('.'),
                ));
            }
        }
    }
    out.sort();
    out
}

fn message(out: &mut Vec<String>, scope: &str, m: &DescriptorProto) {
    let full = format!("{scope}.{}", m.name());
    for f in &m.field {
        let ty = match f.r#type() {
            Type::Message | Type::Enum | Type::Group => {
                f.type_name().trim_start_matches('.').to_string()
            }
            t => format!("{t:?}").to_ascii_lowercase(),
        };
        let label = match (f.label(), f.proto3_optional()) {
            (Label::Repeated, _) => "repeated ",
            (_, true) => "optional ",
            _ => "",
        };
        let oneof = match f.oneof_index {
            Some(i) if !f.proto3_optional() => m
                .oneof_decl
                .get(i as usize)
                .map(|o| format!(" oneof {}", o.name()))
                .unwrap_or_default(),
            _ => String::new(),
        };
        out.push(format!(
            "field {full} {} = {}: {label}{ty}{oneof}",
            f.name(),
            f.number()
        ));
    }
    for r in &m.reserved_range {
        for n in r.start()..r.end() {
            out.push(format!("reserved {full} {n}"));
        }
    }
    for e in &m.enum_type {
        for v in &e.value {
            out.push(format!(
                "enum {full}.{} {} = {}",
                e.name(),
                v.name(),
                v.number()
            ));
        }
    }
    for nested in &m.nested_type {
        // Map entries are the map field's own type: listed through the field.
        if nested.options.as_ref().is_some_and(|o| o.map_entry()) {
            continue;
        }
        message(out, &full, nested);
    }
}

/// What a listing line is about and what it says: fields and enum values are keyed by their
/// owner and number, methods by their name, reserved numbers by owner and number.
fn keyed(lines: &[String]) -> BTreeMap<String, String> {
    lines
        .iter()
        .map(|l| {
            let key = match l.split_once(" = ") {
                // "field M name = 3: type" -> "field M #3"; "enum E NAME = 3" -> "enum E #3".
                Some((head, tail)) => {
                    let mut words: Vec<&str> = head.split(' ').collect();
                    words.pop();
                    let number = tail.split(':').next().unwrap_or(tail);
                    format!("{} #{number}", words.join(" "))
                }
                None => match l.split_once(" (") {
                    Some((rpc, _)) => rpc.to_string(),
                    None => l.clone(),
                },
            };
            (key, l.clone())
        })
        .collect()
}

/// The breaking changes from `before` to `now`, and the lines `now` adds.
pub fn compare(before: &[String], now: &[String]) -> (Vec<String>, Vec<String>) {
    let (b, n) = (keyed(before), keyed(now));
    let reserved_now: BTreeSet<&String> = n.keys().filter(|k| k.starts_with("reserved ")).collect();
    let mut breaking = Vec::new();
    for (key, was) in &b {
        match n.get(key) {
            Some(is) if is == was => {}
            Some(is) => breaking.push(format!("changed: {was}  ->  {is}")),
            None => {
                // A removed field whose number is reserved keeps old data decodable.
                let reserved = key
                    .strip_prefix("field ")
                    .and_then(|k| k.rsplit_once(" #"))
                    .map(|(m, num)| format!("reserved {m} {num}"))
                    .is_some_and(|r| reserved_now.contains(&r));
                if !reserved {
                    breaking.push(format!("removed: {was}"));
                }
            }
        }
    }
    let added = n
        .iter()
        .filter(|(k, _)| !b.contains_key(*k))
        .map(|(_, l)| l.clone())
        .collect();
    (breaking, added)
}

fn snapshot_path() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../proto/wire-snapshot.txt")
}

#[test]
fn the_wire_contract_matches_its_snapshot() {
    let set = FileDescriptorSet::decode(arbiter_proto::FILE_DESCRIPTOR_SET).unwrap();
    let now = listing(&set);
    let path = snapshot_path();
    if std::env::var_os("ARBITER_UPDATE_WIRE_SNAPSHOT").is_some() {
        std::fs::write(&path, now.join("\n") + "\n").unwrap();
    }
    let before: Vec<String> = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(String::from)
        .collect();
    let (breaking, added) = compare(&before, &now);
    assert!(
        breaking.is_empty(),
        "wire-incompatible changes against proto/wire-snapshot.txt:\n{}",
        breaking.join("\n")
    );
    assert!(
        added.is_empty(),
        "proto/wire-snapshot.txt lacks these additions (compatible; record them with \
         ARBITER_UPDATE_WIRE_SNAPSHOT=1 cargo test -p arbiter-proto --test wire -- compat):\n{}",
        added.join("\n")
    );
}

/// The guard catches what breaks and lets what does not through.
#[test]
fn the_guard_names_breaking_changes() {
    let set = FileDescriptorSet::decode(arbiter_proto::FILE_DESCRIPTOR_SET).unwrap();
    let now = listing(&set);
    let field = |name: &str| {
        now.iter()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no {name}"))
            .clone()
    };
    let swap = |from: &str, to: &str| -> Vec<String> {
        now.iter()
            .map(|l| if l == from { to.to_string() } else { l.clone() })
            .collect()
    };
    // Renumbered: the old number is gone (removed) and a new one appears.
    let name = field("field arbiter.events.v1.Date year = ");
    assert_eq!(name, "field arbiter.events.v1.Date year = 1: int32");
    let renumbered = swap(&name, "field arbiter.events.v1.Date year = 9: int32");
    let (breaking, added) = compare(&now, &renumbered);
    assert_eq!(breaking, [format!("removed: {name}")]);
    assert_eq!(added, ["field arbiter.events.v1.Date year = 9: int32"]);
    // Retyped and renamed: changed.
    let retyped = swap(&name, "field arbiter.events.v1.Date year = 1: int64");
    assert_eq!(compare(&now, &retyped).0.len(), 1);
    let renamed = swap(&name, "field arbiter.events.v1.Date yr = 1: int32");
    assert!(compare(&now, &renamed).0[0].starts_with("changed: "));
    // Removed with its number reserved: not breaking.
    let mut reserved: Vec<String> = now.iter().filter(|l| **l != name).cloned().collect();
    reserved.push("reserved arbiter.events.v1.Date 1".into());
    let (breaking, added) = compare(&now, &reserved);
    assert!(breaking.is_empty(), "{breaking:?}");
    assert_eq!(added, ["reserved arbiter.events.v1.Date 1"]);
    // A method removed.
    let rpc = field("rpc arbiter.reporting.v1.Reporting/GetStandings ");
    let without: Vec<String> = now.iter().filter(|l| **l != rpc).cloned().collect();
    assert_eq!(compare(&now, &without).0, [format!("removed: {rpc}")]);
    // Unchanged: nothing.
    assert_eq!(compare(&now, &now), (vec![], vec![]));
}
