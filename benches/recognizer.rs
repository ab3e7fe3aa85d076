//! The recognizer's cost per reading, over every session of the corpus.
//!
//! `cargo bench --bench recognizer` prints the time for the whole corpus and, through
//! the throughput, the time per reading.

use std::path::Path;

use boardsight::reading::TimedReading;
use boardsight::recognizer::Recognizer;
use boardsight::sensorlog;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn corpus() -> Vec<Vec<TimedReading>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/corpus")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "log"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| sensorlog::read_file(p).expect("valid log"))
        .collect()
}

fn recognise_corpus(c: &mut Criterion) {
    let sessions = corpus();
    let readings: usize = sessions.iter().map(Vec::len).sum();
    let mut group = c.benchmark_group("recognizer");
    group.throughput(Throughput::Elements(readings as u64));
    group.sample_size(20);
    group.bench_function("corpus per reading", |b| {
        b.iter(|| {
            let mut moves = 0;
            for session in &sessions {
                let mut recognizer = Recognizer::default();
                for &reading in session {
                    moves += recognizer.feed(reading).len();
                }
            }
            moves
        })
    });
    group.finish();
}

criterion_group!(benches, recognise_corpus);
criterion_main!(benches);
