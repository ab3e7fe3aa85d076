//! Writing files so that a crash mid-write never leaves a truncated one.

use std::io::{self, Write};
use std::path::Path;

/// Writes `bytes` to a temporary file beside `path`, flushes it to disk, then renames it
/// over `path`: readers see the old file or the new one, never half of one.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut temporary = tempfile::NamedTempFile::new_in(dir)?;
    temporary.write_all(bytes)?;
    temporary.as_file().sync_all()?;
    temporary.persist(path).map_err(|e| e.error)?;
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

    #[test]
    fn a_missing_folder_is_an_error_not_a_panic() {
        let result = write_atomically(Path::new("/nonexistent-folder/x.pgn"), b"x");
        assert!(result.is_err());
    }
}
