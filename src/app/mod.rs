//! The desktop app: the recognised position beside the raw sensor grid, the move list,
//! promotion by click, game controls, the connection panel and a timeline for recorded
//! sessions. egui only: it draws state it owns or receives from the serial worker.

mod board_view;
mod pieces;
pub mod sensor_view;
pub mod settings;
pub mod source;

use eframe::egui;
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use egui::{Color32, Key, RichText, Vec2};
use shakmaty::{Move, Position, Role, Square};

use crate::connection::{
    Command, Connection, ConnectionStatus, PortChoice, Snapshot, Update, connect, list_ports,
};
use crate::files::write_atomically;
use crate::pgn::autosave::{Autosave, SessionSave, Unfinished};
use crate::pgn::{GameTags, PgnGame, read_games, write_game};
use crate::protocol::Protocol;
use crate::reading::{Reading, TimedReading};
use crate::recognizer::event::{dead_sensor_words, uci};
use crate::recognizer::{BoardOrientation, BoardStatus, Config, EventKind, Recognizer};
use crate::sensorlog;
use pieces::PieceTextures;
use settings::Settings;
use source::{SIMULATED_PROTOCOL, SimulatedBoard, Timeline, game_end};

/// How the app starts.
#[derive(Default)]
pub struct StartOptions {
    /// A sensor log to open in the timeline.
    pub open_log: Option<PathBuf>,
    /// Where unfinished games are saved; `None` turns autosave off.
    pub autosave: Option<Autosave>,
}

/// Runs the app in a window.
pub fn run(options: StartOptions) -> eframe::Result {
    let native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("boardsight")
            .with_inner_size([1280.0, 800.0])
            .with_min_inner_size([900.0, 600.0]),
        persist_window: true,
        ..Default::default()
    };
    eframe::run_native(
        "boardsight",
        native,
        Box::new(|cc| Ok(Box::new(BoardsightApp::new(cc, options)))),
    )
}

/// Where the readings come from.
enum Source {
    /// The built-in simulated board, through the serial worker.
    Simulated(Box<SimulatedBoard>),
    /// A board on a serial port.
    Serial {
        port: String,
        protocol: Protocol,
    },
    /// A recorded sensor log.
    Log(Box<Timeline>),
    None,
}

pub struct BoardsightApp {
    settings: Settings,
    notice: Option<String>,
    textures: Option<PieceTextures>,
    source: Source,
    live: Option<Connection>,
    snapshot: Snapshot,
    connection_status: Option<ConnectionStatus>,
    readings: Vec<TimedReading>,
    recent_readings: VecDeque<Instant>,
    last_event: String,
    flashes: Vec<(Square, Instant)>,
    last_sensed: shakmaty::Bitboard,
    viewed_ply: Option<usize>,
    fen_input: String,
    ports: Vec<PortChoice>,
    chosen_port: String,
    chosen_protocol: Protocol,
    pgn_choice: Option<Vec<PgnGame>>,
    autosave: Option<Autosave>,
    /// This session's autosave files, made at its first move.
    session_save: Option<SessionSave>,
    /// Sessions earlier runs left unsaved, offered for restore (the newest first).
    unfinished: Vec<Unfinished>,
    /// A restored session whose files go once its game is saved again in this one.
    restored_from: Option<Unfinished>,
    autosaved_plies: Option<usize>,
}

impl BoardsightApp {
    pub fn new(cc: &eframe::CreationContext<'_>, options: StartOptions) -> Self {
        let (settings, warning) = Settings::load(cc.storage);
        let ctx = cc.egui_ctx.clone();
        ctx.set_theme(if settings.dark_theme {
            egui::Theme::Dark
        } else {
            egui::Theme::Light
        });
        let unfinished = options
            .autosave
            .as_ref()
            .map(Autosave::unfinished)
            .unwrap_or_default();
        let mut app = Self {
            chosen_port: settings.port.clone().unwrap_or_default(),
            chosen_protocol: settings.protocol.parse().unwrap_or(Protocol::Liboard),
            settings,
            notice: warning,
            textures: Some(PieceTextures::load(&ctx)),
            source: Source::None,
            live: None,
            snapshot: Snapshot::of(&Recognizer::default(), 0),
            connection_status: None,
            readings: Vec::new(),
            recent_readings: VecDeque::new(),
            last_event: String::new(),
            flashes: Vec::new(),
            last_sensed: shakmaty::Bitboard::EMPTY,
            viewed_ply: None,
            fen_input: String::new(),
            ports: list_ports(),
            pgn_choice: None,
            autosave: options.autosave,
            session_save: None,
            unfinished,
            restored_from: None,
            autosaved_plies: None,
        };
        match options.open_log {
            Some(path) => app.open_log(&path),
            None => app.use_simulator(&ctx),
        }
        app
    }

