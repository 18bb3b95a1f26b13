//! The learning search against the test-only enumeration (`crate::test_enumeration`), over
//! both domains: the same solutions, each once and each satisfying the clues, on random
//! pictures (and random black-and-white clues); and stopping after a limit. Its race against
//! the probing search is tested in `crate::search`.

use std::collections::BTreeSet;
use std::fmt::Debug;
use std::sync::atomic::AtomicBool;

use proptest::prelude::*;

use super::*;
use crate::color::{Color, ColorGrid, ColorPuzzle};
use crate::puzzle::Clue;
use crate::test_strategies::random_clues;

/// A domain whose solutions the learning search is checked against (by the test-only
/// enumeration, `crate::test_enumeration`).
trait Probed: LearnDomain {
    /// A solution as compared.
    type Key: Ord + Clone + Debug;
    /// The root the searches propagate to, if the puzzle has one.
    fn probed_root(&self) -> Option<Self::Grid>;
    /// A complete grid as compared, after checking that it satisfies the clues.
    fn key(&self, grid: &Self::Grid) -> Self::Key;
    /// Every solution, by the test-only enumeration.
    fn enumerated(&self) -> BTreeSet<Self::Key>;
}

impl Probed for Puzzle {
    type Key = String;

    fn probed_root(&self) -> Option<Grid> {
        crate::test_enumeration::root(self).expect("valid")
    }

    fn key(&self, grid: &Grid) -> String {
        assert!(grid.is_complete());
        assert!(
            self.check_grid(&grid.to_cells()).is_ok(),
            "{}",
            grid.render()
        );
        grid.render()
    }

    fn enumerated(&self) -> BTreeSet<String> {
        crate::test_enumeration::solutions(self)
            .iter()
            .map(Grid::render)
            .collect()
    }
}

impl Probed for ColorPuzzle {
    type Key = Vec<u8>;

    fn probed_root(&self) -> Option<ColorGrid> {
        crate::test_enumeration::root(self).expect("valid")
    }

    fn key(&self, grid: &ColorGrid) -> Vec<u8> {
        assert!(grid.is_complete());
        let colors = grid.to_colors();
        assert!(
            self.check_grid(&colors).is_ok(),
            "invalid solution {colors:?}"
        );
        colors
    }

    fn enumerated(&self) -> BTreeSet<Vec<u8>> {
        crate::test_enumeration::solutions(self)
            .iter()
            .map(ColorGrid::to_colors)
            .collect()
    }
}

/// Every solution the learning search reports, and whether it said it was done.
fn learned<D: Probed>(puzzle: &D) -> (Vec<D::Key>, bool) {
    learned_seeded(puzzle, None)
}

/// The number of variables of a learning search of `puzzle`.
fn vars<D: LearnDomain>(puzzle: &D) -> u64 {
    let shape = puzzle.shape();
    (shape.height * shape.width * puzzle.vars_per_cell()) as u64
}

/// [`learned`], the first decisions in an order drawn from `seed` if given.
fn learned_seeded<D: Probed>(puzzle: &D, seed: Option<u64>) -> (Vec<D::Key>, bool) {
    let Some(root) = puzzle.probed_root() else {
        return (Vec::new(), true);
    };
    let mut found = Vec::new();
    let outcome = learn_search_until(
        puzzle,
        &root,
        Racer {
            seed,
            ..Racer::default()
        },
        |_| false,
        |grid| {
            found.push(puzzle.key(grid));
            Flow::Continue
        },
    );
    assert_eq!(outcome.stats.solutions, found.len() as u64);
    // A consistent trail below a conflict's level leaves at least the conflict's decision
    // unset.
    let deepest = outcome.stats.deepest;
    if outcome.stats.conflicts == 0 {
        assert_eq!(deepest, 0);
    } else {
        assert!(deepest < vars(puzzle), "deepest consistent trail {deepest}");
    }
    (found, outcome.exhausted)
}

