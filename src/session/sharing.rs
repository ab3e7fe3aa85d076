//! Sharing the session: the recognised position as a DGT board for other programs, and
//! its games as a live PGN file.

use std::path::Path;
use std::time::Instant;

use shakmaty::{Bitboard, Chess};

use crate::dgt_serve::VirtualDgtBoard;
use crate::game::GameRecord;
use crate::pgn::live::LivePgn;
use crate::protocol::dgt::{DgtClock, HostSaid};
use crate::protocol::dgt_clock::{ClockCommand, Lights};

use super::words::{host_clock_line, squares_line};

/// The shared DGT board part: the recognised position and the clock, served to other
/// programs while it is on, and what the program following it shows on the board's clock
/// and lights.
#[derive(Default)]
pub struct DgtShare {
    board: Option<VirtualDgtBoard>,
    host: HostDisplay,
}

/// What the program following the shared board shows on its DGT 3000 and its lights.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HostDisplay {
    /// The times the host set, and when: they run on from there.
    pub clock: Option<(DgtClock, Instant)>,
    /// The text the host put on the clock's display, until it ends it.
    pub text: Option<String>,
    /// The squares the host lit (a Revelation II's lights).
    pub lights: Bitboard,
}

impl HostDisplay {
    /// The host's clock at `now`, when it drives one.
    pub fn clock_at(&self, now: Instant) -> Option<DgtClock> {
        self.clock
            .map(|(clock, at)| clock.after(now.saturating_duration_since(at).as_millis() as u64))
    }

    /// Takes what the host said at `at`; returns it in words, when worth a line.
    fn hear(&mut self, said: HostSaid, at: Instant) -> Option<String> {
        match said {
            HostSaid::Clock(ClockCommand::SetAndRun(clock)) => {
                self.clock = Some((clock, at));
                Some(host_clock_line(&clock))
            }
            HostSaid::Clock(ClockCommand::Text { text, .. }) => {
                let line =
                    (self.text.as_ref() != Some(&text)).then(|| format!("host text: {text}"));
                self.text = Some(text);
                line
            }
            HostSaid::Clock(ClockCommand::EndText) => {
                self.text = None;
                None
            }
            HostSaid::Clock(ClockCommand::Version | ClockCommand::Other(_)) => None,
            HostSaid::Lights(lights) => {
                let before = self.lights;
                self.lights = match lights {
                    Lights::On(squares) => self.lights | squares,
                    Lights::Off => Bitboard::EMPTY,
                };
                (self.lights != before)
                    .then(|| format!("host lights: {}", squares_line(self.lights)))
            }
            HostSaid::Reset => {
                *self = Self::default();
                None
            }
        }
    }
}

impl DgtShare {
    /// Shares through `board` (showing `position` and `clock` at once), or stops with `None`.
    pub(super) fn set(
        &mut self,
        board: Option<VirtualDgtBoard>,
        position: &Chess,
        clock: Option<DgtClock>,
    ) {
        self.board = board;
        self.host = HostDisplay::default();
        self.show(position);
        self.show_clock(clock);
    }

    /// Takes in what the host told the clock and the lights; returns it in words.
    pub(super) fn hear(&mut self) -> Vec<String> {
        let Some(board) = &self.board else {
            return Vec::new();
        };
        board
            .take_heard()
            .into_iter()
            .filter_map(|(said, at)| self.host.hear(said, at))
            .collect()
    }

    /// What the host shows on the board's clock and lights.
    pub fn host(&self) -> &HostDisplay {
        &self.host
    }

    pub(super) fn show(&self, position: &Chess) {
        if let Some(board) = &self.board {
            board.show(position);
        }
    }

    /// The clock as it reads now: it runs on by itself between changes.
    pub(super) fn show_clock(&self, clock: Option<DgtClock>) {
        if let Some(board) = &self.board {
            board.show_clock(clock);
        }
    }

    /// The path other programs open, while the board is shared.
    pub fn path(&self) -> Option<&Path> {
        self.board.as_ref().map(VirtualDgtBoard::path)
    }
}

/// The live PGN part: a file kept holding the session's games, rewritten after every
/// change of them (moves, revisions, takebacks).
#[derive(Default)]
pub struct LivePgnFile {
    file: Option<LivePgn>,
    /// The games the file was last written with, once it was.
    written: Option<Vec<GameRecord>>,
}

impl LivePgnFile {
    /// Keeps `file` holding the games from now on; `written` are the games it already
    /// holds (`None`: it is written at once). Returns what went wrong with the last file.
    pub(super) fn set(
        &mut self,
        file: Option<LivePgn>,
        written: Option<Vec<GameRecord>>,
    ) -> Vec<String> {
        let problems = self.file.take().map(LivePgn::finish).unwrap_or_default();
        self.file = file;
        self.written = written;
        problems
    }

    pub fn path(&self) -> Option<&Path> {
        self.file.as_ref().map(LivePgn::path)
    }

    /// Whether the file wants rewriting for `games`.
    pub(super) fn is_due(&self, games: &[GameRecord]) -> bool {
        self.file.is_some() && self.written.as_deref() != Some(games)
    }

    /// Rewrites the file with `text`, the PGN of `games`; returns what went wrong since the
    /// last look.
    pub(super) fn write(&mut self, games: &[GameRecord], text: String) -> Vec<String> {
        let Some(file) = &self.file else {
            return Vec::new();
        };
        self.written = Some(games.to_vec());
        file.write(text);
        file.problems()
    }
}
