//! lichess's Board API over HTTP: one blocking request at a time with `ureq`, and its
//! ndjson streams read a line at a time (keep-alive empty lines skipped). The token goes
//! in the `Authorization` header only: it is never printed, logged or saved here.

use std::io::{BufRead, BufReader, Read};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use serde_json::Value;
use shakmaty::Color;

use crate::clock::TimeControl;

/// What went wrong with a request, in words for the player.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LichessError {
    #[error(
        "lichess refused the token: make one at lichess.org/account/oauth/token (scope \
         board:play to play, study:write to broadcast) and give it in LICHESS_TOKEN"
    )]
    BadToken,
    #[error(
        "the token lacks the scope (board:play to play, study:write to broadcast): make one \
         at lichess.org/account/oauth/token that has it"
    )]
    MissingScope,
    #[error("lichess asks to slow down (too many requests): waiting a minute")]
    RateLimited,
    #[error("lichess refused: {0}")]
    Refused(String),
    #[error("lichess cannot be reached: {0}")]
    Network(String),
}

/// How long a request (not a stream) may take, answer and all.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// A game's state as its stream tells it: always the whole game's moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameState {
    /// Every move of the game so far, in UCI.
    pub moves: Vec<String>,
    pub wtime_ms: u64,
    pub btime_ms: u64,
    /// "started", "mate", "resign", "draw", "aborted", "outoftime", …
    pub status: String,
    pub winner: Option<Color>,
    /// A side offering a draw, or asking to take back its last move.
    pub draw_offer: Option<Color>,
    pub takeback_offer: Option<Color>,
    /// The game's clock, initial time and increment in ms (a `gameFull` tells it).
    pub clock_ms: Option<(u64, u64)>,
}

impl GameState {
    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        !matches!(self.status.as_str(), "created" | "started" | "")
    }

    /// A `gameState` object (or a `gameFull`'s `state`).
    pub fn from_json(state: &Value) -> Option<Self> {
        let moves = state.get("moves")?.as_str()?;
        let side = |white: &str, black: &str| {
            if state.get(white).and_then(Value::as_bool) == Some(true) {
                Some(Color::White)
            } else if state.get(black).and_then(Value::as_bool) == Some(true) {
                Some(Color::Black)
            } else {
                None
            }
        };
        Some(Self {
            moves: moves.split_whitespace().map(str::to_owned).collect(),
            wtime_ms: state.get("wtime").and_then(Value::as_u64).unwrap_or(0),
            btime_ms: state.get("btime").and_then(Value::as_u64).unwrap_or(0),
            status: state
                .get("status")
                .and_then(Value::as_str)
                .unwrap_or("started")
                .to_owned(),
            winner: match state.get("winner").and_then(Value::as_str) {
                Some("white") => Some(Color::White),
                Some("black") => Some(Color::Black),
                _ => None,
            },
            draw_offer: side("wdraw", "bdraw"),
            takeback_offer: side("wtakeback", "btakeback"),
            clock_ms: None,
        })
    }
}

/// The Board API at `base`, with a personal token.
#[derive(Clone)]
pub struct Lichess {
    base: String,
    token: String,
    agent: ureq::Agent,
}

/// A stream's lines: `Ok(None)` for a keep-alive, `Err` when it broke off.
pub struct Lines {
    reader: BufReader<Box<dyn Read + Send>>,
}

impl Iterator for Lines {
    type Item = Result<Option<Value>, LichessError>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut line = String::new();
        match self.reader.read_line(&mut line) {
            Ok(0) => None,
            Ok(_) if line.trim().is_empty() => Some(Ok(None)),
            Ok(_) => Some(
                serde_json::from_str(line.trim())
                    .map(Some)
                    .map_err(|e| LichessError::Refused(format!("a line not understood: {e}"))),
            ),
            Err(e) => Some(Err(LichessError::Network(e.to_string()))),
        }
    }
}

impl Lines {
    /// The same lines, read on a thread of their own, with a silence longer than `limit`
    /// (no line, not even a keep-alive) as an error: a connection that died without closing
    /// would otherwise be waited on forever.
    pub fn or_silence_after(self, limit: Duration) -> std::io::Result<WatchedLines> {
        let (tell, lines) = mpsc::channel();
        // Left blocked in a read of a dead connection, it ends with the connection or at its
        // next line, once nobody listens.
        crate::background::WorkerThread::spawn("lichess stream", move || {
            for line in self {
                if tell.send(line).is_err() {
                    return;
                }
            }
        })?
        .detach();
        Ok(WatchedLines { lines, limit })
    }
}

/// Lines that end in an error after too long a silence.
pub struct WatchedLines {
    lines: Receiver<Result<Option<Value>, LichessError>>,
    limit: Duration,
}

