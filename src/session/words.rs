//! The session in words: its events as the command line prints them (with move numbers)
//! and as the app's status bar shows them, and the connection's state.

use shakmaty::{Bitboard, Color};

use crate::connection::ConnectionStatus;
use crate::protocol::dgt::DgtClock;
use crate::protocol::{Beep, Signal};
use crate::recognizer::event::{uci, wrong_move_words};
use crate::recognizer::{BoardStatus, EventKind};

/// "1." for White's first move of a standard game, "1..." for Black's.
pub fn move_number(ply: usize, first_mover: Color) -> String {
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

/// An event as the command line prints it (`1. e4`, `new game: FEN`); `None` for those it
/// keeps quiet about.
pub fn event_line(kind: &EventKind, first_mover: Color) -> Option<String> {
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
            let list: Vec<String> = candidates.iter().map(|m| uci(*m).to_string()).collect();
            format!(
                "{} ambiguous: {}",
                move_number(*ply, first_mover),
                list.join(" or ")
            )
        }
        EventKind::Illegal { .. } | EventKind::Recovered | EventKind::Waiting { .. } => {
            return None;
        }
        EventKind::Orientation { .. }
        | EventKind::DeadSensor { .. }
        | EventKind::Unseen { .. }
        | EventKind::Seen { .. }
        | EventKind::WrongMove { .. } => {
            return finding(kind);
        }
    })
}

/// An event as the status bar shows it (`move 1: e4`); `None` for a move in progress.
pub fn event_status(kind: &EventKind) -> Option<String> {
    Some(match kind {
        EventKind::NewGame { .. } => "new game".into(),
        EventKind::Move { ply, san, .. } => format!("move {ply}: {san}"),
        EventKind::Revised { ply, san, .. } => format!("move {ply} revised: {san}"),
        EventKind::TakenBack { ply, .. } => format!("move {ply} taken back"),
        EventKind::Ambiguous { ply, .. } => format!("move {ply} is ambiguous"),
        EventKind::Illegal { .. } => "illegal position".into(),
        EventKind::Recovered => "legal again".into(),
        EventKind::Waiting { .. } => return None,
        EventKind::Orientation { .. }
        | EventKind::DeadSensor { .. }
        | EventKind::Unseen { .. }
        | EventKind::Seen { .. }
        | EventKind::WrongMove { .. } => {
            return finding(kind);
        }
    })
}

/// What both say alike: the board found turned, a dead sensor, a move other than the
/// engine's.
fn finding(kind: &EventKind) -> Option<String> {
    match kind {
        EventKind::WrongMove {
            played, expected, ..
        } => Some(wrong_move_words(*played, *expected)),
        _ => kind.finding(),
    }
}

/// The connection's state, as the command line prints it.
pub fn status_line(status: &ConnectionStatus) -> String {
    match status {
        ConnectionStatus::Connecting => "connecting".into(),
        ConnectionStatus::WaitingForData => "port open, waiting for the board".into(),
        ConnectionStatus::Connected => "connected".into(),
        ConnectionStatus::Error(e) => format!("{e} (retrying)"),
    }
}

/// Whole seconds as a clock shows them: `4:57`, `1:02:03`.
pub fn clock_time(ms: u64) -> String {
    let seconds = ms / 1000;
    let (hours, minutes, seconds) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    if hours > 0 {
        format!("{hours}:{minutes:02}:{seconds:02}")
    } else {
        format!("{minutes}:{seconds:02}")
    }
}

/// The clock a DGT host set, as the command line prints it:
/// `host clock: white 4:57 black 5:03, black runs`.
pub fn host_clock_line(clock: &DgtClock) -> String {
    let running = match clock.running {
        Some(Color::White) => "white runs",
        Some(Color::Black) => "black runs",
        None => "stopped",
    };
    format!(
        "host clock: white {} black {}, {running}",
        clock_time(clock.white_ms),
        clock_time(clock.black_ms)
    )
}

/// Squares in words (`e2 e4`), or `off` for none.
pub fn squares_line(squares: Bitboard) -> String {
    if squares.is_empty() {
        return "off".into();
    }
    squares
        .into_iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// What the host shows on the board, as the simulated board prints it: `lights: e2 e4`,
/// `lights: off`, `beep: confirm`.
pub fn signal_line(signal: Signal) -> String {
    match signal {
        Signal::Lights(squares) => format!("lights: {}", squares_line(squares)),
        Signal::Beep(Beep::Confirm) => "beep: confirm".into(),
        Signal::Beep(Beep::Wrong) => "beep: wrong".into(),
    }
}

/// The plain-language banner for an illegal state, naming the pieces to put back: "Put the
/// white pawn back on e2 · Remove the piece on e4". Speech says the same sentences.
pub fn illegal_banner(status: &BoardStatus, position: &shakmaty::Chess) -> Option<String> {
    let BoardStatus::Illegal { put_back, remove } = status else {
        return None;
    };
    Some(crate::voice::words::illegal_parts(*put_back, *remove, position).join(" · "))
}

/// A move in progress, in words a screen reader says too: "Move in progress: e2 lifted",
/// "Move in progress: d4 lifted, d5 lifted, d5 placed".
pub fn waiting_words(lifted: Bitboard, placed: Bitboard) -> String {
    let squares: Vec<String> = lifted
        .into_iter()
        .map(|square| format!("{square} lifted"))
        .chain(placed.into_iter().map(|square| format!("{square} placed")))
        .collect();
    if squares.is_empty() {
        "Move in progress".into()
    } else {
        format!("Move in progress: {}", squares.join(", "))
    }
}
