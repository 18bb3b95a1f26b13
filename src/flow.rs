//! What the caller of a search tells it after each solution: go on, or stop.

/// What the collector tells the search after each solution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep searching.
    Continue,
    /// Stop the search now.
    Stop,
}
