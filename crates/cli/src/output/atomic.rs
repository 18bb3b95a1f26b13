//! Output files that are never seen half-written (`-o FILE`): the library's
//! [`nonoenum::files::AtomicFile`], with errors that name the file as the command's messages do.

use std::path::Path;

use anyhow::Context;
use nonoenum::files::AtomicFile;

use crate::input::display_name;

/// Starts writing `target` (see [`AtomicFile::create`]).
pub(crate) fn create(target: &Path) -> anyhow::Result<AtomicFile> {
    AtomicFile::create(target).with_context(|| format!("cannot write {}", display_name(target)))
}

/// Puts what `file`, written for `target`, holds in place (see [`AtomicFile::commit`]).
pub(crate) fn commit(file: AtomicFile, target: &Path) -> anyhow::Result<()> {
    file.commit()
        .with_context(|| format!("cannot write {}", display_name(target)))
}

/// Writes `bytes` as the whole of `target` (see [`nonoenum::files::write_atomically`]).
pub(crate) fn write_atomically(target: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    nonoenum::files::write_atomically(target, bytes)
        .with_context(|| format!("cannot write {}", display_name(target)))
}
