//! The move recognizer: a pure state machine from sensor readings to chess events.
//!
//! No threads, no I/O and no clock: every time comes with the readings. Each reading is
//! explained by the cheapest story on every *line* (hypothesis of the game so far): moves
//! forward, a revised last move, or a return to an earlier position. A capture the sensors
//! cannot prove splits the line; later moves decide which line survives.

mod catch_up;
pub mod event;
mod evidence;
pub mod health;
mod hidden_move;
mod line;
mod move_cache;
mod moves;
mod orientation;
mod other_hand;
mod plausibility;
mod repair;
mod search;

use std::sync::Arc;

use shakmaty::san::SanPlus;
use shakmaty::{Bitboard, Chess, Color, Move, Piece, Position, Role, Square};

pub use event::{Event, EventKind};
use evidence::{Evidence, STRADDLE_MS, Stamp};
use line::Line;
pub use moves::touched_squares;
pub use orientation::BoardOrientation;
use orientation::turn_round;
use search::{
    Explanation, IN_PROGRESS, PLY, SECOND_HAND, SearchContext, Sensed, explain, in_progress_cost,
};

use crate::game::{GameRecord, fen_of};
use crate::reading::{Millis, Reading, START_OCCUPANCY, TimedReading};

/// A reading that changes more squares than two hands can is line noise.
const WILD_CHANGE: usize = 6;
/// Two squares are tried together as unseen only among this few suspects.
const MAX_PAIRED_SUSPECTS: usize = 8;
/// How much less plausible a piece set down unseen is than a capture seen only as the
/// capturer's lift (a recapture's worth): it stays behind unless the game proves it.
const UNSEEN_BEHIND_A_CAPTURE: i32 = 20;
/// The cheapest a story of a piece set down unseen can be: its landing is never the last
/// ply (only the game going on proves it), so two plies and the unseen landing.
const CHEAPEST_UNSEEN_STORY: u32 = 2 * PLY + search::UNSEEN_LANDING;
/// How much less plausible a capture no sensor saw is than a piece guessed set down
/// unseen: behind every such guess, whatever its moves.
const CAPTURE_BEHIND_AN_UNSEEN_GUESS: i32 = 1000;
/// How many hypotheses are kept at once.
const MAX_LINES: usize = 16;
/// A dead sensor is told once the game has gone on this many plies with it blamed.
const DEAD_REPORTED_AFTER_PLIES: usize = 4;
/// A hand carries a piece to its square and lets it go no faster than this.
const LET_GO_MS: crate::reading::Millis = 250;
/// How long the board must read wrong before it is told illegal: line noise for a scan, or
/// a hand passing over a square, is no alarm; a board left wrong is told before a player
/// could act on it.
const ALARM_AFTER_MS: Millis = 300;
/// The start occupancy means a new game unless a story this cheap explains it
/// (up to two plies forward or back).
const NEW_GAME_ABOVE_COST: u32 = 2 * PLY + 2;

/// How the recognizer reads the board.
#[derive(Clone, Debug)]
pub struct Config {
    /// The position the board must show first; the standard start when `None`.
    pub start: Option<Chess>,
    /// A victim square must read empty at least this long to prove a capture on boards
    /// without lift/place events. Sensor dropouts last tens of milliseconds; a hand
    /// removing a piece takes longer.
    pub min_vacancy_ms: Millis,
    /// Which way round the board stands on its sensors.
    pub orientation: BoardOrientation,
    /// After this long without a reading, a piece still in the hand that has exactly one
    /// capture is taken to have made it: fast hands lift the victim and set the capturer
    /// down between two readings, so only the capturer's lift shows.
    pub still_ms: Millis,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            start: None,
            min_vacancy_ms: 100,
            orientation: BoardOrientation::Auto,
            still_ms: 1000,
        }
    }
}

/// What the board shows, compared with the recognised position.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum BoardStatus {
    /// The board matches the position.
    #[default]
    Settled,
    /// A move is in progress.
    Waiting {
        /// Squares whose piece is off the board.
        lifted: Bitboard,
        /// Squares a piece was set down on, the move not yet whole.
        placed: Bitboard,
    },
    /// No legal continuation explains the board.
    Illegal {
        /// Squares whose piece must be put back.
        put_back: Bitboard,
        /// Squares whose piece must be taken away.
        remove: Bitboard,
    },
}

/// Follows a board from its readings: the games played on it, the move in progress, what
/// is wrong and what to put back. Pure: no I/O and no clock; time comes with the readings
/// (and [`Recognizer::tick`]).
#[derive(Clone)]
pub struct Recognizer {
    config: Config,
    /// Until the board first shows this position, no game is running.
    awaiting: Option<Chess>,
    /// Hypotheses of the current game, the most likely first; never empty.
    lines: Vec<Line>,
    /// Shared with this recognizer's copies (a timeline's checkpoints): a finished game
    /// never changes.
    finished: Vec<Arc<GameRecord>>,
    sensed: Bitboard,
    /// Squares whose reading has not changed since the first reading: where a dead sensor
    /// may hide.
    steady: Bitboard,
    /// Dead sensors already told to listeners.
    reported_dead: Bitboard,
    /// Dead sensors every line blames, with the ply of the game when they first all did.
    blamed_dead: Option<(Bitboard, usize)>,
    /// Unseen pieces already told to listeners, each with its square.
    reported_unseen: Vec<(Square, Piece)>,
    /// The last reading that changed more squares than hands can: line noise.
    wild_at: Option<Stamp>,
    evidence: Evidence,
    pending_promotion: Option<Role>,
    /// What the board reads against the position now, told or not yet.
    read_status: BoardStatus,
    /// The status listeners were last told.
    status: BoardStatus,
    /// Since when the board has read wrong (an illegal status), told or not yet.
    illegal_since: Option<Millis>,
    /// Within a read of several readings: decide, but tell only what holds at its end.
    quiet: bool,
    /// Squares the rest of the read being fed lifts: a poll lists a slid piece's place on
    /// the square beside before the lift from its own.
    lifted_later_in_the_read: Bitboard,
    /// Within a read decided once, on where the pieces are at its end: readings before
    /// the last are only recorded.
    recording_only: bool,
    /// What the stories decided since the current read began cost.
    spent: u32,
    /// The legal moves of positions the searches walked.
    move_cache: move_cache::MoveCache,
    reported_moves: Vec<Move>,
    reported_ambiguity: Option<(usize, Vec<Move>)>,
    now: Stamp,
    /// When the board last matched the position: touches before it are over.
    settled_at: Stamp,
    /// The squares a piece the line could not see was last read moving onto, at that
    /// reading alone, when, and the lines before it; kept while noise may last.
    /// Forgotten when the game is changed by hand (undo, redo, a correction, a setup, a
    /// new game).
    before_a_flicker: Option<(Bitboard, Stamp, Vec<Line>)>,
    /// The same for squares with a piece unseen that read it at a reading, with what the
    /// sensors read then.
    before_a_glimpse: Option<(Bitboard, Stamp, Bitboard, Vec<Line>)>,
    events: Vec<Event>,
    /// What this reading the other way round told while its first two plies, told at
    /// once, waited to be proven: given out if it is taken.
    held_events: Vec<Event>,
    /// Readings come from a board turned round: their squares are turned before use.
    turned: bool,
    /// While the orientation is unknown, the same readings read the other way round;
    /// whichever first sees a move is right.
    rival: Option<Box<Recognizer>>,
    /// Moves taken back by `undo`, the last one last: `redo` plays them again.
    redo: Vec<Move>,
    /// The move ply `.0` (0-based) must be: the engine's, which the player makes for it.
    expected: Option<(usize, Move)>,
    /// A move the expected one ruled out in the last search, to tell as a wrong move.
    refused: std::cell::Cell<Option<Move>>,
    /// The wrong move last told, so it is told once.
    reported_wrong: Option<Move>,
    /// The reading after which the board's stillness was last weighed.
    decided_still_at: Option<Stamp>,
    /// A piece of the side to move lifted alone and then still for a second (on a board
    /// with events, or one that could have taken nothing), with the position it was lifted
    /// in: let go, perhaps off-centre.
    released: Option<(Square, Stamp)>,
    /// On a board with events, squares the last occupancy frame read changed with no event
    /// to say so: believed only if the next frame reads them so too.
    unannounced: Bitboard,
    /// When that frame was read.
    unannounced_at: Millis,
}

impl Recognizer {
    /// A recognizer waiting for the board to show the start position.
    pub fn new(config: Config) -> Self {
        match config.orientation {
            BoardOrientation::Auto => {
                let mut recognizer = Self::oriented(config.clone(), false);
                recognizer.rival = Some(Box::new(Self::oriented(config, true)));
                recognizer
            }
            BoardOrientation::Normal => Self::oriented(config, false),
            BoardOrientation::Turned => Self::oriented(config, true),
        }
    }

    fn oriented(config: Config, turned: bool) -> Self {
        let start = config.start.clone().unwrap_or_default();
        let mut evidence = Evidence::new(config.min_vacancy_ms);
        let now = evidence.stamp(0);
        Self {
            awaiting: Some(start.clone()),
            lines: vec![Line::new(start, now)],
            config,
            finished: Vec::new(),
            sensed: Bitboard::EMPTY,
            steady: Bitboard::FULL,
            reported_dead: Bitboard::EMPTY,
            blamed_dead: None,
            reported_unseen: Vec::new(),
            wild_at: None,
            evidence,
            pending_promotion: None,
            read_status: BoardStatus::Settled,
            status: BoardStatus::Settled,
            illegal_since: None,
            quiet: false,
            lifted_later_in_the_read: Bitboard::EMPTY,
            recording_only: false,
            spent: 0,
            move_cache: move_cache::MoveCache::default(),
            reported_moves: Vec::new(),
            reported_ambiguity: None,
            now,
            settled_at: now,
            before_a_flicker: None,
            before_a_glimpse: None,
            events: Vec::new(),
            held_events: Vec::new(),
            turned,
            rival: None,
            redo: Vec::new(),
            expected: None,
            refused: std::cell::Cell::new(None),
            reported_wrong: None,
            decided_still_at: None,
            released: None,
            unannounced: Bitboard::EMPTY,
            unannounced_at: 0,
        }
    }

    /// Feeds one reading; returns what it decided.
    pub fn feed(&mut self, reading: TimedReading) -> Vec<Event> {
        self.feed_batch(std::slice::from_ref(&reading))
    }

    /// Feeds the readings of one read of the board (a poll's lift/place events and its
    /// occupancy), deciding once, on where the pieces are at its end: the events of a poll
    /// are the way there, as a slid piece's squares are. Returns what it decided.
    pub fn feed_batch(&mut self, batch: &[TimedReading]) -> Vec<Event> {
        let (Some(first), Some(last)) = (batch.first(), batch.last()) else {
            return Vec::new();
        };
        // What the board's stillness before this read decided, at the time it did.
        let mut events = self.tick(first.t);
        events.extend(self.feed_oriented(batch));
        let Some(mut rival) = self.rival.take() else {
            return events;
        };
        let rival_events = rival.feed_oriented(batch);
        self.settle_orientation(rival, events, rival_events, last.t)
    }

    /// Whether a move of the session has been recognised.
    fn has_moved(&self) -> bool {
        !self.finished.is_empty() || (self.awaiting.is_none() && self.lines[0].ply_count() > 0)
    }

    /// Whether the board was found (or set) to be turned round.
    pub fn is_turned(&self) -> bool {
        self.turned
    }

    fn feed_oriented(&mut self, batch: &[TimedReading]) -> Vec<Event> {
        // A poll lists a slid piece's arrival on its next square before its departure
        // when the piece straddled both: decided in that order, the board between the two
        // may read as something else (a piece nobody sees leaving its square), and stick.
        let first_place = batch
            .iter()
            .position(|r| matches!(r.reading, Reading::Place(_)));
        let lift_after_a_place = first_place.is_some_and(|first| {
            batch[first..]
                .iter()
                .any(|r| matches!(r.reading, Reading::Lift(_)))
        });
        let before = lift_after_a_place.then(|| self.clone());
        self.feed_in_turn(batch, false);
        if let Some(mut once) = before
            && self.read_status != BoardStatus::Settled
        {
            // A move and its reply both made within one poll are no hands' work: a slid
            // piece's passing square read as a move, the victim it slides on to lifted
            // as the reply. The read's end then needs only tell a cheaper story.
            let answered_within_the_read =
                self.lines[0].ply_count() >= once.lines[0].ply_count() + 2;
            // What the read shows at its end, decided once with all its events heard, if
            // that settles the board on a cheaper story.
            once.feed_in_turn(batch, true);
            let once_will_do = match once.read_status {
                BoardStatus::Settled => true,
                BoardStatus::Waiting { .. } => answered_within_the_read,
                BoardStatus::Illegal { .. } => false,
            };
            if once_will_do && once.story_cost() < self.story_cost() {
                *self = once;
            }
        }
        std::mem::take(&mut self.events)
    }

    /// Reads each reading of one read in turn (the order of the hands is evidence), telling
    /// only what holds at its end; with `recording_only`, decides only at its end.
    fn feed_in_turn(&mut self, batch: &[TimedReading], recording_only: bool) {
        self.spent = 0;
        for (index, timed) in batch.iter().enumerate() {
            self.quiet = index + 1 < batch.len();
            self.lifted_later_in_the_read = batch[index + 1..]
                .iter()
                .filter_map(|r| match r.reading {
                    Reading::Lift(square) => Some(square),
                    _ => None,
                })
                .collect();
            self.recording_only = recording_only;
            self.read(*timed);
        }
        self.recording_only = false;
        self.lifted_later_in_the_read = Bitboard::EMPTY;
        if let Some(last) = batch.last()
            && recording_only
        {
            let stamp = self.evidence.stamp(last.t);
            self.step(stamp);
        }
        if batch.len() > 1 {
            self.report_moves();
            self.tell_status();
        }
    }

    /// An occupancy frame, believed.
    fn read_occupancy(&mut self, occupancy: Bitboard, t: Millis) {
        let first = self.now.seq == 1;
        let changed = occupancy ^ self.sensed;
        // A square with a piece unseen that reads it may be noise there: the lines as they
        // were are kept aside, to be returned to if it alone empties again sooner than noise
        // lasts (a piece lifted from there reads so too, but something else changes).
        let unseen = self
            .lines
            .iter()
            .fold(Bitboard::EMPTY, |all, line| all | line.unseen);
        let glimpsed = changed & occupancy & unseen;
        let before_the_glimpse = (!first && glimpsed.any() && !self.evidence.is_event_board())
            .then(|| self.lines.clone());
        if !first {
            self.saw_change(changed, occupancy);
        }
        if !changed.is_empty() || first {
            let stamp = self.evidence.stamp(t);
            if !first && changed.count() > WILD_CHANGE {
                self.wild_at = Some(stamp);
            }
            for square in changed {
                if occupancy.contains(square) {
                    self.evidence.arrived(stamp, square, false);
                } else {
                    self.evidence.left(stamp, square);
                }
            }
            self.sensed = occupancy;
            self.step(stamp);
            self.before_a_glimpse =
                before_the_glimpse.map(|lines| (glimpsed, stamp, occupancy, lines));
        }
    }

    /// Squares a frame read changed with no event, which no frame has contradicted for two
    /// polls, are believed (a board that sends a frame without its event).
    fn believe_unannounced(&mut self, t: Millis) {
        let hold = 2 * self.evidence.poll_skew().max(STRADDLE_MS);
        if self.unannounced.is_empty() || t <= self.unannounced_at.saturating_add(hold) {
            return;
        }
        let occupancy = self.sensed ^ self.unannounced;
        self.unannounced = Bitboard::EMPTY;
        self.read_occupancy(occupancy, self.unannounced_at.saturating_add(hold));
    }

    fn read(&mut self, timed: TimedReading) {
        self.refused.set(None);
        let t = timed.t;
        let reading = if self.turned {
            turn_round(timed.reading)
        } else {
            timed.reading
        };
        match reading {
            Reading::Occupancy(occupancy) => {
                let first = self.now.seq == 1;
                // On a board with events every piece lifted or set down says so: a square a
                // frame reads changed with no event is a frame read wrong (line noise) until
                // the next frame reads it so too, or none contradicts it for two polls.
                if self.evidence.is_event_board() && !first {
                    let unannounced = occupancy ^ self.sensed;
                    let confirmed = unannounced & self.unannounced;
                    self.unannounced = unannounced & !confirmed;
                    self.unannounced_at = t;
                    self.read_occupancy(self.sensed ^ confirmed, t);
                } else {
                    self.read_occupancy(occupancy, t);
                }
            }
            Reading::Lift(square) => {
                self.evidence.mark_event_board(t);
                let stamp = self.evidence.stamp(t);
                self.evidence.left(stamp, square);
                self.unannounced.discard(square);
                self.saw_change(Bitboard::from_square(square), self.sensed.without(square));
                self.sensed.discard(square);
                self.step(stamp);
            }
            Reading::Place(square) => {
                self.evidence.mark_event_board(t);
                let stamp = self.evidence.stamp(t);
                self.evidence.arrived(stamp, square, true);
                self.unannounced.discard(square);
                self.placed_on_an_unseen_piece(square);
                self.saw_change(Bitboard::from_square(square), self.sensed.with(square));
                self.sensed.add(square);
                self.step(stamp);
            }
            Reading::Promote(role) => self.promote(role, t),
        }
    }

