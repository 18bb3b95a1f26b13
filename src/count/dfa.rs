//! One line as a layered, minimal automaton: for each position, the classes of "what the rest
//! of the line can still become", given its clue and its known cells.
//!
//! A clue is read by a small automaton whose states are (block, cells of it painted so far).
//! Two states at the same position are merged when they accept exactly the same completions
//! of the rest of the line (under its known cells), and states with no completion are dropped.
//! What is left, position by position, is the minimal description of the line's residual
//! problem: two partial lines in the same class have the same completions, so a counter that
//! keys its memo on classes makes equal residual problems meet. In a line of `1`-clues, for
//! example, "the block was just painted" and "the block is done" become one class.

use rustc_hash::FxHashMap;

use crate::grid::Cell;

/// No class: the value leads nowhere.
pub const DEAD: u16 = u16::MAX;

/// The successors of one class at one position: the class at the next position after an
/// empty cell and after a filled cell, or [`DEAD`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Class {
    /// After an empty cell.
    pub empty: u16,
    /// After a filled cell.
    pub filled: u16,
}

impl Class {
    /// The successor after a cell of value `filled`.
    #[inline]
    pub fn next(self, filled: bool) -> u16 {
        if filled { self.filled } else { self.empty }
    }
}

/// A line's classes, position by position. Position `len` has the single accepting class `0`.
#[derive(Clone, Debug)]
pub struct LineDfa {
    /// `classes[pos]`: the live classes before cell `pos`.
    classes: Vec<Vec<Class>>,
    /// The class of the start, or [`DEAD`] if the line has no completion at all.
    start: u16,
}

/// The line is too long or its automaton too big for 16-bit class numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooLarge;

impl LineDfa {
    /// Builds the automaton of a line of `known.len()` cells with clue `blocks`.
    pub fn new(blocks: &[u32], known: &[Cell]) -> Result<Self, TooLarge> {
        let raw = RawStates::new(blocks);
        if raw.count() >= usize::from(DEAD) || known.len() >= usize::from(DEAD) {
            return Err(TooLarge);
        }
        let len = known.len();
        let mut classes = vec![Vec::new(); len + 1];
        // The class of each raw state at the position after the current one.
        let mut later: Vec<u16> = (0..raw.count())
            .map(|s| if raw.accepts(s) { 0 } else { DEAD })
            .collect();
        classes[len].push(Class {
            empty: DEAD,
            filled: DEAD,
        });
        let mut now = vec![DEAD; raw.count()];
        let mut interned: FxHashMap<Class, u16> = FxHashMap::default();
        for pos in (0..len).rev() {
            interned.clear();
            let mut list = Vec::new();
            for (s, slot) in now.iter_mut().enumerate() {
                let follow = |filled: bool| {
                    let allowed = match known[pos] {
                        Cell::Unknown => true,
                        Cell::Filled => filled,
                        Cell::Empty => !filled,
                    };
                    match raw.next(s, filled) {
                        Some(n) if allowed => later[n],
                        _ => DEAD,
                    }
                };
                let class = Class {
                    empty: follow(false),
                    filled: follow(true),
                };
                *slot = if class.empty == DEAD && class.filled == DEAD {
                    DEAD
                } else {
                    *interned.entry(class).or_insert_with(|| {
                        list.push(class);
                        (list.len() - 1) as u16
                    })
                };
            }
            classes[pos] = list;
            std::mem::swap(&mut now, &mut later);
        }
        let start = later[0];
        Ok(LineDfa { classes, start })
    }

    /// The class at position 0, or [`DEAD`].
    pub fn start(&self) -> u16 {
        self.start
    }

    /// Number of cells.
    pub fn len(&self) -> usize {
        self.classes.len() - 1
    }

    /// Whether the line has no cells.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The class `class` before cell `pos`.
    #[inline]
    pub fn class(&self, pos: usize, class: u16) -> Class {
        self.classes[pos][usize::from(class)]
    }

    /// Number of live classes before cell `pos`.
    pub fn width_at(&self, pos: usize) -> usize {
        self.classes[pos].len()
    }
}

/// The clue automaton before merging: state `base[j] + r` means `r` cells of block `j` painted
/// (`r == blocks[j]`: the block is complete and a gap must follow); the last state means every
/// block is done.
struct RawStates<'a> {
    blocks: &'a [u32],
    base: Vec<usize>,
}

