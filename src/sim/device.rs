//! The simulated device: plays a script of actions in real time over a serial port,
//! speaking one protocol and answering the host's commands.

use std::io;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serialport::SerialPort;
use shakmaty::{Bitboard, Square};

use super::board::PhysicalBoard;
use super::hands::Action;
use crate::protocol::dgt::HostSaid;
use crate::protocol::dgt_clock::Lights;
use crate::protocol::{Protocol, Signal, centaur, dgt, liboard, text};

/// Timed actions, in milliseconds of script time.
pub type Script = Vec<(u64, Action)>;

/// LiBoard frames must be apart by a silence; a little more than the 3 ms the host needs.
const FRAME_GAP: Duration = Duration::from_millis(5);
const CENTAUR_ADDRESS: [u8; 2] = [0x06, 0x50];
/// Milliseconds a scanning board's noise lasts: one scan.
const SCAN_MS: u64 = 20;
/// How long a polled board's noise lasts: a little longer than the host's poll period
/// (75 ms), so one poll or two read it.
const CENTAUR_NOISE: Duration = Duration::from_millis(120);

/// Why a run of the device ended.
#[derive(Debug, PartialEq, Eq)]
pub enum Ended {
    /// Every action was played.
    Finished,
    /// The script unplugs the device for this long.
    Unplugged(Duration),
    /// Asked to stop.
    Stopped,
}

pub struct Device {
    protocol: Protocol,
    board: PhysicalBoard,
    centaur: centaur::Board,
    dgt: dgt::Board,
    speed: f64,
    started: Instant,
    next: usize,
    /// The sensor of this square reads empty until then (Centaur polls).
    dropout: Option<(Square, Instant)>,
    /// The sensor of this square reads the opposite until then (Centaur polls): about one
    /// poll of the host.
    emi: Option<(Square, Instant)>,
    /// How long to wait for the host's bytes before looking at the script again.
    poll: Duration,
    /// The squares whose LED is lit (a DGT board's lights add up until put out).
    lit: Bitboard,
    /// Told the lights and sounds the host asks for, in order.
    signals: Option<SignalSink>,
    /// Given every byte the host sends, as it comes.
    tap: Option<ByteTap>,
}

/// What is given the host's bytes as the simulated board reads them.
pub type ByteTap = Box<dyn FnMut(&[u8]) + Send>;

/// What hears the lights and sounds a host asks of the simulated board.
pub type SignalSink = Box<dyn FnMut(Signal) + Send>;

impl Device {
    /// `speed` 2.0 plays twice as fast as the script's times.
    pub fn new(protocol: Protocol, speed: f64) -> Self {
        Self {
            protocol,
            board: PhysicalBoard::empty(),
            centaur: centaur::Board::new(CENTAUR_ADDRESS),
            dgt: dgt::Board::default(),
            speed: speed.max(0.01),
            started: Instant::now(),
            next: 0,
            dropout: None,
            emi: None,
            poll: Duration::from_millis(2),
            lit: Bitboard::EMPTY,
            signals: None,
            tap: None,
        }
    }

    /// Gives every byte the host sends to `tap` (what a board really receives, to check).
    pub fn tap_host_bytes(&mut self, tap: ByteTap) {
        self.tap = Some(tap);
    }

    /// Tells every change of the lights, and every sound, the host asks for to `signals`.
    pub fn tell_signals(&mut self, signals: SignalSink) {
        self.signals = Some(signals);
    }

    /// The squares whose LED is lit.
    pub fn lit(&self) -> Bitboard {
        self.lit
    }