impl Iterator for WatchedLines {
    type Item = Result<Option<Value>, LichessError>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.lines.recv_timeout(self.limit) {
            Ok(line) => Some(line),
            Err(RecvTimeoutError::Timeout) => Some(Err(LichessError::Network(format!(
                "no word from lichess for {} s",
                self.limit.as_secs_f64()
            )))),
            Err(RecvTimeoutError::Disconnected) => None,
        }
    }
}

impl Lichess {
    /// The API at `base` (`https://lichess.org`, or a stand-in's address).
    pub fn new(base: &str, token: &str) -> Self {
        let config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_connect(Some(Duration::from_secs(15)))
            .build();
        Self {
            base: base.trim_end_matches('/').to_owned(),
            token: token.to_owned(),
            agent: ureq::Agent::new_with_config(config),
        }
    }

    /// The game's address for people: `https://lichess.org/abcd1234`.
    pub fn game_url(&self, id: &str) -> String {
        format!("{}/{id}", self.base)
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    fn bearer(&self) -> String {
        format!("Bearer {}", self.token)
    }

    /// A response's status turned into an error, with lichess's own words.
    fn checked(
        response: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
    ) -> Result<ureq::http::Response<ureq::Body>, LichessError> {
        let response = response.map_err(|e| LichessError::Network(e.to_string()))?;
        let status = response.status().as_u16();
        if (200..300).contains(&status) {
            return Ok(response);
        }
        let text = response.into_body().read_to_string().unwrap_or_default();
        let said = serde_json::from_str::<Value>(&text)
            .ok()
            .and_then(|v| v.get("error").and_then(Value::as_str).map(str::to_owned))
            .unwrap_or(text);
        Err(match status {
            401 => LichessError::BadToken,
            403 if said.to_lowercase().contains("scope") => LichessError::MissingScope,
            429 => LichessError::RateLimited,
            // lichess down or restarting: to be tried again, not a refusal.
            500.. => LichessError::Network(format!("lichess answered {status}")),
            _ => LichessError::Refused(said),
        })
    }

    /// A GET; `whole` for a request (not a stream), which must be answered in time.
    fn get(
        &self,
        path: &str,
        whole: bool,
    ) -> Result<ureq::http::Response<ureq::Body>, LichessError> {
        let request = self
            .agent
            .get(&self.url(path))
            .header("Authorization", &self.bearer())
            .config()
            .timeout_global(whole.then_some(REQUEST_TIMEOUT))
            .build();
        Self::checked(request.call())
    }

    /// A POST of `form`; `whole` for one that must be answered in time (not a seek, which
    /// lasts until someone takes it).
    fn post(
        &self,
        path: &str,
        form: &[(&str, String)],
        whole: bool,
    ) -> Result<ureq::http::Response<ureq::Body>, LichessError> {
        let request = self
            .agent
            .post(&self.url(path))
            .header("Authorization", &self.bearer())
            .config()
            .timeout_global(whole.then_some(REQUEST_TIMEOUT))
            .build();
        let response = if form.is_empty() {
            request.send_empty()
        } else {
            request.send_form(form.iter().map(|(k, v)| (*k, v.as_str())))
        };
        Self::checked(response)
    }

    fn json(response: ureq::http::Response<ureq::Body>) -> Result<Value, LichessError> {
        let text = response
            .into_body()
            .read_to_string()
            .map_err(|e| LichessError::Network(e.to_string()))?;
        serde_json::from_str(&text).map_err(|e| LichessError::Refused(format!("{e}: {text}")))
    }

    /// The account's name: the token works.
    pub fn account(&self) -> Result<String, LichessError> {
        let account = Self::json(self.get("/api/account", true)?)?;
        Ok(account
            .get("username")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_owned())
    }

    fn clock_form(clock: &TimeControl) -> Vec<(&'static str, String)> {
        vec![
            ("clock.limit", (clock.base_ms / 1000).to_string()),
            ("clock.increment", (clock.bonus_ms / 1000).to_string()),
        ]
    }

    /// Challenges lichess's AI at `level`; returns the game's id (lichess answers 201).
    pub fn challenge_ai(&self, level: u8, clock: &TimeControl) -> Result<String, LichessError> {
        let mut form = Self::clock_form(clock);
        form.push(("level", level.to_string()));
        form.push(("color", "random".into()));
        let game = Self::json(self.post("/api/challenge/ai", &form, true)?)?;
        id_of(&game)
    }

    /// Challenges the player `name`; returns the challenge's id, the game's once accepted.
    pub fn challenge(
        &self,
        name: &str,
        clock: &TimeControl,
        rated: bool,
    ) -> Result<String, LichessError> {
        let mut form = Self::clock_form(clock);
        form.push(("rated", rated.to_string()));
        form.push(("color", "random".into()));
        let answer = Self::json(self.post(&format!("/api/challenge/{name}"), &form, true)?)?;
        answer
            .get("challenge")
            .map_or_else(|| id_of(&answer), id_of)
    }

    /// Accepts the challenge `id`.
    pub fn accept(&self, id: &str) -> Result<(), LichessError> {
        self.post(&format!("/api/challenge/{id}/accept"), &[], true)
            .map(drop)
    }

    /// Seeks a game (minutes and seconds per move); returns once it is taken, the game
    /// announced on the event stream.
    pub fn seek(&self, clock: &TimeControl, rated: bool) -> Result<(), LichessError> {
        let form = vec![
            ("time", (clock.base_ms / 60_000).to_string()),
            ("increment", (clock.bonus_ms / 1000).to_string()),
            ("rated", rated.to_string()),
        ];
        let response = self.post("/api/board/seek", &form, false)?;
        // The seek lasts while its response is open: read it to its end.
        let mut reader = response.into_body().into_reader();
        let mut sink = Vec::new();
        reader
            .read_to_end(&mut sink)
            .map(drop)
            .map_err(|e| LichessError::Network(e.to_string()))
    }

    /// The account's events: games starting and finishing, challenges.
    pub fn events(&self) -> Result<Lines, LichessError> {
        self.stream("/api/stream/event")
    }

    /// A game's stream: `gameFull`, then `gameState` and the rest.
    pub fn game_stream(&self, id: &str) -> Result<Lines, LichessError> {
        self.stream(&format!("/api/board/game/stream/{id}"))
    }

    fn stream(&self, path: &str) -> Result<Lines, LichessError> {
        let response = self.get(path, false)?;
        let reader: Box<dyn Read + Send> = Box::new(response.into_body().into_reader());
        Ok(Lines {
            reader: BufReader::new(reader),
        })
    }

    /// Pushes `pgn` to the broadcast round `round` (token scope `study:write`); returns
    /// the moves lichess holds of its game, or what it found wrong with it.
    pub fn push_broadcast(&self, round: &str, pgn: &str) -> Result<usize, LichessError> {
        let response = self
            .agent
            .post(&self.url(&format!("/api/broadcast/round/{round}/push")))
            .header("Authorization", &self.bearer())
            .header("Content-Type", "text/plain; charset=utf-8")
            .config()
            .timeout_global(Some(REQUEST_TIMEOUT))
            .build()
            .send(pgn);
        // An answer cut short is the network's fault: the push is tried again.
        let answer = Self::json(Self::checked(response)?).map_err(|e| match e {
            LichessError::Refused(words) => LichessError::Network(words),
            other => other,
        })?;
        let games = answer
            .get("games")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        if let Some(error) = games
            .iter()
            .find_map(|game| game.get("error").and_then(Value::as_str))
        {
            return Err(LichessError::Refused(error.to_owned()));
        }
        Ok(games
            .iter()
            .filter_map(|game| game.get("moves").and_then(Value::as_u64))
            .sum::<u64>() as usize)
    }

    /// Plays `uci` in game `id`.
    pub fn play(&self, id: &str, uci: &str) -> Result<(), LichessError> {
        self.post(&format!("/api/board/game/{id}/move/{uci}"), &[], true)
            .map(drop)
    }

    /// `resign`, `abort`, `claim-victory`, `draw/yes`, `draw/no`, `takeback/yes`, … in
    /// game `id`.
    pub fn act(&self, id: &str, action: &str) -> Result<(), LichessError> {
        self.post(&format!("/api/board/game/{id}/{action}"), &[], true)
            .map(drop)
    }
}

fn id_of(value: &Value) -> Result<String, LichessError> {
    value
        .get("id")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| LichessError::Refused(format!("no game in the answer: {value}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_state_reads_its_moves_times_and_offers() {
        let state: Value = serde_json::from_str(
            r#"{"type":"gameState","moves":"e2e4 c7c5","wtime":598000,"btime":600000,
                "winc":0,"binc":0,"status":"started","bdraw":true}"#,
        )
        .expect("JSON");
        let state = GameState::from_json(&state).expect("a state");
        assert_eq!(state.moves, ["e2e4", "c7c5"]);
        assert_eq!((state.wtime_ms, state.btime_ms), (598_000, 600_000));
        assert_eq!(state.draw_offer, Some(Color::Black));
        assert!(!state.is_over());
        let over: Value =
            serde_json::from_str(r#"{"moves":"","status":"resign","winner":"white"}"#)
                .expect("JSON");
        let over = GameState::from_json(&over).expect("a state");
        assert!(over.is_over());
        assert_eq!(over.winner, Some(Color::White));
    }
}
