//! Chess960 start positions by their standard (Scharnagl) number, 0–959; 518 is the
//! standard start.

use shakmaty::{
    Bitboard, Board, CastlingMode, Chess, Color, File, FromSetup, Rank, Role, Setup, Square,
};

/// How many Chess960 start positions there are.
pub const COUNT: u32 = 960;

/// Why a text names no Chess960 start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Chess960Error {
    #[error("Chess960 start {0} does not exist: the starts are numbered 0 to 959")]
    OutOfRange(u64),
    #[error("'{0}' is no Chess960 start number: write e.g. 'Chess960 #518' (0 to 959)")]
    NotANumber(String),
}

/// The back rank of start `number`, a to h, e.g. `[B, B, Q, N, N, R, K, R]` for 0.
pub fn back_rank(number: u32) -> Result<[Role; 8], Chess960Error> {
    if number >= COUNT {
        return Err(Chess960Error::OutOfRange(u64::from(number)));
    }
    let mut rank: [Option<Role>; 8] = [None; 8];
    let mut n = number;
    // Light-squared bishop on b, d, f or h; dark-squared on a, c, e or g.
    rank[(2 * (n % 4) + 1) as usize] = Some(Role::Bishop);
    n /= 4;
    rank[(2 * (n % 4)) as usize] = Some(Role::Bishop);
    n /= 4;
    place_on_nth_empty(&mut rank, (n % 6) as usize, Role::Queen);
    n /= 6;
    // The knights on two of the five squares left, in the standard table's order.
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (first, second) = KNIGHTS[n as usize];
    // The later square first: the earlier one's index then still counts from a.
    place_on_nth_empty(&mut rank, second, Role::Knight);
    place_on_nth_empty(&mut rank, first, Role::Knight);
    // Rook, king, rook on the three squares left.
    for role in [Role::Rook, Role::King, Role::Rook] {
        place_on_nth_empty(&mut rank, 0, role);
    }
    Ok(rank.map(|role| role.unwrap_or(Role::Pawn)))
}

fn place_on_nth_empty(rank: &mut [Option<Role>; 8], nth: usize, role: Role) {
    if let Some(slot) = rank.iter_mut().filter(|r| r.is_none()).nth(nth) {
        *slot = Some(role);
    }
}

/// Start `number` with every castling right, in Chess960 castling mode (standard mode
/// where its castling is the standard one, as for 518).
pub fn start_position(number: u32) -> Result<Chess, Chess960Error> {
    let rank = back_rank(number)?;
    let mut board = Board::empty();
    let mut rooks = Bitboard::EMPTY;
    for (file, role) in File::ALL.into_iter().zip(rank) {
        for color in Color::ALL {
            let home = Square::from_coords(file, color.backrank());
            board.set_piece_at(home, role.of(color));
            let pawn_square = Square::from_coords(file, color.fold_wb(Rank::Second, Rank::Seventh));
            board.set_piece_at(pawn_square, Role::Pawn.of(color));
            if role == Role::Rook {
                rooks.add(home);
            }
        }
    }
    let mut setup = Setup::empty();
    setup.board = board;
    setup.castling_rights = rooks;
    let mode = CastlingMode::detect(&setup);
    Ok(Chess::from_setup(setup, mode).expect("every numbered start is a legal position"))
}

/// The start a text like `960 518`, `chess960 518` or `Chess960 #518` names; `None` when
/// the text does not begin that way (it may be a FEN or a position code).
pub fn parse_start_text(text: &str) -> Option<Result<Chess, Chess960Error>> {
    let lower = text.trim().to_ascii_lowercase();
    let rest = lower
        .strip_prefix("chess960")
        .or_else(|| lower.strip_prefix("960"))?;
    // `960` must stand alone: a position code may begin with those characters.
    if !(rest.is_empty() || rest.starts_with([' ', '\t', '#', ':'])) {
        return None;
    }
    let number = rest
        .trim_start_matches([' ', '\t', ':'])
        .trim_start_matches('#')
        .trim();
    Some(match number.parse::<u64>() {
        Ok(n) if n < u64::from(COUNT) => start_position(n as u32),
        Ok(n) => Err(Chess960Error::OutOfRange(n)),
        Err(_) => Err(Chess960Error::NotANumber(text.trim().to_owned())),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Position;

    fn letters(number: u32) -> String {
        back_rank(number)
            .expect("in range")
            .iter()
            .map(|role| role.upper_char())
            .collect()
    }

    #[test]
    fn known_numbers_give_their_published_back_ranks() {
        assert_eq!(letters(0), "BBQNNRKR");
        assert_eq!(letters(518), "RNBQKBNR");
        assert_eq!(letters(959), "RKRNNQBB");
        assert_eq!(letters(1), "BQNBNRKR");
    }

    #[test]
    fn every_start_is_a_legal_chess960_rank_and_all_differ() {
        let mut seen = std::collections::HashSet::new();
        for n in 0..COUNT {
            let rank = letters(n);
            assert!(seen.insert(rank.clone()), "{n}: {rank} twice");
            let (r1, k, r2) = (
                rank.find('R').expect("rook"),
                rank.find('K').expect("king"),
                rank.rfind('R').expect("rook"),
            );
            assert!(r1 < k && k < r2, "{n}: {rank}");
            let b: Vec<usize> = rank.match_indices('B').map(|(i, _)| i).collect();
            assert_ne!(b[0] % 2, b[1] % 2, "{n}: {rank}");
            let position = start_position(n).expect("start");
            assert_eq!(position.castles().castling_rights().count(), 4, "{n}");
        }
        assert_eq!(seen.len(), 960);
    }

    #[test]
    fn start_518_is_the_standard_start() {
        assert_eq!(start_position(518), Ok(Chess::default()));
    }

    #[test]
    fn texts_name_starts_or_say_what_is_wrong() {
        let zero = start_position(0).expect("start");
        for text in ["960 0", "chess960 0", "Chess960 #0", "  CHESS960   #0 "] {
            assert_eq!(parse_start_text(text), Some(Ok(zero.clone())), "{text}");
        }
        assert_eq!(
            parse_start_text("960 960"),
            Some(Err(Chess960Error::OutOfRange(960)))
        );
        let message = parse_start_text("Chess960 #1000")
            .and_then(Result::err)
            .expect("an error")
            .to_string();
        assert!(message.contains("0 to 959"), "{message}");
        assert!(matches!(
            parse_start_text("chess960 x"),
            Some(Err(Chess960Error::NotANumber(_)))
        ));
        assert_eq!(parse_start_text("960abc"), None);
        assert_eq!(parse_start_text("E8eqJuYqSSSQAAAAA22227N_c4"), None);
    }
}
