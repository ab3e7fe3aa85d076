//! The simulated board's pseudo-terminal (Unix only): a serial port a host opens like a
//! USB board's, with a symlink to it where a real device's name would be.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::Receiver;

use serialport::{SerialPort, TTYPort};

use super::device::{Device, Ended, Script};
use super::hands::Action;
use crate::background::WorkerThread;

/// Starts `device` on a new pseudo-terminal, performing `actions` as they come until
/// `stop` is set; returns the terminal's path and the thread.
pub fn serve_live(
    mut device: Device,
    actions: Receiver<Action>,
    stop: Arc<AtomicBool>,
) -> io::Result<(String, WorkerThread)> {
    let mut pty = PtyLink::open(None)?;
    let path = pty
        .device_path()
        .ok_or_else(|| io::Error::other("the pseudo-terminal has no device path"))?;
    let thread = WorkerThread::spawn("simulated board", move || {
        if let Some(port) = pty.port() {
            // The host's worker notices a board that goes and retries: nothing to add.
            let _ = device.run_live(port, &actions, &stop);
        }
    })?;
    Ok((path, thread))
}

/// A pseudo-terminal, with a symlink to its device path as a USB board's would have.
pub struct PtyLink {
    link: Option<PathBuf>,
    master: Option<TTYPort>,
    /// Held open so the master never reads "no one is there" between connections.
    slave: Option<TTYPort>,
}

impl PtyLink {
    pub fn open(link: Option<&Path>) -> io::Result<Self> {
        let mut pty = Self {
            link: link.map(Path::to_owned),
            master: None,
            slave: None,
        };
        pty.plug()?;
        Ok(pty)
    }

    /// The device path of the terminal the host opens.
    pub fn device_path(&self) -> Option<String> {
        self.slave.as_ref().and_then(SerialPort::name)
    }

    pub fn port(&mut self) -> Option<&mut TTYPort> {
        self.master.as_mut()
    }

    /// Drops what was written to the host but not read yet.
    pub fn discard_unread(&self) {
        if let Some(slave) = &self.slave {
            // A failed flush leaves stale bytes a host resynchronises past.
            let _ = slave.clear(serialport::ClearBuffer::Input);
        }
    }

    /// Closes the terminal and removes the link, as pulling the USB cable does.
    pub fn unplug(&mut self) {
        self.remove_link();
        self.master = None;
        self.slave = None;
    }

    /// A new terminal at the same link.
    pub fn plug(&mut self) -> io::Result<()> {
        let (master, slave) = TTYPort::pair().map_err(io::Error::other)?;
        let path = slave
            .name()
            .ok_or_else(|| io::Error::other("the pseudo-terminal has no name"))?;
        if let Some(link) = &self.link {
            // Replace an old link (from an earlier run or plug), never a real file.
            if std::fs::symlink_metadata(link).is_ok_and(|m| m.file_type().is_symlink()) {
                std::fs::remove_file(link)?;
            }
            std::os::unix::fs::symlink(&path, link)?;
        }
        self.master = Some(master);
        self.slave = Some(slave);
        Ok(())
    }
}

impl PtyLink {
    fn remove_link(&self) {
        if let Some(link) = &self.link {
            let _ = std::fs::remove_file(link);
        }
    }
}

impl Drop for PtyLink {
    fn drop(&mut self) {
        self.remove_link();
    }
}

/// Plays `script` on `device` over a pseudo-terminal (linked at `link`), unplugging when
/// the script says so; then stays connected, answering the host, until `stop` is set (or
/// returns if `linger` is false).
pub fn serve(
    mut device: Device,
    script: &Script,
    link: Option<&Path>,
    stop: &AtomicBool,
    linger: bool,
    on_ready: &mut dyn FnMut(&str),
) -> io::Result<()> {
    let mut pty = PtyLink::open(link)?;
    if let Some(path) = pty.device_path() {
        on_ready(&path);
    }
    loop {
        let Some(port) = pty.port() else {
            return Err(io::Error::other("no terminal"));
        };
        match device.run(port, script, stop)? {
            Ended::Unplugged(pause) => {
                pty.unplug();
                std::thread::sleep(pause);
                pty.plug()?;
                if let Some(path) = pty.device_path() {
                    on_ready(&path);
                }
            }
            Ended::Stopped => return Ok(()),
            Ended::Finished => {
                if linger && let Some(port) = pty.port() {
                    device.idle(port, stop)?;
                }
                return Ok(());
            }
        }
    }
}
