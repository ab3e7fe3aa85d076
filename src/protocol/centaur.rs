//! DGT Centaur board controller: a UART at 1,000,000 baud, polled.
//!
//! Packets are `[type][len_hi][len_lo][addr1][addr2][payload…][checksum]`: the length is
//! 14 bits over two 7-bit bytes and counts the whole packet; the checksum is the sum of
//! all preceding bytes mod 128. Requests without data are `[cmd][addr1][addr2][checksum]`.
//! Discovery sends `4D 4E` then `87 00 00 07`; the `0x87` reply carries the address.
//! `0x82` asks for the state (`0x83`: 64 bytes, 1 = occupied, a8 … h1) and `0x83` for the
//! event queue (`0x85`: time bytes, then `0x40 sq` lifts and `0x41 sq` places).
//! `0xB0` packets set the LEDs (`00`: all off; `05 speed 00 intensity sq…`: these squares
//! on) and `0xB1` packets sound the beeper (pairs of tone and length), as the DGTCentaur
//! Mods project's `board.py` sends them; the board answers neither.

use shakmaty::{Bitboard, Square};

use super::{
    Beep, HostSession, Micros, Signal, a8_order_of, occupancy_from_a8_order, square_from_a8_order,
};
use crate::reading::Reading;

/// The board's serial speed.
pub const BAUD_RATE: u32 = 1_000_000;
/// The discovery message the board answers with its address.
pub const DISCOVERY: [u8; 6] = [0x4D, 0x4E, 0x87, 0x00, 0x00, 0x07];
const ADDRESS_REPLY: u8 = 0x87;
const STATE_REQUEST: u8 = 0x82;
const STATE_REPLY: u8 = 0x83;
const EVENTS_REQUEST: u8 = 0x83;
const EVENTS_REPLY: u8 = 0x85;
const LEDS: u8 = 0xB0;
const SOUND: u8 = 0xB1;
/// `ledArray`'s defaults: the blink speed, then the brightness.
const LED_SPEED: u8 = 3;
const LED_INTENSITY: u8 = 5;
const LIFT: u8 = 0x40;
const PLACE: u8 = 0x41;
/// How often the host polls, within the 50–100 ms the board expects.
pub const POLL_INTERVAL: Micros = 75_000;
const REDISCOVER_AFTER: Micros = 500_000;
const MAX_PACKET: usize = 512;

fn checksum(bytes: &[u8]) -> u8 {
    (bytes.iter().map(|&b| u32::from(b)).sum::<u32>() % 128) as u8
}

/// A whole packet: type, length, address, payload, checksum.
pub fn encode_packet(kind: u8, address: [u8; 2], payload: &[u8]) -> Vec<u8> {
    let len = payload.len() + 6;
    let mut packet = vec![
        kind,
        ((len >> 7) & 0x7f) as u8,
        (len & 0x7f) as u8,
        address[0],
        address[1],
    ];
    packet.extend_from_slice(payload);
    packet.push(checksum(&packet));
    packet
}

/// A request without data: `[cmd][addr1][addr2][checksum]`.
pub fn encode_request(command: u8, address: [u8; 2]) -> Vec<u8> {
    let mut request = vec![command, address[0], address[1]];
    request.push(checksum(&request));
    request
}

/// The board's state reply.
pub fn encode_state(address: [u8; 2], occupancy: Bitboard) -> Vec<u8> {
    let payload: Vec<u8> = (0u8..64)
        .map(|i| u8::from(square_from_a8_order(i).is_some_and(|sq| occupancy.contains(sq))))
        .collect();
    encode_packet(STATE_REPLY, address, &payload)
}

/// The packet that lights `squares` and puts out every other LED.
pub fn encode_lights(address: [u8; 2], squares: Bitboard) -> Vec<u8> {
    if squares.is_empty() {
        return encode_packet(LEDS, address, &[0x00]);
    }
    let mut payload = vec![0x05, LED_SPEED, 0x00, LED_INTENSITY];
    payload.extend(squares.into_iter().map(a8_order_of));
    encode_packet(LEDS, address, &payload)
}

