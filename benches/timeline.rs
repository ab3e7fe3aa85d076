//! Opening a 6-hour recording in the timeline, and one seek anywhere in it.
//!
//! `cargo bench --bench timeline`. Two recordings: the corpus sessions played one after
//! the other, with their times shifted, until six hours are filled (a board that reports
//! changes); and the same six hours on a board whose every poll was logged, 13 a second,
//! changed or not. For each, the resident memory the opened timeline holds is printed
//! (Linux: from /proc/self/status).

use std::path::Path;

use boardsight::reading::{Reading, TimedReading};
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

const POLL_MS: u64 = 77;

/// `readings` as a logger of every poll records them: the occupancy every `POLL_MS`
/// (lift and place events are left out).
fn every_poll(readings: &[TimedReading]) -> Vec<TimedReading> {
    let end = readings.last().map_or(0, |r| r.t);
    let mut polls = Vec::new();
    let mut next = readings.iter().peekable();
    let mut sensed = None;
    for t in (0..=end).step_by(POLL_MS as usize) {
        while let Some(r) = next.next_if(|r| r.t <= t) {
            if let Reading::Occupancy(_) = r.reading {
                sensed = Some(r.reading);
            }
        }
        polls.extend(sensed.map(|reading| TimedReading::new(t, reading)));
    }
    polls
}

fn resident_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Opens `readings` to their end and prints what that added to resident memory.
fn print_memory_of_opening(name: &str, readings: &[TimedReading]) {
    let before = resident_kib();
    let mut timeline = Timeline::new(name.into(), readings.to_vec(), Config::default());
    timeline.seek(timeline.len());
    match (before, resident_kib()) {
        (Some(before), Some(after)) => println!(
            "{name}: {} readings, opened: {:+.1} MB resident (the readings alone {:.1} MB)",
            readings.len(),
            (after as f64 - before as f64) / 1024.0,
            std::mem::size_of_val(readings) as f64 / 1_048_576.0
        ),
        _ => println!("{name}: resident memory not measurable here"),
    }
}

fn timeline(c: &mut Criterion) {
    // Measured first, while the heap is fresh.
    let readings = six_hours();
    let polled = every_poll(&readings);
    print_memory_of_opening("6-hour polled recording", &polled);
    print_memory_of_opening("6-hour recording", &readings);
    bench_opening_and_seeking(c, "6-hour recording", &readings);
    bench_opening_and_seeking(c, "6-hour polled recording", &polled);
}

fn bench_opening_and_seeking(c: &mut Criterion, name: &str, readings: &[TimedReading]) {
    let mut group = c.benchmark_group(format!("timeline, {name}"));
    group.sample_size(10);
    // As the app opens it: the log file read and parsed, then replayed to its end.
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("recording.log");
    let mut text = Vec::new();
    sensorlog::write(&mut text, readings).expect("written to memory");
    std::fs::write(&path, &text).expect("temp file");
    group.bench_function("open the file (to its end)", |b| {
        b.iter(|| {
            let readings = sensorlog::read_file(&path).expect("the log just written");
            let mut timeline = Timeline::new("6h".into(), readings, Config::default());
            timeline.seek(timeline.len());
            timeline.index()
        })
    });
    let mut timeline = Timeline::new("6h".into(), readings.to_vec(), Config::default());
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
