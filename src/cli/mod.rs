//! What the command-line commands do; `main.rs` only parses arguments and calls these.

pub mod listen;
pub mod pgn_check;
pub mod ports;
pub mod replay;
pub mod review;
pub mod simulate;
pub mod token;

use std::process::ExitCode;

/// Exit status for input the command cannot use (a bad file, port or argument).
pub fn usage_error(message: &str) -> ExitCode {
    eprintln!("boardsight: {message}");
    ExitCode::from(2)
}