/// The packet that sounds `beep`: a short tone to confirm, two falling ones for wrong.
pub fn encode_beep(address: [u8; 2], beep: Beep) -> Vec<u8> {
    let tones: &[u8] = match beep {
        Beep::Confirm => &[0x4C, 0x08],
        Beep::Wrong => &[0x4E, 0x0C, 0x48, 0x10],
    };
    encode_packet(SOUND, address, tones)
}

/// What an LED or sound packet's payload asks for.
fn signal_of(kind: u8, payload: &[u8]) -> Option<Signal> {
    match (kind, payload) {
        (LEDS, [0x00, ..]) => Some(Signal::Lights(Bitboard::EMPTY)),
        (LEDS, [0x05, _speed, _, _intensity, squares @ ..]) => {
            let mut lit = Bitboard::EMPTY;
            for &field in squares {
                lit.add(square_from_a8_order(field)?);
            }
            Some(Signal::Lights(lit))
        }
        (SOUND, [0x4E, ..]) => Some(Signal::Beep(Beep::Wrong)),
        (SOUND, [_, ..]) => Some(Signal::Beep(Beep::Confirm)),
        _ => None,
    }
}

/// What starts a buffer that starts with a packet's type byte.
enum Front {
    /// More bytes are needed.
    Incomplete,
    /// Not a packet: its length or checksum is wrong.
    Invalid,
    /// A whole packet of this length.
    Packet(usize),
}

fn packet_at_front(buffer: &[u8]) -> Front {
    let &[_, hi, lo, ..] = buffer else {
        return Front::Incomplete;
    };
    let len = (usize::from(hi & 0x7f) << 7) | usize::from(lo & 0x7f);
    if hi > 0x7f || lo > 0x7f || !(6..=MAX_PACKET).contains(&len) {
        return Front::Invalid;
    }
    match buffer.get(..len) {
        None => Front::Incomplete,
        Some(packet) if checksum(&packet[..len - 1]) == packet[len - 1] => Front::Packet(len),
        Some(_) => Front::Invalid,
    }
}

/// A lift or place in the board's event queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardEvent {
    /// A piece was lifted from the square.
    Lift(Square),
    /// A piece was placed on the square.
    Place(Square),
}

/// The board's event reply: the time (in ms since the board started), then the events.
pub fn encode_events(address: [u8; 2], time_ms: u64, events: &[BoardEvent]) -> Vec<u8> {
    let mut payload = Vec::new();
    if !events.is_empty() {
        let seconds = time_ms / 1000;
        payload.push(((time_ms % 1000) * 256 / 1000) as u8);
        payload.push((seconds % 60) as u8);
        let minutes = (seconds / 60) % 60;
        let hours = seconds / 3600;
        if minutes > 0 || hours > 0 {
            payload.push(minutes as u8);
        }
        if hours > 0 {
            payload.push((hours % 24) as u8);
        }
        for event in events {
            match event {
                BoardEvent::Lift(sq) => payload.extend([LIFT, a8_order_of(*sq)]),
                BoardEvent::Place(sq) => payload.extend([PLACE, a8_order_of(*sq)]),
            }
        }
    }
    encode_packet(EVENTS_REPLY, address, &payload)
}

/// Splits packets off the front of a buffer, dropping bytes that do not start a valid one.
struct Framer {
    buffer: Vec<u8>,
    dropped: u64,
    /// Whether the bytes being skipped were already counted as one error.
    skipping: bool,
}

impl Framer {
    fn new() -> Self {
        Self {
            buffer: Vec::new(),
            dropped: 0,
            skipping: false,
        }
    }

    /// The next valid packet whose type is one of `kinds`, if whole.
    fn next(&mut self, kinds: &[u8]) -> Option<Vec<u8>> {
        loop {
            let &kind = self.buffer.first()?;
            if !kinds.contains(&kind) {
                self.skip();
                continue;
            }
            match packet_at_front(&self.buffer) {
                Front::Incomplete => return None,
                Front::Invalid => self.skip(),
                Front::Packet(len) => {
                    self.skipping = false;
                    return Some(self.buffer.drain(..len).collect());
                }
            }
        }
    }

