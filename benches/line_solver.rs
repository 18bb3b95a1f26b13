//! Benchmarks of the line solvers: the dynamic program on short, long and very long lines, the
//! naive enumerating solver on short lines and the multi-word bit-parallel solver on long ones
//! for comparison.
//!
//! Every case is a clue together with a line that satisfies it (the "picture"); the solver is
//! given a fraction of the picture's cells as known, so every case is solvable. The setup checks
//! the answers before anything is timed: on 25-cell lines the fast solver must agree with the
//! naive one; on long lines every forced cell must agree with the picture, and with no known
//! cells the forced cells must be exactly the classical leftmost/rightmost overlap.
//!
//! Run with `cargo bench --bench line_solver` (add a filter such as `-- 1000` to run a group).

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_main};
use nonoenum::line::{DpLineSolver, LineIn, LineOut, LineSolver, LongLineSolver, NaiveLineSolver};

/// Row clues of a 25x25 tournament puzzle (TAAI 2011, #1): typical dense tournament lines.
const TOURNAMENT_CLUES: [&[u32]; 8] = [
    &[2, 1, 1, 1, 1, 2, 3],
    &[1, 2, 3, 4, 1, 1],
    &[1, 1, 5, 1, 1, 1, 2],
    &[1, 1, 2, 1, 4, 4, 1, 1],
    &[1, 5, 3, 1, 1, 1, 1, 3],
    &[2, 2, 1, 1, 2, 2, 1],
    &[2, 1, 1, 1, 1, 1, 3, 3, 1],
    &[2, 1, 1, 1, 1, 2, 2, 2],
];

/// A small deterministic generator (SplitMix64), so every run benchmarks the same lines.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// One benchmark input: a clue and the known cells of a line, with the picture they came from.
struct Case {
    clue: Vec<u32>,
    len: usize,
    filled: Vec<u64>,
    empty: Vec<u64>,
    picture: Vec<bool>,
}

impl Case {
    /// Places the clue's blocks at random in `len` cells, then reveals each cell of the
    /// resulting picture with probability `known_percent`/100.
    fn generate(clue: &[u32], len: usize, known_percent: u64, rng: &mut SplitMix) -> Case {
        let used: usize = clue.iter().map(|&b| b as usize).sum::<usize>() + clue.len();
        let slack = (len + 1).checked_sub(used).expect("clue fits the line");
        // Spread the spare cells over the gaps: before each block, and after the last one.
        let gaps = clue.len() + 1;
        let mut extra = vec![0usize; gaps];
        for _ in 0..slack {
            extra[rng.below(gaps as u64) as usize] += 1;
        }
        let mut picture = Vec::with_capacity(len);
        for (j, &b) in clue.iter().enumerate() {
            let gap = extra[j] + usize::from(j > 0);
            picture.extend(std::iter::repeat_n(false, gap));
            picture.extend(std::iter::repeat_n(true, b as usize));
        }
        picture.resize(len, false);
        let words = len.div_ceil(64);
        let (mut filled, mut empty) = (vec![0; words], vec![0; words]);
        for (i, &cell) in picture.iter().enumerate() {
            if rng.below(100) < known_percent {
                let plane = if cell { &mut filled } else { &mut empty };
                plane[i / 64] |= 1 << (i % 64);
            }
        }
        Case {
            clue: clue.to_vec(),
            len,
            filled,
            empty,
            picture,
        }
    }

