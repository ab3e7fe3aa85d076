//! Moves judged and games scored as lichess does, from engine evaluations: a move is an
//! inaccuracy (`?!`), a mistake (`?`) or a blunder (`??`) by how much of the mover's
//! winning chances it gave away, and each side's accuracy in percent is lichess's.
//!
//! Everything here follows lichess's published code (lila, scalachess and scalalib, all
//! AGPL; only the formulas and constants are taken, written afresh):
//!
//! - [`winning_chances`]: lila's `ui/ceval/src/winningChances.ts` (`cpWinningChances`,
//!   `mateWinningChances`), the logistic curve fitted in lila pull request 11148.
//! - [`win_percent`]: scalachess's `WinPercent` (`core/src/main/scala/eval.scala`, formerly
//!   lila's `modules/analyse/src/main/WinPercent.scala`).
//! - [`judge`]: lila's `modules/tree/src/main/Advice.scala` (`CpAdvice`, `MateSequence`,
//!   `MateAdvice`; formerly `modules/analyse/src/main/Advice.scala`).
//! - [`move_accuracy`] and [`game_accuracy`]: lila's
//!   `modules/analyse/src/main/AccuracyPercent.scala` (`fromWinPercents`, `gameAccuracy`),
//!   with scalalib's `Maths.scala` (`standardDeviation`, `weightedMean`, `harmonicMean`).
//!
//! Scores are always from White's point of view here; "the mover's" values are turned
//! round for Black as lichess turns them.

use std::fmt;

use shakmaty::Color;

/// Centipawns beyond which lichess counts no more: `Eval.Cp.CEILING` in scalachess's
/// `eval.scala`, the `±1000` of `cpWinningChances` in `winningChances.ts`.
const CP_CEILING: i32 = 1000;

/// The slope of lichess's logistic curve: `MULTIPLIER` in `winningChances.ts` and in
/// scalachess's `WinPercent.winningChances`.
const MULTIPLIER: f64 = -0.00368208;

/// An evaluation of a position from White's point of view, as an engine gives it (turned
/// round from the side to move's point of view, which is how UCI engines say it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Hundredths of a pawn: positive is good for White.
    Cp(i32),
    /// A forced mate: White mates in `n` moves when `n > 0`, Black mates in `-n` when
    /// `n < 0`.
    ///
    /// `Mate(0)` cannot say who is mated: give a checkmated position as [`Score::Mated`]
    /// ([`Score::mate_by`] does). Where `Mate(0)` is given anyway it is read as lichess's
    /// code reads a mate of 0, which is neither positive nor negative: [`winning_chances`]
    /// and [`win_percent`] count it as White mated (as `Mated(White)`), and [`judge`]
    /// judges no move to or from it.
    Mate(i32),
    /// The game is over: this side is checkmated (what an engine says as `score mate 0`
    /// with this side to move). Counted as a mate in 0 for the other side.
    Mated(Color),
}

impl Score {
    /// `winner` mates in `moves` moves; 0 moves: the other side is checkmated already.
    pub fn mate_by(winner: Color, moves: u32) -> Score {
        if moves == 0 {
            return Score::Mated(winner.other());
        }
        let moves = i32::try_from(moves).unwrap_or(i32::MAX);
        Score::Mate(winner.fold_wb(moves, -moves))
    }
}

/// lila's `rawWinningChances`: `2 / (1 + exp(MULTIPLIER * cp)) - 1`, in −1…1 (scalachess
/// also bounds it to −1…1, which the curve never leaves).
fn raw_winning_chances(cp: f64) -> f64 {
    (2.0 / (1.0 + (MULTIPLIER * cp).exp()) - 1.0).clamp(-1.0, 1.0)
}

/// The centipawns `winningChances.ts` gives a mate in `moves`, for the side that mates:
/// `(21 - min(10, |mate|)) * 100`, so 2100 for a mate in 0, 2000 for a mate in 1 and 1100
/// for a mate in 10 or more, all beyond the ±1000 an evaluation is capped at.
fn mate_centipawns(moves: i32) -> i32 {
    (21 - moves.saturating_abs().min(10)) * 100
}

