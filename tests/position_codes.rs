//! Every position of every corpus game survives the short position code, and reads as the
//! same position as its FEN does.

mod common;

use std::path::Path;

use boardsight::game::GameRecord;
use boardsight::game::fen_of;
use boardsight::pgn::position_code::{decode, encode, parse_position};
use shakmaty::fen::Fen;
use shakmaty::{Chess, EnPassantMode};

/// The position's FEN without the move clocks, which the code does not keep.
fn placement(position: &Chess) -> String {
    let fen = Fen::from_position(position, EnPassantMode::Legal).to_string();
    fen.rsplitn(3, ' ').nth(2).unwrap_or_default().to_owned()
}

#[test]
fn every_corpus_position_round_trips_through_its_code() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut positions = 0;
    let mut code_chars = 0;
    let mut fen_chars = 0;
    for name in common::accuracy::session_names(&dir) {
        let text = std::fs::read_to_string(dir.join(format!("{name}.truth.json"))).expect("truth");
        let truth: serde_json::Value = serde_json::from_str(&text).expect("json");
        let games = truth["games"].as_array().expect("games");
        for game in games {
            let moves: Vec<&str> = game
                .as_array()
                .expect("moves")
                .iter()
                .filter_map(|m| m.as_str())
                .collect();
            let record = GameRecord::from_uci(Chess::default(), moves).expect("legal game");
            for position in record.positions() {
                let code = encode(&position);
                let back = decode(&code).unwrap_or_else(|e| panic!("{name}: {code}: {e}"));
                assert_eq!(placement(&back), placement(&position), "{name}: {code}");
                let typed = parse_position(&code).map(|p| placement(&p)).ok();
                assert_eq!(typed, Some(placement(&position)));
                positions += 1;
                code_chars += code.len();
                fen_chars += fen_of(&position).len();
            }
        }
    }
    println!(
        "{positions} positions: codes {:.1} characters on average, FEN {:.1}",
        code_chars as f64 / positions as f64,
        fen_chars as f64 / positions as f64
    );
    assert!(positions > 20_000, "{positions}");
    assert!(code_chars < fen_chars);
}

#[test]
fn chess960_castling_rights_survive_the_code() {
    for number in [0, 3, 74, 458, 959] {
        let start = boardsight::chess960::start_position(number).expect("a start");
        let code = encode(&start);
        assert!(code.contains('.'), "{number}: {code}");
        if number == 0 {
            // BBQNNRKR: O-O with the h rook, O-O-O with the f rook, for both sides.
            assert!(code.ends_with(".HFHF"), "{code}");
        }
        assert_eq!(decode(&code), Ok(start.clone()), "{number}: {code}");
    }
    // An inner rook keeps its right (X-FEN names its file): rooks a1 and c1, right on c1.
    let inner = boardsight::game::parse_fen("4k3/8/8/8/8/8/8/R1RK4 w C - 0 1").expect("fen");
    let back = decode(&encode(&inner)).expect("decodes");
    assert_eq!(fen_of(&back), "4k3/8/8/8/8/8/8/R1RK4 w C - 0 1");
    assert!(decode("E8eqJuYqSSSQAAAAA22227N_c4.A").is_err());
}

#[test]
fn set_up_takes_a_chess960_start_by_number_and_says_what_is_wrong() {
    let zero = boardsight::chess960::start_position(0).expect("a start");
    assert_eq!(parse_position("Chess960 #0").ok(), Some(zero.clone()));
    assert_eq!(parse_position("960 0").ok(), Some(zero));
    let error = parse_position("chess960 960").expect_err("out of range");
    assert!(error.to_string().contains("0 to 959"), "{error}");
}
