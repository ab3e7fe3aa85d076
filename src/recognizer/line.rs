//! A line is one hypothesis of the game: the positions reached from the start.
//! Normally there is one; a capture the sensors cannot prove splits it in several.

use std::sync::{Arc, OnceLock};

use shakmaty::{Bitboard, Chess, Move, Position, Role};

use super::evidence::Stamp;
use super::moves::{occupancy_after, touched_squares};
use super::plausibility::plausibility;

#[derive(Clone, Debug)]
pub struct Node {
    pub position: Chess,
    pub occupancy: Bitboard,
    /// The move that led here (`None` for the start).
    pub last_move: Option<Move>,
    /// When this position became the current one.
    pub since: Stamp,
    /// The move that led here was guessed from a still board, not seen to land.
    pub guessed: bool,
    /// The move was guessed so once, whatever proof later settled it: the hand straightening
    /// its victim's piece looks like one, so a repair may still find it set down unseen.
    pub was_guessed: bool,
    /// The move that led here took a piece the line had unseen: the sensors never read it
    /// there, so it may have stood elsewhere.
    pub took_unseen: bool,
    /// How likely the moves that led here are in a real game, summed.
    pub plausibility: i32,
    /// Shared by the node's copies (a line tried, a timeline's checkpoint): the position
    /// never changes, so neither do its moves.
    legal: Arc<OnceLock<Vec<(Move, Bitboard)>>>,
}

impl Node {
    pub fn new(position: Chess, last_move: Option<Move>, since: Stamp) -> Self {
        let occupancy = position.board().occupied();
        Self {
            position,
            occupancy,
            last_move,
            since,
            guessed: false,
            was_guessed: false,
            took_unseen: false,
            plausibility: 0,
            legal: Arc::default(),
        }
    }

    /// Legal moves with the occupancy each one leaves, computed once per position.
    pub fn legal_moves(&self) -> &[(Move, Bitboard)] {
        self.legal.get_or_init(|| {
            self.position
                .legal_moves()
                .into_iter()
                .map(|m| (m, occupancy_after(self.occupancy, m)))
                .collect()
        })
    }
}

#[derive(Debug)]
pub struct Line {
    pub nodes: Vec<Node>,
    /// Squares this hypothesis takes to have a dead sensor: they may read anything.
    pub dead: Bitboard,
    /// Plies the user has said are so (a correction): the sensors revise and take back
    /// only the moves after them.
    pub pinned: usize,
    /// Squares where this hypothesis has a piece its sensor does not see (set down
    /// off-centre), until the square reads occupied or the piece moves on.
    pub unseen: Bitboard,
    /// Dropped by a reading that refuted it and kept last, as it was, in case that reading
    /// passes (a piece knocked over, set back): no choice to offer while it stands so.
    pub refuted: bool,
}

/// Room for the plies a story plays on a line just copied, so they do not copy the whole
/// game again to grow it.
const ROOM_FOR_PLIES: usize = 4;

impl Clone for Line {
    fn clone(&self) -> Self {
        let mut nodes = Vec::with_capacity(self.nodes.len() + ROOM_FOR_PLIES);
        nodes.extend_from_slice(&self.nodes);
        Self {
            nodes,
            dead: self.dead,
            pinned: self.pinned,
            unseen: self.unseen,
            refuted: self.refuted,
        }
    }
}

impl Line {
    pub fn new(start: Chess, since: Stamp) -> Self {
        Self {
            nodes: vec![Node::new(start, None, since)],
            dead: Bitboard::EMPTY,
            pinned: 0,
            unseen: Bitboard::EMPTY,
            refuted: false,
        }
    }

    /// Every square a piece stood on in the positions `nodes` (a range of node indices).
    pub fn occupied_over(&self, nodes: std::ops::Range<usize>) -> Bitboard {
        self.nodes
            .get(nodes)
            .unwrap_or_default()
            .iter()
            .fold(Bitboard::EMPTY, |all, node| all | node.occupancy)
    }

    /// Squares whose readings this hypothesis does not believe: dead sensors, and squares
    /// with a piece their sensor does not see.
    pub fn blind(&self) -> Bitboard {
        self.dead | self.unseen
    }

