//! Tests of splitting: parts that cover every solution once, in search order, whatever the
//! threads; packing; sizing; checksums; cancelling.

use std::ops::Range;
use std::time::{Duration, Instant};

use super::pack::pack;
use super::splitter::Splitter;
use super::*;
use crate::grid::Grid;
use crate::puzzle::Clue;
use crate::rng::SplitMix;
use crate::search::{Solver, SolverOptions};

/// The cancel flag of splits that run to their end.
static NOT_CANCELLED: AtomicBool = AtomicBool::new(false);

/// Every clue `1` on an `n` x `n` grid: the `n!` permutation matrices.
fn perm(n: usize) -> Puzzle {
    let clues = || vec![Clue(vec![1]); n];
    Puzzle::new(clues(), clues()).expect("valid")
}

fn count(puzzle: &Puzzle) -> u64 {
    let outcome = Solver::new(puzzle, SolverOptions::default())
        .count()
        .expect("runs");
    assert!(outcome.exhausted);
    outcome.solutions
}

#[test]
fn parts_cover_every_solution_once() {
    let puzzle = perm(6);
    for wanted in [1, 2, 5, 16, 40] {
        let parts = split(&puzzle, wanted, &NOT_CANCELLED).expect("splits");
        assert!(parts.len() >= wanted.min(720), "{wanted}: {}", parts.len());
        let mut seen = std::collections::HashSet::new();
        let mut total = 0;
        for part in &parts {
            let part_puzzle = part.puzzle(&puzzle);
            let (solutions, outcome) = Solver::new(&part_puzzle, SolverOptions::default())
                .find(u64::MAX)
                .expect("runs");
            assert!(outcome.exhausted);
            total += solutions.len();
            for grid in solutions {
                assert!(seen.insert(grid.render()), "a solution is in two parts");
            }
        }
        assert_eq!(total, 720, "{wanted} parts");
    }
}

/// Colour parts cover every solution once too, in the order of the one-thread search.
#[test]
fn colour_parts_cover_every_solution_once_in_search_order() {
    let puzzle = crate::test_strategies::colour_bands(2, 3);
    let one_thread = SolverOptions {
        threads: 1,
        ..SolverOptions::default()
    };
    let (whole, _) = Solver::new(&puzzle, one_thread.clone())
        .find(u64::MAX)
        .expect("runs");
    assert_eq!(whole.len(), 36);
    for wanted in [1, 3, 8, 20] {
        let parts = split(&puzzle, wanted, &NOT_CANCELLED).expect("splits");
        assert!(parts.len() >= wanted, "{wanted}: {}", parts.len());
        let mut listed = Vec::new();
        for part in &parts {
            let (solutions, outcome) = Solver::new(&part.puzzle(&puzzle), one_thread.clone())
                .find(u64::MAX)
                .expect("runs");
            assert!(outcome.exhausted);
            listed.extend(solutions);
        }
        assert_eq!(listed, whole, "{wanted} parts");
    }
}

#[test]
fn pack_makes_the_largest_run_as_small_as_runs_allow() {
    let sum = |sizes: &[f64], runs: &[Range<usize>]| {
        runs.iter()
            .map(|r| sizes[r.clone()].iter().sum::<f64>())
            .fold(0.0, f64::max)
    };
    let sizes = [9.0, 1.0, 1.0, 1.0, 1.0, 1.0, 5.0, 4.0, 1.0, 3.0];
    let runs = pack(&sizes, 3);
    assert_eq!(runs, [0..2, 2..7, 7..10]);
    assert_eq!(sum(&sizes, &runs), 10.0);
    // Exactly as many runs as asked, covering every size in order, also when a run of
    // one is forced at the end.
    for groups in 1..=12 {
        let runs = pack(&sizes, groups);
        assert_eq!(runs.len(), groups.min(sizes.len()));
        assert_eq!(runs.first().map(|r| r.start), Some(0));
        assert_eq!(runs.last().map(|r| r.end), Some(sizes.len()));
        assert!(
            runs.windows(2)
                .all(|w| w[0].end == w[1].start && !w[1].is_empty())
        );
    }
    assert_eq!(pack(&[1.0; 4], 4), [0..1, 1..2, 2..3, 3..4]);
    assert_eq!(pack(&[], 4), [] as [Range<usize>; 0]);
}

/// Balanced parts hold every solution once, in the order of the one-thread search that
/// probes at every node (whose branching the split follows).
#[test]
fn balanced_parts_cover_every_solution_once_in_search_order() {
    let puzzle = perm(6);
    let one_thread = SolverOptions {
        threads: 1,
        probing: crate::search::Probing::Always,
        ..SolverOptions::default()
    };
    let list = |puzzle: &Puzzle| {
        let (solutions, outcome) = Solver::new(puzzle, one_thread.clone())
            .find(u64::MAX)
            .expect("runs");
        assert!(outcome.exhausted);
        solutions
    };
    let whole = list(&puzzle);
    for (wanted, per_part) in [(1, 8), (3, 8), (10, 4), (40, 8), (1000, 2)] {
        let parts = split_balanced(&puzzle, wanted, per_part, &NOT_CANCELLED).expect("splits");
        assert_eq!(parts.len(), wanted.min(720), "{wanted} parts");
        let listed: Vec<_> = parts
            .iter()
            .flatten()
            .flat_map(|subtree| list(&subtree.puzzle(&puzzle)))
            .collect();
        assert_eq!(listed, whole, "{wanted} parts of {per_part} subtrees");
    }
}

