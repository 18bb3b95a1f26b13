//! The files of a checkpointed run: the checkpoint itself, rewritten through a temporary file
//! and a rename, and the output file of a `list`, appended to and cut back to its last commit.

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Seek, Write};
use std::path::{Path, PathBuf};

use super::CheckpointError;
use crate::files::{Capped, shown_path};

/// An I/O error, with what was being done to which file.
pub(super) fn io_error(doing: &str, path: &Path, source: io::Error) -> CheckpointError {
    CheckpointError::Io {
        what: format!("{doing} {}", shown_path(path)),
        source,
    }
}

/// The bytes of `path`, refused beyond [`crate::format::MAX_INPUT_BYTES`].
pub(super) fn read_capped(path: &Path) -> Result<Vec<u8>, CheckpointError> {
    let limit = crate::format::MAX_INPUT_BYTES;
    crate::files::read_file_capped(path, limit).map_err(|e| {
        let source = match e {
            Capped::Io(source) => source,
            Capped::TooLarge => {
                let why = format!("larger than {} MiB", limit >> 20);
                io::Error::new(io::ErrorKind::InvalidData, why)
            }
        };
        io_error("cannot read", path, source)
    })
}

/// Writes `bytes` as the whole of `target` (see [`crate::files::write_atomically`]).
pub(super) fn write_atomically(target: &Path, bytes: &[u8]) -> Result<(), CheckpointError> {
    crate::files::write_atomically(target, bytes).map_err(|e| io_error("cannot write", target, e))
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
        // Two runs of one checkpoint would interleave their solutions: the second is refused.
        // (The lock goes with the process, even on `kill -9`; where locks are not supported,
        // the run goes on without one.)
        if let Err(std::fs::TryLockError::WouldBlock) = file.try_lock() {
            let busy = io::Error::other("another run of this checkpoint is writing it");
            return Err(io_error("cannot write", path, busy));
        }
        let actual = file
            .metadata()
            .map_err(|e| io_error("cannot read", path, e))?
            .len();
        if actual < committed_len {
            return Err(CheckpointError::OutputShorter {
                output: shown_path(path),
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

    /// Appends solutions as text, a blank line first where `text` is a part's first batch
    /// (later batches start with theirs) and the file is not empty.
    pub(super) fn append(&mut self, text: &[u8], part_first: bool) -> io::Result<()> {
        if part_first && self.len > 0 {
            self.file.write_all(b"\n")?;
            self.len += 1;
        }
        self.file.write_all(text)?;
        self.len += text.len() as u64;
        Ok(())
    }

    /// The file's length, what was appended since the last commit included.
    pub(super) fn len(&self) -> u64 {
        self.len
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
