//! PGN in and out through real files: round trips, malformed input at the right line,
//! `boardsight pgn check`, and continuing a loaded game on the board.

use std::path::Path;
use std::process::Command;

use boardsight::game::GameRecord;
use boardsight::pgn::{GameTags, PgnResult, read_games, write_game, write_game_with_comments};
use boardsight::reading::{Reading, TimedReading};
use boardsight::recognizer::{BoardStatus, EventKind, Recognizer};
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Position, Square};

fn data(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(name)
}

fn game_from_uci(moves: &[String]) -> GameRecord {
    GameRecord::from_uci(Chess::default(), moves.iter().map(String::as_str)).expect("legal moves")
}

#[test]
fn corpus_games_round_trip_with_tags() {
    let dir = data("corpus");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).expect("corpus") {
        let path = entry.expect("entry").path();
        if !path.to_string_lossy().ends_with(".truth.json") {
            continue;
        }
        let truth: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("json");
        for moves in truth["games"].as_array().expect("games") {
            let moves: Vec<String> = serde_json::from_value(moves.clone()).expect("moves");
            let game = game_from_uci(&moves);
            let tags = GameTags {
                event: "Club \"Open\" \\ 2026".into(),
                white: "Müller, Jörg".into(),
                black: "O'Neil".into(),
                round: "3".into(),
                ..GameTags::default()
            };
            let pgn = write_game(&game, &tags);
            // Movetext lines are wrapped at 80; a tag pair has a line of its own, however
            // long (an opening's full name may pass 80).
            assert!(
                pgn.lines()
                    .filter(|l| !l.starts_with('['))
                    .all(|l| l.len() <= 80),
                "{pgn}"
            );
            let read = read_games(pgn.as_bytes());
            assert_eq!(read.len(), 1);
            let read = read[0].as_ref().expect("reads back");
            assert_eq!(read.game, game);
            assert_eq!(read.tags.event, tags.event);
            assert_eq!(read.tags.white, tags.white);
            assert_eq!(read.tags.black, tags.black);
            assert_eq!(read.tags.date, tags.date);
            checked += 1;
        }
    }
    assert!(checked >= 200, "{checked} games");
}

#[test]
fn a_real_multi_game_file_round_trips_with_comments_and_extra_tags() {
    let bytes = std::fs::read(data("data/twic1599_100k.pgn")).expect("twic file");
    let games = read_games(&bytes);
    assert!(games.len() >= 100);
    let mut written = String::new();
    for game in &games {
        let game = game.as_ref().expect("every TWIC game is fine");
        written.push_str(&write_game_with_comments(
            &game.game,
            &game.tags,
            &game.comments,
        ));
    }
    assert!(written.lines().all(|l| l.len() <= 80));
    let again = read_games(written.as_bytes());
    assert_eq!(again.len(), games.len());
    for (first, second) in games.iter().zip(&again) {
        let (first, second) = (first.as_ref().expect("ok"), second.as_ref().expect("ok"));
        assert_eq!(first.game, second.game);
        assert_eq!(first.tags, second.tags);
        assert_eq!(first.comments, second.comments);
    }
    // The file's own tags survive: ECO and Elo are extra tags.
    let first = games[0].as_ref().expect("ok");
    assert_eq!(first.tags.white, "Praggnanandhaa,R");
    assert!(
        first
            .tags
            .extra
            .iter()
            .any(|(k, v)| k == "ECO" && v == "E81")
    );
}

#[test]
fn the_result_comes_from_the_final_position_unless_set() {
    let mate = game_from_uci(&["f2f3", "e7e5", "g2g4", "d8h4"].map(String::from));
    assert!(write_game(&mate, &GameTags::default()).contains("2. g4 Qh4# 0-1"));
    let tags = GameTags {
        result: Some(PgnResult::Draw),
        ..GameTags::default()
    };
    let short = game_from_uci(&["e2e4".to_owned()]);
    assert!(write_game(&short, &tags).contains("[Result \"1/2-1/2\"]"));
    assert!(write_game(&short, &GameTags::default()).contains("1. e4 *"));
}

