//! The files of a checkpointed run: the checkpoint itself, rewritten through a temporary file
//! and a rename, and the output file of a `list`, appended to and cut back to its last commit.

use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::CheckpointError;

/// Numbers the temporary files of this process, so that two saves never share a name.
static NEXT_TEMP: AtomicU64 = AtomicU64::new(0);

/// How many temporary names are tried before giving up (each taken one is left alone).
const NAME_TRIES: u64 = 100;

/// A path as messages show it: control characters escaped.
pub(super) fn shown(path: &Path) -> String {
    let mut name = String::new();
    for c in path.display().to_string().chars() {
        if c.is_control() {
            name.extend(c.escape_debug());
        } else {
            name.push(c);
        }
    }
    name
}

/// An I/O error, with what was being done to which file.
pub(super) fn io_error(doing: &str, path: &Path, source: io::Error) -> CheckpointError {
    CheckpointError::Io {
        what: format!("{doing} {}", shown(path)),
        source,
    }
}

/// The bytes of `path`, refused beyond [`crate::format::MAX_INPUT_BYTES`].
pub(super) fn read_capped(path: &Path) -> Result<Vec<u8>, CheckpointError> {
    use std::io::Read;
    let failed = |e| io_error("cannot read", path, e);
    let limit = crate::format::MAX_INPUT_BYTES;
    let mut bytes = Vec::new();
    let file = File::open(path).map_err(failed)?;
    let _ = file
        .take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(failed)?;
    if bytes.len() as u64 > limit {
        let why = format!("larger than {} MiB", limit >> 20);
        return Err(failed(io::Error::new(io::ErrorKind::InvalidData, why)));
    }
    Ok(bytes)
}

/// Writes `bytes` as the whole of `target`: through a fresh temporary file beside it, synced
/// and renamed over it, or directly where the target exists and is not a regular file (a FIFO,
/// `/dev/null`), so that it stays what it is.
pub(super) fn write_atomically(target: &Path, bytes: &[u8]) -> Result<(), CheckpointError> {
    let failed = |e| io_error("cannot write", target, e);
    if std::fs::metadata(target).is_ok_and(|m| !m.is_file()) {
        let mut file = OpenOptions::new()
            .write(true)
            .open(target)
            .map_err(failed)?;
        return file.write_all(bytes).map_err(failed);
    }
    let (mut file, temp) = create_temp(target).map_err(failed)?;
    let placed = file
        .write_all(bytes)
        .and_then(|()| file.sync_all())
        .and_then(|()| std::fs::rename(&temp, target));
    if placed.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    placed.map_err(failed)
}

/// Creates `.NAME.PID.N.tmp` beside `target`, trying further numbers while a name is taken.
fn create_temp(target: &Path) -> io::Result<(File, PathBuf)> {
    let Some(file_name) = target.file_name() else {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a file name",
        ));
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
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        format!("{NAME_TRIES} temporary file names beside it are all taken"),
    ))
}

/// The output file of a checkpointed `list`: appends solutions, separated by blank lines.
pub(super) struct Output {
    file: BufWriter<File>,
    len: u64,
    path: PathBuf,
}

impl Output {
    /// Opens the output file and cuts it back to `committed_len`, refusing a file shorter
    /// than that (it was altered: the run cannot make it exact again).
    pub(super) fn open(path: &Path, committed_len: u64) -> Result<Output, CheckpointError> {
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| io_error("cannot open the output file", path, e))?;
        let actual = file
            .metadata()
            .map_err(|e| io_error("cannot read", path, e))?
            .len();
        if actual < committed_len {
            return Err(CheckpointError::OutputShorter {
                output: shown(path),
                actual,
                expected: committed_len,
            });
        }
        let mut output = Output {
            file: BufWriter::new(file),
            len: committed_len,
            path: path.to_path_buf(),
        };
        output.truncate_to(committed_len)?;
        Ok(output)
    }

    /// Appends one solution, `rows` its text.
    pub(super) fn append(&mut self, rows: &[u8]) -> io::Result<()> {
        if self.len > 0 {
            self.file.write_all(b"\n")?;
            self.len += 1;
        }
        self.file.write_all(rows)?;
        self.len += rows.len() as u64;
        Ok(())
    }

    /// Flushes and syncs what was appended; returns the length to record.
    pub(super) fn commit(&mut self) -> Result<u64, CheckpointError> {
        let synced = self
            .file
            .flush()
            .and_then(|()| self.file.get_ref().sync_data());
        synced.map_err(|e| io_error("cannot write", &self.path, e))?;
        Ok(self.len)
    }

    /// Cuts the file back to `len` bytes and continues writing there.
    pub(super) fn truncate_to(&mut self, len: u64) -> Result<(), CheckpointError> {
        let failed = |e| io_error("cannot truncate", &self.path, e);
        self.file.flush().map_err(failed)?;
        let file = self.file.get_mut();
        file.set_len(len).map_err(failed)?;
        let _ = file.seek(io::SeekFrom::Start(len)).map_err(failed)?;
        file.sync_data().map_err(failed)?;
        self.len = len;
        Ok(())
    }
}
