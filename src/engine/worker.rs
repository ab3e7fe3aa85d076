//! The engine's worker thread: starts the process, says `uci`, sets its strength, and then
//! serves one search at a time: a move, a hint, or an analysis that runs until it is
//! replaced or stopped. The owner's requests and the engine's lines come on one channel,
//! so the worker hears the owner while the engine searches; every answer has a deadline.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Move, Position};
use shakmaty_uci::{UciMessage, UciOptionConfig, UciSearchControl, UciTimeControl};

use super::analysis::AnalysisLine;
use super::fault::EngineFault;
use super::process::EngineProcess;
use super::strength::Strength;
use super::time::EngineClock;
use crate::background::{Wake, WorkerThread};

/// Analysis replies come at most this often; the latest lines are the ones sent.
const ANALYSIS_INTERVAL: Duration = Duration::from_millis(100);

/// The most lines an analysis shows.
pub const MAX_LINES: u8 = 3;

/// How long an engine may take, before it is taken for hung.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Patience {
    /// To start, and to answer `isready`.
    pub start: Duration,
    /// Thinking time when no clock and no node limit is given.
    pub movetime: Duration,
    /// Past its thinking time (its time left on a clock; none for a node-limited search;
    /// or after `stop`), to say `bestmove`.
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

/// Which hint or analysis request a reply answers: a later request's replies never pass
/// for an earlier one's, even for the same ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ticket(u64);

/// What the engine tells its owner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reply {
    /// The engine is up and set: its name and author from `id`.
    Ready { name: String, author: String },
    /// The engine's move in the position after `ply` moves of the game it was given.
    BestMove { ply: usize, mv: Move },
    /// The best move for the side to move after `ply` moves: advice, not the engine's move.
    Hint {
        ticket: Ticket,
        ply: usize,
        mv: Move,
    },
    /// The engine's best lines so far after `ply` moves, best first; more come while it
    /// searches deeper, until the analysis is replaced or stopped.
    Analysis {
        ticket: Ticket,
        ply: usize,
        lines: Vec<AnalysisLine>,
    },
    /// The engine's evaluation of the position after `ply` moves, searched to its limit:
    /// its best line (`None` only if the engine gave no score).
    Evaluation {
        ticket: Ticket,
        ply: usize,
        line: Option<AnalysisLine>,
        /// How long the engine searched it.
        took: Duration,
    },
    /// The engine failed; a new `Engine` may be started.
    Fault(EngineFault),
}

/// How far an evaluation searches each position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchLimit {
    /// To this depth (plies).
    Depth(u8),
    /// This many nodes.
    Nodes(u64),
    /// This long.
    MoveTime(Duration),
}

/// What the worker waits for: its owner's requests and the engine's output, on one channel.
pub(super) enum Input {
    Asked(Request),
    Said(String),
    /// The engine's output has ended.
    Closed,
}

pub(super) enum Request {
    Search(Job),
    /// Ends the analysis (running or waiting).
    Stop,
    Quit,
}

#[derive(Clone)]
pub(super) struct Job {
    start: Chess,
    moves: Vec<Move>,
    kind: JobKind,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum JobKind {
    /// The engine's own move, on its clock if the game has one.
    Move(Option<EngineClock>),
    Hint(Ticket),
    Analysis {
        ticket: Ticket,
        lines: u16,
    },
    /// One line, searched to a limit; queued behind each other, never replaced.
    Evaluation {
        ticket: Ticket,
        limit: SearchLimit,
    },
}

impl Job {
    fn is_analysis(&self) -> bool {
        matches!(self.kind, JobKind::Analysis { .. })
    }
}

/// A running engine: ask it for moves, hints and analyses, read its replies.
pub struct Engine {
    requests: Sender<Input>,
    pub replies: Receiver<Reply>,
    tickets: AtomicU64,
    thread: Option<WorkerThread>,
}

impl Engine {
    /// Starts the engine at `path`; `wake` is called after every reply.
    pub fn start(path: &Path, strength: Strength, patience: Patience, wake: Wake) -> Self {
        let (requests, inputs) = mpsc::channel();
        let (reply, replies) = mpsc::channel();
        let path = path.to_path_buf();
        let thread = {
            let reply = reply.clone();
            let wake = wake.clone();
            let output = requests.clone();
            WorkerThread::spawn("engine", move || {
                serve(&path, strength, patience, output, &inputs, &reply, &wake);
            })
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
            tickets: AtomicU64::new(0),
            thread,
        }
    }

    /// Asks for the engine's move after `moves` from `start`; the answer comes as
    /// `Reply::BestMove` with `ply` = `moves.len()`.
    pub fn think(&self, start: &Chess, moves: &[Move]) {
        self.think_on_clock(start, moves, None);
    }

