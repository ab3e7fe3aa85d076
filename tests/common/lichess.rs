//! A stand-in for lichess's Board API, for tests only: a small HTTP/1.1 server on 127.0.0.1
//! with one scripted opponent, so the lichess client is tested without the network.
//!
//! It is written from lichess's published OpenAPI description (github.com/lichess-org/api,
//! `doc/specs/`): `lichess-api.yaml` (rate limiting, the Board API's time controls),
//! `tags/account/api-account.yaml`, `tags/board/` (`api-stream-event`, `api-board-seek`,
//! `api-board-game-stream-gameId`, `api-board-game-gameId-move-move`, `-abort`, `-resign`,
//! `-draw-accept`, `-takeback-accept`, `-claim-victory`), `tags/challenges/`
//! (`api-challenge-ai`, `api-challenge-username`, `api-challenge-challengeId-accept`), the
//! schemas these use (`GameStartEvent`, `GameFinishEvent`, `GameEventInfo`,
//! `GameEventOpponent`, `GameEventPlayer`, `GameFullEvent`, `GameStateEvent`, `ChatLineEvent`,
//! `OpponentGoneEvent`, `ChallengeEvent`, `ChallengeJson`, `TimeControl`, `GameStatus`,
//! `Error`, `Ok`, `NotFound`) and their examples under `doc/specs/examples/`.
//!
//! One request per connection (`Connection: close`). Streams are chunked ndjson with an
//! empty keep-alive line every [`Script::keep_alive`]. Games are standard chess with a clock;
//! the player is "tester" and plays white unless it asks for black ("random" is white here).
//! Faults (a 429, a cut game stream, an opponent who leaves) come from the [`Script`].

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};
use shakmaty::fen::Fen;
use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, EnPassantMode, Move, Position};

/// The token the stand-in knows but which lacks the board:play scope.
pub const NO_SCOPE_TOKEN: &str = "no-scope";
/// How long the opponent must have been gone before the player may claim the win (the
/// `opponentGone` line's `claimWinInSeconds`).
pub const CLAIM_WIN_AFTER: Duration = Duration::from_secs(1);
/// Bounds on a request, so a malformed one holds neither a thread nor memory for long.
const MAX_HEAD_BYTES: u64 = 16 * 1024;
const MAX_BODY_BYTES: usize = 64 * 1024;
const SOCKET_TIMEOUT: Duration = Duration::from_secs(5);
/// Where lichess's speeds start, in estimated seconds (limit + 40 × increment). The Board API
/// seeks rapid or slower; challenges and AI games may also be blitz.
const BLITZ_FROM_S: u64 = 180;
const RAPID_FROM_S: u64 = 480;

/// What the stand-in's opponent and network do.
pub struct Script {
    /// The opponent's moves in UCI, played in turn; when they run out it thinks forever.
    pub opponent_moves: Vec<String>,
    /// How long the opponent thinks before each move.
    pub reply_after: Duration,
    /// The clock of games whose request names none (an incoming challenge, an AI game
    /// without `clock.limit`).
    pub clock_limit_s: u64,
    pub increment_s: u64,
    /// How often a stream sends an empty line when it has nothing else to say.
    pub keep_alive: Duration,
    /// Answer the Nth request (counting from 1) with 429.
    pub too_many_requests_at: Option<usize>,
    /// Answer the first request to this path (without its query) with 429. Only one 429 is
    /// ever sent, whichever of the two comes first.
    pub too_many_requests_on: Option<String>,
    /// Drop the game stream's connection, without its last chunk, once the game holds this
    /// many moves (plies). It happens once in the stand-in's life.
    pub cut_stream_after_moves: Option<usize>,
    /// The game stream falls silent, keep-alives and all, with its connection held open,
    /// once the game holds this many moves (plies): a connection dead without closing. It
    /// happens once in the stand-in's life.
    pub silence_stream_after_moves: Option<usize>,
    /// The first event stream falls silent at once, keep-alives and all, its connection held
    /// open.
    pub silence_first_event_stream: bool,
    /// The opponent leaves once the game holds this many moves (plies): it stops playing and
    /// the game stream says `opponentGone`.
    pub opponent_gone_after_moves: Option<usize>,
    /// The opponent declines the player's takebacks (it agrees unless told).
    pub decline_takebacks: bool,
    /// The broadcast round that may be pushed to (`/api/broadcast/round/{id}/push`).
    pub broadcast_round: Option<String>,
    /// The network loses this many pushes at first: read, then the connection closed
    /// without an answer.
    pub lose_pushes: usize,
}

impl Default for Script {
    /// A rapid 10+0 game against an opponent with no moves, which answers in 100 ms.
    fn default() -> Self {
        Self {
            opponent_moves: Vec::new(),
            reply_after: Duration::from_millis(100),
            clock_limit_s: 600,
            increment_s: 0,
            keep_alive: Duration::from_secs(1),
            too_many_requests_at: None,
            too_many_requests_on: None,
            cut_stream_after_moves: None,
            opponent_gone_after_moves: None,
            silence_stream_after_moves: None,
            silence_first_event_stream: false,
            decline_takebacks: false,
            broadcast_round: None,
            lose_pushes: 0,
        }
    }
}

/// The running stand-in; dropping it stops the server.
pub struct StandIn {
    /// Where to send requests, such as `http://127.0.0.1:40123`.
    pub url: String,
    address: SocketAddr,
    shared: Arc<Shared>,
    threads: Vec<JoinHandle<()>>,
}

impl StandIn {
    /// Serves on a free local port. `tokens` may play (board:play); [`NO_SCOPE_TOKEN`] is
    /// known but may only read `/api/account`; any other token is unknown.
    pub fn start(tokens: &[&str], script: Script) -> StandIn {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a local port for the stand-in");
        let address = listener.local_addr().expect("the stand-in's address");
        let shared = Arc::new(Shared {
            script,
            tokens: tokens.iter().map(|token| token.to_string()).collect(),
            state: Mutex::default(),
            changed: Condvar::new(),
            stop: AtomicBool::new(false),
        });
        let (accepting, driving) = (shared.clone(), shared.clone());
        let threads = vec![
            thread::spawn(move || accepting.accept(listener)),
            thread::spawn(move || driving.drive()),
        ];
        StandIn {
            url: format!("http://{address}"),
            address,
            shared,
            threads,
        }
    }

