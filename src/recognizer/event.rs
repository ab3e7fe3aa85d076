//! What the recognizer tells its listeners, and the one-line trace form of it.

use std::fmt;

use shakmaty::san::SanPlus;
use shakmaty::uci::UciMove;
use shakmaty::{Bitboard, Move, Piece, Square};

use crate::reading::Millis;

/// What happened, as the recognizer tells it. Plies are counted from 1 in the current game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// A game began.
    NewGame {
        /// Its start position, as FEN.
        fen: String,
    },
    /// A ply was played.
    Move {
        /// Which ply of the game (1-based).
        ply: usize,
        /// The move.
        mv: Move,
        /// The move in SAN, with check or mate.
        san: SanPlus,
    },
    /// Ply `ply` turned out to be another move (a rook move became castling, a correction…).
    Revised {
        /// Which ply (1-based).
        ply: usize,
        /// The move told before.
        old: Move,
        /// The move it is now.
        new: Move,
        /// The new move in SAN.
        san: SanPlus,
    },
    /// Ply `ply` was taken back.
    TakenBack {
        /// Which ply (1-based).
        ply: usize,
        /// The move taken back.
        mv: Move,
    },
    /// A move is in progress: these squares are lifted and these placed.
    Waiting {
        /// Squares whose piece is off the board.
        lifted: Bitboard,
        /// Squares a piece was set down on, the move not yet whole.
        placed: Bitboard,
    },
    /// The sensors cannot tell which of these moves ply `ply` was; later moves will.
    Ambiguous {
        /// Which ply (1-based).
        ply: usize,
        /// The moves it may be, the one recorded for now first.
        candidates: Vec<Move>,
    },
    /// The board matches no legal continuation: put pieces back here and remove them there.
    Illegal {
        /// Squares whose piece must be put back.
        put_back: Bitboard,
        /// Squares whose piece must be taken away.
        remove: Bitboard,
    },
    /// The board is legal again after an illegal state.
    Recovered,
    /// Ply `ply` was to be `expected` (the engine's move), and the board shows `played`
    /// instead: it is not recorded; the board must be set back.
    WrongMove {
        /// Which ply (1-based).
        ply: usize,
        /// The move the board shows.
        played: Move,
        /// The move that was to be made.
        expected: Move,
    },
    /// The board is set up turned round (or, `turned` false, as wired): from now on every
    /// square is the real one.
    Orientation {
        /// The board stands turned round on its sensors.
        turned: bool,
    },
    /// The sensor under `square` is broken: it always reads occupied (`stuck_occupied`) or
    /// always empty. Moves through it are inferred from the other squares and the rules.
    DeadSensor {
        /// The square (as the game has it, after any turning round).
        square: Square,
        /// It always reads occupied; `false`: always empty.
        stuck_occupied: bool,
    },
    /// `piece` stands on `square` but its sensor does not see it (set down off-centre):
    /// the game went on as if it were there, which proves it.
    Unseen {
        /// Where the piece stands.
        square: Square,
        /// The piece.
        piece: Piece,
    },
    /// The unseen piece on `square` reads again (straightened).
    Seen {
        /// Where the piece stands.
        square: Square,
    },
}

/// One thing the recognizer tells, with the time of the reading that decided it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Event {
    /// The time of the reading that decided it.
    pub t: Millis,
    /// What happened.
    pub kind: EventKind,
}

impl EventKind {
    /// What a board fault or set-up finding means, in plain words for the user.
    pub fn finding(&self) -> Option<String> {
        match self {
            EventKind::Orientation { turned: true } => Some(
                "The board is set up turned round (a1 on the sensor of h8); boardsight reads it that way"
                    .to_owned(),
            ),
            EventKind::Orientation { turned: false } => None,
            EventKind::DeadSensor {
                square,
                stuck_occupied,
            } => Some(dead_sensor_words(*square, *stuck_occupied)),
            EventKind::Unseen { square, piece } => Some(unseen_words(*square, *piece)),
            EventKind::Seen { square } => Some(format!("The piece on {square} is seen again")),
            _ => None,
        }
    }
}

