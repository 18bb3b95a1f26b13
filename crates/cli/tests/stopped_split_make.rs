//! `split` stopped by `--time-limit` or SIGTERM: it ends promptly with exit code 3 or 130,
//! says so, and leaves nothing behind (no part file, no manifest, no folder it created).

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use tempfile::TempDir;

mod common;

use common::BIN;

/// How long past its time limit a debug build on a loaded machine may take to end (the stop
/// itself takes milliseconds; starting the process and reading the puzzle take the rest).
const SLACK: Duration = Duration::from_millis(1500);

/// Runs `args` with `path` last, then the output and how long it took.
fn timed(args: &[&str], path: &Path) -> (Output, Duration) {
    let start = Instant::now();
    let output = Command::new(BIN)
        .args(args)
        .arg(path)
        .output()
        .expect("runs");
    (output, start.elapsed())
}

/// Starts `args` with `path` last, sends SIGTERM after `after`, and returns the output and
/// how long the process took to end after the signal.
fn terminated(args: &[&str], path: &Path, after: Duration) -> (Output, Duration) {
    let child = Command::new(BIN)
        .args(args)
        .arg(path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    std::thread::sleep(after);
    let killed = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success(), "the process ended before the signal");
    let start = Instant::now();
    let output = child.wait_with_output().expect("ends");
    (output, start.elapsed())
}

/// Checks the one line a stopped split says, `why` it stopped, and its exit code.
fn check_stopped_split(output: &Output, why: &str, code: i32) {
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(code), "{err}");
    assert_eq!(
        err,
        format!("nonoenum: {why}; the split was stopped and nothing was written\n")
    );
    assert!(output.stdout.is_empty());
}

#[test]
fn split_time_limit_exits_3_promptly_and_leaves_no_folder() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = common::perm(tmp.path(), 100);
    // Folders the split creates, two levels of them: both go.
    let work = tmp.path().join("new").join("work");
    let out = work.to_str().expect("UTF-8");
    let (output, took) = timed(&["split", "--time-limit", "0.5", "-o", out], &puzzle);
    assert!(took < Duration::from_millis(500) + SLACK, "took {took:?}");
    check_stopped_split(&output, "time limit reached", 3);
    assert!(!tmp.path().join("new").exists(), "a folder was left behind");
}

#[test]
fn a_stopped_split_keeps_a_folder_that_existed_and_its_files() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = common::perm(tmp.path(), 100);
    let work = tmp.path().join("work");
    std::fs::create_dir(&work).expect("make folder");
    std::fs::write(work.join("notes.txt"), "mine\n").expect("write");
    let out = work.to_str().expect("UTF-8");
    let (output, _) = timed(&["split", "--time-limit", "0.5", "-o", out], &puzzle);
    check_stopped_split(&output, "time limit reached", 3);
    let left: Vec<_> = std::fs::read_dir(&work)
        .expect("the folder stays")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(left, ["notes.txt"]);
}

#[test]
fn sigterm_stops_split_with_130_and_no_folder() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = common::perm(tmp.path(), 100);
    let work = tmp.path().join("work");
    let out = work.to_str().expect("UTF-8");
    let args = ["split", "--parts", "64", "-o", out];
    let (output, took) = terminated(&args, &puzzle, Duration::from_millis(300));
    assert!(took < SLACK, "ended {took:?} after the signal");
    check_stopped_split(&output, "interrupted", 130);
    assert!(!work.exists(), "the folder was left behind");
}
