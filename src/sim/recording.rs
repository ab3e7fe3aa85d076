//! What a host records while the hands play a script: the readings a scanning board or a
//! polled board delivers, and the truth a perfect recognizer would report. Pure: no clock,
//! no port.

use shakmaty::{Bitboard, Move, Role, Square};

use super::board::PhysicalBoard;
use super::hands::{Action, HandCounts, HandStyle, script_session};
use crate::game::GameRecord;
use crate::reading::{Reading, TimedReading};
use crate::recognizer::event::uci;

/// How the board delivers what its sensors read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A scan every 20 ms; an occupancy frame whenever a scan differs from the last one
    /// (like LiBoard). No events; a change shorter than a scan may be missed.
    Change,
    /// Read every 250 ms: the lift/place events since the last read, then the occupancy
    /// (like the DGT Centaur). A read that has neither an event nor a change is left out.
    Poll,
}

impl Mode {
    pub const ALL: [Mode; 2] = [Mode::Change, Mode::Poll];

    /// Milliseconds between two scans or polls.
    pub fn period_ms(self) -> u64 {
        match self {
            Mode::Change => 20,
            Mode::Poll => 250,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Mode::Change => "change",
            Mode::Poll => "poll",
        }
    }
}

/// How the board's sensors are wired and whether one is broken.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sensors {
    /// The board is set up turned round: real square s reads as sensor square 63 - s.
    pub turned: bool,
    /// One sensor, named by the square it reports, broken for the whole session: always
    /// reading occupied (`true`) or empty (`false`), and sending no events.
    pub dead: Option<(Square, bool)>,
}

impl Sensors {
    /// The square a sensor reports for the real square `square`.
    fn wired(self, square: Square) -> Square {
        if self.turned {
            square.rotate_180()
        } else {
            square
        }
    }

    /// What the sensors report for the real occupancy.
    fn read(self, occupancy: Bitboard) -> Bitboard {
        let mut read = if self.turned {
            occupancy.rotate_180()
        } else {
            occupancy
        };
        if let Some((square, stuck_occupied)) = self.dead {
            read.set(square, stuck_occupied);
        }
        read
    }

    /// The event a sensor sends for a real lift or place, if it works.
    fn event(self, reading: Reading) -> Option<Reading> {
        let (square, wired) = match reading {
            Reading::Lift(s) => (s, Reading::Lift(self.wired(s))),
            Reading::Place(s) => (s, Reading::Place(self.wired(s))),
            other => return Some(other),
        };
        match self.dead {
            Some((dead, _)) if dead == self.wired(square) => None,
            _ => Some(wired),
        }
    }
}

/// How long the board is read after the script's last action.
const TAIL_MS: u64 = 2_000;
/// An underpromotion is chosen by a click this long after the piece lands.
const PROMOTE_AFTER_MS: u64 = 300;

/// The readings a host records while `script` is played on a board read in `mode`, from
/// the first read at or after the first action until a while after the last, through
/// `sensors`.
pub fn record(script: &[(u64, Action)], mode: Mode, sensors: Sensors) -> Vec<TimedReading> {
    record_every(script, mode, mode.period_ms(), sensors)
}

