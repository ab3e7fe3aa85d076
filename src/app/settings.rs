//! What the app remembers between runs, stored by eframe as RON. New fields default, so
//! old files keep loading; a file that cannot be read falls back to defaults, with a warning.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Deserializer, Serialize};

use crate::connection::KnownBoard;
use crate::protocol::{Protocol, protocol_by_name};
use crate::reading::Orientation;
use crate::recognizer::BoardOrientation;

const KEY: &str = "boardsight-settings";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The serial port chosen (and last connected to); empty for none yet.
    #[serde(deserialize_with = "port_or_none")]
    pub port: String,
    /// The protocol chosen, stored by name.
    #[serde(with = "protocol_by_name")]
    pub protocol: Protocol,
    /// Whether the board is shown from Black's side.
    pub board_flipped: bool,
    /// How the board's sensors are wired relative to the squares.
    pub sensor_orientation: Orientation,
    /// Which way round the board is set up: found from White's first move, or given.
    pub board_orientation: BoardOrientation,
    pub dark_theme: bool,
    /// The UCI engine to play: a path, or `stockfish` to look for it.
    pub engine_path: String,
    /// The engine's Skill Level, 0 to 20.
    pub engine_level: u8,
    /// Whether the engine plays Black (else White).
    pub engine_plays_black: bool,
    /// The clock's time control, as minutes+increment (`5+3`, or `5+3d` for a delay).
    pub time_control: String,
    /// Whether games are played on the clock.
    pub clock_on: bool,
    /// How many best lines the analysis shows, 1 to 3.
    pub analysis_lines: u8,
    /// The depth a game is reviewed at.
    pub review_depth: u8,
    /// What a review's search of each position is limited by.
    pub review_by: ReviewBy,
    /// The nodes a review searches each position for, when limited by nodes.
    pub review_nodes: u64,
    /// The milliseconds a review searches each position for, when limited by time.
    pub review_ms: u64,
    /// Whether the board is shared with other programs as a DGT board.
    pub share_as_dgt: bool,
    /// The file kept holding the session's games, for broadcasts.
    pub live_pgn: String,
    /// Whether that file is kept up to date.
    pub live_pgn_on: bool,
    /// The welcome was dismissed (Help shows it again).
    pub welcome_seen: bool,
    /// Which sections of the side panel are open.
    pub sections: Sections,
    /// Whether the side panel is shown.
    pub side_panel: bool,
    /// PGN files and sensor logs opened or saved, the latest first.
    pub recent_files: Vec<PathBuf>,
    /// The sensor grid's first colours (red, yellow, purple) instead of the palette that
    /// colour-blind players tell apart.
    pub classic_colours: bool,
    /// The sensor grid as large as the board.
    pub large_sensor_grid: bool,
    /// The user's zoom (Ctrl +/−), over the system's scale factor.
    pub zoom: f32,
    /// Boards connected to before, by USB serial number: plugged in, they reconnect.
    pub known_boards: Vec<KnownBoard>,
    /// What is said aloud, and how.
    pub voice: crate::voice::VoiceSettings,
    /// The online game last asked for (the token is never kept here).
    pub online: OnlineChoice,
    pub broadcast: BroadcastChoice,
}

/// The board's broadcast: the round, and the table's names and number.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct BroadcastChoice {
    /// The round's id or address.
    pub round: String,
    pub white: String,
    pub black: String,
    /// The board's number in the round, as typed.
    pub board: String,
}

impl BroadcastChoice {
    /// The names and number given, for the games' tags.
    pub fn table(&self) -> crate::game::TableTags {
        let given = |text: &str| Some(text.trim().to_owned()).filter(|text| !text.is_empty());
        crate::game::TableTags {
            white: given(&self.white),
            black: given(&self.black),
            round: None,
            board: self.board.trim().parse().ok(),
        }
    }
}

/// Whom to play online, and on which clock.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct OnlineChoice {
    pub opponent: OnlineOpponent,
    /// lichess's AI level, 1 to 8.
    pub ai_level: u8,
    /// The player to challenge, or whose challenge to accept (anyone's when empty).
    pub player: String,
    /// Minutes + seconds per move.
    pub time_control: String,
    pub rated: bool,
    /// Where lichess is: lichess.org, or a development server of its own.
    pub lichess_url: String,
}

