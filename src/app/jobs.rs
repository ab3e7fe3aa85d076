//! File work off the UI thread: reading and writing PGN and sensor logs, and replaying a
//! recording into its timeline. One background thread takes jobs in order; the app reads
//! their progress each frame and their results when they are done, and keeps repainting.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};

use crate::background::{Wake, WorkerThread};
use crate::files::write_atomically;
use crate::game::GameRecord;
use crate::pgn::{PgnError, PgnFile};
use crate::picture::{Look, Painter};
use crate::reading::TimedReading;
use crate::recognizer::Config;
use crate::sensorlog;

use crate::session::Timeline;

/// Something to do with a file.
pub enum Job {
    /// List a PGN file's games, to continue one on the board.
    ListPgn(PathBuf),
    /// Read every game of a PGN file, for the simulated board to play.
    ReadDemoGames(PathBuf),
    /// Read a sensor log and replay it into a timeline standing at its end.
    OpenRecording { path: PathBuf, config: Config },
    /// Write the session's games, already in PGN.
    SavePgn {
        path: PathBuf,
        text: String,
        plies: usize,
    },
    SaveLog {
        path: PathBuf,
        readings: Vec<TimedReading>,
    },
    /// Draw a picture and write it.
    ExportPicture { path: PathBuf, picture: Picture },
}

/// A picture to export.
pub enum Picture {
    /// The position as drawn.
    Position {
        position: Box<shakmaty::Chess>,
        look: Look,
    },
    /// The game as an animated GIF: each move's mark and better move (index: ply − 1).
    Game {
        game: GameRecord,
        marks: Vec<Option<crate::review::Judgement>>,
        better: Vec<Option<shakmaty::Move>>,
    },
}

/// The exported pictures' side in pixels, and how long a GIF shows each move.
const PICTURE_SIDE: u32 = 640;
const GIF_SIDE: u32 = 400;
const GIF_DELAY_MS: u32 = 1000;

/// What a job came to.
pub enum Done {
    PgnListed {
        path: PathBuf,
        file: PgnFile,
    },
    DemoGames {
        games: Vec<GameRecord>,
    },
    RecordingOpened(Box<Timeline>),
    /// The games were saved, as they stood at `plies` moves in all.
    PgnSaved {
        path: PathBuf,
        plies: usize,
    },
    LogSaved(PathBuf),
    PictureSaved(PathBuf),
    /// What went wrong, for the user: the file, and where in it when known.
    Failed(String),
}

impl Job {
    fn label(&self) -> String {
        let (verb, path) = match self {
            Job::ListPgn(path) | Job::ReadDemoGames(path) => ("Reading", path),
            Job::OpenRecording { path, .. } => ("Opening", path),
            Job::SavePgn { path, .. }
            | Job::SaveLog { path, .. }
            | Job::ExportPicture { path, .. } => ("Saving", path),
        };
        format!("{verb} {}", file_name(path))
    }

    fn run(self, progress: &Progress) -> Done {
        match self {
            Job::ListPgn(path) => match std::fs::read(&path) {
                Ok(bytes) => {
                    let file = PgnFile::list(&bytes, &mut |done, total| progress.set(done, total));
                    if file.is_empty() {
                        Done::Failed(format!("{}: the file holds no games", path.display()))
                    } else {
                        Done::PgnListed { path, file }
                    }
                }
                Err(e) => failed(&path, e),
            },
            Job::ReadDemoGames(path) => read_demo_games(&path, progress),
            Job::OpenRecording { path, config } => match sensorlog::read_file(&path) {
                Ok(readings) => {
                    let mut timeline = Timeline::new(file_name(&path), readings, config);
                    // In steps, to tell how far it got.
                    let len = timeline.len();
                    for at in (0..=len).step_by(4096).chain([len]) {
                        timeline.seek(at);
                        progress.set(at, len);
                    }
                    Done::RecordingOpened(Box::new(timeline))
                }
                Err(e) => Done::Failed(e.to_string()),
            },
            Job::SavePgn { path, text, plies } => match write_atomically(&path, text.as_bytes()) {
                Ok(()) => Done::PgnSaved { path, plies },
                Err(e) => failed(&path, e),
            },
            Job::SaveLog { path, readings } => {
                let mut bytes = Vec::new();
                let written = sensorlog::write(&mut bytes, &readings)
                    .and_then(|()| write_atomically(&path, &bytes));
                match written {
                    Ok(()) => Done::LogSaved(path),
                    Err(e) => failed(&path, e),
                }
            }
            Job::ExportPicture { path, picture } => {
                let painter = Painter::default();
                let bytes = match picture {
                    Picture::Position { position, look } => {
                        painter.png(&position, look, PICTURE_SIDE)
                    }
                    Picture::Game {
                        game,
                        marks,
                        better,
                    } => painter.gif(&game, &marks, &better, GIF_SIDE, GIF_DELAY_MS),
                };
                match bytes {
                    Ok(bytes) => match write_atomically(&path, &bytes) {
                        Ok(()) => Done::PictureSaved(path),
                        Err(e) => failed(&path, e),
                    },
                    Err(message) => Done::Failed(format!("{}: {message}", path.display())),
                }
            }
        }
    }
}

