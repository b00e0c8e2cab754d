//! Sign-in through an OpenID Connect issuer (the authorization-code flow with PKCE, OpenID
//! Connect Core 3.1 and RFC 7636), beside the one-time links.
//!
//! The console sends the browser to the issuer with a fresh `state`, `nonce` and PKCE
//! challenge; the issuer sends it back with a code; the console exchanges the code at the
//! issuer's token endpoint and checks the ID token (signature by the issuer's JWKS, issuer,
//! audience = the client id, expiry, nonce). Its claims are read by the rule every token is
//! read by (`sub`, `role`, `tournaments`, `entry`), and the session opens as a link's does.
//! `state` is single use, lives ten minutes, and must come back in the browser that started
//! the sign-in (a cookie binds it), so a sign-in cannot be started in one browser and
//! finished in another's.

use arbiter_auth::verify::Oidc;
use base64::Engine as _;
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use sha2::Digest as _;
use std::time::Duration;

/// The path the issuer sends the browser back to (registered with the issuer).
pub const CALLBACK_PATH: &str = "/console/oidc/callback";
/// Where a sign-in through the issuer starts.
pub const START_PATH: &str = "/console/oidc/start";
/// How long a started sign-in may take at the issuer.
pub const PENDING_LIFETIME: Duration = Duration::from_secs(600);
/// The cookie binding a started sign-in to its browser.
pub const STATE_COOKIE: &str = "arbiter_oidc";

/// What the console needs of an OpenID Connect issuer.
pub struct OidcLogin {
    pub issuer: String,
    pub client_id: String,
    /// A confidential client's secret (sent in the token request's body); `None`: a public
    /// client, which PKCE protects.
    pub client_secret: Option<String>,
    /// `{console URL}/console/oidc/callback`, as registered with the issuer.
    pub redirect_url: String,
    pub authorization_endpoint: String,
    pub token_endpoint: String,
    /// The issuer's keys, checking ID tokens for this client.
    pub id_tokens: Oidc,
}

/// A sign-in sent to the issuer and not yet back.
#[derive(Debug, Clone)]
pub struct Pending {
    pub nonce: String,
    pub verifier: String,
    /// Unix seconds.
    pub expires: u64,
}

/// 32 random bytes, base64url without padding (a `state`, `nonce` or PKCE verifier).
pub fn random_token() -> String {
    let mut b = [0u8; 32];
    getrandom::fill(&mut b).expect("the operating system's randomness");
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(b)
}

/// The PKCE S256 challenge of `verifier` (RFC 7636 4.2).
pub fn challenge(verifier: &str) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(sha2::Sha256::digest(verifier))
}

impl OidcLogin {
    /// Reads the issuer's discovery document (`{issuer}/.well-known/openid-configuration`)
    /// for its endpoints; `jwks` is the issuer's key set as the server already read it.
    pub async fn discover(
        issuer: &str,
        client_id: &str,
        client_secret: Option<String>,
        console_url: &str,
        jwks: &str,
    ) -> Result<OidcLogin, String> {
        let url = format!(
            "{}/.well-known/openid-configuration",
            issuer.trim_end_matches('/')
        );
        let doc: serde_json::Value = serde_json::from_slice(&get(&url).await?)
            .map_err(|e| format!("{url}: not a discovery document: {e}"))?;
        let field = |k: &str| {
            doc.get(k)
                .and_then(|v| v.as_str())
                .map(str::to_string)
                .ok_or_else(|| format!("{url}: no {k:?}"))
        };
        if field("issuer")? != issuer {
            return Err(format!(
                "{url}: its issuer {:?} is not {issuer:?} (OpenID Connect Discovery 4.3)",
                field("issuer")?
            ));
        }
        Ok(OidcLogin {
            issuer: issuer.to_string(),
            client_id: client_id.to_string(),
            client_secret,
            redirect_url: format!("{}{CALLBACK_PATH}", console_url.trim_end_matches('/')),
            authorization_endpoint: field("authorization_endpoint")?,
            token_endpoint: field("token_endpoint")?,
            id_tokens: Oidc::from_jwks(issuer, client_id, jwks)?,
        })
    }

