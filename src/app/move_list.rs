//! The right panel: the moves of the game (a click shows that position), the promotion
//! picker and, when a move could not be seen for sure, its candidates.

use eframe::egui;
use egui::{Color32, Key, Vec2};
use shakmaty::{Move, Position, Role};

use super::command::AppCommand;
use super::pieces::PieceTextures;
use crate::connection::Command;
use crate::pgn::position_code;
use crate::session::GameView;
use crate::snapshot::Snapshot;

/// What the panel needs of the app.
pub struct MoveListState<'a> {
    pub view: &'a GameView,
    pub snapshot: &'a Snapshot,
    pub viewed_ply: Option<usize>,
    pub live: bool,
    pub textures: Option<&'a PieceTextures>,
    /// The review's judgement of each move (index: ply − 1), where there is one.
    pub marks: &'a [Option<crate::review::Judgement>],
    /// Whether the game shown is reviewed (or being reviewed).
    pub reviewed: bool,
}

pub fn show(ui: &mut egui::Ui, state: &MoveListState<'_>, out: &mut Vec<AppCommand>) {
    let view = state.view;
    // A screen reader reads the whole list as text from the heading.
    let heading = ui.heading("Moves");
    heading.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Label, true, moves_as_text(view)));
    let promotion = promotion_matters(state);
    // Room kept below the list for what follows it.
    let below = 70.0
        + if view.opening.is_some() { 20.0 } else { 0.0 }
        + if promotion { 70.0 } else { 0.0 }
        + if view.ambiguity.is_some() { 90.0 } else { 0.0 }
        + if state.viewed_ply.is_some() {
            30.0
        } else {
            0.0
        };
    egui::ScrollArea::vertical()
        .max_height((ui.available_height() - below).max(80.0))
        .auto_shrink([false, true])
        .stick_to_bottom(true)
        .show(ui, |ui| {
            egui::Grid::new("moves")
                .num_columns(3)
                .min_col_width(28.0)
                .striped(true)
                .show(ui, |ui| moves_grid(ui, state, out));
            if let Some(result) = view.end {
                ui.strong(result);
                // The game is over: its review is a click away.
                if !state.reviewed && ui.button("Review this game").clicked() {
                    out.push(AppCommand::ReviewGame);
                }
            }
        });
    if let Some(opening) = view.opening {
        ui.label(egui::RichText::new(opening.to_string()).italics())
            .on_hover_text("The opening reached, from lichess's chess-openings names");
    }
    if state.viewed_ply.is_some() && ui.button("Back to the live position").clicked() {
        out.push(AppCommand::ViewPly(None));
    }
    if promotion {
        ui.separator();
        promotion_picker(ui, state, out);
    }
    ambiguity_picker(ui, state, out);
    ui.separator();
    position_codes(ui, state, out);
}

/// The promotion choice matters right after a promotion (a click changes it) and while the
/// side to move has a pawn one step from promoting.
pub fn promotion_matters(state: &MoveListState<'_>) -> bool {
    let promoted = matches!(
        state.view.moves.last(),
        Some(Move::Normal {
            promotion: Some(_),
            ..
        })
    );
    let position = &state.snapshot.position;
    let turn = position.turn();
    let seventh = match turn {
        shakmaty::Color::White => shakmaty::Rank::Seventh,
        shakmaty::Color::Black => shakmaty::Rank::Second,
    };
    let about_to =
        (position.board().by_piece(turn.pawn()) & shakmaty::Bitboard::from_rank(seventh)).any();
    promoted || about_to
}

/// The shown position (an earlier one looked at, or the live one) as FEN and as a code.
pub fn shown_codes(view: &GameView, viewed_ply: Option<usize>) -> (String, String) {
    match view.at(viewed_ply) {
        (Some(position), _) if viewed_ply.is_some() => (
            crate::game::fen_of(position),
            position_code::encode(position),
        ),
        _ => (view.fen.clone(), view.code.clone()),
    }
}

/// The shown position's code, and buttons that copy it or its FEN.
fn position_codes(ui: &mut egui::Ui, state: &MoveListState<'_>, out: &mut Vec<AppCommand>) {
    let (fen, code) = shown_codes(state.view, state.viewed_ply);
    ui.horizontal_wrapped(|ui| {
        ui.label("Position code");
        ui.label(egui::RichText::new(&code).monospace().strong());
    });
    ui.horizontal(|ui| {
        if ui.button("Copy position").on_hover_text(&fen).clicked() {
            out.push(AppCommand::CopyShown { code: false });
        }
        if ui.button("Copy code").clicked() {
            out.push(AppCommand::CopyShown { code: true });
        }
    });
}

