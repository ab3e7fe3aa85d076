//! The engine's side of a game on the board: when it is the engine's turn it is asked for
//! its move, which its owner shows (the CLI prints `engine g8f6`, the app draws an arrow)
//! and the recognizer then awaits on the board. After a takeback that leaves the engine to
//! move, it waits for the board to be still a moment: the player taking back as far as
//! their own move first takes back the engine's, and must not be answered in between.

use std::path::Path;
use std::time::{Duration, Instant};

use shakmaty::{Bitboard, Color, Move, Position};

use super::{Engine, EngineClock, Patience, Reply, Strength};
use crate::background::{Wake, WorkerThread};
use crate::recognizer::event::uci;
use crate::snapshot::Snapshot;

/// How long the board must be still after a takeback before the engine plays again.
pub const TAKEBACK_PAUSE: Duration = Duration::from_secs(2);

/// What the engine owner is told while it waits after a takeback.
pub const TAKEBACK_WAIT_WORDS: &str =
    "engine: waiting — take back your move too, or the engine plays again";

/// The engine's turn after a takeback, held until the board is still.
struct Hold {
    /// When the board last changed.
    since: Instant,
    ply: usize,
    sensed: Bitboard,
    told: bool,
}

pub struct EnginePlay {
    engine: Engine,
    side: Color,
    strength: Strength,
    /// The engine's name from its `id`, once it has said it.
    name: Option<String>,
    /// The ply the engine was asked about and has not answered yet.
    asked: Option<usize>,
    /// The ply whose move the engine gave (and the board now awaits).
    given: Option<usize>,
    /// Whether a snapshot has shown the board awaiting the move given: until then a
    /// snapshot without it was taken before the board heard of it.
    given_awaited: bool,
    /// The game of the last snapshot seen (games finished before it, and its ply), to tell
    /// a takeback from a new game.
    seen: Option<(usize, usize)>,
    hold: Option<Hold>,
    pause: Duration,
    /// The position last seen, to ask the engine when a hold ends.
    game: Option<(shakmaty::Chess, Vec<Move>)>,
    /// Wakes the owner when a hold may end, so it looks again.
    wake: Wake,
    /// The game's clock as the owner last set it, told to the engine when it is asked.
    clock: Option<EngineClock>,
}

impl EnginePlay {
    pub fn start(path: &Path, side: Color, strength: Strength, wake: Wake) -> Self {
        Self {
            engine: Engine::start(path, strength, Patience::default(), wake.clone()),
            side,
            strength,
            name: None,
            asked: None,
            given: None,
            given_awaited: false,
            seen: None,
            hold: None,
            pause: TAKEBACK_PAUSE,
            game: None,
            wake,
            clock: None,
        }
    }

    /// The game's clocks now (`EngineClock::of`), or `None` without a clock: the engine
    /// then thinks by them instead of a fixed time. Set it before each `on_snapshot` and
    /// `hear` (either may ask the engine), so that it is told the current times.
    pub fn set_clock(&mut self, clock: Option<EngineClock>) {
        self.clock = clock;
    }

    /// The same with another pause after takebacks (tests use a short one).
    pub fn with_pause(mut self, pause: Duration) -> Self {
        self.pause = pause;
        self
    }

    /// The engine as the player tags name it: "Stockfish 17 (level 3)".
    pub fn player_name(&self) -> String {
        format!(
            "{} ({})",
            self.name.as_deref().unwrap_or("engine"),
            self.strength.describe()
        )
    }

    /// A game's tags with the engine named on its side, as `player_name` says.
    pub fn tags(engine: Option<&Self>) -> crate::game::GameTags {
        let mut tags = crate::game::GameTags::default();
        if let Some(engine) = engine {
            match engine.side() {
                Color::White => tags.white = engine.player_name(),
                Color::Black => tags.black = engine.player_name(),
            }
        }
        tags
    }

    pub fn side(&self) -> Color {
        self.side
    }

    /// The engine's name from its `id`, once it has started.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// Whether the engine is thinking about a move.
    pub fn is_thinking(&self) -> bool {
        self.asked.is_some()
    }

    /// Whether the engine waits, after a takeback, for the board to be still.
    pub fn is_holding(&self) -> bool {
        self.hold.is_some()
    }

