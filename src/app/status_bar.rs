//! The bottom bar: the source and its state, the reading rate, the last event, and the
//! file job under way.

use eframe::egui;

use crate::connection::ConnectionStatus;
use crate::session::Session;

pub fn show(ui: &mut egui::Ui, session: &Session, busy: Option<(&str, Option<f32>)>) {
    ui.horizontal(|ui| {
        ui.label(session.source().describe());
        ui.separator();
        let state = match session.source().live().and_then(|l| l.status.as_ref()) {
            Some(ConnectionStatus::Connecting) => "connecting…".to_owned(),
            Some(ConnectionStatus::WaitingForData) => "waiting for data".to_owned(),
            Some(ConnectionStatus::Connected) => "connected".to_owned(),
            Some(ConnectionStatus::Error(e)) => format!("error: {e}"),
            None => "—".to_owned(),
        };
        ui.label(state);
        ui.separator();
        ui.label(format!(
            "{} readings/s",
            session.activity().readings_per_second()
        ));
        if session.snapshot().dropped > 0 {
            ui.separator();
            ui.label(format!("{} bad frames", session.snapshot().dropped));
        }
        if let Some((what, fraction)) = busy {
            ui.separator();
            ui.spinner();
            match fraction {
                Some(fraction) => ui.add(
                    egui::ProgressBar::new(fraction)
                        .desired_width(160.0)
                        .text(format!("{what}… {:.0}%", fraction * 100.0)),
                ),
                None => ui.label(format!("{what}…")),
            };
        }
        ui.separator();
        ui.label(session.last_event());
    });
}
