//! Broadcasting the board's game to a lichess broadcast round: each push is the whole game
//! so far (lichess replaces the game with the same tags), so a push that fails loses
//! nothing: the next one carries everything. Pushes go one at a time on a thread of their
//! own, at most one per `every`, a full minute's wait after a 429; the newest text waiting
//! replaces an older one.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

use super::Teller;
use super::lichess::{Lichess, LichessError};
use crate::background::{Wake, WorkerThread};

/// How often a board pushes at most: lichess takes each round's pushes in turn, and twenty
/// boards of a club push to one round.
pub const BROADCAST_EVERY: Duration = Duration::from_secs(3);

/// What became of a push.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BroadcastNews {
    /// lichess took the game: it has this many moves (plies) there now.
    Pushed { moves: usize },
    /// lichess refused the push, or could not be reached; the next push carries it again.
    Problem(String),
}

/// Where and how to broadcast.
#[derive(Clone, Debug)]
pub struct BroadcastTo {
    /// Where lichess is.
    pub url: String,
    /// The round: its id or its address.
    pub round: String,
    /// The token (scope `study:write`); the environment's or the system keyring's if none.
    pub token: Option<String>,
    /// Keep the token in the system keyring once lichess takes a push.
    pub remember: bool,
    /// The least time between pushes: [`BROADCAST_EVERY`] unless given (tests).
    pub every: Option<Duration>,
    /// The wait after a 429: a minute, but for tests.
    pub after_429: Duration,
}

impl BroadcastTo {
    /// To `round` on lichess.org, at lichess's pace, with the token found.
    pub fn lichess(round: &str) -> Self {
        Self {
            url: super::LICHESS_URL.into(),
            round: round.into(),
            token: None,
            remember: false,
            every: None,
            after_429: super::game::RATE_LIMIT_PAUSE,
        }
    }
}

/// A broadcast round being pushed to.
pub struct Broadcast {
    /// Declared before `thread`: dropped first, so the thread pushes what is left and ends.
    texts: Option<Sender<String>>,
    news: Receiver<BroadcastNews>,
    thread: WorkerThread,
}

impl Broadcast {
    /// Pushes to the round `to` names (`round`, its 8-character id) from now on.
    pub fn start(to: BroadcastTo, round: &str, wake: Wake) -> std::io::Result<Self> {
        let BroadcastTo {
            url: base,
            token,
            remember,
            every,
            after_429: pause,
            ..
        } = to;
        let every = every.unwrap_or(BROADCAST_EVERY);
        let (texts, waiting) = mpsc::channel::<String>();
        let (tell, news) = mpsc::channel();
        let teller = Teller::new(tell, wake);
        let (base, round) = (base.to_owned(), round.to_owned());
        let thread = WorkerThread::spawn("lichess broadcast", move || {
            // The keyring may be slow to answer: read here, not on the owner's thread.
            let token = match super::token::given_or_found(token) {
                Ok(token) => token,
                Err(problem) => {
                    teller.tell(BroadcastNews::Problem(problem));
                    return;
                }
            };
            let pusher = Pusher {
                api: Lichess::new(&base, &token),
                round,
                every,
                pause,
                teller,
                remember: remember.then_some(token),
            };
            pusher.run(&waiting);
        })?;
        Ok(Self {
            texts: Some(texts),
            news,
            thread,
        })
    }

    /// Pushes `pgn` (the whole game so far) when its turn comes.
    pub fn push(&self, pgn: String) {
        if let Some(texts) = &self.texts {
            let _ = texts.send(pgn);
        }
    }

    /// What happened since the last call, in order.
    pub fn news(&self) -> Vec<BroadcastNews> {
        self.news.try_iter().collect()
    }

    /// Pushes what is left, waits for it, and says what became of it.
    pub fn finish(mut self) -> Vec<BroadcastNews> {
        self.texts = None;
        self.thread.wait();
        self.news()
    }

    /// Pushes what is left without waiting for it (the pusher ends by itself).
    pub fn let_go(mut self) {
        self.texts = None;
        self.thread.detach();
    }
}

