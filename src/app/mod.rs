//! The desktop app: the recognised position beside the raw sensor grid, the move list,
//! promotion by click, game controls, the connection panel and a timeline for recorded
//! sessions.
//!
//! The parts: a [`crate::session::Session`] holds what is shown and recorded (no egui); panels,
//! each in its own file, only draw and push an [`AppCommand`]; `command_handling` carries
//! the commands out after the UI pass; file work runs on the job thread (`jobs`).

mod analysis_view;
mod board_view;
mod central_panel;
mod clock_view;
mod command;
mod command_handling;
mod connection_panel;
mod dialogs;
mod engine_panel;
mod help;
mod jobs;
pub mod layout;
mod menu_bar;
mod move_list;
mod online_panel;
pub(crate) mod pieces;
mod review_view;
pub mod sensor_view;
pub mod settings;
mod shortcuts;
mod side_panel;
mod status_bar;
mod table_view;
mod theme;
mod time_strip;
mod timeline_panel;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use eframe::egui;

pub use crate::session::Timeline;
pub use command::{AppCommand, FilePick, Window};

use crate::connection::{BoardScout, Offer, PortChoice, ScoutNews, ScoutSetup};
use crate::pgn::PgnFile;
use crate::pgn::autosave::Autosave;
use crate::session::{Session, Source};
use jobs::Jobs;
use pieces::PieceTextures;
use settings::Settings;

/// The side panel's width.
const SIDE_PANEL_WIDTH: f32 = 220.0;
/// The moves' panel's width.
const MOVES_PANEL_WIDTH: f32 = 250.0;

/// How the app starts.
#[derive(Default)]
pub struct StartOptions {
    /// A sensor log to open in the timeline.
    pub open_log: Option<PathBuf>,
    /// Where unfinished games are saved; `None` turns autosave off.
    pub autosave: Option<Autosave>,
    /// The system's file dialogs open (off under test: a pick is only said).
    pub file_dialogs: bool,
    /// Where boards are looked for as they are plugged in (`None`: nowhere, the port
    /// list is refreshed by hand).
    pub scout: Option<ScoutSetup>,
}

/// Runs the app in a window.
pub fn run(options: StartOptions) -> eframe::Result {
    let native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("boardsight")
            .with_inner_size([1280.0, 800.0])
            .with_min_inner_size([1024.0, 640.0]),
        persist_window: true,
        ..Default::default()
    };
    eframe::run_native(
        "boardsight",
        native,
        Box::new(|cc| Ok(Box::new(BoardsightApp::new(cc, options)))),
    )
}

/// What only the screen needs: textures, the text being typed, the move being looked at.
struct Screen {
    textures: Option<PieceTextures>,
    fen_input: String,
    /// An earlier position shown instead of the live one.
    viewed_ply: Option<usize>,
    ports: Vec<PortChoice>,
    /// A PGN file's games, to choose one to continue.
    chooser: Option<(String, PgnFile)>,
    /// The full-screen view for the table.
    table_view: bool,
    /// The span of a recording the time strip shows (`None`: all of it).
    time_range: Option<time_strip::TimeRange>,
    /// A square picked out on the sensor grid.
    highlight: Option<shakmaty::Square>,
    /// The sensors' health as a heat map on the grid.
    show_health: bool,
    /// Whether the sensor grid stood beside the board last frame (else the moves' panel
    /// shows it).
    grid_beside: bool,
    /// The window open over the main one.
    window: Option<Window>,
    /// The first-run welcome is shown.
    welcome: bool,
    /// The README's sections, for Help.
    guide: Vec<(String, String)>,
    /// A board found, offered to connect to.
    offer: Option<Offer>,
    /// A recording's timeline is shown under the board.
    show_timeline: bool,
    /// A lichess token typed in the Online section: kept only while the app runs (or in
    /// the system keyring, if asked).
    lichess_token: online_panel::TypedToken,
}

pub struct BoardsightApp {
    /// Persisted between runs.
    settings: Settings,
    session: Session,
    jobs: Jobs,
    screen: Screen,
    /// What the panels asked for this frame.
    commands: Vec<AppCommand>,
    /// The system's file dialogs open (off under test).
    file_dialogs: bool,
    /// Watches the ports: boards plugged in are offered, or reconnected if known.
    scout: Option<BoardScout>,
}

