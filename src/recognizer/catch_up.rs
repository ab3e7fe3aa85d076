//! A line stuck while the game went on: several pieces set down off-centre within a few
//! plies (a pawn, then the bishop behind it, then the reply), each unseen, so no story of a
//! move or two explains the board. The hands tell the order: each piece lifted since the
//! line's position, in turn, is a move of its side, landing where a square filled or,
//! unseen, on an empty one. A piece is taken as set down unseen only where its player
//! lifted another piece after the reply: the hand that held it was free again. What is
//! left over must be one move under way.

use shakmaty::{Bitboard, Chess, Move, Position, Role};

use super::evidence::{Evidence, PASSING_MS, STRADDLE_MS, Stamp};
use super::line::Line;
use super::moves::{
    footprint, may_straddle, occupancy_after, promotion_role, slide_way, touched_squares,
};
use super::search::{
    IN_PROGRESS, PLY, POLL_SKEW_MS, REVISION_COST, Sensed, UNSEEN_LANDING, in_progress_cost,
};
use super::{BoardStatus, MAX_LINES, Recognizer};

/// The most plies a catch-up story tells (and a hand may have left two squares more, for
/// a story to be told).
const MOST_PLIES: usize = 6;
/// How long a board reads illegal before the game is taken to be stuck: longer than a
/// piece knocked over lies before it is set back.
const STUCK_MS: crate::reading::Millis = 3_000;
/// The most squares a move under way leaves reading otherwise than its position.
const MOST_SQUARES_UNDER_WAY: usize = 4;
/// The most squares a board stuck may read wrong for a story from further back.
const MOST_SQUARES_WRONG: usize = 5;
/// The most plies back a game stuck is told again from (and the evidence kept for it).
pub(super) const DEEPEST_BACK: usize = 6;
/// How many lines, the likeliest first, a catch-up tells stories from.
const CATCH_UP_LINES: usize = 3;

/// How wide a catch-up's walks go: the most pieces a story sets down unseen, and how many
/// moves a walk follows before it gives up (for one setting fewer pieces down unseen), a
/// bound on a still board's work.
#[derive(Clone, Copy)]
struct Reach {
    unseen: u32,
    moves: usize,
}

/// A still board nothing explains.
const NEAR: Reach = Reach {
    unseen: 3,
    moves: 1000,
};
/// Once the board has read illegal longer than a knocked piece lies: four pieces set down
/// unseen, or three plies running (13. exf4, 13... Bf6, 14. Ne2), or three captures on a
/// dead square, make a wide walk, and the game is stuck without it.
const STUCK: Reach = Reach {
    unseen: 4,
    moves: 6000,
};
/// A story told from further back: rarer, and the game stuck without it.
const FURTHER_BACK: Reach = Reach {
    unseen: 3,
    moves: 8000,
};
/// The most plies a story told from further back tells: the plies since the choice and the
/// moves stuck on it.
const MOST_PLIES_FURTHER_BACK: usize = 8;

/// One move of a story, with when the sensors saw its piece leave and land.
#[derive(Clone, Copy)]
struct Step {
    m: Move,
    departed: Stamp,
    /// `None`: set down where no sensor saw it.
    landed: Option<Stamp>,
}

struct Story {
    steps: Vec<Step>,
    unseen: Bitboard,
    /// Moves that came down where the line sees nothing (a dead sensor's square, or a
    /// piece unseen there taken), unseen by nature.
    blind_landings: u32,
    /// Its last move takes, unseen, a piece it set down unseen itself.
    ends_onto_unseen: bool,
    /// Squares of its unseen pieces a later move of it came down on, seen.
    seen_over: Bitboard,
    /// The occupancy it leaves.
    occupancy: Bitboard,
}

/// What a story so far has set down unseen, as a walk goes on.
#[derive(Clone, Copy, Default)]
struct Unseen {
    /// Squares it set pieces down on unseen.
    squares: Bitboard,
    /// Moves that came down where the line sees nothing.
    blind_landings: u32,
    /// Squares of its unseen pieces a later move came down on, seen.
    seen_over: Bitboard,
    /// Squares its pieces were set down on unseen only if they move on: a later move's
    /// piece read landing there.
    must_leave: Bitboard,
}

