//! `nonoenum split` and `nonoenum merge`: cut a search into part files that other processes or
//! machines run, then add their `--to jsonl` (or `json`) results up, refusing anything missing
//! or foreign.
//!
//! A split folder holds `part-NNN.txt` (a black-and-white puzzle in the plain format with one
//! `givens` section of decisions per subtree of the part, so one puzzle per subtree) or
//! `part-NNN.g` (a colour puzzle in Olšák's `.g` format with a `: givens` section: one subtree),
//! `manifest.json` (the puzzle's checksums and the list of parts and their subtrees), and, once
//! the parts have run, `results/part-NNN.json` (what `count --to jsonl` or `list --to jsonl`
//! wrote, a `result` line per subtree, or the same objects as one array, from `--to json`, or
//! the compact listing of `list --to compact --json`).

use std::collections::HashSet;
use std::fs;
use std::io::{self, BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::{Context, bail};
use nonoenum::count::BigUint;
use nonoenum::format::compact::CompactHeader;
use nonoenum::split::{Part, split as split_search, split_balanced};
use nonoenum::{AnyPuzzle, ListingError, ListingItem, SolveError, read_listing};
use serde::{Deserialize, Serialize};

use crate::cli::{JsonStyle, Settings};
use crate::input::display_name;
use crate::output::atomic::write_atomically;
use crate::output::json::{JsonArray, JsonLine, RunResult, read_lines, write_line};
use crate::palette::{PartPuzzle, as_stored};
use crate::stop::{Cancel, Stop};

/// The `format` field of a manifest this version writes.
const MANIFEST_FORMAT: &str = "nonoenum-split/2";
/// The formats it reads: also that of one subtree per part, before parts had several.
const MANIFEST_FORMATS: [&str; 2] = [MANIFEST_FORMAT, "nonoenum-split/1"];
const MANIFEST: &str = "manifest.json";
const RESULTS: &str = "results";

/// What `manifest.json` records.
#[derive(Debug, Serialize, Deserialize)]
struct Manifest {
    /// [`MANIFEST_FORMAT`].
    format: String,
    /// The nonoenum version that split.
    nonoenum: String,
    /// The puzzle file that was split, as given.
    source: String,
    /// The puzzle's label.
    label: String,
    /// The clue checksum, shared by the puzzle and every part.
    puzzle: String,
    /// The givens checksum of the whole puzzle (its own givens, before any decision).
    givens: String,
    rows: usize,
    cols: usize,
    parts_requested: usize,
    /// How the parts were made.
    method: String,
    parts: Vec<ManifestPart>,
}

/// One part in the manifest.
#[derive(Debug, Serialize, Deserialize)]
#[serde(from = "StoredPart")]
struct ManifestPart {
    /// The part's file name, in the split folder.
    file: String,
    /// The estimated work of the part's search: its subtrees' sum.
    estimate: f64,
    /// The part's subtrees, in search order: the puzzles of its file, in file order.
    subtrees: Vec<ManifestSubtree>,
}

/// One subtree of a part in the manifest.
#[derive(Debug, Serialize, Deserialize)]
struct ManifestSubtree {
    /// The givens checksum of the subtree (the puzzle's givens and the subtree's decisions).
    givens: String,
    /// How many decisions select the subtree.
    decisions: usize,
    /// Cells still unknown at the subtree's node.
    unknown: usize,
    /// The estimated work of the subtree's search: its nodes plus their line solves (see
    /// `nonoenum::split::Part::estimate`).
    estimate: f64,
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

/// `nonoenum split`. A split that `cancel` stops (`--time-limit`, Ctrl-C, SIGTERM) leaves
/// nothing behind: the files it wrote and the folders it created are removed.
pub(crate) fn split(
    settings: &Settings,
    parts: usize,
    out: &Path,
    quiet: bool,
    cancel: &Cancel,
) -> anyhow::Result<ExitCode> {
    if parts == 0 {
        bail!("--parts must be at least 1");
    }
    let mut puzzles = crate::input::load_any(settings)?;
    if puzzles.len() != 1 {
        let n = puzzles.len();
        bail!("the file holds {n} puzzles: choose the one to split with --puzzle N");
    }
    let (label, puzzle) = puzzles.remove(0);
    let out_name = display_name(out);
    if out.join(MANIFEST).exists() {
        bail!("{out_name} already holds a split ({MANIFEST}): use a new folder");
    }
    let mut created = Created {
        folders: create_folders(out).with_context(|| format!("cannot create {out_name}"))?,
        files: Vec::new(),
    };
    let job = SplitJob {
        label: &label,
        source: display_name(&settings.file),
        parts,
        out,
        cancel: &cancel.any,
    };
    let (manifest, largest) = match write_split(puzzle, &job, &mut created) {
        Ok(Some(written)) => written,
        Ok(None) => {
            created.remove();
            let reason = cancel.reason().unwrap_or(Stop::Interrupted);
            if !quiet {
                eprintln!(
                    "nonoenum: {}; the split was stopped and nothing was written",
                    reason.describe()
                );
            }
            return Ok(ExitCode::from(reason.exit_code()));
        }
        Err(e) => {
            created.remove();
            return Err(e);
        }
    };
    if !quiet {
        let subtrees: usize = manifest.parts.iter().map(|p| p.subtrees.len()).sum();
        eprintln!(
            "nonoenum: split {label} into {} parts in {out_name} ({subtrees} subtrees, at most \
             {largest} unknown cells each)",
            manifest.parts.len()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// What a split writes, and the flag that stops it.
struct SplitJob<'a> {
    /// The puzzle's label.
    label: &'a str,
    /// The puzzle file, as given.
    source: String,
    /// `--parts`.
    parts: usize,
    /// The split folder.
    out: &'a Path,
    cancel: &'a AtomicBool,
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

/// Splits `puzzle`, writes its part files and then the manifest; returns the manifest and the
/// most unknown cells of a subtree, or `None` when the job's cancel flag stopped it before
/// the manifest was written.
fn write_split(
    puzzle: AnyPuzzle,
    job: &SplitJob<'_>,
    created: &mut Created,
) -> anyhow::Result<Option<(Manifest, usize)>> {
    let written = match as_stored(puzzle)? {
        AnyPuzzle::Bw(p) => write_parts(&p, job, created)?,
        AnyPuzzle::Color(p) => write_parts(&p, job, created)?,
    };
    let Some((manifest, largest)) = written else {
        return Ok(None);
    };
    if job.cancel.load(Ordering::Relaxed) {
        return Ok(None);
    }
    let manifest_path = job.out.join(MANIFEST);
    let json = serde_json::to_string_pretty(&manifest)? + "\n";
    write_atomically(&manifest_path, json.as_bytes())?;
    created.files.push(manifest_path);
    Ok(Some((manifest, largest)))
}

/// Splits `puzzle` and writes its part files into the job's folder, recording each in
/// `created`; returns the manifest to write and the most unknown cells of a subtree, or `None`
/// when the job's cancel flag stopped it.
fn write_parts<P: PartPuzzle>(
    puzzle: &P,
    job: &SplitJob<'_>,
    created: &mut Created,
) -> anyhow::Result<Option<(Manifest, usize)>> {
    let made = match made_parts(puzzle, job.parts, job.cancel) {
        Err(SolveError::Cancelled) => return Ok(None),
        made => made?,
    };
    let digits = made.len().to_string().len().max(3);
    let mut listed = Vec::new();
    for (i, part) in made.iter().enumerate() {
        if job.cancel.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let file = format!("part-{:0digits$}.{}", i + 1, P::EXTENSION);
        let mut puzzles: Vec<P> = part.iter().map(|s| s.puzzle(puzzle)).collect();
        if let Some(first) = puzzles.first_mut() {
            first.set_title(format!("{}: part {} of {}", job.label, i + 1, made.len()));
        }
        let Some(text) = P::all_to_text(&puzzles) else {
            bail!(
                "{file}: its format holds one subtree, but the part has {}",
                part.len()
            );
        };
        let path = job.out.join(&file);
        write_atomically(&path, text.as_bytes())?;
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
    let largest = made.iter().flatten().map(|p| p.unknown).max().unwrap_or(0);
    Ok(Some((manifest(puzzle, job, listed), largest)))
}

/// The parts of `puzzle`, each a run of subtrees (one subtree for a format that holds one).
fn made_parts<P: PartPuzzle>(
    puzzle: &P,
    parts: usize,
    cancel: &AtomicBool,
) -> Result<Vec<Vec<Part<P>>>, SolveError> {
    if P::SUBTREES_PER_PART > 1 {
        split_balanced(puzzle, parts, P::SUBTREES_PER_PART, cancel)
    } else {
        Ok(split_search(puzzle, parts, cancel)?
            .into_iter()
            .map(|part| vec![part])
            .collect())
    }
}

/// The manifest of `puzzle` split as `job` asked into the `listed` parts.
fn manifest<P: PartPuzzle>(puzzle: &P, job: &SplitJob<'_>, listed: Vec<ManifestPart>) -> Manifest {
    let (clues, givens) = puzzle.checksums();
    Manifest {
        format: MANIFEST_FORMAT.into(),
        nonoenum: env!("CARGO_PKG_VERSION").into(),
        source: job.source.clone(),
        label: job.label.into(),
        puzzle: clues,
        givens,
        rows: puzzle.size().0,
        cols: puzzle.size().1,
        parts_requested: job.parts,
        method: if P::SUBTREES_PER_PART > 1 {
            format!(
                "propagation and probing at each node; the open node with the largest estimated \
                 subtree is branched first, on the search's own branching cell, until there are \
                 {} subtrees per part; runs of consecutive subtrees in search order are packed \
                 into parts of near-equal estimated size",
                P::SUBTREES_PER_PART
            )
        } else {
            "propagation and probing at each node; the open node with the largest estimated \
             subtree is branched first, on the search's own branching cell; one subtree per part"
                .into()
        },
        parts: listed,
    }
}

/// A part's result, checked against the manifest.
struct Checked {
    count: BigUint,
    seconds: f64,
}

/// `nonoenum merge`: checks every part's result, then prints the total as text or JSON, or with
/// `list` every solution (and, unless `quiet`, their number on standard error).
pub(crate) fn merge(
    dir: &Path,
    list: bool,
    style: Option<JsonStyle>,
    quiet: bool,
) -> anyhow::Result<ExitCode> {
    let dir_name = display_name(dir);
    let manifest_path = dir.join(MANIFEST);
    let manifest_name = display_name(&manifest_path);
    let bytes = crate::input::read_bytes(&manifest_path)?;
    let manifest: Manifest = serde_json::from_slice(&bytes)
        .with_context(|| format!("{manifest_name}: not a nonoenum split manifest"))?;
    check_manifest(&manifest, &manifest_name)?;
    let command = if list { "list" } else { "count" };
    let mut total = BigUint::ZERO;
    let mut seconds = 0.0;
    let mut problems = Vec::new();
    for part in &manifest.parts {
        match check_part(dir, &manifest, part, command) {
            Ok(checked) => {
                total += checked.count;
                seconds += checked.seconds;
            }
            Err(problem) => problems.push(format!("{}: {problem:#}", part.file)),
        }
    }
    if !problems.is_empty() {
        const SHOWN: usize = 5;
        let more = match problems.len().saturating_sub(SHOWN) {
            0 => String::new(),
            n => format!("; and {n} more"),
        };
        bail!(
            "{dir_name}: {} of {} parts have no usable result, nothing merged: {}{more}",
            problems.len(),
            manifest.parts.len(),
            problems[..problems.len().min(SHOWN)].join("; ")
        );
    }
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match style {
        Some(JsonStyle::Document) => {
            let mut array = JsonArray::new(&mut out);
            write_merged(
                dir,
                &manifest,
                list,
                true,
                total.clone(),
                seconds,
                &mut array,
            )?;
            array.finish()?;
        }
        _ => write_merged(
            dir,
            &manifest,
            list,
            style.is_some(),
            total.clone(),
            seconds,
            &mut out,
        )?,
    }
    out.flush()?;
    if list && !quiet {
        // As `list` says at its end how many solutions it printed, and that is all of them.
        let n = manifest.parts.len();
        eprintln!("nonoenum: {total} solutions (complete: {n} parts merged)");
    }
    Ok(ExitCode::SUCCESS)
}

/// Checks what a manifest read back lists: its format, and each part once, at least one.
fn check_manifest(manifest: &Manifest, manifest_name: &str) -> anyhow::Result<()> {
    if !MANIFEST_FORMATS.contains(&manifest.format.as_str()) {
        bail!(
            "{manifest_name}: format `{}`, expected `{MANIFEST_FORMAT}`",
            manifest.format
        );
    }
    if manifest.parts.is_empty() {
        bail!("{manifest_name}: the manifest lists no parts");
    }
    let mut files = HashSet::new();
    if let Some(twice) = manifest.parts.iter().find(|p| !files.insert(&p.file)) {
        bail!("{manifest_name}: the manifest lists {} twice", twice.file);
    }
    // A part is a file of the split folder: a path elsewhere (`../x`, `/x`, `a/b`) is not
    // one that `split` wrote.
    let plain_name = |file: &str| {
        let mut parts = Path::new(file).components();
        matches!(
            (parts.next(), parts.next()),
            (Some(std::path::Component::Normal(_)), None)
        )
    };
    if let Some(outside) = manifest.parts.iter().find(|p| !plain_name(&p.file)) {
        bail!(
            "{manifest_name}: part `{}` is not a file name in the split folder",
            outside.file
        );
    }
    Ok(())
}

/// Writes the merged result: with `list`, every part's solutions, then (text) the count or
/// (`json`) a `result` object.
fn write_merged(
    dir: &Path,
    manifest: &Manifest,
    list: bool,
    json: bool,
    total: BigUint,
    seconds: f64,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    let command = if list { "list" } else { "count" };
    if list {
        let mut printed = 0u128;
        for part in &manifest.parts {
            for_each_line(&result_path(dir, &part.file), |line| {
                if let PartLine::Solution(rows) = line {
                    if !json && printed > 0 {
                        writeln!(out)?;
                    }
                    if json {
                        write_line(out, &JsonLine::Solution { rows })?;
                    } else {
                        for row in rows {
                            writeln!(out, "{row}")?;
                        }
                    }
                    printed += 1;
                }
                Ok(())
            })?;
        }
    }
    if json {
        let result = RunResult {
            command: command.into(),
            label: manifest.label.clone(),
            puzzle: manifest.puzzle.clone(),
            givens: manifest.givens.clone(),
            count: total,
            complete: true,
            stopped: None,
            seconds,
            per_cell: None,
            per_color: None,
        };
        write_line(out, &JsonLine::Result(result))?;
    } else if !list {
        writeln!(out, "{total}")?;
    }
    Ok(())
}

fn result_path(dir: &Path, part_file: &str) -> PathBuf {
    let stem = Path::new(part_file)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or(part_file);
    dir.join(RESULTS).join(format!("{stem}.json"))
}

/// One line of a part's result.
enum PartLine {
    /// A JSON object other than a solution: the run's result.
    Json(RunResult),
    /// The header of a compact listing (`list --to compact`).
    Header(CompactHeader),
    /// A solution, as a JSON object or a line of a compact listing: its rows.
    Solution(Vec<String>),
}

/// Reads a result file, passing each line to `f`: the JSON lines of `--to jsonl`, the one
/// array of `--to json`, or a compact listing (with its `--json` result line).
fn for_each_line(
    path: &Path,
    mut f: impl FnMut(PartLine) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let name = display_name(path);
    let file = fs::File::open(path).with_context(|| format!("no result ({name})"))?;
    let mut reader = BufReader::new(file);
    let start = reader
        .fill_buf()
        .with_context(|| format!("cannot read {name}"))?;
    // A JSON document is read whole; a listing, one line at a time (it may be long).
    if start.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
        let bytes = crate::input::read_capped(reader, &name, &name)?;
        let text = String::from_utf8(bytes).with_context(|| format!("{name}: not UTF-8 text"))?;
        let lines = read_lines(&text).map_err(|(line, e)| {
            anyhow::Error::new(e).context(format!("{name}:{line}: not a nonoenum JSON document"))
        })?;
        for line in lines {
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
                Err(e) => {
                    return Err(anyhow::Error::new(e).context(format!(
                        "{name}:{}: not a nonoenum JSON line",
                        listing.line()
                    )));
                }
            },
            Ok(ListingItem::Header(header)) => PartLine::Header(header),
            Ok(ListingItem::Solution(solution)) => PartLine::Solution(solution.rows()),
            Err(ListingError::Io { source, .. }) => {
                return Err(source).with_context(|| format!("cannot read {name}"));
            }
            Err(e) => bail!("{name}:{}: {}", e.line(), problem(&e)),
        };
        f(line)?;
    }
    Ok(())
}

/// What is wrong with a line of a listing, without its line number.
fn problem(e: &ListingError) -> String {
    match e {
        ListingError::Line { problem, .. } => problem.clone(),
        other => other.to_string(),
    }
}

/// Checks one part's result: present, complete, from the right command, for this puzzle and
/// this part (a result line for each of its subtrees, in order), with as many solution lines as
/// it counts (for `list`).
fn check_part(
    dir: &Path,
    manifest: &Manifest,
    part: &ManifestPart,
    command: &str,
) -> anyhow::Result<Checked> {
    if part.file.contains(['/', '\\']) || part.file.starts_with('.') {
        bail!("not a plain file name in the manifest");
    }
    let path = result_path(dir, &part.file);
    let mut solutions: u128 = 0;
    let mut results = Vec::new();
    for_each_line(&path, |line| {
        match line {
            PartLine::Solution(_) => solutions += 1,
            PartLine::Json(r) => results.push(r),
            PartLine::Header(header) => check_header(&header, manifest, part)?,
        }
        Ok(())
    })?;
    if results.is_empty() {
        bail!("no result line (the run did not finish)");
    }
    let lines = results.len();
    let mut checked = Checked {
        count: BigUint::ZERO,
        seconds: 0.0,
    };
    for (result, subtree) in results.into_iter().zip(&part.subtrees) {
        if result.puzzle != manifest.puzzle {
            bail!(
                "result of another puzzle ({}, expected {})",
                result.puzzle,
                manifest.puzzle
            );
        }
        if result.givens != subtree.givens {
            bail!("result of another part (givens {})", result.givens);
        }
        // A complete `list` result counts as well as a `count` one.
        let usable = result.command == command || (command == "count" && result.command == "list");
        if !usable {
            bail!(
                "result of `{}`, but merging `{command}` results",
                result.command
            );
        }
        if !result.complete {
            bail!("incomplete result (the search was stopped)");
        }
        checked.count += result.count;
        checked.seconds += result.seconds;
    }
    let subtrees = part.subtrees.len();
    if lines != subtrees {
        let more = if lines > subtrees { "more" } else { "fewer" };
        bail!(
            "{lines} result lines for {subtrees} subtrees ({more} than the part's puzzles; \
             the run did not finish, or ran another file)"
        );
    }
    if command == "list" && BigUint::from(solutions) != checked.count {
        bail!(
            "{solutions} solution lines but a count of {}",
            checked.count
        );
    }
    Ok(checked)
}

/// Checks the header of a part's compact listing: the puzzle's size and checksums.
fn check_header(
    header: &CompactHeader,
    manifest: &Manifest,
    part: &ManifestPart,
) -> anyhow::Result<()> {
    if (header.rows, header.cols) != (manifest.rows, manifest.cols) {
        bail!(
            "a listing of {}x{} grids, but the puzzle is {}x{}",
            header.rows,
            header.cols,
            manifest.rows,
            manifest.cols
        );
    }
    if let Some(puzzle) = header.puzzle.as_ref().filter(|p| **p != manifest.puzzle) {
        bail!(
            "listing of another puzzle ({puzzle}, expected {})",
            manifest.puzzle
        );
    }
    let foreign = |g: &&String| !part.subtrees.iter().any(|s| s.givens == **g);
    if let Some(givens) = header.givens.as_ref().filter(foreign) {
        bail!("listing of another part (givens {givens})");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A manifest of each format: parts with subtrees, and (`nonoenum-split/1`) without.
    fn seeds() -> Vec<Vec<u8>> {
        let subtree =
            serde_json::json!({"givens": "g", "decisions": 1, "unknown": 5, "estimate": 2.5});
        let manifest = |format: &str, parts| {
            serde_json::json!({
                "format": format, "nonoenum": "0.1.0", "source": "p.txt", "label": "p",
                "puzzle": "c", "givens": "g", "rows": 3, "cols": 3, "parts_requested": 2,
                "method": "balanced", "parts": parts,
            })
        };
        let grouped = serde_json::json!([
            {"file": "part-1.txt", "estimate": 2.5, "subtrees": [subtree]},
            {"file": "part-2.txt", "estimate": 5.0, "subtrees": [subtree, subtree]},
        ]);
        let single = serde_json::json!([
            {"file": "part-1.txt", "givens": "g", "decisions": 1, "unknown": 5, "estimate": 2.5},
        ]);
        [
            manifest(MANIFEST_FORMAT, grouped),
            manifest("nonoenum-split/1", single),
        ]
        .iter()
        .map(|v| v.to_string().into_bytes())
        .collect()
    }

    proptest::proptest! {
        #![proptest_config(crate::fuzz_cases::cases(300))]

        #[test]
        fn edited_manifests_never_panic(
            bytes in crate::fuzz_cases::edited_one_of(seeds()),
        ) {
            if let Ok(manifest) = serde_json::from_slice::<Manifest>(&bytes)
                && check_manifest(&manifest, "fuzz").is_ok()
            {
                for part in &manifest.parts {
                    let _ = result_path(Path::new("split"), &part.file);
                }
            }
        }
    }

    #[test]
    fn the_seeds_are_read_back() {
        for seed in seeds() {
            let manifest: Manifest = serde_json::from_slice(&seed).expect("a manifest");
            assert!(check_manifest(&manifest, "m").is_ok());
        }
    }
}
