//! A second opinion from the beliefs: decimation. Fix the cells the beliefs are surest of,
//! propagate, and let the beliefs settle again on what is left; repeat until the grid is
//! complete or the lines refuse it.
//!
//! The first guess weighs every cell once, on an empty grid; decimation weighs the doubtful
//! cells again once most of their lines are known, which is where the first guess goes wrong.
//! When a step's cells break a line, the step takes half as many; when even the surest cell
//! breaks one, that cell takes its other value (the lines force it). When both values fail,
//! the cells fixed so far were wrong somewhere and decimation gives up: it has no search of
//! its own, which is the learning search's job. So it is kept only when it reaches a grid
//! that satisfies every clue; what it decides is measured in docs/tuning.md ("Constants").

use super::{Beliefs, FirstGuess, WORK_LIMIT};
use crate::grid::{Cell, Grid};
use crate::propagate::Propagator;
use crate::puzzle::Puzzle;

/// The share of the unknown cells (the surest) that one step fixes.
const STEP_SHARE: f64 = 0.1;
/// The most rounds the beliefs get to settle after each step: warm from the step before, they
/// move little.
const ROUNDS_PER_STEP: usize = 30;
/// The most tries of a step that a line refuses before decimation gives up: one that fails
/// on a random 100x100 picture at density 0.5 gives up within 1 to 3 s of one core (with the
/// first guess's rounds, when it has to repeat them).
const MAX_FAILED_TRIES: usize = 30;
/// The most work (see [`Beliefs::work`]) of all the rounds, as a multiple of the first guess's
/// bound: a random 100x100 picture takes about 35 steps, in 2 to 3 s of one core (with the
/// first guess's rounds, when it has to repeat them).
const WORK_FACTOR: usize = 8;

