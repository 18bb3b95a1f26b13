//! `count --method decompose|auto`: exact counts without visiting solutions, by the library's
//! exact counters ([`nonoenum::count`]), in a pool of the requested size.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::bail;
use nonoenum::count::{
    BigUint, CountError, CountLimits, CountProgress, DEFAULT_SWEEP_MEMORY, ExactCount, ExactMethod,
    Orientation, count_exact, count_per_cell_by_profiles, probed_root,
};
use nonoenum::{AnyPuzzle, Puzzle};

use crate::cli::{CountMethod, SweepSide};
use crate::output::progress::Progress;

/// The limits given on the command line for counting without enumerating.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct LimitOptions {
    /// `--max-profiles`.
    pub(crate) max_profiles: Option<usize>,
    /// `--sweep-memory`, in MiB.
    pub(crate) sweep_memory_mib: Option<usize>,
    /// `--no-race`.
    pub(crate) no_race: bool,
    /// `--no-completion-checks`.
    pub(crate) no_completion_checks: bool,
    /// `--backbone-after`, in seconds.
    pub(crate) backbone_after: Option<f64>,
    /// `--no-backbone`.
    pub(crate) no_backbone: bool,
    /// `--sweep-from`.
    pub(crate) sweep_from: Option<SweepSide>,
}

impl LimitOptions {
    /// The option given, if any, by name.
    fn given(self) -> Option<&'static str> {
        if self.max_profiles.is_some() {
            Some("--max-profiles")
        } else {
            self.given_beyond_profiles()
        }
    }

    /// The option given, if any, by name, other than `--max-profiles` (which per-cell counts
    /// by profiles use too).
    fn given_beyond_profiles(self) -> Option<&'static str> {
        if self.sweep_memory_mib.is_some() {
            Some("--sweep-memory")
        } else if self.no_race {
            Some("--no-race")
        } else if self.no_completion_checks {
            Some("--no-completion-checks")
        } else if self.backbone_after.is_some() {
            Some("--backbone-after")
        } else if self.no_backbone {
            Some("--no-backbone")
        } else if self.sweep_from.is_some() {
            Some("--sweep-from")
        } else {
            None
        }
    }
}

/// How `count` was asked to count.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ExactSettings {
    method: CountMethod,
    limits: LimitOptions,
    progress: bool,
    per_cell: bool,
}

impl ExactSettings {
    /// Validates `count`'s counting options.
    pub(crate) fn new(
        method: CountMethod,
        limits: LimitOptions,
        progress: bool,
        per_cell: bool,
    ) -> anyhow::Result<Self> {
        if let Some(option) = limits.given()
            && method == CountMethod::Enumerate
        {
            bail!("{option} is for --method decompose or auto");
        }
        if let Some(seconds) = limits.backbone_after {
            if limits.no_backbone {
                bail!("--backbone-after does not go with --no-backbone");
            }
            if Duration::try_from_secs_f64(seconds).is_err() {
                bail!("--backbone-after must be a number of seconds, 0 or more, not {seconds}");
            }
        }
        if let Some(option) = limits.given_beyond_profiles()
            && per_cell
        {
            bail!("--per-cell counts by profiles or by enumerating the solutions: drop {option}");
        }
        Ok(ExactSettings {
            method,
            limits,
            progress,
            per_cell,
        })
    }

    /// Whether per-cell counts were asked for.
    pub(crate) fn per_cell(self) -> bool {
        self.per_cell
    }

    /// Whether the options rule out a checkpoint (which saves an enumeration's frontier).
    pub(crate) fn excludes_checkpoint(self) -> bool {
        self.method == CountMethod::Decompose
    }

    /// Whether progress lines were asked for.
    pub(crate) fn progress(self) -> bool {
        self.progress
    }

    fn limits(self) -> CountLimits {
        let defaults = CountLimits::default();
        CountLimits {
            max_profiles: self.limits.max_profiles.unwrap_or(defaults.max_profiles),
            sweep_memory: self
                .limits
                .sweep_memory_mib
                .map_or_else(default_sweep_memory, |mib| mib.saturating_mul(1 << 20)),
            race: !self.limits.no_race,
            completion_checks: !self.limits.no_completion_checks,
            backbone_after: match (self.limits.no_backbone, self.limits.backbone_after) {
                (true, _) => None,
                // Checked in `new`.
                (false, Some(seconds)) => Duration::try_from_secs_f64(seconds).ok(),
                (false, None) => defaults.backbone_after,
            },
            sweep_from: self.limits.sweep_from.map(|side| Orientation {
                transposed: matches!(side, SweepSide::Left | SweepSide::Right),
                reversed: matches!(side, SweepSide::Bottom | SweepSide::Right),
            }),
        }
    }
}

