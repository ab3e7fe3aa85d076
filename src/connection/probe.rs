//! Which protocol answers on a serial port: `boardsight ports --probe`, and the app's offer
//! of a board just plugged in.
//!
//! The probe first only listens (a LiBoard or a text board speaks by itself, a DGT board left
//! in update mode too), at the text boards' speed and then at 9600 baud. A port that said
//! something the probe cannot read is left alone. A silent port then gets one harmless
//! question, a ping both polled protocols answer: the Centaur's discovery `4D 4E 87 00 00 07`,
//! whose first byte a DGT board reads as "send your version" (it ignores the rest), at 9600
//! baud for a DGT board and again at 1,000,000 for a Centaur. Only a DGT board that answered
//! is asked more (its serial number). Then it listens again, at one speed and the other,
//! until about 3 s have passed (a LiBoard restarts when its port opens and sends its state
//! about 3 s later). A port that said something unreadable is only listened to from then on,
//! at each speed in turn (a board heard at the wrong speed reads as garbage).
//!
//! [`Probe`] is the pure part: it says what to do next and decides from the bytes heard.
//! [`probe_port`] does it on a port, and [`probe_ports`] on several at once.

use std::fmt;
use std::io;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::background::WorkerThread;
use crate::protocol::{HostSession, Micros, Protocol, centaur, dgt, liboard, text};
use crate::reading::Reading;

use super::port_error::port_error_words;

/// What a probe found on a port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A board answered in this protocol; `details` says what it told of itself.
    Found {
        protocol: Protocol,
        details: Option<String>,
    },
    /// Nothing came, even to the ping: a LiBoard or a text board that has nothing to say
    /// until a piece moves (or no board at all).
    NoAnswer,
    /// Bytes came that no protocol reads: another device, or a board at another speed.
    NotUnderstood { bytes: usize },
    /// The port could not be opened or failed, in words (`port_error_words`).
    Unusable(String),
}

impl Verdict {
    /// The protocol found, if one was.
    pub fn protocol(&self) -> Option<Protocol> {
        match self {
            Self::Found { protocol, .. } => Some(*protocol),
            _ => None,
        }
    }
}

/// What `ports --probe` prints after the port's path.
pub const NO_ANSWER: &str = "no answer: LiBoard or text board, move a piece";

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Found {
                protocol,
                details: None,
            } => write!(f, "{protocol}"),
            Self::Found {
                protocol,
                details: Some(details),
            } => write!(f, "{protocol} ({details})"),
            Self::NoAnswer => f.write_str(NO_ANSWER),
            Self::NotUnderstood { bytes } => write!(
                f,
                "not understood: {bytes} bytes in no protocol boardsight knows (another device, \
                 or a board at another speed)"
            ),
            Self::Unusable(words) => write!(f, "cannot be used: {words}"),
        }
    }
}

/// What the probe does next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Listen at `baud` for `time`, writing nothing.
    Listen { baud: u32, time: Duration },
    /// Write `bytes` at `baud`, then listen for `time`.
    Ask {
        baud: u32,
        bytes: Vec<u8>,
        time: Duration,
    },
    /// The probe is over.
    Done(Verdict),
}

/// The text boards' speed (`Protocol::Text`).
const TEXT_BAUD: u32 = 115_200;
/// LiBoard's and DGT's speed.
const SLOW_BAUD: u32 = 9600;
/// How long each passive step listens.
const LISTEN_TIME: Duration = Duration::from_millis(500);
const ANSWER_TIME: Duration = Duration::from_millis(400);
/// A probe takes at most about this long (each step listens out its time).
const WHOLE_PROBE: Duration = Duration::from_millis(3000);

