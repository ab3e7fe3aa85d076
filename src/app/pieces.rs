//! The piece images of `assets/pieces` (SVG, built into the binary), drawn into textures
//! at the size they are shown: crisp on a small promotion button and on a full-screen
//! board alike. A size is rendered once, when first needed.

use std::cell::RefCell;
use std::collections::HashMap;

use eframe::egui;
use egui::{ColorImage, TextureHandle, TextureOptions};
use resvg::{tiny_skia, usvg};
use shakmaty::{Color, Piece, Role};

/// The piece images.
const SVGS: [(Color, Role, &str); 12] = [
    (
        Color::White,
        Role::Pawn,
        include_str!("../../assets/pieces/white-pawn.svg"),
    ),
    (
        Color::White,
        Role::Knight,
        include_str!("../../assets/pieces/white-knight.svg"),
    ),
    (
        Color::White,
        Role::Bishop,
        include_str!("../../assets/pieces/white-bishop.svg"),
    ),
    (
        Color::White,
        Role::Rook,
        include_str!("../../assets/pieces/white-rook.svg"),
    ),
    (
        Color::White,
        Role::Queen,
        include_str!("../../assets/pieces/white-queen.svg"),
    ),
    (
        Color::White,
        Role::King,
        include_str!("../../assets/pieces/white-king.svg"),
    ),
    (
        Color::Black,
        Role::Pawn,
        include_str!("../../assets/pieces/black-pawn.svg"),
    ),
    (
        Color::Black,
        Role::Knight,
        include_str!("../../assets/pieces/black-knight.svg"),
    ),
    (
        Color::Black,
        Role::Bishop,
        include_str!("../../assets/pieces/black-bishop.svg"),
    ),
    (
        Color::Black,
        Role::Rook,
        include_str!("../../assets/pieces/black-rook.svg"),
    ),
    (
        Color::Black,
        Role::Queen,
        include_str!("../../assets/pieces/black-queen.svg"),
    ),
    (
        Color::Black,
        Role::King,
        include_str!("../../assets/pieces/black-king.svg"),
    ),
];

/// The pixel sizes textures are made at: the smallest at least as large as asked for.
const SIZES: [u32; 6] = [32, 64, 128, 256, 512, 1024];

pub struct PieceTextures {
    ctx: egui::Context,
    pieces: Vec<(Piece, usvg::Tree)>,
    made: RefCell<HashMap<(Piece, u32), TextureHandle>>,
}

impl PieceTextures {
    pub fn load(ctx: &egui::Context) -> Self {
        Self {
            ctx: ctx.clone(),
            pieces: piece_trees(),
            made: RefCell::new(HashMap::new()),
        }
    }

    /// The piece's texture for drawing `points` wide (at the screen's pixels per point).
    pub fn get(&self, piece: Piece, points: f32) -> Option<TextureHandle> {
        let pixels = points * self.ctx.pixels_per_point();
        let size = SIZES
            .into_iter()
            .find(|&s| s as f32 >= pixels)
            .unwrap_or(SIZES[SIZES.len() - 1]);
        if let Some(texture) = self.made.borrow().get(&(piece, size)) {
            return Some(texture.clone());
        }
        let (_, tree) = self.pieces.iter().find(|(p, _)| *p == piece)?;
        let image = render(tree, size)?;
        let name = format!("{piece:?}-{size}");
        // Mipmaps keep a piece crisp when drawn a little smaller than its texture.
        let options = TextureOptions::LINEAR.with_mipmap_mode(Some(egui::TextureFilter::Linear));
        let texture = self.ctx.load_texture(name, image, options);
        self.made
            .borrow_mut()
            .insert((piece, size), texture.clone());
        Some(texture)
    }
}

/// The piece images, parsed. They are built in and tested to parse; one that did not would
/// be drawn as nothing rather than stop the app.
pub(crate) fn piece_trees() -> Vec<(Piece, usvg::Tree)> {
    let options = usvg::Options::default();
    SVGS.iter()
        .filter_map(|&(color, role, svg)| {
            let tree = usvg::Tree::from_str(svg, &options).ok()?;
            Some((Piece { color, role }, tree))
        })
        .collect()
}

/// Rasterises a piece into a square image `size` pixels wide.
fn render(tree: &usvg::Tree, size: u32) -> Option<ColorImage> {
    let mut pixmap = tiny_skia::Pixmap::new(size, size)?;
    let scale = size as f32 / tree.size().width().max(tree.size().height());
    resvg::render(
        tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    let side = size as usize;
    Some(ColorImage::from_rgba_premultiplied(
        [side, side],
        pixmap.data(),
    ))
}

/// "white pawn", for labels a screen reader reads (the words speech says).
pub use crate::voice::words::piece_name;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_piece_draws_with_ink_at_every_size() {
        let options = usvg::Options::default();
        for (color, role, svg) in SVGS {
            let tree = usvg::Tree::from_str(svg, &options)
                .unwrap_or_else(|e| panic!("{color:?} {role:?}: {e}"));
            for size in [SIZES[0], SIZES[SIZES.len() - 1]] {
                let image = render(&tree, size).expect("rendered");
                assert_eq!(image.size, [size as usize, size as usize]);
                let opaque = image.pixels.iter().filter(|p| p.a() > 200).count();
                let share = opaque as f64 / image.pixels.len() as f64;
                assert!(
                    (0.1..0.8).contains(&share),
                    "{color:?} {role:?} at {size}: {share:.2} of the pixels drawn"
                );
            }
        }
    }

    #[test]
    fn pieces_have_names_for_screen_readers() {
        let piece = Piece {
            color: Color::Black,
            role: Role::Knight,
        };
        assert_eq!(piece_name(piece), "black knight");
    }
}
