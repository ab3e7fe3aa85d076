//! A lichess game played from the board, against a stand-in server written from lichess's
//! published API (tests/common/lichess.rs): the session follows a simulated board on a real
//! pty while a hand makes the player's moves and the opponent's as the server sends them.
//! The moves reach the server in order, the server's reach the board, the clocks are the
//! server's, a 429 is waited out, a stream cut mid-game loses and repeats nothing.
#![cfg(unix)]

mod common;
// The stand-in serves these tests and the app's: kept out of `common`, which every test
// builds.
#[allow(dead_code)]
#[path = "common/lichess.rs"]
mod lichess;

use std::time::{Duration, Instant};

use boardsight::clock::{Bonus, TimeControl};
use boardsight::game::TableTags;
use boardsight::online::broadcast::BroadcastTo;
use boardsight::online::{Opponent, Order, Patience, Request};
use boardsight::protocol::Protocol;
use boardsight::recognizer::event::uci;
use boardsight::session::{News, Session};
use boardsight::sim::Action;
use common::live::Bench;
use lichess::{NO_SCOPE_TOKEN, Script, StandIn};
use shakmaty::uci::UciMove;
use shakmaty::{Piece, Square};

const TOKEN: &str = "lip_tester";

fn ten_plus_five() -> TimeControl {
    TimeControl {
        base_ms: 600_000,
        bonus_ms: 5_000,
        bonus: Bonus::Increment,
    }
}

fn ai(level: u8) -> Request {
    Request {
        opponent: Opponent::Ai(level),
        clock: ten_plus_five(),
        rated: false,
    }
}

/// Waits of `after_429` after a 429, and a stream silent for 2 s taken for dead.
fn patience(after_429: Duration) -> Patience {
    Patience {
        after_429,
        silence: Duration::from_secs(2),
    }
}

/// The lines the session said since the last call.
fn lines(session: &mut Session, into: &mut Vec<String>) {
    into.extend(
        session
            .take_news()
            .into_iter()
            .filter_map(|news| match news {
                News::Said(line) => Some(line),
                _ => None,
            }),
    );
}

fn until(
    bench: &mut Bench,
    said: &mut Vec<String>,
    what: &str,
    done: impl Fn(&Bench, &[String]) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        bench.run_for(Duration::from_millis(20));
        lines(&mut bench.session, said);
        if done(bench, said) {
            return;
        }
        assert!(Instant::now() < deadline, "{what}: never. Said: {said:#?}");
    }
}

/// A session on a simulated LiBoard that has asked `server` for a game against its AI at
/// `level` (a 429 waited out for `pause`), stepped until the game has begun; and what it said.
fn online_game(server: &StandIn, level: u8, pause: Duration) -> (Bench, Vec<String>) {
    let mut bench = Bench::start(Protocol::Liboard);
    bench.session.keep_news();
    bench.session.play_online(
        &server.url,
        Some(TOKEN.into()),
        false,
        ai(level),
        patience(pause),
    );
    let mut said = Vec::new();
    until(&mut bench, &mut said, "the game starts", |_, said| {
        said.iter().any(|l| l.starts_with("lichess game "))
    });
    (bench, said)
}