    /// The line as a solver reads it.
    fn line(&self) -> LineIn<'_> {
        LineIn {
            clue: &self.clue,
            len: self.len,
            filled: &self.filled,
            empty: &self.empty,
        }
    }

    /// Runs a solver once; `(filled, empty)` afterwards.
    fn solve_with(&self, solver: &mut dyn LineSolver) -> (Vec<u64>, Vec<u64>) {
        let (mut out_filled, mut out_empty) =
            (vec![0; self.filled.len()], vec![0; self.empty.len()]);
        let out = LineOut {
            filled: &mut out_filled,
            empty: &mut out_empty,
        };
        solver
            .solve(self.line(), out)
            .expect("the case is built from a valid picture");
        (out_filled, out_empty)
    }

    /// Checks an answer against the picture: the known cells are kept, and every forced cell
    /// has the picture's value.
    fn check_consistent(&self, (out_filled, out_empty): &(Vec<u64>, Vec<u64>)) {
        for (w, (&f, &e)) in self.filled.iter().zip(&self.empty).enumerate() {
            assert_eq!(out_filled[w] & f, f, "a known filled cell was lost");
            assert_eq!(out_empty[w] & e, e, "a known empty cell was lost");
            assert_eq!(
                out_filled[w] & out_empty[w],
                0,
                "a cell is both filled and empty"
            );
        }
        for (i, &cell) in self.picture.iter().enumerate() {
            let (f, e) = (bit(out_filled, i), bit(out_empty, i));
            if f || e {
                assert_eq!(f, cell, "cell {i} forced against the picture");
            }
        }
    }

    /// With no known cells, checks the answer against the overlap rule, which is exact there:
    /// a cell is forced filled iff some block covers it in both its leftmost and rightmost
    /// placement, and forced empty iff no block can reach it.
    fn check_overlap(&self, (out_filled, out_empty): &(Vec<u64>, Vec<u64>)) {
        assert!(self.filled.iter().chain(&self.empty).all(|&w| w == 0));
        let mut must_fill = vec![false; self.len];
        let mut can_fill = vec![false; self.len];
        let mut leftmost = 0;
        let mut rightmost = self.len + 1 - self.clue.iter().map(|&b| b as usize + 1).sum::<usize>();
        for &b in &self.clue {
            let b = b as usize;
            // The block starts anywhere in leftmost..=rightmost.
            if rightmost < leftmost + b {
                must_fill[rightmost..leftmost + b].fill(true);
            }
            can_fill[leftmost..rightmost + b].fill(true);
            leftmost += b + 1;
            rightmost += b + 1;
        }
        for i in 0..self.len {
            assert_eq!(bit(out_filled, i), must_fill[i], "overlap rule, cell {i}");
            assert_eq!(bit(out_empty, i), !can_fill[i], "reach rule, cell {i}");
        }
    }
}

fn bit(words: &[u64], i: usize) -> bool {
    words[i / 64] >> (i % 64) & 1 == 1
}

/// A clue of `blocks` random blocks (each `1..=max_block` long) that fits `len` cells.
fn random_clue(blocks: usize, max_block: u64, len: usize, rng: &mut SplitMix) -> Vec<u32> {
    loop {
        let clue: Vec<u32> = (0..blocks)
            .map(|_| 1 + rng.below(max_block) as u32)
            .collect();
        let used: usize = clue.iter().map(|&b| b as usize + 1).sum();
        if used <= len + 1 {
            return clue;
        }
    }
}

/// Solves every case once with `solver` (buffers reused across calls, as in search).
fn solve_all(
    solver: &mut impl LineSolver,
    cases: &[Case],
    out_filled: &mut [u64],
    out_empty: &mut [u64],
) {
    for case in cases {
        let words = case.filled.len();
        let out = LineOut {
            filled: &mut out_filled[..words],
            empty: &mut out_empty[..words],
        };
        let result = solver.solve(black_box(case.line()), out);
        black_box(result).expect("solvable");
    }
}

