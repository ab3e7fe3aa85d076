//! The virtual board's logic, without I/O: it answers the host with the position and the
//! clock it shows, and turns a new position into the field updates a real board would send.

use shakmaty::{Color, Piece, Position, Square};

use crate::clock::GameClocks;
use crate::protocol::Micros;
use crate::protocol::dgt::{self, DgtClock, HostSaid};
use crate::reading::Millis;

/// Pieces by square (a1 = 0), as the DGT codec takes them.
pub type Pieces = [Option<Piece>; 64];

pub fn pieces_of(board: &shakmaty::Board) -> Pieces {
    std::array::from_fn(|i| board.piece_at(Square::new(i as u32)))
}

/// The squares that differ between two positions, in the order hands would change them:
/// captured pieces lifted first, then the pieces that leave, then the pieces put down.
/// A square whose piece is replaced is reported empty, then with its new piece.
pub fn field_changes(before: &Pieces, after: &Pieces) -> Vec<(Square, Option<Piece>)> {
    let differing: Vec<Square> = Square::ALL
        .into_iter()
        .filter(|&sq| before[sq as usize] != after[sq as usize])
        .collect();
    let replaced = differing
        .iter()
        .filter(|&&sq| before[sq as usize].is_some() && after[sq as usize].is_some());
    let emptied = differing
        .iter()
        .filter(|&&sq| before[sq as usize].is_some() && after[sq as usize].is_none());
    let lifts = replaced.chain(emptied).map(|&sq| (sq, None));
    let places = differing
        .iter()
        .filter_map(|&sq| after[sq as usize].map(|piece| (sq, Some(piece))));
    lifts.chain(places).collect()
}

/// The current game's clock at `now` as a DGT clock shows it; `None` when no clock runs.
/// It stands still once a flag fell or `position` ends the game.
pub fn dgt_clock(clocks: &GameClocks, position: &shakmaty::Chess, now: Millis) -> Option<DgtClock> {
    let game = clocks.running()?;
    let flag = game.flag().map(|(color, _)| color);
    let ended = flag.is_some() || position.is_game_over();
    Some(DgtClock {
        white_ms: clocks.left(Color::White, now)?,
        black_ms: clocks.left(Color::Black, now)?,
        running: (!ended).then(|| game.clock().turn()),
        flag,
    })
}

/// The board side of one DGT link, showing one position and one clock at a time.
pub struct VirtualBoard {
    protocol: dgt::Board,
    shown: Pieces,
    /// The clock as last told, and when (on the caller's `Micros`): it runs on from there.
    clock: Option<(DgtClock, Micros)>,
}

impl VirtualBoard {
    pub fn new(board: &shakmaty::Board) -> Self {
        Self {
            protocol: dgt::Board::default(),
            shown: pieces_of(board),
            clock: None,
        }
    }

    /// Bytes from the host at `now`; returns the replies (a dump shows the current
    /// position, a clock request the clock as it reads now).
    pub fn receive(&mut self, bytes: &[u8], now: Micros) -> Vec<u8> {
        let clock = self.clock_at(now);
        self.protocol
            .receive(bytes, &self.shown, clock.as_ref(), now)
    }

    /// What the host told the clock and the lights since the last call, in order.
    pub fn take_heard(&mut self) -> Vec<HostSaid> {
        self.protocol.take_heard()
    }

    /// Shows the clock as it read at `at` (`None`: no clock); returns what to send now.
    pub fn show_clock(&mut self, clock: Option<DgtClock>, at: Micros) -> Vec<u8> {
        self.clock = clock.map(|clock| (clock, at));
        self.tick(at)
    }

    /// Lets time pass to `now`; returns the clock message to send, if the host's mode
    /// asks for one and what the clock shows changed.
    pub fn tick(&mut self, now: Micros) -> Vec<u8> {
        let clock = self.clock_at(now);
        self.protocol.clock_shown(clock.as_ref(), now)
    }

    fn clock_at(&self, now: Micros) -> Option<DgtClock> {
        self.clock
            .map(|(clock, at)| clock.after(now.saturating_sub(at) / 1000))
    }

    /// Whether the host reset the board since the last call: it starts afresh, and
    /// anything it has not read yet is stale.
    pub fn take_reset(&mut self) -> bool {
        self.protocol.take_reset()
    }

    /// Shows a new settled position; returns the field updates to send (none unless the
    /// host asked for updates).
    pub fn show(&mut self, board: &shakmaty::Board) -> Vec<u8> {
        let next = pieces_of(board);
        let bytes = field_changes(&self.shown, &next)
            .into_iter()
            .flat_map(|(square, piece)| self.protocol.changed(square, piece))
            .collect();
        self.shown = next;
        bytes
    }