impl BoardsightApp {
    pub fn new(cc: &eframe::CreationContext<'_>, options: StartOptions) -> Self {
        let (settings, warning) = Settings::load(cc.storage);
        let welcome = !settings.welcome_seen;
        let ctx = cc.egui_ctx.clone();
        theme::install(&ctx, settings.dark_theme);
        egui_material_icons::initialize(&ctx);
        if (0.5..=3.0).contains(&settings.zoom) {
            ctx.set_zoom_factor(settings.zoom);
        }
        let wake: crate::background::Wake = {
            let ctx = ctx.clone();
            Arc::new(move || ctx.request_repaint())
        };
        let mut session = Session::new(options.autosave, wake.clone());
        if let Some(warning) = warning {
            session.set_notice(warning);
        }
        session.set_player(bottom_side(settings.board_flipped));
        session.set_voice(settings.voice.clone());
        let mut app = Self {
            settings,
            session,
            jobs: Jobs::start(wake.clone()),
            screen: Screen {
                textures: Some(PieceTextures::load(&ctx)),
                fen_input: String::new(),
                viewed_ply: None,
                ports: Vec::new(),
                chooser: None,
                table_view: false,
                time_range: None,
                highlight: None,
                show_health: false,
                grid_beside: true,
                window: None,
                welcome,
                guide: help::guide_sections(),
                offer: None,
                show_timeline: true,
                lichess_token: online_panel::TypedToken::default(),
            },
            commands: Vec::new(),
            file_dialogs: options.file_dialogs,
            scout: None,
        };
        if let Some(setup) = options.scout {
            let known = app.settings.known_boards.clone();
            match BoardScout::start_with(setup, known, wake.clone()) {
                Ok(scout) => app.scout = Some(scout),
                Err(e) => app
                    .session
                    .set_notice(format!("Boards plugged in will not be noticed: {e}")),
            }
        }
        let first = match options.open_log {
            Some(path) => AppCommand::OpenLog(path),
            None => AppCommand::UseSimulator,
        };
        app.run_command(&ctx, AppCommand::RefreshPorts);
        app.run_command(&ctx, first);
        if app.settings.share_as_dgt {
            app.run_command(&ctx, AppCommand::ShareAsDgt(true));
        }
        if app.settings.live_pgn_on && !app.settings.live_pgn.trim().is_empty() {
            let path = PathBuf::from(app.settings.live_pgn.trim());
            app.run_command(&ctx, AppCommand::LivePgn(Some(path)));
        }
        if app.settings.clock_on {
            let control = app.settings.time_control.parse().ok();
            app.run_command(&ctx, AppCommand::SetClock(control));
        }
        app
    }

    /// Asks for a command as a panel would (for tests and benchmarks that drive the app).
    pub fn push_command(&mut self, command: AppCommand) {
        self.commands.push(command);
    }

    /// Whether a file job is under way.
    pub fn is_busy(&self) -> bool {
        self.jobs.busy().is_some()
    }

