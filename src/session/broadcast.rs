//! The broadcast part: the board's game pushed to a lichess broadcast round as it is
//! played, the whole game each time it changes, with the table's players and board number.

use crate::background::Wake;
use crate::game::GameRecord;
use crate::online::broadcast::BroadcastTo;
use crate::online::{Broadcast, BroadcastNews};

#[derive(Default)]
pub struct BroadcastSeat {
    broadcast: Option<Broadcast>,
    round: String,
    /// The session's game that is broadcast: the one on the board when the broadcast
    /// began (or the first with a move, if that one had none). A later game on the board
    /// is another round's.
    game: Option<usize>,
    /// A later game was told not to go to this round.
    told_later_game: bool,
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
    /// Pushes to the round `to` names from now on.
    pub fn start(&mut self, to: BroadcastTo, wake: Wake) -> Result<(), String> {
        self.let_go();
        let round = crate::online::broadcast::round_id(&to.round)?;
        let broadcast = Broadcast::start(to, &round, wake).map_err(|e| e.to_string())?;
        self.status = Some(format!("Broadcasting to round {round}"));
        self.round = round;
        self.broadcast = Some(broadcast);
        Ok(())
    }

    /// Stops pushing once the last change is pushed, waiting for it; returns what became
    /// of it.
    pub fn stop(&mut self) -> BroadcastHeard {
        let mut heard = BroadcastHeard::default();
        if let Some(broadcast) = self.broadcast.take() {
            for news in broadcast.finish() {
                self.hear_one(news, &mut heard);
            }
        }
        *self = Self::default();
        heard
    }

    /// Stops pushing once the last change is pushed, without waiting for it (a window
    /// must not freeze on the network).
    pub fn let_go(&mut self) {
        if let Some(broadcast) = self.broadcast.take() {
            broadcast.let_go();
        }
        *self = Self::default();
    }

    /// Which of `games` is broadcast, and once, a word when a later game began on the
    /// board (it is not pushed to this round).
    pub fn game_of(&mut self, games: &[GameRecord]) -> (Option<usize>, Option<String>) {
        let Some(last) = games.len().checked_sub(1) else {
            return (None, None);
        };
        let game = match self.game {
            Some(game) if game < last && games[game].moves.is_empty() => last,
            Some(game) => game.min(last),
            None => last,
        };
        self.game = Some(game);
        let word = (game < last && !self.told_later_game).then(|| {
            self.told_later_game = true;
            format!(
                "a new game began on the board; round {} keeps the game before it. To \
                 broadcast the new one, stop and broadcast again (to the next round)",
                self.round
            )
        });
        (Some(game), word)
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
