//! Tests of products (see [`super::product`]): a node of independent components lists the same
//! solutions as the search without products, each once, in one order for every thread count.

use std::collections::HashSet;

use super::product::{MAX_CELLS, Product, Split};
use super::{Probing, Solver, SolverOptions};
use crate::domain::DomainGrid;
use crate::grid::Grid;
use crate::propagate::Propagator;
use crate::puzzle::{Given, Puzzle};

/// A puzzle of independent pieces along the diagonal: for each `n` of `cycles`, an `n` x `n`
/// block whose rows and columns hold one filled cell, in cell (i, i) or (i, i + 1 mod n) (the
/// others given empty), which has two solutions whose cells form one component of `2n` cells;
/// then `squares` 2x2 squares, each filled on one of its diagonals (two solutions, four cells).
/// Every cell outside the pieces is given empty. It has `2^(cycles + squares)` solutions.
pub(super) fn cycles_and_squares(cycles: &[usize], squares: usize) -> Puzzle {
    let sizes: Vec<usize> = cycles.iter().copied().chain(vec![2; squares]).collect();
    let side: usize = sizes.iter().sum();
    let mut picture = vec![false; side * side];
    let mut open = vec![false; side * side];
    let mut corner = 0;
    for (piece, &n) in sizes.iter().enumerate() {
        let square = piece >= cycles.len();
        for i in 0..n {
            picture[(corner + i) * side + corner + i] = true;
            for j in 0..n {
                let on_cycle = j == i || j == (i + 1) % n;
                open[(corner + i) * side + corner + j] = square || on_cycle;
            }
        }
        corner += n;
    }
    let mut puzzle = Puzzle::from_picture(side, side, &picture).expect("valid");
    let givens = (0..side * side).filter(|&k| !open[k]).map(|k| Given {
        row: k / side,
        col: k % side,
        filled: false,
    });
    puzzle.add_givens(givens).expect("the picture agrees");
    puzzle
}

/// The batch tests' options, with `probing`.
fn options(threads: usize, probing: Probing, ordered: bool) -> SolverOptions {
    let probe = super::batch_tests::options(threads, ordered, super::Engine::Probe);
    SolverOptions { probing, ..probe }
}

/// Every solution, in the order found, each checked against the clues.
fn listing(puzzle: &Puzzle, options: SolverOptions) -> Vec<Grid> {
    let (grids, outcome) = Solver::new(puzzle, options).find(u64::MAX).expect("runs");
    assert!(outcome.exhausted);
    assert_eq!(outcome.solutions, grids.len() as u64);
    for grid in &grids {
        assert!(grid.complete());
        puzzle.check_grid(&grid.to_cells()).expect("a solution");
    }
    grids
}

fn keys(grids: &[Grid]) -> HashSet<Box<[u64]>> {
    grids.iter().map(|g| g.key()).collect()
}

/// How the propagated root of `puzzle` splits.
fn split_of(puzzle: &Puzzle) -> Split {
    let root = Solver::new(puzzle, SolverOptions::default())
        .root()
        .expect("valid")
        .expect("consistent");
    Product::of(puzzle, &root, &mut Propagator::new(), &|| false)
}

#[test]
fn a_node_of_independent_small_components_is_their_product() {
    let puzzle = cycles_and_squares(&[18, 18], 3);
    let Split::Product(product) = split_of(&puzzle) else {
        panic!("two cycles and three squares are five components");
    };
    assert_eq!(product.len(), 5);
    for index in 0..5 {
        assert_eq!(product.solutions(index), 0..2, "component {index}");
    }
}

#[test]
fn a_node_with_a_large_component_is_not_a_product() {
    // One cycle of 66 cells, over the limit, beside two squares.
    let puzzle = cycles_and_squares(&[33], 2);
    const { assert!(2 * 33 > MAX_CELLS) };
    assert!(matches!(split_of(&puzzle), Split::No));
    // Searched as before, with every solution found.
    assert_eq!(
        listing(&puzzle, options(1, Probing::Adaptive, false)).len(),
        8
    );
}

