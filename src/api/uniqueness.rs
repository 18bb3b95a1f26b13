//! Whether a picture's clues have one solution: [`AnyPuzzle::uniqueness`] compares solutions and
//! marks the cells that differ, and [`Uniqueness::report`] says so in words, as `make` prints it.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::color::AnyPuzzle;
use crate::flow::Flow;
use crate::search::{Engine, SolveError, SolverOptions};

use super::picture::Picture;

/// What a check of uniqueness found ([`AnyPuzzle::uniqueness`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Uniqueness {
    /// Solutions compared.
    pub found: u64,
    /// Whether they are every solution.
    pub exhausted: bool,
    /// Whether the cancel flag stopped the check before it found every solution or the most
    /// it was to compare.
    pub cancelled: bool,
    /// For each cell, row-major, whether it differs between the solutions compared (empty
    /// when none was found).
    pub varying: Vec<bool>,
}

impl AnyPuzzle {
    /// Compares up to `max_solutions` solutions (at least one), on `threads` threads (`0`: one
    /// per core), found by the search [`Engine::for_run`] chooses, until `cancel` is raised:
    /// one solution found with the search exhausted means the clues are unique; otherwise
    /// [`Uniqueness::varying`] says which cells differ.
    pub fn uniqueness(
        &self,
        threads: usize,
        max_solutions: u64,
        cancel: Arc<AtomicBool>,
    ) -> Result<Uniqueness, SolveError> {
        let options = SolverOptions {
            threads,
            engine: Engine::for_run(threads, Some(max_solutions), false),
            ..SolverOptions::default()
        };
        let (mut varying, mut first, mut found) = (Vec::new(), None::<Vec<u8>>, 0u64);
        let solver = self.solver(options).with_solution_limit(max_solutions);
        let outcome = solver.with_cancel_flag(cancel).run(|grid| {
            let cells = grid.to_cells();
            match &first {
                None => {
                    varying = vec![false; cells.len()];
                    first = Some(cells);
                }
                Some(f) => {
                    for (v, (a, b)) in varying.iter_mut().zip(f.iter().zip(&cells)) {
                        *v |= a != b;
                    }
                }
            }
            found += 1;
            if found >= max_solutions {
                Flow::Stop
            } else {
                Flow::Continue
            }
        })?;
        Ok(Uniqueness {
            found,
            exhausted: outcome.exhausted,
            // Short of the limit and of every solution, only the cancel flag stops the search.
            cancelled: !outcome.exhausted && found < max_solutions,
            varying,
        })
    }
}

impl Uniqueness {
    /// The report on `picture`'s clues that `make` prints, naming the picture `name`: unique,
    /// or not and which cells vary (one line, then the picture's rows with `?` for those
    /// cells), or what was found before the check was `stopped` (the reason, in words).
    pub fn report(&self, name: &str, picture: &Picture, stopped: Option<&str>) -> String {
        let (w, h) = (picture.width, picture.height);
        let n = picture.colors.len().saturating_sub(1);
        let noun = if n == 1 { "colour" } else { "colours" };
        let size = format!("{name}: {w}x{h}, {n} {noun} besides the background");
        let bound = match (self.found, stopped) {
            (0 | 1, Some(why)) => return format!("{size}: incomplete: search {why}\n"),
            (0, None) => return format!("{size}: no solution\n"),
            (1, None) => return format!("{size}: unique\n"),
            (n, Some(why)) => format!("at least {n} solutions; incomplete: {why}"),
            (n, None) if self.exhausted => format!("{n} solutions"),
            (n, None) => format!("at least {n} solutions"),
        };
        let count = self.varying.iter().filter(|&&v| v).count();
        let mut text = format!("{size}: not unique ({bound}); {count} cells vary (marked `?`):\n");
        for row in picture.marked_rows(&self.varying) {
            text += &row;
            text.push('\n');
        }
        text
    }
}

impl Picture {
    /// The rows of the picture in its palette's characters, `?` for the cells marked in
    /// `varying` (as [`Uniqueness::varying`] marks them).
    pub fn marked_rows(&self, varying: &[bool]) -> Vec<String> {
        let chars: Vec<char> = self.colors.iter().map(|c| c.ch).collect();
        let cell = |i: usize| match varying.get(i) {
            Some(true) => '?',
            _ => chars[usize::from(self.cells[i])],
        };
        (0..self.height)
            .map(|r| (0..self.width).map(|c| cell(r * self.width + c)).collect())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A diagonal: its clues also fit the other diagonal.
    const DIAGONAL: &[u8] = b"P1\n2 2\n1 0\n0 1\n";

    /// The picture of `pbm`, its puzzle, and the check of up to 10 solutions.
    fn checked(pbm: &[u8]) -> (Picture, AnyPuzzle, Uniqueness) {
        let picture = Picture::read_pbm(pbm).unwrap();
        let puzzle = AnyPuzzle::Color(picture.puzzle().unwrap());
        let check = puzzle.uniqueness(1, 10, Arc::default()).unwrap();
        (picture, puzzle, check)
    }

    #[test]
    fn ambiguous_clues_mark_the_cells_that_vary() {
        let (picture, puzzle, check) = checked(DIAGONAL);
        assert_eq!(
            (check.found, check.exhausted, check.cancelled),
            (2, true, false)
        );
        assert_eq!(picture.marked_rows(&check.varying), ["??", "??"]);
        let first_only = puzzle.uniqueness(1, 1, Arc::default()).unwrap();
        assert_eq!((first_only.found, first_only.cancelled), (1, false));
        let cancelled = puzzle
            .uniqueness(1, 10, Arc::new(AtomicBool::new(true)))
            .unwrap();
        assert!(cancelled.cancelled);
    }

    #[test]
    fn the_report_says_unique_or_which_cells_vary() {
        let (diagonal, _, check) = checked(DIAGONAL);
        assert_eq!(
            check.report("d.pbm", &diagonal, None),
            "d.pbm: 2x2, 1 colour besides the background: not unique (2 solutions); 4 cells \
             vary (marked `?`):\n??\n??\n"
        );
        let stopped = check.report("d.pbm", &diagonal, Some("interrupted"));
        assert!(stopped.contains("(at least 2 solutions; incomplete: interrupted)"));
        let (full, _, check) = checked(b"P1\n2 1\n1 1\n");
        let unique = "f: 2x1, 1 colour besides the background: unique\n";
        assert_eq!(check.report("f", &full, None), unique);
        let none = Uniqueness { found: 0, ..check };
        assert!(
            none.report("f", &full, Some("time limit reached"))
                .ends_with(": incomplete: search time limit reached\n")
        );
    }
}
