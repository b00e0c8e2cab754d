//! Checking a bearer token: its key (by `kid`), signature, issuer, audience and expiry, then
//! its claims, into a [`Principal`].
//!
//! Two kinds of token are accepted: the deployment's own (issuer [`crate::ISSUER`], signed
//! by a key of its [`KeySet`], EdDSA), and, when configured, an OIDC issuer's (signed by a key
//! of the issuer's JWKS, RS256/ES256/EdDSA), whose claims are read under the same names:
//! `sub`, `role`, `tournaments` (a list or one space-separated string) and `entry`.

use crate::keys::KeySet;
use crate::{AUDIENCE, ISSUER, Principal, Role};
use jsonwebtoken::jwk::JwkSet;
use jsonwebtoken::{Algorithm, DecodingKey, Validation, errors::ErrorKind};
use std::collections::HashMap;

/// Seconds of clock difference tolerated on `exp` and `nbf`.
pub const LEEWAY_SECONDS: u64 = 30;

/// Why a token was not accepted (the message of the `UNAUTHENTICATED` status).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct AuthError(pub String);

/// An OIDC issuer whose tokens are accepted too.
pub struct Oidc {
    pub issuer: String,
    pub audience: String,
    keys: HashMap<String, (DecodingKey, Algorithm)>,
}

impl Oidc {
    /// The issuer's JWKS document (`{"keys": [...]}`); keys without `kid` are skipped (a
    /// token names its key).
    pub fn from_jwks(issuer: &str, audience: &str, jwks: &str) -> Result<Oidc, String> {
        let set: JwkSet = serde_json::from_str(jwks).map_err(|e| format!("the OIDC JWKS: {e}"))?;
        let mut keys = HashMap::new();
        for k in &set.keys {
            let Some(kid) = &k.common.key_id else {
                continue;
            };
            let alg = match &k.algorithm {
                jsonwebtoken::jwk::AlgorithmParameters::RSA(_) => Algorithm::RS256,
                jsonwebtoken::jwk::AlgorithmParameters::EllipticCurve(_) => Algorithm::ES256,
                jsonwebtoken::jwk::AlgorithmParameters::OctetKeyPair(_) => Algorithm::EdDSA,
                _ => continue,
            };
            let key =
                DecodingKey::from_jwk(k).map_err(|e| format!("the OIDC JWKS: key {kid:?}: {e}"))?;
            keys.insert(kid.clone(), (key, alg));
        }
        if keys.is_empty() {
            return Err(
                "the OIDC JWKS has no usable key (RSA, EC P-256 or Ed25519 with a kid)".into(),
            );
        }
        Ok(Oidc {
            issuer: issuer.to_string(),
            audience: audience.to_string(),
            keys,
        })
    }
}

impl Oidc {
    /// The ID token of an authorization-code sign-in (OpenID Connect Core 3.1.3.7): signed by
    /// a key of the issuer's JWKS, issued by it for this client (`audience` is the client id
    /// here), unexpired, and carrying the `nonce` the sign-in sent. Its claims are read as any
    /// token's (`sub`, `role`, `tournaments`, `entry`): one rule for who may do what.
    pub fn verify_id_token(&self, token: &str, nonce: &str) -> Result<Principal, AuthError> {
        let header = jsonwebtoken::decode_header(token)
            .map_err(|e| AuthError(format!("the ID token is not a JWT: {e}")))?;
        check_crit(token)?;
        let kid = header
            .kid
            .ok_or_else(|| AuthError("the ID token's header names no key (kid)".into()))?;
        let (key, alg) = self.keys.get(&kid).ok_or_else(|| {
            AuthError(format!(
                "the ID token is signed with key {kid:?}, which the issuer's JWKS does not hold"
            ))
        })?;
        let mut v = Validation::new(*alg);
        v.leeway = LEEWAY_SECONDS;
        v.validate_nbf = true;
        v.set_issuer(&[self.issuer.as_str()]);
        v.set_audience(&[self.audience.as_str()]);
        v.set_required_spec_claims(&["exp", "sub", "iss", "aud"]);
        let data =
            jsonwebtoken::decode::<serde_json::Map<String, serde_json::Value>>(token, key, &v)
                .map_err(|e| match e.kind() {
                    ErrorKind::InvalidAudience => AuthError(format!(
                        "the ID token's audience (aud) is not this console's client id {:?}",
                        self.audience
                    )),
                    _ => AuthError(reason(&e, &kid)),
                })?;
        let sent = data.claims.get("nonce").and_then(|n| n.as_str());
        if sent != Some(nonce) {
            return Err(AuthError(
                "the ID token's nonce is not the one this sign-in sent (a replayed or foreign \
                 token)"
                    .into(),
            ));
        }
        principal(&data.claims)
    }
}

