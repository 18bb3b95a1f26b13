//! A count made the way a [`CountMethod`] says ([`Counter::run_by`]), and how a count was made
//! in words ([`ExactMethod`]'s `Display`, as `count --stats` prints it).

use std::fmt;

use thiserror::Error;

use super::progress_words::memo_words;
use super::{CountFailure, CountMethod, CountRefusal, Counter, ExactOutcome};
use crate::count::ExactMethod;

/// Why a count by a [`CountMethod`] gave no outcome.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum MethodError {
    /// The method refuses what was asked ([`CountMethod::Decompose`] with a solution limit,
    /// or where only an enumeration answers).
    #[error(transparent)]
    Refused(#[from] CountRefusal),
    /// The count failed.
    #[error(transparent)]
    Failed(#[from] CountFailure),
}

impl Counter<'_> {
    /// Counts as `method` says, `solution_limit` telling whether the count is to stop after a
    /// number of solutions: `Ok(None)` when the method enumerates the solutions instead (with
    /// [`AnyPuzzle::solver`](crate::AnyPuzzle::solver)) without counting first, else the
    /// outcome of [`Counter::run`]. That outcome is [`ExactOutcome::NeedsEnumeration`] only
    /// where the method enumerates then; [`CountMethod::Decompose`] refuses instead.
    ///
    /// ```
    /// use nonoenum::{AnyPuzzle, CountMethod, CountOptions, ExactOutcome};
    ///
    /// let puzzle = AnyPuzzle::parse("2 2\n1\n1\n1\n1\n")?;
    /// let counter = puzzle.counter(CountOptions::default());
    /// assert!(counter.run_by(CountMethod::Enumerate, false)?.is_none());
    /// assert!(counter.run_by(CountMethod::Auto, true)?.is_none()); // a limit: enumerate
    /// let Some(ExactOutcome::Counted(exact)) = counter.run_by(CountMethod::Auto, false)? else {
    ///     panic!("counted");
    /// };
    /// assert_eq!(exact.count, 2u32.into());
    /// assert!(counter.run_by(CountMethod::Decompose, true).is_err());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn run_by(
        &self,
        method: CountMethod,
        solution_limit: bool,
    ) -> Result<Option<ExactOutcome>, MethodError> {
        if !method.counts_exactly(solution_limit)? {
            return Ok(None);
        }
        let outcome = self.run()?;
        if let ExactOutcome::NeedsEnumeration(why) = outcome {
            method.on_enumeration_needed(why)?;
        }
        Ok(Some(outcome))
    }
}

/// How the count was made, with its statistics: `propagation and probing`, `profiles, rows
/// fixed one by one, widest layer N profiles`, `a sweep row by row, ...` or `components, ...`.
impl fmt::Display for ExactMethod {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ExactMethod::Propagation => write!(f, "propagation and probing"),
            ExactMethod::Profiles {
                orientation,
                widest,
            } => {
                let lines = if orientation.transposed {
                    "columns"
                } else {
                    "rows"
                };
                write!(
                    f,
                    "profiles, {lines} fixed one by one, widest layer {widest} profiles"
                )
            }
            ExactMethod::Sweep {
                orientation,
                branched,
                memo_hits,
                memo_bytes,
                backbone,
                backbone_millis,
            } => {
                let order = match (orientation.transposed, orientation.reversed) {
                    (false, false) => "row by row",
                    (false, true) => "row by row from the bottom",
                    (true, false) => "column by column",
                    (true, true) => "column by column from the right",
                };
                write!(
                    f,
                    "a sweep {order}, {branched} nodes branched, {memo_hits} from the memo ({})",
                    memo_words(memo_bytes)
                )?;
                if backbone > 0 {
                    let seconds = backbone_millis as f64 / 1000.0;
                    write!(
                        f,
                        ", after fixing {backbone} backbone cells in {seconds:.3} s"
                    )?;
                }
                Ok(())
            }
            ExactMethod::Components {
                branched,
                cache_hits,
                probes,
                checks: [completed, impossible, undecided],
            } => write!(
                f,
                "components, {branched} counted by branching, {cache_hits} from the cache, \
                 {probes} probes, completion checks: {completed} completed, {impossible} \
                 impossible, {undecided} undecided"
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count::{CountLimits, Orientation};
    use crate::{AnyPuzzle, CountOptions, EnumerationNeeded};

    #[test]
    fn methods_are_described_with_their_statistics() {
        let orientation = Orientation {
            transposed: true,
            reversed: true,
        };
        let sweep = ExactMethod::Sweep {
            orientation,
            branched: 3,
            memo_hits: 4,
            memo_bytes: (3 << 20, 100 << 20),
            backbone: 5,
            backbone_millis: 1500,
        };
        assert_eq!(
            sweep.to_string(),
            "a sweep column by column from the right, 3 nodes branched, 4 from the memo (at most \
             3 of 100 MiB), after fixing 5 backbone cells in 1.500 s"
        );
        let profiles = ExactMethod::Profiles {
            orientation: Orientation {
                transposed: false,
                reversed: false,
            },
            widest: 7,
        };
        assert_eq!(
            profiles.to_string(),
            "profiles, rows fixed one by one, widest layer 7 profiles"
        );
        assert_eq!(
            ExactMethod::Propagation.to_string(),
            "propagation and probing"
        );
    }

    #[test]
    fn decompose_refuses_what_only_an_enumeration_answers_and_auto_passes_it_on() {
        let puzzle = AnyPuzzle::parse("4 4\n1\n1\n1\n1\n1\n1\n1\n1\n").expect("a puzzle");
        let options = CountOptions {
            per_cell: true,
            limits: CountLimits {
                max_profiles: 1,
                ..CountLimits::default()
            },
            ..CountOptions::default()
        };
        let counter = puzzle.counter(options);
        let why = EnumerationNeeded::TooManyProfiles { limit: 8 };
        let auto = counter.run_by(CountMethod::Auto, false).expect("counts");
        assert_eq!(auto, Some(ExactOutcome::NeedsEnumeration(why)));
        let refused = counter.run_by(CountMethod::Decompose, false);
        assert!(matches!(
            refused,
            Err(MethodError::Refused(CountRefusal::NeedsEnumeration(w))) if w == why
        ));
    }
}
