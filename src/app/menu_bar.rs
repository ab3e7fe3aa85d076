//! The menu bar (File, Game, Board, Engine, View, Help, each item with its shortcut) and,
//! after it on the same row, a small toolbar of icons for what every game uses.

use std::path::PathBuf;

use eframe::egui;
use egui::{Button, RichText, Ui};
use egui_material_icons::icons;

use super::command::{AppCommand, FilePick, Window};
use super::settings::Settings;
use super::shortcuts::{self, Action, KeyState};
use crate::connection::PortChoice;
use crate::protocol::Protocol;
use crate::recognizer::BoardOrientation;

/// What the menus need to know of the app.
pub struct MenuState<'a> {
    /// Why nothing is heard although the voice is on.
    pub voice_problem: Option<&'a str>,
    /// The voices the system's speech offers.
    pub voices: &'a [String],
    pub live: bool,
    pub can_redo: bool,
    /// `Some(demo running)` on the simulated board.
    pub simulated_demo: Option<bool>,
    pub serial: bool,
    pub playing_engine: bool,
    pub analysing: bool,
    pub clock_running: bool,
    pub dgt_shared: bool,
    pub live_pgn: bool,
    pub show_health: bool,
    /// `Some(shown)` while a recording is open.
    pub timeline: Option<bool>,
    pub table_view: bool,
    pub ports: &'a [PortChoice],
    /// The README's sections, for the Help menu.
    pub guide: &'a [(String, String)],
}

pub fn show(
    ui: &mut Ui,
    state: &MenuState<'_>,
    settings: &mut Settings,
    out: &mut Vec<AppCommand>,
) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| file_menu(ui, state, settings, out));
        ui.menu_button("Game", |ui| game_menu(ui, state, out));
        ui.menu_button("Board", |ui| board_menu(ui, state, settings, out));
        ui.menu_button("Engine", |ui| engine_menu(ui, state, settings, out));
        ui.menu_button("Voice", |ui| voice_menu(ui, state, settings, out));
        ui.menu_button("View", |ui| view_menu(ui, state, settings, out));
        ui.menu_button("Help", |ui| help_menu(ui, state, out));
        ui.separator();
        toolbar(ui, state, settings, out);
    });
}

/// A menu item with its shortcut shown; pushes the shortcut's command when clicked.
fn item(ui: &mut Ui, label: &str, action: Action, enabled: bool, state: &MenuState<'_>) -> bool {
    let shortcut = shortcuts::text(ui.ctx(), action);
    let clicked = ui
        .add_enabled(enabled, Button::new(label).shortcut_text(shortcut))
        .clicked();
    clicked && shortcuts::command(action, &key_state(state)).is_some()
}

fn key_state(state: &MenuState<'_>) -> KeyState {
    KeyState {
        live: state.live,
        table_view: state.table_view,
    }
}

fn push_action(action: Action, state: &MenuState<'_>, out: &mut Vec<AppCommand>) {
    out.extend(shortcuts::command(action, &key_state(state)));
}

fn file_menu(ui: &mut Ui, state: &MenuState<'_>, settings: &Settings, out: &mut Vec<AppCommand>) {
    for (label, action) in [
        ("Open PGN…", Action::OpenPgn),
        ("Save PGN…", Action::SavePgn),
        ("Open sensor log…", Action::OpenLog),
        ("Save sensor log…", Action::SaveLog),
    ] {
        if item(ui, label, action, true, state) {
            push_action(action, state, out);
        }
    }
    ui.menu_button("Recent files", |ui| {
        if settings.recent_files.is_empty() {
            ui.label(RichText::new("none yet").weak());
        }
        for path in &settings.recent_files {
            let name = path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into(),
            );
            if ui
                .button(name)
                .on_hover_text(path.display().to_string())
                .clicked()
            {
                out.push(open_recent(path.clone()));
            }
        }
    });
    ui.separator();
    if ui
        .button("Export image…")
        .on_hover_text("The position shown, as drawn, as a PNG")
        .clicked()
    {
        out.push(AppCommand::Pick(FilePick::ExportPng));
    }
    if ui
        .button("Export game as GIF…")
        .on_hover_text("A frame a move; a review's marked moves are flagged")
        .clicked()
    {
        out.push(AppCommand::Pick(FilePick::ExportGif));
    }
    ui.separator();
    if item(ui, "Quit", Action::Quit, true, state) {
        push_action(Action::Quit, state, out);
    }
}

