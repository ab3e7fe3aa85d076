//! Playing the computer: which engine, its side and level, Play and Stop, and what the
//! engine says (its name, that it is thinking, or what went wrong).

use eframe::egui;
use egui::RichText;

use super::command::AppCommand;
use super::settings::{ReviewBy, Settings};
use crate::clock::TimeControl;
use crate::session::Session;

pub fn show(
    ui: &mut egui::Ui,
    session: &Session,
    settings: &mut Settings,
    out: &mut Vec<AppCommand>,
) {
    let playing = session.engine().is_some();
    ui.add_enabled_ui(!playing, |ui| {
        ui.horizontal(|ui| {
            let label = ui.label("Engine");
            ui.add(
                egui::TextEdit::singleline(&mut settings.engine_path)
                    .hint_text("stockfish, or a path")
                    .desired_width(130.0),
            )
            .labelled_by(label.id);
        });
        ui.horizontal(|ui| {
            ui.label("It plays");
            ui.radio_value(&mut settings.engine_plays_black, false, "White");
            ui.radio_value(&mut settings.engine_plays_black, true, "Black");
        });
        ui.add(egui::Slider::new(&mut settings.engine_level, 0..=20).text("level"));
    });
    ui.horizontal(|ui| {
        if playing {
            if ui.button("Stop the engine").clicked() {
                out.push(AppCommand::StopEngine);
            }
        } else if ui
            .add_enabled(session.is_live(), egui::Button::new("Play the engine"))
            .on_disabled_hover_text("Needs a board: the simulated one or a serial port")
            .clicked()
        {
            out.push(AppCommand::StartEngine);
        }
    });
    clock_settings(ui, session, settings, out);
    advice(ui, session, settings, out);
    if let Some(engine) = session.engine() {
        let mut words = engine.player_name();
        if engine.is_thinking() {
            words.push_str(" is thinking…");
        }
        ui.label(words);
        if !session.engine_note().is_empty() {
            ui.label(RichText::new(session.engine_note()).small().weak());
        }
    }
}

/// The clock: its time control, and whether live games are played on it.
fn clock_settings(
    ui: &mut egui::Ui,
    session: &Session,
    settings: &mut Settings,
    out: &mut Vec<AppCommand>,
) {
    let parsed = settings.time_control.parse::<TimeControl>();
    ui.horizontal(|ui| {
        let running = session.clocks().control().is_some();
        let mut on = running;
        let toggle = ui
            .add_enabled(
                parsed.is_ok() || running,
                egui::Checkbox::new(&mut on, "Clock"),
            )
            .on_hover_text("Each side's time runs on its turn; a move stops it.");
        if toggle.changed() {
            settings.clock_on = on;
            out.push(AppCommand::SetClock(if on {
                parsed.clone().ok()
            } else {
                None
            }));
        }
        ui.add_enabled_ui(!running, |ui| {
            ui.add(
                egui::TextEdit::singleline(&mut settings.time_control)
                    .hint_text("5+3")
                    .desired_width(60.0),
            )
            .on_hover_text("Minutes + seconds per move (5+3d for a delay)");
        });
    });
    if let Err(e) = parsed {
        ui.label(
            RichText::new(e.to_string())
                .small()
                .color(super::central_panel::WARNING),
        );
    }
}

/// Hints and the analysis, from the engine at full strength.
/// The depths a review may search to: below 6 it judges badly, above 30 it takes hours.
const MIN_REVIEW_DEPTH: u8 = 6;
const MAX_REVIEW_DEPTH: u8 = 30;

/// What each position of a review is searched to: a depth, a node count or a time.
fn review_limit(ui: &mut egui::Ui, settings: &mut Settings) {
    let value = match settings.review_by {
        ReviewBy::Depth => ui.add(
            egui::DragValue::new(&mut settings.review_depth)
                .range(MIN_REVIEW_DEPTH..=MAX_REVIEW_DEPTH)
                .prefix("depth "),
        ),
        ReviewBy::Nodes => ui.add(
            egui::DragValue::new(&mut settings.review_nodes)
                .range(10_000..=100_000_000)
                .speed(10_000.0)
                .suffix(" nodes"),
        ),
        ReviewBy::Time => ui.add(
            egui::DragValue::new(&mut settings.review_ms)
                .range(100..=60_000)
                .speed(50.0)
                .suffix(" ms"),
        ),
    };
    value.on_hover_text("How long the engine searches each position: longer is surer and slower");
    let chosen = match settings.review_by {
        ReviewBy::Depth => "depth",
        ReviewBy::Nodes => "nodes",
        ReviewBy::Time => "time",
    };
    let combo = egui::ComboBox::from_id_salt("review by")
        .width(56.0)
        .selected_text(chosen)
        .show_ui(ui, |ui| {
            ui.selectable_value(&mut settings.review_by, ReviewBy::Depth, "depth");
            ui.selectable_value(&mut settings.review_by, ReviewBy::Nodes, "nodes");
            ui.selectable_value(&mut settings.review_by, ReviewBy::Time, "time");
        });
    combo.response.widget_info(|| {
        egui::WidgetInfo::labeled(egui::Role::ComboBox, true, format!("Review by {chosen}"))
    });
}

fn advice(
    ui: &mut egui::Ui,
    session: &Session,
    settings: &mut Settings,
    out: &mut Vec<AppCommand>,
) {
    let playing = session.engine().is_some();
    ui.horizontal(|ui| {
        if ui
            .button("Hint")
            .on_hover_text("The best move for the side to move, as a green arrow")
            .clicked()
        {
            out.push(AppCommand::Hint);
        }
        let analysing = session.analysis_lines().is_some();
        let mut on = analysing;
        if ui
            .add_enabled(!playing, egui::Checkbox::new(&mut on, "Analyse"))
            .on_hover_text("The evaluation and best lines of the position on the board")
            .on_disabled_hover_text("Stop the engine to analyse")
            .changed()
        {
            out.push(AppCommand::Analyse(on.then_some(settings.analysis_lines)));
        }
        let lines = ui
            .add(egui::DragValue::new(&mut settings.analysis_lines).range(1..=3))
            .on_hover_text("Best lines shown, 1 to 3");
        if lines.changed() && analysing {
            out.push(AppCommand::Analyse(Some(settings.analysis_lines)));
        }
    });
    ui.horizontal(|ui| {
        if ui
            .button("Review")
            .on_hover_text(
                "Review the game: every position evaluated, a graph, mistakes marked, accuracies",
            )
            .clicked()
        {
            out.push(AppCommand::ReviewGame);
        }
        review_limit(ui, settings);
    });
    if let Some(note) = session.adviser_note() {
        ui.label(RichText::new(note).small().weak());
    }
    if let Some(analysis) = session.analysis() {
        super::analysis_view::lines(ui, analysis, &session.snapshot().position);
    }
}
