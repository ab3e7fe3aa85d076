//! Autosave on a thread of its own, so that no move waits for a disk: the caller hands over
//! the games and the readings since the last save, and hears back only about failures.

use std::sync::mpsc::{self, Receiver, SyncSender, TrySendError};

use super::autosave::{Autosave, SessionSave, Unfinished};
use crate::background::{Wake, WorkerThread};
use crate::game::GameRecord;
use crate::reading::TimedReading;

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

/// A session's autosave, written in the background. At most one save waits while another is
/// written, so a slow disk never piles up copies of the games; dropping it finishes every
/// save taken.
pub struct Autosaver {
    jobs: Option<SyncSender<Job>>,
    problems: Receiver<String>,
    /// Dropped after `jobs`: the writer finishes what it was given, then is joined.
    _thread: WorkerThread,
}

impl Autosaver {
    /// Starts the writer; its session's files are made at the first save with a move.
    /// `wake` is called after each save (a refused one can be offered again) and when a
    /// problem is waiting to be read.
    pub fn start(autosave: Autosave, wake: Wake) -> std::io::Result<Self> {
        let (jobs, received) = mpsc::sync_channel(1);
        let (problem, problems) = mpsc::channel();
        let thread = WorkerThread::spawn("autosave", move || {
            let mut writer = Writer {
                autosave,
                session: None,
                pending: Vec::new(),
                discard: None,
            };
            for job in received {
                if let Err(message) = writer.run(job) {
                    // The app may have gone while closing; the message then has no reader.
                    let _ = problem.send(message);
                }
                wake();
            }
        })?;
        Ok(Self {
            jobs: Some(jobs),
            problems,
            _thread: thread,
        })
    }

    /// Saves every game of the session, appending `new_readings` to its log, unless a save
    /// is still waiting: then says no, and the caller offers it again (with what came since).
    pub fn try_save(&self, games: Vec<GameRecord>, new_readings: Vec<TimedReading>) -> bool {
        let job = Job::Save {
            games,
            new_readings,
        };
        match self.jobs.as_ref().map(|jobs| jobs.try_send(job)) {
            Some(Ok(())) => true,
            Some(Err(TrySendError::Full(_))) => false,
            _ => {
                self.stopped();
                false
            }
        }
    }

    /// Saves, waiting for room if a save is still waiting (the last save of a session).
    pub fn save(&self, games: Vec<GameRecord>, new_readings: Vec<TimedReading>) {
        self.send(Job::Save {
            games,
            new_readings,
        });
    }

    /// Deletes the files of `restored` once this session's next save is written.
    pub fn discard_after_save(&self, restored: Unfinished) {
        self.send(Job::DiscardAfterSave(restored));
    }

    /// Deletes this session's files (its games were saved by the user).
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
            self.stopped();
        }
    }

    fn stopped(&self) {
        // Only a writer thread that panicked stops taking jobs.
        eprintln!("boardsight: the autosave thread has stopped; games are not autosaved");
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