/// A sensor log opens in the timeline, anything else as PGN.
fn open_recent(path: PathBuf) -> AppCommand {
    if path.extension().is_some_and(|e| e == "log") {
        AppCommand::OpenLog(path)
    } else {
        AppCommand::LoadPgn(path)
    }
}

fn game_menu(ui: &mut Ui, state: &MenuState<'_>, out: &mut Vec<AppCommand>) {
    for (label, action, enabled) in [
        ("New game", Action::NewGame, state.live),
        ("Undo", Action::Undo, state.live),
        ("Redo", Action::Redo, state.live && state.can_redo),
    ] {
        if item(ui, label, action, enabled, state) {
            push_action(action, state, out);
        }
    }
    if ui
        .add_enabled(state.live, Button::new("Set up a position…"))
        .on_hover_text("From a FEN, a position code or a Chess960 number")
        .clicked()
    {
        out.push(AppCommand::OpenWindow(Some(Window::SetUp)));
    }
    if ui
        .button("Review game")
        .on_hover_text("The engine evaluates every position: a graph, mistakes marked")
        .clicked()
    {
        out.push(AppCommand::ReviewGame);
    }
    ui.separator();
    if ui.button("Copy FEN").clicked() {
        out.push(AppCommand::CopyShown { code: false });
    }
    if ui.button("Copy position code").clicked() {
        out.push(AppCommand::CopyShown { code: true });
    }
    if item(ui, "Flip board", Action::Flip, true, state) {
        push_action(Action::Flip, state, out);
    }
    if let Some(demo) = state.simulated_demo {
        ui.separator();
        if demo {
            if ui.button("Stop demo").clicked() {
                out.push(AppCommand::StopDemo);
            }
        } else {
            if ui.button("Demo game").clicked() {
                out.push(AppCommand::StartDemo);
            }
            if ui.button("Demo from PGN…").clicked() {
                out.push(AppCommand::Pick(FilePick::DemoPgn));
            }
        }
    }
}

fn board_menu(
    ui: &mut Ui,
    state: &MenuState<'_>,
    settings: &mut Settings,
    out: &mut Vec<AppCommand>,
) {
    if ui
        .add_enabled(
            state.simulated_demo.is_none(),
            Button::new("Use the simulated board"),
        )
        .clicked()
    {
        out.push(AppCommand::UseSimulator);
    }
    ui.menu_button("Serial port", |ui| {
        if state.ports.is_empty() {
            ui.label(RichText::new("no serial port found").weak());
        }
        for port in state.ports {
            ui.selectable_value(
                &mut settings.port,
                port.path.clone(),
                format!("{} — {}", port.path, port.description),
            );
        }
        if ui.button("Refresh the list").clicked() {
            out.push(AppCommand::RefreshPorts);
        }
    });
    ui.menu_button("Board protocol", |ui| {
        for protocol in Protocol::ALL {
            ui.selectable_value(&mut settings.protocol, protocol, protocol.name());
        }
    });
    let port = settings.port.trim();
    if ui
        .add_enabled(
            !port.is_empty(),
            Button::new(if port.is_empty() {
                "Connect to the board".to_owned()
            } else {
                format!("Connect to {port}")
            }),
        )
        .clicked()
    {
        out.push(AppCommand::Connect);
    }
    if ui
        .add_enabled(state.serial, Button::new("Disconnect the board"))
        .clicked()
    {
        out.push(AppCommand::Disconnect);
    }
    ui.separator();
    ui.menu_button("Which way round", |ui| {
        for choice in BoardOrientation::ALL {
            ui.selectable_value(
                &mut settings.board_orientation,
                choice,
                super::connection_panel::orientation_text(choice),
            );
        }
    });
    if ui.button("Rotate the sensors").clicked() {
        let mut orientation = settings.sensor_orientation;
        orientation.quarter_turns = (orientation.quarter_turns + 1) % 4;
        out.push(AppCommand::SetSensorOrientation(orientation));
    }
    ui.separator();
    let mut shared = state.dgt_shared;
    if ui.checkbox(&mut shared, "Share as a DGT board").clicked() {
        out.push(AppCommand::ShareAsDgt(shared));
    }
    let mut live = state.live_pgn;
    if ui.checkbox(&mut live, "Live PGN…").clicked() {
        out.push(if live {
            AppCommand::Pick(FilePick::LivePgn)
        } else {
            AppCommand::LivePgn(None)
        });
    }
}

