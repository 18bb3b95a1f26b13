//! A bounded cross-check against the independent oracle of `../shared/oracle` (the Ganak model
//! counter, and OR-Tools CP-SAT), which shares no code or method with nonoenum: random
//! pictures of 3x3 to 10x10 at densities 0.2 to 0.7, counted by both, with 1 and 2 threads.
//! `scripts/oracle-check` runs the same comparison at scale.
//!
//! Skips, saying so, when the oracle or its Python packages are missing. `.ci/run` installs
//! them into `/tmp/oracle-venv` (or set `NONOENUM_ORACLE_PYTHON` to a Python that has them).

use std::path::{Path, PathBuf};
use std::process::Command;

use nonoenum::{AnyPuzzle, BigUint, CountLimits, CountOptions, ExactOutcome};

use nonoenum::format::read_puzzles;
use nonoenum::{Probing, Solver, SolverOptions};

const ORACLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/oracle/oracle.py");

/// A Python that can import the oracle's packages, if any.
fn oracle_python() -> Option<PathBuf> {
    if !Path::new(ORACLE).exists() {
        eprintln!("skipping: the oracle {ORACLE} is missing");
        return None;
    }
    let python = std::env::var_os("NONOENUM_ORACLE_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/tmp/oracle-venv/bin/python"));
    let usable = Command::new(&python)
        .args(["-c", "import pyganak, ortools"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !usable {
        eprintln!(
            "skipping: {} cannot import the oracle's packages (see ../shared/oracle/README.md)",
            python.display()
        );
        return None;
    }
    Some(python)
}

fn oracle(python: &Path, args: &[&str]) -> String {
    let output = Command::new(python)
        .arg(ORACLE)
        .args(args)
        .output()
        .expect("the oracle runs");
    assert!(
        output.status.success(),
        "oracle {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8")
}

#[test]
fn counts_agree_with_the_oracle_on_random_pictures() {
    let Some(python) = oracle_python() else {
        return;
    };
    let tmp = tempfile::TempDir::new().expect("temp dir");
    for seed in 1..=40u32 {
        let rows = 3 + (seed * 7 % 8);
        let cols = 3 + (seed * 5 % 8);
        let density = format!("{:.2}", 0.2 + f64::from(seed % 11) * 0.05);
        let clues = oracle(
            &python,
            &[
                "gen",
                "--rows",
                &rows.to_string(),
                "--cols",
                &cols.to_string(),
                "--density",
                &density,
                "--seed",
                &seed.to_string(),
            ],
        );
        let file = tmp.path().join(format!("random-{seed}.txt"));
        std::fs::write(&file, &clues).expect("write puzzle");
        let file_arg = file.to_str().expect("path");
        // Ganak for all, CP-SAT (slower to start) for every fifth.
        let engine = if seed % 5 == 0 { "cpsat" } else { "ganak" };
        let expected: u64 = oracle(
            &python,
            &["count", "--engine", engine, "--timeout", "60", file_arg],
        )
        .trim()
        .parse()
        .expect("the oracle prints a count");
        let puzzle = read_puzzles(clues.as_bytes(), None, None)
            .expect("the oracle's clues parse")
            .remove(0);
        for threads in [1, 2] {
            let outcome = Solver::new(
                &puzzle,
                SolverOptions {
                    threads,
                    probing: Probing::Adaptive,
                    ordered: false,
                    restarts: true,
                    engine: Default::default(),
                },
            )
            .count()
            .expect("runs");
            assert!(outcome.exhausted);
            assert_eq!(
                outcome.solutions, expected,
                "{rows}x{cols} density {density} seed {seed}, {threads} threads, vs {engine}"
            );
        }
        // Counting without enumerating: by profiles, by the sweep and by components alone,
        // by the sweep racing components, and by the sweep from the grid with its backbone
        // fixed.
        let at_once = Some(std::time::Duration::ZERO);
        let defaults = CountLimits::default();
        let (max, memory) = (defaults.max_profiles, defaults.sweep_memory);
        let puzzle = AnyPuzzle::Bw(puzzle.clone());
        let methods = [
            (max, 0, false, None),
            (0, memory, false, None),
            (0, 0, false, None),
            (0, memory, true, None),
            (0, memory, false, at_once),
        ];
        for (max_profiles, sweep_memory, race, backbone_after) in methods {
            let limits = CountLimits {
                max_profiles,
                sweep_memory,
                race,
                completion_checks: true,
                backbone_after,
                sweep_from: None,
                ..CountLimits::default()
            };
            let options = CountOptions {
                threads: 1,
                limits,
                per_cell: false,
            };
            let outcome = puzzle.counter(options).run().expect("counts");
            let ExactOutcome::Counted(counted) = outcome else {
                panic!("counted: {outcome:?}");
            };
            assert_eq!(
                counted.count,
                BigUint::from(expected),
                "{rows}x{cols} density {density} seed {seed}, decompose {limits:?} vs {engine}"
            );
        }
    }
    eprintln!("40 random puzzles agree with the oracle");
}
