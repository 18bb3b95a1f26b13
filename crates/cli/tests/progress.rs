//! Progress lines (`count --progress`): short, in the user's words, and a count so far that
//! never goes down, also while sweeps from different sides take turns.

use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_nonoenum");

/// The `n` x `n` puzzle whose clues are all `1`: `n!` solutions.
fn perm(dir: &std::path::Path, n: usize) -> std::path::PathBuf {
    let path = dir.join(format!("perm{n}.txt"));
    let text = format!("{n} {n}\n{}", "1\n".repeat(2 * n));
    std::fs::write(&path, text).expect("write the puzzle");
    path
}

/// The progress lines of a `count` stopped after `seconds`.
fn progress_lines(args: &[&str], puzzle: &std::path::Path, seconds: &str) -> Vec<String> {
    let output = Command::new(BIN)
        .args(args)
        .args(["--progress", "--time-limit", seconds])
        .arg(puzzle)
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(3), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr).to_string();
    stderr
        .lines()
        .filter(|line| line.starts_with("puzzle 1: "))
        .map(str::to_string)
        .collect()
}

/// The number after `at least ` in a line, read back from its words (`1,234` or `1.23e10`).
fn at_least(line: &str) -> f64 {
    let rest = line
        .split("at least ")
        .nth(1)
        .unwrap_or_else(|| panic!("no count in {line}"));
    let number = rest.split(' ').next().unwrap_or_default().replace(',', "");
    number
        .parse()
        .unwrap_or_else(|_| panic!("no number in {line}"))
}

#[test]
fn the_count_so_far_never_goes_down_and_lines_stay_short() {
    let tmp = tempfile::tempdir().expect("temp dir");
    // 30! is out of reach: sweeps from each side take turns, each counting from 0 again.
    let puzzle = perm(tmp.path(), 30);
    let lines = progress_lines(&["count", "--max-profiles", "0"], &puzzle, "3.5");
    assert!(lines.len() >= 2, "{lines:?}");
    let mut before = 0.0;
    for line in &lines {
        assert!(line.len() < 120, "too long: {line}");
        assert!(
            !line.contains("memo") && !line.contains("backbone"),
            "{line}"
        );
        if line.contains("at least") {
            let now = at_least(line);
            assert!(now >= before, "the count went down: {lines:?}");
            before = now;
        }
    }
}

#[test]
fn an_enumeration_says_what_it_found_and_when_it_may_end() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let puzzle = perm(tmp.path(), 12);
    let lines = progress_lines(&["count", "--method", "enumerate"], &puzzle, "2.5");
    assert!(!lines.is_empty());
    for line in &lines {
        assert!(line.len() < 120, "too long: {line}");
        assert!(line.contains(" solutions so far"), "{line}");
        assert!(line.contains("ETA "), "{line}");
        assert!(!line.contains('%'), "no explored fraction: {line}");
    }
}
