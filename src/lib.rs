//! boardsight: recognises chess games on electronic boards whose sensors only report
//! which squares are occupied.

#[cfg(feature = "app")]
pub mod app;
pub mod background;
pub mod chess960;
pub mod cli;
pub mod clock;
pub mod connection;
pub mod dgt_serve;
pub mod engine;
pub mod files;
pub mod game;
pub mod pgn;
pub mod protocol;
pub mod reading;
pub mod recognizer;
pub mod replay;
pub mod sensorlog;
pub mod session;
pub mod sim;
pub mod snapshot;
