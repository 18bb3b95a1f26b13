//! Splitting a search into parts, running them (one by one, with GNU parallel, and as simulated
//! Slurm array tasks) and merging: the merged count equals the undivided count, every solution
//! comes out exactly once, and a missing, foreign or unfinished part makes the merge fail.
//! Colour puzzles split into `.g` part files and merge the same way.
//!
//! The GNU parallel tests skip, saying so, when `parallel` is not installed (`.ci/run` installs
//! it).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use tempfile::TempDir;

use crate::common;
use common::{BIN, nonoenum, perm, stdout_of};

const SCRIPTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts");

/// Runs a command that must fail; returns its stderr.
fn run_err(command: &mut Command) -> String {
    let output = command.output().expect("runs");
    assert!(!output.status.success(), "{command:?} should fail");
    String::from_utf8(output.stderr).expect("UTF-8")
}

fn split(puzzle: &Path, parts: usize, out: &Path) {
    let parts = parts.to_string();
    let (puzzle, out) = (puzzle.to_str().expect("path"), out.to_str().expect("path"));
    let output = nonoenum(["split", "--parts", &parts, "-o", out, puzzle])
        .output()
        .expect("runs");
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{said}");
    // The summary is a note, on standard error; standard output stays empty.
    assert!(said.starts_with("nonoenum: split "), "{said}");
    assert!(output.stdout.is_empty());
}

fn part_files(dir: &Path) -> Vec<PathBuf> {
    let mut parts: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("split folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt" || e == "g"))
        .collect();
    parts.sort();
    parts
}

/// Runs every part with `count --to jsonl` or `list --to jsonl` into `results/`.
fn run_parts(dir: &Path, mode: &str) {
    run_parts_with(dir, &[mode, "--to=jsonl"]);
}

/// Runs every part with `args` into `results/`.
fn run_parts_with(dir: &Path, args: &[&str]) {
    let results = dir.join("results");
    std::fs::create_dir_all(&results).expect("results folder");
    for part in part_files(dir) {
        let stem = part.file_stem().expect("stem").to_str().expect("name");
        let out = stdout_of(nonoenum(args).args(["-q", part.to_str().expect("path")]));
        std::fs::write(results.join(format!("{stem}.json")), out).expect("write result");
    }
}

fn merge(dir: &Path, list: bool) -> Command {
    let mut command = nonoenum(["merge", dir.to_str().expect("path")]);
    if list {
        command.arg("--list");
    }
    command
}

