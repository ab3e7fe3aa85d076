//! DGT e-board, classic serial protocol (9600 8N1).
//!
//! The host sends one-byte commands: `0x40` (reset), `0x42` (board dump), `0x43`/`0x44`/`0x4b`
//! (update modes), `0x41` (clock), `0x45`/`0x46`/`0x47`/`0x4d` (identity); a clock command
//! (`0x2b`) or LED command (`0x60`) carries a size byte and that many bytes more. Messages
//! are `[id|0x80][(len>>7)&0x7f][len&0x7f][data]`, len counting the 3 header bytes: `0x86` is
//! a board dump (64 piece codes, a8 … h1), `0x8E` a field update (square, then piece code).
//! Piece codes: 0 empty; white P1 R2 N3 B4 K5 Q6; black p7 r8 n9 b10 k11 q12.
//! `0x8D` gives the clock: the right player's BCD hours (with flag bits), minutes, seconds,
//! the same for the left player, then a status byte (see `encode_clock`).

use shakmaty::{Bitboard, Color, Piece, Role, Square};

use super::dgt_clock::{ClockCommand, Lights, ack_of, parse_clock_command, parse_lights};
use super::{HostSession, Micros, Signal, a8_order_of, square_from_a8_order};
use crate::reading::Reading;

/// The board's serial speed.
pub const BAUD_RATE: u32 = 9600;

// Commands from the host.
/// Host command: reset (back to idle mode).
pub const RESET: u8 = 0x40;
/// Host command: send the clock times.
pub const CLOCK_REQUEST: u8 = 0x41;
/// Host command: send the whole board.
pub const BOARD_DUMP_REQUEST: u8 = 0x42;
/// Update mode with clock times.
pub const UPDATE_WITH_CLOCK: u8 = 0x43;
/// Update mode, board only.
pub const UPDATE_MODE: u8 = 0x44;
/// Host command: send the serial number.
pub const SERIAL_NUMBER_REQUEST: u8 = 0x45;
/// Host command: send the bus address.
pub const BUS_ADDRESS_REQUEST: u8 = 0x46;
/// Host command: send the trademark text.
pub const TRADEMARK_REQUEST: u8 = 0x47;
/// Update mode with clock times only when they change.
pub const UPDATE_NICE: u8 = 0x4b;
/// Host command: send the firmware version.
pub const VERSION_REQUEST: u8 = 0x4d;
/// A command for the clock: a size byte, then that many bytes.
pub const CLOCK_COMMAND: u8 = 0x2b;
/// Revelation II LEDs: a size byte, then that many bytes.
pub const SET_LEDS: u8 = 0x60;

// Messages from the board.
/// Board message: the whole board, one piece code per square.
pub const BOARD_DUMP: u8 = 0x86;
/// Board message: the clock times.
pub const CLOCK_TIMES: u8 = 0x8D;
/// Board message: one square changed.
pub const FIELD_UPDATE: u8 = 0x8E;
/// Board message: the bus address.
pub const BUS_ADDRESS: u8 = 0x90;
/// Board message: the serial number.
pub const SERIAL_NUMBER: u8 = 0x91;
/// Board message: the trademark text.
pub const TRADEMARK: u8 = 0x92;
/// Board message: the firmware version.
pub const VERSION: u8 = 0x93;
/// The clock status bit that says no clock is attached (the times are then invalid).
pub const NO_CLOCK: u8 = 0x20;
// The other clock status bits.
const CLOCK_RUNNING: u8 = 0x01;
/// The tumbler (the lever) is up on the right: the right player's time runs.
const TUMBLER_HIGH_RIGHT: u8 = 0x02;
const RIGHT_TO_MOVE: u8 = 0x08;
const LEFT_TO_MOVE: u8 = 0x10;
/// In a player's hours byte: the flag fell and the clock stands at zero (0x10), and the
/// flag shows on the display (0x40).
const FLAG_FALLEN: u8 = 0x10 | 0x40;
/// The clock's left side is White's: the clock stands on White's left, as White sees it.
/// The protocol itself knows only left and right.
pub const LEFT_PLAYER: Color = Color::White;

/// The board's identity as it answers the host: a five-digit serial number (the bus
/// address is that number), a trademark line and version 1.0.
pub const SERIAL_DIGITS: &[u8; 5] = b"00001";
/// The trademark the virtual board gives.
pub const TRADEMARK_TEXT: &str = "boardsight: an occupancy board with recognised pieces";
/// The firmware version (major, minor) the virtual board gives.
pub const FIRMWARE_VERSION: (u8, u8) = (1, 0);
/// A dump now and then catches anything an update missed.
const DUMP_INTERVAL: Micros = 2_000_000;

/// The DGT code of a square's content.
pub fn piece_code(piece: Option<Piece>) -> u8 {
    let Some(piece) = piece else { return 0 };
    let base = match piece.role {
        Role::Pawn => 1,
        Role::Rook => 2,
        Role::Knight => 3,
        Role::Bishop => 4,
        Role::King => 5,
        Role::Queen => 6,
    };
    if piece.color == Color::White {
        base
    } else {
        base + 6
    }
}