    pub fn shown(&self) -> &Pieces {
        &self.shown
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::dgt::{
        BOARD_DUMP_REQUEST, CLOCK_REQUEST, RESET, UPDATE_MODE, UPDATE_NICE, encode_clock,
        encode_dump,
    };
    use shakmaty::fen::Fen;
    use shakmaty::uci::UciMove;
    use shakmaty::{CastlingMode, Chess, Color, Position, Role};

    fn position(fen: &str) -> Chess {
        fen.parse::<Fen>()
            .expect("fen")
            .into_position(CastlingMode::Standard)
            .expect("legal")
    }

    fn after(position: &Chess, uci: &str) -> Chess {
        let m = uci
            .parse::<UciMove>()
            .expect("uci")
            .to_move(position)
            .expect("legal");
        position.clone().play(m).expect("legal")
    }

    fn changes(before: &Chess, after: &Chess) -> Vec<(Square, Option<Piece>)> {
        field_changes(&pieces_of(before.board()), &pieces_of(after.board()))
    }

    fn piece(color: Color, role: Role) -> Option<Piece> {
        Some(Piece { color, role })
    }

    /// Applies updates to a board copy, as a host does.
    fn applied(mut pieces: Pieces, updates: &[(Square, Option<Piece>)]) -> Pieces {
        for &(square, piece) in updates {
            pieces[square as usize] = piece;
        }
        pieces
    }

    #[test]
    fn a_quiet_move_lifts_then_places() {
        let start = Chess::default();
        let e4 = after(&start, "e2e4");
        assert_eq!(
            changes(&start, &e4),
            [
                (Square::E2, None),
                (Square::E4, piece(Color::White, Role::Pawn))
            ]
        );
    }

    #[test]
    fn a_capture_lifts_the_captured_piece_first() {
        let before = position("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
        let exd5 = after(&before, "e4d5");
        assert_eq!(
            changes(&before, &exd5),
            [
                (Square::D5, None),
                (Square::E4, None),
                (Square::D5, piece(Color::White, Role::Pawn))
            ]
        );
    }

    #[test]
    fn castling_moves_king_and_rook() {
        let before = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let castled = after(&before, "e1g1");
        assert_eq!(
            changes(&before, &castled),
            [
                (Square::E1, None),
                (Square::H1, None),
                (Square::F1, piece(Color::White, Role::Rook)),
                (Square::G1, piece(Color::White, Role::King))
            ]
        );
        let long = after(&castled, "e8c8");
        assert_eq!(
            changes(&castled, &long),
            [
                (Square::A8, None),
                (Square::E8, None),
                (Square::C8, piece(Color::Black, Role::King)),
                (Square::D8, piece(Color::Black, Role::Rook))
            ]
        );
    }

    #[test]
    fn en_passant_empties_the_captured_pawns_square() {
        let before = position("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
        let taken = after(&before, "e5d6");
        assert_eq!(
            changes(&before, &taken),
            [
                (Square::D5, None),
                (Square::E5, None),
                (Square::D6, piece(Color::White, Role::Pawn))
            ]
        );
    }

    #[test]
    fn a_promotion_puts_down_the_new_piece() {
        let before = position("1r2k3/2P5/8/8/8/8/8/4K3 w - - 0 1");
        let queened = after(&before, "c7c8q");
        assert_eq!(
            changes(&before, &queened),
            [
                (Square::C7, None),
                (Square::C8, piece(Color::White, Role::Queen))
            ]
        );
        let knight_takes = after(&before, "c7b8n");
        assert_eq!(
            changes(&before, &knight_takes),
            [
                (Square::B8, None),
                (Square::C7, None),
                (Square::B8, piece(Color::White, Role::Knight))
            ]
        );
    }

    #[test]
    fn a_revision_corrects_only_the_squares_that_differ() {
        // The recognizer first took Rh1-f1 and Ke1-g1 for Kg1, then revised it to O-O.
        let before = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let king_walk = position("r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
        let castled = after(&before, "e1g1");
        assert!(changes(&king_walk, &castled).is_empty(), "same pieces");
        // A queen revised into a knight on the same square.
        let queen = position("4k3/2Q5/8/8/8/8/8/4K3 b - - 0 1");
        let knight = position("4k3/2N5/8/8/8/8/8/4K3 b - - 0 1");
        assert_eq!(
            changes(&queen, &knight),
            [
                (Square::C7, None),
                (Square::C7, piece(Color::White, Role::Knight))
            ]
        );
    }

    #[test]
    fn a_takeback_restores_the_position_before() {
        let start = Chess::default();
        let mut later = start.clone();
        for uci in ["e2e4", "d7d5", "e4d5", "d8d5"] {
            later = after(&later, uci);
        }
        let back = changes(&later, &start);
        assert_eq!(
            applied(pieces_of(later.board()), &back),
            pieces_of(start.board())
        );
        // d5 emptied; e2, d7 and d8 filled again.
        assert_eq!(back.len(), 4);
    }

    #[test]
    fn updates_go_out_only_in_update_mode_and_a_dump_shows_the_latest() {
        let start = Chess::default();
        let e4 = after(&start, "e2e4");
        let mut board = VirtualBoard::new(start.board());
        assert!(board.show(e4.board()).is_empty(), "idle: no updates");
        assert_eq!(
            board.receive(&[BOARD_DUMP_REQUEST], 0),
            encode_dump(&pieces_of(e4.board()))
        );
        assert!(board.receive(&[UPDATE_MODE], 0).is_empty());
        let e5 = after(&e4, "e7e5");
        let updates = board.show(e5.board());
        assert_eq!(updates.len(), 2 * 5);
        assert_eq!(&updates[..5], &[0x8E, 0x00, 0x05, 12, 0x00], "e7 emptied");
        assert_eq!(
            &updates[5..],
            &[0x8E, 0x00, 0x05, 28, 7],
            "black pawn on e5"
        );
        board.receive(&[RESET], 0);
        assert!(board.take_reset());
        assert!(board.show(start.board()).is_empty());
        assert_eq!(board.shown(), &pieces_of(start.board()));
    }

    #[test]
    fn the_clock_runs_on_between_what_the_owner_tells() {
        let mut board = VirtualBoard::new(Chess::default().board());
        let no_clock = board.receive(&[CLOCK_REQUEST], 0);
        assert_eq!(no_clock, encode_clock(None));
        assert!(board.receive(&[UPDATE_NICE], 0).is_empty());
        let white_thinks = DgtClock {
            white_ms: 300_900,
            black_ms: 300_000,
            running: Some(Color::White),
            flag: None,
        };
        assert_eq!(
            board.show_clock(Some(white_thinks), 1_000_000),
            encode_clock(Some(&white_thinks))
        );
        assert!(
            board.tick(1_500_000).is_empty(),
            "still 5:00 on the display"
        );
        let later = DgtClock {
            white_ms: 298_900,
            ..white_thinks
        };
        assert_eq!(board.tick(3_000_000), encode_clock(Some(&later)));
        assert_eq!(
            board.receive(&[CLOCK_REQUEST], 3_000_000),
            encode_clock(Some(&later))
        );
        assert_eq!(board.show_clock(None, 4_000_000), encode_clock(None));
        assert_eq!(board.receive(&[CLOCK_REQUEST], 9_000_000), no_clock);
    }

    #[test]
    fn the_session_clock_reads_as_a_dgt_clock() {
        use crate::recognizer::event::{Event, EventKind};
        let mut clocks = GameClocks::new(Some("1+2".parse().expect("a time control")));
        assert_eq!(dgt_clock(&clocks, &Chess::default(), 0), None);
        let start = Chess::default();
        clocks.on_event(&Event {
            t: 0,
            kind: EventKind::NewGame {
                fen: crate::game::fen_of(&start),
            },
        });
        assert_eq!(
            dgt_clock(&clocks, &start, 10_000),
            Some(DgtClock {
                white_ms: 50_000,
                black_ms: 60_000,
                running: Some(Color::White),
                flag: None,
            })
        );
        let e4 = after(&start, "e2e4");
        let mv = e4_move(&start);
        clocks.on_event(&Event {
            t: 10_000,
            kind: EventKind::Move {
                ply: 1,
                mv,
                san: shakmaty::san::SanPlus::from_move(start.clone(), mv),
            },
        });
        assert_eq!(
            dgt_clock(&clocks, &e4, 15_000).map(|c| (c.white_ms, c.black_ms, c.running)),
            Some((52_000, 55_000, Some(Color::Black)))
        );
        // Mate stops it (a made-up mate: the clock does not check the moves).
        let mated = position("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
        assert_eq!(
            dgt_clock(&clocks, &mated, 15_000).map(|c| c.running),
            Some(None)
        );
        assert!(clocks.check_flag(&e4, 70_000).is_some());
        assert_eq!(
            dgt_clock(&clocks, &e4, 80_000),
            Some(DgtClock {
                white_ms: 52_000,
                black_ms: 0,
                running: None,
                flag: Some(Color::Black),
            })
        );
    }

    fn e4_move(position: &Chess) -> shakmaty::Move {
        "e2e4"
            .parse::<UciMove>()
            .expect("uci")
            .to_move(position)
            .expect("legal")
    }
}
