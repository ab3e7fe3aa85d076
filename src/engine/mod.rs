//! A UCI chess engine as an opponent or adviser: the engine runs as a child process, a
//! worker thread talks UCI to it (parsed with shakmaty-uci) and to its owner over channels.
//! An engine that crashes, hangs or prints garbage is a message, never a frozen caller.

mod play;
mod strength;
mod worker;

pub use play::EnginePlay;
pub use strength::Strength;
pub use worker::{Engine, EngineFault, Patience, Reply, find_stockfish};
