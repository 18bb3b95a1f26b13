//! Bad input on the command line: exit code 2, nothing on standard output, and one line on
//! standard error naming the file (and line) and the problem; never a panic.

use crate::common;

use common::{OutputAssertExt, Run, assert_bad_input, bundled, nonoenum, temp_file};

#[test]
fn bad_puzzle_files_name_the_file_and_line() {
    // (file name, contents, the line the message names (0: the whole file), a word of it)
    let cases: &[(&str, &[u8], usize, &str)] = &[
        ("unknown.txt", b"hello there\n", 0, "format"),
        (
            "not-a-number.txt",
            b"2 2\n1\nx\n1\n1\n",
            3,
            "`x` is not a number",
        ),
        ("too-long.txt", b"2 2\n1 1\n1\n1\n1\n", 2, "clue"),
        ("totals.txt", b"2 2\n1\n1\n1\n2\n", 5, "cells"),
        ("missing.txt", b"2 2\n1\n1\n1\n", 5, "column clue 2 of 2"),
        (
            "extra.txt",
            b"1 1\n1\n1\n1\n",
            4,
            "after the last column clue",
        ),
        ("empty.txt", b"", 0, "no puzzle"),
        ("blank.txt", b"\n  \r\n\t\n", 0, "no puzzle"),
        ("huge.txt", b"1000000000 1000000000\n", 1, "too large"),
        ("overflow.txt", b"99999999999999999999999 1\n", 1, "999"),
        ("invalid-utf8.txt", b"1 1\n1\n\x80\n", 3, "UTF-8"),
        ("zero-block.txt", b"1 1\n0 1\n1\n", 2, "block of length 0"),
        ("key.non", b"width 2\nheight x\n", 2, "`x`"),
        (
            "huge.non",
            b"width 1000000000\nheight 1000000000\nrows\n",
            2,
            "too large",
        ),
        ("tournament.txt", b"$1\n1\n1\nq\n1\n", 4, "`q`"),
        ("odd.txt", b"$1\n1\n1\n1\n", 1, "even"),
        (
            "totals-t.txt",
            b"$1\n1\n1\n1\n0\n",
            5,
            "row clues fill 1 cell but column clues fill 2",
        ),
        ("comments.txt", b"# nothing here\n\n", 0, "no puzzle"),
    ];
    for &(name, contents, line, word) in cases {
        let (_dir, path) = temp_file(name, contents);
        let path = path.display().to_string();
        let located = if line > 0 {
            format!("{name}:{line}: ")
        } else {
            format!("{name}:")
        };
        for command in ["solve", "count", "list"] {
            assert_bad_input(&[command, &path], &[&located, word]);
        }
    }
}

#[test]
fn bad_files_and_options_are_reported() {
    let heart = bundled("heart.txt");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let missing = dir.path().join("no-such-file.txt").display().to_string();
    assert_bad_input(&["count", &missing], &["no-such-file.txt"]);
    assert_bad_input(&["count", "--format", "svg", &heart], &["svg"]);
    assert_bad_input(&["count", "--threads", "0", &heart], &["--threads"]);
    let checkpoint = dir.path().join("run.ckpt").display().to_string();
    let image = dir.path().join("picture.pbm").display().to_string();
    let too_many = "--threads must be at most 1024";
    for command in ["solve", "count", "list"] {
        assert_bad_input(&[command, "-t", "5000", &heart], &[too_many]);
    }
    assert_bad_input(&["count", "--threads", "99999999999", &heart], &[too_many]);
    assert_bad_input(&["resume", "-t", "1025", &checkpoint], &[too_many]);
    assert_bad_input(&["make", "-t", "1025", &image], &[too_many]);
    assert_bad_input(&["count", "--puzzle", "0", &heart], &["--puzzle"]);
    let mini = bundled("mini-set.txt");
    assert_bad_input(&["count", "--puzzle", "3", &mini], &["mini-set.txt", "3"]);
    assert_bad_input(
        &["count", "--givens", &missing, &heart],
        &["no-such-file.txt"],
    );
    // Unparsable values are clap's: also exit code 2.
    let _ = nonoenum(["count", "--threads", "many", &heart])
        .assert()
        .code(2)
        .stdout("");
    let _ = nonoenum(["count"]).assert().code(2).stdout("");
}

#[test]
fn bad_givens_name_the_givens_file() {
    let puzzle = bundled("ambiguous.txt");
    let cases: &[(&str, &[u8], &str)] = &[
        (
            "words.txt",
            b"# comment\n1 1\nfoo bar baz qux\n",
            "words.txt:3: ",
        ),
        ("value.txt", b"1 1 maybe\n", "value.txt:1: "),
        ("zero.txt", b"1 1\n\n0 1\n", "zero.txt:3: "),
        ("utf.txt", b"1 1\n\xff\n", "utf.txt:2: "),
        // Errors found once the puzzle is known have a line too.
        ("outside.txt", b"9 1\n", "outside.txt:1: "),
        ("disagree.txt", b"1 1 #\n1 1 .\n", "disagree.txt:2: "),
    ];
    for &(name, contents, located) in cases {
        let (_dir, path) = temp_file(name, contents);
        let path = path.display().to_string();
        assert_bad_input(&["count", "--givens", &path, &puzzle], &[located]);
    }
}

/// Runs a command (or takes its output) and checks the failure exactly: exit code 2, nothing
/// on standard output and `error: {message}` as the only line of standard error.
fn assert_error(run: impl OutputAssertExt, message: &str) {
    let _ = run
        .assert()
        .code(2)
        .stdout("")
        .stderr(format!("error: {message}\n"));
}

