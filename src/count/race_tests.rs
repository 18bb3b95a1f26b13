//! The race of the sweep, components and profiles, and the sweep's quick try before a race
//! that profiles join: whichever finishes first, the count is exact.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use proptest::prelude::*;

use super::tests::{factorial, raced_with_phase};
use super::*;
use crate::grid::Grid;
use crate::test_strategies::{bw_picture, permutations};

#[test]
fn the_race_of_the_sweep_and_components_counts_exactly() {
    // Three threads split unevenly: two for the sweep, one for components.
    for threads in [1, 2, 3, 4] {
        for n in 2..=7 {
            let (counted, phase) = raced_with_phase(&permutations(n), threads);
            assert_eq!(phase, CountPhase::Race);
            assert!(matches!(
                counted.method,
                ExactMethod::Sweep { .. } | ExactMethod::Components { .. }
            ));
            assert_eq!(counted.count, factorial(n as u32), "n = {n}");
        }
    }
}

/// A sweep whose memo cannot hold a node gives up, and the race goes on, and shows, as
/// components alone; the count stays exact.
#[test]
fn a_race_whose_sweeps_give_up_is_components_alone() {
    let limits = CountLimits {
        max_profiles: 0,
        sweep_memory: 1,
        ..CountLimits::default()
    };
    // On one thread the sweep runs first, then components.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("pool");
    let progress = CountProgress::default();
    let counted = pool
        .install(|| count_exact(&permutations(7), limits, &AtomicBool::new(false), &progress))
        .expect("counts");
    assert_eq!(counted.count, factorial(7));
    assert!(matches!(counted.method, ExactMethod::Components { .. }));
    let at_end = progress.snapshot();
    assert!(at_end.sweep_gave_up);
    assert_eq!(at_end.phase, CountPhase::Components);
    assert_eq!(at_end.sweep_kept_explored, 0.0);
}

/// Profiles whose first limit is too small race the sweep and components, with layers held
/// by memory: whichever finishes first, the count is exact, on any number of threads.
#[test]
fn profiles_past_their_first_limit_race_and_the_count_is_exact() {
    for threads in [1, 2, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("pool");
        for n in [7, 9] {
            let limits = profiles_within(20);
            let progress = CountProgress::default();
            let counted = pool
                .install(|| {
                    let (puzzle, cancel) = (permutations(n), AtomicBool::new(false));
                    count_exact_trying(&puzzle, limits, Duration::ZERO, &cancel, &progress)
                })
                .expect("counts");
            assert_eq!(
                counted.count,
                factorial(n as u32),
                "n = {n}, {threads} threads"
            );
            let snapshot = progress.snapshot();
            assert_eq!(snapshot.phase, CountPhase::Race);
            // The racer's layers stay in the progress only if it counted.
            match counted.method {
                ExactMethod::Profiles { .. } => assert_eq!(snapshot.lines_fixed, snapshot.lines),
                _ => assert_eq!(snapshot.lines, 0),
            }
        }
    }
}

/// The default limits but `max_profiles`.
fn profiles_within(max_profiles: usize) -> CountLimits {
    CountLimits {
        max_profiles,
        ..CountLimits::default()
    }
}

/// Before profiles race, the sweep alone tries, and counts a puzzle it finishes at once.
#[test]
fn the_sweep_tries_alone_before_profiles_race() {
    let (cancel, progress) = (AtomicBool::new(false), CountProgress::default());
    let counted =
        count_exact(&permutations(7), profiles_within(20), &cancel, &progress).expect("counts");
    assert_eq!(counted.count, factorial(7));
    assert!(matches!(counted.method, ExactMethod::Sweep { .. }));
    // The race never started.
    assert_ne!(progress.snapshot().phase, CountPhase::Race);
}

/// The backbone search of `root` from scratch, on the current pool: its grid and the cells it
/// fixed.
fn backbone_of<P: Countable>(puzzle: &P, root: &P::Grid) -> (Option<P::Grid>, u64) {
    use super::backbone::{Backbone, fix_backbone};
    let (cancel, stats) = (AtomicBool::new(false), super::BackboneStats::default());
    let grid = match fix_backbone(puzzle, root, u64::MAX, Stop::from(&cancel), &stats) {
        Backbone::NoSolution => None,
        Backbone::Reduced(grid) => Some(grid),
    };
    (grid, stats.fixed.load(Ordering::Relaxed))
}

