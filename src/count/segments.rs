//! Where a line falls apart into independent pieces. Given its known cells, each block can
//! only lie between its left-most and right-most placements (its *span*). When a cell lies
//! strictly between the span of one block and the span of the next, that cell is empty in
//! every placement and the blocks on either side never interact: the line splits there. A
//! *segment* is a maximal run of blocks whose spans chain together, with the cells they cover.
//! In colour, two blocks of different colours may touch, so their spans need not leave a cell
//! between them to split the line, only not overlap.

use crate::color::{Block, ColorGrid, ColorLineSolver};
use crate::grid::Cell;
use crate::line::BitLineSolver;
use crate::puzzle::LineId;

/// One independent piece of a line: blocks `first..end` of its clue, within cells
/// `start..=last`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Segment {
    /// The first block.
    pub first: u32,
    /// One past the last block.
    pub end: u32,
    /// The first cell a block of the segment can cover.
    pub start: u32,
    /// The last cell a block of the segment can cover.
    pub last: u32,
}

/// The segments of a line with clue `blocks` and cells `known`, left to right, or `None` if
/// no placement agrees with the known cells. Lines with no blocks have no segments.
pub(super) fn segments(blocks: &[u32], known: &[Cell]) -> Option<Vec<Segment>> {
    let left = leftmost(blocks, known.iter().copied())?;
    let reversed: Vec<u32> = blocks.iter().rev().copied().collect();
    let n = known.len();
    let mut right = leftmost(&reversed, known.iter().rev().copied())?;
    // Mirror the right-most placement back: block j of the clue is block k-1-j reversed.
    right.reverse();
    for (start, &len) in right.iter_mut().zip(blocks) {
        *start = n - *start - len as usize;
    }
    Some(chain(
        blocks,
        left.iter().zip(&right).map(|(&l, &r)| (l as u32, r as u32)),
    ))
}

/// [`segments`] of a line given as bitsets (`filled`, `empty`, as [`crate::Grid::line`]
/// gives them), by the bit-parallel line solver's earliest and latest start of each block
/// where it handles the line: a few word operations per block instead of a table of
/// (block, cell). `starts` is a buffer.
pub(super) fn segments_of_bits(
    solver: &mut BitLineSolver,
    starts: &mut Vec<(u32, u32)>,
    blocks: &[u32],
    len: usize,
    (filled, empty): (&[u64], &[u64]),
) -> Option<Vec<Segment>> {
    match solver.block_starts(blocks, len, filled, empty, starts) {
        Some(Ok(())) => Some(chain(blocks, starts.iter().copied())),
        Some(Err(_)) => None,
        None => {
            let bit = |plane: &[u64], i: usize| plane[i / 64] >> (i % 64) & 1 == 1;
            let known: Vec<Cell> = (0..len)
                .map(|i| match (bit(filled, i), bit(empty, i)) {
                    (true, _) => Cell::Filled,
                    (_, true) => Cell::Empty,
                    _ => Cell::Unknown,
                })
                .collect();
            segments(blocks, &known)
        }
    }
}

/// Buffers for the segments of colour lines.
#[derive(Debug, Default)]
pub struct ColorSegmentSolver {
    solver: ColorLineSolver,
    cells: Vec<u64>,
    out: Vec<u64>,
    starts: Vec<(u32, u32)>,
}

impl ColorSegmentSolver {
    /// The segments of `line` of `grid`, whose clue is `blocks`, or `None` if no placement
    /// agrees with its cells. Blocks of different colours whose spans touch fall into
    /// different segments: they may touch in any placement, so neither constrains the other.
    pub(super) fn segments(
        &mut self,
        blocks: &[Block],
        grid: &ColorGrid,
        line: LineId,
    ) -> Option<Vec<Segment>> {
        grid.read_line(line, &mut self.cells);
        self.out.resize(self.cells.len(), 0);
        self.solver
            .block_starts(blocks, &self.cells, &mut self.out, &mut self.starts)
            .ok()?;
        let lens = blocks.iter().map(|b| b.len);
        let touch = |j: usize| blocks[j - 1].color != blocks[j].color;
        Some(chain_by(lens, self.starts.iter().copied(), touch))
    }
}

/// Chains blocks into segments, given each block's earliest and latest start.
fn chain(blocks: &[u32], starts: impl Iterator<Item = (u32, u32)>) -> Vec<Segment> {
    chain_by(blocks.iter().copied(), starts, |_| false)
}

/// Chains blocks (by their lengths) into segments, given each block's earliest and latest
/// start; `may_touch(j)` says whether block `j` may touch block `j - 1` (with no cell between
/// them), which in black and white no two blocks may.
fn chain_by(
    lens: impl Iterator<Item = u32>,
    starts: impl Iterator<Item = (u32, u32)>,
    may_touch: impl Fn(usize) -> bool,
) -> Vec<Segment> {
    let mut out: Vec<Segment> = Vec::new();
    for ((j, len), (left, right)) in lens.enumerate().zip(starts) {
        let (first_cell, last_cell) = (left, right + len - 1);
        match out.last_mut() {
            // The spans overlap, or (where the blocks may not touch) leave no cell between.
            Some(seg) if first_cell <= seg.last + u32::from(!may_touch(j)) => {
                seg.end = j as u32 + 1;
                seg.last = seg.last.max(last_cell);
            }
            _ => out.push(Segment {
                first: j as u32,
                end: j as u32 + 1,
                start: first_cell,
                last: last_cell,
            }),
        }
    }
    out
}

