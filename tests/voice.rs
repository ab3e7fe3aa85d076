//! What boardsight says aloud, as text, through the real session following a simulated
//! Centaur on a pty while a hand plays: moves, the engine's move as an instruction and
//! again on request, a wrong move, a board left illegal (once, after about a second), the
//! clock's last seconds and flag, the game's end. On CI espeak-ng also renders what one
//! game says to WAV files, one per announcement.
#![cfg(unix)]

mod common;

use std::path::Path;
use std::sync::mpsc::{self, Sender};
use std::time::{Duration, Instant};

use boardsight::clock::{Bonus, TimeControl};
use boardsight::engine::Strength;
use boardsight::protocol::Protocol;
use boardsight::session::News;
use boardsight::sim::Action;
use boardsight::voice::{SystemVoice, Voice, VoiceSettings};
use common::live::{Bench, e2e4};
use shakmaty::uci::UciMove;
use shakmaty::{Color, Move, Piece, Position, Square};

/// A voice that writes down what it is to say.
struct Transcript(Sender<String>);

impl Voice for Transcript {
    fn say(&mut self, words: &str) -> std::io::Result<()> {
        let _ = self.0.send(words.to_owned());
        Ok(())
    }
    fn configure(&mut self, _voice: &str, _words_per_minute: u32) {}
}

/// A live session on a simulated Centaur that says everything, through `voice`.
fn speaking_bench(voice: Box<dyn Voice>) -> Bench {
    let mut bench = Bench::start(Protocol::Centaur);
    bench.session.keep_news();
    bench.session.speak_with(voice);
    bench.session.set_voice(VoiceSettings::all());
    bench
}

/// What the session said since the last call.
fn said(bench: &mut Bench) -> Vec<String> {
    bench
        .session
        .take_news()
        .into_iter()
        .filter_map(|news| match news {
            News::Spoken(words) => Some(words),
            _ => None,
        })
        .collect()
}

fn uci(bench: &Bench, text: &str) -> Move {
    text.parse::<UciMove>()
        .expect("UCI")
        .to_move(&bench.session.snapshot().position)
        .expect("a legal move")
}

/// Runs the session until it has said something containing `part`; returns all it said.
fn until_said(bench: &mut Bench, part: &str, heard: &mut Vec<String>) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !heard.iter().any(|words| words.contains(part)) {
        assert!(Instant::now() < deadline, "never said '{part}': {heard:?}");
        bench.run_for(Duration::from_millis(20));
        heard.extend(said(bench));
    }
}

#[test]
fn the_engines_move_is_said_as_an_instruction_again_on_request_and_a_wrong_move_is_told() {
    let Some(stockfish) = common::stockfish_or_skip() else {
        return;
    };
    let (to, voice) = mpsc::channel();
    let mut bench = speaking_bench(Box::new(Transcript(to)));
    bench
        .session
        .seat_engine(&stockfish, Color::Black, Strength::Nodes(2_000));
    let mut heard = Vec::new();
    bench.play(e2e4());
    until_said(&mut bench, " plays ", &mut heard);
    // The instruction and the board's awaiting the move may land in different updates.
    let deadline = Instant::now() + Duration::from_secs(5);
    while bench.session.snapshot().expected_move.is_none() && Instant::now() < deadline {
        bench.run_for(Duration::from_millis(20));
        heard.extend(said(&mut bench));
    }
    let reply = bench.session.snapshot().expected_move.expect("the reply");
    let (from, dest) = (reply.from().expect("a from square"), reply.to());
    let instruction = heard.last().cloned().expect("the instruction");
    assert!(instruction.starts_with("Stockfish"), "{instruction}");
    assert!(
        instruction.contains(&format!(" from {from} to {dest}")),
        "{instruction}"
    );
    assert_eq!(heard, ["e4.", instruction.as_str()]);

    // Asked again, the same words.
    bench.session.repeat_engine_move();
    bench.run_for(Duration::from_millis(100));
    heard.extend(said(&mut bench));
    assert_eq!(heard.last(), Some(&instruction));

    // Another black move is refused, in words that say the engine's again.
    let wrong = if from == Square::A7 { "h7h6" } else { "a7a6" };
    let wrong = uci(&bench, wrong);
    bench.play(wrong);
    until_said(&mut bench, "Wrong move.", &mut heard);
    let told = heard.last().cloned().expect("the wrong move");
    assert!(told.ends_with(&instruction), "{told}");

    // Set back and made, the engine's move is not said again.
    let pawn = Piece::from_char('p').expect("a pawn");
    bench.perform(Action::Lift(wrong.to()));
    bench.perform(Action::Place(wrong.from().expect("a from square"), pawn));
    bench.play(reply);
    bench.run_until("the reply is recorded", |s| {
        s.snapshot().game.moves.len() == 2
    });
    bench.run_for(Duration::from_millis(600));
    heard.extend(said(&mut bench));
    let after_wrong = heard.iter().position(|words| words == &told).expect("told");
    assert!(
        heard[after_wrong + 1..]
            .iter()
            .all(|words| !words.contains(&dest.to_string()) && !words.contains(" plays ")),
        "nothing more of the engine's move: {heard:?}"
    );
    // The voice heard the announcements in order (none replaced: each was said at once).
    let spoken: Vec<String> = voice.try_iter().collect();
    assert_eq!(spoken, heard);
}

