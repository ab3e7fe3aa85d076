//! The broadcast part: the board's game pushed to a lichess broadcast round as it is
//! played, the whole game each time it changes, with the table's players and board number.

use std::time::Duration;

use crate::background::Wake;
use crate::online::broadcast::BROADCAST_EVERY;
use crate::online::{Broadcast, BroadcastNews};

#[derive(Default)]
pub struct BroadcastSeat {
    broadcast: Option<Broadcast>,
    round: String,
    /// The text last handed over, so an unchanged game is not pushed again.
    handed: Option<String>,
    /// How the broadcast stands, in words.
    status: Option<String>,
}

/// What the broadcast has to tell: lines for the output, a problem the player must see.
#[derive(Default)]
pub struct BroadcastHeard {
    pub lines: Vec<String>,
    pub problem: Option<String>,
}

impl BroadcastSeat {
    /// Pushes to `round` on lichess at `base` with `token` (scope `study:write`; the
    /// environment's or the system keyring's when none is given) from now on; `every` is the least time between pushes (`BROADCAST_EVERY` but for tests).
    pub fn start(
        &mut self,
        base: &str,
        token: Option<String>,
        round: &str,
        every: Option<Duration>,
        pause: Duration,
        wake: Wake,
    ) -> Result<(), String> {
        self.stop();
        let every = every.unwrap_or(BROADCAST_EVERY);
        let broadcast =
            Broadcast::start(base, token, round, every, pause, wake).map_err(|e| e.to_string())?;
        self.status = Some(format!("Broadcasting to round {round}"));
        self.round = round.to_owned();
        self.broadcast = Some(broadcast);
        Ok(())
    }

    /// Stops pushing, after the last change is pushed; returns what became of it.
    pub fn stop(&mut self) -> BroadcastHeard {
        let mut heard = BroadcastHeard::default();
        if let Some(broadcast) = self.broadcast.take() {
            for news in broadcast.finish() {
                self.hear_one(news, &mut heard);
            }
        }
        self.handed = None;
        self.status = None;
        heard
    }

    pub fn is_on(&self) -> bool {
        self.broadcast.is_some()
    }

    /// "Broadcasting to round AbCd1234: 23 moves on lichess".
    pub fn status(&self) -> Option<&str> {
        self.status.as_deref()
    }

    /// The game changed: `pgn` (the whole game) goes to the round unless it went already.
    pub fn on_game(&mut self, pgn: String) {
        let Some(broadcast) = &self.broadcast else {
            return;
        };
        if self.handed.as_ref() != Some(&pgn) {
            broadcast.push(pgn.clone());
            self.handed = Some(pgn);
        }
    }

    /// What became of the pushes since the last call.
    pub fn hear(&mut self) -> BroadcastHeard {
        let mut heard = BroadcastHeard::default();
        let news = self.broadcast.as_ref().map(Broadcast::news);
        for news in news.into_iter().flatten() {
            self.hear_one(news, &mut heard);
        }
        heard
    }

    fn hear_one(&mut self, news: BroadcastNews, heard: &mut BroadcastHeard) {
        let round = &self.round;
        match news {
            BroadcastNews::Pushed { moves } => {
                let moves = match moves {
                    1 => "1 move".to_owned(),
                    n => format!("{n} moves"),
                };
                heard.lines.push(format!("broadcast: {moves}"));
                self.status = Some(format!("Broadcasting to round {round}: {moves} on lichess"));
            }
            BroadcastNews::Problem(problem) => {
                heard.lines.push(format!("broadcast: {problem}"));
                self.status = Some(format!("Broadcast round {round}: {problem}"));
                heard.problem = Some(format!("Broadcast: {problem}"));
            }
        }
    }
}
