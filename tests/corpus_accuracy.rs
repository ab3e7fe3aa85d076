//! Replays every session of `tests/corpus` (real games handled the way people handle
//! pieces) and holds the recognizer to the accuracy targets per tier.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::accuracy::{Tally, print_table, run_session, session_names};

#[test]
fn corpus_sessions_are_recognised() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let names = session_names(&dir);
    assert!(
        names.len() >= 200,
        "the corpus has {} sessions",
        names.len()
    );

    let mut groups: BTreeMap<String, Tally> = BTreeMap::new();
    let mut failures = Vec::new();
    for name in &names {
        let session = run_session(&dir, name);
        let group = format!("t{} {}", session.truth.tier, session.truth.mode);
        groups.entry(group).or_default().add(&session.tally);
        failures.extend(session.failure);
    }
    let total = print_table("tier mode", &groups);
    for failure in &failures {
        println!("  {failure}");
    }

    for tier in 0..=3 {
        let mut tier_total = Tally::default();
        for (_, t) in groups
            .iter()
            .filter(|(g, _)| g.starts_with(&format!("t{tier} ")))
        {
            tier_total.add(t);
        }
        let required = match tier {
            0 | 1 => 1.0,
            2 => 0.98,
            _ => 0.95,
        };
        assert!(
            tier_total.exact_share() >= required,
            "tier {tier}: {} of {} sessions exact, need {:.0}%",
            tier_total.exact,
            tier_total.sessions,
            required * 100.0
        );
        // Clean and human play never shows a false alarm.
        if tier <= 1 {
            assert_eq!(
                tier_total.alarms, 0,
                "tier {tier}: illegal shown during normal play"
            );
        }
    }
    assert!(
        total.wrong as f64 <= 0.0005 * total.moves as f64,
        "{} wrong moves of {}",
        total.wrong,
        total.moves
    );
}