/// The learning search ends exhausted with the enumeration's solutions, each once, in cell
/// order and in a seeded order alike; returns them.
fn assert_same_solutions<D: Probed>(puzzle: &D) -> Result<BTreeSet<D::Key>, TestCaseError> {
    let enumerated = puzzle.enumerated();
    for seed in [None, Some(7)] {
        let (found, exhausted) = learned_seeded(puzzle, seed);
        prop_assert!(exhausted);
        let distinct: BTreeSet<D::Key> = found.iter().cloned().collect();
        prop_assert_eq!(distinct.len(), found.len(), "a solution was reported twice");
        prop_assert_eq!(&distinct, &enumerated);
    }
    Ok(enumerated)
}

/// A search told to stop at the second solution of a puzzle with more stops there, and says
/// it is not done; one stopped by its poll is not done either.
fn assert_stops_when_told<D: LearnDomain>(puzzle: &D, root: &D::Grid) {
    let mut seen = 0;
    let outcome = learn_search_until(
        puzzle,
        root,
        Racer::default(),
        |_| false,
        |_| {
            seen += 1;
            if seen == 2 {
                Flow::Stop
            } else {
                Flow::Continue
            }
        },
    );
    assert_eq!(seen, 2);
    assert!(!outcome.exhausted);
    let outcome = learn_search_until(puzzle, root, Racer::default(), |_| true, |_| Flow::Continue);
    assert!(!outcome.exhausted, "stopped before the end");
}

fn picture(max: usize) -> impl Strategy<Value = Puzzle> {
    crate::test_strategies::bw_picture(1, max, 0.45)
}

fn palette(n: usize) -> Vec<Color> {
    (0..n)
        .map(|i| {
            Color::new(
                format!("c{i}"),
                [i as u8 * 50, 0, 0],
                char::from(b'a' + i as u8),
            )
        })
        .collect()
}

fn color_picture(h: usize, w: usize, colors: u8) -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(0..colors, h * w)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn finds_every_solution_of_random_pictures_once(puzzle in picture(10)) {
        assert_same_solutions(&puzzle)?;
    }

    #[test]
    fn finds_every_solution_of_random_clues_once(puzzle in random_clues(7)) {
        assert_same_solutions(&puzzle)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// On random colour pictures up to 8x8 with up to 4 colours besides the background, the
    /// learning search reports every solution the test-only enumeration finds, each once, each
    /// valid, the picture among them, and ends exhausted.
    #[test]
    fn learns_the_same_solutions_as_the_probing_search(
        (h, w, colors, cells) in (1usize..9, 1usize..9, 2u8..6)
            .prop_flat_map(|(h, w, c)| (Just(h), Just(w), Just(c), color_picture(h, w, c)))
    ) {
        let puzzle = ColorPuzzle::from_picture(palette(colors.into()), h, w, &cells)?;
        let distinct = assert_same_solutions(&puzzle)?;
        prop_assert!(distinct.contains(&cells));
    }
}

/// The solutions of a learning search that starts with every clause another search of the same
/// puzzle offered, that one having listed every solution first (so that it blocked them all),
/// and how many clauses it took.
/// A learning search of `puzzle` from `root` that aims at the target phases and moves each
/// conflict's variables to the front.
fn targets_engine<'p>(puzzle: &'p Puzzle, root: &Grid) -> engine::Engine<'p, Puzzle> {
    engine::Engine::new(
        puzzle,
        root,
        order::Phases::Targets,
        order::Decisions::MoveToFront,
    )
}

fn learned_after_sharing(puzzle: &Puzzle) -> (BTreeSet<String>, u64) {
    let Some(root) = puzzle.probed_root() else {
        return (BTreeSet::new(), 0);
    };
    let exchange = ClauseExchange::new();
    // The one that takes is search 0, which takes at once (see `share::QUIET_CONFLICTS`).
    let mut first = targets_engine(puzzle, &root);
    // In a drawn order: in the first guess's order the lines decide these small puzzles with
    // too few conflicts to offer a clause.
    first.perturb(3);
    first.share(share::Sharing::new(&exchange, 1));
    assert!(schedule::run(
        &mut first,
        |_| false,
        |_| Flow::Continue,
        |_| {}
    ));
    // A restart hands its clauses to the exchange.
    let _ = schedule::Cdcl::restart(&mut first);
    let mut second = targets_engine(puzzle, &root);
    second.perturb(7);
    second.share(share::Sharing::new(&exchange, 0));
    let mut found = BTreeSet::new();
    let exhausted = schedule::Cdcl::restart(&mut second)
        && schedule::run(
            &mut second,
            |_| false,
            |grid| {
                assert!(
                    found.insert(puzzle.key(grid)),
                    "a solution was reported twice"
                );
                Flow::Continue
            },
            |_| {},
        );
    assert!(exhausted);
    (found, second.stats.imported)
}

