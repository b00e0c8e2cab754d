//! Tokens: `arbiter token issue|new-key|jwks`, the server's authentication settings
//! (`arbiter serve --token-keys/--oidc-*/--private-reads`) and the token the clients send
//! (`--token`, `ARBITER_TOKEN`, else `DATA/admin.token`).
//!
//! The embedded default works with no step: the first `arbiter serve` on a data folder creates
//! its key set (`DATA/token-keys.json`) and an admin token (`DATA/admin.token`), both mode 0600,
//! and `arbiter client`/`demo` pointed at the same `--data` (both default to `./data`) send it.

use super::backend::Exit;
use arbiter_auth::keys::{KEYS_FILE, KeySet, write_private};
use arbiter_auth::layer::AuthLayer;
use arbiter_auth::verify::{Oidc, Verifier};
use arbiter_auth::{ALL_TOURNAMENTS, AUDIENCE, Claims, ISSUER, Role};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The admin token of the embedded default, in the data folder.
pub const ADMIN_TOKEN_FILE: &str = "admin.token";
/// How long the embedded default's admin token is valid.
const ADMIN_TOKEN_LIFETIME: Duration = Duration::from_secs(10 * 365 * 24 * 3600);

/// The server's authentication settings (`arbiter serve`).
#[derive(clap::Args, Debug, Clone)]
pub struct AuthArgs {
    /// The token keys: a JWK set of Ed25519 keys (every process of a deployment gets the same
    /// file; a copy without private parts only verifies). Default: DATA/token-keys.json,
    /// created on first start together with an admin token in DATA/admin.token.
    #[arg(long, env = "ARBITER_TOKEN_KEYS")]
    pub token_keys: Option<PathBuf>,
    /// Also accept the tokens of an OIDC issuer, verified with its JWKS: a file, or an http://
    /// URL read once at start (for https, fetch it to a file). Their claims are read under
    /// the same names: sub, role, tournaments, entry.
    #[arg(long, requires_all = ["oidc_issuer", "oidc_audience"])]
    pub oidc_jwks: Option<String>,
    /// The OIDC issuer's `iss`.
    #[arg(long, requires = "oidc_jwks")]
    pub oidc_issuer: Option<String>,
    /// The `aud` the OIDC issuer's tokens must carry.
    #[arg(long, requires = "oidc_jwks")]
    pub oidc_audience: Option<String>,
    /// Reads need a token too (by default they are public, as the web pages are).
    #[arg(long)]
    pub private_reads: bool,
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

/// What `arbiter serve` authenticates with.
pub struct ServerAuth {
    /// The gRPC authentication layer.
    pub layer: AuthLayer,
    /// The key set (with its private keys, when the file has them: the console signs its
    /// sessions' tokens with them).
    pub keys: KeySet,
    /// The data folder's key set was created by this start.
    pub first_start: bool,
    /// The OIDC issuer's JWKS as read at start (the console checks its ID tokens with it).
    pub oidc_jwks: Option<String>,
}

/// The gRPC authentication of `arbiter serve`: the key set given, or the data folder's own
/// (created on first start, with an admin token).
pub async fn server_auth(a: &AuthArgs, data: &Path) -> Result<ServerAuth, Exit> {
    let mut first_start = false;
    let keys = match &a.token_keys {
        Some(path) => {
            KeySet::load(path).map_err(|e| Exit::Invalid(format!("--token-keys: {e}")))?
        }
        None => {
            let path = data.join(KEYS_FILE);
            let (keys, created) = KeySet::load_or_create(&path).map_err(Exit::Unavailable)?;
            first_start = created;
            if created {
                let token_path = data.join(ADMIN_TOKEN_FILE);
                let token = admin_token(&keys)?;
                write_private(&token_path, &format!("{token}\n"), false)
                    .map_err(Exit::Unavailable)?;
                // Not on stdout: its first line is the address line scripts read.
                eprintln!(
                    "arbiter: created the token keys {} and an admin token {} (both mode 0600); \
                     `arbiter client` and `arbiter demo` with the same --data send it",
                    path.display(),
                    token_path.display()
                );
            }
            keys
        }
    };
    let mut verifier =
        Verifier::new(&keys).map_err(|e| Exit::Invalid(format!("token keys: {e}")))?;
    let mut oidc_jwks = None;
    if let (Some(jwks), Some(iss), Some(aud)) = (&a.oidc_jwks, &a.oidc_issuer, &a.oidc_audience) {
        let text = read_jwks(jwks)
            .await
            .map_err(|e| Exit::Invalid(format!("--oidc-jwks {jwks}: {e}")))?;
        let oidc = Oidc::from_jwks(iss, aud, &text)
            .map_err(|e| Exit::Invalid(format!("--oidc-jwks {jwks}: {e}")))?;
        verifier = verifier.with_oidc(oidc);
        oidc_jwks = Some(text);
    }
    Ok(ServerAuth {
        layer: AuthLayer::new(Arc::new(verifier)).private_reads(a.private_reads),
        keys,
        first_start,
        oidc_jwks,
    })
}

/// The JWKS document at `at`: an http:// URL or a file.
async fn read_jwks(at: &str) -> Result<String, String> {
    if !at.starts_with("http://") {
        if at.starts_with("https://") {
            return Err(
                "https is not fetched here: save the JWKS to a file and give its path".into(),
            );
        }
        return std::fs::read_to_string(at).map_err(|e| e.to_string());
    }
    let uri: axum::http::Uri = at.parse().map_err(|e| format!("not a URL: {e}"))?;
    let client = hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new())
        .build_http::<String>();
    let response = tokio::time::timeout(Duration::from_secs(10), client.get(uri))
        .await
        .map_err(|_| "no answer within 10 s".to_string())?
        .map_err(|e| e.to_string())?;
    if !response.status().is_success() {
        return Err(format!("answered {}", response.status()));
    }
    // A JWKS is a few kB; 1 MiB is far more than any issuer publishes.
    let body = axum::body::to_bytes(axum::body::Body::new(response.into_body()), 1 << 20)
        .await
        .map_err(|e| format!("reading the answer: {e}"))?;
    String::from_utf8(body.to_vec()).map_err(|_| "the answer is not UTF-8".to_string())
}

