//! Ending a run early: `--time-limit`, `--limit` and SIGTERM. Each ends promptly, keeps
//! what was found (whole solutions only), marks the result as incomplete and says why.

use std::time::{Duration, Instant};

use tempfile::TempDir;

use crate::common;

use common::{nonoenum, perm, run, signalled};

/// Checks that a listing of `n` x `n` permutation grids holds only whole, valid solutions,
/// each once; returns how many.
fn check_perm_listing(listing: &str, n: usize) -> usize {
    let grids: Vec<&str> = listing
        .split("\n\n")
        .filter(|g| !g.trim().is_empty())
        .collect();
    let mut seen = std::collections::HashSet::new();
    for grid in &grids {
        let rows: Vec<&str> = grid.lines().collect();
        assert_eq!(rows.len(), n, "a partial solution was printed: {grid:?}");
        for row in &rows {
            assert_eq!(row.len(), n);
            assert_eq!(row.matches('#').count(), 1, "row {row}");
        }
        for col in 0..n {
            let filled = rows.iter().filter(|r| r.as_bytes()[col] == b'#').count();
            assert_eq!(filled, 1, "column {col} of {grid}");
        }
        assert!(seen.insert(*grid), "solution listed twice");
    }
    grids.len()
}

#[test]
fn time_limit_ends_count_promptly_with_a_marked_partial_count() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = perm(tmp.path(), 14);
    let start = Instant::now();
    // Enumerating: counting by profiles would finish 14! at once.
    let (code, out, err) = run(
        &["count", "--method", "enumerate", "--time-limit", "0.5"],
        &puzzle,
    );
    assert!(start.elapsed() < Duration::from_secs(20), "not prompt");
    assert_eq!(code, 3, "{out}{err}");
    let line = out.trim_end();
    assert!(
        line.starts_with("incomplete: at least ") && line.ends_with(" (time limit reached)"),
        "{line}"
    );
    assert!(
        err.contains("time limit reached; the results above are incomplete"),
        "{err}"
    );

    let (code, out, _) = run(
        &[
            "count",
            "--method",
            "enumerate",
            "--to=jsonl",
            "-q",
            "--time-limit",
            "0.3",
        ],
        &puzzle,
    );
    assert_eq!(code, 3);
    assert!(out.contains(r#""complete":false"#), "{out}");
    assert!(out.contains(r#""stopped":"time limit reached""#), "{out}");
}

#[test]
fn time_limit_keeps_every_solution_listed_whole() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = perm(tmp.path(), 14);
    let (code, out, _) = run(&["list", "-q", "--time-limit", "0.5"], &puzzle);
    assert_eq!(code, 3);
    assert!(check_perm_listing(&out, 14) > 0);
}

#[test]
fn a_run_that_ends_in_time_is_not_marked() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = perm(tmp.path(), 5);
    let (code, out, err) = run(&["count", "--time-limit", "60"], &puzzle);
    assert_eq!((code, out.as_str(), err.as_str()), (0, "120\n", ""));
}

#[test]
fn max_solutions_stops_count_and_list() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = perm(tmp.path(), 14);
    let (code, out, _) = run(&["count", "--limit", "1000"], &puzzle);
    assert_eq!(code, 0);
    assert_eq!(out, "incomplete: at least 1000 (solution limit reached)\n");
    let (code, out, _) = run(&["list", "--limit", "3"], &puzzle);
    assert_eq!(code, 0);
    assert_eq!(check_perm_listing(&out, 14), 3);
    // The old spelling, --max-solutions, is --limit.
    let (_, out, _) = run(&["list", "--max-solutions", "2"], &puzzle);
    assert_eq!(check_perm_listing(&out, 14), 2);
    // A limit the puzzle does not reach leaves an exact count.
    let small = perm(tmp.path(), 4);
    let (code, out, _) = run(&["count", "--limit", "100"], &small);
    assert_eq!((code, out.as_str()), (0, "24\n"));
    // A limit of exactly the count is a complete count; one below it is not.
    for per_cell in [false, true] {
        let args = |limit: &'static str| {
            let mut args = vec!["count", "--limit", limit];
            args.extend(per_cell.then_some("--per-cell"));
            args
        };
        let (code, out, _) = run(&args("24"), &small);
        assert_eq!(code, 0);
        assert_eq!(out.lines().last(), Some("24"), "{out}");
        let (_, out, _) = run(&args("23"), &small);
        let incomplete = "incomplete: at least 23 (solution limit reached)";
        assert_eq!(out.lines().last(), Some(incomplete), "{out}");
    }
}

#[test]
fn bad_time_limits_are_usage_errors() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = perm(tmp.path(), 3);
    for bad in ["0", "-1", "abc", "inf", "NaN"] {
        let (code, out, err) = run(&["count", &format!("--time-limit={bad}")], &puzzle);
        assert_eq!(code, 2, "--time-limit {bad}: {out}{err}");
        assert!(
            err.contains("error:") && err.contains("time-limit"),
            "{err}"
        );
    }
}

