//! The live session's record: every reading as a sensor log keeps it, what the board did
//! lately, and how each sensor behaves.

use std::time::Instant;

use super::activity::Activity;
use crate::reading::TimedReading;
use crate::recognizer::health::SensorHealth;

/// The record part.
#[derive(Default)]
pub struct Record {
    /// Every reading of this live session, as a sensor log records it.
    pub(super) readings: Vec<TimedReading>,
    pub(super) activity: Activity,
    /// How each sensor of the live board behaves (a recording keeps its own).
    pub(super) health: SensorHealth,
}

impl Record {
    pub(super) fn note(&mut self, reading: TimedReading, now: Instant) {
        self.activity.note(&reading, now);
        self.health.note(&reading);
        self.readings.push(reading);
    }
}