/// The square's content a DGT code stands for (`None`: empty or unknown).
pub fn piece_of_code(code: u8) -> Option<Piece> {
    let (color, base) = match code {
        1..=6 => (Color::White, code),
        7..=12 => (Color::Black, code - 6),
        _ => return None,
    };
    let role = match base {
        1 => Role::Pawn,
        2 => Role::Rook,
        3 => Role::Knight,
        4 => Role::Bishop,
        5 => Role::King,
        _ => Role::Queen,
    };
    Some(Piece { color, role })
}

/// A board-to-host message: id, 14-bit length (with the header), data.
pub fn message(id: u8, data: &[u8]) -> Vec<u8> {
    let len = data.len() + 3;
    let mut bytes = vec![id, ((len >> 7) & 0x7f) as u8, (len & 0x7f) as u8];
    bytes.extend_from_slice(data);
    bytes
}

/// A board dump message from pieces by square.
pub fn encode_dump(pieces: &[Option<Piece>; 64]) -> Vec<u8> {
    let data: Vec<u8> = (0u8..64)
        .map(|i| square_from_a8_order(i).map_or(0, |sq| piece_code(pieces[sq as usize])))
        .collect();
    message(BOARD_DUMP, &data)
}

/// A field update message: what now stands on `square`.
pub fn encode_update(square: Square, piece: Option<Piece>) -> Vec<u8> {
    message(FIELD_UPDATE, &[a8_order_of(square), piece_code(piece)])
}

/// A chess clock as a DGT clock shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DgtClock {
    /// White's time left, in milliseconds.
    pub white_ms: u64,
    /// Black's time left, in milliseconds.
    pub black_ms: u64,
    /// The side whose time runs; `None` while the clock stands still (after a flag).
    pub running: Option<Color>,
    /// The side whose flag fell.
    pub flag: Option<Color>,
}

impl DgtClock {
    /// The clock `elapsed_ms` later: the running side has that much less.
    pub fn after(&self, elapsed_ms: u64) -> Self {
        let mut later = *self;
        match self.running {
            Some(Color::White) => later.white_ms = self.white_ms.saturating_sub(elapsed_ms),
            Some(Color::Black) => later.black_ms = self.black_ms.saturating_sub(elapsed_ms),
            None => {}
        }
        later
    }

    fn left_of(&self, color: Color) -> u64 {
        match color {
            Color::White => self.white_ms,
            Color::Black => self.black_ms,
        }
    }
}

/// The clock message (`0x8D`): `None` says no clock is connected. White is the left player
/// (`LEFT_PLAYER`); the lever is up on the side whose time runs (after a flag: whose flag
/// fell). Times are whole seconds left, rounded down as `ClockTime` shows them; the clock
/// has one hours digit, so times from 10 hours on show 9:59:59.
pub fn encode_clock(clock: Option<&DgtClock>) -> Vec<u8> {
    encode_clock_with_lever(clock, clock.and_then(|c| c.running.or(c.flag)))
}

/// The clock message with the lever up on `lever`'s side (`None`: down on the right).
pub fn encode_clock_with_lever(clock: Option<&DgtClock>, lever: Option<Color>) -> Vec<u8> {
    let Some(clock) = clock else {
        return message(CLOCK_TIMES, &[0, 0, 0, 0, 0, 0, NO_CLOCK]);
    };
    let side = |color: Color| {
        let [hours, minutes, seconds] = hours_minutes_seconds(clock.left_of(color));
        let flag = if clock.flag == Some(color) {
            FLAG_FALLEN
        } else {
            0
        };
        [hours | flag, bcd(minutes), bcd(seconds)]
    };
    let to_move = clock.running.or(clock.flag);
    let mut status = 0;
    if clock.running.is_some() {
        status |= CLOCK_RUNNING;
    }
    if lever == Some(!LEFT_PLAYER) {
        status |= TUMBLER_HIGH_RIGHT;
    }
    if to_move == Some(!LEFT_PLAYER) {
        status |= RIGHT_TO_MOVE;
    }
    if to_move == Some(LEFT_PLAYER) {
        status |= LEFT_TO_MOVE;
    }
    let mut data = Vec::with_capacity(7);
    data.extend(side(!LEFT_PLAYER));
    data.extend(side(LEFT_PLAYER));
    data.push(status);
    message(CLOCK_TIMES, &data)
}

fn hours_minutes_seconds(ms: u64) -> [u8; 3] {
    let seconds = (ms / 1000).min(10 * 3600 - 1);
    [
        (seconds / 3600) as u8,
        (seconds / 60 % 60) as u8,
        (seconds % 60) as u8,
    ]
}

/// Two decimal digits in a byte: 59 is 0x59.
fn bcd(value: u8) -> u8 {
    ((value / 10) << 4) | (value % 10)
}

/// The host side of the protocol: asks for updates and reads the board's messages.
pub struct Host {
    buffer: Vec<u8>,
    pieces: [u8; 64],
    /// The last pawn lifted from its 7th rank, to name the piece a promotion puts down.
    promoting_pawn: Option<Color>,
    last_dump: Option<Micros>,
    dropped: u64,
    skipping: bool,
}