/// Verifies bearer tokens.
pub struct Verifier {
    local: HashMap<String, DecodingKey>,
    oidc: Option<Oidc>,
    /// Tokens already verified, with the principal they stand for, until they expire.
    verified: std::sync::Mutex<HashMap<String, (Principal, u64)>>,
}

/// Verified tokens kept: a client sends the same token on every call, and checking its
/// signature again (an Ed25519 verification, tens of microseconds) was a visible share of
/// the server's work under load. Emptied when full.
const VERIFIED_CACHE: usize = 4096;

fn unix_now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

fn reason(e: &jsonwebtoken::errors::Error, kid: &str) -> String {
    match e.kind() {
        ErrorKind::ExpiredSignature => "the token has expired".into(),
        ErrorKind::ImmatureSignature => {
            "the token is not valid yet (its nbf, not before, is in the future)".into()
        }
        ErrorKind::InvalidSignature => {
            format!("the token's signature does not verify with key {kid:?}")
        }
        ErrorKind::InvalidIssuer => "the token's issuer (iss) is not accepted".into(),
        ErrorKind::InvalidAudience => format!("the token's audience (aud) is not {AUDIENCE:?}"),
        ErrorKind::InvalidAlgorithm => "the token's algorithm does not match its key".into(),
        ErrorKind::MissingRequiredClaim(c) => format!("the token has no {c:?} claim"),
        other => format!("the token is malformed: {other:?}"),
    }
}

impl Verifier {
    /// Verifies the deployment's tokens with `keys` (private parts are not needed).
    pub fn new(keys: &KeySet) -> Result<Verifier, String> {
        let mut local = HashMap::new();
        for k in &keys.keys {
            local.insert(k.kid.clone(), k.decoding_key()?);
        }
        Ok(Verifier {
            local,
            oidc: None,
            verified: Default::default(),
        })
    }

    /// Also accepts the tokens of `oidc`.
    pub fn with_oidc(mut self, oidc: Oidc) -> Verifier {
        self.oidc = Some(oidc);
        self
    }

    /// The caller a token stands for. A token verified before is answered from memory until
    /// its expiry (with the same leeway); the key set does not change while a server runs.
    pub fn verify(&self, token: &str) -> Result<Principal, AuthError> {
        let now = unix_now();
        if let Some((p, until)) = self.verified.lock().expect("token cache").get(token)
            && now <= *until
        {
            return Ok(p.clone());
        }
        let (p, exp) = self.verify_signed(token)?;
        let mut cache = self.verified.lock().expect("token cache");
        if cache.len() >= VERIFIED_CACHE {
            cache.clear();
        }
        cache.insert(
            token.to_string(),
            (p.clone(), exp.saturating_add(LEEWAY_SECONDS)),
        );
        Ok(p)
    }

