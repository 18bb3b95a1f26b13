//! Where a line falls apart into independent pieces. Given its known cells, each block can
//! only lie between its left-most and right-most placements (its *span*). When a cell lies
//! strictly between the span of one block and the span of the next, that cell is empty in
//! every placement and the blocks on either side never interact: the line splits there. A
//! *segment* is a maximal run of blocks whose spans chain together, with the cells they cover.

use crate::grid::Cell;

/// One independent piece of a line: blocks `first..end` of its clue, within cells
/// `start..=last`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Segment {
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
    let mut out: Vec<Segment> = Vec::new();
    for (j, &len) in blocks.iter().enumerate() {
        let (first_cell, last_cell) = (left[j], right[j] + len as usize - 1);
        match out.last_mut() {
            Some(seg) if first_cell <= seg.last as usize + 1 => {
                seg.end = j as u32 + 1;
                seg.last = seg.last.max(last_cell as u32);
            }
            _ => out.push(Segment {
                first: j as u32,
                end: j as u32 + 1,
                start: first_cell as u32,
                last: last_cell as u32,
            }),
        }
    }
    Some(out)
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
}
