//! The window as a chess program's (issue 23), driven through egui_kittest: the board's
//! size at three window sizes, every menu item, shortcuts with the focus anywhere, the
//! promotion choice only when it matters, the side panel's sections and the welcome.

mod common;

use boardsight::app::BoardsightApp;
use common::app::{app, click, first_run, menu, menu_item, open_menu, play_e4, set_up, wait_for};
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;

const SIZES: [(f32, f32); 3] = [(1024.0, 640.0), (1280.0, 800.0), (1920.0, 1080.0)];

fn dismissed(size: (f32, f32)) -> Harness<'static, BoardsightApp> {
    let mut harness = first_run(None, None, egui::vec2(size.0, size.1));
    click(&mut harness, "Got it");
    wait_for(&mut harness, "new game");
    harness.run_steps(3);
    harness
}

#[test]
fn the_board_takes_most_of_the_central_area_at_every_window_size() {
    for size in SIZES {
        let harness = dismissed(size);
        let board = harness
            .get_by_label("a8: black rook")
            .rect()
            .union(harness.get_by_label("h1: white rook").rect());
        let area_top = harness.get_by_label("File").rect().bottom();
        let area_bottom = harness.get_by_label_contains("readings/s").rect().top();
        let share = board.height() / (area_bottom - area_top);
        println!(
            "{size:?}: board {:.0} px, {:.0}% of the central area's height",
            board.height(),
            share * 100.0
        );
        assert!(
            share >= 0.75,
            "{size:?}: the board is {:.0} px of {:.0} ({share:.2})",
            board.height(),
            area_bottom - area_top
        );
        if size == (1280.0, 800.0) {
            assert!(board.height() >= 600.0, "{}", board.height());
        }
        // Nothing clipped: the sensor grid, the move list's buttons and the side panel
        // stand inside the window.
        let window = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(size.0, size.1));
        for label in [
            "sensor h1: occupied",
            "sensor a8: occupied",
            "Copy code",
            "Live PGN",
        ] {
            let rect = harness.get_by_label(label).rect();
            assert!(
                window.contains_rect(rect),
                "{size:?}: {label} at {rect:?} is outside the window"
            );
        }
    }
}

#[test]
fn every_menu_item_is_there_and_does_what_its_button_did() {
    let mut harness = app(None, None);
    let items: [(&str, &[&str]); 6] = [
        (
            "File",
            &[
                "Open PGN…",
                "Save PGN…",
                "Open sensor log…",
                "Save sensor log…",
                "Recent files",
                "Quit",
            ],
        ),
        (
            "Game",
            &[
                "New game",
                "Undo",
                "Redo",
                "Set up a position…",
                "Copy FEN",
                "Copy position code",
                "Flip board",
                "Demo game",
                "Demo from PGN…",
            ],
        ),
        (
            "Board",
            &[
                "Use the simulated board",
                "Serial port",
                "Board protocol",
                "Connect to the board",
                "Disconnect the board",
                "Which way round",
                "Rotate the sensors",
                "Share as a DGT board",
                "Live PGN…",
            ],
        ),
        (
            "Engine",
            &[
                "Play against the engine",
                "The engine plays",
                "Level",
                "Clock 5+3",
                "Time control",
                "Hint: the best move",
                "Analyse the position",
            ],
        ),
        (
            "View",
            &[
                "Table view",
                "Side panel",
                "Light theme",
                "Sensor health map",
                "Timeline",
                "Large sensor grid",
                "Classic sensor colours",
                "Zoom In",
                "Zoom Out",
                "Reset Zoom",
            ],
        ),
        (
            "Help",
            &["Welcome", "Keyboard shortcuts", "Guide", "About boardsight"],
        ),
    ];
    for (name, labels) in items {
        open_menu(&mut harness, name);
        for label in labels {
            menu_item(&harness, label);
        }
        harness.key_press(egui::Key::Escape);
        harness.run_steps(2);
    }
    // Each does what it did: the game's commands play on the board…
    play_e4(&mut harness);
    menu(&mut harness, "Game", "Undo");
    wait_for(&mut harness, "e2: white pawn");
    menu(&mut harness, "Game", "Copy FEN");
    harness.get_by_label_contains("copied the FEN: rnbqkbnr/pppppppp");
    let a1 = harness.get_by_label("a1: white rook").rect().center();
    menu(&mut harness, "Game", "Flip board");
    assert!(harness.get_by_label("a1: white rook").rect().center().y < a1.y);
    // …a file pick asks for the file…
    menu(&mut harness, "File", "Open PGN…");
    harness.get_by_label_contains("a PGN file to open");
    // …the view changes…
    menu(&mut harness, "View", "Light theme");
    assert!(!harness.state().settings().dark_theme);
    menu(&mut harness, "View", "Side panel");
    assert!(harness.query_by_label("Share as DGT board").is_none());
    menu(&mut harness, "View", "Side panel");
    harness.get_by_label("Share as DGT board");
    // …and help opens its windows.
    menu(&mut harness, "Help", "Keyboard shortcuts");
    harness.get_by_label("Take back the last move");
    menu(&mut harness, "Help", "About boardsight");
    harness.get_by_label_contains("GNU General Public License");
    open_menu(&mut harness, "Help");
    click(&mut harness, "Guide");
    click(&mut harness, "Licence");
    harness.run_steps(4);
    harness.get_by_label_contains("because shakmaty and pgn-reader are GPL");
}

