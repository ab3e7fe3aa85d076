//! The board's own lights and beeper, through a real pty: the session follows a simulated
//! DGT Centaur, a simulated DGT board and a simulated LiBoard while Stockfish plays Black,
//! and every byte the board receives is kept. The LED and sound commands are checked byte
//! for byte against the layouts the boards' public sources give (DGTCentaur Mods'
//! `board.py` for the Centaur, `dgtbrd.h` and PicoChess for the DGT `0x60` command),
//! worked out here by hand rather than by boardsight's encoders.
#![cfg(unix)]

mod common;

use std::time::Duration;

use boardsight::engine::Strength;
use boardsight::protocol::{Protocol, a8_order_of};
use boardsight::sim::Action;
use common::live::{Bench, e2e4};
use shakmaty::{Color, Piece, Square};

/// The simulated Centaur's bus address.
const CENTAUR: [u8; 2] = [0x06, 0x50];

/// The Centaur's packets among the host's bytes: 4-byte requests, the `4D 4E` wake-up,
/// and `B0`/`B1` packets of the length their header gives.
fn centaur_packets(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut packets = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let len = match bytes[i] {
            0x4D => 2,
            0xB0 | 0xB1 if i + 2 < bytes.len() => {
                (usize::from(bytes[i + 1]) << 7) | usize::from(bytes[i + 2])
            }
            _ => 4,
        };
        let end = (i + len).min(bytes.len());
        packets.push(bytes[i..end].to_vec());
        i = end;
    }
    packets
}

/// A Centaur packet to address 06 50, its checksum the sum of its bytes mod 128.
fn centaur(kind: u8, payload: &[u8]) -> Vec<u8> {
    let mut packet = vec![
        kind,
        0x00,
        (payload.len() + 6) as u8,
        CENTAUR[0],
        CENTAUR[1],
    ];
    packet.extend_from_slice(payload);
    packet.push((packet.iter().map(|&b| u32::from(b)).sum::<u32>() % 128) as u8);
    packet
}

/// `ledArray` as DGTCentaur Mods sends it: `05`, speed 3, `00`, intensity 5, the squares
/// numbered a8 = 0 … h1 = 63, a1 first.
fn centaur_lights(squares: &[Square]) -> Vec<u8> {
    let mut payload = vec![0x05, 0x03, 0x00, 0x05];
    payload.extend(squares.iter().map(|&s| a8_order_of(s)));
    centaur(0xB0, &payload)
}

/// The DGT commands among the host's bytes: one byte each, but `0x60 size body…`.
fn dgt_commands(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut commands = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let len = match bytes[i] {
            0x60 | 0x2b if i + 1 < bytes.len() => 2 + usize::from(bytes[i + 1]),
            _ => 1,
        };
        let end = (i + len).min(bytes.len());
        commands.push(bytes[i..end].to_vec());
        i = end;
    }
    commands
}

const DGT_LIGHTS_OFF: [u8; 6] = [0x60, 0x04, 0x00, 0x40, 0x40, 0x00];

/// Squares in the order boardsight lists them (a1, b1, … h8).
fn sorted(squares: &[Square]) -> Vec<Square> {
    let mut squares = squares.to_vec();
    squares.sort();
    squares
}

/// What the board's lights and beeper were sent, in order.
fn signals(protocol: Protocol, bytes: &[u8]) -> Vec<Vec<u8>> {
    match protocol {
        Protocol::Centaur => centaur_packets(bytes)
            .into_iter()
            .filter(|p| matches!(p.first(), Some(0xB0 | 0xB1)))
            .collect(),
        Protocol::Dgt => dgt_commands(bytes)
            .into_iter()
            .filter(|c| c.first() == Some(&0x60))
            .collect(),
        _ => Vec::new(),
    }
}

/// The commands that light exactly `squares`, as the protocol sends them.
fn lights(protocol: Protocol, squares: &[Square]) -> Vec<Vec<u8>> {
    let squares = sorted(squares);
    match protocol {
        Protocol::Centaur if squares.is_empty() => vec![centaur(0xB0, &[0x00])],
        Protocol::Centaur => vec![centaur_lights(&squares)],
        _ => {
            let mut commands = vec![DGT_LIGHTS_OFF.to_vec()];
            for pair in squares.chunks(2) {
                let (from, to) = (pair[0], pair[pair.len() - 1]);
                commands.push(vec![
                    0x60,
                    0x04,
                    0x01,
                    a8_order_of(from),
                    a8_order_of(to),
                    0x00,
                ]);
            }
            commands
        }
    }
}

/// The signals sent since `from` of the list.
fn since(protocol: Protocol, bench: &Bench, from: usize) -> Vec<Vec<u8>> {
    signals(protocol, &bench.received)[from..].to_vec()
}

