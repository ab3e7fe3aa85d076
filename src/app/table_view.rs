//! The table view: full screen, made to be read from two metres away while playing. The
//! board as large as the screen allows with an arrow over the last move, the board's state
//! in large words, the sensor grid as an inset and the latest moves in large type.

use eframe::egui;
use egui::{Color32, RichText};
use shakmaty::{Color, Position};

use super::command::AppCommand;
use super::pieces::PieceTextures;
use super::{board_view, central_panel, clock_view, review_view, sensor_view};
use crate::recognizer::BoardStatus;
use crate::session::Session;
use crate::session::words::illegal_banner;

/// How many moves (of both sides) the list shows.
const MOVES_SHOWN: usize = 16;

pub fn show(
    ui: &mut egui::Ui,
    session: &Session,
    flipped: bool,
    viewed_ply: Option<usize>,
    textures: Option<&PieceTextures>,
    out: &mut Vec<AppCommand>,
) {
    let snapshot = session.snapshot();
    let view = session.view();
    let available = ui.available_size();
    let side = (available.y - 8.0).min(available.x * 0.62).max(160.0);
    let column = (available.x - side - 32.0).max(120.0);
    ui.horizontal_top(|ui| {
        if let (Some(textures), (Some(position), last_move)) = (textures, view.at(viewed_ply)) {
            let look = board_view::Look {
                flipped,
                arrow: true,
                side,
                draggable: session.is_live(),
                promotion: snapshot.pending_promotion,
                engine_move: snapshot.expected_move.filter(|_| viewed_ply.is_none()),
                advice: central_panel::better_move(session, viewed_ply)
                    .or_else(|| session.advice().filter(|_| viewed_ply.is_none())),
            };
            if let Some(mv) = board_view::show(ui, position, last_move, textures, look) {
                out.push(AppCommand::Correct {
                    ply: central_panel::shown_ply(session, viewed_ply) + 1,
                    mv,
                });
            }
        }
        ui.add_space(24.0);
        ui.vertical(|ui| {
            ui.set_width(column);
            if let Some(face) = session.clock_face(std::time::Instant::now()) {
                clock_view::show(ui, face, (column / 14.0).clamp(22.0, 48.0), flipped);
                ui.add_space(12.0);
            }
            super::central_panel::host_clock_note(ui, session.dgt_host());
            let (text, alarm) = state_words(session);
            let words = RichText::new(text).size((column / 11.0).clamp(24.0, 56.0));
            if alarm {
                ui.label(
                    words
                        .color(Color32::WHITE)
                        .background_color(Color32::from_rgb(200, 40, 40)),
                );
            } else {
                ui.label(words.strong());
            }
            ui.add_space(16.0);
            moves(ui, session, column);
            if let Some(review) = session.review() {
                ui.add_space(12.0);
                let height = (column * 0.3).clamp(90.0, 240.0);
                let shown = viewed_ply.unwrap_or(view.moves.len());
                review_view::graph(ui, review, shown, height, out);
            }
            ui.add_space(16.0);
            let inset = (column * 0.45).min(side * 0.4);
            let mut grid =
                sensor_view::Grid::of(snapshot, session.activity().flashes(), flipped, inset);
            grid.lights = session.dgt_host().lights | session.board_lights();
            sensor_view::show(ui, &grid);
            ui.add_space(16.0);
            let button = |text: &str| egui::Button::new(RichText::new(text).size(20.0));
            let played = view.moves.len();
            if viewed_ply.is_some() {
                ui.label(RichText::new(format!("Drag the move {} really was", played)).size(20.0));
                if ui.add(button("Keep the move as seen")).clicked() {
                    out.push(AppCommand::ViewPly(None));
                }
            } else if ui
                .add_enabled(
                    session.is_live() && played > 0,
                    button("Correct the last move"),
                )
                .on_hover_text("Shows the position before it: drag the move it really was")
                .clicked()
            {
                out.push(AppCommand::ViewPly(Some(played - 1)));
            }
            if snapshot.expected_move.is_some()
                && session.voice_settings().enabled
                && ui.add(button("Say the move again (A)")).clicked()
            {
                out.push(AppCommand::RepeatEngineMove);
            }
            if ui.add(button("Leave table view (Esc)")).clicked() {
                out.push(AppCommand::TableView(false));
            }
        });
    });
}

/// What the player needs to know now, and whether it is an alarm.
fn state_words(session: &Session) -> (String, bool) {
    let snapshot = session.snapshot();
    if let Some(banner) = illegal_banner(&snapshot.status, &snapshot.position) {
        return (banner, true);
    }
    if let Some((color, result)) = session
        .clock_face(std::time::Instant::now())
        .and_then(|face| face.flag)
    {
        return (crate::clock::flag_words(color, result), true);
    }
    if !snapshot.has_started {
        return ("Set up the start position".into(), false);
    }
    if matches!(snapshot.status, BoardStatus::Waiting { .. }) {
        return ("Move in progress…".into(), false);
    }
    if let Some(mv) = snapshot.expected_move {
        return (
            central_panel::engine_move_words(
                &snapshot.position,
                mv,
                central_panel::awaited_for(session),
            ),
            false,
        );
    }
    if let Some(end) = session.view().end {
        return (end.to_owned(), false);
    }
    let side = match snapshot.position.turn() {
        Color::White => "White",
        Color::Black => "Black",
    };
    (format!("{side} to move"), false)
}

/// The latest moves, numbered, in type that reads from across the table.
fn moves(ui: &mut egui::Ui, session: &Session, width: f32) {
    let view = session.view();
    let marks = session
        .review()
        .map(crate::session::GameUnderReview::marks)
        .unwrap_or_default();
    let size = (width / 16.0).clamp(18.0, 36.0);
    let first = view.sans.len().saturating_sub(MOVES_SHOWN) & !1;
    let mut line = String::new();
    let mut lines = Vec::new();
    for (i, san) in view.sans.iter().enumerate().skip(first) {
        let position = &view.positions[i];
        if position.turn() == Color::White || line.is_empty() {
            if !line.is_empty() {
                lines.push(std::mem::take(&mut line));
            }
            let dots = if position.turn() == Color::White {
                "."
            } else {
                "…"
            };
            line = format!("{}{dots} ", position.fullmoves());
        }
        line.push_str(san);
        if let Some(mark) = marks.get(i).copied().flatten() {
            line.push_str(mark.symbol());
        }
        line.push(' ');
    }
    if !line.is_empty() {
        lines.push(line);
    }
    for line in lines {
        ui.label(RichText::new(line.trim_end()).size(size).monospace());
    }
}
