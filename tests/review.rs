//! Games reviewed by Stockfish: a planted blunder is marked `??` with a better move that
//! keeps the queen, a game the engine played against itself is more accurate than one with
//! blunders, and `boardsight review` writes annotated PGN that reads back.

mod common;

use std::path::Path;
use std::process::Command;
use std::sync::Arc;
use std::time::Duration;

use boardsight::GameRecord;
use boardsight::engine::{Engine, Patience, Reply, SearchLimit, Strength};
use boardsight::pgn::read_games;
use boardsight::review::{GameReview, Judgement, Reviewer, parse_eval};
use shakmaty::{Chess, Move, Position};

/// A game from SAN moves.
fn game(sans: &str) -> GameRecord {
    GameRecord::from_san(Chess::default(), sans).expect("legal moves")
}

fn review(path: &Path, game: &GameRecord, limit: SearchLimit) -> GameReview {
    let mut reviewer = Reviewer::start(path, game, limit, Arc::new(|| {}));
    let mut waited = Duration::ZERO;
    while !reviewer.is_finished() {
        assert!(
            waited < Duration::from_secs(120),
            "the review did not finish"
        );
        reviewer.wait(Duration::from_millis(100));
        waited += Duration::from_millis(100);
    }
    assert!(reviewer.fault().is_none(), "{:?}", reviewer.fault());
    let (searching, wall) = reviewer.busy();
    println!("engine searched {searching:?} of {wall:?}");
    reviewer.review().clone()
}

/// 1. e4 d6 2. Qg4?? leaves the queen to the bishop on c8.
const QUEEN_LEFT: &str = "1. e4 d6 2. Qg4 Bxg4 3. Nf3 Nf6";

#[test]
fn a_queen_left_en_prise_is_a_blunder_and_the_better_move_keeps_it() {
    let Some(path) = common::stockfish_or_skip() else {
        return;
    };
    let game = game(QUEEN_LEFT);
    let review = review(&path, &game, SearchLimit::Depth(12));
    assert_eq!(review.evaluated(), game.moves.len() + 1);
    // Ply 3 is 2. Qg4.
    assert_eq!(review.judgement(&game, 3), Some(Judgement::Blunder));
    // Taking the queen is no mistake, and neither are the quiet first moves.
    for ply in [1, 2, 4] {
        assert_eq!(review.judgement(&game, ply), None, "ply {ply}");
    }
    let better = review.best_line(2).expect("a best line before 2. Qg4");
    let queen_move: Move = game.moves[2];
    assert_ne!(better[0], queen_move);
    // After the better move the queen is not en prise to the bishop.
    let mut position = game.positions()[2].clone();
    position.play_unchecked(better[0]);
    let bishop_takes_a_queen = position
        .legal_moves()
        .iter()
        .any(|m| m.role() == shakmaty::Role::Bishop && m.capture() == Some(shakmaty::Role::Queen));
    assert!(!bishop_takes_a_queen, "{:?}", better[0]);
    // The annotated notes carry it: `$4`, the evaluation, the better line.
    let notes = review.notes(&game);
    assert_eq!(notes[3].nag, Some(4));
    assert!(
        notes[3].comments[0].starts_with("[%eval -"),
        "{:?}",
        notes[3]
    );
    assert_eq!(notes[3].variation.first(), Some(&better[0]));
}

/// Stockfish's moves against itself, `plies` of them, at a fixed node count.
fn self_play(path: &Path, plies: usize) -> GameRecord {
    let engine = Engine::start(
        path,
        Strength::Nodes(20_000),
        Patience::default(),
        Arc::new(|| {}),
    );
    let mut moves = Vec::new();
    let mut position = Chess::default();
    for _ in 0..plies {
        engine.think(&Chess::default(), &moves);
        let mv = loop {
            match engine.replies.recv_timeout(Duration::from_secs(30)) {
                Ok(Reply::BestMove { mv, .. }) => break mv,
                Ok(Reply::Fault(fault)) => panic!("{fault}"),
                Ok(_) => {}
                Err(e) => panic!("no move: {e}"),
            }
        };
        position.play_unchecked(mv);
        moves.push(mv);
        if position.is_game_over() {
            break;
        }
    }
    GameRecord {
        start: Chess::default(),
        moves,
    }
}

#[test]
fn a_game_the_engine_played_against_itself_is_more_accurate_than_one_with_blunders() {
    let Some(path) = common::stockfish_or_skip() else {
        return;
    };
    let limit = SearchLimit::Depth(10);
    let clean = self_play(&path, 16);
    let clean_review = review(&path, &clean, limit);
    // White gives away a bishop, then the queen, then a knight.
    let blunders = game("1. e4 d6 2. Ba6 bxa6 3. Qg4 Bxg4 4. Nf3 Bxf3 5. gxf3 Nf6");
    let blunders_review = review(&path, &blunders, limit);
    let (clean_white, clean_black) = clean_review.accuracy(&clean);
    let (blundered_white, _) = blunders_review.accuracy(&blunders);
    let (clean_white, clean_black) = (clean_white.expect("White"), clean_black.expect("Black"));
    let blundered_white = blundered_white.expect("White");
    println!(
        "accuracy: self-play {clean_white:.1} / {clean_black:.1}, blunders {blundered_white:.1}"
    );
    assert!(clean_white > blundered_white + 20.0);
    assert!(clean_black > blundered_white + 20.0);
    // 2. Ba6 is a blunder; 3. Qg4 is marked too, but a lost game loses less: from about
    // −4.5 to −8.5 pawns is a drop of about 0.24 in winning chances, at the edge of a
    // mistake (0.2), and the engine's evaluations differ by a few centipawns between runs.
    assert_eq!(
        blunders_review.judgement(&blunders, 3),
        Some(Judgement::Blunder)
    );
    assert!(blunders_review.judgement(&blunders, 5) >= Some(Judgement::Inaccuracy));
}

