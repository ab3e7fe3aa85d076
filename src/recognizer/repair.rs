//! A line stuck on a board nothing explains may have read an earlier move's landing wrongly:
//! the piece came to rest elsewhere, off-centre, where its sensor did not see it (a slid
//! pawn that passed one square and stopped on the next, a bishop set down beside a pawn it
//! was read to have taken). The game since then is kept; only where that piece stands
//! changes. Or the moves read since a position a few plies back were a hand passing (a
//! piece knocked over and set back), and the board, still now, shows another move.

use shakmaty::{Bitboard, Move, Position, Role, Square};

use super::evidence::PASSING_MS;
use super::line::Line;
use super::moves::footprint;
use super::search::{IN_PROGRESS, PLY, UNSEEN_LANDING, explain, in_progress_cost};
use super::{BoardStatus, MAX_LINES, Recognizer, Stamp};

/// How many plies back a move may be found to have ended elsewhere, unseen.
pub(super) const DEEPEST: usize = 6;
/// How many plies back a move may be found to have ended on a square that reads a piece
/// the line does not have: a piece straightened long after it was set down.
const DEEPEST_SEEN: usize = 80;
/// A repaired line must come this close to the board before a search is tried on it.
const MOST_SQUARES_APART: usize = 4;
/// How many plies back the board may be read again from.
const REREAD: usize = 3;
/// Rewriting a move already several plies old costs more than any one-ply story.
const REPAIR: u32 = 2 * PLY;

impl Recognizer {
    /// The last move's piece left the square it was read landing on as soon as it got
    /// there, and nothing shows where it went: the slide went on, and the piece came to rest
    /// further along its way, off-centre. The nearest square there is taken, unseen; a later
    /// reading revises it. (A pawn slid a2-a3-a4 that stopped off-centre on a4.)
    pub(super) fn slid_on_unseen(&mut self, stamp: Stamp) -> bool {
        let line = &self.lines[0];
        let current = line.current();
        let Some(recorded) = current.last_move else {
            return false;
        };
        let Some(from) = recorded.from() else {
            return false;
        };
        let passed = recorded.to();
        let sliding = matches!(
            recorded.role(),
            Role::Pawn | Role::Bishop | Role::Rook | Role::Queen
        );
        if !sliding || recorded.is_capture() || recorded.is_promotion() {
            return false;
        }
        let view = self.view();
        if view.missing(current.occupancy) != Bitboard::from_square(passed)
            || !view.extra(current.occupancy).is_empty()
        {
            return false;
        }
        let went_on = self
            .evidence
            .last_departure(passed, current.since)
            .is_some_and(|left| left.t <= current.since.t + PASSING_MS);
        if !went_on {
            return false;
        }
        let previous = &line.nodes[line.ply_count() - 1];
        let further = squares_beyond(from, passed);
        let Some(onward) = further
            .iter()
            .take_while(|&&square| !previous.position.board().occupied().contains(square))
            .filter(|&&square| !self.sensed.contains(square))
            .find_map(|&square| {
                previous
                    .legal_moves()
                    .iter()
                    .map(|&(m, _)| m)
                    .find(|m| m.from() == Some(from) && m.to() == square && !m.is_promotion())
            })
        else {
            return false;
        };
        let explanation = super::search::Explanation {
            undo: 1,
            moves: vec![onward],
            cost: PLY,
            newly_unseen: Bitboard::from_square(onward.to()),
            ..Default::default()
        };
        self.advance(vec![(0, explanation)], stamp);
        true
    }

    /// Nothing explains the board: tries each recent move of the likeliest line as one whose
    /// piece came to rest on another square of its reach, unseen there unless it reads
    /// occupied now, with the later moves played as they were. A repaired line must explain
    /// the board (a ply or two on, or a move under way), and the game must prove the unseen
    /// piece: its side has moved again since, or its square now reads it. A move however
    /// old whose piece the line still has unseen where it was read landing, never read
    /// there since, is tried too when the board shows a move that piece alone forbids: the
    /// later moves are then played as the hands made them, a quiet move onto its true
    /// square becoming its capture (5. e3 unseen was 5. e4, taken by 6... Nxe4, not
    /// 6... Ne4, when a bishop goes f2-c5 over e3 ninety plies on).
    pub(super) fn repair_with_unseen_landing(&mut self, stamp: Stamp) -> bool {
        self.repair_landing(stamp, Bitboard::EMPTY, Scope::Any)
    }

