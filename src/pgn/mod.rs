//! Game records: writing PGN.

pub mod writer;

pub use writer::{GameTags, PgnResult, write_game};
