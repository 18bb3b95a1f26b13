//! Freeing the layers of a count that gave up on a thread of their own, so that a stopped
//! count answers at once.

/// The fewest profiles whose layers [`drop_aside`] frees on a thread of their own.
const ASIDE_FROM: usize = 1 << 16;

/// Frees `layers`, which hold `profiles` profiles, on a thread of their own, unless they hold
/// fewer than [`ASIDE_FROM`]: millions of boxed profiles take longer to free than a stopped
/// count may take to answer (0.3 to 0.7 s for a random 300x300 picture's).
pub(super) fn drop_aside<V: Send + 'static>(layers: V, profiles: usize) {
    if profiles >= ASIDE_FROM {
        // If no thread can be started, the layers are freed here, as the closure is dropped.
        let _ = std::thread::Builder::new()
            .name("nonoenum-free".to_string())
            .spawn(move || drop(layers));
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use super::*;

    #[test]
    fn layers_are_freed_here_or_on_a_thread_of_their_own() {
        let small = Arc::new(());
        drop_aside(Arc::clone(&small), ASIDE_FROM - 1);
        assert_eq!(
            Arc::strong_count(&small),
            1,
            "freed before the call returns"
        );
        let large = Arc::new(());
        drop_aside(Arc::clone(&large), ASIDE_FROM);
        let start = Instant::now();
        while Arc::strong_count(&large) > 1 {
            assert!(start.elapsed() < Duration::from_secs(60), "never freed");
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}
