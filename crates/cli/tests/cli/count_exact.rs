//! `count --method auto|enumerate|decompose`: exact counts of any size without enumerating,
//! the same numbers as enumeration, big integers in text and JSON, and the option errors
//! (counts per cell: `count_per_cell.rs`).

use std::path::{Path, PathBuf};

use tempfile::TempDir;

use crate::common;

use common::{perm, run, write};

/// `bands` bands of two rows, each of `k` windows: a 2x2 square whose two diagonals are the
/// only ways to fill it, then an empty column; an empty row separates bands. `2^(bands k)`
/// solutions.
fn squares(dir: &Path, bands: usize, k: usize) -> PathBuf {
    let (rows, cols) = (3 * bands - 1, 3 * k);
    let mut text = format!("{rows} {cols}\n");
    let ones = |n: usize| vec!["1"; n].join(" ");
    for band in 0..bands {
        if band > 0 {
            text.push_str("0\n");
        }
        text.push_str(&format!("{}\n{}\n", ones(k), ones(k)));
    }
    for _ in 0..k {
        text.push_str(&format!("{}\n{}\n0\n", ones(bands), ones(bands)));
    }
    write(dir, &format!("squares-{bands}x{k}.txt"), &text)
}

#[test]
fn decompose_counts_sixteen_factorial() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = perm(tmp.path(), 16);
    for method in ["auto", "decompose"] {
        let (code, out, err) = run(&["count", "-q", "--method", method], &puzzle);
        assert_eq!((code, out.as_str()), (0, "20922789888000\n"), "{err}");
    }
}