    /// As `repair_with_unseen_landing`, for the last move alone: a capture guessed from a
    /// still board whose reply, as the board shows it, the capture forbids.
    pub(super) fn repair_the_last_guess(&mut self, stamp: Stamp) -> bool {
        self.repair_landing(stamp, Bitboard::EMPTY, Scope::LastGuess)
    }

    /// As `repair_the_last_guess`, for a capture guessed a few plies back, or a piece the
    /// line still has unseen where it was read landing: the board shows a move it forbids
    /// (10. Bb5 off-centre guessed as 10. Bxe6, then 11... f5 with the f7 pawn pinned by
    /// the bishop the guess put on e6; 26. Nf1 off-centre read as 26. Nb1, straightened on
    /// f1 as 28. axb5 is under way).
    pub(super) fn repair_what_the_board_forbids(&mut self, stamp: Stamp) -> bool {
        self.repair_landing(stamp, Bitboard::EMPTY, Scope::Forbidding)
    }

    /// As `repair_with_unseen_landing`, and a piece that left a square the line has empty
    /// is the repaired piece moving on from where it came down unseen: the repair must put
    /// it there.
    pub(super) fn repair_accounting_for_departures(&mut self, stamp: Stamp) -> bool {
        self.repair_landing(stamp, self.left_where_the_line_has_none(), Scope::Any)
    }

