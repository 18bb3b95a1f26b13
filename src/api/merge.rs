//! Merging a split folder: every part's results are read back and checked against the
//! manifest (present, complete, of this puzzle and this part, one `result` per subtree) before
//! their counts are added up, so that the total is exact or there is none.

use std::collections::HashSet;
use std::fs;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Component, Path, PathBuf};

use super::listing::{ListingError, ListingItem, read_listing};
use super::merge_error::{FileError, MergeError, PartError, PartProblem};
use super::results::{JsonLine, RunResult, read_lines};
use super::split_folder::{MANIFEST, MANIFEST_FORMAT, MANIFEST_FORMATS, Manifest, ManifestPart};
use super::split_folder::{RESULTS, SplitFolder};
use crate::count::BigUint;
use crate::files::{read_capped, read_file_capped, shown_path};
use crate::format::MAX_INPUT_BYTES;
use crate::format::compact::CompactHeader;

/// Which results a merge adds up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MergeCommand {
    /// Counts: the results of `count` runs, or of complete `list` runs.
    Count,
    /// Listings: the results of `list` runs, each with as many solutions as it counts.
    List,
}

impl MergeCommand {
    /// The command's name, as results give it: `count` or `list`.
    pub fn name(self) -> &'static str {
        match self {
            MergeCommand::Count => "count",
            MergeCommand::List => "list",
        }
    }
}

/// What a merge adds up: the exact total of the whole puzzle.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// Solutions of the whole puzzle: the sum of every part's.
    pub count: BigUint,
    /// The parts' search seconds, added up.
    pub seconds: f64,
    /// The parts merged.
    pub parts: usize,
}

/// Reads the split folder `dir` and adds up its parts' counts ([`SplitFolder::merge`] with
/// [`MergeCommand::Count`]).
pub fn merge(dir: impl AsRef<Path>) -> Result<Merged, MergeError> {
    SplitFolder::open(dir)?.merge(MergeCommand::Count)
}

impl SplitFolder {
    /// Reads the manifest of the split folder `dir` and checks what it lists: its format, and
    /// each part once, at least one, each a plain file name in the folder.
    pub fn open(dir: impl AsRef<Path>) -> Result<SplitFolder, MergeError> {
        let dir = dir.as_ref();
        let manifest_path = dir.join(MANIFEST);
        let path = shown_path(&manifest_path);
        let bytes = read_file_capped(&manifest_path, MAX_INPUT_BYTES)
            .map_err(|e| MergeError::Manifest(FileError::capped(&path, e)))?;
        let manifest: Manifest =
            serde_json::from_slice(&bytes).map_err(|source| MergeError::NotManifest {
                path: path.clone(),
                source,
            })?;
        check_manifest(&manifest, &path)?;
        Ok(SplitFolder {
            dir: dir.to_path_buf(),
            manifest,
        })
    }

    /// Checks every part's result and adds them up; a part without a usable result (missing,
    /// unfinished, of another puzzle or part or command) fails the merge, naming each such part.
    pub fn merge(&self, command: MergeCommand) -> Result<Merged, MergeError> {
        let mut merged = Merged {
            count: BigUint::ZERO,
            seconds: 0.0,
            parts: self.manifest.parts.len(),
        };
        let mut problems = Vec::new();
        for part in &self.manifest.parts {
            match self.check_part(part, command) {
                Ok(checked) => {
                    merged.count += checked.count;
                    merged.seconds += checked.seconds;
                }
                Err(error) => problems.push(PartProblem {
                    file: part.file.clone(),
                    error,
                }),
            }
        }
        if !problems.is_empty() {
            return Err(MergeError::Parts {
                folder: shown_path(&self.dir),
                parts: self.manifest.parts.len(),
                problems,
            });
        }
        Ok(merged)
    }

    /// Hands each solution of the parts' results to `f`, part by part in manifest order, as
    /// rows of text (merge with [`MergeCommand::List`] first to check them).
    pub fn for_each_solution(
        &self,
        mut f: impl FnMut(Vec<String>) -> io::Result<()>,
    ) -> Result<(), MergeError> {
        for part in &self.manifest.parts {
            for_each_line(&self.result_path_of(&part.file), |line| match line {
                PartLine::Solution(rows) => f(rows).map_err(MergeError::Output),
                _ => Ok(()),
            })?;
        }
        Ok(())
    }

