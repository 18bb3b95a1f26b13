//! The exact count made alongside an enumeration, so that a progress display can say
//! `N of TOTAL (P%)` and a time left from the rate (issue 67). It runs on one thread of its
//! own, on a budget: it starts once the enumeration has run [`SIDE_COUNT_START_AFTER`], stops
//! when the enumeration ends or after [`SIDE_COUNT_TIME_FLOOR`] or a tenth of the enumeration's
//! expected time, whichever is longer, and keeps the sweep's memo under 256 MiB. It never
//! touches the enumeration; if it fails or runs out of budget, the total stays unknown.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::{CountOptions, ExactOutcome};
use crate::color::AnyPuzzle;
use crate::count::{CountLimits, DEFAULT_MAX_PROFILES};
use crate::search::SearchStats;

/// How long the enumeration runs before the side count starts: short runs never pay for it.
pub const SIDE_COUNT_START_AFTER: Duration = Duration::from_secs(1);

/// The side count may always run this long.
pub const SIDE_COUNT_TIME_FLOOR: Duration = Duration::from_secs(10);

/// The longest the side count may run, whatever the enumeration's expected time.
const TIME_CAP: Duration = Duration::from_secs(3600);

/// About the most memory the side count's sweep may take.
const SWEEP_MEMORY: usize = 256 << 20;

/// An exact count of a puzzle on one thread beside its enumeration; drop it (or call
/// [`SideCount::finish`]) when the enumeration ends, which cancels it.
#[derive(Debug)]
pub struct SideCount {
    total: Arc<OnceLock<u128>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl SideCount {
    /// Starts counting `puzzle` alongside its enumeration, whose counters are `stats` (the
    /// solver's [`stats`](super::AnySolver::stats)).
    pub fn start(puzzle: &AnyPuzzle, stats: Arc<SearchStats>) -> SideCount {
        let mut side = SideCount::none();
        let (puzzle, total, stop) = (
            puzzle.clone(),
            Arc::clone(&side.total),
            Arc::clone(&side.stop),
        );
        side.thread = Some(std::thread::spawn(move || {
            if let Some(count) = count_on_budget(&puzzle, &stats, &stop) {
                let _ = total.set(count);
            }
        }));
        side
    }

    /// No side count: its total stays unknown.
    pub fn none() -> SideCount {
        SideCount {
            total: Arc::default(),
            stop: Arc::default(),
            thread: None,
        }
    }

    /// Where the total appears once it is counted, for a display on another thread.
    pub fn total(&self) -> Arc<OnceLock<u128>> {
        Arc::clone(&self.total)
    }

    /// Cancels the count and waits for its thread.
    pub fn finish(mut self) {
        self.stop_thread();
    }

    fn stop_thread(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            thread.thread().unpark();
            let _ = thread.join();
        }
    }
}

impl Drop for SideCount {
    fn drop(&mut self) {
        self.stop_thread();
    }
}

/// Waits [`SIDE_COUNT_START_AFTER`] (unless `stop` is raised), then counts `puzzle` on one
/// thread until it is done, `stop` is raised or its [`budget`] is spent; `None` unless it
/// counted.
fn count_on_budget(
    puzzle: &AnyPuzzle,
    stats: &SearchStats,
    stop: &Arc<AtomicBool>,
) -> Option<u128> {
    let begin = Instant::now();
    while !stop.load(Ordering::Relaxed) && begin.elapsed() < SIDE_COUNT_START_AFTER {
        std::thread::park_timeout(SIDE_COUNT_START_AFTER.saturating_sub(begin.elapsed()));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let cancel = Arc::new(AtomicBool::new(false));
    let options = CountOptions {
        threads: 1,
        limits: CountLimits {
            max_profiles: DEFAULT_MAX_PROFILES,
            sweep_memory: SWEEP_MEMORY,
            // Racing would take a second thread.
            race: false,
            ..CountLimits::default()
        },
        per_cell: false,
    };
    let counter = puzzle
        .counter(options)
        .with_cancel_flag(Arc::clone(&cancel));
    let outcome = std::thread::scope(|scope| {
        let counting = scope.spawn(|| counter.run());
        let started = Instant::now();
        // Raises `cancel` when the enumeration ends or the time is up.
        while !counting.is_finished() {
            if stop.load(Ordering::Relaxed) || started.elapsed() >= budget(stats, begin) {
                cancel.store(true, Ordering::Relaxed);
                break;
            }
            std::thread::park_timeout(Duration::from_millis(50));
        }
        counting.join().ok()
    });
    match outcome?.ok()? {
        ExactOutcome::Counted(exact) => u128::try_from(&exact.count).ok(),
        _ => None,
    }
}

/// How long the side count may run: a tenth of the enumeration's expected time (its time so
/// far since `begin` and the random probes' time left), at least [`SIDE_COUNT_TIME_FLOOR`]
/// and at most an hour. On a machine with no core to spare, that bounds what it takes from the
/// enumeration.
fn budget(stats: &SearchStats, begin: Instant) -> Duration {
    let elapsed = begin.elapsed().as_secs_f64();
    let s = stats.snapshot();
    let left = stats
        .estimate()
        .and_then(|e| e.outlook(s.done(), elapsed).seconds_left)
        .unwrap_or(0.0);
    Duration::try_from_secs_f64((elapsed + left) / 10.0)
        .unwrap_or(TIME_CAP)
        .clamp(SIDE_COUNT_TIME_FLOOR, TIME_CAP)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flow::Flow;
    use crate::search::SolverOptions;
    use crate::test_strategies::permutations;

    #[test]
    fn a_side_count_finished_early_leaves_the_total_unknown() {
        let puzzle = AnyPuzzle::Bw(permutations(5));
        let solver = puzzle.solver(SolverOptions::default());
        let side = SideCount::start(&puzzle, solver.stats());
        let total = side.total();
        let outcome = solver.run(|_| Flow::Continue).expect("enumerates");
        side.finish();
        assert_eq!(outcome.solutions, 120);
        // The enumeration ended well within the second before the count starts.
        assert_eq!(total.get(), None);
        assert_eq!(SideCount::none().total().get(), None);
    }
}