    /// `think`, with the game's clock: the engine then manages its own time from it (and
    /// may take up to its time left, plus the margin, before it is taken for hung).
    pub fn think_on_clock(&self, start: &Chess, moves: &[Move], clock: Option<EngineClock>) {
        self.search(start, moves, JobKind::Move(clock));
    }

    /// Asks for the best move after `moves` from `start`, as a `Reply::Hint`.
    pub fn hint(&self, start: &Chess, moves: &[Move]) -> Ticket {
        let ticket = self.ticket();
        self.search(start, moves, JobKind::Hint(ticket));
        ticket
    }

    /// Analyses the position after `moves` from `start`, showing the best `lines` (1 to
    /// `MAX_LINES`) in `Reply::Analysis` as they deepen, until `stop` or another request.
    /// A running analysis is stopped for it.
    pub fn analyse(&self, start: &Chess, moves: &[Move], lines: u8) -> Ticket {
        let ticket = self.ticket();
        let lines = u16::from(lines.clamp(1, MAX_LINES));
        self.search(start, moves, JobKind::Analysis { ticket, lines });
        ticket
    }

    /// Evaluates the position after `moves` from `start`, searched to `limit`, as a
    /// `Reply::Evaluation`. Evaluations wait their turn behind each other: asked for a
    /// game's positions at once, the engine goes from one to the next without a pause.
    pub fn evaluate(&self, start: &Chess, moves: &[Move], limit: SearchLimit) -> Ticket {
        let ticket = self.ticket();
        self.search(start, moves, JobKind::Evaluation { ticket, limit });
        ticket
    }

    /// Ends the analysis, if one is running or waiting.
    pub fn stop(&self) {
        // A worker that has ended has said why already.
        drop(self.requests.send(Input::Asked(Request::Stop)));
    }

    fn ticket(&self) -> Ticket {
        Ticket(self.tickets.fetch_add(1, Ordering::Relaxed))
    }

