//! The live games' clocks on the board's time, as shown, as the engine and the shared DGT
//! board are told, and as the PGN writes them.

use std::time::{Duration, Instant};

use shakmaty::{Chess, Color, Position};

use crate::clock::{FlagResult, GameClocks, TimeControl};
use crate::dgt_serve::dgt_clock;
use crate::engine::EngineClock;
use crate::game::{Annotation, GameRecord, GameTags};
use crate::protocol::dgt::DgtClock;
use crate::reading::Millis;
use crate::recognizer::Event;
use crate::snapshot::Snapshot;

/// Below this much time a clock shows tenths of a second.
pub const TENTHS_BELOW_MS: u64 = 20_000;

/// Both clocks as shown: each side's time left, whose runs, and a fallen flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockFace {
    pub white_ms: u64,
    pub black_ms: u64,
    /// The side whose time is running (none once a flag fell or the game ended).
    pub running: Option<Color>,
    pub flag: Option<(Color, FlagResult)>,
}

/// The clocks part: the games' clocks and the board's time they run on.
#[derive(Default)]
pub struct Clocks {
    clocks: GameClocks,
    /// The board's time of the latest reading, and when it came: the board's time now.
    board_time: Option<(Millis, Instant)>,
}

impl Clocks {
    /// A new source: no games, the same time control.
    pub(super) fn reset(&mut self) {
        *self = Self {
            clocks: GameClocks::new(self.clocks.control()),
            board_time: None,
        };
    }

    /// The board's time at `now`: its latest reading's time and what has passed since.
    pub fn board_now(&self, now: Instant) -> Millis {
        self.board_time.map_or(0, |(t, at)| {
            t + now.saturating_duration_since(at).as_millis() as Millis
        })
    }

    /// When the latest reading came.
    pub fn last_reading_at(&self) -> Option<Instant> {
        self.board_time.map(|(_, at)| at)
    }

    pub(super) fn on_reading(&mut self, t: Millis, now: Instant) {
        self.board_time = Some((t, now));
    }

    pub(super) fn on_events(&mut self, events: &[Event]) {
        for event in events {
            self.clocks.on_event(event);
        }
    }

    /// Games play on `control` from now on, or without a clock.
    pub(super) fn set_control(&mut self, control: Option<TimeControl>, now: Instant) {
        let board_now = self.board_now(now);
        self.clocks.set_control(control, board_now);
    }

    pub fn games(&self) -> &GameClocks {
        &self.clocks
    }

    /// The engine's view of the clocks at `now`, when the game has one.
    pub(super) fn engine_clock(&self, now: Instant) -> Option<EngineClock> {
        EngineClock::of(&self.clocks, self.board_now(now))
    }

    /// What a DGT board's clock shows at `now`.
    pub(super) fn dgt_clock(&self, position: &Chess, now: Instant) -> Option<DgtClock> {
        dgt_clock(&self.clocks, position, self.board_now(now))
    }

    /// Each game's tags and `[%clk]` comments for the PGN.
    pub(super) fn annotate(&self, games: &[GameRecord], tags: &GameTags) -> Vec<Annotation> {
        self.clocks.annotate(games, tags)
    }

    /// The current game's clocks at `now`, if it is played on a clock.
    pub fn face(&self, snapshot: &Snapshot, now: Instant) -> Option<ClockFace> {
        let clock = self.clocks.running()?;
        let board_now = self.board_now(now);
        let position = &snapshot.position;
        let ended = clock.flag().is_some() || position.is_game_over();
        Some(ClockFace {
            white_ms: self.clocks.left(Color::White, board_now)?,
            black_ms: self.clocks.left(Color::Black, board_now)?,
            running: (!ended && snapshot.has_started).then(|| position.turn()),
            flag: clock.flag(),
        })
    }

    /// A flag that fell by `now`, in words, once.
    pub(super) fn check_flag(
        &mut self,
        position: &Chess,
        now: Instant,
    ) -> Option<(Color, FlagResult)> {
        self.clocks.check_flag(position, self.board_now(now))
    }
}

/// How soon the time `face` shows changes while a clock runs.
pub(super) fn next_tick(face: ClockFace) -> Option<Duration> {
    let left = match face.running? {
        Color::White => face.white_ms,
        Color::Black => face.black_ms,
    };
    // Tenths are shown under 20 s, whole seconds above.
    let step = if left < TENTHS_BELOW_MS { 100 } else { 1000 };
    Some(Duration::from_millis(left % step + 1))
}
