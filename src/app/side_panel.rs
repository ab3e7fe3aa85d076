//! The side panel: its sections (Board, Computer, Online, Sharing) collapse to a one-line summary
//! in a coloured chip, and stay as they were left between runs.

use eframe::egui;
use egui::{Color32, RichText, Ui};
use egui_material_icons::icons;

use super::command::AppCommand;
use super::settings::Settings;
use super::{connection_panel, engine_panel, online_panel, theme};
use crate::connection::{ConnectionStatus, PortChoice};
use crate::session::{Session, Source};

/// How a summary chip is coloured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Health {
    /// Working (connected, playing, shared).
    Good,
    /// On its way (connecting, waiting for data).
    Pending,
    /// Something is wrong.
    Bad,
    /// Off.
    Idle,
}

/// One line that says how a section stands.
pub struct Summary {
    pub text: String,
    pub health: Health,
}

pub fn show(
    ui: &mut Ui,
    session: &Session,
    source: &connection_panel::SourceState<'_>,
    ports: &[PortChoice],
    settings: &mut Settings,
    typed_token: &mut online_panel::TypedToken,
    out: &mut Vec<AppCommand>,
) {
    egui::ScrollArea::vertical().show(ui, |ui| {
        let mut open = settings.sections;
        section(ui, "Board", &mut open.board, board_summary(session), |ui| {
            connection_panel::show(ui, source, ports, settings, out);
        });
        section(
            ui,
            "Computer",
            &mut open.computer,
            computer_summary(session),
            |ui| {
                engine_panel::show(ui, session, settings, out);
            },
        );
        section(
            ui,
            "Online",
            &mut open.online,
            online_summary(session),
            |ui| {
                online_panel::show(ui, session, settings, typed_token, out);
            },
        );
        section(
            ui,
            "Sharing",
            &mut open.sharing,
            sharing_summary(session),
            |ui| {
                connection_panel::sharing(ui, source, settings, out);
            },
        );
        settings.sections = open;
    });
}

/// A section: its header (a click opens or collapses it), then its body, or its summary.
fn section(
    ui: &mut Ui,
    title: &str,
    open: &mut bool,
    summary: Summary,
    body: impl FnOnce(&mut Ui),
) {
    let icon = if *open {
        icons::ICON_EXPAND_MORE
    } else {
        icons::ICON_CHEVRON_RIGHT
    };
    let header = ui.add(
        egui::Button::new((icon.rich_text().size(18.0), RichText::new(title).heading()))
            .frame(false),
    );
    let words = if *open { "collapse" } else { "open" };
    header.widget_info(|| {
        egui::WidgetInfo::labeled(
            egui::Role::Button,
            true,
            format!("{title} section, click to {words}"),
        )
    });
    if header.clicked() {
        *open = !*open;
    }
    if *open {
        body(ui);
    } else {
        chip(ui, &summary);
    }
    ui.separator();
}

/// The summary in a rounded, coloured chip.
pub fn chip(ui: &mut Ui, summary: &Summary) {
    let color = chip_color(ui, summary.health);
    egui::Frame::new()
        .fill(color.gamma_multiply(0.18))
        .stroke(egui::Stroke::new(1.0, color))
        .corner_radius(8.0)
        .inner_margin(egui::Margin::symmetric(8, 3))
        .show(ui, |ui| {
            ui.label(
                RichText::new(&summary.text)
                    .small()
                    .color(ui.visuals().strong_text_color()),
            );
        });
}

fn chip_color(ui: &Ui, health: Health) -> Color32 {
    let palette = theme::Palette::of(ui.visuals().dark_mode);
    match health {
        Health::Good => palette.good,
        Health::Pending => palette.pending,
        Health::Bad => palette.bad,
        Health::Idle => ui.visuals().weak_text_color(),
    }
}

/// "LiBoard on /dev/ttyUSB0 · connected · 12 readings/s".
pub fn board_summary(session: &Session) -> Summary {
    let rate = session.activity().readings_per_second();
    match session.source() {
        Source::Simulated { .. } => Summary {
            text: format!("Simulated board · {rate} readings/s"),
            health: Health::Good,
        },
        Source::Serial { port, protocol, .. } => {
            let (state, health) = match session.source().live().and_then(|l| l.status.as_ref()) {
                Some(ConnectionStatus::Connected) => ("connected".to_owned(), Health::Good),
                Some(ConnectionStatus::Connecting) => ("connecting…".to_owned(), Health::Pending),
                Some(ConnectionStatus::WaitingForData) => {
                    ("waiting for data".to_owned(), Health::Pending)
                }
                Some(ConnectionStatus::Error(e)) => (format!("error: {e}"), Health::Bad),
                None => ("—".to_owned(), Health::Pending),
            };
            Summary {
                text: format!(
                    "{} on {port} · {state} · {rate} readings/s",
                    protocol_title(protocol)
                ),
                health,
            }
        }
        Source::Recording(timeline) => Summary {
            text: format!("Recording {}", timeline.name),
            health: Health::Idle,
        },
        Source::None => Summary {
            text: "No board".into(),
            health: Health::Idle,
        },
    }
}

fn protocol_title(protocol: &crate::protocol::Protocol) -> String {
    match protocol.name() {
        "liboard" => "LiBoard".into(),
        "centaur" => "DGT Centaur".into(),
        "dgt" => "DGT board".into(),
        other => format!("{other} board"),
    }
}

/// "stockfish plays Black at level 5 · clock 5+3".
pub fn computer_summary(session: &Session) -> Summary {
    let mut parts = Vec::new();
    let mut health = Health::Idle;
    if let Some(engine) = session.engine() {
        let side = match engine.side() {
            shakmaty::Color::White => "White",
            shakmaty::Color::Black => "Black",
        };
        parts.push(format!("{} plays {side}", engine.player_name()));
        health = Health::Good;
    }
    if let Some(control) = session.clocks().control() {
        parts.push(format!("clock {control}"));
        health = Health::Good;
    }
    if session.analysis_lines().is_some() {
        parts.push("analysing".into());
        health = Health::Good;
    }
    if parts.is_empty() {
        parts.push("No engine, no clock".into());
    }
    Summary {
        text: parts.join(" · "),
        health,
    }
}

/// "Playing white against Maia1 · https://lichess.org/abcd1234".
pub fn online_summary(session: &Session) -> Summary {
    let broadcast = session.broadcast_status();
    match (session.online_status(), broadcast) {
        (Some(status), _) => Summary {
            health: if session.is_online() {
                Health::Good
            } else {
                Health::Idle
            },
            text: status,
        },
        (None, Some(broadcast)) => Summary {
            text: broadcast.to_owned(),
            health: Health::Good,
        },
        (None, None) => Summary {
            text: "Not playing on lichess".into(),
            health: Health::Idle,
        },
    }
}

/// "DGT board on /dev/pts/3 · live PGN live.pgn".
pub fn sharing_summary(session: &Session) -> Summary {
    let mut parts = Vec::new();
    if let Some(path) = session.dgt_share_path() {
        parts.push(format!("DGT board on {}", path.display()));
    }
    if let Some(path) = session.live_pgn_path() {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into(),
        );
        parts.push(format!("live PGN {name}"));
    }
    let health = if parts.is_empty() {
        Health::Idle
    } else {
        Health::Good
    };
    if parts.is_empty() {
        parts.push("Not shared".into());
    }
    Summary {
        text: parts.join(" · "),
        health,
    }
}
