//! Replays sessions with known answers and tallies how right the recognizer was, what the
//! user saw on the way (false alarms) and how long each move took to be decided.

use std::collections::BTreeMap;
use std::path::Path;

use boardsight::reading::TimedReading;
use boardsight::recognizer::{Config, EventKind};
use boardsight::replay::replay;
use boardsight::sensorlog;
use shakmaty::Square;

use super::uci_games;

#[derive(Default, serde::Deserialize, serde::Serialize)]
pub struct Truth {
    pub games: Vec<Vec<String>>,
    #[serde(default)]
    pub done_at: Vec<Vec<u64>>,
    #[serde(default)]
    pub tier: u32,
    pub mode: String,
    #[serde(default)]
    pub category: Option<String>,
    #[serde(default)]
    pub period_ms: Option<u64>,
    /// A broken sensor's square (by its wiring), as the field set names it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dead_squares: Vec<String>,
    /// `occupied` or `empty`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dead_stuck: Option<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rotated: bool,
}

#[derive(Default)]
pub struct Tally {
    pub sessions: usize,
    pub exact: usize,
    pub moves: usize,
    pub right: usize,
    pub wrong: usize,
    /// `illegal` events shown to the user once a game has begun.
    pub alarms: usize,
    /// Milliseconds from each move's completion to the event that reported it rightly.
    pub delays: Vec<u64>,
    /// `sensor` reports of a square whose sensor works: a fault shown that is not there.
    pub false_faults: usize,
}

impl Tally {
    pub fn add(&mut self, other: &Tally) {
        self.sessions += other.sessions;
        self.exact += other.exact;
        self.moves += other.moves;
        self.right += other.right;
        self.wrong += other.wrong;
        self.alarms += other.alarms;
        self.delays.extend(&other.delays);
        self.false_faults += other.false_faults;
    }

    pub fn exact_share(&self) -> f64 {
        self.exact as f64 / self.sessions.max(1) as f64
    }

    fn delay_percentile(&self, p: f64) -> u64 {
        let mut sorted = self.delays.clone();
        sorted.sort_unstable();
        if sorted.is_empty() {
            return 0;
        }
        sorted[((sorted.len() - 1) as f64 * p).round() as usize]
    }
}

pub struct SessionResult {
    pub name: String,
    pub truth: Truth,
    pub tally: Tally,
    pub failure: Option<String>,
}

/// Every `NAME.log` with its `NAME.truth.json` in `dir`, sorted by name.
pub fn session_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("the session folder exists")
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".log").map(str::to_owned)
        })
        .collect();
    names.sort();
    names
}

/// Replays `dir/NAME.log` and scores it against `dir/NAME.truth.json`.
pub fn run_session(dir: &Path, name: &str) -> SessionResult {
    let readings = sensorlog::read_file(&dir.join(format!("{name}.log"))).expect("valid log");
    let truth: Truth = serde_json::from_str(
        &std::fs::read_to_string(dir.join(format!("{name}.truth.json"))).expect("truth"),
    )
    .expect("truth json");
    score_session(name, &readings, truth)
}

