//! Command-line tests: what `nonoenum solve`, `count` and `list` print, their exit codes, every
//! input format and option (bad input and its messages: `error_messages.rs`).

use crate::common;

use std::collections::{BTreeSet, HashSet};
use std::io::Read;

use nonoenum::Puzzle;
use nonoenum::format::read_puzzles;
use predicates::prelude::*;
use predicates::str::contains;

use common::{OutputAssertExt, Run, assert_bad_input, bundled, nonoenum, stdout_of, temp_file};

/// The solution of `puzzles/heart.txt`.
const HEART: &str = "\
.##....##.
####..####
##########
##.#######
##########
.########.
..######..
...####...
....##....
..........
";

/// A puzzle whose totals agree but which has no solution: the full top row needs the right
/// column, whose clue is empty.
const NO_SOLUTION: &str = "2 2\n2\n0\n2\n0\n";

/// An N x N puzzle with every clue `1`: its solutions are the N! permutation matrices.
fn permutation_puzzle(n: usize) -> String {
    format!("{n} {n}\n{}", "1\n".repeat(2 * n))
}

/// Splits `list` output into its grids (separated by one blank line) and checks each against
/// the puzzle: a complete grid that fits every clue, none twice.
fn check_listed(stdout: &str, puzzle: &Puzzle) -> usize {
    if stdout.is_empty() {
        return 0;
    }
    assert!(
        stdout.ends_with('\n') && !stdout.ends_with("\n\n"),
        "{stdout:?}"
    );
    assert!(!stdout.contains("\n\n\n"), "one blank line between grids");
    let mut seen = HashSet::new();
    for grid in stdout.trim_end().split("\n\n") {
        let rows: Vec<&str> = grid.lines().collect();
        assert_eq!(rows.len(), puzzle.height(), "{grid}");
        let mut cells = Vec::new();
        for row in rows {
            assert_eq!(row.len(), puzzle.width(), "{grid}");
            for ch in row.chars() {
                match ch {
                    '#' => cells.push(true),
                    '.' => cells.push(false),
                    _ => panic!("unexpected {ch:?} in\n{grid}"),
                }
            }
        }
        puzzle
            .check_grid(&cells)
            .unwrap_or_else(|e| panic!("{e} in\n{grid}"));
        assert!(seen.insert(cells), "listed twice:\n{grid}");
    }
    seen.len()
}

/// The only puzzle of a text.
fn parse_one(text: &str) -> Puzzle {
    let mut puzzles = read_puzzles(text.as_bytes(), None, None).expect("a valid puzzle");
    assert_eq!(puzzles.len(), 1);
    puzzles.remove(0)
}

#[test]
fn solve_unique_prints_the_grid_then_unique() {
    let _ = nonoenum(["solve", "-q", &bundled("heart.txt")])
        .assert()
        .code(0)
        .stdout(format!("{HEART}unique\n"));
}

#[test]
fn solve_multiple_prints_one_grid_then_multiple() {
    let path = bundled("ambiguous.txt");
    let stdout = stdout_of(&mut nonoenum(["solve", "-q", &path]));
    let (grid, last) = stdout
        .trim_end()
        .rsplit_once('\n')
        .expect("a grid and a verdict");
    assert_eq!(last, "multiple");
    let puzzle = parse_one(&std::fs::read_to_string(&path).expect("the puzzle"));
    assert_eq!(check_listed(&format!("{grid}\n"), &puzzle), 1);
}

#[test]
fn solve_without_solution_exits_1() {
    let (_dir, path) = temp_file("none.txt", NO_SOLUTION);
    let _ = nonoenum(["solve".as_ref(), "-q".as_ref(), path.as_os_str()])
        .assert()
        .code(1)
        .stdout("no solution\n")
        .stderr("");
    // `count` (by either method) and `list` exit with the same code.
    for method in ["auto", "enumerate"] {
        let _ = nonoenum(["count", "-q", "--method", method])
            .arg(&path)
            .assert()
            .code(1)
            .stdout("0\n");
    }
    let _ = nonoenum(["list".as_ref(), path.as_os_str()])
        .assert()
        .code(1)
        .stdout("")
        .stderr("nonoenum: 0 solutions (complete)\n");
}

