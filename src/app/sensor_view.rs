//! The raw sensor grid beside the board: what the board senses now, coloured by what it
//! means for the recognised position.

use eframe::egui;
use std::time::Instant;

use egui::{Color32, Sense, Stroke, StrokeKind, Vec2};
use shakmaty::{Bitboard, Square};

use super::board_view::{DARK, LIGHT, draw_coordinates, is_light, square_rect, square_target};
use crate::recognizer::BoardStatus;
use crate::recognizer::health::SensorHealth;
use crate::session::FLASH;
use crate::snapshot::Snapshot;

/// What one sensor square means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SquareMeaning {
    /// Occupied, as the position says.
    Agrees,
    /// Empty, as the position says.
    Empty,
    /// The position has a piece here but the board reads empty: lifted.
    Lifted,
    /// A piece where the position has none.
    Unexpected,
    /// Part of a move being made.
    InProgress,
    /// Part of an illegal state: it must change back.
    Illegal,
    /// The sensor is broken; the square is read from the moves around it.
    Dead,
    /// A piece stands here off-centre, where its sensor does not see it.
    Unseen,
}

pub fn meaning(
    square: Square,
    sensed: Bitboard,
    expected: Bitboard,
    status: &BoardStatus,
    dead: Bitboard,
    unseen: Bitboard,
) -> SquareMeaning {
    let occupied = sensed.contains(square);
    match status {
        _ if dead.contains(square) => SquareMeaning::Dead,
        _ if unseen.contains(square) => SquareMeaning::Unseen,
        BoardStatus::Illegal { put_back, remove } if (*put_back | *remove).contains(square) => {
            SquareMeaning::Illegal
        }
        BoardStatus::Waiting { lifted, placed } if (*lifted | *placed).contains(square) => {
            SquareMeaning::InProgress
        }
        _ => match (occupied, expected.contains(square)) {
            (true, true) => SquareMeaning::Agrees,
            (false, false) => SquareMeaning::Empty,
            (false, true) => SquareMeaning::Lifted,
            (true, false) => SquareMeaning::Unexpected,
        },
    }
}

/// The colour of a meaning: by default one colour-blind eyes tell apart (Okabe–Ito),
/// `classic` the first colours.
fn fill(meaning: SquareMeaning, classic: bool) -> Option<Color32> {
    let rgb = |r, g, b| Some(Color32::from_rgb(r, g, b));
    match (meaning, classic) {
        (SquareMeaning::Agrees | SquareMeaning::Empty, _) => None,
        (SquareMeaning::Dead, _) => Some(Color32::from_gray(110)),
        (SquareMeaning::Lifted, false) => rgb(0xe6, 0x9f, 0x00),
        (SquareMeaning::Unexpected, false) => rgb(0xcc, 0x79, 0xa7),
        (SquareMeaning::InProgress, false) => rgb(0x56, 0xb4, 0xe9),
        (SquareMeaning::Illegal, false) => rgb(0xd5, 0x5e, 0x00),
        (SquareMeaning::Unseen, false) => rgb(0x00, 0x9e, 0x73),
        (SquareMeaning::Lifted, true) => rgb(240, 160, 40),
        (SquareMeaning::Unexpected, true) => rgb(150, 90, 210),
        (SquareMeaning::InProgress, true) => rgb(240, 220, 60),
        (SquareMeaning::Illegal, true) => rgb(220, 40, 40),
        (SquareMeaning::Unseen, true) => rgb(40, 170, 170),
    }
}

