//! The engine's analysis: an evaluation bar beside the board and the best lines in SAN.

use eframe::egui;
use egui::{Color32, RichText, Sense, Stroke, StrokeKind, Vec2};
use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Move, Position};

use crate::engine::{Analysis, Score};

/// The bar's width beside the board.
pub const BAR_WIDTH: f32 = 18.0;
/// The room of the bar and its score above it.
pub const COLUMN_WIDTH: f32 = 40.0;
/// Moves of each line shown.
const LINE_MOVES: usize = 8;

/// White's share of the bar: half at equality, nearly all at a won position.
pub fn white_share(score: Score) -> f32 {
    match score {
        Score::Centipawns(cp) => 1.0 / (1.0 + (-(cp as f32) / 400.0).exp()),
        Score::Mate {
            winner: Color::White,
            ..
        } => 1.0,
        Score::Mate { .. } => 0.0,
    }
}

/// The evaluation as a bar `height` high, White's share from White's side of the board.
pub fn eval_bar(ui: &mut egui::Ui, score: Score, height: f32, flipped: bool) {
    let (rect, response) = ui.allocate_exact_size(Vec2::new(BAR_WIDTH, height), Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, Color32::from_gray(40));
    let white = rect.height() * white_share(score);
    let white_rect = if flipped {
        egui::Rect::from_min_size(rect.min, Vec2::new(rect.width(), white))
    } else {
        egui::Rect::from_min_max(egui::pos2(rect.min.x, rect.max.y - white), rect.max)
    };
    painter.rect_filled(white_rect, 2.0, Color32::from_gray(235));
    painter.rect_stroke(
        rect,
        2.0,
        Stroke::new(1.0, Color32::GRAY),
        StrokeKind::Outside,
    );
    let text = score.to_string();
    response.widget_info(|| {
        egui::WidgetInfo::labeled(egui::Role::Meter, true, format!("evaluation {text}"))
    });
    response.on_hover_text(format!("Evaluation {text} (White's view)"));
}

/// The best lines, each with its score: "+0.35  1. e4 e5 2. Nf3 …".
pub fn lines(ui: &mut egui::Ui, analysis: &Analysis, position: &Chess) {
    for line in &analysis.lines {
        let depth = line.depth;
        ui.label(
            RichText::new(format!(
                "{:>6}  {}",
                line.score.to_string(),
                line_text(position, &line.pv)
            ))
            .monospace(),
        )
        .on_hover_text(format!("depth {depth}"));
    }
}

/// A line in SAN with move numbers, as far as `LINE_MOVES` moves.
pub fn line_text(position: &Chess, pv: &[Move]) -> String {
    let mut position = position.clone();
    let mut words = Vec::new();
    for (i, &mv) in pv.iter().take(LINE_MOVES).enumerate() {
        let number = position.fullmoves().get();
        match position.turn() {
            Color::White => words.push(format!("{number}.")),
            Color::Black if i == 0 => words.push(format!("{number}...")),
            Color::Black => {}
        }
        words.push(SanPlus::from_move_and_play_unchecked(&mut position, mv).to_string());
    }
    if pv.len() > LINE_MOVES {
        words.push("…".into());
    }
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_is_even_at_equality_and_full_for_a_mate() {
        assert!((white_share(Score::Centipawns(0)) - 0.5).abs() < 1e-6);
        assert!(white_share(Score::Centipawns(300)) > 0.6);
        assert!(white_share(Score::Centipawns(-300)) < 0.4);
        let mate = |winner| Score::Mate { winner, moves: 2 };
        assert_eq!(white_share(mate(Color::White)), 1.0);
        assert_eq!(white_share(mate(Color::Black)), 0.0);
    }

    #[test]
    fn lines_read_in_san_with_move_numbers_from_either_side() {
        let moves = crate::game::GameRecord::from_uci(Chess::default(), ["e2e4", "e7e5", "g1f3"])
            .expect("legal moves")
            .moves;
        assert_eq!(line_text(&Chess::default(), &moves), "1. e4 e5 2. Nf3");
        let after_e4 = Chess::default().play(moves[0]).expect("legal");
        assert_eq!(line_text(&after_e4, &moves[1..]), "1... e5 2. Nf3");
    }
}
