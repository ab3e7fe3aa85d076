//! Helpers shared by the integration tests.
// Each test crate uses only some of these.
#![allow(dead_code)]

pub mod accuracy;
#[cfg(feature = "app")]
pub mod app;

use boardsight::recognizer::GameRecord;
use boardsight::recognizer::event::uci;

/// A game's moves in UCI (a Chess960 castling as king takes rook).
pub fn uci_moves(game: &GameRecord) -> Vec<String> {
    game.moves.iter().map(|&m| uci(m).to_string()).collect()
}

/// Every game's moves in UCI.
pub fn uci_games(games: &[GameRecord]) -> Vec<Vec<String>> {
    games.iter().map(uci_moves).collect()
}

/// Stockfish, where it is installed; else `None` after saying the test is skipped (or a
/// failure where `BOARDSIGHT_REQUIRE_ENGINE` asks for it, as `.ci/run` does).
pub fn stockfish_or_skip() -> Option<std::path::PathBuf> {
    let found = boardsight::engine::find_stockfish();
    if found.is_none() {
        assert!(
            std::env::var_os("BOARDSIGHT_REQUIRE_ENGINE").is_none(),
            "stockfish is not installed (apt-get install stockfish)"
        );
        eprintln!("skipped: no stockfish (apt-get install stockfish)");
    }
    found
}
