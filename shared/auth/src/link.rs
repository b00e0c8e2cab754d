//! Sign-in links for the web console: a token that opens one console session, valid for a
//! short time and once.
//!
//! A link token is signed like the deployment's bearer tokens (its [`KeySet`], EdDSA) but
//! carries the audience [`LINK_AUDIENCE`], so it is never accepted as a bearer token and a
//! bearer token is never accepted as a link. Its `jti` (random) is what the console remembers
//! to refuse a second use.

use crate::keys::KeySet;
use crate::verify::{AuthError, LEEWAY_SECONDS};
use crate::{ISSUER, Principal, Role};
use jsonwebtoken::{Algorithm, DecodingKey, Validation, errors::ErrorKind};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::time::Duration;

/// The `aud` of a sign-in link.
pub const LINK_AUDIENCE: &str = "arbiter-console";
/// The console's path that takes a link (`?link=TOKEN`).
pub const SIGN_IN_PATH: &str = "/console/sign-in";

/// The address a link opens on the server at `base` (e.g. `http://127.0.0.1:7080`).
pub fn link_url(base: &str, token: &str) -> String {
    format!("{}{SIGN_IN_PATH}?link={token}", base.trim_end_matches('/'))
}

/// How long a sign-in link is valid unless told otherwise.
pub const LINK_LIFETIME: Duration = Duration::from_secs(15 * 60);

#[derive(Debug, Clone, Serialize, Deserialize)]
struct LinkClaims {
    sub: String,
    role: Role,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    tournaments: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    entry: Option<u32>,
    iss: String,
    aud: String,
    exp: u64,
    iat: u64,
    /// Defaulted so that a bearer token reaches the audience check and is named as such.
    #[serde(default)]
    jti: String,
}

/// A verified sign-in link: who it signs in, its id and its expiry (Unix seconds).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub principal: Principal,
    pub id: String,
    pub expires: u64,
}

fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Signs a link for `principal`, valid for `valid` from now.
pub fn issue_link(keys: &KeySet, principal: &Principal, valid: Duration) -> Result<String, String> {
    let mut id = [0u8; 16];
    getrandom::fill(&mut id).map_err(|e| format!("no randomness for the link id: {e}"))?;
    let iat = unix_now();
    keys.issue(
        &LinkClaims {
            sub: principal.subject.clone(),
            role: principal.role,
            tournaments: principal.tournaments.clone(),
            entry: principal.entry,
            iss: ISSUER.into(),
            aud: LINK_AUDIENCE.into(),
            exp: iat + valid.as_secs(),
            iat,
            jti: id.iter().map(|b| format!("{b:02x}")).collect(),
        },
        None,
    )
}

/// Verifies sign-in links with the deployment's keys (private parts not needed).
pub struct LinkVerifier {
    keys: HashMap<String, DecodingKey>,
}

impl LinkVerifier {
    pub fn new(keys: &KeySet) -> Result<LinkVerifier, String> {
        let mut map = HashMap::new();
        for k in &keys.keys {
            map.insert(k.kid.clone(), k.decoding_key()?);
        }
        Ok(LinkVerifier { keys: map })
    }

