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
//!
//! The automaton reads cell values (value 0 the background, see [`crate::domain`]): a class
//! has one successor per value, as a [`Successors`] record, two fields in black and white
//! ([`Class`]) and a slice as long as the palette in colour ([`ColorClass`]), so that the
//! black-and-white counters keep their two-successor layout. Blocks are (length, colour):
//! two blocks of the same colour need a background cell between them, blocks of different
//! colours may touch (in black and white every block has colour 1).

use std::fmt::Debug;
use std::hash::Hash;

use rustc_hash::FxHashMap;
use smallvec::SmallVec;

use crate::grid::Cell;

/// No class: the value leads nowhere.
pub(crate) const DEAD: u16 = u16::MAX;

/// The successors of one class at one position, one per cell value: the class at the next
/// position after a cell of that value, or [`DEAD`].
pub trait Successors: Clone + Debug + PartialEq + Eq + Hash + Send + Sync + 'static {
    /// The successors `next(v)` for each of `values` values.
    fn from_fn(values: usize, next: impl FnMut(usize) -> u16) -> Self;
    /// Number of values.
    fn values(&self) -> usize;
    /// The successor after a cell of value `value` (below [`Self::values`]).
    fn after(&self, value: usize) -> u16;
    /// The bytes it keeps on the heap, besides its own size.
    fn heap_bytes(&self) -> usize {
        0
    }
    /// Whether every value leads nowhere.
    fn is_dead(&self) -> bool {
        (0..self.values()).all(|v| self.after(v) == DEAD)
    }
}

/// The successors of one black-and-white class at one position: the class at the next
/// position after an empty cell and after a filled cell, or [`DEAD`].
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

impl Successors for Class {
    #[inline]
    fn from_fn(_: usize, mut next: impl FnMut(usize) -> u16) -> Self {
        Class {
            empty: next(0),
            filled: next(1),
        }
    }

    #[inline]
    fn values(&self) -> usize {
        2
    }

    #[inline]
    fn after(&self, value: usize) -> u16 {
        self.next(value != 0)
    }

    #[inline]
    fn is_dead(&self) -> bool {
        self.empty == DEAD && self.filled == DEAD
    }
}

/// The successors of one colour class at one position, one per palette value: in place for
/// palettes of up to eight values, so that the automata of long lines (a class per live state
/// at each position) are not millions of small allocations to make and free.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct ColorClass(SmallVec<[u16; 8]>);

impl Clone for ColorClass {
    fn clone(&self) -> Self {
        ColorClass(self.0.clone())
    }

    /// Reuses the allocation (the counters copy classes into buffers of the same palette).
    fn clone_from(&mut self, source: &Self) {
        self.0.clone_from(&source.0);
    }
}

impl Successors for ColorClass {
    fn from_fn(values: usize, next: impl FnMut(usize) -> u16) -> Self {
        ColorClass((0..values).map(next).collect())
    }

    #[inline]
    fn values(&self) -> usize {
        self.0.len()
    }

    #[inline]
    fn after(&self, value: usize) -> u16 {
        self.0[value]
    }

    fn heap_bytes(&self) -> usize {
        if self.0.spilled() {
            2 * self.0.capacity() + ALLOCATION_OVERHEAD
        } else {
            0
        }
    }
}

/// What the allocator adds to each allocation, about: its header, and the rounding of small
/// sizes.
const ALLOCATION_OVERHEAD: usize = 16;

/// A line's classes, position by position. Position `len` has the single accepting class `0`.
#[derive(Clone, Debug)]
pub struct LineDfa<S = Class> {
    /// `classes[pos]`: the live classes before cell `pos` (of the states a reading of the
    /// cells before it reaches).
    classes: Vec<Vec<S>>,
    /// The class of the start, or [`DEAD`] if the line has no completion at all.
    start: u16,
}

/// The line is too long or its automaton too big for 16-bit class numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooLarge;

impl LineDfa<Class> {
    /// Builds the black-and-white automaton of a line of `known.len()` cells with clue
    /// `blocks`.
    pub fn new(blocks: &[u32], known: &[Cell]) -> Result<Self, TooLarge> {
        let blocks: Vec<(u32, u8)> = blocks.iter().map(|&len| (len, 1)).collect();
        let known: Vec<u64> = known
            .iter()
            .map(|cell| match cell {
                Cell::Unknown => crate::domain::BW_VALUES,
                Cell::Filled => crate::domain::FILLED,
                Cell::Empty => crate::domain::EMPTY,
            })
            .collect();
        Self::from_clue(&blocks, &known, 2)
    }
}