#[test]
fn products_list_the_solutions_of_the_search_without_them() {
    let puzzle = cycles_and_squares(&[18, 18], 3);
    let plain = listing(&puzzle, options(1, Probing::Always, false));
    assert_eq!(plain.len(), 32);
    let with_products = listing(&puzzle, options(1, Probing::Adaptive, false));
    assert_eq!(with_products.len(), 32);
    assert_eq!(keys(&with_products).len(), 32, "each solution once");
    assert_eq!(keys(&with_products), keys(&plain));
    for threads in [2, 4] {
        let parallel = listing(&puzzle, options(threads, Probing::Adaptive, false));
        assert_eq!(parallel.len(), 32, "{threads} threads");
        assert_eq!(keys(&parallel), keys(&plain), "{threads} threads");
    }
}

#[test]
fn ordered_products_come_in_the_one_thread_order() {
    let puzzle = cycles_and_squares(&[18, 18], 3);
    let sequential = listing(&puzzle, options(1, Probing::Adaptive, false));
    for threads in [2, 3] {
        let ordered = listing(&puzzle, options(threads, Probing::Adaptive, true));
        assert_eq!(ordered, sequential, "{threads} threads");
    }
    // With a tiny budget for held-back solutions, parts of the walk are deferred.
    for budget in [1, 3] {
        let (grids, _) = Solver::new(&puzzle, options(4, Probing::Adaptive, true))
            .with_buffer_budget(budget)
            .find(u64::MAX)
            .expect("runs");
        assert_eq!(grids, sequential, "budget {budget}");
    }
    // The first component varies slowest: the first half of the listing shares its cells.
    let first_cell = |g: &Grid| g.to_cells()[0];
    assert!(
        sequential[..16]
            .iter()
            .all(|g| first_cell(g) == first_cell(&sequential[0]))
    );
    assert!(
        sequential[16..]
            .iter()
            .all(|g| first_cell(g) != first_cell(&sequential[0]))
    );
}

#[test]
fn a_product_stops_at_a_limit() {
    let puzzle = cycles_and_squares(&[18, 18], 3);
    for threads in [1, 2] {
        let (grids, outcome) = Solver::new(&puzzle, options(threads, Probing::Adaptive, false))
            .find(5)
            .expect("runs");
        assert_eq!(grids.len(), 5);
        assert!(!outcome.exhausted);
        assert_eq!(keys(&grids).len(), 5);
    }
}

#[test]
fn colour_nodes_are_products_too() {
    use super::ColorSolver;
    use crate::color::ColorPuzzle;
    let bw = cycles_and_squares(&[18, 18], 3);
    let puzzle = ColorPuzzle::from_bw(&bw);
    let root = ColorSolver::new(&puzzle, SolverOptions::default())
        .root()
        .expect("valid")
        .expect("consistent");
    let Split::Product(product) = Product::of(&puzzle, &root, &mut Propagator::new(), &|| false)
    else {
        panic!("the colour puzzle has the same five components");
    };
    assert_eq!(product.len(), 5);
    for threads in [1, 2] {
        for ordered in [false, true] {
            let solver = ColorSolver::new(&puzzle, options(threads, Probing::Adaptive, ordered));
            let (grids, outcome) = solver.find(u64::MAX).expect("runs");
            assert!(outcome.exhausted);
            let distinct: HashSet<_> = grids.iter().map(|g| g.key()).collect();
            assert_eq!(distinct.len(), 32, "{threads} threads, ordered {ordered}");
        }
    }
}

#[test]
fn squares_that_share_their_lines_are_a_product() {
    // Each line holds a block of every square it crosses, yet no square constrains another.
    let puzzle = crate::test_strategies::grid_of_squares(11);
    let Split::Product(product) = split_of(&puzzle) else {
        panic!("121 squares are 121 components");
    };
    assert_eq!(product.len(), 121);
    assert_eq!(product.combinations(), 2f64.powi(121));
    for ordered in [false, true] {
        for threads in [1, 2] {
            let solver = Solver::new(&puzzle, options(threads, Probing::Adaptive, ordered));
            let (grids, outcome) = solver.find(40).expect("runs");
            assert_eq!((grids.len(), outcome.exhausted), (40, false));
            assert_eq!(
                keys(&grids).len(),
                40,
                "{threads} threads, ordered {ordered}"
            );
            for grid in &grids {
                puzzle.check_grid(&grid.to_cells()).expect("a solution");
            }
        }
    }
}