/// UCI moves, space-separated, as `game_from_uci` takes them.
fn uci(moves: &str) -> Vec<String> {
    moves.split_whitespace().map(String::from).collect()
}

/// The tags that name an opening, as a game read back has them.
fn opening_tags(eco: &str, name: &str) -> Vec<(String, String)> {
    vec![
        ("ECO".to_owned(), eco.to_owned()),
        ("Opening".to_owned(), name.to_owned()),
    ]
}

#[test]
fn written_games_name_their_opening_after_the_other_tags() {
    let berlin = game_from_uci(&uci("e2e4 e7e5 g1f3 b8c6 f1b5 g8f6"));
    let tags = GameTags {
        event: "Club".into(),
        date: "2026.01.02".into(),
        extra: vec![("TimeControl".into(), "300+3".into())],
        ..GameTags::default()
    };
    let text = write_game(&berlin, &tags);
    assert_eq!(
        text,
        "[Event \"Club\"]\n[Site \"?\"]\n[Date \"2026.01.02\"]\n[Round \"?\"]\n\
         [White \"?\"]\n[Black \"?\"]\n[Result \"*\"]\n[TimeControl \"300+3\"]\n\
         [ECO \"C65\"]\n[Opening \"Ruy Lopez: Berlin Defense\"]\n\n\
         1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6 *\n\n"
    );
    // Read back and written again, the game names its opening once, as before.
    let back = read_games(text.as_bytes()).remove(0).expect("reads back");
    assert_eq!(write_game(&back.game, &back.tags), text);

    // The PGN of a session (the app's, `listen`'s, `replay`'s and the live file's) names
    // every game's opening: a Najdorf, and a Queen's Gambit Declined reached by 1. Nf3.
    let najdorf = game_from_uci(&uci("e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6"));
    let qgd = game_from_uci(&uci("g1f3 d7d5 d2d4 g8f6 c2c4 e7e6 b1c3"));
    let annotations = vec![(GameTags::default(), Vec::new()); 2];
    let session = boardsight::pgn::live::session_pgn(&[najdorf, qgd], &annotations);
    let openings: Vec<Vec<(String, String)>> = read_games(session.as_bytes())
        .into_iter()
        .map(|game| game.expect("reads back").tags.extra)
        .collect();
    assert_eq!(
        openings,
        [
            opening_tags("B90", "Sicilian Defense: Najdorf Variation"),
            opening_tags("D37", "Queen's Gambit Declined: Three Knights Variation"),
        ]
    );

    // A game whose tags name its opening keeps them; one with no move, or from another
    // start, names none.
    let own = GameTags {
        extra: vec![("ECO".into(), "C60".into())],
        ..GameTags::default()
    };
    let text = write_game(&berlin, &own);
    assert_eq!(text.matches("[ECO ").count(), 1, "{text}");
    assert!(
        text.contains("[ECO \"C60\"]") && !text.contains("[Opening "),
        "{text}"
    );
    let empty = write_game(&GameRecord::new(Chess::default()), &GameTags::default());
    assert!(!empty.contains("[ECO ") && !empty.contains("[Opening "));
    let start = boardsight::chess960::start_position(3).expect("a start");
    let chess960 = GameRecord::from_uci(start, ["e2e4", "e7e5"]).expect("legal");
    let text = write_game(&chess960, &GameTags::default());
    assert!(!text.contains("[ECO ") && !text.contains("[Opening "));
}

fn errors_of(text: &[u8]) -> Vec<String> {
    read_games(text)
        .into_iter()
        .filter_map(Result::err)
        .map(|e| e.to_string())
        .collect()
}