/// `boardsight review INPUT --depth 8 --out OUTPUT [--gif GIF]` with `engine`.
fn review_command(
    input: &Path,
    engine: &Path,
    output: &Path,
    gif: Option<&Path>,
) -> std::process::ExitStatus {
    let mut command = Command::new(env!("CARGO_BIN_EXE_boardsight"));
    command
        .arg("review")
        .arg(input)
        .arg("--engine")
        .arg(engine)
        .args(["--depth", "8", "--out"])
        .arg(output);
    if let Some(gif) = gif {
        command.arg("--gif").arg(gif);
    }
    command.status().expect("review runs")
}

#[test]
fn the_review_command_writes_annotated_pgn_that_reads_back() {
    let Some(path) = common::stockfish_or_skip() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("games.pgn");
    let output = dir.path().join("reviewed.pgn");
    std::fs::write(
        &input,
        format!(
            "[Event \"Club\"]\n[White \"A\"]\n[Black \"B\"]\n[Result \"*\"]\n\n{QUEEN_LEFT} *\n\n\
             [Event \"Second\"]\n[Result \"1-0\"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n"
        ),
    )
    .expect("writes the input");
    assert!(review_command(&input, &path, &output, None).success());
    let text = std::fs::read_to_string(&output).expect("the annotated file");
    let games = read_games(text.as_bytes());
    assert_eq!(games.len(), 2, "{text}");
    let first = games[0].as_ref().expect("the first game reads back");
    assert_eq!(first.tags.event, "Club");
    let evals: Vec<usize> = first
        .comments
        .iter()
        .filter(|(_, c)| parse_eval(c).is_some())
        .map(|(ply, _)| *ply)
        .collect();
    assert_eq!(
        evals,
        (1..=first.game.moves.len()).collect::<Vec<_>>(),
        "{text}"
    );
    assert!(text.contains("2. Qg4 $4"), "{text}");
    assert!(
        text.contains("[Annotator \"boardsight, Stockfish"),
        "{text}"
    );
    assert!(text.contains("[WhiteAccuracy \""), "{text}");
    // The mate: every move but the last has an evaluation (a mated side has none).
    let second = games[1].as_ref().expect("the second game reads back");
    let evaluated = second
        .comments
        .iter()
        .filter(|(_, c)| parse_eval(c).is_some())
        .count();
    assert_eq!(evaluated, second.game.moves.len() - 1, "{text}");
    // A missing file is a plain message.
    let missing = Command::new(env!("CARGO_BIN_EXE_boardsight"))
        .arg("review")
        .arg(dir.path().join("none.pgn"))
        .output()
        .expect("review runs");
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("none.pgn"));
}

/// The squares whose centre shows a piece's white or black body, in a frame drawn with
/// White at the bottom.
#[cfg(feature = "app")]
fn pieces_seen(frame: &image::RgbaImage) -> shakmaty::Bitboard {
    let cell = frame.width() as f32 / 8.0;
    let mut seen = shakmaty::Bitboard::EMPTY;
    for square in shakmaty::Square::ALL {
        let points = [0.35, 0.5, 0.65]
            .iter()
            .flat_map(|&across| [0.5, 0.6, 0.7, 0.8].map(|down| (across, down)));
        let body = points.into_iter().any(|(across, down)| {
            let x = (f32::from(u8::from(square.file())) + across) * cell;
            let y = (7.0 - f32::from(u8::from(square.rank())) + down) * cell;
            let [r, g, b, _] = frame.get_pixel(x as u32, y as u32).0;
            let white = r.min(g).min(b) > 235;
            let black = r.max(g).max(b) < 70;
            white || black
        });
        if body {
            seen.add(square);
        }
    }
    seen
}

#[cfg(feature = "app")]
#[test]
fn a_reviewed_game_is_exported_as_an_animated_gif_a_frame_a_move() {
    use image::AnimationDecoder;
    let Some(path) = common::stockfish_or_skip() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("game.pgn");
    let gif = dir.path().join("game.gif");
    std::fs::write(&input, format!("[Event \"Club\"]\n\n{QUEEN_LEFT} *\n")).expect("writes");
    let output = dir.path().join("out.pgn");
    assert!(review_command(&input, &path, &output, Some(&gif)).success());
    let file = std::io::BufReader::new(std::fs::File::open(&gif).expect("the GIF"));
    let frames = image::codecs::gif::GifDecoder::new(file)
        .expect("a GIF")
        .into_frames()
        .collect_frames()
        .expect("its frames");
    let game = game(QUEEN_LEFT);
    assert_eq!(frames.len(), game.moves.len() + 1);
    let positions = game.positions();
    for (frame, position) in [
        (&frames[0], &positions[0]),
        (
            frames.last().expect("frames"),
            &positions[positions.len() - 1],
        ),
    ] {
        assert_eq!(
            pieces_seen(frame.buffer()),
            position.board().occupied(),
            "{}",
            boardsight::fen_of(position)
        );
    }
}
