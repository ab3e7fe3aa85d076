//! A live session following a simulated board on a real pty, as a hand plays on it; every
//! byte the board receives is kept.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

use boardsight::background::{WorkerThread, no_wake};
use boardsight::protocol::Protocol;
use boardsight::recognizer::Config;
use boardsight::session::Session;
use boardsight::sim::device::Device;
use boardsight::sim::pty::serve_live;
use boardsight::sim::{Action, HandStyle, move_actions};
use shakmaty::{Chess, Move, Role, Square};

pub struct Bench {
    pub session: Session,
    actions: Sender<Action>,
    host_bytes: Receiver<Vec<u8>>,
    /// Every byte the board received so far.
    pub received: Vec<u8>,
    stop: Arc<AtomicBool>,
    _device: WorkerThread,
}

impl Bench {
    pub fn start(protocol: Protocol) -> Self {
        let (actions, performed) = mpsc::channel();
        let (tap, host_bytes) = mpsc::channel();
        let mut device = Device::new(protocol, 1.0);
        device.tap_host_bytes(Box::new(move |bytes: &[u8]| {
            let _ = tap.send(bytes.to_vec());
        }));
        let stop = Arc::new(AtomicBool::new(false));
        let (path, thread) = serve_live(device, performed, stop.clone()).expect("a pty");
        actions
            .send(Action::SetUp(Chess::default()))
            .expect("the board takes actions");
        let mut session = Session::new(None, no_wake());
        session.connect(path, protocol, Config::default());
        let mut bench = Self {
            session,
            actions,
            host_bytes,
            received: Vec::new(),
            stop,
            _device: thread,
        };
        bench.run_until("the game starts", |s| s.snapshot().has_started);
        bench
    }

    pub fn run_for(&mut self, time: Duration) {
        let until = Instant::now() + time;
        while Instant::now() < until {
            self.session.wait(Duration::from_millis(10));
            self.session.update(Instant::now());
        }
        self.received.extend(self.host_bytes.try_iter().flatten());
    }

    pub fn run_until(&mut self, what: &str, done: impl Fn(&Session) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(20);
        while !done(&self.session) {
            assert!(Instant::now() < deadline, "{what}: never");
            self.run_for(Duration::from_millis(20));
        }
    }

    /// A hand makes `mv` on the board, a lift or place at a time.
    pub fn play(&mut self, mv: Move) {
        let position = self.session.snapshot().position.clone();
        for action in move_actions(&position, mv, &HandStyle::default()) {
            self.actions.send(action).expect("the board takes actions");
            self.run_for(Duration::from_millis(150));
        }
    }

    pub fn perform(&mut self, action: Action) {
        self.actions.send(action).expect("the board takes actions");
        self.run_for(Duration::from_millis(150));
    }
}

impl Drop for Bench {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// 1. e4.
pub fn e2e4() -> Move {
    Move::Normal {
        role: Role::Pawn,
        from: Square::E2,
        capture: None,
        to: Square::E4,
        promotion: None,
    }
}
