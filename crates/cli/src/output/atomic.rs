//! Output files that are never seen half-written: `-o FILE`, checkpoints and split files are
//! written to a fresh temporary file beside the target, then renamed over it. A target that
//! exists and is not a regular file (a FIFO, a device such as `/dev/null`) is written directly,
//! so that it stays what it is.

use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use anyhow::{Context, bail};

use crate::input::display_name;

/// How many temporary names are tried before giving up (each taken one is left alone).
const NAME_TRIES: u64 = 100;

/// Numbers the temporary files of this process, so that two outputs never share a name.
static NEXT_TEMP: AtomicU64 = AtomicU64::new(0);

/// A file being written for a target path; [`AtomicFile::commit`] puts it in place. Write
/// errors name the target. Dropped without a commit, it removes its temporary file.
pub(crate) struct AtomicFile {
    file: File,
    target: PathBuf,
    /// The temporary file, `None` when the target is written directly.
    temp: Option<PathBuf>,
    name: String,
}

/// Starts writing `target`: directly when it exists and is not a regular file, else through a
/// temporary file that never replaces an existing file.
pub(crate) fn create(target: &Path) -> anyhow::Result<AtomicFile> {
    let name = display_name(target);
    let special = std::fs::metadata(target).is_ok_and(|m| !m.is_file());
    if special {
        let file = OpenOptions::new()
            .write(true)
            .open(target)
            .with_context(|| format!("cannot write {name}"))?;
        return Ok(AtomicFile {
            file,
            target: target.to_path_buf(),
            temp: None,
            name,
        });
    }
    let (file, temp) = create_temp(target).with_context(|| format!("cannot write {name}"))?;
    Ok(AtomicFile {
        file,
        target: target.to_path_buf(),
        temp: Some(temp),
        name,
    })
}

/// Creates `.NAME.PID.N.tmp` beside `target`, trying further numbers while a name is taken.
fn create_temp(target: &Path) -> anyhow::Result<(File, PathBuf)> {
    let Some(file_name) = target.file_name() else {
        bail!("not a file name");
    };
    let folder = match target.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    for _ in 0..NAME_TRIES {
        // Relaxed: only that no two calls get the same number matters.
        let n = NEXT_TEMP.fetch_add(1, Ordering::Relaxed);
        let mut temp_name = OsString::from(".");
        temp_name.push(file_name);
        temp_name.push(format!(".{}.{n}.tmp", std::process::id()));
        let temp = folder.join(temp_name);
        match OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(file) => return Ok((file, temp)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e.into()),
        }
    }
    bail!("{NAME_TRIES} temporary file names beside it are all taken")
}

impl AtomicFile {
    /// Puts what was written in place: synced to disk and renamed over the target, or (a
    /// target written directly) just checked.
    pub(crate) fn commit(mut self) -> anyhow::Result<()> {
        let name = self.name.clone();
        self.flush()?;
        let Some(temp) = self.temp.take() else {
            return Ok(());
        };
        let placed = self
            .file
            .sync_all()
            .and_then(|()| std::fs::rename(&temp, &self.target));
        if placed.is_err() {
            // Not renamed: the temporary file goes, as when the write fails.
            let _ = std::fs::remove_file(&temp);
        }
        placed.with_context(|| format!("cannot write {name}"))
    }

    /// The error of a failed write, naming the target (its kind kept, so that a closed pipe
    /// is still told apart).
    fn named(&self, e: io::Error) -> io::Error {
        io::Error::new(e.kind(), format!("cannot write {}: {e}", self.name))
    }
}

impl Write for AtomicFile {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.file.write(bytes).map_err(|e| self.named(e))
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush().map_err(|e| self.named(e))
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if let Some(temp) = &self.temp {
            let _ = std::fs::remove_file(temp);
        }
    }
}

/// Writes `bytes` as the whole of `target` (see [`create`]).
pub(crate) fn write_atomically(target: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let mut file = create(target)?;
    file.write_all(bytes)?;
    file.commit()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_through_a_fresh_temporary_file() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let target = dir.path().join("out.txt");
        let taken = dir.path().join("out.txt.tmp");
        std::fs::write(&taken, "someone else's").expect("write");
        write_atomically(&target, b"first").expect("written");
        write_atomically(&target, b"second").expect("written");
        assert_eq!(std::fs::read(&target).expect("read"), b"second");
        assert_eq!(std::fs::read(&taken).expect("read"), b"someone else's");
        let left: Vec<_> = std::fs::read_dir(dir.path()).expect("list").collect();
        assert_eq!(left.len(), 2, "no temporary file is left: {left:?}");
    }

    #[test]
    fn a_dropped_file_leaves_the_target_and_no_temporary_file() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let target = dir.path().join("out.txt");
        std::fs::write(&target, "old").expect("write");
        let mut file = create(&target).expect("created");
        file.write_all(b"half").expect("written");
        drop(file);
        assert_eq!(std::fs::read(&target).expect("read"), b"old");
        let left: Vec<_> = std::fs::read_dir(dir.path()).expect("list").collect();
        assert_eq!(left.len(), 1, "{left:?}");
    }
}
