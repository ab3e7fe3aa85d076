//! Sensor log v1: one reading per line, the file users record and send in when a move was misread.
//!
//! ```text
//! <t> occ <16 hex digits>   full occupancy, bit i = square i (a1 = 0 … h8 = 63)
//! <t> lift <square>         a piece left <square>
//! <t> place <square>        a piece was put down on <square>
//! <t> promote <q|r|b|n>     the user's promotion choice
//! ```
//! `#` starts a comment line and blank lines are ignored. Times never decrease.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use shakmaty::{Bitboard, Role, Square};

use crate::reading::{Millis, Reading, TimedReading};

/// What is wrong with one line of a sensor log.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct LogError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong with it.
    pub problem: LineError,
}

/// What a line of a sensor log gets wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    #[error("'{0}' is not a time in milliseconds")]
    /// The time is not a number of milliseconds.
    Time(String),
    #[error("missing the reading after the time")]
    /// The line has a time and nothing else.
    MissingReading,
    #[error("'{0}' needs an argument")]
    /// A reading without its argument.
    MissingArgument(String),
    #[error("unexpected '{0}' at the end of the line")]
    /// Something after the reading.
    Extra(String),
    #[error("unknown reading '{0}' (expected occ, lift, place or promote)")]
    /// A reading the log format does not have.
    UnknownReading(String),
    #[error("'{0}' is not an occupancy of 16 hex digits")]
    /// An occupancy that is not 16 hex digits.
    Occupancy(String),
    #[error("'{0}' is not a square (a1 … h8)")]
    /// A square that does not exist.
    Square(String),
    #[error("'{0}' is not a promotion piece (q, r, b or n)")]
    /// A promotion to no piece a pawn becomes.
    Promotion(String),
    #[error("time {time} is earlier than the previous time {previous}")]
    /// A time earlier than the line before's.
    TimeGoesBack {
        /// This line's time.
        time: Millis,
        /// The line before's.
        previous: Millis,
    },
}

/// Parses a whole sensor log.
pub fn parse(text: &str) -> Result<Vec<TimedReading>, LogError> {
    let mut readings = Vec::new();
    let mut last_time: Millis = 0;
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let content = raw.trim();
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        let reading = parse_line(content).map_err(|problem| LogError { line, problem })?;
        if reading.t < last_time {
            return Err(LogError {
                line,
                problem: LineError::TimeGoesBack {
                    time: reading.t,
                    previous: last_time,
                },
            });
        }
        last_time = reading.t;
        readings.push(reading);
    }
    Ok(readings)
}

/// Why a sensor log file could not be read; each names the file (and the line).
#[derive(Debug, thiserror::Error)]
pub enum ReadLogError {
    #[error("{}: {source}", path.display())]
    /// The file could not be read.
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: io::Error,
    },
    #[error("{}: not a text file ({source})", path.display())]
    /// The file is not UTF-8 text.
    NotText {
        /// The file.
        path: PathBuf,
        /// Where the text breaks.
        source: std::string::FromUtf8Error,
    },
    #[error("{}: {source}", path.display())]
    /// A line is wrong.
    Malformed {
        /// The file.
        path: PathBuf,
        /// The line and what is wrong with it.
        source: LogError,
    },
}

/// Reads and parses a sensor log file.
pub fn read_file(path: &Path) -> Result<Vec<TimedReading>, ReadLogError> {
    let path_buf = || path.to_path_buf();
    let bytes = std::fs::read(path).map_err(|source| ReadLogError::Io {
        path: path_buf(),
        source,
    })?;
    let text = String::from_utf8(bytes).map_err(|source| ReadLogError::NotText {
        path: path_buf(),
        source,
    })?;
    parse(&text).map_err(|source| ReadLogError::Malformed {
        path: path_buf(),
        source,
    })
}

fn parse_line(content: &str) -> Result<TimedReading, LineError> {
    let mut words = content.split_whitespace();
    // A trimmed, non-empty line has a first word.
    let time_word = words.next().unwrap_or_default();
    let t: Millis = time_word
        .parse()
        .map_err(|_| LineError::Time(time_word.into()))?;
    let kind = words.next().ok_or(LineError::MissingReading)?;
    let argument = words
        .next()
        .ok_or_else(|| LineError::MissingArgument(kind.into()))?;
    if let Some(extra) = words.next() {
        return Err(LineError::Extra(extra.into()));
    }
    let reading = match kind {
        "occ" => Reading::Occupancy(parse_occupancy(argument)?),
        "lift" => Reading::Lift(parse_square(argument)?),
        "place" => Reading::Place(parse_square(argument)?),
        "promote" => Reading::Promote(parse_promotion(argument)?),
        other => return Err(LineError::UnknownReading(other.into())),
    };
    Ok(TimedReading { t, reading })
}

/// Parses 16 hex digits, with an optional `0x` prefix.
pub fn parse_occupancy(word: &str) -> Result<Bitboard, LineError> {
    let digits = word
        .strip_prefix("0x")
        .or_else(|| word.strip_prefix("0X"))
        .unwrap_or(word);
    if digits.len() != 16 || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(LineError::Occupancy(word.into()));
    }
    u64::from_str_radix(digits, 16)
        .map(Bitboard)
        .map_err(|_| LineError::Occupancy(word.into()))
}

