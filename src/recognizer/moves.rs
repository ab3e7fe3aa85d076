//! How a move changes which squares are occupied.

use shakmaty::attacks::between;
use shakmaty::{Bitboard, CastlingSide, Move, Role, Square};

/// The squares a move empties and the squares it fills.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Footprint {
    pub vacated: Bitboard,
    pub filled: Bitboard,
    /// A captured piece's square that stays occupied (the capturer lands there).
    pub victim: Option<Square>,
    /// Squares a hand lifts a piece from, even if another lands there: in Chess960 a
    /// castling king may land where its rook stood, or not move at all.
    pub lifted: Bitboard,
}

impl Footprint {
    /// Where the moving piece comes down: the square it fills, or its victim's.
    pub fn landing(&self) -> Bitboard {
        self.filled | self.victim.map_or(Bitboard::EMPTY, Bitboard::from_square)
    }
}

#[inline(always)]
pub fn footprint(m: Move) -> Footprint {
    match m {
        Move::Normal {
            from, to, capture, ..
        } => Footprint {
            vacated: Bitboard::from_square(from),
            filled: if capture.is_some() {
                Bitboard::EMPTY
            } else {
                Bitboard::from_square(to)
            },
            victim: capture.map(|_| to),
            lifted: Bitboard::from_square(from)
                | capture.map_or(Bitboard::EMPTY, |_| Bitboard::from_square(to)),
        },
        Move::EnPassant { from, to } => {
            let vacated = Bitboard::from_square(from)
                | Bitboard::from_square(Square::from_coords(to.file(), from.rank()));
            Footprint {
                vacated,
                filled: Bitboard::from_square(to),
                victim: None,
                lifted: vacated,
            }
        }
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(king < rook);
            let rank = king.rank();
            let king_to = Square::from_coords(side.king_to_file(), rank);
            let rook_to = Square::from_coords(side.rook_to_file(), rank);
            let before = Bitboard::from_square(king) | Bitboard::from_square(rook);
            let after = Bitboard::from_square(king_to) | Bitboard::from_square(rook_to);
            // A king or rook already on its castled square is not lifted.
            let moving = |from: Square, to: Square| {
                if from == to {
                    Bitboard::EMPTY
                } else {
                    Bitboard::from_square(from)
                }
            };
            Footprint {
                vacated: before & !after,
                filled: after & !before,
                victim: None,
                lifted: moving(king, king_to) | moving(rook, rook_to),
            }
        }
        Move::Put { to, .. } => Footprint {
            vacated: Bitboard::EMPTY,
            filled: Bitboard::from_square(to),
            victim: None,
            lifted: Bitboard::EMPTY,
        },
    }
}

/// The castling's king and rook squares that another of the two pieces lands on: the
/// occupancy never shows them change, only a hand seen lifting there does.
pub fn hidden_castle_squares(m: Move) -> Bitboard {
    match m {
        Move::Castle { .. } => {
            let f = footprint(m);
            f.lifted & !f.vacated
        }
        _ => Bitboard::EMPTY,
    }
}

#[inline]
pub fn occupancy_after(occupancy: Bitboard, m: Move) -> Bitboard {
    let f = footprint(m);
    (occupancy & !f.vacated) | f.filled
}

/// Whether the move's piece can read on its origin and where it lands at once: a piece
/// slid to a square next to its own straddles both for a moment (a castling's two pieces
/// are told apart by their own lifts). A knight is lifted, and a piece going further
/// reaches its landing only after it left its square.
pub fn may_straddle(m: Move) -> bool {
    match m {
        Move::Normal { role, from, to, .. } => {
            role != Role::Knight && shakmaty::attacks::king_attacks(from).contains(to)
        }
        Move::EnPassant { .. } | Move::Castle { .. } => true,
        Move::Put { .. } => false,
    }
}

/// The squares whose change is what the player's hand does for this move.
pub fn touched_squares(m: Move) -> Bitboard {
    let f = footprint(m);
    f.vacated | f.landing() | f.lifted
}

/// The squares a piece slid along the board reads on its way, beside its origin and
/// destination. Knights are lifted, not slid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlideWay {
    /// The squares it passes over.
    pub passed: Bitboard,
    /// On a diagonal, the two squares beside each step, which it may brush.
    pub brushed: Bitboard,
}

