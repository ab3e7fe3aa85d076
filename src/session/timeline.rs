//! The timeline of a recorded sensor log: everything as it was at each reading, with
//! checkpoints so that a seek anywhere costs the same at any length of recording.

use std::time::{Duration, Instant};

use crate::reading::{Millis, TimedReading};
use crate::recognizer::{Config, Event, Recognizer};
use crate::snapshot::Snapshot;

use super::recording_summary::Summary;

/// A recorded sensor log, stepped through: everything as it was at each reading.
pub struct Timeline {
    pub name: String,
    readings: Vec<TimedReading>,
    config: Config,
    /// How many readings have been fed.
    index: usize,
    recognizer: Recognizer,
    /// Everything the recognizer said up to the furthest reading yet fed (replays are
    /// deterministic, so what it says again is the same).
    events: Vec<Event>,
    /// How many of `events` were said by now.
    shown: usize,
    /// The furthest reading fed so far.
    horizon: usize,
    playing: Option<Playing>,
    /// The recognizer each time readings worth `CHECKPOINT_COST` of replay had been fed,
    /// with how many events it had said: a seek replays at most that much, at any length
    /// of recording. A copy shares the finished games and the moves worked out with the
    /// live recognizer, so a checkpoint holds little more than the current game's positions.
    checkpoints: Vec<(usize, Recognizer, usize)>,
    /// The replay cost fed since the last checkpoint.
    cost_since_checkpoint: usize,
    /// The replay cost fed so far (what seeks cost).
    fed: usize,
    /// The whole recording laid out in time, once it has all been fed.
    summary: Option<Summary>,
}

/// What feeding a reading that changes something costs, against 1 for a repeat of the
/// last one (a polled board's log repeats the occupancy every poll; the recognizer passes a
/// repeat by at a fraction of the cost).
const CHANGE_COST: usize = 16;
/// A checkpoint every 256 changes, or 4,096 repeats.
const CHECKPOINT_COST: usize = 256 * CHANGE_COST;

struct Playing {
    speed: f64,
    since: Instant,
    from: Millis,
}

impl Timeline {
    pub fn new(name: String, readings: Vec<TimedReading>, config: Config) -> Self {
        let recognizer = Recognizer::new(config.clone());
        Self {
            name,
            readings,
            config,
            index: 0,
            recognizer,
            events: Vec::new(),
            shown: 0,
            horizon: 0,
            playing: None,
            checkpoints: Vec::new(),
            cost_since_checkpoint: 0,
            fed: 0,
            summary: None,
        }
    }

    pub fn len(&self) -> usize {
        self.readings.len()
    }

    pub fn is_empty(&self) -> bool {
        self.readings.is_empty()
    }

    pub fn index(&self) -> usize {
        self.index
    }

    /// The time of the last reading fed.
    pub fn time(&self) -> Millis {
        self.index
            .checked_sub(1)
            .and_then(|i| self.readings.get(i))
            .map_or(0, |r| r.t)
    }

    pub fn end_time(&self) -> Millis {
        self.readings.last().map_or(0, |r| r.t)
    }

    /// Everything the recognizer said up to now, oldest first.
    pub fn events(&self) -> &[Event] {
        &self.events[..self.shown]
    }

    pub fn last_reading(&self) -> Option<&TimedReading> {
        self.index.checked_sub(1).and_then(|i| self.readings.get(i))
    }