/// The parts are the same whichever threads size the nodes, and however many there are.
/// A split whose sizing time is spent cuts only as many subtrees as parts, of shared
/// estimates, and they still hold every solution once.
#[test]
fn a_split_out_of_sizing_time_still_covers_every_solution_once() {
    let puzzle = perm(7);
    let sizing = Sizing::Measured {
        fewest: 5,
        most: 80,
    };
    let cut = split_within(&puzzle, 80, sizing, Duration::ZERO, &NOT_CANCELLED).expect("splits");
    assert!(cut.sizing_stopped);
    let subtrees = cut.parts;
    assert!(
        (5..5 + 2 * EXPAND_AT_ONCE).contains(&subtrees.len()),
        "{} subtrees",
        subtrees.len()
    );
    assert!(
        subtrees
            .iter()
            .all(|p| p.estimate.is_finite() && p.estimate > 0.0)
    );
    let counts: Vec<u64> = subtrees.iter().map(|p| count(&p.puzzle(&puzzle))).collect();
    assert_eq!(counts.iter().sum::<u64>(), 5040, "{counts:?}");
    let sizes: Vec<f64> = subtrees.iter().map(|p| p.estimate).collect();
    assert_eq!(pack(&sizes, 5).len(), 5);
}

#[test]
fn parts_do_not_depend_on_the_threads() {
    let mut rng = crate::rng::SplitMix(7);
    let cells: Vec<bool> = (0..144).map(|_| rng.chance(35, 100)).collect();
    let puzzle = Puzzle::from_picture(12, 12, &cells).expect("a picture");
    let split_on = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a pool");
        pool.install(|| split_balanced(&puzzle, 16, 4, &NOT_CANCELLED).expect("splits"))
    };
    let one = split_on(1);
    assert!(one.iter().flatten().count() >= 16);
    assert_eq!(split_on(3), one);
    assert_eq!(split_on(8), one);
}

/// Where the split's work is a small share of the tree's, it cuts more subtrees than asked
/// for, up to [`MOST_GROWTH`] times as many, the same whatever the threads, and they still hold
/// every solution once; where it is not, it cuts those asked for.
#[test]
fn a_cheap_split_cuts_more_subtrees_the_same_on_any_threads() {
    let cut_on = |puzzle: &Puzzle, parts: usize, threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a pool");
        let cut = pool.install(|| cut_parts(puzzle, parts, 16, &NOT_CANCELLED).expect("splits"));
        assert!(!cut.sizing_stopped);
        cut.parts
    };
    let subtrees = |parts: &[Vec<Part>]| parts.iter().flatten().count();
    let dear = cut_on(&perm(7), 4, 2);
    assert_eq!((dear.len(), subtrees(&dear)), (4, 64));
    // One part: the root alone, which no sizing needs.
    let whole = cut_on(&perm(9), 1, 2);
    assert_eq!((whole.len(), subtrees(&whole)), (1, 1));
    assert!(whole[0][0].decisions.is_empty());

    let puzzle = perm(9);
    let one = cut_on(&puzzle, 2, 1);
    assert_eq!(one.len(), 2);
    let grown = subtrees(&one);
    assert!((33..=32 * MOST_GROWTH).contains(&grown), "{grown} subtrees");
    assert_eq!(cut_on(&puzzle, 2, 3), one);
    let counts = one.iter().flatten().map(|p| count(&p.puzzle(&puzzle)));
    assert_eq!(counts.sum::<u64>(), 362_880);
}

#[test]
fn a_puzzle_with_no_solution_is_one_part() {
    // 2x2 with row clues 2, 0 and column clues 2, 0: the totals agree, no grid fits.
    let puzzle = Puzzle::new(
        vec![Clue(vec![2]), Clue(vec![])],
        vec![Clue(vec![2]), Clue(vec![])],
    )
    .expect("well formed");
    let parts = split(&puzzle, 8, &NOT_CANCELLED).expect("splits");
    assert_eq!(parts.len(), 1);
    assert_eq!(count(&parts[0].puzzle(&puzzle)), 0);
    // 6x2 whose root propagation leaves open, every branch then dying: one part too, where
    // there were none.
    let rows = [1, 1, 0, 1, 1, 0].map(|n| Clue(if n == 0 { vec![] } else { vec![n] }));
    let puzzle = Puzzle::new(rows.to_vec(), vec![Clue(vec![2]), Clue(vec![1, 1])]).expect("ok");
    for sizing in [
        Sizing::UnknownCells,
        Sizing::Measured { fewest: 3, most: 3 },
    ] {
        let parts = split_by(&puzzle, 3, sizing, &NOT_CANCELLED).expect("splits");
        assert_eq!(parts.len(), 1, "{sizing:?}");
        assert_eq!(count(&parts[0].puzzle(&puzzle)), 0);
    }
}

