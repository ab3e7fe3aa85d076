#![cfg(unix)]
//! `listen --serve-dgt --clock 5+3` followed by a DGT host that behaves as PicoChess's
//! `dgt/board.py` does, written here from the protocol (dgtbrd.h), not with boardsight's
//! codec. The host plays an engine: it shows its move on the clock's display and the
//! board's lights, and runs its own clock by set-and-run after every move. It:
//! - asks the board's version (update mode `0x4b` first) and again every 2 s until
//!   answered; once answered asks the clock's version, and sets that handshake going again
//!   whenever clock times come from a clock that never answered;
//! - sends one clock command at a time, waiting for the clock's answer (resending after 2 s);
//! - reads a change of the clock's lever as a button press;
//! - drops clock times higher than those it last knew or set ("strange old time");
//! - asks for the board 250 ms after the last field update, as its field timer does.

mod common;

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use boardsight::pgn::read_games;
use boardsight::protocol::Protocol;
use boardsight::sim::device::Device;
use boardsight::sim::pty::serve_live;
use boardsight::sim::{Action, HandStyle, move_actions};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Move, Position, Role};

const PATIENCE: Duration = Duration::from_secs(20);
/// PicoChess waits this long after a field update before asking for the board.
const FIELD_TIMER: Duration = Duration::from_millis(250);
/// PicoChess's handshake retry and clock watchdog period.
const RETRY: Duration = Duration::from_secs(2);
/// The game's time control: 5 minutes and 3 seconds a move.
const BASE_SECONDS: u64 = 300;
const INCREMENT_SECONDS: u64 = 3;
/// A fast game: this long between the steps of a move.
const STEP: Duration = Duration::from_millis(80);
/// Plies played.
const PLIES: usize = 16;

/// A clock time message's times (whole seconds) and status byte.
#[derive(Clone, Copy, Debug)]
struct Times {
    left: u64,
    right: u64,
    status: u8,
}

struct PicoHost {
    port: Box<dyn serialport::SerialPort>,
    pending: Vec<u8>,
    fields: [u8; 64],
    /// The board answered its version request.
    board_found: bool,
    handshake_pending: bool,
    last_handshake: Instant,
    board_handshakes: u32,
    clock_version_asks: u32,
    /// The clock's main version, once it answered.
    clock_version: Option<u8>,
    /// A clock command sent and not yet answered, and when; the commands waiting.
    clock_lock: Option<(Vec<u8>, Instant)>,
    clock_queue: Vec<Vec<u8>>,
    clock_resends: u32,
    ack_errors: u32,
    /// Right side down (`true`) or up, once a clock time said it.
    lever: Option<bool>,
    lever_presses: u32,
    /// The times last known (received or set): a higher one received is "strange".
    known: (u64, u64),
    strange_times: u32,
    times_received: Vec<Times>,
    field_timer: Option<Instant>,
    /// The boards the host asked for after its field timer, each new one once.
    settled: Vec<String>,
}

impl PicoHost {
    fn open(path: &Path) -> Self {
        let port = serialport::new(path.to_string_lossy(), 9600)
            .timeout(Duration::from_millis(10))
            .open()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut host = Self {
            port,
            pending: Vec::new(),
            fields: [0; 64],
            board_found: false,
            handshake_pending: true,
            last_handshake: Instant::now(),
            board_handshakes: 0,
            clock_version_asks: 0,
            clock_version: None,
            clock_lock: None,
            clock_queue: Vec::new(),
            clock_resends: 0,
            ack_errors: 0,
            lever: None,
            lever_presses: 0,
            known: (36_000, 36_000),
            strange_times: 0,
            times_received: Vec::new(),
            field_timer: None,
            settled: Vec::new(),
        };
        host.handshake();
        host
    }

    fn send(&mut self, bytes: &[u8]) {
        if let Err(e) = self.port.write_all(bytes) {
            panic!("the host cannot write ({e}): listen has gone. {self:?}");
        }
    }

