//! Proptest strategies shared by the unit tests of several modules.

use proptest::prelude::*;

use crate::puzzle::{Clue, Puzzle};

/// Random clues (most of them contradictory) for a grid of 2 to `max` rows and columns: each
/// line gets blocks of 1 to 3 cells that fit it, whatever the crossing lines say.
pub(crate) fn random_clues(max: usize) -> impl Strategy<Value = Puzzle> {
    let line = |len: usize| {
        proptest::collection::vec(1u32..=3, 0..=len.div_ceil(2)).prop_filter_map(
            "fits",
            move |blocks| {
                let need = blocks.iter().sum::<u32>() as usize + blocks.len().saturating_sub(1);
                (need <= len).then_some(Clue(blocks))
            },
        )
    };
    (2..=max, 2..=max).prop_flat_map(move |(h, w)| {
        (
            proptest::collection::vec(line(w), h),
            proptest::collection::vec(line(h), w),
        )
            .prop_filter_map("valid", |(rows, cols)| Puzzle::new(rows, cols).ok())
    })
}
