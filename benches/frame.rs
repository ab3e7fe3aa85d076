//! The app's frame time at 1280×800 in a game in play: building the UI, its layout and
//! tessellation, which is what every repaint costs on the CPU before the GPU draws.

use std::path::PathBuf;

use boardsight::app::{BoardsightApp, StartOptions};
use criterion::{Criterion, criterion_group, criterion_main};
use eframe::egui;
use egui_kittest::Harness;

fn harness() -> Harness<'static, BoardsightApp> {
    let log = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus/t1-change-000.log");
    let options = StartOptions {
        open_log: Some(log),
        autosave: None,
    };
    let mut harness = Harness::builder()
        .with_size(egui::vec2(1280.0, 800.0))
        .build_eframe(move |cc| BoardsightApp::new(cc, options));
    // The recording opens on the job thread.
    while harness.state().is_busy() {
        std::thread::sleep(std::time::Duration::from_millis(5));
        harness.step();
    }
    harness.run_steps(4);
    harness
}

fn frame(c: &mut Criterion) {
    let mut harness = harness();
    let mut group = c.benchmark_group("frame at 1280x800");
    group.sample_size(20);
    group.bench_function("ui and tessellation", |b| b.iter(|| harness.step()));
    group.finish();
}

criterion_group!(benches, frame);
criterion_main!(benches);
