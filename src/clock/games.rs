//! The clocks of a session's games, kept in step with the recognizer's events: a game
//! begins with a clock when a time control is set, and a clock can be started on a game
//! already under way. The command line and the app both run their clocks through this.

use shakmaty::{Color, Position};

use super::{Clock, ClockTime, FlagResult, TimeControl};
use crate::game::{Annotation, GameRecord, GameTags, PgnResult};
use crate::reading::Millis;
use crate::recognizer::event::{Event, EventKind};

/// One game's clock.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameClock {
    /// The game's index in the session (as the recognizer counts games: those with moves).
    game: usize,
    /// The game's ply when the clock was started.
    from_ply: usize,
    clock: Clock,
    /// The flag that fell, once it has.
    flag: Option<(Color, FlagResult)>,
    /// When the game ended on the board (mate, stalemate, a dead position): both clocks
    /// stand still from then.
    ended_at: Option<Millis>,
}

impl GameClock {
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    pub fn flag(&self) -> Option<(Color, FlagResult)> {
        self.flag
    }

    /// The game's ply `ply` on this clock's count, if the clock saw it.
    fn clock_ply(&self, ply: usize) -> Option<usize> {
        ply.checked_sub(self.from_ply).filter(|&p| p > 0)
    }
}

#[derive(Clone, Debug, Default)]
pub struct GameClocks {
    /// The time control new games begin with.
    control: Option<TimeControl>,
    /// The current game, once one has begun: who moved first, and its plies.
    current: Option<(Color, usize)>,
    /// The current game's index among the session's games.
    game: usize,
    /// Clocks of this session's games, oldest first; the last may be the current game's.
    clocks: Vec<GameClock>,
    /// Whether the last clock is the current game's.
    running: bool,
}

impl GameClocks {
    /// Clocks for games to come under `control` (none without one).
    pub fn new(control: Option<TimeControl>) -> Self {
        Self {
            control,
            ..Self::default()
        }
    }

    pub fn control(&self) -> Option<TimeControl> {
        self.control
    }

    /// Games from now on begin with `control`; the current game's clock, if any, stops
    /// when `control` is `None`, and one starts at `now` when it is set and none runs.
    pub fn set_control(&mut self, control: Option<TimeControl>, now: Millis) {
        self.control = control;
        match control {
            None => self.running = false,
            Some(control) if !self.running => self.start_clock(control, now),
            Some(_) => {}
        }
    }

    fn start_clock(&mut self, control: TimeControl, now: Millis) {
        let Some((first_mover, plies)) = self.current else {
            return;
        };
        // The side to move now is the clock's first mover.
        let first = if plies % 2 == 0 {
            first_mover
        } else {
            !first_mover
        };
        let mut clock = Clock::new(control, first);
        clock.start(now);
        // A clock started and stopped before any move leaves nothing to keep.
        if self
            .clocks
            .last()
            .is_some_and(|c| c.clock.plies() == 0 && c.game == self.game)
        {
            self.clocks.pop();
        }
        self.clocks.push(GameClock {
            game: self.game,
            from_ply: plies,
            clock,
            flag: None,
            ended_at: None,
        });
        self.running = true;
    }

    /// Takes in one of the recognizer's events.
    pub fn on_event(&mut self, event: &Event) {
        match &event.kind {
            EventKind::NewGame { fen } => {
                let Ok(start) = crate::game::parse_fen(fen) else {
                    return;
                };
                // The recognizer keeps a game among the session's once it has a move.
                if self.current.as_ref().is_some_and(|(_, plies)| *plies > 0) {
                    self.game += 1;
                }
                self.current = Some((start.turn(), 0));
                self.running = false;
                if let Some(control) = self.control {
                    self.start_clock(control, event.t);
                }
            }
            EventKind::Move { ply, .. } => {
                if let Some((_, plies)) = &mut self.current {
                    *plies = (*plies).max(*ply);
                }
                if let Some(clock) = self.running_mut()
                    && let Some(ply) = clock.clock_ply(*ply)
                {
                    clock.clock.moved(ply, event.t);
                }
            }
            EventKind::TakenBack { ply, .. } => {
                if let Some((_, plies)) = &mut self.current {
                    *plies = ply.saturating_sub(1);
                }
                if let Some(clock) = self.running_mut() {
                    let kept = (ply - 1).saturating_sub(clock.from_ply);
                    clock.clock.taken_back(kept, event.t);
                    clock.flag = None;
                    clock.ended_at = None;
                }
            }
            _ => {}
        }
    }

    fn running_mut(&mut self) -> Option<&mut GameClock> {
        if self.running {
            self.clocks.last_mut()
        } else {
            None
        }
    }

    /// The current game's clock, if it runs.
    pub fn running(&self) -> Option<&GameClock> {
        self.clocks.last().filter(|_| self.running)
    }

