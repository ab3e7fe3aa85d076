//! The worker thread itself.

use std::io;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use serialport::SerialPort;
use shakmaty::{Bitboard, Chess, Move, Role};

use super::port_error::port_error_message;
use crate::background::{Wake, WorkerThread};
use crate::game::GameRecord;
use crate::protocol::{Micros, Protocol, Signal};
use crate::reading::{Orientation, Reading, TimedReading};
use crate::recognizer::{Config, Event, Recognizer};
use crate::snapshot::Snapshot;

/// What the user asks of the worker.
#[derive(Clone, Debug)]
pub enum Command {
    /// The promotion piece, for the last move if it was a promotion, else for the next.
    Promote(Role),
    /// Take back the last move.
    Undo,
    /// Play again the move the last undo took back, while the board still shows it.
    Redo,
    /// Ply `ply` was really `mv` (the user corrects a misread, or enters a missed move).
    Correct { ply: usize, mv: Move },
    /// The next ply must be this move (the engine's), or any move again with `None`.
    Expect(Option<Move>),
    /// Set the board up for a new game from this position.
    SetUp(Chess),
    /// Continue this game on the board.
    Continue(GameRecord),
    /// Ply `ply` was this candidate.
    Choose { ply: usize, mv: Move },
    /// How the board's sensors are wired, applied to every reading from now on.
    Orient(Orientation),
    /// Show this on the board's lights or speaker (a board without them gets nothing).
    Signal(Signal),
    /// End the session (its last move decided, as at the end of a replay), close the
    /// port and end the thread.
    Disconnect,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConnectionStatus {
    Connecting,
    /// The port is open; no reading has come yet.
    WaitingForData,
    Connected,
    /// The port failed or went away; the worker retries.
    Error(String),
}

/// What the worker tells its listener.
#[derive(Clone, Debug)]
pub enum Update {
    Status(ConnectionStatus),
    /// A change on the board or in the game, whole.
    Change(Box<Change>),
}

/// One change, in one message, so that no receiver puts pieces back together: the readings
/// taken in, what the recognizer decided on them, and what it knows after them. One read
/// from the port may bring several readings at once (a burst of frames); they come together
/// here, as the recognizer took them in one go, rather than as messages that each carry a
/// whole snapshot.
#[derive(Clone, Debug)]
pub struct Change {
    /// Readings from the board (or commands turned readings), as recorded in a sensor log;
    /// none for a command or a new count of dropped frames.
    pub readings: Vec<TimedReading>,
    /// What the recognizer decided, in order.
    pub events: Vec<Event>,
    /// What the recognizer knows after them.
    pub snapshot: Snapshot,
}

/// The running worker: send it commands, read its updates.
pub struct Connection {
    commands: Sender<Command>,
    pub updates: Receiver<Update>,
    thread: Option<WorkerThread>,
}

impl Connection {
    pub fn send(&self, command: Command) {
        // A worker that already ended has nothing left to do with a command.
        let _ = self.commands.send(command);
    }

