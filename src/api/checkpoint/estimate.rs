//! How much of a checkpointed run is left, estimated while it runs: random probes of its open
//! parts, which the progress line turns into a total and a time left. The parts' searches
//! count into one set of counters, so the probes leave out the subtrees they finish.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::meter::CheckpointProgress;
use super::stored::{Stored, part_of};
use crate::domain::DomainGrid;
use crate::search::{Probing, SearchStats, probe_parts, propagated_root_until};

/// The most bytes of the open parts' root grids the estimator keeps; a run with more parts of
/// larger grids shows no estimate (a 2000x2000 grid takes a megabyte).
const MOST_ROOT_BYTES: usize = 64 << 20;

/// An open part: the decisions that select it, as the checkpoint file holds them.
type Decisions = Vec<[usize; 3]>;

/// The parts still open, as the run last told the estimator: their decisions, and where the
/// first one's search starts when that is not its propagated root (an ordered checkpoint's
/// part starts at the node of the whole search's tree); `None` until the run tells it.
pub(super) struct OpenParts<G>(Mutex<Option<OpenNow<G>>>);

/// The open parts' decisions, and where the first one's search starts if given.
type OpenNow<G> = (Vec<Decisions>, Option<G>);

impl<G: Clone> OpenParts<G> {
    pub(super) fn new() -> Self {
        OpenParts(Mutex::new(None))
    }

    /// The parts open now, the first starting at `first` if given.
    pub(super) fn set(&self, parts: &[Decisions], first: Option<&G>) {
        let mut open = self.0.lock().unwrap_or_else(|p| p.into_inner());
        *open = Some((parts.to_vec(), first.cloned()));
    }

