//! `boardsight listen --port DEV --protocol P [--record LOG] [--pgn OUT] [--idle-exit SECS]
//! [--engine PATH --engine-plays white|black [--level L | --elo E | --nodes N]] [--clock MIN+INC]
//! [--serve-dgt LINK] [--live-pgn FILE]`

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use shakmaty::Color;

use super::usage_error;
use crate::clock::{GameClocks, TimeControl, flag_words};
use crate::connection::{Command, ConnectionStatus, Update, connect};
use crate::dgt_serve::{VirtualDgtBoard, dgt_clock};
use crate::engine::{EngineClock, EnginePlay, Strength};
use crate::files::write_atomically;
use crate::game::GameRecord;
use crate::pgn::live::{LivePgn, session_pgn};
use crate::protocol::Protocol;
use crate::reading::{Reading, TimedReading};
use crate::recognizer::{BoardOrientation, Config, EventKind};
use crate::sensorlog;
use crate::snapshot::Snapshot;

pub struct Options<'a> {
    pub port: &'a str,
    pub protocol: Protocol,
    pub record: Option<&'a Path>,
    pub pgn: Option<&'a Path>,
    pub idle_exit: Option<f64>,
    pub fen: Option<&'a str>,
    pub orientation: BoardOrientation,
    /// An engine to play one side: its path, its side and its strength.
    pub engine: Option<(std::path::PathBuf, Color, Strength)>,
    /// A chess clock for the games.
    pub clock: Option<TimeControl>,
    /// Make this path a symlink to a virtual DGT board showing the recognised position.
    pub serve_dgt: Option<&'a Path>,
    /// Keep this file holding the session's games, rewritten after every change.
    pub live_pgn: Option<&'a Path>,
}

