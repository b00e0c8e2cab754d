//! One connection per service, each call sending the token and the command id, and the
//! reads that name players.

use super::*;

/// A player as a command request names him.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WirePlayer {
    pub entry: u32,
    pub player_id: u32,
    pub numbering_version: Option<u64>,
}

/// Clients of the services.
pub struct Clients {
    pub registration: RegistrationClient<Authed>,
    pub director: RoundDirectorClient<Authed>,
    pub reporting: ReportingClient<Authed>,
    pub screening: ScreeningClient<Authed>,
    command_id: Option<String>,
}

/// A channel whose calls carry the bearer token.
pub type Authed = WithToken<Channel>;

pub(super) fn channel(url: &str) -> Result<Channel, Exit> {
    let url = &with_scheme(url);
    // TCP_NODELAY and HTTP/2 keep-alive: see arbiter_service_kit::net.
    Ok(arbiter_service_kit::net::endpoint(url)
        .map_err(|e| Exit::Invalid(format!("server address {url:?}: {e}")))?
        .connect_timeout(Duration::from_secs(5))
        .connect_lazy())
}

/// `HOST:PORT` as `http://HOST:PORT` (the address `arbiter serve` prints is plain HTTP/2);
/// an address with a scheme as given.
pub(super) fn with_scheme(url: &str) -> String {
    if url.contains("://") {
        url.to_string()
    } else {
        format!("http://{url}")
    }
}

impl Clients {
    /// Clients of the services at `c` (connected on first use).
    pub fn connect(c: &Connection, command_id: Option<String>) -> Result<Clients, Exit> {
        let url = |o: &Option<String>| o.clone().unwrap_or_else(|| c.server.clone());
        let token = client_token(c.token.as_deref(), &c.data)?;
        let authed = |url: &str| {
            WithToken::new(channel(url)?, token.as_deref())
                .map_err(|e| Exit::Invalid(format!("--token: {e}")))
        };
        Ok(Clients {
            registration: RegistrationClient::new(authed(&url(&c.registration))?),
            director: RoundDirectorClient::new(authed(&url(&c.director))?),
            reporting: ReportingClient::new(authed(&url(&c.reporting))?),
            screening: ScreeningClient::new(authed(&url(&c.screening))?)
                .max_encoding_message_size(arbiter_service_kit::edge::MAX_ROUND_PGN_BYTES + 4096),
            command_id,
        })
    }

    /// A command header for `tournament`.
    pub fn header(&self, tournament: &str) -> Option<CommandHeader> {
        Some(CommandHeader {
            tournament_id: tournament.to_string(),
            command_id: self.command_id.clone().unwrap_or_default(),
            expected_version: None,
            actor: "arbiter-client".into(),
        })
    }

    pub(super) fn tref(tournament: &str) -> Option<TournamentRef> {
        Some(TournamentRef {
            tournament_id: tournament.to_string(),
            as_of_version: 0,
        })
    }

    /// Player names by pairing number.
    pub async fn names(&mut self, tournament: &str) -> Result<BTreeMap<u32, String>, Exit> {
        let players = self.players(tournament).await?;
        Ok(players
            .players
            .into_iter()
            .filter_map(|r| Some((r.pairing_number, r.player?.name)))
            .collect())
    }

    /// The player list (with its numbering version).
    pub async fn players(&mut self, tournament: &str) -> Result<reg::ListPlayersResponse, Exit> {
        let req = reg::ListPlayersRequest {
            tournament: Self::tref(tournament),
        };
        call("players", self.registration.list_players(req)).await
    }

    /// How a command names `player`: an entry number as it is; a pairing number with the
    /// numbering it was read from (`--as-of`, else the list read now), so that the server
    /// refuses it if a registration gave the number to another player since.
    pub async fn player_ref(
        &mut self,
        tournament: &str,
        player: PlayerArg,
        as_of: AsOf,
    ) -> Result<WirePlayer, Exit> {
        Ok(match player {
            PlayerArg::Entry(entry) => WirePlayer {
                entry,
                player_id: 0,
                numbering_version: None,
            },
            PlayerArg::Number(player_id) => WirePlayer {
                entry: 0,
                player_id,
                numbering_version: Some(match as_of.as_of {
                    Some(v) => v,
                    None => self.players(tournament).await?.version,
                }),
            },
        })
    }
}