/// Clauses taken from another search cut no solution: on random 10x10 pictures, a search that
/// starts with every clause that another one offered while listing every solution (after
/// which the other's clauses may hold only because of its blocking clauses, so it offered
/// none) lists them all again; and on some of them the clauses were taken.
#[test]
fn a_search_that_takes_another_ones_clauses_finds_every_solution() {
    let mut rng = crate::rng::SplitMix(36);
    let mut imported = 0;
    let mut ambiguous = 0;
    for _ in 0..150 {
        let cells: Vec<bool> = (0..100).map(|_| rng.chance(1, 2)).collect();
        let puzzle = Puzzle::from_picture(10, 10, &cells).expect("valid");
        let enumerated = puzzle.enumerated();
        let (found, taken) = learned_after_sharing(&puzzle);
        assert_eq!(found, enumerated, "{cells:?}");
        imported += taken;
        ambiguous += usize::from(enumerated.len() > 1);
    }
    assert!(imported > 0, "no clause was shared");
    assert!(ambiguous > 10, "too few puzzles with several solutions");
}

/// A search that explains every deduction unshrunk, as one told to stop does in the middle of
/// an analysis, learns clauses that cut no solution: on random 10x10 pictures it lists every
/// solution, each once, through some dozens of conflicts.
#[test]
fn unshrunk_explanations_cut_no_solution() {
    let mut rng = crate::rng::SplitMix(41);
    let mut conflicts = 0;
    for _ in 0..100 {
        let cells: Vec<bool> = (0..100).map(|_| rng.chance(1, 2)).collect();
        let puzzle = Puzzle::from_picture(10, 10, &cells).expect("valid");
        let root = puzzle.probed_root().expect("a picture has a solution");
        let mut engine = targets_engine(&puzzle, &root);
        engine.perturb(5);
        engine.always_hurry();
        let mut found = BTreeSet::new();
        let exhausted = schedule::run(
            &mut engine,
            |_| false,
            |grid| {
                assert!(found.insert(puzzle.key(grid)), "a solution reported twice");
                Flow::Continue
            },
            |_| {},
        );
        assert!(exhausted);
        assert_eq!(found, puzzle.enumerated(), "{cells:?}");
        conflicts += engine.stats.conflicts;
    }
    assert!(conflicts > 20, "too few conflicts: {conflicts}");
}

/// Searches that take one shared first guess search as each would with its own: the first
/// works the guess out, a seeded one takes it; on random 15x15 pictures, the same counters.
/// A shared guess that keeps no messages for decimation is the same guess without them.
#[test]
fn searches_that_share_a_first_guess_search_as_with_their_own() {
    let mut rng = crate::rng::SplitMix(28);
    for round in 0..8 {
        let cells: Vec<bool> = (0..225).map(|_| rng.chance(1, 2)).collect();
        let puzzle = Puzzle::from_picture(15, 15, &cells).expect("valid");
        let root = puzzle.probed_root().expect("a picture has a solution");
        let keep_settled = round % 2 == 0;
        let shared = SharedGuess::new(keep_settled);
        for seed in [None, Some(1)] {
            let run = |guess| {
                let racer = Racer {
                    seed,
                    exchange: None,
                    guess,
                    decimate_after: None,
                };
                learn_search_until(&puzzle, &root, racer, |_| false, |_| Flow::Continue).stats
            };
            assert_eq!(run(Some(&shared)), run(None), "{cells:?}");
        }
        let mut own = puzzle.first_guess(&root, &mut || false);
        assert!(own.as_ref().is_some_and(|own| own.settled.is_some()));
        if !keep_settled && let Some(own) = own.as_mut() {
            own.settled = None;
        }
        assert_eq!(shared.guess.get(), Some(&own), "{cells:?}");
    }
}