    /// Goes to the state after `index` readings: from the last checkpoint before it when
    /// that is nearer than where it stands, then forward by feeding.
    pub fn seek(&mut self, index: usize) {
        let index = index.min(self.readings.len());
        let kept = self.checkpoints.partition_point(|(at, _, _)| *at <= index);
        match kept.checked_sub(1).map(|i| &self.checkpoints[i]) {
            Some((at, recognizer, said)) if index < self.index || *at > self.index => {
                self.recognizer = recognizer.clone();
                self.shown = *said;
                self.index = *at;
            }
            None if index < self.index => {
                self.recognizer = Recognizer::new(self.config.clone());
                self.shown = 0;
                self.index = 0;
            }
            _ => {}
        }
        while self.index < index {
            let cost = self.replay_cost(self.index);
            let said = self.recognizer.feed(self.readings[self.index]);
            self.fed += cost;
            self.index += 1;
            self.shown += said.len();
            if self.index > self.horizon {
                self.horizon = self.index;
                self.events.extend(said);
                self.cost_since_checkpoint += cost;
                if self.cost_since_checkpoint >= CHECKPOINT_COST {
                    self.cost_since_checkpoint = 0;
                    self.checkpoints
                        .push((self.index, self.recognizer.clone(), self.shown));
                }
            }
        }
        if self.summary.is_none() && self.horizon == self.readings.len() {
            self.summary = Some(Summary::of(&self.readings, &self.events));
        }
    }

    /// What feeding reading `index` costs: a repeat of the reading before it is cheap.
    fn replay_cost(&self, index: usize) -> usize {
        let repeat = index
            .checked_sub(1)
            .is_some_and(|before| self.readings[before].reading == self.readings[index].reading);
        if repeat { 1 } else { CHANGE_COST }
    }

    /// The recording laid out in time (once it has been fed to its end).
    pub fn summary(&self) -> Option<&Summary> {
        self.summary.as_ref()
    }

    /// How many readings had come by time `t`: the index a seek to `t` goes to.
    pub fn index_at(&self, t: Millis) -> usize {
        self.readings.partition_point(|r| r.t <= t)
    }

    /// The reading in force at time `t`, if any had come.
    pub fn reading_at(&self, t: Millis) -> Option<&TimedReading> {
        self.index_at(t)
            .checked_sub(1)
            .and_then(|i| self.readings.get(i))
    }

    pub fn snapshot(&self) -> Snapshot {
        Snapshot::of(&self.recognizer, 0)
    }

    pub fn is_playing(&self) -> bool {
        self.playing.is_some()
    }

    pub fn play(&mut self, speed: f64) {
        if self.index >= self.readings.len() {
            self.seek(0);
        }
        self.playing = Some(Playing {
            speed,
            since: Instant::now(),
            from: self.time(),
        });
    }

    pub fn pause(&mut self) {
        self.playing = None;
    }