    /// Time has passed without a reading (a board that says nothing while no piece moves):
    /// once the board has been still for `still_ms` with one piece in the hand, lifted since
    /// the last move, that piece has made its capture: the only one, or the likeliest of
    /// several, the others kept (not on a board with events, which shows a capture on its
    /// victim's square). Decided at the time the stillness began plus `still_ms`; a later
    /// reading still revises it. Call
    /// it while idle; `feed` calls it first by itself.
    pub fn tick(&mut self, t: Millis) -> Vec<Event> {
        let events = self.tick_oriented(t);
        // Before the first move both ways round are read: a still board decides for each.
        let Some(mut rival) = self.rival.take() else {
            return events;
        };
        let rival_events = rival.tick_oriented(t);
        self.settle_orientation(rival, events, rival_events, t)
    }

    /// Keeps this reading, or the rival one (turned the other way) once only that one has
    /// seen a move.
    fn settle_orientation(
        &mut self,
        mut rival: Box<Recognizer>,
        events: Vec<Event>,
        rival_events: Vec<Event>,
        t: Millis,
    ) -> Vec<Event> {
        if self.has_moved() {
            return events;
        }
        // A move the other way round proves the orientation. With a dead sensor under the
        // start position both ways see it, and only the right way round reads White's first
        // move as one ply: the wrong way needs a hidden move before it.
        if !rival.has_moved() {
            self.rival = Some(rival);
            return events;
        }
        // Nor does it tell both players' first moves at once: this way round a piece set
        // down beside its square to be nudged on, or a square's noise, reads so for a moment.
        // Taken once it tells a third ply, or the board has stood still a second.
        let first = &rival.lines[0];
        let told_at_once = first.ply_count() == 2 && first.plies_open() == 2;
        if told_at_once && t < rival.now.t.saturating_add(rival.config.still_ms) {
            rival.held_events.extend(rival_events);
            self.rival = Some(rival);
            return events;
        }
        *self = *rival;
        let mut events = vec![Event {
            t,
            kind: EventKind::Orientation {
                turned: self.turned,
            },
        }];
        events.append(&mut self.held_events);
        events.extend(rival_events);
        events
    }

    fn tick_oriented(&mut self, t: Millis) -> Vec<Event> {
        self.believe_unannounced(t);
        self.tell_lasting_alarm(t);
        let mut events = std::mem::take(&mut self.events);
        events.extend(self.tick_still(t));
        events
    }

    /// The board still for `still_ms`: what its stillness decides.
    fn tick_still(&mut self, t: Millis) -> Vec<Event> {
        let still_since = self.now.t;
        let waiting = matches!(self.read_status, BoardStatus::Waiting { .. });
        let illegal = matches!(self.read_status, BoardStatus::Illegal { .. });
        if !(waiting || illegal)
            || self.awaiting.is_some()
            || self.decided_still_at == Some(self.now)
            || t < still_since.saturating_add(self.config.still_ms)
        {
            return Vec::new();
        }
        self.decided_still_at = Some(self.now);
        if illegal {
            // A piece that has read for a while where the line has none may be one set down
            // unseen long ago, now straightened; or the moves read since a position a few
            // plies back were a hand passing, and the board, still now, shows another; or
            // the game went on over several pieces set down unseen.
            let stamp = self
                .evidence
                .stamp(still_since.saturating_add(self.config.still_ms));
            self.decide_a_still_board_nothing_explains(stamp);
            return std::mem::take(&mut self.events);
        }
        let lifted = self.view().missing(self.expected_occupancy());
        let placed = self.view().extra(self.expected_occupancy());
        // A piece that stays where it was set down, nothing lifted, as the last move's hand
        // goes on, is no sensor ghost: the last move is corrected onto it (a pawn landing
        // beside a piece knocked over and set back, read as a capture of that piece). Not
        // with a dead sensor, which may hide a lift; nor long after the last move, when
        // the other player's hand may have lifted a piece unseen.
        // A piece beside the last move's squares, knocked over by its hand, may take a
        // little longer to be set back.
        let moved_at = self.lines[0].current().since.t;
        let beside_the_move = self.lines[0]
            .current()
            .last_move
            .map_or(Bitboard::EMPTY, |m| search::beside(touched_squares(m)));
        let placed_soon = placed.into_iter().all(|square| {
            let within = if beside_the_move.contains(square) {
                5 * self.config.still_ms / 2
            } else {
                self.config.still_ms
            };
            self.evidence
                .last_arrival(square, self.lines[0].current().since)
                .is_some_and(|arrival| arrival.t <= moved_at + within)
        });
        if lifted.is_empty() && !placed.is_empty() && placed_soon && self.dead().is_empty() {
            let found = self.explanations(false);
            let stamp = self
                .evidence
                .stamp(still_since.saturating_add(self.config.still_ms));
            if found
                .first()
                .is_some_and(|(_, e)| e.cost > 0 && e.cost <= PLY + search::REVISION_COST)
            {
                self.now = stamp;
                self.advance(found, stamp);
                self.decided_still_at = Some(self.now);
            } else {
                // A piece knocked over by a slide, read as moves of its own, set back; or
                // one set down unseen, straightened soon after the next move (one piece:
                // a board being set up straightens nothing).
                let _ = self.decide_when_still(stamp, Self::reread_recent_moves)
                    || (placed.count() == 1
                        && self.decide_when_still(stamp, Self::repair_with_unseen_landing));
            }
            return std::mem::take(&mut self.events);
        }
        let stamp = self
            .evidence
            .stamp(still_since.saturating_add(self.config.still_ms));
        // Read as a piece slid over the square beside its own, which no slide holds for a
        // second: a story dearer than that, and cheaper than any move still under way, is
        // what happened (3... Ne2 set down on f3 and nudged onto e2 in one poll, read as the
        // queen on d1 sliding over e2 to take on f3, is the last move revised onto e2:
        // `tests/logs/nudge-beside-a-slider.log`).
        if self.decide_when_still(stamp, Self::story_over_a_still_straddle)
            || self.decide_when_still(stamp, Self::story_over_a_piece_held_through_the_reply)
        {
            return std::mem::take(&mut self.events);
        }
        // A capture guessed from a still board, and the other player's piece set down where
        // the capture forbids, still a second: the guess was the piece set down unseen on a
        // quiet square (30... Rb1 off-centre guessed as 30... Rxg2+, then 31. Kh2).
        if !placed.is_empty()
            && self.lines[0].current().was_guessed
            && self.decide_when_still(stamp, Self::repair_the_last_guess)
        {
            return std::mem::take(&mut self.events);
        }
        // So with a capture guessed a few plies back, or a piece the line has unseen, and a
        // move it forbids (a pawn pinned by the capturer the guess put there).
        if !placed.is_empty()
            && !lifted.is_empty()
            && self.decide_when_still(stamp, Self::repair_what_the_board_forbids)
        {
            return std::mem::take(&mut self.events);
        }
        // A piece that appeared long after the last move, and stays: one set down unseen
        // earlier, now straightened (a knight taken for a capture it never made). If a piece
        // left a square the line has empty, the repair must put it there: one unseen there
        // moved on (a knight guessed as Nxe4, set down on b3 and read on to d4). Not where
        // the piece may have left a square whose sensor is stuck occupied, one ply, cheaper
        // than rewriting an older move; unless a piece left a square the line has empty, or a
        // capture guessed from a still board could have put its piece there instead.
        let left_unknown = self.left_where_the_line_has_none();
        let moved_off_a_dead_sensor = || {
            lifted.is_empty()
                && left_unknown.is_empty()
                && !self.a_guess_could_have_landed_on(placed)
                && !self.dead_sensor_stories(false).is_empty()
        };
        if !placed.is_empty()
            && !placed_soon
            && !moved_off_a_dead_sensor()
            && self.decide_when_still(stamp, Self::repair_accounting_for_departures)
        {
            return std::mem::take(&mut self.events);
        }
        // A piece that appeared, nothing lifted, and stays: it may have left a square whose
        // sensor is stuck occupied (or be one set down unseen that moved on).
        if lifted.is_empty()
            && !placed.is_empty()
            && self.decide_when_still(stamp, Self::explain_with_dead_sensor_or_unseen_piece)
        {
            return std::mem::take(&mut self.events);
        }
        if placed.is_empty() && self.decide_when_still(stamp, Self::slid_on_unseen) {
            return std::mem::take(&mut self.events);
        }
        // The last move's piece gone from where it was read landing, a piece where the line
        // has none, still a second: the moves read since a position two or three plies back
        // may have been a slide passing (31. Rxd8+ slid up the file from d3, read as 31. Rd6
        // and, its victim lifted as the rook passed d7, 31... Rd7). (Not with nothing
        // placed: the piece may have been knocked over.)
        let last_landing = self.lines[0]
            .current()
            .last_move
            .map_or(Bitboard::EMPTY, |m| moves::footprint(m).landing());
        if (lifted & last_landing).any()
            && !placed.is_empty()
            && self.decide_when_still(stamp, Self::reread_recent_moves)
        {
            return std::mem::take(&mut self.events);
        }
        let found = self.explanations(true);
        let nothing_found = found.is_empty();
        // Not of a piece the line has unseen: its square never read it, so nothing there
        // tells its capture from the capturer still in the hand.
        let made_its_capture = |line: &Line, e: &Explanation| {
            e.undo == 0
                && matches!(e.moves.as_slice(), [m] if m.is_capture()
                    && !line.unseen.contains(m.to())
                    && m.from().is_some_and(|from| lifted == Bitboard::from_square(from)))
        };
        // Only a piece lifted once the last move was made is this move's: one lifted before
        // (a victim whose capturer was set down beside it, to be nudged on) is not.
        let since = self.lines[0].current().since;
        let lifted_for_this_move = lifted
            .single_square()
            .is_some_and(|square| self.evidence.last_departure(square, since).is_some());
        // A piece lifted and held still where it could have come down on a sensor known to
        // be stuck empty came down there: a dead sensor hides every landing. So is one whose
        // square never read a piece the line had standing there.
        if placed.is_empty() && lifted_for_this_move {
            let line = &self.lines[0];
            let held_unread = if self.evidence.is_event_board() {
                Bitboard::EMPTY
            } else {
                self.held_unread(line)
            };
            let quiet_landings = self.quiet_landings_unread(line, lifted);
            let onto = |squares: Bitboard| -> Vec<Move> {
                quiet_landings
                    .iter()
                    .copied()
                    .filter(|m| squares.contains(m.to()))
                    .collect()
            };
            let mut guesses = onto(line.dead);
            // A square that only hid a piece once is no sensor known dead: the piece may
            // have come down unseen on any other square of its reach, kept behind, the
            // likeliest first (a rook guessed on h5 was on a5, read as it is straightened
            // before it moves on).
            if guesses.is_empty() && !onto(held_unread).is_empty() {
                guesses = onto(held_unread);
                let current = line.current();
                let mut elsewhere = onto(!held_unread & !line.blind());
                elsewhere.sort_by_key(|&m| {
                    std::cmp::Reverse(plausibility::plausibility(
                        &current.position,
                        m,
                        current.last_move,
                    ))
                });
                guesses.extend(elsewhere);
            }
            let guessed_unread = !guesses.is_empty() && line.dead.is_empty();
            let mut onto_dead: Vec<(usize, Explanation)> = guesses
                .into_iter()
                .map(|m| {
                    let story = Explanation {
                        moves: vec![m],
                        cost: PLY,
                        newly_unseen: Bitboard::from_square(m.to()) & !line.dead,
                        ..Explanation::default()
                    };
                    (0, story)
                })
                .collect();
            // Without events a capture faster than a scan shows only the capturer's lift
            // too: each stays behind every quiet guess, for the piece moving on from its
            // victim's square to tell (82... Qxh3 read as Qd6, then 86... Qxg3 from h3).
            if guessed_unread && !self.evidence.is_event_board() {
                let captures = found.iter().filter(|(i, e)| {
                    *i == 0 && made_its_capture(&self.lines[0], e) && e.unproven > 0
                });
                onto_dead.extend(captures.map(|(_, e)| {
                    let story = Explanation {
                        doubt: CAPTURE_BEHIND_AN_UNSEEN_GUESS,
                        ..e.clone()
                    };
                    (0, story)
                }));
            }
            if !onto_dead.is_empty() {
                // Only a guess: the piece may still be in the hand.
                self.advance_on_a_guess(onto_dead, stamp, false);
                return std::mem::take(&mut self.events);
            }
        }
        // With several captures, the likeliest is shown (and the others kept, for a later
        // move to choose). A board with events tells a capture by events on its victim's
        // square however fast the hand: without one, the piece is held, or was set down
        // unseen.
        if placed.is_empty()
            && lifted_for_this_move
            && !self.evidence.is_event_board()
            && !found.is_empty()
            && found
                .iter()
                .all(|(i, e)| made_its_capture(&self.lines[*i], e))
        {
            // The piece may as well have been set down off-centre on a quiet square (a pawn
            // the likeliest, a small piece): those landings stay behind the captures, for the
            // game to tell (the piece straightened there, or the victim moving on).
            // (On the likeliest line, and each line a capture was found on.)
            let mut capturing: Vec<usize> = found.iter().map(|(i, _)| *i).collect();
            capturing.push(0);
            capturing.sort_unstable();
            capturing.dedup();
            let set_down_unseen: Vec<(usize, Explanation)> = capturing
                .into_iter()
                .flat_map(|i| {
                    let line = &self.lines[i];
                    self.quiet_landings_unread(line, lifted)
                        .into_iter()
                        .filter(|m| !line.blind().contains(m.to()))
                        .map(move |m| {
                            // Less likely than the capture, and kept so while the game shows
                            // nothing else.
                            let story = Explanation {
                                moves: vec![m],
                                cost: PLY,
                                newly_unseen: Bitboard::from_square(m.to()),
                                doubt: UNSEEN_BEHIND_A_CAPTURE,
                                ..Explanation::default()
                            };
                            (i, story)
                        })
                })
                .collect();
            let mut guesses = found;
            guesses.extend(set_down_unseen);
            self.advance_on_a_guess(guesses, stamp, true);
        }
        // A board with events shows a capture on its victim's square: a piece lifted and
        // held still, nothing else touched, is held, or was let go off-centre (on a board
        // polled often enough that a still second means something). Which one, the other
        // player's move tells (`released_stories`). A piece only touched and set back on its
        // square (a pawn straightened just before the bishop beside it was lifted) is no
        // other piece in the hand, and no victim. Without events, so is a piece that
        // could have taken nothing, on a single line sure of every piece (one with a piece
        // unseen, or a line behind, may have the board otherwise).
        let current = self.lines[0].current();
        let touched_elsewhere =
            self.evidence.departed_since(current.since) & !lifted & !self.sensed;
        if placed.is_empty()
            && lifted_for_this_move
            && touched_elsewhere.is_empty()
            && (self.evidence.is_event_board()
                || (nothing_found && self.lines.len() == 1 && self.lines[0].blind().is_empty()))
            && self.evidence.poll_skew() <= self.config.still_ms / 4
        {
            self.released = lifted
                .single_square()
                .filter(|&square| current.position.us().contains(square))
                .map(|square| (square, current.since));
        }
        std::mem::take(&mut self.events)
    }

    /// The board, still for a second, was waited on as a piece straddling its square and
    /// the next on its way: no slide stands still, so a sound story of it (every capture
    /// proven, in the order the hands played, no sensor blamed) that only that reading
    /// beat, and that beats every move still under way, is taken. True if it decided.
    fn story_over_a_still_straddle(&mut self, stamp: Stamp) -> bool {
        let waiting = |still: bool| {
            self.lines
                .iter()
                .filter_map(|line| {
                    search::in_progress_cost_when(
                        line,
                        self.view(),
                        &self.evidence,
                        self.settled_at,
                        still,
                    )
                })
                .min()
        };
        let (Some(moving), standing) = (waiting(false), waiting(true)) else {
            return false;
        };
        if standing == Some(moving) {
            return false;
        }
        let found = self.explanations(false);
        let Some(cost) = found.first().map(|(_, e)| e.cost) else {
            return false;
        };
        let sound = found
            .iter()
            .all(|(_, e)| e.unproven == 0 && e.out_of_order == 0);
        if !sound || cost == 0 || cost < moving || standing.is_some_and(|w| w <= cost) {
            return false;
        }
        self.advance(found, stamp);
        true
    }

    /// Read as both players' hands at once, still a second: the last move's piece, read
    /// on its square for a scan or two (passing over it), gone since before the other player's
    /// piece came down. No player holds a piece while the other moves: a story that tells
    /// the board whole with the last move revised is what happened (26... Nxc5 faster than
    /// a scan, read a moment on e5 as the hand passed it, then 27. Bg5). True if it decided.
    fn story_over_a_piece_held_through_the_reply(&mut self, stamp: Stamp) -> bool {
        let current = self.lines[0].current();
        let view = self.view();
        let held = view.missing(current.occupancy) & current.position.them();
        let set_down = view.extra(current.occupancy);
        let since = current.since;
        // (A polled board reads a piece a poll at the least: a hand may have lifted it.)
        let passed_over = |square: Square| {
            let arrived = self.evidence.last_arrival(square, Stamp::default())?;
            let left = self.evidence.last_departure(square, since)?;
            (left.t.saturating_sub(arrived.t) <= STRADDLE_MS).then_some(left)
        };
        let Some(lifted) = (held.count() == 1)
            .then(|| held.first().and_then(passed_over))
            .flatten()
        else {
            return false;
        };
        let replied_since = set_down.into_iter().any(|square| {
            self.evidence
                .last_arrival(square, since)
                .is_some_and(|landed| landed > lifted)
        });
        let two_hands = self
            .lines
            .iter()
            .filter_map(|line| in_progress_cost(line, view, &self.evidence, self.settled_at))
            .min()
            .is_some_and(|waiting| waiting >= IN_PROGRESS + SECOND_HAND);
        if !replied_since || !two_hands {
            return false;
        }
        let mut found = self.explanations(false);
        let revised = !found.is_empty() && found.iter().all(|(_, e)| e.undo == 1 && e.cost > 0);
        if revised {
            // A capture no sensor saw may as well have been the piece set down unseen
            // elsewhere (39... Qc6 off-centre, no Qxe3): those stay beside it.
            if let Some(rival) = found.first().map(|(_, e)| e.cost)
                && found.iter().all(|(_, e)| e.unproven > 0)
            {
                found.extend(self.unseen_stories_as_cheap_as(rival));
            }
            self.advance(found, stamp);
        }
        revised
    }