struct Walk<'a> {
    evidence: &'a Evidence,
    since: Stamp,
    sensed: Bitboard,
    /// Sensors the line believes.
    live: Bitboard,
    departed: Bitboard,
    /// Pieces the line cannot see (unseen, or on a dead sensor): they move on with no lift,
    /// told by where they land.
    blind_pieces: Bitboard,
    /// Squares whose sensors have never changed in the session: a dead sensor may hide
    /// there, so a piece the story sets down unseen may be taken there unseen too.
    steady: Bitboard,
    /// Whether a piece the story itself set down unseen may move on: not in a story that
    /// tells the line's last move again (a victim's removal read as a move of its own).
    unseen_move_on: bool,
    /// Whether a capture may come down, seen, on a piece the story set down unseen: only
    /// in a story of new moves, none read before told again (a knocked piece in the air
    /// beside the reply is likelier than a read move's piece set down unseen and taken).
    taken_where_unseen: bool,
    skew: crate::reading::Millis,
    /// The piece a pawn reaching the last rank becomes, as in the search.
    promotion: Role,
    /// The most pieces a story of this walk sets down unseen (or where the line sees nothing).
    most_unseen: u32,
    /// How many moves it follows before it gives up.
    most_tried: usize,
    /// The most plies a story of it tells.
    most_plies: usize,
    tried: usize,
    stories: Vec<Story>,
}

impl Recognizer {
    /// The board has stood still on a reading nothing explains: tells the game on from the
    /// likeliest line's position (or the one before it) by the pieces lifted since, in the
    /// order they left, with pieces set down unseen where the next lift of the same player
    /// proves it. What is left must be a move under way. The cheapest stories become the
    /// lines.
    pub(super) fn catch_up_with_unseen_landings(&mut self, stamp: Stamp) -> bool {
        // From each line's position, or the one before (two before, where one reading told
        // the last two plies): its last move may be a landing read for the wrong piece (the
        // opponent's, just lifted, set down where the mover's could go). The lines behind
        // the likeliest hold the other readings of an earlier piece set down unseen (1... c6
        // or c5), which a later move may tell.
        let reach = if self.stuck_at(stamp) && !self.pieces_set_down_beyond_a_game() {
            STUCK
        } else {
            NEAR
        };
        let mut told: Vec<(u32, usize, usize, Line)> = Vec::new();
        for (index, line) in self.lines.iter().enumerate().take(CATCH_UP_LINES) {
            // (A line behind from its own position only: a bound on a still board's work.)
            let most_back = if index == 0 { line.plies_open() } else { 0 };
            told.extend(self.stories_back(index, 0..=most_back, false, reach));
        }
        self.take_the_cheapest_stories(told, stamp)
    }

    /// Nothing explains the still board, not even a catch-up: a choice made a few plies
    /// ago may have been wrong (29. Qxe6 read for a queen set down unseen on c2 as the
    /// other player touched e6), and the game stuck on it ever since. The likeliest line is
    /// told again from further back, by the pieces lifted since then as the evidence kept
    /// remembers them, each ply back a revision dearer.
    pub(super) fn catch_up_from_further_back(&mut self, stamp: Stamp) -> bool {
        // Only once the board has read illegal for longer than a knocked piece lies: the
        // game went on over it.
        if !self.stuck_at(stamp) {
            return false;
        }
        if self.being_set_up() {
            return false;
        }
        let view = self.view();
        let current = self.lines[0].current();
        // Only where a piece reads on a square the line has empty, now and after any move:
        // a piece knocked over beside a move, not yet set back, leaves one missing, never
        // one more.
        let one_too_many = !view.extra(current.occupancy).is_empty()
            && current
                .legal_moves()
                .iter()
                .all(|(_, after)| !view.extra(*after).is_empty());
        if !one_too_many {
            return false;
        }
        let nearest = self.lines[0].plies_open() + 1;
        let history = self.evidence.with_history();
        let recent = std::mem::replace(&mut self.evidence, history);
        let told = self.stories_back(0, nearest..=DEEPEST_BACK, true, FURTHER_BACK);
        self.evidence = recent;
        self.take_the_cheapest_stories(told, stamp)
    }

    /// Whether the board reads more squares wrong than a few pieces set down unseen leave:
    /// a board being set up or cleared, where no wide walk tells a game.
    fn being_set_up(&self) -> bool {
        let view = self.view();
        let current = self.lines[0].current();
        let wrong = view.missing(current.occupancy) | view.extra(current.occupancy);
        wrong.count() > MOST_SQUARES_WRONG
    }

    /// Whether more pieces read where the likeliest line has none than a move under way and
    /// a piece straightened set down: pieces being put back, a board being reset.
    fn pieces_set_down_beyond_a_game(&self) -> bool {
        let view = self.view();
        view.extra(self.lines[0].current().occupancy).count() > 2
    }

    /// Whether the board has read illegal for longer than a knocked piece lies.
    fn stuck_at(&self, stamp: Stamp) -> bool {
        self.illegal_since
            .is_some_and(|since| stamp.t >= since.saturating_add(STUCK_MS))
    }

