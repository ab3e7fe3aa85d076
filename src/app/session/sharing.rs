//! Sharing the session: the recognised position as a DGT board for other programs, and
//! its games as a live PGN file.

use std::time::Instant;

use super::Session;
use crate::dgt_serve::VirtualDgtBoard;
use crate::pgn::live::LivePgn;

impl Session {
    /// Serves the recognised position as a DGT board other programs open (at a link in the
    /// app's data folder, the same every run), or stops.
    pub fn share_as_dgt(&mut self, on: bool) {
        self.dgt_share = None;
        if !on {
            return;
        }
        let link = directories::ProjectDirs::from("", "", "boardsight")
            .map(|dirs| dirs.data_local_dir().to_path_buf())
            .filter(|dir| std::fs::create_dir_all(dir).is_ok())
            .map(|dir| dir.join("dgt-board"));
        // Without a link the terminal's own path serves as well, if less steadily.
        let started =
            VirtualDgtBoard::start(link.as_deref()).or_else(|_| VirtualDgtBoard::start(None));
        match started {
            Ok(board) => {
                board.show(&self.snapshot.position);
                self.dgt_share = Some(board);
                self.tell_dgt_clock(Instant::now());
            }
            Err(e) => self.notice = Some(format!("The board could not be shared: {e}")),
        }
    }

    /// The path other programs open to use the board as a DGT board, while it is shared.
    pub fn dgt_share_path(&self) -> Option<&std::path::Path> {
        self.dgt_share.as_ref().map(VirtualDgtBoard::path)
    }

    /// Keeps `path` holding the session's games, or stops.
    pub fn set_live_pgn(&mut self, path: Option<std::path::PathBuf>) {
        if let Some(live) = self.live_pgn.take() {
            for problem in live.finish() {
                self.notice = Some(format!("Live PGN: {problem}"));
            }
        }
        let Some(path) = path else {
            return;
        };
        match LivePgn::start(&path) {
            Ok(live) => {
                self.live_pgn = Some(live);
                self.live_games = None;
                self.write_live_pgn();
            }
            Err(e) => self.notice = Some(format!("Live PGN {}: {e}", path.display())),
        }
    }

    pub fn live_pgn_path(&self) -> Option<&std::path::Path> {
        self.live_pgn.as_ref().map(LivePgn::path)
    }

    /// Rewrites the live file when the games have changed (moves, revisions, takebacks).
    pub(super) fn write_live_pgn(&mut self) {
        if self.live_pgn.is_none() || self.live_games.as_ref() == Some(&self.snapshot.games) {
            return;
        }
        self.live_games = Some(self.snapshot.games.clone());
        let (text, _) = self.pgn();
        let Some(live) = &self.live_pgn else {
            return;
        };
        live.write(text);
        for problem in live.problems() {
            self.notice = Some(format!("Live PGN: {problem}"));
        }
    }
}