    /// The PGN of every push the broadcast round took, in order.
    pub fn pushes(&self) -> Vec<String> {
        self.shared.lock().pushes.clone()
    }

    /// Every request received so far, in order: method, path (with its query), form body.
    pub fn requests(&self) -> Vec<(String, String, String)> {
        self.shared.lock().requests.clone()
    }

    /// The moves the player sent in the latest game, in order, as the server accepted them
    /// (castling as e1g1); a move later taken back stays here.
    pub fn player_moves(&self) -> Vec<String> {
        self.latest(|game| game.player_moves.clone())
            .unwrap_or_default()
    }

    /// The latest game's moves as the server holds them.
    pub fn game_moves(&self) -> Vec<String> {
        self.latest(|game| game.moves.clone()).unwrap_or_default()
    }

    /// The latest game's id and status ("started", "mate", "resign", …), once one started.
    pub fn game(&self) -> Option<(String, String)> {
        self.latest(|game| (game.id.clone(), game.status.to_string()))
    }

    /// How many times a game stream was opened (1 + reconnects).
    pub fn game_streams_opened(&self) -> usize {
        self.shared.lock().game_streams_opened
    }

    /// How many times the event stream was opened.
    pub fn event_streams_opened(&self) -> usize {
        self.shared.lock().event_streams_opened
    }

    /// The opponent offers a draw now; the offer stands until a move or the player's answer.
    pub fn opponent_offers_draw(&self) {
        self.change_game(|game, _| {
            game.draw_offer = Some(!game.player);
            game.push_state();
        });
    }

    /// The opponent proposes now to take back its last move.
    pub fn opponent_offers_takeback(&self) {
        self.change_game(|game, _| {
            if game.has_moved(!game.player) {
                game.takeback_offer = Some(!game.player);
                game.push_state();
            }
        });
    }

    /// The opponent resigns now, which ends the game.
    pub fn opponent_resigns(&self) {
        self.change_game(|game, events| {
            let player = game.player;
            finish(game, events, "resign", Some(player));
        });
    }

    /// The opponent writes in the player chat.
    pub fn opponent_says(&self, text: &str) {
        self.change_game(|game, _| {
            let name = game.opponent.name();
            let line =
                json!({"type": "chatLine", "room": "player", "username": name, "text": text});
            game.lines.push((line.to_string(), game.moves.len()));
        });
    }

    /// Maia1 challenges the player (with the script's clock); the event stream says
    /// `challenge`. Returns the challenge's id, which becomes the game's once accepted.
    pub fn incoming_challenge(&self) -> String {
        let mut state = self.shared.lock();
        let id = state.new_id();
        let terms = Terms::from_script(&self.shared.script);
        let challenge = challenge_json(&id, "Maia1", false, &terms);
        let event = json!({"type": "challenge", "challenge": challenge, "compat": compat()});
        state.events.push(event.to_string());
        state.challenges.push((id.clone(), event.to_string()));
        drop(state);
        self.shared.changed.notify_all();
        id
    }

    fn latest<T>(&self, read: impl FnOnce(&Game) -> T) -> Option<T> {
        self.shared.lock().games.last().map(read)
    }

    /// Runs `change` on the latest game, if it is in progress, then wakes the streams.
    fn change_game(&self, change: impl FnOnce(&mut Game, &mut Vec<String>)) {
        let mut state = self.shared.lock();
        let State { games, events, .. } = &mut *state;
        if let Some(game) = games.last_mut().filter(|game| game.is_on()) {
            change(game, events);
        }
        drop(state);
        self.shared.changed.notify_all();
    }
}

