//! The middle: a notice if there is one, the board's state in a line, the recognised
//! position beside the sensor grid, and what was found out about the board.

use eframe::egui;
use egui::{Color32, RichText};

use super::command::AppCommand;
use super::pieces::PieceTextures;
use super::session::Session;
use super::{board_view, sensor_view, timeline_panel};
use crate::connection::Snapshot;
use crate::recognizer::event::dead_sensor_words;
use crate::recognizer::{BoardStatus, EventKind};

pub struct BoardState<'a> {
    pub viewed_ply: Option<usize>,
    pub flipped: bool,
    pub textures: Option<&'a PieceTextures>,
}

const WARNING: Color32 = Color32::from_rgb(230, 160, 40);

pub fn show(
    ui: &mut egui::Ui,
    session: &Session,
    state: &BoardState<'_>,
    out: &mut Vec<AppCommand>,
) {
    if let Some(notice) = session.notice() {
        ui.horizontal(|ui| {
            ui.colored_label(WARNING, notice);
            if ui.small_button("Dismiss").clicked() {
                out.push(AppCommand::DismissNotice);
            }
        });
    }
    let snapshot = session.snapshot();
    status_line(ui, snapshot);
    let (position, last_move) = session.view().at(state.viewed_ply);
    let recording = session.source().timeline();
    let available = ui.available_size();
    let timeline_room = if recording.is_some() { 150.0 } else { 10.0 };
    // The board and a sensor grid three quarters its size, side by side.
    let side = ((available.x - 24.0) / 1.75)
        .min(available.y - timeline_room - 40.0)
        .max(160.0);
    ui.horizontal(|ui| {
        if let (Some(textures), Some(position)) = (state.textures, position) {
            ui.vertical(|ui| {
                ui.label(if state.viewed_ply.is_some() {
                    "Position (earlier move)"
                } else {
                    "Recognised position"
                });
                board_view::show(ui, position, last_move, state.flipped, textures, side);
            });
        }
        ui.add_space(16.0);
        ui.vertical(|ui| {
            ui.label("Sensors");
            let clickable = matches!(session.source(), super::source::Source::Simulated { .. });
            let dead = snapshot.dead_sensors.iter().map(|(s, _)| *s).collect();
            let clicked = sensor_view::show(
                ui,
                snapshot.sensed,
                snapshot.expected,
                &snapshot.status,
                dead,
                session.activity().flashes(),
                state.flipped,
                side * 0.75,
                clickable,
            );
            if let Some(square) = clicked {
                out.push(AppCommand::SensorClick(square));
            }
            ui.add_space(8.0);
            sensor_view::legend(ui);
            findings(ui, snapshot);
        });
    });
    if let Some(timeline) = recording {
        timeline_panel::show(ui, timeline, out);
    }
}

/// Illegal (and what to put back), a move in progress, or nothing to say.
fn status_line(ui: &mut egui::Ui, snapshot: &Snapshot) {
    match (
        &snapshot.status,
        sensor_view::illegal_banner(&snapshot.status),
    ) {
        (_, Some(banner)) => {
            let text = if snapshot.has_started {
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
            let text = if snapshot.has_started {
                " "
            } else {
                "Set up the start position"
            };
            ui.label(RichText::new(text).size(18.0));
        }
    }
}

/// What boardsight found out about the board itself: dead sensors, a board turned round.
fn findings(ui: &mut egui::Ui, snapshot: &Snapshot) {
    for &(square, stuck_occupied) in &snapshot.dead_sensors {
        ui.colored_label(WARNING, dead_sensor_words(square, stuck_occupied));
    }
    if snapshot.turned
        && let Some(text) = (EventKind::Orientation { turned: true }).finding()
    {
        ui.colored_label(WARNING, text);
    }
}
