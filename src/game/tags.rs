//! A game's tags and result.

use std::fmt;

use shakmaty::{Chess, Color, KnownOutcome, Outcome, Position};

/// A game's result as PGN writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PgnResult {
    /// `1-0`.
    WhiteWins,
    /// `0-1`.
    BlackWins,
    /// `1/2-1/2`.
    Draw,
    /// `*`: not decided (yet).
    Unknown,
}

impl PgnResult {
    /// The result the final position decides (mate, stalemate, insufficient material).
    pub fn from_position(position: &Chess) -> Self {
        Self::from_outcome(position.outcome())
    }

    /// The result of a shakmaty outcome.
    pub fn from_outcome(outcome: Outcome) -> Self {
        match outcome {
            Outcome::Known(KnownOutcome::Decisive {
                winner: Color::White,
            }) => Self::WhiteWins,
            Outcome::Known(KnownOutcome::Decisive {
                winner: Color::Black,
            }) => Self::BlackWins,
            Outcome::Known(KnownOutcome::Draw) => Self::Draw,
            Outcome::Unknown => Self::Unknown,
        }
    }

    /// The result a `Result` tag value names (`None` for anything else).
    pub fn parse(value: &str) -> Option<Self> {
        match value.trim() {
            "1-0" => Some(Self::WhiteWins),
            "0-1" => Some(Self::BlackWins),
            "1/2-1/2" => Some(Self::Draw),
            "*" => Some(Self::Unknown),
            _ => None,
        }
    }

    /// The result as PGN writes it (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub fn as_str(self) -> &'static str {
        match self {
            Self::WhiteWins => "1-0",
            Self::BlackWins => "0-1",
            Self::Draw => "1/2-1/2",
            Self::Unknown => "*",
        }
    }
}

impl fmt::Display for PgnResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The tags of one game; `result` of `None` means decided by the final position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameTags {
    /// `Event`.
    pub event: String,
    /// `Site`.
    pub site: String,
    /// `YYYY.MM.DD`, with `??` for unknown parts.
    pub date: String,
    /// `Round`.
    pub round: String,
    /// `White`: the white player.
    pub white: String,
    /// `Black`: the black player.
    pub black: String,
    /// `Result`; `None` means decided by the final position.
    pub result: Option<PgnResult>,
    /// Other tags, in the order they came, written after the roster.
    pub extra: Vec<(String, String)>,
}

impl Default for GameTags {
    /// Unknown players and event, played today.
    fn default() -> Self {
        Self {
            event: "?".into(),
            site: "?".into(),
            date: today(),
            round: "?".into(),
            white: "?".into(),
            black: "?".into(),
            result: None,
            extra: Vec::new(),
        }
    }
}

/// Today's local date as PGN writes dates: `YYYY.MM.DD`.
pub fn today() -> String {
    chrono::Local::now().format("%Y.%m.%d").to_string()
}

/// What the players at a board give for their games: their names and the board's number in
/// the round (a broadcast tells the tables apart by these).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TableTags {
    /// `White`.
    pub white: Option<String>,
    /// `Black`.
    pub black: Option<String>,
    /// `Round`.
    pub round: Option<String>,
    /// `Board`: the board's number in the round.
    pub board: Option<u32>,
}

impl TableTags {
    /// Sets what is given in `tags`.
    pub fn apply(&self, tags: &mut GameTags) {
        if let Some(white) = &self.white {
            tags.white = white.clone();
        }
        if let Some(black) = &self.black {
            tags.black = black.clone();
        }
        if let Some(round) = &self.round {
            tags.round = round.clone();
        }
        if let Some(board) = self.board {
            tags.extra.retain(|(name, _)| name != "Board");
            tags.extra.push(("Board".into(), board.to_string()));
        }
    }
}

/// One game's tags and the comments after its moves (each after the ply it follows), as
/// the PGN writer takes them.
pub type Annotation = (GameTags, Vec<(usize, String)>);
