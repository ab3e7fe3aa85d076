//! The DGT 3000 clock behind a DGT board, and the Revelation II's lights, as the host talks
//! to them through the board (formats from dgtbrd.h and PicoChess's `dgt/board.py`):
//! - a clock command is `0x2b`, a size byte, then that many bytes: `0x03`, the command,
//!   its data, `0x00`;
//! - the clock answers each, in the update modes with clock times (`0x43`, `0x4b`), with an
//!   acknowledgement: a `0x8D` message whose bytes 0 and 3 have 0x0A in their low nibble
//!   and carry four acknowledgement bytes (ok, the command, two bytes of answer);
//! - the LED command is `0x60`, a size byte, then on/off, a from and a to field, `0x00`.

use shakmaty::{Bitboard, Color, Square};

use super::dgt::{CLOCK_TIMES, DgtClock, LEFT_PLAYER, message};
use super::square_from_a8_order;

/// The first byte of a clock command's body.
const START: u8 = 0x03;
/// The last byte of a clock command's body.
const END: u8 = 0x00;

/// Clock command codes (the byte after `START`).
pub mod code {
    /// Seven-segment characters (the DGT XL's text).
    pub const DISPLAY: u8 = 0x01;
    /// The display's icons (flags, dots).
    pub const ICONS: u8 = 0x02;
    /// Clears a text: the clock shows its times again.
    pub const END_TEXT: u8 = 0x03;
    /// Asks which button is pressed.
    pub const BUTTON: u8 = 0x08;
    /// Asks the clock's version.
    pub const VERSION: u8 = 0x09;
    /// Sets both times and which side runs.
    pub const SET_AND_RUN: u8 = 0x0a;
    /// Beeps.
    pub const BEEP: u8 = 0x0b;
    /// Eight ASCII characters (the DGT 3000's text).
    pub const ASCII: u8 = 0x0c;
    /// Eleven ASCII characters (the Revelation II's text).
    pub const REV2_ASCII: u8 = 0x0d;
}

/// The version the virtual clock gives: main version 2 is a DGT 3000 to PicoChess.
pub const CLOCK_VERSION: (u8, u8) = (2, 2);
/// The first acknowledgement byte of a command the clock took.
const ACK_OK: u8 = 0x10;
/// In set-and-run's last data byte: the left side's time runs, the right side's, or
/// neither (paused, whatever the other bits say).
const LEFT_RUNS: u8 = 0x01;
const RIGHT_RUNS: u8 = 0x02;
const PAUSED: u8 = 0x04;

/// A command for the clock, as the host sent it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClockCommand {
    /// Both times and the side whose time runs (`None`: the clock stands).
    SetAndRun(DgtClock),
    /// A text for the display.
    Text {
        /// The characters, without the padding.
        text: String,
        /// Whether the clock beeps with it.
        beep: bool,
    },
    /// The text goes: the display shows the times again.
    EndText,
    /// The clock's version is asked.
    Version,
    /// Anything else the clock takes (segments, icons, a beep, a button request): its code.
    Other(u8),
}

impl ClockCommand {
    /// The command's code, as its acknowledgement names it.
    pub fn code(&self) -> u8 {
        match self {
            Self::SetAndRun(_) => code::SET_AND_RUN,
            Self::Text { text, .. } if text.len() > 8 => code::REV2_ASCII,
            Self::Text { .. } => code::ASCII,
            Self::EndText => code::END_TEXT,
            Self::Version => code::VERSION,
            Self::Other(code) => *code,
        }
    }
}

/// A clock command's body (the bytes after its size byte); `None` if it is not one.
pub fn parse_clock_command(body: &[u8]) -> Option<ClockCommand> {
    let (&START, rest) = body.split_first()? else {
        return None;
    };
    let (&command, data) = rest.split_first()?;
    let data = data.strip_suffix(&[END]).unwrap_or(data);
    Some(match command {
        code::SET_AND_RUN => ClockCommand::SetAndRun(set_and_run(data)?),
        code::ASCII | code::REV2_ASCII => {
            let width = if command == code::ASCII { 8 } else { 11 };
            let (text, beep) = (data.get(..width)?, data.get(width));
            let text: String = text
                .iter()
                .map(|&b| {
                    if b.is_ascii_graphic() {
                        char::from(b)
                    } else {
                        ' '
                    }
                })
                .collect();
            ClockCommand::Text {
                text: text.trim().to_owned(),
                beep: beep.is_some_and(|&b| b != 0),
            }
        }
        code::END_TEXT => ClockCommand::EndText,
        code::VERSION => ClockCommand::Version,
        other => ClockCommand::Other(other),
    })
}

