//! Console sessions: opened by a one-time sign-in link, held in an HttpOnly, SameSite=Strict
//! cookie, with a CSRF token every form carries, and the bearer token the session's gRPC calls
//! send (so the services authorize the console exactly as any other client).

use arbiter_auth::keys::KeySet;
use arbiter_auth::link::{Link, LinkVerifier};
use arbiter_auth::{AUDIENCE, Claims, ISSUER, Principal};
use axum::http::HeaderMap;
use axum::http::header::COOKIE;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

/// The session cookie's name.
pub const COOKIE_NAME: &str = "arbiter_console";
/// How long a session lasts from sign-in: a tournament day.
pub const SESSION_LIFETIME: Duration = Duration::from_secs(12 * 3600);

/// A signed-in arbiter (or any role a link was issued for).
#[derive(Debug, Clone)]
pub struct Session {
    pub principal: Principal,
    /// The language of its screens.
    pub lang: crate::i18n::Lang,
    /// Every form of the session carries it; a POST without it is refused.
    pub csrf: String,
    /// The bearer token of the session's gRPC calls (the principal, until `expires`).
    pub bearer: String,
    /// Unix seconds.
    pub expires: u64,
}

/// Why a sign-in was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused(pub String);

pub(crate) fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// 32 random bytes as hex.
pub(crate) fn random_id() -> String {
    let mut b = [0u8; 32];
    getrandom::fill(&mut b).expect("the operating system's randomness");
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The sessions of one console process, and the sign-in links already used.
pub struct Sessions {
    keys: KeySet,
    links: LinkVerifier,
    open: Mutex<HashMap<String, Session>>,
    /// Link id → its expiry: a link is refused once used, until it would have expired anyway.
    used: Mutex<HashMap<String, u64>>,
    /// Sign-ins sent to an OpenID Connect issuer, by `state`, until they come back or expire.
    pending: Mutex<HashMap<String, crate::oidc::Pending>>,
}

/// Sign-ins at the issuer kept at once: beyond, the oldest are dropped (a flood of started
/// sign-ins cannot grow the process without bound).
const PENDING_MAX: usize = 10_000;

impl Sessions {
    /// `keys` must hold a private key: sessions call the services with tokens signed by it.
    pub fn new(keys: KeySet) -> Result<Sessions, String> {
        keys.signing_key(None)?;
        Ok(Sessions {
            links: LinkVerifier::new(&keys)?,
            keys,
            open: Mutex::default(),
            used: Mutex::default(),
            pending: Mutex::default(),
        })
    }

    /// The link as it would be accepted (not yet used): for the confirmation page.
    pub fn check_link(&self, token: &str) -> Result<Link, Refused> {
        let link = self.links.verify(token).map_err(|e| Refused(e.0))?;
        if self.used.lock().expect("links").contains_key(&link.id) {
            return Err(Refused(
                "this sign-in link has been used already: a link opens one session; ask for a \
                 new one (arbiter console-link)"
                    .into(),
            ));
        }
        Ok(link)
    }

    /// Opens a session for an unused, valid link; the link is spent. Returns the session id.
    pub fn sign_in(
        &self,
        token: &str,
        lang: crate::i18n::Lang,
    ) -> Result<(String, Session), Refused> {
        let link = self.links.verify(token).map_err(|e| Refused(e.0))?;
        let now = unix_now();
        {
            let mut used = self.used.lock().expect("links");
            used.retain(|_, exp| *exp + 120 > now);
            if used.insert(link.id.clone(), link.expires).is_some() {
                return Err(Refused(
                    "this sign-in link has been used already: a link opens one session; ask \
                     for a new one (arbiter console-link)"
                        .into(),
                ));
            }
        }
        self.open_for(link.principal, lang)
    }

    /// Opens a session for `principal` (from a spent link, or a checked ID token).
    pub fn open_for(
        &self,
        principal: Principal,
        lang: crate::i18n::Lang,
    ) -> Result<(String, Session), Refused> {
        let now = unix_now();
        let expires = now + SESSION_LIFETIME.as_secs();
        let p = &principal;
        let bearer = self
            .keys
            .issue(
                &Claims {
                    sub: p.subject.clone(),
                    role: p.role,
                    tournaments: p.tournaments.clone(),
                    entry: p.entry,
                    iss: ISSUER.into(),
                    aud: AUDIENCE.into(),
                    exp: expires,
                    iat: now,
                },
                None,
            )
            .map_err(Refused)?;
        let session = Session {
            principal,
            lang,
            csrf: random_id(),
            bearer,
            expires,
        };
        let id = random_id();
        let mut open = self.open.lock().expect("sessions");
        open.retain(|_, s| s.expires > now);
        open.insert(id.clone(), session.clone());
        Ok((id, session))
    }

    /// A sign-in at the issuer starts: its `state` and what must come back with it.
    pub fn begin_oidc(&self) -> (String, crate::oidc::Pending) {
        let now = unix_now();
        let state = crate::oidc::random_token();
        let p = crate::oidc::Pending {
            nonce: crate::oidc::random_token(),
            verifier: crate::oidc::random_token(),
            expires: now + crate::oidc::PENDING_LIFETIME.as_secs(),
        };
        let mut pending = self.pending.lock().expect("sign-ins");
        pending.retain(|_, p| p.expires > now);
        if pending.len() >= PENDING_MAX {
            let oldest = pending
                .iter()
                .min_by_key(|(_, p)| p.expires)
                .map(|(k, _)| k.clone());
            if let Some(k) = oldest {
                pending.remove(&k);
            }
        }
        pending.insert(state.clone(), p.clone());
        (state, p)
    }

    /// The sign-in `state` names, once: taken, it is gone.
    pub fn take_oidc(&self, state: &str) -> Option<crate::oidc::Pending> {
        let p = self.pending.lock().expect("sign-ins").remove(state)?;
        (p.expires > unix_now()).then_some(p)
    }

    /// The live session the request's cookie names.
    pub fn current(&self, headers: &HeaderMap) -> Option<(String, Session)> {
        let id = cookie(headers, COOKIE_NAME)?;
        let open = self.open.lock().expect("sessions");
        let s = open.get(&id)?;
        (s.expires > unix_now()).then(|| (id.clone(), s.clone()))
    }

    /// Changes the language of session `id`.
    pub fn set_lang(&self, id: &str, lang: crate::i18n::Lang) {
        if let Some(s) = self.open.lock().expect("sessions").get_mut(id) {
            s.lang = lang;
        }
    }

    pub fn sign_out(&self, id: &str) {
        self.open.lock().expect("sessions").remove(id);
    }
}

/// The value of cookie `name` in the request.
pub(crate) fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| kv.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_string())
}

