//! Where the app's readings come from, when they do not come from a real board: the
//! built-in simulated board (on a real pseudo-terminal, speaking the same bytes) and the
//! timeline of a recorded sensor log.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use shakmaty::{Chess, Color, Piece, Position, Rank, Role, Square};

use crate::connection::Snapshot;
use crate::protocol::Protocol;
use crate::reading::{Millis, TimedReading};
use crate::recognizer::{Config, Event, GameRecord, Recognizer};
use crate::sim::device::{Device, PtyLink};
use crate::sim::{Action, HandStyle, PhysicalBoard, script_games};

/// The protocol the built-in board speaks.
pub const SIMULATED_PROTOCOL: Protocol = Protocol::Liboard;

/// A virtual sensor board: clicks lift and place pieces, or a demo game plays itself.
pub struct SimulatedBoard {
    actions: Sender<Action>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
    path: String,
    /// What the device's board holds, mirrored to know which piece a click lifts.
    mirror: PhysicalBoard,
    hand: Vec<Piece>,
    demo: Option<(Arc<AtomicBool>, JoinHandle<()>)>,
}

impl SimulatedBoard {
    /// Starts the board on a new pseudo-terminal, set up at the start position.
    pub fn start() -> std::io::Result<Self> {
        let mut pty = PtyLink::open(None)?;
        let path = pty
            .device_path()
            .ok_or_else(|| std::io::Error::other("the simulated board has no device path"))?;
        let (actions, receiver) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let thread = {
            let stop = stop.clone();
            std::thread::Builder::new()
                .name("simulated board".into())
                .spawn(move || {
                    let mut device = Device::new(SIMULATED_PROTOCOL, 1.0);
                    if let Some(port) = pty.port() {
                        // The worker retries if the board goes; nothing to do with an error here.
                        let _ = device.run_live(port, &receiver, &stop);
                    }
                })?
        };
        let mut board = Self {
            actions,
            stop,
            thread: Some(thread),
            path,
            mirror: PhysicalBoard::empty(),
            hand: Vec::new(),
            demo: None,
        };
        board.perform(Action::SetUp(Chess::default()));
        Ok(board)
    }

    pub fn path(&self) -> &str {
        &self.path
    }

    pub fn occupancy(&self) -> shakmaty::Bitboard {
        self.mirror.occupancy()
    }

    fn perform(&mut self, action: Action) {
        self.mirror.apply(&action);
        let _ = self.actions.send(action);
    }

    /// A click on the virtual board: lifts the piece there, or puts down the piece in hand.
    /// A pawn put on its last rank becomes `promotion`.
    pub fn click(&mut self, square: Square, promotion: Role) {
        self.stop_demo();
        match self.mirror.pieces()[square as usize] {
            Some(piece) => {
                self.hand.push(piece);
                self.perform(Action::Lift(square));
            }
            None => {
                let Some(mut piece) = self.hand.pop() else {
                    return;
                };
                let last_rank = piece.color.fold_wb(Rank::Eighth, Rank::First);
                if piece.role == Role::Pawn && square.rank() == last_rank {
                    piece.role = promotion;
                }
                self.perform(Action::Place(square, piece));
            }
        }
    }

    /// Pieces in the hand, last lifted last.
    pub fn hand(&self) -> &[Piece] {
        &self.hand
    }

    /// Sets the pieces up for a position at once.
    pub fn set_up(&mut self, position: &Chess) {
        self.stop_demo();
        self.hand.clear();
        self.perform(Action::SetUp(position.clone()));
    }

    /// Plays games the way a person would, from their set-up, in the background.
    pub fn start_demo(&mut self, games: &[GameRecord], speed: f64) {
        self.stop_demo();
        let script = script_games(games, &HandStyle::default());
        for (_, action) in &script {
            self.mirror.apply(action);
        }
        self.hand.clear();
        let stop = Arc::new(AtomicBool::new(false));
        let actions = self.actions.clone();
        let thread = {
            let stop = stop.clone();
            std::thread::spawn(move || {
                let started = Instant::now();
                for (at, action) in script {
                    let due = started + Duration::from_secs_f64(at as f64 / 1000.0 / speed);
                    while Instant::now() < due {
                        if stop.load(Ordering::Relaxed) {
                            return;
                        }
                        std::thread::sleep(Duration::from_millis(10).min(due - Instant::now()));
                    }
                    if actions.send(action).is_err() {
                        return;
                    }
                }
            })
        };
        self.demo = Some((stop, thread));
    }

    pub fn demo_running(&self) -> bool {
        self.demo.as_ref().is_some_and(|(_, t)| !t.is_finished())
    }

    /// Stops a demo where it is; the board keeps the pieces as they stand.
    pub fn stop_demo(&mut self) {
        if let Some((stop, thread)) = self.demo.take() {
            stop.store(true, Ordering::Relaxed);
            let _ = thread.join();
        }
    }
}

impl Drop for SimulatedBoard {
    fn drop(&mut self) {
        self.stop_demo();
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

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
    /// The recognizer after every `CHECKPOINT_EVERY` readings, with how many events it had
    /// said: a seek back replays at most that many readings, at any length of recording.
    checkpoints: Vec<(usize, Recognizer, usize)>,
    /// Readings fed to the recognizer so far (what a seek costs).
    fed: usize,
}

const CHECKPOINT_EVERY: usize = 256;

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
            fed: 0,
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
            let said = self.recognizer.feed(self.readings[self.index]);
            self.fed += 1;
            self.index += 1;
            self.shown += said.len();
            if self.index > self.horizon {
                self.horizon = self.index;
                self.events.extend(said);
                if self.index.is_multiple_of(CHECKPOINT_EVERY) {
                    self.checkpoints
                        .push((self.index, self.recognizer.clone(), self.shown));
                }
            }
        }
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

/// Whether a game's final position shows a finished game, and how.
pub fn game_end(position: &Chess) -> Option<&'static str> {
    if position.is_checkmate() {
        Some(if position.turn() == Color::White {
            "0-1, Black mates"
        } else {
            "1-0, White mates"
        })
    } else if position.is_stalemate() {
        Some("1/2-1/2, stalemate")
    } else if position.is_insufficient_material() {
        Some("1/2-1/2, insufficient material")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reading::{Reading, START_OCCUPANCY};

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
            timeline.fed - before <= CHECKPOINT_EVERY,
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
            timeline.fed - before <= CHECKPOINT_EVERY,
            "{}",
            timeline.fed - before
        );
        fresh.seek(4000);
        assert_eq!(timeline.events(), fresh.events());
    }
}