    /// The stories told on line `index` from each node `back` plies before its position,
    /// with their costs, lines and bases, each walk going as wide as `reach`. Evidence older
    /// than the base is needed.
    fn stories_back(
        &self,
        index: usize,
        back: std::ops::RangeInclusive<usize>,
        further_back: bool,
        reach: Reach,
    ) -> Vec<(u32, usize, usize, Line)> {
        let line = &self.lines[index];
        let n = line.ply_count();
        let most_back = (*back.end()).min(n.saturating_sub(line.pinned));
        let mut told = Vec::new();
        for back in *back.start()..=most_back {
            let base = n - back;
            for (cost, tail) in self.stories_from(line, base, further_back, reach) {
                told.push((cost + REVISION_COST * back as u32, index, base, tail));
            }
        }
        told
    }

    /// The cheapest of the stories `told` become the lines, the likeliest line kept last
    /// as refuted. False if none was told.
    fn take_the_cheapest_stories(
        &mut self,
        told: Vec<(u32, usize, usize, Line)>,
        stamp: Stamp,
    ) -> bool {
        let Some(cheapest) = told.iter().map(|(cost, ..)| *cost).min() else {
            return false;
        };
        let cheapest_told: Vec<(usize, usize, Line)> = told
            .into_iter()
            .filter(|(cost, ..)| *cost == cheapest)
            .map(|(_, index, base, tail)| (index, base, tail))
            .collect();
        let mut lines: Vec<Line> = cheapest_told
            .iter()
            .map(|(index, base, tail)| {
                let mut whole = self.lines[*index].clone();
                whole.nodes.truncate(*base);
                whole.nodes.extend(tail.nodes.iter().cloned());
                whole.unseen = tail.unseen;
                whole
            })
            .collect();
        // The lines behind, told apart from the likeliest by an earlier piece set down unseen
        // (8. d5 behind 8. dxe5), take its stories too where they made the same moves since: the
        // story does not choose between them.
        let first = &self.lines[0];
        let played = first.moves();
        for (_, base, tail) in cheapest_told.iter().filter(|(index, ..)| *index == 0) {
            for behind in &self.lines[1..] {
                if behind.ply_count() != first.ply_count()
                    || behind.moves()[*base..] != played[*base..]
                {
                    continue;
                }
                if let Some(whole) = told_behind(behind, *base, tail, first.unseen) {
                    lines.push(whole);
                }
            }
        }
        // Stable: equally likely stories keep the order the hands suggested.
        lines.sort_by_key(|line| std::cmp::Reverse(line.current().plausibility));
        // The line as it was stays last, as behind a repair.
        lines.push(self.lines[0].refuted_copy());
        self.now = stamp;
        self.lines = lines;
        self.dedupe_lines();
        self.lines.truncate(MAX_LINES);
        self.report_moves();
        self.refresh_status();
        // A whole move left under way beyond the story's last (the next ply's piece already
        // set down) is read now, not at the next reading.
        if !matches!(self.read_status, BoardStatus::Settled) {
            self.explain_reading(stamp);
        }
        true
    }

    /// The stories told from node `base` of the likeliest line, with their costs, each as a
    /// line of its own from that node.
    fn stories_from(
        &self,
        line: &Line,
        base: usize,
        further_back: bool,
        reach: Reach,
    ) -> Vec<(u32, Line)> {
        let node = &line.nodes[base];
        let view = self.view_of(line);
        let live = view.live & !line.blind();
        let departed = self.evidence.departed_since(node.since) & live;
        // A square with no piece then or now was only passed over (a slid piece, a brush
        // beside its way) or flickered: no lift of a piece.
        let lifts = departed & (node.occupancy | self.sensed);
        // An unseen landing, the reply and the same player's next lift, at the least; and
        // no more than a few plies' worth (a board being set up or cleared is not a game).
        let most_plies = if further_back {
            MOST_PLIES_FURTHER_BACK
        } else {
            MOST_PLIES
        };
        if departed.count() < 3 || lifts.count() > most_plies + 2 {
            return Vec::new();
        }
        // No move adds a piece: more read on working sensors than the position holds (a
        // captured piece set back as the board is reset) is no story of moves.
        if (self.sensed & view.live).count() > node.occupancy.count() {
            return Vec::new();
        }
        let walk_with = |most_unseen: u32| {
            let mut walk = Walk {
                evidence: &self.evidence,
                since: node.since,
                sensed: self.sensed,
                live,
                departed,
                blind_pieces: node.occupancy & line.blind(),
                // (Nor where it tells again one of two plies told at once: the first may
                // have been a piece set down unseen short of its square, and moved on.)
                // (A story from further back tells several moves again: its pieces set down
                // unseen move on as any.)
                unseen_move_on: base == line.ply_count()
                    || (line.plies_open() == 2 && base + 2 == line.ply_count())
                    || base + line.plies_open() < line.ply_count(),
                taken_where_unseen: base == line.ply_count(),
                steady: self.steady,
                skew: self.evidence.poll_skew(),
                promotion: self.pending_promotion(),
                most_unseen,
                most_tried: reach.moves,
                most_plies,
                tried: 0,
                stories: Vec::new(),
            };
            let mut path = Vec::with_capacity(most_plies);
            walk.step(&node.position, node.occupancy, &mut path, Unseen::default());
            (walk.tried <= reach.moves).then_some(walk)
        };
        if further_back {
            // Told from further back, the walk is wide: the fewest pieces set down unseen
            // that tell a story, walked first.
            for most_unseen in 1..=reach.unseen {
                let Some(walk) = walk_with(most_unseen) else {
                    break;
                };
                let told = self.told(line, base, walk, further_back);
                if !told.is_empty() {
                    return told;
                }
            }
            return Vec::new();
        }
        // A walk through too many moves tells nothing; one setting fewer pieces down unseen
        // is smaller, and its stories the cheaper ones.
        (1..=reach.unseen)
            .rev()
            .find_map(walk_with)
            .map_or_else(Vec::new, |walk| self.told(line, base, walk, further_back))
    }