    fn skip(&mut self) {
        self.buffer.remove(0);
        if !self.skipping {
            self.dropped += 1;
            self.skipping = true;
        }
    }
}

/// The host side of the protocol: finds the board, polls it and reads its events.
pub struct Host {
    framer: Framer,
    address: Option<[u8; 2]>,
    last_discovery: Option<Micros>,
    last_poll: Option<Micros>,
    /// The lights asked for, sent again once the board is found (after a reconnect too).
    lights: Bitboard,
    lights_sent: bool,
}

impl Default for Host {
    fn default() -> Self {
        Self {
            framer: Framer::new(),
            address: None,
            last_discovery: None,
            last_poll: None,
            lights: Bitboard::EMPTY,
            lights_sent: true,
        }
    }
}

impl Host {
    fn handle(&mut self, packet: &[u8], readings: &mut Vec<Reading>) {
        let address = [packet[3], packet[4]];
        let payload = &packet[5..packet.len() - 1];
        match packet[0] {
            ADDRESS_REPLY => {
                self.address = Some(address);
                self.lights_sent = self.lights.is_empty();
            }
            _ if Some(address) != self.address => self.framer.dropped += 1,
            STATE_REPLY if payload.len() == 64 => {
                readings.push(Reading::Occupancy(occupancy_from_a8_order(
                    payload.iter().map(|&b| b != 0),
                )));
            }
            EVENTS_REPLY => events_of(payload, readings, &mut self.framer.dropped),
            _ => self.framer.dropped += 1,
        }
    }
}

fn events_of(payload: &[u8], readings: &mut Vec<Reading>, dropped: &mut u64) {
    if payload.is_empty() {
        return;
    }
    // Subseconds and seconds always; minutes and hours (all below 0x40) when nonzero.
    let mut rest = payload.get(2..).unwrap_or_default();
    while let [b, tail @ ..] = rest
        && *b < LIFT
    {
        rest = tail;
    }
    for pair in rest.chunks(2) {
        match *pair {
            [LIFT, sq] => match square_from_a8_order(sq) {
                Some(square) => readings.push(Reading::Lift(square)),
                None => *dropped += 1,
            },
            [PLACE, sq] => match square_from_a8_order(sq) {
                Some(square) => readings.push(Reading::Place(square)),
                None => *dropped += 1,
            },
            _ => *dropped += 1,
        }
    }
}

impl HostSession for Host {
    fn open(&mut self, now: Micros) -> Vec<u8> {
        self.framer = Framer::new();
        self.address = None;
        self.last_discovery = Some(now);
        self.last_poll = None;
        DISCOVERY.to_vec()
    }

    fn signal(&mut self, signal: Signal) -> Vec<u8> {
        if let Signal::Lights(squares) = signal {
            self.lights = squares;
            self.lights_sent = false;
        }
        match (self.address, signal) {
            (Some(address), Signal::Lights(squares)) => {
                self.lights_sent = true;
                encode_lights(address, squares)
            }
            (Some(address), Signal::Beep(beep)) => encode_beep(address, beep),
            // Before the board is found a beep is lost; the lights wait for it.
            (None, _) => Vec::new(),
        }
    }

    fn receive(&mut self, bytes: &[u8], now: Micros, readings: &mut Vec<Reading>) -> Vec<u8> {
        self.framer.buffer.extend_from_slice(bytes);
        while let Some(packet) = self
            .framer
            .next(&[ADDRESS_REPLY, STATE_REPLY, EVENTS_REPLY])
        {
            self.handle(&packet, readings);
        }
        self.tick(now, readings)
    }

