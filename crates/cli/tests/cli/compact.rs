//! `list --to compact`: the listing reads back (with the library's
//! `read_listing`) as the same grids as the text listing, in black and white and colour; it
//! is at least 5 times smaller; every solution is valid and listed once; counts agree on any
//! number of threads; `--limit` is exact although workers hand over solutions in batches;
//! `--ordered` gives the same bytes on every thread count; a stopped run keeps whole lines.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use nonoenum::{AnyPuzzle, ListingItem, read_listing};
use tempfile::TempDir;

use crate::common;

use common::{nonoenum, perm};

fn bundled(name: &str) -> PathBuf {
    Path::new(common::BUNDLED).join(name)
}

/// Runs the command; returns its exit code, standard output and standard error.
fn run(args: &[&str], puzzle: &Path) -> (i32, Vec<u8>, String) {
    let output = nonoenum(args).arg(puzzle).output().expect("runs");
    let err = String::from_utf8(output.stderr).expect("UTF-8");
    (output.status.code().unwrap_or(-1), output.stdout, err)
}

/// The output of a run that must succeed.
fn run_ok(args: &[&str], puzzle: &Path) -> Vec<u8> {
    let (code, out, err) = run(args, puzzle);
    assert_eq!(code, 0, "{args:?} {}: {err}", puzzle.display());
    out
}

/// The grids of a text listing (blank lines between them), each as its rows.
fn text_grids(listing: &[u8]) -> Vec<Vec<String>> {
    let text = String::from_utf8(listing.to_vec()).expect("UTF-8");
    text.split("\n\n")
        .filter(|g| !g.trim().is_empty())
        .map(|g| g.lines().map(str::to_string).collect())
        .collect()
}

