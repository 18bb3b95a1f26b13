//! The random probes that size a search tree while an enumeration runs: Knuth's dive from the
//! root, and the wide probe that the estimator makes, a short breadth-first search whose open
//! nodes are each sized by dives (the strata of Chen's stratified sampling).
//!
//! A probe chooses each branching cell as the search does (propagation and probing included)
//! and never enters a subtree the search has finished (see `finished.rs`): it sizes the tree
//! still open. A node the search would walk as a product of independent components
//! (`search/product.rs`) ends a walk: its solutions are the product of the components' counts,
//! and the search visits no node below it.

use std::cell::RefCell;
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::duty::{EstimatorDuty, Shifts};
use super::estimate::{Done, Probe, Samples};
use super::finished::Finished;
use super::product::{Product, Split};
use super::stats::SearchStats;
use super::strata::{MOST_STRATA, STRATUM_CELLS, Strata, exponential};
use crate::choose::{Choice, ProbeCounts, Probing, SealedMemo, choose_by};
use crate::count::Countable;
use crate::domain::{DomainGrid, fingerprint};
use crate::propagate::Propagator;
use crate::rng::SplitMix;

/// Nodes of a wide probe's breadth-first search.
const BREADTH: usize = 64;

/// What one node of the tree holds, as a probe sees it.
#[derive(Clone)]
enum Visit<G> {
    /// No open child: the node's solutions (1 for a solution, the product's combinations,
    /// 0 for a dead node or one whose children are all finished).
    Leaf(f64),
    /// The node's open children, and the memo of its probes that they inherit (as in the
    /// search, where a child probes again only what its branch changed).
    Open(Vec<G>, Option<Arc<SealedMemo<G>>>),
}

/// A node of a probe's walk, with the memo its parent hands down.
type Node<G> = (G, Option<Arc<SealedMemo<G>>>);

/// The most bytes of children's grids that [`Visited`] keeps.
const VISITED_BYTES: usize = 64 << 20;

/// The nodes that probe (the costly ones) that earlier probes visited, with what they held
/// before the finished subtrees were left out and the lines they solved: every probe starts at
/// the root, so the nodes near it are met by each. Emptied when full.
struct Visited<G> {
    nodes: HashMap<u64, (Visit<G>, f64)>,
    bytes: usize,
}

impl<G: DomainGrid> Visited<G> {
    fn new() -> Self {
        Visited {
            nodes: HashMap::new(),
            bytes: 0,
        }
    }

    fn keep(&mut self, key: u64, visit: &Visit<G>, line_solves: f64) {
        let children = match visit {
            Visit::Leaf(_) => 0,
            Visit::Open(children, memo) => {
                let memo = memo.as_ref().map_or(0, |m| m.heap_bytes());
                children.iter().map(|g| g.heap_bytes()).sum::<usize>() + memo
            }
        };
        self.bytes += children + size_of::<(u64, (Visit<G>, f64))>();
        if self.bytes > VISITED_BYTES {
            self.nodes.clear();
            self.bytes = 0;
        }
        self.nodes.insert(key, (visit.clone(), line_solves));
    }
}

/// The tree a probe walks: the puzzle's, branching as the search with `probing` does, without
/// the subtrees in `finished`, until `stopped` says stop; the nodes that probe are looked up
/// in, and kept in, `visited` if given.
pub(crate) struct Walk<'a, P: Countable> {
    pub(crate) puzzle: &'a P,
    pub(crate) probing: Probing,
    pub(crate) finished: Option<&'a Finished>,
    pub(crate) stopped: &'a dyn Fn() -> bool,
    visited: Option<&'a RefCell<Visited<P::Grid>>>,
}

