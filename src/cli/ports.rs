//! `boardsight ports [--probe] [PATH…]`: the serial ports with their USB names and serial
//! numbers, and with `--probe` which protocol answers on each.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use crate::connection::{PortChoice, list_ports, ports_with, probe_ports};

pub fn run(probe: bool, given: &[String]) -> ExitCode {
    let mut failed = false;
    let mut paths = Vec::new();
    for path in given {
        if Path::new(path).exists() {
            paths.push(path.clone());
        } else {
            eprintln!("boardsight: no serial port at {path}");
            failed = true;
        }
    }
    let listed = list_ports().unwrap_or_else(|e| {
        eprintln!("boardsight: the system's serial ports could not be listed: {e}");
        Vec::new()
    });
    let ports = ports_with(listed, &paths);
    if ports.is_empty() {
        println!(
            "No serial ports found. A board on a pseudo-terminal or a link is not listed: give \
             its path (boardsight ports --probe PATH)."
        );
    } else if probe {
        eprintln!(
            "Probing {} (a few seconds; a port that says nothing gets one harmless ping)…",
            plural(ports.len(), "port")
        );
        let verdicts = probe_ports(&ports.iter().map(|p| p.path.clone()).collect::<Vec<_>>());
        let lines = ports
            .iter()
            .zip(&verdicts)
            .map(|(port, verdict)| (port, format!("{verdict} — {}", port.long_description())));
        print_lines(lines);
    } else {
        print_lines(ports.iter().map(|port| (port, port.long_description())));
    }
    let _ = std::io::stdout().flush();
    if failed {
        ExitCode::from(2)
    } else {
        ExitCode::SUCCESS
    }
}

/// One line per port: the path, padded so that what follows lines up.
fn print_lines<'a>(lines: impl Iterator<Item = (&'a PortChoice, String)>) {
    let lines: Vec<_> = lines.collect();
    let width = lines
        .iter()
        .map(|(port, _)| port.path.chars().count())
        .max()
        .unwrap_or(0);
    for (port, text) in lines {
        println!("{:width$}  {text}", port.path);
    }
}

fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}
