//! A split folder: one search cut into part files that other processes or machines run, and a
//! manifest that ties their results back to the puzzle ([`SplitFolder::write`]).
//!
//! A split folder holds `part-NNN.txt` (a black-and-white puzzle in the plain format with one
//! `givens` section of decisions per subtree of the part, so one puzzle per subtree) or
//! `part-NNN.g` (a colour puzzle in Olšák's `.g` format with a `: givens` section: one subtree),
//! `manifest.json` (the puzzle's checksums and the list of parts and their subtrees), and, once
//! the parts have run, `results/part-NNN.json` (a run's JSON results, a `result` object per
//! subtree, or a compact listing): see [`SplitFolder::merge`].

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::color::AnyPuzzle;
use crate::files::{shown_path, write_atomically};
use crate::format::{ParseError, olsak, plain};
use crate::search::{Searchable, SolveError};
use crate::split::{Cut, SIZING_TIME, cut_parts};
use crate::{ColorPuzzle, Puzzle};

/// The `format` field of a manifest this version writes: with the parts' checksum, which it
/// must hold.
pub(crate) const MANIFEST_FORMAT: &str = "nonoenum-split/3";
/// The formats it reads: also those before the parts' checksum, and of one subtree per part,
/// before parts had several.
pub(crate) const MANIFEST_FORMATS: [&str; 3] =
    [MANIFEST_FORMAT, "nonoenum-split/2", "nonoenum-split/1"];
/// What the manifest's method says when the split stopped sizing subtrees at its time limit.
const SIZING_STOPPED: &str = "sizing stopped";
/// The manifest's file name in a split folder.
pub(crate) const MANIFEST: &str = "manifest.json";
/// The folder of the parts' results in a split folder.
pub(crate) const RESULTS: &str = "results";

/// What `manifest.json` records.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Manifest {
    /// `nonoenum-split/3` (`nonoenum-split/2`, without the parts' checksum, and
    /// `nonoenum-split/1`, one subtree per part, are read too).
    pub format: String,
    /// The nonoenum version that split.
    pub nonoenum: String,
    /// The puzzle file that was split, as given ([`SplitOptions::source`]).
    pub source: String,
    /// The puzzle's label.
    pub label: String,
    /// The clue checksum, shared by the puzzle and every part.
    pub puzzle: String,
    /// The givens checksum of the whole puzzle (its own givens, before any decision).
    pub givens: String,
    /// Rows of the puzzle.
    pub rows: usize,
    /// Columns of the puzzle.
    pub cols: usize,
    /// The parts asked for.
    pub parts_requested: usize,
    /// How the parts were made.
    pub method: String,
    /// The parts, in search order.
    pub parts: Vec<ManifestPart>,
    /// [`Manifest::parts_checksum_now`] when the split wrote it, checked by `merge`, so that a
    /// part removed, added or edited by hand is refused. (Absent in older manifests, and in
    /// those alone.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parts_checksum: Option<String>,
}

impl Manifest {
    /// The checksum of the parts as listed: each part's file and its subtrees' givens
    /// checksums, in order.
    pub fn parts_checksum_now(&self) -> String {
        let mut text = String::new();
        for part in &self.parts {
            text.push_str(&part.file);
            for subtree in &part.subtrees {
                text.push(' ');
                text.push_str(&subtree.givens);
            }
            text.push('\n');
        }
        crate::checksum::fnv1a64(text.as_bytes())
    }
}

/// One part in the manifest.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(from = "StoredPart")]
pub struct ManifestPart {
    /// The part's file name, in the split folder.
    pub file: String,
    /// The estimated work of the part's search: its subtrees' sum.
    pub estimate: f64,
    /// The part's subtrees, in search order: the puzzles of its file, in file order.
    pub subtrees: Vec<ManifestSubtree>,
}

/// One subtree of a part in the manifest.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ManifestSubtree {
    /// The givens checksum of the subtree (the puzzle's givens and the subtree's decisions).
    pub givens: String,
    /// How many decisions select the subtree.
    pub decisions: usize,
    /// Cells still unknown at the subtree's node.
    pub unknown: usize,
    /// The estimated work of the subtree's search: its nodes plus their line solves (see
    /// `Part::estimate`).
    pub estimate: f64,
}

/// A part as a manifest stores it: with its subtrees, or (`nonoenum-split/1`) one subtree's
/// fields beside the file name.
#[derive(Deserialize)]
#[serde(untagged)]
enum StoredPart {
    Grouped {
        file: String,
        estimate: f64,
        subtrees: Vec<ManifestSubtree>,
    },
    Single {
        file: String,
        #[serde(flatten)]
        subtree: ManifestSubtree,
    },
}

