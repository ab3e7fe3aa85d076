//! What the panels ask for. They only draw and push these; `BoardsightApp::run_command`
//! carries each out after the UI pass.

use std::path::PathBuf;

use shakmaty::Square;

use crate::connection::Command;
use crate::reading::Orientation;

/// A file the user is to pick in a dialog, and what is then done with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FilePick {
    OpenLog,
    SaveLog,
    LoadPgn,
    SavePgn,
    DemoPgn,
    /// The file the live PGN keeps.
    LivePgn,
    /// Where the picture of the position shown goes (PNG).
    ExportPng,
    /// Where the game as an animated GIF goes.
    ExportGif,
}

/// A window over the main one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Window {
    /// A FEN, a position code or a Chess960 number to set the board up from.
    SetUp,
    Shortcuts,
    About,
    /// A section of the guide (the README's), by its index.
    Guide(usize),
}

#[derive(Clone, Debug)]
pub enum AppCommand {
    /// Send this to the board's worker (promote, undo, choose a candidate, …).
    Board(Command),
    /// Ply `ply` was really `mv`: a misread corrected on the screen.
    Correct {
        ply: usize,
        mv: shakmaty::Move,
    },
    UseSimulator,
    /// Connect to the port and protocol in the settings.
    Connect,
    Disconnect,
    RefreshPorts,
    SetSensorOrientation(Orientation),
    NewGame,
    /// Set the board up from this FEN or position code.
    SetUp(String),
    /// Put this text on the clipboard; `what` says what it is, for the status bar.
    Copy {
        text: String,
        what: &'static str,
    },
    /// Copy the shown position as FEN, or as a position code.
    CopyShown {
        code: bool,
    },
    /// A click on the simulated board's sensor grid.
    SensorClick(Square),
    StartDemo,
    StopDemo,
    Pick(FilePick),
    OpenLog(PathBuf),
    SaveLog(PathBuf),
    LoadPgn(PathBuf),
    SavePgn(PathBuf),
    DemoFromPgn(PathBuf),
    /// Continue game `index` of the PGN file in the chooser.
    ContinueListed(usize),
    CloseChooser,
    /// Show the position after this many plies; `None` for the live one.
    ViewPly(Option<usize>),
    Seek(usize),
    /// Pick out a square on the sensor grid (from a lane of the time strip).
    Highlight(Option<Square>),
    /// Show the sensors' health as a heat map on the grid.
    ShowHealth(bool),
    Play(f64),
    Pause,
    /// Enter (true) or leave the full-screen table view.
    TableView(bool),
    /// The engine in the settings plays its side of the live game.
    StartEngine,
    StopEngine,
    /// Show the best move for the side to move, from the adviser.
    Hint,
    /// Speak with these settings from now on.
    SetVoice(crate::voice::VoiceSettings),
    /// Say the engine's move again.
    RepeatEngineMove,
    /// Play this game on lichess (at `url`) with `token`.
    PlayOnline {
        request: crate::online::Request,
        url: String,
        /// `None`: the system keyring's.
        token: Option<String>,
        /// Keep the token in the system keyring once lichess takes it.
        remember: bool,
    },
    /// Push the board's game to this lichess broadcast round.
    Broadcast(crate::online::broadcast::BroadcastTo),
    StopBroadcast,
    /// The players' names, the round and the board's number for the games' tags.
    SetTable(crate::game::TableTags),
    /// Resign, offer a draw, … in the online game.
    OnlineOrder(crate::online::Order),
    /// Analyse every position shown with this many best lines, or stop.
    Analyse(Option<u8>),
    /// Review the game with the engine: every position evaluated, mistakes marked.
    ReviewGame,
    /// Stop the review and put it away.
    CloseReview,
    /// The position shown as a PNG, as drawn (the better move's arrow at a marked move).
    ExportPng(PathBuf),
    /// The game as an animated GIF, its marked moves flagged.
    ExportGif(PathBuf),
    /// Serve the recognised position to other programs as a DGT board, or stop.
    ShareAsDgt(bool),
    /// Keep this file holding the session's games, or stop.
    LivePgn(Option<PathBuf>),
    /// Play live games on this clock, or on none.
    SetClock(Option<crate::clock::TimeControl>),
    FlipBoard,
    ToggleTheme,
    /// Open a window over the main one, or close the one open.
    OpenWindow(Option<Window>),
    /// Show the first-run welcome (Help), or dismiss it for good.
    ShowWelcome(bool),
    ToggleSidePanel,
    /// Show a recording's timeline (its slider, time strip and lanes) under the board.
    ShowTimeline(bool),
    Quit,
    /// Connect to the board found, as offered; `false`: not now.
    AcceptOffer(bool),
    DismissNotice,
    Restore,
    OpenRestoredLog,
    DiscardUnfinished,
    RestoreLater,
}
