//! `count --method auto|enumerate|decompose`: exact counts of any size without enumerating,
//! the same numbers as enumeration, big integers in text and JSON, and the option errors.

use std::path::{Path, PathBuf};
use std::process::Command;

use tempfile::TempDir;

mod common;

const BIN: &str = env!("CARGO_BIN_EXE_nonoenum");

fn run(args: &[&str], puzzle: &Path) -> (i32, String, String) {
    let output = Command::new(BIN)
        .args(args)
        .arg(puzzle)
        .output()
        .expect("runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).expect("UTF-8"),
        String::from_utf8(output.stderr).expect("UTF-8"),
    )
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write puzzle");
    path
}

/// Every clue `1` on an `n` x `n` grid: `n!` solutions.
fn perm(dir: &Path, n: usize) -> PathBuf {
    let text = format!("{n} {n}\n{}", "1\n".repeat(2 * n));
    write(dir, &format!("perm{n}.txt"), &text)
}

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
    // Separate squares fall apart into components: the sweep leaves them to components.
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
            "--backbone-after must be a number of seconds, 0 or more, not -1",
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

#[test]
fn per_cell_counts_the_solutions_filling_each_cell() {
    let dir = TempDir::new().expect("temp dir");
    // 4! solutions: each cell is filled in 3! of them.
    let (code, stdout, stderr) = run(&["count", "-q", "--per-cell"], &perm(dir.path(), 4));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "6 6 6 6\n".repeat(4) + "24\n");

    // A 2x2 square, its two diagonals the only solutions, above an empty row.
    let square = write(dir.path(), "square.txt", "3 2\n1\n1\n0\n1\n1\n");
    let (code, stdout, _) = run(&["count", "-q", "--per-cell", "-t", "2"], &square);
    assert_eq!(code, 0);
    assert_eq!(stdout, "1 1\n1 1\n0 0\n2\n");

    for method in ["auto", "enumerate"] {
        let (code, stdout, _) = run(
            &[
                "count",
                "-q",
                "--per-cell",
                "--to=jsonl",
                "--method",
                method,
            ],
            &square,
        );
        assert_eq!(code, 0);
        assert!(
            stdout.contains(r#""count":"2""#)
                && stdout.contains(r#""per_cell":[["1","1"],["1","1"],["0","0"]]"#),
            "{method}: {stdout}"
        );
    }
}

/// The expected per-colour counts of the band puzzle: a cell of band `c` has colour `c` in
/// `total / m` solutions and the background in the rest.
fn band_counts(k: usize, m: usize, color: usize, row: usize) -> usize {
    let total = common::bands_total(k, m);
    match (color, row / m + 1) {
        (0, _) => total - total / m,
        (c, band) if c == band => total / m,
        _ => 0,
    }
}

#[test]
fn per_cell_counts_each_colour_of_a_colour_puzzle() {
    let dir = TempDir::new().expect("temp dir");
    let (k, m) = (3, 3);
    let total = common::bands_total(k, m);
    assert_eq!(total, 216);
    let puzzle = common::write_bands(dir.path(), k, m);
    let names = ["white", "red", "green", "blue"];
    let chars = ['.', 'a', 'b', 'c'];

    // Text: for each colour, background first, `NAME (CHAR):` and one line of counts a row.
    let (code, stdout, stderr) = run(&["count", "-q", "--per-cell"], &puzzle);
    assert_eq!(code, 0, "{stderr}");
    let mut expected = String::new();
    for color in 0..=k {
        expected.push_str(&format!("{} ({}):\n", names[color], chars[color]));
        let width = (0..k * m)
            .map(|r| band_counts(k, m, color, r).to_string().len())
            .max()
            .unwrap_or(1);
        for row in 0..k * m {
            let n = band_counts(k, m, color, row);
            expected.push_str(&vec![format!("{n:>width$}"); m].join(" "));
            expected.push('\n');
        }
    }
    expected.push_str(&format!("{total}\n"));
    assert_eq!(stdout, expected);

    // JSON: `per_color`, one grid of decimal strings per colour; the colours of each cell add
    // up to the count.
    let (code, stdout, stderr) = run(&["count", "-q", "--per-cell", "--to=jsonl"], &puzzle);
    assert_eq!(code, 0, "{stderr}");
    let result: serde_json::Value = serde_json::from_str(stdout.trim_end()).expect("JSON");
    assert_eq!(result["count"], total.to_string());
    assert!(result.get("per_cell").is_none(), "{stdout}");
    let per_color = result["per_color"].as_array().expect("per_color");
    assert_eq!(per_color.len(), k + 1);
    let count = |color: usize, row: usize, col: usize| -> usize {
        let n = &per_color[color]["rows"][row][col];
        n.as_str()
            .expect("a decimal string")
            .parse()
            .expect("a count")
    };
    for (color, entry) in per_color.iter().enumerate() {
        assert_eq!(entry["color"], names[color]);
        assert_eq!(entry["char"], chars[color].to_string());
    }
    for row in 0..k * m {
        for col in 0..m {
            let sum: usize = (0..=k).map(|color| count(color, row, col)).sum();
            assert_eq!(sum, total, "cell ({row}, {col})");
            for color in 0..=k {
                assert_eq!(count(color, row, col), band_counts(k, m, color, row));
            }
        }
    }
}

#[test]
fn per_cell_counts_past_enumeration_by_profiles() {
    let dir = TempDir::new().expect("temp dir");
    // 20! solutions, each cell filled in 19! of them: no enumeration would finish.
    let (code, stdout, stderr) = run(&["count", "-q", "--per-cell"], &perm(dir.path(), 20));
    assert_eq!(code, 0, "{stderr}");
    let row = vec!["121645100408832000"; 20].join(" ") + "\n";
    assert_eq!(stdout, row.repeat(20) + "2432902008176640000\n");
}

#[test]
fn per_cell_by_profiles_enumerates_or_gives_up_when_the_layers_are_too_many() {
    let dir = TempDir::new().expect("temp dir");
    // 6 x 6 permutations: 2^6 = 64 profiles in all, over 8 x 4.
    let puzzle = perm(dir.path(), 6);
    let args = ["count", "-q", "--per-cell", "--max-profiles", "4"];
    let (code, stdout, stderr) = run(&args, &puzzle);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "120 120 120 120 120 120\n".repeat(6) + "720\n");
    let (code, _, stderr) = run(&[&args[..], &["--method", "decompose"]].concat(), &puzzle);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("per-cell counts by profiles need more than 32 profiles"),
        "{stderr}"
    );
}

