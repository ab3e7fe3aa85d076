#![cfg(unix)]
//! Simulated board → real pseudo-terminal → serial worker → recognizer, for every protocol.

mod common;

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use boardsight::connection::{ConnectionStatus, Update, connect};
use boardsight::game::GameRecord;
use boardsight::protocol::Protocol;
use boardsight::reading::Reading;
use boardsight::recognizer::Config;
use boardsight::sim::device::{Device, Script};
use boardsight::sim::pty::serve;
use boardsight::sim::{Action, HandStyle, sample, script_games};
use boardsight::snapshot::Snapshot;
use common::uci_games;
use shakmaty::san::San;
use shakmaty::{Chess, Position};

const SPEED: f64 = 8.0;

/// Hands faster than people, but slow enough at `SPEED` that a capture's victim square
/// stays empty longer than sensor noise does.
fn quick_hands() -> HandStyle {
    HandStyle {
        think_ms: 300,
        step_ms: 900,
        ..HandStyle::default()
    }
}

fn game(text: &str) -> GameRecord {
    let mut position = Chess::default();
    let mut game = GameRecord::new(Chess::default());
    for token in text.split_whitespace() {
        let m = token
            .parse::<San>()
            .expect("san")
            .to_move(&position)
            .expect("legal");
        position.play_unchecked(m);
        game.moves.push(m);
    }
    game
}

struct Run {
    games: Vec<GameRecord>,
    dropped: u64,
    statuses: Vec<ConnectionStatus>,
}

/// The simulated board serving a script on a pty at a fresh link, and a worker connected
/// to that link.
struct Bench {
    _dir: tempfile::TempDir,
    stop: Arc<AtomicBool>,
    server: std::thread::JoinHandle<()>,
    connection: boardsight::connection::Connection,
}

impl Bench {
    fn start(protocol: Protocol, script: Script) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let link = dir.path().join("board");
        let stop = Arc::new(AtomicBool::new(false));
        let server = {
            let link = link.clone();
            let stop = stop.clone();
            std::thread::spawn(move || {
                serve(
                    Device::new(protocol, SPEED),
                    &script,
                    Some(&link),
                    &stop,
                    true,
                    &mut |_| {},
                )
                .expect("the simulated board runs")
            })
        };
        let deadline = Instant::now() + Duration::from_secs(5);
        while !Path::new(&link).exists() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(5));
        }
        let link_path = link.to_str().expect("utf-8").to_owned();
        let connection = connect(&link_path, protocol, Config::default(), Arc::new(|| {}));
        Self {
            _dir: dir,
            stop,
            server,
            connection,
        }
    }

    fn stop(self) {
        self.connection.disconnect();
        self.stop.store(true, Ordering::Relaxed);
        self.server.join().expect("server thread");
    }
}

/// Serves `script` and collects until the games match `expected` (or a generous timeout
/// passes).
fn run(protocol: Protocol, script: Script, expected: &[GameRecord]) -> Run {
    let bench = Bench::start(protocol, script);
    let connection = &bench.connection;
    let mut last: Option<Snapshot> = None;
    let mut statuses = Vec::new();
    let mut readings = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(90);
    while Instant::now() < deadline {
        match connection.updates.recv_timeout(Duration::from_millis(200)) {
            Ok(Update::Change(change)) => {
                readings.extend(change.readings);
                let done = change.snapshot.games == expected;
                last = Some(change.snapshot);
                if done {
                    break;
                }
            }
            Ok(Update::Status(status)) => statuses.push(status),
            Err(_) => {}
        }
    }
    bench.stop();
    let last = last.expect("at least one snapshot");
    if last.games != expected {
        // Keep what the board sent, to replay with `boardsight replay --trace`.
        let path = std::env::temp_dir().join(format!("boardsight-{protocol}-failed.log"));
        let mut bytes = Vec::new();
        boardsight::sensorlog::write(&mut bytes, &readings).expect("in memory");
        let _ = std::fs::write(&path, bytes);
        eprintln!("sensor log of the failed run: {}", path.display());
    }
    Run {
        games: last.games,
        dropped: last.dropped,
        statuses,
    }
}

