//! No solution is missed and none is made up, least of all by the search: random clue sets (each
//! line's clue drawn on its own, not taken from one picture, so most sets have no solution)
//! counted by nonoenum with 1 and 2 threads, probing on and off, against brute force over every
//! grid. The count must be exact, 0 included, and `solve`'s verdict (from the first two
//! solutions) must never say `unique` wrongly. Then puzzles that line propagation cannot refute
//! but that have no solution: only the search can tell, and `solve` says `no solution`.

use nonoenum::{Clue, Engine, Probing, Puzzle, Solver, SolverOptions};
use proptest::prelude::*;

use crate::common::nonoenum;

/// The block lengths of a line.
fn blocks(cells: impl IntoIterator<Item = bool>) -> Vec<u32> {
    let mut out = Vec::new();
    let mut run = 0;
    for filled in cells.into_iter().chain([false]) {
        if filled {
            run += 1;
        } else if run > 0 {
            out.push(run);
            run = 0;
        }
    }
    out
}

/// The number of grids that fit every clue, by brute force: each row takes, in turn, each
/// bitmask of its width that fits its clue, and a column whose cells so far cannot begin its
/// clue cuts the enumeration short. A grid counts when every column fits exactly.
fn brute_force(rows: &[Vec<u32>], cols: &[Vec<u32>]) -> u64 {
    let w = cols.len();
    let fits: Vec<Vec<u32>> = rows
        .iter()
        .map(|clue| {
            (0..1u32 << w)
                .filter(|mask| blocks((0..w).map(|c| mask >> c & 1 == 1)) == *clue)
                .collect()
        })
        .collect();
    // Each column's progress: blocks finished, and the length of the block being read.
    let start = vec![(0usize, 0u32); w];
    let mut count = 0;
    fn walk(fits: &[Vec<u32>], cols: &[Vec<u32>], columns: &[(usize, u32)], count: &mut u64) {
        let Some((options, rest)) = fits.split_first() else {
            let done = |(c, &(finished, run)): (usize, &(usize, u32))| {
                let clue = &cols[c];
                match run {
                    0 => finished == clue.len(),
                    _ => finished + 1 == clue.len() && clue[finished] == run,
                }
            };
            *count += u64::from(columns.iter().enumerate().all(done));
            return;
        };
        'rows: for &mask in options {
            let mut next = columns.to_vec();
            for (c, (finished, run)) in next.iter_mut().enumerate() {
                let clue = &cols[c];
                if mask >> c & 1 == 1 {
                    *run += 1;
                    if clue.get(*finished).is_none_or(|&len| *run > len) {
                        continue 'rows;
                    }
                } else if *run > 0 {
                    if clue[*finished] != *run {
                        continue 'rows;
                    }
                    *finished += 1;
                    *run = 0;
                }
            }
            walk(rest, cols, &next, count);
        }
    }
    walk(&fits, cols, &start, &mut count);
    count
}

/// Clue lines in the plain format (`0` for an empty line) as lists of block lengths.
fn parse(lines: &[&str]) -> Vec<Vec<u32>> {
    lines
        .iter()
        .map(|line| {
            line.split_whitespace()
                .map(|n| n.parse().expect("a number"))
                .filter(|&n| n > 0)
                .collect()
        })
        .collect()
}

fn puzzle(rows: &[Vec<u32>], cols: &[Vec<u32>]) -> Puzzle {
    let clues = |lines: &[Vec<u32>]| lines.iter().cloned().map(Clue).collect();
    Puzzle::new(clues(rows), clues(cols)).expect("clues that fit their lines, equal totals")
}

/// Probing at every node (`true`: these puzzles are small enough for the default to probe at
/// none) or at none.
fn every_node_or_none(probing: bool) -> Probing {
    if probing {
        Probing::Always
    } else {
        Probing::Never
    }
}

