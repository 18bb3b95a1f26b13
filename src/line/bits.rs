//! The bit-parallel line solver: the same dynamic program as [`DpLineSolver`], one machine word
//! per block instead of one `bool` per (block, cell).
//!
//! Positions `0..=len + 1` are bits of one word (`u64` for lines up to 62 cells, `u128` up to
//! 126); a virtual empty cell at `len` ends every line, so "the last block ends at the edge" needs
//! no special case. For each `j`:
//!
//! - `fwd[j]` holds the positions `p` such that exactly blocks `0..j` fit in cells `0..p`;
//! - `bwd[j]` holds the positions `p` such that exactly blocks `j..` fit in cells `p..len`,
//!   computed as the `fwd` sets of the mirrored line;
//! - a cell `c` can be empty when some `j` has `c` in `fwd[j]` and `c + 1` in `bwd[j]`;
//! - block `j`, of length `L`, can start at `s` when a block may start there after blocks `0..j`,
//!   cells `s..s + L` can be filled, cell `s + L` can be empty and `s + L + 1` is in
//!   `bwd[j + 1]`; it then covers cells that can be filled.
//!
//! Going from block `j` to `j + 1` shifts the possible starts by `L + 1` and then lets each
//! position run right over cells that can be empty: one addition does that for all positions at
//! once, as a carry runs through a stretch of set bits. The whole solve is O(blocks x log L)
//! word operations. Longer lines go to [`LongLineSolver`], the same program over as many words
//! as they need; lines of no cells, and clues with a block of length 0, to [`DpLineSolver`].

use std::ops::{BitAnd, BitOr, BitXor, Not, Shl, Shr};

use super::{
    Contradiction, DpLineSolver, LineIn, LineOut, LineSolver, LongLineSolver, first_words,
};

/// The unsigned integers used as bitsets of line positions.
trait Word:
    Copy
    + Eq
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    const ZERO: Self;
    const ONE: Self;
    const BITS: u32;
    fn wrapping_add(self, other: Self) -> Self;
    fn reverse_bits(self) -> Self;
    fn trailing_zeros(self) -> u32;
    fn leading_zeros(self) -> u32;
}

macro_rules! impl_word {
    ($t:ty) => {
        impl Word for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const BITS: u32 = <$t>::BITS;
            #[inline]
            fn wrapping_add(self, other: Self) -> Self {
                <$t>::wrapping_add(self, other)
            }
            #[inline]
            fn reverse_bits(self) -> Self {
                <$t>::reverse_bits(self)
            }
            #[inline]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            #[inline]
            fn leading_zeros(self) -> u32 {
                <$t>::leading_zeros(self)
            }
        }
    };
}

impl_word!(u64);
impl_word!(u128);

/// The longest line the `u64` path handles: positions `0..=len + 1` must fit in 64 bits.
const MAX_LEN_U64: usize = 62;
/// The longest line the `u128` path handles.
const MAX_LEN_U128: usize = 126;

/// The bit-parallel line solver: one word for lines up to 126 cells, a [`LongLineSolver`] for
/// longer ones, a [`DpLineSolver`] for the odd cases (no cells, a block of length 0). Keeps its
/// buffers between calls: create one per thread.
#[derive(Debug, Default)]
pub struct BitLineSolver {
    narrow: Buffers<u64>,
    wide: Buffers<u128>,
    long_lines: LongLineSolver,
    odd_lines: DpLineSolver,
}

/// Whether the plain dynamic program takes the line: no cells, or a block of length 0.
fn is_odd(clue: &[u32], len: usize) -> bool {
    len == 0 || clue.contains(&0)
}

#[derive(Debug, Default)]
struct Buffers<W> {
    ready: Vec<W>,
    fwd: Vec<W>,
    mirrored_ready: Vec<W>,
    bwd: Vec<W>,
    reversed_clue: Vec<u32>,
}

impl BitLineSolver {
    /// A solver with empty buffers.
    pub fn new() -> Self {
        Self::default()
    }