#[test]
fn malformed_games_are_reported_at_their_line_and_the_others_load() {
    let text = "[Event \"one\"]\n\n1. e4 e5 2. Nf3 *\n\n\
                [Event \"two\"]\n\n1. e4 e5\n2. Nf3 Nf6 3. Nxe5 Ke7 4. Qh5 Nf6 *\n\n\
                [Event \"three\"]\n\n1. d4 d5 *\n";
    let games = read_games(text.as_bytes());
    assert_eq!(games.len(), 3);
    assert!(games[0].is_ok() && games[2].is_ok());
    let error = games[1].as_ref().expect_err("game two is wrong");
    assert_eq!(
        error.to_string(),
        "game 2: line 8: illegal move 'Nf6' for Black (ply 8)"
    );
}

#[test]
fn each_kind_of_malformed_input_gets_its_own_message() {
    let cases: [(&[u8], &str); 7] = [
        (
            b"[Event \"x\"]\n[SetUp \"1\"]\n[FEN \"8/8/8 w - - 0 1\"]\n\n1. e4 *\n",
            "game 1: line 3: bad FEN '8/8/8 w - - 0 1'",
        ),
        (
            b"[Event \"x\"]\n\n1. e4 e5\n2. Nf3 {a comment\nthat never ends 2... Nc6 *\n",
            "game 1: line 4: unterminated comment",
        ),
        (
            b"[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6\n3. Bb5 a6 4.",
            "game 1: line 4: the game ends without a result",
        ),
        (
            b"[Event \"x\"]\n[Variant \"Atomic\"]\n\n1. e4 *\n",
            "game 1: line 2: unknown variant 'Atomic'",
        ),
        (b"", "game 1: line 1: the file holds no games"),
        (
            b"[Event \"x\"]\n\n1. e4 e5\n2. Zz9 Nc6 *\n",
            "game 1: line 4: 'Zz9' is not a move",
        ),
        (
            b"[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n",
            "game 1: line 3: illegal move 'Ke3'",
        ),
    ];
    for (text, expected) in cases {
        let errors = errors_of(text);
        assert_eq!(errors.len(), 1, "{expected}: {errors:?}");
        assert!(
            errors[0].starts_with(expected),
            "{} vs {expected}",
            errors[0]
        );
    }
}

#[test]
fn an_unterminated_comment_does_not_swallow_the_next_game() {
    let text = "[Event \"a\"]\n\n1. e4 { oops\n\n[Event \"b\"]\n\n1. d4 d5 *\n";
    let games = read_games(text.as_bytes());
    assert_eq!(games.len(), 2);
    assert!(games[0].is_err());
    assert_eq!(games[1].as_ref().expect("game b").game.moves.len(), 2);
}

#[test]
fn bom_and_latin1_files_read() {
    let mut with_bom = b"\xef\xbb\xbf".to_vec();
    with_bom.extend_from_slice(b"[Event \"x\"]\n[White \"Jos\xc3\xa9\"]\n\n1. e4 *\n");
    let game = read_games(&with_bom).remove(0).expect("reads");
    assert_eq!(game.tags.white, "José");
    let latin1 = b"[Event \"x\"]\n[White \"M\xfcller\"]\n\n1. e4 e5 *\n";
    let game = read_games(latin1).remove(0).expect("reads");
    assert_eq!(game.tags.white, "Müller");
    assert_eq!(game.game.moves.len(), 2);
}

#[test]
fn setup_and_fen_start_positions_are_read_and_written() {
    let text = "[Event \"x\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1\"]\n\n1... Kd7 2. e4 *\n";
    let game = read_games(text.as_bytes()).remove(0).expect("reads");
    assert_eq!(game.game.moves.len(), 2);
    let written = write_game(&game.game, &game.tags);
    assert!(
        written.contains("[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1\"]"),
        "{written}"
    );
    assert!(written.contains("1... Kd7 2. e4 *"), "{written}");
}

