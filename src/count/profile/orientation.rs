//! Which side a walk over the grid starts from, and the automata of its lines read in that
//! order: what profiles and the sweep are built from.

use super::ProfileError;
use crate::count::countable::Countable;
use crate::count::dfa::{LineDfa, TooLarge};
use crate::domain::DomainGrid;
use crate::puzzle::LineId;

/// Which lines are fixed one per layer, and in which order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Orientation {
    /// Columns are fixed one by one (left to right), rows are tracked.
    pub transposed: bool,
    /// The lines are fixed from the last to the first (bottom to top, right to left).
    pub reversed: bool,
}

impl Orientation {
    /// All four orientations.
    pub const ALL: [Orientation; 4] = [
        Orientation {
            transposed: false,
            reversed: false,
        },
        Orientation {
            transposed: false,
            reversed: true,
        },
        Orientation {
            transposed: true,
            reversed: false,
        },
        Orientation {
            transposed: true,
            reversed: true,
        },
    ];

    /// Where this orientation is in [`Orientation::ALL`].
    pub fn index(self) -> usize {
        2 * usize::from(self.transposed) + usize::from(self.reversed)
    }
}

/// The most bytes the automata of one walk's lines may take together. An automaton has a
/// class per live state at each cell, so a line's takes up to its cells times twice its
/// blocks: 10 MB for a line of 2,000 cells and 666 blocks, and 40 GB for the 4,000 lines of
/// such a grid, where the walk could never finish anyway. Random 300x300 pictures take about
/// a hundred megabytes at most.
pub(crate) const AUTOMATA_BYTES: usize = 256 << 20;

impl Orientation {
    /// The automata of the lines of `grid` (a propagated grid of `puzzle`) walked as this
    /// orientation says: the lines fixed one by one (rows, or columns when transposed), in
    /// the order they are fixed, and the lines crossing them. Each reads its cells in the
    /// order they are fixed: the crossing lines backwards when the walk is reversed. Asks
    /// `stopped` before each line (a long line's automaton takes milliseconds).
    #[allow(
        clippy::type_complexity,
        reason = "the two lists of automata, named where they are used"
    )]
    pub(super) fn automata<P: Countable>(
        self,
        puzzle: &P,
        grid: &P::Grid,
        stopped: &dyn Fn() -> bool,
    ) -> Result<(Vec<LineDfa<P::Successors>>, Vec<LineDfa<P::Successors>>), ProfileError> {
        self.automata_within(puzzle, grid, stopped, AUTOMATA_BYTES)
    }

    /// [`Orientation::automata`], [`ProfileError::LineTooLong`] once they take more than
    /// `budget` bytes together.
    #[allow(
        clippy::type_complexity,
        reason = "the two lists of automata, named where they are used"
    )]
    fn automata_within<P: Countable>(
        self,
        puzzle: &P,
        grid: &P::Grid,
        stopped: &dyn Fn() -> bool,
        budget: usize,
    ) -> Result<(Vec<LineDfa<P::Successors>>, Vec<LineDfa<P::Successors>>), ProfileError> {
        let built = std::cell::Cell::new(0usize);
        let automaton = |id: LineId, backwards: bool| {
            if stopped() {
                return Err(ProfileError::Cancelled);
            }
            let line = puzzle
                .line_automaton(grid, id, backwards)
                .map_err(|TooLarge| ProfileError::LineTooLong)?;
            built.set(built.get() + line.bytes());
            if built.get() > budget {
                return Err(ProfileError::LineTooLong);
            }
            Ok(line)
        };
        let (rows, cols) = (
            (0..grid.height()).map(LineId::Row),
            (0..grid.width()).map(LineId::Col),
        );
        let (fixed, crossing): (Vec<LineId>, Vec<LineId>) = if self.transposed {
            (cols.collect(), rows.collect())
        } else {
            (rows.collect(), cols.collect())
        };
        let mut fixed = fixed
            .into_iter()
            .map(|id| automaton(id, false))
            .collect::<Result<Vec<_>, _>>()?;
        if self.reversed {
            fixed.reverse();
        }
        let crossing = crossing
            .into_iter()
            .map(|id| automaton(id, self.reversed))
            .collect::<Result<Vec<_>, _>>()?;
        Ok((fixed, crossing))
    }
}

#[cfg(test)]
mod budget_tests {
    use super::*;
    use crate::choose::probed_root;

    #[test]
    fn automata_past_their_budget_are_too_large() {
        let puzzle = crate::test_strategies::grid_of_squares(11);
        let root = probed_root(&puzzle).expect("valid").expect("a solution");
        let orientation = Orientation::ALL[0];
        let (steps, tracked) = (orientation.automata(&puzzle, &root, &|| false))
            .expect("32x32 is well within the budget");
        let bytes: usize = steps.iter().chain(&tracked).map(LineDfa::bytes).sum();
        assert!(bytes > 0);
        let within = orientation.automata_within(&puzzle, &root, &|| false, bytes);
        assert!(within.is_ok(), "exactly the budget fits");
        let over = orientation.automata_within(&puzzle, &root, &|| false, bytes - 1);
        assert!(matches!(over, Err(ProfileError::LineTooLong)));
    }
}
