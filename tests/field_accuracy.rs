//! Replays every session of `tests/field` (real-world boards and hands: contact bounce, slow
//! hosts, hesitation, two hands at once, set-up from an empty board, shared timestamps, a
//! dead sensor, a board turned round) and holds the recognizer to the field targets.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::accuracy::{Tally, print_table, run_session, session_names};

#[test]
fn field_sessions_are_recognised() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/field");
    let names = session_names(&dir);
    assert!(
        names.len() >= 90,
        "the field set has {} sessions",
        names.len()
    );

    let mut groups: BTreeMap<String, Tally> = BTreeMap::new();
    let mut categories: BTreeMap<String, Tally> = BTreeMap::new();
    let mut failures = Vec::new();
    for name in &names {
        let session = run_session(&dir, name);
        let category = session
            .truth
            .category
            .clone()
            .expect("a field truth names its category");
        groups
            .entry(format!("{category} {}", session.truth.mode))
            .or_default()
            .add(&session.tally);
        categories.entry(category).or_default().add(&session.tally);
        failures.extend(session.failure);
    }
    let total = print_table("category mode", &groups);
    for failure in &failures {
        println!("  {failure}");
    }

    let mut others = Tally::default();
    for (category, t) in &categories {
        if category == "dead" {
            // A dead sensor hides moves that only the rules and later moves reveal.
            assert!(
                t.exact_share() >= 0.8,
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
                t.exact_share() >= 0.9,
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
            others.add(t);
        }
    }
    assert!(
        others.exact_share() >= 0.98,
        "field without dead: {} of {} sessions exact",
        others.exact,
        others.sessions
    );
    assert!(
        total.wrong as f64 <= 0.001 * total.moves as f64,
        "{} wrong moves of {}",
        total.wrong,
        total.moves
    );
}
