//! Files that are never seen half-written, and paths as messages show them: checkpoints, split
//! folders and the command's `-o FILE` are written to a fresh temporary file beside the target,
//! then synced and renamed over it (a large one synced as it grows, by a thread of its own, so
//! that the last sync is short; a symbolic link stays one, the file it leads to replaced). A
//! target that exists and is not a regular file (a FIFO, a
//! device such as `/dev/null`) is written directly, so that it stays what it is.

use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

/// Once this many bytes more are written to a temporary file, a thread of its own starts
/// syncing them to the disk, so that the sync of [`AtomicFile::commit`] finds little left.
const SYNC_EVERY: u64 = 64 << 20;

/// The most bytes written and not yet synced that the writer runs ahead of the syncing
/// thread by: a disk slower than the writes holds the writer back, not the commit.
const SYNC_BEHIND: u64 = 192 << 20;

/// How many temporary names are tried before giving up (each taken one is left alone).
const NAME_TRIES: u64 = 100;

/// Numbers the temporary files of this process, so that two writes never share a name.
static NEXT_TEMP: AtomicU64 = AtomicU64::new(0);

/// Why a capped read failed.
#[derive(Debug)]
pub(crate) enum Capped {
    /// What the system said.
    Io(io::Error),
    /// More than the cap.
    TooLarge,
}

/// All of `reader`, refused once it passes `cap` bytes: one byte past it is read, never more,
/// so that `/dev/zero` never fills the memory.
pub(crate) fn read_capped(reader: impl Read, cap: u64) -> Result<Vec<u8>, Capped> {
    let mut bytes = Vec::new();
    reader
        .take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(Capped::Io)?;
    if bytes.len() as u64 > cap {
        return Err(Capped::TooLarge);
    }
    Ok(bytes)
}

/// The file at `path`, refused once it passes `cap` bytes (see [`read_capped`]).
pub(crate) fn read_file_capped(path: &Path, cap: u64) -> Result<Vec<u8>, Capped> {
    read_capped(File::open(path).map_err(Capped::Io)?, cap)
}

/// Whether two paths name one file: the same file if both exist (through links too), else the
/// same absolute path.
pub fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => (x.dev(), x.ino()) == (y.dev(), y.ino()),
        _ => std::path::absolute(a).ok() == std::path::absolute(b).ok(),
    }
}