fn engine_menu(
    ui: &mut Ui,
    state: &MenuState<'_>,
    settings: &mut Settings,
    out: &mut Vec<AppCommand>,
) {
    if state.playing_engine {
        if ui.button("Stop the engine's play").clicked() {
            out.push(AppCommand::StopEngine);
        }
    } else if ui
        .add_enabled(state.live, Button::new("Play against the engine"))
        .clicked()
    {
        out.push(AppCommand::StartEngine);
    }
    ui.add_enabled_ui(!state.playing_engine, |ui| {
        ui.menu_button("The engine plays", |ui| {
            ui.radio_value(&mut settings.engine_plays_black, false, "White");
            ui.radio_value(&mut settings.engine_plays_black, true, "Black");
        });
        ui.menu_button("Level", |ui| {
            ui.add(egui::Slider::new(&mut settings.engine_level, 0..=20).text("level"));
        });
    });
    ui.separator();
    let mut clock = state.clock_running;
    if ui
        .checkbox(&mut clock, format!("Clock {}", settings.time_control))
        .clicked()
    {
        settings.clock_on = clock;
        out.push(AppCommand::SetClock(if clock {
            settings.time_control.parse().ok()
        } else {
            None
        }));
    }
    ui.add_enabled_ui(!state.clock_running, |ui| {
        ui.menu_button("Time control", |ui| {
            for control in ["1+0", "3+2", "5+3", "10+5", "15+10", "30+0"] {
                ui.selectable_value(&mut settings.time_control, control.to_owned(), control);
            }
        });
    });
    ui.separator();
    if item(ui, "Hint: the best move", Action::Hint, true, state) {
        push_action(Action::Hint, state, out);
    }
    let mut analysing = state.analysing;
    if ui
        .add_enabled(
            !state.playing_engine,
            egui::Checkbox::new(&mut analysing, "Analyse the position"),
        )
        .clicked()
    {
        out.push(AppCommand::Analyse(
            analysing.then_some(settings.analysis_lines),
        ));
    }
}

/// What is said aloud: on or off, which kinds, the voice and its speed.
fn voice_menu(ui: &mut Ui, state: &MenuState<'_>, settings: &Settings, out: &mut Vec<AppCommand>) {
    let mut voice = settings.voice.clone();
    ui.checkbox(&mut voice.enabled, "Speak");
    if let Some(problem) = state.voice_problem {
        ui.colored_label(ui.visuals().warn_fg_color, problem);
    }
    ui.add_enabled_ui(voice.enabled, |ui| {
        ui.separator();
        ui.checkbox(&mut voice.my_moves, "My moves");
        ui.checkbox(&mut voice.opponent_moves, "Opponent's and engine's moves");
        ui.checkbox(&mut voice.warnings, "Warnings").on_hover_text(
            "An illegal board, a wrong move, a sensor fault, the clock's last seconds",
        );
        ui.separator();
        let shown = if voice.voice.is_empty() {
            "the system's default"
        } else {
            voice.voice.as_str()
        };
        ui.menu_button(format!("Voice: {shown}"), |ui| {
            egui::ScrollArea::vertical()
                .max_height(300.0)
                .show(ui, |ui| {
                    ui.radio_value(&mut voice.voice, String::new(), "The system's default");
                    for name in state.voices {
                        ui.radio_value(&mut voice.voice, name.clone(), name);
                    }
                });
        });
        ui.add(
            egui::Slider::new(&mut voice.words_per_minute, crate::voice::WORDS_PER_MINUTE)
                .text("words a minute"),
        );
        ui.separator();
        if item(
            ui,
            "Say the engine's move again",
            Action::RepeatMove,
            state.playing_engine,
            state,
        ) {
            push_action(Action::RepeatMove, state, out);
        }
    });
    if voice != settings.voice {
        out.push(AppCommand::SetVoice(voice));
    }
}

fn view_menu(
    ui: &mut Ui,
    state: &MenuState<'_>,
    settings: &mut Settings,
    out: &mut Vec<AppCommand>,
) {
    if item(ui, "Table view", Action::TableView, true, state) {
        push_action(Action::TableView, state, out);
    }
    if item(ui, "Side panel", Action::SidePanel, true, state) {
        push_action(Action::SidePanel, state, out);
    }
    let theme = if settings.dark_theme {
        "Light theme"
    } else {
        "Dark theme"
    };
    if ui.button(theme).clicked() {
        out.push(AppCommand::ToggleTheme);
    }
    ui.separator();
    let mut health = state.show_health;
    if ui.checkbox(&mut health, "Sensor health map").clicked() {
        out.push(AppCommand::ShowHealth(health));
    }
    let mut timeline = state.timeline.unwrap_or(false);
    if ui
        .add_enabled(
            state.timeline.is_some(),
            egui::Checkbox::new(&mut timeline, "Timeline"),
        )
        .on_disabled_hover_text("Open a sensor log to see its timeline")
        .clicked()
    {
        out.push(AppCommand::ShowTimeline(timeline));
    }
    ui.checkbox(&mut settings.large_sensor_grid, "Large sensor grid");
    ui.checkbox(&mut settings.classic_colours, "Classic sensor colours")
        .on_hover_text(
            "Red, yellow and purple as before; the default palette is one colour-blind \
             players tell apart",
        );
    ui.separator();
    egui::gui_zoom::zoom_menu_buttons(ui);
}

