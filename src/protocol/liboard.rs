//! LiBoard: the board sends 8 raw bytes whenever its occupancy changes, most significant
//! byte first (so `u64::from_be_bytes` is the occupancy). No header, no checksum. A busy
//! host or a USB adapter may deliver several frames at once, so after a silence of 3 ms a
//! burst of 8·k bytes is k frames; a burst of another length is noise.

use shakmaty::Bitboard;

use super::{HostSession, Micros};
use crate::reading::Reading;

/// The board's serial speed.
pub const BAUD_RATE: u32 = 9600;
/// 8 bytes take 8.3 ms at 9600 baud; a gap of this much ends a frame.
pub const SILENCE: Micros = 3_000;
const FRAME_LEN: usize = 8;
/// A chess set has 32 pieces; a frame showing more is noise on the line.
const MAX_PIECES: u32 = 32;

/// The bytes a LiBoard sends for an occupancy.
pub fn encode(occupancy: Bitboard) -> [u8; 8] {
    occupancy.0.to_be_bytes()
}

#[derive(Default)]
/// The host side of the protocol: reads the board's occupancy frames.
pub struct Host {
    /// The bytes of the burst being received, since the last silence.
    burst: Vec<u8>,
    /// How many of them were already passed on as frames.
    passed: usize,
    last_byte_at: Option<Micros>,
    dropped: u64,
}

/// A burst longer than this is a stuck line, not a host reading late.
const MAX_BURST: usize = 64 * FRAME_LEN;

impl Host {
    /// The silence ended the burst: what is left of it is no whole frame, so all of what
    /// was not passed on is noise.
    fn end_burst(&mut self) {
        if self.passed < self.burst.len() {
            self.dropped += 1;
        }
        self.burst.clear();
        self.passed = 0;
    }

    /// Passes on the frames received so far, if the burst is whole frames up to here: a
    /// read that ends on a frame boundary needs no wait for the silence after it.
    fn pass_whole_frames(&mut self, readings: &mut Vec<Reading>) {
        if !self.burst.len().is_multiple_of(FRAME_LEN) {
            return;
        }
        for frame in self.burst[self.passed..].chunks_exact(FRAME_LEN) {
            let mut bytes = [0u8; FRAME_LEN];
            bytes.copy_from_slice(frame);
            let occupancy = Bitboard(u64::from_be_bytes(bytes));
            if occupancy.count() > MAX_PIECES as usize {
                self.dropped += 1;
            } else {
                readings.push(Reading::Occupancy(occupancy));
            }
        }
        self.passed = self.burst.len();
    }
}

impl HostSession for Host {
    fn open(&mut self, _now: Micros) -> Vec<u8> {
        // The board resets when the port opens and sends its state about 3 s later.
        self.burst.clear();
        self.passed = 0;
        self.last_byte_at = None;
        Vec::new()
    }

    fn receive(&mut self, bytes: &[u8], now: Micros, readings: &mut Vec<Reading>) -> Vec<u8> {
        let after_silence = self
            .last_byte_at
            .is_none_or(|last| now.saturating_sub(last) >= SILENCE);
        if after_silence || self.burst.len() + bytes.len() > MAX_BURST {
            self.end_burst();
        }
        self.burst.extend_from_slice(bytes);
        self.pass_whole_frames(readings);
        self.last_byte_at = Some(now);
        Vec::new()
    }

    fn tick(&mut self, now: Micros, _readings: &mut Vec<Reading>) -> Vec<u8> {
        if let Some(last) = self.last_byte_at
            && now.saturating_sub(last) >= SILENCE
        {
            self.end_burst();
        }
        Vec::new()
    }

    fn dropped(&self) -> u64 {
        self.dropped
    }

