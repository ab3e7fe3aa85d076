//! Every game of a session, saved after every move with the session's sensor log, so that
//! no crash and no new game loses a game: on the next start they are offered for restore.
//!
//! Each session has its own pair of files, `<session>.pgn` (all its games, rewritten
//! atomically) and `<session>.log` (appended to, so a move costs the same at any length).

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::writer::write_game;
use crate::files::write_atomically;
use crate::game::GameRecord;
use crate::game::GameTags;
use crate::reading::TimedReading;
use crate::sensorlog;

/// A session a previous run left unsaved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unfinished {
    /// Every game of the session, as PGN.
    pub pgn: String,
    /// The session's games, as PGN.
    pub pgn_path: PathBuf,
    /// The session's sensor log.
    pub log_path: PathBuf,
}

impl Unfinished {
    /// The user restored or dismissed it: its files go.
    pub fn discard(&self) -> io::Result<()> {
        remove_if_there(&self.pgn_path)?;
        remove_if_there(&self.log_path)
    }
}

/// Where sessions are autosaved.
#[derive(Clone, Debug)]
pub struct Autosave {
    dir: PathBuf,
}

impl Autosave {
    /// Autosave in the folder `dir` (made when first needed).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    /// The user's data folder for boardsight (e.g. `~/.local/share/boardsight/autosave`).
    pub fn in_data_dir() -> Option<Self> {
        directories::ProjectDirs::from("", "", "boardsight")
            .map(|dirs| Self::new(dirs.data_dir().join("autosave")))
    }

    /// The folder the sessions are saved in.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// A new session's files, named by the time it began (never an earlier session's).
    pub fn session(&self) -> io::Result<SessionSave> {
        std::fs::create_dir_all(&self.dir)?;
        let stamp = chrono::Local::now().format("%Y-%m-%d_%H-%M-%S").to_string();
        let mut name = stamp.clone();
        let mut n = 1;
        while self.dir.join(format!("{name}.pgn")).exists()
            || self.dir.join(format!("{name}.log")).exists()
        {
            n += 1;
            name = format!("{stamp}_{n}");
        }
        Ok(SessionSave {
            pgn_path: self.dir.join(format!("{name}.pgn")),
            log_path: self.dir.join(format!("{name}.log")),
            started: false,
        })
    }

    /// The sessions earlier runs left unsaved, the newest first.
    pub fn unfinished(&self) -> Vec<Unfinished> {
        self.scan().sessions
    }

    /// The sessions earlier runs left unsaved, the newest first, and what could not be
    /// read (a folder or file the user should hear about, not one silently skipped).
    pub fn scan(&self) -> Scan {
        let mut scan = Scan::default();
        let entries = match std::fs::read_dir(&self.dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return scan,
            Err(e) => {
                scan.problems.push(format!("{}: {e}", self.dir.display()));
                return scan;
            }
        };
        let mut pgn_paths = Vec::new();
        for entry in entries {
            match entry {
                Ok(entry) if entry.path().extension().is_some_and(|x| x == "pgn") => {
                    pgn_paths.push(entry.path());
                }
                Ok(_) => {}
                Err(e) => scan.problems.push(format!("{}: {e}", self.dir.display())),
            }
        }
        pgn_paths.sort();
        pgn_paths.reverse();
        for pgn_path in pgn_paths {
            match std::fs::read(&pgn_path) {
                Ok(bytes) => scan.sessions.push(Unfinished {
                    pgn: super::text::decode(&bytes),
                    log_path: pgn_path.with_extension("log"),
                    pgn_path,
                }),
                Err(e) => scan.problems.push(format!("{}: {e}", pgn_path.display())),
            }
        }
        scan
    }
}

/// What a look into the autosave folder found.
#[derive(Debug, Default)]
pub struct Scan {
    /// The sessions found, the newest first.
    pub sessions: Vec<Unfinished>,
    /// Each names the file or folder, and what went wrong.
    pub problems: Vec<String>,
}

/// One session's autosave files.
#[derive(Debug)]
pub struct SessionSave {
    pgn_path: PathBuf,
    log_path: PathBuf,
    /// Whether the log has its header yet.
    started: bool,
}

impl SessionSave {
    /// Appends `new_readings` to the log and saves every game of the session; says whether
    /// it wrote. A session without a single move writes nothing (it never replaces games
    /// with none): the caller keeps those readings for the next call.
    pub fn save(
        &mut self,
        games: &[GameRecord],
        new_readings: &[TimedReading],
    ) -> io::Result<bool> {
        if games.iter().all(|g| g.moves.is_empty()) {
            return Ok(false);
        }
        self.append_log(new_readings)?;
        let tags = GameTags::default();
        let pgn: String = games
            .iter()
            .filter(|g| !g.moves.is_empty())
            .map(|g| write_game(g, &tags))
            .collect();
        write_atomically(&self.pgn_path, pgn.as_bytes())?;
        Ok(true)
    }

