//! `boardsight simulate` and `boardsight listen` as separate processes on a real pty.

mod common;

use std::process::{Command, Stdio};

fn boardsight() -> Command {
    Command::new(env!("CARGO_BIN_EXE_boardsight"))
}

#[test]
fn listen_records_what_a_simulated_board_plays() {
    let dir = tempfile::tempdir().expect("temp dir");
    let link = dir.path().join("board");
    let pgn = dir.path().join("games.pgn");
    let log = dir.path().join("session.log");
    let simulator = boardsight()
        .args([
            "simulate",
            "--protocol",
            "centaur",
            "--speed",
            "10",
            "--link",
        ])
        .arg(&link)
        .stdout(Stdio::piped())
        .spawn()
        .expect("simulate starts");
    common::wait_for_path(&link);
    let mut listen = boardsight();
    listen
        .args([
            "listen",
            "--protocol",
            "centaur",
            "--idle-exit",
            "3",
            "--speak",
            "--port",
        ])
        .arg(&link)
        .arg("--pgn")
        .arg(&pgn)
        .arg("--record")
        .arg(&log);
    // With espeak-ng, what is said goes to files rather than to the speakers.
    let said = dir.path().join("said");
    let espeak = Command::new("espeak-ng")
        .arg("--version")
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if espeak {
        std::fs::create_dir(&said).expect("a folder");
        listen.arg("--speak-to").arg(&said);
    }
    let listen = listen.output().expect("listen runs");
    // Ctrl-C for the simulator: it removes its link and ends cleanly.
    let _ = Command::new("kill")
        .args(["-INT", &simulator.id().to_string()])
        .status();
    let simulator = simulator.wait_with_output().expect("simulator ends");
    assert!(simulator.status.success(), "{:?}", simulator.status);
    assert!(!link.exists(), "the link is removed");
    // The Centaur's lights flashed each move made, and it beeped.
    let board = String::from_utf8(simulator.stdout).expect("utf-8");
    assert!(board.contains("\nlights: e2 e4\n"), "{board}");
    assert!(board.contains("\nlights: off\n"), "{board}");
    assert!(board.contains("\nbeep: confirm\n"), "{board}");
    // Each move was said, and written on stderr as it was.
    let stderr = String::from_utf8(listen.stderr.clone()).expect("utf-8");
    assert!(stderr.contains("\nsay: e4.\n"), "{stderr}");
    assert!(stderr.contains("\nsay: Castles queenside.\n"), "{stderr}");
    assert!(
        stderr.contains("\nsay: c8, promotes to a queen, check.\n"),
        "{stderr}"
    );
    if espeak {
        let spoken = stderr.lines().filter(|l| l.starts_with("say: ")).count();
        let files = std::fs::read_dir(&said).expect("the folder").count();
        assert!(
            files > 0 && files <= spoken,
            "{files} files for {spoken} said"
        );
    }

    assert_eq!(listen.status.code(), Some(0));
    let printed = String::from_utf8(listen.stdout).expect("utf-8");
    assert!(printed.contains("1. e4"), "{printed}");
    assert!(printed.contains("7... O-O-O"), "{printed}");
    let games = std::fs::read_to_string(&pgn).expect("the PGN was written");
    assert_eq!(games.matches("[Event ").count(), 2, "{games}");
    assert!(games.contains("6. O-O Qd7 7. d4 O-O-O"), "{games}");
    assert!(games.contains("6. c8=Q+ Rxc8"), "{games}");
    assert_eq!(games.matches("\n[ECO \"").count(), 2, "{games}");
    assert_eq!(games.matches("\n[Opening \"").count(), 2, "{games}");
    // The recording replays to the same games.
    let replayed = boardsight()
        .arg("replay")
        .arg(&log)
        .output()
        .expect("replay runs");
    let replayed = String::from_utf8(replayed.stdout).expect("utf-8");
    let moves = |text: &str| {
        text.lines()
            .filter(|l| !l.starts_with('['))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(moves(&replayed), moves(&games));
}

#[test]
fn listen_refuses_a_missing_port_or_an_unknown_protocol() {
    let output = boardsight()
        .args([
            "listen",
            "--port",
            "/dev/no-such-board",
            "--protocol",
            "liboard",
        ])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("no serial port at /dev/no-such-board")
    );
    let output = boardsight()
        .args(["listen", "--port", "/dev/null", "--protocol", "morse"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("unknown protocol 'morse'"));
}

#[test]
fn listen_refuses_an_engine_that_is_not_there() {
    let output = boardsight()
        .args(["listen", "--protocol", "liboard", "--port", "/dev/null"])
        .args(["--engine", "/nonexistent/engine", "--engine-plays", "white"])
        .output()
        .expect("listen runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("--engine: no engine at /nonexistent/engine"),
        "{stderr}"
    );
    // A side without an engine is a usage error too.
    let output = boardsight()
        .args(["listen", "--protocol", "liboard", "--port", "/dev/null"])
        .args(["--engine-plays", "white"])
        .output()
        .expect("listen runs");
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn simulate_plays_with_lively_hands_and_refuses_unknown_ones() {
    let dir = tempfile::tempdir().expect("temp dir");
    let link = dir.path().join("board");
    let mut simulator = boardsight()
        .args([
            "simulate",
            "--protocol",
            "text",
            "--hands",
            "lively",
            "--link",
        ])
        .arg(&link)
        .stdout(Stdio::piped())
        .spawn()
        .expect("simulate starts");
    common::wait_for_path(&link);
    // The board sends occupancy lines as the hands play.
    let lines = {
        use std::io::BufRead;
        let port = std::fs::File::open(&link).expect("the board opens");
        std::io::BufReader::new(port)
            .lines()
            .take(3)
            .collect::<Result<Vec<_>, _>>()
            .expect("lines")
    };
    assert!(lines.iter().all(|l| l.trim().len() == 64), "{lines:?}");
    let _ = Command::new("kill")
        .args(["-INT", &simulator.id().to_string()])
        .status();
    assert!(simulator.wait().expect("simulator ends").success());

    let output = boardsight()
        .args(["simulate", "--protocol", "text", "--hands", "wobbly"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("lively"), "{stderr}");
}
