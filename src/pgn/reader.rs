//! Reads PGN files with pgn-reader: tags, the mainline with its comments, SetUp/FEN starts,
//! and files of many games. A bad game is reported with its line; the others still load.

use std::fmt;
use std::ops::ControlFlow;

use pgn_reader::{Outcome, RawComment, RawTag, Reader, SanPlus, Skip, Visitor};
use shakmaty::{Chess, Color, Position};

use super::text::{GameText, Layout, decode, layout, split_games};
use crate::game::GameRecord;
use crate::game::{GameTags, PgnResult};

/// A game read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnGame {
    /// The game's tags.
    pub tags: GameTags,
    /// The game's start and moves.
    pub game: GameRecord,
    /// Mainline comments: (the ply they follow, 0 for before the first move; the text).
    pub comments: Vec<(usize, String)>,
    /// The 1-based line of the file the game starts on.
    pub first_line: usize,
}

impl PgnGame {
    /// "White – Black", event, date and result: a line of the game chooser.
    pub fn summary(&self) -> String {
        self.tags.summary()
    }
}

impl GameTags {
    /// "White – Black", event, date and result.
    pub fn summary(&self) -> String {
        let result = self.result.unwrap_or(PgnResult::Unknown);
        format!(
            "{} – {}, {}, {}, {}",
            self.white, self.black, self.event, self.date, result
        )
    }
}

/// What is wrong with one game of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// 1-based game number in the file.
    pub game: usize,
    /// 1-based line of the file.
    pub line: usize,
    /// What is wrong with the game.
    pub message: String,
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "game {}: line {}: {}",
            self.game, self.line, self.message
        )
    }
}

impl std::error::Error for PgnError {}

/// Every game of a file, in order: read, or what is wrong with it.
pub fn read_games(bytes: &[u8]) -> Vec<Result<PgnGame, PgnError>> {
    let text = decode(bytes);
    let games = split_games(&text);
    if games.is_empty() {
        return vec![Err(PgnError {
            game: 1,
            line: 1,
            message: "the file holds no games".into(),
        })];
    }
    games
        .into_iter()
        .enumerate()
        .map(|(index, game)| read_game(index + 1, game))
        .collect()
}

/// Reads only the tags of every game: enough to list a large file quickly.
pub fn read_summaries(bytes: &[u8]) -> Vec<(GameTags, usize)> {
    let text = decode(bytes);
    split_games(&text)
        .into_iter()
        .map(|game| (read_tags(game), game.first_line))
        .collect()
}

/// The tags of one game (the defaults where it has none or they cannot be read).
pub(super) fn read_tags(game: GameText<'_>) -> GameTags {
    Reader::new(game.text.as_bytes())
        .read_game(&mut TagsOnly)
        .ok()
        .flatten()
        .unwrap_or_default()
}

pub(super) fn read_game(number: usize, game: GameText<'_>) -> Result<PgnGame, PgnError> {
    let found = layout(game);
    let error = |line: usize, message: String| PgnError {
        game: number,
        line,
        message,
    };
    if let Some(line) = found.unterminated_comment {
        return Err(error(
            line,
            "unterminated comment: '{' is never closed".into(),
        ));
    }
    let mut visitor = GameVisitor;
    let text = without_blank_lines(game.text);
    let parsed = Reader::new(text.as_bytes())
        .read_game(&mut visitor)
        .map_err(|e| error(found.last_line, e.to_string()))?
        .ok_or_else(|| error(game.first_line, "no game here".into()))?;
    let parsed = parsed.map_err(|problem| locate(problem, game, &found, number))?;
    if !found.has_result {
        return Err(error(
            found.last_line,
            "the game ends without a result (1-0, 0-1, 1/2-1/2 or *): is the file truncated?"
                .into(),
        ));
    }
    Ok(PgnGame {
        tags: parsed.tags,
        game: parsed.game,
        comments: parsed.comments,
        first_line: game.first_line,
    })
}

/// A blank line inside a game (after a comment, say) does not end it: only a new tag
/// section does, and the games are already split at those. pgn-reader stops at a blank
/// line, so each becomes a line of one space: the line numbers stay the same.
fn without_blank_lines(text: &str) -> String {
    text.split_inclusive('\n')
        .map(|line| if line.trim().is_empty() { " \n" } else { line })
        .collect()
}

/// Turns a problem the visitor found into an error at the right line.
fn locate(problem: Problem, game: GameText<'_>, found: &Layout, number: usize) -> PgnError {
    let (line, message) = match problem {
        Problem::Tag { name, message } => (tag_line(game, &name), message),
        Problem::Move { ply, san, mover } => {
            // A token pgn-reader skipped because it is no move at all comes first.
            let unreadable = found
                .moves
                .iter()
                .take(ply + 1)
                .find(|(_, token)| SanPlus::from_ascii(token.as_bytes()).is_err());
            match unreadable {
                Some((line, token)) => (*line, format!("'{token}' is not a move")),
                None => {
                    let line = found.moves.get(ply).map_or(found.last_line, |(l, _)| *l);
                    let mover = if mover == Color::White {
                        "White"
                    } else {
                        "Black"
                    };
                    (
                        line,
                        format!("illegal move '{san}' for {mover} (ply {})", ply + 1),
                    )
                }
            }
        }
    };
    PgnError {
        game: number,
        line,
        message,
    }
}

fn tag_line(game: GameText<'_>, name: &str) -> usize {
    let prefix = format!("[{name} ");
    game.text
        .lines()
        .position(|l| l.trim_start().starts_with(&prefix))
        .map_or(game.first_line, |i| game.first_line + i)
}

enum Problem {
    Tag {
        name: String,
        message: String,
    },
    Move {
        ply: usize,
        san: String,
        mover: Color,
    },
}

