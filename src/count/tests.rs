//! Counting by profiles, by the sweep and by components against enumeration, factorials and
//! powers of two.

use std::sync::atomic::AtomicBool;

use proptest::prelude::*;

use crate::test_strategies::{diagonal_squares, permutations, random_clues, seeded_picture};

use super::*;
use crate::grid::Grid;
use crate::puzzle::Puzzle;

/// Counts with only the methods whose limits are not 0, taking turns (no race).
fn count_with<P: Countable>(puzzle: &P, max_profiles: usize, sweep_memory: usize) -> ExactCount {
    let limits = CountLimits {
        max_profiles,
        sweep_memory,
        // The least cache there is, whose generations turn over often.
        cache_memory: 0,
        race: false,
        completion_checks: true,
        backbone_after: None,
        sweep_from: None,
    };
    let progress = CountProgress::default();
    count_exact(puzzle, limits, &AtomicBool::new(false), &progress).expect("counts")
}

/// Profiles alone (or propagation, which settles some puzzles first).
pub(super) fn profile_count<P: Countable>(puzzle: &P) -> BigUint {
    let counted = count_with(puzzle, DEFAULT_MAX_PROFILES, 0);
    assert!(!matches!(
        counted.method,
        ExactMethod::Components { .. } | ExactMethod::Sweep { .. }
    ));
    counted.count
}

/// The sweep alone (whether or not the grid falls apart), from the first side.
pub(super) fn sweep_count<P: Countable>(puzzle: &P) -> BigUint {
    let Some(root) = probed_root(puzzle).expect("valid") else {
        return BigUint::ZERO;
    };
    let cancel = AtomicBool::new(false);
    let stats = SweepStats::default();
    let stop = Stop::from(&cancel);
    let budget = MemoBudget::new(DEFAULT_SWEEP_MEMORY);
    let count =
        sweep::new_sweep::<BigUint, P>(puzzle, &root, Orientation::ALL[0], &budget, &stats, stop)
            .expect("short lines")
            .count_big(&root, stop)
            .expect("counts");
    // However many values its cells have, a finished sweep has explored its whole tree.
    assert_eq!(stats.explored(), 1.0);
    count
}

pub(super) fn component_count(puzzle: &Puzzle) -> BigUint {
    let counted = count_with(puzzle, 0, 0);
    assert!(!matches!(
        counted.method,
        ExactMethod::Profiles { .. } | ExactMethod::Sweep { .. }
    ));
    counted.count
}

/// Components alone, checking sets of cells for a completion as `checks` says.
pub(super) fn component_count_checking<P: Countable>(
    puzzle: &P,
    checks: Option<CompletionChecks>,
) -> BigUint {
    let Some(root) = probed_root(puzzle).expect("valid") else {
        return BigUint::ZERO;
    };
    let (cancel, stats) = (AtomicBool::new(false), ComponentStats::default());
    let count = ComponentCounter::<BigUint, P>::new(puzzle, &cancel, &stats)
        .completion_checks(checks)
        .count(&root)
        .expect("counts");
    if checks.is_none() {
        assert_eq!(
            stats
                .checks_completed
                .load(std::sync::atomic::Ordering::Relaxed),
            0
        );
    }
    count
}

/// Checks of every set of cells, however small: with all the conflicts they need, with
/// none (each check that needs a conflict gives up), and no checks.
pub(super) const CHECKING: [Option<CompletionChecks>; 3] = [
    Some(CompletionChecks {
        min_cells: 1,
        max_conflicts: u64::MAX,
    }),
    Some(CompletionChecks {
        min_cells: 1,
        max_conflicts: 0,
    }),
    None,
];

/// On pictures big enough for probing to miss dead residual problems, the checks prove some
/// impossible, and the counts stay those of the sweep and of components without checks.
#[test]
fn completion_checks_prune_dead_subtrees_without_changing_counts() {
    let mut impossible = 0;
    // Seed 1 (4,525,794 solutions) is left out: it takes seconds even in release builds.
    for seed in 2..=12 {
        let puzzle = seeded_picture(14, 14, seed);
        let Some(root) = probed_root(&puzzle).expect("valid") else {
            panic!("a picture has a solution");
        };
        let (cancel, stats) = (AtomicBool::new(false), ComponentStats::default());
        let checked = ComponentCounter::<BigUint>::new(&puzzle, &cancel, &stats)
            .completion_checks(CHECKING[0])
            .count(&root)
            .expect("counts");
        impossible += stats
            .checks_impossible
            .load(std::sync::atomic::Ordering::Relaxed);
        assert_eq!(checked, sweep_count(&puzzle), "seed {seed}");
        assert_eq!(
            checked,
            component_count_checking(&puzzle, None),
            "seed {seed}"
        );
    }
    assert!(
        impossible > 0,
        "no check proved a residual problem impossible"
    );
}

