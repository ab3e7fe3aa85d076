//! How long the board has shown the same illegal state: a passing frame of a move is not
//! worth a word or a light, a board left wrong for a second is.

use std::time::{Duration, Instant};

use crate::recognizer::BoardStatus;

/// How long the board stays illegal, unchanged, before it is said aloud and lit.
pub const ILLEGAL_PATIENCE: Duration = Duration::from_secs(1);

/// The illegal state shown, and since when.
#[derive(Default)]
pub struct IllegalWatch {
    since: Option<(BoardStatus, Instant)>,
    /// Whether the lasting state was already reported by `newly_lasting`.
    reported: bool,
}

impl IllegalWatch {
    /// The board shows `status` at `now`; a changed illegal state starts the wait again.
    pub fn follow(&mut self, status: &BoardStatus, now: Instant) {
        match status {
            BoardStatus::Illegal { .. } => {
                if self.since.as_ref().is_none_or(|(shown, _)| shown != status) {
                    self.since = Some((status.clone(), now));
                    self.reported = false;
                }
            }
            _ => self.since = None,
        }
    }

    /// The illegal state, once it has lasted `ILLEGAL_PATIENCE`.
    pub fn lasting(&self, now: Instant) -> Option<&BoardStatus> {
        self.since
            .as_ref()
            .filter(|(_, since)| now.saturating_duration_since(*since) >= ILLEGAL_PATIENCE)
            .map(|(status, _)| status)
    }

    /// Whether the illegal state has just come to last (true once for each).
    pub fn newly_lasting(&mut self, now: Instant) -> bool {
        let newly = !self.reported && self.lasting(now).is_some();
        self.reported |= newly;
        newly
    }

    /// How soon an illegal state shown now will have lasted.
    pub fn due_in(&self, now: Instant) -> Option<Duration> {
        let (_, since) = self.since.as_ref()?;
        (*since + ILLEGAL_PATIENCE).checked_duration_since(now)
    }
}
