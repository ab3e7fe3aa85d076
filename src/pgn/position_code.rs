//! A short position code: a position in about half the characters of its FEN, to read out
//! or type in. Layered, each layer saving what the one before makes certain:
//!
//! 1. the two kings, as square numbers (6 bits each);
//! 2. the side to move (1 bit), castling rights (4 bits: White O-O, O-O-O, Black O-O,
//!    O-O-O) and an en passant file (1 bit, then 3 bits if there is one);
//! 3. every other square from a1 to h8: 0 if empty; else 1, the colour (1 bit, 1 for
//!    Black) and the piece in a short code;
//! 4. the pawn-row layer: on ranks 1 and 8, where no pawn can stand, the piece code has no
//!    pawn: N 00, B 01, R 10, Q 11; on the other ranks P 0, N 100, B 101, R 110, Q 111.
//!
//! The bits, padded with zeros, are written six to a character in the URL-safe base64
//! alphabet (`A–Z a–z 0–9 - _`). The start position is `E8eqJuYqSSSQAAAAA22227N_c4`.
//! The move clocks are not kept: a position from a code starts at move 1.
//!
//! A position that castles as in Chess960 gets a suffix: `.` and, for each castling right
//! of layer 2 in its order, the file of its rook as one character (`A` = a … `H` = h).

use shakmaty::{
    Bitboard, CastlingMode, CastlingSide, Chess, Color, EnPassantMode, File, FromSetup, Piece,
    Position, Rank, Role, Setup, Square,
};

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
/// The castling rights the 4 bits of layer 2 stand for, in order, with their rook's square
/// in standard chess.
const CASTLING_RIGHTS: [(Color, CastlingSide, Square); 4] = [
    (Color::White, CastlingSide::KingSide, Square::H1),
    (Color::White, CastlingSide::QueenSide, Square::A1),
    (Color::Black, CastlingSide::KingSide, Square::H8),
    (Color::Black, CastlingSide::QueenSide, Square::A8),
];
/// Begins the Chess960 castling suffix.
const CHESS960_MARK: char = '.';

/// Why a text is no position code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PositionCodeError {
    #[error("'{0}' is not a character of a position code")]
    /// A character the code's alphabet does not have.
    Character(char),
    #[error("the code ends too soon")]
    /// The code ends before its position does.
    TooShort,
    #[error("the code has two pieces on {0}")]
    /// Two pieces on one square.
    Overlap(Square),
    #[error("the code is no legal position: {0}")]
    /// The position is not legal.
    Illegal(String),
    #[error("the Chess960 part after '.' needs one rook file (A to H) per castling right")]
    /// The Chess960 suffix does not fit the castling rights.
    Chess960Rooks,
}

/// The code of a position (with the Chess960 suffix if it castles as in Chess960).
pub fn encode(position: &Chess) -> String {
    let mut bits = Bits::default();
    let board = position.board();
    let kings = [Color::White, Color::Black].map(|c| board.king_of(c));
    for king in kings {
        // A legal position has both kings.
        bits.push(u32::from(king.map_or(0, |k| k as u8)), 6);
    }
    bits.push(u32::from(position.turn() == Color::Black), 1);
    let castles = position.castles();
    let rooks: Vec<Square> = CASTLING_RIGHTS
        .iter()
        .filter_map(|&(color, side, _)| castles.rook(color, side))
        .collect();
    for (color, side, _) in CASTLING_RIGHTS {
        bits.push(u32::from(castles.rook(color, side).is_some()), 1);
    }
    match position.ep_square(EnPassantMode::Legal) {
        Some(square) => {
            bits.push(1, 1);
            bits.push(u32::from(square.file()), 3);
        }
        None => bits.push(0, 1),
    }
    let king_squares: Bitboard = kings.into_iter().flatten().collect();
    for square in Square::ALL {
        if king_squares.contains(square) {
            continue;
        }
        match board.piece_at(square) {
            None => bits.push(0, 1),
            Some(piece) => {
                bits.push(1, 1);
                bits.push(u32::from(piece.color == Color::Black), 1);
                let (code, width) = piece_code(piece.role, no_pawns(square));
                bits.push(code, width);
            }
        }
    }
    let mut code = bits.to_text();
    if castles.mode().is_chess960() {
        code.push(CHESS960_MARK);
        code.extend(
            rooks
                .iter()
                .map(|rook| char::from(ALPHABET[usize::from(rook.file())])),
        );
    }
    code
}

