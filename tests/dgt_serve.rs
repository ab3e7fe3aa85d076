#![cfg(unix)]
//! `listen --serve-dgt` and `--live-pgn` while the simulated LiBoard plays through a real
//! pseudo-terminal. The DGT host here is written from the protocol description (dgtbrd.h),
//! not from boardsight's codec: it opens the virtual board's terminal as a chess program
//! would, and keeps the board the messages describe.

mod common;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use boardsight::game::GameRecord;
use boardsight::pgn::read_games;
use boardsight::protocol::Protocol;
use boardsight::sim::device::{Device, Script};
use boardsight::sim::pty::{serve, serve_live};
use boardsight::sim::{Action, HandStyle, move_actions, sample, script_session};
use shakmaty::san::{San, SanPlus};
use shakmaty::{Chess, Color, Move, Piece, Position, Role, Square};

const PATIENCE: Duration = Duration::from_secs(20);

/// A DGT host: sends one-byte commands, reads `[id|0x80][len hi][len lo][data]` messages.
struct Host {
    port: Box<dyn serialport::SerialPort>,
    pending: Vec<u8>,
    /// Piece codes in the board's field order: a8, b8 … h8, a7 … h1.
    fields: [u8; 64],
    /// Every board dump received, in order.
    dumps: Vec<[u8; 64]>,
    /// Other messages: (id, data).
    others: Vec<(u8, Vec<u8>)>,
}

impl Host {
    fn open(path: &Path) -> Self {
        let port = serialport::new(path.to_string_lossy(), 9600)
            .timeout(Duration::from_millis(20))
            .open()
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        Self {
            port,
            pending: Vec::new(),
            fields: [0; 64],
            dumps: Vec::new(),
            others: Vec::new(),
        }
    }

    /// Reset, board dump, update mode: what programs send first.
    fn start(&mut self) {
        self.send(&[0x40, 0x42, 0x44]);
    }

    fn send(&mut self, bytes: &[u8]) {
        self.port.write_all(bytes).expect("the host writes");
    }

    /// Reads what has come and applies every whole message.
    fn pump(&mut self) {
        let mut buffer = [0u8; 512];
        match self.port.read(&mut buffer) {
            Ok(n) => self.pending.extend_from_slice(&buffer[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::TimedOut => {}
            // The board went away (listen ended): the caller's wait says what was missing.
            Err(_) => std::thread::sleep(Duration::from_millis(20)),
        }
        loop {
            // A message starts with a byte whose top bit is set; anything else is skipped.
            while self.pending.first().is_some_and(|b| b & 0x80 == 0) {
                self.pending.remove(0);
            }
            if self.pending.len() < 3 {
                return;
            }
            let size = (usize::from(self.pending[1]) << 7) | usize::from(self.pending[2]);
            if size < 3 {
                self.pending.remove(0);
                continue;
            }
            if self.pending.len() < size {
                return;
            }
            let message: Vec<u8> = self.pending.drain(..size).collect();
            let data = &message[3..];
            match (message[0], data.len()) {
                (0x86, 64) => {
                    self.fields.copy_from_slice(data);
                    self.dumps.push(self.fields);
                }
                (0x8e, 2) if data[0] < 64 => self.fields[usize::from(data[0])] = data[1],
                (id, _) => self.others.push((id, data.to_vec())),
            }
        }
    }

    /// Reads until the board is `position`'s, or fails saying what it shows.
    fn wait_for(&mut self, position: &Chess, after: &str) {
        let want = placement(position);
        let deadline = Instant::now() + PATIENCE;
        while common::fen_of_fields(&self.fields) != want {
            assert!(
                Instant::now() < deadline,
                "after {after}: the host shows {} instead of {want}",
                common::fen_of_fields(&self.fields)
            );
            self.pump();
        }
    }

    /// Reads until a message `id` has come; returns its data.
    fn wait_for_message(&mut self, id: u8) -> Vec<u8> {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(index) = self.others.iter().position(|(i, _)| *i == id) {
                return self.others.remove(index).1;
            }
            assert!(Instant::now() < deadline, "no message {id:#x} came");
            self.pump();
        }
    }

    fn wait_for_dump(&mut self) -> [u8; 64] {
        let deadline = Instant::now() + PATIENCE;
        while self.dumps.is_empty() {
            assert!(Instant::now() < deadline, "no board dump came");
            self.pump();
        }
        self.dumps[0]
    }
}

fn placement(position: &Chess) -> String {
    position.board().to_string()
}

/// `listen` running on the simulated board's terminal, its stdout as lines.
struct Listen {
    child: Child,
    lines: Receiver<String>,
    seen: Vec<String>,
}

impl Listen {
    fn start(port: &str, dgt: &Path, live: &Path, pgn: &Path) -> Self {
        let args = [
            "--idle-exit".as_ref(),
            "4".as_ref(),
            "--live-pgn".as_ref(),
            live.as_os_str(),
        ];
        Self::start_with(port, dgt, pgn, &args)
    }