    /// The stories of `walk` from node `base` of `line` that are proven and tell every
    /// lift, with their costs, each as a line of its own from that node.
    fn told(&self, line: &Line, base: usize, walk: Walk, further_back: bool) -> Vec<(u32, Line)> {
        let node = &line.nodes[base];
        let view = self.view_of(line);
        let departed = walk.departed;
        // Each story is told on the base position alone: the game before is kept.
        let tail = Line {
            nodes: vec![node.clone()],
            dead: line.dead,
            pinned: 0,
            unseen: line.unseen & node.occupancy,
            refuted: false,
        };
        let mut told = Vec::new();
        // More squares wrong than a move under way leaves: no story, whatever else it says
        // (a cheap look before the line is played).
        let believed_at_most = view.live & !line.blind();
        for story in walk.stories {
            let wrong = (story.occupancy ^ self.sensed) & believed_at_most & !story.unseen;
            if wrong.count() > MOST_SQUARES_UNDER_WAY {
                continue;
            }
            if !self.proven(&story, &tail) {
                continue;
            }
            let caught_up = told_on(&tail, &story);
            if !self.all_lifts_told(&story, &caught_up, departed, view, further_back) {
                continue;
            }
            let believed = view.live & !caught_up.blind();
            let residual = if ((caught_up.current().occupancy ^ self.sensed) & believed).is_empty()
            {
                0
            } else {
                // No more than one move under way: a second hand is a story of its own. Not
                // after a capture no sensor saw: a piece in the air then (one knocked over by
                // the capturing hand) says the hand is not done.
                match in_progress_cost(&caught_up, view, &self.evidence, self.settled_at) {
                    Some(IN_PROGRESS) if !story.ends_onto_unseen => IN_PROGRESS,
                    _ => continue,
                }
            };
            let cost = PLY * story.steps.len() as u32
                + UNSEEN_LANDING * (story.unseen.count() as u32 + story.blind_landings)
                + residual;
            told.push((cost, caught_up));
        }
        told
    }

    /// Whether every square a hand left since is the story's, holds a piece of the move
    /// under way, lifted after the story's last move began, or has its piece back: one only
    /// touched or straightened (a pawn lifted and set back before the queen beside it moved)
    /// is no move of the story, and does not spoil it; nor does one that never held a piece
    /// (a slid piece passing over it, a flicker).
    fn all_lifts_told(
        &self,
        story: &Story,
        caught_up: &Line,
        departed: Bitboard,
        view: Sensed,
        further_back: bool,
    ) -> bool {
        let told = story
            .steps
            .iter()
            .fold(Bitboard::EMPTY, |all, step| all | touched_squares(step.m));
        let in_the_air = view.missing(caught_up.current().occupancy);
        let set_back = self.sensed & caught_up.current().occupancy;
        let last_began = story.steps.last().map(|step| step.departed);
        let since = caught_up.nodes[0].since;
        // A square with no piece before the story, after it or now: passed over, no lift.
        // Told from further back, not one a piece stood on alone a while, and left: one set
        // down unseen there and straightened, then moved on (29. Qc2 off-centre, centred,
        // then 31. Qd2), which the story must tell.
        let passed =
            (!caught_up.nodes[0].occupancy & !caught_up.current().occupancy & !self.sensed)
                .into_iter()
                .filter(|&square| {
                    !further_back
                        || !self
                            .evidence
                            .stood_alone_and_left(square, since, PASSING_MS)
                })
                .collect::<Bitboard>();
        (departed & !told & !passed).into_iter().all(|square| {
            set_back.contains(square)
                || (in_the_air.contains(square)
                    && self
                        .evidence
                        .last_departure(square, since)
                        .is_some_and(|left| Some(left) > last_began))
        })
    }

