//! Autosave after every move, and the offer to restore what earlier runs left unsaved.

use crate::background::Wake;
use crate::game::GameRecord;
use crate::pgn::autosave::{Autosave, Unfinished};
use crate::pgn::autosaver::Autosaver;
use crate::pgn::{PgnGame, read_games};
use crate::reading::TimedReading;

/// Sessions earlier runs left unsaved, the newest first, with the newest's games read.
pub struct RestoreOffer {
    pub sessions: Vec<Unfinished>,
    pub newest_games: Vec<PgnGame>,
}

impl RestoreOffer {
    fn of(sessions: Vec<Unfinished>) -> Option<Self> {
        let newest = sessions.first()?;
        let newest_games = read_games(newest.pgn.as_bytes())
            .into_iter()
            .filter_map(Result::ok)
            .collect();
        Some(Self {
            sessions,
            newest_games,
        })
    }
}

/// The autosave part: the live source's games and readings written after every move.
pub struct Autosaving {
    autosave: Option<Autosave>,
    /// This source's autosave writer, started at its first move.
    autosaver: Option<Autosaver>,
    /// Readings handed to the autosave writer so far.
    saved_readings: usize,
    saved_plies: usize,
    /// Moves were made that the autosave writer has not taken yet.
    due: bool,
    /// A restored session whose files go once its game is saved again in this one.
    restored_from: Option<Unfinished>,
    restore_offer: Option<RestoreOffer>,
}

/// Every game's plies.
pub(super) fn total_plies(games: &[GameRecord]) -> usize {
    games.iter().map(|g| g.moves.len()).sum()
}

impl Autosaving {
    /// Autosave into `autosave` (none with `None`); returns it with a notice if earlier
    /// runs' sessions could not all be looked for.
    pub(super) fn new(autosave: Option<Autosave>) -> (Self, Option<String>) {
        let scan = autosave.as_ref().map(Autosave::scan).unwrap_or_default();
        let notice = (!scan.problems.is_empty()).then(|| {
            format!(
                "Unsaved games could not all be looked for: {}",
                scan.problems.join("; ")
            )
        });
        let part = Self {
            autosave,
            autosaver: None,
            saved_readings: 0,
            saved_plies: 0,
            due: false,
            restored_from: None,
            restore_offer: RestoreOffer::of(scan.sessions),
        };
        (part, notice)
    }

    /// A new source: the last one's autosave is finished; the next starts afresh.
    pub(super) fn reset(&mut self, games: &[GameRecord], readings: &[TimedReading]) {
        self.finish(games, readings);
        self.autosaver = None;
        self.due = false;
        self.saved_readings = 0;
        self.saved_plies = 0;
    }

    /// After a change: moves made start (or go on with) the save. Returns a notice if
    /// autosave could not start.
    pub(super) fn after_change(
        &mut self,
        games: &[GameRecord],
        readings: &[TimedReading],
        wake: &Wake,
    ) -> Option<String> {
        let autosave = self.autosave.as_ref()?;
        // Every game of the session counts: a new game never hides the one before.
        let plies = total_plies(games);
        if plies == self.saved_plies {
            return None;
        }
        self.saved_plies = plies;
        if self.autosaver.is_none() {
            match Autosaver::start(autosave.clone(), wake.clone()) {
                Ok(autosaver) => self.autosaver = Some(autosaver),
                Err(e) => return Some(format!("Autosave could not start: {e}")),
            }
        }
        if let (Some(autosaver), Some(restored)) = (&self.autosaver, self.restored_from.take()) {
            autosaver.discard_after_save(restored);
        }
        self.due = true;
        self.offer(games, readings);
        None
    }

    /// Hands the games and the new readings to the writer, if it has room; else they wait
    /// for the next update (the writer wakes the owner when it is done).
    pub(super) fn offer(&mut self, games: &[GameRecord], readings: &[TimedReading]) {
        let Some(autosaver) = self.autosaver.as_ref().filter(|_| self.due) else {
            return;
        };
        let new_readings = readings[self.saved_readings..].to_vec();
        if autosaver.try_save(games.to_vec(), new_readings) {
            self.saved_readings = readings.len();
            self.due = false;
        }
    }

    /// Hands over the last save, waiting for room: a source that ends loses no move.
    pub(super) fn finish(&mut self, games: &[GameRecord], readings: &[TimedReading]) {
        if let Some(autosaver) = self.autosaver.as_ref().filter(|_| self.due) {
            let new_readings = readings[self.saved_readings..].to_vec();
            autosaver.save(games.to_vec(), new_readings);
            self.saved_readings = readings.len();
            self.due = false;
        }
    }

    /// What went wrong with the writer since the last look.
    pub(super) fn problems(&self) -> Vec<String> {
        self.autosaver
            .as_ref()
            .map(Autosaver::problems)
            .unwrap_or_default()
    }

    /// The games were saved by the user as they stood at `plies` of `total` moves: unless
    /// a move came since, the autosave files go, and the next move writes them anew, whole.
    pub(super) fn games_saved(&mut self, plies: usize, total: usize) {
        if plies != total {
            return;
        }
        if let Some(autosaver) = &self.autosaver {
            autosaver.clear();
        }
        self.saved_readings = 0;
        self.saved_plies = 0;
        self.due = false;
    }

    // ----- restore -----

    pub fn restore_offer(&self) -> Option<&RestoreOffer> {
        self.restore_offer.as_ref()
    }

    /// Takes the newest unsaved session's last game to continue. Its files go once this
    /// session saves it again; a session of several games keeps its files (the log has
    /// them all), which the notice returned says.
    pub(super) fn restore_newest(&mut self) -> (Option<PgnGame>, Option<String>) {
        let Some(offer) = self.restore_offer.take() else {
            return (None, None);
        };
        let mut sessions = offer.sessions.into_iter();
        let newest = sessions.next();
        let several = offer.newest_games.len() > 1;
        let game = offer.newest_games.into_iter().last();
        let mut notice = None;
        match newest {
            Some(newest) if several => {
                notice = Some(format!(
                    "The earlier games of that session stay in {} (Open log shows them all).",
                    newest.pgn_path.display()
                ));
            }
            Some(newest) => self.restored_from = Some(newest),
            None => {}
        }
        self.restore_offer = RestoreOffer::of(sessions.collect());
        (game, notice)
    }

    /// Takes the newest unsaved session off the offer (its log is being opened).
    pub(super) fn take_newest_unfinished(&mut self) -> Option<Unfinished> {
        let offer = self.restore_offer.take()?;
        let mut sessions = offer.sessions.into_iter();
        let newest = sessions.next();
        self.restore_offer = RestoreOffer::of(sessions.collect());
        newest
    }

    /// Deletes every unsaved session offered; returns what could not be deleted.
    pub(super) fn discard_unfinished(&mut self) -> Vec<String> {
        let Some(offer) = self.restore_offer.take() else {
            return Vec::new();
        };
        offer
            .sessions
            .into_iter()
            .filter_map(|unfinished| {
                let e = unfinished.discard().err()?;
                Some(format!("{}: {e}", unfinished.pgn_path.display()))
            })
            .collect()
    }

    /// Asks again on the next start.
    pub(super) fn postpone_restore(&mut self) {
        self.restore_offer = None;
    }
}
