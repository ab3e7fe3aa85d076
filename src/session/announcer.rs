//! The session aloud: each event, the engine's move, a board left illegal, the clock's
//! last seconds and the game's end become announcements, once each, for the categories the
//! user chose; a speaker says them and the owner may print them (`listen --speak`).

use shakmaty::san::SanPlus;
use shakmaty::{Chess, Color, Move, Position};

use super::clock::ClockFace;
use crate::clock::FlagResult;
use crate::reading::Millis;
use crate::recognizer::{BoardStatus, Event, EventKind};
use crate::voice::words::{self, sentence, spoken_move};
use crate::voice::{Announcement, Speaker, SystemVoice, Topic, Voice, VoiceSettings};

/// Time left under which a clock's last seconds are said.
const LAST_SECONDS_MS: u64 = 10_000;
/// How long a move waits before it is said: a piece slid on over another square is
/// revised within this, and then only the square it came to rest on is said.
pub const MOVE_SETTLES_MS: Millis = 300;

/// Who is playing whom, as the announcer needs it.
#[derive(Clone, Copy, Debug)]
pub struct Seats<'a> {
    /// The engine's side and name, if one plays.
    pub engine: Option<(Color, &'a str)>,
    /// The side the player sits at (without an engine, the other side is the opponent).
    pub player: Color,
}

impl Seats<'_> {
    /// Whether `mover`'s moves are the player's own.
    fn is_mine(&self, mover: Color) -> bool {
        match self.engine {
            Some((side, _)) => side != mover,
            None => mover == self.player,
        }
    }
}

#[derive(Default)]
pub struct Announcer {
    settings: VoiceSettings,
    speaker: Option<Speaker>,
    /// Why nothing is heard although the voice is on.
    problem: Option<String>,
    /// The voices the system's speech offers.
    voices: Vec<String>,
    /// Announcements not yet taken by the owner (kept only when asked for).
    told: Option<Vec<Announcement>>,
    /// The illegal state last said: not again until it changes.
    said_illegal: Option<BoardStatus>,
    /// The engine's move last given and its words, to repeat on request.
    instruction: Option<(Move, String)>,
    /// Whose last seconds were said (again only once the clock is above them).
    said_last_seconds: [bool; 2],
    /// The game length whose end was said.
    said_end: Option<usize>,
    /// The latest move, not said yet: its ply, whether it is the player's, its words and
    /// the board's time it was made at.
    settling: Option<Settling>,
}

struct Settling {
    ply: usize,
    wanted: bool,
    words: String,
    t: Millis,
}

impl Announcer {
    /// Speaks with `settings` from now on, through the system's voice; says why if there
    /// is none.
    pub fn configure(&mut self, settings: VoiceSettings) {
        if settings.enabled && self.speaker.is_none() && self.problem.is_none() {
            match SystemVoice::find() {
                Ok(voice) => {
                    self.voices = voice.voices();
                    self.speak_with(Box::new(voice));
                }
                Err(problem) => self.problem = Some(problem),
            }
        }
        if let Some(speaker) = &self.speaker {
            speaker.configure(&settings.voice, settings.words_per_minute);
        }
        self.settings = settings;
    }

    /// Speaks through `voice` (another program, a file, a test's recorder).
    pub fn speak_with(&mut self, voice: Box<dyn Voice>) {
        match Speaker::start(voice) {
            Ok(speaker) => {
                speaker.configure(&self.settings.voice, self.settings.words_per_minute);
                self.speaker = Some(speaker);
                self.problem = None;
            }
            Err(e) => self.problem = Some(format!("Speech could not start: {e}")),
        }
    }

    /// The voices the system's speech offers (none known before speech is first on).
    pub fn voices(&self) -> &[String] {
        &self.voices
    }

    pub fn settings(&self) -> &VoiceSettings {
        &self.settings
    }

    /// Why nothing is heard although the voice is on.
    pub fn problem(&self) -> Option<&str> {
        self.problem.as_deref().filter(|_| self.settings.enabled)
    }

