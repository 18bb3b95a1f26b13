//! When an exact count must stop: its caller cancelled it, or a rival method counting the same
//! puzzle at the same time has finished first.

use std::sync::atomic::{AtomicBool, Ordering};

/// The flags a counter polls; raising either stops it.
#[derive(Clone, Copy, Debug)]
pub struct Stop<'a> {
    cancel: &'a AtomicBool,
    rival_done: Option<&'a AtomicBool>,
}

impl<'a> Stop<'a> {
    /// Stops when `cancel` is raised or, if given, when `rival_done` is.
    pub fn new(cancel: &'a AtomicBool, rival_done: Option<&'a AtomicBool>) -> Self {
        Stop { cancel, rival_done }
    }

    /// Whether the counter must stop now.
    pub fn raised(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
            || self
                .rival_done
                .is_some_and(|done| done.load(Ordering::Relaxed))
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
}
