//! When an exact count must stop: its caller cancelled it, or a rival method counting the same
//! puzzle at the same time has finished first, or a method's own deadline has passed.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
#[cfg(test)]
use std::time::Duration;
use std::time::Instant;

/// The flags a counter polls; raising either stops it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Stop<'a> {
    cancel: &'a AtomicBool,
    rival_done: Option<&'a AtomicBool>,
    deadline: Option<Instant>,
    /// Polls left before it is raised: tests stop a counter after so many polls, the same
    /// on any machine, where a deadline depends on its load.
    polls_left: Option<&'a AtomicUsize>,
}

impl<'a> Stop<'a> {
    /// Stops when `cancel` is raised or, if given, when `rival_done` is.
    pub(crate) fn new(cancel: &'a AtomicBool, rival_done: Option<&'a AtomicBool>) -> Self {
        Stop {
            cancel,
            rival_done,
            deadline: None,
            polls_left: None,
        }
    }

    /// The same flags, and raised from the `polls_left`th poll on.
    #[cfg(test)]
    pub(crate) fn after_polls(self, polls_left: &'a AtomicUsize) -> Self {
        Stop {
            polls_left: Some(polls_left),
            ..self
        }
    }

    /// The same flags, and a deadline: it is raised from `deadline` on as well (or from its
    /// own deadline, if that is earlier).
    pub(crate) fn with_deadline(self, deadline: Instant) -> Self {
        Stop {
            deadline: Some(self.deadline.map_or(deadline, |own| own.min(deadline))),
            ..self
        }
    }

    /// The time left until its deadline, if it has one.
    #[cfg(test)]
    pub(crate) fn time_left(&self) -> Option<Duration> {
        self.deadline
            .map(|at| at.saturating_duration_since(Instant::now()))
    }

    /// Whether the counter must stop now.
    pub(crate) fn raised(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
            || self
                .rival_done
                .is_some_and(|done| done.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|at| Instant::now() >= at)
            || self.polls_left.is_some_and(|left| {
                left.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1))
                    .is_err()
            })
    }
}

impl<'a> From<&'a AtomicBool> for Stop<'a> {
    fn from(cancel: &'a AtomicBool) -> Self {
        Stop::new(cancel, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn either_flag_stops() {
        let (cancel, rival) = (AtomicBool::new(false), AtomicBool::new(false));
        let alone = Stop::from(&cancel);
        let raced = Stop::new(&cancel, Some(&rival));
        assert!(!alone.raised() && !raced.raised());
        rival.store(true, Ordering::Relaxed);
        assert!(!alone.raised() && raced.raised());
        cancel.store(true, Ordering::Relaxed);
        assert!(alone.raised() && raced.raised());
    }

    #[test]
    fn a_deadline_stops_once_it_has_passed() {
        let cancel = AtomicBool::new(false);
        let now = Instant::now();
        let later = Stop::from(&cancel).with_deadline(now + Duration::from_secs(3600));
        let passed = Stop::from(&cancel).with_deadline(now);
        assert!(!later.raised());
        assert!(passed.raised());
        // A later deadline does not put off an earlier one.
        assert!(
            passed
                .with_deadline(now + Duration::from_secs(3600))
                .raised()
        );
        assert!(
            later
                .time_left()
                .is_some_and(|t| t > Duration::from_secs(3599))
        );
        assert_eq!(Stop::from(&cancel).time_left(), None);
    }

    #[test]
    fn a_poll_limit_stops_from_that_poll_on() {
        let cancel = AtomicBool::new(false);
        let left = AtomicUsize::new(2);
        let stop = Stop::from(&cancel).after_polls(&left);
        assert!(!stop.raised() && !stop.raised());
        assert!(stop.raised() && stop.raised());
        assert_eq!(left.load(Ordering::Relaxed), 0);
    }
}