impl Drop for StandIn {
    fn drop(&mut self) {
        {
            // Under the lock, so no stream misses the wake-up between its check and its wait.
            let _state = self.shared.lock();
            self.shared.stop.store(true, Ordering::SeqCst);
        }
        self.shared.changed.notify_all();
        // The accept loop only looks at `stop` when a connection comes.
        let _ = TcpStream::connect(self.address);
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// What the connection threads, the opponent's thread and the test share.
struct Shared {
    script: Script,
    tokens: Vec<String>,
    state: Mutex<State>,
    /// Signalled on every change, so streams send what is new at once.
    changed: Condvar,
    stop: AtomicBool,
}

#[derive(Default)]
struct State {
    requests: Vec<(String, String, String)>,
    answered_too_many: bool,
    /// Every event-stream line so far; each stream sends those after its opening.
    events: Vec<String>,
    /// The serial of the event stream each token has open: a newer one closes the older.
    event_stream_of: HashMap<String, usize>,
    event_streams_opened: usize,
    game_streams_opened: usize,
    stream_cut: bool,
    stream_silenced: bool,
    games: Vec<Game>,
    /// The PGN of every push the round took, in order.
    pushes: Vec<String>,
    pushes_lost: usize,
    /// Incoming challenges not yet accepted: id and `challenge` event line.
    challenges: Vec<(String, String)>,
    ids_issued: usize,
}

impl State {
    /// An 8-character id, as lichess's game and challenge ids are.
    fn new_id(&mut self) -> String {
        self.ids_issued += 1;
        format!("sg{:06}", self.ids_issued)
    }

    fn start_game(&mut self, mut game: Game, script: &Script) {
        game.schedule_reply(script.reply_after);
        self.events.push(game.event_line("gameStart"));
        self.games.push(game);
    }
}

/// Who the player faces: lichess's AI at a level, or a user (by name).
enum Opponent {
    Ai(u8),
    User(String),
}

impl Opponent {
    fn name(&self) -> String {
        match self {
            Opponent::Ai(level) => format!("Stockfish level {level}"),
            Opponent::User(name) => name.clone(),
        }
    }

    /// As `gameStart` and `gameFinish` show it (GameEventOpponent).
    fn event_json(&self) -> Value {
        match self {
            Opponent::Ai(level) => json!({"id": null, "username": self.name(), "ai": level}),
            Opponent::User(name) => {
                json!({"id": name.to_lowercase(), "username": name, "rating": 1500})
            }
        }
    }

    /// As `gameFull` shows it (GameEventPlayer).
    fn player_json(&self) -> Value {
        match self {
            Opponent::Ai(level) => json!({"aiLevel": level}),
            Opponent::User(name) => {
                json!({"id": name.to_lowercase(), "name": name, "title": null, "rating": 1500})
            }
        }
    }
}

type Form = HashMap<String, String>;

/// The clock, colour and rating a challenge or seek asks for.
struct Terms {
    limit_s: u64,
    increment_s: u64,
    rated: bool,
    player: Color,
    color_asked: String,
}

impl Terms {
    fn from_script(script: &Script) -> Terms {
        Terms {
            limit_s: script.clock_limit_s,
            increment_s: script.increment_s,
            rated: false,
            player: Color::White,
            color_asked: "random".to_string(),
        }
    }

    /// A seek gives `time` in minutes and `increment`; challenges `clock.limit` and
    /// `clock.increment` in seconds, which default to the script's.
    fn from_form(form: &Form, script: &Script, seek: bool) -> Result<Terms, String> {
        if form
            .get("variant")
            .is_some_and(|variant| variant != "standard")
        {
            return Err("The stand-in plays standard chess only".into());
        }
        let mut terms = Terms::from_script(script);
        if seek {
            let minutes: Option<f64> = field(form, "time")?;
            match (minutes, field(form, "increment")?) {
                (Some(minutes), Some(increment)) if (0.0..=180.0).contains(&minutes) => {
                    terms.limit_s = (minutes * 60.0).round() as u64;
                    terms.increment_s = increment;
                }
                _ => return Err("time and increment are required (no correspondence)".into()),
            }
        } else {
            terms.limit_s = field(form, "clock.limit")?.unwrap_or(script.clock_limit_s);
            terms.increment_s = field(form, "clock.increment")?.unwrap_or(script.increment_s);
        }
        terms.color_asked = form.get("color").cloned().unwrap_or(terms.color_asked);
        terms.player = match terms.color_asked.as_str() {
            "white" | "random" => Color::White,
            "black" => Color::Black,
            other => return Err(format!("color: {other} is not white, black or random")),
        };
        terms.rated = form.get("rated").is_some_and(|rated| rated == "true");
        Ok(terms)
    }

    /// lichess's estimate of a game's length, which sets its speed.
    fn estimate_s(&self) -> u64 {
        self.limit_s + 40 * self.increment_s
    }
}

struct Game {
    id: String,
    source: &'static str,
    player: Color,
    opponent: Opponent,
    rated: bool,
    limit_s: u64,
    increment_s: u64,
    created_at: u64,
    position: Chess,
    moves: Vec<String>,
    player_moves: Vec<String>,
    /// Milliseconds left at `last_move_at`; the side to move's runs down from then.
    wtime: i64,
    btime: i64,
    last_move_at: Instant,
    status: &'static str,
    winner: Option<Color>,
    draw_offer: Option<Color>,
    takeback_offer: Option<Color>,
    reply_due: Option<Instant>,
    gone_since: Option<Instant>,
    /// The game stream's lines after `gameFull`, each with how many moves the game then held.
    lines: Vec<(String, usize)>,
}

impl Game {
    fn new(id: String, source: &'static str, opponent: Opponent, terms: &Terms) -> Game {
        let initial_ms = terms.limit_s as i64 * 1000;
        let since_epoch = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default();
        Game {
            id,
            source,
            player: terms.player,
            opponent,
            rated: terms.rated,
            limit_s: terms.limit_s,
            increment_s: terms.increment_s,
            created_at: since_epoch.as_millis() as u64,
            position: Chess::default(),
            moves: Vec::new(),
            player_moves: Vec::new(),
            wtime: initial_ms,
            btime: initial_ms,
            last_move_at: Instant::now(),
            status: "started",
            winner: None,
            draw_offer: None,
            takeback_offer: None,
            reply_due: None,
            gone_since: None,
            lines: Vec::new(),
        }
    }

    fn is_on(&self) -> bool {
        self.status == "started"
    }

    fn turn(&self) -> Color {
        self.position.turn()
    }

    fn has_moved(&self, color: Color) -> bool {
        self.moves.len() >= color.fold_wb(1, 2)
    }

    /// As on lichess, the clocks start once both sides have moved.
    fn clock_running(&self) -> bool {
        self.is_on() && self.moves.len() >= 2
    }

    fn time_mut(&mut self, color: Color) -> &mut i64 {
        match color {
            Color::White => &mut self.wtime,
            Color::Black => &mut self.btime,
        }
    }

    /// Both clocks now, in milliseconds.
    fn times_now(&self) -> (i64, i64) {
        let (mut wtime, mut btime) = (self.wtime, self.btime);
        if self.clock_running() {
            let spent = self.last_move_at.elapsed().as_millis() as i64;
            *self.turn().fold_wb(&mut wtime, &mut btime) -= spent;
        }
        (wtime.max(0), btime.max(0))
    }

    fn speed(&self) -> &'static str {
        speed_of(self.limit_s + 40 * self.increment_s)
    }

    fn fen(&self) -> String {
        Fen::from_position(&self.position, EnPassantMode::Legal).to_string()
    }

    /// Plays a legal move for the side to move, running its clock; false if it is illegal.
    fn play(&mut self, uci: &str) -> bool {
        let Some(legal) = legal_move(&self.position, uci) else {
            return false;
        };
        if self.clock_running() {
            let spent = self.last_move_at.elapsed().as_millis() as i64;
            let increment = self.increment_s as i64 * 1000;
            *self.time_mut(self.turn()) += increment - spent;
        }
        self.moves.push(UciMove::from_standard(legal).to_string());
        self.position.play_unchecked(legal);
        self.last_move_at = Instant::now();
        // A move declines any standing offer.
        self.draw_offer = None;
        self.takeback_offer = None;
        true
    }

    /// Takes back the last `plies` moves and says so on the game stream.
    fn take_back(&mut self, plies: usize, reply_after: Duration) {
        self.moves.truncate(self.moves.len().saturating_sub(plies));
        self.position = Chess::default();
        for uci in &self.moves {
            if let Some(legal) = legal_move(&self.position, uci) {
                self.position.play_unchecked(legal);
            }
        }
        self.last_move_at = Instant::now();
        self.draw_offer = None;
        self.takeback_offer = None;
        self.push_state();
        self.schedule_reply(reply_after);
    }

    /// The end the board itself decides: mate, stalemate, or too little material.
    fn board_end(&self) -> Option<(&'static str, Option<Color>)> {
        if self.position.is_checkmate() {
            Some(("mate", Some(!self.turn())))
        } else if self.position.is_stalemate() {
            Some(("stalemate", None))
        } else if self.position.is_insufficient_material() {
            Some(("draw", None))
        } else {
            None
        }
    }

    fn schedule_reply(&mut self, reply_after: Duration) {
        let opponent_to_move =
            self.is_on() && self.turn() != self.player && self.gone_since.is_none();
        self.reply_due = opponent_to_move.then(|| Instant::now() + reply_after);
    }

    /// The `gameState` line: the whole game so far, the clocks, and any offers.
    fn state_json(&self) -> Value {
        let (wtime, btime) = self.times_now();
        let increment = self.increment_s * 1000;
        let mut state = json!({
            "type": "gameState", "moves": self.moves.join(" "), "wtime": wtime, "btime": btime,
            "winc": increment, "binc": increment, "status": self.status,
        });
        if let Some(winner) = self.winner {
            state["winner"] = json!(color_name(winner));
        }
        let offers = [
            ("wdraw", self.draw_offer, Color::White),
            ("bdraw", self.draw_offer, Color::Black),
            ("wtakeback", self.takeback_offer, Color::White),
            ("btakeback", self.takeback_offer, Color::Black),
        ];
        // As the spec says: true while offered, else left out.
        for (key, offer, color) in offers {
            if offer == Some(color) {
                state[key] = json!(true);
            }
        }
        state
    }

    fn push_state(&mut self) {
        let line = self.state_json().to_string();
        self.lines.push((line, self.moves.len()));
    }

    /// The `gameFull` line a game stream opens with.
    fn full_json(&self) -> Value {
        let tester = json!({"id": "tester", "name": "Tester", "title": null, "rating": 1500});
        let opponent = self.opponent.player_json();
        let (white, black) = match self.player {
            Color::White => (tester, opponent),
            Color::Black => (opponent, tester),
        };
        json!({
            "type": "gameFull", "id": self.id, "variant": standard(),
            "clock": {"initial": self.limit_s * 1000, "increment": self.increment_s * 1000},
            "speed": self.speed(), "perf": {"name": perf_name(self.speed())},
            "rated": self.rated, "createdAt": self.created_at, "white": white, "black": black,
            "initialFen": "startpos", "state": self.state_json(),
        })
    }

    /// A `gameStart` or `gameFinish` line for the event stream (GameEventInfo).
    fn event_line(&self, kind: &str) -> String {
        let (wtime, btime) = self.times_now();
        let mut game = json!({
            "fullId": format!("{}t3st", self.id), "gameId": self.id, "fen": self.fen(),
            "color": color_name(self.player),
            "lastMove": self.moves.last().map_or("", String::as_str),
            "source": self.source, "status": {"id": status_id(self.status), "name": self.status},
            "variant": standard(), "speed": self.speed(), "perf": self.speed(),
            "rated": self.rated, "hasMoved": self.has_moved(self.player),
            "opponent": self.opponent.event_json(),
            "isMyTurn": self.is_on() && self.turn() == self.player,
            "secondsLeft": self.player.fold_wb(wtime, btime) / 1000, "compat": compat(),
            "id": self.id,
        });
        if let Some(winner) = self.winner {
            game["winner"] = json!(color_name(winner));
        }
        json!({"type": kind, "game": game}).to_string()
    }
}

/// One game of PGN: its tags and how many moves it has, or its tags and what is wrong.
fn read_pgn_game(text: &str) -> Result<(Value, usize), (Value, String)> {
    let mut tags = serde_json::Map::new();
    let mut movetext = String::new();
    for line in text.lines() {
        let line = line.trim().trim_start_matches('[');
        match line.strip_suffix(']').and_then(|tag| tag.split_once(' ')) {
            Some((name, value)) if !line.starts_with('{') => {
                tags.insert(name.to_owned(), json!(value.trim_matches('"')));
            }
            _ => {
                movetext.push_str(line);
                movetext.push(' ');
            }
        }
    }
    // Comments go; move numbers and the result are not moves.
    let mut plain = String::new();
    let mut depth = 0;
    for c in movetext.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth == 0 => plain.push(c),
            _ => {}
        }
    }
    let mut position = Chess::default();
    let mut moves = 0;
    for word in plain.split_whitespace() {
        if ["1-0", "0-1", "1/2-1/2", "*"].contains(&word) {
            continue;
        }
        let word = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
        if word.is_empty() {
            continue;
        }
        let played = word
            .parse::<shakmaty::san::SanPlus>()
            .ok()
            .and_then(|san| san.san.to_move(&position).ok());
        match played {
            Some(mv) => {
                position.play_unchecked(mv);
                moves += 1;
            }
            None => return Err((Value::Object(tags), format!("Illegal move {word}"))),
        }
    }
    Ok((Value::Object(tags), moves))
}