    fn tick(&mut self, now: Micros, _readings: &mut Vec<Reading>) -> Vec<u8> {
        match self.address {
            None => {
                let due = self
                    .last_discovery
                    .is_none_or(|at| now.saturating_sub(at) >= REDISCOVER_AFTER);
                if due {
                    self.last_discovery = Some(now);
                    DISCOVERY.to_vec()
                } else {
                    Vec::new()
                }
            }
            Some(address) => {
                let mut bytes = Vec::new();
                if !self.lights_sent {
                    self.lights_sent = true;
                    bytes.extend(encode_lights(address, self.lights));
                }
                let due = self
                    .last_poll
                    .is_none_or(|at| now.saturating_sub(at) >= POLL_INTERVAL);
                if due {
                    self.last_poll = Some(now);
                    // Events first, then the state: what happened, then where it left the
                    // board.
                    bytes.extend(encode_request(EVENTS_REQUEST, address));
                    bytes.extend(encode_request(STATE_REQUEST, address));
                }
                bytes
            }
        }
    }

    fn dropped(&self) -> u64 {
        self.framer.dropped
    }

    fn tick_interval(&self) -> Micros {
        5_000
    }
}

/// The board's side: answers discovery and polls from its state and event queue.
pub struct Board {
    address: [u8; 2],
    framer: Framer,
    queue: Vec<BoardEvent>,
    heard: Vec<Signal>,
}

impl Board {
    /// A board at bus `address`, with no event waiting.
    pub fn new(address: [u8; 2]) -> Self {
        Self {
            address,
            framer: Framer::new(),
            queue: Vec::new(),
            heard: Vec::new(),
        }
    }

    /// The lights and sounds the host asked for since the last call, in order.
    pub fn take_heard(&mut self) -> Vec<Signal> {
        std::mem::take(&mut self.heard)
    }

    /// Keeps `event` to report when the host next polls.
    pub fn record(&mut self, event: BoardEvent) {
        self.queue.push(event);
    }