    /// Update mode "nice", then the board's version: PicoChess's start.
    fn handshake(&mut self) {
        self.board_handshakes += 1;
        self.last_handshake = Instant::now();
        self.send(&[0x4b, 0x4d]);
    }

    fn ask_clock_version(&mut self) {
        self.clock_version_asks += 1;
        self.handshake_pending = true;
        self.clock_command(vec![0x2b, 0x03, 0x03, 0x09, 0x00]);
    }

    /// Sends a clock command now, or after the one waiting for its answer.
    fn clock_command(&mut self, command: Vec<u8>) {
        if self.clock_lock.is_some() {
            self.clock_queue.push(command);
        } else {
            self.send(&command);
            self.clock_lock = Some((command, Instant::now()));
        }
    }

    /// Sets the clock (PicoChess's set_clock, then set_and_run and end_text): White is
    /// on the left.
    fn set_and_run(&mut self, white: u64, black: u64, running: Option<Color>) {
        self.known = (white, black);
        let hms = |s: u64| [(s / 3600) as u8, (s / 60 % 60) as u8, (s % 60) as u8];
        let side = match running {
            Some(Color::White) => 0x01,
            Some(Color::Black) => 0x02,
            None => 0x04,
        };
        let mut command = vec![0x2b, 0x0a, 0x03, 0x0a];
        command.extend(hms(white));
        command.extend(hms(black));
        command.extend([side, 0x00]);
        self.clock_command(command);
        self.clock_command(vec![0x2b, 0x03, 0x03, 0x03, 0x00]);
    }

    /// Eight characters on the DGT 3000's display, with a beep.
    fn show_text(&mut self, text: &str) {
        let mut command = vec![0x2b, 0x0c, 0x03, 0x0c];
        command.extend(format!("{text:<8}").bytes().take(8));
        command.extend([0x03, 0x00]);
        self.clock_command(command);
    }

    /// A Revelation II's lights on a move's squares (fields counted from a8), or off.
    fn lights(&mut self, squares: Option<(shakmaty::Square, shakmaty::Square)>) {
        let field = |s: shakmaty::Square| (7 - s.rank() as u8) * 8 + s.file() as u8;
        let command = match squares {
            Some((from, to)) => [0x60, 0x04, 0x01, field(from), field(to), 0x00],
            None => [0x60, 0x04, 0x00, 0x40, 0x40, 0x00],
        };
        self.send(&command);
    }

