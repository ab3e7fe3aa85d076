//! boardsight: recognises chess games on electronic boards whose sensors only report
//! which squares are occupied.

#[cfg(feature = "app")]
pub mod app;
pub mod cli;
pub mod connection;
pub mod files;
pub mod pgn;
pub mod protocol;
pub mod reading;
pub mod recognizer;
pub mod replay;
pub mod sensorlog;
pub mod sim;

/// Parses a FEN into a legal standard-chess position.
pub fn parse_fen(fen: &str) -> Result<shakmaty::Chess, String> {
    let parsed: shakmaty::fen::Fen = fen
        .trim()
        .parse()
        .map_err(|e| format!("'{fen}' is not a FEN: {e}"))?;
    parsed
        .into_position(shakmaty::CastlingMode::Standard)
        .map_err(|e| format!("'{fen}' is not a legal position: {e}"))
}
