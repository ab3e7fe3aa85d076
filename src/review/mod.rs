//! Reviewing a game with an engine: every position evaluated, the moves that lost winning
//! chances marked (`?!`, `?`, `??`) with the better move, each side's accuracy, and the
//! game written back as annotated PGN (`[%eval]` comments, glyphs, the better lines).

pub mod judgement;
mod reviewer;

use shakmaty::{Color, Move, Position};

pub use judgement::Judgement;
pub use reviewer::Reviewer;

use crate::engine::{AnalysisLine, Score};
use crate::game::GameRecord;
use crate::pgn::PlyNotes;

impl From<Score> for judgement::Score {
    fn from(score: Score) -> Self {
        match score {
            Score::Centipawns(cp) => Self::Cp(cp),
            Score::Mate { winner, moves } => Self::mate_by(winner, moves),
        }
    }
}

/// The evaluations of a game's positions (index 0: the start), as far as they are known.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameReview {
    /// Per position: not yet evaluated (`None`), or the engine's best line (`Some(None)`
    /// if it gave no score).
    lines: Vec<Option<Option<AnalysisLine>>>,
}

impl GameReview {
    /// A review of a game of `moves` moves, nothing evaluated yet.
    pub fn new(moves: usize) -> Self {
        Self {
            lines: vec![None; moves + 1],
        }
    }

    /// A review from scores already known (a PGN's `[%eval]` comments): `scores[ply]`.
    pub fn from_scores(scores: Vec<Option<Score>>) -> Self {
        let lines = scores
            .into_iter()
            .map(|score| {
                Some(score.map(|score| AnalysisLine {
                    rank: 1,
                    depth: 0,
                    score,
                    pv: Vec::new(),
                }))
            })
            .collect();
        Self { lines }
    }

    /// The engine's line where `ply` moves were played.
    pub(crate) fn set(&mut self, ply: usize, line: Option<AnalysisLine>) {
        if let Some(slot) = self.lines.get_mut(ply) {
            *slot = Some(line);
        }
    }

    /// How many positions the game has (moves + 1).
    pub fn positions(&self) -> usize {
        self.lines.len()
    }

    /// How many have been evaluated.
    pub fn evaluated(&self) -> usize {
        self.lines.iter().filter(|l| l.is_some()).count()
    }

    /// The evaluation (White's view) after `ply` moves, once known.
    pub fn score(&self, ply: usize) -> Option<Score> {
        Some(self.lines.get(ply)?.as_ref()?.as_ref()?.score)
    }

    /// Every position's evaluation, in order.
    pub fn scores(&self) -> Vec<Option<Score>> {
        (0..self.lines.len()).map(|ply| self.score(ply)).collect()
    }

    /// The engine's best line where `ply` moves were played, once known.
    pub fn best_line(&self, ply: usize) -> Option<&[Move]> {
        let line = self.lines.get(ply)?.as_ref()?.as_ref()?;
        (!line.pv.is_empty()).then_some(line.pv.as_slice())
    }

    /// How the `ply`th move (1 for the first) is judged: by the mover's loss of winning
    /// chances from the position before it to the one after; never the engine's own best
    /// move (a search that changes its mind is not the player's mistake).
    pub fn judgement(&self, game: &GameRecord, ply: usize) -> Option<Judgement> {
        let played = *game.moves.get(ply.checked_sub(1)?)?;
        if self.best_line(ply - 1).and_then(|line| line.first()) == Some(&played) {
            return None;
        }
        let mover = mover_at(game, ply - 1);
        judgement::judge(self.score(ply - 1)?.into(), self.score(ply)?.into(), mover)
    }

    /// Each move's judgement, in order (index: ply − 1).
    pub fn marks(&self, game: &GameRecord) -> Vec<Option<Judgement>> {
        (1..=game.moves.len())
            .map(|ply| self.judgement(game, ply))
            .collect()
    }

    /// At each marked move of `marks` (index: ply − 1), the engine's better move.
    pub fn better_moves(&self, marks: &[Option<Judgement>]) -> Vec<Option<Move>> {
        marks
            .iter()
            .enumerate()
            .map(|(index, mark)| {
                (*mark)?;
                self.best_line(index)?.first().copied()
            })
            .collect()
    }