/// Checks nonoenum's count, and `solve`'s view of it, against `expected`.
fn check(puzzle: &Puzzle, expected: u64, threads: usize, probing: bool) -> Result<(), String> {
    let options = SolverOptions {
        threads,
        probing: every_node_or_none(probing),
        ordered: false,
        restarts: true,
        engine: Default::default(),
    };
    let outcome = Solver::new(puzzle, options.clone())
        .count()
        .map_err(|e| e.to_string())?;
    if !outcome.exhausted || outcome.solutions != expected {
        return Err(format!(
            "count {} (brute force {expected})",
            outcome.solutions
        ));
    }
    // `solve` looks for two solutions: none, one (`unique`) or two (`multiple`), with each
    // search and with both racing.
    for engine in [Engine::Probe, Engine::Learn, Engine::Both] {
        let options = SolverOptions {
            engine,
            ..options.clone()
        };
        let (found, outcome) = Solver::new(puzzle, options)
            .find(2)
            .map_err(|e| e.to_string())?;
        let verdict = found.len() as u64;
        if verdict != expected.min(2) || (verdict < 2 && !outcome.exhausted) {
            return Err(format!(
                "solve ({engine:?}) found {verdict} (brute force {expected})"
            ));
        }
        for grid in &found {
            puzzle
                .check_grid(&grid.to_cells())
                .map_err(|e| format!("a solution breaks a clue: {e}"))?;
        }
    }
    Ok(())
}

/// Random clue sets of up to 5x5 whose row and column totals agree (the only ones that are
/// well-formed puzzles): each line's clue is the blocks of a random line of its own.
fn clue_sets() -> impl Strategy<Value = (Vec<Vec<u32>>, Vec<Vec<u32>>)> {
    (1usize..=5, 1usize..=5, 0.25f64..0.75)
        .prop_flat_map(|(h, w, density)| {
            let line = move |len| proptest::collection::vec(proptest::bool::weighted(density), len);
            (
                proptest::collection::vec(line(w), h),
                proptest::collection::vec(line(h), w),
            )
        })
        .prop_map(|(rows, cols)| {
            let clues = |lines: Vec<Vec<bool>>| lines.into_iter().map(blocks).collect::<Vec<_>>();
            (clues(rows), clues(cols))
        })
        .prop_filter("row and column totals agree", |(rows, cols)| {
            rows.iter().flatten().sum::<u32>() == cols.iter().flatten().sum::<u32>()
        })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 300,
        max_global_rejects: 100_000,
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_clue_sets_count_as_brute_force_does((rows, cols) in clue_sets(), probing: bool) {
        let puzzle = puzzle(&rows, &cols);
        let expected = brute_force(&rows, &cols);
        for threads in [1, 2] {
            if let Err(problem) = check(&puzzle, expected, threads, probing) {
                prop_assert!(false, "{threads} threads, probing {probing}: {problem}\n{rows:?}\n{cols:?}");
            }
        }
    }
}

/// A fixed sweep of the same kind, 3x3 to 6x6, from a seeded generator. It also shows that most
/// random clue sets have no solution, so that these tests mostly test refutation.
#[test]
fn a_seeded_sweep_is_mostly_unsatisfiable_and_always_exact() {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move |below: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % below
    };
    let mut tally = [0u32; 3]; // none, one, several
    let mut sets = 0;
    while sets < 400 {
        let (h, w) = (3 + next(4) as usize, 3 + next(4) as usize);
        let density = 25 + next(50);
        let mut line = |len: usize| blocks((0..len).map(|_| next(100) < density));
        let rows: Vec<Vec<u32>> = (0..h).map(|_| line(w)).collect();
        let cols: Vec<Vec<u32>> = (0..w).map(|_| line(h)).collect();
        if rows.iter().flatten().sum::<u32>() != cols.iter().flatten().sum::<u32>() {
            continue;
        }
        sets += 1;
        let expected = brute_force(&rows, &cols);
        tally[expected.min(2) as usize] += 1;
        let puzzle = puzzle(&rows, &cols);
        for (threads, probing) in [(1, true), (2, true), (2, false)] {
            if let Err(problem) = check(&puzzle, expected, threads, probing) {
                panic!("{threads} threads, probing {probing}: {problem}\n{rows:?}\n{cols:?}");
            }
        }
    }
    eprintln!(
        "{sets} random clue sets: {} without solution, {} unique, {} with several",
        tally[0], tally[1], tally[2]
    );
    assert!(
        tally[0] >= 200,
        "{tally:?}: expected mostly unsatisfiable sets"
    );
    assert!(tally[1] >= 10 && tally[2] >= 10, "{tally:?}");
}