/// Replays readings held in memory and scores them against their truth.
pub fn score_session(name: &str, readings: &[TimedReading], truth: Truth) -> SessionResult {
    let result = replay(readings, Config::default());
    let got = uci_games(&result.games);

    let mut tally = Tally {
        sessions: 1,
        moves: truth.games.iter().map(Vec::len).sum(),
        ..Tally::default()
    };
    for (index, game) in got.iter().enumerate() {
        let expected = truth.games.get(index).map_or(&[][..], |g| &g[..]);
        let right = game.iter().zip(expected).filter(|(a, b)| a == b).count();
        tally.right += right;
        tally.wrong += game.len() - right;
    }
    // Before the first game the board is being set up, and "put back" is guidance.
    tally.alarms = result
        .events
        .iter()
        .skip_while(|e| !matches!(e.kind, EventKind::NewGame { .. }))
        .filter(|e| matches!(e.kind, EventKind::Illegal { .. }))
        .count();

    // A session made turned round may name its dead sensor as wired or as played.
    let really_dead = |square: Square| {
        let named = |sq: Square| truth.dead_squares.iter().any(|d| *d == sq.to_string());
        named(square) || (truth.rotated && named(square.rotate_180()))
    };
    tally.false_faults = result
        .events
        .iter()
        .filter(|e| matches!(e.kind, EventKind::DeadSensor { square, .. } if !really_dead(square)))
        .count();

    // When each truth move was first reported rightly: games are told apart by a new game
    // that follows moves.
    let mut game = 0usize;
    let mut game_has_moves = false;
    let mut decided: BTreeMap<(usize, usize), u64> = BTreeMap::new();
    for event in &result.events {
        let (ply, mv) = match &event.kind {
            EventKind::NewGame { .. } => {
                if game_has_moves {
                    game += 1;
                    game_has_moves = false;
                }
                continue;
            }
            EventKind::Move { ply, mv, .. } => (*ply, *mv),
            EventKind::Revised { ply, new, .. } => (*ply, *new),
            _ => continue,
        };
        game_has_moves = true;
        let uci = shakmaty::uci::UciMove::from_standard(mv).to_string();
        if truth.games.get(game).and_then(|g| g.get(ply - 1)) == Some(&uci) {
            decided.entry((game, ply - 1)).or_insert(event.t);
        }
    }
    for ((game, ply), t) in decided {
        if let Some(done) = truth.done_at.get(game).and_then(|g| g.get(ply)) {
            tally.delays.push(t.saturating_sub(*done));
        }
    }

    let failure = if got == truth.games {
        tally.exact = 1;
        None
    } else {
        let first_difference = got
            .iter()
            .flatten()
            .zip(truth.games.iter().flatten())
            .position(|(a, b)| a != b);
        Some(format!(
            "{name}: got {} games / {} moves, expected {} / {}, first difference at move {:?} {:?}",
            got.len(),
            got.iter().map(Vec::len).sum::<usize>(),
            truth.games.len(),
            truth.games.iter().map(Vec::len).sum::<usize>(),
            first_difference,
            got.iter()
                .flatten()
                .skip(first_difference.unwrap_or(0))
                .take(4)
                .collect::<Vec<_>>()
        ))
    };
    SessionResult {
        name: name.to_owned(),
        truth,
        tally,
        failure,
    }
}

/// A folder of field sessions replayed: tallies by "category mode" and by category.
pub struct FieldRun {
    pub groups: BTreeMap<String, Tally>,
    pub categories: BTreeMap<String, Tally>,
    pub total: Tally,
}

/// Replays every session of `tests/<folder>` (at least `at_least` of them), whose truths
/// name their category, and prints the table and the sessions that went wrong.
pub fn run_field_folder(folder: &str, at_least: usize) -> FieldRun {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(folder);
    let names = session_names(&dir);
    assert!(
        names.len() >= at_least,
        "{folder} has {} sessions",
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
    FieldRun {
        groups,
        categories,
        total,
    }
}

/// Prints one row per group and a total; returns the total.
pub fn print_table(title: &str, groups: &BTreeMap<String, Tally>) -> Tally {
    println!(
        "{title:<18} sessions  exact    moves right   wrong  alarms  false faults  delay ms median/p95/max"
    );
    let mut total = Tally::default();
    for (group, t) in groups {
        total.add(t);
        print_row(group, t);
    }
    print_row("all", &total);
    total
}

fn print_row(group: &str, t: &Tally) {
    println!(
        "{group:<18} {:>8}  {:>5.1}%  {:>6}/{:<6} {:>5}  {:>6}  {:>12}  {}/{}/{}",
        t.sessions,
        100.0 * t.exact_share(),
        t.right,
        t.moves,
        t.wrong,
        t.alarms,
        t.false_faults,
        t.delay_percentile(0.5),
        t.delay_percentile(0.95),
        t.delay_percentile(1.0),
    );
}
