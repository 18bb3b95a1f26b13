//! Restarts for the search for a first solution: a run of bounded attempts, each exploring
//! the children of every node in a different (pseudo-random) order, until one finds a solution
//! or exhausts the tree.
//!
//! Depth-first search for one solution has a heavy-tailed running time: one unlucky choice of
//! which child to explore first near the root can bury the solutions under a subtree thousands
//! of times larger than the whole rest of the search, and no fixed order is lucky everywhere.
//! Bounding each attempt by a node budget that follows the Luby sequence (1, 1, 2, 1, 1, 2, 4,
//! 1, ... times a unit) and changing the order between attempts keeps the expected time within
//! a logarithmic factor of the best order among those tried, for each puzzle.
//!
//! The first attempt takes the filled child first everywhere (the plain search's order), the
//! second the empty child; later ones order the children near the root at random and keep one
//! order below, alternately. Keeping one order deep in the tree matters: on the 143 puzzles of the
//! icga2017 tournament set that take over 0.5 s, children ordered at random at every depth found
//! solutions more slowly than the plain search; this scheme (unit 1024 nodes, random above depth
//! 16) took 194 s where the plain search took 256 s (one process per puzzle, 5 s cap each).
//!
//! The price: a puzzle whose first solution comes only after most of the tree pays for every
//! abandoned attempt, up to about ten times the plain search (icga2016 #558: 43,565 nodes
//! plainly, over 330,000 with restarts). Whole tournament sets run slower with restarts, so
//! they are off by default ([`crate::SolverOptions::restarts`]).
//!
//! Restarts never change what is found. An attempt that runs out of budget is abandoned before
//! it has handed over any solution, so the next attempt starts from a clean slate; the attempt
//! that finds the first solution loses its budget there and then, and runs on to the end of the
//! tree like a search without restarts. Budgets grow without bound, so some attempt always
//! finishes: a puzzle without solution is proved so, and counts stay exact.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

/// Nodes in one unit of the Luby sequence.
pub(crate) const NODE_UNIT: u64 = 1024;

/// Depth above which attempts after the second order children at random; below it each keeps
/// one order throughout (alternately the plain one and its mirror).
const RANDOM_DEPTH: u32 = 16;

/// The attempt is bounded by its budget and has found nothing yet.
const BOUNDED: u8 = 0;
/// The attempt found a solution (or has no budget): it runs to the end.
const UNBOUNDED: u8 = 1;
/// The attempt ran out of budget before any solution: it is being abandoned.
const ABANDONED: u8 = 2;

/// One attempt of a search with restarts, shared by every node it visits.
#[derive(Debug)]
pub(crate) struct Attempt {
    /// Which attempt this is, from 0: it selects the order of children.
    index: u32,
    /// Drives the pseudo-random part of that order.
    seed: u64,
    budget: u64,
    nodes: AtomicU64,
    state: AtomicU8,
}

impl Attempt {
    /// Attempt number `index` (from 0) of a run with restarts whose budgets are counted in
    /// units of `unit` nodes.
    pub(crate) fn numbered(index: u32, unit: u64) -> Self {
        Attempt {
            seed: mix(u64::from(index)),
            index,
            budget: luby(index + 1).saturating_mul(unit),
            nodes: AtomicU64::new(0),
            state: AtomicU8::new(BOUNDED),
        }
    }

    /// Counts a node; returns `false` when the budget is spent and the attempt must stop.
    pub(crate) fn visit(&self) -> bool {
        let visited = self.nodes.fetch_add(1, Ordering::Relaxed);
        if visited < self.budget {
            return true;
        }
        // Only an attempt that has handed over nothing may be abandoned.
        match self
            .state
            .compare_exchange(BOUNDED, ABANDONED, Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(_) => false,
            Err(state) => state == UNBOUNDED,
        }
    }

    /// Whether the attempt is being abandoned (every node of it should stop).
    pub(crate) fn abandoned(&self) -> bool {
        self.state.load(Ordering::Relaxed) == ABANDONED
    }

    /// Claims the right to hand over a solution: `false` when the attempt is being abandoned,
    /// in which case the solution must be dropped (a later attempt finds it again).
    pub(crate) fn claim_solution(&self) -> bool {
        match self
            .state
            .compare_exchange(BOUNDED, UNBOUNDED, Ordering::AcqRel, Ordering::Acquire)
        {
            Ok(_) => true,
            Err(state) => state == UNBOUNDED,
        }
    }

    /// Whether the children of the node branching on cell `cell` at `depth` run in swapped
    /// order (empty first) in this attempt.
    pub(crate) fn swaps(&self, cell: usize, depth: u32) -> bool {
        match self.index {
            0 => false,
            1 => true,
            _ if depth < RANDOM_DEPTH => {
                mix(self.seed ^ ((cell as u64) << 20) ^ u64::from(depth)) & 1 == 1
            }
            index => index % 2 == 1,
        }
    }
}

