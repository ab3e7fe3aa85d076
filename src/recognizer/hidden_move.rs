//! A move no sensor saw: a piece standing unseen (set down off-centre) moved on and was set
//! down off-centre again. Nothing reads, and the next moves read out of turn.

use shakmaty::{Bitboard, Position, Role};

use super::Recognizer;
use super::evidence::Stamp;
use super::search::{Explanation, PLY, UNSEEN_LANDING, explain};

impl Recognizer {
    /// The board has stood still, `illegal`: the other player's whole move read out of
    /// turn, after a move of a piece unseen that no sensor saw (5... d5 from d6, then 6.
    /// Bd3). True if such a story explains it.
    pub(super) fn advance_on_a_hidden_move(&mut self, stamp: Stamp) -> bool {
        let found = self.stories_of_a_hidden_move();
        self.advance_cheapest(found, stamp)
    }

    /// Stories that begin with such a move on a line with a piece of the side to move
    /// unseen: a quiet move onto a square that reads empty, then what the board shows,
    /// read in the order the hands played it (5... d5 from d6 unseen, then 6. Bd3 6...
    /// Bd6, for Bd6 and Bd3 read out of turn).
    pub(super) fn stories_of_a_hidden_move(&self) -> Vec<(usize, Explanation)> {
        let ctx = self.search_context();
        let mut found = Vec::new();
        for (i, line) in self.lines.iter().enumerate() {
            let current = line.current();
            // (A pawn: pieces are set down off-centre far less often, and a piece that may
            // go anywhere unseen would tell any story.)
            let hidden = line.unseen & current.position.our(Role::Pawn);
            if hidden.is_empty() {
                continue;
            }
            for &(m, _) in current.legal_moves() {
                let quiet = !m.is_capture() && !m.is_castle() && !m.is_promotion();
                if !quiet
                    || !m.from().is_some_and(|from| hidden.contains(from))
                    || self.sensed.contains(m.to())
                    || !self.allows(m)
                {
                    continue;
                }
                let mut moved = line.clone();
                moved.apply(0, &[m], current.since);
                moved.unseen |= Bitboard::from_square(m.to());
                for e in explain(&moved, &ctx) {
                    if e.undo > 0 || e.moves.is_empty() || e.out_of_order > 0 {
                        continue;
                    }
                    let mut moves = vec![m];
                    moves.extend_from_slice(&e.moves);
                    found.push((
                        i,
                        Explanation {
                            moves,
                            cost: e.cost + PLY + UNSEEN_LANDING,
                            unproven_moves: e.unproven_moves << 1,
                            newly_unseen: e.newly_unseen | m.to(),
                            ..e
                        },
                    ));
                }
            }
        }
        found
    }
}