    /// Looks at the flags at `now` in the current `position`; returns a flag that has just
    /// fallen (once: it is kept, and the clock stops there). A game over on the board stops
    /// both clocks at its last move, and no flag falls after it.
    pub fn check_flag(
        &mut self,
        position: &shakmaty::Chess,
        now: Millis,
    ) -> Option<(Color, FlagResult)> {
        let clock = self.running_mut()?;
        if clock.flag.is_some() {
            return None;
        }
        if position.is_game_over() {
            clock.ended_at = clock.clock.since();
            return None;
        }
        clock.ended_at = None;
        clock.flag = clock.clock.flag(position, now);
        clock.flag
    }

    /// The time `color` has on the current game's clock at `now`; zero once its flag fell.
    pub fn left(&self, color: Color, now: Millis) -> Option<u64> {
        let clock = self.running()?;
        let now = clock.ended_at.unwrap_or(now);
        match clock.flag {
            Some((fallen, _)) if fallen == color => Some(0),
            // After a flag the clocks stand still.
            Some(_) => Some(clock.clock.left(color, 0)),
            None => Some(clock.clock.left(color, now)),
        }
    }

    /// Each game's tags and `[%clk]` comments: `TimeControl`, the time left after every
    /// move the clock saw, and the result of a fallen flag.
    pub fn annotate(&self, games: &[GameRecord], tags: &GameTags) -> Vec<Annotation> {
        games
            .iter()
            .enumerate()
            .map(
                |(index, game)| match self.clocks.iter().rev().find(|c| c.game == index) {
                    Some(clock) => (clocked_tags(tags, clock), clock_comments(game, clock)),
                    None => (tags.clone(), Vec::new()),
                },
            )
            .collect()
    }
}

fn clocked_tags(tags: &GameTags, clock: &GameClock) -> GameTags {
    let mut tags = tags.clone();
    tags.extra
        .push(("TimeControl".into(), clock.clock.control().pgn_tag()));
    if let Some((color, result)) = clock.flag {
        tags.result = Some(match (result, color) {
            (FlagResult::Draw, _) => PgnResult::Draw,
            (FlagResult::Lost, Color::White) => PgnResult::BlackWins,
            (FlagResult::Lost, Color::Black) => PgnResult::WhiteWins,
        });
        tags.extra
            .push(("Termination".into(), "time forfeit".into()));
    }
    tags
}

/// `[%clk h:mm:ss]` after every move on the clock: the mover's time left, as lichess writes.
fn clock_comments(game: &GameRecord, clock: &GameClock) -> Vec<(usize, String)> {
    (1..=game.moves.len())
        .filter_map(|ply| {
            let left = clock.clock.after(clock.clock_ply(ply)?)?;
            Some((ply, format!("[%clk {}]", ClockTime(left))))
        })
        .collect()
}

