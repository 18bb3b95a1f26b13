//! The scale suite: seeded grids of many shapes and sizes (lines up to 4,096 cells, strips,
//! permutation puzzles up to 2000x2000, random pictures up to 1000x1000, products of up to
//! 110,889 components, full and empty grids, colour pictures up to 400x400 with 16 colours)
//! through every engine path under a short time limit. Each run must exit with 0, 1 or 3 within its limit plus a second, print
//! only valid solutions, and give the known count when it finishes one.
//!
//! Release builds only (debug builds are too slow for the limits to mean much): `.ci/run` runs
//! it as its own step, `cargo test --profile scale -p nonoenum-cli --test scale -- --ignored
//! --test-threads 1`. `NONOENUM_SCALE_LIMIT=SECONDS` gives each run a longer limit, and
//! `NONOENUM_SCALE_SEED=N` other random grids (docs/development.md).

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

use nonoenum::format::Format;
use nonoenum::{AnyPuzzle, BigUint, Color, ColorPuzzle, Puzzle};
use tempfile::TempDir;

use crate::common;
use common::nonoenum;

/// How much longer than its limit a run may take: the limit is honoured within this.
const GRACE: Duration = Duration::from_secs(1);

/// One puzzle of the suite, with what a finished run must find.
struct Case {
    name: String,
    puzzle: AnyPuzzle,
    /// Its exact number of solutions, where known.
    count: Option<BigUint>,
    /// A picture made it, so it has a solution.
    solvable: bool,
}

/// The time limit of each run, in seconds.
fn limit() -> f64 {
    std::env::var("NONOENUM_SCALE_LIMIT")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|&s: &f64| s > 0.0)
        .unwrap_or(0.5)
}