    /// Reads what came, handles every whole message, and runs the timers.
    fn pump(&mut self) {
        let mut buffer = [0u8; 512];
        match self.port.read(&mut buffer) {
            Ok(n) => self.pending.extend_from_slice(&buffer[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {}
            Err(_) => std::thread::sleep(Duration::from_millis(10)),
        }
        while let Some((id, data)) = self.next_message() {
            self.handle(id, &data);
        }
        if self.handshake_pending && self.last_handshake.elapsed() >= RETRY {
            self.handshake();
        }
        if let Some((command, at)) = &self.clock_lock
            && at.elapsed() >= RETRY
        {
            let command = command.clone();
            self.clock_resends += 1;
            self.send(&command);
            self.clock_lock = Some((command, Instant::now()));
        }
        if self
            .field_timer
            .is_some_and(|at| at.elapsed() >= FIELD_TIMER)
        {
            self.field_timer = None;
            self.send(&[0x42]);
        }
    }

    fn next_message(&mut self) -> Option<(u8, Vec<u8>)> {
        loop {
            while self.pending.first().is_some_and(|b| b & 0x80 == 0) {
                self.pending.remove(0);
            }
            if self.pending.len() < 3 {
                return None;
            }
            let size = (usize::from(self.pending[1]) << 7) | usize::from(self.pending[2]);
            if size < 3 {
                self.pending.remove(0);
                continue;
            }
            if self.pending.len() < size {
                return None;
            }
            let message: Vec<u8> = self.pending.drain(..size).collect();
            return Some((message[0], message[3..].to_vec()));
        }
    }

    fn handle(&mut self, id: u8, data: &[u8]) {
        match (id, data.len()) {
            // The board's version: ask for the board, then for the clock.
            (0x93, 2) => {
                self.board_found = true;
                self.send(&[0x42]);
                self.ask_clock_version();
                self.handshake_pending = false;
            }
            (0x86, 64) => {
                self.fields.copy_from_slice(data);
                let board = common::fen_of_fields(&self.fields);
                if self.settled.last() != Some(&board) {
                    self.settled.push(board);
                }
            }
            (0x8e, 2) if data[0] < 64 => {
                self.fields[usize::from(data[0])] = data[1];
                self.field_timer = Some(Instant::now());
            }
            (0x8d, 7) => self.clock_message(data),
            _ => {}
        }
    }

    fn clock_message(&mut self, m: &[u8]) {
        if m[0] & 0x0f == 0x0a || m[3] & 0x0f == 0x0a {
            let ack0 = (m[1] & 0x7f) | ((m[3] << 3) & 0x80);
            let ack1 = (m[2] & 0x7f) | ((m[3] << 2) & 0x80);
            let ack2 = (m[4] & 0x7f) | ((m[0] << 3) & 0x80);
            if ack0 != 0x10 {
                self.ack_errors += 1;
            } else if ack1 == 0x09 {
                self.clock_version = Some(ack2 >> 4);
                self.handshake_pending = false;
            }
        } else if m.iter().any(|&b| b != 0) {
            let bcd = |b: u8| u64::from(b >> 4) * 10 + u64::from(b & 0x0f);
            let seconds = |t: &[u8]| u64::from(t[0] & 0x0f) * 3600 + bcd(t[1]) * 60 + bcd(t[2]);
            let times = Times {
                right: seconds(&m[0..3]),
                left: seconds(&m[3..6]),
                status: m[6],
            };
            self.times_received.push(times);
            if times.right > self.known.1 || times.left > self.known.0 {
                self.strange_times += 1;
            } else {
                let connected = times.status & 0x20 == 0;
                if connected {
                    let right_down = times.status & 0x02 != 0;
                    if self.lever.is_some_and(|lever| lever != right_down) {
                        self.lever_presses += 1;
                    }
                    self.lever = Some(right_down);
                }
                if self.clock_version.is_none() && self.board_found {
                    // Times from a clock that never answered: set it up again.
                    self.ask_clock_version();
                }
            }
            self.known = (times.left, times.right);
        }
        // Any clock message frees the clock for the next command.
        self.clock_lock = None;
        if !self.clock_queue.is_empty() {
            let next = self.clock_queue.remove(0);
            self.clock_command(next);
        }
    }

    /// Pumps for `span`.
    fn run_for(&mut self, span: Duration) {
        let until = Instant::now() + span;
        while Instant::now() < until {
            self.pump();
        }
    }

    /// Pumps until `done`; returns how long it took, or fails naming `what`.
    fn run_until(&mut self, what: &str, done: impl Fn(&Self) -> bool) -> Duration {
        let start = Instant::now();
        while !done(self) {
            assert!(start.elapsed() < PATIENCE, "{what}: the host {self:?}");
            self.pump();
        }
        start.elapsed()
    }
}

impl std::fmt::Debug for PicoHost {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PicoHost")
            .field("board", &common::fen_of_fields(&self.fields))
            .field("board_found", &self.board_found)
            .field("board_handshakes", &self.board_handshakes)
            .field("clock_version_asks", &self.clock_version_asks)
            .field("clock_version", &self.clock_version)
            .field("clock_resends", &self.clock_resends)
            .field("lever_presses", &self.lever_presses)
            .field("strange_times", &self.strange_times)
            .field("settled", &self.settled)
            .finish_non_exhaustive()
    }
}

/// The host's engine: the most valuable capture, else a developing move of a fixed list,
/// else the first legal move. White's player chooses the same way.
fn choose(position: &Chess) -> Move {
    let moves = position.legal_moves();
    let value = |role: Option<Role>| match role {
        Some(Role::Queen) => 9,
        Some(Role::Rook) => 5,
        Some(Role::Bishop | Role::Knight) => 3,
        Some(Role::Pawn) => 1,
        _ => 0,
    };
    if let Some(capture) = moves
        .iter()
        .filter(|m| m.is_capture())
        .max_by_key(|m| value(m.capture()))
    {
        return *capture;
    }
    let wanted = [
        "e2e4", "e7e5", "d2d4", "d7d5", "g1f3", "b8c6", "f1c4", "f8c5", "c2c3", "g8f6", "e1g1",
        "e8g8",
    ];
    wanted
        .iter()
        .filter_map(|uci| uci.parse::<UciMove>().ok()?.to_move(position).ok())
        .next()
        .unwrap_or_else(|| moves[0])
}

fn uci(m: &Move) -> String {
    m.to_uci(shakmaty::CastlingMode::Standard).to_string()
}

fn clock_time(seconds: u64) -> String {
    format!("{}:{:02}", seconds / 60, seconds % 60)
}

/// Stops the simulated board when dropped.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// `listen` on the simulated board's terminal with a 5+3 clock, serving the DGT board.
fn listen(port: &str, dgt: &Path, pgn: &Path) -> (Child, Receiver<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_boardsight"))
        .args(["listen", "--protocol", "liboard", "--port", port])
        .args(["--clock", "5+3", "--idle-exit", "4", "--serve-dgt"])
        .arg(dgt)
        .arg("--pgn")
        .arg(pgn)
        .stdout(Stdio::piped())
        .spawn()
        .expect("listen starts");
    let lines = common::stdout_lines(&mut child);
    (child, lines)
}

/// A fast game against the host's engine, through the host's clock: no lever press, one
/// handshake, no time the host drops, every position one at a time and within a second of
/// the move, the host's times and texts printed by listen, and every move in the PGN.
#[test]
fn a_host_that_behaves_as_picochess_drives_the_clock_and_sees_every_move_at_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dgt = dir.path().join("dgt");
    let pgn = dir.path().join("game.pgn");
    let (actions, received) = mpsc::channel();
    let stop_device = Arc::new(AtomicBool::new(false));
    let (port, simulator) = serve_live(
        Device::new(Protocol::Liboard, 1.0),
        received,
        stop_device.clone(),
    )
    .expect("a pty");
    // Dropped before the simulator: a failing assertion stops it rather than waiting on it.
    let _stop_on_failure = StopOnDrop(stop_device.clone());
    actions
        .send(Action::SetUp(Chess::default()))
        .expect("set up");
    let (mut child, lines) = listen(&port, &dgt, &pgn);
    common::wait_for_path(&dgt);

