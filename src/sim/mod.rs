//! The simulated board: plays games the way a person handles pieces, and speaks any of the
//! protocols over a serial port (a pseudo-terminal), answering the commands of those that poll.

pub mod board;
pub mod device;
pub mod hands;
/// Unix has pseudo-terminals; elsewhere each entry point says the simulator cannot run.
#[cfg_attr(not(unix), path = "pty_unsupported.rs")]
pub mod pty;
pub mod recording;
pub mod sample;

pub use board::PhysicalBoard;
pub use device::{Device, Script};
pub use hands::{
    Action, HandCounts, HandStyle, Scripted, move_actions, script_games, script_hours,
    script_session,
};
pub use recording::{Mode, Recording, Sensors, record, record_every, record_games};
