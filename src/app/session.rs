//! What the app is showing and recording, apart from how it is drawn: the source, the
//! recognizer's latest view, the session's readings, recent activity and autosave. No egui
//! here, so all of it is tested without a window.

use std::sync::Arc;
use std::time::{Duration, Instant};

use shakmaty::Position;

use crate::clock::{FlagResult, GameClocks, TimeControl, flag_words};
use crate::connection::{Command, Snapshot, Update, connect};
use crate::dgt_serve::{VirtualDgtBoard, dgt_clock};
use crate::engine::{
    Adviser, Analysis, EngineClock, EnginePlay, Patience, Strength, TAKEBACK_WAIT_WORDS,
    find_stockfish,
};
use crate::pgn::autosave::{Autosave, Unfinished};
use crate::pgn::autosaver::Autosaver;
use crate::pgn::live::{LivePgn, session_pgn};
use crate::pgn::{PgnGame, read_games};
use crate::protocol::Protocol;
use crate::reading::{Millis, Orientation, TimedReading};
use crate::recognizer::health::SensorHealth;
use crate::recognizer::{Config, EventKind, Recognizer};

use super::activity::Activity;
use super::game_view::GameView;
use super::simulated::{SIMULATED_PROTOCOL, SimulatedBoard};
use super::source::{Live, Source};
use super::timeline::Timeline;

/// Called when something arrives that should be shown (a GUI repaints).
pub type Wake = Arc<dyn Fn() + Send + Sync>;

/// Sessions earlier runs left unsaved, the newest first, with the newest's games read.
pub struct RestoreOffer {
    pub sessions: Vec<Unfinished>,
    pub newest_games: Vec<PgnGame>,
}

impl RestoreOffer {
    fn of(sessions: Vec<Unfinished>) -> Option<Self> {
        let newest = sessions.first()?;
        let newest_games = read_games(newest.pgn.as_bytes())
            .into_iter()
            .filter_map(Result::ok)
            .collect();
        Some(Self {
            sessions,
            newest_games,
        })
    }
}

/// Below this much time a clock shows tenths of a second.
pub const TENTHS_BELOW_MS: u64 = 20_000;

pub struct Session {
    source: Source,
    snapshot: Snapshot,
    view: GameView,
    /// Every reading of this live session, as a sensor log records it.
    readings: Vec<TimedReading>,
    activity: Activity,
    /// How each sensor of the live board behaves (a recording keeps its own).
    health: SensorHealth,
    last_event: String,
    notice: Option<String>,
    autosave: Option<Autosave>,
    /// This source's autosave writer, started at its first move.
    autosaver: Option<Autosaver>,
    /// Readings handed to the autosave writer so far.
    autosaved_readings: usize,
    autosaved_plies: usize,
    /// Moves were made that the autosave writer has not taken yet.
    autosave_due: bool,
    /// A restored session whose files go once its game is saved again in this one.
    restored_from: Option<Unfinished>,
    restore_offer: Option<RestoreOffer>,
    /// The engine playing one side, if one is.
    engine: Option<EnginePlay>,
    /// What the engine last said: its name, or its fault.
    engine_note: String,
    /// An engine at full strength for hints and analysis, started when first asked.
    adviser: Option<Adviser>,
    /// How many best lines to analyse, while the analysis is on.
    analysis_lines: Option<u8>,
    /// The game's moves when a hint was asked: it is shown while they are the same.
    hint_asked: Option<Vec<shakmaty::Move>>,
    /// The recognised position, served to other programs as a DGT board.
    dgt_share: Option<VirtualDgtBoard>,
    /// A PGN file kept holding the session's games, rewritten after every change.
    live_pgn: Option<LivePgn>,
    /// The games the live file was last written with, once it was.
    live_games: Option<Vec<crate::recognizer::GameRecord>>,
    /// The live games' clocks, run on the board's time.
    clocks: GameClocks,
    /// The board's time of the latest reading, and when it came: the board's time now.
    board_time: Option<(Millis, Instant)>,
    /// The timeline reading the snapshot shows.
    timeline_index: Option<usize>,
    wake: Wake,
}

