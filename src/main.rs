//! The boardsight command line: parses arguments and hands over to the library.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

use boardsight::cli;
use boardsight::clock::TimeControl;
use boardsight::engine::{SearchLimit, Strength, find_stockfish};
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

// Parsed once at start: the size of `listen`'s many options costs nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    /// Feed a sensor log through the recognizer and print the games as PGN.
    Replay {
        /// The sensor log (v1) to replay.
        log: PathBuf,
        /// The position the board starts from (default: the standard start).
        #[arg(long)]
        fen: Option<String>,
        /// A Chess960 start by its number, 0 to 959 (518 is the standard start).
        #[arg(long, value_name = "N", conflicts_with = "fen",
              value_parser = clap::value_parser!(u32).range(0..960))]
        chess960: Option<u32>,
        /// Also print every recognizer event on stderr: `<t> <kind> <detail>`.
        #[arg(long)]
        trace: bool,
        /// How the board stands on its sensors: auto (found from White's first move),
        /// normal or turned (round).
        #[arg(long, default_value = "auto")]
        orientation: BoardOrientation,
        /// Play the games on a chess clock run by the recording's time: minutes + seconds
        /// per move (5+3), or a delay (5+3d); the PGN gets TimeControl and [%clk].
        #[arg(long)]
        clock: Option<TimeControl>,
    },
    /// Review every game of a PGN file with a chess engine and write it annotated: each
    /// move's evaluation as [%eval], inaccuracies, mistakes and blunders marked (?!, ?, ??)
    /// with the better line, each side's accuracy.
    Review {
        /// The PGN file.
        pgn: PathBuf,
        /// The UCI engine (default: stockfish on PATH or in /usr/games).
        #[arg(long, value_name = "PATH")]
        engine: Option<PathBuf>,
        /// Search each position to this depth (the default is 14).
        #[arg(long, value_name = "N", group = "limit",
              value_parser = clap::value_parser!(u8).range(1..=99))]
        depth: Option<u8>,
        /// Search each position this many nodes.
        #[arg(long, value_name = "N", group = "limit",
              value_parser = clap::value_parser!(u64).range(1..))]
        nodes: Option<u64>,
        /// Search each position this many milliseconds.
        #[arg(long, value_name = "MS", group = "limit",
              value_parser = clap::value_parser!(u64).range(1..))]
        movetime: Option<u64>,
        /// Write the annotated games here (default: standard output).
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Also each game as an animated GIF, a frame a move, the marked moves framed in
        /// their colour: the first game here, the n-th as NAME-n.gif.
        #[arg(long, value_name = "FILE")]
        gif: Option<PathBuf>,
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
        /// plain (lift and place, now and then a capture in either order or a piece
        /// straightened) or lively (also slides, knocked pieces, nudges, a pawn left
        /// off-centre, fast captures and electrical noise).
        #[arg(long, default_value = "plain")]
        hands: cli::simulate::Hands,
    },
    /// List the serial ports (USB names and serial numbers), and with --probe which board
    /// protocol answers on each.
    Ports {
        /// Find out which protocol answers on each port (a few seconds; a port that says
        /// nothing by itself gets one harmless ping, and no more unless a board answers it).
        #[arg(long)]
        probe: bool,
        /// More ports to show: pseudo-terminals and links, which the system does not list.
        #[arg(value_name = "PATH")]
        paths: Vec<String>,
    },
    /// Keep a lichess token in the system keyring (read from standard input), or forget
    /// it; listen and the app use it when LICHESS_TOKEN is not set.
    Token {
        /// Remove the kept token instead.
        #[arg(long)]
        forget: bool,
    },
    /// Write the manual pages (roff) into a folder, one per command: for packaging.
    #[command(hide = true)]
    Man {
        /// The folder to write boardsight.1, boardsight-listen.1… into.
        dir: PathBuf,
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
        /// A Chess960 start by its number, 0 to 959 (518 is the standard start).
        #[arg(long, value_name = "N", conflicts_with = "fen",
              value_parser = clap::value_parser!(u32).range(0..960))]
        chess960: Option<u32>,
        /// How the board stands on its sensors: auto, normal or turned.
        #[arg(long, default_value = "auto")]
        orientation: BoardOrientation,
        /// A UCI engine to play one side (its moves are printed as `engine <uci>` and
        /// made on the board by the player); `stockfish` finds Stockfish.
        #[arg(long, value_name = "PATH", requires = "engine_plays")]
        engine: Option<PathBuf>,
        /// The side the engine plays.
        #[arg(long, value_enum, requires = "engine")]
        engine_plays: Option<Side>,
        /// The engine's Skill Level, 0 to 20.
        #[arg(long, value_parser = clap::value_parser!(u8).range(0..=20), group = "strength")]
        level: Option<u8>,
        /// The engine's strength as an Elo (below the engine's floor: few nodes).
        #[arg(long, group = "strength")]
        elo: Option<u32>,
        /// A fixed node count per move, on one thread: the same moves every time.
        #[arg(long, group = "strength")]
        nodes: Option<u64>,
        /// A chess clock: minutes + seconds per move (5+3), or a delay (5+3d).
        #[arg(long, value_name = "MIN+INC")]
        clock: Option<TimeControl>,
        /// Be a DGT board for other chess programs: make this path a symlink to a
        /// pseudo-terminal that speaks the DGT board protocol with the recognised pieces.
        #[arg(long, value_name = "LINK")]
        serve_dgt: Option<PathBuf>,
        /// Keep this file holding the session's games as PGN, rewritten after every move,
        /// revision and takeback (the game in progress has the result `*`).
        #[arg(long, value_name = "FILE")]
        live_pgn: Option<PathBuf>,
        /// Say moves, the engine's moves, warnings and the result aloud (espeak-ng or the
        /// system's speech), each also printed on stderr as `say: <words>`.
        #[arg(long)]
        speak: bool,
        /// The voice to speak with (as `espeak-ng --voices` names them, e.g. en-gb).
        #[arg(long, value_name = "NAME", requires = "speak")]
        voice: Option<String>,
        /// How fast to speak, in words per minute (80 to 400).
        #[arg(long, value_name = "WPM", requires = "speak",
              value_parser = clap::value_parser!(u32).range(80..=400))]
        words_per_minute: Option<u32>,
        /// Write each announcement to DIR/say-N.wav with espeak-ng instead of speaking.
        #[arg(long, value_name = "DIR", requires = "speak")]
        speak_to: Option<PathBuf>,
        /// Play a lichess game from the board: ai:LEVEL (1 to 8), seek, challenge:NAME,
        /// or accept (the first challenge that comes; accept:NAME, only that player's).
        /// The token (scope board:play) is read from LICHESS_TOKEN or the system keyring.
        #[arg(long, value_name = "OPPONENT")]
        lichess: Option<boardsight::online::Opponent>,
        /// The online game's clock, minutes + seconds per move.
        #[arg(
            long,
            value_name = "MIN+INC",
            default_value = "10+5",
            requires = "lichess"
        )]
        tc: TimeControl,
        /// Ask for a rated game.
        #[arg(long, requires = "lichess")]
        rated: bool,
        /// Push the board's game to this lichess broadcast round (its id or address) as it
        /// is played; the token needs the study:write scope.
        #[arg(long, value_name = "ROUND")]
        broadcast: Option<String>,
        /// The white player's name, for the games' tags (and the broadcast's).
        #[arg(long, value_name = "NAME")]
        white: Option<String>,
        /// The black player's name.
        #[arg(long, value_name = "NAME")]
        black: Option<String>,
        /// The round, for the games' Round tag.
        #[arg(long, value_name = "ROUND")]
        round: Option<String>,
        /// The board's number in the round, for the games' Board tag (a broadcast tells its
        /// boards apart by it and the names).
        #[arg(long, value_name = "N")]
        board: Option<u32>,
        /// The least time between broadcast pushes, in seconds (lichess's pace unless given).
        #[arg(long, value_name = "SECS", hide = true)]
        broadcast_every: Option<f64>,
        /// Where lichess is (for tests: a stand-in's address).
        #[arg(long, value_name = "URL", default_value = boardsight::online::LICHESS_URL, hide = true)]
        lichess_url: String,
        /// The wait after lichess answers 429, in seconds (it asks for a minute).
        #[arg(long, value_name = "SECS", default_value_t = 60, hide = true)]
        lichess_pause: u64,
    },
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Side {
    White,
    Black,
}

