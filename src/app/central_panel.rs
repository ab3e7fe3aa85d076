//! The middle: a notice if there is one, the board's state in a line, the recognised
//! position beside the sensor grid, and what was found out about the board.

use eframe::egui;
use egui::{Color32, RichText};

use super::command::AppCommand;
use super::layout::{GAP, board_layout};
use super::pieces::PieceTextures;
use super::{analysis_view, board_view, clock_view, sensor_view};
use crate::clock::flag_words;
use crate::recognizer::event::{dead_sensor_words, unseen_words};
use crate::recognizer::{BoardStatus, EventKind};
use crate::session::Session;
use crate::session::words::{illegal_banner, waiting_words};
use crate::snapshot::Snapshot;
use shakmaty::Position;
use shakmaty::Square;

pub struct BoardState<'a> {
    pub viewed_ply: Option<usize>,
    pub flipped: bool,
    pub textures: Option<&'a PieceTextures>,
    pub highlight: Option<Square>,
    pub show_health: bool,
    pub classic_colours: bool,
    pub large_grid: bool,
    /// Set to whether the sensor grid stood beside the board (else the moves' panel shows
    /// it, from the next frame).
    pub grid_beside: &'a mut bool,
}

pub const WARNING: Color32 = Color32::from_rgb(230, 160, 40);

/// The review's better move where the move shown (the last, if none is looked at) was
/// marked a mistake.
pub fn better_move(session: &Session, viewed_ply: Option<usize>) -> Option<shakmaty::Move> {
    let review = session.review()?;
    let ply = viewed_ply.unwrap_or(session.view().moves.len());
    (*review.marks().get(ply.checked_sub(1)?)?)?;
    review.review().best_line(ply - 1)?.first().copied()
}

/// Says whose clock is shown while the program following the shared board drives it, and
/// the text that program put on the clock's display.
pub fn host_clock_note(ui: &mut egui::Ui, host: &crate::session::HostDisplay) {
    if let Some(text) = &host.text {
        ui.label(
            RichText::new(format!("Clock: {text}"))
                .monospace()
                .size(18.0),
        );
    }
    if host.clock.is_some() {
        ui.small("Times set by the program using the shared board");
    }
}

pub fn show(
    ui: &mut egui::Ui,
    session: &Session,
    state: BoardState<'_>,
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
    status_line(ui, snapshot, awaited_for(session));
    let clock_face = session.clock_face(std::time::Instant::now());
    if let Some(face) = clock_face {
        clock_view::show(ui, face, 26.0, state.flipped);
        if let Some((color, result)) = face.flag {
            ui.colored_label(WARNING, RichText::new(flag_words(color, result)).size(18.0));
        }
    }
    host_clock_note(ui, session.dgt_host());
    let (position, last_move) = session.view().at(state.viewed_ply);
    if state.viewed_ply.is_some() {
        ui.label(match state.viewed_ply {
            Some(ply) if session.is_live() => format!(
                "Position after {ply} moves: drag the move {} really was",
                ply + 1
            ),
            _ => "Position (earlier move)".to_owned(),
        });
    }
    // The evaluation of the position shown live, while the analysis runs.
    let evaluation = session
        .analysis()
        .and_then(|a| a.lines.first())
        .map(|line| line.score)
        .filter(|_| state.viewed_ply.is_none());
    let bar_room = if evaluation.is_some() {
        analysis_view::COLUMN_WIDTH + 8.0
    } else {
        0.0
    };
    let available = ui.available_size();
    let layout = board_layout(
        available.x - 8.0,
        available.y - 8.0,
        bar_room,
        state.large_grid,
    );
    if *state.grid_beside != layout.grid_beside.is_some() {
        *state.grid_beside = layout.grid_beside.is_some();
        ui.ctx().request_repaint();
    }
    let side = layout.board;
    ui.horizontal_top(|ui| {
        if let Some(score) = evaluation {
            ui.vertical(|ui| {
                ui.set_width(analysis_view::COLUMN_WIDTH);
                ui.label(RichText::new(score.to_string()).small());
                analysis_view::eval_bar(ui, score, side, state.flipped);
            });
        }
        if let (Some(textures), Some(position)) = (state.textures, position) {
            let look = board_view::Look {
                flipped: state.flipped,
                arrow: false,
                side,
                draggable: session.is_live(),
                promotion: snapshot.pending_promotion,
                // The engine's move, on the live position only.
                engine_move: snapshot
                    .expected_move
                    .filter(|_| state.viewed_ply.is_none()),
                // At a move the review marked, the better move; else the engine's advice.
                advice: better_move(session, state.viewed_ply)
                    .or_else(|| session.advice().filter(|_| state.viewed_ply.is_none())),
            };
            if let Some(mv) = board_view::show(ui, position, last_move, textures, look) {
                out.push(AppCommand::Correct {
                    ply: shown_ply(session, state.viewed_ply) + 1,
                    mv,
                });
            }
        }
        if let Some(grid_side) = layout.grid_beside {
            ui.add_space(GAP);
            ui.vertical(|ui| {
                ui.set_width(grid_side);
                let grid = SensorColumn {
                    flipped: state.flipped,
                    side: grid_side,
                    highlight: state.highlight,
                    show_health: state.show_health,
                    classic_colours: state.classic_colours,
                    compact: false,
                };
                sensor_column(ui, session, &grid, out);
            });
        }
    });
}