/// One part asked for: the root, never branched, still gets a finite estimate (it was
/// infinite, which a manifest wrote as `null`), solved by propagation or not, by either
/// sizing.
#[test]
fn one_part_has_a_finite_estimate() {
    let solved = Puzzle::new(vec![Clue(vec![2]); 2], vec![Clue(vec![2]); 2]).expect("ok");
    for puzzle in [solved, perm(5)] {
        let parts = split(&puzzle, 1, &NOT_CANCELLED).expect("splits");
        assert_eq!(parts.len(), 1);
        assert_eq!(parts[0].estimate, 1.0);
        let parts = split_by(&puzzle, 1, Sizing::UnknownCells, &NOT_CANCELLED).expect("splits");
        assert_eq!(parts[0].estimate, parts[0].unknown as f64);
    }
}

#[test]
fn checksums_tell_clues_and_givens_apart() {
    let puzzle = perm(4);
    let parts = split(&puzzle, 4, &NOT_CANCELLED).expect("splits");
    let first = parts[0].puzzle(&puzzle);
    assert_eq!(clue_checksum(&first), clue_checksum(&puzzle));
    assert_ne!(givens_checksum(&first), givens_checksum(&puzzle));
    assert_ne!(clue_checksum(&perm(5)), clue_checksum(&puzzle));
    let mut reversed = first.clone();
    reversed.givens.reverse();
    assert_eq!(givens_checksum(&reversed), givens_checksum(&first));
}

/// A flag raised before the split starts stops it in the root's propagation, even on a
/// 100x100 grid, whichever way the nodes are sized.
#[test]
fn a_raised_flag_cancels_at_once() {
    let puzzle = perm(100);
    let cancel = AtomicBool::new(true);
    let start = Instant::now();
    assert!(matches!(
        split(&puzzle, 64, &cancel),
        Err(SolveError::Cancelled)
    ));
    assert!(matches!(
        split_balanced(&puzzle, 16, SUBTREES_PER_PART, &cancel),
        Err(SolveError::Cancelled)
    ));
    assert!(matches!(
        split_by(&puzzle, 64, Sizing::UnknownCells, &cancel),
        Err(SolveError::Cancelled)
    ));
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
}

/// A flag raised from another thread while nodes are split and sized ends the split
/// within a second (a 16x16 permutation puzzle takes 40 s to split into 16 parts).
#[test]
fn a_flag_raised_midway_cancels_within_a_second() {
    let puzzle = perm(16);
    let cancel = AtomicBool::new(false);
    let late = std::thread::scope(|scope| {
        let splitting = scope.spawn(|| {
            let result = split_balanced(&puzzle, 64, SUBTREES_PER_PART, &cancel);
            (result, Instant::now())
        });
        std::thread::sleep(Duration::from_millis(200));
        cancel.store(true, Memory::Relaxed);
        let raised_at = Instant::now();
        let (result, ended_at) = splitting.join().expect("no panic");
        assert!(matches!(result, Err(SolveError::Cancelled)), "{result:?}");
        ended_at.saturating_duration_since(raised_at)
    });
    assert!(
        late < Duration::from_secs(1),
        "ended {late:?} after the flag"
    );
}

/// The work of the whole subtree under `grid`, measured node by node.
fn exact_work(
    splitter: &mut Splitter<'_, Puzzle>,
    grid: Grid,
    memo: Option<&SealedMemo<Grid>>,
) -> f64 {
    let (choice, cost) = splitter.measure(grid, memo).expect("not cancelled");
    match choice {
        Choice::Branch {
            children,
            memo: next,
            ..
        } => {
            cost + children
                .into_iter()
                .map(|child| exact_work(splitter, child, next.as_deref()))
                .sum::<f64>()
        }
        _ => cost,
    }
}

#[test]
fn stratified_sizes_are_unbiased() {
    let puzzle = perm(7);
    let root = propagated_root_until(&puzzle, &|| false)
        .expect("runs")
        .expect("not stopped")
        .expect("consistent");
    let (measured, spare) = (Measured::new(), Mutex::new(Vec::new()));
    let no_deadline = Instant::now() + Duration::from_secs(1 << 20);
    let keys = (1, no_deadline);
    let mut splitter = Splitter::new(&puzzle, &NOT_CANCELLED, (&measured, &spare), keys);
    let exact = exact_work(&mut splitter, root.clone(), None);
    assert!(
        exact > 100.0 * f64::from(BUDGET),
        "the breadth-first search would finish"
    );
    let draws = 40u32;
    let estimates: Vec<f64> = (0..draws)
        .map(|seed| {
            splitter.seed = SplitMix(u64::from(seed)).next();
            splitter.estimate(&root, None).expect("not cancelled")
        })
        .collect();
    let mean = estimates.iter().sum::<f64>() / f64::from(draws);
    assert!((mean / exact - 1.0).abs() < 0.1, "{mean} against {exact}");
    assert!(
        estimates.iter().any(|&e| e != estimates[0]),
        "the draws do not differ"
    );
}
