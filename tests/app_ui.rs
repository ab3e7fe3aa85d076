//! The desktop app driven as a user would, through egui_kittest (no GPU needed): the
//! built-in simulated board on a real pseudo-terminal, and recorded sensor logs.

mod common;
// The lichess stand-in, for the Online section.
#[allow(dead_code)]
#[path = "common/lichess.rs"]
mod lichess;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use boardsight::app::AppCommand;
use boardsight::pgn::autosave::Autosave;
use common::app::{
    click, click_at, click_sensor, drag, menu, open_menu, play_e4, set_up, step_for, wait_for,
    wait_for_contains,
};
use eframe::egui;
use egui_kittest::kittest::{NodeT, Queryable};

fn app(
    open_log: Option<PathBuf>,
    autosave_dir: &Path,
) -> egui_kittest::Harness<'static, boardsight::app::BoardsightApp> {
    common::app::app(open_log.as_deref(), Some(autosave_dir))
}

fn log(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/logs")
        .join(format!("{name}.log"))
}

#[test]
fn the_board_squares_are_labelled_for_screen_readers() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = app(None, dir.path());
    wait_for(&mut harness, "new game");
    harness.get_by_label("e2: white pawn");
    harness.get_by_label("g8: black knight");
    harness.get_by_label("e4: empty");
    harness.get_by_label("sensor e2: occupied");
    harness.get_by_label_contains("simulated board");
    harness.get_by_label("Moves: none yet");
    // A move half made is said as it stands, then the move list reads as text.
    click(&mut harness, "sensor e2: occupied");
    wait_for(&mut harness, "Move in progress: e2 lifted");
    click(&mut harness, "sensor e4: empty");
    wait_for(&mut harness, "Moves: 1. e4");
    click(&mut harness, "sensor e7: occupied");
    click(&mut harness, "sensor e5: empty");
    wait_for(&mut harness, "Moves: 1. e4 e5");
    harness.get_by_label("e5: black pawn");
}

#[test]
fn playing_on_the_simulated_board_shows_the_move_and_flags_illegal_states() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = app(None, dir.path());
    play_e4(&mut harness);
    harness.get_by_label("e4");
    harness.get_by_label("e2: empty");
    // The opening is named under the moves as it is played.
    wait_for(&mut harness, "B00 King's Pawn Game");
    // Two black pawns picked up and put down where no move takes them.
    click(&mut harness, "sensor d7: occupied");
    // (Lifted a moment after the first, not at once beside it: a piece the hand knocked
    // over as it lifted the first would be no alarm.)
    step_for(&mut harness, std::time::Duration::from_millis(600));
    click(&mut harness, "sensor e7: occupied");
    // Two pieces of one side in the air is no move: red at once.
    wait_for(&mut harness, "sensor e7: must change");
    click(&mut harness, "sensor d5: empty");
    click(&mut harness, "sensor e6: empty");
    wait_for(
        &mut harness,
        "Put the black pawns back on d7 and e7 · Remove the pieces on d5 and e6",
    );
    // Put back: the banner goes. (With three of the four put back, the board may already
    // read the last pawn as lifted, a move in progress, when it is clicked.)
    click(&mut harness, "sensor d5: must change");
    click_sensor(&mut harness, "e6");
    click_sensor(&mut harness, "d7");
    click_sensor(&mut harness, "e7");
    wait_for(&mut harness, "sensor d7: occupied");
    wait_for(&mut harness, "sensor e7: occupied");
    let left: Vec<String> = harness
        .query_all_by_label_contains("back on")
        .filter_map(|node| node.accesskit_node().label())
        .collect();
    assert!(left.is_empty(), "{left:?}");
    // The game was autosaved after the move.
    let unfinished = Autosave::new(dir.path()).unfinished();
    assert_eq!(unfinished.len(), 1, "one session autosaved");
    assert!(unfinished[0].pgn.contains("1. e4"), "{}", unfinished[0].pgn);
}

#[test]
fn a_click_on_the_promotion_picker_changes_the_move() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = app(None, dir.path());
    wait_for(&mut harness, "new game");
    set_up(&mut harness, "8/P6k/8/8/8/8/6Kp/8 w - - 0 1");
    harness.get_by_label("a7: white pawn");
    click(&mut harness, "sensor a7: occupied");
    wait_for(&mut harness, "sensor a7: move in progress");
    click(&mut harness, "sensor a8: empty");
    wait_for(&mut harness, "a8=Q");
    harness.get_by_label_contains("Promoted to queen");
    click(&mut harness, "Knight");
    wait_for(&mut harness, "a8=N");
    harness.get_by_label("a8: white knight");
    assert!(harness.query_by_label("a8=Q").is_none());
}

#[test]
fn the_promotion_keys_choose_the_next_promotion_before_the_move() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = app(None, dir.path());
    wait_for(&mut harness, "new game");
    // The choice is offered while a pawn is about to promote.
    set_up(&mut harness, "8/P6k/8/8/8/8/6Kp/8 w - - 0 1");
    harness.key_press(egui::Key::R);
    harness.step();
    // The choice goes to the recognizer, which reports it back as the pending piece.
    wait_for(
        &mut harness,
        "Next promotion: rook (click or press Q R B N)",
    );
}