impl Default for Host {
    fn default() -> Self {
        Self {
            buffer: Vec::new(),
            pieces: [0; 64],
            promoting_pawn: None,
            last_dump: None,
            dropped: 0,
            skipping: false,
        }
    }
}

impl Host {
    fn handle(&mut self, id: u8, data: &[u8], readings: &mut Vec<Reading>) {
        match (id, data) {
            (BOARD_DUMP, data) if data.len() == 64 && data.iter().all(|&c| c <= 12) => {
                let mut occupancy = Bitboard::EMPTY;
                for (index, &code) in (0u8..).zip(data) {
                    if let Some(square) = square_from_a8_order(index) {
                        self.pieces[square as usize] = code;
                        if code != 0 {
                            occupancy.add(square);
                        }
                    }
                }
                readings.push(Reading::Occupancy(occupancy));
            }
            (FIELD_UPDATE, &[index, code]) if code <= 12 => {
                let Some(square) = square_from_a8_order(index) else {
                    self.dropped += 1;
                    return;
                };
                let before = piece_of_code(self.pieces[square as usize]);
                self.pieces[square as usize] = code;
                match piece_of_code(code) {
                    None => {
                        let seventh = |color: Color| {
                            square.rank()
                                == color.fold_wb(shakmaty::Rank::Seventh, shakmaty::Rank::Second)
                        };
                        self.promoting_pawn = before
                            .filter(|p| p.role == Role::Pawn && seventh(p.color))
                            .map(|p| p.color);
                        readings.push(Reading::Lift(square));
                    }
                    Some(piece) => {
                        readings.push(Reading::Place(square));
                        let last_rank = piece
                            .color
                            .fold_wb(shakmaty::Rank::Eighth, shakmaty::Rank::First);
                        let promoted = self.promoting_pawn == Some(piece.color)
                            && square.rank() == last_rank
                            && !matches!(piece.role, Role::Pawn | Role::King);
                        if promoted {
                            readings.push(Reading::Promote(piece.role));
                            self.promoting_pawn = None;
                        }
                    }
                }
            }
            (BOARD_DUMP | FIELD_UPDATE, _) => self.dropped += 1,
            // Other messages (serial number, version, clock) are not ours to read.
            _ => {}
        }
    }
}

impl HostSession for Host {
    fn open(&mut self, now: Micros) -> Vec<u8> {
        *self = Self::default();
        self.last_dump = Some(now);
        vec![RESET, BOARD_DUMP_REQUEST, UPDATE_MODE]
    }

    /// The `0x60` LED command of boards with lights (Revelation II, Pegasus); a board
    /// without them ignores it. DGT boards have no beeper.
    fn signal(&mut self, signal: Signal) -> Vec<u8> {
        match signal {
            Signal::Lights(squares) => super::dgt_clock::encode_lit_squares(squares),
            Signal::Beep(_) => Vec::new(),
        }
    }

    fn receive(&mut self, bytes: &[u8], now: Micros, readings: &mut Vec<Reading>) -> Vec<u8> {
        self.buffer.extend_from_slice(bytes);
        while let Some(&id) = self.buffer.first() {
            let header_ok = id & 0x80 != 0
                && self.buffer.get(1).is_none_or(|&b| b < 0x80)
                && self.buffer.get(2).is_none_or(|&b| b < 0x80);
            if !header_ok {
                self.skip();
                continue;
            }
            if self.buffer.len() < 3 {
                break;
            }
            let len = (usize::from(self.buffer[1]) << 7) | usize::from(self.buffer[2]);
            let expected = match id {
                BOARD_DUMP => Some(67),
                FIELD_UPDATE => Some(5),
                _ => None,
            };
            if !(3..=1024).contains(&len) || expected.is_some_and(|e| e != len) {
                self.skip();
                continue;
            }
            if self.buffer.len() < len {
                break;
            }
            let whole: Vec<u8> = self.buffer.drain(..len).collect();
            self.skipping = false;
            self.handle(id, &whole[3..], readings);
        }
        self.tick(now, readings)
    }

    fn tick(&mut self, now: Micros, _readings: &mut Vec<Reading>) -> Vec<u8> {
        if self
            .last_dump
            .is_none_or(|at| now.saturating_sub(at) >= DUMP_INTERVAL)
        {
            self.last_dump = Some(now);
            vec![BOARD_DUMP_REQUEST]
        } else {
            Vec::new()
        }
    }

    fn dropped(&self) -> u64 {
        self.dropped
    }

    fn tick_interval(&self) -> Micros {
        50_000
    }
}

impl Host {
    fn skip(&mut self) {
        self.buffer.remove(0);
        if !self.skipping {
            self.dropped += 1;
            self.skipping = true;
        }
    }
}

/// The board's side: answers the host's commands and reports changes in update mode, with
/// a DGT 3000 clock attached. The clock shows the caller's clock (`None`: no clock) until
/// the host sets it (set-and-run); from then on it shows the host's times, running on by
/// themselves, until the host resets the board. What the host told the clock and the
/// lights is kept for `take_heard`.
#[derive(Default)]
pub struct Board {
    mode: Mode,
    /// A sized command (clock, LEDs) being read.
    reading: Option<SizedCommand>,
    reset_heard: bool,
    /// The clock message last sent in an update mode with clock times, and when.
    clock_sent: Option<(Vec<u8>, Micros)>,
    /// The clock as the host last set it, and when.
    host_clock: Option<(DgtClock, Micros)>,
    /// The side whose lever is up: it follows the caller's clock (a player presses it)
    /// and stands still while the host drives the clock.
    lever: Option<Color>,
    heard: Vec<HostSaid>,
}

