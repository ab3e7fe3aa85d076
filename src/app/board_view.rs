//! The recognised position: a chessboard with pieces, the last move, check and coordinates.

use eframe::egui;
use egui::{Color32, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2};
use shakmaty::{Chess, File, Move, Position, Rank, Role, Square};

use super::pieces::{PieceTextures, piece_name};

pub const LIGHT: Color32 = Color32::from_rgb(240, 217, 181);
pub const DARK: Color32 = Color32::from_rgb(181, 136, 99);
const LAST_MOVE: Color32 = Color32::from_rgba_premultiplied(155, 199, 0, 105);
const CHECK: Color32 = Color32::from_rgba_premultiplied(220, 30, 30, 170);

/// The screen rectangle of a square on a board drawn in `rect`.
pub fn square_rect(rect: Rect, square: Square, flipped: bool) -> Rect {
    let size = rect.width() / 8.0;
    let (file, rank) = (u32::from(square.file()), u32::from(square.rank()));
    let (column, row) = if flipped {
        (7 - file, rank)
    } else {
        (file, 7 - rank)
    };
    Rect::from_min_size(
        rect.min + Vec2::new(column as f32 * size, row as f32 * size),
        Vec2::splat(size),
    )
}

pub fn is_light(square: Square) -> bool {
    (u32::from(square.file()) + u32::from(square.rank())) % 2 == 1
}

/// How a board is drawn.
#[derive(Clone, Copy, Debug)]
pub struct Look {
    pub flipped: bool,
    /// An arrow over the last move, for reading it from across the room.
    pub arrow: bool,
    pub side: f32,
    /// Whether a piece can be dragged to enter a move (a correction).
    pub draggable: bool,
    /// What a pawn dragged to its last rank becomes.
    pub promotion: Role,
    /// A move to show as an arrow for the player to make (the engine's).
    pub engine_move: Option<Move>,
    /// Advice for the player: the best move from a hint or the analysis, as a green arrow.
    pub advice: Option<Move>,
}

const DRAG_TARGET: Color32 = Color32::from_rgba_premultiplied(20, 85, 30, 120);

/// Draws `position`; returns the legal move a piece was dragged to make, if any.
pub fn show(
    ui: &mut egui::Ui,
    position: &Chess,
    last_move: Option<Move>,
    textures: &PieceTextures,
    look: Look,
) -> Option<Move> {
    let Look { flipped, side, .. } = look;
    let (rect, _) = ui.allocate_exact_size(Vec2::splat(side), Sense::hover());
    let board = position.board();
    // Each square a target first: a drag's origin decides how the squares are drawn.
    let mut dragged_from = None;
    let mut dropped = None;
    for square in Square::ALL {
        let cell = square_rect(rect, square, flipped);
        let piece = board.piece_at(square);
        let label = match piece {
            Some(piece) => format!("{square}: {}", piece_name(piece)),
            None => format!("{square}: empty"),
        };
        let sense = if look.draggable && piece.is_some_and(|p| p.color == position.turn()) {
            Sense::click_and_drag()
        } else {
            Sense::hover()
        };
        let response = square_response(ui, cell, ("board", square), &label, sense);
        if response.dragged() {
            dragged_from = Some(square);
        }
        if response.drag_stopped() {
            dropped = response
                .interact_pointer_pos()
                .or_else(|| ui.input(|i| i.pointer.latest_pos()))
                .and_then(|pos| square_at(rect, pos, flipped))
                .and_then(|to| legal_move(position, square, to, look.promotion));
        }
    }
    let targets: Vec<Move> = dragged_from.map_or_else(Vec::new, |from| {
        position
            .legal_moves()
            .into_iter()
            .filter(|m| m.from() == Some(from))
            .collect()
    });
    let painter = ui.painter_at(rect);
    let king_in_check = position
        .is_check()
        .then(|| board.king_of(position.turn()))
        .flatten();
    let uv = Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0));
    for square in Square::ALL {
        let cell = square_rect(rect, square, flipped);
        painter.rect_filled(cell, 0.0, if is_light(square) { LIGHT } else { DARK });
        if let Some(m) = last_move
            && (m.from() == Some(square) || m.to() == square || king_destination(m) == Some(square))
        {
            painter.rect_filled(cell, 0.0, LAST_MOVE);
        }
        if king_in_check == Some(square) {
            painter.circle_filled(cell.center(), cell.width() * 0.45, CHECK);
        }
        if let Some(piece) = board.piece_at(square)
            && let Some(texture) = textures.get(piece, cell.width())
        {
            // The piece being dragged stays dimmed where it stood.
            let tint = if dragged_from == Some(square) {
                Color32::WHITE.gamma_multiply(0.3)
            } else {
                Color32::WHITE
            };
            painter.image(texture.id(), cell.shrink(cell.width() * 0.04), uv, tint);
        }
        // Where the dragged piece may go: a dot, or a ring round a piece it would take.
        let target = targets
            .iter()
            .find(|m| m.to() == square || king_destination(**m) == Some(square));
        if let Some(m) = target {
            if m.is_capture() {
                painter.circle_stroke(
                    cell.center(),
                    cell.width() * 0.44,
                    Stroke::new(cell.width() * 0.08, DRAG_TARGET),
                );
            } else {
                painter.circle_filled(cell.center(), cell.width() * 0.16, DRAG_TARGET);
            }
        }
    }
    draw_coordinates(&painter, rect, flipped);
    if look.arrow
        && dragged_from.is_none()
        && let Some(m) = last_move
        && let Some(from) = m.from()
    {
        let to = king_destination(m).unwrap_or(m.to());
        draw_arrow(&painter, rect, from, to, flipped, ARROW);
    }
    for (m, color) in [(look.advice, ADVICE), (look.engine_move, HINT)] {
        if let Some(m) = m
            && let Some(from) = m.from()
        {
            let to = king_destination(m).unwrap_or(m.to());
            draw_arrow(&painter, rect, from, to, flipped, color);
        }
    }
    painter.rect_stroke(rect, 0.0, Stroke::new(1.0, DARK), StrokeKind::Outside);
    // The dragged piece follows the pointer, over everything.
    if let Some(from) = dragged_from
        && let Some(piece) = board.piece_at(from)
        && let Some(texture) = textures.get(piece, side / 8.0 * 1.1)
        && let Some(pointer) = ui.input(|i| i.pointer.latest_pos())
    {
        let size = Vec2::splat(side / 8.0 * 1.1);
        let over = ui.ctx().layer_painter(egui::LayerId::new(
            egui::Order::Tooltip,
            egui::Id::unique("dragged piece"),
        ));
        over.image(
            texture.id(),
            Rect::from_center_size(pointer, size),
            uv,
            Color32::WHITE,
        );
    }
    dropped
}