/// `squares` 2x2 squares along the diagonal, each with either diagonal filled (see
/// `diagonal_squares`), all but the first `open` given one cell: `2^open` solutions (forty
/// squares make an 80x80 grid).
fn squares_with_open(squares: usize, open: usize) -> crate::puzzle::Puzzle {
    let mut puzzle = crate::test_strategies::diagonal_squares(squares);
    for square in open..squares {
        puzzle.givens.push(crate::puzzle::Given {
            row: 2 * square,
            col: 2 * square,
            filled: true,
        });
    }
    puzzle
}

/// Forty squares with five open (an 80x80 grid), its probed root, and the grid decimation
/// reaches from that root.
fn five_open_squares_and_their_decimation() -> (crate::puzzle::Puzzle, Grid, order::FirstGuess) {
    let puzzle = squares_with_open(40, 5);
    let root = puzzle.probed_root().expect("a picture has a solution");
    let guess = puzzle
        .decimated_guess(&root, None, &mut || false)
        .expect("decimation solves this puzzle");
    (puzzle, root, guess)
}

/// A search that tries decimation at once takes its guess when decimation solves the puzzle:
/// on a large grid (80x80: forty 2x2 squares, five open) its first dive, in decimation's
/// order and not its seed's, meets no conflict and ends at decimation's grid; a search that
/// does not try it, with the same seed, finds another solution first, and so does one that
/// would try it only after more conflicts than it meets. Small grids are not decimated.
#[test]
fn a_search_that_tries_decimation_dives_to_the_grid_it_reaches() {
    let (puzzle, root, guess) = five_open_squares_and_their_decimation();
    let first_solution = |decimate_after| {
        let racer = Racer {
            seed: Some(1),
            decimate_after,
            ..Racer::default()
        };
        let mut first = Vec::new();
        let outcome = learn_search_until(
            &puzzle,
            &root,
            racer,
            |_| false,
            |grid| {
                first = grid.to_cells();
                Flow::Stop
            },
        );
        (first, outcome.stats.conflicts)
    };
    assert_eq!(first_solution(Some(0)), (guess.phases.clone(), 0));
    let without = first_solution(None);
    assert_ne!(without.0, guess.phases);
    assert_eq!(first_solution(Some(1_000_000)), without);
    let small = squares_with_open(39, 5);
    let small_root = small.probed_root().expect("a picture has a solution");
    assert!(
        small
            .decimated_guess(&small_root, None, &mut || false)
            .is_none()
    );
}

/// A guess taken at a restart part way through a search leads the next dive, with what the
/// search has learned: after a first solution that is not decimation's, a restart and the
/// guess take the search to decimation's grid with no conflict on the way.
#[test]
fn a_guess_taken_at_a_restart_leads_the_next_dive() {
    let (puzzle, root, guess) = five_open_squares_and_their_decimation();
    let mut engine = targets_engine(&puzzle, &root);
    engine.perturb(1);
    let first_solution = |engine: &mut engine::Engine<'_, Puzzle>| {
        let mut first = Vec::new();
        let mut stop_at_first = |grid: &Grid| {
            first = grid.to_cells();
            Flow::Stop
        };
        schedule::run(engine, |_| false, &mut stop_at_first, |_| {});
        first
    };
    assert_ne!(first_solution(&mut engine), guess.phases);
    assert!(schedule::Cdcl::restart(&mut engine));
    engine.take_guess(guess.clone());
    let conflicts = engine.stats.conflicts;
    assert_eq!(first_solution(&mut engine), guess.phases);
    assert_eq!(engine.stats.conflicts, conflicts);
}

/// The search loop hands the search to its restart hook after every restart, at level 0.
#[test]
fn the_restart_hook_sees_every_restart_at_level_0() {
    // A random 25x25 picture whose solutions take a few hundred conflicts to list.
    let mut rng = crate::rng::SplitMix(4);
    let picture: Vec<bool> = (0..625).map(|_| rng.chance(1, 2)).collect();
    let puzzle = Puzzle::from_picture(25, 25, &picture).expect("a picture");
    let root = puzzle.probed_root().expect("a picture has a solution");
    let mut engine = engine::Engine::new(
        &puzzle,
        &root,
        order::Phases::Saved,
        order::Decisions::MoveToFront,
    );
    engine.perturb(1);
    let mut seen = Vec::new();
    let exhausted = schedule::run(
        &mut engine,
        |_| false,
        |_| Flow::Continue,
        |engine| seen.push((engine.decision_level(), engine.stats.restarts)),
    );
    assert!(exhausted);
    assert!(seen.len() >= 2, "restarts in {:?}", engine.stats);
    let restarts: Vec<u64> = (1..=engine.stats.restarts).collect();
    assert_eq!(seen.iter().map(|&(_, r)| r).collect::<Vec<_>>(), restarts);
    assert!(seen.iter().all(|&(level, _)| level == 0));
}