    /// Closes the port and waits for the thread to end.
    pub fn disconnect(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        let _ = self.commands.send(Command::Disconnect);
        if let Some(thread) = &mut self.thread {
            thread.wait();
        }
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Starts a worker on the serial port at `path`. `wake` is called after every update, so a
/// GUI can repaint.
pub fn connect(path: &str, protocol: Protocol, config: Config, wake: Wake) -> Connection {
    let (commands, command_rx) = mpsc::channel();
    let (update_tx, updates) = mpsc::channel();
    let path = path.to_owned();
    let failure = update_tx.clone();
    let thread = WorkerThread::spawn(&format!("board {path}"), move || {
        let mut worker = Worker {
            path,
            protocol,
            recognizer: Recognizer::new(config),
            started: Instant::now(),
            updates: update_tx,
            commands: command_rx,
            wake,
            dropped_before: 0,
            status: None,
            orientation: Orientation::default(),
            sensed: None,
            told_dropped: 0,
            readings: Vec::new(),
            events: Vec::new(),
            lights: Bitboard::EMPTY,
        };
        worker.run();
    })
    .inspect_err(|e| {
        // The listener's channel stays open through `failure`, so it hears why.
        // (A listener already gone needs no message.)
        drop(failure.send(Update::Status(ConnectionStatus::Error(e.to_string()))));
    })
    .ok();
    Connection {
        commands,
        updates,
        thread,
    }
}

/// Reconnection waits grow to this.
const MAX_BACKOFF: Duration = Duration::from_secs(2);
const FIRST_BACKOFF: Duration = Duration::from_millis(100);

struct Worker {
    path: String,
    protocol: Protocol,
    recognizer: Recognizer,
    started: Instant,
    updates: Sender<Update>,
    commands: Receiver<Command>,
    wake: Wake,
    /// Errors counted by earlier sessions (each reconnect starts a fresh codec).
    dropped_before: u64,
    status: Option<ConnectionStatus>,
    orientation: Orientation,
    /// What the readings passed on so far say the board senses (`None` before the first):
    /// a polled board repeats itself many times a second, and a repeat is not kept.
    sensed: Option<Bitboard>,
    /// The dropped count the last snapshot told.
    told_dropped: u64,
    /// The readings and events since the last change told.
    readings: Vec<TimedReading>,
    events: Vec<Event>,
    /// The lights asked for, lit again after a reconnect.
    lights: Bitboard,
}

enum Flow {
    Continue,
    Stop,
}

impl Worker {
    fn micros(&self) -> Micros {
        self.started.elapsed().as_micros() as Micros
    }

    fn millis(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    fn send(&self, update: Update) {
        if self.updates.send(update).is_ok() {
            (self.wake)();
        }
    }

    fn set_status(&mut self, status: ConnectionStatus) {
        if self.status.as_ref() != Some(&status) {
            self.status = Some(status.clone());
            self.send(Update::Status(status));
        }
    }

    fn run(&mut self) {
        let mut backoff = FIRST_BACKOFF;
        self.send_snapshot(0);
        loop {
            self.set_status(ConnectionStatus::Connecting);
            match serialport::new(&self.path, self.protocol.baud_rate())
                .timeout(Duration::from_millis(1))
                .open()
            {
                Ok(mut port) => {
                    backoff = FIRST_BACKOFF;
                    match self.serve(port.as_mut()) {
                        Ok(Flow::Stop) => return,
                        Ok(Flow::Continue) => {}
                        Err(e) => self
                            .set_status(ConnectionStatus::Error(port_error_message(&self.path, e))),
                    }
                }
                Err(e) => {
                    self.set_status(ConnectionStatus::Error(port_error_message(&self.path, e)))
                }
            }
            // Wait before retrying, still answering commands.
            let retry_at = Instant::now() + backoff;
            backoff = (backoff * 2).min(MAX_BACKOFF);
            while let Some(left) = retry_at.checked_duration_since(Instant::now()) {
                match self.commands.recv_timeout(left) {
                    Ok(command) => {
                        if let Flow::Stop = self.obey(command) {
                            return;
                        }
                    }
                    Err(RecvTimeoutError::Timeout) => break,
                    Err(RecvTimeoutError::Disconnected) => return,
                }
            }
        }
    }

    /// Talks to an open port until it fails (`Err`), or the user disconnects.
    fn serve(&mut self, port: &mut dyn SerialPort) -> io::Result<Flow> {
        let mut session = self.protocol.host();
        let mut hello = session.open(self.micros());
        if !self.lights.is_empty() {
            hello.extend(session.signal(self.on_sensors(Signal::Lights(self.lights))));
        }
        port.write_all(&hello)?;
        self.set_status(ConnectionStatus::WaitingForData);
        let mut buffer = [0u8; 1024];
        let mut readings = Vec::new();
        loop {
            port.set_timeout(Duration::from_micros(session.tick_interval().max(500)))?;
            loop {
                match self.commands.try_recv() {
                    Ok(Command::Signal(signal)) => {
                        self.remember(signal);
                        port.write_all(&session.signal(self.on_sensors(signal)))?;
                    }
                    Ok(command) => {
                        if let Flow::Stop = self.obey(command) {
                            return Ok(Flow::Stop);
                        }
                    }
                    Err(mpsc::TryRecvError::Empty) => break,
                    Err(mpsc::TryRecvError::Disconnected) => return Ok(Flow::Stop),
                }
            }
            let reply = match port.read(&mut buffer) {
                Ok(0) => {
                    return Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "the device closed",
                    ));
                }
                Ok(n) => session.receive(&buffer[..n], self.micros(), &mut readings),
                // No bytes in time, or a signal interrupted the wait: time passes.
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::TimedOut | io::ErrorKind::Interrupted
                    ) =>
                {
                    // A still board decides a capture seen only as the capturer's lift.
                    let events = self.recognizer.tick(self.millis());
                    if !events.is_empty() {
                        self.events.extend(events);
                        self.send_snapshot(self.dropped_before + session.dropped());
                    }
                    session.tick(self.micros(), &mut readings)
                }
                Err(e) => return Err(e),
            };
            if !reply.is_empty() {
                port.write_all(&reply)?;
            }
            if !readings.is_empty() {
                self.set_status(ConnectionStatus::Connected);
                let t = self.millis();
                let dropped = self.dropped_before + session.dropped();
                let mut changed = dropped != self.told_dropped;
                let mut news = Vec::with_capacity(readings.len());
                for reading in readings.drain(..) {
                    let reading = self.orientation.apply(reading);
                    if self.is_news(reading) {
                        news.push(TimedReading::new(t, reading));
                    }
                }
                // One read of the board (a poll's events and occupancy) is decided on at once.
                if !news.is_empty() {
                    self.feed(&news);
                    changed = true;
                }
                // Memory and messages grow with changes on the board, never with idle time.
                if changed {
                    self.send_snapshot(dropped);
                }
            }
            if let Err(e) = port_still_there(port) {
                self.dropped_before += session.dropped();
                return Err(e);
            }
        }
    }

