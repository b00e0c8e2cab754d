//! `arbiter console-link`: a one-time sign-in link to the web console, signed with the
//! deployment's token keys (valid 15 minutes unless told otherwise, for one sign-in).

use super::backend::Exit;
use super::token::{KeysAt, check_tournaments, role_arg};
use arbiter_auth::keys::KeySet;
use arbiter_auth::link::{LINK_LIFETIME, issue_link, link_url};
use arbiter_auth::{Principal, Role};
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

/// The file in the data folder where `arbiter serve` records the console's base address.
pub const CONSOLE_URL_FILE: &str = "console.url";
/// The longest a link may be valid.
const MAX_LINK_LIFETIME: Duration = Duration::from_secs(24 * 3600);

#[derive(clap::Args, Debug)]
pub struct ConsoleLinkArgs {
    #[command(flatten)]
    keys: KeysAt,
    /// The role the session has.
    #[arg(long, value_parser = role_arg(), default_value = "admin")]
    role: Role,
    /// A tournament the session covers (repeat; "*" = every tournament). Needed for every role
    /// but admin.
    #[arg(long = "tournament")]
    tournaments: Vec<String>,
    /// Who signs in: the actor of every event the session records (default: the role's name).
    #[arg(long)]
    subject: Option<String>,
    /// The server's HTTP address (default: the one the server on --data recorded in
    /// DATA/console.url, else http://127.0.0.1:7080).
    #[arg(long)]
    url: Option<String>,
    /// Minutes the link stays valid (one sign-in within them).
    #[arg(long, value_name = "MINUTES", default_value_t = LINK_LIFETIME.as_secs() / 60)]
    valid: u64,
}

pub fn run(a: ConsoleLinkArgs) -> ExitCode {
    match link(a) {
        Ok(url) => {
            println!("{url}");
            ExitCode::SUCCESS
        }
        Err(e) => e.report(),
    }
}

/// The base address the server on `data` recorded, if any.
pub fn recorded_base(data: &Path) -> Option<String> {
    let text = std::fs::read_to_string(data.join(CONSOLE_URL_FILE)).ok()?;
    Some(text.trim().to_string()).filter(|s| !s.is_empty())
}

/// A link for `principal` at `base`, valid for `valid`.
pub fn signed_link(
    keys: &KeySet,
    principal: &Principal,
    base: &str,
    valid: Duration,
) -> Result<String, Exit> {
    let token = issue_link(keys, principal, valid).map_err(Exit::Invalid)?;
    Ok(link_url(base, &token))
}

fn link(a: ConsoleLinkArgs) -> Result<String, Exit> {
    let valid = Duration::from_secs(a.valid * 60);
    if valid.is_zero() || valid > MAX_LINK_LIFETIME {
        return Err(Exit::Invalid(format!(
            "--valid: {} minutes; give 1 to {}",
            a.valid,
            MAX_LINK_LIFETIME.as_secs() / 60
        )));
    }
    let tournaments = check_tournaments(a.role, &a.tournaments)?;
    if a.role == Role::Player {
        return Err(Exit::Invalid(
            "--role: the console's screens are for arbiters; a player has none".into(),
        ));
    }
    let subject = a.subject.unwrap_or_else(|| a.role.to_string());
    let subject = subject.trim().to_string();
    arbiter_service_kit::edge::check_actor("--subject", &subject)
        .map_err(|s| Exit::Invalid(s.message().to_string()))?;
    if subject.is_empty() {
        return Err(Exit::Invalid("--subject: empty; name who signs in".into()));
    }
    let path = a.keys.path();
    let keys = KeySet::load(&path).map_err(|e| {
        Exit::Invalid(format!(
            "{e} (the token keys; `arbiter serve --data {}` creates them on first start)",
            a.keys.data.display()
        ))
    })?;
    let base = a
        .url
        .or_else(|| recorded_base(&a.keys.data))
        .unwrap_or_else(|| "http://127.0.0.1:7080".into());
    let principal = Principal {
        subject,
        role: a.role,
        tournaments,
        entry: None,
    };
    signed_link(&keys, &principal, &base, valid)
}
