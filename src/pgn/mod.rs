//! Game records: PGN in and out, and autosave.

pub mod autosave;
pub mod autosaver;
mod file;
pub mod live;
pub mod position_code;
pub mod reader;
pub mod text;
pub mod writer;

pub use crate::game::{GameTags, PgnResult, today};
pub use file::PgnFile;
pub use reader::{PgnError, PgnGame, read_games, read_summaries};
pub use writer::{PlyNotes, write_annotated_game, write_game, write_game_with_comments};
