#![cfg(unix)]
//! `boardsight ports [--probe]` on simulated boards behind links on real pseudo-terminals,
//! and the board scout finding a simulated board that appears.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use boardsight::background::no_wake;
use boardsight::connection::{BoardScout, PortChoice, ScoutNews, ScoutSetup, probe_port};
use boardsight::protocol::Protocol;
use boardsight::sim::Action;
use boardsight::sim::device::Device;
use boardsight::sim::pty::serve_live;
use shakmaty::Chess;

fn boardsight() -> Command {
    Command::new(env!("CARGO_BIN_EXE_boardsight"))
}

/// `boardsight simulate` playing the sample games at `link` until interrupted.
struct Simulator {
    child: Child,
}

impl Simulator {
    fn start(protocol: &str, link: &Path) -> Self {
        let child = boardsight()
            .args(["simulate", "--protocol", protocol, "--speed", "4", "--link"])
            .arg(link)
            .stdout(Stdio::null())
            .spawn()
            .expect("simulate starts");
        common::wait_for_path(link);
        Self { child }
    }
}

impl Drop for Simulator {
    fn drop(&mut self) {
        // Ctrl-C: it removes its link and ends.
        let _ = Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status();
        let _ = self.child.wait();
    }
}

/// The line `ports` printed for `path`, less the path.
fn line_for(output: &Output, path: &Path) -> String {
    let printed = String::from_utf8_lossy(&output.stdout);
    let path = path.to_string_lossy();
    printed
        .lines()
        .find_map(|line| {
            line.strip_prefix(path.as_ref())
                .filter(|rest| rest.starts_with(' '))
                .map(|rest| rest.trim().to_owned())
        })
        .unwrap_or_else(|| panic!("no line for {path} in:\n{printed}"))
}