fn admin_token(keys: &KeySet) -> Result<String, Exit> {
    let iat = now();
    keys.issue(
        &Claims {
            sub: "admin".into(),
            role: Role::Admin,
            tournaments: vec![ALL_TOURNAMENTS.into()],
            entry: None,
            iss: ISSUER.into(),
            aud: AUDIENCE.into(),
            exp: iat + ADMIN_TOKEN_LIFETIME.as_secs(),
            iat,
        },
        None,
    )
    .map_err(Exit::Unavailable)
}

/// The token a client sends: `--token`/`ARBITER_TOKEN`, else `DATA/admin.token` when the data
/// folder has one (the server's own, on the same machine), else none (reads only).
pub fn client_token(given: Option<&str>, data: &Path) -> Result<Option<String>, Exit> {
    if let Some(t) = given.map(str::trim).filter(|t| !t.is_empty()) {
        return Ok(Some(t.to_string()));
    }
    let path = data.join(ADMIN_TOKEN_FILE);
    match std::fs::read_to_string(&path) {
        Ok(t) if !t.trim().is_empty() => Ok(Some(t.trim().to_string())),
        Ok(_) => Err(Exit::Invalid(format!("{}: empty", path.display()))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Exit::Invalid(format!("{}: {e}", path.display()))),
    }
}

#[derive(clap::Args, Debug)]
pub struct TokenArgs {
    #[command(subcommand)]
    pub command: TokenCommand,
}

/// Where the key set is.
#[derive(clap::Args, Debug, Clone)]
pub struct KeysAt {
    /// The data folder whose DATA/token-keys.json to use.
    #[arg(long, default_value = "./data", env = "ARBITER_DATA")]
    pub data: PathBuf,
    /// The key set file (instead of the data folder's).
    #[arg(long, env = "ARBITER_TOKEN_KEYS")]
    pub token_keys: Option<PathBuf>,
}

impl KeysAt {
    pub fn path(&self) -> PathBuf {
        self.token_keys
            .clone()
            .unwrap_or_else(|| self.data.join(KEYS_FILE))
    }
}

