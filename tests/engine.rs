//! The engine worker against real processes: small shell scripts that act as UCI engines
//! (a good one, and ones that crash, hang, print garbage or play an illegal move; ones
//! that analyse, and one that plays Chess960), and Stockfish itself where it is installed
//! (`.ci/run` installs it and requires it).
#![cfg(unix)]

mod common;

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use std::time::Instant;

use boardsight::clock::{Clock, GameClocks, TimeControl};
use boardsight::engine::{
    Adviser, AnalysisLine, Engine, EngineClock, EngineFault, EnginePlay, Patience, Reply, Score,
    Strength, TAKEBACK_WAIT_WORDS, Ticket, castling_mode,
};
use boardsight::reading::{Reading, TimedReading};
use boardsight::recognizer::{BoardOrientation, Config, Recognizer};
use boardsight::sim::{Action, HandStyle, PhysicalBoard, move_actions};
use boardsight::snapshot::Snapshot;
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{CastlingMode, Chess, Color, EnPassantMode, Move, Piece, Position, Role, Square};

/// Short waits: a fake engine answers at once or never.
const PATIENCE: Patience = Patience {
    start: Duration::from_secs(5),
    movetime: Duration::from_millis(100),
    margin: Duration::from_millis(700),
};

/// A UCI engine as a shell script; `on_go` is what it does when told to search.
fn fake_engine(dir: &Path, on_uci: &str, on_go: &str) -> PathBuf {
    analysing_engine(dir, on_uci, on_go, "")
}

