//! Pictures (row-major grids of cell values) and the clues they describe, for either palette:
//! the clues of a picture, a picture checked against a puzzle's clues, and givens checked
//! against the grid.

use std::collections::HashMap;

use crate::puzzle::{LineId, PuzzleError};

/// The clues of every row and every column of a `rows` x `cols` picture, each line's read by
/// `clue_of` from its cells in order; [`PuzzleError::PictureSize`] unless the picture has one
/// cell per cell of the grid.
pub(crate) fn picture_clues<T: Copy, C>(
    rows: usize,
    cols: usize,
    cells: &[T],
    clue_of: impl Fn(&[T]) -> C,
) -> Result<(Vec<C>, Vec<C>), PuzzleError> {
    if Some(cells.len()) != rows.checked_mul(cols) {
        return Err(PuzzleError::PictureSize {
            cells: cells.len(),
            rows,
            cols,
        });
    }
    let row_clues = cells.chunks(cols.max(1)).take(rows).map(&clue_of).collect();
    let mut column = Vec::with_capacity(rows);
    let col_clues = (0..cols)
        .map(|j| {
            column.clear();
            column.extend((0..rows).map(|i| cells[i * cols + j]));
            clue_of(&column)
        })
        .collect();
    Ok((row_clues, col_clues))
}

/// Checks a full picture against a puzzle's clues: the first line whose clue it breaks, as
/// [`PuzzleError::GoalMismatch`].
pub(crate) fn check_picture<T: Copy, C: PartialEq>(
    row_clues: &[C],
    col_clues: &[C],
    cells: &[T],
    clue_of: impl Fn(&[T]) -> C,
) -> Result<(), PuzzleError> {
    let (rows, cols) = (row_clues.len(), col_clues.len());
    let (got_rows, got_cols) = picture_clues(rows, cols, cells, clue_of)?;
    let first_broken = |got: &[C], want: &[C]| got.iter().zip(want).position(|(g, w)| g != w);
    let broken = first_broken(&got_rows, row_clues)
        .map(LineId::Row)
        .or_else(|| first_broken(&got_cols, col_clues).map(LineId::Col));
    broken.map_or(Ok(()), |line| Err(PuzzleError::GoalMismatch { line }))
}

/// Checks givens `(row, col, value)` (0-based) against a `rows` x `cols` grid: each inside it,
/// with a value `valid` accepts, and no two on one cell with different values.
pub(crate) fn check_givens<V: Copy + PartialEq>(
    rows: usize,
    cols: usize,
    givens: impl IntoIterator<Item = (usize, usize, V)>,
    valid: impl Fn(V) -> bool,
) -> Result<(), PuzzleError> {
    let mut seen = HashMap::new();
    for (row, col, value) in givens {
        // 1-based for messages; saturating, as the numbers may come from a file.
        let (row1, col1) = (row.saturating_add(1), col.saturating_add(1));
        if row >= rows || col >= cols {
            return Err(PuzzleError::GivenOutside {
                row: row1,
                col: col1,
                rows,
                cols,
            });
        }
        if !valid(value) {
            return Err(PuzzleError::BadGivenColor {
                row: row1,
                col: col1,
            });
        }
        if let Some(&previous) = seen.get(&(row, col))
            && previous != value
        {
            return Err(PuzzleError::GivensDisagree {
                row: row1,
                col: col1,
            });
        }
        let _ = seen.insert((row, col), value);
    }
    Ok(())
}