#[test]
fn per_cell_refuses_what_it_cannot_do() {
    let dir = TempDir::new().expect("temp dir");
    let puzzle = perm(dir.path(), 3);
    let (code, _, stderr) = run(&["count", "--per-cell", "--no-race"], &puzzle);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains(
            "--per-cell counts by profiles or by enumerating the solutions: drop --no-race"
        ),
        "{stderr}"
    );
}

/// The block lengths of one line of a picture (`0` for an empty line).
fn blocks(cells: impl Iterator<Item = bool>) -> String {
    let mut runs = Vec::new();
    let mut run = 0;
    for filled in cells.chain(std::iter::once(false)) {
        if filled {
            run += 1;
        } else if run > 0 {
            runs.push(run.to_string());
            run = 0;
        }
    }
    if runs.is_empty() {
        "0".into()
    } else {
        runs.join(" ")
    }
}

#[test]
fn per_cell_counts_equal_counts_with_that_cell_given() {
    let picture = ["#.#..#", ".##...", "#..#.#", ".#.#..", "..#.##", "#....#"];
    let grid: Vec<Vec<bool>> = picture
        .iter()
        .map(|r| r.chars().map(|c| c == '#').collect())
        .collect();
    let (h, w) = (grid.len(), grid[0].len());
    let mut text = format!("{h} {w}\n");
    for row in &grid {
        text += &(blocks(row.iter().copied()) + "\n");
    }
    for c in 0..w {
        text += &(blocks(grid.iter().map(|row| row[c])) + "\n");
    }
    let dir = TempDir::new().expect("temp dir");
    let puzzle = write(dir.path(), "ambiguous.txt", &text);
    let (code, stdout, stderr) = run(&["count", "-q", "--per-cell"], &puzzle);
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    let total: u64 = lines[h].parse().expect("count");
    assert!(
        total > 1,
        "the picture should be ambiguous: {total} solutions"
    );
    for (r, line) in lines[..h].iter().enumerate() {
        let counts: Vec<u64> = line
            .split_whitespace()
            .map(|n| n.parse().expect("number"))
            .collect();
        assert_eq!(counts.len(), w);
        for (c, &count) in counts.iter().enumerate() {
            let givens = write(dir.path(), "givens.txt", &format!("{} {}\n", r + 1, c + 1));
            let given = givens.display().to_string();
            let (_, stdout, _) = run(
                &["count", "-q", "--method", "enumerate", "--givens", &given],
                &puzzle,
            );
            assert_eq!(
                stdout.trim().parse::<u64>().ok(),
                Some(count),
                "cell ({r}, {c})"
            );
        }
    }
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