fn help_menu(ui: &mut Ui, state: &MenuState<'_>, out: &mut Vec<AppCommand>) {
    if ui.button("Welcome").clicked() {
        out.push(AppCommand::ShowWelcome(true));
    }
    if item(ui, "Keyboard shortcuts", Action::Shortcuts, true, state) {
        push_action(Action::Shortcuts, state, out);
    }
    ui.menu_button("Guide", |ui| {
        for (index, (title, _)) in state.guide.iter().enumerate() {
            if ui.button(title).clicked() {
                out.push(AppCommand::OpenWindow(Some(Window::Guide(index))));
            }
        }
    });
    if ui.button("About boardsight").clicked() {
        out.push(AppCommand::OpenWindow(Some(Window::About)));
    }
}

/// The icons after the menus: the actions of every game, each with its words on hover.
fn toolbar(ui: &mut Ui, state: &MenuState<'_>, settings: &Settings, out: &mut Vec<AppCommand>) {
    use egui_material_icons::MaterialIcon;
    let ctx = ui.ctx().clone();
    // The actions a key reaches too: their words on hover end with the key.
    let keyed = |ui: &mut Ui,
                 tools: &[(MaterialIcon, &str, &str, Action, bool)],
                 out: &mut Vec<AppCommand>| {
        for &(icon, name, words, action, enabled) in tools {
            let tip = format!("{words} ({})", shortcuts::text(&ctx, action));
            if tool(ui, icon, name, tip, enabled) {
                push_action(action, state, out);
            }
        }
    };
    keyed(
        ui,
        &[
            (
                icons::ICON_ADD_BOX,
                "New game",
                "New game",
                Action::NewGame,
                state.live,
            ),
            (
                icons::ICON_UNDO,
                "Undo",
                "Take back the last move",
                Action::Undo,
                state.live,
            ),
            (
                icons::ICON_REDO,
                "Redo",
                "Play the move taken back again",
                Action::Redo,
                state.live && state.can_redo,
            ),
            (
                icons::ICON_SWAP_VERT,
                "Flip board",
                "Flip the board",
                Action::Flip,
                true,
            ),
        ],
        out,
    );
    ui.separator();
    if state.playing_engine {
        if tool(
            ui,
            icons::ICON_STOP,
            "Stop the engine",
            "Stop the engine".into(),
            true,
        ) {
            out.push(AppCommand::StopEngine);
        }
    } else {
        let side = if settings.engine_plays_black {
            "Black"
        } else {
            "White"
        };
        let tip = format!(
            "Play the engine: it plays {side} at level {}",
            settings.engine_level
        );
        if tool(
            ui,
            icons::ICON_SMART_TOY,
            "Play the engine",
            tip,
            state.live,
        ) {
            out.push(AppCommand::StartEngine);
        }
    }
    keyed(
        ui,
        &[(
            icons::ICON_LIGHTBULB,
            "Hint",
            "A hint: the best move as an arrow",
            Action::Hint,
            true,
        )],
        out,
    );
    ui.separator();
    keyed(
        ui,
        &[(
            icons::ICON_FULLSCREEN,
            "Table view",
            "The board full screen, to read from across the table",
            Action::TableView,
            true,
        )],
        out,
    );
    let (icon, words) = if settings.dark_theme {
        (icons::ICON_LIGHT_MODE, "Light theme")
    } else {
        (icons::ICON_DARK_MODE, "Dark theme")
    };
    if tool(ui, icon, words, words.into(), true) {
        out.push(AppCommand::ToggleTheme);
    }
}

/// One icon of the toolbar; screen readers (and tests) know it by its name, not its glyph.
fn tool(
    ui: &mut Ui,
    icon: egui_material_icons::MaterialIcon,
    name: &str,
    tip: String,
    enabled: bool,
) -> bool {
    let response = ui
        .add_enabled(
            enabled,
            Button::new(icon.rich_text().size(18.0)).frame(false),
        )
        .on_hover_text(tip);
    let label = format!("{name} (toolbar)");
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, enabled, label.clone()));
    response.clicked()
}
