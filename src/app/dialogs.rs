//! Windows over the app: the offer to restore unsaved games, and the chooser of a PGN
//! file's games (only the rows in view are drawn, so ten thousand games cost what ten do).

use eframe::egui;

use super::command::AppCommand;
use crate::pgn::PgnFile;
use crate::session::RestoreOffer;

pub fn restore(ctx: &egui::Context, offer: &RestoreOffer, out: &mut Vec<AppCommand>) {
    let Some(newest) = offer.sessions.first() else {
        return;
    };
    let games = offer.newest_games.len();
    let older = offer.sessions.len() - 1;
    egui::Window::new("Restore unsaved games?")
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            ui.label(format!(
                "boardsight found {games} unsaved game{} from {}{}.",
                if games == 1 { "" } else { "s" },
                newest
                    .pgn_path
                    .file_stem()
                    .map_or_else(String::new, |s| s.to_string_lossy().replace('_', " ")),
                if older > 0 {
                    format!(" (and {older} older sessions)")
                } else {
                    String::new()
                }
            ));
            ui.horizontal(|ui| {
                for (label, command) in [
                    ("Restore", AppCommand::Restore),
                    ("Open log", AppCommand::OpenRestoredLog),
                    ("Discard", AppCommand::DiscardUnfinished),
                    ("Later", AppCommand::RestoreLater),
                ] {
                    if ui.button(label).clicked() {
                        out.push(command);
                    }
                }
            });
        });
}

/// The games of a PGN file, by their tags: a click continues one on the board.
pub fn choose_game(ctx: &egui::Context, name: &str, file: &PgnFile, out: &mut Vec<AppCommand>) {
    let mut open = true;
    egui::Window::new("Choose a game")
        .open(&mut open)
        .default_width(520.0)
        .show(ctx, |ui| {
            ui.label(format!("{} games in {name}", file.len()));
            let row_height = ui.spacing().interact_size.y;
            egui::ScrollArea::vertical()
                .max_height(400.0)
                .auto_shrink([false, true])
                .show_rows(ui, row_height, file.len(), |ui, rows| {
                    for index in rows {
                        let Some(tags) = file.tags(index) else {
                            continue;
                        };
                        let text = format!("{}. {}", index + 1, tags.summary());
                        if ui.selectable_label(false, text).clicked() {
                            out.push(AppCommand::ContinueListed(index));
                        }
                    }
                });
        });
    if !open {
        out.push(AppCommand::CloseChooser);
    }
}

/// Setting the board up from a FEN, a position code or a Chess960 number.
pub fn set_up(ctx: &egui::Context, text: &mut String, out: &mut Vec<AppCommand>) {
    let mut open = true;
    egui::Window::new("Set up a position")
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            let label = ui.label("FEN or code");
            let field = ui
                .add(
                    egui::TextEdit::singleline(text)
                        .desired_width(380.0)
                        .hint_text("a FEN, a position code or 960 N"),
                )
                .labelled_by(label.id)
                .on_hover_text(
                    "A FEN (X-FEN and Shredder-FEN too), a position code, or a Chess960 \
                     start by its number: 960 N, N from 0 to 959",
                );
            let entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            ui.horizontal(|ui| {
                if ui.button("Set up").clicked() || entered {
                    out.push(AppCommand::SetUp(text.clone()));
                }
                if ui.button("Cancel").clicked() {
                    out.push(AppCommand::OpenWindow(None));
                }
            });
        });
    if !open {
        out.push(AppCommand::OpenWindow(None));
    }
}

/// A board plugged in and recognised: connect to it?
pub fn board_found(
    ctx: &egui::Context,
    offer: &crate::connection::Offer,
    out: &mut Vec<AppCommand>,
) {
    egui::Window::new("Board found")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::RIGHT_TOP, egui::vec2(-16.0, 48.0))
        .show(ctx, |ui| {
            ui.label(offer.question());
            ui.horizontal(|ui| {
                if ui.button("Connect to it").clicked() {
                    out.push(AppCommand::AcceptOffer(true));
                }
                if ui.button("Not now").clicked() {
                    out.push(AppCommand::AcceptOffer(false));
                }
            });
        });
}