#[test]
fn list_says_how_many_it_printed_and_whether_that_is_all() {
    let (_dir, path) = temp_file("perm4.txt", permutation_puzzle(4));
    let listed = nonoenum(["list".as_ref(), path.as_os_str()])
        .output()
        .expect("runs");
    assert_eq!(listed.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&listed.stderr);
    assert_eq!(stderr, "nonoenum: 24 solutions (complete)\n");
    let _ = nonoenum([
        "list".as_ref(),
        "--limit".as_ref(),
        "3".as_ref(),
        path.as_os_str(),
    ])
    .assert()
    .code(0)
    .stderr("nonoenum: 3 solutions (incomplete: solution limit reached)\n");
    let _ = nonoenum(["list".as_ref(), "-q".as_ref(), path.as_os_str()])
        .assert()
        .code(0)
        .stderr("");
}

#[test]
fn count_with_a_checkpoint_never_switches_to_enumerating_silently() {
    let (dir, path) = temp_file("perm4.txt", permutation_puzzle(4));
    let ck = dir.path().join("ck.json");
    let refused = nonoenum(["count".as_ref(), "--checkpoint".as_ref(), ck.as_os_str()])
        .arg(&path)
        .output()
        .expect("runs");
    assert_eq!(refused.status.code(), Some(2));
    assert!(refused.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("--method enumerate"), "{stderr}");
    assert!(!ck.exists(), "a refused run writes no checkpoint");
    let _ = nonoenum(["count", "--method", "enumerate", "--checkpoint"])
        .arg(&ck)
        .arg(&path)
        .assert()
        .code(0)
        .stdout("24\n")
        .stderr("");
}

#[test]
fn count_prints_a_bare_integer_on_any_thread_count() {
    let (_dir, path) = temp_file("perm4.txt", permutation_puzzle(4));
    let path = path.display().to_string();
    for extra in [
        &["--threads", "1"][..],
        &["--threads", "3"],
        &["-t", "2", "--strategy=plain"],
        &[],
    ] {
        let mut cmd = nonoenum(["count", "-q", &path]);
        let _ = cmd.args(extra);
        let stdout = stdout_of(&mut cmd);
        assert_eq!(stdout.lines().last(), Some("24"), "{extra:?}: {stdout:?}");
    }
}

#[test]
fn list_prints_every_solution_once() {
    let text = permutation_puzzle(4);
    let (_dir, path) = temp_file("perm4.txt", &text);
    let path = path.display().to_string();
    let puzzle = parse_one(&text);
    for threads in ["1", "3"] {
        let stdout = stdout_of(&mut nonoenum(["list", "-q", "-t", threads, &path]));
        assert_eq!(check_listed(&stdout, &puzzle), 24, "threads {threads}");
    }
    let ambiguous = bundled("ambiguous.txt");
    let puzzle = parse_one(&std::fs::read_to_string(&ambiguous).expect("the puzzle"));
    let stdout = stdout_of(&mut nonoenum(["list", "-q", &ambiguous]));
    assert_eq!(check_listed(&stdout, &puzzle), 11);
}

