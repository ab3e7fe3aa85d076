//! Playing online from the board, through lichess's Board API, and broadcasting the board's
//! game to a lichess broadcast round (`broadcast.rs`): `lichess.rs` makes the
//! requests (one at a time, a full minute's wait after a 429) and reads its ndjson streams
//! line by line; `game.rs` runs one game on threads of its own (the requests, the event
//! stream, the game's stream, reconnecting without losing or repeating a move) and tells
//! its owner what happens.

pub mod broadcast;
pub mod game;
pub mod lichess;
pub mod token;

pub use broadcast::{Broadcast, BroadcastNews};
pub use game::{OnlineGame, OnlineNews, Order};
pub use lichess::{GameState, Lichess, LichessError};

/// Whom to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Opponent {
    /// lichess's AI at this level, 1 to 8.
    Ai(u8),
    /// Whoever takes a seek (the Board API seeks rapid, classical or correspondence games).
    Seek,
    /// A named player, challenged.
    Player(String),
    /// The first challenge that comes in (from this player only, if named), accepted.
    Accept(Option<String>),
}

impl std::str::FromStr for Opponent {
    type Err = String;

    /// `ai:3`, `seek`, `challenge:NAME`, `accept`, `accept:NAME`.
    fn from_str(text: &str) -> Result<Self, String> {
        let text = text.trim();
        match text {
            "seek" => return Ok(Self::Seek),
            "accept" => return Ok(Self::Accept(None)),
            _ => {}
        }
        if let Some(name) = text.strip_prefix("accept:").filter(|n| !n.is_empty()) {
            return Ok(Self::Accept(Some(name.to_owned())));
        }
        if let Some(level) = text.strip_prefix("ai:") {
            return match level.parse::<u8>() {
                Ok(level) if (1..=8).contains(&level) => Ok(Self::Ai(level)),
                _ => Err(format!("'{text}': the AI's level is 1 to 8 (ai:3)")),
            };
        }
        if let Some(name) = text.strip_prefix("challenge:").filter(|n| !n.is_empty()) {
            return Ok(Self::Player(name.to_owned()));
        }
        Err(format!(
            "'{text}' is no opponent: give ai:LEVEL (1 to 8), seek, challenge:NAME, accept \
             or accept:NAME"
        ))
    }
}

/// A game to ask lichess for.
#[derive(Clone, Debug)]
pub struct Request {
    pub opponent: Opponent,
    /// The clock: minutes and seconds per move.
    pub clock: crate::clock::TimeControl,
    pub rated: bool,
}

/// Sends a worker's news to its owner and wakes it.
pub(crate) struct Teller<N> {
    to: std::sync::mpsc::Sender<N>,
    wake: crate::background::Wake,
}

impl<N> Clone for Teller<N> {
    fn clone(&self) -> Self {
        Self {
            to: self.to.clone(),
            wake: self.wake.clone(),
        }
    }
}

impl<N> Teller<N> {
    pub(crate) fn new(to: std::sync::mpsc::Sender<N>, wake: crate::background::Wake) -> Self {
        Self { to, wake }
    }

    /// Whether the owner is still there.
    pub(crate) fn tell(&self, news: N) -> bool {
        let there = self.to.send(news).is_ok();
        (self.wake)();
        there
    }
}

/// How long to wait on lichess: after a 429, and for a word on a stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Patience {
    /// The wait after lichess answered 429: a full minute, as its documentation asks.
    pub after_429: std::time::Duration,
    /// A stream silent this long (lichess sends a keep-alive every few seconds) is taken for
    /// a dead connection and opened again.
    pub silence: std::time::Duration,
}

impl Default for Patience {
    fn default() -> Self {
        Self {
            after_429: game::RATE_LIMIT_PAUSE,
            silence: std::time::Duration::from_secs(20),
        }
    }
}

/// Where lichess is, unless told otherwise.
pub const LICHESS_URL: &str = "https://lichess.org";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opponents_read_as_the_command_line_gives_them() {
        assert_eq!("ai:3".parse(), Ok(Opponent::Ai(3)));
        assert_eq!("seek".parse(), Ok(Opponent::Seek));
        assert_eq!(
            "challenge:Maia1".parse(),
            Ok(Opponent::Player("Maia1".into()))
        );
        assert!("ai:9".parse::<Opponent>().is_err());
        assert!("challenge:".parse::<Opponent>().is_err());
        assert_eq!("accept".parse(), Ok(Opponent::Accept(None)));
        assert_eq!(
            "accept:Maia1".parse(),
            Ok(Opponent::Accept(Some("Maia1".into())))
        );
        assert!("bullet".parse::<Opponent>().is_err());
    }
}