fn plays_the_sample_games(protocol: Protocol) {
    let games = sample::games();
    let script = script_games(&games, &quick_hands());
    let result = run(protocol, script, &games);
    assert_eq!(uci_games(&result.games), uci_games(&games), "{protocol}");
    assert!(result.statuses.contains(&ConnectionStatus::Connected));
}

#[test]
fn liboard_plays_real_games_through_a_pty() {
    plays_the_sample_games(Protocol::Liboard);
}

#[test]
fn centaur_plays_real_games_through_a_pty() {
    plays_the_sample_games(Protocol::Centaur);
}

#[test]
fn dgt_plays_real_games_through_a_pty() {
    plays_the_sample_games(Protocol::Dgt);
}

#[test]
fn text_lines_play_real_games_through_a_pty() {
    plays_the_sample_games(Protocol::Text);
}

#[test]
fn a_dgt_board_names_the_underpromotion_piece() {
    let games = vec![game(
        "d4 e5 dxe5 d6 exd6 Be6 dxc7 Qxd1+ Kxd1 Nc6 c8=N Rxc8 e4",
    )];
    let script = script_games(&games, &quick_hands());
    let result = run(Protocol::Dgt, script, &games);
    assert_eq!(uci_games(&result.games), uci_games(&games));
}

/// Inserts actions into a script after its `at`-th action; what follows is played
/// `delay_ms` of script time later.
fn insert_after(mut script: Script, at: usize, actions: Vec<Action>, delay_ms: u64) -> Script {
    let t = script[at].0 + 1;
    for (_, (time, _)) in script.iter_mut().enumerate().skip(at + 1) {
        *time += delay_ms;
    }
    for (i, action) in actions.into_iter().enumerate() {
        script.insert(at + 1 + i, (t, action));
    }
    script
}

#[test]
fn garbage_and_torn_frames_mid_game_are_counted_and_the_game_is_right() {
    for protocol in Protocol::ALL {
        let games = vec![sample::games().remove(0)];
        let script = script_games(&games, &quick_hands());
        let middle = script.len() / 2;
        let script = insert_after(
            script,
            middle,
            vec![
                Action::Garbage(vec![0x13, 0x85, 0x00, 0xff, 0x8e, 0x7f, 0x42, 0x0a, 0x21]),
                Action::TornFrame,
            ],
            0,
        );
        let result = run(protocol, script, &games);
        assert_eq!(uci_games(&result.games), uci_games(&games), "{protocol}");
        assert!(result.dropped > 0, "{protocol}: errors are counted");
    }
}

#[test]
fn an_unplugged_board_reconnects_and_the_game_goes_on() {
    for protocol in [Protocol::Liboard, Protocol::Centaur] {
        let games = vec![sample::games().remove(0)];
        let script = script_games(&games, &quick_hands());
        let middle = script.len() / 2;
        // Three seconds without the board, then it is back at the same link; the players
        // wait for it (the worker retries at least every two seconds) before going on.
        let pause = 3000 * SPEED as u64;
        let script = insert_after(
            script,
            middle,
            vec![Action::Unplug(pause)],
            pause + 3000 * SPEED as u64,
        );
        let result = run(protocol, script, &games);
        assert_eq!(
            uci_games(&result.games),
            uci_games(&games),
            "{protocol}: no move lost or doubled"
        );
        assert!(
            result
                .statuses
                .iter()
                .any(|s| matches!(s, ConnectionStatus::Error(_))),
            "{protocol}: the unplug was noticed: {:?}",
            result.statuses
        );
    }
}

