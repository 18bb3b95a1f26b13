//! What a count made without enumerating gave, in words: the [`Display`](fmt::Display) of an
//! [`ExactOutcome`], which the `nonoenum` command prints with `count --stats`.

use std::fmt;

use super::counter::ExactOutcome;

/// The outcome in words: the count and how it was made, how many solutions a cancelled count
/// had counted for certain, or why only an enumeration can answer.
impl fmt::Display for ExactOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExactOutcome::Counted(counted) => write!(
                f,
                "{} solutions, counted by {}; {} unknown cells after probing at the root",
                counted.count, counted.method, counted.unknown_cells
            ),
            ExactOutcome::CountedPerCell { count, .. } => {
                write!(f, "{count} solutions, per cell by profiles")
            }
            ExactOutcome::CountedPerColour { count, .. } => {
                write!(f, "{count} solutions, per cell and colour by profiles")
            }
            ExactOutcome::Cancelled { at_least } => write!(
                f,
                "stopped before the count was known, at least {at_least} solutions counted"
            ),
            ExactOutcome::NeedsEnumeration(why) => write!(f, "{why}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::EnumerationNeeded;

    #[test]
    fn outcomes_read_as_words() {
        let per_colour = ExactOutcome::CountedPerColour {
            count: 3u32.into(),
            per_colour: Vec::new(),
        };
        assert_eq!(
            per_colour.to_string(),
            "3 solutions, per cell and colour by profiles"
        );
        let cancelled = ExactOutcome::Cancelled {
            at_least: 12u32.into(),
        };
        assert_eq!(
            cancelled.to_string(),
            "stopped before the count was known, at least 12 solutions counted"
        );
        let needs = ExactOutcome::NeedsEnumeration(EnumerationNeeded::TooManyProfiles { limit: 8 });
        assert_eq!(
            needs.to_string(),
            "per-cell counts by profiles need more than 8 profiles"
        );
    }
}