/// The pure probe: told what was heard, it says what to do next and, in the end, what the
/// port is.
#[derive(Default)]
pub struct Probe {
    stage: Stage,
    /// What is being heard in the current step.
    window: Window,
    /// How long the steps so far were meant to take.
    elapsed: Duration,
    /// Bytes heard in all steps.
    heard_bytes: usize,
    /// The DGT board's firmware version, once it answered the ping.
    dgt_version: Option<(u8, u8)>,
    /// Whether the port said something no protocol reads: it is written nothing more.
    talked: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Stage {
    #[default]
    Start,
    ListenText,
    ListenSlow,
    PingSlow,
    AskDgtSerial,
    PingCentaur,
    /// Listening again at this speed, until the probe's time is up.
    Listen(u32),
}

impl Probe {
    pub fn new() -> Self {
        Self::default()
    }

    /// Bytes heard `at` (time since the current step began).
    pub fn heard(&mut self, at: Duration, bytes: &[u8]) {
        self.heard_bytes += bytes.len();
        self.window.heard(at, bytes);
    }

    /// Whether what was heard in this step already decides it: the caller may end the step.
    pub fn decided(&mut self, now: Duration) -> bool {
        self.window.found(now).is_some()
    }

    /// The step after the current one ended at `now` (time since it began; 0 to start).
    pub fn next(&mut self, now: Duration) -> Step {
        let found = self.window.found(now);
        let (baud, step_time) = match self.step() {
            Step::Listen { baud, time } | Step::Ask { baud, time, .. } => (baud, time),
            Step::Done(_) => (TEXT_BAUD, Duration::ZERO),
        };
        self.elapsed += step_time;
        // A port that says things no protocol reads is not a board to write to; it may
        // be one at the other speed, which listening finds out.
        self.talked |= !self.window.raw.is_empty();
        self.window = Window::default();
        if let Some(found) = found {
            return self.after_finding(found);
        }
        let time_left = WHOLE_PROBE.saturating_sub(self.elapsed);
        self.stage = match self.stage {
            Stage::Start => Stage::ListenText,
            Stage::ListenText => Stage::ListenSlow,
            // A DGT board that gave its version but not its serial number is still one.
            Stage::AskDgtSerial => return Step::Done(self.dgt_verdict(None)),
            _ if time_left.is_zero() => {
                return Step::Done(if self.talked {
                    Verdict::NotUnderstood {
                        bytes: self.heard_bytes,
                    }
                } else {
                    Verdict::NoAnswer
                });
            }
            Stage::ListenSlow if !self.talked => Stage::PingSlow,
            Stage::PingSlow if !self.talked => Stage::PingCentaur,
            // Then only listening, at one speed and the other: a LiBoard restarts when its
            // port opens and sends its state about 3 s later; a text board may start late.
            _ => Stage::Listen(if baud == SLOW_BAUD {
                TEXT_BAUD
            } else {
                SLOW_BAUD
            }),
        };
        self.step()
    }

    fn after_finding(&mut self, found: Found) -> Step {
        match found {
            Found::DgtVersion(version) if self.stage != Stage::AskDgtSerial => {
                // It answered the harmless ping: one more question, for its serial number.
                self.dgt_version = Some(version);
                self.stage = Stage::AskDgtSerial;
                self.step()
            }
            Found::DgtVersion(_) | Found::Dgt => Step::Done(self.dgt_verdict(None)),
            Found::DgtSerial(serial) => Step::Done(self.dgt_verdict(Some(serial))),
            Found::Protocol(protocol) => Step::Done(Verdict::Found {
                protocol,
                details: None,
            }),
        }
    }

    fn dgt_verdict(&self, serial: Option<String>) -> Verdict {
        let details: Vec<String> = [
            self.dgt_version
                .map(|(major, minor)| format!("version {major}.{minor}")),
            serial.map(|s| format!("serial {s}")),
        ]
        .into_iter()
        .flatten()
        .collect();
        Verdict::Found {
            protocol: Protocol::Dgt,
            details: (!details.is_empty()).then(|| details.join(", ")),
        }
    }

