//! The recognised position: a chessboard with pieces, the last move, check and coordinates.

use eframe::egui;
use egui::{Color32, Pos2, Rect, Sense, Stroke, StrokeKind, Vec2};
use shakmaty::{Chess, File, Move, Position, Rank, Square};

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
}

/// Draws `position`; returns the square the user clicked, if any.
pub fn show(
    ui: &mut egui::Ui,
    position: &Chess,
    last_move: Option<Move>,
    textures: &PieceTextures,
    look: Look,
) -> Option<Square> {
    let Look { flipped, side, .. } = look;
    let (rect, _) = ui.allocate_exact_size(Vec2::splat(side), Sense::hover());
    let painter = ui.painter_at(rect);
    let board = position.board();
    let king_in_check = position
        .is_check()
        .then(|| board.king_of(position.turn()))
        .flatten();
    let mut clicked = None;
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
        let piece = board.piece_at(square);
        if let Some(piece) = piece
            && let Some(texture) = textures.get(piece)
        {
            let uv = Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0));
            painter.image(
                texture.id(),
                cell.shrink(cell.width() * 0.04),
                uv,
                Color32::WHITE,
            );
        }
        let label = match piece {
            Some(piece) => format!("{square}: {}", piece_name(piece)),
            None => format!("{square}: empty"),
        };
        if square_target(ui, cell, ("board", square), &label, Sense::click()) {
            clicked = Some(square);
        }
    }
    draw_coordinates(&painter, rect, flipped);
    if look.arrow
        && let Some(m) = last_move
        && let Some(from) = m.from()
    {
        let to = king_destination(m).unwrap_or(m.to());
        draw_arrow(&painter, rect, from, to, flipped);
    }
    painter.rect_stroke(rect, 0.0, Stroke::new(1.0, DARK), StrokeKind::Outside);
    clicked
}

const ARROW: Color32 = Color32::from_rgba_premultiplied(20, 110, 200, 200);

/// An arrow from the centre of one square to the centre of another.
fn draw_arrow(painter: &egui::Painter, rect: Rect, from: Square, to: Square, flipped: bool) {
    let start = square_rect(rect, from, flipped).center();
    let end = square_rect(rect, to, flipped).center();
    let size = rect.width() / 8.0;
    let direction = (end - start).normalized();
    let head = size * 0.38;
    let shaft_end = end - direction * head;
    painter.line_segment([start, shaft_end], Stroke::new(size * 0.14, ARROW));
    let across = direction.rot90() * head * 0.6;
    painter.add(egui::Shape::convex_polygon(
        vec![end, shaft_end + across, shaft_end - across],
        ARROW,
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
    let response = ui.interact(cell, ui.scope_id().with(id), sense);
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Cell, true, label));
    response.clicked()
}

/// Castling is stored king-takes-rook; show the king's landing square too.
fn king_destination(m: Move) -> Option<Square> {
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