#[test]
fn a_recorded_log_opens_in_a_timeline_that_steps_back_and_forth() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = app(Some(log("plain-moves")), dir.path());
    harness.run_steps(3);
    harness.get_by_label("Nf3");
    harness.get_by_label_contains("recording plain-moves.log");
    // One reading back: the knight was still in the air.
    click(&mut harness, "Step back");
    assert!(harness.query_by_label("Nf3").is_none());
    harness.get_by_label("sensor g1: move in progress");
    click(&mut harness, "Step forward");
    harness.get_by_label("Nf3");
    // Clicking an earlier move shows that position.
    click(&mut harness, "e4");
    harness.get_by_label("c7: black pawn");
    harness.get_by_label_contains("earlier move");
}

#[test]
fn an_ambiguous_capture_offers_its_candidates() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = app(Some(log("ambiguous-capture")), dir.path());
    harness.run_steps(3);
    // The timeline opens at the end of the recording; the guess was not committed yet.
    harness.get_by_label_contains("could not be seen for sure");
    // Both candidates are offered; the move list shows the likelier one meanwhile.
    let candidate = harness.get_by_role_and_label(egui::accesskit::Role::Button, "Nxd5");
    // A recording shows what happened: there is no board to take the choice.
    assert!(candidate.accesskit_node().is_disabled());
    assert_eq!(harness.get_all_by_label("Nxb5").count(), 2);
}

#[test]
fn a_malformed_log_is_reported_not_a_crash() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bad = dir.path().join("bad.log");
    std::fs::write(&bad, "0 occ ffff00000000ffff\n5 jump e2\n").expect("write");
    let mut harness = app(Some(bad), dir.path());
    harness.run_steps(3);
    harness.get_by_label_contains("line 2: unknown reading 'jump'");
}

#[test]
fn the_demo_game_plays_itself_on_the_simulated_board() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = app(None, dir.path());
    wait_for(&mut harness, "new game");
    menu(&mut harness, "Game", "Demo game");
    // The sample opens 1. e4 d5 2. e5 f5 3. exf6: en passant, seen through the sensors.
    wait_for(&mut harness, "exf6");
    harness.get_by_label("f6: white pawn");
    harness.get_by_label("f5: empty");
    menu(&mut harness, "Game", "Stop demo");
    open_menu(&mut harness, "Game");
    harness.get_by_label("Demo game");
}

#[test]
fn a_dead_sensor_is_shown_on_the_grid_in_plain_words() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = app(Some(log("dead-stuck-occupied")), dir.path());
    harness.run_steps(3);
    harness.get_by_label("The sensor under c3 always reads occupied; boardsight works around it");
    harness.get_by_label("sensor c3: dead sensor, worked around");
    // The game went on through the dead square: the knight left c3 for d5, and was taken.
    harness.get_by_label("exd5");
}

#[test]
fn a_board_turned_round_is_read_in_real_squares_and_said_so() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = app(Some(log("rotated-board")), dir.path());
    harness.run_steps(3);
    harness.get_by_label_contains("The board is set up turned round");
    harness.get_by_label("Nxd4");
    harness.get_by_label("d4: white knight");
}

#[test]
fn unsaved_games_of_an_earlier_run_are_offered_while_autosave_goes_on() {
    let dir = tempfile::tempdir().expect("temp dir");
    // An earlier run left a session with a game of two moves.
    let earlier = Autosave::new(dir.path());
    let mut session = earlier.session().expect("session");
    let game = boardsight::game::GameRecord::from_uci(shakmaty::Chess::default(), ["e2e4", "e7e5"])
        .expect("legal moves");
    session.save(&[game], &[]).expect("save");

    let mut harness = app(None, dir.path());
    wait_for(&mut harness, "new game");
    harness.get_by_label_contains("found 1 unsaved game");
    // While the question is open, a move on the board is autosaved in a session of its own.
    click(&mut harness, "sensor d2: occupied");
    click(&mut harness, "sensor d4: empty");
    wait_for(&mut harness, "d4: white pawn");
    // Autosave writes on its own thread: the new session's files come soon after.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while Autosave::new(dir.path()).unfinished().len() < 2 {
        assert!(
            std::time::Instant::now() < deadline,
            "the new session was never autosaved beside the earlier one"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
        harness.step();
    }
    click(&mut harness, "Discard");
    assert!(harness.query_by_label_contains("unsaved game").is_none());
}

#[test]
fn a_large_pgn_lists_its_games_and_the_chosen_one_goes_on_the_board() {
    let dir = tempfile::tempdir().expect("temp dir");
    // The sample file ten times over: 1,100 games, listed from their tags.
    let sample = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/twic1599_100k.pgn"),
    )
    .expect("sample");
    let games_in_sample = sample.matches("[Event ").count();
    let big = dir.path().join("big.pgn");
    std::fs::write(&big, sample.repeat(10)).expect("write");
    let mut harness = app(None, dir.path());
    wait_for(&mut harness, "new game");
    harness
        .state_mut()
        .push_command(AppCommand::LoadPgn(big.clone()));
    common::app::settle(&mut harness);
    harness.get_by_label(&format!("{} games in big.pgn", games_in_sample * 10));
    // Only the rows in view are drawn, not a thousand.
    assert!(harness.query_by_label_contains("1000. ").is_none());
    harness
        .get_by_label_contains("1. Praggnanandhaa,R – Rapport,R")
        .click();
    harness.step();
    harness.step();
    // The board now holds that game: its moves are listed, up to its last.
    let first = boardsight::pgn::read_games(sample.as_bytes())
        .remove(0)
        .expect("the sample's first game");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while harness.state().session().view().moves != first.game.moves {
        assert!(
            std::time::Instant::now() < deadline,
            "the chosen game never came"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
        harness.step();
    }
    assert!(
        harness
            .query_by_label_contains("games in big.pgn")
            .is_none()
    );
}