#[test]
fn every_engine_gives_the_same_verdicts_and_lists() {
    let (_dir, none) = temp_file("none.txt", NO_SOLUTION);
    let none = none.display().to_string();
    let text = permutation_puzzle(4);
    let (_dir4, perm4) = temp_file("perm4.txt", &text);
    let perm4 = perm4.display().to_string();
    let perm = parse_one(&text);
    let ambiguous = bundled("ambiguous.txt");
    let ambiguous_puzzle = parse_one(&std::fs::read_to_string(&ambiguous).expect("the puzzle"));
    for engine in ["auto", "probe", "plain", "learn", "both", "restarts"] {
        for threads in ["1", "2"] {
            let run = |args: &[&str]| {
                let mut cmd = nonoenum(args);
                let _ = cmd.args(["-q", "--strategy", engine, "-t", threads]);
                cmd
            };
            let what = format!("--strategy {engine} -t {threads}");
            let _ = run(&["solve", &bundled("heart.txt")])
                .assert()
                .code(0)
                .stdout(format!("{HEART}unique\n"));
            let _ = run(&["solve", &none])
                .assert()
                .code(1)
                .stdout("no solution\n");
            let stdout = stdout_of(&mut run(&["solve", &ambiguous]));
            assert!(stdout.ends_with("\nmultiple\n"), "{what}: {stdout}");
            // Every solution once, with a limit above the count and without one.
            for limit in [&["--limit", "100"][..], &[]] {
                let mut cmd = run(&["list", &perm4]);
                let _ = cmd.args(limit);
                assert_eq!(check_listed(&stdout_of(&mut cmd), &perm), 24, "{what}");
                let mut cmd = run(&["list", &ambiguous]);
                let _ = cmd.args(limit);
                let listed = check_listed(&stdout_of(&mut cmd), &ambiguous_puzzle);
                assert_eq!(listed, 11, "{what} {limit:?}");
            }
            let mut cmd = run(&["list", "--limit", "3", &perm4]);
            assert_eq!(check_listed(&stdout_of(&mut cmd), &perm), 3, "{what}");
        }
    }
    let _ = nonoenum([
        "solve",
        "--strategy",
        "learn",
        "--stats",
        &bundled("heart.txt"),
    ])
    .assert()
    .code(0)
    .stderr(
        contains("conflicts learned from")
            .and(contains("backjumps"))
            .and(contains("deepest consistent trail")),
    );
    let _ = nonoenum([
        "list",
        "--strategy",
        "learn",
        "--ordered",
        &bundled("heart.txt"),
    ])
    .assert()
    .code(2)
    .stderr(contains("--ordered").and(contains("--strategy learn")));
    let _ = nonoenum(["solve", "--strategy", "fast", &bundled("heart.txt")])
        .assert()
        .code(2)
        .stderr(contains("fast").and(contains("learn")));
}

/// A colour puzzle with 4 solutions: a red diagonal in the top-left 2x2 square and a blue one
/// in the bottom-right square, each either way round.
const TWO_COLOUR_DIAGONALS: &str = "\
#d
   0:   #FFFFFF   white
   r:*  #FF0000   red
   u:@  #0000FF   blue
: rows
1r
1r
1u
1u
: columns
1r
1r
1u
1u
";

#[test]
fn every_engine_lists_the_same_colour_solutions() {
    let (_dir, path) = temp_file("diagonals.g", TWO_COLOUR_DIAGONALS);
    let path = path.display().to_string();
    let grids = |stdout: &str| -> BTreeSet<String> {
        let grids: Vec<String> = stdout.trim_end().split("\n\n").map(String::from).collect();
        let distinct: BTreeSet<String> = grids.iter().cloned().collect();
        assert_eq!(distinct.len(), grids.len(), "listed twice: {stdout}");
        distinct
    };
    let expected = grids(&stdout_of(&mut nonoenum([
        "list",
        "-q",
        "--strategy",
        "probe",
        "-t",
        "1",
        &path,
    ])));
    assert_eq!(expected.len(), 4);
    assert!(expected.contains("*...\n.*..\n..@.\n...@"), "{expected:?}");
    for engine in ["auto", "probe", "learn", "both"] {
        for threads in ["1", "2"] {
            let what = format!("--strategy {engine} -t {threads}");
            let common = ["-q", "--strategy", engine, "-t", threads, &path];
            let listed = grids(&stdout_of(&mut nonoenum(["list"].iter().chain(&common))));
            assert_eq!(listed, expected, "{what}");
            let stdout = stdout_of(&mut nonoenum(["solve"].iter().chain(&common)));
            assert!(stdout.ends_with("\nmultiple\n"), "{what}: {stdout}");
            let stdout = stdout_of(&mut nonoenum(
                ["list", "--limit", "3"].iter().chain(&common),
            ));
            assert_eq!(grids(&stdout).len(), 3, "{what}");
        }
    }
}

#[test]
fn list_limit_stops_early() {
    let text = permutation_puzzle(4);
    let (_dir, path) = temp_file("perm4.txt", &text);
    let path = path.display().to_string();
    let puzzle = parse_one(&text);
    for (limit, expected) in [("2", 2), ("1", 1), ("0", 0), ("24", 24), ("100", 24)] {
        let stdout = stdout_of(&mut nonoenum(["list", "-q", "--limit", limit, &path]));
        assert_eq!(check_listed(&stdout, &puzzle), expected, "--limit {limit}");
    }
}

#[test]
fn reads_the_non_format() {
    let _ = nonoenum(["solve", "-q", &bundled("dancer.non")])
        .assert()
        .code(0)
        .stdout(contains("\n.##.#\n").and(predicates::str::ends_with("unique\n")));
}

