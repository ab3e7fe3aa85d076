//! The virtual board on a pseudo-terminal, served by a thread of its own: the caller hands
//! it settled positions and the clock over a channel and never waits for the other program.
//! The thread runs the clock on between what it is told, so the host sees it count down,
//! and hands back what the host told the clock and the lights.

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, Sender, TryRecvError};
use std::time::{Duration, Instant};

use serialport::SerialPort;
use shakmaty::Position;

use super::board::VirtualBoard;
use crate::background::{Wake, WorkerThread};
use crate::protocol::Micros;
use crate::protocol::dgt::{DgtClock, HostSaid};
use crate::sim::pty::PtyLink;

/// How long the thread waits for the host's bytes before looking for a new position; also
/// how long a write waits for a host that does not read before the bytes are dropped.
const POLL: Duration = Duration::from_millis(20);

/// What the owner tells the thread.
enum Shown {
    Position(shakmaty::Board),
    /// The clock as it read at that instant.
    Clock(Option<DgtClock>, Instant),
}

/// A DGT board other programs can open, showing the positions given to `show` and the clock
/// given to `show_clock`. Dropping it stops its thread, closes the terminal and removes the
/// link.
pub struct VirtualDgtBoard {
    path: PathBuf,
    device: PathBuf,
    shown: Option<Sender<Shown>>,
    heard: Receiver<(HostSaid, Instant)>,
    /// Dropped after `shown`: the thread sees its owner gone, and is joined.
    _thread: WorkerThread,
}

impl VirtualDgtBoard {
    /// Opens a pseudo-terminal (with `link` made a symlink to it) showing the standard
    /// start position until the first `show`; `wake` is called when the host told the
    /// clock or the lights something.
    pub fn start(link: Option<&Path>, wake: Wake) -> io::Result<Self> {
        let mut pty = PtyLink::open(link)?;
        let device = pty
            .device_path()
            .map(PathBuf::from)
            .ok_or_else(|| io::Error::other("the pseudo-terminal has no device path"))?;
        if let Some(port) = pty.port() {
            port.set_timeout(POLL)?;
        }
        let (shown, received) = mpsc::channel();
        let (tell, heard) = mpsc::channel();
        let epoch = Instant::now();
        let thread = WorkerThread::spawn("virtual DGT board", move || {
            let host = Host { tell, wake };
            serve(pty, &received, &host, epoch);
        })?;
        Ok(Self {
            path: link.map_or_else(|| device.clone(), Path::to_owned),
            device,
            shown: Some(shown),
            heard,
            _thread: thread,
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
        self.send(Shown::Position(position.board().clone()));
    }

    /// Shows the clock as it reads now (`None`: no clock attached); returns at once. Call
    /// it when the clock changes (a move, a takeback, a flag, a clock started or stopped):
    /// the running side's time counts down by itself in between.
    pub fn show_clock(&self, clock: Option<DgtClock>) {
        self.send(Shown::Clock(clock, Instant::now()));
    }

    /// What the host told the clock and the lights since the last call, and when.
    pub fn take_heard(&self) -> Vec<(HostSaid, Instant)> {
        self.heard.try_iter().collect()
    }

    fn send(&self, shown: Shown) {
        if let Some(sender) = &self.shown {
            // Only a thread that panicked has stopped listening; nothing is left to show.
            let _ = sender.send(shown);
        }
    }
}

/// Where the thread hands back what the host said.
struct Host {
    tell: Sender<(HostSaid, Instant)>,
    wake: Wake,
}

/// Answers the host and sends updates until the owner is gone. Times count from `epoch`.
fn serve(mut pty: PtyLink, shown: &Receiver<Shown>, host: &Host, epoch: Instant) {
    let micros = |at: Instant| at.saturating_duration_since(epoch).as_micros() as Micros;
    let mut board = VirtualBoard::new(&shakmaty::Board::default());
    let mut buffer = [0u8; 256];
    loop {
        let Some(port) = pty.port() else { return };
        let received = match port.read(&mut buffer) {
            Ok(n) => n,
            Err(e) if crate::connection::is_quiet(&e) => 0,
            Err(_) => {
                // A terminal in trouble: try again later rather than spin.
                std::thread::sleep(POLL);
                0
            }
        };
        // What the session showed meanwhile comes first: a host that asks right after a
        // move is answered with the position after it.
        let mut out = Vec::new();
        loop {
            match shown.try_recv() {
                Ok(Shown::Position(next)) => out.extend(board.show(&next)),
                Ok(Shown::Clock(clock, at)) => out.extend(board.show_clock(clock, micros(at))),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => return,
            }
        }
        let answer = board.receive(&buffer[..received], micros(Instant::now()));
        let heard = board.take_heard();
        if !heard.is_empty() {
            let now = Instant::now();
            for said in heard {
                // An owner gone is noticed below, at the next position.
                let _ = host.tell.send((said, now));
            }
            (host.wake)();
        }
        if board.take_reset() {
            // Updates queued for a host that left are stale for the one starting now.
            pty.discard_unread();
            out.clear();
        }
        out.extend(answer);
        // The clock runs on: a new second on its display goes out in the clock modes.
        out.extend(board.tick(micros(Instant::now())));
        if !out.is_empty()
            && let Some(port) = pty.port()
        {
            // No host reading (or one that stopped): the bytes are dropped, as a board's
            // are when no cable is plugged in. A reset or dump request brings it back.
            let _ = port.write_all(&out);
        }
    }
}
