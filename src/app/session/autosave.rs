//! Autosave after every move, and the offer to restore what earlier runs left unsaved.

use super::{RestoreOffer, Session};
use crate::connection::Command;
use crate::pgn::PgnGame;
use crate::pgn::autosave::Unfinished;
use crate::pgn::autosaver::Autosaver;

impl Session {
    pub(super) fn autosave_after_moves(&mut self) {
        let Some(autosave) = &self.autosave else {
            return;
        };
        // Every game of the session counts: a new game never hides the one before.
        let plies = self.total_plies();
        if plies == self.autosaved_plies {
            return;
        }
        self.autosaved_plies = plies;
        if self.autosaver.is_none() {
            match Autosaver::start(autosave.clone(), self.wake.clone()) {
                Ok(autosaver) => self.autosaver = Some(autosaver),
                Err(e) => {
                    self.notice = Some(format!("Autosave could not start: {e}"));
                    return;
                }
            }
        }
        if let (Some(autosaver), Some(restored)) = (&self.autosaver, self.restored_from.take()) {
            autosaver.discard_after_save(restored);
        }
        self.autosave_due = true;
        self.offer_autosave();
    }

    /// Hands the games and the new readings to the writer, if it has room; else they wait
    /// for the next update (the writer wakes the app when it is done).
    pub(super) fn offer_autosave(&mut self) {
        let Some(autosaver) = self.autosaver.as_ref().filter(|_| self.autosave_due) else {
            return;
        };
        let new_readings = self.readings[self.autosaved_readings..].to_vec();
        if autosaver.try_save(self.snapshot.games.clone(), new_readings) {
            self.autosaved_readings = self.readings.len();
            self.autosave_due = false;
        }
    }

    /// Hands over the last save, waiting for room: a source that ends loses no move.
    pub(super) fn finish_autosave(&mut self) {
        if let Some(autosaver) = self.autosaver.as_ref().filter(|_| self.autosave_due) {
            let new_readings = self.readings[self.autosaved_readings..].to_vec();
            autosaver.save(self.snapshot.games.clone(), new_readings);
            self.autosaved_readings = self.readings.len();
            self.autosave_due = false;
        }
    }

    /// The user saved this session's games as they stood at `plies` moves: unless a move
    /// came since, its autosave files go, and the next move writes them anew, whole.
    pub fn games_saved(&mut self, plies: usize) {
        if plies != self.total_plies() {
            return;
        }
        if let Some(autosaver) = &self.autosaver {
            autosaver.clear();
        }
        self.autosaved_readings = 0;
        self.autosaved_plies = 0;
        self.autosave_due = false;
    }

    pub(super) fn total_plies(&self) -> usize {
        self.snapshot.games.iter().map(|g| g.moves.len()).sum()
    }

    // ----- restore -----

    pub fn restore_offer(&self) -> Option<&RestoreOffer> {
        self.restore_offer.as_ref()
    }

    /// Continues the newest unsaved game on the board. Its files go once this session
    /// saves it again; a session of several games keeps its files (the log has them all).
    pub fn restore_newest(&mut self) {
        let Some(offer) = self.restore_offer.take() else {
            return;
        };
        let mut sessions = offer.sessions.into_iter();
        let newest = sessions.next();
        if let Some(game) = offer.newest_games.last() {
            self.continue_game(game);
        }
        match newest {
            Some(newest) if offer.newest_games.len() > 1 => {
                self.notice = Some(format!(
                    "The earlier games of that session stay in {} (Open log shows them all).",
                    newest.pgn_path.display()
                ));
            }
            Some(newest) => self.restored_from = Some(newest),
            None => {}
        }
        self.restore_offer = RestoreOffer::of(sessions.collect());
    }

    /// Takes the newest unsaved session off the offer (its log is being opened).
    pub fn take_newest_unfinished(&mut self) -> Option<Unfinished> {
        let offer = self.restore_offer.take()?;
        let mut sessions = offer.sessions.into_iter();
        let newest = sessions.next();
        self.restore_offer = RestoreOffer::of(sessions.collect());
        newest
    }

    /// Deletes every unsaved session offered.
    pub fn discard_unfinished(&mut self) {
        let Some(offer) = self.restore_offer.take() else {
            return;
        };
        for unfinished in offer.sessions {
            if let Err(e) = unfinished.discard() {
                self.notice = Some(format!("{}: {e}", unfinished.pgn_path.display()));
            }
        }
    }

    /// Asks again on the next start.
    pub fn postpone_restore(&mut self) {
        self.restore_offer = None;
    }

    pub fn continue_game(&mut self, game: &PgnGame) {
        self.send(Command::Continue(game.game.clone()));
        self.last_event = format!(
            "loaded {} – {}: set the board up as shown",
            game.tags.white, game.tags.black
        );
    }
}
