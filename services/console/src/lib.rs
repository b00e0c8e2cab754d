//! The arbiter's web console, at `/console/` on the HTTP port: create a tournament, register
//! players (one at a time or pasted from a spreadsheet), cancel a registration, start, review
//! and publish each round (with changes by hand, which the round director checks), enter and
//! correct results from the keyboard, close rounds, finish, and read the standings and the
//! event log with each event's actor.
//!
//! - Sign-in: a one-time link (`arbiter console-link`, or the first start of `arbiter serve`)
//!   opens a session ([`session`]), or, with an OpenID Connect issuer configured, the issuer's
//!   authorization-code sign-in ([`oidc`]); the session's subject is the actor of every event.
//! - Every action is a gRPC call to the services with the session's own bearer token: the
//!   services authorize it by the one rule every client meets (`Principal::authorize`), and the
//!   console only uses the same rule to decide which screens to show.
//! - Pages are rendered on the server with maud (every value escaped by construction) and work
//!   without JavaScript; `assets/console.js` adds keyboard entry focus and live refresh from the
//!   public event stream. Nothing is fetched from elsewhere: the CSS and script are in the binary.

pub mod i18n;
mod oidc;
mod paste;
mod prize_list;
mod screens;
pub mod session;
mod views;

use arbiter_auth::client::WithToken;
use arbiter_auth::keys::KeySet;
use arbiter_proto::pairing_worker::v1::pairing_worker_client::PairingWorkerClient;
use arbiter_proto::rating_worker::v1::rating_worker_client::RatingWorkerClient;
use arbiter_proto::registration::v1::registration_client::RegistrationClient;
use arbiter_proto::reporting::v1::reporting_client::ReportingClient;
use arbiter_proto::round_director::v1::round_director_client::RoundDirectorClient;
use arbiter_service_kit::Host;
use oidc::OidcLogin;
use session::Sessions;
use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tonic::transport::Channel;

/// Where the console sends its gRPC calls: a given address, or this process's own gRPC port
/// once bound. The channel is made on first use.
struct Upstream {
    address: Address,
    channel: OnceLock<Channel>,
}

enum Address {
    Given(String),
    Own(Arc<OnceLock<SocketAddr>>),
}

impl Upstream {
    fn channel(&self) -> Result<Channel, String> {
        if let Some(c) = self.channel.get() {
            return Ok(c.clone());
        }
        let url = match &self.address {
            Address::Given(url) => url.clone(),
            Address::Own(cell) => arbiter_service_kit::net::own_url(
                *cell.get().ok_or("the gRPC port is not bound yet")?,
            ),
        };
        let channel = Channel::from_shared(url.clone())
            .map_err(|e| format!("the console's gRPC address {url:?}: {e}"))?
            .connect_timeout(Duration::from_secs(5))
            .timeout(Duration::from_secs(60))
            .connect_lazy();
        Ok(self.channel.get_or_init(|| channel).clone())
    }
}

/// What the console is built from.
pub struct Config {
    /// The deployment's token keys, with a private key (sessions' tokens are signed with it).
    pub keys: KeySet,
    /// The services' gRPC address (one that serves registration, round director, reporting,
    /// the pairing worker and the rating worker, e.g. a gateway's); `None`: this process's own
    /// gRPC port.
    pub grpc: Option<String>,
    /// Cookies marked `Secure` (the console is served behind TLS).
    pub secure_cookies: bool,
    /// Languages beside the built-in English and Spanish: (language tag, Fluent catalog).
    pub languages: Vec<(String, String)>,
    /// Sign-in through an OpenID Connect issuer too (beside the one-time links): `None`, or
    /// set by [`Config::with_oidc`].
    pub oidc: Option<OidcLogin>,
}

impl Config {
    /// Adds the sign-in through an OpenID Connect issuer: reads its discovery document for its
    /// endpoints (`jwks`: its key set as the server already read it; `console_url`: the
    /// console's address as browsers reach it, to which the issuer sends them back).
    pub async fn with_oidc(
        mut self,
        issuer: &str,
        client_id: &str,
        client_secret: Option<String>,
        console_url: &str,
        jwks: &str,
    ) -> Result<Config, String> {
        self.oidc =
            Some(OidcLogin::discover(issuer, client_id, client_secret, console_url, jwks).await?);
        Ok(self)
    }
}

type Authed = WithToken<Channel>;

/// The gRPC clients of one session.
pub(crate) struct Clients {
    pub reg: RegistrationClient<Authed>,
    pub rd: RoundDirectorClient<Authed>,
    pub rep: ReportingClient<Authed>,
    pub pw: PairingWorkerClient<Authed>,
    pub rw: RatingWorkerClient<Authed>,
}

pub(crate) struct Console {
    pub sessions: Sessions,
    pub upstream: Upstream,
    pub secure_cookies: bool,
    pub oidc: Option<oidc::OidcLogin>,
}

impl Console {
    /// The OpenID Connect issuer one may sign in through, if any.
    pub(crate) fn issuer(&self) -> Option<&str> {
        self.oidc.as_ref().map(|o| o.issuer.as_str())
    }

    pub(crate) fn clients(&self, bearer: &str) -> Result<Clients, String> {
        let ch = self.upstream.channel()?;
        let authed = WithToken::new(ch, Some(bearer))?;
        Ok(Clients {
            reg: RegistrationClient::new(authed.clone()),
            rd: RoundDirectorClient::new(authed.clone()),
            rep: ReportingClient::new(authed.clone()),
            pw: PairingWorkerClient::new(authed.clone()),
            rw: RatingWorkerClient::new(authed),
        })
    }
}

/// Serves the console under `/console/` on the host's HTTP port.
pub fn register(host: &mut Host, config: Config) -> Result<(), String> {
    let address = match config.grpc {
        Some(url) => Address::Given(url),
        None => Address::Own(host.grpc_address()),
    };
    i18n::Catalogs::new(&config.languages)?.install();
    let console = Arc::new(Console {
        sessions: Sessions::new(config.keys)?,
        upstream: Upstream {
            address,
            channel: OnceLock::new(),
        },
        secure_cookies: config.secure_cookies,
        oidc: config.oidc,
    });
    host.http(screens::routes().with_state(console));
    Ok(())
}