    /// The parts open now, once the run has told them (a run that replays its way to the
    /// first part's start may take seconds); `None` when `stopped` says stop first, or when
    /// none is open. A probe of no part would say that nothing is left.
    fn wait(&self, stopped: &dyn Fn() -> bool) -> Option<OpenNow<G>> {
        loop {
            if stopped() {
                return None;
            }
            let open = self.0.lock().unwrap_or_else(|p| p.into_inner()).clone();
            if let Some(open) = open {
                return (!open.0.is_empty()).then_some(open);
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

/// What the estimator's thread needs of a run.
pub(super) struct Estimator<'a, P: Stored> {
    pub(super) puzzle: &'a P,
    pub(super) probing: Probing,
    /// The search's threads, which the probes share the cores with.
    pub(super) threads: usize,
    pub(super) stats: Arc<SearchStats>,
    pub(super) open: OpenParts<P::Grid>,
    pub(super) progress: &'a CheckpointProgress,
}

impl<P: Stored> Estimator<'_, P> {
    /// Probes the open parts until `stopped` (see [`probe_parts`]); gives up where their roots
    /// would take more than [`MOST_ROOT_BYTES`].
    pub(super) fn run(&self, stopped: &dyn Fn() -> bool) {
        let mut cache = RootCache::new(MOST_ROOT_BYTES);
        let mut roots = || {
            let (parts, first) = self.open.wait(stopped)?;
            let root_of = |decisions: &[[usize; 3]]| self.root_of(decisions, stopped);
            cache.roots(&parts, first, root_of)
        };
        let found_before = || self.progress.found_before();
        let (stats, puzzle) = (&*self.stats, self.puzzle);
        probe_parts(
            stats,
            puzzle,
            self.probing,
            self.threads,
            &mut roots,
            &found_before,
            stopped,
        );
    }

    /// The propagated root of the part `decisions` selects: `Some(None)` for a part with no
    /// solution (or one the checkpoint cannot read, which its search reports), `None` when
    /// `stopped` ended the propagation.
    fn root_of(
        &self,
        decisions: &[[usize; 3]],
        stopped: &dyn Fn() -> bool,
    ) -> Option<Option<P::Grid>> {
        let Ok(part) = part_of(self.puzzle, decisions) else {
            return Some(None);
        };
        match propagated_root_until(&part, stopped) {
            Ok(Ok(root)) => Some(root),
            Ok(Err(_interrupted)) => None,
            Err(_) => Some(None),
        }
    }
}

/// The root grids of the open parts, worked out once each and let go once their parts are
/// committed, within a budget of bytes.
struct RootCache<G> {
    roots: HashMap<Decisions, Option<G>>,
    bytes: usize,
    most_bytes: usize,
}

impl<G: DomainGrid> RootCache<G> {
    fn new(most_bytes: usize) -> Self {
        RootCache {
            roots: HashMap::new(),
            bytes: 0,
            most_bytes,
        }
    }

    /// The roots of `parts`, the first starting at `first` if given, each worked out by
    /// `root_of` (`None` when stopped, `Some(None)` for a part with no root); `None` when
    /// stopped, or when the roots take more than the budget.
    fn roots(
        &mut self,
        parts: &[Decisions],
        mut first: Option<G>,
        mut root_of: impl FnMut(&[[usize; 3]]) -> Option<Option<G>>,
    ) -> Option<Vec<G>> {
        let open: HashSet<&Decisions> = parts.iter().collect();
        let bytes = &mut self.bytes;
        self.roots.retain(|decisions, root| {
            let keep = open.contains(decisions);
            if !keep {
                *bytes -= root.as_ref().map_or(0, |g| g.heap_bytes());
            }
            keep
        });
        let mut grids = Vec::with_capacity(parts.len());
        for (index, decisions) in parts.iter().enumerate() {
            if let Some(first) = first.take().filter(|_| index == 0) {
                grids.push(first);
                continue;
            }
            if !self.roots.contains_key(decisions) {
                let root = root_of(decisions)?;
                let bytes = root.as_ref().map_or(0, |g| g.heap_bytes());
                if self.bytes + bytes > self.most_bytes {
                    return None;
                }
                self.bytes += bytes;
                let _ = self.roots.insert(decisions.clone(), root);
            }
            grids.extend(self.roots.get(decisions).cloned().flatten());
        }
        Some(grids)
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;
    use std::time::{Duration, Instant};

    use crate::test_strategies::permutations;
    use crate::{
        AnyPuzzle, Checkpoint, CheckpointEvent, CheckpointOptions, CheckpointSettings, Flow,
        ProgressMeter,
    };

    /// A checkpoint of the `n` x `n` permutation puzzle, saved in a temporary folder (kept
    /// while the folder lives) and loaded again.
    fn saved(n: usize) -> (tempfile::TempDir, PathBuf, Checkpoint) {
        let puzzle = AnyPuzzle::Bw(permutations(n));
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("ck.json");
        let created = Checkpoint::create(&puzzle, CheckpointSettings::default()).expect("made");
        created.save(&path).expect("saved");
        let checkpoint = Checkpoint::load(&path).expect("loads");
        (dir, path, checkpoint)
    }

    /// Waits, up to a minute, until the run's estimator has made `probes` probes.
    fn wait_for_probes(checkpoint_progress: &super::CheckpointProgress, probes: u64) {
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(60) {
            let search = checkpoint_progress.search().expect("the run estimates");
            if search.estimate().is_some_and(|e| e.probes >= probes) {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        panic!("no {probes} probes in a minute");
    }

    #[test]
    fn a_checkpoint_estimates_its_open_parts() {
        // 8! = 40,320 solutions in 64 parts or more; the run waits at its fifth commit until
        // the estimator has probed the open parts 20 times.
        let (_dir, path, mut checkpoint) = saved(8);
        let progress = checkpoint.progress();
        let mut meter = ProgressMeter::checkpoint(checkpoint.progress());
        let options = CheckpointOptions {
            threads: 2,
            estimate: true,
            ..CheckpointOptions::default()
        };
        let (mut commits, mut report) = (0, None);
        let end = checkpoint.run(&path, &options, |event| {
            if let CheckpointEvent::Committed { .. } = event {
                commits += 1;
                if commits == 5 {
                    wait_for_probes(&progress, 20);
                    report = Some(meter.report());
                }
            }
            Flow::Continue
        });
        assert!(end.is_ok(), "{end:?}");
        assert_eq!(checkpoint.committed(), 40_320);
        let report = report.expect("reported at the fifth commit");
        let estimate = report.estimate.expect("an estimate");
        // Wide probes of a permutation puzzle's parts are within 20% of the truth.
        assert!(
            (32_256.0..=48_384.0).contains(&estimate.mean),
            "{estimate:?}"
        );
        assert!(estimate.mean >= report.found(), "{report:?}");
        assert!(report.seconds_left.is_some_and(|s| s > 0.0), "{report:?}");
        let words = report.to_string();
        assert!(
            words.contains(" found of ~") && words.contains(", ETA "),
            "{words}"
        );
        // Complete, the run's count is exact and nothing is left.
        let done = ProgressMeter::checkpoint(checkpoint.progress()).report();
        assert_eq!(
            done.total,
            Some(40_320),
            "{:?}",
            checkpoint.progress().snapshot()
        );
        assert_eq!((done.seconds_left, done.fraction_done), (None, Some(1.0)));
        let words = done.to_string();
        assert!(words.contains("40,320 found, 40,320 saved"), "{words}");
        assert!(!words.contains("ETA"), "{words}");
    }

    /// The estimator waits until the run tells it the open parts, and stops where none is.
    #[test]
    fn the_estimator_waits_to_be_told_the_open_parts() {
        use super::OpenParts;
        let open = OpenParts::<u8>::new();
        assert_eq!(open.wait(&|| true), None, "stopped");
        let parts = vec![vec![[0, 0, 1]], vec![[0, 0, 0]]];
        std::thread::scope(|scope| {
            let told = scope.spawn(|| open.wait(&|| false));
            std::thread::sleep(Duration::from_millis(20));
            open.set(&parts, Some(&7));
            let told = told.join().expect("waits");
            assert_eq!(told, Some((parts.clone(), Some(7))));
        });
        open.set(&[], None);
        assert_eq!(open.wait(&|| false), None, "nothing open");
    }

    /// Roots are worked out once each, let go once their parts are committed, and never
    /// take more than the budget.
    #[test]
    fn the_root_cache_keeps_the_open_parts_roots_within_its_budget() {
        use super::RootCache;
        use crate::domain::DomainGrid;
        use crate::grid::Grid;
        let grid = |row: usize| {
            let mut grid = Grid::new(8, 8);
            grid.decide(row, 0, 1);
            grid
        };
        let bytes = grid(0).heap_bytes();
        let parts: Vec<Vec<[usize; 3]>> = (0..4).map(|row| vec![[row, 0, 1]]).collect();
        let mut worked_out = 0;
        let mut root_of = |decisions: &[[usize; 3]]| {
            worked_out += 1;
            Some(Some(grid(decisions[0][0])))
        };
        // Room for two roots: the first two parts fit, all four do not.
        let mut cache = RootCache::new(2 * bytes);
        let roots = cache.roots(&parts[..2], None, &mut root_of);
        assert_eq!(roots, Some(vec![grid(0), grid(1)]));
        assert_eq!(
            cache
                .roots(&parts[..2], None, &mut root_of)
                .map(|r| r.len()),
            Some(2)
        );
        assert_eq!(cache.bytes, 2 * bytes);
        assert_eq!(cache.roots(&parts, None, &mut root_of), None);
        // Once the first two are committed, the last two fit; the first starts elsewhere.
        let roots = cache.roots(&parts[2..], Some(grid(7)), &mut root_of);
        assert_eq!(roots, Some(vec![grid(7), grid(3)]));
        assert_eq!(cache.bytes, bytes);
        assert_eq!(worked_out, 4);
    }

    #[test]
    fn a_checkpoint_that_does_not_estimate_says_no_total() {
        let (_dir, path, mut checkpoint) = saved(6);
        let options = CheckpointOptions {
            threads: 2,
            ..CheckpointOptions::default()
        };
        let mut meter = ProgressMeter::checkpoint(checkpoint.progress());
        let mut reports = Vec::new();
        checkpoint
            .run(&path, &options, |event| {
                if let CheckpointEvent::Committed { .. } = event {
                    reports.push(meter.report());
                }
                Flow::Continue
            })
            .expect("runs");
        assert!(checkpoint.progress().search().is_none());
        // Until the last part commits, no total and no time left.
        let (last, running) = reports.split_last().expect("parts committed");
        for report in running {
            assert!(
                report.estimate.is_none() && !report.estimating,
                "{report:?}"
            );
            assert!(!report.to_string().contains("ETA"), "{report}");
        }
        assert_eq!(last.total, Some(720), "{last:?}");
    }
}