    /// How many of the last plies a story may tell again: the last, or the last two where
    /// they were told at once (the first may have landed late: 5. a3 set down unseen,
    /// 5... b5, then 6. a4, read as 5. a4 and 5... b5).
    pub fn plies_open(&self) -> usize {
        let n = self.ply_count();
        if n >= 2 && self.nodes[n].since == self.nodes[n - 1].since {
            2
        } else {
            1
        }
    }

    /// This line, kept last as it was after a reading refuted it.
    pub fn refuted_copy(&self) -> Self {
        Self {
            refuted: true,
            ..self.clone()
        }
    }

    pub fn current(&self) -> &Node {
        // A line always holds its start node.
        &self.nodes[self.nodes.len() - 1]
    }

    pub fn ply_count(&self) -> usize {
        self.nodes.len() - 1
    }

    pub fn moves(&self) -> Vec<Move> {
        self.nodes.iter().filter_map(|n| n.last_move).collect()
    }

    /// How many plies this line and `other` share from the start.
    pub fn shared_plies(&self, other: &Line) -> usize {
        let shared_nodes = (self.nodes.iter().zip(&other.nodes))
            .take_while(|(a, b)| a.last_move == b.last_move)
            .count();
        shared_nodes.saturating_sub(1)
    }

    /// Whether no move after the one at `index` (of `moves()`) touched the square it came
    /// down on.
    pub fn untouched_since_set_down(&self, index: usize) -> bool {
        let Some(set_down) = self.nodes.get(index + 1).and_then(|n| n.last_move) else {
            return false;
        };
        let square = set_down.to();
        self.nodes[index + 2..]
            .iter()
            .filter_map(|n| n.last_move)
            .all(|later| !touched_squares(later).contains(square))
    }

    /// Whether the piece the move at `index` (of `moves()`) set down stands there still,
    /// unseen: never read there, and no later move touched its square.
    pub fn still_unseen_where_set_down(&self, index: usize) -> bool {
        self.nodes
            .get(index + 1)
            .and_then(|n| n.last_move)
            .is_some_and(|m| self.unseen.contains(m.to()))
            && self.untouched_since_set_down(index)
    }

    pub fn start(&self) -> &Chess {
        &self.nodes[0].position
    }

    /// Undoes `undo` plies, then plays `moves`, all legal from where they are played.
    pub fn apply(&mut self, undo: usize, moves: &[Move], since: Stamp) {
        let keep = self.nodes.len().saturating_sub(undo).max(1);
        self.nodes.truncate(keep);
        self.pinned = self.pinned.min(self.ply_count());
        if undo > 0 && moves.is_empty() {
            // Returned to: what happened before now belongs to the moves taken back. (A
            // revision keeps it: it reads the same evidence another way.)
            let last = self.nodes.len() - 1;
            self.nodes[last].since = since;
        }
        for &m in moves {
            self.play(m, since);
        }
        // An unseen piece that moved on (or was taken back) leaves its square to be read.
        self.unseen &= self.current().occupancy;
    }

    /// Plays `m`, legal in the current position, reached at `since`.
    pub fn play(&mut self, m: Move, since: Stamp) {
        let parent = self.current();
        let plausibility =
            parent.plausibility + plausibility(&parent.position, m, parent.last_move);
        let mut position = parent.position.clone();
        position.play_unchecked(m);
        let mut node = Node::new(position, Some(m), since);
        node.plausibility = plausibility;
        node.took_unseen = m.is_capture() && self.unseen.contains(m.to());
        self.nodes.push(node);
    }

    /// Makes the last move a promotion to `role` if it is a promotion; true if it changed.
    pub fn repromote_last(&mut self, role: Role) -> bool {
        let Some(Move::Normal {
            role: mover,
            from,
            capture,
            to,
            promotion: Some(old),
        }) = self.current().last_move
        else {
            return false;
        };
        if old == role {
            return false;
        }
        let since = self.current().since;
        let replacement = Move::Normal {
            role: mover,
            from,
            capture,
            to,
            promotion: Some(role),
        };
        self.nodes.pop();
        if !self.current().position.is_legal(replacement) {
            self.apply(
                0,
                &[Move::Normal {
                    role: mover,
                    from,
                    capture,
                    to,
                    promotion: Some(old),
                }],
                since,
            );
            return false;
        }
        self.apply(0, &[replacement], since);
        true
    }
}
