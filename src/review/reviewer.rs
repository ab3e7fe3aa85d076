//! Reviews a game with a UCI engine on its worker thread: every position is queued at once,
//! so the engine goes from one to the next without a pause, and the evaluations come back
//! as they are found (the owner polls, or waits).

use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

use super::GameReview;
use crate::background::Wake;
use crate::engine::{Engine, EngineFault, Patience, Reply, SearchLimit, Strength, Ticket};
use crate::game::GameRecord;

/// Hash for a review: enough for a game's positions, small beside any machine's memory.
const HASH_MB: u32 = 64;

/// A review under way; dropping it cancels it (the engine is told to quit).
pub struct Reviewer {
    engine: Engine,
    engine_name: Option<String>,
    plies: HashMap<Ticket, usize>,
    review: GameReview,
    started: Instant,
    searching: Duration,
    fault: Option<EngineFault>,
}

impl Reviewer {
    /// Starts the engine at `path` on every position of `game`, each searched to `limit`,
    /// with the machine's cores; `wake` is called after every evaluation.
    pub fn start(path: &Path, game: &GameRecord, limit: SearchLimit, wake: Wake) -> Self {
        let threads = std::thread::available_parallelism()
            .map_or(1, std::num::NonZeroUsize::get)
            .min(usize::from(u16::MAX));
        let strength = Strength::Full {
            threads: u16::try_from(threads).unwrap_or(1),
            hash_mb: HASH_MB,
        };
        let patience = Patience {
            // A depth or node limit has no deadline; a move time has its own and this.
            margin: Duration::from_secs(10),
            ..Patience::default()
        };
        let engine = Engine::start(path, strength, patience, wake);
        let mut plies = HashMap::new();
        for ply in 0..=game.moves.len() {
            let ticket = engine.evaluate(&game.start, &game.moves[..ply], limit);
            plies.insert(ticket, ply);
        }
        Self {
            engine,
            engine_name: None,
            plies,
            review: GameReview::new(game.moves.len()),
            started: Instant::now(),
            searching: Duration::ZERO,
            fault: None,
        }
    }

    /// Takes what the engine said; true if anything changed.
    pub fn poll(&mut self) -> bool {
        let mut changed = false;
        while let Ok(reply) = self.engine.replies.try_recv() {
            changed |= self.take(reply);
        }
        changed
    }

    /// Waits up to `timeout` for the engine's next word and takes it and what follows.
    pub fn wait(&mut self, timeout: Duration) -> bool {
        match self.engine.replies.recv_timeout(timeout) {
            Ok(reply) => {
                let changed = self.take(reply);
                self.poll() || changed
            }
            Err(_) => false,
        }
    }

    fn take(&mut self, reply: Reply) -> bool {
        match reply {
            Reply::Ready { name, .. } => {
                self.engine_name = Some(name);
                // The engine's time starts with its first search.
                self.started = Instant::now();
                false
            }
            Reply::Evaluation {
                ticket, line, took, ..
            } => {
                self.searching += took;
                match self.plies.remove(&ticket) {
                    Some(ply) => {
                        self.review.set(ply, line);
                        true
                    }
                    None => false,
                }
            }
            Reply::Fault(fault) => {
                self.fault = Some(fault);
                true
            }
            Reply::BestMove { .. } | Reply::Hint { .. } | Reply::Analysis { .. } => false,
        }
    }

    /// The review so far: the positions evaluated have their scores.
    pub fn review(&self) -> &GameReview {
        &self.review
    }

    /// Positions evaluated, and all the game's positions.
    pub fn progress(&self) -> (usize, usize) {
        (self.review.evaluated(), self.review.positions())
    }

    /// Every position evaluated (or the engine failed).
    pub fn is_finished(&self) -> bool {
        self.plies.is_empty() || self.fault.is_some()
    }

    /// The engine's name, once it said it.
    pub fn engine_name(&self) -> Option<&str> {
        self.engine_name.as_deref()
    }

    /// What went wrong with the engine, if anything.
    pub fn fault(&self) -> Option<&EngineFault> {
        self.fault.as_ref()
    }

    /// The time the engine spent searching, and the time since it began: how busy it was
    /// kept.
    pub fn busy(&self) -> (Duration, Duration) {
        (self.searching, self.started.elapsed())
    }
}
