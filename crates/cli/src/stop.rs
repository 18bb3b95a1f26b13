//! Exit codes, and what stops a run: Ctrl-C, SIGTERM, a time limit.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// Some puzzle has no solution (`solve`, `count` and `list` alike).
pub(crate) const EXIT_NO_SOLUTION: u8 = 1;
/// Bad usage or bad input.
pub(crate) const EXIT_BAD_INPUT: u8 = 2;
/// Interrupted by Ctrl-C or SIGTERM; partial results were printed.
pub(crate) const EXIT_INTERRUPTED: u8 = 130;
/// `--time-limit` stopped a search before its answer was known; partial results were printed.
pub(crate) const EXIT_TIME_LIMIT: u8 = 3;
/// An internal error (a bug) stopped the run; partial results were printed.
pub(crate) const EXIT_INTERNAL: u8 = 70;

/// When `main` began: a time limit counts from here, reading the puzzle included.
static STARTED: OnceLock<Instant> = OnceLock::new();

/// Marks the start of the run, first thing in `main`.
pub(crate) fn mark_start() {
    STARTED.get_or_init(Instant::now);
}

/// Why a search ended before exploring its whole tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    /// Ctrl-C or SIGTERM.
    Interrupted,
    /// `--time-limit`.
    TimeLimit,
    /// `--limit`.
    SolutionLimit,
}

impl Stop {
    pub(crate) fn describe(self) -> &'static str {
        match self {
            Stop::Interrupted => "interrupted",
            Stop::TimeLimit => "time limit reached",
            Stop::SolutionLimit => "solution limit reached",
        }
    }

    /// The exit code of a run that this stopped: 130, 3, or 0 for a solution limit, which
    /// was asked for.
    pub(crate) fn exit_code(self) -> u8 {
        match self {
            Stop::Interrupted => EXIT_INTERRUPTED,
            Stop::TimeLimit => EXIT_TIME_LIMIT,
            Stop::SolutionLimit => 0,
        }
    }
}

/// The flags that end a run early: set from a signal handler or the time-limit thread.
#[derive(Clone, Default)]
pub(crate) struct Cancel {
    /// Read by every search worker.
    pub(crate) any: Arc<AtomicBool>,
    interrupted: Arc<AtomicBool>,
    timed_out: Arc<AtomicBool>,
    /// When the time limit stops the search, if it does.
    pub(crate) deadline: Option<Instant>,
}

impl Cancel {
    /// Installs the Ctrl-C / SIGTERM handler and starts the time-limit thread, if any.
    pub(crate) fn install(time_limit: Option<Duration>) -> Self {
        let mut cancel = Cancel::default();
        crate::fault::cancel_on_panic(Arc::clone(&cancel.any));
        let on_signal = cancel.clone();
        // Without a handler, Ctrl-C kills the process (losing buffered output) but nothing else.
        let _ = ctrlc::set_handler(move || {
            on_signal.interrupted.store(true, Ordering::Relaxed);
            on_signal.any.store(true, Ordering::Relaxed);
        });
        if let Some(limit) = time_limit {
            let on_time = cancel.clone();
            // The search stops a tenth of the limit early (at most 0.25 s) to write out and exit.
            let early = (limit / 10).min(Duration::from_millis(250));
            let deadline = *STARTED.get_or_init(Instant::now) + (limit - early);
            cancel.deadline = Some(deadline);
            let _ = std::thread::Builder::new()
                .name("nonoenum-time-limit".into())
                .spawn(move || {
                    while let Some(left) = deadline.checked_duration_since(Instant::now())
                        && !left.is_zero()
                    {
                        std::thread::park_timeout(left);
                    }
                    on_time.timed_out.store(true, Ordering::Relaxed);
                    on_time.any.store(true, Ordering::Relaxed);
                });
        }
        cancel
    }

    /// What stopped the run, if anything (an interrupt wins over the time limit).
    pub(crate) fn reason(&self) -> Option<Stop> {
        if self.interrupted.load(Ordering::Relaxed) {
            Some(Stop::Interrupted)
        } else if self.timed_out.load(Ordering::Relaxed) {
            Some(Stop::TimeLimit)
        } else {
            None
        }
    }
}
