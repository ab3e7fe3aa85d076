//! A chess clock run by the recognizer's time: a move stops the mover's clock at the
//! reading that completed it, and starts the other. No wall clock is read here: the owner
//! says what time it is, so tests and replays give the same answers every time.

use std::fmt;
use std::str::FromStr;

use shakmaty::{Chess, Color, Position};

use crate::reading::Millis;

mod games;
pub use games::{GameClock, GameClocks, flag_words};

/// How time is added for a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bonus {
    /// Fischer: the increment is added after every move.
    Increment,
    /// Bronstein: the time used is given back, up to the delay.
    Delay,
}

/// Minutes plus seconds per move, as `5+3` (Fischer) or `5+3d` (Bronstein delay).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base_ms: u64,
    pub bonus_ms: u64,
    pub bonus: Bonus,
}

/// Why a text is no time control.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "'{0}' is not a time control: give minutes and seconds per move, as 5+3 (or 5+3d for a delay)"
)]
pub struct TimeControlError(String);

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let error = || TimeControlError(text.to_owned());
        let (minutes, seconds) = text.trim().split_once('+').unwrap_or((text.trim(), "0"));
        let (seconds, bonus) = match seconds.strip_suffix('d') {
            Some(delay) => (delay, Bonus::Delay),
            None => (seconds, Bonus::Increment),
        };
        let minutes: f64 = minutes.parse().map_err(|_| error())?;
        let seconds: u64 = seconds.parse().map_err(|_| error())?;
        if !(minutes.is_finite() && minutes > 0.0 && minutes <= 24.0 * 60.0) {
            return Err(error());
        }
        Ok(Self {
            base_ms: (minutes * 60_000.0).round() as u64,
            bonus_ms: seconds * 1000,
            bonus,
        })
    }
}

/// As it is typed: minutes + seconds per move, `5+3` or `5+3d`.
impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let minutes = self.base_ms as f64 / 60_000.0;
        let delay = if self.bonus == Bonus::Delay { "d" } else { "" };
        write!(f, "{minutes}+{}{delay}", self.bonus_ms / 1000)
    }
}

impl TimeControl {
    /// The PGN `TimeControl` tag's value: seconds, `+` the increment (`300+3`).
    pub fn pgn_tag(&self) -> String {
        let base = self.base_ms / 1000;
        match (self.bonus, self.bonus_ms / 1000) {
            (_, 0) => base.to_string(),
            (Bonus::Increment, bonus) => format!("{base}+{bonus}"),
            // PGN has no delay form; the tag says the base and the delay in words' stead.
            (Bonus::Delay, bonus) => format!("{base}+{bonus}"),
        }
    }
}

/// Both clocks through a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    /// The time left to each side (White, Black) before each ply: `[0]` at the start.
    before: Vec<[u64; 2]>,
    /// When the side to move began to think; `None` until the game starts.
    since: Option<Millis>,
    /// Who moves first.
    first: Color,
}

impl Clock {
    pub fn new(control: TimeControl, first: Color) -> Self {
        Self {
            control,
            before: vec![[control.base_ms; 2]],
            since: None,
            first,
        }
    }

    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// The game begins at `t`: the first mover's clock runs.
    pub fn start(&mut self, t: Millis) {
        self.before.truncate(1);
        self.since = Some(t);
    }

    fn mover(&self, ply: usize) -> Color {
        if ply.is_multiple_of(2) {
            self.first
        } else {
            !self.first
        }
    }

    fn index(color: Color) -> usize {
        usize::from(color == Color::Black)
    }

    /// When the side to move began to think (the last move, or the start).
    pub fn since(&self) -> Option<Millis> {
        self.since
    }

    /// The side whose time runs (once the game has started).
    pub fn turn(&self) -> Color {
        self.mover(self.plies())
    }

    /// Plies played on the clock.
    pub fn plies(&self) -> usize {
        self.before.len() - 1
    }

    /// Ply `ply` (1-based) was completed at `t`: the mover's time stops, with its bonus.
    /// A ply already on the clock (a revision) changes nothing.
    pub fn moved(&mut self, ply: usize, t: Millis) {
        let Some(since) = self.since else { return };
        if ply != self.plies() + 1 {
            return;
        }
        let mover = Self::index(self.mover(ply - 1));
        let mut left = self.before[ply - 1];
        let used = t.saturating_sub(since);
        let bonus = match self.control.bonus {
            Bonus::Increment => self.control.bonus_ms,
            Bonus::Delay => used.min(self.control.bonus_ms),
        };
        left[mover] = left[mover].saturating_sub(used) + bonus;
        // A flag that fell before the move stays fallen.
        if used > self.before[ply - 1][mover] {
            left[mover] = 0;
        }
        self.before.push(left);
        self.since = Some(t);
    }

    /// Plies after `ply` were taken back at `t`: the clocks are as they were then, and
    /// the side to move thinks from `t`.
    pub fn taken_back(&mut self, ply: usize, t: Millis) {
        self.before.truncate(ply + 1);
        if self.since.is_some() {
            self.since = Some(t);
        }
    }

