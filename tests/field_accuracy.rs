//! Replays every session of `tests/field` (real-world boards and hands: contact bounce, slow
//! hosts, hesitation, two hands at once, set-up from an empty board, shared timestamps, a
//! dead sensor, a board turned round) and holds the recognizer to the field targets.

mod common;

use common::accuracy::{FieldRun, run_field_folder};

#[test]
fn field_sessions_are_recognised() {
    let FieldRun {
        categories, total, ..
    } = run_field_folder("field", 90);

    for (category, t) in &categories {
        if category == "dead" {
            // A dead sensor hides moves that only the rules and later moves reveal.
            assert!(
                t.exact_share() >= 0.9,
                "dead: {} of {} sessions exact",
                t.exact,
                t.sessions
            );
            assert!(
                t.right as f64 >= 0.95 * t.moves as f64,
                "dead: {} of {} moves right",
                t.right,
                t.moves
            );
        } else {
            assert!(
                t.exact == t.sessions,
                "{category}: {} of {} sessions exact",
                t.exact,
                t.sessions
            );
            // Hands and hosts that behave differently are still normal play.
            let normal_play = [
                "bounce", "crossing", "hesitate", "rotated", "slowpoll", "timing",
            ];
            if normal_play.contains(&category.as_str()) {
                assert_eq!(t.alarms, 0, "{category}: illegal shown during normal play");
            }
        }
    }
    assert!(
        total.wrong as f64 <= 0.0005 * total.moves as f64,
        "{} wrong moves of {}",
        total.wrong,
        total.moves
    );
}