#[test]
fn tournament_files_report_every_puzzle() {
    let path = bundled("mini-set.txt");
    let _ = nonoenum(["count", "-q", &path])
        .assert()
        .code(0)
        .stdout("$1\n1\n$2\n2\n");
    let stdout = stdout_of(&mut nonoenum(["solve", "-q", &path]));
    let expected = "$1\n..#..\n.###.\n#####\n..#..\n..#..\nunique\n$2\n";
    assert!(stdout.starts_with(expected), "{stdout}");
    assert!(stdout.ends_with("multiple\n"), "{stdout}");
    let _ = nonoenum(["count", "-q", "--puzzle", "2", &path])
        .assert()
        .code(0)
        .stdout("2\n");
    let _ = nonoenum(["solve", "-q", "--puzzle", "1", &path])
        .assert()
        .code(0)
        .stdout("..#..\n.###.\n#####\n..#..\n..#..\nunique\n");
    let stdout = stdout_of(&mut nonoenum(["list", "-q", "--puzzle", "2", &path]));
    assert_eq!(stdout.matches("\n\n").count(), 1, "two solutions: {stdout}");
}

#[test]
fn format_option_overrides_detection() {
    let heart = std::fs::read_to_string(bundled("heart.txt")).expect("the puzzle");
    // A `.non` name makes detection say `.non`, so the plain text fails without the option.
    let (_dir, path) = temp_file("heart.non", &heart);
    let path = path.display().to_string();
    let _ = nonoenum(["count", "-q", &path]).assert().code(2);
    for name in ["plain", "txt", "PLAIN"] {
        let _ = nonoenum(["count", "-q", "--format", name, &path])
            .assert()
            .code(0)
            .stdout("1\n");
    }
    // A tournament puzzle (an `H`) without its `$` line, nor tabs: nothing to detect.
    let tournament = "3\n1\n3\n1 1\n3\n1 1\n";
    let (_dir2, path) = temp_file("bare.txt", tournament);
    let path = path.display().to_string();
    let _ = nonoenum(["count", "-q", &path]).assert().code(2);
    let _ = nonoenum(["solve", "-q", "--format", "taai", &path])
        .assert()
        .code(0)
        .stdout("#.#\n###\n#.#\nunique\n");
    // With the format named, errors in the header get their line too.
    let (_dir3, path) = temp_file("header.txt", "# c\n2 y\n1\n1\n1\n1\n");
    let path = path.display().to_string();
    assert_bad_input(&["count", &path], &["header.txt: ", "format"]);
    assert_bad_input(
        &["count", "--format", "plain", &path],
        &["header.txt:2: ", "`y`"],
    );
}

#[test]
fn dash_reads_standard_input() {
    let heart = std::fs::read_to_string(bundled("heart.txt")).expect("the puzzle");
    let _ = nonoenum(["solve", "-q", "-"])
        .with_stdin(heart)
        .assert()
        .code(0)
        .stdout(format!("{HEART}unique\n"));
    // `.non` on standard input: no extension, detected by its keywords.
    let dancer = std::fs::read_to_string(bundled("dancer.non")).expect("the puzzle");
    let _ = nonoenum(["count", "-q", "-"])
        .with_stdin(dancer)
        .assert()
        .code(0)
        .stdout("1\n");
    let mini = std::fs::read_to_string(bundled("mini-set.txt")).expect("the puzzles");
    let _ = nonoenum(["count", "-q", "-"])
        .with_stdin(mini)
        .assert()
        .code(0)
        .stdout("$1\n1\n$2\n2\n");
    let _ = nonoenum(["count", "-q", "-"])
        .with_stdin("2 2\n1\nx\n1\n1\n")
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains("<stdin>:3:"));
}

