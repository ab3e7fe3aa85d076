//! What is said, in short natural words: the wording is the product, so it lives here, in
//! one place, apart from who says it.

use shakmaty::san::{San, SanPlus, Suffix};
use shakmaty::{CastlingSide, Chess, Color, Move, Position, Role, Square};

use crate::clock::FlagResult;

/// "knight", "pawn".
pub fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// "white pawn".
pub fn piece_name(piece: shakmaty::Piece) -> String {
    format!(
        "{} {}",
        piece.color.fold_wb("white", "black"),
        role_name(piece.role)
    )
}

/// "White", "Black".
pub fn side_name(color: Color) -> &'static str {
    color.fold_wb("White", "Black")
}

/// The first letter a capital, as a sentence starts; a square or a file letter ("e4",
/// "e takes d5") keeps its small letter.
pub fn sentence(words: &str) -> String {
    let first_word = words
        .split(' ')
        .next()
        .unwrap_or_default()
        .trim_end_matches(|c: char| !c.is_alphanumeric());
    let mut chars = words.chars();
    match chars.next() {
        Some(first) if first_word.chars().count() > 2 => {
            first.to_uppercase().chain(chars).collect()
        }
        _ => words.to_owned(),
    }
}

/// A move as a player says it: "knight takes e5, check", "e takes d6, en passant",
/// "castles kingside", "e8, promotes to a knight". Lower case, for a sentence to hold.
pub fn spoken_move(san: &SanPlus, mv: Move) -> String {
    let mut words = match san.san {
        San::Castle(side) => format!("castles {}", castling_side(side)),
        San::Normal {
            role,
            file,
            rank,
            capture,
            to,
            promotion,
        } => {
            let mut words = String::new();
            if role == Role::Pawn {
                if capture && let Some(file) = file {
                    words.push(file.char());
                }
            } else {
                words.push_str(role_name(role));
                // A piece named by its file or rank too: "knight b d7".
                let from: String = file
                    .map(|f| f.char())
                    .into_iter()
                    .chain(rank.map(|r| r.char()))
                    .collect();
                if !from.is_empty() {
                    words.push(' ');
                    words.push_str(&from);
                }
            }
            if capture {
                words.push_str(" takes");
            }
            if !words.is_empty() {
                words.push(' ');
            }
            words.push_str(&to.to_string());
            if matches!(mv, Move::EnPassant { .. }) {
                words.push_str(", en passant");
            }
            if let Some(promoted) = promotion {
                words.push_str(&format!(
                    ", promotes to {}",
                    with_article(role_name(promoted))
                ));
            }
            words
        }
        _ => san.san.to_string(),
    };
    match san.suffix {
        Some(Suffix::Check) => words.push_str(", check"),
        Some(Suffix::Checkmate) => words.push_str(", checkmate"),
        None => {}
    }
    words
}

fn castling_side(side: CastlingSide) -> &'static str {
    match side {
        CastlingSide::KingSide => "kingside",
        CastlingSide::QueenSide => "queenside",
    }
}

fn with_article(noun: &str) -> String {
    format!("a {noun}")
}

/// A move in `position` as the player is told to make it: "Stockfish plays knight to f3.
/// Move the knight from g1 to f3." Captures say what to take off first; castling says
/// both pieces; a promotion which piece to put down.
pub fn engine_move(name: &str, position: &Chess, mv: Move) -> String {
    let san = SanPlus::from_move(position.clone(), mv);
    let check = match san.suffix {
        Some(Suffix::Check) => ", check",
        Some(Suffix::Checkmate) => ", checkmate",
        None => "",
    };
    match mv {
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_queen_side(rook < king);
            let king_to = Square::from_coords(side.king_to_file(), king.rank());
            let rook_to = Square::from_coords(side.rook_to_file(), rook.rank());
            format!(
                "{name} castles {}{check}. Move the king from {king} to {king_to} and the rook from {rook} to {rook_to}.",
                castling_side(side)
            )
        }
        _ => {
            let (from, to, role) = (mv.from().unwrap_or(mv.to()), mv.to(), mv.role());
            let piece = role_name(role);
            let victim_square = match mv {
                Move::EnPassant { from, to } => Square::from_coords(to.file(), from.rank()),
                _ => to,
            };
            let victim = mv.capture().map(role_name);
            let verb = if victim.is_some() { "takes" } else { "to" };
            let mut words = format!("{name} plays {piece} {verb} {to}{check}. ");
            match victim {
                Some(victim) => words.push_str(&format!(
                    "Take the {victim} off {victim_square}, and move the {piece} from {from} to {to}"
                )),
                None => words.push_str(&format!("Move the {piece} from {from} to {to}")),
            }
            if let Some(promoted) = mv.promotion() {
                words.push_str(&format!(
                    ", and make it {}",
                    with_article(role_name(promoted))
                ));
            }
            words.push('.');
            words
        }
    }
}