impl<P: Countable> Walk<'_, P> {
    /// What the search would do at `grid`, its children finished by the search left out, and
    /// the lines it solves there; `None` if `stopped` said stop first.
    fn visit(
        &self,
        (grid, memo): Node<P::Grid>,
        prop: &mut Propagator<P>,
    ) -> Option<(Visit<P::Grid>, f64)> {
        if grid.complete() {
            return Some((Visit::Leaf(1.0), 0.0));
        }
        let key = (self.visited.is_some() && self.probing.probes(grid.undecided()))
            .then(|| fingerprint(&grid));
        let seen = key.and_then(|key| {
            let visited = self.visited?.borrow();
            visited.nodes.get(&key).cloned()
        });
        let (visit, line_solves) = match seen {
            Some(seen) => seen,
            None => {
                let before = prop.line_solves;
                let visit = self.visit_afresh(grid, memo.as_deref(), prop)?;
                let line_solves = (prop.line_solves - before) as f64;
                if let (Some(key), Some(visited)) = (key, self.visited) {
                    visited.borrow_mut().keep(key, &visit, line_solves);
                }
                (visit, line_solves)
            }
        };
        let visit = match (visit, self.finished) {
            (Visit::Open(mut children, memo), Some(finished)) => {
                children.retain(|child| !finished.holds(child));
                if children.is_empty() {
                    Visit::Leaf(0.0)
                } else {
                    Visit::Open(children, memo)
                }
            }
            (visit, _) => visit,
        };
        Some((visit, line_solves))
    }

    /// [`Self::visit`] of a node not complete, with nothing looked up and no child left out;
    /// `memo` is the memo of the parent's probes.
    fn visit_afresh(
        &self,
        mut grid: P::Grid,
        memo: Option<&SealedMemo<P::Grid>>,
        prop: &mut Propagator<P>,
    ) -> Option<Visit<P::Grid>> {
        let Walk {
            puzzle,
            probing,
            stopped,
            ..
        } = *self;
        if probing.lists_products(grid.undecided()) {
            match Product::of(puzzle, &grid, prop, stopped) {
                Split::No => {}
                Split::Product(product) => return Some(Visit::Leaf(product.combinations())),
                Split::Dead => return Some(Visit::Leaf(0.0)),
                Split::Stopped => return None,
            }
        }
        let mut counts = ProbeCounts::default();
        match choose_by(probing, puzzle, &mut grid, prop, &mut counts, memo, stopped) {
            Choice::Interrupted => None,
            Choice::Solved => Some(Visit::Leaf(1.0)),
            Choice::Dead => Some(Visit::Leaf(0.0)),
            Choice::Branch { children, memo, .. } => Some(Visit::Open(children, memo)),
        }
    }

    /// A probe of the tree still open below `root` (at a propagation fixpoint), choosing cells
    /// as the search does and never entering a subtree that `finished` holds: stratified
    /// sampling from the root alone ([`Walk::stratified`]). `None` if `stopped` said stop
    /// first.
    #[cfg(test)]
    pub(crate) fn narrow(
        &self,
        root: &P::Grid,
        prop: &mut Propagator<P>,
        rng: &mut SplitMix,
    ) -> Option<Probe> {
        self.stratified(vec![((root.clone(), None), 1.0)], prop, rng)
    }

    /// A wide probe of the tree still open below `roots` (the roots of disjoint subtrees,
    /// a checkpoint's open parts, or the one root of a search): a breadth-first search of up
    /// to `breadth` nodes, counted exactly, then stratified sampling below the open nodes it
    /// leaves ([`Walk::stratified`]). Unbiased, with far less spread than random dives: on a
    /// lopsided tree a few large dives decided the estimate (CHANGELOG.md, "The progress
    /// estimator's wide probes sample"). `None` if `stopped` said stop first.
    pub(crate) fn wide(
        &self,
        roots: Vec<P::Grid>,
        prop: &mut Propagator<P>,
        rng: &mut SplitMix,
        breadth: usize,
    ) -> Option<Probe> {
        let mut frontier: VecDeque<_> = roots.into_iter().map(|root| (root, None)).collect();
        let mut exact = Probe::default();
        for _ in 0..breadth {
            let Some(node) = frontier.pop_front() else {
                return Some(exact);
            };
            let (visit, line_solves) = self.visit(node, prop)?;
            exact.nodes += 1.0;
            exact.line_solves += line_solves;
            match visit {
                Visit::Leaf(solutions) => exact.solutions += solutions,
                Visit::Open(children, memo) => {
                    frontier.extend(children.into_iter().map(|g| (g, memo.clone())));
                }
            }
        }
        let level = frontier.into_iter().map(|node| (node, 1.0)).collect();
        Some(exact + self.stratified(level, prop, rng)?)
    }

    /// Chen's stratified sampling of the tree still open below the nodes of `level`, each
    /// with its weight: every node of a level is visited and counted times its weight, and its
    /// open children fall into strata by their unknown cells, one kept per stratum for the
    /// weight of all ([`Strata`]). Unbiased; `None` if `stopped` said stop first.
    fn stratified(
        &self,
        mut level: Vec<(Node<P::Grid>, f64)>,
        prop: &mut Propagator<P>,
        rng: &mut SplitMix,
    ) -> Option<Probe> {
        let mut sampled = Probe::default();
        while !level.is_empty() {
            let mut strata = Strata::new();
            for (node, weight) in level {
                let (visit, line_solves) = self.visit(node, prop)?;
                sampled.nodes += weight;
                sampled.line_solves += weight * line_solves;
                match visit {
                    Visit::Leaf(solutions) => sampled.solutions += weight * solutions,
                    Visit::Open(children, memo) => {
                        for child in children {
                            let stratum = child.undecided() / STRATUM_CELLS;
                            let key = exponential(rng.next());
                            strata.add(stratum, (child, memo.clone()), weight, key);
                        }
                    }
                }
            }
            level = strata.level(MOST_STRATA, |(grid, _)| grid.undecided());
        }
        Some(sampled)
    }
}