#[test]
fn counts_beyond_128_bits_are_exact_in_text_and_json() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = squares(tmp.path(), 10, 13);
    // 2^130, more than u128 holds.
    let expected = "1361129467683753853853498429727072845824";
    let (code, out, err) = run(&["count", "-q"], &puzzle);
    assert_eq!((code, out.trim_end()), (0, expected), "{err}");
    let (code, out, _) = run(&["count", "-q", "--to=jsonl"], &puzzle);
    assert_eq!(code, 0);
    assert!(out.contains(&format!(r#""count":"{expected}""#)), "{out}");
    assert!(out.contains(r#""complete":true"#), "{out}");
    // With no profiles allowed, the sweep allowed or not: the grid falls apart, so components
    // count it either way.
    for sweep_memory in ["1024", "0"] {
        let args = [
            "count",
            "-q",
            "--max-profiles",
            "0",
            "--sweep-memory",
            sweep_memory,
        ];
        let (code, out, _) = run(&args, &puzzle);
        assert_eq!((code, out.trim_end()), (0, expected), "{args:?}");
    }
}

#[test]
fn every_method_gives_the_same_counts() {
    let bundled = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../puzzles");
    let tmp = TempDir::new().expect("temp dir");
    let puzzles = [
        perm(tmp.path(), 7),
        squares(tmp.path(), 2, 4),
        bundled.join("ambiguous.txt"),
        bundled.join("heart.txt"),
        bundled.join("mini-set.txt"),
        // Well formed (4 cells across and down) but without a solution.
        write(tmp.path(), "none.txt", "3 3\n2\n1\n1\n2\n0\n1 1\n"),
    ];
    for puzzle in &puzzles {
        let (code, enumerated, err) = run(&["count", "-q", "--method", "enumerate"], puzzle);
        // No solution has its own exit code, whatever the method.
        let success = if enumerated == "0\n" { 1 } else { 0 };
        assert_eq!(code, success, "{err}");
        for args in [
            &["count", "-q", "--method", "decompose"][..],
            &[
                "count",
                "-q",
                "--method",
                "decompose",
                "--max-profiles",
                "0",
            ],
            &[
                "count",
                "-q",
                "--method",
                "decompose",
                "--max-profiles",
                "0",
                "--sweep-memory",
                "0",
            ],
            // Components alone, their cache the least there is, turning over often.
            &[
                "count",
                "-q",
                "--max-profiles",
                "0",
                "--sweep-memory",
                "0",
                "--cache-memory",
                "0",
            ],
            &["count", "-q", "--method", "decompose", "-t", "1"],
            &["count", "-q", "--max-profiles", "0", "-t", "1"],
            &["count", "-q", "--max-profiles", "0", "--no-race"],
            &[
                "count",
                "-q",
                "--max-profiles",
                "0",
                "--no-race",
                "--backbone-after",
                "0.5",
            ],
            &["count", "-q", "--max-profiles", "0", "--no-backbone"],
            &[
                "count",
                "-q",
                "--max-profiles",
                "0",
                "--sweep-from",
                "right",
            ],
        ] {
            let (code, out, err) = run(args, puzzle);
            assert_eq!(code, success, "{err}");
            assert_eq!(out, enumerated, "{args:?} on {}", puzzle.display());
        }
    }
}

#[test]
fn stats_and_progress_say_how_it_was_counted() {
    let tmp = TempDir::new().expect("temp dir");
    let (code, _, err) = run(&["count", "--stats", "--progress"], &perm(tmp.path(), 9));
    assert_eq!(code, 0);
    assert!(err.contains("counted by profiles"), "{err}");
    assert!(err.contains("counting line by line: 9 of 9 lines"), "{err}");
    // The sweep alone, without the backbone: its last progress line has every solution
    // counted.
    let (code, _, err) = run(
        &[
            "count",
            "--progress",
            "--max-profiles",
            "0",
            "--no-race",
            "--no-backbone",
        ],
        &perm(tmp.path(), 6),
    );
    assert_eq!(code, 0);
    assert!(
        err.contains("counting cell by cell: at least 720 solutions so far"),
        "{err}"
    );
    let (code, _, err) = run(
        &["count", "--stats", "--max-profiles", "0", "--no-race"],
        &perm(tmp.path(), 6),
    );
    assert_eq!(code, 0);
    assert!(err.contains("counted by a sweep row by row"), "{err}");
    // From the side asked.
    for (side, said) in [
        ("top", "row by row,"),
        ("bottom", "row by row from the bottom,"),
        ("left", "column by column,"),
        ("right", "column by column from the right,"),
    ] {
        let (code, out, err) = run(
            &[
                "count",
                "--stats",
                "--max-profiles",
                "0",
                "--no-race",
                "--sweep-from",
                side,
            ],
            &perm(tmp.path(), 6),
        );
        assert_eq!((code, out.trim_end()), (0, "720"), "{side}");
        assert!(err.contains(&format!("counted by a sweep {said}")), "{err}");
    }
}

#[test]
fn progress_says_when_a_sweep_goes_cell_by_cell_or_races() {
    let tmp = TempDir::new().expect("temp dir");
    // A sweep that fixes the backbone at once says it counts cell by cell.
    let (code, _, err) = run(
        &[
            "count",
            "--progress",
            "--max-profiles",
            "0",
            "--no-race",
            "--backbone-after",
            "0",
        ],
        &perm(tmp.path(), 6),
    );
    assert_eq!(code, 0);
    assert!(
        err.contains("counting cell by cell: at least 720 solutions so far"),
        "{err}"
    );
    // Raced, either may win; the progress lines say two ways race.
    let (code, out, err) = run(
        &["count", "--stats", "--progress", "--max-profiles", "0"],
        &perm(tmp.path(), 6),
    );
    assert_eq!((code, out.trim_end()), (0, "720"));
    assert!(
        err.contains("counting two ways at once: at least "),
        "{err}"
    );
    assert!(
        err.contains("counted by a sweep row by row") || err.contains("counted by components"),
        "{err}"
    );
}

/// Separate squares fall apart into components: the sweep leaves them to components.
#[test]
fn separate_squares_are_counted_by_components() {
    let tmp = TempDir::new().expect("temp dir");
    let (code, _, err) = run(
        &["count", "--stats", "--progress", "--max-profiles", "0"],
        &squares(tmp.path(), 1, 5),
    );
    assert_eq!(code, 0);
    assert!(err.contains("counted by components"), "{err}");
    assert!(err.contains("counting by components: at least "), "{err}");
    let (code, _, err) = run(
        &[
            "count",
            "--stats",
            "--max-profiles",
            "0",
            "--sweep-memory",
            "0",
        ],
        &squares(tmp.path(), 1, 5),
    );
    assert_eq!(code, 0);
    assert!(err.contains("counted by components"), "{err}");
}

/// Runs `count` with `args` under time limits of 1, 2, 4, 8 and 16 seconds until what it had
/// counted when stopped, read by `counted_so_far` from stdout, is above zero: a slow or busy
/// machine may count nothing in one second. Each run must stop at its limit (exit 3); returns
/// the last run's stdout and the count it read.
fn count_until_something_is_counted(
    args: &[&str],
    puzzle: &Path,
    counted_so_far: impl Fn(&str) -> f64,
) -> (String, f64) {
    let mut last = (String::new(), 0.0);
    for seconds in ["1", "2", "4", "8", "16"] {
        let mut with_limit = args.to_vec();
        with_limit.extend(["--time-limit", seconds]);
        let (code, out, err) = run(&with_limit, puzzle);
        assert_eq!(code, 3, "{out}{err}");
        assert!(err.contains("time limit reached"), "{err}");
        let counted = counted_so_far(&out);
        last = (out, counted);
        if counted > 0.0 {
            break;
        }
    }
    last
}

#[test]
fn a_time_limit_leaves_the_solutions_counted_so_far_marked_as_incomplete() {
    let tmp = TempDir::new().expect("temp dir");
    // 40! by the sweep or by components alone is out of reach.
    let puzzle = perm(tmp.path(), 40);
    let forty_factorial: f64 = (1..=40).map(f64::from).product();
    for sweep_memory in ["1024", "0"] {
        let args = [
            "count",
            "--max-profiles",
            "0",
            "--sweep-memory",
            sweep_memory,
        ];
        // The solutions of the subtrees it finished: some, and fewer than all.
        let (out, at_least) = count_until_something_is_counted(&args, &puzzle, |out| {
            out.strip_prefix("incomplete: at least ")
                .and_then(|rest| rest.strip_suffix(" (time limit reached)\n"))
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("{out}"))
        });
        assert!(at_least > 0.0 && at_least < forty_factorial, "{out}");
    }
    // In JSON, the same lower bound, marked incomplete.
    let args = ["count", "--to=jsonl", "--max-profiles", "0"];
    let (out, count) = count_until_something_is_counted(&args, &puzzle, json_lower_bound);
    assert!(count > 0.0 && count < forty_factorial, "{out}");
    // --stats still says how far the count got; a loaded machine may still be simplifying the
    // puzzle when a short limit ends the run, so the limit grows until the count has begun.
    let mut err = String::new();
    for seconds in ["0.5", "2", "8", "16"] {
        let args = [
            "count",
            "--stats",
            "--max-profiles",
            "0",
            "--time-limit",
            seconds,
        ];
        let (code, _, stderr) = run(&args, &puzzle);
        assert_eq!(code, 3, "{stderr}");
        assert!(
            stderr.contains("stopped before the count was known, at least "),
            "{stderr}"
        );
        err = stderr;
        if err.contains("counting two ways at once") {
            break;
        }
    }
    assert!(
        err.contains("solutions counted; counting two ways at once: at least "),
        "{err}"
    );
}

#[test]
fn options_that_do_not_go_together_are_refused() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = perm(tmp.path(), 4);
    let ck = tmp.path().join("ck.json");
    let ck = ck.to_str().expect("path");
    for (args, says) in [
        (
            &["count", "--method", "enumerate", "--max-profiles", "5"][..],
            "--max-profiles",
        ),
        (
            &["count", "--method", "enumerate", "--sweep-memory", "5"],
            "--sweep-memory",
        ),
        (
            &["count", "--method", "enumerate", "--cache-memory", "5"],
            "--cache-memory",
        ),
        (
            &["count", "--per-cell", "--sweep-memory", "5"],
            "--per-cell",
        ),
        (
            &["count", "--method", "decompose", "--limit", "5"],
            "--limit",
        ),
        (
            &["count", "--method", "decompose", "--checkpoint", ck],
            "--checkpoint",
        ),
        (&["count", "--method", "guess"], "guess"),
        (
            &["count", "--method", "enumerate", "--backbone-after", "1"],
            "--backbone-after",
        ),
        (
            &["count", "--backbone-after", "1", "--no-backbone"],
            "--no-backbone",
        ),
        (
            &["count", "--method", "enumerate", "--sweep-from", "top"],
            "--sweep-from",
        ),
        (&["count", "--sweep-from", "middle"], "middle"),
        (
            &["count", "--backbone-after=-1"],
            "must be a number of seconds, 0 or more, not -1",
        ),
        (
            &["count", "--backbone-after", "1e26"],
            "1e26 is too large (at most 1000000000 seconds)",
        ),
    ] {
        let (code, out, err) = run(args, &puzzle);
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    // --max-solutions asks for an enumeration: auto enumerates and stops there.
    let (code, out, _) = run(&["count", "--limit", "5"], &perm(tmp.path(), 6));
    assert_eq!(code, 0);
    assert!(out.starts_with("incomplete: at least 5"), "{out}");
}

/// `k` colour bands of `m` rows over `m` columns (Olšák's `.g`): each row of band `c` holds one
/// cell of colour `c`, each column one cell of every colour in band order. `(m!)^k` solutions.
fn colour_bands(dir: &Path, k: usize, m: usize) -> PathBuf {
    let chars: Vec<char> = ('a'..='z').chain('A'..='Z').take(k).collect();
    assert_eq!(chars.len(), k, "too many colours");
    let mut text = String::from("#d\n   0:   #FFFFFF   white\n");
    for (c, ch) in chars.iter().enumerate() {
        let (red, green) = (4 * c + 1, 250 - 4 * c);
        text.push_str(&format!("   {ch}:{ch}  #{red:02X}{green:02X}00   c{c}\n"));
    }
    text.push_str(": rows\n");
    for ch in &chars {
        text.push_str(&format!("1{ch}\n").repeat(m));
    }
    text.push_str(": columns\n");
    let column: Vec<String> = chars.iter().map(|ch| format!("1{ch}")).collect();
    text.push_str(&format!("{}\n", column.join(" ")).repeat(m));
    write(dir, &format!("bands-{k}x{m}.g"), &text)
}

/// `(m!)^k`, as decimal digits.
fn bands_count(k: usize, m: usize) -> String {
    let m_factorial: u128 = (1..=m as u128).product();
    let digits = |n: u128| n.to_string();
    // Multiplies a decimal string by `n`, past what u128 holds.
    let times = |digits: &str, n: u128| {
        let mut carry = 0u128;
        let mut out: Vec<u8> = Vec::new();
        for d in digits.bytes().rev() {
            let v = u128::from(d - b'0') * n + carry;
            out.push(b'0' + (v % 10) as u8);
            carry = v / 10;
        }
        while carry > 0 {
            out.push(b'0' + (carry % 10) as u8);
            carry /= 10;
        }
        out.reverse();
        String::from_utf8(out).expect("digits")
    };
    let mut count = digits(1);
    for _ in 0..k {
        count = times(&count, m_factorial);
    }
    count
}

#[test]
fn colour_puzzles_are_counted_by_profiles_or_components() {
    let flag = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../puzzles/flag.g");
    let (code, enumerated, err) = run(&["count", "-q", "--method", "enumerate"], &flag);
    assert_eq!(code, 0, "{err}");
    for method in ["auto", "decompose"] {
        let (code, out, err) = run(&["count", "-q", "--method", method], &flag);
        assert_eq!((code, &out), (0, &enumerated), "{method}: {err}");
    }
    let tmp = TempDir::new().expect("temp dir");
    // Small enough to enumerate: 2!^3 = 8.
    let small = colour_bands(tmp.path(), 3, 2);
    let (code, out, err) = run(&["count", "-q", "--method", "enumerate"], &small);
    assert_eq!((code, out.as_str()), (0, "8\n"), "{err}");
    // (6!)^4, past enumeration, by profiles, which --stats names; by components without
    // profiles or the sweep; by the sweep without profiles.
    let big = colour_bands(tmp.path(), 4, 6);
    let expected = bands_count(4, 6);
    assert_eq!(expected, "268738560000");
    for method in ["auto", "decompose"] {
        let (code, out, err) = run(&["count", "--stats", "--method", method], &big);
        assert_eq!(
            (code, out.trim_end()),
            (0, expected.as_str()),
            "{method}: {err}"
        );
        assert!(err.contains("counted by profiles"), "{err}");
        let alone = ["--max-profiles", "0", "--sweep-memory", "0"];
        let args = [&["count", "--stats", "--method", method][..], &alone].concat();
        let (code, out, err) = run(&args, &big);
        assert_eq!(
            (code, out.trim_end()),
            (0, expected.as_str()),
            "{method}: {err}"
        );
        assert!(err.contains("counted by components"), "{err}");
    }
    // One component, counted by the sweep from the side asked: 6! solutions.
    let pairs = colour_pairs(tmp.path(), 6);
    let args = "count --stats --max-profiles 0 --no-race --sweep-from bottom";
    let (code, out, err) = run(&args.split(' ').collect::<Vec<_>>(), &pairs);
    assert_eq!((code, out.trim_end()), (0, "720"), "{err}");
    assert!(
        err.contains("counted by a sweep row by row from the bottom"),
        "{err}"
    );
    let (code, out, _) = run(&["count", "-q", "--to=jsonl"], &big);
    assert_eq!(code, 0);
    assert!(out.contains(&format!(r#""count":"{expected}""#)), "{out}");
    assert!(out.contains(r#""complete":true"#), "{out}");
    // `--ordered` lists colour solutions in the order of the one-thread search.
    let (code, ordered, err) = run(&["list", "--ordered", "--threads", "2"], &flag);
    assert_eq!(code, 0, "{err}");
    let (code, sequential, err) = run(&["list", "--threads", "1"], &flag);
    assert_eq!(code, 0, "{err}");
    assert_eq!(ordered, sequential);
}

/// (3!)^50, about 8.1e38: past u128, exact.
#[test]
fn colour_counts_past_u128_are_exact() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = colour_bands(tmp.path(), 50, 3);
    let expected = bands_count(50, 3);
    assert_eq!(expected, "808281277464764060643139600456536293376");
    let (code, out, err) = run(&["count", "-q", "--method", "decompose"], &puzzle);
    assert_eq!((code, out.trim_end()), (0, expected.as_str()), "{err}");
}

/// `2n` rows alternately of colour `a` and `b`, each holding one cell, over `n` columns each
/// holding one `a` above one `b`: one component, `n!` solutions (9! takes components a minute
/// in a debug build on a busy machine).
fn colour_pairs(dir: &Path, n: usize) -> PathBuf {
    let mut text = String::from("#d\n   0:   #FFFFFF   white\n   a:a  #FF0000   red\n");
    text.push_str("   b:b  #0000FF   blue\n: rows\n");
    text.push_str(&"1a\n1b\n".repeat(n));
    text.push_str(": columns\n");
    text.push_str(&"1a 1b\n".repeat(n));
    write(dir, &format!("pairs-{n}.g"), &text)
}

#[test]
fn a_time_limit_leaves_a_lower_bound_on_a_colour_count() {
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = colour_pairs(tmp.path(), 9);
    // Components alone: profiles and the sweep count the pairs at once.
    let alone = ["--max-profiles", "0", "--sweep-memory", "0"];
    let args = [
        "count",
        "--to=jsonl",
        "--method",
        "decompose",
        alone[0],
        alone[1],
        alone[2],
        alone[3],
    ];
    let (out, count) = count_until_something_is_counted(&args, &puzzle, json_lower_bound);
    assert!(count > 0.0, "{out}");
    // In text, the same, marked incomplete.
    let args = ["count", "--method", "decompose", "--time-limit", "1"];
    let (code, out, err) = run(&[&args[..], &alone].concat(), &puzzle);
    assert_eq!(code, 3, "{err}");
    assert!(out.starts_with("incomplete: at least "), "{out}");
}

#[test]
fn a_line_with_astronomically_many_placements_does_not_run_away() {
    // The first row alone can be placed in 2^60 ways from the start profile: the profile
    // limit must stop the dynamic program inside that one expansion, and components finish.
    let tmp = TempDir::new().expect("temp dir");
    let puzzle = squares(tmp.path(), 1, 60);
    let (code, out, err) = run(
        &[
            "count",
            "-q",
            "--max-profiles",
            "1000",
            "--time-limit",
            "60",
        ],
        &puzzle,
    );
    assert_eq!((code, out.trim_end()), (0, "1152921504606846976"), "{err}");
}

/// The count of a `--json` result that a time limit stopped: a lower bound, marked incomplete.
fn json_lower_bound(out: &str) -> f64 {
    let result: serde_json::Value = out
        .lines()
        .find_map(|line| serde_json::from_str(line).ok())
        .unwrap_or_else(|| panic!("{out}"));
    assert_eq!(result["complete"], false, "{out}");
    assert_eq!(result["stopped"], "time limit reached", "{out}");
    result["count"]
        .as_str()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{out}"))
}