    /// The time `color` has left at `now`.
    pub fn left(&self, color: Color, now: Millis) -> u64 {
        let ply = self.plies();
        let left = self.before[ply][Self::index(color)];
        match self.since {
            Some(since) if self.mover(ply) == color => {
                left.saturating_sub(now.saturating_sub(since))
            }
            _ => left,
        }
    }

    /// The mover's time left after ply `ply` (1-based), as PGN's `%clk` records it.
    pub fn after(&self, ply: usize) -> Option<u64> {
        let left = self.before.get(ply)?;
        Some(left[Self::index(self.mover(ply - 1))])
    }

    /// Whose flag has fallen at `now` in `position`, and whether that loses (it draws when
    /// the other side cannot mate, as FIDE's rules say).
    pub fn flag(&self, position: &Chess, now: Millis) -> Option<(Color, FlagResult)> {
        self.since?;
        let mover = position.turn();
        if self.left(mover, now) > 0 {
            return None;
        }
        let result = if position.has_insufficient_material(!mover) {
            FlagResult::Draw
        } else {
            FlagResult::Lost
        };
        Some((mover, result))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlagResult {
    Lost,
    Draw,
}

/// `h:mm:ss`, as PGN's `[%clk …]` and a clock display write time.
pub struct ClockTime(pub u64);

impl fmt::Display for ClockTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seconds = self.0 / 1000;
        write!(
            f,
            "{}:{:02}:{:02}",
            seconds / 3600,
            seconds / 60 % 60,
            seconds % 60
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blitz() -> TimeControl {
        "3+2".parse().expect("a time control")
    }

    #[test]
    fn time_controls_read_as_minutes_and_seconds() {
        assert_eq!(
            "5+3".parse(),
            Ok(TimeControl {
                base_ms: 300_000,
                bonus_ms: 3_000,
                bonus: Bonus::Increment
            })
        );
        let delay: TimeControl = "0.5+5d".parse().expect("a delay");
        assert_eq!((delay.base_ms, delay.bonus), (30_000, Bonus::Delay));
        assert_eq!(
            "90".parse::<TimeControl>().map(|c| c.pgn_tag()),
            Ok("5400".into())
        );
        assert_eq!(blitz().pgn_tag(), "180+2");
        assert!("fast".parse::<TimeControl>().is_err());
        assert!("-3+2".parse::<TimeControl>().is_err());
        // Said as typed.
        for typed in ["5+3", "0.5+5d", "15+10", "90+0"] {
            let control: TimeControl = typed.parse().expect("a time control");
            assert_eq!(control.to_string(), typed);
        }
    }

    #[test]
    fn a_move_stops_the_movers_clock_at_its_reading_and_adds_the_increment() {
        let mut clock = Clock::new(blitz(), Color::White);
        clock.start(1_000);
        assert_eq!(clock.left(Color::White, 11_000), 170_000);
        assert_eq!(clock.left(Color::Black, 11_000), 180_000);
        clock.moved(1, 11_000);
        assert_eq!(clock.after(1), Some(172_000));
        // Black thinks 30 s.
        assert_eq!(clock.left(Color::Black, 41_000), 150_000);
        clock.moved(2, 41_000);
        assert_eq!(clock.after(2), Some(152_000));
        assert_eq!(clock.left(Color::White, 41_000), 172_000);
        // A revision of ply 2 is not a second move.
        clock.moved(2, 45_000);
        assert_eq!(clock.plies(), 2);
        assert_eq!(ClockTime(152_000).to_string(), "0:02:32");
    }

    #[test]
    fn a_delay_gives_back_at_most_what_was_used() {
        let mut clock = Clock::new("1+5d".parse().expect("tc"), Color::White);
        clock.start(0);
        clock.moved(1, 3_000);
        assert_eq!(clock.after(1), Some(60_000));
        clock.moved(2, 13_000);
        assert_eq!(clock.after(2), Some(55_000));
    }

    #[test]
    fn a_takeback_restores_the_clocks_of_that_ply() {
        let mut clock = Clock::new(blitz(), Color::White);
        clock.start(0);
        clock.moved(1, 10_000);
        clock.moved(2, 20_000);
        clock.moved(3, 30_000);
        clock.taken_back(1, 35_000);
        assert_eq!(clock.plies(), 1);
        assert_eq!(clock.left(Color::White, 35_000), 172_000);
        // Black thinks again from the takeback.
        assert_eq!(clock.left(Color::Black, 45_000), 170_000);
    }

    #[test]
    fn a_fallen_flag_loses_unless_the_other_side_cannot_mate() {
        let mut clock = Clock::new("1+0".parse().expect("tc"), Color::White);
        clock.start(0);
        let start = Chess::default();
        assert_eq!(clock.flag(&start, 59_999), None);
        assert_eq!(
            clock.flag(&start, 60_000),
            Some((Color::White, FlagResult::Lost))
        );
        // White to move, out of time; Black has a lone king: a draw.
        let bare = crate::game::parse_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").expect("fen");
        assert_eq!(
            clock.flag(&bare, 61_000),
            Some((Color::White, FlagResult::Draw))
        );
        // A move made after the flag fell leaves it fallen.
        clock.moved(1, 70_000);
        assert_eq!(clock.after(1), Some(0));
    }
}