#[test]
fn shortcuts_work_with_the_focus_anywhere_and_letters_type_in_a_field() {
    let mut harness = app(None, None);
    play_e4(&mut harness);
    // The focus in the set-up field: Ctrl+Z still takes the move back.
    menu(&mut harness, "Game", "Set up a position…");
    harness.get_by_label("FEN or code").click();
    harness.run_steps(2);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    wait_for(&mut harness, "e2: white pawn");
    // A letter alone types there, and does not flip the board.
    let a1 = harness.get_by_label("a1: white rook").rect().center();
    harness.get_by_label("FEN or code").type_text("f");
    harness.key_press(egui::Key::F);
    harness.run_steps(2);
    assert!(!harness.state().settings().board_flipped);
    assert_eq!(harness.get_by_label("a1: white rook").rect().center(), a1);
    click(&mut harness, "Cancel");
    // With the field gone, F flips the board and F1 lists the shortcuts.
    harness.key_press(egui::Key::F);
    harness.run_steps(2);
    assert!(harness.state().settings().board_flipped);
    harness.key_press(egui::Key::F1);
    harness.run_steps(2);
    harness.get_by_label("These keyboard shortcuts");
    // The board still shows 1. e4, taken back: Ctrl+Shift+Z redoes it, not undoes.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !harness.state().session().snapshot().can_redo {
        assert!(std::time::Instant::now() < deadline, "Redo never came on");
        std::thread::sleep(std::time::Duration::from_millis(20));
        harness.step();
    }
    harness.key_press_modifiers(
        egui::Modifiers {
            shift: true,
            ..egui::Modifiers::COMMAND
        },
        egui::Key::Z,
    );
    wait_for(&mut harness, "e4: white pawn");
}

#[test]
fn the_promotion_choice_shows_only_when_a_pawn_is_about_to_promote() {
    let mut harness = app(None, None);
    wait_for(&mut harness, "new game");
    assert!(harness.query_by_label("Queen").is_none());
    assert!(harness.query_by_label_contains("Next promotion").is_none());
    set_up(&mut harness, "8/P6k/8/8/8/8/6Kp/8 w - - 0 1");
    harness.run_steps(2);
    harness.get_by_label("Queen");
    harness.get_by_label_contains("Next promotion: queen");
}

#[test]
fn collapsed_sections_say_in_a_line_how_they_stand_and_stay_so() {
    let mut harness = app(None, None);
    wait_for(&mut harness, "new game");
    click(&mut harness, "Board section, click to collapse");
    harness.get_by_label_contains("Simulated board · ");
    assert!(harness.query_by_label("Rotate").is_none());
    assert!(!harness.state().settings().sections.board);
    click(&mut harness, "Sharing section, click to collapse");
    harness.get_by_label("Not shared");
    click(&mut harness, "Board section, click to open");
    harness.get_by_label("Rotate");
}

#[test]
fn the_first_run_welcomes_and_help_brings_the_welcome_back() {
    let mut harness = first_run(None, None, common::app::WINDOW);
    harness.get_by_label("Welcome to boardsight");
    harness.get_by_label_contains("The board on the screen is a simulated one");
    click(&mut harness, "Got it");
    assert!(harness.query_by_label("Welcome to boardsight").is_none());
    assert!(harness.state().settings().welcome_seen);
    menu(&mut harness, "Help", "Welcome");
    harness.get_by_label("Welcome to boardsight");
}

#[test]
fn a_board_plugged_in_is_found_and_offered_and_connected_on_a_click() {
    use boardsight::connection::{PortChoice, ScoutSetup, probe_port};
    use std::sync::{Arc, Mutex};
    let dir = tempfile::tempdir().expect("a folder");
    let link = dir.path().join("centaur");
    let path = link.to_string_lossy().into_owned();
    // The machine's ports, as the test changes them: the board is plugged in later.
    let plugged: Arc<Mutex<Vec<PortChoice>>> = Arc::default();
    let listed = plugged.clone();
    let options = boardsight::app::StartOptions {
        open_log: None,
        autosave: None,
        file_dialogs: false,
        scout: Some(ScoutSetup {
            list: Box::new(move || Ok(listed.lock().map_err(|e| e.to_string())?.clone())),
            interval: std::time::Duration::from_millis(50),
            probe: Arc::new(probe_port),
        }),
    };
    let mut harness = common::app::started(options, common::app::WINDOW);
    click(&mut harness, "Got it");
    // A DGT Centaur (the simulated one, on a pseudo-terminal) is plugged in.
    let mut board = std::process::Command::new(env!("CARGO_BIN_EXE_boardsight"))
        .args(["simulate", "--protocol", "centaur", "--link"])
        .arg(&link)
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("simulate starts");
    common::wait_for_path(&link);
    plugged.lock().expect("the list").push(PortChoice {
        serial_number: Some("CENTAUR-42".to_owned()),
        ..PortChoice::given(&path)
    });
    wait_for(
        &mut harness,
        &format!("Found a DGT Centaur on {path}: connect?"),
    );
    click(&mut harness, "Connect to it");
    // The collapsed Board section says how the board stands.
    click(&mut harness, "Board section, click to collapse");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        harness.step();
        let summary = format!("DGT Centaur on {path} · connected");
        let shown = harness.query_by_label_contains(&summary).is_some();
        if harness.state().settings().known_boards.len() == 1 && shown {
            break;
        }
        if std::time::Instant::now() > deadline {
            let _ = board.kill();
            panic!("the board found was never connected to");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert_eq!(harness.state().settings().port, path);
    let _ = std::process::Command::new("kill")
        .args(["-INT", &board.id().to_string()])
        .status();
    let _ = board.wait();
}