/// The grids of a compact listing, each as its rows, read back by the library; checks that
/// it starts with one header and holds nothing but solutions (and `--json` lines).
fn compact_grids(listing: &[u8]) -> Vec<Vec<String>> {
    let mut grids = Vec::new();
    let mut headers = 0;
    for item in read_listing(listing) {
        match item.expect("a good line") {
            ListingItem::Header(_) => headers += 1,
            ListingItem::Solution(s) => {
                assert_eq!(headers, 1, "a solution before the header");
                grids.push(s.rows());
            }
            ListingItem::Json(line) => assert!(line.contains(r#""type":"result""#), "{line}"),
        }
    }
    assert_eq!(headers, 1);
    grids
}

/// Checks that every grid solves `puzzle` and that none is listed twice; returns the set.
fn checked(grids: &[Vec<String>], puzzle: &AnyPuzzle) -> HashSet<Vec<String>> {
    let mut seen = HashSet::new();
    for rows in grids {
        match puzzle {
            AnyPuzzle::Bw(p) => {
                let cells: Vec<bool> = rows
                    .iter()
                    .flat_map(|r| r.chars().map(|c| c == '#'))
                    .collect();
                p.check_grid(&cells)
                    .unwrap_or_else(|e| panic!("{e}: {rows:?}"));
            }
            AnyPuzzle::Color(p) => {
                let index = |ch| p.colors.iter().position(|c| c.ch == ch).expect("a colour");
                let cells: Vec<u8> = rows
                    .iter()
                    .flat_map(|r| r.chars().map(|c| index(c) as u8))
                    .collect();
                p.check_grid(&cells)
                    .unwrap_or_else(|e| panic!("{e}: {rows:?}"));
            }
        }
        assert!(seen.insert(rows.clone()), "listed twice: {rows:?}");
    }
    seen
}

#[test]
fn compact_listings_read_back_as_the_text_listings() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzles = [
        perm(tmp.path(), 6),
        bundled("heart.txt"),
        bundled("ambiguous.txt"),
        bundled("dancer.non"),
        bundled("flag.g"),
        common::write_bands(tmp.path(), 2, 3),
        common::write_bands(tmp.path(), 3, 3),
    ];
    for path in &puzzles {
        let puzzle = AnyPuzzle::read(path).expect("a puzzle");
        let text = checked(
            &text_grids(&run_ok(&["list", "-q", "-t", "1"], path)),
            &puzzle,
        );
        assert!(!text.is_empty());
        for threads in ["1", "2"] {
            let args = ["list", "-q", "-t", threads, "--to", "compact"];
            let compact = checked(&compact_grids(&run_ok(&args, path)), &puzzle);
            assert!(compact == text, "{} on {threads} threads", path.display());
        }
    }
}

#[test]
fn the_header_says_what_the_listing_holds() {
    let out = run_ok(&["list", "-q", "--to", "compact"], &bundled("flag.g"));
    let text = String::from_utf8(out).expect("UTF-8");
    let header = text.lines().next().expect("a header");
    let start = r##"{"type":"compact","format":"nonoenum-compact/1","rows":3,"cols":6,"bits":2,"palette":[".","*","@"],"label":"Flag"##;
    assert!(header.starts_with(start), "{header}");
    assert!(header.contains(r#""puzzle":"fnv1a64:"#), "{header}");
    // Several puzzles: a header each, naming the puzzle, and no label line.
    let out = run_ok(&["list", "-q", "--to", "compact"], &bundled("mini-set.txt"));
    let text = String::from_utf8(out).expect("UTF-8");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert!(lines[0].contains(r#""label":"$1""#) && lines[2].contains(r#""label":"$2""#));
}

#[test]
fn compact_perm8_is_over_five_times_smaller_and_counts_agree() {
    let tmp = TempDir::new().expect("temp dir");
    let path = perm(tmp.path(), 8);
    let puzzle = AnyPuzzle::read(&path).expect("a puzzle");
    let mut sizes = Vec::new();
    for format in ["text", "compact"] {
        for threads in ["1", "2"] {
            let out = run_ok(&["list", "-q", "-t", threads, "--to", format], &path);
            let grids = if format == "text" {
                text_grids(&out)
            } else {
                compact_grids(&out)
            };
            assert_eq!(
                checked(&grids, &puzzle).len(),
                40_320,
                "{format}, -t {threads}"
            );
            sizes.push(out.len());
        }
    }
    assert_eq!((sizes[0], sizes[2]), (sizes[1], sizes[3]));
    let (text, compact) = (sizes[0], sizes[2]);
    assert!(compact * 5 <= text, "text {text} bytes, compact {compact}");
    for threads in ["1", "2"] {
        let out = run_ok(
            &["count", "-q", "--method", "enumerate", "-t", threads],
            &path,
        );
        assert_eq!(out, b"40320\n");
    }
}

#[test]
fn a_limit_lists_exactly_that_many_whole_solutions() {
    let tmp = TempDir::new().expect("temp dir");
    let path = perm(tmp.path(), 8);
    let puzzle = AnyPuzzle::read(&path).expect("a puzzle");
    for threads in ["1", "2", "3"] {
        for limit in [1usize, 7, 1000, 4097, 40_319] {
            let n = limit.to_string();
            for format in ["text", "compact"] {
                let args = ["list", "-t", threads, "--limit", &n, "--to", format];
                let (code, out, err) = run(&args, &path);
                assert_eq!(code, 0, "{err}");
                let grids = if format == "text" {
                    text_grids(&out)
                } else {
                    compact_grids(&out)
                };
                assert_eq!(checked(&grids, &puzzle).len(), limit, "{args:?}");
                let plural = if limit == 1 { "" } else { "s" };
                let note = format!("{limit} solution{plural} (incomplete: solution limit reached)");
                assert!(err.contains(&note), "{args:?}: {err}");
            }
        }
    }
    let (code, out, _) = run(&["list", "-q", "--max-solutions", "3", "-t", "2"], &path);
    assert_eq!((code, text_grids(&out).len()), (0, 3));
    // The old spellings still read: `--max-solutions` for `--limit`, `--output-format` for
    // `--to`.
    let out = run_ok(
        &[
            "list",
            "-q",
            "--max-solutions",
            "5",
            "--output-format",
            "compact",
        ],
        &path,
    );
    assert_eq!(checked(&compact_grids(&out), &puzzle).len(), 5);
}

#[test]
fn ordered_listings_are_the_same_bytes_on_every_thread_count() {
    let tmp = TempDir::new().expect("temp dir");
    let path = perm(tmp.path(), 7);
    for format in ["text", "compact"] {
        let args = |t| ["list", "-q", "--ordered", "-t", t, "--to", format];
        let one = run_ok(&args("1"), &path);
        for threads in ["2", "4"] {
            assert!(
                run_ok(&args(threads), &path) == one,
                "{format}, -t {threads}"
            );
        }
    }
}

#[test]
fn a_time_limit_keeps_every_compact_line_whole() {
    let tmp = TempDir::new().expect("temp dir");
    let path = perm(tmp.path(), 14);
    let puzzle = AnyPuzzle::read(&path).expect("a puzzle");
    let args = [
        "list",
        "-q",
        "-t",
        "2",
        "--to",
        "compact",
        "--time-limit",
        "0.5",
    ];
    let (code, out, _) = run(&args, &path);
    assert_eq!(code, 3);
    assert!(out.ends_with(b"\n"));
    assert!(!checked(&compact_grids(&out), &puzzle).is_empty());
}

#[test]
fn compact_is_for_list_without_an_output_folder_or_checkpoint() {
    let heart = bundled("heart.txt");
    let tmp = TempDir::new().expect("temp dir");
    let dir = tmp.path().to_str().expect("path");
    let checkpoint = tmp.path().join("c.json");
    let output = tmp.path().join("out.txt");
    for (args, message) in [
        (
            vec!["solve", "--to", "compact"],
            "--to compact lists solutions: it is for list",
        ),
        (
            vec!["list", "--to", "compact", "--output-dir", dir],
            "--output-dir writes a file per solution: it does not go with --to compact",
        ),
        (
            vec![
                "list",
                "--to",
                "compact",
                "--checkpoint",
                checkpoint.to_str().expect("path"),
                "--output",
                output.to_str().expect("path"),
            ],
            "list --checkpoint writes text solutions to -o FILE: drop --to and --output-dir",
        ),
        (
            vec!["list", "--to", "compact", "--color", "always"],
            "--color draws text solutions: it does not go with --to compact",
        ),
    ] {
        let (code, out, err) = run(&args, &heart);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty());
        assert_eq!(err, format!("error: {message}\n"), "{args:?}");
    }
}
