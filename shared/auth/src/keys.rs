//! The deployment's token keys: a JWK set (RFC 7517) of Ed25519 keys (`kty` OKP, `crv`
//! Ed25519). The private part (`d`) is only in the file given to processes that issue tokens;
//! a set without it verifies. The key id is the key's RFC 7638 thumbprint. Rotation: add a key
//! ([`KeySet::add_generated`]); tokens name their key by `kid`, so the old key keeps verifying
//! the tokens it signed until it is removed; the last key of the set signs new tokens.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header};
use serde::{Deserialize, Serialize};
use sha2::Digest as _;
use std::path::Path;

/// The file of the embedded default, in the data folder.
pub const KEYS_FILE: &str = "token-keys.json";

/// One key of the set, as a JWK.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Jwk {
    pub kty: String,
    pub crv: String,
    pub kid: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alg: Option<String>,
    #[serde(rename = "use", default, skip_serializing_if = "Option::is_none")]
    pub use_: Option<String>,
    /// The public key (base64url, 32 bytes).
    pub x: String,
    /// The private key's seed (base64url, 32 bytes); absent in a verifier's copy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub d: Option<String>,
}

/// A JWK set of Ed25519 keys.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct KeySet {
    pub keys: Vec<Jwk>,
}

/// RFC 7638 thumbprint of an Ed25519 public key (base64url).
fn thumbprint(x: &str) -> String {
    let canonical = format!(r#"{{"crv":"Ed25519","kty":"OKP","x":"{x}"}}"#);
    B64.encode(sha2::Sha256::digest(canonical.as_bytes()))
}

/// PKCS#8 v1 wrapping of an Ed25519 seed (RFC 8410), what the signer takes.
fn pkcs8(seed: &[u8; 32]) -> Vec<u8> {
    const PREFIX: [u8; 16] = [
        0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04,
        0x20,
    ];
    let mut der = PREFIX.to_vec();
    der.extend_from_slice(seed);
    der
}

fn decode32(what: &str, kid: &str, s: &str) -> Result<[u8; 32], String> {
    let bytes = B64
        .decode(s.trim_end_matches('='))
        .map_err(|e| format!("key {kid:?}: {what} is not base64url: {e}"))?;
    bytes
        .try_into()
        .map_err(|b: Vec<u8>| format!("key {kid:?}: {what} has {} bytes, not 32", b.len()))
}

impl Jwk {
    /// A new Ed25519 key pair.
    pub fn generate() -> Result<Jwk, String> {
        let mut seed = [0u8; 32];
        getrandom::fill(&mut seed).map_err(|e| format!("no randomness for a new key: {e}"))?;
        let public = ed25519_dalek::SigningKey::from_bytes(&seed)
            .verifying_key()
            .to_bytes();
        let x = B64.encode(public);
        Ok(Jwk {
            kty: "OKP".into(),
            crv: "Ed25519".into(),
            kid: thumbprint(&x),
            alg: Some("EdDSA".into()),
            use_: Some("sig".into()),
            x,
            d: Some(B64.encode(seed)),
        })
    }

    fn check(&self) -> Result<(), String> {
        if self.kty != "OKP" || self.crv != "Ed25519" {
            return Err(format!(
                "key {:?}: kty {:?} crv {:?}; only Ed25519 keys (kty OKP, crv Ed25519) sign the \
                 deployment's tokens",
                self.kid, self.kty, self.crv
            ));
        }
        if self.kid.trim().is_empty() {
            return Err("a key without kid".into());
        }
        let public = decode32("x", &self.kid, &self.x)?;
        if let Some(d) = &self.d {
            let seed = decode32("d", &self.kid, d)?;
            let derived = ed25519_dalek::SigningKey::from_bytes(&seed)
                .verifying_key()
                .to_bytes();
            if derived != public {
                return Err(format!(
                    "key {:?}: d does not belong to x (the private and public parts differ)",
                    self.kid
                ));
            }
        }
        Ok(())
    }

    pub fn decoding_key(&self) -> Result<DecodingKey, String> {
        DecodingKey::from_ed_components(&self.x).map_err(|e| format!("key {:?}: {e}", self.kid))
    }
}

impl KeySet {
    /// Parses and checks a key set (every key Ed25519, private parts matching public ones, ids
    /// unique).
    pub fn parse(text: &str) -> Result<KeySet, String> {
        let set: KeySet = serde_json::from_str(text)
            .map_err(|e| format!("not a JWK set ({{\"keys\": [...]}}): {e}"))?;
        if set.keys.is_empty() {
            return Err("the key set has no key".into());
        }
        let mut seen = std::collections::HashSet::new();
        for k in &set.keys {
            k.check()?;
            if !seen.insert(k.kid.as_str()) {
                return Err(format!("key id {:?} appears twice", k.kid));
            }
        }
        Ok(set)
    }

    /// Reads the key set in `path`.
    pub fn load(path: &Path) -> Result<KeySet, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("token keys {}: {e}", path.display()))?;
        KeySet::parse(&text).map_err(|e| format!("token keys {}: {e}", path.display()))
    }

    /// Reads the key set in `path`, or creates it with one new key (mode 0600). True when it
    /// was created.
    pub fn load_or_create(path: &Path) -> Result<(KeySet, bool), String> {
        if path.exists() {
            return Ok((KeySet::load(path)?, false));
        }
        let set = KeySet {
            keys: vec![Jwk::generate()?],
        };
        write_private(path, &set.to_json(), true)?;
        Ok((set, true))
    }

    /// Adds a new key, which signs from now on.
    pub fn add_generated(&mut self) -> Result<&Jwk, String> {
        self.keys.push(Jwk::generate()?);
        Ok(self.keys.last().expect("just pushed"))
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a key set serializes") + "\n"
    }

    /// The set without private parts, for verifiers.
    pub fn public(&self) -> KeySet {
        KeySet {
            keys: self
                .keys
                .iter()
                .map(|k| Jwk {
                    d: None,
                    ..k.clone()
                })
                .collect(),
        }
    }

    /// The key that signs: `kid`, else the last key with a private part.
    pub fn signing_key(&self, kid: Option<&str>) -> Result<&Jwk, String> {
        let key =
            match kid {
                Some(kid) => self.keys.iter().find(|k| k.kid == kid).ok_or_else(|| {
                    format!(
                        "no key {kid:?} in the set (its keys: {})",
                        self.keys
                            .iter()
                            .map(|k| k.kid.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                })?,
                None => self.keys.iter().rev().find(|k| k.d.is_some()).ok_or(
                    "the key set has no private key: it can verify tokens, not issue them",
                )?,
            };
        if key.d.is_none() {
            return Err(format!("key {:?} has no private part (d)", key.kid));
        }
        Ok(key)
    }

    /// Signs `claims` (normally [`crate::Claims`]) with [`KeySet::signing_key`].
    pub fn issue<C: Serialize>(&self, claims: &C, kid: Option<&str>) -> Result<String, String> {
        let key = self.signing_key(kid)?;
        let seed = decode32("d", &key.kid, key.d.as_deref().unwrap_or_default())?;
        let mut header = Header::new(Algorithm::EdDSA);
        header.kid = Some(key.kid.clone());
        jsonwebtoken::encode(&header, claims, &EncodingKey::from_ed_der(&pkcs8(&seed)))
            .map_err(|e| format!("signing the token: {e}"))
    }
}

/// Writes `text` to `path` readable by its owner only (0600). `new`: the file must not exist.
pub fn write_private(path: &Path, text: &str, new: bool) -> Result<(), String> {
    use std::io::Write as _;
    let mut options = std::fs::OpenOptions::new();
    options.write(true);
    if new {
        options.create_new(true);
    } else {
        options.create(true).truncate(true);
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let write = || -> std::io::Result<()> {
        let mut f = options.open(path)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()
    };
    write().map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_set_round_trips_and_hides_private_parts() {
        let mut set = KeySet {
            keys: vec![Jwk::generate().unwrap()],
        };
        set.add_generated().unwrap();
        let parsed = KeySet::parse(&set.to_json()).unwrap();
        assert_eq!(parsed, set);
        assert_eq!(set.signing_key(None).unwrap().kid, set.keys[1].kid);
        let public = set.public();
        assert!(public.keys.iter().all(|k| k.d.is_none()));
        assert!(public.signing_key(None).is_err());
        assert_eq!(KeySet::parse(&public.to_json()).unwrap(), public);
    }

    #[test]
    fn damaged_sets_are_named() {
        let mut set = KeySet {
            keys: vec![Jwk::generate().unwrap(), Jwk::generate().unwrap()],
        };
        set.keys[0].d = set.keys[1].d.clone();
        let e = KeySet::parse(&set.to_json()).unwrap_err();
        assert!(e.contains("does not belong"), "{e}");
        assert!(
            KeySet::parse(r#"{"keys": []}"#)
                .unwrap_err()
                .contains("no key")
        );
        assert!(KeySet::parse("[1]").unwrap_err().contains("not a JWK set"));
    }
}
