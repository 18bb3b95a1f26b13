//! Worker faults: a panic caught on a worker thread becomes an error of the run, and debug
//! builds can inject one to test that path.

use std::any::Any;
use std::sync::OnceLock;

/// The first panic caught on a run's worker threads.
#[derive(Debug, Default)]
pub(crate) struct Fault(OnceLock<String>);

impl Fault {
    /// Keeps the message of `payload` unless an earlier panic was kept.
    pub(crate) fn record(&self, payload: &(dyn Any + Send)) {
        let _ = self.0.set(panic_message(payload));
    }

    /// The message of the first panic, if any.
    pub(crate) fn take(self) -> Option<String> {
        self.0.into_inner()
    }
}

/// What a panic said: its `&str` or `String` payload, or a word that it said something else.
pub(crate) fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_string()
    } else if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else {
        "a panic without a message".to_string()
    }
}

/// Panics here when the variable `NONOENUM_INJECT_FAULT` names `site` (debug builds only):
/// `SITE` panics the first time the engine passes here, `SITE:N` the `N`-th time (counted
/// over all threads).
#[cfg(debug_assertions)]
pub(crate) fn inject(site: &str) {
    use std::sync::atomic::{AtomicU64, Ordering};
    static WANTED: OnceLock<Option<(String, u64)>> = OnceLock::new();
    static PASSES: AtomicU64 = AtomicU64::new(0);
    let wanted = WANTED.get_or_init(|| {
        let value = std::env::var("NONOENUM_INJECT_FAULT").ok()?;
        let (name, nth) = value.split_once(':').unwrap_or((&value, "1"));
        Some((name.to_string(), nth.parse().unwrap_or(1)))
    });
    if let Some((name, nth)) = wanted
        && name == site
        && PASSES.fetch_add(1, Ordering::Relaxed) + 1 == *nth
    {
        panic!("fault injected at {site}");
    }
}

/// Release builds inject no fault.
#[cfg(not(debug_assertions))]
#[inline(always)]
pub(crate) fn inject(_site: &str) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_of_every_payload() {
        let caught = std::panic::catch_unwind(|| panic!("at {}", 3)).expect_err("a panic");
        assert_eq!(panic_message(&*caught), "at 3");
        let caught = std::panic::catch_unwind(|| panic!("plain")).expect_err("a panic");
        assert_eq!(panic_message(&*caught), "plain");
        let caught = std::panic::catch_unwind(|| std::panic::panic_any(7u8)).expect_err("panic");
        assert_eq!(panic_message(&*caught), "a panic without a message");
    }

    #[test]
    fn the_first_fault_is_kept() {
        let fault = Fault::default();
        fault.record(&"first");
        fault.record(&"second");
        assert_eq!(fault.take().as_deref(), Some("first"));
    }
}