#[test]
fn pgn_check_prints_a_line_per_game_and_fails_on_a_bad_one() {
    let binary = env!("CARGO_BIN_EXE_boardsight");
    let output = Command::new(binary)
        .args(["pgn", "check"])
        .arg(data("data/twic1599_100k.pgn"))
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8(output.stdout).expect("utf-8");
    assert!(stdout.lines().all(|l| l.contains(": ok (")), "{stdout}");
    assert!(stdout.starts_with("game 1: ok (74 moves)"), "{stdout}");

    let dir = tempfile::tempdir().expect("temp dir");
    let bad = dir.path().join("bad.pgn");
    std::fs::write(
        &bad,
        "[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n\n1. e4 e5 2. Ke3 *\n",
    )
    .expect("write");
    let output = Command::new(binary)
        .args(["pgn", "check"])
        .arg(&bad)
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(1));
    let stdout = String::from_utf8(output.stdout).expect("utf-8");
    assert_eq!(
        stdout,
        "game 1: ok (2 moves)\ngame 2: line 7: illegal move 'Ke3' for White (ply 3)\n"
    );
}

#[test]
fn a_loaded_game_continues_on_the_board_once_it_matches() {
    let text = "[Event \"x\"]\n\n1. e4 e5 2. Nf3 *\n";
    let loaded = read_games(text.as_bytes()).remove(0).expect("reads");
    let mut recognizer = Recognizer::default();
    recognizer.continue_game(&loaded.game, 0);
    // The board still shows the start: the sensor grid says what differs.
    recognizer.feed(TimedReading::new(
        10,
        Reading::Occupancy(Chess::default().board().occupied()),
    ));
    let BoardStatus::Illegal { put_back, remove } = recognizer.status().clone() else {
        panic!("expected the board to differ: {:?}", recognizer.status());
    };
    assert!(put_back.contains(Square::E4) && put_back.contains(Square::F3));
    assert!(remove.contains(Square::E2) && remove.contains(Square::G1));
    // The user sets the board up as loaded, and plays on.
    let final_occupancy = loaded.game.final_position().board().occupied();
    let events = recognizer.feed(TimedReading::new(500, Reading::Occupancy(final_occupancy)));
    assert!(
        events
            .iter()
            .any(|e| matches!(e.kind, EventKind::NewGame { .. }))
    );
    let next = final_occupancy.without(Square::B8).with(Square::C6);
    recognizer.feed(TimedReading::new(
        900,
        Reading::Occupancy(next.without(Square::C6)),
    ));
    recognizer.feed(TimedReading::new(1200, Reading::Occupancy(next)));
    let moves: Vec<String> = recognizer
        .game()
        .moves
        .iter()
        .map(|&m| UciMove::from_standard(m).to_string())
        .collect();
    assert_eq!(moves, ["e2e4", "e7e5", "g1f3", "b8c6"]);
}