/// The number of solutions, by the test-only enumeration.
fn enumerated(puzzle: &Puzzle) -> BigUint {
    BigUint::from(crate::test_enumeration::count(puzzle))
}

pub(super) fn factorial(n: u32) -> BigUint {
    (1..=n).map(BigUint::from).product()
}

#[test]
fn permutation_puzzles_have_n_factorial_solutions() {
    for n in 1..=12 {
        assert_eq!(
            profile_count(&permutations(n)),
            factorial(n as u32),
            "n = {n}"
        );
    }
    for n in 1..=9 {
        assert_eq!(
            sweep_count(&permutations(n)),
            factorial(n as u32),
            "n = {n}"
        );
    }
    for n in 1..=6 {
        assert_eq!(
            component_count(&permutations(n)),
            factorial(n as u32),
            "n = {n}"
        );
    }
}

#[test]
fn counts_past_u128_switch_to_big_integers() {
    // 130 independent 2x2 squares on the diagonal, each with its two diagonals: 2^130.
    let squares = 130;
    let puzzle = diagonal_squares(squares);
    let expected = BigUint::from(2u8).pow(squares as u32);
    assert_eq!(profile_count(&puzzle), expected);
    assert_eq!(component_count(&puzzle), expected);
    // The grid falls apart into 130 components, so the sweep leaves it to them.
    let counted = count_with(&puzzle, 0, DEFAULT_SWEEP_MEMORY);
    assert!(matches!(counted.method, ExactMethod::Components { .. }));
    assert_eq!(counted.count, expected);
}

#[test]
fn wide_profiles_are_held_to_a_layer_in_bytes() {
    use super::profile::{LAYER_BYTES, LayerLimit, within_bytes};
    // Narrow keys: the default limit and a higher one asked for stand.
    let narrow = within_bytes::<[u64; 2], u128>(DEFAULT_MAX_PROFILES, 20, LAYER_BYTES);
    assert_eq!(narrow, DEFAULT_MAX_PROFILES);
    let higher = LayerLimit::at_most(10_000_000);
    assert_eq!(
        within_bytes::<[u64; 2], u128>(higher.profiles, 24, higher.bytes),
        10_000_000
    );
    // A profile of 2,000 crossing lines takes 4 KB: a layer at the default limit would take a
    // gigabyte, so it holds about 66,000.
    let wide = within_bytes::<Box<[u16]>, u128>(DEFAULT_MAX_PROFILES, 2000, LAYER_BYTES);
    assert!(wide < DEFAULT_MAX_PROFILES / 3, "{wide}");
    assert!(wide * 4000 <= LAYER_BYTES, "{wide}");
    assert!(wide * 4100 > LAYER_BYTES / 2, "{wide}");
    assert_eq!(within_bytes::<Box<[u16]>, u128>(10, 2000, LAYER_BYTES), 10);
}

#[test]
fn a_layer_limit_is_reported_not_exceeded() {
    let puzzle = permutations(12);
    let root = Grid::new(12, 12);
    let rows = Orientation::ALL[0];
    let (limit, cancel) = (LayerLimit::at_most(100), AtomicBool::new(false));
    let error = count_by_profiles(&puzzle, &root, rows, limit, Stop::from(&cancel), |_| {})
        .expect_err("12 columns of 1-clues need 924 profiles in the middle layer");
    assert_eq!(error, CountError::TooManyProfiles { limit: 100 });
    // count_exact then counts by the sweep (20 profiles in the middle layer of 6!), or by
    // components when the sweep's memo is too small too.
    let counted = count_with(&permutations(6), 10, DEFAULT_SWEEP_MEMORY);
    assert!(matches!(counted.method, ExactMethod::Sweep { .. }));
    assert_eq!(counted.count, factorial(6));
    let counted = count_with(&permutations(6), 10, 1000);
    assert!(matches!(counted.method, ExactMethod::Components { .. }));
    assert_eq!(counted.count, factorial(6));
}