/// White's winning chances in −1 (Black wins) … 1 (White wins), lichess's model
/// (`winningChances.ts`): centipawns capped at ±1000 on the logistic curve
/// `2 / (1 + exp(-0.00368208 * cp)) - 1`; a mate in `n` as `(21 - min(10, |n|)) * 100`
/// centipawns for the side that mates, not capped, so any mate counts for more than any
/// evaluation and a shorter mate for more than a longer one (up to 10 moves).
pub fn winning_chances(score: Score) -> f64 {
    let cp = match score {
        Score::Cp(cp) => cp.clamp(-CP_CEILING, CP_CEILING),
        // `mate > 0 ? 1 : -1`: a mate of 0 counts against White, as lichess's does.
        Score::Mate(moves) if moves > 0 => mate_centipawns(moves),
        Score::Mate(moves) => -mate_centipawns(moves),
        Score::Mated(loser) => loser.fold_wb(-mate_centipawns(0), mate_centipawns(0)),
    };
    raw_winning_chances(f64::from(cp))
}

/// White's chance of winning in percent, 0…100, lichess's `WinPercent` (scalachess's
/// `eval.scala`): `50 + 50 * winning chances` of the centipawns capped at ±1000.
///
/// Unlike [`winning_chances`] (lila's client), lichess's `WinPercent` counts any mate as
/// the cap, ±1000 centipawns (`fromMate`), so a mate in 3 and a +10 evaluation are both
/// 97.54 % here; a mate of 0 counts against White (`Eval.Cp.CEILING.invertIf(!positive)`).
/// This is what accuracy is computed from.
pub fn win_percent(score: Score) -> f64 {
    let cp = match score {
        Score::Cp(cp) => cp.clamp(-CP_CEILING, CP_CEILING),
        Score::Mate(moves) if moves > 0 => CP_CEILING,
        Score::Mate(_) => -CP_CEILING,
        Score::Mated(loser) => loser.fold_wb(-CP_CEILING, CP_CEILING),
    };
    50.0 + 50.0 * raw_winning_chances(f64::from(cp))
}

/// What a move is judged to be, mildest first (so `Inaccuracy < Blunder`); lichess's
/// `Advice.Judgement`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Judgement {
    /// `?!`: a tenth of the winning chances (on −1…1) or more given away.
    Inaccuracy,
    /// `?`: a fifth or more.
    Mistake,
    /// `??`: three tenths or more, or a forced mate let in or lost.
    Blunder,
}

impl Judgement {
    /// The PGN numeric annotation glyph: `$6` (`?!`, questionable), `$2` (`?`, poor) or
    /// `$4` (`??`, very poor), as lichess's `Glyph.MoveAssessment` has them.
    pub fn nag(self) -> u8 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }

    /// The move's suffix: `?!`, `?` or `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    /// The name lichess gives it: "Inaccuracy", "Mistake" or "Blunder".
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "Inaccuracy",
            Judgement::Mistake => "Mistake",
            Judgement::Blunder => "Blunder",
        }
    }
}

/// The name: "Blunder".
impl fmt::Display for Judgement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// lila's `winningChanceJudgements`, the most severe first; the first whose drop is at most
/// the move's (`d <= delta`) is the move's judgement.
const JUDGEMENTS: [(f64, Judgement); 3] = [
    (0.3, Judgement::Blunder),
    (0.2, Judgement::Mistake),
    (0.1, Judgement::Inaccuracy),
];

/// The judgement of a move that gave away `drop` of the mover's winning chances (on the
/// −1…1 scale of [`winning_chances`]): a blunder from 0.3 on, a mistake from 0.2, an
/// inaccuracy from 0.1 (each bound included, as lichess's `CpAdvice` has it), none below.
pub fn judgement_for_drop(drop: f64) -> Option<Judgement> {
    JUDGEMENTS
        .iter()
        .find(|&&(least, _)| least <= drop)
        .map(|&(_, judgement)| judgement)
}

/// A score as the mover sees it, for lichess's `MateAdvice`.
#[derive(Clone, Copy)]
enum Pov {
    /// Centipawns, positive good for the mover.
    Cp(i32),
    /// A mate: 1 when the mover mates, -1 when the mover is mated, 0 for `Mate(0)`.
    Mate(i32),
}

fn pov(score: Score, mover: Color) -> Pov {
    let sign = mover.fold_wb(1, -1);
    match score {
        Score::Cp(cp) => Pov::Cp(cp.saturating_mul(sign)),
        Score::Mate(moves) => Pov::Mate(moves.signum() * sign),
        Score::Mated(loser) => Pov::Mate(if loser == mover { -1 } else { 1 }),
    }
}