/// The square under a point of a board drawn in `rect`.
fn square_at(rect: Rect, pos: Pos2, flipped: bool) -> Option<Square> {
    if !rect.contains(pos) {
        return None;
    }
    Square::ALL
        .into_iter()
        .find(|&s| square_rect(rect, s, flipped).contains(pos))
}

/// The legal move from `from` to `to` (a king's castling by its landing square), a pawn
/// reaching its last rank becoming `promotion`.
pub fn legal_move(position: &Chess, from: Square, to: Square, promotion: Role) -> Option<Move> {
    let moves: Vec<Move> = position
        .legal_moves()
        .into_iter()
        .filter(|m| m.from() == Some(from) && (m.to() == to || king_destination(*m) == Some(to)))
        .collect();
    moves
        .iter()
        .find(|m| m.promotion().is_none_or(|role| role == promotion))
        .or(moves.first())
        .copied()
}

const ARROW: Color32 = Color32::from_rgba_premultiplied(20, 110, 200, 200);
const HINT: Color32 = Color32::from_rgba_premultiplied(220, 110, 0, 220);
const ADVICE: Color32 = Color32::from_rgba_premultiplied(25, 150, 70, 210);

/// An arrow from the centre of one square to the centre of another.
fn draw_arrow(
    painter: &egui::Painter,
    rect: Rect,
    from: Square,
    to: Square,
    flipped: bool,
    color: Color32,
) {
    let start = square_rect(rect, from, flipped).center();
    let end = square_rect(rect, to, flipped).center();
    let size = rect.width() / 8.0;
    let direction = (end - start).normalized();
    let head = size * 0.38;
    let shaft_end = end - direction * head;
    painter.line_segment([start, shaft_end], Stroke::new(size * 0.14, color));
    let across = direction.rot90() * head * 0.6;
    painter.add(egui::Shape::convex_polygon(
        vec![end, shaft_end + across, shaft_end - across],
        color,
        Stroke::NONE,
    ));
}

/// Makes a square a target: for clicks and for screen readers, which read `label`.
/// Returns whether it was clicked.
pub fn square_target(
    ui: &mut egui::Ui,
    cell: Rect,
    id: impl egui::AsIdSalt,
    label: &str,
    sense: Sense,
) -> bool {
    square_response(ui, cell, id, label, sense).clicked()
}

fn square_response(
    ui: &mut egui::Ui,
    cell: Rect,
    id: impl egui::AsIdSalt,
    label: &str,
    sense: Sense,
) -> egui::Response {
    let response = ui.interact(cell, ui.scope_id().with(id), sense);
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Cell, true, label));
    response
}

/// Castling is stored king-takes-rook; show the king's landing square too.
pub fn king_destination(m: Move) -> Option<Square> {
    match m {
        Move::Castle { king, rook } => {
            let side = shakmaty::CastlingSide::from_king_side(king < rook);
            Some(Square::from_coords(side.king_to_file(), king.rank()))
        }
        _ => None,
    }
}

pub fn draw_coordinates(painter: &egui::Painter, rect: Rect, flipped: bool) {
    let size = rect.width() / 8.0;
    let font = egui::FontId::proportional((size * 0.2).max(8.0));
    for i in 0..8u32 {
        let file = File::new(if flipped { 7 - i } else { i });
        let rank = Rank::new(if flipped { i } else { 7 - i });
        let bottom_square =
            Square::from_coords(file, if flipped { Rank::Eighth } else { Rank::First });
        let left_square = Square::from_coords(if flipped { File::H } else { File::A }, rank);
        let text_color = |sq: Square| if is_light(sq) { DARK } else { LIGHT };
        let cell = square_rect(rect, bottom_square, flipped);
        painter.text(
            cell.right_bottom() + Vec2::new(-2.0, -1.0),
            egui::Align2::RIGHT_BOTTOM,
            file.char(),
            font.clone(),
            text_color(bottom_square),
        );
        let cell = square_rect(rect, left_square, flipped);
        painter.text(
            cell.left_top() + Vec2::new(2.0, 1.0),
            egui::Align2::LEFT_TOP,
            rank.char(),
            font.clone(),
            text_color(left_square),
        );
    }
}