fn parse_square(word: &str) -> Result<Square, LineError> {
    word.parse::<Square>()
        .map_err(|_| LineError::Square(word.into()))
}

fn parse_promotion(word: &str) -> Result<Role, LineError> {
    match word {
        "q" | "Q" => Ok(Role::Queen),
        "r" | "R" => Ok(Role::Rook),
        "b" | "B" => Ok(Role::Bishop),
        "n" | "N" => Ok(Role::Knight),
        _ => Err(LineError::Promotion(word.into())),
    }
}

/// Formats one reading as a log line (without the newline).
pub fn format_reading(reading: &TimedReading) -> String {
    let t = reading.t;
    match reading.reading {
        Reading::Occupancy(occ) => format!("{t} occ {:016x}", occ.0),
        Reading::Lift(sq) => format!("{t} lift {sq}"),
        Reading::Place(sq) => format!("{t} place {sq}"),
        Reading::Promote(role) => format!("{t} promote {}", role.char()),
    }
}

/// Writes a complete log with its header line.
pub fn write<W: Write>(out: &mut W, readings: &[TimedReading]) -> io::Result<()> {
    writeln!(out, "# sensor log v1")?;
    for reading in readings {
        writeln!(out, "{}", format_reading(reading))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_kind_of_line() {
        let text = "# sensor log v1\n\n0 occ ffff00000000ffff\n5 lift e2\n7 place e4\n9 occ 0xffff00001000efff\n10 promote n\n";
        let readings = parse(text).expect("valid log");
        assert_eq!(readings.len(), 5);
        assert_eq!(readings[1].reading, Reading::Lift(Square::E2));
        assert_eq!(readings[2].reading, Reading::Place(Square::E4));
        assert_eq!(
            readings[3].reading,
            Reading::Occupancy(Bitboard(0xffff_0000_1000_efff))
        );
        assert_eq!(readings[4].reading, Reading::Promote(Role::Knight));
    }

    #[test]
    fn errors_name_the_line_and_the_problem() {
        let cases = [
            ("0 occ ffff\n", 1, "16 hex digits"),
            ("0 occ ffff00000000ffff\n5 lift z9\n", 2, "not a square"),
            ("# c\n5 hop e2\n", 2, "unknown reading"),
            ("x occ ffff00000000ffff\n", 1, "not a time"),
            ("9 lift e2\n8 place e4\n", 2, "earlier"),
            ("1 promote k\n", 1, "promotion piece"),
            ("1 lift\n", 1, "needs an argument"),
            ("1 lift e2 e4\n", 1, "unexpected"),
        ];
        for (text, line, needle) in cases {
            let err = parse(text).expect_err(text);
            assert_eq!(err.line, line, "{text}");
            let message = err.problem.to_string();
            assert!(message.contains(needle), "{text}: {message}");
        }
    }

    fn any_reading() -> impl proptest::strategy::Strategy<Value = Reading> {
        use proptest::prelude::*;
        let square = (0u32..64).prop_map(Square::new);
        prop_oneof![
            any::<u64>().prop_map(|bits| Reading::Occupancy(Bitboard(bits))),
            square.clone().prop_map(Reading::Lift),
            square.prop_map(Reading::Place),
            prop::sample::select(vec![Role::Queen, Role::Rook, Role::Bishop, Role::Knight])
                .prop_map(Reading::Promote),
        ]
    }

    proptest::proptest! {
        #[test]
        fn any_log_round_trips(
            steps in proptest::collection::vec((0u64..5_000, any_reading()), 0..200)
        ) {
            let mut t = 0;
            let readings: Vec<TimedReading> = steps
                .into_iter()
                .map(|(dt, reading)| {
                    t += dt;
                    TimedReading::new(t, reading)
                })
                .collect();
            let mut bytes = Vec::new();
            write(&mut bytes, &readings).expect("write to memory");
            let text = String::from_utf8(bytes).expect("utf-8");
            proptest::prop_assert_eq!(parse(&text).expect("parse back"), readings);
        }

        #[test]
        fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
            let _ = parse(&text);
        }
    }

    #[test]
    fn writing_then_reading_gives_the_same_readings() {
        let readings = vec![
            TimedReading::new(0, Reading::Occupancy(Bitboard(0xffff_0000_0000_ffff))),
            TimedReading::new(12, Reading::Lift(Square::G1)),
            TimedReading::new(12, Reading::Place(Square::F3)),
            TimedReading::new(40, Reading::Promote(Role::Bishop)),
            TimedReading::new(41, Reading::Occupancy(Bitboard(1))),
        ];
        let mut bytes = Vec::new();
        write(&mut bytes, &readings).expect("write to memory");
        let text = String::from_utf8(bytes).expect("utf-8");
        assert_eq!(parse(&text).expect("parse back"), readings);
    }
}
