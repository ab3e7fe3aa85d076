//! The physical board: which piece stands on which square, and what its sensors read.

use shakmaty::{Bitboard, Board, Piece, Square};

use super::hands::Action;

#[derive(Clone, Debug)]
pub struct PhysicalBoard {
    pieces: [Option<Piece>; 64],
}

/// A change the board's sensors see: what now stands on a square.
pub type Change = (Square, Option<Piece>);

impl PhysicalBoard {
    pub fn empty() -> Self {
        Self { pieces: [None; 64] }
    }

    pub fn pieces(&self) -> &[Option<Piece>; 64] {
        &self.pieces
    }

    pub fn occupancy(&self) -> Bitboard {
        (0..64u32)
            .filter(|&i| self.pieces[i as usize].is_some())
            .fold(Bitboard::EMPTY, |b, i| b.with(Square::new(i)))
    }

    pub fn pieces_board(&self) -> Board {
        let mut board = Board::empty();
        for square in Square::ALL {
            if let Some(piece) = self.pieces[square as usize] {
                board.set_piece_at(square, piece);
            }
        }
        board
    }

    /// Carries out an action; returns the squares that changed, in order.
    pub fn apply(&mut self, action: &Action) -> Vec<Change> {
        match action {
            Action::Lift(square) => {
                self.pieces[*square as usize] = None;
                vec![(*square, None)]
            }
            Action::Place(square, piece) => {
                self.pieces[*square as usize] = Some(*piece);
                vec![(*square, Some(*piece))]
            }
            Action::SetUp(position) => {
                let board = shakmaty::Position::board(position);
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
            Action::Dropout(..) | Action::Garbage(_) | Action::TornFrame | Action::Unplug(_) => {
                Vec::new()
            }
        }
    }
}