/// A path as messages show it: control characters escaped, so that a name cannot end a line.
pub fn shown_path(path: &Path) -> String {
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

/// A file being written for a target path; [`AtomicFile::commit`] puts it in place. Errors of
/// its writes name the target (`cannot write NAME: …`, the kind kept, so that a closed pipe is
/// still told apart), as they may surface far from here through a buffer; those of
/// [`AtomicFile::create`] and [`AtomicFile::commit`] are the system's, for the caller to name.
/// Dropped without a commit, it removes its temporary file.
#[derive(Debug)]
pub struct AtomicFile {
    file: File,
    target: PathBuf,
    /// Where the file goes: the target, or the file a symbolic link there leads to.
    place: PathBuf,
    /// The temporary file, `None` when the target is written directly.
    temp: Option<PathBuf>,
    /// Bytes written.
    written: u64,
    /// Bytes written when the syncing thread was last asked to sync.
    asked: u64,
    /// The thread that syncs the temporary file while it is written, once it has begun.
    syncer: Option<Syncer>,
}

/// A thread that syncs a file to the disk each time it is asked (asks that come while it
/// syncs make one more sync), and holds the writer back while too much is not synced yet.
#[derive(Debug)]
struct Syncer {
    /// The bytes written when asked.
    ask: Sender<u64>,
    /// The bytes the last sync covered.
    synced: Arc<(Mutex<u64>, Condvar)>,
    thread: JoinHandle<()>,
}

impl Syncer {
    /// A thread syncing a handle of its own to `file`; `None` when none can be had.
    fn start(file: &File) -> Option<Syncer> {
        let file = file.try_clone().ok()?;
        let (ask, asked): (Sender<u64>, Receiver<u64>) = std::sync::mpsc::channel();
        let synced = Arc::new((Mutex::new(0), Condvar::new()));
        let done = Arc::clone(&synced);
        let thread = std::thread::Builder::new()
            .name("nonoenum-sync".into())
            .spawn(move || {
                while let Ok(mut upto) = asked.recv() {
                    upto = asked.try_iter().last().unwrap_or(upto);
                    // Only a head start: the commit's own sync reports any error.
                    let _ = file.sync_data();
                    *done.0.lock().unwrap_or_else(PoisonError::into_inner) = upto;
                    done.1.notify_all();
                }
            })
            .ok()?;
        Some(Syncer {
            ask,
            synced,
            thread,
        })
    }

    /// Asks for a sync of the `written` bytes, then waits while more than [`SYNC_BEHIND`] of
    /// them are not synced: what the commit's sync has left to do stays short.
    fn sync(&self, written: u64) {
        if self.ask.send(written).is_err() {
            return;
        }
        let (synced, cond) = &*self.synced;
        let mut upto = synced.lock().unwrap_or_else(PoisonError::into_inner);
        while written.saturating_sub(*upto) > SYNC_BEHIND && !self.thread.is_finished() {
            let wait = cond.wait_timeout(upto, Duration::from_millis(50));
            upto = wait.unwrap_or_else(PoisonError::into_inner).0;
        }
    }

    /// Ends the thread once its sync under way, if any, is over.
    fn finish(self) {
        drop(self.ask);
        let _ = self.thread.join();
    }
}

impl AtomicFile {
    /// Starts writing `target`: directly when it exists and is not a regular file, else
    /// through a temporary file `.NAME.PID.N.tmp` beside it that never replaces an existing
    /// file.
    pub fn create(target: &Path) -> io::Result<AtomicFile> {
        if std::fs::metadata(target).is_ok_and(|m| !m.is_file()) {
            let file = OpenOptions::new().write(true).open(target)?;
            return Ok(AtomicFile {
                file,
                target: target.to_path_buf(),
                place: target.to_path_buf(),
                temp: None,
                written: 0,
                asked: 0,
                syncer: None,
            });
        }
        // A symbolic link stays one: the file it leads to is the one replaced.
        let place = match std::fs::symlink_metadata(target) {
            Ok(m) if m.file_type().is_symlink() => {
                std::fs::canonicalize(target).unwrap_or_else(|_| target.to_path_buf())
            }
            _ => target.to_path_buf(),
        };
        let (file, temp) = create_temp(&place)?;
        Ok(AtomicFile {
            file,
            target: target.to_path_buf(),
            place,
            temp: Some(temp),
            written: 0,
            asked: 0,
            syncer: None,
        })
    }

    /// Whether nothing was written to the temporary file (a target written directly, such as
    /// a FIFO, is never empty).
    pub fn is_empty(&self) -> bool {
        self.temp.is_some() && self.file.metadata().is_ok_and(|m| m.len() == 0)
    }

    /// Puts what was written in place: synced to disk and renamed over the target, or (a
    /// target written directly) just flushed.
    pub fn commit(mut self) -> io::Result<()> {
        self.file.flush()?;
        if let Some(syncer) = self.syncer.take() {
            syncer.finish();
        }
        let Some(temp) = self.temp.take() else {
            return Ok(());
        };
        let placed = self
            .file
            .sync_all()
            .and_then(|()| std::fs::rename(&temp, &self.place));
        if placed.is_err() {
            // Not renamed: the temporary file goes, as when the write fails.
            let _ = std::fs::remove_file(&temp);
        }
        placed
    }
}

impl Write for AtomicFile {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let written = self.file.write(bytes).map_err(|e| named(&self.target, e))?;
        self.written += written as u64;
        if self.written - self.asked >= SYNC_EVERY && self.temp.is_some() {
            self.asked = self.written;
            if self.syncer.is_none() {
                self.syncer = Syncer::start(&self.file);
            }
            if let Some(syncer) = &self.syncer {
                syncer.sync(self.written);
            }
        }
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush().map_err(|e| named(&self.target, e))
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if let Some(temp) = &self.temp {
            let _ = std::fs::remove_file(temp);
        }
    }
}

/// Writes `bytes` as the whole of `target` (see [`AtomicFile::create`]); its errors are the
/// system's, for the caller to name.
pub fn write_atomically(target: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = AtomicFile::create(target)?;
    file.file.write_all(bytes)?;
    file.commit()
}

/// `e`, saying which file it was writing (the kind kept).
fn named(target: &Path, e: io::Error) -> io::Error {
    io::Error::new(
        e.kind(),
        format!("cannot write {}: {e}", shown_path(target)),
    )
}

/// The most bytes of the target's name that a temporary name repeats: with `.`, the process
/// number and the suffix, it stays within the 255 bytes a file name may have.
const TEMP_NAME_BYTES: usize = 200;

