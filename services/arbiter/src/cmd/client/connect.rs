//! One connection per service, each call sending the token and the command id.

use super::*;

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
    // TCP_NODELAY and HTTP/2 keep-alive: see arbiter_service_kit::net.
    Ok(arbiter_service_kit::net::endpoint(url)
        .map_err(|e| Exit::Invalid(format!("server address {url:?}: {e}")))?
        .connect_timeout(Duration::from_secs(5))
        .connect_lazy())
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
        let players = self
            .registration
            .list_players(reg::ListPlayersRequest {
                tournament: Self::tref(tournament),
            })
            .await
            .map_err(|s| status_exit("players", &s))?
            .into_inner();
        Ok(players
            .players
            .into_iter()
            .filter_map(|p| p.player.map(|p| (p.player_id, p.name)))
            .collect())
    }

    /// Waits up to `wait` for a proposal (or a publication) of `round`.
    pub async fn wait_for_pairing(
        &mut self,
        tournament: &str,
        round: u32,
        wait: Duration,
    ) -> Result<rep::RoundPairings, Exit> {
        let deadline = Instant::now() + wait;
        loop {
            match self
                .reporting
                .get_pairings(rep::GetPairingsRequest {
                    tournament: Self::tref(tournament),
                    round,
                })
                .await
            {
                Ok(p) => return Ok(p.into_inner()),
                Err(s) if s.code() == tonic::Code::NotFound && Instant::now() < deadline => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
                Err(s) if s.code() == tonic::Code::NotFound => {
                    return Err(Exit::Differs(format!(
                        "tournament {tournament}: no proposal for round {round} after {wait:?} \
                         (is a pairing worker running? did the pairing fail?)"
                    )));
                }
                Err(s) => return Err(status_exit("pairings", &s)),
            }
        }
    }

    /// The player list (with its numbering version).
    pub async fn players(&mut self, tournament: &str) -> Result<reg::ListPlayersResponse, Exit> {
        Ok(self
            .registration
            .list_players(reg::ListPlayersRequest {
                tournament: Self::tref(tournament),
            })
            .await
            .map_err(|s| status_exit("players", &s))?
            .into_inner())
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

    pub async fn update(
        &mut self,
        tournament: &str,
        update: pb::TournamentUpdated,
    ) -> Result<CommandResult, Exit> {
        Ok(self
            .registration
            .update_tournament(reg::UpdateTournamentRequest {
                header: self.header(tournament),
                update: Some(update),
            })
            .await
            .map_err(|s| status_exit("update", &s))?
            .into_inner())
    }

    /// Publishes the arbiter's own pairing of `round`: boards "W-B" in board order and the
    /// pairing-allocated bye, players by pairing number (read as of `as_of`, else now) or by
    /// entry (translated with the list read now, and its version sent with them).
    pub async fn publish_amended(
        &mut self,
        tournament: &str,
        round: u32,
        boards: &[String],
        bye: Option<PlayerArg>,
        note: String,
        as_of: AsOf,
    ) -> Result<CommandResult, Exit> {
        let list = self.players(tournament).await?;
        let by_entry: BTreeMap<u32, u32> = list
            .players
            .iter()
            .filter_map(|p| p.player.as_ref().map(|pl| (p.entry, pl.player_id)))
            .collect();
        let uses_entries = boards.iter().any(|b| b.contains(['E', 'e']))
            || matches!(bye, Some(PlayerArg::Entry(_)));
        if uses_entries && as_of.as_of.is_some() {
            return Err(Exit::Invalid(
                "--as-of: give pairing numbers only, or entry numbers without --as-of".into(),
            ));
        }
        let number = |p: PlayerArg| -> Result<u32, Exit> {
            match p {
                PlayerArg::Number(n) => Ok(n),
                PlayerArg::Entry(e) => by_entry
                    .get(&e)
                    .copied()
                    .ok_or_else(|| Exit::Invalid(format!("E{e}: no player has this entry number"))),
            }
        };
        let mut wire = Vec::with_capacity(boards.len());
        for (i, b) in boards.iter().enumerate() {
            let (w, bl) = b.split_once('-').ok_or_else(|| {
                Exit::Invalid(format!("--board {b:?}: White-Black, e.g. 12-5 or E3-E9"))
            })?;
            let parse = |t: &str| -> Result<PlayerArg, Exit> {
                t.parse::<PlayerArg>()
                    .map_err(|e| Exit::Invalid(format!("--board {b:?}: {e}")))
            };
            wire.push(pb::Board {
                number: i as u32 + 1,
                white: number(parse(w)?)?,
                black: number(parse(bl)?)?,
            });
        }
        let unpaired = match bye {
            None => Vec::new(),
            Some(p) => vec![pb::Unpaired {
                player_id: number(p)?,
                code: pb::ResultCode::PairingBye as i32,
            }],
        };
        Ok(self
            .director
            .publish_pairing(rd::PublishPairingRequest {
                header: self.header(tournament),
                round,
                proposal_version: 0,
                boards: wire,
                unpaired,
                note,
                by_entry: false,
                numbering_version: Some(as_of.as_of.unwrap_or(list.version)),
                team_bye: 0,
                team_matches: Vec::new(),
            })
            .await
            .map_err(|s| status_exit("publish", &s))?
            .into_inner())
    }

    pub async fn start_round(
        &mut self,
        tournament: &str,
        round: u32,
    ) -> Result<CommandResult, Exit> {
        Ok(self
            .director
            .start_round(rd::StartRoundRequest {
                header: self.header(tournament),
                round,
                scheduled_unix_ms: 0,
            })
            .await
            .map_err(|s| status_exit("start-round", &s))?
            .into_inner())
    }

    pub async fn publish(&mut self, tournament: &str, round: u32) -> Result<CommandResult, Exit> {
        Ok(self
            .director
            .publish_pairing(rd::PublishPairingRequest {
                header: self.header(tournament),
                round,
                proposal_version: 0,
                boards: Vec::new(),
                unpaired: Vec::new(),
                note: String::new(),
                ..Default::default()
            })
            .await
            .map_err(|s| status_exit("publish", &s))?
            .into_inner())
    }

    pub async fn result(
        &mut self,
        tournament: &str,
        round: u32,
        board: u32,
        result: BoardResult,
    ) -> Result<CommandResult, Exit> {
        let (r, w, b) = board_result_to_wire(result);
        Ok(self
            .director
            .record_result(rd::RecordResultRequest {
                header: self.header(tournament),
                round,
                board,
                result: r as i32,
                white_code: w,
                black_code: b,
            })
            .await
            .map_err(|s| status_exit("result", &s))?
            .into_inner())
    }

    pub async fn close(&mut self, tournament: &str, round: u32) -> Result<CommandResult, Exit> {
        Ok(self
            .director
            .close_round(rd::CloseRoundRequest {
                header: self.header(tournament),
                round,
            })
            .await
            .map_err(|s| status_exit("close", &s))?
            .into_inner())
    }

    pub async fn standings(&mut self, tournament: &str, after_round: u32) -> Result<String, Exit> {
        let s = self
            .reporting
            .get_standings(rep::GetStandingsRequest {
                tournament: Self::tref(tournament),
                after_round,
            })
            .await
            .map_err(|s| status_exit("standings", &s))?
            .into_inner();
        Ok(standings_text(&s))
    }
}