impl<'a> RawStates<'a> {
    fn new(blocks: &'a [u32]) -> Self {
        let mut base = Vec::with_capacity(blocks.len() + 1);
        let mut at = 0;
        for &b in blocks {
            base.push(at);
            at += b as usize + 1;
        }
        base.push(at);
        RawStates { blocks, base }
    }

    fn count(&self) -> usize {
        self.base[self.blocks.len()] + 1
    }

    /// `(block, painted)` of state `s`.
    fn decode(&self, s: usize) -> (usize, usize) {
        let j = self.base.partition_point(|&b| b <= s) - 1;
        (j, s - self.base[j])
    }

    fn next(&self, s: usize, filled: bool) -> Option<usize> {
        let (j, r) = self.decode(s);
        let k = self.blocks.len();
        if j == k {
            return (!filled).then_some(s);
        }
        let len = self.blocks[j] as usize;
        match (r, filled) {
            (0, false) => Some(s),
            (r, true) if r < len => Some(s + 1),
            (r, false) if r == len => Some(self.base[j + 1]),
            _ => None,
        }
    }

    fn accepts(&self, s: usize) -> bool {
        let k = self.blocks.len();
        let (j, r) = self.decode(s);
        j == k || (j + 1 == k && r == self.blocks[j] as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::blocks_of;

    /// Walks the automaton over a complete line.
    fn accepts(dfa: &LineDfa, cells: &[bool]) -> bool {
        let mut class = dfa.start();
        for (pos, &filled) in cells.iter().enumerate() {
            if class == DEAD {
                return false;
            }
            class = dfa.class(pos, class).next(filled);
        }
        class == 0
    }

    #[test]
    fn accepts_exactly_the_lines_of_the_clue_that_agree_with_the_known_cells() {
        let known_patterns: [&[Cell]; 3] = [
            &[Cell::Unknown; 7],
            &[
                Cell::Unknown,
                Cell::Filled,
                Cell::Unknown,
                Cell::Unknown,
                Cell::Empty,
                Cell::Unknown,
                Cell::Unknown,
            ],
            &[
                Cell::Empty,
                Cell::Unknown,
                Cell::Unknown,
                Cell::Unknown,
                Cell::Unknown,
                Cell::Unknown,
                Cell::Filled,
            ],
        ];
        for clue in [
            vec![],
            vec![1],
            vec![2, 1],
            vec![1, 1, 1],
            vec![3, 3],
            vec![7],
        ] {
            for known in known_patterns {
                let dfa = LineDfa::new(&clue, known).expect("small");
                for bits in 0u32..128 {
                    let cells: Vec<bool> = (0..7).map(|i| bits >> i & 1 == 1).collect();
                    let agrees = cells.iter().zip(known).all(|(&f, k)| match k {
                        Cell::Unknown => true,
                        Cell::Filled => f,
                        Cell::Empty => !f,
                    });
                    let expected = agrees && blocks_of(cells.iter().copied()) == clue;
                    assert_eq!(
                        accepts(&dfa, &cells),
                        expected,
                        "{clue:?} {known:?} {cells:?}"
                    );
                }
            }
        }
    }

    /// The number of classes reachable from the start, position by position.
    fn reachable_widths(dfa: &LineDfa) -> Vec<usize> {
        let mut now = vec![dfa.start()];
        let mut widths = Vec::new();
        for pos in 0..=dfa.len() {
            now.retain(|&c| c != DEAD);
            now.sort_unstable();
            now.dedup();
            widths.push(now.len());
            if pos < dfa.len() {
                now = now
                    .iter()
                    .flat_map(|&c| {
                        let class = dfa.class(pos, c);
                        [class.empty, class.filled]
                    })
                    .collect();
            }
        }
        widths
    }

    #[test]
    fn equal_futures_share_a_class() {
        // Clue 1 1 1 in 5 cells has one solution: one class at each position.
        let dfa = LineDfa::new(&[1, 1, 1], &[Cell::Unknown; 5]).expect("small");
        assert_eq!(reachable_widths(&dfa), [1; 6]);
        // Clue 1 in 4 cells: "not yet" and "done" are the only two futures; "just painted"
        // and "painted long ago" are one class.
        let dfa = LineDfa::new(&[1], &[Cell::Unknown; 4]).expect("small");
        assert_eq!(reachable_widths(&dfa), [1, 2, 2, 2, 1]);
    }

    #[test]
    fn an_impossible_line_has_a_dead_start() {
        let dfa = LineDfa::new(&[3], &[Cell::Unknown, Cell::Empty, Cell::Unknown]).expect("small");
        assert_eq!(dfa.start(), DEAD);
    }
}
