//! `arbiter api-reference`: the API reference in Markdown, generated from the descriptor set
//! the services are built from (every service, method, message, field and enum value with the
//! comments of `proto/`), the authorization rule (who may call each method) and the refusal
//! reasons. `docs/src/reference/api.md` is its output; a test keeps the two equal.

use arbiter_auth::layer::is_public_read;
use arbiter_auth::{Principal, Role};
use arbiter_proto::code_name;
use arbiter_service_kit::status::{DOMAIN_REFUSALS, OTHER_REASONS, reason_of};
use prost_reflect::{
    DescriptorPool, EnumDescriptor, FieldDescriptor, Kind, MessageDescriptor, MethodDescriptor,
    ServiceDescriptor,
};
use std::fmt::Write;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct ApiReferenceArgs {
    /// Write the reference to this file instead of the standard output.
    #[arg(long, value_name = "FILE")]
    out: Option<std::path::PathBuf>,
}

pub fn run(a: ApiReferenceArgs) -> ExitCode {
    let text = markdown(arbiter_json_api::descriptors());
    match a.out {
        Some(path) => match std::fs::write(&path, text) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!(
                    "arbiter api-reference: cannot write {}: {e}",
                    path.display()
                );
                ExitCode::from(74)
            }
        },
        None => {
            print!("{text}");
            ExitCode::SUCCESS
        }
    }
}

/// The project's own packages (not google.protobuf's).
fn ours(package: &str) -> bool {
    package.starts_with("arbiter.")
}