fn legal_move(position: &Chess, uci: &str) -> Option<Move> {
    uci.parse::<UciMove>().ok()?.to_move(position).ok()
}

/// Ends the game: the last `gameState` on the game stream, `gameFinish` on the event stream.
fn finish(game: &mut Game, events: &mut Vec<String>, status: &'static str, winner: Option<Color>) {
    (game.wtime, game.btime) = game.times_now();
    game.status = status;
    game.winner = winner;
    game.draw_offer = None;
    game.takeback_offer = None;
    game.reply_due = None;
    game.push_state();
    events.push(game.event_line("gameFinish"));
}

/// After a move by either side: the end, or the new state, the opponent leaving, its reply.
fn record_move(game: &mut Game, events: &mut Vec<String>, script: &Script) {
    if let Some((status, winner)) = game.board_end() {
        finish(game, events, status, winner);
        return;
    }
    game.push_state();
    let leaves = script
        .opponent_gone_after_moves
        .is_some_and(|at| game.moves.len() >= at);
    if leaves && game.gone_since.is_none() {
        game.gone_since = Some(Instant::now());
        let claim_in = CLAIM_WIN_AFTER.as_secs();
        let gone = json!({"type": "opponentGone", "gone": true, "claimWinInSeconds": claim_in});
        game.lines.push((gone.to_string(), game.moves.len()));
    }
    game.schedule_reply(script.reply_after);
}

