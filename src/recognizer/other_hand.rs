//! A landing read for the wrong hand: the player to move held a piece still, then the
//! other player lifted one, and a square filled that the other player's piece could reach.
//! The mover's piece may have come down unseen, off-centre, and the landing be the reply.

use shakmaty::{Bitboard, Position};

use super::Recognizer;
use super::evidence::Stamp;
use super::line::Line;
use super::search::{Explanation, PLY, UNSEEN_LANDING};

impl Recognizer {
    /// The lines behind for a move about to be read on the likeliest line, as the first of
    /// `found`: its piece, lifted a still second before the landing, may have come down
    /// unseen on a quiet square of its reach, and the landing be the move of a piece the
    /// other player lifted before it (40. Rf8 off-centre, then 40... Ke4, read as 40. Re4
    /// with the king in the air). Kept behind, for the next move to tell: on the line read,
    /// the king never lands, and the reply cannot be played.
    pub(super) fn landings_for_the_other_hand(
        &self,
        found: &[(usize, Explanation)],
        stamp: Stamp,
    ) -> Vec<Line> {
        let Some((0, Explanation { undo: 0, moves, .. })) = found.first() else {
            return Vec::new();
        };
        let &[read] = moves.as_slice() else {
            return Vec::new();
        };
        // Every line reading the same move, not the likeliest alone: lines told apart by
        // an earlier piece set down unseen (5... d6 or d5) keep their own such stories.
        found
            .iter()
            .filter(|(_, e)| e.undo == 0 && e.moves == [read])
            .flat_map(|&(i, _)| self.landings_on_line(i, read, stamp))
            .collect()
    }

    /// The lines behind that line `i` keeps for `read`: its piece set down unseen on a
    /// quiet square of its reach, the landing the other player's reply.
    fn landings_on_line(&self, i: usize, read: shakmaty::Move, stamp: Stamp) -> Vec<Line> {
        let line = &self.lines[i];
        let current = line.current();
        let Some(from) = read.from() else {
            return Vec::new();
        };
        if read.is_capture() || read.is_castle() || read.is_promotion() {
            return Vec::new();
        }
        let landing = read.to();
        let evidence = &self.evidence;
        let (Some(landed), Some(lifted)) = (
            evidence.last_arrival(landing, current.since),
            evidence.last_departure(from, Stamp::default()),
        ) else {
            return Vec::new();
        };
        if landed.t < lifted.t + self.config.still_ms {
            return Vec::new();
        }
        // The other player's pieces in the air, lifted before the landing.
        let other_lifted: Bitboard =
            (evidence.departed_since(current.since) & current.position.them() & !self.sensed)
                .into_iter()
                .filter(|&square| {
                    evidence
                        .last_departure(square, current.since)
                        .is_some_and(|left| left < landed)
                })
                .collect();
        if other_lifted.is_empty() {
            return Vec::new();
        }
        let blind = line.blind();
        current
            .legal_moves()
            .iter()
            .map(|&(m, _)| m)
            .filter(|&m| {
                m != read
                    && m.from() == Some(from)
                    && !m.is_capture()
                    && !m.is_castle()
                    && !self.sensed.contains(m.to())
                    && !blind.contains(m.to())
                    && self.expected_allows(line, m)
            })
            .flat_map(|unseen| {
                let mut after = current.position.clone();
                after.play_unchecked(unseen);
                after
                    .legal_moves()
                    .into_iter()
                    .filter(|reply| {
                        reply.to() == landing
                            && !reply.is_capture()
                            && reply.from().is_some_and(|f| other_lifted.contains(f))
                    })
                    .map(move |reply| Explanation {
                        moves: vec![unseen, reply],
                        cost: 2 * PLY + UNSEEN_LANDING,
                        newly_unseen: Bitboard::from_square(unseen.to()),
                        ..Explanation::default()
                    })
                    .collect::<Vec<_>>()
            })
            .map(|story| self.advanced(i, story, stamp).2)
            .collect()
    }
}