/// A fake engine that also answers `stop`, and writes all it is told to `told.log`; the
/// last position it was given is in `$position`.
fn analysing_engine(dir: &Path, on_uci: &str, on_go: &str, on_stop: &str) -> PathBuf {
    let log = dir.join("told.log");
    let log = log.display();
    let script = format!(
        "#!/bin/sh\n\
         while read -r line; do\n\
           echo \"$line\" >> '{log}'\n\
           case \"$line\" in\n\
             uci) {on_uci};;\n\
             isready) echo readyok;;\n\
             position*) position=\"$line\";;\n\
             go*) {on_go};;\n\
             stop) {on_stop};;\n\
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

/// Stockfish at `strength`, started: its name.
fn stockfish(path: &Path, strength: Strength) -> (Engine, String) {
    let engine = Engine::start(path, strength, Patience::default(), Arc::new(|| {}));
    let Reply::Ready { name, .. } = next(&engine) else {
        panic!("stockfish did not start");
    };
    (engine, name)
}

/// Up to `plies` moves of the engine against itself from `start`, each checked legal where
/// it was played.
fn play_itself(engine: &Engine, start: &Chess, plies: usize) -> Vec<Move> {
    let mut position = start.clone();
    let mut moves = Vec::new();
    for ply in 0..plies {
        if position.is_game_over() {
            break;
        }
        engine.think(start, &moves);
        let Reply::BestMove { ply: at, mv } = next(engine) else {
            panic!("no move at ply {ply}");
        };
        assert_eq!(at, ply);
        assert!(position.is_legal(mv), "{mv:?}");
        position.play_unchecked(mv);
        moves.push(mv);
    }
    moves
}

#[test]
fn stockfish_plays_a_legal_game_at_a_fixed_node_count() {
    let Some(path) = common::stockfish_or_skip() else {
        return;
    };
    let (engine, name) = stockfish(&path, Strength::Nodes(2000));
    assert!(name.contains("Stockfish"), "{name}");
    assert!(play_itself(&engine, &Chess::default(), 20).len() >= 10);
}

// ----- analysis, hints and Chess960 -----

const ANALYSING_UCI: &str = "echo 'id name Fake Analyser'; echo 'id author The Tests'; \
     echo 'option name MultiPV type spin default 1 min 1 max 500'; \
     echo 'option name UCI_Chess960 type check default false'; echo uciok";

/// Three lines, with garbage between them and an illegal move (e1e3) in the third.
const THREE_LINES: &str = "echo 'info depth 1 multipv 1 score cp 20 pv e2e4 e7e5'; \
     echo '%%% garbage %%%'; \
     echo 'info depth 1 multipv 2 score cp -15 pv d2d4 d7d5'; \
     echo 'info string thinking'; \
     echo 'info depth 1 multipv 3 score mate 2 pv g1f3 e1e3 b8c6'";

/// What the fake engine was told, line by line.
fn told(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("told.log"))
        .expect("the engine's log")
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Whether `wanted` were told in this order (with anything between).
fn told_in_order(told: &[String], wanted: &[&str]) -> bool {
    let mut rest = told.iter();
    wanted.iter().all(|w| rest.any(|t| t == w))
}

fn mv(position: &Chess, uci: &str) -> Move {
    uci.parse::<UciMove>()
        .expect("uci")
        .to_move(position)
        .expect("legal")
}

/// Analysis replies for `ticket` until one satisfies `enough`.
fn analysis_until(
    engine: &Engine,
    ticket: Ticket,
    enough: impl Fn(&[AnalysisLine]) -> bool,
) -> Vec<AnalysisLine> {
    loop {
        match next(engine) {
            Reply::Analysis {
                ticket: t, lines, ..
            } if t == ticket && enough(&lines) => return lines,
            Reply::Fault(fault) => panic!("{fault}"),
            _ => {}
        }
    }
}

#[test]
fn an_analysis_streams_its_lines_and_a_new_one_replaces_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    // It analyses until told to stop; what it says after `stop` is not shown.
    let on_go =
        format!("case \"$line\" in *infinite*) {THREE_LINES};; *) echo 'bestmove e2e4';; esac");
    let engine = start(&analysing_engine(
        dir.path(),
        ANALYSING_UCI,
        &on_go,
        "echo 'info depth 9 multipv 1 score cp 99 pv e2e4'; echo 'bestmove e2e4'",
    ));
    assert!(matches!(next(&engine), Reply::Ready { .. }));
    let start_position = Chess::default();
    let first = engine.analyse(&start_position, &[], 3);
    let lines = analysis_until(&engine, first, |lines| lines.len() == 3);
    assert_eq!(lines.iter().map(|l| l.rank).collect::<Vec<_>>(), [1, 2, 3]);
    assert_eq!(lines[0].score, Score::Centipawns(20));
    assert_eq!(lines[1].score, Score::Centipawns(-15));
    assert_eq!(
        lines[2].score,
        Score::Mate {
            winner: Color::White,
            moves: 2
        }
    );
    let pv = |line: &AnalysisLine| -> Vec<String> {
        line.pv
            .iter()
            .map(|&m| UciMove::from_standard(m).to_string())
            .collect()
    };
    assert_eq!(pv(&lines[0]), ["e2e4", "e7e5"]);
    assert_eq!(pv(&lines[1]), ["d2d4", "d7d5"]);
    // The third line stops before its illegal move.
    assert_eq!(pv(&lines[2]), ["g1f3"]);

    // A new request while the engine searches: stop, then the new position, one line.
    let second = engine.analyse(&start_position, &[], 1);
    let lines = loop {
        match next(&engine) {
            Reply::Analysis { ticket, lines, .. } => {
                assert!(lines.iter().all(|l| l.depth != 9), "{lines:?}");
                if ticket == second {
                    break lines;
                }
                assert_eq!(ticket, first);
            }
            other => panic!("{other:?}"),
        }
    };
    assert_eq!(lines.len(), 1, "{lines:?}");
    // A stop ends it; the engine then still plays.
    engine.stop();
    engine.think(&start_position, &[]);
    loop {
        match next(&engine) {
            Reply::BestMove { ply, mv: best } => {
                assert_eq!((ply, best), (0, mv(&start_position, "e2e4")));
                break;
            }
            Reply::Analysis { ticket, .. } => assert_eq!(ticket, second),
            other => panic!("{other:?}"),
        }
    }
    let told = told(dir.path());
    assert!(
        told_in_order(
            &told,
            &[
                "setoption name MultiPV value 3",
                "position startpos",
                "go infinite",
                "stop",
                "setoption name MultiPV value 1",
                "position startpos",
                "go infinite",
                "stop",
                "position startpos",
            ]
        ),
        "{told:?}"
    );
    assert!(
        told.iter().any(|t| t.starts_with("go movetime")),
        "{told:?}"
    );
}

#[test]
fn an_analysis_that_will_not_stop_is_taken_for_hung() {
    let dir = tempfile::tempdir().expect("temp dir");
    let engine = start(&analysing_engine(
        dir.path(),
        ANALYSING_UCI,
        THREE_LINES,
        "",
    ));
    assert!(matches!(next(&engine), Reply::Ready { .. }));
    engine.analyse(&Chess::default(), &[], 2);
    engine.stop();
    loop {
        match next(&engine) {
            Reply::Fault(fault @ EngineFault::Silent { .. }) => {
                assert!(
                    fault.to_string().contains("did not answer 'stop'"),
                    "{fault}"
                );
                break;
            }
            Reply::Analysis { .. } => {}
            other => panic!("expected silence, got {other:?}"),
        }
    }
}

#[test]
fn a_hint_is_its_own_reply_and_the_analysis_goes_on_after_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let on_go =
        format!("case \"$line\" in *infinite*) {THREE_LINES};; *) echo 'bestmove g1f3';; esac");
    let path = analysing_engine(dir.path(), ANALYSING_UCI, &on_go, "echo 'bestmove e2e4'");
    let mut adviser = Adviser::start(&path, PATIENCE, Arc::new(|| {}));
    let start_position = Chess::default();
    adviser.analyse(&start_position, &[], 3);
    let poll_until = |adviser: &mut Adviser, done: &dyn Fn(&Adviser) -> bool| {
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        while !done(adviser) {
            adviser.poll();
            assert!(adviser.fault().is_none(), "{:?}", adviser.fault());
            assert!(std::time::Instant::now() < deadline, "no answer in time");
            std::thread::sleep(Duration::from_millis(10));
        }
    };
    poll_until(&mut adviser, &|a| {
        a.analysis()
            .is_some_and(|analysis| analysis.lines.len() == 3)
    });
    assert_eq!(adviser.name(), Some("Fake Analyser"));
    adviser.hint(&start_position, &[]);
    poll_until(&mut adviser, &|a| {
        a.hint_for(&start_position, &[]).is_some()
    });
    assert_eq!(
        adviser.hint_for(&start_position, &[]),
        Some(mv(&start_position, "g1f3"))
    );
    // Not for another position.
    assert_eq!(adviser.hint_for(&start_position, &[e4()]), None);
    // The analysis started again after the hint.
    let log = dir.path().join("told.log");
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    let wanted = [
        "go infinite",
        "stop",
        "setoption name MultiPV value 1",
        "go movetime 100",
        "setoption name MultiPV value 3",
        "go infinite",
    ];
    while !told_in_order(&told(dir.path()), &wanted) {
        assert!(
            std::time::Instant::now() < deadline,
            "{:?}",
            std::fs::read_to_string(&log)
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    // The worker's own move replies are `BestMove`, never a hint.
    let engine = start(&path);
    engine.think(&start_position, &[]);
    loop {
        match next(&engine) {
            Reply::Ready { .. } => {}
            Reply::BestMove { mv: best, .. } => {
                assert_eq!(best, mv(&start_position, "g1f3"));
                break;
            }
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn a_mated_position_is_analysed_without_the_engine() {
    let dir = tempfile::tempdir().expect("temp dir");
    let engine = start(&analysing_engine(dir.path(), ANALYSING_UCI, "", ""));
    assert!(matches!(next(&engine), Reply::Ready { .. }));
    // Fool's mate: White is mated.
    let mut position = Chess::default();
    let mut moves = Vec::new();
    for uci in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        let m = mv(&position, uci);
        position.play_unchecked(m);
        moves.push(m);
    }
    let ticket = engine.analyse(&Chess::default(), &moves, 3);
    let lines = analysis_until(&engine, ticket, |_| true);
    assert_eq!(
        lines[0].score,
        Score::Mate {
            winner: Color::Black,
            moves: 0
        }
    );
    assert!(!told(dir.path()).iter().any(|t| t.starts_with("go")));
}

/// A position from its FEN, in Chess960 castling mode (which reads standard ones too).
fn position(fen: &str) -> Chess {
    fen.parse::<Fen>()
        .expect("fen")
        .into_position(CastlingMode::Chess960)
        .expect("legal")
}

/// A Chess960 position, King c1 and rooks b1 and f1 (and the same for Black), after some
/// moves: both sides may castle either way.
fn chess960_position() -> Chess {
    position("1rk2r2/pppppppp/8/8/8/8/PPPPPPPP/1RK2R2 w FBfb - 0 1")
}

#[test]
fn a_chess960_game_is_told_in_chess960_form() {
    let dir = tempfile::tempdir().expect("temp dir");
    // It answers by castling short, king takes own rook.
    let engine = start(&analysing_engine(
        dir.path(),
        ANALYSING_UCI,
        "case \"$position\" in *startpos*) echo 'bestmove e2e4';; *) echo 'bestmove c8f8';; esac",
        "",
    ));
    assert!(matches!(next(&engine), Reply::Ready { .. }));
    let start_position = chess960_position();
    assert_eq!(castling_mode(&start_position), CastlingMode::Chess960);
    assert_eq!(castling_mode(&Chess::default()), CastlingMode::Standard);
    let castle = Move::Castle {
        king: Square::C1,
        rook: Square::F1,
    };
    assert!(start_position.is_legal(castle));
    engine.think(&start_position, &[castle]);
    let Reply::BestMove { ply, mv: reply } = next(&engine) else {
        panic!("no move");
    };
    assert_eq!(ply, 1);
    assert_eq!(
        reply,
        Move::Castle {
            king: Square::C8,
            rook: Square::F8
        }
    );
    // A standard game afterwards turns Chess960 off again.
    engine.think(&Chess::default(), &[]);
    assert_eq!(
        next(&engine),
        Reply::BestMove {
            ply: 0,
            mv: mv(&Chess::default(), "e2e4")
        }
    );
    let told = told(dir.path());
    let fen = Fen::from_position(&start_position, EnPassantMode::Legal);
    assert!(
        told_in_order(
            &told,
            &[
                "setoption name UCI_Chess960 value true",
                &format!("position fen {fen} moves c1f1"),
                "setoption name UCI_Chess960 value false",
                "position startpos",
            ]
        ),
        "{told:?}"
    );
}

#[test]
fn stockfish_analyses_three_distinct_lines_scored_for_white() {
    let Some(path) = common::stockfish_or_skip() else {
        return;
    };
    let (engine, _) = stockfish(&path, Strength::Level(20));
    // Black has no queen, and is to move: its own score is bad, White's view is good.
    let start_position = position("rnb1kbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    let ticket = engine.analyse(&start_position, &[], 3);
    let lines = analysis_until(&engine, ticket, |lines| {
        lines.len() == 3
            && lines
                .iter()
                .all(|l| l.depth >= 10 && l.depth == lines[0].depth)
    });
    engine.stop();
    let firsts: Vec<Move> = lines.iter().map(|l| l.pv[0]).collect();
    let distinct = firsts
        .iter()
        .enumerate()
        .all(|(i, first)| !firsts[..i].contains(first));
    assert!(distinct, "{lines:?}");
    for line in &lines {
        assert!(start_position.is_legal(line.pv[0]));
        assert!(
            matches!(line.score, Score::Centipawns(cp) if cp > 500)
                || matches!(
                    line.score,
                    Score::Mate {
                        winner: Color::White,
                        ..
                    }
                ),
            "{line:?}"
        );
    }
    assert!(lines.iter().any(|l| l.pv.len() > 1), "{lines:?}");
    // Stopped, it answers at once.
    engine.think(&start_position, &[]);
    loop {
        match next(&engine) {
            Reply::BestMove { mv, .. } => {
                assert!(start_position.is_legal(mv));
                break;
            }
            Reply::Analysis { .. } => {}
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn stockfish_plays_chess960_and_castles_king_takes_rook() {
    let Some(path) = common::stockfish_or_skip() else {
        return;
    };
    let (engine, _) = stockfish(&path, Strength::Nodes(2000));
    // Chess960 start 0, against itself.
    let start_position = position("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1");
    assert_eq!(play_itself(&engine, &start_position, 12).len(), 12);
    // Castling long mates: king b1 to c1, rook a1 to d1 (said `b1a1`).
    let mate_in_one = position("2rkr3/2p1p3/8/8/8/8/8/RK6 w A - 0 1");
    let castle = Move::Castle {
        king: Square::B1,
        rook: Square::A1,
    };
    engine.think(&mate_in_one, &[]);
    assert_eq!(next(&engine), Reply::BestMove { ply: 0, mv: castle });
    let mut after = mate_in_one.clone();
    after.play_unchecked(castle);
    assert!(after.is_checkmate());
    // The adviser, at full strength, gives the same as a hint.
    let patience = Patience {
        movetime: Duration::from_millis(200),
        ..Patience::default()
    };
    let mut adviser = Adviser::start(&path, patience, Arc::new(|| {}));
    adviser.hint(&mate_in_one, &[]);
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    while adviser.hint_for(&mate_in_one, &[]).is_none() {
        adviser.poll();
        assert!(adviser.fault().is_none(), "{:?}", adviser.fault());
        assert!(std::time::Instant::now() < deadline, "no hint in time");
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(adviser.hint_for(&mate_in_one, &[]), Some(castle));
}

// ----- the engine's side of a game, after takebacks on the board -----

/// A board with a real recognizer reading it, move by move, as the connection would, and
/// the game's clocks following its events on its time.
struct Table {
    board: PhysicalBoard,
    recognizer: Recognizer,
    clocks: GameClocks,
    t: u64,
}

impl Table {
    fn new() -> Self {
        Self::on_clock(None)
    }

    fn on_clock(control: Option<TimeControl>) -> Self {
        let mut table = Self {
            board: PhysicalBoard::empty(),
            recognizer: Recognizer::new(Config {
                orientation: BoardOrientation::Normal,
                ..Config::default()
            }),
            clocks: GameClocks::new(control),
            t: 0,
        };
        table.act(Action::SetUp(Chess::default()));
        table
    }

    fn act(&mut self, action: Action) {
        self.board.apply(&action);
        self.t += 300;
        let reading = Reading::Occupancy(self.board.occupancy());
        for event in self.recognizer.feed(TimedReading::new(self.t, reading)) {
            self.clocks.on_event(&event);
        }
    }

    /// The clocks as the engine is told them now.
    fn engine_clock(&self) -> Option<EngineClock> {
        EngineClock::of(&self.clocks, self.t)
    }

    fn play(&mut self, uci: &str) {
        let position = self.recognizer.position().clone();
        for action in move_actions(&position, mv(&position, uci), &HandStyle::default()) {
            self.act(action);
        }
        assert_eq!(self.ply_moves().last(), Some(&uci.to_owned()));
    }

    fn ply_moves(&self) -> Vec<String> {
        common::uci_moves(&self.recognizer.game())
    }

    fn snapshot(&self) -> Snapshot {
        Snapshot::of(&self.recognizer, 0)
    }
}

/// Hears the engine (at the time `at`) until it gives its move; the board then awaits it.
fn engine_move(play: &mut EnginePlay, table: &mut Table, at: Instant) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let (lines, expect) = play.hear(&table.snapshot(), at);
        assert!(
            !lines.iter().any(|l| l.starts_with("engine fault")),
            "{lines:?}"
        );
        if let Some(said) = lines.iter().find(|l| l.starts_with("engine ")) {
            table.recognizer.expect_move(expect);
            return said.trim_start_matches("engine ").to_owned();
        }
        assert!(Instant::now() < deadline, "the engine did not move");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn after_a_takeback_the_engine_waits_for_the_board_to_be_still() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = analysing_engine(
        dir.path(),
        GOOD_UCI,
        "case \"$position\" in *g1f3) echo 'bestmove b8c6';; *) echo 'bestmove e7e5';; esac",
        "",
    );
    // The time is the test's: `t0` + seconds.
    let t0 = Instant::now();
    let at = |seconds: f64| t0 + Duration::from_secs_f64(seconds);
    let mut play = EnginePlay::start(&path, Color::Black, Strength::Level(3), Arc::new(|| {}))
        .with_pause(Duration::from_secs(2));
    let mut table = Table::new();
    play.on_snapshot_at(&table.snapshot(), at(0.0));
    for (ply, (mine, engines)) in [("e2e4", "e7e5"), ("g1f3", "b8c6")].iter().enumerate() {
        table.play(mine);
        play.on_snapshot_at(&table.snapshot(), at(ply as f64));
        assert_eq!(engine_move(&mut play, &mut table, at(ply as f64)), *engines);
        table.play(engines);
        play.on_snapshot_at(&table.snapshot(), at(ply as f64));
    }

    // The player takes back the engine's move: it is the engine's turn, but it waits.
    let knight = |color| Piece {
        color,
        role: Role::Knight,
    };
    table.act(Action::Lift(Square::C6));
    table.act(Action::Place(Square::B8, knight(Color::Black)));
    assert_eq!(table.ply_moves(), ["e2e4", "e7e5", "g1f3"]);
    play.on_snapshot_at(&table.snapshot(), at(10.0));
    assert!(play.is_holding() && !play.is_thinking());
    let (lines, _) = play.hear(&table.snapshot(), at(10.5));
    assert_eq!(lines, [TAKEBACK_WAIT_WORDS]);
    // Hands at the board start the pause again: 1.5 s after the lift is not enough.
    table.act(Action::Lift(Square::F3));
    play.on_snapshot_at(&table.snapshot(), at(11.5));
    let (lines, _) = play.hear(&table.snapshot(), at(13.0));
    assert!(lines.is_empty(), "{lines:?}");
    assert!(!play.is_thinking());
    // Then the player's own move goes back too: no engine move came between.
    table.act(Action::Place(Square::G1, knight(Color::White)));
    assert_eq!(table.ply_moves(), ["e2e4", "e7e5"]);
    play.on_snapshot_at(&table.snapshot(), at(13.5));
    assert!(!play.is_holding());
    let (lines, expect) = play.hear(&table.snapshot(), at(30.0));
    assert!(lines.is_empty() && expect.is_none(), "{lines:?}");
    assert!(!play.is_thinking());

    // The same move again; this time only the engine's reply is taken back, and after
    // the pause the engine plays again.
    table.play("g1f3");
    play.on_snapshot_at(&table.snapshot(), at(31.0));
    assert_eq!(engine_move(&mut play, &mut table, at(31.0)), "b8c6");
    table.play("b8c6");
    play.on_snapshot_at(&table.snapshot(), at(32.0));
    table.act(Action::Lift(Square::C6));
    table.act(Action::Place(Square::B8, knight(Color::Black)));
    play.on_snapshot_at(&table.snapshot(), at(40.0));
    let (lines, _) = play.hear(&table.snapshot(), at(41.0));
    assert_eq!(lines, [TAKEBACK_WAIT_WORDS]);
    assert!(!play.is_thinking());
    assert_eq!(engine_move(&mut play, &mut table, at(42.5)), "b8c6");
}

#[test]
fn a_new_game_is_no_takeback_and_the_engine_opens_at_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = analysing_engine(
        dir.path(),
        GOOD_UCI,
        "case \"$position\" in *e7e5) echo 'bestmove g1f3';; *) echo 'bestmove e2e4';; esac",
        "",
    );
    let now = Instant::now();
    let mut play = EnginePlay::start(&path, Color::White, Strength::Level(3), Arc::new(|| {}));
    let mut table = Table::new();
    play.on_snapshot_at(&table.snapshot(), now);
    assert_eq!(engine_move(&mut play, &mut table, now), "e2e4");
    table.play("e2e4");
    play.on_snapshot_at(&table.snapshot(), now);
    table.play("e7e5");
    play.on_snapshot_at(&table.snapshot(), now);
    assert_eq!(engine_move(&mut play, &mut table, now), "g1f3");
    table.play("g1f3");
    play.on_snapshot_at(&table.snapshot(), now);
    // The pieces set up again: a new game, and the engine has the first move.
    table.act(Action::SetUp(Chess::default()));
    let snapshot = table.snapshot();
    assert!(snapshot.game.moves.is_empty() && snapshot.games.len() == 2);
    play.on_snapshot_at(&snapshot, now);
    assert!(!play.is_holding() && play.is_thinking());
    assert_eq!(engine_move(&mut play, &mut table, now), "e2e4");
}

// ----- the engine on a clock -----

/// The `go` lines the fake engine was told, in order.
fn told_go(dir: &Path) -> Vec<String> {
    told(dir)
        .into_iter()
        .filter(|line| line.starts_with("go"))
        .collect()
}

#[test]
fn on_a_clock_the_engine_is_told_both_times_and_without_one_a_move_time() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = analysing_engine(
        dir.path(),
        GOOD_UCI,
        "case \"$position\" in *e2e4) echo 'bestmove e7e5';; *g1f3) echo 'bestmove b8c6';; \
         *) echo 'bestmove g8f6';; esac",
        "",
    );
    let now = Instant::now();
    let mut play = EnginePlay::start(&path, Color::Black, Strength::Level(3), Arc::new(|| {}));
    let mut table = Table::on_clock(Some("1+2".parse().expect("a time control")));
    // The owner's part: the clocks at the board's time, then the snapshot.
    let show = |play: &mut EnginePlay, table: &Table| {
        play.set_clock(table.engine_clock());
        play.on_snapshot_at(&table.snapshot(), now);
    };
    show(&mut play, &table);
    let mut asked = Vec::new();
    for (mine, engines) in [("e2e4", "e7e5"), ("g1f3", "b8c6")] {
        table.play(mine);
        asked.push(table.engine_clock().expect("the clock runs"));
        show(&mut play, &table);
        assert_eq!(engine_move(&mut play, &mut table, now), engines);
        table.play(engines);
        show(&mut play, &table);
    }
    // The clock stops: the engine thinks its fixed time again.
    table.clocks.set_control(None, table.t);
    table.play("f1c4");
    show(&mut play, &table);
    assert_eq!(engine_move(&mut play, &mut table, now), "g8f6");

    let go = told_go(dir.path());
    assert_eq!(go.len(), 3, "{go:?}");
    for (line, clock) in go.iter().zip(&asked) {
        assert_eq!(
            line,
            &format!(
                "go wtime {} btime {} winc 2000 binc 2000 movetime 1000",
                clock.white_ms, clock.black_ms
            )
        );
    }
    // White moved at once with 2 s back each move; Black had not moved at the first ask,
    // and thought on the board's time for its first move.
    assert!(asked.iter().all(|c| c.white_ms > 60_000), "{asked:?}");
    assert_eq!(asked[0].black_ms, 60_000);
    assert!(asked[1].black_ms < 62_000, "{asked:?}");
    assert_eq!(go[2], "go movetime 1000");
}

#[test]
fn on_a_clock_a_node_budget_is_sent_with_the_times() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = analysing_engine(dir.path(), GOOD_UCI, "echo 'bestmove e2e4'", "");
    let engine = Engine::start(&path, Strength::Nodes(50), PATIENCE, Arc::new(|| {}));
    assert!(matches!(next(&engine), Reply::Ready { .. }));
    let clock = EngineClock::at("1+0".parse().expect("tc"), 4_000, 5_000);
    engine.think_on_clock(&Chess::default(), &[], Some(clock));
    assert!(matches!(next(&engine), Reply::BestMove { .. }));
    engine.think(&Chess::default(), &[]);
    assert!(matches!(next(&engine), Reply::BestMove { .. }));
    assert_eq!(
        told_go(dir.path()),
        [
            "go wtime 4000 btime 5000 winc 0 binc 0 nodes 50",
            "go nodes 50"
        ]
    );
}

/// An engine that answers `e2e4` 1.5 s after `go`, given `patience`.
fn slow_engine(dir: &Path, patience: Patience) -> Engine {
    let path = fake_engine(dir, GOOD_UCI, "sleep 1.5; echo 'bestmove e2e4'");
    let engine = Engine::start(&path, Strength::Level(3), patience, Arc::new(|| {}));
    assert!(matches!(next(&engine), Reply::Ready { .. }));
    engine
}

/// The silence fault's words, or a panic naming what came instead.
fn silence(engine: &Engine) -> String {
    match next(engine) {
        Reply::Fault(fault @ EngineFault::Silent { .. }) => fault.to_string(),
        other => panic!("expected silence, got {other:?}"),
    }
}

#[test]
fn on_a_clock_the_engine_thinks_its_move_time_or_less_when_its_clock_is_shorter() {
    let control: TimeControl = "1+0".parse().expect("tc");
    // A move time of 3 s: with 4 s on its clock the engine may take 3 s (and the margin),
    // so 1.5 s is well within it; told `movetime 3000` beside its clock.
    let unhurried = Patience {
        movetime: Duration::from_secs(3),
        ..PATIENCE
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let engine = slow_engine(dir.path(), unhurried);
    let plenty = EngineClock::at(control, 4_000, 100);
    engine.think_on_clock(&Chess::default(), &[], Some(plenty));
    assert_eq!(next(&engine), Reply::BestMove { ply: 0, mv: e4() });
    assert_eq!(
        told_go(dir.path()),
        ["go wtime 4000 btime 100 winc 0 binc 0 movetime 3000"]
    );
    // With 0.5 s left, waited for that and the margin, it is taken for hung.
    let scarce = EngineClock::at(control, 500, 60_000);
    engine.think_on_clock(&Chess::default(), &[], Some(scarce));
    let words = silence(&engine);
    assert!(
        words.contains("did not answer 'go' within 1.2 s"),
        "{words}"
    );
    // A move time of 0.1 s caps a long clock: 0.1 s and the margin.
    let dir = tempfile::tempdir().expect("temp dir");
    let engine = slow_engine(dir.path(), PATIENCE);
    engine.think_on_clock(&Chess::default(), &[], Some(plenty));
    let words = silence(&engine);
    assert!(words.contains("within 0.8 s"), "{words}");
    // Without a clock the same: its move time and the margin.
    let dir = tempfile::tempdir().expect("temp dir");
    let engine = slow_engine(dir.path(), PATIENCE);
    engine.think(&Chess::default(), &[]);
    let words = silence(&engine);
    assert!(words.contains("within 0.8 s"), "{words}");
}

#[test]
fn stockfish_on_a_six_second_clock_answers_within_its_time() {
    let Some(path) = common::stockfish_or_skip() else {
        return;
    };
    let (engine, _) = stockfish(&path, Strength::Level(20));
    let control: TimeControl = "0.1+0".parse().expect("tc");
    // The clock runs on the test's time, from the first `go`.
    let mut clock = Clock::new(control, Color::White);
    let t0 = Instant::now();
    let now = || t0.elapsed().as_millis() as u64;
    clock.start(now());
    let mut position = Chess::default();
    let mut moves = Vec::new();
    for ply in 1..=16 {
        if position.is_game_over() {
            break;
        }
        let times = EngineClock::at(
            control,
            clock.left(Color::White, now()),
            clock.left(Color::Black, now()),
        );
        engine.think_on_clock(&Chess::default(), &moves, Some(times));
        let Reply::BestMove { mv, .. } = next(&engine) else {
            panic!("no move at ply {ply}");
        };
        clock.moved(ply, now());
        let left = clock.after(ply).expect("the ply is on the clock");
        assert!(left > 0, "the flag fell at ply {ply}");
        assert!(position.is_legal(mv));
        position.play_unchecked(mv);
        moves.push(mv);
    }
    assert!(moves.len() >= 10, "{moves:?}");
}