    fn tick_interval(&self) -> Micros {
        // Silence only needs watching while a frame is half in; an idle line can sleep.
        if self.passed == self.burst.len() {
            50_000
        } else {
            1_000
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn decode(chunks: &[(Micros, &[u8])], end: Micros) -> (Vec<Reading>, u64) {
        let mut host = Host::default();
        let mut readings = Vec::new();
        for (at, bytes) in chunks {
            host.receive(bytes, *at, &mut readings);
        }
        host.tick(end, &mut readings);
        (readings, host.dropped())
    }

    #[test]
    fn the_start_position_and_e4_decode_exactly() {
        let start = [0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF];
        let e4 = [0xFF, 0xFF, 0x00, 0x00, 0x10, 0x00, 0xEF, 0xFF];
        let (readings, dropped) = decode(&[(0, &start), (20_000, &e4)], 40_000);
        assert_eq!(
            readings,
            vec![
                Reading::Occupancy(Bitboard(0xffff_0000_0000_ffff)),
                Reading::Occupancy(Bitboard(0xffff_0000_1000_efff)),
            ]
        );
        assert_eq!(dropped, 0);
        assert_eq!(encode(Bitboard(0xffff_0000_1000_efff)), e4);
    }

    #[test]
    fn a_frame_split_over_reads_without_a_pause_is_one_frame() {
        let e4 = encode(Bitboard(0xffff_0000_1000_efff));
        let (readings, dropped) = decode(&[(0, &e4[..3]), (1_000, &e4[3..])], 10_000);
        assert_eq!(
            readings,
            vec![Reading::Occupancy(Bitboard(0xffff_0000_1000_efff))]
        );
        assert_eq!(dropped, 0);
    }

    #[test]
    fn a_torn_frame_followed_by_silence_is_dropped_and_counted() {
        let start = encode(Bitboard(0xffff_0000_0000_ffff));
        let (readings, dropped) = decode(&[(0, &start[..5]), (10_000, &start)], 20_000);
        assert_eq!(
            readings,
            vec![Reading::Occupancy(Bitboard(0xffff_0000_0000_ffff))]
        );
        assert_eq!(dropped, 1);
    }

    #[test]
    fn resynchronises_after_garbage() {
        let start = encode(Bitboard(0xffff_0000_0000_ffff));
        let garbage = [
            0x13, 0x37, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
        ];
        let (readings, dropped) =
            decode(&[(0, &garbage), (10_000, &start), (30_000, &start)], 40_000);
        assert_eq!(readings.len(), 2);
        assert!(
            readings
                .iter()
                .all(|r| *r == Reading::Occupancy(Bitboard(0xffff_0000_0000_ffff)))
        );
        // Eleven bytes are no whole number of frames: one error.
        assert_eq!(dropped, 1);
    }

    #[test]
    fn frames_delivered_in_one_read_are_each_decoded() {
        let moves = [
            0xffff_0000_0000_ffff_u64,
            0xffff_0000_0000_efff,
            0xffff_0000_1000_efff,
            0xffef_0000_1000_efff,
        ];
        let burst: Vec<u8> = moves.iter().flat_map(|&o| encode(Bitboard(o))).collect();
        let (readings, dropped) = decode(&[(0, &burst)], 10_000);
        let expected: Vec<Reading> = moves
            .iter()
            .map(|&o| Reading::Occupancy(Bitboard(o)))
            .collect();
        assert_eq!(readings, expected);
        assert_eq!(dropped, 0);
    }

    #[test]
    fn a_burst_that_is_no_whole_number_of_frames_ends_in_noise() {
        let e4 = encode(Bitboard(0xffff_0000_1000_efff));
        let mut burst = e4.to_vec();
        burst.extend_from_slice(&e4[..5]);
        let (readings, dropped) = decode(&[(0, &burst), (10_000, &e4)], 20_000);
        assert_eq!(
            readings,
            vec![Reading::Occupancy(Bitboard(0xffff_0000_1000_efff))]
        );
        assert_eq!(dropped, 1);
    }

    #[test]
    fn frames_of_one_burst_split_over_reads_wait_for_a_frame_boundary() {
        let start = encode(Bitboard(0xffff_0000_0000_ffff));
        let e4 = encode(Bitboard(0xffff_0000_1000_efff));
        let mut both = start.to_vec();
        both.extend_from_slice(&e4);
        let (readings, dropped) = decode(&[(0, &both[..11]), (1_000, &both[11..])], 10_000);
        assert_eq!(
            readings,
            vec![
                Reading::Occupancy(Bitboard(0xffff_0000_0000_ffff)),
                Reading::Occupancy(Bitboard(0xffff_0000_1000_efff)),
            ]
        );
        assert_eq!(dropped, 0);
    }

    #[test]
    fn more_than_32_pieces_is_line_noise() {
        let (readings, dropped) = decode(&[(0, &[0xFF; 8])], 10_000);
        assert!(readings.is_empty());
        assert_eq!(dropped, 1);
    }

    proptest! {
        #[test]
        fn random_bytes_never_panic(chunks in prop::collection::vec((0u64..10_000, prop::collection::vec(any::<u8>(), 0..20)), 0..30)) {
            let mut host = Host::default();
            let mut readings = Vec::new();
            let mut now = 0;
            for (gap, bytes) in chunks {
                now += gap;
                host.receive(&bytes, now, &mut readings);
                host.tick(now, &mut readings);
            }
        }

        #[test]
        fn encoding_then_decoding_round_trips(occupancies in prop::collection::vec(any::<u64>(), 1..20)) {
            let occupancies: Vec<u64> = occupancies.into_iter().filter(|o| o.count_ones() <= 32).collect();
            let chunks: Vec<(Micros, [u8; 8])> = occupancies
                .iter()
                .enumerate()
                .map(|(i, &o)| (i as Micros * 20_000, encode(Bitboard(o))))
                .collect();
            let borrowed: Vec<(Micros, &[u8])> = chunks.iter().map(|(t, b)| (*t, &b[..])).collect();
            let (readings, dropped) = decode(&borrowed, 1_000_000_000);
            let expected: Vec<Reading> = occupancies.iter().map(|&o| Reading::Occupancy(Bitboard(o))).collect();
            prop_assert_eq!(readings, expected);
            prop_assert_eq!(dropped, 0);
        }
    }
}
