//! A number of seconds as a command line writes it (`--time-limit 2.5`), checked.

use std::time::Duration;

use thiserror::Error;

/// The longest time [`parse_seconds`] takes, in seconds: about 31 years, far beyond any run,
/// and short enough to add to the clock (at 10^19 seconds, adding overflows).
pub const MAX_SECONDS: u64 = 1_000_000_000;

/// Why a text is not a number of seconds; it shows the text as given (`1e20`, not twenty-one
/// digits).
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SecondsError {
    /// Not a number, or not above 0.
    #[error("must be a positive number of seconds, not {0}")]
    NotPositive(String),
    /// Above [`MAX_SECONDS`] (or infinite).
    #[error("{0} is too large (at most {MAX_SECONDS} seconds)")]
    TooLarge(String),
}

/// A positive number of seconds up to [`MAX_SECONDS`], decimal or with an exponent (`1e3`);
/// one below a nanosecond is taken as a nanosecond.
///
/// ```
/// use nonoenum::{SecondsError, parse_seconds};
///
/// assert_eq!(parse_seconds("2.5"), Ok(std::time::Duration::from_millis(2500)));
/// let err = parse_seconds("1e20").unwrap_err();
/// assert_eq!(err.to_string(), "1e20 is too large (at most 1000000000 seconds)");
/// assert_eq!(parse_seconds("0"), Err(SecondsError::NotPositive("0".into())));
/// ```
pub fn parse_seconds(text: &str) -> Result<Duration, SecondsError> {
    let not_positive = || SecondsError::NotPositive(text.to_string());
    let value: f64 = text.trim().parse().map_err(|_| not_positive())?;
    if value > MAX_SECONDS as f64 {
        return Err(SecondsError::TooLarge(text.to_string()));
    }
    if value.is_nan() || value <= 0.0 {
        return Err(not_positive());
    }
    let at_least_one_nanosecond = Duration::from_secs_f64(value).max(Duration::from_nanos(1));
    Ok(at_least_one_nanosecond)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_are_positive_and_bounded_and_shown_as_given() {
        assert_eq!(parse_seconds("1e3"), Ok(Duration::from_secs(1000)));
        assert_eq!(
            parse_seconds("1000000000"),
            Ok(Duration::from_secs(MAX_SECONDS))
        );
        for text in ["1e20", "1e19", "inf", "1000000000.5"] {
            assert_eq!(
                parse_seconds(text),
                Err(SecondsError::TooLarge(text.into()))
            );
        }
        assert_eq!(parse_seconds("1e-300"), Ok(Duration::from_nanos(1)));
        for text in ["0", "-1", "-0", "NaN", "-inf", "x", ""] {
            assert_eq!(
                parse_seconds(text),
                Err(SecondsError::NotPositive(text.into()))
            );
        }
        let err = parse_seconds("-1e-300").unwrap_err().to_string();
        assert_eq!(err, "must be a positive number of seconds, not -1e-300");
    }
}
