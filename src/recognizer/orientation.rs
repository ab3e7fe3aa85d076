//! Which way round the board stands on its sensors. A board set up turned round shows the
//! same start occupancy; White's first move tells the two apart.

use std::fmt;
use std::str::FromStr;

use crate::reading::{Orientation, Reading};

/// The user's setting: find out from the first move, or take it as given.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum BoardOrientation {
    /// Normal until White's first move shows the board is turned round.
    #[default]
    Auto,
    /// The sensor wired as a1 sits under a1.
    Normal,
    /// The board is turned round: the sensor wired as a1 sits under h8.
    Turned,
}

impl BoardOrientation {
    /// Every choice, as a menu lists them.
    pub const ALL: [BoardOrientation; 3] = [Self::Auto, Self::Normal, Self::Turned];

    /// The name a user types and sees.
    pub fn name(self) -> &'static str {
        match self {
            Self::Auto => "auto",
            Self::Normal => "normal",
            Self::Turned => "turned",
        }
    }
}

impl fmt::Display for BoardOrientation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for BoardOrientation {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::ALL
            .into_iter()
            .find(|o| o.name().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("unknown orientation '{s}' (expected auto, normal or turned)"))
    }
}

/// A reading from a board turned round, in real squares.
pub fn turn_round(reading: Reading) -> Reading {
    Orientation {
        quarter_turns: 2,
        mirrored: false,
    }
    .apply(reading)
}

#[cfg(test)]
mod tests {
    use super::*;
    use shakmaty::Square;

    #[test]
    fn settings_parse_by_name_and_a_turned_board_maps_a1_to_h8() {
        for setting in BoardOrientation::ALL {
            assert_eq!(setting.name().parse::<BoardOrientation>(), Ok(setting));
        }
        assert!("sideways".parse::<BoardOrientation>().is_err());
        assert_eq!(
            turn_round(Reading::Lift(Square::A1)),
            Reading::Lift(Square::H8)
        );
        assert_eq!(
            turn_round(Reading::Place(Square::E2)),
            Reading::Place(Square::D7)
        );
    }
}