#[test]
fn a_file_that_cannot_be_read_is_named_in_a_notice() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = app(None, dir.path());
    wait_for(&mut harness, "new game");
    let missing = dir.path().join("nowhere.pgn");
    harness
        .state_mut()
        .push_command(AppCommand::LoadPgn(missing.clone()));
    common::app::settle(&mut harness);
    harness.get_by_label_contains(&format!("{}:", missing.display()));
    let not_pgn = dir.path().join("empty.pgn");
    std::fs::write(&not_pgn, "\n\n").expect("write");
    harness
        .state_mut()
        .push_command(AppCommand::LoadPgn(not_pgn.clone()));
    common::app::settle(&mut harness);
    harness.get_by_label_contains("empty.pgn: the file holds no games");
}

#[test]
fn the_table_view_comes_with_f11_and_goes_with_escape() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = app(Some(log("plain-moves")), dir.path());
    harness.get_by_label_contains("Moves: ");
    harness.key_press(egui::Key::F11);
    harness.run_steps(2);
    // The game in large words: whose move, the moves, the board; no side panels.
    harness.get_by_label("Black to move");
    harness.get_by_label("1. e4 c5");
    harness.get_by_label("2. Nf3");
    harness.get_by_label("g1: empty");
    harness.get_by_label("Leave table view (Esc)");
    assert!(harness.query_by_label_contains("Moves: ").is_none());
    harness.key_press(egui::Key::Escape);
    harness.run_steps(2);
    harness.get_by_label_contains("Moves: ");
    assert!(harness.query_by_label("Leave table view (Esc)").is_none());
    // And by its button.
    click(&mut harness, "Table view (toolbar)");
    click(&mut harness, "Leave table view (Esc)");
    harness.get_by_label_contains("Moves: ");
}

#[test]
fn the_time_strip_seeks_on_a_click_and_its_lanes_pick_out_a_square() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = app(Some(log("plain-moves")), dir.path());
    harness.get_by_label("Nf3");
    // A click at the strip's left end goes back to the start: no moves yet.
    let rect = harness.get_by_label("time strip").rect();
    click_at(
        &mut harness,
        egui::pos2(rect.left() + 40.0, rect.center().y),
    );
    assert!(harness.query_by_label("Nf3").is_none());
    assert!(harness.query_by_label("e4").is_none());
    // One near the right end: the whole game again.
    let rect = harness.get_by_label("time strip").rect();
    click_at(
        &mut harness,
        egui::pos2(rect.right() - 1.0, rect.center().y),
    );
    harness.get_by_label("Nf3");
    // The lane of e4 picks e4 out on the sensor grid; a second click puts it back.
    click(&mut harness, "lane e4");
    harness.get_by_label("sensor e4: occupied, picked out");
    click(&mut harness, "lane e4");
    harness.get_by_label("sensor e4: occupied");
}

#[test]
fn sensor_health_shows_the_flickering_square_of_a_bouncing_board() {
    let dir = tempfile::tempdir().expect("temp dir");
    let field = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/field/bounce-change-000.log");
    let mut harness = app(Some(field), dir.path());
    click(&mut harness, "Sensor health");
    // The worst square is named with its counts, and each square's label has them.
    assert!(harness.get_all_by_label_contains(" flickers in ").count() >= 1);
    harness.get_by_label_contains("sensor a1: ");
    assert!(harness.get_all_by_label_contains("changes, ").count() == 64);
    click(&mut harness, "Sensor health");
    assert!(harness.query_by_label_contains(" flickers in ").is_none());
}

#[test]
fn a_position_code_sets_the_board_up_and_the_shown_position_copies_as_one() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = app(None, dir.path());
    wait_for(&mut harness, "new game");
    let position = boardsight::game::parse_fen("8/P6k/8/8/8/8/6Kp/8 w - - 0 1").expect("fen");
    let code = boardsight::pgn::position_code::encode(&position);
    set_up(&mut harness, &code);
    harness.get_by_label("a7: white pawn");
    harness.get_by_label("h2: black pawn");
    click(&mut harness, "Copy code");
    harness.get_by_label(&format!("copied the position code: {code}"));
    // A typo is said, not set up.
    menu(&mut harness, "Game", "Set up a position…");
    harness.get_by_label("FEN or code").click();
    harness.step();
    harness.get_by_label("FEN or code").type_text("!");
    harness.step();
    click(&mut harness, "Set up");
    harness.get_by_label_contains("is not a character of a position code");
    harness.get_by_label("a7: white pawn");
}

#[test]
fn a_misread_move_is_corrected_by_dragging_the_right_one_in_the_table_view() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = app(None, dir.path());
    play_e4(&mut harness);
    // Say the player had played d4: from the table view, without a keyboard.
    click(&mut harness, "Table view (toolbar)");
    click(&mut harness, "Correct the last move");
    harness.get_by_label("Drag the move 1 really was");
    harness.get_by_label("e2: white pawn");
    let from = harness.get_by_label("d2: white pawn").rect().center();
    let to = harness.get_by_label("d4: empty").rect().center();
    drag(&mut harness, from, to, true);
    wait_for(&mut harness, "d4: white pawn");
    // The board still shows e4: the squares to change are named.
    wait_for(
        &mut harness,
        "Put the white pawns back on e2 and d4 · Remove the pieces on d2 and e4",
    );
    harness.get_by_label("1. d4");
    // The player puts the pawns right: the corrected move stands, and the board is legal.
    harness.key_press(egui::Key::Escape);
    harness.run_steps(2);
    for square in ["e4", "e2", "d2", "d4"] {
        harness
            .get_by_label_contains(&format!("sensor {square}: "))
            .click();
        harness.run_steps(2);
        std::thread::sleep(std::time::Duration::from_millis(50));
        harness.run_steps(2);
    }
    wait_for(&mut harness, "sensor d4: occupied");
    wait_for(&mut harness, "sensor e2: occupied");
    let game = &harness.state().session().snapshot().game;
    assert_eq!(game.moves.len(), 1);
    assert_eq!(
        boardsight::recognizer::event::uci(game.moves[0]).to_string(),
        "d2d4"
    );
}

