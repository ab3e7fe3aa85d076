//! The live session, headless: the source (which owns its connection to the board's
//! worker), the recognizer's latest view, the session's record, and the parts that follow
//! the game: the clocks, the engine's seat and the adviser, the shared DGT board, the live
//! PGN and autosave. Each part owns its state; `Session::apply` passes each change on to
//! them in turn. The app draws a session; `listen` prints one.

mod activity;
mod announcer;
mod autosave;
mod broadcast;
mod clock;
mod engine;
mod game_view;
mod illegal;
mod lights;
mod online;
mod record;
mod recording_summary;
mod review;
mod sharing;
mod simulated;
mod source;
mod timeline;
pub mod words;

use std::path::{Path, PathBuf};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use shakmaty::{Bitboard, Color, Move};

pub use activity::{Activity, FLASH};
pub use announcer::Seats;
pub use autosave::RestoreOffer;
pub use clock::{ClockFace, Clocks, TENTHS_BELOW_MS};
pub use engine::{Advice, EngineSeat};
pub use game_view::GameView;
pub use illegal::ILLEGAL_PATIENCE;
pub use lights::{CONFIRM_FOR, move_squares};
pub use online::Offer;
pub use recording_summary::{Band, BandKind, Lane, Marker, MarkerKind, Summary};
pub use review::GameUnderReview;
pub use simulated::{SIMULATED_PROTOCOL, SimulatedBoard};
pub use source::{Live, Source};
pub use timeline::Timeline;

use crate::background::{Wake, WorkerThread};
use crate::clock::{GameClocks, TimeControl};
use crate::connection::{Change, Command, ConnectionStatus, Update, connect};
use crate::dgt_serve::VirtualDgtBoard;
use crate::engine::{Analysis, EnginePlay, Strength};
use crate::game::{self, GameRecord, TableTags, parse_fen};
use crate::pgn::PgnGame;
use crate::pgn::autosave::{Autosave, Unfinished};
use crate::pgn::live::{LivePgn, session_pgn};
use crate::protocol::Protocol;
use crate::reading::TimedReading;
use crate::recognizer::health::SensorHealth;
use crate::recognizer::{Config, Event, EventKind, Recognizer};
use crate::snapshot::Snapshot;
use crate::voice::{Voice, VoiceSettings};
use announcer::Announcer;
use autosave::{Autosaving, total_plies};
use engine::find_engine;
use illegal::IllegalWatch;
use lights::BoardLights;
use record::Record;
pub use sharing::HostDisplay;
use sharing::{DgtShare, LivePgnFile};

/// What the session has to tell an owner that prints it (`listen`), in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum News {
    /// A line for the output: an event, the engine, a fallen flag.
    Said(String),
    /// The connection's state changed.
    Status(ConnectionStatus),
    /// Something went wrong that the user should know (a file not written).
    Problem(String),
    /// Words said aloud.
    Spoken(String),
}

pub struct Session {
    source: Source,
    snapshot: Snapshot,
    view: GameView,
    record: Record,
    /// Who moves first in the current game, for move numbers.
    first_mover: Color,
    last_event: String,
    notice: Option<String>,
    /// What an owner that prints the session has not taken yet (kept only when asked for).
    news: Option<Vec<News>>,
    clocks: Clocks,
    seat: EngineSeat,
    advice: Advice,
    review: Option<GameUnderReview>,
    dgt: DgtShare,
    live_pgn: LivePgnFile,
    autosave: Autosaving,
    /// The timeline reading the snapshot shows.
    timeline_index: Option<usize>,
    voice: Announcer,
    online: online::OnlineSeat,
    broadcast: broadcast::BroadcastSeat,
    /// The players' names and the board's number, for every game's tags.
    table: TableTags,
    lights: BoardLights,
    illegal: IllegalWatch,
    /// The side the player sits at, when no engine plays.
    player: Color,
    wake: Wake,
}

