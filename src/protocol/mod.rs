//! Wire protocols of real boards: pure codecs, bytes in and readings out, with no I/O and
//! no clock (time comes in as microseconds). Each also has the board's side, which the
//! simulated board speaks.

pub mod centaur;
pub mod dgt;
pub mod dgt_clock;
pub mod liboard;
pub mod text;

use std::fmt;
use std::str::FromStr;

use shakmaty::{Bitboard, Square};

use crate::reading::Reading;

/// Microseconds on the caller's clock.
pub type Micros = u64;

/// The protocols boardsight speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// LiBoard: 8 raw occupancy bytes whenever it changes, 9600 baud.
    Liboard,
    /// DGT Centaur board controller: polled packets at 1,000,000 baud.
    Centaur,
    /// DGT e-board classic serial protocol, 9600 8N1.
    Dgt,
    /// Text lines from DIY boards: 64 `0`/`1` characters or `occ <hex>`.
    Text,
}

impl Protocol {
    /// Every protocol, in the order they are offered.
    pub const ALL: [Protocol; 4] = [Self::Liboard, Self::Centaur, Self::Dgt, Self::Text];

    /// The protocol's name, as the command line takes it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Liboard => "liboard",
            Self::Centaur => "centaur",
            Self::Dgt => "dgt",
            Self::Text => "text",
        }
    }

    /// The serial speed the board talks at.
    pub fn baud_rate(self) -> u32 {
        match self {
            Self::Centaur => 1_000_000,
            Self::Liboard | Self::Dgt => 9600,
            Self::Text => 115_200,
        }
    }

    /// The host side of this protocol, fresh.
    pub fn host(self) -> Box<dyn HostSession> {
        match self {
            Self::Liboard => Box::new(liboard::Host::default()),
            Self::Centaur => Box::new(centaur::Host::default()),
            Self::Dgt => Box::new(dgt::Host::default()),
            Self::Text => Box::new(text::Host::default()),
        }
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A protocol name boardsight does not know.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown protocol '{0}' (expected liboard, centaur, dgt or text)")]
pub struct UnknownProtocol(pub String);

impl FromStr for Protocol {
    type Err = UnknownProtocol;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownProtocol(s.to_owned()))
    }
}

/// The host's side of a board protocol: what to send and how to read what comes back.
pub trait HostSession: Send {
    /// Bytes to send when the port has just opened (a handshake).
    fn open(&mut self, now: Micros) -> Vec<u8>;
    /// Bytes arrived; readings found are appended to `readings`. Returns bytes to send.
    fn receive(&mut self, bytes: &[u8], now: Micros, readings: &mut Vec<Reading>) -> Vec<u8>;
    /// Time passed without bytes: finish frames ended by silence, send polls.
    fn tick(&mut self, now: Micros, readings: &mut Vec<Reading>) -> Vec<u8>;
    /// Frames, packets or lines dropped as malformed so far.
    fn dropped(&self) -> u64;
    /// How long the caller may wait for bytes before calling `tick` again.
    fn tick_interval(&self) -> Micros;
    /// Bytes that show `signal` on the board; none for a board without lights or sound.
    fn signal(&mut self, _signal: Signal) -> Vec<u8> {
        Vec::new()
    }
}

/// What the host shows the player on the board itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    /// These squares lit and every other dark (none: all off).
    Lights(Bitboard),
    /// A sound, on a board that has a speaker.
    Beep(Beep),
}

/// The board's sounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Beep {
    /// A short confirmation: a move was recognised.
    Confirm,
    /// Something is wrong: a wrong move, an illegal board.
    Wrong,
}

impl Protocol {
    /// Whether the board has lights the host can set.
    pub fn has_lights(self) -> bool {
        matches!(self, Self::Centaur | Self::Dgt)
    }
}

/// The 64 squares in the order a8, b8, … h8, a7, … h1 that DGT boards use.
pub fn square_from_a8_order(index: u8) -> Option<Square> {
    (index < 64).then(|| {
        let index = u32::from(index);
        Square::new((7 - index / 8) * 8 + index % 8)
    })
}

/// The index of `square` counting from a8 along the ranks (a8 = 0, h1 = 63).
pub fn a8_order_of(square: Square) -> u8 {
    let index = square as u8;
    (7 - index / 8) * 8 + index % 8
}

/// Occupancy from 64 flags in a8 … h1 order.
pub fn occupancy_from_a8_order(flags: impl IntoIterator<Item = bool>) -> Bitboard {
    let mut occupancy = Bitboard::EMPTY;
    for (index, occupied) in (0u8..64).zip(flags) {
        if occupied && let Some(square) = square_from_a8_order(index) {
            occupancy.add(square);
        }
    }
    occupancy
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a8_order_maps_corners_and_round_trips() {
        assert_eq!(square_from_a8_order(0), Some(Square::A8));
        assert_eq!(square_from_a8_order(7), Some(Square::H8));
        assert_eq!(square_from_a8_order(56), Some(Square::A1));
        assert_eq!(square_from_a8_order(63), Some(Square::H1));
        assert_eq!(square_from_a8_order(64), None);
        for square in Square::ALL {
            assert_eq!(square_from_a8_order(a8_order_of(square)), Some(square));
        }
    }

    #[test]
    fn protocol_names_parse() {
        for protocol in Protocol::ALL {
            assert_eq!(protocol.name().parse::<Protocol>(), Ok(protocol));
        }
        assert!("dgt-pegasus".parse::<Protocol>().is_err());
    }
}

/// Protocols stored by name ("centaur") with serde: `#[serde(with = "protocol_by_name")]`.
pub mod protocol_by_name {
    use serde::{Deserialize, Deserializer, Serializer};

    use super::Protocol;

    /// Writes the protocol's name.
    pub fn serialize<S: Serializer>(protocol: &Protocol, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(protocol.name())
    }

    /// Reads a protocol by its name; an unknown name is an error that says it.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Protocol, D::Error> {
        let name = String::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}
