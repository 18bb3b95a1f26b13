//! Tests of [`Solver::run_batched`]: the same solutions as [`Solver::run`], whole, each once,
//! exactly as many as a limit asks, in order when ordered.

use std::collections::HashSet;
use std::sync::atomic::Ordering;

use super::{Engine, Flow, Solver, SolverOptions};
use crate::color::{ColorGrid, ColorPuzzle};
use crate::grid::Grid;
use crate::puzzle::{Clue, Puzzle};

/// Every clue `1` on an `n` x `n` grid: the `n!` permutation matrices.
fn perm(n: usize) -> Puzzle {
    let clues = || vec![Clue(vec![1]); n];
    Puzzle::new(clues(), clues()).expect("valid")
}

pub(super) fn options(threads: usize, ordered: bool, engine: Engine) -> SolverOptions {
    SolverOptions {
        threads,
        ordered,
        engine,
        ..SolverOptions::default()
    }
}

/// A grid as text, rows then a newline each.
fn text(grid: &Grid, out: &mut Vec<u8>) {
    out.extend_from_slice(grid.render().as_bytes());
}

/// A text writer with a blank line between grids, as `nonoenum list` prints.
struct Blank;

impl super::SolutionWriter<Grid> for Blank {
    fn write(&self, grid: &Grid, out: &mut Vec<u8>) {
        text(grid, out);
    }

    fn separator(&self) -> &[u8] {
        b"\n"
    }
}

/// The listing `run_batched` writes, and how many solutions it says it holds.
fn batched(puzzle: &Puzzle, options: SolverOptions, limit: Option<u64>) -> (String, u64) {
    let mut bytes = Vec::new();
    let mut counted = 0;
    let outcome = Solver::new(puzzle, options)
        .run_batched(&Blank, limit, |chunk, n| {
            bytes.extend_from_slice(chunk);
            counted += n;
            Flow::Continue
        })
        .expect("runs");
    assert_eq!(outcome.solutions, counted);
    (String::from_utf8(bytes).expect("UTF-8"), counted)
}

/// The grids of a listing, each whole and valid, none twice.
fn grids(listing: &str, puzzle: &Puzzle) -> Vec<String> {
    if listing.is_empty() {
        return Vec::new();
    }
    assert!(!listing.ends_with("\n\n") && !listing.starts_with('\n'));
    let grids: Vec<String> = listing
        .split("\n\n")
        .map(|g| g.trim_end_matches('\n').to_string())
        .collect();
    let mut seen = HashSet::new();
    for grid in &grids {
        let cells: Vec<bool> = grid
            .lines()
            .flat_map(|r| r.bytes().map(|b| b == b'#'))
            .collect();
        assert_eq!(cells.len(), puzzle.height() * puzzle.width(), "{grid}");
        puzzle.check_grid(&cells).expect("a solution");
        assert!(seen.insert(grid.clone()), "twice:\n{grid}");
    }
    grids
}

/// Every solution of `run`, rendered, in its order.
fn plain_run(puzzle: &Puzzle, options: SolverOptions) -> Vec<String> {
    let mut found = Vec::new();
    let _ = Solver::new(puzzle, options)
        .run(|grid| {
            found.push(grid.render());
            Flow::Continue
        })
        .expect("runs");
    found
}

#[test]
fn batches_hold_every_solution_once_on_any_thread_count() {
    let puzzle = perm(7);
    let mut expected = plain_run(&puzzle, options(1, false, Engine::Probe));
    expected.sort();
    assert_eq!(expected.len(), 5040);
    for threads in [1, 2, 4] {
        for engine in [Engine::Probe, Engine::Both] {
            let (listing, n) = batched(&puzzle, options(threads, false, engine), None);
            let mut got: Vec<String> = grids(&listing, &puzzle)
                .into_iter()
                .map(|g| g + "\n")
                .collect();
            got.sort();
            assert_eq!(n, 5040, "{threads} threads, {engine:?}");
            assert!(got == expected, "{threads} threads, {engine:?}");
        }
    }
}

