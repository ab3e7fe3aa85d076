//! What each square did since a position became current: the physical evidence that
//! tells a finished capture from a piece still in the air.

use std::collections::VecDeque;

use shakmaty::{Bitboard, Square};

use crate::reading::Millis;

/// Orders observations; readings that share a time (poll boards) still have an order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Stamp {
    pub seq: u64,
    pub t: Millis,
}

#[derive(Clone, Copy, Debug)]
enum Observation {
    /// The square became empty (a sensor change or a lift event).
    Left { square: Square },
    /// A piece arrived on the square: a sensor change, or a place event (even on an occupied square).
    Arrived { square: Square, from_event: bool },
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    stamp: Stamp,
    observation: Observation,
}

/// How long a slid piece may read on two squares at once: it reaches the next square a
/// moment before it leaves the one it was on.
pub const STRADDLE_MS: Millis = 50;

/// A piece that leaves the square it was read landing on this soon was passing over it.
pub const PASSING_MS: Millis = 300;

/// Entries older than every base position still searched are dropped; this bounds the rest.
const MAX_ENTRIES: usize = 4096;
/// A host polling slower than this is not telling when things happened at all.
const MAX_POLL_SKEW_MS: Millis = 500;

#[derive(Clone, Debug)]
pub struct Evidence {
    entries: VecDeque<Entry>,
    /// Entries forgotten, kept a while longer for a story told from further back: a game
    /// stuck on a choice made a few plies ago (`with_history`).
    history: VecDeque<Entry>,
    seq: u64,
    /// Once a board has sent lift/place events, sensor-only arrivals are not trusted as proof.
    event_board: bool,
    min_vacancy_ms: Millis,
    /// The time of the last lift/place event, and the shortest time seen between two:
    /// a board's poll interval, since its events carry the time of their poll.
    last_event_t: Option<Millis>,
    poll_interval: Option<Millis>,
}

impl Evidence {
    pub fn new(min_vacancy_ms: Millis) -> Self {
        Self {
            entries: VecDeque::new(),
            history: VecDeque::new(),
            seq: 0,
            event_board: false,
            min_vacancy_ms,
            last_event_t: None,
            poll_interval: None,
        }
    }

    pub fn stamp(&mut self, t: Millis) -> Stamp {
        self.seq += 1;
        Stamp { seq: self.seq, t }
    }

    /// Whether the board tells lifts and places as events (a poll board): a capture then
    /// shows as events on its victim's square, however fast the hand.
    pub fn is_event_board(&self) -> bool {
        self.event_board
    }

    /// Notes a lift/place event at `t`: the board sends events.
    pub fn mark_event_board(&mut self, t: Millis) {
        self.event_board = true;
        if let Some(last) = self.last_event_t
            && t > last
        {
            let gap = t - last;
            self.poll_interval = Some(self.poll_interval.map_or(gap, |interval| interval.min(gap)));
        }
        self.last_event_t = Some(t);
    }

    /// How far apart a polled board may stamp two changes made together: a change just
    /// before a poll and one just after it are a poll apart. Nothing on a board without
    /// events, whose readings carry the time of their scan.
    pub fn poll_skew(&self) -> Millis {
        if self.event_board {
            self.poll_interval.unwrap_or(0).min(MAX_POLL_SKEW_MS)
        } else {
            0
        }
    }

    pub fn left(&mut self, stamp: Stamp, square: Square) {
        self.push(stamp, Observation::Left { square });
    }

    pub fn arrived(&mut self, stamp: Stamp, square: Square, from_event: bool) {
        self.push(stamp, Observation::Arrived { square, from_event });
    }

    fn push(&mut self, stamp: Stamp, observation: Observation) {
        if self.entries.len() >= MAX_ENTRIES {
            self.entries.pop_front();
        }
        self.entries.push_back(Entry { stamp, observation });
    }

    /// Forgets what happened before `stamp`, keeping it in the history from `kept_from`.
    pub fn forget_before(&mut self, stamp: Stamp, kept_from: Stamp) {
        while let Some(entry) = self.entries.front().copied().filter(|e| e.stamp < stamp) {
            self.entries.pop_front();
            if self.history.len() >= MAX_ENTRIES {
                self.history.pop_front();
            }
            self.history.push_back(entry);
        }
        while self.history.front().is_some_and(|e| e.stamp < kept_from) {
            self.history.pop_front();
        }
    }

