//! Opening a 6-hour recording in the timeline, and one seek anywhere in it.
//!
//! `cargo bench --bench timeline`. The recording is the corpus sessions played one after
//! the other, with their times shifted, until six hours are filled.

use std::path::Path;

use boardsight::reading::TimedReading;
use boardsight::recognizer::Config;
use boardsight::sensorlog;
use boardsight::session::Timeline;
use criterion::{Criterion, criterion_group, criterion_main};

const SIX_HOURS_MS: u64 = 6 * 60 * 60 * 1000;

fn six_hours() -> Vec<TimedReading> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/corpus")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "log"))
        .collect();
    paths.sort();
    let mut readings = Vec::new();
    let mut offset = 0;
    for path in paths.iter().cycle() {
        let session = sensorlog::read_file(path).expect("valid log");
        let length = session.last().map_or(0, |r| r.t) + 1000;
        readings.extend(
            session
                .into_iter()
                .map(|r| TimedReading::new(r.t + offset, r.reading)),
        );
        offset += length;
        if offset >= SIX_HOURS_MS {
            break;
        }
    }
    readings
}

fn timeline(c: &mut Criterion) {
    let readings = six_hours();
    println!("6-hour recording: {} readings", readings.len());
    let mut group = c.benchmark_group("timeline, 6-hour recording");
    group.sample_size(10);
    group.bench_function("open (to its end)", |b| {
        b.iter(|| {
            let mut timeline = Timeline::new("6h".into(), readings.clone(), Config::default());
            timeline.seek(timeline.len());
            timeline.index()
        })
    });
    let mut timeline = Timeline::new("6h".into(), readings.clone(), Config::default());
    timeline.seek(timeline.len());
    // Back and forth between moments far apart, so every seek goes back or jumps ahead.
    let targets = [readings.len() / 3, readings.len() * 2 / 3 + 17];
    let mut next = 0;
    group.sample_size(50);
    group.bench_function("one seek anywhere", |b| {
        b.iter(|| {
            next = (next + 1) % targets.len();
            timeline.seek(targets[next]);
            timeline.index()
        })
    });
    group.finish();
}

criterion_group!(benches, timeline);
criterion_main!(benches);