#[test]
fn a_raised_cancel_flag_stops_the_count() {
    for (max_profiles, sweep_memory) in [(1 << 20, 0), (0, 1 << 20), (0, 0)] {
        let limits = CountLimits {
            max_profiles,
            sweep_memory,
            race: false,
            completion_checks: true,
            backbone_after: Some(std::time::Duration::ZERO),
            sweep_from: None,
            ..CountLimits::default()
        };
        let progress = CountProgress::default();
        let error = count_exact(&permutations(9), limits, &AtomicBool::new(true), &progress)
            .expect_err("cancelled");
        assert_eq!(error, CountError::Cancelled);
    }
}

#[test]
fn progress_shows_the_last_layer_of_the_profiles() {
    let progress = CountProgress::default();
    let limits = CountLimits::default();
    let result =
        count_exact(&permutations(6), limits, &AtomicBool::new(false), &progress).expect("counts");
    assert_eq!(result.count, BigUint::from(720u32));
    let at_end = progress.snapshot();
    assert_eq!(at_end.phase, CountPhase::Profiles);
    assert_eq!(
        (at_end.lines_fixed, at_end.lines, at_end.profiles),
        (6, 6, 1)
    );
}

#[test]
fn a_finished_sweep_has_explored_everything_and_counted_every_solution() {
    // 8! solutions: the sweep branches deeply and reuses its memo.
    let progress = CountProgress::default();
    let result = count_exact(
        &permutations(8),
        sweep_first(),
        &AtomicBool::new(false),
        &progress,
    )
    .expect("counts");
    assert!(matches!(result.method, ExactMethod::Sweep { .. }));
    assert_eq!(result.count, factorial(8));
    let at_end = progress.snapshot();
    assert_eq!(at_end.phase, CountPhase::Sweep);
    assert_eq!(at_end.sweep_explored, 1.0);
    assert_eq!(at_end.sweep_counted, 40320.0);
    assert!(at_end.sweep_nodes.0 > 0 && at_end.sweep_nodes.1 > 0);
}

#[test]
fn a_cancelled_sweep_reports_a_partial_count() {
    let progress = CountProgress::default();
    let cancel = AtomicBool::new(true);
    count_exact(&permutations(8), sweep_first(), &cancel, &progress).expect_err("cancelled");
    let at_end = progress.snapshot();
    assert!(at_end.sweep_explored < 1.0);
    assert!(at_end.sweep_counted < 40320.0);
    // Cancelled before its first node, the sweep has finished nothing.
    assert_eq!((at_end.sweep_explored, at_end.sweep_counted), (0.0, 0.0));
}

/// [`sweep::share_among_children`] of children with `unknown` cells: their shares, and what
/// the node keeps.
fn shares(unknown: &[usize], weight: u64) -> (Vec<u64>, u64) {
    let mut children: Vec<_> = unknown
        .iter()
        .map(|&unknown| sweep::Child {
            grid: (),
            unknown,
            weight: 0,
        })
        .collect();
    let kept = sweep::share_among_children(&mut children, weight);
    (children.iter().map(|c| c.weight).collect(), kept)
}

#[test]
fn a_node_shares_its_weight_among_its_children_by_their_unknown_cells() {
    // Ten more unknown cells weigh twice as much.
    assert_eq!(shares(&[30, 40], 3 << 20), (vec![1 << 20, 2 << 20], 0));
    // Equal children share equally, whatever their number.
    assert_eq!(shares(&[7, 7, 7], 3 << 20), (vec![1 << 20; 3], 0));
    // Rounding keeps what it leaves for the node, so the whole tree adds up to one.
    let (given, kept) = shares(&[5, 9, 12, 12, 40, 41, 70], sweep::WHOLE_TREE);
    assert_eq!(given.iter().sum::<u64>() + kept, sweep::WHOLE_TREE);
    assert!(kept < 1 << 12);
    // A child far more settled than its sibling gets nothing, and nothing is lost.
    assert_eq!(shares(&[10, 9_000], 1000), (vec![0, 1000], 0));
    // A node with no child alive keeps its weight; one of weight 0 gives nothing.
    assert_eq!(shares(&[], 77), (vec![], 77));
    assert_eq!(shares(&[3, 4], 0), (vec![0, 0], 0));
}

