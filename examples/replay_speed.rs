//! The recognizer's time per read over any sensor logs, read by read as a board delivers
//! them: the mean per kind of session (the name's first two words, `unseen-change`), how
//! many reads took over 0.1 ms and over 1 ms, the ten slowest of those (each session replayed
//! three times, each read's fastest run kept, so a preempted run does not count).
//!
//! `cargo run --release --example replay_speed -- DIR/*.log`; the held-out sessions of
//! `tests/hands_accuracy.rs` are written as logs with `BOARDSIGHT_WRITE_SESSIONS=DIR`.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use boardsight::reading::board_reads;
use boardsight::recognizer::Recognizer;
use boardsight::sensorlog;

const RUNS: usize = 3;
/// How many of the reads over 1 ms are listed, slowest first.
const SLOWEST_LISTED: usize = 10;

#[derive(Default)]
struct Tally {
    total: Duration,
    reads: usize,
}

fn main() {
    let mut by_kind: BTreeMap<String, Tally> = BTreeMap::new();
    let mut all = Tally::default();
    let (mut over_a_tenth, mut over_one) = (0, 0);
    let mut slow: Vec<(Duration, String, usize)> = Vec::new();
    for path in std::env::args().skip(1) {
        let session = match sensorlog::read_file(Path::new(&path)) {
            Ok(session) => session,
            Err(e) => {
                eprintln!("{path}: {e}");
                continue;
            }
        };
        let mut fastest = vec![Duration::MAX; session.len()];
        for _ in 0..RUNS {
            let mut recognizer = Recognizer::default();
            let mut index = 0;
            for read in board_reads(&session) {
                let started = Instant::now();
                std::hint::black_box(recognizer.feed_batch(read));
                fastest[index] = fastest[index].min(started.elapsed());
                index += read.len();
            }
        }
        let name = Path::new(&path)
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        let kind = name.split('-').take(2).collect::<Vec<_>>().join("-");
        let tally = by_kind.entry(kind).or_default();
        // Only the first reading of each read was timed.
        for (index, &t) in fastest
            .iter()
            .enumerate()
            .filter(|(_, t)| **t != Duration::MAX)
        {
            tally.total += t;
            tally.reads += 1;
            all.total += t;
            all.reads += 1;
            over_a_tenth += usize::from(t > Duration::from_micros(100));
            over_one += usize::from(t > Duration::from_millis(1));
            if t > Duration::from_millis(1) {
                slow.push((t, path.clone(), index));
            }
        }
    }
    let micros = |t: &Tally| t.total.as_secs_f64() * 1e6 / t.reads.max(1) as f64;
    for (kind, tally) in &by_kind {
        println!(
            "{kind:<16} {:>6.2} µs per read ({} reads)",
            micros(tally),
            tally.reads
        );
    }
    println!(
        "all {:.2} µs per read over {} reads; {over_a_tenth} over 0.1 ms, {over_one} over 1 ms",
        micros(&all),
        all.reads,
    );
    slow.sort_by_key(|read| std::cmp::Reverse(read.0));
    for (t, path, index) in slow.iter().take(SLOWEST_LISTED) {
        println!(
            "{:>8.3} ms  {path}, reading {index}",
            t.as_secs_f64() * 1000.0
        );
    }
}
