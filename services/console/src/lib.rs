//! The arbiter's web console, at `/console/` on the HTTP port: create a tournament, register
//! players (one at a time or pasted from a spreadsheet), cancel a registration, start, review
//! and publish each round (with changes by hand, which the round director checks), enter and
//! correct results from the keyboard, close rounds, finish, and read the standings and the
//! event log with each event's actor.
//!
//! - Sign-in: a one-time link (`arbiter console-link`, or the first start of `arbiter serve`)
//!   opens a session ([`session`]); the session's subject is the actor of every event.
//! - Every action is a gRPC call to the services with the session's own bearer token: the
//!   services authorize it by the one rule every client meets (`Principal::authorize`), and the
//!   console only uses the same rule to decide which screens to show.
//! - Pages are rendered on the server with maud (every value escaped by construction) and work
//!   without JavaScript; `assets/console.js` adds keyboard entry focus and live refresh from the
//!   public event stream. Nothing is fetched from elsewhere: the CSS and script are in the binary.

mod paste;
pub mod session;
mod screens;
mod views;

use arbiter_auth::client::WithToken;
use arbiter_auth::keys::KeySet;
use arbiter_proto::registration::v1::registration_client::RegistrationClient;
use arbiter_proto::reporting::v1::reporting_client::ReportingClient;
use arbiter_proto::round_director::v1::round_director_client::RoundDirectorClient;
use session::Sessions;
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tonic::transport::Channel;

/// Where the console sends its gRPC calls: set once the address is known (the process's own
/// gRPC port after binding, or a gateway's).
#[derive(Clone, Default)]
pub struct Upstream(Arc<OnceLock<Channel>>);

impl Upstream {
    /// Points the console at `url` (e.g. `http://127.0.0.1:50051`); only the first call counts.
    pub fn set(&self, url: &str) -> Result<(), String> {
        let channel = Channel::from_shared(url.to_string())
            .map_err(|e| format!("the console's gRPC address {url:?}: {e}"))?
            .connect_timeout(Duration::from_secs(5))
            .timeout(Duration::from_secs(60))
            .connect_lazy();
        let _ = self.0.set(channel);
        Ok(())
    }

    fn channel(&self) -> Option<Channel> {
        self.0.get().cloned()
    }
}

/// What the console is built from.
pub struct Config {
    /// The deployment's token keys, with a private key (sessions' tokens are signed with it).
    pub keys: KeySet,
    pub upstream: Upstream,
    /// Cookies marked `Secure` (the console is served behind TLS).
    pub secure_cookies: bool,
}

type Authed = WithToken<Channel>;

/// The gRPC clients of one session.
pub(crate) struct Clients {
    pub reg: RegistrationClient<Authed>,
    pub rd: RoundDirectorClient<Authed>,
    pub rep: ReportingClient<Authed>,
}

pub(crate) struct Console {
    pub sessions: Sessions,
    pub upstream: Upstream,
    pub secure_cookies: bool,
}

impl Console {
    pub(crate) fn clients(&self, bearer: &str) -> Result<Clients, String> {
        let ch = self
            .upstream
            .channel()
            .ok_or("the console has no gRPC address yet")?;
        let authed = WithToken::new(ch, Some(bearer))?;
        Ok(Clients {
            reg: RegistrationClient::new(authed.clone()),
            rd: RoundDirectorClient::new(authed.clone()),
            rep: ReportingClient::new(authed),
        })
    }
}

/// The console's routes, all under `/console/`.
pub fn router(config: Config) -> Result<axum::Router, String> {
    let console = Arc::new(Console {
        sessions: Sessions::new(config.keys)?,
        upstream: config.upstream,
        secure_cookies: config.secure_cookies,
    });
    Ok(screens::routes().with_state(console))
}

/// The path a sign-in link opens (the server's base URL goes in front).
pub fn link_path(token: &str) -> String {
    format!("/console/sign-in?link={token}")
}
