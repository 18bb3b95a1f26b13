//! The progress bar (the only place that uses indicatif): elapsed time, solutions, nodes,
//! nodes per second and the explored fraction of the tree, redrawn from the search counters by
//! a background thread, so the search itself never waits for the display.

use std::io::IsTerminal;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use nonoenum::count::{CountPhase, CountProgress, CountSnapshot};
use nonoenum::search::SearchStats;

/// Ticks per full bar.
const BAR_LEN: u64 = 10_000;

/// A progress display bound to one search; drop it (or call [`Progress::finish`]) at the end.
pub(crate) struct Progress {
    done: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Progress {
    /// Starts the display, or nothing when `quiet` or standard error is not a terminal.
    pub(crate) fn start(label: &str, stats: Arc<SearchStats>, quiet: bool) -> Progress {
        let done = Arc::new(AtomicBool::new(false));
        if quiet || !std::io::stderr().is_terminal() {
            return Progress { done, thread: None };
        }
        let bar = ProgressBar::with_draw_target(Some(BAR_LEN), ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template(
            "{prefix} {elapsed_precise} [{bar:30}] {percent:>3}% explored, {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
        bar.set_style(style);
        bar.set_prefix(label.to_string());
        let flag = Arc::clone(&done);
        let thread = std::thread::spawn(move || redraw(&bar, &stats, &flag));
        Progress {
            done,
            thread: Some(thread),
        }
    }

    /// Plain progress lines on standard error, one a second, terminal or not (`count
    /// --progress`): the partial count and how much of the tree is explored.
    pub(crate) fn lines(label: &str, stats: Arc<SearchStats>) -> Progress {
        Progress::every_second(label, false, move || {
            let s = stats.snapshot();
            format!(
                "enumerate: {} solutions so far, {:.2}% of the tree explored, {} nodes",
                s.solutions,
                100.0 * s.explored,
                s.nodes
            )
        })
    }

    /// Progress lines for counting without enumerating (`count --progress` with `decompose`):
    /// one a second, terminal or not, and one more when the count ends.
    pub(crate) fn exact_lines(label: &str, progress: Arc<CountProgress>) -> Progress {
        Progress::every_second(label, true, move || exact_line(&progress.snapshot()))
    }

    /// Prints `label: LINE, ELAPSED s` on standard error every second from a thread of its own,
    /// and once more when stopped if `last_line`.
    fn every_second(
        label: &str,
        last_line: bool,
        line: impl Fn() -> String + Send + 'static,
    ) -> Progress {
        let done = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&done);
        let label = label.to_string();
        let thread = std::thread::spawn(move || {
            let start = Instant::now();
            loop {
                std::thread::park_timeout(Duration::from_secs(1));
                let stopping = flag.load(Ordering::Relaxed);
                if stopping && !last_line {
                    break;
                }
                let elapsed = start.elapsed().as_secs_f64();
                eprintln!("{label}: {}, {elapsed:.1} s", line());
                if stopping {
                    break;
                }
            }
        });
        Progress {
            done,
            thread: Some(thread),
        }
    }

    /// Stops and clears the display.
    pub(crate) fn finish(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            thread.thread().unpark();
            let _ = thread.join();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.stop();
    }
}

fn redraw(bar: &ProgressBar, stats: &SearchStats, done: &AtomicBool) {
    let start = Instant::now();
    while !done.load(Ordering::Relaxed) {
        let s = stats.snapshot();
        let secs = start.elapsed().as_secs_f64().max(1e-9);
        bar.set_position((s.explored * BAR_LEN as f64) as u64);
        bar.set_message(format!(
            "{} solutions, {} nodes, {:.0} nodes/s",
            s.solutions,
            s.nodes,
            s.nodes as f64 / secs
        ));
        std::thread::park_timeout(Duration::from_millis(100));
    }
    bar.finish_and_clear();
}

/// What an exact count is doing, in words.
pub(crate) fn exact_line(s: &CountSnapshot) -> String {
    match s.phase {
        CountPhase::Root => "decompose: probing the root".to_string(),
        CountPhase::Profiles => format!(
            "decompose: {}/{} lines fixed, {} profiles",
            s.lines_fixed, s.lines, s.profiles
        ),
        CountPhase::Sweep => format!("decompose: {}", sweep_words(s)),
        CountPhase::Components => format!("decompose: {}", component_words(s)),
        CountPhase::Race => format!(
            "decompose, two methods racing: {}; {}",
            sweep_words(s),
            component_words(s)
        ),
    }
}

/// How far the sweep has got, in words.
fn sweep_words(s: &CountSnapshot) -> String {
    // Sums of whole numbers are exact in an f64 up to 2^53.
    let counted = if s.sweep_counted < 9e15 {
        format!("{:.0}", s.sweep_counted)
    } else {
        format!("about {:.4e}", s.sweep_counted)
    };
    let backbone = match s.backbone {
        (0, _) => String::new(),
        (checks, fixed) => format!(" (backbone: {fixed} cells fixed, {checks} checks)"),
    };
    format!(
        "sweep{backbone} {:.2}% explored, {counted} solutions counted so far, \
         {} nodes branched, {} from the memo",
        100.0 * s.sweep_explored,
        s.sweep_nodes.0,
        s.sweep_nodes.1
    )
}

/// How far the component counter has got, in words.
fn component_words(s: &CountSnapshot) -> String {
    format!(
        "components, {} counted by branching, {} from the cache",
        s.component_nodes.0, s.component_nodes.1
    )
}
