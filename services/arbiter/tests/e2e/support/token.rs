//! The tests' token keys and admin token: one key set per test process, given to every server
//! the tests start (`ARBITER_TOKEN_KEYS`), and an admin token (subject "e2e") that the tests'
//! clients and `arbiter client` runs send.

use arbiter_auth::keys::{Jwk, KeySet, write_private};
use arbiter_auth::{AUDIENCE, Claims, ISSUER, Role};
use std::path::PathBuf;
use std::sync::OnceLock;

/// The subject of the tests' admin token: the actor of what the tests append.
pub const SUBJECT: &str = "e2e";

pub struct TestAuth {
    pub keys: KeySet,
    /// The key set file (`--token-keys` / `ARBITER_TOKEN_KEYS`).
    pub path: PathBuf,
    /// An admin token.
    pub admin: String,
}

fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock after 1970")
        .as_secs()
}

/// The process's key set and admin token (made on first use).
pub fn auth() -> &'static TestAuth {
    static AUTH: OnceLock<TestAuth> = OnceLock::new();
    AUTH.get_or_init(|| {
        let keys = KeySet {
            keys: vec![Jwk::generate().expect("a key")],
        };
        let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("token-keys-{}.json", std::process::id()));
        write_private(&path, &keys.to_json(), false).expect("the tests' token keys");
        let admin = issue(&keys, SUBJECT, Role::Admin, &["*"], None, 2 * 86400);
        TestAuth { keys, path, admin }
    })
}

/// A token of `keys` valid for `seconds` (negative: expired that long ago).
pub fn issue(
    keys: &KeySet,
    subject: &str,
    role: Role,
    tournaments: &[&str],
    entry: Option<u32>,
    seconds: i64,
) -> String {
    let iat = now();
    keys.issue(
        &Claims {
            sub: subject.into(),
            role,
            tournaments: tournaments.iter().map(|t| t.to_string()).collect(),
            entry,
            iss: ISSUER.into(),
            aud: AUDIENCE.into(),
            exp: iat.saturating_add_signed(seconds),
            iat,
        },
        None,
    )
    .expect("a signed token")
}

/// `channel` sending the admin token.
pub fn admin<T>(channel: T) -> arbiter_auth::client::WithToken<T> {
    arbiter_auth::client::WithToken::new(channel, Some(&auth().admin)).expect("an ASCII token")
}
