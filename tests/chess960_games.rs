//! Chess960 games played by the simulator's hands (castling king first, rook first, both
//! in the hand) and read by the real recognizer, for several start numbers.

mod common;

use boardsight::chess960::start_position;
use boardsight::game::GameRecord;
use boardsight::reading::{Reading, TimedReading};
use boardsight::recognizer::{Config, Recognizer};
use boardsight::sim::{Action, HandStyle, PhysicalBoard, script_games};
use common::uci_moves;
use shakmaty::{Chess, Move, Position, Role};

/// A game of `plies` from `start` that castles whenever it may (both sides), and otherwise
/// plays quiet moves drawn by a seeded generator, clearing the back rank first and
/// keeping king and rooks at home.
fn castling_game(start: Chess, plies: usize, seed: u64) -> GameRecord {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut position = start.clone();
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = position.legal_moves();
        let castle = legal.iter().find(|m| m.is_castle()).copied();
        let back_rank = position.turn().backrank();
        let keeps_rights = |m: &&Move| !matches!(m.role(), Role::King | Role::Rook);
        let quiet: Vec<Move> = legal
            .iter()
            .filter(|m| !m.is_capture())
            .filter(keeps_rights)
            .copied()
            .collect();
        let developing: Vec<Move> = quiet
            .iter()
            .filter(|m| {
                m.from().is_some_and(|f| f.rank() == back_rank) && m.to().rank() != back_rank
            })
            .copied()
            .collect();
        let pool = [developing, quiet, legal.to_vec()]
            .into_iter()
            .find(|pool| !pool.is_empty())
            .unwrap_or_default();
        let Some(m) = castle.or_else(|| (!pool.is_empty()).then(|| pool[rng.usize(..pool.len())]))
        else {
            break;
        };
        position.play_unchecked(m);
        moves.push(m);
    }
    GameRecord { start, moves }
}

/// The readings a polled board gives while the hands carry out `script`.
fn readings_of(script: &[(u64, Action)]) -> Vec<TimedReading> {
    let mut board = PhysicalBoard::empty();
    let mut readings = Vec::new();
    for (t, action) in script {
        if let Action::Dropout(square, ms) = action {
            let occupancy = board.occupancy();
            readings.push(TimedReading {
                t: *t,
                reading: Reading::Occupancy(occupancy.without(*square)),
            });
            readings.push(TimedReading {
                t: t + ms,
                reading: Reading::Occupancy(occupancy),
            });
            continue;
        }
        board.apply(action);
        readings.push(TimedReading {
            t: *t,
            reading: Reading::Occupancy(board.occupancy()),
        });
    }
    readings
}

#[test]
fn chess960_games_with_castlings_are_read_move_for_move() {
    let mut castlings = 0;
    // King and rook swapping (3: f1/g1, 74: d1/c1), the king on the rook's square (12:
    // f1/h1, 458: d1/a1), the king staying (0, 249), crossing (959) and the standard 518.
    for (number, seed) in [
        (0, 1),
        (518, 2),
        (959, 3),
        (3, 4),
        (74, 5),
        (12, 6),
        (458, 7),
        (249, 8),
    ] {
        let start = start_position(number).expect("a start");
        let game = castling_game(start.clone(), 40, seed);
        castlings += game.moves.iter().filter(|m| m.is_castle()).count();
        for rook_first in [0.0, 1.0] {
            let style = HandStyle {
                seed,
                rook_first,
                ..HandStyle::default()
            };
            let script = script_games(std::slice::from_ref(&game), &style);
            let mut recognizer = Recognizer::new(Config {
                start: Some(start.clone()),
                ..Config::default()
            });
            let mut end = 0;
            for reading in readings_of(&script) {
                end = reading.t;
                recognizer.feed(reading);
            }
            recognizer.finish(end + 1000);
            let games = recognizer.games();
            assert_eq!(games.len(), 1, "start {number}");
            assert_eq!(games[0].start, start, "start {number}");
            assert_eq!(
                uci_moves(&games[0]),
                uci_moves(&game),
                "start {number}, rook first {rook_first}"
            );
        }
    }
    // Both sides castled in most games (once each at most), or the test would prove little.
    assert!(castlings >= 12, "only {castlings} castlings");
}