fn challenge_json(id: &str, opponent: &str, outgoing: bool, terms: &Terms) -> Value {
    let tester = json!({"id": "tester", "name": "Tester", "rating": 1500});
    let other = json!({"id": opponent.to_lowercase(), "name": opponent, "rating": 1500});
    let (challenger, dest) = if outgoing {
        (tester, other)
    } else {
        (other, tester)
    };
    // The challenger's colour, as in the spec's examples.
    let final_color = if outgoing {
        terms.player
    } else {
        !terms.player
    };
    let speed = speed_of(terms.estimate_s());
    let (limit, increment) = (terms.limit_s, terms.increment_s);
    json!({
        "id": id, "url": format!("https://lichess.org/{id}"), "status": "created",
        "challenger": challenger, "destUser": dest, "variant": standard(),
        "rated": terms.rated, "speed": speed,
        "timeControl": {
            "type": "clock", "limit": limit, "increment": increment,
            "show": format!("{}+{increment}", limit / 60),
        },
        "color": terms.color_asked, "finalColor": color_name(final_color),
        "perf": {"icon": "", "name": perf_name(speed)},
        "direction": if outgoing { "out" } else { "in" },
    })
}

fn standard() -> Value {
    json!({"key": "standard", "name": "Standard", "short": "Std"})
}

fn compat() -> Value {
    json!({"bot": false, "board": true})
}

fn color_name(color: Color) -> &'static str {
    color.fold_wb("white", "black")
}

fn speed_of(estimate_s: u64) -> &'static str {
    match estimate_s {
        0..30 => "ultraBullet",
        30..BLITZ_FROM_S => "bullet",
        BLITZ_FROM_S..RAPID_FROM_S => "blitz",
        RAPID_FROM_S..1500 => "rapid",
        _ => "classical",
    }
}

/// The perf's display name: the speed's, capitalised ("ultraBullet" → "UltraBullet").
fn perf_name(speed: &str) -> String {
    let mut letters = speed.chars();
    letters
        .next()
        .map(|first| first.to_ascii_uppercase())
        .into_iter()
        .chain(letters)
        .collect()
}

/// GameStatusId for the statuses the stand-in uses.
fn status_id(status: &str) -> u8 {
    match status {
        "started" => 20,
        "aborted" => 25,
        "mate" => 30,
        "resign" => 31,
        "stalemate" => 32,
        "timeout" => 33,
        "draw" => 34,
        "outoftime" => 35,
        _ => 10,
    }
}

struct Request {
    method: String,
    /// The path and query as sent.
    target: String,
    path: String,
    query: String,
    token: Option<String>,
    body: String,
}

/// What a stream does after sending its new lines.
enum Then {
    Wait,
    End,
    Cut,
    /// Nothing more, not even keep-alives, the connection left open.
    Silence,
}

/// Finds a stream's new lines, under the lock, each time the state changes.
type Poll = Box<dyn FnMut(&mut State) -> (Vec<String>, Then)>;

/// A response, or a stream (its first lines, then what its poll finds) to serve once the
/// lock is let go.
enum Reply {
    Json(u16, Value),
    Stream(Vec<String>, Poll),
    /// The connection closes without an answer.
    Lost,
}

/// A reply, or the text of a 400.
type Handled = Result<Reply, String>;

fn error(status: u16, text: &str) -> Reply {
    Reply::Json(status, json!({"error": text}))
}

fn ok() -> Handled {
    Ok(Reply::Json(200, json!({"ok": true})))
}