#[test]
fn redo_is_offered_after_undo_and_brings_the_move_back() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = app(None, dir.path());
    play_e4(&mut harness);
    assert!(
        harness
            .get_by_label("Redo (toolbar)")
            .accesskit_node()
            .is_disabled()
    );
    click(&mut harness, "Undo (toolbar)");
    wait_for(&mut harness, "e2: white pawn");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while harness
        .get_by_label("Redo (toolbar)")
        .accesskit_node()
        .is_disabled()
    {
        assert!(std::time::Instant::now() < deadline, "Redo never came on");
        std::thread::sleep(std::time::Duration::from_millis(20));
        harness.step();
    }
    click(&mut harness, "Redo (toolbar)");
    wait_for(&mut harness, "e4: white pawn");
    harness.get_by_label("e4");
}

#[test]
fn the_engine_plays_black_on_the_simulated_board_by_clicks() {
    if common::stockfish_or_skip().is_none() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = app(None, dir.path());
    wait_for(&mut harness, "new game");
    click(&mut harness, "Play the engine");
    play_e4(&mut harness);
    // The engine answers: its move is named, drawn, and its squares marked on the grid.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let reply = loop {
        harness.step();
        if let Some(mv) = harness.state().session().snapshot().expected_move {
            break mv;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the engine never moved"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    harness.run_steps(2);
    harness.get_by_label_contains("for the engine");
    let (from, to) = (reply.from().expect("a from square"), reply.to());
    // The simulated Centaur lights the move's squares: their LEDs show on the grid.
    for square in [from, to] {
        wait_for_contains(
            &mut harness,
            &format!("sensor {square}: "),
            ", its light is on",
        );
    }
    // The player makes it on the board, by clicks: it is recorded.
    click(
        &mut harness,
        &format!("sensor {from}: occupied, the engine's move, its light is on"),
    );
    // Lifted, its light stays on until the move is made.
    wait_for(
        &mut harness,
        &format!("sensor {from}: move in progress, the engine's move, its light is on"),
    );
    harness
        .get_by_label_contains(&format!("sensor {to}: "))
        .click();
    harness.run_steps(2);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while harness.state().session().snapshot().game.moves.len() < 2 {
        assert!(
            std::time::Instant::now() < deadline,
            "the engine's move was not recorded"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
        harness.step();
    }
    assert_eq!(harness.state().session().snapshot().game.moves[1], reply);
    // Made, the move's squares flash to confirm it, then every light goes out.
    wait_for(&mut harness, &format!("sensor {from}: empty"));
    wait_for(&mut harness, &format!("sensor {to}: occupied"));
    // Undo goes back to the player's move: the engine's reply and 1. e4 both.
    click(&mut harness, "Undo (toolbar)");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !harness.state().session().snapshot().game.moves.is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "Undo left moves behind"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
        harness.step();
    }
    click(&mut harness, "Stop the engine");
    harness.get_by_label("Play the engine");
}

#[test]
fn a_game_on_the_clock_runs_each_sides_time_and_saves_it_in_the_pgn() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = app(None, dir.path());
    wait_for(&mut harness, "new game");
    // The default time control, 5+3.
    click(&mut harness, "Clock");
    let face = |harness: &egui_kittest::Harness<'_, boardsight::app::BoardsightApp>| {
        harness
            .state()
            .session()
            .clock_face(std::time::Instant::now())
            .expect("a clock")
    };
    assert_eq!(face(&harness).running, Some(shakmaty::Color::White));
    harness.get_by_label_contains("White ");
    play_e4(&mut harness);
    harness.run_steps(2);
    let after_e4 = face(&harness);
    assert_eq!(after_e4.running, Some(shakmaty::Color::Black));
    // White's thinking time came off and the increment went on.
    assert!(
        (250_000..=303_000).contains(&after_e4.white_ms),
        "{after_e4:?}"
    );
    let (pgn, _) = harness.state().session().pgn();
    assert!(pgn.contains("[TimeControl \"300+3\"]"), "{pgn}");
    assert!(pgn.contains("e4 { [%clk 0:0"), "{pgn}");
    // A takeback gives White back the time of the start, on the move again.
    click(&mut harness, "Undo (toolbar)");
    wait_for(&mut harness, "e2: white pawn");
    let undone = face(&harness);
    assert_eq!(undone.running, Some(shakmaty::Color::White));
    assert!(
        undone.white_ms <= 300_000 && undone.black_ms == 300_000,
        "{undone:?}"
    );
}

#[test]
fn a_fallen_flag_is_shown_and_decides_the_game() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = app(None, dir.path());
    wait_for(&mut harness, "new game");
    // Three seconds for the game: White's flag falls before a move is made.
    let control = "0.05+0".parse().expect("a time control");
    harness
        .state_mut()
        .push_command(AppCommand::SetClock(Some(control)));
    wait_for(&mut harness, "White 0:00.0");
    // Said over the board and in the status bar.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while harness
        .query_all_by_label("White's time is up: 0-1")
        .count()
        < 2
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the flag was never said"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
        harness.step();
    }
    let (pgn, _) = harness.state().session().pgn();
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    assert!(pgn.contains("[Termination \"time forfeit\"]"), "{pgn}");
}

