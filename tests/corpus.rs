//! Corpus conformance: the solver gives the known solution count of every bundled puzzle and of
//! the counted puzzles in `../shared/puzzles`, and solves tournament puzzles correctly.
//!
//! Tests that read `../shared` skip (with a message on standard error) where it is missing.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use nonoenum::format::{read_givens, read_puzzles, tournament};
use nonoenum::{Clue, Engine, Probing, Puzzle, Solver, SolverOptions};

/// The bundled puzzles.
const BUNDLED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/puzzles");
/// The shared corpus (not part of the crate; may be missing).
const SHARED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/puzzles");

/// Search settings as `(threads, probing)`.
type Config = (usize, Probing);

/// 1 and 2 threads, probing at every node, at none, and where it pays.
const ALL: &[Config] = &[
    (1, Probing::Always),
    (2, Probing::Always),
    (1, Probing::Never),
    (2, Probing::Never),
    (2, Probing::Adaptive),
];
/// 1 and 2 threads, without probing (much faster per node in a debug build).
const NO_PROBE: &[Config] = &[(1, Probing::Never), (2, Probing::Never)];
/// 1 and 2 threads, with probing (without it, some puzzles take minutes).
const PROBE: &[Config] = &[(1, Probing::Always), (2, Probing::Adaptive)];
/// 2 threads with probing where it pays, once.
const ONCE: &[Config] = &[(2, Probing::Adaptive)];

/// A file of the shared corpus, or `None` (after saying so) when the corpus is missing.
fn shared(relative: &str) -> Option<PathBuf> {
    let root = Path::new(SHARED);
    if !root.is_dir() {
        eprintln!("skipping: the shared corpus {} is missing", root.display());
        return None;
    }
    let path = root.join(relative);
    assert!(path.is_file(), "{} is missing", path.display());
    Some(path)
}