/// The round id from an id or a broadcast's address (`https://lichess.org/broadcast/
/// tour/round/AbCd1234`, whose last part is the round's id).
pub fn round_id(text: &str) -> Result<String, String> {
    let text = text.trim().trim_end_matches('/');
    let id = text.rsplit('/').next().unwrap_or(text);
    let id = id.split(['?', '#']).next().unwrap_or(id);
    if id.len() == 8 && id.chars().all(|c| c.is_ascii_alphanumeric()) {
        Ok(id.to_owned())
    } else {
        Err(format!(
            "'{text}' is no broadcast round: give its 8-letter id or its lichess address"
        ))
    }
}

struct Pusher {
    api: Lichess,
    round: String,
    every: Duration,
    pause: Duration,
    teller: Teller<BroadcastNews>,
    /// The token, to keep in the keyring once a push was taken.
    remember: Option<String>,
}

impl Pusher {
    fn tell(&self, news: BroadcastNews) {
        self.teller.tell(news);
    }

    fn run(mut self, texts: &Receiver<String>) {
        let mut remember = self.remember.take();
        // The text not yet on lichess, and the last one that is.
        let mut waiting: Option<String> = None;
        let mut pushed: Option<String> = None;
        let mut next_push = Instant::now();
        let mut open = true;
        while open || waiting.is_some() {
            // Wait for a text, or for the time to push the one waiting.
            let until = if waiting.is_some() {
                next_push.saturating_duration_since(Instant::now())
            } else {
                Duration::from_secs(3600)
            };
            if open {
                match texts.recv_timeout(until) {
                    Ok(text) => {
                        waiting = Some(texts.try_iter().last().unwrap_or(text));
                        if Instant::now() < next_push {
                            continue;
                        }
                    }
                    Err(RecvTimeoutError::Timeout) => {}
                    // The owner is done: what is waiting goes now, once.
                    Err(RecvTimeoutError::Disconnected) => open = false,
                }
            }
            let Some(text) = waiting.take() else {
                continue;
            };
            if pushed.as_ref() == Some(&text) {
                continue;
            }
            if !open {
                // The last push still keeps its distance from the one before (a full
                // minute after a 429).
                std::thread::sleep(next_push.saturating_duration_since(Instant::now()));
            }
            next_push = Instant::now() + self.every;
            match self.api.push_broadcast(&self.round, &text) {
                Ok(moves) => {
                    pushed = Some(text);
                    self.tell(BroadcastNews::Pushed { moves });
                    if let Some(token) = remember.take()
                        && let Err(problem) = super::token::remember(&token)
                    {
                        self.tell(BroadcastNews::Problem(problem));
                    }
                }
                Err(error @ (LichessError::BadToken | LichessError::MissingScope)) => {
                    // No push can succeed with this token.
                    self.tell(BroadcastNews::Problem(error.to_string()));
                    return;
                }
                Err(error @ LichessError::Refused(_)) => {
                    // A game lichess will not take: said, and not pushed again until it
                    // changes.
                    pushed = Some(text);
                    self.tell(BroadcastNews::Problem(error.to_string()));
                }
                Err(error) => {
                    if matches!(error, LichessError::RateLimited) {
                        next_push = Instant::now() + self.pause;
                    }
                    self.tell(BroadcastNews::Problem(error.to_string()));
                    // Tried again later, unless a newer text comes first.
                    if open {
                        waiting = Some(text);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_round_is_its_id_or_its_address() {
        assert_eq!(round_id("AbCd1234"), Ok("AbCd1234".into()));
        assert_eq!(
            round_id("https://lichess.org/broadcast/club-night/round-1/AbCd1234"),
            Ok("AbCd1234".into())
        );
        assert_eq!(
            round_id("https://lichess.org/broadcast/club/round-1/AbCd1234/"),
            Ok("AbCd1234".into())
        );
        assert!(round_id("AbCd123").is_err());
        assert!(round_id("round-1").is_err());
        assert!(round_id("").is_err());
    }
}
