//! The serial worker: a background thread that owns the port, drives the protocol,
//! timestamps readings and feeds the recognizer. It reports to whoever listens through a
//! channel and a wake-up callback, and takes commands back through another channel.

mod ports;
mod worker;

pub use ports::{PortChoice, list_ports};
pub use worker::{Change, Command, Connection, ConnectionStatus, Update, connect};