/// "White's time is up: 0-1", or a draw when the other side cannot mate.
pub fn flag_words(color: Color, result: FlagResult) -> String {
    let side = match color {
        Color::White => "White",
        Color::Black => "Black",
    };
    match (result, color) {
        (FlagResult::Draw, _) => {
            format!("{side}'s time is up, but the other side cannot mate: 1/2-1/2")
        }
        (FlagResult::Lost, Color::White) => format!("{side}'s time is up: 0-1"),
        (FlagResult::Lost, Color::Black) => format!("{side}'s time is up: 1-0"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Chess;
    use shakmaty::san::SanPlus;
    use shakmaty::uci::UciMove;

    /// The events of a game of UCI moves, one every `step` ms from `t`.
    struct Game {
        position: Chess,
        ply: usize,
        moves: Vec<shakmaty::Move>,
    }

    impl Game {
        fn new(clocks: &mut GameClocks, t: Millis) -> Self {
            let position = Chess::default();
            clocks.on_event(&Event {
                t,
                kind: EventKind::NewGame {
                    fen: crate::game::fen_of(&position),
                },
            });
            Self {
                position,
                ply: 0,
                moves: Vec::new(),
            }
        }

        fn play(&mut self, clocks: &mut GameClocks, uci: &str, t: Millis) {
            let mv = uci
                .parse::<UciMove>()
                .expect("uci")
                .to_move(&self.position)
                .expect("legal");
            let san = SanPlus::from_move(self.position.clone(), mv);
            self.position.play_unchecked(mv);
            self.ply += 1;
            self.moves.push(mv);
            clocks.on_event(&Event {
                t,
                kind: EventKind::Move {
                    ply: self.ply,
                    mv,
                    san,
                },
            });
        }

        fn take_back(&mut self, clocks: &mut GameClocks, t: Millis) {
            let mv = self.moves.pop().expect("a move");
            clocks.on_event(&Event {
                t,
                kind: EventKind::TakenBack { ply: self.ply, mv },
            });
            self.ply -= 1;
            self.position = Chess::default();
            for &m in &self.moves {
                self.position.play_unchecked(m);
            }
        }

        fn record(&self) -> GameRecord {
            GameRecord {
                start: Chess::default(),
                moves: self.moves.clone(),
            }
        }
    }

    fn control(text: &str) -> Option<TimeControl> {
        Some(text.parse().expect("a time control"))
    }

    #[test]
    fn games_begin_on_the_clock_and_their_pgn_has_clk_after_every_move() {
        let mut clocks = GameClocks::new(control("3+2"));
        let mut game = Game::new(&mut clocks, 1_000);
        game.play(&mut clocks, "e2e4", 11_000);
        game.play(&mut clocks, "e7e5", 41_000);
        assert_eq!(clocks.left(Color::White, 51_000), Some(162_000));
        assert_eq!(clocks.left(Color::Black, 51_000), Some(152_000));
        let annotated = clocks.annotate(&[game.record()], &GameTags::default());
        let (tags, comments) = &annotated[0];
        assert!(tags.extra.contains(&("TimeControl".into(), "180+2".into())));
        assert_eq!(
            comments,
            &vec![(1, "[%clk 0:02:52]".into()), (2, "[%clk 0:02:32]".into())]
        );
    }

    #[test]
    fn a_clock_started_mid_game_counts_from_there_and_takebacks_restore_it() {
        let mut clocks = GameClocks::new(None);
        let mut game = Game::new(&mut clocks, 0);
        game.play(&mut clocks, "e2e4", 5_000);
        assert_eq!(clocks.left(Color::Black, 6_000), None);
        // Black to move when the clock starts: Black's time runs.
        clocks.set_control(control("1+0"), 10_000);
        assert_eq!(clocks.left(Color::Black, 20_000), Some(50_000));
        assert_eq!(clocks.left(Color::White, 20_000), Some(60_000));
        game.play(&mut clocks, "c7c5", 20_000);
        game.play(&mut clocks, "g1f3", 30_000);
        assert_eq!(clocks.left(Color::White, 30_000), Some(50_000));
        game.take_back(&mut clocks, 35_000);
        // White's clock is as it was after c5, and runs again from the takeback.
        assert_eq!(clocks.left(Color::White, 40_000), Some(55_000));
        let annotated = clocks.annotate(&[game.record()], &GameTags::default());
        // Only the move the clock saw has a time.
        assert_eq!(annotated[0].1, vec![(2, "[%clk 0:00:50]".into())]);
    }

    #[test]
    fn a_fallen_flag_is_told_once_stops_the_clock_and_decides_the_result() {
        let mut clocks = GameClocks::new(control("1+0"));
        let mut game = Game::new(&mut clocks, 0);
        game.play(&mut clocks, "e2e4", 1_000);
        assert_eq!(clocks.check_flag(&game.position, 60_000), None);
        assert_eq!(
            clocks.check_flag(&game.position, 61_000),
            Some((Color::Black, FlagResult::Lost))
        );
        assert_eq!(clocks.check_flag(&game.position, 62_000), None);
        assert_eq!(clocks.left(Color::Black, 70_000), Some(0));
        assert_eq!(clocks.left(Color::White, 70_000), Some(59_000));
        let annotated = clocks.annotate(&[game.record()], &GameTags::default());
        assert_eq!(annotated[0].0.result, Some(PgnResult::WhiteWins));
        assert_eq!(
            flag_words(Color::Black, FlagResult::Lost),
            "Black's time is up: 1-0"
        );
    }

    #[test]
    fn each_game_of_the_session_keeps_its_own_clock() {
        let mut clocks = GameClocks::new(None);
        let mut first = Game::new(&mut clocks, 0);
        first.play(&mut clocks, "d2d4", 2_000);
        let mut second = Game::new(&mut clocks, 10_000);
        clocks.set_control(control("5+0"), 10_000);
        second.play(&mut clocks, "e2e4", 12_000);
        clocks.set_control(None, 13_000);
        assert!(clocks.running().is_none());
        let mut third = Game::new(&mut clocks, 30_000);
        third.play(&mut clocks, "c2c4", 33_000);
        let games = [first.record(), second.record(), third.record()];
        let annotated = clocks.annotate(&games, &GameTags::default());
        let time_control = |i: usize| {
            annotated[i]
                .0
                .extra
                .iter()
                .find(|(k, _)| k == "TimeControl")
                .map(|(_, v)| v.clone())
        };
        assert_eq!(time_control(0), None);
        assert_eq!(time_control(1), Some("300".into()));
        assert_eq!(time_control(2), None);
        assert_eq!(annotated[1].1, vec![(1, "[%clk 0:04:58]".into())]);
        assert!(annotated[2].1.is_empty());
    }

    #[test]
    fn a_mate_stops_both_clocks_and_no_flag_falls_after_it() {
        let mut clocks = GameClocks::new(control("1+0"));
        let mut game = Game::new(&mut clocks, 0);
        for (uci, t) in [
            ("f2f3", 1_000),
            ("e7e5", 2_000),
            ("g2g4", 3_000),
            ("d8h4", 4_000),
        ] {
            game.play(&mut clocks, uci, t);
        }
        assert!(game.position.is_checkmate());
        // Long after the mate: White's time stands where it was, and no flag falls.
        assert_eq!(clocks.check_flag(&game.position, 600_000), None);
        assert_eq!(clocks.left(Color::White, 600_000), Some(58_000));
        let annotated = clocks.annotate(&[game.record()], &GameTags::default());
        assert_eq!(annotated[0].0.result, None);
    }
}
