//! The recognizer's cost per reading, over every session of the corpus and of the two field
//! sets, fed read by read as a board delivers them, and its slowest single read.
//!
//! `cargo bench --bench recognizer` prints the time for each set and, through the
//! throughput, the time per reading; then the slowest read of all sessions (each timed
//! three times, its fastest run kept, so a preempted run does not count).

use std::path::Path;
use std::time::{Duration, Instant};

use boardsight::reading::{TimedReading, board_reads};
use boardsight::recognizer::Recognizer;
use boardsight::sensorlog;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn sessions(folder: &str) -> Vec<(String, Vec<TimedReading>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("the session folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "log"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| {
            let name = p
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into());
            (name, sensorlog::read_file(p).expect("valid log"))
        })
        .collect()
}

fn replay_all(sessions: &[(String, Vec<TimedReading>)]) -> usize {
    let mut events = 0;
    for (_, session) in sessions {
        let mut recognizer = Recognizer::default();
        for read in board_reads(session) {
            events += recognizer.feed_batch(read).len();
        }
    }
    events
}

/// The slowest read of the board (the readings that share a time, decided together):
/// (time, session, index of its first reading).
fn slowest_reading(sessions: &[(String, Vec<TimedReading>)]) -> (Duration, String, usize) {
    let mut slowest = (Duration::ZERO, String::new(), 0);
    for (name, session) in sessions {
        let mut fastest = vec![Duration::MAX; session.len()];
        for _ in 0..3 {
            let mut recognizer = Recognizer::default();
            let mut i = 0;
            for read in board_reads(session) {
                let started = Instant::now();
                std::hint::black_box(recognizer.feed_batch(read));
                fastest[i] = fastest[i].min(started.elapsed());
                i += read.len();
            }
        }
        // Only the first reading of each read was timed.
        for (i, &t) in fastest
            .iter()
            .enumerate()
            .filter(|(_, t)| **t != Duration::MAX)
        {
            if t > slowest.0 {
                slowest = (t, name.clone(), i);
            }
        }
    }
    slowest
}

fn recognise(c: &mut Criterion) {
    let corpus = sessions("tests/corpus");
    let field = sessions("tests/field");
    let field2 = sessions("tests/field2");
    let mut group = c.benchmark_group("recognizer");
    group.sample_size(20);
    for (label, set) in [
        ("corpus per reading", &corpus),
        ("field per reading", &field),
        ("field2 per reading", &field2),
    ] {
        let readings: usize = set.iter().map(|(_, s)| s.len()).sum();
        group.throughput(Throughput::Elements(readings as u64));
        group.bench_function(label, |b| b.iter(|| replay_all(set)));
    }
    group.finish();
    let all: Vec<_> = corpus.into_iter().chain(field).chain(field2).collect();
    let (time, name, index) = slowest_reading(&all);
    println!(
        "slowest reading: {:.3} ms ({name}, reading {index})",
        time.as_secs_f64() * 1000.0
    );
}

criterion_group!(benches, recognise);
criterion_main!(benches);