#[test]
fn permutation_puzzles_list_every_permutation() {
    let ones = || (0..6).map(|_| Clue(vec![1])).collect::<Vec<_>>();
    let puzzle = Puzzle::new(ones(), ones()).expect("valid");
    let (found, exhausted) = learned(&puzzle);
    assert!(exhausted);
    assert_eq!(found.len(), 720);
    // In variable order the blocking clauses turn the last decision each time, as a
    // depth-first search would, and no conflict arises; in a seeded order they do.
    let root = Grid::new(6, 6);
    let outcome = learn_search_until(
        &puzzle,
        &root,
        Racer {
            seed: Some(1),
            ..Racer::default()
        },
        |_| false,
        |_| Flow::Continue,
    );
    let (seeded, exhausted) = learned_seeded(&puzzle, Some(1));
    assert!(exhausted);
    assert_eq!(seeded.iter().collect::<BTreeSet<_>>().len(), 720);
    // Blocking the solutions one by one leads to conflicts deep in the tree.
    assert!(
        (1..36).contains(&outcome.stats.deepest),
        "deepest consistent trail {}",
        outcome.stats.deepest
    );
    assert_eq!(found.iter().collect::<BTreeSet<_>>().len(), 720);
    // The same line states recur from one blocked solution to the next.
    assert!(
        outcome.stats.explanations_recalled > 0,
        "no explanation recalled"
    );
}

#[test]
fn stops_when_told_and_says_it_is_not_done() {
    let ones = || (0..5).map(|_| Clue(vec![1])).collect::<Vec<_>>();
    let puzzle = Puzzle::new(ones(), ones()).expect("valid");
    assert_stops_when_told(&puzzle, &Grid::new(5, 5));
}

#[test]
fn a_colour_search_stops_when_asked() {
    // A 3x3 picture whose every clue is one cell of colour 1 has 3! = 6 solutions.
    let cells = [1, 0, 0, 0, 1, 0, 0, 0, 1];
    let puzzle = ColorPuzzle::from_picture(palette(2), 3, 3, &cells).expect("valid");
    assert_eq!(learned(&puzzle).0.len(), 6);
    let root = puzzle.probed_root().expect("solvable");
    assert_stops_when_told(&puzzle, &root);
}

#[test]
fn a_raised_cancel_flag_stops_at_once() {
    let ones = || (0..8).map(|_| Clue(vec![1])).collect::<Vec<_>>();
    let puzzle = Puzzle::new(ones(), ones()).expect("valid");
    let outcome = learn_search(&puzzle, &Grid::new(8, 8), &AtomicBool::new(true), |_| {
        Flow::Continue
    });
    assert!(!outcome.exhausted);
    assert_eq!(outcome.stats.solutions, 0);
}

/// The completion checker (see [`super::completion`]).
mod completion {
    use proptest::prelude::*;

    use crate::color::{ColorGrid, ColorPuzzle};
    use crate::domain::DomainGrid;
    use crate::grid::Cell;
    use crate::grid::Grid;
    use crate::learn::{Completion, CompletionChecker};
    use crate::propagate::Propagator;
    use crate::puzzle::Given;
    use crate::puzzle::Puzzle;
    use crate::test_strategies::colour_picture;

    fn picture(max: usize) -> impl Strategy<Value = (usize, usize, Vec<bool>)> {
        (2..=max, 2..=max).prop_flat_map(|(h, w)| {
            (
                Just(h),
                Just(w),
                proptest::collection::vec(proptest::bool::weighted(0.4), h * w),
            )
        })
    }

