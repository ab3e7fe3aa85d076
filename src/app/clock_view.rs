//! The two clocks, large: each side's time left, the running one lit, a fallen flag red.

use eframe::egui;
use egui::{Color32, RichText};
use shakmaty::Color;

use crate::session::{ClockFace, TENTHS_BELOW_MS};

const RUNNING: Color32 = Color32::from_rgb(46, 125, 70);
const FALLEN: Color32 = Color32::from_rgb(200, 40, 40);

/// `m:ss` (or `h:mm:ss` from an hour), with tenths under 20 seconds: `0:07.3`.
pub fn clock_text(ms: u64) -> String {
    let seconds = ms / 1000;
    if seconds >= 3600 {
        format!(
            "{}:{:02}:{:02}",
            seconds / 3600,
            seconds / 60 % 60,
            seconds % 60
        )
    } else if ms < TENTHS_BELOW_MS {
        format!("{}:{:02}.{}", seconds / 60, seconds % 60, ms % 1000 / 100)
    } else {
        format!("{}:{:02}", seconds / 60, seconds % 60)
    }
}

/// Both clocks side by side, `size` points high; the side at the bottom of the board first.
pub fn show(ui: &mut egui::Ui, face: ClockFace, size: f32, flipped: bool) {
    let order = if flipped {
        [Color::Black, Color::White]
    } else {
        [Color::White, Color::Black]
    };
    ui.horizontal(|ui| {
        for color in order {
            let (name, left) = match color {
                Color::White => ("White", face.white_ms),
                Color::Black => ("Black", face.black_ms),
            };
            let fallen = face.flag.is_some_and(|(c, _)| c == color);
            let fill = if fallen {
                FALLEN
            } else if face.running == Some(color) {
                RUNNING
            } else {
                ui.visuals().faint_bg_color
            };
            let text_color = if fallen || face.running == Some(color) {
                Color32::WHITE
            } else {
                ui.visuals().text_color()
            };
            egui::Frame::new()
                .fill(fill)
                .corner_radius(6.0)
                .inner_margin(egui::Margin::symmetric(12, 4))
                .show(ui, |ui| {
                    ui.label(
                        RichText::new(format!("{name} {}", clock_text(left)))
                            .monospace()
                            .size(size)
                            .color(text_color),
                    );
                });
            ui.add_space(8.0);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::clock_text;

    #[test]
    fn clocks_show_minutes_and_seconds_tenths_when_short_and_hours_when_long() {
        assert_eq!(clock_text(300_000), "5:00");
        assert_eq!(clock_text(59_999), "0:59");
        assert_eq!(clock_text(7_349), "0:07.3");
        assert_eq!(clock_text(0), "0:00.0");
        assert_eq!(clock_text(5_400_000), "1:30:00");
    }
}