    /// Whether some placement of `clue` in a line of `len` cells agrees with the known cells
    /// (`filled`, `empty`, as for [`LineSolver::solve`]): the forward half of a solve, about a
    /// third of its work. `solve` errs exactly when this is false.
    pub fn feasible(&mut self, clue: &[u32], len: usize, filled: &[u64], empty: &[u64]) -> bool {
        if let Some(word) = WordLine::of(clue, len) {
            return word.feasible(clue, len, filled, empty);
        }
        let line = LineIn {
            clue,
            len,
            filled,
            empty,
        };
        if !is_odd(clue, len) {
            return self.long_lines.feasible(line);
        }
        let words = len.div_ceil(64).max(1);
        let (mut out_filled, mut out_empty) = (vec![0; words], vec![0; words]);
        let out = LineOut {
            filled: &mut out_filled,
            empty: &mut out_empty,
        };
        self.odd_lines.solve(line, out).is_ok()
    }

    /// For each block of `clue`, its earliest and latest start over the placements that agree
    /// with the known cells, pushed to `out`; `Some(Err)` if there is no such placement. `None`
    /// for lines this solver hands to the plain dynamic program (no cells, or a block of
    /// length 0): the caller computes those its own way.
    pub fn block_starts(
        &mut self,
        clue: &[u32],
        len: usize,
        filled: &[u64],
        empty: &[u64],
        out: &mut Vec<(u32, u32)>,
    ) -> Option<Result<(), Contradiction>> {
        out.clear();
        if is_odd(clue, len) {
            return None;
        }
        if len > MAX_LEN_U128 {
            let line = LineIn {
                clue,
                len,
                filled,
                empty,
            };
            return Some(self.long_lines.block_starts(line, out));
        }
        Some(if len <= MAX_LEN_U64 {
            self.narrow
                .block_starts(clue, len, filled[0], empty[0], out)
        } else {
            self.wide
                .block_starts(clue, len, join_words(filled), join_words(empty), out)
        })
    }
}

impl LineSolver for BitLineSolver {
    fn solve(&mut self, line: LineIn<'_>, out: LineOut<'_>) -> Result<(), Contradiction> {
        let LineIn {
            clue,
            len,
            filled,
            empty,
        } = line;
        if is_odd(clue, len) {
            return self.odd_lines.solve(line, out);
        }
        if len > MAX_LEN_U128 {
            return self.long_lines.solve(line, out);
        }
        let (f, e) = if len <= MAX_LEN_U64 {
            let (f, e) = self.narrow.solve(clue, len, filled[0], empty[0])?;
            (u128::from(f), u128::from(e))
        } else {
            self.wide
                .solve(clue, len, join_words(filled), join_words(empty))?
        };
        out.filled[0] = f as u64;
        out.empty[0] = e as u64;
        if len > MAX_LEN_U64 && out.filled.len() > 1 {
            out.filled[1] = (f >> 64) as u64;
            out.empty[1] = (e >> 64) as u64;
        }
        Ok(())
    }
}

/// Bits `0..n` set.
#[inline]
fn low_bits<W: Word>(n: usize) -> W {
    if n as u32 >= W::BITS {
        !W::ZERO
    } else {
        (W::ONE << n as u32).wrapping_add(!W::ZERO)
    }
}

/// The positions `s` such that bits `s..s + len` are all set in `cells` (`len >= 1`).
#[inline]
fn run_starts<W: Word>(cells: W, len: u32) -> W {
    let (mut starts, mut covered) = (cells, 1);
    while covered < len {
        let step = covered.min(len - covered);
        starts = starts & (starts >> step);
        covered += step;
    }
    starts
}

/// Every bit within `len` above a set bit of `starts`: the cells blocks starting there cover.
#[inline]
fn smear<W: Word>(starts: W, len: u32) -> W {
    let (mut cover, mut covered) = (starts, 1);
    while covered < len {
        let step = covered.min(len - covered);
        cover = cover | (cover << step);
        covered += step;
    }
    cover
}

