//! Text lines for DIY boards (Arduino sketches): one reading per line, either 64
//! characters of `0`/`1` (or `.`/`x`), rank 8 first (a8 … h8, a7 … h1), or
//! `occ <16 hex digits>` as in the sensor log. Other lines are ignored and counted.

use shakmaty::Bitboard;

use super::{HostSession, Micros, occupancy_from_a8_order};
use crate::reading::Reading;
use crate::sensorlog::parse_occupancy;

/// A line longer than this without a newline is noise.
const MAX_LINE: usize = 256;

/// The line a DIY board sends for an occupancy (64 characters, rank 8 first).
pub fn encode(occupancy: Bitboard) -> Vec<u8> {
    let mut line = Vec::with_capacity(66);
    for index in 0u8..64 {
        let square = super::square_from_a8_order(index);
        let occupied = square.is_some_and(|sq| occupancy.contains(sq));
        line.push(if occupied { b'1' } else { b'0' });
    }
    line.extend_from_slice(b"\r\n");
    line
}

/// The occupancy a line gives (16 hex digits), if it is one.
pub fn parse_line(line: &str) -> Option<Bitboard> {
    let line = line.trim();
    if let Some(hex) = line.strip_prefix("occ ") {
        return parse_occupancy(hex.trim()).ok();
    }
    if line.len() != 64 {
        return None;
    }
    let mut flags = Vec::with_capacity(64);
    for c in line.chars() {
        flags.push(match c {
            '1' | 'x' | 'X' => true,
            '0' | '.' => false,
            _ => return None,
        });
    }
    Some(occupancy_from_a8_order(flags))
}

#[derive(Default)]
/// The host side of the protocol: reads occupancy lines.
pub struct Host {
    line: Vec<u8>,
    dropped: u64,
}

impl HostSession for Host {
    fn open(&mut self, _now: Micros) -> Vec<u8> {
        self.line.clear();
        Vec::new()
    }

    fn receive(&mut self, bytes: &[u8], _now: Micros, readings: &mut Vec<Reading>) -> Vec<u8> {
        for &byte in bytes {
            if byte == b'\n' || byte == b'\r' {
                if !self.line.is_empty() {
                    match parse_line(&String::from_utf8_lossy(&self.line)) {
                        Some(occupancy) => readings.push(Reading::Occupancy(occupancy)),
                        None => self.dropped += 1,
                    }
                    self.line.clear();
                }
            } else if self.line.len() < MAX_LINE {
                self.line.push(byte);
            } else {
                self.dropped += 1;
                self.line.clear();
            }
        }
        Vec::new()
    }

    fn tick(&mut self, _now: Micros, _readings: &mut Vec<Reading>) -> Vec<u8> {
        Vec::new()
    }

    fn dropped(&self) -> u64 {
        self.dropped
    }

    fn tick_interval(&self) -> Micros {
        50_000
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn decode(bytes: &[u8]) -> (Vec<Reading>, u64) {
        let mut host = Host::default();
        let mut readings = Vec::new();
        host.receive(bytes, 0, &mut readings);
        (readings, host.dropped())
    }

    #[test]
    fn both_line_forms_decode_with_any_line_ending() {
        let start = "1111111111111111000000000000000000000000000000001111111111111111";
        let dots = "xxxxxxxxxxxxxxxx................................xxxxxxxxxxxxxxxx";
        let text = format!("{start}\r\n{dots}\nocc ffff00001000efff\r");
        let (readings, dropped) = decode(text.as_bytes());
        let start_occ = Reading::Occupancy(Bitboard(0xffff_0000_0000_ffff));
        assert_eq!(
            readings,
            vec![
                start_occ,
                start_occ,
                Reading::Occupancy(Bitboard(0xffff_0000_1000_efff))
            ]
        );
        assert_eq!(dropped, 0);
    }

    #[test]
    fn rank_8_comes_first() {
        // Only a8 occupied: the first character.
        let line = format!("1{}", "0".repeat(63));
        assert_eq!(
            parse_line(&line),
            Some(Bitboard::from_square(shakmaty::Square::A8))
        );
    }

    #[test]
    fn other_lines_are_ignored_counted_and_the_stream_resynchronises() {
        let text = "hello board v1.2\n\u{1}\u{2}garbage\nocc ffff00000000ffff\n";
        let (readings, dropped) = decode(text.as_bytes());
        assert_eq!(
            readings,
            vec![Reading::Occupancy(Bitboard(0xffff_0000_0000_ffff))]
        );
        assert_eq!(dropped, 2);
    }

    proptest! {
        #[test]
        fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
            decode(&bytes);
        }

        #[test]
        fn encoding_then_decoding_round_trips(occupancy in any::<u64>()) {
            let (readings, dropped) = decode(&encode(Bitboard(occupancy)));
            prop_assert_eq!(readings, vec![Reading::Occupancy(Bitboard(occupancy))]);
            prop_assert_eq!(dropped, 0);
        }
    }
}
