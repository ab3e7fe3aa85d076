//! The engine's side of a game on the board: when it is the engine's turn it is asked for
//! its move, which its owner shows (the CLI prints `engine g8f6`, the app draws an arrow)
//! and the recognizer then awaits on the board.

use std::path::Path;
use std::sync::Arc;

use shakmaty::{Color, Position};

use super::{Engine, Patience, Reply, Strength};
use crate::connection::{Command, Connection, Snapshot};
use crate::recognizer::event::uci;

pub struct EnginePlay {
    engine: Engine,
    side: Color,
    strength: Strength,
    /// The engine's name from its `id`, once it has said it.
    name: Option<String>,
    /// The ply the engine was asked about and has not answered yet.
    asked: Option<usize>,
    /// The ply whose move the engine gave (and the board now awaits).
    given: Option<usize>,
}

impl EnginePlay {
    pub fn start(
        path: &Path,
        side: Color,
        strength: Strength,
        wake: Arc<dyn Fn() + Send + Sync>,
    ) -> Self {
        Self {
            engine: Engine::start(path, strength, Patience::default(), wake),
            side,
            strength,
            name: None,
            asked: None,
            given: None,
        }
    }

    /// The engine as the player tags name it: "Stockfish 17 (level 3)".
    pub fn player_name(&self) -> String {
        format!(
            "{} ({})",
            self.name.as_deref().unwrap_or("engine"),
            self.strength.describe()
        )
    }

    pub fn side(&self) -> Color {
        self.side
    }

    /// The engine's name from its `id`, once it has started.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// Whether the engine is thinking about a move.
    pub fn is_thinking(&self) -> bool {
        self.asked.is_some()
    }

    /// Looks at the game after a change: asks the engine when it is its turn.
    pub fn on_snapshot(&mut self, snapshot: &Snapshot) {
        let game = &snapshot.game;
        let ply = game.moves.len();
        // A takeback past what was asked or given: that answer no longer counts.
        if self.asked.is_some_and(|asked| asked > ply) {
            self.asked = None;
        }
        if self.given.is_some_and(|given| given >= ply) && snapshot.expected_move.is_none() {
            self.given = None;
        }
        let engines_turn = snapshot.has_started
            && snapshot.position.turn() == self.side
            && !snapshot.position.is_game_over();
        if engines_turn && self.asked.is_none() && self.given != Some(ply) {
            self.asked = Some(ply);
            self.engine.think(&game.start, &game.moves);
        }
    }

    /// Takes in what the engine said; returns what happened, in the CLI's words.
    pub fn on_replies(&mut self, connection: &Connection, current: &Snapshot) -> Vec<String> {
        let mut lines = Vec::new();
        while let Ok(reply) = self.engine.replies.try_recv() {
            match reply {
                Reply::Ready { name, author } => {
                    lines.push(format!("engine: {name} by {author}"));
                    self.name = Some(name);
                }
                Reply::BestMove { ply, mv } => {
                    if self.asked != Some(ply) {
                        continue;
                    }
                    self.asked = None;
                    if current.game.moves.len() != ply || current.position.turn() != self.side {
                        continue;
                    }
                    self.given = Some(ply);
                    lines.push(format!("engine {}", uci(mv)));
                    connection.send(Command::Expect(Some(mv)));
                }
                Reply::Fault(fault) => {
                    self.asked = None;
                    lines.push(format!("engine fault: {fault}"));
                }
            }
        }
        lines
    }
}
