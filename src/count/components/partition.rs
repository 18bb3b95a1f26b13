//! The components of a grid's unknown cells: cells that share a segment of their row or of
//! their column are joined (a union-find forest), and each component keeps the segments it
//! lies in, whose digest keys the counter's cache.

use std::hash::{BuildHasher, Hash, Hasher};

use rustc_hash::FxBuildHasher;

use crate::count::countable::Countable;
use crate::count::segments::Segment;
use crate::domain::DomainGrid;
use crate::puzzle::LineId;

/// The number of unknown cells of `grid` (a propagated grid of `puzzle`) and of them the
/// most that one component holds, or `None` if a line has no placement or `stopped` said so.
pub(in crate::count) fn largest_component<P: Countable>(
    puzzle: &P,
    grid: &P::Grid,
    stopped: &dyn Fn() -> bool,
) -> Option<(usize, usize)> {
    let unknown = unknown_cells(grid);
    let components = Components::find(puzzle, grid, &unknown, usize::MAX, stopped)?;
    let largest = components.parts.iter().map(|p| p.cells.len()).max();
    Some((unknown.len(), largest.unwrap_or(0)))
}

/// The unknown cells of `grid` (a propagated grid of `puzzle`) in their components, each
/// row-major, the components in the order of their first cell; `None` if a line has no
/// placement, a component has more than `max_cells` cells (found out as soon as it has, so
/// a huge grid of one component costs little), or if `stopped` said stop first.
pub(crate) fn component_cells<P: Countable>(
    puzzle: &P,
    grid: &P::Grid,
    max_cells: usize,
    stopped: &dyn Fn() -> bool,
) -> Option<Vec<Vec<(u32, u32)>>> {
    let unknown = unknown_cells(grid);
    let components = Components::find(puzzle, grid, &unknown, max_cells, stopped)?;
    Some(components.parts.into_iter().map(|p| p.cells).collect())
}

/// The unknown cells of a grid, row-major.
pub(crate) fn unknown_cells<G: DomainGrid>(grid: &G) -> Vec<(u32, u32)> {
    let mut cells = Vec::with_capacity(grid.undecided());
    for r in 0..grid.height() {
        for c in 0..grid.width() {
            if grid.values(r, c).count_ones() > 1 {
                cells.push((r as u32, c as u32));
            }
        }
    }
    cells
}

/// One component: its unknown cells and the segments they lie in.
pub(super) struct Part {
    pub(super) cells: Vec<(u32, u32)>,
    /// `(line index, segment)`, sorted.
    segments: Vec<(u32, Segment)>,
}

impl Part {
    /// The bytes its lists take.
    pub(super) fn heap_bytes(&self) -> usize {
        self.cells.capacity() * std::mem::size_of::<(u32, u32)>()
            + self.segments.capacity() * std::mem::size_of::<(u32, Segment)>()
    }

    /// A 128-bit digest of the component's residual problem: each segment's line, blocks and
    /// cells, with the known ones. Equal problems have equal digests; unequal ones collide
    /// with probability about 2^-128 per pair.
    pub(super) fn digest<G: DomainGrid>(&self, grid: &G) -> u128 {
        let halves = [0x9e37_79b9_7f4a_7c15_u64, 0xc2b2_ae3d_27d4_eb4f].map(|seed| {
            let mut h = FxBuildHasher.build_hasher();
            seed.hash(&mut h);
            for &(line, seg) in &self.segments {
                (line, seg).hash(&mut h);
                let height = grid.height() as u32;
                for i in seg.start..=seg.last {
                    let (r, c) = if line < height {
                        (line, i)
                    } else {
                        (i, line - height)
                    };
                    grid.values(r as usize, c as usize).hash(&mut h);
                }
                h.write_u64(seed.rotate_left(17));
            }
            h.finish()
        });
        u128::from(halves[0]) << 64 | u128::from(halves[1])
    }
}

/// Cells between two questions to the stop flag of [`Components::find`].
const CELLS_BETWEEN_STOP_CHECKS: usize = 4096;

/// The components of a set of unknown cells.
pub(super) struct Components {
    pub(super) parts: Vec<Part>,
}