    /// This evidence with its history: what happened since `kept_from` of the last
    /// `forget_before`.
    pub fn with_history(&self) -> Self {
        let mut whole = self.clone();
        whole.history.clear();
        whole.entries = self.history.iter().chain(&self.entries).copied().collect();
        whole
    }

    /// How long before the reading of `stamp` the board last told a change: a scanning
    /// board streaming its changes tells one a scan or two before; a host draining its
    /// buffer late tells several at once (no time between) or after a silence.
    pub fn time_since_the_reading_before(&self, stamp: Stamp) -> Option<Millis> {
        self.entries
            .iter()
            .rev()
            .find(|e| e.stamp.seq < stamp.seq)
            .map(|e| stamp.t.saturating_sub(e.stamp.t))
    }

    /// When a piece last left `square`, at or after `since`.
    pub fn last_departure(&self, square: Square, since: Stamp) -> Option<Stamp> {
        self.entries
            .iter()
            .rev()
            .take_while(|e| e.stamp >= since)
            .find(|e| matches!(e.observation, Observation::Left { square: s } if s == square))
            .map(|e| e.stamp)
    }

    /// When a piece first left `square` at or after `since`.
    pub fn first_departure(&self, square: Square, since: Stamp) -> Option<Stamp> {
        let start = self.entries.partition_point(|e| e.stamp < since);
        self.entries
            .range(start..)
            .find(|e| matches!(e.observation, Observation::Left { square: s } if s == square))
            .map(|e| e.stamp)
    }

    /// When a piece last arrived on `square`, at or after `since`.
    pub fn last_arrival(&self, square: Square, since: Stamp) -> Option<Stamp> {
        self.entries
            .iter()
            .rev()
            .take_while(|e| e.stamp >= since)
            .find(
                |e| matches!(e.observation, Observation::Arrived { square: s, .. } if s == square),
            )
            .map(|e| e.stamp)
    }

    /// When a piece first arrived on `square` at or after `since`, at time `t` or later.
    pub fn first_arrival(&self, square: Square, since: Stamp, t: Millis) -> Option<Stamp> {
        let start = self.entries.partition_point(|e| e.stamp < since);
        self.entries
            .range(start..)
            .find(|e| {
                e.stamp.t >= t
                    && matches!(
                        e.observation,
                        Observation::Arrived { square: s, .. } if s == square
                    )
            })
            .map(|e| e.stamp)
    }

    /// The squares read filled at `at` (the reading being read): by a place event only, if
    /// `by_event`; else by an event or an occupancy reading.
    pub fn arrived_at(&self, at: Stamp, by_event: bool) -> Bitboard {
        self.entries
            .iter()
            .rev()
            .take_while(|e| e.stamp >= at)
            .filter(|e| e.stamp == at)
            .fold(Bitboard::EMPTY, |placed, e| match e.observation {
                Observation::Arrived { square, from_event } if from_event || !by_event => {
                    placed | square
                }
                _ => placed,
            })
    }

    /// Whether the last piece to arrive on `square` at or after `since` was set down by a
    /// place event (not only read in an occupancy, as line noise reads one).
    pub fn last_arrival_by_event(&self, square: Square, since: Stamp) -> bool {
        self.entries
            .iter()
            .rev()
            .take_while(|e| e.stamp >= since)
            .find_map(|e| match e.observation {
                Observation::Arrived {
                    square: s,
                    from_event,
                } if s == square => Some(from_event),
                _ => None,
            })
            .unwrap_or(false)
    }

    /// How many times a piece arrived on `square` at or after `since`.
    pub fn arrivals_since(&self, square: Square, since: Stamp) -> usize {
        self.entries
            .iter()
            .rev()
            .take_while(|e| e.stamp >= since)
            .filter(
                |e| matches!(e.observation, Observation::Arrived { square: s, .. } if s == square),
            )
            .count()
    }

    /// Whether a piece appeared on `square` after `since` on a board still for `ms` before
    /// (not a slid piece passing, nor one knocked there by a hand), stood there at least
    /// `ms`, and left again: a piece set down off-centre, straightened, then moved on.
    pub fn stood_alone_and_left(&self, square: Square, since: Stamp, ms: Millis) -> bool {
        let start = self.entries.partition_point(|e| e.stamp <= since);
        let mut previous = since.t;
        let mut arrived: Option<Millis> = None;
        for e in self.entries.range(start..) {
            match e.observation {
                Observation::Arrived { square: s, .. }
                    if s == square
                        && arrived.is_none()
                        && e.stamp.t >= previous.saturating_add(ms) =>
                {
                    arrived = Some(e.stamp.t);
                }
                Observation::Left { square: s } if s == square => {
                    if arrived.is_some_and(|at| e.stamp.t >= at.saturating_add(ms)) {
                        return true;
                    }
                    arrived = None;
                }
                _ => {}
            }
            previous = e.stamp.t;
        }
        false
    }