/// The `Set-Cookie` value that holds session `id` (`secure`: served over TLS).
pub fn session_cookie(id: &str, secure: bool) -> String {
    format!(
        "{COOKIE_NAME}={id}; Path=/console; HttpOnly; SameSite=Strict; Max-Age={}{}",
        SESSION_LIFETIME.as_secs(),
        if secure { "; Secure" } else { "" }
    )
}

/// The `Set-Cookie` value that removes the session cookie.
pub fn cleared_cookie(secure: bool) -> String {
    format!(
        "{COOKIE_NAME}=; Path=/console; HttpOnly; SameSite=Strict; Max-Age=0{}",
        if secure { "; Secure" } else { "" }
    )
}

/// Compares two tokens in time independent of where they differ.
pub fn same_token(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_auth::Role;
    use arbiter_auth::link::{LINK_LIFETIME, issue_link};
    use axum::http::HeaderValue;

    fn sessions() -> (Sessions, KeySet) {
        let mut keys = KeySet::default();
        keys.add_generated().unwrap();
        (Sessions::new(keys.clone()).unwrap(), keys)
    }

    fn arbiter() -> Principal {
        Principal {
            subject: "Chief".into(),
            role: Role::ChiefArbiter,
            tournaments: vec!["*".into()],
            entry: None,
        }
    }

    #[test]
    fn a_link_opens_one_session_and_is_then_spent() {
        let (s, keys) = sessions();
        let link = issue_link(&keys, &arbiter(), LINK_LIFETIME).unwrap();
        assert!(s.check_link(&link).is_ok());
        let (id, session) = s.sign_in(&link, Default::default()).unwrap();
        assert_eq!(session.principal, arbiter());
        let again = s.sign_in(&link, Default::default()).unwrap_err();
        assert!(again.0.contains("used already"), "{again:?}");
        assert!(s.check_link(&link).is_err());
        let mut h = HeaderMap::new();
        h.insert(
            COOKIE,
            HeaderValue::from_str(&format!("other=1; {COOKIE_NAME}={id}")).unwrap(),
        );
        assert_eq!(s.current(&h).unwrap().1.csrf, session.csrf);
        // The session's calls are authorized as the link's principal.
        let v = arbiter_auth::verify::Verifier::new(&keys).unwrap();
        assert_eq!(v.verify(&session.bearer).unwrap(), arbiter());
        s.sign_out(&id);
        assert!(s.current(&h).is_none());
    }

    #[test]
    fn cookies_are_http_only_and_same_site_strict() {
        let c = session_cookie("abc", false);
        assert!(c.contains("HttpOnly") && c.contains("SameSite=Strict") && !c.contains("Secure"));
        assert!(session_cookie("abc", true).ends_with("; Secure"));
        assert!(same_token("abc", "abc") && !same_token("abc", "abd") && !same_token("a", "ab"));
    }
}
