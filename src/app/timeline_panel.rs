//! The controls of a recording: step, play, pause and a slider over its readings, with the
//! last reading and the latest events in the recognizer's own words.

use eframe::egui;
use egui::RichText;

use super::command::AppCommand;
use super::timeline::Timeline;
use crate::sensorlog;

pub fn show(ui: &mut egui::Ui, timeline: &Timeline, out: &mut Vec<AppCommand>) {
    let mut index = timeline.index();
    let len = timeline.len();
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
    if let Some(reading) = timeline.last_reading() {
        ui.label(
            RichText::new(format!(
                "last reading: {}",
                sensorlog::format_reading(reading)
            ))
            .monospace(),
        );
    }
    let events = timeline.events();
    for event in &events[events.len().saturating_sub(6)..] {
        ui.label(RichText::new(event.to_string()).monospace().small());
    }
}