    /// Stories of a piece set down unseen no dearer than `rival`, each let go before the
    /// next move's piece left. (None can be as cheap as a lone capture no sensor saw: then
    /// none is searched.)
    fn unseen_stories_as_cheap_as(&self, rival: u32) -> Vec<(usize, Explanation)> {
        if rival < CHEAPEST_UNSEEN_STORY {
            return Vec::new();
        }
        let mut stories = self.unseen_piece_stories(None);
        stories.retain(|(i, e)| e.cost <= rival && self.let_go_before_the_next(*i, e));
        stories
    }

    /// A capture guessed from a still board is settled by a later proof of one of the
    /// piece's captures (the hand taking a victim off and setting the capturer down
    /// there): the lines with the proven capture come first, no longer a guess. The others
    /// stay behind them: a player straightening the piece on one victim's square looks the
    /// same, and only a later move tells.
    fn settle_guessed_capture(&mut self) {
        // The guess is the last ply, or the one before the reply (the capturer straightened
        // on its square while the other player moved).
        let first = &self.lines[0];
        let n = first.ply_count();
        let Some(ply) = (n.saturating_sub(1)..=n)
            .rev()
            .find(|&k| k > 0 && first.nodes[k].guessed)
        else {
            return;
        };
        let proven_capture = |line: &Line| {
            let node = line.nodes.get(ply)?;
            let from = node
                .last_move
                .filter(|m| node.guessed && m.is_capture())
                .and_then(|m| m.from())?;
            let previous = &line.nodes[ply - 1];
            previous
                .legal_moves()
                .iter()
                .filter(|(m, _)| m.is_capture() && m.from() == Some(from))
                .filter_map(|&(m, _)| {
                    let way = moves::slide_way(m);
                    let proof = self.evidence.capture_proof(
                        from,
                        m.to(),
                        way.passed | way.brushed,
                        previous.since,
                    )?;
                    Some((proof, m))
                })
                .max_by_key(|(proof, _)| *proof)
                .map(|(_, m)| m)
        };
        let Some(proven) = self.lines.iter().find_map(proven_capture) else {
            return;
        };
        let made_it =
            |line: &Line| line.nodes.get(ply).and_then(|node| node.last_move) == Some(proven);
        let (mut settled, mut open): (Vec<Line>, Vec<Line>) = std::mem::take(&mut self.lines)
            .into_iter()
            .partition(made_it);
        if settled.is_empty() {
            if ply < n {
                self.lines = open;
                return;
            }
            // The proven capture was no line of its own: the likeliest line becomes it. But
            // a guess that landed where the line cannot see can never be proven so: it stays
            // first, the proven capture beside it, for later moves to tell; neither is a
            // guess to settle again.
            let guess_unprovable = open[0].nodes[ply]
                .last_move
                .is_some_and(|m| !(moves::footprint(m).landing() & open[0].blind()).is_empty());
            if guess_unprovable {
                let mut beside = open[0].clone();
                beside.apply(1, &[proven], self.now);
                open.insert(1, beside);
                for line in &mut open {
                    if let Some(node) = line.nodes.get_mut(ply) {
                        node.guessed = false;
                    }
                }
                self.lines = open;
                self.dedupe_lines();
                self.lines.truncate(MAX_LINES);
                self.report_moves();
                return;
            }
            let mut line = open.remove(0);
            line.apply(1, &[proven], self.now);
            settled.push(line);
        }
        for line in &mut settled {
            line.nodes[ply].guessed = false;
        }
        settled.append(&mut open);
        self.lines = settled;
        self.dedupe_lines();
        self.report_moves();
    }

    /// Of the lines `found` to read the board with no move, the first behind the first line
    /// whose every working sensor reads as it has the board, unseen pieces too, goes first.
    fn promote_line_reading_the_board(&mut self, found: &[(usize, Explanation)]) -> bool {
        let sensed = self.sensed;
        let Some(behind) = found.iter().find_map(|(i, e)| {
            let line = &self.lines[*i];
            let reads = ((line.current().occupancy ^ sensed) & !line.dead).is_empty();
            (*i > 0 && e.cost == 0 && reads).then_some(*i)
        }) else {
            return false;
        };
        let line = self.lines.remove(behind);
        self.lines.insert(0, line);
        true
    }

    /// The game changed by hand (undo, redo, a correction, a setup, a new game): the lines
    /// kept aside for a flicker or a glimpse to undo are no longer its.
    fn forget_what_noise_may_undo(&mut self) {
        self.before_a_flicker = None;
        self.before_a_glimpse = None;
    }

    /// What a board nothing explains decides once it has stood still: true if a story was
    /// taken.
    fn decide_a_still_board_nothing_explains(&mut self, stamp: Stamp) -> bool {
        self.decide_when_still(stamp, Self::repair_with_unseen_landing)
            || self.decide_when_still(stamp, Self::reread_recent_moves)
            || self.decide_when_still(stamp, Self::advance_on_a_hidden_move)
            || self.decide_when_still(stamp, Self::catch_up_with_unseen_landings)
            || self.decide_when_still(stamp, Self::moved_from_a_square_refilled)
            || self.decide_when_still(stamp, Self::catch_up_from_further_back)
    }

    /// Tries `decide` at `stamp`, the time the board's stillness decides: its events carry
    /// that time. True if it decided.
    fn decide_when_still(&mut self, stamp: Stamp, decide: fn(&mut Self, Stamp) -> bool) -> bool {
        let before = self.now;
        self.now = stamp;
        if decide(self, stamp) {
            self.decided_still_at = Some(stamp);
            true
        } else {
            self.now = before;
            false
        }
    }

    /// Ends the session: a piece still in the air over a capture is taken as that capture,
    /// and an open ambiguity is settled on the most likely line.
    pub fn finish(&mut self, t: Millis) -> Vec<Event> {
        self.believe_unannounced(Millis::MAX);
        // No move was seen: nothing tells the orientation, and the board stands as wired.
        self.rival = None;
        // A piece that appeared with nothing lifted (one set down unseen, straightened as the
        // session ends) is read as a second of stillness would read it live.
        let waiting_on_a_piece_set_down = matches!(
            &self.read_status,
            BoardStatus::Waiting { lifted, placed } if lifted.is_empty() && !placed.is_empty()
        );
        if matches!(self.read_status, BoardStatus::Illegal { .. }) || waiting_on_a_piece_set_down {
            // The board stands as it is from the end on: what its stillness decides live.
            let still = t.max(self.now.t.saturating_add(self.config.still_ms));
            let decided = self.tick(still);
            self.events = decided;
        }
        if self.awaiting.is_none() && !self.view().matches(self.expected_occupancy()) {
            // Decided at the end: its events carry the end's time.
            let stamp = self.evidence.stamp(t);
            self.now = stamp;
            let found = match self.capture_of_the_lifted_victim() {
                Some(capture) => vec![(0, capture)],
                None => self.explanations(true),
            };
            // A line behind reads the board as it stands (a piece it had unseen, straightened
            // in the last reading), the first only with a move: no later move can tell them.
            if self.promote_line_reading_the_board(&found) {
                // Told below, the lines behind gone.
            } else if !found.is_empty() && found[0].1.cost > 0 {
                self.advance(found, stamp);
            } else if let Some(only) = self.only_move_of_the_piece_in_the_air() {
                self.advance(vec![(0, only)], stamp);
            } else if self.decide_a_still_board_nothing_explains(stamp) {
                // As a still board nothing explains decides live (a move from a square the
                // next one landed on; a piece set down unseen, straightened at the end).
            } else if self.view().extra(self.expected_occupancy()).is_empty() {
                // Pieces gone and none placed: they may have come down where a sensor is
                // dead, the last of them too.
                let dead = self.dead_sensor_stories(true);
                self.advance_cheapest(dead, stamp);
            }
        } else if let Some(behind) = self.line_one_move_on_reading_the_board() {
            // Nothing later can tell a touch from that move now, and a game ends on a move.
            let line = self.lines.remove(behind);
            self.lines.insert(0, line);
        }
        self.lines.truncate(1);
        self.now.t = t;
        self.report_moves();
        std::mem::take(&mut self.events)
    }

    /// At the end of a session on a board as the likeliest line has it: a line behind
    /// that is the same game and one move more, which the board reads as well, its landing
    /// touched since (a capture from a dead square shows its victim lifted and set back).
    fn line_one_move_on_reading_the_board(&self) -> Option<usize> {
        let first = &self.lines[0];
        let n = first.ply_count();
        let touched = self.evidence.disturbed_since(first.current().since);
        (1..self.lines.len()).find(|&i| {
            let line = &self.lines[i];
            let reads = ((line.current().occupancy ^ self.sensed) & !line.blind()).is_empty();
            line.ply_count() == n + 1
                && line.shared_plies(first) == n
                && line
                    .current()
                    .last_move
                    .is_some_and(|m| touched.contains(m.to()))
                && reads
        })
    }

    /// At the end of a session, a piece of the side to move and one of the other side's
    /// both in the air, the first able to take the second where it stood: the capture was
    /// made, its piece set down off-centre (a queen sliding onto e6 after the pawn there
    /// was lifted). Told before any other story, which could only guess at captures no
    /// sensor saw.
    fn capture_of_the_lifted_victim(&self) -> Option<Explanation> {
        let current = self.lines[0].current();
        let view = self.view();
        let lifted = view.missing(current.occupancy);
        if lifted.count() != 2 || !view.extra(current.occupancy).is_empty() {
            return None;
        }
        let from = (lifted & current.position.us()).single_square()?;
        let victim = (lifted & current.position.them()).single_square()?;
        let capture = current
            .legal_moves()
            .iter()
            .map(|&(m, _)| m)
            .find(|m| m.from() == Some(from) && m.to() == victim && self.allows(*m))?;
        Some(Explanation {
            moves: vec![capture],
            cost: PLY,
            newly_unseen: Bitboard::from_square(victim),
            ..Explanation::default()
        })
    }

    /// At the end of a session, a piece of the side to move still in the air, with one
    /// move only and that no capture, was set down there, off-centre: the last move of a
    /// game is not lost to a piece its sensor did not see.
    fn only_move_of_the_piece_in_the_air(&self) -> Option<Explanation> {
        let current = self.lines[0].current();
        let view = self.view();
        let lifted = view.missing(current.occupancy);
        let from = (lifted & current.position.us()).single_square()?;
        if lifted.count() != 1 || !view.extra(current.occupancy).is_empty() {
            return None;
        }
        let mut moves = current
            .legal_moves()
            .iter()
            .map(|&(m, _)| m)
            .filter(|m| m.from() == Some(from));
        let only = moves.next().filter(|m| !m.is_capture())?;
        if moves.next().is_some() {
            return None;
        }
        Some(Explanation {
            moves: vec![only],
            cost: PLY,
            newly_unseen: Bitboard::from_square(only.to()),
            ..Explanation::default()
        })
    }

    // ----- queries -----

    /// The recognised position (or the one the board must be set up to).
    pub fn position(&self) -> &Chess {
        self.awaiting
            .as_ref()
            .unwrap_or(&self.lines[0].current().position)
    }

    /// The current game on the most likely line.
    pub fn game(&self) -> GameRecord {
        GameRecord {
            start: self.lines[0].start().clone(),
            moves: self.lines[0].moves(),
        }
    }

    /// Every game of the session, the current one last (if it has begun).
    pub fn games(&self) -> Vec<GameRecord> {
        let mut games: Vec<GameRecord> = self.finished.iter().map(|g| (**g).clone()).collect();
        if self.awaiting.is_none() {
            games.push(self.game());
        }
        games
    }

    /// Whether the board has shown the start position and a game is running.
    pub fn has_started(&self) -> bool {
        self.awaiting.is_none()
    }

    /// The occupancy the recognised position implies.
    pub fn expected_occupancy(&self) -> Bitboard {
        self.position().board().occupied()
    }

    /// What the board senses now (lift/place events applied).
    pub fn sensed(&self) -> Bitboard {
        self.sensed
    }

    /// Squares that should hold a piece but read empty.
    pub fn lifted(&self) -> Bitboard {
        self.expected_occupancy() & !self.sensed & !self.lines[0].blind()
    }

    /// Pieces the recognised position has where their sensor reads empty (set down
    /// off-centre), each with its square.
    pub fn unseen_pieces(&self) -> Vec<(Square, Piece)> {
        let position = self.position();
        self.lines[0]
            .unseen
            .into_iter()
            .filter_map(|square| Some((square, position.board().piece_at(square)?)))
            .collect()
    }

    /// Squares whose sensor is found dead (and told), each with whether it is stuck
    /// reading occupied.
    pub fn dead_sensors(&self) -> Vec<(Square, bool)> {
        (self.dead() & self.reported_dead)
            .into_iter()
            .map(|square| (square, self.sensed.contains(square)))
            .collect()
    }

    /// Squares the most likely line takes to have a dead sensor.
    fn dead(&self) -> Bitboard {
        self.lines[0].dead
    }

    /// The working sensors' view on the most likely line, to compare positions with.
    fn view(&self) -> Sensed {
        self.view_of(&self.lines[0])
    }

    /// The working sensors' view on `line`: where it has pieces unseen or sensors dead, the
    /// sensors are not believed.
    fn view_of(&self, line: &Line) -> Sensed {
        Sensed {
            occupancy: self.sensed,
            live: !line.blind(),
        }
    }

    /// A square that changed has a working sensor: a line that took it for dead with none of
    /// its pieces there read its moves wrongly, and gives way to the others; one whose own
    /// piece now reads there had it off-centre, and stands.
    fn saw_change(&mut self, changed: Bitboard, occupied_now: Bitboard) {
        self.steady &= !changed;
        // A line with a piece where it could not see one, which now reads there, is proven
        // by the board: it goes before lines that had nothing there.
        let shows = changed & occupied_now;
        // Pieces the line has where the sensors now read none: held in the hand.
        let in_hand = |line: &Line| line.current().occupancy & !occupied_now & !line.blind();
        let reads_its_blind_piece = |line: &Line| {
            !(line.blind() & shows & line.current().occupancy).is_empty()
                && in_hand(line).is_empty()
        };
        // With a piece in the hand, its own piece is read only where the hand's piece could
        // not have come down; and the first line gives way so only if none of its pieces,
        // in the hand or unseen (moving on with no lift), could have been carried there.
        let reads_beside_a_hand = |line: &Line| {
            let mine = line.blind() & shows & line.current().occupancy;
            !(mine & !carried_to(line, occupied_now, mine, false)).is_empty()
        };
        let proven: Option<&dyn Fn(&Line) -> bool> = if !reads_its_blind_piece(&self.lines[0])
            && self.lines.iter().any(reads_its_blind_piece)
        {
            Some(&reads_its_blind_piece)
        } else if !reads_beside_a_hand(&self.lines[0])
            && carried_to(&self.lines[0], occupied_now, shows, true).is_empty()
            && self.lines.iter().any(reads_beside_a_hand)
        {
            Some(&reads_beside_a_hand)
        } else {
            None
        };
        let reordered = proven.is_some();
        if let Some(proven) = proven {
            // Stable: among the proven, and among the rest, the order stays.
            self.lines.sort_by_key(|line| !proven(line));
        }
        for line in &mut self.lines {
            // An unseen piece's square that reads again is read as any other; not while a
            // piece in the hand could have come down there, taking it. Nor, as for a sensor
            // taken for dead, while a piece that cannot reach it is in the hand: the piece
            // straightened is lifted, perhaps, by the player whose move comes next.
            let taken = carried_to(
                line,
                occupied_now,
                changed & occupied_now & line.unseen,
                false,
            );
            let own = changed & line.unseen & line.current().occupancy;
            let held = if in_hand(line).is_empty() {
                Bitboard::EMPTY
            } else {
                own & !carried_to(line, occupied_now, own, false)
            };
            line.unseen &= !(changed & !taken & !held);
            // A sensor taken for stuck empty that now reads the piece the line has there
            // was no dead sensor: the piece stood off-centre and is straightened. Not while
            // a piece is in the hand: that one may have landed there.
            if in_hand(line).is_empty() {
                line.dead &= !(changed & occupied_now & line.current().occupancy);
            }
        }
        // A line that took the square for dead with none of its pieces there (a piece left a
        // sensor stuck occupied, it said) read its moves wrongly. One with its piece there
        // took a square that had never read for dead where the piece stood off-centre: the
        // reading refutes the sensor, not the line, which stands (the square blind to it
        // while a piece is in the hand: that one may land there, the unseen one gone on
        // unseen; 1... e5 off-centre, 5... exd4 off-centre again, 6. e5; or 2. Nf3 unseen
        // and straightened while 3... cxd4 is in the hand).
        // A piece in the hand set down there refutes the sensor only (one that left the
        // square moved on, and the next landing there shows it working).
        let refuted = |l: &Line| {
            let empty_there = l.dead & changed & !l.current().occupancy;
            let landed = carried_to(l, occupied_now, empty_there & occupied_now, false);
            !(empty_there & !landed).is_empty()
        };
        if self.lines.iter().any(|l| !(l.dead & changed).is_empty()) {
            if self.lines.iter().all(refuted) {
                for line in &mut self.lines {
                    line.dead &= !changed;
                }
            } else {
                self.lines.retain(|l| !refuted(l));
                for line in &mut self.lines {
                    line.dead &= !(changed & !line.current().occupancy);
                }
            }
            self.reported_dead &= !changed;
            self.report_moves();
        } else if reordered {
            self.report_moves();
        }
    }

