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
    pub t: Millis,
    pub reading: Reading,
}

impl TimedReading {
    pub fn new(t: Millis, reading: Reading) -> Self {
        Self { t, reading }
    }
}

/// The occupancy of the standard starting position.
pub const START_OCCUPANCY: Bitboard = Bitboard(0xffff_0000_0000_ffff);