    /// White's and Black's accuracy in percent, once every position is evaluated.
    pub fn accuracy(&self, game: &GameRecord) -> (Option<f64>, Option<f64>) {
        let scores: Option<Vec<judgement::Score>> = self
            .scores()
            .into_iter()
            .map(|s| s.map(Into::into))
            .collect();
        match scores {
            Some(scores) => judgement::game_accuracy(&scores, game.start.turn()),
            None => (None, None),
        }
    }

    /// What annotated PGN writes after each ply: the evaluation as `[%eval 0.34]` (a mated
    /// side's final position has none), the judgement's glyph and, at a marked move, the
    /// engine's better line as a variation.
    pub fn notes(&self, game: &GameRecord) -> Vec<PlyNotes> {
        (0..self.lines.len())
            .map(|ply| {
                let mut notes = PlyNotes::default();
                if ply == 0 {
                    return notes;
                }
                if let Some(score) = self.score(ply).filter(|s| !is_mated(*s)) {
                    notes.comments.push(format!("[%eval {}]", eval_text(score)));
                }
                if let Some(judged) = self.judgement(game, ply) {
                    notes.nag = Some(judged.nag());
                    if let Some(line) = self.best_line(ply - 1) {
                        notes.variation = line.to_vec();
                    }
                }
                notes
            })
            .collect()
    }
}

/// The side to move after `ply` moves of `game`.
fn mover_at(game: &GameRecord, ply: usize) -> Color {
    if ply.is_multiple_of(2) {
        game.start.turn()
    } else {
        !game.start.turn()
    }
}

fn is_mated(score: Score) -> bool {
    matches!(score, Score::Mate { moves: 0, .. })
}

/// `0.34`, `-1.20`, `#3` (White mates in 3), `#-3`: lichess's form, which python-chess
/// reads.
pub fn eval_text(score: Score) -> String {
    match score {
        Score::Centipawns(cp) => format!("{:.2}", f64::from(cp) / 100.0),
        Score::Mate {
            winner: Color::White,
            moves,
        } => format!("#{moves}"),
        Score::Mate {
            winner: Color::Black,
            moves,
        } => format!("#-{moves}"),
    }
}

/// The score of an `[%eval …]` comment, if the comment has one.
pub fn parse_eval(comment: &str) -> Option<Score> {
    let rest = comment.split("[%eval").nth(1)?;
    let value = rest.split(']').next()?.trim();
    // `0.34,14`: the depth after a comma.
    let value = value.split(',').next()?.trim();
    if let Some(mate) = value.strip_prefix('#') {
        let moves: i32 = mate.parse().ok()?;
        let winner = if mate.starts_with('-') {
            Color::Black
        } else {
            Color::White
        };
        return Some(Score::Mate {
            winner,
            moves: moves.unsigned_abs(),
        });
    }
    let pawns: f64 = value.parse().ok()?;
    if !pawns.is_finite() {
        return None;
    }
    // In i32's range after the clamp.
    let cp = (pawns * 100.0).round().clamp(-1e6, 1e6);
    Some(Score::Centipawns(cp as i32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluations_are_written_as_lichess_writes_them_and_read_back() {
        let cases = [
            (Score::Centipawns(34), "0.34"),
            (Score::Centipawns(-120), "-1.20"),
            (
                Score::Mate {
                    winner: Color::White,
                    moves: 3,
                },
                "#3",
            ),
            (
                Score::Mate {
                    winner: Color::Black,
                    moves: 3,
                },
                "#-3",
            ),
        ];
        for (score, text) in cases {
            assert_eq!(eval_text(score), text);
            assert_eq!(parse_eval(&format!("[%eval {text}]")), Some(score));
        }
        assert_eq!(
            parse_eval("[%clk 0:05:00] [%eval 1.5,20]"),
            Some(Score::Centipawns(150))
        );
        assert_eq!(parse_eval("[%eval x]"), None);
        assert_eq!(parse_eval("no eval"), None);
    }
}
