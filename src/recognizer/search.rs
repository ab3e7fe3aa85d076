//! Finds the cheapest ways a line explains what the board senses now: moves forward,
//! a revised last move, or a return to an earlier position.

use shakmaty::attacks::king_attacks;
use shakmaty::{Bitboard, Color, Move, Position, Role, Square};

use super::evidence::{Evidence, PASSING_MS, STRADDLE_MS, Stamp};

/// How far apart a polled board may stamp two changes made together, at the least: one
/// poll (a Centaur is polled every 75 ms; a change just before a poll and one just after it
/// are a poll apart), with room for a late poll. A board polled more slowly is allowed its
/// interval (`Evidence::poll_skew`).
pub const POLL_SKEW_MS: crate::reading::Millis = 100;
use super::line::{Line, Node};
use super::move_cache::MoveCache;
use super::moves::{footprint, may_straddle, promotion_role, slide_way, touched_squares};

/// Costs, in tenths of a ply: shorter stories win, proven captures beat unproven ones.
pub const PLY: u32 = 10;
const REVISION: u32 = 5;
/// A revision's cost, for margins elsewhere.
pub const REVISION_COST: u32 = REVISION;
const TAKEBACK: u32 = 2;
/// A capture no sensor saw, followed by a ply, must be dearer than reading the same board
/// as one move with the other player's hand on a piece (`SECOND_HAND`).
const UNPROVEN_CAPTURE: u32 = 8;
/// A landing on a square whose sensor is dead is unseen by nature: likelier than a capture
/// no sensor saw.
pub const UNSEEN_LANDING: u32 = 3;
/// A capture seen landing on a piece the line has unseen, never seen taken off: the piece
/// may have stood elsewhere, so behind a line with the quiet landing, whatever it takes.
const TAKES_A_PIECE_UNSEEN: i32 = 20;
/// A move whose piece left before the previous move's piece did is against the order of
/// play: a story that needs it costs about a ply more (a hidden move before it is likelier).
const OUT_OF_ORDER: u32 = 11;
/// The longest a scanning board streaming its changes leaves between two readings while a
/// hand is moving pieces: a scan or two.
const STREAMED_SCAN_MS: crate::reading::Millis = 60;
/// The most plies searched between two readings.
const MAX_PLIES: usize = 3;
/// More changed squares than this cannot come from `MAX_PLIES` moves.
const MAX_CHANGED: u32 = 8;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Explanation {
    /// Plies taken off the end of the line first.
    pub undo: usize,
    /// Then these moves are played.
    pub moves: Vec<Move>,
    pub cost: u32,
    /// The latest observation that proves one of its captures (newer proof wins ties).
    pub latest_proof: Option<Stamp>,
    /// How many captures the sensors could not prove.
    pub unproven: u32,
    /// Which of `moves` (bit `j` for `moves[j]`) are those captures: guesses, as a capture
    /// guessed from a still board is.
    pub unproven_moves: u8,
    /// Sensors this story takes to be dead, beyond those its line already does.
    pub newly_dead: Bitboard,
    /// Squares where this story has a piece its sensor does not see (set down off-centre).
    pub newly_unseen: Bitboard,
    /// Moves whose piece left before the previous move's piece did.
    pub out_of_order: u32,
    /// Squares the sensors saw a hand lift from that none of its moves touches.
    pub untouched: u32,
    /// Less plausible than the stories beside it by this much, whatever its moves.
    pub doubt: i32,
}

impl Explanation {
    /// Whether `moves[j]` is a capture no sensor proved.
    pub fn unproven_at(&self, j: usize) -> bool {
        u32::try_from(j)
            .ok()
            .and_then(|j| self.unproven_moves.checked_shr(j))
            .is_some_and(|bits| bits & 1 == 1)
    }
}

// `Explanation::unproven_moves` holds a bit per ply searched.
const _: () = assert!(MAX_PLIES <= u8::BITS as usize);

#[derive(Clone, Copy)]
pub struct SearchContext<'a> {
    pub sensed: Bitboard,
    /// Squares whose sensors work; a dead sensor's square can be anything a story says.
    pub live: Bitboard,
    pub evidence: &'a Evidence,
    pub promotion: Role,
    /// At the end of a session a piece that never came down again is taken as a capture.
    pub accept_unproven_last: bool,
    /// Squares a story may move a piece from though they read occupied now: the sensors saw
    /// them left, and another piece may have landed there since.
    pub left_and_refilled: Bitboard,
    /// Whether the line searched is not the likeliest: a piece it alone has unseen is
    /// a doubtful ground for a capture no sensor saw.
    pub doubted: bool,
    /// Squares where a doubted line has a piece its sensor does not see and the likeliest
    /// line does not: set by `explain` (given, the likeliest line's unseen squares).
    pub unseen: Bitboard,
    /// Where to keep the legal moves of positions searched, for a search of many like it.
    pub moves: Option<&'a MoveCache>,
    /// Squares where the line searched has a piece set down unseen: set by `explain`.
    pub set_down_unseen: Bitboard,
    /// Squares whose sensor has never changed: any may be dead.
    pub steady: Bitboard,
}

impl SearchContext<'_> {
    /// Whether an occupancy is what the working sensors read.
    pub fn matches(&self, occupancy: Bitboard) -> bool {
        ((occupancy ^ self.sensed) & self.live).is_empty()
    }

    fn dead(&self) -> Bitboard {
        !self.live
    }

    /// Whether an occupancy differs from what the working sensors read on more than `n`
    /// squares.
    fn differs_on_more_than(&self, occupancy: Bitboard, n: usize) -> bool {
        ((occupancy ^ self.sensed) & self.live).count() > n
    }
}