/// The position a code stands for (clocks at their start).
pub fn decode(code: &str) -> Result<Chess, PositionCodeError> {
    let (code, chess960_rooks) = match code.trim().split_once(CHESS960_MARK) {
        Some((code, rooks)) => (code, Some(rooks)),
        None => (code.trim(), None),
    };
    let mut bits = Bits::from_text(code)?;
    let white_king = Square::new(bits.take(6)?);
    let black_king = Square::new(bits.take(6)?);
    if white_king == black_king {
        return Err(PositionCodeError::Overlap(white_king));
    }
    let turn = if bits.take(1)? == 1 {
        Color::Black
    } else {
        Color::White
    };
    let mut rights = Vec::new();
    for (color, _, rook) in CASTLING_RIGHTS {
        if bits.take(1)? == 1 {
            rights.push((color, rook));
        }
    }
    let rights = match chess960_rooks {
        None => rights.into_iter().map(|(_, rook)| rook).collect(),
        Some(files) => chess960_rights(&rights, files)?,
    };
    let mode = match chess960_rooks {
        None => CastlingMode::Standard,
        Some(_) => CastlingMode::Chess960,
    };
    let ep_file = match bits.take(1)? {
        1 => Some(File::new(bits.take(3)?)),
        _ => None,
    };
    let mut board = shakmaty::Board::empty();
    board.set_piece_at(
        white_king,
        Piece {
            color: Color::White,
            role: Role::King,
        },
    );
    board.set_piece_at(
        black_king,
        Piece {
            color: Color::Black,
            role: Role::King,
        },
    );
    for square in Square::ALL {
        if square == white_king || square == black_king || bits.take(1)? == 0 {
            continue;
        }
        let color = if bits.take(1)? == 1 {
            Color::Black
        } else {
            Color::White
        };
        let role = read_role(&mut bits, no_pawns(square))?;
        board.set_piece_at(square, Piece { color, role });
    }
    let mut setup = Setup::empty();
    setup.board = board;
    setup.turn = turn;
    setup.castling_rights = rights;
    setup.ep_square = ep_file.map(|file| {
        // The square the pawn passed over: rank 6 when White is to move, else rank 3.
        Square::from_coords(file, turn.fold_wb(Rank::Sixth, Rank::Third))
    });
    Chess::from_setup(setup, mode).map_err(|e| PositionCodeError::Illegal(e.to_string()))
}

/// The rook squares of the castling rights, one file character each from the suffix.
fn chess960_rights(rights: &[(Color, Square)], files: &str) -> Result<Bitboard, PositionCodeError> {
    if files.chars().count() != rights.len() {
        return Err(PositionCodeError::Chess960Rooks);
    }
    rights
        .iter()
        .zip(files.chars())
        .map(|(&(color, _), c)| {
            let file =
                File::from_char(c.to_ascii_lowercase()).ok_or(PositionCodeError::Chess960Rooks)?;
            Ok(Square::from_coords(file, color.backrank()))
        })
        .collect()
}

