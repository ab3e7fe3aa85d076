//! The boardsight command line: parses arguments and hands over to the library.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use boardsight::cli;
use boardsight::protocol::Protocol;
use boardsight::recognizer::BoardOrientation;

#[derive(Parser)]
#[command(
    name = "boardsight",
    version,
    about = "Recognises chess games on occupancy-sensing boards"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Open a sensor log in the app's timeline (without a command, the app starts on
    /// its built-in simulated board).
    #[arg(long, value_name = "LOG")]
    open: Option<PathBuf>,
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
        /// How the board stands on its sensors: auto (found from White's first move),
        /// normal or turned (round).
        #[arg(long, default_value = "auto")]
        orientation: BoardOrientation,
    },
    /// Work with PGN files.
    Pgn {
        #[command(subcommand)]
        command: PgnCommand,
    },
    /// Run a simulated board on a pseudo-terminal, playing games as a person would.
    Simulate {
        /// liboard, centaur, dgt or text.
        #[arg(long)]
        protocol: Protocol,
        /// The games to play (default: built-in samples).
        #[arg(long)]
        pgn: Option<PathBuf>,
        /// How much faster than a person to play.
        #[arg(long, default_value_t = 1.0)]
        speed: f64,
        /// Make this path a symlink to the device.
        #[arg(long)]
        link: Option<PathBuf>,
    },
    /// Follow a board on a serial port, printing moves as they are recognised.
    Listen {
        /// The serial port, e.g. /dev/ttyUSB0.
        #[arg(long)]
        port: String,
        /// liboard, centaur, dgt or text.
        #[arg(long)]
        protocol: Protocol,
        /// Record everything the board sends as a sensor log.
        #[arg(long)]
        record: Option<PathBuf>,
        /// Write the games as PGN here when stopping.
        #[arg(long)]
        pgn: Option<PathBuf>,
        /// Stop after this many seconds without a change on the board.
        #[arg(long, value_name = "SECS")]
        idle_exit: Option<f64>,
        /// The position the board starts from (default: the standard start).
        #[arg(long)]
        fen: Option<String>,
        /// How the board stands on its sensors: auto, normal or turned.
        #[arg(long, default_value = "auto")]
        orientation: BoardOrientation,
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
        Some(Command::Replay {
            log,
            fen,
            trace,
            orientation,
        }) => cli::replay::run(&log, fen.as_deref(), trace, orientation),
        Some(Command::Pgn {
            command: PgnCommand::Check { file },
        }) => cli::pgn_check::run(&file),
        Some(Command::Simulate {
            protocol,
            pgn,
            speed,
            link,
        }) => cli::simulate::run(protocol, pgn.as_deref(), speed, link.as_deref()),
        Some(Command::Listen {
            port,
            protocol,
            record,
            pgn,
            idle_exit,
            fen,
            orientation,
        }) => cli::listen::run(cli::listen::Options {
            orientation,
            port: &port,
            protocol,
            record: record.as_deref(),
            pgn: pgn.as_deref(),
            idle_exit,
            fen: fen.as_deref(),
        }),
        None => open_app(cli.open),
    }
}

/// Without a command: the desktop app, on the simulated board or a recording.
#[cfg(feature = "app")]
fn open_app(open_log: Option<PathBuf>) -> ExitCode {
    let options = boardsight::app::StartOptions {
        open_log,
        autosave: boardsight::pgn::autosave::Autosave::in_data_dir(),
    };
    match boardsight::app::run(options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("boardsight: the window could not open: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(not(feature = "app"))]
fn open_app(_open_log: Option<PathBuf>) -> ExitCode {
    eprintln!(
        "boardsight: this build has no desktop app (built without the `app` feature); \
         give a command: replay, listen, simulate or pgn (see --help)"
    );
    ExitCode::from(2)
}