    // ----- sources -----

    fn wake(ctx: &egui::Context) -> Arc<dyn Fn() + Send + Sync> {
        let ctx = ctx.clone();
        Arc::new(move || ctx.request_repaint())
    }

    fn reset_session(&mut self) {
        self.live = None;
        self.readings.clear();
        self.recent_readings.clear();
        self.flashes.clear();
        self.viewed_ply = None;
        self.connection_status = None;
        self.autosaved_plies = None;
        self.session_save = None;
        self.snapshot = Snapshot::of(&Recognizer::default(), 0);
    }

    fn recognizer_config(&self) -> Config {
        Config {
            orientation: self.settings.board_orientation,
            ..Config::default()
        }
    }

    fn use_simulator(&mut self, ctx: &egui::Context) {
        self.reset_session();
        self.source = Source::None;
        match SimulatedBoard::start() {
            Ok(board) => {
                self.live = Some(connect(
                    board.path(),
                    SIMULATED_PROTOCOL,
                    self.recognizer_config(),
                    Self::wake(ctx),
                ));
                self.source = Source::Simulated(Box::new(board));
            }
            Err(e) => self.notice = Some(format!("The simulated board could not start: {e}")),
        }
    }

    fn use_serial(&mut self, ctx: &egui::Context, port: String, protocol: Protocol) {
        self.reset_session();
        let connection = connect(&port, protocol, self.recognizer_config(), Self::wake(ctx));
        connection.send(Command::Orient(self.settings.sensor_orientation));
        self.live = Some(connection);
        self.settings.port = Some(port.clone());
        self.settings.protocol = protocol.name().to_owned();
        self.source = Source::Serial { port, protocol };
    }

    fn open_log(&mut self, path: &Path) {
        match sensorlog::read_file(path) {
            Ok(readings) => {
                self.reset_session();
                let name = path.file_name().map_or_else(
                    || path.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                );
                let mut timeline = Timeline::new(name, readings, self.recognizer_config());
                timeline.seek(timeline.len());
                self.snapshot = timeline.snapshot();
                self.source = Source::Log(Box::new(timeline));
            }
            Err(error) => self.notice = Some(error.to_string()),
        }
    }

    fn send(&self, command: Command) {
        if let Some(live) = &self.live {
            live.send(command);
        }
    }

    // ----- updates -----

    fn receive(&mut self) {
        let Some(live) = &self.live else { return };
        let now = Instant::now();
        let mut updates = Vec::new();
        while let Ok(update) = live.updates.try_recv() {
            updates.push(update);
        }
        for update in updates {
            match update {
                Update::Reading(reading) => {
                    self.note_reading(reading, now);
                    self.readings.push(reading);
                }
                Update::Events(events) => {
                    if let Some(text) = events.iter().rev().find_map(|e| describe_event(&e.kind)) {
                        self.last_event = text;
                    }
                }
                Update::Snapshot(snapshot) => self.snapshot = *snapshot,
                Update::Status(status) => self.connection_status = Some(status),
            }
        }
    }

    fn note_reading(&mut self, reading: TimedReading, now: Instant) {
        self.recent_readings.push_back(now);
        match reading.reading {
            Reading::Lift(square) | Reading::Place(square) => self.flashes.push((square, now)),
            Reading::Occupancy(occupancy) => {
                for square in occupancy ^ self.last_sensed {
                    self.flashes.push((square, now));
                }
                self.last_sensed = occupancy;
            }
            Reading::Promote(_) => {}
        }
    }

    fn readings_per_second(&mut self, now: Instant) -> usize {
        while self
            .recent_readings
            .front()
            .is_some_and(|t| now.duration_since(*t) > Duration::from_secs(1))
        {
            self.recent_readings.pop_front();
        }
        self.recent_readings.len()
    }

