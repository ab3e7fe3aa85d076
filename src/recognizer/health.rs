//! How each sensor behaves: how often it changed, and how often a change was undone within
//! a flicker (a real hand keeps a piece up or down longer). A board builder finds a bad
//! sensor by its counts; the app shows them as a heat map. Kept as readings arrive, so it
//! works live as well as over a recording.

use shakmaty::{Bitboard, Square};

use crate::reading::{Millis, Reading, TimedReading};

/// A state that lasts less than this, between two changes of one square, is a flicker.
pub const FLICKER_MS: Millis = 50;

/// How often each square's sensor changed, and how often it flickered (changed and changed
/// back within [`FLICKER_MS`]): where a loose or dirty sensor shows itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SensorHealth {
    changes: [u32; 64],
    flickers: [u32; 64],
    last_change: [Option<Millis>; 64],
    sensed: Option<Bitboard>,
}

impl Default for SensorHealth {
    fn default() -> Self {
        Self {
            changes: [0; 64],
            flickers: [0; 64],
            last_change: [None; 64],
            sensed: None,
        }
    }
}

impl SensorHealth {
    /// Counts what `reading` changed.
    pub fn note(&mut self, reading: &TimedReading) {
        let before = self.sensed.unwrap_or(Bitboard::EMPTY);
        let after = match reading.reading {
            Reading::Occupancy(occupancy) => occupancy,
            Reading::Lift(square) => before.without(square),
            Reading::Place(square) => before.with(square),
            Reading::Promote(_) => return,
        };
        // The first reading sets the scene; it changes nothing.
        if self.sensed.is_some() {
            for square in before ^ after {
                let i = square as usize;
                self.changes[i] += 1;
                if self.last_change[i].is_some_and(|at| reading.t.saturating_sub(at) < FLICKER_MS) {
                    self.flickers[i] += 1;
                }
                self.last_change[i] = Some(reading.t);
            }
        }
        self.sensed = Some(after);
    }

    /// The counts of a whole recording.
    pub fn of(readings: &[TimedReading]) -> Self {
        let mut health = Self::default();
        for reading in readings {
            health.note(reading);
        }
        health
    }

    /// How often `square`'s sensor changed.
    pub fn changes(&self, square: Square) -> u32 {
        self.changes[square as usize]
    }

    /// How often `square`'s sensor flickered.
    pub fn flickers(&self, square: Square) -> u32 {
        self.flickers[square as usize]
    }

    /// The squares worth a look, the most flickering first (then the most changing).
    pub fn worst(&self, at_most: usize) -> Vec<Square> {
        let mut squares: Vec<Square> = Square::ALL
            .into_iter()
            .filter(|&s| self.flickers(s) > 0)
            .collect();
        squares.sort_by_key(|&s| {
            (
                std::cmp::Reverse(self.flickers(s)),
                std::cmp::Reverse(self.changes(s)),
            )
        });
        squares.truncate(at_most);
        squares
    }

    /// The most flickers of any square (to scale a heat map).
    pub fn most_flickers(&self) -> u32 {
        self.flickers.iter().copied().max().unwrap_or(0)
    }

    /// The most changes of any square (to scale a heat map).
    pub fn most_changes(&self) -> u32 {
        self.changes.iter().copied().max().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reading::START_OCCUPANCY;
    use crate::sensorlog;

    #[test]
    fn a_bouncing_sensor_counts_flickers_a_hand_does_not() {
        let start = START_OCCUPANCY;
        let lifted = start.without(Square::E2);
        let readings = [
            TimedReading::new(0, Reading::Occupancy(start)),
            // e2 lifted and put on e4: two ordinary changes.
            TimedReading::new(1000, Reading::Occupancy(lifted)),
            TimedReading::new(1400, Reading::Occupancy(lifted.with(Square::E4))),
            // e4 drops out for 20 ms: a flicker.
            TimedReading::new(5000, Reading::Occupancy(lifted)),
            TimedReading::new(5020, Reading::Occupancy(lifted.with(Square::E4))),
        ];
        let health = SensorHealth::of(&readings);
        assert_eq!(health.changes(Square::E2), 1);
        assert_eq!(health.flickers(Square::E2), 0);
        assert_eq!(health.changes(Square::E4), 3);
        assert_eq!(health.flickers(Square::E4), 1);
        assert_eq!(health.worst(3), vec![Square::E4]);
        assert_eq!(health.changes(Square::A1), 0);
    }

    #[test]
    fn the_bouncing_field_sessions_show_their_bad_squares() {
        // Field sessions of a board whose reed switches bounce: flickers where pieces land.
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/field");
        let mut found = 0;
        for entry in std::fs::read_dir(dir).expect("tests/field").flatten() {
            let path = entry.path();
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            if !name.is_some_and(|n| n.starts_with("bounce") && n.ends_with(".log")) {
                continue;
            }
            let readings = sensorlog::read_file(&path).expect("log");
            let health = SensorHealth::of(&readings);
            assert!(health.most_flickers() > 0, "{}", path.display());
            found += 1;
        }
        assert!(found > 0, "no bounce sessions in tests/field");
    }
}
