//! What the board did lately: squares that just changed (they flash) and how many readings
//! came in the last second. Both are pruned as they are kept, so an idle board costs nothing.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use shakmaty::{Bitboard, Square};

use crate::reading::{Reading, TimedReading};

/// How long a changed square stays lit.
pub const FLASH: Duration = Duration::from_millis(600);
const RATE_WINDOW: Duration = Duration::from_secs(1);

#[derive(Default)]
pub struct Activity {
    flashes: Vec<(Square, Instant)>,
    arrivals: VecDeque<Instant>,
    last_sensed: Bitboard,
}

impl Activity {
    pub fn note(&mut self, reading: &TimedReading, now: Instant) {
        self.arrivals.push_back(now);
        match reading.reading {
            Reading::Lift(square) | Reading::Place(square) => self.flashes.push((square, now)),
            Reading::Occupancy(occupancy) => {
                for square in occupancy ^ self.last_sensed {
                    self.flashes.push((square, now));
                }
                self.last_sensed = occupancy;
            }
            Reading::Promote(_) => {}
        }
        self.prune(now);
    }

    /// Forgets flashes that have faded and arrivals older than a second.
    pub fn prune(&mut self, now: Instant) {
        self.flashes
            .retain(|(_, at)| now.saturating_duration_since(*at) < FLASH);
        while self
            .arrivals
            .front()
            .is_some_and(|t| now.saturating_duration_since(*t) > RATE_WINDOW)
        {
            self.arrivals.pop_front();
        }
    }

    pub fn flashes(&self) -> &[(Square, Instant)] {
        &self.flashes
    }

    /// Readings in the last second, as of the last prune.
    pub fn readings_per_second(&self) -> usize {
        self.arrivals.len()
    }

    /// Whether something still changes on screen without a new reading.
    pub fn is_fading(&self) -> bool {
        !self.flashes.is_empty() || !self.arrivals.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reading::START_OCCUPANCY;

    #[test]
    fn flashes_and_the_rate_fade_so_an_idle_board_keeps_nothing() {
        let mut activity = Activity::default();
        let start = Instant::now();
        let lifted = START_OCCUPANCY.without(Square::E2);
        for (i, occupancy) in [START_OCCUPANCY, lifted].into_iter().enumerate() {
            let at = start + Duration::from_millis(100 * i as u64);
            activity.note(&TimedReading::new(0, Reading::Occupancy(occupancy)), at);
        }
        assert_eq!(activity.readings_per_second(), 2);
        assert!(activity.flashes().iter().any(|(s, _)| *s == Square::E2));
        activity.prune(start + Duration::from_secs(2));
        assert_eq!(activity.readings_per_second(), 0);
        assert!(activity.flashes().is_empty());
        assert!(!activity.is_fading());
    }
}
