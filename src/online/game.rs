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

use super::lichess::{GameState, Lichess, LichessError, Lines};
use super::{Opponent, Patience, Request};
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
    /// Waiting for, or accepting, someone's challenge, in words.
    Waiting(String),
    /// Something done, in words ("the token is kept in the system keyring").
    Note(String),
    /// lichess would not take back the move the player took back on the board.
    TakebackRefused(String),
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
    /// Signs in at `base` with `token` (the environment's or the system keyring's when
    /// none is given; kept in the keyring once it works, if `remember`), asks for the game
    /// `request` describes and follows it, as patient as `patience` says (less only in
    /// tests).
    pub fn start(
        base: &str,
        token: Option<String>,
        remember: bool,
        request: Request,
        wake: Wake,
        patience: Patience,
    ) -> std::io::Result<Self> {
        let (orders, ordered) = mpsc::channel();
        let (tell, news) = mpsc::channel();
        let teller = Teller::new(tell, wake);
        let base = base.to_owned();
        WorkerThread::spawn("lichess requests", move || {
            // The keyring may be slow to answer: read here, not on the owner's thread.
            let token = match super::token::given_or_found(token) {
                Ok(token) => token,
                Err(problem) => {
                    teller.tell(OnlineNews::Problem(problem));
                    return;
                }
            };
            let api = Lichess::new(&base, &token);
            run(
                &api,
                &request,
                &teller,
                &ordered,
                patience,
                remember.then_some(&*token),
            );
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

type Teller = super::Teller<OnlineNews>;

impl Teller {
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
    patience: Patience,
    remember: Option<&str>,
) {
    let pause = patience.after_429;
    let me = match patiently(teller, pause, || api.account()) {
        Ok(name) => {
            teller.tell(OnlineNews::SignedIn(name.clone()));
            if let Some(token) = remember {
                teller.tell(match super::token::remember(token) {
                    Ok(()) => OnlineNews::Note("the token is kept in the system keyring".into()),
                    Err(problem) => OnlineNews::Problem(problem),
                });
            }
            name
        }
        Err(e) => {
            teller.problem(&e);
            return;
        }
    };
    // The event stream first: it announces the game, whichever way it starts.
    let stream = match patiently(teller, pause, || api.events()) {
        Ok(stream) => stream,
        Err(e) => {
            teller.problem(&e);
            return;
        }
    };
    let (heard, events) = mpsc::channel();
    let follower = {
        let (api, teller) = (api.clone(), teller.clone());
        WorkerThread::spawn("lichess events", move || {
            follow_events(&api, stream, &heard, &teller, patience);
        })
    };
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
        Opponent::Accept(from) => {
            teller.tell(OnlineNews::Waiting(match from {
                Some(name) => format!("waiting for a challenge from {name}"),
                None => "waiting for a challenge".into(),
            }));
            // A challenge withdrawn before it is accepted: the next one, then.
            loop {
                let Some((id, words)) = incoming_challenge(&events, &me, from.as_deref(), orders)
                else {
                    return;
                };
                teller.tell(OnlineNews::Waiting(format!("accepting {words}")));
                match patiently(teller, pause, || api.accept(&id)) {
                    Ok(()) => break Ok(Some(id)),
                    Err(e @ (LichessError::BadToken | LichessError::MissingScope)) => {
                        break Err(e);
                    }
                    Err(e) => {
                        teller.problem(&e);
                    }
                }
            }
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
        match events.recv_timeout(Duration::from_secs(1)) {
            Ok(Event::GameStart(game)) => {
                if wanted.is_none() || game_id(&game) == wanted.as_deref() {
                    break game;
                }
            }
            Ok(Event::Challenge(_) | Event::Alive) => {}
            Err(RecvTimeoutError::Timeout) => {
                if owner_gone(orders) {
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
    let Some(id) = game_id(&game).map(str::to_owned) else {
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
    // The event stream's follower stops at its next word: nobody listens any more.
    drop(events);
    teller.tell(OnlineNews::Started {
        id: id.clone(),
        url: api.game_url(&id),
        color,
        opponent,
    });
    let follow = {
        let (api, teller, id) = (api.clone(), teller.clone(), id.clone());
        WorkerThread::spawn("lichess game", move || {
            follow_game(&api, &id, &teller, patience)
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
            teller.tell(match order {
                Order::Takeback(true) => OnlineNews::TakebackRefused(e.to_string()),
                _ => OnlineNews::Problem(format!("{what}: {e}")),
            });
        }
    }
}

/// What the event stream announces that matters here.
enum Event {
    GameStart(Value),
    Challenge(Value),
    /// The stream goes on (a keep-alive, or opened again): whoever listens is still there.
    Alive,
}

/// Passes the event stream's game starts and challenges on until the game has begun (no
/// one listens then), opening the stream again when it drops or falls silent: lichess then
/// sends the games in progress and the open challenges again.
fn follow_events(
    api: &Lichess,
    mut stream: Lines,
    heard: &Sender<Event>,
    teller: &Teller,
    patience: Patience,
) {
    loop {
        let lines = match stream.or_silence_after(patience.silence) {
            Ok(lines) => lines,
            Err(e) => {
                teller.tell(OnlineNews::Problem(e.to_string()));
                return;
            }
        };
        for line in lines {
            let event = match line {
                Ok(Some(line)) => match line.get("type").and_then(Value::as_str) {
                    Some("gameStart") => line.get("game").cloned().map(Event::GameStart),
                    Some("challenge") => line.get("challenge").cloned().map(Event::Challenge),
                    _ => Some(Event::Alive),
                },
                // A keep-alive: still worth asking whether anyone listens.
                Ok(None) => Some(Event::Alive),
                Err(_) => break,
            };
            // Nobody waits for a game any more: the stream is let go.
            if let Some(event) = event
                && heard.send(event).is_err()
            {
                return;
            }
        }
        stream = loop {
            std::thread::sleep(RECONNECT_AFTER);
            if heard.send(Event::Alive).is_err() {
                return;
            }
            match patiently(teller, patience.after_429, || api.events()) {
                Ok(stream) => break stream,
                Err(e @ (LichessError::BadToken | LichessError::MissingScope)) => {
                    teller.problem(&e);
                    return;
                }
                Err(e) => {
                    teller.problem(&e);
                }
            }
        };
    }
}

/// A `gameStart`'s game id.
fn game_id(game: &Value) -> Option<&str> {
    game.get("gameId")
        .or_else(|| game.get("id"))
        .and_then(Value::as_str)
}

/// Whether the owner went away (an order before the game is moot).
fn owner_gone(orders: &Receiver<Order>) -> bool {
    matches!(orders.try_recv(), Err(mpsc::TryRecvError::Disconnected))
}

/// Waits for a standard-chess challenge to `me` (from `from`, if named): its id and, in
/// words, who challenges and how ("Maia1's 10+5 casual game").
fn incoming_challenge(
    events: &Receiver<Event>,
    me: &str,
    from: Option<&str>,
    orders: &Receiver<Order>,
) -> Option<(String, String)> {
    loop {
        match events.recv_timeout(Duration::from_secs(1)) {
            Ok(Event::Challenge(challenge)) => {
                if let Some(found) = acceptable(&challenge, me, from) {
                    return Some(found);
                }
            }
            Ok(Event::GameStart(_) | Event::Alive) => {}
            Err(RecvTimeoutError::Timeout) if !owner_gone(orders) => {}
            Err(_) => return None,
        }
    }
}

/// A challenge this player may accept from the board: to it, standard chess, by the named
/// challenger if one was named.
fn acceptable(challenge: &Value, me: &str, from: Option<&str>) -> Option<(String, String)> {
    let text = |path: &[&str]| {
        path.iter()
            .try_fold(challenge, |value, key| value.get(key))
            .and_then(Value::as_str)
    };
    let to_me = text(&["destUser", "id"]).is_some_and(|id| id.eq_ignore_ascii_case(me))
        || text(&["destUser", "name"]).is_some_and(|name| name.eq_ignore_ascii_case(me));
    let challenger = text(&["challenger", "name"]).or(text(&["challenger", "id"]))?;
    let standard = text(&["variant", "key"]).is_none_or(|key| key == "standard");
    let wanted = from.is_none_or(|name| name.eq_ignore_ascii_case(challenger));
    if !(to_me && standard && wanted) {
        return None;
    }
    let id = text(&["id"])?.to_owned();
    let clock = text(&["timeControl", "show"]).unwrap_or("unlimited");
    let rated = if challenge.get("rated").and_then(Value::as_bool) == Some(true) {
        "rated"
    } else {
        "casual"
    };
    Some((id, format!("{challenger}'s {clock} {rated} game")))
}

/// Reads the game's stream, opening it again when it drops, until the game has ended.
fn follow_game(api: &Lichess, id: &str, teller: &Teller, patience: Patience) {
    loop {
        let opened = api.game_stream(id).and_then(|lines| {
            lines
                .or_silence_after(patience.silence)
                .map_err(|e| LichessError::Network(e.to_string()))
        });
        let lines = match opened {
            Ok(lines) => lines,
            Err(LichessError::RateLimited) => {
                teller.problem(&LichessError::RateLimited);
                std::thread::sleep(patience.after_429);
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
        let mut broke_off = None;
        for line in lines {
            let line = match line {
                Ok(Some(line)) => line,
                Ok(None) => continue,
                Err(e) => {
                    broke_off = Some(e);
                    break;
                }
            };
            let state = match line.get("type").and_then(Value::as_str) {
                Some("gameFull") => line
                    .get("state")
                    .and_then(GameState::from_json)
                    .map(|state| {
                        let clock = line.get("clock");
                        let ms = |key: &str| clock.and_then(|c| c.get(key)).and_then(Value::as_u64);
                        GameState {
                            clock_ms: ms("initial").zip(ms("increment")),
                            ..state
                        }
                    }),
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
        let why = broke_off.map_or_else(String::new, |e| format!(" ({e})"));
        if !teller.tell(OnlineNews::Problem(format!(
            "the game's connection dropped{why}: reconnecting"
        ))) {
            return;
        }
        std::thread::sleep(RECONNECT_AFTER);
    }
}
