//! Advice for the player from an engine at full strength, a process apart from the one
//! that plays (whose Skill Level would make its advice weak): a hint, the best move for the
//! side to move, and an analysis, the best lines with their scores, kept up to date.

use std::path::Path;

use shakmaty::{Chess, Move, Position};

use super::Strength;
use super::analysis::AnalysisLine;
use super::fault::EngineFault;
use super::worker::{Engine, Patience, Reply, Ticket};
use crate::background::Wake;

/// The latest lines of the analysis asked for last.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The moves of the game the analysed position comes after.
    pub ply: usize,
    /// Best first; each line's score is from White's point of view.
    pub lines: Vec<AnalysisLine>,
}

/// A position asked about: where, and which request asked.
struct Asked {
    ticket: Ticket,
    start: Chess,
    moves: Vec<Move>,
}

impl Asked {
    fn is(&self, start: &Chess, moves: &[Move]) -> bool {
        self.moves == moves && self.start == *start
    }
}

pub struct Adviser {
    engine: Engine,
    name: Option<String>,
    fault: Option<EngineFault>,
    analysed: Option<(Asked, u8)>,
    analysis: Option<Analysis>,
    hinted: Option<Asked>,
    hint: Option<Move>,
}

impl Adviser {
    /// Starts the engine at `path` at full strength; `wake` is called after every reply.
    pub fn start(path: &Path, patience: Patience, wake: Wake) -> Self {
        Self {
            engine: Engine::start(path, Strength::Level(20), patience, wake),
            name: None,
            fault: None,
            analysed: None,
            analysis: None,
            hinted: None,
            hint: None,
        }
    }

    /// Analyses the position after `moves` from `start` with `lines` best lines (1 to 3),
    /// in place of any analysis before; asking again for the same changes nothing.
    pub fn analyse(&mut self, start: &Chess, moves: &[Move], lines: u8) {
        if self
            .analysed
            .as_ref()
            .is_some_and(|(asked, n)| *n == lines && asked.is(start, moves))
        {
            return;
        }
        let ticket = self.engine.analyse(start, moves, lines);
        self.analysed = Some((
            Asked {
                ticket,
                start: start.clone(),
                moves: moves.to_vec(),
            },
            lines,
        ));
        self.analysis = None;
    }

    /// Ends the analysis; its last lines are forgotten.
    pub fn stop_analysis(&mut self) {
        self.engine.stop();
        self.analysed = None;
        self.analysis = None;
    }

    /// The latest lines of the analysis running, once the engine has said any.
    pub fn analysis(&self) -> Option<&Analysis> {
        self.analysis.as_ref()
    }

    /// Asks for the best move after `moves` from `start` (nothing where the game is over).
    pub fn hint(&mut self, start: &Chess, moves: &[Move]) {
        if self
            .hinted
            .as_ref()
            .is_some_and(|asked| asked.is(start, moves))
        {
            return;
        }
        self.hint = None;
        self.hinted = None;
        let mut position = start.clone();
        for &mv in moves {
            position.play_unchecked(mv);
        }
        if position.legal_moves().is_empty() {
            return;
        }
        let ticket = self.engine.hint(start, moves);
        self.hinted = Some(Asked {
            ticket,
            start: start.clone(),
            moves: moves.to_vec(),
        });
    }

    /// The hint for the position after `moves` from `start`, once it has come.
    pub fn hint_for(&self, start: &Chess, moves: &[Move]) -> Option<Move> {
        self.hint
            .filter(|_| self.hinted.as_ref().is_some_and(|a| a.is(start, moves)))
    }

    /// Takes in what the engine said; true if anything shown may have changed.
    pub fn poll(&mut self) -> bool {
        let mut changed = false;
        while let Ok(reply) = self.engine.replies.try_recv() {
            changed = true;
            match reply {
                Reply::Ready { name, .. } => self.name = Some(name),
                Reply::Analysis { ticket, ply, lines } => {
                    if self
                        .analysed
                        .as_ref()
                        .is_some_and(|(a, _)| a.ticket == ticket)
                    {
                        self.analysis = Some(Analysis { ply, lines });
                    }
                }
                Reply::Hint { ticket, mv, .. } => {
                    if self.hinted.as_ref().is_some_and(|a| a.ticket == ticket) {
                        self.hint = Some(mv);
                    }
                }
                // This engine is never asked for a move of its own, nor to evaluate.
                Reply::BestMove { .. } | Reply::Evaluation { .. } => {}
                Reply::Fault(fault) => self.fault = Some(fault),
            }
        }
        changed
    }

    /// The engine's name from its `id`, once it has started.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// What went wrong with the engine, if it failed: a new `Adviser` starts it again.
    pub fn fault(&self) -> Option<&EngineFault> {
        self.fault.as_ref()
    }
}
