//! The online seat: a lichess game played from the board. The opponent's move, as the
//! server's stream brings it, is awaited on the board as the engine's is; the player's
//! moves, as the board shows them, go to the server; the clocks are the server's. The
//! server's move list is always compared whole with the board's game, so a move neither
//! goes twice nor is lost across a reconnect.

use std::time::{Duration, Instant};

use shakmaty::uci::UciMove;
use shakmaty::{Color, Move};

use super::clock::ClockFace;
use crate::background::Wake;
use crate::game::GameTags;
use crate::online::{GameState, Lichess, OnlineGame, OnlineNews, Order, Request};
use crate::recognizer::event::uci;
use crate::snapshot::Snapshot;

#[derive(Default)]
pub struct OnlineSeat {
    game: Option<OnlineGame>,
    /// The game's id and address, once it has begun.
    id: Option<(String, String)>,
    color: Option<Color>,
    opponent: String,
    /// The server's state, and when it came (its clock runs from then).
    state: Option<(GameState, Instant)>,
    /// The player's moves ordered played, by ply (0-based).
    sent: Vec<usize>,
    /// The ply whose opponent's move was last told.
    told_ply: Option<usize>,
    /// A move already sent was revised on the board: said once.
    told_divergence: bool,
    /// The opponent's offer last told.
    told_offer: Option<Offer>,
    ended: bool,
}

/// What the opponent offers, to be answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    Draw,
    /// To take back its last move.
    Takeback,
}

/// What the online seat has to tell.
#[derive(Default)]
pub struct Heard {
    /// The opponent's move to await on the board, with the opponent's name.
    pub expect: Option<(Move, String)>,
    /// Lines for the output.
    pub lines: Vec<String>,
    /// Something the player must see.
    pub notice: Option<String>,
}

impl OnlineSeat {
    /// Plays `request` on lichess at `base` with `token`; `pause` is the wait after a 429.
    pub fn start(
        &mut self,
        base: &str,
        token: &str,
        request: Request,
        wake: Wake,
        pause: Duration,
    ) -> Result<(), String> {
        *self = Self::default();
        let api = Lichess::new(base, token);
        let game = OnlineGame::start(api, request, wake, pause).map_err(|e| e.to_string())?;
        self.game = Some(game);
        Ok(())
    }

    /// How the online game stands, in words: "Playing white against Maia1 (lichess.org/…)",
    /// "Asking lichess for the game…", "Ended: 1-0 (mate)".
    pub fn status(&self) -> Option<String> {
        self.game.as_ref()?;
        let ended = self
            .state
            .as_ref()
            .filter(|(state, _)| state.is_over())
            .map(|(state, _)| result_words(state));
        Some(match (&self.id, self.color, ended) {
            (Some((_, url)), _, Some(result)) => format!("Ended: {result} · {url}"),
            (Some((_, url)), Some(color), None) => format!(
                "Playing {} against {} · {url}",
                color.fold_wb("white", "black"),
                self.opponent
            ),
            _ if self.ended => "Ended".into(),
            _ => "Asking lichess for the game…".into(),
        })
    }

    /// Whether an online game is being played (or asked for).
    pub fn is_on(&self) -> bool {
        self.game.is_some() && !self.ended
    }

    pub fn order(&self, order: Order) {
        if let Some(game) = &self.game {
            game.order(order);
        }
    }

    /// What the server said since the last call, against the board's game.
    pub fn hear(&mut self, snapshot: &Snapshot) -> Heard {
        let mut heard = Heard::default();
        let Some(game) = &self.game else {
            return heard;
        };
        for news in game.news() {
            match news {
                OnlineNews::SignedIn(name) => {
                    heard.lines.push(format!("lichess: signed in as {name}"))
                }
                OnlineNews::Started {
                    id,
                    url,
                    color,
                    opponent,
                } => {
                    heard.lines.push(format!("lichess game {id}"));
                    heard.lines.push(format!(
                        "lichess: playing {} against {opponent}: {url}",
                        color.fold_wb("white", "black")
                    ));
                    self.id = Some((id, url));
                    self.color = Some(color);
                    self.opponent = opponent;
                }
                OnlineNews::State(state) => {
                    if state.is_over() && !self.ended {
                        heard
                            .lines
                            .push(format!("lichess result: {}", result_words(&state)));
                    }
                    self.ended |= state.is_over();
                    self.state = Some((state, Instant::now()));
                }
                OnlineNews::OpponentGone { gone, claim_in_s } => {
                    heard.lines.push(match (gone, claim_in_s) {
                        (true, Some(s)) => format!(
                            "lichess: the opponent has gone; the win may be claimed in {s} s"
                        ),
                        (true, None) => "lichess: the opponent has gone".into(),
                        (false, _) => "lichess: the opponent is back".into(),
                    })
                }
                OnlineNews::Chat { from, text } => heard.lines.push(format!("chat {from}: {text}")),
                OnlineNews::Problem(problem) => {
                    heard.lines.push(format!("lichess: {problem}"));
                    heard.notice = Some(format!("lichess: {problem}"));
                }
                OnlineNews::Ended => self.ended = true,
            }
        }
        let offer = self.offer();
        if offer != self.told_offer {
            self.told_offer = offer;
            match offer {
                Some(Offer::Draw) => heard
                    .lines
                    .push("lichess: the opponent offers a draw".into()),
                Some(Offer::Takeback) => heard
                    .lines
                    .push("lichess: the opponent asks to take back its move".into()),
                None => {}
            }
        }
        if let Some((mv, uci)) = self.opponents_move(snapshot) {
            heard.lines.push(format!("opponent {uci}"));
            heard.expect = Some((mv, self.opponent.clone()));
        }
        if self.diverged(snapshot) && !self.told_divergence {
            self.told_divergence = true;
            heard.notice = Some(
                "A move already sent to lichess was changed on the board: set the board back to \
                 the game on lichess, or ask for a takeback there"
                    .into(),
            );
        }
        heard
    }

