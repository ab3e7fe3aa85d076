//! The session spoken aloud: what is said for each event (`words`), a speaker thread that
//! says it in turn without ever blocking its caller (`speaker`), and the system's speech
//! (`system`: espeak-ng, speech-dispatcher, macOS `say`, Windows SAPI).

pub mod speaker;
pub mod system;
pub mod words;

use serde::{Deserialize, Serialize};

pub use speaker::{Speaker, Voice};
pub use system::SystemVoice;

/// What an announcement is about: a newer one about the same replaces one not yet said.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Topic {
    /// A move made on the board, its revision or takeback, a new game.
    Move,
    /// The engine's (or the opponent's) move, as an instruction.
    EngineMove,
    /// The board is illegal, a wrong move, a sensor fault.
    Warning,
    /// The clock: the last ten seconds, a fallen flag.
    Clock,
    /// The game's end and result.
    End,
}

/// Words to say, and what they are about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Announcement {
    pub topic: Topic,
    pub words: String,
}

impl Announcement {
    pub fn new(topic: Topic, words: impl Into<String>) -> Self {
        Self {
            topic,
            words: words.into(),
        }
    }
}

/// What the user chose to hear, kept between runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct VoiceSettings {
    /// Whether anything is said at all.
    pub enabled: bool,
    /// The player's own moves (those not made for the engine or the opponent).
    pub my_moves: bool,
    /// The engine's or the opponent's moves.
    pub opponent_moves: bool,
    /// Illegal boards, wrong moves, sensor faults, the clock's last seconds and flags.
    pub warnings: bool,
    /// The system voice's name (empty: its default).
    pub voice: String,
    /// Words per minute.
    pub words_per_minute: u32,
}

impl Default for VoiceSettings {
    fn default() -> Self {
        Self {
            enabled: false,
            my_moves: true,
            opponent_moves: true,
            warnings: true,
            voice: String::new(),
            words_per_minute: DEFAULT_WORDS_PER_MINUTE,
        }
    }
}

/// espeak-ng's own default speed.
pub const DEFAULT_WORDS_PER_MINUTE: u32 = 175;
/// The speeds the setting offers.
pub const WORDS_PER_MINUTE: std::ops::RangeInclusive<u32> = 80..=400;

impl VoiceSettings {
    /// Everything on: `listen --speak`.
    pub fn all() -> Self {
        Self {
            enabled: true,
            ..Self::default()
        }
    }
}