    fn start_with(port: &str, dgt: &Path, pgn: &Path, more: &[&std::ffi::OsStr]) -> Self {
        Self::start_on(Protocol::Liboard, port, dgt, pgn, more)
    }

    fn start_on(
        protocol: Protocol,
        port: &str,
        dgt: &Path,
        pgn: &Path,
        more: &[&std::ffi::OsStr],
    ) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_boardsight"))
            .args(["listen", "--protocol", protocol.name()])
            .args(["--port", port])
            .arg("--serve-dgt")
            .arg(dgt)
            .arg("--pgn")
            .arg(pgn)
            .args(more)
            .stdout(Stdio::piped())
            .spawn()
            .expect("listen starts");
        Self {
            lines: common::stdout_lines(&mut child),
            child,
            seen: Vec::new(),
        }
    }

    /// Waits for the line `want`.
    fn expect(&mut self, want: &str) {
        self.expect_line(want, |line| line == want);
    }

    /// Waits for a line `matches` accepts; returns it.
    fn expect_line(&mut self, what: &str, matches: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if matches(&line) {
                        return line;
                    }
                }
                Err(_) => panic!("no line '{what}'; listen said:\n{}", self.seen.join("\n")),
            }
        }
    }
}

/// The legal move `san` names in `position`.
fn san_move(position: &Chess, san: &str) -> Move {
    san.parse::<San>()
        .expect("san")
        .to_move(position)
        .unwrap_or_else(|e| panic!("{san}: {e}"))
}

/// The game as played: the position, and the line `listen` prints for each move.
struct Game {
    position: Chess,
    played: Vec<Move>,
    actions: Sender<Action>,
}

impl Game {
    /// Plays `san` with a person's hands; returns the line listen prints for it.
    fn play(&mut self, san: &str) -> String {
        let m = san_move(&self.position, san);
        self.hands(move_actions(&self.position, m, &HandStyle::default()));
        let line = move_line(&self.position, m);
        self.position.play_unchecked(m);
        self.played.push(m);
        line
    }

    fn hands(&self, actions: Vec<Action>) {
        for action in actions {
            self.actions.send(action).expect("the device takes actions");
            std::thread::sleep(Duration::from_millis(150));
        }
    }
}

fn move_line(position: &Chess, m: Move) -> String {
    let number = position.fullmoves();
    let san = SanPlus::from_move(position.clone(), m);
    match position.turn() {
        Color::White => format!("{number}. {san}"),
        Color::Black => format!("{number}... {san}"),
    }
}

/// Reads the live file over and over until told to stop; returns every version read.
fn poll_live_file(path: PathBuf, stop: Arc<AtomicBool>) -> JoinHandle<Vec<Vec<Move>>> {
    std::thread::spawn(move || {
        let mut versions: Vec<Vec<Move>> = Vec::new();
        while !stop.load(Ordering::Relaxed) {
            let Ok(bytes) = std::fs::read(&path) else {
                continue;
            };
            let games = read_games(&bytes);
            assert_eq!(games.len(), 1, "{}", String::from_utf8_lossy(&bytes));
            let game = games[0]
                .as_ref()
                .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&bytes)));
            assert_eq!(game.tags.result, Some(boardsight::pgn::PgnResult::Unknown));
            if versions.last() != Some(&game.game.moves) {
                versions.push(game.game.moves.clone());
            }
        }
        versions
    })
}