    /// The opponent's standing offer, if any.
    pub fn offer(&self) -> Option<Offer> {
        let opponent = !self.color?;
        let (state, _) = self.state.as_ref().filter(|(state, _)| !state.is_over())?;
        if state.draw_offer == Some(opponent) {
            Some(Offer::Draw)
        } else if state.takeback_offer == Some(opponent) {
            Some(Offer::Takeback)
        } else {
            None
        }
    }

    /// The server's moves, when the board's game is where they start.
    fn server_moves(&self) -> Option<&[String]> {
        self.state.as_ref().map(|(state, _)| state.moves.as_slice())
    }

    fn board_moves(snapshot: &Snapshot) -> Vec<String> {
        snapshot
            .game
            .moves
            .iter()
            .map(|&mv| uci(mv).to_string())
            .collect()
    }

    /// Whether the board's game and the server's part ways before either ends.
    fn diverged(&self, snapshot: &Snapshot) -> bool {
        let Some(server) = self.server_moves() else {
            return false;
        };
        let board = Self::board_moves(snapshot);
        board.iter().zip(server).any(|(a, b)| a != b)
    }

    /// The opponent's move the server has and the board not yet, told once.
    fn opponents_move(&mut self, snapshot: &Snapshot) -> Option<(Move, String)> {
        let color = self.color?;
        let server = self.server_moves()?;
        let board = Self::board_moves(snapshot);
        let ply = board.len();
        let next = server.get(ply)?;
        if mover(ply) == color || !server.starts_with(&board) || self.told_ply == Some(ply) {
            return None;
        }
        let mv = next
            .parse::<UciMove>()
            .ok()?
            .to_move(&snapshot.position)
            .ok()?;
        let uci = next.clone();
        self.told_ply = Some(ply);
        Some((mv, uci))
    }

    /// The board changed: the player's new moves go to the server.
    pub fn on_snapshot(&mut self, snapshot: &Snapshot) {
        let (Some(color), Some(game)) = (self.color, &self.game) else {
            return;
        };
        if self.ended {
            return;
        }
        let server = self
            .server_moves()
            .map(<[String]>::to_vec)
            .unwrap_or_default();
        let board = Self::board_moves(snapshot);
        for (ply, uci) in board.iter().enumerate().skip(server.len()) {
            if mover(ply) == color
                && !self.sent.contains(&ply)
                && board[..ply] == server[..ply.min(server.len())]
            {
                self.sent.push(ply);
                game.order(Order::Play(uci.clone()));
            }
        }
    }

    /// The server's clocks, the side to move's running since its last word.
    pub fn clock_face(&self, now: Instant) -> Option<ClockFace> {
        let (state, at) = self.state.as_ref()?;
        // lichess starts the clocks once both sides have moved.
        let running =
            (!state.is_over() && state.moves.len() >= 2).then_some(mover(state.moves.len()));
        let passed = now.saturating_duration_since(*at).as_millis() as u64;
        let left = |color: Color, ms: u64| {
            if running == Some(color) {
                ms.saturating_sub(passed)
            } else {
                ms
            }
        };
        Some(ClockFace {
            white_ms: left(Color::White, state.wtime_ms),
            black_ms: left(Color::Black, state.btime_ms),
            running,
            flag: None,
        })
    }

    /// The game's tags: its lichess address, the players.
    pub fn tags(&self, tags: &mut GameTags) {
        let (Some((_, url)), Some(color)) = (&self.id, self.color) else {
            return;
        };
        tags.site = url.clone();
        tags.event = "lichess game".into();
        match color {
            Color::White => tags.black = self.opponent.clone(),
            Color::Black => tags.white = self.opponent.clone(),
        }
    }
}

/// Who makes ply `ply` (0-based) of a game from the standard start.
fn mover(ply: usize) -> Color {
    if ply.is_multiple_of(2) {
        Color::White
    } else {
        Color::Black
    }
}

/// "1-0 (mate)", "1/2-1/2 (draw)".
fn result_words(state: &GameState) -> String {
    let score = match state.winner {
        Some(Color::White) => "1-0",
        Some(Color::Black) => "0-1",
        None if state.status == "aborted" => "*",
        None => "1/2-1/2",
    };
    format!("{score} ({})", state.status)
}
