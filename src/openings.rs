//! Opening names: the ECO code and the name of a game's opening ("C65 Ruy Lopez: Berlin
//! Defense"), from lichess's chess-openings data set (`assets/openings/`, public domain:
//! CC0), built into the program.
//!
//! The data set names positions by a line of moves that reaches each. The book here maps
//! every named position (the board, the side to move, the castling rights and an en passant
//! square only where the capture is legal, as the data set's EPDs have them) to its
//! opening; it is built once, the first time it is asked. A game is classified as the data
//! set advises: played back from its last position to its first until a named one is found,
//! so a transposition is named all the same (1. Nf3 d5 2. d4 Nf6 3. c4 e6 4. Nc3 is the
//! Queen's Gambit Declined: Three Knights Variation, whose book line begins 1. d4).

use std::collections::HashMap;
use std::fmt;
use std::sync::LazyLock;

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, Position};

use crate::game::GameRecord;

/// An opening as the data set names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Opening {
    /// The ECO code, `A00` to `E99`.
    pub eco: &'static str,
    /// The name in English, `Family: Variation, Subvariation` (`Sicilian Defense: Najdorf
    /// Variation, English Attack`).
    pub name: &'static str,
}

impl fmt::Display for Opening {
    /// The code, then the name: `C65 Ruy Lopez: Berlin Defense`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.eco, self.name)
    }
}

/// How many plies of a game are looked at: a position later than this is never named. The
/// longest line of the book is 36 plies; a transposition may take a few more.
pub const MAX_PLIES: usize = 40;

/// The data set, one file per ECO volume: `eco`, `name` and `pgn`, tab-separated, under a
/// header line.
const DATA: [&str; 5] = [
    include_str!("../assets/openings/a.tsv"),
    include_str!("../assets/openings/b.tsv"),
    include_str!("../assets/openings/c.tsv"),
    include_str!("../assets/openings/d.tsv"),
    include_str!("../assets/openings/e.tsv"),
];

/// Every named position, by its key.
static BOOK: LazyLock<HashMap<Zobrist64, Opening>> = LazyLock::new(build_book);

/// The key of a position in the book: the board, side to move, castling rights and a legal
/// en passant square (move counters do not count).
fn key(position: &Chess) -> Zobrist64 {
    position.zobrist_hash::<Zobrist64>(EnPassantMode::Legal)
}

/// Builds the book now (it is otherwise built on first use: some 0.1 s, more in a debug
/// build), for a caller that would rather not wait at its first move.
pub fn prepare() {
    LazyLock::force(&BOOK);
}

fn build_book() -> HashMap<Zobrist64, Opening> {
    let mut book = HashMap::with_capacity(4096);
    for line in DATA.into_iter().flat_map(str::lines) {
        // A line that does not read is left out; a unit test keeps there being none.
        if let Ok(Some((position, opening))) = parse_line(line) {
            // The data set names each position once; were one named twice, the first stays.
            book.entry(key(&position)).or_insert(opening);
        }
    }
    book
}

/// One line of the data set: the position its moves reach and the opening named there;
/// `None` for the header and blank lines.
fn parse_line(line: &'static str) -> Result<Option<(Chess, Opening)>, String> {
    let line = line.trim_end_matches('\r');
    if line.is_empty() || line.starts_with("eco\t") {
        return Ok(None);
    }
    let columns: Vec<&'static str> = line.split('\t').collect();
    let &[eco, name, pgn] = columns.as_slice() else {
        return Err(format!("{line:?}: not three tab-separated columns"));
    };
    let game = GameRecord::from_san(Chess::default(), pgn).map_err(|e| format!("{line:?}: {e}"))?;
    Ok(Some((game.final_position(), Opening { eco, name })))
}

/// The opening named at exactly `position`, if the book names it.
pub fn named_at(position: &Chess) -> Option<Opening> {
    BOOK.get(&key(position)).copied()
}

/// The opening of a game of `moves` from the standard start: the last of its first
/// [`MAX_PLIES`] positions the book names. `None` before a named position is reached (no
/// move yet); a move that is not legal where it is played ends the look.
pub fn classify(moves: &[Move]) -> Option<Opening> {
    let mut position = Chess::default();
    let mut found = None;
    for &m in moves.iter().take(MAX_PLIES) {
        if !position.is_legal(m) {
            break;
        }
        position.play_unchecked(m);
        if let Some(opening) = named_at(&position) {
            found = Some(opening);
        }
    }
    found
}