/// Plays a game with an en passant capture, a promotion, castling rook first (revised from
/// a rook move), a takeback and a capture, checking a DGT host's board after every change;
/// the host goes away and another comes (after garbage); the live file is read throughout.
#[test]
fn a_dgt_host_follows_every_recognised_position_and_the_live_file_every_move() {
    let dir = tempfile::tempdir().expect("temp dir");
    let dgt = dir.path().join("dgt");
    let live = dir.path().join("live.pgn");
    let pgn = dir.path().join("final.pgn");
    let (actions, received) = mpsc::channel();
    let stop_device = Arc::new(AtomicBool::new(false));
    let (port, simulator) = serve_live(
        Device::new(Protocol::Liboard, 1.0),
        received,
        stop_device.clone(),
    )
    .expect("a pty");
    actions
        .send(Action::SetUp(Chess::default()))
        .expect("set up");
    let mut listen = Listen::start(&port, &dgt, &live, &pgn);
    let told = format!("(linked at {})", dgt.display());
    let said = listen.expect_line("DGT board … linked", |line| {
        line.starts_with("DGT board for other programs on /dev/") && line.ends_with(&told)
    });
    common::wait_for_path(&dgt);
    let device = std::fs::canonicalize(&dgt).expect("the link leads to the terminal");
    assert!(said.contains(&device.display().to_string()), "{said}");
    let stop_reader = Arc::new(AtomicBool::new(false));
    let reader = poll_live_file(live.clone(), stop_reader.clone());

    let mut game = Game {
        position: Chess::default(),
        played: Vec::new(),
        actions,
    };
    let mut host = Host::open(&dgt);
    host.start();
    assert_eq!(
        common::fen_of_fields(&host.wait_for_dump()),
        placement(&Chess::default())
    );
    // Clock and identity: no clock is attached; the board names itself.
    host.send(&[0x41, 0x45, 0x4d]);
    let clock = host.wait_for_message(0x8d);
    assert_eq!(clock.len(), 7);
    assert_eq!(clock[6] & 0x20, 0x20, "no clock connected");
    assert_eq!(host.wait_for_message(0x91).len(), 5);
    assert_eq!(host.wait_for_message(0x93).len(), 2);

    let play = |game: &mut Game, host: &mut Host, listen: &mut Listen, san: &str| {
        let line = game.play(san);
        listen.expect(&line);
        host.wait_for(&game.position, &line);
    };
    for san in ["e4", "d5", "exd5", "c5", "dxc6", "Nf6", "cxb7", "Bf5"] {
        play(&mut game, &mut host, &mut listen, san);
    }

    // The host goes; a promotion is played while no one listens.
    drop(host);
    play_unwatched(&mut game, &mut listen, "bxa8=Q");
    let mut host = Host::open(&dgt);
    // Line noise, a clock command whose bytes look like commands, unknown commands.
    host.send(&[
        0x00, 0x13, 0xff, 0x80, 0x7f, 0x2b, 0x03, 0x03, 0x42, 0x00, 0x4c, 0x49,
    ]);
    host.start();
    assert_eq!(
        common::fen_of_fields(&host.wait_for_dump()),
        placement(&game.position),
        "the first dump after a reconnect shows the board as it is"
    );
    for san in ["e6", "Nf3", "Be7", "Be2", "O-O"] {
        play(&mut game, &mut host, &mut listen, san);
    }
    host.send(&[0x99, 0x2b]);
    host.send(&[0x01, 0x00]); // the rest of that clock command: one byte, skipped

    // Castling rook first: taken for Rf1, then revised.
    let castling_from = game.position.clone();
    let white = |role| Piece {
        color: Color::White,
        role,
    };
    game.hands(vec![
        Action::Lift(Square::H1),
        Action::Place(Square::F1, white(Role::Rook)),
    ]);
    listen.expect("8. Rf1");
    let (rook_move, castle) = (
        san_move(&castling_from, "Rf1"),
        san_move(&castling_from, "O-O"),
    );
    let after = |m| {
        let mut position = castling_from.clone();
        position.play_unchecked(m);
        position
    };
    host.wait_for(&after(rook_move), "8. Rf1");
    game.hands(vec![
        Action::Lift(Square::E1),
        Action::Place(Square::G1, white(Role::King)),
    ]);
    listen.expect("8. O-O (revised)");
    let castled = after(castle);
    host.wait_for(&castled, "8. O-O (revised)");

    // Taken back: the king and rook go home.
    game.hands(vec![
        Action::Lift(Square::G1),
        Action::Lift(Square::F1),
        Action::Place(Square::E1, white(Role::King)),
        Action::Place(Square::H1, white(Role::Rook)),
    ]);
    listen.expect("8. taken back");
    host.wait_for(&castling_from, "8. taken back");
    play(&mut game, &mut host, &mut listen, "Qxb8");

    let status = listen.child.wait().expect("listen ends at --idle-exit");
    assert!(status.success(), "listen said:\n{}", listen.seen.join("\n"));
    stop_device.store(true, Ordering::Relaxed);
    let played = std::mem::take(&mut game.played);
    drop(game);
    simulator.join().expect("the simulator thread");
    stop_reader.store(true, Ordering::Relaxed);
    let versions = reader.join().expect("the live file always parsed");
    assert!(
        !dgt.exists(),
        "listen removes the virtual board's link when it ends"
    );

    // The live file ends with the whole game, as the PGN written at the end has it.
    let live_text = std::fs::read_to_string(&live).expect("the live file");
    assert_eq!(live_text, std::fs::read_to_string(&pgn).expect("the PGN"));
    let games = read_games(live_text.as_bytes());
    let final_game = &games[0].as_ref().expect("a game").game;
    assert_eq!(final_game.moves, played);
    // Every version read was the game so far: a prefix of the final game, or of the game
    // with the 8th move before it was taken back (Rf1, then O-O).
    let mut allowed: Vec<Vec<Move>> = (0..=played.len()).map(|n| played[..n].to_vec()).collect();
    for m in [rook_move, castle] {
        let mut line = played[..played.len() - 1].to_vec();
        line.push(m);
        allowed.push(line);
    }
    for version in &versions {
        assert!(
            allowed.contains(version),
            "not the game so far: {version:?}"
        );
    }
    // It was rewritten while the game was played, not only at the end.
    assert!(
        versions.len() >= played.len() / 2,
        "{} versions",
        versions.len()
    );
}