impl<S: Successors> LineDfa<S> {
    /// Builds the automaton of a line of `known.len()` cells, each a set of value bits (see
    /// [`crate::domain`]), with clue `blocks` (length and colour, from 1 below `values`), over
    /// cells of `values` values (at most 64).
    pub fn from_clue(blocks: &[(u32, u8)], known: &[u64], values: usize) -> Result<Self, TooLarge> {
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
        classes[len].push(S::from_fn(values, |_| DEAD));
        let mut now = vec![DEAD; raw.count()];
        let mut interned: FxHashMap<S, u16> = FxHashMap::default();
        let reachable = Reachable::new(&raw, known, values);
        for pos in (0..len).rev() {
            interned.clear();
            let mut list = Vec::new();
            // Only the states some reading of cells `..pos` reaches get a class: the others'
            // entries are never read.
            for &s in reachable.at(pos) {
                let s = usize::from(s);
                let class = S::from_fn(values, |value| {
                    let allowed = known[pos] >> value & 1 == 1;
                    match raw.next(s, value) {
                        Some(n) if allowed => later[n],
                        _ => DEAD,
                    }
                });
                now[s] = if class.is_dead() {
                    DEAD
                } else {
                    *interned.entry(class).or_insert_with_key(|class| {
                        list.push(class.clone());
                        (list.len() - 1) as u16
                    })
                };
            }
            list.shrink_to_fit();
            classes[pos] = list;
            std::mem::swap(&mut now, &mut later);
        }
        let start = later[0];
        Ok(LineDfa { classes, start })
    }

    /// The bytes its classes take: each stores a successor (two bytes) per value, on the
    /// heap for colour palettes of over eight values; and each position's list is an
    /// allocation of its own, which on a long line of short clues (two classes a position)
    /// weighs more than its classes.
    pub fn bytes(&self) -> usize {
        let per_class = |c: &S| std::mem::size_of::<S>() + c.heap_bytes();
        let per_list = |list: &Vec<S>| {
            std::mem::size_of::<Vec<S>>()
                + ALLOCATION_OVERHEAD
                + list.iter().map(per_class).sum::<usize>()
        };
        self.classes.iter().map(per_list).sum()
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
    pub fn class(&self, pos: usize, class: u16) -> &S {
        &self.classes[pos][usize::from(class)]
    }

    /// Number of live classes before cell `pos`.
    pub fn width_at(&self, pos: usize) -> usize {
        self.classes[pos].len()
    }

    /// The most live classes at any position.
    pub fn widest(&self) -> usize {
        self.classes.iter().map(Vec::len).max().unwrap_or(1)
    }
}

/// The clue automaton before merging: state `base[j] + r` means `r` cells of block `j` painted
/// (`r == blocks[j]`: the block is complete and, before a block of its colour, a gap must
/// follow); the last state means every block is done.
/// For each position of a line, the raw states that some reading of the cells before it (each
/// cell a value its known values allow) reaches from the start, in increasing order. On a long
/// line with most cells known they are a handful a position, where the raw states are
/// thousands.
struct Reachable {
    /// The states of position `pos` are `states[from[pos]..from[pos + 1]]`.
    states: Vec<u16>,
    from: Vec<usize>,
}

impl Reachable {
    fn new(raw: &RawStates<'_>, known: &[u64], values: usize) -> Self {
        let mut states = vec![0u16];
        let mut from = vec![0, 1];
        // The last position that marked each state, so that a state is listed once.
        let mut marked = vec![usize::MAX; raw.count()];
        let mut next = Vec::new();
        for (pos, &allowed) in known.iter().enumerate() {
            next.clear();
            for &s in &states[from[pos]..from[pos + 1]] {
                let values = (0..values).filter(|&v| allowed >> v & 1 == 1);
                for n in values.filter_map(|v| raw.next(usize::from(s), v)) {
                    if marked[n] != pos {
                        marked[n] = pos;
                        next.push(n as u16);
                    }
                }
            }
            next.sort_unstable();
            states.extend_from_slice(&next);
            from.push(states.len());
        }
        Reachable { states, from }
    }