/// Limits that skip the profiles, so that the sweep counts (alone, not raced).
pub(super) fn sweep_first() -> CountLimits {
    CountLimits {
        max_profiles: 0,
        race: false,
        ..CountLimits::default()
    }
}

/// The sweep and components racing (where the grid does not fall apart), on `threads`
/// threads, and the phase the count ended in.
pub(super) fn raced_with_phase(puzzle: &Puzzle, threads: usize) -> (ExactCount, CountPhase) {
    let limits = CountLimits {
        max_profiles: 0,
        ..CountLimits::default()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("pool");
    let progress = CountProgress::default();
    let counted = pool
        .install(|| count_exact(puzzle, limits, &AtomicBool::new(false), &progress))
        .expect("counts");
    (counted, progress.snapshot().phase)
}

pub(super) fn raced(puzzle: &Puzzle, threads: usize) -> ExactCount {
    raced_with_phase(puzzle, threads).0
}

/// The backbone cells the sweep fixed when it counted `puzzle` under `limits` (0 if probing
/// decided it), checking the count.
fn backbone_fixed(puzzle: &Puzzle, limits: CountLimits) -> u64 {
    let progress = CountProgress::default();
    let counted = count_exact(puzzle, limits, &AtomicBool::new(false), &progress).expect("counts");
    assert_eq!(counted.count, sweep_count(puzzle));
    match counted.method {
        ExactMethod::Sweep { backbone, .. } => backbone,
        // Propagation and probing decide some pictures: nothing to sweep.
        ExactMethod::Propagation => 0,
        other => panic!("counted by {other:?}, not the sweep"),
    }
}

/// By default the sweep starts from the grid with its backbone fixed; with `backbone_after:
/// None` it never fixes it. The counts are the same.
#[test]
fn the_sweep_fixes_the_backbone_first_or_never() {
    let mut first = 0;
    for seed in 2..=6 {
        let puzzle = seeded_picture(12, 12, seed);
        first += backbone_fixed(&puzzle, sweep_first());
        let never = CountLimits {
            backbone_after: None,
            ..sweep_first()
        };
        assert_eq!(backbone_fixed(&puzzle, never), 0, "seed {seed}");
    }
    assert!(first > 0, "no backbone cell fixed beyond probing");
}

fn picture(max: usize) -> impl Strategy<Value = (usize, usize, Vec<bool>)> {
    (1..=max, 1..=max).prop_flat_map(|(h, w)| {
        (
            Just(h),
            Just(w),
            proptest::collection::vec(proptest::bool::weighted(0.4), h * w),
        )
    })
}

/// The count of a sweep of `puzzle` from `root` with keys of type `K` and counts of type `T`.
fn swept<K: key::Key, T: Tally>(
    puzzle: &Puzzle,
    root: &Grid,
    orientation: Orientation,
    stats: &SweepStats,
) -> T {
    let budget = MemoBudget::new(1 << 20);
    SweepCounter::<K, T, Puzzle>::new(puzzle, root, orientation, &budget, stats)
        .expect("short lines")
        .count(root, Stop::from(&AtomicBool::new(false)))
        .expect("counts")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_method_counts_what_enumeration_counts((h, w, cells) in picture(9)) {
        let puzzle = Puzzle::from_picture(h, w, &cells).expect("valid");
        let expected = enumerated(&puzzle);
        prop_assert_eq!(profile_count(&puzzle), expected.clone());
        prop_assert_eq!(sweep_count(&puzzle), expected.clone());
        prop_assert_eq!(raced(&puzzle, 2).count, expected.clone());
        prop_assert_eq!(component_count(&puzzle), expected);
    }

    #[test]
    fn the_sweep_from_the_backbone_counts_what_enumeration_counts((h, w, cells) in picture(9)) {
        let puzzle = Puzzle::from_picture(h, w, &cells).expect("valid");
        let limits = CountLimits {
            backbone_after: Some(std::time::Duration::ZERO),
            ..sweep_first()
        };
        let progress = CountProgress::default();
        let counted = count_exact(&puzzle, limits, &AtomicBool::new(false), &progress)
            .expect("counts");
        prop_assert_eq!(counted.count, enumerated(&puzzle));
    }

    #[test]
    fn the_sweep_counts_alike_with_every_key_and_number_type((h, w, cells) in picture(8)) {
        let puzzle = Puzzle::from_picture(h, w, &cells).expect("valid");
        let Some(root) = probed_root(&puzzle).expect("valid") else {
            return Err(TestCaseError::fail("a picture has a solution"));
        };
        let expected = enumerated(&puzzle);
        for orientation in Orientation::ALL {
            let stats = SweepStats::default();
            let packed: u128 = swept::<u64, _>(&puzzle, &root, orientation, &stats);
            // The live counters end at the whole tree and the whole count.
            prop_assert_eq!(stats.explored(), 1.0);
            prop_assert_eq!(stats.counted(), packed as f64);
            prop_assert_eq!(BigUint::from(packed), expected.clone());
            let boxed: BigUint = swept::<Box<[u16]>, _>(&puzzle, &root, orientation, &stats);
            prop_assert_eq!(boxed, expected.clone());
            let four_words: u128 = swept::<[u64; 4], _>(&puzzle, &root, orientation, &stats);
            prop_assert_eq!(BigUint::from(four_words), expected.clone());
            let eight_words: u128 = swept::<[u64; 8], _>(&puzzle, &root, orientation, &stats);
            prop_assert_eq!(BigUint::from(eight_words), expected.clone());
        }
    }

    #[test]
    fn components_count_alike_with_and_without_completion_checks(
        (h, w, cells) in picture(10),
    ) {
        let puzzle = Puzzle::from_picture(h, w, &cells).expect("valid");
        let expected = enumerated(&puzzle);
        for checks in CHECKING {
            prop_assert_eq!(component_count_checking(&puzzle, checks), expected.clone());
        }
    }

    #[test]
    fn completion_checks_count_random_clues_exactly(puzzle in random_clues(7)) {
        let expected = enumerated(&puzzle);
        for checks in CHECKING {
            prop_assert_eq!(component_count_checking(&puzzle, checks), expected.clone());
        }
    }

    #[test]
    fn every_method_counts_random_clues_exactly(puzzle in random_clues(6)) {
        let expected = enumerated(&puzzle);
        prop_assert_eq!(profile_count(&puzzle), expected.clone());
        prop_assert_eq!(sweep_count(&puzzle), expected.clone());
        prop_assert_eq!(component_count(&puzzle), expected);
    }

    #[test]
    fn all_orientations_agree((h, w, cells) in picture(8)) {
        let puzzle = Puzzle::from_picture(h, w, &cells).expect("valid");
        let grid = Grid::new(h, w);
        let cancel = AtomicBool::new(false);
        let count = |orientation| {
            ProfileProblem::new(&puzzle, &grid, orientation, &|| false)
                .expect("short lines")
                .count::<u128>(LayerLimit::at_most(1 << 20), Stop::from(&cancel), |_| {})
                .expect("counts")
        };
        let [first, rest @ ..] = Orientation::ALL.map(count);
        prop_assert!(rest.iter().all(|&n| n == first), "{first} vs {rest:?}");
    }
}

/// A grid of 121 squares of 2x2 cells, each line crossing eleven: every component is listed in
/// one copy of the root, none probed, and the count is exact.
#[test]
fn tiny_components_are_counted_by_listing() {
    let puzzle = crate::test_strategies::grid_of_squares(11);
    let root = probed_root(&puzzle).expect("valid").expect("a solution");
    let (cancel, stats) = (AtomicBool::new(false), ComponentStats::default());
    let count = ComponentCounter::<BigUint>::new(&puzzle, &cancel, &stats)
        .count(&root)
        .expect("counts");
    assert_eq!(count, BigUint::from(2u8).pow(121));
    assert_eq!(stats.probes.load(std::sync::atomic::Ordering::Relaxed), 0);
    assert_eq!(
        stats.branched.load(std::sync::atomic::Ordering::Relaxed),
        121
    );
}

#[test]
fn each_orientation_knows_its_place_among_all() {
    for (at, side) in Orientation::ALL.iter().enumerate() {
        assert_eq!(side.index(), at, "{side:?}");
    }
}