    /// What is kept between runs, as it stands.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The settings, to change as the settings file would (tests point lichess elsewhere).
    pub fn settings_mut(&mut self) -> &mut Settings {
        &mut self.settings
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    /// Takes in what the scout saw: the ports, a known board back, a new board found.
    fn take_scout_news(&mut self, ctx: &egui::Context) {
        let Some(scout) = self.scout.as_mut() else {
            return;
        };
        for news in scout.poll() {
            match news {
                ScoutNews::Ports(ports) => self.screen.ports = ports,
                ScoutNews::ListFailed(e) => self
                    .session
                    .set_notice(format!("The serial ports could not be listed: {e}")),
                ScoutNews::Reconnect { path, protocol } => {
                    self.settings.port = path;
                    self.settings.protocol = protocol;
                    self.commands.push(AppCommand::Connect);
                }
                ScoutNews::Offer(offer) => self.screen.offer = Some(offer),
            }
        }
        if !self.commands.is_empty() {
            self.run_commands(ctx);
        }
    }

    fn run_commands(&mut self, ctx: &egui::Context) {
        for command in std::mem::take(&mut self.commands) {
            self.run_command(ctx, command);
        }
    }
}

fn theme(dark: bool) -> egui::Theme {
    if dark {
        egui::Theme::Dark
    } else {
        egui::Theme::Light
    }
}

impl eframe::App for BoardsightApp {
    fn logic(&mut self, ctx: &egui::Context, _frame: &mut eframe::Frame) {
        self.settings.zoom = ctx.zoom_factor();
        for done in self.jobs.finished() {
            self.finish_job(done);
        }
        self.take_scout_news(ctx);
        if let Some(wait) = self.session.update(Instant::now()) {
            ctx.request_repaint_after(wait);
        }
        if self.jobs.busy().is_some() {
            // The progress bar moves while a file job runs.
            ctx.request_repaint_after(Duration::from_millis(50));
        }
    }

    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        let ctx = ui.ctx().clone();
        let keys = shortcuts::KeyState {
            live: self.session.is_live(),
            table_view: self.screen.table_view,
        };
        self.commands.extend(shortcuts::pressed(&ctx, &keys));
        if self.screen.table_view && ctx.input(|i| i.key_pressed(egui::Key::Escape)) {
            self.commands.push(AppCommand::TableView(false));
        }
        if self.screen.table_view {
            egui::CentralPanel::default().show(ui, |ui| {
                table_view::show(
                    ui,
                    &self.session,
                    self.settings.board_flipped,
                    self.screen.viewed_ply,
                    self.screen.textures.as_ref(),
                    &mut self.commands,
                );
            });
            self.run_commands(&ctx);
            return;
        }
        let session = &self.session;
        let screen = &mut self.screen;
        let out = &mut self.commands;
        let textures = screen.textures.as_ref();
        let (simulated_demo, hand) = match session.source() {
            Source::Simulated { board, .. } => (Some(board.demo_running()), Some(board.hand())),
            _ => (None, None),
        };
        let recording = session.source().timeline();
        egui::Panel::top("menu").show(ui, |ui| {
            let state = menu_bar::MenuState {
                voice_problem: session.voice_problem(),
                voices: session.voices(),
                live: session.is_live(),
                can_redo: session.snapshot().can_redo,
                simulated_demo,
                serial: matches!(session.source(), Source::Serial { .. }),
                playing_engine: session.engine().is_some(),
                analysing: session.analysis_lines().is_some(),
                clock_running: session.clocks().control().is_some(),
                dgt_shared: session.dgt_share_path().is_some(),
                live_pgn: session.live_pgn_path().is_some(),
                show_health: screen.show_health,
                timeline: recording.map(|_| screen.show_timeline),
                table_view: screen.table_view,
                ports: &screen.ports,
                guide: &screen.guide,
            };
            menu_bar::show(ui, &state, &mut self.settings, out);
        });
        egui::Panel::bottom("status").show(ui, |ui| {
            status_bar::show(ui, session, self.jobs.busy());
        });
        if let Some(timeline) = recording.filter(|_| screen.show_timeline) {
            egui::Panel::bottom("timeline")
                .resizable(true)
                .default_size(250.0)
                .show(ui, |ui| {
                    let strip = time_strip::StripState {
                        range: &mut screen.time_range,
                        highlight: screen.highlight,
                    };
                    timeline_panel::show(ui, timeline, strip, out);
                });
        }
        if self.settings.side_panel {
            egui::Panel::left("side")
                .resizable(false)
                .exact_size(SIDE_PANEL_WIDTH)
                .show(ui, |ui| {
                    let state = connection_panel::SourceState {
                        simulated: simulated_demo.is_some(),
                        serial: matches!(session.source(), Source::Serial { .. }),
                        hand,
                        dgt_share: session.dgt_share_path(),
                        live_pgn: session.live_pgn_path(),
                    };
                    side_panel::show(
                        ui,
                        session,
                        &state,
                        &screen.ports,
                        &mut self.settings,
                        &mut screen.lichess_token,
                        out,
                    );
                });
        }
        egui::Panel::right("moves")
            .resizable(false)
            .exact_size(MOVES_PANEL_WIDTH)
            .show(ui, |ui| {
                if !screen.grid_beside {
                    let column = central_panel::SensorColumn {
                        flipped: self.settings.board_flipped,
                        // Room for the coordinates drawn outside the grid.
                        side: ui.available_width() - 4.0,
                        highlight: screen.highlight,
                        show_health: screen.show_health,
                        classic_colours: self.settings.classic_colours,
                        compact: true,
                    };
                    central_panel::sensor_column(ui, session, &column, out);
                    ui.separator();
                }
                let marks = session
                    .review()
                    .map(crate::session::GameUnderReview::marks)
                    .unwrap_or_default();
                if let Some(review) = session.review() {
                    review_view::show(ui, review, screen.viewed_ply, out);
                    ui.separator();
                }
                let state = move_list::MoveListState {
                    view: session.view(),
                    snapshot: session.snapshot(),
                    viewed_ply: screen.viewed_ply,
                    live: session.is_live(),
                    textures,
                    marks,
                    reviewed: session
                        .review()
                        .is_some_and(|r| r.game.moves.len() == session.view().moves.len()),
                };
                move_list::show(ui, &state, out);
            });
        egui::CentralPanel::default().show(ui, |ui| {
            let state = central_panel::BoardState {
                viewed_ply: screen.viewed_ply,
                flipped: self.settings.board_flipped,
                textures,
                highlight: screen.highlight,
                show_health: screen.show_health,
                classic_colours: self.settings.classic_colours,
                large_grid: self.settings.large_sensor_grid,
                grid_beside: &mut screen.grid_beside,
            };
            central_panel::show(ui, session, state, out);
        });
        if screen.welcome {
            help::welcome(&ctx, simulated_demo.is_some(), &screen.ports, out);
        }
        match screen.window {
            Some(Window::SetUp) => dialogs::set_up(&ctx, &mut screen.fen_input, out),
            Some(window) => help::window(&ctx, window, &screen.guide, out),
            None => {}
        }
        if let Some(found) = &screen.offer {
            dialogs::board_found(&ctx, found, out);
        }
        if let Some(offer) = session.restore_offer() {
            dialogs::restore(&ctx, offer, out);
        }
        if let Some((name, file)) = &screen.chooser {
            dialogs::choose_game(&ctx, name, file, out);
        }
        self.run_commands(&ctx);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        self.settings.save(storage);
    }
}

/// The side shown at the bottom: the player's.
fn bottom_side(flipped: bool) -> shakmaty::Color {
    if flipped {
        shakmaty::Color::Black
    } else {
        shakmaty::Color::White
    }
}
