//! What the Debian package ships is there and up to date: the manual pages (generated from
//! the command line's own help), the icon's sizes, the desktop entry and the systemd unit.

use std::path::{Path, PathBuf};
use std::process::Command;

fn boardsight() -> Command {
    Command::new(env!("CARGO_BIN_EXE_boardsight"))
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn read(path: &str) -> String {
    std::fs::read_to_string(repo(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn file_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            entry
                .expect("a folder entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}

#[test]
fn the_manual_pages_are_up_to_date() {
    let dir = tempfile::tempdir().expect("a folder");
    let status = boardsight()
        .arg("man")
        .arg(dir.path())
        .status()
        .expect("boardsight man runs");
    assert!(status.success());
    let generated = file_names(dir.path());
    assert!(
        generated.contains(&"boardsight-ports.1".to_owned()),
        "{generated:?}"
    );
    let committed: Vec<String> = file_names(&repo("assets/man"));
    let stale = "assets/man is out of date: run `cargo run -- man assets/man` and commit it";
    assert_eq!(generated, committed, "{stale}");
    for name in generated {
        let fresh = std::fs::read_to_string(dir.path().join(&name)).expect("generated page");
        assert_eq!(
            fresh,
            read(&format!("assets/man/{name}")),
            "{name}: {stale}"
        );
    }
}

/// A PNG's width and height, from its header.
fn png_size(bytes: &[u8]) -> Option<(u32, u32)> {
    let header = bytes.get(..24)?;
    if &header[..8] != b"\x89PNG\r\n\x1a\n" || &header[12..16] != b"IHDR" {
        return None;
    }
    let number = |at: usize| {
        u32::from_be_bytes([header[at], header[at + 1], header[at + 2], header[at + 3]])
    };
    Some((number(16), number(20)))
}

#[test]
fn the_icon_comes_in_every_size_it_is_named_for() {
    assert!(read("assets/icons/boardsight.svg").contains("<svg"));
    for size in [16, 24, 32, 48, 64, 128, 256, 512] {
        let path = repo(&format!("assets/icons/boardsight-{size}.png"));
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(png_size(&bytes), Some((size, size)), "{}", path.display());
    }
}

#[test]
fn every_file_the_package_ships_exists() {
    let manifest = read("Cargo.toml");
    let deb = manifest
        .split("[package.metadata.deb]")
        .nth(1)
        .expect("a [package.metadata.deb] section");
    let sources: Vec<&str> = deb
        .lines()
        .filter_map(|line| line.trim().strip_prefix("[\""))
        .filter_map(|rest| rest.split('"').next())
        .filter(|source| !source.starts_with("target/"))
        .collect();
    assert!(sources.len() >= 10, "{sources:?}");
    for source in sources {
        if let Some(folder) = source.strip_suffix("/*.1") {
            assert!(!file_names(&repo(folder)).is_empty(), "{source}");
        } else {
            assert!(repo(source).is_file(), "{source} is shipped but missing");
        }
    }
}

#[test]
fn the_desktop_entry_starts_the_app_with_its_icon() {
    let entry = read("assets/boardsight.desktop");
    for line in [
        "[Desktop Entry]",
        "Type=Application",
        "Exec=boardsight",
        "Icon=boardsight",
    ] {
        assert!(
            entry.lines().any(|l| l == line),
            "{line} missing in:\n{entry}"
        );
    }
}

#[test]
fn the_service_runs_listen_with_options_it_has() {
    let unit = read("assets/boardsight-listen.service");
    let exec = unit
        .lines()
        .find(|line| line.starts_with("ExecStart="))
        .expect("an ExecStart line");
    assert!(exec.contains("boardsight listen"), "{exec}");
    let help = boardsight()
        .args(["listen", "--help"])
        .output()
        .expect("listen --help runs");
    let help = String::from_utf8_lossy(&help.stdout);
    let options: Vec<&str> = exec
        .split(|c: char| c.is_whitespace() || c == '\'' || c == '"')
        .filter(|word| word.starts_with("--"))
        .collect();
    for wanted in ["--port", "--protocol", "--pgn", "--live-pgn", "--serve-dgt"] {
        assert!(options.contains(&wanted), "{wanted} missing in {exec}");
    }
    for option in options {
        assert!(help.contains(option), "listen has no {option}");
    }
    for line in ["Restart=on-failure", "KillSignal=SIGINT"] {
        assert!(unit.lines().any(|l| l == line), "{line} missing");
    }
}
