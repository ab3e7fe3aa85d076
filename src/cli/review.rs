//! `boardsight review PGN [--engine PATH] [--depth N | --nodes N | --movetime MS]
//! [--out FILE] [--gif FILE]`: every game of a file reviewed by the engine and written back
//! annotated; each game as an animated GIF too.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use super::usage_error;
use crate::background::no_wake;
use crate::engine::SearchLimit;
use crate::files::write_atomically;
use crate::pgn::{PgnGame, read_games, write_annotated_game};
use crate::review::{GameReview, Reviewer};

/// What `review` is told.
pub struct Options<'a> {
    pub file: &'a Path,
    pub engine: &'a Path,
    pub limit: SearchLimit,
    /// Where the annotated games go (standard output without it).
    pub out: Option<&'a Path>,
    /// Each game as an animated GIF: the first here, the n-th beside it as `NAME-n.gif`.
    pub gif: Option<&'a Path>,
}

pub fn run(options: Options<'_>) -> ExitCode {
    if options.gif.is_some() && !cfg!(feature = "app") {
        return usage_error(
            "--gif: this build makes no pictures (built without the `app` feature)",
        );
    }
    let bytes = match std::fs::read(options.file) {
        Ok(bytes) => bytes,
        Err(e) => return usage_error(&format!("{}: {e}", options.file.display())),
    };
    let games = read_games(&bytes);
    let count = games.len();
    let mut text = String::new();
    let mut failed = false;
    for (index, game) in games.iter().enumerate() {
        let game = match game {
            Ok(game) => game,
            Err(error) => {
                eprintln!("boardsight: {}: {error}", options.file.display());
                failed = true;
                continue;
            }
        };
        match review_game(game, &options, index + 1, count) {
            Ok(annotated) => text.push_str(&annotated),
            Err(message) => {
                eprintln!("\nboardsight: game {}: {message}", index + 1);
                failed = true;
            }
        }
    }
    eprintln!();
    let written = match options.out {
        Some(path) => {
            write_atomically(path, text.as_bytes()).map_err(|e| format!("{}: {e}", path.display()))
        }
        None => std::io::stdout()
            .write_all(text.as_bytes())
            .map_err(|e| format!("standard output: {e}")),
    };
    if let Err(message) = written {
        eprintln!("boardsight: {message}");
        return ExitCode::FAILURE;
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// One game reviewed, with a progress line on standard error; its annotated PGN.
fn review_game(
    game: &PgnGame,
    options: &Options<'_>,
    number: usize,
    count: usize,
) -> Result<String, String> {
    let mut reviewer = Reviewer::start(options.engine, &game.game, options.limit, no_wake());
    while !reviewer.is_finished() {
        reviewer.wait(Duration::from_millis(200));
        let (done, total) = reviewer.progress();
        eprint!("\rreview: game {number} of {count}, position {done} of {total}   ");
    }
    if let Some(fault) = reviewer.fault() {
        return Err(fault.to_string());
    }
    let engine = reviewer.engine_name().unwrap_or("the engine").to_owned();
    if let Some(path) = options.gif {
        let path = numbered(path, number);
        write_gif(game, reviewer.review(), &path)?;
    }
    Ok(annotate(game, reviewer.review(), &engine, options.limit))
}

/// `game.gif` for the first game, `game-2.gif` for the second, and so on.
fn numbered(path: &Path, number: usize) -> std::path::PathBuf {
    if number == 1 {
        return path.to_owned();
    }
    let stem = path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let name = match path.extension() {
        Some(extension) => format!("{stem}-{number}.{}", extension.to_string_lossy()),
        None => format!("{stem}-{number}"),
    };
    path.with_file_name(name)
}

/// The game as an animated GIF, its marked moves framed, with the better move's arrow.
#[cfg(feature = "app")]
fn write_gif(game: &PgnGame, review: &GameReview, path: &Path) -> Result<(), String> {
    let marks = review.marks(&game.game);
    let better = review.better_moves(&marks);
    let bytes = crate::picture::Painter::default().gif(
        &game.game,
        &marks,
        &better,
        GIF_SIDE,
        GIF_DELAY_MS,
    )?;
    write_atomically(path, &bytes).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(not(feature = "app"))]
fn write_gif(_game: &PgnGame, _review: &GameReview, _path: &Path) -> Result<(), String> {
    Err("this build makes no pictures".into())
}

/// The GIF's side in pixels, and how long each move shows.
#[cfg(feature = "app")]
const GIF_SIDE: u32 = 400;
#[cfg(feature = "app")]
const GIF_DELAY_MS: u32 = 1000;

/// The game as annotated PGN: its own comments kept, the evaluations, glyphs and better
/// lines added, the annotator and the accuracies in tags.
pub fn annotate(game: &PgnGame, review: &GameReview, engine: &str, limit: SearchLimit) -> String {
    let mut notes = review.notes(&game.game);
    for (ply, text) in &game.comments {
        // A comment of its own that already has an evaluation is replaced by the new one.
        if let Some(note) = notes.get_mut(*ply) {
            let own = strip_eval(text);
            if !own.is_empty() {
                note.comments.insert(0, own);
            }
        }
    }
    let mut tags = game.tags.clone();
    tags.extra.retain(|(name, _)| {
        !matches!(
            name.as_str(),
            "Annotator" | "WhiteAccuracy" | "BlackAccuracy"
        )
    });
    tags.extra.push((
        "Annotator".into(),
        format!("boardsight, {engine}, {}", describe(limit)),
    ));
    let (white, black) = review.accuracy(&game.game);
    for (name, accuracy) in [("WhiteAccuracy", white), ("BlackAccuracy", black)] {
        if let Some(accuracy) = accuracy {
            tags.extra.push((name.into(), format!("{accuracy:.1}")));
        }
    }
    write_annotated_game(&game.game, &tags, &notes)
}

/// A comment without its `[%eval …]` command.
fn strip_eval(text: &str) -> String {
    let mut kept = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("[%eval") {
        kept.push_str(&rest[..start]);
        rest = rest[start..]
            .find(']')
            .map_or("", |end| &rest[start + end + 1..]);
    }
    kept.push_str(rest);
    kept.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `depth 14`, `200000 nodes`, `500 ms a position`.
pub fn describe(limit: SearchLimit) -> String {
    match limit {
        SearchLimit::Depth(depth) => format!("depth {depth}"),
        SearchLimit::Nodes(nodes) => format!("{nodes} nodes"),
        SearchLimit::MoveTime(time) => format!("{} ms a position", time.as_millis()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_old_evaluation_is_taken_out_of_a_comment_and_the_rest_kept() {
        assert_eq!(
            strip_eval("[%eval 0.3] good [%clk 0:05:00]"),
            "good [%clk 0:05:00]"
        );
        assert_eq!(strip_eval("[%eval #-2]"), "");
        assert_eq!(strip_eval("no eval"), "no eval");
        assert_eq!(strip_eval("broken [%eval 1"), "broken");
    }
}