    /// A piece set down, by an event, on a square where a line has a piece it could not see
    /// (one set down off-centre there): on that line it is straightened. A line that has the
    /// square empty, with no piece in the hand (nor one it cannot see) that a hand could
    /// carry there, cannot tell that reading at all, however cheaply it reads the board
    /// later: it goes. (22... e6 set down off-centre, kept beside 22... e5: the pawn
    /// straightened on e6 and moved on to e5 is 23... e5, not the e5 line's pawn read at
    /// last.) A piece in the hand that cannot reach the square is no bar: a knight lifted on
    /// g4 does not make a bishop straightened on d4 anything else.
    fn placed_on_an_unseen_piece(&mut self, square: Square) {
        if self.awaiting.is_some() || self.lines.len() < 2 {
            return;
        }
        let holds_it_unseen =
            |line: &Line| line.unseen.contains(square) && line.current().occupancy.contains(square);
        if !self.lines.iter().any(holds_it_unseen) {
            return;
        }
        let sensed = self.sensed;
        // A piece slid onto it from beside, its lift listed after the place.
        let held_now =
            sensed & !(self.lifted_later_in_the_read & shakmaty::attacks::king_attacks(square));
        let may_carry_one_there = |line: &Line| {
            let current = line.current();
            // A piece stands there, or stood there a ply or two ago (a takeback, a revised
            // move may put it back), or the line cannot read the square at all.
            let n = line.ply_count();
            if line.blind().contains(square)
                || line.nodes[n.saturating_sub(2)..]
                    .iter()
                    .any(|node| node.occupancy.contains(square))
            {
                return true;
            }
            // A piece read where the line has none: a hand is on the board in a way the line
            // does not tell; it may be that piece.
            if !(sensed & !current.occupancy & !line.blind())
                .without(square)
                .is_empty()
            {
                return true;
            }
            // A piece in the hand, set down as a move or beside its square (knocked, nudged);
            // or one the line cannot see, which moves on with no lift, as a move only.
            carried_to(line, held_now, Bitboard::from_square(square), true).any()
        };
        let before = self.lines.len();
        self.lines.retain(may_carry_one_there);
        if self.lines.len() < before {
            self.report_moves();
        }
    }

    /// What the board shows, against the recognised position, as told (an illegal board
    /// once it has read wrong a while).
    pub fn status(&self) -> &BoardStatus {
        &self.status
    }

    /// The ply the sensors cannot decide yet and its candidate moves.
    pub fn ambiguity(&self) -> Option<(usize, Vec<Move>)> {
        self.reported_ambiguity.clone()
    }

    /// The promotion piece the next promotion will get.
    pub fn pending_promotion(&self) -> Role {
        self.pending_promotion.unwrap_or(Role::Queen)
    }

    // ----- commands -----

    /// The user says which candidate ply `ply` was. Returns false if no line has it.
    pub fn choose(&mut self, ply: usize, mv: Move, t: Millis) -> bool {
        let keep: Vec<Line> = self
            .lines
            .iter()
            .filter(|l| l.nodes.get(ply).and_then(|n| n.last_move) == Some(mv))
            .cloned()
            .collect();
        if keep.is_empty() {
            return false;
        }
        self.lines = keep;
        self.now.t = t;
        self.report_moves();
        true
    }

    /// Takes back the last move (a user command); the board must follow.
    pub fn undo(&mut self, t: Millis) -> Vec<Event> {
        self.forget_what_noise_may_undo();
        if self.awaiting.is_none() && self.lines[0].ply_count() > 0 {
            if let Some(mv) = self.lines[0].current().last_move {
                self.redo.push(mv);
            }
            let stamp = self.evidence.stamp(t);
            for line in &mut self.lines {
                line.apply(1, &[], stamp);
            }
            self.dedupe_lines();
            self.now = stamp;
            self.report_moves();
            self.refresh_status();
            self.tell_status_at_once();
        }
        std::mem::take(&mut self.events)
    }

    /// Plays again the move the last undo took back, while the board still shows it (a
    /// board set back by hand has taken the move back for real). Nothing if it cannot.
    pub fn redo(&mut self, t: Millis) -> Vec<Event> {
        self.forget_what_noise_may_undo();
        let Some(&mv) = self.redo.last() else {
            return Vec::new();
        };
        let position = &self.lines[0].current().position;
        if self.awaiting.is_some() || !position.is_legal(mv) {
            self.redo.clear();
            return Vec::new();
        }
        let mut after = position.clone();
        after.play_unchecked(mv);
        if !self.view().matches(after.board().occupied()) {
            return Vec::new();
        }
        self.redo.pop();
        let stamp = self.evidence.stamp(t);
        self.lines.truncate(1);
        self.lines[0].apply(0, &[mv], stamp);
        self.now = stamp;
        self.settled_at = stamp;
        self.report_moves();
        self.refresh_status();
        self.tell_status_at_once();
        std::mem::take(&mut self.events)
    }