impl From<StoredPart> for ManifestPart {
    fn from(stored: StoredPart) -> Self {
        match stored {
            StoredPart::Grouped {
                file,
                estimate,
                subtrees,
            } => ManifestPart {
                file,
                estimate,
                subtrees,
            },
            StoredPart::Single { file, subtree } => ManifestPart {
                file,
                estimate: subtree.estimate,
                subtrees: vec![subtree],
            },
        }
    }
}

/// What [`SplitFolder::write`] is asked for.
#[derive(Clone, Debug)]
pub struct SplitOptions {
    /// The parts to cut the search into, at least 1.
    pub parts: usize,
    /// The puzzle's label, in the manifest and the first part's title.
    pub label: String,
    /// Where the puzzle came from (its file, say), recorded in the manifest.
    pub source: String,
}

/// Why a split folder could not be written. A failed or cancelled split leaves nothing behind.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum SplitError {
    /// No parts were asked for.
    #[error("a split needs at least 1 part")]
    NoParts,
    /// The folder already holds a manifest.
    #[error("{folder} already holds a split ({MANIFEST}): use a new folder")]
    Used {
        /// The folder.
        folder: String,
    },
    /// The folder could not be created.
    #[error("cannot create {folder}")]
    Create {
        /// The folder.
        folder: String,
        /// What the system said.
        source: io::Error,
    },
    /// A file could not be written.
    #[error("cannot write {path}")]
    Write {
        /// The file.
        path: String,
        /// What the system said.
        source: io::Error,
    },
    /// A colour puzzle does not read back from the `.g` format its parts are written in.
    #[error("the puzzle does not survive the .g format")]
    Stored(#[source] ParseError),
    /// A part has more subtrees than its file's format holds.
    #[error("{file}: its format holds one subtree, but the part has {subtrees}")]
    Subtrees {
        /// The part file.
        file: String,
        /// The part's subtrees.
        subtrees: usize,
    },
    /// The split's search failed, or the cancel flag stopped it ([`SolveError::Cancelled`]).
    #[error(transparent)]
    Search(#[from] SolveError),
}

/// A split folder: its place and its manifest. [`SplitFolder::write`] makes one,
/// [`SplitFolder::open`] reads one back to run its parts or merge their results.
#[derive(Clone, Debug)]
pub struct SplitFolder {
    pub(crate) dir: PathBuf,
    pub(crate) manifest: Manifest,
}

impl SplitFolder {
    /// Splits `puzzle`'s search into `options.parts` parts and writes them, then
    /// `manifest.json`, into `dir` (created with the folders above it where missing, and
    /// holding no manifest yet). Raising `cancel` stops the split with
    /// [`SolveError::Cancelled`]; then, as on any failure, the files written and the folders
    /// created are removed.
    pub fn write(
        puzzle: &AnyPuzzle,
        dir: impl AsRef<Path>,
        options: &SplitOptions,
        cancel: &AtomicBool,
    ) -> Result<SplitFolder, SplitError> {
        let dir = dir.as_ref();
        if options.parts == 0 {
            return Err(SplitError::NoParts);
        }
        if dir.join(MANIFEST).exists() {
            return Err(SplitError::Used {
                folder: shown_path(dir),
            });
        }
        let mut created = Created {
            folders: create_folders(dir).map_err(|source| SplitError::Create {
                folder: shown_path(dir),
                source,
            })?,
            files: Vec::new(),
        };
        let job = Job {
            options,
            dir,
            cancel,
        };
        match write_split(puzzle, &job, &mut created) {
            Ok(manifest) => Ok(SplitFolder {
                dir: dir.to_path_buf(),
                manifest,
            }),
            Err(e) => {
                created.remove();
                Err(e)
            }
        }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The manifest.
    pub fn manifest(&self) -> &Manifest {
        &self.manifest
    }

    /// Whether the split stopped sizing subtrees at its time limit (about half a minute, which
    /// only huge grids reach): it then cut one subtree per part, less even ones.
    pub fn sizing_stopped(&self) -> bool {
        self.manifest.method.contains(SIZING_STOPPED)
    }

    /// The line `nonoenum split` prints when done, without its `nonoenum: ` prefix: the parts,
    /// the folder (as `shown_dir`), the subtrees and their most unknown cells, and whether
    /// sizing stopped at its time limit.
    pub fn summary(&self, shown_dir: &str) -> String {
        let manifest = &self.manifest;
        let subtrees: usize = manifest.parts.iter().map(|p| p.subtrees.len()).sum();
        let stopped = if self.sizing_stopped() {
            "; sizing stopped at its time limit, so the parts are less even"
        } else {
            ""
        };
        format!(
            "split {} into {} parts in {shown_dir} ({subtrees} subtrees, at most {} unknown \
             cells each{stopped})",
            manifest.label,
            manifest.parts.len(),
            self.largest_unknown()
        )
    }

    /// The most cells still unknown at a subtree of a part.
    pub fn largest_unknown(&self) -> usize {
        let subtrees = self.manifest.parts.iter().flat_map(|p| &p.subtrees);
        subtrees.map(|s| s.unknown).max().unwrap_or(0)
    }
}

/// What a split writes, and the flag that stops it.
struct Job<'a> {
    options: &'a SplitOptions,
    /// The split folder.
    dir: &'a Path,
    cancel: &'a AtomicBool,
}

impl Job<'_> {
    /// [`SolveError::Cancelled`] once the cancel flag is raised.
    fn check(&self) -> Result<(), SplitError> {
        match self.cancel.load(Ordering::Relaxed) {
            true => Err(SolveError::Cancelled.into()),
            false => Ok(()),
        }
    }
}