/// Set-and-run's data: left hours, minutes, seconds, right hours, minutes, seconds (plain
/// numbers, not BCD), then which side runs.
fn set_and_run(data: &[u8]) -> Option<DgtClock> {
    let &[lh, lm, ls, rh, rm, rs, sides] = data.get(..7)? else {
        return None;
    };
    let ms = |h: u8, m: u8, s: u8| (u64::from(h) * 3600 + u64::from(m) * 60 + u64::from(s)) * 1000;
    let (left, right) = (ms(lh, lm, ls), ms(rh, rm, rs));
    let running = if sides & PAUSED != 0 {
        None
    } else if sides & LEFT_RUNS != 0 {
        Some(LEFT_PLAYER)
    } else if sides & RIGHT_RUNS != 0 {
        Some(!LEFT_PLAYER)
    } else {
        None
    };
    let (white_ms, black_ms) = match LEFT_PLAYER {
        Color::White => (left, right),
        Color::Black => (right, left),
    };
    Some(DgtClock {
        white_ms,
        black_ms,
        running,
        flag: None,
    })
}

/// The clock's acknowledgement of command `command`, with two bytes of answer.
pub fn encode_ack(command: u8, answer: [u8; 2]) -> Vec<u8> {
    let acks = [ACK_OK, command, answer[0], answer[1]];
    // Each byte's top bit travels in bit 4 or 5 of byte 0 or 3; 0x0A marks an acknowledgement.
    let high = |a: u8, b: u8| 0x0a | ((a & 0x80) >> 3) | ((b & 0x80) >> 2);
    let data = [
        high(acks[2], acks[3]),
        acks[0] & 0x7f,
        acks[1] & 0x7f,
        high(acks[0], acks[1]),
        acks[2] & 0x7f,
        acks[3] & 0x7f,
        0,
    ];
    message(CLOCK_TIMES, &data)
}

/// The acknowledgement the clock gives `command`: the version request is answered with it.
pub fn ack_of(command: &ClockCommand) -> Vec<u8> {
    let answer = match command {
        ClockCommand::Version => [(CLOCK_VERSION.0 << 4) | CLOCK_VERSION.1, 0],
        _ => [0, 0],
    };
    encode_ack(command.code(), answer)
}

/// What the host sets the Revelation II's lights to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lights {
    /// These squares light, beside those already lit.
    On(Bitboard),
    /// Every light goes out.
    Off,
}

/// The LED command's body (the bytes after its size byte): on (1) or off (0), then the
/// from and to fields (a8 = 0), then `0x00`. A move lights its two squares; off puts out
/// every light, whatever fields it names.
pub fn parse_lights(body: &[u8]) -> Option<Lights> {
    let &[on, from, to, ..] = body else {
        return None;
    };
    if on == 0 {
        return Some(Lights::Off);
    }
    let square = |field: u8| square_from_a8_order(field).map(Bitboard::from_square);
    Some(Lights::On(square(from)? | square(to)?))
}

/// The LED command that lights `from` and `to` (the same square twice lights one).
pub fn encode_lights(from: Square, to: Square) -> Vec<u8> {
    use super::a8_order_of;
    vec![0x60, 0x04, 0x01, a8_order_of(from), a8_order_of(to), END]
}

/// The LED command that puts every light out (its fields, 64, name no square).
pub const LIGHTS_OFF: [u8; 6] = [0x60, 0x04, 0x00, 0x40, 0x40, END];

