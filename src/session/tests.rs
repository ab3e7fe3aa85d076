//! The session's tests: a recorded game played into it as the worker reports it.

use super::*;
use crate::background::no_wake;
use crate::game::GameRecord;
use crate::pgn::read_games;
use crate::sensorlog;

/// Plays a recorded session into `session` the way the serial worker would report it;
/// the user saves the games once `save_at` plies are played.
fn play(session: &mut Session, log: &str, save_at: Option<usize>) -> Vec<GameRecord> {
    play_file(session, &format!("corpus/{log}"), save_at)
}

/// Plays `tests/<log>` into `session`, as `play` does.
fn play_file(session: &mut Session, log: &str, save_at: Option<usize>) -> Vec<GameRecord> {
    let path = format!("{}/tests/{log}", env!("CARGO_MANIFEST_DIR"));
    let readings = sensorlog::read_file(std::path::Path::new(&path)).expect("corpus log");
    let mut recognizer = Recognizer::default();
    let now = Instant::now();
    for reading in readings {
        let events = recognizer.feed(reading);
        let news = !events.is_empty();
        let change = Change {
            readings: vec![reading],
            events,
            snapshot: Snapshot::of(&recognizer, 0),
        };
        session.apply(Update::Change(Box::new(change)), now);
        if news {
            let plies: usize = recognizer.games().iter().map(|g| g.moves.len()).sum();
            if save_at == Some(plies) {
                session.games_saved(plies);
            }
        }
    }
    recognizer.games()
}

#[test]
fn every_game_of_a_session_comes_back_after_a_restart() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut session = Session::new(Some(Autosave::new(dir.path())), no_wake());
    assert!(session.restore_offer().is_none());
    let games = play(&mut session, "t3-change-001.log", None);
    let played: Vec<GameRecord> = games.into_iter().filter(|g| !g.moves.is_empty()).collect();
    assert!(
        played.len() >= 2,
        "the sample session has {} games",
        played.len()
    );
    let readings = session.readings().to_vec();
    drop(session);

    let restarted = Session::new(Some(Autosave::new(dir.path())), no_wake());
    let offer = restarted.restore_offer().expect("an offer");
    assert_eq!(offer.sessions.len(), 1);
    let back: Vec<GameRecord> = offer.newest_games.iter().map(|g| g.game.clone()).collect();
    assert_eq!(back, played);
    let log = sensorlog::read_file(&offer.sessions[0].log_path).expect("the log");
    assert_eq!(log, readings);
}

#[test]
fn saved_games_leave_nothing_to_restore() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut session = Session::new(Some(Autosave::new(dir.path())), no_wake());
    play(&mut session, "t0-change-000.log", None);
    session.games_saved(session.total_plies());
    drop(session);
    assert!(Autosave::new(dir.path()).unfinished().is_empty());
}

#[test]
fn a_move_after_saving_autosaves_the_whole_session_again() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut session = Session::new(Some(Autosave::new(dir.path())), no_wake());
    let games = play(&mut session, "t0-change-000.log", Some(3));
    let readings = session.readings().to_vec();
    drop(session);
    let found = Autosave::new(dir.path()).unfinished();
    assert_eq!(found.len(), 1);
    assert_eq!(
        sensorlog::read_file(&found[0].log_path).expect("log"),
        readings
    );
    let back = read_games(found[0].pgn.as_bytes());
    assert_eq!(
        back.len(),
        games.iter().filter(|g| !g.moves.is_empty()).count()
    );
}

#[test]
fn a_recording_shows_its_end_and_seeks_without_autosaving() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = format!(
        "{}/tests/corpus/t0-change-000.log",
        env!("CARGO_MANIFEST_DIR")
    );
    let readings = sensorlog::read_file(std::path::Path::new(&path)).expect("log");
    let mut timeline = Timeline::new("t0".into(), readings, Config::default());
    timeline.seek(timeline.len());
    let mut session = Session::new(Some(Autosave::new(dir.path())), no_wake());
    session.show_recording(Box::new(timeline));
    let moves_at_end = session.view().moves.len();
    assert!(moves_at_end > 0);
    assert_eq!(session.view().sans.len(), moves_at_end);
    session.seek(0);
    assert!(session.view().moves.is_empty());
    assert_eq!(session.view().positions.len(), 1);
    drop(session);
    assert!(Autosave::new(dir.path()).unfinished().is_empty());
}

