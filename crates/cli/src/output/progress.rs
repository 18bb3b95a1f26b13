//! The progress display (the only place that uses indicatif): in a terminal, a line redrawn
//! every 100 ms under a spinner; with `count --progress`, the same words as plain lines on
//! standard error, one a second (or every `NONOENUM_PROGRESS_EVERY_MS`), terminal or not. The
//! words are the library's [`ProgressReport`](nonoenum::ProgressReport) as it displays itself,
//! and `--progress=json` gives the same figures as one JSON object a line. A background thread
//! reads the library's counters through a [`ProgressMeter`], so the search itself never waits
//! for the display.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread::JoinHandle;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use nonoenum::{CountProgress, ProgressMeter, SearchStats};

use crate::cli::ProgressFormat;

/// A progress display bound to one search; drop it (or call [`Progress::finish`]) at the end.
pub(crate) struct Progress {
    done: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

/// Where progress goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Show {
    /// Nowhere (`--quiet`).
    Nothing,
    /// A spinner line when standard error is a terminal, nothing otherwise.
    Terminal,
    /// Plain lines, one a second, terminal or not (`count --progress`).
    Lines,
    /// One JSON object a line, one a second, terminal or not (`count --progress=json`).
    Json,
}

impl Show {
    /// What `quiet` and `lines` (`--progress` and its form) ask for.
    pub(crate) fn new(quiet: bool, lines: Option<ProgressFormat>) -> Show {
        match (quiet, lines) {
            (true, _) => Show::Nothing,
            (false, Some(ProgressFormat::Text)) => Show::Lines,
            (false, Some(ProgressFormat::Json)) => Show::Json,
            (false, None) => Show::Terminal,
        }
    }

    /// Whether anything will be shown (so that estimating the tree is worth it).
    pub(crate) fn shows(self) -> bool {
        match self {
            Show::Nothing => false,
            Show::Terminal => std::io::stderr().is_terminal(),
            Show::Lines | Show::Json => true,
        }
    }
}

impl Progress {
    /// The display of an enumeration (`list`, `count --method enumerate`, `solve`).
    /// Once the side count has found the exact `total`, the line gives it instead of the
    /// random probes' estimate.
    pub(crate) fn search(
        label: &str,
        stats: Arc<SearchStats>,
        show: Show,
        total: Arc<OnceLock<u128>>,
    ) -> Progress {
        Progress::start(label, show, ProgressMeter::enumeration(stats, total))
    }

    /// The display of a count made without enumerating.
    pub(crate) fn count(label: &str, progress: Arc<CountProgress>, show: Show) -> Progress {
        Progress::start(label, show, ProgressMeter::count(progress))
    }

    /// Shows `label: LINE` as `show` says, the words of what `meter` reports each time (or
    /// the JSON object that stands alone on its line); lines end with its last report.
    pub(crate) fn start(label: &str, show: Show, mut meter: ProgressMeter) -> Progress {
        let done = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&done);
        let (name, prefix) = (label.to_string(), label.to_string());
        // The spinner, a space and `label: ` take the first columns of a terminal's line.
        let taken = label.chars().count() + 4;
        let mut line = move |json: bool, width: usize, last: bool| {
            let report = if last {
                meter.last_report()?
            } else {
                meter.report()
            };
            Some(match json {
                true => report.to_json(&name),
                false => report.words_within(width),
            })
        };
        let thread = match show {
            Show::Lines | Show::Json => Some(std::thread::spawn(move || {
                let setting = std::env::var("NONOENUM_PROGRESS_EVERY_MS").ok();
                let every = ProgressMeter::line_interval(setting.as_deref());
                loop {
                    std::thread::park_timeout(every);
                    let stopping = flag.load(Ordering::Relaxed);
                    match (show, line(show == Show::Json, usize::MAX, stopping)) {
                        (_, None) => {}
                        (Show::Json, Some(json)) => note!("{json}"),
                        (_, Some(words)) => note!("{prefix}: {words}"),
                    }
                    if stopping {
                        break;
                    }
                }
            })),
            Show::Terminal if std::io::stderr().is_terminal() => {
                let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
                let style = ProgressStyle::with_template("{spinner} {prefix}: {wide_msg}")
                    .unwrap_or_else(|_| ProgressStyle::default_spinner());
                bar.set_style(style);
                bar.set_prefix(prefix);
                Some(std::thread::spawn(move || {
                    while !flag.load(Ordering::Relaxed) {
                        let columns = usize::from(console::Term::stderr().size().1);
                        let words = line(false, columns.saturating_sub(taken), false);
                        bar.set_message(words.unwrap_or_default());
                        bar.tick();
                        std::thread::park_timeout(Duration::from_millis(100));
                    }
                    bar.finish_and_clear();
                }))
            }
            Show::Terminal | Show::Nothing => None,
        };
        Progress { done, thread }
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