struct Parsed {
    tags: GameTags,
    game: GameRecord,
    comments: Vec<(usize, String)>,
}

#[derive(Default)]
struct RawTags {
    tags: GameTags,
    fen: Option<String>,
    variant: Option<String>,
}

struct Movetext {
    tags: GameTags,
    position: Chess,
    game: GameRecord,
    comments: Vec<(usize, String)>,
    problem: Option<Problem>,
}

fn text_of(value: RawTag<'_>) -> String {
    String::from_utf8_lossy(&value.decode()).into_owned()
}

fn apply_tag(tags: &mut RawTags, name: &[u8], value: RawTag<'_>) {
    let value = text_of(value);
    match name {
        b"Event" => tags.tags.event = value,
        b"Site" => tags.tags.site = value,
        b"Date" => tags.tags.date = value,
        b"Round" => tags.tags.round = value,
        b"White" => tags.tags.white = value,
        b"Black" => tags.tags.black = value,
        b"Result" => tags.tags.result = PgnResult::parse(&value),
        b"FEN" => tags.fen = Some(value),
        b"SetUp" => {}
        b"Variant" => tags.variant = Some(value),
        other => tags
            .tags
            .extra
            .push((String::from_utf8_lossy(other).into_owned(), value)),
    }
}

struct GameVisitor;

impl Visitor for GameVisitor {
    type Tags = RawTags;
    type Movetext = Movetext;
    type Output = Result<Parsed, Problem>;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(RawTags::default())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        apply_tag(tags, name, value);
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        if let Some(variant) = &tags.variant {
            let lower = variant.to_ascii_lowercase();
            let standard = ["standard", "chess", "chess960", "from position"];
            if !standard.contains(&lower.as_str()) {
                return ControlFlow::Break(Err(Problem::Tag {
                    name: "Variant".into(),
                    message: format!(
                        "unknown variant '{variant}': only standard chess is supported"
                    ),
                }));
            }
            // Its start is one of 960: without it the game cannot be replayed.
            if lower == "chess960" && tags.fen.is_none() {
                return ControlFlow::Break(Err(Problem::Tag {
                    name: "Variant".into(),
                    message: "a Chess960 game needs its start position in a FEN tag".into(),
                }));
            }
        }
        let start = match &tags.fen {
            None => Chess::default(),
            Some(fen) => match parse_start(fen) {
                Ok(position) => position,
                Err(message) => {
                    return ControlFlow::Break(Err(Problem::Tag {
                        name: "FEN".into(),
                        message,
                    }));
                }
            },
        };
        ControlFlow::Continue(Movetext {
            tags: tags.tags,
            position: start.clone(),
            game: GameRecord::new(start),
            comments: Vec::new(),
            problem: None,
        })
    }

    fn san(
        &mut self,
        movetext: &mut Self::Movetext,
        san_plus: SanPlus,
    ) -> ControlFlow<Self::Output> {
        if movetext.problem.is_some() {
            return ControlFlow::Continue(());
        }
        match san_plus.san.to_move(&movetext.position) {
            Ok(m) => {
                movetext.position.play_unchecked(m);
                movetext.game.moves.push(m);
            }
            Err(_) => {
                movetext.problem = Some(Problem::Move {
                    ply: movetext.game.moves.len(),
                    san: san_plus.to_string(),
                    mover: movetext.position.turn(),
                });
            }
        }
        ControlFlow::Continue(())
    }

    fn comment(
        &mut self,
        movetext: &mut Self::Movetext,
        comment: RawComment<'_>,
    ) -> ControlFlow<Self::Output> {
        let text = String::from_utf8_lossy(comment.as_bytes())
            .trim()
            .to_owned();
        if !text.is_empty() && movetext.problem.is_none() {
            movetext.comments.push((movetext.game.moves.len(), text));
        }
        ControlFlow::Continue(())
    }

    fn begin_variation(
        &mut self,
        _movetext: &mut Self::Movetext,
    ) -> ControlFlow<Self::Output, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn outcome(
        &mut self,
        movetext: &mut Self::Movetext,
        outcome: Outcome,
    ) -> ControlFlow<Self::Output> {
        if movetext.tags.result.is_none() {
            movetext.tags.result = Some(PgnResult::from_outcome(outcome));
        }
        ControlFlow::Continue(())
    }

    fn end_game(&mut self, movetext: Self::Movetext) -> Self::Output {
        match movetext.problem {
            Some(problem) => Err(problem),
            None => Ok(Parsed {
                tags: movetext.tags,
                game: movetext.game,
                comments: movetext.comments,
            }),
        }
    }
}

fn parse_start(fen: &str) -> Result<Chess, String> {
    let parsed: shakmaty::fen::Fen = fen
        .trim()
        .parse()
        .map_err(|e| format!("bad FEN '{fen}': {e}"))?;
    crate::game::position_of(parsed).map_err(|e| format!("bad FEN '{fen}': {e}"))
}

/// Reads tags only, skipping the movetext.
struct TagsOnly;

impl Visitor for TagsOnly {
    type Tags = RawTags;
    type Movetext = GameTags;
    type Output = GameTags;

    fn begin_tags(&mut self) -> ControlFlow<Self::Output, Self::Tags> {
        ControlFlow::Continue(RawTags::default())
    }

    fn tag(
        &mut self,
        tags: &mut Self::Tags,
        name: &[u8],
        value: RawTag<'_>,
    ) -> ControlFlow<Self::Output> {
        apply_tag(tags, name, value);
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<Self::Output, Self::Movetext> {
        ControlFlow::Break(tags.tags)
    }

    fn end_game(&mut self, tags: Self::Movetext) -> Self::Output {
        tags
    }
}
