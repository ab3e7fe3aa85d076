//! The review of the game: the engine's progress, each side's accuracy, the evaluation
//! graph (a click or drag goes to that move) and, at a marked move, the better one.

use eframe::egui;
use egui::{Color32, Pos2, RichText, Sense, Shape, Stroke, Vec2};
use shakmaty::Position;
use shakmaty::san::San;

use super::command::AppCommand;
use crate::review::judgement::winning_chances;
use crate::review::{GameReview, Judgement};
use crate::session::GameUnderReview;

/// The graph's height in points.
const GRAPH_HEIGHT: f32 = 90.0;

/// The colour a judgement is shown in.
pub fn colour(judgement: Judgement) -> Color32 {
    let [r, g, b] = crate::picture::mark_colour(judgement);
    Color32::from_rgb(r, g, b)
}

pub fn show(
    ui: &mut egui::Ui,
    review: &GameUnderReview,
    viewed_ply: Option<usize>,
    out: &mut Vec<AppCommand>,
) {
    ui.horizontal(|ui| {
        ui.strong("Review");
        if let Some(engine) = &review.engine {
            ui.small(engine);
        }
        if ui.small_button("Close").clicked() {
            out.push(AppCommand::CloseReview);
        }
    });
    let (done, total) = review.progress();
    if review.is_running() {
        ui.horizontal(|ui| {
            ui.spinner();
            ui.label(format!("Evaluating {done} of {total} positions"));
        });
    } else if let Some(fault) = &review.fault {
        ui.colored_label(ui.visuals().error_fg_color, fault);
    } else {
        let (white, black) = review.review().accuracy(&review.game);
        let percent = |a: Option<f64>| a.map_or_else(|| "–".to_owned(), |a| format!("{a:.0}%"));
        ui.label(format!(
            "Accuracy: White {} · Black {}",
            percent(white),
            percent(black)
        ));
    }
    let moves = review.game.moves.len();
    graph(ui, review, viewed_ply.unwrap_or(moves), GRAPH_HEIGHT, out);
    better_move(ui, review, viewed_ply.unwrap_or(moves));
}

/// White's winning chances over the game, −1…1, with the marked moves as dots, `height`
/// points high; a click or drag shows that move.
pub fn graph(
    ui: &mut egui::Ui,
    review: &GameUnderReview,
    shown: usize,
    height: f32,
    out: &mut Vec<AppCommand>,
) {
    let width = ui.available_width();
    let (rect, response) =
        ui.allocate_exact_size(Vec2::new(width, height), Sense::click_and_drag());
    // Dots grow with the graph, to be seen from across the table.
    let dot = (height / 25.0).max(3.5);
    let moves = review.game.moves.len();
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, "evaluation graph"));
    let x_of = |ply: usize| rect.left() + rect.width() * ply as f32 / moves.max(1) as f32;
    let y_of = |chances: f64| rect.center().y - rect.height() / 2.0 * chances as f32;
    let painter = ui.painter_at(rect);
    // Black's share dark.
    painter.rect_filled(rect, 2.0, Color32::from_gray(50));
    let scores = review.review().scores();
    let points: Vec<Pos2> = scores
        .iter()
        .enumerate()
        .filter_map(|(ply, score)| {
            let chances = winning_chances((*score)?.into());
            Some(Pos2::new(x_of(ply), y_of(chances)))
        })
        .collect();
    // White's share filled light, from the bottom up to the line: one mesh, so no seams
    // show between the moves.
    let mut white_share = egui::Mesh::default();
    let light = Color32::from_gray(225);
    for pair in points.windows(2) {
        let [a, b] = [pair[0], pair[1]];
        let first = u32::try_from(white_share.vertices.len()).unwrap_or(u32::MAX);
        for corner in [
            a,
            b,
            Pos2::new(b.x, rect.bottom()),
            Pos2::new(a.x, rect.bottom()),
        ] {
            white_share.colored_vertex(corner, light);
        }
        white_share.add_triangle(first, first + 1, first + 2);
        white_share.add_triangle(first, first + 2, first + 3);
    }
    painter.add(Shape::mesh(white_share));
    painter.hline(
        rect.x_range(),
        rect.center().y,
        Stroke::new(1.0, Color32::from_gray(128)),
    );
    painter.add(Shape::line(
        points.clone(),
        Stroke::new(1.5, Color32::from_rgb(0x3b, 0x82, 0xdf)),
    ));
    for (index, &mark) in review.marks().iter().enumerate() {
        let (Some(mark), Some(score)) = (mark, scores.get(index + 1).copied().flatten()) else {
            continue;
        };
        let at = Pos2::new(x_of(index + 1), y_of(winning_chances(score.into())));
        painter.circle_filled(at, dot, colour(mark));
    }
    painter.vline(
        x_of(shown.min(moves)),
        rect.y_range(),
        Stroke::new(1.0, Color32::from_rgb(0xf0, 0xa0, 0x30)),
    );
    if (response.clicked() || response.dragged())
        && let Some(pointer) = response.interact_pointer_pos()
    {
        let ply = ((pointer.x - rect.left()) / rect.width() * moves as f32).round();
        let ply = (ply.max(0.0) as usize).min(moves);
        out.push(AppCommand::ViewPly((ply < moves).then_some(ply)));
    }
}

/// At a marked move: what it was, and the engine's better move with its line.
fn better_move(ui: &mut egui::Ui, review: &GameUnderReview, ply: usize) {
    let reviewed: &GameReview = review.review();
    let Some(judgement) = ply
        .checked_sub(1)
        .and_then(|index| review.marks().get(index).copied().flatten())
    else {
        return;
    };
    let positions = review.game.positions();
    let (Some(before), Some(&played)) = (positions.get(ply - 1), review.game.moves.get(ply - 1))
    else {
        return;
    };
    let number = |p: &shakmaty::Chess| {
        if p.turn().is_white() {
            format!("{}.", p.fullmoves())
        } else {
            format!("{}...", p.fullmoves())
        }
    };
    let played = San::from_move(before, played);
    ui.label(
        RichText::new(format!(
            "{} {played}{} {}",
            number(before),
            judgement.symbol(),
            judgement.name()
        ))
        .color(colour(judgement)),
    );
    // The engine's whole line from there, its first move the better one.
    if let Some(line) = reviewed.best_line(ply - 1).filter(|line| !line.is_empty()) {
        ui.label(format!(
            "Better: {}",
            super::analysis_view::line_text(before, line)
        ));
    }
}
