//! The session's engines: the one playing a side, and the adviser at full strength that
//! gives hints and analyses the position shown.

use std::time::Instant;

use super::Session;
use crate::connection::Command;
use crate::engine::{
    Adviser, Analysis, EngineClock, EnginePlay, Patience, Strength, TAKEBACK_WAIT_WORDS,
    find_stockfish,
};

impl Session {
    /// Starts `path` (or Stockfish, for `stockfish`) playing `side` of the live game.
    pub fn start_engine(&mut self, path: &str, side: shakmaty::Color, strength: Strength) {
        self.stop_engine();
        let Some(path) = self.find_engine(path) else {
            return;
        };
        let mut engine = EnginePlay::start(&path, side, strength, self.wake.clone());
        engine.set_clock(EngineClock::of(
            &self.clocks,
            self.board_now(Instant::now()),
        ));
        engine.on_snapshot(&self.snapshot);
        self.engine_note = "starting…".into();
        self.engine = Some(engine);
    }

    /// The engine leaves the game; any move it gave is no longer awaited.
    pub fn stop_engine(&mut self) {
        if self.engine.take().is_some() {
            self.send(Command::Expect(None));
            self.engine_note.clear();
        }
    }

    pub fn engine(&self) -> Option<&EnginePlay> {
        self.engine.as_ref()
    }

    pub fn engine_note(&self) -> &str {
        &self.engine_note
    }

    pub(super) fn hear_engine(&mut self, now: Instant) {
        // The engine thinks by its clock, when the game has one.
        let clock = EngineClock::of(&self.clocks, self.board_now(now));
        let (Some(engine), Some(live)) = (&mut self.engine, self.source.live()) else {
            return;
        };
        engine.set_clock(clock);
        let (lines, expect) = engine.hear(&self.snapshot, now);
        if let Some(mv) = expect {
            live.connection.send(Command::Expect(Some(mv)));
        }
        for line in lines {
            if line.starts_with("engine fault") {
                self.notice = Some(format!("{line} (the game is kept; Play starts it again)"));
            }
            self.engine_note = line;
        }
        // The wait after a takeback is over: by a second takeback, or by the engine's turn.
        if self.engine_note == TAKEBACK_WAIT_WORDS && !engine.is_holding() {
            self.engine_note.clear();
        }
    }

    /// The engine at `path` (`stockfish`: looked for on PATH and in /usr/games), or a
    /// notice saying there is none.
    pub(super) fn find_engine(&mut self, path: &str) -> Option<std::path::PathBuf> {
        let found = if path.trim() == "stockfish" {
            find_stockfish()
        } else {
            Some(std::path::PathBuf::from(path.trim()))
        };
        let found = found.filter(|p| p.is_file());
        if found.is_none() {
            self.notice = Some(format!(
                "No engine at '{}' (install Stockfish, or give the path of a UCI engine).",
                path.trim()
            ));
        }
        found
    }

    // ----- hints and analysis -----

    /// The adviser, started (or started again after a fault) from the engine at `path`.
    pub(super) fn adviser(&mut self, path: &str) -> Option<&mut Adviser> {
        if self.adviser.as_ref().is_none_or(|a| a.fault().is_some()) {
            let path = self.find_engine(path)?;
            self.adviser = Some(Adviser::start(
                &path,
                Patience::default(),
                self.wake.clone(),
            ));
        }
        self.adviser.as_mut()
    }

    /// Asks for the best move for the side to move in the position shown.
    pub fn ask_hint(&mut self, engine_path: &str) {
        let game = self.snapshot.game.clone();
        if let Some(adviser) = self.adviser(engine_path) {
            adviser.hint(&game.start, &game.moves);
            self.hint_asked = Some(game.moves);
        }
    }

    /// Analyses each position shown with `lines` best lines, or stops analysing.
    pub fn set_analysis(&mut self, engine_path: &str, lines: Option<u8>) {
        match lines {
            Some(lines) => {
                if self.adviser(engine_path).is_some() {
                    self.analysis_lines = Some(lines.clamp(1, 3));
                    self.follow_with_adviser();
                }
            }
            None => {
                self.analysis_lines = None;
                if let Some(adviser) = &mut self.adviser {
                    adviser.stop_analysis();
                }
            }
        }
    }

    pub fn analysis_lines(&self) -> Option<u8> {
        self.analysis_lines
    }

    /// The analysis of the position shown, once the engine has said anything about it.
    pub fn analysis(&self) -> Option<&Analysis> {
        self.analysis_lines?;
        let analysis = self.adviser.as_ref()?.analysis()?;
        (analysis.ply == self.snapshot.game.moves.len()).then_some(analysis)
    }

    /// The move to advise on the board: the hint asked for, or the analysis's best move.
    pub fn advice(&self) -> Option<shakmaty::Move> {
        let game = &self.snapshot.game;
        let hint = self
            .adviser
            .as_ref()
            .filter(|_| self.hint_asked.is_some())
            .and_then(|a| a.hint_for(&game.start, &game.moves));
        hint.or_else(|| Some(*self.analysis()?.lines.first()?.pv.first()?))
    }

    /// The adviser's name, or what went wrong with it.
    pub fn adviser_note(&self) -> Option<String> {
        let adviser = self.adviser.as_ref()?;
        Some(match adviser.fault() {
            Some(fault) => format!("{fault} (Hint or Analyse starts it again)"),
            None => adviser.name().unwrap_or("starting…").to_owned(),
        })
    }

    /// A new position: a hint for the last one no longer counts; the analysis moves on.
    pub(super) fn follow_with_adviser(&mut self) {
        let game = &self.snapshot.game;
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

    pub(super) fn hear_adviser(&mut self) {
        let Some(adviser) = &mut self.adviser else {
            return;
        };
        let faulted = adviser.fault().is_some();
        adviser.poll();
        if !faulted && let Some(fault) = adviser.fault() {
            self.notice = Some(format!(
                "The analysing engine failed: {fault} (Hint or Analyse starts it again)"
            ));
            self.analysis_lines = None;
        }
    }
}