impl Default for OnlineChoice {
    fn default() -> Self {
        Self {
            opponent: OnlineOpponent::Ai,
            ai_level: 3,
            player: String::new(),
            time_control: "10+5".into(),
            rated: false,
            lichess_url: crate::online::LICHESS_URL.into(),
        }
    }
}

/// The kinds of online opponent.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum OnlineOpponent {
    #[default]
    Ai,
    Seek,
    Player,
    /// Whoever challenges the player (the named player only, if one is given).
    Accept,
}

/// What limits a review's search of each position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ReviewBy {
    /// A depth: the same judgement on every machine.
    #[default]
    Depth,
    /// A node count: the same moves every time, whatever the machine's speed.
    Nodes,
    /// A time per position: the whole review's length known in advance.
    Time,
}

impl Settings {
    /// The review's search limit, as chosen.
    pub fn review_limit(&self) -> crate::engine::SearchLimit {
        use crate::engine::SearchLimit;
        match self.review_by {
            ReviewBy::Depth => SearchLimit::Depth(self.review_depth.max(1)),
            ReviewBy::Nodes => SearchLimit::Nodes(self.review_nodes.max(1)),
            ReviewBy::Time => {
                SearchLimit::MoveTime(std::time::Duration::from_millis(self.review_ms.max(10)))
            }
        }
    }
}

/// The side panel's sections, open or collapsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Sections {
    pub board: bool,
    pub computer: bool,
    pub sharing: bool,
    pub online: bool,
}

impl Default for Sections {
    fn default() -> Self {
        Self {
            board: true,
            computer: true,
            sharing: true,
            online: false,
        }
    }
}

/// How many recent files the File menu lists.
const RECENT_FILES: usize = 8;

impl Default for Settings {
    fn default() -> Self {
        Self {
            port: String::new(),
            protocol: Protocol::Liboard,
            board_flipped: false,
            sensor_orientation: Orientation::default(),
            board_orientation: BoardOrientation::Auto,
            dark_theme: true,
            engine_path: "stockfish".into(),
            engine_level: 5,
            engine_plays_black: true,
            time_control: "5+3".into(),
            clock_on: false,
            analysis_lines: 2,
            review_depth: 12,
            review_by: ReviewBy::Depth,
            review_nodes: 1_000_000,
            review_ms: 1_000,
            share_as_dgt: false,
            live_pgn: String::new(),
            live_pgn_on: false,
            welcome_seen: false,
            sections: Sections::default(),
            side_panel: true,
            recent_files: Vec::new(),
            classic_colours: false,
            large_sensor_grid: false,
            zoom: 1.0,
            known_boards: Vec::new(),
            voice: crate::voice::VoiceSettings::default(),
            online: OnlineChoice::default(),
            broadcast: BroadcastChoice::default(),
        }
    }
}

impl Settings {
    /// The stored settings, or the defaults and a warning saying why they were not used.
    pub fn load(storage: Option<&dyn eframe::Storage>) -> (Self, Option<String>) {
        let Some(text) = storage.and_then(|s| s.get_string(KEY)) else {
            return (Self::default(), None);
        };
        Self::from_ron(&text)
    }

    pub fn from_ron(text: &str) -> (Self, Option<String>) {
        match ron::from_str(text) {
            Ok(settings) => (settings, None),
            Err(e) => (
                Self::default(),
                Some(format!(
                    "The saved settings could not be read ({e}); using the defaults."
                )),
            ),
        }
    }

    /// Puts `path` first among the recent files.
    pub fn remember_file(&mut self, path: &Path) {
        self.recent_files.retain(|p| p != path);
        self.recent_files.insert(0, path.to_path_buf());
        self.recent_files.truncate(RECENT_FILES);
    }

    pub fn to_ron(&self) -> String {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default()).unwrap_or_default()
    }

    pub fn save(&self, storage: &mut dyn eframe::Storage) {
        storage.set_string(KEY, self.to_ron());
    }
}

