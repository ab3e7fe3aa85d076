//! One online game on threads of its own: the requests in turn on one (lichess asks for one
//! at a time), the account's event stream on another (only one per token: it is opened
//! once), and the game's stream on a third, opened again when it drops until the game has
//! ended. Each `gameFull` carries the whole game, so a move made while the stream was down
//! arrives with it: nothing is lost, and as the owner compares whole move lists nothing is
//! repeated.

use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::Duration;

use serde_json::Value;
use shakmaty::Color;

use super::lichess::{GameState, Lichess, LichessError};
use super::{Opponent, Request};
use crate::background::{Wake, WorkerThread};

/// What the owner asks of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// Play this move (UCI).
    Play(String),
    Resign,
    Abort,
    /// Offer or accept a draw (`true`), or decline one.
    Draw(bool),
    /// Propose or accept a takeback (`true`), or decline one.
    Takeback(bool),
    /// Claim the win: the opponent has gone.
    ClaimVictory,
}

/// What the game tells its owner, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OnlineNews {
    /// The account the token belongs to.
    SignedIn(String),
    /// The game began: its id, its address, the side the player has, the opponent.
    Started {
        id: String,
        url: String,
        color: Color,
        opponent: String,
    },
    /// The game as the server holds it now.
    State(GameState),
    /// The opponent left (`gone`), or came back; the win may be claimed after so long.
    OpponentGone { gone: bool, claim_in_s: Option<u64> },
    /// A chat line.
    Chat { from: String, text: String },
    /// Something the player should know: a refused move or request, a dropped connection.
    Problem(String),
    /// The game has ended (its final state came as `State` before).
    Ended,
}

/// A running online game.
pub struct OnlineGame {
    orders: Sender<Order>,
    news: Receiver<OnlineNews>,
}

/// How long to wait after lichess answered 429, as its documentation asks.
pub const RATE_LIMIT_PAUSE: Duration = Duration::from_secs(60);
/// How long to wait before opening a dropped stream again.
const RECONNECT_AFTER: Duration = Duration::from_secs(1);

impl OnlineGame {
    /// Signs in, asks for the game `request` describes and follows it; `pause` is the wait
    /// after a 429 (a minute, but for tests).
    pub fn start(
        api: Lichess,
        request: Request,
        wake: Wake,
        pause: Duration,
    ) -> std::io::Result<Self> {
        let (orders, ordered) = mpsc::channel();
        let (tell, news) = mpsc::channel();
        let teller = Teller { to: tell, wake };
        WorkerThread::spawn("lichess requests", move || {
            run(&api, &request, &teller, &ordered, pause);
        })?
        .detach();
        Ok(Self { orders, news })
    }

    pub fn order(&self, order: Order) {
        let _ = self.orders.send(order);
    }

    /// What happened since the last call, in order.
    pub fn news(&self) -> Vec<OnlineNews> {
        self.news.try_iter().collect()
    }
}

/// Sends news and wakes the owner.
#[derive(Clone)]
struct Teller {
    to: Sender<OnlineNews>,
    wake: Wake,
}

impl Teller {
    /// Whether the owner is still there.
    fn tell(&self, news: OnlineNews) -> bool {
        let there = self.to.send(news).is_ok();
        (self.wake)();
        there
    }

    fn problem(&self, error: &LichessError) -> bool {
        self.tell(OnlineNews::Problem(error.to_string()))
    }
}

/// A request, again after the pause if lichess asked to slow down.
fn patiently<T>(
    teller: &Teller,
    pause: Duration,
    mut call: impl FnMut() -> Result<T, LichessError>,
) -> Result<T, LichessError> {
    match call() {
        Err(LichessError::RateLimited) => {
            teller.problem(&LichessError::RateLimited);
            std::thread::sleep(pause);
            call()
        }
        other => other,
    }
}

