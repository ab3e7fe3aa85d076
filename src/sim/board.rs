//! The physical board: which piece stands on which square, and what its sensors read.

use shakmaty::{Bitboard, Board, Piece, Square};

use super::hands::Action;

/// The pieces on the board. A piece standing squarely on its square is sensed; one set down
/// off-centre stands there unseen by the square's sensor; one knocked over lies beside its
/// square (the sensor reads it empty) until it is set back.
#[derive(Clone, Debug)]
pub struct PhysicalBoard {
    /// What the sensors see: the pieces standing squarely on their squares.
    pieces: [Option<Piece>; 64],
    /// Pieces standing off-centre on a square, where its sensor does not see them.
    unseen: [Option<Piece>; 64],
    /// Pieces knocked over, lying beside the square they are to be set back on.
    knocked: [Option<Piece>; 64],
}

/// A change the board's sensors see: what now stands on a square.
pub type Change = (Square, Option<Piece>);

impl PhysicalBoard {
    pub fn empty() -> Self {
        Self {
            pieces: [None; 64],
            unseen: [None; 64],
            knocked: [None; 64],
        }
    }

    /// The pieces the sensors see, square by square (a piece-identifying board reports
    /// these).
    pub fn pieces(&self) -> &[Option<Piece>; 64] {
        &self.pieces
    }

    /// What the sensors read: only the pieces standing squarely on their squares.
    pub fn occupancy(&self) -> Bitboard {
        (0..64u32)
            .filter(|&i| self.pieces[i as usize].is_some())
            .fold(Bitboard::EMPTY, |b, i| b.with(Square::new(i)))
    }

    /// Squares holding a piece their sensor does not see (set down off-centre).
    pub fn unseen(&self) -> Bitboard {
        (0..64u32)
            .filter(|&i| self.unseen[i as usize].is_some())
            .fold(Bitboard::EMPTY, |b, i| b.with(Square::new(i)))
    }

    /// Squares whose piece lies knocked over beside them.
    pub fn knocked(&self) -> Bitboard {
        (0..64u32)
            .filter(|&i| self.knocked[i as usize].is_some())
            .fold(Bitboard::EMPTY, |b, i| b.with(Square::new(i)))
    }

    /// The true position: every piece on its square, seen or not, a knocked-over piece on
    /// the square it is to be set back on.
    pub fn pieces_board(&self) -> Board {
        let mut board = Board::empty();
        for square in Square::ALL {
            let i = square as usize;
            if let Some(piece) = self.pieces[i].or(self.unseen[i]).or(self.knocked[i]) {
                board.set_piece_at(square, piece);
            }
        }
        board
    }

    /// Puts a piece squarely on a square (what was there unseen is gone).
    fn put(&mut self, square: Square, piece: Piece) -> Vec<Change> {
        self.unseen[square as usize] = None;
        self.pieces[square as usize] = Some(piece);
        vec![(square, Some(piece))]
    }