/// What a split created, to remove if it does not finish.
struct Created {
    /// The folders it created, outermost first.
    folders: Vec<PathBuf>,
    /// The files it wrote.
    files: Vec<PathBuf>,
}

impl Created {
    /// Removes the files, then the folders if they are empty (innermost first); a failure
    /// leaves that one behind, as there is nothing better to do.
    fn remove(&self) {
        for file in &self.files {
            let _ = fs::remove_file(file);
        }
        for folder in self.folders.iter().rev() {
            let _ = fs::remove_dir(folder);
        }
    }
}

/// Creates `out` and the missing folders above it; returns those it created, outermost first.
fn create_folders(out: &Path) -> io::Result<Vec<PathBuf>> {
    let mut missing: Vec<PathBuf> = out
        .ancestors()
        .take_while(|p| !p.as_os_str().is_empty() && !p.exists())
        .map(Path::to_path_buf)
        .collect();
    missing.reverse();
    fs::create_dir_all(out)?;
    Ok(missing)
}

/// Splits `puzzle`, writes its part files and then the manifest, and returns the manifest.
fn write_split(
    puzzle: &AnyPuzzle,
    job: &Job<'_>,
    created: &mut Created,
) -> Result<Manifest, SplitError> {
    let manifest = match as_stored(puzzle)? {
        AnyPuzzle::Bw(p) => write_parts(&p, job, created)?,
        AnyPuzzle::Color(p) => write_parts(&p, job, created)?,
    };
    job.check()?;
    let path = job.dir.join(MANIFEST);
    let json = serde_json::to_string_pretty(&manifest).map_err(io::Error::from);
    json.and_then(|json| write_atomically(&path, (json + "\n").as_bytes()))
        .map_err(|source| SplitError::Write {
            path: shown_path(&path),
            source,
        })?;
    created.files.push(path);
    Ok(manifest)
}

/// The puzzle as its part files will hold it: a colour puzzle is written in the `.g` format
/// and read back (colour names without spaces, unused colours dropped), so that the checksums
/// of the parts, of the runs of the part files and of the manifest agree. Black and white is
/// unchanged.
pub(crate) fn as_stored(puzzle: &AnyPuzzle) -> Result<AnyPuzzle, SplitError> {
    match puzzle {
        AnyPuzzle::Bw(p) => Ok(AnyPuzzle::Bw(p.clone())),
        AnyPuzzle::Color(p) => olsak::parse(&olsak::write(p)).map_err(SplitError::Stored),
    }
}

