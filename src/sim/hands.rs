//! A model of hands: how a person's moves become lifts and places, with the variety real
//! players show and the noise real sensors add.

use shakmaty::{Bitboard, CastlingSide, Chess, File, Move, Piece, Position, Rank, Role, Square};

use crate::game::GameRecord;

/// One physical thing that happens at the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// A piece leaves a square.
    Lift(Square),
    /// A piece is put down on a square.
    Place(Square, Piece),
    /// A sliding piece arrives on a square it only crosses (or brushes) on its way: the
    /// sensor reads it occupied (a place event) until it slides on, a `Lift` of the square.
    Pass(Square, Piece),
    /// The piece on a square is taken off and another put down in the same motion (a fast
    /// capture): the sensor never reads the square empty.
    Replace(Square, Piece),
    /// The piece on a square is knocked over: it lies beside the square, which reads empty.
    Knock(Square),
    /// A knocked-over piece is set back on its own square.
    SetBack(Square),
    /// A piece is set down off-centre: it stands on the square, but the square's sensor
    /// reads it empty (and an event board sends no place).
    PlaceUnseen(Square, Piece),
    /// An off-centre piece is straightened: its sensor sees it now.
    Straighten(Square),
    /// A square's sensor reads empty for a moment while its piece stays.
    Dropout(Square, u64),
    /// Electrical noise: a square's sensor reads the opposite for one reading.
    Emi(Square),
    /// The pieces are set up for a new game from this position.
    SetUp(Chess),
    /// Bytes that are not the protocol's (line noise), sent as they are.
    Garbage(Vec<u8>),
    /// The start of a frame, cut off (the rest never comes).
    TornFrame,
    /// The device goes away for this many milliseconds, then comes back.
    Unplug(u64),
}

/// How the hands behave; every choice is drawn from a seeded generator, so a script repeats.
///
/// The chances from `vary` on are 0.0 by default: the plain hands' script stays what it was,
/// and the lively behaviours draw from a generator of their own.
#[derive(Clone, Debug)]
pub struct HandStyle {
    pub seed: u64,
    /// Milliseconds of thinking between moves.
    pub think_ms: u64,
    /// Milliseconds between the steps of one move.
    pub step_ms: u64,
    /// Chance that a capture lifts the victim first.
    pub victim_first: f64,
    /// Chance that castling moves the rook first.
    pub rook_first: f64,
    /// Chance that a player straightens one of their pieces before moving.
    pub adjust: f64,
    /// Chance of a sensor dropout somewhere during a move.
    pub dropout: f64,
    /// How much thinking and step times vary: each is drawn from (1 ± vary) times its mean.
    pub vary: f64,
    /// Chance that a move other than a knight's slides along its path: each square passed
    /// reads occupied for 15–120 ms, in order.
    pub slide: f64,
    /// Chance that a diagonal slide brushes an empty square beside its path.
    pub brush: f64,
    /// Chance that the moving hand knocks over a piece next to the origin or destination,
    /// to be set back 0.3–3 s later.
    pub knock: f64,
    /// Chance that a piece is set down on an empty square next to its destination and
    /// nudged onto it 0.2–1.5 s later.
    pub nudge: f64,
    /// Chance that a pawn is set down off-centre, unseen by its sensor until it is
    /// straightened (seconds to tens of seconds later, or never), moved or captured; other
    /// pieces have a fifth of it.
    pub unseen: f64,
    /// Chance that a capture takes the victim off and puts the capturer down in one motion,
    /// so the square never reads empty.
    pub fast_capture: f64,
    /// Chance of electrical noise on some square (one reading flipped) during a move.
    pub emi: f64,
}

impl Default for HandStyle {
    fn default() -> Self {
        Self {
            seed: 1,
            think_ms: 1500,
            step_ms: 250,
            victim_first: 0.5,
            rook_first: 0.5,
            adjust: 0.1,
            dropout: 0.05,
            vary: 0.0,
            slide: 0.0,
            brush: 0.0,
            knock: 0.0,
            nudge: 0.0,
            unseen: 0.0,
            fast_capture: 0.0,
            emi: 0.0,
        }
    }
}

impl HandStyle {
    /// Hands as players at a real board have them: moves slid along the board, a piece
    /// knocked over now and then, pieces nudged into place, a pawn left off-centre, fast
    /// captures, and a little electrical noise.
    pub fn lively() -> Self {
        Self {
            vary: 0.5,
            slide: 0.4,
            brush: 0.3,
            knock: 0.04,
            nudge: 0.06,
            unseen: 0.05,
            fast_capture: 0.2,
            emi: 0.05,
            ..Self::default()
        }
    }
}