    /// The repair; where `left_unknown` names squares, only one putting its piece on them
    /// (it is that square, alone); `scope`: which moves may be repaired.
    fn repair_landing(&mut self, stamp: Stamp, left_unknown: Bitboard, scope: Scope) -> bool {
        let line = &self.lines[0];
        let n = line.ply_count();
        let played = line.moves();
        let unpinned = n.saturating_sub(line.pinned);
        let deepest = if scope == Scope::LastGuess {
            unpinned.min(1)
        } else {
            unpinned
        };
        // A piece straightened reads from then on; noise and passing hands do not last.
        // Not a piece set down for a while by the hand now moving: one lifted since the last
        // move and still in the air may have been put there on its way.
        let in_hand_since = self
            .view()
            .missing(line.current().occupancy)
            .into_iter()
            .filter_map(|square| self.evidence.first_departure(square, line.current().since))
            .min();
        let appeared = self
            .view()
            .extra(line.current().occupancy)
            .into_iter()
            .filter(|&square| {
                self.evidence
                    .last_arrival(square, Stamp::default())
                    .is_none_or(|arrival| {
                        stamp.t >= arrival.t + self.config.still_ms
                            && in_hand_since.is_none_or(|lifted| arrival < lifted)
                    })
            })
            .collect::<Bitboard>();
        let ctx = self.search_context();
        // Each repair's cost, how far back, the move it puts there and the moves after.
        let mut found: Vec<(u32, Repair)> = Vec::new();
        // The last move too when it was a capture guessed from a still board and the board
        // has shown `illegal` or waited since: the other player's reply may be what it forbids.
        let last_guessed = line.current().was_guessed
            && line.current().last_move.is_some_and(|m| m.is_capture())
            && matches!(
                self.read_status,
                BoardStatus::Illegal { .. } | BoardStatus::Waiting { .. }
            );
        let newest = if last_guessed { 1 } else { 2 };
        for back in newest..=deepest {
            let base = n - back;
            let recorded = played[base];
            let Some(from) = recorded.from() else {
                continue;
            };
            // Unseen, its piece was read where it passed: a square empty since before the
            // last move (a piece knocked over by the hand now moving is not this).
            let passed = recorded.to();
            // The line still has its piece there unseen, never read and never moved on.
            let still_unseen = !recorded.is_castle() && line.still_unseen_where_set_down(base);
            let recent = back <= DEEPEST_SEEN;
            if !recent && !still_unseen {
                continue;
            }
            // However old, a piece the line still has unseen may show on its true square.
            let appeared = if recent || still_unseen {
                appeared
            } else {
                Bitboard::EMPTY
            };
            let left_long_ago = back <= DEEPEST
                && self
                    .view()
                    .missing(line.current().occupancy)
                    .contains(passed)
                && self
                    .evidence
                    .last_departure(passed, line.current().since)
                    .is_none();
            // A capture guessed from a still board (only the capturer's lift was seen) may
            // have been the piece set down unseen: the victim shows when it moves, its
            // square emptying under the capturer the line has there.
            // So may a capture of a piece the line had unseen: neither piece was read there.
            let guessed_capture = recent
                && recorded.is_capture()
                && (line.nodes[base + 1].was_guessed || line.nodes[base + 1].took_unseen)
                && (back == 1
                    || self
                        .view()
                        .missing(line.current().occupancy)
                        .contains(passed));
            let landed_unseen = left_long_ago || guessed_capture;
            // Or it was set down unseen on a quiet square, the victim untouched, and the board,
            // still, shows a move the capture forbids (castling past a square the capturer
            // would attack): tried as for a piece the line still has unseen.
            let guess_forbids = recent
                && back <= DEEPEST
                && recorded.is_capture()
                && line.nodes[base + 1].was_guessed
                && (matches!(self.read_status, BoardStatus::Illegal { .. }) || scope != Scope::Any);
            // Or the guessed capturer was set down unseen on a quiet square of its reach, where
            // no position since had a piece, and has moved on from there, unseen too: the board
            // shows a piece standing where nothing was lifted, a square it could go on to
            // (3. exd5 guessed was 3. e5 off-centre when 8. e6 appears, d5 never left). So
            // may a capture of a piece the line had unseen.
            let guess_moved_on = recent
                && !appeared.is_empty()
                && recorded.is_capture()
                && (line.nodes[base + 1].was_guessed || line.nodes[base + 1].took_unseen);
            let held_since = if guess_moved_on {
                line.occupied_over(base + 1..line.nodes.len())
            } else {
                Bitboard::FULL
            };
            // Or the guessed capturer was seen since on another square of its reach, then
            // moved on from there.
            let seen_moving_on = if recent {
                self.seen_moving_on(line, base)
            } else {
                Bitboard::EMPTY
            };
            let other_kinds =
                landed_unseen || appeared.any() || seen_moving_on.any() || still_unseen;
            let doubted = match scope {
                Scope::Forbidding => guess_forbids || still_unseen,
                _ => guess_forbids || other_kinds,
            };
            if !doubted {
                continue;
            }
            let alternatives = line.nodes[base]
                .legal_moves()
                .iter()
                .filter(|&&(m, _)| m != recorded && m.from() == Some(from) && !m.is_castle());
            for &(alternative, _) in alternatives {
                let landing = alternative.to();
                let seen_now = appeared.contains(landing);
                let seen_then = seen_moving_on.contains(landing);
                let empty_now = !self.sensed.contains(landing);
                // A guessed capturer set down unseen and taken there since, by a move read as
                // quiet (15. c5 guessed as cxd5, then 15... Bxc5 read as Bc5: the d5 pawn it
                // never took moves twenty plies on).
                let taken = guessed_capture && played[base + 1..].iter().any(|m| m.to() == landing);
                let admitted = seen_now
                    || seen_then
                    || ((landed_unseen || still_unseen) && empty_now)
                    || taken;
                // Tried only as the guessed capturer set down there unseen and gone on since.
                let moved_on_from = !admitted
                    && guess_moved_on
                    && !alternative.is_capture()
                    && empty_now
                    && !held_since.contains(landing);
                let standing_unseen = guess_forbids && !alternative.is_capture() && empty_now;
                if !(left_unknown & !Bitboard::from_square(landing)).is_empty()
                    || line.blind().contains(landing)
                    || !(admitted || moved_on_from || standing_unseen)
                {
                    continue;
                }
                // Only for the unseen piece the line still has: the board must show a move
                // the line as it stands cannot make, and the later moves follow the hands.
                let for_unseen = !(seen_now || seen_then || (landed_unseen && empty_now));
                // Shown now elsewhere, the piece was not what a later capture of a piece the
                // line had unseen there took: that move was quiet (2. g3 off-centre read as
                // g4 and taken by 3... Bxg4 was 3... Bg4).
                let took_it_unseen = played[base + 1..]
                    .iter()
                    .zip(&line.nodes[base + 2..])
                    .any(|(m, node)| m.to() == passed && node.took_unseen);
                let repair = Repair {
                    back,
                    alternative,
                    onward: Vec::new(),
                    seen: seen_now || seen_then,
                    taken,
                    // (The move that took it read as quiet: it is a capture now. One that took
                    // it where it was read, with the piece shown elsewhere now, was quiet.)
                    adapted: for_unseen || taken || (seen_now && took_it_unseen),
                };
                // Only the repaired part: the search goes forward from its end.
                let Some(mut tail) = replayed(line, base, &repair, &played[base + 1..]) else {
                    continue;
                };
                if repair.stands_unseen() && tail.current().occupancy.contains(landing) {
                    tail.unseen |= Bitboard::from_square(landing);
                }
                let live = ctx.live & !tail.blind();
                let apart = (tail.current().occupancy ^ self.sensed) & live;
                if apart.count() > MOST_SQUARES_APART {
                    continue;
                }
                // Its side must have moved since, unless its square reads the piece now.
                let proven = seen_now || back >= 3;
                // A landing the sensors saw (the piece standing there, then moving on) is
                // likelier than one no sensor saw, on another square of its reach.
                let unseen_landing = if repair.seen { 0 } else { UNSEEN_LANDING };
                let cost = REPAIR + PLY * back as u32 + unseen_landing;
                if apart.is_empty() {
                    if proven && !for_unseen {
                        found.push((cost, repair));
                    }
                    continue;
                }
                tail.pinned = tail.ply_count();
                let mut explained = false;
                for onward in explain(&tail, &ctx) {
                    // Nor does an unseen piece move on unseen: the sensors must see the game
                    // (a piece seen standing there and leaving was seen moving on). The
                    // guessed capturer's must, onto a square the board shows a piece on; so
                    // may the piece a move the line forbids proves unseen (6... bxa4 taking
                    // a pawn unseen was 6... b4 when 31... b3 fills b3, nothing lifted).
                    let onto_appeared = |m: &Move| {
                        m.from() == Some(landing) && (footprint(*m).filled & appeared).any()
                    };
                    let moves_unseen = !seen_then
                        && onward.moves.iter().any(|m| {
                            m.from() == Some(landing)
                                && !((moved_on_from || for_unseen) && onto_appeared(m))
                        });
                    let moved_on_as_told = !moved_on_from || onward.moves.iter().any(onto_appeared);
                    // Nor is it taken there by a capturer set down unseen as well: the
                    // capture must read (no 80... Ne4 unseen taken by 81. fxe4, unread).
                    let taken_unseen = !self.sensed.contains(landing)
                        && onward
                            .moves
                            .iter()
                            .any(|m| m.is_capture() && m.to() == landing);
                    let forbidden = onward
                        .moves
                        .first()
                        .is_some_and(|&m| !line.current().position.is_legal(m));
                    // Nor does it come down on a square that has read a piece since before
                    // the repaired line's last move: another piece stands there (61. Rf4
                    // read again as Rg4 is no 63. f2-f4 onto the rook, unread).
                    let onto_a_piece_standing = onward.moves.iter().any(|m| {
                        (footprint(*m).filled & self.sensed)
                            .into_iter()
                            .any(|square| {
                                self.evidence
                                    .last_arrival(square, tail.current().since)
                                    .is_none()
                            })
                    });
                    if !moves_unseen
                        && !taken_unseen
                        && !onto_a_piece_standing
                        && moved_on_as_told
                        && (forbidden || !for_unseen)
                        && onward.moves.len() <= 2
                        && onward.unproven == 0
                    {
                        explained = true;
                        let onward_cost = onward.cost;
                        let repair = Repair {
                            onward: onward.moves,
                            ..repair.clone()
                        };
                        found.push((cost + onward_cost, repair));
                    }
                }
                // A move of the unseen piece's side under way proves it too. (Not of a piece
                // seen moving on: the board must show where it went.)
                let under_way = !explained
                    && !repair.seen
                    && !for_unseen
                    && (proven || back % 2 == 0)
                    && in_progress_cost(&tail, self.view(), &self.evidence, self.settled_at)
                        == Some(IN_PROGRESS);
                if under_way {
                    found.push((cost + IN_PROGRESS, repair));
                }
            }
        }
        let Some(cheapest) = found.iter().map(|(cost, _)| *cost).min() else {
            return false;
        };
        let mut cheapest_found: Vec<Repair> = found
            .into_iter()
            .filter(|(cost, _)| *cost == cheapest)
            .map(|(_, repair)| repair)
            .collect();
        // Among equals, an unseen landing on a square whose sensor has never changed first:
        // it may be a dead sensor's, where every piece comes down unseen.
        cheapest_found
            .sort_by_key(|repair| repair.seen || !self.steady.contains(repair.alternative.to()));
        let repaired = |line: &Line, repair: &Repair| {
            let base = n - repair.back;
            let played = line.moves();
            let mut repaired = line.clone();
            repaired.nodes.truncate(base);
            let tail = replayed(line, base, repair, &played[base + 1..])?;
            repaired.nodes.extend(tail.nodes);
            let landing = repair.alternative.to();
            if repair.stands_unseen() && repaired.current().occupancy.contains(landing) {
                repaired.unseen |= Bitboard::from_square(landing);
            }
            // (A line behind differs before the repair: the moves on must be legal there.)
            let mut position = repaired.current().position.clone();
            for &m in &repair.onward {
                if !position.is_legal(m) {
                    return None;
                }
                position.play_unchecked(m);
            }
            repaired.apply(0, &repair.onward, stamp);
            Some(repaired)
        };
        let mut lines: Vec<Line> = cheapest_found
            .iter()
            .filter_map(|repair| repaired(line, repair))
            .collect();
        // The lines behind, told apart by an earlier piece set down unseen (9. b4 or b3),
        // take the same repair where they made the same moves since, and it explains the
        // board as well there: it does not choose between them.
        let apart = |line: &Line| {
            let live = self.view().live & !line.blind();
            ((line.current().occupancy ^ self.sensed) & live).count()
        };
        let most_apart = lines.iter().map(apart).min();
        for behind in &self.lines[1..] {
            let behind_played = behind.moves();
            let same_since = |repair: &&Repair| {
                behind.ply_count() == n
                    && behind_played[n - repair.back..] == played[n - repair.back..]
            };
            let repaired_behind: Vec<Line> = cheapest_found
                .iter()
                .filter(same_since)
                .filter_map(|repair| repaired(behind, repair))
                .filter(|repaired| most_apart.is_some_and(|most| apart(repaired) <= most))
                .collect();
            lines.extend(repaired_behind);
        }
        for line in &mut lines {
            line.unseen &= line.current().occupancy;
        }
        if lines.is_empty() {
            return false;
        }
        // The line as it was stays last: the square that refuted it may read again (a
        // piece knocked over beside the guess's victim, set back: 4... exd5 guessed, d5
        // read empty a second as 6... c6 is played, then set back).
        lines.push(self.lines[0].refuted_copy());
        self.lines = lines;
        self.dedupe_lines();
        self.lines.truncate(MAX_LINES);
        self.report_moves();
        self.refresh_status();
        true
    }
}