    fn search(&self, start: &Chess, moves: &[Move], kind: JobKind) {
        drop(self.requests.send(Input::Asked(Request::Search(Job {
            start: start.clone(),
            moves: moves.to_vec(),
            kind,
        }))));
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        drop(self.requests.send(Input::Asked(Request::Quit)));
        if let Some(thread) = &mut self.thread {
            thread.wait();
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

/// Chess960 when the start's castling rights need it: a rook off the a/h file, or a king
/// off e. A standard game is played in standard mode whatever mode its position was made in.
pub fn castling_mode(start: &Chess) -> CastlingMode {
    CastlingMode::detect(&start.to_setup(EnPassantMode::Legal))
}

fn serve(
    path: &Path,
    strength: Strength,
    patience: Patience,
    output: Sender<Input>,
    inputs: &Receiver<Input>,
    reply: &Sender<Reply>,
    wake: &Wake,
) {
    let heard =
        move |line: Option<String>| output.send(line.map_or(Input::Closed, Input::Said)).is_ok();
    let process = match EngineProcess::start(path, heard) {
        Ok(process) => process,
        Err(fault) => {
            drop(reply.send(Reply::Fault(fault)));
            wake();
            return;
        }
    };
    let mut worker = Worker {
        process,
        inputs,
        reply,
        wake,
        patience,
        nodes: None,
        offers: Offers::default(),
        chess960: false,
        lines: 1,
        queue: VecDeque::new(),
        search: None,
    };
    if let Err(fault) = worker.run(strength) {
        drop(reply.send(Reply::Fault(fault)));
        wake();
    }
    worker.process.stop();
}

/// The options the engine offers that the worker sets per search.
#[derive(Default)]
struct Offers {
    chess960: bool,
    multipv: Option<(i64, i64)>,
}

/// The search the engine is on.
struct Search {
    job: Job,
    /// The position searched (after the job's moves).
    position: Chess,
    /// When the engine must have said `bestmove`: the time, what it was asked, the wait.
    deadline: Option<(Instant, &'static str, Duration)>,
    /// An analysis told to stop, whose `bestmove` ends it.
    stopping: bool,
    /// An analysis's best lines so far, by rank.
    lines: Vec<AnalysisLine>,
    unsent: bool,
    /// When lines were last sent (or the search began).
    sent_at: Instant,
    began: Instant,
}

struct Worker<'a> {
    process: EngineProcess,
    inputs: &'a Receiver<Input>,
    reply: &'a Sender<Reply>,
    wake: &'a Wake,
    patience: Patience,
    /// The node limit of each move search, if the strength sets one.
    nodes: Option<u64>,
    offers: Offers,
    /// What `UCI_Chess960` and `MultiPV` are set to now.
    chess960: bool,
    lines: u16,
    /// Searches asked for and not yet begun, in order.
    queue: VecDeque<Job>,
    search: Option<Search>,
}

impl Worker<'_> {
    fn run(&mut self, strength: Strength) -> Result<(), EngineFault> {
        if !self.begin_conversation(strength)? {
            return Ok(());
        }
        loop {
            if self.search.is_none()
                && let Some(job) = self.queue.pop_front()
            {
                self.begin(job)?;
                continue;
            }
            let wait_until = self.wait_until();
            let input = match wait_until {
                Some(at) => self
                    .inputs
                    .recv_timeout(at.saturating_duration_since(Instant::now())),
                None => self
                    .inputs
                    .recv()
                    .map_err(|_| RecvTimeoutError::Disconnected),
            };
            match input {
                Ok(Input::Asked(Request::Quit)) => return Ok(()),
                Ok(Input::Asked(request)) => self.take(request)?,
                Ok(Input::Said(line)) => self.hear(&line)?,
                Ok(Input::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.process.exited());
                }
                Err(RecvTimeoutError::Timeout) => self.on_time()?,
            }
            // An engine that talks without pause still gets its lines shown.
            if self
                .flush_at()
                .is_some_and(|at| at + ANALYSIS_INTERVAL <= Instant::now())
            {
                self.send_lines();
            }
        }
    }

    /// `uci`, the strength's options, `isready`; false if told to quit meanwhile.
    fn begin_conversation(&mut self, strength: Strength) -> Result<bool, EngineFault> {
        self.process.say(&UciMessage::Uci)?;
        let mut name = String::new();
        let mut author = String::new();
        let mut options = Vec::<UciOptionConfig>::new();
        let answered = self.wait_for("uci", |message| match message {
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
        if !answered {
            return Ok(false);
        }
        self.offers = Offers {
            chess960: options.iter().any(
                |o| matches!(o, UciOptionConfig::Check { name, .. } if name == "UCI_Chess960"),
            ),
            multipv: options.iter().find_map(|o| match o {
                UciOptionConfig::Spin { name, min, max, .. } if name == "MultiPV" => {
                    Some((min.unwrap_or(1), max.unwrap_or(1)))
                }
                _ => None,
            }),
        };
        let plan = strength.plan(&options);
        self.nodes = plan.nodes;
        for option in &plan.options {
            self.process.say(option)?;
        }
        self.process.say(&UciMessage::IsReady)?;
        if !self.wait_for("isready", |m| m == UciMessage::ReadyOk)? {
            return Ok(false);
        }
        drop(self.reply.send(Reply::Ready { name, author }));
        (self.wake)();
        Ok(true)
    }

    /// Reads lines until `done` says so (true), or the owner says quit (false); requests
    /// meanwhile wait their turn.
    fn wait_for(
        &mut self,
        asked: &str,
        mut done: impl FnMut(UciMessage) -> bool,
    ) -> Result<bool, EngineFault> {
        let waited = self.patience.start;
        let deadline = Instant::now() + waited;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.inputs.recv_timeout(left) {
                Ok(Input::Said(line)) => {
                    if let Some(message) = self.process.understand(&line)
                        && done(message)
                    {
                        return Ok(true);
                    }
                }
                Ok(Input::Asked(Request::Quit)) => return Ok(false),
                Ok(Input::Asked(request)) => self.take(request)?,
                Ok(Input::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.process.exited());
                }
                Err(RecvTimeoutError::Timeout) => return Err(self.process.silence(asked, waited)),
            }
        }
    }

    /// A request from the owner: a search waits its turn, but an analysis gives way.
    fn take(&mut self, request: Request) -> Result<(), EngineFault> {
        match request {
            Request::Search(job) => {
                let replaces = job.is_analysis();
                if replaces {
                    self.queue.retain(|waiting| !waiting.is_analysis());
                }
                let interrupted = self.stop_analysis()?;
                self.queue.push_back(job);
                // A move or hint asked during an analysis: the analysis goes on after it.
                if let Some(analysis) = interrupted.filter(|_| !replaces) {
                    self.queue.push_back(analysis);
                }
            }
            Request::Stop => {
                self.queue.retain(|waiting| !waiting.is_analysis());
                self.stop_analysis()?;
            }
            Request::Quit => {}
        }
        Ok(())
    }

    /// Tells a running analysis to stop; its `bestmove` then ends it. Returns its job.
    fn stop_analysis(&mut self) -> Result<Option<Job>, EngineFault> {
        let Some(search) = &mut self.search else {
            return Ok(None);
        };
        if !search.job.is_analysis() || search.stopping {
            return Ok(None);
        }
        search.stopping = true;
        let margin = self.patience.margin;
        search.deadline = Some((Instant::now() + margin, "stop", margin));
        let job = search.job.clone();
        self.process.say(&UciMessage::Stop)?;
        Ok(Some(job))
    }

    /// Sets the engine up for `job` and starts its search.
    fn begin(&mut self, job: Job) -> Result<(), EngineFault> {
        let mut position = job.start.clone();
        for &mv in &job.moves {
            position.play_unchecked(mv);
        }
        let kind = job.kind;
        if position.legal_moves().is_empty() {
            // Mate or stalemate: nothing to search, and engines differ in how they say so.
            let ply = job.moves.len();
            let line = AnalysisLine::of_final(&position);
            let reply = match kind {
                JobKind::Analysis { ticket, .. } => Some(Reply::Analysis {
                    ticket,
                    ply,
                    lines: vec![line],
                }),
                JobKind::Evaluation { ticket, .. } => Some(Reply::Evaluation {
                    ticket,
                    ply,
                    line: Some(line),
                    took: Duration::ZERO,
                }),
                JobKind::Move(_) | JobKind::Hint(_) => None,
            };
            if let Some(reply) = reply {
                drop(self.reply.send(reply));
                (self.wake)();
                return Ok(());
            }
        }
        let mode = castling_mode(&job.start);
        let set = |name: &str, value: String| UciMessage::SetOption {
            name: name.to_owned(),
            value: Some(value),
        };
        if self.offers.chess960 && mode.is_chess960() != self.chess960 {
            self.chess960 = mode.is_chess960();
            self.process
                .say(&set("UCI_Chess960", self.chess960.to_string()))?;
        }
        let wanted = match kind {
            JobKind::Analysis { lines, .. } => lines,
            JobKind::Move(_) | JobKind::Hint(_) | JobKind::Evaluation { .. } => 1,
        };
        if let Some((min, max)) = self.offers.multipv {
            let wanted = i64::from(wanted).clamp(min, max.max(min)) as u16;
            if wanted != self.lines {
                self.lines = wanted;
                self.process.say(&set("MultiPV", wanted.to_string()))?;
            }
        }
        let startpos = job.start == Chess::default() && !mode.is_chess960();
        self.process.say(&UciMessage::Position {
            startpos,
            fen: (!startpos).then(|| Fen::from_position(&job.start, EnPassantMode::Legal)),
            moves: job
                .moves
                .iter()
                .map(|&mv| UciMove::from_move(mv, mode))
                .collect(),
        })?;
        let Patience {
            movetime, margin, ..
        } = self.patience;
        let nodes = self.nodes.map(UciSearchControl::nodes);
        // How long the engine may think; it must have said `bestmove` a margin later.
        // On a clock it also thinks no longer than its move time (`movetime` beside the
        // clock: an engine stops at whichever ends first), so a weak level at 5+3 does not
        // keep the player waiting half a minute, and a short clock is never overstepped.
        let mut cap = None;
        let (time_control, search_control, thinking) = match kind {
            JobKind::Analysis { .. } => (Some(UciTimeControl::Infinite), None, None),
            // A depth or node limit has no time to it: no deadline but the engine's exit.
            JobKind::Evaluation { limit, .. } => match limit {
                SearchLimit::Depth(depth) => (None, Some(UciSearchControl::depth(depth)), None),
                SearchLimit::Nodes(nodes) => (None, Some(UciSearchControl::nodes(nodes)), None),
                SearchLimit::MoveTime(time) => {
                    (Some(UciTimeControl::MoveTime(time)), None, Some(time))
                }
            },
            // A node budget and a clock: the engine stops at whichever ends first.
            JobKind::Move(Some(clock)) => {
                let left = clock.left(position.turn());
                if nodes.is_none() {
                    cap = Some(movetime);
                }
                let thinking = cap.map_or(left, |cap| cap.min(left));
                (Some(clock.time_control()), nodes, Some(thinking))
            }
            JobKind::Move(None) | JobKind::Hint(_) => match nodes {
                Some(nodes) => (None, Some(nodes), Some(Duration::ZERO)),
                None => (
                    Some(UciTimeControl::MoveTime(movetime)),
                    None,
                    Some(movetime),
                ),
            },
        };
        let deadline = thinking.map(|thinking| thinking + margin);
        let go = UciMessage::Go {
            time_control,
            search_control,
        };
        match cap {
            Some(cap) => self
                .process
                .say_text(&format!("{go} movetime {}", cap.as_millis()))?,
            None => self.process.say(&go)?,
        }
        self.search = Some(Search {
            job,
            position,
            deadline: deadline.map(|waited| (Instant::now() + waited, "go", waited)),
            stopping: false,
            lines: Vec::new(),
            unsent: false,
            // The first lines go out as they come.
            sent_at: Instant::now() - ANALYSIS_INTERVAL,
            began: Instant::now(),
        });
        Ok(())
    }

    /// A line from the engine.
    fn hear(&mut self, line: &str) -> Result<(), EngineFault> {
        let message = self.process.understand(line);
        let Some(search) = &mut self.search else {
            return Ok(());
        };
        match message {
            Some(UciMessage::Info(info)) => {
                let wanted = match search.job.kind {
                    JobKind::Analysis { lines, .. } => lines,
                    JobKind::Evaluation { .. } => 1,
                    JobKind::Move(_) | JobKind::Hint(_) => return Ok(()),
                };
                if search.stopping {
                    return Ok(());
                }
                if let Some(line) = AnalysisLine::from_info(&info, &search.position)
                    && line.rank <= wanted
                {
                    match search.lines.binary_search_by_key(&line.rank, |l| l.rank) {
                        Ok(i) => search.lines[i] = line,
                        Err(i) => search.lines.insert(i, line),
                    }
                    // An evaluation's line goes out once, when its search ends.
                    search.unsent = search.job.is_analysis();
                }
                Ok(())
            }
            Some(UciMessage::BestMove { best_move, .. }) => self.finish(Some(best_move)),
            // `bestmove (none)`, which engines say where there is no move.
            None if line.trim_start().starts_with("bestmove") => self.finish(None),
            _ => Ok(()),
        }
    }

    /// The engine said `bestmove`: the search is over.
    fn finish(&mut self, best: Option<UciMove>) -> Result<(), EngineFault> {
        if self
            .search
            .as_ref()
            .is_some_and(|s| !s.stopping && s.unsent)
        {
            self.send_lines();
        }
        let Some(search) = self.search.take() else {
            return Ok(());
        };
        let ply = search.job.moves.len();
        let mv = match search.job.kind {
            JobKind::Analysis { .. } => return Ok(()),
            JobKind::Evaluation { ticket, .. } => {
                drop(self.reply.send(Reply::Evaluation {
                    ticket,
                    ply,
                    line: search.lines.into_iter().next(),
                    took: search.began.elapsed(),
                }));
                (self.wake)();
                return Ok(());
            }
            JobKind::Move(_) | JobKind::Hint(_) => best
                .and_then(|uci| uci.to_move(&search.position).ok())
                .ok_or_else(|| EngineFault::IllegalMove {
                    uci: best.map_or_else(|| "(none)".into(), |uci| uci.to_string()),
                    fen: Fen::from_position(&search.position, EnPassantMode::Legal).to_string(),
                })?,
        };
        let reply = match search.job.kind {
            JobKind::Hint(ticket) => Reply::Hint { ticket, ply, mv },
            _ => Reply::BestMove { ply, mv },
        };
        drop(self.reply.send(reply));
        (self.wake)();
        Ok(())
    }

    /// The earliest of the search's deadline and the next analysis reply.
    fn wait_until(&self) -> Option<Instant> {
        let deadline = self.search.as_ref().and_then(|s| s.deadline).map(|d| d.0);
        match (deadline, self.flush_at()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// When the analysis's new lines are due to be sent, if it has any.
    fn flush_at(&self) -> Option<Instant> {
        let search = self.search.as_ref()?;
        (search.unsent && !search.stopping).then_some(search.sent_at + ANALYSIS_INTERVAL)
    }

    /// Nothing came in time: lines due are sent, a search past its deadline is a fault.
    fn on_time(&mut self) -> Result<(), EngineFault> {
        let now = Instant::now();
        if let Some((at, asked, waited)) = self.search.as_ref().and_then(|s| s.deadline)
            && at <= now
        {
            return Err(self.process.silence(asked, waited));
        }
        if self.flush_at().is_some_and(|at| at <= now) {
            self.send_lines();
        }
        Ok(())
    }

    fn send_lines(&mut self) {
        let Some(search) = &mut self.search else {
            return;
        };
        let JobKind::Analysis { ticket, .. } = search.job.kind else {
            return;
        };
        search.unsent = false;
        search.sent_at = Instant::now();
        drop(self.reply.send(Reply::Analysis {
            ticket,
            ply: search.job.moves.len(),
            lines: search.lines.clone(),
        }));
        (self.wake)();
    }
}
