//! The app rendered to real pixels (wgpu on Mesa's software Vulkan, lavapipe) in its main
//! states, compared with `tests/snapshots/`. With `UPDATE_SCREENSHOTS=1` the same renders
//! are also written to `screenshots/` for the README:
//!
//! ```sh
//! UPDATE_SCREENSHOTS=1 cargo test --test screenshots
//! ```
//!
//! Rendering needs a wgpu adapter (`apt-get install mesa-vulkan-drivers libvulkan1` gives
//! a software one). Without one these tests say so and pass, unless
//! `BOARDSIGHT_REQUIRE_GPU` is set, as `.ci/run` does: then a missing adapter fails.

mod common;
// The lichess stand-in, for the picture of an online game.
#[allow(dead_code)]
#[path = "common/lichess.rs"]
mod lichess;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use boardsight::app::{AppCommand, BoardsightApp};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The start of a log, while `keep` says so, as a new log file in `dir`.
fn cut_log(source: &str, keep: impl Fn(&str) -> bool, dir: &Path, name: &str) -> PathBuf {
    let text = std::fs::read_to_string(manifest().join(source)).expect("log");
    let kept: Vec<&str> = text.lines().take_while(|l| keep(l)).collect();
    let path = dir.join(name);
    std::fs::write(&path, kept.join("\n") + "\n").expect("write");
    path
}

fn time_of(line: &str) -> u64 {
    line.split_whitespace()
        .next()
        .and_then(|t| t.parse().ok())
        .unwrap_or(0)
}

/// Whether this machine can render at all (probed once, on a tiny UI).
fn can_render() -> bool {
    static AVAILABLE: OnceLock<bool> = OnceLock::new();
    let available = *AVAILABLE.get_or_init(|| {
        std::panic::catch_unwind(|| {
            let mut probe = Harness::new_ui(|ui| {
                ui.label("probe");
            });
            probe.render().is_ok()
        })
        .unwrap_or(false)
    });
    if !available {
        assert!(
            std::env::var_os("BOARDSIGHT_REQUIRE_GPU").is_none(),
            "no wgpu adapter: install mesa-vulkan-drivers and libvulkan1"
        );
        eprintln!(
            "skipped: no wgpu adapter to render with (install mesa-vulkan-drivers libvulkan1)"
        );
    }
    available
}