/// A square's colour and the shape that tells its meaning without the colour: an arrow up
/// (lifted), a diamond (unexpected), a corner band (in progress), a bold cross in the
/// corner (must change), a cross over the square (dead sensor). The unseen piece's ring is
/// drawn with the pieces. The grid and its legend draw the same.
fn swatch(painter: &egui::Painter, cell: egui::Rect, meaning: SquareMeaning, classic: bool) {
    let Some(color) = fill(meaning, classic) else {
        return;
    };
    painter.rect_filled(cell.shrink(1.0), 2.0, color);
    let ink = Color32::from_gray(20);
    let w = cell.width();
    let stroke = Stroke::new((w * 0.07).max(1.2), ink);
    // The corner mark sits top right, clear of the piece's dot.
    let corner = egui::Rect::from_min_size(
        egui::pos2(cell.right() - w * 0.36, cell.top() + w * 0.06),
        Vec2::splat(w * 0.3),
    );
    match meaning {
        SquareMeaning::Lifted => {
            let points = vec![
                corner.center_top(),
                corner.right_bottom(),
                corner.left_bottom(),
            ];
            painter.add(egui::Shape::convex_polygon(points, ink, Stroke::NONE));
        }
        SquareMeaning::Unexpected => {
            let c = corner.center();
            let r = corner.width() / 2.0;
            let points = vec![
                egui::pos2(c.x, c.y - r),
                egui::pos2(c.x + r, c.y),
                egui::pos2(c.x, c.y + r),
                egui::pos2(c.x - r, c.y),
            ];
            painter.add(egui::Shape::convex_polygon(points, ink, Stroke::NONE));
        }
        SquareMeaning::InProgress => {
            let band = egui::Rect::from_min_max(
                cell.left_bottom() + Vec2::new(1.0, -w * 0.14),
                cell.right_bottom() - Vec2::new(1.0, 1.0),
            );
            painter.rect_filled(band, 0.0, ink.gamma_multiply(0.7));
        }
        SquareMeaning::Illegal => {
            painter.line_segment([corner.left_top(), corner.right_bottom()], stroke);
            painter.line_segment([corner.right_top(), corner.left_bottom()], stroke);
        }
        SquareMeaning::Dead => {
            // A cross: this sensor's reading is not used.
            let inner = cell.shrink(w * 0.2);
            let stroke = Stroke::new(w * 0.06, Color32::from_gray(230));
            painter.line_segment([inner.left_top(), inner.right_bottom()], stroke);
            painter.line_segment([inner.right_top(), inner.left_bottom()], stroke);
        }
        SquareMeaning::Agrees | SquareMeaning::Empty | SquareMeaning::Unseen => {}
    }
}

fn describe(meaning: SquareMeaning) -> &'static str {
    match meaning {
        SquareMeaning::Agrees => "occupied",
        SquareMeaning::Empty => "empty",
        SquareMeaning::Lifted => "empty, piece lifted",
        SquareMeaning::Unexpected => "occupied, unexpected",
        SquareMeaning::InProgress => "move in progress",
        SquareMeaning::Illegal => "must change",
        SquareMeaning::Dead => "dead sensor, worked around",
        SquareMeaning::Unseen => "reads empty, a piece stands there off-centre",
    }
}

/// What the colours and shapes of the grid mean.
pub fn legend(ui: &mut egui::Ui, classic: bool) {
    for (meaning, text) in [
        (SquareMeaning::Lifted, "lifted"),
        (SquareMeaning::Unexpected, "unexpected"),
        (SquareMeaning::InProgress, "move in progress"),
        (SquareMeaning::Illegal, "must change"),
        (SquareMeaning::Dead, "dead sensor"),
        (SquareMeaning::Unseen, "piece off-centre, unseen"),
    ] {
        ui.horizontal(|ui| {
            let (rect, _) = ui.allocate_exact_size(Vec2::splat(16.0), Sense::hover());
            swatch(ui.painter(), rect, meaning, classic);
            if meaning == SquareMeaning::Unseen {
                ring(ui.painter(), rect);
            }
            ui.label(egui::RichText::new(text).small());
        });
    }
    ui.horizontal(|ui| {
        let (rect, _) = ui.allocate_exact_size(Vec2::splat(16.0), Sense::hover());
        ui.painter()
            .rect_filled(rect, 0.0, DARK.gamma_multiply(0.55));
        light(ui.painter(), rect);
        ui.label(egui::RichText::new("the board's light on").small());
    });
}

/// A board's light, on: a bright ring round the square's middle, clear of the piece's disc.
fn light(painter: &egui::Painter, cell: egui::Rect) {
    let stroke = Stroke::new(cell.width() * 0.08, LIGHT_ON);
    painter.circle_stroke(cell.center(), cell.width() * 0.4, stroke);
}

/// A ring: a piece is there, but the sensor reads nothing.
fn ring(painter: &egui::Painter, cell: egui::Rect) {
    let stroke = Stroke::new(cell.width() * 0.06, Color32::from_gray(35));
    painter.circle_stroke(cell.center(), cell.width() * 0.28, stroke);
}