pub fn run(options: Options<'_>) -> ExitCode {
    if !Path::new(options.port).exists() {
        return usage_error(&format!("no serial port at {}", options.port));
    }
    let start = match options.fen.map(crate::game::parse_fen).transpose() {
        Ok(start) => start,
        Err(message) => return usage_error(&format!("--fen: {message}")),
    };
    let idle_limit = match options.idle_exit {
        Some(secs) if !(secs.is_finite() && secs > 0.0) => {
            return usage_error("--idle-exit must be a positive number of seconds");
        }
        secs => secs.map(Duration::from_secs_f64),
    };
    if let Some(path) = options.live_pgn
        && let Some(folder) = path.parent().filter(|f| !f.as_os_str().is_empty())
        && !folder.is_dir()
    {
        return usage_error(&format!(
            "--live-pgn {}: no folder {}",
            path.display(),
            folder.display()
        ));
    }
    let virtual_board = match options.serve_dgt.map(start_virtual_board).transpose() {
        Ok(board) => board,
        Err(message) => return usage_error(&message),
    };
    let live = match options.live_pgn.map(LivePgn::start).transpose() {
        Ok(live) => live,
        Err(e) => return usage_error(&format!("--live-pgn: {e}")),
    };
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        if let Err(e) = ctrlc::set_handler(move || stop.store(true, Ordering::Relaxed)) {
            eprintln!("boardsight: Ctrl-C will not save the game: {e}");
        }
    }
    let config = Config {
        start,
        orientation: options.orientation,
        ..Config::default()
    };
    // The worker's times count from about now: the clock's flag is checked against it.
    let started = Instant::now();
    let connection = connect(options.port, options.protocol, config, Arc::new(|| {}));
    let mut clocks = GameClocks::new(options.clock);
    let mut engine = options
        .engine
        .as_ref()
        .map(|(path, side, strength)| EnginePlay::start(path, *side, *strength, Arc::new(|| {})));
    let mut latest: Option<Box<Snapshot>> = None;
    let mut shown: Option<shakmaty::Chess> = None;
    let mut readings: Vec<TimedReading> = Vec::new();
    let mut games: Vec<GameRecord> = Vec::new();
    let mut last_change = Instant::now();
    let mut last_occupancy = None;
    let mut first_mover = Color::White;
    let now = || started.elapsed().as_millis() as u64;
    // The virtual board runs the clock on by itself; it hears of every change: the
    // events of a snapshot (told with it, once the game's end can be seen) and a flag.
    let show_clock = |clocks: &GameClocks, position: &shakmaty::Chess| {
        if let Some(board) = &virtual_board {
            board.show_clock(dgt_clock(clocks, position, now()));
        }
    };
    let mut clock_news = false;
    while !stop.load(Ordering::Relaxed) {
        if idle_limit.is_some_and(|limit| last_change.elapsed() >= limit) {
            break;
        }
        if let Some(snapshot) = &latest
            && let Some((color, result)) = clocks.check_flag(&snapshot.position, now())
        {
            println!("flag: {}", flag_words(color, result));
            show_clock(&clocks, &snapshot.position);
        }
        if let (Some(engine), Some(snapshot)) = (&mut engine, &latest) {
            // Hearing may ask the engine again (a takeback's pause over): with the times now.
            engine.set_clock(EngineClock::of(&clocks, now()));
            let (lines, expect) = engine.hear(snapshot, Instant::now());
            if let Some(mv) = expect {
                connection.send(Command::Expect(Some(mv)));
            }
            for line in lines {
                println!("{line}");
            }
        }
        let update = match connection.updates.recv_timeout(Duration::from_millis(20)) {
            Ok(update) => update,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => continue,
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
        };
        match update {
            Update::Reading(reading) => {
                // A polled board repeats its occupancy: only a change is news.
                let repeated =
                    matches!(reading.reading, Reading::Occupancy(o) if Some(o) == last_occupancy);
                if let Reading::Occupancy(o) = reading.reading {
                    last_occupancy = Some(o);
                }
                if !repeated {
                    last_change = Instant::now();
                }
                readings.push(reading);
            }
            Update::Events(events) => {
                for event in events {
                    if let EventKind::NewGame { fen } = &event.kind {
                        first_mover = crate::game::parse_fen(fen)
                            .map_or(Color::White, |p| shakmaty::Position::turn(&p));
                    }
                    clocks.on_event(&event);
                    if let Some(line) = describe(&event.kind, first_mover) {
                        println!("{line}");
                    }
                }
                clock_news = true;
            }
            Update::Snapshot(snapshot) => {
                if let Some(board) = &virtual_board
                    && shown.as_ref() != Some(&snapshot.position)
                {
                    board.show(&snapshot.position);
                    shown = Some(snapshot.position.clone());
                }
                if std::mem::take(&mut clock_news) {
                    show_clock(&clocks, &snapshot.position);
                }
                if let Some(live) = &live
                    && snapshot.games != games
                {
                    // The clocks already heard this snapshot's events.
                    // The engine's name is known once it has said it.
                    let tags = EnginePlay::tags(engine.as_ref());
                    live.write(session_pgn(
                        &snapshot.games,
                        &clocks.annotate(&snapshot.games, &tags),
                    ));
                    for problem in live.problems() {
                        eprintln!("boardsight: live PGN: {problem}");
                    }
                }
                games = snapshot.games.clone();
                if let Some(engine) = &mut engine {
                    // The clocks have heard this snapshot's moves: the engine is told its time.
                    engine.set_clock(EngineClock::of(&clocks, now()));
                    engine.on_snapshot(&snapshot);
                }
                latest = Some(snapshot);
            }
            Update::Status(status) => eprintln!("boardsight: {}", status_text(&status)),
        }
    }
    connection.disconnect();
    let mut failed = false;
    if let Some(path) = options.pgn {
        let tags = EnginePlay::tags(engine.as_ref());
        let text = session_pgn(&games, &clocks.annotate(&games, &tags));
        if let Err(e) = write_atomically(path, text.as_bytes()) {
            eprintln!("boardsight: {}: {e}", path.display());
            failed = true;
        }
    }
    if let Some(live) = live {
        for problem in live.finish() {
            eprintln!("boardsight: live PGN: {problem}");
            failed = true;
        }
    }
    if let Some(path) = options.record {
        let mut bytes = Vec::new();
        let written =
            sensorlog::write(&mut bytes, &readings).and_then(|()| write_atomically(path, &bytes));
        if let Err(e) = written {
            eprintln!("boardsight: {}: {e}", path.display());
            failed = true;
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

fn move_number(ply: usize, first_mover: Color) -> String {
    // Ply 1 is White's first move in a standard game.
    let offset = usize::from(first_mover == Color::Black);
    let index = ply - 1 + offset;
    let number = index / 2 + 1;
    if index.is_multiple_of(2) {
        format!("{number}.")
    } else {
        format!("{number}...")
    }
}

fn describe(kind: &EventKind, first_mover: Color) -> Option<String> {
    Some(match kind {
        EventKind::NewGame { fen } => format!("new game: {fen}"),
        EventKind::Move { ply, san, .. } => format!("{} {san}", move_number(*ply, first_mover)),
        EventKind::Revised { ply, san, .. } => {
            format!("{} {san} (revised)", move_number(*ply, first_mover))
        }
        EventKind::TakenBack { ply, .. } => {
            format!("{} taken back", move_number(*ply, first_mover))
        }
        EventKind::Ambiguous { ply, candidates } => {
            let list: Vec<String> = candidates
                .iter()
                .map(|m| crate::recognizer::event::uci(*m).to_string())
                .collect();
            format!(
                "{} ambiguous: {}",
                move_number(*ply, first_mover),
                list.join(" or ")
            )
        }
        EventKind::Orientation { .. } | EventKind::DeadSensor { .. } => return kind.finding(),
        EventKind::WrongMove {
            played, expected, ..
        } => crate::recognizer::event::wrong_move_words(*played, *expected),
        EventKind::Illegal { .. } | EventKind::Recovered | EventKind::Waiting { .. } => {
            return None;
        }
    })
}

/// A virtual DGT board linked at `link`, its path told on stdout for the other program.
fn start_virtual_board(link: &Path) -> Result<VirtualDgtBoard, String> {
    let board = VirtualDgtBoard::start(Some(link))
        .map_err(|e| format!("--serve-dgt {}: {e}", link.display()))?;
    println!(
        "DGT board for other programs on {} (linked at {})",
        board.device().display(),
        link.display()
    );
    let _ = std::io::stdout().flush();
    Ok(board)
}

fn status_text(status: &ConnectionStatus) -> String {
    match status {
        ConnectionStatus::Connecting => "connecting".into(),
        ConnectionStatus::WaitingForData => "port open, waiting for the board".into(),
        ConnectionStatus::Connected => "connected".into(),
        ConnectionStatus::Error(e) => format!("{e} (retrying)"),
    }
}