#[test]
fn a_limit_gives_exactly_that_many_whole_solutions() {
    // perm8's text listing spans many batches on every thread.
    let puzzle = perm(8);
    for threads in [1, 2, 3] {
        for limit in [1, 2, 37, 1000, 40_319, 40_320, 50_000] {
            let (listing, n) =
                batched(&puzzle, options(threads, false, Engine::Probe), Some(limit));
            let want = limit.min(40_320);
            assert_eq!(n, want, "{threads} threads, limit {limit}");
            assert_eq!(grids(&listing, &puzzle).len() as u64, want);
        }
    }
    let (listing, n) = batched(&puzzle, options(2, false, Engine::Probe), Some(0));
    assert_eq!((listing.as_str(), n), ("", 0));
}

#[test]
fn ordered_batches_come_in_the_sequential_order() {
    let puzzle = perm(7);
    let sequential = plain_run(&puzzle, options(1, false, Engine::Probe));
    let whole = sequential.join("\n");
    for threads in [2, 4] {
        let (listing, _) = batched(&puzzle, options(threads, true, Engine::Probe), None);
        assert!(listing == whole, "{threads} threads: the order differs");
        let (listing, n) = batched(&puzzle, options(threads, true, Engine::Probe), Some(777));
        assert_eq!(n, 777);
        assert!(
            listing == sequential[..777].join("\n"),
            "{threads} threads, limit"
        );
    }
}

/// Tiny budgets make the workers hold solutions written ahead of their turn, pass them from
/// sink to sink and defer nodes all the time; the bytes still come in the sequential order.
/// In a 48x48 grid each solution takes 2,353 bytes, so that held batches fill and go on whole.
#[test]
fn ordered_batches_held_back_come_in_the_sequential_order() {
    let wide = |n: usize| {
        let clues = || {
            (0..48)
                .map(|i| Clue(if i < n { vec![1] } else { vec![] }))
                .collect()
        };
        Puzzle::new(clues(), clues()).expect("valid")
    };
    for puzzle in [perm(6), wide(6)] {
        held_back_in_order(&puzzle);
    }
}

fn held_back_in_order(puzzle: &Puzzle) {
    let sequential = plain_run(puzzle, options(1, false, Engine::Probe));
    for threads in [2, 3, 8] {
        for budget in [1, 5, 100, 100_000] {
            for limit in [None, Some(301)] {
                let mut bytes = Vec::new();
                let outcome = Solver::new(puzzle, options(threads, true, Engine::Probe))
                    .with_buffer_budget(budget)
                    .run_batched(&Blank, limit, |chunk, _| {
                        bytes.extend_from_slice(chunk);
                        Flow::Continue
                    })
                    .expect("runs");
                let listing = String::from_utf8(bytes).expect("UTF-8");
                let expected = sequential[..limit.map_or(720, |n| n as usize)].join("\n");
                assert!(
                    listing == expected,
                    "{threads} threads, budget {budget}, limit {limit:?}: the order differs"
                );
                assert_eq!(outcome.solutions, limit.unwrap_or(720));
            }
        }
    }
}

#[test]
fn the_collector_can_stop_and_the_search_can_be_cancelled() {
    let puzzle = perm(8);
    let solver = Solver::new(&puzzle, options(2, true, Engine::Probe));
    let cancel = solver.cancel_flag();
    let mut listing = Vec::new();
    let outcome = solver
        .run_batched(&Blank, None, |chunk, _| {
            listing.extend_from_slice(chunk);
            cancel.store(true, Ordering::Relaxed);
            Flow::Continue
        })
        .expect("runs");
    assert!(!outcome.exhausted);
    let listing = String::from_utf8(listing).expect("UTF-8");
    let got = grids(&listing, &puzzle);
    assert_eq!(got.len() as u64, outcome.solutions);
    assert!(got.len() < 40_320);
    let sequential = plain_run(&puzzle, options(1, false, Engine::Probe));
    assert!(
        listing == sequential[..got.len()].join("\n"),
        "not a prefix"
    );

    let mut calls = 0;
    let outcome = Solver::new(&puzzle, options(2, false, Engine::Probe))
        .run_batched(&Blank, None, |_, _| {
            calls += 1;
            Flow::Stop
        })
        .expect("runs");
    assert_eq!(calls, 1);
    assert!(!outcome.exhausted);
}