    let mut host = PicoHost::open(&dgt);
    let start = Chess::default().board().to_string();
    host.run_until("the clock answers and the board is read", |h| {
        h.clock_version.is_some() && h.settled.last() == Some(&start)
    });
    assert_eq!(host.clock_version, Some(2), "a DGT 3000");
    let (mut white, mut black) = (BASE_SECONDS, BASE_SECONDS);
    host.set_and_run(white, black, Some(Color::White));

    let mut position = Chess::default();
    let mut placements = vec![start];
    let mut arrivals = Vec::new();
    let mut texts = Vec::new();
    let mut turn_started = Instant::now();
    for ply in 0..PLIES {
        let mv = choose(&position);
        let engine_moves = position.turn() == Color::Black;
        if engine_moves {
            texts.push(uci(&mv));
            host.show_text(&uci(&mv));
            host.lights(Some((mv.from().expect("a move from a square"), mv.to())));
        }
        host.run_for(STEP);
        let style = HandStyle {
            seed: ply as u64,
            adjust: 0.0,
            dropout: 0.0,
            ..HandStyle::default()
        };
        for (step, action) in move_actions(&position, mv, &style).into_iter().enumerate() {
            if step > 0 {
                host.run_for(STEP);
            }
            actions.send(action).expect("the device takes actions");
        }
        position.play_unchecked(mv);
        let want = position.board().to_string();
        // From the move's last step to the host's board showing it.
        let took = host.run_until(&format!("ply {} {}", ply + 1, uci(&mv)), |h| {
            common::fen_of_fields(&h.fields) == want
        });
        arrivals.push(took);
        host.run_until("the board asked for after the field timer", |h| {
            h.settled.last() == Some(&want)
        });
        placements.push(want);
        // The host's clock: the mover's time ran, then the increment; the other side runs.
        let spent = turn_started.elapsed().as_secs();
        let mover = if engine_moves { &mut black } else { &mut white };
        *mover = mover.saturating_sub(spent) + INCREMENT_SECONDS;
        turn_started = Instant::now();
        if engine_moves {
            host.lights(None);
        }
        host.set_and_run(white, black, Some(position.turn()));
    }
    let last_set = format!(
        "host clock: white {} black {}, {} runs",
        clock_time(white),
        clock_time(black),
        if position.turn() == Color::White {
            "white"
        } else {
            "black"
        }
    );
    host.run_for(Duration::from_millis(1500));
    let status = child.wait().expect("listen ends at --idle-exit");
    // Listen has ended: its output ends too.
    let said: Vec<String> = lines.iter().collect();
    stop_device.store(true, Ordering::Relaxed);
    drop(actions);
    simulator.join().expect("the simulator thread");
    assert!(status.success(), "listen said:\n{}", said.join("\n"));

