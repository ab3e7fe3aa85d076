//! Where Unix pseudo-terminals do not exist, the simulated board cannot be served: every
//! entry point says so.

use std::io;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::Receiver;

use super::device::{Device, Script};
use super::hands::Action;
use crate::background::WorkerThread;

fn unsupported() -> io::Error {
    io::Error::new(
        io::ErrorKind::Unsupported,
        "the simulated board needs a Unix pseudo-terminal, which this system does not have",
    )
}

pub fn serve_live(
    _device: Device,
    _actions: Receiver<Action>,
    _stop: Arc<AtomicBool>,
) -> io::Result<(String, WorkerThread)> {
    Err(unsupported())
}

pub fn serve(
    _device: Device,
    _script: &Script,
    _link: Option<&Path>,
    _stop: &AtomicBool,
    _linger: bool,
    _on_ready: &mut dyn FnMut(&str),
) -> io::Result<()> {
    Err(unsupported())
}