    /// The issuer's address the browser is sent to.
    pub fn authorization_url(&self, state: &str, nonce: &str, verifier: &str) -> String {
        let query = serde_urlencoded::to_string([
            ("response_type", "code"),
            ("client_id", self.client_id.as_str()),
            ("redirect_uri", self.redirect_url.as_str()),
            ("scope", "openid profile"),
            ("state", state),
            ("nonce", nonce),
            ("code_challenge", challenge(verifier).as_str()),
            ("code_challenge_method", "S256"),
        ])
        .expect("strings encode");
        let sep = if self.authorization_endpoint.contains('?') {
            '&'
        } else {
            '?'
        };
        format!("{}{sep}{query}", self.authorization_endpoint)
    }

    /// Exchanges the code for the ID token and checks it: who signed in.
    pub async fn finish(
        &self,
        code: &str,
        pending: &Pending,
    ) -> Result<arbiter_auth::Principal, String> {
        let mut form = vec![
            ("grant_type", "authorization_code"),
            ("code", code),
            ("redirect_uri", self.redirect_url.as_str()),
            ("client_id", self.client_id.as_str()),
            ("code_verifier", pending.verifier.as_str()),
        ];
        if let Some(secret) = &self.client_secret {
            form.push(("client_secret", secret.as_str()));
        }
        let body = serde_urlencoded::to_string(&form).expect("strings encode");
        let answer = post_form(&self.token_endpoint, body).await?;
        let json: serde_json::Value = serde_json::from_slice(&answer)
            .map_err(|e| format!("the issuer's token answer is not JSON: {e}"))?;
        if let Some(e) = json.get("error").and_then(|e| e.as_str()) {
            let said = json
                .get("error_description")
                .and_then(|d| d.as_str())
                .unwrap_or_default();
            return Err(format!("the issuer refused the code: {e} {said}"));
        }
        let id_token = json
            .get("id_token")
            .and_then(|t| t.as_str())
            .ok_or("the issuer's token answer has no id_token")?;
        self.id_tokens
            .verify_id_token(id_token, &pending.nonce)
            .map_err(|e| e.0)
    }
}

type Client = hyper_util::client::legacy::Client<
    hyper_rustls::HttpsConnector<hyper_util::client::legacy::connect::HttpConnector>,
    Full<Bytes>,
>;

fn client() -> Result<Client, String> {
    let https = hyper_rustls::HttpsConnectorBuilder::new()
        .with_native_roots()
        .map_err(|e| format!("the system's certificate roots: {e}"))?
        .https_or_http()
        .enable_http1()
        .build();
    Ok(
        hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new())
            .build(https),
    )
}

async fn send(request: hyper::Request<Full<Bytes>>) -> Result<Vec<u8>, String> {
    let url = request.uri().to_string();
    let response = tokio::time::timeout(Duration::from_secs(10), client()?.request(request))
        .await
        .map_err(|_| format!("{url}: no answer within 10 s"))?
        .map_err(|e| format!("{url}: {e}"))?;
    let status = response.status();
    let body = tokio::time::timeout(Duration::from_secs(10), response.into_body().collect())
        .await
        .map_err(|_| format!("{url}: the answer did not arrive within 10 s"))?
        .map_err(|e| format!("{url}: {e}"))?
        .to_bytes();
    // A token endpoint answers an error as JSON with 400: the caller reads it.
    if !status.is_success() && status != hyper::StatusCode::BAD_REQUEST {
        return Err(format!("{url}: answered {status}"));
    }
    Ok(body.to_vec())
}

async fn get(url: &str) -> Result<Vec<u8>, String> {
    let request = hyper::Request::get(url)
        .header("accept", "application/json")
        .body(Full::new(Bytes::new()))
        .map_err(|e| format!("{url}: {e}"))?;
    send(request).await
}

async fn post_form(url: &str, body: String) -> Result<Vec<u8>, String> {
    let request = hyper::Request::post(url)
        .header("content-type", "application/x-www-form-urlencoded")
        .header("accept", "application/json")
        .body(Full::new(Bytes::from(body)))
        .map_err(|e| format!("{url}: {e}"))?;
    send(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pkce_challenge_is_rfc_7636s() {
        // RFC 7636 Appendix B.
        assert_eq!(
            challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
        let a = random_token();
        assert_eq!(a.len(), 43);
        assert_ne!(a, random_token());
    }
}
