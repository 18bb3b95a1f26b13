//! A bug in one worker never loses a run silently: with a panic injected (debug builds read
//! `NONOENUM_INJECT_FAULT`), every command ends at once with one line naming the puzzle and
//! exit code 70, keeps what it had printed, and leaves its checkpoint usable.

use std::process::Output;
use std::time::{Duration, Instant};

use tempfile::TempDir;

use crate::common;
use common::{Run, check_listing, nonoenum, perm};

/// The exit code of an internal error.
const EXIT_INTERNAL: i32 = 70;

/// Runs `args` with a fault injected at `site`, checks the internal error (exit code 70, one
/// line on standard error, no backtrace, within a few seconds) and returns the output.
fn run_with_fault(site: &str, args: &[&str]) -> Output {
    let start = Instant::now();
    let output = nonoenum(args)
        .env("NONOENUM_INJECT_FAULT", site)
        .env_remove("RUST_BACKTRACE")
        .within(Duration::from_secs(60));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        output.status.code(),
        Some(EXIT_INTERNAL),
        "{args:?}: {stderr}"
    );
    let line = stderr.trim_end();
    assert_eq!(line.lines().count(), 1, "{args:?}: one line: {stderr}");
    assert!(
        line.starts_with("error: internal error while solving ")
            && line.contains(&format!(
                "fault injected at {}",
                site.split(':').next().unwrap_or(site)
            ))
            && line.ends_with("; please report it"),
        "{args:?}: {line}"
    );
    assert!(
        start.elapsed() < Duration::from_secs(30),
        "{args:?}: too slow"
    );
    output
}

#[test]
#[cfg_attr(
    not(debug_assertions),
    ignore = "faults are injected in debug builds only"
)]
fn a_fault_in_the_probing_search_keeps_the_solutions_listed() {
    let dir = TempDir::new().expect("a temporary folder");
    let puzzle = perm(dir.path(), 8);
    let p = puzzle.to_str().expect("a path");
    for threads in ["1", "2"] {
        let output = run_with_fault("search:2000", &["list", "-t", threads, p]);
        let listed = check_listing(&puzzle, &String::from_utf8_lossy(&output.stdout));
        assert!(
            listed > 0 && listed < 40_320,
            "{threads} threads: {listed} listed"
        );
    }
}

#[test]
#[cfg_attr(
    not(debug_assertions),
    ignore = "faults are injected in debug builds only"
)]
fn a_fault_keeps_the_solutions_written_to_an_output_file() {
    let dir = TempDir::new().expect("a temporary folder");
    let puzzle = perm(dir.path(), 8);
    let out = dir.path().join("out.txt");
    let (p, o) = (
        puzzle.to_str().expect("a path"),
        out.to_str().expect("a path"),
    );
    let _ = run_with_fault("search:2000", &["list", "-t", "2", "-o", o, p]);
    let listing = std::fs::read_to_string(&out).expect("the output file");
    let listed = check_listing(&puzzle, &listing);
    assert!(listed > 0 && listed < 40_320, "{listed} listed");
    let names: Vec<_> = std::fs::read_dir(dir.path()).expect("the folder").collect();
    assert_eq!(names.len(), 2, "no temporary file left: {names:?}");
}

#[test]
#[cfg_attr(
    not(debug_assertions),
    ignore = "faults are injected in debug builds only"
)]
fn a_fault_in_a_learner_or_a_counter_ends_the_run() {
    let dir = TempDir::new().expect("a temporary folder");
    let puzzle = perm(dir.path(), 6);
    let p = puzzle.to_str().expect("a path");
    let _ = run_with_fault("learn", &["solve", "--strategy", "learn", p]);
    let _ = run_with_fault("learn", &["list", "--limit", "3", "--strategy", "both", p]);
    let _ = run_with_fault("count", &["count", p]);
    let _ = run_with_fault("search:50", &["count", "--method", "enumerate", p]);
    let _ = run_with_fault(
        "search:50",
        &["count", "--per-cell", "--method", "enumerate", p],
    );
}

#[test]
#[cfg_attr(
    not(debug_assertions),
    ignore = "faults are injected in debug builds only"
)]
fn a_checkpoint_left_by_a_fault_resumes_to_the_exact_count() {
    let dir = TempDir::new().expect("a temporary folder");
    let puzzle = perm(dir.path(), 8);
    let ck = dir.path().join("ck.json");
    let (p, ck) = (
        puzzle.to_str().expect("a path"),
        ck.to_str().expect("a path"),
    );
    let args = [
        "count",
        "--method",
        "enumerate",
        "--checkpoint",
        ck,
        "--checkpoint-every",
        "0.01",
        p,
    ];
    let _ = run_with_fault("search:20000", &args);
    let resumed = nonoenum(["resume", "-q", ck]).output().expect("runs");
    assert_eq!(String::from_utf8_lossy(&resumed.stdout), "40320\n");
}