/// Plays a move with no host watching, and waits until listen has recognised it.
fn play_unwatched(game: &mut Game, listen: &mut Listen, san: &str) {
    let line = game.play(san);
    listen.expect(&line);
}

/// A DGT clock reading as dgtbrd.h lays out `DGT_MSG_BWTIME`'s 7 data bytes: the right
/// player's hours (low nibble; 0x10 and 0x40 are flag bits), minutes and seconds in BCD,
/// the same for the left player, then the status byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct ClockReading {
    left_seconds: u64,
    right_seconds: u64,
    /// Status D0.
    running: bool,
    /// Status D1: the tumbler is up on the right.
    tumbler_right: bool,
    /// Status D3, D4.
    right_to_move: bool,
    left_to_move: bool,
    /// Status D5 clear.
    connected: bool,
}

impl ClockReading {
    fn of(data: &[u8]) -> Self {
        assert_eq!(data.len(), 7, "a clock message has 7 data bytes: {data:x?}");
        let bcd = |b: u8| u64::from(b >> 4) * 10 + u64::from(b & 0x0f);
        let seconds = |t: &[u8]| u64::from(t[0] & 0x0f) * 3600 + bcd(t[1]) * 60 + bcd(t[2]);
        let status = data[6];
        Self {
            right_seconds: seconds(&data[0..3]),
            left_seconds: seconds(&data[3..6]),
            running: status & 0x01 != 0,
            tumbler_right: status & 0x02 != 0,
            right_to_move: status & 0x08 != 0,
            left_to_move: status & 0x10 != 0,
            connected: status & 0x20 == 0,
        }
    }

    /// boardsight puts White on the clock's left.
    fn white(&self) -> u64 {
        self.left_seconds
    }

    fn black(&self) -> u64 {
        self.right_seconds
    }

    fn running_for(&self, color: Color) -> bool {
        let right = color == Color::Black;
        self.connected
            && self.running
            && self.tumbler_right == right
            && self.right_to_move == right
            && self.left_to_move != right
    }
}

