//! What the recognizer knows after a change, as the worker and a recording's timeline hand
//! it on: all that is shown and that the session's parts look at.

use shakmaty::{Bitboard, Chess, Move, Role, Square};

use crate::game::GameRecord;
use crate::recognizer::{BoardStatus, Recognizer};

/// What the recognizer knows, after a change.
#[derive(Clone, Debug)]
pub struct Snapshot {
    /// The current game (empty before the board first shows its start).
    pub game: GameRecord,
    /// Every game of the session, the current one last once it has begun.
    pub games: Vec<GameRecord>,
    /// The recognised position.
    pub position: Chess,
    /// What the sensors read.
    pub sensed: Bitboard,
    /// What the sensors would read with the position set up.
    pub expected: Bitboard,
    /// What the board shows, compared with the position.
    pub status: BoardStatus,
    /// A move that is still ambiguous: its ply and the candidates.
    pub ambiguity: Option<(usize, Vec<Move>)>,
    /// Whether the board has shown the game's start (a game is running).
    pub has_started: bool,
    /// The piece the next promotion will get.
    pub pending_promotion: Role,
    /// Malformed frames, packets or lines dropped so far.
    pub dropped: u64,
    /// Whether a move taken back can be played again.
    pub can_redo: bool,
    /// The move the next ply must be (the engine's), if one is awaited.
    pub expected_move: Option<Move>,
    /// Broken sensors found, each with whether it is stuck reading occupied.
    pub dead_sensors: Vec<(Square, bool)>,
    /// Whether the board was found (or set) to stand turned round.
    pub turned: bool,
    /// Pieces the position has where their sensor reads empty (set down off-centre).
    pub unseen_pieces: Vec<(Square, shakmaty::Piece)>,
}

impl Snapshot {
    /// What `r` knows now, with `dropped` malformed frames so far.
    pub fn of(r: &Recognizer, dropped: u64) -> Self {
        Self {
            game: r.game(),
            games: r.games(),
            position: r.position().clone(),
            sensed: r.sensed(),
            expected: r.expected_occupancy(),
            status: r.status().clone(),
            ambiguity: r.ambiguity(),
            has_started: r.has_started(),
            pending_promotion: r.pending_promotion(),
            dropped,
            can_redo: r.can_redo(),
            expected_move: r.expected_move(),
            dead_sensors: r.dead_sensors(),
            turned: r.is_turned(),
            unseen_pieces: r.unseen_pieces(),
        }
    }
}