impl Recognizer {
    /// The board reads as the likeliest line has it, but a capture guessed from a still
    /// board (only the capturer's lift was seen) a few plies back had its piece seen since
    /// on another square of its reach, where the line never had a piece: it appeared there
    /// on a still board, stood, and moved on (a knight set down off-centre on e4 and read
    /// as Nxa4, straightened after the reply and taking on c5 at once: the board is the
    /// guessed line's again). The guess is repaired onto that square, and the move it made
    /// from there read, when that explains the board.
    pub(super) fn repair_guess_seen_moving_on(&mut self, stamp: Stamp) -> bool {
        let line = &self.lines[0];
        if !self.view().matches(line.current().occupancy) {
            return false;
        }
        let n = line.ply_count();
        let seen = (n.saturating_sub(DEEPEST_SEEN).max(line.pinned)..n.saturating_sub(1))
            .any(|base| !self.seen_moving_on(line, base).is_empty());
        seen && self.repair_with_unseen_landing(stamp)
    }

    /// Whether a capture guessed from a still board, not too far back, could have put its
    /// piece on one of `squares` instead, or one move short of them (set down unseen and
    /// gone on since).
    pub(super) fn a_guess_could_have_landed_on(&self, squares: Bitboard) -> bool {
        let line = &self.lines[0];
        let n = line.ply_count();
        let occupied = line.current().occupancy;
        (n.saturating_sub(DEEPEST_SEEN).max(line.pinned).max(1)..=n).any(|ply| {
            let node = &line.nodes[ply];
            let previous = &line.nodes[ply - 1];
            let Some((guess, piece)) = node
                .last_move
                .filter(|_| node.was_guessed)
                .and_then(|m| Some((m, previous.position.board().piece_at(m.from()?)?)))
            else {
                return false;
            };
            previous.legal_moves().iter().any(|&(m, _)| {
                let landing = m.to();
                let onward = shakmaty::attacks::attacks(landing, piece, occupied)
                    | pawn_push(landing, piece);
                m.from() == guess.from()
                    && m != guess
                    && (squares.contains(landing) || (onward & squares).any())
            })
        })
    }

