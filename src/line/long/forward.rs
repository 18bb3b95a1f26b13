//! The forward pass of [`super::LongLineSolver`]: for each block, where the blocks before it
//! fit and where it may start, as sets of positions over several words. Lines of three to
//! eight words take passes of a known number of words, which the compiler unrolls; longer
//! lines pass over each block's window of words only, which on a mostly known line is a word
//! or two instead of the whole line.

use crate::line::words::{Fits, run_right_word, shl_in_place};

/// Fills `ready` and `reach` (`clue.len() + 1` sets of `n` words each) as
/// [`crate::line::bits`]'s `forward` does: `reach[j]` the positions `p` such that exactly the first
/// `j` blocks fit in cells `0..p`, `ready[j]` those where besides a block may start at `p`.
/// `can_empty` includes the virtual empty cell at the line's end; `fits` serves `can_fill`.
/// `windows[j]` (filled here for lines of over eight words, left empty for the others, whose
/// sets are written whole: see [`window`]) holds the words of `ready[j]` and `reach[j]` that
/// were written and may be set; the words outside it are not written, and must not be read.
pub(super) fn forward(
    (ready, reach, windows): (&mut Vec<u64>, &mut Vec<u64>, &mut Vec<(usize, usize)>),
    fits: &mut Fits<u32>,
    ends: &mut Vec<u64>,
    clue: &[u32],
    can_fill: &[u64],
    can_empty: &[u64],
) {
    // Lines of 127 to 510 cells (three to eight words, with the virtual cell) get passes of a
    // known number of words, which the compiler unrolls; longer ones pass over the words where
    // each block may end (see [`forward_windowed`]).
    let n = can_fill.len();
    windows.clear();
    if n > 8 {
        return forward_windowed((ready, reach, windows), fits, clue, can_fill, can_empty);
    }
    let sets = (ready, reach, fits, ends);
    match n {
        3 => forward_words::<3>(sets, clue, can_fill, can_empty),
        4 => forward_words::<4>(sets, clue, can_fill, can_empty),
        5 => forward_words::<5>(sets, clue, can_fill, can_empty),
        6 => forward_words::<6>(sets, clue, can_fill, can_empty),
        7 => forward_words::<7>(sets, clue, can_fill, can_empty),
        8 => forward_words::<8>(sets, clue, can_fill, can_empty),
        _ => forward_words::<0>(sets, clue, can_fill, can_empty),
    }
}

/// [`forward`] over the words where the sets can have a bit: block `j + 1` can only start
/// after where block `j` may, and the run of cells that can be empty after it stops at the
/// first cell that cannot. On a long line with many known cells each block has a window of a
/// word or two, so a pass costs far less than blocks x words. Not inlined, so that the
/// unrolled passes of shorter lines stay as they were.
#[inline(never)]
fn forward_windowed(
    (ready, reach, windows): (&mut Vec<u64>, &mut Vec<u64>, &mut Vec<(usize, usize)>),
    fits: &mut Fits<u32>,
    clue: &[u32],
    can_fill: &[u64],
    can_empty: &[u64],
) {
    let n = can_fill.len();
    ready.resize((clue.len() + 1) * n, 0);
    reach.resize((clue.len() + 1) * n, 0);
    fits.clear();
    // Runs right from position 0, until the first cell that cannot be empty.
    let (mut carry, mut end) = (false, 0);
    while end < n {
        let word = run_right_word(u64::from(end == 0), can_empty[end], &mut carry);
        if word == 0 {
            break;
        }
        (ready[end], reach[end]) = (word, word);
        end += 1;
    }
    windows.push((0, end));
    for (j, &block) in clue.iter().enumerate() {
        let fit = fits.index(block, block, || can_fill);
        let (done, next) = ready.split_at_mut((j + 1) * n);
        let sets = (&done[j * n..], &mut next[..n]);
        let reach_next = &mut reach[(j + 1) * n..(j + 2) * n];
        let window = next_window(
            sets,
            reach_next,
            windows[j],
            fits.set(fit, n),
            block,
            can_empty,
        );
        windows.push(window);
    }
}