/// A script and what a perfect reader of it knows.
#[derive(Clone, Debug, Default)]
pub struct Scripted {
    pub script: Vec<(u64, Action)>,
    /// For each game, the time each move was physically completed: its last lift or place.
    pub done_at: Vec<Vec<u64>>,
    /// How often the hands did each lively thing.
    pub counts: HandCounts,
}

/// How often the hands did each lively thing in a script.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HandCounts {
    /// Moves slid along the board.
    pub slides: usize,
    /// Slides that brushed a square beside their path.
    pub brushes: usize,
    /// Pieces knocked over (and set back).
    pub knocks: usize,
    /// Moves set down beside their destination and nudged onto it.
    pub nudges: usize,
    /// Moves whose piece was left off-centre, unseen.
    pub unseen: usize,
    /// Off-centre pieces straightened later (by the player or adjusting it).
    pub straightened: usize,
    /// Off-centre pieces moved on unseen.
    pub unseen_moved: usize,
    /// Off-centre pieces captured.
    pub unseen_captured: usize,
    /// Off-centre pieces still unseen when the game ended.
    pub unseen_left: usize,
    /// Captures made in one motion.
    pub fast_captures: usize,
    /// Readings flipped by electrical noise.
    pub emi: usize,
}

impl HandCounts {
    pub fn add(&mut self, other: &HandCounts) {
        self.slides += other.slides;
        self.brushes += other.brushes;
        self.knocks += other.knocks;
        self.nudges += other.nudges;
        self.unseen += other.unseen;
        self.straightened += other.straightened;
        self.unseen_moved += other.unseen_moved;
        self.unseen_captured += other.unseen_captured;
        self.unseen_left += other.unseen_left;
        self.fast_captures += other.fast_captures;
        self.emi += other.emi;
    }
}

/// The timed actions that play `games` one after another, each from its own setup.
pub fn script_games(games: &[GameRecord], style: &HandStyle) -> Vec<(u64, Action)> {
    script_session(games, style).script
}

/// Players who think about `think_ms` a move, game after game (the built-in samples), until
/// `hours` have passed: the script of a long evening at the board.
pub fn script_hours(hours: u64, think_ms: u64) -> Vec<(u64, Action)> {
    let style = HandStyle {
        think_ms,
        ..HandStyle::default()
    };
    let games = super::sample::games();
    let mut script = Vec::new();
    let mut offset = 0;
    let mut round = 0;
    while offset < hours * 3_600_000 {
        let played = script_games(
            &games,
            &HandStyle {
                seed: round,
                ..style.clone()
            },
        );
        let end = played.last().map_or(0, |(t, _)| *t);
        script.extend(played.into_iter().map(|(t, a)| (offset + t, a)));
        offset += end + 30_000;
        round += 1;
    }
    script
}

/// The lively behaviours' own generator, so the plain hands draw what they always drew.
const LIVELY_SEED: u64 = 0x6c69_7665_6c79_2121;
/// Chance that an off-centre piece is never straightened.
const NEVER_STRAIGHTENED: f64 = 0.4;

/// An off-centre piece, and when it is to be straightened (never, if `None`).
struct Unseen {
    square: Square,
    straighten_at: Option<u64>,
    /// Its move had another that looks the same on the sensors (e2–e3 for e2–e4, any
    /// square on a rook's line): it is straightened before another move touches it, or
    /// by the end of the game, so that the game can be told in principle. A pawn's own
    /// next move tells where it stood, so it may move on unseen.
    reveal: bool,
}