#[test]
fn sigterm_flushes_whole_solutions_and_exits_130() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = perm(tmp.path(), 14);
    let after = Duration::from_millis(700);
    let list = ["list", "-t", "2"];
    let (output, killed, took) = signalled(nonoenum(list).arg(&puzzle), "-TERM", after);
    assert!(killed);
    assert!(took < Duration::from_secs(20), "not prompt");
    assert_eq!(output.status.code(), Some(130));
    let listing = String::from_utf8(output.stdout).expect("UTF-8");
    assert!(check_perm_listing(&listing, 14) > 0);
    let err = String::from_utf8(output.stderr).expect("UTF-8");
    // `list` says once, with its total, that the listing is incomplete and why.
    assert!(
        err.contains(" solutions (incomplete: interrupted)"),
        "{err}"
    );
    assert_eq!(err.matches("incomplete").count(), 1, "{err}");
}

#[test]
fn restarts_list_every_solution_once_and_solve_the_same() {
    let dir = TempDir::new().expect("temp dir");
    let puzzle = perm(dir.path(), 5);
    for threads in ["1", "2"] {
        let (code, stdout, stderr) = run(
            &["list", "-q", "--strategy=restarts", "-t", threads],
            &puzzle,
        );
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(check_perm_listing(&stdout, 5), 120, "{threads} threads");
        let (code, stdout, _) = run(
            &["solve", "-q", "--strategy=restarts", "-t", threads],
            &puzzle,
        );
        assert_eq!(code, 0);
        assert_eq!(stdout.lines().last(), Some("multiple"));
    }
}

/// Checks a run of `command` on an `n` x `n` permutation puzzle: ended by a stop (`why`:
/// "time limit reached" or "interrupted", exit code `stopped`), it printed a partial result
/// marked as such; ended on its own (`list --limit 1` and `solve` may, a permutation being
/// easy to find), it printed whole answers with exit code 0.
fn check_stopped_run(
    command: &str,
    n: usize,
    (code, out, err): (i32, &str, &str),
    (stopped, why): (i32, &str),
) {
    let context = format!("{command} on perm{n}: exit {code}\n{out}\n{err}");
    let mut lines: Vec<&str> = out.lines().collect();
    let last = lines.pop().unwrap_or_default();
    if command == "count" {
        assert_eq!(code, stopped, "{context}");
        assert!(
            last.starts_with("incomplete: at least ") && last.ends_with(&format!(" ({why})")),
            "{context}"
        );
        assert!(lines.is_empty(), "{context}");
    } else if command == "list" {
        lines.push(last);
    }
    let found = check_perm_listing(&lines.join("\n"), n);
    if code == 0 {
        assert_ne!(command, "count", "{context}");
        assert_eq!(found, 1, "{context}");
        if command == "solve" {
            assert_eq!(last, "multiple", "{context}");
        }
        return;
    }
    assert_eq!(code, stopped, "{context}");
    assert!(found <= 1, "{context}");
    let said = if command == "list" {
        format!("(incomplete: {why})")
    } else {
        format!("{why}; the results above are incomplete")
    };
    assert!(err.contains(&said), "{context}");
    assert_eq!(err.matches("incomplete").count(), 1, "{context}");
    if command == "solve" {
        assert!(
            last == format!("incomplete: search {why}") || last == "multiple",
            "{context}"
        );
    }
}

/// The commands checked on huge puzzles, as arguments.
const STOPPED_COMMANDS: [&[&str]; 3] = [&["count"], &["list", "--limit", "1"], &["solve"]];

/// `--time-limit 1` stops every command on an `n` x `n` permutation puzzle well within
/// `margin` (debug builds on a loaded machine: the real latencies, under a second in release
/// builds, are measured by `scripts/latency`).
fn time_limit_stops_huge_permutations(n: usize, margin: Duration) {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = perm(tmp.path(), n);
    for args in STOPPED_COMMANDS {
        let start = Instant::now();
        let all = [args, &["--time-limit", "1"]].concat();
        let (code, out, err) = run(&all, &puzzle);
        let took = start.elapsed();
        assert!(took < margin, "{args:?} on perm{n} took {took:?}");
        check_stopped_run(args[0], n, (code, &out, &err), (3, "time limit reached"));
    }
}

#[test]
fn time_limit_stops_every_command_on_perm200_promptly() {
    time_limit_stops_huge_permutations(200, Duration::from_secs(20));
}

#[test]
fn time_limit_stops_every_command_on_perm400_promptly() {
    time_limit_stops_huge_permutations(400, Duration::from_secs(30));
}

#[test]
fn sigterm_stops_every_command_on_perm400_promptly() {
    let tmp = TempDir::new().expect("temp dir");
    let n = 400;
    let puzzle = perm(tmp.path(), n);
    for args in STOPPED_COMMANDS {
        let after = Duration::from_millis(1500);
        let (output, killed, took) = signalled(nonoenum(args).arg(&puzzle), "-TERM", after);
        assert!(took < Duration::from_secs(30), "{args:?} took {took:?}");
        let code = output.status.code().unwrap_or(-1);
        // `kill` fails only when the process had ended by itself.
        assert!(killed || code == 0, "{args:?}: exit {code}");
        let out = String::from_utf8(output.stdout).expect("UTF-8");
        let err = String::from_utf8(output.stderr).expect("UTF-8");
        check_stopped_run(args[0], n, (code, &out, &err), (130, "interrupted"));
    }
}
