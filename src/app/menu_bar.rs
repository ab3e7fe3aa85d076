//! The top bar: files, game controls, the FEN set-up, the demo and the view.

use eframe::egui;

use super::command::{AppCommand, FilePick};
use crate::connection::Command;

/// What the menu bar needs to know.
pub struct MenuState {
    pub live: bool,
    pub can_redo: bool,
    /// `Some(demo running)` on the simulated board.
    pub simulated_demo: Option<bool>,
    pub dark_theme: bool,
}

pub fn show(ui: &mut egui::Ui, state: &MenuState, fen: &mut String, out: &mut Vec<AppCommand>) {
    ui.horizontal_wrapped(|ui| {
        for (label, pick) in [
            ("Open log…", FilePick::OpenLog),
            ("Save log…", FilePick::SaveLog),
            ("Load PGN…", FilePick::LoadPgn),
            ("Save PGN…", FilePick::SavePgn),
        ] {
            if ui.button(label).clicked() {
                out.push(AppCommand::Pick(pick));
            }
        }
        ui.separator();
        if ui
            .add_enabled(state.live, egui::Button::new("New game"))
            .clicked()
        {
            out.push(AppCommand::NewGame);
        }
        if ui
            .add_enabled(state.live, egui::Button::new("Undo"))
            .clicked()
        {
            out.push(AppCommand::Board(Command::Undo));
        }
        if ui
            .add_enabled(state.live && state.can_redo, egui::Button::new("Redo"))
            .on_hover_text("Plays the move taken back again, while the board still shows it")
            .clicked()
        {
            out.push(AppCommand::Board(Command::Redo));
        }
        let fen_label = ui.label("FEN or code");
        ui.add(
            egui::TextEdit::singleline(fen)
                .desired_width(200.0)
                .hint_text("a FEN, a position code or 960 N"),
        )
        .labelled_by(fen_label.id)
        .on_hover_text("A FEN (X-FEN and Shredder-FEN too), a position code, or a Chess960 start by its number: 960 N, N from 0 to 959");
        if ui
            .add_enabled(state.live, egui::Button::new("Set up"))
            .clicked()
        {
            out.push(AppCommand::SetUp(fen.clone()));
        }
        ui.separator();
        match state.simulated_demo {
            Some(true) if ui.button("Stop demo").clicked() => out.push(AppCommand::StopDemo),
            Some(true) => {}
            Some(false) => {
                if ui.button("Demo game").clicked() {
                    out.push(AppCommand::StartDemo);
                }
                if ui.button("Demo from PGN…").clicked() {
                    out.push(AppCommand::Pick(FilePick::DemoPgn));
                }
            }
            None => {}
        }
        if ui
            .button("Table view")
            .on_hover_text("The board full screen, to read from across the table (F11; Esc leaves)")
            .clicked()
        {
            out.push(AppCommand::TableView(true));
        }
        if ui.button("Flip board").clicked() {
            out.push(AppCommand::FlipBoard);
        }
        let theme = if state.dark_theme {
            "Light theme"
        } else {
            "Dark theme"
        };
        if ui.button(theme).clicked() {
            out.push(AppCommand::ToggleTheme);
        }
    });
}
