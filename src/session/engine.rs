//! The session's engines: the seat of the one playing a side, and the adviser at full
//! strength that gives hints and analyses the position shown.

use std::path::{Path, PathBuf};
use std::time::Instant;

use shakmaty::{Color, Move};

use crate::background::Wake;
use crate::engine::{
    Adviser, Analysis, EngineClock, EnginePlay, Patience, Strength, TAKEBACK_WAIT_WORDS,
    find_stockfish,
};
use crate::game::{GameRecord, GameTags};
use crate::snapshot::Snapshot;

/// The engine at `path` (`stockfish`: looked for on PATH and in /usr/games), or a notice
/// saying there is none.
pub(super) fn find_engine(path: &str) -> Result<PathBuf, String> {
    let found = if path.trim() == "stockfish" {
        find_stockfish()
    } else {
        Some(PathBuf::from(path.trim()))
    };
    found.filter(|p| p.is_file()).ok_or_else(|| {
        format!(
            "No engine at '{}' (install Stockfish, or give the path of a UCI engine).",
            path.trim()
        )
    })
}

/// The engine's seat: the engine playing one side, if one is, and what it last said.
#[derive(Default)]
pub struct EngineSeat {
    engine: Option<EnginePlay>,
    /// What the engine last said: its name, or its fault.
    note: String,
}

/// What the engine said when heard.
pub(super) struct Heard {
    /// Its lines, in the command line's words.
    pub lines: Vec<String>,
    /// The move it gave, which the board must now await.
    pub expect: Option<Move>,
}

impl EngineSeat {
    /// Starts the engine at `path` playing `side`; it looks at the game at once.
    pub(super) fn start(
        &mut self,
        path: &Path,
        side: Color,
        strength: Strength,
        wake: Wake,
        clock: Option<EngineClock>,
        snapshot: &Snapshot,
    ) {
        let mut engine = EnginePlay::start(path, side, strength, wake);
        engine.set_clock(clock);
        engine.on_snapshot(snapshot);
        self.note = "starting…".into();
        self.engine = Some(engine);
    }

    /// The engine leaves; returns whether one was seated (a move it gave is then no longer
    /// awaited).
    pub(super) fn stop(&mut self) -> bool {
        let left = self.engine.take().is_some();
        if left {
            self.note.clear();
        }
        left
    }

    pub fn engine(&self) -> Option<&EnginePlay> {
        self.engine.as_ref()
    }

    pub fn note(&self) -> &str {
        &self.note
    }

    /// A game's tags with the engine named on its side.
    pub fn tags(&self) -> GameTags {
        EnginePlay::tags(self.engine.as_ref())
    }

    /// A change: the engine asks itself for a move when it is its turn.
    pub(super) fn on_snapshot(&mut self, snapshot: &Snapshot, clock: Option<EngineClock>) {
        if let Some(engine) = &mut self.engine {
            engine.set_clock(clock);
            engine.on_snapshot(snapshot);
        }
    }

    /// What the engine said since the last time.
    pub(super) fn hear(
        &mut self,
        snapshot: &Snapshot,
        clock: Option<EngineClock>,
        now: Instant,
    ) -> Heard {
        let Some(engine) = &mut self.engine else {
            return Heard {
                lines: Vec::new(),
                expect: None,
            };
        };
        // The engine thinks by its clock, when the game has one.
        engine.set_clock(clock);
        let (lines, expect) = engine.hear(snapshot, now);
        if let Some(line) = lines.last() {
            self.note = line.clone();
        }
        // The wait after a takeback is over: by a second takeback, or by the engine's turn.
        if self.note == TAKEBACK_WAIT_WORDS && !engine.is_holding() {
            self.note.clear();
        }
        Heard { lines, expect }
    }
}

/// The adviser: an engine at full strength for hints and analysis, started when first
/// asked.
#[derive(Default)]
pub struct Advice {
    adviser: Option<Adviser>,
    /// How many best lines to analyse, while the analysis is on.
    analysis_lines: Option<u8>,
    /// The game's moves when a hint was asked: it is shown while they are the same.
    hint_asked: Option<Vec<Move>>,
}