    fn unknown_cells(grid: &Grid) -> Vec<(u32, u32)> {
        let mut cells = Vec::new();
        for row in 0..grid.height() {
            for col in 0..grid.width() {
                if grid.cell(row, col) == Cell::Unknown {
                    cells.push((row as u32, col as u32));
                }
            }
        }
        cells
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(100))]

        /// One checker asked about grid after grid (the puzzle with a few cells given, each
        /// time others): it finds a solution that extends the grid exactly when one exists,
        /// what it learned from earlier grids notwithstanding.
        #[test]
        fn a_checker_finds_a_completion_exactly_when_there_is_one(
            (h, w, cells) in picture(8),
            givens in proptest::collection::vec(
                proptest::collection::vec((0usize..64, any::<bool>()), 1..5),
                1..6,
            ),
        ) {
            let puzzle = Puzzle::from_picture(h, w, &cells).expect("valid");
            let root = crate::test_enumeration::root(&puzzle)
                .expect("valid")
                .expect("a picture has a solution");
            let mut checker = CompletionChecker::new(&puzzle, &root);
            for given in givens {
                let mut constrained = puzzle.clone();
                for (at, filled) in given {
                    let (row, col) = ((at / w) % h, at % w);
                    constrained.givens.push(Given { row, col, filled });
                }
                let Ok(Some(grid)) = crate::test_enumeration::root(&constrained) else {
                    continue;
                };
                let solutions = crate::test_enumeration::count(&constrained);
                let unknown = unknown_cells(&grid);
                match checker.check(&grid, &unknown, u64::MAX, || false) {
                    Completion::Found(found) => {
                        prop_assert!(solutions > 0);
                        prop_assert!(found.is_complete(), "{}", found.render());
                        prop_assert!(puzzle.check_grid(&found.to_cells()).is_ok());
                        for row in 0..h {
                            for col in 0..w {
                                let known = grid.cell(row, col);
                                prop_assert!(
                                    known == Cell::Unknown || known == found.cell(row, col)
                                );
                            }
                        }
                    }
                    Completion::Impossible => prop_assert_eq!(solutions, 0),
                    Completion::Unknown => prop_assert!(false, "an unlimited check decides"),
                }
            }
        }

        /// The same for colour: one checker asked about grids whose cells are narrowed to
        /// random sets of colours, then propagated.
        #[test]
        fn a_colour_checker_finds_a_completion_exactly_when_there_is_one(
            puzzle in colour_picture(6),
            narrowings in proptest::collection::vec(
                proptest::collection::vec((0usize..36, 1u64..16), 1..4),
                1..6,
            ),
        ) {
            let Ok(Some(root)) = crate::test_enumeration::root(&puzzle) else {
                return Ok(());
            };
            let all = crate::test_enumeration::solutions(&puzzle);
            let (h, w) = (root.height(), root.width());
            let mut checker = CompletionChecker::new(&puzzle, &root);
            let mut propagator = Propagator::<ColorPuzzle>::new();
            for narrowing in narrowings {
                let mut grid = root.clone();
                let narrowed = narrowing.iter().all(|&(at, set)| {
                    let (row, col) = ((at / w) % h, at % w);
                    grid.restrict(row, col, set).is_ok()
                        && propagator.propagate_cell(&puzzle, &mut grid, row, col).is_ok()
                });
                if !narrowed {
                    continue;
                }
                let agrees = |s: &ColorGrid| {
                    (0..h).all(|r| (0..w).all(|c| s.values(r, c) & grid.values(r, c) != 0))
                };
                let solutions = all.iter().filter(|s| agrees(s)).count();
                let unknown: Vec<(u32, u32)> = (0..h)
                    .flat_map(|r| (0..w).map(move |c| (r, c)))
                    .filter(|&(r, c)| !grid.values(r, c).is_power_of_two())
                    .map(|(r, c)| (r as u32, c as u32))
                    .collect();
                match checker.check(&grid, &unknown, u64::MAX, || false) {
                    Completion::Found(found) => {
                        prop_assert!(solutions > 0);
                        prop_assert!(found.complete());
                        prop_assert!(all.contains(&found) && agrees(&found));
                    }
                    Completion::Impossible => prop_assert_eq!(solutions, 0),
                    Completion::Unknown => prop_assert!(false, "an unlimited check decides"),
                }
            }
        }
    }
}