    /// Squares a piece left after `since` (what happened at `since` itself belongs to the
    /// move that made the position).
    pub fn departed_since(&self, since: Stamp) -> Bitboard {
        let start = self.entries.partition_point(|e| e.stamp <= since);
        self.entries
            .range(start..)
            .filter_map(|e| match e.observation {
                Observation::Left { square } => Some(square),
                Observation::Arrived { .. } => None,
            })
            .collect()
    }

    /// Squares emptied and filled again after `since`, by events or for longer than noise
    /// lasts. What happened at `since` itself belongs to the move that made the position.
    pub fn disturbed_since(&self, since: Stamp) -> Bitboard {
        let start = self.entries.partition_point(|e| e.stamp <= since);
        let window = self.entries.range(start..);
        let mut disturbed = Bitboard::EMPTY;
        // Oldest first: when each square was last seen emptying.
        let mut emptied_at: [Option<Stamp>; 64] = [None; 64];
        for e in window {
            match e.observation {
                Observation::Left { square } => emptied_at[square as usize] = Some(e.stamp),
                Observation::Arrived { square, from_event } => {
                    let real_vacancy = !self.event_board
                        && emptied_at[square as usize]
                            .is_some_and(|emptied| self.longer_than_noise(emptied, e.stamp));
                    if from_event || real_vacancy {
                        disturbed.add(square);
                    }
                    emptied_at[square as usize] = None;
                }
            }
        }
        disturbed
    }

    /// The real (not noise) vacancy of `square` that ended at `arrival`, found among the
    /// `earlier` entries (newest first): when it began.
    fn vacancy_before(
        &self,
        earlier: &[&Entry],
        square: Square,
        arrival: Stamp,
        any_length: bool,
    ) -> Option<Stamp> {
        if self.event_board {
            return None;
        }
        let emptied = earlier.iter().find_map(|e| match e.observation {
            Observation::Left { square: s } if s == square => Some(Some(e.stamp)),
            Observation::Arrived { square: s, .. } if s == square => Some(None),
            _ => None,
        });
        emptied
            .flatten()
            .filter(|&emptied| any_length || self.longer_than_noise(emptied, arrival))
    }

    /// Whether a square empty from `emptied` to `filled` was really vacated. A host that
    /// drains a buffer stamps several readings with one time: a vacancy whose two ends share
    /// a time has an unknown length, not a zero one.
    pub fn longer_than_noise(&self, emptied: Stamp, filled: Stamp) -> bool {
        let length = filled.t.saturating_sub(emptied.t);
        length >= self.min_vacancy_ms || length == 0
    }

    /// Proof that a piece from `from` landed on `victim` after leaving: a place event there,
    /// or (boards without events) the victim square read empty, long enough not to be sensor
    /// noise, and filled again. A piece seen on a square of its `way` after it left, or
    /// arriving as it left, was slid there: then the victim may have been lifted just as it
    /// arrived, and a vacancy of any length proves it. Returns the stamp of the latest proof.
    pub fn capture_proof(
        &self,
        from: Square,
        victim: Square,
        way: Bitboard,
        since: Stamp,
    ) -> Option<Stamp> {
        self.capture_proofs(from, victim, way, since).next()
    }