/// What the host told the clock or the lights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostSaid {
    /// A command for the clock.
    Clock(ClockCommand),
    /// The lights set.
    Lights(Lights),
    /// The host reset the board: it starts afresh, and no longer drives the clock.
    Reset,
}

#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum Mode {
    #[default]
    Idle,
    /// `0x44`: field updates only.
    Board,
    /// `0x43`: field updates, and the clock at least once a second.
    WithClock,
    /// `0x4b`: field updates, and the clock when what it shows changes.
    ClockWhenChanged,
}

/// A command with a size byte: its first byte, the size once read, the bytes so far.
#[derive(Default)]
struct SizedCommand {
    id: u8,
    size: Option<usize>,
    body: Vec<u8>,
}

/// In `0x43` mode a clock standing still is sent again after this long.
const CLOCK_REPEAT: Micros = 1_000_000;

impl Board {
    /// Commands from the host at `now`; returns the replies. `clock` is the caller's clock
    /// as it reads now.
    pub fn receive(
        &mut self,
        bytes: &[u8],
        pieces: &[Option<Piece>; 64],
        clock: Option<&DgtClock>,
        now: Micros,
    ) -> Vec<u8> {
        let mut replies = Vec::new();
        for &byte in bytes {
            if let Some(command) = &mut self.reading {
                match command.size {
                    None => command.size = Some(usize::from(byte)),
                    Some(_) => command.body.push(byte),
                }
                if command.size.is_some_and(|size| command.body.len() >= size) {
                    let SizedCommand { id, body, .. } = std::mem::take(command);
                    self.reading = None;
                    replies.extend(self.sized_command(id, &body, now));
                }
                continue;
            }
            match byte {
                RESET => {
                    self.mode = Mode::Idle;
                    self.reset_heard = true;
                    self.host_clock = None;
                    self.heard.push(HostSaid::Reset);
                }
                CLOCK_REQUEST => {
                    let (shown, lever) = self.clock_at(clock, now);
                    replies.extend(encode_clock_with_lever(shown.as_ref(), lever));
                }
                BOARD_DUMP_REQUEST => replies.extend(encode_dump(pieces)),
                UPDATE_MODE => self.mode = Mode::Board,
                UPDATE_WITH_CLOCK => {
                    self.mode = Mode::WithClock;
                    // The host hears the clock afresh in its new mode.
                    self.clock_sent = None;
                }
                UPDATE_NICE => {
                    self.mode = Mode::ClockWhenChanged;
                    // Only changes from here on (dgtbrd.h): a host that asks the clock's
                    // version next (PicoChess) hears its answer before any time, and never
                    // takes times from a clock it has not found for a clock to set up again.
                    let (shown, lever) = self.clock_at(clock, now);
                    self.clock_sent =
                        shown.map(|shown| (encode_clock_with_lever(Some(&shown), lever), now));
                }
                SERIAL_NUMBER_REQUEST => replies.extend(message(SERIAL_NUMBER, SERIAL_DIGITS)),
                BUS_ADDRESS_REQUEST => replies.extend(message(BUS_ADDRESS, &bus_address())),
                TRADEMARK_REQUEST => {
                    replies.extend(message(TRADEMARK, TRADEMARK_TEXT.as_bytes()));
                }
                VERSION_REQUEST => {
                    replies.extend(message(VERSION, &[FIRMWARE_VERSION.0, FIRMWARE_VERSION.1]));
                }
                CLOCK_COMMAND | SET_LEDS => {
                    self.reading = Some(SizedCommand {
                        id: byte,
                        size: None,
                        body: Vec::new(),
                    });
                }
                // Anything else a real board ignores too.
                _ => {}
            }
        }
        replies
    }

    /// Takes a whole clock or LED command; returns the clock's acknowledgement, if due.
    fn sized_command(&mut self, id: u8, body: &[u8], now: Micros) -> Vec<u8> {
        if id == SET_LEDS {
            if let Some(lights) = parse_lights(body) {
                self.heard.push(HostSaid::Lights(lights));
            }
            return Vec::new();
        }
        let Some(command) = parse_clock_command(body) else {
            return Vec::new();
        };
        if let ClockCommand::SetAndRun(clock) = command {
            self.host_clock = Some((clock, now));
        }
        // The clock acknowledges only in the update modes with clock times.
        let ack = if self.sends_clock() {
            ack_of(&command)
        } else {
            Vec::new()
        };
        self.heard.push(HostSaid::Clock(command));
        ack
    }

    fn sends_clock(&self) -> bool {
        matches!(self.mode, Mode::WithClock | Mode::ClockWhenChanged)
    }