/// Creates `.NAME.PID.N.tmp` beside `target`, trying further numbers while a name is taken
/// (`NAME` cut to [`TEMP_NAME_BYTES`]).
fn create_temp(target: &Path) -> io::Result<(File, PathBuf)> {
    use std::os::unix::ffi::OsStrExt;
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
        let name = file_name.as_bytes();
        temp_name.push(std::ffi::OsStr::from_bytes(
            &name[..name.len().min(TEMP_NAME_BYTES)],
        ));
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The names in `folder`, sorted.
    fn entries(folder: &Path) -> Vec<String> {
        let name = |e: io::Result<std::fs::DirEntry>| {
            (e.expect("entry").file_name().to_string_lossy()).into_owned()
        };
        let mut names: Vec<String> = std::fs::read_dir(folder).expect("list").map(name).collect();
        names.sort();
        names
    }

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
        // No temporary file is left.
        assert_eq!(entries(dir.path()), ["out.txt", "out.txt.tmp"]);
    }

    #[test]
    fn a_dropped_file_leaves_the_target_and_no_temporary_file() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let target = dir.path().join("out.txt");
        std::fs::write(&target, "old").expect("write");
        let mut file = AtomicFile::create(&target).expect("created");
        file.write_all(b"half").expect("written");
        drop(file);
        assert_eq!(std::fs::read(&target).expect("read"), b"old");
        assert_eq!(entries(dir.path()), ["out.txt"]);
    }

    /// Past [`SYNC_EVERY`] bytes a thread syncs the temporary file as it grows; the file
    /// committed or dropped is as without it.
    #[test]
    fn a_file_synced_while_written_commits_whole_or_leaves_nothing() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let chunk: Vec<u8> = (0..1 << 20).map(|i: u32| (i % 251) as u8).collect();
        let chunks = usize::try_from(2 * SYNC_EVERY / (1 << 20)).expect("fits") + 3;
        let target = dir.path().join("big.txt");
        let mut file = AtomicFile::create(&target).expect("created");
        for _ in 0..chunks {
            file.write_all(&chunk).expect("written");
        }
        assert!(
            file.syncer.is_some(),
            "a thread syncs the file while it grows"
        );
        file.commit().expect("committed");
        let written = std::fs::read(&target).expect("read");
        assert_eq!(written.len(), chunks << 20);
        assert!(written.chunks(1 << 20).all(|c| c == chunk.as_slice()));
        let dropped = dir.path().join("dropped.txt");
        let mut file = AtomicFile::create(&dropped).expect("created");
        for _ in 0..chunks {
            file.write_all(&chunk).expect("written");
        }
        drop(file);
        assert_eq!(entries(dir.path()), ["big.txt"], "only the committed file");
    }

    /// A name near the system's limit still has a temporary name, and a symbolic link stays
    /// a link, the file it leads to replaced.
    #[test]
    fn long_names_and_links_are_written_as_named() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let long = dir.path().join("x".repeat(250));
        write_atomically(&long, b"long").expect("written");
        assert_eq!(std::fs::read(&long).expect("read"), b"long");
        let (real, link) = (dir.path().join("real.txt"), dir.path().join("link.txt"));
        std::fs::write(&real, "old").expect("write");
        std::os::unix::fs::symlink("real.txt", &link).expect("a link");
        write_atomically(&link, b"new").expect("written");
        assert!(std::fs::symlink_metadata(&link).is_ok_and(|m| m.file_type().is_symlink()));
        assert_eq!(std::fs::read(&real).expect("read"), b"new");
        let long = "x".repeat(250);
        assert_eq!(entries(dir.path()), ["link.txt", "real.txt", long.as_str()]);
    }

    #[test]
    fn capped_reads_stop_one_byte_past_the_cap() {
        assert_eq!(read_capped(&b"abc"[..], 3).expect("fits"), b"abc");
        assert!(matches!(
            read_capped(&b"abcd"[..], 3),
            Err(Capped::TooLarge)
        ));
        let zeros = io::repeat(0);
        assert!(matches!(read_capped(zeros, 1 << 10), Err(Capped::TooLarge)));
        assert!(matches!(
            read_file_capped(Path::new("no-such-file"), 8),
            Err(Capped::Io(_))
        ));
    }

    #[test]
    fn a_special_target_is_written_in_place_and_names_are_shown_on_one_line() {
        let mut null = AtomicFile::create(Path::new("/dev/null")).expect("opened");
        null.write_all(b"gone").expect("written");
        null.commit().expect("committed");
        assert!(std::fs::metadata("/dev/null").is_ok_and(|m| !m.is_file()));
        assert_eq!(shown_path(Path::new("a\nb")), "a\\nb");
        assert_eq!(shown_path(Path::new("a\tb.txt")), "a\\tb.txt");
        let error = write_atomically(Path::new("no-such-folder/.."), b"x").expect_err("no name");
        assert_eq!(error.kind(), io::ErrorKind::InvalidInput);
        let error = write_atomically(Path::new("/"), b"x").expect_err("a folder");
        assert_eq!(error.kind(), io::ErrorKind::IsADirectory);
    }
}