/// Renders the app on the start of a recorded session, up to `until_ms`.
fn render_until(
    name: &str,
    source: &str,
    until_ms: u64,
    act: impl FnOnce(&mut Harness<'static, BoardsightApp>),
) {
    let dir = tempfile::tempdir().expect("temp dir");
    let log = cut_log(
        source,
        |l| l.starts_with('#') || time_of(l) <= until_ms,
        dir.path(),
        &format!("{name}.log"),
    );
    render(name, Some(log), act);
}

/// A picture matches its snapshot with up to a few stray pixels: the software renderer has
/// been seen to differ by one anti-aliased pixel from run to run, while a real change to
/// what is drawn differs by hundreds.
fn snapshot_options() -> egui_kittest::SnapshotOptions {
    egui_kittest::SnapshotOptions::default().max_failed_pixels(8)
}

/// With `UPDATE_SCREENSHOTS` set, writes what the app shows to `screenshots/NAME.png`, for
/// the README.
fn save_screenshot(harness: &mut Harness<'static, BoardsightApp>, name: &str) {
    if std::env::var_os("UPDATE_SCREENSHOTS").is_some() {
        let image = harness.render().expect("rendered");
        image
            .save(manifest().join("screenshots").join(format!("{name}.png")))
            .expect("saved");
    }
}

/// Renders the app on `log` (the simulated board without one), after `act` has done what
/// a user would.
fn render(
    name: &str,
    log: Option<PathBuf>,
    act: impl FnOnce(&mut Harness<'static, BoardsightApp>),
) {
    if !can_render() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = common::app::app(log.as_deref(), None);
    harness.run_steps(4);
    act(&mut harness);
    harness.run_steps(2);
    save_screenshot(&mut harness, name);
    harness.snapshot_options(name, &snapshot_options());
    drop(dir);
}

#[test]
fn a_game_in_play() {
    render_until(
        "game-in-play",
        "tests/corpus/t1-change-000.log",
        120_000,
        |_| {},
    );
}

#[test]
fn the_illegal_state_banner() {
    // (Told once the board has read wrong for a while: the read at 2700.)
    render_until("illegal-banner", "tests/logs/illegal.log", 2700, |_| {});
}

#[test]
fn the_promotion_picker() {
    // Black underpromotes to a rook (g1=R), chosen by a click after the move.
    render_until(
        "promotion-picker",
        "tests/corpus/t1-change-003.log",
        541_000,
        |_| {},
    );
}

#[test]
fn the_debugging_timeline() {
    render_until(
        "debugging-timeline",
        "tests/corpus/t2-change-000.log",
        70_000,
        |harness| {
            for _ in 0..3 {
                harness.get_by_label("Step back").click();
                harness.run_steps(2);
            }
        },
    );
}

#[test]
fn a_dead_sensor_worked_around() {
    // The sensor under c3 always reads occupied; the knight's moves through it are inferred.
    let dir = tempfile::tempdir().expect("temp dir");
    let log = cut_log(
        "tests/logs/dead-stuck-occupied.log",
        |_| true,
        dir.path(),
        "dead-sensor.log",
    );
    render("dead-sensor", Some(log), |_| {});
}

#[test]
fn the_table_view() {
    render_until(
        "table-view",
        "tests/corpus/t1-change-000.log",
        120_000,
        |harness| {
            harness
                .state_mut()
                .push_command(AppCommand::TableView(true));
            harness.run_steps(2);
        },
    );
}

#[test]
fn sensor_health_on_a_bouncing_board() {
    let log = manifest().join("tests/field/bounce-change-000.log");
    render("sensor-health", Some(log), |harness| {
        harness.get_by_label("Sensor health").click();
        harness.run_steps(2);
    });
}

#[test]
fn a_correction_dragged_on_the_board() {
    // On the simulated board after 1. e4: Black's e-pawn dragged, its targets marked.
    render("drag-correction", None, |harness| {
        common::app::play_e4(harness);
        // Flashes fade and the reading rate falls to nothing: the picture is the same each run.
        std::thread::sleep(std::time::Duration::from_millis(1200));
        harness.run_steps(2);
        let from = harness.get_by_label("d7: black pawn").rect().center();
        let to = harness.get_by_label("d5: empty").rect().center();
        common::app::drag(harness, from, to, false);
    });
}

#[test]
fn the_board_lights_on_the_sensor_grid() {
    // The simulated Centaur is told to light the move the engine awaits (here set by hand,
    // not by an engine, so that the picture is the same every time); its LEDs ring the
    // grid's squares.
    render("board-lights", None, |harness| {
        common::app::play_e4(harness);
        let position = harness.state().session().snapshot().position.clone();
        let reply = "c7c5"
            .parse::<shakmaty::uci::UciMove>()
            .expect("UCI")
            .to_move(&position)
            .expect("legal");
        harness
            .state_mut()
            .push_command(boardsight::app::AppCommand::Board(
                boardsight::connection::Command::Expect(Some(reply)),
            ));
        common::app::wait_for(
            harness,
            "sensor c7: occupied, the engine's move, its light is on",
        );
        common::app::wait_for(
            harness,
            "sensor c5: empty, the engine's move, its light is on",
        );
        // The squares' flashes of the set-up and the move fade first, and the reading rate
        // (over the last second) falls to nought: the same picture every time.
        let second = std::time::Duration::from_secs(1);
        std::thread::sleep(
            boardsight::session::FLASH.max(second) + std::time::Duration::from_millis(300),
        );
        harness.run_steps(3);
    });
}

#[test]
fn an_online_game_against_a_stand_in_lichess() {
    // The server's clocks run in real time: this writes the README's picture only.
    if !can_render() {
        return;
    }
    let server = lichess::StandIn::start(
        &["lip_screenshot"],
        lichess::Script {
            opponent_moves: vec!["c7c5".into()],
            reply_after: std::time::Duration::from_millis(300),
            ..lichess::Script::default()
        },
    );
    let mut harness = common::app::app(None, None);
    common::app::wait_for(&mut harness, "new game");
    common::app::play_online(&mut harness, &server.url, "lip_screenshot");
    common::app::click(&mut harness, "Online section, click to open");
    common::app::wait_for(&mut harness, "Resign");
    common::app::play_e4(&mut harness);
    common::app::wait_for(&mut harness, "Move the pawn c7 to c5 for the opponent");
    std::thread::sleep(boardsight::session::FLASH);
    harness.run_steps(3);
    save_screenshot(&mut harness, "online-game");
}

#[test]
fn a_game_against_the_engine() {
    // Stockfish's choice at a Skill Level varies from run to run: this writes the README's
    // picture but compares no snapshot (the app's engine tests check the behaviour).
    if !can_render() || boardsight::engine::find_stockfish().is_none() {
        return;
    }
    let mut harness = common::app::app(None, None);
    common::app::wait_for(&mut harness, "new game");
    // On the clock (5+3): both clocks show over the board, Black's running.
    common::app::click(&mut harness, "Clock");
    common::app::click(&mut harness, "Play the engine");
    common::app::play_e4(&mut harness);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while harness.state().session().snapshot().expected_move.is_none() {
        assert!(
            std::time::Instant::now() < deadline,
            "the engine never moved"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
        harness.step();
    }
    std::thread::sleep(std::time::Duration::from_millis(1200));
    harness.run_steps(3);
    harness.get_by_label_contains("for the engine");
    save_screenshot(&mut harness, "engine-move");
}

#[test]
fn the_analysis_with_its_bar_and_lines() {
    // The engine's lines vary with its search: this writes the README's picture only.
    if !can_render() || boardsight::engine::find_stockfish().is_none() {
        return;
    }
    let mut harness = common::app::app(None, None);
    common::app::play_e4(&mut harness);
    common::app::click(&mut harness, "Analyse");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !harness
        .state()
        .session()
        .analysis()
        .is_some_and(|a| a.lines.len() == 2 && a.lines.iter().all(|l| l.depth >= 14))
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the analysis never deepened"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
        harness.step();
    }
    harness.run_steps(3);
    harness.get_by_label_contains("evaluation ");
    save_screenshot(&mut harness, "analysis");
}

/// The main window on the simulated board at its start, at `size`, in one theme; the
/// first-run welcome over it if `welcome`.
fn render_window(name: &str, size: (f32, f32), dark: bool, welcome: bool) {
    if !can_render() {
        return;
    }
    let mut harness = common::app::first_run(None, None, eframe::egui::vec2(size.0, size.1));
    common::app::wait_for(&mut harness, "new game");
    if !welcome {
        harness
            .state_mut()
            .push_command(AppCommand::ShowWelcome(false));
    }
    if !dark {
        harness.state_mut().push_command(AppCommand::ToggleTheme);
    }
    // The reading rate falls to nothing: the picture is the same each run.
    std::thread::sleep(std::time::Duration::from_millis(1200));
    harness.run_steps(4);
    save_screenshot(&mut harness, name);
    harness.snapshot_options(name, &snapshot_options());
}

#[test]
fn the_main_window_at_1024x640_dark() {
    render_window("main-window-1024x640-dark", (1024.0, 640.0), true, false);
}

#[test]
fn the_main_window_at_1024x640_light() {
    render_window("main-window-1024x640-light", (1024.0, 640.0), false, false);
}

#[test]
fn the_main_window_at_1280x800_dark() {
    render_window("main-window-1280x800-dark", (1280.0, 800.0), true, false);
}

#[test]
fn the_main_window_at_1280x800_light() {
    render_window("main-window-1280x800-light", (1280.0, 800.0), false, false);
}

#[test]
fn the_main_window_at_1920x1080_dark() {
    render_window("main-window-1920x1080-dark", (1920.0, 1080.0), true, false);
}

#[test]
fn the_main_window_at_1920x1080_light() {
    render_window(
        "main-window-1920x1080-light",
        (1920.0, 1080.0),
        false,
        false,
    );
}

#[test]
fn the_first_run_welcome() {
    render_window("welcome", (1280.0, 800.0), true, true);
}

/// A recorded game reviewed by Stockfish, in both themes: accuracies, the evaluation graph
/// and the marked moves. Written to `screenshots/` for the README only: the engine's
/// multi-threaded search varies from run to run, so there is no snapshot to match.
#[test]
fn a_reviewed_game_in_both_themes() {
    if !can_render() || common::stockfish_or_skip().is_none() {
        return;
    }
    for dark in [true, false] {
        let log = manifest().join("tests/corpus/t1-change-000.log");
        let mut harness = common::app::app(Some(&log), None);
        harness.run_steps(4);
        // To the recording's end: the whole game.
        harness
            .state_mut()
            .push_command(AppCommand::Seek(usize::MAX));
        harness.run_steps(2);
        if !dark {
            harness.state_mut().push_command(AppCommand::ToggleTheme);
        }
        harness.state_mut().push_command(AppCommand::ReviewGame);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
        while harness
            .state()
            .session()
            .review()
            .is_none_or(|review| review.is_running())
        {
            assert!(
                std::time::Instant::now() < deadline,
                "the review never ended"
            );
            harness.step();
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        harness.run_steps(3);
        assert!(harness.query_by_label_contains("Accuracy: White").is_some());
        harness.get_by_label("evaluation graph");
        let theme = if dark { "dark" } else { "light" };
        save_screenshot(&mut harness, &format!("review-{theme}"));
    }
}