#[test]
fn a_game_against_lichess_ai_is_played_from_the_board_through_a_429_and_dropped_streams() {
    let server = StandIn::start(
        &[TOKEN],
        Script {
            opponent_moves: ["e7e5", "b8c6", "g8f6", "f8c5"].map(String::from).to_vec(),
            reply_after: Duration::from_millis(200),
            too_many_requests_on: Some("/api/account".into()),
            cut_stream_after_moves: Some(3),
            silence_stream_after_moves: Some(5),
            keep_alive: Duration::from_millis(300),
            ..Script::default()
        },
    );
    let (mut bench, mut said) = online_game(&server, 3, Duration::from_millis(500));
    assert!(
        said.iter().any(|l| l.contains("too many requests")),
        "the 429 is told: {said:?}"
    );
    let id = server.game().expect("a game").0;
    assert!(said.contains(&format!("lichess game {id}")), "{said:?}");

    for mine in ["e2e4", "g1f3", "f1c4", "b1c3"] {
        let mv = mine
            .parse::<UciMove>()
            .expect("UCI")
            .to_move(&bench.session.snapshot().position)
            .expect("legal");
        let sent = server.player_moves().len();
        bench.play(mv);
        let plies = bench.session.snapshot().game.moves.len();
        until(
            &mut bench,
            &mut said,
            "the move reaches the server",
            |_, _| server.player_moves().len() > sent,
        );
        if plies == 7 {
            break;
        }
        // The opponent's answer is awaited on the board, told once, and made by hand.
        until(&mut bench, &mut said, "the opponent's move", |bench, _| {
            bench.session.snapshot().expected_move.is_some()
        });
        let reply = bench.session.snapshot().expected_move.expect("a reply");
        bench.play(reply);
        until(
            &mut bench,
            &mut said,
            "the reply is recorded",
            |bench, _| bench.session.snapshot().game.moves.len() == plies + 1,
        );
    }
    let board: Vec<String> = bench
        .session
        .snapshot()
        .game
        .moves
        .iter()
        .map(|&m| uci(m).to_string())
        .collect();
    assert_eq!(
        board,
        ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6", "b1c3"]
    );
    until(
        &mut bench,
        &mut said,
        "the server has every move",
        |_, _| server.game_moves() == board,
    );
    assert_eq!(server.player_moves(), ["e2e4", "g1f3", "f1c4", "b1c3"]);
    // The stream was cut after the third move, fell silent after the fifth, and was opened
    // again each time; nothing was told twice.
    assert!(
        server.game_streams_opened() >= 3,
        "the stream was reopened twice"
    );
    assert!(
        said.iter()
            .any(|l| l.contains("no word from lichess for 2 s): reconnecting")),
        "{said:#?}"
    );
    // The event stream, one per token, was opened once; the account asked again after 429.
    assert_eq!(server.event_streams_opened(), 1);
    let accounts = server
        .requests()
        .iter()
        .filter(|(_, path, _)| path == "/api/account")
        .count();
    assert_eq!(accounts, 2, "asked, refused with 429, asked again");
    for reply in ["e7e5", "b8c6", "g8f6"] {
        let told = said
            .iter()
            .filter(|l| *l == &format!("opponent {reply}"))
            .count();
        assert_eq!(told, 1, "opponent {reply}: {said:#?}");
    }
    // The clocks are the server's: ten minutes and some increments, one side's running.
    until(&mut bench, &mut said, "a clock runs", |bench, _| {
        bench
            .session
            .clock_face(Instant::now())
            .is_some_and(|face| face.running.is_some())
    });
    let face = bench.session.clock_face(Instant::now()).expect("clocks");
    for ms in [face.white_ms, face.black_ms] {
        assert!(ms > 500_000 && ms <= 620_000, "{face:?}");
    }
    // Moves take far less than their 5 s increment here: the server's times have grown.
    assert!(face.white_ms > 600_000, "{face:?}");

    // Resigning ends the game; the PGN has its address.
    bench.session.online_order(Order::Resign);
    until(&mut bench, &mut said, "the result", |_, said| {
        said.iter().any(|l| l.starts_with("lichess result: "))
    });
    assert!(
        said.contains(&"lichess result: 0-1 (resign)".to_owned()),
        "{said:?}"
    );
    let (pgn, _) = bench.session.pgn();
    assert!(
        pgn.contains(&format!("[Site \"{}/{id}\"]", server.url)),
        "{pgn}"
    );
    assert!(pgn.contains("[Black \"Stockfish level 3\"]"), "{pgn}");
}

#[test]
fn a_bad_token_and_a_token_without_the_scope_are_told_in_plain_words() {
    let server = StandIn::start(&[TOKEN], Script::default());
    for (token, words) in [
        ("lip_wrong", "lichess refused the token"),
        (NO_SCOPE_TOKEN, "lacks the scope (board:play to play"),
    ] {
        let mut bench = Bench::start(Protocol::Liboard);
        bench.session.keep_news();
        bench.session.play_online(
            &server.url,
            Some(token.into()),
            false,
            ai(1),
            patience(Duration::from_millis(100)),
        );
        let mut said = Vec::new();
        until(&mut bench, &mut said, words, |_, said| {
            said.iter().any(|l| l.contains(words))
        });
        assert!(bench.session.notice().is_some_and(|n| n.contains(words)));
    }
}