/// Both clocks as shown: each side's time left, whose runs, and a fallen flag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockFace {
    pub white_ms: u64,
    pub black_ms: u64,
    /// The side whose time is running (none once a flag fell or the game ended).
    pub running: Option<shakmaty::Color>,
    pub flag: Option<(shakmaty::Color, FlagResult)>,
}

impl Session {
    /// A session with no source yet; it offers back what earlier runs left unsaved.
    pub fn new(autosave: Option<Autosave>, wake: Wake) -> Self {
        let scan = autosave.as_ref().map(Autosave::scan).unwrap_or_default();
        let notice = (!scan.problems.is_empty()).then(|| {
            format!(
                "Unsaved games could not all be looked for: {}",
                scan.problems.join("; ")
            )
        });
        let restore_offer = RestoreOffer::of(scan.sessions);
        let snapshot = Snapshot::of(&Recognizer::default(), 0);
        Self {
            source: Source::None,
            view: GameView::of(&snapshot),
            snapshot,
            readings: Vec::new(),
            activity: Activity::default(),
            health: SensorHealth::default(),
            last_event: String::new(),
            notice,
            autosave,
            autosaver: None,
            autosaved_readings: 0,
            autosaved_plies: 0,
            autosave_due: false,
            restored_from: None,
            restore_offer,
            engine: None,
            engine_note: String::new(),
            adviser: None,
            analysis_lines: None,
            hint_asked: None,
            dgt_share: None,
            live_pgn: None,
            live_games: None,
            clocks: GameClocks::default(),
            board_time: None,
            timeline_index: None,
            wake,
        }
    }

    // ----- sources -----

    /// Ends the current source; its autosave finishes writing.
    fn reset(&mut self, source: Source) {
        self.engine = None;
        self.source = Source::None;
        self.finish_autosave();
        self.autosaver = None;
        self.autosave_due = false;
        self.readings = Vec::new();
        self.autosaved_readings = 0;
        self.autosaved_plies = 0;
        self.activity = Activity::default();
        self.health = SensorHealth::default();
        self.clocks = GameClocks::new(self.clocks.control());
        self.board_time = None;
        self.timeline_index = None;
        self.show(Snapshot::of(&Recognizer::default(), 0));
        self.source = source;
    }

    pub fn use_simulator(&mut self, config: Config) {
        self.reset(Source::None);
        match SimulatedBoard::start() {
            Ok(board) => {
                let connection =
                    connect(board.path(), SIMULATED_PROTOCOL, config, self.wake.clone());
                self.source = Source::Simulated {
                    board: Box::new(board),
                    live: Live::new(connection),
                };
            }
            Err(e) => self.notice = Some(format!("The simulated board could not start: {e}")),
        }
    }

    pub fn connect(
        &mut self,
        port: String,
        protocol: Protocol,
        config: Config,
        sensors: Orientation,
    ) {
        self.reset(Source::None);
        let connection = connect(&port, protocol, config, self.wake.clone());
        connection.send(Command::Orient(sensors));
        self.source = Source::Serial {
            port,
            protocol,
            live: Live::new(connection),
        };
    }

    pub fn show_recording(&mut self, timeline: Box<Timeline>) {
        self.reset(Source::Recording(timeline));
        self.refresh_from_timeline();
    }

    pub fn disconnect(&mut self) {
        self.reset(Source::None);
    }

    pub fn source(&self) -> &Source {
        &self.source
    }

    pub fn source_mut(&mut self) -> &mut Source {
        &mut self.source
    }

    pub fn is_live(&self) -> bool {
        self.source.live().is_some()
    }

    pub fn send(&self, command: Command) {
        self.source.send(command);
    }

    // ----- updates -----