/// Term `i` (from 1) of the Luby sequence: 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ...
fn luby(i: u32) -> u64 {
    let i = u64::from(i);
    let mut k = 1u32;
    // The smallest k with i <= 2^k - 1: i ends a block of length 2^k - 1, or lies inside one.
    while (1u64 << k) - 1 < i {
        k += 1;
    }
    if i == (1u64 << k) - 1 {
        1u64 << (k - 1)
    } else {
        luby((i - ((1u64 << (k - 1)) - 1)) as u32)
    }
}

/// A 64-bit mixer (splitmix64's finaliser): consecutive inputs give unrelated outputs.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::puzzle::{Clue, Puzzle};
    use crate::search::{Solver, SolverOptions};

    /// The count and solutions of `puzzle`, with restarts in budgets of `unit` nodes or
    /// without, and the number of restarts.
    fn search(puzzle: &Puzzle, threads: usize, unit: Option<u64>) -> (u64, Vec<String>, u64) {
        let options = SolverOptions {
            threads,
            restarts: unit.is_some(),
            engine: Default::default(),
            ..SolverOptions::default()
        };
        let solver = Solver::new(puzzle, options).with_restart_unit(unit.unwrap_or(NODE_UNIT));
        let mut found = Vec::new();
        let outcome = solver
            .run(|grid| {
                found.push(format!("{grid:?}"));
                crate::search::Flow::Continue
            })
            .expect("runs");
        assert!(outcome.exhausted);
        found.sort();
        (outcome.solutions, found, outcome.stats.restarts)
    }

    #[test]
    fn restarts_find_every_solution_once() {
        // 6! solutions; with one-node budgets, attempts are abandoned before the first one.
        let ones = || (0..6).map(|_| Clue(vec![1])).collect::<Vec<_>>();
        let puzzle = Puzzle::new(ones(), ones()).expect("valid");
        let (count, plain, _) = search(&puzzle, 1, None);
        assert_eq!(count, 720);
        for threads in [1, 2] {
            let (count, found, restarts) = search(&puzzle, threads, Some(1));
            assert_eq!(count, 720, "{threads} threads");
            assert_eq!(found, plain, "{threads} threads");
            assert!(restarts > 0, "the budget of one node forces restarts");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn restarts_change_no_count(
            (h, w, cells) in (4usize..=11, 4usize..=11).prop_flat_map(|(h, w)| {
                (Just(h), Just(w), proptest::collection::vec(proptest::bool::weighted(0.45), h * w))
            }),
            unit in 1u64..=4,
            threads in 1usize..=2,
        ) {
            let puzzle = Puzzle::from_picture(h, w, &cells).expect("valid");
            let (count, plain, _) = search(&puzzle, 1, None);
            let (restarted, found, _) = search(&puzzle, threads, Some(unit));
            prop_assert_eq!(restarted, count);
            prop_assert_eq!(found, plain);
        }
    }

    #[test]
    fn luby_sequence_starts_as_published() {
        let terms: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(terms, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    #[test]
    fn an_attempt_stops_at_its_budget_unless_it_found_a_solution() {
        let attempt = Attempt::numbered(0, NODE_UNIT);
        assert_eq!(attempt.budget, NODE_UNIT);
        for _ in 0..NODE_UNIT {
            assert!(attempt.visit());
        }
        assert!(!attempt.visit());
        assert!(attempt.abandoned());
        assert!(
            !attempt.claim_solution(),
            "an abandoned attempt hands over nothing"
        );

        let lucky = Attempt::numbered(0, NODE_UNIT);
        assert!(lucky.claim_solution());
        for _ in 0..2 * NODE_UNIT {
            assert!(lucky.visit(), "a solution lifts the budget");
        }
        assert!(!lucky.abandoned());
    }

    #[test]
    fn the_first_attempt_keeps_the_plain_order_and_later_ones_vary_it() {
        let first = Attempt::numbered(0, NODE_UNIT);
        assert!((0..100).all(|cell| !first.swaps(cell, 3) && !first.swaps(cell, 30)));
        let second = Attempt::numbered(1, NODE_UNIT);
        assert!((0..100).all(|cell| second.swaps(cell, 3) && second.swaps(cell, 30)));
        let third = Attempt::numbered(2, NODE_UNIT);
        let swapped = (0..1000).filter(|&cell| third.swaps(cell, 3)).count();
        assert!(
            (350..650).contains(&swapped),
            "{swapped} of 1000 swapped near the root"
        );
        assert!((0..100).all(|cell| !third.swaps(cell, RANDOM_DEPTH)));
        let fourth = Attempt::numbered(3, NODE_UNIT);
        assert!((0..1000).any(|cell| third.swaps(cell, 3) != fourth.swaps(cell, 3)));
        assert!((0..100).all(|cell| fourth.swaps(cell, RANDOM_DEPTH)));
    }
}