/// How many times `--max-profiles` the layers of per-cell counts by profiles may hold together
/// (they are all kept): about 2 million profiles by default, some 100 to 300 MB.
const PER_CELL_LAYERS: usize = 8;

/// `count --per-cell` without `--method enumerate`: by profiles, keeping every layer; when
/// they need too many, `auto` enumerates and `decompose` gives up.
fn count_per_cell(
    job: &ExactJob<'_>,
    puzzle: &Puzzle,
    settings: ExactSettings,
) -> anyhow::Result<Counted> {
    let start = Instant::now();
    let limit = settings
        .limits()
        .max_profiles
        .saturating_mul(PER_CELL_LAYERS);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(job.threads)
        .stack_size(nonoenum::search::stack_size(puzzle))
        .build()?;
    let counted = match probed_root(puzzle)? {
        None => Ok(no_solutions(puzzle)),
        Some(root) => pool.install(|| count_per_cell_by_profiles(puzzle, &root, limit, job.cancel)),
    };
    let elapsed = start.elapsed();
    let say = |what: &str| {
        if job.stats && !job.quiet {
            eprintln!(
                "stats {}: {:.3} s, {what}",
                job.label,
                elapsed.as_secs_f64()
            );
        }
    };
    match counted {
        Ok((count, per_cell)) => {
            say(&format!("{count} solutions, per cell by profiles"));
            Ok(Counted::Done {
                count,
                per_cell: Some(per_cell),
                elapsed,
            })
        }
        Err(CountError::TooManyProfiles { .. }) if settings.method == CountMethod::Auto => {
            say(&format!(
                "per-cell counts by profiles need more than {limit} profiles: enumerating"
            ));
            Ok(Counted::Enumerate)
        }
        Err(CountError::TooManyProfiles { .. }) => bail!(
            "{}: per-cell counts by profiles need more than {limit} profiles in all (they may \
             hold {PER_CELL_LAYERS} times --max-profiles: raise it, or drop --method decompose \
             to enumerate)",
            job.label
        ),
        Err(CountError::Cancelled) => Ok(Counted::Cancelled {
            at_least: BigUint::ZERO,
            elapsed,
        }),
        Err(e) => Err(e.into()),
    }
}

/// No solutions, and no cell filled in any.
fn no_solutions(puzzle: &Puzzle) -> (BigUint, Vec<Vec<BigUint>>) {
    let rows = vec![vec![BigUint::ZERO; puzzle.width()]; puzzle.height()];
    (BigUint::ZERO, rows)
}

/// The sweep's memo limit when `--sweep-memory` is not given: a quarter of the memory the
/// system has available now (Linux's `MemAvailable`), and at least the library's default,
/// which is used where the system does not say. Lion (#2712) needs about 5 GiB.
fn default_sweep_memory() -> usize {
    let available = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|info| mem_available(&info));
    available.map_or(DEFAULT_SWEEP_MEMORY, |bytes| {
        (bytes / 4).max(DEFAULT_SWEEP_MEMORY)
    })
}

/// `MemAvailable` of a `/proc/meminfo` text, in bytes.
fn mem_available(meminfo: &str) -> Option<usize> {
    let line = meminfo
        .lines()
        .find_map(|line| line.strip_prefix("MemAvailable:"))?;
    let kib: usize = line.trim().strip_suffix("kB")?.trim().parse().ok()?;
    kib.checked_mul(1024)
}

/// One puzzle to count.
pub(crate) struct ExactJob<'a> {
    pub(crate) label: &'a str,
    pub(crate) puzzle: &'a AnyPuzzle,
    pub(crate) threads: usize,
    pub(crate) quiet: bool,
    pub(crate) stats: bool,
    /// `--max-solutions` was given: the user wants an enumeration's partial count.
    pub(crate) max_solutions: bool,
    pub(crate) cancel: &'a AtomicBool,
}

/// What counting without enumerating gave.
pub(crate) enum Counted {
    /// The exact count, and the per-cell counts (row by row) when they were asked for.
    Done {
        count: BigUint,
        per_cell: Option<Vec<Vec<BigUint>>>,
        elapsed: Duration,
    },
    /// Stopped by Ctrl-C or the time limit before the count was known, with how many
    /// solutions it had counted for certain.
    Cancelled {
        at_least: BigUint,
        elapsed: Duration,
    },
    /// `auto` decided to enumerate instead.
    Enumerate,
}