/// `--role`: one of the token roles, spelled as the claim ([`Role::TOKEN_ROLES`], so the
/// list cannot drift from the roles the server knows).
pub fn role_arg() -> impl clap::builder::TypedValueParser<Value = Role> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(Role::TOKEN_ROLES.map(Role::as_str))
        .map(|s| Role::parse_token_role(&s).expect("one of the token roles"))
}

/// The longest validity `--expires` accepts: the embedded default's admin token's.
const MAX_TOKEN_LIFETIME: Duration = ADMIN_TOKEN_LIFETIME;

#[derive(clap::Subcommand, Debug)]
pub enum TokenCommand {
    /// Print a signed token.
    Issue {
        #[arg(long, value_parser = role_arg())]
        role: Role,
        /// A tournament the token covers (repeat; "*" = every tournament). Needed for every
        /// role but admin.
        #[arg(long = "tournament")]
        tournaments: Vec<String>,
        /// A player's entry number (player tokens).
        #[arg(long)]
        entry: Option<u32>,
        /// Who the token is for: recorded as the actor of what it does.
        #[arg(long)]
        subject: Option<String>,
        /// How long it is valid: N followed by s, m, h or d.
        #[arg(long, default_value = "30d", value_parser = parse_duration)]
        expires: Duration,
        /// Sign with this key (default: the newest of the set).
        #[arg(long)]
        kid: Option<String>,
        #[command(flatten)]
        keys: KeysAt,
    },
    /// Add a new key to the set (rotation), or create the set: the new key signs from now on;
    /// the old keys keep verifying the tokens they signed until removed from the file.
    NewKey {
        #[command(flatten)]
        keys: KeysAt,
    },
    /// Print the key set without its private parts (what verifiers need).
    Jwks {
        #[command(flatten)]
        keys: KeysAt,
    },
}

fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let (n, unit) = s.split_at(s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len()));
    let n: u64 = n
        .parse()
        .map_err(|_| format!("{s:?}: give N followed by s, m, h or d (e.g. 30d)"))?;
    let secs = match unit {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86400,
        _ => return Err(format!("{s:?}: the unit must be s, m, h or d (e.g. 30d)")),
    };
    n.checked_mul(secs)
        .filter(|s| *s > 0 && *s <= MAX_TOKEN_LIFETIME.as_secs())
        .map(Duration::from_secs)
        .ok_or_else(|| {
            format!(
                "{s:?}: must be more than zero and at most {} days",
                MAX_TOKEN_LIFETIME.as_secs() / 86400
            )
        })
}

/// The tournaments of a new token: each a tournament id as the server checks it
/// (`store::stream_of`), or "*" alone; none twice. An admin token covers every tournament
/// whatever it lists, so naming one would mislead.
pub fn check_tournaments(role: Role, tournaments: &[String]) -> Result<Vec<String>, Exit> {
    if role == Role::Admin {
        return match tournaments {
            [] => Ok(Vec::new()),
            [t] if t.trim() == ALL_TOURNAMENTS => Ok(vec![ALL_TOURNAMENTS.into()]),
            _ => Err(Exit::Invalid(
                "--tournament: an admin token covers every tournament; for one tournament \
                 issue a chief-arbiter or arbiter token"
                    .into(),
            )),
        };
    }
    if tournaments.is_empty() {
        return Err(Exit::Invalid(format!(
            "--tournament: a {role} token needs at least one (or \"*\")"
        )));
    }
    let mut out: Vec<String> = Vec::new();
    for t in tournaments {
        let t = t.trim();
        if t != ALL_TOURNAMENTS {
            arbiter_service_kit::store::stream_of(t)
                .map_err(|s| Exit::Invalid(format!("--tournament: {}", s.message())))?;
        }
        if out.iter().any(|o| o == t) {
            return Err(Exit::Invalid(format!("--tournament: {t:?} given twice")));
        }
        out.push(t.to_string());
    }
    if out.len() > 1 && out.iter().any(|t| t == ALL_TOURNAMENTS) {
        return Err(Exit::Invalid(
            "--tournament: \"*\" covers every tournament; give it alone".into(),
        ));
    }
    Ok(out)
}