    fn step(&self) -> Step {
        match self.stage {
            Stage::Start => Step::Listen {
                baud: TEXT_BAUD,
                time: Duration::ZERO,
            },
            Stage::ListenText => Step::Listen {
                baud: TEXT_BAUD,
                time: LISTEN_TIME,
            },
            Stage::ListenSlow => Step::Listen {
                baud: SLOW_BAUD,
                time: LISTEN_TIME,
            },
            Stage::PingSlow => Step::Ask {
                baud: SLOW_BAUD,
                bytes: centaur::DISCOVERY.to_vec(),
                time: ANSWER_TIME,
            },
            Stage::AskDgtSerial => Step::Ask {
                baud: SLOW_BAUD,
                bytes: vec![dgt::SERIAL_NUMBER_REQUEST],
                time: ANSWER_TIME,
            },
            Stage::PingCentaur => Step::Ask {
                baud: centaur::BAUD_RATE,
                bytes: centaur::DISCOVERY.to_vec(),
                time: ANSWER_TIME,
            },
            Stage::Listen(baud) => Step::Listen {
                baud,
                time: LISTEN_TIME.min(WHOLE_PROBE.saturating_sub(self.elapsed)),
            },
        }
    }
}

/// What the bytes of one step show.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Found {
    /// A DGT board's version message.
    DgtVersion((u8, u8)),
    /// A DGT board's serial number message.
    DgtSerial(String),
    /// Another DGT message (a field update or a board dump: a board left in update mode).
    Dgt,
    Protocol(Protocol),
}

/// The bytes heard in one step, and the codecs of the boards that speak by themselves.
#[derive(Default)]
struct Window {
    raw: Vec<u8>,
    text: text::Host,
    liboard: liboard::Host,
    text_lines: usize,
    liboard_frames: usize,
}

fn micros(time: Duration) -> Micros {
    time.as_micros().try_into().unwrap_or(Micros::MAX)
}

fn occupancies(readings: &[Reading]) -> usize {
    readings
        .iter()
        .filter(|r| matches!(r, Reading::Occupancy(_)))
        .count()
}

impl Window {
    fn heard(&mut self, at: Duration, bytes: &[u8]) {
        self.raw.extend_from_slice(bytes);
        let mut readings = Vec::new();
        self.text.receive(bytes, micros(at), &mut readings);
        self.text_lines += occupancies(&readings);
        readings.clear();
        self.liboard.receive(bytes, micros(at), &mut readings);
        self.liboard_frames += occupancies(&readings);
    }

    /// What the bytes so far show, the surest first: a checksummed Centaur packet, a DGT
    /// message of its exact length, text lines, then LiBoard frames (eight bytes of anything)
    /// only where nothing in the step was malformed.
    fn found(&mut self, now: Duration) -> Option<Found> {
        if find_centaur_address(&self.raw).is_some() {
            return Some(Found::Protocol(Protocol::Centaur));
        }
        if let Some(found) = find_dgt_message(&self.raw) {
            return Some(found);
        }
        if self.text_lines > 0 && self.text_lines as u64 > self.text.dropped() {
            return Some(Found::Protocol(Protocol::Text));
        }
        // A frame is whole only after a silence; time has passed since the last bytes.
        let mut readings = Vec::new();
        self.liboard.tick(micros(now), &mut readings);
        self.liboard_frames += occupancies(&readings);
        let malformed = self.liboard.dropped() + self.text.dropped();
        (self.liboard_frames > 0 && malformed == 0).then_some(Found::Protocol(Protocol::Liboard))
    }
}

/// The address in a Centaur's answer to discovery, if the bytes hold one.
pub fn find_centaur_address(bytes: &[u8]) -> Option<[u8; 2]> {
    bytes.windows(6).find_map(|w| {
        let address = [w[3], w[4]];
        (w == centaur::encode_packet(0x87, address, &[]).as_slice()).then_some(address)
    })
}

