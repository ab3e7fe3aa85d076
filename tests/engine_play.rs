//! `boardsight listen --engine` against the simulated board on a real pty: Stockfish plays
//! Black at a fixed node count, printing its moves; the test's hands make them on the board
//! (and once a wrong one, which is refused and set back), while a second Stockfish plays
//! White. The PGN written on exit holds exactly the moves made, with the engine named.
//! A scripted engine shows what listen tells it of the clock.
#![cfg(unix)]

mod common;

use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

use boardsight::background::WorkerThread;
use boardsight::engine::{Engine, Patience, Reply, Strength};
use boardsight::pgn::read_games;
use boardsight::protocol::Protocol;
use boardsight::recognizer::event::uci;
use boardsight::sim::device::Device;
use boardsight::sim::pty::serve_live;
use boardsight::sim::{Action, HandStyle, move_actions};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Move, Position};

/// The lifts and places a hand makes for `mv` in `position`.
fn hand(position: &Chess, mv: Move) -> Vec<Action> {
    move_actions(position, mv, &HandStyle::default())
}

fn perform(actions: &Sender<Action>, list: Vec<Action>) {
    for action in list {
        actions.send(action).expect("the device takes actions");
        std::thread::sleep(Duration::from_millis(120));
    }
}

/// The next printed line that starts with `prefix`.
fn line_starting(lines: &Receiver<String>, prefix: &str, seen: &mut Vec<String>) -> String {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left) {
            Ok(line) => {
                seen.push(line.clone());
                if line.starts_with(prefix) {
                    return line;
                }
            }
            Err(_) => panic!(
                "no line '{prefix}…' came; listen said:\n{}",
                seen.join("\n")
            ),
        }
    }
}

/// A simulated LiBoard on a pty, set up for a game: its hands, its stop, its port, its thread.
fn board_at_the_start() -> (Sender<Action>, Arc<AtomicBool>, String, WorkerThread) {
    let (actions, received) = mpsc::channel();
    let stop = Arc::new(AtomicBool::new(false));
    let (port, device) =
        serve_live(Device::new(Protocol::Liboard, 1.0), received, stop.clone()).expect("a pty");
    actions
        .send(Action::SetUp(Chess::default()))
        .expect("set up");
    (actions, stop, port, device)
}

#[test]
fn stockfish_plays_black_through_the_board_and_a_wrong_move_is_refused() {
    let Some(stockfish) = common::stockfish_or_skip() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let pgn = dir.path().join("game.pgn");
    let (actions, stop, port, device) = board_at_the_start();
    let mut listen = Command::new(env!("CARGO_BIN_EXE_boardsight"))
        .args(["listen", "--protocol", "liboard", "--idle-exit", "3"])
        .args([
            "--engine",
            "stockfish",
            "--engine-plays",
            "black",
            "--nodes",
            "300",
        ])
        .args(["--clock", "5+3"])
        .arg("--port")
        .arg(&port)
        .arg("--pgn")
        .arg(&pgn)
        .stdout(Stdio::piped())
        .spawn()
        .expect("listen starts");
    let stdout = listen.stdout.take().expect("stdout");
    let (line, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for text in BufReader::new(stdout).lines().map_while(Result::ok) {
            if line.send(text).is_err() {
                return;
            }
        }
    });
    let mut seen = Vec::new();
    line_starting(&lines, "new game", &mut seen);
    let white = Engine::start(
        &stockfish,
        Strength::Nodes(200),
        Patience::default(),
        Arc::new(|| {}),
    );
    let mut position = Chess::default();
    let mut played: Vec<Move> = Vec::new();
    let mut refused_once = false;
    while played.len() < 14 && !position.is_game_over() {
        let mv = if position.turn() == Color::White {
            white.think(&Chess::default(), &played);
            loop {
                match white.replies.recv_timeout(Duration::from_secs(30)) {
                    Ok(Reply::BestMove { mv, .. }) => break mv,
                    Ok(Reply::Ready { .. }) => {}
                    other => panic!("White's engine: {other:?}"),
                }
            }
        } else {
            let said = line_starting(&lines, "engine ", &mut seen);
            let text = said.trim_start_matches("engine ").trim();
            let mv = text
                .parse::<UciMove>()
                .ok()
                .and_then(|u| u.to_move(&position).ok())
                .unwrap_or_else(|| panic!("'{said}' is no legal move here"));
            if !refused_once {
                // Another quiet move for the engine's side: refused, then set back.
                let wrong = position
                    .legal_moves()
                    .into_iter()
                    .find(|m| *m != mv && !m.is_capture() && matches!(m, Move::Normal { .. }))
                    .expect("another move");
                perform(&actions, hand(&position, wrong));
                let said = line_starting(&lines, "wrong move:", &mut seen);
                assert_eq!(
                    said,
                    format!("wrong move: {}; the engine played {}", uci(wrong), uci(mv))
                );
                let mut after = position.clone();
                after.play_unchecked(wrong);
                let (Some(from), to) = (wrong.from(), wrong.to()) else {
                    panic!("a normal move");
                };
                let piece = after.board().piece_at(to).expect("the piece moved");
                perform(&actions, vec![Action::Lift(to), Action::Place(from, piece)]);
                refused_once = true;
            }
            mv
        };
        perform(&actions, hand(&position, mv));
        position.play_unchecked(mv);
        played.push(mv);
        std::thread::sleep(Duration::from_millis(200));
    }
    let status = listen.wait().expect("listen ends at --idle-exit");
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    drop(actions);
    device.join().expect("the device thread");
    assert!(
        status.success(),
        "listen failed; it said:\n{}",
        seen.join("\n")
    );
    let text = std::fs::read(&pgn).expect("the PGN");
    let games = read_games(&text);
    let game = games
        .last()
        .and_then(|g| g.as_ref().ok())
        .unwrap_or_else(|| panic!("no game in the PGN: {games:?}"));
    assert_eq!(game.game.moves, played, "listen said:\n{}", seen.join("\n"));
    assert!(game.tags.black.contains("Stockfish"), "{}", game.tags.black);
    assert!(game.tags.black.contains("300 nodes"), "{}", game.tags.black);
    assert!(refused_once);
    // The clock: the time control, and each mover's time after every move.
    let pgn_text = String::from_utf8_lossy(&text);
    assert!(pgn_text.contains("[TimeControl \"300+3\"]"), "{pgn_text}");
    assert_eq!(game.comments.len(), played.len(), "{pgn_text}");
    for (ply, comment) in &game.comments {
        let clk = comment
            .trim()
            .strip_prefix("[%clk ")
            .and_then(|c| c.strip_suffix(']'))
            .unwrap_or_else(|| panic!("ply {ply}: '{comment}'"));
        let parts: Vec<u64> = clk
            .split(':')
            .map(|p| p.parse().expect("a number"))
            .collect();
        let seconds = parts[0] * 3600 + parts[1] * 60 + parts[2];
        // At most five minutes plus the increments of the mover's moves so far; no one
        // used four minutes here.
        let movers_moves = (*ply as u64).div_ceil(2);
        assert!(
            (60..=300 + 3 * movers_moves).contains(&seconds),
            "ply {ply}: {clk}"
        );
    }
}