/// The same, the board read every `period` ms (a Centaur polled faster, a game played
/// faster than the hands' script).
pub fn record_every(
    script: &[(u64, Action)],
    mode: Mode,
    period: u64,
    sensors: Sensors,
) -> Vec<TimedReading> {
    let (Some((first, _)), Some((last, _))) = (script.first(), script.last()) else {
        return Vec::new();
    };
    let mut board = PhysicalBoard::empty();
    let mut readings = Vec::new();
    let mut next = 0;
    let mut events = Vec::new();
    let mut dropouts: Vec<(Square, u64, u64)> = Vec::new();
    let mut flips = Bitboard::EMPTY;
    let mut last_sent: Option<Bitboard> = None;
    let mut tick = first.div_ceil(period) * period;
    while tick <= last + TAIL_MS {
        while let Some((at, action)) = script.get(next).filter(|(at, _)| *at <= tick) {
            next += 1;
            match action {
                Action::Dropout(square, ms) => dropouts.push((*square, *at, at + ms)),
                Action::Emi(square) => flips.toggle(*square),
                _ => {
                    for (square, piece) in board.apply(action) {
                        events.extend(sensors.event(match piece {
                            Some(_) => Reading::Place(square),
                            None => Reading::Lift(square),
                        }));
                    }
                }
            }
        }
        dropouts.retain(|&(_, _, until)| until > tick);
        let mut occupancy = board.occupancy();
        for &(square, from, _) in &dropouts {
            if from <= tick {
                occupancy.discard(square);
            }
        }
        occupancy ^= flips;
        flips = Bitboard::EMPTY;
        let occupancy = sensors.read(occupancy);
        let first_reading = last_sent.is_none();
        let news = match mode {
            Mode::Change => last_sent != Some(occupancy),
            Mode::Poll => last_sent != Some(occupancy) || !events.is_empty(),
        };
        if news {
            // The board as first found is a reading, not a set of events.
            if mode == Mode::Poll && !first_reading {
                readings.extend(events.iter().map(|&e| TimedReading::new(tick, e)));
            }
            readings.push(TimedReading::new(tick, Reading::Occupancy(occupancy)));
            last_sent = Some(occupancy);
        }
        events.clear();
        tick += period;
    }
    readings
}

/// A session with known answers: what the host recorded and what was played.
#[derive(Clone, Debug)]
pub struct Recording {
    pub mode: Mode,
    pub sensors: Sensors,
    pub script: Vec<(u64, Action)>,
    pub readings: Vec<TimedReading>,
    /// Every game's moves in UCI (a Chess960 castling as king takes rook).
    pub games: Vec<Vec<String>>,
    /// For each game, the time each move was physically completed: its last lift or place.
    pub done_at: Vec<Vec<u64>>,
    /// How often the hands did each lively thing.
    pub counts: HandCounts,
}