    /// Takes in what the host asked of the lights and the beeper in one read: its sounds,
    /// and the lights as they stand after it.
    fn hear_signals(&mut self) {
        let mut lit = self.lit;
        let mut beeps = Vec::new();
        match self.protocol {
            Protocol::Centaur => {
                for signal in self.centaur.take_heard() {
                    match signal {
                        Signal::Lights(squares) => lit = squares,
                        Signal::Beep(beep) => beeps.push(beep),
                    }
                }
            }
            Protocol::Dgt => {
                for said in self.dgt.take_heard() {
                    match said {
                        HostSaid::Lights(Lights::On(squares)) => lit |= squares,
                        HostSaid::Lights(Lights::Off) => lit = Bitboard::EMPTY,
                        _ => {}
                    }
                }
            }
            Protocol::Liboard | Protocol::Text => {}
        }
        let mut told: Vec<Signal> = beeps.into_iter().map(Signal::Beep).collect();
        if lit != self.lit {
            self.lit = lit;
            told.push(Signal::Lights(lit));
        }
        if let Some(sink) = &mut self.signals {
            told.into_iter().for_each(sink);
        }
    }

    pub fn board(&self) -> &PhysicalBoard {
        &self.board
    }

    fn script_time(&self) -> u64 {
        (self.started.elapsed().as_secs_f64() * 1000.0 * self.speed) as u64
    }

    fn scaled(&self, ms: u64) -> Duration {
        Duration::from_secs_f64(ms as f64 / 1000.0 / self.speed)
    }

    /// Plays the script from where it stopped until it ends, unplugs or `stop` is set.
    pub fn run(
        &mut self,
        port: &mut dyn SerialPort,
        script: &Script,
        stop: &AtomicBool,
    ) -> io::Result<Ended> {
        port.set_timeout(self.poll)?;
        let mut buffer = [0u8; 512];
        loop {
            if stop.load(Ordering::Relaxed) {
                return Ok(Ended::Stopped);
            }
            while let Some((at, action)) = script.get(self.next) {
                if *at > self.script_time() {
                    break;
                }
                self.next += 1;
                if let Action::Unplug(ms) = action {
                    return Ok(Ended::Unplugged(self.scaled(*ms)));
                }
                self.perform(port, action)?;
            }
            match port.read(&mut buffer) {
                Ok(0) => {}
                Ok(n) => {
                    if let Some(tap) = &mut self.tap {
                        tap(&buffer[..n]);
                    }
                    let replies = self.answer(&buffer[..n]);
                    self.hear_signals();
                    port.write_all(&replies)?;
                }
                // A signal (Ctrl-C) interrupts the wait; `stop` says whether to go on.
                Err(e) if crate::connection::is_quiet(&e) => {}
                Err(e) => return Err(e),
            }
            if self.next >= script.len() {
                return Ok(Ended::Finished);
            }
        }
    }

    /// Performs actions as they arrive (a person at a virtual board), answering the host,
    /// until `stop` is set or the sender goes away.
    pub fn run_live(
        &mut self,
        port: &mut dyn SerialPort,
        actions: &std::sync::mpsc::Receiver<Action>,
        stop: &AtomicBool,
    ) -> io::Result<()> {
        let nothing = Vec::new();
        // A person's click can wait this long; an idle board then costs next to nothing.
        self.poll = Duration::from_millis(20);
        loop {
            loop {
                match actions.try_recv() {
                    Ok(action) => self.perform(port, &action)?,
                    Err(std::sync::mpsc::TryRecvError::Empty) => break,
                    Err(std::sync::mpsc::TryRecvError::Disconnected) => return Ok(()),
                }
            }
            if self.run(port, &nothing, stop)? == Ended::Stopped {
                return Ok(());
            }
        }
    }

    /// Keeps answering the host (a board stays connected) until `stop` is set.
    pub fn idle(&mut self, port: &mut dyn SerialPort, stop: &AtomicBool) -> io::Result<()> {
        let nothing = Vec::new();
        while !stop.load(Ordering::Relaxed) {
            self.run(port, &nothing, stop)?;
            std::thread::sleep(Duration::from_millis(1));
        }
        Ok(())
    }

    fn answer(&mut self, bytes: &[u8]) -> Vec<u8> {
        match self.protocol {
            Protocol::Centaur => {
                let mut occupancy = self.board.occupancy();
                if let Some((square, until)) = self.dropout {
                    if Instant::now() < until {
                        occupancy.discard(square);
                    } else {
                        self.dropout = None;
                    }
                }
                if let Some((square, until)) = self.emi {
                    if Instant::now() < until {
                        occupancy.toggle(square);
                    } else {
                        self.emi = None;
                    }
                }
                let time_ms = self.started.elapsed().as_millis() as u64;
                self.centaur.receive(bytes, occupancy, time_ms)
            }
            Protocol::Dgt => {
                let micros = self.started.elapsed().as_micros() as u64;
                self.dgt.receive(bytes, self.board.pieces(), None, micros)
            }
            Protocol::Liboard | Protocol::Text => Vec::new(),
        }
    }