/// `pgn check` lines for a file of `tests/data`.
fn check_lines(name: &str) -> Vec<String> {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_boardsight"))
        .args(["pgn", "check"])
        .arg(data(&format!("data/{name}")))
        .output()
        .expect("runs");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn semantic_errors_are_found_at_their_lines_in_the_manner_of_kokopus_suite() {
    assert_eq!(
        check_lines("semantic-errors.pgn"),
        vec![
            // A blank line after a comment does not end the game: its moves are read.
            "game 1: line 6: illegal move 'O-O' for White (ply 1)",
            "game 2: line 9: a Chess960 game needs its start position in a FEN tag",
            "game 3: ok (2 moves)",
            "game 4: line 25: illegal move 'Kd3' for White (ply 9)",
            "game 5: ok (7 moves)",
        ]
    );
}

#[test]
fn line_numbers_count_comments_and_blank_lines_over_several_lines() {
    assert_eq!(
        check_lines("line-numbering.pgn"),
        vec![
            "game 1: line 10: illegal move 'Bc4' for White (ply 9)",
            "game 2: line 21: illegal move 'Nxa6' for White (ply 21)",
        ]
    );
}

#[test]
fn a_chess960_game_reads_from_its_fen_with_its_own_castling() {
    let text = b"[Variant \"Chess960\"]\n[SetUp \"1\"]\n\
        [FEN \"rnbqkrnb/pppppppp/8/8/8/8/PPPPPPPP/RNBQKRNB w AFaf - 0 1\"]\n\n\
        1. Nf3 Nf6 2. O-O O-O *\n";
    let games = read_games(text);
    let game = games[0].as_ref().expect("a legal Chess960 game");
    assert_eq!(game.game.moves.len(), 4);
    // King e1 and rook f1 castle short: the king goes to g1, the rook stays on f1.
    let board = game.game.final_position().board().clone();
    let white = |role| {
        Some(shakmaty::Piece {
            color: shakmaty::Color::White,
            role,
        })
    };
    assert_eq!(board.piece_at(Square::G1), white(shakmaty::Role::King));
    assert_eq!(board.piece_at(Square::F1), white(shakmaty::Role::Rook));
}

#[test]
fn clock_comments_are_never_broken_across_lines_and_read_back() {
    let game = boardsight::game::GameRecord::from_uci(
        shakmaty::Chess::default(),
        [
            "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1",
            "b7b5", "a4b3", "d7d6", "c2c3", "e8g8",
        ],
    )
    .expect("legal moves");
    let comments: Vec<(usize, String)> = (1..=game.moves.len())
        .map(|ply| (ply, format!("[%clk 0:04:{:02}]", 59 - ply)))
        .collect();
    let text = boardsight::pgn::write_game_with_comments(
        &game,
        &boardsight::pgn::GameTags::default(),
        &comments,
    );
    // Every clock command opens and closes on the same line of the movetext, and no line of
    // it begins with `[` (a reader would take it for a tag).
    let movetext = text.split_once("\n\n").expect("tags, then movetext").1;
    for line in movetext.lines() {
        assert!(!line.starts_with('['), "{line}");
        assert!(line.len() <= 80, "{line}");
        assert_eq!(
            line.matches("[%clk ").count(),
            line.matches(']').count(),
            "{line}"
        );
    }
    let back = boardsight::pgn::read_games(text.as_bytes())
        .remove(0)
        .expect("reads back");
    assert_eq!(back.comments, comments);
}

#[test]
fn a_chess960_game_is_written_with_its_variant_and_fen_and_reads_back_the_same() {
    // Start 3 (BQNNRKRB): king f1 and rook g1 swap when White castles short.
    let start = boardsight::chess960::start_position(3).expect("a start");
    let game = GameRecord::from_uci(
        start.clone(),
        [
            "f1g1", "f8g8", "d1e3", "c8b6", "c1d3", "d8c6", "b1c1", "b8b7",
        ]
        .into_iter()
        .take(6),
    )
    .expect("legal moves");
    let text = write_game(&game, &GameTags::default());
    assert!(text.contains("[Variant \"Chess960\"]\n"), "{text}");
    assert!(text.contains("[SetUp \"1\"]\n"), "{text}");
    assert!(
        text.contains("[FEN \"bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w KQkq - 0 1\"]"),
        "{text}"
    );
    assert!(text.contains("1. O-O O-O 2."), "{text}");
    let games = read_games(text.as_bytes());
    let back = &games[0].as_ref().expect("reads back").game;
    assert_eq!(back.start, start);
    assert_eq!(back.moves, game.moves);
    // Shredder-FEN castling reads as the same start.
    let shredder = "bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w GEge - 0 1";
    assert_eq!(boardsight::game::parse_fen(shredder).ok(), Some(start));
}

#[test]
fn the_standard_start_518_is_written_as_standard_chess() {
    let start = boardsight::chess960::start_position(518).expect("a start");
    let game = GameRecord::from_uci(start, ["e2e4"]).expect("legal");
    let text = write_game(&game, &GameTags::default());
    assert!(!text.contains("Variant"), "{text}");
    assert!(!text.contains("FEN"), "{text}");
}