    /// Feeds the readings whose time has come; returns when the next one is due.
    pub fn advance(&mut self, now: Instant) -> Option<Duration> {
        let playing = self.playing.as_ref()?;
        let elapsed = now.saturating_duration_since(playing.since).as_secs_f64();
        let log_now = playing.from + (elapsed * 1000.0 * playing.speed) as Millis;
        let speed = playing.speed;
        let due = self.readings[self.index..].partition_point(|r| r.t <= log_now);
        self.seek(self.index + due);
        match self.readings.get(self.index) {
            None => {
                self.playing = None;
                None
            }
            Some(next) => Some(Duration::from_secs_f64(
                next.t.saturating_sub(log_now) as f64 / 1000.0 / speed,
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reading::{Reading, START_OCCUPANCY};
    use shakmaty::Square;

    #[test]
    fn the_timeline_shows_each_moment_going_forward_and_back() {
        let lifted = START_OCCUPANCY.without(Square::E2);
        let readings = vec![
            TimedReading::new(0, Reading::Occupancy(START_OCCUPANCY)),
            TimedReading::new(100, Reading::Occupancy(lifted)),
            TimedReading::new(300, Reading::Occupancy(lifted.with(Square::E4))),
        ];
        let mut timeline = Timeline::new("t".into(), readings, Config::default());
        timeline.seek(3);
        assert_eq!(timeline.snapshot().game.moves.len(), 1);
        timeline.seek(2);
        assert_eq!(timeline.snapshot().game.moves.len(), 0);
        assert_eq!(timeline.snapshot().sensed, lifted);
        assert_eq!(timeline.time(), 100);
        timeline.seek(99);
        assert_eq!(timeline.index(), 3);
    }

    #[test]
    fn a_seek_back_in_a_long_recording_replays_from_the_checkpoint_before_it() {
        // A long session: e2 lifted and put back again and again, then 1. e4.
        let lifted = START_OCCUPANCY.without(Square::E2);
        let mut readings = vec![TimedReading::new(0, Reading::Occupancy(START_OCCUPANCY))];
        for i in 1..5000u64 {
            let occupancy = if i % 2 == 1 { lifted } else { START_OCCUPANCY };
            readings.push(TimedReading::new(i * 500, Reading::Occupancy(occupancy)));
        }
        let end = readings.len() as u64 * 500;
        readings.push(TimedReading::new(end, Reading::Occupancy(lifted)));
        readings.push(TimedReading::new(
            end + 300,
            Reading::Occupancy(lifted.with(Square::E4)),
        ));
        let mut timeline = Timeline::new("t".into(), readings.clone(), Config::default());
        timeline.seek(timeline.len());
        assert_eq!(timeline.snapshot().game.moves.len(), 1);
        let events_at_end = timeline.events().len();

        let before = timeline.fed;
        timeline.seek(3001);
        assert!(
            timeline.fed - before <= CHECKPOINT_COST,
            "{}",
            timeline.fed - before
        );
        // The same moment as a fresh replay shows it.
        let mut fresh = Timeline::new("t".into(), readings, Config::default());
        fresh.seek(3001);
        assert_eq!(timeline.snapshot().sensed, fresh.snapshot().sensed);
        assert_eq!(timeline.events(), fresh.events());
        timeline.seek(timeline.len());
        assert_eq!(timeline.events().len(), events_at_end);
        assert_eq!(timeline.snapshot().game.moves.len(), 1);
        // Far ahead from the start: from the checkpoint before, every event still there.
        timeline.seek(0);
        let before = timeline.fed;
        timeline.seek(4000);
        assert!(
            timeline.fed - before <= CHECKPOINT_COST,
            "{}",
            timeline.fed - before
        );
        fresh.seek(4000);
        assert_eq!(timeline.events(), fresh.events());
    }

    #[test]
    fn a_polled_recording_keeps_a_checkpoint_per_change_worth_of_replay_not_per_poll() {
        // Polled 13 times a second: e2 lifted and put back every 5 s, 20,000 polls.
        let lifted = START_OCCUPANCY.without(Square::E2);
        let readings: Vec<_> = (0..20_000u64)
            .map(|i| {
                let t = i * 77;
                let occupancy = if (t / 5000) % 2 == 1 {
                    lifted
                } else {
                    START_OCCUPANCY
                };
                TimedReading::new(t, Reading::Occupancy(occupancy))
            })
            .collect();
        let changes = readings
            .windows(2)
            .filter(|w| w[0].reading != w[1].reading)
            .count();
        let mut timeline = Timeline::new("t".into(), readings.clone(), Config::default());
        timeline.seek(timeline.len());
        let most = (changes * CHANGE_COST + readings.len()) / CHECKPOINT_COST + 1;
        assert!(
            timeline.checkpoints.len() <= most && timeline.checkpoints.len() >= most / 2,
            "{} checkpoints for {changes} changes in {} readings",
            timeline.checkpoints.len(),
            readings.len()
        );
        // A seek anywhere replays at most one checkpoint's worth, and shows what a fresh
        // replay shows.
        for target in [17_003, 4_321, 12_345] {
            let before = timeline.fed;
            timeline.seek(target);
            assert!(
                timeline.fed - before <= CHECKPOINT_COST,
                "{}",
                timeline.fed - before
            );
            let mut fresh = Timeline::new("t".into(), readings.clone(), Config::default());
            fresh.seek(target);
            assert_eq!(timeline.snapshot().sensed, fresh.snapshot().sensed);
            assert_eq!(timeline.events(), fresh.events());
        }
    }
}