/// Probes the tree below the grids `roots` gives (disjoint subtrees, read again before each
/// probe; `None` when stopped) until `stopped`, adding each probe to `samples`: without pause
/// for the first seconds or until the probes agree ([`Samples::settled`]), then a tenth of the
/// time. Each probe is a wide one
/// ([`Walk::wide`]) of the tree still open (not in `finished`, which the search must be
/// recording), to which it adds the nodes and solutions the search has done (`done`), half
/// way through the probe. Each probe's time goes to `duty`.
pub(crate) fn run_probes<P: Countable>(
    puzzle: &P,
    roots: &mut dyn FnMut() -> Option<Vec<P::Grid>>,
    probing: Probing,
    (samples, finished): (&Mutex<Samples>, &Finished),
    duty: &EstimatorDuty,
    done: &dyn Fn() -> Done,
    stopped: &dyn Fn() -> bool,
) {
    let mut prop = Propagator::<P>::with_line_cache();
    let mut rng = SplitMix(0x6E6F_6E6F_656E_756D);
    let visited = RefCell::new(Visited::new());
    let shifts = Shifts::new(duty, Instant::now());
    // A long probe rests in its middle too, keeping the search its cores.
    let stopped_or_rest = || {
        shifts.rest_if_due(stopped);
        stopped()
    };
    while !stopped() {
        let Some(roots) = roots() else {
            return;
        };
        let before = done();
        let walk = Walk {
            puzzle,
            probing,
            finished: Some(finished),
            stopped: &stopped_or_rest,
            visited: Some(&visited),
        };
        let open = walk.wide(roots, &mut prop, &mut rng, BREADTH);
        let Some(open) = open else {
            shifts.rest(&|| true);
            return;
        };
        let after = done();
        let middle = |a: u64, b: u64| (a as f64 + b as f64) / 2.0;
        let sample = open
            + Probe {
                nodes: middle(before.nodes, after.nodes),
                solutions: middle(before.solutions, after.solutions),
                line_solves: middle(before.line_solves, after.line_solves),
            };
        let settled = {
            let mut samples = samples
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            samples.add(sample);
            samples.settled()
        };
        if settled {
            shifts.settle();
        }
        shifts.rest(stopped);
    }
}

