//! The exact count made alongside an enumeration whose progress is shown, so that its line can
//! say `N of TOTAL (P%)` and a time left from the rate (issue 67). It runs on one thread of its
//! own, on a budget: it starts once the enumeration has run [`START_AFTER`], stops when the
//! enumeration ends or after [`TIME_FLOOR`] or a tenth of the enumeration's expected time,
//! whichever is longer (see [`budget`]), and keeps the sweep's memo under [`SWEEP_MEMORY`]. It never touches the enumeration; if it fails or runs out of budget, the
//! display keeps its estimate and says nothing.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use nonoenum::count::{CountLimits, DEFAULT_MAX_PROFILES};
use nonoenum::search::SearchStats;
use nonoenum::{AnyPuzzle, CountOptions, ExactOutcome};

/// How long the enumeration runs before the side count starts: short runs never pay for it.
pub(crate) const START_AFTER: Duration = Duration::from_secs(1);

/// The side count may always run this long.
pub(crate) const TIME_FLOOR: Duration = Duration::from_secs(10);

/// The longest the side count may run, whatever the enumeration's expected time.
const TIME_CAP: Duration = Duration::from_secs(3600);

/// About the most memory the side count's sweep may take.
const SWEEP_MEMORY: usize = 256 << 20;

/// The exact total, once the side count has found it.
pub(crate) type Total = Arc<OnceLock<u128>>;

/// A side count bound to one enumeration; drop it (or call [`SideCount::finish`]) when the
/// enumeration ends, which cancels it.
pub(crate) struct SideCount {
    total: Total,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl SideCount {
    /// Starts counting `puzzle` alongside its enumeration, whose counters are `stats`, or
    /// nothing if not `wanted`.
    pub(crate) fn start(puzzle: &AnyPuzzle, stats: Arc<SearchStats>, wanted: bool) -> SideCount {
        let total = Total::default();
        let stop = Arc::new(AtomicBool::new(false));
        // Benchmarks of the estimates turn it off (see `scripts/bench-eta`).
        let off = std::env::var_os("NONOENUM_EXACT_TOTAL").is_some_and(|v| v == "off");
        let thread = (wanted && !off).then(|| {
            let (puzzle, total, stop) = (puzzle.clone(), Arc::clone(&total), Arc::clone(&stop));
            std::thread::spawn(move || {
                if let Some(count) = count_on_budget(&puzzle, &stats, &stop) {
                    let _ = total.set(count);
                }
            })
        });
        SideCount {
            total,
            stop,
            thread,
        }
    }

    /// Where the display reads the total.
    pub(crate) fn total(&self) -> Total {
        Arc::clone(&self.total)
    }

    /// Cancels the count and waits for its thread.
    pub(crate) fn finish(mut self) {
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

/// Waits [`START_AFTER`] (unless `stop` is raised), then counts `puzzle` on one thread until
/// it is done, `stop` is raised or its [`budget`] is spent; `None` unless it counted.
fn count_on_budget(
    puzzle: &AnyPuzzle,
    stats: &SearchStats,
    stop: &Arc<AtomicBool>,
) -> Option<u128> {
    let begin = Instant::now();
    while !stop.load(Ordering::Relaxed) && begin.elapsed() < START_AFTER {
        std::thread::park_timeout(START_AFTER.saturating_sub(begin.elapsed()));
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
/// far since `begin` and the random probes' time left), at least [`TIME_FLOOR`] and at most
/// [`TIME_CAP`]. On a machine with no core to spare, that bounds what it takes from the
/// enumeration.
fn budget(stats: &SearchStats, begin: Instant) -> Duration {
    let elapsed = begin.elapsed().as_secs_f64();
    let s = stats.snapshot();
    let left = stats
        .estimate()
        .and_then(|e| e.outlook(s.nodes, s.solutions, elapsed).seconds_left)
        .unwrap_or(0.0);
    Duration::try_from_secs_f64((elapsed + left) / 10.0)
        .unwrap_or(TIME_CAP)
        .clamp(TIME_FLOOR, TIME_CAP)
}