impl Session {
    /// A session with no source yet; it offers back what earlier runs left unsaved.
    pub fn new(autosave: Option<Autosave>, wake: Wake) -> Self {
        // The first move of the first game is not to wait for the opening book.
        if let Ok(thread) = WorkerThread::spawn("opening book", crate::openings::prepare) {
            thread.detach();
        }
        let (autosave, notice) = Autosaving::new(autosave);
        let snapshot = Snapshot::of(&Recognizer::default(), 0);
        Self {
            source: Source::None,
            view: GameView::of(&snapshot),
            snapshot,
            record: Record::default(),
            first_mover: Color::White,
            last_event: String::new(),
            notice,
            news: None,
            clocks: Clocks::default(),
            seat: EngineSeat::default(),
            advice: Advice::default(),
            review: None,
            dgt: DgtShare::default(),
            live_pgn: LivePgnFile::default(),
            autosave,
            timeline_index: None,
            voice: Announcer::default(),
            online: online::OnlineSeat::default(),
            broadcast: broadcast::BroadcastSeat::default(),
            table: TableTags::default(),
            lights: BoardLights::default(),
            illegal: IllegalWatch::default(),
            player: Color::White,
            wake,
        }
    }

    /// Keeps what happens as `News` for `take_news` (an owner that prints the session).
    pub fn keep_news(&mut self) {
        self.news.get_or_insert_with(Vec::new);
        self.voice.keep_told();
    }

    /// What happened since the last call, in order.
    pub fn take_news(&mut self) -> Vec<News> {
        for announcement in self.voice.take_told() {
            self.tell(News::Spoken(announcement.words));
        }
        self.news.as_mut().map(std::mem::take).unwrap_or_default()
    }

    fn tell(&mut self, news: News) {
        if let Some(kept) = &mut self.news {
            kept.push(news);
        }
    }

    // ----- sources -----

    /// Ends the current source; its autosave finishes writing.
    fn reset(&mut self, source: Source) {
        self.seat = EngineSeat::default();
        self.source = Source::None;
        self.autosave
            .reset(&self.snapshot.games, &self.record.readings);
        self.record = Record::default();
        self.clocks.reset();
        self.first_mover = Color::White;
        self.timeline_index = None;
        self.lights.reset();
        self.illegal = IllegalWatch::default();
        self.show(Snapshot::of(&Recognizer::default(), 0));
        self.source = source;
    }