fn one_thread() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("pool")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A quick try whose sweep cannot finish (a memo of one byte) hands on the grid its
    /// backbone search reached, every backbone cell fixed, and adds its counters to the
    /// count's.
    #[test]
    fn a_quick_try_that_fails_hands_its_backbone_on(puzzle in bw_picture(5, 10, 0.4)) {
        let Some(root) = probed_root(&puzzle).expect("valid").filter(|root| root.undecided() > 0)
        else {
            return Ok(());
        };
        let progress = CountProgress::default();
        let orientation = Orientation::ALL[0];
        let sweep = WholeSweep {
            puzzle: &puzzle,
            root: &root,
            limits: CountLimits { sweep_memory: 1, ..CountLimits::default() },
            orientation,
            budget: MemoBudget::new(1),
            progress: &progress,
            swept_as: std::sync::Mutex::new(orientation),
            profiles_race: true,
            quick_try: Duration::from_secs(60),
        };
        let pool = one_thread();
        let tried = pool.install(|| sweep.quick_try(&AtomicBool::new(false)));
        let (backbone, fixed) = pool.install(|| backbone_of(&puzzle, &root));
        match tried {
            QuickTry::Counted(count, _) => {
                prop_assert_eq!(count, BigUint::from(crate::test_enumeration::count(&puzzle)));
            }
            QuickTry::NotCounted(reduced) => {
                let reduced = reduced.expect("the backbone search ran");
                prop_assert!(reduced.complete);
                prop_assert_eq!(Some(reduced.grid), backbone);
                prop_assert_eq!(progress.snapshot().backbone.1, fixed);
            }
        }
    }

    /// Counts whose quick try fails (profiles of two at most, whose layers grow slowly
    /// enough to race; a sweep memo of one byte) race from the quick try's backbone, whole or
    /// not, and are exact.
    #[test]
    fn counts_that_race_from_a_quick_tries_backbone_are_exact(puzzle in bw_picture(5, 10, 0.4)) {
        let limits = CountLimits { max_profiles: 2, sweep_memory: 1, ..CountLimits::default() };
        let truth = BigUint::from(crate::test_enumeration::count(&puzzle));
        // A quick try that stops at once hands on the root, its backbone still to find.
        for quick_try in [Duration::from_nanos(1), Duration::from_secs(60)] {
            let (cancel, progress) = (AtomicBool::new(false), CountProgress::default());
            let counted = one_thread()
                .install(|| count_exact_trying(&puzzle, limits, quick_try, &cancel, &progress))
                .expect("counts");
            prop_assert_eq!(&counted.count, &truth);
        }
    }
}

/// Profiles race again only after a first try whose layers grew slowly: a permutation
/// puzzle's (22x22: at most 3.6 times once past 16,384 profiles), not a random picture's (a
/// random 20x20 of density 0.4: 1,507 then 18,108). Small layers may grow fast.
#[test]
fn profiles_race_again_after_layers_that_grew_slowly() {
    let permutation = [1, 22, 231, 1540, 7315, 26334, 74613, 170_544];
    assert!(grew_slowly(&permutation));
    assert!(!grew_slowly(&[1, 1507, 18_108]));
    assert!(grew_slowly(&[1, 64, 716, 716, 16_383]));
    assert!(!grew_slowly(&[1, 64, 716, 3000, 16_384]));
    assert!(grew_slowly(&[1]));
}

/// A layer that grows more than its growth limit over the layer before, once it holds
/// 16,384 profiles, is given up; within the limit, the count is exact. The 18x18
/// permutation puzzle's layers grow 2.17 times to their first of more than 16,384 profiles
/// (C(18, 6) = 18,564).
#[test]
fn a_layer_that_grows_too_fast_is_given_up() {
    use super::profile::{LAYER_BYTES, LayerLimit};
    let puzzle = permutations(18);
    let root = Grid::new(18, 18);
    let cancel = AtomicBool::new(false);
    let count = |growth| {
        let limit = LayerLimit {
            profiles: 1 << 20,
            bytes: LAYER_BYTES,
            growth: Some(growth),
        };
        count_by_profiles(
            &puzzle,
            &root,
            Orientation::ALL[0],
            limit,
            Stop::from(&cancel),
            |_| {},
        )
    };
    let (counted, widest) = count(3).expect("counts");
    assert_eq!(counted, factorial(18));
    assert_eq!(widest, 48_620);
    assert_eq!(
        count(2).expect_err("grows past twice"),
        CountError::TooManyProfiles { limit: 1 << 20 }
    );
}

#[test]
fn a_cancelled_race_is_cancelled() {
    let limits = CountLimits {
        max_profiles: 0,
        ..CountLimits::default()
    };
    let progress = CountProgress::default();
    let cancel = AtomicBool::new(true);
    let error = count_exact(&permutations(8), limits, &cancel, &progress).expect_err("cancelled");
    assert_eq!(error, CountError::Cancelled);
}