    /// The `result` object of the merged run: the manifest's puzzle, the total, complete.
    pub fn merged_result(&self, command: MergeCommand, merged: &Merged) -> RunResult {
        RunResult {
            command: command.name().into(),
            label: self.manifest.label.clone(),
            puzzle: self.manifest.puzzle.clone(),
            givens: self.manifest.givens.clone(),
            count: merged.count.clone(),
            complete: true,
            stopped: None,
            seconds: merged.seconds,
            per_cell: None,
            per_color: None,
        }
    }

    /// Where the results of the part file `file` go: `results/STEM.json`.
    pub(crate) fn result_path_of(&self, file: &str) -> PathBuf {
        let stem = Path::new(file)
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or(file);
        self.dir.join(RESULTS).join(format!("{stem}.json"))
    }

    /// Checks one part's result: present, complete, from the right command, for this puzzle
    /// and this part (a result line for each of its subtrees, in order), with as many solution
    /// lines as it counts (for a listing).
    fn check_part(&self, part: &ManifestPart, command: MergeCommand) -> Result<Checked, PartError> {
        if part.file.contains(['/', '\\']) || part.file.starts_with('.') {
            return Err(PartError::NotPlainName);
        }
        let mut solutions: u128 = 0;
        let mut results = Vec::new();
        for_each_line(&self.result_path_of(&part.file), |line| {
            match line {
                PartLine::Solution(_) => solutions += 1,
                PartLine::Json(r) => results.push(r),
                PartLine::Header(header) => check_header(&header, &self.manifest, part)?,
            }
            Ok(())
        })?;
        let checked = check_results(results, &self.manifest, part, command)?;
        if command == MergeCommand::List && BigUint::from(solutions) != checked.count {
            return Err(PartError::Solutions {
                solutions,
                count: checked.count,
            });
        }
        Ok(checked)
    }
}

/// A part's result, checked against the manifest.
struct Checked {
    count: BigUint,
    seconds: f64,
}

/// Checks a part's `result` objects against its subtrees, and adds them up.
fn check_results(
    results: Vec<RunResult>,
    manifest: &Manifest,
    part: &ManifestPart,
    command: MergeCommand,
) -> Result<Checked, PartError> {
    if results.is_empty() {
        return Err(PartError::NoResultLine);
    }
    let lines = results.len();
    let mut checked = Checked {
        count: BigUint::ZERO,
        seconds: 0.0,
    };
    for (result, subtree) in results.into_iter().zip(&part.subtrees) {
        if result.puzzle != manifest.puzzle {
            return Err(PartError::AnotherPuzzle {
                found: result.puzzle,
                expected: manifest.puzzle.clone(),
            });
        }
        if result.givens != subtree.givens {
            return Err(PartError::AnotherPart {
                givens: result.givens,
            });
        }
        // A complete `list` result counts as well as a `count` one.
        let usable = result.command == command.name()
            || (command == MergeCommand::Count && result.command == "list");
        if !usable {
            return Err(PartError::Command {
                found: result.command,
                merging: command.name(),
            });
        }
        if !result.complete {
            return Err(PartError::Incomplete);
        }
        checked.count += result.count;
        checked.seconds += result.seconds;
    }
    let subtrees = part.subtrees.len();
    if lines != subtrees {
        return Err(PartError::Lines { lines, subtrees });
    }
    Ok(checked)
}

/// Checks what a manifest read back lists: its format, each part once, at least one, and the
/// parts as the split listed them.
pub(crate) fn check_manifest(manifest: &Manifest, path: &str) -> Result<(), MergeError> {
    let path = path.to_string();
    if !MANIFEST_FORMATS.contains(&manifest.format.as_str()) {
        let format = manifest.format.clone();
        return Err(MergeError::Format { path, format });
    }
    if manifest.parts.is_empty() {
        return Err(MergeError::NoParts { path });
    }
    let mut files = HashSet::new();
    if let Some(twice) = manifest.parts.iter().find(|p| !files.insert(&p.file)) {
        let file = twice.file.clone();
        return Err(MergeError::Twice { path, file });
    }
    // A part is a file of the split folder: a path elsewhere (`../x`, `/x`, `a/b`) is not
    // one that a split wrote.
    let plain_name = |file: &str| {
        let mut parts = Path::new(file).components();
        matches!(
            (parts.next(), parts.next()),
            (Some(Component::Normal(_)), None)
        )
    };
    if let Some(outside) = manifest.parts.iter().find(|p| !plain_name(&p.file)) {
        let file = outside.file.clone();
        return Err(MergeError::Outside { path, file });
    }
    let missing = manifest.format == MANIFEST_FORMAT && manifest.parts_checksum.is_none();
    if missing
        || (manifest.parts_checksum.as_ref()).is_some_and(|c| *c != manifest.parts_checksum_now())
    {
        return Err(MergeError::PartsEdited { path });
    }
    Ok(())
}