pub fn slide_way(m: Move) -> SlideWay {
    let way = |from: Square, to: Square| {
        let passed = between(from, to);
        let mut brushed = Bitboard::EMPTY;
        let mut previous = from;
        // Step by step from where the piece left (a bitboard lists its squares a1 first).
        let mut steps: Vec<Square> = passed.with(to).into_iter().collect();
        steps.sort_by_key(|&step| step.distance(from));
        for step in steps {
            if previous.file() != step.file() && previous.rank() != step.rank() {
                brushed.add(Square::from_coords(previous.file(), step.rank()));
                brushed.add(Square::from_coords(step.file(), previous.rank()));
            }
            previous = step;
        }
        SlideWay {
            passed,
            brushed: brushed & !passed & !Bitboard::from_square(from) & !Bitboard::from_square(to),
        }
    };
    let none = SlideWay {
        passed: Bitboard::EMPTY,
        brushed: Bitboard::EMPTY,
    };
    match m {
        Move::Normal {
            role: Role::Knight, ..
        }
        | Move::Put { .. } => none,
        Move::Normal { from, to, .. } | Move::EnPassant { from, to } => way(from, to),
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(king < rook);
            let rank = king.rank();
            let king_way = way(king, Square::from_coords(side.king_to_file(), rank));
            let rook_way = way(rook, Square::from_coords(side.rook_to_file(), rank));
            SlideWay {
                passed: king_way.passed | rook_way.passed,
                brushed: none.brushed,
            }
        }
    }
}

/// The role a promotion move promotes to, if it is one.
pub fn promotion_role(m: Move) -> Option<Role> {
    match m {
        Move::Normal { promotion, .. } => promotion,
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Position};

    #[test]
    fn a_castling_whose_king_lands_on_its_rook_hides_that_square() {
        let swap = Move::Castle {
            king: Square::F1,
            rook: Square::G1,
        };
        assert_eq!(occupancy_after(Bitboard::EMPTY, swap), Bitboard::EMPTY);
        assert_eq!(
            hidden_castle_squares(swap),
            Bitboard::from_square(Square::F1).with(Square::G1)
        );
        let king_f1 = Move::Castle {
            king: Square::F1,
            rook: Square::H1,
        };
        assert_eq!(
            hidden_castle_squares(king_f1),
            Bitboard::from_square(Square::F1)
        );
    }

    #[test]
    fn a_slide_passes_the_squares_between_and_brushes_a_diagonal() {
        let queen = Move::Normal {
            role: Role::Queen,
            from: Square::D1,
            capture: None,
            to: Square::D4,
            promotion: None,
        };
        assert_eq!(
            slide_way(queen).passed,
            Bitboard::from_square(Square::D2).with(Square::D3)
        );
        assert_eq!(slide_way(queen).brushed, Bitboard::EMPTY);
        let pawn_takes = Move::Normal {
            role: Role::Pawn,
            from: Square::E3,
            capture: Some(Role::Knight),
            to: Square::D4,
            promotion: None,
        };
        assert_eq!(slide_way(pawn_takes).passed, Bitboard::EMPTY);
        assert_eq!(
            slide_way(pawn_takes).brushed,
            Bitboard::from_square(Square::E4).with(Square::D3)
        );
        // Toward the first rank too, step by step from where it left.
        let bishop_down = Move::Normal {
            role: Role::Bishop,
            from: Square::E5,
            capture: Some(Role::Knight),
            to: Square::C3,
            promotion: None,
        };
        assert_eq!(
            slide_way(bishop_down).brushed,
            [Square::D5, Square::E4, Square::C4, Square::D3]
                .into_iter()
                .collect::<Bitboard>()
        );
        let knight = Move::Normal {
            role: Role::Knight,
            from: Square::G1,
            capture: None,
            to: Square::F3,
            promotion: None,
        };
        assert_eq!(
            slide_way(knight).passed | slide_way(knight).brushed,
            Bitboard::EMPTY
        );
    }

    #[test]
    fn every_legal_move_changes_occupancy_as_playing_it_does() {
        let fens = [
            "r3k2r/pppq1ppp/2np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPPQ1PPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/P6k/8/8/8/8/6Kp/8 w - - 0 1",
            // Chess960: king and rook swap, the king stays, the rook stays, they cross.
            "1r1k4/8/8/8/8/8/8/5KR1 w Gb - 0 1",
            "7k/8/8/8/8/8/8/R1K3R1 w AG - 0 1",
            "k7/8/8/8/8/8/8/1K1R4 w D - 0 1",
            "k7/8/8/8/8/8/8/1KR5 w C - 0 1",
        ];
        for fen in fens {
            let pos: Chess = fen
                .parse::<shakmaty::fen::Fen>()
                .expect("fen")
                .into_position(shakmaty::CastlingMode::Chess960)
                .expect("position");
            for m in pos.legal_moves() {
                let mut after = pos.clone();
                after.play_unchecked(m);
                assert_eq!(
                    occupancy_after(pos.board().occupied(), m),
                    after.board().occupied(),
                    "{fen} {m:?}"
                );
            }
        }
    }
}
