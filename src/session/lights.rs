//! The board's own lights and beeper, following the session: the engine's move until it is
//! made, what to put back or clear on a board left illegal, the hint's move, and a short
//! flash and beep when a move is recognised. Lights go out when what lit them is over.

use std::time::{Duration, Instant};

use shakmaty::{Bitboard, Move};

use crate::protocol::{Beep, Signal};
use crate::recognizer::{BoardStatus, Event, EventKind};
use crate::snapshot::Snapshot;

/// How long a recognised move's squares stay lit.
pub const CONFIRM_FOR: Duration = Duration::from_millis(600);

/// What the board's lights show and what they were last set to.
#[derive(Default)]
pub struct BoardLights {
    /// The lights the board was last told (`None`: nothing told yet).
    told: Option<Bitboard>,
    /// The squares of the move just recognised, and until when they flash.
    confirming: Option<(Bitboard, Instant)>,
    /// Sounds to make with the next signals.
    beeps: Vec<Beep>,
}

/// The squares a move's pieces leave and land on (both of castling's pieces).
pub fn move_squares(mv: Move) -> Bitboard {
    match mv {
        Move::Castle { king, rook } => {
            let side = shakmaty::CastlingSide::from_queen_side(rook < king);
            let rank = king.rank();
            Bitboard::from_square(king)
                | rook
                | shakmaty::Square::from_coords(side.king_to_file(), rank)
                | shakmaty::Square::from_coords(side.rook_to_file(), rank)
        }
        _ => {
            Bitboard::from_square(mv.to())
                | mv.from().map_or(Bitboard::EMPTY, Bitboard::from_square)
        }
    }
}

impl BoardLights {
    /// A new board (after a reconnect, another source): lights are told anew.
    pub fn reset(&mut self) {
        *self = Self::default();
    }

    /// Events decided: a move is confirmed, a wrong move beeps.
    pub fn on_events(&mut self, events: &[Event], now: Instant) {
        for event in events {
            match &event.kind {
                EventKind::Move { mv, .. } | EventKind::Revised { new: mv, .. } => {
                    self.confirming = Some((move_squares(*mv), now + CONFIRM_FOR));
                    self.beeps.push(Beep::Confirm);
                }
                EventKind::WrongMove { .. } => self.beeps.push(Beep::Wrong),
                _ => {}
            }
        }
    }

    /// A board left illegal beeps once.
    pub fn on_lasting_illegal(&mut self) {
        self.beeps.push(Beep::Wrong);
    }

    /// What the lights show now: what to fix on a board left illegal; else the engine's
    /// move until it is made; else the move just recognised, briefly; else the hint.
    pub fn wanted(
        &self,
        snapshot: &Snapshot,
        lasting_illegal: Option<&BoardStatus>,
        hint: Option<Move>,
        now: Instant,
    ) -> Bitboard {
        if let Some(BoardStatus::Illegal { put_back, remove }) = lasting_illegal {
            return *put_back | *remove;
        }
        if let Some(mv) = snapshot.expected_move {
            return move_squares(mv);
        }
        if let Some((squares, until)) = self.confirming
            && now < until
        {
            return squares;
        }
        hint.map_or(Bitboard::EMPTY, move_squares)
    }

    /// The signals that bring the board to `wanted`: the sounds waiting, then the lights if
    /// they change.
    pub fn signals(&mut self, wanted: Bitboard) -> Vec<Signal> {
        let mut signals: Vec<Signal> = self.beeps.drain(..).map(Signal::Beep).collect();
        if self.told != Some(wanted) {
            self.told = Some(wanted);
            signals.push(Signal::Lights(wanted));
        }
        signals
    }

    /// The lights the board was last told.
    pub fn told(&self) -> Bitboard {
        self.told.unwrap_or(Bitboard::EMPTY)
    }

    /// How soon the lights change by themselves (a confirmation going out).
    pub fn due_in(&self, now: Instant) -> Option<Duration> {
        let (_, until) = self.confirming?;
        until.checked_duration_since(now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Square;

    #[test]
    fn a_move_lights_its_squares_and_castling_both_pieces() {
        let push = Move::Normal {
            role: shakmaty::Role::Pawn,
            from: Square::E2,
            capture: None,
            to: Square::E4,
            promotion: None,
        };
        assert_eq!(
            move_squares(push),
            Bitboard::from_square(Square::E2) | Square::E4
        );
        let castle = Move::Castle {
            king: Square::E8,
            rook: Square::A8,
        };
        assert_eq!(
            move_squares(castle),
            Bitboard::from_square(Square::E8) | Square::C8 | Square::A8 | Square::D8
        );
    }

    #[test]
    fn what_to_put_right_comes_first_then_the_engines_move_the_confirmation_the_hint() {
        let mut snapshot = Snapshot::of(&crate::recognizer::Recognizer::default(), 0);
        let now = Instant::now();
        let mv = |from, to| Move::Normal {
            role: shakmaty::Role::Knight,
            from,
            capture: None,
            to,
            promotion: None,
        };
        let hint = mv(Square::G1, Square::F3);
        let mut lights = BoardLights::default();
        assert_eq!(lights.wanted(&snapshot, None, None, now), Bitboard::EMPTY);
        assert_eq!(
            lights.wanted(&snapshot, None, Some(hint), now),
            move_squares(hint)
        );
        let made = mv(Square::B1, Square::C3);
        lights.on_events(
            &[Event {
                t: 0,
                kind: EventKind::Move {
                    ply: 1,
                    mv: made,
                    san: shakmaty::san::SanPlus::from_move(shakmaty::Chess::default(), made),
                },
            }],
            now,
        );
        assert_eq!(
            lights.wanted(&snapshot, None, Some(hint), now),
            move_squares(made)
        );
        assert_eq!(lights.due_in(now), Some(CONFIRM_FOR));
        let later = now + CONFIRM_FOR;
        assert_eq!(
            lights.wanted(&snapshot, None, Some(hint), later),
            move_squares(hint)
        );
        let reply = mv(Square::G8, Square::F6);
        snapshot.expected_move = Some(reply);
        assert_eq!(
            lights.wanted(&snapshot, None, Some(hint), now),
            move_squares(reply)
        );
        let illegal = BoardStatus::Illegal {
            put_back: Bitboard::from_square(Square::D2),
            remove: Bitboard::from_square(Square::D5),
        };
        assert_eq!(
            lights.wanted(&snapshot, Some(&illegal), Some(hint), now),
            Bitboard::from_square(Square::D2) | Square::D5
        );
        // The recognised move beeped once.
        assert_eq!(
            lights.signals(Bitboard::EMPTY),
            [Signal::Beep(Beep::Confirm), Signal::Lights(Bitboard::EMPTY)]
        );
    }

    #[test]
    fn lights_are_told_only_when_they_change() {
        let mut lights = BoardLights::default();
        let e4 = Bitboard::from_square(Square::E4);
        assert_eq!(lights.signals(e4), [Signal::Lights(e4)]);
        assert!(lights.signals(e4).is_empty());
        lights.on_lasting_illegal();
        assert_eq!(
            lights.signals(Bitboard::EMPTY),
            [Signal::Beep(Beep::Wrong), Signal::Lights(Bitboard::EMPTY)]
        );
    }
}