    /// Every proof of the capture, the latest first (the last is the first capture's own
    /// landing, where the square was taken again later by a recapture).
    pub fn capture_proofs(
        &self,
        from: Square,
        victim: Square,
        way: Bitboard,
        since: Stamp,
    ) -> impl Iterator<Item = Stamp> {
        let departure = self.last_departure(from, since).unwrap_or(since);
        let seen_on_its_way = way
            .into_iter()
            .filter_map(|square| self.last_arrival(square, since))
            .filter(|arrival| arrival.t + STRADDLE_MS >= departure.t)
            .min();
        let window: Vec<&Entry> = self
            .entries
            .iter()
            .rev()
            .take_while(|e| e.stamp >= since)
            .collect();
        let entries = window.len();
        let proof_at = move |i: usize| -> Option<Stamp> {
            let e = window[i];
            let Observation::Arrived { square, from_event } = e.observation else {
                return None;
            };
            // A slid piece straddles its square and the next for a moment: it may reach
            // the victim's square just before it leaves its own.
            let after_departure = e.stamp > departure;
            let skew = if from_event { self.poll_skew() } else { 0 };
            let straddling = departure.t.saturating_sub(e.stamp.t) <= STRADDLE_MS + skew;
            if square != victim || !(after_departure || straddling) {
                return None;
            }
            if from_event && after_departure {
                return Some(e.stamp);
            }
            if from_event {
                // Reached before the capturer left: the victim must have been taken off first.
                let taken_off = window[i + 1..].iter().find_map(|e| match e.observation {
                    Observation::Left { square: s } if s == victim => Some(true),
                    Observation::Arrived { square: s, .. } if s == victim => Some(false),
                    _ => None,
                });
                return taken_off.unwrap_or(false).then_some(e.stamp);
            }
            // Slid there in one motion: seen on its way, or arriving as it left.
            let slid = seen_on_its_way.is_some_and(|seen| seen <= e.stamp)
                || e.stamp.t.abs_diff(departure.t) <= STRADDLE_MS;
            // A victim taken off while the capturer is in the hand, and the square filled
            // again, is a capture even from a hand faster than the noise bound (80 ms at
            // blitz speed); a blip of a scan or two (40 ms) is still noise.
            let emptied = self.vacancy_before(&window[i + 1..], victim, e.stamp, true)?;
            let in_hand = emptied > departure
                && e.stamp.t.saturating_sub(emptied.t) >= self.min_vacancy_ms / 2;
            (slid || in_hand || self.longer_than_noise(emptied, e.stamp)).then_some(e.stamp)
        };
        (0..entries).filter_map(proof_at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piece_appearing_on_a_still_board_and_moving_on_stood_alone() {
        let mut evidence = Evidence::new(100);
        let since = evidence.stamp(1_000);
        let (e4, c5) = (Square::E4, Square::C5);
        let s = evidence.stamp(4_000);
        evidence.arrived(s, e4, false);
        let s = evidence.stamp(4_700);
        evidence.left(s, c5);
        let s = evidence.stamp(4_900);
        evidence.left(s, e4);
        assert!(evidence.stood_alone_and_left(e4, since, 300));
        // A slid piece passing over a square reads on it for a moment only.
        let mut passing = Evidence::new(100);
        let since = passing.stamp(1_000);
        let s = passing.stamp(4_000);
        passing.arrived(s, e4, false);
        let s = passing.stamp(4_080);
        passing.left(s, e4);
        assert!(!passing.stood_alone_and_left(e4, since, 300));
        // A piece knocked there arrives as another leaves: not alone.
        let mut knocked = Evidence::new(100);
        let since = knocked.stamp(1_000);
        let s = knocked.stamp(4_000);
        knocked.left(s, Square::D4);
        let s = knocked.stamp(4_030);
        knocked.arrived(s, e4, false);
        let s = knocked.stamp(5_000);
        knocked.left(s, e4);
        assert!(!knocked.stood_alone_and_left(e4, since, 300));
    }

    #[test]
    fn what_is_forgotten_is_kept_in_the_history_from_its_floor() {
        let mut evidence = Evidence::new(100);
        let base = evidence.stamp(0);
        let s = evidence.stamp(1_000);
        evidence.left(s, Square::E2);
        let floor = evidence.stamp(2_000);
        evidence.left(floor, Square::E7);
        let s = evidence.stamp(3_000);
        evidence.arrived(s, Square::E4, false);
        let now = evidence.stamp(4_000);
        evidence.left(now, Square::G1);
        evidence.forget_before(now, floor);
        // Forgotten: only the newest lift is evidence now.
        assert_eq!(
            evidence.departed_since(base),
            Bitboard::from_square(Square::G1)
        );
        // The history holds what happened from its floor on, not before.
        let whole = evidence.with_history();
        assert_eq!(
            whole.departed_since(base),
            Bitboard::from_square(Square::E7) | Bitboard::from_square(Square::G1)
        );
        assert!(whole.last_arrival(Square::E4, base).is_some());
        // Forgetting again moves the floor on.
        evidence.forget_before(now, now);
        assert!(
            evidence
                .with_history()
                .last_arrival(Square::E4, base)
                .is_none()
        );
    }

    #[test]
    fn a_victim_refilled_after_the_capturer_left_proves_the_capture() {
        let mut evidence = Evidence::new(100);
        let base = evidence.stamp(0);
        let s = evidence.stamp(1000);
        evidence.left(s, Square::D4);
        let s = evidence.stamp(1300);
        evidence.left(s, Square::E5);
        let s = evidence.stamp(1600);
        evidence.arrived(s, Square::E5, false);
        assert!(
            evidence
                .capture_proof(Square::D4, Square::E5, Bitboard::EMPTY, base)
                .is_some()
        );
    }

    #[test]
    fn a_touch_before_the_capturer_left_proves_nothing() {
        let mut evidence = Evidence::new(100);
        let base = evidence.stamp(0);
        let s = evidence.stamp(1000);
        evidence.left(s, Square::E5);
        let s = evidence.stamp(1500);
        evidence.arrived(s, Square::E5, false);
        let s = evidence.stamp(2000);
        evidence.left(s, Square::D4);
        assert!(
            evidence
                .capture_proof(Square::D4, Square::E5, Bitboard::EMPTY, base)
                .is_none()
        );
    }

    #[test]
    fn a_sensor_dropout_is_too_short_to_prove_a_capture() {
        let mut evidence = Evidence::new(100);
        let base = evidence.stamp(0);
        let s = evidence.stamp(1000);
        evidence.left(s, Square::D4);
        let s = evidence.stamp(1300);
        evidence.left(s, Square::E5);
        let s = evidence.stamp(1340);
        evidence.arrived(s, Square::E5, false);
        assert!(
            evidence
                .capture_proof(Square::D4, Square::E5, Bitboard::EMPTY, base)
                .is_none()
        );
    }

    #[test]
    fn a_piece_slid_onto_a_victim_lifted_as_it_arrives_proves_the_capture() {
        // The queen leaves g2, brushes h2, and reaches h3 20 ms after the victim is lifted.
        let mut evidence = Evidence::new(100);
        let base = evidence.stamp(0);
        let s = evidence.stamp(1000);
        evidence.left(s, Square::G2);
        evidence.arrived(s, Square::H2, false);
        let s = evidence.stamp(1040);
        evidence.left(s, Square::H3);
        let s = evidence.stamp(1060);
        evidence.left(s, Square::H2);
        evidence.arrived(s, Square::H3, false);
        let way = Bitboard::from_square(Square::H2).with(Square::G3);
        assert!(
            evidence
                .capture_proof(Square::G2, Square::H3, way, base)
                .is_some()
        );
        // Not seen on its way, 20 ms is a sensor dropout.
        assert!(
            evidence
                .capture_proof(Square::G2, Square::H3, Bitboard::EMPTY, base)
                .is_none()
        );
    }

    #[test]
    fn a_vacancy_stamped_in_one_batch_is_not_taken_for_noise() {
        let mut evidence = Evidence::new(100);
        let base = evidence.stamp(0);
        for (square, left) in [(Square::D4, true), (Square::E5, true), (Square::E5, false)] {
            let s = evidence.stamp(1000);
            if left {
                evidence.left(s, square);
            } else {
                evidence.arrived(s, square, false);
            }
        }
        assert!(
            evidence
                .capture_proof(Square::D4, Square::E5, Bitboard::EMPTY, base)
                .is_some()
        );
    }

    #[test]
    fn a_polled_boards_skew_is_the_shortest_time_between_its_events() {
        let mut evidence = Evidence::new(100);
        assert_eq!(evidence.poll_skew(), 0);
        evidence.mark_event_board(1000);
        evidence.mark_event_board(1000);
        evidence.mark_event_board(1750);
        evidence.mark_event_board(2000);
        assert_eq!(evidence.poll_skew(), 250);
        let mut slow = Evidence::new(100);
        slow.mark_event_board(0);
        slow.mark_event_board(5000);
        assert_eq!(slow.poll_skew(), MAX_POLL_SKEW_MS);
    }

    #[test]
    fn a_place_event_on_an_occupied_square_proves_the_capture() {
        let mut evidence = Evidence::new(100);
        evidence.mark_event_board(1000);
        let base = evidence.stamp(0);
        let s = evidence.stamp(1000);
        evidence.left(s, Square::D4);
        let s = evidence.stamp(1000);
        evidence.arrived(s, Square::E5, true);
        assert!(
            evidence
                .capture_proof(Square::D4, Square::E5, Bitboard::EMPTY, base)
                .is_some()
        );
    }
}