/// Steps the app until `done` says so (the engine and the board answer on their threads).
fn step_until(
    harness: &mut egui_kittest::Harness<'_, boardsight::app::BoardsightApp>,
    what: &str,
    mut done: impl FnMut(&boardsight::app::BoardsightApp) -> bool,
) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        harness.step();
        if done(harness.state()) {
            return;
        }
        assert!(std::time::Instant::now() < deadline, "{what} never came");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn a_hint_and_the_analysis_come_from_the_engine_by_clicks() {
    if common::stockfish_or_skip().is_none() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = app(None, dir.path());
    play_e4(&mut harness);
    // A hint for Black: a legal move, drawn as an arrow until the position changes.
    click(&mut harness, "Hint");
    step_until(&mut harness, "the hint", |app| {
        app.session().advice().is_some()
    });
    let session = harness.state().session();
    let hint = session.advice().expect("a hint");
    assert!(shakmaty::Position::is_legal(
        &session.snapshot().position,
        hint
    ));
    // The analysis: two lines (the default) with distinct first moves, and the bar.
    click(&mut harness, "Analyse");
    step_until(&mut harness, "two lines of analysis", |app| {
        app.session().analysis().is_some_and(|a| a.lines.len() == 2)
    });
    harness.run_steps(2);
    harness.get_by_label_contains("evaluation ");
    let analysis = harness.state().session().analysis().expect("an analysis");
    assert_ne!(analysis.lines[0].pv[0], analysis.lines[1].pv[0]);
    // Another move: the analysis follows the board.
    click(&mut harness, "sensor d7: occupied");
    wait_for(&mut harness, "sensor d7: move in progress");
    click(&mut harness, "sensor d5: empty");
    wait_for(&mut harness, "d5: black pawn");
    step_until(&mut harness, "the analysis after 1... d5", |app| {
        app.session().analysis().is_some_and(|a| a.ply == 2)
    });
    click(&mut harness, "Analyse");
    assert!(harness.state().session().analysis().is_none());
}

#[test]
fn the_board_is_shared_as_a_dgt_board_and_its_games_as_a_live_pgn() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = app(None, dir.path());
    wait_for(&mut harness, "new game");
    let live = dir.path().join("live.pgn");
    harness
        .state_mut()
        .push_command(AppCommand::LivePgn(Some(live.clone())));
    click(&mut harness, "Share as DGT board");
    let path = harness
        .state()
        .session()
        .dgt_share_path()
        .expect("a shared board")
        .to_owned();
    harness.get_by_label(&path.display().to_string());
    // A DGT host, from the protocol: 0x42 asks for the board, 0x86 len(2 bytes) and 64
    // piece codes from a8 to h1 answer (white P R N B K Q = 1..6, black 7..12).
    let mut port = serialport::new(path.to_string_lossy(), 9600)
        .timeout(std::time::Duration::from_secs(5))
        .open()
        .expect("the shared board opens");
    let mut dump = |harness: &mut egui_kittest::Harness<'_, boardsight::app::BoardsightApp>| {
        harness.step();
        port.write_all(&[0x42]).expect("asks");
        let mut reply = [0u8; 67];
        port.read_exact(&mut reply).expect("a board dump");
        assert_eq!(reply[..3], [0x86, 0, 67]);
        reply[3..].to_vec()
    };
    let start = dump(&mut harness);
    assert_eq!(start[..8], [8, 9, 10, 12, 11, 10, 9, 8]);
    assert_eq!(start[48..56], [1; 8]);
    play_e4(&mut harness);
    let after = dump(&mut harness);
    let index = |file: usize, rank: usize| (8 - rank) * 8 + file;
    assert_eq!(after[index(4, 2)], 0, "e2 is empty");
    assert_eq!(after[index(4, 4)], 1, "a white pawn on e4");
    // The clock, as a DGT clock tells it: 0x41 asks; 0x8D, len 10, the right player's
    // h m s (BCD), the left's, and a status byte (0x20: no clock, 0x01: running).
    let mut clock = |harness: &mut egui_kittest::Harness<'_, boardsight::app::BoardsightApp>| {
        harness.step();
        port.write_all(&[0x41]).expect("asks the clock");
        let mut reply = [0u8; 10];
        port.read_exact(&mut reply).expect("a clock message");
        assert_eq!(reply[..3], [0x8D, 0, 10]);
        reply
    };
    assert_eq!(clock(&mut harness)[9] & 0x20, 0x20, "no clock yet");
    let control = "5+3".parse().expect("a time control");
    harness
        .state_mut()
        .push_command(AppCommand::SetClock(Some(control)));
    harness.run_steps(2);
    let reply = clock(&mut harness);
    assert_eq!(reply[9] & 0x21, 0x01, "a clock, running: {reply:x?}");
    // Black thinks; White's 5:00 stands (White sits on the DGT clock's left).
    assert_eq!(reply[6..9], [0x00, 0x05, 0x00], "{reply:x?}");
    assert!(reply[4] == 0x05 || reply[4] == 0x04, "{reply:x?}");
    // The program drives the clock as PicoChess does: set and run (0x2b, size, 0x03, 0x0a,
    // left h m s, right h m s, 0x02: the right side runs, 0x00), a text for the display
    // (0x0c, eight characters, beep) and a Revelation II's lights on e7 and e5 (0x60, fields
    // counted from a8).
    port.write_all(&[0x2b, 0x0a, 0x03, 0x0a, 0, 4, 10, 0, 3, 20, 0x02, 0x00])
        .expect("sets the clock");
    let mut text = vec![0x2b, 0x0c, 0x03, 0x0c];
    text.extend_from_slice(b"e7e5    ");
    text.extend([0x03, 0x00]);
    port.write_all(&text).expect("shows a text");
    port.write_all(&[0x60, 0x04, 0x01, 12, 28, 0x00])
        .expect("lights squares");
    wait_for(&mut harness, "Clock: e7e5");
    harness.get_by_label("Times set by the program using the shared board");
    wait_for(&mut harness, "sensor e5: empty, its light is on");
    harness.get_by_label("sensor e7: occupied, its light is on");
    let face = harness
        .state()
        .session()
        .clock_face(std::time::Instant::now())
        .expect("the program's clock");
    assert_eq!(face.white_ms, 250_000, "White's time stands at 4:10");
    // Black's runs from 3:20 (a generous bound: a loaded machine steps slowly).
    assert!(
        face.black_ms <= 200_000 && face.black_ms > 150_000,
        "{face:?}"
    );
    // The live file holds the game so far.
    step_until(&mut harness, "the live PGN with 1. e4", |_| {
        std::fs::read_to_string(&live).is_ok_and(|text| text.contains("1. e4 *"))
    });
    click(&mut harness, "Share as DGT board");
    assert!(harness.state().session().dgt_share_path().is_none());
}