/// Older versions stored the port as `Some("…")` or `None`.
fn port_or_none<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Port {
        Path(String),
        Maybe(Option<String>),
    }
    Ok(match Port::deserialize(deserializer)? {
        Port::Path(path) | Port::Maybe(Some(path)) => path,
        Port::Maybe(None) => String::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_review_is_limited_by_the_depth_the_nodes_or_the_time_chosen() {
        use crate::engine::SearchLimit;
        let mut settings = Settings::default();
        assert_eq!(settings.review_limit(), SearchLimit::Depth(12));
        settings.review_by = ReviewBy::Nodes;
        assert_eq!(settings.review_limit(), SearchLimit::Nodes(1_000_000));
        settings.review_by = ReviewBy::Time;
        settings.review_ms = 2_500;
        assert_eq!(
            settings.review_limit(),
            SearchLimit::MoveTime(std::time::Duration::from_millis(2_500))
        );
    }

    #[test]
    fn settings_round_trip_and_old_files_still_load() {
        let settings = Settings {
            port: "/dev/ttyUSB0".into(),
            protocol: Protocol::Dgt,
            board_flipped: true,
            sensor_orientation: Orientation {
                quarter_turns: 1,
                mirrored: true,
            },
            board_orientation: BoardOrientation::Turned,
            dark_theme: false,
            engine_path: "/usr/local/bin/lc0".into(),
            engine_level: 12,
            engine_plays_black: false,
            time_control: "15+10".into(),
            clock_on: true,
            analysis_lines: 3,
            review_depth: 18,
            review_by: ReviewBy::Time,
            review_nodes: 250_000,
            review_ms: 2_500,
            share_as_dgt: true,
            live_pgn: "/srv/club/live.pgn".into(),
            live_pgn_on: true,
            welcome_seen: true,
            sections: Sections {
                board: false,
                computer: true,
                sharing: false,
                online: true,
            },
            side_panel: false,
            recent_files: vec!["/home/a/games.pgn".into(), "/home/a/club.log".into()],
            classic_colours: true,
            large_sensor_grid: true,
            zoom: 1.3,
            known_boards: vec![KnownBoard {
                serial_number: Some("CENTAUR-42".into()),
                path: "/dev/ttyACM0".into(),
                protocol: Protocol::Centaur,
                description: "DGT Centaur".into(),
            }],
            voice: crate::voice::VoiceSettings {
                enabled: true,
                my_moves: false,
                opponent_moves: true,
                warnings: true,
                voice: "en-gb".into(),
                words_per_minute: 210,
            },
            online: OnlineChoice {
                opponent: OnlineOpponent::Player,
                ai_level: 6,
                player: "Maia1".into(),
                time_control: "15+10".into(),
                rated: true,
                lichess_url: "http://localhost:8080".into(),
            },
            broadcast: BroadcastChoice {
                round: "AbCd1234".into(),
                white: "Ann".into(),
                black: "Bob".into(),
                board: "7".into(),
            },
        };
        assert_eq!(Settings::from_ron(&settings.to_ron()), (settings, None));
        // A file from an older version, without the newer fields.
        let (old, warning) = Settings::from_ron("(port: Some(\"/dev/ttyACM0\"))");
        assert_eq!(old.port, "/dev/ttyACM0");
        assert_eq!(old.protocol, Protocol::Liboard);
        assert!(warning.is_none());
        let (old, warning) = Settings::from_ron("(port: None, protocol: \"centaur\")");
        assert_eq!((old.port.as_str(), old.protocol), ("", Protocol::Centaur));
        assert!(warning.is_none());
    }

    #[test]
    fn recent_files_keep_the_latest_first_once_each_and_at_most_eight() {
        let mut settings = Settings::default();
        for i in 0..10 {
            settings.remember_file(Path::new(&format!("/g/{i}.pgn")));
        }
        settings.remember_file(Path::new("/g/5.pgn"));
        let names: Vec<_> = settings
            .recent_files
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        assert_eq!(
            names,
            [
                "/g/5.pgn", "/g/9.pgn", "/g/8.pgn", "/g/7.pgn", "/g/6.pgn", "/g/4.pgn", "/g/3.pgn",
                "/g/2.pgn"
            ]
        );
    }

    #[test]
    fn a_corrupt_file_falls_back_to_defaults_with_a_warning() {
        let (settings, warning) = Settings::from_ron("(port: Some(12, oops");
        assert_eq!(settings, Settings::default());
        assert!(warning.is_some_and(|w| w.contains("could not be read")));
        let (settings, warning) = Settings::from_ron("(protocol: \"morse\")");
        assert_eq!(settings, Settings::default());
        assert!(warning.is_some_and(|w| w.contains("morse")));
    }
}