/// The positions reachable from `seeds` moving right over set bits of `open`: `p` is in the
/// result when some seed `q <= p` has bits `q..p` all set in `open`. A seed at the start of a
/// stretch of set bits makes the addition carry through the stretch, flipping every bit of it
/// and the bit just past it.
#[inline]
fn run_right<W: Word>(seeds: W, open: W) -> W {
    seeds | (open.wrapping_add(seeds & open) ^ open)
}

/// Whether a line of `len <= W::BITS - 2` cells (no block of length 0) has a placement: the
/// forward pass of [`forward`], keeping only its last step, and stopping as soon as a block
/// has nowhere to end.
#[inline]
fn word_feasible<W: Word>(clue: &[u32], len: usize, filled: W, empty: W) -> bool {
    let cells = low_bits::<W>(len);
    let edge = W::ONE << len as u32;
    let can_fill = cells & !empty;
    let can_empty = (cells & !filled) | edge;
    let mut ready_now = run_right(W::ONE, can_empty);
    let mut ends = ready_now;
    for &block in clue {
        (ends, ready_now) = place_block(ready_now, block, can_fill, can_empty);
        if ends == W::ZERO {
            return false;
        }
    }
    (ready_now | ends) & edge != W::ZERO
}

/// The word a line's cells fit in for [`WordLine::feasible`]: for callers that ask many
/// feasibility questions of one line (explanations of the learning search), it saves
/// [`BitLineSolver::feasible`]'s dispatch on each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WordLine {
    /// Up to 62 cells: one `u64`.
    One,
    /// Up to 126 cells: one `u128`.
    Two,
}

impl WordLine {
    /// The word of a line of `len` cells with `clue`; `None` for longer lines and odd ones.
    pub(crate) fn of(clue: &[u32], len: usize) -> Option<Self> {
        if is_odd(clue, len) {
            None
        } else if len <= MAX_LEN_U64 {
            Some(WordLine::One)
        } else if len <= MAX_LEN_U128 {
            Some(WordLine::Two)
        } else {
            None
        }
    }

    /// [`BitLineSolver::feasible`] for a line this word fits.
    pub(crate) fn feasible(self, clue: &[u32], len: usize, filled: &[u64], empty: &[u64]) -> bool {
        debug_assert_eq!(WordLine::of(clue, len), Some(self));
        match self {
            WordLine::One => word_feasible(clue, len, filled[0], empty[0]),
            WordLine::Two => word_feasible(clue, len, join_words(filled), join_words(empty)),
        }
    }
}

/// The first two words of `w` (the second 0 if absent) as one `u128`.
#[inline]
fn join_words(w: &[u64]) -> u128 {
    let [low, high] = first_words::<2>(w);
    u128::from(low) | u128::from(high) << 64
}

impl<W: Word> Buffers<W> {
    /// Solves a line of `len <= W::BITS - 2` cells; returns (filled, empty) afterwards.
    fn solve(
        &mut self,
        clue: &[u32],
        len: usize,
        filled: W,
        empty: W,
    ) -> Result<(W, W), Contradiction> {
        let line = self.both_passes(clue, len, filled, empty)?;
        let mut fillable = W::ZERO;
        let mut emptyable = W::ZERO;
        for (j, &block) in clue.iter().enumerate() {
            fillable = fillable | smear(self.valid_starts(&line, j, block), block);
        }
        for j in 0..=clue.len() {
            emptyable = emptyable | (self.fwd[j] & (self.bwd[j] >> 1));
        }
        emptyable = emptyable & line.can_empty & line.cells;
        Ok((line.cells & !emptyable, line.cells & !fillable))
    }

    /// Each block's earliest and latest valid start, pushed to `out`.
    fn block_starts(
        &mut self,
        clue: &[u32],
        len: usize,
        filled: W,
        empty: W,
        out: &mut Vec<(u32, u32)>,
    ) -> Result<(), Contradiction> {
        let line = self.both_passes(clue, len, filled, empty)?;
        for (j, &block) in clue.iter().enumerate() {
            let starts = self.valid_starts(&line, j, block);
            if starts == W::ZERO {
                return Err(Contradiction);
            }
            out.push((
                starts.trailing_zeros(),
                W::BITS - 1 - starts.leading_zeros(),
            ));
        }
        Ok(())
    }

