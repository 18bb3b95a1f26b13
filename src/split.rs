//! Splitting one search into disjoint parts that other processes or machines can run (the
//! "cube and conquer" of SAT solving), and the checksums that tie results back to a puzzle.
//!
//! A part is the puzzle plus *decisions*: givens that fix the branching cells on the path from
//! the root of the search tree to one open node. The branching is the search's own (probing,
//! then the best-scored cell), so sibling parts differ in the value of one cell and no solution
//! is in two parts; dead nodes are dropped, as they hold no solution, so every solution is in
//! one part. The open node with the largest subtree is split first, which keeps the parts of
//! comparable size. Each new node is sized by a short breadth-first search (exact when it
//! finishes) and random dives from the nodes it leaves open (see `Splitter::estimate`). (Knuth's random-dive estimate was tried first: on the irregular trees that
//! probing leaves, it was off by two orders of magnitude.)

use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};
use std::sync::Arc;

pub use crate::checksum::{clue_checksum, givens_checksum};
use crate::choose::{Choice, ProbeCounts, SealedMemo, choose_probing};
use crate::domain::{Domain, DomainGrid, each_value};
use crate::propagate::Propagator;
use crate::puzzle::Puzzle;
use crate::search::{Searchable, SolveError, Solver, SolverOptions};

/// One part of a split search of a puzzle of domain `P` (black and white by default).
#[derive(Clone, Debug, PartialEq)]
pub struct Part<P: Domain = Puzzle> {
    /// The branching cells and values that select this part, from the root down.
    pub decisions: Vec<P::Given>,
    /// Cells still unknown at the part's node (`0` for a part that is one solution).
    pub unknown: usize,
    /// The part's size: the exact number of search nodes in its subtree when that is at most
    /// a budget of a few hundred, else a larger number (see [`split`]).
    pub estimate: f64,
}

/// Search nodes of the breadth-first part of measuring one open node's subtree.
const BUDGET: u32 = 64;
/// Random dives from the open nodes that breadth-first search leaves.
const DIVES: u32 = 16;

impl<P: Domain + Clone> Part<P> {
    /// The part as a puzzle: `puzzle` with the decisions added to its givens.
    pub fn puzzle(&self, puzzle: &P) -> P {
        puzzle.with_givens(&self.decisions)
    }
}

/// An open node waiting to be split, ordered by its estimate (then by age, oldest first, so
/// the split is deterministic).
struct Open<P: Domain> {
    grid: P::Grid,
    decisions: Vec<P::Given>,
    memo: Option<Arc<SealedMemo<P::Grid>>>,
    estimate: f64,
    order: u64,
}

impl<P: Domain> PartialEq for Open<P> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl<P: Domain> Eq for Open<P> {}

impl<P: Domain> PartialOrd for Open<P> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<P: Domain> Ord for Open<P> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.estimate
            .total_cmp(&other.estimate)
            .then(other.order.cmp(&self.order))
    }
}

/// What a split needs at hand while it expands nodes.
struct Splitter<'p, P: Domain> {
    puzzle: &'p P,
    prop: Propagator<P>,
    counts: ProbeCounts,
    rng: u64,
}

impl<P: Domain> Splitter<'_, P> {
    fn choose(
        &mut self,
        grid: &mut P::Grid,
        memo: Option<&SealedMemo<P::Grid>>,
    ) -> Choice<P::Grid> {
        choose_probing(
            self.puzzle,
            grid,
            &mut self.prop,
            &mut self.counts,
            memo,
            None,
            // A split runs to its end: nothing stops it.
            &|| false,
        )
    }

    /// The size of the subtree under `grid`, in search nodes. A breadth-first search of up to
    /// [`BUDGET`] nodes is exact when it finishes. Otherwise the nodes it left open are sampled:
    /// from [`DIVES`] of them, spread evenly, a dive takes a random live child at each branch
    /// down to a leaf, and Knuth's estimator (`1 + 2 + 4 + ...` over the levels where both
    /// children lived) sizes that node's subtree. The estimate is the nodes visited plus the
    /// open nodes times their mean sampled size. Breadth first sees how wide the subtree is,
    /// the dives how deep: either alone misjudged the irregular trees that probing leaves.
    fn estimate(&mut self, grid: &P::Grid, memo: Option<&Arc<SealedMemo<P::Grid>>>) -> f64 {
        let mut frontier = VecDeque::from([(grid.clone(), memo.cloned())]);
        let mut nodes = 0u32;
        while nodes < BUDGET {
            let Some((mut grid, memo)) = frontier.pop_front() else {
                return f64::from(nodes);
            };
            nodes += 1;
            if let Choice::Branch {
                children,
                memo: next,
                ..
            } = self.choose(&mut grid, memo.as_deref())
            {
                frontier.extend(children.into_iter().map(|g| (g, next.clone())));
            }
        }
        let open = frontier.len();
        if open == 0 {
            return f64::from(nodes);
        }
        let samples = (DIVES as usize).min(open);
        let mut sampled = 0.0;
        for k in 0..samples {
            let (grid, memo) = &frontier[k * open / samples];
            sampled += self.dive(grid.clone(), memo.clone());
        }
        f64::from(nodes) + open as f64 * sampled / samples as f64
    }

    /// One random dive from `grid` to a leaf: Knuth's estimate of its subtree's node count.
    fn dive(&mut self, mut grid: P::Grid, mut memo: Option<Arc<SealedMemo<P::Grid>>>) -> f64 {
        let (mut nodes, mut width) = (0.0, 1.0);
        loop {
            nodes += width;
            let Choice::Branch {
                mut children,
                memo: next,
                ..
            } = self.choose(&mut grid, memo.as_deref())
            else {
                return nodes;
            };
            grid = match children.len() {
                0 => return nodes,
                1 => children.swap_remove(0),
                n => {
                    width *= n as f64;
                    children.swap_remove(self.pick(n))
                }
            };
            memo = next;
        }
    }

    /// A random index below `n` (at least 2): the first child on an odd draw, as a coin.
    fn pick(&mut self, n: usize) -> usize {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        if self.rng & 1 == 1 {
            0
        } else {
            1 + (self.rng >> 1) as usize % (n - 1)
        }
    }
}