/// All explanations of the cheapest cost (empty if there is none).
pub fn explain(line: &Line, ctx: &SearchContext) -> Vec<Explanation> {
    let ctx = &SearchContext {
        live: ctx.live & !line.blind(),
        unseen: if ctx.doubted {
            line.unseen & !ctx.unseen
        } else {
            Bitboard::EMPTY
        },
        left_and_refilled: ctx.left_and_refilled | taken_by_a_blind_piece(line, ctx.evidence),
        set_down_unseen: line.unseen,
        ..*ctx
    };
    let mut found = Vec::new();
    let n = line.ply_count();
    let current = line.current();
    if ctx.matches(current.occupancy) {
        return vec![Explanation::default()];
    }
    forward(current, ctx, 0, 0, None, &mut found);
    // A revision costs more than one ply forward: no need to look when that is found.
    let one_ply_found = found.iter().any(|e| e.cost <= PLY);
    // Plies the user pinned are neither revised nor taken back by what the sensors say.
    if n > line.pinned && !one_ply_found {
        let previous = &line.nodes[n - 1];
        // A ply guessed from a still board is no more than a guess: replacing it costs no
        // more than the ply that replaces it, and undoing it next to nothing.
        let (revision, guess_undone) = if current.guessed {
            (0, PLY)
        } else {
            (REVISION, 0)
        };
        forward(previous, ctx, 1, revision, current.last_move, &mut found);
        // Takebacks: the newest earlier position that matches.
        if let Some(k) = (line.pinned..n)
            .rev()
            .find(|&k| ctx.matches(line.nodes[k].occupancy))
        {
            let undo = n - k;
            found.push(Explanation {
                undo,
                cost: PLY * undo as u32 + TAKEBACK - guess_undone,
                ..Explanation::default()
            });
        }
    }
    cheapest(found)
}

/// Squares a piece of the side to move that the line cannot see (unseen, or on a dead
/// sensor) may have captured on since the line's position: an opponent's piece there, the
/// square read empty and filled again. Such a capture shows no lift, only its victim's
/// square touched, as an adjustment would; the reply tells them apart.
fn taken_by_a_blind_piece(line: &Line, evidence: &Evidence) -> Bitboard {
    let current = line.current();
    let position = &current.position;
    let capturers = position.us() & line.blind();
    if capturers.is_empty() {
        return Bitboard::EMPTY;
    }
    let reach = capturers.into_iter().fold(Bitboard::EMPTY, |all, from| {
        all | position.board().attacks_from(from)
    });
    (reach & position.them())
        .into_iter()
        .filter(|&square| {
            evidence
                .last_departure(square, current.since)
                .zip(evidence.last_arrival(square, current.since))
                .is_some_and(|(left, arrived)| arrived > left)
        })
        .collect()
}

fn cheapest(mut found: Vec<Explanation>) -> Vec<Explanation> {
    let Some(min) = found.iter().map(|e| e.cost).min() else {
        return found;
    };
    found.retain(|e| e.cost == min);
    // Of stories equally short, the one whose capture the hand made last is what happened.
    let newest = found.iter().map(|e| e.latest_proof).max().flatten();
    if newest.is_some() {
        found.retain(|e| e.latest_proof == newest);
    }
    // A Chess960 castling may leave the occupancy a rook move leaves (king f1, rook h1:
    // O-O or Rg1); a hand seen lifting the king tells them apart.
    let castles = |e: &Explanation| e.moves.iter().any(|m| m.is_castle());
    if found.len() > 1 && found.iter().any(castles) {
        let fewest = found.iter().map(|e| e.untouched).min().unwrap_or(0);
        found.retain(|e| e.untouched == fewest);
    }
    found.dedup();
    found
}

/// Sequences of moves from `base` that leave exactly the sensed occupancy.
fn forward(
    base: &Node,
    ctx: &SearchContext,
    undo: usize,
    extra_cost: u32,
    excluded_first: Option<Move>,
    found: &mut Vec<Explanation>,
) {
    let vacated = base.occupancy & !ctx.sensed & ctx.live;
    let filled = ctx.sensed & !base.occupancy & ctx.live;
    // Every move empties a square; only a dead sensor can hide that.
    let hidden_departure = !(base.occupancy & ctx.dead()).is_empty() && !filled.is_empty();
    if (vacated.is_empty() && !hidden_departure) || (vacated | filled).count() as u32 > MAX_CHANGED
    {
        return;
    }
    let max_plies = if undo > 0 { 2 } else { MAX_PLIES };
    let mut path = Vec::with_capacity(max_plies);
    let search = Search {
        ctx,
        vacated,
        filled,
        cannot_land: !ctx.sensed & ctx.live,
        cannot_fill: !(filled | ctx.left_and_refilled) & ctx.live,
        since: base.since,
        undo,
        extra_cost,
        excluded_first,
    };
    // The first ply uses the base node's cached moves; deeper plies generate their own.
    let origins = vacated | ctx.dead() | ctx.left_and_refilled;
    // (A story of two plies at most checks its first ply's landing too.)
    let checks_landing = max_plies < 3;
    for &(m, occupancy) in base.legal_moves() {
        if !may_leave(m, origins) || (checks_landing && !search.may_land(m)) {
            continue;
        }
        search.step(
            &base.position,
            m,
            occupancy,
            Bitboard::EMPTY,
            max_plies,
            &mut path,
            found,
        );
    }
}