#[test]
fn givens_file_fixes_cells() {
    let puzzle = bundled("ambiguous.txt");
    let givens = bundled("ambiguous-givens.txt");
    let _ = nonoenum(["count", "-q", "--givens", &givens, &puzzle])
        .assert()
        .code(0)
        .stdout("1\n");
    let (_dir, one_empty) = temp_file("g.txt", "# row 4, column 4 is empty\n4 4 .\n");
    let one_empty = one_empty.display().to_string();
    let _ = nonoenum(["count", "-q", "--givens", &one_empty, &puzzle])
        .assert()
        .code(0)
        .stdout("8\n");
    // Givens on standard input, or the puzzle, but not both.
    let _ = nonoenum(["count", "-q", "--givens", "-", &puzzle])
        .with_stdin("4 4 .\n")
        .assert()
        .code(0)
        .stdout("8\n");
    let text = std::fs::read(&puzzle).expect("the puzzle");
    let _ = nonoenum(["count", "-q", "--givens", &one_empty, "-"])
        .with_stdin(text.clone())
        .assert()
        .code(0)
        .stdout("8\n");
    let _ = nonoenum(["count", "-q", "--givens", "-", "-"])
        .with_stdin(text)
        .assert()
        .code(2)
        .stdout("")
        .stderr(contains("standard input"));
    let _ = nonoenum(["solve", "-q", "--givens", &givens, &puzzle])
        .assert()
        .code(0)
        .stdout(predicates::str::starts_with(
            "#.#..#.#\n.#....#.\n#.#..#.#\n...##...\n",
        ));
}

#[test]
fn quiet_keeps_standard_error_empty() {
    let mini = bundled("mini-set.txt");
    for command in ["solve", "count", "list"] {
        let _ = nonoenum([command, "--quiet", "--stats", &mini])
            .assert()
            .code(0)
            .stderr("");
        let _ = nonoenum([command, "-q", &mini]).assert().code(0).stderr("");
    }
    // Errors are still reported.
    let _ = nonoenum(["count", "-q", "--format", "svg", &mini])
        .assert()
        .code(2)
        .stderr(contains("svg"));
}

#[test]
fn stats_go_to_standard_error() {
    let mini = bundled("mini-set.txt");
    let output = nonoenum(["count", "--stats", &mini])
        .output()
        .expect("the binary runs");
    assert!(output.status.success());
    assert_eq!(String::from_utf8_lossy(&output.stdout), "$1\n1\n$2\n2\n");
    let stderr = String::from_utf8_lossy(&output.stderr);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "one stats line per puzzle: {stderr}");
    assert!(lines[0].starts_with("stats $1: ") && lines[0].contains("1 solutions"));
    assert!(lines[1].starts_with("stats $2: ") && lines[1].contains("2 solutions"));
    let _ = nonoenum(["solve", "--stats", &bundled("heart.txt")])
        .assert()
        .code(0)
        .stderr(contains("stats ").and(contains("nodes")));
}

/// Standard error closed before the run writes to it (`2>&1 | head -1` after the first line):
/// the notes are lost, not the run, its output file or its exit code.
#[test]
fn a_closed_standard_error_loses_nothing_else() {
    let (dir, perm11) = temp_file("perm11.txt", permutation_puzzle(11));
    let listing = dir.path().join("listing.txt").display().to_string();
    let (perm11, dancer) = (perm11.display().to_string(), bundled("dancer.non"));
    let runs = [
        (vec!["list", "-o", &listing, &dancer], 0),
        (vec!["convert", "--to", "nin", &dancer], 0),
        (
            vec![
                "count",
                "--method=enumerate",
                "--progress",
                "--time-limit=1.5",
                &perm11,
            ],
            3,
        ),
    ];
    for (args, code) in runs {
        let mut child = nonoenum(&args).spawn_piped();
        drop(child.stderr.take());
        let output = child.wait_with_output().expect("the binary ends");
        assert_eq!(output.status.code(), Some(code), "{args:?}");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            code == 0 || stdout.contains("(time limit reached)"),
            "{stdout}"
        );
    }
    let written = std::fs::read_to_string(&listing).expect("the listing is in place");
    assert!(written.contains('#'), "{written}");
}

#[test]
fn closed_pipe_ends_quietly() {
    let (_dir, path) = temp_file("perm8.txt", permutation_puzzle(8));
    let mut child = nonoenum(["list", "--strategy=plain", "-t", "2"])
        .arg(&path)
        .spawn_piped();
    let mut stdout = child.stdout.take().expect("piped standard output");
    // 40,320 grids are megabytes, far more than a pipe holds: read the first one, then close.
    let mut first = [0u8; 72];
    stdout.read_exact(&mut first).expect("the first grid");
    assert!(first.iter().all(|b| b"#.\n".contains(b)), "{first:?}");
    drop(stdout);
    let output = child.wait_with_output().expect("the binary ends");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(stderr, "", "nothing on standard error");
}
