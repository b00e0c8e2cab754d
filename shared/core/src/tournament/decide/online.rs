//! Online and hybrid conduct: the fair-play consent, the games a platform (or an arbiter)
//! submits, and the arbiter's result in place of the platform's.

use super::*;

impl Decider<'_> {
    /// A player's fair-play agreement (E.04 Appendix I J, A.4-A.6): for the
    /// regulations the event names, with every item its format needs, once.
    pub(super) fn record_fair_play_consent(
        &self,
        c: &RecordFairPlayConsent,
    ) -> Result<Vec<Event>, DomainError> {
        let conduct = &self.t.conduct;
        if !conduct.consent_required() {
            return Err(DomainError::ConsentNotRequired {
                format: conduct.format.to_string(),
            });
        }
        self.entry(c.player)?;
        let p = self.s.player(c.player).ok_or(DomainError::UnknownPlayer {
            player: c.player,
            players: self.s.player_count(),
        })?;
        if let Some(w) = &p.withdrawn {
            return Err(DomainError::PlayerWithdrawn {
                player: c.player,
                from_round: w.from_round,
            });
        }
        if let Some(done) = &p.consent {
            return Err(DomainError::ConsentAlreadyRecorded {
                player: c.player,
                regulations_version: done.regulations_version.clone(),
                platform_account: done.platform_account.clone(),
            });
        }
        let version = c.regulations_version.trim();
        if version != conduct.regulations_version {
            return Err(DomainError::invalid(
                "consent.regulations_version",
                format!(
                    "{version:?} is not the event's regulations {:?}: the player must consent to \
                     the regulations in force",
                    conduct.regulations_version
                ),
            ));
        }
        let missing: Vec<&str> = conduct
            .required_items()
            .into_iter()
            .filter(|i| !c.items.contains(i))
            .map(|i| i.describe())
            .collect();
        if !missing.is_empty() {
            return Err(DomainError::invalid(
                "consent.items",
                format!(
                    "this {} event needs consent to {}",
                    conduct.format,
                    missing.join(", ")
                ),
            ));
        }
        let accepted_by = line("consent.accepted_by", &c.accepted_by, true)?;
        let platform_account = line("consent.platform_account", &c.platform_account, false)?;
        if conduct.format.is_online() && platform_account.is_empty() {
            return Err(DomainError::invalid(
                "consent.platform_account",
                format!(
                    "a {} event is played on the player's personal platform account (E.04 9.3): \
                     name it",
                    conduct.format
                ),
            ));
        }
        let mut items = c.items.clone();
        items.sort();
        items.dedup();
        let mut events = vec![Event::FairPlayConsentRecorded(FairPlayConsentRecorded {
            player_id: c.player,
            regulations_version: version.to_string(),
            accepted_by,
            by_guardian: c.by_guardian,
            items,
            platform_account,
        })];
        // A pairing already requested left him out: ask for it again.
        if let Some(r) = self.s.pending_round() {
            events.extend(self.rerequest_if_pending(r));
        }
        Ok(events)
    }

    /// One game per board of a published pairing; its players by registered name; its result
    /// the recorded one when one is recorded (none recorded yet: a platform may send the game
    /// before the arbiter records the result, so it is accepted as it is).
    pub(super) fn submit_game(&self, c: &SubmitGame) -> Result<Vec<Event>, DomainError> {
        let recorded = self.board(c.round, c.board)?;
        if self.s.game_submitted(c.round, c.board) {
            return Err(DomainError::GameAlreadySubmitted {
                round: c.round,
                board: c.board,
            });
        }
        let mismatch = |reason: String| DomainError::GameMismatch {
            round: c.round,
            board: c.board,
            reason,
        };
        if c.pgn.trim().is_empty() {
            return Err(DomainError::invalid("pgn", "empty"));
        }
        let board = self
            .s
            .published(c.round)
            .and_then(|p| p.boards.into_iter().nth(c.board as usize - 1))
            .ok_or(DomainError::RoundNotPublished { round: c.round })?;
        for (side, pn, given) in [
            ("White", board.white, &c.white),
            ("Black", board.black, &c.black),
        ] {
            let name = self
                .s
                .player(pn)
                .map(|p| p.player.name.clone())
                .unwrap_or_default();
            if name.trim() != given.trim() {
                return Err(mismatch(format!(
                    "the PGN's {side} is {given:?}, the board's {} is player {pn} {name:?}",
                    side.to_lowercase()
                )));
            }
        }
        if let Some(result) = recorded {
            use BoardResult as R;
            let expected = match result {
                R::WhiteWinsForfeit | R::BlackWinsForfeit | R::DoubleForfeit => {
                    return Err(mismatch(format!(
                        "the recorded result is the forfeit {result}: no game was played"
                    )));
                }
                // An arbiter's decision (Laws 12.9) may differ from the score's own ending.
                played => played.pgn(),
            };
            if let Some(expected) = expected
                && c.result.trim() != expected
            {
                return Err(mismatch(format!(
                    "the PGN's result is {:?}, the recorded result is {result}",
                    c.result.trim()
                )));
            }
        }
        let mut events = vec![Event::GameSubmitted(GameSubmitted {
            round: c.round,
            board: c.board,
            pgn: c.pgn.clone(),
        })];
        // Online, the platform's result is a proposal: one the Laws contradict goes to the
        // arbiter (E.04 15.3-15.4, 19.3-19.4). Over the board the signed result stands (Laws
        // 8.7), and a recorded result was checked above.
        if self.t.conduct.format.is_online()
            && let Some(laws) = &c.laws
            && recorded.is_none()
            && c.result.trim() != "*"
            && laws.result != c.result.trim()
        {
            events.push(Event::ResultDiscrepancyDetected(
                ResultDiscrepancyDetected {
                    round: c.round,
                    board: c.board,
                    platform_result: c.result.trim().to_string(),
                    laws_result: laws.result.clone(),
                    reason: laws.reason.clone(),
                    article: laws.article.clone(),
                },
            ));
        }
        Ok(events)
    }

    /// The arbiter's result in place of the platform's (E.04 9.14, 15.3-15.4, 19.3-19.4).
    pub(super) fn override_platform_result(
        &self,
        c: &OverridePlatformResult,
    ) -> Result<Vec<Event>, DomainError> {
        let format = self.t.conduct.format;
        if !format.is_online() {
            return Err(DomainError::NotOnline {
                format: format.to_string(),
            });
        }
        self.board_without_result(c.round, c.board)?;
        let Some(platform) = self.s.submitted_game_result(c.round, c.board) else {
            return Err(DomainError::NoPlatformResult {
                round: c.round,
                board: c.board,
            });
        };
        // Forfeits and per-player decisions are RecordResult's (a decision with each player's
        // code may differ from the moves already).
        let Some(as_pgn) = c.result.pgn() else {
            return Err(DomainError::invalid(
                "result",
                format!(
                    "{} is not a played result; record a forfeit or an arbiter's decision with \
                     RecordResult",
                    c.result
                ),
            ));
        };
        if as_pgn == platform {
            return Err(DomainError::invalid(
                "result",
                format!(
                    "{} is the platform's own result: confirm it with RecordResult",
                    c.result
                ),
            ));
        }
        let reason = line("reason", &c.reason, true)?;
        let article = self
            .s
            .discrepancy(c.round, c.board)
            .map_or("E.04 Art. 9.14", |d| d.article.as_str())
            .to_string();
        Ok(vec![
            Event::ResultOverridden(ResultOverridden {
                round: c.round,
                board: c.board,
                platform_result: platform.to_string(),
                result: c.result,
                reason,
                article,
            }),
            Event::ResultRecorded(ResultRecorded {
                round: c.round,
                board: c.board,
                result: c.result,
            }),
        ])
    }

    /// The games of a round's file, each matched to the board whose White and Black are its
    /// White and Black by registered name, each checked as [`Self::submit_game`] checks one;
    /// all or nothing, the first refusal naming the game (its place in the file and players).
    pub(super) fn submit_games(&self, c: &SubmitGames) -> Result<Vec<Event>, DomainError> {
        if c.games.is_empty() {
            return Err(DomainError::invalid("pgn", "no game in the file"));
        }
        self.round_in_range(c.round)?;
        if self.s.round_phase(c.round).is_none() {
            return Err(DomainError::RoundNotStarted { round: c.round });
        }
        let Some(published) = self.s.published(c.round) else {
            return Err(DomainError::RoundNotPublished { round: c.round });
        };
        let name = |pn: PlayerId| {
            self.s
                .player(pn)
                .map(|p| p.player.name.trim().to_string())
                .unwrap_or_default()
        };
        let boards: Vec<(u32, String, String)> = published
            .boards
            .iter()
            .enumerate()
            .map(|(i, b)| (i as u32 + 1, name(b.white), name(b.black)))
            .collect();
        // Board -> the game of the file that took it.
        let mut taken: std::collections::BTreeMap<u32, u32> = std::collections::BTreeMap::new();
        let mut events = Vec::with_capacity(c.games.len());
        for g in &c.games {
            let (white, black) = (g.white.trim(), g.black.trim());
            let in_file = |error: DomainError| DomainError::GameInFile {
                index: g.index,
                white: white.to_string(),
                black: black.to_string(),
                error: Box::new(error),
            };
            let Some((board, _, _)) = boards.iter().find(|(_, w, b)| w == white && b == black)
            else {
                let reason = match boards.iter().find(|(_, w, b)| w == black && b == white) {
                    Some((n, w, b)) => format!(
                        "White {white:?} and Black {black:?}; board {n} has them with the other \
                         colours (White {w:?}, Black {b:?})"
                    ),
                    None => format!(
                        "White {white:?} and Black {black:?} (the players by registered name)"
                    ),
                };
                return Err(DomainError::NoBoardForGame {
                    index: g.index,
                    white: white.to_string(),
                    black: black.to_string(),
                    round: c.round,
                    reason,
                });
            };
            if let Some(first) = taken.insert(*board, g.index) {
                return Err(in_file(DomainError::GameMismatch {
                    round: c.round,
                    board: *board,
                    reason: format!("game {first} of the file is already this board's game"),
                }));
            }
            let one = SubmitGame {
                round: c.round,
                board: *board,
                pgn: g.pgn.clone(),
                white: g.white.clone(),
                black: g.black.clone(),
                result: g.result.clone(),
                laws: g.laws.clone(),
            };
            events.extend(self.submit_game(&one).map_err(in_file)?);
        }
        Ok(events)
    }
}
