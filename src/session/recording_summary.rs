//! A recording laid out in time for the time strip: markers for what the recognizer said,
//! bands for the spans a move was in progress or the board illegal, one lane of occupied
//! spans per square that ever changed, and the sensors' health. Worked out once, when the
//! recording opens.

use shakmaty::{Bitboard, Square};

use crate::reading::{Millis, Reading, TimedReading};
use crate::recognizer::health::SensorHealth;
use crate::recognizer::{Event, EventKind};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkerKind {
    NewGame,
    Move,
    Revised,
    TakenBack,
    Ambiguous,
    /// A dead sensor or the board's orientation was found.
    Finding,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marker {
    pub t: Millis,
    pub kind: MarkerKind,
    /// SAN for moves, plain words for the rest.
    pub label: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BandKind {
    InProgress,
    Illegal,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Band {
    pub from: Millis,
    pub to: Millis,
    pub kind: BandKind,
}

/// One square's history: the spans it read occupied, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lane {
    pub square: Square,
    pub occupied: Vec<(Millis, Millis)>,
}

#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub end: Millis,
    pub markers: Vec<Marker>,
    pub bands: Vec<Band>,
    /// Squares that changed at least once, from a8 to h1 (as the board reads).
    pub lanes: Vec<Lane>,
    pub health: SensorHealth,
}

impl Summary {
    pub fn of(readings: &[TimedReading], events: &[Event]) -> Self {
        let end = readings.last().map_or(0, |r| r.t);
        let (markers, bands) = markers_and_bands(events, end);
        Self {
            end,
            markers,
            bands,
            lanes: lanes(readings, end),
            health: SensorHealth::of(readings),
        }
    }
}

fn markers_and_bands(events: &[Event], end: Millis) -> (Vec<Marker>, Vec<Band>) {
    let mut markers = Vec::new();
    let mut bands = Vec::new();
    let mut open: Option<(Millis, BandKind)> = None;
    let mut close = |open: &mut Option<(Millis, BandKind)>, t: Millis| {
        if let Some((from, kind)) = open.take() {
            bands.push(Band { from, to: t, kind });
        }
    };
    for event in events {
        let t = event.t;
        let marker = |kind, label: String| Marker { t, kind, label };
        match &event.kind {
            EventKind::Waiting { lifted, placed } => {
                let nothing = lifted.is_empty() && placed.is_empty();
                match open {
                    Some((_, BandKind::InProgress)) if nothing => close(&mut open, t),
                    None if !nothing => open = Some((t, BandKind::InProgress)),
                    _ => {}
                }
            }
            EventKind::Illegal { .. } => {
                if !matches!(open, Some((_, BandKind::Illegal))) {
                    close(&mut open, t);
                    open = Some((t, BandKind::Illegal));
                }
            }
            EventKind::Recovered => close(&mut open, t),
            EventKind::NewGame { .. } => {
                close(&mut open, t);
                markers.push(marker(MarkerKind::NewGame, "new game".into()));
            }
            EventKind::Move { ply, san, .. } => {
                close(&mut open, t);
                markers.push(marker(MarkerKind::Move, format!("{ply}: {san}")));
            }
            EventKind::Revised { ply, san, .. } => {
                close(&mut open, t);
                markers.push(marker(MarkerKind::Revised, format!("{ply} revised: {san}")));
            }
            EventKind::TakenBack { ply, .. } => {
                close(&mut open, t);
                markers.push(marker(MarkerKind::TakenBack, format!("{ply} taken back")));
            }
            EventKind::Ambiguous { ply, .. } => {
                markers.push(marker(MarkerKind::Ambiguous, format!("{ply} ambiguous")));
            }
            EventKind::WrongMove { ply, .. } => {
                markers.push(marker(MarkerKind::Revised, format!("{ply} wrong move")));
            }
            EventKind::Orientation { .. }
            | EventKind::DeadSensor { .. }
            | EventKind::Unseen { .. }
            | EventKind::Seen { .. } => {
                let words = event.kind.finding().unwrap_or_else(|| event.to_string());
                markers.push(marker(MarkerKind::Finding, words));
            }
        }
    }
    close(&mut open, end);
    (markers, bands)
}

fn lanes(readings: &[TimedReading], end: Millis) -> Vec<Lane> {
    let mut since: [Option<Millis>; 64] = [None; 64];
    let mut spans: Vec<Vec<(Millis, Millis)>> = vec![Vec::new(); 64];
    let mut changed = Bitboard::EMPTY;
    let mut sensed: Option<Bitboard> = None;
    for reading in readings {
        let before = sensed.unwrap_or(Bitboard::EMPTY);
        let after = match reading.reading {
            Reading::Occupancy(occupancy) => occupancy,
            Reading::Lift(square) => before.without(square),
            Reading::Place(square) => before.with(square),
            Reading::Promote(_) => continue,
        };
        if sensed.is_some() {
            changed |= before ^ after;
        }
        for square in before ^ after {
            let i = square as usize;
            match since[i].take() {
                Some(from) => spans[i].push((from, reading.t)),
                None => since[i] = Some(reading.t),
            }
        }
        sensed = Some(after);
    }
    for (i, from) in since.iter().enumerate() {
        if let Some(from) = from {
            spans[i].push((*from, end));
        }
    }
    let mut order: Vec<Square> = changed.into_iter().collect();
    // As the board reads from White's side: rank 8 first, files a to h.
    order.sort_by_key(|s| (std::cmp::Reverse(s.rank()), s.file()));
    order
        .into_iter()
        .map(|square| Lane {
            square,
            occupied: std::mem::take(&mut spans[square as usize]),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reading::START_OCCUPANCY;
    use crate::recognizer::Recognizer;

    #[test]
    fn a_move_makes_a_band_a_marker_and_two_lanes() {
        let lifted = START_OCCUPANCY.without(Square::E2);
        let readings = vec![
            TimedReading::new(0, Reading::Occupancy(START_OCCUPANCY)),
            TimedReading::new(1000, Reading::Occupancy(lifted)),
            TimedReading::new(1300, Reading::Occupancy(lifted.with(Square::E4))),
            TimedReading::new(2000, Reading::Occupancy(lifted.with(Square::E4))),
        ];
        let mut recognizer = Recognizer::default();
        let events: Vec<Event> = readings.iter().flat_map(|r| recognizer.feed(*r)).collect();
        let summary = Summary::of(&readings, &events);
        assert_eq!(summary.end, 2000);
        let moves: Vec<&Marker> = summary
            .markers
            .iter()
            .filter(|m| m.kind == MarkerKind::Move)
            .collect();
        assert_eq!(moves.len(), 1);
        assert_eq!((moves[0].t, moves[0].label.as_str()), (1300, "1: e4"));
        assert!(
            summary
                .bands
                .iter()
                .any(|b| b.kind == BandKind::InProgress && b.from == 1000 && b.to == 1300),
            "{:?}",
            summary.bands
        );
        let squares: Vec<Square> = summary.lanes.iter().map(|l| l.square).collect();
        assert_eq!(squares, vec![Square::E4, Square::E2]);
        assert_eq!(summary.lanes[0].occupied, vec![(1300, 2000)]);
        assert_eq!(summary.lanes[1].occupied, vec![(0, 1000)]);
    }
}
