//! Where the board and the sensor grid go in the room the central area has: the board as
//! tall as it allows, the grid beside it while that leaves it readable, else in the moves'
//! panel. Pure arithmetic, so every window size can be checked.

/// The gap between the board and the grid beside it.
pub const GAP: f32 = 16.0;
/// The narrowest the grid beside the board is drawn (20 px a square) with its legend.
pub const GRID_MIN: f32 = 160.0;
/// The board is never drawn smaller than this.
const BOARD_MIN: f32 = 160.0;

/// The sizes chosen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BoardLayout {
    /// The board's side.
    pub board: f32,
    /// The sensor grid's side, when it stands beside the board (else it is in the moves'
    /// panel).
    pub grid_beside: Option<f32>,
}

/// `width` × `height` is the room for the board (and the grid beside it), `bar` the width
/// the evaluation bar takes; `large_grid` asks for the grid as large as the board.
pub fn board_layout(width: f32, height: f32, bar: f32, large_grid: bool) -> BoardLayout {
    let width = (width - bar).max(BOARD_MIN);
    let height = height.max(BOARD_MIN);
    if large_grid {
        let side = ((width - GAP) / 2.0).min(height).max(BOARD_MIN);
        return BoardLayout {
            board: side,
            grid_beside: Some(side),
        };
    }
    let by_height = height;
    let beside = width - GAP - by_height;
    if beside >= GRID_MIN {
        // Room to spare: the grid half the board's size at most.
        return BoardLayout {
            board: by_height,
            grid_beside: Some(beside.min(by_height * 0.5)),
        };
    }
    // The grid beside at its smallest, if the board stays at least 80% as tall as it could be.
    let narrowed = width - GAP - GRID_MIN;
    if narrowed >= 0.8 * by_height.min(width) {
        return BoardLayout {
            board: narrowed.min(by_height),
            grid_beside: Some(GRID_MIN),
        };
    }
    BoardLayout {
        board: width.min(by_height).max(BOARD_MIN),
        grid_beside: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wide_area_gives_the_board_all_its_height_and_the_grid_half_of_it_beside() {
        let layout = board_layout(1450.0, 960.0, 0.0, false);
        assert_eq!(layout.board, 960.0);
        assert_eq!(layout.grid_beside, Some(474.0));
    }

    #[test]
    fn a_laptop_area_narrows_the_board_a_little_to_keep_the_grid_beside() {
        let layout = board_layout(810.0, 690.0, 0.0, false);
        assert_eq!(layout.grid_beside, Some(GRID_MIN));
        assert_eq!(layout.board, 810.0 - GAP - GRID_MIN);
    }

    #[test]
    fn a_narrow_area_sends_the_grid_to_the_moves_panel_and_keeps_the_board_tall() {
        let layout = board_layout(560.0, 520.0, 0.0, false);
        assert_eq!(layout.grid_beside, None);
        assert_eq!(layout.board, 520.0);
        // The evaluation bar's width comes off the board's room.
        let layout = board_layout(560.0, 560.0, 40.0, false);
        assert_eq!(layout.board, 520.0);
    }

    #[test]
    fn a_large_grid_is_as_large_as_the_board() {
        let layout = board_layout(1000.0, 700.0, 0.0, true);
        assert_eq!(Some(layout.board), layout.grid_beside);
        assert_eq!(layout.board, (1000.0 - GAP) / 2.0);
    }
}