/// The seed of the random grids.
fn seed() -> u64 {
    std::env::var("NONOENUM_SCALE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

/// A small deterministic generator (Knuth's MMIX constants).
struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A black-and-white case from a picture of `rows` x `cols` cells, each filled with chance
/// `density`.
fn random_bw(rows: usize, cols: usize, density: f64, seed: u64) -> Case {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (rows * 7919 + cols) as u64);
    let cells: Vec<bool> = (0..rows * cols).map(|_| rng.unit() < density).collect();
    picture_case(
        format!("random {rows}x{cols} at {density}"),
        rows,
        cols,
        &cells,
    )
}

/// A black-and-white case from a picture.
fn picture_case(name: String, rows: usize, cols: usize, cells: &[bool]) -> Case {
    let puzzle = Puzzle::from_picture(rows, cols, cells).expect("a picture");
    let full_or_empty = cells.iter().all(|&c| c) || cells.iter().all(|&c| !c);
    Case {
        name,
        puzzle: AnyPuzzle::Bw(puzzle),
        count: full_or_empty.then(|| BigUint::from(1u8)),
        solvable: true,
    }
}

/// Every clue `1` on an `n` x `n` grid: `n!` solutions.
fn permutation(n: usize) -> Case {
    let picture: Vec<bool> = (0..n * n).map(|i| i / n == i % n).collect();
    let factorial = (1..=n as u64).fold(BigUint::from(1u8), |f, k| f * k);
    Case {
        count: Some(factorial),
        ..picture_case(format!("permutation {n}x{n}"), n, n, &picture)
    }
}

/// Two rows of `width` cells, a `1` each, in the first two columns: two solutions.
fn two_diagonals(width: usize) -> Case {
    let mut picture = vec![false; 2 * width];
    picture[0] = true;
    picture[width + 1] = true;
    Case {
        count: Some(BigUint::from(2u8)),
        ..picture_case(format!("two diagonals 2x{width}"), 2, width, &picture)
    }
}

/// `k` x `k` squares of 2x2 cells, a row and a column empty between them, each holding one of
/// its diagonals: every line crosses `k` squares, and the grid is a product of `k^2`
/// independent components, `2^(k^2)` solutions.
fn grid_of_squares(k: usize) -> Case {
    let n = 3 * k - 1;
    let picture: Vec<bool> = (0..n * n)
        .map(|i| (i / n % 3, i % n % 3))
        .map(|(r, c)| r != 2 && r == c)
        .collect();
    Case {
        count: Some(BigUint::from(2u8).pow((k * k) as u32)),
        ..picture_case(format!("{k}x{k} squares, {n}x{n}"), n, n, &picture)
    }
}

/// A colour picture of `colors` colours besides the background, every cell drawn at random.
fn random_color(rows: usize, cols: usize, colors: u8, seed: u64) -> Case {
    let mut rng = Rng(seed ^ u64::from(colors) << 40 ^ (rows * 31 + cols) as u64);
    let palette: Vec<Color> = (0..=colors)
        .map(|i| {
            let ch = if i == 0 {
                '.'
            } else {
                char::from(b'a' + i - 1)
            };
            Color::new(format!("c{i}"), [i * 15, 255 - i * 15, i * 7], ch)
        })
        .collect();
    let cells: Vec<u8> = (0..rows * cols)
        .map(|_| (rng.unit() * f64::from(colors + 1)) as u8)
        .collect();
    let puzzle = ColorPuzzle::from_picture(palette, rows, cols, &cells).expect("a picture");
    Case {
        name: format!("colour {rows}x{cols}, {colors} colours"),
        puzzle: AnyPuzzle::from_color(puzzle),
        count: None,
        solvable: true,
    }
}

/// Writes `case`'s puzzle into `dir` (plain text, or `.g` for colour).
fn write_case(dir: &Path, index: usize, case: &Case) -> PathBuf {
    let (format, extension) = match case.puzzle {
        AnyPuzzle::Bw(_) => (Format::Plain, "txt"),
        AnyPuzzle::Color(_) => (Format::Olsak, "g"),
    };
    let text = nonoenum::format::write::write_puzzle(&case.puzzle, format).expect("writable");
    let path = dir.join(format!("case{index}.{extension}"));
    std::fs::write(&path, text).expect("write the puzzle");
    path
}

/// Runs `args` with the suite's time limit and checks the exit code and the time taken.
fn run_limited(case: &Case, args: &[&str]) -> Output {
    let seconds = limit();
    let mut command = nonoenum(args);
    let _ = command
        .args(["--time-limit", &seconds.to_string()])
        .env_remove("RUST_BACKTRACE");
    let start = Instant::now();
    let output = command.output().expect("the binary runs");
    let took = start.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let code = output.status.code();
    assert!(
        matches!(code, Some(0 | 1 | 3)),
        "{}: {args:?} exited with {code:?}: {stderr}",
        case.name
    );
    assert!(
        !(case.solvable && code == Some(1)),
        "{}: {args:?} says no solution",
        case.name
    );
    assert!(
        took <= Duration::from_secs_f64(seconds) + GRACE,
        "{}: {args:?} took {took:?} with a limit of {seconds} s",
        case.name
    );
    eprintln!(
        "{:>6.2} s  {}: {}",
        took.as_secs_f64(),
        case.name,
        args.join(" ")
    );
    output
}

/// Checks every grid printed in `stdout` against the case's clues; returns how many.
fn check_printed(case: &Case, stdout: &str) -> usize {
    let (height, width) = match &case.puzzle {
        AnyPuzzle::Bw(p) => (p.height(), p.width()),
        AnyPuzzle::Color(p) => (p.height(), p.width()),
    };
    let mut grids = 0;
    for block in stdout.split("\n\n") {
        let rows: Vec<&str> = block
            .lines()
            .filter(|line| line.chars().count() == width)
            .collect();
        if rows.is_empty() {
            continue;
        }
        assert_eq!(rows.len(), height, "{}: a partial grid", case.name);
        let chars: Vec<char> = rows.iter().flat_map(|row| row.chars()).collect();
        let valid = match &case.puzzle {
            AnyPuzzle::Bw(p) => {
                let cells: Vec<bool> = chars.iter().map(|&c| c == '#').collect();
                p.check_grid(&cells).map_err(|e| e.to_string())
            }
            AnyPuzzle::Color(p) => {
                let index = |c: char| p.colors.iter().position(|k| k.ch == c);
                let cells: Option<Vec<u8>> =
                    chars.iter().map(|&c| index(c).map(|i| i as u8)).collect();
                let cells = cells.expect("known colour characters");
                p.check_grid(&cells).map_err(|e| e.to_string())
            }
        };
        if let Err(e) = valid {
            panic!("{}: an invalid solution: {e}", case.name);
        }
        grids += 1;
    }
    grids
}

/// The count a finished `count` printed must be the known one.
fn check_count(case: &Case, output: &Output) {
    let stdout = String::from_utf8_lossy(&output.stdout);
    if output.status.code() != Some(0) {
        return;
    }
    let last = stdout.lines().last().unwrap_or_default();
    let count: BigUint = last.trim().parse().expect("a count on the last line");
    if let Some(expected) = &case.count {
        assert_eq!(&count, expected, "{}", case.name);
    }
    assert!(
        count > BigUint::ZERO,
        "{}: a picture has a solution",
        case.name
    );
}

/// Runs `case` through every engine path: each strategy, each counting method, a short
/// listing, and a checkpointed count resumed.
fn every_path(dir: &Path, index: usize, case: &Case) {
    let file = write_case(dir, index, case);
    let p = file.to_str().expect("a path");
    for strategy in ["auto", "probe", "plain", "learn", "both", "restarts"] {
        let output = run_limited(case, &["solve", "-q", "--strategy", strategy, p]);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(check_printed(case, &stdout) <= 1, "{}", case.name);
    }
    for method in ["auto", "decompose", "enumerate"] {
        check_count(
            case,
            &run_limited(case, &["count", "-q", "--method", method, p]),
        );
    }
    let listed = run_limited(case, &["list", "-q", "--limit", "3", p]);
    assert!(check_printed(case, &String::from_utf8_lossy(&listed.stdout)) <= 3);
    let parts = dir.join(format!("case{index}.parts"));
    let split = run_limited(
        case,
        &["split", "-q", "--parts", "8", "-o", path(&parts), p],
    );
    if split.status.code() == Some(0) {
        assert!(
            parts.join("manifest.json").is_file(),
            "{}: a split without manifest",
            case.name
        );
    } else {
        assert!(
            !parts.exists(),
            "{}: a stopped split left {parts:?}",
            case.name
        );
    }
    let ck = dir.join(format!("case{index}.ck"));
    let ck = ck.to_str().expect("a path");
    let counted = [
        "count",
        "-q",
        "--method",
        "enumerate",
        "--checkpoint",
        ck,
        p,
    ];
    let first = run_limited(case, &counted);
    if first.status.code() == Some(3) {
        check_count(case, &run_limited(case, &["resume", "-q", ck]));
    }
}

/// A path as the command line takes it.
fn path(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// Runs every path on each case.
fn run_cases(cases: &[Case]) {
    let dir = TempDir::new().expect("a temporary folder");
    for (index, case) in cases.iter().enumerate() {
        every_path(dir.path(), index, case);
    }
}

#[test]
#[ignore = "the scale suite: a release build, run by .ci/run as its own step"]
fn long_lines_and_thin_strips() {
    let s = seed();
    run_cases(&[
        random_bw(1, 4096, 0.5, s),
        random_bw(4096, 1, 0.5, s),
        random_bw(3, 3000, 0.5, s),
        random_bw(3000, 4, 0.5, s),
        two_diagonals(665),
        two_diagonals(4096),
    ]);
}

#[test]
#[ignore = "the scale suite: a release build, run by .ci/run as its own step"]
fn permutation_puzzles() {
    run_cases(&[permutation(9), permutation(700), permutation(2000)]);
}

#[test]
#[ignore = "the scale suite: a release build, run by .ci/run as its own step"]
fn random_pictures() {
    let s = seed();
    run_cases(&[
        random_bw(100, 100, 0.05, s),
        random_bw(100, 100, 0.5, s),
        random_bw(300, 300, 0.3, s),
        random_bw(1000, 1000, 0.7, s),
        random_bw(1000, 1000, 0.95, s),
    ]);
}

#[test]
#[ignore = "the scale suite: a release build, run by .ci/run as its own step"]
fn products_of_many_components() {
    let cases = [grid_of_squares(33), grid_of_squares(333)];
    run_cases(&cases);
    // The ordered walk of a product defers what it cannot hold.
    let dir = TempDir::new().expect("a temporary folder");
    for (index, case) in cases.iter().enumerate() {
        let file = write_case(dir.path(), index, case);
        let listed = run_limited(
            case,
            &["list", "-q", "--ordered", "--limit", "3", path(&file)],
        );
        assert!(check_printed(case, &String::from_utf8_lossy(&listed.stdout)) <= 3);
    }
}

#[test]
#[ignore = "the scale suite: a release build, run by .ci/run as its own step"]
fn full_and_empty_grids() {
    let full = |n: usize| picture_case(format!("full {n}x{n}"), n, n, &vec![true; n * n]);
    let empty = |n: usize| picture_case(format!("empty {n}x{n}"), n, n, &vec![false; n * n]);
    run_cases(&[full(1000), empty(1000), full(4096)]);
}

#[test]
#[ignore = "the scale suite: a release build, run by .ci/run as its own step"]
fn colour_pictures() {
    let s = seed();
    run_cases(&[
        random_color(100, 100, 2, s),
        random_color(200, 200, 3, s),
        random_color(400, 400, 16, s),
    ]);
}

/// Sends `signal` to a run of `args` after `after`; it must end within [`GRACE`], exit 130,
/// and print only valid solutions.
fn signalled(case: &Case, file: &Path, args: &[&str], signal: &str, after: Duration) {
    let mut run = nonoenum(args);
    let _ = run.arg(file).env_remove("RUST_BACKTRACE");
    let (output, killed, took) = common::signalled(&mut run, signal, after);
    assert!(killed);
    assert_eq!(output.status.code(), Some(130), "{}: {args:?}", case.name);
    assert!(
        took <= GRACE,
        "{}: {args:?} ended {took:?} after {signal}",
        case.name
    );
    let _ = check_printed(case, &String::from_utf8_lossy(&output.stdout));
}

#[test]
#[ignore = "the scale suite: a release build, run by .ci/run as its own step"]
fn signals_stop_every_search_at_scale() {
    let dir = TempDir::new().expect("a temporary folder");
    let big = random_bw(1000, 1000, 0.7, seed());
    let big_file = write_case(dir.path(), 0, &big);
    let perm = permutation(2000);
    let perm_file = write_case(dir.path(), 1, &perm);
    let after = Duration::from_millis(1500);
    for strategy in ["plain", "probe", "learn", "both"] {
        let args = ["solve", "-q", "--strategy", strategy];
        signalled(&big, &big_file, &args, "-INT", after);
        signalled(&perm, &perm_file, &args, "-TERM", after);
    }
    signalled(&big, &big_file, &["count", "-q"], "-TERM", after);
    signalled(
        &perm,
        &perm_file,
        &["list", "-q", "--limit", "2"],
        "-INT",
        after,
    );
}