#[test]
fn a_session_tells_its_events_in_the_command_lines_words() {
    let mut session = Session::new(None, no_wake());
    session.keep_news();
    let games = play(&mut session, "t0-change-000.log", None);
    let said: Vec<String> = session
        .take_news()
        .into_iter()
        .filter_map(|news| match news {
            News::Said(line) => Some(line),
            _ => None,
        })
        .collect();
    assert!(said[0].starts_with("new game: "), "{said:?}");
    let first = games.iter().find(|g| !g.moves.is_empty()).expect("a game");
    let san = first.san_moves()[0].to_string();
    assert!(said.contains(&format!("1. {san}")), "{said:?}");
    assert!(session.take_news().is_empty());
}

/// Hands what it is to say on, at once.
struct Transcript(std::sync::mpsc::Sender<String>);

impl crate::voice::Voice for Transcript {
    fn say(&mut self, words: &str) -> std::io::Result<()> {
        let _ = self.0.send(words.to_owned());
        Ok(())
    }
    fn configure(&mut self, _voice: &str, _words_per_minute: u32) {}
}

/// What a session says as `log` (a hand-made log in tests/logs) plays into it: the words
/// told, checked against those the voice heard.
fn spoken(log: &str, settings: VoiceSettings) -> Vec<String> {
    let (to, heard) = std::sync::mpsc::channel();
    let mut session = Session::new(None, no_wake());
    session.keep_news();
    session.speak_with(Box::new(Transcript(to)));
    session.set_voice(settings);
    play_file(&mut session, &format!("logs/{log}.log"), None);
    // Time passes: the last move settles and is said.
    session.update(Instant::now() + Duration::from_secs(2));
    let told: Vec<String> = session
        .take_news()
        .into_iter()
        .filter_map(|news| match news {
            News::Spoken(words) => Some(words),
            _ => None,
        })
        .collect();
    // Played at once, a newer announcement may take the place of one not yet said: the
    // voice says what is told, in order, some perhaps left out, the last never.
    let mut voice = Vec::new();
    while let Ok(words) = heard.recv_timeout(Duration::from_millis(500)) {
        voice.push(words);
    }
    let mut rest = told.iter();
    assert!(
        voice.iter().all(|words| rest.any(|t| t == words)),
        "the voice said {voice:?} of {told:?}"
    );
    assert_eq!(voice.last(), told.last());
    told
}

#[test]
fn moves_revisions_takebacks_and_sensor_faults_are_said_in_words() {
    let said = spoken("correction", VoiceSettings::all());
    // Slid through e3 and e2 and d3, the pawn and the bishop are said where they came to
    // rest; the knight set down on h3 and moved on later is corrected.
    assert_eq!(
        said,
        [
            "New game.",
            "e4.",
            "e5.",
            "Knight h3.",
            "Correction: knight f3.",
            "Knight c6.",
            "Bishop c4.",
            "Knight f6."
        ],
    );
    let said = spoken("takeback", VoiceSettings::all());
    assert!(
        said.contains(&"Taken back: bishop c4.".to_owned()),
        "{said:?}"
    );
    assert!(said.contains(&"Taken back: e5.".to_owned()), "{said:?}");
    let said = spoken("dead-stuck-occupied", VoiceSettings::all());
    assert!(
        said.contains(
            &"The sensor under c3 always reads occupied; boardsight works around it.".to_owned()
        ),
        "{said:?}"
    );
}

#[test]
fn only_the_kinds_chosen_are_said_and_nothing_when_off() {
    let opponent_only = VoiceSettings {
        my_moves: false,
        warnings: false,
        ..VoiceSettings::all()
    };
    // Without an engine, White sits at the board: Black is the opponent.
    let said = spoken("correction", opponent_only);
    assert_eq!(said, ["e5.", "Knight c6.", "Knight f6."], "{said:?}");
    let off = VoiceSettings {
        enabled: false,
        ..VoiceSettings::all()
    };
    assert!(spoken("correction", off).is_empty());
}
