//! A model of hands: how a person's moves become lifts and places, with the variety real
//! players show and the noise real sensors add.

use shakmaty::{CastlingSide, Chess, Move, Piece, Position, Role, Square};

use crate::game::GameRecord;

/// One physical thing that happens at the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// A piece leaves a square.
    Lift(Square),
    /// A piece is put down on a square.
    Place(Square, Piece),
    /// A square's sensor reads empty for a moment while its piece stays.
    Dropout(Square, u64),
    /// The pieces are set up for a new game from this position.
    SetUp(Chess),
    /// Bytes that are not the protocol's (line noise), sent as they are.
    Garbage(Vec<u8>),
    /// The start of a frame, cut off (the rest never comes).
    TornFrame,
    /// The device goes away for this many milliseconds, then comes back.
    Unplug(u64),
}

/// How the hands behave; every choice is drawn from a seeded generator, so a script repeats.
#[derive(Clone, Debug)]
pub struct HandStyle {
    pub seed: u64,
    /// Milliseconds of thinking between moves.
    pub think_ms: u64,
    /// Milliseconds between the steps of one move.
    pub step_ms: u64,
    /// Chance that a capture lifts the victim first.
    pub victim_first: f64,
    /// Chance that castling moves the rook first.
    pub rook_first: f64,
    /// Chance that a player straightens one of their pieces before moving.
    pub adjust: f64,
    /// Chance of a sensor dropout somewhere during a move.
    pub dropout: f64,
}

impl Default for HandStyle {
    fn default() -> Self {
        Self {
            seed: 1,
            think_ms: 1500,
            step_ms: 250,
            victim_first: 0.5,
            rook_first: 0.5,
            adjust: 0.1,
            dropout: 0.05,
        }
    }
}

/// The timed actions that play `games` one after another, each from its own setup.
pub fn script_games(games: &[GameRecord], style: &HandStyle) -> Vec<(u64, Action)> {
    let mut rng = fastrand::Rng::with_seed(style.seed);
    let mut script = Vec::new();
    let mut t = 500;
    for game in games {
        script.push((t, Action::SetUp(game.start.clone())));
        t += style.think_ms;
        let mut position = game.start.clone();
        for &m in &game.moves {
            let mover = position.turn();
            if rng.f64() < style.adjust
                && let Some(square) = pick(&mut rng, position.board().by_color(mover))
                && let Some(piece) = position.board().piece_at(square)
            {
                script.push((t, Action::Lift(square)));
                script.push((t + style.step_ms / 2, Action::Place(square, piece)));
                t += style.step_ms;
            }
            for action in hand_steps(&position, m, style, &mut rng) {
                script.push((t, action));
                t += style.step_ms;
            }
            if rng.f64() < style.dropout
                && let Some(square) = pick(&mut rng, position.board().occupied())
            {
                script.push((t, Action::Dropout(square, 30)));
            }
            position.play_unchecked(m);
            t += style.think_ms;
        }
    }
    script
}

fn pick(rng: &mut fastrand::Rng, squares: shakmaty::Bitboard) -> Option<Square> {
    let count = squares.count();
    (count > 0)
        .then(|| squares.into_iter().nth(rng.usize(..count)))
        .flatten()
}

/// The lifts and places of one move as `style`'s hands make it, the same each time.
pub fn move_actions(position: &Chess, m: Move, style: &HandStyle) -> Vec<Action> {
    hand_steps(
        position,
        m,
        style,
        &mut fastrand::Rng::with_seed(style.seed),
    )
}