    /// Checks the token's key, signature and claims; the principal and the token's `exp`.
    fn verify_signed(&self, token: &str) -> Result<(Principal, u64), AuthError> {
        let header = jsonwebtoken::decode_header(token)
            .map_err(|e| AuthError(format!("the token is not a JWT: {e}")))?;
        check_crit(token)?;
        let kid = header
            .kid
            .ok_or_else(|| AuthError("the token's header names no key (kid)".into()))?;
        let (key, alg, iss) = if let Some(k) = self.local.get(&kid) {
            (k, Algorithm::EdDSA, ISSUER)
        } else if let Some((k, alg)) = self.oidc.as_ref().and_then(|o| o.keys.get(&kid)) {
            let o = self.oidc.as_ref().expect("found in it");
            (k, *alg, o.issuer.as_str())
        } else {
            return Err(AuthError(format!(
                "the token is signed with key {kid:?}, which this server does not know \
                 (a key of another deployment, or one removed from the key set)"
            )));
        };
        let audience = match &self.oidc {
            Some(o) if iss == o.issuer => o.audience.as_str(),
            _ => AUDIENCE,
        };
        let mut v = Validation::new(alg);
        v.leeway = LEEWAY_SECONDS;
        v.validate_nbf = true;
        v.set_issuer(&[iss]);
        v.set_audience(&[audience]);
        v.set_required_spec_claims(&["exp", "sub", "iss", "aud"]);
        let data =
            jsonwebtoken::decode::<serde_json::Map<String, serde_json::Value>>(token, key, &v)
                .map_err(|e| AuthError(reason(&e, &kid)))?;
        let exp = data
            .claims
            .get("exp")
            .and_then(serde_json::Value::as_u64)
            .ok_or_else(|| {
                AuthError("the token's expiry (exp) is not a number of seconds".into())
            })?;
        // The library skips an `nbf` it cannot read; a token that says "not before" in a
        // form we cannot check is not taken as valid now.
        if let Some(nbf) = data.claims.get("nbf")
            && nbf.as_u64().is_none()
        {
            return Err(AuthError(format!(
                "the token's nbf (not before) {nbf} is not a number of seconds"
            )));
        }
        Ok((principal(&data.claims)?, exp))
    }
}

/// RFC 7515 4.1.11: a header's `crit` names extensions the recipient must understand or
/// refuse the token. This server implements none, so any `crit` is refused (the library
/// ignores header members it does not know).
fn check_crit(token: &str) -> Result<(), AuthError> {
    use base64::Engine as _;
    let first = token.split('.').next().unwrap_or_default();
    let bytes = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(first.trim_end_matches('='))
        .map_err(|e| AuthError(format!("the token's header is not base64url: {e}")))?;
    let header: serde_json::Map<String, serde_json::Value> = serde_json::from_slice(&bytes)
        .map_err(|e| AuthError(format!("the token's header is not a JSON object: {e}")))?;
    match header.get("crit") {
        None => Ok(()),
        Some(crit) => Err(AuthError(format!(
            "the token's header marks {crit} as critical (crit), extensions this server does \
             not implement; it refuses such tokens (RFC 7515 4.1.11)"
        ))),
    }
}