/// The timed actions that play `games`, and when each move was completed.
pub fn script_session(games: &[GameRecord], style: &HandStyle) -> Scripted {
    let mut rng = fastrand::Rng::with_seed(style.seed);
    let mut extra = fastrand::Rng::with_seed(style.seed ^ LIVELY_SEED);
    let mut script = Vec::new();
    let mut done_at = Vec::new();
    let mut counts = HandCounts::default();
    let mut t = 500;
    for game in games {
        script.push((t, Action::SetUp(game.start.clone())));
        t += varied(style.think_ms, style.vary, &mut extra);
        let mut position = game.start.clone();
        let mut unseen: Vec<Unseen> = Vec::new();
        let mut done = Vec::new();
        for (ply, &m) in game.moves.iter().enumerate() {
            counts.straightened += straighten_due(&mut unseen, t, &mut script);
            // An off-centre piece that must be seen before this move is straightened first.
            if let Some(index) = unseen.iter().position(|u| u.reveal && touches(m, u.square)) {
                script.push((t, Action::Straighten(unseen[index].square)));
                unseen.remove(index);
                counts.straightened += 1;
                t += varied(2 * style.step_ms, style.vary, &mut extra);
            }
            let started = t;
            let step = varied(style.step_ms, style.vary, &mut extra);
            let mover = position.turn();
            if rng.f64() < style.adjust
                && let Some(square) = pick(&mut rng, position.board().by_color(mover))
                && let Some(piece) = position.board().piece_at(square)
            {
                // Adjusting an off-centre piece sets it straight.
                if let Some(index) = unseen.iter().position(|u| u.square == square) {
                    unseen.remove(index);
                    counts.straightened += 1;
                }
                script.push((t, Action::Lift(square)));
                script.push((t + step / 2, Action::Place(square, piece)));
                t += step;
            }
            let base = hand_steps(&position, m, style, &mut rng);
            let unseen_now = unseen.iter().map(|u| u.square).collect();
            let planned = plan_move(&position, m, base, step, style, &mut extra, unseen_now);
            counts.add(&planned.counts);
            script.extend(planned.actions.iter().map(|(at, a)| (t + at, a.clone())));
            done.push(t + planned.done);
            let finished = t + planned.end;
            unseen.retain(|u| {
                if !touches(m, u.square) {
                    return true;
                }
                if m.from() == Some(u.square) {
                    counts.unseen_moved += 1;
                } else {
                    counts.unseen_captured += 1;
                }
                false
            });
            for u in &mut unseen {
                // Nobody straightens a piece in the middle of a move.
                if let Some(at) = u.straighten_at.as_mut()
                    && *at >= t
                    && *at < finished + 100
                {
                    *at = finished + 100 + extra.u64(0..=400);
                }
            }
            if let Some(square) = planned.unseen {
                let straighten_at = (extra.f64() >= NEVER_STRAIGHTENED)
                    .then(|| t + planned.done + extra.u64(2_000..=30_000));
                let own_move_next = game.moves[ply + 1..]
                    .iter()
                    .find(|later| touches(**later, square))
                    .is_some_and(|later| later.from() == Some(square));
                let pawn = m.role() == Role::Pawn;
                unseen.push(Unseen {
                    square,
                    straighten_at,
                    reveal: looks_like_another(&position, m) && !(pawn && own_move_next),
                });
            }
            t = finished;
            if rng.f64() < style.dropout
                && let Some(square) = pick(&mut rng, position.board().occupied())
            {
                script.push((t, Action::Dropout(square, 30)));
            }
            position.play_unchecked(m);
            t += varied(style.think_ms, style.vary, &mut extra);
            if extra.f64() < style.emi {
                let at = started + extra.u64(0..=t - started);
                script.push((at, Action::Emi(Square::new(extra.u32(0..64)))));
                counts.emi += 1;
            }
        }
        // Pieces straightened before the board is set up again; the others never are,
        // unless the game could not be told without.
        counts.straightened += straighten_due(&mut unseen, t, &mut script);
        for u in &unseen {
            if u.reveal {
                script.push((t, Action::Straighten(u.square)));
                counts.straightened += 1;
            } else {
                counts.unseen_left += 1;
            }
        }
        done_at.push(done);
    }
    // Set-backs, straightenings and noise may fall among later actions.
    script.sort_by_key(|(at, _)| *at);
    Scripted {
        script,
        done_at,
        counts,
    }
}

/// Whether move `m` touches `square`: leaves it, lands on it, takes a piece from it.
fn touches(m: Move, square: Square) -> bool {
    match m {
        Move::EnPassant { from, to } => {
            [from, to, Square::from_coords(to.file(), from.rank())].contains(&square)
        }
        Move::Castle { king, rook } => {
            let (king_to, rook_to) = castle_targets(king, rook);
            [king, rook, king_to, rook_to].contains(&square)
        }
        _ => m.from() == Some(square) || m.to() == square,
    }
}

/// Whether a move that lands unseen looks the same as another move of the same piece: a
/// non-capture with another non-capture from the same square.
fn looks_like_another(position: &Chess, m: Move) -> bool {
    if m.is_capture() {
        return false;
    }
    position.legal_moves().iter().any(|other| {
        *other != m && other.from() == m.from() && !other.is_capture() && !other.is_castle()
    })
}

/// Straightens the off-centre pieces whose time has come before `t`; returns how many.
fn straighten_due(unseen: &mut Vec<Unseen>, t: u64, script: &mut Vec<(u64, Action)>) -> usize {
    let before = unseen.len();
    unseen.retain(|u| match u.straighten_at {
        Some(at) if at < t => {
            script.push((at, Action::Straighten(u.square)));
            false
        }
        _ => true,
    });
    before - unseen.len()
}