fn probe(paths: &[&Path]) -> Output {
    let output = boardsight()
        .args(["ports", "--probe"])
        .args(paths)
        .output()
        .expect("ports runs");
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

#[test]
fn probing_names_the_simulated_dgt_centaur_and_text_boards() {
    let dir = tempfile::tempdir().expect("a folder");
    let links: Vec<PathBuf> = ["dgt", "centaur", "text"]
        .iter()
        .map(|name| dir.path().join(name))
        .collect();
    let _boards: Vec<Simulator> = ["dgt", "centaur", "text"]
        .iter()
        .zip(&links)
        .map(|(protocol, link)| Simulator::start(protocol, link))
        .collect();
    let started = Instant::now();
    let output = probe(&links.iter().map(PathBuf::as_path).collect::<Vec<_>>());
    // The ports are probed at once, each in at most about 3 s.
    assert!(
        started.elapsed() < Duration::from_secs(8),
        "{:?}",
        started.elapsed()
    );
    let dgt = line_for(&output, &links[0]);
    assert!(
        dgt.starts_with("dgt (version 1.0, serial 00001) — not listed by the system"),
        "{dgt}"
    );
    let centaur = line_for(&output, &links[1]);
    assert!(centaur.starts_with("centaur — "), "{centaur}");
    let text = line_for(&output, &links[2]);
    assert!(text.starts_with("text — "), "{text}");
}

#[test]
fn a_silent_liboard_is_no_answer_until_it_sends_a_frame() {
    let (actions, performed) = mpsc::channel();
    let stop = Arc::new(AtomicBool::new(false));
    let (path, _board) = serve_live(Device::new(Protocol::Liboard, 1.0), performed, stop.clone())
        .expect("a simulated LiBoard");
    let path = PathBuf::from(path);

    let silent = probe(&[&path]);
    assert!(
        line_for(&silent, &path).starts_with("no answer: LiBoard or text board, move a piece"),
        "{}",
        line_for(&silent, &path)
    );

    // A piece moves while the probe listens: the board sends its occupancy.
    let prober = boardsight()
        .args(["ports", "--probe"])
        .arg(&path)
        .stdout(Stdio::piped())
        .spawn()
        .expect("ports runs");
    std::thread::sleep(Duration::from_millis(1500));
    actions
        .send(Action::SetUp(Chess::default()))
        .expect("the board takes the set-up");
    let moved = prober.wait_with_output().expect("ports ends");
    assert!(
        line_for(&moved, &path).starts_with("liboard — "),
        "{}",
        line_for(&moved, &path)
    );
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
}

#[test]
fn ports_lists_given_paths_and_refuses_missing_ones() {
    let dir = tempfile::tempdir().expect("a folder");
    let link = dir.path().join("dgt");
    let _board = Simulator::start("dgt", &link);
    let listed = boardsight()
        .arg("ports")
        .arg(&link)
        .output()
        .expect("ports runs");
    assert_eq!(listed.status.code(), Some(0));
    assert_eq!(line_for(&listed, &link), "not listed by the system");

    let missing = boardsight()
        .args(["ports", "/dev/no-such-board-here"])
        .output()
        .expect("ports runs");
    assert_eq!(missing.status.code(), Some(2));
    let said = String::from_utf8_lossy(&missing.stderr);
    assert!(
        said.contains("no serial port at /dev/no-such-board-here"),
        "{said}"
    );
}

#[test]
fn a_port_in_use_is_said_so_by_the_probe() {
    let dir = tempfile::tempdir().expect("a folder");
    let link = dir.path().join("centaur");
    let _board = Simulator::start("centaur", &link);
    let held = serialport::new(link.to_string_lossy(), 1_000_000)
        .open()
        .expect("the port opens");
    let verdict = probe_port(&link.to_string_lossy()).to_string();
    assert!(
        verdict.starts_with("cannot be used: in use by another program"),
        "{verdict}"
    );
    drop(held);
}

#[test]
fn listen_says_a_port_is_in_use_in_plain_words() {
    let dir = tempfile::tempdir().expect("a folder");
    let link = dir.path().join("centaur");
    let _board = Simulator::start("centaur", &link);
    let held = serialport::new(link.to_string_lossy(), 1_000_000)
        .open()
        .expect("the port opens");
    let listen = boardsight()
        .args([
            "listen",
            "--protocol",
            "centaur",
            "--idle-exit",
            "1",
            "--port",
        ])
        .arg(&link)
        .output()
        .expect("listen runs");
    let said = String::from_utf8_lossy(&listen.stderr);
    let expected = format!(
        "boardsight: {}: in use by another program: close that program (or disconnect the \
         board there) and try again (retrying)",
        link.display()
    );
    assert!(said.lines().any(|line| line == expected), "{said}");
    drop(held);
}

/// Polls the scout until `wanted` picks a news out, for at most 10 s.
fn wait_for_news<T>(scout: &mut BoardScout, mut wanted: impl FnMut(&ScoutNews) -> Option<T>) -> T {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(found) = scout.poll().iter().find_map(&mut wanted) {
            return found;
        }
        assert!(Instant::now() < deadline, "the scout never told");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn the_scout_offers_a_board_plugged_in_and_reconnects_it_next_time() {
    let dir = tempfile::tempdir().expect("a folder");
    let link = dir.path().join("centaur");
    let path = link.to_string_lossy().into_owned();
    // The machine's ports, as a test can change them: the board is plugged in later.
    let plugged: Arc<Mutex<Vec<PortChoice>>> = Arc::default();
    let setup = |plugged: &Arc<Mutex<Vec<PortChoice>>>| {
        let plugged = plugged.clone();
        ScoutSetup {
            list: Box::new(move || Ok(plugged.lock().map_err(|e| e.to_string())?.clone())),
            interval: Duration::from_millis(50),
            probe: Arc::new(probe_port),
        }
    };
    let mut scout =
        BoardScout::start_with(setup(&plugged), Vec::new(), no_wake()).expect("the scout starts");
    let first = wait_for_news(&mut scout, |news| match news {
        ScoutNews::Ports(ports) => Some(ports.clone()),
        _ => None,
    });
    assert!(first.is_empty());

    let _board = Simulator::start("centaur", &link);
    let port = PortChoice {
        serial_number: Some("CENTAUR-42".to_owned()),
        ..PortChoice::given(&path)
    };
    plugged.lock().expect("the list").push(port.clone());
    let offer = wait_for_news(&mut scout, |news| match news {
        ScoutNews::Offer(offer) => Some(offer.clone()),
        _ => None,
    });
    assert_eq!(offer.protocol, Protocol::Centaur);
    assert_eq!(
        offer.question(),
        format!("Found a DGT Centaur on {path}: connect?")
    );
    // The user accepts: the board is known from now on.
    assert!(scout.connected(&path, Protocol::Centaur));
    let known = scout.known_boards().to_vec();
    assert_eq!(known.len(), 1);
    assert_eq!(known[0].serial_number.as_deref(), Some("CENTAUR-42"));
    drop(scout);

    // The next run: the board seen before is connected to without a question.
    let mut scout =
        BoardScout::start_with(setup(&plugged), known, no_wake()).expect("the scout starts");
    let reconnect = wait_for_news(&mut scout, |news| match news {
        ScoutNews::Reconnect { path, protocol } => Some((path.clone(), *protocol)),
        ScoutNews::Offer(offer) => panic!("a known board was offered: {offer:?}"),
        _ => None,
    });
    assert_eq!(reconnect, (path, Protocol::Centaur));
}