    /// The states reached before cell `pos`.
    fn at(&self, pos: usize) -> &[u16] {
        &self.states[self.from[pos]..self.from[pos + 1]]
    }
}

struct RawStates<'a> {
    blocks: &'a [(u32, u8)],
    base: Vec<usize>,
    /// The block of each state (`blocks.len()` for the last), so that decoding a state is a
    /// lookup: lines of thousands of cells decode millions of states.
    block_of: Vec<u32>,
}

impl<'a> RawStates<'a> {
    fn new(blocks: &'a [(u32, u8)]) -> Self {
        let mut base = Vec::with_capacity(blocks.len() + 1);
        let mut at = 0;
        for &(len, _) in blocks {
            base.push(at);
            at += len as usize + 1;
        }
        base.push(at);
        let mut block_of = Vec::with_capacity(at + 1);
        for (j, pair) in base.windows(2).enumerate() {
            block_of.resize(pair[1], j as u32);
        }
        block_of.push(blocks.len() as u32);
        RawStates {
            blocks,
            base,
            block_of,
        }
    }

    fn count(&self) -> usize {
        self.base[self.blocks.len()] + 1
    }

    /// `(block, painted)` of state `s`.
    fn decode(&self, s: usize) -> (usize, usize) {
        let j = self.block_of[s] as usize;
        (j, s - self.base[j])
    }

    /// The state after a cell of value `value` (0 the background) from state `s`.
    fn next(&self, s: usize, value: usize) -> Option<usize> {
        let (j, r) = self.decode(s);
        let k = self.blocks.len();
        if j == k {
            return (value == 0).then_some(s);
        }
        let (len, color) = (self.blocks[j].0 as usize, usize::from(self.blocks[j].1));
        // The next block starts at once: its colour differs from this one's.
        let touching = |value: usize| {
            self.blocks
                .get(j + 1)
                .is_some_and(|&(_, next)| usize::from(next) == value && value != color)
        };
        match (r, value) {
            (0, 0) => Some(s),
            (r, v) if r < len && v == color => Some(s + 1),
            (r, 0) if r == len => Some(self.base[j + 1]),
            (r, v) if r == len && touching(v) => Some(self.base[j + 1] + 1),
            _ => None,
        }
    }

    fn accepts(&self, s: usize) -> bool {
        let k = self.blocks.len();
        let (j, r) = self.decode(s);
        j == k || (j + 1 == k && r == self.blocks[j].0 as usize)
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

    /// Every colour line of 6 cells over 3 values (the background and two colours) under a
    /// few clues and known cells: the colour automaton accepts exactly those whose blocks are
    /// the clue and that agree with the known cells.
    #[test]
    fn a_colour_automaton_accepts_exactly_the_lines_of_its_clue() {
        use crate::color::color_blocks_of;
        const LEN: usize = 6;
        let clues: [&[(u32, u8)]; 6] = [
            &[],
            &[(1, 1)],
            &[(1, 1), (1, 2)],
            &[(2, 1), (1, 1)],
            &[(1, 2), (2, 1), (1, 2)],
            &[(6, 2)],
        ];
        let knowns: [[u64; LEN]; 3] = [
            [0b111; LEN],
            [0b111, 0b110, 0b111, 0b011, 0b111, 0b111],
            [0b001, 0b111, 0b100, 0b111, 0b111, 0b010],
        ];
        for clue in clues {
            for known in &knowns {
                let dfa = LineDfa::<ColorClass>::from_clue(clue, known, 3).expect("small");
                for code in 0..3usize.pow(LEN as u32) {
                    let cells: Vec<u8> = (0..LEN)
                        .map(|i| (code / 3usize.pow(i as u32) % 3) as u8)
                        .collect();
                    let mut class = dfa.start();
                    for (pos, &value) in cells.iter().enumerate() {
                        if class != DEAD {
                            class = dfa.class(pos, class).after(usize::from(value));
                        }
                    }
                    let blocks: Vec<(u32, u8)> = color_blocks_of(cells.iter().copied())
                        .iter()
                        .map(|b| (b.len, b.color))
                        .collect();
                    let agrees = cells.iter().zip(known).all(|(&v, k)| k >> v & 1 == 1);
                    let expected = agrees && blocks == clue;
                    assert_eq!(class == 0, expected, "{clue:?} {known:?} {cells:?}");
                }
            }
        }
    }

    #[test]
    fn an_impossible_line_has_a_dead_start() {
        let dfa = LineDfa::new(&[3], &[Cell::Unknown, Cell::Empty, Cell::Unknown]).expect("small");
        assert_eq!(dfa.start(), DEAD);
    }
}
