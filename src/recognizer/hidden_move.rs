//! A move no sensor saw: a piece standing unseen (set down off-centre) moved on and was set
//! down off-centre again. Nothing reads, and the next moves read out of turn.

use shakmaty::{Bitboard, Move, Position, Role, Square};

use super::Recognizer;
use super::evidence::Stamp;
use super::line::Line;
use super::search::{Explanation, PLY, REVISION_COST, SearchContext, UNSEEN_LANDING, explain};

impl Recognizer {
    /// The board has stood still, `illegal`: the other player's whole move read out of
    /// turn, after a move of a piece unseen that no sensor saw (5... d5 from d6, then 6.
    /// Bd3). True if such a story explains it.
    pub(super) fn advance_on_a_hidden_move(&mut self, stamp: Stamp) -> bool {
        let found = self.stories_of_a_hidden_move();
        self.advance_cheapest(found, stamp)
    }

    /// Stories that begin with such a move on a line with a piece of the side to move
    /// unseen: a quiet move onto a square that reads empty (or was filled since, by a capture
    /// of it), then what the board shows, read in the order the hands played it (5... d5
    /// from d6 unseen, then 6. Bd3 6... Bd6, for Bd6 and Bd3 read out of turn). From the
    /// position before the last ply too, a revision dearer: that ply may have been the
    /// reply to the hidden move, read in turn (16... e4 from an unseen e5, 17. c5 unseen,
    /// 17... Bxc5 read as 16... Bc5 with c4 in the hand).
    pub(super) fn stories_of_a_hidden_move(&self) -> Vec<(usize, Explanation)> {
        let ctx = self.search_context();
        let mut found = Vec::new();
        for (i, line) in self.lines.iter().enumerate() {
            found.extend(
                self.hidden_move_stories_from(line, &ctx)
                    .into_iter()
                    .map(|e| (i, e)),
            );
            if line.ply_count() > line.pinned {
                let mut before = line.clone();
                before.nodes.pop();
                found.extend(
                    self.hidden_move_stories_from(&before, &ctx)
                        .into_iter()
                        .map(|e| {
                            let cost = e.cost + REVISION_COST;
                            (i, Explanation { undo: 1, cost, ..e })
                        }),
                );
            }
        }
        found
    }

    /// The hidden-move stories told from `line`'s position, as moves from there.
    fn hidden_move_stories_from(&self, line: &Line, ctx: &SearchContext) -> Vec<Explanation> {
        let current = line.current();
        // (A pawn: pieces are set down off-centre far less often, and a piece that may go
        // anywhere unseen would tell any story.)
        let hidden = line.unseen & current.position.our(Role::Pawn);
        if hidden.is_empty() {
            return Vec::new();
        }
        let mut found = Vec::new();
        for &(m, _) in current.legal_moves() {
            let quiet = !m.is_capture() && !m.is_castle() && !m.is_promotion();
            // (A square filled since may have been filled by a capture of it: 3. d5 from
            // an unseen d4, 3... exd5 unseen, 4. cxd5.)
            let filled_since = || self.evidence.last_arrival(m.to(), current.since).is_some();
            if !quiet
                || !m.from().is_some_and(|from| hidden.contains(from))
                || (self.sensed.contains(m.to()) && !filled_since())
                || !self.allows(m)
            {
                continue;
            }
            let mut moved = line.clone();
            moved.apply(0, &[m], current.since);
            moved.unseen |= Bitboard::from_square(m.to());
            for e in explain(&moved, ctx) {
                if e.undo > 0 || e.moves.is_empty() || e.out_of_order > 0 {
                    continue;
                }
                let mut moves = vec![m];
                moves.extend_from_slice(&e.moves);
                found.push(Explanation {
                    moves,
                    cost: e.cost + PLY + UNSEEN_LANDING,
                    unproven_moves: e.unproven_moves << 1,
                    newly_unseen: e.newly_unseen | m.to(),
                    ..e
                });
            }
        }
        found
    }

    /// A pawn's two-square push read with the reply, its landing read after the reply's:
    /// the pawn may have been pushed one square, off-centre, and on after the reply (5. a3
    /// unseen, 5... b5, 6. a4, read as 5. a4 b5). That story stays behind, for the next
    /// moves' turn to tell.
    pub(super) fn pushes_in_two_around_the_reply(
        &self,
        found: &[(usize, Explanation)],
        stamp: Stamp,
    ) -> Vec<Line> {
        // (Each line the story is found on: one kept for an earlier piece unseen elsewhere
        // keeps it too.)
        found
            .iter()
            .filter_map(|(i, e)| self.push_in_two_around_the_reply(&self.lines[*i], e, stamp))
            .collect()
    }

    fn push_in_two_around_the_reply(
        &self,
        line: &Line,
        e: &Explanation,
        stamp: Stamp,
    ) -> Option<Line> {
        if e.undo != 0 {
            return None;
        }
        let since = line.current().since;
        let landed = |m: &Move| self.evidence.last_arrival(m.to(), since);
        let j = e.moves.windows(2).position(|pair| {
            let [push, reply] = pair else {
                return false;
            };
            double_push_middle(*push).is_some()
                && matches!((landed(push), landed(reply)), (Some(p), Some(r)) if p > r)
        })?;
        let push = e.moves[j];
        let (from, middle) = (push.from()?, double_push_middle(push)?);
        let step = |from, to| Move::Normal {
            role: Role::Pawn,
            from,
            capture: None,
            to,
            promotion: None,
        };
        let mut moves = e.moves[..j].to_vec();
        moves.extend([step(from, middle), e.moves[j + 1], step(middle, push.to())]);
        moves.extend_from_slice(&e.moves[j + 2..]);
        let mut position = line.current().position.clone();
        for &m in &moves {
            if !position.is_legal(m) || !self.expected_allows(line, m) {
                return None;
            }
            position.play_unchecked(m);
        }
        let mut told = line.clone();
        told.apply(0, &moves, stamp);
        Some(told)
    }
}

/// The square a pawn's two-square push passes over.
fn double_push_middle(m: Move) -> Option<Square> {
    match m {
        Move::Normal {
            role: Role::Pawn,
            from,
            to,
            capture: None,
            ..
        } if from.file() == to.file() && from.rank().distance(to.rank()) == 2 => {
            Some(Square::new((u32::from(from) + u32::from(to)) / 2))
        }
        _ => None,
    }
}
