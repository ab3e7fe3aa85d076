//! The review part: one game reviewed by the engine in the background, its evaluations
//! kept for the app's graph and marked moves as they arrive.

use std::path::Path;

use crate::background::Wake;
use crate::engine::{Score, SearchLimit};
use crate::game::GameRecord;
use crate::review::{GameReview, Judgement, Reviewer, parse_eval};

/// A game under review or reviewed.
pub struct GameUnderReview {
    /// The game reviewed, as it was when the review began.
    pub game: GameRecord,
    reviewer: Option<Reviewer>,
    review: GameReview,
    /// Each move's judgement (index: ply − 1), worked out as evaluations arrive.
    marks: Vec<Option<Judgement>>,
    /// What stopped the review, if the engine failed.
    pub fault: Option<String>,
    /// The engine's name, once it said it.
    pub engine: Option<String>,
}

impl GameUnderReview {
    /// Starts reviewing `game` with the engine at `path`.
    pub fn start(path: &Path, game: GameRecord, limit: SearchLimit, wake: Wake) -> Self {
        let reviewer = Reviewer::start(path, &game, limit, wake);
        Self {
            marks: vec![None; game.moves.len()],
            review: GameReview::new(game.moves.len()),
            game,
            reviewer: Some(reviewer),
            fault: None,
            engine: None,
        }
    }

    /// The evaluations a loaded game already carries (a PGN's `[%eval]` comments): no
    /// engine is needed for the graph and the marks. The start, which PGN gives none,
    /// counts as +0.15 as lichess counts it.
    pub fn from_comments(game: GameRecord, comments: &[(usize, String)]) -> Option<Self> {
        let mut scores = vec![None; game.moves.len() + 1];
        for (ply, text) in comments {
            if let (Some(slot), Some(score)) = (scores.get_mut(*ply), parse_eval(text)) {
                *slot = Some(score);
            }
        }
        if scores.iter().all(Option::is_none) {
            return None;
        }
        if let Some(start) = scores.first_mut() {
            start.get_or_insert(Score::Centipawns(15));
        }
        let review = GameReview::from_scores(scores);
        Some(Self {
            marks: review.marks(&game),
            review,
            game,
            reviewer: None,
            fault: None,
            engine: Some("the file's evaluations".into()),
        })
    }

    /// Takes the engine's evaluations; the engine goes once the review is finished.
    pub(super) fn hear(&mut self) {
        let Some(reviewer) = &mut self.reviewer else {
            return;
        };
        if reviewer.poll() {
            self.review = reviewer.review().clone();
            self.marks = self.review.marks(&self.game);
        }
        if let Some(name) = reviewer.engine_name() {
            self.engine = Some(name.to_owned());
        }
        if reviewer.is_finished() {
            self.fault = reviewer.fault().map(ToString::to_string);
            self.reviewer = None;
        }
    }

    /// The evaluations so far.
    pub fn review(&self) -> &GameReview {
        &self.review
    }

    /// Each move's judgement (index: ply − 1), where it has one.
    pub fn marks(&self) -> &[Option<Judgement>] {
        &self.marks
    }

    /// Whether the engine is still at work.
    pub fn is_running(&self) -> bool {
        self.reviewer.is_some()
    }

    /// Positions evaluated, of all.
    pub fn progress(&self) -> (usize, usize) {
        (self.review.evaluated(), self.review.positions())
    }
}