    /// Whether `redo` has a move to play again.
    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }

    /// The next ply must be `mv` (the engine's move, made on the board by the player);
    /// `None` lifts that. Once it is played, or taken back past, it is lifted by itself.
    pub fn expect_move(&mut self, mv: Option<Move>) {
        self.expected = mv.map(|mv| (self.lines[0].ply_count(), mv));
        self.reported_wrong = None;
    }

    /// The move the next ply must be, if any.
    pub fn expected_move(&self) -> Option<Move> {
        self.expected.map(|(_, mv)| mv)
    }

    /// The user says ply `ply` (1-based) was `mv`: the game is that from there on, with the
    /// later moves kept while they are still legal, and the board is then read against it
    /// (what still differs shows as squares to change). `ply` one past the last enters a
    /// move the sensors missed. Nothing if `mv` is not legal there.
    pub fn correct(&mut self, ply: usize, mv: Move, t: Millis) -> Vec<Event> {
        self.forget_what_noise_may_undo();
        let line = &self.lines[0];
        let moves = line.moves();
        let Some(before) = ply.checked_sub(1).and_then(|i| line.nodes.get(i)) else {
            return Vec::new();
        };
        if self.awaiting.is_some() || !before.position.is_legal(mv) {
            return Vec::new();
        }
        let mut kept = moves[..ply - 1].to_vec();
        kept.push(mv);
        let mut position = before.position.clone();
        position.play_unchecked(mv);
        for &later in &moves[ply.min(moves.len())..] {
            if !position.is_legal(later) {
                break;
            }
            position.play_unchecked(later);
            kept.push(later);
        }
        let stamp = self.evidence.stamp(t);
        let mut corrected = Line::new(line.start().clone(), stamp);
        corrected.apply(0, &kept, stamp);
        corrected.pinned = ply;
        self.lines = vec![corrected];
        // The user knows which way round the board stands, and which moves are gone.
        self.rival = None;
        self.redo.clear();
        self.expected = None;
        self.now = stamp;
        self.settled_at = stamp;
        self.report_moves();
        // No hand is moving a piece now: whatever differs is for the player to change.
        self.show_unfinished(false);
        self.tell_status_at_once();
        std::mem::take(&mut self.events)
    }

    /// Finishes the current game and waits for the board to show `start`.
    pub fn set_up(&mut self, start: Chess, t: Millis) -> Vec<Event> {
        self.forget_what_noise_may_undo();
        if let Some(rival) = &mut self.rival {
            rival.set_up(start.clone(), t);
        }
        self.archive_current_game();
        self.redo.clear();
        self.expected = None;
        let stamp = self.evidence.stamp(t);
        self.now = stamp;
        self.lines = vec![Line::new(start.clone(), stamp)];
        self.reported_moves.clear();
        self.reported_ambiguity = None;
        self.awaiting = Some(start);
        self.step(stamp);
        std::mem::take(&mut self.events)
    }

    /// Continues `game` on the board: once the board shows its final position,
    /// recognition goes on from there with its moves kept.
    pub fn continue_game(&mut self, game: &GameRecord, t: Millis) -> Vec<Event> {
        if let Some(rival) = &mut self.rival {
            rival.continue_game(game, t);
        }
        self.archive_current_game();
        self.redo.clear();
        self.expected = None;
        let stamp = self.evidence.stamp(t);
        self.now = stamp;
        let mut line = Line::new(game.start.clone(), stamp);
        line.apply(0, &game.moves, stamp);
        self.awaiting = Some(line.current().position.clone());
        self.lines = vec![line];
        self.reported_moves.clear();
        self.reported_ambiguity = None;
        self.step(stamp);
        std::mem::take(&mut self.events)
    }

    // ----- the machine -----

    fn step(&mut self, stamp: Stamp) {
        if self.recording_only {
            return;
        }
        self.explain_reading(stamp);
        // An unseen piece whose square reads again is seen now (unless the reading is
        // explained otherwise: another piece landed there).
        if self.reported_unseen_squares() != self.lines[0].unseen {
            self.report_unseen_pieces();
        }
    }

    fn explain_reading(&mut self, stamp: Stamp) {
        self.now = stamp;
        // The square a piece the line cannot see was read moving onto, empty again sooner
        // than noise lasts: a flicker, or a slid piece passing, and the lines as they were
        // are back.
        if let Some((squares, read_at, lines)) = self.before_a_flicker.take()
            && !self.evidence.longer_than_noise(read_at, stamp)
        {
            if (squares & self.sensed).is_empty() {
                self.lines = lines;
                self.report_moves();
            } else {
                self.before_a_flicker = Some((squares, read_at, lines));
            }
        }
        if let Some((squares, read_at, sensed_then, lines)) = self.before_a_glimpse.take()
            && !self.evidence.longer_than_noise(read_at, stamp)
            && self.sensed == sensed_then & !squares
        {
            // With no piece in the hand (passing over it), a piece stands there: the lines
            // with one unseen there go first.
            self.lines = lines;
            if self.view().missing(self.expected_occupancy()).is_empty() {
                self.lines
                    .sort_by_key(|line| (line.unseen & squares).is_empty());
            }
            self.report_moves();
        }
        if let Some(target) = &self.awaiting {
            let expected = target.board().occupied();
            if self.view().matches(expected) {
                self.begin_awaited_game();
            } else if !self.begin_with_dead_sensor(expected, stamp) {
                let view = self.view();
                self.set_status(BoardStatus::Illegal {
                    put_back: view.missing(expected),
                    remove: view.extra(expected),
                });
                // A board being set up is guided at once: no alarm.
                self.tell_status_at_once();
            }
            return;
        }
        let mut found = self.explanations(false);
        if found.first().is_none_or(|(_, e)| e.cost != 0) {
            let released = self.released_stories(found.is_empty());
            let least = |f: &[(usize, Explanation)]| f.iter().map(|(_, e)| e.cost).min();
            match (least(&released), least(&found)) {
                (Some(r), Some(f)) if r == f => found.extend(released),
                (Some(r), f) if f.is_none_or(|f| r < f) => found = released,
                _ => {}
            }
        }
        let cheapest = found.first().map(|(_, e)| e.cost);
        if found.is_empty() && self.refused.get().is_some() {
            // A whole move, but not the engine's: it is to be set back, not waited on.
            self.show_unfinished(false);
            self.tell_status_at_once();
            return;
        }
        // While the engine's move is awaited the game goes on: no new game starts.
        if cheapest.is_none_or(|c| c > NEW_GAME_ABOVE_COST)
            && self.expected.is_none()
            && self.expected_occupancy() != START_OCCUPANCY
            && let Some(opening) = self.new_game_explains()
        {
            self.start_game(self.new_game_start());
            if !opening.is_empty() {
                for line in &mut self.lines {
                    line.apply(0, &opening, stamp);
                }
                self.report_moves();
            }
            return;
        }
        match cheapest {
            Some(0) => {
                // A capture guessed from a still board whose piece has since been seen
                // standing on another square of its reach, and moving on from there, was
                // that piece set down there unseen; what it did from there is read now.
                if !self.repair_guess_seen_moving_on(stamp)
                    && !self.capture_past_a_knocked_piece(stamp)
                {
                    // A line kept refuted reads the board again, the likeliest not: the
                    // reading that refuted it has passed (a knocked piece set back).
                    if found.iter().all(|(i, _)| *i > 0 && self.lines[*i].refuted)
                        && self.promote_line_reading_the_board(&found)
                    {
                        self.lines[0].refuted = false;
                        self.report_moves();
                    } else {
                        self.follow_the_board_behind(&found, stamp);
                    }
                    self.settle_guessed_capture();
                    if let Some(castle) = self.castled_in_place() {
                        self.split_on_castle_in_place(castle, stamp);
                    } else {
                        self.split_on_captures_by_a_blind_piece(stamp);
                    }
                }
                self.settled_at = stamp;
                self.set_status(BoardStatus::Settled);
            }
            // No move in progress is as cheap as one finished ply.
            Some(cost) if cost <= PLY => {
                let mut behind = self.landings_for_the_other_hand(&found, stamp);
                // A line behind read whole while the likeliest has a move under way, on a
                // scanning board (a pawn slid over two squares in one scan): the likeliest
                // stays behind, for the slide's end to tell (4. dxe5 guessed, then 4... d5
                // slid over d6, is no 4. d5 unseen and 4... d6).
                let first_under_way = !self.evidence.is_event_board()
                    && found.iter().all(|(i, _)| *i > 0)
                    && in_progress_cost(
                        &self.lines[0],
                        self.view(),
                        &self.evidence,
                        self.settled_at,
                    )
                    .is_some();
                if first_under_way {
                    behind.push(self.lines[0].clone());
                }
                behind.extend(self.lines_seeing_their_unseen_piece(&found, stamp));
                self.advance(found, stamp);
                self.keep_behind(behind);
            }
            _ => {
                // The likeliest line's last piece slid on from where it was read: a move
                // under way on a line that read the last two plies otherwise would revise
                // what was shown as much (a1-b1 slid on to c1 is Rac1, not Rxb1 under way
                // on a line where 40... Bxb1). A line told apart earlier is a rival game; a
                // likeliest line with a piece unseen, a doubtful one.
                let told_apart_lately =
                    |line: &Line| self.lines[0].shared_plies(line) + 2 >= self.lines[0].ply_count();
                let slid_on = self.lines[0].unseen.is_empty()
                    && found.iter().any(|(i, e)| {
                        *i == 0
                            && e.undo == 1
                            && e.moves.first().and_then(|m| m.from())
                                == self.lines[0].current().last_move.and_then(|m| m.from())
                    });
                let in_progress = self
                    .lines
                    .iter()
                    .enumerate()
                    .filter_map(|(i, line)| {
                        let cost =
                            in_progress_cost(line, self.view(), &self.evidence, self.settled_at)?;
                        Some(if i > 0 && slid_on && told_apart_lately(line) {
                            cost + search::REVISION_COST
                        } else {
                            cost
                        })
                    })
                    .min();
                // A move finished while the other player holds one of their pieces: when
                // only a second hand keeps it "in progress" and no story explains the board
                // otherwise, it is decided now.
                // (Not for the session's first move: that one may yet tell the orientation.)
                // Every line whose board shows such a move keeps it: lines told side by side
                // (a catch-up's unseen pawns on b6 or b5) are not lost to the likeliest.
                if in_progress.is_some_and(|c| c >= IN_PROGRESS + SECOND_HAND)
                    && cheapest.is_none()
                    && self.has_moved()
                {
                    let finished: Vec<(usize, Explanation)> = self
                        .lines
                        .iter()
                        .enumerate()
                        .filter_map(|(i, line)| {
                            Some((i, self.finished_beside_a_lifted_piece(line)?))
                        })
                        .filter(|&(i, m)| i == 0 || self.expected_allows(&self.lines[i], m))
                        .map(|(i, m)| {
                            let explanation = Explanation {
                                moves: vec![m],
                                cost: PLY,
                                ..Explanation::default()
                            };
                            (i, explanation)
                        })
                        .collect();
                    if finished
                        .first()
                        .is_some_and(|(i, e)| *i == 0 && self.allows(e.moves[0]))
                    {
                        if self.unseen_landing_before_the_reply(&finished, in_progress, stamp) {
                            self.refresh_status();
                            return;
                        }
                        let behind = self.landings_for_the_other_hand(&finished, stamp);
                        self.advance(finished, stamp);
                        self.keep_behind(behind);
                        self.refresh_status();
                        return;
                    }
                }
                // A story cheaper than a move in progress is taken.
                // With no move in progress to weigh it against, not a story of two captures no
                // sensor saw on two squares (a recapture on the same square by fast hands may
                // show none; a sensor that never changed may be dead): a hand knocking a piece
                // beside its move is likelier.
                let unproven_on_two_squares = |e: &Explanation| {
                    let squares: Bitboard = e
                        .moves
                        .iter()
                        .filter(|m| m.is_capture())
                        .map(|m| m.to())
                        .collect();
                    e.unproven >= 2 && squares.count() >= 2 && (squares & self.steady).is_empty()
                };
                let story_taken = cheapest.is_some_and(|cost| {
                    in_progress.map_or(
                        !found.iter().all(|(_, e)| unproven_on_two_squares(e)),
                        |waiting| cost < waiting,
                    )
                });
                // Where the story taken is a doubtful one (a capture no sensor saw, on a
                // board whose events would have shown its victim leave, or moves against the
                // order the hands played them), a sensor that never changed may be dead: the
                // cheaper such stories become lines beside it (ranked, as all lines, by how
                // plausible their moves are), for later moves to tell apart.
                let event_board = self.evidence.is_event_board();
                // A capture of a piece the line cannot see shows nothing on its square: the
                // capturer may as well have come down unseen elsewhere.
                let takes_a_blind_piece = |i: usize, e: &Explanation| {
                    let blind = self.lines[i].blind();
                    e.moves.iter().any(|&m| {
                        moves::footprint(m)
                            .victim
                            .is_some_and(|victim| blind.contains(victim))
                    })
                };
                let sensor_doubted = story_taken
                    && found.iter().all(|(i, e)| {
                        (event_board && e.unproven > 0)
                            || e.out_of_order > 0
                            || takes_a_blind_piece(*i, e)
                    });
                // Moves against the order the hands played them, on a line with a piece
                // unseen: that piece may have moved on unseen, its move never read (5... d5
                // from an unseen d6, then 6. Bd3 6... Bd6 read as Bd6 and Bd3). A ply dearer
                // by the landing it hides, such a story stays beside it.
                let out_of_turn = story_taken
                    && found
                        .iter()
                        .all(|(i, e)| e.out_of_order > 0 && self.lines[*i].unseen.any());
                // A capture no sensor saw, on any board: the piece may as well have come
                // down off-centre, on any empty square of its reach, one that has read
                // before too (where no dead sensor can hide: a queen set down unseen on c1,
                // a square its bishop left, is no stuck c5). Those stories become lines too,
                // behind the dead sensors' (the same square kept once, as a dead sensor that
                // turns out unseen when it reads). Without events such a capture is a hand
                // faster than a scan, or one piece read as two landings (49. g4 Qxg4 on the
                // queen's arrival alone, where 49. g3 came down off-centre).
                let unseen_doubted = story_taken
                    && found
                        .iter()
                        .all(|(i, e)| e.unproven > 0 || takes_a_blind_piece(*i, e))
                    || out_of_turn;
                if let Some(rival) = cheapest.filter(|_| sensor_doubted || unseen_doubted) {
                    // (Blaming a sensor for a hand faster than a scan is no likelier.)
                    let mut blind = if sensor_doubted {
                        self.dead_sensor_stories(false)
                    } else {
                        Vec::new()
                    };
                    blind.retain(|(i, e)| e.cost <= rival && self.let_go_before_the_next(*i, e));
                    if unseen_doubted {
                        let hidden = if out_of_turn {
                            search::UNSEEN_LANDING
                        } else {
                            0
                        };
                        blind.extend(self.unseen_stories_as_cheap_as(rival + hidden));
                        // Moves out of turn, or a capture no sensor saw: a pawn the line has
                        // unseen may have moved on unseen again (17. d4 from an unseen d3,
                        // no 17. dxc5 from an unseen d4).
                        blind.extend(
                            self.stories_of_a_hidden_move()
                                .into_iter()
                                .filter(|(_, e)| e.cost <= rival + hidden),
                        );
                    }
                    if !blind.is_empty() {
                        found.extend(blind);
                        self.advance(found, stamp);
                        return;
                    }
                }
                // The last move's piece went on to take a piece it passed on its way (a slide
                // that straddled two squares): a proven capture is where it came to rest, not a
                // piece still in the hand.
                let slid_on_to_capture = found
                    .iter()
                    .all(|(_, e)| e.undo == 1 && e.moves.len() == 1 && e.unproven == 0)
                    && found.iter().any(|(_, e)| e.latest_proof.is_some());
                // Read as both players' hands at once, one holding a piece over a square the
                // line cannot see (a dead sensor's, or one with a piece unseen on it, which it
                // may have taken): the other player's whole move says it was set down there.
                let landed_unseen_before_reply = in_progress
                    .is_some_and(|waiting| waiting >= IN_PROGRESS + SECOND_HAND)
                    && found.iter().all(|(i, e)| {
                        // A piece unseen only on a line less likely than the first is too
                        // weak a ground for a capture no sensor saw.
                        let line = &self.lines[*i];
                        let blind = if *i == 0 { line.blind() } else { line.dead };
                        let landings = |moves: &[Move]| {
                            moves.iter().fold(Bitboard::EMPTY, |all, &m| {
                                all | moves::footprint(m).landing()
                            })
                        };
                        e.cost <= in_progress.unwrap_or(0) + search::REVISION_COST
                            && e.unproven == 0
                            && e.moves
                                .split_last()
                                .is_some_and(|(_, before)| !(landings(before) & blind).is_empty())
                    });
                match cheapest {
                    Some(_) if story_taken || slid_on_to_capture || landed_unseen_before_reply => {
                        let behind = self.pushes_in_two_around_the_reply(&found, stamp);
                        self.advance(found, stamp);
                        self.keep_behind(behind);
                    }
                    // A guessed capture whose square now reads empty (its victim moving on)
                    // is refuted: its repair goes before any sensor is blamed.
                    None if in_progress.is_none()
                        && self.guessed_capture_left()
                        && self.repair_with_unseen_landing(stamp) => {}
                    // So is one that could have come down, unseen, where a piece now
                    // appears, nothing lifted (22... Nh7 off-centre guessed as Nxe4,
                    // straightened): no rook moved off a sensor stuck under it.
                    None if in_progress.is_none()
                        && self.a_guess_could_have_landed_on(
                            self.view().extra(self.expected_occupancy()),
                        )
                        && self.repair_with_unseen_landing(stamp) => {}
                    None if in_progress.is_none()
                        && (self.explain_with_dead_sensor_or_unseen_piece(stamp)
                            || self.repair_with_unseen_landing(stamp)) => {}
                    // Read as both players' hands at once; but the player who would hold a
                    // piece has since moved another, after the reply: the first one was set
                    // down, unseen.
                    // (A story dearer than the two hands, not taken, does not stand in the way.)
                    // A ply dearer, a story stays behind: a piece a line behind has unseen,
                    // read now, was straightened there, or the first line's moved on to it.
                    _ if in_progress.is_some_and(|c| c >= IN_PROGRESS + SECOND_HAND)
                        && cheapest.is_none_or(|c| c > CHEAPEST_UNSEEN_STORY)
                        && self.mover_lifted_twice_around_a_reply()
                        && self.advance_cheapest_keeping_a_ply_dearer(
                            self.unseen_piece_stories(in_progress)
                                .into_iter()
                                .filter(|(_, e)| cheapest.is_none_or(|c| e.cost < c))
                                .collect(),
                            stamp,
                        ) => {}
                    _ => self.show_unfinished(in_progress.is_some()),
                }
            }
        }
    }

    /// The position a board set up to the start occupancy begins: the session's start if it
    /// has that occupancy (a Chess960 start), else the standard one.
    fn new_game_start(&self) -> Chess {
        self.config
            .start
            .clone()
            .filter(|start| start.board().occupied() == START_OCCUPANCY)
            .unwrap_or_default()
    }

    /// A Chess960 castling whose king and rook swap squares leaves the occupancy as it was:
    /// it is the castling when the hands were seen lifting both since the board last
    /// settled.
    fn castled_in_place(&self) -> Option<Move> {
        let current = self.lines[0].current();
        let lifted = self
            .evidence
            .departed_since(current.since.max(self.settled_at));
        current
            .legal_moves()
            .iter()
            .map(|&(m, _)| m)
            .find(|&m| {
                let hidden = moves::hidden_castle_squares(m);
                touched_squares(m) == hidden && !hidden.is_empty() && (hidden & !lifted).is_empty()
            })
            .filter(|&m| self.allows(m))
    }

    /// The board may show `castle` made in place, or pieces straightened: both lines are
    /// kept (the castling first) and reported ambiguous until a later move decides.
    fn split_on_castle_in_place(&mut self, castle: Move, stamp: Stamp) {
        self.keep_beside_the_lines(&[castle], true, stamp);
    }

    /// The lines as they stand, and each of `moves` played on the first as a line of its
    /// own (`moves_first`: ahead of them among equals), for a later move to tell apart.
    fn keep_beside_the_lines(&mut self, moves: &[Move], moves_first: bool, stamp: Stamp) {
        let story = |moves: Vec<Move>, cost: u32| Explanation {
            moves,
            cost,
            ..Explanation::default()
        };
        let played = moves.iter().map(|&m| (0, story(vec![m], PLY)));
        let standing = (0..self.lines.len()).map(|i| (i, story(Vec::new(), 0)));
        let found: Vec<(usize, Explanation)> = if moves_first {
            played.chain(standing).collect()
        } else {
            standing.chain(played).collect()
        };
        self.advance(found, stamp);
    }

    /// Advances on `found`, decided from a still board: only a guess, its last ply revised
    /// or undone cheaply (`a_capture`: one the repairs may find set down unseen).
    fn advance_on_a_guess(
        &mut self,
        found: Vec<(usize, Explanation)>,
        stamp: Stamp,
        a_capture: bool,
    ) {
        self.now = stamp;
        self.advance(found, stamp);
        // (Not the likeliest line the guess dropped, kept last as it was.)
        for line in &mut self.lines {
            if let Some(node) = line.nodes.last_mut().filter(|node| node.since == stamp) {
                node.guessed = true;
                node.was_guessed |= a_capture;
            }
        }
        self.decided_still_at = Some(self.now);
    }

    /// Whether a capture of the likeliest line's last few plies, guessed from a still board,
    /// has its square read empty now, the capturer never moved on from it: its victim, never
    /// taken, is moving.
    fn guessed_capture_left(&self) -> bool {
        let line = &self.lines[0];
        let missing = self.view().missing(line.current().occupancy);
        if missing.is_empty() {
            return false;
        }
        let n = line.ply_count();
        (n.saturating_sub(repair::DEEPEST).max(line.pinned)..n).any(|base| {
            let node = &line.nodes[base + 1];
            node.was_guessed
                && node
                    .last_move
                    .is_some_and(|m| m.is_capture() && missing.contains(m.to()))
                && line.untouched_since_set_down(base)
        })
    }

    /// The board reads as the line has it, but a piece of the other side was lifted and set
    /// down again since the last move, nothing of the side to move seen leaving: a piece the
    /// line cannot see (on a dead sensor, or unseen) may have taken it, which shows only that
    /// square touched. Each such capture becomes a line behind the touch, for the reply to
    /// tell (a queen on a stuck d1 taking on d5 is read at the recapture Rxd5).
    fn split_on_captures_by_a_blind_piece(&mut self, stamp: Stamp) {
        let captures = self.captures_by_a_blind_piece(&self.lines[0]);
        // Lines behind, told apart from the first only by where a piece stands unseen (21.
        // Bd3 or Bb5 unseen), take their captures too, behind, even where the first line
        // has none to make (3. c4 read as c3: only c4 can take on d5): the board may yet
        // tell them.
        let behind: Vec<Line> = (1..self.lines.len())
            .flat_map(|i| {
                self.captures_by_a_blind_piece(&self.lines[i])
                    .into_iter()
                    .map(move |m| (i, m))
            })
            .map(|(i, m)| {
                let mut line = self.lines[i].clone();
                line.apply(0, &[m], stamp);
                line
            })
            .collect();
        if !captures.is_empty() {
            self.keep_beside_the_lines(&captures, false, stamp);
        }
        self.keep_behind(behind);
    }

    /// The captures of `line` a piece it cannot see may have made, showing only its
    /// victim's square touched, no piece of the side to move seen leaving.
    fn captures_by_a_blind_piece(&self, line: &Line) -> Vec<Move> {
        let current = line.current();
        let position = &current.position;
        let since = current.since.max(self.settled_at);
        let lifted = self.evidence.departed_since(since);
        if !(lifted & position.us() & !line.blind()).is_empty() {
            return Vec::new();
        }
        let touched: Bitboard = (lifted & position.them() & self.sensed)
            .into_iter()
            .filter(|&square| {
                self.evidence
                    .last_departure(square, since)
                    .zip(self.evidence.last_arrival(square, since))
                    .is_some_and(|(left, arrived)| arrived > left)
            })
            .collect();
        let capturers = position.us() & line.blind();
        current
            .legal_moves()
            .iter()
            .map(|&(m, _)| m)
            .filter(|m| {
                m.is_capture()
                    && m.from().is_some_and(|from| capturers.contains(from))
                    && touched.contains(m.to())
                    && self.allows(*m)
            })
            .collect()
    }

    /// The last move took a piece lifted in the very moment its capturer was (a piece the
    /// hand knocked over), and that square has its piece back: then, before any reply, a
    /// piece of the same side the capturer could take instead was lifted and its square
    /// filled again. That was the capture, its victim off first; the first square a knocked
    /// piece set back (35... Kf5 lifted with g5 knocked, g5 set back, then Kxe5: no 35...
    /// Kxg5 and a touch on e5). The reading first taken stays behind. True if it revised.
    fn capture_past_a_knocked_piece(&mut self, stamp: Stamp) -> bool {
        let line = &self.lines[0];
        let n = line.ply_count();
        if n <= line.pinned {
            return false;
        }
        let current = line.current();
        let previous = &line.nodes[n - 1];
        let Some(last) = current.last_move.filter(|m| m.is_capture()) else {
            return false;
        };
        let (Some(from), Some(knocked)) = (last.from(), moves::footprint(last).victim) else {
            return false;
        };
        let left = |square: Square| self.evidence.last_departure(square, previous.since);
        let lifted_together = matches!((left(from), left(knocked)),
            (Some(a), Some(b)) if a.t.abs_diff(b.t) <= STRADDLE_MS);
        if !lifted_together {
            return false;
        }
        let since = current.since;
        let touched = self.evidence.departed_since(since);
        let Some(victim) = touched.single_square().filter(|&sq| sq != knocked) else {
            return false;
        };
        let refilled = match (
            self.evidence.last_departure(victim, since),
            self.evidence.last_arrival(victim, since),
        ) {
            (Some(off), Some(on)) => {
                on > off && off.t > since.t && off.t <= since.t + self.config.still_ms
            }
            _ => false,
        };
        let instead = previous.legal_moves().iter().find(|(m, _)| {
            m.from() == Some(from) && m.to() == victim && m.is_capture() && m.role() == last.role()
        });
        let Some(&(instead, _)) = instead.filter(|(m, _)| refilled && self.allows(*m)) else {
            return false;
        };
        let behind = self.lines[0].clone();
        let revised = Explanation {
            undo: 1,
            moves: vec![instead],
            cost: search::REVISION_COST + PLY,
            ..Explanation::default()
        };
        self.advance(vec![(0, revised)], stamp);
        self.keep_behind(vec![behind]);
        true
    }

    /// A move finished on the line's board while the other player holds one of their own
    /// pieces: `None` unless exactly one legal move fits.
    fn finished_beside_a_lifted_piece(&self, line: &Line) -> Option<Move> {
        let current = line.current();
        let view = self.view_of(line);
        let promotion = self.pending_promotion();
        // Pieces knocked over as another was lifted, found once for every move (at most
        // three squares: a move and a knock).
        let gone = view.missing(current.occupancy);
        let knocked_by_a_hand = if gone.count() <= 3 {
            search::knocked_with_a_lift(&self.evidence, current.since, gone)
        } else {
            Bitboard::EMPTY
        };
        let mut fits = current.legal_moves().iter().filter(|&&(m, after)| {
            let missing = view.missing(after);
            if !view.extra(after).is_empty()
                || missing.count() != 1
                || moves::promotion_role(m).is_some_and(|r| r != promotion)
            {
                return false;
            }
            // The other player's hand, or the mover's own piece beside its way, knocked
            // over as it was lifted; not one straight on past where it landed, which it
            // may be sliding on to take (a rook slid a1-a2 on its way to a bishop on a3
            // lifted first).
            let own = missing & !current.position.them();
            let knocked = own.into_iter().all(|square| {
                knocked_by_a_hand.contains(square)
                    && search::beside(moves::touched_squares(m) | moves::slide_way(m).passed)
                        .contains(square)
                    && !m.from().is_some_and(|from| {
                        shakmaty::attacks::between(from, square).contains(m.to())
                    })
            });
            // Nor a piece of theirs the mover's piece could take instead, taken off well
            // before it was lifted (not in the same moment: a knock): that is the order of
            // a capture under way, its victim off first (63. Rexf8, the hand knocking d8
            // over, is no 63. Rxd8 beside a black hand on f8). Within a still second: a
            // piece off longer before is the other player's hand (55. Re2 lifted again and
            // set down unseen on e3, two seconds before 55... Qd1).
            let moment = STRADDLE_MS.max(self.evidence.poll_skew());
            let left = |square: Square| self.evidence.last_departure(square, current.since);
            let victim_off_first = (missing & current.position.them())
                .into_iter()
                .any(|square| {
                    m.from().is_some_and(|from| {
                        current.legal_moves().iter().any(|(other, _)| {
                            other.from() == Some(from) && other.to() == square && other.is_capture()
                        }) && left(square).zip(left(from)).is_some_and(|(off, lifted)| {
                            off.t + moment < lifted.t && lifted.t <= off.t + self.config.still_ms
                        })
                    })
                });
            // Nor beside the last move's piece going on: lifted off its landing in the
            // moment this move's square filled, where it could have come down instead (26...
            // a7-a6-a5 slid on, the hand knocking a4 off: no 27. a5 beside a black hand on
            // a6).
            let went_on = |last: Move, previous: &line::Node| {
                let from_landing = moves::footprint(last).landing() & missing;
                let arrived = self.evidence.last_arrival(m.to(), current.since);
                from_landing.into_iter().any(|landing| {
                    let left = self.evidence.last_departure(landing, current.since);
                    matches!((left, arrived), (Some(left), Some(arrived))
                        if arrived.t.abs_diff(left.t) <= moment)
                        && previous
                            .legal_moves()
                            .iter()
                            .any(|(other, _)| other.from() == last.from() && other.to() == m.to())
                })
            };
            let last_went_on = || {
                line.ply_count() > 0
                    && current
                        .last_move
                        .is_some_and(|last| went_on(last, &line.nodes[line.ply_count() - 1]))
            };
            knocked
                && !victim_off_first
                && !last_went_on()
                && match (moves::footprint(m).victim, m.from()) {
                    (Some(victim), Some(from)) => {
                        let way = moves::slide_way(m);
                        self.evidence
                            .capture_proof(from, victim, way.passed | way.brushed, current.since)
                            .is_some()
                    }
                    _ => true,
                }
        });
        let (m, _) = *fits.next()?;
        fits.next().is_none().then_some(m)
    }

    /// The board differs from the awaited start on one square that has never changed: a
    /// dead sensor, or a stray piece. A first move played around it tells: then the game
    /// begins with that sensor taken as dead.
    fn begin_with_dead_sensor(&mut self, expected: Bitboard, stamp: Stamp) -> bool {
        let differs = (self.sensed ^ expected) & self.steady & !self.dead();
        if differs.count() != 1 {
            return false;
        }
        let found = self.explanations_seeing(!differs, false);
        let Some((_, first)) = found.first() else {
            return false;
        };
        if first.undo > 0 || first.moves.is_empty() {
            return false;
        }
        let opening = first.moves.clone();
        self.begin_awaited_game();
        for line in &mut self.lines {
            line.dead |= differs;
            line.apply(0, &opening, stamp);
        }
        self.report_moves();
        true
    }

    /// Nothing explains the board: perhaps a sensor is dead, or a piece stands unseen. The
    /// cheapest stories of either kind become lines, side by side: a square that has never
    /// read may be either, and later readings tell them apart (a sensor taken for dead that
    /// changes was not; a piece taken as unseen must be where the next moves need it).
    fn explain_with_dead_sensor_or_unseen_piece(&mut self, stamp: Stamp) -> bool {
        let mut found = self.unseen_piece_stories(None);
        found.extend(self.dead_sensor_stories(false));
        // A piece set down off-centre is far likelier than a broken sensor: where both tell
        // the same game, the unseen piece is kept. Among equals, a square whose sensor has
        // never changed goes first (it may be a dead sensor's, where every piece is unseen).
        found.sort_by_key(|(_, e)| ((e.newly_unseen | e.newly_dead) & self.steady).is_empty());
        self.advance_cheapest(found, stamp)
    }

    /// Perhaps a sensor that has never changed is dead, and a move landed on it or left it
    /// unseen: stories for the squares the legal moves could have used that way.
    /// At the end of a session (`accept_unproven_last`), the last move may land on it too:
    /// no later reading can tell it from a piece still in the hand.
    fn dead_sensor_stories(&self, accept_unproven_last: bool) -> Vec<(usize, Explanation)> {
        // One broken sensor is a fault; a second one found the same way is a misreading.
        // Nor is a sensor blamed while line noise (a wild frame) is part of the picture.
        let wild = self.wild_at.is_some_and(|w| w > self.settled_at);
        if !self.dead().is_empty() || wild {
            return Vec::new();
        }
        let view = self.view();
        let line = &self.lines[0];
        let mut suspects = Bitboard::EMPTY;
        // The last move may be the one read wrongly for want of the square.
        for node in &line.nodes[line.ply_count().saturating_sub(1)..] {
            // Where something was seen: a square that differs, or one a hand touched (a
            // capture landing next to a sensor that cannot see its piece leave).
            let seen = view.missing(node.occupancy)
                | view.extra(node.occupancy)
                | self.evidence.disturbed_since(node.since);
            for &(m, _) in node.legal_moves() {
                let touched = touched_squares(m);
                if !(touched & seen).is_empty() {
                    suspects |= touched;
                }
            }
        }
        suspects &= self.steady & !self.dead();
        self.blind_square_stories(suspects, &[], Blind::Dead, None, accept_unproven_last)
    }

    /// Perhaps a piece was set down off-centre, where its sensor does not see it, and the
    /// game went on: stories for the squares a move of the position (or the last move,
    /// revised) could have landed on unseen, where the mover has left its square. The
    /// continuation proves it: a story must go on after the unseen landing. Over a board
    /// read as two hands at once (`rival`, that reading's cost), only a story the next move
    /// proves.
    fn unseen_piece_stories(&self, rival: Option<u32>) -> Vec<(usize, Explanation)> {
        let view = self.view();
        let line = &self.lines[0];
        let mut suspects = Bitboard::EMPTY;
        match rival {
            None => {
                for node in &line.nodes[line.ply_count().saturating_sub(1)..] {
                    // A piece the line has unseen may have moved on, unseen again.
                    let left = view.missing(node.occupancy) | (node.occupancy & line.unseen);
                    for &(m, _) in node.legal_moves() {
                        let print = moves::footprint(m);
                        if !(print.lifted & left).is_empty() {
                            suspects |= print.landing() & !self.sensed;
                        }
                    }
                }
            }
            // Over two hands: a move of the side to move whose piece left before the reply's
            // did (its square may be filled again by the next move's piece).
            Some(_) => {
                let current = line.current();
                let since = current.since;
                let lifted = self.evidence.departed_since(since);
                let reply_lifted = (lifted & current.position.them())
                    .into_iter()
                    .filter_map(|sq| self.evidence.last_departure(sq, since))
                    .min();
                for &(m, _) in current.legal_moves() {
                    let left = m
                        .from()
                        .and_then(|from| self.evidence.last_departure(from, since));
                    if matches!((left, reply_lifted), (Some(left), Some(reply)) if left < reply) {
                        suspects |= moves::footprint(m).landing() & !self.sensed;
                    }
                }
            }
        }
        suspects &= !line.blind();
        // Two pieces set down unseen one after the other (1... c5 and 2. c4, both
        // off-centre), where few squares are suspect; two dead sensors are not likely.
        let paired: Vec<Bitboard> = if rival.is_none() && suspects.count() <= MAX_PAIRED_SUSPECTS {
            suspects
                .into_iter()
                .flat_map(|a| {
                    suspects
                        .into_iter()
                        .filter(move |&b| b > a)
                        .map(move |b| Bitboard::from_square(a) | Bitboard::from_square(b))
                })
                .collect()
        } else {
            Vec::new()
        };
        self.blind_square_stories(suspects, &paired, Blind::Unseen, rival, false)
    }

    /// A piece let go after a still second (`released`), its square still empty, and the
    /// other player has since lifted a piece: stories of it set down unseen on a square of
    /// its reach, then the reply, every capture proven. Priced as any other story, so they
    /// beat reading both players' hands in the air at once. With several squares to stand
    /// on, only where `nothing_else` explains the board: each becomes a line.
    fn released_stories(&self, nothing_else: bool) -> Vec<(usize, Explanation)> {
        let Some((square, since)) = self.released else {
            return Vec::new();
        };
        let current = self.lines[0].current();
        let replied = self.evidence.departed_since(since) & current.position.them();
        if current.since != since || self.sensed.contains(square) || replied.is_empty() {
            return Vec::new();
        }
        let suspects = current
            .legal_moves()
            .iter()
            .filter(|(m, _)| m.from() == Some(square))
            .fold(Bitboard::EMPTY, |all, &(m, _)| {
                all | moves::footprint(m).filled
            })
            & !self.sensed
            & !self.lines[0].blind();
        // Where the piece could have come down in several places, a guess among them is
        // worse than any other story; with none, better than a board read as illegal.
        if suspects.count() > 1 && !nothing_else {
            return Vec::new();
        }
        // Without events a hand faster than a scan hides more: only a piece with one square
        // to have come down on unseen.
        if !self.evidence.is_event_board() && suspects.count() > 1 {
            return Vec::new();
        }
        let mut stories = self.blind_square_stories(suspects, &[], Blind::Unseen, None, false);
        stories.retain(|(_, e)| {
            e.undo == 0
                && e.moves.len() >= 2
                && e.unproven == 0
                && e.moves.first().and_then(|m| m.from()) == Some(square)
        });
        // Cheapest first; among equals, a square whose sensor has never changed may be a
        // dead one as well: likelier.
        stories.sort_by_key(|(_, e)| (e.cost, (e.newly_unseen & self.steady).is_empty()));
        stories
    }

    /// Tries each suspect square (then each of `paired`, if no single square will do) as one
    /// whose reading is not to be believed; returns the stories that need it. A square is blamed only by a story the
    /// hands played in their order, and short (a hidden move, the reply, perhaps the next):
    /// anything else is a misreading of another kind.
    fn blind_square_stories(
        &self,
        suspects: Bitboard,
        paired: &[Bitboard],
        blind: Blind,
        rival: Option<u32>,
        accept_unproven_last: bool,
    ) -> Vec<(usize, Explanation)> {
        let mut found: Vec<(usize, Explanation)> = Vec::new();
        // Over two hands, the next move's piece may have landed where the unseen one left.
        let refilled = match rival {
            Some(_) => self.left_and_refilled(),
            None => Bitboard::EMPTY,
        };
        let singles = suspects.into_iter().map(Bitboard::from_square);
        let mut singles_found = None;
        for blinded in singles.chain(paired.iter().copied()) {
            // Two squares only where one cannot tell the story.
            if blinded.count() > 1 && *singles_found.get_or_insert(!found.is_empty()) {
                break;
            }
            // Over two hands, a search of its own on a board already read otherwise: on the
            // likeliest line; the lines behind it that tell a story as cheap are kept beside
            // it (a pawn on d3 or d4, never read, stays undecided).
            let mut stories = self.explanations_moving_from(
                !blinded,
                accept_unproven_last,
                refilled,
                rival.is_some(),
                true,
            );
            if let Some(cost) = stories.first().map(|(_, e)| e.cost)
                && rival.is_some()
                && self.lines.len() > 1
            {
                let behind = self
                    .explanations_moving_from(!blinded, accept_unproven_last, refilled, false, true)
                    .into_iter()
                    .filter(|(i, e)| *i != 0 && e.cost <= cost);
                stories.extend(behind);
            }
            stories.retain(|(i, e)| {
                let landed = |m: &Move| moves::footprint(*m).landing() & blinded;
                // An unseen piece must have landed on each square in the story; two, in its
                // first two moves, the first proven by its side's next move.
                // Each of the two lifted where the line sees it: a piece the line already has
                // unseen, moved on unseen again, leaves no trace at all.
                let lifted_seen = |m: &Move| {
                    m.from()
                        .is_some_and(|from| !self.lines[*i].blind().contains(from))
                };
                let lands_there = || match e.moves.as_slice() {
                    [first, second, _] if blinded.count() == 2 => {
                        e.unproven == 0
                            && (landed(first) | landed(second)) == blinded
                            && lifted_seen(first)
                            && lifted_seen(second)
                    }
                    moves => blinded.count() == 1 && moves.iter().any(|m| landed(m) == blinded),
                };
                e.moves.len() <= 3
                    && e.out_of_order == 0
                    && e.cost > 0
                    && (blind == Blind::Dead || lands_there())
                    && !self.takes_an_untouched_piece(*i, e, blinded)
                    && rival.is_none_or(|rival| {
                        blinded.single_square().is_some_and(|square| {
                            self.proven_by_the_next_move(*i, e, square, rival)
                        })
                    })
            });
            found.extend(stories.into_iter().map(|(i, e)| {
                let e = match blind {
                    Blind::Dead => Explanation {
                        newly_dead: blinded,
                        ..e
                    },
                    Blind::Unseen => Explanation {
                        newly_unseen: blinded,
                        ..e
                    },
                };
                (i, e)
            }));
        }
        found
    }

    /// Whether the story takes a piece on a square the line sees that no hand has touched
    /// since the position it starts from (the one before the last, if it undoes nothing:
    /// the hand may have begun during the last move). On a board with events a capture
    /// shows on its victim's square however fast the hand: a story of a piece set down
    /// unseen that needs such a capture is none (23... fxe4 with e4 unseen, then 24. Nxd6
    /// with nothing read on d6, for the knight set down unseen on c3: only a second unseen
    /// square, or the knight straightened there, tells that game).
    fn takes_an_untouched_piece(&self, line: usize, e: &Explanation, blinded: Bitboard) -> bool {
        if !self.evidence.is_event_board() {
            return false;
        }
        let line = &self.lines[line];
        let since = line.nodes[line.ply_count().saturating_sub(e.undo.max(1))].since;
        let touched = self.evidence.departed_since(since) | self.evidence.disturbed_since(since);
        let seen = self.view().live & !line.blind() & !blinded;
        e.moves.iter().any(|&m| {
            moves::footprint(m)
                .victim
                .is_some_and(|victim| seen.contains(victim) && !touched.contains(victim))
        })
    }

    /// Quiet moves of the piece lifted from `lifted` onto a square reading empty: where it
    /// may have come down unseen.
    fn quiet_landings_unread(&self, line: &Line, lifted: Bitboard) -> Vec<Move> {
        line.current()
            .legal_moves()
            .iter()
            .map(|&(m, _)| m)
            .filter(|m| {
                m.from().is_some_and(|from| lifted.contains(from))
                    && !m.is_capture()
                    && !m.is_castle()
                    && !self.sensed.contains(m.to())
                    && self.allows(*m)
            })
            .collect()
    }

    /// Squares reading empty whose sensor has never changed, though the line has had a
    /// piece standing there: a sensor stuck empty, or a piece set down off-centre that moved
    /// on unseen. A piece lifted since, its landing unseen, most likely came down there.
    fn held_unread(&self, line: &Line) -> Bitboard {
        self.steady & !self.sensed & line.occupied_over(0..line.nodes.len())
    }

    /// Squares left since the likeliest line's position where it has no piece: a piece it
    /// has unseen, or set down elsewhere, moved on from there.
    fn left_where_the_line_has_none(&self) -> Bitboard {
        let current = self.lines[0].current();
        self.evidence.departed_since(current.since) & !current.occupancy
    }

    /// Squares left since the likeliest line's position that read a piece again now, where
    /// it has one: another piece may have landed where the first left.
    fn left_and_refilled(&self) -> Bitboard {
        let current = self.lines[0].current();
        self.evidence.departed_since(current.since) & current.occupancy & self.sensed
    }

    /// Nothing else explains a still board: a move may have started from a square read left
    /// and filled again since (the next move landing where a piece set down unseen left).
    /// A sound story of it (every capture proven, in the hands' order) is taken.
    fn moved_from_a_square_refilled(&mut self, stamp: Stamp) -> bool {
        let refilled = self.left_and_refilled();
        if refilled.is_empty() {
            return false;
        }
        let mut found =
            self.explanations_moving_from(self.view().live, false, refilled, true, false);
        found.retain(|(_, e)| e.unproven == 0 && e.out_of_order == 0 && !e.moves.is_empty());
        self.advance_cheapest(found, stamp)
    }

    /// Advances on the cheapest of `found`; false if there is none.
    /// As `advance_cheapest`, with the stories one ply dearer kept as lines behind, for the
    /// next move to tell apart.
    fn advance_cheapest_keeping_a_ply_dearer(
        &mut self,
        found: Vec<(usize, Explanation)>,
        stamp: Stamp,
    ) -> bool {
        let Some(min) = found.iter().map(|(_, e)| e.cost).min() else {
            return false;
        };
        let (cheapest, dearer): (Vec<_>, Vec<_>) =
            found.into_iter().partition(|(_, e)| e.cost == min);
        let behind: Vec<Line> = dearer
            .into_iter()
            .filter(|(_, e)| e.cost <= min + PLY)
            .map(|(i, e)| self.advanced(i, e, stamp).2)
            .collect();
        self.advance(cheapest, stamp);
        self.keep_behind(behind);
        true
    }

    /// The lines `found` does not advance that have a piece unseen on a square read filled
    /// at this reading: that piece straightened, not another piece moved onto it (6... d6
    /// off-centre, read as d5, then d6 straightened as the queen is touched: no 7... Qd6).
    /// Kept behind as they stand, for the next readings to tell.
    fn lines_seeing_their_unseen_piece(
        &self,
        found: &[(usize, Explanation)],
        stamp: Stamp,
    ) -> Vec<Line> {
        // Only where the move's piece left in this very reading: a hand that straightened
        // a piece touched another in the same moment. A move read a reading or more after
        // its lift is a move (17... Qb5 where a line behind had 15. Qb5 unseen).
        let lifted_now = found.first().is_some_and(|(_, e)| {
            e.moves.iter().any(|m| {
                m.from()
                    .and_then(|from| self.evidence.last_departure(from, Stamp::default()))
                    .is_some_and(|left| left.t == stamp.t)
            })
        });
        if !lifted_now {
            return Vec::new();
        }
        let arrived = self
            .evidence
            .arrived_at(stamp, self.evidence.is_event_board());
        (0..self.lines.len())
            .filter(|&i| found.iter().all(|(j, _)| *j != i))
            .filter(|&i| (self.lines[i].unseen & arrived).any())
            .map(|i| self.lines[i].clone())
            .collect()
    }

    /// Lines kept behind the likeliest ones.
    fn keep_behind(&mut self, behind: Vec<Line>) {
        if behind.is_empty() {
            return;
        }
        self.lines.extend(behind);
        self.dedupe_lines();
        self.lines.truncate(MAX_LINES);
    }

    fn advance_cheapest(&mut self, mut found: Vec<(usize, Explanation)>, stamp: Stamp) -> bool {
        let Some(min) = found.iter().map(|(_, e)| e.cost).min() else {
            return false;
        };
        found.retain(|(_, e)| e.cost == min);
        self.advance(found, stamp);
        true
    }

    /// The board matches some lines as they stand (`matching`), and a piece was just set
    /// down where a line behind them has none (by a place event; on a board without events,
    /// read on a square where the first line holds a piece unseen): that line reads the board
    /// only with a move of its own, a piece it cannot see (a dead sensor's, an unseen one)
    /// carried there. It plays that move where it stands, instead of skipping the reading:
    /// a line that had a queen on a dead c5, when the queen unseen on c1 reads there, plays
    /// c5-c1, and is not read as a c5 straightened when that queen moves on to c5 (a lift
    /// and a place the c5 story never had). Not on the first line, and only a single whole
    /// move (line noise flips a square for one reading).
    fn follow_the_board_behind(&mut self, matching: &[(usize, Explanation)], stamp: Stamp) {
        if self.expected.is_some() || matching.len() >= self.lines.len() {
            return;
        }
        // Without events, a square read filled where the first line holds a piece it could
        // not see (a rook taken as set down unseen on h6 beside a dead h5 that reads at last)
        // is no line noise: the line behind that had it on the dead square moves it there.
        let arrived = self
            .evidence
            .arrived_at(stamp, self.evidence.is_event_board());
        let placed = if self.evidence.is_event_board() {
            arrived
        } else {
            arrived & self.lines[0].current().occupancy
        };
        // The first line, which a line behind matches as it stands, plays a whole move the
        // board shows as well: a line kept for a piece unseen elsewhere is no reason to stop
        // the game (a stale line with the knight unseen on h6 matching 19. Nxd5).
        let placed_for = |i: usize| if i == 0 { arrived } else { placed };
        if arrived.is_empty() {
            return;
        }
        // Each line searched on its own blind squares only.
        let ctx = SearchContext {
            live: Bitboard::FULL,
            doubted: true,
            ..self.search_context()
        };
        let plays: Vec<(usize, Move)> = (0..self.lines.len())
            .filter(|&i| matching.iter().all(|(j, _)| *j != i))
            .filter_map(|i| {
                let stories = explain(&self.lines[i], &ctx);
                let [story] = stories.as_slice() else {
                    return None;
                };
                let &[m] = story.moves.as_slice() else {
                    return None;
                };
                let whole = story.undo == 0
                    && story.cost <= PLY
                    && story.unproven == 0
                    && story.out_of_order == 0;
                // The first line's piece must be seen leaving: one it has unseen, moving
                // on, may be the line behind's piece straightened.
                let seen_leaving = i > 0
                    || m.from()
                        .is_some_and(|from| !self.lines[0].blind().contains(from));
                (whole && seen_leaving && placed_for(i).contains(m.to())).then_some((i, m))
            })
            .collect();
        if plays.is_empty() {
            return;
        }
        for (i, m) in plays {
            self.lines[i].apply(0, &[m], stamp);
        }
        self.dedupe_lines();
        self.report_moves();
    }

    /// Whether each move the story sets down on a square it newly cannot see was let go
    /// before the next move's piece left: that one left a hand's carry later at the least,
    /// not in the same moment (a slide passing by a piece it knocked).
    fn let_go_before_the_next(&self, line: usize, e: &Explanation) -> bool {
        let line = &self.lines[line];
        let since = line.nodes[line.ply_count().saturating_sub(e.undo)].since;
        let left = |m: &Move| {
            m.from()
                .and_then(|from| self.evidence.last_departure(from, since))
        };
        let blinded = e.newly_dead | e.newly_unseen;
        e.moves.windows(2).all(|pair| {
            if (moves::footprint(pair[0]).landing() & blinded).is_empty() {
                return true;
            }
            match (left(&pair[0]), left(&pair[1])) {
                (Some(blind), Some(next)) => next.t >= blind.t + LET_GO_MS,
                _ => false,
            }
        })
    }

    /// A move `finished` beside the other player's piece in the air; but the mover lifted a
    /// piece before that one went up, and its square was filled by the reply: the first
    /// piece was set down unseen, the other player replied onto its square, and this is the
    /// mover's next move (7. Bh4 off-centre, 7... g5, 8. g4 is no 7. g4 beside a g6
    /// pawn held since before White moved). The stories proven so come first, the move
    /// beside a piece in the air stays behind. False if there is none.
    fn unseen_landing_before_the_reply(
        &mut self,
        finished: &[(usize, Explanation)],
        in_progress: Option<u32>,
        stamp: Stamp,
    ) -> bool {
        if !self.mover_lifted_twice_around_a_reply() {
            return false;
        }
        let stories = self.unseen_piece_stories(in_progress);
        if stories.is_empty() {
            return false;
        }
        let behind: Vec<Line> = finished
            .iter()
            .map(|(i, e)| self.advanced(*i, e.clone(), stamp).2)
            .collect();
        self.advance_cheapest_keeping_a_ply_dearer(stories, stamp);
        self.keep_behind(behind);
        true
    }

    /// Since the last move the side to move has lifted two pieces and the other side one, as
    /// an unseen landing, its reply and the next move would: a cheap look before a search.
    /// A piece of the side to move that the line cannot see (set down unseen before, or on
    /// a dead sensor) moves on with no lift to show: a square filled that the position has
    /// empty may be its landing, and counts as its lift.
    fn mover_lifted_twice_around_a_reply(&self) -> bool {
        let line = &self.lines[0];
        let current = line.current();
        let lifted = self.evidence.departed_since(current.since);
        let position = &current.position;
        let blind_mover = !(line.blind() & position.us() & current.occupancy).is_empty()
            && !self.view().extra(current.occupancy).is_empty();
        (lifted & position.us()).count() + usize::from(blind_mover) >= 2
            && !(lifted & position.them()).is_empty()
    }

    /// Over a board read as two hands at once (`rival`, that reading's cost): a story on line
    /// `line` of the unseen landing on `square`, the reply, and the same player's next move,
    /// whose piece left after the reply's landed: the hand that held the first piece was
    /// free again. Or the same player straightened a piece the line has unseen after the
    /// reply landed (a rook set down off-centre on f7, read as it is centred): free too.
    fn proven_by_the_next_move(
        &self,
        line: usize,
        e: &Explanation,
        square: Square,
        rival: u32,
    ) -> bool {
        let line = &self.lines[line];
        let since = line.current().since;
        let (first, reply, free_again) = match e.moves.as_slice() {
            [first, reply, next] => {
                // A next move whose piece left a square the line cannot see (one set down
                // unseen earlier and now moved on, a dead sensor's) shows no lift: it left
                // before it landed, and a landing after the reply's is the hand free again.
                let left = next.from().and_then(|from| {
                    let seen_leaving = self.evidence.last_departure(from, since);
                    if seen_leaving.is_some() || !line.blind().contains(from) {
                        return seen_leaving;
                    }
                    moves::footprint(*next)
                        .filled
                        .into_iter()
                        .filter_map(|sq| self.evidence.last_arrival(sq, since))
                        .max()
                });
                (first, reply, left)
            }
            [first, reply] => {
                let mover = line.current().position.turn();
                let straightened =
                    (line.unseen & self.sensed & line.current().position.board().by_color(mover))
                        .into_iter()
                        .filter_map(|sq| self.evidence.last_arrival(sq, since))
                        .max();
                (first, reply, straightened)
            }
            _ => return false,
        };
        let landed = moves::footprint(*reply)
            .filled
            .into_iter()
            .filter_map(|sq| self.evidence.last_arrival(sq, since))
            .max();
        // Every square a hand left is the story's, or has its piece back (straightened).
        let touched = e
            .moves
            .iter()
            .fold(Bitboard::EMPTY, |all, &m| all | touched_squares(m));
        // (A square that held no piece was only passed over, or flickered.)
        let held = line.current().occupancy;
        let left_empty = self.evidence.departed_since(since) & !self.sensed & !touched & held;
        e.undo == 0
            && moves::footprint(*first).landing().contains(square)
            && e.unproven == 0
            && left_empty.is_empty()
            && e.cost <= rival + search::REVISION_COST
            && matches!((landed, free_again), (Some(landed), Some(free)) if free.t > landed.t)
    }

    /// Tells listeners of the pieces the most likely line has unseen, and of those seen again.
    fn report_unseen_pieces(&mut self) {
        if self.quiet {
            return;
        }
        let unseen = self.lines[0].unseen;
        let position = self.lines[0].current().position.clone();
        let told = self.reported_unseen_squares();
        // Still standing there, and read: seen (one that moved on, or that a revision put
        // elsewhere, is simply gone).
        let newly_seen: Vec<Square> = self
            .reported_unseen
            .iter()
            .filter(|&&(square, piece)| {
                !unseen.contains(square) && position.board().piece_at(square) == Some(piece)
            })
            .map(|&(square, _)| square)
            .collect();
        self.reported_unseen = unseen
            .into_iter()
            .filter_map(|square| Some((square, position.board().piece_at(square)?)))
            .collect();
        for square in newly_seen {
            self.emit(EventKind::Seen { square });
        }
        for (square, piece) in self.reported_unseen.clone() {
            if !told.contains(square) {
                self.emit(EventKind::Unseen { square, piece });
            }
        }
    }

    /// The squares of the unseen pieces listeners were told of.
    fn reported_unseen_squares(&self) -> Bitboard {
        self.reported_unseen
            .iter()
            .map(|&(square, _)| square)
            .collect()
    }

    /// Tells listeners of the dead sensors every line has found, once the game has gone on
    /// a few plies with them still blamed: a sensor that only some of the stories blame is
    /// a guess among them, and a piece set down off-centre is soon straightened or moved
    /// on, where a dead sensor stays.
    fn report_dead_sensors(&mut self) {
        let agreed = self
            .lines
            .iter()
            .map(|line| line.dead)
            .reduce(|all, dead| all & dead)
            .unwrap_or(Bitboard::EMPTY)
            // Only a sensor that never changed is told dead.
            & self.steady;
        let ply = self.lines[0].ply_count();
        let blamed_at = match self.blamed_dead {
            // (A new game counts its plies afresh.)
            Some((squares, at)) if squares == agreed && at <= ply => at,
            _ => {
                self.blamed_dead = Some((agreed, ply));
                ply
            }
        };
        if ply < blamed_at + DEAD_REPORTED_AFTER_PLIES {
            return;
        }
        let new = agreed & !self.reported_dead;
        self.reported_dead |= new;
        for square in new {
            self.emit(EventKind::DeadSensor {
                square,
                stuck_occupied: self.sensed.contains(square),
            });
        }
    }

    /// Whether the board shows a new game: the start position, or (a polled board may read
    /// only after the first moves) the start with a ply or two played. Returns those plies.
    fn new_game_explains(&self) -> Option<Vec<Move>> {
        let view = self.view();
        if view.matches(START_OCCUPANCY) {
            return Some(Vec::new());
        }
        if (view.missing(START_OCCUPANCY) | view.extra(START_OCCUPANCY)).count() > 4 {
            return None;
        }
        let fresh = Line::new(self.new_game_start(), self.now);
        let ctx = SearchContext {
            promotion: Role::Queen,
            ..self.search_context()
        };
        let found = explain(&fresh, &ctx);
        match found.as_slice() {
            [only] if only.undo == 0 && only.moves.len() <= 2 => Some(only.moves.clone()),
            _ => None,
        }
    }

    /// What a search reads the board by: the sensors the likeliest line believes, the
    /// evidence, the promotion piece chosen; nothing taken for granted.
    fn search_context(&self) -> SearchContext<'_> {
        SearchContext {
            sensed: self.sensed,
            live: self.view().live,
            evidence: &self.evidence,
            promotion: self.pending_promotion(),
            accept_unproven_last: false,
            left_and_refilled: Bitboard::EMPTY,
            doubted: false,
            unseen: Bitboard::EMPTY,
            moves: None,
            set_down_unseen: Bitboard::EMPTY,
            steady: self.steady,
        }
    }

    /// The cheapest explanations over all lines, each with the index of its line.
    fn explanations(&self, accept_unproven_last: bool) -> Vec<(usize, Explanation)> {
        self.explanations_seeing(Bitboard::FULL, accept_unproven_last)
    }

    /// The cheapest explanations when only the sensors of `live` (and those each line
    /// believes) are believed.
    fn explanations_seeing(
        &self,
        live: Bitboard,
        accept_unproven_last: bool,
    ) -> Vec<(usize, Explanation)> {
        self.explanations_moving_from(live, accept_unproven_last, Bitboard::EMPTY, false, false)
    }

    /// The same, where a story may also move pieces from `left_and_refilled`; on the
    /// likeliest line only if `likeliest_only`; with `repeated`, one of many searches of
    /// the same positions (keeping their moves).
    fn explanations_moving_from(
        &self,
        live: Bitboard,
        accept_unproven_last: bool,
        left_and_refilled: Bitboard,
        likeliest_only: bool,
        repeated: bool,
    ) -> Vec<(usize, Explanation)> {
        let ctx = SearchContext {
            live,
            accept_unproven_last,
            left_and_refilled,
            moves: repeated.then_some(&self.move_cache),
            ..self.search_context()
        };
        let lines = if likeliest_only { 1 } else { self.lines.len() };
        let mut found: Vec<(usize, Explanation)> = self.lines[..lines]
            .iter()
            .enumerate()
            .flat_map(|(i, line)| {
                // Only a piece this line alone has unseen is doubtful ground.
                let ctx = SearchContext {
                    doubted: i > 0,
                    unseen: self.lines[0].unseen,
                    ..ctx
                };
                explain(line, &ctx).into_iter().map(move |e| (i, e))
            })
            .collect();
        if let Some((ply, expected)) = self.expected {
            // Only the expected move may be that ply: another is refused, and said to be.
            found.retain(|(i, e)| {
                let kept = self.lines[*i].ply_count().saturating_sub(e.undo);
                match ply.checked_sub(kept).and_then(|k| e.moves.get(k)) {
                    Some(&mv) if mv != expected => {
                        self.refused.set(Some(mv));
                        false
                    }
                    _ => true,
                }
            });
        }
        if let Some(min) = found.iter().map(|(_, e)| e.cost).min() {
            found.retain(|(_, e)| e.cost == min);
        }
        let newest = found.iter().map(|(_, e)| e.latest_proof).max().flatten();
        if newest.is_some() {
            found.retain(|(_, e)| e.latest_proof == newest);
        }
        found
    }

    fn advance(&mut self, found: Vec<(usize, Explanation)>, stamp: Stamp) {
        self.released = None;
        let cost = found.first().map_or(0, |(_, e)| e.cost);
        self.spent = self.spent.saturating_add(cost);
        // A piece the line cannot see told moving on by a square filled at this very
        // reading alone may be a flicker there: the lines as they were are kept aside, to be
        // returned to if the square empties again soon. (A board with events says when a
        // piece is set down.)
        let fresh = match found.first() {
            Some((i, e)) if !self.evidence.is_event_board() => {
                self.blind_landing_on_this_reading(&self.lines[*i], e, stamp)
            }
            _ => Bitboard::EMPTY,
        };
        self.before_a_flicker = fresh.any().then(|| (fresh, stamp, self.lines.clone()));
        // The likeliest line, if the story drops it, stays last: the reading that refuted
        // it may pass (a piece knocked over and set back: 4... exd5 guessed, d5 read empty
        // a second beside 6... c6, guessed as another line's 7. dxc6, then set back).
        let dropped = found
            .iter()
            .all(|(i, _)| *i != 0)
            .then(|| self.lines[0].refuted_copy());
        let mut next: Vec<(bool, i32, Line)> = found
            .into_iter()
            .map(|(i, e)| self.advanced(i, e, stamp))
            .collect();
        // Stable: among equals, the order of the old lines (most likely first) stays.
        next.sort_by_key(|(proven_blind, plausibility, _)| {
            (!*proven_blind, std::cmp::Reverse(*plausibility))
        });
        self.lines = next.into_iter().map(|(_, _, line)| line).collect();
        self.lines.extend(dropped);
        self.dedupe_lines();
        self.lines.truncate(MAX_LINES);
        let promoted = self.lines[0]
            .current()
            .last_move
            .and_then(moves::promotion_role)
            .is_some();
        if promoted {
            self.pending_promotion = None;
        }
        self.set_status(BoardStatus::Settled);
        self.report_moves();
        self.forget_old_evidence();
    }

    /// The squares `e` moves a piece `line` cannot see onto that were read filled first at
    /// `stamp`, the reading now.
    fn blind_landing_on_this_reading(
        &self,
        line: &Line,
        e: &Explanation,
        stamp: Stamp,
    ) -> Bitboard {
        let kept = line.nodes.len().saturating_sub(e.undo).max(1);
        let blind = line.blind() & line.nodes[kept - 1].occupancy;
        e.moves
            .iter()
            .filter(|m| m.from().is_some_and(|from| blind.contains(from)))
            .flat_map(|&m| moves::footprint(m).filled & self.sensed)
            .filter(|&square| {
                self.evidence
                    .last_arrival(square, Stamp::default())
                    .is_some_and(|arrival| arrival == stamp)
            })
            .collect()
    }

    /// Line `i` advanced on `e`; with whether it proves a square blind, and how plausible it
    /// is.
    fn advanced(&self, i: usize, e: Explanation, stamp: Stamp) -> (bool, i32, Line) {
        let mut advanced = self.lines[i].clone();
        advanced.refuted = false;
        let stood_on = self.never_read_under_a_piece(&advanced, e.undo, e.newly_unseen);
        // A square taken for blind where a piece already stood unread is a sensor
        // proven stuck: that story goes before stories blaming a square with no
        // such past.
        let proven_blind = !self
            .never_read_under_a_piece(&advanced, e.undo, e.newly_unseen | e.newly_dead)
            .is_empty();
        // So is one where a move comes down on a piece the line has unseen there.
        let landed_on_unseen = e.moves.iter().fold(Bitboard::EMPTY, |all, &m| {
            all | moves::footprint(m).landing()
        }) & advanced.unseen
            & self.steady
            & !self.sensed;
        let stood_on = stood_on | landed_on_unseen;
        advanced.dead |= e.newly_dead | stood_on;
        advanced.unseen &= !stood_on;
        advanced.unseen |= e.newly_unseen & !stood_on;
        advanced.apply(e.undo, &e.moves, stamp);
        // A capture no sensor proved is a guess, however it was decided: a repair may find
        // its piece set down unseen on a quiet square instead.
        let first = advanced.nodes.len() - e.moves.len();
        for (j, node) in advanced.nodes[first..].iter_mut().enumerate() {
            node.was_guessed |= e.unproven_at(j);
        }
        if let Some(node) = advanced.nodes.last_mut() {
            node.plausibility -= e.doubt;
        }
        // A square taken for dead that has read since (kept blind while a piece
        // was in the hand) is believed again where the line now agrees with it:
        // its piece was only unseen.
        advanced.dead &= self.steady | (self.sensed ^ advanced.current().occupancy);
        advanced.unseen &= self.steady | !self.sensed;
        (proven_blind, advanced.current().plausibility, advanced)
    }

    /// Of `squares`, those whose sensor has never changed though the line, before its last
    /// `undo` plies, had a piece standing there: a second piece set down there unseen is
    /// a sensor stuck empty, not another piece off-centre.
    fn never_read_under_a_piece(&self, line: &Line, undo: usize, squares: Bitboard) -> Bitboard {
        let candidates = squares & self.steady;
        if candidates.is_empty() {
            return Bitboard::EMPTY;
        }
        let kept = line.nodes.len().saturating_sub(undo);
        line.occupied_over(0..kept) & candidates
    }

    /// Lines that reach the same position (transposed move orders too) have the same future,
    /// so later moves could never tell them apart: keep the most likely.
    fn dedupe_lines(&mut self) {
        let mut seen: Vec<Chess> = Vec::new();
        self.lines.retain(|line| {
            let position = &line.current().position;
            if seen.contains(position) {
                false
            } else {
                seen.push(position.clone());
                true
            }
        });
    }

    fn forget_old_evidence(&mut self) {
        let oldest_base = self
            .lines
            .iter()
            .map(|l| l.nodes[l.ply_count().saturating_sub(l.plies_open())].since)
            .min();
        let first = &self.lines[0];
        let kept_from = first.nodes[first.ply_count().saturating_sub(catch_up::DEEPEST_BACK)].since;
        if let Some(stamp) = oldest_base {
            self.evidence.forget_before(stamp, kept_from.min(stamp));
        }
    }

    fn start_game(&mut self, start: Chess) {
        self.forget_what_noise_may_undo();
        self.archive_current_game();
        self.lines = vec![Line::new(start.clone(), self.now)];
        self.reported_moves.clear();
        self.reported_ambiguity = None;
        self.awaiting = None;
        self.pending_promotion = None;
        self.emit(EventKind::NewGame {
            fen: fen_of(&start),
        });
        self.set_status(BoardStatus::Settled);
    }

    /// The board shows the position it was set up for: the line prepared for it begins
    /// (with the moves of a continued game).
    fn begin_awaited_game(&mut self) {
        self.awaiting = None;
        self.pending_promotion = None;
        self.settled_at = self.now;
        let fen = fen_of(self.lines[0].start());
        self.emit(EventKind::NewGame { fen });
        self.set_status(BoardStatus::Settled);
        self.report_moves();
    }

    fn archive_current_game(&mut self) {
        if self.awaiting.is_none() && self.lines[0].ply_count() > 0 {
            self.lines.truncate(1);
            self.finished.push(Arc::new(self.game()));
        }
    }

    fn promote(&mut self, role: Role, t: Millis) {
        self.now.t = t;
        let last_is_promotion = self.lines[0]
            .current()
            .last_move
            .and_then(moves::promotion_role)
            .is_some();
        if self.awaiting.is_none() && last_is_promotion {
            for line in &mut self.lines {
                line.repromote_last(role);
            }
            self.pending_promotion = None;
            self.report_moves();
        } else {
            self.pending_promotion = Some(role);
        }
    }

    /// The board differs from the position and no story explains it yet.
    fn show_unfinished(&mut self, in_progress: bool) {
        let expected = self.lines[0].current().occupancy;
        let missing = self.view().missing(expected);
        let extra = self.view().extra(expected);
        let status = if missing.is_empty() && extra.is_empty() {
            BoardStatus::Settled
        } else if in_progress {
            BoardStatus::Waiting {
                lifted: missing,
                placed: extra,
            }
        } else {
            BoardStatus::Illegal {
                put_back: missing,
                remove: extra,
            }
        };
        self.set_status(status);
    }

    /// What the stories decided since the read began cost, with what the board as it
    /// stands still costs: a move left in progress costs a ply more when it lands.
    fn story_cost(&self) -> u32 {
        let unfinished = match self.read_status {
            BoardStatus::Waiting { .. } => PLY,
            _ => 0,
        };
        self.spent
            .saturating_add(self.open_cost())
            .saturating_add(unfinished)
    }

    /// What the board as it stands still costs to explain: a move in progress, or (an
    /// illegal board) more than any story.
    fn open_cost(&self) -> u32 {
        match self.read_status {
            BoardStatus::Settled => 0,
            BoardStatus::Waiting { .. } => self
                .lines
                .iter()
                .filter_map(|line| {
                    in_progress_cost(line, self.view(), &self.evidence, self.settled_at)
                })
                .min()
                .unwrap_or(search::IN_PROGRESS),
            BoardStatus::Illegal { .. } => u32::MAX,
        }
    }

    fn refresh_status(&mut self) {
        let in_progress =
            in_progress_cost(&self.lines[0], self.view(), &self.evidence, self.settled_at);
        self.show_unfinished(in_progress.is_some());
    }

    fn set_status(&mut self, status: BoardStatus) {
        if matches!(status, BoardStatus::Illegal { .. }) {
            self.illegal_since.get_or_insert(self.now.t);
        } else {
            self.illegal_since = None;
        }
        self.read_status = status;
        if !self.quiet {
            self.tell_status();
        }
    }

    /// Tells an illegal board not told yet if it has read wrong for `ALARM_AFTER_MS` by `t`,
    /// at the time it had.
    fn tell_lasting_alarm(&mut self, t: Millis) {
        let Some(lasting) = self.alarm_due().filter(|&due| due <= t) else {
            return;
        };
        if self.quiet {
            return;
        }
        let read_at = self.now.t;
        self.now.t = lasting.max(read_at);
        self.tell_status_now();
        self.now.t = read_at;
    }

    /// Tells the status now, an illegal board too: after a user's command (a correction, a
    /// takeback), for a whole move not the engine's, or while the board is set up, the board
    /// is wrong for the player to change, not a hand passing.
    fn tell_status_at_once(&mut self) {
        if !self.quiet {
            self.tell_status_now();
        }
    }

    /// Tells listeners how the board's status changed since they were last told; an
    /// illegal board only once it has read wrong a while.
    fn tell_status(&mut self) {
        let told_illegal = matches!(self.status, BoardStatus::Illegal { .. });
        if !told_illegal && self.alarm_due().is_some_and(|due| self.now.t < due) {
            return;
        }
        self.tell_status_now();
    }

    /// When an illegal board read now is to be told: once it has read wrong a while.
    fn alarm_due(&self) -> Option<Millis> {
        let since = self.illegal_since?;
        // A piece appearing, nothing missing, where a piece the line has unseen may stand
        // instead: straightened on its true square, which a repair reads once it has stood
        // a still second. The alarm waits for it.
        let wait = match &self.read_status {
            BoardStatus::Illegal { put_back, remove }
                if put_back.is_empty() && self.unseen_piece_may_stand_on(*remove) =>
            {
                self.config.still_ms + ALARM_AFTER_MS
            }
            _ => ALARM_AFTER_MS,
        };
        Some(since.saturating_add(wait))
    }

    /// Whether every one of `squares` is one where a piece the likeliest line has unseen,
    /// untouched since it was set down, could have come down instead.
    fn unseen_piece_may_stand_on(&self, squares: Bitboard) -> bool {
        let line = &self.lines[0];
        if squares.is_empty() || line.unseen.is_empty() {
            return false;
        }
        let played = line.moves();
        let mut instead = Bitboard::EMPTY;
        for (ply, &m) in played.iter().enumerate().rev() {
            if !line.still_unseen_where_set_down(ply) {
                continue;
            }
            instead |= line.nodes[ply]
                .legal_moves()
                .iter()
                .filter(|(other, _)| other.from() == m.from() && *other != m)
                .fold(Bitboard::EMPTY, |all, (other, _)| all.with(other.to()));
            if (squares & !instead).is_empty() {
                return true;
            }
        }
        false
    }

    /// Tells listeners how the board's status changed since they were last told.
    fn tell_status_now(&mut self) {
        if self.read_status == self.status {
            return;
        }
        let was_illegal = matches!(self.status, BoardStatus::Illegal { .. });
        self.status = self.read_status.clone();
        match self.read_status.clone() {
            BoardStatus::Waiting { lifted, placed } => {
                if was_illegal {
                    self.emit(EventKind::Recovered);
                }
                self.emit(EventKind::Waiting { lifted, placed });
            }
            BoardStatus::Illegal { put_back, remove } => {
                self.tell_wrong_move();
                self.emit(EventKind::Illegal { put_back, remove })
            }
            BoardStatus::Settled => {
                if was_illegal {
                    self.emit(EventKind::Recovered);
                }
            }
        }
    }

    /// Whether `m` may be the next ply: any move, unless the engine's is awaited there.
    fn allows(&self, m: Move) -> bool {
        let allowed = self.expected_allows(&self.lines[0], m);
        if !allowed {
            self.refused.set(Some(m));
        }
        allowed
    }

    /// Whether `m` may be the next ply of `line`: any move, unless the engine's is awaited
    /// there.
    fn expected_allows(&self, line: &Line, m: Move) -> bool {
        self.expected
            .is_none_or(|(ply, expected)| ply != line.ply_count() || m == expected)
    }

    /// A move the expected one ruled out, once, as the board turns illegal for it.
    fn tell_wrong_move(&mut self) {
        let (Some(played), Some((ply, expected))) = (self.refused.take(), self.expected) else {
            return;
        };
        if self.reported_wrong != Some(played) {
            self.reported_wrong = Some(played);
            self.emit(EventKind::WrongMove {
                ply: ply + 1,
                played,
                expected,
            });
        }
    }

    /// Tells listeners how the most likely line differs from what they were told.
    fn report_moves(&mut self) {
        if self.quiet {
            return;
        }
        self.report_dead_sensors();
        self.report_unseen_pieces();
        let line = &self.lines[0];
        let moves = line.moves();
        let common = self
            .reported_moves
            .iter()
            .zip(&moves)
            .take_while(|(a, b)| a == b)
            .count();
        let mut kinds = Vec::new();
        let overlap = self.reported_moves.len().min(moves.len());
        for i in (common..overlap).filter(|&i| self.reported_moves[i] != moves[i]) {
            kinds.push(EventKind::Revised {
                ply: i + 1,
                old: self.reported_moves[i],
                new: moves[i],
                san: SanPlus::from_move(line.nodes[i].position.clone(), moves[i]),
            });
        }
        for i in (moves.len()..self.reported_moves.len()).rev() {
            kinds.push(EventKind::TakenBack {
                ply: i + 1,
                mv: self.reported_moves[i],
            });
        }
        for (i, &mv) in moves.iter().enumerate().skip(self.reported_moves.len()) {
            kinds.push(EventKind::Move {
                ply: i + 1,
                mv,
                san: SanPlus::from_move(line.nodes[i].position.clone(), mv),
            });
        }
        if let Some((ply, mv)) = self.expected
            && (moves.get(ply) == Some(&mv) || moves.len() < ply)
        {
            self.expected = None;
            self.reported_wrong = None;
        }
        self.reported_moves = moves;
        let ambiguity = self.current_ambiguity();
        if ambiguity != self.reported_ambiguity {
            if let Some((ply, candidates)) = &ambiguity {
                kinds.push(EventKind::Ambiguous {
                    ply: *ply,
                    candidates: candidates.clone(),
                });
            }
            self.reported_ambiguity = ambiguity;
        }
        for kind in kinds {
            self.emit(kind);
        }
    }

    /// The first ply on which the lines disagree, and what they say it was.
    fn current_ambiguity(&self) -> Option<(usize, Vec<Move>)> {
        if self.lines.len() < 2 {
            return None;
        }
        let all: Vec<Vec<Move>> = self
            .lines
            .iter()
            .enumerate()
            .filter(|(i, line)| *i == 0 || !line.refuted)
            .map(|(_, line)| line.moves())
            .collect();
        if all.len() < 2 {
            return None;
        }
        let longest = all.iter().map(Vec::len).max().unwrap_or(0);
        let ply = (0..longest).find(|&i| all.iter().any(|m| m.get(i) != all[0].get(i)))?;
        // A piece other than a pawn kept behind a capture as set down unseen is no choice to
        // offer, among a dozen squares of its reach, while the capture is the likeliest.
        let behind_a_capture = all[0].get(ply).is_some_and(|m| m.is_capture());
        let offered = |m: &Move| !behind_a_capture || m.role() == Role::Pawn || m.is_capture();
        let mut candidates: Vec<Move> = Vec::new();
        for (i, moves) in all.iter().enumerate() {
            if let Some(&m) = moves.get(ply)
                && (i == 0 || offered(&m))
                && !candidates.contains(&m)
            {
                candidates.push(m);
            }
        }
        Some((ply + 1, candidates))
    }

    fn emit(&mut self, kind: EventKind) {
        self.events.push(Event {
            t: self.now.t,
            kind,
        });
    }
}

