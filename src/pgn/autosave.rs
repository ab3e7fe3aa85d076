//! The game in progress, saved after every move with its sensor log, so that no crash
//! loses a game: on the next start it is offered for restore.

use std::io;
use std::path::{Path, PathBuf};

use crate::files::write_atomically;
use crate::reading::TimedReading;
use crate::sensorlog;

const GAME_FILE: &str = "unfinished.pgn";
const LOG_FILE: &str = "unfinished.log";

/// An unfinished game found on start.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unfinished {
    pub pgn: String,
    pub pgn_path: PathBuf,
    pub log_path: PathBuf,
}

#[derive(Clone, Debug)]
pub struct Autosave {
    dir: PathBuf,
}

impl Autosave {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    /// The user's data folder for boardsight (e.g. `~/.local/share/boardsight/autosave`).
    pub fn in_data_dir() -> Option<Self> {
        directories::ProjectDirs::from("", "", "boardsight")
            .map(|dirs| Self::new(dirs.data_dir().join("autosave")))
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Saves the game (as PGN) and everything the board sent so far.
    pub fn save(&self, pgn: &str, readings: &[TimedReading]) -> io::Result<()> {
        std::fs::create_dir_all(&self.dir)?;
        let mut log = Vec::new();
        sensorlog::write(&mut log, readings)?;
        write_atomically(&self.dir.join(LOG_FILE), &log)?;
        write_atomically(&self.dir.join(GAME_FILE), pgn.as_bytes())
    }

    /// The game a previous run left unfinished, if any.
    pub fn unfinished(&self) -> Option<Unfinished> {
        let pgn_path = self.dir.join(GAME_FILE);
        let pgn = std::fs::read_to_string(&pgn_path).ok()?;
        Some(Unfinished {
            pgn,
            pgn_path,
            log_path: self.dir.join(LOG_FILE),
        })
    }

    /// The game ended normally (saved by the user, or finished): nothing to restore.
    pub fn clear(&self) -> io::Result<()> {
        for name in [GAME_FILE, LOG_FILE] {
            match std::fs::remove_file(self.dir.join(name)) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => return Err(e),
                _ => {}
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reading::{Reading, START_OCCUPANCY};

    #[test]
    fn a_saved_game_is_found_again_until_cleared() {
        let dir = tempfile::tempdir().expect("temp dir");
        let autosave = Autosave::new(dir.path().join("autosave"));
        assert_eq!(autosave.unfinished(), None);
        let readings = [TimedReading::new(0, Reading::Occupancy(START_OCCUPANCY))];
        autosave.save("1. e4 *\n", &readings).expect("save");
        let found = autosave.unfinished().expect("an unfinished game");
        assert_eq!(found.pgn, "1. e4 *\n");
        let log = sensorlog::read_file(&found.log_path).expect("log");
        assert_eq!(log, readings);
        autosave.clear().expect("clear");
        assert_eq!(autosave.unfinished(), None);
        autosave.clear().expect("clearing twice is fine");
    }
}
