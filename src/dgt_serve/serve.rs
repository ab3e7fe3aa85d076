//! The virtual board on a pseudo-terminal, served by a thread of its own: the caller hands
//! it settled positions over a channel and never waits for the other program.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::thread::JoinHandle;
use std::time::Duration;

use serialport::SerialPort;
use shakmaty::Position;

use super::board::VirtualBoard;
use crate::sim::pty::PtyLink;

/// How long the thread waits for the host's bytes before looking for a new position; also
/// how long a write waits for a host that does not read before the bytes are dropped.
const POLL: Duration = Duration::from_millis(20);

/// A DGT board other programs can open, showing the positions given to `show`. Dropping it
/// stops its thread, closes the terminal and removes the link.
pub struct VirtualDgtBoard {
    path: PathBuf,
    device: PathBuf,
    positions: Option<Sender<shakmaty::Board>>,
    thread: Option<JoinHandle<()>>,
}

impl VirtualDgtBoard {
    /// Opens a pseudo-terminal (with `link` made a symlink to it) showing the standard
    /// start position until the first `show`.
    pub fn start(link: Option<&Path>) -> io::Result<Self> {
        let mut pty = PtyLink::open(link)?;
        let device = pty
            .device_path()
            .map(PathBuf::from)
            .ok_or_else(|| io::Error::other("the pseudo-terminal has no device path"))?;
        if let Some(port) = pty.port() {
            port.set_timeout(POLL)?;
        }
        let (positions, received) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("virtual DGT board".into())
            .spawn(move || serve(pty, &received))?;
        Ok(Self {
            path: link.map_or_else(|| device.clone(), Path::to_owned),
            device,
            positions: Some(positions),
            thread: Some(thread),
        })
    }

    /// The path to give the other program: the link, or the terminal itself.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The pseudo-terminal's own device path.
    pub fn device(&self) -> &Path {
        &self.device
    }

    /// Shows a settled position (sends it to the thread; returns at once).
    pub fn show(&self, position: &shakmaty::Chess) {
        if let Some(positions) = &self.positions {
            // Only a thread that panicked has stopped listening; nothing is left to show.
            let _ = positions.send(position.board().clone());
        }
    }
}

impl Drop for VirtualDgtBoard {
    fn drop(&mut self) {
        self.positions = None;
        if let Some(thread) = self.thread.take()
            && thread.join().is_err()
        {
            eprintln!("boardsight: the virtual DGT board's thread failed");
        }
    }
}

/// Answers the host and sends updates until the sender of positions is gone.
fn serve(mut pty: PtyLink, positions: &Receiver<shakmaty::Board>) {
    let mut board = VirtualBoard::new(&shakmaty::Board::default());
    let mut buffer = [0u8; 256];
    loop {
        let Some(port) = pty.port() else { return };
        let mut out = match port.read(&mut buffer) {
            Ok(n) => board.receive(&buffer[..n]),
            Err(e) if is_quiet(&e) => Vec::new(),
            Err(_) => {
                // A terminal in trouble: try again later rather than spin.
                std::thread::sleep(POLL);
                Vec::new()
            }
        };
        if board.take_reset() {
            // Updates queued for a host that left are stale for the one starting now.
            pty.discard_unread();
        }
        loop {
            match positions.try_recv() {
                Ok(next) => out.extend(board.show(&next)),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => return,
            }
        }
        if !out.is_empty()
            && let Some(port) = pty.port()
        {
            // No host reading (or one that stopped): the bytes are dropped, as a board's
            // are when no cable is plugged in. A reset or dump request brings it back.
            let _ = port.write_all(&out);
        }
    }
}

fn is_quiet(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
    )
}