/// `games` played by `style`'s hands on a board read in `mode` through `sensors`. An
/// underpromotion is chosen by a click (a `promote` reading) shortly after the piece lands.
pub fn record_games(
    games: &[GameRecord],
    style: &HandStyle,
    mode: Mode,
    sensors: Sensors,
) -> Recording {
    let scripted = script_session(games, style);
    let mut readings = record(&scripted.script, mode, sensors);
    for (game, done) in games.iter().zip(&scripted.done_at) {
        for (m, at) in game.moves.iter().zip(done) {
            if let Move::Normal {
                promotion: Some(role),
                ..
            } = m
                && *role != Role::Queen
            {
                let t = at + PROMOTE_AFTER_MS;
                let index = readings.partition_point(|r| r.t <= t);
                readings.insert(index, TimedReading::new(t, Reading::Promote(*role)));
            }
        }
    }
    Recording {
        mode,
        sensors,
        games: games
            .iter()
            .map(|g| g.moves.iter().map(|&m| uci(m).to_string()).collect())
            .collect(),
        done_at: scripted.done_at,
        counts: scripted.counts,
        script: scripted.script,
        readings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::{Chess, Color, Piece};

    fn occ(readings: &[TimedReading]) -> Vec<(u64, u64)> {
        readings
            .iter()
            .filter_map(|r| match r.reading {
                Reading::Occupancy(o) => Some((r.t, o.0)),
                _ => None,
            })
            .collect()
    }

    fn queen() -> Piece {
        Piece {
            color: Color::White,
            role: Role::Queen,
        }
    }

    /// 1. e4 from the start, then a queen slid d1–g4 with a square a scan never sees.
    fn script() -> Vec<(u64, Action)> {
        let pawn = Piece {
            color: Color::White,
            role: Role::Pawn,
        };
        vec![
            (0, Action::SetUp(Chess::default())),
            (1000, Action::Lift(Square::E2)),
            (1300, Action::Place(Square::E4, pawn)),
            (2001, Action::Pass(Square::E2, queen())),
            (2003, Action::Lift(Square::D1)),
            (2050, Action::Pass(Square::F3, queen())),
            (2052, Action::Lift(Square::E2)),
            (2055, Action::Place(Square::G4, queen())),
            (2056, Action::Lift(Square::F3)),
            (3000, Action::Emi(Square::A5)),
        ]
    }

    #[test]
    fn a_scanning_board_sends_every_scan_that_differs_and_misses_what_falls_between() {
        let readings = record(&script(), Mode::Change, Sensors::default());
        assert!(
            readings
                .iter()
                .all(|r| matches!(r.reading, Reading::Occupancy(_)))
        );
        assert_eq!(
            occ(&readings),
            vec![
                (0, 0xffff_0000_0000_ffff),
                (1000, 0xffff_0000_0000_efff),
                (1300, 0xffff_0000_1000_efff),
                // The queen on e2 (d1 empty by the scan at 2020) ...
                (2020, 0xffff_0000_1000_fff7),
                // ... and at 2060 already on g4: f3 was crossed between two scans.
                (2060, 0xffff_0000_5000_eff7),
                // Noise flips a5 for one scan.
                (3000, 0xffff_0001_5000_eff7),
                (3020, 0xffff_0000_5000_eff7),
            ]
        );
    }

    /// The script as a polled board read through `sensors` delivers it, as log lines.
    fn polled(sensors: Sensors) -> Vec<String> {
        record(&script(), Mode::Poll, sensors)
            .iter()
            .map(crate::sensorlog::format_reading)
            .collect()
    }

    #[test]
    fn a_polled_board_sends_the_events_since_the_last_poll_then_the_occupancy() {
        assert_eq!(
            polled(Sensors::default()),
            vec![
                "0 occ ffff00000000ffff",
                "1000 lift e2",
                "1000 occ ffff00000000efff",
                "1500 place e4",
                "1500 occ ffff00001000efff",
                // Every square crossed gives a place and a lift.
                "2250 place e2",
                "2250 lift d1",
                "2250 place f3",
                "2250 lift e2",
                "2250 place g4",
                "2250 lift f3",
                "2250 occ ffff00005000eff7",
                "3000 occ ffff00015000eff7",
                "3250 occ ffff00005000eff7",
            ]
        );
    }

    #[test]
    fn a_turned_board_reads_each_square_as_its_opposite_and_a_dead_sensor_never_changes() {
        let sensors = Sensors {
            turned: true,
            dead: Some((Square::D7, false)),
        };
        assert_eq!(
            polled(sensors),
            vec![
                // d7's sensor (under e2) is stuck empty from the start.
                "0 occ fff700000000ffff",
                // e2 lifted: nothing a sensor tells. e4 reads as d5.
                "1500 place d5",
                "1500 occ fff700080000ffff",
                // The queen's slide d1-e2-f3-g4 reads e8-(d7)-c6-b5.
                "2250 lift e8",
                "2250 place c6",
                "2250 place b5",
                "2250 lift c6",
                "2250 occ eff7000a0000ffff",
                // Noise on a5 reads on h4.
                "3000 occ eff7000a8000ffff",
                "3250 occ eff7000a0000ffff",
            ]
        );
    }

    #[test]
    fn the_truth_knows_each_move_and_when_it_was_done() {
        let game = crate::sim::sample::games().remove(1);
        let recording = record_games(
            std::slice::from_ref(&game),
            &HandStyle::lively(),
            Mode::Change,
            Sensors::default(),
        );
        assert_eq!(recording.games[0].len(), game.moves.len());
        assert_eq!(recording.games[0][0], "d2d4");
        let done = &recording.done_at[0];
        assert_eq!(done.len(), game.moves.len());
        assert!(done.windows(2).all(|w| w[0] < w[1]), "{done:?}");
        // Every reading's time is a scan's, in order.
        assert!(recording.readings.windows(2).all(|w| w[0].t <= w[1].t));
        assert!(recording.readings.iter().all(|r| r.t % 20 == 0));
    }
}