fn read_demo_games(path: &Path, progress: &Progress) -> Done {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) => return failed(path, e),
    };
    let file = PgnFile::list(&bytes, &mut |_, _| {});
    let mut games = Vec::new();
    let mut problems: Vec<PgnError> = Vec::new();
    for index in 0..file.len() {
        match file.game(index) {
            Some(Ok(game)) => games.push(game.game),
            Some(Err(e)) => problems.push(e),
            None => {}
        }
        progress.set(index + 1, file.len());
    }
    match (games.is_empty(), problems.first()) {
        (true, Some(first)) => Done::Failed(format!("{}: {first}", path.display())),
        (true, None) => Done::Failed(format!("{}: no game to play", path.display())),
        (false, _) => Done::DemoGames { games },
    }
}

fn failed(path: &Path, error: std::io::Error) -> Done {
    Done::Failed(format!("{}: {error}", path.display()))
}

pub fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// How far the running job is.
#[derive(Default)]
struct Progress {
    done: AtomicUsize,
    total: AtomicUsize,
}

impl Progress {
    fn set(&self, done: usize, total: usize) {
        self.total.store(total, Ordering::Relaxed);
        self.done.store(done, Ordering::Relaxed);
    }

    fn fraction(&self) -> Option<f32> {
        let total = self.total.load(Ordering::Relaxed);
        (total > 0).then(|| self.done.load(Ordering::Relaxed) as f32 / total as f32)
    }
}

/// The job thread, seen from the UI.
pub struct Jobs {
    jobs: Option<Sender<Job>>,
    done: Receiver<Done>,
    progress: Arc<Progress>,
    /// The labels of the jobs given and not yet done, oldest first.
    waiting: VecDeque<String>,
    /// Jobs done in the window, when there is no thread.
    ready: Vec<Done>,
    /// Dropped after `jobs`: a save asked for is finished before the app goes.
    thread: Option<WorkerThread>,
}

impl Jobs {
    /// Starts the thread; `wake` is called when a job is done. Should no thread start,
    /// jobs run where they are asked for: slower, but no file is left unsaved.
    pub fn start(wake: Wake) -> Self {
        let (jobs, received) = mpsc::channel::<Job>();
        let (finished, done) = mpsc::channel();
        let progress = Arc::new(Progress::default());
        let thread = {
            let progress = progress.clone();
            WorkerThread::spawn("file jobs", move || {
                for job in received {
                    progress.set(0, 0);
                    if finished.send(job.run(&progress)).is_err() {
                        return;
                    }
                    wake();
                }
            })
        };
        let (jobs, thread) = match thread {
            Ok(thread) => (Some(jobs), Some(thread)),
            Err(e) => {
                eprintln!("boardsight: {e}; file jobs run in the window");
                (None, None)
            }
        };
        Self {
            jobs,
            done,
            progress,
            waiting: VecDeque::new(),
            ready: Vec::new(),
            thread,
        }
    }

    pub fn run(&mut self, job: Job) {
        let label = job.label();
        let job = match &self.jobs {
            Some(jobs) => match jobs.send(job) {
                Ok(()) => {
                    self.waiting.push_back(label);
                    return;
                }
                // The thread ended (only a panic ends it): do the job here instead.
                Err(refused) => refused.0,
            },
            None => job,
        };
        let done = job.run(&self.progress);
        self.ready.push(done);
    }

    /// The jobs finished since the last call.
    pub fn finished(&mut self) -> Vec<Done> {
        let mut done: Vec<Done> = std::mem::take(&mut self.ready);
        for finished in self.done.try_iter() {
            self.waiting.pop_front();
            done.push(finished);
        }
        if self.thread.as_ref().is_some_and(WorkerThread::is_finished) {
            // Only a panic ends the thread early: what it was given is not done.
            for label in self.waiting.drain(..) {
                done.push(Done::Failed(format!("{label}: not done, the job failed")));
            }
        }
        done
    }

    /// What is being done, and how far along (when the job can tell).
    pub fn busy(&self) -> Option<(&str, Option<f32>)> {
        self.waiting
            .front()
            .map(|label| (label.as_str(), self.progress.fraction()))
    }
}