    fn send_occupancy(&self, port: &mut dyn SerialPort, occupancy: Bitboard) -> io::Result<()> {
        match self.protocol {
            Protocol::Liboard => {
                port.write_all(&liboard::encode(occupancy))?;
                port.flush()?;
                std::thread::sleep(FRAME_GAP);
            }
            Protocol::Text => port.write_all(&text::encode(occupancy))?,
            Protocol::Centaur | Protocol::Dgt => {}
        }
        Ok(())
    }

    fn perform(&mut self, port: &mut dyn SerialPort, action: &Action) -> io::Result<()> {
        match action {
            Action::Garbage(bytes) => {
                port.write_all(bytes)?;
                port.flush()?;
                std::thread::sleep(FRAME_GAP);
            }
            Action::TornFrame => {
                let torn: &[u8] = match self.protocol {
                    Protocol::Liboard => &liboard::encode(self.board.occupancy())[..3],
                    Protocol::Centaur => &[0x85, 0x00, 0x0a, 0x06],
                    Protocol::Dgt => &[0x8E, 0x00],
                    Protocol::Text => b"0101\n",
                };
                port.write_all(torn)?;
                port.flush()?;
                std::thread::sleep(FRAME_GAP);
            }
            Action::Dropout(square, ms) => {
                let without = self.board.occupancy().without(*square);
                match self.protocol {
                    Protocol::Centaur => {
                        self.dropout = Some((*square, Instant::now() + self.scaled(*ms)));
                    }
                    Protocol::Liboard | Protocol::Text => {
                        self.send_occupancy(port, without)?;
                        std::thread::sleep(self.scaled(*ms));
                        self.send_occupancy(port, self.board.occupancy())?;
                    }
                    // A DGT board reads piece identities; a flicker is not reported.
                    Protocol::Dgt => {}
                }
            }
            Action::Emi(square) => match self.protocol {
                Protocol::Centaur => self.emi = Some((*square, Instant::now() + CENTAUR_NOISE)),
                Protocol::Liboard | Protocol::Text => {
                    let mut flipped = self.board.occupancy();
                    flipped.toggle(*square);
                    self.send_occupancy(port, flipped)?;
                    std::thread::sleep(self.scaled(SCAN_MS));
                    self.send_occupancy(port, self.board.occupancy())?;
                }
                // A DGT board reads piece identities; noise is not reported.
                Protocol::Dgt => {}
            },
            Action::Unplug(_) => {}
            Action::Lift(_)
            | Action::Place(..)
            | Action::Pass(..)
            | Action::Replace(..)
            | Action::Knock(_)
            | Action::SetBack(_)
            | Action::PlaceUnseen(..)
            | Action::Straighten(_)
            | Action::SetUp(_) => {
                let before = self.board.occupancy();
                let changes = self.board.apply(action);
                match self.protocol {
                    Protocol::Liboard | Protocol::Text => {
                        // A piece replaced in one motion changes nothing a sensor reads.
                        let send = match action {
                            Action::Replace(..) => self.board.occupancy() != before,
                            _ => !changes.is_empty(),
                        };
                        if send {
                            self.send_occupancy(port, self.board.occupancy())?;
                        }
                    }
                    Protocol::Centaur => {
                        // Setting up lifts and places pieces too; the board hears each.
                        for (square, piece) in changes {
                            self.centaur.record(match piece {
                                Some(_) => centaur::BoardEvent::Place(square),
                                None => centaur::BoardEvent::Lift(square),
                            });
                        }
                    }
                    Protocol::Dgt => {
                        for (square, piece) in changes {
                            port.write_all(&self.dgt.changed(square, piece))?;
                        }
                    }
                }
            }
        }
        port.flush()
    }
}
