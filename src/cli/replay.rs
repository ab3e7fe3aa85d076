//! `boardsight replay LOG [--fen FEN] [--trace] [--orientation auto|normal|turned]
//! [--clock MIN+INC]`

use std::path::Path;
use std::process::ExitCode;

use super::usage_error;
use crate::clock::{GameClocks, TimeControl};
use crate::game::parse_fen;
use crate::pgn::GameTags;
use crate::pgn::live::session_pgn;
use crate::recognizer::{BoardOrientation, Config};
use crate::{replay, sensorlog};

pub fn run(
    log: &Path,
    fen: Option<&str>,
    trace: bool,
    orientation: BoardOrientation,
    clock: Option<TimeControl>,
) -> ExitCode {
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
    // The games as if played on the clock: it runs on the recording's own time.
    let mut clocks = GameClocks::new(clock);
    for event in &result.events {
        clocks.on_event(event);
    }
    print!(
        "{}",
        session_pgn(
            &result.games,
            &clocks.annotate(&result.games, &GameTags::default()),
        )
    );
    ExitCode::SUCCESS
}
