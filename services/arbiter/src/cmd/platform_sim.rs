//! `arbiter platform-sim`: an online platform's side of one round, for trials of an online
//! event and for the end-to-end tests. It reads the round's published pairing, plays every
//! board as a seeded random game of legal moves (shakmaty) with `%clk` comments, and posts
//! each game through the platforms' webhook with the platform's proposed result, as a real
//! platform would (E.04 3.7, 20.1). On the boards asked it also reports a
//! disconnection (`ReportConnectionIncident`, as the platform, E.04 11), or scores a flag fall a
//! draw although the opponent could mate: the platform error the arbiter must catch (E.04 4.5,
//! 15.4).
//!
//! Every post carries an idempotency key made of the seed, the round and the board, and the
//! games are a function of the seed, so running it again after a crash posts nothing twice.
//! Apart from the asked error, its results are the ones the Laws give the moves (checked with
//! the service's own judge before posting), so a correct server raises no other discrepancy.

use super::backend::{Exit, block_on, status_exit};
use super::client::{Clients, Connection};
use arbiter_proto::common::v1::{CommandHeader, TournamentRef};
use arbiter_proto::events::v1 as pb;
use arbiter_proto::reporting::v1 as rep;
use arbiter_proto::round_director::v1 as rd;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::fen::Fen;
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, EnPassantMode, Position};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::Duration;

#[derive(clap::Args, Debug)]
pub struct PlatformSimArgs {
    #[command(flatten)]
    pub conn: Connection,
    /// The tournament.
    pub tournament: String,
    /// The round to play (its pairing must be published).
    pub round: u32,
    /// The server's HTTP address, where the platforms' webhook is (`arbiter serve` prints it
    /// as http=).
    #[arg(long, default_value = "http://127.0.0.1:7080")]
    pub http: String,
    /// The same seed plays the same games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// `BOARD:white|black:SECONDS`: that player drops from the platform during the game and is
    /// back after SECONDS (the game goes on); `BOARD:white|black:gone`: he never comes back
    /// and the platform scores the game lost for him. Repeatable.
    #[arg(long, value_name = "BOARD:SIDE:AWAY")]
    pub disconnect: Vec<Disconnect>,
    /// `BOARD`: the platform scores that game's flag fall a draw though the opponent can
    /// still mate (a platform error; the Laws make it a loss). Repeatable.
    #[arg(long, value_name = "BOARD")]
    pub timeout_draw: Vec<u32>,
    /// Base time of the clocks, seconds.
    #[arg(long, default_value_t = 900)]
    pub base: u32,
    /// Increment per move, seconds.
    #[arg(long, default_value_t = 5)]
    pub increment: u32,
    /// Print one JSON object per board instead of a line of text.
    #[arg(long)]
    pub json: bool,
}

/// A disconnection asked for on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Disconnect {
    pub board: u32,
    pub side: Color,
    /// Seconds away; `None`: never back.
    pub away_s: Option<u32>,
}

impl std::str::FromStr for Disconnect {
    type Err = String;

    fn from_str(s: &str) -> Result<Disconnect, String> {
        let bad =
            || format!("--disconnect {s:?}: BOARD:white|black:SECONDS or BOARD:white|black:gone");
        let mut parts = s.split(':');
        let (Some(b), Some(side), Some(away), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(bad());
        };
        let board = b
            .trim()
            .parse::<u32>()
            .ok()
            .filter(|&b| b > 0)
            .ok_or_else(bad)?;
        let side = match side.trim().to_ascii_lowercase().as_str() {
            "white" | "w" => Color::White,
            "black" | "b" => Color::Black,
            _ => return Err(bad()),
        };
        let away_s = match away.trim() {
            "gone" => None,
            n => Some(n.parse::<u32>().map_err(|_| bad())?),
        };
        Ok(Disconnect {
            board,
            side,
            away_s,
        })
    }
}

pub fn run(a: PlatformSimArgs) -> ExitCode {
    block_on(sim(a))
}

/// How the platform ends a game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ending {
    /// Whatever the random game comes to: mate, an automatic draw, a flag, or at its chosen
    /// length a resignation or an agreed draw.
    Natural,
    /// The side drops and never returns: the game is his loss ("Abandoned"), or a draw when
    /// his opponent cannot mate (E.04 11.4.2, 4.5).
    Abandoned(Color),
    /// The side to move flags; the platform scores it a draw although the opponent can mate.
    WrongTimeoutDraw,
}

