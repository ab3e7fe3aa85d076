//! A PGN file listed from its tags alone, each game read only when it is chosen: a file of
//! ten thousand games lists in a fraction of the time reading them all would take.

use std::ops::Range;

use super::reader::{PgnError, PgnGame, read_game, read_tags};
use super::text::{GameText, decode, split_games};
use crate::game::GameTags;

/// The games of a file, by their tags.
pub struct PgnFile {
    text: String,
    games: Vec<Listed>,
}

struct Listed {
    tags: GameTags,
    first_line: usize,
    span: Range<usize>,
}

impl PgnFile {
    /// Lists the games of a file; `progress(done, total)` is told after each game.
    pub fn list(bytes: &[u8], progress: &mut dyn FnMut(usize, usize)) -> Self {
        let text = decode(bytes);
        let split = split_games(&text);
        let total = split.len();
        let mut games = Vec::with_capacity(total);
        for (done, game) in split.into_iter().enumerate() {
            let start = game.text.as_ptr() as usize - text.as_ptr() as usize;
            games.push(Listed {
                tags: read_tags(game),
                first_line: game.first_line,
                span: start..start + game.text.len(),
            });
            progress(done + 1, total);
        }
        Self { text, games }
    }

    /// How many games the file holds.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether the file holds no game.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// The tags of game `index`, if there is one.
    pub fn tags(&self, index: usize) -> Option<&GameTags> {
        self.games.get(index).map(|g| &g.tags)
    }

    /// Reads game `index` (0-based); errors name its line in the file.
    pub fn game(&self, index: usize) -> Option<Result<PgnGame, PgnError>> {
        let listed = self.games.get(index)?;
        let text = self.text.get(listed.span.clone())?;
        Some(read_game(
            index + 1,
            GameText {
                first_line: listed.first_line,
                text,
            },
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pgn::read_games;

    #[test]
    fn a_listed_game_reads_as_reading_the_whole_file_does() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/twic1599_100k.pgn");
        let bytes = std::fs::read(path).expect("sample file");
        let mut told = Vec::new();
        let file = PgnFile::list(&bytes, &mut |done, total| told.push((done, total)));
        let all = read_games(&bytes);
        assert_eq!(file.len(), all.len());
        assert_eq!(told.last(), Some(&(all.len(), all.len())));
        for (index, expected) in all.iter().enumerate() {
            assert_eq!(file.game(index).as_ref(), Some(expected));
            if let Ok(game) = expected {
                assert_eq!(file.tags(index), Some(&game.tags));
            }
        }
        assert!(file.game(all.len()).is_none());
    }
}
