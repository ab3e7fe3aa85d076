//! The piece images of `assets/pieces`, built into the binary and loaded as textures.

use eframe::egui;
use egui::{ColorImage, TextureHandle, TextureOptions};
use shakmaty::{Color, Piece, Role};

const PNGS: [(Color, Role, &[u8]); 12] = [
    (
        Color::White,
        Role::Pawn,
        include_bytes!("../../assets/pieces/white-pawn.png"),
    ),
    (
        Color::White,
        Role::Knight,
        include_bytes!("../../assets/pieces/white-knight.png"),
    ),
    (
        Color::White,
        Role::Bishop,
        include_bytes!("../../assets/pieces/white-bishop.png"),
    ),
    (
        Color::White,
        Role::Rook,
        include_bytes!("../../assets/pieces/white-rook.png"),
    ),
    (
        Color::White,
        Role::Queen,
        include_bytes!("../../assets/pieces/white-queen.png"),
    ),
    (
        Color::White,
        Role::King,
        include_bytes!("../../assets/pieces/white-king.png"),
    ),
    (
        Color::Black,
        Role::Pawn,
        include_bytes!("../../assets/pieces/black-pawn.png"),
    ),
    (
        Color::Black,
        Role::Knight,
        include_bytes!("../../assets/pieces/black-knight.png"),
    ),
    (
        Color::Black,
        Role::Bishop,
        include_bytes!("../../assets/pieces/black-bishop.png"),
    ),
    (
        Color::Black,
        Role::Rook,
        include_bytes!("../../assets/pieces/black-rook.png"),
    ),
    (
        Color::Black,
        Role::Queen,
        include_bytes!("../../assets/pieces/black-queen.png"),
    ),
    (
        Color::Black,
        Role::King,
        include_bytes!("../../assets/pieces/black-king.png"),
    ),
];

pub struct PieceTextures {
    textures: Vec<(Piece, TextureHandle)>,
}

impl PieceTextures {
    pub fn load(ctx: &egui::Context) -> Self {
        let textures = PNGS
            .iter()
            .filter_map(|&(color, role, bytes)| {
                let image =
                    image::load_from_memory_with_format(bytes, image::ImageFormat::Png).ok()?;
                let rgba = image.to_rgba8();
                let size = [rgba.width() as usize, rgba.height() as usize];
                let color_image = ColorImage::from_rgba_unmultiplied(size, rgba.as_raw());
                let name = format!("{color:?}-{role:?}");
                // Mipmaps keep the pieces crisp where they are drawn smaller than their 128 pixels.
                let options =
                    TextureOptions::LINEAR.with_mipmap_mode(Some(egui::TextureFilter::Linear));
                let texture = ctx.load_texture(name, color_image, options);
                Some((Piece { color, role }, texture))
            })
            .collect();
        Self { textures }
    }

    pub fn get(&self, piece: Piece) -> Option<&TextureHandle> {
        self.textures
            .iter()
            .find(|(p, _)| *p == piece)
            .map(|(_, t)| t)
    }
}

/// "white pawn", for labels a screen reader reads.
pub fn piece_name(piece: Piece) -> String {
    let color = if piece.color == Color::White {
        "white"
    } else {
        "black"
    };
    let role = match piece.role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    };
    format!("{color} {role}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_piece_image_decodes() {
        for (color, role, bytes) in PNGS {
            let image = image::load_from_memory_with_format(bytes, image::ImageFormat::Png)
                .unwrap_or_else(|e| panic!("{color:?} {role:?}: {e}"));
            assert_eq!((image.width(), image.height()), (128, 128));
        }
    }
}
