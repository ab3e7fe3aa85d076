//! Pictures a user exports: a position as the app draws it (PNG) and a whole game as an
//! animated GIF, a frame a move, the moves a review marked framed in their colour. Drawn
//! with tiny-skia and the app's piece images, encoded with the `image` crate.

use std::io::Cursor;

use image::codecs::gif::{GifEncoder, Repeat};
use image::{Delay, Frame, ImageFormat, RgbaImage};
use resvg::{tiny_skia, usvg};
use shakmaty::{Chess, Move, Piece, Position, Square};
use tiny_skia::{Color, FillRule, Paint, PathBuilder, Pixmap, Rect, Stroke, Transform};

use crate::app::pieces::piece_trees;
use crate::game::GameRecord;
use crate::review::Judgement;

/// The board's squares, as the app draws them.
const LIGHT: [u8; 3] = [240, 217, 181];
const DARK: [u8; 3] = [181, 136, 99];
/// The last move's squares, laid over.
const LAST_MOVE: [u8; 4] = [155, 199, 0, 105];
/// The better move's arrow.
const BETTER: [u8; 4] = [25, 150, 70, 220];

/// What one picture shows.
#[derive(Clone, Copy, Debug, Default)]
pub struct Look {
    /// The move that led to the position, its squares tinted.
    pub last_move: Option<Move>,
    /// A move drawn as an arrow (the review's better move).
    pub arrow: Option<Move>,
    /// The review's mark of the last move: the picture is framed in its colour.
    pub mark: Option<Judgement>,
    /// Black at the bottom.
    pub flipped: bool,
}

/// The piece images, read once.
pub struct Painter {
    pieces: Vec<(Piece, usvg::Tree)>,
}

impl Default for Painter {
    fn default() -> Self {
        Self {
            pieces: piece_trees(),
        }
    }
}

impl Painter {
    /// The position drawn `side` pixels square.
    pub fn draw(&self, position: &Chess, look: Look, side: u32) -> Option<Pixmap> {
        let mut pixmap = Pixmap::new(side, side)?;
        let cell = side as f32 / 8.0;
        let origin = |square: Square| {
            let (file, rank) = (u32::from(square.file()), u32::from(square.rank()));
            let (column, row) = if look.flipped {
                (7 - file, rank)
            } else {
                (file, 7 - rank)
            };
            (column as f32 * cell, row as f32 * cell)
        };
        for square in Square::ALL {
            let light = (u32::from(square.file()) + u32::from(square.rank())) % 2 == 1;
            let [r, g, b] = if light { LIGHT } else { DARK };
            let (x, y) = origin(square);
            fill_rect(&mut pixmap, x, y, cell, Color::from_rgba8(r, g, b, 255));
            let tinted = look
                .last_move
                .is_some_and(|m| m.from() == Some(square) || m.to() == square);
            if tinted {
                let [r, g, b, a] = LAST_MOVE;
                fill_rect(&mut pixmap, x, y, cell, Color::from_rgba8(r, g, b, a));
            }
        }
        for square in position.board().occupied() {
            let Some(piece) = position.board().piece_at(square) else {
                continue;
            };
            let Some((_, tree)) = self.pieces.iter().find(|(p, _)| *p == piece) else {
                continue;
            };
            let (x, y) = origin(square);
            let scale = cell / tree.size().width().max(tree.size().height());
            let transform = Transform::from_scale(scale, scale).post_translate(x, y);
            resvg::render(tree, transform, &mut pixmap.as_mut());
        }
        if let Some(m) = look.arrow
            && let Some(from) = m.from()
        {
            let centre = |square| {
                let (x, y) = origin(square);
                (x + cell / 2.0, y + cell / 2.0)
            };
            arrow(&mut pixmap, centre(from), centre(m.to()), cell);
        }
        if let Some(mark) = look.mark {
            let [r, g, b] = mark_colour(mark);
            frame(
                &mut pixmap,
                side as f32,
                cell / 8.0,
                Color::from_rgba8(r, g, b, 255),
            );
        }
        Some(pixmap)
    }

    /// The position as a PNG file's bytes.
    pub fn png(&self, position: &Chess, look: Look, side: u32) -> Result<Vec<u8>, String> {
        let image = rgba(
            &self
                .draw(position, look, side)
                .ok_or("no picture of that size")?,
        )?;
        let mut bytes = Cursor::new(Vec::new());
        image
            .write_to(&mut bytes, ImageFormat::Png)
            .map_err(|e| format!("the PNG could not be made: {e}"))?;
        Ok(bytes.into_inner())
    }