    /// Takes in what arrived and what is due; returns how soon to look again, if something
    /// changes on screen before the next update can wake the app.
    pub fn update(&mut self, now: Instant) -> Option<Duration> {
        let updates: Vec<Update> = match self.source.live() {
            Some(live) => live.connection.updates.try_iter().collect(),
            None => Vec::new(),
        };
        for update in updates {
            self.apply(update, now);
        }
        let mut next = None;
        if let Some(timeline) = self.source.timeline_mut() {
            next = timeline.advance(now);
            self.refresh_from_timeline();
        }
        self.activity.prune(now);
        if self.activity.is_fading() {
            next = Some(next.map_or(FADE_STEP, |n: Duration| n.min(FADE_STEP)));
        }
        self.hear_engine(now);
        self.hear_adviser();
        if let Some(tick) = self.run_clocks(now) {
            next = Some(next.map_or(tick, |n: Duration| n.min(tick)));
        }
        self.offer_autosave();
        if let Some(autosaver) = &self.autosaver {
            for problem in autosaver.problems() {
                self.notice = Some(problem);
            }
        }
        next
    }

    /// Takes one update from the serial worker.
    pub fn apply(&mut self, update: Update, now: Instant) {
        match update {
            Update::Reading(reading) => {
                self.board_time = Some((reading.t, now));
                self.activity.note(&reading, now);
                self.health.note(&reading);
                self.readings.push(reading);
            }
            Update::Events(events) => {
                for event in &events {
                    self.clocks.on_event(event);
                }
                if let Some(text) = events.iter().rev().find_map(|e| describe_event(&e.kind)) {
                    self.last_event = text;
                }
            }
            Update::Snapshot(snapshot) => {
                self.show(*snapshot);
                // The clocks heard this snapshot's events just before it.
                self.tell_dgt_clock(now);
                self.write_live_pgn();
                self.autosave_after_moves();
                let clock = EngineClock::of(&self.clocks, self.board_now(now));
                if let Some(engine) = &mut self.engine {
                    engine.set_clock(clock);
                    engine.on_snapshot(&self.snapshot);
                }
            }
            Update::Status(status) => {
                if let Some(live) = self.source.live_mut() {
                    live.status = Some(status);
                }
            }
        }
    }

    fn show(&mut self, snapshot: Snapshot) {
        self.view = GameView::of(&snapshot);
        self.snapshot = snapshot;
        self.follow_with_adviser();
        if let Some(board) = &self.dgt_share {
            board.show(&self.snapshot.position);
        }
    }

    /// A recording's view changes only when its reading does.
    fn refresh_from_timeline(&mut self) {
        let Some(timeline) = self.source.timeline() else {
            return;
        };
        if self.timeline_index != Some(timeline.index()) {
            self.timeline_index = Some(timeline.index());
            let snapshot = timeline.snapshot();
            self.show(snapshot);
        }
    }

    /// Moves the recording to `index`, paused there.
    pub fn seek(&mut self, index: usize) {
        if let Some(timeline) = self.source.timeline_mut() {
            timeline.pause();
            timeline.seek(index);
        }
        self.refresh_from_timeline();
    }

    // ----- the engine -----

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

