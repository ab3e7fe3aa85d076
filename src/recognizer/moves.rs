//! How a move changes which squares are occupied.

use shakmaty::{Bitboard, CastlingSide, Move, Role, Square};

/// The squares a move empties and the squares it fills.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Footprint {
    pub vacated: Bitboard,
    pub filled: Bitboard,
    /// A captured piece's square that stays occupied (the capturer lands there).
    pub victim: Option<Square>,
}

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
        },
        Move::EnPassant { from, to } => Footprint {
            vacated: Bitboard::from_square(from)
                | Bitboard::from_square(Square::from_coords(to.file(), from.rank())),
            filled: Bitboard::from_square(to),
            victim: None,
        },
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(king < rook);
            let rank = king.rank();
            let king_to = Square::from_coords(side.king_to_file(), rank);
            let rook_to = Square::from_coords(side.rook_to_file(), rank);
            let before = Bitboard::from_square(king) | Bitboard::from_square(rook);
            let after = Bitboard::from_square(king_to) | Bitboard::from_square(rook_to);
            Footprint {
                vacated: before & !after,
                filled: after & !before,
                victim: None,
            }
        }
        Move::Put { to, .. } => Footprint {
            vacated: Bitboard::EMPTY,
            filled: Bitboard::from_square(to),
            victim: None,
        },
    }
}

pub fn occupancy_after(occupancy: Bitboard, m: Move) -> Bitboard {
    let f = footprint(m);
    (occupancy & !f.vacated) | f.filled
}

/// The squares whose change is what the player's hand does for this move.
pub fn touched_squares(m: Move) -> Bitboard {
    let f = footprint(m);
    let victim = f.victim.map_or(Bitboard::EMPTY, Bitboard::from_square);
    f.vacated | f.filled | victim
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
    fn every_legal_move_changes_occupancy_as_playing_it_does() {
        let fens = [
            "r3k2r/pppq1ppp/2np1n2/2b1p1B1/2B1P1b1/2NP1N2/PPPQ1PPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
            "8/P6k/8/8/8/8/6Kp/8 w - - 0 1",
        ];
        for fen in fens {
            let pos: Chess = fen
                .parse::<shakmaty::fen::Fen>()
                .expect("fen")
                .into_position(shakmaty::CastlingMode::Standard)
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