/// The judgement of `mover`'s move from a position evaluated `before` to one evaluated
/// `after` (both from White's point of view), as lichess's `Advice` judges it:
///
/// - Both evaluations in centipawns (`CpAdvice`): by the drop of the mover's
///   [`winning_chances`] from before to after, through [`judgement_for_drop`].
/// - A mate against the mover where there was none (`MateCreated`): a blunder, unless the
///   mover was already worse by more than 7 pawns before (below −700 centipawns for the
///   mover: a mistake) or by 10 (below −999: an inaccuracy).
/// - The mover had a forced mate and now has none (`MateLost`): a blunder, unless the
///   mover is still better by more than 7 pawns after (above 700: a mistake) or by 10
///   (above 999: an inaccuracy). A mate for the mover turned into a mate against the mover
///   is a blunder.
/// - Anything else with a mate is not judged: a mate found, a mate kept however much
///   longer (lichess's `MateDelayed` is never given), a mate against the mover kept or
///   escaped.
///
/// One difference from lila's server today: its `CpAdvice` no longer caps the centipawns
/// at ±1000 before the curve (it did until the code moved to `modules/tree`); here they
/// are capped as [`winning_chances`] and lila's client cap them, so a fall from +50 pawns to +7
/// is not an inaccuracy. It only matters for evaluations beyond ten pawns.
pub fn judge(before: Score, after: Score, mover: Color) -> Option<Judgement> {
    if let (Score::Cp(_), Score::Cp(_)) = (before, after) {
        // `(current - prev)`, turned round for White: `info.color.fold(-d, d)`.
        let change = winning_chances(after) - winning_chances(before);
        return judgement_for_drop(mover.fold_wb(-change, change));
    }
    match (pov(before, mover), pov(after, mover)) {
        (Pov::Cp(before_cp), Pov::Mate(after_mate)) if after_mate < 0 => {
            Some(if before_cp < -999 {
                Judgement::Inaccuracy
            } else if before_cp < -700 {
                Judgement::Mistake
            } else {
                Judgement::Blunder
            })
        }
        (Pov::Mate(before_mate), Pov::Cp(after_cp)) if before_mate > 0 => Some(if after_cp > 999 {
            Judgement::Inaccuracy
        } else if after_cp > 700 {
            Judgement::Mistake
        } else {
            Judgement::Blunder
        }),
        // lila takes the centipawns of a mate as 0 (`povCpOrZero`): a blunder.
        (Pov::Mate(before_mate), Pov::Mate(after_mate)) if before_mate > 0 && after_mate < 0 => {
            Some(Judgement::Blunder)
        }
        _ => None,
    }
}

/// The accuracy in percent, 0…100, of a move that took the mover's [`win_percent`] from
/// `win_before` to `win_after` (both from the mover's point of view), lichess's
/// `AccuracyPercent.fromWinPercents`: 100 if the move lost nothing, else
/// `103.1668100711649 * exp(-0.04354415386753951 * drop) - 3.166924740191411`, plus 1
/// ("uncertainty bonus (due to imperfect analysis)"), bounded to 0…100. So a drop of up to
/// about a fifth of a percent still scores 100.
pub fn move_accuracy(win_before: f64, win_after: f64) -> f64 {
    if win_after >= win_before {
        return 100.0;
    }
    let win_diff = win_before - win_after;
    let raw = 103.1668100711649 * (-0.04354415386753951 * win_diff).exp() - 3.166924740191411;
    (raw + 1.0).clamp(0.0, 100.0)
}

