//! Building and driving the real app under egui_kittest.

use std::path::Path;
use std::time::{Duration, Instant};

use boardsight::app::{BoardsightApp, StartOptions};
use boardsight::pgn::autosave::Autosave;
use eframe::egui;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};

/// The window size the tests and the README screenshots use.
pub const WINDOW: egui::Vec2 = egui::vec2(1280.0, 800.0);

/// The app as it starts: on a recording if given, else on its simulated board; autosaving
/// into `autosave_dir` if given; the first-run welcome dismissed.
pub fn app(
    open_log: Option<&Path>,
    autosave_dir: Option<&Path>,
) -> Harness<'static, BoardsightApp> {
    let mut harness = first_run(open_log, autosave_dir, WINDOW);
    harness
        .state_mut()
        .push_command(boardsight::app::AppCommand::ShowWelcome(false));
    harness.run_steps(2);
    harness
}

/// The app as a first run starts it, welcome and all, in a window of `size`.
pub fn first_run(
    open_log: Option<&Path>,
    autosave_dir: Option<&Path>,
    size: egui::Vec2,
) -> Harness<'static, BoardsightApp> {
    let options = StartOptions {
        open_log: open_log.map(Path::to_path_buf),
        autosave: autosave_dir.map(Autosave::new),
        file_dialogs: false,
        scout: None,
    };
    started(options, size)
}

/// The app started with `options` in a window of `size`, its file jobs done.
pub fn started(options: StartOptions, size: egui::Vec2) -> Harness<'static, BoardsightApp> {
    let mut harness = Harness::builder()
        .with_size(size)
        .build_eframe(move |cc| BoardsightApp::new(cc, options));
    settle(&mut harness);
    harness
}

/// Clicks `item` in the menu `menu` of the menu bar (an item's label may end with its
/// shortcut), and steps until what it opened has come.
pub fn menu(harness: &mut Harness<'_, BoardsightApp>, menu: &str, item: &str) {
    open_menu(harness, menu);
    menu_item(harness, item).click();
    harness.run_steps(4);
}

/// The menu item whose label is `item`, or `item` and its shortcut.
pub fn menu_item<'h>(
    harness: &'h Harness<'_, BoardsightApp>,
    item: &'h str,
) -> egui_kittest::Node<'h> {
    let mut found: Vec<_> = harness
        .query_all_by_label_contains(item)
        .filter(|node| {
            node.accesskit_node().label().is_some_and(|label| {
                (label == item || label.starts_with(&format!("{item} ")))
                    && !label.ends_with("(toolbar)")
            })
        })
        .collect();
    assert_eq!(found.len(), 1, "menu item '{item}': {} found", found.len());
    found.remove(0)
}

/// Opens the menu `menu` of the menu bar.
pub fn open_menu(harness: &mut Harness<'_, BoardsightApp>, menu: &str) {
    // The menu bar's button, not a label of the same word further down.
    let button = harness
        .get_all_by_label(menu)
        .min_by(|a, b| a.rect().top().total_cmp(&b.rect().top()))
        .expect("the menu's button");
    button.click();
    harness.run_steps(2);
}

/// Steps the app until its file jobs (opening a recording, reading a PGN) are done.
pub fn settle(harness: &mut Harness<'_, BoardsightApp>) {
    let deadline = Instant::now() + Duration::from_secs(20);
    harness.step();
    while harness.state().is_busy() {
        assert!(Instant::now() < deadline, "a file job never finished");
        std::thread::sleep(Duration::from_millis(5));
        harness.step();
    }
    harness.step();
}

