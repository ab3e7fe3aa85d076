//! What a board tells us: the common currency of protocols, logs and the recognizer.

use shakmaty::{Bitboard, Role, Square};

/// Milliseconds since the session began.
pub type Millis = u64;

/// One observation from a board or from the user.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reading {
    /// The full occupancy of the board: bit i set = square i occupied (a1 = 0, h8 = 63).
    Occupancy(Bitboard),
    /// A piece left a square (boards that report events).
    Lift(Square),
    /// A piece was put down on a square (boards that report events).
    Place(Square),
    /// The user chose the promotion piece.
    Promote(Role),
}

/// A reading stamped with the time it was taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimedReading {
    /// When, in milliseconds since the session began.
    pub t: Millis,
    /// What the board said.
    pub reading: Reading,
}

impl TimedReading {
    /// `reading` at time `t`.
    pub fn new(t: Millis, reading: Reading) -> Self {
        Self { t, reading }
    }
}

/// The readings of each read of the board: those that share a time, in order. A poll's
/// events and occupancy come in one read, and are decided on together
/// (`Recognizer::feed_batch`).
pub fn board_reads(readings: &[TimedReading]) -> impl Iterator<Item = &[TimedReading]> {
    readings.chunk_by(|a, b| a.t == b.t)
}

/// The occupancy of the standard starting position.
pub const START_OCCUPANCY: Bitboard = Bitboard(0xffff_0000_0000_ffff);

/// How a board's sensors are wired relative to the squares: turned by quarter turns and
/// possibly mirrored, for boards built or plugged in differently.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Orientation {
    /// Clockwise quarter turns, 0 to 3.
    pub quarter_turns: u8,
    /// Mirrored left to right (before turning).
    pub mirrored: bool,
}

impl Orientation {
    /// The real square a sensor square stands for.
    pub fn square(self, sensor: shakmaty::Square) -> shakmaty::Square {
        let (mut file, mut rank) = (u32::from(sensor.file()), u32::from(sensor.rank()));
        if self.mirrored {
            file = 7 - file;
        }
        for _ in 0..self.quarter_turns % 4 {
            (file, rank) = (rank, 7 - file);
        }
        shakmaty::Square::new(rank * 8 + file)
    }

    /// An occupancy the sensors read, as the squares see it.
    pub fn occupancy(self, sensor: Bitboard) -> Bitboard {
        sensor.into_iter().map(|sq| self.square(sq)).collect()
    }

    /// A reading as the squares see it.
    pub fn apply(self, reading: Reading) -> Reading {
        match reading {
            Reading::Occupancy(o) => Reading::Occupancy(self.occupancy(o)),
            Reading::Lift(sq) => Reading::Lift(self.square(sq)),
            Reading::Place(sq) => Reading::Place(self.square(sq)),
            Reading::Promote(role) => Reading::Promote(role),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_orientation_changes_nothing_and_four_turns_are_none() {
        let turned = Orientation {
            quarter_turns: 1,
            mirrored: false,
        };
        for square in Square::ALL {
            assert_eq!(Orientation::default().square(square), square);
            let mut s = square;
            for _ in 0..4 {
                s = turned.square(s);
            }
            assert_eq!(s, square);
        }
        assert_eq!(turned.occupancy(START_OCCUPANCY).count(), 32);
        let half = Orientation {
            quarter_turns: 2,
            mirrored: false,
        };
        assert_eq!(half.square(Square::A1), Square::H8);
        let mirror = Orientation {
            quarter_turns: 0,
            mirrored: true,
        };
        assert_eq!(mirror.square(Square::A1), Square::H1);
    }
}