/// Splits the search of `puzzle` into at least `parts` disjoint parts that together hold every
/// solution, unless the tree has fewer open nodes than that (a puzzle solved by propagation is
/// one part). A puzzle whose root already contradicts is one part with no decisions, which its
/// run then reports as having no solution.
///
/// The parts come in search order: listing each part's solutions with the one-thread (or the
/// ordered) search, part after part, lists the puzzle's solutions in the order the one-thread
/// search of the whole puzzle does.
pub fn split<P: Searchable>(puzzle: &P, parts: usize) -> Result<Vec<Part<P>>, SolveError> {
    split_by(puzzle, parts, Sizing::Measured)
}

/// How [`split_by`] ranks open nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sizing {
    /// By a short search of each node (see the module documentation): balanced parts, for
    /// running them side by side.
    Measured,
    /// By unknown cells alone: much faster, for parts that run one after the other anyway
    /// (checkpointed runs), where only their number matters.
    UnknownCells,
}

/// [`split`], with the open nodes ranked as `sizing` says.
pub fn split_by<P: Searchable>(
    puzzle: &P,
    parts: usize,
    sizing: Sizing,
) -> Result<Vec<Part<P>>, SolveError> {
    let Some(root) = Solver::new(puzzle, SolverOptions::default()).root()? else {
        return Ok(vec![Part {
            decisions: Vec::new(),
            unknown: puzzle.size().0 * puzzle.size().1,
            estimate: 1.0,
        }]);
    };
    let mut splitter = Splitter {
        puzzle,
        prop: Propagator::new(),
        counts: ProbeCounts::default(),
        rng: 0x9e37_79b9_7f4a_7c15,
    };
    let mut order = 0;
    let mut open = BinaryHeap::from([Open {
        grid: root,
        decisions: Vec::new(),
        memo: None,
        estimate: f64::INFINITY,
        order,
    }]);
    let mut done = Vec::new();
    while open.len() + done.len() < parts.max(1) {
        let Some(mut node) = open.pop() else { break };
        match splitter.choose(&mut node.grid, node.memo.as_deref()) {
            // Nothing interrupts a split's choices.
            Choice::Dead | Choice::Interrupted => {}
            Choice::Solved => done.push(Open {
                estimate: 1.0,
                ..node
            }),
            Choice::Branch {
                cell: (row, col),
                children,
                memo,
            } => {
                for grid in children {
                    let mut decisions = node.decisions.clone();
                    decisions.push(P::given(row, col, grid.values(row, col)));
                    order += 1;
                    let estimate = match sizing {
                        Sizing::Measured => splitter.estimate(&grid, memo.as_ref()),
                        Sizing::UnknownCells => grid.undecided() as f64,
                    };
                    open.push(Open {
                        grid,
                        decisions,
                        memo: memo.clone(),
                        estimate,
                        order,
                    });
                }
            }
        }
    }
    let mut all: Vec<Open<P>> = done;
    all.extend(open);
    // In search order: the order in which the one-thread search meets the parts (at the first
    // decision where two parts differ, the one whose value the search tries first comes first:
    // in black and white, the cell filled).
    let rank = |value: u64| each_value::<P>(u64::MAX).position(|v| v == value);
    all.sort_by_cached_key(|node| {
        node.decisions
            .iter()
            .map(|g| rank(P::given_value(g)))
            .collect::<Vec<_>>()
    });
    Ok(all
        .into_iter()
        .map(|node| Part {
            unknown: node.grid.undecided(),
            decisions: node.decisions,
            estimate: node.estimate,
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Clue;

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
            let parts = split(&puzzle, wanted).expect("splits");
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
            let parts = split(&puzzle, wanted).expect("splits");
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
    fn a_contradicting_root_is_one_part() {
        // 2x2 with row clues 2, 0 and column clues 2, 0: the totals agree, no grid fits.
        let puzzle = Puzzle::new(
            vec![Clue(vec![2]), Clue(vec![])],
            vec![Clue(vec![2]), Clue(vec![])],
        )
        .expect("well formed");
        let parts = split(&puzzle, 8).expect("splits");
        assert_eq!(parts.len(), 1);
        assert_eq!(count(&parts[0].puzzle(&puzzle)), 0);
    }

    #[test]
    fn checksums_tell_clues_and_givens_apart() {
        let puzzle = perm(4);
        let parts = split(&puzzle, 4).expect("splits");
        let first = parts[0].puzzle(&puzzle);
        assert_eq!(clue_checksum(&first), clue_checksum(&puzzle));
        assert_ne!(givens_checksum(&first), givens_checksum(&puzzle));
        assert_ne!(clue_checksum(&perm(5)), clue_checksum(&puzzle));
        let mut reversed = first.clone();
        reversed.givens.reverse();
        assert_eq!(givens_checksum(&reversed), givens_checksum(&first));
    }
}
