//! Helpers shared by the integration tests.
// Each test crate uses only some of these.
#![allow(dead_code)]

pub mod accuracy;
#[cfg(feature = "app")]
pub mod app;
#[cfg(unix)]
pub mod live;

use boardsight::game::GameRecord;
use boardsight::recognizer::event::uci;

/// A game's moves in UCI (a Chess960 castling as king takes rook).
pub fn uci_moves(game: &GameRecord) -> Vec<String> {
    game.moves.iter().map(|&m| uci(m).to_string()).collect()
}

/// Every game's moves in UCI.
pub fn uci_games(games: &[GameRecord]) -> Vec<Vec<String>> {
    games.iter().map(uci_moves).collect()
}

/// Stockfish, where it is installed; else `None` after saying the test is skipped (or a
/// failure where `BOARDSIGHT_REQUIRE_ENGINE` asks for it, as `.ci/run` does).
pub fn stockfish_or_skip() -> Option<std::path::PathBuf> {
    let found = boardsight::engine::find_stockfish();
    if found.is_none() {
        assert!(
            std::env::var_os("BOARDSIGHT_REQUIRE_ENGINE").is_none(),
            "stockfish is not installed (apt-get install stockfish)"
        );
        eprintln!("skipped: no stockfish (apt-get install stockfish)");
    }
    found
}

/// Waits (at most 10 s) for a path another thread or process makes, such as a pty's link.
pub fn wait_for_path(path: &std::path::Path) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !path.exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "{} never appeared",
            path.display()
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// A child's standard output (piped), line by line as it comes.
pub fn stdout_lines(child: &mut std::process::Child) -> std::sync::mpsc::Receiver<String> {
    use std::io::BufRead;
    let stdout = child.stdout.take().expect("stdout is piped");
    let (line, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for text in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            if line.send(text).is_err() {
                return;
            }
        }
    });
    lines
}

/// The FEN piece placement of 64 DGT piece codes in field order (a8 first).
pub fn fen_of_fields(fields: &[u8; 64]) -> String {
    let ranks: Vec<String> = fields
        .chunks(8)
        .map(|rank| {
            let mut text = String::new();
            let mut empty = 0;
            for &code in rank {
                let letter = b" PRNBKQprnbkq".get(usize::from(code)).copied();
                match letter {
                    Some(b' ') | None => empty += 1,
                    Some(letter) => {
                        if empty > 0 {
                            text.push_str(&empty.to_string());
                            empty = 0;
                        }
                        text.push(char::from(letter));
                    }
                }
            }
            if empty > 0 {
                text.push_str(&empty.to_string());
            }
            text
        })
        .collect();
    ranks.join("/")
}
