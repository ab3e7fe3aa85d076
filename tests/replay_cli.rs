//! `boardsight replay` as a user runs it: real files, the real binary.

use std::process::Command;

fn boardsight() -> Command {
    Command::new(env!("CARGO_BIN_EXE_boardsight"))
}

fn log_path(name: &str) -> String {
    format!("{}/tests/logs/{name}.log", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn replay_prints_every_game_as_pgn() {
    let output = boardsight()
        .args(["replay", &log_path("new-game")])
        .output()
        .expect("runs");
    assert!(output.status.success());
    let pgn = String::from_utf8(output.stdout).expect("utf-8");
    assert_eq!(pgn.matches("[Event ").count(), 2, "{pgn}");
    for tag in ["Event", "Site", "Date", "Round", "White", "Black", "Result"] {
        assert_eq!(
            pgn.matches(&format!("[{tag} ")).count(),
            2,
            "{tag} in {pgn}"
        );
    }
    assert!(
        pgn.contains("1. Nf3 Nf6 2. Ng1 Ng8 3. e4 e5 4. d4 *"),
        "{pgn}"
    );
    assert!(pgn.contains("1. c4 *"), "{pgn}");
    // Each game names its opening after the other tags; the first by transposition (its
    // knights went home, then 1. e4 e5 2. d4).
    assert!(
        pgn.contains("[Result \"*\"]\n[ECO \"C20\"]\n[Opening \"Center Game\"]\n\n1. Nf3"),
        "{pgn}"
    );
    assert!(
        pgn.contains("[ECO \"A10\"]\n[Opening \"English Opening\"]\n\n1. c4"),
        "{pgn}"
    );
}

#[test]
fn replay_with_a_fen_writes_setup_tags() {
    let output = boardsight()
        .args([
            "replay",
            &log_path("promotion-after"),
            "--fen",
            "8/P6k/8/8/8/8/6Kp/8 w - - 0 1",
        ])
        .output()
        .expect("runs");
    assert!(output.status.success());
    let pgn = String::from_utf8(output.stdout).expect("utf-8");
    assert!(pgn.contains("[SetUp \"1\"]"), "{pgn}");
    assert!(
        pgn.contains("[FEN \"8/P6k/8/8/8/8/6Kp/8 w - - 0 1\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("1. a8=R *"), "{pgn}");
}

#[test]
fn trace_prints_one_line_per_event_on_stderr() {
    let output = boardsight()
        .args([
            "replay",
            &log_path("castling"),
            "--trace",
            "--fen",
            "r3k2r/pppqpppp/2n2n2/3p1b2/3P1B2/2N2N2/PPPQPPPP/R3K2R w KQkq - 0 1",
        ])
        .output()
        .expect("runs");
    assert!(output.status.success());
    let trace = String::from_utf8(output.stderr).expect("utf-8");
    assert!(
        trace.lines().any(|l| l.starts_with("0 newgame ")),
        "{trace}"
    );
    assert!(trace.contains("1900 move e1g1 1:O-O"), "{trace}");
    assert!(trace.contains("3900 revise a8d8 e8c8 2:O-O-O"), "{trace}");
    assert!(
        trace.lines().any(|l| l.contains(" waiting lifted ")),
        "{trace}"
    );
    // Every line is `<t> <kind> ...` with a numeric time.
    for line in trace.lines() {
        let t = line.split(' ').next().unwrap_or_default();
        assert!(t.parse::<u64>().is_ok(), "{line}");
    }
}

#[test]
fn a_malformed_log_names_the_line_and_exits_2() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("bad.log");
    std::fs::write(
        &path,
        "# sensor log v1\n0 occ ffff00000000ffff\n40 occ fffz00000000ffff\n",
    )
    .expect("write");
    let output = boardsight()
        .args(["replay", path.to_str().expect("utf-8 path")])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    let message = String::from_utf8(output.stderr).expect("utf-8");
    assert!(message.contains("bad.log"), "{message}");
    assert!(message.contains("line 3"), "{message}");
    assert!(output.stdout.is_empty());
}

#[test]
fn a_missing_log_and_a_bad_fen_exit_2() {
    let output = boardsight()
        .args(["replay", "/nonexistent/session.log"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    let output = boardsight()
        .args(["replay", &log_path("plain-moves"), "--fen", "not a fen"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--fen"));
}

#[test]
fn an_unknown_orientation_is_a_usage_error_and_turned_reads_a_turned_board() {
    let out = boardsight()
        .args([
            "replay",
            &log_path("rotated-board"),
            "--orientation",
            "sideways",
        ])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("auto, normal or turned"));
    let out = boardsight()
        .args([
            "replay",
            &log_path("rotated-board"),
            "--orientation",
            "turned",
        ])
        .output()
        .expect("runs");
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("4. Nxd4"));
}

/// The headless build (`--no-default-features`) has every command but no window.
#[cfg(not(feature = "app"))]
#[test]
fn the_headless_build_says_it_has_no_app() {
    let out = boardsight().output().expect("runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no desktop app"));
}

#[test]
fn replay_on_a_clock_writes_each_movers_time_left_from_the_recordings_time() {
    let log = format!(
        "{}/tests/corpus/t0-change-000.log",
        env!("CARGO_MANIFEST_DIR")
    );
    let output = boardsight()
        .args(["replay", &log, "--clock", "5+3", "--trace"])
        .output()
        .expect("runs");
    assert!(output.status.success());
    let pgn = String::from_utf8(output.stdout).expect("utf-8");
    assert!(pgn.contains("[TimeControl \"300+3\"]"), "{pgn}");
    // Work the clocks out from the trace's times: each side's time less what it used,
    // plus 3 s a move.
    let trace = String::from_utf8(output.stderr).expect("utf-8");
    let mut since = None;
    let mut left = [300_000_i64; 2];
    let mut expected = Vec::new();
    for line in trace.lines() {
        let mut words = line.split_whitespace();
        let (Some(t), Some(kind)) = (words.next(), words.next()) else {
            continue;
        };
        let t: i64 = t.parse().expect("a time");
        match kind {
            "newgame" => since = Some(t),
            "move" => {
                let side = expected.len() % 2;
                left[side] += 3_000 - (t - since.expect("a game"));
                since = Some(t);
                let seconds = left[side] / 1000;
                expected.push(format!(
                    "[%clk {}:{:02}:{:02}]",
                    seconds / 3600,
                    seconds / 60 % 60,
                    seconds % 60
                ));
            }
            "takeback" | "revise" => panic!("this session has no takebacks: {line}"),
            _ => {}
        }
    }
    let written: Vec<&str> = pgn
        .match_indices("[%clk ")
        .map(|(i, _)| &pgn[i..i + pgn[i..].find(']').expect("closed") + 1])
        .collect();
    assert!(expected.len() > 20, "{trace}");
    assert_eq!(written, expected);
}

#[test]
fn replay_of_a_chess960_session_prints_its_variant_and_castlings() {
    let output = boardsight()
        .args([
            "replay",
            &log_path("chess960-start-3"),
            "--chess960",
            "3",
            "--trace",
        ])
        .output()
        .expect("runs");
    let trace = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{trace}");
    let pgn = String::from_utf8(output.stdout).expect("utf-8");
    assert!(pgn.contains("[Variant \"Chess960\"]"), "{pgn}");
    assert!(
        pgn.contains("[FEN \"bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w KQkq - 0 1\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("1. O-O O-O 2. Ne3 *"), "{pgn}\n{trace}");
    assert!(trace.contains("move f1g1 1:O-O"), "{trace}");

    let out_of_range = boardsight()
        .args(["replay", &log_path("chess960-start-3"), "--chess960", "960"])
        .output()
        .expect("runs");
    assert_eq!(out_of_range.status.code(), Some(2));
    let message = String::from_utf8_lossy(&out_of_range.stderr);
    assert!(message.contains("960"), "{message}");
}
