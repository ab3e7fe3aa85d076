//! Held-out sessions: games of `tests/data/twic1599_100k.pgn` that no corpus or field
//! session plays, handled by the simulated hands' lively behaviours (slides, knocked
//! pieces, nudges, off-centre pawns, fast captures, electrical noise, and all of them
//! mixed) or read by a board with a dead sensor (set up the right way or turned round),
//! recorded as a scanning board and a polled board would deliver them, and held to the
//! targets of issue 17.
//!
//! `BOARDSIGHT_WRITE_SESSIONS=DIR` also writes each session as `DIR/NAME.log` with
//! `NAME.truth.json`, to replay with `boardsight replay --trace`.
//! `BOARDSIGHT_HELD_OUT_BATCH=K` (K > 0) plays the games in another order with other seeds
//! (other hands): a fresh set to look at, the floors set on batch 0 not held.
//! `BOARDSIGHT_HELD_OUT_ONLY=unseen,turned` plays those categories alone (the same
//! sessions as in the whole run), holding no floor: for a quick look while working.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use boardsight::game::GameRecord;
use boardsight::sim::{HandCounts, HandStyle, Mode, Recording, Sensors, record_games};
use common::accuracy::{SessionResult, Tally, Truth, print_table, score_session, session_names};
use common::uci_moves;
use shakmaty::Square;

/// Sessions per category and mode.
const SESSIONS: usize = 6;
/// A game shorter than this shows too little handling.
const MIN_PLIES: usize = 20;

/// How a category's board reads what is on it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Wiring {
    Sound,
    /// One sensor broken for the whole session, stuck empty or occupied.
    Dead,
    /// Set up turned round, with one sensor broken.
    TurnedDead,
}

impl Wiring {
    /// The sensors of the session played with `seed`: the broken one anywhere on the board.
    fn sensors(self, seed: u64) -> Sensors {
        let mix = (seed ^ 0x5eed).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let dead = Some((Square::new(((mix >> 32) % 64) as u32), mix >> 63 == 1));
        match self {
            Wiring::Sound => Sensors::default(),
            Wiring::Dead => Sensors {
                turned: false,
                dead,
            },
            Wiring::TurnedDead => Sensors { turned: true, dead },
        }
    }
}

/// The categories, each with the hands that make it and how its board reads.
fn categories() -> Vec<(&'static str, HandStyle, Wiring)> {
    // Human handling as in the corpus's t1: captures in either order, castling either piece
    // first, a piece straightened now and then, times that vary.
    let human = HandStyle {
        think_ms: 2_500,
        step_ms: 300,
        vary: 0.5,
        adjust: 0.1,
        dropout: 0.0,
        ..HandStyle::default()
    };
    vec![
        (
            "slide",
            HandStyle {
                slide: 0.6,
                brush: 0.3,
                ..human.clone()
            },
            Wiring::Sound,
        ),
        (
            "knock",
            HandStyle {
                knock: 0.2,
                ..human.clone()
            },
            Wiring::Sound,
        ),
        (
            "nudge",
            HandStyle {
                nudge: 0.15,
                ..human.clone()
            },
            Wiring::Sound,
        ),
        (
            "unseen",
            HandStyle {
                unseen: 0.1,
                ..human.clone()
            },
            Wiring::Sound,
        ),
        (
            "fast",
            HandStyle {
                fast_capture: 0.6,
                ..human.clone()
            },
            Wiring::Sound,
        ),
        (
            "emi",
            HandStyle {
                emi: 0.15,
                ..human.clone()
            },
            Wiring::Sound,
        ),
        (
            "lively",
            HandStyle {
                think_ms: human.think_ms,
                step_ms: human.step_ms,
                ..HandStyle::lively()
            },
            Wiring::Sound,
        ),
        ("dead", human.clone(), Wiring::Dead),
        ("turned", human, Wiring::TurnedDead),
    ]
}

/// Every game a corpus or field session plays (their truths).
fn played_games() -> Vec<Vec<String>> {
    let mut played = Vec::new();
    for set in ["tests/corpus", "tests/field"] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(set);
        for name in session_names(&dir) {
            let text = std::fs::read_to_string(dir.join(format!("{name}.truth.json")))
                .expect("a truth file");
            let truth: Truth = serde_json::from_str(&text).expect("truth json");
            played.extend(truth.games);
        }
    }
    played
}

/// The games of the TWIC sample that no corpus or field session plays (nor begins the same
/// way for 20 plies), in file order.
fn held_out_games() -> Vec<GameRecord> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/twic1599_100k.pgn");
    let bytes = std::fs::read(path).expect("the TWIC sample");
    let played = played_games();
    assert!(played.len() >= 290, "only {} truth games", played.len());
    boardsight::pgn::read_games(&bytes)
        .into_iter()
        .filter_map(Result::ok)
        .map(|g| g.game)
        .filter(|game| {
            let moves = uci_moves(game);
            moves.len() >= MIN_PLIES
                && played.iter().all(|p| {
                    p != &moves && moves.iter().zip(p).take_while(|(a, b)| a == b).count() < 20
                })
        })
        .collect()
}