/// `mean` milliseconds, varied by up to `vary` of it either way.
fn varied(mean: u64, vary: f64, rng: &mut fastrand::Rng) -> u64 {
    if vary <= 0.0 {
        return mean;
    }
    let factor = 1.0 + vary.min(0.95) * (2.0 * rng.f64() - 1.0);
    ((mean as f64 * factor).round() as u64).max(1)
}

fn pick(rng: &mut fastrand::Rng, squares: shakmaty::Bitboard) -> Option<Square> {
    let count = squares.count();
    (count > 0)
        .then(|| squares.into_iter().nth(rng.usize(..count)))
        .flatten()
}

/// One move's actions with their times from the move's start.
struct Planned {
    actions: Vec<(u64, Action)>,
    /// The move's last lift or place.
    done: u64,
    /// When the hands are free again (the next action may follow).
    end: u64,
    /// The square the moving piece was left off-centre on.
    unseen: Option<Square>,
    counts: HandCounts,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Manner {
    Plain,
    Slide,
    Nudge,
    Fast,
}

/// How the hands make move `m`: the plain `base` steps, or slid, nudged or captured fast,
/// with a piece knocked over and the piece left off-centre as `style`'s chances say.
fn plan_move(
    position: &Chess,
    m: Move,
    base: Vec<Action>,
    step: u64,
    style: &HandStyle,
    rng: &mut fastrand::Rng,
    unseen: Bitboard,
) -> Planned {
    let board = position.board();
    let nudge_square = nudge_square(position, m, rng);
    let manner = if slides(m) && rng.f64() < style.slide {
        Manner::Slide
    } else if nudge_square.is_some() && rng.f64() < style.nudge {
        Manner::Nudge
    } else if matches!(
        m,
        Move::Normal {
            capture: Some(_),
            ..
        }
    ) && rng.f64() < style.fast_capture
    {
        Manner::Fast
    } else {
        Manner::Plain
    };
    let mut actions = match (manner, nudge_square) {
        (Manner::Slide, _) => slide_steps(position, m, step, style, rng),
        (Manner::Nudge, Some(beside)) => nudge_steps(position, m, beside, step, rng),
        (Manner::Fast, _) => fast_steps(position, m, step),
        _ => base
            .into_iter()
            .enumerate()
            .map(|(i, a)| (i as u64 * step, a))
            .collect(),
    };
    actions.sort_by_key(|(at, _)| *at);

    let mut counts = HandCounts::default();
    match manner {
        Manner::Slide => {
            counts.slides = 1;
            let on_line = m.from().map_or(Bitboard::EMPTY, |from| {
                line_between(from, m.to()).into_iter().collect::<Bitboard>()
            });
            counts.brushes = usize::from(
                actions
                    .iter()
                    .any(|(_, a)| matches!(a, Action::Pass(sq, _) if !on_line.contains(*sq))),
            );
        }
        Manner::Nudge => counts.nudges = 1,
        Manner::Fast => counts.fast_captures = 1,
        Manner::Plain => {}
    }

    // Every square the move's hands touch or cross (a castling's four, an en passant
    // victim's).
    let mut touched = Bitboard::EMPTY;
    for (_, action) in &actions {
        if let Action::Lift(sq)
        | Action::Place(sq, _)
        | Action::Pass(sq, _)
        | Action::Replace(sq, _) = action
        {
            touched.add(*sq);
        }
    }

    // The moving piece left off-centre on its destination.
    let mut left_unseen = None;
    let unseen_chance = match m {
        Move::Normal {
            role: Role::Pawn,
            promotion: None,
            ..
        }
        | Move::EnPassant { .. } => style.unseen,
        Move::Normal {
            promotion: None, ..
        } => style.unseen / 5.0,
        _ => 0.0,
    };
    if manner != Manner::Fast && rng.f64() < unseen_chance {
        let to = m.to();
        if let Some(last) = actions
            .iter_mut()
            .rev()
            .find(|(_, a)| matches!(a, Action::Place(sq, _) if *sq == to))
            && let Action::Place(sq, piece) = last.1
        {
            last.1 = Action::PlaceUnseen(sq, piece);
            left_unseen = Some(to);
            counts.unseen = 1;
        }
    }

    let mut done = actions.last().map_or(0, |(at, _)| *at);
    let mut end = done + step;

    // A piece next to the origin or the destination knocked over by the moving hand.
    if rng.f64() < style.knock {
        let (origin, destination) = match m {
            Move::Castle { king, rook } => (king, castle_targets(king, rook).0),
            _ => (m.from().unwrap_or(m.to()), m.to()),
        };
        let near_origin = rng.bool();
        let centre = if near_origin { origin } else { destination };
        let candidates =
            shakmaty::attacks::king_attacks(centre) & board.occupied() & !touched & !unseen;
        if let Some(square) = pick(rng, candidates) {
            let lifted = actions
                .iter()
                .find(|(_, a)| matches!(a, Action::Lift(sq) if *sq == origin))
                .map_or(0, |(at, _)| *at);
            let lasts = rng.u64(300..=3_000);
            if near_origin && manner != Manner::Slide && rng.bool() {
                // Knocked as the piece is lifted, set back before the move goes on.
                let knock = lifted + rng.u64(5..=40);
                let set_back = knock + lasts;
                let pause = lasts + rng.u64(100..=400);
                for (at, _) in &mut actions {
                    if *at > knock {
                        *at += pause;
                    }
                }
                actions.push((knock, Action::Knock(square)));
                actions.push((set_back, Action::SetBack(square)));
                done += pause;
                end += pause;
            } else {
                let knock = if near_origin {
                    lifted + rng.u64(5..=40)
                } else {
                    done.saturating_sub(rng.u64(0..=30))
                };
                let set_back = (knock + lasts).max(done + rng.u64(100..=600));
                actions.push((knock, Action::Knock(square)));
                actions.push((set_back, Action::SetBack(square)));
                end = end.max(set_back + step);
            }
            counts.knocks = 1;
            actions.sort_by_key(|(at, _)| *at);
        }
    }

    Planned {
        actions,
        done,
        end,
        unseen: left_unseen,
        counts,
    }
}

/// Where the king and the rook of a castling land.
fn castle_targets(king: Square, rook: Square) -> (Square, Square) {
    let side = CastlingSide::from_king_side(king < rook);
    let rank = king.rank();
    (
        Square::from_coords(side.king_to_file(), rank),
        Square::from_coords(side.rook_to_file(), rank),
    )
}

/// Whether a move can be slid: anything but a knight's move, a drop or a Chess960 castling.
fn slides(m: Move) -> bool {
    match m {
        Move::Normal { role, .. } => role != Role::Knight,
        Move::EnPassant { .. } => true,
        Move::Castle { king, rook } => {
            king.file() == File::E && matches!(rook.file(), File::A | File::H)
        }
        Move::Put { .. } => false,
    }
}

/// The squares strictly between two squares on a line, in order from `from`.
fn line_between(from: Square, to: Square) -> Vec<Square> {
    let (ff, fr) = (i32::from(from.file()), i32::from(from.rank()));
    let (tf, tr) = (i32::from(to.file()), i32::from(to.rank()));
    let (df, dr) = (tf - ff, tr - fr);
    if !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
        return Vec::new();
    }
    let (sf, sr) = (df.signum(), dr.signum());
    let mut squares = Vec::new();
    let (mut f, mut r) = (ff + sf, fr + sr);
    while (f, r) != (tf, tr) {
        squares.push(square_at(f, r));
        f += sf;
        r += sr;
    }
    squares
}