/// A matched seek's stream: nothing, then the end.
fn seek_matched(_: &mut State) -> (Vec<String>, Then) {
    (Vec::new(), Then::End)
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn wait<'a>(&self, state: MutexGuard<'a, State>, timeout: Duration) -> MutexGuard<'a, State> {
        match self.changed.wait_timeout(state, timeout) {
            Ok((state, _)) => state,
            Err(poisoned) => poisoned.into_inner().0,
        }
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    fn accept(self: Arc<Self>, listener: TcpListener) {
        for connection in listener.incoming() {
            if self.stopped() {
                break;
            }
            if let Ok(connection) = connection {
                let shared = self.clone();
                thread::spawn(move || shared.handle(connection));
            }
        }
    }

    fn handle(&self, mut connection: TcpStream) {
        let _ = connection.set_read_timeout(Some(SOCKET_TIMEOUT));
        let _ = connection.set_write_timeout(Some(SOCKET_TIMEOUT));
        let reply = match read_request(&connection) {
            Some(request) => self.route(&mut self.lock(), &request),
            None => error(400, "Malformed request"),
        };
        self.changed.notify_all();
        match reply {
            Reply::Json(status, body) => write_json(&mut connection, status, &body),
            Reply::Stream(first, poll) => self.serve_stream(connection, first, poll),
            Reply::Lost => {
                let _ = connection.shutdown(Shutdown::Both);
            }
        }
    }

    fn route(&self, state: &mut State, request: &Request) -> Reply {
        let (method, path) = (request.method.as_str(), request.path.as_str());
        let entry = (
            request.method.clone(),
            request.target.clone(),
            request.body.clone(),
        );
        state.requests.push(entry);
        let limited = self.script.too_many_requests_at == Some(state.requests.len())
            || self.script.too_many_requests_on.as_deref() == Some(path);
        if limited && !state.answered_too_many {
            state.answered_too_many = true;
            return error(429, "Too many requests");
        }
        let token = request.token.as_deref().unwrap_or_default();
        let may_play = match token {
            NO_SCOPE_TOKEN => false,
            token if self.tokens.iter().any(|known| known == token) => true,
            _ => return error(401, "No such token"),
        };
        let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
        let form = parse_form(&request.body);
        let handled = match (method, segments.as_slice()) {
            ("GET", ["api", "account"]) => Ok(Reply::Json(
                200,
                json!({"id": "tester", "username": "Tester"}),
            )),
            _ if !may_play => Ok(error(403, "Missing scope")),
            ("GET", ["api", "stream", "event"]) => Ok(self.open_events(state, token)),
            ("POST", ["api", "challenge", "ai"]) => self.challenge_ai(state, &form),
            ("POST", ["api", "broadcast", "round", id, "push"]) => {
                self.push(state, id, &request.body)
            }
            ("POST", ["api", "board", "seek"]) => self.seek(state, &form),
            ("POST", ["api", "challenge", id, "accept"]) => self.accept_challenge(state, id),
            ("POST", ["api", "challenge", username]) => self.challenge(state, username, &form),
            ("GET", ["api", "board", "game", "stream", id]) => Ok(self.open_game(state, id)),
            ("POST", ["api", "board", "game", id, "move", uci]) => {
                self.player_move(state, id, uci, &parse_form(&request.query))
            }
            ("POST", ["api", "board", "game", id, action @ ..]) => {
                self.game_action(state, id, action)
            }
            _ => Ok(error(404, "Not found.")),
        };
        handled.unwrap_or_else(|text| error(400, &text))
    }

    /// Opening closes the token's older stream; the new one first hears of every game in
    /// progress and every pending challenge, as the spec says.
    fn open_events(&self, state: &mut State, token: &str) -> Reply {
        state.event_streams_opened += 1;
        let serial = state.event_streams_opened;
        state.event_stream_of.insert(token.to_string(), serial);
        let challenges = state.challenges.iter().map(|(_, event)| event.clone());
        let games = state.games.iter().filter(|game| game.is_on());
        let first = challenges
            .chain(games.map(|game| game.event_line("gameStart")))
            .collect();
        let (token, mut next) = (token.to_string(), state.events.len());
        let silent = self.script.silence_first_event_stream && serial == 1;
        let poll = move |state: &mut State| -> (Vec<String>, Then) {
            if silent {
                return (Vec::new(), Then::Silence);
            }
            if state.event_stream_of.get(&token) != Some(&serial) {
                return (Vec::new(), Then::End);
            }
            let lines = state.events[next..].to_vec();
            next = state.events.len();
            (lines, Then::Wait)
        };
        Reply::Stream(first, Box::new(poll))
    }

    /// `gameFull`, then the game's lines; the stream ends with the game, or is cut once
    /// where the script says.
    fn open_game(&self, state: &mut State, id: &str) -> Reply {
        let Some(game) = state.games.iter().find(|game| game.id == id) else {
            return error(404, "Not found.");
        };
        let first = vec![game.full_json().to_string()];
        let (id, mut next) = (id.to_string(), game.lines.len());
        let cut_after = self.script.cut_stream_after_moves;
        let silence_after = self.script.silence_stream_after_moves;
        state.game_streams_opened += 1;
        let poll = move |state: &mut State| -> (Vec<String>, Then) {
            let Some(game) = state.games.iter().find(|game| game.id == id) else {
                return (Vec::new(), Then::End);
            };
            let new = &game.lines[next..];
            next = game.lines.len();
            let first_at = |after: Option<usize>, done: bool| {
                after
                    .filter(|_| !done)
                    .and_then(|at| new.iter().position(|(_, moves)| *moves >= at))
            };
            let cut_at = first_at(cut_after, state.stream_cut);
            let silent_at = first_at(silence_after, state.stream_silenced);
            let end = cut_at.or(silent_at).map_or(new.len(), |at| at + 1);
            let lines = new[..end].iter().map(|(line, _)| line.clone()).collect();
            if cut_at.is_some() {
                state.stream_cut = true;
                return (lines, Then::Cut);
            }
            if silent_at.is_some() {
                state.stream_silenced = true;
                return (lines, Then::Silence);
            }
            (lines, if game.is_on() { Then::Wait } else { Then::End })
        };
        Reply::Stream(first, Box::new(poll))
    }

    fn challenge_ai(&self, state: &mut State, form: &Form) -> Handled {
        let level = match field::<u8>(form, "level")? {
            Some(level @ 1..=8) => level,
            _ => return Err("level: an AI level from 1 to 8 is required".into()),
        };
        let mut terms = Terms::from_form(form, &self.script, false)?;
        if terms.estimate_s() < BLITZ_FROM_S {
            return Err("The Board API plays blitz or slower against the AI".into());
        }
        terms.rated = false;
        let game = Game::new(state.new_id(), "ai", Opponent::Ai(level), &terms);
        let body = json!({
            "id": game.id, "fullId": format!("{}t3st", game.id), "variant": standard(),
            "speed": game.speed(), "perf": game.speed(), "rated": false, "source": "ai",
            "createdAt": game.created_at, "fen": game.fen(), "turns": 0,
            "status": {"id": 20, "name": "started"}, "player": color_name(game.player),
        });
        state.start_game(game, &self.script);
        Ok(Reply::Json(201, body))
    }

    /// lichess pairs a seek when someone accepts it; the stand-in's opponent does at once,
    /// and the seek's stream closes with nothing in it.
    fn seek(&self, state: &mut State, form: &Form) -> Handled {
        let terms = Terms::from_form(form, &self.script, true)?;
        if terms.estimate_s() < RAPID_FROM_S {
            return Err("Board API seeks must be rapid, classical or correspondence".into());
        }
        let opponent = Opponent::User("Maia1".into());
        let game = Game::new(state.new_id(), "lobby", opponent, &terms);
        state.start_game(game, &self.script);
        Ok(Reply::Stream(Vec::new(), Box::new(seek_matched)))
    }

    /// A push to a broadcast round (`broadcast-round-broadcastRoundId-push.yaml`): up to 100
    /// games of PGN; each game's tags and moves, or what is wrong with it.
    fn push(&self, state: &mut State, id: &str, pgn: &str) -> Handled {
        if self.script.broadcast_round.as_deref() != Some(id) {
            return Ok(error(404, "Not found."));
        }
        if state.pushes_lost < self.script.lose_pushes {
            state.pushes_lost += 1;
            return Ok(Reply::Lost);
        }
        let games: Vec<Value> = pgn
            .split("\n\n[")
            .map(|game| match read_pgn_game(game) {
                Ok((tags, moves)) => json!({"tags": tags, "moves": moves}),
                Err((tags, error)) => json!({"tags": tags, "error": error}),
            })
            .collect();
        if games.len() > 100 {
            return Err("At most 100 games".into());
        }
        state.pushes.push(pgn.to_owned());
        Ok(Reply::Json(200, json!({"games": games})))
    }

    /// The challenged user accepts at once; the game's id is the challenge's.
    fn challenge(&self, state: &mut State, username: &str, form: &Form) -> Handled {
        let terms = Terms::from_form(form, &self.script, false)?;
        if terms.estimate_s() < BLITZ_FROM_S {
            return Err("The Board API plays blitz or slower in challenges".into());
        }
        let id = state.new_id();
        let challenge = challenge_json(&id, username, true, &terms);
        let event = json!({"type": "challenge", "challenge": challenge, "compat": compat()});
        state.events.push(event.to_string());
        let game = Game::new(id, "friend", Opponent::User(username.into()), &terms);
        state.start_game(game, &self.script);
        Ok(Reply::Json(200, challenge))
    }

    fn accept_challenge(&self, state: &mut State, id: &str) -> Handled {
        let Some(index) = state
            .challenges
            .iter()
            .position(|(pending, _)| pending == id)
        else {
            return Ok(error(404, "Not found."));
        };
        state.challenges.remove(index);
        let terms = Terms::from_script(&self.script);
        let game = Game::new(id.into(), "friend", Opponent::User("Maia1".into()), &terms);
        state.start_game(game, &self.script);
        ok()
    }

    fn player_move(&self, state: &mut State, id: &str, uci: &str, query: &Form) -> Handled {
        let State { games, events, .. } = state;
        let Some(game) = games.iter_mut().find(|game| game.id == id) else {
            return Ok(error(404, "Not found."));
        };
        if !game.is_on() || game.turn() != game.player {
            return Err("Not your turn, or game already over".into());
        }
        let opponent_offered_draw = game.draw_offer == Some(!game.player);
        if !game.play(uci) {
            return Err(format!("Illegal move: {uci}"));
        }
        game.player_moves.extend(game.moves.last().cloned());
        let offering_draw = query
            .get("offeringDraw")
            .is_some_and(|offer| offer == "true");
        if offering_draw && !opponent_offered_draw {
            game.draw_offer = Some(game.player);
        }
        record_move(game, events, &self.script);
        if offering_draw && opponent_offered_draw && game.is_on() {
            finish(game, events, "draw", None);
        }
        ok()
    }

    /// resign, abort, claim-victory, draw/{yes|no} and takeback/{yes|no}.
    fn game_action(&self, state: &mut State, id: &str, action: &[&str]) -> Handled {
        let State { games, events, .. } = state;
        let Some(game) = games.iter_mut().find(|game| game.id == id) else {
            return Ok(error(404, "Not found."));
        };
        if !game.is_on() {
            return Err("The game is already over".into());
        }
        let (player, opponent) = (game.player, !game.player);
        let reply_after = self.script.reply_after;
        let claim_ready = game
            .gone_since
            .is_some_and(|since| since.elapsed() >= CLAIM_WIN_AFTER);
        let answer = |word: &str| match word {
            "yes" | "true" => Ok(true),
            "no" | "false" => Ok(false),
            _ => Err(format!("{word}: answer yes or no")),
        };
        match action {
            ["resign"] => finish(game, events, "resign", Some(opponent)),
            // Only before both sides have moved, as on lichess.
            ["abort"] if game.moves.len() < 2 => finish(game, events, "aborted", None),
            ["abort"] => return Err("The game can no longer be aborted".into()),
            ["claim-victory"] if claim_ready => finish(game, events, "timeout", Some(player)),
            ["claim-victory"] => return Err("The opponent has not left the game".into()),
            ["draw", word] => match (answer(word)?, game.draw_offer == Some(opponent)) {
                (true, true) => finish(game, events, "draw", None),
                // The stand-in's opponent lets the player's offer stand until it moves.
                (true, false) => {
                    game.draw_offer = Some(player);
                    game.push_state();
                }
                (false, declined) => {
                    game.draw_offer = game.draw_offer.filter(|_| !declined);
                    game.push_state();
                }
            },
            ["takeback", word] => match (answer(word)?, game.takeback_offer == Some(opponent)) {
                // The opponent's proposal takes back its own last move.
                (true, true) => {
                    let plies = if game.turn() == player { 1 } else { 2 };
                    game.take_back(plies, reply_after);
                }
                // The stand-in's opponent declines at once if the script says so: the
                // offer shows, then is gone.
                (true, false) if game.has_moved(player) && self.script.decline_takebacks => {
                    game.takeback_offer = Some(player);
                    game.push_state();
                    game.takeback_offer = None;
                    game.push_state();
                }
                // The stand-in's opponent agrees to the player's at once.
                (true, false) if game.has_moved(player) => {
                    game.takeback_offer = Some(player);
                    game.push_state();
                    let plies = if game.turn() == opponent { 1 } else { 2 };
                    game.take_back(plies, reply_after);
                }
                (true, false) => return Err("There is no move to take back".into()),
                (false, declined) => {
                    game.takeback_offer = game.takeback_offer.filter(|_| !declined);
                    game.push_state();
                }
            },
            _ => return Ok(error(404, "Not found.")),
        }
        ok()
    }

    /// The opponent's thread: plays its scripted replies when due and flags a side whose
    /// time has run out.
    fn drive(&self) {
        let mut state = self.lock();
        while !self.stopped() {
            let now = Instant::now();
            let mut changed = false;
            let State { games, events, .. } = &mut *state;
            for game in games.iter_mut().filter(|game| game.is_on()) {
                let (wtime, btime) = game.times_now();
                let mover = game.turn();
                if game.clock_running() && mover.fold_wb(wtime, btime) == 0 {
                    *game.time_mut(mover) = 0;
                    finish(game, events, "outoftime", Some(!mover));
                    changed = true;
                } else if game.reply_due.is_some_and(|due| due <= now) {
                    game.reply_due = None;
                    changed = true;
                    // The opponent's next move is its (moves / 2)th, whichever its colour.
                    let Some(uci) = self.script.opponent_moves.get(game.moves.len() / 2) else {
                        continue;
                    };
                    if game.play(uci) {
                        record_move(game, events, &self.script);
                    } else {
                        eprintln!("lichess stand-in: the scripted {uci} is illegal here");
                    }
                }
            }
            if changed {
                self.changed.notify_all();
            }
            state = self.wait(state, Duration::from_millis(10));
        }
    }

    /// Serves a chunked ndjson stream: `first`, then whatever `poll` finds new, with a
    /// keep-alive line when there has been nothing to say for a while.
    fn serve_stream(&self, mut connection: TcpStream, first: Vec<String>, mut poll: Poll) {
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\n\
                    Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
        if connection.write_all(head.as_bytes()).is_err()
            || send_lines(&mut connection, &first).is_err()
        {
            return;
        }
        let keep_alive = self.script.keep_alive;
        let mut last_sent = Instant::now();
        let mut state = self.lock();
        loop {
            if self.stopped() {
                return;
            }
            let current: &mut State = &mut state;
            let (mut lines, then) = poll(current);
            if lines.is_empty() && matches!(then, Then::Wait) {
                let quiet = last_sent.elapsed();
                if quiet < keep_alive {
                    // Waiting under the lock: no change can slip by unseen.
                    state = self.wait(state, keep_alive - quiet);
                    continue;
                }
                lines.push(String::new());
            }
            drop(state);
            if send_lines(&mut connection, &lines).is_err() {
                return;
            }
            last_sent = Instant::now();
            match then {
                Then::Wait => {}
                Then::End => {
                    let _ = connection.write_all(b"0\r\n\r\n");
                    let _ = connection.shutdown(Shutdown::Write);
                    return;
                }
                // No last chunk: to the client, a dropped connection.
                Then::Cut => {
                    let _ = connection.shutdown(Shutdown::Both);
                    return;
                }
                Then::Silence => {
                    while !self.stopped() {
                        thread::sleep(Duration::from_millis(50));
                    }
                    return;
                }
            }
            state = self.lock();
        }
    }
}

