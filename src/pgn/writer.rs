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
        Self::from_outcome(position.outcome())
    }

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
    pub event: String,
    pub site: String,
    /// `YYYY.MM.DD`, with `??` for unknown parts.
    pub date: String,
    pub round: String,
    pub white: String,
    pub black: String,
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
    write_game_with_comments(game, tags, &[])
}

/// One game in PGN with mainline comments: (the ply they follow, 0 for before the first
/// move; the text).
pub fn write_game_with_comments(
    game: &GameRecord,
    tags: &GameTags,
    comments: &[(usize, String)],
) -> String {
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
    let chess960 = game.start.castles().mode().is_chess960();
    if chess960 {
        tag("Variant", "Chess960");
    }
    if game.start != Chess::default() {
        tag("SetUp", "1");
        tag("FEN", &fen_of(&game.start));
    }
    for (name, value) in &tags.extra {
        if is_tag_name(name) && !(chess960 && name == "Variant") {
            tag(name, value);
        }
    }
    out.push('\n');

    let mut tokens: Vec<String> = Vec::with_capacity(game.moves.len() * 2 + 1);
    let push_comments = |tokens: &mut Vec<String>, ply: usize| {
        for (_, text) in comments.iter().filter(|(after, _)| *after == ply) {
            // `}` would end the comment early.
            let text = text.replace('}', ")");
            // Spaced inside the braces, as lichess writes `{ [%clk 0:05:00] }`; the braces
            // stay with the words, so no line begins with `[` and reads as a tag.
            let mut words = comment_words(&text);
            if let Some(first) = words.first_mut() {
                first.insert_str(0, "{ ");
            }
            if let Some(last) = words.last_mut() {
                last.push_str(" }");
            }
            tokens.extend(words);
        }
    };
    push_comments(&mut tokens, 0);
    let mut position = game.start.clone();
    let mut after_comment = false;
    for (index, san) in game.san_moves().into_iter().enumerate() {
        let number = position.fullmoves().get();
        if position.turn() == Color::White {
            tokens.push(format!("{number}."));
        } else if index == 0 || after_comment {
            tokens.push(format!("{number}..."));
        }
        tokens.push(san.to_string());
        position.play_unchecked(game.moves[index]);
        let before = tokens.len();
        push_comments(&mut tokens, index + 1);
        after_comment = tokens.len() > before;
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

/// A comment's words for wrapping lines; a command such as `[%clk 0:05:17]` stays whole,
/// for readers that take it apart.
fn comment_words(text: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    let mut in_command = false;
    for word in text.split_whitespace() {
        match words.last_mut() {
            Some(last) if in_command => {
                last.push(' ');
                last.push_str(word);
            }
            _ => words.push(word.to_owned()),
        }
        if word.starts_with("[%") {
            in_command = true;
        }
        if word.ends_with(']') {
            in_command = false;
        }
    }
    words
}

/// Tag names are letters, digits and underscores; anything else would break the file.
fn is_tag_name(name: &str) -> bool {
    !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !matches!(
            name,
            "Event" | "Site" | "Date" | "Round" | "White" | "Black" | "Result" | "SetUp" | "FEN"
        )
}
