//! How likely a move is in a real game, to order hypotheses the sensors cannot tell apart
//! (captures seen only as the capturer's lift; a castling and the rook move that looks the
//! same). A line is as plausible as the sum of its moves.

use shakmaty::{Chess, Move, Position, Role};

/// Taking back on the square just taken on: the commonest capture in real games.
const RECAPTURE: i32 = 20;
/// Taking a piece that just moved there without taking (one left en prise, or come to
/// attack): common, but half as common as a recapture.
const TAKES_THE_PIECE_JUST_MOVED: i32 = 10;

/// Recaptures are the commonest captures in real games, then taking the piece that just
/// moved, then bigger prey; a piece left where a cheaper one takes it is a blunder, rarer
/// than the move that does not hang it; a castling is likelier than the rook move that
/// looks the same (Chess960).
pub fn plausibility(before: &Chess, m: Move, previous: Option<Move>) -> i32 {
    let gain = match m {
        Move::Normal {
            capture: Some(victim),
            to,
            ..
        } => {
            let recapture = match previous.filter(|p| p.to() == to) {
                Some(p) if p.is_capture() => RECAPTURE,
                Some(_) => TAKES_THE_PIECE_JUST_MOVED,
                None => 0,
            };
            recapture + piece_value(victim)
        }
        Move::EnPassant { .. } => piece_value(Role::Pawn),
        Move::Castle { .. } => return 1,
        _ => 0,
    };
    gain - hung(before, m)
}

/// What the moved piece is likely to lose where it lands: all of it if the opponent
/// attacks it there and nothing defends it, else what it is worth above its cheapest
/// attacker.
fn hung(before: &Chess, m: Move) -> i32 {
    let mover = before.turn();
    let mut after = before.clone();
    after.play_unchecked(m);
    let to = m.to();
    let board = after.board();
    let Some(role) = board.role_at(to) else {
        return 0;
    };
    if role == Role::King {
        return 0;
    }
    let occupied = board.occupied();
    let attackers = board.attacks_to(to, !mover, occupied);
    let Some(cheapest) = attackers
        .into_iter()
        .filter_map(|square| board.role_at(square))
        .map(piece_value)
        .min()
    else {
        return 0;
    };
    let value = piece_value(role);
    if board.attacks_to(to, mover, occupied).is_empty() {
        value
    } else {
        (value - cheapest).max(0)
    }
}

pub fn piece_value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::CastlingMode;
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;

    /// How plausible `uci` is from `fen`, after `previous` (if any) landed where it did.
    fn score_after(fen: &str, uci: &str, previous: Option<Move>) -> i32 {
        let position: Chess = fen
            .parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("position");
        let m = uci
            .parse::<UciMove>()
            .expect("uci")
            .to_move(&position)
            .expect("legal");
        plausibility(&position, m, previous)
    }

    /// A knight's move g3-e2, taking `capture` there.
    fn knight_to_e2(capture: Option<Role>) -> Move {
        Move::Normal {
            role: Role::Knight,
            from: shakmaty::Square::G3,
            capture,
            to: shakmaty::Square::E2,
            promotion: None,
        }
    }

    fn score(fen: &str, uci: &str) -> i32 {
        score_after(fen, uci, None)
    }

    #[test]
    fn a_queen_set_where_a_pawn_takes_it_is_less_plausible_than_a_pawn_push() {
        // White queen to b5 under the c6 pawn, against the b-pawn's push to the same square
        // (defended by the queen).
        let fen = "4k3/8/2p5/8/1P6/8/8/4KQ2 w - - 0 1";
        assert_eq!(score(fen, "f1b5"), -9);
        assert_eq!(score(fen, "b4b5"), 0);
    }

    #[test]
    fn bigger_prey_is_likelier() {
        let fen = "4k3/8/8/2p5/8/8/2R1n3/4K3 w - - 0 1";
        assert_eq!(score(fen, "c2e2"), 3);
        assert_eq!(score(fen, "c2c5"), 1);
    }

    #[test]
    fn a_defended_capturer_loses_what_it_is_worth_above_its_cheapest_attacker() {
        // Rxe2, defended by the king, is retaken by the d3 pawn: 3 won, 5 - 1 lost.
        let fen = "4k3/8/8/2p5/8/3p4/2R1n3/4K3 w - - 0 1";
        assert_eq!(score(fen, "c2e2"), -1);
        assert_eq!(score(fen, "c2c5"), 1);
    }

    #[test]
    fn a_recapture_on_the_square_just_taken_on_is_likeliest() {
        // The knight just took on e2: taking it back beats the pawn by 20.
        let fen = "4k3/8/8/2p5/8/8/2R1n3/4K3 w - - 0 1";
        let previous = knight_to_e2(Some(Role::Bishop));
        assert_eq!(score_after(fen, "c2e2", Some(previous)), 23);
        assert_eq!(score_after(fen, "c2c5", Some(previous)), 1);
    }

    #[test]
    fn taking_a_piece_that_just_moved_is_likelier_than_other_prey_but_less_than_a_recapture() {
        // The knight just landed on e2 (taking nothing): taking it beats the pawn by 10.
        let fen = "4k3/8/8/2p5/8/8/2R1n3/4K3 w - - 0 1";
        let previous = knight_to_e2(None);
        assert_eq!(score_after(fen, "c2e2", Some(previous)), 13);
        assert_eq!(score_after(fen, "c2c5", Some(previous)), 1);
    }
}
