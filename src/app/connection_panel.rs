//! The left panel: which board, which port and protocol, and how the sensors sit.

use std::path::{Path, PathBuf};

use eframe::egui;
use egui::RichText;

use super::command::AppCommand;
use super::pieces;
use super::settings::Settings;
use crate::connection::PortChoice;
use crate::protocol::Protocol;
use crate::reading::Orientation;
use crate::recognizer::BoardOrientation;

/// What the panel shows of the source.
pub struct SourceState<'a> {
    pub simulated: bool,
    pub serial: bool,
    /// The simulated board's hand, when it is the source.
    pub hand: Option<&'a [shakmaty::Piece]>,
    /// Where other programs open the board as a DGT board, while it is shared.
    pub dgt_share: Option<&'a Path>,
    /// The file kept holding the session's games, while it is.
    pub live_pgn: Option<&'a Path>,
}

/// Draws the panel. The port and protocol fields edit the settings themselves, the one
/// place they are kept; everything that acts goes out as a command.
pub fn show(
    ui: &mut egui::Ui,
    source: &SourceState<'_>,
    ports: &[PortChoice],
    settings: &mut Settings,
    out: &mut Vec<AppCommand>,
) {
    if ui.radio(source.simulated, "Simulated board").clicked() && !source.simulated {
        out.push(AppCommand::UseSimulator);
    }
    ui.separator();
    ui.label("Serial port");
    egui::ComboBox::from_label("Port")
        .selected_text(if settings.port.is_empty() {
            "choose…"
        } else {
            &settings.port
        })
        .width(150.0)
        .show_ui(ui, |ui| {
            for port in ports {
                ui.selectable_value(
                    &mut settings.port,
                    port.path.clone(),
                    format!("{} — {}", port.path, port.description),
                );
            }
        });
    ui.horizontal(|ui| {
        ui.add(
            egui::TextEdit::singleline(&mut settings.port)
                .hint_text("/dev/ttyUSB0")
                .desired_width(140.0),
        );
        if ui.button("Refresh").clicked() {
            out.push(AppCommand::RefreshPorts);
        }
    });
    egui::ComboBox::from_label("Protocol")
        .selected_text(settings.protocol.name())
        .show_ui(ui, |ui| {
            for protocol in Protocol::ALL {
                ui.selectable_value(&mut settings.protocol, protocol, protocol.name());
            }
        });
    ui.horizontal(|ui| {
        if ui
            .add_enabled(
                !settings.port.trim().is_empty(),
                egui::Button::new("Connect"),
            )
            .clicked()
        {
            out.push(AppCommand::Connect);
        }
        if ui
            .add_enabled(source.serial, egui::Button::new("Disconnect"))
            .clicked()
        {
            out.push(AppCommand::Disconnect);
        }
    });
    ui.separator();
    sensor_orientation(ui, settings.sensor_orientation, out);
    egui::ComboBox::from_label("Way round")
        .width(110.0)
        .selected_text(orientation_text(settings.board_orientation))
        .show_ui(ui, |ui| {
            for choice in BoardOrientation::ALL {
                ui.selectable_value(
                    &mut settings.board_orientation,
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
    if let Some(hand) = source.hand {
        ui.separator();
        ui.label(RichText::new("Click the sensor grid to lift and place pieces.").weak());
        if !hand.is_empty() {
            let names: Vec<String> = hand.iter().map(|p| pieces::piece_name(*p)).collect();
            ui.label(format!("In hand: {}", names.join(", ")));
        }
    }
}

fn sensor_orientation(ui: &mut egui::Ui, current: Orientation, out: &mut Vec<AppCommand>) {
    ui.label("Sensor orientation");
    let mut orientation = current;
    ui.horizontal(|ui| {
        if ui.button("Rotate").clicked() {
            orientation.quarter_turns = (orientation.quarter_turns + 1) % 4;
        }
        ui.checkbox(&mut orientation.mirrored, "Mirror");
        ui.label(format!("{}°", u32::from(orientation.quarter_turns) * 90));
    });
    if orientation != current {
        out.push(AppCommand::SetSensorOrientation(orientation));
    }
}

pub fn orientation_text(orientation: BoardOrientation) -> &'static str {
    match orientation {
        BoardOrientation::Auto => "auto",
        BoardOrientation::Normal => "as wired",
        BoardOrientation::Turned => "turned round",
    }
}

/// Sharing the board: as a DGT board for other chess programs, and as a live PGN file.
pub fn sharing(
    ui: &mut egui::Ui,
    source: &SourceState<'_>,
    settings: &mut Settings,
    out: &mut Vec<AppCommand>,
) {
    let mut shared = source.dgt_share.is_some();
    if ui
        .checkbox(&mut shared, "Share as DGT board")
        .on_hover_text(
            "Chess programs that use DGT boards (Arena, Lucas Chess, pychess…) see this \
             board as one that knows every piece",
        )
        .changed()
    {
        out.push(AppCommand::ShareAsDgt(shared));
    }
    if let Some(path) = source.dgt_share {
        let path = path.display().to_string();
        ui.label(RichText::new("Give the other program this port:").small());
        ui.horizontal(|ui| {
            ui.label(RichText::new(&path).monospace().small());
            if ui.small_button("Copy").clicked() {
                out.push(AppCommand::Copy {
                    text: path.clone(),
                    what: "the DGT board's port",
                });
            }
        });
    }
    ui.horizontal(|ui| {
        let mut live = source.live_pgn.is_some();
        let can_start = live || !settings.live_pgn.trim().is_empty();
        if ui
            .add_enabled(can_start, egui::Checkbox::new(&mut live, "Live PGN"))
            .on_hover_text("Keeps the file holding every game of the session, after every move")
            .on_disabled_hover_text("Give the file to keep up to date")
            .changed()
        {
            let path = PathBuf::from(settings.live_pgn.trim());
            out.push(AppCommand::LivePgn(live.then_some(path)));
        }
        ui.add_enabled(
            source.live_pgn.is_none(),
            egui::TextEdit::singleline(&mut settings.live_pgn)
                .hint_text("a file, e.g. live.pgn")
                .desired_width(110.0),
        );
    });
}
