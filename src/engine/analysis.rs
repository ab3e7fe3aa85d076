//! What an analysing engine says about a position: its best lines, each with a score from
//! White's point of view (for an evaluation bar) and the line as legal moves.

use std::fmt;

use shakmaty::uci::UciMove;
use shakmaty::{Chess, Color, Move, Position};
use shakmaty_uci::{UciInfo, UciInfoScore};

/// An evaluation, always from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Hundredths of a pawn: positive is good for White.
    Centipawns(i32),
    /// `winner` mates in `moves` moves (0: the side to move is mated already).
    Mate { winner: Color, moves: u32 },
}

impl Score {
    /// The engine's score, which is from the side to move's point of view, for White.
    fn from_uci(score: &UciInfoScore, turn: Color) -> Option<Self> {
        let for_white = |value: i32| turn.fold_wb(value, -value);
        if let Some(mate) = score.mate {
            let moves = u32::from(mate.unsigned_abs());
            // `mate 0` and `mate -N`: the side to move is the one mated.
            let winner = if mate > 0 { turn } else { !turn };
            return Some(Score::Mate { winner, moves });
        }
        score.cp.map(|cp| Score::Centipawns(for_white(cp)))
    }
}

/// "+0.35", "-1.20"; "#3" when White mates in 3, "#-3" when Black does.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Centipawns(cp) => write!(f, "{:+.2}", f64::from(cp) / 100.0),
            Score::Mate {
                winner: Color::White,
                moves,
            } => write!(f, "#{moves}"),
            Score::Mate {
                winner: Color::Black,
                moves,
            } => write!(f, "#-{moves}"),
        }
    }
}

/// One of the engine's best lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisLine {
    /// 1 for the best line, 2 for the second best (UCI's `multipv`), and so on.
    pub rank: u16,
    pub depth: u32,
    pub score: Score,
    /// The line from the position, as far as its moves are legal.
    pub pv: Vec<Move>,
}

impl AnalysisLine {
    /// The line an `info` says, if it has a score and a first legal move.
    pub(super) fn from_info(info: &UciInfo, position: &Chess) -> Option<Self> {
        let score = Score::from_uci(info.score.as_ref()?, position.turn())?;
        let pv = legal_line(position, &info.pv);
        if pv.is_empty() {
            return None;
        }
        Some(Self {
            rank: info.multi_pv.unwrap_or(1).max(1),
            depth: info.depth.map_or(0, u32::from),
            score,
            pv,
        })
    }

    /// The line of a position where the side to move has no move: mated, or stalemate.
    pub(super) fn of_final(position: &Chess) -> Self {
        let score = if position.is_checkmate() {
            Score::Mate {
                winner: !position.turn(),
                moves: 0,
            }
        } else {
            Score::Centipawns(0)
        };
        Self {
            rank: 1,
            depth: 0,
            score,
            pv: Vec::new(),
        }
    }
}

/// The moves of `pv` played from `position`, up to the first that is not legal.
fn legal_line(position: &Chess, pv: &[UciMove]) -> Vec<Move> {
    let mut position = position.clone();
    let mut line = Vec::with_capacity(pv.len());
    for uci in pv {
        let Ok(mv) = uci.to_move(&position) else {
            break;
        };
        position.play_unchecked(mv);
        line.push(mv);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty_uci::UciMessage;

    fn line(text: &str, position: &Chess) -> Option<AnalysisLine> {
        match text.parse() {
            Ok(UciMessage::Info(info)) => AnalysisLine::from_info(&info, position),
            other => panic!("{text}: {other:?}"),
        }
    }

    fn after(moves: &[&str]) -> Chess {
        crate::game::GameRecord::from_uci(Chess::default(), moves.iter().copied())
            .expect("legal moves")
            .final_position()
    }

    #[test]
    fn scores_are_turned_to_whites_point_of_view() {
        let black_to_move = after(&["e2e4"]);
        let seen = line(
            "info depth 12 multipv 2 score cp 35 pv e7e5 g1f3",
            &black_to_move,
        )
        .expect("a line");
        assert_eq!(seen.rank, 2);
        assert_eq!(seen.depth, 12);
        assert_eq!(seen.score, Score::Centipawns(-35));
        assert_eq!(seen.pv.len(), 2);
        let mated = line("info depth 3 score mate -2 pv e7e5", &black_to_move).expect("a line");
        assert_eq!(
            mated.score,
            Score::Mate {
                winner: Color::White,
                moves: 2
            }
        );
        assert_eq!(mated.score.to_string(), "#2");
        let white = line("info depth 3 score cp -120 pv d2d4", &Chess::default()).expect("line");
        assert_eq!(white.score.to_string(), "-1.20");
    }

    #[test]
    fn a_line_stops_at_its_first_illegal_move_and_needs_a_first_legal_one() {
        let seen = line(
            "info depth 5 score cp 10 pv e2e4 e7e5 e1e3 g8f6",
            &Chess::default(),
        )
        .expect("a line");
        assert_eq!(seen.pv.len(), 2);
        assert!(line("info depth 5 score cp 10 pv e2e5", &Chess::default()).is_none());
        assert!(line("info depth 5 nodes 100", &Chess::default()).is_none());
    }
}