/// Why a typed position cannot be set up.
#[derive(Debug, thiserror::Error)]
pub enum PositionTextError {
    #[error(transparent)]
    /// A FEN that is no legal position.
    Fen(#[from] crate::game::FenError),
    #[error("'{text}' is no FEN or position code: {source}")]
    /// A text that is neither FEN nor position code.
    Code {
        /// The text typed.
        text: String,
        /// Why it is no position code.
        source: PositionCodeError,
    },
    #[error(transparent)]
    /// A Chess960 start that does not exist.
    Chess960(#[from] crate::chess960::Chess960Error),
}

/// The FEN, position code or Chess960 start (`960 N`, `Chess960 #N`) a user typed,
/// whichever it is (a FEN has '/').
pub fn parse_position(text: &str) -> Result<Chess, PositionTextError> {
    if let Some(start) = crate::chess960::parse_start_text(text) {
        Ok(start?)
    } else if text.contains('/') {
        Ok(crate::game::parse_fen(text)?)
    } else {
        decode(text).map_err(|source| PositionTextError::Code {
            text: text.trim().to_owned(),
            source,
        })
    }
}

fn no_pawns(square: Square) -> bool {
    matches!(square.rank(), Rank::First | Rank::Eighth)
}

fn piece_code(role: Role, no_pawns: bool) -> (u32, u8) {
    match (no_pawns, role) {
        (true, Role::Knight) => (0b00, 2),
        (true, Role::Bishop) => (0b01, 2),
        (true, Role::Rook) => (0b10, 2),
        (true, _) => (0b11, 2),
        (false, Role::Pawn) => (0b0, 1),
        (false, Role::Knight) => (0b100, 3),
        (false, Role::Bishop) => (0b101, 3),
        (false, Role::Rook) => (0b110, 3),
        (false, _) => (0b111, 3),
    }
}

fn read_role(bits: &mut Bits, no_pawns: bool) -> Result<Role, PositionCodeError> {
    if !no_pawns && bits.take(1)? == 0 {
        return Ok(Role::Pawn);
    }
    Ok(match bits.take(2)? {
        0 => Role::Knight,
        1 => Role::Bishop,
        2 => Role::Rook,
        _ => Role::Queen,
    })
}

/// Bits, most significant first.
#[derive(Default)]
struct Bits {
    bits: Vec<bool>,
    read: usize,
}

impl Bits {
    fn push(&mut self, value: u32, width: u8) {
        for i in (0..width).rev() {
            self.bits.push(value >> i & 1 == 1);
        }
    }

    fn take(&mut self, width: u8) -> Result<u32, PositionCodeError> {
        let mut value = 0;
        for _ in 0..width {
            let bit = *self
                .bits
                .get(self.read)
                .ok_or(PositionCodeError::TooShort)?;
            value = value << 1 | u32::from(bit);
            self.read += 1;
        }
        Ok(value)
    }

    fn to_text(&self) -> String {
        self.bits
            .chunks(6)
            .map(|chunk| {
                let value = chunk
                    .iter()
                    .chain(std::iter::repeat(&false))
                    .take(6)
                    .fold(0usize, |v, &b| v << 1 | usize::from(b));
                char::from(ALPHABET[value])
            })
            .collect()
    }

    fn from_text(text: &str) -> Result<Self, PositionCodeError> {
        let mut bits = Self::default();
        for c in text.chars() {
            let value = ALPHABET
                .iter()
                .position(|&a| char::from(a) == c)
                .ok_or(PositionCodeError::Character(c))?;
            bits.push(value as u32, 6);
        }
        Ok(bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_has_the_documented_code() {
        let code = encode(&Chess::default());
        assert_eq!(code, "E8eqJuYqSSSQAAAAA22227N_c4");
        assert_eq!(decode(&code), Ok(Chess::default()));
        assert!(code.len() * 2 < crate::game::fen_of(&Chess::default()).len() + 20);
    }

    #[test]
    fn en_passant_castling_and_black_to_move_survive_the_round_trip() {
        let position =
            crate::game::parse_fen("r3k2r/8/8/8/4Pp2/8/8/R3K2R b Kq e3 0 1").expect("fen");
        let back = decode(&encode(&position)).expect("decodes");
        assert_eq!(
            crate::game::fen_of(&back),
            "r3k2r/8/8/8/4Pp2/8/8/R3K2R b Kq e3 0 1"
        );
    }

    #[test]
    fn a_bad_code_says_what_is_wrong() {
        assert_eq!(decode("BH*"), Err(PositionCodeError::Character('*')));
        assert_eq!(decode("BH"), Err(PositionCodeError::TooShort));
        let error = parse_position("not a code").expect_err("no position");
        assert!(
            error.to_string().contains("' ' is not a character"),
            "{error}"
        );
        assert_eq!(
            parse_position(&encode(&Chess::default())).ok(),
            Some(Chess::default())
        );
        assert_eq!(
            parse_position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").ok(),
            Some(Chess::default())
        );
    }
}