/// "wrong move: e7e5; the engine played g8f6".
pub fn wrong_move_words(played: Move, expected: Move) -> String {
    format!(
        "wrong move: {}; the engine played {}",
        uci(played),
        uci(expected)
    )
}

/// "The sensor under e4 always reads occupied; boardsight works around it".
pub fn dead_sensor_words(square: Square, stuck_occupied: bool) -> String {
    let reads = if stuck_occupied { "occupied" } else { "empty" };
    format!("The sensor under {square} always reads {reads}; boardsight works around it")
}

/// "The white pawn on c3 is not seen by its sensor: centre it on its square".
pub fn unseen_words(square: Square, piece: Piece) -> String {
    let color = piece.color.fold_wb("white", "black");
    let role = format!("{:?}", piece.role).to_lowercase();
    format!("The {color} {role} on {square} is not seen by its sensor: centre it on its square")
}

/// A move in UCI. A castling that standard chess has (king on e, rook on a or h) is the
/// king's move (`e1g1`); a Chess960 one is king takes own rook (`f1h1`), as UCI_Chess960
/// writes it, since its king may not move at all. Both read back in either castling mode.
pub fn uci(m: Move) -> UciMove {
    match m {
        Move::Castle { king, rook }
            if king.file() != shakmaty::File::E
                || !matches!(rook.file(), shakmaty::File::A | shakmaty::File::H) =>
        {
            UciMove::from_chess960(m)
        }
        _ => UciMove::from_standard(m),
    }
}

/// Squares as `e2,e4`, or `-` for none.
pub fn squares(bitboard: Bitboard) -> String {
    if bitboard.is_empty() {
        return "-".to_owned();
    }
    bitboard
        .into_iter()
        .map(|sq| sq.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// The trace line: `<t> <kind> <detail>`.
impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ", self.t)?;
        match &self.kind {
            EventKind::NewGame { fen } => write!(f, "newgame {fen}"),
            EventKind::Move { ply, mv, san } => write!(f, "move {} {ply}:{san}", uci(*mv)),
            EventKind::Revised { ply, old, new, san } => {
                write!(f, "revise {} {} {ply}:{san}", uci(*old), uci(*new))
            }
            EventKind::TakenBack { ply, mv } => write!(f, "takeback {} {ply}", uci(*mv)),
            EventKind::Waiting { lifted, placed } => write!(
                f,
                "waiting lifted {} placed {}",
                squares(*lifted),
                squares(*placed)
            ),
            EventKind::Ambiguous { ply, candidates } => {
                let list: Vec<String> = candidates.iter().map(|m| uci(*m).to_string()).collect();
                write!(f, "ambiguous {ply}:{}", list.join(","))
            }
            EventKind::Illegal { put_back, remove } => write!(
                f,
                "illegal put-back {} remove {}",
                squares(*put_back),
                squares(*remove)
            ),
            EventKind::Recovered => write!(f, "recovered"),
            EventKind::WrongMove {
                ply,
                played,
                expected,
            } => write!(
                f,
                "wrong {} {ply} expected {}",
                uci(*played),
                uci(*expected)
            ),
            EventKind::Orientation { turned } => {
                write!(
                    f,
                    "orientation {}",
                    if *turned { "turned" } else { "normal" }
                )
            }
            EventKind::DeadSensor {
                square,
                stuck_occupied,
            } => {
                let stuck = if *stuck_occupied {
                    "stuck-occupied"
                } else {
                    "stuck-empty"
                };
                write!(f, "sensor {square} {stuck}")
            }
            EventKind::Unseen { square, .. } => write!(f, "unseen {square}"),
            EventKind::Seen { square } => write!(f, "seen {square}"),
        }
    }
}