/// Every puzzle of a file, format detected.
fn load(path: &Path) -> Vec<Puzzle> {
    let bytes =
        std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    read_puzzles(&bytes, None, Some(path)).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `puzzle` with the givens of a givens file added.
fn with_givens(mut puzzle: Puzzle, givens: &Path) -> Puzzle {
    let bytes =
        std::fs::read(givens).unwrap_or_else(|e| panic!("cannot read {}: {e}", givens.display()));
    let givens = read_givens(&bytes).unwrap_or_else(|e| panic!("{}: {e}", givens.display()));
    puzzle.givens.extend(givens);
    puzzle.check().expect("givens fit the puzzle");
    puzzle
}

/// The exact solution count under one configuration.
fn count(puzzle: &Puzzle, (threads, probing): Config) -> u64 {
    let outcome = Solver::new(
        puzzle,
        SolverOptions {
            threads,
            probing,
            ordered: false,
            restarts: true,
            engine: Default::default(),
        },
    )
    .count()
    .expect("the search runs");
    assert!(outcome.exhausted, "the count ran to the end");
    outcome.solutions
}

/// Checks the count of a puzzle under every configuration; when it is small, also lists the
/// solutions and checks that each fits the clues and the givens, that none repeats, and that
/// the designer's goal picture (of a `.non` file) is among them.
fn check_count(what: &str, puzzle: &Puzzle, expected: u64, configs: &[Config]) {
    for &config in configs {
        assert_eq!(count(puzzle, config), expected, "{what} with {config:?}");
    }
    if expected > 1000 {
        return;
    }
    // Listed by each search (and both racing), every solution once, the same set each time.
    let mut listed: Option<HashSet<Vec<bool>>> = None;
    for engine in [Engine::Probe, Engine::Learn, Engine::Both] {
        let seen = list_all(what, puzzle, expected, configs, engine);
        if let Some(first) = &listed {
            assert!(first == &seen, "{what}: {engine:?} lists other solutions");
        }
        listed = Some(seen);
    }
}

/// Lists every solution of a puzzle with `engine` and checks that there are `expected`, that
/// each fits the clues and the givens, that none repeats, and that the designer's goal
/// picture (of a `.non` file) is among them; returns them.
fn list_all(
    what: &str,
    puzzle: &Puzzle,
    expected: u64,
    configs: &[Config],
    engine: Engine,
) -> HashSet<Vec<bool>> {
    let options = SolverOptions {
        threads: 2,
        probing: if configs.iter().all(|&(_, p)| p == Probing::Never) {
            Probing::Never
        } else {
            Probing::Adaptive
        },
        ordered: false,
        restarts: true,
        engine,
    };
    let what = format!("{what} ({engine:?})");
    let (grids, outcome) = Solver::new(puzzle, options)
        .find(expected + 1)
        .expect("the search runs");
    assert!(outcome.exhausted, "{what}: listed to the end");
    assert_eq!(grids.len() as u64, expected, "{what}: listed solutions");
    let mut seen = HashSet::new();
    for grid in &grids {
        let cells = grid.to_cells();
        puzzle
            .check_grid(&cells)
            .unwrap_or_else(|e| panic!("{what}: a listed solution breaks a clue: {e}"));
        for g in &puzzle.givens {
            assert_eq!(
                cells[g.row * puzzle.width() + g.col],
                g.filled,
                "{what}: {g:?}"
            );
        }
        assert!(seen.insert(cells), "{what}: a solution listed twice");
    }
    if let Some(goal) = &puzzle.goal {
        assert!(
            seen.contains(goal),
            "{what}: the designer's goal is not listed"
        );
    }
    seen
}

/// Checks every puzzle of a file against its expected count (one per puzzle, in file order).
fn check_file(path: &Path, givens: Option<&Path>, expected: &[u64], configs: &[Config]) {
    let mut puzzles = load(path);
    if let Some(givens) = givens {
        puzzles = puzzles
            .into_iter()
            .map(|p| with_givens(p, givens))
            .collect();
    }
    assert_eq!(puzzles.len(), expected.len(), "{}: puzzles", path.display());
    for (k, (puzzle, &expected)) in puzzles.iter().zip(expected).enumerate() {
        let what = format!("{} puzzle {}", path.display(), k + 1);
        check_count(&what, puzzle, expected, configs);
    }
}

/// One test per bundled file: `name: "file" [+ "givens file"] => [counts]`.
macro_rules! bundled {
    ($($name:ident: $file:literal $(+ $givens:literal)? => $expected:expr;)*) => {
        /// Every bundled puzzle file a test covers (givens files included).
        const BUNDLED_FILES: &[&str] = &[$($file, $($givens,)?)*];
        $(
            #[test]
            fn $name() {
                let path = Path::new(BUNDLED).join($file);
                let givens: Option<PathBuf> = None $(.or(Some(Path::new(BUNDLED).join($givens))))?;
                check_file(&path, givens.as_deref(), &$expected, ALL);
            }
        )*
    };
}

bundled! {
    bundled_heart: "heart.txt" => [1];
    bundled_ambiguous: "ambiguous.txt" => [11];
    bundled_ambiguous_with_givens: "ambiguous.txt" + "ambiguous-givens.txt" => [1];
    bundled_mini_set: "mini-set.txt" => [1, 2];
    bundled_dancer: "dancer.non" => [1];
}

/// One test per shared file: `name: "file" [+ "givens file"] => count, configs;`.
macro_rules! shared {
    ($($name:ident: $file:literal $(+ $givens:literal)? => $expected:expr, $configs:expr;)*) => {
        $(
            #[test]
            fn $name() {
                let Some(path) = shared($file) else { return };
                let givens: Option<PathBuf> = None $(.or(shared($givens)))?;
                check_file(&path, givens.as_deref(), &[$expected], $configs);
            }
        )*
    };
}

shared! {
    shared_hakank_simple2: "counted/hakank-simple2.txt" => 2, ALL;
    shared_hakank_t2: "counted/hakank-t2.txt" => 2, ALL;
    shared_hakank_nonunique: "counted/hakank-nonunique.txt" => 43, ALL;
    shared_thomasr_ambiguous: "counted/thomasr-ambiguous.txt" => 20, ALL;
    shared_thomasr_ambiguous_puzzle: "counted/thomasr-ambiguousPuzzle.txt" => 70, ALL;
    shared_gchq2015_no_givens: "counted/gchq2015-no-givens.txt" => 4, ALL;
    shared_gchq2015_givens:
        "counted/gchq2015-no-givens.txt" + "counted/gchq2015-givens.txt" => 1, ALL;
    shared_perm6: "counted/perm6.txt" => 720, ALL;
    // With probing, 8! solutions take about 20 s in a debug build.
    shared_perm8: "counted/perm8.txt" => 40320, NO_PROBE;
    shared_random_8x8_s11: "counted/random-8x8-d0.3-s11.txt" => 5, ALL;
    shared_random_10x10_s12: "counted/random-10x10-d0.4-s12.txt" => 1, ALL;
    shared_random_12x12_s13: "counted/random-12x12-d0.35-s13.txt" => 16, ALL;
    shared_random_15x15_s14: "counted/random-15x15-d0.5-s14.txt" => 2, ALL;
    shared_random_20x20_s15: "counted/random-20x20-d0.5-s15.txt" => 6, ALL;
    shared_random_10x10_s21: "counted/random-10x10-d0.25-s21.txt" => 3147, NO_PROBE;
    shared_random_10x10_s21_probing: "counted/random-10x10-d0.25-s21.txt" => 3147, ONCE;
    shared_random_12x12_s22: "counted/random-12x12-d0.3-s22.txt" => 60, ALL;
    // Karate: without probing the search does not finish in minutes.
    shared_karate: "survey/bw-non/webpbn-06739.non" => 6, PROBE;
}

/// 215,183 solutions: about 20 s in a release build, many minutes in a debug one, so it runs
/// only under `cargo test --release`.
#[test]
fn shared_random_14x14_s23_release_only() {
    if cfg!(debug_assertions) {
        eprintln!("skipping random-14x14-d0.35-s23 (215183 solutions) in a debug build");
        return;
    }
    let Some(path) = shared("counted/random-14x14-d0.35-s23.txt") else {
        return;
    };
    check_file(&path, None, &[215_183], &[(2, Probing::Adaptive)]);
}

/// Every bundled file is covered by a test above, and EXPECTED.md names it.
#[test]
fn every_bundled_file_is_tested_and_documented() {
    let expected_md = std::fs::read_to_string(Path::new(BUNDLED).join("EXPECTED.md"))
        .expect("puzzles/EXPECTED.md");
    for entry in std::fs::read_dir(BUNDLED).expect("puzzles/") {
        let name = entry.expect("a directory entry").file_name();
        let name = name.to_str().expect("a UTF-8 name");
        if name == "EXPECTED.md" {
            continue;
        }
        // flag.g, a colour puzzle, is tested in crates/cli/tests/cli/color.rs; large/ below.
        let tested_elsewhere = name == "flag.g" || name == "large";
        assert!(
            BUNDLED_FILES.contains(&name) || tested_elsewhere,
            "puzzles/{name} has no test"
        );
        assert!(
            expected_md.contains(&format!("`{name}`")),
            "puzzles/EXPECTED.md does not list {name}"
        );
    }
}

/// Counts by brute force: every combination of row placements, pruned by column prefixes.
fn brute_force_count(puzzle: &Puzzle) -> u64 {
    fn placements(clue: &Clue, len: usize) -> Vec<Vec<bool>> {
        fn place(blocks: &[u32], line: &mut Vec<bool>, len: usize, out: &mut Vec<Vec<bool>>) {
            let Some((&first, rest)) = blocks.split_first() else {
                let mut done = line.clone();
                done.resize(len, false);
                out.push(done);
                return;
            };
            let first = first as usize;
            let start = line.len();
            let mut offset = 0;
            while start + offset + first <= len {
                let mark = line.len();
                line.extend(std::iter::repeat_n(false, offset));
                line.extend(std::iter::repeat_n(true, first));
                if rest.is_empty() || line.len() < len {
                    if !rest.is_empty() {
                        line.push(false);
                    }
                    place(rest, line, len, out);
                }
                line.truncate(mark);
                offset += 1;
            }
        }
        let mut out = Vec::new();
        place(clue.blocks(), &mut Vec::new(), len, &mut out);
        out
    }
    fn fits_prefix(column: &[bool], clue: &Clue, complete: bool) -> bool {
        let mut blocks: Vec<u32> = Vec::new();
        for (k, &filled) in column.iter().enumerate() {
            match (filled, k > 0 && column[k - 1]) {
                (true, true) => *blocks.last_mut().expect("a block is open") += 1,
                (true, false) => blocks.push(1),
                (false, _) => {}
            }
        }
        let want = clue.blocks();
        if complete {
            return blocks == want;
        }
        // A prefix: every block but the last closed one must match exactly; the last may be
        // still growing when the prefix ends filled.
        let open = column.last() == Some(&true);
        let Some((last, done)) = blocks.split_last() else {
            return true;
        };
        done.len() < want.len()
            && done.iter().zip(want).all(|(a, b)| a == b)
            && if open {
                *last <= want[done.len()]
            } else {
                *last == want[done.len()]
            }
    }
    fn search(puzzle: &Puzzle, rows: &[Vec<Vec<bool>>], chosen: &mut Vec<usize>) -> u64 {
        let depth = chosen.len();
        let complete = depth == puzzle.height();
        let fits = (0..puzzle.width()).all(|c| {
            let column: Vec<bool> = chosen
                .iter()
                .enumerate()
                .map(|(r, &k)| rows[r][k][c])
                .collect();
            fits_prefix(&column, &puzzle.col_clues[c], complete)
        });
        if !fits {
            return 0;
        }
        if complete {
            return 1;
        }
        let mut total = 0;
        for k in 0..rows[depth].len() {
            chosen.push(k);
            total += search(puzzle, rows, chosen);
            let _ = chosen.pop();
        }
        total
    }
    let rows: Vec<Vec<Vec<bool>>> = puzzle
        .row_clues
        .iter()
        .map(|clue| placements(clue, puzzle.width()))
        .collect();
    search(puzzle, &rows, &mut Vec::new())
}

/// The large bundled puzzles (made by `scripts/make-large-puzzles`) are as that script makes
/// them and documented; the random picture's count is checked once, the other two are long
/// runs to watch, beyond a test.
#[test]
fn large_bundled_puzzles_are_documented_and_the_random_one_has_8_solutions() {
    let expected_md = std::fs::read_to_string(Path::new(BUNDLED).join("EXPECTED.md"))
        .expect("puzzles/EXPECTED.md");
    let large = Path::new(BUNDLED).join("large");
    let mut names: Vec<String> = std::fs::read_dir(&large)
        .expect("puzzles/large/")
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .to_string_lossy()
                .into()
        })
        .collect();
    names.sort();
    let expected = [
        "random-100x100-d60-s1.txt",
        "rings-120x120.txt",
        "scatter-100x100-s7.txt",
    ];
    assert_eq!(names, expected);
    for name in expected {
        assert!(
            expected_md.contains(&format!("`large/{name}`")),
            "puzzles/EXPECTED.md does not list large/{name}"
        );
    }
    check_file(&large.join(expected[0]), None, &[8], ONCE);
}