/// The lifts and places of one move.
fn hand_steps(
    position: &Chess,
    m: Move,
    style: &HandStyle,
    rng: &mut fastrand::Rng,
) -> Vec<Action> {
    let mover = position.turn();
    let piece_on = |sq: Square| position.board().piece_at(sq);
    match m {
        Move::Normal {
            role,
            from,
            to,
            capture,
            promotion,
        } => {
            let landing = Piece {
                color: mover,
                role: promotion.unwrap_or(role),
            };
            match capture {
                None => vec![Action::Lift(from), Action::Place(to, landing)],
                Some(_) if rng.f64() < style.victim_first => {
                    vec![
                        Action::Lift(to),
                        Action::Lift(from),
                        Action::Place(to, landing),
                    ]
                }
                Some(_) => vec![
                    Action::Lift(from),
                    Action::Lift(to),
                    Action::Place(to, landing),
                ],
            }
        }
        Move::EnPassant { from, to } => {
            let victim = Square::from_coords(to.file(), from.rank());
            let pawn = Piece {
                color: mover,
                role: Role::Pawn,
            };
            if rng.f64() < style.victim_first {
                vec![
                    Action::Lift(victim),
                    Action::Lift(from),
                    Action::Place(to, pawn),
                ]
            } else {
                vec![
                    Action::Lift(from),
                    Action::Place(to, pawn),
                    Action::Lift(victim),
                ]
            }
        }
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(king < rook);
            let rank = king.rank();
            let king_to = Square::from_coords(side.king_to_file(), rank);
            let rook_to = Square::from_coords(side.rook_to_file(), rank);
            let king_piece = piece_on(king).unwrap_or(Piece {
                color: mover,
                role: Role::King,
            });
            let rook_piece = piece_on(rook).unwrap_or(Piece {
                color: mover,
                role: Role::Rook,
            });
            let king_move = (king, king_to, king_piece);
            let rook_move = (rook, rook_to, rook_piece);
            let (first, second) = if rng.f64() < style.rook_first {
                (rook_move, king_move)
            } else {
                (king_move, rook_move)
            };
            castle_steps(first, second)
        }
        Move::Put { to, role } => vec![Action::Place(to, Piece { color: mover, role })],
    }
}

/// Two pieces of a castling, `(from, to, piece)`, moved `first` first. In Chess960 a piece
/// may already stand where it goes (it is not moved), or land where the other stands (then
/// both are in the hand before either is put down).
fn castle_steps(first: (Square, Square, Piece), second: (Square, Square, Piece)) -> Vec<Action> {
    let moving: Vec<_> = [first, second]
        .into_iter()
        .filter(|(from, to, _)| from != to)
        .collect();
    let blocked = moving.len() == 2 && moving[0].1 == moving[1].0;
    if blocked {
        moving
            .iter()
            .map(|&(from, _, _)| Action::Lift(from))
            .chain(
                moving
                    .iter()
                    .map(|&(_, to, piece)| Action::Place(to, piece)),
            )
            .collect()
    } else {
        moving
            .iter()
            .flat_map(|&(from, to, piece)| [Action::Lift(from), Action::Place(to, piece)])
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::board::PhysicalBoard;

    #[test]
    fn a_scripted_game_ends_on_the_game_final_position() {
        let game = crate::sim::sample::games().remove(0);
        let style = HandStyle {
            adjust: 0.5,
            dropout: 0.5,
            ..HandStyle::default()
        };
        let mut board = PhysicalBoard::empty();
        for (_, action) in script_games(std::slice::from_ref(&game), &style) {
            board.apply(&action);
        }
        assert_eq!(board.pieces_board(), game.final_position().board().clone());
    }

    #[test]
    fn chess960_castlings_never_put_a_piece_on_an_occupied_square() {
        // Swap (king f1, rook g1), king on the rook's square (f1/h1), king stays (g1/h1).
        for fen in [
            "1r1k4/8/8/8/8/8/8/5KR1 w G - 0 1",
            "1r1k4/8/8/8/8/8/8/5K1R w H - 0 1",
            "1r1k4/8/8/8/8/8/8/6KR w H - 0 1",
            "7k/8/8/8/8/8/8/R2K4 w A - 0 1",
        ] {
            let position = crate::game::parse_fen(fen).expect("fen");
            let castle = position
                .legal_moves()
                .into_iter()
                .find(|m| m.is_castle())
                .expect("a castling");
            for rook_first in [0.0, 1.0] {
                let style = HandStyle {
                    rook_first,
                    ..HandStyle::default()
                };
                let mut board = PhysicalBoard::empty();
                board.apply(&Action::SetUp(position.clone()));
                for action in move_actions(&position, castle, &style) {
                    if let Action::Place(square, _) = action {
                        assert!(!board.occupancy().contains(square), "{fen}: {action:?}");
                    }
                    board.apply(&action);
                }
                let mut after = position.clone();
                after.play_unchecked(castle);
                assert_eq!(board.pieces_board(), after.board().clone(), "{fen}");
            }
        }
    }
}
