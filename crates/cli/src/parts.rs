//! `nonoenum split` and `nonoenum merge`: cut a search into part files that other processes or
//! machines run, then add their `--to jsonl` (or `json`) results up, refusing anything missing
//! or foreign.
//!
//! A split folder holds `part-NNN.txt` (a black-and-white puzzle in the plain format with a
//! `givens` section of decisions) or `part-NNN.g` (a colour puzzle in Olšák's `.g` format with a
//! `: givens` section), `manifest.json` (the puzzle's checksums and the list of parts), and, once the
//! parts have run, `results/part-NNN.json` (what `count --to jsonl` or `list --to jsonl` wrote,
//! or the same objects as one array, from `--to json`, or the compact listing of
//! `list --to compact --json`).

use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use nonoenum::count::BigUint;
use nonoenum::format::compact::CompactHeader;
use nonoenum::split::split as split_search;
use nonoenum::{AnyPuzzle, ListingError, ListingItem, read_listing};
use serde::{Deserialize, Serialize};

use crate::cli::{JsonStyle, Settings};
use crate::input::display_name;
use crate::output::json::{JsonArray, JsonLine, RunResult, read_lines, write_line};
use crate::palette::{PartPuzzle, as_stored};

/// The `format` field of a manifest this version writes and reads.
const MANIFEST_FORMAT: &str = "nonoenum-split/1";
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
struct ManifestPart {
    /// The part's file name, in the split folder.
    file: String,
    /// The givens checksum of the part (the puzzle's givens and the part's decisions).
    givens: String,
    /// How many decisions select the part.
    decisions: usize,
    /// Cells still unknown at the part's node.
    unknown: usize,
    /// The estimated number of search nodes in the part (see `nonoenum::split`).
    estimate: f64,
}

/// `nonoenum split`.
pub(crate) fn split(
    settings: &Settings,
    parts: usize,
    out: &Path,
    quiet: bool,
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
    let manifest_path = out.join(MANIFEST);
    if manifest_path.exists() {
        bail!("{out_name} already holds a split ({MANIFEST}): use a new folder");
    }
    fs::create_dir_all(out).with_context(|| format!("cannot create {out_name}"))?;
    let source = display_name(&settings.file);
    let (manifest, largest) = match as_stored(puzzle)? {
        AnyPuzzle::Bw(p) => write_parts(&p, &label, source, parts, out)?,
        AnyPuzzle::Color(p) => write_parts(&p, &label, source, parts, out)?,
    };
    let json = serde_json::to_string_pretty(&manifest)? + "\n";
    write_atomically(&manifest_path, json.as_bytes())?;
    if !quiet {
        eprintln!(
            "nonoenum: split {label} into {} parts in {out_name} (largest part: {largest} unknown cells)",
            manifest.parts.len()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Splits `puzzle` and writes its part files into `out`; returns the manifest to write and
/// the unknown cells of the largest part.
fn write_parts<P: PartPuzzle>(
    puzzle: &P,
    label: &str,
    source: String,
    parts: usize,
    out: &Path,
) -> anyhow::Result<(Manifest, usize)> {
    let made = split_search(puzzle, parts)?;
    let digits = made.len().to_string().len().max(3);
    let mut listed = Vec::new();
    for (i, part) in made.iter().enumerate() {
        let file = format!("part-{:0digits$}.{}", i + 1, P::EXTENSION);
        let mut part_puzzle = part.puzzle(puzzle);
        part_puzzle.set_title(format!("{label}: part {} of {}", i + 1, made.len()));
        write_atomically(&out.join(&file), part_puzzle.to_text().as_bytes())?;
        listed.push(ManifestPart {
            file,
            givens: part_puzzle.checksums().1,
            decisions: part.decisions.len(),
            unknown: part.unknown,
            estimate: part.estimate.round(),
        });
    }
    let (clues, givens) = puzzle.checksums();
    let manifest = Manifest {
        format: MANIFEST_FORMAT.into(),
        nonoenum: env!("CARGO_PKG_VERSION").into(),
        source,
        label: label.into(),
        puzzle: clues,
        givens,
        rows: puzzle.size().0,
        cols: puzzle.size().1,
        parts_requested: parts,
        method: "propagation and probing at each node; the open node with the most unknown \
                 cells is branched first, on the search's own branching cell"
            .into(),
        parts: listed,
    };
    let largest = made.iter().map(|p| p.unknown).max().unwrap_or(0);
    Ok((manifest, largest))
}

/// Writes a file through a temporary file in the same folder and a rename, so that a reader
/// never sees it half-written.
fn write_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let name = display_name(path);
    fs::write(&tmp, bytes).with_context(|| format!("cannot write {name}"))?;
    fs::rename(&tmp, path).with_context(|| format!("cannot write {name}"))?;
    Ok(())
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
    let text = fs::read_to_string(&manifest_path)
        .with_context(|| format!("cannot read {manifest_name}"))?;
    let manifest: Manifest = serde_json::from_str(&text)
        .with_context(|| format!("{manifest_name}: not a nonoenum split manifest"))?;
    if manifest.format != MANIFEST_FORMAT {
        bail!(
            "{manifest_name}: format `{}`, expected `{MANIFEST_FORMAT}`",
            manifest.format
        );
    }
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
    let text = fs::read_to_string(path).with_context(|| format!("no result ({name})"))?;
    if text.trim_start().starts_with('[') {
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
    let mut listing = read_listing(text.as_bytes());
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
/// this part, with as many solution lines as it counts (for `list`).
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
    let mut result = None;
    for_each_line(&path, |line| {
        match line {
            PartLine::Solution(_) => solutions += 1,
            PartLine::Json(r) if result.is_none() => result = Some(r),
            PartLine::Json(_) => bail!("more than one result line"),
            PartLine::Header(header) => check_header(&header, manifest, part)?,
        }
        Ok(())
    })?;
    let Some(result) = result else {
        bail!("no result line (the run did not finish)");
    };
    if result.puzzle != manifest.puzzle {
        bail!(
            "result of another puzzle ({}, expected {})",
            result.puzzle,
            manifest.puzzle
        );
    }
    if result.givens != part.givens {
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
    if command == "list" && BigUint::from(solutions) != result.count {
        bail!("{solutions} solution lines but a count of {}", result.count);
    }
    Ok(Checked {
        count: result.count,
        seconds: result.seconds,
    })
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
    if let Some(givens) = header.givens.as_ref().filter(|g| **g != part.givens) {
        bail!("listing of another part (givens {givens})");
    }
    Ok(())
}
