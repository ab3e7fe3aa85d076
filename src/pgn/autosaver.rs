//! Autosave on a thread of its own, so that no move waits for a disk: the caller hands over
//! the games and the readings since the last save, and hears back only about failures.

use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;

use super::autosave::{Autosave, SessionSave, Unfinished};
use crate::reading::TimedReading;
use crate::recognizer::GameRecord;

enum Job {
    Save {
        games: Vec<GameRecord>,
        new_readings: Vec<TimedReading>,
    },
    /// Once this session's games are on disk, an earlier session restored into it goes.
    DiscardAfterSave(Unfinished),
    /// The user saved the games: the session's autosave files go.
    Clear,
}

/// A session's autosave, written in the background. Dropping it finishes every save asked for.
pub struct Autosaver {
    jobs: Option<Sender<Job>>,
    problems: Receiver<String>,
    thread: Option<JoinHandle<()>>,
}

impl Autosaver {
    /// Starts the writer; its session's files are made at the first save with a move.
    /// `wake` is called when a problem is waiting to be read.
    pub fn start(autosave: Autosave, wake: Arc<dyn Fn() + Send + Sync>) -> std::io::Result<Self> {
        let (jobs, received) = mpsc::channel();
        let (problem, problems) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("autosave".into())
            .spawn(move || {
                let mut writer = Writer {
                    autosave,
                    session: None,
                    pending: Vec::new(),
                    discard: None,
                };
                for job in received {
                    if let Err(message) = writer.run(job) {
                        // The app may have gone while closing; the message then has no reader.
                        if problem.send(message).is_ok() {
                            wake();
                        }
                    }
                }
            })?;
        Ok(Self {
            jobs: Some(jobs),
            problems,
            thread: Some(thread),
        })
    }

    /// Saves every game of the session, appending `new_readings` to its log.
    pub fn save(&self, games: Vec<GameRecord>, new_readings: Vec<TimedReading>) {
        self.send(Job::Save {
            games,
            new_readings,
        });
    }

    pub fn discard_after_save(&self, restored: Unfinished) {
        self.send(Job::DiscardAfterSave(restored));
    }

    pub fn clear(&self) {
        self.send(Job::Clear);
    }

    /// What went wrong since the last call, for the user.
    pub fn problems(&self) -> Vec<String> {
        self.problems.try_iter().collect()
    }

    fn send(&self, job: Job) {
        let sent = self.jobs.as_ref().map(|jobs| jobs.send(job));
        if !matches!(sent, Some(Ok(()))) {
            // Only a writer thread that panicked stops taking jobs; say so once it is asked.
            eprintln!("boardsight: the autosave thread has stopped; games are not autosaved");
        }
    }
}

impl Drop for Autosaver {
    fn drop(&mut self) {
        self.jobs = None;
        if let Some(thread) = self.thread.take()
            && thread.join().is_err()
        {
            eprintln!("boardsight: the autosave thread failed");
        }
    }
}

struct Writer {
    autosave: Autosave,
    session: Option<SessionSave>,
    /// Readings not yet in the log (a session writes nothing before its first move).
    pending: Vec<TimedReading>,
    discard: Option<Unfinished>,
}

impl Writer {
    fn run(&mut self, job: Job) -> Result<(), String> {
        match job {
            Job::Save {
                games,
                new_readings,
            } => {
                self.pending.extend(new_readings);
                let session = match &mut self.session {
                    Some(session) => session,
                    None => {
                        let made = self
                            .autosave
                            .session()
                            .map_err(|e| format!("Autosave failed: {e}"))?;
                        self.session.insert(made)
                    }
                };
                let wrote = session
                    .save(&games, &self.pending)
                    .map_err(|e| format!("Autosave failed: {e}"))?;
                if wrote {
                    self.pending.clear();
                    if let Some(restored) = self.discard.take() {
                        restored
                            .discard()
                            .map_err(|e| format!("{}: {e}", restored.pgn_path.display()))?;
                    }
                }
                Ok(())
            }
            Job::DiscardAfterSave(restored) => {
                self.discard = Some(restored);
                Ok(())
            }
            Job::Clear => {
                self.pending.clear();
                match &mut self.session {
                    Some(session) => session
                        .clear()
                        .map_err(|e| format!("{}: {e}", session.pgn_path().display())),
                    None => Ok(()),
                }
            }
        }
    }
}