/// A DGT board's message in the bytes: its version, serial number, or a field update or
/// board dump (a board left in update mode).
fn find_dgt_message(bytes: &[u8]) -> Option<Found> {
    (0..bytes.len()).find_map(|start| {
        let rest = &bytes[start..];
        let data = |id: u8, len: usize| {
            let whole = rest.get(..len + 3)?;
            (whole[..3] == dgt::message(id, &vec![0; len])[..3]).then(|| &whole[3..])
        };
        if let Some(&[major, minor]) = data(dgt::VERSION, 2) {
            return Some(Found::DgtVersion((major, minor)));
        }
        if let Some(digits) = data(dgt::SERIAL_NUMBER, 5)
            && digits.iter().all(u8::is_ascii_graphic)
        {
            return Some(Found::DgtSerial(
                String::from_utf8_lossy(digits).into_owned(),
            ));
        }
        if let Some(&[square, code]) = data(dgt::FIELD_UPDATE, 2)
            && square < 64
            && code <= 12
        {
            return Some(Found::Dgt);
        }
        if let Some(codes) = data(dgt::BOARD_DUMP, 64)
            && codes.iter().all(|&c| c <= 12)
        {
            return Some(Found::Dgt);
        }
        None
    })
}

/// How long one read waits for bytes: short enough to end a step soon after a decision.
const READ_WAIT: Duration = Duration::from_millis(20);

/// Probes the port at `path` (see the module's notes); takes at most about 3 s.
pub fn probe_port(path: &str) -> Verdict {
    let mut port = match serialport::new(path, TEXT_BAUD).timeout(READ_WAIT).open() {
        Ok(port) => port,
        Err(e) => return Verdict::Unusable(port_error_words(path, e)),
    };
    match run_probe(port.as_mut()) {
        Ok(verdict) => verdict,
        Err(e) => Verdict::Unusable(port_error_words(path, e)),
    }
}

fn run_probe(port: &mut dyn serialport::SerialPort) -> io::Result<Verdict> {
    let mut probe = Probe::new();
    let mut step = probe.next(Duration::ZERO);
    let mut buffer = [0u8; 256];
    loop {
        let time = match step {
            Step::Done(verdict) => return Ok(verdict),
            Step::Listen { baud, time } => {
                port.set_baud_rate(baud)?;
                time
            }
            Step::Ask { baud, bytes, time } => {
                port.set_baud_rate(baud)?;
                port.write_all(&bytes)?;
                port.flush()?;
                time
            }
        };
        let began = Instant::now();
        while began.elapsed() < time {
            match port.read(&mut buffer) {
                Ok(0) => {}
                Ok(n) => probe.heard(began.elapsed(), &buffer[..n]),
                Err(e) if crate::connection::is_quiet(&e) => {}
                Err(e) => return Err(e),
            }
            if probe.decided(began.elapsed()) {
                break;
            }
        }
        step = probe.next(began.elapsed());
    }
}