/// What the sensor grid shows.
pub struct Grid<'a> {
    pub sensed: Bitboard,
    pub expected: Bitboard,
    pub status: &'a BoardStatus,
    pub dead: Bitboard,
    /// Squares with a piece its sensor does not see.
    pub unseen: Bitboard,
    pub flashes: &'a [(Square, Instant)],
    pub flipped: bool,
    pub side: f32,
    /// Whether a click lifts or places a piece (the simulated board).
    pub clickable: bool,
    /// A square picked out (from the time strip's lanes).
    pub highlight: Option<Square>,
    /// The engine's move, whose squares the player is to act on.
    pub awaited: Option<shakmaty::Move>,
    /// Per-square counts to show as a heat map.
    pub health: Option<&'a SensorHealth>,
    /// The first colours instead of the colour-blind-safe palette.
    pub classic_colours: bool,
    /// The board's lights that are on: its own, and those a DGT host lit.
    pub lights: Bitboard,
}

impl<'a> Grid<'a> {
    /// The grid of what a snapshot says, with nothing picked out.
    pub fn of(
        snapshot: &'a Snapshot,
        flashes: &'a [(Square, Instant)],
        flipped: bool,
        side: f32,
    ) -> Self {
        Self {
            sensed: snapshot.sensed,
            expected: snapshot.expected,
            status: &snapshot.status,
            dead: snapshot.dead_sensors.iter().map(|(s, _)| *s).collect(),
            unseen: snapshot.unseen_pieces.iter().map(|(s, _)| *s).collect(),
            flashes,
            flipped,
            side,
            clickable: false,
            highlight: None,
            awaited: snapshot.expected_move,
            health: None,
            classic_colours: false,
            lights: Bitboard::EMPTY,
        }
    }
}

const HIGHLIGHT: Color32 = Color32::from_rgb(30, 160, 255);
const AWAITED: Color32 = Color32::from_rgb(230, 120, 0);
/// A lit LED: the Okabe–Ito yellow, apart from every state's colour.
const LIGHT_ON: Color32 = Color32::from_rgb(240, 228, 66);

/// Draws the grid; returns the square clicked (a virtual board lifts or places there).
pub fn show(ui: &mut egui::Ui, grid: &Grid<'_>) -> Option<Square> {
    let (rect, _) = ui.allocate_exact_size(Vec2::splat(grid.side), Sense::hover());
    let painter = ui.painter_at(rect);
    let now = Instant::now();
    let mut clicked = None;
    let most_flickers = grid.health.map_or(0, SensorHealth::most_flickers);
    let most_changes = grid.health.map_or(0, SensorHealth::most_changes);
    for square in Square::ALL {
        let cell = square_rect(rect, square, grid.flipped);
        let base = if is_light(square) { LIGHT } else { DARK };
        painter.rect_filled(cell, 0.0, base.gamma_multiply(0.55));
        let meaning = meaning(
            square,
            grid.sensed,
            grid.expected,
            grid.status,
            grid.dead,
            grid.unseen,
        );
        if let Some(health) = grid.health {
            // Heat: red for flickers, amber for plain changes (a busy square, not a bad one).
            let heat = if health.flickers(square) > 0 {
                let share = health.flickers(square) as f32 / most_flickers.max(1) as f32;
                Color32::from_rgb(220, 40, 30).gamma_multiply(0.35 + 0.65 * share)
            } else {
                let share = health.changes(square) as f32 / most_changes.max(1) as f32;
                Color32::from_rgb(230, 160, 40).gamma_multiply(0.6 * share)
            };
            painter.rect_filled(cell.shrink(1.0), 2.0, heat);
        } else {
            swatch(&painter, cell, meaning, grid.classic_colours);
        }
        if grid.sensed.contains(square) {
            painter.circle_filled(cell.center(), cell.width() * 0.28, Color32::from_gray(35));
        } else if meaning == SquareMeaning::Unseen {
            ring(&painter, cell);
        }
        if let Some((_, at)) = grid.flashes.iter().rev().find(|(s, _)| *s == square) {
            let age = now.saturating_duration_since(*at);
            if age < FLASH {
                let alpha = 1.0 - age.as_secs_f32() / FLASH.as_secs_f32();
                painter.rect_stroke(
                    cell.shrink(2.0),
                    2.0,
                    Stroke::new(3.0, HIGHLIGHT.gamma_multiply(alpha)),
                    StrokeKind::Inside,
                );
            }
        }
        if grid.highlight == Some(square) {
            painter.rect_stroke(cell, 2.0, Stroke::new(3.0, HIGHLIGHT), StrokeKind::Inside);
        }
        let awaited = grid.awaited.is_some_and(|m| {
            m.from() == Some(square)
                || m.to() == square
                || super::board_view::king_destination(m) == Some(square)
        });
        if awaited {
            painter.rect_stroke(cell, 2.0, Stroke::new(3.0, AWAITED), StrokeKind::Inside);
        }
        let lit = grid.lights.contains(square);
        if lit {
            light(&painter, cell);
        }
        let sense = if grid.clickable {
            Sense::click()
        } else {
            Sense::hover()
        };
        let mut label = format!("sensor {square}: {}", describe(meaning));
        if let Some(health) = grid.health {
            label = format!(
                "{label}, {} changes, {} flickers",
                health.changes(square),
                health.flickers(square)
            );
        }
        if grid.highlight == Some(square) {
            label.push_str(", picked out");
        }
        if awaited {
            label.push_str(", the engine's move");
        }
        if lit {
            label.push_str(", its light is on");
        }
        if square_target(ui, cell, ("sensor", square), &label, sense) {
            clicked = Some(square);
        }
    }
    draw_coordinates(&painter, rect, grid.flipped);
    painter.rect_stroke(rect, 0.0, Stroke::new(1.0, DARK), StrokeKind::Outside);
    clicked
}