fn square_at(file: i32, rank: i32) -> Square {
    Square::from_coords(File::new(file as u32), Rank::new(rank as u32))
}

/// The squares a sliding piece covers from `from` to `to`, with how long it stays on each
/// square it crosses; a diagonal step may brush an empty square beside the line.
fn slide_path(
    from: Square,
    to: Square,
    empty: Bitboard,
    brush: f64,
    rng: &mut fastrand::Rng,
) -> Vec<(Square, u64)> {
    let mut cells = vec![(from, 0)];
    let mut brushed = false;
    let mut previous = from;
    for next in line_between(from, to).into_iter().chain([to]) {
        let diagonal = previous.file() != next.file() && previous.rank() != next.rank();
        if diagonal && !brushed && rng.f64() < brush {
            let beside = [
                Square::from_coords(previous.file(), next.rank()),
                Square::from_coords(next.file(), previous.rank()),
            ];
            let choice = beside[rng.usize(..2)];
            if empty.contains(choice) {
                cells.push((choice, rng.u64(20..=60)));
                brushed = true;
            }
        }
        cells.push((next, rng.u64(15..=120)));
        previous = next;
    }
    cells
}

/// The contacts of a piece sliding along `cells`, starting at `start`: it arrives on each
/// square in turn and leaves the one before within a few milliseconds (either first).
/// Returns the actions and the time it arrives on the last square.
fn slide_contacts(
    cells: &[(Square, u64)],
    moving: Piece,
    landing: Piece,
    start: u64,
    rng: &mut fastrand::Rng,
) -> (Vec<(u64, Action)>, u64) {
    let mut actions = Vec::new();
    let mut arrive = start + 5;
    for (i, &(square, _)) in cells.iter().enumerate().skip(1) {
        let last = i + 1 == cells.len();
        actions.push((
            arrive,
            if last {
                Action::Place(square, landing)
            } else {
                Action::Pass(square, moving)
            },
        ));
        let leave = arrive.saturating_add_signed(rng.i64(-4..=4)).max(start);
        actions.push((leave, Action::Lift(cells[i - 1].0)));
        if !last {
            arrive += cells[i].1;
        }
    }
    (actions, arrive)
}

