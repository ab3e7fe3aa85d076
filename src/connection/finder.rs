//! Boards found, not configured: the rule that decides, when ports come and go, which board
//! to reconnect by itself, which port to probe and which board to offer. Pure: ports and
//! probe verdicts in, actions out; [`super::scout`] runs it on the real ports.

use serde::{Deserialize, Serialize};

use super::ports::PortChoice;
use super::probe::Verdict;
use crate::protocol::{Protocol, protocol_by_name};

/// A board connected to before, kept between runs (the app stores the list in its
/// settings): known again by its USB serial number on whatever port it comes back, or, for a
/// port without one (a built-in UART such as a Pi's /dev/ttyS0), by the port's path.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnownBoard {
    /// The USB serial number, or `None` for a port known by its path.
    pub serial_number: Option<String>,
    /// The port's path when last connected.
    pub path: String,
    /// The protocol it spoke.
    #[serde(with = "protocol_by_name")]
    pub protocol: Protocol,
    /// The port's description (USB product name) when last connected.
    pub description: String,
}

impl KnownBoard {
    fn is(&self, port: &PortChoice) -> bool {
        match (&self.serial_number, &port.serial_number) {
            (Some(known), Some(seen)) => known == seen,
            (None, None) => self.path == port.path,
            _ => false,
        }
    }
}

/// What the app is to do about a port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FinderAction {
    /// A board seen before is back: connect to it with its protocol, without asking.
    Reconnect { path: String, protocol: Protocol },
    /// A port with no known board: find out what answers on it (`probe_port`), then tell
    /// [`BoardFinder::probed`].
    Probe(PortChoice),
    /// A board answered on a new port: ask the user ([`Offer::question`]).
    Offer(Offer),
}

/// A board found on a port, to offer the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offer {
    pub path: String,
    pub protocol: Protocol,
    /// What the board is, in words: "DGT Centaur".
    pub description: String,
}

impl Offer {
    /// "Found a DGT Centaur on /dev/ttyS0: connect?"
    pub fn question(&self) -> String {
        let article = if self.description.starts_with(['A', 'E', 'I', 'O', 'U']) {
            "an"
        } else {
            "a"
        };
        format!(
            "Found {article} {} on {}: connect?",
            self.description, self.path
        )
    }
}

/// The kind of board a protocol's answer shows.
pub fn board_name(protocol: Protocol) -> &'static str {
    match protocol {
        Protocol::Centaur => "DGT Centaur",
        Protocol::Dgt => "DGT board",
        Protocol::Liboard => "LiBoard",
        Protocol::Text => "text board",
    }
}

/// The rule, with the boards it knows and the board connected now.
#[derive(Clone, Debug, Default)]
pub struct BoardFinder {
    known: Vec<KnownBoard>,
    /// The port connected to now, as it was listed (or only its path, if it was not).
    connected: Option<PortChoice>,
}

impl BoardFinder {
    /// A finder that knows `known` (as kept from earlier runs).
    pub fn new(known: Vec<KnownBoard>) -> Self {
        Self {
            known,
            connected: None,
        }
    }

    /// The boards known, to keep between runs.
    pub fn known_boards(&self) -> &[KnownBoard] {
        &self.known
    }

    /// What to do about ports that appeared (on the first look: every port there).
    pub fn appeared(&mut self, ports: &[PortChoice]) -> Vec<FinderAction> {
        let mut actions = Vec::new();
        let mut reconnecting = false;
        for port in ports {
            if let Some(connected) = &self.connected {
                if connected.path == port.path {
                    // The worker reopens its own port by itself.
                    continue;
                }
                let same_board = connected.serial_number.is_some()
                    && connected.serial_number == port.serial_number;
                if same_board && let Some(known) = self.known.iter().find(|k| k.is(port)) {
                    // The board came back on another port (ttyACM0 became ttyACM1).
                    actions.push(FinderAction::Reconnect {
                        path: port.path.clone(),
                        protocol: known.protocol,
                    });
                    reconnecting = true;
                    continue;
                }
            }
            match self.known.iter().find(|k| k.is(port)) {
                // One board at a time: a second known board is offered, not taken.
                Some(known) if self.connected.is_none() && !reconnecting => {
                    actions.push(FinderAction::Reconnect {
                        path: port.path.clone(),
                        protocol: known.protocol,
                    });
                    reconnecting = true;
                }
                Some(known) => actions.push(FinderAction::Offer(Offer {
                    path: port.path.clone(),
                    protocol: known.protocol,
                    description: board_name(known.protocol).to_owned(),
                })),
                None => actions.push(FinderAction::Probe(port.clone())),
            }
        }
        actions
    }

