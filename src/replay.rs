//! Feeds recorded readings through the recognizer: the engine of `boardsight replay`.

use crate::game::GameRecord;
use crate::reading::{TimedReading, board_reads};
use crate::recognizer::{Config, Event, Recognizer};

pub struct Replay {
    pub games: Vec<GameRecord>,
    pub events: Vec<Event>,
}

pub fn replay(readings: &[TimedReading], config: Config) -> Replay {
    let mut recognizer = Recognizer::new(config);
    let mut events = Vec::new();
    for read in board_reads(readings) {
        events.extend(recognizer.feed_batch(read));
    }
    let end = readings.last().map_or(0, |r| r.t);
    events.extend(recognizer.finish(end));
    Replay {
        games: recognizer.games(),
        events,
    }
}