    /// The game as an animated GIF's bytes: the start, then a frame a move (`delay_ms`
    /// each, the last held three times as long), each move's squares tinted and the moves
    /// in `marks` (index: ply − 1) framed in their colour, with the better move from
    /// `better` (index: ply − 1) as an arrow.
    pub fn gif(
        &self,
        game: &GameRecord,
        marks: &[Option<Judgement>],
        better: &[Option<Move>],
        side: u32,
        delay_ms: u32,
    ) -> Result<Vec<u8>, String> {
        let positions = game.positions();
        let mut bytes = Vec::new();
        {
            // Speed 10 of 1..30: good colours at a tenth of the slowest's time.
            let mut encoder = GifEncoder::new_with_speed(&mut bytes, 10);
            encoder
                .set_repeat(Repeat::Infinite)
                .map_err(|e| format!("the GIF could not be made: {e}"))?;
            for (ply, position) in positions.iter().enumerate() {
                let index = ply.checked_sub(1);
                let look = Look {
                    last_move: index.and_then(|i| game.moves.get(i).copied()),
                    arrow: index.and_then(|i| better.get(i).copied().flatten()),
                    mark: index.and_then(|i| marks.get(i).copied().flatten()),
                    flipped: false,
                };
                let pixmap = self
                    .draw(position, look, side)
                    .ok_or("no picture of that size")?;
                let last = ply + 1 == positions.len();
                let delay = if last { delay_ms * 3 } else { delay_ms };
                let frame =
                    Frame::from_parts(rgba(&pixmap)?, 0, 0, Delay::from_numer_denom_ms(delay, 1));
                encoder
                    .encode_frame(frame)
                    .map_err(|e| format!("the GIF could not be made: {e}"))?;
            }
        }
        Ok(bytes)
    }
}

/// The colour a mark is shown in, here and in the app (lichess's: yellow, orange, red).
pub fn mark_colour(mark: Judgement) -> [u8; 3] {
    match mark {
        Judgement::Inaccuracy => [0xe6, 0xb4, 0x00],
        Judgement::Mistake => [0xe6, 0x7e, 0x22],
        Judgement::Blunder => [0xdf, 0x3b, 0x3b],
    }
}

/// A pixmap (opaque, so its premultiplied pixels are plain ones) as an image.
fn rgba(pixmap: &Pixmap) -> Result<RgbaImage, String> {
    RgbaImage::from_raw(pixmap.width(), pixmap.height(), pixmap.data().to_vec())
        .ok_or_else(|| "the picture's pixels do not fit its size".to_owned())
}

fn paint(color: Color) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color(color);
    paint.anti_alias = true;
    paint
}

fn fill_rect(pixmap: &mut Pixmap, x: f32, y: f32, side: f32, color: Color) {
    if let Some(rect) = Rect::from_xywh(x, y, side, side) {
        pixmap.fill_rect(rect, &paint(color), Transform::identity(), None);
    }
}

/// A band `width` wide around the picture's edge.
fn frame(pixmap: &mut Pixmap, side: f32, width: f32, color: Color) {
    let mut path = PathBuilder::new();
    let half = width / 2.0;
    if let Some(rect) = Rect::from_xywh(half, half, side - width, side - width) {
        path.push_rect(rect);
    }
    if let Some(path) = path.finish() {
        let stroke = Stroke {
            width,
            ..Stroke::default()
        };
        pixmap.stroke_path(&path, &paint(color), &stroke, Transform::identity(), None);
    }
}

/// An arrow from `from` to `to`, its head at `to`.
fn arrow(pixmap: &mut Pixmap, from: (f32, f32), to: (f32, f32), cell: f32) {
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let length = (dx * dx + dy * dy).sqrt();
    if length < 1.0 {
        return;
    }
    let (ux, uy) = (dx / length, dy / length);
    let head = cell * 0.35;
    let base = (to.0 - ux * head, to.1 - uy * head);
    let [r, g, b, a] = BETTER;
    let color = Color::from_rgba8(r, g, b, a);
    let mut shaft = PathBuilder::new();
    shaft.move_to(from.0, from.1);
    shaft.line_to(base.0, base.1);
    if let Some(path) = shaft.finish() {
        let stroke = Stroke {
            width: cell * 0.14,
            ..Stroke::default()
        };
        pixmap.stroke_path(&path, &paint(color), &stroke, Transform::identity(), None);
    }
    let mut tip = PathBuilder::new();
    let wing = head * 0.6;
    tip.move_to(to.0, to.1);
    tip.line_to(base.0 - uy * wing, base.1 + ux * wing);
    tip.line_to(base.0 + uy * wing, base.1 - ux * wing);
    tip.close();
    if let Some(path) = tip.finish() {
        pixmap.fill_path(
            &path,
            &paint(color),
            FillRule::Winding,
            Transform::identity(),
            None,
        );
    }
}