fn truth_of(recording: &Recording, category: &str) -> Truth {
    Truth {
        games: recording.games.clone(),
        done_at: recording.done_at.clone(),
        tier: 1,
        mode: recording.mode.name().to_owned(),
        category: Some(category.to_owned()),
        period_ms: Some(recording.mode.period_ms()),
        dead_squares: recording
            .sensors
            .dead
            .iter()
            .map(|(square, _)| square.to_string())
            .collect(),
        dead_stuck: recording.sensors.dead.map(|(_, stuck_occupied)| {
            if stuck_occupied { "occupied" } else { "empty" }.to_owned()
        }),
        rotated: recording.sensors.turned,
    }
}

fn write_session(dir: &Path, name: &str, recording: &Recording, truth: &Truth) {
    let mut log = Vec::new();
    boardsight::sensorlog::write(&mut log, &recording.readings).expect("in memory");
    std::fs::write(dir.join(format!("{name}.log")), log).expect("write the log");
    let json = serde_json::to_string(truth).expect("truth json");
    std::fs::write(dir.join(format!("{name}.truth.json")), json).expect("write the truth");
}

/// Sessions exact per category and mode this commit reaches (1.0 where not named): the
/// floor kept while the targets (95%, unseen 90%) are worked towards.
const FLOORS: &[(&str, f64)] = &[("lively poll", 0.83), ("turned change", 0.83)];

#[test]
fn held_out_sessions_with_lively_hands_are_recognised() {
    let games = held_out_games();
    let categories = categories();
    let batch: usize = std::env::var("BOARDSIGHT_HELD_OUT_BATCH")
        .ok()
        .and_then(|k| k.parse().ok())
        .unwrap_or(0);
    // A game comes back only in a category of broken sensors, with other hands.
    let sound = categories
        .iter()
        .filter(|(.., wiring)| *wiring == Wiring::Sound)
        .count();
    let needed = sound * SESSIONS * Mode::ALL.len();
    assert!(
        games.len() >= needed,
        "{} held-out games, {needed} wanted",
        games.len()
    );
    let write_to = std::env::var_os("BOARDSIGHT_WRITE_SESSIONS").map(std::path::PathBuf::from);
    let only: Option<Vec<String>> = std::env::var("BOARDSIGHT_HELD_OUT_ONLY")
        .ok()
        .map(|names| names.split(',').map(str::to_owned).collect());
    let chosen = |category: &str| {
        only.as_ref()
            .is_none_or(|names| names.iter().any(|n| n == category))
    };

    let mut groups: BTreeMap<String, Tally> = BTreeMap::new();
    let mut by_category: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut counts: BTreeMap<&str, HandCounts> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut next_game = 0;
    for (c, (category, style, wiring)) in categories.iter().enumerate() {
        for mode in Mode::ALL {
            for index in 0..SESSIONS {
                // Each session its own game and its own seed.
                let game = &games[(next_game + 37 * batch) % games.len()];
                next_game += 1;
                if !chosen(category) {
                    continue;
                }
                let seed = 1_000 * (c as u64 + 1)
                    + 100 * mode.period_ms()
                    + index as u64
                    + 1_000_000 * batch as u64;
                let style = HandStyle {
                    seed,
                    ..style.clone()
                };
                let recording = record_games(
                    std::slice::from_ref(game),
                    &style,
                    mode,
                    wiring.sensors(seed),
                );
                counts.entry(category).or_default().add(&recording.counts);
                let name = format!("{category}-{}-{index:03}", mode.name());
                let truth = truth_of(&recording, category);
                if let Some(dir) = &write_to {
                    write_session(dir, &name, &recording, &truth);
                }
                let SessionResult { tally, failure, .. } =
                    score_session(&name, &recording.readings, truth);
                groups
                    .entry(format!("{category} {}", mode.name()))
                    .or_default()
                    .add(&tally);
                by_category.entry(category).or_default().add(&tally);
                failures.extend(failure);
            }
        }
    }
    let total = print_table("category mode", &groups);
    for failure in &failures {
        println!("  {failure}");
    }
    for (category, h) in &counts {
        println!(
            "{category:<7} slides {} (brushing {}), knocks {}, nudges {}, fast captures {}, \
             emi {}, off-centre {} (straightened {}, moved on {}, captured {}, left {})",
            h.slides,
            h.brushes,
            h.knocks,
            h.nudges,
            h.fast_captures,
            h.emi,
            h.unseen,
            h.straightened,
            h.unseen_moved,
            h.unseen_captured,
            h.unseen_left
        );
    }

    // The sessions show what they are named for (when all were played).
    if only.is_none() {
        for (category, done) in [
            ("slide", counts["slide"].slides),
            ("knock", counts["knock"].knocks),
            ("nudge", counts["nudge"].nudges),
            ("unseen", counts["unseen"].unseen),
            ("fast", counts["fast"].fast_captures),
            ("emi", counts["emi"].emi),
        ] {
            assert!(done >= 20, "{category}: only {done}");
        }
        assert!(counts["slide"].brushes > 0, "no slide brushed a square");
        let unseen = &counts["unseen"];
        assert!(
            unseen.straightened > 0
                && unseen.unseen_moved > 0
                && unseen.unseen_captured > 0
                && unseen.unseen_left > 0,
            "off-centre pieces straightened, moved on, captured and left: {unseen:?}"
        );
    }

    // The targets of issue 17, printed; what is held is the floor this commit reaches
    // (sessions exact per category and mode), so nothing slips back while the rest is done.
    let mut short_of_target = Vec::new();
    for (group, t) in &groups {
        let category = group.split(' ').next().unwrap_or_default();
        let moves_right = t.right as f64 / t.moves.max(1) as f64;
        if category == "dead" {
            // A dead sensor hides moves that only later moves tell: the target is moves.
            if moves_right < 0.95 {
                short_of_target.push(format!(
                    "{group}: {} of {} moves right (target 95%)",
                    t.right, t.moves
                ));
            }
        } else {
            let target = if category == "unseen" { 0.90 } else { 0.95 };
            if t.exact_share() < target {
                short_of_target.push(format!(
                    "{group}: {} of {} sessions exact (target {:.0}%)",
                    t.exact,
                    t.sessions,
                    target * 100.0
                ));
            }
        }
        let floor = FLOORS
            .iter()
            .find(|(name, _)| *name == group.as_str())
            .map_or(1.0, |(_, floor)| *floor);
        assert!(
            batch > 0 || only.is_some() || t.exact_share() >= floor,
            "{group}: {} of {} sessions exact, the floor is {:.0}%",
            t.exact,
            t.sessions,
            floor * 100.0
        );
    }
    for line in short_of_target {
        println!("  short of the issue's target: {line}");
    }
    assert!(
        only.is_some() || total.right as f64 >= 0.95 * total.moves as f64,
        "{} of {} moves right",
        total.right,
        total.moves
    );
}