    /// Bytes from the host; returns the replies.
    pub fn receive(&mut self, bytes: &[u8], occupancy: Bitboard, time_ms: u64) -> Vec<u8> {
        self.framer.buffer.extend_from_slice(bytes);
        let mut replies = Vec::new();
        loop {
            // Requests are 4 bytes: [cmd][addr1][addr2][checksum]; `4D 4E` is a wake-up.
            let buffer = &self.framer.buffer;
            if buffer.starts_with(&[0x4D, 0x4E]) {
                self.framer.buffer.drain(..2);
                continue;
            }
            if matches!(buffer.first(), Some(&(LEDS | SOUND))) {
                match packet_at_front(buffer) {
                    Front::Incomplete => break,
                    Front::Invalid => {
                        self.framer.buffer.remove(0);
                    }
                    Front::Packet(len) => {
                        let packet: Vec<u8> = self.framer.buffer.drain(..len).collect();
                        let payload = &packet[5..len - 1];
                        if packet[3..5] == self.address
                            && let Some(signal) = signal_of(packet[0], payload)
                        {
                            self.heard.push(signal);
                        }
                    }
                }
                continue;
            }
            if buffer.len() < 4 {
                break;
            }
            let request: Vec<u8> = buffer[..4].to_vec();
            if checksum(&request[..3]) != request[3] {
                self.framer.buffer.remove(0);
                continue;
            }
            self.framer.buffer.drain(..4);
            match request[0] {
                ADDRESS_REPLY => {
                    replies.extend(encode_packet(ADDRESS_REPLY, self.address, &[]));
                }
                STATE_REQUEST if request[1..3] == self.address => {
                    replies.extend(encode_state(self.address, occupancy));
                }
                EVENTS_REQUEST if request[1..3] == self.address => {
                    let events = std::mem::take(&mut self.queue);
                    replies.extend(encode_events(self.address, time_ms, &events));
                }
                _ => {}
            }
        }
        replies
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const ADDRESS: [u8; 2] = [0x06, 0x50];

    fn connected() -> Host {
        let mut host = Host::default();
        host.open(0);
        let mut readings = Vec::new();
        host.receive(
            &encode_packet(ADDRESS_REPLY, ADDRESS, &[]),
            1_000,
            &mut readings,
        );
        host
    }

    #[test]
    fn the_documented_frames_encode_exactly() {
        assert_eq!(
            encode_events(ADDRESS, 0, &[]),
            [0x85, 0x00, 0x06, 0x06, 0x50, 0x61]
        );
        assert_eq!(
            encode_events(ADDRESS, 12_094, &[BoardEvent::Lift(Square::A2)]),
            [0x85, 0x00, 0x0a, 0x06, 0x50, 0x18, 0x0c, 0x40, 0x30, 0x79]
        );
        assert_eq!(encode_request(0x87, [0, 0]), [0x87, 0x00, 0x00, 0x07]);
    }

    #[test]
    fn lights_and_beeps_encode_as_the_dgt_centaur_mods_project_sends_them() {
        let e2_e4 = Bitboard::from_square(Square::E2) | Square::E4;
        assert_eq!(
            encode_lights(ADDRESS, e2_e4),
            [
                0xb0, 0x00, 0x0c, 0x06, 0x50, 0x05, 0x03, 0x00, 0x05, 0x34, 0x24, 0x77
            ]
        );
        assert_eq!(
            encode_lights(ADDRESS, Bitboard::EMPTY),
            [0xb0, 0x00, 0x07, 0x06, 0x50, 0x00, 0x0d]
        );
        assert_eq!(
            encode_beep(ADDRESS, Beep::Confirm),
            [0xb1, 0x00, 0x08, 0x06, 0x50, 0x4c, 0x08, 0x63]
        );
        assert_eq!(
            encode_beep(ADDRESS, Beep::Wrong),
            [0xb1, 0x00, 0x0a, 0x06, 0x50, 0x4e, 0x0c, 0x48, 0x10, 0x43]
        );
    }

    #[test]
    fn lights_asked_before_the_board_is_found_are_lit_once_it_is() {
        let mut host = Host::default();
        host.open(0);
        let e4 = Bitboard::from_square(Square::E4);
        assert!(host.signal(Signal::Lights(e4)).is_empty());
        assert!(host.signal(Signal::Beep(Beep::Confirm)).is_empty());
        let mut readings = Vec::new();
        let sent = host.receive(
            &encode_packet(ADDRESS_REPLY, ADDRESS, &[]),
            1_000,
            &mut readings,
        );
        assert!(sent.starts_with(&encode_lights(ADDRESS, e4)));
        // Once lit, later polls carry no lights.
        let later = host.tick(100_000, &mut readings);
        assert!(!later.is_empty());
        assert!(!later.contains(&LEDS));
    }

    #[test]
    fn the_board_side_hears_lights_and_beeps_between_polls() {
        let mut board = Board::new(ADDRESS);
        let e2_e4 = Bitboard::from_square(Square::E2) | Square::E4;
        let mut bytes = encode_request(STATE_REQUEST, ADDRESS);
        bytes.extend(encode_lights(ADDRESS, e2_e4));
        bytes.extend(encode_beep(ADDRESS, Beep::Wrong));
        // A packet torn across two reads is heard once whole.
        let off = encode_lights(ADDRESS, Bitboard::EMPTY);
        bytes.extend(&off[..3]);
        let replies = board.receive(&bytes, Bitboard(0xffff), 0);
        assert_eq!(replies, encode_state(ADDRESS, Bitboard(0xffff)));
        assert_eq!(
            board.take_heard(),
            [Signal::Lights(e2_e4), Signal::Beep(Beep::Wrong)]
        );
        board.receive(&off[3..], Bitboard(0xffff), 0);
        assert_eq!(board.take_heard(), [Signal::Lights(Bitboard::EMPTY)]);
    }

    #[test]
    fn discovery_then_polls_in_order() {
        let mut host = Host::default();
        assert_eq!(host.open(0), DISCOVERY);
        let mut readings = Vec::new();
        let polls = host.receive(
            &encode_packet(ADDRESS_REPLY, ADDRESS, &[]),
            1_000,
            &mut readings,
        );
        let mut expected = encode_request(0x83, ADDRESS);
        expected.extend(encode_request(0x82, ADDRESS));
        assert_eq!(polls, expected);
        assert!(host.tick(30_000, &mut readings).is_empty());
        assert_eq!(host.tick(80_000, &mut readings), expected);
    }

    #[test]
    fn event_and_state_replies_decode() {
        let mut host = connected();
        let mut readings = Vec::new();
        let bytes = [0x85, 0x00, 0x0a, 0x06, 0x50, 0x18, 0x0c, 0x40, 0x30, 0x79];
        host.receive(&bytes, 2_000, &mut readings);
        host.receive(&[0x85, 0x00, 0x06, 0x06, 0x50, 0x61], 3_000, &mut readings);
        let start = Bitboard(0xffff_0000_0000_ffff);
        host.receive(&encode_state(ADDRESS, start), 4_000, &mut readings);
        assert_eq!(
            readings,
            vec![Reading::Lift(Square::A2), Reading::Occupancy(start)]
        );
        assert_eq!(host.dropped(), 0);
    }

    #[test]
    fn events_after_minutes_and_hours_decode() {
        let mut host = connected();
        let mut readings = Vec::new();
        let time = 2 * 3_600_000 + 5 * 60_000 + 7_500;
        let events = [BoardEvent::Lift(Square::E2), BoardEvent::Place(Square::E4)];
        host.receive(&encode_events(ADDRESS, time, &events), 2_000, &mut readings);
        assert_eq!(
            readings,
            vec![Reading::Lift(Square::E2), Reading::Place(Square::E4)]
        );
    }

    #[test]
    fn bad_checksums_are_dropped_counted_and_the_parser_resynchronises() {
        let mut host = connected();
        let mut readings = Vec::new();
        let mut bytes = vec![0x85, 0x00, 0x0a, 0x06, 0x50, 0x18, 0x0c, 0x40, 0x30, 0x00];
        bytes.extend([0x13, 0x85, 0x7f]);
        bytes.extend(encode_events(
            ADDRESS,
            500,
            &[BoardEvent::Place(Square::H8)],
        ));
        host.receive(&bytes, 2_000, &mut readings);
        assert_eq!(readings, vec![Reading::Place(Square::H8)]);
        assert!(host.dropped() >= 1);
    }

    #[test]
    fn the_board_side_answers_discovery_and_polls() {
        let mut board = Board::new(ADDRESS);
        let mut host = Host::default();
        let mut readings = Vec::new();
        let start = Bitboard(0xffff_0000_0000_ffff);
        let mut to_board = host.open(0);
        let mut now = 0;
        board.record(BoardEvent::Lift(Square::E2));
        for _ in 0..4 {
            let replies = board.receive(&to_board, start, now / 1000);
            now += 80_000;
            to_board = host.receive(&replies, now, &mut readings);
        }
        assert_eq!(readings[0], Reading::Lift(Square::E2));
        assert!(readings.contains(&Reading::Occupancy(start)));
    }

    proptest! {
        #[test]
        fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
            let mut host = connected();
            let mut readings = Vec::new();
            host.receive(&bytes, 5_000, &mut readings);
            let mut board = Board::new(ADDRESS);
            board.receive(&bytes, Bitboard(0), 0);
        }

        #[test]
        fn encoding_then_decoding_round_trips(
            occupancy in any::<u64>(),
            squares in prop::collection::vec((0u32..64, any::<bool>()), 0..40),
            time in 0u64..90_000_000,
        ) {
            let events: Vec<BoardEvent> = squares
                .iter()
                .map(|&(i, lift)| if lift { BoardEvent::Lift(Square::new(i)) } else { BoardEvent::Place(Square::new(i)) })
                .collect();
            let mut host = connected();
            let mut readings = Vec::new();
            host.receive(&encode_events(ADDRESS, time, &events), 2_000, &mut readings);
            host.receive(&encode_state(ADDRESS, Bitboard(occupancy)), 2_000, &mut readings);
            let mut expected: Vec<Reading> = events
                .iter()
                .map(|e| match *e { BoardEvent::Lift(s) => Reading::Lift(s), BoardEvent::Place(s) => Reading::Place(s) })
                .collect();
            expected.push(Reading::Occupancy(Bitboard(occupancy)));
            prop_assert_eq!(readings, expected);
            prop_assert_eq!(host.dropped(), 0);
        }
    }
}
