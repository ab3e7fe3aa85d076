//! `boardsight simulate --protocol P [--pgn FILE] [--speed X] [--link PATH] [--hands H]`

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::usage_error;
use crate::pgn::read_games;
use crate::protocol::Protocol;
use crate::session::words::signal_line;
use crate::sim::device::Device;
use crate::sim::pty::serve;
use crate::sim::{HandStyle, sample, script_games};

/// How the simulated hands handle the pieces.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Hands {
    /// Lift and place; captures in either order, castling either piece first, a piece
    /// straightened now and then, sensor dropouts.
    #[default]
    Plain,
    /// Also moves slid along the board, pieces knocked over and set back, pieces nudged
    /// into place, a pawn left off-centre (unseen), fast captures and electrical noise.
    Lively,
}

impl Hands {
    pub fn style(self) -> HandStyle {
        match self {
            Hands::Plain => HandStyle::default(),
            Hands::Lively => HandStyle::lively(),
        }
    }
}

pub fn run(
    protocol: Protocol,
    pgn: Option<&Path>,
    speed: f64,
    link: Option<&Path>,
    hands: Hands,
) -> ExitCode {
    if !(speed.is_finite() && speed > 0.0) {
        return usage_error("--speed must be a positive number");
    }
    let games = match pgn {
        None => sample::games(),
        Some(path) => {
            let bytes = match std::fs::read(path) {
                Ok(bytes) => bytes,
                Err(e) => return usage_error(&format!("{}: {e}", path.display())),
            };
            let mut games = Vec::new();
            for game in read_games(&bytes) {
                match game {
                    Ok(game) => games.push(game.game),
                    Err(e) => eprintln!("boardsight: {}: {e} (skipped)", path.display()),
                }
            }
            if games.is_empty() {
                return usage_error(&format!("{}: no game to play", path.display()));
            }
            games
        }
    };
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        // Without a handler Ctrl-C still ends the process; with one, the link is removed.
        if let Err(e) = ctrlc::set_handler(move || stop.store(true, Ordering::Relaxed)) {
            eprintln!("boardsight: Ctrl-C will not remove the link: {e}");
        }
    }
    let script = script_games(&games, &hands.style());
    let mut announce = |path: &str| {
        match link {
            Some(link) => println!(
                "simulated {protocol} board on {path} (linked at {})",
                link.display()
            ),
            None => println!("simulated {protocol} board on {path}"),
        }
        let _ = std::io::stdout().flush();
    };
    let mut device = Device::new(protocol, speed);
    // The board's lights and sounds, as the host sets them, each on a line of its own.
    device.tell_signals(Box::new(|signal| {
        println!("{}", signal_line(signal));
        let _ = std::io::stdout().flush();
    }));
    match serve(device, &script, link, &stop, true, &mut announce) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("boardsight: simulated board: {e}");
            ExitCode::FAILURE
        }
    }
}
