//! `boardsight token [--forget]`: keeps the lichess token given on standard input in the
//! system keyring, or removes it. The token is never echoed.

use std::io::{BufRead, IsTerminal};
use std::process::ExitCode;

use super::usage_error;
use crate::online::token;

pub fn run(forget: bool) -> ExitCode {
    if forget {
        return match token::forget() {
            Ok(true) => {
                println!("The lichess token is no longer kept in the system keyring.");
                ExitCode::SUCCESS
            }
            Ok(false) => {
                println!("No lichess token was kept in the system keyring.");
                ExitCode::SUCCESS
            }
            Err(problem) => usage_error(&problem),
        };
    }
    let stdin = std::io::stdin();
    let line = if stdin.is_terminal() {
        // Typed or pasted at a terminal: not shown, nor left in its scrollback.
        eprintln!(
            "Paste the lichess token (from lichess.org/account/oauth/token) and press Enter:"
        );
        rpassword::read_password()
    } else {
        let mut line = String::new();
        stdin.lock().read_line(&mut line).map(|_| line)
    };
    let line = match line {
        Ok(line) => line,
        Err(e) => return usage_error(&format!("reading the token: {e}")),
    };
    let text = line.trim();
    if text.is_empty() || text.chars().any(char::is_whitespace) {
        return usage_error("no token given: paste the token alone on one line");
    }
    match token::remember(text) {
        Ok(()) => {
            println!("The lichess token is kept in the system keyring.");
            ExitCode::SUCCESS
        }
        Err(problem) => usage_error(&problem),
    }
}