pub fn run(a: TokenArgs) -> ExitCode {
    match token(a) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => e.report(),
    }
}

fn token(a: TokenArgs) -> Result<(), Exit> {
    match a.command {
        TokenCommand::Issue {
            role,
            tournaments,
            entry,
            subject,
            expires,
            kid,
            keys,
        } => {
            let tournaments = check_tournaments(role, &tournaments)?;
            if entry == Some(0) {
                return Err(Exit::Invalid(
                    "--entry: entry numbers start at 1 (the order of registration)".into(),
                ));
            }
            if role == Role::Player && entry.is_none() {
                return Err(Exit::Invalid(
                    "--entry: a player token needs the player's entry number".into(),
                ));
            }
            if role != Role::Player && entry.is_some() {
                return Err(Exit::Invalid(format!(
                    "--entry: only player tokens have one, not {role}"
                )));
            }
            let subject = subject.unwrap_or_else(|| match entry {
                Some(e) => format!("{role} E{e}"),
                None => role.to_string(),
            });
            arbiter_service_kit::edge::check_actor("--subject", &subject)
                .map_err(|s| Exit::Invalid(s.message().to_string()))?;
            // The server refuses a token whose subject is empty: none is issued.
            if subject.trim().is_empty() {
                return Err(Exit::Invalid(
                    "--subject: empty; name who the token is for".into(),
                ));
            }
            let subject = subject.trim().to_string();
            let set = KeySet::load(&keys.path()).map_err(Exit::Invalid)?;
            let iat = now();
            let token = set
                .issue(
                    &Claims {
                        sub: subject,
                        role,
                        tournaments,
                        entry,
                        iss: ISSUER.into(),
                        aud: AUDIENCE.into(),
                        exp: iat + expires.as_secs(),
                        iat,
                    },
                    kid.as_deref(),
                )
                .map_err(Exit::Invalid)?;
            println!("{token}");
        }
        TokenCommand::NewKey { keys } => {
            let path = keys.path();
            let (mut set, created) = KeySet::load_or_create(&path).map_err(Exit::Invalid)?;
            if !created {
                set.add_generated().map_err(Exit::Unavailable)?;
                write_private(&path, &set.to_json(), false).map_err(Exit::Unavailable)?;
            }
            println!("{}", set.signing_key(None).map_err(Exit::Invalid)?.kid);
        }
        TokenCommand::Jwks { keys } => {
            let set = KeySet::load(&keys.path()).map_err(Exit::Invalid)?;
            print!("{}", set.public().to_json());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(parse_duration("30d"), Ok(Duration::from_secs(30 * 86400)));
        assert_eq!(parse_duration("90s"), Ok(Duration::from_secs(90)));
        assert!(parse_duration("30").is_err());
        assert!(parse_duration("0h").is_err());
        assert!(parse_duration("d").is_err());
        assert!(parse_duration("3650d").is_ok());
        assert!(parse_duration("3651d").is_err());
        assert!(parse_duration("99999999999999999d").is_err());
    }

    #[test]
    fn tournaments_of_a_token() {
        let t = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            check_tournaments(Role::Arbiter, &t(&["t1", " t2 "])).ok(),
            Some(t(&["t1", "t2"]))
        );
        assert!(check_tournaments(Role::Player, &t(&["*"])).is_ok());
        assert!(check_tournaments(Role::Admin, &t(&[])).is_ok());
        for (role, bad, says) in [
            (Role::Arbiter, &["../x"][..], "'.'"),
            (Role::Arbiter, &[][..], "at least one"),
            (Role::Arbiter, &["t1", "t1"][..], "twice"),
            (Role::Arbiter, &["t1", "*"][..], "alone"),
            (Role::Admin, &["t1"][..], "admin"),
        ] {
            let Err(Exit::Invalid(e)) = check_tournaments(role, &t(bad)) else {
                panic!("{bad:?} accepted");
            };
            assert!(e.starts_with("--tournament: ") && e.contains(says), "{e}");
        }
    }
}
