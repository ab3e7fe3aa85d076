//! Sharing the session: the recognised position as a DGT board for other programs, and
//! its games as a live PGN file.

use std::path::Path;

use shakmaty::Chess;

use crate::dgt_serve::VirtualDgtBoard;
use crate::game::GameRecord;
use crate::pgn::live::LivePgn;
use crate::protocol::dgt::DgtClock;

/// The shared DGT board part: the recognised position and the clock, served to other
/// programs while it is on.
#[derive(Default)]
pub struct DgtShare {
    board: Option<VirtualDgtBoard>,
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
        self.show(position);
        self.show_clock(clock);
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