/// A move slid along the board. A capture's victim is lifted first, or just as the
/// capturer slides on; castling slides the king and lifts the rook.
fn slide_steps(
    position: &Chess,
    m: Move,
    step: u64,
    style: &HandStyle,
    rng: &mut fastrand::Rng,
) -> Vec<(u64, Action)> {
    let mover = position.turn();
    let board = position.board();
    let empty = !board.occupied();
    match m {
        Move::Normal {
            role,
            from,
            to,
            capture,
            promotion,
        } => {
            let moving = Piece { color: mover, role };
            let landing = Piece {
                color: mover,
                role: promotion.unwrap_or(role),
            };
            let cells = slide_path(from, to, empty, style.brush, rng);
            match capture {
                None => slide_contacts(&cells, moving, landing, 0, rng).0,
                Some(_) if rng.f64() < 0.8 => {
                    let mut actions = vec![(0, Action::Lift(to))];
                    actions.extend(slide_contacts(&cells, moving, landing, step, rng).0);
                    actions
                }
                Some(_) => {
                    let (mut actions, arrive) = slide_contacts(&cells, moving, landing, 0, rng);
                    let lifted = arrive.saturating_sub(rng.u64(20..=100));
                    actions.push((lifted, Action::Lift(to)));
                    actions
                }
            }
        }
        Move::EnPassant { from, to } => {
            let victim = Square::from_coords(to.file(), from.rank());
            let pawn = Piece {
                color: mover,
                role: Role::Pawn,
            };
            let cells = slide_path(from, to, empty, style.brush, rng);
            if rng.bool() {
                let mut actions = vec![(0, Action::Lift(victim))];
                actions.extend(slide_contacts(&cells, pawn, pawn, step, rng).0);
                actions
            } else {
                let (mut actions, arrive) = slide_contacts(&cells, pawn, pawn, 0, rng);
                actions.push((arrive + step, Action::Lift(victim)));
                actions
            }
        }
        Move::Castle { king, rook } => {
            let (king_to, rook_to) = castle_targets(king, rook);
            let king_piece = board.piece_at(king).unwrap_or(Piece {
                color: mover,
                role: Role::King,
            });
            let rook_piece = board.piece_at(rook).unwrap_or(Piece {
                color: mover,
                role: Role::Rook,
            });
            let cells = slide_path(king, king_to, empty, 0.0, rng);
            let (mut actions, arrive) = slide_contacts(&cells, king_piece, king_piece, 0, rng);
            actions.push((arrive + step, Action::Lift(rook)));
            actions.push((arrive + 2 * step, Action::Place(rook_to, rook_piece)));
            actions
        }
        Move::Put { to, role } => vec![(0, Action::Place(to, Piece { color: mover, role }))],
    }
}

/// An empty square next to a move's destination to set the piece down on before nudging
/// it home: for moves that are neither castling, en passant nor promotion.
fn nudge_square(position: &Chess, m: Move, rng: &mut fastrand::Rng) -> Option<Square> {
    let Move::Normal {
        from,
        to,
        promotion: None,
        ..
    } = m
    else {
        return None;
    };
    let empty = !position.board().occupied();
    let candidates = shakmaty::attacks::king_attacks(to) & empty & !Bitboard::from(from);
    pick(rng, candidates)
}

/// A move set down next to its destination and nudged onto it 0.2–1.5 s later (a
/// capture's victim lifted first).
fn nudge_steps(
    position: &Chess,
    m: Move,
    beside: Square,
    step: u64,
    rng: &mut fastrand::Rng,
) -> Vec<(u64, Action)> {
    let Move::Normal {
        role,
        from,
        to,
        capture,
        ..
    } = m
    else {
        return Vec::new();
    };
    let piece = Piece {
        color: position.turn(),
        role,
    };
    let mut actions = Vec::new();
    let mut t = 0;
    if capture.is_some() {
        actions.push((t, Action::Lift(to)));
        t += step;
    }
    actions.push((t, Action::Lift(from)));
    t += step;
    actions.push((t, Action::Place(beside, piece)));
    t += rng.u64(200..=1_500);
    actions.push((t, Action::Place(to, piece)));
    actions.push((
        t.saturating_add_signed(rng.i64(-4..=4)),
        Action::Lift(beside),
    ));
    actions
}

