//! Helpers shared by the integration tests.
// Each test crate uses only some of these.
#![allow(dead_code)]

pub mod accuracy;
#[cfg(feature = "app")]
pub mod app;

use boardsight::recognizer::GameRecord;
use shakmaty::uci::UciMove;

/// A game's moves in UCI.
pub fn uci_moves(game: &GameRecord) -> Vec<String> {
    game.moves
        .iter()
        .map(|&m| UciMove::from_standard(m).to_string())
        .collect()
}

/// Every game's moves in UCI.
pub fn uci_games(games: &[GameRecord]) -> Vec<Vec<String>> {
    games.iter().map(uci_moves).collect()
}