/// A `go` line's value of `key` (`wtime`, …).
fn go_value(go: &str, key: &str) -> u64 {
    let mut words = go.split_whitespace();
    words
        .find(|w| *w == key)
        .and_then(|_| words.next())
        .and_then(|value| value.parse().ok())
        .unwrap_or_else(|| panic!("no {key} in '{go}'"))
}

#[test]
fn listen_tells_the_engine_its_clock() {
    let dir = tempfile::tempdir().expect("temp dir");
    let log = dir.path().join("told.log");
    // A scripted engine for White that writes down what it is told.
    let script = format!(
        "#!/bin/sh\n\
         while read -r line; do\n\
           echo \"$line\" >> '{}'\n\
           case \"$line\" in\n\
             uci) echo 'id name Clocked'; echo 'id author The Tests'; echo uciok;;\n\
             isready) echo readyok;;\n\
             position*) position=\"$line\";;\n\
             go*) case \"$position\" in *e7e5) echo 'bestmove g1f3';; *) echo 'bestmove e2e4';; esac;;\n\
             quit) exit 0;;\n\
           esac\n\
         done\n",
        log.display()
    );
    let engine = dir.path().join("engine.sh");
    std::fs::write(&engine, script).expect("write the script");
    std::fs::set_permissions(&engine, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let (actions, stop, port, device) = board_at_the_start();
    let mut listen = Command::new(env!("CARGO_BIN_EXE_boardsight"))
        .args(["listen", "--protocol", "liboard", "--idle-exit", "2"])
        .arg("--engine")
        .arg(&engine)
        .args(["--engine-plays", "white", "--clock", "1+2", "--port"])
        .arg(&port)
        .stdout(Stdio::piped())
        .spawn()
        .expect("listen starts");
    let lines = common::stdout_lines(&mut listen);
    let mut seen = Vec::new();
    line_starting(&lines, "new game", &mut seen);
    let mut position = Chess::default();
    for (uci, engines) in [("e2e4", true), ("e7e5", false)] {
        if engines {
            assert_eq!(line_starting(&lines, "engine e", &mut seen), "engine e2e4");
        }
        let mv = uci
            .parse::<UciMove>()
            .ok()
            .and_then(|u| u.to_move(&position).ok())
            .expect("legal");
        perform(&actions, hand(&position, mv));
        position.play_unchecked(mv);
    }
    assert_eq!(line_starting(&lines, "engine g", &mut seen), "engine g1f3");
    let status = listen.wait().expect("listen ends at --idle-exit");
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    drop(actions);
    device.join().expect("the device thread");
    assert!(status.success(), "listen said:\n{}", seen.join("\n"));
    let told = std::fs::read_to_string(&log).expect("the engine's log");
    // Each `go` with the position it searches: once per turn of the engine.
    let told: Vec<&str> = told.lines().collect();
    let asked: Vec<(&str, &str)> = told
        .windows(2)
        .filter(|pair| pair[1].starts_with("go"))
        .map(|pair| (pair[0], pair[1]))
        .collect();
    assert_eq!(asked.len(), 2, "{told:?}");
    for (position, go) in &asked {
        assert!(go.starts_with("go wtime "), "{go}");
        assert_eq!((go_value(go, "winc"), go_value(go, "binc")), (2000, 2000));
        // White's clock runs from the start; Black's had not yet, and then did.
        if *position == "position startpos" {
            assert!(go_value(go, "wtime") <= 60_000, "{go}");
            assert_eq!(go_value(go, "btime"), 60_000, "{go}");
        } else {
            assert_eq!(*position, "position startpos moves e2e4 e7e5");
            assert!(go_value(go, "wtime") <= 62_000, "{go}");
            assert!(go_value(go, "btime") < 62_000, "{go}");
        }
    }
    assert!(asked.iter().any(|(p, _)| p.ends_with("e7e5")), "{told:?}");
}