/// "Moves: 1. e4 e5 2. Nf3", with the result once the game has ended.
pub fn moves_as_text(view: &GameView) -> String {
    let Some(start) = view.positions.first() else {
        return "Moves: none".to_owned();
    };
    if view.sans.is_empty() {
        return "Moves: none yet".to_owned();
    }
    let first_mover = start.turn();
    let mut text = String::from("Moves:");
    for (index, san) in view.sans.iter().enumerate() {
        let ply = index + 1;
        let number = crate::session::words::move_number(ply, first_mover);
        // Black's moves after the first carry no number.
        if number.ends_with("...") && index > 0 {
            text.push_str(&format!(" {san}"));
        } else {
            text.push_str(&format!(" {number} {san}"));
        }
    }
    if let Some(end) = view.end {
        text.push_str(&format!(" ({end})"));
    }
    text
}

fn moves_grid(ui: &mut egui::Ui, state: &MoveListState<'_>, out: &mut Vec<AppCommand>) {
    let view = state.view;
    let Some(start) = view.positions.first() else {
        return;
    };
    let mut column = 0;
    if start.turn() == shakmaty::Color::Black && !view.sans.is_empty() {
        ui.label(format!("{}.", start.fullmoves()));
        ui.label("…");
        column = 2;
    }
    for (i, san) in view.sans.iter().enumerate() {
        if column == 0 {
            ui.label(format!("{}.", view.positions[i].fullmoves()));
        }
        let ply = i + 1;
        // The move shown: the one looked at, or the last one.
        let current = state.viewed_ply.unwrap_or(view.moves.len()) == ply;
        let response = match state.marks.get(i).copied().flatten() {
            Some(mark) => {
                let text = egui::RichText::new(format!("{san}{}", mark.symbol()));
                // The move shown keeps the selection's colours, to be read.
                let text = if current {
                    text
                } else {
                    text.color(super::review_view::colour(mark))
                };
                ui.selectable_label(current, text)
            }
            None => ui.selectable_label(current, san),
        };
        if response.clicked() {
            let live = ply == view.moves.len();
            out.push(AppCommand::ViewPly((!live).then_some(ply)));
        }
        if state.live {
            // A misread: show the position before the move, where the right one is dragged.
            response
                .on_hover_text("Right-click to correct this move")
                .context_menu(|ui| {
                    if ui.button("Correct to…").clicked() {
                        out.push(AppCommand::ViewPly(Some(i)));
                        ui.close();
                    }
                });
        }
        column = if column == 2 { 0 } else { 2 };
        if column == 0 {
            ui.end_row();
        }
    }
}

fn promotion_picker(ui: &mut egui::Ui, state: &MoveListState<'_>, out: &mut Vec<AppCommand>) {
    let snapshot = state.snapshot;
    let last_promotion = match state.view.moves.last() {
        Some(Move::Normal {
            promotion: Some(role),
            ..
        }) => Some(*role),
        _ => None,
    };
    let current = last_promotion.unwrap_or(snapshot.pending_promotion);
    let name = |role: Role| match role {
        Role::Queen => "queen",
        Role::Rook => "rook",
        Role::Bishop => "bishop",
        Role::Knight => "knight",
        _ => "?",
    };
    ui.label(match last_promotion {
        Some(_) => format!(
            "Promoted to {} (click or press Q R B N to change)",
            name(current)
        ),
        None => format!("Next promotion: {} (click or press Q R B N)", name(current)),
    });
    let color = match last_promotion {
        Some(_) => !snapshot.position.turn(),
        None => snapshot.position.turn(),
    };
    let mut chosen = None;
    // A recording shows what happened; only a live board takes choices.
    let keys_work = state.live && !ui.ctx().text_edit_focused();
    ui.horizontal_wrapped(|ui| {
        for (role, label, key) in [
            (Role::Queen, "Queen", Key::Q),
            (Role::Rook, "Rook", Key::R),
            (Role::Bishop, "Bishop", Key::B),
            (Role::Knight, "Knight", Key::N),
        ] {
            let piece = shakmaty::Piece { color, role };
            let button = match state.textures.and_then(|t| t.get(piece, 22.0)) {
                Some(texture) => egui::Button::new((
                    egui::Image::new(&texture).fit_to_exact_size(Vec2::splat(22.0)),
                    label,
                )),
                None => egui::Button::new(label),
            };
            if ui
                .add_enabled(state.live, button.selected(role == current))
                .clicked()
                || (keys_work && ui.input(|i| i.key_pressed(key)))
            {
                chosen = Some(role);
            }
        }
    });
    if let Some(role) = chosen
        && role != current
    {
        out.push(AppCommand::Board(Command::Promote(role)));
    }
}

fn ambiguity_picker(ui: &mut egui::Ui, state: &MoveListState<'_>, out: &mut Vec<AppCommand>) {
    let Some((ply, candidates)) = &state.view.ambiguity else {
        return;
    };
    ui.separator();
    ui.colored_label(
        Color32::from_rgb(230, 160, 40),
        format!("Move {ply} could not be seen for sure. Which was it?"),
    );
    for (mv, san) in candidates {
        if ui.add_enabled(state.live, egui::Button::new(san)).clicked() {
            out.push(AppCommand::Board(Command::Choose { ply: *ply, mv: *mv }));
        }
    }
}
