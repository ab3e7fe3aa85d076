//! Replays every session of `tests/field2` (pieces slid, knocked over and nudged, electrical
//! noise, a reset without clearing the board, a turned board with a dead sensor) and holds
//! the recognizer to the targets of those behaviours.

mod common;

use common::accuracy::{FieldRun, run_field_folder};

#[test]
fn field2_sessions_are_recognised() {
    let FieldRun { groups, total, .. } = run_field_folder("field2", 60);

    for (group, t) in &groups {
        // Every behaviour here is normal play on a real board: each kind, in each mode.
        let floor = 0.95;
        assert!(
            t.exact_share() >= floor,
            "{group}: {} of {} sessions exact",
            t.exact,
            t.sessions
        );
        if group.starts_with("slide ") {
            assert_eq!(t.alarms, 0, "{group}: illegal shown while pieces slide");
        }
    }
    assert!(
        total.wrong as f64 <= 0.0005 * total.moves as f64,
        "{} wrong moves of {}",
        total.wrong,
        total.moves
    );
}
