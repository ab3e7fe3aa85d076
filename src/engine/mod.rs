//! A UCI chess engine as an opponent or adviser: the engine runs as a child process, a
//! worker thread talks UCI to it (parsed with shakmaty-uci) and to its owner over channels.
//! An engine that crashes, hangs or prints garbage is a message, never a frozen caller.

mod adviser;
mod analysis;
mod fault;
mod play;
mod process;
mod strength;
mod time;
mod worker;

pub use adviser::{Adviser, Analysis};
pub use analysis::{AnalysisLine, Score};
pub use fault::EngineFault;
pub use play::{EnginePlay, TAKEBACK_PAUSE, TAKEBACK_WAIT_WORDS};
pub use strength::Strength;
pub use time::EngineClock;
pub use worker::{
    Engine, MAX_LINES, Patience, Reply, SearchLimit, Ticket, castling_mode, find_stockfish,
};