/// The estimator of a run that searches disjoint subtrees one after another, each with a
/// solver counting into `stats` ([`super::Solver::with_stats`]): a checkpoint's parts. Its
/// probes size the subtrees `roots` gives (the parts still open, read before each probe; `None`
/// when stopped), less those the parts' searches finish, beside a search on `threads` threads;
/// each probe adds the work `stats` counts and the solutions `found_before` (earlier runs'),
/// so that `stats.estimate()` sizes the whole run, until `stopped`.
pub(crate) fn probe_parts<P: Countable>(
    stats: &SearchStats,
    puzzle: &P,
    probing: Probing,
    threads: usize,
    roots: &mut dyn FnMut() -> Option<Vec<P::Grid>>,
    found_before: &dyn Fn() -> u64,
    stopped: &dyn Fn() -> bool,
) {
    stats.finished.record();
    stats.set_estimating(true);
    stats.duty.begin(threads);
    let done = || {
        let mut done = stats.done();
        done.solutions = done.solutions.saturating_add(found_before());
        done
    };
    let record = (&stats.samples, &stats.finished);
    run_probes(puzzle, roots, probing, record, &stats.duty, &done, stopped);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::Puzzle;
    use crate::search::estimate::{Spread, TreeEstimate};
    use crate::search::{Solver, SolverOptions};

    /// The `n` x `n` puzzle whose clues are all `1`: its solutions are the `n!` permutations.
    fn permutation(n: usize) -> Puzzle {
        let text = format!("{n} {n}\n{}", "1\n".repeat(2 * n));
        crate::format::read_puzzles(text.as_bytes(), None, None)
            .expect("a puzzle")
            .remove(0)
    }

    /// The propagated root of `puzzle`, which has a solution.
    fn root_of(puzzle: &Puzzle) -> crate::grid::Grid {
        Solver::new(puzzle, SolverOptions::default())
            .root()
            .expect("valid")
            .expect("consistent")
    }

    /// The `n` x `n` permutation puzzle, its root and a propagator to walk it with.
    fn started(n: usize) -> (Puzzle, crate::grid::Grid, Propagator<Puzzle>) {
        let puzzle = permutation(n);
        let root = root_of(&puzzle);
        (puzzle, root, Propagator::with_line_cache())
    }

    /// A walk of the whole tree of `puzzle`, nothing finished and nothing kept.
    fn whole<'a>(
        puzzle: &'a Puzzle,
        probing: Probing,
        stopped: &'a dyn Fn() -> bool,
    ) -> Walk<'a, Puzzle> {
        Walk {
            puzzle,
            probing,
            finished: None,
            stopped,
            visited: None,
        }
    }

    fn estimate(puzzle: &Puzzle, probing: Probing, probes: usize) -> TreeEstimate {
        let root = root_of(puzzle);
        let mut prop = Propagator::<Puzzle>::with_line_cache();
        let mut rng = SplitMix(7);
        let mut samples = Samples::default();
        for _ in 0..probes {
            let p = whole(puzzle, probing, &|| false).narrow(&root, &mut prop, &mut rng);
            samples.add(p.expect("not stopped"));
        }
        samples.estimate().expect("enough probes")
    }

    #[test]
    fn probes_estimate_the_solutions_of_a_permutation_puzzle() {
        let puzzle = permutation(6);
        for probing in [Probing::Always, Probing::Never, Probing::Adaptive] {
            let e = estimate(&puzzle, probing, 200);
            let (mean, low, high) = (e.solutions.mean, e.solutions.low, e.solutions.high);
            assert!(
                (360.0..=1440.0).contains(&mean),
                "probing {probing:?}: {mean} is not within a factor of 2 of 720"
            );
            assert!(low <= mean && mean <= high, "{e:?}");
            assert!(e.nodes.mean >= e.solutions.mean, "{e:?}");
        }
    }

    #[test]
    fn probes_of_a_finished_search_size_nothing_but_its_root() {
        let puzzle = permutation(6);
        let solver = Solver::new(&puzzle, SolverOptions::default()).with_estimate(true);
        let outcome = solver.count().expect("counted");
        assert_eq!(outcome.solutions, 720);
        let stats = solver.stats();
        assert!(stats.finished.len() > 1, "{}", stats.finished.len());
        let root = solver.root().expect("valid").expect("consistent");
        let mut prop = Propagator::<Puzzle>::with_line_cache();
        let mut rng = SplitMix(7);
        let finished = Some(&stats.finished);
        for probing in [Probing::Always, Probing::Adaptive] {
            let walk = Walk {
                finished,
                ..whole(&puzzle, probing, &|| false)
            };
            let open = walk.narrow(&root, &mut prop, &mut rng);
            // Every child of the root is finished: only the root is left to count, with the
            // lines solved there.
            let open = open.expect("a probe");
            assert_eq!((open.nodes, open.solutions), (1.0, 0.0), "{probing:?}");
            assert!(open.line_solves >= 1.0, "{probing:?}: {open:?}");
        }
    }

    #[test]
    fn a_unique_puzzle_is_estimated_exactly() {
        let puzzle = permutation(1);
        let e = estimate(&puzzle, Probing::Always, 20);
        assert_eq!(
            e.solutions,
            Spread {
                mean: 1.0,
                low: 1.0,
                high: 1.0
            }
        );
    }

    #[test]
    fn a_product_at_the_root_is_estimated_exactly() {
        // 2 cycles and 40 squares: 168 unknown cells in 42 components, 2^42 solutions.
        let puzzle = super::super::product_tests::cycles_and_squares(&[3, 4], 40);
        let e = estimate(&puzzle, Probing::Adaptive, 20);
        let exact = 2f64.powi(42);
        assert_eq!(
            e.solutions,
            Spread {
                mean: exact,
                low: exact,
                high: exact
            }
        );
        // The search visits the root only, and walks its product.
        assert_eq!(e.nodes.mean, 1.0, "{e:?}");
        // Without products the dives branch down to the solutions.
        let plain = estimate(&puzzle, Probing::Always, 20);
        assert!(plain.nodes.mean > 42.0, "{plain:?}");
    }

    #[test]
    fn a_wide_probe_counts_a_small_tree_exactly_and_estimates_a_large_one() {
        let mut prop = Propagator::<Puzzle>::with_line_cache();
        let mut rng = SplitMix(11);
        // 3! solutions in a tree of fewer than 64 nodes: the breadth-first search sees it all.
        let small = permutation(3);
        let walk = |puzzle| whole(puzzle, Probing::Always, &|| false);
        let exact = walk(&small).wide(vec![root_of(&small)], &mut prop, &mut rng, 64);
        assert_eq!(exact.map(|p| p.solutions), Some(6.0));
        // 8! = 40,320: the mean of 20 wide probes is within 20% (single dives: a factor of 2).
        let large = permutation(8);
        let root = root_of(&large);
        let mut samples = Samples::default();
        for _ in 0..20 {
            let p = walk(&large).wide(vec![root.clone()], &mut prop, &mut rng, 64);
            samples.add(p.expect("not stopped"));
        }
        let mean = samples.estimate().expect("enough probes").solutions.mean;
        assert!((32_256.0..=48_384.0).contains(&mean), "{mean}");
    }

    #[test]
    fn a_wide_probe_of_several_roots_sizes_their_union() {
        // The root's first branch cuts 5! = 120 solutions into two subtrees: probes of the two
        // together size them as one tree, exactly where the breadth-first search sees all.
        let (puzzle, root, mut prop) = started(5);
        let walk = whole(&puzzle, Probing::Never, &|| false);
        let Some((Visit::Open(children, _), _)) = walk.visit((root, None), &mut prop) else {
            panic!("the root branches");
        };
        let mut rng = SplitMix(13);
        let exact = walk.wide(children.clone(), &mut prop, &mut rng, 1 << 12);
        assert_eq!(exact.map(|p| p.solutions), Some(120.0));
        let one = walk.wide(children[..1].to_vec(), &mut prop, &mut rng, 1 << 12);
        let one = one.expect("not stopped").solutions;
        assert!(0.0 < one && one < 120.0, "{one}");
        assert_eq!(
            walk.wide(Vec::new(), &mut prop, &mut rng, 64),
            Some(Probe::default())
        );
    }

    #[test]
    fn a_raised_flag_stops_a_wide_probe() {
        let (puzzle, root, mut prop) = started(6);
        let walk = whole(&puzzle, Probing::Always, &|| true);
        let probe = walk.wide(vec![root], &mut prop, &mut SplitMix(3), 64);
        assert_eq!(probe, None);
    }

    #[test]
    fn probes_that_keep_visited_nodes_estimate_as_probes_that_do_not() {
        // 9 x 9: the root and the nodes near it have more than 64 unknown cells, and probe.
        let puzzle = permutation(9);
        let root = root_of(&puzzle);
        let visited = RefCell::new(Visited::new());
        let probes = |visited: Option<&RefCell<Visited<_>>>| {
            let mut prop = Propagator::<Puzzle>::with_line_cache();
            let mut rng = SplitMix(5);
            let walk = Walk {
                visited,
                ..whole(&puzzle, Probing::Adaptive, &|| false)
            };
            (0..6)
                .map(|_| walk.wide(vec![root.clone()], &mut prop, &mut rng, 16))
                .collect::<Vec<_>>()
        };
        assert_eq!(probes(Some(&visited)), probes(None));
        assert!(!visited.borrow().nodes.is_empty());
    }
}