/// The opening of `game`, as [`classify`] names it; `None` for a game that did not start
/// from the standard start (Chess960, or set up).
pub fn classify_game(game: &GameRecord) -> Option<Opening> {
    if game.start.castles().mode().is_chess960() || game.start != Chess::default() {
        return None;
    }
    classify(&game.moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The moves of a line in SAN from the standard start.
    fn moves(sans: &str) -> Vec<Move> {
        GameRecord::from_san(Chess::default(), sans)
            .expect("legal moves")
            .moves
    }

    /// The opening of a line in SAN, as `C65 Ruy Lopez: Berlin Defense`.
    fn named(sans: &str) -> Option<String> {
        classify(&moves(sans)).map(|opening| opening.to_string())
    }

    #[test]
    fn every_bundled_line_reads_and_names_a_position_of_its_own() {
        let mut lines = 0;
        let mut errors = Vec::new();
        let mut longest = 0;
        for line in DATA.into_iter().flat_map(str::lines) {
            match parse_line(line) {
                Ok(Some((position, opening))) => {
                    lines += 1;
                    let eco = opening.eco.as_bytes();
                    assert!(eco.len() == 3 && (b'A'..=b'E').contains(&eco[0]), "{line}");
                    assert!(!opening.name.is_empty(), "{line}");
                    let full_moves = position.fullmoves().get() as usize;
                    let plies = (full_moves - 1) * 2 + usize::from(position.turn().is_black());
                    longest = longest.max(plies);
                }
                Ok(None) => {}
                Err(error) => errors.push(error),
            }
        }
        assert!(errors.is_empty(), "{errors:#?}");
        assert!(lines > 3000, "{lines} lines");
        // No two lines reach the same position (nor do two positions share a key).
        assert_eq!(BOOK.len(), lines);
        assert!(longest <= MAX_PLIES, "a line of {longest} plies");
    }

    #[test]
    fn the_berlin_defense() {
        let opening = classify(&moves("1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6")).expect("named");
        assert_eq!(opening.eco, "C65");
        assert_eq!(opening.name, "Ruy Lopez: Berlin Defense");
        assert_eq!(opening.to_string(), "C65 Ruy Lopez: Berlin Defense");
    }

    #[test]
    fn the_najdorf() {
        let najdorf = "1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6";
        assert_eq!(
            named(najdorf).as_deref(),
            Some("B90 Sicilian Defense: Najdorf Variation")
        );
        assert_eq!(
            named(&format!("{najdorf} 6. Be3")).as_deref(),
            Some("B90 Sicilian Defense: Najdorf Variation, English Attack")
        );
    }

    #[test]
    fn a_transposition_from_1_nf3_reaches_the_queens_gambit_declined() {
        // The book's line is 1. d4 Nf6 2. c4 e6 3. Nf3 d5 4. Nc3.
        let by_nf3 = named("1. Nf3 d5 2. d4 Nf6 3. c4 e6 4. Nc3");
        assert_eq!(
            by_nf3.as_deref(),
            Some("D37 Queen's Gambit Declined: Three Knights Variation")
        );
        assert_eq!(by_nf3, named("1. d4 Nf6 2. c4 e6 3. Nf3 d5 4. Nc3"));
        // On the way, 1. Nf3 d5 2. d4 is a position the book reaches by 1. d4 d5 2. Nf3.
        assert_eq!(
            named("1. Nf3 d5 2. d4").as_deref(),
            Some("D02 Queen's Pawn Game: Zukertort Variation")
        );
    }

    #[test]
    fn moves_beyond_the_book_keep_the_last_name() {
        let rio = "1. e4 e5 2. Nf3 Nc6 3. Bb5 Nf6 4. O-O Nxe4";
        assert_eq!(
            named(rio).as_deref(),
            Some("C67 Ruy Lopez: Berlin Defense, Rio Gambit Accepted")
        );
        let on = format!("{rio} 5. Qe2 Qe7 6. Kh1 Kd8 7. Kg1 Ke8 8. a3 a6");
        assert_eq!(named(&on), named(rio));
        // Past MAX_PLIES nothing is looked at: the kings walk to and fro.
        let mut long = on;
        for number in 9..22 {
            let walk = ["Kh1 Kd8", "Kg1 Ke8"][(number - 9) % 2];
            long.push_str(&format!(" {number}. {walk}"));
        }
        assert!(moves(&long).len() > MAX_PLIES);
        assert_eq!(named(&long), named(rio));
    }

    #[test]
    fn no_move_no_opening() {
        assert_eq!(classify(&[]), None);
        assert_eq!(classify_game(&GameRecord::new(Chess::default())), None);
        assert_eq!(named("1. e4").as_deref(), Some("B00 King's Pawn Game"));
    }

    #[test]
    fn only_a_game_from_the_standard_start_has_an_opening() {
        let standard = GameRecord::from_uci(Chess::default(), ["e2e4", "e7e5"]).expect("legal");
        assert_eq!(
            classify_game(&standard).map(|o| o.eco),
            Some("C20"),
            "1. e4 e5, the King's Pawn Game"
        );
        let start = crate::chess960::start_position(3).expect("a start");
        let chess960 = GameRecord::from_uci(start, ["e2e4", "e7e5"]).expect("legal");
        assert_eq!(classify_game(&chess960), None);
    }
}
