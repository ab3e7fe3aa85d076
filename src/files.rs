//! Writing files so that a crash mid-write never leaves a truncated one.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Writes `bytes` to a temporary file beside `path`, flushes it to disk, then renames it
/// over `path`: readers see the old file or the new one, never half of one. The file
/// replaced keeps its permissions; a symlink is written through (its target is replaced,
/// the link stays); the folder is synced so the rename itself survives a power cut.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let path = through_symlinks(path);
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut temporary = tempfile::NamedTempFile::new_in(dir)?;
    temporary.write_all(bytes)?;
    if let Ok(replaced) = std::fs::metadata(&path) {
        temporary
            .as_file()
            .set_permissions(replaced.permissions())?;
    }
    temporary.as_file().sync_all()?;
    temporary.persist(&path).map_err(|e| e.error)?;
    sync_folder(dir)
}

/// The file a path finally names, following symlinks (at most 40, as the kernel does).
fn through_symlinks(path: &Path) -> PathBuf {
    let mut path = path.to_path_buf();
    for _ in 0..40 {
        let Ok(target) = std::fs::read_link(&path) else {
            break;
        };
        path = match path.parent() {
            Some(parent) if target.is_relative() => parent.join(target),
            _ => target,
        };
    }
    path
}

#[cfg(unix)]
fn sync_folder(dir: &Path) -> io::Result<()> {
    std::fs::File::open(dir)?.sync_all()
}

/// Windows has no handle on a folder to sync; its renames are journaled.
#[cfg(not(unix))]
fn sync_folder(_dir: &Path) -> io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_whole_file_and_leaves_no_temporary_behind() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("game.pgn");
        write_atomically(&path, b"first version, rather long").expect("write");
        write_atomically(&path, b"second").expect("write again");
        assert_eq!(std::fs::read(&path).expect("read"), b"second");
        let entries = std::fs::read_dir(dir.path()).expect("list").count();
        assert_eq!(entries, 1);
    }

    #[cfg(unix)]
    #[test]
    fn the_file_replaced_keeps_its_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("game.pgn");
        write_atomically(&path, b"first").expect("write");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).expect("chmod");
        write_atomically(&path, b"second").expect("write again");
        let mode = std::fs::metadata(&path).expect("stat").permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_is_written_through_and_stays_a_link() {
        let dir = tempfile::tempdir().expect("temp dir");
        let target = dir.path().join("games").join("live.pgn");
        std::fs::create_dir(target.parent().expect("parent")).expect("mkdir");
        write_atomically(&target, b"old").expect("write");
        let link = dir.path().join("link.pgn");
        std::os::unix::fs::symlink("games/live.pgn", &link).expect("symlink");
        write_atomically(&link, b"new").expect("write through the link");
        assert!(
            std::fs::symlink_metadata(&link)
                .expect("lstat")
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read(&target).expect("read"), b"new");
    }

    #[test]
    fn a_missing_folder_is_an_error_not_a_panic() {
        let result = write_atomically(Path::new("/nonexistent-folder/x.pgn"), b"x");
        assert!(result.is_err());
    }
}