/// The message for a file with no puzzle in it.
const NO_PUZZLE: &str =
    "the file contains no puzzle (it is empty, or holds only blank lines and `#` comments)";

#[test]
fn files_of_only_comments_or_blanks_contain_no_puzzle() {
    let cases: &[(&str, &str)] = &[
        ("comments.txt", "# nothing here\n\n"),
        ("spaces.txt", "  \n\t\n\r\n"),
        ("indented.txt", "\u{feff}\n   # indented comment\n\n"),
        ("comments.non", "# c\n"),
        ("empty.non", ""),
    ];
    for &(name, contents) in cases {
        let (_dir, path) = temp_file(name, contents);
        let path = path.display().to_string();
        let expected = format!("{path}: {NO_PUZZLE}");
        for format in [
            &[][..],
            &["--format", "plain"],
            &["--format", "non"],
            &["--format", "tournament"],
        ] {
            for command in ["solve", "count", "list"] {
                let mut cmd = nonoenum([command, "-q", &path]);
                let _ = cmd.args(format);
                assert_error(&mut cmd, &expected);
            }
        }
    }
    let output = nonoenum(["count", "-q", "-"]).with_stdin("# nothing here\n\n");
    assert_error(output, &format!("<stdin>: {NO_PUZZLE}"));
}

#[test]
fn givens_errors_name_their_line() {
    let puzzle = bundled("ambiguous.txt");
    let cases: &[(&str, &str, &str)] = &[
        (
            "outside.txt",
            "# a comment\n1 1\n\n9 1\n",
            ":4: given at row 9, column 1 lies outside the 8 x 8 grid",
        ),
        (
            "column.txt",
            "1 9 empty\n",
            ":1: given at row 1, column 9 lies outside the 8 x 8 grid",
        ),
        (
            "far.txt",
            "18446744073709551615 1\n",
            ":1: given at row 18446744073709551615, column 1 lies outside the 8 x 8 grid",
        ),
        (
            "disagree.txt",
            "4 4\n# the same cell, emptied\n4 4 .\n",
            ":3: row 4, column 4 is given as empty here but as filled on line 1",
        ),
        (
            "repeated.txt",
            "2 2 .\n2 2 0\n2 2 empty\n2,2 #\n",
            ":4: row 2, column 2 is given as filled here but as empty on line 1",
        ),
    ];
    for &(name, contents, message) in cases {
        let (_dir, path) = temp_file(name, contents);
        let path = path.display().to_string();
        for command in ["solve", "count", "list"] {
            let mut cmd = nonoenum([command, "-q", "--givens", &path, &puzzle]);
            assert_error(&mut cmd, &format!("{path}{message}"));
        }
    }
    // The same given twice is no contradiction.
    let (_dir, path) = temp_file("twice.txt", "4 4 .\n4 4 0\n");
    let path = path.display().to_string();
    let _ = nonoenum(["count", "-q", "--givens", &path, &puzzle])
        .assert()
        .code(0)
        .stdout("8\n");
}

#[test]
fn counts_in_messages_agree_in_number() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "totals.txt",
            "1 2\n1\n1\n1\n",
            ":4: row clues fill 1 cell but column clues fill 2",
        ),
        (
            "totals2.txt",
            "2 1\n1\n1\n1\n",
            ":4: row clues fill 2 cells but column clues fill 1",
        ),
        (
            "odd.txt",
            "$1\n1\n",
            ":1: 1 clue line, expected an even number (columns, then as many rows)",
        ),
        (
            "rows.txt",
            "1 0\n",
            ":1: the grid has no cells (1 row x 0 columns)",
        ),
        (
            "goal.non",
            "width 2\nheight 1\nrows\n1\ncolumns\n1\n0\ngoal \"1\"\n",
            ":8: bad goal: 1 cell, expected 2 x 1",
        ),
    ];
    for &(name, contents, message) in cases {
        let (_dir, path) = temp_file(name, contents);
        let path = path.display().to_string();
        assert_error(
            &mut nonoenum(["count", "-q", &path]),
            &format!("{path}{message}"),
        );
    }
    let (_dir, path) = temp_file("one.txt", "1 1\n1\n1\n");
    let path = path.display().to_string();
    assert_error(
        &mut nonoenum(["count", "-q", "--puzzle", "2", &path]),
        &format!("{path}: --puzzle 2 asked, but the file holds 1 puzzle"),
    );
    let mini = bundled("mini-set.txt");
    assert_error(
        &mut nonoenum(["count", "-q", "--puzzle", "3", &mini]),
        &format!("{mini}: --puzzle 3 asked, but the file holds 2 puzzles"),
    );
}

#[test]
fn control_characters_in_file_names_stay_on_one_line() {
    let (dir, path) = temp_file("two\nlines.txt", "1 2\n1\n1\n1\n");
    let shown = dir.path().join("two\\nlines.txt").display().to_string();
    let path = path.display().to_string();
    assert_error(
        &mut nonoenum(["count", "-q", &path]),
        &format!("{shown}:4: row clues fill 1 cell but column clues fill 2"),
    );
    let missing = dir.path().join("no\tsuch.txt").display().to_string();
    let shown = dir.path().join("no\\tsuch.txt").display().to_string();
    let output = nonoenum(["count", "-q", &missing])
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    let expected = format!("error: cannot read {shown}: ");
    assert!(stderr.starts_with(&expected), "{stderr:?}");
    assert_eq!(stderr.lines().count(), 1, "{stderr:?}");
}
