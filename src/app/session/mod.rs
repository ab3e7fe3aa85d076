//! What the app is showing and recording, apart from how it is drawn: the source, the
//! recognizer's latest view, the session's readings, recent activity and autosave. No egui
//! here, so all of it is tested without a window.

use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::clock::{FlagResult, GameClocks};
use crate::connection::{Command, Update, connect};
use crate::dgt_serve::VirtualDgtBoard;
use crate::engine::{Adviser, EngineClock, EnginePlay};
use crate::pgn::autosave::{Autosave, Unfinished};
use crate::pgn::autosaver::Autosaver;
use crate::pgn::live::LivePgn;
use crate::pgn::{PgnGame, read_games};
use crate::protocol::Protocol;
use crate::reading::{Millis, Orientation, TimedReading};
use crate::recognizer::health::SensorHealth;
use crate::recognizer::{Config, EventKind, Recognizer};
use crate::snapshot::Snapshot;

use super::activity::Activity;
use super::game_view::GameView;
use super::simulated::{SIMULATED_PROTOCOL, SimulatedBoard};
use super::source::{Live, Source};
use super::timeline::Timeline;

mod autosave;
mod clock;
mod engine;
mod sharing;

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
    live_games: Option<Vec<crate::game::GameRecord>>,
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
    use crate::game::GameRecord;
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