/// The origin check at the top of `Search::step`, made before any footprint is computed: a
/// plain move's only vacated square is its origin.
fn may_leave(m: Move, origins: Bitboard) -> bool {
    match m {
        Move::Normal { from, .. } => origins.contains(from),
        _ => true,
    }
}

struct Search<'a, 'b> {
    ctx: &'a SearchContext<'b>,
    vacated: Bitboard,
    filled: Bitboard,
    /// Squares no ply but the first of three may land on: they read empty.
    cannot_land: Bitboard,
    /// Squares no such ply may fill: they did not fill (nor were left and refilled).
    cannot_fill: Bitboard,
    since: Stamp,
    undo: usize,
    extra_cost: u32,
    excluded_first: Option<Move>,
}

impl Search<'_, '_> {
    /// The landing checks `step` makes on every ply of a story but the first of three,
    /// made before any footprint is computed: a plain move lands on its destination, and
    /// fills it unless it captures there.
    fn may_land(&self, m: Move) -> bool {
        match m {
            Move::Normal { to, capture, .. } => {
                !self.cannot_land.contains(to)
                    && (capture.is_some() || !self.cannot_fill.contains(to))
            }
            _ => true,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn step(
        &self,
        position: &shakmaty::Chess,
        m: Move,
        occupancy: Bitboard,
        earlier_destinations: Bitboard,
        plies_left: usize,
        path: &mut Vec<Move>,
        found: &mut Vec<Explanation>,
    ) {
        if path.is_empty() && Some(m) == self.excluded_first {
            return;
        }
        if path.is_empty() && !self.moved_on_after_leaving(m) {
            return;
        }
        if promotion_role(m).is_some_and(|r| r != self.ctx.promotion) {
            return;
        }
        let print = footprint(m);
        // A moving piece leaves a square that ends empty, or one it reached earlier in the sequence.
        let origins = self.vacated | earlier_destinations | self.ctx.dead();
        if (print.vacated & (origins | self.ctx.left_and_refilled)).is_empty() {
            return;
        }
        // Where it lands must end occupied, unless a later ply can move it on.
        let lands = print.landing();
        if plies_left < 3 && (lands & self.cannot_land).any() {
            return;
        }
        if plies_left < 3 && (print.filled & self.cannot_fill).any() {
            return;
        }
        path.push(m);
        if self.ctx.matches(occupancy) {
            self.record(path, found);
        }
        let destinations = earlier_destinations | lands;
        // The next mover needs a piece on a square a story may move from.
        let next_origins =
            self.vacated | destinations | self.ctx.dead() | self.ctx.left_and_refilled;
        let next_mover_can_move = (position.them() & next_origins).any();
        // The last ply changes four squares at most (a castling), three without castling
        // rights (en passant).
        let last_changes_at_most = if position.castles().has_color(!position.turn()) {
            4
        } else {
            3
        };
        let last_can_mend = plies_left > 2
            || !self
                .ctx
                .differs_on_more_than(occupancy, last_changes_at_most);
        if plies_left > 1 && next_mover_can_move && last_can_mend {
            let mut next = position.clone();
            next.play_unchecked(m);
            // (The next step's first checks, made before it is called.)
            for &next_move in MoveCache::moves_of(self.ctx.moves, &next).iter() {
                if !may_leave(next_move, next_origins) || !self.may_land(next_move) {
                    continue;
                }
                let next_occupancy = super::moves::occupancy_after(occupancy, next_move);
                self.step(
                    &next,
                    next_move,
                    next_occupancy,
                    destinations,
                    plies_left - 1,
                    path,
                    found,
                );
            }
        }
        path.pop();
    }

    fn record(&self, path: &[Move], found: &mut Vec<Explanation>) {
        let mut unproven = 0;
        let mut unproven_moves = 0u8;
        let mut unseen = 0;
        let mut took_unseen = 0;
        let mut latest_proof = None;
        let mut out_of_order = 0;
        let mut previous_departure = None;
        let mut earlier_destinations = Bitboard::EMPTY;
        for (index, &m) in path.iter().enumerate() {
            let print = footprint(m);
            let victim_arrived_in_story = print
                .victim
                .is_some_and(|victim| earlier_destinations.contains(victim));
            // A pawn taken en passant in the story that pushed it stood on its square a
            // while: a square that never read it is no such pawn (86... g6 with f5 knocked
            // is no 86... g5 87. fxg6 e.p.), unless its sensor may be dead.
            if let Move::EnPassant { from, to } = m {
                let taken = Square::from_coords(to.file(), from.rank());
                if earlier_destinations.contains(taken)
                    && (self.ctx.live & !self.ctx.steady).contains(taken)
                    && self.ctx.evidence.arrivals_since(taken, self.since) == 0
                {
                    return;
                }
            }
            earlier_destinations |= print.filled;
            if !self.in_causal_order(m) {
                return;
            }
            // Moves are played in the order their pieces left, where the sensors saw it. A
            // square left more than once (a slid piece passed over it later) counts its first
            // departure after the previous move's.
            let evidence = self.ctx.evidence;
            let departure = m.from().and_then(|f| {
                evidence
                    .first_departure(f, previous_departure.unwrap_or(self.since))
                    .or_else(|| evidence.last_departure(f, self.since))
            });
            if departure.is_some() {
                if previous_departure.is_some_and(|p| departure < Some(p)) {
                    out_of_order += 1;
                }
                // On a scanning board streaming its changes no hand lifts a piece and sets
                // it down two squares away within one scan: that is two pieces (a slid rook
                // reaching d4 as its victim on f4 is lifted, no reply Rf4-d4 20 ms after
                // its own move). A host draining its buffer late may tell a whole move at
                // once. A piece read on a square it passes, a scan before it left, was slid
                // there (g7-g5 with g6 read as g7 was still held).
                let read_on_its_way = |left: Stamp, landed: Stamp| {
                    slide_way(m).passed.into_iter().any(|square| {
                        evidence
                            .last_arrival(square, self.since)
                            .is_some_and(|arrived| {
                                arrived <= landed && arrived.t + STREAMED_SCAN_MS >= left.t
                            })
                    })
                };
                let teleported = !evidence.is_event_board()
                    && m.from().is_some_and(|from| from.distance(m.to()) >= 2)
                    && departure.zip(self.landed(m)).is_some_and(|(left, landed)| {
                        left.seq == landed.seq
                            && evidence
                                .time_since_the_reading_before(landed)
                                .is_some_and(|gap| gap > 0 && gap <= STREAMED_SCAN_MS)
                            && !read_on_its_way(left, landed)
                    });
                if teleported {
                    out_of_order += 1;
                }
                previous_departure = departure;
            } else if evidence.is_event_board()
                && m.from().is_some_and(|from| !self.ctx.live.contains(from))
                && (print.filled & self.ctx.live & self.filled)
                    .into_iter()
                    .any(|square| !evidence.last_arrival_by_event(square, self.since))
            {
                // A piece moving on from a square the line cannot see shows no lift: on a
                // board with events, only its place event tells it from line noise.
                return;
            } else if let Some(previous) = previous_departure {
                // A piece leaving a square no sensor watches left before it landed: a
                // landing seen before the previous move's piece left is out of order too.
                // (Two pieces, two hands' times: the whole poll's skew is allowed.)
                if self
                    .landed(m)
                    .is_some_and(|landed| !self.may_land_after(landed, previous, true))
                {
                    // A piece set down unseen that shows before the other player's move
                    // began was straightened where it stood: no move of it.
                    if m.from()
                        .is_some_and(|from| self.ctx.set_down_unseen.contains(from))
                    {
                        return;
                    }
                    out_of_order += 1;
                }
            }
            let lands = print.landing();
            // A piece landing where the line has one unseen, read arriving there after it
            // left, was seen landing (70... Rxa4 of a pawn off-centre on a4), taking it.
            let seen_onto_unseen: Bitboard = (lands & self.ctx.set_down_unseen & self.ctx.sensed)
                .into_iter()
                .filter(|&square| {
                    evidence
                        .last_arrival(square, self.since)
                        .is_some_and(|arrived| departure.is_none_or(|left| arrived > left))
                })
                .collect();
            let lands_unseen = lands & !seen_onto_unseen;
            // A capture of a piece a doubted line has unseen, the capturer unseen too:
            // twice as unlikely as a capture no sensor saw.
            let onto_unseen = print.victim.is_some_and(|victim| {
                self.ctx.unseen.contains(victim)
                    && !self.ctx.live.contains(victim)
                    && !seen_onto_unseen.contains(victim)
                    && (lands & !self.ctx.unseen & self.ctx.dead()).is_empty()
            });
            let unseen_landing = !onto_unseen && !(lands_unseen & self.ctx.dead()).is_empty();
            // A piece lifted over a capturable square (or a dead sensor's) looks exactly like
            // one that landed there; only a later ply shows it really did.
            let last = index + 1 == path.len() && !self.ctx.accept_unproven_last;
            if unseen_landing {
                if last {
                    return;
                }
                unseen += 1;
                // A capture of a piece this story set down unseen, by a piece no sensor saw
                // leave, landing unseen: nothing at all shows it (9. Bf4 unseen, 9... exf4
                // from an unseen e5, for a bishop set down off-centre elsewhere).
                if victim_arrived_in_story && departure.is_none() {
                    unproven += 1;
                    unproven_moves |= 1 << index;
                }
                continue;
            }
            let (Some(victim), Some(from)) = (print.victim, m.from()) else {
                continue;
            };
            // Its victim never seen taken off, it may as well have stood elsewhere (a pawn
            // read unseen on d5 that stood on d6, over a dead sensor): as cheap, but less
            // plausible than a line with the quiet landing.
            if seen_onto_unseen.contains(victim) {
                took_unseen += 1;
                continue;
            }
            if onto_unseen {
                if last {
                    return;
                }
                unproven += 2;
                unproven_moves |= 1 << index;
                continue;
            }
            // A victim that arrived in this very story needs an arrival of its own and one
            // of its capturer: one placed piece cannot prove both.
            let arrived_here =
                victim_arrived_in_story && self.ctx.evidence.arrivals_since(victim, self.since) < 2;
            let proof = if arrived_here {
                None
            } else {
                let way = slide_way(m);
                self.ctx
                    .evidence
                    .capture_proof(from, victim, way.passed | way.brushed, self.since)
            };
            // A victim never seen taken off (its square read empty all along: a piece set
            // down off-centre there) is proven taken only as a quiet move is proven made:
            // its capture is no newer proof than another line's quiet move.
            let seen_taken_off = |stamp: Stamp| {
                evidence
                    .first_departure(victim, self.since)
                    .is_some_and(|left| left <= stamp)
            };
            // A capture by a piece the line cannot see shows only its victim's square
            // touched: a touch later than another is no likelier a capture.
            let from_blind = departure.is_none() && !self.ctx.live.contains(from);
            match proof {
                Some(stamp) if seen_taken_off(stamp) && !from_blind => {
                    latest_proof = latest_proof.max(Some(stamp))
                }
                Some(_) => {}
                None if last => return,
                None => {
                    unproven += 1;
                    unproven_moves |= 1 << index;
                }
            }
        }
        let touched = path
            .iter()
            .fold(Bitboard::EMPTY, |all, &m| all | touched_squares(m));
        let lifted = self.ctx.evidence.departed_since(self.since) & self.ctx.live;
        found.push(Explanation {
            untouched: (lifted & !touched).count() as u32,
            undo: self.undo,
            moves: path.to_vec(),
            cost: PLY * path.len() as u32
                + self.extra_cost
                + UNPROVEN_CAPTURE * unproven
                + UNSEEN_LANDING * unseen
                + OUT_OF_ORDER * out_of_order,
            latest_proof,
            unproven,
            unproven_moves,
            out_of_order,
            doubt: TAKES_A_PIECE_UNSEEN * took_unseen,
            ..Explanation::default()
        });
    }
}

impl Search<'_, '_> {
    /// A piece cannot land before it left: where the sensors saw both ends of a move,
    /// its destination must have filled no earlier than its origin emptied.
    fn in_causal_order(&self, m: Move) -> bool {
        let print = footprint(m);
        let evidence = self.ctx.evidence;
        // A square a piece reached earlier in the story: the sensors must have seen it come and go.
        // (Not a castling king: it has not moved, and may land on its own rook's square.)
        if let Some(from) = m.from()
            && !m.is_castle()
            && !self.vacated.contains(from)
            && self.ctx.live.contains(from)
            && (evidence.last_arrival(from, self.since).is_none()
                || evidence.last_departure(from, self.since).is_none())
        {
            return false;
        }
        // Both castling pieces leave before either lands, even where the other lands back.
        // An en passant victim may be taken off after the capturer lands, as any victim.
        let leaving = match m {
            Move::Castle { .. } => print.lifted & self.ctx.live,
            Move::EnPassant { from, .. } => Bitboard::from_square(from) & self.vacated,
            _ => print.vacated & self.vacated,
        };
        let left = leaving
            .into_iter()
            .filter_map(|sq| evidence.last_departure(sq, self.since))
            .min();
        match (left, self.landed(m)) {
            (Some(left), Some(landed)) => self.may_land_after(landed, left, may_straddle(m)),
            _ => true,
        }
    }

    /// A revised last move of the piece that was read landing on another square, and has
    /// left it since: the piece came down on its new square after it left that one. Slid
    /// over that square (read there a moment), or moved on to the square beside it (nudged
    /// home), it may reach the next a moment before; set down there for longer and going
    /// further, only after. A landing seen after the piece was read on that square and
    /// before it left it is another hand's: a piece knocked over and set back, or one
    /// straightened by the player to move, before the piece read there was taken (3. d5
    /// knocking c5 over, c5 set back, then 3... exd5 with the victim off first, is no
    /// 3. dxc5; 4. Bd3, a6 straightened, 4... Bxd3 victim first, is no 4. Bxa6). A
    /// landing seen before the piece was read there at all leaves the reading to noise, if
    /// it was read there no longer than a slide passes; a landing unseen leaves it so.
    fn moved_on_after_leaving(&self, m: Move) -> bool {
        let Some(read) = self.excluded_first.filter(|_| self.undo == 1) else {
            return true;
        };
        if m.is_castle() || read.is_castle() || read.from() != m.from() {
            return true;
        }
        let print = footprint(m);
        let read_on = footprint(read).filled & self.ctx.live & !print.landing();
        let Some(square) = read_on.single_square() else {
            return true;
        };
        let evidence = self.ctx.evidence;
        let Some(arrived) = evidence.first_arrival(square, self.since, 0) else {
            return true;
        };
        let Some(left) = evidence.first_departure(square, arrived) else {
            return true;
        };
        let landed = match (print.victim, m.from()) {
            (Some(victim), Some(from)) => {
                let way = slide_way(m);
                evidence.capture_proof(from, victim, way.passed | way.brushed, self.since)
            }
            _ => self.landed(m),
        };
        let stood = left.t.saturating_sub(arrived.t);
        let Some(landed) = landed else {
            return true;
        };
        if landed <= arrived {
            // Unless the piece stood there longer than a slide passes: no noise lasts so.
            return stood <= PASSING_MS + evidence.poll_skew();
        }
        let beside = !(king_attacks(square) & print.landing()).is_empty();
        if beside || stood <= PASSING_MS + evidence.poll_skew() {
            self.may_land_after(landed, left, true)
        } else {
            landed > left
        }
    }

    /// When the sensors last saw the move's piece arrive on a square the board filled.
    fn landed(&self, m: Move) -> Option<Stamp> {
        (footprint(m).filled & self.filled)
            .into_iter()
            .filter_map(|sq| self.ctx.evidence.last_arrival(sq, self.since))
            .max()
    }

    /// Whether a landing seen at `landed` may have come after a departure seen at `left`.
    /// By time, not by order: a poll's occupancy may reveal a lift whose event was lost.
    /// A slid piece may read on its new square a moment before its old one empties, and
    /// a polled board stamps each change with its poll: the two may be a poll apart. Only
    /// a piece that can `straddle` both squares (slid to the square next to its own) reads
    /// there first: a knight, or a piece going further, is seen landing a whole poll before
    /// it left only when another hand put a piece there (one set down unseen, straightened
    /// just before it is taken: 6... Nxe4, not Ne4 with the pawn on e3).
    fn may_land_after(&self, landed: Stamp, left: Stamp, straddle: bool) -> bool {
        let skew = if straddle {
            POLL_SKEW_MS.max(self.ctx.evidence.poll_skew())
        } else {
            POLL_SKEW_MS
        };
        landed.t.saturating_add(STRADDLE_MS + skew) >= left.t
    }
}

/// A move in progress costs a little more than a finished ply, so a one-move story wins
/// when the board completes it, and no longer story may explain a hand still moving.
pub const IN_PROGRESS: u32 = PLY + 1;

/// A second hand (the other player straightening a piece) may lift or touch one square
/// during a move: still a move in progress, but dearer than correcting the last move with
/// a ply after it, which is what a stray reading on the last move's square looks like.
pub const SECOND_HAND: u32 = 15;
/// A move under way whose hand knocked a piece beside its way, not yet set back: dearer
/// than a story of three plies, so it only stands where no such story explains the board,
/// in place of an `illegal` board.
pub const KNOCKED_IN_PROGRESS: u32 = 3 * PLY + 1;

/// What the working sensors read, to compare with a position.
#[derive(Clone, Copy)]
pub struct Sensed {
    pub occupancy: Bitboard,
    pub live: Bitboard,
}

impl Sensed {
    pub fn matches(self, occupancy: Bitboard) -> bool {
        ((occupancy ^ self.occupancy) & self.live).is_empty()
    }

    /// Squares the position fills that read empty.
    pub fn missing(self, occupancy: Bitboard) -> Bitboard {
        occupancy & !self.occupancy & self.live
    }

    /// Squares that read occupied where the position has none.
    pub fn extra(self, occupancy: Bitboard) -> Bitboard {
        self.occupancy & !occupancy & self.live
    }
}

/// The cost of reading the board as a move still being made (`None` if it cannot be one):
/// every square that differs from a position, or was really disturbed since it was
/// reached, is one that a move's hand touches.
pub fn in_progress_cost(
    line: &Line,
    sensed: Sensed,
    evidence: &Evidence,
    settled_at: Stamp,
) -> Option<u32> {
    in_progress_cost_when(line, sensed, evidence, settled_at, false)
}

/// A piece of the side to move that the line has unseen, read since the last move
/// (straightened), while the last mover's piece is back in the hand: both players' hands
/// at once, as dear as a second hand. (37. Ra5-b5 read, the rook sliding on to c5 as b5
/// empties: no black pawn a line has unseen on c5 straightened in the same moment as the
/// rook was picked up again. The mover's piece in the hand may be taking an unseen piece
/// of the other side, which reads as it lands.)
fn straightened_beside_the_other_hand(line: &Line, sensed: Sensed, evidence: &Evidence) -> u32 {
    let current = line.current();
    let position = &current.position;
    let last_mover_in_hand = (sensed.missing(current.occupancy) & position.them()).any();
    let straightened = (line.unseen & position.us() & sensed.occupancy)
        .into_iter()
        .any(|square| evidence.last_arrival(square, current.since).is_some());
    if last_mover_in_hand && straightened {
        SECOND_HAND
    } else {
        0
    }
}

/// Squares read filled again that a hand only touched (up and down within a slide's time)
/// before it lifted the first of the `missing` pieces: a queen straightened, then the
/// capture begun beside it, is no part of that move.
fn touched_before_the_hand(
    evidence: &Evidence,
    since: Stamp,
    missing: Bitboard,
    occupancy: Bitboard,
) -> Bitboard {
    let Some(hand) = missing
        .into_iter()
        .filter_map(|square| evidence.last_departure(square, since))
        .min()
    else {
        return Bitboard::EMPTY;
    };
    let touch = PASSING_MS + evidence.poll_skew();
    (evidence.departed_since(since) & occupancy & !missing)
        .into_iter()
        .filter(|&square| {
            evidence
                .last_departure(square, since)
                .and_then(|left| Some((left, evidence.last_arrival(square, left)?)))
                .is_some_and(|(left, back)| back.t <= left.t + touch && back <= hand)
        })
        .collect()
}

/// How a reading may show a slid piece straddling its square and the next.
#[derive(Clone, Copy)]
struct Straddle {
    /// The board has stood still for a second: no slide holds two squares that long.
    still: bool,
    /// Events listed in one poll: a brush beside the way may come before the lift.
    polled: bool,
}

/// The same, on a board that has stood `still` for a second: a slid piece reads on its
/// square and the next one at once only for a moment, so a piece on a square its sensor
/// sees, with another beside it on its way, is no slide under way then.
pub fn in_progress_cost_when(
    line: &Line,
    sensed: Sensed,
    evidence: &Evidence,
    settled_at: Stamp,
    still: bool,
) -> Option<u32> {
    let sensed = Sensed {
        live: sensed.live & !line.blind(),
        ..sensed
    };
    let current = line.current();
    // Only pieces of the position can be touched; a square the moving piece was set down
    // on for a moment and lifted from again is part of its way.
    let since = current.since.max(settled_at);
    let missing = sensed.missing(current.occupancy);
    let disturbed = evidence.disturbed_since(since)
        & current.occupancy
        & !touched_before_the_hand(evidence, since, missing, sensed.occupancy);
    let extra = sensed.extra(current.occupancy);
    // One piece in the hand: lifted to move, to capture with, or to adjust.
    let one_in_hand = extra.is_empty() && missing.count() <= 1 && (disturbed & !missing).is_empty();
    let straddle = Straddle {
        still,
        polled: evidence.is_event_board(),
    };
    // The last move's pawn gone from where it was read, and a piece read at once on the
    // square beyond that it could have been pushed to instead: it slid on (f7-f6-f5 in two
    // polls), no sensor ghost beside another hand's move.
    let went_on = line.ply_count() >= 1 && {
        let previous = &line.nodes[line.ply_count() - 1];
        current.last_move.is_some_and(|last| {
            missing.contains(last.to())
                && extra.single_square().is_some_and(|square| {
                    // (A pawn pushed two squares: a piece sliding further reads on its way as
                    // the search already tells.)
                    let straight_on = last.role() == Role::Pawn
                        && last.from().is_some_and(|from| {
                            shakmaty::attacks::between(from, square).contains(last.to())
                        });
                    straight_on
                        && previous
                            .legal_moves()
                            .iter()
                            .any(|(m, _)| m.from() == last.from() && m.to() == square)
                        && evidence
                            .last_arrival(square, current.since)
                            .zip(evidence.last_departure(last.to(), current.since))
                            .is_some_and(|(arrived, left)| {
                                // (A board polled lists the halves of a straddle up to a
                                // poll apart: the pawn never rested where it was read.)
                                arrived.t.abs_diff(left.t) <= STRADDLE_MS
                                    || arrived.t.saturating_sub(current.since.t)
                                        <= STRADDLE_MS + evidence.poll_skew()
                            })
                })
        })
    };
    if !went_on
        && (one_in_hand || part_of_a_move(current, sensed, disturbed, Spare::None, straddle))
    {
        return Some(IN_PROGRESS + straightened_beside_the_other_hand(line, sensed, evidence));
    }
    // Cheapest first: the last move being corrected: its piece is picked up again and moved on.
    if line.ply_count() >= 1 {
        let previous = &line.nodes[line.ply_count() - 1];
        let disturbed =
            evidence.disturbed_since(previous.since.max(settled_at)) & previous.occupancy;
        if part_of_a_move(previous, sensed, disturbed, Spare::None, straddle) {
            return Some(IN_PROGRESS + REVISION);
        }
    }
    // A piece set down on its way, on a square it cannot go to: the hand will move it on.
    // Dearer than correcting the last move, cheaper than rewriting it into a longer story.
    // (Not the other player's piece where a piece the line cannot see may have captured
    // meanwhile, only its victim's square touched: then that player's piece moved is the
    // reply.)
    let replied_to_a_blind_capture = || {
        (missing & current.position.them()).any() && taken_by_a_blind_piece(line, evidence).any()
    };
    // (The mover's piece, or the last move's going on before the mover lifted anything:
    // the other player's piece set down is their reply.)
    let mover_lifted = (evidence.departed_since(current.since) & current.position.us()).any();
    let last_moving_on = match current.last_move {
        Some(last) if !mover_lifted => Bitboard::from_square(last.to()),
        _ => Bitboard::EMPTY,
    };
    let moving_on = current.position.us() | last_moving_on;
    if missing.count() == 1
        && extra.count() == 1
        && (missing & moving_on).any()
        && !replied_to_a_blind_capture()
    {
        return Some(IN_PROGRESS + REVISION + 1);
    }
    // Both players' hands at once: a move, and the other player's piece lifted or touched.
    let theirs = current.position.them();
    let touched = missing | disturbed;
    // (A piece of theirs touched and set back is no piece in their hand, unless a piece
    // in the mover's hand could have taken it and stand there now.)
    let board = current.position.board();
    let movers_reach = (missing & current.position.us())
        .into_iter()
        .fold(Bitboard::EMPTY, |all, from| all | board.attacks_from(from));
    let set_back = sensed.occupancy & !movers_reach;
    let in_their_hand = touched & theirs & !set_back;
    let two_in_hand =
        extra.is_empty() && (touched & !theirs).count() <= 1 && in_their_hand.count() <= 1;
    if two_in_hand || part_of_a_move(current, sensed, disturbed, Spare::TheirHand, straddle) {
        return Some(IN_PROGRESS + SECOND_HAND);
    }
    // A move whose hand knocked a piece beside its way, the mover's own too, not yet set
    // back.
    // (Not a piece only guessed to stand there: a capture guessed from a still board may
    // have been the piece set down unseen, and its victim there the one lifted now.)
    // (A move and a knock leave three squares at most: origin, victim, knocked piece.)
    let suspects = missing | disturbed;
    let knocked = if suspects.count() <= 3 {
        knocked_with_a_lift(evidence, current.since.max(settled_at), suspects)
            & !guessed_landings(line)
    } else {
        Bitboard::EMPTY
    };
    if knocked.any()
        && part_of_a_move(
            current,
            sensed,
            disturbed,
            Spare::Knocked(knocked),
            straddle,
        )
    {
        return Some(KNOCKED_IN_PROGRESS);
    }
    // The same, with the other player's hand on one of their pieces.
    if extra.count() == 1 && (missing & !theirs).count() == 1 && (missing & theirs).count() == 1 {
        return Some(IN_PROGRESS + REVISION + 1 + SECOND_HAND);
    }
    // A move finished where the sensors could not see it land (an unproven capture, a dead
    // sensor), and the reply is in the hand.
    let dead = !sensed.live;
    let unseen_landing_then_reply = current
        .legal_moves()
        .iter()
        .filter(|(m, _)| {
            let print = footprint(*m);
            let unseen = print.victim.is_some() || !(print.filled & dead).is_empty();
            unseen && m.from().is_some_and(|f| missing.contains(f))
        })
        .any(|&(m, _)| {
            let mut after = current.position.clone();
            after.play_unchecked(m);
            let disturbed_elsewhere = disturbed & !super::moves::touched_squares(m);
            part_of_a_move(
                &Node::new(after, Some(m), current.since),
                sensed,
                disturbed_elsewhere,
                Spare::None,
                straddle,
            )
        });
    unseen_landing_then_reply.then_some(PLY + UNPROVEN_CAPTURE + IN_PROGRESS)
}

/// What else a hand may have lifted or touched while a move is under way.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Spare {
    None,
    /// One of the other player's pieces: their hand.
    TheirHand,
    /// One piece beside the move's squares, among these: knocked by the moving hand.
    Knocked(Bitboard),
}

/// Where the line's pieces stand by a move guessed from a still board.
fn guessed_landings(line: &Line) -> Bitboard {
    line.nodes
        .iter()
        .filter(|node| node.guessed)
        .filter_map(|node| node.last_move)
        .map(|m| Bitboard::from_square(m.to()))
        .fold(Bitboard::EMPTY, |all, square| all | square)
        & line.current().occupancy
}

/// Of `squares`, those whose piece left within a moment of another square's lifting: a
/// hand grasping the piece beside knocks it then, not a second later.
pub(super) fn knocked_with_a_lift(
    evidence: &Evidence,
    since: Stamp,
    squares: Bitboard,
) -> Bitboard {
    let departed = evidence.departed_since(since);
    squares
        .into_iter()
        .filter(|&square| {
            evidence
                .first_departure(square, since)
                .is_some_and(|knocked| {
                    (departed & !Bitboard::from_square(square))
                        .into_iter()
                        .filter_map(|other| evidence.first_departure(other, since))
                        .any(|lifted| lifted.t.abs_diff(knocked.t) <= PASSING_MS)
                })
        })
        .collect()
}

/// The squares next to any of `squares`.
pub(super) fn beside(squares: Bitboard) -> Bitboard {
    squares
        .into_iter()
        .fold(Bitboard::EMPTY, |near, sq| near | king_attacks(sq))
}

/// Whether the board shows a move of `node` under way, with at most one square lifted or
/// touched as `spare` allows; on a board still for a second, no piece straddling its
/// square and the next.
fn part_of_a_move(
    node: &Node,
    sensed: Sensed,
    disturbed: Bitboard,
    spare: Spare,
    straddle: Straddle,
) -> bool {
    let missing = sensed.missing(node.occupancy);
    let extra = sensed.extra(node.occupancy);
    node.legal_moves().iter().any(|&(m, _)| {
        let print = footprint(m);
        let victim = print.victim.map_or(Bitboard::EMPTY, Bitboard::from_square);
        let may_empty = print.vacated | victim | print.lifted;
        // A piece lands only after it was picked up; but one lone extra square is what a
        // sensor ghost looks like, and must not make room for a rewritten story. A second
        // hand is no excuse for a piece that landed unlifted.
        let picked_up = extra.is_empty()
            || (extra.count() <= 1 && spare == Spare::None)
            || !(may_empty & missing).is_empty();
        let stray = (missing & !may_empty) | (disturbed & !(may_empty | print.filled));
        let second_hand = stray.count() <= 1
            && match spare {
                Spare::None => false,
                // Only the other player's own pieces are the second hand's.
                Spare::TheirHand => (stray & !node.position.them()).is_empty(),
                // The moving hand knocks a piece beside the squares it passes, its own too.
                Spare::Knocked(knocked) => {
                    let beside_its_way = beside(touched_squares(m) | slide_way(m).passed);
                    (stray & !(knocked & beside_its_way)).is_empty()
                }
            };
        // A piece slid along the board reads on the squares it passes, once it has left
        // its square; while it still straddles its square, only on the next one.
        let way = slide_way(m);
        let passing = extra & (way.passed | way.brushed) & !print.filled;
        let origin = print.lifted & !victim;
        let next_to_origin = beside(origin);
        // A piece still on a square its sensor sees, and on the next: a moment of a slide,
        // never a second's (a rook set down on d3 and nudged onto e2 is not the queen on f1
        // sliding over e2 to take it). The next square may be one its first diagonal step
        // brushes, listed in the poll before its lift (a bishop's brush of f5 before its lift
        // from f4), or read a scan before it (a bishop going d1-e2 over e1); a pawn's too
        // (g5xh6 over h5), but not, on a scanning board, the square the pawn could be pushed
        // to: a piece there beside a pawn still on its square is no capture beginning, unless
        // its victim is off already (f5xe4 over f4).
        let pushed_to = match m {
            Move::Normal {
                role: Role::Pawn,
                from,
                ..
            } if !straddle.polled && (victim & missing).is_empty() => {
                let ahead = match node.position.turn() {
                    Color::White => from.offset(8),
                    Color::Black => from.offset(-8),
                };
                ahead.map_or(Bitboard::EMPTY, Bitboard::from_square)
            }
            _ => Bitboard::EMPTY,
        };
        let first_step = way.passed | (way.brushed & !pushed_to);
        let straddling = (passing & !(first_step & next_to_origin)).is_empty()
            && !(straddle.still && (origin & !sensed.live).is_empty());
        let sliding = passing.is_empty() || !(origin & missing).is_empty() || straddling;
        picked_up
            && sliding
            && (stray.is_empty() || second_hand)
            && (extra & !(print.filled | passing)).is_empty()
    })
}
