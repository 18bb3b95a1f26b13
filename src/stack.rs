//! The stack that the threads of a search or a count need: both recurse one level per cell at
//! most, so they sit above this module, never one above the other for it.

use crate::domain::Domain;

/// The stack a search or counting thread needs for `puzzle`: about 1 KiB a cell, between
/// 64 MiB and 1 GiB (reserved address space, touched only as used).
pub(crate) fn stack_size<P: Domain>(puzzle: &P) -> usize {
    let (height, width) = puzzle.size();
    height
        .saturating_mul(width)
        .saturating_mul(1024)
        .clamp(64 << 20, 1 << 30)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_strategies::permutations;

    #[test]
    fn stacks_grow_with_the_grid_within_their_bounds() {
        assert_eq!(stack_size(&permutations(1)), 64 << 20);
        assert_eq!(stack_size(&permutations(300)), 300 * 300 * 1024);
        assert_eq!(stack_size(&permutations(2000)), 1 << 30);
    }
}