impl Components {
    /// Splits `cells` (unknown in `grid`) into components, or `None` if a line through them
    /// has no placement, a component grows past `max_cells` cells, or `stopped`, asked every
    /// [`CELLS_BETWEEN_STOP_CHECKS`] cells, says so.
    pub(super) fn find<P: Countable>(
        puzzle: &P,
        grid: &P::Grid,
        cells: &[(u32, u32)],
        max_cells: usize,
        stopped: &dyn Fn() -> bool,
    ) -> Option<Self> {
        let (h, w) = (grid.height(), grid.width());
        // The segments of every line through the cells.
        let mut rows: Vec<Option<Vec<Segment>>> = vec![None; h];
        let mut cols: Vec<Option<Vec<Segment>>> = vec![None; w];
        let mut solver = P::SegmentSolver::default();
        let stop_at = |i: usize| i.is_multiple_of(CELLS_BETWEEN_STOP_CHECKS) && stopped();
        for (i, &(r, c)) in cells.iter().enumerate() {
            if stop_at(i) {
                return None;
            }
            for (line, slot) in [
                (LineId::Row(r as usize), &mut rows[r as usize]),
                (LineId::Col(c as usize), &mut cols[c as usize]),
            ] {
                if slot.is_none() {
                    *slot = Some(puzzle.segments(&mut solver, grid, line)?);
                }
            }
        }
        let mut joined = Self::join(&rows, &cols, cells, max_cells, stopped)?;
        let mut parent = std::mem::take(&mut joined.parent);
        let mut part_of_root = vec![u32::MAX; cells.len()];
        let mut parts: Vec<Part> = Vec::new();
        for (i, &cell) in cells.iter().enumerate() {
            if stop_at(i) {
                return None;
            }
            let r = root(&mut parent, i as u32) as usize;
            if part_of_root[r] == u32::MAX {
                part_of_root[r] = parts.len() as u32;
                parts.push(Part {
                    cells: Vec::new(),
                    segments: Vec::new(),
                });
            }
            let part = &mut parts[part_of_root[r] as usize];
            part.cells.push(cell);
            // Each segment once, by the first of its cells: a huge component would otherwise
            // sort two entries a cell (8 million on a 2000x2000 grid) to drop the repeats.
            for (line, k) in joined.keys[i] {
                if !joined.first_cell_of(line, k, i) {
                    continue;
                }
                let segs = if line < h as u32 {
                    rows[line as usize].as_deref()
                } else {
                    cols[(line - h as u32) as usize].as_deref()
                };
                if let Some(seg) = segs.and_then(|s| s.get(k as usize)) {
                    part.segments.push((line, *seg));
                }
            }
        }
        for part in &mut parts {
            if stopped() {
                return None;
            }
            part.segments
                .sort_unstable_by_key(|&(line, seg)| (line, seg.start));
        }
        Some(Components { parts })
    }

    /// Joins `cells` into components through the line segments they share (`rows` and
    /// `cols` hold the segments of every line through them): a union-find forest, and each
    /// cell's segment in its row and its column. `None` if a component grows past
    /// `max_cells` cells, or if `stopped` says so.
    fn join(
        rows: &[Option<Vec<Segment>>],
        cols: &[Option<Vec<Segment>>],
        cells: &[(u32, u32)],
        max_cells: usize,
        stopped: &dyn Fn() -> bool,
    ) -> Option<Joined> {
        let h = rows.len();
        // The segment of a line holding position `i`.
        let segment_of = |segs: &[Segment], i: u32| {
            let k = segs.partition_point(|s| s.last < i);
            debug_assert!(
                k < segs.len() && segs[k].start <= i,
                "unknown cell outside spans"
            );
            k.min(segs.len().saturating_sub(1))
        };
        // Each line's segments numbered densely, so that a segment is an index.
        let mut first_slot = vec![0usize; rows.len() + cols.len() + 1];
        for (line, segs) in rows.iter().chain(cols).enumerate() {
            first_slot[line + 1] = first_slot[line] + segs.as_ref().map_or(0, Vec::len);
        }
        // Union-find over cells, joined through the first cell seen in each segment.
        let mut parent: Vec<u32> = (0..cells.len() as u32).collect();
        let mut size = vec![1u32; cells.len()];
        let mut first_in = vec![u32::MAX; first_slot[rows.len() + cols.len()]];
        let mut keys = Vec::with_capacity(cells.len());
        for (i, &(r, c)) in cells.iter().enumerate() {
            if i.is_multiple_of(CELLS_BETWEEN_STOP_CHECKS) && stopped() {
                return None;
            }
            let row_seg = segment_of(rows[r as usize].as_deref().unwrap_or(&[]), c);
            let col_seg = segment_of(cols[c as usize].as_deref().unwrap_or(&[]), r);
            let cell_keys = [(r, row_seg as u32), (h as u32 + c, col_seg as u32)];
            for (line, k) in cell_keys {
                let slot = &mut first_in[first_slot[line as usize] + k as usize];
                if *slot == u32::MAX {
                    *slot = i as u32;
                }
                let (a, b) = (root(&mut parent, i as u32), root(&mut parent, *slot));
                if a != b {
                    parent[a as usize] = b;
                    size[b as usize] += size[a as usize];
                    if size[b as usize] as usize > max_cells {
                        return None;
                    }
                }
            }
            keys.push(cell_keys);
        }
        Some(Joined {
            parent,
            keys,
            first_slot,
            first_in,
        })
    }
}

/// Cells joined into components by [`Components::join`].
struct Joined {
    /// The union-find forest over the cells.
    parent: Vec<u32>,
    /// Each cell's row and column, each as its line number and the number of its segment.
    keys: Vec<[(u32, u32); 2]>,
    /// Where each line's segments start in `first_in`.
    first_slot: Vec<usize>,
    /// The first cell seen in each segment.
    first_in: Vec<u32>,
}

impl Joined {
    /// Whether cell `i` is the first cell seen in segment `k` of `line`.
    fn first_cell_of(&self, line: u32, k: u32, i: usize) -> bool {
        self.first_in[self.first_slot[line as usize] + k as usize] == i as u32
    }
}

/// The root of cell `x` in the union-find forest `parent`, halving the path to it.
fn root(parent: &mut [u32], mut x: u32) -> u32 {
    while parent[x as usize] != x {
        parent[x as usize] = parent[parent[x as usize] as usize];
        x = parent[x as usize];
    }
    x
}