/// Each line as one chunk, ending in "\n" (so an empty line is a keep-alive).
fn send_lines(connection: &mut TcpStream, lines: &[String]) -> std::io::Result<()> {
    for line in lines {
        let data = format!("{line}\n");
        connection.write_all(format!("{:x}\r\n{data}\r\n", data.len()).as_bytes())?;
    }
    connection.flush()
}

fn write_json(connection: &mut TcpStream, status: u16, body: &Value) {
    let reason = match status {
        200 => "OK",
        201 => "Created",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        429 => "Too Many Requests",
        _ => "Error",
    };
    let body = body.to_string();
    let length = body.len();
    let response = format!(
        "HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\n\
         Content-Length: {length}\r\nConnection: close\r\n\r\n{body}"
    );
    let _ = connection.write_all(response.as_bytes());
    let _ = connection.shutdown(Shutdown::Write);
}

/// The request, or `None` if it is malformed, too large, or has a chunked body.
fn read_request(connection: &TcpStream) -> Option<Request> {
    let mut reader = BufReader::new(connection);
    let mut head = Vec::new();
    let mut limited = (&mut reader).take(MAX_HEAD_BYTES);
    loop {
        let mut line = String::new();
        if limited.read_line(&mut line).ok()? == 0 {
            return None;
        }
        if line.trim_end().is_empty() {
            break;
        }
        head.push(line.trim_end().to_string());
    }
    let mut request_line = head.first()?.split_whitespace();
    let method = request_line.next()?.to_string();
    let target = request_line.next()?.to_string();
    if !request_line.next()?.starts_with("HTTP/1.") {
        return None;
    }
    let (mut length, mut token) = (0, None);
    for header in &head[1..] {
        let (name, value) = header.split_once(':')?;
        let value = value.trim();
        match name.trim().to_ascii_lowercase().as_str() {
            "content-length" => length = value.parse().ok()?,
            "authorization" => token = value.strip_prefix("Bearer ").map(str::to_string),
            "transfer-encoding" => return None,
            _ => {}
        }
    }
    if length > MAX_BODY_BYTES {
        return None;
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body).ok()?;
    let (path, query) = target.split_once('?').unwrap_or((target.as_str(), ""));
    Some(Request {
        method,
        path: path.to_string(),
        query: query.to_string(),
        token,
        body: String::from_utf8(body).ok()?,
        target,
    })
}