/// One game as the platform records it.
struct Played {
    /// The moves in SAN, each with its clock comment (and the move number before White's).
    movetext: Vec<String>,
    result: &'static str,
    termination: &'static str,
    final_fen: String,
    /// The disconnected side's clock when he dropped, and the ply (0-based) he dropped at.
    dropped: Option<(u32, usize)>,
}

fn win(c: Color) -> &'static str {
    match c {
        Color::White => "1-0",
        Color::Black => "0-1",
    }
}

const DRAW: &str = "1/2-1/2";

/// `h:mm:ss` of a clock in milliseconds (whole seconds, as platforms export them).
fn clk(ms: u32) -> String {
    let s = ms / 1000;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Placement, side to move, castling and en passant: "the same position" (Laws 9.2.2).
fn repetition_key(pos: &Chess) -> String {
    let fen = Fen::from_position(pos, EnPassantMode::Legal).to_string();
    fen.split_whitespace().take(4).collect::<Vec<_>>().join(" ")
}

/// Plays one game. `drop_side`: the side that drops from the platform on one of his moves
/// (whether he comes back is `ending`'s to say).
fn play(
    rng: &mut ChaCha8Rng,
    ending: Ending,
    drop_side: Option<Color>,
    base_ms: u32,
    inc_ms: u32,
) -> Played {
    let mut pos = Chess::default();
    // Long enough for the openings to be past and the clocks to matter, short enough to keep
    // a round's screening quick.
    let length = rng.random_range(24..=90usize);
    let drop_at = drop_side.map(|side| {
        let p = rng.random_range(10..length.max(12));
        // The drop happens on one of his own moves.
        if (p % 2 == 0) == (side == Color::White) {
            p
        } else {
            p + 1
        }
    });
    let mut clocks = [base_ms, base_ms];
    let mut seen: HashMap<String, u32> = HashMap::new();
    seen.insert(repetition_key(&pos), 1);
    let mut tokens: Vec<String> = Vec::new();
    let mut dropped = None;
    let idx = |c: Color| usize::from(c == Color::Black);
    let (result, termination) = loop {
        let ply = tokens.len();
        let mover = pos.turn();
        if pos.is_checkmate() {
            break (win(mover.other()), "Normal");
        }
        if pos.is_stalemate() || pos.is_insufficient_material() {
            break (DRAW, "Normal");
        }
        if pos.halfmoves() >= 100 || seen.get(&repetition_key(&pos)).is_some_and(|&n| n >= 3) {
            break (DRAW, "Normal");
        }
        if Some(ply) == drop_at {
            dropped = Some((clocks[idx(mover)], ply));
            if let Ending::Abandoned(side) = ending {
                debug_assert_eq!(side, mover);
                break if pos.has_insufficient_material(mover.other()) {
                    (DRAW, "Abandoned")
                } else {
                    (win(mover.other()), "Abandoned")
                };
            }
        }
        if ply >= length {
            match ending {
                Ending::WrongTimeoutDraw if !pos.has_insufficient_material(mover.other()) => {
                    // His flag falls; the platform wrongly scores it a draw.
                    break (DRAW, "Time forfeit");
                }
                Ending::Natural | Ending::Abandoned(_) => {
                    let roll = rng.random_range(0..10u32);
                    break match roll {
                        0..=3 => (win(mover.other()), "Normal"),
                        4..=7 => (win(mover), "Normal"),
                        _ => (DRAW, "Normal"),
                    };
                }
                // The opponent has no mating material, so a draw on time would be right:
                // the error cannot be made here; the game ends as an agreed draw.
                Ending::WrongTimeoutDraw => break (DRAW, "Normal"),
            }
        }
        let spent = rng.random_range(1_000..=25_000u32);
        let c = &mut clocks[idx(mover)];
        if *c <= spent {
            // His flag falls before he moves: the game ends on time.
            break if pos.has_insufficient_material(mover.other()) {
                (DRAW, "Time forfeit")
            } else {
                (win(mover.other()), "Time forfeit")
            };
        }
        *c = *c - spent + inc_ms;
        let moves = pos.legal_moves();
        let m = moves[rng.random_range(0..moves.len())];
        let san = SanPlus::from_move_and_play_unchecked(&mut pos, m);
        let mut t = String::new();
        if mover == Color::White {
            let _ = write!(t, "{}. ", ply / 2 + 1);
        }
        let _ = write!(t, "{san} {{ [%clk {}] }}", clk(*c));
        tokens.push(t);
        *seen.entry(repetition_key(&pos)).or_insert(0) += 1;
    };
    Played {
        movetext: tokens,
        result,
        termination,
        final_fen: Fen::from_position(&pos, EnPassantMode::Legal).to_string(),
        dropped,
    }
}

impl Played {
    /// The PGN the platform exports: `tags` (name, value) in order, then the result and the
    /// termination, then the moves.
    fn pgn(&self, tags: &[(&str, String)]) -> String {
        let mut s = String::new();
        for (name, value) in tags {
            let _ = writeln!(s, "[{name} \"{value}\"]");
        }
        let _ = writeln!(s, "[Result \"{}\"]", self.result);
        let _ = writeln!(s, "[Termination \"{}\"]", self.termination);
        s.push('\n');
        for t in &self.movetext {
            s.push_str(t);
            s.push(' ');
        }
        s.push_str(self.result);
        s.push('\n');
        s
    }
}

/// A platform that follows the Laws: the judge of the service must find nothing to say
/// against the result, except where an error was asked for.
fn check_honest(pgn: &str, result: &str, board: u32) -> Result<(), Exit> {
    let games = arbiter_screening::pgn::parse(pgn.as_bytes(), "platform-sim", 1 << 20)
        .map_err(|e| Exit::Invalid(format!("board {board}: the game written is not PGN: {e}")))?;
    let game = games
        .first()
        .ok_or_else(|| Exit::Invalid(format!("board {board}: no game written")))?;
    match arbiter_laws::judge(game) {
        Some(v) if v.result != result => Err(Exit::Invalid(format!(
            "board {board}: the simulated platform scored {result} where the Laws give {} ({}); \
             this is a fault of the simulation",
            v.result, v.reason
        ))),
        _ => Ok(()),
    }
}

/// POSTs one game to the webhook; returns whether the service answered it from a first post
/// (`replayed`).
async fn post_game(
    http: &str,
    token: Option<&str>,
    path: &str,
    key: &str,
    body: String,
) -> Result<bool, Exit> {
    let uri: axum::http::Uri = format!("{}{path}", http.trim_end_matches('/'))
        .parse()
        .map_err(|e| Exit::Invalid(format!("--http {http:?}: {e}")))?;
    let mut req = axum::http::Request::post(uri)
        .header("content-type", "application/x-chess-pgn")
        .header("idempotency-key", key);
    if let Some(t) = token {
        req = req.header("authorization", format!("Bearer {}", t.trim()));
    }
    let req = req
        .body(body)
        .map_err(|e| Exit::Invalid(format!("request: {e}")))?;
    let client = hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new())
        .build_http::<String>();
    let response = tokio::time::timeout(Duration::from_secs(30), client.request(req))
        .await
        .map_err(|_| Exit::Unavailable(format!("{http}{path}: no answer within 30 s")))?
        .map_err(|e| Exit::Unavailable(format!("{http}{path}: {e}")))?;
    let status = response.status();
    let body = axum::body::to_bytes(axum::body::Body::new(response.into_body()), 1 << 20)
        .await
        .map_err(|e| Exit::Unavailable(format!("{http}{path}: reading the answer: {e}")))?;
    let text = String::from_utf8_lossy(&body).into_owned();
    if !status.is_success() {
        let m = format!("{path}: {status}: {text}");
        return Err(match status.as_u16() {
            422 => Exit::Invalid(m),
            500..=599 => Exit::Unavailable(m),
            _ => Exit::Differs(m),
        });
    }
    let v: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| Exit::Unavailable(format!("{path}: the answer is not JSON: {e}")))?;
    Ok(v["replayed"].as_bool().unwrap_or(false))
}