fn run(
    api: &Lichess,
    request: &Request,
    teller: &Teller,
    orders: &Receiver<Order>,
    pause: Duration,
) {
    match patiently(teller, pause, || api.account()) {
        Ok(name) => {
            teller.tell(OnlineNews::SignedIn(name));
        }
        Err(e) => {
            teller.problem(&e);
            return;
        }
    }
    // The event stream first: it announces the game, whichever way it starts.
    let events = match patiently(teller, pause, || api.events()) {
        Ok(events) => events,
        Err(e) => {
            teller.problem(&e);
            return;
        }
    };
    let (started, starts) = mpsc::channel();
    let follower = WorkerThread::spawn("lichess events", move || {
        for line in events.flatten().flatten() {
            if line.get("type").and_then(Value::as_str) == Some("gameStart")
                && let Some(game) = line.get("game")
                && started.send(game.clone()).is_err()
            {
                return;
            }
        }
    });
    match follower {
        Ok(thread) => thread.detach(),
        Err(e) => {
            teller.tell(OnlineNews::Problem(e.to_string()));
            return;
        }
    }
    let wanted = match &request.opponent {
        Opponent::Ai(level) => {
            patiently(teller, pause, || api.challenge_ai(*level, &request.clock)).map(Some)
        }
        Opponent::Player(name) => patiently(teller, pause, || {
            api.challenge(name, &request.clock, request.rated)
        })
        .map(Some),
        Opponent::Seek => {
            patiently(teller, pause, || api.seek(&request.clock, request.rated)).map(|()| None)
        }
    };
    let wanted = match wanted {
        Ok(wanted) => wanted,
        Err(e) => {
            teller.problem(&e);
            return;
        }
    };
    // The game that starts: the one asked for (a seek's is whichever starts).
    let game = loop {
        match starts.recv_timeout(Duration::from_secs(1)) {
            Ok(game) => {
                let id = game
                    .get("gameId")
                    .or_else(|| game.get("id"))
                    .and_then(Value::as_str);
                if wanted.is_none() || id == wanted.as_deref() {
                    break game;
                }
            }
            Err(RecvTimeoutError::Timeout) => {
                // The owner went away: stop waiting. (An order before the game is moot.)
                if let Err(mpsc::TryRecvError::Disconnected) = orders.try_recv() {
                    return;
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                teller.tell(OnlineNews::Problem(
                    "lichess closed the event stream".into(),
                ));
                return;
            }
        }
    };
    let Some(id) = game
        .get("gameId")
        .or_else(|| game.get("id"))
        .and_then(Value::as_str)
        .map(str::to_owned)
    else {
        return;
    };
    let color = match game.get("color").and_then(Value::as_str) {
        Some("black") => Color::Black,
        _ => Color::White,
    };
    let opponent = game
        .get("opponent")
        .and_then(|o| o.get("username"))
        .and_then(Value::as_str)
        .unwrap_or("the opponent")
        .to_owned();
    teller.tell(OnlineNews::Started {
        id: id.clone(),
        url: api.game_url(&id),
        color,
        opponent,
    });
    let follow = {
        let (api, teller, id) = (api.clone(), teller.clone(), id.clone());
        WorkerThread::spawn("lichess game", move || {
            follow_game(&api, &id, &teller, pause)
        })
    };
    match follow {
        Ok(thread) => thread.detach(),
        Err(e) => {
            teller.tell(OnlineNews::Problem(e.to_string()));
            return;
        }
    }
    for order in orders {
        let (path, what) = match &order {
            Order::Play(uci) => (None, uci.clone()),
            Order::Resign => (Some("resign"), "resign".into()),
            Order::Abort => (Some("abort"), "abort".into()),
            Order::Draw(yes) => (
                Some(if *yes { "draw/yes" } else { "draw/no" }),
                "draw".into(),
            ),
            Order::Takeback(yes) => (
                Some(if *yes { "takeback/yes" } else { "takeback/no" }),
                "takeback".into(),
            ),
            Order::ClaimVictory => (Some("claim-victory"), "claim victory".into()),
        };
        let done = patiently(teller, pause, || match path {
            None => api.play(&id, &what),
            Some(action) => api.act(&id, action),
        });
        if let Err(e) = done {
            teller.tell(OnlineNews::Problem(format!("{what}: {e}")));
        }
    }
}

/// Reads the game's stream, opening it again when it drops, until the game has ended.
fn follow_game(api: &Lichess, id: &str, teller: &Teller, pause: Duration) {
    loop {
        let lines = match api.game_stream(id) {
            Ok(lines) => lines,
            Err(LichessError::RateLimited) => {
                teller.problem(&LichessError::RateLimited);
                std::thread::sleep(pause);
                continue;
            }
            Err(e @ (LichessError::BadToken | LichessError::MissingScope)) => {
                teller.problem(&e);
                return;
            }
            Err(e) => {
                if !teller.problem(&e) {
                    return;
                }
                std::thread::sleep(RECONNECT_AFTER);
                continue;
            }
        };
        let mut over = false;
        for line in lines {
            let line = match line {
                Ok(Some(line)) => line,
                Ok(None) => continue,
                Err(_) => break,
            };
            let state = match line.get("type").and_then(Value::as_str) {
                Some("gameFull") => line.get("state").and_then(GameState::from_json),
                Some("gameState") => GameState::from_json(&line),
                Some("opponentGone") => {
                    teller.tell(OnlineNews::OpponentGone {
                        gone: line.get("gone").and_then(Value::as_bool).unwrap_or(false),
                        claim_in_s: line.get("claimWinInSeconds").and_then(Value::as_u64),
                    });
                    None
                }
                Some("chatLine") => {
                    let field = |name: &str| {
                        line.get(name)
                            .and_then(Value::as_str)
                            .unwrap_or_default()
                            .to_owned()
                    };
                    teller.tell(OnlineNews::Chat {
                        from: field("username"),
                        text: field("text"),
                    });
                    None
                }
                _ => None,
            };
            if let Some(state) = state {
                over = state.is_over();
                if !teller.tell(OnlineNews::State(state)) {
                    return;
                }
            }
        }
        // A stream that closes after a final status is the end, not a drop.
        if over {
            teller.tell(OnlineNews::Ended);
            return;
        }
        if !teller.tell(OnlineNews::Problem(
            "the game's connection dropped: reconnecting".into(),
        )) {
            return;
        }
        std::thread::sleep(RECONNECT_AFTER);
    }
}
