//! What every arbiter service is built on, so that no service crate depends on another:
//!
//! - [`store`]: the event-sourced tournament store (fold a stream, run a command, follow the
//!   log, checkpoints and snapshots).
//! - [`edge`]: request validation at the gRPC edge; [`status`]: refusals and failures as gRPC
//!   statuses; [`players`]: players named by entry or pairing number.
//! - [`net`]: socket and HTTP/2 settings of every listener and client; [`http`]: the HTTP
//!   port's edge (authentication, limits, security headers, error shapes, connection caps).
//! - [`host`]: the runner. A service registers its gRPC services, followers and HTTP router
//!   with a [`Host`]; the host serves them with health, reflection and one graceful drain.

pub mod background;
pub mod edge;
pub mod host;
pub mod http;
pub mod net;
pub mod players;
pub mod redact;
pub mod status;
pub mod store;
pub mod trigger;

pub use host::Host;
