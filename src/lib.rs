//! boardsight: recognises chess games on electronic boards whose sensors only report
//! which squares are occupied.
//!
//! The library is the core a program needs to follow such a board: the [`recognizer`] (a
//! pure state machine from [`reading`]s to events and games), the board [`protocol`]s,
//! [`sensorlog`]s (recorded readings) and [`pgn`] in and out, over the [`game`] itself,
//! whose opening [`openings`] names.
//! The most used items are re-exported here. Build with `default-features = false` for the
//! core without the desktop app.
//!
//! The other modules serve the `boardsight` program and its tests (the live session, the
//! board's worker thread, engines, the simulated and the virtual DGT board, the commands,
//! the app); they are public for those, hidden from the documentation and not a stable
//! interface.

#[deny(missing_docs)]
pub mod game;
#[deny(missing_docs)]
pub mod openings;
#[deny(missing_docs)]
pub mod pgn;
#[deny(missing_docs)]
pub mod protocol;
#[deny(missing_docs)]
pub mod reading;
#[deny(missing_docs)]
pub mod recognizer;
#[deny(missing_docs)]
pub mod sensorlog;

pub use game::{FenError, GameRecord, GameTags, PgnResult, fen_of, parse_fen};
pub use protocol::Protocol;
pub use reading::{Millis, Reading, TimedReading};
pub use recognizer::{BoardOrientation, BoardStatus, Config, Event, EventKind, Recognizer};

#[cfg(feature = "app")]
#[doc(hidden)]
pub mod app;
#[doc(hidden)]
pub mod background;
#[doc(hidden)]
pub mod chess960;
#[doc(hidden)]
pub mod cli;
#[doc(hidden)]
pub mod clock;
#[doc(hidden)]
pub mod connection;
#[doc(hidden)]
pub mod dgt_serve;
#[doc(hidden)]
pub mod engine;
#[doc(hidden)]
pub mod files;
#[doc(hidden)]
pub mod online;
#[cfg(feature = "app")]
#[doc(hidden)]
pub mod picture;
#[doc(hidden)]
pub mod replay;
#[doc(hidden)]
pub mod review;
#[doc(hidden)]
pub mod session;
#[doc(hidden)]
pub mod sim;
#[doc(hidden)]
pub mod snapshot;
#[doc(hidden)]
pub mod voice;