    /// Whether a reading says something new: an event always does, an occupancy only when
    /// it differs from what the board was last known to sense.
    fn is_news(&mut self, reading: Reading) -> bool {
        let sensed = self.sensed.unwrap_or(Bitboard::EMPTY);
        let (now, news) = match reading {
            Reading::Occupancy(occupancy) => (occupancy, self.sensed != Some(occupancy)),
            Reading::Lift(square) => (sensed.without(square), true),
            Reading::Place(square) => (sensed.with(square), true),
            Reading::Promote(_) => (sensed, true),
        };
        self.sensed = Some(now);
        news
    }

    fn feed(&mut self, read: &[TimedReading]) {
        self.readings.extend_from_slice(read);
        let events = self.recognizer.feed_batch(read);
        self.events.extend(events);
    }

    fn obey(&mut self, command: Command) -> Flow {
        let t = self.millis();
        let events = match command {
            Command::Disconnect => {
                // The session ends: a piece still in the air over its capture is taken as
                // that capture, as a replay of the recording takes it, and told.
                let events = self.recognizer.finish(t);
                self.events.extend(events);
                self.send_snapshot(self.told_dropped);
                return Flow::Stop;
            }
            // A promotion choice is a reading: it goes into the sensor log too.
            Command::Promote(role) => {
                self.feed(&[TimedReading::new(t, Reading::Promote(role))]);
                Vec::new()
            }
            Command::Undo => self.recognizer.undo(t),
            Command::Redo => self.recognizer.redo(t),
            Command::Correct { ply, mv } => self.recognizer.correct(ply, mv, t),
            Command::Expect(mv) => {
                self.recognizer.expect_move(mv);
                Vec::new()
            }
            Command::SetUp(position) => self.recognizer.set_up(position, t),
            Command::Continue(game) => self.recognizer.continue_game(&game, t),
            Command::Choose { ply, mv } => {
                self.recognizer.choose(ply, mv, t);
                Vec::new()
            }
            Command::Orient(orientation) => {
                self.orientation = orientation;
                // Squares mean other squares now: the next reading is news.
                self.sensed = None;
                Vec::new()
            }
            // No port is open: the lights are lit when one is.
            Command::Signal(signal) => {
                self.remember(signal);
                return Flow::Continue;
            }
        };
        self.events.extend(events);
        self.send_snapshot(self.dropped_before);
        Flow::Continue
    }

    /// Lights on game squares, as the sensors' squares under them (a board turned round or
    /// wired otherwise lights the LED under the piece, not the one wired as its square).
    fn on_sensors(&self, signal: Signal) -> Signal {
        let Signal::Lights(squares) = signal else {
            return signal;
        };
        let turned = self.recognizer.is_turned();
        let lit = shakmaty::Square::ALL
            .into_iter()
            .filter(|&sensor| {
                let square = self.orientation.square(sensor);
                let square = if turned {
                    square.flip_vertical().flip_horizontal()
                } else {
                    square
                };
                squares.contains(square)
            })
            .collect();
        Signal::Lights(lit)
    }

    fn remember(&mut self, signal: Signal) {
        if let Signal::Lights(squares) = signal {
            self.lights = squares;
        }
    }

    /// Tells the change: the readings and events since the last, and the snapshot now.
    fn send_snapshot(&mut self, dropped: u64) {
        self.told_dropped = dropped;
        let change = Change {
            readings: std::mem::take(&mut self.readings),
            events: std::mem::take(&mut self.events),
            snapshot: Snapshot::of(&self.recognizer, dropped),
        };
        self.send(Update::Change(Box::new(change)));
    }
}

/// A pseudo-terminal whose other end closed reads nothing forever on some systems;
/// checking the modem lines notices a vanished device there too.
fn port_still_there(port: &mut dyn SerialPort) -> io::Result<()> {
    port.bytes_to_read().map(|_| ()).map_err(io::Error::other)
}
