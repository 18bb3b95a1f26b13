//! `count --method decompose|auto`: exact counts without visiting solutions, by the library's
//! [`AnyPuzzle::counter`], with the options of the command line, its statistics and progress
//! lines, and its messages for the library's choice ([`Method`]) between enumerating and
//! giving up where the counter cannot answer.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::bail;
use nonoenum::{
    AnyPuzzle, BigUint, CountLimits, CountMethod as Method, CountOptions, CountRefusal,
    EnumerationNeeded, ExactOutcome, MethodError, Orientation, PER_CELL_LAYERS, PerCell,
};

use crate::cli::{CountMethod, ProgressFormat, SweepSide};
use crate::output::progress::{Progress, Show};

/// The limits given on the command line for counting without enumerating.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct LimitOptions {
    /// `--max-profiles`.
    pub(crate) max_profiles: Option<usize>,
    /// `--sweep-memory`, in MiB.
    pub(crate) sweep_memory_mib: Option<usize>,
    /// `--cache-memory`, in MiB.
    pub(crate) cache_memory_mib: Option<usize>,
    /// `--no-race`.
    pub(crate) no_race: bool,
    /// `--no-completion-checks`.
    pub(crate) no_completion_checks: bool,
    /// `--backbone-after`.
    pub(crate) backbone_after: Option<Duration>,
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
        } else if self.cache_memory_mib.is_some() {
            Some("--cache-memory")
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
    progress: Option<ProgressFormat>,
    per_cell: bool,
}

impl ExactSettings {
    /// Validates `count`'s counting options.
    pub(crate) fn new(
        method: CountMethod,
        limits: LimitOptions,
        progress: Option<ProgressFormat>,
        per_cell: bool,
    ) -> anyhow::Result<Self> {
        if let Some(option) = limits.given()
            && method == CountMethod::Enumerate
        {
            bail!("{option} is for --method decompose or auto");
        }
        if limits.backbone_after.is_some() && limits.no_backbone {
            bail!("--backbone-after does not go with --no-backbone");
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

    /// Why the options rule out a checkpoint, if they do: a checkpoint saves an enumeration's
    /// frontier, and cannot record a count made without enumerating. `auto` is refused too
    /// rather than silently switched to an enumeration, which may take days where counting
    /// without enumerating takes milliseconds (`--method enumerate` asks for it).
    pub(crate) fn checkpoint_refusal(self) -> Option<&'static str> {
        match self.method {
            CountMethod::Enumerate => None,
            CountMethod::Decompose => Some(
                "--method decompose does not go with --checkpoint (a checkpoint can only \
                 record an enumeration)",
            ),
            CountMethod::Auto => Some(
                "count --checkpoint would enumerate the solutions one by one, since a \
                 checkpoint cannot record a count made without enumerating (which may be far \
                 faster): add --method enumerate to enumerate with a checkpoint, or drop \
                 --checkpoint",
            ),
        }
    }

    fn limits(self) -> CountLimits {
        let defaults = CountLimits::default()
            .with_memory_mib(self.limits.sweep_memory_mib, self.limits.cache_memory_mib);
        CountLimits {
            max_profiles: self.limits.max_profiles.unwrap_or(defaults.max_profiles),
            race: !self.limits.no_race,
            completion_checks: !self.limits.no_completion_checks,
            backbone_after: match (self.limits.no_backbone, self.limits.backbone_after) {
                (true, _) => None,
                (false, Some(after)) => Some(after),
                (false, None) => defaults.backbone_after,
            },
            sweep_from: self.limits.sweep_from.map(|side| Orientation {
                transposed: matches!(side, SweepSide::Left | SweepSide::Right),
                reversed: matches!(side, SweepSide::Bottom | SweepSide::Right),
            }),
            ..defaults
        }
    }
}

/// One puzzle to count.
pub(crate) struct ExactJob<'a> {
    pub(crate) label: &'a str,
    pub(crate) puzzle: &'a AnyPuzzle,
    pub(crate) threads: usize,
    pub(crate) quiet: bool,
    pub(crate) stats: bool,
    /// `--limit` was given: the user wants an enumeration's partial count.
    pub(crate) max_solutions: bool,
    pub(crate) cancel: &'a Arc<AtomicBool>,
}

/// What counting without enumerating gave.
pub(crate) enum Counted {
    /// The exact count, and the per-cell counts when they were asked for.
    Done {
        count: BigUint,
        per_cell: Option<PerCell>,
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
    let method = method(settings.method);
    match method.counts_exactly(job.max_solutions) {
        Ok(true) => {}
        Ok(false) => return Ok(Counted::Enumerate),
        Err(_) => bail!("--limit stops an enumeration: it does not go with --method decompose"),
    }
    let start = Instant::now();
    let options = CountOptions {
        threads: job.threads,
        limits: settings.limits(),
        per_cell: settings.per_cell,
    };
    let counter = job
        .puzzle
        .counter(options)
        .with_cancel_flag(Arc::clone(job.cancel));
    // Per-cell counts by profiles keep no progress counters.
    let show = if settings.per_cell {
        Show::Nothing
    } else {
        Show::new(job.quiet, settings.progress)
    };
    let display = Progress::count(job.label, counter.progress(), show);
    let result = counter.run_by(method, job.max_solutions);
    display.finish();
    let elapsed = start.elapsed();
    let stats = job.stats && !job.quiet;
    let say = |what: &str| {
        if stats {
            note!(
                "stats {}: {:.3} s, {what}",
                job.label,
                elapsed.as_secs_f64()
            );
        }
    };
    let outcome = match result {
        Ok(Some(outcome)) => outcome,
        Ok(None) => return Ok(Counted::Enumerate),
        Err(MethodError::Refused(CountRefusal::NeedsEnumeration(
            EnumerationNeeded::TooManyProfiles { limit },
        ))) => bail!(
            "{}: per-cell counts by profiles need more than {limit} profiles in all (they may \
             hold {PER_CELL_LAYERS} times --max-profiles: raise it, or drop --method decompose \
             to enumerate)",
            job.label
        ),
        Err(MethodError::Refused(CountRefusal::NeedsEnumeration(why))) => bail!(
            "{}: {why} (drop --method decompose to enumerate)",
            job.label
        ),
        Err(e) => bail!("{}: {e}", job.label),
    };
    let per_cell = PerCell::of_outcome(&outcome);
    let summary = outcome.to_string();
    match outcome {
        ExactOutcome::Counted(counted) => {
            say(&summary);
            Ok(Counted::Done {
                count: counted.count,
                per_cell: None,
                elapsed,
            })
        }
        ExactOutcome::CountedPerCell { count, .. }
        | ExactOutcome::CountedPerColour { count, .. } => {
            say(&summary);
            Ok(Counted::Done {
                count,
                per_cell,
                elapsed,
            })
        }
        ExactOutcome::Cancelled { at_least } => {
            // Say how far it got, as the last progress line would (per-cell profiles keep no
            // progress counters).
            if settings.per_cell {
                say(&summary);
            } else {
                let how_far = counter.progress().snapshot().how_far(elapsed);
                say(&format!("{summary}; {how_far}"));
            }
            Ok(Counted::Cancelled { at_least, elapsed })
        }
        ExactOutcome::NeedsEnumeration(_) => {
            say(&format!("{summary}: enumerating"));
            Ok(Counted::Enumerate)
        }
    }
}

/// The library's counting method for `--method`.
fn method(asked: CountMethod) -> Method {
    match asked {
        CountMethod::Auto => Method::Auto,
        CountMethod::Decompose => Method::Decompose,
        CountMethod::Enumerate => Method::Enumerate,
    }
}
