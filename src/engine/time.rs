//! The clock as the engine is told it: both sides' time left and increment, so that it
//! manages its own time (`go wtime … btime … winc … binc …`), as engines on e-boards do.

use std::time::Duration;

use shakmaty::Color;
use shakmaty_uci::UciTimeControl;

use crate::clock::{GameClocks, TimeControl};
use crate::reading::Millis;

/// Both sides' clocks when the engine is asked for its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineClock {
    pub white_ms: u64,
    pub black_ms: u64,
    pub white_inc_ms: u64,
    pub black_inc_ms: u64,
}

impl EngineClock {
    /// The current game's clocks at `now` (the board's time), if it is played on one.
    pub fn of(clocks: &GameClocks, now: Millis) -> Option<Self> {
        let control = clocks.running()?.clock().control();
        Some(Self::at(
            control,
            clocks.left(Color::White, now)?,
            clocks.left(Color::Black, now)?,
        ))
    }

    /// The times left under `control`. UCI has no delay: a Bronstein delay is passed as
    /// the increment, which is what it gives back at most.
    pub fn at(control: TimeControl, white_ms: u64, black_ms: u64) -> Self {
        Self {
            white_ms,
            black_ms,
            white_inc_ms: control.bonus_ms,
            black_inc_ms: control.bonus_ms,
        }
    }

    /// The time `side` has left.
    pub fn left(&self, side: Color) -> Duration {
        Duration::from_millis(match side {
            Color::White => self.white_ms,
            Color::Black => self.black_ms,
        })
    }

    /// `wtime … btime … winc … binc …`.
    pub(super) fn time_control(&self) -> UciTimeControl {
        UciTimeControl::TimeLeft {
            white_time: Some(Duration::from_millis(self.white_ms)),
            black_time: Some(Duration::from_millis(self.black_ms)),
            white_increment: Some(Duration::from_millis(self.white_inc_ms)),
            black_increment: Some(Duration::from_millis(self.black_inc_ms)),
            moves_to_go: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recognizer::event::{Event, EventKind};

    #[test]
    fn the_engine_is_told_the_running_clocks_and_a_delay_as_increment() {
        let mut clocks = GameClocks::new(Some("1+2".parse().expect("tc")));
        assert_eq!(EngineClock::of(&clocks, 0), None);
        clocks.on_event(&Event {
            t: 1_000,
            kind: EventKind::NewGame {
                fen: crate::game::fen_of(&shakmaty::Chess::default()),
            },
        });
        let clock = EngineClock::of(&clocks, 11_000).expect("a running clock");
        assert_eq!(
            clock,
            EngineClock {
                white_ms: 50_000,
                black_ms: 60_000,
                white_inc_ms: 2_000,
                black_inc_ms: 2_000,
            }
        );
        assert_eq!(clock.left(Color::White), Duration::from_secs(50));
        assert_eq!(
            shakmaty_uci::UciMessage::Go {
                time_control: Some(clock.time_control()),
                search_control: None,
            }
            .to_string(),
            "go wtime 50000 btime 60000 winc 2000 binc 2000"
        );
        let delay = EngineClock::at("5+3d".parse().expect("tc"), 1, 2);
        assert_eq!((delay.white_inc_ms, delay.black_inc_ms), (3_000, 3_000));
        // Without a clock running (stopped by the owner), none.
        clocks.set_control(None, 12_000);
        assert_eq!(EngineClock::of(&clocks, 12_000), None);
    }
}
