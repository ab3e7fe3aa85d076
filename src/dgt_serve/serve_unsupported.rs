//! Where Unix pseudo-terminals do not exist, a virtual board cannot be served (Windows would
//! need a virtual COM port pair): starting one says so.

use std::io;
use std::path::Path;

/// Never made: `start` fails on this system.
pub struct VirtualDgtBoard {
    never: std::convert::Infallible,
}

impl VirtualDgtBoard {
    pub fn start(_link: Option<&Path>, _wake: crate::background::Wake) -> io::Result<Self> {
        Err(io::Error::new(
            io::ErrorKind::Unsupported,
            "a virtual DGT board needs a Unix pseudo-terminal, which this system does not have",
        ))
    }

    pub fn path(&self) -> &Path {
        match self.never {}
    }

    pub fn device(&self) -> &Path {
        match self.never {}
    }

    pub fn show(&self, _position: &shakmaty::Chess) {
        match self.never {}
    }

    pub fn show_clock(&self, _clock: Option<crate::protocol::dgt::DgtClock>) {
        match self.never {}
    }

    pub fn take_heard(&self) -> Vec<(crate::protocol::dgt::HostSaid, std::time::Instant)> {
        match self.never {}
    }
}