impl Advice {
    /// The adviser, started (or started again after a fault) from the engine at `path`.
    fn adviser(&mut self, path: &str, wake: &Wake) -> Result<&mut Adviser, String> {
        if self.adviser.as_ref().is_none_or(|a| a.fault().is_some()) {
            let path = find_engine(path)?;
            self.adviser = Some(Adviser::start(&path, Patience::default(), wake.clone()));
        }
        self.adviser
            .as_mut()
            .ok_or_else(|| "The adviser could not start.".to_owned())
    }

    /// Asks for the best move for the side to move in `game`.
    pub(super) fn ask_hint(
        &mut self,
        engine_path: &str,
        game: &GameRecord,
        wake: &Wake,
    ) -> Result<(), String> {
        self.adviser(engine_path, wake)?
            .hint(&game.start, &game.moves);
        self.hint_asked = Some(game.moves.clone());
        Ok(())
    }

    /// Analyses each position shown with `lines` best lines, or stops analysing.
    pub(super) fn set_analysis(
        &mut self,
        engine_path: &str,
        lines: Option<u8>,
        game: &GameRecord,
        wake: &Wake,
    ) -> Result<(), String> {
        match lines {
            Some(lines) => {
                self.adviser(engine_path, wake)?;
                self.analysis_lines = Some(lines.clamp(1, 3));
                self.follow(game);
            }
            None => {
                self.analysis_lines = None;
                if let Some(adviser) = &mut self.adviser {
                    adviser.stop_analysis();
                }
            }
        }
        Ok(())
    }

    pub fn analysis_lines(&self) -> Option<u8> {
        self.analysis_lines
    }

    /// The analysis of the position after `ply` moves, once the engine has said anything.
    pub fn analysis(&self, ply: usize) -> Option<&Analysis> {
        self.analysis_lines?;
        let analysis = self.adviser.as_ref()?.analysis()?;
        (analysis.ply == ply).then_some(analysis)
    }

    /// The move to advise in `game`: the hint asked for, or the analysis's best move.
    pub fn advice(&self, game: &GameRecord) -> Option<Move> {
        self.hint(game)
            .or_else(|| Some(*self.analysis(game.moves.len())?.lines.first()?.pv.first()?))
    }

    /// The hint asked for in `game`'s position, once the engine has given it.
    pub fn hint(&self, game: &GameRecord) -> Option<Move> {
        self.adviser
            .as_ref()
            .filter(|_| self.hint_asked.is_some())
            .and_then(|a| a.hint_for(&game.start, &game.moves))
    }

    /// The adviser's name, or what went wrong with it.
    pub fn note(&self) -> Option<String> {
        let adviser = self.adviser.as_ref()?;
        Some(match adviser.fault() {
            Some(fault) => format!("{fault} (Hint or Analyse starts it again)"),
            None => adviser.name().unwrap_or("starting…").to_owned(),
        })
    }

    /// A new position: a hint for the last one no longer counts; the analysis moves on.
    pub(super) fn follow(&mut self, game: &GameRecord) {
        if self.hint_asked.as_ref() != Some(&game.moves) {
            self.hint_asked = None;
        }
        let Some(adviser) = &mut self.adviser else {
            return;
        };
        if let Some(lines) = self.analysis_lines {
            adviser.analyse(&game.start, &game.moves, lines);
        }
    }

    /// Takes in what the adviser said; returns a notice if it has just failed.
    pub(super) fn hear(&mut self) -> Option<String> {
        let adviser = self.adviser.as_mut()?;
        let faulted = adviser.fault().is_some();
        adviser.poll();
        if faulted {
            return None;
        }
        let fault = adviser.fault()?;
        let notice =
            format!("The analysing engine failed: {fault} (Hint or Analyse starts it again)");
        self.analysis_lines = None;
        Some(notice)
    }
}