/// A capture whose victim comes off as the capturer lands: one motion, the square never
/// empty.
fn fast_steps(position: &Chess, m: Move, step: u64) -> Vec<(u64, Action)> {
    let Move::Normal {
        role,
        from,
        to,
        promotion,
        ..
    } = m
    else {
        return Vec::new();
    };
    let landing = Piece {
        color: position.turn(),
        role: promotion.unwrap_or(role),
    };
    vec![
        (0, Action::Lift(from)),
        (step, Action::Replace(to, landing)),
    ]
}

/// The lifts and places of one move as `style`'s hands make it, the same each time.
pub fn move_actions(position: &Chess, m: Move, style: &HandStyle) -> Vec<Action> {
    hand_steps(
        position,
        m,
        style,
        &mut fastrand::Rng::with_seed(style.seed),
    )
}

/// The lifts and places of one move.
fn hand_steps(
    position: &Chess,
    m: Move,
    style: &HandStyle,
    rng: &mut fastrand::Rng,
) -> Vec<Action> {
    let mover = position.turn();
    let piece_on = |sq: Square| position.board().piece_at(sq);
    match m {
        Move::Normal {
            role,
            from,
            to,
            capture,
            promotion,
        } => {
            let landing = Piece {
                color: mover,
                role: promotion.unwrap_or(role),
            };
            match capture {
                None => vec![Action::Lift(from), Action::Place(to, landing)],
                Some(_) if rng.f64() < style.victim_first => {
                    vec![
                        Action::Lift(to),
                        Action::Lift(from),
                        Action::Place(to, landing),
                    ]
                }
                Some(_) => vec![
                    Action::Lift(from),
                    Action::Lift(to),
                    Action::Place(to, landing),
                ],
            }
        }
        Move::EnPassant { from, to } => {
            let victim = Square::from_coords(to.file(), from.rank());
            let pawn = Piece {
                color: mover,
                role: Role::Pawn,
            };
            if rng.f64() < style.victim_first {
                vec![
                    Action::Lift(victim),
                    Action::Lift(from),
                    Action::Place(to, pawn),
                ]
            } else {
                vec![
                    Action::Lift(from),
                    Action::Place(to, pawn),
                    Action::Lift(victim),
                ]
            }
        }
        Move::Castle { king, rook } => {
            let side = CastlingSide::from_king_side(king < rook);
            let rank = king.rank();
            let king_to = Square::from_coords(side.king_to_file(), rank);
            let rook_to = Square::from_coords(side.rook_to_file(), rank);
            let king_piece = piece_on(king).unwrap_or(Piece {
                color: mover,
                role: Role::King,
            });
            let rook_piece = piece_on(rook).unwrap_or(Piece {
                color: mover,
                role: Role::Rook,
            });
            let king_move = (king, king_to, king_piece);
            let rook_move = (rook, rook_to, rook_piece);
            let (first, second) = if rng.f64() < style.rook_first {
                (rook_move, king_move)
            } else {
                (king_move, rook_move)
            };
            castle_steps(first, second)
        }
        Move::Put { to, role } => vec![Action::Place(to, Piece { color: mover, role })],
    }
}

