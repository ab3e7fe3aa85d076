//! The live games' clocks on the board's time, as shown and as written in the PGN.

use std::time::{Duration, Instant};

use shakmaty::Position;

use super::{ClockFace, Session, TENTHS_BELOW_MS};
use crate::clock::{GameClocks, TimeControl, flag_words};
use crate::dgt_serve::dgt_clock;
use crate::engine::EnginePlay;
use crate::pgn::live::session_pgn;
use crate::reading::Millis;

impl Session {
    /// The board's time at `now`: its latest reading's time and what has passed since.
    pub(super) fn board_now(&self, now: Instant) -> Millis {
        self.board_time.map_or(0, |(t, at)| {
            t + now.saturating_duration_since(at).as_millis() as Millis
        })
    }

    /// Live games play on `control` from now on (the current one from its next move's
    /// thinking time on), or without a clock.
    pub fn set_clock(&mut self, control: Option<TimeControl>, now: Instant) {
        let board_now = self.board_now(now);
        self.clocks.set_control(control, board_now);
        self.tell_dgt_clock(now);
    }

    /// The shared DGT board's clock, as it stands at `now`: it runs on by itself between
    /// changes.
    pub(super) fn tell_dgt_clock(&self, now: Instant) {
        if let Some(board) = &self.dgt_share {
            let position = &self.snapshot.position;
            board.show_clock(dgt_clock(&self.clocks, position, self.board_now(now)));
        }
    }

    pub fn clocks(&self) -> &GameClocks {
        &self.clocks
    }

    /// The current game's clocks at `now`, if it is played on a clock.
    pub fn clock_face(&self, now: Instant) -> Option<ClockFace> {
        let clock = self.clocks.running()?;
        let board_now = self.board_now(now);
        let position = &self.snapshot.position;
        let ended = clock.flag().is_some() || position.is_game_over();
        Some(ClockFace {
            white_ms: self.clocks.left(shakmaty::Color::White, board_now)?,
            black_ms: self.clocks.left(shakmaty::Color::Black, board_now)?,
            running: (!ended && self.snapshot.has_started).then(|| position.turn()),
            flag: clock.flag(),
        })
    }

    /// The session's games in PGN, and their plies: the engine named on its side, each
    /// game's clock as `TimeControl` and `[%clk]` comments.
    pub fn pgn(&self) -> (String, usize) {
        let snapshot = &self.snapshot;
        let games = if snapshot.games.is_empty() {
            std::slice::from_ref(&snapshot.game)
        } else {
            &snapshot.games[..]
        };
        let tags = EnginePlay::tags(self.engine.as_ref());
        let text = session_pgn(games, &self.clocks.annotate(games, &tags));
        (text, games.iter().map(|g| g.moves.len()).sum())
    }

    /// Says a fallen flag; returns how soon the shown time changes while a clock runs.
    pub(super) fn run_clocks(&mut self, now: Instant) -> Option<Duration> {
        self.source.live()?;
        let board_now = self.board_now(now);
        if let Some((color, result)) = self.clocks.check_flag(&self.snapshot.position, board_now) {
            self.last_event = flag_words(color, result);
            self.tell_dgt_clock(now);
        }
        let face = self.clock_face(now)?;
        let running = face.running?;
        let left = match running {
            shakmaty::Color::White => face.white_ms,
            shakmaty::Color::Black => face.black_ms,
        };
        // Tenths are shown under 20 s, whole seconds above.
        let step = if left < TENTHS_BELOW_MS { 100 } else { 1000 };
        Some(Duration::from_millis(left % step + 1))
    }
}