/// The left-most placement (start of each block) agreeing with the known cells.
fn leftmost(blocks: &[u32], known: impl ExactSizeIterator<Item = Cell>) -> Option<Vec<usize>> {
    let cells: Vec<Cell> = known.collect();
    let n = cells.len();
    let k = blocks.len();
    // empties[i]: known-empty cells among the first i.
    let mut empties = vec![0u32; n + 1];
    for (i, &c) in cells.iter().enumerate() {
        empties[i + 1] = empties[i] + u32::from(c == Cell::Empty);
    }
    let filled = |i: usize| i < n && cells[i] == Cell::Filled;
    // Block j can start at i: its cells are not known empty, the cell after it not filled.
    let fits_at = |i: usize, j: usize| {
        let end = i + blocks[j] as usize;
        end <= n && empties[end] == empties[i] && !filled(end)
    };
    // After block j placed at i, the next free cell.
    let after = |i: usize, j: usize| (i + blocks[j] as usize + 1).min(n);
    // fit[j][i]: blocks j.. can be placed in cells i.. (i up to n).
    let mut fit = vec![vec![false; n + 1]; k + 1];
    fit[k][n] = true;
    for i in (0..n).rev() {
        fit[k][i] = fit[k][i + 1] && !filled(i);
    }
    for j in (0..k).rev() {
        for i in (0..n).rev() {
            fit[j][i] = (!filled(i) && fit[j][i + 1]) || (fits_at(i, j) && fit[j + 1][after(i, j)]);
        }
    }
    if !fit[0][0] {
        return None;
    }
    let mut starts = Vec::with_capacity(k);
    let mut pos = 0;
    for j in 0..k {
        let mut i = pos;
        while !(fits_at(i, j) && fit[j + 1][after(i, j)]) {
            // fit[j][i] holds, so skipping cell i is possible: it is not filled.
            i += 1;
        }
        starts.push(i);
        pos = after(i, j);
    }
    Some(starts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(text: &str) -> Vec<Cell> {
        text.chars()
            .map(|c| match c {
                '#' => Cell::Filled,
                '.' => Cell::Empty,
                _ => Cell::Unknown,
            })
            .collect()
    }

    #[test]
    fn leftmost_placements_respect_known_cells() {
        assert_eq!(
            leftmost(&[2, 1], cells("??????").into_iter()),
            Some(vec![0, 3])
        );
        assert_eq!(
            leftmost(&[2, 1], cells("?.????").into_iter()),
            Some(vec![2, 5])
        );
        assert_eq!(leftmost(&[1], cells("???#").into_iter()), Some(vec![3]));
        assert_eq!(leftmost(&[2], cells("#.#").into_iter()), None);
    }

    #[test]
    fn a_line_splits_where_spans_leave_a_gap() {
        // `1 1` pinned on both sides of the middle: two segments.
        let segs = segments(&[1, 1], &cells("??.??")).expect("valid");
        assert_eq!(segs.len(), 2);
        assert_eq!((segs[0].start, segs[0].last), (0, 1));
        assert_eq!((segs[1].start, segs[1].last), (3, 4));
        // A free line is one segment.
        assert_eq!(segments(&[1, 1], &cells("?????")).expect("valid").len(), 1);
        // Adjacent spans without a cell between them stay together.
        assert_eq!(segments(&[2, 2], &cells("??????")).expect("valid").len(), 1);
        // A line with a single placement splits at every gap.
        assert_eq!(segments(&[2, 2], &cells("?????")).expect("valid").len(), 2);
        assert_eq!(segments(&[], &cells("...")).expect("valid"), []);
        assert_eq!(segments(&[3], &cells("?.?")), None);
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// The bit-parallel path finds the same segments as the table, on lines of every
        /// length the solver handles and past it.
        #[test]
        fn both_ways_find_the_same_segments(
            (picture, reveal, flip) in (1usize..=140).prop_flat_map(|len| (
                proptest::collection::vec(proptest::bool::weighted(0.5), len),
                proptest::collection::vec(0u8..4, len),
                proptest::option::of(0..len),
            ))
        ) {
            let blocks = crate::puzzle::blocks_of(picture.iter().copied());
            let mut known: Vec<Cell> = picture
                .iter()
                .zip(&reveal)
                .map(|(&p, &r)| match (r, p) {
                    (0, true) => Cell::Filled,
                    (0, false) => Cell::Empty,
                    _ => Cell::Unknown,
                })
                .collect();
            if let Some(i) = flip {
                known[i] = if picture[i] { Cell::Empty } else { Cell::Filled };
            }
            let len = known.len();
            let words = len.div_ceil(64);
            let (mut filled, mut empty) = (vec![0u64; words], vec![0u64; words]);
            for (i, c) in known.iter().enumerate() {
                match c {
                    Cell::Filled => filled[i / 64] |= 1 << (i % 64),
                    Cell::Empty => empty[i / 64] |= 1 << (i % 64),
                    Cell::Unknown => {}
                }
            }
            let by_bits = segments_of_bits(
                &mut BitLineSolver::new(),
                &mut Vec::new(),
                &blocks,
                len,
                (&filled, &empty),
            );
            prop_assert_eq!(by_bits, segments(&blocks, &known));
        }
    }
}
