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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Replay { log, fen, trace }) => run_replay(&log, fen.as_deref(), trace),
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
