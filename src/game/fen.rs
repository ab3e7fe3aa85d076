//! FEN in and out.

use shakmaty::fen::Fen;
use shakmaty::{Chess, EnPassantMode};

/// The FEN of a position (an en passant square only where a capture there is legal).
pub fn fen_of(position: &Chess) -> String {
    Fen::from_position(position, EnPassantMode::Legal).to_string()
}

/// Why a FEN is no position to start from.
#[derive(Debug, thiserror::Error)]
pub enum FenError {
    #[error("'{fen}' is not a FEN: {source}")]
    /// The text is no FEN.
    Syntax {
        /// The text given.
        fen: String,
        /// What is wrong with it.
        source: shakmaty::fen::ParseFenError,
    },
    #[error("'{fen}' is not a legal position: {source}")]
    /// The FEN is no legal position.
    Illegal {
        /// The text given.
        fen: String,
        /// Why the position is not legal.
        source: Box<shakmaty::PositionError<shakmaty::Chess>>,
    },
}

/// Parses a FEN into a legal position. Castling may be written as in standard FEN, X-FEN
/// or Shredder-FEN (`HAha`); the position castles as in Chess960 where its castling rights
/// need it, and as in standard chess otherwise.
pub fn parse_fen(fen: &str) -> Result<shakmaty::Chess, FenError> {
    let parsed: shakmaty::fen::Fen = fen.trim().parse().map_err(|source| FenError::Syntax {
        fen: fen.to_owned(),
        source,
    })?;
    position_of(parsed).map_err(|source| FenError::Illegal {
        fen: fen.to_owned(),
        source,
    })
}

/// The position of a parsed FEN, in the castling mode its castling rights need.
pub fn position_of(
    fen: shakmaty::fen::Fen,
) -> Result<shakmaty::Chess, Box<shakmaty::PositionError<shakmaty::Chess>>> {
    let mode = shakmaty::CastlingMode::detect(fen.as_setup());
    fen.into_position(mode).map_err(Box::new)
}