async fn sim(a: PlatformSimArgs) -> Result<(), Exit> {
    let tid = a.tournament.as_str();
    let token = super::token::client_token(a.conn.token.as_deref(), &a.conn.data)?;
    let mut c = Clients::connect(&a.conn, None)?;
    let pairing = c
        .reporting
        .get_pairings(rep::GetPairingsRequest {
            tournament: Some(TournamentRef {
                tournament_id: tid.to_string(),
                as_of_version: 0,
            }),
            round: a.round,
        })
        .await
        .map_err(|s| status_exit(&format!("round {} of {tid}", a.round), &s))?
        .into_inner();
    if !pairing.published {
        return Err(Exit::Differs(format!(
            "round {} of {tid} is not published: a platform plays only published pairings",
            a.round
        )));
    }
    let names = c.names(tid).await?;
    let boards: Vec<pb::Board> = pairing.boards.iter().filter_map(|b| b.board).collect();
    for d in &a.disconnect {
        if !boards.iter().any(|b| b.number == d.board) {
            return Err(Exit::Invalid(format!(
                "--disconnect: round {} has no board {}",
                a.round, d.board
            )));
        }
    }
    for &b in &a.timeout_draw {
        if !boards.iter().any(|x| x.number == b) {
            return Err(Exit::Invalid(format!(
                "--timeout-draw: round {} has no board {b}",
                a.round
            )));
        }
    }
    let (base_ms, inc_ms) = (
        a.base.saturating_mul(1000),
        a.increment.saturating_mul(1000),
    );
    // The round's clocks start now; each drop is timed from here by the clock it happened at.
    let start_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64);
    for b in &boards {
        let name = |p: u32| {
            names
                .get(&p)
                .cloned()
                .ok_or_else(|| Exit::Differs(format!("board {}: no player {p}", b.number)))
        };
        let (white, black) = (name(b.white)?, name(b.black)?);
        let dc = a.disconnect.iter().find(|d| d.board == b.number).copied();
        let ending = match dc {
            Some(Disconnect {
                away_s: None, side, ..
            }) => Ending::Abandoned(side),
            _ if a.timeout_draw.contains(&b.number) => Ending::WrongTimeoutDraw,
            _ => Ending::Natural,
        };
        // One generator per board: a board's game does not depend on the others.
        let mut rng = ChaCha8Rng::seed_from_u64(
            a.seed ^ (u64::from(a.round) << 32) ^ u64::from(b.number).wrapping_mul(0x9E37_79B9),
        );
        let game = play(&mut rng, ending, dc.map(|d| d.side), base_ms, inc_ms);
        let pgn = game.pgn(&[
            ("Event", tid.to_string()),
            ("Site", "arbiter platform-sim".to_string()),
            ("Round", format!("{}.{}", a.round, b.number)),
            ("White", white.clone()),
            ("Black", black.clone()),
            ("TimeControl", format!("{}+{}", a.base, a.increment)),
        ]);
        if ending != Ending::WrongTimeoutDraw {
            check_honest(&pgn, game.result, b.number)?;
        }
        let key = |what: &str| format!("platform-sim-{}-r{}-b{}-{what}", a.seed, a.round, b.number);
        // The drop is reported first, as it happens during the game.
        let mut incident_version = 0;
        if let (Some(d), Some((clock_ms, ply))) = (dc, game.dropped) {
            // A simulated time: ten seconds a half-move from the round's start.
            let at = start_ms + (ply as i64) * 10_000;
            let player = if d.side == Color::White {
                b.white
            } else {
                b.black
            };
            let r = c
                .director
                .report_connection_incident(rd::ReportConnectionIncidentRequest {
                    header: Some(CommandHeader {
                        tournament_id: tid.to_string(),
                        command_id: key("disconnection"),
                        expected_version: None,
                        actor: "platform-sim".into(),
                    }),
                    incident: Some(arbiter_proto::round_director::v1::ConnectionIncident {
                        round: a.round,
                        board: b.number,
                        pairing_number: player,
                        channel: pb::ConnectionChannel::Platform as i32,
                        disconnected_at_unix_ms: at,
                        reconnected_at_unix_ms: d.away_s.map_or(0, |s| at + i64::from(s) * 1000),
                        clock_at_disconnect_ms: clock_ms,
                        moved_while_vcs_down: false,
                        reported_by: pb::IncidentReporter::Platform as i32,
                        note: format!(
                            "dropped at ply {} with {} on his clock{}",
                            ply + 1,
                            clk(clock_ms),
                            d.away_s.map_or(", not back".to_string(), |s| format!(
                                ", back after {s} s"
                            ))
                        ),
                    }),
                })
                .await;
            match r {
                Ok(r) => incident_version = r.into_inner().last_version,
                // The same command id with a later clock (a re-run at another time): the drop
                // is already on record.
                Err(s) if s.code() == tonic::Code::AlreadyExists => {}
                Err(s) => {
                    return Err(status_exit(
                        &format!("board {}: reporting the disconnection", b.number),
                        &s,
                    ));
                }
            }
        }
        let path = format!(
            "/api/platform/v1/tournaments/{tid}/rounds/{}/boards/{}/game",
            a.round, b.number
        );
        let replayed = post_game(&a.http, token.as_deref(), &path, &key("game"), pgn).await?;
        if a.json {
            println!(
                "{}",
                serde_json::json!({
                    "board": b.number,
                    "white": b.white,
                    "black": b.black,
                    "result": game.result,
                    "termination": game.termination,
                    "plies": game.movetext.len(),
                    "final_fen": game.final_fen,
                    "incident_version": incident_version,
                    "replayed": replayed,
                })
            );
        } else {
            println!(
                "board {}: {white} - {black} {} ({}, {} plies){}{}",
                b.number,
                game.result,
                game.termination,
                game.movetext.len(),
                if incident_version > 0 {
                    ", disconnection reported"
                } else {
                    ""
                },
                if replayed { ", already posted" } else { "" }
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disconnections_parse_and_bad_ones_are_named() {
        assert_eq!(
            "3:white:90".parse::<Disconnect>(),
            Ok(Disconnect {
                board: 3,
                side: Color::White,
                away_s: Some(90)
            })
        );
        assert_eq!("5:b:gone".parse::<Disconnect>().map(|d| d.away_s), Ok(None));
        for bad in [
            "0:white:9",
            "3:red:9",
            "3:white",
            "3:white:soon",
            "3:white:9:9",
        ] {
            let e = bad.parse::<Disconnect>().unwrap_err();
            assert!(e.contains(bad), "{e}");
        }
    }

    /// Every natural ending of a few hundred seeded games is one the Laws allow, and the same
    /// seed gives the same game.
    #[test]
    fn games_follow_the_laws_and_the_seed() {
        for seed in 0..300u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let g = play(&mut rng, Ending::Natural, None, 900_000, 5_000);
            check_honest(&g.pgn(&[]), g.result, 1).unwrap_or_else(|e| panic!("seed {seed}: {e:?}"));
            let mut again = ChaCha8Rng::seed_from_u64(seed);
            let g2 = play(&mut again, Ending::Natural, None, 900_000, 5_000);
            assert_eq!(g.movetext, g2.movetext, "seed {seed}");
        }
    }

    /// The asked platform error is one the judge catches: a draw on time with mating material.
    #[test]
    fn a_wrong_timeout_draw_is_contradicted_by_the_laws() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let g = play(&mut rng, Ending::WrongTimeoutDraw, None, 900_000, 5_000);
        assert_eq!((g.result, g.termination), (DRAW, "Time forfeit"));
        let games = arbiter_screening::pgn::parse(g.pgn(&[]).as_bytes(), "t", 1 << 20)
            .expect("the simulated game is PGN");
        let v = arbiter_laws::judge(&games[0]).expect("a flag fall is judged");
        assert_ne!(v.result, DRAW, "{v:?}");
        assert_eq!(v.article, "E.04 Art. 4.5");
    }

    /// A player who never comes back loses the game at the ply he dropped, on his own move.
    #[test]
    fn an_abandoned_game_ends_on_the_dropped_players_move() {
        for seed in 0..50u64 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let g = play(
                &mut rng,
                Ending::Abandoned(Color::Black),
                Some(Color::Black),
                900_000,
                5_000,
            );
            if g.termination != "Abandoned" {
                // The game was over (mate, automatic draw) before he dropped.
                assert_eq!(g.dropped, None, "seed {seed}");
                continue;
            }
            let (_, ply) = g.dropped.expect("dropped");
            assert_eq!(ply % 2, 1, "Black's move, seed {seed}");
            assert_eq!(g.movetext.len(), ply);
            assert!(g.result == "1-0" || g.result == DRAW, "seed {seed}");
        }
    }
}