/// The bundled counts agree with an enumeration that shares no code with the solver.
#[test]
fn bundled_counts_agree_with_brute_force() {
    let cases: [(&str, &[u64]); 3] = [
        ("ambiguous.txt", &[11]),
        ("heart.txt", &[1]),
        ("mini-set.txt", &[1, 2]),
    ];
    for (file, expected) in cases {
        let counts: Vec<u64> = load(&Path::new(BUNDLED).join(file))
            .iter()
            .map(brute_force_count)
            .collect();
        assert_eq!(counts, expected, "{file}");
    }
    // The brute force itself, on puzzles whose counts are known: n! permutation matrices.
    for n in 1..=5 {
        let ones = || vec![Clue(vec![1]); n];
        let puzzle = Puzzle::new(ones(), ones()).expect("valid");
        let factorial: u64 = (1..=n as u64).product();
        assert_eq!(brute_force_count(&puzzle), factorial, "perm{n}");
    }
}

/// The first 20 puzzles of a tournament set: each solution fits the clues, and a unique
/// puzzle's solution is the published one.
#[test]
fn tournament_taai2011_first_20() {
    let (Some(questions), Some(answers)) = (
        shared("tournament/question/taai2011.txt"),
        shared("tournament/solution/taai2011.txt"),
    ) else {
        return;
    };
    let puzzles = load(&questions);
    assert_eq!(puzzles.len(), 1000, "puzzles in taai2011");
    let text = std::fs::read_to_string(&answers).expect("the solution file");
    let solutions = tournament::parse_solutions(&text).expect("the solution file parses");
    assert_eq!(solutions.len(), 1000, "pictures in the solution file");
    let mut unique = 0;
    for (puzzle, (title, picture)) in puzzles.iter().zip(&solutions).take(20) {
        assert_eq!(puzzle.title.as_deref(), Some(title.as_str()));
        puzzle
            .check_grid(picture)
            .unwrap_or_else(|e| panic!("{title}: the published solution breaks a clue: {e}"));
        let options = SolverOptions {
            threads: 2,
            probing: Probing::Adaptive,
            ordered: false,
            restarts: true,
            engine: Default::default(),
        };
        let (grids, outcome) = Solver::new(puzzle, options)
            .find(2)
            .expect("the search runs");
        assert!(!grids.is_empty(), "{title}: no solution found");
        for grid in &grids {
            puzzle
                .check_grid(&grid.to_cells())
                .unwrap_or_else(|e| panic!("{title}: the solution breaks a clue: {e}"));
        }
        if grids.len() == 1 {
            assert!(outcome.exhausted, "{title}: the search ran to the end");
            assert_eq!(
                &grids[0].to_cells(),
                picture,
                "{title}: unique, yet not the published solution"
            );
            unique += 1;
        }
    }
    eprintln!("taai2011: {unique} of the first 20 puzzles are unique");
}
