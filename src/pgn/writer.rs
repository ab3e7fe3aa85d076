//! Writes games as PGN export format: the Seven Tag Roster (plus SetUp/FEN for other
//! starts), the other tags, the opening's `ECO` and `Opening`, SAN movetext with check
//! marks, lines of at most 80 characters.

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Move, Position};

use crate::game::{GameRecord, GameTags, PgnResult, fen_of};
use crate::openings;

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
///
/// Every writer of PGN comes here, so every game written names its opening: after the
/// other tags, `ECO` and `Opening` as [`openings::classify_game`] finds them. A game
/// whose tags already name it (an `ECO` or `Opening` tag of a loaded game) keeps those
/// as they are; a game from another start, or with no named position yet, gets neither.
pub fn write_game_with_comments(
    game: &GameRecord,
    tags: &GameTags,
    comments: &[(usize, String)],
) -> String {
    let mut notes = vec![PlyNotes::default(); game.moves.len() + 1];
    for (ply, text) in comments {
        if let Some(note) = notes.get_mut(*ply) {
            note.comments.push(text.clone());
        }
    }
    write_annotated_game(game, tags, &notes)
}

/// What is written after one ply of the mainline (index 0: before the first move).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlyNotes {
    /// A numeric annotation glyph (`$2` is `?`), after the move.
    pub nag: Option<u8>,
    /// Comments, in order (`[%eval 0.34]`, `[%clk 0:05:00]`).
    pub comments: Vec<String>,
    /// A line played instead of this ply's move, from the position before it: written as
    /// a variation after the move.
    pub variation: Vec<Move>,
}

/// One game in PGN with notes after each ply (`notes[0]` before the first move; a
/// variation there is ignored): glyphs, comments and variations.
pub fn write_annotated_game(game: &GameRecord, tags: &GameTags, notes: &[PlyNotes]) -> String {
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
    let named = tags
        .extra
        .iter()
        .any(|(name, _)| name == "ECO" || name == "Opening");
    if !named && let Some(opening) = openings::classify_game(game) {
        tag("ECO", opening.eco);
        tag("Opening", opening.name);
    }
    out.push('\n');

    let mut tokens: Vec<String> = Vec::with_capacity(game.moves.len() * 2 + 1);
    let push_comments = |tokens: &mut Vec<String>, ply: usize| {
        let texts = notes.get(ply).map_or(&[][..], |n| n.comments.as_slice());
        for text in texts {
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
        let note = notes.get(index + 1);
        if let Some(nag) = note.and_then(|n| n.nag) {
            tokens.push(format!("${nag}"));
        }
        let before_move = position.clone();
        position.play_unchecked(game.moves[index]);
        let before = tokens.len();
        push_comments(&mut tokens, index + 1);
        if let Some(note) = note.filter(|n| !n.variation.is_empty()) {
            push_variation(&mut tokens, &before_move, &note.variation);
        }
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

/// A variation from `position`, in parentheses: its first move numbered (`12...` for
/// Black), as far as its moves are legal.
fn push_variation(tokens: &mut Vec<String>, position: &Chess, line: &[Move]) {
    let mut position = position.clone();
    let mut words = Vec::new();
    for (index, &mv) in line.iter().enumerate() {
        if !position.is_legal(mv) {
            break;
        }
        let number = position.fullmoves().get();
        if position.turn() == Color::White {
            words.push(format!("{number}."));
        } else if index == 0 {
            words.push(format!("{number}..."));
        }
        words.push(SanPlus::from_move_and_play_unchecked(&mut position, mv).to_string());
    }
    let Some(first) = words.first_mut() else {
        return;
    };
    first.insert(0, '(');
    if let Some(last) = words.last_mut() {
        last.push(')');
    }
    tokens.extend(words);
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