/// The app on a Chess960 start with the king on f1, a knight on g1 and a rook on h1, set up
/// by its number, after 1. Nh3 e5 by clicks: castling short is White's to play.
fn chess960_before_castling(
    dir: &Path,
) -> egui_kittest::Harness<'static, boardsight::app::BoardsightApp> {
    let number = (0..960)
        .find(|&n| {
            boardsight::chess960::back_rank(n).is_ok_and(|rank| {
                use shakmaty::Role::{King, Knight, Rook};
                rank[5..] == [King, Knight, Rook]
            })
        })
        .expect("such a start");
    let mut harness = app(None, dir);
    wait_for(&mut harness, "new game");
    // A Chess960 start fills the same squares as the standard one: it begins at once.
    set_up(&mut harness, &format!("960 {number}"));
    harness.get_by_label("f1: white king");
    let moves = [("g1", "h3"), ("e7", "e5")];
    for (from, to) in moves {
        click(&mut harness, &format!("sensor {from}: occupied"));
        wait_for(&mut harness, &format!("sensor {from}: move in progress"));
        click(&mut harness, &format!("sensor {to}: empty"));
        harness.run_steps(2);
    }
    wait_for(&mut harness, "e5: black pawn");
    harness
}

#[test]
fn a_chess960_start_is_set_up_by_number_and_castles_by_clicks() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = chess960_before_castling(dir.path());
    // The king lifted, then the rook; the king set down on g1 and the rook on f1.
    for (label, next) in [
        ("sensor f1: occupied", "sensor f1: move in progress"),
        ("sensor h1: occupied", "sensor h1: move in progress"),
    ] {
        click(&mut harness, label);
        wait_for(&mut harness, next);
    }
    harness.get_by_label_contains("sensor g1: ").click();
    harness.run_steps(2);
    harness.get_by_label_contains("sensor f1: ").click();
    wait_for(&mut harness, "g1: white king");
    harness.get_by_label("f1: white rook");
    harness.get_by_label("O-O");
    let (pgn, _) = harness.state().session().pgn();
    assert!(pgn.contains("[Variant \"Chess960\"]"), "{pgn}");
    assert!(pgn.contains("1. Nh3 e5 2. O-O"), "{pgn}");
}

#[test]
fn a_castling_the_sensors_cannot_tell_from_a_rook_move_is_asked_by_click() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = chess960_before_castling(dir.path());
    // Only the rook goes, h1 to g1: as Rg1 would, and as O-O does on occupancy alone.
    click(&mut harness, "sensor h1: occupied");
    wait_for(&mut harness, "sensor h1: move in progress");
    harness.get_by_label_contains("sensor g1: ").click();
    harness.run_steps(2);
    step_until(&mut harness, "the two candidates", |app| {
        app.session().snapshot().ambiguity.is_some()
    });
    harness.run_steps(2);
    harness.get_by_label_contains("could not be seen for sure");
    // The move list shows the likelier one meanwhile; the picker under it offers both.
    harness.get_by_role_and_label(egui::accesskit::Role::Button, "Rg1");
    harness
        .get_all_by_label("O-O")
        .last()
        .expect("the castling offered")
        .click();
    step_until(&mut harness, "the castling chosen", |app| {
        let snapshot = app.session().snapshot();
        snapshot.ambiguity.is_none()
            && snapshot
                .game
                .moves
                .last()
                .is_some_and(|m| matches!(m, shakmaty::Move::Castle { .. }))
    });
}