/// Whole games slid along the board (every move but a knight's, diagonal steps brushing a
/// square beside the way), read by a polled board at every phase of its poll, as fast as
/// a Centaur polls the simulated board in the DGT tests and as slow as the sim's Centaur:
/// each game comes out exact, and each move is shown (or revised to) within a poll and a
/// half of its last lift or place. Where the poll cuts a slide decides what one poll lists
/// (a straddle whole, or its halves a poll apart), so this is where a busy machine differs.
#[test]
fn slid_games_are_read_in_time_at_every_phase_of_the_poll() {
    // (A slid piece leaves a square within 4 ms of reaching the next: a poll may fall between.)
    const STEP_MS: u64 = 1;
    let games: Vec<GameRecord> = boardsight::sim::sample::games()
        .into_iter()
        .take(3)
        .collect();
    let mut worst = 0;
    let mut problems = Vec::new();
    let mut sessions = 0;
    for (index, game) in games.iter().enumerate() {
        let style = HandStyle {
            seed: 3 + index as u64,
            slide: 1.0,
            brush: 0.5,
            adjust: 0.0,
            dropout: 0.0,
            ..HandStyle::default()
        };
        let scripted = boardsight::sim::script_session(std::slice::from_ref(game), &style);
        // (Not a scanning board: a capture whose victim's square never read empty is guessed
        // only once the board is still, as its own tests hold.)
        let mode = Mode::Poll;
        for period in [150, Mode::Poll.period_ms()] {
            for offset in (0..period).step_by(STEP_MS as usize) {
                let script: Vec<_> = scripted
                    .script
                    .iter()
                    .map(|(at, action)| (at + offset, action.clone()))
                    .collect();
                let readings =
                    boardsight::sim::record_every(&script, mode, period, Sensors::default());
                let truth = Truth {
                    games: vec![uci_moves(game)],
                    done_at: vec![scripted.done_at[0].iter().map(|at| at + offset).collect()],
                    mode: mode.name().to_owned(),
                    ..Truth::default()
                };
                let name = format!(
                    "game {index}, {} every {period} ms, phase +{offset} ms",
                    mode.name()
                );
                let session = score_session(&name, &readings, truth);
                sessions += 1;
                let late = session
                    .tally
                    .delays
                    .iter()
                    .copied()
                    .max()
                    .unwrap_or_default();
                worst = worst.max(late);
                if let Some(failure) = session.failure {
                    problems.push(failure);
                } else if late > period * 3 / 2 {
                    let ply = session.tally.delays.iter().position(|&d| d == late);
                    let ply = ply.unwrap_or_default();
                    problems.push(format!(
                        "{name}: move {} ({}) shown {late} ms after it was made",
                        ply / 2 + 1,
                        session.truth.games[0][ply]
                    ));
                }
            }
        }
    }
    eprintln!(
        "{sessions} slid sessions at every phase of the poll, the latest move shown {worst} ms after it was made"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
