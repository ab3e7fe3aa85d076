//! `boardsight listen --port DEV --protocol P [--record LOG] [--pgn OUT] [--idle-exit SECS]
//! [--engine PATH --engine-plays white|black [--level L | --elo E | --nodes N]] [--clock MIN+INC]
//! [--serve-dgt LINK] [--live-pgn FILE] [--speak [--voice NAME] [--words-per-minute N]
//! [--speak-to DIR]] [--lichess OPPONENT [--tc MIN+INC] [--rated]] [--broadcast ROUND]
//! [--white NAME] [--black NAME] [--round R] [--board N]`: prints a live session (`crate::session`) as it goes.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use shakmaty::Color;

use super::usage_error;
use crate::background::no_wake;
use crate::clock::TimeControl;
use crate::dgt_serve::VirtualDgtBoard;
use crate::engine::Strength;
use crate::files::write_atomically;
use crate::game::TableTags;
use crate::online::broadcast::BroadcastTo;
use crate::pgn::live::LivePgn;
use crate::protocol::Protocol;
use crate::recognizer::{BoardOrientation, Config};
use crate::sensorlog;
use crate::session::words::status_line;
use crate::session::{News, Session};
use crate::voice::{SystemVoice, VoiceSettings};

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
    /// Say the session aloud.
    pub speech: Option<Speech>,
    /// Play a lichess game from the board.
    pub online: Option<Online>,
    /// Push the board's game to a lichess broadcast round (the token is found here).
    pub broadcast: Option<BroadcastTo>,
    /// The players' names, the round and the board's number for the games' tags.
    pub table: TableTags,
}

/// `listen --lichess`: the game to ask for, where, and how patient to be.
pub struct Online {
    pub request: crate::online::Request,
    pub url: String,
    pub patience: crate::online::Patience,
}

/// How `listen --speak` speaks.
pub struct Speech {
    pub settings: VoiceSettings,
    /// espeak-ng writes each announcement to a WAV file here instead.
    pub to_wav_files: Option<std::path::PathBuf>,
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
    if let Some(to) = &options.broadcast
        && let Err(problem) = crate::online::broadcast::round_id(&to.round)
    {
        return usage_error(&format!("--broadcast: {problem}"));
    }
    let token = match (&options.online, &options.broadcast) {
        (None, None) => None,
        _ => match crate::online::token::find() {
            Ok(token) => Some(token),
            Err(problem) => return usage_error(&problem),
        },
    };
    let stop = Arc::new(AtomicBool::new(false));
    let stopper = stop.clone();
    if let Err(e) = ctrlc::set_handler(move || stopper.store(true, Ordering::Relaxed)) {
        eprintln!("boardsight: Ctrl-C will not save the game: {e}");
    }
    let config = Config {
        start,
        orientation: options.orientation,
        ..Config::default()
    };
    let mut session = Session::new(None, no_wake());
    session.keep_news();
    session.set_table(options.table);
    session.connect(options.port.to_owned(), options.protocol, config);
    let started = Instant::now();
    session.set_clock(options.clock, started);
    if let Some((path, side, strength)) = &options.engine {
        session.seat_engine(path, *side, *strength);
    }
    session.share_dgt_board(virtual_board);
    session.keep_live_pgn(live);
    if let Some(online) = options.online {
        session.play_online(
            &online.url,
            token.clone(),
            false,
            online.request,
            online.patience,
        );
    }
    if let Some(to) = options.broadcast {
        session.broadcast(BroadcastTo { token, ..to });
    }
    if let Some(speech) = options.speech {
        if let Some(dir) = speech.to_wav_files {
            match SystemVoice::to_wav_files(dir) {
                Ok(voice) => session.speak_with(Box::new(voice)),
                Err(problem) => return usage_error(&format!("--speak-to: {problem}")),
            }
        }
        session.set_voice(speech.settings);
        if let Some(problem) = session.voice_problem() {
            eprintln!("boardsight: {problem} (the words are still printed)");
        }
    }
    while !stop.load(Ordering::Relaxed) {
        let last_change = session.last_reading_at().unwrap_or(started);
        if idle_limit.is_some_and(|limit| last_change.elapsed() >= limit) {
            break;
        }
        let there = session.wait(Duration::from_millis(20));
        session.update(Instant::now());
        print_news(&mut session);
        if !there {
            break;
        }
    }
    session.conclude();
    print_news(&mut session);
    let text = session.pgn_of(session.games());
    let mut log = Vec::new();
    let logged = sensorlog::write(&mut log, session.readings());
    let mut failed = !session.keep_live_pgn(None).is_empty();
    print_news(&mut session);
    drop(session);
    if let Some(path) = options.pgn {
        failed |= !written(path, write_atomically(path, text.as_bytes()));
    }
    if let Some(path) = options.record {
        failed |= !written(path, logged.and_then(|()| write_atomically(path, &log)));
    }
    // 1 is `ExitCode::FAILURE`.
    ExitCode::from(u8::from(failed))
}

/// Whether `path` was written; says why not.
fn written(path: &Path, result: std::io::Result<()>) -> bool {
    if let Err(e) = &result {
        eprintln!("boardsight: {}: {e}", path.display());
    }
    result.is_ok()
}

/// Prints what the session said: its lines on stdout, the connection and problems on
/// stderr.
fn print_news(session: &mut Session) {
    for news in session.take_news() {
        match news {
            News::Said(line) => println!("{line}"),
            News::Status(status) => eprintln!("boardsight: {}", status_line(&status)),
            News::Problem(problem) => eprintln!("boardsight: {problem}"),
            News::Spoken(words) => eprintln!("say: {words}"),
        }
    }
}

/// A virtual DGT board linked at `link`, its path told on stdout for the other program.
fn start_virtual_board(link: &Path) -> Result<VirtualDgtBoard, String> {
    let board = VirtualDgtBoard::start(Some(link), no_wake())
        .map_err(|e| format!("--serve-dgt {}: {e}", link.display()))?;
    println!(
        "DGT board for other programs on {} (linked at {})",
        board.device().display(),
        link.display()
    );
    let _ = std::io::stdout().flush();
    Ok(board)
}