    /// What to do once the port asked for by `FinderAction::Probe` was probed: offer the
    /// board that answered, or nothing.
    pub fn probed(&self, port: &PortChoice, verdict: &Verdict) -> Option<FinderAction> {
        let protocol = verdict.protocol()?;
        if self.connected.as_ref().is_some_and(|c| c.path == port.path) {
            return None;
        }
        Some(FinderAction::Offer(Offer {
            path: port.path.clone(),
            protocol,
            description: board_name(protocol).to_owned(),
        }))
    }

    /// The app connected to `port` with `protocol` (the user's choice or an accepted offer):
    /// the board is known from now on. Returns whether the known boards changed (to save).
    pub fn connected(&mut self, port: &PortChoice, protocol: Protocol) -> bool {
        self.connected = Some(port.clone());
        let board = KnownBoard {
            serial_number: port.serial_number.clone(),
            path: port.path.clone(),
            protocol,
            description: port.description.clone(),
        };
        match self.known.iter().position(|k| k.is(port)) {
            Some(index) if self.known[index] == board => false,
            Some(index) => {
                self.known[index] = board;
                true
            }
            None => {
                self.known.push(board);
                true
            }
        }
    }

    /// The app disconnected (the user's choice): a board that appears may be taken again.
    pub fn disconnected(&mut self) {
        self.connected = None;
    }