#[test]
fn a_board_left_illegal_is_said_once_after_a_second_and_the_game_end_with_its_result() {
    let (to, _voice) = mpsc::channel();
    let mut bench = speaking_bench(Box::new(Transcript(to)));
    let mut heard = Vec::new();
    // Two white pawns in the air: illegal, but only a moment is nothing to say.
    bench.perform(Action::Lift(Square::D2));
    bench.perform(Action::Lift(Square::F2));
    bench.run_for(Duration::from_millis(300));
    heard.extend(said(&mut bench));
    assert!(heard.is_empty(), "{heard:?}");
    until_said(
        &mut bench,
        "Put the white pawns back on d2 and f2.",
        &mut heard,
    );
    // Left illegal, it is not said again.
    bench.run_for(Duration::from_millis(2_500));
    heard.extend(said(&mut bench));
    assert_eq!(heard, ["Put the white pawns back on d2 and f2."]);
    let pawn = Piece::from_char('P').expect("a pawn");
    bench.perform(Action::Place(Square::D2, pawn));
    bench.perform(Action::Place(Square::F2, pawn));
    // Fool's mate.
    for mv in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        let mv = uci(&bench, mv);
        bench.play(mv);
    }
    until_said(&mut bench, "Checkmate. Black wins.", &mut heard);
    bench.run_for(Duration::from_millis(500));
    heard.extend(said(&mut bench));
    assert_eq!(
        heard[1..],
        [
            "f3.",
            "e5.",
            "g4.",
            "Queen h4, checkmate.",
            "Checkmate. Black wins."
        ]
    );
    assert!(bench.session.snapshot().position.is_checkmate());
}

#[test]
fn the_clocks_last_ten_seconds_and_the_flag_are_said() {
    let (to, _voice) = mpsc::channel();
    let mut bench = speaking_bench(Box::new(Transcript(to)));
    let control = TimeControl {
        base_ms: 11_000,
        bonus_ms: 0,
        bonus: Bonus::Increment,
    };
    bench.session.set_clock(Some(control), Instant::now());
    let mut heard = Vec::new();
    bench.play(e2e4());
    until_said(&mut bench, "Black, ten seconds.", &mut heard);
    until_said(&mut bench, "Black's time is up. White wins.", &mut heard);
    assert_eq!(
        heard,
        [
            "e4.",
            "Black, ten seconds.",
            "Black's time is up. White wins."
        ]
    );
}

/// espeak-ng's WAV files: their count, and each one's length in seconds.
fn wav_lengths(dir: &Path) -> Vec<f64> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("the folder")
        .map(|entry| entry.expect("an entry").path())
        .collect();
    // say-1.wav, say-2.wav, … say-10.wav: in the order said.
    let number = |path: &std::path::PathBuf| {
        path.file_stem()
            .and_then(|stem| stem.to_str()?.strip_prefix("say-")?.parse::<u32>().ok())
            .unwrap_or(u32::MAX)
    };
    files.sort_by_key(number);
    files
        .iter()
        .map(|path| {
            let bytes = std::fs::read(path).expect("a WAV file");
            assert_eq!(&bytes[..4], b"RIFF", "{}", path.display());
            assert_eq!(&bytes[8..12], b"WAVE", "{}", path.display());
            let le32 = |at: usize| {
                u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
            };
            // Chunks after the header: "fmt " gives the byte rate; "data" runs to the end
            // (its size field may be left unset by a program writing as it goes).
            let (mut at, mut byte_rate, mut data) = (12, 0, 0);
            while at + 8 <= bytes.len() {
                if &bytes[at..at + 4] == b"data" {
                    data = bytes.len() - at - 8;
                    break;
                }
                if &bytes[at..at + 4] == b"fmt " {
                    byte_rate = le32(at + 16);
                }
                at += 8 + le32(at + 4) as usize;
            }
            assert!(byte_rate > 0, "{}: no format chunk", path.display());
            data as f64 / f64::from(byte_rate)
        })
        .collect()
}

/// Where espeak-ng is wanted, on CI, it must be there.
fn espeak_or_skip(voice: Result<SystemVoice, String>) -> Option<SystemVoice> {
    match voice {
        Ok(voice) => Some(voice),
        Err(problem) => {
            assert!(
                std::env::var_os("BOARDSIGHT_REQUIRE_ESPEAK").is_none(),
                "{problem} (apt-get install espeak-ng)"
            );
            eprintln!("skipped: {problem}");
            None
        }
    }
}