/// Whether a hand could carry `piece` from `from` to `to` as a move: its reach on an empty
/// board, a pawn's pushes and captures, a king anywhere along its rank (castling, in
/// Chess960 too). Generous on purpose: it only rules a line out.
fn may_carry(piece: Piece, from: Square, to: Square) -> bool {
    if from == to {
        return false;
    }
    match piece.role {
        Role::Pawn => {
            let ahead = match piece.color {
                Color::White => to.rank() > from.rank(),
                Color::Black => to.rank() < from.rank(),
            };
            shakmaty::attacks::pawn_attacks(piece.color, from).contains(to)
                || (ahead && to.file() == from.file() && to.rank().distance(from.rank()) <= 2)
        }
        Role::King => {
            to.rank() == from.rank() || shakmaty::attacks::king_attacks(from).contains(to)
        }
        _ => shakmaty::attacks::attacks(from, piece, Bitboard::EMPTY).contains(to),
    }
}

/// The squares of `targets` that a piece of `line` could have been carried to: one in the
/// hand (where `occupied_now` reads none; set down as a move or beside its square) or, with
/// `unseen_too`, one the line cannot see, moving on with no lift.
fn carried_to(
    line: &Line,
    occupied_now: Bitboard,
    targets: Bitboard,
    unseen_too: bool,
) -> Bitboard {
    let current = line.current();
    let board = current.position.board();
    let in_hand = current.occupancy & !occupied_now & !line.blind();
    let unseen = if unseen_too {
        current.occupancy & line.blind()
    } else {
        Bitboard::EMPTY
    };
    let carried = |from: Square, to: Square, beside: bool| {
        board.piece_at(from).is_some_and(|piece| {
            may_carry(piece, from, to)
                || (beside && shakmaty::attacks::king_attacks(from).contains(to))
        })
    };
    targets
        .into_iter()
        .filter(|&to| {
            in_hand.into_iter().any(|from| carried(from, to, true))
                || unseen.into_iter().any(|from| carried(from, to, false))
        })
        .collect()
}

/// Why a square's reading is not believed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Blind {
    /// Its sensor is broken.
    Dead,
    /// A piece stands there off-centre, unseen.
    Unseen,
}

impl Default for Recognizer {
    fn default() -> Self {
        Self::new(Config::default())
    }
}

impl Recognizer {
    /// How this recognizer reads the board.
    pub fn config(&self) -> &Config {
        &self.config
    }
}