    fn hear_engine(&mut self, now: Instant) {
        // The engine thinks by its clock, when the game has one.
        let clock = EngineClock::of(&self.clocks, self.board_now(now));
        let (Some(engine), Some(live)) = (&mut self.engine, self.source.live()) else {
            return;
        };
        engine.set_clock(clock);
        for line in engine.on_replies(&live.connection, &self.snapshot) {
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
    fn find_engine(&mut self, path: &str) -> Option<std::path::PathBuf> {
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
    fn adviser(&mut self, path: &str) -> Option<&mut Adviser> {
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
    fn follow_with_adviser(&mut self) {
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

    fn hear_adviser(&mut self) {
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

    // ----- sharing -----

    /// Serves the recognised position as a DGT board other programs open (at a link in the
    /// app's data folder, the same every run), or stops.
    pub fn share_as_dgt(&mut self, on: bool) {
        self.dgt_share = None;
        if !on {
            return;
        }
        let link = directories::ProjectDirs::from("", "", "boardsight")
            .map(|dirs| dirs.data_local_dir().to_path_buf())
            .filter(|dir| std::fs::create_dir_all(dir).is_ok())
            .map(|dir| dir.join("dgt-board"));
        // Without a link the terminal's own path serves as well, if less steadily.
        let started =
            VirtualDgtBoard::start(link.as_deref()).or_else(|_| VirtualDgtBoard::start(None));
        match started {
            Ok(board) => {
                board.show(&self.snapshot.position);
                self.dgt_share = Some(board);
                self.tell_dgt_clock(Instant::now());
            }
            Err(e) => self.notice = Some(format!("The board could not be shared: {e}")),
        }
    }

    /// The path other programs open to use the board as a DGT board, while it is shared.
    pub fn dgt_share_path(&self) -> Option<&std::path::Path> {
        self.dgt_share.as_ref().map(VirtualDgtBoard::path)
    }

    /// Keeps `path` holding the session's games, or stops.
    pub fn set_live_pgn(&mut self, path: Option<std::path::PathBuf>) {
        if let Some(live) = self.live_pgn.take() {
            for problem in live.finish() {
                self.notice = Some(format!("Live PGN: {problem}"));
            }
        }
        let Some(path) = path else {
            return;
        };
        match LivePgn::start(&path) {
            Ok(live) => {
                self.live_pgn = Some(live);
                self.live_games = None;
                self.write_live_pgn();
            }
            Err(e) => self.notice = Some(format!("Live PGN {}: {e}", path.display())),
        }
    }

    pub fn live_pgn_path(&self) -> Option<&std::path::Path> {
        self.live_pgn.as_ref().map(LivePgn::path)
    }

    /// Rewrites the live file when the games have changed (moves, revisions, takebacks).
    fn write_live_pgn(&mut self) {
        if self.live_pgn.is_none() || self.live_games.as_ref() == Some(&self.snapshot.games) {
            return;
        }
        self.live_games = Some(self.snapshot.games.clone());
        let (text, _) = self.pgn();
        let Some(live) = &self.live_pgn else {
            return;
        };
        live.write(text);
        for problem in live.problems() {
            self.notice = Some(format!("Live PGN: {problem}"));
        }
    }

    // ----- the clock -----

    /// The board's time at `now`: its latest reading's time and what has passed since.
    fn board_now(&self, now: Instant) -> Millis {
        self.board_time.map_or(0, |(t, at)| {
            t + now.saturating_duration_since(at).as_millis() as Millis
        })
    }

    /// Live games play on `control` from now on (the current one from its next move's
    /// thinking time on), or without a clock.
    pub fn set_clock(&mut self, control: Option<TimeControl>, now: Instant) {
        let board_now = self.board_now(now);
        self.clocks.set_control(control, board_now);
        self.tell_dgt_clock(now);
    }

    /// The shared DGT board's clock, as it stands at `now`: it runs on by itself between
    /// changes.
    fn tell_dgt_clock(&self, now: Instant) {
        if let Some(board) = &self.dgt_share {
            let position = &self.snapshot.position;
            board.show_clock(dgt_clock(&self.clocks, position, self.board_now(now)));
        }
    }

    pub fn clocks(&self) -> &GameClocks {
        &self.clocks
    }

    /// The current game's clocks at `now`, if it is played on a clock.
    pub fn clock_face(&self, now: Instant) -> Option<ClockFace> {
        let clock = self.clocks.running()?;
        let board_now = self.board_now(now);
        let position = &self.snapshot.position;
        let ended = clock.flag().is_some() || position.is_game_over();
        Some(ClockFace {
            white_ms: self.clocks.left(shakmaty::Color::White, board_now)?,
            black_ms: self.clocks.left(shakmaty::Color::Black, board_now)?,
            running: (!ended && self.snapshot.has_started).then(|| position.turn()),
            flag: clock.flag(),
        })
    }

    /// The session's games in PGN, and their plies: the engine named on its side, each
    /// game's clock as `TimeControl` and `[%clk]` comments.
    pub fn pgn(&self) -> (String, usize) {
        let snapshot = &self.snapshot;
        let games = if snapshot.games.is_empty() {
            std::slice::from_ref(&snapshot.game)
        } else {
            &snapshot.games[..]
        };
        let tags = EnginePlay::tags(self.engine.as_ref());
        let text = session_pgn(games, &tags, &self.clocks);
        (text, games.iter().map(|g| g.moves.len()).sum())
    }

    /// Says a fallen flag; returns how soon the shown time changes while a clock runs.
    fn run_clocks(&mut self, now: Instant) -> Option<Duration> {
        self.source.live()?;
        let board_now = self.board_now(now);
        if let Some((color, result)) = self.clocks.check_flag(&self.snapshot.position, board_now) {
            self.last_event = flag_words(color, result);
            self.tell_dgt_clock(now);
        }
        let face = self.clock_face(now)?;
        let running = face.running?;
        let left = match running {
            shakmaty::Color::White => face.white_ms,
            shakmaty::Color::Black => face.black_ms,
        };
        // Tenths are shown under 20 s, whole seconds above.
        let step = if left < TENTHS_BELOW_MS { 100 } else { 1000 };
        Some(Duration::from_millis(left % step + 1))
    }

    // ----- autosave -----

    fn autosave_after_moves(&mut self) {
        let Some(autosave) = &self.autosave else {
            return;
        };
        // Every game of the session counts: a new game never hides the one before.
        let plies = self.total_plies();
        if plies == self.autosaved_plies {
            return;
        }
        self.autosaved_plies = plies;
        if self.autosaver.is_none() {
            match Autosaver::start(autosave.clone(), self.wake.clone()) {
                Ok(autosaver) => self.autosaver = Some(autosaver),
                Err(e) => {
                    self.notice = Some(format!("Autosave could not start: {e}"));
                    return;
                }
            }
        }
        if let (Some(autosaver), Some(restored)) = (&self.autosaver, self.restored_from.take()) {
            autosaver.discard_after_save(restored);
        }
        self.autosave_due = true;
        self.offer_autosave();
    }

    /// Hands the games and the new readings to the writer, if it has room; else they wait
    /// for the next update (the writer wakes the app when it is done).
    fn offer_autosave(&mut self) {
        let Some(autosaver) = self.autosaver.as_ref().filter(|_| self.autosave_due) else {
            return;
        };
        let new_readings = self.readings[self.autosaved_readings..].to_vec();
        if autosaver.try_save(self.snapshot.games.clone(), new_readings) {
            self.autosaved_readings = self.readings.len();
            self.autosave_due = false;
        }
    }

    /// Hands over the last save, waiting for room: a source that ends loses no move.
    fn finish_autosave(&mut self) {
        if let Some(autosaver) = self.autosaver.as_ref().filter(|_| self.autosave_due) {
            let new_readings = self.readings[self.autosaved_readings..].to_vec();
            autosaver.save(self.snapshot.games.clone(), new_readings);
            self.autosaved_readings = self.readings.len();
            self.autosave_due = false;
        }
    }

    /// The user saved this session's games as they stood at `plies` moves: unless a move
    /// came since, its autosave files go, and the next move writes them anew, whole.
    pub fn games_saved(&mut self, plies: usize) {
        if plies != self.total_plies() {
            return;
        }
        if let Some(autosaver) = &self.autosaver {
            autosaver.clear();
        }
        self.autosaved_readings = 0;
        self.autosaved_plies = 0;
        self.autosave_due = false;
    }

    fn total_plies(&self) -> usize {
        self.snapshot.games.iter().map(|g| g.moves.len()).sum()
    }

    // ----- restore -----

    pub fn restore_offer(&self) -> Option<&RestoreOffer> {
        self.restore_offer.as_ref()
    }

    /// Continues the newest unsaved game on the board. Its files go once this session
    /// saves it again; a session of several games keeps its files (the log has them all).
    pub fn restore_newest(&mut self) {
        let Some(offer) = self.restore_offer.take() else {
            return;
        };
        let mut sessions = offer.sessions.into_iter();
        let newest = sessions.next();
        if let Some(game) = offer.newest_games.last() {
            self.continue_game(game);
        }
        match newest {
            Some(newest) if offer.newest_games.len() > 1 => {
                self.notice = Some(format!(
                    "The earlier games of that session stay in {} (Open log shows them all).",
                    newest.pgn_path.display()
                ));
            }
            Some(newest) => self.restored_from = Some(newest),
            None => {}
        }
        self.restore_offer = RestoreOffer::of(sessions.collect());
    }

    /// Takes the newest unsaved session off the offer (its log is being opened).
    pub fn take_newest_unfinished(&mut self) -> Option<Unfinished> {
        let offer = self.restore_offer.take()?;
        let mut sessions = offer.sessions.into_iter();
        let newest = sessions.next();
        self.restore_offer = RestoreOffer::of(sessions.collect());
        newest
    }

    /// Deletes every unsaved session offered.
    pub fn discard_unfinished(&mut self) {
        let Some(offer) = self.restore_offer.take() else {
            return;
        };
        for unfinished in offer.sessions {
            if let Err(e) = unfinished.discard() {
                self.notice = Some(format!("{}: {e}", unfinished.pgn_path.display()));
            }
        }
    }

    /// Asks again on the next start.
    pub fn postpone_restore(&mut self) {
        self.restore_offer = None;
    }

    pub fn continue_game(&mut self, game: &PgnGame) {
        self.send(Command::Continue(game.game.clone()));
        self.last_event = format!(
            "loaded {} – {}: set the board up as shown",
            game.tags.white, game.tags.black
        );
    }

    // ----- what the panels read -----

    pub fn snapshot(&self) -> &Snapshot {
        &self.snapshot
    }

    pub fn view(&self) -> &GameView {
        &self.view
    }

    pub fn readings(&self) -> &[TimedReading] {
        &self.readings
    }

    pub fn activity(&self) -> &Activity {
        &self.activity
    }

    /// How the sensors behave: over the whole recording, or the live board so far.
    pub fn health(&self) -> &SensorHealth {
        self.source
            .timeline()
            .and_then(|t| t.summary())
            .map_or(&self.health, |summary| &summary.health)
    }

    pub fn last_event(&self) -> &str {
        &self.last_event
    }

    pub fn say(&mut self, text: String) {
        self.last_event = text;
    }

    pub fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }

    pub fn set_notice(&mut self, text: String) {
        self.notice = Some(text);
    }

    pub fn dismiss_notice(&mut self) {
        self.notice = None;
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.finish_autosave();
    }
}

/// How often a fading flash is redrawn.
const FADE_STEP: Duration = Duration::from_millis(50);

/// A line for the status bar.
fn describe_event(kind: &EventKind) -> Option<String> {
    Some(match kind {
        EventKind::NewGame { .. } => "new game".into(),
        EventKind::Move { ply, san, .. } => format!("move {ply}: {san}"),
        EventKind::Revised { ply, san, .. } => format!("move {ply} revised: {san}"),
        EventKind::TakenBack { ply, .. } => format!("move {ply} taken back"),
        EventKind::Ambiguous { ply, .. } => format!("move {ply} is ambiguous"),
        EventKind::Illegal { .. } => "illegal position".into(),
        EventKind::Recovered => "legal again".into(),
        EventKind::Waiting { .. } => return None,
        EventKind::Orientation { .. } | EventKind::DeadSensor { .. } => return kind.finding(),
        EventKind::WrongMove {
            played, expected, ..
        } => crate::recognizer::event::wrong_move_words(*played, *expected),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recognizer::GameRecord;
    use crate::sensorlog;

    fn no_wake() -> Wake {
        Arc::new(|| {})
    }

    /// Plays a recorded session into `session` the way the serial worker would report it;
    /// the user saves the games once `save_at` plies are played.
    fn play(session: &mut Session, log: &str, save_at: Option<usize>) -> Vec<GameRecord> {
        let path = format!("{}/tests/corpus/{log}", env!("CARGO_MANIFEST_DIR"));
        let readings = sensorlog::read_file(std::path::Path::new(&path)).expect("corpus log");
        let mut recognizer = Recognizer::default();
        let now = Instant::now();
        for reading in readings {
            let events = recognizer.feed(reading);
            session.apply(Update::Reading(reading), now);
            if !events.is_empty() {
                session.apply(Update::Events(events), now);
                session.apply(
                    Update::Snapshot(Box::new(Snapshot::of(&recognizer, 0))),
                    now,
                );
                let plies: usize = recognizer.games().iter().map(|g| g.moves.len()).sum();
                if save_at == Some(plies) {
                    session.games_saved(plies);
                }
            }
        }
        recognizer.games()
    }

    #[test]
    fn every_game_of_a_session_comes_back_after_a_restart() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut session = Session::new(Some(Autosave::new(dir.path())), no_wake());
        assert!(session.restore_offer().is_none());
        let games = play(&mut session, "t3-change-001.log", None);
        let played: Vec<GameRecord> = games.into_iter().filter(|g| !g.moves.is_empty()).collect();
        assert!(
            played.len() >= 2,
            "the sample session has {} games",
            played.len()
        );
        let readings = session.readings().to_vec();
        drop(session);

        let restarted = Session::new(Some(Autosave::new(dir.path())), no_wake());
        let offer = restarted.restore_offer().expect("an offer");
        assert_eq!(offer.sessions.len(), 1);
        let back: Vec<GameRecord> = offer.newest_games.iter().map(|g| g.game.clone()).collect();
        assert_eq!(back, played);
        let log = sensorlog::read_file(&offer.sessions[0].log_path).expect("the log");
        assert_eq!(log, readings);
    }

    #[test]
    fn saved_games_leave_nothing_to_restore() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut session = Session::new(Some(Autosave::new(dir.path())), no_wake());
        play(&mut session, "t0-change-000.log", None);
        session.games_saved(session.total_plies());
        drop(session);
        assert!(Autosave::new(dir.path()).unfinished().is_empty());
    }

    #[test]
    fn a_move_after_saving_autosaves_the_whole_session_again() {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut session = Session::new(Some(Autosave::new(dir.path())), no_wake());
        let games = play(&mut session, "t0-change-000.log", Some(3));
        let readings = session.readings().to_vec();
        drop(session);
        let found = Autosave::new(dir.path()).unfinished();
        assert_eq!(found.len(), 1);
        assert_eq!(
            sensorlog::read_file(&found[0].log_path).expect("log"),
            readings
        );
        let back = read_games(found[0].pgn.as_bytes());
        assert_eq!(
            back.len(),
            games.iter().filter(|g| !g.moves.is_empty()).count()
        );
    }

    #[test]
    fn a_recording_shows_its_end_and_seeks_without_autosaving() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = format!(
            "{}/tests/corpus/t0-change-000.log",
            env!("CARGO_MANIFEST_DIR")
        );
        let readings = sensorlog::read_file(std::path::Path::new(&path)).expect("log");
        let mut timeline = Timeline::new("t0".into(), readings, Config::default());
        timeline.seek(timeline.len());
        let mut session = Session::new(Some(Autosave::new(dir.path())), no_wake());
        session.show_recording(Box::new(timeline));
        let moves_at_end = session.view().moves.len();
        assert!(moves_at_end > 0);
        assert_eq!(session.view().sans.len(), moves_at_end);
        session.seek(0);
        assert!(session.view().moves.is_empty());
        assert_eq!(session.view().positions.len(), 1);
        drop(session);
        assert!(Autosave::new(dir.path()).unfinished().is_empty());
    }
}