/// Splits `puzzle` and writes its part files into the job's folder, recording each in
/// `created`; returns the manifest to write.
fn write_parts<P: Stored>(
    puzzle: &P,
    job: &Job<'_>,
    created: &mut Created,
) -> Result<Manifest, SplitError> {
    let Cut {
        parts: made,
        sizing_stopped,
    } = cut_parts(puzzle, job.options.parts, P::SUBTREES_PER_PART, job.cancel)?;
    let digits = made.len().to_string().len().max(3);
    let mut listed = Vec::new();
    for (i, part) in made.iter().enumerate() {
        job.check()?;
        let file = format!("part-{:0digits$}.{}", i + 1, P::EXTENSION);
        let mut puzzles: Vec<P> = part.iter().map(|s| s.puzzle(puzzle)).collect();
        if let Some(first) = puzzles.first_mut() {
            let label = &job.options.label;
            first.set_title(format!("{label}: part {} of {}", i + 1, made.len()));
        }
        let Some(text) = P::all_to_text(&puzzles) else {
            let subtrees = part.len();
            return Err(SplitError::Subtrees { file, subtrees });
        };
        let path = job.dir.join(&file);
        write_atomically(&path, text.as_bytes()).map_err(|source| SplitError::Write {
            path: shown_path(&path),
            source,
        })?;
        created.files.push(path);
        let subtrees: Vec<ManifestSubtree> = part
            .iter()
            .zip(&puzzles)
            .map(|(subtree, subtree_puzzle)| ManifestSubtree {
                givens: subtree_puzzle.checksums().1,
                decisions: subtree.decisions.len(),
                unknown: subtree.unknown,
                estimate: subtree.estimate.round(),
            })
            .collect();
        listed.push(ManifestPart {
            file,
            estimate: subtrees.iter().map(|s| s.estimate).sum(),
            subtrees,
        });
    }
    Ok(manifest(puzzle, job.options, listed, sizing_stopped))
}

/// The manifest of `puzzle` split as `options` asked into the `listed` parts.
pub(super) fn manifest<P: Stored>(
    puzzle: &P,
    options: &SplitOptions,
    listed: Vec<ManifestPart>,
    sizing_stopped: bool,
) -> Manifest {
    let (clues, givens) = puzzle.checksums();
    let stopped = if sizing_stopped {
        format!(
            "; {SIZING_STOPPED} after {} s, so each subtree cut after that took an equal share of \
             its parent's estimate",
            SIZING_TIME.as_secs()
        )
    } else {
        String::new()
    };
    let mut manifest = Manifest {
        format: MANIFEST_FORMAT.into(),
        nonoenum: env!("CARGO_PKG_VERSION").into(),
        source: options.source.clone(),
        label: options.label.clone(),
        puzzle: clues,
        givens,
        rows: puzzle.size().0,
        cols: puzzle.size().1,
        parts_requested: options.parts,
        method: if options.parts <= 1 {
            "propagation and probing at the root; one part is the whole search, so the root is \
             not branched"
                .into()
        } else if P::SUBTREES_PER_PART > 1 {
            format!(
                "propagation and probing at each node; the open node with the largest estimated \
                 subtree is branched first, on the search's own branching cell, until there are \
                 {} subtrees per part (up to {} times as many while the largest subtree fills over a \
                 quarter of a part and the split's work stays under a tenth of the search's \
                 estimated work); runs of consecutive subtrees in search \
                 order are packed into parts of near-equal estimated size{stopped}",
                P::SUBTREES_PER_PART,
                crate::split::MOST_GROWTH
            )
        } else {
            format!(
                "propagation and probing at each node; the open node with the largest estimated \
                 subtree is branched first, on the search's own branching cell; one subtree per \
                 part{stopped}"
            )
        },
        parts: listed,
        parts_checksum: None,
    };
    manifest.parts_checksum = Some(manifest.parts_checksum_now());
    manifest
}

/// A kind of puzzle that part files hold: its text format and how many subtrees a file takes.
pub(super) trait Stored: Searchable + Clone {
    /// The extension of its part files (without the dot).
    const EXTENSION: &'static str;
    /// Subtrees per part file (see [`cut_parts`]); 1 where the format holds one set of
    /// givens.
    const SUBTREES_PER_PART: usize;
    /// Puzzles that differ only in their givens (a part's subtrees) in one file of its text
    /// format; `None` where the format holds one puzzle only.
    fn all_to_text(puzzles: &[Self]) -> Option<String>;
    /// Sets the title written into its file.
    fn set_title(&mut self, title: String);
}

impl Stored for Puzzle {
    const EXTENSION: &'static str = "txt";
    const SUBTREES_PER_PART: usize = crate::split::SUBTREES_PER_PART;

    fn all_to_text(puzzles: &[Self]) -> Option<String> {
        Some(plain::write_all(puzzles))
    }

    fn set_title(&mut self, title: String) {
        self.title = Some(title);
    }
}

impl Stored for ColorPuzzle {
    const EXTENSION: &'static str = "g";
    const SUBTREES_PER_PART: usize = 1;

    fn all_to_text(puzzles: &[Self]) -> Option<String> {
        match puzzles {
            [one] => Some(olsak::write(one)),
            _ => None,
        }
    }

    fn set_title(&mut self, title: String) {
        self.title = Some(title);
    }
}
