//! The game as the panels show it, worked out once per change rather than every frame.

use shakmaty::san::San;
use shakmaty::{Chess, Color, Move, Position};

use crate::openings::{self, Opening};
use crate::pgn::position_code;
use crate::recognizer::event::uci;
use crate::snapshot::Snapshot;

/// Positions and move texts of the current game, with the end and the ambiguity's choices.
#[derive(Clone, Debug, Default)]
pub struct GameView {
    /// Every position of the game, the start first: one more than there are moves.
    pub positions: Vec<Chess>,
    pub moves: Vec<Move>,
    /// SAN of each move, with check and mate marks.
    pub sans: Vec<String>,
    /// How the game ended, if its last position ends it.
    pub end: Option<&'static str>,
    /// The ply the recognizer could not settle, and its candidates as SAN.
    pub ambiguity: Option<(usize, Vec<(Move, String)>)>,
    /// The live position's FEN and short position code.
    pub fen: String,
    pub code: String,
    /// The opening the game has reached, as it is played.
    pub opening: Option<Opening>,
}

impl GameView {
    pub fn of(snapshot: &Snapshot) -> Self {
        let game = &snapshot.game;
        let positions = game.positions();
        let ambiguity = snapshot.ambiguity.as_ref().map(|(ply, candidates)| {
            let before = ply.checked_sub(1).and_then(|i| positions.get(i));
            let named = candidates
                .iter()
                .map(|&mv| {
                    let text = before.map_or_else(
                        || uci(mv).to_string(),
                        |p| San::from_move(p, mv).to_string(),
                    );
                    (mv, text)
                })
                .collect();
            (*ply, named)
        });
        Self {
            fen: crate::game::fen_of(&snapshot.position),
            code: position_code::encode(&snapshot.position),
            end: positions.last().and_then(game_end),
            opening: openings::classify_game(game),
            sans: game.san_moves().iter().map(ToString::to_string).collect(),
            moves: game.moves.clone(),
            positions,
            ambiguity,
        }
    }

    /// The position after `ply` moves (the live one when out of range), and the move to it.
    pub fn at(&self, ply: Option<usize>) -> (Option<&Chess>, Option<Move>) {
        let ply = ply
            .filter(|&p| p < self.moves.len())
            .unwrap_or(self.moves.len());
        let last = ply.checked_sub(1).and_then(|i| self.moves.get(i)).copied();
        (self.positions.get(ply), last)
    }
}

/// Whether a game's final position shows a finished game, and how.
pub fn game_end(position: &Chess) -> Option<&'static str> {
    if position.is_checkmate() {
        Some(if position.turn() == Color::White {
            "0-1, Black mates"
        } else {
            "1-0, White mates"
        })
    } else if position.is_stalemate() {
        Some("1/2-1/2, stalemate")
    } else if position.is_insufficient_material() {
        Some("1/2-1/2, insufficient material")
    } else {
        None
    }
}