    /// Where the piece of a capture guessed from a still board (the ply after `base`) may
    /// have come down instead, as the sensors showed since: squares of its reach it read on
    /// after it was guessed, where no position of the line since had a piece, appearing
    /// alone and standing longer than a slide passes, and empty again now (it moved on).
    fn seen_moving_on(&self, line: &Line, base: usize) -> Bitboard {
        let Some(guess) = line.nodes.get(base + 1) else {
            return Bitboard::EMPTY;
        };
        let Some((recorded, from)) = guess
            .last_move
            .filter(|m| guess.was_guessed && m.is_capture())
            .and_then(|m| Some((m, m.from()?)))
        else {
            return Bitboard::EMPTY;
        };
        let held_since = line.occupied_over(base + 1..line.nodes.len());
        line.nodes[base]
            .legal_moves()
            .iter()
            .map(|&(m, _)| m)
            .filter(|&m| m != recorded && m.from() == Some(from) && !m.is_castle())
            .map(|m| m.to())
            .filter(|&square| {
                !held_since.contains(square)
                    && !self.sensed.contains(square)
                    && !line.blind().contains(square)
                    && self
                        .evidence
                        .stood_alone_and_left(square, guess.since, PASSING_MS)
            })
            .collect()
    }

    /// Nothing explains the board, and no older move repaired does: the board may show a
    /// move or two played from a position two or three plies back, the moves read since
    /// having been a hand's passing (a knocked piece read as a capture, then set back). The
    /// cheapest such story, every capture in it proven and its moves in the order the hands
    /// played them, replaces them.
    pub(super) fn reread_recent_moves(&mut self, stamp: Stamp) -> bool {
        let line = &self.lines[0];
        let n = line.ply_count();
        let ctx = self.search_context();
        let mut best: Option<(u32, usize, Vec<Move>)> = None;
        for back in 2..=REREAD.min(n.saturating_sub(line.pinned)) {
            let base = Line {
                nodes: vec![line.nodes[n - back].clone()],
                dead: line.dead,
                pinned: 0,
                unseen: line.unseen,
                refuted: false,
            };
            for story in explain(&base, &ctx) {
                let cost = REPAIR + PLY * back as u32 + story.cost;
                let proven = story.unproven == 0 && story.out_of_order == 0;
                if proven
                    && !story.moves.is_empty()
                    && story.moves.len() <= 2
                    && best.as_ref().is_none_or(|(least, ..)| cost < *least)
                {
                    best = Some((cost, back, story.moves));
                }
            }
        }
        let Some((_, back, moves)) = best else {
            return false;
        };
        // The lines behind, told apart by an earlier piece set down unseen, read the same
        // where they made the same moves since.
        let last_moves = |line: &Line| line.moves()[n - back..].to_vec();
        let read_again = last_moves(&self.lines[0]);
        let legal_there = |line: &Line| {
            let mut position = line.nodes[n - back].position.clone();
            moves.iter().all(|&m| {
                let legal = position.is_legal(m);
                position.play_unchecked(m);
                legal
            })
        };
        self.lines.retain(|line| {
            line.ply_count() == n && last_moves(line) == read_again && legal_there(line)
        });
        for line in &mut self.lines {
            line.apply(back, &moves, stamp);
        }
        self.dedupe_lines();
        self.report_moves();
        self.refresh_status();
        true
    }
}