/// Plays 1. e4 against Stockfish, makes its reply, then leaves the board illegal and puts
/// it right, checking what the board's lights and beeper are sent at each step.
fn engine_move_and_illegal_state(protocol: Protocol) {
    let Some(stockfish) = common::stockfish_or_skip() else {
        return;
    };
    let mut bench = Bench::start(protocol);
    bench
        .session
        .seat_engine(&stockfish, Color::Black, Strength::Nodes(2_000));
    bench.play(e2e4());
    bench.run_until("the engine moves", |s| s.snapshot().expected_move.is_some());
    // The confirmation of 1. e4 is over by now, whatever the engine's speed.
    bench.run_for(Duration::from_millis(800));
    let reply = bench.session.snapshot().expected_move.expect("the reply");
    let (from, to) = (reply.from().expect("a from square"), reply.to());
    let sent = since(protocol, &bench, 0);
    let wanted = lights(protocol, &[from, to]);
    assert!(
        sent.ends_with(&wanted),
        "{protocol}: the engine's move {from}{to} lights {wanted:02x?}; sent {sent:02x?}"
    );
    if protocol == Protocol::Centaur {
        // 1. e4 was confirmed with a short beep, as `SOUND_GENERAL` sounds.
        let beep = centaur(0xB1, &[0x4C, 0x08]);
        assert!(sent.contains(&beep), "{sent:02x?}");
    }

    // Made, the move's lights go out (after its short confirmation).
    let before = signals(protocol, &bench.received).len();
    bench.play(reply);
    bench.run_until("the reply is recorded", |s| {
        s.snapshot().game.moves.len() == 2
    });
    bench.run_for(Duration::from_millis(900));
    let sent = since(protocol, &bench, before);
    assert!(
        sent.ends_with(&lights(protocol, &[])),
        "{protocol}: the lights go out once the move is made; sent {sent:02x?}"
    );

    // Two white pawns in the air: no move does that. Nothing lights at once…
    let before = signals(protocol, &bench.received).len();
    bench.perform(Action::Lift(Square::D2));
    bench.perform(Action::Lift(Square::F2));
    bench.run_until("the board is illegal", |s| {
        matches!(
            s.snapshot().status,
            boardsight::recognizer::BoardStatus::Illegal { .. }
        )
    });
    assert!(
        since(protocol, &bench, before).is_empty(),
        "{protocol}: a board illegal for a moment lights nothing"
    );
    // …but left so for a second, the squares to put right light (and the Centaur beeps).
    bench.run_for(Duration::from_millis(1_300));
    let sent = since(protocol, &bench, before);
    let mut wanted = Vec::new();
    if protocol == Protocol::Centaur {
        wanted.push(centaur(0xB1, &[0x4E, 0x0C, 0x48, 0x10]));
    }
    wanted.extend(lights(protocol, &[Square::D2, Square::F2]));
    assert_eq!(sent, wanted, "{protocol}: what to put right lights");

    // Put right: the lights go out.
    let before = signals(protocol, &bench.received).len();
    let pawn = Piece::from_char('P').expect("a pawn");
    bench.perform(Action::Place(Square::D2, pawn));
    bench.perform(Action::Place(Square::F2, pawn));
    bench.run_for(Duration::from_millis(300));
    assert_eq!(
        since(protocol, &bench, before),
        lights(protocol, &[]),
        "{protocol}: legal again, every light goes out"
    );
}

#[test]
fn a_centaur_lights_the_engines_move_and_what_to_put_right_and_beeps() {
    engine_move_and_illegal_state(Protocol::Centaur);
}

#[test]
fn a_dgt_board_with_leds_lights_the_engines_move_and_what_to_put_right() {
    engine_move_and_illegal_state(Protocol::Dgt);
}

#[test]
fn a_liboard_has_no_lights_and_is_sent_nothing() {
    let Some(stockfish) = common::stockfish_or_skip() else {
        return;
    };
    let mut bench = Bench::start(Protocol::Liboard);
    bench
        .session
        .seat_engine(&stockfish, Color::Black, Strength::Nodes(2_000));
    bench.play(e2e4());
    bench.run_until("the engine moves", |s| s.snapshot().expected_move.is_some());
    bench.perform(Action::Lift(Square::D2));
    bench.perform(Action::Lift(Square::F2));
    bench.run_for(Duration::from_millis(1_500));
    assert!(
        bench.received.is_empty(),
        "a LiBoard is sent nothing: {:02x?}",
        bench.received
    );
    assert_eq!(bench.session.board_lights(), shakmaty::Bitboard::EMPTY);
}