#[test]
fn a_game_is_reviewed_and_a_click_on_its_graph_shows_that_move() {
    if common::stockfish_or_skip().is_none() {
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = app(None, dir.path());
    play_e4(&mut harness);
    // 1... e5 2. Qh5 Nc6 3. Qxf7#? No: 2... Ke7?? is the blunder played here.
    for (from, to) in [("e7", "e5"), ("d1", "h5"), ("e8", "e7")] {
        click(&mut harness, &format!("sensor {from}: occupied"));
        wait_for(&mut harness, &format!("sensor {from}: move in progress"));
        click(&mut harness, &format!("sensor {to}: empty"));
        wait_for(&mut harness, &format!("sensor {to}: occupied"));
    }
    menu(&mut harness, "Game", "Review game");
    step_until(&mut harness, "the accuracies", |app| {
        app.session()
            .review()
            .is_some_and(|review| !review.is_running())
    });
    harness.step();
    assert!(
        harness.query_by_label_contains("Accuracy: White").is_some(),
        "{:?}",
        harness
            .state()
            .session()
            .review()
            .and_then(|r| r.fault.clone())
    );
    // 2... Ke7?? walks into 3. Qxe5#: marked in the move list.
    harness.get_by_label("Ke7??");
    // A click at the graph's left edge goes to the start.
    let graph = harness.get_by_label("evaluation graph").rect();
    click_at(
        &mut harness,
        egui::pos2(graph.left() + 1.0, graph.center().y),
    );
    harness.step();
    harness.get_by_label("Back to the live position");
    harness.get_by_label("e2: white pawn");
    // At the blunder, the better move is named.
    let blunder_x = graph.left() + graph.width() * 4.0 / 4.0 - 1.0;
    click_at(&mut harness, egui::pos2(blunder_x, graph.center().y));
    harness.step();
    assert!(harness.query_by_label_contains("Blunder").is_some());
    assert!(harness.query_by_label_contains("Better: 2...").is_some());
    // 3. Qxe5# ends the game: its review is offered, and a click starts it.
    click(&mut harness, "sensor h5: occupied");
    wait_for(&mut harness, "sensor h5: move in progress");
    click(&mut harness, "sensor e5: occupied");
    // The pawn taken off; the queen set down there.
    harness.run_steps(3);
    harness
        .query_by_label_contains("sensor e5: ")
        .expect("the sensor e5")
        .click();
    wait_for(&mut harness, "Review this game");
    click(&mut harness, "Review this game");
    step_until(&mut harness, "the whole game reviewed", |app| {
        app.session()
            .review()
            .is_some_and(|review| review.game.moves.len() == 5 && !review.is_running())
    });
}

#[test]
fn a_pgn_with_evaluations_shows_its_review_without_an_engine() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("annotated.pgn");
    std::fs::write(
        &file,
        "[Event \"Annotated\"]\n[Result \"*\"]\n\n1. e4 { [%eval 0.3] } 1... e5 { [%eval 0.25] } \
         2. Qh5 { [%eval 0.0] } 2... Ke7 { [%eval #1] } *\n",
    )
    .expect("writes");
    let mut harness = app(None, dir.path());
    wait_for(&mut harness, "new game");
    harness
        .state_mut()
        .push_command(AppCommand::LoadPgn(file.clone()));
    step_until(&mut harness, "the game on the board", |app| {
        app.session().view().moves.len() == 4
    });
    harness.run_steps(2);
    let review = harness.state().session().review().expect("a review");
    assert!(!review.is_running());
    assert_eq!(review.engine.as_deref(), Some("the file's evaluations"));
    // 2... Ke7 lets a mate in: a blunder, from the file's numbers alone.
    harness.get_by_label("Ke7??");
    harness.get_by_label("evaluation graph");
}

#[test]
fn the_position_shown_is_exported_as_a_png_as_drawn() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = app(None, dir.path());
    play_e4(&mut harness);
    let png = dir.path().join("position.png");
    harness
        .state_mut()
        .push_command(AppCommand::ExportPng(png.clone()));
    step_until(&mut harness, "the picture written", |_| png.exists());
    let image = image::open(&png).expect("a PNG").to_rgba8();
    assert_eq!(image.dimensions(), (640, 640));
    // White at the bottom: e4 shows the pawn's white body, e2 is an empty (tinted) square.
    // A white piece's body: white somewhere down the middle of its square.
    let body = |file: u32, rank: u32| {
        [28, 40, 52].iter().any(|&across| {
            [40, 48, 56, 64].iter().any(|&down| {
                let [r, g, b, _] = image
                    .get_pixel(file * 80 + across, (8 - rank) * 80 + down)
                    .0;
                r.min(g).min(b) > 235
            })
        })
    };
    assert!(body(4, 4), "a white pawn on e4");
    assert!(!body(4, 2), "nothing on e2");
    assert!(body(4, 1), "the white king on e1");
}

#[test]
fn the_voice_menu_turns_speech_on_and_chooses_what_is_said() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = app(None, dir.path());
    wait_for(&mut harness, "new game");
    open_menu(&mut harness, "Voice");
    harness.get_by_label("Speak").click();
    harness.run_steps(3);
    assert!(harness.state().settings().voice.enabled);
    assert!(harness.state().session().voice_settings().enabled);
    // Without speech on this system the menu says so; with it, nothing is in the way.
    let problem = harness.state().session().voice_problem().map(str::to_owned);
    assert_eq!(
        harness
            .query_by_label_contains("No speech on this system")
            .is_some(),
        problem.is_some()
    );
    if harness.query_by_label("My moves").is_none() {
        open_menu(&mut harness, "Voice");
    }
    harness.get_by_label("My moves").click();
    harness.run_steps(3);
    let voice = &harness.state().settings().voice;
    assert!(!voice.my_moves && voice.opponent_moves && voice.warnings);
    assert_eq!(harness.state().session().voice_settings(), voice);
}