#[test]
fn liboard_frames_that_reach_the_host_in_one_read_are_all_recognised() {
    use std::io::Write;

    use boardsight::protocol::liboard::encode;
    use boardsight::sim::pty::PtyLink;
    use shakmaty::Bitboard;

    let mut pty = PtyLink::open(None).expect("a pseudo-terminal");
    let path = pty.device_path().expect("a device path");
    let connection = connect(&path, Protocol::Liboard, Config::default(), Arc::new(|| {}));
    let expected = game("e4 e5 Nf3");
    // Each move's two frames (piece up, piece down) in one write, as a late read gets them.
    let bursts: [&[u64]; 4] = [
        &[0xffff_0000_0000_ffff],
        &[0xffff_0000_0000_efff, 0xffff_0000_1000_efff],
        &[0xffef_0000_1000_efff, 0xffef_0010_1000_efff],
        &[0xffef_0010_1000_efbf, 0xffef_0010_1020_efbf],
    ];
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if let Ok(Update::Status(ConnectionStatus::Connected)) =
            connection.updates.recv_timeout(Duration::from_millis(100))
        {
            break;
        }
    }
    for burst in bursts {
        let bytes: Vec<u8> = burst.iter().flat_map(|&o| encode(Bitboard(o))).collect();
        let port = pty.port().expect("the terminal is open");
        port.write_all(&bytes).expect("write");
        port.flush().expect("flush");
        // Longer than the silence that ends a burst.
        std::thread::sleep(Duration::from_millis(50));
    }
    let mut games = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline && games != [expected.clone()] {
        if let Ok(Update::Change(change)) =
            connection.updates.recv_timeout(Duration::from_millis(100))
        {
            games = change.snapshot.games;
        }
    }
    connection.disconnect();
    assert_eq!(uci_games(&games), uci_games(&[expected]));
}

#[test]
fn an_idle_polled_board_costs_no_messages_and_no_memory() {
    // No games: the board stands in the start position and answers every poll.
    let bench = Bench::start(Protocol::Centaur, Script::new());
    let (mut readings, mut snapshots) = (0, 0);
    let until = Instant::now() + Duration::from_secs(3);
    while Instant::now() < until {
        if let Ok(Update::Change(change)) = bench
            .connection
            .updates
            .recv_timeout(Duration::from_millis(50))
        {
            readings += change.readings.len();
            snapshots += 1;
        }
    }
    bench.stop();
    // About 40 polls were answered in 3 s; only the first told anything.
    assert_eq!(readings, 1, "readings kept");
    assert!(snapshots <= 2, "{snapshots} snapshots");
}

/// A few moves with each lively action: 1. e4 e5 (set down off-centre), 2. Qh5 slid over
/// e2, f3 and g4, 2... Nc6 knocking d7 over (set back after), e5 straightened, 3. Qxf7 in
/// one motion, and a square flipped by noise.
fn lively_script() -> Script {
    use shakmaty::{Color, Piece, Role, Square};
    let piece = |color, role| Piece { color, role };
    let (white, black) = (Color::White, Color::Black);
    let queen = piece(white, Role::Queen);
    let t0 = 8_000;
    vec![
        (t0, Action::SetUp(Chess::default())),
        (t0 + 300, Action::Lift(Square::E2)),
        (
            t0 + 400,
            Action::Place(Square::E4, piece(white, Role::Pawn)),
        ),
        (t0 + 700, Action::Lift(Square::E7)),
        (
            t0 + 800,
            Action::PlaceUnseen(Square::E5, piece(black, Role::Pawn)),
        ),
        (t0 + 1100, Action::Pass(Square::E2, queen)),
        (t0 + 1102, Action::Lift(Square::D1)),
        (t0 + 1180, Action::Pass(Square::F3, queen)),
        (t0 + 1182, Action::Lift(Square::E2)),
        (t0 + 1260, Action::Pass(Square::G4, queen)),
        (t0 + 1263, Action::Lift(Square::F3)),
        (t0 + 1340, Action::Place(Square::H5, queen)),
        (t0 + 1342, Action::Lift(Square::G4)),
        (t0 + 1600, Action::Knock(Square::D7)),
        (t0 + 1700, Action::Lift(Square::B8)),
        (
            t0 + 1800,
            Action::Place(Square::C6, piece(black, Role::Knight)),
        ),
        (t0 + 2200, Action::SetBack(Square::D7)),
        (t0 + 2600, Action::Straighten(Square::E5)),
        (t0 + 3000, Action::Lift(Square::H5)),
        (t0 + 3100, Action::Replace(Square::F7, queen)),
        (t0 + 3500, Action::Emi(Square::A4)),
        (t0 + 4000, Action::Emi(Square::A4)),
    ]
}