    fn autosave_after_moves(&mut self) {
        let Some(autosave) = &self.autosave else {
            return;
        };
        if !matches!(self.source, Source::Simulated(_) | Source::Serial { .. }) {
            return;
        }
        // Every game of the session counts: a new game never hides the one before.
        let plies: usize = self.snapshot.games.iter().map(|g| g.moves.len()).sum();
        if self.autosaved_plies == Some(plies) || plies == 0 {
            return;
        }
        self.autosaved_plies = Some(plies);
        let session = match self.session_save.take() {
            Some(session) => Ok(session),
            None => autosave.session(),
        };
        let saved = session.and_then(|mut session| {
            let saved = session.save(&self.snapshot.games, &self.readings);
            self.session_save = Some(session);
            saved
        });
        match saved {
            Ok(()) => {
                if let Some(restored) = self.restored_from.take()
                    && let Err(e) = restored.discard()
                {
                    self.notice = Some(format!("{}: {e}", restored.pgn_path.display()));
                }
            }
            Err(e) => self.notice = Some(format!("Autosave failed: {e}")),
        }
    }

    // ----- files -----

    fn save_pgn(&mut self, path: &Path) {
        let tags = GameTags::default();
        let games = if self.snapshot.games.is_empty() {
            vec![self.snapshot.game.clone()]
        } else {
            self.snapshot.games.clone()
        };
        let text: String = games.iter().map(|g| write_game(g, &tags)).collect();
        match write_atomically(path, text.as_bytes()) {
            Ok(()) => {
                self.last_event = format!("saved {}", path.display());
                if let Some(session) = &mut self.session_save
                    && let Err(e) = session.clear()
                {
                    self.notice = Some(format!("{}: {e}", session.pgn_path().display()));
                }
            }
            Err(e) => self.notice = Some(format!("{}: {e}", path.display())),
        }
    }

    fn save_log(&mut self, path: &Path) {
        let mut bytes = Vec::new();
        let readings = match &self.source {
            Source::Log(_) => None,
            _ => Some(&self.readings),
        };
        let Some(readings) = readings else {
            self.notice = Some("This session is a recording already.".into());
            return;
        };
        let result =
            sensorlog::write(&mut bytes, readings).and_then(|()| write_atomically(path, &bytes));
        match result {
            Ok(()) => self.last_event = format!("saved {}", path.display()),
            Err(e) => self.notice = Some(format!("{}: {e}", path.display())),
        }
    }