/// The worst squares of a health count, and the sensors found stuck, in words: where a
/// board builder looks first.
pub fn health_summary(ui: &mut egui::Ui, health: &SensorHealth, stuck: &[(Square, bool)]) {
    for &(square, occupied) in stuck {
        ui.colored_label(
            Color32::from_rgb(220, 60, 40),
            format!(
                "{square}: stuck reading {} ({} changes)",
                if occupied { "occupied" } else { "empty" },
                health.changes(square)
            ),
        );
    }
    let worst = health.worst(4);
    if worst.is_empty() {
        ui.label(
            egui::RichText::new(format!(
                "No flickers (changes undone within {} ms).",
                crate::recognizer::health::FLICKER_MS
            ))
            .small(),
        );
        return;
    }
    for square in worst {
        ui.colored_label(
            Color32::from_rgb(220, 60, 40),
            format!(
                "{square}: {} flickers in {} changes",
                health.flickers(square),
                health.changes(square)
            ),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_are_coloured_by_what_they_mean() {
        let expected = Bitboard::from_square(Square::E2);
        let sensed = Bitboard::from_square(Square::E4);
        let settled = BoardStatus::Settled;
        assert_eq!(
            meaning(
                Square::E2,
                sensed,
                expected,
                &settled,
                Bitboard::EMPTY,
                Bitboard::EMPTY
            ),
            SquareMeaning::Lifted
        );
        assert_eq!(
            meaning(
                Square::E4,
                sensed,
                expected,
                &settled,
                Bitboard::EMPTY,
                Bitboard::EMPTY
            ),
            SquareMeaning::Unexpected
        );
        assert_eq!(
            meaning(
                Square::A1,
                sensed,
                expected,
                &settled,
                Bitboard::EMPTY,
                Bitboard::EMPTY
            ),
            SquareMeaning::Empty
        );
        let waiting = BoardStatus::Waiting {
            lifted: expected,
            placed: sensed,
        };
        assert_eq!(
            meaning(
                Square::E4,
                sensed,
                expected,
                &waiting,
                Bitboard::EMPTY,
                Bitboard::EMPTY
            ),
            SquareMeaning::InProgress
        );
        let illegal = BoardStatus::Illegal {
            put_back: expected,
            remove: Bitboard::EMPTY,
        };
        assert_eq!(
            meaning(
                Square::E2,
                sensed,
                expected,
                &illegal,
                Bitboard::EMPTY,
                Bitboard::EMPTY
            ),
            SquareMeaning::Illegal
        );
        assert_eq!(
            meaning(
                Square::E2,
                sensed,
                expected,
                &illegal,
                expected,
                Bitboard::EMPTY
            ),
            SquareMeaning::Dead
        );
        assert_eq!(
            meaning(
                Square::E2,
                sensed,
                expected,
                &settled,
                Bitboard::EMPTY,
                expected
            ),
            SquareMeaning::Unseen
        );
    }
}
