//! `split`, `make` and `convert` stopped by `--time-limit` or SIGTERM: they end promptly with
//! exit code 3 or 130 and say so. A stopped `split` leaves nothing behind (no part file, no
//! manifest, no folder it created); a stopped `make` keeps the puzzle it wrote and reports its
//! check as incomplete; a stopped `convert` writes nothing, or its whole output.

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

use nonoenum::format::Format;
use nonoenum::format::write::write_puzzle;
use nonoenum::{AnyPuzzle, Puzzle};
use tempfile::TempDir;

use crate::common;

use common::{nonoenum, signalled};

/// How long past its time limit a debug build on a loaded machine may take to end (the stop
/// itself takes milliseconds; starting the process and reading the puzzle take the rest).
const SLACK: Duration = Duration::from_millis(1500);

/// A 60x60 picture of 2x2 diagonals in 3x3 blocks: each block may hold either diagonal, so
/// its clues have some 2^400 solutions, far more than any `--limit` below.
fn write_blocks(dir: &Path) -> PathBuf {
    let n = 60;
    let mut text = format!("P1\n{n} {n}\n");
    for row in 0..n {
        let line: Vec<&str> = (0..n)
            .map(|col| {
                if row % 3 < 2 && row % 3 == col % 3 {
                    "1"
                } else {
                    "0"
                }
            })
            .collect();
        text.push_str(&line.join(" "));
        text.push('\n');
    }
    let path = dir.join("blocks.pbm");
    std::fs::write(&path, text).expect("write picture");
    path
}

/// Runs `args` with `path` last, then the output and how long it took.
fn timed(args: &[&str], path: &Path) -> (Output, Duration) {
    let start = Instant::now();
    let output = nonoenum(args).arg(path).output().expect("runs");
    (output, start.elapsed())
}

/// Starts `args` with `path` last, sends SIGTERM after `after`, and returns the output and
/// how long the process took to end after the signal.
fn terminated(args: &[&str], path: &Path, after: Duration) -> (Output, Duration) {
    let (output, killed, took) = signalled(nonoenum(args).arg(path), "-TERM", after);
    assert!(killed, "the process ended before the signal");
    (output, took)
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

#[test]
fn make_time_limit_keeps_the_puzzle_and_reports_an_incomplete_check() {
    let tmp = TempDir::new().expect("temp dir");
    let picture = write_blocks(tmp.path());
    let written = tmp.path().join("blocks.non");
    let out = written.to_str().expect("UTF-8");
    let args = [
        "make",
        "--to",
        "non",
        "--limit",
        "1000000000000",
        "--time-limit",
        "0.5",
        "-o",
        out,
    ];
    let (output, took) = timed(&args, &picture);
    assert!(took < Duration::from_millis(500) + SLACK, "took {took:?}");
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(3), "{err}");
    let report = err.lines().next().unwrap_or_default();
    assert!(
        report.contains("incomplete: ") && report.contains("time limit reached"),
        "{err}"
    );
    // The puzzle was written whole before the check began.
    let puzzle = std::fs::read_to_string(&written).expect("the puzzle stays");
    assert!(puzzle.starts_with("width 60\nheight 60\n"), "{puzzle}");
    assert!(puzzle.contains("\ngoal \""), "{puzzle}");
}

#[test]
fn sigterm_stops_make_with_130_and_an_incomplete_report() {
    let tmp = TempDir::new().expect("temp dir");
    let picture = write_blocks(tmp.path());
    let args = ["make", "--limit", "1000000000000"];
    let (output, took) = terminated(&args, &picture, Duration::from_millis(300));
    assert!(took < SLACK, "ended {took:?} after the signal");
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{err}");
    let report = err.lines().next().unwrap_or_default();
    assert!(
        report.contains("incomplete: ") && report.contains("interrupted"),
        "{err}"
    );
    // The puzzle went to standard output, whole.
    let puzzle = String::from_utf8_lossy(&output.stdout);
    assert!(puzzle.ends_with('\n') && puzzle.len() > 100, "{puzzle}");
}

/// A random `n` x `n` picture's clues in the plain format (cells black with chance one half).
fn write_random_clues(dir: &Path, n: usize) -> PathBuf {
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let mut black = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state & 1 == 1
    };
    let cells: Vec<bool> = (0..n * n).map(|_| black()).collect();
    let puzzle = AnyPuzzle::Bw(Puzzle::from_picture(n, n, &cells).expect("a picture"));
    let text = write_puzzle(&puzzle, Format::Plain).expect("writable");
    let path = dir.join("random.txt");
    std::fs::write(&path, text).expect("write puzzle");
    path
}

#[test]
fn sigterm_stops_convert_with_130_and_nothing_half_written() {
    let tmp = TempDir::new().expect("temp dir");
    // Seconds of conversion in a debug build: the signal comes before the output is written.
    let puzzle = write_random_clues(tmp.path(), 1500);
    let xml = tmp.path().join("random.xml");
    let args = ["convert", "--to", "xml", "-o", xml.to_str().expect("UTF-8")];
    let (output, took) = terminated(&args, &puzzle, Duration::from_millis(300));
    assert!(took < SLACK * 4, "ended {took:?} after the signal");
    let err = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(130), "{err}");
    let mut left: Vec<_> = std::fs::read_dir(tmp.path())
        .expect("read folder")
        .map(|e| e.expect("entry").file_name())
        .collect();
    left.sort();
    // A release build may have written its output whole before the signal.
    if left.len() == 2 {
        assert_eq!(left, ["random.txt", "random.xml"]);
        let text = std::fs::read_to_string(&xml).expect("read output");
        assert!(text.ends_with("</puzzleset>\n"), "{err}");
    } else {
        assert_eq!(left, ["random.txt"]);
        assert_eq!(err, "nonoenum: interrupted; nothing was written\n");
    }
}