    /// Carries out an action; returns the squares whose sensed piece changed, in order.
    pub fn apply(&mut self, action: &Action) -> Vec<Change> {
        match action {
            Action::Lift(square) => {
                let i = *square as usize;
                // An unseen piece leaves unseen.
                self.unseen[i] = None;
                match self.pieces[i].take() {
                    Some(_) => vec![(*square, None)],
                    None => Vec::new(),
                }
            }
            Action::Place(square, piece) | Action::Pass(square, piece) => self.put(*square, *piece),
            Action::Replace(square, piece) => {
                let i = *square as usize;
                let seen_before = self.pieces[i].is_some();
                let mut changes = Vec::new();
                if seen_before {
                    changes.push((*square, None));
                }
                changes.extend(self.put(*square, *piece));
                changes
            }
            Action::PlaceUnseen(square, piece) => {
                let i = *square as usize;
                let was_seen = self.pieces[i].take().is_some();
                self.unseen[i] = Some(*piece);
                if was_seen {
                    vec![(*square, None)]
                } else {
                    Vec::new()
                }
            }
            Action::Straighten(square) => {
                let i = *square as usize;
                match self.unseen[i].take() {
                    Some(piece) => self.put(*square, piece),
                    None => Vec::new(),
                }
            }
            Action::Knock(square) => {
                let i = *square as usize;
                match self.pieces[i].take().or_else(|| self.unseen[i].take()) {
                    Some(piece) => {
                        self.knocked[i] = Some(piece);
                        vec![(*square, None)]
                    }
                    None => Vec::new(),
                }
            }
            Action::SetBack(square) => {
                let i = *square as usize;
                match self.knocked[i].take() {
                    Some(piece) => self.put(*square, piece),
                    None => Vec::new(),
                }
            }
            Action::SetUp(position) => {
                let board = shakmaty::Position::board(position);
                self.unseen = [None; 64];
                self.knocked = [None; 64];
                let mut changes = Vec::new();
                for square in Square::ALL {
                    let wanted = board.piece_at(square);
                    if self.pieces[square as usize] != wanted {
                        self.pieces[square as usize] = wanted;
                        changes.push((square, wanted));
                    }
                }
                changes
            }
            Action::Dropout(..)
            | Action::Emi(_)
            | Action::Garbage(_)
            | Action::TornFrame
            | Action::Unplug(_) => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Color, Role};

    fn pawn() -> Piece {
        Piece {
            color: Color::White,
            role: Role::Pawn,
        }
    }

    #[test]
    fn an_unseen_piece_is_in_the_position_but_not_in_the_occupancy() {
        let mut board = PhysicalBoard::empty();
        board.apply(&Action::SetUp(Chess::default()));
        board.apply(&Action::Lift(Square::E2));
        assert!(
            board
                .apply(&Action::PlaceUnseen(Square::E4, pawn()))
                .is_empty()
        );
        assert!(!board.occupancy().contains(Square::E4));
        assert_eq!(board.pieces_board().piece_at(Square::E4), Some(pawn()));
        // Moved on unseen: no sensor notices the lift.
        assert!(board.apply(&Action::Lift(Square::E4)).is_empty());
        assert_eq!(board.pieces_board().piece_at(Square::E4), None);
        board.apply(&Action::PlaceUnseen(Square::E4, pawn()));
        assert_eq!(
            board.apply(&Action::Straighten(Square::E4)),
            vec![(Square::E4, Some(pawn()))]
        );
        assert!(board.occupancy().contains(Square::E4));
        assert!(board.unseen().is_empty());
    }

    #[test]
    fn a_knocked_piece_reads_empty_until_set_back() {
        let mut board = PhysicalBoard::empty();
        board.apply(&Action::SetUp(Chess::default()));
        let before = board.pieces_board();
        assert_eq!(
            board.apply(&Action::Knock(Square::D2)),
            vec![(Square::D2, None)]
        );
        assert!(!board.occupancy().contains(Square::D2));
        assert_eq!(board.pieces_board(), before);
        assert_eq!(board.knocked().count(), 1);
        assert_eq!(
            board.apply(&Action::SetBack(Square::D2)),
            vec![(Square::D2, Some(pawn()))]
        );
        assert_eq!(board.occupancy(), crate::reading::START_OCCUPANCY);
    }

    #[test]
    fn a_replaced_piece_never_leaves_its_square_empty() {
        let mut board = PhysicalBoard::empty();
        board.apply(&Action::SetUp(Chess::default()));
        board.apply(&Action::Lift(Square::E2));
        let knight = Piece {
            color: Color::Black,
            role: Role::Knight,
        };
        assert_eq!(
            board.apply(&Action::Replace(Square::D2, knight)),
            vec![(Square::D2, None), (Square::D2, Some(knight))]
        );
        assert_eq!(board.pieces()[Square::D2 as usize], Some(knight));
    }
}
