//! Memory after a simulated eight-hour session: games played by hand on a polled board (13
//! readings a second, as a Centaur is polled), through the recognizer and the app's
//! `Session`, autosaving as it goes. The worker passes on only readings that change
//! something, and so does this; everything after it is the real code.
//!
//! Run: `cargo bench --bench memory` (Linux: resident memory from /proc/self/status).

use std::sync::Arc;
use std::time::{Duration, Instant};

use boardsight::connection::{Change, Update};
use boardsight::pgn::autosave::Autosave;
use boardsight::reading::{Reading, TimedReading};
use boardsight::recognizer::Recognizer;
use boardsight::session::Session;
use boardsight::sim::{PhysicalBoard, script_hours};
use boardsight::snapshot::Snapshot;

const HOURS: u64 = 8;
const POLL_MS: u64 = 77;

fn resident_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    // Criterion-style flags from `cargo bench` are not for this measurement.
    let dir = tempfile::tempdir().expect("temp dir");
    // Players who think about 20 seconds a move.
    let script = script_hours(HOURS, 20_000);
    let mut session = Session::new(
        std::env::var_os("NO_AUTOSAVE")
            .is_none()
            .then(|| Autosave::new(dir.path())),
        Arc::new(|| {}),
    );
    let mut recognizer = Recognizer::default();
    let mut board = PhysicalBoard::empty();
    let fresh = resident_kib();

    let started = Instant::now();
    let mut next_action = script.iter().peekable();
    let mut sensed = None;
    let mut polls = 0u64;
    let end = script.last().map_or(0, |(t, _)| *t);
    let mut t = 0;
    while t <= end {
        while let Some((_, action)) = next_action.next_if(|(at, _)| *at <= t) {
            board.apply(action);
        }
        polls += 1;
        let occupancy = board.occupancy();
        if sensed != Some(occupancy) {
            sensed = Some(occupancy);
            let now = started + Duration::from_millis(t);
            let reading = TimedReading::new(t, Reading::Occupancy(occupancy));
            let events = recognizer.feed(reading);
            let change = Change {
                readings: vec![reading],
                events,
                snapshot: Snapshot::of(&recognizer, 0),
            };
            session.apply(Update::Change(Box::new(change)), now);
            session.update(now);
        }
        t += POLL_MS;
    }
    let after = resident_kib();
    let plies: usize = recognizer.games().iter().map(|g| g.moves.len()).sum();
    let kept = session.readings().len();
    let recording_kib = std::mem::size_of_val(session.readings()) as u64 / 1024;
    println!(
        "{HOURS} h simulated: {polls} polls, {kept} readings kept (changes only), {} games, {plies} plies",
        recognizer.games().len()
    );
    match (fresh, after) {
        (Some(fresh), Some(after)) => println!(
            "resident memory: {:.1} MB fresh, {:.1} MB after {HOURS} h: {:+.1} MB, of which the recording is {:.1} MB",
            fresh as f64 / 1024.0,
            after as f64 / 1024.0,
            (after as f64 - fresh as f64) / 1024.0,
            recording_kib as f64 / 1024.0
        ),
        _ => println!("resident memory: not measurable here (no /proc/self/status)"),
    }
    drop(session);
    let autosaved = Autosave::new(dir.path()).unfinished();
    println!(
        "autosaved: {} session(s), log {} KB",
        autosaved.len(),
        autosaved
            .first()
            .and_then(|u| std::fs::metadata(&u.log_path).ok())
            .map_or(0, |m| m.len() / 1024)
    );
}