/// The leading comment (else the trailing one) of the element at `path` of `file`, in one
/// paragraph per blank line.
fn comment(file: &prost_reflect::FileDescriptor, path: &[i32]) -> String {
    let Some(info) = &file.file_descriptor_proto().source_code_info else {
        return String::new();
    };
    let Some(loc) = info.location.iter().find(|l| l.path == path) else {
        return String::new();
    };
    let text = loc
        .leading_comments
        .as_deref()
        .filter(|c| !c.trim().is_empty())
        .or(loc.trailing_comments.as_deref())
        .unwrap_or("");
    text.split("\n\n")
        .map(|p| p.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// A comment fit for one table cell.
fn cell(text: &str) -> String {
    text.replace("\n\n", "<br><br>").replace('|', "\\|")
}

fn anchor(full_name: &str) -> String {
    full_name.replace('.', "-").to_lowercase()
}

fn link(full_name: &str) -> String {
    format!("[`{full_name}`](#{})", anchor(full_name))
}

fn type_of(f: &FieldDescriptor) -> String {
    let base = match f.kind() {
        Kind::Message(m) if ours(m.package_name()) => link(m.full_name()),
        Kind::Enum(e) if ours(e.package_name()) => link(e.full_name()),
        Kind::Message(m) => format!("`{}`", m.full_name()),
        Kind::Enum(e) => format!("`{}`", e.full_name()),
        k => format!("`{k:?}`").to_lowercase(),
    };
    if let Kind::Message(entry) = f.kind()
        && f.is_map()
    {
        let k = entry.map_entry_key_field();
        let v = entry.map_entry_value_field();
        return format!("map<{}, {}>", type_of(&k), type_of(&v));
    }
    if f.is_list() {
        format!("repeated {base}")
    } else {
        base
    }
}

/// Who may call a method, by the authorization rule itself.
fn callers(m: &MethodDescriptor) -> String {
    let path = format!("/{}/{}", m.parent_service().full_name(), m.name());
    if is_public_read(&path) {
        return "anyone (a public read; a token when the server runs with `--private-reads`)"
            .to_string();
    }
    let allowed: Vec<&str> = Role::TOKEN_ROLES
        .iter()
        .filter(|role| {
            let p = Principal {
                subject: "reference".to_string(),
                role: **role,
                tournaments: vec![arbiter_auth::ALL_TOURNAMENTS.to_string()],
                entry: Some(1),
            };
            p.authorize(m.name(), "t").is_ok()
        })
        .map(|r| r.as_str())
        .collect();
    let mut text = allowed
        .iter()
        .map(|r| format!("`{r}`"))
        .collect::<Vec<_>>()
        .join(", ");
    if allowed.contains(&"player") {
        text.push_str(" (a player for his own entry)");
    }
    text
}

/// The refusal reasons a method can answer, by its kind: a command (it answers a
/// `CommandResult`) goes through the edge, the authorization and the tournament's rules; a read
/// through the edge and, unless it is a public read, the authorization.
fn refusals(m: &MethodDescriptor) -> String {
    let path = format!("/{}/{}", m.parent_service().full_name(), m.name());
    let command = m.output().full_name() == "arbiter.common.v1.CommandResult";
    let mut reasons = vec!["`INVALID_FIELD`"];
    if command {
        reasons.extend([
            "`VERSION_CONFLICT`",
            "`COMMAND_ID_REUSED`",
            "`TOKEN_REQUIRED`",
            "`TOKEN_INVALID`",
            "`ROLE_NOT_ALLOWED`",
        ]);
        if callers(m).contains("`player`") {
            reasons.push("`NOT_OWN_ENTRY`");
        }
        reasons.push("the [rules' reasons](#reasons-of-the-tournaments-rules)");
    } else {
        reasons.push("`TOURNAMENT_NOT_FOUND`");
        if is_public_read(&path) {
            reasons.push("`TOKEN_INVALID`; `TOKEN_REQUIRED` under `--private-reads`");
        } else {
            reasons.extend(["`TOKEN_REQUIRED`", "`TOKEN_INVALID`", "`ROLE_NOT_ALLOWED`"]);
        }
    }
    let mut text = reasons.join(", ");
    text.push_str("; the codes' own names for the rest (the method's comment says when)");
    text
}

fn service_section(out: &mut String, s: &ServiceDescriptor) {
    let file = s.parent_file();
    let _ = writeln!(
        out,
        "### <a id=\"{}\"></a>`{}`\n",
        anchor(s.full_name()),
        s.full_name()
    );
    let c = comment(&file, s.path());
    if !c.is_empty() {
        let _ = writeln!(out, "{c}\n");
    }
    for m in s.methods() {
        let _ = writeln!(out, "#### `{}.{}`\n", s.name(), m.name());
        let c = comment(&file, m.path());
        if !c.is_empty() {
            let _ = writeln!(out, "{c}\n");
        }
        let stream = if m.is_server_streaming() {
            "a stream of "
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "- Request {} → {stream}{}",
            link(m.input().full_name()),
            link(m.output().full_name())
        );
        let _ = writeln!(
            out,
            "- gRPC `/{0}/{1}` · JSON `POST /api/v1/{0}/{1}`{2}",
            s.full_name(),
            m.name(),
            if m.is_server_streaming() {
                " (answers `application/x-ndjson`, one message a line)"
            } else {
                ""
            }
        );
        let _ = writeln!(out, "- Who may call: {}", callers(&m));
        let _ = writeln!(out, "- Refusals: {}\n", refusals(&m));
    }
}

fn message_section(out: &mut String, m: &MessageDescriptor) {
    if m.is_map_entry() {
        return;
    }
    let file = m.parent_file();
    let _ = writeln!(
        out,
        "### <a id=\"{}\"></a>`{}`\n",
        anchor(m.full_name()),
        m.full_name()
    );
    let c = comment(&file, m.path());
    if !c.is_empty() {
        let _ = writeln!(out, "{c}\n");
    }
    let fields: Vec<FieldDescriptor> = m.fields().collect();
    if fields.is_empty() {
        let _ = writeln!(out, "No fields.\n");
    } else {
        let _ = writeln!(out, "| Field | # | Type | Description |\n|---|---|---|---|");
        for f in fields {
            let oneof = match f.containing_oneof() {
                Some(o) if !o.is_synthetic() => format!(" (one of `{}`)", o.name()),
                _ => String::new(),
            };
            let json = if f.json_name() != f.name() {
                format!(" · JSON `{}`", f.json_name())
            } else {
                String::new()
            };
            let _ = writeln!(
                out,
                "| `{}`{json}{oneof} | {} | {} | {} |",
                f.name(),
                f.number(),
                type_of(&f),
                cell(&comment(&file, f.path()))
            );
        }
        let _ = writeln!(out);
    }
    for nested in m.child_messages() {
        message_section(out, &nested);
    }
    for e in m.child_enums() {
        enum_section(out, &e);
    }
}

fn enum_section(out: &mut String, e: &EnumDescriptor) {
    let file = e.parent_file();
    let _ = writeln!(
        out,
        "### <a id=\"{}\"></a>`{}`\n",
        anchor(e.full_name()),
        e.full_name()
    );
    let c = comment(&file, e.path());
    if !c.is_empty() {
        let _ = writeln!(out, "{c}\n");
    }
    let _ = writeln!(out, "| Value | # | Description |\n|---|---|---|");
    for v in e.values() {
        let _ = writeln!(
            out,
            "| `{}` | {} | {} |",
            v.name(),
            v.number(),
            cell(&comment(&file, v.path()))
        );
    }
    let _ = writeln!(out);
}

const PREAMBLE: &str = "# API reference

Generated by `arbiter api-reference` from the `.proto` files in `proto/` (their comments are
the descriptions below), from the authorization rule (who may call each method) and from the
services' refusal reasons. Do not edit by hand: change the `.proto` comments and run
`arbiter api-reference --out docs/src/reference/api.md`; a test fails while the two differ.

Every method can be called three ways, with the same bearer token (`authorization: Bearer
TOKEN`), the same authorization and the same command path:

- **gRPC** on the gRPC port (default 7070): `/<package.Service>/<Method>`;
- **gRPC-Web** on the same port (HTTP/1.1 or HTTP/2, `application/grpc-web+proto` or
  `application/grpc-web-text`), for browser clients; answers allow any origin (CORS), since
  the token is a header, never a cookie;
- **JSON over HTTP** on the HTTP port (default 7080): `POST /api/v1/<package.Service>/<Method>`
  with the request message in the proto3 JSON mapping (field names in lowerCamelCase or as
  written; unknown fields are refused; 64-bit integers as strings). The answer is the reply
  message with every field, defaults included; a streaming method answers
  `application/x-ndjson`, one message a line.

See [the examples](api-examples.md) for whole tournaments driven each way.

## Refusals

A refusal is a gRPC status (over JSON: the HTTP status of its code and the body
`{\"code\", \"status\", \"message\", \"details\"}`). Its message names what and where in
English; its details, the google.rpc messages in `grpc-status-details-bin` (over JSON: in
`details`, each with its `@type`), are for programs:

- `google.rpc.ErrorInfo` on every refusal: `domain` is `arbiter`, `reason` is one of the codes
  below, `metadata` carries what the reason names (`tournament_id`, `current_version`,
  `field`, `method`, `role`, …);
- `google.rpc.BadRequest` on INVALID_ARGUMENT naming a field: each `field_violations[].field`
  is the request field's path (`player.title`, `tournament.start_date`); when the
  tournament's rules refuse a value (the refusal's metadata has `tournament_id`), it is the
  path inside the command's payload (`chief_arbiter.name` of `CreateTournament`'s
  `tournament`);