/// What the sensor grid's column needs of the app.
pub struct SensorColumn {
    pub flipped: bool,
    pub side: f32,
    pub highlight: Option<Square>,
    pub show_health: bool,
    pub classic_colours: bool,
    /// In the moves' panel: the legend folded away, to leave the moves their room.
    pub compact: bool,
}

/// The sensor grid with its health switch, legend and findings: beside the board, or in
/// the moves' panel when the window is narrow.
pub fn sensor_column(
    ui: &mut egui::Ui,
    session: &Session,
    column: &SensorColumn,
    out: &mut Vec<AppCommand>,
) {
    let snapshot = session.snapshot();
    ui.label("Sensors");
    let mut grid = sensor_view::Grid::of(
        snapshot,
        session.activity().flashes(),
        column.flipped,
        column.side,
    );
    grid.clickable = matches!(session.source(), crate::session::Source::Simulated { .. });
    grid.highlight = column.highlight;
    grid.health = column.show_health.then(|| session.health());
    grid.classic_colours = column.classic_colours;
    grid.lights = session.dgt_host().lights | session.board_lights();
    if let Some(square) = sensor_view::show(ui, &grid) {
        out.push(AppCommand::SensorClick(square));
    }
    let mut show_health = column.show_health;
    if ui
        .checkbox(&mut show_health, "Sensor health")
        .on_hover_text(
            "Per square: changes, and flickers (a change undone within 50 ms), red \
             where a sensor flickers",
        )
        .changed()
    {
        out.push(AppCommand::ShowHealth(show_health));
    }
    if column.show_health {
        sensor_view::health_summary(ui, session.health(), &snapshot.dead_sensors);
    } else if column.compact {
        egui::CollapsingHeader::new("What the colours mean")
            .default_open(false)
            .show(ui, |ui| sensor_view::legend(ui, column.classic_colours));
    } else {
        ui.add_space(4.0);
        sensor_view::legend(ui, column.classic_colours);
    }
    findings(ui, snapshot);
}

/// How many moves the shown position is after: an earlier one looked at, or the live one.
pub fn shown_ply(session: &Session, viewed_ply: Option<usize>) -> usize {
    let played = session.view().moves.len();
    viewed_ply.filter(|&p| p < played).unwrap_or(played)
}

/// Illegal (and what to put back), a move in progress, or nothing to say.
fn status_line(ui: &mut egui::Ui, snapshot: &Snapshot, awaited_for: &str) {
    match (
        &snapshot.status,
        illegal_banner(&snapshot.status, &snapshot.position),
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
        (BoardStatus::Waiting { lifted, placed }, None) => {
            ui.label(RichText::new(waiting_words(*lifted, *placed)).size(18.0));
        }
        (_, None) if snapshot.expected_move.is_some() => {
            let words = snapshot
                .expected_move
                .map(|mv| engine_move_words(&snapshot.position, mv, awaited_for))
                .unwrap_or_default();
            ui.label(RichText::new(words).size(18.0).strong());
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

/// "Move the knight g8 to f6 for the engine".
pub fn engine_move_words(
    position: &shakmaty::Chess,
    mv: shakmaty::Move,
    awaited_for: &str,
) -> String {
    let piece = mv
        .from()
        .and_then(|from| position.board().piece_at(from))
        .map(super::pieces::piece_name)
        .unwrap_or_default();
    let from = mv.from().unwrap_or(mv.to());
    let to = board_view::king_destination(mv).unwrap_or(mv.to());
    let role = piece.split(' ').next_back().unwrap_or("piece");
    let castles = if matches!(mv, shakmaty::Move::Castle { .. }) {
        " (castling: the rook too)"
    } else {
        ""
    };
    format!("Move the {role} {from} to {to} for {awaited_for}{castles}")
}

/// Whose move the board awaits: the online opponent's or the engine's.
pub fn awaited_for(session: &Session) -> &'static str {
    if session.is_online() {
        "the opponent"
    } else {
        "the engine"
    }
}

/// What boardsight found out about the board itself: dead sensors, a board turned round.
pub fn findings(ui: &mut egui::Ui, snapshot: &Snapshot) {
    for &(square, stuck_occupied) in &snapshot.dead_sensors {
        ui.colored_label(WARNING, dead_sensor_words(square, stuck_occupied));
    }
    for &(square, piece) in &snapshot.unseen_pieces {
        ui.colored_label(WARNING, unseen_words(square, piece));
    }
    if snapshot.turned
        && let Some(text) = (EventKind::Orientation { turned: true }).finding()
    {
        ui.colored_label(WARNING, text);
    }
}
