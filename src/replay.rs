//! Feeds recorded readings through the recognizer: the engine of `boardsight replay`.

use crate::game::GameRecord;
use crate::reading::TimedReading;
use crate::recognizer::{Config, Event, Recognizer};

pub struct Replay {
    pub games: Vec<GameRecord>,
    pub events: Vec<Event>,
}

pub fn replay(readings: &[TimedReading], config: Config) -> Replay {
    let mut recognizer = Recognizer::new(config);
    let mut events = Vec::new();
    for &reading in readings {
        events.extend(recognizer.feed(reading));
    }
    let end = readings.last().map_or(0, |r| r.t);
    events.extend(recognizer.finish(end));
    Replay {
        games: recognizer.games(),
        events,
    }
}
