//! The legal moves of positions the story searches reach again and again: an unseen-piece
//! search walks the same positions once for every square it suspects, and a board that
//! stays unexplained is searched again at every reading. Generated once, kept a while.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Arc;

use shakmaty::zobrist::Zobrist64;
use shakmaty::{Chess, EnPassantMode, Move, MoveList, Position};

/// Positions kept before the cache starts afresh (a few megabytes at most).
const MOST_POSITIONS: usize = 4096;

/// Legal moves by position. A clone starts empty: a recognizer cloned to try a reading
/// out does not copy what the original keeps.
#[derive(Default)]
pub struct MoveCache {
    moves: RefCell<HashMap<u64, Arc<[Move]>, BuildHasherDefault<ZobristKey>>>,
}

/// A Zobrist hash is as spread as a hash gets: its bits are the bucket.
#[derive(Default)]
struct ZobristKey(u64);

impl Hasher for ZobristKey {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

impl Clone for MoveCache {
    fn clone(&self) -> Self {
        Self::default()
    }
}

/// Legal moves, kept or made afresh.
// (It lives on the stack for one node of a search: boxing the fresh list would cost an
// allocation per node.)
#[allow(clippy::large_enum_variant)]
pub enum Moves {
    Kept(Arc<[Move]>),
    Fresh(MoveList),
}

impl std::ops::Deref for Moves {
    type Target = [Move];

    fn deref(&self) -> &[Move] {
        match self {
            Moves::Kept(moves) => moves,
            Moves::Fresh(moves) => moves,
        }
    }
}

impl MoveCache {
    /// The legal moves of `position`, through `cache` if there is one.
    pub fn moves_of(cache: Option<&MoveCache>, position: &Chess) -> Moves {
        match cache {
            Some(cache) => Moves::Kept(cache.of(position)),
            None => Moves::Fresh(position.legal_moves()),
        }
    }

    /// The legal moves of `position`.
    pub fn of(&self, position: &Chess) -> Arc<[Move]> {
        // (Every en passant square kept in the key: positions told apart more finely than
        // their moves need, never less.)
        let key = position.zobrist_hash::<Zobrist64>(EnPassantMode::Always).0;
        if let Some(moves) = self.moves.borrow().get(&key) {
            return moves.clone();
        }
        let moves: Arc<[Move]> = position.legal_moves().into_iter().collect();
        let mut cache = self.moves.borrow_mut();
        if cache.len() >= MOST_POSITIONS {
            cache.clear();
        }
        cache.insert(key, moves.clone());
        moves
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every position of the sample games (en passant, castling, promotion among them), and
    /// at every other one each position one and two moves on: more than the cache keeps.
    fn positions() -> Vec<Chess> {
        let on = |position: &Chess| -> Vec<Chess> {
            position
                .legal_moves()
                .into_iter()
                .map(|m| {
                    let mut next = position.clone();
                    next.play_unchecked(m);
                    next
                })
                .collect()
        };
        let mut all = Vec::new();
        for game in crate::sim::sample::games() {
            let mut position = game.start.clone();
            for (ply, &m) in game.moves.iter().enumerate() {
                all.push(position.clone());
                if ply % 2 == 0 {
                    for next in on(&position) {
                        all.extend(on(&next));
                        all.push(next);
                    }
                }
                position.play_unchecked(m);
            }
        }
        all
    }

    #[test]
    fn kept_moves_are_the_positions_own_whether_kept_or_made_afresh() {
        let all = positions();
        assert!(all.len() > MOST_POSITIONS, "{} positions", all.len());
        let cache = MoveCache::default();
        // Twice over: the second pass reads what the first kept, or what was kept again
        // after the cache started afresh.
        for _ in 0..2 {
            for position in &all {
                let want: Vec<Move> = position.legal_moves().into_iter().collect();
                assert_eq!(&*cache.of(position), want.as_slice(), "{position:?}");
                let fresh = MoveCache::moves_of(None, position);
                assert_eq!(&*fresh, want.as_slice());
            }
        }
        assert!(cache.moves.borrow().len() <= MOST_POSITIONS);
    }
}