#[test]
fn a_writer_that_panics_stops_the_run_at_once() {
    // 9! = 362,880 solutions: a run that went on would call the writer for each.
    let puzzle = perm(9);
    for threads in [1, 2] {
        let calls = std::sync::atomic::AtomicU64::new(0);
        let panicking = |_: &Grid, _: &mut Vec<u8>| {
            calls.fetch_add(1, Ordering::Relaxed);
            panic!("a writer's bug");
        };
        let solver = Solver::new(&puzzle, options(threads, false, Engine::Probe));
        let outcome = solver.run_batched(&panicking, None, |_, _| Flow::Continue);
        let err = outcome
            .expect_err("the panic is the run's error")
            .to_string();
        assert!(err.contains("a writer's bug"), "{err}");
        let calls = calls.load(Ordering::Relaxed);
        assert!(
            calls <= 64,
            "{threads} threads: the writer was called {calls} times"
        );
    }
}

#[test]
fn more_threads_than_the_most_are_refused() {
    let puzzle = perm(3);
    let solver = Solver::new(
        &puzzle,
        options(super::MAX_THREADS + 1, false, Engine::Both),
    );
    let err = solver.run_batched(&Blank, None, |_, _| Flow::Continue);
    assert!(
        matches!(err, Err(super::SolveError::Threads { .. })),
        "{err:?}"
    );
    assert!(matches!(
        solver.count(),
        Err(super::SolveError::Threads { .. })
    ));
    // The most is taken (not run: a thousand threads may be more than a test machine allows).
    let most = Solver::new(&puzzle, options(super::MAX_THREADS, false, Engine::Probe));
    assert!(most.check_threads().is_ok());
}

#[test]
fn a_writer_that_writes_nothing_counts() {
    let puzzle = perm(8);
    for threads in [1, 2] {
        let nothing = |_: &Grid, _: &mut Vec<u8>| {};
        let mut counted = 0;
        let outcome = Solver::new(&puzzle, options(threads, false, Engine::Probe))
            .run_batched(&nothing, None, |bytes, n| {
                assert!(bytes.is_empty());
                counted += n;
                Flow::Continue
            })
            .expect("runs");
        assert_eq!((counted, outcome.solutions), (40_320, 40_320));
        assert!(outcome.exhausted);
    }
}

#[test]
fn a_grid_solved_by_propagation_and_colour_grids_are_batched() {
    let full = Puzzle::new(vec![Clue(vec![2]); 2], vec![Clue(vec![2]); 2]).expect("valid");
    let (listing, n) = batched(&full, options(2, false, Engine::Probe), None);
    assert_eq!((listing.as_str(), n), ("##\n##\n", 1));

    let colour = ColorPuzzle::from_bw(&perm(5));
    let chars = ['.', '#'];
    let writer = |grid: &ColorGrid, out: &mut Vec<u8>| {
        out.extend_from_slice(grid.render(&chars).as_bytes());
    };
    let mut bytes = Vec::new();
    let outcome = Solver::new(&colour, options(2, false, Engine::Both))
        .run_batched(&writer, None, |chunk, _| {
            bytes.extend_from_slice(chunk);
            Flow::Continue
        })
        .expect("runs");
    assert_eq!(outcome.solutions, 120);
    let text = String::from_utf8(bytes).expect("UTF-8");
    let distinct: HashSet<&[u8]> = text.as_bytes().chunks(5 * 6).collect();
    assert_eq!(distinct.len(), 120);
}

/// A collector that stops while the workers wait on a full channel must let them go: the
/// search returns (it used to wait forever for workers blocked on their send).
#[test]
fn a_collector_stopping_on_a_full_channel_ends_the_search() {
    let puzzle = perm(8);
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for threads in [2, 3] {
            let solver = Solver::new(&puzzle, options(threads, false, Engine::Probe));
            let outcome = solver
                .run(|_| {
                    // Slow enough for the workers to fill the channel behind this solution.
                    std::thread::sleep(std::time::Duration::from_millis(200));
                    Flow::Stop
                })
                .expect("runs");
            assert_eq!(outcome.solutions, 1);
            assert!(!outcome.exhausted);
        }
        let _ = done_tx.send(());
    });
    assert!(
        done_rx
            .recv_timeout(std::time::Duration::from_secs(60))
            .is_ok(),
        "the search did not end after its collector stopped"
    );
}
