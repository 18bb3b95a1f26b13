//! The reference line solver: enumerates every placement of the blocks. Exponential; for tests.

use super::{Contradiction, LineIn, LineOut, LineSolver, bit, set_bit};

/// Enumerates all placements of the clue that agree with the known cells and keeps the cells on
/// which they all agree. Only for short lines (tests and cross-checks).
#[derive(Debug, Default)]
pub struct NaiveLineSolver;

impl LineSolver for NaiveLineSolver {
    fn solve(&mut self, line: LineIn<'_>, out: LineOut<'_>) -> Result<(), Contradiction> {
        let (clue, len) = (line.clue, line.len);
        let known: Vec<Option<bool>> = (0..len)
            .map(|i| {
                if bit(line.filled, i) {
                    Some(true)
                } else if bit(line.empty, i) {
                    Some(false)
                } else {
                    None
                }
            })
            .collect();
        let mut seen_filled = vec![false; len];
        let mut seen_empty = vec![false; len];
        let mut cells = vec![false; len];
        let mut any = false;
        place(clue, 0, &mut cells, &known, &mut |line| {
            any = true;
            for (i, &f) in line.iter().enumerate() {
                if f {
                    seen_filled[i] = true;
                } else {
                    seen_empty[i] = true;
                }
            }
        });
        if !any {
            return Err(Contradiction);
        }
        out.filled.fill(0);
        out.empty.fill(0);
        for i in 0..len {
            match (seen_filled[i], seen_empty[i]) {
                (true, false) => set_bit(out.filled, i),
                (false, true) => set_bit(out.empty, i),
                _ => {}
            }
        }
        Ok(())
    }
}

/// Places `blocks` from cell `from` on, calling `found` with each full line that agrees with
/// `known`.
fn place(
    blocks: &[u32],
    from: usize,
    line: &mut Vec<bool>,
    known: &[Option<bool>],
    found: &mut dyn FnMut(&[bool]),
) {
    let len = line.len();
    let agrees = |line: &[bool], range: std::ops::Range<usize>| {
        range
            .into_iter()
            .all(|i| known[i].is_none_or(|k| k == line[i]))
    };
    let Some((&first, rest)) = blocks.split_first() else {
        if agrees(line, from..len) {
            found(line);
        }
        return;
    };
    let first = first as usize;
    let rest_need: usize = rest.iter().map(|&b| b as usize + 1).sum();
    let mut start = from;
    while start + first + rest_need <= len {
        line[start..start + first].fill(true);
        let end = (start + first + 1).min(len);
        if agrees(line, from..end) {
            place(rest, end, line, known, found);
        }
        line[start..start + first].fill(false);
        start += 1;
    }
}