- `google.rpc.PreconditionFailure` on FAILED_PRECONDITION: one violation whose `type` is the
  reason and whose `subject` is `tournament/ID`.

A refusal with none of the reasons below has its code's name as its reason (`NOT_FOUND`,
`UNAVAILABLE`, …).

";

/// The whole reference.
pub fn markdown(pool: &DescriptorPool) -> String {
    let mut out = String::from(PREAMBLE);
    let _ = writeln!(
        out,
        "### Reasons of the service edge\n\n| Reason | Code | Meaning |\n|---|---|---|"
    );
    for (reason, code, meaning) in OTHER_REASONS {
        let _ = writeln!(
            out,
            "| `{reason}` | {} | {} |",
            code_name(*code),
            cell(meaning)
        );
    }
    let _ = writeln!(
        out,
        "\n### Reasons of the tournament's rules\n\nA command the tournament's state or the \
         rules refuse; `metadata.tournament_id` names the tournament.\n\n| Reason | Code |\n|---|---|"
    );
    let mut domain: Vec<(String, &str)> = DOMAIN_REFUSALS
        .iter()
        .map(|(v, c)| (reason_of(v), code_name(*c)))
        .collect();
    domain.sort();
    domain.dedup();
    for (reason, code) in domain {
        let _ = writeln!(out, "| `{reason}` | {code} |");
    }
    let mut files: Vec<_> = pool.files().filter(|f| ours(f.package_name())).collect();
    files.sort_by(|a, b| a.package_name().cmp(b.package_name()));
    let _ = writeln!(out, "\n## Services\n");
    for f in &files {
        for s in f.services() {
            service_section(&mut out, &s);
        }
    }
    let _ = writeln!(out, "## Messages and enums\n");
    for f in &files {
        let _ = writeln!(out, "### Package `{}`\n", f.package_name());
        let c = comment(f, &[12]);
        if !c.is_empty() {
            let _ = writeln!(out, "{c}\n");
        }
        for m in f.messages() {
            message_section(&mut out, &m);
        }
        for e in f.enums() {
            enum_section(&mut out, &e);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every method, message, field and enum value of the descriptor set appears in the
    /// reference (by its anchor or its row).
    #[test]
    fn the_reference_covers_every_rpc_and_field() {
        let pool = arbiter_json_api::descriptors();
        let text = markdown(pool);
        let mut counted = (0, 0);
        for f in pool.files().filter(|f| ours(f.package_name())) {
            for s in f.services() {
                for m in s.methods() {
                    counted.0 += 1;
                    let heading = format!("#### `{}.{}`", s.name(), m.name());
                    assert!(text.contains(&heading), "{heading} missing");
                }
            }
        }
        for m in pool
            .all_messages()
            .filter(|m| ours(m.package_name()) && !m.is_map_entry())
        {
            let a = format!("<a id=\"{}\"></a>", anchor(m.full_name()));
            assert!(text.contains(&a), "{} missing", m.full_name());
            let section = &text[text.find(&a).unwrap_or(0)..];
            for field in m.fields() {
                counted.1 += 1;
                let row = format!("| `{}`", field.name());
                assert!(
                    section.contains(&row),
                    "{}.{} missing",
                    m.full_name(),
                    field.name()
                );
            }
        }
        assert!(counted.0 > 50 && counted.1 > 500, "{counted:?}");
    }

    /// The committed reference is this generator's output (`ARBITER_UPDATE_API_REFERENCE=1`
    /// rewrites it).
    #[test]
    fn the_committed_reference_is_up_to_date() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../docs/src/reference/api.md");
        let text = markdown(arbiter_json_api::descriptors());
        if std::env::var_os("ARBITER_UPDATE_API_REFERENCE").is_some() {
            std::fs::write(&path, &text).expect("docs/src/reference/api.md is writable");
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == text,
            "docs/src/reference/api.md differs from `arbiter api-reference`: run \
             `arbiter api-reference --out docs/src/reference/api.md` (or this test with \
             ARBITER_UPDATE_API_REFERENCE=1) and commit it"
        );
    }

    #[test]
    fn public_reads_and_roles_come_from_the_rule() {
        let pool = arbiter_json_api::descriptors();
        let method = |s: &str, m: &str| {
            pool.get_service_by_name(s)
                .and_then(|s| s.methods().find(|x| x.name() == m))
                .expect("method of the descriptor set")
        };
        assert!(
            callers(&method(
                "arbiter.registration.v1.Registration",
                "ListTournaments"
            ))
            .starts_with("anyone")
        );
        assert_eq!(
            callers(&method(
                "arbiter.registration.v1.Registration",
                "CreateTournament"
            )),
            "`admin`"
        );
        let bye = callers(&method(
            "arbiter.registration.v1.Registration",
            "RequestBye",
        ));
        assert!(
            bye.contains("`arbiter`") && bye.contains("`player`"),
            "{bye}"
        );
    }
}
