//! The keyboard shortcuts: one table serves the menus (which show them), the shortcuts
//! window and the keys themselves, which work whenever the window is active.

use eframe::egui;
use egui::{Key, KeyboardShortcut, Modifiers};

use super::command::{AppCommand, FilePick, Window};
use crate::connection::Command;

/// An action the keyboard reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    OpenPgn,
    SavePgn,
    OpenLog,
    SaveLog,
    NewGame,
    Undo,
    Redo,
    Flip,
    Hint,
    /// Say the engine's move again.
    RepeatMove,
    TableView,
    SidePanel,
    Shortcuts,
    Quit,
}

/// The shortcut of each action; a letter alone works only while no text is being typed.
pub const SHORTCUTS: [(Action, KeyboardShortcut, &str); 14] = [
    (
        Action::OpenPgn,
        key(Modifiers::COMMAND, Key::O),
        "Open a PGN file",
    ),
    (
        Action::SavePgn,
        key(Modifiers::COMMAND, Key::S),
        "Save the games as PGN",
    ),
    (
        Action::OpenLog,
        key(ctrl_shift(), Key::O),
        "Open a sensor log",
    ),
    (
        Action::SaveLog,
        key(ctrl_shift(), Key::S),
        "Save the sensor log",
    ),
    (Action::NewGame, key(Modifiers::COMMAND, Key::N), "New game"),
    (
        Action::Undo,
        key(Modifiers::COMMAND, Key::Z),
        "Take back the last move",
    ),
    (
        Action::Redo,
        key(ctrl_shift(), Key::Z),
        "Play the move taken back again",
    ),
    (Action::Flip, key(Modifiers::NONE, Key::F), "Flip the board"),
    (
        Action::Hint,
        key(Modifiers::NONE, Key::H),
        "A hint from the engine",
    ),
    (
        Action::RepeatMove,
        key(Modifiers::NONE, Key::A),
        "Say the engine's move again",
    ),
    (
        Action::TableView,
        key(Modifiers::NONE, Key::F11),
        "Table view (Esc leaves)",
    ),
    (
        Action::SidePanel,
        key(Modifiers::COMMAND, Key::B),
        "Show or hide the side panel",
    ),
    (
        Action::Shortcuts,
        key(Modifiers::NONE, Key::F1),
        "These keyboard shortcuts",
    ),
    (Action::Quit, key(Modifiers::COMMAND, Key::Q), "Quit"),
];

/// Keys that are not shortcuts of a menu item but work as well.
pub const OTHER_KEYS: [(&str, &str); 5] = [
    (
        "Q R B N",
        "Choose the promotion, while a pawn is about to promote",
    ),
    ("← →", "Step through a recording; Space plays and pauses it"),
    ("Ctrl+Y", "Redo, as well"),
    ("Ctrl + / − / 0", "Zoom in, out, back to 100%"),
    ("Esc", "Leave the table view"),
];

const fn key(modifiers: Modifiers, key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(modifiers, key)
}

const fn ctrl_shift() -> Modifiers {
    Modifiers {
        shift: true,
        ..Modifiers::COMMAND
    }
}

/// The shortcut of `action`.
pub fn shortcut(action: Action) -> KeyboardShortcut {
    SHORTCUTS
        .iter()
        .find(|(a, _, _)| *a == action)
        .map_or(key(Modifiers::NONE, Key::F1), |(_, shortcut, _)| *shortcut)
}

/// The shortcut of `action` as the menus show it.
pub fn text(ctx: &egui::Context, action: Action) -> String {
    ctx.format_shortcut(&shortcut(action))
}

/// What the app state decides about a key.
pub struct KeyState {
    pub live: bool,
    pub table_view: bool,
}

/// The commands of the shortcuts pressed this frame, which are consumed. Ctrl shortcuts
/// work with the focus anywhere; a letter or function key alone not while text is typed.
pub fn pressed(ctx: &egui::Context, state: &KeyState) -> Vec<AppCommand> {
    let typing = ctx.text_edit_focused();
    let mut actions = Vec::new();
    ctx.input_mut(|input| {
        // Longer modifier sets first, so Ctrl+Shift+Z is not taken for Ctrl+Z.
        let mut ordered = SHORTCUTS;
        ordered.sort_by_key(|(_, shortcut, _)| {
            std::cmp::Reverse(shortcut.modifiers.shift as u8 + shortcut.modifiers.command as u8)
        });
        for (action, shortcut, _) in ordered {
            if typing && shortcut.modifiers.is_none() && shortcut.logical_key != Key::F11 {
                continue;
            }
            if input.consume_shortcut(&shortcut) {
                actions.push(action);
            }
        }
        if input.consume_shortcut(&key(Modifiers::COMMAND, Key::Y)) {
            actions.push(Action::Redo);
        }
    });
    actions
        .into_iter()
        .filter_map(|action| command(action, state))
        .collect()
}

/// What `action` asks for, if it can be done now.
pub fn command(action: Action, state: &KeyState) -> Option<AppCommand> {
    Some(match action {
        Action::OpenPgn => AppCommand::Pick(FilePick::LoadPgn),
        Action::SavePgn => AppCommand::Pick(FilePick::SavePgn),
        Action::OpenLog => AppCommand::Pick(FilePick::OpenLog),
        Action::SaveLog => AppCommand::Pick(FilePick::SaveLog),
        Action::NewGame if state.live => AppCommand::NewGame,
        Action::Undo if state.live => AppCommand::Board(Command::Undo),
        Action::Redo if state.live => AppCommand::Board(Command::Redo),
        Action::Flip => AppCommand::FlipBoard,
        Action::Hint => AppCommand::Hint,
        Action::RepeatMove => AppCommand::RepeatEngineMove,
        Action::TableView => AppCommand::TableView(!state.table_view),
        Action::SidePanel => AppCommand::ToggleSidePanel,
        Action::Shortcuts => AppCommand::OpenWindow(Some(Window::Shortcuts)),
        Action::Quit => AppCommand::Quit,
        Action::NewGame | Action::Undo | Action::Redo => return None,
    })
}