    /// The link's principal, id and expiry; an expired, foreign or altered link is refused
    /// with the reason. Single use is the caller's to enforce (by [`Link::id`]).
    pub fn verify(&self, token: &str) -> Result<Link, AuthError> {
        let header = jsonwebtoken::decode_header(token)
            .map_err(|_| AuthError("the sign-in link is not one this server issued".into()))?;
        let key = header
            .kid
            .as_ref()
            .and_then(|kid| self.keys.get(kid))
            .ok_or_else(|| {
                AuthError("the sign-in link is signed by a key this server does not know".into())
            })?;
        let mut v = Validation::new(Algorithm::EdDSA);
        v.leeway = LEEWAY_SECONDS;
        v.set_issuer(&[ISSUER]);
        v.set_audience(&[LINK_AUDIENCE]);
        v.set_required_spec_claims(&["exp", "sub", "iss", "aud"]);
        let data = jsonwebtoken::decode::<LinkClaims>(token, key, &v).map_err(|e| {
            AuthError(match e.kind() {
                ErrorKind::ExpiredSignature => {
                    "the sign-in link has expired: ask for a new one (arbiter console-link)".into()
                }
                ErrorKind::InvalidAudience => "this is not a sign-in link".into(),
                _ => format!("the sign-in link is not valid: {e}"),
            })
        })?;
        let c = data.claims;
        if c.jti.is_empty() {
            return Err(AuthError("the sign-in link has no id (jti)".into()));
        }
        Ok(Link {
            principal: Principal {
                subject: c.sub,
                role: c.role,
                tournaments: c.tournaments,
                entry: c.entry,
            },
            id: c.jti,
            expires: c.exp,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ALL_TOURNAMENTS;

    fn keys() -> KeySet {
        let mut k = KeySet::default();
        k.add_generated().unwrap();
        k
    }

    fn arbiter() -> Principal {
        Principal {
            subject: "Arbiter, Chief".into(),
            role: Role::ChiefArbiter,
            tournaments: vec![ALL_TOURNAMENTS.into()],
            entry: None,
        }
    }

    #[test]
    fn a_link_verifies_once_issued_and_names_its_principal() {
        let keys = keys();
        let link = issue_link(&keys, &arbiter(), LINK_LIFETIME).unwrap();
        let v = LinkVerifier::new(&keys).unwrap();
        let got = v.verify(&link).unwrap();
        assert_eq!(got.principal, arbiter());
        assert_eq!(got.id.len(), 32);
        let other = v.verify(&issue_link(&keys, &arbiter(), LINK_LIFETIME).unwrap());
        assert_ne!(other.unwrap().id, got.id, "each link has its own id");
    }

    #[test]
    fn a_bearer_token_is_no_link_and_a_link_is_no_bearer_token() {
        let keys = keys();
        let now = unix_now();
        let bearer = keys
            .issue(
                &crate::Claims {
                    sub: "admin".into(),
                    role: Role::Admin,
                    tournaments: vec![],
                    entry: None,
                    iss: ISSUER.into(),
                    aud: crate::AUDIENCE.into(),
                    exp: now + 600,
                    iat: now,
                },
                None,
            )
            .unwrap();
        let e = LinkVerifier::new(&keys)
            .unwrap()
            .verify(&bearer)
            .unwrap_err();
        assert_eq!(e.0, "this is not a sign-in link");
        let link = issue_link(&keys, &arbiter(), LINK_LIFETIME).unwrap();
        let e = crate::verify::Verifier::new(&keys)
            .unwrap()
            .verify(&link)
            .unwrap_err();
        assert!(e.0.contains("audience"), "{e}");
    }

    #[test]
    fn an_expired_or_foreign_link_is_refused_with_its_reason() {
        let keys = keys();
        let v = LinkVerifier::new(&keys).unwrap();
        let mut old = arbiter();
        old.subject = "late".into();
        // Expired beyond the leeway: issued with a lifetime in the past.
        let c = LinkClaims {
            sub: "late".into(),
            role: Role::Arbiter,
            tournaments: vec![],
            entry: None,
            iss: ISSUER.into(),
            aud: LINK_AUDIENCE.into(),
            exp: unix_now() - LEEWAY_SECONDS - 60,
            iat: unix_now() - 3600,
            jti: "00".into(),
        };
        let expired = keys.issue(&c, None).unwrap();
        assert!(v.verify(&expired).unwrap_err().0.contains("expired"));
        let foreign = issue_link(&self::keys(), &old, LINK_LIFETIME).unwrap();
        assert!(v.verify(&foreign).unwrap_err().0.contains("does not know"));
        assert!(v.verify("not-a-token").is_err());
    }
}