    /// The starts of block `j` (of length `block`) in some placement of the whole clue, after
    /// [`Self::both_passes`].
    #[inline]
    fn valid_starts(&self, line: &Passes<W>, j: usize, block: u32) -> W {
        // The cell after the block is empty and the rest holds blocks `j + 1..`.
        let separated_after = line.can_empty & (self.bwd[j + 1] >> 1);
        self.ready[j] & run_starts(line.can_fill, block) & (separated_after >> block)
    }

    /// The forward and backward passes: `fwd`/`ready` and `bwd` filled, or the contradiction.
    fn both_passes(
        &mut self,
        clue: &[u32],
        len: usize,
        filled: W,
        empty: W,
    ) -> Result<Passes<W>, Contradiction> {
        let n = len as u32;
        let cells = low_bits::<W>(len);
        let edge = W::ONE << n;
        let can_fill = cells & !empty;
        let can_empty = (cells & !filled) | edge;

        forward(&mut self.ready, &mut self.fwd, clue, can_fill, can_empty);
        let k = clue.len();
        if self.fwd[k] & edge == W::ZERO {
            return Err(Contradiction);
        }

        // The suffix sets are the prefix sets of the mirrored line, mirrored back: reversed,
        // `bwd[i]` covers the last `i` blocks; reordered, `bwd[j]` covers blocks `j..`.
        let mirror_cells = |x: W| x.reverse_bits() >> (W::BITS - n);
        let mirror_positions = |x: W| (x & (cells | edge)).reverse_bits() >> (W::BITS - 1 - n);
        self.reversed_clue.clear();
        self.reversed_clue.extend(clue.iter().rev());
        forward(
            &mut self.mirrored_ready,
            &mut self.bwd,
            &self.reversed_clue,
            mirror_cells(can_fill),
            mirror_cells(can_empty & cells) | edge,
        );
        self.bwd.reverse();
        for set in &mut self.bwd {
            *set = mirror_positions(*set);
        }
        // After the last block, the virtual empty cell may serve as its separator.
        self.bwd[k] = self.bwd[k] | (edge << 1);
        Ok(Passes {
            cells,
            can_fill,
            can_empty,
        })
    }
}

/// What the passes of one solve leave besides the sets: the line's cells, those that can be
/// filled, and those that can be empty (with the virtual one at the end).
struct Passes<W> {
    cells: W,
    can_fill: W,
    can_empty: W,
}

/// Fills, for `j` in `0..=clue.len()`, `reach[j]` with the positions `p` such that exactly the
/// first `j` blocks fit in cells `0..p` (the last one may end at `p`), and `ready[j]` with those
/// where, besides, a block may start at `p` (`p` is 0 or cell `p - 1` is empty). `can_empty`
/// must include the virtual empty cell at the line's end.
fn forward<W: Word>(
    ready: &mut Vec<W>,
    reach: &mut Vec<W>,
    clue: &[u32],
    can_fill: W,
    can_empty: W,
) {
    ready.clear();
    reach.clear();
    let mut ready_now = run_right(W::ONE, can_empty);
    ready.push(ready_now);
    reach.push(ready_now);
    for &block in clue {
        let ends;
        (ends, ready_now) = place_block(ready_now, block, can_fill, can_empty);
        ready.push(ready_now);
        reach.push(ready_now | ends);
    }
}

/// One step of the forward pass: from `ready` (where the next block may start), the positions
/// where a block of `block` cells may end, and where the block after it may then start.
#[inline]
fn place_block<W: Word>(ready: W, block: u32, can_fill: W, can_empty: W) -> (W, W) {
    let ends = (ready & run_starts(can_fill, block)) << block;
    (ends, run_right((ends & can_empty) << 1, can_empty))
}