/// White's and Black's accuracy in percent for a game whose positions are evaluated
/// `scores` (`scores[0]` the start, `scores[i]` after ply `i`), `start_color` moving first;
/// `None` for a side that made no move. lichess's `AccuracyPercent.gameAccuracy`, "a mean
/// of volatility-weighted mean and harmonic mean":
///
/// - Every position's [`win_percent`] (White's).
/// - A window size of a tenth of the plies, at least 2 and at most 8; each move is weighted
///   by the population standard deviation of the win percents in a window of that size
///   (bounded to 0.5…12): the windows are the positions' sliding windows, the first
///   repeated so that there is one per move (move `i` gets the window starting at
///   `i - (size - 2)`, or the first).
/// - Each move's [`move_accuracy`] from the mover's point of view.
/// - A side's accuracy is the mean of its moves' weighted mean and their harmonic mean
///   (each accuracy taken as at least 1 there).
///
/// One difference: lichess has no evaluation of the start position and takes +15
/// centipawns (`Cp.initial`); here `scores[0]` is used, so pass `Score::Cp(15)` for
/// lichess's numbers. lichess also turns mates into ±1000 centipawns first (`forceAsCp`),
/// which is what [`win_percent`] does with them.
pub fn game_accuracy(scores: &[Score], start_color: Color) -> (Option<f64>, Option<f64>) {
    let wins: Vec<f64> = scores.iter().map(|&score| win_percent(score)).collect();
    let plies = wins.len().saturating_sub(1);
    let window_size = (plies / 10).clamp(2, 8);
    // `List.fill(windowSize.atMost(size) - 2)(values take windowSize) ::: values.sliding(windowSize)`
    let first_size = window_size.min(wins.len());
    let mut windows: Vec<&[f64]> = vec![&wins[..first_size]; first_size.saturating_sub(2)];
    windows.extend(sliding(&wins, window_size));
    let weights = windows
        .iter()
        .map(|window| standard_deviation(window).clamp(0.5, 12.0));

    let mut white = Vec::new();
    let mut black = Vec::new();
    for (i, (pair, weight)) in wins.windows(2).zip(weights).enumerate() {
        let (prev, next) = (pair[0], pair[1]);
        // `Color.fromWhite((i % 2 == 0) == startColor.white)`
        if (i % 2 == 0) == start_color.is_white() {
            white.push((move_accuracy(prev, next), weight));
        } else {
            // Black's win percents are White's turned round: lichess swaps the two.
            black.push((move_accuracy(next, prev), weight));
        }
    }
    (side_accuracy(&white), side_accuracy(&black))
}

/// Scala's `sliding(size)`: every run of `size` consecutive values, or all the values as
/// one window if there are fewer (none if there are none).
fn sliding(values: &[f64], size: usize) -> Vec<&[f64]> {
    if values.is_empty() {
        Vec::new()
    } else if values.len() < size {
        vec![values]
    } else {
        values.windows(size).collect()
    }
}

