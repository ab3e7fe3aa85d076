//! The controls of a recording: step, play, pause and a slider over its readings, the last
//! reading and event in the recognizer's own words, and the time strip with its lanes.

use eframe::egui;
use egui::RichText;

use super::command::AppCommand;
use super::time_strip::{self, StripState};
use crate::sensorlog;
use crate::session::Timeline;

pub fn show(
    ui: &mut egui::Ui,
    timeline: &Timeline,
    strip: StripState<'_>,
    out: &mut Vec<AppCommand>,
) {
    let mut index = timeline.index();
    let len = timeline.len();
    // Keys: the arrows step, space plays or pauses.
    if !ui.ctx().text_edit_focused() {
        let (left, right, space) = ui.input(|i| {
            (
                i.key_pressed(egui::Key::ArrowLeft),
                i.key_pressed(egui::Key::ArrowRight),
                i.key_pressed(egui::Key::Space),
            )
        });
        if left {
            index = index.saturating_sub(1);
        }
        if right {
            index = (index + 1).min(len);
        }
        if space {
            out.push(if timeline.is_playing() {
                AppCommand::Pause
            } else {
                AppCommand::Play(1.0)
            });
        }
    }
    ui.horizontal(|ui| {
        if ui.button("Step back").clicked() {
            index = index.saturating_sub(1);
        }
        if timeline.is_playing() {
            if ui.button("Pause").clicked() {
                out.push(AppCommand::Pause);
            }
        } else {
            for speed in [1.0, 2.0, 4.0, 8.0] {
                if ui.button(format!("Play {speed}×")).clicked() {
                    out.push(AppCommand::Play(speed));
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
        out.push(AppCommand::Seek(index));
    }
    // One line, cut to the panel's width: a long event must not widen the strip below.
    let mut line = String::new();
    if let Some(reading) = timeline.last_reading() {
        line = format!("last reading: {}", sensorlog::format_reading(reading));
    }
    if let Some(event) = timeline.events().last() {
        line.push_str(&format!("   last event: {event}"));
    }
    ui.add(egui::Label::new(RichText::new(line).monospace()).truncate());
    time_strip::show(ui, timeline, strip, out);
}
