//! The built-in simulated board: on a real pseudo-terminal, speaking the same bytes as a
//! DGT Centaur, so everything after the serial port runs as it does with a real board, the
//! board's lights and beeper included.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

use shakmaty::{Bitboard, Chess, Piece, Rank, Role, Square};

use crate::background::{Wake, WorkerThread};
use crate::game::GameRecord;
use crate::protocol::{Protocol, Signal};
use crate::sim::device::Device;
use crate::sim::pty::serve_live;
use crate::sim::{Action, HandStyle, PhysicalBoard, script_games};

/// The protocol the built-in board speaks: the Centaur's, whose LEDs light the squares.
pub const SIMULATED_PROTOCOL: Protocol = Protocol::Centaur;

/// A virtual sensor board: clicks lift and place pieces, or a demo game plays itself.
pub struct SimulatedBoard {
    actions: Sender<Action>,
    stop: Arc<AtomicBool>,
    thread: WorkerThread,
    path: String,
    /// What the device's board holds, mirrored to know which piece a click lifts.
    mirror: PhysicalBoard,
    hand: Vec<Piece>,
    demo: Option<(Arc<AtomicBool>, WorkerThread)>,
    /// The lights and sounds the host asked of the board, as the board heard them.
    signals: Receiver<Signal>,
    lit: Bitboard,
}

impl SimulatedBoard {
    /// Starts the board on a new pseudo-terminal, set up at the start position (Unix only:
    /// elsewhere this says the simulator cannot run); `wake` hears its lights change.
    pub fn start(wake: Wake) -> std::io::Result<Self> {
        let (actions, receiver) = mpsc::channel();
        let stop = Arc::new(AtomicBool::new(false));
        let (heard, signals) = mpsc::channel();
        let sink = Box::new(move |signal| {
            if heard.send(signal).is_ok() {
                wake();
            }
        });
        let mut device = Device::new(SIMULATED_PROTOCOL, 1.0);
        device.tell_signals(sink);
        let (path, thread) = serve_live(device, receiver, stop.clone())?;
        let mut board = Self {
            actions,
            stop,
            thread,
            path,
            mirror: PhysicalBoard::empty(),
            hand: Vec::new(),
            demo: None,
            signals,
            lit: Bitboard::EMPTY,
        };
        board.perform(Action::SetUp(Chess::default()));
        Ok(board)
    }

    pub fn path(&self) -> &str {
        &self.path
    }

    pub fn occupancy(&self) -> shakmaty::Bitboard {
        self.mirror.occupancy()
    }

    /// The squares whose LED is lit, as the board last heard; also the sounds since the
    /// last call.
    pub fn hear_signals(&mut self) -> Vec<Signal> {
        let heard: Vec<Signal> = self.signals.try_iter().collect();
        for signal in &heard {
            if let Signal::Lights(squares) = signal {
                self.lit = *squares;
            }
        }
        heard
    }

    /// The squares lit on the board.
    pub fn lit(&self) -> Bitboard {
        self.lit
    }

    fn perform(&mut self, action: Action) {
        self.mirror.apply(&action);
        let _ = self.actions.send(action);
    }

    /// A click on the virtual board: lifts the piece there, or puts down the piece in hand.
    /// A pawn put on its last rank becomes `promotion`.
    pub fn click(&mut self, square: Square, promotion: Role) {
        self.stop_demo();
        match self.mirror.pieces()[square as usize] {
            Some(piece) => {
                self.hand.push(piece);
                self.perform(Action::Lift(square));
            }
            None => {
                let Some(mut piece) = self.hand.pop() else {
                    return;
                };
                let last_rank = piece.color.fold_wb(Rank::Eighth, Rank::First);
                if piece.role == Role::Pawn && square.rank() == last_rank {
                    piece.role = promotion;
                }
                self.perform(Action::Place(square, piece));
            }
        }
    }

    /// Pieces in the hand, last lifted last.
    pub fn hand(&self) -> &[Piece] {
        &self.hand
    }

    /// Sets the pieces up for a position at once.
    pub fn set_up(&mut self, position: &Chess) {
        self.stop_demo();
        self.hand.clear();
        self.perform(Action::SetUp(position.clone()));
    }

    /// Plays games the way a person would, from their set-up, in the background.
    pub fn start_demo(&mut self, games: &[GameRecord], speed: f64) {
        self.start_demo_with(games, speed, &HandStyle::default());
    }

    /// Plays games with `style`'s hands (`HandStyle::lively()` slides, knocks, nudges,
    /// leaves pawns off-centre…), from their set-up, in the background.
    pub fn start_demo_with(&mut self, games: &[GameRecord], speed: f64, style: &HandStyle) {
        self.stop_demo();
        let script = script_games(games, style);
        for (_, action) in &script {
            self.mirror.apply(action);
        }
        self.hand.clear();
        let stop = Arc::new(AtomicBool::new(false));
        let actions = self.actions.clone();
        let thread = {
            let stop = stop.clone();
            WorkerThread::spawn("demo game", move || {
                let started = Instant::now();
                for (at, action) in script {
                    let due = started + Duration::from_secs_f64(at as f64 / 1000.0 / speed);
                    while Instant::now() < due {
                        if stop.load(Ordering::Relaxed) {
                            return;
                        }
                        std::thread::sleep(Duration::from_millis(10).min(due - Instant::now()));
                    }
                    if actions.send(action).is_err() {
                        return;
                    }
                }
            })
        };
        match thread {
            Ok(thread) => self.demo = Some((stop, thread)),
            Err(e) => eprintln!("boardsight: {e}"),
        }
    }

    pub fn demo_running(&self) -> bool {
        self.demo.as_ref().is_some_and(|(_, t)| !t.is_finished())
    }

    /// Stops a demo where it is; the board keeps the pieces as they stand.
    pub fn stop_demo(&mut self) {
        if let Some((stop, mut thread)) = self.demo.take() {
            stop.store(true, Ordering::Relaxed);
            thread.wait();
        }
    }
}

impl Drop for SimulatedBoard {
    fn drop(&mut self) {
        self.stop_demo();
        self.stop.store(true, Ordering::Relaxed);
        self.thread.wait();
    }
}