    println!(
        "positions reached the host {arrivals:?} after the move's last step; \
         clock version asked {} time(s)",
        host.clock_version_asks
    );
    assert_eq!(host.board_handshakes, 1, "{host:?}");
    // The board sends no time in 0x4b before the clock's time changes, so the version is
    // answered first; a second ask is possible only if the clock's second turns within the
    // host's round trip, and then it is answered at once: never the loop of a clock unfound.
    assert!(host.clock_version_asks <= 2, "{host:?}");
    assert_eq!(
        host.clock_resends, 0,
        "every clock command answered: {host:?}"
    );
    assert_eq!(host.ack_errors, 0, "{host:?}");
    assert_eq!(host.lever_presses, 0, "no lever moved by itself: {host:?}");
    assert_eq!(host.strange_times, 0, "{:?}", host.times_received);
    assert_eq!(
        host.settled, placements,
        "every position, one at a time, in order"
    );
    let slowest = arrivals.iter().max().expect("moves were played");
    assert!(
        *slowest < Duration::from_secs(1),
        "a position reached the host {slowest:?} after its move: {arrivals:?}"
    );
    // The host's times and texts, as listen shows them.
    assert!(
        said.contains(&last_set),
        "no '{last_set}' in:\n{}",
        said.join("\n")
    );
    for text in &texts {
        let line = format!("host text: {text}");
        assert!(said.contains(&line), "no '{line}' in:\n{}", said.join("\n"));
    }
    assert!(
        said.iter().any(|l| l.starts_with("host lights: ")),
        "{said:?}"
    );
    // Every move in the PGN, the last one too.
    let text = std::fs::read(&pgn).expect("the PGN");
    let games = read_games(&text);
    let game = games[0].as_ref().expect("a game");
    let recorded: Vec<String> = game.game.moves.iter().map(uci).collect();
    let mut replay = Chess::default();
    let mut played = Vec::new();
    for _ in 0..PLIES {
        let mv = choose(&replay);
        played.push(uci(&mv));
        replay.play_unchecked(mv);
    }
    assert_eq!(recorded, played);
}
