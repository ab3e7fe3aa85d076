//! The windows of the Help menu: the first-run welcome, the keyboard shortcuts, the guide
//! (the README's sections) and about.

use eframe::egui;
use egui::RichText;

use super::command::{AppCommand, Window};
use super::shortcuts::{OTHER_KEYS, SHORTCUTS};
use crate::connection::PortChoice;

/// The README, whose sections are the guide.
const README: &str = include_str!("../../README.md");

/// The guide's sections: each `## ` heading of the README with its text.
pub fn guide_sections() -> Vec<(String, String)> {
    README
        .split("\n## ")
        .skip(1)
        .filter_map(|section| {
            let (title, body) = section.split_once('\n')?;
            Some((title.trim().to_owned(), body.trim().to_owned()))
        })
        .collect()
}

/// A short welcome over the board: what is on the screen and how to connect a board.
pub fn welcome(
    ctx: &egui::Context,
    simulated: bool,
    ports: &[PortChoice],
    out: &mut Vec<AppCommand>,
) {
    egui::Window::new("Welcome to boardsight")
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
        .default_width(420.0)
        .show(ctx, |ui| {
            if simulated {
                ui.label(
                    "The board on the screen is a simulated one. Click the squares of its \
                     sensor grid (the small board beside it) to lift and place pieces, or \
                     watch a demo game.",
                );
                if ui.button("Play a demo game").clicked() {
                    out.push(AppCommand::StartDemo);
                    out.push(AppCommand::ShowWelcome(false));
                }
                ui.add_space(8.0);
            }
            ui.label(
                "To use your own board: plug it in, pick its port and protocol in the Board \
                 section on the left (or the Board menu), then Connect.",
            );
            if ports.is_empty() {
                ui.label(RichText::new("No serial port is plugged in yet.").weak());
            } else {
                ui.label(RichText::new("Ports found:").weak());
                for port in ports.iter().take(4) {
                    ui.label(
                        RichText::new(format!("{} — {}", port.path, port.description))
                            .monospace()
                            .small(),
                    );
                }
            }
            ui.add_space(8.0);
            ui.horizontal(|ui| {
                if ui.button("Got it").clicked() {
                    out.push(AppCommand::ShowWelcome(false));
                }
                ui.label(
                    RichText::new("Help, Welcome shows this again.")
                        .small()
                        .weak(),
                );
            });
        });
}

/// The window of `window`, if open; closing it pushes the command that closes it.
pub fn window(
    ctx: &egui::Context,
    window: Window,
    guide: &[(String, String)],
    out: &mut Vec<AppCommand>,
) {
    let mut open = true;
    match window {
        Window::Shortcuts => {
            egui::Window::new("Keyboard shortcuts")
                .open(&mut open)
                .resizable(false)
                .show(ctx, |ui| {
                    egui::Grid::new("shortcuts").striped(true).show(ui, |ui| {
                        for (_, shortcut, words) in SHORTCUTS {
                            ui.label(RichText::new(ctx.format_shortcut(&shortcut)).monospace());
                            ui.label(words);
                            ui.end_row();
                        }
                        for (keys, words) in OTHER_KEYS {
                            ui.label(RichText::new(keys).monospace());
                            ui.label(words);
                            ui.end_row();
                        }
                    });
                });
        }
        Window::About => {
            egui::Window::new("About boardsight")
                .open(&mut open)
                .resizable(false)
                .show(ctx, |ui| {
                    ui.heading(format!("boardsight {}", env!("CARGO_PKG_VERSION")));
                    ui.label(env!("CARGO_PKG_DESCRIPTION"));
                    ui.label(
                        "Free software under the GNU General Public License, version 3 or \
                         later (shakmaty and pgn-reader are GPL too).",
                    );
                });
        }
        Window::Guide(index) => {
            let Some((title, body)) = guide.get(index) else {
                out.push(AppCommand::OpenWindow(None));
                return;
            };
            egui::Window::new(title.as_str())
                .open(&mut open)
                .default_size([620.0, 520.0])
                .show(ctx, |ui| {
                    egui::ScrollArea::vertical().show(ui, |ui| {
                        ui.label(body.as_str());
                    });
                });
        }
        Window::SetUp => {}
    }
    if !open {
        out.push(AppCommand::OpenWindow(None));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_guide_has_the_readmes_sections_with_their_text() {
        let sections = guide_sections();
        assert!(sections.len() >= 5, "{}", sections.len());
        let titles: Vec<&str> = sections.iter().map(|(t, _)| t.as_str()).collect();
        assert!(titles.contains(&"Licence"), "{titles:?}");
        assert!(sections.iter().all(|(_, body)| !body.is_empty()));
    }
}
