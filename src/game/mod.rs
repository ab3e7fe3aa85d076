//! The game itself, below everything that reads, recognises or writes games: a game's
//! record, its tags and result, and FEN in and out.

mod fen;
mod tags;

pub use fen::{FenError, fen_of, parse_fen, position_of};
pub use tags::{Annotation, GameTags, PgnResult, TableTags, today};

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Move, Position};

/// One game: where it started and the moves played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The position the game started from.
    pub start: Chess,
    /// The moves played, in order.
    pub moves: Vec<Move>,
}

impl GameRecord {
    /// A game from `start` with no move yet.
    pub fn new(start: Chess) -> Self {
        Self {
            start,
            moves: Vec::new(),
        }
    }

    /// A game of UCI moves played from `start`; `None` if one is no legal move there.
    pub fn from_uci<'a>(start: Chess, moves: impl IntoIterator<Item = &'a str>) -> Option<Self> {
        let mut position = start.clone();
        let mut game = Self::new(start);
        for uci in moves {
            let m = uci
                .parse::<shakmaty::uci::UciMove>()
                .ok()?
                .to_move(&position)
                .ok()?;
            position.play_unchecked(m);
            game.moves.push(m);
        }
        Some(game)
    }

    /// A game of SAN moves played from `start`, move numbers (`1.`, `1...`) skipped:
    /// `1. e4 e5 2. Nf3`. Says which token is not a legal move.
    pub fn from_san(start: Chess, text: &str) -> Result<Self, String> {
        let mut position = start.clone();
        let mut game = Self::new(start);
        for token in text.split_whitespace().filter(|t| !t.ends_with('.')) {
            let san: shakmaty::san::San = token
                .parse()
                .map_err(|_| format!("'{token}' is not a move"))?;
            let m = san
                .to_move(&position)
                .map_err(|_| format!("'{token}' is no legal move"))?;
            position.play_unchecked(m);
            game.moves.push(m);
        }
        Ok(game)
    }

    /// The position after every move, starting with the start position.
    pub fn positions(&self) -> Vec<Chess> {
        let mut positions = Vec::with_capacity(self.moves.len() + 1);
        let mut position = self.start.clone();
        positions.push(position.clone());
        for &m in &self.moves {
            position.play_unchecked(m);
            positions.push(position.clone());
        }
        positions
    }

    /// The position after the last move.
    pub fn final_position(&self) -> Chess {
        let mut position = self.start.clone();
        for &m in &self.moves {
            position.play_unchecked(m);
        }
        position
    }

    /// SAN with check marks for every move.
    pub fn san_moves(&self) -> Vec<SanPlus> {
        let mut position = self.start.clone();
        self.moves
            .iter()
            .map(|&m| SanPlus::from_move_and_play_unchecked(&mut position, m))
            .collect()
    }
}
