//! The app's frame time at 1280×800: building the UI, its layout and tessellation, which is
//! what every repaint costs on the CPU before the GPU draws. Once in a game in play, and
//! once while a 10,000-game PGN file is being read on the job thread, and once while the
//! engine reviews the game (with Stockfish installed); and at 1920×1080 on
//! a recording with its time strip and lanes, with sensor health, and in the table view.

use std::path::{Path, PathBuf};

use boardsight::app::{AppCommand, BoardsightApp, StartOptions};
use criterion::{Criterion, criterion_group, criterion_main};
use eframe::egui;
use egui_kittest::Harness;

fn harness() -> Harness<'static, BoardsightApp> {
    harness_of_size(egui::vec2(1280.0, 800.0))
}

/// The app on a recording (its time strip and square lanes shown).
fn harness_of_size(size: egui::Vec2) -> Harness<'static, BoardsightApp> {
    let log = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/t1-change-000.log");
    let options = StartOptions {
        open_log: Some(log),
        autosave: None,
        file_dialogs: false,
        scout: None,
    };
    let mut harness = Harness::builder()
        .with_size(size)
        .build_eframe(move |cc| BoardsightApp::new(cc, options));
    // As a user who has started it before sees it: no welcome over the board.
    harness
        .state_mut()
        .push_command(AppCommand::ShowWelcome(false));
    settle(&mut harness);
    harness.run_steps(4);
    harness
}

fn settle(harness: &mut Harness<'static, BoardsightApp>) {
    harness.step();
    while harness.state().is_busy() {
        std::thread::sleep(std::time::Duration::from_millis(5));
        harness.step();
    }
}

/// The TWIC sample of `tests/data` repeated to 10,000 games.
fn write_ten_thousand_games(path: &Path) {
    let sample_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/twic1599_100k.pgn");
    let sample = std::fs::read_to_string(sample_path).expect("tests/data/twic1599_100k.pgn");
    let per_copy = sample.matches("[Event ").count();
    let copies = 10_000usize.div_ceil(per_copy);
    std::fs::write(path, sample.repeat(copies)).expect("write the PGN");
}

fn frame(c: &mut Criterion) {
    let mut harness = harness();
    let mut group = c.benchmark_group("frame at 1280x800");
    group.sample_size(20);
    group.bench_function("ui and tessellation", |b| b.iter(|| harness.step()));

    let dir = tempfile::tempdir().expect("temp dir");
    let pgn = dir.path().join("ten-thousand.pgn");
    write_ten_thousand_games(&pgn);
    let mut loads = 0;
    group.bench_function("while a 10,000-game PGN loads", |b| {
        b.iter(|| {
            // Loading again as soon as it is done: every frame measured has a load under way.
            if !harness.state().is_busy() {
                harness
                    .state_mut()
                    .push_command(AppCommand::LoadPgn(pgn.clone()));
                loads += 1;
            }
            harness.step();
        })
    });
    println!("(the file was loaded {loads} times while frames were measured)");
    // A review under way: the engine searching on the machine's cores, the graph and the
    // marks filling in; started again whenever it ends.
    if boardsight::engine::find_stockfish().is_some() {
        let mut reviews = 0;
        group.bench_function("while a review runs", |b| {
            b.iter(|| {
                let running = harness
                    .state()
                    .session()
                    .review()
                    .is_some_and(|review| review.is_running());
                if !running {
                    harness.state_mut().push_command(AppCommand::ReviewGame);
                    reviews += 1;
                }
                harness.step();
            })
        });
        println!("(the game was reviewed {reviews} times while frames were measured)");
    }
    group.finish();

    let mut group = c.benchmark_group("frame at 1920x1080");
    group.sample_size(20);
    let mut large = harness_of_size(egui::vec2(1920.0, 1080.0));
    group.bench_function("recording with time strip and lanes", |b| {
        b.iter(|| large.step())
    });
    large.state_mut().push_command(AppCommand::ShowHealth(true));
    large.step();
    group.bench_function("with sensor health", |b| b.iter(|| large.step()));
    large.state_mut().push_command(AppCommand::TableView(true));
    large.step();
    group.bench_function("table view", |b| b.iter(|| large.step()));
    group.finish();

    // Drawn to pixels as well, where a wgpu adapter is (Mesa's lavapipe renders on the CPU);
    // this includes reading the image back, which a window does not do.
    let mut drawn = harness_of_size(egui::vec2(1920.0, 1080.0));
    if drawn.render().is_ok() {
        let mut group = c.benchmark_group("frame at 1920x1080 rendered");
        group.sample_size(10);
        group.bench_function("recording with lanes, software rendering", |b| {
            b.iter(|| drawn.render().map(|image| image.width()))
        });
        group.finish();
    } else {
        println!("(no wgpu adapter: the rendered frame is not measured)");
    }
}

criterion_group!(benches, frame);
criterion_main!(benches);