/// 25-cell tournament lines, with 0%, 30% and 60% of the cells known: dp against naive.
fn short_lines(c: &mut Criterion) {
    let mut group = c.benchmark_group("line/25-cell-x8");
    group.throughput(Throughput::Elements(TOURNAMENT_CLUES.len() as u64));
    for known in [0, 30, 60] {
        let mut rng = SplitMix(25 + known);
        let cases: Vec<Case> = TOURNAMENT_CLUES
            .iter()
            .map(|clue| Case::generate(clue, 25, known, &mut rng))
            .collect();
        for case in &cases {
            let fast = case.solve_with(&mut DpLineSolver::new());
            let naive = case.solve_with(&mut NaiveLineSolver);
            assert_eq!(fast, naive, "dp and naive disagree on {:?}", case.clue);
            case.check_consistent(&fast);
            if known == 0 {
                case.check_overlap(&fast);
            }
        }
        let label = format!("{known}%-known");
        group.bench_with_input(BenchmarkId::new("dp", &label), &cases, |b, cases| {
            let mut solver = DpLineSolver::new();
            let (mut of, mut oe) = ([0u64; 1], [0u64; 1]);
            b.iter(|| solve_all(&mut solver, cases, &mut of, &mut oe));
        });
        group.bench_with_input(BenchmarkId::new("naive", &label), &cases, |b, cases| {
            let mut solver = NaiveLineSolver;
            let (mut of, mut oe) = ([0u64; 1], [0u64; 1]);
            b.iter(|| {
                for case in cases {
                    let out = LineOut {
                        filled: &mut of,
                        empty: &mut oe,
                    };
                    let result = solver.solve(black_box(case.line()), out);
                    black_box(result).expect("solvable");
                }
            });
        });
    }
    group.finish();
}

/// One long line per case, empty and half known: dp against the multi-word bit-parallel solver
/// (naive is exponential here).
fn long_line(c: &mut Criterion, len: usize, blocks: usize, max_block: u64) {
    let mut group = c.benchmark_group(format!("line/{len}-cell-{blocks}-blocks"));
    // Fewer samples, so that the 1000-cell line fits the measurement time.
    group.sample_size(50);
    let mut rng = SplitMix(len as u64 * 1000 + blocks as u64);
    let clue = random_clue(blocks, max_block, len, &mut rng);
    for known in [0, 50] {
        let case = Case::generate(&clue, len, known, &mut rng);
        let answer = case.solve_with(&mut DpLineSolver::new());
        case.check_consistent(&answer);
        if known == 0 {
            case.check_overlap(&answer);
        }
        let long = case.solve_with(&mut LongLineSolver::new());
        assert_eq!(long, answer, "dp and long disagree on {:?}", case.clue);
        let label = if known == 0 { "empty" } else { "half-known" };
        let words = case.filled.len();
        group.bench_with_input(BenchmarkId::new("dp", label), &case, |b, case| {
            let mut solver = DpLineSolver::new();
            let (mut of, mut oe) = (vec![0u64; words], vec![0u64; words]);
            b.iter(|| solve_all(&mut solver, std::slice::from_ref(case), &mut of, &mut oe));
        });
        group.bench_with_input(BenchmarkId::new("long", label), &case, |b, case| {
            let mut solver = LongLineSolver::new();
            let (mut of, mut oe) = (vec![0u64; words], vec![0u64; words]);
            b.iter(|| solve_all(&mut solver, std::slice::from_ref(case), &mut of, &mut oe));
        });
    }
    group.finish();
}

fn long_lines(c: &mut Criterion) {
    // 15 blocks of 1..=6 cells in 100: roughly 65-75% of the line used, like large puzzles.
    long_line(c, 100, 15, 6);
    // 100 blocks of 1..=8 cells in 1000.
    long_line(c, 1000, 100, 8);
    // 250 blocks of 1..=4 cells in 1000: dense, many blocks.
    long_line(c, 1000, 250, 4);
    // One block of one cell in 2000: a column of a 2000x2000 permutation puzzle.
    long_line(c, 2000, 1, 1);
}

/// Runs every group (what `criterion_group!` would generate, but documented).
fn benches() {
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    short_lines(&mut c);
    long_lines(&mut c);
}

criterion_main!(benches);