    /// Forgets the board with this USB serial number (or, without one, at this path).
    /// Returns whether one was forgotten.
    pub fn forget(&mut self, port: &PortChoice) -> bool {
        let before = self.known.len();
        self.known.retain(|k| !k.is(port));
        self.known.len() != before
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::connection::UsbId;

    fn usb(path: &str, serial: &str) -> PortChoice {
        PortChoice {
            path: path.to_owned(),
            description: "Arduino Uno".to_owned(),
            serial_number: Some(serial.to_owned()),
            usb_id: Some(UsbId {
                vid: 0x2341,
                pid: 0x0043,
            }),
        }
    }

    fn uart(path: &str) -> PortChoice {
        PortChoice {
            path: path.to_owned(),
            description: "serial".to_owned(),
            serial_number: None,
            usb_id: None,
        }
    }

    fn known(serial: Option<&str>, path: &str, protocol: Protocol) -> KnownBoard {
        KnownBoard {
            serial_number: serial.map(str::to_owned),
            path: path.to_owned(),
            protocol,
            description: "Arduino Uno".to_owned(),
        }
    }

    #[test]
    fn a_board_seen_before_reconnects_on_whatever_port_it_comes() {
        let mut finder = BoardFinder::new(vec![known(
            Some("85439"),
            "/dev/ttyACM0",
            Protocol::Liboard,
        )]);
        assert_eq!(
            finder.appeared(&[usb("/dev/ttyACM1", "85439")]),
            [FinderAction::Reconnect {
                path: "/dev/ttyACM1".to_owned(),
                protocol: Protocol::Liboard
            }]
        );
    }

    #[test]
    fn a_new_board_is_probed_then_offered() {
        let mut finder = BoardFinder::new(vec![known(Some("1"), "/dev/ttyACM0", Protocol::Dgt)]);
        let port = usb("/dev/ttyACM0", "2");
        assert_eq!(
            finder.appeared(std::slice::from_ref(&port)),
            [FinderAction::Probe(port.clone())]
        );
        let centaur = Verdict::Found {
            protocol: Protocol::Centaur,
            details: None,
        };
        let Some(FinderAction::Offer(offer)) = finder.probed(&port, &centaur) else {
            panic!("an offer");
        };
        assert_eq!(
            offer.question(),
            "Found a DGT Centaur on /dev/ttyACM0: connect?"
        );
        assert_eq!(finder.probed(&port, &Verdict::NoAnswer), None);
        // Accepted: known from now on, and kept.
        assert!(finder.connected(&port, Protocol::Centaur));
        assert!(
            !finder.connected(&port, Protocol::Centaur),
            "nothing new to save"
        );
        assert_eq!(finder.known_boards().len(), 2);
    }

    #[test]
    fn a_port_without_a_serial_number_is_known_by_its_path() {
        let mut finder = BoardFinder::new(vec![known(None, "/dev/ttyS0", Protocol::Centaur)]);
        assert_eq!(
            finder.appeared(&[uart("/dev/ttyS0"), uart("/dev/ttyS1")]),
            [
                FinderAction::Reconnect {
                    path: "/dev/ttyS0".to_owned(),
                    protocol: Protocol::Centaur
                },
                FinderAction::Probe(uart("/dev/ttyS1"))
            ]
        );
    }

    #[test]
    fn while_connected_another_known_board_is_offered_not_taken() {
        let mut finder = BoardFinder::new(vec![
            known(Some("1"), "/dev/ttyACM0", Protocol::Dgt),
            known(Some("2"), "/dev/ttyACM1", Protocol::Liboard),
        ]);
        finder.connected(&usb("/dev/ttyACM0", "1"), Protocol::Dgt);
        assert_eq!(
            finder.appeared(&[usb("/dev/ttyACM1", "2")]),
            [FinderAction::Offer(Offer {
                path: "/dev/ttyACM1".to_owned(),
                protocol: Protocol::Liboard,
                description: "LiBoard".to_owned()
            })]
        );
        // Its own port coming back is the worker's to reopen.
        assert_eq!(finder.appeared(&[usb("/dev/ttyACM0", "1")]), []);
        // The same board back on another port: follow it.
        assert_eq!(
            finder.appeared(&[usb("/dev/ttyACM2", "1")]),
            [FinderAction::Reconnect {
                path: "/dev/ttyACM2".to_owned(),
                protocol: Protocol::Dgt
            }]
        );
        finder.disconnected();
        assert!(matches!(
            finder.appeared(&[usb("/dev/ttyACM1", "2")])[..],
            [FinderAction::Reconnect { .. }]
        ));
    }

    #[test]
    fn two_known_boards_at_once_reconnect_one_and_offer_the_other() {
        let mut finder = BoardFinder::new(vec![
            known(Some("1"), "/dev/ttyACM0", Protocol::Dgt),
            known(Some("2"), "/dev/ttyACM1", Protocol::Liboard),
        ]);
        let actions = finder.appeared(&[usb("/dev/ttyACM0", "1"), usb("/dev/ttyACM1", "2")]);
        assert!(matches!(
            actions[..],
            [FinderAction::Reconnect { .. }, FinderAction::Offer(_)]
        ));
    }

    #[test]
    fn a_protocol_changed_is_saved_and_a_board_forgotten() {
        let port = usb("/dev/ttyACM0", "1");
        let mut finder = BoardFinder::new(vec![known(Some("1"), "/dev/ttyACM0", Protocol::Dgt)]);
        assert!(finder.connected(&port, Protocol::Text));
        assert_eq!(finder.known_boards()[0].protocol, Protocol::Text);
        assert!(finder.forget(&port));
        assert!(finder.known_boards().is_empty());
    }

    #[test]
    fn known_boards_are_stored_with_the_protocol_by_name() {
        let board = known(Some("85439"), "/dev/ttyACM0", Protocol::Centaur);
        let json = serde_json::to_string(&board).expect("serialised");
        assert!(json.contains("\"protocol\":\"centaur\""), "{json}");
        let back: KnownBoard = serde_json::from_str(&json).expect("read back");
        assert_eq!(back, board);
        assert!(serde_json::from_str::<KnownBoard>(&json.replace("centaur", "morse")).is_err());
    }
}
