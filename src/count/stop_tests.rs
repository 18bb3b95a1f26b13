//! Counts stopped part way: what they had counted is a lower bound, a sweep goes on where it
//! stopped from any side, and one whose memo is full gives up.

use std::sync::atomic::{AtomicBool, AtomicUsize};

use super::tests::{component_count, sweep_count, sweep_first};
use super::*;
use crate::grid::Grid;
use crate::puzzle::Puzzle;
use crate::test_strategies::permutations;
use crate::test_strategies::seeded_picture;

/// A sweep stopped part way keeps its memo: counted again from any side, after any number of
/// stops, it gives the same count, and a memo too small for two sweeps drops the other side.
/// What the stopped sweeps had counted is at most the count, and some.
#[test]
fn side_sweeps_go_on_where_they_stopped() {
    let (mut stopped, mut bounded) = (0, 0);
    for (seed, puzzle, root) in seeded_roots(2..=4) {
        let expected = sweep_count(&puzzle);
        let cancel = AtomicBool::new(false);
        let stats = SweepStats::default();
        let budget = MemoBudget::new(DEFAULT_SWEEP_MEMORY);
        let sweeps = turns::SideSweeps::new(&puzzle, root, &budget, &stats);
        for side in Orientation::ALL {
            let mut stops = 0;
            // Stopped after ever more polls, on one thread, so that the same sweeps stop at
            // the same places on any machine.
            let mut polls = 1;
            let counted = one_thread(|| {
                loop {
                    let left = AtomicUsize::new(polls);
                    polls += polls.div_ceil(4);
                    match sweeps.count(side, Stop::from(&cancel).after_polls(&left)) {
                        Err(SweepError::Cancelled) => stops += 1,
                        other => break other.expect("counts"),
                    }
                }
            });
            assert_eq!(
                counted, expected,
                "seed {seed}, {side:?} after {stops} stops"
            );
            stopped += stops;
        }
        // What the stopped sweeps had counted is a lower bound.
        let at_least = stats.at_least();
        assert!(at_least <= expected, "seed {seed}: {at_least} > {expected}");
        bounded += usize::from(at_least > BigUint::ZERO);
    }
    assert!(stopped > 0, "no sweep was stopped part way");
    assert!(bounded > 0, "no stopped sweep had counted a solution");
}

/// The seeded 16x16 pictures of `seeds` whose probed root is open: each seed, its picture and
/// its root.
fn seeded_roots(seeds: std::ops::RangeInclusive<u64>) -> impl Iterator<Item = (u64, Puzzle, Grid)> {
    seeds.filter_map(|seed| {
        let puzzle = seeded_picture(16, 16, seed);
        let root = probed_root(&puzzle).expect("valid")?;
        Some((seed, puzzle, root))
    })
}

/// Runs `work` in a pool of one thread, where a counter stopped after so many polls stops at
/// the same place at every run.
fn one_thread<R: Send>(work: impl FnOnce() -> R + Send) -> R {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a pool of one thread")
        .install(work)
}

/// Components cancelled part way have counted at most the count (the sum over branches and
/// the product over components of what each had counted), and on larger pictures, some.
#[test]
fn cancelled_components_count_a_lower_bound() {
    let (mut cancelled, mut bounded) = (0, 0);
    for (seed, puzzle, root) in seeded_roots(2..=5) {
        let expected = component_count(&puzzle);
        let (c, b) =
            cancel_components_ever_later(&puzzle, &root, &expected, &format!("seed {seed}"));
        cancelled += c;
        bounded += b;
    }
    assert!(cancelled > 0, "no count was cancelled part way");
    assert!(bounded > 0, "no cancelled count had counted a solution");
}