    fn load_pgn(&mut self, path: &Path) {
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) => {
                self.notice = Some(format!("{}: {e}", path.display()));
                return;
            }
        };
        let mut games = Vec::new();
        let mut problems = Vec::new();
        for game in read_games(&bytes) {
            match game {
                Ok(game) => games.push(game),
                Err(e) => problems.push(e.to_string()),
            }
        }
        if !problems.is_empty() {
            self.notice = Some(format!("{}: {}", path.display(), problems.join("; ")));
        }
        match games.len() {
            0 => {}
            1 => self.continue_game(&games[0]),
            _ => self.pgn_choice = Some(games),
        }
    }

    fn continue_game(&mut self, game: &PgnGame) {
        self.send(Command::Continue(game.game.clone()));
        self.viewed_ply = None;
        self.last_event = format!(
            "loaded {} – {}: set the board up as shown",
            game.tags.white, game.tags.black
        );
    }

    // ----- drawing -----

    fn menu_bar(&mut self, ui: &mut egui::Ui) {
        ui.horizontal_wrapped(|ui| {
            if ui.button("Open log…").clicked()
                && let Some(path) = rfd::FileDialog::new()
                    .add_filter("sensor log", &["log", "txt"])
                    .pick_file()
            {
                self.open_log(&path);
            }
            if ui.button("Save log…").clicked()
                && let Some(path) = rfd::FileDialog::new()
                    .set_file_name("session.log")
                    .save_file()
            {
                self.save_log(&path);
            }
            if ui.button("Load PGN…").clicked()
                && let Some(path) = rfd::FileDialog::new()
                    .add_filter("PGN", &["pgn"])
                    .pick_file()
            {
                self.load_pgn(&path);
            }
            if ui.button("Save PGN…").clicked()
                && let Some(path) = rfd::FileDialog::new().set_file_name("game.pgn").save_file()
            {
                self.save_pgn(&path);
            }
            ui.separator();
            let live = self.live.is_some();
            if ui
                .add_enabled(live, egui::Button::new("New game"))
                .clicked()
            {
                self.send(Command::SetUp(shakmaty::Chess::default()));
                if let Source::Simulated(board) = &mut self.source {
                    board.set_up(&shakmaty::Chess::default());
                }
            }
            if ui.add_enabled(live, egui::Button::new("Undo")).clicked() {
                self.send(Command::Undo);
            }
            let fen_label = ui.label("FEN");
            ui.add(egui::TextEdit::singleline(&mut self.fen_input).desired_width(220.0))
                .labelled_by(fen_label.id);
            if ui.add_enabled(live, egui::Button::new("Set up")).clicked() {
                match crate::parse_fen(&self.fen_input) {
                    Ok(position) => {
                        if let Source::Simulated(board) = &mut self.source {
                            board.set_up(&position);
                        }
                        self.send(Command::SetUp(position));
                        self.notice = None;
                    }
                    Err(e) => self.notice = Some(e.to_string()),
                }
            }
            ui.separator();
            if let Source::Simulated(board) = &mut self.source {
                if board.demo_running() {
                    if ui.button("Stop demo").clicked() {
                        board.stop_demo();
                    }
                } else {
                    if ui.button("Demo game").clicked() {
                        board.start_demo(&crate::sim::sample::games(), 2.0);
                    }
                    if ui.button("Demo from PGN…").clicked()
                        && let Some(path) = rfd::FileDialog::new()
                            .add_filter("PGN", &["pgn"])
                            .pick_file()
                    {
                        match std::fs::read(&path) {
                            Ok(bytes) => {
                                let games: Vec<_> = read_games(&bytes)
                                    .into_iter()
                                    .filter_map(Result::ok)
                                    .map(|g| g.game)
                                    .collect();
                                if games.is_empty() {
                                    self.notice =
                                        Some(format!("{}: no game to play", path.display()));
                                } else {
                                    board.start_demo(&games, 2.0);
                                }
                            }
                            Err(e) => self.notice = Some(format!("{}: {e}", path.display())),
                        }
                    }
                }
            }
            if ui.button("Flip board").clicked() {
                self.settings.board_flipped = !self.settings.board_flipped;
            }
            let theme = if self.settings.dark_theme {
                "Light theme"
            } else {
                "Dark theme"
            };
            if ui.button(theme).clicked() {
                self.settings.dark_theme = !self.settings.dark_theme;
                ui.ctx().set_theme(if self.settings.dark_theme {
                    egui::Theme::Dark
                } else {
                    egui::Theme::Light
                });
            }
        });
    }

    fn connection_panel(&mut self, ui: &mut egui::Ui) {
        ui.heading("Board");
        let ctx = ui.ctx().clone();
        if ui
            .radio(
                matches!(self.source, Source::Simulated(_)),
                "Simulated board",
            )
            .clicked()
            && !matches!(self.source, Source::Simulated(_))
        {
            self.use_simulator(&ctx);
        }
        ui.separator();
        ui.label("Serial port");
        egui::ComboBox::from_label("Port")
            .selected_text(if self.chosen_port.is_empty() {
                "choose…"
            } else {
                &self.chosen_port
            })
            .width(180.0)
            .show_ui(ui, |ui| {
                for port in &self.ports {
                    ui.selectable_value(
                        &mut self.chosen_port,
                        port.path.clone(),
                        format!("{} — {}", port.path, port.description),
                    );
                }
            });
        ui.horizontal(|ui| {
            ui.add(
                egui::TextEdit::singleline(&mut self.chosen_port)
                    .hint_text("/dev/ttyUSB0")
                    .desired_width(140.0),
            );
            if ui.button("Refresh").clicked() {
                self.ports = list_ports();
            }
        });
        egui::ComboBox::from_label("Protocol")
            .selected_text(self.chosen_protocol.name())
            .show_ui(ui, |ui| {
                for protocol in Protocol::ALL {
                    ui.selectable_value(&mut self.chosen_protocol, protocol, protocol.name());
                }
            });
        let connected_here = matches!(&self.source, Source::Serial { .. });
        ui.horizontal(|ui| {
            if ui
                .add_enabled(!self.chosen_port.is_empty(), egui::Button::new("Connect"))
                .clicked()
            {
                let port = self.chosen_port.trim().to_owned();
                self.use_serial(&ctx, port, self.chosen_protocol);
            }
            if ui
                .add_enabled(connected_here, egui::Button::new("Disconnect"))
                .clicked()
            {
                self.reset_session();
                self.source = Source::None;
            }
        });
        ui.separator();
        ui.label("Sensor orientation");
        let mut orientation = self.settings.sensor_orientation;
        ui.horizontal(|ui| {
            if ui.button("Rotate").clicked() {
                orientation.quarter_turns = (orientation.quarter_turns + 1) % 4;
            }
            ui.checkbox(&mut orientation.mirrored, "Mirror");
            ui.label(format!("{}°", u32::from(orientation.quarter_turns) * 90));
        });
        if orientation != self.settings.sensor_orientation {
            self.settings.sensor_orientation = orientation;
            if matches!(self.source, Source::Serial { .. }) {
                self.send(Command::Orient(orientation));
            }
        }
        egui::ComboBox::from_label("Way round")
            .width(110.0)
            .selected_text(orientation_text(self.settings.board_orientation))
            .show_ui(ui, |ui| {
                for choice in BoardOrientation::ALL {
                    ui.selectable_value(
                        &mut self.settings.board_orientation,
                        choice,
                        orientation_text(choice),
                    );
                }
            })
            .response
            .on_hover_text(
                "How the board is set up on its sensors: found from White's first move, as \
                 wired, or turned round (a1 on the sensor of h8). Used from the next \
                 connection or recording on.",
            );
        if let Source::Simulated(board) = &self.source {
            ui.separator();
            ui.label(RichText::new("Click the sensor grid to lift and place pieces.").weak());
            if !board.hand().is_empty() {
                let hand: Vec<String> = board
                    .hand()
                    .iter()
                    .map(|p| pieces::piece_name(*p))
                    .collect();
                ui.label(format!("In hand: {}", hand.join(", ")));
            }
        }
    }

    fn status_bar(&mut self, ui: &mut egui::Ui) {
        let now = Instant::now();
        let rate = self.readings_per_second(now);
        ui.horizontal(|ui| {
            let source = match &self.source {
                Source::Simulated(_) => format!("simulated board ({})", SIMULATED_PROTOCOL.name()),
                Source::Serial { port, protocol } => format!("{port} ({protocol})"),
                Source::Log(timeline) => format!("recording {}", timeline.name),
                Source::None => "no board".into(),
            };
            ui.label(source);
            ui.separator();
            let state = match &self.connection_status {
                Some(ConnectionStatus::Connecting) => "connecting…".to_owned(),
                Some(ConnectionStatus::WaitingForData) => "waiting for data".to_owned(),
                Some(ConnectionStatus::Connected) => "connected".to_owned(),
                Some(ConnectionStatus::Error(e)) => format!("error: {e}"),
                None => "—".to_owned(),
            };
            ui.label(state);
            ui.separator();
            ui.label(format!("{rate} readings/s"));
            if self.snapshot.dropped > 0 {
                ui.separator();
                ui.label(format!("{} bad frames", self.snapshot.dropped));
            }
            ui.separator();
            ui.label(&self.last_event);
        });
    }

    fn move_list(&mut self, ui: &mut egui::Ui) {
        ui.heading("Moves");
        let game = &self.snapshot.game;
        let sans = game.san_moves();
        let positions = game.positions();
        let mut clicked = None;
        egui::ScrollArea::vertical()
            .max_height(ui.available_height() - 260.0)
            .stick_to_bottom(true)
            .show(ui, |ui| {
                egui::Grid::new("moves")
                    .num_columns(3)
                    .striped(true)
                    .show(ui, |ui| {
                        let black_first = game.start.turn() == shakmaty::Color::Black;
                        let mut column = 0;
                        if black_first && !sans.is_empty() {
                            ui.label(format!("{}.", game.start.fullmoves()));
                            ui.label("…");
                            column = 2;
                        }
                        for (i, san) in sans.iter().enumerate() {
                            if column == 0 {
                                ui.label(format!("{}.", positions[i].fullmoves()));
                            }
                            let selected = self.viewed_ply == Some(i + 1);
                            if ui.selectable_label(selected, san.to_string()).clicked() {
                                clicked = Some(i + 1);
                            }
                            column = if column == 2 { 0 } else { 2 };
                            if column == 0 {
                                ui.end_row();
                            }
                        }
                    });
                if let Some(result) = game_end(&game.final_position()) {
                    ui.strong(result);
                }
            });
        if let Some(ply) = clicked {
            self.viewed_ply = if ply == game.moves.len() {
                None
            } else {
                Some(ply)
            };
        }
        if self.viewed_ply.is_some() && ui.button("Back to the live position").clicked() {
            self.viewed_ply = None;
        }
        ui.separator();
        self.promotion_picker(ui);
        self.ambiguity_picker(ui);
    }

    fn promotion_picker(&mut self, ui: &mut egui::Ui) {
        let last_promotion = match self.snapshot.game.moves.last() {
            Some(Move::Normal {
                promotion: Some(role),
                ..
            }) => Some(*role),
            _ => None,
        };
        let (title, current) = match last_promotion {
            Some(role) => ("Promoted to", role),
            None => ("Next promotion:", self.snapshot.pending_promotion),
        };
        let name = |role: Role| match role {
            Role::Queen => "queen",
            Role::Rook => "rook",
            Role::Bishop => "bishop",
            Role::Knight => "knight",
            _ => "?",
        };
        match last_promotion {
            Some(_) => ui.label(format!(
                "{title} {} (click or press Q R B N to change)",
                name(current)
            )),
            None => ui.label(format!(
                "{title} {} (click or press Q R B N)",
                name(current)
            )),
        };
        let color = match last_promotion {
            Some(_) => !self.snapshot.position.turn(),
            None => self.snapshot.position.turn(),
        };
        let mut chosen = None;
        // A recording shows what happened; only a live board takes choices.
        let live = self.live.is_some();
        let typing = ui.ctx().text_edit_focused() || !live;
        ui.horizontal(|ui| {
            for (role, name, key) in [
                (Role::Queen, "Queen", Key::Q),
                (Role::Rook, "Rook", Key::R),
                (Role::Bishop, "Bishop", Key::B),
                (Role::Knight, "Knight", Key::N),
            ] {
                let piece = shakmaty::Piece { color, role };
                let button = match self.textures.as_ref().and_then(|t| t.get(piece)) {
                    Some(texture) => egui::Button::new((
                        egui::Image::new(texture).fit_to_exact_size(Vec2::splat(34.0)),
                        name,
                    )),
                    None => egui::Button::new(name),
                };
                if ui
                    .add_enabled(live, button.selected(role == current))
                    .clicked()
                    || (!typing && ui.input(|i| i.key_pressed(key)))
                {
                    chosen = Some(role);
                }
            }
        });
        if let Some(role) = chosen
            && role != current
        {
            self.send(Command::Promote(role));
        }
    }

    fn ambiguity_picker(&mut self, ui: &mut egui::Ui) {
        let Some((ply, candidates)) = self.snapshot.ambiguity.clone() else {
            return;
        };
        ui.separator();
        ui.colored_label(
            Color32::from_rgb(230, 160, 40),
            format!("Move {ply} could not be seen for sure. Which was it?"),
        );
        let positions = self.snapshot.game.positions();
        for mv in candidates {
            let san = positions.get(ply - 1).map_or_else(
                || uci(mv).to_string(),
                |p| shakmaty::san::San::from_move(p, mv).to_string(),
            );
            if ui
                .add_enabled(self.live.is_some(), egui::Button::new(san))
                .clicked()
            {
                self.send(Command::Choose { ply, mv });
            }
        }
    }

    fn timeline_controls(&mut self, ui: &mut egui::Ui) {
        let Source::Log(timeline) = &mut self.source else {
            return;
        };
        let mut index = timeline.index();
        let len = timeline.len();
        ui.horizontal(|ui| {
            if ui.button("Step back").clicked() {
                index = index.saturating_sub(1);
            }
            if timeline.is_playing() {
                if ui.button("Pause").clicked() {
                    timeline.pause();
                }
            } else {
                for speed in [1.0, 2.0, 4.0, 8.0] {
                    if ui.button(format!("Play {speed}×")).clicked() {
                        timeline.play(speed);
                    }
                }
            }
            if ui.button("Step forward").clicked() {
                index = (index + 1).min(len);
            }
            ui.add(egui::Slider::new(&mut index, 0..=len).text("reading"));
            ui.label(format!(
                "{:.1} s of {:.1} s",
                timeline.time() as f64 / 1000.0,
                timeline.end_time() as f64 / 1000.0
            ));
        });
        if index != timeline.index() {
            timeline.pause();
            timeline.seek(index);
        }
        if let Some(reading) = timeline.last_reading() {
            ui.label(
                RichText::new(format!(
                    "last reading: {}",
                    sensorlog::format_reading(reading)
                ))
                .monospace(),
            );
        }
        let recent: Vec<String> = timeline
            .events()
            .iter()
            .rev()
            .take(6)
            .map(ToString::to_string)
            .collect();
        for line in recent.iter().rev() {
            ui.label(RichText::new(line).monospace().small());
        }
    }

    fn central(&mut self, ui: &mut egui::Ui) {
        if let Some(notice) = self.notice.clone() {
            ui.horizontal(|ui| {
                ui.colored_label(Color32::from_rgb(230, 160, 40), notice);
                if ui.small_button("Dismiss").clicked() {
                    self.notice = None;
                }
            });
        }
        let status = self.snapshot.status.clone();
        match (&status, sensor_view::illegal_banner(&status)) {
            (_, Some(banner)) => {
                let text = if self.snapshot.has_started {
                    banner
                } else {
                    format!("Set up the board: {banner}")
                };
                ui.label(
                    RichText::new(text)
                        .color(Color32::WHITE)
                        .background_color(Color32::from_rgb(200, 40, 40))
                        .size(18.0),
                );
            }
            (BoardStatus::Waiting { .. }, None) => {
                ui.label(RichText::new("Move in progress…").size(18.0));
            }
            _ => {
                ui.label(
                    RichText::new(if self.snapshot.has_started {
                        " "
                    } else {
                        "Set up the start position"
                    })
                    .size(18.0),
                );
            }
        }
        let game = &self.snapshot.game;
        let (position, last_move) = match self.viewed_ply {
            Some(ply) if ply <= game.moves.len() => (
                game.positions()[ply].clone(),
                game.moves.get(ply - 1).copied(),
            ),
            _ => (self.snapshot.position.clone(), game.moves.last().copied()),
        };
        let available = ui.available_size();
        let timeline_room = if matches!(self.source, Source::Log(_)) {
            150.0
        } else {
            10.0
        };
        // The board and a sensor grid three quarters its size, side by side.
        let side = ((available.x - 24.0) / 1.75)
            .min(available.y - timeline_room - 40.0)
            .max(160.0);
        let flipped = self.settings.board_flipped;
        let mut sensor_click = None;
        ui.horizontal(|ui| {
            if let Some(textures) = &self.textures {
                ui.vertical(|ui| {
                    ui.label(if self.viewed_ply.is_some() {
                        "Position (earlier move)"
                    } else {
                        "Recognised position"
                    });
                    board_view::show(ui, &position, last_move, flipped, textures, side);
                });
            }
            ui.add_space(16.0);
            ui.vertical(|ui| {
                ui.label("Sensors");
                let clickable = matches!(self.source, Source::Simulated(_));
                let dead = self.snapshot.dead_sensors.iter().map(|(s, _)| *s).collect();
                sensor_click = sensor_view::show(
                    ui,
                    self.snapshot.sensed,
                    self.snapshot.expected,
                    &status,
                    dead,
                    &self.flashes,
                    flipped,
                    side * 0.75,
                    clickable,
                );
                ui.add_space(8.0);
                sensor_view::legend(ui);
                findings(ui, &self.snapshot);
            });
        });
        if let (Some(square), Source::Simulated(board)) = (sensor_click, &mut self.source) {
            board.click(square, self.snapshot.pending_promotion);
        }
        self.timeline_controls(ui);
    }

    /// Offers the newest unsaved session of an earlier run: continue its game on the
    /// board, open its log on the timeline (every game), or discard what was found.
    fn restore_dialog(&mut self, ctx: &egui::Context, newest: &Unfinished) {
        let games: Vec<PgnGame> = read_games(newest.pgn.as_bytes())
            .into_iter()
            .filter_map(Result::ok)
            .collect();
        let count = self.unfinished.len();
        egui::Window::new("Restore unsaved games?")
            .collapsible(false)
            .resizable(false)
            .show(ctx, |ui| {
                ui.label(format!(
                    "boardsight found {} unsaved game{} from {}{}.",
                    games.len(),
                    if games.len() == 1 { "" } else { "s" },
                    newest
                        .pgn_path
                        .file_stem()
                        .map_or_else(String::new, |s| s.to_string_lossy().replace('_', " ")),
                    if count > 1 {
                        format!(" (and {} older sessions)", count - 1)
                    } else {
                        String::new()
                    }
                ));
                ui.horizontal(|ui| {
                    if ui.button("Restore").clicked() {
                        if let Some(last) = games.last() {
                            self.continue_game(last);
                        }
                        if games.len() > 1 {
                            self.notice = Some(format!(
                                "The earlier games of that session stay in {} (Open log shows them all).",
                                newest.pgn_path.display()
                            ));
                        } else {
                            self.restored_from = Some(newest.clone());
                        }
                        self.unfinished.remove(0);
                    }
                    if ui.button("Open log").clicked() {
                        self.open_log(&newest.log_path);
                        self.unfinished.remove(0);
                    }
                    if ui.button("Discard").clicked() {
                        for unfinished in std::mem::take(&mut self.unfinished) {
                            if let Err(e) = unfinished.discard() {
                                self.notice =
                                    Some(format!("{}: {e}", unfinished.pgn_path.display()));
                            }
                        }
                    }
                    if ui.button("Later").clicked() {
                        self.unfinished.clear();
                    }
                });
            });
    }

    fn dialogs(&mut self, ctx: &egui::Context) {
        if let Some(newest) = self.unfinished.first().cloned() {
            self.restore_dialog(ctx, &newest);
        }
        if let Some(games) = self.pgn_choice.clone() {
            let mut open = true;
            egui::Window::new("Choose a game")
                .open(&mut open)
                .show(ctx, |ui| {
                    egui::ScrollArea::vertical()
                        .max_height(400.0)
                        .show(ui, |ui| {
                            for game in &games {
                                if ui.selectable_label(false, game.summary()).clicked() {
                                    self.continue_game(game);
                                    self.pgn_choice = None;
                                }
                            }
                        });
                });
            if !open {
                self.pgn_choice = None;
            }
        }
    }
}