/// Steps the app for a while of real time: the board's readings carry the time they came.
pub fn step_for(harness: &mut Harness<'_, BoardsightApp>, time: Duration) {
    let until = Instant::now() + time;
    while Instant::now() < until {
        harness.step();
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Steps the app until a node with this label shows (the board talks over a real pty).
pub fn wait_for(harness: &mut Harness<'_, BoardsightApp>, label: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        harness.step();
        if harness.query_by_label(label).is_some() {
            return;
        }
        assert!(Instant::now() < deadline, "'{label}' never appeared");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Steps the app until a node whose label starts with `start` also holds `part`.
pub fn wait_for_contains(harness: &mut Harness<'_, BoardsightApp>, start: &str, part: &str) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        harness.step();
        let found = harness.query_all_by_label_contains(start).any(|node| {
            node.accesskit_node()
                .label()
                .is_some_and(|label| label.starts_with(start) && label.contains(part))
        });
        if found {
            return;
        }
        assert!(Instant::now() < deadline, "'{start}…{part}' never appeared");
        std::thread::sleep(Duration::from_millis(20));
    }
}

pub fn click(harness: &mut Harness<'_, BoardsightApp>, label: &str) {
    harness.get_by_label(label).click();
    harness.step();
    harness.step();
}

/// Clicks a square of the sensor grid whatever it reads now: a reading from the board may
/// change its state between two clicks (a pawn put back leaves the last one lifted, a move
/// in progress rather than part of an illegal state).
pub fn click_sensor(harness: &mut Harness<'_, BoardsightApp>, square: &str) {
    let prefix = format!("sensor {square}: ");
    harness
        .query_all_by_label_contains(&prefix)
        .find(|node| {
            node.accesskit_node()
                .label()
                .is_some_and(|label| label.starts_with(&prefix))
        })
        .unwrap_or_else(|| panic!("no sensor square {square}"))
        .click();
    harness.step();
    harness.step();
}

/// A click of the primary button at a point of the window.
pub fn click_at(harness: &mut Harness<'_, BoardsightApp>, pos: egui::Pos2) {
    harness.event(egui::Event::PointerMoved(pos));
    for pressed in [true, false] {
        harness.event(egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::default(),
        });
    }
    harness.run_steps(2);
}

/// Drags with the primary button from one point of the window to another, stopping at
/// `steps` points on the way; `release` false leaves the button down (a drag in progress).
pub fn drag(
    harness: &mut Harness<'_, BoardsightApp>,
    from: egui::Pos2,
    to: egui::Pos2,
    release: bool,
) {
    let button = |pos, pressed| egui::Event::PointerButton {
        pos,
        button: egui::PointerButton::Primary,
        pressed,
        modifiers: egui::Modifiers::default(),
    };
    harness.event(egui::Event::PointerMoved(from));
    harness.step();
    harness.event(button(from, true));
    harness.step();
    for i in 1..=5 {
        let pos = from + (to - from) * (i as f32 / 5.0);
        harness.event(egui::Event::PointerMoved(pos));
        harness.step();
    }
    if release {
        harness.event(button(to, false));
        harness.run_steps(2);
    }
}

/// 1. e4 by clicks on the simulated board's sensor grid, once the board is ready.
pub fn play_e4(harness: &mut Harness<'_, BoardsightApp>) {
    wait_for(harness, "new game");
    click(harness, "sensor e2: occupied");
    wait_for(harness, "sensor e2: move in progress");
    click(harness, "sensor e4: empty");
    wait_for(harness, "e4: white pawn");
}

/// Sets the board up from `text` (a FEN, a position code or `960 N`) by typing it and
/// pressing Set up, then steps until the recognizer has begun the game from there: a click
/// on the board before that would be read against the old position.
pub fn set_up(harness: &mut Harness<'_, BoardsightApp>, text: &str) {
    let start = boardsight::pgn::position_code::parse_position(text).expect("a position");
    menu(harness, "Game", "Set up a position…");
    harness.get_by_label("FEN or code").click();
    harness.step();
    harness.get_by_label("FEN or code").type_text(text);
    harness.step();
    click(harness, "Set up");
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        harness.step();
        let snapshot = harness.state().session().snapshot();
        if snapshot.has_started && snapshot.game.start == start {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the game from {text} never began"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Asks the app for a game against lichess's AI at level 3, 10+5, on the lichess at `url`
/// (a stand-in), as the Online section's button asks lichess.org.
pub fn play_online(harness: &mut Harness<'_, BoardsightApp>, url: &str, token: &str) {
    harness
        .state_mut()
        .push_command(boardsight::app::AppCommand::PlayOnline {
            request: boardsight::online::Request {
                opponent: boardsight::online::Opponent::Ai(3),
                clock: "10+5".parse().expect("a clock"),
                rated: false,
            },
            url: url.to_owned(),
            token: Some(token.to_owned()),
            remember: false,
        });
}