/// Checks the header of a part's compact listing: the puzzle's size and checksums.
fn check_header(
    header: &CompactHeader,
    manifest: &Manifest,
    part: &ManifestPart,
) -> Result<(), PartError> {
    if (header.rows, header.cols) != (manifest.rows, manifest.cols) {
        return Err(PartError::Size {
            rows: header.rows,
            cols: header.cols,
            puzzle_rows: manifest.rows,
            puzzle_cols: manifest.cols,
        });
    }
    if let Some(puzzle) = header.puzzle.as_ref().filter(|p| **p != manifest.puzzle) {
        return Err(PartError::ListingOfAnotherPuzzle {
            found: puzzle.clone(),
            expected: manifest.puzzle.clone(),
        });
    }
    let foreign = |g: &&String| !part.subtrees.iter().any(|s| s.givens == **g);
    if let Some(givens) = header.givens.as_ref().filter(foreign) {
        let givens = givens.clone();
        return Err(PartError::ListingOfAnotherPart { givens });
    }
    Ok(())
}

/// One line of a part's result.
enum PartLine {
    /// A JSON object other than a solution: the run's result.
    Json(RunResult),
    /// The header of a compact listing.
    Header(CompactHeader),
    /// A solution, as a JSON object or a line of a compact listing: its rows.
    Solution(Vec<String>),
}

/// Reads a result file, passing each line to `f`: the JSON lines of a run, its one array, or
/// a compact listing (with its result line).
fn for_each_line<E: From<PartError>>(
    path: &Path,
    mut f: impl FnMut(PartLine) -> Result<(), E>,
) -> Result<(), E> {
    let name = shown_path(path);
    let read = |source| {
        let path = name.clone();
        PartError::File(FileError::Read { path, source })
    };
    let file = fs::File::open(path).map_err(|source| PartError::NoResult {
        path: name.clone(),
        source,
    })?;
    let mut reader = BufReader::new(file);
    let start = reader.fill_buf().map_err(&read)?;
    // A JSON document is read whole; a listing, one line at a time (it may be long).
    if start.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
        for line in read_document(reader, &name)? {
            f(match line {
                JsonLine::Solution { rows } => PartLine::Solution(rows),
                JsonLine::Result(result) => PartLine::Json(result),
            })?;
        }
        return Ok(());
    }
    let mut listing = read_listing(reader);
    while let Some(item) = listing.next() {
        let line = match item {
            Ok(ListingItem::Json(text)) => match serde_json::from_str(&text) {
                Ok(JsonLine::Solution { rows }) => PartLine::Solution(rows),
                Ok(JsonLine::Result(result)) => PartLine::Json(result),
                Err(source) => {
                    let (path, line) = (name.clone(), listing.line());
                    return Err(PartError::NotJsonLine { path, line, source }.into());
                }
            },
            Ok(ListingItem::Header(header)) => PartLine::Header(header),
            Ok(ListingItem::Solution(solution)) => PartLine::Solution(solution.rows()),
            Err(ListingError::Io { source, .. }) => return Err(read(source).into()),
            Err(e) => {
                let (path, line) = (name.clone(), e.line());
                let problem = match e {
                    ListingError::Line { problem, .. } => problem,
                    other => other.to_string(),
                };
                return Err(PartError::Listing {
                    path,
                    line,
                    problem,
                }
                .into());
            }
        };
        f(line)?;
    }
    Ok(())
}

/// The objects of a result file that is one JSON array, read whole.
fn read_document(reader: impl Read, name: &str) -> Result<Vec<JsonLine>, PartError> {
    let path = name.to_string();
    let bytes = read_capped(reader, MAX_INPUT_BYTES)
        .map_err(|e| PartError::File(FileError::capped(&path, e)))?;
    let text = String::from_utf8(bytes).map_err(|source| PartError::NotUtf8 {
        path: path.clone(),
        source,
    })?;
    read_lines(&text).map_err(|(line, source)| PartError::NotJsonDocument { path, line, source })
}