/// Which moves a repair may rewrite.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Scope {
    /// Any it has reason to doubt.
    Any,
    /// The last move, a capture guessed from a still board.
    LastGuess,
    /// Captures guessed from a still board, a few plies back, and pieces the line still
    /// has unseen where they were read landing: the board shows a move one forbids.
    Forbidding,
}

/// A move of the line found to have ended elsewhere.
#[derive(Clone)]
struct Repair {
    /// How many plies from the end the move is.
    back: usize,
    /// The move the line has instead.
    alternative: Move,
    /// The moves after the line's last that the board shows.
    onward: Vec<Move>,
    /// Its landing read the piece (now, or standing there before it moved on): not unseen.
    seen: bool,
    /// A later move came down on its landing: the piece, unseen there, was taken.
    taken: bool,
    /// A later move that is no longer legal as read is played as the hands made it: the
    /// same piece from the same square to the same one, now a capture or no longer one.
    adapted: bool,
}

impl Repair {
    /// Whether its piece still stands where it came down, unseen: neither read there nor
    /// taken since.
    fn stands_unseen(&self) -> bool {
        !self.seen && !self.taken
    }
}

/// The line's node `base`, then the repair's move and the moves played after the one it
/// replaces, each at the time its node was reached: only the part the repair changes, as a
/// line of its own. `None` if a move is no longer legal.
fn replayed(line: &Line, base: usize, repair: &Repair, later: &[Move]) -> Option<Line> {
    let mut tail = Line {
        nodes: vec![line.nodes[base].clone()],
        dead: line.dead,
        pinned: 0,
        unseen: line.unseen,
        refuted: false,
    };
    for (offset, &m) in std::iter::once(&repair.alternative)
        .chain(later)
        .enumerate()
    {
        let m = if tail.current().position.is_legal(m) {
            m
        } else if repair.adapted && offset > 0 {
            tail.current()
                .legal_moves()
                .iter()
                .map(|&(made, _)| made)
                .find(|made| {
                    made.from() == m.from()
                        && made.to() == m.to()
                        && made.promotion() == m.promotion()
                })?
        } else {
            return None;
        };
        let was = &line.nodes[base + 1 + offset];
        tail.play(m, was.since);
        // A later move guessed stays a guess, for a repair of its own.
        if let Some(node) = tail.nodes.last_mut().filter(|_| offset > 0) {
            node.was_guessed = was.was_guessed;
            node.took_unseen = was.took_unseen && m.is_capture();
        }
    }
    // The square the piece was read landing on, if it no longer stands there, reads again.
    tail.unseen &= tail.current().occupancy;
    Some(tail)
}

/// The squares past `to` on the straight way from `from` through it, nearest first.
fn squares_beyond(from: Square, to: Square) -> Vec<Square> {
    let mut beyond: Vec<Square> = shakmaty::attacks::ray(from, to)
        .into_iter()
        .filter(|&square| shakmaty::attacks::between(from, square).contains(to))
        .collect();
    beyond.sort_by_key(|&square| square.distance(to));
    beyond
}

/// The square a pawn on `square` goes on to (none for another piece).
fn pawn_push(square: Square, piece: shakmaty::Piece) -> Bitboard {
    let step = match piece.color {
        shakmaty::Color::White => 8,
        shakmaty::Color::Black => -8,
    };
    square
        .offset(step)
        .filter(|_| piece.role == Role::Pawn)
        .map_or(Bitboard::EMPTY, Bitboard::from_square)
}