#[test]
fn espeak_ng_renders_each_announcement_once_to_a_wav_file_of_a_sane_length() {
    let dir = tempfile::tempdir().expect("temp dir");
    let Some(voice) = espeak_or_skip(SystemVoice::to_wav_files(dir.path().to_path_buf())) else {
        return;
    };
    let mut bench = speaking_bench(Box::new(voice));
    let mut heard = Vec::new();
    // Each step waits for what it said to be rendered, so that none is replaced unsaid.
    let rendered = |bench: &mut Bench, heard: &mut Vec<String>| {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            bench.run_for(Duration::from_millis(50));
            heard.extend(said(bench));
            let files = std::fs::read_dir(dir.path()).map_or(0, Iterator::count);
            if files >= heard.len() || Instant::now() > deadline {
                return;
            }
        }
    };
    bench.play(e2e4());
    bench.run_for(Duration::from_millis(400));
    rendered(&mut bench, &mut heard);
    // Left illegal a while: said once, rendered once.
    bench.perform(Action::Lift(Square::D2));
    bench.perform(Action::Lift(Square::F2));
    until_said(&mut bench, "Put the white pawns back", &mut heard);
    bench.run_for(Duration::from_millis(2_000));
    rendered(&mut bench, &mut heard);
    let pawn = Piece::from_char('P').expect("a pawn");
    bench.perform(Action::Place(Square::D2, pawn));
    bench.perform(Action::Place(Square::F2, pawn));
    for mv in ["e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"] {
        let mv = uci(&bench, mv);
        bench.play(mv);
        bench.run_for(Duration::from_millis(400));
        rendered(&mut bench, &mut heard);
    }
    until_said(&mut bench, "Checkmate. White wins.", &mut heard);
    rendered(&mut bench, &mut heard);
    // espeak-ng may still be writing the last file.
    std::thread::sleep(Duration::from_millis(500));
    let lengths = wav_lengths(dir.path());
    println!("{} announcements, WAV seconds {lengths:.2?}", heard.len());
    for (words, seconds) in heard.iter().zip(&lengths) {
        println!("  {seconds:5.2} s  {words}");
    }
    // Each announcement rendered once: none for the illegal board staying illegal.
    assert_eq!(lengths.len(), heard.len(), "{heard:?}");
    for (words, &seconds) in heard.iter().zip(&lengths) {
        // About 175 words a minute: 0.2 s for the shortest, well under 3 s a word.
        let count = words.split_whitespace().count() as f64;
        assert!(
            seconds > 0.2 && seconds < 1.5 + 3.0 * count,
            "'{words}' lasts {seconds:.2} s"
        );
    }
}

#[test]
fn espeak_ng_renders_the_words_of_every_kind_of_announcement() {
    use boardsight::clock::FlagResult;
    use boardsight::voice::words;
    use boardsight::voice::{Announcement, Speaker, Topic};
    use shakmaty::Chess;
    use shakmaty::san::SanPlus;

    let dir = tempfile::tempdir().expect("temp dir");
    let Some(voice) = espeak_or_skip(SystemVoice::to_wav_files(dir.path().to_path_buf())) else {
        return;
    };
    let start = Chess::default();
    let nf3 = "g1f3"
        .parse::<UciMove>()
        .expect("UCI")
        .to_move(&start)
        .expect("legal");
    let san = SanPlus::from_move(start.clone(), nf3);
    let mated: Chess = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
        .parse::<shakmaty::fen::Fen>()
        .expect("FEN")
        .into_position(shakmaty::CastlingMode::Standard)
        .expect("a position");
    let kinds = [
        (
            "move",
            words::sentence(&words::spoken_move(&san, nf3)) + ".",
        ),
        ("revision", words::revised(&san, nf3)),
        (
            "takeback",
            words::taken_back(Some(words::spoken_move(&san, nf3))),
        ),
        ("engine move", words::engine_move("Stockfish", &start, nf3)),
        ("wrong move", words::wrong_move("Stockfish", &start, nf3)),
        (
            "illegal board",
            words::illegal_parts(
                shakmaty::Bitboard::from_square(Square::E2),
                shakmaty::Bitboard::from_square(Square::E4),
                &start,
            )
            .join(". ")
                + ".",
        ),
        (
            "sensor fault",
            boardsight::recognizer::event::dead_sensor_words(Square::C3, true) + ".",
        ),
        ("last seconds", words::last_seconds(Color::White)),
        ("flag", words::flag(Color::White, FlagResult::Lost)),
        ("end", words::game_end(&mated).expect("mate")),
    ];
    let speaker = Speaker::start(Box::new(voice)).expect("a speaker");
    for (n, (_, words)) in kinds.iter().enumerate() {
        speaker.say(Announcement::new(Topic::Move, words.clone()));
        // One at a time: none is replaced before it is rendered.
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::fs::read_dir(dir.path()).map_or(0, Iterator::count) <= n {
            assert!(Instant::now() < deadline, "nothing rendered for {words}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    std::thread::sleep(Duration::from_millis(1_000));
    let lengths = wav_lengths(dir.path());
    assert_eq!(lengths.len(), kinds.len());
    for ((kind, words), seconds) in kinds.iter().zip(&lengths) {
        println!("{kind:14} {seconds:5.2} s  {words}");
        let count = words.split_whitespace().count() as f64;
        assert!(
            *seconds > 0.2 && *seconds < 1.5 + 3.0 * count,
            "{kind}: '{words}' lasts {seconds:.2} s"
        );
    }
}
