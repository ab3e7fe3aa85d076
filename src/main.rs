//! The boardsight command line: thin glue over the library.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use boardsight::pgn::{GameTags, write_game};
use boardsight::recognizer::Config;
use boardsight::{replay, sensorlog};

#[derive(Parser)]
#[command(
    name = "boardsight",
    version,
    about = "Recognises chess games on occupancy-sensing boards"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Feed a sensor log through the recognizer and print the games as PGN.
    Replay {
        /// The sensor log (v1) to replay.
        log: PathBuf,
        /// The position the board starts from (default: the standard start).
        #[arg(long)]
        fen: Option<String>,
        /// Also print every recognizer event on stderr: `<t> <kind> <detail>`.
        #[arg(long)]
        trace: bool,
    },
    /// Work with PGN files.
    Pgn {
        #[command(subcommand)]
        command: PgnCommand,
    },
}

#[derive(Subcommand)]
enum PgnCommand {
    /// Check every game of a file: one line per game; exit 1 if any is wrong.
    Check {
        /// The PGN file.
        file: PathBuf,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Replay { log, fen, trace }) => run_replay(&log, fen.as_deref(), trace),
        Some(Command::Pgn {
            command: PgnCommand::Check { file },
        }) => run_pgn_check(&file),
        None => {
            println!("{}", <Cli as clap::CommandFactory>::command().render_help());
            ExitCode::SUCCESS
        }
    }
}

fn run_replay(log: &std::path::Path, fen: Option<&str>, trace: bool) -> ExitCode {
    let start = match fen.map(boardsight::parse_fen).transpose() {
        Ok(start) => start,
        Err(message) => {
            eprintln!("boardsight: --fen: {message}");
            return ExitCode::from(2);
        }
    };
    let readings = match sensorlog::read_file(log) {
        Ok(readings) => readings,
        Err(message) => {
            eprintln!("boardsight: {message}");
            return ExitCode::from(2);
        }
    };
    let config = Config {
        start,
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

fn run_pgn_check(file: &std::path::Path) -> ExitCode {
    let bytes = match std::fs::read(file) {
        Ok(bytes) => bytes,
        Err(e) => {
            eprintln!("boardsight: {}: {e}", file.display());
            return ExitCode::from(2);
        }
    };
    let mut all_fine = true;
    for (index, game) in boardsight::pgn::read_games(&bytes).iter().enumerate() {
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