/// One block's step of [`forward_windowed`]: from `done` (`ready[j]`, read within `window`)
/// and the block's possible starts, writes `next` (`ready[j + 1]`) and `reach_next` where they
/// can be set; returns the written words that hold their set bits.
#[inline]
fn next_window(
    (done, next): (&[u64], &mut [u64]),
    reach_next: &mut [u64],
    (lo, hi): (usize, usize),
    starts: &[u64],
    block: u32,
    can_empty: &[u64],
) -> (usize, usize) {
    let n = can_empty.len();
    let (q, r) = (block as usize / 64, block % 64);
    let placed = |w: usize| {
        if (lo..hi).contains(&w) {
            done[w] & starts[w]
        } else {
            0
        }
    };
    // Word `i` of the block's ends: `(done & starts) << block`.
    let end_word = |i: usize| {
        let carried = if r == 0 || i <= q {
            0
        } else {
            placed(i - q - 1) >> (64 - r)
        };
        placed(i - q) << r | carried
    };
    let (first, ends_end) = (lo + q, (hi + q + 1).min(n));
    let (mut carry, mut below) = (false, 0u64);
    let (mut set_from, mut set_to) = (n, 0);
    let mut i = first;
    while i < n {
        let ends = if i < ends_end { end_word(i) } else { 0 };
        let word = past_ends(ends, can_empty[i], &mut below, &mut carry);
        next[i] = word;
        reach_next[i] = word | ends;
        if word | ends != 0 {
            (set_from, set_to) = (set_from.min(i), i + 1);
        }
        i += 1;
        // No end left to place, no separator to carry, and the run over (a zero word
        // carries nothing out): the rest would be zero, and stays out of the window.
        if i >= ends_end && word == 0 && below == 0 {
            break;
        }
    }
    if set_from < set_to {
        (set_from, set_to)
    } else {
        (0, 0)
    }
}

/// [`forward`] over sets of `N` words, or of as many as `can_fill` has for `N = 0`.
#[inline(always)]
fn forward_words<const N: usize>(
    (ready, reach, fits, ends): (&mut Vec<u64>, &mut Vec<u64>, &mut Fits<u32>, &mut Vec<u64>),
    clue: &[u32],
    can_fill: &[u64],
    can_empty: &[u64],
) {
    let n = if N == 0 { can_fill.len() } else { N };
    let (can_fill, can_empty) = (&can_fill[..n], &can_empty[..n]);
    // Every word of these is written below.
    ready.resize((clue.len() + 1) * n, 0);
    reach.resize((clue.len() + 1) * n, 0);
    ends.resize(n, 0);
    fits.clear();
    // Runs right from position 0.
    let mut carry = false;
    for i in 0..n {
        let seed = u64::from(i == 0);
        let word = run_right_word(seed, can_empty[i], &mut carry);
        ready[i] = word;
        reach[i] = word;
    }
    for (j, &block) in clue.iter().enumerate() {
        let fit = fits.index(block, block, || can_fill);
        let starts = fits.set(fit, n);
        let (done, next) = ready.split_at_mut((j + 1) * n);
        let ends = &mut ends[..n];
        // The ends of block `j` placed at a start it may take.
        for ((end, &now), &fits) in ends.iter_mut().zip(&done[j * n..]).zip(starts) {
            *end = now & fits;
        }
        shl_in_place(ends, block as usize);
        let (next, reach_next) = (&mut next[..n], &mut reach[(j + 1) * n..(j + 2) * n]);
        let (mut carry, mut below) = (false, 0u64);
        for i in 0..n {
            let word = past_ends(ends[i], can_empty[i], &mut below, &mut carry);
            next[i] = word;
            reach_next[i] = word | ends[i];
        }
    }
}

/// One word of the positions reachable past a block's `ends`: past an empty cell after an end
/// (`open`, the cells that can be empty), then on over cells that can be empty. `below`
/// carries the previous word's separators, `carry` the run's addition, from word to word.
#[inline(always)]
fn past_ends(ends: u64, open: u64, below: &mut u64, carry: &mut bool) -> u64 {
    let separated = ends & open;
    let seed = separated << 1 | *below >> 63;
    *below = separated;
    run_right_word(seed, open, carry)
}

/// The words of set `j` that were written: `windows[j]`, or all `n` when the passes wrote
/// every word (no windows kept).
#[inline]
pub(super) fn window(windows: &[(usize, usize)], j: usize, n: usize) -> (usize, usize) {
    windows.get(j).copied().unwrap_or((0, n))
}