/// Counts by components from `root`, stopped after ever more polls, until a count finishes
/// (with `expected`, and nothing left in the lower bound); each cancelled one must have
/// counted at most `expected`. Returns how many were cancelled and how many of those had
/// counted a solution. `what` names the case in failures.
pub(super) fn cancel_components_ever_later<P: Countable>(
    puzzle: &P,
    root: &P::Grid,
    expected: &BigUint,
    what: &str,
) -> (usize, usize) {
    let cancel = AtomicBool::new(false);
    let (mut cancelled, mut bounded) = (0, 0);
    let mut polls = 1;
    loop {
        let stats = ComponentStats::default();
        let left = AtomicUsize::new(polls);
        let stop = Stop::from(&cancel).after_polls(&left);
        let counted =
            one_thread(|| ComponentCounter::<BigUint, P>::new(puzzle, stop, &stats).count(root));
        match counted {
            Ok(count) => {
                assert_eq!(&count, expected, "{what}");
                assert_eq!(stats.at_least(), BigUint::ZERO, "{what}: finished");
                return (cancelled, bounded);
            }
            Err(error) => {
                assert_eq!(error, ComponentError::Cancelled);
                let at_least = stats.at_least();
                assert!(&at_least <= expected, "{what}: {at_least} > {expected}");
                cancelled += 1;
                bounded += usize::from(at_least > BigUint::ZERO);
            }
        }
        polls += polls.div_ceil(4);
    }
}

#[test]
fn side_sweeps_give_up_when_the_memo_is_full() {
    let puzzle = permutations(8);
    let root = probed_root(&puzzle).expect("valid").expect("a solution");
    let cancel = AtomicBool::new(false);
    let stats = SweepStats::default();
    let budget = MemoBudget::new(4096);
    let sweeps = turns::SideSweeps::new(&puzzle, root, &budget, &stats);
    for side in Orientation::ALL {
        let counted = sweeps.count(side, Stop::from(&cancel));
        assert_eq!(counted, Err(SweepError::MemoFull), "{side:?}");
    }
}

/// A sweep asked to start from one side counts from that side, and counts alike from each.
#[test]
fn the_sweep_starts_from_the_side_asked() {
    for seed in 2..=4 {
        let puzzle = seeded_picture(12, 12, seed);
        let expected = sweep_count(&puzzle);
        for side in Orientation::ALL {
            let limits = CountLimits {
                sweep_from: Some(side),
                ..sweep_first()
            };
            let progress = CountProgress::default();
            let counted =
                count_exact(&puzzle, limits, &AtomicBool::new(false), &progress).expect("counts");
            assert_eq!(counted.count, expected, "seed {seed}, {side:?}");
            if let ExactMethod::Sweep { orientation, .. } = counted.method {
                assert_eq!(orientation, side, "seed {seed}");
            }
        }
    }
}

/// Components whose search paths would outgrow their memory give up, with what they had
/// counted as a lower bound; with memory enough they count exactly. Either way the paths give
/// back every byte they held.
#[test]
fn components_give_up_when_their_paths_outgrow_their_memory() {
    let puzzle = permutations(7);
    let (cancel, expected) = (AtomicBool::new(false), BigUint::from(5040u32));
    let root = probed_root(&puzzle).expect("valid").expect("a solution");
    let mut outcomes = Vec::new();
    for limit in [0, 1 << 12, 1 << 16, usize::MAX] {
        let stats = ComponentStats::default();
        let counter = ComponentCounter::<BigUint>::new(&puzzle, &cancel, &stats).path_memory(limit);
        let counted = counter.count(&root);
        assert_eq!(counter.path_bytes_held(), 0, "limit {limit}");
        match &counted {
            Ok(count) => assert_eq!(count, &expected, "limit {limit}"),
            Err(error) => {
                assert_eq!(*error, ComponentError::PathMemory, "limit {limit}");
                assert!(stats.at_least() < expected, "limit {limit}");
            }
        }
        outcomes.push(counted.is_ok());
    }
    assert_eq!(
        outcomes.first(),
        Some(&false),
        "no memory: gives up at once"
    );
    assert_eq!(outcomes.last(), Some(&true), "memory enough: counts");
}