impl Host {
    /// Asks for the clock (`0x41`) until a reading satisfies `wanted`; returns it.
    fn ask_clock_until(
        &mut self,
        what: &str,
        wanted: impl Fn(&ClockReading) -> bool,
    ) -> ClockReading {
        let deadline = Instant::now() + PATIENCE;
        let mut last: Option<ClockReading> = None;
        loop {
            self.others.retain(|(id, _)| *id != 0x8d);
            if let Err(e) = self.port.write_all(&[0x41]) {
                panic!("{what}: the clock read {last:?}, then the board went away ({e})");
            }
            let reading = ClockReading::of(&self.wait_for_message(0x8d));
            if wanted(&reading) {
                return reading;
            }
            assert!(
                Instant::now() < deadline,
                "{what}: the clock read {reading:?}"
            );
            last = Some(reading);
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Waits for clock messages the host did not ask for until one satisfies `wanted`.
    fn clock_messages_until(
        &mut self,
        what: &str,
        wanted: impl Fn(&ClockReading) -> bool,
    ) -> Vec<ClockReading> {
        let deadline = Instant::now() + PATIENCE;
        let mut readings = Vec::new();
        loop {
            while let Some(index) = self.others.iter().position(|(id, _)| *id == 0x8d) {
                let reading = ClockReading::of(&self.others.remove(index).1);
                readings.push(reading);
                if wanted(&reading) {
                    return readings;
                }
            }
            assert!(
                Instant::now() < deadline,
                "{what}: the clock messages were {readings:?}"
            );
            self.pump();
        }
    }
}

/// `[%clk h:mm:ss]` as seconds.
fn clk_seconds(comment: &str) -> u64 {
    let clk = comment
        .trim()
        .strip_prefix("[%clk ")
        .and_then(|c| c.strip_suffix(']'))
        .unwrap_or_else(|| panic!("not a clock comment: '{comment}'"));
    clk.split(':')
        .map(|p| p.parse::<u64>().expect("a number"))
        .fold(0, |total, part| total * 60 + part)
}

/// A game on a 5+3 clock: the host asks for the clock and sees the side to move's time
/// fall, the tumbler turn with each move, and the times the PGN records; in update mode
/// `0x43` the clock comes by itself.
#[test]
fn a_dgt_host_reads_the_chess_clock_as_from_a_dgt_clock() {
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
    actions
        .send(Action::SetUp(Chess::default()))
        .expect("set up");
    let args = [
        "--clock".as_ref(),
        "5+3".as_ref(),
        "--idle-exit".as_ref(),
        "6".as_ref(),
    ];
    let mut listen = Listen::start_with(&port, &dgt, &pgn, &args);
    listen.expect_line("new game", |line| line.starts_with("new game: "));
    common::wait_for_path(&dgt);
    let mut game = Game {
        position: Chess::default(),
        played: Vec::new(),
        actions,
    };
    let mut host = Host::open(&dgt);
    host.start();
    host.wait_for_dump();

    // White's time runs from the new game; Black's stands at five minutes.
    let first = host.ask_clock_until("White thinks", |c| c.running_for(Color::White));
    assert!(first.white() <= 300, "{first:?}");
    assert_eq!(first.black(), 300, "{first:?}");
    let later = host.ask_clock_until("White's time falls", |c| c.white() < first.white());
    assert!(
        later.running_for(Color::White) && later.black() == 300,
        "{later:?}"
    );

    let line = game.play("e4");
    listen.expect(&line);
    host.wait_for(&game.position, &line);
    let after_e4 =
        host.ask_clock_until("Black thinks after 1. e4", |c| c.running_for(Color::Black));
    assert!(
        after_e4.white() <= 303,
        "at most the increment more: {after_e4:?}"
    );
    let black_thinks = host.ask_clock_until("Black's time falls", |c| c.black() < after_e4.black());
    assert_eq!(
        black_thinks.white(),
        after_e4.white(),
        "White's clock stands"
    );

    // Update mode with clock times: the clock comes every second by itself.
    host.others.clear();
    host.send(&[0x43]);
    let told = host.clock_messages_until("the clock on entering 0x43", |_| true);
    let told = [
        told,
        host.clock_messages_until("Black's time falling", |c| c.black() < black_thinks.black()),
    ]
    .concat();
    assert!(told.iter().all(|c| c.running_for(Color::Black)), "{told:?}");
    assert!(
        told.windows(2).all(|w| w[1].black() <= w[0].black()),
        "{told:?}"
    );

    let line = game.play("e5");
    listen.expect(&line);
    host.wait_for(&game.position, &line);
    let after_e5 = host.clock_messages_until("White thinks after 1... e5", |c| {
        c.running_for(Color::White)
    });
    let after_e5 = after_e5.last().copied().expect("a reading");
    assert!(after_e5.black() <= 303, "{after_e5:?}");
    drop(host);

    let status = listen.child.wait().expect("listen ends at --idle-exit");
    assert!(status.success(), "listen said:\n{}", listen.seen.join("\n"));
    stop_device.store(true, Ordering::Relaxed);
    drop(game);
    simulator.join().expect("the simulator thread");
    // The host saw each mover's time after the move as the PGN records it.
    let text = std::fs::read(&pgn).expect("the PGN");
    let games = read_games(&text);
    let recorded = &games[0].as_ref().expect("a game").comments;
    let clk = |ply: usize| {
        recorded
            .iter()
            .find(|(p, _)| *p == ply)
            .map(|(_, c)| clk_seconds(c))
            .unwrap_or_else(|| panic!("no clock after ply {ply}: {recorded:?}"))
    };
    assert_eq!(after_e4.white(), clk(1));
    assert_eq!(after_e5.black(), clk(2));
}

/// How fast the slid games are played: twice as fast as the hands' script, so a step of a
/// move takes 125 ms (a capture's victim square still reads empty longer than sensor noise)
/// and a game well under 20 s.
const SLID_SPEED: f64 = 2.0;
/// Real time from the simulated board's terminal opening to the pieces being set up:
/// listen starts and the host connects meanwhile.
const LEAD: Duration = Duration::from_millis(1500);
/// A LiBoard scans its sensors every 20 ms (the `change` mode of `sim::recording`).
const SCAN: Duration = Duration::from_millis(20);
/// Longer than a slid piece reads on a square it passes.
const PASSING: Duration = Duration::from_millis(150);
/// The way from the simulated board to the host on top of the board's scan or poll: the
/// simulator's 5 ms frame gaps, LiBoard's 3 ms of silence, the virtual board's 20 ms wait
/// for its host's bytes, three pseudo-terminal hops; about 50 ms, three times that for a
/// machine busy with other tests (the delays measured are printed).
const LATENCY: Duration = Duration::from_millis(150);

/// The first 20 plies of the first sample game: pawns pushed two squares, en passant,
/// captures by pawn, bishop, queen and knight, and castling on both sides.
fn slid_game() -> GameRecord {
    let mut game = sample::games().remove(0);
    game.moves.truncate(20);
    game
}

/// Hands that slide every move they can (all but a knight's), brushing a square beside a
/// diagonal step now and then, and do nothing else lively: no pieces adjusted, no dropouts.
fn sliding_hands() -> HandStyle {
    HandStyle {
        seed: 3,
        slide: 1.0,
        brush: 0.5,
        adjust: 0.0,
        dropout: 0.0,
        ..HandStyle::default()
    }
}

/// How often the board reads its sensors: a LiBoard's scan, a Centaur's poll.
fn scan_or_poll(protocol: Protocol) -> Duration {
    match protocol {
        Protocol::Centaur => Duration::from_micros(boardsight::protocol::centaur::POLL_INTERVAL),
        _ => SCAN,
    }
}

/// The game as the simulated board plays it, in real time from its terminal's opening.
struct Truth {
    /// The placement of each position of the game, the start first.
    placements: Vec<String>,
    /// What made each position, as listen prints it ("3. exf6").
    names: Vec<String>,
    /// When the board came to rest in each position, and when the next move began.
    rests: Vec<(Duration, Option<Duration>)>,
}

impl Truth {
    /// `done` holds when each move's last lift or place is, in the script's time.
    fn of(game: &GameRecord, script: &Script, done: &[u64], speed: f64) -> Self {
        let real = |ms: u64| Duration::from_secs_f64(ms as f64 / 1000.0 / speed);
        let set_up = script
            .iter()
            .find(|(_, action)| matches!(action, Action::SetUp(_)))
            .map(|(at, _)| *at)
            .expect("the script sets the pieces up");
        let mut position = game.start.clone();
        let mut placements = vec![placement(&position)];
        let mut names = vec!["the set-up".to_owned()];
        for &m in &game.moves {
            names.push(move_line(&position, m));
            position.play_unchecked(m);
            placements.push(placement(&position));
        }
        let rests = std::iter::once(set_up)
            .chain(done.iter().copied())
            .map(|rested| {
                let next = script.iter().map(|(at, _)| *at).find(|&at| at > rested);
                (real(rested), next.map(real))
            })
            .collect();
        Self {
            placements,
            names,
            rests,
        }
    }

    /// Whether a castling was being played at `t`: its king, moved first, stands on its
    /// square until the rook follows (read as the king's move, then revised to castling,
    /// as a DGT board itself shows it).
    fn castling_at(&self, t: Duration) -> bool {
        self.rests
            .iter()
            .rposition(|(rested, _)| *rested <= t)
            .is_some_and(|i| {
                matches!(self.rests[i].1, Some(next) if t >= next)
                    && self
                        .names
                        .get(i + 1)
                        .is_some_and(|name| name.contains("O-O"))
            })
    }

    /// What the hands were doing at `t`.
    fn during(&self, t: Duration) -> String {
        match self.rests.iter().rposition(|(rested, _)| *rested <= t) {
            None => "before the set-up".to_owned(),
            Some(i) => match self.rests[i].1 {
                Some(next) if t >= next => format!("while {} was being played", self.names[i + 1]),
                _ => format!(
                    "{} ms after {} came to rest",
                    (t - self.rests[i].0).as_millis(),
                    self.names[i]
                ),
            },
        }
    }
}

/// What a host that held the boards `held` (each with when it came, from the simulated
/// board's terminal opening) did wrong against `truth`, a position counting as settled
/// `settle` after the board came to rest in it; `end` is when the host stopped following.
/// Also returns, for each ply, how long after the board came to rest the host showed its
/// position (ms; negative when before the move's last lift).
fn judge(
    held: &[(Duration, String)],
    truth: &Truth,
    settle: Duration,
    end: Duration,
) -> (Vec<String>, Vec<i64>) {
    let ms = |d: Duration| d.as_millis();
    let mut problems = Vec::new();
    let mut delays = Vec::new();
    // Once settled, the host holds the game's position until the next move begins.
    for (i, &(rested, next)) in truth.rests.iter().enumerate() {
        let want = &truth.placements[i];
        let name = &truth.names[i];
        let settled = rested + settle;
        let until = next.unwrap_or(end);
        if settled >= until {
            problems.push(format!(
                "after {name}: the board rested {} ms only, too short to judge",
                ms(until.saturating_sub(rested))
            ));
            continue;
        }
        match held.iter().rev().find(|(at, _)| *at <= settled) {
            Some((since, board)) if board == want => {
                if i > 0 {
                    delays.push(ms(*since) as i64 - ms(rested) as i64);
                }
            }
            Some((_, board)) => problems.push(format!(
                "after {name} (at rest from +{} ms): at +{} ms, settled, the host holds {board} \
                 instead of {want}",
                ms(rested),
                ms(settled)
            )),
            None => problems.push(format!("after {name}: the host was not following yet")),
        }
        for (at, board) in held.iter().filter(|(at, _)| *at > settled && *at < until) {
            if board != want {
                problems.push(format!(
                    "after {name} (at rest from +{} ms): at +{} ms the host changed to {board} \
                     (the game: {want})",
                    ms(rested),
                    ms(*at)
                ));
            }
        }
    }
    // Every board the host held longer than a slid piece reads on a square it passes
    // (120 ms; a square passed may be shown as the piece goes on, as the recognizer shows
    // it) is a position of the game, none before the last it held.
    let mut reached = 0;
    let ends = held.iter().skip(1).map(|(at, _)| Some(*at)).chain([None]);
    for ((at, board), end) in held.iter().zip(ends) {
        if end.is_some_and(|end| end.saturating_sub(*at) < PASSING) || truth.castling_at(*at) {
            continue;
        }
        match truth.placements[reached..].iter().position(|p| p == board) {
            Some(index) => reached += index,
            None => {
                let what = if truth.placements.contains(board) {
                    "an earlier position of the game"
                } else {
                    "not a position of the game"
                };
                problems.push(format!(
                    "at +{} ms, {}: the host holds {board}, {what}",
                    ms(*at),
                    truth.during(*at)
                ));
            }
        }
    }
    (problems, delays)
}

/// The moves in SAN from `start`, numbered.
fn san_line(start: &Chess, moves: &[Move]) -> String {
    let mut position = start.clone();
    let mut words = Vec::new();
    for &m in moves {
        words.push(move_line(&position, m));
        position.play_unchecked(m);
    }
    words.join(" ")
}

/// Plays the slid game on the simulated `protocol` board into `listen --serve-dgt --pgn`
/// while a DGT host follows the virtual board; returns what went wrong and how it went.
fn follow_a_slid_game(protocol: Protocol) -> (Vec<String>, String) {
    let game = slid_game();
    let scripted = script_session(std::slice::from_ref(&game), &sliding_hands());
    let counts = scripted.counts.clone();
    assert!(counts.slides >= 15 && counts.brushes >= 1, "{counts:?}");
    let lead = (LEAD.as_secs_f64() * 1000.0 * SLID_SPEED) as u64;
    let script: Script = scripted
        .script
        .iter()
        .map(|(at, action)| (at + lead, action.clone()))
        .collect();
    let done: Vec<u64> = scripted.done_at[0].iter().map(|at| at + lead).collect();
    let truth = Truth::of(&game, &script, &done, SLID_SPEED);

    let dir = tempfile::tempdir().expect("temp dir");
    let dgt = dir.path().join("dgt");
    let pgn = dir.path().join("game.pgn");
    let log = dir.path().join("board.log");
    let stop = Arc::new(AtomicBool::new(false));
    let (ready, opened) = mpsc::channel();
    let simulator = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut announce = |path: &str| {
                let _ = ready.send((path.to_owned(), Instant::now()));
            };
            serve(
                Device::new(protocol, SLID_SPEED),
                &script,
                None,
                &stop,
                true,
                &mut announce,
            )
            .expect("the simulated board runs");
        })
    };
    let (port, opened_at) = opened
        .recv_timeout(PATIENCE)
        .expect("the simulated board's terminal");
    let since = |at: Instant| at.saturating_duration_since(opened_at);
    let args = [
        "--idle-exit".as_ref(),
        "2".as_ref(),
        "--record".as_ref(),
        log.as_os_str(),
    ];
    let mut listen = Listen::start_on(protocol, &port, &dgt, &pgn, &args);
    listen.expect_line("DGT board for other programs …", |line| {
        line.starts_with("DGT board for other programs on /dev/")
    });
    common::wait_for_path(&dgt);
    let mut host = Host::open(&dgt);
    host.start();
    host.wait_for_dump();
    let mut held = vec![(since(Instant::now()), common::fen_of_fields(&host.fields))];
    let first_move = truth.rests[0].1.expect("a first move");
    assert!(
        held[0].0 < first_move,
        "{protocol}: the host followed only from +{} ms, after the first move began",
        held[0].0.as_millis()
    );

    // Follow the virtual board until listen stops at --idle-exit, noting every board the
    // host holds once it has read each message whole.
    let last_rest = truth.rests.last().map_or(Duration::ZERO, |(at, _)| *at);
    let deadline = opened_at + last_rest + Duration::from_secs(15);
    let status = loop {
        if let Some(status) = listen.child.try_wait().expect("listen runs") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = listen.child.kill();
            panic!("{protocol}: listen did not stop at --idle-exit");
        }
        host.pump();
        let board = common::fen_of_fields(&host.fields);
        if host.pending.is_empty() && held.last().is_some_and(|(_, last)| *last != board) {
            held.push((since(Instant::now()), board));
        }
    };
    let end = since(Instant::now());
    stop.store(true, Ordering::Relaxed);
    simulator.join().expect("the simulator thread");
    while let Ok(line) = listen.lines.recv_timeout(Duration::from_secs(1)) {
        listen.seen.push(line);
    }

    let settle = scan_or_poll(protocol) + LATENCY;
    let (mut problems, mut delays) = judge(&held, &truth, settle, end);
    if !status.success() {
        problems.push(format!("listen ended with {status}"));
    }
    let want = truth.placements.last().expect("a position");
    if let Some((_, last)) = held.last().filter(|(_, last)| last != want) {
        problems.push(format!(
            "at the end the host holds {last} instead of {want}"
        ));
    }
    let text = std::fs::read(&pgn).expect("listen writes the PGN");
    let games = read_games(&text);
    match games.as_slice() {
        [Ok(recorded)] if recorded.game.moves == game.moves => {}
        [Ok(recorded)] => problems.push(format!(
            "the PGN has {}\n  instead of {}",
            san_line(&game.start, &recorded.game.moves),
            san_line(&game.start, &game.moves)
        )),
        _ => problems.push(format!(
            "the PGN is not the one game:\n{}",
            String::from_utf8_lossy(&text)
        )),
    }
    if !problems.is_empty() {
        // Keep what the board sent, to replay with `boardsight replay --trace`.
        let kept = std::env::temp_dir().join(format!("boardsight-slid-{protocol}.log"));
        let _ = std::fs::copy(&log, &kept);
        problems.push(format!(
            "the board's sensor log: {}; listen printed:\n{}",
            kept.display(),
            listen.seen.join("\n")
        ));
    }
    let problems = problems
        .into_iter()
        .map(|problem| format!("{protocol}: {problem}"))
        .collect();
    delays.sort_unstable();
    let summary = format!(
        "{protocol}: {} plies ({} slid, {} brushing a square), {} boards held by the host, each \
         settled position shown {}..{} ms (median {}) after the board came to rest (allowed \
         {} ms), the game {:.1} s",
        game.moves.len(),
        counts.slides,
        counts.brushes,
        held.len(),
        delays.first().copied().unwrap_or_default(),
        delays.last().copied().unwrap_or_default(),
        delays.get(delays.len() / 2).copied().unwrap_or_default(),
        settle.as_millis(),
        (last_rest - truth.rests[0].0).as_secs_f64()
    );
    (problems, summary)
}

/// Games whose moves are slid along the board (all but a knight's; diagonal steps brushing
/// a square beside the way), with pawns pushed two squares, captures, en passant and
/// castling on both sides, through `listen --serve-dgt` from a board that sends changes
/// (LiBoard) and from one polled with events (Centaur). A DGT host following the virtual
/// board holds only positions of the game, in order (a square passed only in passing, no
/// extra ply); once
/// the board has rested for one scan or poll it holds the game so far; at the end the game's
/// final position; and the PGN has exactly the game's moves.
#[test]
fn a_dgt_host_following_slid_games_holds_only_their_positions_and_each_once_settled() {
    let mut problems = Vec::new();
    for protocol in [Protocol::Liboard, Protocol::Centaur] {
        let (found, summary) = follow_a_slid_game(protocol);
        eprintln!("{summary}");
        problems.extend(found);
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
