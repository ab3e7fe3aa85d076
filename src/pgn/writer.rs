//! Writes games as PGN export format: the Seven Tag Roster (plus SetUp/FEN for other
//! starts), SAN movetext with check marks, lines of at most 80 characters.

use std::fmt;

use shakmaty::{Chess, Color, KnownOutcome, Outcome, Position};

use crate::recognizer::{GameRecord, fen_of};

/// A game's result as PGN writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PgnResult {
    WhiteWins,
    BlackWins,
    Draw,
    Unknown,
}

impl PgnResult {
    /// The result the final position decides (mate, stalemate, insufficient material).
    pub fn from_position(position: &Chess) -> Self {
        match position.outcome() {
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
#[derive(Clone, Debug)]
pub struct GameTags {
    pub event: String,
    pub site: String,
    /// `YYYY.MM.DD`, with `??` for unknown parts.
    pub date: String,
    pub round: String,
    pub white: String,
    pub black: String,
    pub result: Option<PgnResult>,
}

impl Default for GameTags {
    fn default() -> Self {
        Self {
            event: "?".into(),
            site: "?".into(),
            date: "????.??.??".into(),
            round: "?".into(),
            white: "?".into(),
            black: "?".into(),
            result: None,
        }
    }
}

/// Escapes a tag value: backslashes and quotes are escaped, control characters dropped.
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

const MAX_LINE: usize = 80;

/// One game in PGN, ending with a blank line.
pub fn write_game(game: &GameRecord, tags: &GameTags) -> String {
    let result = tags
        .result
        .unwrap_or_else(|| PgnResult::from_position(&game.final_position()));
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    };
    tag("Event", &tags.event);
    tag("Site", &tags.site);
    tag("Date", &tags.date);
    tag("Round", &tags.round);
    tag("White", &tags.white);
    tag("Black", &tags.black);
    tag("Result", result.as_str());
    if game.start != Chess::default() {
        tag("SetUp", "1");
        tag("FEN", &fen_of(&game.start));
    }
    out.push('\n');

    let mut tokens = Vec::with_capacity(game.moves.len() * 2 + 1);
    let mut position = game.start.clone();
    for (index, san) in game.san_moves().into_iter().enumerate() {
        let number = position.fullmoves().get();
        if position.turn() == Color::White {
            tokens.push(format!("{number}."));
        } else if index == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(san.to_string());
        position.play_unchecked(game.moves[index]);
    }
    tokens.push(result.as_str().to_owned());

    let mut line_len = 0;
    for token in tokens {
        if line_len > 0 && line_len + 1 + token.len() > MAX_LINE {
            out.push('\n');
            line_len = 0;
        }
        if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(&token);
        line_len += token.len();
    }
    out.push_str("\n\n");
    out
}