/// The principal of verified claims.
fn principal(c: &serde_json::Map<String, serde_json::Value>) -> Result<Principal, AuthError> {
    let subject = c
        .get("sub")
        .and_then(|v| v.as_str())
        .filter(|s| !s.trim().is_empty())
        .ok_or_else(|| AuthError("the token's subject (sub) is empty".into()))?
        .trim()
        .to_string();
    let role = match c.get("role").and_then(|v| v.as_str()) {
        Some(r) => Role::parse_token_role(r).ok_or_else(|| {
            AuthError(format!(
                "the token's role {r:?} is not one of {}",
                Role::token_role_list()
            ))
        })?,
        None => return Err(AuthError("the token has no role claim".into())),
    };
    let tournaments = match c.get("tournaments") {
        None | Some(serde_json::Value::Null) => Vec::new(),
        Some(serde_json::Value::String(s)) => s.split_whitespace().map(str::to_string).collect(),
        Some(serde_json::Value::Array(a)) => a
            .iter()
            .map(|v| v.as_str().map(str::to_string))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| AuthError("the token's tournaments are not all strings".into()))?,
        Some(_) => {
            return Err(AuthError(
                "the token's tournaments claim is not a list".into(),
            ));
        }
    };
    let entry = match c.get("entry") {
        None | Some(serde_json::Value::Null) => None,
        Some(v) => Some(
            v.as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .filter(|n| *n > 0)
                .ok_or_else(|| {
                    AuthError(format!("the token's entry {v} is not an entry number"))
                })?,
        ),
    };
    Ok(Principal {
        subject,
        role,
        tournaments,
        entry,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Claims;
    use crate::keys::Jwk;

    fn now() -> u64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_secs()
    }

    fn claims(exp: u64) -> Claims {
        Claims {
            sub: "ana".into(),
            role: Role::Arbiter,
            tournaments: vec!["t1".into()],
            entry: None,
            iss: ISSUER.into(),
            aud: AUDIENCE.into(),
            exp,
            iat: now(),
        }
    }

    #[test]
    fn an_id_token_is_checked_for_its_client_and_nonce() {
        let mut issuer = KeySet::default();
        issuer.add_generated().unwrap();
        let oidc = Oidc::from_jwks("https://idp", "console", &issuer.public().to_json()).unwrap();
        let token = |aud: &str, nonce: &str, iss: &str| {
            issuer
                .issue(
                    &serde_json::json!({"iss": iss, "aud": aud, "sub": "Ana", "exp": now() + 60,
                        "nonce": nonce, "role": "arbiter", "tournaments": ["t1"]}),
                    None,
                )
                .unwrap()
        };
        let p = oidc
            .verify_id_token(&token("console", "n1", "https://idp"), "n1")
            .unwrap();
        assert_eq!((p.subject.as_str(), p.role), ("Ana", Role::Arbiter));
        assert_eq!(p.tournaments, ["t1"]);
        let e = oidc
            .verify_id_token(&token("console", "n2", "https://idp"), "n1")
            .unwrap_err();
        assert!(e.0.contains("nonce"), "{e}");
        let e = oidc
            .verify_id_token(&token("arbiter", "n1", "https://idp"), "n1")
            .unwrap_err();
        assert!(e.0.contains("client id \"console\""), "{e}");
        let e = oidc
            .verify_id_token(&token("console", "n1", "https://other"), "n1")
            .unwrap_err();
        assert!(e.0.contains("issuer"), "{e}");
        // Signed by a key the issuer's set does not hold.
        let mut other = KeySet::default();
        other.add_generated().unwrap();
        let foreign = other
            .issue(
                &serde_json::json!({"iss": "https://idp", "aud": "console", "sub": "Ana",
                    "exp": now() + 60, "nonce": "n1", "role": "arbiter"}),
                None,
            )
            .unwrap();
        assert!(
            oidc.verify_id_token(&foreign, "n1")
                .unwrap_err()
                .0
                .contains("does not hold")
        );
    }

    #[test]
    fn own_tokens_verify_by_kid_after_rotation() {
        let mut set = KeySet {
            keys: vec![Jwk::generate().unwrap()],
        };
        let old = set.issue(&claims(now() + 60), None).unwrap();
        set.add_generated().unwrap();
        let new = set.issue(&claims(now() + 60), None).unwrap();
        let v = Verifier::new(&set.public()).unwrap();
        for t in [&old, &new] {
            let p = v.verify(t).unwrap();
            assert_eq!((p.subject.as_str(), p.role), ("ana", Role::Arbiter));
            assert_eq!(p.tournaments, vec!["t1".to_string()]);
        }
        assert_eq!(
            jsonwebtoken::decode_header(&new).unwrap().kid.as_deref(),
            Some(set.keys[1].kid.as_str())
        );
    }

    #[test]
    fn bad_tokens_are_named() {
        let set = KeySet {
            keys: vec![Jwk::generate().unwrap()],
        };
        let v = Verifier::new(&set).unwrap();
        let expired = set.issue(&claims(now() - 3600), None).unwrap();
        assert!(v.verify(&expired).unwrap_err().0.contains("expired"));
        let other = KeySet {
            keys: vec![Jwk::generate().unwrap()],
        };
        let foreign = other.issue(&claims(now() + 60), None).unwrap();
        assert!(v.verify(&foreign).unwrap_err().0.contains("does not know"));
        // The same kid, another key: the signature is wrong.
        let mut forged = other.clone();
        forged.keys[0].kid = set.keys[0].kid.clone();
        let t = forged.issue(&claims(now() + 60), None).unwrap();
        assert!(v.verify(&t).unwrap_err().0.contains("signature"));
        let mut c = claims(now() + 60);
        c.aud = "else".into();
        assert!(
            v.verify(&set.issue(&c, None).unwrap())
                .unwrap_err()
                .0
                .contains("audience")
        );
        assert!(v.verify("abc").unwrap_err().0.contains("not a JWT"));
    }

    /// A token with any header and claims, signed by the set's key (the library's encoder
    /// writes only the header members it knows).
    fn raw_token(set: &KeySet, header: serde_json::Value, claims: serde_json::Value) -> String {
        use base64::Engine as _;
        use ed25519_dalek::Signer as _;
        let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
        let input = format!(
            "{}.{}",
            b64.encode(header.to_string()),
            b64.encode(claims.to_string())
        );
        let seed: [u8; 32] = b64
            .decode(set.keys[0].d.as_deref().unwrap())
            .unwrap()
            .try_into()
            .unwrap();
        let sig = ed25519_dalek::SigningKey::from_bytes(&seed).sign(input.as_bytes());
        format!("{input}.{}", b64.encode(sig.to_bytes()))
    }

    fn claims_json(extra: serde_json::Value) -> serde_json::Value {
        let mut c = serde_json::to_value(claims(now() + 600)).unwrap();
        c.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        c
    }

    #[test]
    fn not_before_is_checked_with_the_expiry_leeway() {
        let set = KeySet {
            keys: vec![Jwk::generate().unwrap()],
        };
        let v = Verifier::new(&set).unwrap();
        let header = serde_json::json!({"alg": "EdDSA", "kid": set.keys[0].kid});
        // The raw signer agrees with the library's: a plain token verifies.
        assert!(
            v.verify(&raw_token(
                &set,
                header.clone(),
                claims_json(serde_json::json!({}))
            ))
            .is_ok()
        );
        let future = raw_token(
            &set,
            header.clone(),
            claims_json(serde_json::json!({"nbf": now() + 3600})),
        );
        let e = v.verify(&future).unwrap_err().0;
        assert!(e.contains("not valid yet") && e.contains("nbf"), "{e}");
        // Within the leeway a clock slightly ahead of ours is tolerated, as for exp.
        let near = raw_token(
            &set,
            header.clone(),
            claims_json(serde_json::json!({"nbf": now() + LEEWAY_SECONDS / 2})),
        );
        assert!(v.verify(&near).is_ok());
        let unreadable = raw_token(
            &set,
            header,
            claims_json(serde_json::json!({"nbf": "tomorrow"})),
        );
        let e = v.verify(&unreadable).unwrap_err().0;
        assert!(e.contains("nbf"), "{e}");
    }

    #[test]
    fn a_critical_header_extension_is_refused() {
        let set = KeySet {
            keys: vec![Jwk::generate().unwrap()],
        };
        let v = Verifier::new(&set).unwrap();
        let t = raw_token(
            &set,
            serde_json::json!({"alg": "EdDSA", "kid": set.keys[0].kid, "crit": ["exp-v2"], "exp-v2": 1}),
            claims_json(serde_json::json!({})),
        );
        let e = v.verify(&t).unwrap_err().0;
        assert!(e.contains("crit") && e.contains("exp-v2"), "{e}");
    }

    #[test]
    fn an_unknown_role_is_refused_naming_every_role() {
        let set = KeySet {
            keys: vec![Jwk::generate().unwrap()],
        };
        let v = Verifier::new(&set).unwrap();
        let header = serde_json::json!({"alg": "EdDSA", "kid": set.keys[0].kid});
        for bad in ["root", "public"] {
            let t = raw_token(
                &set,
                header.clone(),
                claims_json(serde_json::json!({"role": bad})),
            );
            let e = v.verify(&t).unwrap_err().0;
            for r in Role::TOKEN_ROLES {
                assert!(e.contains(r.as_str()), "{r}: {e}");
            }
        }
    }

    #[test]
    fn a_verified_token_is_remembered_but_a_changed_one_is_checked() {
        let set = KeySet {
            keys: vec![Jwk::generate().unwrap()],
        };
        let v = Verifier::new(&set).unwrap();
        let t = set.issue(&claims(now() + 60), None).unwrap();
        let first = v.verify(&t).unwrap();
        assert_eq!(v.verified.lock().unwrap().len(), 1);
        assert_eq!(v.verify(&t).unwrap(), first);
        // The same token with its signature's last character changed is not the cached one.
        let mut tampered = t.clone();
        let last = tampered.pop().unwrap();
        tampered.push(if last == 'A' { 'B' } else { 'A' });
        assert!(v.verify(&tampered).is_err());
        assert_eq!(v.verified.lock().unwrap().len(), 1);
    }
}