fn boardsight() -> std::process::Command {
    std::process::Command::new(env!("CARGO_BIN_EXE_boardsight"))
}

/// `simulate` playing `pgn` as a LiBoard at half speed, linked at `dir/board`, once the link
/// is there.
fn simulated_liboard(
    dir: &std::path::Path,
    pgn: &str,
) -> (std::process::Child, std::path::PathBuf) {
    let games = dir.join("game.pgn");
    std::fs::write(&games, pgn).expect("a PGN");
    let link = dir.join("board");
    let simulator = boardsight()
        .args([
            "simulate",
            "--protocol",
            "liboard",
            "--speed",
            "0.5",
            "--pgn",
        ])
        .arg(&games)
        .arg("--link")
        .arg(&link)
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("simulate starts");
    common::wait_for_path(&link);
    (simulator, link)
}

#[test]
fn listen_without_a_token_says_where_to_make_one() {
    let out = boardsight()
        .args(["listen", "--port", "/dev/null", "--protocol", "liboard"])
        .args(["--lichess", "ai:1"])
        .env_remove("LICHESS_TOKEN")
        .output()
        .expect("listen runs");
    assert_eq!(out.status.code(), Some(2));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(
        said.contains("LICHESS_TOKEN") && said.contains("board:play"),
        "{said}"
    );
    let out = boardsight()
        .args(["listen", "--port", "/dev/null", "--protocol", "liboard"])
        .args(["--lichess", "ai:9"])
        .output()
        .expect("listen runs");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn listen_plays_a_lichess_game_from_a_simulated_board_and_writes_its_pgn() {
    let server = StandIn::start(
        &[TOKEN],
        Script {
            opponent_moves: ["e7e5", "b8c6", "g8f6"].map(String::from).to_vec(),
            reply_after: Duration::from_millis(50),
            keep_alive: Duration::from_millis(300),
            broadcast_round: Some("brdRnd03".into()),
            ..Script::default()
        },
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut simulator, link) = simulated_liboard(dir.path(), "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 *\n");
    let pgn = dir.path().join("out.pgn");
    let listen = boardsight()
        .args([
            "listen",
            "--protocol",
            "liboard",
            "--idle-exit",
            "4",
            "--port",
        ])
        .arg(&link)
        .arg("--pgn")
        .arg(&pgn)
        .args([
            "--lichess",
            "ai:2",
            "--tc",
            "10+5",
            "--lichess-url",
            &server.url,
            "--broadcast",
            "brdRnd03",
            "--broadcast-every",
            "0.1",
            "--board",
            "2",
        ])
        .env("LICHESS_TOKEN", TOKEN)
        .output()
        .expect("listen runs");
    let _ = simulator.kill();
    let _ = simulator.wait();
    let printed = String::from_utf8_lossy(&listen.stdout);
    assert_eq!(listen.status.code(), Some(0), "{printed}");
    let (id, _) = server.game().expect("a game");
    assert!(printed.contains(&format!("lichess game {id}")), "{printed}");
    assert_eq!(server.player_moves(), ["e2e4", "g1f3", "f1c4"], "{printed}");
    assert_eq!(
        server.game_moves(),
        ["e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "g8f6"]
    );
    let written = std::fs::read_to_string(&pgn).expect("the PGN");
    assert!(
        written.contains(&format!("[Site \"{}/{id}\"]", server.url)),
        "{written}"
    );
    assert!(written.contains("3. Bc4 {"), "{written}");
    assert!(written.contains("3... Nf6"), "{written}");
    // The server's clocks after every move, the clock, the players and the table's board.
    for tag in [
        "[White \"Tester\"]",
        "[Black \"Stockfish level 2\"]",
        "[TimeControl \"600+5\"]",
        "[Board \"2\"]",
        "e4 { [%clk 0:10:00] }",
    ] {
        assert!(written.contains(tag), "{tag}: {written}");
    }
    assert_eq!(written.matches("[%clk 0:").count(), 6, "{written}");
    // The same game went to the broadcast round as it was played.
    assert!(printed.contains("broadcast: 6 moves"), "{printed}");
    let pushed = server.pushes().last().cloned().unwrap_or_default();
    assert!(pushed.contains("3... Nf6"), "{pushed}");
    assert!(pushed.contains("[Board \"2\"]"), "{pushed}");
}

#[test]
fn the_opponents_draw_offer_is_told_and_accepting_it_ends_the_game_drawn() {
    let server = StandIn::start(
        &[TOKEN],
        Script {
            opponent_moves: vec!["e7e5".into()],
            keep_alive: Duration::from_millis(300),
            ..Script::default()
        },
    );
    let (mut bench, mut said) = online_game(&server, 2, Duration::from_millis(100));
    bench.play(common::live::e2e4());
    until(&mut bench, &mut said, "the opponent's move", |bench, _| {
        bench.session.snapshot().expected_move.is_some()
    });
    server.opponent_offers_draw();
    until(&mut bench, &mut said, "the offer", |bench, said| {
        said.iter()
            .any(|l| l == "lichess: the opponent offers a draw")
            && bench.session.online_offer() == Some(boardsight::session::Offer::Draw)
    });
    bench.session.online_order(Order::Draw(true));
    until(&mut bench, &mut said, "the draw", |_, said| {
        said.iter().any(|l| l == "lichess result: 1/2-1/2 (draw)")
    });
    assert_eq!(bench.session.online_offer(), None);
    assert!(!bench.session.is_online());
}

/// Plays `uci` on the bench's board and waits until the board's game has it.
fn play_uci(bench: &mut Bench, said: &mut Vec<String>, mv: &str) {
    let plies = bench.session.snapshot().game.moves.len();
    let mv = mv
        .parse::<UciMove>()
        .expect("UCI")
        .to_move(&bench.session.snapshot().position)
        .expect("legal");
    bench.play(mv);
    until(bench, said, "the move is recorded", |bench, _| {
        bench.session.snapshot().game.moves.len() == plies + 1
    });
}

#[test]
fn a_move_taken_back_on_the_board_is_taken_back_on_lichess_and_its_successor_sent() {
    // An opponent who has not answered yet: the takeback comes before its reply.
    let server = StandIn::start(
        &[TOKEN],
        Script {
            keep_alive: Duration::from_millis(300),
            ..Script::default()
        },
    );
    let (mut bench, mut said) = online_game(&server, 1, Duration::from_millis(100));
    play_uci(&mut bench, &mut said, "e2e4");
    until(&mut bench, &mut said, "e4 on lichess", |_, _| {
        server.game_moves() == ["e2e4"]
    });
    // The pawn goes back by hand.
    bench.perform(Action::Lift(Square::E4));
    bench.perform(Action::Place(
        Square::E2,
        Piece::from_char('P').expect("a pawn"),
    ));
    until(
        &mut bench,
        &mut said,
        "the takeback on lichess",
        |_, said| said.iter().any(|l| l.contains("The opponent agreed")),
    );
    assert!(
        said.iter()
            .any(|l| l.contains("taken back on the board: asking the opponent")),
        "{said:#?}"
    );
    assert!(server.game_moves().is_empty());
    let asked = server
        .requests()
        .iter()
        .filter(|(_, path, _)| path.ends_with("/takeback/yes"))
        .count();
    assert_eq!(asked, 1, "asked once");
    // The move played instead goes as any move does.
    play_uci(&mut bench, &mut said, "d2d4");
    until(&mut bench, &mut said, "d4 on lichess", |_, _| {
        server.game_moves() == ["d2d4"]
    });
    assert_eq!(server.player_moves(), ["e2e4", "d2d4"]);
}

#[test]
fn a_challenge_that_comes_in_is_accepted_and_played_from_the_board() {
    let server = StandIn::start(
        &[TOKEN],
        Script {
            opponent_moves: vec!["c7c5".into()],
            clock_limit_s: 900,
            increment_s: 10,
            keep_alive: Duration::from_millis(300),
            // A connection that dies unnoticed while the challenge is awaited.
            silence_first_event_stream: true,
            ..Script::default()
        },
    );
    let mut bench = Bench::start(Protocol::Liboard);
    bench.session.keep_news();
    let request = Request {
        opponent: Opponent::Accept(Some("maia1".into())),
        clock: ten_plus_five(),
        rated: false,
    };
    bench.session.play_online(
        &server.url,
        Some(TOKEN.into()),
        false,
        request,
        patience(Duration::from_millis(100)),
    );
    let mut said = Vec::new();
    until(&mut bench, &mut said, "waiting", |_, said| {
        said.iter()
            .any(|l| l == "lichess: waiting for a challenge from maia1")
    });
    assert_eq!(
        bench.session.online_status().as_deref(),
        Some("Waiting for a challenge from maia1…")
    );
    until(&mut bench, &mut said, "the silence noticed", |_, _| {
        server.event_streams_opened() == 2
    });
    let id = server.incoming_challenge();
    until(&mut bench, &mut said, "the game starts", |_, said| {
        said.contains(&format!("lichess game {id}"))
    });
    assert!(
        said.iter()
            .any(|l| l == "lichess: accepting Maia1's 15+10 casual game"),
        "{said:#?}"
    );
    play_uci(&mut bench, &mut said, "e2e4");
    until(&mut bench, &mut said, "the reply", |bench, _| {
        bench.session.snapshot().expected_move.is_some()
    });
    assert_eq!(server.game_moves(), ["e2e4", "c7c5"]);
    let (pgn, _) = bench.session.pgn();
    assert!(pgn.contains("[White \"Tester\"]"), "{pgn}");
    assert!(pgn.contains("[Black \"Maia1\"]"), "{pgn}");
}

#[test]
fn the_boards_game_is_broadcast_whole_through_a_429_and_a_lost_push() {
    let round = "brdRnd01";
    let server = StandIn::start(
        &[TOKEN],
        Script {
            broadcast_round: Some(round.into()),
            too_many_requests_on: Some(format!("/api/broadcast/round/{round}/push")),
            lose_pushes: 1,
            ..Script::default()
        },
    );
    let mut bench = Bench::start(Protocol::Liboard);
    bench.session.keep_news();
    bench.session.set_table(TableTags {
        white: Some("Ann Able".into()),
        black: Some("Bob Baker".into()),
        round: Some("3".into()),
        board: Some(7),
    });
    bench.session.broadcast(BroadcastTo {
        url: server.url.clone(),
        token: Some(TOKEN.into()),
        every: Some(Duration::from_millis(100)),
        after_429: Duration::from_millis(300),
        ..BroadcastTo::lichess(&format!(
            "https://lichess.org/broadcast/club-night/round-3/{round}"
        ))
    });
    assert!(bench.session.is_broadcasting());
    let mut said = Vec::new();
    for mv in ["e2e4", "e7e5", "g1f3", "b8c6"] {
        play_uci(&mut bench, &mut said, mv);
    }
    until(&mut bench, &mut said, "the game on lichess", |_, said| {
        said.iter().any(|l| l == "broadcast: 4 moves")
    });
    // The 429 and the lost push were told; the next push carried everything.
    assert!(
        said.iter()
            .any(|l| l.starts_with("broadcast: ") && l.contains("too many requests")),
        "{said:#?}"
    );
    assert!(
        said.iter()
            .any(|l| l.starts_with("broadcast: lichess cannot be reached")),
        "{said:#?}"
    );
    let pushes = server.pushes();
    let last = pushes.last().expect("a push");
    for tag in [
        "[White \"Ann Able\"]",
        "[Black \"Bob Baker\"]",
        "[Round \"3\"]",
        "[Board \"7\"]",
        "[Result \"*\"]",
    ] {
        assert!(last.contains(tag), "{tag}: {last}");
    }
    assert!(last.contains("1. e4 e5 2. Nf3 Nc6"), "{last}");
    // Whole games, never more than one per change: pushes waiting were replaced.
    assert!(pushes.len() <= 4, "{pushes:#?}");
    assert!(pushes.iter().all(|pgn| pgn.matches("[Event ").count() == 1));
    // The last move goes, and a game begun later on the board is another round's: it does
    // not take this one's place.
    play_uci(&mut bench, &mut said, "f1c4");
    bench.perform(Action::SetUp(shakmaty::Chess::default()));
    until(&mut bench, &mut said, "the new game noticed", |_, said| {
        said.iter()
            .any(|l| l.starts_with("broadcast: a new game began on the board"))
    });
    play_uci(&mut bench, &mut said, "d2d4");
    bench.session.conclude();
    lines(&mut bench.session, &mut said);
    let last = server.pushes().last().cloned().unwrap_or_default();
    assert!(last.contains("3. Bc4"), "{last}");
    assert!(server.pushes().iter().all(|pgn| pgn.contains("1. e4")));
    assert!(said.iter().any(|l| l == "broadcast: 5 moves"), "{said:#?}");
    assert!(!bench.session.is_broadcasting());
}

#[test]
fn a_broadcast_with_a_token_that_may_not_push_says_so_and_stops() {
    let round = "brdRnd02";
    let server = StandIn::start(
        &[TOKEN],
        Script {
            broadcast_round: Some(round.into()),
            ..Script::default()
        },
    );
    let mut bench = Bench::start(Protocol::Liboard);
    bench.session.keep_news();
    bench.session.broadcast(BroadcastTo {
        url: server.url.clone(),
        token: Some(NO_SCOPE_TOKEN.into()),
        every: Some(Duration::from_millis(100)),
        after_429: Duration::from_millis(300),
        ..BroadcastTo::lichess(round)
    });
    let mut said = Vec::new();
    play_uci(&mut bench, &mut said, "e2e4");
    until(&mut bench, &mut said, "the refusal", |_, said| {
        said.iter().any(|l| l.contains("study:write"))
    });
    assert!(server.pushes().is_empty());
    assert!(
        bench
            .session
            .broadcast_status()
            .is_some_and(|status| status.contains("study:write")),
        "{:?}",
        bench.session.broadcast_status()
    );
}

/// Whether a secret service can be run for a test (dbus-run-session, dbus-send and
/// gnome-keyring); a failure where `BOARDSIGHT_REQUIRE_KEYRING` asks for one, as `.ci/run`
/// does.
fn secret_service_available() -> bool {
    let found = ["dbus-run-session", "dbus-send", "gnome-keyring-daemon"]
        .iter()
        .all(|tool| {
            std::process::Command::new("sh")
                .args(["-c", &format!("command -v {tool}")])
                .output()
                .is_ok_and(|out| out.status.success())
        });
    assert!(
        found || std::env::var_os("BOARDSIGHT_REQUIRE_KEYRING").is_none(),
        "dbus-run-session, dbus-send and gnome-keyring-daemon are needed"
    );
    if !found {
        eprintln!("no dbus-run-session or gnome-keyring-daemon: the keyring is not tried");
    }
    found
}

#[test]
fn a_token_kept_in_the_system_keyring_plays_when_no_variable_is_set() {
    if !secret_service_available() {
        return;
    }
    let server = StandIn::start(
        &["lip_kept"],
        Script {
            opponent_moves: vec!["e7e5".into()],
            reply_after: Duration::from_millis(50),
            keep_alive: Duration::from_millis(300),
            ..Script::default()
        },
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let (mut simulator, link) = simulated_liboard(dir.path(), "1. e4 e5 *\n");
    // A private D-Bus session with gnome-keyring's Secret Service, unlocked: the token is
    // kept, used by listen without LICHESS_TOKEN, and forgotten.
    // The unlocked daemon must own the Secret Service's name before it is asked: else D-Bus
    // starts a second, locked one for the request.
    let script = r#"printf pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1
tries=0
until dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets | grep -q true; do
    tries=$((tries + 1)); [ "$tries" -lt 50 ] || exit 12; sleep 0.1
done
tries=0
until echo lip_kept | "$BS" token; do
    tries=$((tries + 1)); [ "$tries" -lt 10 ] || exit 10; sleep 0.5
done
"$BS" listen --protocol liboard --idle-exit 5 --port "$LINK" --lichess ai:1 --lichess-url "$URL"
played=$?
"$BS" token --forget || exit 11
exit $played"#;
    let run = std::process::Command::new("dbus-run-session")
        .args(["--", "sh", "-c", script])
        .env("BS", env!("CARGO_BIN_EXE_boardsight"))
        .env("LINK", &link)
        .env("URL", &server.url)
        .env("HOME", dir.path())
        .env_remove("LICHESS_TOKEN")
        .output()
        .expect("dbus-run-session runs");
    let _ = simulator.kill();
    let _ = simulator.wait();
    let printed = String::from_utf8_lossy(&run.stdout);
    let errors = String::from_utf8_lossy(&run.stderr);
    assert_eq!(
        run.status.code(),
        Some(0),
        "10: not kept, 11: not forgotten, 12: no Secret Service\n{printed}\n{errors}"
    );
    assert!(
        printed.contains("The lichess token is kept in the system keyring."),
        "{printed}"
    );
    assert!(printed.contains("lichess game "), "{printed}");
    assert!(
        printed.contains("The lichess token is no longer kept in the system keyring."),
        "{printed}"
    );
    assert_eq!(server.player_moves(), ["e2e4"]);
    // Never printed.
    assert!(!printed.contains("lip_kept") && !errors.contains("lip_kept"));
}

#[test]
fn without_a_secret_service_the_token_command_says_what_is_missing() {
    let run = boardsight()
        .arg("token")
        .env_remove("DBUS_SESSION_BUS_ADDRESS")
        .env(
            "XDG_RUNTIME_DIR",
            tempfile::tempdir().expect("temp dir").path(),
        )
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child
                .stdin
                .take()
                .expect("stdin")
                .write_all(b"lip_nowhere\n")?;
            child.wait_with_output()
        })
        .expect("token runs");
    let said = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{said}");
    assert!(
        said.contains("the system keyring cannot be reached"),
        "{said}"
    );
    assert!(!said.contains("lip_nowhere"), "{said}");
}

#[test]
fn a_takeback_lichess_declines_is_asked_once_and_the_board_put_back_plays_on() {
    let server = StandIn::start(
        &[TOKEN],
        Script {
            opponent_moves: vec!["e7e5".into()],
            reply_after: Duration::from_secs(3),
            decline_takebacks: true,
            keep_alive: Duration::from_millis(300),
            ..Script::default()
        },
    );
    let (mut bench, mut said) = online_game(&server, 1, Duration::from_millis(100));
    play_uci(&mut bench, &mut said, "e2e4");
    until(&mut bench, &mut said, "e4 on lichess", |_, _| {
        server.game_moves() == ["e2e4"]
    });
    let pawn = Piece::from_char('P').expect("a pawn");
    bench.perform(Action::Lift(Square::E4));
    bench.perform(Action::Place(Square::E2, pawn));
    until(&mut bench, &mut said, "the refusal", |_, said| {
        said.iter().any(|l| l.contains("No takeback on lichess"))
    });
    // Declined: not asked again while the board stays taken back.
    bench.run_for(Duration::from_millis(800));
    lines(&mut bench.session, &mut said);
    let asked = |server: &StandIn, answer: &str| {
        server
            .requests()
            .iter()
            .filter(|(_, path, _)| path.ends_with(&format!("/takeback/{answer}")))
            .count()
    };
    assert_eq!(asked(&server, "yes"), 1, "{said:#?}");
    // The pawn back on e4: the game goes on, the opponent's reply awaited and made.
    bench.perform(Action::Lift(Square::E2));
    bench.perform(Action::Place(Square::E4, pawn));
    until(&mut bench, &mut said, "the reply", |bench, _| {
        bench.session.snapshot().expected_move.is_some()
    });
    let reply = bench.session.snapshot().expected_move.expect("a reply");
    bench.play(reply);
    play_uci(&mut bench, &mut said, "g1f3");
    until(&mut bench, &mut said, "Nf3 on lichess", |_, _| {
        server.game_moves() == ["e2e4", "e7e5", "g1f3"]
    });
    assert_eq!(asked(&server, "yes"), 1);
}