/// A move that is not the engine's: "Wrong move. Stockfish plays knight to f3. Move the
/// knight from g1 to f3."
pub fn wrong_move(name: &str, position: &Chess, expected: Move) -> String {
    format!("Wrong move. {}", engine_move(name, position, expected))
}

/// "Correction: bishop c4."
pub fn revised(san: &SanPlus, mv: Move) -> String {
    format!("Correction: {}.", spoken_move(san, mv))
}

/// "Taken back: knight f3."
pub fn taken_back(spoken: Option<String>) -> String {
    match spoken {
        Some(spoken) => format!("Taken back: {spoken}."),
        None => "Move taken back.".to_owned(),
    }
}

/// The illegal board's sentences, as the banner shows them: "Put the white pawn back on
/// e2", "Remove the piece on e4". The pieces to put back are those the position has there.
pub fn illegal_parts(
    put_back: shakmaty::Bitboard,
    remove: shakmaty::Bitboard,
    position: &Chess,
) -> Vec<String> {
    let board = position.board();
    let mut parts = Vec::new();
    // Squares of the same piece together: "the black pawns back on d7 and e7".
    let mut groups: Vec<(Option<shakmaty::Piece>, Vec<String>)> = Vec::new();
    for square in put_back {
        let piece = board.piece_at(square);
        match groups.iter_mut().find(|(p, _)| *p == piece) {
            Some((_, squares)) => squares.push(square.to_string()),
            None => groups.push((piece, vec![square.to_string()])),
        }
    }
    let named: Vec<String> = groups
        .into_iter()
        .map(|(piece, squares)| {
            let plural = squares.len() > 1;
            let what = match piece {
                Some(piece) => {
                    format!("the {}{}", piece_name(piece), if plural { "s" } else { "" })
                }
                None if plural => "pieces".to_owned(),
                None => "a piece".to_owned(),
            };
            format!("{what} back on {}", and_list(&squares))
        })
        .collect();
    if !named.is_empty() {
        parts.push(format!("Put {}", and_list(&named)));
    }
    if !remove.is_empty() {
        let squares: Vec<String> = remove.into_iter().map(|s| s.to_string()).collect();
        parts.push(if squares.len() == 1 {
            format!("Remove the piece on {}", squares[0])
        } else {
            format!("Remove the pieces on {}", and_list(&squares))
        });
    }
    parts
}

/// "a", "a and b", "a, b and c".
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// A fallen flag: "White's time is up. Black wins."
pub fn flag(color: Color, result: FlagResult) -> String {
    let side = side_name(color);
    match result {
        FlagResult::Lost => format!("{side}'s time is up. {} wins.", side_name(!color)),
        FlagResult::Draw => {
            format!(
                "{side}'s time is up, but {} cannot mate. Draw.",
                side_name(!color)
            )
        }
    }
}

/// "White, ten seconds."
pub fn last_seconds(color: Color) -> String {
    format!("{}, ten seconds.", side_name(color))
}