    /// Whether every piece the story sets down unseen is proven by its player's hand: a
    /// piece of theirs lifted after the reply came down (or, the reply unseen too, left).
    fn proven(&self, story: &Story, base: &Line) -> bool {
        story.steps.iter().enumerate().all(|(i, step)| {
            if step.landed.is_some() {
                return true;
            }
            let Some(reply) = story.steps.get(i + 1) else {
                return false;
            };
            // A piece of the other side seen coming down on it took it there.
            if story.seen_over.contains(step.m.to()) && reply.m.to() == step.m.to() {
                return true;
            }
            let reply_done = reply.landed.unwrap_or(reply.departed);
            // The player's pieces after the reply: one of them lifted after it.
            let mover = step_mover(story, i, base);
            let theirs = mover & self.evidence.departed_since(reply_done);
            // Or a later move of theirs from a square the line cannot see, after the reply.
            let moved_on = story.steps[i + 2..]
                .iter()
                .step_by(2)
                .any(|later| later.departed > reply_done);
            !theirs.is_empty() || moved_on
        })
    }
}

/// The squares of the pieces of the player who made step `i`, once the reply is made.
fn step_mover(story: &Story, i: usize, line: &Line) -> Bitboard {
    let mut position = line.current().position.clone();
    for step in &story.steps[..i] {
        position.play_unchecked(step.m);
    }
    let mover = position.turn();
    for step in story.steps.iter().skip(i).take(2) {
        position.play_unchecked(step.m);
    }
    position.board().by_color(mover)
}

/// The line with the story played, each move at the time its piece came to rest (an unseen
/// one just before the reply's piece left), and its unseen pieces.
fn told_on(line: &Line, story: &Story) -> Line {
    let mut told = line.clone();
    told.unseen |= story.unseen & !story.seen_over;
    let mut since = line.current().since;
    for (i, step) in story.steps.iter().enumerate() {
        let rested = step.landed.or_else(|| {
            story.steps.get(i + 1).map(|reply| Stamp {
                seq: reply.departed.seq.saturating_sub(1),
                t: reply.departed.t,
            })
        });
        since = since.max(rested.unwrap_or(since));
        told.play(step.m, since);
    }
    told.unseen &= told.current().occupancy;
    told
}