    /// What the clock shows at `now`, and the side whose lever is up: the host's clock once
    /// it set one, else the caller's (whose lever the players press).
    fn clock_at(
        &mut self,
        own: Option<&DgtClock>,
        now: Micros,
    ) -> (Option<DgtClock>, Option<Color>) {
        if let Some((clock, at)) = self.host_clock {
            return (Some(clock.after(now.saturating_sub(at) / 1000)), self.lever);
        }
        if let Some(own) = own {
            self.lever = own.running.or(own.flag);
        }
        (own.copied(), self.lever)
    }

    /// Whether the host drives the clock (it set it since its last reset).
    pub fn host_drives_clock(&self) -> bool {
        self.host_clock.is_some()
    }

    /// What the host told the clock and the lights since the last call, in order.
    pub fn take_heard(&mut self) -> Vec<HostSaid> {
        std::mem::take(&mut self.heard)
    }

    /// What to send when a square changed.
    pub fn changed(&self, square: Square, piece: Option<Piece>) -> Vec<u8> {
        if self.mode == Mode::Idle {
            Vec::new()
        } else {
            encode_update(square, piece)
        }
    }

    /// What to send as the caller's clock reads `clock` at `now`: in `0x43` and `0x4b`
    /// modes a clock message when what it shows changed (`0x43` also repeats a clock
    /// standing still every second). Without a clock nothing is sent, but a clock that goes
    /// away is told once.
    pub fn clock_shown(&mut self, clock: Option<&DgtClock>, now: Micros) -> Vec<u8> {
        if !self.sends_clock() {
            return Vec::new();
        }
        let (shown, lever) = self.clock_at(clock, now);
        let Some(shown) = shown else {
            return match self.clock_sent.take() {
                Some(_) => encode_clock(None),
                None => Vec::new(),
            };
        };
        let bytes = encode_clock_with_lever(Some(&shown), lever);
        let due = match &self.clock_sent {
            None => true,
            Some((sent, at)) => {
                *sent != bytes
                    || (self.mode == Mode::WithClock && now.saturating_sub(*at) >= CLOCK_REPEAT)
            }
        };
        if !due {
            return Vec::new();
        }
        self.clock_sent = Some((bytes.clone(), now));
        bytes
    }

    /// Whether the host sent a reset since the last call: a host starting afresh.
    pub fn take_reset(&mut self) -> bool {
        std::mem::take(&mut self.reset_heard)
    }
}

