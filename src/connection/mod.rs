//! The serial worker: a background thread that owns the port, drives the protocol,
//! timestamps readings and feeds the recognizer. It reports to whoever listens through a
//! channel and a wake-up callback, and takes commands back through another channel.
//!
//! Beside it: the machine's ports (`ports`), what answers on them (`probe`), ports watched
//! for boards plugged in (`watch`), the rule for boards seen before and new ones (`finder`),
//! the three together for the app (`scout`), and port errors in plain words (`port_error`).

pub mod finder;
mod port_error;
mod ports;
pub mod probe;
pub mod scout;
pub mod watch;
mod worker;

pub use finder::{BoardFinder, FinderAction, KnownBoard, Offer};
pub use port_error::{PortError, PortFault, port_error_message, port_error_words};
pub use ports::{PortChoice, UsbId, list_ports, ports_with};
pub use probe::{Verdict, probe_port, probe_ports};
pub use scout::{BoardScout, ScoutNews, ScoutSetup};
pub use worker::{Change, Command, Connection, ConnectionStatus, Update, connect};

/// Whether a serial read's error only says nothing came yet (a timeout, no data, a
/// signal): the caller reads again.
pub fn is_quiet(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::TimedOut
            | std::io::ErrorKind::WouldBlock
            | std::io::ErrorKind::Interrupted
    )
}
