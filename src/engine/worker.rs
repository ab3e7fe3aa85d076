//! The engine's worker thread: starts the process, says `uci`, sets its strength, and then
//! searches each position it is given, with a deadline on every answer.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};
use shakmaty_uci::{UciMessage, UciOptionConfig, UciSearchControl, UciTimeControl};

use super::strength::Strength;

/// How long an engine may take, before it is taken for hung.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Patience {
    /// To start, and to answer `isready`.
    pub start: Duration,
    /// Thinking time when no node limit is given.
    pub movetime: Duration,
    /// Past its thinking time (or for a node-limited search), to say `bestmove`.
    pub margin: Duration,
}

impl Default for Patience {
    fn default() -> Self {
        Self {
            start: Duration::from_secs(10),
            movetime: Duration::from_secs(1),
            margin: Duration::from_secs(5),
        }
    }
}

/// What went wrong with the engine; the game it was asked about is not touched.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineFault {
    #[error("the engine {path} could not start: {message}")]
    Start { path: String, message: String },
    #[error("the engine stopped{}{}", .code.map(|c| format!(" (exit code {c})")).unwrap_or_default(), .last_words.as_ref().map(|w| format!("; it last said '{w}'")).unwrap_or_default())]
    Exited {
        code: Option<i32>,
        last_words: Option<String>,
    },
    #[error("the engine did not answer '{asked}' within {:.1} s{}", .waited.as_secs_f64(), .garbage.as_ref().map(|g| format!("; it printed '{g}', which is not UCI")).unwrap_or_default())]
    Silent {
        asked: String,
        waited: Duration,
        garbage: Option<String>,
    },
    #[error("the engine played {uci}, which is not a legal move in {fen}")]
    IllegalMove { uci: String, fen: String },
}

/// What the engine tells its owner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// The engine is up and set: its name and author from `id`.
    Ready { name: String, author: String },
    /// The engine's move in the position after `ply` moves of the game it was given.
    BestMove { ply: usize, mv: Move },
    /// The engine failed; a new `Engine` may be started.
    Fault(EngineFault),
}

enum Request {
    Think { start: Chess, moves: Vec<Move> },
    Quit,
}

/// A running engine: ask it to think, read its replies.
pub struct Engine {
    requests: Sender<Request>,
    pub replies: Receiver<Reply>,
    thread: Option<JoinHandle<()>>,
}

impl Engine {
    /// Starts the engine at `path`; `wake` is called after every reply.
    pub fn start(
        path: &Path,
        strength: Strength,
        patience: Patience,
        wake: Arc<dyn Fn() + Send + Sync>,
    ) -> Self {
        let (requests, received) = mpsc::channel();
        let (reply, replies) = mpsc::channel();
        let path = path.to_path_buf();
        let thread = {
            let reply = reply.clone();
            let wake = wake.clone();
            std::thread::Builder::new()
                .name("engine".into())
                .spawn(move || serve(&path, strength, patience, &received, &reply, &*wake))
        };
        let thread = match thread {
            Ok(thread) => Some(thread),
            Err(e) => {
                // The owner hears it as any other fault (its receiver is still here).
                drop(reply.send(Reply::Fault(EngineFault::Start {
                    path: "(thread)".into(),
                    message: e.to_string(),
                })));
                wake();
                None
            }
        };
        Self {
            requests,
            replies,
            thread,
        }
    }

    /// Asks for the engine's move after `moves` from `start`; the answer comes as
    /// `Reply::BestMove` with `ply` = `moves.len()`.
    pub fn think(&self, start: &Chess, moves: &[Move]) {
        // A worker that has ended has said why already.
        drop(self.requests.send(Request::Think {
            start: start.clone(),
            moves: moves.to_vec(),
        }));
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        drop(self.requests.send(Request::Quit));
        if let Some(thread) = self.thread.take()
            && thread.join().is_err()
        {
            eprintln!("boardsight: the engine's thread failed while closing");
        }
    }
}

/// `stockfish` on PATH, or in `/usr/games` where Debian puts it.
pub fn find_stockfish() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .unwrap_or_default();
    on_path
        .into_iter()
        .chain([PathBuf::from("/usr/games")])
        .map(|dir| dir.join("stockfish"))
        .find(|path| path.is_file())
}

fn serve(
    path: &Path,
    strength: Strength,
    patience: Patience,
    requests: &Receiver<Request>,
    reply: &Sender<Reply>,
    wake: &(dyn Fn() + Send + Sync),
) {
    let mut process = match EngineProcess::start(path, patience) {
        Ok(process) => process,
        Err(fault) => {
            drop(reply.send(Reply::Fault(fault)));
            wake();
            return;
        }
    };
    let result = process.play(strength, requests, reply, wake);
    if let Err(fault) = result {
        drop(reply.send(Reply::Fault(fault)));
        wake();
    }
    process.stop();
}

struct EngineProcess {
    patience: Patience,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The last line that was not UCI, for the message if the engine then goes quiet.
    garbage: Option<String>,
}