/// The commands that light exactly `squares`: every light out, then the squares two by two.
pub fn encode_lit_squares(squares: Bitboard) -> Vec<u8> {
    let mut bytes = LIGHTS_OFF.to_vec();
    let list: Vec<Square> = squares.into_iter().collect();
    for pair in list.chunks(2) {
        bytes.extend(encode_lights(pair[0], pair[pair.len() - 1]));
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The acknowledgement bytes as PicoChess's `dgt/board.py` reads them back.
    fn read_ack(message: &[u8]) -> Option<[u8; 4]> {
        let m = &message[3..];
        if m[0] & 0x0f != 0x0a && m[3] & 0x0f != 0x0a {
            return None;
        }
        Some([
            (m[1] & 0x7f) | ((m[3] << 3) & 0x80),
            (m[2] & 0x7f) | ((m[3] << 2) & 0x80),
            (m[4] & 0x7f) | ((m[0] << 3) & 0x80),
            (m[5] & 0x7f) | ((m[0] << 2) & 0x80),
        ])
    }

    #[test]
    fn the_version_request_is_answered_as_by_a_dgt_3000() {
        let command = parse_clock_command(&[0x03, 0x09, 0x00]).expect("a command");
        assert_eq!(command, ClockCommand::Version);
        let ack = ack_of(&command);
        assert_eq!(&ack[..3], &[0x8d, 0x00, 0x0a]);
        let [ok, acked, version, _] = read_ack(&ack).expect("an acknowledgement");
        assert_eq!((ok, acked), (0x10, 0x09));
        assert_eq!(version >> 4, 2, "main version 2: a DGT 3000");
    }

    #[test]
    fn acknowledgement_bytes_keep_their_top_bits() {
        for bytes in [[0x88, 0x81, 0x05, 0x31], [0xff, 0x00, 0x80, 0x7f]] {
            let sent = encode_ack(bytes[1], [bytes[2], bytes[3]]);
            let [ok, command, a, b] = read_ack(&sent).expect("an acknowledgement");
            assert_eq!([command, a, b], [bytes[1], bytes[2], bytes[3]]);
            assert_eq!(ok, ACK_OK);
            assert!(sent[3..].iter().all(|&b| b < 0x80), "data bytes stay 7-bit");
        }
    }

    #[test]
    fn set_and_run_gives_the_times_and_the_running_side() {
        // PicoChess's set_and_run: 0:04:57 left, 0:05:03 right, the right side runs.
        let body = [0x03, 0x0a, 0, 4, 57, 0, 5, 3, 0x02, 0x00];
        let Some(ClockCommand::SetAndRun(clock)) = parse_clock_command(&body) else {
            panic!("not set-and-run");
        };
        assert_eq!(clock.white_ms, 297_000);
        assert_eq!(clock.black_ms, 303_000);
        assert_eq!(clock.running, Some(Color::Black));
        let stopped = [0x03, 0x0a, 0, 0, 0, 0, 0, 0, 0x04 | 0x01, 0x00];
        let Some(ClockCommand::SetAndRun(clock)) = parse_clock_command(&stopped) else {
            panic!("not set-and-run");
        };
        assert_eq!(clock.running, None, "paused wins over the side bits");
    }

    #[test]
    fn texts_are_read_in_both_widths_and_short_bodies_are_refused() {
        let mut body = vec![0x03, 0x0c];
        body.extend_from_slice(b"e2e4    ");
        body.extend([0x03, 0x00]);
        assert_eq!(
            parse_clock_command(&body),
            Some(ClockCommand::Text {
                text: "e2e4".into(),
                beep: true
            })
        );
        let mut rev2 = vec![0x03, 0x0d];
        rev2.extend_from_slice(b" 12.Nf3    ");
        rev2.extend([0x00, 0x00]);
        assert_eq!(
            parse_clock_command(&rev2),
            Some(ClockCommand::Text {
                text: "12.Nf3".into(),
                beep: false
            })
        );
        assert_eq!(parse_clock_command(&[0x03, 0x0c, b'a', 0x00]), None);
        assert_eq!(parse_clock_command(&[0x03, 0x0a, 1, 2, 0x00]), None);
        assert_eq!(parse_clock_command(&[0x09]), None);
        assert_eq!(
            parse_clock_command(&[0x03, 0x03, 0x00]),
            Some(ClockCommand::EndText)
        );
    }

    #[test]
    fn lit_squares_are_every_light_out_then_two_at_a_time() {
        let squares = Bitboard::from_square(Square::E2) | Square::E4 | Square::G1;
        assert_eq!(
            encode_lit_squares(squares),
            [
                0x60, 0x04, 0x00, 0x40, 0x40, 0x00, // all off, as PicoChess puts them out
                0x60, 0x04, 0x01, 0x3e, 0x34, 0x00, // g1 and e2
                0x60, 0x04, 0x01, 0x24, 0x24, 0x00, // e4 alone
            ]
        );
        assert_eq!(encode_lit_squares(Bitboard::EMPTY), LIGHTS_OFF);
    }

    #[test]
    fn lights_follow_the_fields_in_a8_order() {
        let lit = encode_lights(Square::E2, Square::E4);
        assert_eq!(lit, [0x60, 0x04, 0x01, 52, 36, 0x00]);
        assert_eq!(
            parse_lights(&lit[2..]),
            Some(Lights::On(
                Bitboard::from_square(Square::E2) | Bitboard::from_square(Square::E4)
            ))
        );
        assert_eq!(parse_lights(&[0x00, 0x40, 0x40, 0x00]), Some(Lights::Off));
        assert_eq!(parse_lights(&[0x01, 64, 3, 0x00]), None);
    }
}