    fn append_log(&mut self, new: &[TimedReading]) -> io::Result<()> {
        if new.is_empty() {
            return Ok(());
        }
        let mut text = Vec::new();
        if self.started {
            for reading in new {
                writeln!(text, "{}", sensorlog::format_reading(reading))?;
            }
        } else {
            sensorlog::write(&mut text, new)?;
        }
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log_path)?;
        file.write_all(&text)?;
        file.sync_data()?;
        self.started = true;
        Ok(())
    }

    /// The user saved the games: nothing of this session is left to restore.
    pub fn clear(&mut self) -> io::Result<()> {
        remove_if_there(&self.pgn_path)?;
        remove_if_there(&self.log_path)?;
        self.started = false;
        Ok(())
    }

    /// The session's PGN file.
    pub fn pgn_path(&self) -> &Path {
        &self.pgn_path
    }
}

fn remove_if_there(path: &Path) -> io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::read_games;
    use crate::reading::{Reading, START_OCCUPANCY};
    use shakmaty::Chess;

    fn game(moves: &[&str]) -> GameRecord {
        GameRecord::from_uci(Chess::default(), moves.iter().copied()).expect("legal moves")
    }

    #[test]
    fn two_games_of_a_session_come_back_after_a_restart() {
        let dir = tempfile::tempdir().expect("temp dir");
        let autosave = Autosave::new(dir.path().join("autosave"));
        assert!(autosave.unfinished().is_empty());
        let mut session = autosave.session().expect("session");
        let start = [TimedReading::new(0, Reading::Occupancy(START_OCCUPANCY))];
        // A session with no move yet writes nothing.
        let wrote = session
            .save(&[GameRecord::new(Chess::default())], &start)
            .expect("save");
        assert!(!wrote);
        assert!(autosave.unfinished().is_empty());
        let first = game(&["e2e4", "e7e5"]);
        assert!(
            session
                .save(std::slice::from_ref(&first), &start)
                .expect("save")
        );
        // A new game begins: the first game stays, the empty new one adds nothing.
        let lift = [TimedReading::new(900, Reading::Lift(shakmaty::Square::D2))];
        let second = game(&["d2d4"]);
        session
            .save(&[first.clone(), GameRecord::new(Chess::default())], &lift)
            .expect("save");
        session
            .save(&[first.clone(), second.clone()], &[])
            .expect("save");

        // The next run: one session, both games, and the whole log.
        let found = Autosave::new(dir.path().join("autosave")).unfinished();
        assert_eq!(found.len(), 1);
        let games: Vec<GameRecord> = read_games(found[0].pgn.as_bytes())
            .into_iter()
            .map(|g| g.expect("a game").game)
            .collect();
        assert_eq!(games, vec![first, second]);
        // Each names its opening.
        let pgn = &found[0].pgn;
        assert!(
            pgn.contains("[ECO \"C20\"]\n[Opening \"King's Pawn Game\"]\n\n1. e4 e5"),
            "{pgn}"
        );
        assert!(
            pgn.contains("[ECO \"A40\"]\n[Opening \"Queen's Pawn Game\"]\n\n1. d4"),
            "{pgn}"
        );
        assert_eq!(
            sensorlog::read_file(&found[0].log_path).expect("the log"),
            [start, lift].concat()
        );
        found[0].discard().expect("discard");
        assert!(autosave.unfinished().is_empty());
    }

    #[test]
    fn an_unreadable_autosave_is_named_not_skipped() {
        let dir = tempfile::tempdir().expect("temp dir");
        let autosave = Autosave::new(dir.path());
        let mut good = autosave.session().expect("session");
        good.save(&[game(&["e2e4"])], &[]).expect("save");
        // Something that looks like a session's games but cannot be read as a file.
        std::fs::create_dir(dir.path().join("2001-01-01_00-00-00.pgn")).expect("dir");
        let scan = autosave.scan();
        assert_eq!(scan.sessions.len(), 1);
        assert_eq!(scan.problems.len(), 1);
        assert!(
            scan.problems[0].contains("2001-01-01_00-00-00.pgn"),
            "{:?}",
            scan.problems
        );
        // A folder not made yet holds nothing, and is no problem.
        let none = Autosave::new(dir.path().join("not-yet")).scan();
        assert!(none.sessions.is_empty() && none.problems.is_empty());
    }

    #[test]
    fn each_session_has_its_own_files() {
        let dir = tempfile::tempdir().expect("temp dir");
        let autosave = Autosave::new(dir.path());
        let readings = [TimedReading::new(0, Reading::Occupancy(START_OCCUPANCY))];
        let mut one = autosave.session().expect("session");
        one.save(&[game(&["e2e4"])], &readings).expect("save");
        let mut two = autosave.session().expect("session");
        two.save(&[game(&["c2c4"])], &readings).expect("save");
        assert_ne!(one.pgn_path(), two.pgn_path());
        assert_eq!(autosave.unfinished().len(), 2);
        one.clear().expect("clear");
        assert_eq!(autosave.unfinished().len(), 1);
    }
}