/// scalalib's `Maths.standardDeviation` (the population's), 0 for no values (`orZero`).
fn standard_deviation(values: &[f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let count = values.len() as f64;
    let mean = values.iter().sum::<f64>() / count;
    let squares = values.iter().map(|x| (x - mean).powi(2)).sum::<f64>();
    (squares / count).sqrt()
}

/// A side's accuracy from its moves' (accuracy, weight): the mean of scalalib's
/// `Maths.weightedMean` and `Maths.harmonicMean` (which takes each value as at least 1).
fn side_accuracy(moves: &[(f64, f64)]) -> Option<f64> {
    if moves.is_empty() {
        return None;
    }
    let (sum, weights) = moves
        .iter()
        .fold((0.0, 0.0), |(sum, weights), &(accuracy, weight)| {
            (sum + accuracy * weight, weights + weight)
        });
    if weights <= 0.0 {
        return None;
    }
    let weighted = sum / weights;
    let reciprocals = moves
        .iter()
        .map(|&(accuracy, _)| 1.0 / accuracy.max(1.0))
        .sum::<f64>();
    let harmonic = moves.len() as f64 / reciprocals;
    Some((weighted + harmonic) / 2.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    use Color::{Black, White};
    use Score::{Cp, Mate, Mated};

    fn assert_close(actual: f64, expected: f64, tolerance: f64) {
        assert!(
            (actual - expected).abs() <= tolerance,
            "{actual} is not {expected} (±{tolerance})"
        );
    }

    #[test]
    fn winning_chances_are_lichess_curve_by_hand() {
        assert_close(winning_chances(Cp(0)), 0.0, 0.0);
        // exp(-0.00368208 * 100) = exp(-0.368208) = 0.69197324; 2 / 1.69197324 - 1 = 0.18205179
        assert_close(winning_chances(Cp(100)), 0.182_051_79, 1e-8);
        // 50 + 50 * 0.18205179 = 59.102590
        assert_close(win_percent(Cp(100)), 59.102_590, 1e-6);
        assert_close(win_percent(Cp(0)), 50.0, 0.0);
        // exp(-3.68208) = 0.0251706; 2 / 1.0251706 - 1 = 0.9508949
        assert_close(winning_chances(Cp(1000)), 0.950_894_9, 1e-7);
        // A mate in 1 is 2000 cp: exp(-7.36416) = 0.00063356; 2 / 1.00063356 - 1 = 0.9987337
        assert_close(winning_chances(Mate(1)), 0.998_733_7, 1e-7);
        // A mate in 10 or more is 1100 cp: 2 / (1 + exp(-4.050288)) - 1 = 0.9657616
        assert_close(winning_chances(Mate(10)), 0.965_761_6, 1e-7);
    }

    #[test]
    fn winning_chances_are_symmetric_monotonic_and_capped() {
        for cp in (-1500..=1500).step_by(7) {
            assert_close(winning_chances(Cp(cp)), -winning_chances(Cp(-cp)), 1e-12);
            assert_close(win_percent(Cp(cp)), 100.0 - win_percent(Cp(-cp)), 1e-10);
        }
        for cp in (-1000..1000).step_by(10) {
            assert!(
                winning_chances(Cp(cp + 10)) > winning_chances(Cp(cp)),
                "at {cp}"
            );
        }
        assert_eq!(winning_chances(Cp(1000)), winning_chances(Cp(1001)));
        assert_eq!(winning_chances(Cp(1000)), winning_chances(Cp(30_000)));
        assert_eq!(winning_chances(Cp(-1000)), winning_chances(Cp(i32::MIN)));
        assert_eq!(win_percent(Cp(-1000)), win_percent(Cp(-5000)));
        assert!(winning_chances(Cp(i32::MAX)) < 1.0);
    }

    #[test]
    fn mates_count_for_more_than_any_evaluation_and_shorter_for_more() {
        assert!(winning_chances(Mated(Black)) > winning_chances(Mate(1)));
        assert!(winning_chances(Mate(1)) > winning_chances(Mate(5)));
        assert!(winning_chances(Mate(5)) > winning_chances(Mate(10)));
        assert_eq!(winning_chances(Mate(10)), winning_chances(Mate(40)));
        assert!(winning_chances(Mate(40)) > winning_chances(Cp(5000)));
        assert_close(winning_chances(Mate(-3)), -winning_chances(Mate(3)), 1e-12);
        assert_close(
            winning_chances(Mated(White)),
            -winning_chances(Mated(Black)),
            1e-12,
        );
        assert_eq!(winning_chances(Mate(0)), winning_chances(Mated(White)));
        // lichess's WinPercent counts every mate as the ±1000 cap.
        assert_eq!(win_percent(Mate(3)), win_percent(Cp(1000)));
        assert_eq!(win_percent(Mate(-12)), win_percent(Cp(-1000)));
        assert_eq!(win_percent(Mated(White)), win_percent(Cp(-1000)));
        assert_eq!(win_percent(Mated(Black)), win_percent(Cp(1000)));
        assert_eq!(win_percent(Mate(0)), win_percent(Cp(-1000)));
    }

    #[test]
    fn mate_by_says_who_mates() {
        assert_eq!(Score::mate_by(White, 3), Mate(3));
        assert_eq!(Score::mate_by(Black, 2), Mate(-2));
        assert_eq!(Score::mate_by(White, 0), Mated(Black));
        assert_eq!(Score::mate_by(Black, 0), Mated(White));
    }

    #[test]
    fn judgements_have_lichess_glyphs_and_names() {
        assert_eq!(Judgement::Inaccuracy.nag(), 6);
        assert_eq!(Judgement::Mistake.nag(), 2);
        assert_eq!(Judgement::Blunder.nag(), 4);
        assert_eq!(Judgement::Inaccuracy.symbol(), "?!");
        assert_eq!(Judgement::Mistake.symbol(), "?");
        assert_eq!(Judgement::Blunder.symbol(), "??");
        assert_eq!(Judgement::Mistake.to_string(), "Mistake");
        assert!(Judgement::Inaccuracy < Judgement::Mistake);
        assert!(Judgement::Mistake < Judgement::Blunder);
    }

    #[test]
    fn drops_are_judged_at_and_around_the_thresholds() {
        assert_eq!(judgement_for_drop(0.0), None);
        assert_eq!(judgement_for_drop(-0.5), None);
        assert_eq!(judgement_for_drop(0.1 - 1e-12), None);
        assert_eq!(judgement_for_drop(0.1), Some(Judgement::Inaccuracy));
        assert_eq!(judgement_for_drop(0.2 - 1e-12), Some(Judgement::Inaccuracy));
        assert_eq!(judgement_for_drop(0.2), Some(Judgement::Mistake));
        assert_eq!(judgement_for_drop(0.3 - 1e-12), Some(Judgement::Mistake));
        assert_eq!(judgement_for_drop(0.3), Some(Judgement::Blunder));
        assert_eq!(judgement_for_drop(2.0), Some(Judgement::Blunder));
        assert_eq!(judgement_for_drop(f64::NAN), None);
    }

    #[test]
    fn centipawn_drops_around_the_thresholds() {
        // From 0, a drop of y is reached at cp = ln((1 - y) / (1 + y)) / 0.00368208:
        // y = 0.1 at -54.50 cp, 0.2 at -110.12, 0.3 at -168.12. So -54 drops 0.0991,
        // -55 drops 0.1009; -110 0.1998, -111 0.2016; -168 0.2998, -169 0.3015.
        let cases = [
            (54, None),
            (55, Some(Judgement::Inaccuracy)),
            (110, Some(Judgement::Inaccuracy)),
            (111, Some(Judgement::Mistake)),
            (168, Some(Judgement::Mistake)),
            (169, Some(Judgement::Blunder)),
        ];
        for (loss, judgement) in cases {
            assert_eq!(
                judge(Cp(0), Cp(-loss), White),
                judgement,
                "White to -{loss}"
            );
            assert_eq!(judge(Cp(0), Cp(loss), Black), judgement, "Black to +{loss}");
            // The same moves the other way round are gains.
            assert_eq!(judge(Cp(-loss), Cp(0), White), None);
            assert_eq!(judge(Cp(loss), Cp(0), Black), None);
        }
    }

    #[test]
    fn a_dropped_queen_is_a_blunder_and_an_even_move_is_nothing() {
        // wc(50) = 0.0918, wc(-850) = -0.9162: White gave away 1.008.
        assert_eq!(judge(Cp(50), Cp(-850), White), Some(Judgement::Blunder));
        assert_eq!(judge(Cp(-50), Cp(850), Black), Some(Judgement::Blunder));
        assert_eq!(judge(Cp(20), Cp(25), White), None);
        assert_eq!(judge(Cp(20), Cp(15), White), None);
        assert_eq!(judge(Cp(20), Cp(15), Black), None);
        assert_eq!(judge(Cp(20), Cp(-850), Black), None);
    }

    #[test]
    fn evaluations_beyond_ten_pawns_are_capped() {
        // Both are +10: nothing given away.
        assert_eq!(judge(Cp(3000), Cp(1000), White), None);
        assert_eq!(judge(Cp(-1000), Cp(-5000), White), None);
        // wc(1000) = 0.9509, wc(700) = 0.8588: 0.092, not an inaccuracy, from +50 as from +10.
        assert_eq!(judge(Cp(5000), Cp(700), White), None);
        // wc(300) = 0.5023: 0.449 given away.
        assert_eq!(judge(Cp(1500), Cp(300), White), Some(Judgement::Blunder));
    }

    #[test]
    fn a_mate_let_in_is_judged_by_how_lost_the_mover_already_was() {
        assert_eq!(judge(Cp(30), Mate(-3), White), Some(Judgement::Blunder));
        assert_eq!(judge(Cp(-30), Mate(4), Black), Some(Judgement::Blunder));
        assert_eq!(judge(Cp(-700), Mate(-3), White), Some(Judgement::Blunder));
        assert_eq!(judge(Cp(-701), Mate(-3), White), Some(Judgement::Mistake));
        assert_eq!(judge(Cp(-999), Mate(-3), White), Some(Judgement::Mistake));
        assert_eq!(
            judge(Cp(-1000), Mate(-3), White),
            Some(Judgement::Inaccuracy)
        );
        assert_eq!(judge(Cp(1200), Mate(5), Black), Some(Judgement::Inaccuracy));
    }

    #[test]
    fn a_mate_lost_is_judged_by_what_is_left() {
        assert_eq!(judge(Mate(2), Cp(300), White), Some(Judgement::Blunder));
        assert_eq!(judge(Mate(2), Cp(700), White), Some(Judgement::Blunder));
        assert_eq!(judge(Mate(2), Cp(701), White), Some(Judgement::Mistake));
        assert_eq!(judge(Mate(2), Cp(999), White), Some(Judgement::Mistake));
        assert_eq!(judge(Mate(2), Cp(1000), White), Some(Judgement::Inaccuracy));
        assert_eq!(judge(Mate(-2), Cp(-300), Black), Some(Judgement::Blunder));
        assert_eq!(
            judge(Mate(-2), Cp(-1500), Black),
            Some(Judgement::Inaccuracy)
        );
        // A mate for the mover turned into a mate against the mover.
        assert_eq!(judge(Mate(2), Mate(-1), White), Some(Judgement::Blunder));
        assert_eq!(judge(Mate(-6), Mate(2), Black), Some(Judgement::Blunder));
    }

    #[test]
    fn mates_found_kept_or_suffered_are_not_judged() {
        // Found.
        assert_eq!(judge(Cp(200), Mate(3), White), None);
        assert_eq!(judge(Cp(-200), Mate(-3), Black), None);
        // Delivered.
        assert_eq!(judge(Mate(1), Mated(Black), White), None);
        assert_eq!(judge(Mate(-1), Mated(White), Black), None);
        assert_eq!(judge(Cp(400), Mated(Black), White), None);
        // Kept, even slower (lichess's MateDelayed is never given).
        assert_eq!(judge(Mate(3), Mate(9), White), None);
        // Already lost, or escaped.
        assert_eq!(judge(Mate(-3), Mate(-1), White), None);
        assert_eq!(judge(Mate(-3), Cp(0), White), None);
        // A mate of 0 says nothing.
        assert_eq!(judge(Mate(2), Mate(0), White), None);
        assert_eq!(judge(Cp(0), Mate(0), White), None);
    }

    #[test]
    fn move_accuracy_is_lichess_curve_by_hand() {
        assert_eq!(move_accuracy(50.0, 50.0), 100.0);
        assert_eq!(move_accuracy(40.0, 60.0), 100.0);
        // A drop of 0.1: 103.16681 * exp(-0.0043544) - 3.16692 + 1 = 100.55, capped at 100.
        assert_eq!(move_accuracy(50.0, 49.9), 100.0);
        // A drop of 10: exp(-0.43544154) = 0.64697894;
        // 103.16681007 * 0.64697894 - 3.16692474 + 1 = 64.579828
        assert_close(move_accuracy(60.0, 50.0), 64.579_828, 1e-6);
        // A drop of 50: 103.16681 * exp(-2.1772077) - 2.16692 = 11.695 - 2.167 = 9.5278
        assert_close(move_accuracy(50.0, 0.0), 9.527_819, 1e-6);
        // Everything lost: 103.16681 * exp(-4.354415) - 2.16692 = 1.3257 - 2.1669 < 0.
        assert_eq!(move_accuracy(100.0, 0.0), 0.0);
        let worst = move_accuracy(win_percent(Cp(1000)), win_percent(Cp(-1000)));
        assert!((0.0..1.0).contains(&worst), "{worst}");
        let mut last = 100.0;
        for tenth in 1..1000 {
            let accuracy = move_accuracy(100.0, 100.0 - f64::from(tenth) / 10.0);
            assert!(accuracy <= last, "at a drop of {tenth} tenths");
            last = accuracy;
        }
    }

    #[test]
    fn a_game_without_moves_has_no_accuracy() {
        assert_eq!(game_accuracy(&[], White), (None, None));
        assert_eq!(game_accuracy(&[Cp(20)], White), (None, None));
        assert_eq!(game_accuracy(&[Cp(20), Cp(30)], White).1, None);
        assert_eq!(game_accuracy(&[Cp(20), Cp(30)], Black).0, None);
    }

    #[test]
    fn a_game_without_drops_is_perfect_for_both() {
        let even = vec![Cp(20); 31];
        assert_eq!(game_accuracy(&even, White), (Some(100.0), Some(100.0)));
        // White finds a mate and plays it; Black's moves cannot lose more: every mate, the
        // last position's too, is the same 97.54 % in win percent.
        let mated = [Cp(20), Mate(3), Mate(2), Mate(1), Mated(Black)];
        assert_eq!(game_accuracy(&mated, White), (Some(100.0), Some(100.0)));
    }

    #[test]
    fn a_blunder_lowers_only_the_blunderers_accuracy() {
        // Level at +0.20, then White's 6th move (ply 11) drops to -4.80 and it stays there.
        let scores = [vec![Cp(20); 11], vec![Cp(-480); 20]].concat();
        let (white, black) = game_accuracy(&scores, White);
        assert_eq!(black, Some(100.0));
        let white = white.expect("White moved");
        assert!(white < 90.0, "{white}");
        // A reimplementation of lila's gameAccuracy (Python, from AccuracyPercent.scala).
        assert_close(white, 62.645_604_561_145_96, 1e-9);
    }

    #[test]
    fn one_move_each_side_by_hand() {
        // win% of +1.00 is 59.10259; Black's move gave away 9.10259:
        // 103.16681 * exp(-0.0435442 * 9.10259) - 3.16692 + 1
        //   = 103.16681 * 0.6727614 - 2.16692 = 69.40664 - 2.16692 = 67.23972.
        // One move: weighted mean and harmonic mean are both the move's accuracy.
        let (white, black) = game_accuracy(&[Cp(0), Cp(0), Cp(100)], White);
        assert_eq!(white, Some(100.0));
        assert_close(black.expect("Black moved"), 67.239_721, 1e-6);
        // The same game with Black moving first: its one move is the same loss.
        let (white, black) = game_accuracy(&[Cp(0), Cp(100)], Black);
        assert_eq!(white, None);
        assert_close(black.expect("Black moved"), 67.239_721, 1e-6);
    }

    #[test]
    fn two_moves_weighted_by_volatility_by_hand() {
        // win%: 50, 40.89741, 40.89741, 24.88745, 24.88745 (5 positions, 4 plies: windows of
        // 2). White's moves: 50 -> 40.897 (accuracy 67.23972, weight the population std of
        // {50, 40.897}: 9.10259 / 2 = 4.55129) and 40.897 -> 24.887 (accuracy 49.21092,
        // weight 16.00996 / 2 = 8.00498). Black's: nothing lost, 100.
        // weighted = (67.23972 * 4.55129 + 49.21092 * 8.00498) / 12.55628 = 55.74585
        // harmonic = 2 / (1 / 67.23972 + 1 / 49.21092) = 56.82972
        // (55.74585 + 56.82972) / 2 = 56.28778
        let scores = [Cp(0), Cp(-100), Cp(-100), Cp(-300), Cp(-300)];
        let (white, black) = game_accuracy(&scores, White);
        assert_close(white.expect("White moved"), 56.287_783_464_095_52, 1e-9);
        assert_eq!(black, Some(100.0));
    }

    #[test]
    fn a_long_game_matches_a_reimplementation_of_lila() {
        // round(250 * sin(0.7 i)) + 8 i for ply i = 1..=40 after lichess's +15 start: 40
        // plies, windows of 4 (the first two moves both weighted by the first window). The
        // expected values are from a Python reimplementation of lila's gameAccuracy.
        let cps = [
            15, 169, 262, 240, 116, -48, -170, -190, -94, 76, 244, 335, 310, 184, 20, -100, -117,
            -19, 152, 319, 408, 379, 252, 88, -30, -44, 57, 229, 394, 480, 449, 320, 157, 40, 29,
            132, 305, 470, 553, 519, 388,
        ];
        let scores: Vec<Score> = cps.iter().map(|&cp| Cp(cp)).collect();
        let (white, black) = game_accuracy(&scores, White);
        assert_close(white.expect("White moved"), 84.975_686_750_889_86, 1e-9);
        assert_close(black.expect("Black moved"), 81.755_510_189_435_43, 1e-9);
    }

    #[test]
    fn mates_count_as_ten_pawns_in_accuracy() {
        // Black's move +0.30 -> +0.40 (win% 52.75876 -> 53.67544, 0.91668 lost) is 96.96297
        // accurate; the mates are both 97.54474 (+10): its second move is 100. Windows of 2:
        // {52.76, 53.68} and {97.54, 97.54} have std under 0.5, so both weigh 0.5:
        // weighted (96.96297 + 100) / 2 = 98.48148, harmonic 98.45807, mean 98.46978.
        let scores = [Cp(20), Cp(30), Cp(40), Mate(3), Mate(2)];
        let (white, black) = game_accuracy(&scores, White);
        assert_eq!(white, Some(100.0));
        assert_close(black.expect("Black moved"), 98.469_775_383_989_29, 1e-9);
    }
}