/// Counts `job` as `settings` say, or says to enumerate.
pub(crate) fn count(job: &ExactJob<'_>, settings: ExactSettings) -> anyhow::Result<Counted> {
    match settings.method {
        CountMethod::Enumerate => return Ok(Counted::Enumerate),
        CountMethod::Auto if job.max_solutions => return Ok(Counted::Enumerate),
        CountMethod::Decompose if job.max_solutions => {
            bail!("--max-solutions stops an enumeration: it does not go with --method decompose")
        }
        CountMethod::Auto | CountMethod::Decompose => {}
    }
    let start = Instant::now();
    let stack_size = match job.puzzle {
        AnyPuzzle::Bw(puzzle) if settings.per_cell => return count_per_cell(job, puzzle, settings),
        AnyPuzzle::Color(_) if settings.per_cell => {
            bail!("--per-cell is for black-and-white puzzles")
        }
        AnyPuzzle::Bw(puzzle) => nonoenum::search::stack_size(puzzle),
        AnyPuzzle::Color(puzzle) => nonoenum::search::stack_size(puzzle),
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(job.threads)
        .stack_size(stack_size)
        .build()?;
    let progress = std::sync::Arc::new(CountProgress::default());
    let lines = (settings.progress && !job.quiet)
        .then(|| Progress::exact_lines(job.label, std::sync::Arc::clone(&progress)));
    let result = pool.install(|| match job.puzzle {
        AnyPuzzle::Bw(puzzle) => count_exact(puzzle, settings.limits(), job.cancel, &progress),
        AnyPuzzle::Color(puzzle) => count_exact(puzzle, settings.limits(), job.cancel, &progress),
    });
    if let Some(lines) = lines {
        lines.finish();
    }
    let elapsed = start.elapsed();
    match result {
        Ok(counted) => {
            if job.stats && !job.quiet {
                print_stats(job.label, &counted, elapsed);
            }
            Ok(Counted::Done {
                count: counted.count,
                per_cell: None,
                elapsed,
            })
        }
        Err(CountError::Cancelled) => {
            let at_least = progress.at_least();
            if job.stats && !job.quiet {
                // Say how far it got, as the last progress line would.
                eprintln!(
                    "stats {}: {:.3} s, stopped before the count was known, at least {at_least} \
                     solutions counted; {}",
                    job.label,
                    elapsed.as_secs_f64(),
                    crate::output::progress::exact_line(&progress.snapshot())
                );
            }
            Ok(Counted::Cancelled { at_least, elapsed })
        }
        Err(e) => bail!("{}: {e}", job.label),
    }
}

fn print_stats(label: &str, counted: &ExactCount, elapsed: Duration) {
    let how = match counted.method {
        ExactMethod::Propagation => "propagation and probing".to_string(),
        ExactMethod::Profiles {
            orientation,
            widest,
        } => format!(
            "profiles, {} fixed one by one, widest layer {widest} profiles",
            if orientation.transposed {
                "columns"
            } else {
                "rows"
            }
        ),
        ExactMethod::Sweep {
            orientation,
            branched,
            memo_hits,
            backbone,
            backbone_millis,
        } => format!(
            "a sweep {}, {branched} nodes branched, {memo_hits} from the memo{}",
            match (orientation.transposed, orientation.reversed) {
                (false, false) => "row by row",
                (false, true) => "row by row from the bottom",
                (true, false) => "column by column",
                (true, true) => "column by column from the right",
            },
            if backbone > 0 {
                format!(
                    ", after fixing {backbone} backbone cells in {:.3} s",
                    backbone_millis as f64 / 1000.0
                )
            } else {
                String::new()
            }
        ),
        ExactMethod::Components {
            branched,
            cache_hits,
            probes,
            checks: [completed, impossible, undecided],
        } => format!(
            "components, {branched} counted by branching, {cache_hits} from the cache, \
             {probes} probes, completion checks: {completed} completed, {impossible} \
             impossible, {undecided} undecided"
        ),
    };
    eprintln!(
        "stats {label}: {:.3} s, {} solutions, counted by {how}; {} unknown cells after probing \
         at the root",
        elapsed.as_secs_f64(),
        counted.count,
        counted.unknown_cells,
    );
}

#[cfg(test)]
mod tests {
    use super::mem_available;

    #[test]
    fn available_memory_is_read_from_meminfo() {
        let info =
            "MemTotal:       24000000 kB\nMemFree:         1000 kB\nMemAvailable:   23000000 kB\n";
        assert_eq!(mem_available(info), Some(23_000_000 * 1024));
        assert_eq!(mem_available("MemTotal: 5 kB\n"), None);
        assert_eq!(mem_available("MemAvailable: lots\n"), None);
    }
}