/// The engine to play one side: `stockfish` (or nothing else found) is looked for on PATH
/// and in /usr/games; a path must be there.
fn engine_choice(
    engine: Option<PathBuf>,
    side: Option<Side>,
    level: Option<u8>,
    elo: Option<u32>,
    nodes: Option<u64>,
) -> Result<Option<(PathBuf, shakmaty::Color, Strength)>, String> {
    let (Some(engine), Some(side)) = (engine, side) else {
        return Ok(None);
    };
    let path = if engine.as_os_str() == "stockfish" {
        find_stockfish().ok_or("--engine stockfish: not found on PATH or in /usr/games")?
    } else if engine.is_file() {
        engine
    } else {
        return Err(format!("--engine: no engine at {}", engine.display()));
    };
    let strength = match (level, elo, nodes) {
        (_, Some(elo), _) => Strength::Elo(elo),
        (_, _, Some(nodes)) => Strength::Nodes(nodes),
        (level, _, _) => Strength::Level(level.unwrap_or(20)),
    };
    let side = match side {
        Side::White => shakmaty::Color::White,
        Side::Black => shakmaty::Color::Black,
    };
    Ok(Some((path, side, strength)))
}

/// The FEN of `--chess960 N` (clap has kept N in range).
fn chess960_fen(number: Option<u32>) -> Option<String> {
    let start = boardsight::chess960::start_position(number?).ok()?;
    Some(boardsight::game::fen_of(&start))
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
            chess960,
            trace,
            orientation,
            clock,
        }) => {
            let fen = chess960_fen(chess960).or(fen);
            cli::replay::run(&log, fen.as_deref(), trace, orientation, clock)
        }
        Some(Command::Pgn {
            command: PgnCommand::Check { file },
        }) => cli::pgn_check::run(&file),
        Some(Command::Review {
            pgn,
            engine,
            depth,
            nodes,
            movetime,
            out,
            gif,
        }) => {
            let Some(engine) = engine.or_else(find_stockfish) else {
                return cli::usage_error(
                    "no engine: install stockfish, or give one with --engine PATH",
                );
            };
            let limit = match (nodes, movetime) {
                (Some(nodes), _) => SearchLimit::Nodes(nodes),
                (_, Some(ms)) => SearchLimit::MoveTime(std::time::Duration::from_millis(ms)),
                _ => SearchLimit::Depth(depth.unwrap_or(14)),
            };
            cli::review::run(cli::review::Options {
                file: &pgn,
                engine: &engine,
                limit,
                out: out.as_deref(),
                gif: gif.as_deref(),
            })
        }
        Some(Command::Simulate {
            protocol,
            pgn,
            speed,
            link,
            hands,
        }) => cli::simulate::run(protocol, pgn.as_deref(), speed, link.as_deref(), hands),
        Some(Command::Ports { probe, paths }) => cli::ports::run(probe, &paths),
        Some(Command::Token { forget }) => cli::token::run(forget),
        Some(Command::Man { dir }) => match clap_mangen::generate_to(Cli::command(), &dir) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => cli::usage_error(&format!("{}: {e}", dir.display())),
        },
        Some(Command::Listen {
            port,
            protocol,
            record,
            pgn,
            idle_exit,
            fen,
            chess960,
            orientation,
            engine,
            engine_plays,
            level,
            elo,
            nodes,
            clock,
            serve_dgt,
            live_pgn,
            speak,
            voice,
            words_per_minute,
            speak_to,
            lichess,
            tc,
            rated,
            lichess_url,
            lichess_pause,
            broadcast,
            white,
            black,
            round,
            board,
            broadcast_every,
        }) => cli::listen::run(cli::listen::Options {
            broadcast: broadcast.map(|round| boardsight::online::broadcast::BroadcastTo {
                url: lichess_url.clone(),
                every: broadcast_every
                    .and_then(|secs| std::time::Duration::try_from_secs_f64(secs).ok()),
                after_429: std::time::Duration::from_secs(lichess_pause),
                ..boardsight::online::broadcast::BroadcastTo::lichess(&round)
            }),
            table: boardsight::game::TableTags {
                white,
                black,
                round,
                board,
            },
            online: lichess.map(|opponent| cli::listen::Online {
                request: boardsight::online::Request {
                    opponent,
                    clock: tc,
                    rated,
                },
                url: lichess_url,
                patience: boardsight::online::Patience {
                    after_429: std::time::Duration::from_secs(lichess_pause),
                    ..boardsight::online::Patience::default()
                },
            }),
            speech: speak.then(|| cli::listen::Speech {
                settings: boardsight::voice::VoiceSettings {
                    voice: voice.unwrap_or_default(),
                    words_per_minute: words_per_minute
                        .unwrap_or(boardsight::voice::DEFAULT_WORDS_PER_MINUTE),
                    ..boardsight::voice::VoiceSettings::all()
                },
                to_wav_files: speak_to,
            }),
            clock,
            serve_dgt: serve_dgt.as_deref(),
            live_pgn: live_pgn.as_deref(),
            engine: match engine_choice(engine, engine_plays, level, elo, nodes) {
                Ok(choice) => choice,
                Err(message) => return cli::usage_error(&message),
            },
            orientation,
            port: &port,
            protocol,
            record: record.as_deref(),
            pgn: pgn.as_deref(),
            idle_exit,
            fen: chess960_fen(chess960).or(fen).as_deref(),
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
        file_dialogs: true,
        scout: Some(boardsight::connection::ScoutSetup::default()),
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
         give a command: replay, listen, ports, simulate or pgn (see --help)"
    );
    ExitCode::from(2)
}