/// Two pieces of a castling, `(from, to, piece)`, moved `first` first. In Chess960 a piece
/// may already stand where it goes (it is not moved), or land where the other stands (then
/// both are in the hand before either is put down).
fn castle_steps(first: (Square, Square, Piece), second: (Square, Square, Piece)) -> Vec<Action> {
    let moving: Vec<_> = [first, second]
        .into_iter()
        .filter(|(from, to, _)| from != to)
        .collect();
    let blocked = moving.len() == 2 && moving[0].1 == moving[1].0;
    if blocked {
        moving
            .iter()
            .map(|&(from, _, _)| Action::Lift(from))
            .chain(
                moving
                    .iter()
                    .map(|&(_, to, piece)| Action::Place(to, piece)),
            )
            .collect()
    } else {
        moving
            .iter()
            .flat_map(|&(from, to, piece)| [Action::Lift(from), Action::Place(to, piece)])
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::board::PhysicalBoard;

    #[test]
    fn a_scripted_game_ends_on_the_game_final_position() {
        let game = crate::sim::sample::games().remove(0);
        let style = HandStyle {
            adjust: 0.5,
            dropout: 0.5,
            ..HandStyle::default()
        };
        let mut board = PhysicalBoard::empty();
        for (_, action) in script_games(std::slice::from_ref(&game), &style) {
            board.apply(&action);
        }
        assert_eq!(board.pieces_board(), game.final_position().board().clone());
    }

    /// Hands with every lively behaviour far more often than players show it.
    fn busy_hands(seed: u64) -> HandStyle {
        HandStyle {
            seed,
            vary: 0.5,
            slide: 0.6,
            brush: 0.5,
            knock: 0.3,
            nudge: 0.3,
            unseen: 0.4,
            fast_capture: 0.5,
            emi: 0.3,
            ..HandStyle::default()
        }
    }

    #[test]
    fn lively_hands_put_pieces_only_on_empty_squares_and_complete_each_move_when_done() {
        // The samples (castling both ways, en passant, promotions) and real games.
        let twic = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/data/twic1599_100k.pgn"
        ))
        .expect("the TWIC sample");
        let mut games = crate::sim::sample::games();
        games.extend(
            crate::pgn::read_games(&twic)
                .into_iter()
                .filter_map(Result::ok)
                .map(|g| g.game)
                .take(12),
        );
        let mut seen = std::collections::BTreeMap::<String, usize>::new();
        for seed in 0..20 {
            let scripted = script_session(&games, &busy_hands(seed));
            assert!(scripted.script.windows(2).all(|w| w[0].0 <= w[1].0));
            let mut board = PhysicalBoard::empty();
            let mut actions = scripted.script.iter().peekable();
            for (game, done_at) in games.iter().zip(&scripted.done_at) {
                assert_eq!(done_at.len(), game.moves.len());
                let mut position = game.start.clone();
                for (&m, &done) in game.moves.iter().zip(done_at) {
                    while let Some((_, action)) = actions.next_if(|(at, _)| *at <= done) {
                        let truth = board.pieces_board();
                        match action {
                            Action::Place(sq, _)
                            | Action::Pass(sq, _)
                            | Action::PlaceUnseen(sq, _) => {
                                assert!(truth.piece_at(*sq).is_none(), "{seed}: {action:?}");
                            }
                            Action::Lift(sq) | Action::Knock(sq) | Action::Replace(sq, _) => {
                                assert!(truth.piece_at(*sq).is_some(), "{seed}: {action:?}");
                            }
                            _ => {}
                        }
                        let name = format!("{action:?}");
                        let name = name.split('(').next().unwrap_or_default();
                        *seen.entry(name.to_owned()).or_default() += 1;
                        board.apply(action);
                    }
                    position.play_unchecked(m);
                    assert_eq!(
                        &board.pieces_board(),
                        position.board(),
                        "seed {seed}: {m} done at {done}"
                    );
                }
            }
            for (_, action) in actions {
                board.apply(action);
            }
            let last = games.last().expect("a game").final_position();
            assert_eq!(&board.pieces_board(), last.board());
            assert!(board.knocked().is_empty());
        }
        // Every behaviour was played.
        for name in [
            "Pass",
            "Replace",
            "Knock",
            "SetBack",
            "PlaceUnseen",
            "Straighten",
            "Emi",
        ] {
            assert!(seen.get(name).copied().unwrap_or(0) > 5, "{name}: {seen:?}");
        }
    }

    #[test]
    fn chess960_castlings_never_put_a_piece_on_an_occupied_square() {
        // Swap (king f1, rook g1), king on the rook's square (f1/h1), king stays (g1/h1).
        for fen in [
            "1r1k4/8/8/8/8/8/8/5KR1 w G - 0 1",
            "1r1k4/8/8/8/8/8/8/5K1R w H - 0 1",
            "1r1k4/8/8/8/8/8/8/6KR w H - 0 1",
            "7k/8/8/8/8/8/8/R2K4 w A - 0 1",
        ] {
            let position = crate::game::parse_fen(fen).expect("fen");
            let castle = position
                .legal_moves()
                .into_iter()
                .find(|m| m.is_castle())
                .expect("a castling");
            for rook_first in [0.0, 1.0] {
                let style = HandStyle {
                    rook_first,
                    ..HandStyle::default()
                };
                let mut board = PhysicalBoard::empty();
                board.apply(&Action::SetUp(position.clone()));
                for action in move_actions(&position, castle, &style) {
                    if let Action::Place(square, _) = action {
                        assert!(!board.occupancy().contains(square), "{fen}: {action:?}");
                    }
                    board.apply(&action);
                }
                let mut after = position.clone();
                after.play_unchecked(castle);
                assert_eq!(board.pieces_board(), after.board().clone(), "{fen}");
            }
        }
    }
}
