//! What can go wrong with an engine.

use std::time::Duration;

/// What went wrong with the engine; the game it was asked about is not touched.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineFault {
    #[error("the engine {path} could not start: {message}")]
    Start { path: String, message: String },
    #[error("the engine stopped{}{}", .code.map(|c| format!(" (exit code {c})")).unwrap_or_default(), .last_words.as_ref().map(|w| format!("; it last said '{w}'")).unwrap_or_default())]
    Exited {
        code: Option<i32>,
        last_words: Option<String>,
    },
    #[error("the engine did not answer '{asked}' within {:.1} s{}", .waited.as_secs_f64(), .garbage.as_ref().map(|g| format!("; it printed '{g}', which is not UCI")).unwrap_or_default())]
    Silent {
        asked: String,
        waited: Duration,
        garbage: Option<String>,
    },
    #[error("the engine played {uci}, which is not a legal move in {fen}")]
    IllegalMove { uci: String, fen: String },
}