impl EngineProcess {
    fn start(path: &Path, patience: Patience) -> Result<Self, EngineFault> {
        let start_error = |message: String| EngineFault::Start {
            path: path.display().to_string(),
            message,
        };
        let spawn = || {
            Process::new(path)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
        };
        let mut spawned = spawn();
        // A file just written may still be open in a process forking at that moment
        // (ETXTBSY): it is free a moment later.
        for _ in 0..10 {
            match &spawned {
                Err(e) if e.raw_os_error() == Some(26) => {
                    std::thread::sleep(Duration::from_millis(50));
                    spawned = spawn();
                }
                _ => break,
            }
        }
        let mut child = spawned.map_err(|e| start_error(e.to_string()))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(start_error("no pipes to talk over".into()));
        };
        let (line, lines) = mpsc::channel();
        std::thread::Builder::new()
            .name("engine output".into())
            .spawn(move || {
                for text in BufReader::new(stdout).lines() {
                    // Unreadable output ends the conversation like an exit does.
                    let Ok(text) = text else { return };
                    if line.send(text).is_err() {
                        return;
                    }
                }
            })
            .map_err(|e| start_error(e.to_string()))?;
        Ok(Self {
            patience,
            child,
            stdin,
            lines,
            garbage: None,
        })
    }

    fn play(
        &mut self,
        strength: Strength,
        requests: &Receiver<Request>,
        reply: &Sender<Reply>,
        wake: &(dyn Fn() + Send + Sync),
    ) -> Result<(), EngineFault> {
        self.say(&UciMessage::Uci)?;
        let mut name = String::new();
        let mut author = String::new();
        let mut options = Vec::<UciOptionConfig>::new();
        let start = self.patience.start;
        self.wait_for("uci", start, |message| match message {
            UciMessage::Id { name: n, author: a } => {
                name = n.unwrap_or(name.clone());
                author = a.unwrap_or(author.clone());
                false
            }
            UciMessage::Option(option) => {
                options.push(option);
                false
            }
            UciMessage::UciOk => true,
            _ => false,
        })?;
        let plan = strength.plan(&options);
        for option in &plan.options {
            self.say(option)?;
        }
        self.say(&UciMessage::IsReady)?;
        self.wait_for("isready", start, |m| m == UciMessage::ReadyOk)?;
        drop(reply.send(Reply::Ready { name, author }));
        wake();
        loop {
            match requests.recv() {
                Ok(Request::Think { start, moves }) => {
                    let mv = self.best_move(&start, &moves, plan.nodes)?;
                    drop(reply.send(Reply::BestMove {
                        ply: moves.len(),
                        mv,
                    }));
                    wake();
                }
                Ok(Request::Quit) | Err(_) => return Ok(()),
            }
        }
    }

    fn best_move(
        &mut self,
        start: &Chess,
        moves: &[Move],
        nodes: Option<u64>,
    ) -> Result<Move, EngineFault> {
        let mut position = start.clone();
        let mode = CastlingMode::Standard;
        let mut played = Vec::with_capacity(moves.len());
        for &mv in moves {
            played.push(UciMove::from_move(mv, mode));
            position.play_unchecked(mv);
        }
        let startpos = *start == Chess::default();
        self.say(&UciMessage::Position {
            startpos,
            fen: (!startpos).then(|| Fen::from_position(start, EnPassantMode::Legal)),
            moves: played,
        })?;
        let Patience {
            movetime, margin, ..
        } = self.patience;
        let (time_control, search_control, waited) = match nodes {
            Some(nodes) => (None, Some(UciSearchControl::nodes(nodes)), margin),
            None => (
                Some(UciTimeControl::MoveTime(movetime)),
                None,
                movetime + margin,
            ),
        };
        self.say(&UciMessage::Go {
            time_control,
            search_control,
        })?;
        let mut best = None;
        self.wait_for("go", waited, |message| match message {
            UciMessage::BestMove { best_move, .. } => {
                best = Some(best_move);
                true
            }
            _ => false,
        })?;
        let uci = best.ok_or_else(|| self.silence("go", waited))?;
        uci.to_move(&position)
            .map_err(|_| EngineFault::IllegalMove {
                uci: uci.to_string(),
                fen: Fen::from_position(&position, EnPassantMode::Legal).to_string(),
            })
    }

    fn say(&mut self, message: &UciMessage) -> Result<(), EngineFault> {
        writeln!(self.stdin, "{message}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| self.exited())
    }

    /// Reads lines until `done` says so, or the time is up, or the engine goes.
    fn wait_for(
        &mut self,
        asked: &str,
        waited: Duration,
        mut done: impl FnMut(UciMessage) -> bool,
    ) -> Result<(), EngineFault> {
        let deadline = Instant::now() + waited;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => match line.trim().parse::<UciMessage>() {
                    Ok(message) => {
                        if done(message) {
                            return Ok(());
                        }
                    }
                    Err(_) if line.trim().is_empty() => {}
                    Err(_) => self.garbage = Some(line.trim().to_owned()),
                },
                Err(RecvTimeoutError::Timeout) => return Err(self.silence(asked, waited)),
                Err(RecvTimeoutError::Disconnected) => return Err(self.exited()),
            }
        }
    }

    fn silence(&self, asked: &str, waited: Duration) -> EngineFault {
        EngineFault::Silent {
            asked: asked.to_owned(),
            waited,
            garbage: self.garbage.clone(),
        }
    }

    fn exited(&mut self) -> EngineFault {
        // The process may take a moment to be reaped after its output closes.
        let deadline = Instant::now() + Duration::from_millis(500);
        let code = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break status.code(),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                _ => break None,
            }
        };
        EngineFault::Exited {
            code,
            last_words: self.garbage.clone(),
        }
    }

    /// Asks the engine to quit, and makes sure it has.
    fn stop(&mut self) {
        // An engine already gone cannot hear it; it is killed below either way.
        drop(self.say(&UciMessage::Quit));
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        if let Err(e) = self.child.kill().and_then(|()| self.child.wait().map(drop)) {
            eprintln!("boardsight: the engine could not be stopped: {e}");
        }
    }
}