/// Probes every port at once, each on its own thread; the verdicts in the order given.
pub fn probe_ports(paths: &[String]) -> Vec<Verdict> {
    let (tx, rx) = mpsc::channel();
    let mut threads = Vec::new();
    let mut verdicts: Vec<Option<Verdict>> = vec![None; paths.len()];
    for (index, path) in paths.iter().enumerate() {
        let tx = tx.clone();
        let path_owned = path.clone();
        match WorkerThread::spawn(&format!("probe {path}"), move || {
            let verdict = probe_port(&path_owned);
            // The caller waits for every thread; it cannot have gone.
            let _ = tx.send((index, verdict));
        }) {
            Ok(thread) => threads.push(thread),
            Err(e) => verdicts[index] = Some(Verdict::Unusable(e.to_string())),
        }
    }
    drop(tx);
    for (index, verdict) in rx {
        verdicts[index] = Some(verdict);
    }
    drop(threads);
    verdicts
        .into_iter()
        .map(|v| v.unwrap_or_else(|| Verdict::Unusable("the probe failed".to_owned())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Bitboard;

    const MS: Duration = Duration::from_millis(1);

    /// Runs a probe against a board that answers each step with `answer(step)`, heard 10 ms
    /// into the step; returns the steps taken and the verdict.
    fn run(mut answer: impl FnMut(&Step) -> Vec<u8>) -> (Vec<Step>, Verdict) {
        let mut probe = Probe::new();
        let mut steps = Vec::new();
        let mut step = probe.next(Duration::ZERO);
        loop {
            if let Step::Done(verdict) = step {
                return (steps, verdict);
            }
            let bytes = answer(&step);
            let time = match &step {
                Step::Listen { time, .. } | Step::Ask { time, .. } => *time,
                Step::Done(_) => Duration::ZERO,
            };
            steps.push(step);
            if !bytes.is_empty() {
                probe.heard(10 * MS, &bytes);
            }
            step = probe.next(time);
        }
    }

    fn asks(steps: &[Step]) -> Vec<(u32, Vec<u8>)> {
        steps
            .iter()
            .filter_map(|s| match s {
                Step::Ask { baud, bytes, .. } => Some((*baud, bytes.clone())),
                _ => None,
            })
            .collect()
    }

    fn total_time(steps: &[Step]) -> Duration {
        steps
            .iter()
            .map(|s| match s {
                Step::Listen { time, .. } | Step::Ask { time, .. } => *time,
                Step::Done(_) => Duration::ZERO,
            })
            .sum()
    }

    #[test]
    fn a_silent_port_gets_only_the_ping_and_is_no_answer() {
        let (steps, verdict) = run(|_| Vec::new());
        assert_eq!(verdict, Verdict::NoAnswer);
        assert_eq!(
            verdict.to_string(),
            "no answer: LiBoard or text board, move a piece"
        );
        assert_eq!(
            asks(&steps),
            [
                (9600, centaur::DISCOVERY.to_vec()),
                (1_000_000, centaur::DISCOVERY.to_vec())
            ],
            "the same harmless ping, at each polled board's speed"
        );
        assert!(
            steps
                .first()
                .is_some_and(|s| matches!(s, Step::Listen { .. }))
        );
        assert!(
            total_time(&steps) <= WHOLE_PROBE,
            "{:?}",
            total_time(&steps)
        );
    }

    #[test]
    fn a_dgt_board_answers_the_ping_and_is_asked_its_serial_number() {
        let mut board = dgt::Board::default();
        let pieces = [None; 64];
        let (steps, verdict) = run(|step| match step {
            Step::Ask { bytes, .. } => board.receive(bytes, &pieces, None, 0),
            _ => Vec::new(),
        });
        assert_eq!(
            verdict,
            Verdict::Found {
                protocol: Protocol::Dgt,
                details: Some("version 1.0, serial 00001".to_owned())
            }
        );
        assert_eq!(verdict.to_string(), "dgt (version 1.0, serial 00001)");
        assert_eq!(
            asks(&steps),
            [
                (9600, centaur::DISCOVERY.to_vec()),
                (9600, vec![dgt::SERIAL_NUMBER_REQUEST])
            ]
        );
    }

    #[test]
    fn a_centaur_answers_its_discovery_at_its_speed() {
        let mut board = centaur::Board::new([0x06, 0x50]);
        let (steps, verdict) = run(|step| match step {
            // At 9600 baud a Centaur hears nothing it can read.
            Step::Ask { baud, bytes, .. } if *baud == centaur::BAUD_RATE => {
                board.receive(bytes, Bitboard::EMPTY, 0)
            }
            _ => Vec::new(),
        });
        assert_eq!(verdict.protocol(), Some(Protocol::Centaur));
        assert_eq!(verdict.to_string(), "centaur");
        assert_eq!(asks(&steps).len(), 2);
    }

    #[test]
    fn a_text_board_is_heard_without_a_word_written() {
        let line = text::encode(Bitboard(0xffff_0000_0000_ffff));
        let (steps, verdict) = run(|step| match step {
            Step::Listen { time, .. } if !time.is_zero() => line.clone(),
            _ => Vec::new(),
        });
        assert_eq!(verdict.protocol(), Some(Protocol::Text));
        assert!(asks(&steps).is_empty(), "{steps:?}");
    }

    #[test]
    fn a_liboard_frame_is_heard_without_a_word_written() {
        let frame = liboard::encode(Bitboard(0xffff_0000_0000_ffff)).to_vec();
        let mut listens = 0;
        let (steps, verdict) = run(|step| match step {
            // The board is silent until a piece moves in the last listening step.
            Step::Listen { time, .. } if !time.is_zero() => {
                listens += 1;
                if listens == 3 {
                    frame.clone()
                } else {
                    Vec::new()
                }
            }
            _ => Vec::new(),
        });
        assert_eq!(verdict.protocol(), Some(Protocol::Liboard));
        assert_eq!(verdict.to_string(), "liboard");
        assert_eq!(asks(&steps).len(), 2, "the pings came before the frame");
    }

    #[test]
    fn a_port_talking_gibberish_is_never_written_to() {
        let (steps, verdict) = run(|step| match step {
            Step::Listen { time, .. } if !time.is_zero() => b"\x01\x02garbage".to_vec(),
            _ => Vec::new(),
        });
        let listens = steps.len();
        assert_eq!(verdict, Verdict::NotUnderstood { bytes: 9 * listens });
        assert!(asks(&steps).is_empty(), "{steps:?}");
        assert!(
            total_time(&steps) <= WHOLE_PROBE,
            "{:?}",
            total_time(&steps)
        );
        let speeds: Vec<u32> = steps
            .iter()
            .filter_map(|s| match s {
                Step::Listen { baud, .. } => Some(*baud),
                _ => None,
            })
            .collect();
        assert!(
            speeds.contains(&9600) && speeds.contains(&115_200),
            "{speeds:?}"
        );
    }

    #[test]
    fn a_board_heard_at_the_wrong_speed_first_is_found_at_the_other() {
        // A text board at 9600 baud: at 115,200 its lines come out as garbage.
        let line = text::encode(Bitboard(0xffff_0000_0000_ffff));
        let (steps, verdict) = run(|step| match step {
            Step::Listen { baud: 115_200, .. } => vec![0xf0, 0x0f, 0x80],
            Step::Listen { baud: 9600, .. } => line.clone(),
            _ => Vec::new(),
        });
        assert_eq!(verdict.protocol(), Some(Protocol::Text));
        assert!(asks(&steps).is_empty(), "{steps:?}");
    }

    #[test]
    fn a_board_that_starts_talking_after_the_pings_is_not_asked_again() {
        let mut listens = 0;
        let (steps, verdict) = run(|step| match step {
            Step::Listen { .. } => {
                listens += 1;
                if listens >= 3 {
                    b"?\x01".to_vec()
                } else {
                    Vec::new()
                }
            }
            _ => Vec::new(),
        });
        assert!(
            matches!(verdict, Verdict::NotUnderstood { .. }),
            "{verdict:?}"
        );
        assert_eq!(asks(&steps).len(), 2, "the pings only: {steps:?}");
    }

    #[test]
    fn a_dgt_board_left_in_update_mode_is_known_by_its_updates() {
        let update = dgt::encode_update(shakmaty::Square::E2, None);
        let (steps, verdict) = run(|step| match step {
            Step::Listen { time, .. } if !time.is_zero() => update.clone(),
            _ => Vec::new(),
        });
        assert_eq!(verdict.protocol(), Some(Protocol::Dgt));
        assert!(asks(&steps).is_empty());
    }

    #[test]
    fn a_centaur_address_is_found_among_other_bytes() {
        let mut bytes = vec![0x00, 0x87, 0x13];
        bytes.extend(centaur::encode_packet(0x87, [0x06, 0x50], &[]));
        assert_eq!(find_centaur_address(&bytes), Some([0x06, 0x50]));
        assert_eq!(find_centaur_address(&[0x87, 0, 6, 1, 2, 3]), None);
    }
}
