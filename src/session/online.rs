//! The online seat: a lichess game played from the board. The opponent's move, as the
//! server's stream brings it, is awaited on the board as the engine's is; the player's
//! moves, as the board shows them, go to the server; the clocks are the server's. The
//! server's move list is always compared whole with the board's game, so a move neither
//! goes twice nor is lost across a reconnect.

use std::time::Instant;

use shakmaty::uci::UciMove;
use shakmaty::{Color, Move};

use super::clock::ClockFace;
use crate::background::Wake;
use crate::clock::{Bonus, ClockTime, TimeControl};
use crate::game::{Annotation, GameRecord, PgnResult};
use crate::online::{GameState, OnlineGame, OnlineNews, Order, Patience, Request};
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
    /// The player's account.
    me: String,
    /// What the game waits for before it begins ("waiting for a challenge").
    waiting: Option<String>,
    /// The game's clock, as asked for.
    clock: Option<TimeControl>,
    /// The mover's time left after each ply, as the server told it.
    clock_after: Vec<Option<u64>>,
    /// The player's moves ordered played: ply (0-based) and move.
    sent: Vec<(usize, String)>,
    /// A takeback asked for while the server's game had this many plies.
    asked_takeback: Option<usize>,
    /// lichess or the opponent said no to a takeback: not asked again until the board
    /// rejoins the game.
    declined: bool,
    /// The session's game (its index) played online: the one on the board when the online
    /// game began, or the next to begin if that one had moves.
    board_game: Option<usize>,
    /// The server showed the player's takeback offer standing.
    takeback_offered: bool,
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
    /// Plays `request` on lichess at `base` with `token` (the environment's or the system
    /// keyring's when none is given; kept there once it works, if `remember`), as patient
    /// as `patience` says.
    pub fn start(
        &mut self,
        base: &str,
        token: Option<String>,
        remember: bool,
        request: Request,
        wake: Wake,
        patience: Patience,
    ) -> Result<(), String> {
        *self = Self {
            clock: Some(request.clock),
            ..Self::default()
        };
        let game = OnlineGame::start(base, token, remember, request, wake, patience)
            .map_err(|e| e.to_string())?;
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
            _ => match &self.waiting {
                Some(words) => format!("{}…", capitalized(words)),
                None => "Asking lichess for the game…".into(),
            },
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
                    heard.lines.push(format!("lichess: signed in as {name}"));
                    self.me = name;
                }
                OnlineNews::Waiting(words) => {
                    heard.lines.push(format!("lichess: {words}"));
                    self.waiting = Some(words);
                }
                OnlineNews::Note(words) => heard.lines.push(format!("lichess: {words}")),
                OnlineNews::TakebackRefused(why) => {
                    let words = format!(
                        "lichess would not take the move back ({why}): put the moves back on \
                         the board as they were played"
                    );
                    self.asked_takeback = None;
                    self.declined = true;
                    heard.lines.push(format!("lichess: {words}"));
                    heard.notice = Some(words);
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
                    // An online game starts from the start: a game on the board with moves
                    // is an earlier one.
                    let games = &snapshot.games;
                    self.board_game = Some(match games.last() {
                        Some(last) if last.moves.is_empty() => games.len() - 1,
                        _ => games.len(),
                    });
                }
                OnlineNews::State(state) => {
                    if state.is_over() && !self.ended {
                        heard
                            .lines
                            .push(format!("lichess result: {}", result_words(&state)));
                    }
                    self.ended |= state.is_over();
                    if let Some(clock) = state.clock_ms {
                        self.clock = Some(TimeControl {
                            base_ms: clock.0,
                            bonus_ms: clock.1,
                            bonus: Bonus::Increment,
                        });
                    }
                    // Moves taken back (either side's takeback): what was sent from there on
                    // may go again.
                    let plies = state.moves.len();
                    if self
                        .server_moves()
                        .is_some_and(|before| plies < before.len())
                    {
                        self.sent.retain(|(ply, _)| *ply < plies);
                        self.clock_after.truncate(plies);
                        self.told_ply = None;
                    }
                    if let Some(words) = self.hear_takeback(&state) {
                        heard.lines.push(format!("lichess: {words}"));
                        heard.notice = Some(words);
                    }
                    self.note_clock(&state);
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
        if let Some(words) = self.divergence(snapshot) {
            heard.lines.push(format!("lichess: {words}"));
            heard.notice = Some(words);
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

    /// Where the board's game leaves the server's while the server has moves from there, and
    /// whether the board shows another move there (rather than fewer moves).
    fn parting(&self, snapshot: &Snapshot) -> Option<(usize, bool)> {
        let server = self.server_moves()?;
        let board = Self::board_moves(snapshot);
        let same = board.iter().zip(server).take_while(|(a, b)| a == b).count();
        (same < server.len()).then_some((same, same < board.len()))
    }

    /// The board took back (or changed) a move already on lichess. lichess takes back one
    /// turn at a time, the player's last move with any reply to it: the player's own moves are
    /// asked back that way; a board that left the game otherwise is told once what to do.
    fn divergence(&mut self, snapshot: &Snapshot) -> Option<String> {
        let color = self.color?;
        let server = self.server_moves()?.len();
        let players_last = (0..server).rev().find(|&p| mover(p) == color);
        let (ply, other_move) = match self.parting(snapshot) {
            // Only the opponent's move still to make: it is awaited.
            Some((ply, false)) if players_last.is_none_or(|last| ply > last) => None,
            parted => parted,
        }
        .or_else(|| {
            // In step with lichess again: a takeback still asked for is withdrawn.
            self.told_divergence = false;
            self.declined = false;
            if self.asked_takeback.take().is_some() {
                self.takeback_offered = false;
                self.order(Order::Takeback(false));
            }
            None
        })?;
        if self.ended || players_last.is_none_or(|last| ply > last) {
            if self.told_divergence {
                return None;
            }
            self.told_divergence = true;
            return Some(if other_move && !self.ended {
                "The board shows another move than the opponent's: set it back and make the \
                 opponent's move"
                    .into()
            } else {
                "The board left the game on lichess: set it back to the game there".into()
            });
        }
        if self.asked_takeback == Some(server) || self.declined {
            return None;
        }
        self.asked_takeback = Some(server);
        self.takeback_offered = false;
        self.order(Order::Takeback(true));
        Some("A move already sent was taken back on the board: asking the opponent to agree".into())
    }

    /// What became of the player's takeback request, once the server answered it.
    fn hear_takeback(&mut self, state: &GameState) -> Option<String> {
        let asked = self.asked_takeback?;
        let color = self.color?;
        if state.moves.len() < asked {
            self.asked_takeback = None;
            return Some("The opponent agreed: the move is taken back on lichess too".into());
        }
        if state.takeback_offer == Some(color) {
            self.takeback_offered = true;
        } else if self.takeback_offered || state.is_over() || state.moves.len() > asked {
            self.asked_takeback = None;
            self.takeback_offered = false;
            self.declined = true;
            return Some(
                "No takeback on lichess: put the moves back on the board as they were played"
                    .into(),
            );
        }
        None
    }

    /// Keeps the mover's time after the last ply of `state`.
    fn note_clock(&mut self, state: &GameState) {
        let Some(last) = state.moves.len().checked_sub(1) else {
            return;
        };
        let left = mover(last).fold_wb(state.wtime_ms, state.btime_ms);
        if self.clock_after.len() <= last {
            self.clock_after.resize(last + 1, None);
        }
        self.clock_after[last] = Some(left);
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
            let sent = (ply, uci.clone());
            if mover(ply) == color
                && !self.sent.contains(&sent)
                && board[..ply] == server[..ply.min(server.len())]
            {
                self.sent.push(sent);
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

    /// The online game's tags and `[%clk]` comments: its lichess address, the players, the
    /// clock, the server's times after each move and the result lichess gave.
    pub fn annotate(&self, games: &[GameRecord], annotations: &mut [Annotation]) {
        let (Some((_, url)), Some(color)) = (&self.id, self.color) else {
            return;
        };
        let Some(index) = self.board_game else {
            return;
        };
        let (Some((tags, comments)), Some(game)) = (annotations.get_mut(index), games.get(index))
        else {
            return;
        };
        tags.site = url.clone();
        tags.event = "lichess game".into();
        let me = if self.me.is_empty() { "?" } else { &self.me };
        let (white, black) = color.fold_wb((me, &*self.opponent), (&*self.opponent, me));
        (tags.white, tags.black) = (white.to_owned(), black.to_owned());
        tags.extra.retain(|(name, _)| name != "TimeControl");
        if let Some(clock) = self.clock {
            tags.extra.push(("TimeControl".into(), clock.pgn_tag()));
        }
        if let Some((state, _)) = self.state.as_ref().filter(|(state, _)| state.is_over()) {
            tags.result = Some(match (state.winner, state.status.as_str()) {
                (Some(Color::White), _) => PgnResult::WhiteWins,
                (Some(Color::Black), _) => PgnResult::BlackWins,
                (None, "aborted") => PgnResult::Unknown,
                (None, _) => PgnResult::Draw,
            });
            let termination = match state.status.as_str() {
                "outoftime" | "timeout" => "time forfeit",
                "aborted" => "abandoned",
                _ => "normal",
            };
            tags.extra.retain(|(name, _)| name != "Termination");
            tags.extra.push(("Termination".into(), termination.into()));
        }
        comments.clear();
        comments.extend(
            self.clock_after
                .iter()
                .enumerate()
                .take(game.moves.len())
                .filter_map(|(ply, left)| {
                    Some((ply + 1, format!("[%clk {}]", ClockTime((*left)?))))
                }),
        );
    }
}

/// "Waiting for a challenge" from "waiting for a challenge".
fn capitalized(words: &str) -> String {
    let mut chars = words.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
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