impl Walk<'_> {
    fn step(
        &mut self,
        position: &Chess,
        occupancy: Bitboard,
        path: &mut Vec<Step>,
        so_far: Unseen,
    ) {
        if path.len() >= self.most_plies {
            return;
        }
        let Unseen {
            squares: unseen,
            blind_landings,
            seen_over,
            must_leave,
        } = so_far;
        let previous = path.last().map_or(self.since, |step| step.departed);
        let used = path
            .iter()
            .fold(Bitboard::EMPTY, |all, step| all | footprint(step.m).vacated);
        // Only a piece on a square a hand left can move, or one the line cannot see (the
        // story's own unseen pieces too).
        let story_unseen = if self.unseen_move_on {
            unseen & !seen_over & !used
        } else {
            Bitboard::EMPTY
        };
        let movers = position.us() & (self.departed | self.blind_pieces | story_unseen) & !used;
        if movers.is_empty() {
            return;
        }
        for m in position.legal_moves() {
            let Some(from) = m.from().filter(|from| movers.contains(*from)) else {
                continue;
            };
            // A piece the story set down unseen on its victim's square shows no lift of its
            // own there: the square's departure was the victim's.
            let unseen_on_a_left_square = (story_unseen | self.blind_pieces).contains(from);
            let steps = if self.departed.contains(from) && !unseen_on_a_left_square {
                [
                    self.seen_leaving(m, previous, used)
                        .map(|step| (step, false)),
                    None,
                ]
            } else {
                self.moved_on_blind(m, previous)
            };
            for (step, set_down_unseen) in steps.into_iter().flatten() {
                self.tried += 1;
                if self.tried > self.most_tried {
                    return;
                }
                let landings = match step.landed {
                    Some(landed) => [Some((Some(landed), Bitboard::EMPTY, must_leave)), None],
                    None if set_down_unseen => [
                        Some((None, Bitboard::from_square(m.to()), must_leave)),
                        None,
                    ],
                    None => {
                        let landing = self.landing(
                            position,
                            &step,
                            previous,
                            occupancy,
                            story_unseen & self.steady,
                            unseen & !seen_over,
                        );
                        // A square read filled only after the other player lifted a piece
                        // was filled by a later move: this one may have come down there
                        // unseen, if it moves on (17... b5 off-centre, 18... b4 from it,
                        // then 19. Nb5).
                        let filled_later =
                            landing
                                .and_then(|(landed, _)| landed)
                                .is_some_and(|landed| {
                                    matches!(m, Move::Normal { capture: None, .. })
                                        && self.other_lifted_between(
                                            position,
                                            step.departed,
                                            landed,
                                        )
                                });
                        [
                            landing.map(|(landed, unseen)| (landed, unseen, must_leave)),
                            filled_later.then(|| {
                                let to = Bitboard::from_square(m.to());
                                (None, to, must_leave | to)
                            }),
                        ]
                    }
                };
                for (landed, newly_unseen, must_leave) in landings.into_iter().flatten() {
                    // One arrival is one piece coming down: no two moves of a story land on it.
                    let landed_on_already = |earlier: &Step| {
                        landed.is_some()
                            && earlier.landed == landed
                            && (footprint(earlier.m).landing() & footprint(m).landing()).any()
                    };
                    if path.iter().any(landed_on_already) {
                        continue;
                    }
                    // An unseen landing is proven only by its player lifting another piece later
                    // (or moving one the line cannot see): without any, no story through it is
                    // kept.
                    if newly_unseen.any() {
                        let theirs =
                            (position.us() & !footprint(m).vacated) | footprint(m).landing();
                        let departed_since = self.evidence.departed_since(previous);
                        // The unseen piece itself may take, later, on a square a hand left since.
                        let takes_on = self.unseen_move_on && {
                            let mut after = position.clone();
                            after.play_unchecked(m);
                            newly_unseen.into_iter().any(|square| {
                                (after.board().attacks_from(square) & after.us() & departed_since)
                                    .any()
                            })
                        };
                        // Or a piece of the other side lands on it, seen, later.
                        let taken_later = self.sensed.contains(m.to());
                        if (theirs & (departed_since | self.blind_pieces)).is_empty()
                            && !takes_on
                            && !taken_later
                        {
                            continue;
                        }
                    }
                    // A capture of a piece the story set down unseen comes down unseen too.
                    let onto_unseen = (footprint(m).landing() & story_unseen & self.steady).any();
                    let unseen = unseen | newly_unseen;
                    let blind_landing = (footprint(m).landing() & !self.live).any() || onto_unseen;
                    let blind_landings = blind_landings + u32::from(blind_landing);
                    if unseen.count() as u32 + blind_landings > self.most_unseen {
                        continue;
                    }
                    // A piece seen coming down where the story has one unseen took it (or it
                    // had moved on).
                    let seen_over = if landed.is_some() && !blind_landing {
                        seen_over | (footprint(m).landing() & unseen)
                    } else {
                        seen_over
                    };
                    let after = occupancy_after(occupancy, m);
                    // Every piece the story holds unseen stands where nothing reads.
                    let unseen_where_seen = (unseen & !seen_over & after & self.sensed).any();
                    path.push(Step { landed, ..step });
                    // Only a story with a piece unseen, or set down where the line sees nothing,
                    // is one no other search tells; it does not end on a square the line cannot
                    // see, where a piece still in the hand looks the same (the board has been
                    // still a second, but a hand may hold a piece that long: on a square the
                    // story itself set a piece unseen, the capture is the likelier).
                    let ends_blind = blind_landing && !onto_unseen;
                    // (Or taken there, in a story of new moves: a capture seen landing on
                    // it, 17. d5 off-centre, then 17... exd5.)
                    let taken = if self.taken_where_unseen {
                        path.iter()
                            .filter_map(|step| footprint(step.m).victim)
                            .fold(Bitboard::EMPTY, |all, square| all.with(square))
                    } else {
                        Bitboard::EMPTY
                    };
                    let left_all = (must_leave & !(used | taken | footprint(m).vacated)).is_empty();
                    if !ends_blind
                        && !unseen_where_seen
                        && left_all
                        && (unseen.any() || blind_landings > 0)
                    {
                        self.stories.push(Story {
                            steps: path.clone(),
                            unseen,
                            blind_landings,
                            ends_onto_unseen: onto_unseen,
                            seen_over,
                            occupancy: after,
                        });
                    }
                    let mut next = position.clone();
                    next.play_unchecked(m);
                    let so_far = Unseen {
                        squares: unseen,
                        blind_landings,
                        seen_over,
                        must_leave,
                    };
                    self.step(&next, after, path, so_far);
                    path.pop();
                }
            }
        }
    }

    /// Whether the other player than the one to move in `position` lifted a piece after
    /// `after` and before `before`.
    fn other_lifted_between(&self, position: &Chess, after: Stamp, before: Stamp) -> bool {
        (self.evidence.departed_since(after) & position.them())
            .into_iter()
            .filter_map(|square| self.evidence.first_departure(square, after))
            .any(|left| left < before)
    }

    /// The move's pieces left squares the sensors saw them leave, after the previous
    /// move's piece did, from squares no earlier move of the story left.
    fn seen_leaving(&self, m: Move, previous: Stamp, used: Bitboard) -> Option<Step> {
        if promotion_role(m).is_some_and(|role| role != self.promotion) {
            return None;
        }
        let print = footprint(m);
        if print.vacated.is_empty() || !(print.vacated & used).is_empty() {
            return None;
        }
        let mut departed = None;
        for square in print.vacated {
            if !self.departed.contains(square) {
                return None;
            }
            // A square left again later (by a victim taken there: 8. Bh4 off-centre,
            // 8... g5 onto its square, 9. Nxg5) was left by this move the first time
            // after the previous move's piece.
            let left = self
                .evidence
                .first_departure(square, previous)
                .or_else(|| self.evidence.last_departure(square, self.since))?;
            departed = departed.max(Some(left));
        }
        let departed = departed?;
        (departed > previous).then_some(Step {
            m,
            departed,
            landed: None,
        })
    }

    /// A piece the line cannot see moves on with no lift: told only by a square it reaches
    /// reading filled after the previous move's piece left (a capture proven on its victim's
    /// square), as a plain move or capture; it left just before. The square may have
    /// emptied again since, for a later move (21... exd3 from an unseen e4, seen on d3, then
    /// 22. cxd3). Or it takes and is set down unseen on its victim's square, told only by the
    /// victim taken off after the previous move's piece left (1... d5 unseen, 5... dxc4 set
    /// down off-centre again): then the step has no landing, and the second value is true.
    /// The square may have filled again since, with a later capture's piece (1. e4 unseen,
    /// 2. exd5 unseen, 2... Qxd5).
    fn moved_on_blind(&self, m: Move, previous: Stamp) -> [Option<(Step, bool)>; 2] {
        let Move::Normal {
            to,
            capture,
            promotion,
            ..
        } = m
        else {
            return [None, None];
        };
        if promotion.is_some_and(|role| role != self.promotion) || !self.live.contains(to) {
            return [None, None];
        }
        // (Only a capture: a quiet move leaves nothing on the board to tell it.)
        let taken_off = capture
            .and_then(|_| self.evidence.first_departure(to, previous))
            .filter(|taken_off| *taken_off > previous);
        // Its first arrival after the previous move's piece left (a capture's, after its
        // victim was taken off since).
        let after = if capture.is_some() {
            taken_off
        } else {
            Some(previous)
        };
        let arrival = after.and_then(|after| self.evidence.first_arrival(to, after, after.t));
        let seen = arrival.filter(|landed| *landed > previous).map(|landed| {
            let step = Step {
                m,
                departed: Stamp {
                    seq: landed.seq.saturating_sub(1),
                    t: landed.t,
                },
                landed: Some(landed),
            };
            (step, false)
        });
        // Set down unseen: the square empty since, or filled again by a later move's piece.
        let set_down_unseen = taken_off
            .filter(|_| self.sensed.contains(to) || arrival.is_none())
            .map(|taken_off| {
                let step = Step {
                    m,
                    departed: taken_off,
                    landed: None,
                };
                (step, true)
            });
        [seen, set_down_unseen]
    }

    /// Where the piece of `step`'s move, played from `position`, came down: on squares that
    /// filled after it left (a capture proven on its victim's square), or unseen on an
    /// empty one. The time it was seen there (its first arrival since it left: a later one
    /// is another piece's, a capturer taking it), `None` if unseen, and the squares it holds
    /// unseen. `story_unseen`: the story's unseen pieces that may be taken unseen;
    /// `held_unseen`: all it holds unseen.
    fn landing(
        &self,
        position: &Chess,
        step: &Step,
        previous: Stamp,
        occupancy: Bitboard,
        story_unseen: Bitboard,
        held_unseen: Bitboard,
    ) -> Option<(Option<Stamp>, Bitboard)> {
        let Step { m, departed, .. } = *step;
        let print = footprint(m);
        let from = m.from()?;
        if let Some(victim) = print.victim {
            // A capture on a square the line cannot see (a dead sensor's, or one with a
            // piece unseen on it, the line's or the story's, the capturer set down unseen
            // too) came down unseen by nature; it counts as an unseen landing.
            if !self.live.contains(victim) || story_unseen.contains(victim) {
                return Some((Some(departed), Bitboard::EMPTY));
            }
            // A piece the story set down unseen, taken by a capturer seen coming down on it
            // (17. d5 off-centre, 17... exd5): its first arrival there since it left.
            if self.taken_where_unseen
                && held_unseen.contains(victim)
                && self.sensed.contains(victim)
            {
                let landed = self.evidence.first_arrival(victim, departed, departed.t)?;
                return Some((Some(landed), Bitboard::EMPTY));
            }
            let way = slide_way(m);
            // Its own landing, not a recapture's on the same square later.
            let own_landing = self
                .evidence
                .capture_proofs(from, victim, way.passed | way.brushed, self.since)
                .last();
            // Its victim taken off since the previous move's piece left, and the square
            // empty since: the capturer was set down there off-centre. Unless it was seen
            // coming down, and taken off for a capture of it under way (15... Bxc3, 16.
            // bxc3 begun).
            if !self.sensed.contains(victim) {
                if let Some(proof) = own_landing
                    && self.taken_off_for_a_capture(position, m, proof)
                {
                    return Some((Some(proof), Bitboard::EMPTY));
                }
                let taken_off = self
                    .evidence
                    .last_departure(victim, self.since)
                    .is_some_and(|left| left > previous);
                return taken_off.then_some((None, Bitboard::from_square(victim)));
            }
            return Some((Some(own_landing?), Bitboard::EMPTY));
        }
        // Each piece lands after it left (a slid one may reach its square a moment before):
        // a castling's rook may come down before its king is lifted, so from the first of
        // the two to leave.
        let left = if m.is_castle() {
            print
                .vacated
                .into_iter()
                .filter_map(|square| self.evidence.last_departure(square, self.since))
                .min()
                .unwrap_or(departed)
        } else {
            departed
        };
        // Only a piece slid next to its square reads there before a poll finds it gone.
        let skew = if may_straddle(m) {
            self.skew
        } else {
            self.skew.min(POLL_SKEW_MS)
        };
        let earliest = left.t.saturating_sub(STRADDLE_MS + skew);
        let mut landed = None;
        let mut unseen = Bitboard::EMPTY;
        for square in print.filled & !occupancy {
            if !self.live.contains(square) {
                continue;
            }
            if self.sensed.contains(square) {
                let arrival = self.evidence.first_arrival(square, self.since, earliest)?;
                landed = landed.max(Some(arrival));
            } else {
                unseen |= square;
            }
        }
        // A castling is seen whole or not at all.
        if m.is_castle() && !unseen.is_empty() {
            return None;
        }
        // Where only dead sensors stand, it came down unseen by nature, at no cost.
        let landed = landed.unwrap_or(departed);
        Some((unseen.is_empty().then_some(landed), unseen))
    }

    /// Whether the piece `m` brought down on its square at `landed` was lifted off again as
    /// the victim of a capture: a piece of the other side that attacks the square lifted
    /// with it (the victim first, or a poll before).
    fn taken_off_for_a_capture(&self, position: &Chess, m: Move, landed: Stamp) -> bool {
        let square = m.to();
        let Some(left) = self.evidence.last_departure(square, landed) else {
            return false;
        };
        let mut after = position.clone();
        after.play_unchecked(m);
        let board = after.board();
        board
            .attacks_to(square, after.turn(), board.occupied())
            .into_iter()
            .filter_map(|from| self.evidence.last_departure(from, landed))
            .any(|lifted| lifted.t + self.skew.max(POLL_SKEW_MS) >= left.t)
    }
}

/// `tail`, a story told from node `base` of the likeliest line, played on `behind` (which
/// made the same moves since), if it is legal there; `behind` keeps the pieces it alone
/// has unseen (`first_unseen`: the likeliest line's).
fn told_behind(behind: &Line, base: usize, tail: &Line, first_unseen: Bitboard) -> Option<Line> {
    let mut whole = behind.clone();
    whole.nodes.truncate(base + 1);
    for node in &tail.nodes[1..] {
        let m = node.last_move?;
        if !whole.current().position.is_legal(m) {
            return None;
        }
        whole.play(m, node.since);
    }
    whole.unseen = (tail.unseen | (behind.unseen & !first_unseen)) & whole.current().occupancy;
    Some(whole)
}
