//! `boardsight pgn check FILE`

use std::path::Path;
use std::process::ExitCode;

use super::usage_error;
use crate::pgn::read_games;

pub fn run(file: &Path) -> ExitCode {
    let bytes = match std::fs::read(file) {
        Ok(bytes) => bytes,
        Err(e) => return usage_error(&format!("{}: {e}", file.display())),
    };
    let mut all_fine = true;
    for (index, game) in read_games(&bytes).iter().enumerate() {
        match game {
            Ok(game) => println!("game {}: ok ({} moves)", index + 1, game.game.moves.len()),
            Err(error) => {
                all_fine = false;
                println!("{error}");
            }
        }
    }
    if all_fine {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
