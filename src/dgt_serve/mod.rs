//! A virtual DGT board: any board boardsight follows, shown to other chess programs as a
//! DGT e-board (the board side of the classic serial protocol) on a pseudo-terminal, with
//! the recognised pieces and, when a chess clock runs, as a DGT board with a DGT clock. It
//! shows settled positions only; `board` holds the logic, `serve` the terminal and its thread.

pub mod board;
/// Unix has pseudo-terminals; elsewhere starting a virtual board says it cannot.
#[cfg_attr(not(unix), path = "serve_unsupported.rs")]
mod serve;

pub use crate::protocol::dgt::DgtClock;
pub use board::{VirtualBoard, dgt_clock, field_changes, pieces_of};
pub use serve::VirtualDgtBoard;
