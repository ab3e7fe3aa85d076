//! Reviewing a 40-move game (80 plies) with Stockfish, at depth 14 and at 200,000 nodes a
//! position: the wall time, and how busy the engine was kept (its searching time over the
//! wall time from its first search; the target is at least 0.9).
//!
//! `cargo bench --bench review` (needs `stockfish`; it prints what it measured once per
//! limit: an engine's search is too long for criterion's repeated sampling to be useful).

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use boardsight::GameRecord;
use boardsight::engine::{SearchLimit, find_stockfish};
use boardsight::review::Reviewer;
use shakmaty::Chess;

/// The first game of the corpus with at least 80 plies, cut to 80.
fn game_of_80_plies() -> GameRecord {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/corpus")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".truth.json"))
        .collect();
    paths.sort();
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("readable");
        let truth: serde_json::Value = serde_json::from_str(&text).expect("json");
        for moves in truth["games"].as_array().into_iter().flatten() {
            let moves: Vec<&str> = moves
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|m| m.as_str())
                .collect();
            if moves.len() >= 80 {
                return GameRecord::from_uci(Chess::default(), moves[..80].iter().copied())
                    .expect("legal moves");
            }
        }
    }
    panic!("no corpus game of 80 plies");
}

fn main() {
    let Some(engine) = find_stockfish() else {
        eprintln!("review bench: no stockfish (apt-get install stockfish)");
        return;
    };
    let game = game_of_80_plies();
    for limit in [SearchLimit::Depth(14), SearchLimit::Nodes(200_000)] {
        let began = Instant::now();
        let mut reviewer = Reviewer::start(&engine, &game, limit, Arc::new(|| {}));
        while !reviewer.is_finished() {
            reviewer.wait(Duration::from_millis(50));
        }
        let wall = began.elapsed();
        let (searching, since_first) = reviewer.busy();
        let ratio = searching.as_secs_f64() / since_first.as_secs_f64().max(1e-9);
        let (white, black) = reviewer.review().accuracy(&game);
        println!(
            "review of 81 positions at {limit:?}: {:.1} s, engine busy {ratio:.3} of the time \
             (searching {:.1} s of {:.1} s); accuracy White {:.1} Black {:.1}",
            wall.as_secs_f64(),
            searching.as_secs_f64(),
            since_first.as_secs_f64(),
            white.unwrap_or(f64::NAN),
            black.unwrap_or(f64::NAN),
        );
    }
}