/// An `application/x-www-form-urlencoded` body or query.
fn parse_form(text: &str) -> Form {
    let pairs = text.split('&').filter(|pair| !pair.is_empty());
    pairs
        .map(|pair| pair.split_once('=').unwrap_or((pair, "")))
        .map(|(key, value)| (percent_decode(key), percent_decode(value)))
        .collect()
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let hex = bytes
            .get(at + 1..at + 3)
            .and_then(|hex| std::str::from_utf8(hex).ok());
        match (
            bytes[at],
            hex.and_then(|hex| u8::from_str_radix(hex, 16).ok()),
        ) {
            (b'%', Some(byte)) => {
                decoded.push(byte);
                at += 2;
            }
            (b'+', _) => decoded.push(b' '),
            (byte, _) => decoded.push(byte),
        }
        at += 1;
    }
    String::from_utf8_lossy(&decoded).into_owned()
}

/// A form field parsed: `None` when absent or empty, an error (a 400) when malformed.
fn field<T: std::str::FromStr>(form: &Form, key: &str) -> Result<Option<T>, String> {
    match form.get(key).filter(|value| !value.is_empty()) {
        Some(value) => value
            .parse()
            .map(Some)
            .map_err(|_| format!("{key}: {value} is invalid")),
        None => Ok(None),
    }
}