/// What boardsight found out about the board itself: dead sensors, a board turned round.
fn findings(ui: &mut egui::Ui, snapshot: &Snapshot) {
    let color = Color32::from_rgb(230, 160, 40);
    for &(square, stuck_occupied) in &snapshot.dead_sensors {
        ui.colored_label(color, dead_sensor_words(square, stuck_occupied));
    }
    if snapshot.turned {
        ui.colored_label(
            color,
            EventKind::Orientation { turned: true }
                .finding()
                .unwrap_or_default(),
        );
    }
}

fn orientation_text(orientation: BoardOrientation) -> &'static str {
    match orientation {
        BoardOrientation::Auto => "auto",
        BoardOrientation::Normal => "as wired",
        BoardOrientation::Turned => "turned round",
    }
}

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
    })
}

impl eframe::App for BoardsightApp {
    fn logic(&mut self, ctx: &egui::Context, _frame: &mut eframe::Frame) {
        self.receive();
        let now = Instant::now();
        if let Source::Log(timeline) = &mut self.source {
            let next = timeline.advance(now);
            if timeline.is_playing() || next.is_some() {
                self.snapshot = timeline.snapshot();
                if let Some(wait) = next {
                    ctx.request_repaint_after(wait);
                }
            } else {
                self.snapshot = timeline.snapshot();
            }
        }
        self.flashes
            .retain(|(_, at)| now.duration_since(*at) < sensor_view::FLASH);
        if !self.flashes.is_empty() {
            // Only while a flash fades; an idle board repaints nothing.
            ctx.request_repaint_after(Duration::from_millis(50));
        }
        self.autosave_after_moves();
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        egui::Panel::top("menu").show(ui, |ui| self.menu_bar(ui));
        egui::Panel::bottom("status").show(ui, |ui| self.status_bar(ui));
        egui::Panel::left("connection")
            .resizable(false)
            .default_size(230.0)
            .show(ui, |ui| self.connection_panel(ui));
        egui::Panel::right("moves")
            .resizable(false)
            .default_size(250.0)
            .show(ui, |ui| self.move_list(ui));
        egui::CentralPanel::default().show(ui, |ui| self.central(ui));
        let ctx = ui.ctx().clone();
        self.dialogs(&ctx);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        self.settings.save(storage);
    }
}
