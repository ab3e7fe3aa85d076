//! Replays every session of `tests/corpus` (real games handled the way people handle
//! pieces) and holds the recognizer to the accuracy targets per tier.

use std::collections::BTreeMap;
use std::path::Path;

use boardsight::recognizer::{Config, GameRecord};
use boardsight::replay::replay;
use boardsight::sensorlog;
use shakmaty::uci::UciMove;

#[derive(serde::Deserialize)]
struct Truth {
    games: Vec<Vec<String>>,
    tier: u32,
    mode: String,
}

#[derive(Default)]
struct Tally {
    sessions: usize,
    exact: usize,
    moves: usize,
    right: usize,
    wrong: usize,
}

fn uci_moves(game: &GameRecord) -> Vec<String> {
    game.moves
        .iter()
        .map(|&m| UciMove::from_standard(m).to_string())
        .collect()
}

#[test]
fn corpus_sessions_are_recognised() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("tests/corpus exists")
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".log").map(str::to_owned)
        })
        .collect();
    names.sort();
    assert!(
        names.len() >= 200,
        "the corpus has {} sessions",
        names.len()
    );

    let mut tallies: BTreeMap<(u32, String), Tally> = BTreeMap::new();
    let mut failures = Vec::new();
    for name in &names {
        let readings = sensorlog::read_file(&dir.join(format!("{name}.log"))).expect("valid log");
        let truth: Truth = serde_json::from_str(
            &std::fs::read_to_string(dir.join(format!("{name}.truth.json"))).expect("truth"),
        )
        .expect("truth json");
        let result = replay(&readings, Config::default());
        let got: Vec<Vec<String>> = result.games.iter().map(uci_moves).collect();

        let tally = tallies.entry((truth.tier, truth.mode.clone())).or_default();
        tally.sessions += 1;
        tally.moves += truth.games.iter().map(Vec::len).sum::<usize>();
        for (index, game) in got.iter().enumerate() {
            let expected = truth.games.get(index).map_or(&[][..], |g| &g[..]);
            let right = game.iter().zip(expected).filter(|(a, b)| a == b).count();
            tally.right += right;
            tally.wrong += game.len() - right;
        }
        if got == truth.games {
            tally.exact += 1;
        } else {
            let first_difference = got
                .iter()
                .flatten()
                .zip(truth.games.iter().flatten())
                .position(|(a, b)| a != b);
            failures.push(format!(
                "{name}: got {} games / {} moves, expected {} / {}, first difference at move {:?} {:?}",
                got.len(),
                got.iter().map(Vec::len).sum::<usize>(),
                truth.games.len(),
                truth.games.iter().map(Vec::len).sum::<usize>(),
                first_difference,
                got.iter().flatten().skip(first_difference.unwrap_or(0)).take(4).collect::<Vec<_>>()
            ));
        }
    }

    println!("tier  mode    sessions  exact   moves right    wrong");
    let mut all_moves = 0;
    let mut all_wrong = 0;
    for ((tier, mode), t) in &tallies {
        all_moves += t.moves;
        all_wrong += t.wrong;
        println!(
            "t{tier}    {mode:<7} {:>8}  {:>5.1}%  {:>5}/{:<5}  {:>5}",
            t.sessions,
            100.0 * t.exact as f64 / t.sessions as f64,
            t.right,
            t.moves,
            t.wrong
        );
    }
    println!("wrong moves overall: {all_wrong} of {all_moves}");
    for failure in &failures {
        println!("  {failure}");
    }

    for tier in 0..=3 {
        let (sessions, exact) = tallies
            .iter()
            .filter(|((t, _), _)| *t == tier)
            .fold((0, 0), |(s, e), (_, t)| (s + t.sessions, e + t.exact));
        let required = match tier {
            0 | 1 => 1.0,
            2 => 0.98,
            _ => 0.95,
        };
        let share = exact as f64 / sessions as f64;
        assert!(
            share >= required,
            "tier {tier}: {exact} of {sessions} sessions exact, need {:.0}%",
            required * 100.0
        );
    }
    assert!(
        all_wrong as f64 <= 0.001 * all_moves as f64,
        "{all_wrong} wrong moves of {all_moves}"
    );
}