    pub fn use_simulator(&mut self, config: Config) {
        self.reset(Source::None);
        match SimulatedBoard::start(self.wake.clone()) {
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

    /// Follows the board on serial port `port`.
    pub fn connect(&mut self, port: String, protocol: Protocol, config: Config) {
        self.reset(Source::None);
        let connection = connect(&port, protocol, config, self.wake.clone());
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

    /// Ends a live source's session: its worker decides what is still open (the last move
    /// of a game is never lost; live and replay agree) and its last change is taken in.
    pub fn conclude(&mut self) {
        if let Some(live) = self.source.live() {
            live.connection.send(Command::Disconnect);
            let deadline = Instant::now() + Duration::from_secs(2);
            while Instant::now() < deadline && self.wait(Duration::from_millis(100)) {}
        }
        // The game as it ended goes to the broadcast before it stops.
        self.push_broadcast();
        let heard = self.broadcast.stop();
        self.tell_broadcast(heard);
    }

    /// Waits up to `timeout` for the live source's next update and takes it in; says
    /// whether the source is still there to wait for.
    pub fn wait(&mut self, timeout: Duration) -> bool {
        let Some(live) = self.source.live() else {
            return false;
        };
        match live.connection.updates.recv_timeout(timeout) {
            Ok(update) => {
                self.apply(update, Instant::now());
                true
            }
            Err(RecvTimeoutError::Timeout) => true,
            Err(RecvTimeoutError::Disconnected) => false,
        }
    }

    /// Takes in what arrived and what is due; returns how soon to look again, if something
    /// changes on screen before the next update can wake the owner.
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
        self.record.activity.prune(now);
        if self.record.activity.is_fading() {
            next = Some(next.map_or(FADE_STEP, |n: Duration| n.min(FADE_STEP)));
        }
        if let Some(board) = self.source.simulated_board() {
            board.hear_signals();
        }
        self.hear_engine(now);
        self.hear_online();
        if let Some(notice) = self.advice.hear() {
            self.notice = Some(notice);
        }
        if let Some(review) = &mut self.review {
            review.hear();
        }
        for line in self.dgt.hear() {
            self.tell(News::Said(line));
        }
        if let Some(tick) = self.run_clocks(now) {
            next = Some(next.map_or(tick, |n: Duration| n.min(tick)));
        }
        if let Some(due) = self.follow_board(now) {
            next = Some(next.map_or(due, |n: Duration| n.min(due)));
        }
        let board_now = self.clocks.board_now(now);
        self.voice.tick(board_now);
        if let Some(due) = self.voice.due_in(board_now) {
            let due = Duration::from_millis(due);
            next = Some(next.map_or(due, |n: Duration| n.min(due)));
        }
        self.autosave
            .offer(&self.snapshot.games, &self.record.readings);
        for problem in self.autosave.problems() {
            self.notice = Some(problem);
        }
        next
    }

    /// Takes one update from the board's worker, and passes it on to every part.
    pub fn apply(&mut self, update: Update, now: Instant) {
        match update {
            Update::Change(change) => {
                let Change {
                    readings,
                    events,
                    snapshot,
                } = *change;
                for reading in readings {
                    self.clocks.on_reading(reading.t, now);
                    self.record.note(reading, now);
                }
                self.clocks.on_events(&events);
                self.tell_events(&events);
                self.speak_events(&events, &snapshot.position);
                self.voice.tick(self.clocks.board_now(now));
                self.lights.on_events(&events, now);
                self.show(snapshot);
                // The game's end changes only with the position: said from a change, not
                // looked for every frame.
                self.voice
                    .on_position(&self.snapshot.position, self.snapshot.game.moves.len());
                self.follow_board(now);
                // The clocks heard this change's events just before.
                self.dgt
                    .show_clock(self.clocks.dgt_clock(&self.snapshot.position, now));
                self.write_live_pgn();
                if let Some(notice) = self.autosave.after_change(
                    &self.snapshot.games,
                    &self.record.readings,
                    &self.wake,
                ) {
                    self.notice = Some(notice);
                }
                let clock = self.clocks.engine_clock(now);
                self.seat.on_snapshot(&self.snapshot, clock);
                self.online.on_snapshot(&self.snapshot);
                self.push_broadcast();
            }
            Update::Status(status) => {
                self.tell(News::Status(status.clone()));
                if let Some(live) = self.source.live_mut() {
                    live.status = Some(status);
                }
            }
        }
    }

    /// The events in words: the status bar's latest, and the lines of the news.
    fn tell_events(&mut self, events: &[Event]) {
        for event in events {
            if let EventKind::NewGame { fen } = &event.kind {
                self.first_mover =
                    parse_fen(fen).map_or(Color::White, |p| shakmaty::Position::turn(&p));
            }
            if let Some(line) = words::event_line(&event.kind, self.first_mover) {
                self.tell(News::Said(line));
            }
        }
        if let Some(text) = events
            .iter()
            .rev()
            .find_map(|e| words::event_status(&e.kind))
        {
            self.last_event = text;
        }
    }

    fn speak_events(&mut self, events: &[Event], position_now: &shakmaty::Chess) {
        let seats = seats_of(&self.seat, self.player);
        self.voice
            .on_events(events, &self.view.positions, position_now, seats);
    }

    /// What follows the board as time passes, live: a board left illegal is said and lit,
    /// the game's end said, the clock's last seconds said, the board's lights set. Returns
    /// how soon something here changes by itself.
    fn follow_board(&mut self, now: Instant) -> Option<Duration> {
        self.source.live()?;
        self.illegal.follow(&self.snapshot.status, now);
        if self.illegal.newly_lasting(now) {
            self.lights.on_lasting_illegal();
        }
        let lasting = self.illegal.lasting(now);
        self.voice.on_board(lasting, &self.snapshot.position);
        if let Some(face) = self.clocks.face(&self.snapshot, now) {
            self.voice.on_clock(face, seats_of(&self.seat, self.player));
        }
        let hint = self.advice.hint(&self.snapshot.game);
        let wanted = self.lights.wanted(&self.snapshot, lasting, hint, now);
        if self.source.protocol().is_some_and(Protocol::has_lights) {
            for signal in self.lights.signals(wanted) {
                self.send(Command::Signal(signal));
            }
        }
        [self.illegal.due_in(now), self.lights.due_in(now)]
            .into_iter()
            .flatten()
            .min()
    }

    fn show(&mut self, snapshot: Snapshot) {
        self.view = GameView::of(&snapshot);
        self.snapshot = snapshot;
        self.advice.follow(&self.snapshot.game);
        self.dgt.show(&self.snapshot.position);
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
        &self.record.readings
    }

    pub fn activity(&self) -> &Activity {
        &self.record.activity
    }

    /// How the sensors behave: over the whole recording, or the live board so far.
    pub fn health(&self) -> &SensorHealth {
        self.source
            .timeline()
            .and_then(|t| t.summary())
            .map_or(&self.record.health, |summary| &summary.health)
    }

    /// When the latest reading came from the board.
    pub fn last_reading_at(&self) -> Option<Instant> {
        self.clocks.last_reading_at()
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

    // ----- the clocks -----

    /// Live games play on `control` from now on (the current one from its next move's
    /// thinking time on), or without a clock.
    pub fn set_clock(&mut self, control: Option<TimeControl>, now: Instant) {
        self.clocks.set_control(control, now);
        self.dgt
            .show_clock(self.clocks.dgt_clock(&self.snapshot.position, now));
    }

    pub fn clocks(&self) -> &GameClocks {
        self.clocks.games()
    }

    /// The clocks as shown at `now`: the times the program following the shared board set,
    /// while it drives the board's clock; else the current game's, if it has a clock.
    pub fn clock_face(&self, now: Instant) -> Option<ClockFace> {
        if let Some(face) = self.online.clock_face(now) {
            return Some(face);
        }
        if let Some(clock) = self.dgt.host().clock_at(now) {
            return Some(ClockFace {
                white_ms: clock.white_ms,
                black_ms: clock.black_ms,
                running: clock.running,
                flag: None,
            });
        }
        self.clocks.face(&self.snapshot, now)
    }

    /// What the program following the shared board shows on the board's clock and lights.
    pub fn dgt_host(&self) -> &HostDisplay {
        self.dgt.host()
    }

    /// Says a fallen flag; returns how soon the shown time changes while a clock runs.
    fn run_clocks(&mut self, now: Instant) -> Option<Duration> {
        self.source.live()?;
        if let Some((color, result)) = self.clocks.check_flag(&self.snapshot.position, now) {
            self.voice.on_flag(color, result);
            let words = crate::clock::flag_words(color, result);
            self.tell(News::Said(format!("flag: {words}")));
            self.last_event = words;
            self.dgt
                .show_clock(self.clocks.dgt_clock(&self.snapshot.position, now));
        }
        clock::next_tick(self.clock_face(now)?)
    }

    // ----- playing online -----

    /// Plays `request` on lichess at `base` from the board, with `token` (the environment's
    /// or the system keyring's when none is given; kept in the keyring once it works, if
    /// `remember`), as patient as `patience` says (a minute after a 429, as lichess asks;
    /// less only in tests).
    pub fn play_online(
        &mut self,
        base: &str,
        token: Option<String>,
        remember: bool,
        request: crate::online::Request,
        patience: crate::online::Patience,
    ) {
        let wake = self.wake.clone();
        if let Err(e) = self
            .online
            .start(base, token, remember, request, wake, patience)
        {
            self.notice = Some(format!("lichess: {e}"));
        }
    }

    /// Resign, offer a draw, … in the online game.
    pub fn online_order(&self, order: crate::online::Order) {
        self.online.order(order);
    }

    /// Whether an online game is on.
    pub fn is_online(&self) -> bool {
        self.online.is_on()
    }

    /// What the online opponent offers, to be answered (`Order::Draw` or `Order::Takeback`).
    pub fn online_offer(&self) -> Option<online::Offer> {
        self.online.offer()
    }

    /// How the online game stands, in words, once one was asked for.
    pub fn online_status(&self) -> Option<String> {
        self.online.status()
    }

    /// What the server said: the opponent's move is awaited on the board (and said, as the
    /// engine's is); its lines are told.
    fn hear_online(&mut self) {
        let heard = self.online.hear(&self.snapshot);
        // Moves made before the game began (or while a stream was down) go now.
        self.online.on_snapshot(&self.snapshot);
        if let Some((mv, name)) = heard.expect {
            self.send(Command::Expect(Some(mv)));
            self.voice
                .on_engine_move(&name, &self.snapshot.position, mv);
        }
        let result_may_have_changed = !heard.lines.is_empty();
        for line in heard.lines {
            self.tell(News::Said(line));
        }
        if let Some(notice) = heard.notice {
            self.notice = Some(notice);
        }
        if result_may_have_changed {
            self.push_broadcast();
        }
        let heard = self.broadcast.hear();
        self.tell_broadcast(heard);
    }

    // ----- broadcasting -----

    /// The players' names, the round and the board's number, for the games' tags (and the
    /// broadcast's, which tells the boards apart by them).
    pub fn set_table(&mut self, table: TableTags) {
        self.table = table;
        self.push_broadcast();
    }

    pub fn table(&self) -> &TableTags {
        &self.table
    }

    /// Pushes the board's game to the lichess broadcast round `to` names from now on.
    pub fn broadcast(&mut self, to: crate::online::broadcast::BroadcastTo) {
        let started = self.broadcast.start(to, self.wake.clone());
        match started {
            Ok(()) => self.push_broadcast(),
            Err(problem) => {
                self.notice = Some(format!("Broadcast: {problem}"));
                self.tell(News::Problem(format!("broadcast: {problem}")));
            }
        }
    }

    /// Stops broadcasting once the last change is pushed, without waiting for it.
    pub fn stop_broadcast(&mut self) {
        self.broadcast.let_go();
    }

    /// How the broadcast stands, in words, while there is one.
    pub fn broadcast_status(&self) -> Option<&str> {
        self.broadcast.status()
    }

    pub fn is_broadcasting(&self) -> bool {
        self.broadcast.is_on()
    }

    /// The broadcast game, as its PGN, to the round.
    fn push_broadcast(&mut self) {
        if !self.broadcast.is_on() {
            return;
        }
        let (game, word) = self.broadcast.game_of(&self.snapshot.games);
        if let Some(word) = word {
            self.notice = Some(format!("Broadcast: {word}"));
            self.tell(News::Said(format!("broadcast: {word}")));
        }
        let Some(game) = game else {
            return;
        };
        let games = &self.snapshot.games;
        let annotations = self.annotations(games);
        let text = session_pgn(&games[game..=game], &annotations[game..=game]);
        self.broadcast.on_game(text);
    }

    fn tell_broadcast(&mut self, heard: broadcast::BroadcastHeard) {
        for line in heard.lines {
            self.tell(News::Said(line));
        }
        if let Some(problem) = heard.problem {
            self.notice = Some(problem);
        }
    }

    // ----- voice and lights -----

    /// Speaks with `settings` from now on (the system's speech, found on first use).
    pub fn set_voice(&mut self, settings: VoiceSettings) {
        self.voice.configure(settings);
    }

    /// Speaks through `voice` rather than the system's speech.
    pub fn speak_with(&mut self, voice: Box<dyn Voice>) {
        self.voice.speak_with(voice);
    }

    /// The voices the system's speech offers.
    pub fn voices(&self) -> &[String] {
        self.voice.voices()
    }

    pub fn voice_settings(&self) -> &VoiceSettings {
        self.voice.settings()
    }

    /// Why nothing is heard although the voice is on (no speech on this system).
    pub fn voice_problem(&self) -> Option<&str> {
        self.voice.problem()
    }

    /// Says the engine's move again, while it is still to be made.
    pub fn repeat_engine_move(&mut self) {
        self.voice.repeat_engine_move(self.snapshot.expected_move);
    }

    /// The side the player sits at, when no engine plays: the other side's moves are the
    /// opponent's.
    pub fn set_player(&mut self, side: Color) {
        self.player = side;
    }

    /// The squares lit on the board: as the simulated board heard them, or as a board with
    /// lights was told.
    pub fn board_lights(&self) -> Bitboard {
        match &self.source {
            Source::Simulated { board, .. } => board.lit(),
            _ if self.source.protocol().is_some_and(Protocol::has_lights) => self.lights.told(),
            _ => Bitboard::EMPTY,
        }
    }

    // ----- the games -----

    /// The session's games (the current one last once it has begun).
    pub fn games(&self) -> &[GameRecord] {
        &self.snapshot.games
    }

    /// The PGN of `games`: the engine named on its side, each game's clock as
    /// `TimeControl` and `[%clk]` comments.
    pub fn pgn_of(&self, games: &[GameRecord]) -> String {
        session_pgn(games, &self.annotations(games))
    }

    /// Each game's tags and comments: the engine's side, the table's names, the clocks and
    /// the online game's.
    fn annotations(&self, games: &[GameRecord]) -> Vec<game::Annotation> {
        let mut tags = self.seat.tags();
        self.table.apply(&mut tags);
        let mut annotations = self.clocks.annotate(games, &tags);
        self.online.annotate(games, &mut annotations);
        annotations
    }

    /// The session's games in PGN (the current game, if none has begun), and their plies.
    pub fn pgn(&self) -> (String, usize) {
        let snapshot = &self.snapshot;
        let games = if snapshot.games.is_empty() {
            std::slice::from_ref(&snapshot.game)
        } else {
            &snapshot.games[..]
        };
        (self.pgn_of(games), total_plies(games))
    }

    // ----- the engine's seat and the adviser -----

    /// Starts `path` (or Stockfish, for `stockfish`) playing `side` of the live game.
    pub fn start_engine(&mut self, path: &str, side: Color, strength: Strength) {
        self.stop_engine();
        match find_engine(path) {
            Ok(path) => self.seat_engine(&path, side, strength),
            Err(notice) => self.notice = Some(notice),
        }
    }

    /// Seats the engine at `path` playing `side`.
    pub fn seat_engine(&mut self, path: &Path, side: Color, strength: Strength) {
        self.stop_engine();
        let clock = self.clocks.engine_clock(Instant::now());
        let wake = self.wake.clone();
        self.seat
            .start(path, side, strength, wake, clock, &self.snapshot);
    }

    /// The engine leaves the game; any move it gave is no longer awaited.
    pub fn stop_engine(&mut self) {
        if self.seat.stop() {
            self.send(Command::Expect(None));
        }
    }

    pub fn engine(&self) -> Option<&EnginePlay> {
        self.seat.engine()
    }

    pub fn engine_note(&self) -> &str {
        self.seat.note()
    }

    /// What the engine said: its lines are told, and the move it gives is awaited on the
    /// board.
    fn hear_engine(&mut self, now: Instant) {
        if self.source.live().is_none() {
            return;
        }
        let clock = self.clocks.engine_clock(now);
        let heard = self.seat.hear(&self.snapshot, clock, now);
        if let Some(mv) = heard.expect {
            self.send(Command::Expect(Some(mv)));
            let name = self
                .seat
                .engine()
                .and_then(EnginePlay::name)
                .unwrap_or("The engine")
                .to_owned();
            self.voice
                .on_engine_move(&name, &self.snapshot.position, mv);
        }
        for line in heard.lines {
            if line.starts_with("engine fault") {
                self.notice = Some(format!("{line} (the game is kept; Play starts it again)"));
            }
            self.tell(News::Said(line));
        }
    }

    /// Asks for the best move for the side to move in the position shown.
    pub fn ask_hint(&mut self, engine_path: &str) {
        if let Err(notice) = self
            .advice
            .ask_hint(engine_path, &self.snapshot.game, &self.wake)
        {
            self.notice = Some(notice);
        }
    }

    /// Analyses each position shown with `lines` best lines, or stops analysing.
    pub fn set_analysis(&mut self, engine_path: &str, lines: Option<u8>) {
        if let Err(notice) =
            self.advice
                .set_analysis(engine_path, lines, &self.snapshot.game, &self.wake)
        {
            self.notice = Some(notice);
        }
    }

    /// Reviews the current game with the engine at `engine_path`, each position searched
    /// to `limit`; a review under way is replaced.
    pub fn review_game(&mut self, engine_path: &str, limit: crate::engine::SearchLimit) {
        match engine::find_engine(engine_path) {
            Ok(path) => {
                let game = self.snapshot.game.clone();
                self.review = Some(GameUnderReview::start(
                    &path,
                    game,
                    limit,
                    self.wake.clone(),
                ));
            }
            Err(notice) => self.notice = Some(notice),
        }
    }

    /// Ends the review (its engine quits) and puts it away.
    pub fn close_review(&mut self) {
        self.review = None;
    }

    /// The review of the current game, while it matches the game shown.
    pub fn review(&self) -> Option<&GameUnderReview> {
        self.review.as_ref().filter(|r| {
            r.game.start == self.snapshot.game.start
                && self.snapshot.game.moves.starts_with(&r.game.moves)
        })
    }

    pub fn analysis_lines(&self) -> Option<u8> {
        self.advice.analysis_lines()
    }

    /// The analysis of the position shown, once the engine has said anything about it.
    pub fn analysis(&self) -> Option<&Analysis> {
        self.advice.analysis(self.snapshot.game.moves.len())
    }

    /// The move to advise on the board: the hint asked for, or the analysis's best move.
    pub fn advice(&self) -> Option<Move> {
        self.advice.advice(&self.snapshot.game)
    }

    /// The adviser's name, or what went wrong with it.
    pub fn adviser_note(&self) -> Option<String> {
        self.advice.note()
    }

    // ----- sharing -----

    /// Serves the recognised position as a DGT board other programs open (at a link in the
    /// app's data folder, the same every run), or stops.
    pub fn share_as_dgt(&mut self, on: bool) {
        self.share_dgt_board(None);
        if !on {
            return;
        }
        let link = directories::ProjectDirs::from("", "", "boardsight")
            .map(|dirs| dirs.data_local_dir().to_path_buf())
            .filter(|dir| std::fs::create_dir_all(dir).is_ok())
            .map(|dir| dir.join("dgt-board"));
        // Without a link the terminal's own path serves as well, if less steadily.
        let started = VirtualDgtBoard::start(link.as_deref(), self.wake.clone())
            .or_else(|_| VirtualDgtBoard::start(None, self.wake.clone()));
        match started {
            Ok(board) => self.share_dgt_board(Some(board)),
            Err(e) => self.notice = Some(format!("The board could not be shared: {e}")),
        }
    }

    /// Serves the recognised position and the clock through `board`, or stops sharing.
    pub fn share_dgt_board(&mut self, board: Option<VirtualDgtBoard>) {
        let clock = self
            .clocks
            .dgt_clock(&self.snapshot.position, Instant::now());
        self.dgt.set(board, &self.snapshot.position, clock);
    }

    /// The path other programs open to use the board as a DGT board, while it is shared.
    pub fn dgt_share_path(&self) -> Option<&Path> {
        self.dgt.path()
    }

    /// Keeps `path` holding the session's games, or stops.
    pub fn set_live_pgn(&mut self, path: Option<PathBuf>) {
        let Some(path) = path else {
            self.keep_live_pgn(None);
            return;
        };
        match LivePgn::start(&path) {
            Ok(live) => {
                // Written at once, the current game if none has begun.
                for problem in self.live_pgn.set(Some(live), None) {
                    self.live_pgn_problem(&problem);
                }
                self.write_live_pgn();
            }
            Err(e) => {
                self.keep_live_pgn(None);
                self.notice = Some(format!("Live PGN {}: {e}", path.display()));
            }
        }
    }

    /// Keeps `live` holding the session's games from their next change on, or stops;
    /// returns what went wrong with the file before.
    pub fn keep_live_pgn(&mut self, live: Option<LivePgn>) -> Vec<String> {
        let written = live.is_some().then(|| self.snapshot.games.clone());
        let problems = self.live_pgn.set(live, written);
        for problem in &problems {
            self.live_pgn_problem(problem);
        }
        problems
    }

    pub fn live_pgn_path(&self) -> Option<&Path> {
        self.live_pgn.path()
    }

    /// Rewrites the live file when the games have changed (moves, revisions, takebacks).
    fn write_live_pgn(&mut self) {
        if !self.live_pgn.is_due(&self.snapshot.games) {
            return;
        }
        let (text, _) = self.pgn();
        for problem in self.live_pgn.write(&self.snapshot.games, text) {
            self.live_pgn_problem(&problem);
        }
    }

    fn live_pgn_problem(&mut self, problem: &str) {
        self.notice = Some(format!("Live PGN: {problem}"));
        self.tell(News::Problem(format!("live PGN: {problem}")));
    }

    // ----- autosave and restore -----

    /// The user saved this session's games as they stood at `plies` moves: unless a move
    /// came since, its autosave files go, and the next move writes them anew, whole.
    pub fn games_saved(&mut self, plies: usize) {
        self.autosave.games_saved(plies, self.total_plies());
    }

    pub fn total_plies(&self) -> usize {
        total_plies(&self.snapshot.games)
    }

    pub fn restore_offer(&self) -> Option<&RestoreOffer> {
        self.autosave.restore_offer()
    }

    /// Continues the newest unsaved game on the board. Its files go once this session
    /// saves it again; a session of several games keeps its files (the log has them all).
    pub fn restore_newest(&mut self) {
        let (game, notice) = self.autosave.restore_newest();
        if let Some(game) = game {
            self.continue_game(&game);
        }
        if let Some(notice) = notice {
            self.notice = Some(notice);
        }
    }

    /// Takes the newest unsaved session off the offer (its log is being opened).
    pub fn take_newest_unfinished(&mut self) -> Option<Unfinished> {
        self.autosave.take_newest_unfinished()
    }

    /// Deletes every unsaved session offered.
    pub fn discard_unfinished(&mut self) {
        if let Some(problem) = self.autosave.discard_unfinished().pop() {
            self.notice = Some(problem);
        }
    }

    /// Asks again on the next start.
    pub fn postpone_restore(&mut self) {
        self.autosave.postpone_restore();
    }

    pub fn continue_game(&mut self, game: &PgnGame) {
        self.send(Command::Continue(game.game.clone()));
        // A game that carries its evaluations shows its review at once.
        self.review = GameUnderReview::from_comments(game.game.clone(), &game.comments);
        self.last_event = format!(
            "loaded {} – {}: set the board up as shown",
            game.tags.white, game.tags.black
        );
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.autosave
            .finish(&self.snapshot.games, &self.record.readings);
    }
}

/// Who plays whom, for the voice.
fn seats_of(seat: &EngineSeat, player: Color) -> Seats<'_> {
    Seats {
        engine: seat
            .engine()
            .map(|engine| (engine.side(), engine.name().unwrap_or("The engine"))),
        player,
    }
}

/// How often a fading flash is redrawn.
const FADE_STEP: Duration = Duration::from_millis(50);

#[cfg(test)]
mod tests;