    /// Looks at the game after a change: asks the engine when it is its turn.
    pub fn on_snapshot(&mut self, snapshot: &Snapshot) {
        self.on_snapshot_at(snapshot, Instant::now());
    }

    /// `on_snapshot` with the time it is now.
    pub fn on_snapshot_at(&mut self, snapshot: &Snapshot, now: Instant) {
        let game = &snapshot.game;
        let ply = game.moves.len();
        let finished = snapshot
            .games
            .len()
            .saturating_sub(usize::from(snapshot.has_started));
        let taken_back = self
            .seen
            .is_some_and(|(before, seen)| before == finished && ply < seen);
        self.seen = Some((finished, ply));
        // A takeback past what was asked or given: that answer no longer counts.
        if self.asked.is_some_and(|asked| asked > ply) {
            self.asked = None;
        }
        if self.given.is_some() && snapshot.expected_move.is_some() {
            self.given_awaited = true;
        }
        // The move given was made or taken back past, or the board no longer awaits it (a
        // new game).
        let dropped = snapshot.expected_move.is_none() && self.given_awaited;
        if self.given.is_some_and(|given| given != ply || dropped) {
            self.given = None;
        }
        let engines_turn = snapshot.has_started
            && snapshot.position.turn() == self.side
            && !snapshot.position.is_game_over();
        self.game = Some((game.start.clone(), game.moves.clone()));
        if !engines_turn {
            self.hold = None;
        } else if taken_back {
            self.hold = Some(Hold {
                since: now,
                ply,
                sensed: snapshot.sensed,
                told: false,
            });
            self.wake_after_pause();
        } else if let Some(hold) = &mut self.hold {
            if hold.ply != ply {
                self.hold = None;
            } else if hold.sensed != snapshot.sensed {
                // Hands at the board: the pause starts again when they are done.
                hold.since = now;
                hold.sensed = snapshot.sensed;
                self.wake_after_pause();
            }
        }
        if engines_turn && self.hold.is_none() {
            self.ask(ply);
        }
    }

    /// The owner hears again when the pause may be over (an app draws only when woken).
    fn wake_after_pause(&self) {
        let (wake, pause) = (self.wake.clone(), self.pause);
        let sleeper = WorkerThread::spawn("engine hold", move || {
            std::thread::sleep(pause);
            wake();
        });
        // It only sleeps and wakes: nothing waits for it. Without the thread the owner
        // still looks again at its next update.
        if let Ok(sleeper) = sleeper {
            sleeper.detach();
        }
    }

    fn ask(&mut self, ply: usize) {
        if self.asked.is_some() || self.given == Some(ply) {
            return;
        }
        if let Some((start, moves)) = &self.game {
            self.asked = Some(ply);
            self.engine.think_on_clock(start, moves, self.clock);
        }
    }

    /// What the engine said, at `now`: the lines to tell, and the move the board must
    /// await, if the engine gave one.
    pub fn hear(&mut self, current: &Snapshot, now: Instant) -> (Vec<String>, Option<Move>) {
        let mut lines = Vec::new();
        let mut expect = None;
        if let Some(hold) = &mut self.hold {
            if now.saturating_duration_since(hold.since) >= self.pause {
                let ply = hold.ply;
                self.hold = None;
                self.ask(ply);
            } else if !hold.told {
                hold.told = true;
                lines.push(TAKEBACK_WAIT_WORDS.to_owned());
            }
        }
        while let Ok(reply) = self.engine.replies.try_recv() {
            match reply {
                Reply::Ready { name, author } => {
                    lines.push(format!("engine: {name} by {author}"));
                    self.name = Some(name);
                }
                Reply::BestMove { ply, mv } => {
                    if self.asked != Some(ply) {
                        continue;
                    }
                    self.asked = None;
                    if current.game.moves.len() != ply || current.position.turn() != self.side {
                        continue;
                    }
                    self.given = Some(ply);
                    self.given_awaited = false;
                    lines.push(format!("engine {}", uci(mv)));
                    expect = Some(mv);
                }
                Reply::Fault(fault) => {
                    self.asked = None;
                    lines.push(format!("engine fault: {fault}"));
                }
                // Never asked of the playing engine: advice comes from an `Adviser`.
                Reply::Hint { .. } | Reply::Analysis { .. } | Reply::Evaluation { .. } => {}
            }
        }
        (lines, expect)
    }
}
