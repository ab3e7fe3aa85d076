//! From the bytes of a PGN file to its games' text, with the line each game starts on.

/// Decodes UTF-8 (with or without a byte order mark), falling back to Latin-1, in which
/// every byte is a character.
pub fn decode(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_owned(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// One game's slice of the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameText<'a> {
    /// The 1-based line of the file the game starts on.
    pub first_line: usize,
    /// The game's text.
    pub text: &'a str,
}

/// Splits a file into games: a tag line after movetext begins the next game. Splitting by
/// lines first means one game's unterminated comment cannot swallow the games after it.
pub fn split_games(text: &str) -> Vec<GameText<'_>> {
    let mut games = Vec::new();
    let mut start = None::<(usize, usize)>;
    let mut in_movetext = false;
    let mut offset = 0;
    for (index, line) in text.split_inclusive('\n').enumerate() {
        let trimmed = line.trim();
        let is_tag = trimmed.starts_with('[');
        if is_tag && in_movetext {
            if let Some((begin, first_line)) = start.take() {
                games.push(GameText {
                    first_line,
                    text: &text[begin..offset],
                });
            }
            in_movetext = false;
        }
        if !trimmed.is_empty() && start.is_none() {
            start = Some((offset, index + 1));
        }
        if !trimmed.is_empty() && !is_tag && !trimmed.starts_with('%') {
            in_movetext = true;
        }
        offset += line.len();
    }
    if let Some((begin, first_line)) = start {
        games.push(GameText {
            first_line,
            text: &text[begin..],
        });
    }
    games
}

/// Where things are in a game's movetext, for error messages.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// Each mainline move token with its 1-based line in the file.
    pub moves: Vec<(usize, String)>,
    /// The line of a `{` that is never closed.
    pub unterminated_comment: Option<usize>,
    /// Whether the game ends with a result (`1-0`, `0-1`, `1/2-1/2` or `*`).
    pub has_result: bool,
    /// The file line of the game's last non-blank text.
    pub last_line: usize,
}

/// Scans a game's movetext the way a PGN reader does, remembering lines.
pub fn layout(game: GameText<'_>) -> Layout {
    let mut layout = Layout {
        last_line: game.first_line,
        ..Layout::default()
    };
    let mut line = game.first_line;
    let mut depth = 0usize;
    let mut chars = game.text.chars().peekable();
    let mut at_line_start = true;
    while let Some(c) = chars.next() {
        if !c.is_whitespace() {
            layout.last_line = line;
        }
        match c {
            '\n' => {
                line += 1;
                at_line_start = true;
                continue;
            }
            '[' if at_line_start => {
                // A tag pair: skip to the end of the line.
                for c in chars.by_ref() {
                    if c == '\n' {
                        line += 1;
                        break;
                    }
                }
                continue;
            }
            '%' if at_line_start => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        line += 1;
                        break;
                    }
                }
                continue;
            }
            '{' => {
                let opened = line;
                let mut closed = false;
                for c in chars.by_ref() {
                    if c == '\n' {
                        line += 1;
                    } else if c == '}' {
                        closed = true;
                        break;
                    }
                }
                if !closed {
                    layout.unterminated_comment = Some(opened);
                    return layout;
                }
            }
            ';' => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        line += 1;
                        break;
                    }
                }
                at_line_start = true;
                continue;
            }
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            c if c.is_whitespace() => {}
            first => {
                let mut word = String::from(first);
                while let Some(&next) = chars.peek() {
                    if next.is_whitespace() || "{}();".contains(next) {
                        break;
                    }
                    word.push(next);
                    chars.next();
                }
                if depth == 0 {
                    record_word(&mut layout, line, &word);
                }
            }
        }
        at_line_start = false;
    }
    layout
}

fn record_word(layout: &mut Layout, line: usize, word: &str) {
    if matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*") {
        layout.has_result = true;
        return;
    }
    if word.starts_with('$') {
        return;
    }
    // Move numbers, possibly glued to the move: `12.`, `12...`, `12.e4`.
    let rest = word.trim_start_matches(|c: char| c.is_ascii_digit());
    let rest = if rest.len() < word.len() && rest.starts_with('.') {
        rest.trim_start_matches('.')
    } else {
        word
    };
    if !rest.is_empty() {
        layout.moves.push((line, rest.to_owned()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bom_is_dropped_and_latin1_is_decoded() {
        assert_eq!(decode(b"\xef\xbb\xbf[Event \"x\"]"), "[Event \"x\"]");
        assert_eq!(decode(b"[White \"M\xfcller\"]"), "[White \"Müller\"]");
        assert_eq!(
            decode("[White \"Müller\"]".as_bytes()),
            "[White \"Müller\"]"
        );
    }

    #[test]
    fn games_are_split_at_tags_after_movetext() {
        let text = "\n[Event \"a\"]\n\n1. e4 e5 *\n\n[Event \"b\"]\n[Site \"x\"]\n\n1. d4 *\n";
        let games = split_games(text);
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].first_line, 2);
        assert_eq!(games[1].first_line, 6);
        assert!(games[1].text.starts_with("[Event \"b\"]"));
    }

    #[test]
    fn layout_finds_mainline_moves_and_their_lines() {
        let text = "[Event \"a\"]\n\n1. e4 {best by test} e5 (1... c5 2. Nf3)\n2.Nf3 $1 ; a comment\nNc6 *\n";
        let layout = layout(GameText {
            first_line: 10,
            text,
        });
        let moves: Vec<_> = layout.moves.iter().map(|(l, m)| (*l, m.as_str())).collect();
        assert_eq!(
            moves,
            vec![(12, "e4"), (12, "e5"), (13, "Nf3"), (14, "Nc6")]
        );
        assert!(layout.has_result);
        assert_eq!(layout.unterminated_comment, None);
    }

    #[test]
    fn an_unterminated_comment_is_found_where_it_opens() {
        let text = "[Event \"a\"]\n\n1. e4 e5\n2. Nf3 { never closed\nNc6 *\n";
        let layout = layout(GameText {
            first_line: 1,
            text,
        });
        assert_eq!(layout.unterminated_comment, Some(4));
    }
}
