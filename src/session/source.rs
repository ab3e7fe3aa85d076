//! Where the readings come from. A live source owns its connection to the serial worker, so
//! the app is connected exactly when its source is live.

use crate::connection::{Command, Connection, ConnectionStatus};
use crate::protocol::Protocol;

use super::simulated::{SIMULATED_PROTOCOL, SimulatedBoard};
use super::timeline::Timeline;

pub enum Source {
    /// The built-in simulated board, through the serial worker.
    Simulated {
        board: Box<SimulatedBoard>,
        live: Live,
    },
    /// A board on a serial port.
    Serial {
        port: String,
        protocol: Protocol,
        live: Live,
    },
    /// A recorded sensor log, on the timeline.
    Recording(Box<Timeline>),
    None,
}

/// A connection to the serial worker and what it last said of the port.
pub struct Live {
    pub connection: Connection,
    pub status: Option<ConnectionStatus>,
}

impl Live {
    pub fn new(connection: Connection) -> Self {
        Self {
            connection,
            status: None,
        }
    }
}

impl Source {
    pub fn live(&self) -> Option<&Live> {
        match self {
            Source::Simulated { live, .. } | Source::Serial { live, .. } => Some(live),
            Source::Recording(_) | Source::None => None,
        }
    }

    pub fn live_mut(&mut self) -> Option<&mut Live> {
        match self {
            Source::Simulated { live, .. } | Source::Serial { live, .. } => Some(live),
            Source::Recording(_) | Source::None => None,
        }
    }

    /// Sends a command to the worker of a live source; a recording takes none.
    pub fn send(&self, command: Command) {
        if let Some(live) = self.live() {
            live.connection.send(command);
        }
    }

    /// The protocol of the board followed live.
    pub fn protocol(&self) -> Option<Protocol> {
        match self {
            Source::Simulated { .. } => Some(SIMULATED_PROTOCOL),
            Source::Serial { protocol, .. } => Some(*protocol),
            _ => None,
        }
    }

    pub fn simulated_board(&mut self) -> Option<&mut SimulatedBoard> {
        match self {
            Source::Simulated { board, .. } => Some(board),
            _ => None,
        }
    }

    pub fn timeline(&self) -> Option<&Timeline> {
        match self {
            Source::Recording(timeline) => Some(timeline),
            _ => None,
        }
    }

    pub fn timeline_mut(&mut self) -> Option<&mut Timeline> {
        match self {
            Source::Recording(timeline) => Some(timeline),
            _ => None,
        }
    }

    /// A few words for the status bar.
    pub fn describe(&self) -> String {
        match self {
            Source::Simulated { .. } => {
                format!("simulated board ({})", SIMULATED_PROTOCOL.name())
            }
            Source::Serial { port, protocol, .. } => format!("{port} ({protocol})"),
            Source::Recording(timeline) => format!("recording {}", timeline.name),
            Source::None => "no board".into(),
        }
    }
}