/// Everything the worker read while the board played `script`, until a second after it.
fn readings_of(protocol: Protocol, script: Script) -> Vec<Reading> {
    let end = script.last().map_or(0, |(t, _)| *t);
    let bench = Bench::start(protocol, script);
    let until = Instant::now() + Duration::from_secs_f64(end as f64 / 1000.0 / SPEED + 1.0);
    let mut readings = Vec::new();
    while Instant::now() < until {
        if let Ok(Update::Change(change)) = bench
            .connection
            .updates
            .recv_timeout(Duration::from_millis(50))
        {
            readings.extend(change.readings.iter().map(|r| r.reading));
        }
    }
    bench.stop();
    readings
}

#[test]
fn lively_hands_reach_the_host_through_every_protocol() {
    use shakmaty::Square;
    for protocol in Protocol::ALL {
        let readings = readings_of(protocol, lively_script());
        let occupancies: Vec<_> = readings
            .iter()
            .filter_map(|r| match r {
                Reading::Occupancy(o) => Some(*o),
                _ => None,
            })
            .collect();
        // Setting up places every piece: look from 1. e4 on.
        let begun = readings
            .iter()
            .position(|r| *r == Reading::Lift(Square::E2))
            .unwrap_or(0);
        let position = |wanted: Reading| {
            readings[begun..]
                .iter()
                .position(|r| *r == wanted)
                .map(|i| i + begun)
        };
        let events = matches!(protocol, Protocol::Centaur | Protocol::Dgt);
        if events {
            // Every square the queen crossed was a place and a lift.
            for square in [Square::E2, Square::F3, Square::G4] {
                let placed = position(Reading::Place(square));
                let lifted = readings.iter().rposition(|r| *r == Reading::Lift(square));
                assert!(placed.is_some() && placed < lifted, "{protocol}: {square}");
            }
            // The knocked piece left and came back; the victim of the fast capture too.
            for square in [Square::D7, Square::F7] {
                let lifted = position(Reading::Lift(square));
                assert!(
                    lifted.is_some() && lifted < position(Reading::Place(square)),
                    "{protocol}: {square}"
                );
            }
            // The off-centre pawn was seen only when straightened, after Nc6.
            let c6 = position(Reading::Place(Square::C6));
            assert!(
                c6.is_some() && c6 < position(Reading::Place(Square::E5)),
                "{protocol}: {readings:?}"
            );
        } else {
            // The queen was seen on e2 with d1 empty.
            assert!(
                occupancies
                    .iter()
                    .any(|o| o.contains(Square::E2) && !o.contains(Square::D1)),
                "{protocol}"
            );
            // d7 read empty while Nc6 stood; e5 only after that; f7 never read empty
            // once the game had begun.
            let c6 = occupancies.iter().position(|o| o.contains(Square::C6));
            let e5 = occupancies.iter().position(|o| o.contains(Square::E5));
            assert!(c6.is_some() && c6 < e5, "{protocol}: {occupancies:?}");
            assert!(
                occupancies
                    .iter()
                    .any(|o| o.contains(Square::C6) && !o.contains(Square::D7)),
                "{protocol}"
            );
            let started = occupancies
                .iter()
                .position(|o| o.contains(Square::E4))
                .unwrap_or(0);
            assert!(
                occupancies[started..]
                    .iter()
                    .all(|o| o.contains(Square::F7)),
                "{protocol}"
            );
        }
        // Noise is a flipped square for a moment, on boards that read occupancy.
        if protocol != Protocol::Dgt {
            assert!(
                occupancies.iter().any(|o| o.contains(Square::A4)),
                "{protocol}: no noise seen"
            );
            assert!(
                occupancies.last().is_some_and(|o| !o.contains(Square::A4)),
                "{protocol}"
            );
        }
    }
}