    /// Keeps announcements for `take_told`.
    pub fn keep_told(&mut self) {
        self.told.get_or_insert_with(Vec::new);
    }

    /// The announcements made since the last call, in order.
    pub fn take_told(&mut self) -> Vec<Announcement> {
        self.told.as_mut().map(std::mem::take).unwrap_or_default()
    }

    fn announce(&mut self, wanted: bool, announcement: Announcement) {
        if !(self.settings.enabled && wanted) {
            return;
        }
        if let Some(speaker) = &self.speaker {
            speaker.say(announcement.clone());
        }
        if let Some(told) = &mut self.told {
            told.push(announcement);
        }
    }

    /// Events decided, with the positions of the game before them and who plays it.
    pub fn on_events(
        &mut self,
        events: &[Event],
        positions: &[Chess],
        position_now: &Chess,
        seats: Seats,
    ) {
        let before = |ply: usize| ply.checked_sub(1).and_then(|i| positions.get(i));
        for event in events {
            // What happened after a move is said after it.
            if !matches!(
                event.kind,
                EventKind::Move { .. }
                    | EventKind::Revised { .. }
                    | EventKind::Waiting { .. }
                    | EventKind::Ambiguous { .. }
            ) {
                self.say_settled();
            }
            match &event.kind {
                EventKind::NewGame { .. } => {
                    self.said_end = None;
                    self.said_last_seconds = [false; 2];
                    self.instruction = None;
                    self.announce(
                        self.settings.my_moves,
                        Announcement::new(Topic::Move, "New game."),
                    );
                }
                EventKind::Move { ply, mv, san } => {
                    self.say_settled();
                    let mover = before(*ply).map_or(position_now.turn(), Position::turn);
                    // The engine's move was said as it was given: its making is not news.
                    if self
                        .instruction
                        .as_ref()
                        .is_some_and(|(given, _)| given == mv)
                    {
                        self.instruction = None;
                        continue;
                    }
                    self.settling = Some(Settling {
                        ply: *ply,
                        wanted: self.wants_moves_of(mover, seats),
                        words: format!("{}.", sentence(&spoken_move(san, *mv))),
                        t: event.t,
                    });
                }
                EventKind::Revised { ply, new, san, .. } => {
                    // Not said yet: the move is said as it came to rest.
                    if let Some(settling) = self.settling.as_mut().filter(|s| s.ply == *ply) {
                        settling.words = format!("{}.", sentence(&spoken_move(san, *new)));
                        settling.t = event.t;
                        continue;
                    }
                    self.say_settled();
                    let mover = before(*ply).map_or(position_now.turn(), Position::turn);
                    let wanted = self.wants_moves_of(mover, seats);
                    self.announce(
                        wanted,
                        Announcement::new(Topic::Move, words::revised(san, *new)),
                    );
                }
                EventKind::TakenBack { ply, mv } => {
                    let spoken =
                        before(*ply).map(|p| spoken_move(&SanPlus::from_move(p.clone(), *mv), *mv));
                    let words = words::taken_back(spoken);
                    let wanted = self.settings.my_moves || self.settings.opponent_moves;
                    self.announce(wanted, Announcement::new(Topic::Move, words));
                }
                EventKind::WrongMove { expected, .. } => {
                    let name = seats.engine.map_or("The engine", |(_, name)| name);
                    let words = words::wrong_move(name, position_now, *expected);
                    self.announce(
                        self.settings.warnings,
                        Announcement::new(Topic::Warning, words),
                    );
                }
                EventKind::DeadSensor { .. } | EventKind::Unseen { .. } => {
                    if let Some(finding) = event.kind.finding() {
                        let words = format!("{finding}.");
                        self.announce(
                            self.settings.warnings,
                            Announcement::new(Topic::Warning, words),
                        );
                    }
                }
                EventKind::Waiting { .. }
                | EventKind::Ambiguous { .. }
                | EventKind::Illegal { .. }
                | EventKind::Recovered
                | EventKind::Orientation { .. }
                | EventKind::Seen { .. } => {}
            }
        }
    }