#[test]
fn the_online_section_plays_a_lichess_game_and_resigns_it() {
    let server = lichess::StandIn::start(
        &["lip_app"],
        lichess::Script {
            opponent_moves: vec!["e7e5".into()],
            ..lichess::Script::default()
        },
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let mut harness = app(None, dir.path());
    wait_for(&mut harness, "new game");
    click(&mut harness, "Online section, click to open");
    // The token: typed here (else LICHESS_TOKEN's or the system keyring's), kept only while
    // the app runs unless it is to be kept in the keyring.
    if std::env::var_os("LICHESS_TOKEN").is_none() {
        assert!(
            harness
                .query_by_label("Keep it in the system keyring")
                .is_none()
        );
        type_in_field(&mut harness, "Token", "lip_app");
        harness.run_steps(2);
        harness.get_by_label("Keep it in the system keyring");
        assert!(
            !harness
                .get_by_label("Play on lichess")
                .accesskit_node()
                .is_disabled()
        );
    }
    // The button asks lichess.org itself: here the same game goes to the stand-in.
    common::app::play_online(&mut harness, &server.url, "lip_app");
    // Once the game is on, its controls show, and how it stands.
    wait_for(&mut harness, "Resign");
    // The status may still say the game is being asked for a frame or two after.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let status = loop {
        let status = harness.state().session().online_status().expect("a status");
        if !status.starts_with("Asking") || std::time::Instant::now() > deadline {
            break status;
        }
        harness.step();
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert!(
        status.starts_with("Playing white against Stockfish level 3 · ")
            && status.contains(&server.url),
        "{status}"
    );
    play_e4(&mut harness);
    wait_for(&mut harness, "Move the pawn e7 to e5 for the opponent");
    assert_eq!(server.player_moves(), ["e2e4"]);
    // The opponent offers a draw: the section asks, and declining goes to the server.
    server.opponent_offers_draw();
    wait_for(&mut harness, "Decline");
    click(&mut harness, "Decline");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while harness.query_by_label("Decline").is_some() {
        assert!(std::time::Instant::now() < deadline, "the offer stayed");
        std::thread::sleep(std::time::Duration::from_millis(20));
        harness.step();
    }
    assert!(
        server
            .requests()
            .iter()
            .any(|(_, path, _)| path.ends_with("/draw/no"))
    );
    click(&mut harness, "Resign");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !harness
        .state()
        .session()
        .online_status()
        .is_some_and(|s| s.starts_with("Ended: 0-1 (resign)"))
    {
        assert!(std::time::Instant::now() < deadline, "the game never ended");
        std::thread::sleep(std::time::Duration::from_millis(20));
        harness.step();
    }
    // Over, the section offers a new game again.
    wait_for(&mut harness, "Play on lichess");
    assert!(!harness.state().settings().to_ron().contains("lip_app"));
}

/// Types `text` into the text field labelled `label`.
fn type_in_field(
    harness: &mut egui_kittest::Harness<'_, boardsight::app::BoardsightApp>,
    label: &str,
    text: &str,
) {
    let is_field = |node: &egui_kittest::Node<'_>| {
        matches!(
            node.accesskit_node().role(),
            egui::accesskit::Role::PasswordInput | egui::accesskit::Role::TextInput
        )
    };
    harness
        .get_all_by_label(label)
        .find(is_field)
        .expect("the field")
        .click();
    harness.step();
    harness
        .get_all_by_label(label)
        .find(is_field)
        .expect("the field")
        .type_text(text);
    harness.run_steps(2);
}

#[test]
fn the_online_section_broadcasts_the_board_with_the_tables_names() {
    let round = "appRnd01";
    let server = lichess::StandIn::start(
        &["lip_app"],
        lichess::Script {
            broadcast_round: Some(round.into()),
            ..lichess::Script::default()
        },
    );
    let dir = tempfile::tempdir().expect("temp dir");
    // Tall enough for the whole Online section: a field below the fold takes no typing.
    let mut harness = common::app::first_run(None, Some(dir.path()), egui::vec2(1280.0, 1400.0));
    harness
        .state_mut()
        .push_command(boardsight::app::AppCommand::ShowWelcome(false));
    wait_for(&mut harness, "new game");
    // The stand-in, where the settings file may name a lichess of one's own.
    harness.state_mut().settings_mut().online.lichess_url = server.url.clone();
    click(&mut harness, "Online section, click to open");
    if std::env::var_os("LICHESS_TOKEN").is_none() {
        type_in_field(&mut harness, "Token", "lip_app");
    }
    assert!(
        harness
            .get_by_label("Broadcast")
            .accesskit_node()
            .is_disabled(),
        "no round yet"
    );
    type_in_field(&mut harness, "White", "Ann Able");
    type_in_field(&mut harness, "Board", "4");
    type_in_field(&mut harness, "Round", round);
    click(&mut harness, "Broadcast");
    wait_for(&mut harness, "Stop broadcasting");
    play_e4(&mut harness);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !server
        .pushes()
        .last()
        .is_some_and(|pgn| pgn.contains("1. e4"))
    {
        assert!(std::time::Instant::now() < deadline, "e4 never pushed");
        std::thread::sleep(std::time::Duration::from_millis(20));
        harness.step();
    }
    let pushed = server.pushes().last().cloned().unwrap_or_default();
    assert!(pushed.contains("[White \"Ann Able\"]"), "{pushed}");
    assert!(pushed.contains("[Board \"4\"]"), "{pushed}");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !harness
        .state()
        .session()
        .broadcast_status()
        .is_some_and(|status| status.ends_with("1 move on lichess"))
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the push was never told"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
        harness.step();
    }
    // The names and the round are kept for the next time; the token is not.
    let settings = harness.state().settings().to_ron();
    assert!(settings.contains("Ann Able") && settings.contains(round));
    assert!(!settings.contains("lip_app"));
    click(&mut harness, "Stop broadcasting");
    wait_for(&mut harness, "Broadcast");
    assert!(!harness.state().session().is_broadcasting());
}
