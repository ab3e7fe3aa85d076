//! Built-in sample games for the simulated board: castling on both sides, en passant and
//! promotions, so a demo shows what the recognizer handles.

use shakmaty::san::San;
use shakmaty::{Chess, Position};

use crate::game::GameRecord;

const SAMPLES: [&str; 2] = [
    // Castling on both sides, en passant, a capture-rich middle game.
    "e4 d5 e5 f5 exf6 Nxf6 Nf3 Bg4 Be2 Nc6 O-O Qd7 d4 O-O-O c4 dxc4 Bxc4 Bxf3 Qxf3 Nxd4 \
     Qd3 e5 Be3 Kb8 Nc3 Bc5 Rad1 Qg4 Bxd4 exd4 Nb5 a6 Nxd4 Rhe8 h3 Qg6 Qxg6 hxg6",
    // A pawn runs to promotion.
    "d4 e5 dxe5 d6 exd6 Be6 dxc7 Qxd1+ Kxd1 Nc6 c8=Q+ Rxc8 e4 Nf6 f3 Ke7 Bd3 Nd4",
];

/// The sample games, parsed.
pub fn games() -> Vec<GameRecord> {
    SAMPLES.iter().filter_map(|text| parse(text)).collect()
}

fn parse(text: &str) -> Option<GameRecord> {
    let mut position = Chess::default();
    let mut game = GameRecord::new(Chess::default());
    for token in text.split_whitespace() {
        let m = token.parse::<San>().ok()?.to_move(&position).ok()?;
        position.play_unchecked(m);
        game.moves.push(m);
    }
    Some(game)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sample_parses_in_full() {
        let games = games();
        assert_eq!(games.len(), SAMPLES.len());
        for (game, text) in games.iter().zip(SAMPLES) {
            assert_eq!(game.moves.len(), text.split_whitespace().count());
        }
    }
}