/// The solutions of `product` from component `index` on and their depths, as the search's
/// walk of joins lists them: each combination as the solution of each component.
fn walk_of_joins(
    product: &Product,
    (index, range): (usize, std::ops::Range<usize>),
    depth: u32,
    chosen: &mut Vec<usize>,
    out: &mut Vec<(Vec<usize>, u32)>,
) {
    if index == product.len() {
        out.push((chosen.clone(), depth));
        return;
    }
    match range.len() {
        0 => {}
        1 => {
            chosen.push(range.start);
            let next = (index + 1, product.solutions(index + 1));
            walk_of_joins(product, next, depth, chosen, out);
            chosen.pop();
        }
        n => {
            let middle = range.start + n / 2;
            walk_of_joins(
                product,
                (index, range.start..middle),
                depth + 1,
                chosen,
                out,
            );
            walk_of_joins(product, (index, middle..range.end), depth + 1, chosen, out);
        }
    }
}

#[test]
fn the_walk_in_one_grid_is_the_walk_of_joins() {
    use crate::color::ColorGrid;
    let product = Product::of_counts(&[3, 1, 2, 5]);
    let blank = ColorGrid::new(1, 4, 0b11111);
    for (index, range) in [(0, 0..3), (0, 1..3), (1, 0..1), (2, 1..2), (3, 2..5)] {
        let mut expected = Vec::new();
        walk_of_joins(
            &product,
            (index, range.clone()),
            7,
            &mut Vec::new(),
            &mut expected,
        );
        let mut walked = Vec::new();
        let mut grid = blank.clone();
        product.walk_in_place(&mut grid, index, range.clone(), 7, |g, depth| {
            let chosen = (index..4).map(|i| g.values(0, i).trailing_zeros() as usize);
            walked.push((chosen.collect(), depth));
            true
        });
        assert_eq!(walked, expected, "component {index}, solutions {range:?}");
        assert_eq!(grid, blank, "the walk leaves its grid as it found it");
    }
    // The whole walk's subtrees make up the whole tree, as the explored fraction needs.
    let mut share = 0.0;
    product.walk_in_place(&mut blank.clone(), 0, 0..3, 0, |_, depth| {
        share += 0.5f64.powi(depth as i32);
        true
    });
    assert_eq!(share, 1.0);
    // And it stops when told.
    let mut visits = 0;
    product.walk_in_place(&mut blank.clone(), 0, 0..3, 0, |_, _| {
        visits += 1;
        visits < 4
    });
    assert_eq!(visits, 4);
}

#[test]
fn cells_reset_to_wider_and_narrower_values() {
    use crate::color::ColorGrid;
    let mut grid = Grid::new(2, 2);
    grid.decide(0, 1, crate::domain::FILLED);
    let blank = Grid::new(2, 2);
    let mut reset = grid.clone();
    reset.reset(0, 1, crate::domain::BW_VALUES);
    assert_eq!((reset.undecided(), &reset), (4, &blank));
    reset.reset(0, 1, crate::domain::FILLED);
    assert_eq!(reset, grid);
    reset.reset(0, 1, crate::domain::EMPTY);
    assert_eq!(
        (reset.values(0, 1), reset.undecided()),
        (crate::domain::EMPTY, 3)
    );
    let mut colour = ColorGrid::new(1, 2, 0b111);
    colour.reset(0, 0, 0b010);
    assert_eq!((colour.values(0, 0), colour.undecided()), (0b010, 1));
    colour.reset(0, 0, 0b110);
    assert_eq!((colour.values(0, 0), colour.undecided()), (0b110, 2));
}