/// The serial number as a 14-bit number in two 7-bit bytes, as boards give their bus address.
fn bus_address() -> [u8; 2] {
    let number = SERIAL_DIGITS
        .iter()
        .fold(0u16, |n, d| n * 10 + u16::from(d - b'0'))
        & 0x3fff;
    [(number >> 7) as u8, (number & 0x7f) as u8]
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn start_pieces() -> [Option<Piece>; 64] {
        let board = shakmaty::Board::default();
        std::array::from_fn(|i| board.piece_at(Square::new(i as u32)))
    }

    #[test]
    fn the_documented_field_updates_encode_and_decode() {
        assert_eq!(
            encode_update(Square::E2, None),
            [0x8E, 0x00, 0x05, 0x34, 0x00]
        );
        let pawn = Some(Piece {
            color: Color::White,
            role: Role::Pawn,
        });
        assert_eq!(
            encode_update(Square::E4, pawn),
            [0x8E, 0x00, 0x05, 0x24, 0x01]
        );
        let mut host = Host::default();
        let mut readings = Vec::new();
        host.receive(
            &[0x8E, 0x00, 0x05, 0x34, 0x00, 0x8E, 0x00, 0x05, 0x24, 0x01],
            0,
            &mut readings,
        );
        assert_eq!(
            readings,
            vec![Reading::Lift(Square::E2), Reading::Place(Square::E4)]
        );
    }

    #[test]
    fn a_board_dump_gives_the_occupancy() {
        let mut host = Host::default();
        let mut readings = Vec::new();
        let dump = encode_dump(&start_pieces());
        assert_eq!(dump.len(), 67);
        assert_eq!(&dump[..3], &[0x86, 0x00, 0x43]);
        assert_eq!(dump[3], 8, "a8 holds a black rook");
        host.receive(&dump, 0, &mut readings);
        assert_eq!(
            readings,
            vec![Reading::Occupancy(Bitboard(0xffff_0000_0000_ffff))]
        );
    }

    #[test]
    fn the_piece_put_on_the_last_rank_names_the_promotion() {
        let mut pieces = [None; 64];
        pieces[Square::B7 as usize] = Some(Piece {
            color: Color::White,
            role: Role::Pawn,
        });
        let mut host = Host::default();
        let mut readings = Vec::new();
        host.receive(&encode_dump(&pieces), 0, &mut readings);
        readings.clear();
        let knight = Some(Piece {
            color: Color::White,
            role: Role::Knight,
        });
        let mut bytes = encode_update(Square::B7, None);
        bytes.extend(encode_update(Square::B8, knight));
        host.receive(&bytes, 0, &mut readings);
        assert_eq!(
            readings,
            vec![
                Reading::Lift(Square::B7),
                Reading::Place(Square::B8),
                Reading::Promote(Role::Knight)
            ]
        );
    }

    #[test]
    fn a_rook_reaching_the_last_rank_is_no_promotion() {
        let mut pieces = [None; 64];
        pieces[Square::A1 as usize] = Some(Piece {
            color: Color::White,
            role: Role::Rook,
        });
        let mut host = Host::default();
        let mut readings = Vec::new();
        host.receive(&encode_dump(&pieces), 0, &mut readings);
        let rook = Some(Piece {
            color: Color::White,
            role: Role::Rook,
        });
        let mut bytes = encode_update(Square::A1, None);
        bytes.extend(encode_update(Square::A8, rook));
        host.receive(&bytes, 0, &mut readings);
        assert!(!readings.iter().any(|r| matches!(r, Reading::Promote(_))));
    }

    #[test]
    fn garbage_is_skipped_counted_and_the_stream_resynchronises() {
        let mut host = Host::default();
        let mut readings = Vec::new();
        let mut bytes = vec![0x01, 0x02, 0x8E, 0x7f, 0x7f, 0x33];
        bytes.extend(encode_update(Square::E2, None));
        host.receive(&bytes, 0, &mut readings);
        assert_eq!(readings, vec![Reading::Lift(Square::E2)]);
        assert!(host.dropped() >= 1);
    }

    #[test]
    fn the_host_opens_with_reset_dump_and_update_mode_and_the_board_answers() {
        let mut host = Host::default();
        let commands = host.open(0);
        assert_eq!(commands, [0x40, 0x42, 0x44]);
        let mut board = Board::default();
        let reply = board.receive(&commands, &start_pieces(), None, 0);
        assert_eq!(reply, encode_dump(&start_pieces()));
        assert!(!board.changed(Square::E2, None).is_empty());
    }

    #[test]
    fn the_board_names_itself_and_says_it_has_no_clock() {
        let mut board = Board::default();
        let pieces = start_pieces();
        assert_eq!(
            board.receive(&[SERIAL_NUMBER_REQUEST], &pieces, None, 0),
            [0x91, 0x00, 0x08, b'0', b'0', b'0', b'0', b'1']
        );
        assert_eq!(
            board.receive(&[BUS_ADDRESS_REQUEST], &pieces, None, 0),
            [0x90, 0x00, 0x05, 0x00, 0x01]
        );
        assert_eq!(
            board.receive(&[VERSION_REQUEST], &pieces, None, 0),
            [0x93, 0x00, 0x05, 0x01, 0x00]
        );
        let trademark = board.receive(&[TRADEMARK_REQUEST], &pieces, None, 0);
        assert_eq!(trademark[0], 0x92);
        assert_eq!(usize::from(trademark[2]), trademark.len());
        assert!(trademark[3..].iter().all(|b| b.is_ascii()));
        let clock = board.receive(&[CLOCK_REQUEST], &pieces, None, 0);
        assert_eq!(clock.len(), 10);
        assert_eq!(clock[..3], [0x8D, 0x00, 0x0A]);
        assert_eq!(clock[9] & NO_CLOCK, NO_CLOCK);
    }

    #[test]
    fn a_clock_command_is_skipped_whole_even_when_its_bytes_look_like_commands() {
        let mut board = Board::default();
        let pieces = start_pieces();
        // A display command whose segment bytes are 0x42 (board dump) and 0x44 (updates).
        let display = [
            0x2b, 0x0b, 0x03, 0x01, 0x42, 0x44, 0x42, 0x42, 0x42, 0x42, 0x00, 0x01, 0x00,
        ];
        assert!(board.receive(&display, &pieces, None, 0).is_empty());
        assert!(board.changed(Square::E2, None).is_empty(), "still idle");
        // Split across reads, then a real command after it.
        assert!(board.receive(&display[..5], &pieces, None, 0).is_empty());
        let reply = board.receive(
            &[&display[5..], &[BOARD_DUMP_REQUEST][..]].concat(),
            &pieces,
            None,
            0,
        );
        assert_eq!(reply, encode_dump(&pieces));
    }

    #[test]
    fn every_update_mode_reports_changes_until_a_reset() {
        let pieces = start_pieces();
        for mode in [UPDATE_WITH_CLOCK, UPDATE_MODE, UPDATE_NICE] {
            let mut board = Board::default();
            assert!(board.receive(&[mode], &pieces, None, 0).is_empty());
            assert_eq!(
                board.changed(Square::E2, None),
                encode_update(Square::E2, None)
            );
            assert!(!board.take_reset());
            board.receive(&[RESET], &pieces, None, 0);
            assert!(board.take_reset());
            assert!(!board.take_reset(), "told once");
            assert!(board.changed(Square::E2, None).is_empty());
        }
    }

    fn black_to_move() -> DgtClock {
        DgtClock {
            white_ms: 3_909_400, // 1:05:09.4
            black_ms: 7_999,     // 0:00:07.999
            running: Some(Color::Black),
            flag: None,
        }
    }

    #[test]
    fn the_clock_message_has_bcd_times_right_player_first_and_the_status_byte() {
        // Black (right): 0:00:07; White (left): 1:05:09; running, tumbler up on the
        // right, the right player's turn: 0x01 | 0x02 | 0x08.
        assert_eq!(
            encode_clock(Some(&black_to_move())),
            [0x8D, 0x00, 0x0A, 0x00, 0x00, 0x07, 0x01, 0x05, 0x09, 0x0B]
        );
        let white_to_move = DgtClock {
            white_ms: 298_000,
            black_ms: 300_000,
            running: Some(Color::White),
            flag: None,
        };
        // Running, tumbler up on the left (bit clear), the left player's turn: 0x01 | 0x10.
        assert_eq!(
            encode_clock(Some(&white_to_move)),
            [0x8D, 0x00, 0x0A, 0x00, 0x05, 0x00, 0x00, 0x04, 0x58, 0x11]
        );
        // White's flag fell: stopped, White's hours byte flagged (0x10 | 0x40), still White's turn.
        let fallen = DgtClock {
            white_ms: 0,
            black_ms: 152_000,
            running: None,
            flag: Some(Color::White),
        };
        assert_eq!(
            encode_clock(Some(&fallen)),
            [0x8D, 0x00, 0x0A, 0x00, 0x02, 0x32, 0x50, 0x00, 0x00, 0x10]
        );
        let long = DgtClock {
            white_ms: 12 * 3_600_000,
            ..white_to_move
        };
        assert_eq!(&encode_clock(Some(&long))[6..9], &[0x09, 0x59, 0x59]);
        assert_eq!(
            encode_clock(None),
            [0x8D, 0x00, 0x0A, 0, 0, 0, 0, 0, 0, NO_CLOCK]
        );
    }

    #[test]
    fn only_the_running_side_loses_time() {
        let later = black_to_move().after(5_000);
        assert_eq!((later.white_ms, later.black_ms), (3_909_400, 2_999));
        assert_eq!(black_to_move().after(60_000).black_ms, 0);
        let stopped = DgtClock {
            running: None,
            ..black_to_move()
        };
        assert_eq!(stopped.after(60_000), stopped);
    }

    #[test]
    fn a_clock_request_answers_with_the_clock_given() {
        let mut board = Board::default();
        let clock = black_to_move();
        assert_eq!(
            board.receive(&[CLOCK_REQUEST], &start_pieces(), Some(&clock), 0),
            encode_clock(Some(&clock))
        );
    }

    #[test]
    fn clock_times_go_out_in_0x43_and_0x4b_when_they_change_and_never_in_0x44() {
        let pieces = start_pieces();
        let clock = black_to_move();
        let a_second_later = clock.after(1_000);
        let mut board = Board::default();
        assert!(board.clock_shown(Some(&clock), 0).is_empty(), "idle");
        board.receive(&[UPDATE_MODE], &pieces, Some(&clock), 0);
        assert!(board.clock_shown(Some(&clock), 0).is_empty(), "board only");
        assert!(
            board
                .clock_shown(Some(&a_second_later), 1_000_000)
                .is_empty()
        );

        for mode in [UPDATE_WITH_CLOCK, UPDATE_NICE] {
            let mut board = Board::default();
            board.receive(&[mode], &pieces, Some(&clock), 0);
            // 0x43 sends the clock at once; 0x4b only once what it shows changes.
            let at_once = board.clock_shown(Some(&clock), 0);
            if mode == UPDATE_WITH_CLOCK {
                assert_eq!(at_once, encode_clock(Some(&clock)));
            } else {
                assert!(at_once.is_empty());
            }
            // Less than a second: the display has not changed.
            assert!(
                board
                    .clock_shown(Some(&clock.after(400)), 400_000)
                    .is_empty()
            );
            assert_eq!(
                board.clock_shown(Some(&a_second_later), 1_000_000),
                encode_clock(Some(&a_second_later))
            );
            // A clock standing still: 0x43 repeats it every second, 0x4b stays quiet.
            let repeated = board.clock_shown(Some(&a_second_later), 2_000_000);
            if mode == UPDATE_WITH_CLOCK {
                assert_eq!(repeated, encode_clock(Some(&a_second_later)));
            } else {
                assert!(repeated.is_empty());
            }
            // The clock goes: told once.
            assert_eq!(board.clock_shown(None, 2_100_000), encode_clock(None));
            assert!(board.clock_shown(None, 3_200_000).is_empty());
            // A reset ends the clock messages too.
            board.receive(&[RESET], &pieces, Some(&clock), 0);
            assert!(board.clock_shown(Some(&clock), 4_000_000).is_empty());
        }
    }

    #[test]
    fn without_a_clock_the_update_modes_send_no_clock_messages() {
        let mut board = Board::default();
        board.receive(&[UPDATE_WITH_CLOCK], &start_pieces(), None, 0);
        assert!(board.clock_shown(None, 0).is_empty());
        assert!(board.clock_shown(None, 5_000_000).is_empty());
    }

    /// The status byte of a clock message.
    fn status(message: &[u8]) -> u8 {
        message[9]
    }

    #[test]
    fn the_host_takes_the_clock_with_set_and_run_and_the_lever_stays_where_it_was() {
        let pieces = start_pieces();
        let own = black_to_move();
        let mut board = Board::default();
        board.receive(&[UPDATE_WITH_CLOCK], &pieces, Some(&own), 0);
        let before = board.clock_shown(Some(&own), 0);
        assert_eq!(status(&before) & TUMBLER_HIGH_RIGHT, TUMBLER_HIGH_RIGHT);
        // Set and run: White (left) 0:04:57 runs, Black 0:05:03.
        let set = [0x2b, 0x0a, 0x03, 0x0a, 0, 4, 57, 0, 5, 3, 0x01, 0x00];
        let ack = board.receive(&set, &pieces, Some(&own), 1_000_000);
        assert_eq!(
            ack,
            ack_of(&ClockCommand::SetAndRun(DgtClock {
                white_ms: 297_000,
                black_ms: 303_000,
                running: Some(Color::White),
                flag: None,
            }))
        );
        assert!(board.host_drives_clock());
        // Three seconds on, the host's White time has run; the owner's clock is ignored.
        let shown = board.clock_shown(Some(&own.after(3_000)), 4_000_000);
        let host_clock = DgtClock {
            white_ms: 294_000,
            black_ms: 303_000,
            running: Some(Color::White),
            flag: None,
        };
        assert_eq!(&shown[3..9], &encode_clock(Some(&host_clock))[3..9]);
        // White's time runs, but no one pressed the lever: it is still up on the right.
        assert_eq!(status(&shown) & LEFT_TO_MOVE, LEFT_TO_MOVE);
        assert_eq!(status(&shown) & TUMBLER_HIGH_RIGHT, TUMBLER_HIGH_RIGHT);
        assert_eq!(
            board.receive(&[CLOCK_REQUEST], &pieces, Some(&own), 4_000_000),
            shown
        );
        let heard = board.take_heard();
        assert!(
            matches!(heard[..], [HostSaid::Clock(ClockCommand::SetAndRun(_))]),
            "{heard:?}"
        );
        // A reset gives the clock back to the owner.
        board.receive(&[RESET], &pieces, Some(&own), 5_000_000);
        assert!(!board.host_drives_clock());
        assert_eq!(board.take_heard(), [HostSaid::Reset]);
        assert_eq!(
            board.receive(&[CLOCK_REQUEST], &pieces, Some(&own), 5_000_000),
            encode_clock(Some(&own))
        );
    }

    #[test]
    fn clock_commands_are_acknowledged_only_in_the_update_modes_with_clock_times() {
        let pieces = start_pieces();
        let version = [0x2b, 0x03, 0x03, 0x09, 0x00];
        let expected = ack_of(&ClockCommand::Version);
        for (mode, acked) in [
            (None, false),
            (Some(UPDATE_MODE), false),
            (Some(UPDATE_WITH_CLOCK), true),
            (Some(UPDATE_NICE), true),
        ] {
            let mut board = Board::default();
            if let Some(mode) = mode {
                board.receive(&[mode], &pieces, None, 0);
            }
            // Split across reads, as a terminal may deliver it.
            let first = board.receive(&version[..2], &pieces, None, 0);
            let rest = board.receive(&version[2..], &pieces, None, 0);
            assert!(first.is_empty());
            assert_eq!(rest == expected, acked, "mode {mode:?}: {rest:?}");
            assert_eq!(board.take_heard(), [HostSaid::Clock(ClockCommand::Version)]);
        }
    }

    #[test]
    fn the_host_lights_are_heard() {
        let mut board = Board::default();
        let pieces = start_pieces();
        let lit = crate::protocol::dgt_clock::encode_lights(Square::E2, Square::E4);
        assert!(
            board.receive(&lit, &pieces, None, 0).is_empty(),
            "no answer"
        );
        assert_eq!(
            board.take_heard(),
            [HostSaid::Lights(Lights::On(
                Bitboard::from_square(Square::E2) | Bitboard::from_square(Square::E4)
            ))]
        );
        board.receive(&[0x60, 0x04, 0x00, 0x40, 0x40, 0x00], &pieces, None, 0);
        assert_eq!(board.take_heard(), [HostSaid::Lights(Lights::Off)]);
    }

    proptest! {
        #[test]
        fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
            let mut host = Host::default();
            let mut readings = Vec::new();
            host.receive(&bytes, 0, &mut readings);
        }

        #[test]
        fn encoding_then_decoding_round_trips(codes in prop::collection::vec(0u8..=12, 64), updates in prop::collection::vec((0u32..64, 0u8..=12), 0..30)) {
            let pieces: [Option<Piece>; 64] = std::array::from_fn(|i| piece_of_code(codes[i]));
            let mut host = Host::default();
            let mut readings = Vec::new();
            host.receive(&encode_dump(&pieces), 0, &mut readings);
            let occupancy = pieces.iter().enumerate().filter(|(_, p)| p.is_some())
                .fold(Bitboard::EMPTY, |b, (i, _)| b.with(Square::new(i as u32)));
            prop_assert_eq!(&readings[..], &[Reading::Occupancy(occupancy)][..]);
            for (square, code) in updates {
                readings.clear();
                let square = Square::new(square);
                host.receive(&encode_update(square, piece_of_code(code)), 0, &mut readings);
                let expected = if code == 0 { Reading::Lift(square) } else { Reading::Place(square) };
                prop_assert_eq!(readings[0], expected);
            }
            prop_assert_eq!(host.dropped(), 0);
        }
    }
}
