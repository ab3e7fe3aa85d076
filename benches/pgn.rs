//! Reading a 10,000-game PGN file: listing it (tags only) and reading every game.
//!
//! The file is the TWIC sample of `tests/data` repeated to 10,000 games.

use std::path::Path;

use boardsight::pgn::{read_games, read_summaries};
use criterion::{Criterion, criterion_group, criterion_main};

fn ten_thousand_games() -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/twic1599_100k.pgn");
    let sample = std::fs::read_to_string(path).expect("tests/data/twic1599_100k.pgn");
    let per_copy = sample.matches("[Event ").count();
    let mut text = String::new();
    let mut games = 0;
    while games < 10_000 {
        text.push_str(&sample);
        text.push('\n');
        games += per_copy;
    }
    text.into_bytes()
}

fn pgn(c: &mut Criterion) {
    let bytes = ten_thousand_games();
    let mut group = c.benchmark_group("pgn 10,000 games");
    group.sample_size(10);
    group.bench_function("list (tags only)", |b| {
        b.iter(|| read_summaries(&bytes).len())
    });
    group.bench_function("read every game", |b| b.iter(|| read_games(&bytes).len()));
    group.finish();
}

criterion_group!(benches, pgn);
criterion_main!(benches);
