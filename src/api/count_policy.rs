//! Which way a count is made: without visiting the solutions ([`AnyPuzzle::counter`]) or by
//! enumerating them ([`AnyPuzzle::solver`]), when a count falls back from one to the other
//! ([`CountMethod`]), and the sweep's memory limit on this machine.
//!
//! [`AnyPuzzle::counter`]: crate::AnyPuzzle::counter
//! [`AnyPuzzle::solver`]: crate::AnyPuzzle::solver

use thiserror::Error;

use super::EnumerationNeeded;
use crate::count::DEFAULT_SWEEP_MEMORY;

/// How a count is made.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CountMethod {
    /// Count without visiting the solutions, unless a solution limit asks for an
    /// enumeration's partial count or the counter says only an enumeration can answer
    /// (per-cell counts that need too many profiles): then enumerate.
    #[default]
    Auto,
    /// Count without visiting the solutions, or fail.
    Decompose,
    /// Enumerate the solutions one by one.
    Enumerate,
}

/// Why a count by [`CountMethod::Decompose`] cannot be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum CountRefusal {
    /// A solution limit stops an enumeration; counting without enumerating has none.
    #[error(
        "a solution limit stops an enumeration: it does not go with counting without enumerating"
    )]
    SolutionLimit,
    /// Only an enumeration can give what was asked.
    #[error("{0}")]
    NeedsEnumeration(EnumerationNeeded),
}

impl CountMethod {
    /// Whether the count starts with the exact counter (`Ok(true)`) or enumerates at once
    /// (`Ok(false)`), given whether a solution limit was set.
    ///
    /// ```
    /// use nonoenum::{CountMethod, CountRefusal};
    ///
    /// assert_eq!(CountMethod::Auto.counts_exactly(false), Ok(true));
    /// assert_eq!(CountMethod::Auto.counts_exactly(true), Ok(false));
    /// assert_eq!(CountMethod::Decompose.counts_exactly(true), Err(CountRefusal::SolutionLimit));
    /// ```
    pub fn counts_exactly(self, solution_limit: bool) -> Result<bool, CountRefusal> {
        match self {
            CountMethod::Enumerate => Ok(false),
            CountMethod::Auto => Ok(!solution_limit),
            CountMethod::Decompose if solution_limit => Err(CountRefusal::SolutionLimit),
            CountMethod::Decompose => Ok(true),
        }
    }

    /// What the count does when the exact counter says only an enumeration answers
    /// ([`ExactOutcome::NeedsEnumeration`](super::ExactOutcome::NeedsEnumeration)): `Ok` to
    /// enumerate, or the refusal of [`CountMethod::Decompose`].
    pub fn on_enumeration_needed(self, why: EnumerationNeeded) -> Result<(), CountRefusal> {
        match self {
            CountMethod::Decompose => Err(CountRefusal::NeedsEnumeration(why)),
            CountMethod::Auto | CountMethod::Enumerate => Ok(()),
        }
    }
}

/// The sweep's memo limit to use when none is given: a quarter of the memory the system has
/// available now (Linux's `MemAvailable`), and at least 1 GiB (the default
/// [`CountLimits::sweep_memory`](crate::CountLimits::sweep_memory)), which is used where the
/// system does not say. Lion (#2712) needs about 5 GiB.
pub fn default_sweep_memory() -> usize {
    let available = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|info| mem_available(&info));
    available.map_or(DEFAULT_SWEEP_MEMORY, |bytes| {
        (bytes / 4).max(DEFAULT_SWEEP_MEMORY)
    })
}

impl crate::CountLimits {
    /// These limits with the sweep's memo and the components' cache as given, in MiB, each
    /// taking [`default_sweep_memory`] where not given: the two then take at most half the
    /// memory available when the count starts. (On *Nature* components cached 55.7 million
    /// residual problems in half an hour.)
    pub fn with_memory_mib(self, sweep: Option<usize>, cache: Option<usize>) -> Self {
        let bytes = |mib: Option<usize>| {
            mib.map_or_else(default_sweep_memory, |mib| mib.saturating_mul(1 << 20))
        };
        crate::CountLimits {
            sweep_memory: bytes(sweep),
            cache_memory: bytes(cache),
            ..self
        }
    }
}

/// `MemAvailable` of a `/proc/meminfo` text, in bytes.
fn mem_available(meminfo: &str) -> Option<usize> {
    let line = meminfo
        .lines()
        .find_map(|line| line.strip_prefix("MemAvailable:"))?;
    let kib: usize = line.trim().strip_suffix("kB")?.trim().parse().ok()?;
    kib.checked_mul(1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn available_memory_is_read_from_meminfo() {
        let info =
            "MemTotal:       24000000 kB\nMemFree:         1000 kB\nMemAvailable:   23000000 kB\n";
        assert_eq!(mem_available(info), Some(23_000_000 * 1024));
        assert_eq!(mem_available("MemTotal: 5 kB\n"), None);
        assert_eq!(mem_available("MemAvailable: lots\n"), None);
        assert!(default_sweep_memory() >= DEFAULT_SWEEP_MEMORY);
    }

    #[test]
    fn memory_limits_are_given_in_mib_or_taken_from_what_is_available() {
        let limits = crate::CountLimits::default().with_memory_mib(Some(3), Some(0));
        assert_eq!((limits.sweep_memory, limits.cache_memory), (3 << 20, 0));
        assert_eq!(
            limits.max_profiles,
            crate::CountLimits::default().max_profiles
        );
        let limits = crate::CountLimits::default().with_memory_mib(None, Some(usize::MAX));
        assert!(limits.sweep_memory >= DEFAULT_SWEEP_MEMORY);
        assert_eq!(limits.cache_memory, usize::MAX);
    }

    #[test]
    fn only_decompose_refuses_an_enumeration() {
        for why in [
            EnumerationNeeded::TooManyProfiles { limit: 3 },
            EnumerationNeeded::LinesTooLong,
        ] {
            assert_eq!(CountMethod::Auto.on_enumeration_needed(why), Ok(()));
            assert_eq!(
                CountMethod::Decompose.on_enumeration_needed(why),
                Err(CountRefusal::NeedsEnumeration(why))
            );
        }
        assert_eq!(CountMethod::Enumerate.counts_exactly(false), Ok(false));
        assert_eq!(CountMethod::Decompose.counts_exactly(false), Ok(true));
    }
}
