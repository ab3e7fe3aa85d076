//! Live games: a PGN file rewritten atomically after every change, so that a program polling
//! it (an overlay, a broadcast relay) always reads a whole file. The writing happens on a
//! thread of its own; when the disk is slow, only the newest text is written.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, Sender};

use super::writer::write_game_with_comments;
use crate::background::WorkerThread;
use crate::files::write_atomically;
use crate::game::{Annotation, GameRecord};

/// Every game of a session as PGN, each with its tags and comments (the clocks give a game
/// played on a clock its `TimeControl`, a `[%clk h:mm:ss]` comment after every move and the
/// result of a fallen flag: `GameClocks::annotate`); a game not decided is `*`.
pub fn session_pgn(games: &[GameRecord], annotations: &[Annotation]) -> String {
    games
        .iter()
        .zip(annotations)
        .map(|(game, (tags, comments))| write_game_with_comments(game, tags, comments))
        .collect()
}

/// A file kept holding the session's games. Dropping it writes the last text given.
pub struct LivePgn {
    path: PathBuf,
    texts: Option<Sender<String>>,
    problems: Receiver<String>,
    /// Dropped after `texts`: the last text is written, then the thread is joined.
    thread: WorkerThread,
}

impl LivePgn {
    /// Starts the writer for `path`; nothing is written before the first `write`.
    pub fn start(path: &Path) -> io::Result<Self> {
        let (texts, received) = mpsc::channel::<String>();
        let (problem, problems) = mpsc::channel();
        let target = path.to_owned();
        let thread = WorkerThread::spawn("live PGN", move || {
            while let Ok(mut text) = received.recv() {
                // Texts that came while the last one was written are already old.
                text = received.try_iter().last().unwrap_or(text);
                if let Err(e) = write_atomically(&target, text.as_bytes()) {
                    // The caller may be gone while closing; the message then has no reader.
                    let _ = problem.send(format!("{}: {e}", target.display()));
                }
            }
        })?;
        Ok(Self {
            path: path.to_owned(),
            texts: Some(texts),
            problems,
            thread,
        })
    }

    /// Replaces the file's text (in the background; returns at once).
    pub fn write(&self, pgn: String) {
        if let Some(texts) = &self.texts
            && texts.send(pgn).is_err()
        {
            eprintln!(
                "boardsight: the live PGN thread has stopped; {} is not updated",
                self.path.display()
            );
        }
    }

    /// What went wrong since the last call, each naming the file.
    pub fn problems(&self) -> Vec<String> {
        self.problems.try_iter().collect()
    }

    /// The file kept.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes the last text given, then says what went wrong since the last look.
    pub fn finish(mut self) -> Vec<String> {
        self.stop();
        self.problems()
    }

    fn stop(&mut self) {
        self.texts = None;
        self.thread.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::read_games;
    use shakmaty::Chess;

    fn game(moves: &[&str]) -> GameRecord {
        GameRecord::from_uci(Chess::default(), moves.iter().copied()).expect("legal moves")
    }

    #[test]
    fn the_last_text_given_is_what_the_file_holds() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("live.pgn");
        let live = LivePgn::start(&path).expect("start");
        let mut games = vec![game(&[])];
        for uci in ["e2e4", "e7e5", "g1f3"] {
            let m = uci
                .parse::<shakmaty::uci::UciMove>()
                .expect("uci")
                .to_move(&games[0].final_position())
                .expect("legal");
            games[0].moves.push(m);
            let annotations = vec![(crate::game::GameTags::default(), Vec::new())];
            live.write(session_pgn(&games, &annotations));
        }
        drop(live);
        let read = read_games(&std::fs::read(&path).expect("the file"));
        assert_eq!(read.len(), 1);
        let read = read[0].as_ref().expect("a game");
        assert_eq!(read.game, games[0]);
        assert_eq!(read.tags.result, Some(crate::game::PgnResult::Unknown));
        // The opening is named as the game goes: 1. e4 e5 2. Nf3.
        assert_eq!(
            read.tags.extra,
            [
                ("ECO".to_owned(), "C40".to_owned()),
                ("Opening".to_owned(), "King's Knight Opening".to_owned()),
            ]
        );
    }

    #[test]
    fn a_file_that_cannot_be_written_is_named() {
        let live = LivePgn::start(Path::new("/nonexistent-folder/live.pgn")).expect("start");
        live.write("x".into());
        let problems = live.finish();
        assert_eq!(problems.len(), 1);
        assert!(
            problems[0].starts_with("/nonexistent-folder/live.pgn: "),
            "{problems:?}"
        );
    }
}