    /// Says the move waiting to settle, now.
    fn say_settled(&mut self) {
        if let Some(settling) = self.settling.take() {
            self.announce(
                settling.wanted,
                Announcement::new(Topic::Move, settling.words),
            );
        }
    }

    /// The board's time is `now`: a move that has settled is said.
    pub fn tick(&mut self, now: Millis) {
        if self
            .settling
            .as_ref()
            .is_some_and(|s| now >= s.t + MOVE_SETTLES_MS)
        {
            self.say_settled();
        }
    }

    /// In how many of the board's milliseconds a move waiting will be said.
    pub fn due_in(&self, now: Millis) -> Option<Millis> {
        let settling = self.settling.as_ref()?;
        Some((settling.t + MOVE_SETTLES_MS).saturating_sub(now))
    }

    fn wants_moves_of(&self, mover: Color, seats: Seats) -> bool {
        if seats.is_mine(mover) {
            self.settings.my_moves
        } else {
            self.settings.opponent_moves
        }
    }

    /// The engine gives `mv` in `position`: the player is told how to make it.
    pub fn on_engine_move(&mut self, name: &str, position: &Chess, mv: Move) {
        self.say_settled();
        let words = words::engine_move(name, position, mv);
        self.instruction = Some((mv, words.clone()));
        self.announce(
            self.settings.opponent_moves,
            Announcement::new(Topic::EngineMove, words),
        );
    }

    /// Says the engine's move again, while it is still to be made.
    pub fn repeat_engine_move(&mut self, awaited: Option<Move>) {
        let Some((mv, words)) = self.instruction.clone() else {
            return;
        };
        if awaited == Some(mv) {
            self.announce(
                self.settings.enabled,
                Announcement::new(Topic::EngineMove, words),
            );
        }
    }

    /// The board has stayed illegal (`lasting`) or not; says a lasting state once.
    pub fn on_board(&mut self, lasting: Option<&BoardStatus>, position: &Chess) {
        let Some(status) = lasting else {
            self.said_illegal = None;
            return;
        };
        if self.said_illegal.as_ref() == Some(status) {
            return;
        }
        self.said_illegal = Some(status.clone());
        self.say_settled();
        if let BoardStatus::Illegal { put_back, remove } = status {
            let parts = words::illegal_parts(*put_back, *remove, position);
            let words = format!("{}.", parts.join(". "));
            self.announce(
                self.settings.warnings,
                Announcement::new(Topic::Warning, words),
            );
        }
    }

    /// The game's last position, `plies` long: its end is said once.
    pub fn on_position(&mut self, position: &Chess, plies: usize) {
        if self.said_end == Some(plies) {
            return;
        }
        if let Some(words) = words::game_end(position) {
            self.say_settled();
            self.said_end = Some(plies);
            let wanted = self.settings.my_moves || self.settings.opponent_moves;
            self.announce(wanted, Announcement::new(Topic::End, words));
        }
    }

    /// The clocks as shown: a side (not the engine's) down to its last seconds is told.
    pub fn on_clock(&mut self, face: ClockFace, seats: Seats) {
        for color in [Color::White, Color::Black] {
            let left = color.fold_wb(face.white_ms, face.black_ms);
            let index = usize::from(color == Color::Black);
            if left > LAST_SECONDS_MS {
                self.said_last_seconds[index] = false;
                continue;
            }
            let engine = seats.engine.is_some_and(|(side, _)| side == color);
            if face.running == Some(color) && !engine && !self.said_last_seconds[index] && left > 0
            {
                self.said_last_seconds[index] = true;
                self.announce(
                    self.settings.warnings,
                    Announcement::new(Topic::Clock, words::last_seconds(color)),
                );
            }
        }
    }

    /// A flag fell.
    pub fn on_flag(&mut self, color: Color, result: FlagResult) {
        self.say_settled();
        self.announce(
            self.settings.warnings,
            Announcement::new(Topic::Clock, words::flag(color, result)),
        );
    }
}
