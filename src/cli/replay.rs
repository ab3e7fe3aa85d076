//! `boardsight replay LOG [--fen FEN] [--trace] [--orientation auto|normal|turned]`

use std::path::Path;
use std::process::ExitCode;

use super::usage_error;
use crate::pgn::{GameTags, write_game};
use crate::recognizer::{BoardOrientation, Config};
use crate::{parse_fen, replay, sensorlog};

pub fn run(log: &Path, fen: Option<&str>, trace: bool, orientation: BoardOrientation) -> ExitCode {
    let start = match fen.map(parse_fen).transpose() {
        Ok(start) => start,
        Err(message) => return usage_error(&format!("--fen: {message}")),
    };
    let readings = match sensorlog::read_file(log) {
        Ok(readings) => readings,
        Err(error) => return usage_error(&error.to_string()),
    };
    let config = Config {
        start,
        orientation,
        ..Config::default()
    };
    let result = replay::replay(&readings, config);
    if trace {
        for event in &result.events {
            eprintln!("{event}");
        }
    }
    let tags = GameTags::default();
    for game in &result.games {
        print!("{}", write_game(game, &tags));
    }
    ExitCode::SUCCESS
}