/// Puzzles with no solution that line propagation at the root does not refute: `(rows, cols,
/// probing refutes the root)`. The first two were found among random 5x5 clue sets; the others
/// among about two million random 9x9 to 10x10 sets, as the rare ones where even probing every
/// cell at the root refutes nothing, so that the search has to branch.
const UNREFUTED: [(&[&str], &[&str], bool); 5] = [
    (
        &["2", "1", "1", "1 1", "1 2"],
        &["2", "1 1", "2", "1 1", "1"],
        true,
    ),
    (
        &["1 1", "2", "1 1", "2", "1 1"],
        &["3", "2", "2", "1", "1 1"],
        true,
    ),
    (
        &[
            "1 1 2", "1 2", "1 1 1", "1 2", "1 1 1", "2 2", "1 1 1", "2 1 1", "1 1 1", "1 3",
        ],
        &[
            "1 2 2", "2 1", "2 2", "1 1 1 1", "1 2 1", "1 3 1", "1 1", "1 1", "2 2 1",
        ],
        false,
    ),
    (
        &[
            "1", "1 1 1", "1 1 1 1", "1 1 1 1", "1 1 3", "1 1 1 2", "1 1", "1 3", "1 1", "1 1 1",
        ],
        &[
            "1 1 2", "1 2", "1 1 1", "2 1 2", "1", "1 3", "1 2", "1 1 2", "1 1 2", "1 1",
        ],
        false,
    ),
    (
        &[
            "1 2", "1 1 1 1", "2", "1 1", "4", "2 1", "1 1", "1 1 1 1", "1 2",
        ],
        &[
            "2 2", "3 1", "1 2", "1", "2", "1 1 1 1", "2 1", "1 1 1", "1 1", "1",
        ],
        false,
    ),
];

#[test]
fn puzzles_only_the_search_refutes_have_no_solution() {
    let tmp = tempfile::TempDir::new().expect("temp dir");
    for (i, &(rows, cols, probing_refutes)) in UNREFUTED.iter().enumerate() {
        let (rows, cols) = (parse(rows), parse(cols));
        assert_eq!(brute_force(&rows, &cols), 0, "puzzle {i}");
        let puzzle = puzzle(&rows, &cols);
        let options = |probing| SolverOptions {
            threads: 1,
            probing: every_node_or_none(probing),
            ordered: false,
            restarts: false,
            engine: Default::default(),
        };
        let root = Solver::new(&puzzle, options(false)).root().expect("runs");
        let root = root.expect("line propagation does not refute the root");
        assert!(
            root.unknown_count() > 0,
            "puzzle {i}: propagation decides it"
        );
        // Without probing, the search branches before it finds every branch dead.
        // Without completion checks, which would cut the root of a puzzle without a solution.
        let unchecked =
            |probing| Solver::new(&puzzle, options(probing)).with_completion_checks(false);
        let plain = unchecked(false).count().expect("runs");
        assert!(
            plain.stats.nodes >= 3,
            "puzzle {i}: {} nodes",
            plain.stats.nodes
        );
        let probed = unchecked(true).count().expect("runs");
        assert_eq!(probed.stats.nodes >= 3, !probing_refutes, "puzzle {i}");
        for threads in [1, 2] {
            for probing in [true, false] {
                check(&puzzle, 0, threads, probing).unwrap_or_else(|e| panic!("puzzle {i}: {e}"));
            }
        }
        let file = tmp.path().join(format!("unrefuted-{i}.txt"));
        std::fs::write(&file, nonoenum::format::plain::write(&puzzle)).expect("write");
        for args in [
            &["-t", "1"][..],
            &["-t", "2"],
            &["--strategy=plain", "-t", "2"],
        ] {
            let output = nonoenum(["solve"])
                .args(args)
                .arg(&file)
                .output()
                .expect("runs");
            assert_eq!(
                output.status.code(),
                Some(1),
                "puzzle {i} {args:?}: {output:?}"
            );
            assert_eq!(String::from_utf8_lossy(&output.stdout), "no solution\n");
        }
    }
}