/// The game's end in its last position: "Checkmate. White wins."
pub fn game_end(position: &Chess) -> Option<String> {
    if position.is_checkmate() {
        Some(format!("Checkmate. {} wins.", side_name(!position.turn())))
    } else if position.is_stalemate() {
        Some("Stalemate. The game is drawn.".to_owned())
    } else if position.is_insufficient_material() {
        Some("Neither side can mate. The game is drawn.".to_owned())
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::uci::UciMove;
    use shakmaty::{CastlingMode, fen::Fen};

    fn position(fen: &str) -> Chess {
        let fen: Fen = fen.parse().expect("FEN");
        fen.into_position(CastlingMode::Standard)
            .expect("a position")
    }

    fn legal(position: &Chess, uci: &str) -> Move {
        uci.parse::<UciMove>()
            .expect("UCI")
            .to_move(position)
            .expect("legal")
    }

    fn said(fen: &str, uci: &str) -> String {
        let position = position(fen);
        let mv = legal(&position, uci);
        spoken_move(&SanPlus::from_move(position, mv), mv)
    }

    #[test]
    fn moves_are_said_as_players_say_them() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(said(start, "e2e4"), "e4");
        assert_eq!(said(start, "g1f3"), "knight f3");
        let open = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
        assert_eq!(said(open, "e4d5"), "e takes d5");
        let italian = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
        assert_eq!(said(italian, "e1g1"), "castles kingside");
        assert_eq!(said(italian, "c4f7"), "bishop takes f7, check");
        let passant = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
        assert_eq!(said(passant, "e5f6"), "e takes f6, en passant");
        let promotion = "8/1P6/8/8/8/8/k7/4K3 w - - 0 1";
        assert_eq!(said(promotion, "b7b8n"), "b8, promotes to a knight");
        assert_eq!(
            sentence("b8, promotes to a knight."),
            "b8, promotes to a knight."
        );
        assert_eq!(sentence("knight f3."), "Knight f3.");
        let mate = "rnbqkbnr/ppppp2p/5p2/6p1/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 3";
        assert_eq!(said(mate, "d1h5"), "queen h5, checkmate");
        let knights = "4k3/8/8/8/8/8/8/1N2KN2 w - - 0 1";
        assert_eq!(said(knights, "b1d2"), "knight b d2");
    }

    #[test]
    fn the_engines_move_is_an_instruction() {
        let italian = "r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
        let p = position(italian);
        let castle = Move::Castle {
            king: Square::E1,
            rook: Square::H1,
        };
        assert_eq!(
            engine_move("Stockfish", &p, castle),
            "Stockfish castles kingside. Move the king from e1 to g1 and the rook from h1 to f1."
        );
        let take = legal(&p, "c4f7");
        assert_eq!(
            engine_move("Stockfish", &p, take),
            "Stockfish plays bishop takes f7, check. Take the pawn off f7, and move the bishop from c4 to f7."
        );
        let quiet = legal(&p, "b1c3");
        assert_eq!(
            engine_move("Stockfish", &p, quiet),
            "Stockfish plays knight to c3. Move the knight from b1 to c3."
        );
        let promotion = position("8/1P6/8/8/8/8/k7/4K3 w - - 0 1");
        let queen = legal(&promotion, "b7b8q");
        assert_eq!(
            engine_move("Maia", &promotion, queen),
            "Maia plays pawn to b8. Move the pawn from b7 to b8, and make it a queen."
        );
    }

    #[test]
    fn the_illegal_board_names_the_pieces_to_put_back() {
        let p = Chess::default();
        let parts = illegal_parts(
            shakmaty::Bitboard::from_square(Square::E2) | Square::G1 | Square::D2,
            shakmaty::Bitboard::from_square(Square::E4),
            &p,
        );
        assert_eq!(
            parts,
            [
                "Put the white knight back on g1 and the white pawns back on d2 and e2",
                "Remove the piece on e4"
            ]
        );
    }

    #[test]
    fn ends_and_flags_say_who_won() {
        let mated = position("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
        assert_eq!(game_end(&mated).as_deref(), Some("Checkmate. Black wins."));
        assert_eq!(game_end(&Chess::default()), None);
        assert_eq!(
            flag(Color::White, FlagResult::Lost),
            "White's time is up. Black wins."
        );
    }
}
