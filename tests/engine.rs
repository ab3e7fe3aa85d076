//! The engine worker against real processes: small shell scripts that act as UCI engines
//! (a good one, and ones that crash, hang, print garbage or play an illegal move), and
//! Stockfish itself where it is installed (`.ci/run` installs it and requires it).
#![cfg(unix)]

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use boardsight::engine::{Engine, EngineFault, Patience, Reply, Strength};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Move, Position};

/// Short waits: a fake engine answers at once or never.
const PATIENCE: Patience = Patience {
    start: Duration::from_secs(5),
    movetime: Duration::from_millis(100),
    margin: Duration::from_millis(700),
};

/// A UCI engine as a shell script; `on_go` is what it does when told to search.
fn fake_engine(dir: &Path, on_uci: &str, on_go: &str) -> PathBuf {
    let script = format!(
        "#!/bin/sh\n\
         while read -r line; do\n\
           case \"$line\" in\n\
             uci) {on_uci};;\n\
             isready) echo readyok;;\n\
             go*) {on_go};;\n\
             quit) exit 0;;\n\
           esac\n\
         done\n"
    );
    let path = dir.join("engine.sh");
    std::fs::write(&path, script).expect("write the script");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    path
}

const GOOD_UCI: &str = "echo 'id name Fake Engine 1.0'; echo 'id author The Tests'; \
     echo 'option name Skill Level type spin default 20 min 0 max 20'; echo uciok";

fn start(path: &Path) -> Engine {
    Engine::start(path, Strength::Level(3), PATIENCE, Arc::new(|| {}))
}

fn next(engine: &Engine) -> Reply {
    engine
        .replies
        .recv_timeout(Duration::from_secs(20))
        .expect("a reply in time")
}

fn e4() -> Move {
    let uci: UciMove = "e2e4".parse().expect("uci");
    uci.to_move(&Chess::default()).expect("legal")
}

#[test]
fn a_good_engine_says_who_it_is_and_answers_with_its_move() {
    let dir = tempfile::tempdir().expect("temp dir");
    let engine = start(&fake_engine(
        dir.path(),
        GOOD_UCI,
        "echo 'info depth 1 score cp 20 pv e7e5'; echo 'bestmove e7e5'",
    ));
    assert_eq!(
        next(&engine),
        Reply::Ready {
            name: "Fake Engine 1.0".into(),
            author: "The Tests".into()
        }
    );
    engine.think(&Chess::default(), &[e4()]);
    let Reply::BestMove { ply, mv } = next(&engine) else {
        panic!("no move");
    };
    assert_eq!(ply, 1);
    let mut after = Chess::default();
    after.play_unchecked(e4());
    assert_eq!(UciMove::from_standard(mv).to_string(), "e7e5");
    assert!(after.is_legal(mv));
}

#[test]
fn an_engine_that_crashes_is_a_fault_not_a_hang() {
    let dir = tempfile::tempdir().expect("temp dir");
    let engine = start(&fake_engine(
        dir.path(),
        "echo 'Segmentation fault'; exit 139",
        "",
    ));
    match next(&engine) {
        Reply::Fault(EngineFault::Exited { code, last_words }) => {
            assert_eq!(code, Some(139));
            assert_eq!(last_words.as_deref(), Some("Segmentation fault"));
        }
        other => panic!("expected an exit, got {other:?}"),
    }
}

#[test]
fn an_engine_that_never_says_bestmove_is_taken_for_hung() {
    let dir = tempfile::tempdir().expect("temp dir");
    let engine = start(&fake_engine(dir.path(), GOOD_UCI, "echo 'info depth 1'"));
    assert!(matches!(next(&engine), Reply::Ready { .. }));
    engine.think(&Chess::default(), &[]);
    match next(&engine) {
        Reply::Fault(fault @ EngineFault::Silent { .. }) => {
            assert!(fault.to_string().contains("did not answer 'go'"), "{fault}");
        }
        other => panic!("expected silence, got {other:?}"),
    }
}

#[test]
fn garbage_from_the_engine_is_quoted_when_it_then_fails() {
    let dir = tempfile::tempdir().expect("temp dir");
    let engine = start(&fake_engine(dir.path(), GOOD_UCI, "echo '%%% garbage %%%'"));
    assert!(matches!(next(&engine), Reply::Ready { .. }));
    engine.think(&Chess::default(), &[]);
    let Reply::Fault(fault) = next(&engine) else {
        panic!("expected a fault");
    };
    assert!(fault.to_string().contains("'%%% garbage %%%'"), "{fault}");
}

#[test]
fn an_illegal_bestmove_is_refused_with_the_position() {
    let dir = tempfile::tempdir().expect("temp dir");
    let engine = start(&fake_engine(dir.path(), GOOD_UCI, "echo 'bestmove e2e5'"));
    assert!(matches!(next(&engine), Reply::Ready { .. }));
    engine.think(&Chess::default(), &[]);
    match next(&engine) {
        Reply::Fault(EngineFault::IllegalMove { uci, fen }) => {
            assert_eq!(uci, "e2e5");
            assert!(fen.starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"));
        }
        other => panic!("expected an illegal move, got {other:?}"),
    }
}

#[test]
fn an_engine_that_is_not_there_says_where_it_was_looked_for() {
    let engine = start(Path::new("/nonexistent/engine"));
    match next(&engine) {
        Reply::Fault(fault @ EngineFault::Start { .. }) => {
            assert!(fault.to_string().contains("/nonexistent/engine"), "{fault}");
        }
        other => panic!("expected a start fault, got {other:?}"),
    }
}

#[test]
fn stockfish_plays_a_legal_game_at_a_fixed_node_count() {
    let Some(path) = common::stockfish_or_skip() else {
        return;
    };
    let engine = Engine::start(
        &path,
        Strength::Nodes(2000),
        Patience::default(),
        Arc::new(|| {}),
    );
    let Reply::Ready { name, .. } = next(&engine) else {
        panic!("stockfish did not start");
    };
    assert!(name.contains("Stockfish"), "{name}");
    // Twenty plies against itself, each move legal where it was played.
    let mut position = Chess::default();
    let mut moves = Vec::new();
    for ply in 0..20 {
        if position.is_game_over() {
            break;
        }
        engine.think(&Chess::default(), &moves);
        let Reply::BestMove { ply: at, mv } = next(&engine) else {
            panic!("no move at ply {ply}");
        };
        assert_eq!(at, ply);
        assert!(position.is_legal(mv));
        position.play_unchecked(mv);
        moves.push(mv);
    }
    assert!(moves.len() >= 10);
}