/// The grid that decimation from `root` reaches, as a first guess (its cells in the order the
/// steps fixed them), if it satisfies every clue; `None` otherwise, or when the grid's lines
/// are too many and too long for the beliefs (see [`super::first_guess`]). It goes on from
/// the messages of `first` (the first guess of `root`) where it has them, else works out the
/// first guess's rounds itself. Asks `stop` before each round, and gives up when it says so.
pub(in crate::learn) fn decimated_guess(
    puzzle: &Puzzle,
    root: &Grid,
    first: Option<&FirstGuess>,
    stop: &mut dyn FnMut() -> bool,
) -> Option<FirstGuess> {
    let mut beliefs = match first.and_then(|guess| guess.settled.as_deref()) {
        Some(settled) => Beliefs::resume(puzzle, root, settled)?,
        None => {
            let mut beliefs = Beliefs::new(puzzle, root)?;
            beliefs.settle(root, super::max_rounds(root), stop);
            beliefs
        }
    };
    let width = root.width();
    let cells = root.height() * width;
    let is_unknown = |grid: &Grid, c: u32| {
        let c = c as usize;
        grid.cell(c / width, c % width) == Cell::Unknown
    };
    let mut propagator = Propagator::<Puzzle>::new();
    let mut grid = root.clone();
    let mut order: Vec<u32> = (0..cells as u32)
        .filter(|&c| !is_unknown(root, c))
        .collect();
    let mut unknown: Vec<u32> = (0..cells as u32).filter(|&c| is_unknown(root, c)).collect();
    let mut spent = beliefs.spent;
    let mut failed = 0;
    while !unknown.is_empty() {
        // Stable: among equally sure cells, variable order.
        unknown.sort_by(|&a, &b| {
            let sureness = |c: u32| beliefs.sureness(c as usize);
            sureness(b).total_cmp(&sureness(a))
        });
        let favoured = beliefs.favoured_grid(&grid);
        if puzzle.check_grid(&favoured).is_ok() {
            // The beliefs agree on a solution already.
            order.extend_from_slice(&unknown);
            return Some(FirstGuess {
                phases: favoured,
                order,
                settled: None,
            });
        }
        let mut take = ((unknown.len() as f64 * STEP_SHARE).ceil() as usize).max(1);
        let next = loop {
            let mut trial = grid.clone();
            for &c in &unknown[..take] {
                let c = c as usize;
                trial.set_unknown(c / width, c % width, beliefs.favours(c));
            }
            if propagator.propagate_all(puzzle, &mut trial).is_ok() {
                break Some(trial);
            }
            failed += 1;
            if take == 1 {
                // The lines refuse the surest cell's favoured value: they force the other.
                let c = unknown[0] as usize;
                let mut trial = grid.clone();
                trial.set_unknown(c / width, c % width, !beliefs.favours(c));
                break propagator
                    .propagate_all(puzzle, &mut trial)
                    .is_ok()
                    .then_some(trial);
            }
            take /= 2;
        };
        grid = next?;
        // The step's cells first, then those the lines fixed, surest first.
        order.extend_from_slice(&unknown[..take]);
        order.extend(unknown[take..].iter().filter(|&&c| !is_unknown(&grid, c)));
        unknown.retain(|&c| is_unknown(&grid, c));
        let work = beliefs.work(&grid).max(1);
        let rounds = ROUNDS_PER_STEP.min((WORK_LIMIT * WORK_FACTOR).saturating_sub(spent) / work);
        if unknown.is_empty() || failed > MAX_FAILED_TRIES || rounds == 0 {
            break;
        }
        beliefs.spent = 0;
        beliefs.settle(&grid, rounds, stop);
        spent += beliefs.spent;
        if stop() {
            return None;
        }
    }
    let phases = grid.to_cells();
    (unknown.is_empty() && puzzle.check_grid(&phases).is_ok()).then_some(FirstGuess {
        phases,
        order,
        settled: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `count` random 20x20 pictures at density 0.5 from `seed`, with their puzzles.
    fn random_puzzles(seed: u64, count: usize) -> impl Iterator<Item = (Vec<bool>, Puzzle)> {
        let mut rng = crate::rng::SplitMix(seed);
        (0..count).map(move |_| {
            let picture: Vec<bool> = (0..400).map(|_| rng.chance(1, 2)).collect();
            let puzzle = Puzzle::from_picture(20, 20, &picture).expect("a picture");
            (picture, puzzle)
        })
    }

    #[test]
    fn a_guess_it_keeps_solves_the_puzzle_and_orders_every_cell_once() {
        // Random 20x20 pictures at density 0.5: decimation reaches a solution of 11 of these 12.
        let mut kept = 0;
        for (_, puzzle) in random_puzzles(5, 12) {
            let Some(guess) = decimated_guess(&puzzle, &Grid::new(20, 20), None, &mut || false)
            else {
                continue;
            };
            kept += 1;
            assert!(puzzle.check_grid(&guess.phases).is_ok(), "a solution");
            let mut order = guess.order.clone();
            order.sort_unstable();
            assert!(order.iter().copied().eq(0..400), "every cell once");
        }
        assert!(kept >= 9, "{kept} of 12 kept");
    }

    /// Decimation from the first guess's messages reaches the grid that decimation from the
    /// start reaches, or fails as it does.
    #[test]
    fn going_on_from_the_first_guess_decimates_as_from_the_start() {
        let mut kept = 0;
        for (picture, puzzle) in random_puzzles(9, 4) {
            let root = Grid::new(20, 20);
            let first = super::super::first_guess(&puzzle, &root, &mut || false);
            assert!(first.as_ref().is_some_and(|guess| guess.settled.is_some()));
            let from_start = decimated_guess(&puzzle, &root, None, &mut || false);
            assert_eq!(
                decimated_guess(&puzzle, &root, first.as_ref(), &mut || false),
                from_start,
                "{picture:?}"
            );
            kept += usize::from(from_start.is_some());
        }
        assert!(kept >= 2, "{kept} of 4 kept");
    }

    #[test]
    fn known_cells_come_first_and_keep_their_values() {
        let picture: Vec<bool> = (0..64).map(|c| (c * 7 + c / 8) % 3 == 0).collect();
        let puzzle = Puzzle::from_picture(8, 8, &picture).expect("a picture");
        let mut root = Grid::new(8, 8);
        root.set_unknown(2, 5, picture[2 * 8 + 5]);
        root.set_unknown(6, 1, picture[6 * 8 + 1]);
        Propagator::<Puzzle>::new()
            .propagate_all(&puzzle, &mut root)
            .expect("the picture's own cells");
        let known: Vec<u32> = (0..64)
            .filter(|&c| root.cell(c as usize / 8, c as usize % 8) != Cell::Unknown)
            .collect();
        let guess = decimated_guess(&puzzle, &root, None, &mut || false).expect("a small puzzle");
        assert_eq!(guess.order[..known.len()], known[..]);
        for &c in &known {
            assert_eq!(guess.phases[c as usize], picture[c as usize]);
        }
    }

    #[test]
    fn a_puzzle_without_solution_gets_none() {
        // Rows `2` and `0`, columns `2` and `0`: row 1 cannot hold column 0's second cell.
        use crate::puzzle::Clue;
        let clues = || vec![Clue(vec![2]), Clue(vec![])];
        let puzzle = Puzzle::new(clues(), clues()).expect("clues that fit their lines");
        assert!(decimated_guess(&puzzle, &Grid::new(2, 2), None, &mut || false).is_none());
    }
}