/// The solutions of a text listing (grids separated by blank lines), each as one string.
fn solutions(listing: &str) -> Vec<String> {
    listing
        .split("\n\n")
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// The solutions of the undivided puzzle, as a set, checking there are `expected`.
fn undivided(puzzle: &Path, expected: usize) -> HashSet<String> {
    let listing = stdout_of(&mut nonoenum([
        "list",
        "-q",
        puzzle.to_str().expect("path"),
    ]));
    let all: HashSet<String> = solutions(&listing).into_iter().collect();
    assert_eq!(all.len(), expected);
    all
}

/// Checks a merged listing: every solution of the puzzle, each exactly once.
fn assert_same_solutions(merged: &str, all: &HashSet<String>) {
    let merged = solutions(merged);
    let distinct: HashSet<String> = merged.iter().cloned().collect();
    assert_eq!(merged.len(), distinct.len(), "a solution is listed twice");
    assert_eq!(&distinct, all);
}

#[test]
fn split_run_merge_gives_the_undivided_count_and_solutions() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = perm(tmp.path(), 7);
    let dir = tmp.path().join("split");
    split(&puzzle, 16, &dir);
    assert!(part_files(&dir).len() >= 16);

    run_parts(&dir, "count");
    assert_eq!(stdout_of(&mut merge(&dir, false)), "5040\n");
    let json = stdout_of(&mut nonoenum([
        "merge",
        "--to=jsonl",
        dir.to_str().expect("path"),
    ]));
    assert!(json.contains(r#""count":"5040""#), "{json}");
    assert!(json.contains(r#""complete":true"#), "{json}");

    run_parts(&dir, "list");
    assert_same_solutions(
        &stdout_of(&mut merge(&dir, true)),
        &undivided(&puzzle, 5040),
    );
    // Complete `list` results also merge into a count.
    assert_eq!(stdout_of(&mut merge(&dir, false)), "5040\n");
}

#[test]
fn compact_part_listings_merge_like_json_ones() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = perm(tmp.path(), 6);
    let dir = tmp.path().join("split");
    split(&puzzle, 8, &dir);
    run_parts_with(&dir, &["list", "--to", "compact", "--json"]);
    let results = dir.join("results");
    let first = std::fs::read_to_string(results.join("part-001.json")).expect("result");
    assert!(first.starts_with(r#"{"type":"compact","#), "{first}");
    assert_same_solutions(&stdout_of(&mut merge(&dir, true)), &undivided(&puzzle, 720));
    assert_eq!(stdout_of(&mut merge(&dir, false)), "720\n");
    let json = stdout_of(merge(&dir, true).arg("--to=jsonl"));
    assert_eq!(json.matches(r#"{"type":"solution""#).count(), 720);

    // Compact and JSON parts mix; a damaged line is named by file and line.
    let part = part_files(&dir).remove(1);
    let out = stdout_of(&mut nonoenum([
        "list",
        "--to",
        "jsonl",
        "-q",
        part.to_str().expect("path"),
    ]));
    std::fs::write(results.join("part-002.json"), out).expect("write");
    assert_eq!(stdout_of(&mut merge(&dir, false)), "720\n");
    let mut lines: Vec<&str> = first.lines().collect();
    lines[1] = "not*base64";
    std::fs::write(results.join("part-001.json"), lines.join("\n")).expect("write");
    let err = run_err(&mut merge(&dir, true));
    assert!(
        err.contains("part-001.txt: ")
            && err.contains("part-001.json:2: a solution line of 10 characters"),
        "{err}"
    );
    // The listing of another puzzle is refused by its header.
    let other = perm(tmp.path(), 5);
    let other = stdout_of(&mut nonoenum([
        "list",
        "--json",
        "-q",
        "--output-format",
        "compact",
        // bulk's spelling, still read: `--to compact --json`.
        other.to_str().expect("path"),
    ]));
    std::fs::write(results.join("part-001.json"), other).expect("write");
    let err = run_err(&mut merge(&dir, false));
    assert!(
        err.contains("part-001.txt: a listing of 5x5 grids, but the puzzle is 6x6"),
        "{err}"
    );
}

#[test]
fn colour_split_run_merge_gives_the_undivided_count_and_solutions() {
    let tmp = TempDir::new().expect("temp dir");
    let (k, m) = (2, 4);
    let total = common::bands_total(k, m);
    assert_eq!(total, 576);
    let puzzle = common::write_bands(tmp.path(), k, m);
    let dir = tmp.path().join("split");
    split(&puzzle, 8, &dir);
    let parts = part_files(&dir);
    assert!(parts.len() >= 8);
    assert!(
        parts
            .iter()
            .all(|p| p.extension().is_some_and(|e| e == "g"))
    );
    // A part file is a colour puzzle with its decisions as givens, which `count` runs directly.
    let first = std::fs::read_to_string(&parts[0]).expect("part file");
    assert!(first.contains("\n: givens\n"), "{first}");

    run_parts(&dir, "count");
    assert_eq!(stdout_of(&mut merge(&dir, false)), format!("{total}\n"));
    // Colour parts are one subtree each, so the manifest also reads as the older
    // `nonoenum-split/1`, each part's subtree fields beside its file name: that merges too.
    let path = dir.join("manifest.json");
    let manifest = std::fs::read_to_string(&path).expect("manifest");
    assert_eq!(manifest.matches(r#""subtrees": ["#).count(), parts.len());
    let old: Vec<&str> = manifest
        .lines()
        .filter(|l| {
            let wrapper = ["{", "}", "]", "],"].contains(&l.trim()) && l.starts_with("      ");
            !(wrapper || l.starts_with(r#"      "estimate""#) || l.contains(r#""subtrees""#))
        })
        .collect();
    let old = old
        .join("\n")
        .replace("nonoenum-split/3", "nonoenum-split/1");
    assert!(
        !old.contains("subtrees") && old.contains(r#""givens""#),
        "{old}"
    );
    std::fs::write(&path, old).expect("write manifest");
    assert_eq!(stdout_of(&mut merge(&dir, false)), format!("{total}\n"));
    std::fs::write(&path, manifest).expect("write manifest");
    let undivided_json = stdout_of(&mut nonoenum([
        "count",
        "--to=jsonl",
        "-q",
        puzzle.to_str().expect("path"),
    ]));
    let merged_json = stdout_of(merge(&dir, false).arg("--to=jsonl"));
    let result = |json: &str| -> serde_json::Value {
        serde_json::from_str(json.lines().last().expect("a result line")).expect("JSON")
    };
    let (merged, whole) = (result(&merged_json), result(&undivided_json));
    assert_eq!(merged["count"], total.to_string());
    assert_eq!(merged["complete"], true);
    // The manifest's checksums are the puzzle's own.
    assert_eq!(merged["puzzle"], whole["puzzle"]);
    assert_eq!(merged["givens"], whole["givens"]);

    run_parts(&dir, "list");
    let all = undivided(&puzzle, total);
    for grid in &all {
        common::assert_band_solution(grid, k, m);
    }
    assert_same_solutions(&stdout_of(&mut merge(&dir, true)), &all);
    assert_eq!(stdout_of(&mut merge(&dir, false)), format!("{total}\n"));

    // A part's result run on another part is refused.
    let results = dir.join("results");
    std::fs::copy(results.join("part-001.json"), results.join("part-002.json")).expect("copy");
    let err = run_err(&mut merge(&dir, false));
    assert!(err.contains("part-002.g: result of another part"), "{err}");
}

#[test]
fn merge_names_missing_foreign_and_unfinished_parts() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = perm(tmp.path(), 5);
    let dir = tmp.path().join("split");
    split(&puzzle, 4, &dir);
    run_parts(&dir, "count");
    let results = dir.join("results");
    let parts = part_files(&dir);

    // A missing result.
    std::fs::remove_file(results.join("part-002.json")).expect("remove");
    let err = run_err(&mut merge(&dir, false));
    assert!(
        err.contains("1 of") && err.contains("part-002.txt: no result"),
        "{err}"
    );
    assert!(err.lines().count() == 1, "one line: {err}");

    // A result of another puzzle in its place.
    let other = perm(tmp.path(), 4);
    let out = stdout_of(&mut nonoenum([
        "count",
        "--to=jsonl",
        "-q",
        other.to_str().expect("path"),
    ]));
    std::fs::write(results.join("part-002.json"), out).expect("write");
    let err = run_err(&mut merge(&dir, false));
    assert!(
        err.contains("part-002.txt: result of another puzzle"),
        "{err}"
    );

    // The result of another part of the same puzzle.
    std::fs::copy(results.join("part-001.json"), results.join("part-002.json")).expect("copy");
    let err = run_err(&mut merge(&dir, false));
    assert!(
        err.contains("part-002.txt: result of another part"),
        "{err}"
    );

    // An unfinished run (stopped by a limit), and a truncated file.
    let part2 = parts[1].to_str().expect("path");
    let out = stdout_of(&mut nonoenum([
        "list",
        "--to=jsonl",
        "-q",
        "--limit",
        "1",
        part2,
    ]));
    std::fs::write(results.join("part-002.json"), out).expect("write");
    let err = run_err(&mut merge(&dir, true));
    assert!(err.contains("part-002.txt: incomplete result"), "{err}");
    std::fs::write(results.join("part-002.json"), "{\"type\":\"solu").expect("write");
    let err = run_err(&mut merge(&dir, false));
    assert!(err.contains("not a nonoenum JSON line"), "{err}");

    // Repaired, the merge is exact again.
    let out = stdout_of(&mut nonoenum(["count", "--to=jsonl", "-q", part2]));
    std::fs::write(results.join("part-002.json"), out).expect("write");
    assert_eq!(stdout_of(&mut merge(&dir, false)), "120\n");
}

#[test]
fn merge_refuses_endless_manifests_and_results() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = perm(tmp.path(), 4);
    let dir = tmp.path().join("split");
    split(&puzzle, 2, &dir);
    run_parts(&dir, "list");
    let results = dir.join("results");
    let result = results.join("part-001.json");

    // A listing result is read a line at a time: a line may not pass the limit.
    std::fs::remove_file(&result).expect("remove");
    std::os::unix::fs::symlink("/dev/zero", &result).expect("symlink");
    let err = run_err(&mut merge(&dir, true));
    assert!(
        err.contains("part-001.json:1: a line longer than 64 MiB"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");

    // A JSON document is read whole: it may not pass the limit.
    std::fs::remove_file(&result).expect("remove");
    let mut document = vec![b' '; (64 << 20) + 1];
    document[0] = b'[';
    std::fs::write(&result, document).expect("write");
    let err = run_err(&mut merge(&dir, false));
    assert!(err.contains("part-001.json: larger than 64 MiB"), "{err}");

    // So is the manifest.
    let manifest = dir.join("manifest.json");
    std::fs::remove_file(&manifest).expect("remove");
    std::os::unix::fs::symlink("/dev/zero", &manifest).expect("symlink");
    let err = run_err(&mut merge(&dir, false));
    assert!(err.contains("manifest.json: larger than 64 MiB"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn merge_refuses_a_manifest_without_parts_with_one_twice_or_outside_its_folder() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = perm(tmp.path(), 4);
    let dir = tmp.path().join("split");
    split(&puzzle, 2, &dir);
    run_parts(&dir, "count");
    let manifest_path = dir.join("manifest.json");
    let text = std::fs::read_to_string(&manifest_path).expect("read");
    let manifest: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let shown = manifest_path.display().to_string();
    let d = dir.to_str().expect("path");

    let mut empty = manifest.clone();
    empty["parts"] = serde_json::json!([]);
    std::fs::write(&manifest_path, empty.to_string()).expect("write");
    common::assert_bad_input(
        &["merge", d],
        &[&format!("{shown}: the manifest lists no parts")],
    );

    let mut twice = manifest.clone();
    let first = manifest["parts"][0].clone();
    twice["parts"] = serde_json::json!([first.clone(), first]);
    std::fs::write(&manifest_path, twice.to_string()).expect("write");
    common::assert_bad_input(
        &["merge", d],
        &[&format!("{shown}: the manifest lists part-001.txt twice")],
    );

    for outside in ["../part-001.txt", "/etc/passwd", "sub/part-001.txt", ".."] {
        let mut elsewhere = manifest.clone();
        elsewhere["parts"][0]["file"] = serde_json::json!(outside);
        std::fs::write(&manifest_path, elsewhere.to_string()).expect("write");
        common::assert_bad_input(
            &["merge", d],
            &[&format!(
                "{shown}: part `{outside}` is not a file name in the split folder"
            )],
        );
    }

    std::fs::write(&manifest_path, text).expect("write");
    assert_eq!(stdout_of(&mut merge(&dir, false)), "24\n");
}

#[test]
fn split_refuses_a_used_folder_and_zero_parts() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = perm(tmp.path(), 4);
    let dir = tmp.path().join("split");
    split(&puzzle, 2, &dir);
    let (p, d) = (puzzle.to_str().expect("path"), dir.to_str().expect("path"));
    let err = run_err(&mut nonoenum(["split", "-o", d, p]));
    assert!(err.contains("already holds a split"), "{err}");
    let err = run_err(&mut nonoenum(["split", "--parts", "0", "-o", "x", p]));
    assert!(err.contains("--parts must be at least 1"), "{err}");
    let err = run_err(&mut merge(tmp.path(), false));
    assert!(err.contains("manifest.json"), "{err}");
}

fn have_gnu_parallel() -> bool {
    let found = Command::new("parallel")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        eprintln!("skipping: GNU parallel is not installed (apt-get install parallel)");
    }
    found
}

fn gnu_parallel(dir: &Path, args: &[&str], nonoenum: &Path) -> std::process::Output {
    Command::new(format!("{SCRIPTS}/run-gnu-parallel.sh"))
        .args(args)
        .arg(dir)
        .env("NONOENUM", nonoenum)
        .output()
        .expect("runs the script")
}

#[test]
fn gnu_parallel_runs_the_parts_and_resumes_a_killed_one() {
    if !have_gnu_parallel() {
        return;
    }
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = perm(tmp.path(), 8);
    let all = undivided(&puzzle, 40320);

    let counted = tmp.path().join("count");
    split(&puzzle, 16, &counted);
    let output = gnu_parallel(&counted, &["--jobs", "2"], Path::new(BIN));
    assert!(output.status.success(), "{output:?}");
    assert_eq!(String::from_utf8_lossy(&output.stdout), "40320\n");

    // A wrapper that kill -9s its own job for part 5, once (while the marker exists).
    let marker = tmp.path().join("kill-part-5");
    std::fs::write(&marker, "").expect("marker");
    let wrapper = tmp.path().join("nonoenum-chaos");
    let script = format!(
        "#!/usr/bin/env bash\nfor a in \"$@\"; do case \"$a\" in *part-005.txt)\n  \
         if [ -e '{m}' ]; then rm '{m}'; kill -9 $$; fi;; esac; done\nexec '{BIN}' \"$@\"\n",
        m = marker.display()
    );
    std::fs::write(&wrapper, script).expect("wrapper");
    let chmod = Command::new("chmod").arg("+x").arg(&wrapper).status();
    assert!(chmod.is_ok_and(|s| s.success()));

    let listed = tmp.path().join("list");
    split(&puzzle, 16, &listed);
    let first = gnu_parallel(&listed, &["--mode", "list", "--jobs", "2"], &wrapper);
    assert!(!first.status.success(), "the killed job must fail the run");
    let err = String::from_utf8_lossy(&first.stderr);
    assert!(err.contains("part-005.txt: no result"), "{err}");
    assert!(first.stdout.is_empty(), "nothing merged from a partial run");

    let again = gnu_parallel(&listed, &["--mode", "list", "--resume-failed"], &wrapper);
    assert!(again.status.success(), "{again:?}");
    let joblog = std::fs::read_to_string(listed.join("joblog")).expect("joblog");
    let runs = joblog
        .lines()
        .skip(1)
        .filter(|l| l.contains("part-"))
        .count();
    assert_eq!(
        runs, 17,
        "16 jobs, then only the killed one again:\n{joblog}"
    );
    assert_same_solutions(&String::from_utf8_lossy(&again.stdout), &all);
}

#[test]
fn slurm_array_tasks_run_every_part_then_merge() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = perm(tmp.path(), 6);
    let dir = tmp.path().join("split");
    split(&puzzle, 8, &dir);
    let script = format!("{SCRIPTS}/slurm-array.sh");
    let parts = part_files(&dir).len();
    // What Slurm does: one `run` per array task, numbered from 1, then the merge job.
    for task in 1..=parts {
        stdout_of(
            Command::new(&script)
                .args(["run", dir.to_str().expect("path")])
                .env("SLURM_ARRAY_TASK_ID", task.to_string())
                .env("NONOENUM", BIN),
        );
    }
    stdout_of(
        Command::new(&script)
            .args(["merge", dir.to_str().expect("path")])
            .env("NONOENUM", BIN),
    );
    let merged = std::fs::read_to_string(dir.join("merged.txt")).expect("merged.txt");
    assert_eq!(merged, "720\n");
    // A task number beyond the parts is an error, not a silent success.
    let err = run_err(
        Command::new(&script)
            .args(["run", dir.to_str().expect("path")])
            .env("SLURM_ARRAY_TASK_ID", (parts + 1).to_string())
            .env("NONOENUM", BIN),
    );
    assert!(err.contains("no part number"), "{err}");
}

/// The parts of a balanced split hold runs of subtrees (a `givens` section, so a puzzle, each;
/// one part the root alone): for several numbers of parts, the counts add up to the whole.
#[test]
fn parts_of_several_subtrees_add_up_for_several_part_counts() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = perm(tmp.path(), 7);
    for parts in [1, 2, 5, 16, 64] {
        let dir = tmp.path().join(format!("split-{parts}"));
        split(&puzzle, parts, &dir);
        let files = part_files(&dir);
        assert_eq!(files.len(), parts, "{parts} parts");
        let manifest = std::fs::read_to_string(dir.join("manifest.json")).expect("manifest");
        assert!(manifest.contains("nonoenum-split/3"), "{manifest}");
        let sections: usize = files
            .iter()
            .map(|f| {
                let text = std::fs::read_to_string(f).expect("part");
                text.lines().filter(|l| *l == "givens").count()
            })
            .sum();
        // One part is the root alone, the puzzle as it is; more are packed from several
        // subtrees each.
        if parts == 1 {
            assert_eq!(sections, 0);
            assert_eq!(manifest.matches(r#""decisions": 0"#).count(), 1);
        } else {
            assert!(sections > parts, "{parts} parts, {sections} subtrees");
            assert_eq!(manifest.matches(r#""givens": "#).count(), sections + 1);
        }
        run_parts(&dir, "count");
        assert_eq!(
            stdout_of(&mut merge(&dir, false)),
            "5040\n",
            "{parts} parts"
        );
    }
}

/// A result that lacks the line of one of its part's subtrees is refused.
#[test]
fn merge_refuses_a_part_result_without_every_subtree() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = perm(tmp.path(), 6);
    let dir = tmp.path().join("split");
    split(&puzzle, 3, &dir);
    run_parts(&dir, "list");
    let result = dir.join("results").join("part-002.json");
    let text = std::fs::read_to_string(&result).expect("result");
    let last_result = text.rfind(r#"{"type":"result""#).expect("a result line");
    std::fs::write(&result, &text[..last_result]).expect("write");
    let err = run_err(&mut merge(&dir, true));
    assert!(
        err.contains("part-002.txt: ") && err.contains("result lines for"),
        "{err}"
    );
    assert_eq!(run_err(&mut merge(&dir, false)), err);
}
